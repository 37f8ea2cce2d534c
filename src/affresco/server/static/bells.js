// Module 8, the bells (docs/modules/bells.md): the bell board (certificates on display, the
// stack), each painter's public count and partly paid certificates, the seat's own face-down
// certificates (private, R22), and the bell scoring track.  What can be clicked comes from the
// legal actions ("audience <cert> ...", "deposit <cert> ..."): a certificate selects its ways
// (pay in full, or how much of an instalment) in the decision area.
import { t } from "./i18n.js";
import { figureColour, h, icon } from "./ui.js";
import { certWords, columnWord } from "./words.js";
import { S, render } from "./store.js";
import { infoButton } from "./help.js";

/** The certificates the legal actions name, per kind ("audience" or "deposit"). */
function certsIn(legal, kind) {
  return new Set(legal.filter((a) => a.startsWith(`${kind} `)).map((a) => a.split(" ")[1]).filter((c) => c !== "none"));
}

function certCard(c, { hot = false, selected = false, testid, paid = null, onclick = null } = {}) {
  const attrs = {
    type: "button", class: ["cert", hot ? "hot" : "", selected ? "sel" : ""].join(" "), "data-testid": testid,
    "data-cert": c.certificate, disabled: !hot || S.busy, "aria-pressed": hot ? (selected ? "true" : "false") : null,
    "aria-label": certWords(c), onclick,
  };
  return h("button", attrs,
    h("span.cert-bells", { "aria-hidden": "true" }, icon("bell"), String(c.bells)),
    h("span.cert-line", t("bells.price", { n: c.price })),
    h("span.cert-line", t("bells.vp", { n: c.vp })),
    paid !== null ? h("span.cert-line.paid", t("bells.paid", { paid, price: c.price })) : null);
}

const select = (cert) => () => {
  S.selection = S.selection && S.selection.type === "cert" && S.selection.id === cert ? null : { type: "cert", id: cert };
  render();
};

export function bellsPanel(st, ctx) {
  const v = st.view;
  const b = v.bells;
  if (!b) return null;
  const legal = (st.seat !== null && st.seat !== undefined && st.legal) || [];
  const buyable = certsIn(legal, "audience");
  const payable = certsIn(legal, "deposit");
  const sel = S.selection && S.selection.type === "cert" ? S.selection.id : null;
  const display = h("div.certs", { "data-testid": "bells-display" },
    b.display.length ? b.display.map((c, i) => certCard(c, {
      hot: buyable.has(c.certificate), selected: sel === c.certificate, testid: `cert-${i}`,
      onclick: select(c.certificate),
    })) : h("p.muted.small", t("bells.none_left")));
  const rows = v.figures.map((f, i) => {
    const e = b.figures[i] || {};
    const parts = [t("bells.count", { n: e.certificates || 0 })];
    const aud = (b.audience || [])[i];
    if (aud) parts.push(t("bells.audience_at", { col: columnWord(aud) }));
    const up = (e.partly_paid || []).map((c, k) => certCard(c, {
      hot: i === st.seat && payable.has(c.certificate), selected: i === st.seat && sel === c.certificate,
      testid: `partly-${i}-${k}`, paid: c.paid, onclick: select(c.certificate),
    }));
    const own = e.face_down_certificates;
    const bells = own ? own.reduce((a, c) => a + c.bells, 0) : null;
    return h("li.bell-row", { "data-testid": `bells-figure-${i}` },
      h("span.disc.small", { style: `background:${figureColour(v, i)}`, "aria-hidden": "true" }, ctx.labels[i]),
      h("span", h("strong", ctx.figName(i)), " ", parts.join(" · ")),
      own && own.length ? h("span.small.muted", { "data-testid": `bells-own-${i}` },
        i === st.seat && !b.track ? t("bells.yours", { n: own.length, bells }) : t("bells.revealed", { n: own.length, bells })) : null,
      up.length ? h("div.certs.partly", h("span.small", t("bells.partly")), up) : null);
  });
  return h("div.module.mod-panel", { "data-testid": "bells-panel" },
    h("h3", t("module.bells"), infoButton("module-bells", "module.bells")),
    h("p.small.muted", t("bells.stack", { n: b.stack }),
      // none on display: the audiences still to come are void this round, and for good only
      // once the stack is empty too ("After the last certificate is bought ...")
      b.audience_usable === false ? ` · ${t(b.stack ? "bells.audience_void_round" : "bells.audience_void")}` : ""),
    display,
    h("ul.bell-rows", rows),
    bellTrack(v, ctx));
}

/** The bell scoring track: thresholds, rank points and, after final scoring, who stands where. */
function bellTrack(v, ctx) {
  const b = v.bells;
  const top = b.track_top || 30;
  const at = new Map();
  if (b.track) {
    (b.track.figures || []).forEach((x, i) => { if (x !== null && x !== undefined) at.set(x, [...(at.get(x) || []), i]); });
    if (b.track.bishop !== null && b.track.bishop !== undefined) at.set(b.track.bishop, [...(at.get(b.track.bishop) || []), "bishop"]);
  }
  const marks = new Map((b.thresholds || []).map(([space, vp]) => [space, vp]));
  const spaces = [];
  for (let s = 0; s <= top; s++) {
    const who = at.get(s) || [];
    const mark = marks.get(s);
    spaces.push(h("span.bt-space", {
      class: [mark ? "mark" : "", who.length ? "taken" : ""].join(" "), "data-space": s,
      title: mark ? t("bells.threshold", { space: s === top ? `${top}+` : s, vp: mark }) : String(s),
    },
    h("span.bt-no", s === top ? `${top}+` : String(s)),
    who.map((x) => (x === "bishop" ? h("span.bt-bishop", { title: t("board.bishop") }, "✝")
      : h("span.disc.tiny", { style: `background:${figureColour(v, x)}`, title: ctx.figName(x) }, ctx.labels[x])))));
  }
  const ranks = (b.rank_points || []).map((p, i) => t("bells.rank", { rank: i + 1, vp: p })).join(" · ");
  return h("div.bell-track", { "data-testid": "bell-track" },
    h("h4", t("bells.track")),
    h("div.bt-spaces", spaces),
    h("p.small.muted", t("bells.thresholds", {
      list: (b.thresholds || []).map(([s, vp]) => `${s}→${vp}`).join(", "),
    }), " · ", ranks));
}

/** One line of a painter's card: certificates (public count) and partly paid ones. */
export function bellsLine(v, i) {
  const e = v.bells && v.bells.figures && v.bells.figures[i];
  if (!e || !e.certificates) return null;
  const up = (e.partly_paid || []).map((c) => t("bells.paid", { paid: c.paid, price: c.price })).join(", ");
  return h("div.small", { "data-testid": `bells-line-${i}` }, t("bells.count", { n: e.certificates }), up ? ` (${t("bells.partly")} ${up})` : "");
}
