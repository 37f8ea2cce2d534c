// The game log.
import { t } from "./i18n.js";
import { h, kept, rich } from "./ui.js";
import { infoButton } from "./help.js";
import { renderEvent } from "./events.js";

// ---------------------------------------------------------------------------------------
// log and scores

/** One log entry ({i, event}) as a list item: the event rendered in the interface language. */
export function logItem(entry, ctx) {
  const e = entry.event;
  const text = renderEvent(e, ctx.names, ctx.view);
  // its words are built only when they changed (a new entry, another language): see ui.kept
  if (e.kind === "round_begins") return kept(h("li.round", { "data-i": entry.i }), text, () => rich(text));
  const scoring = e.kind === "score";
  return kept(h("li", { class: scoring ? "vp" : "", "data-i": entry.i, "data-kind": e.kind }),
    scoring ? `${e.vp}|${text}` : `|${text}`, () => [scoring ? h("span.vp-badge", `+${e.vp}`) : null, rich(text)]);
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
