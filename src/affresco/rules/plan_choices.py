"""A plan chosen as a short sequence of small choices (docs/notation.md, "plans as choices"):
its counts, then the value of each plan word of the modules in play, in the modules' order
(:func:`steps`: e.g. ``counts``, ``audience``, ``wall``, ``ill``, ``medico``).  Learning code
(``affresco.envs``, encoding 2) offers these few choices one at a time instead of up to
~110,000 plans at once (the medico's, issue #14).

A choice is a tuple of plan arguments: the counts text (``('1-2-0-1-1',)``) at the first step;
then per plan word ``()`` (the word is not in the plan) or the word and its arguments
(``('audience', 'studio')``, ``('ill', '0-1-0-0-0')``, ``('medico',)``).  :func:`choices` gives
the choices at the next step after ``prefix``: those of the legal plans that agree with the
prefix (every one leads on to at least one legal plan), found from the structure of the legal
plans (rules/plan_sequences.py: the base plans, the ways to lay action tiles on empty columns,
each plan's variants), never by a pass over the plans.  :func:`plan_of` joins a full sequence
into its plan; :func:`as_choices` splits a plan into its choices; :func:`counts_of` reads the
apprentices per column a choice holds.
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from itertools import chain, compress
from typing import Final

from .actions import PLAN_WORDS, Action
from .memo import IdentityMemo
from .plan_sequences import PlanVariants, TiledPlans, base_counts
from .planning import _counts, options, read
from .state import PLAN, State

__all__ = ["as_choices", "choices", "counts_of", "is_planning", "plan_of", "steps"]

COUNTS = "counts"
_NONE: tuple = ()


def steps(s: State) -> tuple[str, ...]:
    """The steps of a plan in this game: ``counts``, then the plan words of the modules in
    play in the modules' order (hooks.ORDER)."""
    return _steps(s.hooks)


@lru_cache(maxsize=64)
def _steps(hooks) -> tuple[str, ...]:
    return (COUNTS,) + tuple(w for m in hooks for w in m.plan_words)


def is_planning(s: State, seat: int) -> bool:
    """Whether ``seat``'s decision now is its plan (phase 2, no question of a module pending)."""
    from .flow import to_act
    return s.phase == PLAN and s.pending is None and not s.asks and seat in to_act(s)


def plan_of(choices: Sequence[tuple[str, ...]]) -> Action:
    """The plan a full sequence of choices makes: the counts, then the words present in their
    rank order (the notation's canonical order, docs/notation.md)."""
    words = sorted((c for c in choices[1:] if c), key=lambda c: PLAN_WORDS[c[0]][1])
    return Action("plan", tuple(chain(choices[0], *words)))


def counts_of(choice: Sequence[str]) -> tuple[int, ...] | None:
    """The apprentices per column (in column order) that a choice holds: the counts step's
    (``('1-2-0-1-1',)``) or a plan word's whose argument is counts (the medico's ill
    apprentices, ``('ill', '0-1-0-0-0')``); None for any other choice (``()``, a column, a
    word alone)."""
    found = _counts(choice[-1]) if choice else None
    return found if found is not None and len(found) > 1 else None


def as_choices(s: State, plan: Action) -> tuple[tuple[str, ...], ...]:
    """The choices of :func:`steps` that make ``plan`` (a plan of this game's words)."""
    read_plan = read(plan)
    if read_plan is None:
        raise ValueError(f"{plan} is not a plan")
    words = read_plan[1]
    names = steps(s)
    unknown = [w for w in words if w not in names]
    if unknown:
        raise ValueError(f"{plan}: {unknown[0]!r} is not a plan word of this game ({', '.join(names[1:]) or 'none'})")
    return ((plan.args[0],),) + tuple((w, *words[w]) if w in words else _NONE for w in names[1:])


class _Situation:
    """What :func:`choices` found in one situation (see :func:`_draft`): the game's steps, the
    prefixes known to be made of choices it gave, each with the choices after it, and (made at
    the first step after the counts, :meth:`tiled`) how the steps read the action tiles."""

    __slots__ = ("names", "known", "tiles")

    def __init__(self, names: tuple[str, ...]) -> None:
        self.names = names
        self.known: dict[tuple, tuple[tuple[str, ...], ...]] = {}
        self.tiles: tuple | None = None

    def weight(self) -> int:
        """The prefixes known (what the memo of situations bounds)."""
        return len(self.known)

    def tiled(self, tp: TiledPlans) -> tuple:
        """Per step, the index in ``tp.tiles`` of the action tile it lays (-1: a variant's
        word), and whether a later step lays one (then no variant word is chosen yet: a
        plan's variants follow its tiles); made once per situation's plans (``tp``)."""
        got = self.tiles
        if got is None or got[0] is not tp:
            index = {w: t for t, (w, _) in enumerate(tp.tiles)}
            tile = tuple(index.get(w, -1) for w in self.names)
            got = self.tiles = (tp, tile, tuple(any(t >= 0 for t in tile[k + 1:]) for k in range(len(tile))))
        return got


# situation (see _draft) -> its _Situation; at most 8,192 prefixes known in all
_SITUATIONS: Final = IdentityMemo(1024, 8192, _Situation.weight)


def choices(s: State, seat: int, prefix: Sequence[tuple[str, ...]] = ()) -> tuple[tuple[str, ...], ...]:
    """The choices at step ``len(prefix)`` of the seat's plan (see the module doc).  Raises
    ValueError if the seat is not planning (:func:`is_planning`) or ``prefix`` is not choices
    this function gave, one per step before (naming the first that is not).  A prefix is
    checked once per situation (its last choice among those after the rest): a step costs a
    look-up, not a scan of every earlier step's choices."""
    draft = _draft(s, seat)
    if draft is None:
        raise ValueError(f"seat {seat!r} is not planning now")
    prefix = tuple(prefix)
    seq, situation = draft
    names = situation.names
    if len(prefix) >= len(names):
        raise ValueError(f"a plan takes {len(names)} choices ({', '.join(names)}); {len(prefix)} are given")
    try:
        hit = situation.known.get(prefix)
    except TypeError:       # a choice that cannot be hashed (a list): compared as given, refused
        for k, choice in enumerate(prefix):
            offered = _offered_after(seq, situation, prefix[:k])
            if choice not in offered:
                raise ValueError(_refusal(situation, prefix[:k], choice, offered)) from None
        raise
    return hit if hit is not None else _offered_after(seq, situation, prefix)


def _offered_after(seq: Sequence[Action], situation: _Situation, prefix: tuple) -> tuple[tuple[str, ...], ...]:
    """The choices after ``prefix``, once it is checked (each choice one of those offered after
    the choices before it, else ValueError naming the first that is not); kept in
    ``situation``."""
    if prefix:
        before = prefix[:-1]
        offered = situation.known.get(before)
        if offered is None:
            offered = _offered_after(seq, situation, before)
        if prefix[-1] not in offered:    # once per prefix and situation
            raise ValueError(_refusal(situation, before, prefix[-1], offered))
    out = situation.known[prefix] = _choices(situation, seq, prefix)
    return out


def _refusal(situation: _Situation, before: tuple, choice: object, offered: tuple) -> str:
    k = len(before)
    return (f"{choice!r} is not a choice of step {k} ({situation.names[k]}) after {before!r}; "
            f"choices: {offered[:12]!r}{' ...' if len(offered) > 12 else ''}")


def _draft(s: State, seat: int) -> tuple[Sequence[Action], _Situation] | None:
    """The seat's legal plans in this position (:func:`planning.options`) and their situation,
    kept in the state until it changes (``State.drafts``, cleared by flow.advance); None if the
    seat is not planning.  A situation is the legal plans' identity (the engine's memos give
    one object per situation) or, for the medico's plans, which the engine may make anew for a
    situation seen before, what makes them (their parents' identity and the seat's limits),
    with the game's steps."""
    drafts = s.drafts
    if drafts is not None:
        hit = drafts.get(seat)
        if hit is not None:
            return hit
    if not is_planning(s, seat):
        return None
    seq = options(s, seat)
    names = steps(s)
    keeper: object = seq
    key: tuple = names
    if type(seq) is PlanVariants and seq.recipe is not None:
        made, args = seq.recipe
        keeper = args[0]
        key = (made, args[1:], names)
    situation = _SITUATIONS.get(keeper, key)
    if situation is None:
        situation = _SITUATIONS.put(keeper, _Situation(names), key)
    draft = (seq, situation)
    if drafts is None:
        drafts = s.drafts = {}
    drafts[seat] = draft
    return draft


def _choices(situation: _Situation, seq: Sequence[Action], prefix: tuple) -> tuple[tuple[str, ...], ...]:
    k = len(prefix)
    pv = seq if type(seq) is PlanVariants else None
    tp = pv.parents if pv is not None else seq if type(seq) is TiledPlans else None
    if k == 0:
        if tp is None:
            return _counts_of(tuple(seq))
        every = _singles(tp.base_key)
        if pv is None:                # the plans without tiles: every base plan
            return every
        return tuple(compress(every, pv.with_variants(0)))    # those with variants without tiles (_fits)
    if tp is None:
        return (_NONE,)              # no module word in this situation's plans
    b = tp.base_index()[prefix[0][0]]
    _, tile, later = situation.tiled(tp)
    placed = [tile[i] for i in range(1, k) if tile[i] >= 0 and prefix[i]]    # (a tile's choice: its word, column)
    t = tile[k]
    if t >= 0:
        if not _fits(tp, pv, tuple(sorted(placed + [t])), b):
            return (_NONE,)
        taken = [prefix[i][1] for i in range(1, k) if tile[i] >= 0 and prefix[i]]
        return (_NONE,) + _columns(tp.words, tp.base()[0][b], situation.names[k], tuple(taken))
    if pv is None or later[k]:
        return (_NONE,)              # a word no plan of this situation has
    words = pv.variant_words(tp.segments.index(tuple(sorted(placed))), b)
    done = tuple([(situation.names[i], prefix[i]) for i in range(1, k) if tile[i] < 0])
    return _variant_choices(words, situation.names[k], done)


@lru_cache(maxsize=4096)
def _columns(words: tuple[str, ...], counts: tuple[int, ...], word: str,
             taken: tuple[str, ...]) -> tuple[tuple[str, ...], ...]:
    """The tile ``word``'s choices on a base plan of ``counts``: each empty column (its column
    word) no tile laid before covers (``taken``)."""
    return tuple((word, words[col]) for col in range(len(counts)) if not counts[col] and words[col] not in taken)


# the variant words of a kind (PlanVariants.variant_words: one read-only object per kind) -> its
# choices per (word, the variant words chosen before) (_variant_choices)
_VARIANTS: dict[int, tuple[Sequence, dict[tuple, tuple[tuple[str, ...], ...]]]] = {}


def _variant_choices(variants: Sequence[Mapping[str, tuple[str, ...]]], word: str,
                     done: tuple) -> tuple[tuple[str, ...], ...]:
    """The choices of ``word`` among ``variants`` (each: word -> the word and its arguments)
    that agree with the choices ``done`` (``(word, choice)`` pairs), in the variants' order,
    each once; kept per variants object (by identity, which the entry keeps alive) and
    question."""
    hit = _VARIANTS.get(id(variants))
    if hit is None or hit[0] is not variants:
        if len(_VARIANTS) > 4096:
            _VARIANTS.clear()
        hit = _VARIANTS[id(variants)] = (variants, {})
    asked = hit[1]
    key = (word, done)
    out = asked.get(key)
    if out is None:
        seen: dict[tuple, None] = {}
        for v in variants:
            if all(v.get(w, _NONE) == c for w, c in done):
                seen[v.get(word, _NONE)] = None
        out = asked[key] = tuple(seen)
    return out


@lru_cache(maxsize=64)
def _counts_of(plans: tuple[Action, ...]) -> tuple[tuple[str, ...], ...]:
    return tuple((a.args[0],) for a in plans)


@lru_cache(maxsize=64)
def _singles(base_key: tuple[int, int, int]) -> tuple[tuple[str, ...], ...]:
    """The counts step's choices of the base plans of ``base_key`` (TiledPlans.base_key)."""
    return tuple((t,) for t in base_counts(*base_key)[4])


def _fits(tp: TiledPlans, pv: PlanVariants | None, tiles: tuple[int, ...], b: int) -> bool:
    """Whether base plan ``b`` with the action tiles ``tiles`` (indexes of ``tp.tiles``,
    increasing) is the parent of a legal plan.  Another tile only takes away (an empty
    column, apprentices), so these tiles fit iff the plans with exactly them exist."""
    seg = tp.segments.index(tiles)
    return bool(tp.multiplicity(seg)[b]) and (pv is None or bool(pv.with_variants(seg)[b]))

