// Actions in plain words: notation (docs/notation.md) -> a sentence from the catalog.
import { paintMark, t, tileWords, tOr } from "./i18n.js";
import { hostelPrice, parseTile, SEG_COLS, SEG_ROWS } from "./ui.js";

function segIndex(seg) {
  return [SEG_ROWS.indexOf(seg[1]), SEG_COLS.indexOf(seg[0])];
}

export function frescoTile(view, seg) {
  const [r, c] = segIndex(seg);
  return view.fresco && view.fresco[r] ? parseTile(view.fresco[r][c]) : null;
}

function portraitCard(view, id) {
  const cards = (view.portraits && view.portraits.display) || [];
  return cards.find((c) => c.id === id);
}

export function cardTitle(card) {
  if (!card) return "";
  const base = card.id.replace(/-[a-z]$/, "");
  return tOr(`card.${base}`, card.name);
}

/** What a portrait card does, in words. */
export function cardEffects(card) {
  const parts = [];
  for (const key of ["income", "theater", "bishop_bonus", "sexton", "thalers", "vp", "paint", "basic_paints",
    "vp_or_thalers", "mood", "mood_top"]) {
    if (!(key in card)) continue;
    const v = card[key];
    parts.push(t(`eff.${key}`, { n: v, paint: key === "paint" ? paintMark(v) : v }));
  }
  return parts.join("; ");
}

/**
 * The plain-words description of an action for this view.  ``fig`` is the figure acting
 * (Leonardo's actions are worded the same; the caller says "for Leonardo").
 */
export function describe(notation, view, fig) {
  const words = notation.trim().split(/\s+/);
  const kind = words[0];
  const args = words.slice(1);
  switch (kind) {
    case "pass":
      return t("act.pass");
    case "getup": {
      const row = (view.hostel || []).find((r) => r.time === args[0]);
      const f = view.figures[fig] || {};
      if (f.leonardo) return t("act.getup_leo", { time: args[0] });
      if (!row) return t("act.getup", { time: args[0] });
      const zone = moodZoneAfter(view, fig, row.mood);
      const effect = zone > 0 ? t("act.getup_zone_up") : zone < 0 ? t("act.getup_zone_down") : "";
      return t("act.getup_full", { time: row.time, mood: signed(row.mood), price: row.price }) + effect;
    }
    case "plan":
      return t("act.plan", { plan: planText(view, notation) });
    case "buy": {
      const price = hostelPrice(view, fig);
      const tiles = args.slice(1).map(paintMark).join(" ");
      const n = args.length - 1;
      if (price === null) return t("act.buy", { booth: args[0], tiles, n });
      return t("act.buy_cost", { booth: args[0], tiles, n, cost: price * n });
    }
    case "close":
      return (view.figures[fig] || {}).leonardo ? t("act.close_leo", { booth: args[0] }) : t("act.close", { booth: args[0] });
    case "restore": {
      const ill = args[args.length - 1] === "ill";
      if (ill) args.pop();
      const seg = args[0];
      const tile = frescoTile(view, seg);
      const extra = {};
      for (let i = 1; i + 1 < args.length; i += 2) extra[args[i]] = args[i + 1];
      let text = tile
        ? t("act.restore", { seg, vp: tile.vp, paints: paintMark(tile.paints) })
        : t("act.restore_short", { seg });
      if (extra.bishop) text += t("act.with_bishop", { to: extra.bishop });
      if (extra.sexton) text += t("act.with_sexton", { to: extra.sexton });
      if (extra.using) text += t("act.with_using", { paints: paintMark(extra.using) });
      if (ill) text += t("act.by_ill");
      return text;
    }
    case "altar":
      return t("act.altar", { paints: paintMark(args[0] || "") }) + (args[1] === "ill" ? t("act.by_ill_altar") : "");
    case "studio":
      return view.visit_left ? t("act.studio_n", { n: 3 * view.visit_left }) : t("act.studio");
    case "blend": {
      const recipe = blendRecipe(view, args[0]);
      return recipe ? t("act.blend", { paint: paintMark(args[0]), a: paintMark(recipe[0]), b: paintMark(recipe[1]) })
        : t("act.blend_short", { paint: paintMark(args[0]) });
    }
    case "theater":
      return t("act.theater");
    case "track": {
      const p = view.pending_track;
      const space = p ? (args[0] === "behind" ? p.behind : p.ahead) : null;
      const key = args[0] === "behind" ? "act.track_behind" : "act.track_ahead";
      return t(key, { space: space ?? "?" });
    }
    case "portrait": {
      const card = portraitCard(view, args[0]);
      const name = card ? cardTitle(card) : args[0];
      const choice = args[1];
      if (!choice) return t("act.portrait", { card: name });
      if (choice === "vp") return t("act.portrait_vp", { card: name, n: card ? card.vp_or_thalers : "" });
      if (choice === "thalers") return t("act.portrait_thalers", { card: name, n: card ? card.vp_or_thalers : "" });
      return t("act.portrait_paints", { card: name, paints: paintMark(choice) });
    }
    case "request": {
      const type = tOr(`request.${args[0]}`, args[0]);
      const stacks = view.requests && view.requests.stacks && view.requests.stacks[args[0]];
      const vp = stacks && stacks.length ? stacks[stacks.length - 1] : null;
      const tiles = args.slice(1).map(tileWords).join(", ");
      return vp === null ? t("act.request", { type, tiles }) : t("act.request_vp", { type, tiles, vp });
    }
    case "income":
      return t("act.income", { paint: paintMark(args[0]) });
    case "scroll":
      return t(`act.scroll_${args[0]}`);
    default:
      return moduleAction(kind, args, view, fig) ?? notation;
  }
}

/** A certificate 'price:vp:bells' -> {price, vp, bells}. */
export function parseCert(text) {
  const [price, vp, bells] = String(text).split(":").map(Number);
  return { certificate: text, price, vp, bells };
}

/** A certificate in words: "5 bells (price 5, 5 VP)". */
export function certWords(c) {
  return t("bells.cert", { bells: c.bells, price: c.price, vp: c.vp });
}

/** A wall tile 'W:P/R[/G]' -> {paint (front: what it costs), income (back), splash}. */
export function parseWallTile(text) {
  const [paint, income, splash] = String(text).replace(/^W:/, "").split("/");
  return { paint, income, splash: splash || paint };
}

export const bottleWords = (b) => t(`bottle.${b}`);

/** A plan notation with the modules' words (docs/notation.md) as words. */
export function planText(view, notation) {
  const words = notation.trim().split(/\s+/).slice(1);
  const cols = view.columns || [];
  const counts = (words[0] || "").split("-").map(Number);
  const parts = [counts.map((n, i) => `${t(`col.${cols[i]}`)} ${n}`).join(", ")];
  for (let i = 1; i < words.length; i++) {
    const w = words[i];
    if (w === "audience" || w === "wall") {
      parts.push(t(`plan.tile_${w}`, { col: columnWord(words[i + 1]) }));
      i += 1;
    } else if (w === "ill") {
      const ill = words[i + 1].split("-").map(Number);
      parts.push(t("plan.ill_words", { cols: ill.map((n, k) => (n ? `${t(`col.${cols[k]}`)} ${n}` : null)).filter(Boolean).join(", ") }));
      i += 1;
    } else if (w === "medico") {
      parts.push(t("plan.tile_medico"));
    }
  }
  return parts.join("; ");
}

/** The new modules' actions (bells, wall fresco, medico) in words. */
function moduleAction(kind, args, view, fig) {
  const bells = view.bells || {};
  const med = view.medico || {};
  switch (kind) {
    case "audience": {
      const c = parseCert(args[0]);
      if (args[1] === "full") return t("act.audience_full", { cert: certWords(c), price: c.price, vp: c.vp });
      const k = Number(args[2]);
      return t("act.audience_pay", { cert: certWords(c), k, vp: Math.floor(k / (bells.thalers_per_vp || 2)), left: c.price - k });
    }
    case "deposit": {
      if (args[0] === "none") return t("act.deposit_none");
      const c = parseCert(args[0]);
      const mine = (((bells.figures || [])[fig] || {}).partly_paid || []).find((x) => x.certificate === args[0]);
      const k = Number(args[1]);
      const left = mine ? c.price - mine.paid - k : null;
      return left === null ? t("act.deposit", { cert: certWords(c), k }) : t("act.deposit_left", { cert: certWords(c), k, left });
    }
    case "wall": {
      const w = view.wall_fresco;
      const cell = w && wallCell(w, args[0]);
      return cell ? t("act.wall", { section: args[0], paint: paintMark(parseWallTile(cell).paint), vp: w.vp_per_section })
        : t("act.wall_short", { section: args[0] });
    }
    case "exchange": {
      const [a, b] = args.map(parseWallTile);
      return t("act.exchange", { a: paintMark(a.income), b: paintMark(b.income), blend: paintMark(blendOf(a.income, b.income) || "?") });
    }
    case "illness":
      return t(`act.illness_${args[0]}`);
    case "medicine": {
      const place = (med.display || [])[Number(args[0]) - 1];
      return place ? t("act.medicine", { bottle: bottleWords(place.bottle), price: place.price, place: args[0] })
        : t("act.medicine_short", { place: args[0] });
    }
    case "heal":
      if (args[0] === "none") return t("act.heal_none");
      return t("act.heal", { bottles: args.map(bottleWords).join(", ") });
    case "aside":
      return t(`act.aside_${args[0]}`);
    case "saints":
      return t("act.saints", { paint: paintMark(args[0]) });
    default:
      return null;
  }
}

/** The wall tile on section 'A3' (null once restored). */
export function wallCell(w, section) {
  const c = "ABCDEFGH".indexOf(section[0]);
  const r = Number(section.slice(1)) - 1;
  return (w.board[r] || [])[c] ?? null;
}

/** The blend of two basic paints (R+Y orange, R+B purple, Y+B green). */
export function blendOf(a, b) {
  for (const [out, [x, y]] of Object.entries(BASE_BLENDS)) if ((a === x && b === y) || (a === y && b === x)) return out;
  return null;
}

export function signed(n) {
  return n > 0 ? `+${n}` : n < 0 ? `−${-n}` : "0";
}

export const BASE_BLENDS = { O: ["Y", "R"], G: ["Y", "B"], P: ["R", "B"] };

export function blendRecipe(view, out) {
  if (BASE_BLENDS[out]) return BASE_BLENDS[out];
  const extra = view.special_colours && view.special_colours.blends;
  if (extra && extra[out]) return extra[out].split("+");
  return null;
}

export function allBlends(view) {
  const out = { ...BASE_BLENDS };
  const extra = view.special_colours && view.special_colours.blends;
  if (extra) for (const [k, v] of Object.entries(extra)) out[k] = v.split("+");
  return out;
}

/** The mood zone (+1, 0, -1) a figure's marker ends in after moving ``steps`` (R3: excess
 *  movement is lost).  The zone takes effect right after the get-up choice. */
export function moodZoneAfter(view, fig, steps) {
  const f = view.figures[fig];
  const spaces = view.mood_display || [];
  if (!f || f.mood === undefined || f.mood === null || !spaces.length) return 0;
  const i = Math.max(0, Math.min(spaces.length - 1, f.mood - steps));
  return spaces[i];
}

/** " → 6 VP (tile 4, bishop bonus 2)": what a scoring choice brings, from the server's preview. */
export function previewText(p) {
  if (!p) return "";
  const parts = Object.entries(p.sources || {}).filter(([, vp]) => vp).map(([k, vp]) => `${t(`source.${k}`)} ${vp}`);
  const total = t("preview.vp", { n: p.vp });
  return parts.length > 1 ? ` → ${total} (${parts.join(", ")})` : ` → ${total}`;
}

/** Where this figure's module tiles lie in its plan (its own, or everyone's once revealed). */
export function planTiles(v, i) {
  const out = [];
  const aud = v.bells && (v.bells.audience || [])[i];
  if (aud) out.push(t("plan.tile_audience", { col: columnWord(aud) }));
  const wall = v.wall_fresco && (v.wall_fresco.action_tile || [])[i];
  if (wall) out.push(t("plan.tile_wall", { col: columnWord(wall) }));
  const med = v.medico && (v.medico.plans || [])[i];
  if (med && med.ill && med.ill.some((n) => n)) {
    out.push(t("plan.ill_words", { cols: med.ill.map((n, k) => (n ? `${t(`col.${v.columns[k]}`)} ${n}` : null)).filter(Boolean).join(", ") }));
  }
  if (med && med.medico) out.push(t("plan.tile_medico"));
  return out;
}

/** A column as the plan notation names it ("cathedral2": the final round's second visit) in words. */
export function columnWord(word) {
  const m = /^(.*\D)2$/.exec(word);
  return m ? t("col.second_visit", { name: t(`col.${m[1]}`) }) : t(`col.${word}`);
}
