// affresco web client: routing, the page shell (header, status) and start-up.
// Routes (hash, so seat tokens never reach a server log): #/ , #/play/<token>,
// #/watch/<game_id>, #/replay/<game_id>, #/help.
import * as API from "./api.js";
import { currentLang, initI18n, LANGS, setLang, t } from "./i18n.js";
import { actingFigure, append, columnLabel, h, icon, morphChildren, morphNode } from "./ui.js";
import { S, accept, errorText, figureName, held, hooks, render, root, send, yourTurn } from "./store.js";
import { homePage, loadMeta, refreshMyGames } from "./home.js";
import { gamePage, lostPage } from "./game.js";
import { helpPage, loadHelp } from "./help.js";
import { askNotify, newState, notifyState, soundOn, toggleSound } from "./moves.js";
import { loadReplay, replayPage } from "./replay.js";

// ---------------------------------------------------------------------------------------
// routing

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  const [page, arg] = parts;
  if (page === "play" && arg) return { page: "play", token: decodeURIComponent(arg) };
  if (page === "watch" && arg) return { page: "watch", gameId: decodeURIComponent(arg) };
  if (page === "replay" && arg) return { page: "replay", gameId: decodeURIComponent(arg) };
  if (page === "help") return { page: "help", section: arg || null };
  if (!page) return { page: "home" };
  return { page: "lost" };
}

function leavePage() {
  if (S.live) S.live.close();
  S.live = null;
  clearInterval(S.myGamesTimer);
  clearInterval(S.poll);
  S.poll = null;
  if (S.replay && S.replay.timer) clearInterval(S.replay.timer);
  S.state = null;
  S.selection = null;
  S.plan = null;
  S.error = null;
  S.conn = "idle";
  S.replay = null;
  S.segValues = {};
  S.logKey = null;
  S.logLines = null;
  S.tab = null;
  S.fatal = false;
}

async function route() {
  leavePage();
  S.route = parseRoute();
  render();
  const r = S.route;
  if (r.page === "home") {
    loadMeta();
    refreshMyGames();
    S.myGamesTimer = setInterval(refreshMyGames, 15000);
  } else if (r.page === "play") {
    API.rememberToken(r.token);
    S.mail = null;
    API.getNotify(r.token).then((m) => { if (S.route === r) { S.mail = m; render(); } }).catch(() => null);
    startLive({ type: "hello", token: r.token }, () => API.getMe(r.token));
  } else if (r.page === "watch") {
    startLive({ type: "watch", game_id: r.gameId }, () => API.getGame(r.gameId));
  } else if (r.page === "help") {
    loadHelp().then(() => {
      render();
      const el = r.section && document.getElementById(`help-${r.section}`);
      if (el) el.scrollIntoView({ block: "start" });
    });
  } else if (r.page === "replay") {
    loadReplay(r.gameId, 0);
  }
}

// ---------------------------------------------------------------------------------------
// live state

function startLive(greeting, fetchState) {
  const route = S.route;
  const refresh = async () => {
    try {
      const st = await fetchState();
      if (S.route === route) accept(st);
    } catch (e) {
      if (S.route !== route) return;
      S.error = errorText(e);
      if (e.code === "bad_token" || e.code === "not_found") {
        // a link that opens nothing: stop polling for it
        S.fatal = true;
        clearInterval(S.poll);
        S.poll = null;
      }
      render();
    }
  };
  S.refresh = refresh;
  S.fatal = false;
  refresh();
  S.live = new API.Live(greeting, {
    onState: (st) => { if (S.route === route) accept(st, true); },
    onStatus: (status) => {
      if (S.route !== route) return;
      S.conn = status;
      // while the socket is down, poll so the page stays current.  Once it is up, the
      // server answers its hello with a whole STATE: no refresh here, whose answer (built
      // before the hello, so showing this seat offline) could land after that STATE.
      if (status === "connected") { clearInterval(S.poll); S.poll = null; }
      else if (!S.poll && !S.fatal) S.poll = setInterval(refresh, 5000);
      renderHeader();
    },
    onError: (msg) => {
      if (S.route !== route) return;
      S.error = errorText(msg);
      render();
    },
  });
}

// ---------------------------------------------------------------------------------------
// rendering: shell

let flashFrom = null;      // S.changedAt of the last flash started

function renderShell() {
  const active = document.activeElement;
  const focused = active && active.getAttribute ? active.getAttribute("data-testid") : null;
  const logBox = root.querySelector("[data-testid=log] .log-lines");
  const logAtEnd = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
  const logTop = logBox ? logBox.scrollTop : 0;
  const actBox = root.querySelector(".action-list");
  const actTop = actBox ? actBox.scrollTop : 0;

  // the page is built whole, and the live page brought to it in place: unchanged nodes stay
  morphChildren(root, [header(), pageBody()]);
  const st = S.state;
  attr(root, "data-page", S.route.page);
  attr(root, "data-version", st ? String(st.version) : "");
  attr(root, "data-your-turn", st && st.seat !== null && st.legal && st.legal.length ? "true" : "false");
  attr(root, "data-busy", S.busy ? "true" : "false");
  const title = st ? `${yourTurn() ? `● ${t("status.your_turn")} — ` : ""}${t("app.title")} — ${st.game_id}` : t("app.title");
  if (document.title !== title) document.title = title;

  // every size is read first, then written: one layout of the changed page, not two
  const sheetH = sheetHeight();
  const newLog = root.querySelector("[data-testid=log] .log-lines");
  const logTo = newLog && (logAtEnd ? newLog.scrollHeight : logTop);
  const logMoves = newLog && (logAtEnd ? newLog.scrollTop + newLog.clientHeight < newLog.scrollHeight : newLog.scrollTop !== logTop);
  const newAct = root.querySelector(".action-list");
  const actMoves = newAct && newAct.scrollTop !== actTop;
  // a new move's flash starts again on the kept nodes (a rebuilt node started it by itself)
  if (S.changedAt !== flashFrom) {
    flashFrom = S.changedAt;
    for (const el of root.querySelectorAll(".flash")) {
      for (const a of el.getAnimations ? el.getAnimations() : []) { a.cancel(); a.play(); }
    }
  }
  if (logMoves) newLog.scrollTop = logTo;
  if (actMoves) newAct.scrollTop = actTop;
  if (focused && !(document.activeElement === active && active.isConnected && active.getAttribute("data-testid") === focused)) {
    const el = root.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
    if (el && el.focus) el.focus({ preventScroll: true });
  }
  setSheetRoom(sheetH);
}

// the bottom sheet (phones) covers the end of the page: the page keeps room for it
function sheetHeight() {
  const sheet = root.querySelector(".game.phone .decision");
  return sheet ? `${sheet.offsetHeight}px` : "0px";
}

function setSheetRoom(height) {
  const docStyle = document.documentElement.style;
  if (docStyle.getPropertyValue("--sheet-h") !== height) docStyle.setProperty("--sheet-h", height);
}

// a turned or resized screen changes the sheet's height (at most 42% of the screen's) without
// a redraw: the room follows it
window.addEventListener("resize", () => setSheetRoom(sheetHeight()));

function attr(el, name, value) {
  if (el.getAttribute(name) !== value) el.setAttribute(name, value);
}


function renderHeader() {
  if (held.down) { held.pending = true; return; }     // a press in progress: the whole page follows it
  const old = root.querySelector("header.top");
  if (old) morphNode(old, header());
}

function header() {
  const langs = (S.meta && S.meta.languages) || LANGS;
  const inGame = (S.route.page === "play" || S.route.page === "watch") && !S.fatal;
  const right = h("div.top-right",
    inGame ? connectionBadge() : null,
    S.route.page === "play" && !S.fatal ? signalButtons() : null,
    h("a.button.icon-button.help-link", {
      href: "#/help", "data-testid": "help-link", title: t("help.open"), "aria-label": t("help.open"),
    }, "?"),
    h("nav.langs", { "aria-label": t("lang.choose") },
      langs.filter((l) => LANGS.includes(l)).map((l) => h("button.lang", {
        type: "button", "data-testid": `lang-${l}`, lang: l, "aria-pressed": l === currentLang() ? "true" : "false",
        title: t(`lang.${l}`),
        onclick: async () => { await setLang(l); await loadHelp(l); render(); },
      }, l.toUpperCase()))));
  const title = h("a.brand", { href: "#/", "data-testid": "home-link" }, t("app.title"));
  const st = S.state;
  const status = S.route.page === "play" || S.route.page === "watch"
    ? h("div.status", { "data-testid": "status", role: "status", "aria-live": "polite", class: yourTurn() ? "your-turn" : "" },
      st ? statusText(st) : S.fatal ? t("lost.title") : t("status.loading"))
    : null;
  return h("header.top", title, status, right);
}

function signalButtons() {
  const perm = notifyState();
  return h("span.signals",
    h("button.icon-button", {
      type: "button", "data-testid": "sound-toggle", "aria-pressed": soundOn() ? "true" : "false",
      title: t("signal.sound"), "aria-label": t("signal.sound"), onclick: toggleSound,
    }, icon(soundOn() ? "sound" : "mute")),
    perm === "default" ? h("button.icon-button", {
      type: "button", "data-testid": "notify-ask", title: t("signal.notify"), "aria-label": t("signal.notify"),
      onclick: askNotify,
    }, icon("bell")) : null);
}

function connectionBadge() {
  const state = S.conn === "idle" ? "connecting" : S.conn;
  return h("span.conn", { "data-testid": "connection", "data-state": state, title: t(`conn.${state}`) },
    h("span.dot", { "aria-hidden": "true" }), h("span.conn-text", t(`conn.${state}`)));
}

function pageBody() {
  const main = h("main");
  const r = S.route;
  if (r.page === "home") append(main, homePage());
  else if (r.page === "play" || r.page === "watch") append(main, gamePage());
  else if (r.page === "replay") append(main, replayPage());
  else if (r.page === "help") append(main, helpPage());
  else append(main, lostPage());
  return main;
}


function statusText(st) {
  const v = st.view;
  if (st.is_over || v.is_over) return t("status.over");
  if (st.abandoned) return t("status.abandoned");      // stalled past the server's round limit: no more moves
  const parts = [t("status.round", { n: v.round })];
  if (v.final_round) parts.push(t("status.final_round"));
  if (v.phase === "visits" && v.location) parts.push(t("status.at", { place: columnLabel(v, v.column) }));
  else parts.push(t(`phase.${v.phase}`));
  let who;
  if (yourTurn()) {
    const fig = actingFigure(v, st.seat);
    who = v.figures[fig] && v.figures[fig].leonardo ? t("status.your_turn_leonardo") : t("status.your_turn");
  } else {
    const names = (st.to_act || []).map((s) => figureName(st, s));
    who = names.length ? t("status.waiting", { names: names.join(", ") }) : "";
  }
  return [parts.join(" · "), who].filter(Boolean).join(" — ");
}

// ---------------------------------------------------------------------------------------
// keyboard: Escape clears a selection

document.addEventListener("keydown", (e) => {
  if (e.key !== "Escape") return;
  if (S.info) S.info = null;
  else if (S.selection) S.selection = null;
  else return;
  render();
});

async function main() {
  try {
    await initI18n();
  } catch (e) {
    root.textContent = `affresco: ${e.message}`;
    return;
  }
  await loadHelp();      // the board's tooltips and ⓘ texts are there from the first picture
  window.addEventListener("hashchange", (e) => {
    // the help page's "back" returns to the page it was opened from
    const from = e && e.oldURL ? new URL(e.oldURL).hash : "";
    if (location.hash.startsWith("#/help") && from && !from.startsWith("#/help")) S.helpBack = from;
    route();
  });
  route();
}

// ---------------------------------------------------------------------------------------
// a press in progress holds the redraws back: a push landing between a press and its release
// (a pointer's, or the space bar's) could replace the pressed element (the page was redrawn
// whole; in place, a node whose tag or key changes is still replaced) and the click was lost;
// the redraw waits for the click (or for a release or cancel without one) and then happens once

function redraw() {
  if (held.down) { held.pending = true; return; }
  held.pending = false;
  renderShell();
}

function release() {
  held.down = false;
  if (held.pending) redraw();
}

let presses = 0;         // a late release timer must not end a later press (a pointer's or the space bar's)
root.addEventListener("pointerdown", () => { held.down = true; presses += 1; }, true);
// the click's own handlers redraw at once; a redraw held back meanwhile follows them
document.addEventListener("click", () => { held.down = false; if (held.pending) setTimeout(release, 0); }, true);
// a press that ends without a click (released off the element, a touch that became a scroll)
document.addEventListener("pointercancel", release, true);
document.addEventListener("pointerup", () => {
  const press = presses;
  setTimeout(() => { if (held.down && presses === press) release(); }, 400);
}, true);
window.addEventListener("blur", release);
// the space bar presses a button on its way down and clicks on its way up: held the same way
root.addEventListener("keydown", (e) => { if (e.key === " " && !e.repeat) { held.down = true; presses += 1; } }, true);
document.addEventListener("keyup", (e) => { if (e.key === " ") setTimeout(() => { if (held.down) release(); }, 0); }, true);

hooks.render = redraw;
hooks.newState = newState;
main();

// for debugging in the console
window.affresco = { S, render, send };
