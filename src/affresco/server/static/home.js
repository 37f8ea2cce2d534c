// The start page: create a game, the games kept in this browser.
import * as API from "./api.js";
import { has, t, tOr } from "./i18n.js";
import { copyText, h } from "./ui.js";
import { S, errorBox, errorText, held, render, root } from "./store.js";

// ---------------------------------------------------------------------------------------
// home page: create a game, my games

export async function loadMeta() {
  if (S.meta) { initForm(); render(); return; }
  try {
    S.meta = await API.getMeta();
    initForm();
  } catch (e) {
    S.error = errorText(e);
  }
  render();
}

export function initForm() {
  if (S.form || !S.meta) return;
  const bots = S.meta.bots || [];
  const options = {};
  for (const o of S.meta.options || []) options[o.name] = !!o.default;
  S.form = {
    count: 2,
    seats: [0, 1, 2, 3].map((i) => ({
      name: "", kind: i === 0 ? "human" : "bot",
      bot: (botMenu(bots)[0] || {}).name || "", seconds: 1.0,
    })),
    modules: {},
    options,
    seed: "",
  };
}

export function homePage() {
  const out = [h("h1.sr-only", { "data-testid": "page-title" }, t("app.title"))];
  if (S.error) out.push(errorBox());
  out.push(h("section.card.create", { "aria-labelledby": "create-h" },
    h("h2#create-h", t("home.create")), S.meta ? createForm() : h("p.muted", t("status.loading"))));
  out.push(myGamesBox());
  return h("div.home", out);
}

export function createForm() {
  const f = S.form;
  const meta = S.meta;
  const bots = botMenu(meta.bots || []);
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
      }, bots.map((b) => h("option", { value: b.name, selected: b.name === seat.bot },
        tOr(`bot.${b.name}`, b.name)))) : null,
      seat.kind === "bot" && has(`botdesc.${seat.bot}`) ? h("p.hint.bot-desc", { "data-testid": `seat-bot-desc-${i}` }, t(`botdesc.${seat.bot}`)) : null,
      seat.kind === "bot" && bot && bot.timed ? h("label.seconds", t("home.seconds"),
        h("input", {
          "data-testid": `seat-seconds-${i}`, type: "number", min: "0.1", max: String(meta.max_seconds || 30), step: "0.1",
          value: seat.seconds,
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
      type: "number", "data-testid": "seed", placeholder: t("home.seed_hint"), value: seedOff() ? "" : f.seed,
      step: "1", min: String(-Number.MAX_SAFE_INTEGER), max: String(Number.MAX_SAFE_INTEGER), disabled: seedOff(),
      "aria-describedby": seedOff() ? "seed-off" : undefined,
      oninput: (e) => { f.seed = e.target.value; },
    }),
    seedOff() ? h("p.hint#seed-off", { "data-testid": "seed-off" }, t("home.seed_friends")) : null),
  h("div.actions", h("button.primary", { type: "submit", "data-testid": "create-game", disabled: S.busy }, t("home.create_button"))));
}

/** With two people or more the server draws a secret seed (R22), unless it was started to
 *  take fixed seeds: the seed field is then off. */
function seedOff() {
  const f = S.form;
  return !(S.meta && S.meta.seed_with_friends) && f.seats.slice(0, f.count).filter((x) => x.kind === "human").length > 1;
}

export function defaultName(i, seat) {
  if (seat.kind === "bot") {
    const bot = ((S.meta && S.meta.bots) || []).find((b) => b.name === seat.bot);
    return bot ? `${tOr(`bot.${bot.name}`, bot.name).replace(/\s*\(.*\)$/, "")} ${i + 1}` : t("home.default_name", { n: i + 1 });
  }
  return t("home.default_name", { n: i + 1 });
}

export async function submitCreate() {
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
  if (!seedOff() && String(f.seed).trim() !== "" && Number.isFinite(Number(f.seed))) body.seed = Math.trunc(Number(f.seed));
  S.busy = true;
  S.error = null;
  render();
  try {
    const res = await API.createGame(body);
    // the creator is seated straight away (the first person's seat); the other people's links
    // are on the game page, in the invitation card
    S.invite = res;
    const mine = (res.seats || []).find((x) => x.token);
    S.busy = false;
    if (mine) {
      API.rememberToken(mine.token);
      location.hash = `#/play/${encodeURIComponent(mine.token)}`;
    } else {
      location.hash = `#/watch/${encodeURIComponent(res.game_id)}`;
    }
    return;
  } catch (e) {
    S.error = errorText(e);
  } finally {
    S.busy = false;
    render();
  }
  const box = root.querySelector("[data-testid=created]") || root.querySelector("[data-testid=error]");
  if (box && box.scrollIntoView) box.scrollIntoView({ block: "nearest" });
}

export function absolute(url) {
  return new URL(url, location.href).href;
}

export function linkRow(label, url, id) {
  const full = absolute(url);
  return h("div.link-row", { "data-testid": `${id}-row` },
    h("span.link-label", label),
    h("input.link", { type: "text", readonly: true, value: full, "data-testid": `${id}-link`, "aria-label": label,
      onfocus: (e) => e.target.select() }),
    h("button", {
      type: "button", "data-testid": `copy-${id}`,
      // the row's live node (a redraw in place keeps the page's own, not this render's)
      onclick: (e) => {
        const row = e.currentTarget.closest(".link-row");
        copyText(full).then(() => { row.querySelector(".copied").textContent = t("home.copied"); });
      },
    }, t("home.copy")),
    h("a.button", { href: url, "data-testid": `open-${id}` }, t("home.open")),
    h("span.copied", { "aria-live": "polite" }));
}

/** The links of a game just created: every other person's seat and the spectators'. */
export function inviteCard(st) {
  const c = S.invite;
  if (!c || c.game_id !== st.game_id || st.is_over) return null;
  const others = (c.seats || []).filter((s) => s.token && s.seat !== st.seat);
  return h("details.card.created", { "data-testid": "created", open: others.length ? true : undefined },
    h("summary", h("strong", t("home.created", { id: c.game_id }))),
    others.length ? h("p.hint", t("home.links_hint")) : null,
    others.map((s) => linkRow(t("home.seat_link", { n: s.seat + 1, name: s.name }), s.url || `/#/play/${s.token}`, `seat-${s.seat}`)),
    linkRow(t("home.watch_link"), c.watch_url || `/#/watch/${c.game_id}`, "watch"));
}

export async function refreshMyGames() {
  const tokens = API.savedTokens();
  if (!tokens.length) { S.myGames = { games: [] }; if (S.route.page === "home") render(); return; }
  try {
    S.myGames = await API.myGames(tokens);
  } catch (e) {
    S.myGames = S.myGames || { games: [], error: errorText(e) };
  }
  // finished games: their results, from the public view of each (fetched once)
  S.results = S.results || {};
  const over = (S.myGames.games || []).filter((g) => g.is_over && !S.results[g.game_id]);
  await Promise.all(over.map((g) => API.getGame(g.game_id).then((st) => {
    S.results[g.game_id] = { ranking: st.ranking || [], scores: st.scores || [], view: st.view, names: st.names };
  }).catch(() => null)));
  if (S.route.page === "home") {
    // keep typing in the form undisturbed: only redraw the list
    const box = root.querySelector("[data-testid=my-games]");
    if (held.down) held.pending = true;        // a press in progress: the page follows its click
    else if (box) box.replaceWith(myGamesBox());
    else render();
  }
}

export function myGamesBox() {
  const mg = S.myGames;
  let body;
  if (!mg) body = h("p.muted", t("status.loading"));
  else if (!mg.games.length) body = h("p.muted", t("home.no_games"));
  else {
    const games = [...mg.games].sort((a, b) => (b.your_turn - a.your_turn) || (a.is_over - b.is_over) || (b.updated - a.updated));
    body = h("ul.my-games", games.map((g, i) => h("li", { class: g.your_turn ? "your-turn" : "", "data-testid": `my-game-${i}` },
      h("a", { href: `#/play/${encodeURIComponent(g.token)}` }, g.name, " · ", g.game_id),
      h("span.meta", { "data-testid": `my-game-meta-${i}` }, g.is_over ? resultText(g) : `${t("status.round", { n: g.round })} · ${t(`phase.${g.phase}`)}`),
      g.your_turn ? h("span.badge", t("home.your_turn")) : null,
      g.is_over ? h("a.button.small", { href: `#/replay/${encodeURIComponent(g.game_id)}` }, t("game.replay")) : null,
      h("button.small.ghost", {
        type: "button", "data-testid": `forget-${i}`, title: t("home.forget"),
        onclick: () => { API.forgetToken(g.token); refreshMyGames(); },
      }, "✕"))));
  }
  return h("section.card", { "data-testid": "my-games" }, h("h2", t("home.my_games")), body);
}

/** "Game over · Bruno wins · you: 2nd, 48 VP" */
function resultText(g) {
  const r = (S.results || {})[g.game_id];
  if (!r || !r.ranking.length) return t("status.over");
  const name = (i) => ((r.view.figures[i] || {}).leonardo ? t("leonardo") : (r.names || [])[i] ?? `#${i}`);
  const place = r.ranking.indexOf(g.seat) + 1;
  return [t("status.over"), t("final.wins", { name: name(r.ranking[0]) }),
    t("home.your_result", { place, vp: r.scores[g.seat] })].join(" · ");
}

// One menu of bots with user-facing names (catalog "bot.*", "botdesc.*"): the strongest quick
// one first; a registered alias of another bot ("greedy" is the heuristic bot) is not listed.
const BOT_ORDER = ["heuristic", "search", "random"];
const BOT_ALIASES = new Set(["greedy"]);

export function botMenu(bots) {
  const listed = bots.filter((b) => !BOT_ALIASES.has(b.name) || !bots.some((x) => x.name === "heuristic"));
  const rank = (b) => (BOT_ORDER.includes(b.name) ? BOT_ORDER.indexOf(b.name) : 99);
  return [...listed].sort((a, b) => rank(a) - rank(b) || a.name.localeCompare(b.name));
}
