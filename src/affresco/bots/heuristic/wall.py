"""HeuristicBot's valuation of the wall fresco (module 9): where the wall action tile goes,
which section to restore, which wall tiles to exchange.

A restoration is worth its VP now, plus the paint income of a basic colour I do not receive
yet (one cube a round for the rounds left), less what the paint paid was worth to my holdings.
An exchange is worth a blended cube a round, less the basic colours the two tiles stop paying
and the blends the apprentice gives up.  Planning puts the wall tile on an empty column (the
latest one, so the market's paints are there) when a restoration is worth more than what the
apprentice would do elsewhere.
"""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...rules import Action
from ..model import ZERO, Model, Tile, covers, sub, vec
from .bells import BellsValuation
from .weights import Horizon

__all__ = ["WallValuation"]


def wall_parts(text: str) -> tuple[str, str, str]:
    """'W:P/R' or 'W:P/R/G' -> (front paint, back paint, splash)."""
    parts = text[2:].split("/")
    return parts[0], parts[1], parts[2] if len(parts) > 2 else parts[0][0]


class WallValuation(BellsValuation):
    """Wall fresco methods of :class:`~affresco.bots.heuristic.HeuristicBot` (a layer of its
    chain, see :class:`~.valuation.Valuation`)."""

    @staticmethod
    def wall(m: Model) -> Any:
        """The view's ``wall_fresco`` part (None: the module is not in play)."""
        return m.view.get("wall_fresco")

    def wall_backs(self, m: Model, tiles: Sequence[str] | None = None) -> set[str]:
        w = self.wall(m)
        return {wall_parts(t)[1] for t in (w["tiles"][m.seat] if tiles is None else tiles)}

    def wall_income_worth(self, m: Model) -> float:
        """One paint cube at each income still to come."""
        return self.w.wall_paint * self.incomes_left(m)

    def wall_section_worth(self, m: Model, section: str, paints, hz: Horizon, base: float) -> float | None:
        """Worth of restoring ``section`` with ``paints`` over not restoring (None: cannot)."""
        w = self.wall(m)
        r, c = int(section[1:]) - 1, "ABCDEFGHIJ".index(section[0])
        tile = w["board"][r][c] if 0 <= r < len(w["board"]) else None
        if tile is None:
            return None
        front, back, _ = wall_parts(tile)
        need = vec(front)
        if not covers(paints, need):
            return None
        new_colour = back not in self.wall_backs(m)
        income = self.wall_income_worth(m) if new_colour else self.w.wall_spare_tile * self.incomes_left(m)
        after = self.value(m, sub(paints, need), m.thalers, m.tiles, m.bishop, hz)
        return w["vp_per_section"] + income + after - base

    def best_wall_section(self, m: Model, paints, hz: Horizon) -> float:
        """The best restoration open to me with ``paints`` (0 if none pays)."""
        w = self.wall(m)
        if w is None or m.final and not w["restorable"]:
            return 0.0
        base = self.value(m, paints, m.thalers, m.tiles, m.bishop, hz)
        best = 0.0
        for section in w["restorable"]:
            v = self.wall_section_worth(m, section, paints, hz, base)
            if v is not None and v > best:
                best = v
        return best

    def wall_request_tiles(self, m: Model) -> list[Tile]:
        """My wall tiles as tiles for the bishop's requests (R15: they count by their splash)."""
        w = self.wall(m)
        if w is None:
            return []
        return [Tile.make(-1, 0, ZERO, wall_parts(t)[2]) for t in w["tiles"][m.seat]]

    def _wall_score(self, m: Model, a: Action, hz: Horizon, base: float) -> float | None:
        if self.wall(m) is None or len(a.args) != 1:
            return None
        return self.wall_section_worth(m, a.args[0], m.paints, hz, base)

    def _exchange_score(self, m: Model, a: Action, hz: Horizon) -> float | None:
        w = self.wall(m)
        if w is None or len(a.args) != 2:
            return None
        mine = list(w["tiles"][m.seat])
        for t in a.args:
            if t not in mine:
                return None
            mine.remove(t)
        lost = len(self.wall_backs(m) - self.wall_backs(m, mine))
        gain = (self.w.wall_blend - lost * self.w.wall_paint) * self.incomes_left(m)
        left = m.view.get("visit_left") or 0
        per = m.rules.blends_per_apprentice
        _, _, with_all = self.simulate_blends(m, m.paints, m.tiles, m.bishop, left, hz)
        _, _, without = self.simulate_blends(m, m.paints, m.tiles, m.bishop, max(0, left - per), hz)
        return gain - (with_all - without)

    def wall_plans(self, m: Model, options: list[tuple[float, list[int]]], legal_set: set[Action],
                   apprentices: int) -> list[tuple[float, Action]]:
        """Each built plan with the wall tile added on its latest empty column: with a spare
        apprentice, or one taken from the studio or the theater (``wall_displace`` less)."""
        if self.wall(m) is None:
            return []
        hz = self.horizon(m)
        worth = self.best_wall_section(m, m.paints, hz) * self.w.wall_plan_share
        if worth <= 0:
            return []
        words = _column_words(m.columns)
        out = []
        for score, counts in options:
            variants = []
            if sum(counts) < apprentices:
                variants.append((list(counts), 0.0))
            for col in (2, len(counts) - 1):  # studio, theater (the final round's second cathedral: no)
                if counts[col] and not (m.final and col == len(counts) - 1):
                    fewer = list(counts)
                    fewer[col] -= 1
                    variants.append((fewer, self.w.wall_displace))
            for plan, cost in variants:
                empty = [i for i, n in enumerate(plan) if n == 0]
                if not empty:
                    continue
                action = Action("plan", ("-".join(map(str, plan)), "wall", words[empty[-1]]))
                if action in legal_set:
                    out.append((score + worth - cost, action))
        return out


def request_splashes(text: str) -> str | None:
    """The splashes of a wall tile named in a request ('W:P/R' -> 'P'), None for other tiles."""
    return wall_parts(text)[2] if text.startswith("W:") else None


def _column_words(columns: Sequence[str]) -> list[str]:
    out: list[str] = []
    for c in columns:
        out.append(c if c not in out else f"{c}2")
    return out
