// The end of the game: winner, ranking, points by source.
import { t } from "./i18n.js";
import { figureColour, h } from "./ui.js";

export function finalPanel(st, ctx) {
  const v = st.view;
  const ranking = st.ranking || [];
  const scores = st.scores || v.figures.map((f) => f.vp);
  return h("section.card.final", { "data-testid": "final-scores" },
    h("h2", t("final.title")),
    h("table.scores",
      h("thead", h("tr", h("th", "#"), h("th", t("final.name")), h("th", t("final.vp")), h("th", t("final.tiles")))),
      h("tbody", ranking.map((fi, place) => h("tr", { class: place === 0 ? "winner" : "" },
        h("td", String(place + 1)),
        h("td", h("span.disc.small", { style: `background:${figureColour(v, fi)}` }, ctx.labels[fi]), " ", ctx.figName(fi)),
        h("td", String(scores[fi])),
        h("td", String((v.figures[fi].tiles || []).length)))))),
    st.game_id ? h("a.button", { href: `#/replay/${encodeURIComponent(st.game_id)}`, "data-testid": "replay-link" }, t("game.replay")) : null);
}
