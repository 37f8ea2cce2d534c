// The page's state, the live game state it follows and the requests a seat sends.
import * as API from "./api.js";
import { has, t } from "./i18n.js";
import { actingFigure, h, hostelPrice, initials, parseTile, SEG_COLS, SEG_ROWS } from "./ui.js";
import { decisionTab, filterActions } from "./game.js";

export const root = document.getElementById("app");

/** The page shell registers its renderer here (app.js); every module redraws through it. */
export const hooks = { render: () => {}, newState: () => {} };
export const render = () => hooks.render();
/** A press in progress (app.js): redraws wait for its click, and then one happens (pending). */
export const held = { down: false, pending: false };

export const S = {
  route: { page: "home" },
  meta: null,
  live: null,
  conn: "idle",
  state: null,          // the last STATE payload
  selection: null,      // {type: "booth"|"segment"|"altar", id, tiles: []}
  plan: null,           // {key, counts}
  error: null,
  busy: false,
  segValues: {},        // segment -> printed VP (learnt from any view that showed the tile)
  form: null,           // the create-game form
  created: null,        // the answer to the last create
  myGames: null,
  myGamesTimer: null,
  replay: null,         // {gameId, step, steps, data, playing}
  poll: null,
};


export function learnSegments(view) {
  if (!view || !view.fresco) return;
  view.fresco.forEach((row, r) => row.forEach((text, c) => {
    const tile = parseTile(text);
    const seg = SEG_COLS[c] + SEG_ROWS[r];
    if (tile && !(seg in S.segValues)) S.segValues[seg] = tile.vp;
  }));
}

// The log: the engine's events (docs/events.md).  A full payload carries them all (in
// ``view.events``, or as ``events`` items {i, event} with ``events_total``); later pushes
// carry only the last ones with their index ``i``, and the client keeps the rest.
function entriesOf(st) {
  if (Array.isArray(st.events)) return { list: st.events.map((x, k) => (x && x.event ? x : { i: k, event: x })), total: st.events_total };
  if (st.view && Array.isArray(st.view.events)) return { list: st.view.events.map((event, i) => ({ i, event })), total: st.view.events.length };
  return { list: [], total: 0 };
}

export function mergeLog(st) {
  const { list, total: given } = entriesOf(st);
  const total = given ?? (list.length ? list[list.length - 1].i + 1 : 0);
  const key = `${st.game_id}:${st.seat}`;
  if (S.logKey !== key) { S.logKey = key; S.logLines = []; }
  const first = list.length ? list[0].i : total;
  if (first > S.logLines.length && S.refresh && !S.logRefreshing) {
    // entries are missing between what we hold and this push: fetch the whole log once
    S.logRefreshing = true;
    S.refresh().finally(() => { S.logRefreshing = false; });
  }
  if (S.logLines.length > total) S.logLines.length = total;   // an undo shortened it
  for (const l of list) S.logLines[l.i] = l;
  if (S.logLines.length > total) S.logLines.length = total;
  st.logCount = total;
}

/** The log entries of a state: {i, event}. */
export function logOf(st) {
  if (S.route.page === "replay" || !S.logLines) return entriesOf(st).list;
  const out = [];
  S.logLines.forEach((l) => { if (l !== undefined) out.push(l); });
  return out;
}

export function accept(st, fromSocket = false, draw = true) {
  if (!st || st.type !== "state") return;
  const old = S.state;
  if (old && old.game_id === st.game_id && st.version < old.version) return;
  learnSegments(st.view);
  mergeLog(st);
  if (!fromSocket && S.conn === "connected" && old && old.fromSocket && old.game_id === st.game_id
    && st.version === old.version) {
    // a REST answer at the version a push already brought may have been built before this
    // page's socket said hello: the push knows better who is online
    st = { ...st, seats: old.seats, fromSocket: true };
  } else {
    st.fromSocket = fromSocket;
  }
  S.state = st;
  if (!old || old.version !== st.version) {
    if (old) S.error = null;
    S.note = null;
    // keep a selection only while its actions are still legal
    if (S.selection && !filterActions(st.legal, S.selection).length) S.selection = null;
    // on a phone, show the location of this seat's decision
    const tab = st.legal && st.legal.length ? decisionTab(st) : null;
    if (tab) { S.tab = tab; S.sheetCollapsed = false; }
    hooks.newState(old, st);
  }
  if (draw) render();
}

export function errorText(e) {
  const code = e.code || "error";
  const key = code === "not_found" ? "error.no_game" : `error.${code}`;
  const known = has(key) ? t(key) : null;
  if (code === "illegal") return t("error.illegal", { message: e.message || "" });
  if (known) return e.message && code !== "stale" && code !== "network" ? `${known} (${e.message})` : known;
  return e.message || code;
}

/** Send one request of this seat (a move or an undo); refusals are shown, nothing changes. */
export async function request(call, after) {
  const st = S.state;
  if (!st || S.busy) return;
  S.busy = true;
  S.error = null;
  render();
  try {
    const next = await call(st);
    S.selection = null;
    if (after) after();
    accept(next, false, false);     // drawn below, once no longer busy (the same task: never seen)
  } catch (e) {
    if (e.code === "stale" && S.refresh) await S.refresh();
    S.error = errorText(e);
  } finally {
    S.busy = false;
    render();
  }
}

export const send = (action) => request((st) => API.act(S.route.token, action, st.version));
export const sendUndo = () => request((st) => API.undo(S.route.token, st.version), () => { S.plan = null; });

export function yourTurn() {
  const st = S.state;
  return !!(st && st.seat !== null && st.legal && st.legal.length);
}

export function figureName(st, i) {
  const names = st.names || (st.view && st.view.figures.map((f) => f.name)) || [];
  const f = st.view && st.view.figures[i];
  if (f && f.leonardo) return t("leonardo");
  return names[i] ?? `#${i}`;
}

export function errorBox() {
  return h("div.error", { role: "alert", "data-testid": "error" }, h("span", S.error),
    h("button.small.ghost", { type: "button", "aria-label": t("ui.dismiss"), onclick: () => { S.error = null; render(); } }, "✕"));
}

export function boardCtx(st, hot = new Set(), selected = new Set()) {
  const v = st.view;
  const names = v.figures.map((f, i) => (f.leonardo ? t("leonardo") : (st.names && st.names[i]) || f.name));
  const seated = st.seat !== null && st.seat !== undefined;
  // the price shown is the seat's own, or Leonardo's while deciding for him
  const fig = seated && st.legal && st.legal.length ? actingFigure(v, st.seat) : st.seat;
  return {
    hot, selected, names, view: v,
    labels: initials(names),
    figName: (i) => names[i],
    price: seated ? hostelPrice(v, fig) : null,
  };
}
