// The game log.
import { parseLog, t, translateLog } from "./i18n.js";
import { h, rich } from "./ui.js";
import { infoButton } from "./help.js";
import { renderEvent } from "./events.js";

// ---------------------------------------------------------------------------------------
// log and scores

/** One log entry as a list item: an event rendered in the interface language (or, from an
 *  old server, an English line translated through the catalog). */
export function logItem(entry, ctx) {
  if (entry.event) {
    const e = entry.event;
    const text = renderEvent(e, ctx.names, ctx.view);
    if (e.kind === "round_begins") return h("li.round", { "data-i": entry.i }, rich(text));
    const scoring = e.kind === "score";
    return h("li", { class: scoring ? "vp" : "", "data-i": entry.i, "data-kind": e.kind },
      scoring ? h("span.vp-badge", `+${e.vp}`) : null, rich(text));
  }
  const hit = parseLog(entry.text);
  const text = translateLog(entry.text);
  if (hit && (hit.key === "log.round" || hit.key === "log.round_final")) return h("li.round", rich(text));
  const scoring = hit && hit.key === "log.scores";
  return h("li", { class: scoring ? "vp" : "", "data-i": entry.i },
    scoring ? h("span.vp-badge", `+${hit.params.vp}`) : null, rich(text));
}

/** A log entry as plain words with paint marks (the last-move line). */
export function entryText(entry, ctx) {
  return entry.event ? renderEvent(entry.event, ctx.names, ctx.view) : translateLog(entry.text);
}

export function logPanel(lines, ctx) {
  const items = lines.map((entry) => logItem(entry, ctx));
  return h("section.card.log", { "data-testid": "log" },
    h("h2", t("logui.title"), infoButton("log", "log")),
    h("ol.log-lines", { "aria-live": "polite", tabindex: "0", "aria-label": t("logui.title") }, items.length ? items : h("li.muted", t("logui.empty"))));
}
