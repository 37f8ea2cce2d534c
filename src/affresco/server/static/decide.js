// The decision area: the prompt, the choices in words, the buy and plan widgets.
import { paintMark, t, tOr } from "./i18n.js";
import { actingFigure, chips, columnLabel, h, hostelPrice, rich, sortBuyTiles, testid } from "./ui.js";
import { certWords, describe, parseCert, planTiles, previewText } from "./words.js";
import { S, figureName, render, request, send, sendUndo } from "./store.js";
import { bishopTargets, filterActions } from "./game.js";
import { infoButton, placeHelp } from "./help.js";

export function decisionPanel(st, ctx) {
  const v = st.view;
  const legal = st.legal || [];
  const body = [];
  const fig = actingFigure(v, st.seat);
  const forLeo = legal.length && v.figures[fig] && v.figures[fig].leonardo;
  if (!legal.length) {
    body.push(h("p", st.is_over ? t("status.over") : waitingText(st)));
    if (v.phase === "plan" && v.figures[st.seat] && v.figures[st.seat].plan) {
      body.push(h("p.muted", t("plan.yours", { plan: [planWords(v, v.figures[st.seat].plan), ...planTiles(v, st.seat)].join("; ") })));
    }
  } else {
    if (forLeo) body.push(h("p.leo-note", t("decide.for_leonardo")));
    body.push(h("p.prompt", { "data-testid": "prompt" }, promptText(st, fig)));
    if (S.note) body.push(h("p.note", { role: "status", "data-testid": "note" }, S.note));
    const plans = legal.filter((a) => a.startsWith("plan "));
    if (plans.length) body.push(planWidget(st, plans));
    const rest = legal.filter((a) => !a.startsWith("plan "));
    if (S.selection && S.selection.type === "booth") body.push(buyWidget(st));
    if (rest.length) body.push(actionList(st, rest, fig));
  }
  const undoBtn = st.undo ? h("button.undo", {
    type: "button", "data-testid": "undo", disabled: S.busy, onclick: sendUndo,
  }, "↶ ", t("game.undo")) : null;
  const collapsed = !!S.sheetCollapsed;
  const handle = h("button.sheet-handle", {
    type: "button", "data-testid": "sheet-handle", "aria-expanded": collapsed ? "false" : "true",
    "aria-label": t(collapsed ? "decide.expand" : "decide.collapse"),
    onclick: () => { S.sheetCollapsed = !collapsed; render(); },
  }, h("span", { "aria-hidden": "true" }));
  return h("section.card.decision", {
    "data-testid": "decision", class: [legal.length ? "active" : "", collapsed ? "collapsed" : ""].join(" "),
    "aria-label": legal.length ? t("decide.title") : t("decide.waiting_title"),
  },
  handle,
  h("div.card-head", h("h2", legal.length ? t("decide.title") : t("decide.waiting_title")), undoBtn),
  body);
}

export function waitingText(st) {
  const v = st.view;
  if (v.phase === "plan") {
    const waiting = (st.to_act || []).map((s) => figureName(st, s));
    return t("decide.wait_plans", { names: waiting.join(", ") || "—" });
  }
  const names = (st.to_act || []).map((s) => figureName(st, s));
  return names.length ? t("status.waiting", { names: names.join(", ") }) : t("decide.nothing");
}

export function promptText(st, fig) {
  const v = st.view;
  const legal = st.legal;
  const kinds = new Set(legal.map((a) => a.split(" ")[0]));
  const left = v.visit_left;
  if ((v.figures[fig] || {}).leonardo && !v.pending_track) {
    if (kinds.has("getup")) return t("prompt.leo.getup");
    if (kinds.has("close")) return t("prompt.leo.market");
    if (kinds.has("restore")) return t("prompt.leo.cathedral");
    return t("prompt.leo.generic");
  }
  if (v.pending_track && kinds.has("track")) return t("prompt.track", { behind: v.pending_track.behind, ahead: v.pending_track.ahead });
  if (kinds.has("plan")) return t("prompt.plan", { n: v.figures[st.seat].apprentices });
  if (S.selection && S.selection.type === "cert") {
    return kinds.has("deposit") ? t("prompt.deposit_cert") : t("prompt.audience_cert");
  }
  for (const k of ["audience", "deposit", "wall", "medicine", "illness", "heal", "aside"]) {
    if (kinds.has(k)) return t(`prompt.${k}`);
  }
  if (kinds.has("saints") && !kinds.has("studio")) return t("prompt.saints");
  if (kinds.has("getup")) return t("prompt.getup");
  if (kinds.has("income")) return t("prompt.income");
  if (kinds.has("scroll")) return t("prompt.scroll");
  if (S.selection && S.selection.type === "segment") {
    const targets = bishopTargets(legal, S.selection.id);
    return targets.size ? t("prompt.segment_bishop", { seg: S.selection.id }) : t("prompt.segment", { seg: S.selection.id });
  }
  if (S.selection && S.selection.type === "booth") return t("prompt.booth", { booth: S.selection.id, n: left ?? 1 });
  const col = v.location;
  // nothing can be done here (too few paints, Thalers or tiles): the rules force the forfeit (N2)
  if (col && legal.length === 1 && legal[0] === "pass") {
    const ask = (v.asks || [])[0];     // the wall tile's visit at this column's turn (module 9)
    return t("prompt.forced", { place: ask && ask[1] === "wall_fresco" ? t("kind.wall") : columnLabel(v, v.column) });
  }
  if (col === "market") return t("prompt.market", { n: left ?? 1 });
  if (col === "cathedral") return t("prompt.cathedral", { n: left ?? 1 });
  if (col === "studio") return kinds.has("portrait") ? t("prompt.studio_portrait", { n: left ?? 1 }) : t("prompt.studio", { n: left ?? 1 });
  if (col === "workshop") {
    if (kinds.has("blend")) return t("prompt.workshop", { n: left ?? 1 });
    return kinds.has("request") ? t("prompt.workshop_request") : t("prompt.workshop_exchange");
  }
  if (col === "theater") return t("prompt.theater", { n: left ?? 1 });
  return t("prompt.generic");
}

export const KIND_ORDER = ["track", "getup", "audience", "deposit", "wall", "medicine", "buy", "close", "restore", "altar",
  "studio", "saints", "portrait", "blend", "exchange", "request", "theater", "income", "scroll", "illness", "heal", "aside",
  "pass"];

/** One button per booth and per segment with several ways, instead of every combination:
 *  the first step of a long choice (the second is the board's or the filtered list's). */
function stepButtons(st, actions, fig) {
  const v = st.view;
  const groups = new Map();
  for (const a of actions) {
    const w = a.split(" ");
    let key = null;
    if (w[0] === "buy" || w[0] === "close") key = `booth:${w[1]}`;
    else if (w[0] === "restore") key = `segment:${w[1]}`;
    else if (w[0] === "altar") key = "altar:altar";
    else if ((w[0] === "audience" || w[0] === "deposit") && w[1] !== "none") key = `cert:${w[1]}`;
    if (!key) continue;
    if (!groups.has(key)) groups.set(key, []);
    groups.get(key).push(a);
  }
  const steps = [];
  const folded = new Set();
  for (const [key, acts] of groups) {
    if (acts.length < 2) continue;
    const cut = key.indexOf(":");
    const type = key.slice(0, cut), id = key.slice(cut + 1);       // a certificate's id has colons
    acts.forEach((a) => folded.add(a));
    let label;
    if (type === "booth") {
      const tiles = (v.booths[id] || []).map(paintMark).join(" ");
      label = acts.some((a) => a.startsWith("buy ")) ? t("step.booth", { booth: id, tiles }) : describe(acts[0], v, fig);
    } else if (type === "segment") {
      const vps = acts.map((a) => S.preview && S.preview[a] ? S.preview[a].vp : null).filter((x) => x !== null);
      const range = vps.length ? ` → ${t("preview.vp", { n: Math.min(...vps) === Math.max(...vps) ? Math.max(...vps) : `${Math.min(...vps)}–${Math.max(...vps)}` })}` : "";
      label = describe(`restore ${id}`, v, fig) + range + t("step.ways", { n: acts.length });
    } else if (type === "cert") {
      label = t(acts[0].startsWith("deposit ") ? "step.deposit" : "step.cert", { cert: certWords(parseCert(id)), n: acts.length });
    } else {
      label = t("step.altar", { n: acts.length });
    }
    steps.push({ type, id, label, n: acts.length, first: acts[0] });
  }
  return { steps, folded };
}

export function actionList(st, actions, fig) {
  const v = st.view;
  const sel = S.selection;
  let shown = filterActions(actions, sel);
  if (sel && !shown.length) shown = actions;
  let stepEls = [];
  if (!sel && (shown.length > 6 || shown.some((a) => a.startsWith("audience ") || a.startsWith("deposit ")))) {
    const { steps, folded } = stepButtons(st, shown, fig);
    shown = shown.filter((a) => !folded.has(a));
    stepEls = steps.map((s) => h("button.action.step", {
      type: "button", "data-testid": `step-${s.type}-${s.id}`, disabled: S.busy,
      onclick: () => { S.selection = { type: s.type, id: s.id, tiles: [] }; render(); },
    }, rich(s.label), h("span.step-arrow", { "aria-hidden": "true" }, " ▸")));
  }
  const byKind = new Map();
  for (const a of shown) {
    const k = a.split(" ")[0];
    if (!byKind.has(k)) byKind.set(k, []);
    byKind.get(k).push(a);
  }
  const kinds = [...byKind.keys()].sort((a, b) => {
    const ia = KIND_ORDER.indexOf(a), ib = KIND_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  const groups = kinds.map((k) => h("div.action-group",
    byKind.size + (stepEls.length ? 1 : 0) > 1 ? h("h3", tOr(`kind.${k}`, k)) : null,
    byKind.get(k).map((a) => h("button.action", {
      type: "button", "data-testid": testid(a), "data-action": a, disabled: S.busy,
      class: a === "pass" ? "pass" : "",
      onclick: () => send(a),
    }, rich(describe(a, v, fig) + previewText(S.preview && S.preview[a]))))));
  return h("div.actions-box",
    sel ? h("div.filter-note", t("decide.filtered", { n: shown.length, all: actions.length }),
      h("button.small.ghost", { type: "button", "data-testid": "selection-clear", onclick: () => { S.selection = null; render(); } }, t("decide.show_all"))) : null,
    h("div.action-list", { role: "group", "aria-label": t("decide.choices") },
      stepEls.length ? h("div.action-group", h("h3", t("step.title")), stepEls) : null, groups));
}

export function buyWidget(st) {
  const v = st.view;
  const sel = S.selection;
  const tiles = v.booths[sel.id] || [];
  const chosen = sel.tiles.map((j) => tiles[j]).filter(Boolean);
  const fig = actingFigure(v, st.seat);
  const price = hostelPrice(v, fig);
  const notation = chosen.length ? `buy ${sel.id} ${sortBuyTiles(chosen).join(" ")}` : null;
  const ok = notation && st.legal.includes(notation);
  const canBuy = st.legal.some((a) => a.startsWith(`buy ${sel.id} `));
  if (!canBuy) return null;
  return h("div.buy-widget", { "data-testid": "buy-widget" },
    h("p.hint", t("buy.hint", { booth: sel.id }),
      price !== null ? ` ${t("buy.price", { price, n: (v.figures[fig] || {}).thalers ?? 0 })}` : ""),
    h("div.buy-line",
      h("span", chosen.length ? chosen.map((c) => h("span.paints", chips(c))) : t("buy.none")),
      h("button.primary", {
        type: "button", "data-testid": "buy-confirm", disabled: !ok || S.busy,
        onclick: () => ok && send(notation),
      }, price !== null && chosen.length
        ? t("buy.confirm_cost", { n: chosen.length, cost: price * chosen.length })
        : t("buy.confirm", { n: chosen.length }))));
}

/** A plan notation (docs/notation.md) -> its parts: counts, the audience and wall tiles'
 *  columns, the ill apprentices per column, the medico tile. */
export function parsePlan(notation) {
  const w = notation.trim().split(/\s+/).slice(1);
  const out = { counts: w[0].split("-").map(Number), audience: null, wall: null, ill: null, medico: false };
  for (let i = 1; i < w.length; i++) {
    if (w[i] === "audience" || w[i] === "wall") out[w[i]] = w[++i];
    else if (w[i] === "ill") out.ill = w[++i].split("-").map(Number);
    else if (w[i] === "medico") out.medico = true;
  }
  return out;
}

/** The plan notation of the widget's choices, in the engine's canonical word order. */
export function planNotation(p) {
  let n = `plan ${p.counts.join("-")}`;
  if (p.audience) n += ` audience ${p.audience}`;
  if (p.wall) n += ` wall ${p.wall}`;
  if (p.ill && p.ill.some((x) => x)) n += ` ill ${p.ill.join("-")}`;
  if (p.medico) n += " medico";
  return n;
}

/** How the plan notation names the columns ("cathedral2" for the final round's second visit). */
export const columnWords = (cols) => cols.map((c, i) => (cols.slice(0, i).includes(c) ? `${c}2` : c));

let limitsOf = { st: null, limits: null };

/** What the legal plans allow (apprentices per column and in all, where each tile may go, ill
 *  apprentices per column, the medico tile), read once per state: a plan has thousands of ways. */
function planLimits(st, plans, n) {
  if (limitsOf.st === st) return limitsOf.limits;
  const L = { perColumn: 0, available: 0, tileCols: { audience: new Set(), wall: new Set() },
    illMax: Array.from({ length: n }, () => 0), medico: false };
  for (const a of plans) {
    const p = parsePlan(a);
    L.perColumn = Math.max(L.perColumn, ...p.counts);
    L.available = Math.max(L.available, p.counts.reduce((x, y) => x + y, 0));
    if (p.audience) L.tileCols.audience.add(p.audience);
    if (p.wall) L.tileCols.wall.add(p.wall);
    if (p.ill) p.ill.forEach((k, i) => { L.illMax[i] = Math.max(L.illMax[i], k); });
    L.medico = L.medico || p.medico;
  }
  limitsOf = { st, limits: L };
  return L;
}

// The widget's half-built plan is kept in the tab's sessionStorage: a reload (a phone's page
// dropped in the background, a lost connection) brings back the choices made so far.  It is
// read back once, when the page is loaded; a reset, an undo or another game starts afresh.
const PLAN_KEY = "affresco.plan";
let planRestored = false;

function savedPlan(key, n, perColumn, available, words) {
  let p;
  try { p = JSON.parse(sessionStorage.getItem(PLAN_KEY) || "null"); } catch (e) { return null; }
  const whole = (x, max) => Number.isInteger(x) && x >= 0 && x <= max;
  if (!p || p.key !== key || !Array.isArray(p.counts) || !Array.isArray(p.ill) || p.counts.length !== n
      || p.ill.length !== n || !p.counts.every((x) => whole(x, perColumn)) || p.counts.reduce((a, b) => a + b, 0) > available
      || !p.ill.every((x, i) => whole(x, p.counts[i]))
      || ![p.audience, p.wall].every((w) => w === null || words.includes(w))) return null;
  return { key, counts: p.counts, audience: p.audience, wall: p.wall, ill: p.ill, medico: p.medico === true };
}

export function planWidget(st, plans) {
  const v = st.view;
  const cols = v.columns || [];
  const words = columnWords(cols);
  const key = `${st.game_id}:${st.seat}:${v.round}:${cols.length}`;
  const { perColumn, available, tileCols, illMax, medico } = planLimits(st, plans, cols.length);
  if (!S.plan || S.plan.key !== key) {
    S.plan = (!planRestored && savedPlan(key, cols.length, perColumn, available, words))
      || { key, counts: cols.map(() => 0), audience: null, wall: null, ill: cols.map(() => 0), medico: false };
  }
  planRestored = true;
  try { sessionStorage.setItem(PLAN_KEY, JSON.stringify(S.plan)); } catch (e) { /* storage blocked */ }
  const P = S.plan;
  const counts = P.counts;
  const used = counts.reduce((a, b) => a + b, 0);
  const notation = planNotation(P);
  const ok = plans.includes(notation);
  const anyIll = illMax.some((n) => n);
  const colEls = cols.map((name, i) => h("div.plan-col", {
    "data-testid": `plan-col-${i}`, title: placeHelp(`col.${name}`),
    class: [P.audience === words[i] ? "covered-audience" : "", P.wall === words[i] ? "covered-wall" : ""].join(" "),
  },
    h("div.plan-name", columnLabel(v, i)),
    h("button.plan-btn", {
      type: "button", "data-testid": `plan-inc-${i}`, "aria-label": t("plan.inc", { col: columnLabel(v, i) }),
      disabled: counts[i] >= perColumn || used >= available || S.busy,
      onclick: () => { counts[i] += 1; render(); },
    }, "+"),
    h("div.plan-slots", { role: "img", "aria-label": t("plan.count", { n: counts[i] }) },
      Array.from({ length: perColumn }, (_, k) => h("span.slot", { class: k < counts[i] - (P.ill[i] || 0) ? "full" : k < counts[i] ? "full ill" : "" }))),
    h("div.plan-count", { "data-testid": `plan-count-${i}` }, String(counts[i])),
    h("button.plan-btn", {
      type: "button", "data-testid": `plan-dec-${i}`, "aria-label": t("plan.dec", { col: columnLabel(v, i) }),
      disabled: counts[i] <= 0 || S.busy,
      onclick: () => { counts[i] -= 1; P.ill[i] = Math.min(P.ill[i], counts[i]); render(); },
    }, "−"),
    anyIll && illMax[i] ? h("button.plan-btn.ill-btn", {
      type: "button", "data-testid": `plan-ill-${i}`, "aria-pressed": P.ill[i] ? "true" : "false",
      "aria-label": t("plan.ill_toggle", { col: columnLabel(v, i), n: P.ill[i] }),
      disabled: S.busy || (!P.ill[i] && !counts[i]),
      // each tap makes one more of this column's apprentices an ill (black) one, then none again
      onclick: () => { P.ill[i] = P.ill[i] >= Math.min(counts[i], illMax[i]) ? 0 : P.ill[i] + 1; render(); },
    }, `☣ ${P.ill[i]}`) : null));
  const tileRow = (tile) => {
    if (!tileCols[tile].size) return null;
    const choose = (w) => () => { P[tile] = P[tile] === w ? null : w; render(); };
    return h("div.plan-tiles", { role: "group", "aria-label": t(`plan.tile_${tile}_title`), "data-testid": `plan-${tile}` },
      h("span.plan-tiles-name", t(`plan.tile_${tile}_title`), infoButton(`plan-${tile}`, `module.${tile === "audience" ? "bells" : "wall_fresco"}`)),
      h("button.tile-opt", {
        type: "button", "data-testid": `plan-${tile}-none`, "aria-pressed": P[tile] ? "false" : "true",
        onclick: () => { P[tile] = null; render(); },
      }, t("plan.tile_none")),
      words.filter((w) => tileCols[tile].has(w)).map((w) => h("button.tile-opt", {
        type: "button", "data-testid": `plan-${tile}-${w}`, "aria-pressed": P[tile] === w ? "true" : "false",
        onclick: choose(w),
      }, columnLabel(v, words.indexOf(w)))));
  };
  const medicoRow = medico ? h("div.plan-tiles", { "data-testid": "plan-medico" },
    h("span.plan-tiles-name", t("plan.tile_medico_title"), infoButton("plan-medico", "module.medico")),
    h("button.tile-opt", {
      type: "button", "data-testid": "plan-medico-toggle", "aria-pressed": P.medico ? "true" : "false",
      onclick: () => { P.medico = !P.medico; render(); },
    }, P.medico ? t("plan.medico_on") : t("plan.medico_off"))) : null;
  return h("div.plan-widget", { "data-testid": "plan-widget" },
    h("div.plan-sheet", colEls),
    h("p.plan-help.small", t("help.columns"), infoButton("columns", [...new Set(cols)].map((c) => `col.${c}`))),
    anyIll ? h("p.plan-help.small", t("plan.ill_help")) : null,
    tileRow("audience"), tileRow("wall"), medicoRow,
    h("p.plan-used", t("plan.used", { used, n: available })),
    !ok && used + (P.audience ? 1 : 0) + (P.medico ? 1 : 0) ? h("p.hint", { "data-testid": "plan-why" }, planHint(P, words)) : null,
    h("div.plan-actions",
      h("button.ghost", {
        type: "button", "data-testid": "plan-reset",
        onclick: () => { S.plan = null; render(); },
      }, t("plan.reset")),
      h("button.primary", {
        type: "button", "data-testid": "plan-confirm", "data-action": notation, disabled: !ok || S.busy,
        onclick: () => ok && send(notation),
      }, t("plan.confirm"))));
}

/** Why the widget's plan cannot be confirmed, from the rules the module tiles add. */
function planHint(P, words) {
  const at = (w) => P.counts[words.indexOf(w)];
  if (P.audience && at(P.audience)) return t("plan.why_audience");
  if (P.wall && at(P.wall) !== 1) return t("plan.why_wall");
  if (P.wall && P.ill[words.indexOf(P.wall)]) return t("plan.why_wall_ill");
  if (P.medico && at("market") > 1) return t("plan.why_medico");
  if (P.ill.some((n, i) => n && ["market", "theater"].includes(words[i]))) return t("plan.why_ill");
  return t("plan.why");
}

export function planWords(v, plan) {
  return plan.map((n, i) => `${columnLabel(v, i)} ${n}`).join(", ");
}
