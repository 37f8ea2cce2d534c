"""Phase 2, planning: each player secretly places apprentices on the action sheet (R1, R4).

Five columns of three spaces; apprentices may be left unplaced.  Plans are secret until all
have committed and cannot be changed.  Leonardo's sheet is fixed (R13).
"""
from __future__ import annotations

from collections.abc import Mapping, Sequence
from functools import lru_cache
from types import MappingProxyType
from weakref import ref as ref_to

from .actions import PLAN_WORDS, Action, counts_text
from .plan_sequences import PlanVariants, TiledPlans, base_plans, tiled_plans
from .state import SIDE1, SIDE2, State

__all__ = ["PlanVariants", "TiledPlans", "apply", "column_words", "column_words_of", "is_legal", "legal",
           "leonardo_plan", "options", "plan_set", "plans", "read", "refusal", "reveal"]


plans = base_plans     # the base game's plans (rules/plan_sequences.py)


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


def options(s: State, seat: int) -> Sequence[Action]:
    """The seat's legal plans as the plan hooks give them, none made yet: the base plans (a
    shared tuple) when no module hooks planning, else what the hooks ``plan_options`` make of
    a :class:`TiledPlans` of the base game's plans, each taking and giving a sequence (modules
    with action tiles add theirs with ``with_tile``; the medico's words make a
    :class:`PlanVariants` of them).  The answer of a situation (the seat's apprentices, the
    action sheet's side and each module's ``plan_situation``) is kept while the modules keep
    it (a weak reference: the sequences are the modules' memos), so that the same situation
    skips the hooks.  :func:`legal` and rules/plan_choices.py read it."""
    table = s.hooks
    hooks = table.plan_options
    sheet = s.comp.rules["action_sheet"]
    n = s.apprentices(seat)
    if not hooks:
        return plans(n, sheet["columns"], sheet["spaces_per_column"])
    kept = table.plans_kept
    if kept is not None:
        key: tuple = (n, s.side2, seat < s.n)
        for situation in table.plan_situation:
            key += (situation(s, seat),)
        ref = kept.get(key)
        if ref is not None:
            hit = ref()
            if hit is not None:
                return hit
    out: Sequence[Action] = tiled_plans(n, sheet["columns"], sheet["spaces_per_column"], column_words(s))
    for hook in hooks:
        out = hook(s, seat, out)
    if kept is not None and type(out) in _KEPT_TYPES:
        if len(kept) >= KEPT_SITUATIONS:
            kept.clear()
        kept[key] = ref_to(out)
    return out


KEPT_SITUATIONS = 4096     # planning situations whose plans options() keeps per hook table (then it starts again)
_KEPT_TYPES = (TiledPlans, PlanVariants)


def legal(s: State, seat: int) -> list[Action] | TiledPlans | PlanVariants:
    """The seat's legal plans (:func:`options`): a new list in the base game, else the
    read-only, shared sequence the plan hooks made: a :class:`TiledPlans` when modules lay
    action tiles (bells, wall fresco), a :class:`PlanVariants` when the medico's words multiply
    them (a hook's plans of another kind: a new list of them)."""
    out = options(s, seat)
    if type(out) is TiledPlans or type(out) is PlanVariants:
        return out
    return list(out)


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
    return _SIDE_WORDS[s.side2]


def column_words_of(cols: Sequence[str]) -> tuple[str, ...]:
    """:func:`column_words` of an action sheet side's columns (``state.SIDE1``/``SIDE2``, or a
    view's ``columns``)."""
    return _column_words(tuple(cols))


@lru_cache(maxsize=64)
def _column_words(cols: tuple[str, ...]) -> tuple[str, ...]:
    return tuple(c if c not in cols[:i] else f"{c}{cols[:i].count(c) + 1}" for i, c in enumerate(cols))


_SIDE_WORDS = (_column_words(SIDE1), _column_words(SIDE2))     # column_words per action sheet side (State.columns)


def apply(s: State, seat: int, action: Action) -> None:
    """Carry out a legal plan: one taken from the seat's offered :class:`TiledPlans` or
    :class:`PlanVariants` with the reading made with it (``taken``: the sequence forgets it), any
    other read from its text."""
    offered, s.offered = s.offered, None
    plan = offered is not None and offered[0] == seat and offered[1].taken(action) or read(action)
    assert plan is not None, "apply() is called with a legal plan"
    counts, words = plan
    s.plan[seat] = counts
    for hook in s.hooks.plan_apply:
        hook(s, seat, counts, words)
    s.add_event({"kind": "plan_committed", "figure": seat})
    s.add_event({"kind": "plan_chosen", "figure": seat, "plan": action.args[0]}, seat)   # module words: the module's events


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
        s.add_event({"kind": "plan_revealed", "figure": f, "plan": counts_text(s.plan[f])})
    for hook in s.hooks.after_planning:
        hook(s)
