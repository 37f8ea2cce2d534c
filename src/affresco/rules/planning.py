"""Phase 2, planning: each player secretly places apprentices on the action sheet (R1, R4).

Five columns of three spaces; apprentices may be left unplaced.  Plans are secret until all
have committed and cannot be changed.  Leonardo's sheet is fixed (R13).
"""
from __future__ import annotations

from functools import lru_cache
from itertools import product

from .actions import Action
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


def legal(s: State, seat: int) -> list[Action]:
    sheet = s.comp.rules["action_sheet"]
    actions = list(plans(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"]))
    for hook in s.hooks.plan_actions:
        hook(s, seat, actions)   # action tiles (modules): 'plan 0-1-0-1-1 audience studio'
    return actions


def is_legal(s: State, seat: int, action: Action) -> bool:
    if s.hooks.plan_actions:
        return action in legal(s, seat)
    sheet = s.comp.rules["action_sheet"]
    return action in plan_set(s.apprentices(seat), sheet["columns"], sheet["spaces_per_column"])


def column_words(s: State) -> tuple[str, ...]:
    """The columns of this round's action sheet as notation words: the location's name, a
    repeated location numbered ('cathedral2', the final round's second cathedral column)."""
    words = []
    for c in s.columns():
        words.append(c if c not in s.columns()[:len(words)] else f"{c}{s.columns()[:len(words)].count(c) + 1}")
    return tuple(words)


def tiles_of(action: Action) -> dict[str, str]:
    """The action tiles of a plan: {'audience': 'studio', ...} (tile word -> column word)."""
    return dict(zip(action.args[1::2], action.args[2::2]))


def apply(s: State, seat: int, action: Action) -> None:
    s.plan[seat] = tuple(int(x) for x in action.args[0].split("-"))
    for hook in s.hooks.plan_committed:
        hook(s, seat, action)
    s.log_event("plan_committed", figure=seat)
    tiles = tiles_of(action)   # module action tiles: {'wall': 'theater'}
    s.log_event("plan_chosen", seat, figure=seat, plan=action.args[0], **({"tiles": tiles} if tiles else {}))


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
    for hook in s.hooks.plans_revealed:
        hook(s)
