"""What a seat may see (R22): everything public plus its own hidden items.

Private to a player: their paints and Thalers, their plan until every plan is revealed (and
module items such as scrolls).  Bag order is hidden from everyone (affresco draws at random
when a tile is drawn, so no order exists to leak); the seed is never shown.
"""
from __future__ import annotations

from typing import Any, Mapping, overload

from .board import NAMES, SIZE
from .components import reference
from .market import BOOTHS
from . import house
from .paints import paint_text
from .state import PLAN, START_OFFSET, State, cons_to_list
from .tiles import tile_text as _tile_text
from .track import vp_sources


def track_label(pos: int) -> str | int:
    return pos if pos > 0 else f"S{pos + START_OFFSET}"


_TILE_TEXT: dict[int, tuple[Any, str]] = {}


@overload
def tile_text(t: None) -> None: ...
@overload
def tile_text(t: Any) -> str: ...
def tile_text(t: Any) -> str | None:
    """'VP:PAINTS', with '/SPLASHES' when the back's splashes are not the paint's blended colours."""
    if t is None:
        return None
    hit = _TILE_TEXT.get(id(t))
    if hit is not None and hit[0] is t:       # tiles are immutable: their text is kept
        return hit[1]
    text = _tile_text(t.vp, t.paints, t.splashes)
    if len(_TILE_TEXT) > 20_000:
        _TILE_TEXT.clear()
    _TILE_TEXT[id(t)] = (t, text)
    return text


def _plain(v: Any) -> Any:
    """JSON data of a module's ask (tuples become lists)."""
    return [_plain(x) for x in v] if isinstance(v, (tuple, list)) else v


def visible(who: int | None, seat: int | None) -> bool:
    """May ``seat`` (None: a spectator) see a log entry meant for ``who`` (None: everyone)?"""
    return who is None or who == seat


def events(entries, seat: int | None) -> list[dict[str, Any]]:
    """The events of ``(round, who, event)`` entries that ``seat`` may see, as new dicts with
    their ``round``."""
    out = []
    for rnd, who, e in entries:
        if who is None or who == seat:
            d = {"round": rnd}
            d.update(e)
            out.append(d)
    return out


def seat_events(log, seat: int | None, seats: int = 0) -> list[dict[str, Any]]:
    """The events ``seat`` may see of the log whose newest entry is ``log`` (a cons list), as
    :func:`events` gives them, in a list of this call's own whose dicts are shared with other
    views of the same game (read them, never change them).  Built incrementally: from the
    list of an earlier position of the same log, so following a game costs the new events only.
    ``seats``: the game's players; the lists of seats 0..seats-1 that start from the same
    earlier position are made in the same walk, each event's dict made once for all of them
    (a loaded game's views each walk the whole log otherwise)."""
    mine = _EVENTS.get(seat)
    if mine is None:
        mine = _EVENTS[seat] = {}
    hit = mine.get(id(log))
    if hit is not None and hit[0] is log:
        return hit[1][:]
    chain: list[tuple[Any, Any, Any]] = []
    node, base = log, None
    while node is not None:
        hit = mine.get(id(node))
        if hit is not None and hit[0] is node:
            base = hit
            break
        chain.append(node[0])
        node = node[1]
    # the seats whose lists this walk makes: ``seat``, and each other seat with no list for
    # ``log`` yet and one for the same earlier position (or none, when the walk reached the start)
    olders: dict[int | None, list] = {seat: base[1] if base is not None else []}
    for other in range(seats):
        theirs = _EVENTS.get(other)
        if other == seat or theirs is None and base is not None:
            continue
        if theirs is None:
            theirs = _EVENTS[other] = {}
        hit = theirs.get(id(log))
        if hit is not None and hit[0] is log:
            continue
        if base is None:
            olders[other] = []
        else:
            hit = theirs.get(id(node))
            if hit is not None and hit[0] is node:
                olders[other] = hit[1]
    news: dict[int | None, list] = {o: [] for o in olders}
    chain.reverse()
    if len(news) == 1:
        new = news[seat]
        for rnd, who, e in chain:
            if who is None or who == seat:
                new.append({"round": rnd, **e})
    else:
        every = list(news.values())
        for rnd, who, e in chain:
            if who is None:
                d = {"round": rnd, **e}
                for lst in every:
                    lst.append(d)
            else:
                own = news.get(who)
                if own is not None:
                    own.append({"round": rnd, **e})
    for o, older in olders.items():
        theirs = _EVENTS[o]
        if len(theirs) > 256:
            theirs.clear()
        theirs[id(log)] = (log, older + news[o])
    return mine[id(log)][1][:]


# seat_events' lists by seat, then by id of the log's head; each keeps its head, so an id is
# not reused
_EVENTS: dict[int | None, dict[int, tuple[Any, list]]] = {}


_FLOW = None


def _load_flow():
    """rules.flow, imported on first use (it imports this module's callers)."""
    global _FLOW
    from . import flow
    _FLOW = flow
    return flow


# What ``view(..., lean=True)`` leaves out: what never changes during a game, and what is
# derived from the history (the VP by source, who took which get-up space).
FIXED_KEYS: tuple[str, ...] = ("hostel", "mood_display", "house_rules", "modules", "options", "components", "vp_sources")


def view(s: State, seat: int | None, log: bool = True, lean: bool = False) -> dict[str, Any]:
    flow = _FLOW or _load_flow()
    hostel = s.comp.hostel
    plans_secret = s.phase == PLAN
    figures = []
    for f in range(s.figures):
        fig: dict[str, Any] = {
            "name": s.names[f],
            "track": track_label(s.pos[f]),
            "vp": max(s.pos[f], 0),
            "getup": hostel[s.getup[f]].time if s.getup[f] >= 0 else None,
            "tiles": [tile_text(t) for t in s.tiles[f]],
            "leonardo": f >= s.n,
        }
        if f < s.n:
            fig["mood"] = s.mood[f]
            fig["mood_zone"] = s.comp.mood_spaces[s.mood[f]]
            fig["neutral_apprentice"] = s.neutral[f]
            fig["apprentice_set_aside"] = s.aside[f]
            fig["apprentices"] = s.apprentices(f)
            fig["plan_committed"] = s.plan[f] is not None
            mine = seat == f
            if mine:
                fig["paints"] = paint_text(s.paints[f])
                fig["thalers"] = s.thalers[f]
            if s.plan[f] is not None and (mine or not plans_secret):
                fig["plan"] = list(s.plan[f])
        elif s.plan[f] is not None:
            fig["plan"] = list(s.plan[f])
        figures.append(fig)
    to_act = flow.to_act(s)
    texts = [tile_text(t) for t in s.fresco]
    columns = s.columns()
    visiting = s.phase == "visits" and 0 <= s.loc < len(columns)
    out: dict[str, Any] = {
        "seat": seat,
        "round": s.round,
        "final_round": s.final,
        "action_sheet_side": 2 if s.side2 else 1,
        "columns": list(columns),
        "phase": s.phase,
        "to_act": list(to_act),
        "actor": s.names[s.actor] if s.actor >= 0 else None,
        "actor_figure": s.actor if s.actor >= 0 else None,
        "location": columns[s.loc] if visiting else None,
        "column": s.loc if visiting else None,
        "visit_left": s.left if s.phase == "visits" and s.actor >= 0 else None,
        "fresco": [texts[r:r + SIZE] for r in range(0, SIZE * SIZE, SIZE)],
        "bishop": NAMES[s.bishop],
        "leonardo_painter": NAMES[s.leo_pos] if s.leo_pos >= 0 else None,
        "leonardo_controller": s.leo_ctrl if s.leonardo is not None else None,
        "booths": {BOOTHS[b]: list(t) for b, t in enumerate(s.booths)},
        "bag_size": len(s.bag),
    }
    if not lean:
        taken: dict[int, str] = {}
        for f in range(s.figures - 1, -1, -1):     # the first figure on a space names it
            if s.getup[f] >= 0:
                taken[s.getup[f]] = s.names[f]
        out["hostel"] = [{"time": h.time, "mood": h.mood, "price": h.price, "taken_by": taken.get(i)}
                         for i, h in enumerate(hostel)]
        out["mood_display"] = list(s.comp.mood_spaces)
    out.update({
        "order": [s.names[f] for f in s.order],
        "figures": figures,
        "pending_track": None if s.pending is None else {
            "figure": s.names[s.pending[0]], "figure_index": s.pending[0], "behind": s.pending[1],
            "ahead": s.pending[2], "target": s.pending[3]},
        "is_over": s.phase == "over",
    })
    if not lean:
        out["house_rules"] = house.in_play(s)
    out["deciding"] = flow.deciding(s)
    out["asks"] = [_plain(a) for a in s.asks]
    if not lean:
        out["modules"] = list(s.modules)
        out["options"] = dict(s.options)
        out["components"] = components_of(s)
        out["vp_sources"] = vp_sources(s)
    if log:
        out["events"] = seat_events(s.log, seat, s.n)
    for hook in s.hooks.view:
        hook(s, seat, out)
    return out


def components_of(s: State) -> str | Mapping[str, Any]:
    """The set-up's components: "reference" (the printed edition) or the table in use."""
    return "reference" if s.comp is reference() else s.comp.raw


def full_view(s: State) -> dict[str, Any]:
    """Everything face up, for replays and post-game analysis: the spectator's view with every
    seat's paints, Thalers and plan in its figure, every event (private ones too), and
    ``secrets``: per seat, the parts of module views that only that seat sees (e.g. its scrolls)."""
    out = view(s, None, log=False)
    secrets = []
    for seat in range(s.n):
        own = view(s, seat, log=False)
        fig = own["figures"][seat]
        for key in ("paints", "thalers", "plan"):
            if key in fig:
                out["figures"][seat][key] = fig[key]
        secrets.append({m: own[m] for m in s.modules if m in own and own[m] != out.get(m)})
    out["secrets"] = secrets
    entries = [(r, None, e) for r, _, e in cons_to_list(s.log)]
    out["events"] = events(entries, None)
    return out
