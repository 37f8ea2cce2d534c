"""The victory point track (R8): one figure per space, each scoring event one move.

Landing on an occupied space, the mover chooses the nearest free space behind (never below
space 1) or in front; in final scoring the figure always goes forward.
"""
from __future__ import annotations

from typing import Any, Final

from .actions import Action
from .state import State, vp_of

BEHIND: Final[Action] = Action("track", ("behind",))
AHEAD: Final[Action] = Action("track", ("ahead",))


def gain(s: State, fig: int, sources: dict[str, int], for_: str, final: bool = False, **context) -> None:
    """Queue one scoring event (one move, R8) of ``sum(sources.values())`` VP for ``fig``.

    ``sources`` names where the points come from (docs/events.md: ``tile``, ``bishop``, ...);
    ``for_`` is the occasion (``restore``, ``altar``, ``final``, ...) and ``context`` its
    details, all kept in the ``score`` event."""
    sources = {k: v for k, v in sources.items() if v}
    vp = sum(sources.values())
    if vp > 0:
        s.moves = s.moves + ((fig, vp, final),)
        s.add_event({"kind": "score", "figure": fig, "vp": vp, "sources": sources, "for": for_, **context})


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
            s.add_event({"kind": "track", "figure": fig, "choice": "forced", "space": ahead, "delta": ahead - target})
        else:
            s.pending = (fig, behind, ahead, target)


def legal(s: State) -> list[Action]:
    return [BEHIND, AHEAD]


def apply(s: State, action: Action) -> None:
    assert s.pending is not None, "no VP-track choice pending"
    fig, behind, ahead, target = s.pending
    s.pos[fig] = behind if action == BEHIND else ahead
    s.pending = None
    s.add_event({"kind": "track", "figure": fig, "choice": action.args[0], "space": s.pos[fig],
                 "delta": s.pos[fig] - target})


def ranking_key(s: State, fig: int) -> int:
    """Higher is better: the order on the track decides the winner (R8), start spaces behind."""
    return s.pos[fig]


def vp_sources(s: State) -> list[dict[str, int]]:
    """VP per source for every figure (as ``scores()``), from the ``score`` and ``track``
    events: the one place VP are split by source (docs/events.md).  Moves still queued or
    waiting for a behind/ahead choice are not counted yet; VP a loaded position had without
    its events count as ``position``, so each figure's sources add up to its score.  Each
    figure's sources are in the order of their latest event, newest first."""
    if s.moves or s.pending is not None:
        return _vp_sources_walk(s)
    memo = _SOURCES.get(id(s.log))
    if memo is not None and memo[0] is s.log and memo[1] == s.pos:
        return list(map(dict.copy, memo[2]))
    totals = _totals(s.log, s.figures)[1]
    out = []
    for f in range(s.figures):
        d = totals[f]
        mine = {k: v[0] for k, v in sorted(d.items(), key=_newest_first)} if len(d) > 1 else \
            {k: v[0] for k, v in d.items()}
        rest = vp_of(s.pos[f]) - sum(mine.values())
        if rest:
            mine["position"] = rest
        out.append(mine)
    if len(_SOURCES) > 4096:
        _SOURCES.clear()
    _SOURCES[id(s.log)] = (s.log, list(s.pos), out)
    return list(map(dict.copy, out))


def _newest_first(item) -> tuple[int, int]:
    return -item[1][1], item[1][2]


def _totals(log, figures: int) -> tuple[int, list[dict[str, tuple[int, int, int]]]]:
    """VP by source over every ``score`` and ``track`` event of the log whose newest entry is
    ``log``: (events counted, per figure source -> (VP, number of its latest event, place in
    that event)).  Built from the totals of an earlier position of the same log (shared by
    clones), so following a game adds the new events only."""
    if log is None:     # an empty log (a position loaded without one): not memoised, as every
        return 0, [{} for _ in range(figures)]    # game's empty log is the same None
    hit = _TOTALS.get(id(log))
    if hit is not None and hit[0] is log:
        return hit[1]
    chain: list[dict[str, Any]] = []
    totals: list[dict[Any, Any]]
    node, base = log, None
    while node is not None:
        hit = _TOTALS.get(id(node))
        if hit is not None and hit[0] is node:
            base = hit[1]
            break
        chain.append(node[0][2])
        node = node[1]
    if base is None:
        seq, totals = 0, [{} for _ in range(figures)]
    else:
        seq, totals = base[0], [dict(d) for d in base[1]]
    for e in chain[::-1]:
        seq += 1
        kind = e["kind"]
        if kind == "score":
            mine = totals[e["figure"]]
            for i, (k, v) in enumerate(e["sources"].items()):
                old = mine.get(k)
                mine[k] = (v + old[0] if old else v, seq, i)
        elif kind == "track" and e["delta"]:
            mine = totals[e["figure"]]
            old = mine.get("track")
            mine["track"] = (e["delta"] + old[0] if old else e["delta"], seq, 0)
    if len(_TOTALS) > 4096:
        _TOTALS.clear()
    _TOTALS[id(log)] = (log, (seq, totals))
    return seq, totals


def _vp_sources_walk(s: State) -> list[dict[str, int]]:
    """:func:`vp_sources` while scoring moves are queued or pending: the newest of the score
    events are not counted yet."""
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
    return out


# memos by log head (the log is an immutable cons list shared by clones; each entry keeps its
# head, so an id is not reused): vp_sources of a position, and the running totals
_SOURCES: Final[dict[int, tuple]] = {}
_TOTALS: Final[dict[int, tuple]] = {}
