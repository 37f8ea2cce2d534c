// The game page of a seat or a spectator: the board, what is clickable, the side panels.
import { renderBoard } from "./board.js";
import { t } from "./i18n.js";
import { h } from "./ui.js";
import { S, boardCtx, errorBox, logOf, render, send } from "./store.js";
import { decisionPanel } from "./decide.js";
import { MODULE_BOARDS, MODULE_VIEW_KEY, modulesPanel, myScreen, playersPanel } from "./players.js";
import { entryText, logPanel } from "./log.js";
import { finalPanel } from "./final.js";
import { inviteCard } from "./home.js";
import { flashing } from "./moves.js";
import { infoButton, placeHelp } from "./help.js";
import { rich } from "./ui.js";

// ---------------------------------------------------------------------------------------
// game page (a seat or a spectator)


// On a narrow screen the board shows one location at a time (tabs); the decision area is a
// bottom sheet that stays in reach.
const PHONE = window.matchMedia ? window.matchMedia("(max-width: 900px)") : { matches: false };
if (PHONE.addEventListener) PHONE.addEventListener("change", () => render());
export const isPhone = () => !!PHONE.matches;

export const TABS = ["cathedral", "market", "hostel", "studio", "theater", "track"];

/** The tabs of this game: the board's places, then the boards of modules 8-10 it plays with. */
export function tabsOf(v) {
  return [...TABS, ...Object.keys(MODULE_BOARDS).filter((k) => v[MODULE_VIEW_KEY[k]])];
}

/** The module board a decision is made on (the kind of its legal actions), or null. */
const MODULE_TAB = { audience: "bells", deposit: "bells", wall: "wall", medicine: "medico", heal: "medico",
  illness: "medico", aside: "medico" };

/** The board of a module's question (view["asks"]: [figure, module, ...]), e.g. the wall
 *  tile's visit, whose only choice may be 'pass' (rules notes W2). */
const ASK_TAB = { bells: "bells", wall_fresco: "wall", medico: "medico" };

/** The location of the board where the current decision is made. */
export function decisionTab(st) {
  const v = st.view;
  if (v.pending_track) return "track";
  for (const a of st.legal || []) {
    const tab = MODULE_TAB[a.split(" ")[0]];
    if (tab) return tab;
  }
  const ask = (st.legal || []).length && (v.asks || [])[0];
  if (ask && ASK_TAB[ask[1]]) return ASK_TAB[ask[1]];
  if (v.phase === "getup") return "hostel";
  if (v.phase === "visits" && v.location) return v.location === "workshop" ? "studio" : v.location;
  return null;
}

function tabOfClick(id) {
  if (id.startsWith("module:")) return id.slice(7);
  const kind = id.split(":")[0];
  return { hostel: "hostel", booth: "market", tile: "market", segment: "cathedral", target: "cathedral",
    altar: "cathedral", blend: "studio", loc: id.endsWith("theater") ? "theater" : "studio" }[kind];
}

function boardTabs(st, hot, current) {
  const live = new Set([...hot].map(tabOfClick));
  const changed = S.changedTabs || new Set();
  const names = tabsOf(st.view);
  // the WAI-ARIA tabs pattern: one Tab stop (the shown tab), the arrow keys, Home and End
  // move between the tabs and show the one they reach
  const keys = (e, name) => {
    const i = names.indexOf(name);
    const to = { ArrowRight: i + 1, ArrowLeft: i - 1 + names.length, Home: 0, End: names.length - 1 }[e.key];
    if (to === undefined) return;
    e.preventDefault();
    S.tab = names[to % names.length];
    render();
    const el = document.getElementById(`board-tab-${S.tab}`);
    if (el) el.focus();
  };
  return h("nav.board-tabs", { role: "tablist", "aria-label": t("board.aria"), "data-testid": "board-tabs" },
    names.map((name) => h("button.tab", {
      type: "button", role: "tab", id: `board-tab-${name}`, "data-testid": `tab-${name}`,
      "aria-selected": name === current ? "true" : "false", "aria-controls": "board-panel",
      tabindex: name === current ? "0" : "-1",
      class: [live.has(name) ? "live" : "", changed.has(name) ? "changed" : ""].join(" "),
      onclick: () => { S.tab = name; render(); },
      onkeydown: (e) => keys(e, name),
    }, t(`tab.${name}`), live.has(name) ? h("span.tab-dot", { "aria-label": t("tab.choose_here") }) : null)));
}

/** On a phone, one place of the board at a time: its tabs, its help and the place shown
 *  (issue 13: never the whole board shrunk to the screen). */
export function phoneBoard(st, ctx, hot, onClick) {
  const v = st.view;
  const tab = tabsOf(v).includes(S.tab) ? S.tab : decisionTab(st) || "cathedral";
  let board;
  if (MODULE_BOARDS[tab]) board = h("div.module-tab", MODULE_BOARDS[tab](st, ctx));
  else board = renderBoard(v, ctx, onClick, { region: tab, trackPerRow: 10 });
  board.setAttribute("role", "tabpanel");
  board.setAttribute("id", "board-panel");
  board.setAttribute("aria-labelledby", `board-tab-${tab}`);
  const about = { cathedral: ["cathedral", "altar"], studio: ["studio", "workshop"] }[tab] || [tab];
  return [boardTabs(st, hot, tab), h("div.tab-info", infoButton(`tab-${tab}`, about)), board];
}

export function gamePage() {
  const st = S.state;
  if (!st) {
    if (S.fatal) return lostPage(S.error);
    return h("div.loading", S.error ? errorBox() : null, h("p.muted", t("status.loading")));
  }
  const v = st.view;
  const { hot, selected } = interaction(st);
  const ctx = boardCtx(st, hot, selected);
  ctx.changed = S.changed;
  ctx.help = placeHelp;
  ctx.onMiss = (id) => onBoardMiss(st, id);
  ctx.flash = flashing();
  const seated = st.seat !== null && st.seat !== undefined;
  const phone = isPhone();
  const last = S.lastMove && S.lastMove.length ? h("div.last-move", { "data-testid": "last-move", role: "status" },
    h("span.lm-tag", t("game.last_move")), S.lastMove.slice(-3).map((x, k) => [k ? " · " : "", rich(entryText(x, ctx))])) : null;
  let left;
  if (phone) {
    // at the end, the end screen comes first
    left = h("section.board-col", { "aria-label": t("board.aria") }, st.is_over ? finalPanel(st, ctx) : last,
      phoneBoard(st, ctx, hot, onBoardClick));
  } else {
    left = h("section.board-col", { "aria-label": t("board.aria") }, renderBoard(v, ctx, onBoardClick), modulesPanel(v, ctx));
  }
  const side = h("aside.side",
    S.error ? errorBox() : null,
    inviteCard(st),
    phone ? null : last,
    st.is_over && !phone ? finalPanel(st, ctx) : null,
    seated ? (st.is_over ? null : decisionPanel(st, ctx)) : spectatorNote(st),
    seated ? myScreen(st, ctx) : null,
    playersPanel(st, ctx),
    phone ? modulesPanel(v, ctx, { boards: false }) : null,
    logPanel(logOf(st), ctx, st));
  // the page's heading (axe: page-has-heading-one), for screen readers: the board is the page
  const title = h("h1.sr-only", { "data-testid": "page-title" },
    `${t("app.title")}: ${(st.names || []).join(", ")}`);
  return h("div.game", { class: phone ? "phone" : "" }, title, left, side);
}

export function spectatorNote(st) {
  return h("section.card.decision", { "data-testid": "decision" },
    h("h2", t("game.spectator")));
}

// what is clickable on the board, from the legal actions and the current selection
export function interaction(st) {
  const hot = new Set();
  const selected = new Set();
  if (!st || st.seat === null || st.seat === undefined || S.busy) return { hot, selected };
  const legal = st.legal || [];
  for (const a of legal) {
    const w = a.split(" ");
    if (w[0] === "getup") hot.add(`hostel:${w[1]}`);
    else if (w[0] === "buy" || w[0] === "close") hot.add(`booth:${w[1]}`);
    else if (w[0] === "restore") hot.add(`segment:${w[1]}`);
    else if (w[0] === "altar") hot.add("altar");
    else if (w[0] === "blend") hot.add(`blend:${w[1]}`);
    else if (w[0] === "studio") hot.add("loc:studio");
    else if (w[0] === "theater") hot.add("loc:theater");
    else if (MODULE_TAB[w[0]] && w[0] !== "heal" && w[0] !== "illness" && w[0] !== "aside") hot.add(`module:${MODULE_TAB[w[0]]}`);
  }
  const sel = S.selection;
  if (sel && sel.type === "booth") {
    selected.add(`booth:${sel.id}`);
    const tiles = st.view.booths[sel.id] || [];
    if (legal.some((a) => a.startsWith(`buy ${sel.id} `))) tiles.forEach((_, j) => hot.add(`tile:${sel.id}:${j}`));
    for (const j of sel.tiles || []) selected.add(`tile:${sel.id}:${j}`);
  } else if (sel && sel.type === "segment") {
    selected.add(`segment:${sel.id}`);
    for (const target of bishopTargets(legal, sel.id)) hot.add(`target:${target}`);
  } else if (sel && sel.type === "altar") {
    selected.add("altar");
  }
  return { hot, selected };
}

export function bishopTargets(legal, seg) {
  const out = new Set();
  for (const a of legal) {
    const w = a.split(" ");
    if (w[0] === "restore" && w[1] === seg && (w[2] === "bishop" || w[2] === "sexton") && w.length === 4) out.add(w[3]);
  }
  return out;
}

export function filterActions(legal, sel) {
  if (!sel) return legal;
  return legal.filter((a) => {
    const w = a.split(" ");
    if (sel.type === "booth") return (w[0] === "buy" || w[0] === "close") && w[1] === sel.id;
    if (sel.type === "segment") return w[0] === "restore" && w[1] === sel.id;
    if (sel.type === "altar") return w[0] === "altar";
    if (sel.type === "cert") return (w[0] === "audience" || w[0] === "deposit") && w[1] === sel.id;
    return true;
  });
}

export function onBoardClick(id) {
  const st = S.state;
  if (!st || S.busy) return;
  const legal = st.legal || [];
  const [kind, ...rest] = id.split(":");
  const arg = rest.join(":");
  if (kind === "hostel") return send(`getup ${arg}`);
  if (kind === "blend") return send(`blend ${arg}`);
  if (kind === "loc") return send(arg);
  if (kind === "booth") {
    S.selection = S.selection && S.selection.type === "booth" && S.selection.id === arg ? null
      : { type: "booth", id: arg, tiles: [] };
    return render();
  }
  if (kind === "tile") {
    const [booth, j] = arg.split(":");
    const sel = S.selection;
    if (!sel || sel.type !== "booth" || sel.id !== booth) return;
    const n = Number(j);
    const i = sel.tiles.indexOf(n);
    if (i >= 0) sel.tiles.splice(i, 1);
    else {
      sel.tiles.push(n);
      const left = st.view.visit_left || 1;
      while (sel.tiles.length > left) sel.tiles.shift();
    }
    return render();
  }
  if (kind === "segment") {
    const acts = legal.filter((a) => a.split(" ")[0] === "restore" && a.split(" ")[1] === arg);
    if (S.selection && S.selection.type === "segment" && S.selection.id === arg && acts.includes(`restore ${arg}`)) {
      return send(`restore ${arg}`);
    }
    if (acts.length === 1) return send(acts[0]);
    S.selection = { type: "segment", id: arg };
    return render();
  }
  if (kind === "target") {
    const sel = S.selection;
    if (!sel || sel.type !== "segment") return;
    const bishop = `restore ${sel.id} bishop ${arg}`;
    const sexton = `restore ${sel.id} sexton ${arg}`;
    if (legal.includes(bishop)) return send(bishop);
    if (legal.includes(sexton)) return send(sexton);
    return;
  }
  if (kind === "altar") {
    const acts = legal.filter((a) => a.startsWith("altar "));
    if (acts.length === 1) return send(acts[0]);
    S.selection = S.selection && S.selection.type === "altar" ? null : { type: "altar", id: "altar" };
    return render();
  }
  return undefined;
}

/** A link that opens nothing (an unknown seat, game or page): say so, and offer the way back. */
export function lostPage(reason = null) {
  return h("section.card.lost", { "data-testid": "lost", role: "alert" },
    h("h1", t("lost.title")),
    reason ? h("p", { "data-testid": "error" }, reason) : null,
    h("p", t("lost.why")),
    h("div.lost-actions",
      h("a.button.primary", { href: "#/", "data-testid": "lost-home" }, t("lost.home")),
      h("a.button", { href: "#/help", "data-testid": "lost-help" }, t("help.open"))));
}

/** A tap on a place that cannot be chosen now: say why instead of doing nothing. */
function onBoardMiss(st, id) {
  if (!st || st.seat === null || st.seat === undefined || !(st.legal || []).length) return;
  const [kind, arg] = id.split(/:(.*)/s);
  const v = st.view;
  let note = t("note.not_now");
  if (kind === "hostel") {
    const row = (v.hostel || []).find((r) => r.time === arg);
    if (row && row.taken_by !== null && row.taken_by !== undefined) {
      const fi = v.figures.findIndex((f) => f.name === row.taken_by);
      note = t("note.hostel_taken", { time: arg, name: fi >= 0 && v.figures[fi].leonardo ? t("leonardo") : row.taken_by });
    }
  } else if (kind === "segment" && !v.fresco.flat()[("ABCDE".indexOf(arg[0])) + 5 * ("12345".indexOf(arg[1]))]) {
    note = t("note.restored", { seg: arg });
  }
  S.note = note;
  render();
}
