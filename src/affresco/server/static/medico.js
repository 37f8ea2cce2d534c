// Module 10, the medico (docs/modules/medico.md): the medico board (bottles on display with
// their prices, the draw and discard piles, the black apprentices), the infection tile and the
// infected location, each painter's ill apprentices and bottles.  A displayed bottle that
// "medicine <place>" names is clicked to buy it.
import { t } from "./i18n.js";
import { figureColour, h } from "./ui.js";
import { bottleWords } from "./words.js";
import { S, send } from "./store.js";
import { infoButton } from "./help.js";

function bottle(b, attrs = {}, extra = null) {
  const juice = b === "juice";
  const cls = [juice ? "juice" : "elixir", attrs.class || ""].join(" ");
  return h("button.bottle", { type: "button", "aria-label": bottleWords(b), ...attrs, class: cls },
    h("span.bottle-glass", { "aria-hidden": "true" }),
    h("span.bottle-text", juice ? t("bottle.juice_short") : t("bottle.portions", { n: Number(b) })), extra);
}

export function medicoPanel(st, ctx) {
  const v = st.view;
  const m = v.medico;
  if (!m) return null;
  const legal = (st.seat !== null && st.seat !== undefined && st.legal) || [];
  const display = (m.display || []).map((d, i) => {
    const place = i + 1;
    if (!d) return h("div.bottle.empty", { "data-testid": `bottle-${place}` }, h("span.bottle-text", t("medico.place", { place, price: m.prices[i] })));
    const hot = legal.includes(`medicine ${place}`);
    return bottle(d.bottle, {
      "data-testid": `bottle-${place}`, "data-place": place, disabled: !hot || S.busy, class: hot ? "hot" : "",
      onclick: () => hot && send(`medicine ${place}`),
    }, h("span.bottle-price", t("medico.price", { n: d.price })));
  });
  const infected = m.infected ? t(`col.${m.infected}`) : t("medico.nowhere");
  const rows = v.figures.map((f, i) => {
    if (f.leonardo) return null;
    const held = (m.held || [])[i] || [];
    const plan = (m.plans || [])[i];
    return h("li.bell-row", { "data-testid": `medico-figure-${i}` },
      h("span.disc.small", { style: `background:${figureColour(v, i)}`, "aria-hidden": "true" }, ctx.labels[i]),
      h("strong", ctx.figName(i)), " ",
      h("span", { "data-testid": `ill-${i}` }, t("medico.ill", { n: (m.ill || [])[i] || 0 })),
      " · ", h("span", t("medico.on_board", { n: (m.sick || [])[i] || 0 })),
      held.length ? [" · ", t("medico.held"), " ", held.map((b) => h("span.tag", bottleWords(b)))] : null,
      plan && plan.medico ? h("span.muted", " · ", t("medico.tile_planned")) : null);
  });
  return h("div.module.mod-panel", { "data-testid": "medico-panel" },
    h("h3", t("module.medico"), infoButton("module-medico", "module.medico")),
    h("p.infection", { "data-testid": "infection" },
      h("span.infection-tile", { "aria-hidden": "true" }, "☣"), " ",
      t("medico.infected", { loc: infected }),
      m.infection_tile ? ` (${t(`medico.tile.${m.infection_tile}`)})` : "",
      " · ", t("medico.tiles_left", { n: m.infection_tiles_left })),
    h("div.bottles", { "data-testid": "medico-display" }, display),
    h("p.small.muted", t("medico.piles", { draw: m.draw_pile, discard: (m.discard || []).length, black: m.black_on_board })),
    h("ul.bell-rows", rows));
}

/** One line of a painter's card: ill apprentices and bottles in front of the screen. */
export function medicoLine(v, i) {
  const m = v.medico;
  if (!m || v.figures[i].leonardo) return null;
  const ill = (m.ill || [])[i] || 0;
  const held = (m.held || [])[i] || [];
  if (!ill && !held.length && !(m.sick || [])[i]) return null;
  return h("div.small", { "data-testid": `medico-line-${i}` }, t("medico.ill", { n: ill }), " · ",
    t("medico.on_board", { n: (m.sick || [])[i] || 0 }),
    held.length ? [" · ", held.map(bottleWords).join(", ")] : null);
}
