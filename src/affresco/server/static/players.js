// The seat's own screen, the painters' cards and the module panels.
import { t, tOr } from "./i18n.js";
import { chips, figureColour, h, parseTile, plain, rich } from "./ui.js";
import { cardEffects, cardTitle, planTiles, signed } from "./words.js";
import * as API from "./api.js";
import { planWords } from "./decide.js";
import { S, render } from "./store.js";
import { infoButton } from "./help.js";
import { bellsLine, bellsPanel } from "./bells.js";
import { wallLine, wallPanel } from "./wall.js";
import { medicoLine, medicoPanel } from "./medico.js";

// ---------------------------------------------------------------------------------------
// the seat's screen, the painters, module items

export function myScreen(st, ctx) {
  const v = st.view;
  const f = v.figures[st.seat];
  if (!f) return null;
  const rows = [
    [t("screen.paints"), f.paints !== undefined ? (f.paints ? h("span.paints", chips(f.paints, { grouped: true })) : t("screen.no_paints")) : "?"],
    [t("screen.thalers"), f.thalers !== undefined ? h("span.thalers", { "data-testid": "my-thalers" }, String(f.thalers)) : "?"],
    [t("screen.apprentices"), apprenticeText(f)],
  ];
  if (f.plan) rows.push([t("screen.plan"), [planWords(v, f.plan), ...planTiles(v, st.seat).map((x) => `; ${x}`)]]);
  rows.push(...moduleScreenRows(v, st.seat));
  const scrolls = v.scrolls && v.scrolls.mine;
  if (scrolls) rows.push([t("screen.scrolls"), scrollText(scrolls)]);
  if (S.mail && S.mail.enabled) rows.push([t("mail.label"), mailForm()]);
  return h("section.card.screen", { "data-testid": "my-screen" },
    h("h2", t("screen.title", { name: ctx.figName(st.seat) }), infoButton("screen", "screen")),
    h("dl.kv", rows.map(([k, val]) => [h("dt", k), h("dd", val)])));
}

/** The seat's own module items behind and in front of the screen (bells, wall, medico). */
function moduleScreenRows(v, seat) {
  const rows = [];
  const b = v.bells && v.bells.figures && v.bells.figures[seat];
  if (b) {
    const own = b.face_down_certificates || [];
    const bells = own.reduce((a, c) => a + c.bells, 0);
    const up = (b.partly_paid || []).map((c) => t("bells.paid", { paid: c.paid, price: c.price })).join(", ");
    rows.push([t("module.bells"), h("span", { "data-testid": "my-bells" },
      t("bells.yours", { n: own.length, bells }), up ? ` · ${t("bells.partly")} ${up}` : "")]);
  }
  const w = v.wall_fresco;
  if (w) {
    const tiles = (w.tiles || [])[seat] || [];
    const ex = (w.exchange_tiles || [])[seat] || [];
    rows.push([t("module.wall_fresco"), h("span", { "data-testid": "my-wall" },
      t("wall.tiles", { n: tiles.length }), ex.length ? ` · ${t("wall.exchange_tiles")} ${ex.join(" ")}` : "")]);
  }
  const m = v.medico;
  if (m) {
    const held = (m.held || [])[seat] || [];
    rows.push([t("module.medico"), h("span", { "data-testid": "my-medico" },
      t("medico.ill", { n: (m.ill || [])[seat] || 0 }), held.length ? ` · ${t("medico.held")} ${held.map((x) => t(`bottle.${x}`)).join(", ")}` : "")]);
  }
  return rows;
}

export function scrollText(s) {
  const parts = [];
  if (s.row) parts.push(t("screen.scroll_row", { row: s.row }));
  if (s.column) parts.push(t("screen.scroll_column", { col: s.column }));
  return parts.length ? parts.join(", ") : t("screen.scrolls_played");
}

export function apprenticeText(f) {
  let s = String(f.apprentices ?? "?");
  if (f.neutral_apprentice) s += ` (${t("screen.neutral")})`;
  if (f.apprentice_set_aside) s += ` (${t("screen.set_aside")})`;
  return s;
}

export function playersPanel(st, ctx) {
  const v = st.view;
  const seats = st.seats || [];
  const toAct = new Set(st.to_act || []);
  const cards = v.figures.map((f, i) => {
    const seatInfo = seats.find((s) => s.seat === i);
    const acting = !f.leonardo && toAct.has(i) && !st.is_over;
    const lines = [];
    const facts = [t("players.vp", { n: f.vp ?? 0 })];
    if (f.getup) facts.push(t("players.getup", { time: f.getup }));
    if (!f.leonardo) {
      facts.push(t("players.mood", { zone: signed(f.mood_zone || 0) }));
      let extra = "";
      if (f.neutral_apprentice) extra += ` (${t("screen.neutral")})`;
      if (f.apprentice_set_aside) extra += ` (${t("screen.set_aside")})`;
      facts.push(t("players.apprentices", { n: f.apprentices ?? "?" }) + extra);
    }
    if (f.thalers !== undefined && i !== st.seat) facts.push(t("players.thalers", { n: f.thalers }));
    lines.push(h("div.facts", facts.join(" · ")));
    if (f.paints !== undefined && i !== st.seat) lines.push(h("div", t("screen.paints"), ": ", f.paints ? h("span.paints", chips(f.paints, { grouped: true })) : "—"));
    // plan: public once revealed; while planning only whether it is committed
    if (f.plan && (i !== st.seat || st.seat === null)) {
      lines.push(h("div.plan-line", t("players.plan", { plan: [planWords(v, f.plan), ...planTiles(v, i)].join("; ") })));
    }
    else if (v.phase === "plan" && !f.leonardo) {
      lines.push(h("div.plan-line", { "data-testid": `committed-${i}` },
        (f.plan_committed ?? (st.committed || [])[i]) ? h("span.ok", "✓ ", t("players.committed"))
          : h("span.muted", "… ", t("players.planning"))));
    }
    const tiles = f.tiles || [];
    if (tiles.length) {
      const sum = tiles.reduce((a, x) => a + (parseTile(x) ? parseTile(x).vp : 0), 0);
      lines.push(h("div.tiles-line", t("players.tiles", { n: tiles.length, vp: sum }), " ",
        tiles.map((x) => tileChip(x))));
    }
    lines.push(...moduleLines(v, i));
    // points by source: the engine's own accounting (view.vp_sources), never recomputed here
    const src = (v.vp_sources || [])[i] || {};
    const srcKeys = Object.keys(src).filter((k) => src[k]);
    if (srcKeys.length) {
      lines.push(h("div.vp-src", { "data-testid": `vp-sources-${i}` },
        srcKeys.map((k) => `${tOr(`source.${k}`, k)} ${src[k]}`).join(" · ")));
    }
    const kind = seatInfo ? (seatInfo.kind === "bot"
      ? h("span.tag.bot", t("players.bot", { name: tOr(`bot.${seatInfo.bot}`, seatInfo.bot || "?") }))
      : h("span.tag", { class: seatInfo.connected ? "online" : "offline", title: t(seatInfo.connected ? "players.online" : "players.offline") },
        h("span.dot", { "aria-hidden": "true" }), t(seatInfo.connected ? "players.online" : "players.offline"))) : null;
    return h("li.player", { class: [acting ? "acting" : "", i === st.seat ? "me" : ""].join(" "), "data-testid": `player-${i}` },
      h("div.player-head",
        h("span.disc", { style: `background:${figureColour(v, i)}`, "aria-hidden": "true" }, ctx.labels[i]),
        h("strong", ctx.figName(i)),
        i === st.seat ? h("span.tag.you", t("players.you")) : null,
        f.leonardo && v.leonardo_controller !== null && v.leonardo_controller !== undefined
          ? h("span.tag", t("players.leo_by", { name: ctx.figName(v.leonardo_controller) })) : null,
        kind,
        acting ? h("span.tag.turn", t("players.to_act")) : null),
      lines);
  });
  const order = (v.order || []).length ? h("p.muted.small", t("players.order", { names: v.order.join(" → ") })) : null;
  return h("section.card", { "data-testid": "players" }, h("h2", t("players.title"), infoButton("players", "players")), h("ul.players", cards), order);
}

export function tileChip(text) {
  const tile = parseTile(text);
  if (!tile) return null;
  const title = tile.splashes ? t("players.tile_title", { vp: tile.vp, paints: tile.paints, splashes: tile.splashes })
    : t("players.tile_title_plain", { vp: tile.vp, paints: tile.paints });
  return h("span.tile-chip", { title },
    h("b", String(tile.vp)), tile.splashes ? h("span.splashes", chips(tile.splashes)) : null);
}

export function moduleLines(v, i) {
  const out = [];
  const p = v.portraits;
  if (p && p.owned && p.owned[i] && p.owned[i].length) {
    out.push(h("div", t("players.portraits"), ": ", p.owned[i].map((c) => h("span.tag", { title: plain(cardEffects(c)) }, cardTitle(c)))));
  }
  const r = v.requests;
  if (r && r.fulfilled && r.fulfilled[i] && r.fulfilled[i].length) {
    out.push(h("div", t("players.requests"), ": ",
      r.fulfilled[i].map((x) => h("span.tag", `${tOr(`request.${x.type}`, x.type)} ${x.vp}`))));
  }
  const sc = v.scrolls;
  if (sc && sc.unplayed && sc.unplayed[i] !== undefined && !v.figures[i].leonardo) {
    out.push(h("div.muted", t("players.scrolls", { n: sc.unplayed[i] })));
  }
  for (const line of [bellsLine(v, i), wallLine(v, i), medicoLine(v, i)]) if (line) out.push(line);
  // replay of a finished game: each seat's own module items ("hands")
  const hand = v.hands && v.hands[String(i)];
  if (hand && hand.scrolls && hand.scrolls.mine) {
    out.push(h("div.muted", t("screen.scrolls"), ": ", scrollText(hand.scrolls.mine)));
  }
  return out;
}

/** The boards of modules 8-10 (bells, wall fresco, medico), each a panel with what can be clicked. */
export const MODULE_BOARDS = { bells: bellsPanel, wall: wallPanel, medico: medicoPanel };
export const MODULE_VIEW_KEY = { bells: "bells", wall: "wall_fresco", medico: "medico" };

export function modulesPanel(v, ctx, { boards = true } = {}) {
  const parts = [];
  if (boards) {
    // the live state's legal actions when this is its view (a replay's view has none)
    const st = S.state && S.state.view === v ? S.state : { view: v, seat: null, legal: [] };
    for (const make of Object.values(MODULE_BOARDS)) {
      const el = make(st, ctx);
      if (el) parts.push(el);
    }
  }
  const p = v.portraits;
  if (p) {
    const left = p.deck_left ? Object.entries(p.deck_left).map(([d, n]) => `${d}: ${n}`).join(", ") : "";
    parts.push(h("div.module", { "data-testid": "portraits" },
      h("h3", tOr("module.portraits", "Portraits"), infoButton("module-portraits", "module.portraits")),
      h("div.cards", (p.display || []).length ? p.display.map((c) => h("div.pcard", { "data-testid": `portrait-${c.id}` },
        h("strong", cardTitle(c)), h("span.muted", ` (${c.deck}${c.permanent ? `, ${t("portrait.permanent")}` : ""})`),
        h("div.small", rich(cardEffects(c))))) : h("p.muted", t("portrait.none"))),
      left ? h("p.muted.small", t("portrait.decks", { left })) : null));
  }
  const r = v.requests;
  if (r && r.stacks) {
    parts.push(h("div.module", { "data-testid": "requests" },
      h("h3", tOr("module.requests", "Requests"), infoButton("module-requests", "module.requests")),
      h("ul.inline", Object.entries(r.stacks).map(([type, vals]) => h("li",
        h("strong", tOr(`request.${type}`, type)), ": ",
        vals.length ? t("request.top", { vp: vals[vals.length - 1], n: vals.length }) : t("request.empty"))))));
  }
  const sc = v.special_colours;
  if (sc) {
    parts.push(h("div.module", { "data-testid": "special-colours" },
      h("h3", tOr("module.special_colours", "Special colours"), infoButton("module-special_colours", "module.special_colours")),
      h("p.small", rich(t("special.altar"))),
      sc.on_fresco ? h("p.small", rich(t("special.on_fresco", { k: sc.fresco_bonus.K ?? 3, n: sc.fresco_bonus.N ?? 5 }))) : null));
  }
  const bf = v.bishops_favour;
  if (bf) {
    parts.push(h("div.module", { "data-testid": "bishops-favour" },
      h("h3", tOr("module.bishops_favour", "Bishop's favour"), infoButton("module-bishops_favour", "module.bishops_favour")),
      h("p.small", t("favour.left", { n: bf.tokens_left }))));
  }
  if (v.scrolls) {
    parts.push(h("div.module", { "data-testid": "scrolls" },
      h("h3", tOr("module.scrolls", "Scrolls"), infoButton("module-scrolls", "module.scrolls")), h("p.small", t("scrolls.rule"))));
  }
  // anything a module adds that has no widget of its own: shown as plain text
  const known = new Set(["seat", "round", "final_round", "action_sheet_side", "columns", "phase", "to_act", "actor",
    "actor_figure", "location", "column", "visit_left", "fresco", "bishop", "leonardo_painter", "leonardo_controller",
    "booths", "bag_size", "hostel", "mood_display", "order", "figures", "pending_track", "is_over", "legal_actions", "events", "vp_sources",
    "portraits", "requests", "special_colours", "bishops_favour", "scrolls", "hands", "bells", "wall_fresco", "medico",
    "asks", "components", "deciding", "house_rules", "modules", "options"]);
  for (const key of Object.keys(v).filter((k) => !known.has(k)).sort()) {
    parts.push(h("div.module", { "data-testid": `module-view-${key}` },
      h("h3", tOr(`module.${key}`, key), infoButton(`module-${key}`, `module.${key}`)), h("p.small", shortText(v[key]))));
  }
  const legend = h("p.legend.small.muted", t("board.legend"));
  return h("div.modules", parts, legend);
}

export function shortText(value) {
  if (Array.isArray(value)) return value.map(shortText).join(", ") || "—";
  if (value && typeof value === "object") {
    return Object.entries(value).map(([k, x]) => `${k}: ${shortText(x)}`).join("; ") || "—";
  }
  return value === null || value === undefined ? "—" : String(value);
}

/** Optional e-mail "your turn" / "game over" (only when the server sends mail). */
function mailForm() {
  const input = h("input", {
    type: "email", id: "mail-input", "data-testid": "mail-input", value: S.mail.email || "", autocomplete: "email",
    placeholder: "name@example.org", "aria-label": t("mail.label"),
  });
  const save = async (e) => {
    e.preventDefault();
    try {
      // the form's live field (a redraw in place keeps the page's own, not this render's)
      S.mail = await API.setNotify(S.route.token, e.currentTarget.querySelector("[data-testid=mail-input]").value);
      S.mailNote = S.mail.email ? t("mail.on") : t("mail.off");
    } catch (err) {
      S.mailNote = err.message;
    }
    render();
  };
  return h("form.mail-form", { onsubmit: save },
    input, h("button", { type: "submit", "data-testid": "mail-save" }, t("mail.save")),
    S.mailNote ? h("span.small.muted", { role: "status", "data-testid": "mail-note" }, S.mailNote) : null);
}
