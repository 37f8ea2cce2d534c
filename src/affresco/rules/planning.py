"""Phase 2, planning: each player secretly places apprentices on the action sheet (R1, R4).

Five columns of three spaces; apprentices may be left unplaced.  Plans are secret until all
have committed and cannot be changed.  Leonardo's sheet is fixed (R13).
"""
from __future__ import annotations

from bisect import bisect_right
from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from itertools import accumulate, product
from typing import Callable, Iterable, Iterator

from .actions import PLAN_WORDS, Action
from .state import State


@lru_cache(maxsize=None)
def plans(available: int, columns: int, per_column: int) -> tuple[Action, ...]:
    out = []
    for counts in product(range(per_column + 1), repeat=columns):
        if sum(counts) <= available:
            out.append(Action("plan", ("-".join(map(str, counts)),)))
    return tuple(out)


@lru_cache(maxsize=None)
def plan_set(available: int, columns: int, per_column: int) -> frozenset[Action]:
    return frozenset(plans(available, columns, per_column))


@lru_cache(maxsize=4096)
def _counts(text: str) -> tuple[int, ...] | None:
    try:
        return tuple(int(x) for x in text.split("-"))
    except ValueError:
        return None


@lru_cache(maxsize=8192)
def read(action: Action) -> tuple[tuple[int, ...], Mapping[str, tuple[str, ...]]] | None:
    """A plan's counts per column and its module words (word -> arguments, read-only), or None
    if the text is no plan ('plan 1-2-0-1-1 ill 0-1-0-0-0 medico').  Memoised: a plan is read
    when checked and again when carried out."""
    if action.kind != "plan" or not action.args:
        return None
    counts = _counts(action.args[0])
    if counts is None:
        return None
    words: dict[str, tuple[str, ...]] = {}
    rest = action.args[1:]
    while rest:
        arity = PLAN_WORDS.get(rest[0], (len(rest) - 1, 0))[0]
        words[rest[0]] = tuple(rest[1:1 + arity])
        rest = rest[1 + arity:]
    return counts, MappingProxyType(words)


@lru_cache(maxsize=64)
def _known_words(hooks) -> tuple[str, ...]:
    """The plan words of the modules in a hook table."""
    return tuple(w for m in hooks for w in m.plan_words)


class PlanVariants(Sequence):
    """Each of a module's ``parents`` plans replaced by its variants (the plan with the
    module's words), in order, as a read-only sequence that makes an action only when asked:
    ``len``, indexing, ``in`` and ``index`` cost about one action, not the whole list (a medico
    plan decision offers up to ~110,000 plans).  Each plan is made once and kept: ``self[i] is
    self[i]``, as in a list.  Iterating makes them all.  Equal to a list or tuple of the same
    actions.

    ``sizes``: how many variants each parent has; ``nth(j, r)``: the r-th variant of parent j;
    ``find(action)``: ``(j, r)`` of an action, or None when it is none of the variants;
    ``recipe``: ``(function, arguments)`` that make the same sequence in another process.
    """

    __slots__ = ("parents", "_ends", "_nth", "_find", "_all", "_made", "_recipe")

    def __init__(self, parents: Sequence[Action], sizes: Iterable[int],
                 nth: Callable[[int, int], Action], find: Callable[[Action], tuple[int, int] | None],
                 recipe: tuple | None = None):
        self.parents = parents
        self._recipe = recipe
        self._ends = list(accumulate(sizes))
        self._nth, self._find = nth, find
        self._all: tuple[Action, ...] | None = None
        self._made: dict[int, Action] = {}     # index -> the plan made for it (one object per plan)

    def __len__(self) -> int:
        return self._ends[-1] if self._ends else 0

    def __getitem__(self, i):
        if isinstance(i, slice):
            return [self[k] for k in range(*i.indices(len(self)))]
        if self._all is not None:
            return self._all[i]
        n = len(self)
        if i < 0:
            i += n
        if not 0 <= i < n:
            raise IndexError("plan index out of range")
        hit = self._made.get(i)
        if hit is None:
            j = bisect_right(self._ends, i)
            hit = self._made[i] = self._nth(j, i - (self._ends[j - 1] if j else 0))
        return hit

    def __iter__(self) -> Iterator[Action]:
        return iter(self.materialized())

    def variants_of(self, j: int) -> tuple[Action, ...]:
        """The plans ``parents[j]`` gives, in order (a consumer that wants only some parents
        walks ``parents`` and asks for theirs)."""
        start, end = (self._ends[j - 1] if j else 0), self._ends[j]
        if self._all is not None:
            return self._all[start:end]
        return tuple(self[i] for i in range(start, end))

    @property
    def made(self) -> bool:
        """Whether every action has been made (and is kept)."""
        return self._all is not None

    def materialized(self) -> tuple[Action, ...]:
        """Every action, made once and kept."""
        if self._all is None:
            out: list[Action] = []
            nth, made, start = self._nth, self._made, 0
            for j, end in enumerate(self._ends):
                out.extend(made.get(i) or nth(j, i - start) for i in range(start, end))
                start = end
            self._all = tuple(out)
            self._made = {}
        return self._all

    def index(self, action, start: int = 0, stop: int | None = None) -> int:
        at = self._find(action) if type(action) is Action else None
        if at is not None:
            j, r = at
            i = (self._ends[j - 1] if j else 0) + r
            if start <= i and (stop is None or i < stop):
                return i
        raise ValueError(f"{action!r} is not one of the plans")

    def __contains__(self, action) -> bool:
        return type(action) is Action and self._find(action) is not None

    def __eq__(self, other) -> bool:
        if isinstance(other, (PlanVariants, list, tuple)):
            return len(self) == len(other) and all(a == b for a, b in zip(self, other))
        return NotImplemented

    __hash__ = None   # type: ignore[assignment]

    def __reduce__(self):
        """Pickled (sent to another process) as its ``recipe`` (a module function and its
        arguments that make it again: the parents, not every plan), else as the tuple of its
        actions."""
        return self._recipe if self._recipe is not None else (tuple, (self.materialized(),))

    def __repr__(self) -> str:
        return f"<PlanVariants of {len(self.parents)} plans: {len(self)} plans>"


def legal(s: State, seat: int) -> list[Action] | PlanVariants:
    """The seat's legal plans: a new list, or a :class:`PlanVariants` (read-only, shared)
    when a module's words multiply them (the medico's ill apprentices and tile)."""
    sheet = s.comp.rules["action_sheet"]
    # a Sequence, not the tuple plans() gives: a hook may return PlanVariants (and the compiled
    # build checks a variable's type at run time)
    out: Sequence[Action] = plans(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"])
    for hook in s.hooks.plan_options:   # each takes and gives a sequence (memoise on its identity)
        out = hook(s, seat, out)
    return out if type(out) is PlanVariants else list(out)


def refusal(s: State, seat: int, action: Action) -> str | None:
    """Why a plan is illegal (None: it is legal)."""
    plan = read(action)
    if plan is None:
        return "a plan is apprentice counts per column, like 'plan 1-2-0-1-1'"
    counts, words = plan
    sheet = s.comp.rules["action_sheet"]
    if len(counts) != sheet["columns"]:
        return f"a plan has {sheet['columns']} columns ({', '.join(s.columns())})"
    if max(counts) > sheet["spaces_per_column"]:
        return f"a column has {sheet['spaces_per_column']} spaces"
    known = _known_words(s.hooks)
    unknown = [w for w in words if w not in known]
    if unknown:
        return (f"{unknown[0]!r} is not a plan word (words of the modules in play: "
                f"{', '.join(known) or 'none'})")
    for w, args in words.items():
        if len(args) != PLAN_WORDS[w][0]:
            return f"the plan word {w!r} takes {PLAN_WORDS[w][0]} argument(s)"
    used = sum(counts) + sum(hook(s, seat, words) for hook in s.hooks.placed_off_sheet)
    have = s.apprentices(seat)
    if used > have:
        return f"the plan uses {used} apprentices; you have {have}"
    for hook in s.hooks.plan_refusal:
        why = hook(s, seat, counts, words)
        if why:
            return why
    return None


def is_legal(s: State, seat: int, action: Action) -> bool:
    sheet = s.comp.rules["action_sheet"]
    if len(action.args) == 1:
        if action not in plan_set(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"]):
            return False
        if not s.hooks.plan_refusal and not s.hooks.placed_off_sheet:
            return True   # a plan of the base game's legal plans: nothing more to check
    return refusal(s, seat, action) is None


def column_words(s: State) -> tuple[str, ...]:
    """The columns of this round's action sheet as plan-word arguments: the location's name, a
    repeated location numbered ('cathedral2', the final round's second cathedral column)."""
    return _column_words(s.columns())


def column_words_of(cols: Sequence[str]) -> tuple[str, ...]:
    """:func:`column_words` of an action sheet side's columns (``state.SIDE1``/``SIDE2``, or a
    view's ``columns``)."""
    return _column_words(tuple(cols))


@lru_cache(maxsize=64)
def _column_words(cols: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c if c not in cols[:i] else f"{c}{cols[:i].count(c) + 1}" for i, c in enumerate(cols))


def apply(s: State, seat: int, action: Action) -> None:
    plan = read(action)
    assert plan is not None, "apply() is called with a legal plan"
    counts, words = plan
    s.plan[seat] = counts
    for hook in s.hooks.plan_apply:
        hook(s, seat, counts, words)
    s.log_event("plan_committed", figure=seat)
    s.log_event("plan_chosen", seat, figure=seat, plan=action.args[0])   # module words: the module's events


def leonardo_plan(s: State) -> tuple[int, ...]:
    """Leonardo: one apprentice at the market and one in the cathedral; in the final round
    his cathedral apprentice is removed (R13).  Modules add apprentices."""
    plan = [0] * len(s.columns())
    plan[0] = 1
    if not s.side2:
        plan[1] = 1
    for hook in s.hooks.leonardo_plan:
        hook(s, plan)
    return tuple(plan)


def reveal(s: State) -> None:
    if s.leonardo is not None:
        s.plan[s.leonardo] = leonardo_plan(s)
    for f in range(s.n):
        s.log_event("plan_revealed", figure=f, plan="-".join(map(str, s.plan[f])))
    for hook in s.hooks.after_planning:
        hook(s)
