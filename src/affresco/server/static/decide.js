// The decision area: the prompt, the choices in words, the buy and plan widgets.
import { t, tOr } from "./i18n.js";
import { actingFigure, chips, columnLabel, h, hostelPrice, rich, sortBuyTiles, testid } from "./ui.js";
import { describe } from "./words.js";
import { S, figureName, render, request, send, sendUndo } from "./store.js";
import { bishopTargets, filterActions } from "./game.js";

export function decisionPanel(st, ctx) {
  const v = st.view;
  const legal = st.legal || [];
  const body = [];
  const fig = actingFigure(v, st.seat);
  const forLeo = legal.length && v.figures[fig] && v.figures[fig].leonardo;
  if (!legal.length) {
    body.push(h("p", st.is_over ? t("status.over") : waitingText(st)));
    if (v.phase === "plan" && v.figures[st.seat] && v.figures[st.seat].plan) {
      body.push(h("p.muted", t("plan.yours", { plan: planWords(v, v.figures[st.seat].plan) })));
    }
  } else {
    if (forLeo) body.push(h("p.leo-note", t("decide.for_leonardo")));
    body.push(h("p.prompt", { "data-testid": "prompt" }, promptText(st, fig)));
    const plans = legal.filter((a) => a.startsWith("plan "));
    if (plans.length) body.push(planWidget(st, plans));
    const rest = legal.filter((a) => !a.startsWith("plan "));
    if (S.selection && S.selection.type === "booth") body.push(buyWidget(st));
    if (rest.length) body.push(actionList(st, rest, fig));
  }
  const undoBtn = st.undo ? h("button.undo", {
    type: "button", "data-testid": "undo", disabled: S.busy, onclick: sendUndo,
  }, "↶ ", t("game.undo")) : null;
  return h("section.card.decision", { "data-testid": "decision", class: legal.length ? "active" : "" },
    h("div.card-head", h("h2", legal.length ? t("decide.title") : t("decide.waiting_title")), undoBtn),
    body);
}

export function waitingText(st) {
  const v = st.view;
  if (v.phase === "plan") {
    const waiting = (st.to_act || []).map((s) => figureName(st, s));
    return t("decide.wait_plans", { names: waiting.join(", ") || "—" });
  }
  const names = (st.to_act || []).map((s) => figureName(st, s));
  return names.length ? t("status.waiting", { names: names.join(", ") }) : t("decide.nothing");
}

export function promptText(st, fig) {
  const v = st.view;
  const legal = st.legal;
  const kinds = new Set(legal.map((a) => a.split(" ")[0]));
  const left = v.visit_left;
  if (v.pending_track && kinds.has("track")) return t("prompt.track", { behind: v.pending_track.behind, ahead: v.pending_track.ahead });
  if (kinds.has("plan")) return t("prompt.plan", { n: v.figures[st.seat].apprentices });
  if (kinds.has("getup")) return t("prompt.getup");
  if (kinds.has("income")) return t("prompt.income");
  if (kinds.has("scroll")) return t("prompt.scroll");
  if (S.selection && S.selection.type === "segment") {
    const targets = bishopTargets(legal, S.selection.id);
    return targets.size ? t("prompt.segment_bishop", { seg: S.selection.id }) : t("prompt.segment", { seg: S.selection.id });
  }
  if (S.selection && S.selection.type === "booth") return t("prompt.booth", { booth: S.selection.id, n: left ?? 1 });
  const col = v.location;
  if (col === "market") return t("prompt.market", { n: left ?? 1 });
  if (col === "cathedral") return t("prompt.cathedral", { n: left ?? 1 });
  if (col === "studio") return kinds.has("portrait") ? t("prompt.studio_portrait", { n: left ?? 1 }) : t("prompt.studio", { n: left ?? 1 });
  if (col === "workshop") return kinds.has("blend") ? t("prompt.workshop", { n: left ?? 1 }) : t("prompt.workshop_request");
  if (col === "theater") return t("prompt.theater", { n: left ?? 1 });
  return t("prompt.generic");
}

export const KIND_ORDER = ["track", "getup", "buy", "close", "restore", "altar", "studio", "portrait", "blend", "request",
  "theater", "income", "scroll", "pass"];

export function actionList(st, actions, fig) {
  const v = st.view;
  const sel = S.selection;
  let shown = filterActions(actions, sel);
  if (sel && !shown.length) shown = actions;
  const byKind = new Map();
  for (const a of shown) {
    const k = a.split(" ")[0];
    if (!byKind.has(k)) byKind.set(k, []);
    byKind.get(k).push(a);
  }
  const kinds = [...byKind.keys()].sort((a, b) => {
    const ia = KIND_ORDER.indexOf(a), ib = KIND_ORDER.indexOf(b);
    return (ia < 0 ? 99 : ia) - (ib < 0 ? 99 : ib);
  });
  const groups = kinds.map((k) => h("div.action-group",
    byKind.size > 1 ? h("h3", tOr(`kind.${k}`, k)) : null,
    byKind.get(k).map((a) => h("button.action", {
      type: "button", "data-testid": testid(a), "data-action": a, disabled: S.busy, title: a,
      class: a === "pass" ? "pass" : "",
      onclick: () => send(a),
    }, rich(describe(a, v, fig))))));
  return h("div.actions-box",
    sel ? h("div.filter-note", t("decide.filtered", { n: shown.length, all: actions.length }),
      h("button.small.ghost", { type: "button", "data-testid": "selection-clear", onclick: () => { S.selection = null; render(); } }, t("decide.show_all"))) : null,
    h("div.action-list", { role: "group", "aria-label": t("decide.choices") }, groups));
}

export function buyWidget(st) {
  const v = st.view;
  const sel = S.selection;
  const tiles = v.booths[sel.id] || [];
  const chosen = sel.tiles.map((j) => tiles[j]).filter(Boolean);
  const fig = actingFigure(v, st.seat);
  const price = hostelPrice(v, fig);
  const notation = chosen.length ? `buy ${sel.id} ${sortBuyTiles(chosen).join(" ")}` : null;
  const ok = notation && st.legal.includes(notation);
  const canBuy = st.legal.some((a) => a.startsWith(`buy ${sel.id} `));
  if (!canBuy) return null;
  return h("div.buy-widget", { "data-testid": "buy-widget" },
    h("p.hint", t("buy.hint", { booth: sel.id })),
    h("div.buy-line",
      h("span", chosen.length ? chosen.map((c) => h("span.paints", chips(c))) : t("buy.none")),
      h("button.primary", {
        type: "button", "data-testid": "buy-confirm", disabled: !ok || S.busy,
        onclick: () => ok && send(notation),
      }, price !== null && chosen.length
        ? t("buy.confirm_cost", { n: chosen.length, cost: price * chosen.length })
        : t("buy.confirm", { n: chosen.length }))));
}

export function planWidget(st, plans) {
  const v = st.view;
  const cols = v.columns || [];
  const key = `${st.game_id}:${v.round}:${cols.length}`;
  if (!S.plan || S.plan.key !== key) S.plan = { key, counts: cols.map(() => 0) };
  const counts = S.plan.counts;
  let perColumn = 0;
  let available = 0;
  for (const p of plans) {
    const c = p.slice(5).split("-").map(Number);
    perColumn = Math.max(perColumn, ...c);
    available = Math.max(available, c.reduce((a, b) => a + b, 0));
  }
  const used = counts.reduce((a, b) => a + b, 0);
  const notation = `plan ${counts.join("-")}`;
  const ok = plans.includes(notation);
  const colEls = cols.map((name, i) => h("div.plan-col", { "data-testid": `plan-col-${i}` },
    h("div.plan-name", columnLabel(v, i)),
    h("button.plan-btn", {
      type: "button", "data-testid": `plan-inc-${i}`, "aria-label": t("plan.inc", { col: columnLabel(v, i) }),
      disabled: counts[i] >= perColumn || used >= available || S.busy,
      onclick: () => { counts[i] += 1; render(); },
    }, "+"),
    h("div.plan-slots", { "aria-label": t("plan.count", { n: counts[i] }) },
      Array.from({ length: perColumn }, (_, k) => h("span.slot", { class: k < counts[i] ? "full" : "" }))),
    h("div.plan-count", { "data-testid": `plan-count-${i}` }, String(counts[i])),
    h("button.plan-btn", {
      type: "button", "data-testid": `plan-dec-${i}`, "aria-label": t("plan.dec", { col: columnLabel(v, i) }),
      disabled: counts[i] <= 0 || S.busy,
      onclick: () => { counts[i] -= 1; render(); },
    }, "−")));
  return h("div.plan-widget", { "data-testid": "plan-widget" },
    h("div.plan-sheet", colEls),
    h("p.plan-used", t("plan.used", { used, n: available })),
    h("div.plan-actions",
      h("button.ghost", { type: "button", "data-testid": "plan-reset", onclick: () => { S.plan.counts = cols.map(() => 0); render(); } }, t("plan.reset")),
      h("button.primary", {
        type: "button", "data-testid": "plan-confirm", "data-action": notation, disabled: !ok || S.busy,
        onclick: () => ok && send(notation),
      }, t("plan.confirm"))));
}

export function planWords(v, plan) {
  return plan.map((n, i) => `${columnLabel(v, i)} ${n}`).join(", ");
}
