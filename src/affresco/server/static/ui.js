// Small DOM helpers and shared game helpers (colours, initials, tiles, paints).
import { PAINT_CLOSE, PAINT_OPEN, t } from "./i18n.js";

/** h("div.class#id", {attrs}, ...children) -> Element.  Attributes starting with "on" are
 *  listeners (see ``on``); ``dataset``-style keys are written as given ("data-testid"). */
const FORM = new Set(["INPUT", "TEXTAREA", "SELECT", "OPTION"]);

export function h(tag, attrs, ...children) {
  const m = /^([a-z0-9]+)?((?:[.#][\w-]+)*)$/i.exec(tag);
  const el = document.createElement(m && m[1] ? m[1] : "div");
  if (FORM.has(el.nodeName)) live.push(el);     // its state is a property: see morphNode
  if (m && m[2]) {
    for (const part of m[2].match(/[.#][\w-]+/g) || []) {
      if (part[0] === ".") el.classList.add(part.slice(1));
      else el.id = part.slice(1);
    }
  }
  if (attrs && (typeof attrs !== "object" || attrs instanceof Node || Array.isArray(attrs))) {
    children.unshift(attrs);
    attrs = null;
  }
  for (const [k, v] of Object.entries(attrs || {})) {
    if (v === undefined || v === null || v === false) continue;
    if (k.startsWith("on") && typeof v === "function") on(el, k.slice(2), v);
    else if (k === "class") el.className = [el.className, v].filter(Boolean).join(" ");
    else if (k === "text") el.textContent = v;
    else if (k === "value") el.value = v;
    else if (k === "checked" || k === "disabled" || k === "selected") el[k] = !!v;
    else el.setAttribute(k, v === true ? "" : String(v));
  }
  append(el, children);
  return el;
}

/** Listen to ``name`` on ``el`` with ``fn``: one listener per event, which calls the handler in
 *  ``el.__on``, so that ``morph`` can hand a kept element the new render's handlers. */
export function on(el, name, fn) {
  bind(el, name);
  if (!el.__on) { el.__on = {}; live.push(el); }
  el.__on[name] = fn;
}

function bind(el, name) {
  if (!el.__bound) el.__bound = new Set();
  if (!el.__bound.has(name)) { el.__bound.add(name); el.addEventListener(name, dispatch); }
}

function dispatch(e) {
  const fn = this.__on && this.__on[e.type];
  return fn ? fn.call(this, e) : undefined;
}

// ---------------------------------------------------------------------------------------
// rendering in place: the page is built with h() at every redraw, then the live page is
// brought to it, keeping every node that stays (so the browser lays out only what changed, and
// focus, scroll and a press in progress stay where they are); the big parts that seldom change
// (the board's picture, the log's entries) are built only when their key changes (``kept``)

const key = (n) => (n.nodeType === 1
  ? n.getAttribute("data-testid") || (n.hasAttribute("data-i") ? `#${n.getAttribute("data-i")}` : null)
  : null);

const same = (a, b) => a.nodeType === b.nodeType && a.nodeName === b.nodeName
  && (a.nodeType !== 1 || (a.namespaceURI === b.namespaceURI && a.getAttribute("type") === b.getAttribute("type")));

// the nodes of the page being built that carry handlers or form state (see ``morphChildren``)
const live = [];
let epoch = 0;
// the elements of the page being built whose children wait for the morph (see ``kept``)
let lazy = [];

/** ``el`` (a new element, its own attributes and handlers set) whose children ``build()``
 *  returns, built only if the page's node at its place was not built from the same ``key``:
 *  an unchanged part (the board's picture, a log entry) is then neither built again nor compared
 *  with the page's.  ``key`` must tell apart every different content (e.g. the text it shows). */
export function kept(el, key, build) {
  el.__key = key;
  el.__build = build;
  live.push(el);      // never skipped by isEqualNode: its children are not there yet
  lazy.push(el);
  return el;
}

// build the waiting children of a kept element (the page's node had other ones)
function fill(el) {
  const build = el.__build;
  el.__build = null;
  append(el, build());
  for (const n of live) {       // mark the new nodes with handlers or form state (see mark)
    for (let m = n; m && m !== el && m.__live !== epoch; m = m.parentNode) { m.__live = epoch; m.__hasLive = true; }
  }
  live.length = 0;
}

/** Make the children of the live ``parent`` those of the list ``kids`` (new nodes, not in the
 *  page): a child with the same key (data-testid, data-i) or, unkeyed, at the same place among
 *  the unkeyed ones, and of the same tag, is kept and updated; the others are moved in. */
export function morphChildren(parent, kids) {
  mark();
  children(parent, kids);
  settle(parent);
}

/** The same for one live node ``old`` and its new version ``neu`` (same tag). */
export function morphNode(old, neu) {
  mark();
  node(old, neu);
  settle(old);
}

// the kept elements that went into the page (below ``top``) as they were, with no node of the
// page to keep: their children are built now
function settle(top) {
  while (lazy.length) {
    const waiting = lazy;
    lazy = [];
    for (const el of waiting) if (el.__build && top.contains(el)) { epoch += 1; fill(el); }
  }
}

// mark the new nodes with handlers or form state below them: a subtree without any, equal to
// the page's (the browser's own isEqualNode), is left as it is
function mark() {
  epoch += 1;
  for (const el of live) {
    for (let n = el; n && n.__live !== epoch; n = n.parentNode) { n.__live = epoch; n.__hasLive = true; }
  }
  live.length = 0;
}

function children(parent, kids) {
  // the usual redraw: the same children in the same order
  let pos = parent.firstChild;
  let i = 0;
  while (pos && i < kids.length && key(pos) === key(kids[i]) && same(pos, kids[i])) {
    const next = pos.nextSibling;
    node(pos, kids[i]);
    pos = next;
    i += 1;
  }
  if (i === kids.length && !pos) return;
  const keyed = new Map();
  const plain = [];
  for (let c = pos; c; c = c.nextSibling) {
    const k = key(c);
    if (k === null) plain.push(c);
    else if (!keyed.has(k)) keyed.set(k, c);
  }
  let u = 0;
  for (; i < kids.length; i++) {
    const n = kids[i];
    const k = key(n);
    let match = null;
    if (k !== null) {
      const c = keyed.get(k);
      if (c && same(c, n)) { match = c; keyed.delete(k); }
    } else if (u < plain.length) {
      const c = plain[u++];
      if (same(c, n)) match = c;
    }
    if (match) {
      if (match === pos) pos = pos.nextSibling;
      else parent.insertBefore(match, pos);
      node(match, n);
    } else {
      parent.insertBefore(n, pos);
    }
  }
  while (pos) {
    const next = pos.nextSibling;
    parent.removeChild(pos);
    pos = next;
  }
}

// bring the live node ``old`` to the new node ``neu`` (same type and tag): attributes, the
// state h() sets as properties (value, checked, selected), the handlers, then the children
function node(old, neu) {
  if (old.nodeType !== 1) {
    if (old.nodeValue !== neu.nodeValue) old.nodeValue = neu.nodeValue;
    return;
  }
  if (!neu.__hasLive && !old.__hasLive && old.isEqualNode(neu)) return;
  // a kept element: its children are the page's if they were built from the same key
  const keep = neu.__build && old.__key === neu.__key;
  if (neu.__build && !keep) { epoch += 1; fill(neu); }
  const oa = old.attributes;
  for (let i = oa.length - 1; i >= 0; i--) {
    const a = oa[i];
    if (!neu.hasAttributeNS(a.namespaceURI, a.localName)) old.removeAttributeNS(a.namespaceURI, a.localName);
  }
  // the attributes end in the new node's order, as a fresh build has them (an attribute added
  // later would else come last: the same page, told differently): those in order are kept (a
  // new value set in place), the others are set again after them
  const na = neu.attributes;
  let j = 0;
  for (const a of [...oa]) {
    const b = na[j];
    if (b && b.namespaceURI === a.namespaceURI && b.localName === a.localName) {
      if (a.value !== b.value) setAttr(old, b);
      j += 1;
    } else {
      old.removeAttributeNS(a.namespaceURI, a.localName);
    }
  }
  for (; j < na.length; j++) setAttr(old, na[j]);
  if (neu.__on || old.__on) {
    for (const name of Object.keys(neu.__on || {})) bind(old, name);
    old.__on = neu.__on || {};
  }
  old.__hasLive = !!neu.__hasLive;
  old.__key = neu.__key;
  if (keep) { neu.__build = null; return; }
  children(old, [...neu.childNodes]);
  const tag = old.nodeName;
  if (tag === "INPUT") {
    if (old.value !== neu.value) old.value = neu.value;
    if (old.checked !== neu.checked) old.checked = neu.checked;
  } else if (tag === "TEXTAREA" || tag === "SELECT") {
    if (old.value !== neu.value) old.value = neu.value;
  } else if (tag === "OPTION") {
    if (old.selected !== neu.selected) old.selected = neu.selected;
  }
}

function setAttr(el, a) {
  if (a.namespaceURI) el.setAttributeNS(a.namespaceURI, a.name, a.value);
  else el.setAttribute(a.name, a.value);
}

export function append(el, children) {
  const list = Array.isArray(children) ? children.flat(Infinity) : [children];
  for (const c of list) {
    if (c === null || c === undefined || c === false) continue;
    el.appendChild(c instanceof Node ? c : rich(String(c)));
  }
  return el;
}

export const PAINT_COLOURS = {
  R: "#d0312d", Y: "#f5c518", B: "#2a5db0", O: "#ef7d1a", G: "#2f9a46", P: "#7b3fa0",
  K: "#f29ac0", N: "#7a4a22",
};
export const PAINT_INK = { R: "#fff", Y: "#222", B: "#fff", O: "#222", G: "#fff", P: "#fff", K: "#222", N: "#fff" };
export const PAINT_ORDER = "RYBOGPKN";

/** One paint chip (HTML): the colour and its letter (colour-blind safe). */
export function chip(letter, count) {
  const el = h("span.paint", {
    class: `paint-${letter}`, title: t(`paint.${letter}`), "aria-label": t(`paint.${letter}`),
    role: "img",
  }, letter);
  if (count && count > 1) return h("span.paint-count", el, h("span.times", `×${count}`));
  return el;
}

export function chips(letters, { grouped = false } = {}) {
  const frag = document.createDocumentFragment();
  if (!letters) return frag;
  if (grouped) {
    const counts = countPaints(letters);
    for (const p of PAINT_ORDER) if (counts[p]) frag.appendChild(chip(p, counts[p]));
    return frag;
  }
  for (const c of letters) frag.appendChild(chip(c));
  return frag;
}

export function countPaints(letters) {
  const out = {};
  for (const c of letters || "") out[c] = (out[c] || 0) + 1;
  return out;
}

/** Text with paint marks (see i18n.paintMark) -> fragment with chips. */
export function rich(text) {
  const frag = document.createDocumentFragment();
  const re = new RegExp(`${PAINT_OPEN}([^${PAINT_CLOSE}]*)${PAINT_CLOSE}`, "g");
  let last = 0;
  let m;
  while ((m = re.exec(text))) {
    if (m.index > last) frag.appendChild(document.createTextNode(text.slice(last, m.index)));
    const group = h("span.paints", chips(m[1]));
    frag.appendChild(group);
    last = re.lastIndex;
  }
  if (last < text.length) frag.appendChild(document.createTextNode(text.slice(last)));
  return frag;
}

export const plain = (text) => String(text).replace(new RegExp(`[${PAINT_OPEN}${PAINT_CLOSE}]`, "g"), "");

// Player colours by figure index (Leonardo: grey).  Figures also carry an initial, in white:
// each colour is dark enough for it (WCAG AA, 4.5:1; the third was #ef6c00, 3.1:1).
export const FIGURE_COLOURS = ["#c2185b", "#00838f", "#b55000", "#5e35b1"];
export const LEONARDO_COLOUR = "#757575";

export function figureColour(view, index) {
  const f = view.figures[index];
  return f && f.leonardo ? LEONARDO_COLOUR : FIGURE_COLOURS[index % FIGURE_COLOURS.length];
}

/** Short labels for the figures: the initial, or initial + number when initials clash. */
export function initials(names) {
  const first = names.map((n) => (String(n).trim()[0] || "?").toUpperCase());
  return first.map((c, i) => (first.filter((x) => x === c).length > 1 ? `${c}${i + 1}` : c));
}

/** A fresco tile 'VP:PAINTS' or 'VP:PAINTS/SPLASHES' -> {vp, paints, splashes}. */
export function parseTile(text) {
  if (!text) return null;
  const [vp, rest] = text.split(":");
  const [paints, splashes] = rest.split("/");
  return {
    vp: Number(vp), paints,
    splashes: splashes === undefined ? [...paints].filter((c) => "OGP".includes(c)).join("") : splashes,
  };
}

export const SEG_COLS = "ABCDE";
export const SEG_ROWS = "12345";

export function columnLabel(view, i) {
  const cols = view.columns || [];
  const name = cols[i];
  const base = t(`col.${name}`);
  return cols.slice(0, i).includes(name) ? t("col.second_visit", { name: base }) : base;
}

/** The figure whose decision it is for this seat now, or null. */
export function actingFigure(view, seat) {
  if (view.pending_track) return view.pending_track.figure_index;
  if (view.actor_figure !== null && view.actor_figure !== undefined) return view.actor_figure;
  return seat;
}

export function hostelPrice(view, fig) {
  const f = view.figures[fig];
  if (!f || !f.getup) return null;
  const row = (view.hostel || []).find((r) => r.time === f.getup);
  return row ? row.price : null;
}

export function sortBuyTiles(tiles) {
  const key = (s) => [...s].map((c) => PAINT_ORDER.indexOf(c));
  return [...tiles].sort((a, b) => {
    if (a.length !== b.length) return b.length - a.length;
    const ka = key(a), kb = key(b);
    for (let i = 0; i < ka.length; i++) if (ka[i] !== kb[i]) return ka[i] - kb[i];
    return 0;
  });
}

export const testid = (notation) => `action-${notation.replace(/ /g, "_")}`;

export function copyText(text) {
  if (navigator.clipboard && window.isSecureContext) return navigator.clipboard.writeText(text);
  const ta = h("textarea", { style: "position:fixed;left:-1000px;top:0", "aria-hidden": "true" });
  ta.value = text;
  document.body.appendChild(ta);
  ta.select();
  try { document.execCommand("copy"); } finally { ta.remove(); }
  return Promise.resolve();
}

const ICONS = {
  sound: '<path d="M3 9v6h4l5 4V5L7 9H3z"/><path d="M16 8.5a5 5 0 0 1 0 7M18.5 6a8.5 8.5 0 0 1 0 12" fill="none" stroke="currentColor" stroke-width="2"/>',
  mute: '<path d="M3 9v6h4l5 4V5L7 9H3z"/><path d="M16 9l6 6M22 9l-6 6" fill="none" stroke="currentColor" stroke-width="2"/>',
  bell: '<path d="M12 3a6 6 0 0 0-6 6v4l-2 3h16l-2-3V9a6 6 0 0 0-6-6z"/><path d="M10 19a2 2 0 0 0 4 0z"/>',
};

/** A small inline icon (no font needed), hidden from screen readers: label its button. */
export function icon(name) {
  const span = document.createElement("span");
  span.className = "icon";
  span.setAttribute("aria-hidden", "true");
  span.innerHTML = `<svg viewBox="0 0 24 24" width="20" height="20" fill="currentColor">${ICONS[name] || ""}</svg>`;
  return span;
}
