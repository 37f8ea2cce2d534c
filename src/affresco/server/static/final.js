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
  const table = h("table.scores.by-source",
    h("caption.sr-only", t("final.table_caption")),
    h("thead", h("tr", h("th", { scope: "col" }, t("final.source")),
      ranking.map((fi, place) => h("th.num", { scope: "col", class: place === 0 ? "winner" : "", "data-testid": `final-col-${fi}` },
        `${place + 1}. `, h("span.disc.small", { style: `background:${figureColour(v, fi)}`, "aria-hidden": "true" }, ctx.labels[fi]),
        h("span.fig-name", ctx.figName(fi)))))),
    h("tbody",
      sources.map((s) => h("tr", h("th", { scope: "row" }, tOr(`source.${s}`, s)), ranking.map((fi) => cell(fi, s)))),
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
    final && st.game_id ? h("a.button", { href: `#/replay/${encodeURIComponent(st.game_id)}`, "data-testid": "replay-link" }, t("game.replay")) : null);
}

function trackPos(v, i) {
  const f = v.figures[i];
  const m = /^S(\d+)$/.exec(String(f.track));
  return m ? -100 + Number(m[1]) : Number(f.track) || 0;
}

/** Stacked horizontal bars, one per figure, a segment per source. */
function chart(v, ranking, sources, bySource, scores, ctx) {
  const max = Math.max(1, ...ranking.map((fi) => scores[fi]));
  const W = 600, label = 110, barH = 26, gap = 10;
  const H = ranking.length * (barH + gap) + 8;
  let svg = "";
  ranking.forEach((fi, row) => {
    const y = 4 + row * (barH + gap);
    svg += `<text x="${label - 8}" y="${y + barH * 0.7}" text-anchor="end" class="chart-name">${esc(ctx.figName(fi))}</text>`;
    let x = label;
    for (const s of sources) {
      const vp = (bySource[fi] || {})[s] || 0;
      if (vp <= 0) continue;
      const w = (vp / max) * (W - label - 50);
      svg += `<rect x="${x}" y="${y}" width="${w}" height="${barH}" fill="${colourOf(s)}"><title>${esc(`${tOr(`source.${s}`, s)}: ${vp}`)}</title></rect>`;
      x += w;
    }
    svg += `<text x="${x + 6}" y="${y + barH * 0.7}" class="chart-total">${scores[fi]}</text>`;
  });
  const wrap = h("figure.vp-chart", { "data-testid": "vp-chart" });
  wrap.innerHTML = `<svg viewBox="0 0 ${W} ${H}" role="img" aria-label="${esc(t("final.chart"))}">${svg}</svg>`;
  wrap.appendChild(h("figcaption.legend-row", sources.map((s) => h("span.legend-item",
    h("span.swatch", { style: `background:${colourOf(s)}`, "aria-hidden": "true" }), tOr(`source.${s}`, s)))));
  return wrap;
}

const esc = (s) => String(s ?? "").replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" }[c]));
