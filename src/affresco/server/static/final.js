// The end of the game: the winner, the ranking (the order on the VP track decides, R8), each
// figure's points by source as a table and a chart (from the engine's view["vp_sources"],
// never recomputed here), the game's length and the replay link.
import { t, tOr } from "./i18n.js";
import { figureColour, h } from "./ui.js";

// a stable order and a colour of its own per source: the closed set the engine scores
// (docs/events.md: the final scoring's Thalers are "money", the medico's credit "medico",
// "position" the points of a position loaded without its events); others follow
export const SOURCE_ORDER = ["tile", "bishop", "special_colours", "favour", "scroll", "altar", "portrait", "request",
  "wall", "bells", "bells_rank", "bells_track", "track", "medico", "money", "thalers", "position"];
const SOURCE_COLOURS = ["#8d6e63", "#5b2a86", "#ec407a", "#f9a825", "#00897b", "#7986cb", "#ef6c00", "#2e7d32",
  "#a1887f", "#546e7a", "#90a4ae", "#26c6da", "#bdbdbd", "#c62828", "#e0c14a", "#fff176", "#6d4c41"];

export function sourcesOf(v) {
  const list = v.vp_sources || [];
  const names = new Set();
  list.forEach((d) => Object.entries(d || {}).forEach(([k, vp]) => { if (vp) names.add(k); }));
  const known = SOURCE_ORDER.filter((s) => names.has(s));
  return [...known, ...[...names].filter((s) => !SOURCE_ORDER.includes(s)).sort()];
}

const colourOf = (source) => {
  const i = SOURCE_ORDER.indexOf(source);
  return i >= 0 ? SOURCE_COLOURS[i] : "#9e9e9e";
};

/** The end screen; ``final`` false shows the standings of a replay step instead. */
export function finalPanel(st, ctx, { final = true } = {}) {
  const v = st.view;
  const scores = final && st.scores ? st.scores : v.figures.map((f) => f.vp || 0);
  const ranking = final && st.ranking ? st.ranking
    : v.figures.map((_, i) => i).sort((a, b) => (scores[b] - scores[a]) || (trackPos(v, b) - trackPos(v, a)));
  const sources = sourcesOf(v);
  const bySource = v.vp_sources || [];
  const winner = ranking[0];
  const tie = ranking.length > 1 && scores[ranking[0]] === scores[ranking[1]];
  const cell = (fi, s) => h("td.num", { "data-figure": fi, "data-source": s }, String((bySource[fi] || {})[s] || 0));
  // a column per painter, a row per source: it fits the side column of a desktop (320-410 px)
  // as a phone, whatever the number of sources (all eight modules score in up to 14 ways)
  const table = h("table.scores.by-source", { style: `--cols:${ranking.length}` },
    h("caption.sr-only", t("final.table_caption")),
    h("thead", h("tr", h("th", { scope: "col" }, t("final.source")),
      ranking.map((fi, place) => h("th.num", { scope: "col", class: place === 0 ? "winner" : "", "data-testid": `final-col-${fi}` },
        `${place + 1}. `, h("span.disc.small", { style: `background:${figureColour(v, fi)}`, "aria-hidden": "true" }, ctx.labels[fi]),
        h("span.fig-name", ctx.figName(fi)))))),
    h("tbody",
      // a line may break after a slash ("track (behind/ahead)"): the column is as narrow as a word
      sources.map((s) => h("tr", h("th", { scope: "row" }, tOr(`source.${s}`, s).replace(/\//g, "/\u200b")),
        ranking.map((fi) => cell(fi, s)))),
      h("tr.total-row", h("th", { scope: "row" }, t("final.vp")),
        ranking.map((fi) => h("td.num.total", { "data-testid": `final-vp-${fi}` }, String(scores[fi]))))));
  const title = final
    ? h("h2.winner-line", { "data-testid": "winner" }, t("final.wins", { name: ctx.figName(winner) }))
    : h("h2", t("final.standings"));
  return h("section.card.final", { "data-testid": final ? "final-scores" : "standings" },
    title,
    final && tie ? h("p.small.muted", t("final.tie_break", { name: ctx.figName(winner) })) : null,
    final ? h("p.small.muted", { "data-testid": "game-length" }, t("final.length", { rounds: v.round, moves: st.version ?? 0 })) : null,
    h("div.table-scroll", { tabindex: "0", role: "region", "aria-label": t("final.table_caption") }, table),
    sources.length ? chart(v, ranking, sources, bySource, scores, ctx) : null,
    final ? h("p.final-links",
      st.game_id ? h("a.button", { href: `#/replay/${encodeURIComponent(st.game_id)}`, "data-testid": "replay-link" }, t("game.replay")) : null,
      // the way on for whoever just finished (a newcomer's first game): the new-game form
      h("a.button", { href: "#/", "data-testid": "new-game-link" }, t("home.create"))) : null);
}

function trackPos(v, i) {
  const f = v.figures[i];
  const m = /^S(\d+)$/.exec(String(f.track));
  return m ? -100 + Number(m[1]) : Number(f.track) || 0;
}

/** Stacked horizontal bars, one per figure, a segment per source; the figure's name on its
 * own line above its bar, in the page's type (whole and readable on a phone, whatever its
 * length: an SVG scaled to a phone's width shrank its names and cut long ones off). */
function chart(v, ranking, sources, bySource, scores, ctx) {
  const max = Math.max(1, ...ranking.map((fi) => scores[fi]));
  const rows = ranking.map((fi) => h("div.chart-row", { "data-figure": fi },
    h("span.chart-name", ctx.figName(fi)),
    h("span.chart-bar",
      h("span.chart-track", sources.map((s) => {
        const vp = (bySource[fi] || {})[s] || 0;
        return vp > 0 ? h("span.chart-seg", { style: `width:${(100 * vp) / max}%;background:${colourOf(s)}`,
          title: `${tOr(`source.${s}`, s)}: ${vp}` }) : null;
      })),
      h("span.chart-total", String(scores[fi])))));
  return h("figure.vp-chart", { "data-testid": "vp-chart" },
    h("div.chart-rows", { role: "img", "aria-label": t("final.chart") }, rows),
    h("figcaption.legend-row", sources.map((s) => h("span.legend-item",
      h("span.swatch", { style: `background:${colourOf(s)}`, "aria-hidden": "true" }), tOr(`source.${s}`, s)))));
}

