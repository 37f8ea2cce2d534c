"""Phase 1: choosing get-up time and adjusting mood (rulebook 'Playing the game', 1.).

The figure furthest behind on the VP track chooses first (start spaces behind the track,
S1 furthest behind, R2); each get-up space holds one master painter.  Right after the choice
the mood changes, and only then the neutral apprentice is taken or an own apprentice set
aside (R3).  Leonardo has no mood (R13).
"""
from __future__ import annotations

from .actions import Action
from .state import State


def next_chooser(s: State) -> int | None:
    best = None
    for f, space in enumerate(s.getup):
        if space < 0 and (best is None or s.pos[f] < s.pos[best]):
            best = f
    return best


def _getup_actions(comp) -> tuple[tuple[Action, ...], dict[str, int]]:
    """The get-up action of every space of the hostel, and each time's space."""
    return (tuple(Action("getup", (h.time,)) for h in comp.hostel),
            {h.time: i for i, h in enumerate(comp.hostel)})


def legal(s: State, fig: int) -> list[Action]:
    actions = s.comp.derived("getup_actions", _getup_actions)[0]
    taken = s.getup
    return [a for i, a in enumerate(actions) if i not in taken]


def apply(s: State, fig: int, action: Action) -> None:
    space = s.comp.derived("getup_actions", _getup_actions)[1][action.args[0]]
    s.getup[fig] = space
    s.add_event({"kind": "getup", "figure": fig, "time": action.args[0]})
    if fig < s.n:
        change_mood(s, fig, s.comp.hostel[space].mood)
    for hook in s.hooks.after_getup:   # (before the zone's apprentices: they see the old ones)
        hook(s, fig)
    if fig < s.n:
        zone = s.comp.mood_spaces[s.mood[fig]]
        s.neutral[fig] = zone == 1
        s.aside[fig] = zone == -1


def change_mood(s: State, seat: int, steps: int) -> None:
    """Move the mood marker ``steps`` up (negative: down); excess movement is lost (R3)."""
    s.mood[seat] = max(0, min(len(s.comp.mood_spaces) - 1, s.mood[seat] - steps))


def action_order(s: State) -> tuple[int, ...]:
    """Phase 2 player order: earliest get-up time first."""
    return tuple(sorted(range(s.figures), key=s.getup.__getitem__))
