"""Workshop: up to 2 blends per workshop apprentice (R9).

Each blend turns two paints into one per the blending table; a paint made in the workshop is
the player's at once and may be used by the next blend.
"""
from __future__ import annotations

from .actions import PASS, Action
from .paints import INDEX
from .state import State


def start(s: State, fig: int, count: int) -> None:
    s.left = count * s.comp.rules["workshop"]["blends_per_apprentice"]


def legal(s: State, fig: int) -> list[Action]:
    have = s.paints[fig]
    out = [PASS]
    for action, a, b in s.comp.derived("blend_actions", _blend_actions):
        if (have[a] >= 2) if a == b else (have[a] and have[b]):
            out.append(action)
    return out


def _blend_actions(comp) -> tuple[tuple[Action, int, int], ...]:
    """Each blend of the blending table as (its action, the two input paint indexes)."""
    return tuple((Action("blend", (output,)), a, b) for output, (a, b) in comp.blends.items())


def blend(s: State, fig: int, output: str, inputs: tuple[int, int]) -> None:
    """One blend: the two input paints become ``output`` (also used by modules' blends)."""
    a, b = inputs
    p = list(s.paints[fig])
    p[a] -= 1
    p[b] -= 1
    p[INDEX[output]] += 1
    s.paints[fig] = tuple(p)
    s.add_event({"kind": "blend", "figure": fig, "paint": output})
    s.left -= 1


def apply(s: State, fig: int, action: Action) -> None:
    blend(s, fig, action.args[0], s.comp.blends[action.args[0]])
