"""Final scoring (R12): in get-up order of the final round, module scoring first, then 1 VP
per 2 Thalers; a figure landing on an occupied space goes forward (R8)."""
from __future__ import annotations

from . import track
from .state import State


def final_scoring(s: State) -> None:
    per = s.comp.rules["end"]["thalers_per_vp"]
    for fig in s.order:
        if fig >= s.n:
            continue  # Leonardo has no money (R13)
        for hook in s.hooks.final_scoring:
            hook(s, fig)
        track.gain(s, fig, {"money": s.thalers[fig] // per}, "final", final=True)
    track.resolve(s)
