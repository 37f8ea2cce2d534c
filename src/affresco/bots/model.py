"""What a bot can work out from a seat's view: paint arithmetic and the board as numbers.

Nothing here reads the engine state: the input is ``game.view(seat)`` plus the static
reference components (blending table, hostel, altar values) and the board geometry.
"""
from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Mapping

from ..rules import reference
from ..rules.board import INDEX as SEGMENT, NAMES as SEGMENT_NAMES, SIZE
from ..rules.paints import BASIC, BLENDED, PAINTS

__all__ = ["Paints", "vec", "text", "add", "sub", "cover", "chebyshev", "altar_vp", "Tile", "Model",
           "SEGMENT", "SEGMENT_NAMES"]

Paints = tuple[int, ...]  # counts in PAINTS order (R Y B O G P K N)
NP = len(PAINTS)
ZERO: Paints = (0,) * NP

_REF = reference()
# output paint index -> the two input paint indices (the reference blending table)
BLEND_INPUTS: dict[int, tuple[int, int]] = {PAINTS.index(out): ins for out, ins in _REF.blends.items()}
ALTAR = _REF.rules["altar"]
CATHEDRAL = _REF.rules["cathedral"]
STUDIO_THALERS = _REF.rules["studio"]["thalers_per_apprentice"]
THEATER_STEPS = _REF.rules["theater"]["mood_per_apprentice"]
BLENDS_PER_APPRENTICE = _REF.rules["workshop"]["blends_per_apprentice"]
FINAL_TILES = _REF.rules["end"]["final_round_tiles_left"]
THALERS_PER_VP = _REF.rules["end"]["thalers_per_vp"]


def vec(paints: str) -> Paints:
    v = [0] * NP
    for c in paints:
        v[PAINTS.index(c)] += 1
    return tuple(v)


def text(p: Paints) -> str:
    return "".join(c * n for c, n in zip(PAINTS, p))


def add(a: Paints, b: Paints) -> Paints:
    return tuple(x + y for x, y in zip(a, b))


def sub(a: Paints, b: Paints) -> Paints:
    return tuple(x - y for x, y in zip(a, b))


def cover(have: Paints, need: Paints | "Tile") -> tuple[int, Paints] | None:
    """Can ``have`` pay ``need`` (paints or a tile) if missing blended paints are first
    blended from basic ones?  Returns (blends needed, paints left) or None."""
    items = need.items if isinstance(need, Tile) else _items(need)
    rem = list(have)
    blends = 0
    for i, n, inputs in items:
        h = rem[i]
        if h >= n:
            rem[i] = h - n
            continue
        if inputs is None:
            return None
        short = n - h
        rem[i] = 0
        a, b = inputs
        rem[a] -= short
        rem[b] -= short
        if rem[a] < 0 or rem[b] < 0:
            return None
        blends += short
    return blends, tuple(rem)


def _items(need: Paints) -> tuple[tuple[int, int, tuple[int, int] | None], ...]:
    """The non-zero needs (paint index, count, blend inputs) in paint order."""
    return tuple((i, n, BLEND_INPUTS.get(i)) for i, n in enumerate(need) if n)


def covers(have: Paints, need: Paints) -> bool:
    return all(h >= n for h, n in zip(have, need))


def _cheb(a: int, b: int) -> int:
    return max(abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE))


CHEB = tuple(tuple(_cheb(a, b) for b in range(SIZE * SIZE)) for a in range(SIZE * SIZE))


def chebyshev(a: int, b: int) -> int:
    return CHEB[a][b]


def bishop_bonus(bishop: int, segment: int) -> int:
    d = CHEB[bishop][segment]
    return CATHEDRAL["bishop_on_segment"] if d == 0 else CATHEDRAL["bishop_adjacent"] if d == 1 else 0


def altar_vp(paints: str) -> int:
    """VP of an altar restoration with these three paints (base game, R7); 0 if not a form."""
    best = 0
    if all(paints.count(c) <= 1 for c in BASIC) and all(c in BASIC or c in BLENDED for c in paints):
        best = ALTAR["basic_vp"] + ALTAR["basic_substitute_bonus"] * sum(c in BLENDED for c in paints)
    if sorted(paints) == sorted(BLENDED):
        best = max(best, ALTAR["blend_vp"])
    return best


@dataclass(frozen=True, slots=True)
class Tile:
    segment: int
    vp: int
    need: Paints
    items: tuple = ()

    @classmethod
    def make(cls, segment: int, vp: int, need: Paints) -> "Tile":
        return cls(segment, vp, need, _items(need))


class Model:
    """The numbers a bot needs, read from one view."""

    def __init__(self, view: Mapping[str, Any], seat: int):
        self.view = view
        self.seat = seat
        figures = view["figures"]
        self.me = figures[seat]
        self.names = [f["name"] for f in figures]
        self.leonardo = next((i for i, f in enumerate(figures) if f.get("leonardo")), None)
        self.paints: Paints = vec(self.me.get("paints", ""))
        self.thalers: int = self.me.get("thalers", 0)
        self.tiles: list[Tile] = []
        for r, row in enumerate(view["fresco"]):
            for c, t in enumerate(row):
                if t is not None:
                    vp, need = t.split(":")
                    self.tiles.append(Tile.make(r * SIZE + c, int(vp), vec(need)))
        self.bishop = SEGMENT[view["bishop"]]
        self.final = bool(view.get("final_round"))
        self.columns = list(view["columns"])
        self.hostel = list(view["hostel"])
        self.mood_display = list(view["mood_display"])
        self.order = list(view.get("order") or [])
        self.plan = self.me.get("plan")

    # --- whose decision -----------------------------------------------------------
    def acting_figure(self) -> int | None:
        pending = self.view.get("pending_track")
        name = pending["figure"] if pending else self.view.get("actor")
        return self.names.index(name) if name in self.names else None

    def for_leonardo(self) -> bool:
        fig = self.acting_figure()
        return fig is not None and fig == self.leonardo

    # --- hostel, mood -----------------------------------------------------------------
    def price(self, time: str | None = None) -> int:
        time = time or self.me.get("getup")
        for h in self.hostel:
            if h["time"] == time:
                return h["price"]
        return max(h["price"] for h in self.hostel)

    def mood_after(self, change: int, mood: int | None = None) -> int:
        """Mood-display index (0 = top) after moving ``change`` spaces up."""
        mood = self.me.get("mood", 0) if mood is None else mood
        return max(0, min(len(self.mood_display) - 1, mood - change))

    def zone(self, index: int) -> int:
        return self.mood_display[index]

    # --- order of play ----------------------------------------------------------------
    def later_in_order(self, figure: int, than: int) -> bool:
        order = self.order
        a, b = self.names[figure], self.names[than]
        return a in order and b in order and order.index(a) > order.index(b)

    def plan_of(self, figure: int) -> list[int] | None:
        return self.view["figures"][figure].get("plan")

    def visits(self, figure: int, column: str) -> int:
        plan = self.plan_of(figure)
        if not plan:
            return 0
        return sum(n for col, n in zip(self.columns, plan) if col == column)
