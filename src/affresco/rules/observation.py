"""A seat's observation as numbers: what ``view(seat)`` shows, written straight from the state
into a fixed-size float32 vector (docs/envs.md, "The observation vector").

:func:`observation` is for code that reads a position at every decision (learning code,
``affresco.envs``): it costs a fraction of a view, because it builds no dicts or texts.  It
reads exactly what the seat's view shows (R22): the public board, every figure's public
facts, the seat's own paints, Thalers and plan (the others' plans only once revealed), and
each module's part of the seat's view (the modules' own view hooks, so a module's secrets stay
as hidden as in the view).  ``tests/rules/test_observation.py`` checks it with the
perturbation check of the views (another seat's secrets changed, the vector stays the same);
``tests/envs/test_envs_core.py`` checks it equal to the vector made from ``view(seat)`` and to
a fresh game's at every decision of random games.

It is incremental (:class:`Seen`, one per game and encoding, a new game's a copy of its set-up's:
:func:`seen_for`): what every seat sees alike is
written again only where the position's facts differ from the ones it was last written from
(compared by value, so any position of the set-up gives the right numbers), once per position;
each seat's vector is a copy placed from its own figure on, with its own items.  A module's
part is made again only when what it is made from changed since the seat's last vector
(encoding 3: what each part of its slots declares it reads, read only when the module's record
or a ``State`` field it reads moved: the record's stamp, :class:`_Diff`; 1 and 2: the module's
state, its record and the version of one written in place, or a ``State`` field its view hook
reads).

:func:`layout` names the slices (``(name, start, length)``, figures relative to the observer:
the observer, the next seats in seat order, then Leonardo).  The modules' numbers come in two
encodings (:data:`ENCODINGS`): 3, the default, writes each module's numbers into fixed, named
slots (:class:`ModuleSlots`, defined at the end of each module's file, reading the module's
state as its view hook does: no view dict, no hashing); 1 and 2 (one vector: the
environments' encodings 1 and 2 differ in their action space only) hash each module's part of
the view (:func:`hash_part`; a changed part hashed again only in the entries that changed).  A
module without slots is hashed in encoding 3 too.
"""
from __future__ import annotations

import marshal
import zlib
from array import array
from itertools import chain, compress
from operator import attrgetter, is_not, itemgetter, ne
from typing import Any, ClassVar, Iterable

from mypy_extensions import mypyc_attr

from ..errors import ConfigError
from .hooks import Module, ModuleState, _module_of
from .paints import BLENDED, INDEX as _PAINT_INDEX, PAINTS
from .state import FIXED_FIELDS, PLAN, VISITS, State

__all__ = ["PHASES", "MODULE_FEATURES", "PLAN_SCALE", "ENCODINGS", "ENCODING", "Layout", "Seen", "ModuleSlots",
           "SLOTS", "register_slots", "check_encoding", "layout", "modules_from_view", "seen_for", "observation", "observations",
           "observations_joined", "module_block", "hash_part"]

PHASES = ("getup", "plan", "visits", "over")
MODULE_FEATURES = 64      # hashed numbers per module (encodings 1 and 2)
PLAN_SCALE = 3            # a plan's apprentices per column are written divided by this
#: The observation's encodings: 1 and 2 write the same vector (each module's view part hashed
#: into :data:`MODULE_FEATURES` numbers; the environments' encodings 1 and 2 differ in their
#: action space only), 3 writes each module's numbers into fixed, named slots
#: (:class:`ModuleSlots`).  :data:`ENCODING` is the default.
ENCODINGS = (1, 2, 3)
ENCODING = 3
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_CELL = 2 + len(PAINTS)   # per fresco segment: tile present, VP / 24, paints per colour / 3


class Layout:
    """The slices of a set-up's vector: :attr:`slices` ``(name, start, length)``, :attr:`size`,
    and the offsets and index tables the writer needs (figures, hostel and mood sizes, market
    tile types; per observer seat, where each figure's items go)."""

    __slots__ = ("n", "F", "H", "M", "market_types", "market_index", "booths", "modules",
                 "per_figure", "slices", "offsets", "size", "zeros", "rel", "o_phase", "o_round", "o_actor",
                 "o_column", "o_pending", "o_figures", "o_paints", "o_fresco", "o_bishop", "o_leonardo",
                 "o_booths", "o_bag", "o_modules", "booth_blocks", "o_mood", "o_plan", "o_order", "views",
                 "o_to_act", "o_thalers", "o_left", "leo", "rot", "actor_at", "paints_at", "booth_at", "plan_at",
                 "committed_at", "modules_at", "figs", "seats", "at_fig", "at_getup", "at_tiles", "at_mood", "zeros5",
                 "no_plan", "no_tile", "segments", "booth_range", "places", "slotted", "module_at", "module_size",
                 "padded", "template")

    def __init__(self, n: int, figures: int, hostel: int, mood: int, market_types: tuple[str, ...],
                 booths: int, modules: tuple[str, ...], slotted: tuple["ModuleSlots | None", ...] | None = None):
        self.n, self.F, self.H, self.M = n, figures, hostel, mood
        self.market_types = market_types
        self.market_index = {t: i for i, t in enumerate(market_types)}
        self.booths, self.modules = booths, modules
        F = figures
        # within a figure's block: VP (3), get-up (H), tiles (5), mood (M) + 4, plan (6), order (F), Leonardo
        self.o_mood = 3 + hostel + 5
        self.o_plan = self.o_mood + mood + 4
        self.o_order = self.o_plan + 6
        self.per_figure = per = self.o_order + F + 1
        parts = [
            ("seat", n), ("phase", 4), ("round", 3), ("to_act", 1), ("actor", F), ("column", 5),
            ("visit_left", 1), ("pending_track", 1 + F + 2), ("figures", F * self.per_figure),
            ("own_paints", len(PAINTS)), ("own_thalers", 1), ("fresco", 25 * _CELL), ("bishop", 25),
            ("leonardo", 26 if F > n else 0), ("booths", booths * len(market_types)), ("bag", 1),
        ]
        # per module: its slots (encoding 3: ModuleSlots, None for a module without them) or
        # None (hashed); where its numbers start within the modules' block, and their size
        self.slotted = slotted if slotted is not None else (None,) * len(modules)
        module_at, at = [], 0
        for m, slots in zip(modules, self.slotted):
            module_at.append(at)
            if slots is None:
                parts.append((f"module:{m}", MODULE_FEATURES))
                at += MODULE_FEATURES
            else:
                parts += [(f"{m}:{name}", length) for name, length in slots.slices]
                at += slots.size
        self.module_at: tuple[int, ...] = tuple(module_at)
        self.module_size = at
        slices, pos = [], 0
        for name, length in parts:
            slices.append((name, pos, length))
            pos += length
        self.slices: tuple[tuple[str, int, int], ...] = tuple(slices)
        self.offsets = o = {name: start for name, start, _ in slices}
        self.size = pos
        self.zeros = array("f", bytes(4 * pos))
        self.o_phase, self.o_round, self.o_actor, self.o_column = o["phase"], o["round"], o["actor"], o["column"]
        self.o_pending, self.o_figures, self.o_paints, self.o_fresco = o["pending_track"], o["figures"], o["own_paints"], o["fresco"]
        self.o_bishop, self.o_leonardo, self.o_booths, self.o_bag = o["bishop"], o["leonardo"], o["booths"], o["bag"]
        self.o_modules = o["bag"] + 1      # the modules' numbers: from here to the end
        self.o_to_act, self.o_thalers, self.o_left = o["to_act"], o["own_thalers"], o["visit_left"]
        self.leo = F > n
        self.booth_blocks: dict[tuple, array] = {}
        # figure -> its place in the observer's order, per observer seat
        self.rel = tuple(tuple([(f - seat) % n for f in range(n)] + list(range(n, F))) for seat in range(n))
        base = self.o_figures
        # per observer seat: the figures block placed from its own figure on (None: seat 0, as
        # written), as (to, from, to, from) slices of the vector in seat order
        self.rot: tuple[tuple[slice, slice, slice, slice] | None, ...] = tuple(
            None if seat == 0 else (slice(base, base + (n - seat) * per), slice(base + seat * per, base + n * per),
                                    slice(base + (n - seat) * per, base + n * per), slice(base, base + seat * per))
            for seat in range(n))
        self.actor_at = tuple(tuple(self.o_actor + r for r in rel) for rel in self.rel)   # per seat, per figure
        self.paints_at = slice(self.o_paints, self.o_paints + len(PAINTS))
        T = len(market_types)
        self.booth_at = tuple(slice(self.o_booths + i * T, self.o_booths + (i + 1) * T) for i in range(booths))
        self.plan_at = tuple(slice(base + f * per + self.o_plan, base + f * per + self.o_plan + 6) for f in range(F))
        self.committed_at = tuple(base + f * per + self.o_mood + mood + 3 for f in range(F))
        self.modules_at = slice(self.o_modules, pos)
        # per copy j of a joined array and observer seat: where the seat's own items go
        self.places = tuple(tuple(self._seat_place(seat, j * pos) for seat in range(n)) for j in range(n))
        self.figs = range(F)
        self.seats = range(n)
        self.at_fig = tuple(base + f * per for f in range(F))                  # VP
        self.at_getup = tuple(base + f * per + 3 for f in range(F))            # get-up one-hot
        self.at_tiles = tuple(base + f * per + 3 + hostel for f in range(F))   # tiles
        self.at_mood = tuple(base + f * per + self.o_mood for f in range(n))   # mood one-hot, then 3 numbers
        self.zeros5 = array("f", bytes(20))
        self.no_plan = array("f", bytes(24))                # a plan not known: 6 zeros
        self.no_tile = array("f", bytes(4 * _CELL))         # a fresco segment without a tile
        self.segments = range(25)
        self.booth_range = range(booths)
        self.views: tuple = (None, (), None, None)   # (hook table, its modules' view entries, _Keys, _Diff): _view_entries
        self.template: Seen | None = None   # what a new game's Seen starts from (seen_for)
        self.padded: dict[tuple[int, int], Any] = {}   # (pad, copies) -> their places; (pad, -1) -> pad zeros

    def padding(self, pad: int) -> array:
        """``pad`` zeros (kept)."""
        zeros = self.padded.get((pad, -1))
        if zeros is None:
            zeros = self.padded[pad, -1] = array("f", bytes(4 * pad))
        return zeros

    def padded_places(self, pad: int, copies: int) -> tuple:
        """:attr:`places` for ``copies`` copies of the vector, each followed by ``pad`` numbers
        (kept)."""
        places = self.padded.get((pad, copies))
        if places is None:
            if len(self.padded) > 64:
                self.padded.clear()
            places = self.padded[pad, copies] = tuple(tuple(self._seat_place(seat, j * (self.size + pad))
                                                            for seat in range(self.n)) for j in range(copies))
        return places

    def _seat_place(self, seat: int, o: int) -> tuple:
        """Where seat ``seat``'s copy at offset ``o`` of a joined array gets its own items
        (:func:`_place`), each index or slice shifted by ``o``."""
        def at(sl: slice) -> slice:
            return slice(sl.start + o, sl.stop + o)
        rot = self.rot[seat]
        return (None if rot is None else (at(rot[0]), rot[1], at(rot[2]), rot[3]), o + seat, o + self.o_to_act,
                tuple(o + a for a in self.actor_at[seat]), o + self.o_pending, self.rel[seat],
                at(self.plan_at[0]), o + self.o_leonardo + 25 if self.leo else -1, at(self.paints_at),
                o + self.o_thalers, at(self.modules_at) if self.modules else None)


def _type_key(t: str):
    return -len(t), [PAINTS.index(c) for c in t]


_LAYOUTS: dict[tuple, Layout] = {}
_LAST: tuple = (None, None, None, None, None)   # the last call's set-up (components, modules, n), encoding, layout
_FLOW = None


def _load_flow():
    """rules.flow, imported on first use (it imports this module's importers)."""
    global _FLOW
    from . import flow
    _FLOW = flow
    return flow


def layout(s: State, encoding: int = ENCODING) -> Layout:
    """The layout of ``s``'s set-up (player count, modules, components) in ``encoding``
    (:data:`ENCODINGS`; 1 and 2 are the same).  Rule options never change it: an option is a
    fact written into it (e.g. ``special_colours:on_fresco``)."""
    global _LAST
    last = _LAST
    if last[0] is s.comp and last[1] is s.modules and last[2] == s.n and last[3] == encoding:
        return last[4]
    slotted = check_encoding(encoding) == 3
    key = (s.n, s.modules, s.comp.digest, slotted)
    L = _LAYOUTS.get(key)
    if L is None:
        comp, n = s.comp, s.n
        removed = set(comp.removed_for_3) if n == 3 else set()
        types = tuple(sorted({t.paints for i, t in enumerate(comp.market_tiles) if i not in removed}, key=_type_key))
        slots = None
        if slotted:
            slots = tuple(None if m not in SLOTS else SLOTS[m](s.hooks.named[m], n, len(s.pos)) for m in s.modules)
        L = _LAYOUTS[key] = Layout(n, len(s.pos), len(comp.hostel), len(comp.mood_spaces), types,
                                   len(comp.booths[n]), tuple(s.modules), slots)
    _LAST = (s.comp, s.modules, s.n, encoding, L)
    return L


def check_encoding(encoding: Any) -> int:
    """``encoding`` if it is one of :data:`ENCODINGS`, else ConfigError."""
    if type(encoding) is not int or encoding not in ENCODINGS:
        raise ConfigError(f"encoding must be one of {', '.join(map(str, ENCODINGS))}, not {encoding!r}")
    return encoding


class Seen:
    """What a game's observations were last written from, so that each rewrites only what
    changed (a :class:`~affresco.rules.game.Game` keeps one).  :attr:`x` holds what every
    seat sees alike, figures in seat order (the players' plans hidden while planning), with
    copies of the facts it was written from, one per item (a fact that differs rewrites its
    own numbers only); it is brought up to date once per position (``history``,
    ``nactions``) and every fact is compared by value (an immutable one, such as a booth's
    tiles or a figure's tiles, by identity), so any position of the set-up gives the right
    numbers.  :attr:`seats` keeps each seat's module parts.  The vectors handed out are
    copies."""

    __slots__ = ("L", "x", "xm", "hist", "nact", "phase", "round", "final", "side2", "col", "left", "bishop", "leo",
                 "bag", "pos", "getup", "tiles", "hide", "plan", "order", "mood", "neutral", "aside", "apprentices",
                 "fresco", "booths", "tile_sums",
                 "seats", "keys", "made", "group", "gate", "counted_from")
    # (the slots' types: both ways of making a Seen assign them)
    L: Layout
    x: array
    xm: Any
    nact: int
    round: int
    col: int
    left: float
    bishop: int
    leo: int
    bag: int
    hide: bool
    hist: Any
    phase: str | None
    final: Any
    side2: Any
    pos: list
    getup: list
    tiles: list
    tile_sums: list[list[int]]
    plan: list
    order: tuple | None
    mood: list
    neutral: list
    aside: list
    apprentices: list
    gate: tuple
    counted_from: Any
    fresco: list
    booths: list
    seats: list[list[Any]]
    keys: tuple | None
    made: dict[int, Any] | None
    group: tuple

    def __init__(self, L: Layout, start: "Seen | None" = None):
        self.L = L
        if start is not None:       # a copy of start (copy)
            self.x = start.x * 1
            self.xm = memoryview(self.x)
            self.hist, self.nact = self, -1
            self.phase, self.round, self.final, self.side2 = start.phase, start.round, start.final, start.side2
            self.col, self.left, self.bishop, self.leo, self.bag = start.col, start.left, start.bishop, start.leo, start.bag
            self.pos, self.getup, self.tiles, self.plan = start.pos[:], start.getup[:], start.tiles[:], start.plan[:]
            self.tile_sums = [sums[:] for sums in start.tile_sums]
            self.hide, self.order, self.mood = start.hide, start.order, start.mood[:]
            self.neutral, self.aside, self.apprentices = start.neutral[:], start.aside[:], start.apprentices[:]
            self.gate, self.counted_from = start.gate, start.counted_from
            self.fresco, self.booths = start.fresco[:], start.booths[:]
            self.seats = []
            for seat, (numbers, last, was, _, written, keys, _, _) in enumerate(start.seats):
                a = numbers * 1
                xm = memoryview(a)
                w = None if written is None else written[:]
                self.seats.append([a, dict(last), was, xm, w, None if keys is None else keys[:], None,
                                   None if w is None else (w, xm, seat)])
            self.keys = self.made = None
            self.group = ()
            return
        x = self.x = L.zeros * 1
        # x's numbers written through a memoryview (format 'f'): its stores are cheaper than the array's
        # (no argument parsing); the writers below take it (typed Any: typeshed's memoryview takes ints)
        self.xm = memoryview(x)
        per, base = L.per_figure, L.o_figures
        for f in range(L.n, L.F):                 # Leonardo's flag
            x[base + f * per + L.o_order + L.F] = 1.0
        # the position written: (history, actions applied); a new Seen has written none
        self.hist = self
        self.nact = -1
        # the facts x was written from (None: not written yet; the start values below are the zeros' facts)
        self.phase = None
        self.round = -1
        self.final = None
        self.side2 = None
        self.col = -1                            # the column visited (-1: none)
        self.left = 0.0                          # actions left in the visit / 6
        self.bishop = -1
        self.leo = -1
        self.bag = -1
        # per-figure facts: copies, updated in place (_UNSET differs from every fact: written first)
        F, n = L.F, L.n
        self.pos = [_UNSET] * F
        self.getup = [-1] * F                    # -1: no get-up time (none written)
        self.tiles = [_UNSET] * F
        self.tile_sums = [[0] * 5 for _ in range(F)]   # per figure: _write_tiles' sums
        self.hide = False
        self.plan = [_UNSET] * F
        self.order = None
        self.mood = [-1] * n                     # -1: no mood written
        self.neutral = [_UNSET] * n
        self.aside = [_UNSET] * n
        self.apprentices = [_UNSET] * n          # where hooks change the count
        self.gate = (None, None)                 # (hook table, what its apprentices hooks read: _apprentices_gate)
        self.counted_from = _UNSET               # what the counts were last made from
        self.fresco = [_UNSET] * 25
        self.booths = [_UNSET] * L.booths
        # per seat: its modules' numbers (one array), per hashed module what they were made from,
        # the hashed modules' keys they were made from, the numbers as a memoryview, per slot part
        # the fact written, the slot parts' keys and stamps they were made from (_Diff), the call
        # for several seats whose update brought them up to date (its ``made``), and (facts written,
        # numbers as a memoryview, seat) as a follower of another seat's update (_write_modules)
        self.seats = [[a, {}, None, memoryview(a), None, None, None, None] for a in
                      [array("f", bytes(4 * L.module_size)) for _ in range(L.n)]]
        self.keys = None                         # the hashed modules' keys at this position (_Keys)
        # while several seats look at one position at once: the modules' facts made at it that
        # do not depend on the seat, by part (_write_modules); None: one seat looks
        self.made = None
        # during such a call: its seats (a seat's update brings the others' whose keys were its own up
        # to date too: the same changes; _write_modules)
        self.group = ()

    def copy(self) -> "Seen":
        """A copy of its own: the numbers and every copy of a fact copied, the facts themselves
        (immutable) shared; of no position (its next look brings it up to one)."""
        return Seen(self.L, self)


def seen_for(s: State, encoding: int) -> Seen:
    """A :class:`Seen` for a game of ``s``'s set-up in ``encoding``: a copy of the set-up's
    template, a Seen brought up to the first position it was asked for (``s``'s, for every
    seat).  Its facts are compared by value at the game's first look like at any other, so a
    new game (a clone, a reloaded copy) writes again only what differs from the template's
    position, not every number."""
    L = layout(s, encoding)
    t = L.template
    if t is None:
        t = Seen(L)
        observations(s, L.seats, t)
        L.template = t
    return t.copy()


def observation(s: State, seat: int, seen: Seen) -> array:
    """The seat's vector (a new ``array('f')`` of :func:`layout`'s size), from what its view
    shows (module doc), made from ``seen`` (:class:`Seen`, for positions of one set-up): what
    every seat sees alike is brought up to date once per position, then placed from the
    seat's own figure on, with the seat's own items."""
    L = seen.L
    if seen.hist is not s.history or seen.nact != s.nactions:
        _seen_by_all(s, seen, L)
    cx = seen.x
    x = cx * 1
    acting = s.acting
    if acting is None:
        acting = (_FLOW or _load_flow()).to_act(s)
    _place(s, seat, seen, x, cx, L.places[0][seat], acting)
    return x


def observations(s: State, seats: Iterable[int], seen: Seen) -> list[array]:
    """:func:`observation` of each of ``seats`` at this position (what every seat sees alike
    brought up to date once, the modules' facts that do not depend on the seat made once)."""
    seats = tuple(seats)
    seen.made = {}
    seen.group = seats
    try:
        return [observation(s, seat, seen) for seat in seats]
    finally:
        seen.made = None
        seen.group = ()


def observations_joined(s: State, seats: Iterable[int], seen: Seen, pad: int = 0) -> array:
    """:func:`observations` of ``seats`` back to back in one array (``len(seats)`` times
    :func:`layout`'s size, each followed by ``pad`` zeros: room for a caller's own numbers):
    one copy of what every seat sees alike per seat, made at once, then each placed from its
    seat's own figure on, with the seat's own items."""
    L = seen.L
    if seen.hist is not s.history or seen.nact != s.nactions:
        _seen_by_all(s, seen, L)
    seats = tuple(seats)
    cx = seen.x
    acting = s.acting
    if acting is None:
        acting = (_FLOW or _load_flow()).to_act(s)
    k = len(seats)
    if pad:
        x = (cx + L.padding(pad)) * k
        places = L.padded_places(pad, k)
    else:
        x = cx * k
        # (a seat asked more than once: places for every copy)
        places = L.places if k <= L.n else L.padded_places(0, k)
    if not L.modules:                  # (made and group: the modules' numbers only)
        for j, seat in enumerate(seats):
            _place(s, seat, seen, x, cx, places[j][seat], acting)
        return x
    seen.made = {}
    seen.group = seats
    try:
        for j, seat in enumerate(seats):
            _place(s, seat, seen, x, cx, places[j][seat], acting)
    finally:
        seen.made = None
        seen.group = ()
    return x


def _place(s: State, seat: int, seen: Seen, x: array, cx: array, place: tuple, acting: tuple) -> None:
    """Make ``x``'s copy of ``cx`` at ``place`` (:attr:`Layout.places`) the seat's: its figure
    first, then the next seats', then Leonardo's, and the seat's own items."""
    rot, at_seat, at_to_act, actor_at, at_pending, rel, at_plan, at_leo, at_paints, at_thalers, at_modules = place
    if rot is not None:
        x[rot[0]] = cx[rot[1]]
        x[rot[2]] = cx[rot[3]]
    x[at_seat] = 1.0
    if seat in acting:
        x[at_to_act] = 1.0
    actor = s.actor
    if actor >= 0:
        x[actor_at[actor]] = 1.0
    pending = s.pending
    if pending is not None:
        x[at_pending] = 1.0
        x[at_pending + 1 + rel[pending[0]]] = 1.0
        F = len(rel)
        x[at_pending + 1 + F] = pending[1] / 50
        x[at_pending + 2 + F] = pending[2] / 50
    if seen.hide:
        plan = s.plan[seat]
        if plan is not None:            # the seat's own plan, hidden from the others
            x[at_plan] = _plan_block(plan)
    if s.leo_ctrl == seat and at_leo >= 0:
        x[at_leo] = 1.0
    paints = s.paints[seat]          # an immutable tuple of counts, replaced on change
    block = _PAINTS.get(paints)
    x[at_paints] = block if block is not None else _paints_block(paints)
    x[at_thalers] = s.thalers[seat] / 30
    if at_modules is not None:
        x[at_modules] = _write_modules(s, seen, seat)


def _seen_by_all(s: State, r: Seen, L: Layout) -> None:
    """Bring :attr:`Seen.x` up to the position ``s``: each fact that differs from the one it
    was written from is written again (most decisions change a few).  A list of per-figure
    facts is compared whole (in C), then, when it differs, figure by figure in a loop here
    (2-5 figures: cheaper than iterator helpers), and its copy is updated in place."""
    x = r.xm
    r.hist = s.history
    r.nact = s.nactions
    r.keys = None
    phase = s.phase
    if phase != r.phase:
        if r.phase is not None:
            x[L.o_phase + _PHASE_INDEX[r.phase]] = 0.0
        x[L.o_phase + _PHASE_INDEX[phase]] = 1.0
        r.phase = phase
    if s.round != r.round or s.final != r.final or s.side2 != r.side2:
        p = L.o_round
        x[p] = s.round / 10
        x[p + 1] = 1.0 if s.final else 0.0
        x[p + 2] = 1.0 if s.side2 else 0.0
        r.round, r.final, r.side2 = s.round, s.final, s.side2
    if phase == VISITS:
        col = s.loc
        if not 0 <= col < 5:
            col = -1
        left = s.left / 6 if s.actor >= 0 else 0.0
    else:
        col, left = -1, 0.0
    if col != r.col:
        if r.col >= 0:
            x[L.o_column + r.col] = 0.0
        if col >= 0:
            x[L.o_column + col] = 1.0
        r.col = col
    if left != r.left:
        x[L.o_left] = r.left = left
    bishop = s.bishop
    if bishop != r.bishop:
        if r.bishop >= 0:
            x[L.o_bishop + r.bishop] = 0.0
        x[L.o_bishop + bishop] = 1.0
        r.bishop = bishop
    if L.leo and s.leo_pos != r.leo:
        p = L.o_leonardo
        if r.leo >= 0:
            x[p + r.leo] = 0.0
        if s.leo_pos >= 0:
            x[p + s.leo_pos] = 1.0
        r.leo = s.leo_pos
    bag = len(s.bag)
    if bag != r.bag:
        r.bag = bag
        x[L.o_bag] = bag / 40
    now: Any = s.pos
    old: list = r.pos
    if now != old:                          # VP / 50, on a start space, start space / 5
        for f in L.figs:
            v = now[f]
            if v != old[f]:
                old[f] = v
                p = L.at_fig[f]
                if v > 0:                   # on the VP track
                    x[p] = v / 50
                    x[p + 1] = x[p + 2] = 0.0
                else:                       # on a start space
                    x[p] = 0.0
                    x[p + 1] = 1.0
                    x[p + 2] = (v + 10) / 5
    now = s.getup
    if now != r.getup:                      # get-up time, one-hot (-1: none)
        _write_one_hots(x, now, r.getup, L.at_getup, L.figs)
    now = s.tiles
    old = r.tiles
    if now != old:                          # tiles / 10, tile VP / 50, O/G/P splashes / 5
        for f in L.figs:
            v = now[f]
            was = old[f]
            if v is not was:                # an immutable tuple, replaced on change
                p = L.at_tiles[f]
                _write_tiles(x, p, v, was, r.tile_sums[f])
                old[f] = v
    hide = phase == PLAN
    now = s.plan
    old = r.plan
    if hide != r.hide:                      # every plan made or shown before is written again
        r.hide = hide
        for f in L.figs:
            v = now[f]
            if v is not None or old[f] is not None:
                old[f] = v
                _write_plan(x, L, f, v, hide)
    elif now != old:
        for f in L.figs:
            v = now[f]
            if v != old[f]:
                old[f] = v
                _write_plan(x, L, f, v, hide)
    now = s.order
    if now != r.order:
        _write_order(x, L, now, r.order)
        r.order = now
    now = s.mood
    if now != r.mood:                       # the players' mood, one-hot (-1: none written)
        _write_one_hots(x, now, r.mood, L.at_mood, L.seats)
    counted = s.hooks.apprentices
    if counted:                             # hooks change the counts: counted again when what they read changed
        gate = r.gate
        if gate[0] is not s.hooks:
            gate = r.gate = (s.hooks, _apprentices_gate(s))
        key = gate[1](s.mods) if gate[1] is not None else _UNSET
        if key is _UNSET or key != r.counted_from or s.neutral != r.neutral or s.aside != r.aside:
            _write_apprentices(s, x, L, r, [s.apprentices(f) for f in L.seats])
            r.counted_from = key
    elif s.neutral != r.neutral or s.aside != r.aside:
        _write_apprentices(s, x, L, r, None)
    now = s.fresco
    old = r.fresco
    if now != old:                          # per segment: tile present, VP / 24, paints per colour / 3
        o = L.o_fresco
        for i in compress(L.segments, map(is_not, old, now)):
            t = old[i] = now[i]
            p = o + i * _CELL
            x[p:p + _CELL] = L.no_tile if t is None else _segment(t)
    now = s.booths
    old = r.booths
    if now != old:                          # a booth's tiles: an immutable tuple
        for i in compress(L.booth_range, map(is_not, old, now)):
            t = old[i] = now[i]
            x[L.booth_at[i]] = _booth_block(L, t)


def _apprentices_gate(s: State) -> Any:
    """What the ``apprentices`` hooks of ``s``'s set-up read (:attr:`ModuleSlots.apprentices_reads`
    of their modules' records), as a getter of ``State.mods`` (compared with its last value), or
    None when a hook's module does not declare it (the counts made at every position)."""
    reads = []
    for hook in s.hooks.apprentices:
        name = _module_of(hook).name
        slots = SLOTS.get(name)
        fields = None if slots is None else slots.apprentices_reads
        if not fields:
            return None
        reads.append((name, attrgetter(*fields)))
    if len(reads) == 1:
        name, get = reads[0]
        return lambda mods: get(mods[name])
    return lambda mods: tuple([get(mods[name]) for name, get in reads])


def _write_one_hots(x: Any, now: list, old: list, at: tuple, figures: range) -> None:
    """A one-hot per figure (its value: the place from ``at[f]`` on; -1: none), where ``now``
    differs from the copy ``old`` (updated in place)."""
    for f in figures:
        v = now[f]
        w = old[f]
        if v != w:
            old[f] = v
            p = at[f]
            if w >= 0:
                x[p + w] = 0.0
            if v >= 0:
                x[p + v] = 1.0


def _write_plan(x: Any, L: Layout, f: int, plan: Any, hide: bool) -> None:
    """A figure's plan as every seat sees it: a player's 'plan committed' flag, and its plan
    once revealed (Leonardo's always): known, then apprentices per column / 3."""
    if f < L.n:
        x[L.committed_at[f]] = 0.0 if plan is None else 1.0
        if hide:
            plan = None
    x[L.plan_at[f]] = L.no_plan if plan is None else _plan_block(plan)


def _write_order(x: Any, L: Layout, now: tuple, old: tuple | None) -> None:
    """Each figure's position in the action order, one-hot."""
    per, p = L.per_figure, L.o_figures + L.o_order
    if old is not None:
        for i, f in enumerate(old):
            x[p + f * per + i] = 0.0
    for i, f in enumerate(now):
        x[p + f * per + i] = 1.0


def _write_apprentices(s: State, x: Any, L: Layout, r: Seen, apprentices: list | None) -> None:
    """The players' neutral apprentice, apprentice set aside and apprentices / 6, where they
    changed (``apprentices``: the players' counts where hooks change them, else None: made
    from the neutral and set-aside ones), and their copies in ``r``."""
    M = L.M
    neutral, aside = s.neutral, s.aside
    on, oa, oc = r.neutral, r.aside, r.apprentices
    for f in L.seats:
        if neutral[f] == on[f] and aside[f] == oa[f] and (apprentices is None or apprentices[f] == oc[f]):
            continue
        p = L.at_mood[f] + M
        x[p] = 1.0 if neutral[f] else 0.0
        x[p + 1] = 1.0 if aside[f] else 0.0
        x[p + 2] = (apprentices[f] if apprentices is not None else s.apprentices(f)) / 6
        on[f], oa[f] = neutral[f], aside[f]
        if apprentices is not None:
            oc[f] = apprentices[f]


class _Keys:
    """How :func:`_write_modules` reads the hashed modules' key (``read(state, state.mods)``, one
    function made for the set-up: attribute and item reads, about a third of the cost of the
    same reads through ``map`` and ``operator`` getters), one flat tuple: the records of the
    hashed modules with a declared view hook and a record (immutable ones are replaced on
    change, so compared by identity), the versions of those written in place (a
    :class:`~affresco.rules.hooks.ModuleState`), then the ``State`` fields any of them reads
    (``owners``: per place, the hashed modules that read it; ``own``: per module its own
    places' getter, None: no place, its part made once; a module whose reads are not declared
    makes every part again at every observation, ``undeclared``), made once per position for
    the seats that look at it (:attr:`Seen.keys`).  Which modules keep a record, and of which
    kind, is the set-up's (each module's set-up makes it)."""

    def __init__(self, entries: tuple, s: State) -> None:
        hashed = [i for i, e in enumerate(entries) if e[3] is None]
        declared = [i for i in hashed if entries[i][1] is not None and entries[i][2] is not None]
        self.undeclared = any(entries[i][1] is not None and entries[i][2] is None for i in hashed)
        held = [i for i in declared if entries[i][0] in s.mods]
        stamped = [i for i in held if isinstance(s.mods[entries[i][0]], ModuleState)]
        reads = [entries[i][2] for i in declared]
        read = sorted({f for r in reads for f in r})
        # (names of modules and State fields, from their declarations: a function of reads only;
        # its globals given, as compiled code has no frame of its own to lend)
        assert all(f.isidentifier() for f in read), read
        lists = {f for f in read if type(getattr(s, f)) is list}     # written in place: kept as tuples
        d, v = len(held), len(stamped)
        items = [f"m[{entries[i][0]!r}]" for i in held] + [f"m[{entries[i][0]!r}].version" for i in stamped] \
            + [f"tuple(s.{f})" if f in lists else f"s.{f}" for f in read]
        src = f"def read(s, m):\n    return ({''.join(x + ', ' for x in items)})\n"
        space: dict[str, Any] = {"tuple": tuple}
        exec(src, space)
        self.read: Any = space["read"]
        at = {f: d + v + j for j, f in enumerate(read)}
        owners: list[list[int]] = [[] for _ in range(d + v + len(at))]
        self.own: list[Any] = [None] * len(entries)
        for i, r in zip(declared, reads):
            places = ([held.index(i)] if i in held else []) + ([d + stamped.index(i)] if i in stamped else []) \
                + [at[f] for f in r]
            for q in places:
                owners[q].append(i)
            self.own[i] = itemgetter(*places) if places else None
        self.owners = tuple(tuple(o) for o in owners)
        self.hashed = tuple(i for i in hashed if entries[i][1] is not None)
        self.places = range(len(owners))


#: the State fields fixed for the game (shared by clones, never replaced): the slot parts that
#: read them are made again when one of them is another object (one flag for all)
_FIXED = frozenset(FIXED_FIELDS)


class _Diff:
    """How a seat's slot parts (:class:`ModuleSlots`, encoding 3) are brought up to date:
    ``one(state, state.mods, keys, facts, numbers, seat)``, a function generated for the set-up,
    straight-line code per part (no per-part calls or iterator passes); ``many(..., made, fol)``
    the same for a seat of a call for several, writing each part it changes for its followers
    too (``fol``: the call's other seats whose keys were its own, so the same parts changed:
    their facts and numbers, without reading or comparing anything again).  Each part's
    values (what it declares it reads, :attr:`ModuleSlots.part_reads`) are read only behind
    stamps: its module's record unchanged since the seat's last vector (the same object and, for
    a :class:`~affresco.rules.hooks.ModuleState`, the same ``version``, which
    :meth:`~affresco.rules.hooks.Module.own` counts at every write; any other record is
    immutable, replaced on change: ``State``) and the ``State`` fields it reads unchanged
    (compared once per call; those fixed for the game, :data:`_FIXED`, by identity in one flag;
    a field no other part reads, the part's key alone, not flagged: the part's own compare is
    the same) leave the part as it was, its values not read.  Otherwise its key
    (its values: one read's value, or their tuple; a ``State`` list as a tuple) is compared with
    the one the seat's last vector was made from (``keys``, per seat: per part its key, then the
    stamps, updated in place); a changed key makes the part's fact (its maker; a fact that does
    not depend on the seat once per position for the seats that look at it at once, ``made``)
    and, when it differs from the one last written (``facts``), its numbers are written.  So a
    look costs work in proportion to the records and fields that changed, not to the parts."""

    def __init__(self, entries: tuple, s: State) -> None:
        slotted = [e for e in entries if e[3] is not None]
        parts = [(e, q, r) for e in slotted for q, r in enumerate(e[3].part_reads)]
        P = len(parts)
        # (names of modules, their record fields and State fields, from their declarations: a
        # function of reads only; its globals given, as compiled code has no frame of its own to lend)
        assert all(f.replace(".", "_").isidentifier() for _, _, r in parts for f in r), parts
        fields = sorted({f for _, _, r in parts for f in r if not f.startswith("m") and f != "seat"})
        lists = {f for f in fields if type(getattr(s, f)) is list}      # written in place: kept as copies
        at = P                      # the stamps' places in a seat's keys, after the parts'
        flag: dict[str, str] = {}
        lines = []
        fixed = [f for f in fields if f in _FIXED]
        if fixed:                   # the game's own (State's doc): one flag for all, by identity
            lines += [f"    c_fixed = {' or '.join(f's.{f} is not k[{at + j}]' for j, f in enumerate(fixed))}",
                      f"    if c_fixed: {'; '.join(f'k[{at + j}] = s.{f}' for j, f in enumerate(fixed))}"]
            flag.update((f, "c_fixed") for f in fixed)
            at += len(fixed)
        # a field read by no part but its own (the part's key that field alone): no flag, its part's
        # own compare is the same
        alone = {f for f in fields if f not in _FIXED
                 and all(set(r) <= {f, "seat"} for _, _, r in parts if f in r)}
        for f in fields:            # per State field read: changed since the seat's last vector?
            if f in _FIXED or f in alone:
                continue
            lines += [f"    v = s.{f}", f"    c_{f} = v is not k[{at}] and v != k[{at}]",
                      f"    if c_{f}: k[{at}] = {'v[:]' if f in lists else 'v'}"]
            flag[f] = f"c_{f}"
            at += 1
        gate: dict[str, tuple[str, str]] = {}   # module name -> its record's stamp flag, the record
        for i, e in enumerate(slotted):
            name = e[0]
            if not any(f.startswith("m") for r in e[3].part_reads for f in r):
                continue
            record = s.mods[name]
            lines.append(f"    r{i} = m[{name!r}]")
            if isinstance(record, ModuleState):
                lines += [f"    g{i} = r{i} is not k[{at}] or r{i}.version != k[{at + 1}]",
                          f"    if g{i}: k[{at}] = r{i}; k[{at + 1}] = r{i}.version"]
                at += 2
            else:                                 # immutable (State's doc): replaced on change
                lines += [f"    g{i} = r{i} is not k[{at}]", f"    if g{i}: k[{at}] = r{i}"]
                at += 1
            gate[name] = (f"g{i}", f"r{i}")
        space: dict[str, Any] = {"tuple": tuple, "_UNSET": _UNSET}
        conds: dict[str, list[int]] = {}       # per stamps' condition, its parts
        for q, (e, j, reads) in enumerate(parts):
            flags = sorted({gate[e[0]][0] if f.startswith("m") else flag[f] for f in reads if f != "seat"
                            and f not in alone})
            conds.setdefault(" or ".join(flags) if flags else "" if alone & set(reads) else f"k[{q}] is _UNSET",
                             []).append(q)
            space[f"z{q}"], space[f"w{q}"], space[f"m{q}"] = e[3].part_zeros[j], e[3].writers[j], e[3].makers[j]

        def part(q: int, many: bool) -> list[str]:
            """Part ``q``'s code: for one seat, or (``many``) for the first of several seats (its
            followers' numbers written too: ``fol``, per follower its facts written, numbers and
            seat; its seat-free facts kept in ``made`` for the other seats of the call)."""
            e, j, reads = parts[q]
            rec = gate.get(e[0], ("", ""))[1]
            got = [rec if f == "m" else f"{rec}.{f[2:]}" if f.startswith("m.") else
                   f"tuple(s.{f})" if f in lists else f"s.{f}" for f in reads if f != "seat"]
            a, b = e[3].spans[j]
            a, b = e[5] + a, e[5] + b
            code = [f"v = {got[0] if len(got) == 1 else '(' + ''.join(g + ', ' for g in got) + ')'}",
                    f"if v is not k[{q}] and v != k[{q}]:", f"    k[{q}] = v"]
            write = [f"x[{a}:{b}] = z{q}", f"w{q}(f, seat, x, {a})"]
            follow = [f"xf[{a}:{b}] = z{q}", f"w{q}(f, sf, xf, {a})"]
            if e[3].makers[j] is None:    # the key is the fact (and differs)
                code += ["    f = v"] + ["    " + ln for ln in write]
                return code + (["    for ff, xf, sf in fol:"] + ["        " + ln for ln in follow] if many else [])
            if many and "seat" not in reads:   # the same for every seat: made once per position for all
                code += [f"    f = made.get({q}, _UNSET)", "    if f is _UNSET:", f"        f = made[{q}] = m{q}(v, seat)"]
            else:
                code.append(f"    f = m{q}(v, seat)")
            code += [f"    if not f == fact[{q}]:", f"        fact[{q}] = f"] + ["        " + ln for ln in write]
            if not many:
                return code
            if "seat" in reads:            # a follower's own fact
                return code + ["    for ff, xf, sf in fol:", f"        g = m{q}(v, sf)", f"        if not g == ff[{q}]:",
                               f"            ff[{q}] = g", f"            xf[{a}:{b}] = z{q}",
                               f"            w{q}(g, sf, xf, {a})"]
            return code + ["    for ff, xf, sf in fol:", f"        if not f == ff[{q}]:", f"            ff[{q}] = f"] \
                + ["            " + ln for ln in follow]

        def function(many: bool) -> Any:
            """The generated function: for one seat, or (``many``) for the first of several."""
            body = lines + [ln for cond, qs in conds.items()   # ("": no condition)
                            for ln in ([f"    if {cond}:"] if cond else [])
                            + [("        " if cond else "    ") + c for q in qs for c in part(q, many)]]
            src = (f"def diff(s, m, k, fact, x, seat{', made, fol' if many else ''}):\n"
                   + "".join(ln + "\n" for ln in body) + "    return\n")
            exec(src, space)
            return space["diff"]
        self.one: Any = function(False)
        self.many: Any = function(True)
        self.size = at
        self.parts = P


def _write_modules(s: State, seen: Seen, seat: int) -> array:
    """The seat's modules' numbers, each part made again only when what it is made from changed
    since the seat's last observation: the slot parts (encoding 3, :class:`ModuleSlots`) behind
    stamps (:class:`_Diff`); a hashed module's part of the view hashed (:func:`module_block`;
    hashed again only when the part changed) when its key (:class:`_Keys`) changed.  The seat's
    ``kept`` (:attr:`Seen.seats`): [numbers, per hashed module (key, part, pairs), the hashed
    keys they were made from, numbers as a memoryview, per slot part the fact written, the slot
    parts' keys and stamps, the call that brought them up to date, what a follower's update
    takes]; :attr:`Seen.made`: the facts made at this position that do not depend on the seat,
    for the next seats that look at it (None: one seat looks).  In a call for several seats
    (:attr:`Seen.group`) a seat's update also brings up to date the seats of the call whose keys
    were its own (the usual case: every seat looked at the last position), as its followers."""
    L = seen.L
    views = L.views
    if views[0] is not s.hooks:
        views = L.views = (s.hooks, *_view_entries(s, L))
    _, entries, k, d = views
    kept = seen.seats[seat]
    made = seen.made
    if made is not None and kept[6] is made and not k.hashed:   # a follower of a seat of this call
        return kept[0]
    numbers, last, was, xm, written, dk, done, _ = kept
    if d.parts:
        if dk is None:
            dk = kept[5] = [_UNSET] * d.size
            written = kept[4] = [_UNSET] * d.parts
            kept[7] = (written, xm, seat)
        if made is None:                  # one seat looks
            d.one(s, s.mods, dk, written, xm, seat)
        elif done is not made:            # not brought up to date by another seat of this call
            kept[6] = made
            seats = seen.seats
            fol = []
            for f in seen.group:          # its followers: the call's seats not up to date with its keys
                other = seats[f]
                if other[6] is not made and other[5] == dk and f != seat:
                    other[6] = made
                    fol.append(other)
            d.many(s, s.mods, dk, written, xm, seat, made, [other[7] for other in fol])
            for other in fol:
                other[5][:] = dk
    if not k.hashed:
        return numbers
    keys = seen.keys
    if keys is None:
        keys = seen.keys = k.read(s, s.mods)
    if was == keys:               # every hashed module's key as at this seat's last observation
        return numbers
    if was is None:
        hashed: Any = k.hashed
    else:   # the places of the key that differ from this seat's last (compared in C)
        hashed = sorted(set(_flat([k.owners[q] for q in compress(k.places, map(ne, was, keys))])))
    n = L.n
    for i in hashed:
        name, hook = entries[i][:2]
        own = k.own[i]
        key = own(keys) if own is not None else None
        hit = last.get(name)
        if hit is None or key is None or hit[0] != key:
            out: dict[str, Any] = {}
            hook(s, seat, out)
            part = out.get(name)
            if hit is None or hit[1] != part:     # compared in C: cheaper than serializing it
                block, pairs = _part_block(name, part, seat, n, hit)
                p = L.module_at[i]
                numbers[p:p + MODULE_FEATURES] = block
            else:
                pairs = hit[2]
            last[name] = (key, part, pairs)
    kept[2] = None if k.undeclared else keys    # an undeclared module: made at every observation
    return numbers


def _part_block(name: str, part: Any, seat: int, n: int, last: tuple | None) -> tuple[array, dict | None]:
    """:func:`module_block` of a module's view part, made from the last part's numbers: a dict
    part's entries equal to the last part's keep their ``(slot, number)`` pairs (most entries
    stay the same from one decision to the next), the others are hashed (:func:`_hashed`);
    the pairs are added up in the same order, so the numbers are exactly module_block's."""
    if type(part) is not dict:
        return module_block(name, part, seat, n), None
    old: dict = last[1] if last is not None and type(last[1]) is dict else _NO_ENTRIES
    kept: dict = last[2] if last is not None and old is not _NO_ENTRIES else _NO_ENTRIES
    pairs = []
    paths = _PATHS
    for k, v in part.items():
        was = kept.get(k)
        if was is not None and old[k] == v:
            pairs.append(was)
        else:
            key = (name, k) if type(k) is str else (name, k, type(k))
            path = paths.get(key)
            if path is None:
                path = paths[key] = f"{name}.{k}"
            t = type(v)
            if t is int or t is float:       # a single number: its pair, without the memo's key
                slot = _SLOTS.get(path)
                if slot is None:
                    slot = _SLOTS[path] = _slot(path)
                pairs.append(((slot, 0.0 + v / 10),))
            else:
                pairs.append(_hashed(path, v, seat, n))
    block = array("f", bytes(4 * MODULE_FEATURES))
    for i, v in _flat_pairs(pairs):
        block[i] += v
    return block, dict(zip(part, pairs))


def _view_entries(s: State, L: Layout) -> tuple:
    """Per module of the layout: (name, its view hook or None, the ``State`` fields the hook
    reads (None: not declared), its slots (encoding 3) or None, the module, where its numbers
    start), how to read the hashed ones' keys (:class:`_Keys`) and which slot parts changed
    (:class:`_Diff`)."""
    by_module = {_module_of(h).name: h for h in s.hooks.view}
    out: list[tuple] = []
    for name, slots, at in zip(L.modules, L.slotted, L.module_at):
        module = s.hooks.named[name]
        out.append((name, by_module.get(name), type(module).view_reads, slots, module, at))
    entries = tuple(out)
    return entries, _Keys(entries, s), _Diff(entries, s)


_PAINTS: dict[tuple, array] = {}   # the observer's paints -> their numbers
_PLANS: dict[tuple, array] = {}    # a plan's counts -> its numbers
_FIFTH = (5).__rtruediv__          # k -> k / 5


def _paints_block(paints: tuple) -> array:
    """The observer's paints per colour / 5 (kept in :data:`_PAINTS`)."""
    b = array("f", map(_FIFTH, paints))
    if len(_PAINTS) > 4096:
        _PAINTS.clear()
    _PAINTS[paints] = b
    return b


def _plan_block(plan: tuple) -> array:
    """A known plan: 1, then apprentices per column / :data:`PLAN_SCALE`."""
    b = _PLANS.get(plan)
    if b is None:
        b = array("f", [1.0] + [k / PLAN_SCALE for k in plan])
        if len(_PLANS) > 4096:
            _PLANS.clear()
        _PLANS[plan] = b
    return b


def _booth_block(L: Layout, tiles: tuple) -> array:
    """Tiles of each market type on one booth."""
    b = L.booth_blocks.get(tiles)
    if b is None:
        b = array("f", bytes(4 * len(L.market_types)))
        for t in tiles:
            b[L.market_index[t]] += 1.0
        if len(L.booth_blocks) > 4096:
            L.booth_blocks.clear()
        L.booth_blocks[tiles] = b
    return b


# caches by the identity of immutable values (each entry keeps its value, so an id is not reused)
_CELLS: dict[int, tuple[Any, array]] = {}
_PARTS: dict[tuple, tuple] = {}
_BLOCKS: dict[tuple, array] = {}


def _write_tiles(x: Any, p: int, tiles: tuple, was: Any, sums: list[int]) -> None:
    """A figure's tiles at ``p``: count / 10, VP / 50, O/G/P splashes / 5, from their sums
    (``sums``, of the tuple ``was`` last written, updated in place): a restoration adds a tile
    at the end (cathedral), so only the tiles after ``was`` are counted; any other change
    counts them all."""
    k = len(was) if type(was) is tuple else -1
    if 0 <= k <= len(tiles) and tiles[:k] == was:
        new = tiles[k:]
    else:
        sums[:] = (0, 0, 0, 0, 0)
        new = tiles
    for t in new:
        spl = t.splashes
        sums[1] += t.vp
        sums[2] += spl.count(_O)
        sums[3] += spl.count(_G)
        sums[4] += spl.count(_P)
    x[p] = len(tiles) / 10
    x[p + 1] = sums[1] / 50
    x[p + 2] = sums[2] / 5
    x[p + 3] = sums[3] / 5
    x[p + 4] = sums[4] / 5


_VP = attrgetter("vp")
_SPLASHES = attrgetter("splashes")
_O, _G, _P = BLENDED


def _segment(t: Any) -> array:
    """A fresco segment with tile ``t``: present, VP / 24, paints per colour / 3."""
    hit = _CELLS.get(id(t))
    if hit is not None and hit[0] is t:
        return hit[1]
    block = array("f", bytes(4 * _CELL))
    block[0] = 1.0
    block[1] = t.vp / 24
    for ch in t.paints:
        block[2 + _PAINT_INDEX[ch]] += 1 / 3
    if len(_CELLS) > 4096:
        _CELLS.clear()
    _CELLS[id(t)] = (t, block)
    return block


def module_block(name: str, value: Any, seat: int, n: int) -> array:
    """A module's :data:`MODULE_FEATURES` numbers: its view part ``value`` as seen by ``seat``,
    hashed by :func:`hash_part` (kept by the part's contents: most parts stay the same from one
    decision to the next)."""
    key = (seat, n, name, marshal.dumps(value))
    block = _BLOCKS.get(key)
    if block is None:
        block = array("f", bytes(4 * MODULE_FEATURES))
        for i, v in hash_part(name, value, seat, n):
            block[i] += v
        if len(_BLOCKS) > 16384:
            _BLOCKS.clear()
        _BLOCKS[key] = block
    return block


def hash_part(name: str, value: Any, seat: int, n: int) -> tuple:
    """``(slot, number)`` pairs of a module's view part by feature hashing: each leaf adds its
    number / 10 (or 1 for a string or true) at ``crc32(path[=string]) mod MODULE_FEATURES``;
    lists with one entry per seat (or per figure) are read from the observer's seat on, so
    'mine' and 'the next player's' keep their slots; other lists are bags (order ignored).
    A dict part is hashed entry by entry (each entry's pairs kept by its contents)."""
    if type(value) is not dict:
        return _hashed(name, value, seat, n)
    out: list = []
    for k, v in value.items():
        out.extend(_hashed(f"{name}.{k}", v, seat, n))
    return tuple(out)


def _hashed(path: str, value: Any, seat: int, n: int) -> tuple:
    """:func:`hash_part`'s pairs of one entry, kept by (seat, players, path, contents); an
    entry without a per-seat list reads the same from every seat and is kept once for all
    (seat -1): the next observer seat finds it."""
    data = marshal.dumps(value)
    ck = (seat, n, path, data)
    pairs = _PARTS.get(ck)
    if pairs is None:
        shared = (-1, n, path, data)
        pairs = _PARTS.get(shared)
        if pairs is None:
            acc: dict[int, float] = {}
            rotated = _ROTATED[0]
            _hash_into(acc, path, value, seat, n)
            pairs = tuple(acc.items())
            if len(_PARTS) > 16384:
                _PARTS.clear()
            _PARTS[ck if _ROTATED[0] != rotated else shared] = pairs
    return pairs


def _hash_into(acc: dict, prefix: str, value: Any, seat: int, n: int) -> None:
    """Add ``value``'s leaves into ``acc`` (slot -> number), depth first from the last child
    (the order the numbers are added in is part of the encoding: float sums).  Paths and
    slots are looked up, not formatted, once seen (:data:`_PATHS`, :data:`_SLOTS`)."""
    if len(_PATHS) > 65536:
        _PATHS.clear()
    if len(_ITEMS) > 65536:
        _ITEMS.clear()
    if len(_SLOTS) > 65536:
        _SLOTS.clear()
    _add_leaves(acc, prefix, value, seat, n)


def _add_leaves(acc: dict, path: str, v: Any, seat: int, n: int) -> None:
    """:func:`_hash_into`'s walk: a container's children from the last one, each container
    walked at once (depth first), each leaf added where it stands (no stack of pending items)."""
    t = type(v)
    if t is dict:
        paths = _PATHS
        for k in reversed(v):
            key = (path, k) if type(k) is str else (path, k, type(k))
            child = paths.get(key)
            if child is None:
                child = paths[key] = f"{path}.{k}"
            _add_leaf(acc, child, v[k], seat, n)
    elif t is list or t is tuple:
        items = _ITEMS
        m = len(v)
        if m == n or m == n + 1:          # one entry per seat (and Leonardo): from the observer on
            _ROTATED[0] += 1
            for i in range(m - 1, -1, -1):
                child = items.get((path, i))
                if child is None:
                    child = items[(path, i)] = f"{path}[{i}]"
                _add_leaf(acc, child, v[(seat + i) % n] if i < n else v[i], seat, n)
        elif m:
            child = items.get((path, None))
            if child is None:
                child = items[(path, None)] = f"{path}[]"
            for item in reversed(v):
                _add_leaf(acc, child, item, seat, n)
    else:
        _add_leaf(acc, path, v, seat, n)


def _add_leaf(acc: dict, path: str, v: Any, seat: int, n: int) -> None:
    """One child of :func:`_add_leaves`: a leaf added into ``acc`` (a number: its value / 10;
    text or true: 1; none or false: nothing), a container walked."""
    t = type(v)
    if t is int or t is float:
        slot = _SLOTS.get(path)
        if slot is None:
            slot = _SLOTS[path] = _slot(path)
        acc[slot] = acc.get(slot, 0.0) + v / 10
    elif t is dict or t is list or t is tuple:
        _add_leaves(acc, path, v, seat, n)
    elif v is None or v is False:
        return
    else:
        key = (path, v, t)
        slot = _SLOTS.get(key)
        if slot is None:
            slot = _SLOTS[key] = _slot(f"{path}={v}")
        acc[slot] = acc.get(slot, 0.0) + 1.0


_PATHS: dict[tuple, str] = {}     # (path, dict key[, its type unless str]) -> the entry's path
_ITEMS: dict[tuple, str] = {}     # (path, list index or None for a bag) -> the item's path
_ROTATED = [0]                    # per-seat lists walked so far (a walk that adds none read alike from every seat)
_NO_ENTRIES: dict = {}
_UNSET: Any = object()            # a Seen's copy of a fact not written yet (differs from every fact)
_flat_pairs = _flat = chain.from_iterable
_SLOTS: dict[Any, int] = {}       # path (a number's) or (path, value, type) -> slot


def _slot(text: str) -> int:
    return zlib.crc32(text.encode()) % MODULE_FEATURES


@mypyc_attr(allow_interpreted_subclasses=True)
class ModuleSlots:
    """A module's numbers in the observation vector, encoding 3: fixed, named slots written
    straight from the module's state, read exactly as the module's view hook reads it (R22:
    what the seat's view shows, nothing else), with no view dict and no hashing.

    A module file defines its subclass at its end and registers it (:func:`register_slots`);
    the base game knows no module by name.  A subclass sets :attr:`name` (the module's) and
    implements :meth:`layout` (its parts for a set-up: each one or more slices, what its fact is
    made from, how, and the writer of its numbers) and :meth:`view_facts` (the parts' facts
    from the module's part of ``view(seat)``: for code that has only views, and the check that
    the state is read as the view shows it).  A part declares what its fact is made from
    (:attr:`part_reads`): ``"m"`` (the module's record), ``"m.FIELD"`` (a field of it; a
    record written in place replaces its fields' values on change), a ``State`` field, and
    ``"seat"`` if its fact depends on the observer's seat; its fact is made from these alone (its
    maker gets their values, and the seat), so a part is made and written again only when one
    of them changed since the seat's last vector, and a fact that does not depend on the seat is
    made once per position for all the seats that look at it at once.  The record's values are
    read only when its stamp moved: a record written in place (``ModuleState``) counts every
    write in its ``version`` (``Module.own``), any other is replaced on change.  Lists
    of seats (or figures) are written from the observer on: the observer, the next seats in
    seat order, then Leonardo.  One instance serves every game of the set-up: a subclass may
    keep a part's numbers by what they are made from, never by the game."""

    name: ClassVar[str] = ""
    #: the fields of the module's record its ``apprentices`` hook reads besides the players'
    #: neutral and set-aside apprentices (their fields' values, replaced on change), so that the
    #: players' apprentices (every encoding's ``figures`` block) are counted again only when one
    #: of them changed; () or None (not declared): counted at every position
    apprentices_reads: ClassVar[tuple[str, ...] | None] = None

    def __init__(self, module: Module, n: int, figures: int) -> None:
        self.n = n
        self.figures = figures
        #: per observer seat: the seats from it on, and the figures (Leonardo last)
        self.seats_from: tuple[tuple[int, ...], ...] = tuple(tuple((seat + i) % n for i in range(n))
                                                             for seat in range(n))
        self.figures_from: tuple[tuple[int, ...], ...] = tuple(order + tuple(range(n, figures))
                                                               for order in self.seats_from)
        slices: list[tuple[str, int]] = []
        reads: list[tuple[str, ...]] = []
        makers: list[Any] = []
        writers: list[Any] = []
        spans: list[tuple[int, int]] = []
        size = 0
        self.at: dict[str, int] = {}     # slice name -> where it starts in the module's numbers
        for names, read, make, writer in self.layout(module, n, figures):
            start = size
            for name, length in names:
                slices.append((name, length))
                self.at[name] = size
                size += length
            reads.append(read)
            makers.append(make)
            writers.append(writer)
            spans.append((start, size))
        self.slices: tuple[tuple[str, int], ...] = tuple(slices)
        #: per part: what its fact is made from (above), its maker ``(values, seat)`` (None: the
        #: value of its one read, or the tuple of its reads' values, is the fact), its writer
        #: ``(fact, seat, x, p)`` (p: where the part starts), its span, zeros of its size
        self.part_reads: tuple[tuple[str, ...], ...] = tuple(reads)
        self.makers = tuple(makers)
        self.writers = tuple(writers)
        self.spans = tuple(spans)
        self.part_zeros = tuple(array("f", bytes(4 * (b - a))) for a, b in spans)
        self.parts = range(len(spans))
        self.size = size

    def layout(self, module: Any, n: int, figures: int) -> tuple[tuple[Any, ...], ...]:
        """The parts for ``n`` players (``figures``: with Leonardo): ``(slices, reads, maker,
        writer)``: the slices ``(name, length)`` of a part in order, what its fact is made from
        (:attr:`part_reads`), its maker ``(values, seat) -> fact`` or None, its writer ``(fact,
        seat, x, p)`` writing its numbers from ``p`` on (zeros there before)."""
        raise NotImplementedError

    def view_facts(self, part: Any, seat: int) -> tuple:
        """The parts' facts from ``part``, the module's entry of ``view(seat)``."""
        raise NotImplementedError

    def put(self, facts: tuple, seat: int, x: Any, at: int) -> None:
        """Write the numbers of ``facts`` into ``x`` from ``at`` on (zeros there before)."""
        spans, writers = self.spans, self.writers
        for i in self.parts:
            writers[i](facts[i], seat, x, at + spans[i][0])


def modules_from_view(s: State, view: Any, seat: int, encoding: int = ENCODING) -> array:
    """The modules' numbers of the seat's vector in ``encoding`` (its end, from
    :attr:`Layout.o_modules`) made from ``view`` = ``view(seat)`` (full or lean): each module's
    slots from its part's facts (:meth:`ModuleSlots.view_facts`), or its part hashed
    (:func:`module_block`).  The same numbers as :func:`observation` writes (tested)."""
    L = layout(s, encoding)
    x = array("f", bytes(4 * L.module_size))
    for name, slots, p in zip(L.modules, L.slotted, L.module_at):
        if slots is not None:
            slots.put(slots.view_facts(view[name], seat), seat, x, p)
        else:
            x[p:p + MODULE_FEATURES] = module_block(name, view.get(name), seat, L.n)
    return x


#: module name -> its :class:`ModuleSlots` subclass (encoding 3)
SLOTS: dict[str, type[ModuleSlots]] = {}


def register_slots(cls: type[ModuleSlots]) -> None:
    """Register a module's :class:`ModuleSlots` (a call at the end of the module's file)."""
    SLOTS[cls.name] = cls
