"""Final scoring (R12): in get-up order of the final round, module scoring first, then 1 VP
per 2 Thalers; a figure landing on an occupied space goes forward (R8).  Thalers a module
credits at the end (the medico's 5 per healthy own apprentice) are told apart in the VP
sources: each such source scores its credit // 2, the rest is 'money'."""
from __future__ import annotations

from . import track
from .state import State


def final_scoring(s: State) -> None:
    per = s.comp.rules["end"]["thalers_per_vp"]
    for fig in s.order:
        if fig >= s.n:
            continue  # Leonardo has no money (R13)
        credits: dict[str, int] = {}      # Thalers credited by modules, by source (e.g. medico)
        for hook in s.hooks.final_scoring:
            for source, thalers in (hook(s, fig) or {}).items():
                credits[source] = credits.get(source, 0) + thalers
        total = s.thalers[fig] // per
        sources = {source: thalers // per for source, thalers in credits.items()}
        sources["money"] = total - sum(sources.values())
        track.gain(s, fig, sources, "final", final=True)
    track.resolve(s)
