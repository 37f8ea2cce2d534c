// The game log.
import { parseLog, t, translateLog } from "./i18n.js";
import { h, rich } from "./ui.js";
import { infoButton } from "./help.js";

// ---------------------------------------------------------------------------------------
// log and scores

export function logPanel(lines, ctx, st) {
  const items = [];
  for (const line of lines) {
    const hit = parseLog(line.text);
    const text = translateLog(line.text);
    if (hit && (hit.key === "log.round" || hit.key === "log.round_final")) {
      items.push(h("li.round", rich(text)));
      continue;
    }
    const scoring = hit && hit.key === "log.scores";
    items.push(h("li", { class: scoring ? "vp" : "", "data-i": line.i },
      scoring ? h("span.vp-badge", `+${hit.params.vp}`) : null,
      rich(text)));
  }
  return h("section.card.log", { "data-testid": "log" },
    h("h2", t("logui.title"), infoButton("log", "log")),
    h("ol.log-lines", { "aria-live": "polite" }, items.length ? items : h("li.muted", t("logui.empty"))));
}
