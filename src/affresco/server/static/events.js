// The engine's structured events (docs/events.md) as sentences in the interface language, by
// the same rules as affresco.i18n.render_event: the key event.<kind> (or event.<kind>.<variant>
// for the kinds in VARIANTS), the event's fields as placeholders plus "who", lists joined with
// spaces (cards with commas), "sources" through vp_source.<name>, cards through card.<id without deck letter>,
// a favour's effect through favour.<effect>.
// Paints and tiles become chips (paint marks) here; nothing parses text.
import { has, paintMark, t, tileWords } from "./i18n.js";
import { columnLabel } from "./ui.js";
import { columnWord } from "./words.js";

export const VARIANTS = { score: "for", track: "choice", round_begins: "final", bishop_move: "sexton",
  wall_tile: "column", medico_infection: "tile", medico_plan: "medico", medico_ill: "neutral",
  medico_ill_apprentice: "action", medico_buy: "bottle" };

// kinds told another way when a list is empty (as affresco.i18n.EMPTY_VARIANTS)
export const EMPTY_VARIANTS = { bells_placed: "face_down" };

export function eventKey(e) {
  if (EMPTY_VARIANTS[e.kind] && !(e[EMPTY_VARIANTS[e.kind]] || []).length) return `event.${e.kind}.none`;
  const field = VARIANTS[e.kind];
  return field ? `event.${e.kind}.${String(e[field]).toLowerCase()}` : `event.${e.kind}`;
}

const cardName = (id) => t(`card.${String(id).split("-")[0]}`);
// fields holding an engine word the catalogue names (as affresco.i18n.WORD_FIELDS); "column"
// through col.<name> (words.js columnWord)
const WORD_FIELDS = { request: (v) => `request.${v}`, scroll: (v) => `scroll.${v}` };
const PAINT_FIELDS = new Set(["paints", "paint", "value"]);

/** One event as a sentence (with paint marks); ``names``: the figures' names (Leonardo too). */
export function renderEvent(e, names, view = null) {
  const params = {};
  for (const [k, v] of Object.entries(e)) {
    if (WORD_FIELDS[k] && typeof v === "string" && has(WORD_FIELDS[k](v))) {
      params[k] = t(WORD_FIELDS[k](v));
    } else if (k === "column" && typeof v === "string" && has(`col.${v.replace(/2$/, "")}`)) {
      params[k] = columnWord(v);
    } else if (k === "plan" && typeof v === "string" && view && view.columns) {
      // "2-1-2-1-0" -> "Market 2, Cathedral 1, ..." (the columns of this action sheet)
      params[k] = v.split("-").map((n, i) => `${columnLabel(view, i)} ${n}`).join(", ");
    } else if (k === "sources" && v && typeof v === "object") {
      params[k] = Object.entries(v).map(([s, n]) => t(`vp_source.${s}`, { n })).join(" + ");
    } else if (k === "card" && typeof v === "string") {
      params[k] = cardName(v);
    } else if (k === "effect" && typeof v === "string" && has(`favour.${v}`)) {
      params[k] = t(`favour.${v}`);
    } else if (Array.isArray(v)) {
      // card names are words ("Pretty girl", "God's servant"): a comma between them
      params[k] = k === "cards" ? v.map(cardName).join(", ")
        : v.map((x) => (k === "tiles" ? tileWords(String(x)) : String(x))).join(" ");
    } else if (k === "tile" && typeof v === "string") {
      params[k] = tileWords(v);
    } else if (PAINT_FIELDS.has(k) && typeof v === "string" && /^[RYBOGPKN]+$/.test(v)) {
      params[k] = paintMark(v);
    } else {
      params[k] = v;
    }
  }
  if (Number.isInteger(e.figure) && e.figure >= 0 && e.figure < names.length) params.who = names[e.figure];
  const key = eventKey(e);
  if (!has(key)) return `${e.kind} ${JSON.stringify(Object.fromEntries(Object.entries(e).filter(([k]) => k !== "kind")))}`;
  return t(key, params);
}

/** The board areas an event touched (click ids of board.js), for the last-move marker. */
export function eventAreas(e) {
  const out = [];
  if (e.kind === "getup") out.push(`hostel:${e.time}`);
  if ((e.kind === "buy" || e.kind === "close") && e.booth) out.push(`booth:${e.booth}`);
  if (e.kind === "score" && e.segment) out.push(`segment:${e.segment}`);
  if (e.kind === "score" && e.for === "altar") out.push("altar");
  if (e.kind === "bishop_move" && e.segment) out.push(`segment:${e.segment}`);
  if (e.kind === "blend" && e.paint) out.push(`blend:${e.paint}`);
  if (e.kind === "studio") out.push("loc:studio");
  if (e.kind === "theater") out.push("loc:theater");
  if (Number.isInteger(e.figure) && (e.kind === "score" || e.kind === "track")) out.push(`track:${e.figure}`);
  if (Number.isInteger(e.figure) && (e.kind === "getup" || e.kind === "theater")) out.push(`mood:${e.figure}`);
  return out;
}
