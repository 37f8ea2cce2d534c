// What happens between two states: the other players' moves highlighted on the board (and a
// last-move marker), the previews of this seat's scoring choices, and the "your turn" signal
// (tab title, an optional sound, a browser notification when permitted).
import * as API from "./api.js";
import { t } from "./i18n.js";
import { SEG_COLS, SEG_ROWS } from "./ui.js";
import { eventAreas } from "./events.js";
import { S, logOf, render } from "./store.js";

const SOUND_KEY = "affresco.sound";
const FLASH_MS = 2500;

export function soundOn() {
  try { return localStorage.getItem(SOUND_KEY) === "on"; } catch (e) { return false; }
}

export function toggleSound() {
  const on = !soundOn();
  try { localStorage.setItem(SOUND_KEY, on ? "on" : "off"); } catch (e) { /* storage blocked */ }
  if (on) beep();
  render();
}

export const notifyState = () => (typeof Notification === "undefined" ? "unsupported" : Notification.permission);

export async function askNotify() {
  if (typeof Notification === "undefined") return;
  try { await Notification.requestPermission(); } catch (e) { /* refused */ }
  render();
}

let audio = null;
function beep() {
  try {
    audio = audio || new (window.AudioContext || window.webkitAudioContext)();
    const o = audio.createOscillator();
    const g = audio.createGain();
    o.type = "sine";
    o.frequency.value = 660;
    g.gain.setValueAtTime(0.0001, audio.currentTime);
    g.gain.exponentialRampToValueAtTime(0.2, audio.currentTime + 0.02);
    g.gain.exponentialRampToValueAtTime(0.0001, audio.currentTime + 0.35);
    o.connect(g).connect(audio.destination);
    o.start();
    o.stop(audio.currentTime + 0.4);
  } catch (e) { /* no audio */ }
}

const mine = (st) => !!(st && st.seat !== null && st.seat !== undefined && st.legal && st.legal.length);

/** The board areas (click ids) and tabs whose contents differ between two views. */
export function changes(a, b) {
  const ids = new Set();
  const tabs = new Set();
  if (!a || !b) return { ids, tabs };
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      if ((a.fresco[r] || [])[c] !== (b.fresco[r] || [])[c]) { ids.add(`segment:${SEG_COLS[c]}${SEG_ROWS[r]}`); tabs.add("cathedral"); }
    }
  }
  if (a.bishop !== b.bishop || a.leonardo_painter !== b.leonardo_painter) tabs.add("cathedral");
  for (const [name, tiles] of Object.entries(b.booths || {})) {
    if (JSON.stringify((a.booths || {})[name]) !== JSON.stringify(tiles)) { ids.add(`booth:${name}`); tabs.add("market"); }
  }
  (b.hostel || []).forEach((row, i) => {
    const old = (a.hostel || [])[i];
    if (old && old.taken_by !== row.taken_by && row.taken_by !== null && row.taken_by !== undefined) {
      ids.add(`hostel:${row.time}`);
      tabs.add("hostel");
    }
  });
  // the boards of modules 8-10: their tab says that something changed there
  const same = (x, y) => JSON.stringify(x) === JSON.stringify(y);
  if (b.bells && a.bells && !same([a.bells.display, a.bells.figures], [b.bells.display, b.bells.figures])) tabs.add("bells");
  if (b.wall_fresco && a.wall_fresco && !same([a.wall_fresco.board, a.wall_fresco.tiles], [b.wall_fresco.board, b.wall_fresco.tiles])) {
    tabs.add("wall");
    b.wall_fresco.board.forEach((row, r) => row.forEach((cell, c) => {
      if (cell !== (a.wall_fresco.board[r] || [])[c]) ids.add(`wall:${"ABCDEFGH"[c]}${r + 1}`);
    }));
  }
  if (b.medico && a.medico && !same([a.medico.display, a.medico.ill, a.medico.infected], [b.medico.display, b.medico.ill, b.medico.infected])) tabs.add("medico");
  b.figures.forEach((f, i) => {
    const o = a.figures[i] || {};
    if (o.track !== f.track || o.vp !== f.vp) { ids.add(`track:${i}`); tabs.add("track"); }
    if (o.mood !== f.mood) { ids.add(`mood:${i}`); tabs.add("theater"); }
  });
  return { ids, tabs };
}

/** Called by the store with each new state (a new version). */
export function newState(old, st) {
  const sameGame = old && old.game_id === st.game_id;
  // highlights: what another figure's move changed (my own moves need none)
  if (sameGame && old.view && st.view) {
    const { ids, tabs } = changes(old.view, st.view);
    // a state right after this seat's own move shows that move: nothing to point out
    const own = mine(old) && st.version === old.version + 1;
    // the last move in words: the events it added
    if (!own && old.logCount !== undefined && st.logCount > old.logCount) {
      const fresh = logOf(st).filter((l) => l.i >= old.logCount);
      S.lastMove = fresh;
      for (const l of fresh) eventAreas(l.event).forEach((a) => ids.add(a));
    }
    if ((ids.size || tabs.size) && !own) {
      S.changed = ids;
      S.changedTabs = tabs;
      S.changedAt = Date.now();
      setTimeout(() => { if (S.changedAt && Date.now() - S.changedAt >= FLASH_MS) render(); }, FLASH_MS + 50);
    } else if (ids.size || tabs.size) {
      S.changed = new Set();
      S.changedTabs = new Set();
    }
  }
  // previews of scoring choices
  S.preview = null;
  if (mine(st) && S.route.page === "play" && st.legal.some((a) => /^(restore|altar|scroll|request|portrait)\b/.test(a))) {
    const { version } = st;
    API.getPreview(S.route.token).then((p) => {
      if (S.state && S.state.version === version && p.version === version) {
        S.preview = p.previews;
        render();
      }
    }).catch(() => { /* the choices still work without */ });
  }
  // your turn: signal when it becomes this seat's turn
  if (mine(st) && !(sameGame && mine(old))) signalTurn(st);
}

export const flashing = () => !!(S.changedAt && Date.now() - S.changedAt < FLASH_MS);

function signalTurn(st) {
  if (soundOn()) beep();
  if (document.hidden && notifyState() === "granted") {
    try {
      const n = new Notification(t("notify.title"), { body: t("notify.body", { id: st.game_id }), tag: `affresco-${st.game_id}` });
      n.onclick = () => { window.focus(); n.close(); };
    } catch (e) { /* not allowed here */ }
  }
}
