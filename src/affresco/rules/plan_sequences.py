"""The legal plans of a planning decision with the modules' words, as read-only sequences that
make a plan only when asked (issue #12's speed): the action tiles of bells and wall fresco
multiply the plans by the columns they may cover, the medico's ill apprentices and tile by up
to ~30 more, so a decision offers up to ~110,000 plans.  Both sequences here are built from the
structure of the plans (the base game's counts, the tiles, the variants per counts), not from
the plans themselves: ``len``, indexing, ``in`` and ``index`` cost about one plan.

:class:`TiledPlans`: the base game's plans and each again with action tiles on its empty
columns (the plan hooks of bells and wall fresco, rules/planning.py :func:`legal`).
:class:`PlanVariants`: each plan of a TiledPlans replaced by its variants (the medico's).
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import accumulate, combinations, compress, permutations, product
from math import perm
from operator import index, mul, not_
from types import MappingProxyType
from typing import Callable, Iterator

from .actions import PLAN_WORDS, Action

_new = tuple.__new__
_NO_WORDS: Mapping[str, tuple[str, ...]] = MappingProxyType({})    # a base plan's words (planning.read)


@lru_cache(maxsize=8)
def _every_counts(columns: int, per_column: int) -> tuple:
    """Every plan of the base game in counting order ('plan 0-0-0-0-0', 'plan 0-0-0-0-1', ...),
    its counts, its apprentices and its counts text (four tuples)."""
    counts = tuple(product(range(per_column + 1), repeat=columns))
    texts = tuple(map("-".join, product([str(k) for k in range(per_column + 1)], repeat=columns)))   # in counts' order
    # a process's first plan decision waits for this: the Actions are made without their __new__
    return tuple([_new(Action, ("plan", (t,))) for t in texts]), counts, tuple(map(sum, counts)), texts


@lru_cache(maxsize=8)
def _empty_columns(columns: int, per_column: int) -> tuple:
    """Per plan of :func:`_every_counts`: its empty columns and how many (two tuples), for the
    plans with action tiles (made apart: the base game's plans do not need them)."""
    cols = range(columns)
    empty = tuple([tuple(compress(cols, map(not_, c))) for c in _every_counts(columns, per_column)[1]])
    return empty, tuple(map(len, empty))


def sheet_counts(columns: int, per_column: int) -> tuple[tuple, tuple, tuple, tuple]:
    """Every plan of the base game with any number of apprentices, in counting order: its
    counts, its apprentices, its counts text and its empty columns (four tuples)."""
    _, counts, apprentices, texts = _every_counts(columns, per_column)
    return counts, apprentices, texts, _empty_columns(columns, per_column)[0]


@lru_cache(maxsize=None)
def within(available: int, columns: int, per_column: int) -> tuple[bool, ...]:
    """Per plan of :func:`_every_counts`: whether it uses at most ``available`` apprentices
    (``itertools.compress`` with it gives the base plans' figures in their order)."""
    return tuple(map(available.__ge__, _every_counts(columns, per_column)[2]))


@lru_cache(maxsize=None)
def base_plans(available: int, columns: int, per_column: int) -> tuple[Action, ...]:
    """The base game's plans: apprentices per column (at most ``per_column``), at most
    ``available`` in all, in counting order ('plan 0-0-0-0-0', 'plan 0-0-0-0-1', ...)."""
    return tuple(compress(_every_counts(columns, per_column)[0], within(available, columns, per_column)))


@lru_cache(maxsize=64)
def base_counts(available: int, columns: int, per_column: int) -> tuple:
    """Per plan of :func:`base_plans`: its counts, its apprentices, its empty columns, how
    many, and its counts text (five tuples)."""
    _, counts, apprentices, texts = _every_counts(columns, per_column)
    keep = within(available, columns, per_column)
    return tuple(tuple(compress(x, keep)) for x in (counts, apprentices, *_empty_columns(columns, per_column), texts))


@lru_cache(maxsize=64)
def _base_index(available: int, columns: int, per_column: int) -> dict[str, int]:
    """Counts text -> position among :func:`base_plans` (made when a plan is looked up)."""
    return {t: b for b, t in enumerate(base_counts(available, columns, per_column)[4])}


@lru_cache(maxsize=64)
def _placements(empty: int, tiles: int) -> tuple[tuple[int, ...], ...]:
    """The ways to lay ``tiles`` tiles on ``empty`` empty columns (which empty column each tile
    takes), in order: the first tile's column ascending, then the next one's among the rest."""
    return tuple(permutations(range(empty), tiles))


@lru_cache(maxsize=256)
def _multiplicity(available: int, columns: int, per_column: int, tiles: int, carried: int) -> tuple[int, ...]:
    """Per base plan: the ways to lay ``tiles`` action tiles on distinct empty columns, if the
    ``carried`` apprentices they carry are available too (else 0)."""
    base = base_counts(available, columns, per_column)
    if not tiles and not carried:
        return (1,) * len(base[3])
    ways = map([perm(e, tiles) for e in range(columns + 1)].__getitem__, base[3])
    if not carried:
        return tuple(ways)
    return tuple(map(mul, ways, map((available - carried).__ge__, base[1])))    # 0 where they do not fit


class _Lazy(Sequence):
    """A read-only sequence of plans, each made when first indexed (``_pick``: the i-th plan and
    its reading, ``0 <= i < _n``) and kept, so that ``self[i] is self[i]`` as in a list;
    iterating makes them all (``materialized``).  It knows the plan it gave last by indexing
    (:meth:`made_here`, :meth:`reading`): the plan a player takes from the legal plans is
    checked and carried out without reading its text again (rules/flow.py, rules/planning.py)."""

    __slots__ = ()
    _all: tuple[Action, ...] | None
    _made: dict[int, Action]
    _last: Action | None    # the plan last given by indexing (None: none yet)
    _read: tuple | None     # its reading if made then and not yet taken (:meth:`taken`), else None
    _n: int             # the number of plans (a TiledPlans: -1 until counted)
    _pick: Callable[[int], tuple]

    def materialized(self) -> tuple[Action, ...]:
        raise NotImplementedError

    def __getitem__(self, i):
        if type(i) is int:
            done = self._all
            if done is None:
                hit = self._made.get(i)
                if hit is None and 0 <= i < self._n:
                    hit, self._read = self._pick(i)
                    self._last = self._made[i] = hit
                    return hit
            else:
                hit = done[i] if 0 <= i < len(done) else None
            if hit is not None:
                if self._last is not hit:
                    self._last, self._read = hit, None      # given again: taken on trust, read from its text
                return hit
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        n = len(self)
        k = index(i)
        if k < 0:
            k += n
        if not 0 <= k < n:
            raise IndexError("plan index out of range")
        return self[k]

    def __iter__(self) -> Iterator[Action]:
        return iter(self.materialized())

    def __eq__(self, other) -> bool:
        if isinstance(other, (_Lazy, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    def made_here(self, action: object) -> bool:
        """Whether ``action`` is the plan object this sequence gave last by indexing (by
        identity: the plan a player took from the sequence, the usual case); a cheap legality
        check."""
        return self._last is action

    def reading(self, action: object) -> tuple | None:
        """``planning.read``'s answer (its counts and words; the words not to be changed)
        for the plan object this sequence made last by indexing, if it made it then (not
        given again), else None: the plan a player took from the sequence is carried out
        without reading its text again."""
        return self._read if self._last is action else None

    def taken(self, action: object) -> tuple | None:
        """:meth:`reading`, for the plan being carried out: the sequence forgets the reading
        then (the plan stays the one it gave last, :meth:`made_here`; carried out again, it is
        read from its text), so that the reading goes with the decision instead of staying
        with the shared sequence until its next plan (issue #12: fewer objects for the
        collector to walk)."""
        read = self.reading(action)
        if read is not None:
            self._read = None
        return read


class TiledPlans(_Lazy):
    """The base game's plans of ``available`` apprentices, then each again with action tiles on
    its empty columns, one column per tile: for each tile added (:meth:`with_tile`, in the
    modules' hook order), the plans so far, then each of them again with the new tile on each
    empty column no other tile covers (ascending), if the apprentices the tiles carry are
    available too.  The plans come in *segments*, one per set of tiles (binary counting over
    the tiles added), each in the base plans' order, tile columns in ascending order within a
    base plan.  Immutable; the same situation gives the same object (:func:`tiled_plans`)."""

    __slots__ = ("available", "columns", "per_column", "words", "tiles", "segments", "carries", "_mult",
                 "_ends", "_starts", "_n", "_made", "_all", "_last", "_read", "_base", "_plans", "_with", "tails",
                 "tails_by_mask", "__weakref__")

    def __init__(self, available: int, columns: int, per_column: int, words: tuple[str, ...],
                 tiles: tuple[tuple[str, int], ...]):
        self.available, self.columns, self.per_column = available, columns, per_column
        self.words, self.tiles = words, tiles        # column words; (word, apprentices it carries)
        self.segments = segments = _segments(len(tiles))
        self.carries = tuple(sum(tiles[t][1] for t in u) for u in segments)
        self._mult: tuple | None = None    # per segment, made when asked: parents per base plan (_mults)
        self._ends: list = [None] * len(segments)    # per segment, made when asked: accumulated _mult
        self._starts: tuple[int, ...] | None = None   # per segment, made when asked: where its plans start
        self._n = -1                                  # the number of plans, counted with the starts
        self._made: dict[int, Action] = {}
        self._all: tuple[Action, ...] | None = None
        self._last: Action | None = None
        self._read: tuple | None = None
        self._base: tuple | None = None     # base_counts, made when asked (the medico's counted plans never ask)
        self._plans: tuple[Action, ...] | None = None      # base_plans, made when asked
        self._with: dict[tuple[str, int], TiledPlans] = {}      # with_tile's answers
        # tiles_at's answers, (seg, empty, q) -> the tiles' words, made once for every TiledPlans of the same
        # columns and tiles (they do not depend on available); a pick reads it without a call; and the same
        # answers by an index (the medico's pick)
        self.tails, self.tails_by_mask = _tails(words, tiles)

    def base(self) -> tuple:
        """:func:`base_counts` of the base plans (made when first asked)."""
        base = self._base
        if base is None:
            base = self._base = base_counts(self.available, self.columns, self.per_column)
        return base

    @property
    def base_key(self) -> tuple[int, int, int]:
        """What the base plans are made of: ``(available, columns, per_column)``."""
        return self.available, self.columns, self.per_column

    def base_plans(self) -> tuple[Action, ...]:
        """:func:`base_plans` (kept when first asked)."""
        plans = self._plans
        if plans is None:
            plans = self._plans = base_plans(self.available, self.columns, self.per_column)
        return plans

    def base_index(self) -> dict[str, int]:
        """Counts text -> the base plan's position (:meth:`base`'s order; read only)."""
        return _base_index(self.available, self.columns, self.per_column)

    def with_tile(self, word: str, carries: int = 0) -> "TiledPlans":
        """These plans, then each again with the tile ``word`` (a plan word of arity 1, its
        argument a column word) on each of its empty columns not covered, carrying ``carries``
        apprentices (counted against the available ones)."""
        hit = self._with.get((word, carries))
        if hit is None:
            hit = self._with[word, carries] = tiled_plans(self.available, self.columns, self.per_column, self.words,
                                                          self.tiles + ((word, carries),))
        return hit

    def __len__(self) -> int:
        n = self._n
        return n if n >= 0 else self.starts()[-1]

    def _mults(self) -> tuple:
        """Per segment, parents per base plan (made when first asked: the medico's
        :class:`PlanVariants` of these plans counts its plans without them)."""
        mult = self._mult
        if mult is None:
            mult = self._mult = tuple(_multiplicity(self.available, self.columns, self.per_column, len(u), c)
                                      for u, c in zip(self.segments, self.carries))
        return mult

    def starts(self) -> tuple[int, ...]:
        """Where each segment's plans start, then the number of plans (made when first asked:
        the medico's :class:`PlanVariants` of these plans never asks)."""
        st = self._starts
        if st is None:
            st = self._starts = tuple(accumulate((sum(m) for m in self._mults()), initial=0))
            self._n = st[-1]
        return st

    def ends(self, seg: int) -> list[int]:
        """Accumulated parents per base plan of segment ``seg``."""
        e = self._ends[seg]
        if e is None:
            e = self._ends[seg] = list(accumulate(self._mults()[seg]))
        return e

    def multiplicity(self, seg: int) -> tuple[int, ...]:
        """Plans per base plan in segment ``seg`` (the ways to lay its tiles)."""
        return self._mults()[seg]

    def locate(self, j: int) -> tuple[int, int, int]:
        """``(segment, base plan, q)`` of plan ``j``: the q-th way to lay the segment's tiles."""
        starts = self.starts()
        seg = bisect_right(starts, j) - 1
        r = j - starts[seg]
        ends = self.ends(seg)
        b = bisect_right(ends, r)
        return seg, b, r - (ends[b - 1] if b else 0)

    def position(self, seg: int, b: int, q: int) -> int:
        """The inverse of :meth:`locate`."""
        return self.starts()[seg] + (self.ends(seg)[b - 1] if b else 0) + q

    def args_of(self, seg: int, b: int, q: int) -> tuple[str, ...]:
        """The plan's arguments: its counts, then its tiles' words in their rank's order."""
        base = self.base()
        if not self.segments[seg]:
            return (base[4][b],)
        return (base[4][b],) + self.tiles_at(seg, base[2][b], q)

    def tiles_at(self, seg: int, empty: tuple[int, ...], q: int) -> tuple[str, ...]:
        """The tiles' words of segment ``seg`` laid the q-th way on the empty columns ``empty``,
        in their rank's order: each tile's word and its column's word (a plan's arguments are
        its counts and these; :attr:`tails`)."""
        return self.tails[seg, empty, q]

    def _pick(self, i: int) -> tuple:
        """Plan ``i`` (``0 <= i < len(self)``) and its reading (``planning.read``'s answer), in
        one call; a base plan is the object :func:`base_plans` gives."""
        starts = self._starts or self.starts()
        seg = bisect_right(starts, i) - 1
        r = i - starts[seg]
        base = self._base or self.base()
        if not seg:     # the base plans, one each
            return (self._plans or self.base_plans())[r], (base[0][r], _NO_WORDS)
        ends = self._ends[seg] or self.ends(seg)
        b = bisect_right(ends, r)
        tail = self.tails[seg, base[2][b], r - (ends[b - 1] if b else 0)]
        return _new(Action, ("plan", (base[4][b],) + tail)), (base[0][b], _tile_words(tail))

    def materialized(self) -> tuple[Action, ...]:
        """Every plan, made once and kept (the plans already made among them; the base plans
        are the objects :func:`base_plans` gives)."""
        if self._all is None:
            out: list[Action] = []
            for seg, mult in enumerate(self._mults()):
                if not self.segments[seg]:
                    out.extend(compress(self.base_plans(), mult))
                    continue
                out.extend(_new(Action, ("plan", self.args_of(seg, b, q))) for b, m in enumerate(mult) for q in range(m))
            for i, a in self._made.items():
                out[i] = a
            self._all, self._made = tuple(out), {}
        return self._all

    def find(self, args: tuple) -> tuple[int, int, int] | None:
        """``(segment, base plan, q)`` of the plan with these arguments, or None."""
        b = self.base_index().get(args[0]) if args else None
        if b is None or len(args) % 2 == 0:
            return None
        words = dict(zip(args[1::2], args[2::2]))
        u = tuple(t for t, (w, _) in enumerate(self.tiles) if w in words)
        if len(u) != len(words) or 2 * len(u) + 1 != len(args):
            return None
        seg = self.segments.index(u)
        if not self._mults()[seg][b]:
            return None
        empty = {self.words[c]: i for i, c in enumerate(self.base()[2][b])}     # column word -> its place
        picked = tuple(empty.get(words[self.tiles[t][0]], -1) for t in u)
        placements = _placements(len(empty), len(u))
        if picked not in placements:
            return None
        q = placements.index(picked)
        return (seg, b, q) if self.args_of(seg, b, q) == args else None      # the words in rank order

    def index(self, action, start: int = 0, stop: int | None = None) -> int:
        at = self.find(action.args) if type(action) is Action and action.kind == "plan" else None
        if at is not None:
            i = self.position(*at)
            if start <= i and (stop is None or i < stop):
                return i
        raise ValueError(f"{action!r} is not one of the plans")

    def __contains__(self, action) -> bool:
        return type(action) is Action and action.kind == "plan" and self.find(action.args) is not None

    __hash__ = object.__hash__      # one object per situation (tiled_plans): identity is equality

    def __add__(self, other) -> tuple[Action, ...]:
        """These plans, then ``other``'s, as a tuple (a module hook adding plans of its own)."""
        return self.materialized() + tuple(other)

    def __radd__(self, other) -> tuple[Action, ...]:
        return tuple(other) + self.materialized()

    def __reduce__(self):
        return tiled_plans, (self.available, self.columns, self.per_column, self.words, self.tiles)

    def __repr__(self) -> str:
        return f"<TiledPlans with {', '.join(w for w, _ in self.tiles) or 'no tiles'}: {len(self)} plans>"


def _segments(tiles: int) -> tuple[tuple[int, ...], ...]:
    """The sets of tiles of a :class:`TiledPlans`' segments, in their order (binary counting
    over the tiles added: (), (0,), (1,), (0, 1), ...)."""
    segments: list[tuple[int, ...]] = [()]
    for t in range(tiles):
        segments += [u + (t,) for u in segments]
    return tuple(segments)


@lru_cache(maxsize=64)
def _tails(words: tuple[str, ...], tiles: tuple[tuple[str, int], ...]) -> tuple[dict[tuple, tuple[str, ...]],
                                                                          list[tuple[str, ...] | None]]:
    """:meth:`TiledPlans.tiles_at` of every segment with tiles, set of empty columns and way to
    lay the tiles on them, ``(seg, empty, q)`` -> the tiles' words in their rank's order (a few
    hundred for the action sheet's five columns and two tiles), made once for the plans of these
    columns and tiles (a plan picked at random is seldom picked again: made per lay-out when
    first picked, most picks would make theirs); and the same answers (the same objects) in a
    list, ``(seg, empty, q)`` at ``((q << len(words)) + mask) * segments + seg``, ``mask`` the empty
    columns' bits (``1 << column`` each), None elsewhere: the medico's pick reads it by an index,
    without a tuple key to hash."""
    out: dict[tuple, tuple[str, ...]] = {}
    for seg, u in enumerate(_segments(len(tiles))[1:], 1):
        ranked = _rank_order(tiles, u)
        for e in range(len(u), len(words) + 1):
            for empty in combinations(range(len(words)), e):
                for q, cols in enumerate(_placements(e, len(u))):
                    tail: list[str] = []
                    for k in ranked:
                        tail += (tiles[u[k]][0], words[empty[cols[k]]])
                    out[seg, empty, q] = tuple(tail)
    segments = len(_segments(len(tiles)))
    by_mask: list[tuple[str, ...] | None] = [None] * ((perm(len(words), len(tiles)) << len(words)) * segments)
    for (seg, empty, q), got in out.items():
        by_mask[((q << len(words)) + sum(1 << c for c in empty)) * segments + seg] = got
    return out, by_mask


@lru_cache(maxsize=1024)
def _tile_words(tail: tuple[str, ...]) -> Mapping[str, tuple[str, ...]]:
    """The words of a plan with action tiles (read-only, as ``planning.read`` gives them): each
    tile's word -> its column's word, from the tiles' words of :meth:`TiledPlans.tiles_at`."""
    return MappingProxyType({w: (c,) for w, c in zip(tail[::2], tail[1::2])})


def _rank_order(tiles: tuple[tuple[str, int], ...], u: tuple[int, ...]) -> tuple[int, ...]:
    """The places in ``u`` (tiles of a segment) in the rank order of their plan words."""
    ranks = [PLAN_WORDS[tiles[t][0]][1] for t in u]
    return tuple(sorted(range(len(u)), key=ranks.__getitem__))


@lru_cache(maxsize=256)
def tiled_plans(available: int, columns: int, per_column: int, words: tuple[str, ...],
                tiles: tuple[tuple[str, int], ...] = ()) -> TiledPlans:
    """The one :class:`TiledPlans` of a situation (the same arguments, the same object)."""
    return TiledPlans(available, columns, per_column, words, tiles)


class PlanVariants(_Lazy):
    """Each plan of ``parents`` (a :class:`TiledPlans`) replaced by its variants, in the order
    ``variants`` gives (each parent's variants together), as a read-only sequence that makes an
    action only when asked: ``len``, indexing, ``in`` and ``index`` cost about one action, not
    the whole list.  Each plan is made once and kept: ``self[i] is self[i]``, as in a list.
    Iterating makes them all.  Equal to a list or tuple of the same actions.

    ``variants`` (the medico's, one object per situation) counts, orders and makes the plans
    without a pass over the base plans: ``starts``, where each segment's plans start, then their
    number; ``pick(i)``, the i-th plan (``0 <= i < starts[-1]``) and its reading
    (``planning.read``'s answer, :meth:`reading`), in one call; ``place(seg, b, q)``, where
    the variants of the parent ``(seg, b, q)`` start in its segment; ``sizes(seg)``, per base
    plan how many variants each parent of segment ``seg`` has (all parents of one base plan in
    one segment have as many; asked only when the sequence is searched or made in full);
    ``with_variants(seg)``, per base plan 1 if they have any, else 0 (made without counting
    them); ``nth(parent_args, seg, b, r)``, the r-th variant of a parent; ``words(seg, b)``,
    the words each variant of a parent of ``(seg, b)`` adds to the parent's, in the variants'
    order (word -> the word and its arguments: a parent's variants add the same words whatever
    columns its tiles cover); ``find(action)``, the parent's arguments of an action and a function of the
    parent's ``(seg, b)`` giving the variant's rank r (None when it is none of the variants),
    or None.  ``recipe``: ``(function, arguments)`` that make the same sequence in
    another process.
    """

    __slots__ = ("parents", "_v", "_pick", "_sizes", "_having", "_seg_starts", "_n", "_all", "_made", "_last", "_read",
                 "_recipe", "__weakref__")
    made_in_full = 0      # sequences made in full so far in this process (a memo of them weighs them again)

    def __init__(self, parents: TiledPlans, variants, recipe: tuple | None = None):
        self.parents = parents
        self._v = variants
        self._pick = variants.pick
        self._recipe = recipe
        self._sizes: list = [None] * len(parents.segments)      # per segment, made when asked (sizes_at)
        self._having: list = [None] * len(parents.segments)     # per segment, made when asked (with_variants)
        self._seg_starts: tuple[int, ...] = variants.starts
        self._n: int = variants.starts[-1]
        self._all: tuple[Action, ...] | None = None
        self._made: dict[int, Action] = {}     # index -> the plan made for it (one object per plan)
        self._last: Action | None = None       # the plan last given by indexing
        self._read: tuple | None = None        # its reading if made then (until taken)

    @property
    def recipe(self) -> tuple | None:
        """``(function, arguments)`` that make these plans again, or None (rules/plan_choices.py
        keeps its answers by it)."""
        return self._recipe

    def sizes_at(self, seg: int) -> Sequence[int]:
        """Per base plan, how many variants each parent of segment ``seg`` has (0: none of
        its parents is legal), made when first asked."""
        return self._sizes_at(seg)

    def with_variants(self, seg: int) -> Sequence[int]:
        """Per base plan, 1 if the parents of segment ``seg`` have any variant (its
        :meth:`sizes_at` not 0), else 0, made when first asked without counting them
        (rules/plan_choices.py reads it: a planning situation new to the process does not pay
        for the counts)."""
        w = self._having[seg]
        if w is None:
            w = self._having[seg] = self._v.with_variants(seg)
        return w

    def _sizes_at(self, seg: int) -> Sequence[int]:
        z = self._sizes[seg]
        if z is None:
            z = self._sizes[seg] = self._v.sizes(seg)
        return z

    def variant_words(self, seg: int, b: int) -> Sequence[Mapping[str, tuple[str, ...]]]:
        """Per variant of a parent of base plan ``b`` in segment ``seg``, in order, the plan
        words it adds to the parent's (word -> the word and its arguments), made without making
        the variants (rules/plan_choices.py reads it)."""
        return self._v.words(seg, b) if self.with_variants(seg)[b] else ()

    def __len__(self) -> int:
        return self._n

    def _start_of(self, j: int) -> tuple[int, int]:
        """Where the variants of parent ``j`` start, and how many there are."""
        return self._start(*self.parents.locate(j))

    def _start(self, seg: int, b: int, q: int) -> tuple[int, int]:
        """Where the variants of the parent ``(seg, b, q)`` start, and how many there are."""
        size = self._sizes_at(seg)[b]
        return self._seg_starts[seg] + (self._v.place(seg, b, q) if size else 0), size

    def variants_of(self, j: int) -> tuple[Action, ...]:
        """The plans ``parents[j]`` gives, in order (a consumer that wants only some parents
        walks ``parents`` and asks for theirs)."""
        start, size = self._start_of(j)
        if self._all is not None:
            return self._all[start:start + size]
        return tuple(self[i] for i in range(start, start + size))

    @property
    def made(self) -> bool:
        """Whether every action has been made (and is kept)."""
        return self._all is not None

    def weight(self) -> int:
        """The actions kept when every one has been made, else 0 (a memo's weight of it: the
        plans made one at a time are few)."""
        return len(self._all) if self._all is not None else 0

    def materialized(self) -> tuple[Action, ...]:
        """Every action, made once and kept."""
        if self._all is None:
            parents, nth, place = self.parents.materialized(), self._v.nth, self._v.place
            out: list[Action] = [None] * len(self)    # type: ignore[list-item]
            j = 0
            for seg in range(len(self._sizes)):
                sizes = self._sizes_at(seg)
                for b, m in enumerate(self.parents.multiplicity(seg)):
                    for q in range(m):
                        if sizes[b]:
                            args = parents[j].args
                            start = self._seg_starts[seg] + place(seg, b, q)
                            out[start:start + sizes[b]] = [nth(args, seg, b, r) for r in range(sizes[b])]
                        j += 1
            for i, a in self._made.items():
                out[i] = a
            self._all, self._made = tuple(out), {}
            PlanVariants.made_in_full += 1
        return self._all

    def index(self, action, start: int = 0, stop: int | None = None) -> int:
        at = self._v.find(action) if type(action) is Action else None
        where = self.parents.find(at[0]) if at is not None else None
        if at is not None and where is not None:
            seg, b, q = where
            r = at[1](seg, b)
            if r is not None:
                i = self._start(seg, b, q)[0] + r
                if start <= i and (stop is None or i < stop):
                    return i
        raise ValueError(f"{action!r} is not one of the plans")

    def __contains__(self, action) -> bool:
        try:
            self.index(action)
        except ValueError:
            return False
        return True

    __hash__ = None   # type: ignore[assignment]

    def __reduce__(self):
        """Pickled (sent to another process) as its ``recipe`` (a module function and its
        arguments that make it again: the parents and the seat's limits, not every plan), else
        as the tuple of its actions."""
        return self._recipe if self._recipe is not None else (tuple, (self.materialized(),))

    def __repr__(self) -> str:
        return f"<PlanVariants of {len(self.parents)} plans: {len(self)} plans>"
