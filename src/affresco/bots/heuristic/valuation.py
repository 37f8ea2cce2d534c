"""What holdings are worth to HeuristicBot: VP to come from paints, Thalers, mood."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ...rules.board import SIZE
from ..model import CHEB, Model, Paints, Tile, _cover
from .weights import Horizon

__all__ = ["Valuation"]

_MISS = object()
_MEMO_LIMIT = 200_000  # entries of a game-long memo before it is emptied
_COVER_ROWS: dict[tuple, dict] = {}  # blending table -> paints -> tile need code -> cover()

class Valuation:
    """Valuation methods of :class:`~affresco.bots.heuristic.HeuristicBot` (``self.w``: its Weights)."""

    _context = None  # (edition numbers, blending table) the game-long memos were made for
    _board: list = []
    memo_limit = _MEMO_LIMIT  # entries of a game-long memo before it is emptied (< 0: every decision)

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
            best = best_tile = left = None
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
                if best is None or score > best:
                    best, best_tile, left = score, t, res[1]
            if best is None:
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
