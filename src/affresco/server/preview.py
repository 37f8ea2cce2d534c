"""What a seat's scoring choices would score, before it chooses (issue 13).

The engine itself answers: each choice is played on a copy of the game (public API only:
``clone``, ``apply``, ``events_since``) and the points it brings are read from the
copy, with their sources (tile, bishop bonus, special colours, scroll...).  Nothing of
the rules is repeated here or in the browser.

A copy draws what the real game would draw next (the same seed), so points that come from a
face-down draw are left out: the bishop's favour token lies hidden on its tile until it is
taken (R18, R22; rules notes M7), and its +1 VP must not show before the player commits.
"""
from __future__ import annotations

from typing import Any

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
    mark = game.events_since(seat, None)[1]
    figure = game.deciding
    out: dict[str, dict[str, Any]] = {}
    for action in legal:
        g = game.clone()
        g.apply(seat, action)
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
