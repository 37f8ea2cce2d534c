// Interface language: catalogs in /static/i18n/<lang>.json (flat "key": "template" maps with
// the same keys in every language), {name} placeholders, {n|one:...|other:...} plural words.
// The game log is rendered from the engine's events (events.js), never from text.

export const LANGS = ["en", "fr", "ru"];
const STORE_KEY = "affresco.lang";
const catalogs = {};
let lang = "en";

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

/** '3:YY' or '5:OY/G' (a fresco tile) -> '3 VP YY'; market tiles ('RRY') -> paint marks. */
export function tileWords(text) {
  const m = /^(\d+):([A-Z]*)(?:\/([A-Z]*))?$/.exec(text);
  if (m) return t("tile.short", { vp: m[1], paints: paintMark(m[2]) });
  if (/^[RYBOGPKN]+$/.test(text)) return paintMark(text);
  return text;
}
