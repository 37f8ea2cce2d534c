"""HeuristicBot: ranks the legal actions of each decision by the value they lead to."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...rules import Action, PlanVariants
from ...rules.paints import BASIC, PAINTS
from ..model import SEGMENT, Model, add, covers, parse_tile, sub, vec
from .leonardo import LeonardoPlay
from . import medico
from .bells import KINDS as BELLS_KINDS
from .medico import KINDS as MEDICO_KINDS
from .wall import request_splashes
from .weights import NEVER, Horizon, Weights

__all__ = ["HeuristicBot", "KNOWN_KINDS"]

KNOWN_KINDS = frozenset({"getup", "plan", "buy", "close", "restore", "altar", "studio", "blend", "theater", "track",
                         "pass", "portrait", "request", "income", "scroll", "wall", "exchange"}) | MEDICO_KINDS | BELLS_KINDS


class HeuristicBot(LeonardoPlay):
    """One-step lookahead on a hand-made value (see the module docstring and :class:`Weights`).
    Its state and memos are declared by :class:`~.valuation.Valuation`, the chain's first layer."""

    name = "heuristic"

    def __init__(self, seed: int | str | None = 0, weights: Weights | None = None):
        super().__init__(seed, weights)

    # ------------------------------------------------------------------ entry points
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
        if len(legal) == 1:
            return legal[0]
        ranked = self.rank(view, legal, seat)
        return ranked[0][1]

    def rank(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> list[tuple[float, Action]]:
        """(score, action) of the actions worth considering, best first (ties keep the legal
        order).  Scores compare actions of this one decision only.  Planning gives the plans
        it built (one per market size and variants), not every legal plan."""
        lazy = type(legal) is PlanVariants   # the medico's plans: never made all at once
        if not lazy:
            legal = list(legal)
        if len(legal) == 1:
            return [(0.0, legal[0])]
        m = Model(view, seat)
        self.begin_decision(m)
        kinds = {"plan"} if lazy else {a.kind for a in legal}
        in_order = True  # scored lists its actions in the legal order (most kinds of decision)
        if "track" in kinds:
            want = "behind" if m.for_leonardo() else "ahead"
            scored = [(1.0 if a.args == (want,) else 0.0, a) for a in legal]
        elif m.for_leonardo():
            scored, in_order = self._leonardo(m, legal), False
        elif "getup" in kinds:
            scores = self.getup_scores(m, [a.args[0] for a in legal if a.kind == "getup"])
            scored = [(scores.get(a.args[0], NEVER) if a.kind == "getup" else NEVER, a) for a in legal]
        elif "plan" in kinds:
            scored, in_order = self._plans_ranked(m, legal), False
        elif "income" in kinds:
            scored = self._income(m, legal)
        elif "scroll" in kinds:
            scored = self._scroll(m, legal)
        elif kinds & BELLS_KINDS:
            scored, in_order = self.bells_ranked(m, legal), False
        elif kinds & {"medicine", "heal", "aside", "illness"}:
            scored, in_order = medico.score_decision(self, m, legal), False
        else:
            hz = self.horizon(m)
            base = self.value(m, m.paints, m.thalers, m.tiles, m.bishop, hz)
            scored = []
            for a in legal:
                s = self.score_visit_action(m, a, hz, base)
                if s is not None:
                    scored.append((s, a))
        if not scored or not kinds <= KNOWN_KINDS:
            self.fallbacks += 1  # a kind of action this bot does not know (should not happen)
        if not scored:  # then take the first action that is not 'pass'
            scored = [(0.0, next((a for a in legal if a.kind != "pass"), legal[0]))]
        scored.sort(key=lambda sa: -sa[0])  # stable: ties keep the order built
        if not in_order and any(scored[i][0] == scored[i + 1][0] for i in range(len(scored) - 1)):
            if lazy:   # ties keep the legal order (an equal action made elsewhere goes last, as in a list)
                scored.sort(key=lambda sa: (-sa[0], _position(legal, sa[1])))
            else:
                order = {id(a): i for i, a in enumerate(legal)}  # ties keep the legal order
                scored.sort(key=lambda sa: (-sa[0], order.get(id(sa[1]), len(legal))))
        return scored

    # ------------------------------------------------------------------ the search's leaf value
    def position_value(self, view: Mapping[str, Any], seat: int) -> float:
        """VP plus the worth of the seat's holdings (paints, Thalers, mood, permanent
        portraits, unplayed scrolls) as seen from ``view`` = view(seat): the search's leaf value."""
        m = Model(view, seat)
        self.begin_decision(m)
        vp = max(0, m.me.get("vp", 0))
        if view.get("is_over"):
            return float(vp)
        hz = self.horizon(m) if view.get("phase") == "visits" else (
            Horizon(self.w.targets, self.w.future, True, False) if not m.final else Horizon(self.w.final_reach, 1.0, True, True))
        v = vp + self.value(m, m.paints, m.thalers, m.tiles, m.bishop, hz) + self.mood_value(m, m.me.get("mood", 0))
        if m.portraits is not None:
            incomes = self.incomes_left(m)
            v += self.w.thaler * m.income_extra * incomes
            v += self.w.abbot * m.abbot * self.w.restorations_per_round * incomes
            v += self.w.sexton * (1 if m.sexton_cost else 0) * incomes
        if m.scroll_row is not None or m.scroll_col is not None:
            v += self.scroll_hold(m, m.scroll_row, m.scroll_col, None)
        v += self.w.thaler * len(m.me.get("tiles", ())) * self.incomes_left(m)  # their income to come
        return v

    # ------------------------------------------------------------------ visits
    def score_visit_action(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        """Gain in value of one visit action over passing (None: a kind this bot ignores)."""
        kind = a.kind
        if kind == "pass":
            return 0.0
        if a.args and a.args[-1] == "ill":    # the medico: an ill apprentice's restoration or altar
            return self.score_visit_action(m, Action(kind, a.args[:-1]), hz, base)
        if kind == "saints":
            return medico.score_saints(self, m, a, hz, base)
        if kind == "studio":
            left = m.view.get("visit_left") or 1
            return self.w.act + self.money(m, m.thalers + m.rules.studio_thalers * left, hz.final) - self.money(m, m.thalers, hz.final)
        if kind == "theater":
            left = m.view.get("visit_left") or 1
            mood = m.me.get("mood", 0)
            return self.w.act + max(0.0, self.mood_value(m, m.mood_after(m.theater_steps * left, mood)) - self.mood_value(m, mood))
        if kind == "buy":
            after = m.paints
            for t in a.args[1:]:
                after = add(after, vec(t))
            cost = m.price() * (len(a.args) - 1)
            return self.value(m, after, m.thalers - cost, m.tiles, m.bishop, hz) - base
        if kind == "close":
            return self.close_value(m, a.args[0], m.seat)
        if kind == "restore":
            return self._restore_score(m, a, hz, base)
        if kind == "altar":
            paints = a.args[0]
            if not all(c in PAINTS for c in paints):
                return None
            after = sub(m.paints, vec(paints))
            return m.altar_vp(paints) + self.value(m, after, m.thalers, m.tiles, m.bishop, hz) - base
        if kind == "blend":
            out = a.args[0]
            if out not in PAINTS or PAINTS.index(out) not in m.blends:
                return None
            x, y = m.blends[PAINTS.index(out)]
            p = list(m.paints)
            p[x] -= 1
            p[y] -= 1
            p[PAINTS.index(out)] += 1
            return self.value(m, tuple(p), m.thalers, m.tiles, m.bishop, hz) - base - self.w.tie
        if kind == "portrait":
            return self._portrait_score(m, a, hz)
        if kind == "request":
            return self._request_score(m, a, hz, base)
        if kind == "wall":
            return self._wall_score(m, a, hz, base)
        if kind == "exchange":
            return self._exchange_score(m, a, hz)
        return None

    def _restore_score(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        args = a.args
        seg = SEGMENT.get(args[0]) if args else None
        if seg is None:
            return None
        by_segment = self._memo.get("by_segment")   # this decision's fresco tiles by segment
        if by_segment is None:
            by_segment = self._memo["by_segment"] = {t.segment: t for t in m.tiles}
        tile = by_segment.get(seg)
        extra = dict(zip(args[1::2], args[2::2])) if len(args) > 1 else _NO_WORDS
        if tile is None or extra and not set(extra) <= _RESTORE_WORDS:
            return None
        paid = vec(extra["using"]) if "using" in extra else tile.need
        if not covers(m.paints, paid):
            return None
        bishop, cost = m.bishop, 0
        if "bishop" in extra and extra["bishop"] in SEGMENT:
            bishop, cost = SEGMENT[extra["bishop"]], 1
        if "sexton" in extra and extra["sexton"] in SEGMENT:
            bishop, cost = SEGMENT[extra["sexton"]], max(1, m.sexton_cost)
        if cost and m.bonus(bishop, seg) <= m.bonus(m.bishop, seg) and bishop != seg:
            return self.w.useless_move  # a paid move that does not raise the bonus (nor put the bishop on the tile)
        vp = tile.vp + m.bonus(bishop, seg)
        if "using" in extra:  # option special_colours_on_fresco: a bonus per pink / brown paid (R6)
            bonus = (m.view.get("special_colours") or {}).get("fresco_bonus") or m.rules.module("special_colours").fresco_bonus
            vp += sum(int(b) * max(0, extra["using"].count(c) - tile.need[PAINTS.index(c)]) for c, b in bonus.items())
        tiles = self._memo.get(("after", seg))
        if tiles is None:
            tiles = self._memo[("after", seg)] = [t for t in m.tiles if t is not tile]
        score = vp + self.value(m, sub(m.paints, paid), m.thalers - cost, tiles, seg, hz) - base
        if bishop == seg:
            score += self.on_segment_extra(m, seg, tiles)
        return score

    def _portrait_score(self, m: Model, a: Action, hz: Horizon) -> float | None:
        if m.portraits is None:
            return None
        card = next((c for c in m.portraits["display"] if c["id"] == a.args[0]), None)
        if card is None:
            return None
        choice = a.args[1] if len(a.args) > 1 else None
        left = (m.view.get("visit_left") or 1) - 1
        rest = self.money(m, m.thalers + m.rules.studio_thalers * left, hz.final) - self.money(m, m.thalers, hz.final)
        return self.w.act + self.card_value(m, card, choice, hz) + rest

    def _request_score(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        if m.requests is None or len(a.args) < 2:
            return None
        t = a.args[0]
        values = m.requests["stacks"].get(t)
        if not values:
            return None
        colour = m.rules.module("requests").paint.get(t)
        splashes = sum(len(request_splashes(x) or parse_tile(x).splashes) for x in a.args[1:])
        if m.final:
            worth = float(values[-1]) - self.w.splash_final * splashes
        else:
            worth = self.request_worth(m, values[-1], colour, splashes)
        # the blends this apprentice gives up
        left = m.view.get("visit_left") or 0
        _, _, with_all = self.simulate_blends(m, m.paints, m.tiles, m.bishop, left, hz)
        _, _, without = self.simulate_blends(m, m.paints, m.tiles, m.bishop, max(0, left - m.rules.blends_per_apprentice), hz)
        return worth - (with_all - without) - self.w.splash * splashes

    def close_value(self, m: Model, booth: str, actor: int) -> float:
        """Worth of closing ``booth`` now: denied to opponents who visit the market later."""
        tiles = m.view["booths"].get(booth, [])
        pieces = sum(len(t) + sum(c not in BASIC for c in t) for t in tiles)
        later = sum(1 for f in range(len(m.names))
                    if f not in (m.seat, m.leonardo) and m.visits(f, "market") and m.later_in_order(f, actor))
        return self.w.deny * pieces * later - self.w.tie


_NO_WORDS: dict[str, str] = {}   # a restoration without 'bishop', 'using' or 'sexton' (never changed)
_RESTORE_WORDS = frozenset({"bishop", "using", "sexton"})


def _position(legal: Sequence[Action], action: Action) -> int:
    """Where ``action`` (this very object) stands in ``legal``; ``len(legal)`` if it is not one
    of its objects."""
    if action in legal:
        i = legal.index(action)
        if legal[i] is action:
            return i
    return len(legal)
