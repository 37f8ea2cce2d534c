"""What a seat's scoring choices would score, before it chooses (issue 13): the browser's
previews (``GET /api/me/preview``) and the terminal's numbered actions.

The engine itself answers: each choice is played on a copy of the game (public API only:
``clone``, ``apply``, ``events_since``) and the points it brings are read from the
copy, with their sources (tile, bishop bonus, special colours, scroll...).  Nothing of
the rules is repeated here or in the browser.

The copy is made from the seat's own view, as the search bot's are (``bots.determinize``):
what the seat cannot see is sampled, never read, so no preview can show a hidden item or the
outcome of a draw still to come (R22; the real game's copy would draw what the real game will,
with the same seed).  Points that a face-down draw decides are left out all the same, since the
sampled draw is not the real one: the bishop's favour token taken with the tile (R18, M7).
"""
from __future__ import annotations

import random
from typing import Any

from .determinize import determinize
from ..errors import FrescoError

# the kinds of action that can score at once
PREVIEW_KINDS = frozenset({"restore", "altar", "scroll", "request", "portrait"})
MAX_PREVIEWS = 150
# score sources that a hidden draw decides (the favour token taken with the tile)
DRAWN_SOURCES = frozenset({"favour"})


def previews(game: Any, seat: int) -> dict[str, dict[str, Any]]:
    """``{notation: {"vp": total, "sources": {source: vp}}}`` for the seat's legal actions that
    score (at most ``MAX_PREVIEWS``); empty when none can.  A choice that scores nothing has
    ``vp`` 0."""
    legal = [a for a in game.legal_actions(seat) if a.kind in PREVIEW_KINDS][:MAX_PREVIEWS]
    if not legal or not hasattr(game, "events_since"):     # an engine without events: no preview
        return {}
    try:
        # seeded from public facts only: the same view always gets the same previews
        copy = determinize(game.view(seat), seat, random.Random(f"preview:{game.actions_applied}"),
                           legal=game.legal_actions(seat))
    except FrescoError:
        return {}
    mark = copy.events_since(seat, None)[1]
    figure = copy.deciding
    out: dict[str, dict[str, Any]] = {}
    for action in legal:
        g = copy.clone()
        try:
            g.apply(seat, action)
        except FrescoError:                  # (the seat's own items are exact: never expected)
            continue
        out[str(action)] = _scored(g, seat, mark, figure, action.kind)
    return out


def _scored(g: Any, seat: int, mark: Any, figure: int | None, kind: str) -> dict[str, Any]:
    """The points the action itself scores for the deciding figure (its one move on the track,
    R8), without those a hidden draw decides (``DRAWN_SOURCES``).  What else the action sets
    off is left out: after the game's last action, the final scoring of every figure (R12),
    whose money would tell the other seats' Thalers (R22)."""
    new, _ = g.events_since(seat, mark)
    sources: dict[str, int] = {}
    total = 0
    for e in new or ():
        if e.get("kind") != "score" or e.get("figure") != figure or e.get("for") != kind:
            continue
        total += int(e.get("vp", 0))
        for name, vp in (e.get("sources") or {}).items():
            if name in DRAWN_SOURCES:
                total -= int(vp)
            else:
                sources[name] = sources.get(name, 0) + int(vp)
    return {"vp": total, "sources": sources}
