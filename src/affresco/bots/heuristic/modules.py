"""HeuristicBot's valuation of the modules' cards and questions: portraits, requests, scrolls,
the general request's paint."""
from __future__ import annotations

from itertools import combinations_with_replacement
from typing import Any, Mapping, Sequence

from ...rules import Action
from ...rules.board import SIZE
from ...rules.paints import BASIC
from ..model import Model, Paints, Tile, add, vec
from .valuation import Valuation
from .weights import NEVER, Horizon

__all__ = ["ModuleValuation"]



class ModuleValuation(Valuation):
    """Module methods of :class:`~affresco.bots.heuristic.HeuristicBot` (a layer of its chain,
    see :class:`~.valuation.Valuation`)."""


    # ------------------------------------------------------------------ portraits
    def card_value(self, m: Model, card: Mapping[str, Any], choice: str | None, hz: Horizon,
                   paints: Paints | None = None, thalers: int | None = None) -> float:
        """What painting this portrait (with this choice) is worth to me now."""
        w = self.w
        paints = m.paints if paints is None else paints
        thalers = m.thalers if thalers is None else thalers
        vt = int(card.get("vp_or_thalers", 0) or 0)
        vp = int(card.get("vp", 0) or 0) + (vt if choice == "vp" else 0)
        gain_th = int(card.get("thalers", 0) or 0) + (vt if choice == "thalers" else 0)
        after = paints
        if card.get("paint"):
            after = add(after, vec(card["paint"]))
        if card.get("basic_paints") and choice:
            after = add(after, vec(choice))
        v = vp + (self.value(m, after, thalers + gain_th, m.tiles, m.bishop, hz)
                  - self.value(m, paints, thalers, m.tiles, m.bishop, hz))
        mood = m.me.get("mood", 0)
        if card.get("mood_top"):
            v += self.mood_value(m, 0) - self.mood_value(m, mood)
        elif card.get("mood"):
            v += self.mood_value(m, m.mood_after(int(card["mood"]), mood)) - self.mood_value(m, mood)
        incomes = self.incomes_left(m)
        if card.get("income"):
            v += w.thaler * int(card["income"]) * incomes
        if card.get("theater"):
            v += w.actor * incomes
        if card.get("bishop_bonus"):
            v += w.abbot * int(card["bishop_bonus"]) * w.restorations_per_round * incomes
        if card.get("sexton") and not m.sexton_cost:
            v += w.sexton * incomes
        return v

    @staticmethod
    def card_choices(card: Mapping[str, Any]) -> list[str | None]:
        if card.get("basic_paints"):
            return ["".join(c) for c in combinations_with_replacement(BASIC, int(card["basic_paints"]))]
        if card.get("vp_or_thalers"):
            return ["vp", "thalers"]
        return [None]

    def best_portrait(self, m: Model, hz: Horizon) -> float:
        """Worth of the best displayed portrait (0 if none, or one painted this round)."""
        if m.portraits is None or not m.portraits["display"] or m.done_this_round("portrait"):
            return 0.0
        key = ("portrait", hz)  # the same for every plan of this decision
        hit = self._memo.get(key)
        if hit is None:
            hit = self._memo[key] = max(self.card_value(m, c, ch, hz) for c in m.portraits["display"]
                                        for ch in self.card_choices(c))
        return hit

    # ------------------------------------------------------------------ requests
    def request_options(self, m: Model, tiles: Sequence[Tile]) -> list[tuple[float, str]]:
        """(worth, type) of each request I could fulfil with these tiles (tiles stacked are the
        ones least useful for later requests)."""
        if m.requests is None:
            return []
        requests = m.rules.module("requests")  # type -> colour (.paint, None: general), tiles per request, income
        colours = requests.paint
        out = []
        for t, values in m.requests["stacks"].items():
            if not values:
                continue
            colour = colours.get(t)
            usable = [x for x in tiles if colour is None or colour in x.splashes]
            if len(usable) < requests.per:
                continue
            splashes = sorted(len(x.splashes) for x in usable)[:requests.per]
            out.append((self.request_worth(m, values[-1], colour, sum(splashes)), t))
        return out

    def request_worth(self, m: Model, vp: int, colour: str | None, splashes: int) -> float:
        w = self.w
        incomes = self.incomes_left(m)
        paint = w.request_paint if colour else w.request_paint * w.general_paint  # the general one: a paint of my choice
        keep = w.request_keep * splashes if colour is None else 0.0
        requests = m.rules.module("requests")
        thalers = requests.income - m.rules.tile_thalers * requests.per  # the request pays, its tiles stop paying
        return vp + incomes * (w.thaler * thalers + paint) - keep

    # ------------------------------------------------------------------ scrolls
    def scroll_options(self, m: Model, segment: int, open_: set[int]) -> dict[str, float]:
        """Worth of each scroll answer after restoring ``segment`` (``open_``: the segments
        still to restore, without it): VP now plus what the scrolls kept are worth."""
        r, c = divmod(segment, SIZE)
        row_done = sum(1 for i in range(r * SIZE, r * SIZE + SIZE) if i not in open_)
        col_done = sum(1 for i in range(c, SIZE * SIZE, SIZE) if i not in open_)
        row, col = m.scroll_row, m.scroll_col
        sc = m.rules.module("scrolls")  # VP per restored segment of the line, and their caps
        out = {"none": self.scroll_hold(m, row, col, open_)}
        if row == r:
            out["row"] = min(sc.one_max, sc.one_vp * row_done) + self.scroll_hold(m, None, col, open_)
        if col == c:
            out["column"] = min(sc.one_max, sc.one_vp * col_done) + self.scroll_hold(m, row, None, open_)
        if row == r and col == c:
            out["both"] = float(min(sc.both_max, sc.both_vp * (row_done + col_done)))
        return out

    def scroll_hold(self, m: Model, row: int | None, col: int | None, open_: set[int] | None) -> float:
        """What keeping these scrolls is worth (0 in the final round: unplayed scrolls score nothing)."""
        if m.final:
            return 0.0
        if open_ is None:
            open_ = {t.segment for t in m.tiles}
        w = self.w
        v = 0.0
        for cells in ([range(row * SIZE, row * SIZE + SIZE)] if row is not None else []) + \
                     ([range(col, SIZE * SIZE, SIZE)] if col is not None else []):
            left = sum(1 for i in cells if i in open_)
            if left:
                done = SIZE - left
                sc = m.rules.module("scrolls")
                v += w.scroll_keep * min(float(sc.one_max), sc.one_vp * (done + w.scroll_chance * left))
        return v

    def _scroll(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        seg = m.bishop  # the bishop stands on the segment just restored
        opts = self.scroll_options(m, seg, {t.segment for t in m.tiles})
        return [(opts.get(a.args[0], NEVER), a) for a in legal if a.kind == "scroll"]

    # ------------------------------------------------------------------ the general request's paint
    def _income(self, m: Model, legal: Sequence[Action]) -> list[tuple[float, Action]]:
        hz = Horizon(self.w.targets, self.w.future, True, m.final)
        return [(self.value(m, add(m.paints, vec(a.args[0])), m.thalers, m.tiles, m.bishop, hz), a)
                for a in legal if a.kind == "income"]
