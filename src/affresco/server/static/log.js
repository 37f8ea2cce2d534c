// The game log.
import { t } from "./i18n.js";
import { h, rich } from "./ui.js";
import { infoButton } from "./help.js";
import { renderEvent } from "./events.js";

// ---------------------------------------------------------------------------------------
// log and scores

/** One log entry ({i, event}) as a list item: the event rendered in the interface language. */
export function logItem(entry, ctx) {
  const e = entry.event;
  const text = renderEvent(e, ctx.names, ctx.view);
  if (e.kind === "round_begins") return h("li.round", { "data-i": entry.i }, rich(text));
  const scoring = e.kind === "score";
  return h("li", { class: scoring ? "vp" : "", "data-i": entry.i, "data-kind": e.kind },
    scoring ? h("span.vp-badge", `+${e.vp}`) : null, rich(text));
}

/** A log entry as plain words with paint marks (the last-move line). */
export function entryText(entry, ctx) {
  return renderEvent(entry.event, ctx.names, ctx.view);
}

export function logPanel(lines, ctx) {
  const items = lines.map((entry) => logItem(entry, ctx));
  return h("section.card.log", { "data-testid": "log" },
    h("h2", t("logui.title"), infoButton("log", "log")),
    h("ol.log-lines", { "aria-live": "polite", tabindex: "0", "aria-label": t("logui.title") }, items.length ? items : h("li.muted", t("logui.empty"))));
}
