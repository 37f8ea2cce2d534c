// The board as one SVG picture: fresco and altar, market, hostel, studio, workshop, theater
// (mood display) and the VP track.  The board only draws; what is clickable comes from the
// caller as a set of click ids ("segment:C3", "booth:II", "tile:II:0", "hostel:7:00",
// "altar", "blend:O", "loc:studio", "loc:theater", "target:D4"), and clicks are reported back.
import { t } from "./i18n.js";
import {
  figureColour, kept, on, PAINT_COLOURS, PAINT_INK, parseTile, SEG_COLS, SEG_ROWS,
} from "./ui.js";
import { allBlends, signed } from "./words.js";

const W = 1180;
const FX = 50, FY = 62, CELL = 88;
const MX = 515, MW = 370;
const HX = 905, HW = 260;
const TRACK_CELL = 32, TRACK_PER_ROW = 34;

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({
  "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;",
}[c]));

function paintChip(x, y, p, size = 22) {
  const fill = PAINT_COLOURS[p] || "#999";
  const ink = PAINT_INK[p] || "#000";
  return `<g class="chip" transform="translate(${x},${y})"><title>${esc(t(`paint.${p}`))}</title>`
    + `<rect width="${size}" height="${size}" rx="${size * 0.22}" fill="${fill}" stroke="rgba(0,0,0,.55)" stroke-width="1"/>`
    + `<text x="${size / 2}" y="${size * 0.72}" text-anchor="middle" font-size="${size * 0.62}" font-weight="700" fill="${ink}">${p}</text></g>`;
}

function paintRow(cx, y, letters, size = 22, gap = 3) {
  const w = letters.length * size + (letters.length - 1) * gap;
  let x = cx - w / 2;
  let out = "";
  for (const p of letters) {
    out += paintChip(x, y, p, size);
    x += size + gap;
  }
  return out;
}

/** A figure: a disc in the player's colour with the initial (and a name tooltip). */
export function figureSvg(cx, cy, r, label, colour, title, extra = "") {
  const fs = label.length > 1 ? r * 0.95 : r * 1.2;
  return `<g class="figure" ${extra}><title>${esc(title)}</title>`
    + `<circle cx="${cx}" cy="${cy}" r="${r}" fill="${colour}" stroke="#1b1b1b" stroke-width="1.5"/>`
    + `<text x="${cx}" y="${cy + fs * 0.36}" text-anchor="middle" font-size="${fs}" font-weight="700" fill="#fff">${esc(label)}</text></g>`;
}

function bishopSvg(x, y) {
  // a mitre with a cross
  return `<g class="bishop" transform="translate(${x},${y})"><title>${esc(t("board.bishop"))}</title>`
    + `<path d="M0,28 L0,9 Q0,2 11,-4 Q22,2 22,9 L22,28 Z" fill="#5b2a86" stroke="#fff" stroke-width="1.5"/>`
    + `<path d="M11,4 V24 M5,11 H17" stroke="#f4d35e" stroke-width="2.6" stroke-linecap="round"/></g>`;
}

function clickAttrs(id, ctx, testid, label) {
  const hot = ctx.hot.has(id);
  const sel = ctx.selected.has(id);
  const changed = ctx.changed && ctx.changed.has(id);
  const cls = [hot ? "hot" : "", sel ? "sel" : "", changed ? "changed" : "", changed && ctx.flash ? "flash" : ""]
    .filter(Boolean).join(" ");
  return `data-click="${esc(id)}" data-testid="${esc(testid)}" class="area ${cls}"${changed ? ` data-last-move="true"` : ""}`
    + (hot ? ` role="button" tabindex="0" aria-label="${esc(label)}"` : ` aria-disabled="true"`)
    + (sel ? ` aria-pressed="true"` : "");
}

function title(x, y, text, anchor = "start") {
  return `<text class="title" x="${x}" y="${y}" text-anchor="${anchor}">${esc(text)}</text>`;
}

function fresco(view, ctx) {
  let out = title(FX - 30, 34, t("board.cathedral"));
  for (let c = 0; c < 5; c++) {
    out += `<text class="axis" x="${FX + c * CELL + CELL / 2}" y="${FY - 8}" text-anchor="middle">${SEG_COLS[c]}</text>`;
  }
  for (let r = 0; r < 5; r++) {
    out += `<text class="axis" x="${FX - 12}" y="${FY + r * CELL + CELL / 2 + 6}" text-anchor="middle">${SEG_ROWS[r]}</text>`;
  }
  const labels = ctx.labels;
  for (let r = 0; r < 5; r++) {
    for (let c = 0; c < 5; c++) {
      const seg = SEG_COLS[c] + SEG_ROWS[r];
      const x = FX + c * CELL, y = FY + r * CELL;
      const tile = parseTile(view.fresco[r][c]);
      const target = ctx.hot.has(`target:${seg}`);
      const id = target ? `target:${seg}` : `segment:${seg}`;
      const label = tile ? t("board.segment_label", { seg, vp: tile.vp, paints: tile.paints }) : t("board.segment_restored", { seg });
      out += `<g ${clickAttrs(id, ctx, `segment-${seg}`, label)} transform="translate(${x},${y})">`;
      if (tile) {
        out += `<rect class="tile" x="2" y="2" width="${CELL - 4}" height="${CELL - 4}" rx="6"/>`;
        out += `<text class="tile-vp" x="9" y="29">${tile.vp}</text>`;
        out += `<text class="seg-name" x="${CELL - 8}" y="18" text-anchor="end">${seg}</text>`;
        const n = tile.paints.length;
        const size = n > 3 ? 17 : 22;
        out += paintRow(CELL / 2, CELL - size - 8, tile.paints, size, n > 3 ? 2 : 3);
      } else {
        out += `<rect class="tile restored" x="2" y="2" width="${CELL - 4}" height="${CELL - 4}" rx="6"/>`;
        out += `<text class="seg-name restored-name" x="${CELL / 2}" y="${CELL / 2 + 6}" text-anchor="middle">${seg}</text>`;
      }
      if (target) out += `<rect class="target-ring" x="5" y="5" width="${CELL - 10}" height="${CELL - 10}" rx="5"/>`;
      out += `<rect class="hit" x="0" y="0" width="${CELL}" height="${CELL}"/>`;
      out += "</g>";
      if (view.bishop === seg) out += bishopSvg(x + CELL - 29, y + 25);
      if (view.leonardo_painter === seg) {
        const li = view.figures.findIndex((f) => f.leonardo);
        out += figureSvg(x + 22, y + 43, 13, labels[li] || "L", figureColour(view, li),
          t("board.leonardo_painter"));
      }
    }
  }
  // altar
  const ay = FY + 5 * CELL + 12;
  const altarLabel = t("board.altar");
  out += `<g ${clickAttrs("altar", ctx, "altar", altarLabel)} transform="translate(${FX},${ay})">`
    + `<rect class="altar" x="0" y="0" width="${5 * CELL}" height="84" rx="10"/>`
    + `<text class="subtitle" x="14" y="26">${esc(altarLabel)}</text>`
    + `${paintRow(130, 10, "RYB", 20, 2)}<text class="small" x="172" y="25">${esc(t("board.altar_basic"))}</text>`
    + `${paintRow(130, 48, "OGP", 20, 2)}<text class="small" x="172" y="63">${esc(t("board.altar_blend"))}</text>`
    + `<rect class="hit" x="0" y="0" width="${5 * CELL}" height="84"/></g>`;
  return out;
}

function market(view, ctx) {
  let out = title(MX, 34, t("board.market"));
  if (ctx.price !== null && ctx.price !== undefined) {
    out += `<text class="small" x="${MX + MW}" y="34" text-anchor="end">${esc(t("board.your_price", { n: ctx.price }))}</text>`;
  }
  const booths = Object.entries(view.booths || {});
  booths.forEach(([name, tiles], i) => {
    const y = 50 + i * 86;
    const label = t("board.booth_label", { booth: name, n: tiles.length });
    out += `<g ${clickAttrs(`booth:${name}`, ctx, `booth-${name}`, label)} transform="translate(${MX},${y})">`
      + `<rect class="booth" x="0" y="0" width="${MW}" height="78" rx="8"/>`
      + `<text class="booth-name" x="24" y="46" text-anchor="middle">${name}</text>`
      + `<rect class="hit" x="0" y="0" width="${MW}" height="78"/>`;
    if (!tiles.length) out += `<text class="small muted" x="60" y="45">${esc(t("board.booth_empty"))}</text>`;
    tiles.forEach((tile, j) => {
      const tx = 48 + j * 80, ty = 9;
      const id = `tile:${name}:${j}`;
      const tileLabel = t("board.market_tile", { paints: tile });
      out += `<g ${clickAttrs(id, ctx, `booth-${name}-tile-${j}`, tileLabel)} transform="translate(${tx},${ty})">`
        + `<rect class="mtile" x="0" y="0" width="74" height="60" rx="6"/>`;
      const size = tile.length > 3 ? 15 : 20;
      const rows = tile.length > 3 ? [tile.slice(0, 2), tile.slice(2)] : [tile];
      rows.forEach((row, k) => {
        out += paintRow(37, rows.length > 1 ? 10 + k * 22 : 20, row, size, 2);
      });
      if (ctx.selected.has(id)) out += `<path class="tick" d="M52,6 l6,6 l10,-12" />`;
      out += `<rect class="hit" x="0" y="0" width="74" height="60"/></g>`;
    });
    out += "</g>";
  });
  if (view.bag_size !== undefined) {
    const y = 50 + booths.length * 86;
    out += `<text class="small muted" x="${MX}" y="${y + 8}">${esc(t("board.bag", { n: view.bag_size }))}</text>`;
  }
  return out;
}

function hostel(view, ctx) {
  let out = title(HX, 34, t("board.hostel"));
  const y0 = 50;
  out += `<g class="hostel-head"><text class="small" x="${HX + 12}" y="${y0 + 16}">${esc(t("board.getup"))}</text>`
    + `<text class="small" x="${HX + 120}" y="${y0 + 16}" text-anchor="middle">${esc(t("board.mood"))}</text>`
    + `<text class="small" x="${HX + 176}" y="${y0 + 16}" text-anchor="middle">${esc(t("board.price"))}</text></g>`;
  (view.hostel || []).forEach((row, i) => {
    const y = y0 + 24 + i * 44;
    const label = t("board.hostel_row", { time: row.time, mood: signed(row.mood), price: row.price });
    out += `<g ${clickAttrs(`hostel:${row.time}`, ctx, `hostel-${row.time}`, label)} transform="translate(${HX},${y})">`
      + `<rect class="hostel-row" x="0" y="0" width="${HW}" height="40" rx="6"/>`
      + `<text class="time" x="12" y="27">${esc(row.time)}</text>`
      + `<text class="mood ${row.mood > 0 ? "up" : row.mood < 0 ? "down" : ""}" x="120" y="27" text-anchor="middle">${signed(row.mood)}</text>`
      + `<circle cx="176" cy="20" r="13" class="coin"/><text class="coin-text" x="176" y="25" text-anchor="middle">${row.price}</text>`
      + `<rect class="hit" x="0" y="0" width="${HW}" height="40"/></g>`;
    if (row.taken_by !== null && row.taken_by !== undefined) {
      const fi = view.figures.findIndex((f) => f.name === row.taken_by);
      out += figureSvg(HX + HW - 28, y + 20, 14, ctx.labels[fi] || "?", figureColour(view, Math.max(fi, 0)),
        fi >= 0 ? ctx.figName(fi) : row.taken_by);
    }
  });
  return out;
}

function studioWorkshop(view, ctx) {
  let y = 50 + 24 + (view.hostel || []).length * 44 + 14;
  let out = `<g ${clickAttrs("loc:studio", ctx, "location-studio", t("board.studio"))} transform="translate(${HX},${y})">`
    + `<rect class="place" x="0" y="0" width="${HW}" height="50" rx="8"/>`
    + `<text class="subtitle" x="12" y="22">${esc(t("board.studio"))}</text>`
    + `<text class="small" x="12" y="41">${esc(t("board.studio_hint"))}</text>`
    + `<rect class="hit" x="0" y="0" width="${HW}" height="50"/></g>`;
  y += 62;
  const blends = allBlends(view);
  const names = Object.keys(blends);
  const h = 30 + names.length * 40;
  out += `<g transform="translate(${HX},${y})"><rect class="place" x="0" y="0" width="${HW}" height="${h}" rx="8"/>`
    + `<text class="subtitle" x="12" y="22">${esc(t("board.workshop"))}</text></g>`;
  names.forEach((p, i) => {
    const [a, b] = blends[p];
    const ry = y + 30 + i * 40;
    out += `<g ${clickAttrs(`blend:${p}`, ctx, `blend-${p}`, t("board.blend_label", { a, b, p }))} transform="translate(${HX + 8},${ry})">`
      + `<rect class="blend-row" x="0" y="0" width="${HW - 16}" height="36" rx="5"/>`
      + paintChip(10, 7, a, 22) + `<text class="op" x="44" y="24">+</text>` + paintChip(56, 7, b, 22)
      + `<text class="op" x="90" y="24">=</text>` + paintChip(104, 7, p, 22)
      + `<text class="small muted" x="136" y="23">${esc(t(`paint.${p}`))}</text>`
      + `<rect class="hit" x="0" y="0" width="${HW - 16}" height="36"/></g>`;
  });
  return { svg: out, bottom: y + h };
}

function theater(view, ctx, top) {
  const players = view.figures.filter((f) => !f.leonardo);
  const spaces = view.mood_display || [];
  const y = top;
  const headH = 34, sp = 19;
  const h = headH + spaces.length * sp + 36;
  let out = `<g ${clickAttrs("loc:theater", ctx, "location-theater", t("board.theater"))} transform="translate(${MX},${y})">`
    + `<rect class="place" x="0" y="0" width="${MW}" height="${h}" rx="8"/>`
    + `<text class="subtitle" x="12" y="22">${esc(t("board.theater"))}</text>`
    + `<text class="small muted" x="${MW - 10}" y="22" text-anchor="end">${esc(t("board.mood_display"))}</text>`
    + `<rect class="hit" x="0" y="0" width="${MW}" height="${h}"/></g>`;
  const colW = Math.min(64, (MW - 70) / Math.max(players.length, 1));
  const x0 = MX + 56;
  // zone labels
  spaces.forEach((z, i) => {
    const yy = y + headH + i * sp;
    if (z !== 0 && (i === 0 || spaces[i - 1] !== z)) {
      const count = spaces.filter((v) => v === z).length;
      out += `<text class="zone-label ${z > 0 ? "up" : "down"}" x="${MX + 30}" y="${yy + (count * sp) / 2 + 5}" text-anchor="middle">${z > 0 ? "+1" : "−1"}</text>`;
    }
  });
  players.forEach((f, pi) => {
    const fi = view.figures.indexOf(f);
    const cx = x0 + pi * colW + colW / 2;
    spaces.forEach((z, i) => {
      const yy = y + headH + i * sp;
      out += `<rect class="mood-space ${z > 0 ? "up" : z < 0 ? "down" : ""}" x="${cx - colW / 2 + 4}" y="${yy}" width="${colW - 8}" height="${sp - 2}" rx="3"/>`;
    });
    if (f.mood !== undefined && f.mood !== null) {
      const yy = y + headH + f.mood * sp + sp / 2 - 1;
      if (ctx.changed && ctx.changed.has(`mood:${fi}`)) out += `<circle class="moved-ring${ctx.flash ? " flash" : ""}" cx="${cx}" cy="${yy}" r="15" data-last-move="true"/>`;
      out += figureSvg(cx, yy, 11, ctx.labels[fi], figureColour(view, fi),
        t("board.mood_of", { name: ctx.figName(fi), zone: signed(f.mood_zone || 0) }));
    }
    const by = y + headH + spaces.length * sp + 14;
    // the neutral apprentice (+1) and the apprentice set aside (-1)
    let marks = "";
    if (f.neutral_apprentice) marks += "+1";
    if (f.apprentice_set_aside) marks += (marks ? " " : "") + "−1";
    out += `<text class="small" x="${cx}" y="${by}" text-anchor="middle">${esc(ctx.labels[fi])}${marks ? ` (${marks})` : ""}</text>`;
  });
  return { svg: out, bottom: y + h };
}

function trackLayout(view, perRow) {
  let startSpaces = view.figures.length;
  for (const f of view.figures) {
    const m = /^S(\d+)$/.exec(String(f.track));
    if (m) startSpaces = Math.max(startSpaces, Number(m[1]));
  }
  const maxVp = Math.max(0, ...view.figures.map((f) => f.vp || 0));
  const pending = view.pending_track ? Math.max(view.pending_track.ahead || 0, view.pending_track.behind || 0) : 0;
  const need = startSpaces + Math.max(maxVp, pending) + 10;
  const rows = Math.max(3, Math.ceil(need / perRow));
  return { startSpaces, rows };
}

function track(view, ctx, TRACK_Y, perRow = TRACK_PER_ROW) {
  const { startSpaces, rows } = trackLayout(view, perRow);
  let out = title(FX - 30, TRACK_Y - 10, t("board.track"));
  const where = {};
  view.figures.forEach((f, i) => { where[String(f.track)] = i; });
  const pend = view.pending_track;
  const total = rows * perRow;
  for (let k = 0; k < total; k++) {
    const r = Math.floor(k / perRow), c = k % perRow;
    const x = FX + c * TRACK_CELL, y = TRACK_Y + r * 48;
    const label = k < startSpaces ? `S${k + 1}` : String(k - startSpaces + 1);
    const num = k < startSpaces ? null : k - startSpaces + 1;
    let cls = k < startSpaces ? "track-space start" : num % 10 === 0 ? "track-space ten" : "track-space";
    if (pend && num !== null && (num === pend.behind || num === pend.ahead)) cls += " choice";
    out += `<g data-testid="track-${label}"><rect class="${cls}" x="${x + 1}" y="${y}" width="${TRACK_CELL - 2}" height="44" rx="4"/>`
      + `<text class="track-num" x="${x + TRACK_CELL / 2}" y="${y + 12}" text-anchor="middle">${label}</text></g>`;
    const fi = where[label];
    if (fi !== undefined) {
      const moved = ctx.changed && ctx.changed.has(`track:${fi}`);
      if (moved) out += `<circle class="moved-ring${ctx.flash ? " flash" : ""}" cx="${x + TRACK_CELL / 2}" cy="${y + 28}" r="16" data-last-move="true"/>`;
      out += figureSvg(x + TRACK_CELL / 2, y + 28, 12, ctx.labels[fi], figureColour(view, fi),
        t("board.track_of", { name: ctx.figName(fi), vp: view.figures[fi].vp || 0 }));
    }
  }
  return { svg: out, bottom: TRACK_Y + rows * 48 };
}

/** The whole board as an SVG string and the box of each location (for showing one at a
 *  time on a phone).  ``trackPerRow``: spaces per row of the VP track. */
export function boardSvg(view, ctx, { region = null, trackPerRow = TRACK_PER_ROW } = {}) {
  // each location carries its explanation as a tooltip (hover); phones have the ⓘ button
  const tip = (key, svg) => {
    const text = ctx.help ? ctx.help(key) : "";
    return text ? `<g class="loc"><title>${esc(text)}</title>${svg}</g>` : svg;
  };
  let body = tip("cathedral", fresco(view, ctx)) + tip("market", market(view, ctx)) + tip("hostel", hostel(view, ctx));
  const sw = studioWorkshop(view, ctx);
  body += tip("workshop", sw.svg);
  const booths = Object.keys(view.booths || {}).length;
  const marketBottom = 50 + booths * 86 + 22;
  const th = theater(view, ctx, Math.max(marketBottom, 300));
  body += tip("theater", th.svg);
  const altarBottom = FY + 5 * CELL + 12 + 84;
  const trackY = Math.max(altarBottom, sw.bottom, th.bottom) + 40;
  const tr = track(view, ctx, trackY, trackPerRow);
  body += tip("track", tr.svg);
  const height = Math.max(tr.bottom, sw.bottom, th.bottom) + 16;
  const hostelBottom = 50 + 24 + (view.hostel || []).length * 44;
  const regions = {
    cathedral: [8, 8, 5 * CELL + 58, altarBottom + 4],
    market: [MX - 8, 8, MW + 16, marketBottom - 4],
    hostel: [HX - 8, 8, HW + 16, hostelBottom + 4],
    studio: [HX - 8, hostelBottom + 6, HW + 16, sw.bottom - hostelBottom + 2],
    theater: [MX - 8, Math.max(marketBottom, 300) - 8, MW + 16, th.bottom - Math.max(marketBottom, 300) + 16],
    track: [8, trackY - 34, Math.min(W, FX + trackPerRow * TRACK_CELL + 8) - 8, tr.bottom - trackY + 42],
  };
  const box = region && regions[region] ? regions[region] : [0, 0, W, height];
  // one location: the picture keeps the location's own proportions (no neighbours at the sides),
  // as high as 62% of the screen, but never narrower than a phone held upright shows it (a
  // phone on its side, 390 px high, would shrink its places below a finger's 44 px)
  const fit = region ? ` style="max-width: max(calc(62vh * ${(box[2] / box[3]).toFixed(3)}), min(100%, 372px)); aspect-ratio: ${box[2]} / ${box[3]}"` : "";
  const svg = `<svg class="board${region ? " region" : ""}"${fit} viewBox="${box.join(" ")}" xmlns="http://www.w3.org/2000/svg" role="group" aria-label="${esc(t("board.aria"))}">${body}</svg>`;
  return { svg, regions };
}

/** The board element with keyboard and mouse clicks wired to ``onClick(id)``. */
export function renderBoard(view, ctx, onClick, options = {}) {
  const wrap = document.createElement("div");
  wrap.className = "board-wrap";
  // the picture is parsed only when its text changed since the page's (most pushes and taps
  // change another part of the page)
  const svg = boardSvg(view, ctx, options).svg;
  kept(wrap, svg, () => {
    const box = document.createElement("div");
    box.innerHTML = svg;
    return [...box.childNodes];
  });
  const fire = (ev) => {
    // the innermost clickable area that is live (a booth's tile passes its click to the booth)
    const first = ev.target.closest("[data-click]");
    let el = first;
    while (el && !ctx.hot.has(el.getAttribute("data-click"))) {
      el = el.parentElement ? el.parentElement.closest("[data-click]") : null;
    }
    if (!el) {
      // a place that cannot be chosen now: the caller may say why
      if (first && ctx.onMiss) ctx.onMiss(first.getAttribute("data-click"));
      return;
    }
    ev.preventDefault();
    onClick(el.getAttribute("data-click"));
  };
  on(wrap, "click", fire);
  on(wrap, "keydown", (ev) => {
    if (ev.key === "Enter" || ev.key === " ") fire(ev);
  });
  return wrap;
}

