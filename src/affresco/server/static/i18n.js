// Interface language: catalogs in /static/i18n/<lang>.json (flat "key": "template" maps with
// the same keys in every language), {name} placeholders, {n|one:...|other:...} plural words,
// and translation of the engine's English log lines through the English catalog's "log.*" and
// "why.*" templates (which are the engine's text, so they double as the patterns).

export const LANGS = ["en", "fr", "ru"];
const STORE_KEY = "affresco.lang";
const catalogs = {};
let lang = "en";
let patterns = null;

// Markers around paint letters in a translated string: the renderer turns them into chips.
export const PAINT_OPEN = "\uE000";
export const PAINT_CLOSE = "\uE001";
export const paintMark = (letters) => `${PAINT_OPEN}${letters}${PAINT_CLOSE}`;

async function load(l) {
  if (!catalogs[l]) {
    const r = await fetch(`/static/i18n/${l}.json`);
    if (!r.ok) throw new Error(`catalog ${l}: HTTP ${r.status}`);
    catalogs[l] = await r.json();
  }
  return catalogs[l];
}

function preferred() {
  try {
    const saved = localStorage.getItem(STORE_KEY);
    if (LANGS.includes(saved)) return saved;
  } catch (e) { /* storage blocked */ }
  for (const l of navigator.languages || [navigator.language || "en"]) {
    const short = String(l).slice(0, 2).toLowerCase();
    if (LANGS.includes(short)) return short;
  }
  return "en";
}

export async function initI18n() {
  await load("en");
  await setLang(preferred(), false);
}

export async function setLang(l, persist = true) {
  if (!LANGS.includes(l)) l = "en";
  await load(l);
  lang = l;
  document.documentElement.lang = l;
  if (persist) {
    try { localStorage.setItem(STORE_KEY, l); } catch (e) { /* storage blocked */ }
  }
}

export const currentLang = () => lang;
export const has = (key) => key in (catalogs[lang] || {}) || key in (catalogs.en || {});

function plural(n, forms) {
  let cat = "other";
  try { cat = new Intl.PluralRules(lang).select(Number(n)); } catch (e) { /* old browser */ }
  const map = {};
  for (const f of forms) {
    const i = f.indexOf(":");
    if (i > 0) map[f.slice(0, i)] = f.slice(i + 1);
  }
  return map[cat] ?? map.other ?? "";
}

export function fill(template, params = {}) {
  return template.replace(/\{(\w+)((?:\|[a-z]+:[^|}]*)+)?\}/g, (m, name, forms) => {
    if (!(name in params)) return m;
    if (forms) return plural(params[name], forms.slice(1).split("|"));
    return String(params[name]);
  });
}

/** The text of ``key`` in the current language (English, then the key itself, as fallback). */
export function t(key, params = {}) {
  const cat = catalogs[lang] || {};
  const tpl = key in cat ? cat[key] : key in (catalogs.en || {}) ? catalogs.en[key] : key;
  return fill(tpl, params);
}

/** ``t(prefix + name)`` when the catalog has it, else ``fallback`` (or the name). */
export function tOr(key, fallback) {
  return has(key) ? t(key) : (fallback ?? key.split(".").pop());
}

// ---- engine log lines -------------------------------------------------------------
const SLOT = {
  who: "(.+?)", n: "(\\d+)", vp: "(\\d+)", seg: "([A-E][1-5])", booth: "(IV|III|II|I)",
  time: "(\\d{1,2}:\\d\\d)", plan: "([\\d-]+)", tiles: "(.+?)", paints: "([RYBOGPKN]+)",
  paint: "([RYBOGPKN]+)", why: "(.+)", dir: "(behind|ahead)", effect: "([a-z_]+)", value: "(.*?)",
  cards: "(.+)", card: "(.+?)", type: "([a-z_]+)", tile: "(\\d+)", bonus: "(\\d+)", special: "(\\d+)",
};

function compile() {
  const out = [];
  for (const [key, tpl] of Object.entries(catalogs.en || {})) {
    if (!key.startsWith("log.") && !key.startsWith("why.")) continue;
    const names = [];
    const parts = tpl.split(/(\{\w+\})/);
    let re = "";
    let literal = 0;
    for (const p of parts) {
      const m = /^\{(\w+)\}$/.exec(p);
      if (m) { names.push(m[1]); re += SLOT[m[1]] || "(.+?)"; }
      else { re += p.replace(/[.*+?^${}()|[\]\\]/g, "\\$&"); literal += p.length; }
    }
    out.push({ key, names, re: new RegExp(`^${re}$`), literal, family: key.split(".")[0] });
  }
  out.sort((a, b) => b.literal - a.literal);
  return out;
}

function match(text, family) {
  patterns = patterns || compile();
  for (const p of patterns) {
    if (p.family !== family) continue;
    const m = p.re.exec(text);
    if (m) {
      const params = {};
      p.names.forEach((n, i) => { params[n] = m[i + 1]; });
      return { key: p.key, params };
    }
  }
  return null;
}

// English names of portrait cards (from the data file) -> catalog keys
function cardName(name) {
  const en = catalogs.en || {};
  for (const [k, v] of Object.entries(en)) {
    if (k.startsWith("card.") && v === name) return t(k);
  }
  return name;
}

function slotValue(name, value) {
  switch (name) {
    case "paints": case "paint": return paintMark(value);
    case "tiles": return value.split(" ").map(tileWords).join(" ");
    case "why": return translateFamily(value, "why");
    case "dir": return t(`word.${value}`);
    case "effect": return tOr(`favour.${value}`, value);
    case "card": return cardName(value);
    case "cards": return value.split(", ").map(cardName).join(", ");
    case "type": return tOr(`request.${value}`, value);
    case "who": return value === "Leonardo" ? t("leonardo") : value;
    case "value": return /^[RYBOGPKN]$/.test(value) ? paintMark(value) : value;
    default: return value;
  }
}

/** '3:YY' or '5:OY/G' (a fresco tile) -> '3 VP YY'; market tiles ('RRY') -> paint marks. */
export function tileWords(text) {
  const m = /^(\d+):([A-Z]*)(?:\/([A-Z]*))?$/.exec(text);
  if (m) return t("tile.short", { vp: m[1], paints: paintMark(m[2]) });
  if (/^[RYBOGPKN]+$/.test(text)) return paintMark(text);
  return text;
}

function translateFamily(text, family) {
  const hit = match(text, family);
  if (!hit) return text;
  const params = {};
  for (const [k, v] of Object.entries(hit.params)) params[k] = slotValue(k, v);
  return t(hit.key, params);
}

/** A log line of the engine (English) in the interface language; unknown lines stay English. */
export function translateLog(text) {
  return translateFamily(text, "log");
}

/** {key, params} of a log line (raw English values), or null. */
export function parseLog(text) {
  return match(text, "log");
}

export function parseWhy(text) {
  return match(text, "why");
}
