"""The victory point track (R8): one figure per space, each scoring event one move.

Landing on an occupied space, the mover chooses the nearest free space behind (never below
space 1) or in front; in final scoring the figure always goes forward.
"""
from __future__ import annotations

from .actions import Action
from .state import State, vp_of

BEHIND = Action("track", ("behind",))
AHEAD = Action("track", ("ahead",))


def gain(s: State, fig: int, vp: int, why: str, final: bool = False) -> None:
    """Queue one scoring event of ``vp`` points for ``fig``."""
    if vp > 0:
        s.moves = s.moves + ((fig, vp, final),)
        s.log_event(f"{s.names[fig]} scores {vp} VP ({why})")


def resolve(s: State) -> None:
    """Carry out queued scoring events until one needs the mover's choice."""
    while s.moves and s.pending is None:
        (fig, vp, final), s.moves = s.moves[0], s.moves[1:]
        target = vp_of(s.pos[fig]) + vp
        taken = {p for f, p in enumerate(s.pos) if f != fig and p > 0}
        if target not in taken:
            s.pos[fig] = target
            continue
        ahead = target + 1
        while ahead in taken:
            ahead += 1
        behind = target - 1
        while behind >= 1 and behind in taken:
            behind -= 1
        if final or behind < 1:
            s.pos[fig] = ahead
        else:
            s.pending = (fig, behind, ahead)


def legal(s: State) -> list[Action]:
    return [BEHIND, AHEAD]


def apply(s: State, action: Action) -> None:
    fig, behind, ahead = s.pending
    s.pos[fig] = behind if action == BEHIND else ahead
    s.pending = None
    s.log_event(f"{s.names[fig]} stops {action.args[0]} on space {s.pos[fig]}")


def ranking_key(s: State, fig: int) -> int:
    """Higher is better: the order on the track decides the winner (R8), start spaces behind."""
    return s.pos[fig]
