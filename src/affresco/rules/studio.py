"""Studio: 3 Thalers per studio apprentice (rulebook 'Studio: Paint portraits')."""
from __future__ import annotations

from typing import Final

from .actions import PASS, Action
from .thalers import earn
from .state import State

STUDIO: Final[Action] = Action("studio")


def start(s: State, fig: int, count: int) -> None:
    s.left = count


def legal(s: State, fig: int) -> list[Action]:
    return [STUDIO, PASS]


def apply(s: State, fig: int, action: Action) -> None:
    gained = s.comp.rules["studio"]["thalers_per_apprentice"] * s.left
    earn(s, fig, gained)
    s.add_event({"kind": "studio", "figure": fig, "amount": gained})
    s.left = 0
