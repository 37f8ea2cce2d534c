// The replay of a finished game, step by step.
import * as API from "./api.js";
import { renderBoard } from "./board.js";
import { t } from "./i18n.js";
import { h, rich } from "./ui.js";
import { describe } from "./words.js";
import { S, boardCtx, errorBox, errorText, learnSegments, logOf, render } from "./store.js";
import { modulesPanel, playersPanel } from "./players.js";
import { logPanel } from "./log.js";
import { finalPanel } from "./final.js";
import { isPhone, phoneBoard } from "./game.js";

// ---------------------------------------------------------------------------------------
// replay

export async function loadReplay(gameId, step) {
  const route = S.route;
  if (!S.replay) S.replay = { gameId, timer: null, want: step };
  const r = S.replay;
  r.want = step;
  try {
    const before = r.data && r.data.step === step - 1 ? r.data : null;
    const [data, prev] = await Promise.all([
      API.getReplay(gameId, step),
      step > 0 && !before ? API.getReplay(gameId, step - 1).catch(() => null) : Promise.resolve(before),
    ]);
    if (S.route !== route || r.want !== step) return;
    r.prev = prev ? prev.view : null;
    learnSegments(data.view);
    r.data = data;
    r.step = data.step;
    r.steps = data.steps;
    r.max = r.max ?? data.steps;
    S.error = null;
  } catch (e) {
    if (S.route !== route || r.want !== step) return;
    if (r.steps !== undefined && step >= r.steps && step > 0 && e.status === 404) {
      // this server's last step is steps - 1
      r.max = step - 1;
      return loadReplay(gameId, step - 1);
    }
    S.error = errorText(e);
  }
  render();
}

export function replayGo(step) {
  const r = S.replay;
  if (!r) return;
  const max = r.max ?? r.steps;
  const s = Math.max(0, Math.min(max, step));
  if (s !== r.want) loadReplay(r.gameId, s);
}

export function replayToggle() {
  const r = S.replay;
  if (!r) return;
  if (r.timer) {
    clearInterval(r.timer);
    r.timer = null;
  } else {
    r.timer = setInterval(() => {
      if (r.want >= (r.max ?? r.steps)) { clearInterval(r.timer); r.timer = null; render(); return; }
      replayGo(r.want + 1);
    }, 700);
  }
  render();
}

export function replayPage() {
  const r = S.replay;
  if (!r || !r.data) return h("div", S.error ? errorBox() : h("p.muted", t("status.loading")));
  const d = r.data;
  const v = d.view;
  const st = {
    type: "replay", game_id: r.gameId, seat: null, version: d.step, names: d.names, seats: [], view: v,
    legal: [], to_act: v.to_act || [], is_over: d.step >= (r.max ?? d.steps), scores: d.scores, ranking: d.ranking,
  };
  const ctx = boardCtx(st);
  const max = r.max ?? d.steps;
  const action = d.action
    ? h("span", h("strong", ctx.figName(d.action[0]) ?? `#${d.action[0]}`), ": ",
      rich(describe(d.action[1], r.prev || v, d.action[0])), h("code.muted", ` ${d.action[1]}`))
    : h("span.muted", t("replay.start"));
  const controls = h("section.card.replay-controls", { "data-testid": "replay" },
    h("div.replay-row",
      h("button", { type: "button", "data-testid": "replay-first", onclick: () => replayGo(0), "aria-label": t("replay.first") }, "|◀"),
      h("button", { type: "button", "data-testid": "replay-prev", onclick: () => replayGo(r.want - 1), "aria-label": t("replay.prev") }, "◀"),
      h("button", { type: "button", "data-testid": "replay-play", onclick: replayToggle, "aria-pressed": r.timer ? "true" : "false" }, t(r.timer ? "replay.pause" : "replay.play")),
      h("button", { type: "button", "data-testid": "replay-next", onclick: () => replayGo(r.want + 1), "aria-label": t("replay.next") }, "▶"),
      h("button", { type: "button", "data-testid": "replay-last", onclick: () => replayGo(max), "aria-label": t("replay.last") }, "▶|"),
      h("input.slider", {
        type: "range", min: 0, max, value: r.step, "data-testid": "replay-slider", "aria-label": t("replay.step_label"),
        onchange: (e) => replayGo(Number(e.target.value)),
      }),
      h("span.step", { "data-testid": "replay-step" }, t("replay.step", { step: r.step, steps: max }))),
    h("p.replay-action", { "data-testid": "replay-action" }, action));
  // the final scores belong to the last step; before it, the standings of the step shown
  const atEnd = d.step >= max;
  const finalSt = { ...st, view: v, ranking: d.ranking, scores: d.scores, game_id: null, version: d.steps };
  // on a phone, one place of the board at a time, as in the game (issue 13)
  const phone = isPhone();
  const left = phone ? h("section.board-col", phoneBoard(st, ctx, new Set(), () => {}))
    : h("section.board-col", renderBoard(v, ctx, () => {}), modulesPanel(v, ctx));
  const side = h("aside.side", S.error ? errorBox() : null, finalPanel(finalSt, ctx, { final: atEnd }), playersPanel(st, ctx),
    phone ? modulesPanel(v, ctx, { boards: false }) : null, logPanel(logOf(st), ctx));
  const title = h("h1.sr-only", { "data-testid": "page-title" }, `${t("app.title")}: ${t("game.replay")}`);
  return h("div.replay-page", title, controls, h("div.game", { class: phone ? "phone" : "" }, left, side));
}
