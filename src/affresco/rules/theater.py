"""Theater: +2 mood per theater apprentice (R9).  The mood zones take effect only in the next
phase 1 (R3)."""
from __future__ import annotations

from typing import Final

from .actions import PASS, Action
from .hostel import change_mood
from .state import State

THEATER: Final[Action] = Action("theater")


def start(s: State, fig: int, count: int) -> None:
    s.left = count


def legal(s: State, fig: int) -> list[Action]:
    return [THEATER, PASS]


def steps(s: State, fig: int) -> int:
    per = s.comp.rules["theater"]["mood_per_apprentice"]
    for hook in s.hooks.theater_steps:
        per = hook(s, fig, per)
    return per * s.left


def apply(s: State, fig: int, action: Action) -> None:
    n = steps(s, fig)
    change_mood(s, fig, n)
    s.add_event({"kind": "theater", "figure": fig, "mood": n})
    s.left = 0
