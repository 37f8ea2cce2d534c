"""The victory point track (R8): one figure per space, each scoring event one move.

Landing on an occupied space, the mover chooses the nearest free space behind (never below
space 1) or in front; in final scoring the figure always goes forward.
"""
from __future__ import annotations

from .actions import Action
from .state import State, vp_of

BEHIND = Action("track", ("behind",))
AHEAD = Action("track", ("ahead",))


def gain(s: State, fig: int, sources: dict[str, int], for_: str, final: bool = False, **context) -> None:
    """Queue one scoring event (one move, R8) of ``sum(sources.values())`` VP for ``fig``.

    ``sources`` names where the points come from (docs/events.md: ``tile``, ``bishop``, ...);
    ``for_`` is the occasion (``restore``, ``altar``, ``final``, ...) and ``context`` its
    details, all kept in the ``score`` event."""
    sources = {k: v for k, v in sources.items() if v}
    vp = sum(sources.values())
    if vp > 0:
        s.moves = s.moves + ((fig, vp, final),)
        s.log_event("score", figure=fig, vp=vp, sources=sources, **{"for": for_}, **context)


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
            s.log_event("track", figure=fig, choice="forced", space=ahead, delta=ahead - target)
        else:
            s.pending = (fig, behind, ahead, target)


def legal(s: State) -> list[Action]:
    return [BEHIND, AHEAD]


def apply(s: State, action: Action) -> None:
    fig, behind, ahead, target = s.pending
    s.pos[fig] = behind if action == BEHIND else ahead
    s.pending = None
    s.log_event("track", figure=fig, choice=action.args[0], space=s.pos[fig], delta=s.pos[fig] - target)


def ranking_key(s: State, fig: int) -> int:
    """Higher is better: the order on the track decides the winner (R8), start spaces behind."""
    return s.pos[fig]


def vp_sources(s: State) -> list[dict[str, int]]:
    """VP per source for every figure (as ``scores()``), from the ``score`` and ``track``
    events: the one place VP are split by source (docs/events.md).  Moves still queued or
    waiting for a behind/ahead choice are not counted yet; VP a loaded position had without
    its events count as ``position``, so each figure's sources add up to its score."""
    key = (s.log, s.moves, s.pending)
    memo = _SOURCES.get(id(s.log))
    if memo is not None and memo[0][0] is s.log and memo[0][1:] == key[1:] and memo[2] == s.pos:
        return [dict(d) for d in memo[1]]
    out: list[dict[str, int]] = [{} for _ in range(s.figures)]
    unresolved = len(s.moves) + (s.pending is not None)
    node = s.log
    while node is not None:
        e = node[0][2]
        node = node[1]
        kind = e["kind"]
        if kind == "score":
            if unresolved:
                unresolved -= 1
                continue
            mine = out[e["figure"]]
            for k, v in e["sources"].items():
                mine[k] = mine.get(k, 0) + v
        elif kind == "track" and e["delta"]:
            mine = out[e["figure"]]
            mine["track"] = mine.get("track", 0) + e["delta"]
    for f, mine in enumerate(out):
        rest = vp_of(s.pos[f]) - sum(mine.values())
        if rest:
            mine["position"] = rest
    if len(_SOURCES) > 4096:
        _SOURCES.clear()
    _SOURCES[id(s.log)] = (key, out, list(s.pos))
    return [dict(d) for d in out]


# memo of vp_sources by log head (the log is an immutable cons list shared by clones): views of
# the same position, or of every seat, split the log once
_SOURCES: dict[int, tuple] = {}
