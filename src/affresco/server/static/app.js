// affresco web client: routing, pages (home, play, watch, replay) and the decision widgets.
// Routes (hash, so seat tokens never reach a server log): #/ , #/play/<token>,
// #/watch/<game_id>, #/replay/<game_id>.
import * as API from "./api.js";
import { renderBoard } from "./board.js";
import { currentLang, has, initI18n, LANGS, parseLog, parseWhy, setLang, t, tOr, translateLog } from "./i18n.js";
import {
  actingFigure, append, chips, columnLabel, copyText, figureColour, h, hostelPrice, initials,
  parseTile, plain, rich, SEG_COLS, SEG_ROWS, sortBuyTiles, testid,
} from "./ui.js";
import { cardEffects, cardTitle, describe, signed } from "./words.js";

const root = document.getElementById("app");

const S = {
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

// ---------------------------------------------------------------------------------------
// routing

function parseRoute() {
  const parts = location.hash.replace(/^#\/?/, "").split("/").filter(Boolean);
  const [page, arg] = parts;
  if (page === "play" && arg) return { page: "play", token: decodeURIComponent(arg) };
  if (page === "watch" && arg) return { page: "watch", gameId: decodeURIComponent(arg) };
  if (page === "replay" && arg) return { page: "replay", gameId: decodeURIComponent(arg) };
  return { page: "home" };
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
    startLive({ type: "hello", token: r.token }, () => API.getMe(r.token));
  } else if (r.page === "watch") {
    startLive({ type: "watch", game_id: r.gameId }, () => API.getGame(r.gameId));
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

function learnSegments(view) {
  if (!view || !view.fresco) return;
  view.fresco.forEach((row, r) => row.forEach((text, c) => {
    const tile = parseTile(text);
    const seg = SEG_COLS[c] + SEG_ROWS[r];
    if (tile && !(seg in S.segValues)) S.segValues[seg] = tile.vp;
  }));
}

// The log: a full payload (REST, the first push) carries every line; later pushes carry
// only the last lines with their index ``i`` and ``log_total``, and the client keeps the rest.
function mergeLog(st) {
  const lines = st.log || (st.view && st.view.log ? st.view.log.map((text, i) => ({ i, text })) : []);
  const total = st.log_total ?? (lines.length ? lines[lines.length - 1].i + 1 : 0);
  const key = `${st.game_id}:${st.seat}`;
  if (S.logKey !== key) { S.logKey = key; S.logLines = []; }
  const first = lines.length ? lines[0].i : total;
  if (first > S.logLines.length && S.refresh && !S.logRefreshing) {
    // lines are missing between what we hold and this push: fetch the whole log once
    S.logRefreshing = true;
    S.refresh().finally(() => { S.logRefreshing = false; });
  }
  if (S.logLines.length > total) S.logLines.length = total;   // an undo shortened it
  for (const l of lines) S.logLines[l.i] = l.text;
  if (S.logLines.length > total) S.logLines.length = total;
}

function logOf(st) {
  if (S.route.page === "replay" || !S.logLines) return (st.view.log || []).map((text, i) => ({ i, text }));
  const out = [];
  S.logLines.forEach((text, i) => { if (text !== undefined) out.push({ i, text }); });
  return out;
}

function accept(st, fromSocket = false) {
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
    // keep a selection only while its actions are still legal
    if (S.selection && !filterActions(st.legal, S.selection).length) S.selection = null;
  }
  render();
}

function errorText(e) {
  const code = e.code || "error";
  const key = code === "not_found" ? "error.no_game" : `error.${code}`;
  const known = has(key) ? t(key) : null;
  if (code === "illegal") return t("error.illegal", { message: e.message || "" });
  if (known) return e.message && code !== "stale" && code !== "network" ? `${known} (${e.message})` : known;
  return e.message || code;
}

/** Send one request of this seat (a move or an undo); refusals are shown, nothing changes. */
async function request(call, after) {
  const st = S.state;
  if (!st || S.busy) return;
  S.busy = true;
  S.error = null;
  render();
  try {
    const next = await call(st);
    S.selection = null;
    if (after) after();
    accept(next);
  } catch (e) {
    if (e.code === "stale" && S.refresh) await S.refresh();
    S.error = errorText(e);
  } finally {
    S.busy = false;
    render();
  }
}

const send = (action) => request((st) => API.act(S.route.token, action, st.version));
const sendUndo = () => request((st) => API.undo(S.route.token, st.version), () => { S.plan = null; });

// ---------------------------------------------------------------------------------------
// rendering: shell

function render() {
  const focused = document.activeElement && document.activeElement.getAttribute
    ? document.activeElement.getAttribute("data-testid") : null;
  const logBox = root.querySelector("[data-testid=log] .log-lines");
  const logAtEnd = !logBox || logBox.scrollTop + logBox.clientHeight >= logBox.scrollHeight - 8;
  const logTop = logBox ? logBox.scrollTop : 0;
  const actBox = root.querySelector(".action-list");
  const actTop = actBox ? actBox.scrollTop : 0;

  root.replaceChildren(header(), pageBody());
  const st = S.state;
  root.setAttribute("data-page", S.route.page);
  root.setAttribute("data-version", st ? String(st.version) : "");
  root.setAttribute("data-your-turn", st && st.seat !== null && st.legal && st.legal.length ? "true" : "false");
  root.setAttribute("data-busy", S.busy ? "true" : "false");
  document.title = st ? `${yourTurn() ? "● " : ""}${t("app.title")} — ${st.game_id}` : t("app.title");

  const newLog = root.querySelector("[data-testid=log] .log-lines");
  if (newLog) newLog.scrollTop = logAtEnd ? newLog.scrollHeight : logTop;
  const newAct = root.querySelector(".action-list");
  if (newAct) newAct.scrollTop = actTop;
  if (focused) {
    const el = root.querySelector(`[data-testid="${CSS.escape(focused)}"]`);
    if (el && el.focus) el.focus({ preventScroll: true });
  }
}

function yourTurn() {
  const st = S.state;
  return !!(st && st.seat !== null && st.legal && st.legal.length);
}

function renderHeader() {
  const old = root.querySelector("header.top");
  if (old) old.replaceWith(header());
}

function header() {
  const langs = (S.meta && S.meta.languages) || LANGS;
  const right = h("div.top-right",
    (S.route.page === "play" || S.route.page === "watch") && !S.fatal ? connectionBadge() : null,
    h("nav.langs", { "aria-label": t("lang.choose") },
      langs.filter((l) => LANGS.includes(l)).map((l) => h("button.lang", {
        type: "button", "data-testid": `lang-${l}`, lang: l, "aria-pressed": l === currentLang() ? "true" : "false",
        title: t(`lang.${l}`),
        onclick: async () => { await setLang(l); render(); },
      }, l.toUpperCase()))));
  const title = h("a.brand", { href: "#/", "data-testid": "home-link" }, t("app.title"));
  const st = S.state;
  const status = S.route.page === "play" || S.route.page === "watch"
    ? h("div.status", { "data-testid": "status", role: "status", "aria-live": "polite", class: yourTurn() ? "your-turn" : "" },
      st ? statusText(st) : t("status.loading"))
    : null;
  return h("header.top", title, status, right);
}

function connectionBadge() {
  const state = S.conn === "idle" ? "connecting" : S.conn;
  return h("span.conn", { "data-testid": "connection", "data-state": state, title: t(`conn.${state}`) },
    h("span.dot", { "aria-hidden": "true" }), t(`conn.${state}`));
}

function pageBody() {
  const main = h("main");
  const r = S.route;
  if (r.page === "home") append(main, homePage());
  else if (r.page === "play" || r.page === "watch") append(main, gamePage());
  else if (r.page === "replay") append(main, replayPage());
  return main;
}

function figureName(st, i) {
  const names = st.names || (st.view && st.view.figures.map((f) => f.name)) || [];
  const f = st.view && st.view.figures[i];
  if (f && f.leonardo) return t("leonardo");
  return names[i] ?? `#${i}`;
}

function statusText(st) {
  const v = st.view;
  if (st.is_over || v.is_over) return t("status.over");
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
// home page: create a game, my games

async function loadMeta() {
  if (S.meta) { initForm(); render(); return; }
  try {
    S.meta = await API.getMeta();
    initForm();
  } catch (e) {
    S.error = errorText(e);
  }
  render();
}

function initForm() {
  if (S.form || !S.meta) return;
  const bots = S.meta.bots || [];
  const options = {};
  for (const o of S.meta.options || []) options[o.name] = !!o.default;
  S.form = {
    count: 2,
    seats: [0, 1, 2, 3].map((i) => ({
      name: "", kind: i === 0 ? "human" : "bot",
      bot: (bots.find((b) => b.name === "heuristic") || bots[0] || {}).name || "", seconds: 1.0,
    })),
    modules: {},
    options,
    seed: "",
  };
}

function homePage() {
  const out = [];
  if (S.error) out.push(errorBox());
  out.push(h("section.card.create", { "aria-labelledby": "create-h" },
    h("h2#create-h", t("home.create")), S.meta ? createForm() : h("p.muted", t("status.loading"))));
  if (S.created) out.push(createdBox());
  out.push(myGamesBox());
  return h("div.home", out);
}

function createForm() {
  const f = S.form;
  const meta = S.meta;
  const bots = meta.bots || [];
  const seatRows = [];
  for (let i = 0; i < f.count; i++) {
    const seat = f.seats[i];
    const bot = bots.find((b) => b.name === seat.bot);
    seatRows.push(h("div.seat-row", { "data-testid": `seat-row-${i}` },
      h("label.seat-no", { for: `seat-name-${i}` }, t("home.seat", { n: i + 1 })),
      h("input", {
        id: `seat-name-${i}`, "data-testid": `seat-name-${i}`, type: "text", maxlength: 24,
        placeholder: defaultName(i, seat), value: seat.name,
        oninput: (e) => { seat.name = e.target.value; },
      }),
      h("select", {
        "data-testid": `seat-kind-${i}`, "aria-label": t("home.kind"),
        onchange: (e) => { seat.kind = e.target.value; render(); },
      },
      h("option", { value: "human", selected: seat.kind === "human" }, t("home.human")),
      h("option", { value: "bot", selected: seat.kind === "bot", disabled: !bots.length }, t("home.bot"))),
      seat.kind === "bot" ? h("select", {
        "data-testid": `seat-bot-${i}`, "aria-label": t("home.bot_type"),
        onchange: (e) => { seat.bot = e.target.value; render(); },
      }, bots.map((b) => h("option", { value: b.name, selected: b.name === seat.bot, title: b.title },
        tOr(`bot.${b.name}`, b.name)))) : null,
      seat.kind === "bot" && bot && bot.timed ? h("label.seconds", t("home.seconds"),
        h("input", {
          "data-testid": `seat-seconds-${i}`, type: "number", min: "0.1", max: "60", step: "0.1", value: seat.seconds,
          oninput: (e) => { seat.seconds = Number(e.target.value) || 1; },
        })) : null));
  }
  const modules = (meta.modules || []).map((m) => h("label.check", {},
    h("input", {
      type: "checkbox", "data-testid": `module-${m.name}`, checked: !!f.modules[m.name],
      onchange: (e) => { f.modules[m.name] = e.target.checked; render(); },
    }),
    h("span", tOr(`module.${m.name}`, m.title))));
  const options = (meta.options || []).map((o) => {
    const owner = (meta.modules || []).find((m) => o.name.startsWith(`${m.name}_`));
    const off = owner && !f.modules[owner.name];
    return h("label.check", { class: off ? "off" : "" },
      h("input", {
        type: "checkbox", "data-testid": `option-${o.name}`, checked: !!f.options[o.name], disabled: off,
        onchange: (e) => { f.options[o.name] = e.target.checked; },
      }),
      h("span", tOr(`option.${o.name}`, o.title)));
  });
  return h("form.create-form", {
    onsubmit: (e) => { e.preventDefault(); submitCreate(); },
  },
  h("fieldset", h("legend", t("home.players")),
    h("div.count", [2, 3, 4].map((n) => h("label.radio", {},
      h("input", {
        type: "radio", name: "count", value: n, checked: f.count === n, "data-testid": `player-count-${n}`,
        onchange: () => { f.count = n; render(); },
      }), h("span", String(n))))),
    f.count === 2 ? h("p.hint", t("home.leonardo_hint")) : null,
    seatRows),
  h("fieldset", h("legend", t("home.modules")), modules.length ? modules : h("p.muted", "—")),
  options.length ? h("fieldset", h("legend", t("home.options")), options) : null,
  h("fieldset.seed", h("legend", t("home.seed")),
    h("input", {
      type: "number", "data-testid": "seed", placeholder: t("home.seed_hint"), value: f.seed,
      oninput: (e) => { f.seed = e.target.value; },
    })),
  h("div.actions", h("button.primary", { type: "submit", "data-testid": "create-game", disabled: S.busy }, t("home.create_button"))));
}

function defaultName(i, seat) {
  if (seat.kind === "bot") {
    const bot = ((S.meta && S.meta.bots) || []).find((b) => b.name === seat.bot);
    return bot ? `${tOr(`bot.${bot.name}`, bot.name).replace(/\s*\(.*\)$/, "")} ${i + 1}` : t("home.default_name", { n: i + 1 });
  }
  return t("home.default_name", { n: i + 1 });
}

async function submitCreate() {
  const f = S.form;
  const players = [];
  for (let i = 0; i < f.count; i++) {
    const seat = f.seats[i];
    const name = (seat.name || "").trim() || defaultName(i, seat);
    if (seat.kind === "human") players.push({ name, kind: "human" });
    else {
      const bot = (S.meta.bots || []).find((b) => b.name === seat.bot);
      const p = { name, kind: "bot", bot: seat.bot };
      if (bot && bot.timed) p.seconds = Number(seat.seconds) || 1;
      players.push(p);
    }
  }
  const modules = (S.meta.modules || []).map((m) => m.name).filter((n) => f.modules[n]);
  const options = {};
  for (const o of S.meta.options || []) {
    const owner = (S.meta.modules || []).find((m) => o.name.startsWith(`${m.name}_`));
    if (owner && !f.modules[owner.name]) continue;
    options[o.name] = !!f.options[o.name];
  }
  const body = { players, modules, options };
  if (String(f.seed).trim() !== "" && Number.isFinite(Number(f.seed))) body.seed = Math.trunc(Number(f.seed));
  S.busy = true;
  S.error = null;
  render();
  try {
    const res = await API.createGame(body);
    S.created = res;
    for (const s of res.seats || []) if (s.token) API.rememberToken(s.token);
    refreshMyGames();
  } catch (e) {
    S.error = errorText(e);
  } finally {
    S.busy = false;
    render();
  }
  const box = root.querySelector("[data-testid=created]") || root.querySelector("[data-testid=error]");
  if (box && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
}

function absolute(url) {
  return new URL(url, location.href).href;
}

function linkRow(label, url, id) {
  const full = absolute(url);
  const copied = h("span.copied", { "aria-live": "polite" });
  return h("div.link-row", { "data-testid": `${id}-row` },
    h("span.link-label", label),
    h("input.link", { type: "text", readonly: true, value: full, "data-testid": `${id}-link`, "aria-label": label,
      onfocus: (e) => e.target.select() }),
    h("button", {
      type: "button", "data-testid": `copy-${id}`,
      onclick: () => copyText(full).then(() => { copied.textContent = t("home.copied"); }),
    }, t("home.copy")),
    h("a.button", { href: url, "data-testid": `open-${id}` }, t("home.open")),
    copied);
}

function createdBox() {
  const c = S.created;
  return h("section.card.created", { "data-testid": "created" },
    h("h2", t("home.created", { id: c.game_id })),
    h("p.hint", t("home.links_hint")),
    (c.seats || []).map((s) => s.token
      ? linkRow(t("home.seat_link", { n: s.seat + 1, name: s.name }), s.url || `/#/play/${s.token}`, `seat-${s.seat}`)
      : h("div.link-row.bot-row", h("span.link-label", t("home.seat_link", { n: s.seat + 1, name: s.name })),
        h("span.muted", t("home.bot_seat")))),
    linkRow(t("home.watch_link"), c.watch_url || `/#/watch/${c.game_id}`, "watch"));
}

async function refreshMyGames() {
  const tokens = API.savedTokens();
  if (!tokens.length) { S.myGames = { games: [] }; if (S.route.page === "home") render(); return; }
  try {
    S.myGames = await API.myGames(tokens);
  } catch (e) {
    S.myGames = S.myGames || { games: [], error: errorText(e) };
  }
  if (S.route.page === "home") {
    // keep typing in the form undisturbed: only redraw the list
    const box = root.querySelector("[data-testid=my-games]");
    if (box) box.replaceWith(myGamesBox());
    else render();
  }
}

function myGamesBox() {
  const mg = S.myGames;
  let body;
  if (!mg) body = h("p.muted", t("status.loading"));
  else if (!mg.games.length) body = h("p.muted", t("home.no_games"));
  else {
    const games = [...mg.games].sort((a, b) => (b.your_turn - a.your_turn) || (a.is_over - b.is_over) || (b.updated - a.updated));
    body = h("ul.my-games", games.map((g, i) => h("li", { class: g.your_turn ? "your-turn" : "", "data-testid": `my-game-${i}` },
      h("a", { href: `#/play/${encodeURIComponent(g.token)}` }, g.name, " · ", g.game_id),
      h("span.meta", g.is_over ? t("status.over") : `${t("status.round", { n: g.round })} · ${t(`phase.${g.phase}`)}`),
      g.your_turn ? h("span.badge", t("home.your_turn")) : null,
      g.is_over ? h("a.button.small", { href: `#/replay/${encodeURIComponent(g.game_id)}` }, t("game.replay")) : null,
      h("button.small.ghost", {
        type: "button", "data-testid": `forget-${i}`, title: t("home.forget"),
        onclick: () => { API.forgetToken(g.token); refreshMyGames(); },
      }, "✕"))));
  }
  return h("section.card", { "data-testid": "my-games" }, h("h2", t("home.my_games")), body);
}

// ---------------------------------------------------------------------------------------
// game page (a seat or a spectator)

function errorBox() {
  return h("div.error", { role: "alert", "data-testid": "error" }, h("span", S.error),
    h("button.small.ghost", { type: "button", "aria-label": t("ui.dismiss"), onclick: () => { S.error = null; render(); } }, "✕"));
}

function boardCtx(st, hot = new Set(), selected = new Set()) {
  const v = st.view;
  const names = v.figures.map((f, i) => (f.leonardo ? t("leonardo") : (st.names && st.names[i]) || f.name));
  const seated = st.seat !== null && st.seat !== undefined;
  // the price shown is the seat's own, or Leonardo's while deciding for him
  const fig = seated && st.legal && st.legal.length ? actingFigure(v, st.seat) : st.seat;
  return {
    hot, selected,
    labels: initials(names),
    figName: (i) => names[i],
    price: seated ? hostelPrice(v, fig) : null,
  };
}

function gamePage() {
  const st = S.state;
  if (!st) {
    return h("div.loading", S.error ? errorBox() : null, S.fatal ? null : h("p.muted", t("status.loading")));
  }
  const v = st.view;
  const { hot, selected } = interaction(st);
  const ctx = boardCtx(st, hot, selected);
  const board = renderBoard(v, ctx, onBoardClick);
  const left = h("section.board-col", { "aria-label": t("board.aria") }, board, modulesPanel(v, ctx));
  const side = h("aside.side",
    S.error ? errorBox() : null,
    st.is_over ? finalPanel(st, ctx) : null,
    st.seat !== null && st.seat !== undefined ? (st.is_over ? null : decisionPanel(st, ctx)) : spectatorNote(st),
    st.seat !== null && st.seat !== undefined ? myScreen(st, ctx) : null,
    playersPanel(st, ctx),
    logPanel(logOf(st), ctx, st));
  return h("div.game", left, side);
}

function spectatorNote(st) {
  return h("section.card.decision", { "data-testid": "decision" },
    h("h2", t("game.spectator")));
}

// what is clickable on the board, from the legal actions and the current selection
function interaction(st) {
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

function bishopTargets(legal, seg) {
  const out = new Set();
  for (const a of legal) {
    const w = a.split(" ");
    if (w[0] === "restore" && w[1] === seg && (w[2] === "bishop" || w[2] === "sexton") && w.length === 4) out.add(w[3]);
  }
  return out;
}

function filterActions(legal, sel) {
  if (!sel) return legal;
  return legal.filter((a) => {
    const w = a.split(" ");
    if (sel.type === "booth") return (w[0] === "buy" || w[0] === "close") && w[1] === sel.id;
    if (sel.type === "segment") return w[0] === "restore" && w[1] === sel.id;
    if (sel.type === "altar") return w[0] === "altar";
    return true;
  });
}

function onBoardClick(id) {
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

function decisionPanel(st, ctx) {
  const v = st.view;
  const legal = st.legal || [];
  const body = [];
  const fig = actingFigure(v, st.seat);
  const forLeo = legal.length && v.figures[fig] && v.figures[fig].leonardo;
  if (!legal.length) {
    body.push(h("p", st.is_over ? t("status.over") : waitingText(st)));
    if (v.phase === "plan" && v.figures[st.seat] && v.figures[st.seat].plan) {
      body.push(h("p.muted", t("plan.yours", { plan: planWords(v, v.figures[st.seat].plan) })));
    }
  } else {
    if (forLeo) body.push(h("p.leo-note", t("decide.for_leonardo")));
    body.push(h("p.prompt", { "data-testid": "prompt" }, promptText(st, fig)));
    const plans = legal.filter((a) => a.startsWith("plan "));
    if (plans.length) body.push(planWidget(st, plans));
    const rest = legal.filter((a) => !a.startsWith("plan "));
    if (S.selection && S.selection.type === "booth") body.push(buyWidget(st));
    if (rest.length) body.push(actionList(st, rest, fig));
  }
  const undoBtn = st.undo ? h("button.undo", {
    type: "button", "data-testid": "undo", disabled: S.busy, onclick: sendUndo,
  }, "↶ ", t("game.undo")) : null;
  return h("section.card.decision", { "data-testid": "decision", class: legal.length ? "active" : "" },
    h("div.card-head", h("h2", legal.length ? t("decide.title") : t("decide.waiting_title")), undoBtn),
    body);
}

function waitingText(st) {
  const v = st.view;
  if (v.phase === "plan") {
    const waiting = (st.to_act || []).map((s) => figureName(st, s));
    return t("decide.wait_plans", { names: waiting.join(", ") || "—" });
  }
  const names = (st.to_act || []).map((s) => figureName(st, s));
  return names.length ? t("status.waiting", { names: names.join(", ") }) : t("decide.nothing");
}

function promptText(st, fig) {
  const v = st.view;
  const legal = st.legal;
  const kinds = new Set(legal.map((a) => a.split(" ")[0]));
  const left = v.visit_left;
  if (v.pending_track && kinds.has("track")) return t("prompt.track", { behind: v.pending_track.behind, ahead: v.pending_track.ahead });
  if (kinds.has("plan")) return t("prompt.plan", { n: v.figures[st.seat].apprentices });
  if (kinds.has("getup")) return t("prompt.getup");
  if (kinds.has("income")) return t("prompt.income");
  if (kinds.has("scroll")) return t("prompt.scroll");
  if (S.selection && S.selection.type === "segment") {
    const targets = bishopTargets(legal, S.selection.id);
    return targets.size ? t("prompt.segment_bishop", { seg: S.selection.id }) : t("prompt.segment", { seg: S.selection.id });
  }
  if (S.selection && S.selection.type === "booth") return t("prompt.booth", { booth: S.selection.id, n: left ?? 1 });
  const col = v.location;
  if (col === "market") return t("prompt.market", { n: left ?? 1 });
  if (col === "cathedral") return t("prompt.cathedral", { n: left ?? 1 });
  if (col === "studio") return kinds.has("portrait") ? t("prompt.studio_portrait", { n: left ?? 1 }) : t("prompt.studio", { n: left ?? 1 });
  if (col === "workshop") return kinds.has("blend") ? t("prompt.workshop", { n: left ?? 1 }) : t("prompt.workshop_request");
  if (col === "theater") return t("prompt.theater", { n: left ?? 1 });
  return t("prompt.generic");
}

const KIND_ORDER = ["track", "getup", "buy", "close", "restore", "altar", "studio", "portrait", "blend", "request",
  "theater", "income", "scroll", "pass"];

function actionList(st, actions, fig) {
  const v = st.view;
  const sel = S.selection;
  let shown = filterActions(actions, sel);
  if (sel && !shown.length) shown = actions;
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
    byKind.size > 1 ? h("h3", tOr(`kind.${k}`, k)) : null,
    byKind.get(k).map((a) => h("button.action", {
      type: "button", "data-testid": testid(a), "data-action": a, disabled: S.busy, title: a,
      class: a === "pass" ? "pass" : "",
      onclick: () => send(a),
    }, rich(describe(a, v, fig))))));
  return h("div.actions-box",
    sel ? h("div.filter-note", t("decide.filtered", { n: shown.length, all: actions.length }),
      h("button.small.ghost", { type: "button", "data-testid": "selection-clear", onclick: () => { S.selection = null; render(); } }, t("decide.show_all"))) : null,
    h("div.action-list", { role: "group", "aria-label": t("decide.choices") }, groups));
}

function buyWidget(st) {
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
    h("p.hint", t("buy.hint", { booth: sel.id })),
    h("div.buy-line",
      h("span", chosen.length ? chosen.map((c) => h("span.paints", chips(c))) : t("buy.none")),
      h("button.primary", {
        type: "button", "data-testid": "buy-confirm", disabled: !ok || S.busy,
        onclick: () => ok && send(notation),
      }, price !== null && chosen.length
        ? t("buy.confirm_cost", { n: chosen.length, cost: price * chosen.length })
        : t("buy.confirm", { n: chosen.length }))));
}

function planWidget(st, plans) {
  const v = st.view;
  const cols = v.columns || [];
  const key = `${st.game_id}:${v.round}:${cols.length}`;
  if (!S.plan || S.plan.key !== key) S.plan = { key, counts: cols.map(() => 0) };
  const counts = S.plan.counts;
  let perColumn = 0;
  let available = 0;
  for (const p of plans) {
    const c = p.slice(5).split("-").map(Number);
    perColumn = Math.max(perColumn, ...c);
    available = Math.max(available, c.reduce((a, b) => a + b, 0));
  }
  const used = counts.reduce((a, b) => a + b, 0);
  const notation = `plan ${counts.join("-")}`;
  const ok = plans.includes(notation);
  const colEls = cols.map((name, i) => h("div.plan-col", { "data-testid": `plan-col-${i}` },
    h("div.plan-name", columnLabel(v, i)),
    h("button.plan-btn", {
      type: "button", "data-testid": `plan-inc-${i}`, "aria-label": t("plan.inc", { col: columnLabel(v, i) }),
      disabled: counts[i] >= perColumn || used >= available || S.busy,
      onclick: () => { counts[i] += 1; render(); },
    }, "+"),
    h("div.plan-slots", { "aria-label": t("plan.count", { n: counts[i] }) },
      Array.from({ length: perColumn }, (_, k) => h("span.slot", { class: k < counts[i] ? "full" : "" }))),
    h("div.plan-count", { "data-testid": `plan-count-${i}` }, String(counts[i])),
    h("button.plan-btn", {
      type: "button", "data-testid": `plan-dec-${i}`, "aria-label": t("plan.dec", { col: columnLabel(v, i) }),
      disabled: counts[i] <= 0 || S.busy,
      onclick: () => { counts[i] -= 1; render(); },
    }, "−")));
  return h("div.plan-widget", { "data-testid": "plan-widget" },
    h("div.plan-sheet", colEls),
    h("p.plan-used", t("plan.used", { used, n: available })),
    h("div.plan-actions",
      h("button.ghost", { type: "button", "data-testid": "plan-reset", onclick: () => { S.plan.counts = cols.map(() => 0); render(); } }, t("plan.reset")),
      h("button.primary", {
        type: "button", "data-testid": "plan-confirm", "data-action": notation, disabled: !ok || S.busy,
        onclick: () => ok && send(notation),
      }, t("plan.confirm"))));
}

function planWords(v, plan) {
  return plan.map((n, i) => `${columnLabel(v, i)} ${n}`).join(", ");
}

// ---------------------------------------------------------------------------------------
// the seat's screen, the painters, module items

function myScreen(st, ctx) {
  const v = st.view;
  const f = v.figures[st.seat];
  if (!f) return null;
  const rows = [
    [t("screen.paints"), f.paints !== undefined ? (f.paints ? h("span.paints", chips(f.paints, { grouped: true })) : t("screen.no_paints")) : "?"],
    [t("screen.thalers"), f.thalers !== undefined ? h("span.thalers", { "data-testid": "my-thalers" }, String(f.thalers)) : "?"],
    [t("screen.apprentices"), apprenticeText(f)],
  ];
  if (f.plan) rows.push([t("screen.plan"), planWords(v, f.plan)]);
  const scrolls = v.scrolls && v.scrolls.mine;
  if (scrolls) rows.push([t("screen.scrolls"), scrollText(scrolls)]);
  return h("section.card.screen", { "data-testid": "my-screen" },
    h("h2", t("screen.title", { name: ctx.figName(st.seat) })),
    h("dl.kv", rows.map(([k, val]) => [h("dt", k), h("dd", val)])));
}

function scrollText(s) {
  const parts = [];
  if (s.row) parts.push(t("screen.scroll_row", { row: s.row }));
  if (s.column) parts.push(t("screen.scroll_column", { col: s.column }));
  return parts.length ? parts.join(", ") : t("screen.scrolls_played");
}

function apprenticeText(f) {
  let s = String(f.apprentices ?? "?");
  if (f.neutral_apprentice) s += ` (${t("screen.neutral")})`;
  if (f.apprentice_set_aside) s += ` (${t("screen.set_aside")})`;
  return s;
}

function vpBySource(log, name) {
  const out = {};
  for (const line of log) {
    const hit = parseLog(line.text);
    if (!hit || hit.key !== "log.scores" || hit.params.who !== name) continue;
    const why = parseWhy(hit.params.why);
    const src = why ? why.key.replace(/^why\./, "") : "other";
    const group = { restores: "fresco", altar: "altar", final: "thalers", favour: "favour", portrait: "portraits",
      request: "requests", scroll: "scrolls", scrolls: "scrolls" }[src] || "other";
    out[group] = (out[group] || 0) + Number(hit.params.vp);
  }
  return out;
}

function playersPanel(st, ctx) {
  const v = st.view;
  const log = st.type === "state" ? logOf(st) : st.log;
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
    if (f.plan && (i !== st.seat || st.seat === null)) lines.push(h("div.plan-line", t("players.plan", { plan: planWords(v, f.plan) })));
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
    const src = vpBySource(log, f.name);
    const srcKeys = Object.keys(src);
    if (srcKeys.length) {
      lines.push(h("div.vp-src", { "data-testid": `vp-sources-${i}` },
        srcKeys.map((k) => `${t(`source.${k}`)} ${src[k]}`).join(" · ")));
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
  return h("section.card", { "data-testid": "players" }, h("h2", t("players.title")), h("ul.players", cards), order);
}

function tileChip(text) {
  const tile = parseTile(text);
  if (!tile) return null;
  return h("span.tile-chip", { title: t("players.tile_title", { vp: tile.vp, paints: tile.paints, splashes: tile.splashes || "—" }) },
    h("b", String(tile.vp)), tile.splashes ? h("span.splashes", chips(tile.splashes)) : null);
}

function moduleLines(v, i) {
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
  // replay of a finished game: each seat's own module items ("hands")
  const hand = v.hands && v.hands[String(i)];
  if (hand && hand.scrolls && hand.scrolls.mine) {
    out.push(h("div.muted", t("screen.scrolls"), ": ", scrollText(hand.scrolls.mine)));
  }
  return out;
}

function modulesPanel(v, ctx) {
  const parts = [];
  const p = v.portraits;
  if (p) {
    const left = p.deck_left ? Object.entries(p.deck_left).map(([d, n]) => `${d}: ${n}`).join(", ") : "";
    parts.push(h("div.module", { "data-testid": "portraits" },
      h("h3", tOr("module.portraits", "Portraits")),
      h("div.cards", (p.display || []).length ? p.display.map((c) => h("div.pcard", { "data-testid": `portrait-${c.id}` },
        h("strong", cardTitle(c)), h("span.muted", ` (${c.deck}${c.permanent ? `, ${t("portrait.permanent")}` : ""})`),
        h("div.small", rich(cardEffects(c))))) : h("p.muted", t("portrait.none"))),
      left ? h("p.muted.small", t("portrait.decks", { left })) : null));
  }
  const r = v.requests;
  if (r && r.stacks) {
    parts.push(h("div.module", { "data-testid": "requests" },
      h("h3", tOr("module.requests", "Requests")),
      h("ul.inline", Object.entries(r.stacks).map(([type, vals]) => h("li",
        h("strong", tOr(`request.${type}`, type)), ": ",
        vals.length ? t("request.top", { vp: vals[vals.length - 1], n: vals.length }) : t("request.empty"))))));
  }
  const sc = v.special_colours;
  if (sc) {
    parts.push(h("div.module", { "data-testid": "special-colours" },
      h("h3", tOr("module.special_colours", "Special colours")),
      h("p.small", rich(t("special.altar"))),
      sc.on_fresco ? h("p.small", rich(t("special.on_fresco", { k: sc.fresco_bonus.K ?? 3, n: sc.fresco_bonus.N ?? 5 }))) : null));
  }
  const bf = v.bishops_favour;
  if (bf) {
    parts.push(h("div.module", { "data-testid": "bishops-favour" },
      h("h3", tOr("module.bishops_favour", "Bishop's favour")),
      h("p.small", t("favour.left", { n: bf.tokens_left }))));
  }
  if (v.scrolls) {
    parts.push(h("div.module", { "data-testid": "scrolls" },
      h("h3", tOr("module.scrolls", "Scrolls")), h("p.small", t("scrolls.rule"))));
  }
  // anything a module adds that has no widget of its own: shown as plain text
  const known = new Set(["seat", "round", "final_round", "action_sheet_side", "columns", "phase", "to_act", "actor",
    "actor_figure", "location", "column", "visit_left", "fresco", "bishop", "leonardo_painter", "leonardo_controller",
    "booths", "bag_size", "hostel", "mood_display", "order", "figures", "pending_track", "log", "is_over", "legal_actions",
    "portraits", "requests", "special_colours", "bishops_favour", "scrolls", "hands"]);
  for (const key of Object.keys(v).filter((k) => !known.has(k)).sort()) {
    parts.push(h("div.module", { "data-testid": `module-view-${key}` },
      h("h3", tOr(`module.${key}`, key)), h("p.small", shortText(v[key]))));
  }
  const legend = h("p.legend.small.muted", t("board.legend"));
  return h("div.modules", parts, legend);
}

function shortText(value) {
  if (Array.isArray(value)) return value.map(shortText).join(", ") || "—";
  if (value && typeof value === "object") {
    return Object.entries(value).map(([k, x]) => `${k}: ${shortText(x)}`).join("; ") || "—";
  }
  return value === null || value === undefined ? "—" : String(value);
}

// ---------------------------------------------------------------------------------------
// log and scores

function logPanel(lines, ctx, st) {
  const items = [];
  for (const line of lines) {
    const hit = parseLog(line.text);
    const text = translateLog(line.text);
    if (hit && (hit.key === "log.round" || hit.key === "log.round_final")) {
      items.push(h("li.round", rich(text)));
      continue;
    }
    const scoring = hit && hit.key === "log.scores";
    items.push(h("li", { class: scoring ? "vp" : "", "data-i": line.i },
      scoring ? h("span.vp-badge", `+${hit.params.vp}`) : null,
      rich(text)));
  }
  return h("section.card.log", { "data-testid": "log" },
    h("h2", t("logui.title")),
    h("ol.log-lines", { "aria-live": "polite" }, items.length ? items : h("li.muted", t("logui.empty"))));
}

function finalPanel(st, ctx) {
  const v = st.view;
  const ranking = st.ranking || [];
  const scores = st.scores || v.figures.map((f) => f.vp);
  return h("section.card.final", { "data-testid": "final-scores" },
    h("h2", t("final.title")),
    h("table.scores",
      h("thead", h("tr", h("th", "#"), h("th", t("final.name")), h("th", t("final.vp")), h("th", t("final.tiles")))),
      h("tbody", ranking.map((fi, place) => h("tr", { class: place === 0 ? "winner" : "" },
        h("td", String(place + 1)),
        h("td", h("span.disc.small", { style: `background:${figureColour(v, fi)}` }, ctx.labels[fi]), " ", ctx.figName(fi)),
        h("td", String(scores[fi])),
        h("td", String((v.figures[fi].tiles || []).length)))))),
    st.game_id ? h("a.button", { href: `#/replay/${encodeURIComponent(st.game_id)}`, "data-testid": "replay-link" }, t("game.replay")) : null);
}

// ---------------------------------------------------------------------------------------
// replay

async function loadReplay(gameId, step) {
  const route = S.route;
  if (!S.replay) S.replay = { gameId, timer: null, want: step };
  const r = S.replay;
  r.want = step;
  try {
    const before = r.data && r.data.step === step - 1 ? r.data : null;
    const [data, prev] = await Promise.all([
      API.getReplay(gameId, step),
      step > 0 && !before ? API.getReplay(gameId, step - 1).catch(() => null) : Promise.resolve(before),
    ]);
    if (S.route !== route || r.want !== step) return;
    r.prev = prev ? prev.view : null;
    learnSegments(data.view);
    r.data = data;
    r.step = data.step;
    r.steps = data.steps;
    r.max = r.max ?? data.steps;
    S.error = null;
  } catch (e) {
    if (S.route !== route || r.want !== step) return;
    if (r.steps !== undefined && step >= r.steps && step > 0 && e.status === 404) {
      // this server's last step is steps - 1
      r.max = step - 1;
      return loadReplay(gameId, step - 1);
    }
    S.error = errorText(e);
  }
  render();
}

function replayGo(step) {
  const r = S.replay;
  if (!r) return;
  const max = r.max ?? r.steps;
  const s = Math.max(0, Math.min(max, step));
  if (s !== r.want) loadReplay(r.gameId, s);
}

function replayToggle() {
  const r = S.replay;
  if (!r) return;
  if (r.timer) {
    clearInterval(r.timer);
    r.timer = null;
  } else {
    r.timer = setInterval(() => {
      if (r.want >= (r.max ?? r.steps)) { clearInterval(r.timer); r.timer = null; render(); return; }
      replayGo(r.want + 1);
    }, 700);
  }
  render();
}

function replayPage() {
  const r = S.replay;
  if (!r || !r.data) return h("div", S.error ? errorBox() : h("p.muted", t("status.loading")));
  const d = r.data;
  const v = d.view;
  const st = {
    type: "replay", game_id: r.gameId, seat: null, version: d.step, names: d.names, seats: [], view: v,
    legal: [], to_act: v.to_act || [], is_over: d.step >= (r.max ?? d.steps), scores: d.scores, ranking: d.ranking,
    log: (v.log || []).map((text, i) => ({ i, text })),
  };
  const ctx = boardCtx(st);
  const max = r.max ?? d.steps;
  const action = d.action
    ? h("span", h("strong", ctx.figName(d.action[0]) ?? `#${d.action[0]}`), ": ",
      rich(describe(d.action[1], r.prev || v, d.action[0])), h("code.muted", ` ${d.action[1]}`))
    : h("span.muted", t("replay.start"));
  const controls = h("section.card.replay-controls", { "data-testid": "replay" },
    h("div.replay-row",
      h("button", { type: "button", "data-testid": "replay-first", onclick: () => replayGo(0), "aria-label": t("replay.first") }, "|◀"),
      h("button", { type: "button", "data-testid": "replay-prev", onclick: () => replayGo(r.want - 1), "aria-label": t("replay.prev") }, "◀"),
      h("button", { type: "button", "data-testid": "replay-play", onclick: replayToggle, "aria-pressed": r.timer ? "true" : "false" }, t(r.timer ? "replay.pause" : "replay.play")),
      h("button", { type: "button", "data-testid": "replay-next", onclick: () => replayGo(r.want + 1), "aria-label": t("replay.next") }, "▶"),
      h("button", { type: "button", "data-testid": "replay-last", onclick: () => replayGo(max), "aria-label": t("replay.last") }, "▶|"),
      h("input.slider", {
        type: "range", min: 0, max, value: r.step, "data-testid": "replay-slider", "aria-label": t("replay.step_label"),
        onchange: (e) => replayGo(Number(e.target.value)),
      }),
      h("span.step", { "data-testid": "replay-step" }, t("replay.step", { step: r.step, steps: max }))),
    h("p.replay-action", { "data-testid": "replay-action" }, action));
  const finalSt = { ...st, view: v, ranking: d.ranking, scores: d.scores, game_id: null };
  const left = h("section.board-col", renderBoard(v, ctx, () => {}), modulesPanel(v, ctx));
  const side = h("aside.side", S.error ? errorBox() : null, finalPanel(finalSt, ctx), playersPanel(st, ctx), logPanel(st.log, ctx, st));
  return h("div.replay-page", controls, h("div.game", left, side));
}

// ---------------------------------------------------------------------------------------
// keyboard: Escape clears a selection

document.addEventListener("keydown", (e) => {
  if (e.key === "Escape" && S.selection) {
    S.selection = null;
    render();
  }
});

async function main() {
  try {
    await initI18n();
  } catch (e) {
    root.textContent = `affresco: ${e.message}`;
    return;
  }
  window.addEventListener("hashchange", route);
  route();
}

main();

// for debugging in the console
window.affresco = { S, render, send };
