// Module 9, the wall fresco (docs/modules/wall_fresco.md): the wall board (sections with their
// tiles, restored ones, those that can be restored next), each painter's wall tiles (the paint
// income on their backs) and exchange tiles.  A section that "wall <section>" names is clicked
// to restore it.
import { t } from "./i18n.js";
import { chip, chips, figureColour, h } from "./ui.js";
import { columnWord, parseWallTile } from "./words.js";
import { S, send } from "./store.js";
import { infoButton } from "./help.js";

const COLS = "ABCDEFGH";

export function wallPanel(st, ctx) {
  const v = st.view;
  const w = v.wall_fresco;
  if (!w) return null;
  const legal = (st.seat !== null && st.seat !== undefined && st.legal) || [];
  const restorable = new Set(w.restorable || []);
  const grid = [];
  for (let r = 0; r < w.rows; r++) {
    for (let c = 0; c < w.columns; c++) {
      const sec = `${COLS[c]}${r + 1}`;
      const cell = (w.board[r] || [])[c];
      const hot = legal.includes(`wall ${sec}`);
      const changed = ctx.changed && ctx.changed.has(`wall:${sec}`) ? "changed" : "";
      if (cell === null || cell === undefined) {
        grid.push(h("div.wall-cell.restored", {
          "data-testid": `wall-${sec}`, title: t("wall.restored", { section: sec }), class: changed,
          "data-last-move": changed ? "true" : null,
        }, h("span.wall-sec", sec)));
        continue;
      }
      const tile = parseWallTile(cell);
      grid.push(h("button.wall-cell", {
        type: "button", "data-testid": `wall-${sec}`, "data-section": sec, disabled: !hot || S.busy,
        class: [hot ? "hot" : "", restorable.has(sec) ? "next" : ""].join(" "),
        "aria-label": t("wall.section", { section: sec, paint: t(`paint.${tile.paint}`), income: t(`paint.${tile.income}`) }),
        onclick: () => hot && send(`wall ${sec}`),
      },
      h("span.wall-sec", sec),
      h("span.wall-cost", chip(tile.paint)),
      h("span.wall-income", { title: t("wall.income_title") }, "↻", chip(tile.income))));
    }
  }
  const rows = v.figures.map((f, i) => {
    if (f.leonardo) return null;
    const tiles = (w.tiles || [])[i] || [];
    const ex = (w.exchange_tiles || [])[i] || [];
    const col = (w.action_tile || [])[i];
    return h("li.bell-row", { "data-testid": `wall-figure-${i}` },
      h("span.disc.small", { style: `background:${figureColour(v, i)}`, "aria-hidden": "true" }, ctx.labels[i]),
      h("strong", ctx.figName(i)), " ",
      tiles.length ? h("span", t("wall.tiles", { n: tiles.length }), " ", h("span.paints", chips(tiles.map((x) => parseWallTile(x).income).join("")))) : h("span.muted", t("wall.no_tiles")),
      ex.length ? h("span", " · ", t("wall.exchange_tiles"), " ", h("span.paints", chips(ex.join("")))) : null,
      tiles.length || ex.length ? h("span", { "data-testid": `wall-income-${i}` }, " · ", t("wall.income"), " ",
        h("span.paints", chips(wallIncome(tiles, ex)))) : null,
      col ? h("span.muted", " · ", t("wall.tile_at", { col: columnWord(col) })) : null);
  });
  const supply = Object.entries(w.supply || {}).map(([p, n]) => [chip(p), `×${n} `]);
  return h("div.module.mod-panel", { "data-testid": "wall-panel" },
    h("h3", t("module.wall_fresco"), infoButton("module-wall_fresco", "module.wall_fresco")),
    h("div.wall-grid", { style: `grid-template-columns: repeat(${w.columns}, minmax(0, 1fr))` }, grid),
    h("p.small.muted", t("wall.legend", { vp: w.vp_per_section })),
    h("ul.bell-rows", rows),
    h("p.small", t("wall.supply"), " ", supply));
}

/** One line of a painter's card: wall tiles (their income) and exchange tiles. */
export function wallLine(v, i) {
  const w = v.wall_fresco;
  const tiles = w && (w.tiles || [])[i];
  const ex = w && (w.exchange_tiles || [])[i];
  if (!tiles || (!tiles.length && !(ex && ex.length))) return null;
  return h("div.small", { "data-testid": `wall-line-${i}` }, t("wall.tiles", { n: tiles.length }), " ",
    h("span.paints", chips(tiles.map((x) => parseWallTile(x).income).join(""))),
    ex && ex.length ? [" · ", t("wall.exchange_tiles"), " ", h("span.paints", chips(ex.join("")))] : null);
}

/** The paint a painter's wall and exchange tiles bring at round preparation: one cube of each
 *  basic paint on the backs (at most one per colour), one of each exchange tile's blend. */
export function wallIncome(tiles, exchange) {
  const basics = new Set(tiles.map((x) => parseWallTile(x).income));
  return [..."RYB"].filter((p) => basics.has(p)).join("") + exchange.join("");
}
