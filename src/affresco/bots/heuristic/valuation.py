"""What holdings are worth to HeuristicBot: VP to come from paints, Thalers, mood."""
from __future__ import annotations

from typing import Any, Sequence

from ...rules.board import SIZE
from ...rules.paints import PAINTS
from ..base import Bot
from ..model import CHEB, Model, Paints, Tile, _cover
from .weights import DEFAULT_WEIGHTS, Horizon, Weights

__all__ = ["Valuation"]

_MISS = object()
_MEMO_LIMIT = 200_000  # entries of a game-long memo before it is emptied
_COVER_ROWS: dict[tuple, dict] = {}  # blending table -> paints -> tile need code -> cover()

class Valuation(Bot):
    """What holdings are worth: the first layer of :class:`~affresco.bots.heuristic.HeuristicBot`,
    which declares the bot's state (``self.w``: its Weights; the memos).

    The bot's layers are one chain of single inheritance (valuation, modules, bells, wall,
    round simulation, Leonardo, the bot), each using only what the layers below it define:
    the compiled build (mypyc, docs/compiled.md) makes each a native class, which cannot mix
    several classes."""

    w: Weights
    _memo: dict[Any, Any]        # results that depend on the position, for one decision only
    _keys: dict[int, tuple[Sequence[Tile], int]]  # tile-list masks, for one decision only
    _potentials: dict[Any, tuple[float, Paints]]  # potential() results: kept for the game
    _holdings: dict[Any, Any]    # holdings() and best_combo() results: kept for the game
    _covers: dict[Paints, dict[int, Any]]  # cover() results by paints and tile need
    _plans: dict[Any, list[tuple[float, list[int]]]]  # plan results, kept from the get-up choice to the plan
    _context: tuple[Any, dict[int, tuple[int, int]]] | None  # (edition numbers, blending table) of the memos
    _board: list[Tile | None]    # the fresco tile on each segment the memos were made for
    _bishop_future: list[list[float]]  # share of the bishop bonus counted later, by (bishop, segment)
    memo_limit: int              # entries of a game-long memo before it is emptied (< 0: every decision)
    fallbacks: int               # decisions of a kind it does not know (should stay 0)

    def __init__(self, seed: int | str | None = 0, weights: Weights | None = None):
        super().__init__(seed)
        self.w = weights or DEFAULT_WEIGHTS
        self._memo, self._keys = {}, {}
        self._potentials, self._holdings, self._covers = {}, {}, {}
        self._plans = {}
        self._context = None
        self._board = []
        self._bishop_future = []
        self.memo_limit = _MEMO_LIMIT
        self.fallbacks = 0

    def money(self, m: Model, thalers: int, final: bool) -> float:
        if final:
            return float(thalers // m.rules.thalers_per_vp)
        return self.w.thaler * thalers + self.w.thaler_reserve * min(thalers, self.w.reserve)

    def mood_value(self, m: Model, index: int) -> float:
        if m.final:
            return 0.0
        return self.w.mood_zone * m.zone(index) - self.w.mood_step * index

    def incomes_left(self, m: Model) -> float:
        """Expected number of income phases still to come (this round's included)."""
        if m.final:
            return 0.0
        pr = self.w.tiles_per_round
        left = 1.0 + max(0.0, (len(m.tiles) - m.rules.final_tiles) / pr - 1.0)
        if m.portraits is not None:
            left = min(left, max(1.0, sum(m.portraits["deck_left"].values()) / self.w.portraits_per_round))
        return left

    def begin_decision(self, m: Model) -> None:
        """Start a decision on the position of ``m``: the per-decision memos are emptied; the
        memos of pure functions of their key (:meth:`potential`, :meth:`holdings`) are kept
        while the game's constants stay the same (the edition, the blending table and the
        fresco tile on each segment) and emptied when they change or grow large."""
        self._memo, self._keys = {}, {}
        board = self._board
        fresh = self._context is None or self._context[0] is not m.rules or self._context[1] != m.blends \
            or max(len(self._potentials), len(self._holdings)) > self.memo_limit
        if not fresh:
            for t in m.tiles:
                known = board[t.segment]
                if known is not t:
                    if known is not None:
                        fresh = True
                        break
                    board[t.segment] = t
        if fresh:
            self._context = (m.rules, dict(m.blends))
            self._potentials, self._holdings = {}, {}
            # cover() results by paints and tile need: shared by every bot of this process
            # that plays with the same blending table
            table = tuple(sorted(m.blends.items()))
            rows = _COVER_ROWS.get(table)
            if rows is None or len(rows) > self.memo_limit:
                rows = _COVER_ROWS[table] = {}
            self._covers = rows
            board = self._board = [None] * (SIZE * SIZE)
            for t in m.tiles:
                board[t.segment] = t
            reach, bfut = m.rules.bishop_reach, self.w.bishop_future
            # the share of the bishop bonus counted for a later restoration, by (bishop, segment)
            self._bishop_future = [[(bfut * reach[d] if d < 3 else 0.0) for d in row] for row in CHEB]

    def _tiles_key(self, tiles: Sequence[Tile]) -> int:
        """A bit mask of the segments of ``tiles`` (memoised per list object, for one decision)."""
        hit = self._keys.get(id(tiles))
        if hit is not None and hit[0] is tiles:
            return hit[1]
        mask = 0
        for t in tiles:
            mask |= 1 << t.segment
        self._keys[id(tiles)] = (tiles, mask)
        return mask

    def potential(self, m: Model, have: Paints, tiles: Sequence[Tile], bishop: int, hz: Horizon) -> tuple[float, Paints]:
        """VP of the best ``hz.k`` tiles ``have`` could restore one after the other (greedy),
        and the paints left over.  A pure function of its arguments and the game's constants:
        memoised for the game (see :meth:`begin_decision`)."""
        key = (have, self._tiles_key(tiles), bishop, hz)
        hit = self._potentials.get(key)
        if hit is not None:
            return hit
        blends = m.blends
        rows = self._covers
        penalty = self.w.blend_penalty
        future = self._bishop_future
        with_blends = hz.blends
        total = 0.0
        candidates = tiles  # paints only shrink: a tile out of reach stays out of reach
        at = bishop
        for _ in range(hz.k):
            best = 0.0
            best_tile: Tile | None = None
            left = have
            reachable = []
            row = rows.get(have)
            if row is None:
                row = rows[have] = {}
            bonus = future[at]
            for t in candidates:
                res = row.get(t.code, _MISS)
                if res is _MISS:
                    res = row[t.code] = _cover(have, t.items, blends)
                if res is None or (res[0] and not with_blends):
                    continue
                reachable.append(t)
                score = t.vp - penalty * res[0] + bonus[t.segment]
                if best_tile is None or score > best:
                    best, best_tile, left = score, t, res[1]
            if best_tile is None:
                break
            total += best
            have = left
            candidates = [t for t in reachable if t is not best_tile]
            at = best_tile.segment
        out = self._potentials[key] = (total, have)
        return out

    def value(self, m: Model, paints: Paints, thalers: int, tiles: Sequence[Tile], bishop: int, hz: Horizon) -> float:
        """Worth of holding ``paints`` and ``thalers`` with this fresco (VP scored not included)."""
        return self.holdings(m, paints, tiles, bishop, hz) + self.money(m, thalers, hz.final)

    def holdings(self, m: Model, paints: Paints, tiles: Sequence[Tile], bishop: int, hz: Horizon) -> float:
        """Worth of holding ``paints`` (the Thalers apart); memoised like :meth:`potential`."""
        key = (paints, self._tiles_key(tiles), bishop, hz)
        hit = self._holdings.get(key)
        if hit is not None:
            return hit
        pot, rest = self.potential(m, paints, tiles, bishop, hz) if hz.k else (0.0, paints)
        stage = 0.0 if hz.final else min(1.0, max(0.0, (len(tiles) - m.rules.final_tiles) / self.w.piece_fade))
        pieces = sum(rest[:3]) + self.w.blended_piece * sum(rest[3:])
        out = self._holdings[key] = hz.share * pot + self.w.piece * stage * pieces
        return out

    def horizon(self, m: Model) -> Horizon:
        """What paints are good for from the current point of the round."""
        if not m.final:
            return Horizon(self.w.targets, self.w.future, True, False)
        plan = m.plan or [0] * len(m.columns)
        loc = m.view.get("location")
        cathedral = sum(n for col, n in zip(m.columns, plan) if col == "cathedral")
        if loc in (None, "market"):
            return Horizon(min(cathedral, self.w.final_reach), 1.0, True, True)
        if loc == "cathedral":
            col = m.view.get("column")
            left = (m.view.get("visit_left") or 0) + (plan[-1] if col == 1 else 0)
            return Horizon(min(left, self.w.final_reach), 1.0, col == 1, True)
        if loc == "workshop":
            return Horizon(min(plan[-1], self.w.final_reach_late), 1.0, True, True)
        return Horizon(min(plan[-1], self.w.final_reach_late), 1.0, loc != "cathedral", True)  # studio: the second cathedral visit

    def simulate_blends(self, m: Model, paints: Paints, tiles: list[Tile], bishop: int, most: int, hz: Horizon):
        """Blends (at most ``most``) that raise the value of the paints, best first."""
        made: list[str] = []
        current = self.value(m, paints, 0, tiles, bishop, hz)
        for _ in range(most):
            best = None
            for out, (a, b) in m.blends.items():
                if (paints[a] >= 2) if a == b else (paints[a] and paints[b]):
                    p = list(paints)
                    p[a] -= 1
                    p[b] -= 1
                    p[out] += 1
                    v = self.value(m, tuple(p), 0, tiles, bishop, hz)
                    if v > current + 1e-9 and (best is None or v > best[0]):
                        best = (v, tuple(p), PAINTS[out])
            if best is None:
                break
            current, paints = best[0], best[1]
            made.append(best[2])
        return made, paints, current
