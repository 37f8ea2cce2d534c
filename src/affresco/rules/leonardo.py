"""Leonardo, the imaginary third player of the 2-player game (supplement, R13).

His controller (alternating every round, starting with the player who chooses get-up time
first in round 1) makes all his choices.  At the market he must close one open booth.  In
the cathedral he restores exactly one tile a round, without paint, moving his master painter
one orthogonal step onto an unrestored segment; if none is adjacent he jumps to a lowest
valued tile.  He scores tile VP + bishop bonus (bishop as he finds it), never moves the
bishop himself, has no mood, money or paint, and does not restore in the final round.
"""
from __future__ import annotations

from typing import Callable, ClassVar

from . import cathedral
from .actions import Action
from .board import INDEX, NAMES, NEIGHBOURS4
from .state import State

NAME = "Leonardo"


def _start(s: State, fig: int, count: int) -> None:
    s.left = count


class Market:
    start: ClassVar[Callable[[State, int, int], None]] = staticmethod(_start)

    @staticmethod
    def legal(s: State, fig: int) -> list[Action]:
        from .market import BOOTHS
        return [Action("close", (BOOTHS[b],)) for b, t in enumerate(s.booths) if t]

    @staticmethod
    def apply(s: State, fig: int, action: Action) -> None:
        from .market import BOOTHS, return_booth
        return_booth(s, BOOTHS.index(action.args[0]))
        s.add_event({"kind": "close", "figure": fig, "booth": action.args[0]})
        s.left = 0


def restore_targets(s: State) -> list[int]:
    near = [i for i in NEIGHBOURS4[s.leo_pos] if s.fresco[i] is not None] if s.leo_pos >= 0 else []
    if near:
        return near
    open_ = [i for i, t in enumerate(s.fresco) if t is not None]
    if not open_:
        return []
    low = min(s.fresco[i].vp for i in open_)
    return [i for i in open_ if s.fresco[i].vp == low]


class Cathedral:
    start: ClassVar[Callable[[State, int, int], None]] = staticmethod(_start)

    @staticmethod
    def legal(s: State, fig: int) -> list[Action]:
        return [Action("restore", (NAMES[i],)) for i in restore_targets(s)]

    @staticmethod
    def apply(s: State, fig: int, action: Action) -> None:
        segment = INDEX[action.args[0]]
        s.leo_pos = segment
        cathedral.restore(s, fig, segment, None)
        s.left = 0


class Elsewhere:
    """Studio and workshop: nothing in the base game (modules add actions)."""

    start: ClassVar[Callable[[State, int, int], None]] = staticmethod(_start)

    @staticmethod
    def legal(s: State, fig: int) -> list[Action]:
        return []

    @staticmethod
    def apply(s: State, fig: int, action: Action) -> None:  # pragma: no cover - modules only
        s.left = 0


LOCATIONS = {"market": Market, "cathedral": Cathedral, "studio": Elsewhere,
             "workshop": Elsewhere, "theater": Elsewhere}
