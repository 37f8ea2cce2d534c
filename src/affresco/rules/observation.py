"""A seat's observation as numbers: what ``view(seat)`` shows, written straight from the state
into a fixed-size float32 vector (docs/envs.md, "The observation vector").

:func:`observation` is for code that reads a position at every decision (learning code,
``affresco.envs``): it costs a fraction of a view, because it builds no dicts or texts.  It
reads exactly what the seat's view shows (R22): the public board, every figure's public
facts, the seat's own paints, Thalers and plan (the others' plans only once revealed), and
each module's part of the seat's view (the modules' own view hooks, so a module's secrets stay
as hidden as in the view).  ``tests/rules/test_observation.py`` checks it with the
perturbation check of the views (another seat's secrets changed, the vector stays the same);
``tests/envs/test_envs_core.py`` checks it equal to the vector made from ``view(seat)``.

:func:`layout` names the slices (``(name, start, length)``, figures relative to the observer:
the observer, the next seats in seat order, then Leonardo).  Modules are encoded by feature
hashing of their view part (:func:`hash_part`), so a module added to the engine is encoded
without changes here.
"""
from __future__ import annotations

import functools
import marshal
import zlib
from array import array
from typing import Any, Iterable

from .paints import BLENDED, INDEX as _PAINT_INDEX, PAINTS
from .state import PLAN, VISITS, State

__all__ = ["PHASES", "MODULE_FEATURES", "Layout", "layout", "observation", "module_block", "hash_part"]

PHASES = ("getup", "plan", "visits", "over")
MODULE_FEATURES = 64      # hashed numbers per module
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_CELL = 2 + len(PAINTS)   # per fresco segment: tile present, VP / 24, paints per colour / 3


class Layout:
    """The slices of a set-up's vector: :attr:`slices` ``(name, start, length)``, :attr:`size`,
    and what the writer needs (figures, hostel and mood sizes, market tile types), with the
    numbers of the last position observed (each kept with the facts it was made from, so a
    position that differs only there is made from it; compared by contents, so alternating
    games of one set-up stay correct)."""

    __slots__ = ("n", "F", "H", "M", "market_types", "market_index", "booths", "modules",
                 "per_figure", "slices", "offsets", "size", "zeros", "rel", "o_phase", "o_round", "o_actor",
                 "o_column", "o_figures", "o_paints", "o_fresco", "o_bishop", "o_booths", "o_bag",
                 "booth_blocks", "last_figures", "last_public", "o_plan", "position", "module_parts")

    def __init__(self, n: int, figures: int, hostel: int, mood: int, market_types: tuple[str, ...],
                 booths: int, modules: tuple[str, ...]):
        self.n, self.F, self.H, self.M = n, figures, hostel, mood
        self.market_types = market_types
        self.market_index = {t: i for i, t in enumerate(market_types)}
        self.booths, self.modules = booths, modules
        F, T = figures, len(market_types)
        self.per_figure = 3 + hostel + 5 + mood + 4 + 6 + F + 1
        parts = [
            ("seat", n), ("phase", 4), ("round", 3), ("to_act", 1), ("actor", F), ("column", 5),
            ("visit_left", 1), ("pending_track", 1 + F + 2), ("figures", F * self.per_figure),
            ("own_paints", len(PAINTS)), ("own_thalers", 1), ("fresco", 25 * _CELL), ("bishop", 25),
            ("leonardo", 26 if F > n else 0), ("booths", booths * T), ("bag", 1),
        ] + [(f"module:{m}", MODULE_FEATURES) for m in modules]
        slices, pos = [], 0
        for name, length in parts:
            slices.append((name, pos, length))
            pos += length
        self.slices: tuple[tuple[str, int, int], ...] = tuple(slices)
        self.offsets = {name: start for name, start, _ in slices}
        self.size = pos
        self.zeros = array("f", bytes(4 * pos))
        o = self.offsets
        self.o_phase, self.o_round, self.o_actor, self.o_column = o["phase"], o["round"], o["actor"], o["column"]
        self.o_figures, self.o_paints, self.o_fresco = o["figures"], o["own_paints"], o["fresco"]
        self.o_bishop, self.o_booths, self.o_bag = o["bishop"], o["booths"], o["bag"]
        self.booth_blocks: dict[tuple, array] = {}
        self.o_plan = 3 + hostel + 5 + mood + 4     # a figure's plan numbers, within its block
        # the last figures' numbers with the facts they were made from, the last fresco block,
        # and the last position observed (state, actions applied, public numbers, figures)
        self.last_figures: tuple | None = None
        self.last_public: tuple | None = None
        self.position: tuple | None = None
        # (module, seat) -> (the part of the seat's view it was last made from, its numbers);
        # the parts are the view hooks' own new dicts, which nothing else holds or changes
        self.module_parts: dict[tuple, tuple] = {}
        # figure -> its place in the observer's order, per observer seat
        self.rel = tuple(tuple([(f - seat) % n for f in range(n)] + list(range(n, F))) for seat in range(n))


def _type_key(t: str):
    return -len(t), [PAINTS.index(c) for c in t]


_LAYOUTS: dict[tuple, Layout] = {}
_LAST: tuple = (None, None, None, None)   # the set-up of the last call (components, modules, n) and its layout
_FLOW = None


def _load_flow():
    """rules.flow, imported on first use (it imports this module's importers)."""
    global _FLOW
    from . import flow
    _FLOW = flow
    return flow


def layout(s: State) -> Layout:
    """The layout of ``s``'s set-up (player count, modules, components)."""
    global _LAST
    last = _LAST
    if last[0] is s.comp and last[1] is s.modules and last[2] == s.n:
        return last[3]
    key = (s.n, s.modules, s.comp.digest)
    L = _LAYOUTS.get(key)
    if L is None:
        comp, n = s.comp, s.n
        removed = set(comp.removed_for_3) if n == 3 else set()
        types = tuple(sorted({t.paints for i, t in enumerate(comp.market_tiles) if i not in removed}, key=_type_key))
        L = _LAYOUTS[key] = Layout(n, len(s.pos), len(comp.hostel), len(comp.mood_spaces), types,
                                   len(comp.booths[n]), tuple(s.modules))
    _LAST = (s.comp, s.modules, s.n, L)
    return L


def observation(s: State, seat: int) -> array:
    """The seat's vector (a new ``array('f')`` of :func:`layout`'s size), from what its view
    shows (module doc).  What every seat sees alike is made once per position (the public
    numbers and the figures in seat order, each kept while it stays the same from one
    decision to the next); each seat's vector places the figures from its own seat on and adds
    its own items."""
    L = layout(s)
    at = L.position
    if at is None or at[0] is not s or at[1] != s.nactions:
        at = L.position = (s, s.nactions, _seen_by_all(s, L), _figures(s, L))
    x = at[2] * 1
    F, n = L.F, L.n
    rel = L.rel[seat]
    x[seat] = 1.0
    if seat in (s.acting if s.acting is not None else (_FLOW or _load_flow()).to_act(s)):
        x[L.o_round + 3] = 1.0
    if s.actor >= 0:
        x[L.o_actor + rel[s.actor]] = 1.0
    pt = s.pending
    if pt is not None:
        p = L.offsets["pending_track"]
        x[p] = 1.0
        x[p + 1 + rel[pt[0]]] = 1.0
        x[p + 1 + F] = pt[1] / 50
        x[p + 2 + F] = pt[2] / 50
    per, base, figures = L.per_figure, L.o_figures, at[3]
    if seat:        # the seat's figure first, then the next seats', then Leonardo's (in place)
        k = (n - seat) * per
        x[base:base + k] = figures[seat * per:n * per]
        x[base + k:base + n * per] = figures[:seat * per]
        if F > n:
            x[base + n * per:base + F * per] = figures[n * per:]
    else:
        x[base:base + F * per] = figures
    plan = s.plan[seat]
    if plan is not None and s.phase == PLAN:        # the seat's own plan, hidden from the others
        _plan(x, base + L.o_plan, plan)
    p = L.o_paints
    x[p:p + 9] = _own_block(s.paints[seat], s.thalers[seat])
    if F > n and s.leo_ctrl == seat:
        x[L.offsets["leonardo"] + 25] = 1.0
    if L.modules:
        parts: dict[str, Any] = {}
        for hook in s.hooks.view:      # each module's part of the seat's view, as view() makes it
            hook(s, seat, parts)
        p = L.o_bag + 1
        last = L.module_parts
        for m in L.modules:
            part = parts.get(m)
            hit = last.get((m, seat))
            if hit is None or hit[0] != part:     # compared in C: cheaper than serializing it
                hit = last[(m, seat)] = (part, module_block(m, part, seat, n))
            x[p:p + MODULE_FEATURES] = hit[1]
            p += MODULE_FEATURES
    return x


def _seen_by_all(s: State, L: Layout) -> array:
    """What every seat sees alike, in place: phase, round, the location visited, the fresco,
    the bishop, Leonardo's painter, the booths, the bag.  Made from the last position's by
    changing what differs."""
    phase, visits = s.phase, s.phase == VISITS
    column = s.loc if visits and 0 <= s.loc < 5 else -1
    left = s.left if visits and s.actor >= 0 else None
    leo = s.leo_pos if L.F > L.n else -1
    facts = (phase, s.round, s.final, s.side2, column, left, s.bishop, leo, len(s.bag))
    last = L.last_public
    if last is None:
        x = L.zeros * 1
        old = (None, None, False, False, -1, None, -1, -1, None)
    elif last[0] == facts and last[1] == s.fresco and last[2] == s.booths:
        return last[3]
    else:
        x = last[3] * 1
        old = last[0]
    if phase != old[0]:
        if old[0] is not None:
            x[L.o_phase + _PHASE_INDEX[old[0]]] = 0.0
        x[L.o_phase + _PHASE_INDEX[phase]] = 1.0
    p = L.o_round
    x[p] = s.round / 10
    x[p + 1] = 1.0 if s.final else 0.0
    x[p + 2] = 1.0 if s.side2 else 0.0
    if column != old[4]:
        if old[4] >= 0:
            x[L.o_column + old[4]] = 0.0
        if column >= 0:
            x[L.o_column + column] = 1.0
    x[L.o_column + 5] = 0.0 if left is None else left / 6
    if s.bishop != old[6]:
        if old[6] >= 0:
            x[L.o_bishop + old[6]] = 0.0
        x[L.o_bishop + s.bishop] = 1.0
    if leo != old[7]:
        p = L.offsets["leonardo"]
        if old[7] >= 0:
            x[p + old[7]] = 0.0
        if leo >= 0:
            x[p + leo] = 1.0
    x[L.o_bag] = len(s.bag) / 40
    if last is None or last[1] != s.fresco:
        x[L.o_fresco:L.o_fresco + 25 * _CELL] = _fresco_numbers(s.fresco)
    if last is None or last[2] != s.booths:
        p = L.o_booths
        x[p:p + L.booths * len(L.market_types)] = _booths_block(L, tuple(s.booths))
    L.last_public = (facts, s.fresco[:], s.booths[:], x)
    return x


def _figures(s: State, L: Layout) -> array:
    """Every figure's numbers in seat order (figure ``f`` at ``f * per_figure``, see
    :func:`_figure`), the players' plans hidden while planning.  Made from the last position's
    by writing again the figures whose facts differ (a decision changes one or two)."""
    F, n, per = L.F, L.n, L.per_figure
    hide = s.phase == PLAN
    extra = [s.apprentices(f) for f in range(n)] if s.hooks.apprentices else None
    facts = (s.pos, s.getup, s.tiles, s.plan, s.mood, s.neutral, s.aside)
    last = L.last_figures
    changed: Iterable[int]
    if last is None or last[1] != s.order or last[2] != hide or last[3] != extra:
        changed = range(F)
        x = array("f", bytes(4 * F * per))
        kept = tuple(v[:] for v in facts)
    else:
        old = last[0]
        changed = set()
        copies = list(old)
        for k in range(7):
            b = facts[k]
            if old[k] != b:
                a = old[k]
                changed.update(f for f in range(len(b)) if a[f] != b[f])
                copies[k] = b[:]           # the unchanged lists keep their earlier copies
        if not changed:
            return last[4]
        x = last[4] * 1
        kept = tuple(copies)
    for f in changed:
        _figure(s, L, x, f, hide)
    L.last_figures = (kept, s.order, hide, extra, x)
    return x


def _figure(s: State, L: Layout, x: array, f: int, hide: bool) -> None:
    """Figure ``f``'s numbers at ``f * per_figure``: VP / 50, on a start space, start space / 5;
    get-up one-hot; tiles / 10, tile VP / 50, O/G/P splashes / 5; mood one-hot, neutral
    apprentice, apprentice set aside, apprentices / 6, plan committed (players only); plan
    known, plan per column / 3; position in the action order one-hot; is Leonardo."""
    F, H, M, per = L.F, L.H, L.M, L.per_figure
    p = f * per
    x[p:p + per] = L.zeros[:per]
    pos = s.pos[f]
    if pos > 0:
        x[p] = pos / 50
    else:                              # on a start space
        x[p + 1] = 1.0
        x[p + 2] = (pos + 10) / 5
    if s.getup[f] >= 0:
        x[p + 3 + s.getup[f]] = 1.0
    p += 3 + H
    tiles = s.tiles[f]
    if tiles:
        x[p:p + 5] = _tiles_block(tiles)
    p += 5
    plan = s.plan[f]
    if f < L.n:
        x[p + s.mood[f]] = 1.0
        if s.neutral[f]:
            x[p + M] = 1.0
        if s.aside[f]:
            x[p + M + 1] = 1.0
        x[p + M + 2] = s.apprentices(f) / 6
        if plan is not None:
            x[p + M + 3] = 1.0
            if hide:
                plan = None
    else:
        x[p + M + 10 + F] = 1.0            # Leonardo
    p += M + 4
    if plan is not None:
        _plan(x, p, plan)
    if f in s.order:                   # position in the action order
        x[p + 6 + s.order.index(f)] = 1.0


def _plan(x: array, p: int, plan) -> None:
    """A plan at ``p``: known, then apprentices per column / 3."""
    x[p] = 1.0
    for i, k in enumerate(plan, p + 1):
        x[i] = k / 3


_OWN: dict[tuple, array] = {}


def _own_block(paints: tuple, thalers: int) -> array:
    """The observer's paints per colour / 5 and Thalers / 30."""
    key = (paints, thalers)
    b = _OWN.get(key)
    if b is None:
        b = array("f", [k / 5 for k in paints] + [thalers / 30])
        if len(_OWN) > 4096:
            _OWN.clear()
        _OWN[key] = b
    return b


def _booths_block(L: Layout, booths: tuple) -> array:
    """Tiles of each market type on each booth."""
    b = L.booth_blocks.get(booths)
    if b is None:
        T = len(L.market_types)
        b = array("f", bytes(4 * L.booths * T))
        for i, tiles in enumerate(booths):
            for t in tiles:
                b[i * T + L.market_index[t]] += 1.0
        if len(L.booth_blocks) > 4096:
            L.booth_blocks.clear()
        L.booth_blocks[booths] = b
    return b


# caches by the identity of immutable values (each entry keeps its value, so an id is not reused)
_TILES: dict[int, tuple[Any, array]] = {}
_FRESCO: dict[tuple, tuple[Any, array]] = {}
_PARTS: dict[tuple, tuple] = {}
_BLOCKS: dict[tuple, array] = {}


def _tiles_block(tiles: tuple) -> array:
    """A figure's tiles: count / 10, VP / 50, O/G/P splashes / 5."""
    hit = _TILES.get(id(tiles))
    if hit is not None and hit[0] is tiles:
        return hit[1]
    vps, spl = 0, [0, 0, 0]
    for t in tiles:
        vps += t.vp
        for c in t.splashes:
            spl[BLENDED.index(c)] += 1
    block = array("f", [len(tiles) / 10, vps / 50] + [v / 5 for v in spl])
    if len(_TILES) > 4096:
        _TILES.clear()
    _TILES[id(tiles)] = (tiles, block)
    return block


def _fresco_numbers(fresco: list) -> array:
    """Per segment A1..E5: tile present, VP / 24, paints per colour / 3."""
    key = tuple(map(id, fresco))
    hit = _FRESCO.get(key)
    if hit is not None:
        return hit[1]
    block = array("f", bytes(4 * 25 * _CELL))
    for i, t in enumerate(fresco):
        if t is None:
            continue
        q = i * _CELL
        block[q] = 1.0
        block[q + 1] = t.vp / 24
        for ch in t.paints:
            block[q + 2 + _PAINT_INDEX[ch]] += 1 / 3
    if len(_FRESCO) > 1024:
        _FRESCO.clear()
    _FRESCO[key] = (tuple(fresco), block)
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
    ck = (seat, n, path, marshal.dumps(value))
    pairs = _PARTS.get(ck)
    if pairs is None:
        acc: dict[int, float] = {}
        _hash_into(acc, path, value, seat, n)
        pairs = tuple(acc.items())
        if len(_PARTS) > 16384:
            _PARTS.clear()
        _PARTS[ck] = pairs
    return pairs


def _hash_into(acc: dict, prefix: str, value: Any, seat: int, n: int) -> None:
    stack = [(prefix, value)]
    while stack:
        path, v = stack.pop()
        t = type(v)
        if t is dict:
            stack.extend((f"{path}.{k}", v[k]) for k in v)
        elif t is list or t is tuple:
            if len(v) == n or len(v) == n + 1:
                items = [((seat + i) % n, i) for i in range(n)] + [(i, i) for i in range(n, len(v))]
                stack.extend((f"{path}[{i}]", v[j]) for j, i in items)
            else:
                stack.extend((f"{path}[]", item) for item in v)
        elif v is None or v is False:
            continue
        elif t is int or t is float:
            slot = _slot(path)
            acc[slot] = acc.get(slot, 0.0) + v / 10
        else:
            slot = _slot(f"{path}={v}")
            acc[slot] = acc.get(slot, 0.0) + 1.0


@functools.lru_cache(maxsize=16384)
def _slot(text: str) -> int:
    return zlib.crc32(text.encode()) % MODULE_FEATURES
