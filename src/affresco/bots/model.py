"""What a bot can work out from a seat's view: paint arithmetic and the board as numbers.

Nothing here reads the engine state: the input is ``game.view(seat)`` plus the static
reference components (blending table, hostel, altar values) and the board geometry.
"""
from __future__ import annotations

from dataclasses import dataclass
import json
from operator import add as _add, sub as _sub
from typing import Any, Mapping

from ..rules import Components, load_components, parse_tile_text, reference
from ..rules.board import COLUMNS, INDEX as SEGMENT, NAMES as SEGMENT_NAMES, SIZE
from ..rules.paints import BASIC, BLENDED, PAINTS, covers

__all__ = ["Paints", "vec", "text", "add", "sub", "cover", "covers", "Numbers", "numbers", "Tile", "Model",
           "SEGMENT", "SEGMENT_NAMES", "parse_tile", "module", "round_start"]

Paints = tuple[int, ...]  # counts in PAINTS order (R Y B O G P K N)
NP = len(PAINTS)
assert NP == 8   # add() and sub() unroll their loops for 8 paints
ZERO: Paints = (0,) * NP

_REF = reference()


class Numbers:
    """The component numbers a bot plays with, from the game's own components (the view's
    ``components``: "reference" or the table in use), never assumed to be the reference's."""

    def __init__(self, comp: Components):
        self.comp = comp
        r = comp.rules
        # output paint index -> the two input paint indices
        self.blend_inputs: dict[int, tuple[int, int]] = {PAINTS.index(out): ins for out, ins in comp.blends.items()}
        self.altar = r["altar"]
        self.cathedral = r["cathedral"]
        self.studio_thalers = r["studio"]["thalers_per_apprentice"]
        self.theater_steps = r["theater"]["mood_per_apprentice"]
        self.blends_per_apprentice = r["workshop"]["blends_per_apprentice"]
        self.final_tiles = r["end"]["final_round_tiles_left"]
        self.thalers_per_vp = r["end"]["thalers_per_vp"]
        self.tile_thalers = r["income"]["thalers_per_tile"]
        self.start_apprentices = comp.apprentices
        self.start_thalers = comp.thalers
        self.spaces = r["action_sheet"]["spaces_per_column"]  # apprentices a column of the action sheet takes
        c = self.cathedral
        # bishop bonus reachable from a distance 0, 1 or 2 (then adjacent after a paid one-step move)
        self.bishop_reach = (c["bishop_on_segment"], c["bishop_adjacent"], c["bishop_adjacent"] - c["bishop_move_cost"])
        self._altar_basic_bonus = {p: self.altar["basic_substitute_bonus"] for p in BLENDED}
        self._modules: dict[str, Any] = {}
        self._altar_memo: dict[tuple[str, bool], int] = {}

    def module(self, name: str):
        """A module's component data in this edition."""
        data = self._modules.get(name)
        if data is None:
            data = self._modules[name] = self.comp.module(name)
        return data

    def bishop_bonus(self, bishop: int, segment: int) -> int:
        d = CHEB[bishop][segment]
        c = self.cathedral
        return c["bishop_on_segment"] if d == 0 else c["bishop_adjacent"] if d == 1 else 0

    def altar_vp(self, paints: str, special: bool = False) -> int:
        """VP of an altar restoration with these three paints (R7); 0 if not a form.  K and N
        (special colours, module 3) count only when that module is in play.  Memoised."""
        key = (paints, special)
        hit = self._altar_memo.get(key)
        if hit is None:
            hit = self._altar_memo[key] = self._altar_vp(paints, special)
        return hit

    def _altar_vp(self, paints: str, special: bool) -> int:
        bonus = self._altar_basic_bonus
        sc: Any = self.module("special_colours") if special else None
        if special:
            bonus = dict(bonus)
            bonus.update(sc.altar_basic)
        best = 0
        if all(paints.count(c) <= 1 for c in BASIC) and all(c in BASIC or c in bonus for c in paints):
            best = self.altar["basic_vp"] + sum(bonus[c] for c in paints if c not in BASIC)
        extra = sc.altar_blend if special else {}
        if all(paints.count(c) <= 1 for c in BLENDED) and all(c in BLENDED or c in extra for c in paints):
            best = max(best, self.altar["blend_vp"] + sum(extra[c] for c in paints if c not in BLENDED))
        return best


_NUMBERS: dict[Any, Numbers] = {}


def numbers(view: Mapping[str, Any] | None = None) -> Numbers:
    """The :class:`Numbers` of the game a view comes from (cached per edition)."""
    table = "reference" if view is None else view.get("components", "reference")
    if table == "reference":
        key: Any = "reference"
    else:
        key = json.dumps(table, sort_keys=True)
    hit = _NUMBERS.get(key)
    if hit is None:
        hit = _NUMBERS[key] = Numbers(_REF if key == "reference" else load_components(table))
    return hit


REFERENCE = numbers()
# output paint index -> the two input paint indices (the reference blending table)
BLEND_INPUTS = REFERENCE.blend_inputs


def module(name: str, view: Mapping[str, Any] | None = None):
    """A module's component data in the edition of ``view``'s game (default: the reference)."""
    return numbers(view).module(name)


def round_start(events) -> int:
    """Index of the current round's ``round_begins`` event in a list of events (0 if none)."""
    for i in range(len(events) - 1, -1, -1):
        if events[i]["kind"] == "round_begins":
            return i
    return 0


_VEC_MEMO: dict[str, Paints] = {}


def vec(paints: str) -> Paints:
    """Counts in PAINTS order of a paints text ('RRY' -> (2, 1, 0, ...)); memoised."""
    hit = _VEC_MEMO.get(paints)
    if hit is not None:
        return hit
    v = [0] * NP
    for c in paints:
        v[PAINTS.index(c)] += 1
    if len(_VEC_MEMO) > 100_000:
        _VEC_MEMO.clear()
    out = _VEC_MEMO[paints] = tuple(v)
    return out


def text(p: Paints) -> str:
    return "".join(c * n for c, n in zip(PAINTS, p))


def add(a: Paints, b: Paints) -> Paints:
    if len(a) == NP == len(b):   # unrolled for the 8 paints: fast in both builds
        return (a[0] + b[0], a[1] + b[1], a[2] + b[2], a[3] + b[3], a[4] + b[4], a[5] + b[5], a[6] + b[6],
                a[7] + b[7])
    return tuple(map(_add, a, b))


def sub(a: Paints, b: Paints) -> Paints:
    if len(a) == NP == len(b):
        return (a[0] - b[0], a[1] - b[1], a[2] - b[2], a[3] - b[3], a[4] - b[4], a[5] - b[5], a[6] - b[6],
                a[7] - b[7])
    return tuple(map(_sub, a, b))


Blends = dict  # output paint index -> (input index, input index)


def _take(rem: list[int], i: int, n: int, blends: Blends, depth: int = 0) -> int | None:
    """Take ``n`` of paint ``i`` from ``rem`` (in place), blending what is missing from its
    inputs (which may be blended themselves).  Returns the number of blends, or None."""
    h = rem[i]
    if h >= n:
        rem[i] = h - n
        return 0
    inputs = blends.get(i)
    if inputs is None or depth > 2:
        return None
    short = n - h
    rem[i] = 0
    a, b = inputs
    x = _take(rem, a, short, blends, depth + 1)
    if x is None:
        return None
    y = _take(rem, b, short, blends, depth + 1)
    if y is None:
        return None
    return short + x + y


_COVER_MEMO: dict = {}
_MISS = object()


def cover(have: Paints, need: "Paints | Tile", blends: Blends | None = None) -> tuple[int, Paints] | None:
    """Can ``have`` pay ``need`` (paints or a tile) if missing paints are first blended
    (``blends``: the reference table unless given)?  Returns (blends needed, paints left) or None.
    Memoised (pure function of its arguments; the memo is emptied when it grows large)."""
    items = need.items if isinstance(need, Tile) else _items(need)
    blends = BLEND_INPUTS if blends is None else blends
    key = (have, items, len(blends))  # the blend tables differ only by the special colours
    hit = _COVER_MEMO.get(key, _MISS)
    if hit is not _MISS:
        return hit
    if len(_COVER_MEMO) > 300_000:
        _COVER_MEMO.clear()
    _COVER_MEMO[key] = out = _cover(have, items, blends)
    return out


def _cover(have: Paints, items, blends: Blends) -> tuple[int, Paints] | None:
    rem = list(have)
    total = 0
    for i, n in items:
        h = rem[i]
        if h >= n:
            rem[i] = h - n
            continue
        made = _take(rem, i, n, blends)
        if made is None:
            return None
        total += made
    return total, tuple(rem)


def _items(need: Paints) -> tuple[tuple[int, int], ...]:
    """The non-zero needs (paint index, count) in paint order."""
    return tuple((i, n) for i, n in enumerate(need) if n)


def _cheb(a: int, b: int) -> int:
    return max(abs(a // SIZE - b // SIZE), abs(a % SIZE - b % SIZE))


CHEB = tuple(tuple(_cheb(a, b) for b in range(SIZE * SIZE)) for a in range(SIZE * SIZE))


@dataclass(frozen=True, slots=True)
class Tile:
    segment: int
    vp: int
    need: Paints
    items: tuple = ()
    splashes: str = ""  # the blended colours on the back (requests module)
    code: int = -1      # the same for tiles needing the same paints (a small int, for memos)

    @classmethod
    def make(cls, segment: int, vp: int, need: Paints, splashes: str | None = None) -> "Tile":
        if splashes is None:
            splashes = "".join(c for c in BLENDED if need[PAINTS.index(c)])
        items = _items(need)
        code = _NEED_CODES.get(items)
        if code is None:
            code = _NEED_CODES[items] = len(_NEED_CODES)
        return cls(segment, vp, need, items, splashes, code)


_NEED_CODES: dict[tuple, int] = {}


def parse_tile(text: str, segment: int = -1) -> Tile:
    """A tile from its view text 'VP:PAINTS' or 'VP:PAINTS/SPLASHES'."""
    vp, paints, splashes = parse_tile_text(text)
    return Tile.make(segment, vp, vec(paints), splashes)


_TILE_MEMO: list[dict[str, Tile]] = [{} for _ in range(SIZE * SIZE)]


def board_tile(segment: int, text: str) -> Tile:
    """The fresco tile ``text`` on ``segment`` (one object per segment and text)."""
    t = _TILE_MEMO[segment].get(text)
    if t is None:
        t = _TILE_MEMO[segment][text] = parse_tile(text, segment)
    return t


class Model:
    """The numbers a bot needs, read from one view."""

    def __init__(self, view: Mapping[str, Any], seat: int):
        # read as dicts (a view is one; another mapping is copied): the compiled build then
        # reads them with the dict's own operations
        self.view: dict[str, Any] = view if type(view) is dict else dict(view)
        self.seat = seat
        self.rules = k = numbers(view)
        figures = view["figures"]
        me = figures[seat]
        self.me: dict[str, Any] = me if type(me) is dict else dict(me)
        self.names = [f["name"] for f in figures]
        self.leonardo = next((i for i, f in enumerate(figures) if f.get("leonardo")), None)
        self.paints: Paints = vec(self.me.get("paints", ""))
        self.thalers: int = self.me.get("thalers", 0)
        self.tiles: list[Tile] = []
        memo = _TILE_MEMO
        segment = 0
        for row in view["fresco"]:
            for t in row:
                if t is not None:
                    tile = memo[segment].get(t)
                    self.tiles.append(tile if tile is not None else board_tile(segment, t))
                segment += 1
        self.bishop = SEGMENT[view["bishop"]]
        self.final = bool(view.get("final_round"))
        # the view's own lists (a Model only reads them)
        self.columns = view["columns"]
        self.hostel = view["hostel"]
        self.mood_display = view["mood_display"]
        self.order = view.get("order") or []
        self.plan = self.me.get("plan")
        special: Any = view.get("special_colours")
        self.special = isinstance(special, dict)   # a dict, not any Mapping: an ABC check is slow
        self.blends: Blends = k.blend_inputs  # shared: copied before a change
        if self.special:
            self.blends = dict(self.blends)
            for out, ins in (special.get("blends") or {}).items():
                parts = ins.split("+")
                if out in PAINTS and len(parts) == 2 and all(p in PAINTS for p in parts):
                    self.blends[PAINTS.index(out)] = (PAINTS.index(parts[0]), PAINTS.index(parts[1]))

        # --- modules (neutral values when a module is not in play) ---------------------
        portraits = view.get("portraits")
        owned = portraits["owned"][seat] if portraits and seat < len(portraits["owned"]) else ()
        self.portraits = portraits
        if owned:
            self.abbot = sum(int(c.get("bishop_bonus", 0)) for c in owned)
            self.sexton_cost = sum(int(c.get("sexton", 0)) for c in owned)
            self.income_extra = sum(int(c.get("income", 0)) for c in owned)
            self.theater_steps = max([int(c["theater"]) for c in owned if c.get("theater")] or [k.theater_steps])
        else:
            self.abbot = self.sexton_cost = self.income_extra = 0
            self.theater_steps = k.theater_steps
        favour = view.get("bishops_favour")
        self.favour_left = favour["tokens_left"] if favour else 0
        scrolls = view.get("scrolls")
        mine = scrolls["mine"] if scrolls else None
        self.scroll_row = mine["row"] - 1 if mine and mine.get("row") else None
        self.scroll_col = COLUMNS.index(mine["column"]) if mine and mine.get("column") else None
        self.requests = view.get("requests")
        events = view.get("events") or ()
        self.round_events = events[round_start(events):]

    # --- derived, for the modules ------------------------------------------------------
    def bonus(self, bishop: int, segment: int) -> int:
        """The bishop bonus this seat gets (the Abbot adds to any bonus)."""
        b = self.rules.bishop_bonus(bishop, segment)
        return b + self.abbot if b else 0

    def done_this_round(self, kind: str, occasion: str | None = None) -> bool:
        """Whether I had an event of ``kind`` this round (a ``score`` event: for ``occasion``)."""
        me = self.seat
        return any(e["kind"] == kind and e.get("figure") == me and (occasion is None or e.get("for") == occasion)
                   for e in self.round_events)

    def altar_vp(self, paints: str) -> int:
        return self.rules.altar_vp(paints, self.special)

    def my_tiles(self) -> list[Tile]:
        return [parse_tile(t) for t in self.me.get("tiles", [])]

    # --- whose decision -----------------------------------------------------------
    def acting_figure(self) -> int | None:
        """The figure whose decision this is (the engine's ``view["deciding"]``)."""
        return self.view.get("deciding")

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
