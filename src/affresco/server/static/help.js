// Rules help: the how-to-play page (#/help) that follows the round, and the short explanation
// of every location, column, zone, track and module panel (hover: a tooltip; tap: the ⓘ
// button).  The texts are in /static/help/<lang>.json, one file per language.
import { currentLang, t } from "./i18n.js";
import { h } from "./ui.js";
import { S, render } from "./store.js";

const texts = {};

export async function loadHelp(lang = currentLang()) {
  for (const l of new Set(["en", lang])) {
    if (texts[l]) continue;
    try {
      const r = await fetch(`/static/help/${l}.json`);
      if (r.ok) texts[l] = await r.json();
    } catch (e) { /* the page works without help */ }
  }
}

const doc = () => texts[currentLang()] || texts.en || { sections: [], places: {} };

/** The explanation of a place of the board or a panel ("market", "col.theater", "module.scrolls"). */
export function placeHelp(key) {
  const mine = doc().places || {};
  const en = (texts.en && texts.en.places) || {};
  return mine[key] || en[key] || "";
}

/** An ⓘ button that shows (and hides) the explanation of ``keys`` in place. */
export function infoButton(id, keys) {
  const list = (Array.isArray(keys) ? keys : [keys]).map(placeHelp).filter(Boolean);
  if (!list.length) return null;
  const open = S.info === id;
  const btn = h("button.info", {
    type: "button", "data-testid": `info-${id}`, "aria-expanded": open ? "true" : "false",
    "aria-label": t("help.about"), title: list.join("\n"),
    onclick: (e) => { e.stopPropagation(); S.info = open ? null : id; render(); },
  }, "i");
  return open ? [btn, h("div.info-pop", { role: "note", "data-testid": `info-text-${id}` }, list.map((x) => h("p", x)))] : btn;
}

/** The how-to-play page. */
export function helpPage() {
  const d = doc();
  const back = h("a.button", { href: S.helpBack || "#/", "data-testid": "help-back" }, "← ", t("help.back"));
  const toc = h("nav.help-toc", { "aria-label": t("help.contents") },
    h("ul", (d.sections || []).map((s) => h("li", h("a", { href: `#/help/${s.id}`, onclick: (e) => { e.preventDefault(); jump(s.id); } }, s.title)))));
  const sections = (d.sections || []).map((s) => h("section.card.help-section", { id: `help-${s.id}`, "data-testid": `help-${s.id}` },
    h("h2", s.title), (s.text || []).map((p) => h("p", p))));
  const places = h("section.card.help-section", { id: "help-places", "data-testid": "help-places" },
    h("h2", t("help.places")),
    h("dl.help-places", Object.entries(d.places || {}).map(([k, v]) => [h("dt", placeName(k)), h("dd", v)])));
  return h("div.help", { "data-testid": "help" },
    h("div.help-head", back, h("h1", d.title || t("help.open"))),
    d.intro ? h("p.help-intro", d.intro) : null, toc, sections, places, h("p", back.cloneNode(true)));
}

function placeName(key) {
  const [a, b] = key.split(".");
  if (a === "col") return t(`col.${b}`);
  if (a === "module") return t(`module.${b}`);
  const board = { cathedral: "board.cathedral", altar: "board.altar", market: "board.market", hostel: "board.hostel",
    studio: "board.studio", workshop: "board.workshop", theater: "board.theater", track: "board.track",
    players: "players.title", log: "logui.title", screen: "help.screen" }[key];
  return board ? t(board) : key;
}

function jump(id) {
  const el = document.getElementById(`help-${id}`);
  if (el) el.scrollIntoView({ block: "start" });
}
