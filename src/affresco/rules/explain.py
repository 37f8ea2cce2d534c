"""Why an action is refused: a clear message naming what is wrong and what is legal."""
from __future__ import annotations

from typing import Sequence

from .actions import KINDS, Action
from .board import INDEX as SEGMENT, NAMES, NEIGHBOURS8
from .market import BOOTHS, price
from .paints import covers, paint_text, paint_vector, PAINTS
from .state import GETUP, PLAN, VISITS, State


def _listing(legal: Sequence[Action], limit: int = 12) -> str:
    kinds = sorted({a.kind for a in legal})
    shown = ", ".join(str(a) for a in legal[:limit])
    more = f" (and {len(legal) - limit} more)" if len(legal) > limit else ""
    return f"legal now: {shown}{more}; kinds: {', '.join(kinds)}"


# The kinds of action a visit to each location offers (rulebook 'Locations and actions'): one
# of them that is not legal now is explained by its own reason below (the paints a segment
# needs, the money a tile costs), not as a kind of another decision; so are the kinds a module
# adds to a visit (Module.visit_kinds: a request at the workshop), by its refusal hook.
_VISIT_KINDS = {"market": ("buy", "close"), "cathedral": ("restore", "altar"), "studio": ("studio",),
                "workshop": ("blend",), "theater": ("theater",)}


def _visit_kind(s: State, a: Action) -> bool:
    """Is ``a`` of a kind the current visit's location offers (no other decision pending)?"""
    if s.pending or s.asks or s.phase != VISITS or not 0 <= s.loc < len(s.columns()):
        return False
    column = s.columns()[s.loc]
    if a.kind in _VISIT_KINDS.get(column, ()):
        return True
    return any(a.kind in kinds for m in s.hooks for col, kinds in m.visit_kinds if col == column)


def _reason(s: State, seat: int, a: Action, legal: Sequence[Action]) -> str | None:
    kinds = {x.kind for x in legal}
    if a.kind not in KINDS and a.kind not in kinds:
        return f"{a.kind!r} is not an action kind"
    if a.kind not in kinds and not _visit_kind(s, a):
        what = ("a VP-track choice" if s.pending else f"this {s.asks[0][1]} decision" if s.asks
                else "choosing get-up time" if s.phase == GETUP else "planning" if s.phase == PLAN
                else f"the {s.columns()[s.loc]} visit" if 0 <= s.loc < len(s.columns()) else "this decision")
        return f"'{a.kind}' is not an action of {what}"
    if a.kind != "plan":
        for hook in s.hooks.refusal:     # a module's own reasons first: its kinds' forms vary
            why = hook(s, seat, a)       # with the choice ('deposit none', 'heal 3 juice')
            if why:
                return why
    # a word a module appends to a base kind (Module.suffixes: the medico's 'restore B1 ill'):
    # its reasons come from that module's refusal hook above; the rest is checked here
    suffixes = {w for m in s.hooks for kind, w in m.suffixes if kind == a.kind}
    if a.args and a.args[-1] in suffixes:
        a = Action(a.kind, a.args[:-1])
    same = [x for x in legal if x.kind == a.kind]
    if a.kind not in ("buy", "restore", "request", "plan") and same and \
            len(a.args) not in {len(x.args) - (bool(x.args) and x.args[-1] in suffixes) for x in same}:
        counts = " or ".join(str(n) for n in sorted({len(x.args) for x in same}))
        return f"'{a.kind}' takes {counts} word{'s' * (counts != '1')} after it, e.g. '{same[0]}'"
    if a.kind == "getup":
        times = [h.time for h in s.comp.hostel]
        if a.args[0] not in times:
            return f"{a.args[0]!r} is not a get-up time ({', '.join(times)})"
        if a.args[0] in {h.time for i, h in enumerate(s.comp.hostel) if i in set(s.getup)}:
            return f"the {a.args[0]} get-up space is taken"
        return None
    if a.kind == "plan":
        from .planning import refusal
        return refusal(s, seat, a) or "the plan is not legal now"
    if a.kind in ("buy", "close"):
        if a.kind == "buy" and s.actor >= s.n:
            return "Leonardo never buys paints: he closes an open booth (R13)"
        if not a.args or a.args[0] not in BOOTHS[:len(s.booths)]:
            return f"booths are {', '.join(BOOTHS[:len(s.booths)])}"
        tiles = s.booths[BOOTHS.index(a.args[0])]
        if not tiles:
            return f"booth {a.args[0]} has no tiles"
        if a.kind == "buy":
            b, bought = a.args[0], list(a.args[1:])
            if not bought:
                return f"a buy names the tiles it takes, e.g. 'buy {b} {tiles[0]}' (or 'close {b}')"
            left = list(tiles)
            for t in bought:
                if t not in left:
                    if t in tiles:   # named more often than the booth shows it
                        return f"each tile can be bought only once: booth {b} shows {t} {tiles.count(t)}x"
                    return f"booth {b} has no tile {t} (it shows {' '.join(tiles)})"
                left.remove(t)
            if len(bought) > s.left:
                return f"one tile per market apprentice: you have {s.left}"
            n, cost = len(bought), price(s, seat) * len(bought)
            if cost > s.thalers[seat]:
                return f"{n} tile{'s' * (n != 1)} cost{'s' * (n == 1)} {cost} Thalers; you have {s.thalers[seat]}"
            return None
    if a.kind == "restore" and a.args:
        seg = SEGMENT.get(a.args[0])
        if seg is None:
            return f"{a.args[0]!r} is not a segment (A1..E5)"
        tile = s.fresco[seg]
        if tile is None:
            return f"{a.args[0]} is already restored"
        if s.actor >= s.n:      # Leonardo (R13)
            return ("Leonardo restores one tile a round without paint, his master painter stepping "
                    "up, down, left or right onto an unrestored segment (none there: a lowest-valued "
                    "tile), and never moves the bishop")     # (the refusal goes on with 'legal now: ...')
        if s.actor < s.n and not covers(s.paints[seat], tile.vector):
            return f"{a.args[0]} needs {tile.paints}; you have {paint_text(s.paints[seat]) or 'no paint'}"
        extra = dict(zip(a.args[1::2], a.args[2::2]))
        if "bishop" in extra:
            to = SEGMENT.get(extra["bishop"])
            if to is None or to not in NEIGHBOURS8[s.bishop]:
                return f"the bishop moves one step from {NAMES[s.bishop]}, not to {extra['bishop']}"
            return "moving the bishop costs 1 Thaler"
        if "sexton" in extra:
            return "the Sexton's move needs the Sexton, 1 Thaler and not yet used this round"
        if "using" in extra:
            return f"{extra['using']} is not a way to pay for {a.args[0]} ({tile.paints}) with your paints"
    if a.kind == "altar" and a.args:
        text = a.args[0]
        if len(text) != 3 or any(c not in PAINTS for c in text):
            return "the altar takes 3 paints, e.g. 'altar RYB'"
        if not covers(s.paints[seat], paint_vector(text)):
            return f"you do not have {text}"
        return f"{text} is neither the basic form (R, Y, B, any replaced by a blended paint) nor O, G, P (R7)"
    if a.kind == "blend" and a.args:
        if a.args[0] not in s.comp.blends:
            return f"blends make {', '.join(s.comp.blends)}"
        ins = "+".join(PAINTS[i] for i in s.comp.blends[a.args[0]])
        return f"blending {a.args[0]} needs {ins}"
    if len(a.args) == 1 and same and all(len(x.args) == 1 for x in same):   # a one-word choice
        return f"{a.args[0]!r} is not a choice now: {', '.join(x.args[0] for x in same)}"
    return None


def why(s: State, seat: int, action: Action, legal: Sequence[Action]) -> str:
    reason = _reason(s, seat, action, legal)
    head = f"'{action}' is not legal" + (f": {reason}" if reason else "")
    return f"{head}. {_listing(legal)}"
