"""The full state as JSON (docs/state-format.md): save, load and hand-written positions.

Loading validates every field and raises :class:`~affresco.errors.StateError` naming the
first bad one.  Most fields may be left out of a hand-written position; defaults are listed
in the docs.
"""
from __future__ import annotations

import json
import re
from typing import Any, Mapping

from ..errors import ComponentError, FrescoError, StateError
from . import flow, hostel, house, planning
from .chance import seed_refusal
from .board import CELLS, INDEX as SEGMENT, NAMES, SIZE
from .components import Components, FrescoTile, build, reference
from .market import tile_key
from .paints import BASIC, PAINTS, canonical, paint_text, paint_vector
from .tiles import parse_tile_text
from .setup import names_refusal
from .state import GETUP, OVER, PLAN, VISITS, State, cons_to_list, start_pos
from .view import tile_text, track_label

FORMAT = "affresco-state/2"
# The first format kept the log as English lines; they load as ``{"kind": "text", "text": line}``
# events (docs/events.md), which no layer interprets.
OLD_FORMATS = ("affresco-state/1",)


def whole(v) -> bool:
    """An integer that is not a bool (JSON true/false)."""
    return isinstance(v, int) and not isinstance(v, bool)


_whole = whole


def to_dict(s: State) -> dict[str, Any]:
    hostel = s.comp.hostel
    figures = []
    for f in range(s.figures):
        fig: dict[str, Any] = {"name": s.names[f], "track": track_label(s.pos[f]),
                               "getup": hostel[s.getup[f]].time if s.getup[f] >= 0 else None,
                               "tiles": [tile_text(t) for t in s.tiles[f]],
                               "plan": list(s.plan[f]) if s.plan[f] is not None else None}
        if f < s.n:
            fig.update(thalers=s.thalers[f], paints=paint_text(s.paints[f]), mood=s.mood[f],
                       neutral_apprentice=s.neutral[f], apprentice_set_aside=s.aside[f])
        figures.append(fig)
    return {
        "format": FORMAT,
        "setup": s.setup,
        "players": list(s.names[:s.n]),
        "modules": list(s.modules),
        "options": dict(s.options),
        "components": "reference" if s.comp is reference() else dict(s.comp.raw),
        "seed": s.seed,
        "chance_draws": s.draws,
        "round": s.round,
        "final_round": s.final,
        "action_sheet_side": 2 if s.side2 else 1,
        "phase": s.phase,
        "fresco": [[tile_text(s.fresco[r * SIZE + c]) for c in range(SIZE)] for r in range(SIZE)],
        "bishop": NAMES[s.bishop],
        "market": {"booths": [list(b) for b in s.booths], "bag": list(s.bag)},
        "figures": figures,
        "leonardo": None if s.leonardo is None else {
            "painter": NAMES[s.leo_pos] if s.leo_pos >= 0 else None, "controller": s.leo_ctrl},
        "turn": {"order": list(s.order), "location": s.loc, "visit": s.visit, "actor": s.actor,
                 "left": s.left},
        "pending_track": None if s.pending is None else dict(zip(("figure", "behind", "ahead", "target"), s.pending)),
        "queued_moves": [list(m) for m in s.moves],
        "asks": [list(a) for a in s.asks],
        "modules_state": {m.name: m.dump(s) for m in s.hooks},
        "history": [[seat, str(action)] for seat, action in cons_to_list(s.history)],
        "log": [list(e) for e in cons_to_list(s.log)],
    }


# A list json.dumps(indent=1) wrote over several lines, holding no list, object or bracket: its
# brackets are followed / preceded by a line break, which a JSON string never holds, so the
# pattern never reaches into a string (a player named "a [ b ]" stays as written).
_FLAT_LIST = re.compile(r"\[\n\s*([^\[\]{}]*?)\n\s*\]")


def dumps(s: State, pretty: bool = True) -> str:
    """Indented JSON with short lists (fresco rows, booths, plans...) kept on one line, or
    compact JSON (``pretty=False``, several times faster)."""
    if not pretty:
        return json.dumps(to_dict(s), ensure_ascii=False, separators=(",", ":"))
    data = to_dict(s)
    try:
        return _indented(data, "\n")
    except _Unusual:
        return _indented_by_json(data)


def _indented_by_json(data: Any) -> str:
    """``dumps``' indented text by json's (pure-Python) indenting encoder and :data:`_FLAT_LIST`."""
    text = json.dumps(data, indent=1, ensure_ascii=False)
    return _FLAT_LIST.sub(lambda m: "[" + ", ".join(x.strip() for x in m.group(1).split(",\n")) + "]", text)


class _Unusual(Exception):
    """A value :func:`_indented` leaves to :func:`_indented_by_json` (a float, a key not a string...)."""


def _one_line(item_separator: str):
    """json's text of a list or object of plain values with this item separator (its C encoder
    made once, as ``json.dumps`` makes one per call)."""
    encoder = json.JSONEncoder(ensure_ascii=False, check_circular=False, separators=(item_separator, ": "))
    make = getattr(json.encoder, "c_make_encoder", None)     # json's C encoder (None without it)
    if make is None:
        return encoder.encode
    chunks = make(None, encoder.default, json.encoder.encode_basestring, None, ": ", item_separator, False, False, True)
    return lambda v: "".join(chunks(v, 0))


_ONE_LINE = _one_line(", ")
_string = json.encoder.encode_basestring     # ensure_ascii=False's string writer (C)
_PLAIN = (str, int, bool, type(None))
# per line break and indent: the one-line text of an object of plain values, one member a line
_MEMBERS: dict[str, Any] = {}


def _indented(v: Any, line: str) -> str:
    """The text of :func:`_indented_by_json`, written here for the state's types (dicts with
    string keys, lists and tuples, strings, ints, bools, None), several times faster: each
    container on its own lines indented one space a level (``line``: a line break and this
    level's indent), a non-empty list of plain values on one line as json writes it unless one
    of them holds a bracket or brace (which ``_FLAT_LIST`` leaves over several lines)."""
    t = type(v)
    if t is dict:
        if not v:
            return "{}"
        inner = line + " "
        if all(type(x) in _PLAIN for x in v.values()) and all(type(k) is str for k in v):
            enc = _MEMBERS.get(inner)
            if enc is None:
                enc = _MEMBERS[inner] = _one_line("," + inner)
            return "{" + inner + enc(v)[1:-1] + line + "}"
        parts = []
        for k, x in v.items():
            if type(k) is not str:
                raise _Unusual
            tx = type(x)
            parts.append(_string(k) + ": " + (_string(x) if tx is str else int.__repr__(x) if tx is int
                                               else "null" if x is None else _indented(x, inner)))
        return "{" + inner + ("," + inner).join(parts) + line + "}"
    if t is list or t is tuple:
        if not v:
            return "[]"
        if all(type(x) in _PLAIN for x in v):
            text = _ONE_LINE(v)
            items = text[1:-1]
            if not ("[" in items or "]" in items or "{" in items or "}" in items):
                return text
        inner = line + " "
        parts = []
        for x in v:
            tx = type(x)
            parts.append(_string(x) if tx is str else int.__repr__(x) if tx is int
                         else "null" if x is None else _indented(x, inner))
        return "[" + inner + ("," + inner).join(parts) + line + "]"
    if t is str:
        return _string(v)
    if t is int:
        return int.__repr__(v)
    if v is None:
        return "null"
    if t is bool:
        return "true" if v else "false"
    raise _Unusual


# ---------------------------------------------------------------------------- loading
class _Reader:
    def __init__(self, data: Mapping[str, Any]):
        self.data = data

    def fail(self, where: str, msg: str) -> StateError:
        return StateError(f"saved state: {where}: {msg}")

    def get(self, m: Mapping, key: str, where: str, types, default=...):
        if key not in m:
            if default is ...:
                raise self.fail(f"{where}{key}", "missing")
            return default
        v = m[key]
        if not isinstance(v, types) or (isinstance(v, bool) and bool not in (types if isinstance(types, tuple) else (types,))):
            raise self.fail(f"{where}{key}", f"{v!r} has the wrong type")
        return v


_TILES: dict[str, FrescoTile] = {}    # tile text -> its (immutable) tile: positions repeat them


def parse_tile(text: Any, where: str, r: _Reader) -> FrescoTile | None:
    if text is None:
        return None
    hit = _TILES.get(text) if type(text) is str else None
    if hit is not None:
        return hit
    try:
        vp, paints, splashes = parse_tile_text(text)
    except ValueError as e:
        raise r.fail(where, str(e)) from None
    if vp > 999:
        raise r.fail(where, f"{text!r}: a fresco tile is written 'VP:PAINTS', e.g. '7:OG'")
    tile = FrescoTile(vp, paints, paint_vector(paints), splashes)
    if len(_TILES) < 4096:
        _TILES[text] = tile
    return tile


def _track(v: Any, where: str, r: _Reader, starts: int) -> int:
    if isinstance(v, int) and not isinstance(v, bool) and v >= 1:
        return v
    if isinstance(v, str) and v[:1] == "S" and v[1:].isdigit() and 1 <= int(v[1:]) <= starts:
        return start_pos(int(v[1:]))
    raise r.fail(where, f"{v!r}: a track position is a space >= 1 or a start space 'S1'..'S{starts}'")


def _not_market_tiles(odd: list[str], kinds: set[str], n: int) -> str:
    return (f"{odd!r}: not market tiles of this game with {n} players "
            f"(its tiles: {', '.join(sorted(kinds, key=tile_key))})")


def _check_action_tiles(s: State, hooks, r: _Reader) -> None:
    """The modules' action tiles of a loaded position ('cover one location on his action sheet
    with the ... action tile. The player cannot deploy apprentices to this covered location',
    bells and wall fresco): no apprentice planned in a covered column, and one tile per column
    of a seat (W3; planning refuses both, rules notes N26)."""
    words = planning.column_words(s)
    for seat in range(s.n):
        covered: dict[int, Any] = {}
        for m in hooks:
            col = m.covered_column(s, seat)
            if col < 0:
                continue
            tile, field = type(m).action_tile
            where = f"modules_state.{m.name}.{field}[{seat}]"
            plan = s.plan[seat]
            if plan is not None and plan[col]:
                raise r.fail(where, f"no apprentice may be planned in the column the {tile} covers ({words[col]})")
            if col in covered:
                raise r.fail(where, f"the {type(covered[col]).action_tile[0]} covers that column; two action "
                                    "tiles cannot cover one column")
            covered[col] = m


def from_dict(data: Any, hooks_for) -> State:
    if not isinstance(data, Mapping):
        raise StateError("saved state: the top level must be a JSON object")
    r = _Reader(data)
    fmt = data.get("format", FORMAT)
    if fmt != FORMAT and fmt not in OLD_FORMATS:
        raise r.fail("format", f"{fmt!r} is not {FORMAT!r} (or an older {', '.join(map(repr, OLD_FORMATS))})")
    comp_raw = data.get("components", "reference")
    try:
        comp: Components = reference() if comp_raw == "reference" else build(comp_raw)
    except ComponentError as e:
        raise StateError(f"saved state: components: {e}") from None
    players = r.get(data, "players", "", list)
    why = names_refusal(players)
    if why is not None:
        raise r.fail("players", why)
    n = len(players)
    modules = tuple(r.get(data, "modules", "", list, []))
    options = r.get(data, "options", "", dict, {})
    try:
        hooks = hooks_for(modules, options, comp)
    except FrescoError as e:
        raise StateError(f"saved state: {e}") from None
    modules = tuple(m.name for m in hooks)

    s = State.__new__(State)
    s.comp, s.n, s.modules, s.hooks, s.options = comp, n, modules, hooks, tuple(sorted(options.items()))
    s.names = tuple(players) + (("Leonardo",) if n == 2 else ())
    figs = len(s.names)
    s.setup = r.get(data, "setup", "", (dict, type(None)), None)
    if s.setup is not None and "position" not in s.setup:
        _check_setup(r, s.setup, players, modules, options)
    s.seed = r.get(data, "seed", "", (int, str), 0)
    why = seed_refusal(s.seed)
    if why is not None:
        raise r.fail("seed", why)
    s.draws = r.get(data, "chance_draws", "", int, 0)
    if s.draws < 0:
        raise r.fail("chance_draws", f"{s.draws!r}: how many chance events have happened (a whole number >= 0)")
    s.round = r.get(data, "round", "", int, 1)
    if s.round < 1:
        # the game's rounds are counted from 1 (round 1 is set-up's); the modules' records of
        # 'this round' (one request a round, one portrait a studio visit, the Sexton once a
        # round, the neutral apprentice's illness) write 0 for 'never' (rules notes N28)
        raise r.fail("round", f"{s.round!r}: the round number, counted from 1")
    s.final = r.get(data, "final_round", "", bool, False)
    side = r.get(data, "action_sheet_side", "", int, 0)     # 0: left out
    if side not in (0, 1, 2):
        raise r.fail("action_sheet_side", f"{side!r}: 1, or 2 in the final round")
    s.phase = r.get(data, "phase", "", str, GETUP)
    if s.phase not in (GETUP, PLAN, VISITS, OVER):
        raise r.fail("phase", f"{s.phase!r} is not one of getup, plan, visits, over")

    rows = r.get(data, "fresco", "", list)
    if len(rows) != SIZE or any(not isinstance(row, list) or len(row) != SIZE for row in rows):
        raise r.fail("fresco", "5 rows of 5 tiles ('VP:PAINTS' or null)")
    s.fresco = [parse_tile(rows[i // SIZE][i % SIZE], f"fresco {NAMES[i]}", r) for i in range(CELLS)]
    bishop = r.get(data, "bishop", "", str, NAMES[CELLS // 2])
    if bishop.upper() not in SEGMENT:
        raise r.fail("bishop", f"{bishop!r} is not a segment A1..E5")
    s.bishop = SEGMENT[bishop.upper()]
    # R11 for a position that leaves out final_round: in phase getup or plan nothing has been
    # restored this round, so it is final if it began with 6 or fewer tiles (the modules' ends
    # are checked once their states are read); the final round's sheet is side 2 (R1)
    derive_final = "final_round" not in data and s.phase in (GETUP, PLAN)
    if derive_final:
        s.final = s.tiles_on_board() <= comp.rules["end"]["final_round_tiles_left"] or house.last_round(s)
    # in phase visits restorations may have been made this round (N7), so only what cannot
    # change during a round says it began final (max_rounds, a module's end: below), and a
    # fresco with no tile left was completed in this very round (R11), on the side planned (N19)
    derive_visits = "final_round" not in data and s.phase == VISITS
    began_final = derive_visits and house.last_round(s)
    if derive_visits:
        s.final = began_final or s.tiles_on_board() == 0
    if side == 2 and not s.final:
        # 'Side 2 is needed for the final round only' (R1): the sheets are flipped at the start
        # of the final round and never otherwise, so side 2 makes the round final (rules notes
        # N18); a position that says it is not is refused
        if "final_round" in data:
            raise r.fail("action_sheet_side", "2 is the side of the final round only (R1), but final_round is false")
        s.final = True
    s.side2 = side == 2 if side else (began_final if derive_visits else s.final)

    mk = r.get(data, "market", "", dict, {})
    nbooths = len(comp.booths[n])
    booths = r.get(mk, "booths", "market.", list, [[] for _ in range(nbooths)])
    if len(booths) != nbooths:
        raise r.fail("market.booths", f"{len(booths)} booths: {nbooths} are used with {n} players")
    for b in booths:
        if not isinstance(b, list) or any(not isinstance(t, str) or not t or any(c not in PAINTS for c in t) for t in b):
            raise r.fail("market.booths", f"{b!r}: a booth is a list of tiles like 'YYY'")
    s.booths = [tuple(sorted((canonical(t) for t in b), key=tile_key)) for b in booths]
    removed = set(comp.removed_for_3) if n <= 3 else set()
    default_bag = [t.paints for i, t in enumerate(comp.market_tiles) if i not in removed]
    kinds = set(default_bag)
    for i, b in enumerate(s.booths):
        # 'Put all 14 market tiles into the linen bag'; for 3 players (and 2, R13) 'remove the
        # tiles shown below from the game' (rules notes N32)
        odd = sorted({t for t in b if t not in kinds})
        if odd:
            raise r.fail(f"market.booths[{i}]", _not_market_tiles(odd, kinds, n))
    for b in s.booths:
        for t in b:
            if canonical(t) in default_bag:
                default_bag.remove(canonical(t))
    bag = r.get(mk, "bag", "market.", list, default_bag)
    if any(not isinstance(t, str) or not t or any(c not in PAINTS for c in t) for t in bag):
        raise r.fail("market.bag", f"{bag!r}: the bag is a list of tiles like 'YYY'")
    s.bag = tuple(sorted(canonical(t) for t in bag))
    odd = sorted({t for t in s.bag if t not in kinds})
    if odd:
        raise r.fail("market.bag", _not_market_tiles(odd, kinds, n))

    figures = r.get(data, "figures", "", list)
    if len(figures) != figs:
        raise r.fail("figures", f"{len(figures)} figures: expected {figs} ({', '.join(s.names)})")
    starts = 4 if n == 4 else 3
    s.pos, s.getup, s.tiles, s.plan = [], [], [], []
    s.thalers, s.paints, s.mood, s.neutral, s.aside = [], [], [], [], []
    times = [h.time for h in comp.hostel]
    for f, fig in enumerate(figures):
        w = f"figures[{f}]."
        if not isinstance(fig, dict):
            raise r.fail(f"figures[{f}]", "must be an object")
        name = fig.get("name", s.names[f])   # optional; when written, the figure of that seat
        if name != s.names[f]:
            raise r.fail(w + "name", f"{name!r}: figures are in seat order, this one is {s.names[f]!r}")
        s.pos.append(_track(fig.get("track", f"S{f + 1}"), w + "track", r, starts))
        g = r.get(fig, "getup", w, (str, type(None)), None)
        if g is not None and g not in times:
            raise r.fail(w + "getup", f"{g!r} is not a get-up time ({', '.join(times)})")
        s.getup.append(times.index(g) if g is not None else -1)
        s.tiles.append(tuple(parse_tile(t, f"{w}tiles", r) for t in r.get(fig, "tiles", w, list, [])))
        if any(t is None for t in s.tiles[-1]):
            raise r.fail(w + "tiles", "null is not a tile")
        plan = r.get(fig, "plan", w, (list, type(None)), None)
        s.plan.append(None if plan is None else tuple(plan))
        if f < n:
            th = r.get(fig, "thalers", w, int, comp.thalers)
            if th < 0:
                raise r.fail(w + "thalers", f"{th} is negative")
            s.thalers.append(th)
            p = r.get(fig, "paints", w, str, BASIC)
            if any(c not in PAINTS for c in p):
                raise r.fail(w + "paints", f"{p!r}: paint letters from {PAINTS}")
            s.paints.append(paint_vector(p))
            mood = r.get(fig, "mood", w, int, comp.mood_start)
            if not 0 <= mood < len(comp.mood_spaces):
                raise r.fail(w + "mood", f"{mood}: a mood space 0 (top) to {len(comp.mood_spaces) - 1}")
            s.mood.append(mood)
            # R3 (rules notes N16): in phase plan the zone effects of this round's get-up are in
            # force, so a position that leaves them out gets them from the mood (a +1 space: the
            # neutral apprentice; a -1 space: one set aside). In phase getup a -1 space was
            # reached at an earlier get-up (the mood falls only there), which set one aside; a
            # +1 space may have been reached since (theater). Visits: their own facts
            # (phase getup, a figure that has chosen its get-up time this round: its zone effects
            # are in force as in phase plan, rules notes N24)
            zone = comp.mood_spaces[mood] if s.phase in (PLAN, GETUP) else 0
            chosen = s.phase == PLAN or (s.phase == GETUP and g is not None)
            s.neutral.append(r.get(fig, "neutral_apprentice", w, bool, zone > 0 and chosen))
            s.aside.append(r.get(fig, "apprentice_set_aside", w, bool, zone < 0))
            if s.neutral[-1] and s.aside[-1]:
                raise r.fail(w + "neutral_apprentice", "a player cannot hold the neutral apprentice with one set aside")
    on_track = [p for p in s.pos if p > 0]
    if len(set(s.pos)) != len(s.pos):
        raise r.fail("figures", "two figures on one track space")
    used = [g for g in s.getup if g >= 0]
    if len(set(used)) != len(used):
        raise r.fail("figures", "two figures on one get-up space")
    sheet = comp.rules["action_sheet"]
    ncol = sheet["columns"]
    for f, plan in enumerate(s.plan):
        if plan is None:
            continue
        if s.phase == GETUP:
            raise r.fail(f"figures[{f}].plan", "plans are committed in phase 2, not while choosing get-up times")
        if len(plan) != ncol or any(not _whole(c) or not 0 <= c <= sheet["spaces_per_column"] for c in plan):
            raise r.fail(f"figures[{f}].plan", f"{list(plan)!r}: {ncol} counts of 0..{sheet['spaces_per_column']}")
    del on_track

    leo = data.get("leonardo")
    s.leo_pos, s.leo_ctrl = -1, -1
    if n == 2:
        leo = {} if leo is None else leo
        if not isinstance(leo, dict):
            raise r.fail("leonardo", f"{leo!r}: an object {{'painter': 'C3', 'controller': 0}}")
        painter = leo.get("painter", NAMES[CELLS // 2])
        if painter is not None and (not isinstance(painter, str) or painter.upper() not in SEGMENT):
            raise r.fail("leonardo.painter", f"{painter!r} is not a segment")
        s.leo_pos = SEGMENT[painter.upper()] if painter else -1
        controller = leo.get("controller", _round_one_controller(s, n) if s.round == 1 else 0)
        if controller not in (0, 1):   # checked before it is kept: State.leo_ctrl is an int
            raise r.fail("leonardo.controller", f"{controller!r}: seat 0 or 1")
        s.leo_ctrl = int(controller)

    turn = r.get(data, "turn", "", dict, {})
    order = r.get(turn, "order", "turn.", list, [])
    if s.phase in (PLAN, VISITS, OVER) and not order:
        order = sorted(range(figs), key=lambda f: s.getup[f])
        if any(g < 0 for g in s.getup):
            raise r.fail("figures", "every figure needs a get-up time once planning has begun")
    if order and (not all(whole(f) for f in order) or sorted(order) != list(range(figs))):   # JSON true sorts as 1
        raise r.fail("turn.order", f"{order!r} is not an order of the figures 0..{figs - 1}")
    s.order = tuple(order)
    if s.phase in (PLAN, VISITS) and s.order != hostel.action_order(s):
        # 'The player having chosen the earliest get up time will be first player during phase
        # 2, followed by the other players in ascending order of their chosen get up time'
        # (rules notes N31)
        raise r.fail("turn.order", f"{list(s.order)!r}: the order of phase 2 is that of the get-up times, "
                                   f"{list(hostel.action_order(s))!r}")
    s.loc = r.get(turn, "location", "turn.", int, 0 if s.phase == VISITS else -1)
    s.visit = r.get(turn, "visit", "turn.", int, -1)
    s.actor = r.get(turn, "actor", "turn.", int, -1)
    s.left = r.get(turn, "left", "turn.", int, 0)
    if not -1 <= s.actor < figs:
        raise r.fail("turn.actor", f"{s.actor} is not a figure")
    if s.phase == VISITS and "visit" not in turn and 0 <= s.actor < figs and s.actor in s.order:
        s.visit = s.order.index(s.actor)    # the named actor's place in the order (rules notes N22)
    if s.phase == VISITS and "left" not in turn and not data.get("asks") and data.get("pending_track") is None \
            and ("actor" in turn or "visit" in turn):
        # a hand-written turn (saved states write every field): the visitor it names, by
        # ``actor`` or by ``visit``, begins its turn at the column as the round would begin it
        # (its apprentices there, the modules' turn start), not as one that has none left
        # (rules notes N22; before, that visitor was skipped)
        if "actor" not in turn and 0 <= s.visit < len(s.order):
            s.actor = s.order[s.visit]
        begin = s.actor >= 0
    else:
        begin = False
    if s.phase == VISITS:
        for f, p in enumerate(s.plan):
            if p is None and f != s.leonardo:   # (Leonardo's fixed plan is his default: below)
                raise r.fail(f"figures[{f}].plan", "every figure needs a plan once the visits have begun")
        if not 0 <= s.loc <= ncol or (s.loc == ncol and s.actor >= 0):
            raise r.fail("turn.location", f"{s.loc}: a column 0..{ncol - 1} ({ncol} once every column is done)")
        if s.actor >= 0 and (s.order[s.visit] != s.actor if 0 <= s.visit < len(s.order) else True):
            raise r.fail("turn.visit", "the visitor does not match turn.order[turn.visit]")
        if begin:
            s.visit, s.actor = s.visit - 1, -1    # flow.advance starts the turn of order[visit]
    pending = data.get("pending_track")
    if pending is not None:
        if not isinstance(pending, dict) or not all(_whole(pending.get(k)) for k in ("figure", "behind", "ahead")):
            raise r.fail("pending_track", f"{pending!r}: null or {{'figure': f, 'behind': space, 'ahead': space}}")
        pf, pb, pa = pending["figure"], pending["behind"], pending["ahead"]
        others = {p for f, p in enumerate(s.pos) if f != pf}   # the mover's own space is free (N10)
        if not 0 <= pf < figs or not 1 <= pb < pa or pb in others or pa in others:
            raise r.fail("pending_track", f"{pending!r}: a figure and two free spaces, behind < ahead")
        target = pending.get("target", pb + 1)   # the space the score reached (older saves: next to behind)
        if not _whole(target) or not pb < target < pa:
            raise r.fail("pending_track.target", f"{target!r}: the occupied space between behind and ahead")
        s.pending = (pf, pb, pa, target)
    else:
        s.pending = None
    moves = r.get(data, "queued_moves", "", list, [])
    for i, m in enumerate(moves):
        if not (isinstance(m, list) and len(m) == 3 and _whole(m[0]) and 0 <= m[0] < figs and _whole(m[1])
                and m[1] > 0 and isinstance(m[2], bool)):
            raise r.fail(f"queued_moves[{i}]", f"{m!r}: [figure, vp > 0, final]")
    s.moves = tuple(tuple(m) for m in moves)
    s.mods = {}
    s.owned = ()     # module states it may write in place (hooks.Module.own)
    mstate = r.get(data, "modules_state", "", dict, {})
    names = [m.name for m in hooks]
    for key in mstate:
        if key not in names:
            raise r.fail(f"modules_state.{key}", f"the module is not in play (modules: {', '.join(names) or 'none'})")
    s.log = None     # a module's default laid out as at set-up may log; the saved log comes below
    for m in hooks:
        m.load(s, mstate.get(m.name))
    _check_action_tiles(s, hooks, r)
    if (derive_visits or (derive_final and not s.final)) and any(hook(s) for hook in s.hooks.is_final_round):
        s.final = True
        s.side2 = side != 1
    if s.final and s.phase in (GETUP, PLAN):
        # 'this is the final round of the game. All players flip their action sheet over, now
        # showing side 2' (R1, R11): the flip belongs to the start of the final round, so before
        # its visits a final round is on side 2, whatever side the position shows (a final
        # round on side 1 is only N7's fresco completed during the visits; rules notes N20)
        s.side2 = True
    if s.leonardo is not None and s.phase == VISITS:
        # R13: 'This array remains unchanged for the rest of the game' (his apprentices on the
        # market and cathedral columns, the modules' more; none in the cathedral once the sheets
        # are flipped): a visits position may leave his plan out, and one that differs is
        # refused (rules notes N23)
        fixed = planning.leonardo_plan(s)
        if s.plan[s.leonardo] is None:
            s.plan[s.leonardo] = fixed
        elif s.plan[s.leonardo] != fixed:
            raise r.fail(f"figures[{s.leonardo}].plan", f"{list(s.plan[s.leonardo])!r}: Leonardo's plan is "
                         f"fixed (R13), here {list(fixed)!r}")
    if s.phase == VISITS and "left" in turn and 0 <= s.actor < figs and s.loc < ncol:
        # 'Each of the player's apprentices deployed at the "market" column may buy 1 market
        # tile' (and so on: one action per apprentice, up to 2 blends each at the workshop):
        # the actions left in a turn are at most what the actor's apprentices in the column
        # give (rules notes N31)
        per = comp.rules["workshop"]["blends_per_apprentice"] if s.columns()[s.loc] == "workshop" else 1
        most = (s.plan[s.actor] or (0,) * ncol)[s.loc] * per
        if not 0 <= s.left <= most:
            raise r.fail("turn.left", f"{s.left}: the actions left in this turn, 0..{most} "
                                      f"(figure {s.actor}'s apprentices in the {s.columns()[s.loc]} column)")
    for f, plan in enumerate(s.plan[:n]):
        # the apprentices of the committed plan: its columns' and those on the modules' action
        # tiles (the wall fresco's: 'Only one apprentice can be placed on this tile', W2)
        placed = sum(plan) + sum(m.off_sheet(s, f) for m in s.hooks) if plan is not None else 0
        if plan is not None and placed == s.apprentices(f) + 1 and not s.neutral[f] and not s.aside[f] \
                and s.phase == VISITS and "neutral_apprentice" not in figures[f] \
                and "apprentice_set_aside" not in figures[f]:
            # a committed plan with one apprentice more than the player's own: the neutral
            # apprentice was taken at this round's get-up (R3; the theater may have moved the
            # figure since, so the mood cannot tell it in phase visits: rules notes N21)
            s.neutral[f] = True
        if plan is not None and placed > s.apprentices(f):
            tiles = f" and {placed - sum(plan)} on an action tile" if placed > sum(plan) else ""
            raise r.fail(f"figures[{f}].plan", f"{list(plan)!r}{tiles} uses more apprentices than the player has")
    for m in hooks:
        m.loaded(s)
    asks = r.get(data, "asks", "", list, [])
    for i, a in enumerate(asks):
        if not (isinstance(a, list) and len(a) == 3 and _whole(a[0]) and 0 <= a[0] < figs and a[1] in names
                and hooks[names.index(a[1])].valid_ask(s, a[0], a[2])):
            raise r.fail(f"asks[{i}]", f"{a!r}: [figure, module in play, a payload that module asks about]")
    s.asks = tuple(tuple(a) for a in asks)
    hist = r.get(data, "history", "", list, [])
    history: tuple[Any, ...] | None = None
    for i, h in enumerate(hist):
        if not (type(h) is list and len(h) == 2 and type(h[0]) is int and type(h[1]) is str and 0 <= h[0] < n
                or isinstance(h, list) and len(h) == 2 and _whole(h[0]) and 0 <= h[0] < n and isinstance(h[1], str)):
            raise r.fail(f"history[{i}]", f"{h!r}: [seat 0..{n - 1}, notation]")
        history = (tuple(h), history)
    offset = (s.setup or {}).get("history_offset", 0)
    if not (_whole(offset) and offset >= 0):
        raise r.fail("setup.history_offset", f"{offset!r}: how many actions of the history came before the "
                                             "set-up's position (a whole number >= 0)")
    s.history = history
    s.nactions = len(hist)
    s.acting = s.cache = s.offered = s.drafts = None
    s.log = _log_cons(r, r.get(data, "log", "", list, []), fmt != FORMAT, s.n, s.figures)
    if s.setup is None:
        s.setup = {"position": {k: v for k, v in data.items() if k not in ("history", "log")},
                   "history_offset": len(hist)}
    flow.advance(s)
    return s


def _round_one_controller(s: State, n: int) -> int:
    """Leonardo's controller in a round-1 position that leaves it out: 'Give the Leonardo tile to
    the starting player' (R13: the player who chooses get-up time first in round 1, the one on
    S1, the last position), as ``setup`` does: the seat on S1, or the seat that has left the
    start spaces while the other is still on S2 (rules notes N27); else seat 0."""
    seats = range(n)
    on_s1 = [f for f in seats if s.pos[f] == start_pos(1)]
    if on_s1:
        return on_s1[0]
    on_track = [f for f in seats if s.pos[f] > 0]
    if len(on_track) == 1 and any(s.pos[f] == start_pos(2) for f in seats):
        return on_track[0]
    return 0


def _check_setup(r: _Reader, setup: dict, players: list, modules: tuple, options: dict) -> None:
    """A set-up of ``new_game`` (no ``position``) is how this game began, which ``record()``
    hands to ``replay``: the players, modules and options it names are the game's own, and its
    seed is one ``new_game`` takes (a set-up that names none of them is a position's own start)."""
    if "players" in setup and setup["players"] != players:
        raise r.fail("setup.players", f"{setup['players']!r} are not the game's players {players!r}")
    named = setup.get("modules")
    if "modules" in setup and not (isinstance(named, list) and all(isinstance(m, str) for m in named)
                                   and sorted(named) == sorted(modules)):
        raise r.fail("setup.modules", f"{setup['modules']!r} are not the game's modules {list(modules)!r}")
    if "options" in setup and setup["options"] != options:
        raise r.fail("setup.options", f"{setup['options']!r} are not the game's options {options!r}")
    if "seed" in setup:
        why = seed_refusal(setup["seed"])
        if why is not None:
            raise r.fail("setup.seed", why)


def _log_cons(r: _Reader, log: list, old: bool, n: int, figures: int) -> tuple[Any, ...] | None:
    """The saved log as the state's cons list of (round, seat, event) entries, newest first;
    an old format's text lines become ``text`` events.  Each entry is checked (``[round, seat or
    null, event]``, an event an object with a ``kind``), and so are the fields the engine reads
    (``score`` and ``track`` events: VP by source).  An entry of plain JSON types passes the
    checks at once; any other goes through :func:`_log_entry`, which accepts or refuses it."""
    cons: tuple[Any, ...] | None = None
    for i, e in enumerate(log):
        if type(e) is list and len(e) == 3:
            rnd, who, event = e
            if type(rnd) is int and (who is None or type(who) is int and 0 <= who < n) and type(event) is dict:
                kind = event.get("kind")
                if type(kind) is str:
                    if kind == "score" or kind == "track":
                        _check_vp_event(r, i, event, kind, figures)
                    cons = ((rnd, who, event), cons)
                    continue
        cons = (_log_entry(r, i, e, old, n, figures), cons)
    return cons


def _log_entry(r: _Reader, i: int, e: Any, old: bool, n: int, figures: int) -> tuple[Any, Any, Any]:
    """Log entry ``i`` as (round, seat, event), or StateError (see :func:`_log_cons`)."""
    if not (isinstance(e, list) and len(e) == 3 and _whole(e[0]) and (e[1] is None or _whole(e[1]) and 0 <= e[1] < n)):
        raise r.fail(f"log[{i}]", f"{e!r}: [round, seat or null, event]")
    if old and isinstance(e[2], str):
        return (e[0], e[1], {"kind": "text", "text": e[2]})
    event = e[2]
    if not (isinstance(event, dict) and isinstance(event.get("kind"), str)):
        raise r.fail(f"log[{i}]", f"{event!r}: an event is an object with a 'kind'")
    kind = event["kind"]
    if kind in ("score", "track"):
        _check_vp_event(r, i, event, kind, figures)
    return (e[0], e[1], event)


def _check_vp_event(r: _Reader, i: int, event: dict, kind: str, figures: int) -> None:
    """The fields of log entry ``i``'s ``score`` or ``track`` event that the engine reads."""
    if not (_whole(event.get("figure")) and 0 <= event["figure"] < figures):
        raise r.fail(f"log[{i}].figure", f"{event.get('figure')!r}: a figure 0..{figures - 1}")
    if kind == "score":
        sources = event.get("sources")
        if not (isinstance(sources, dict) and all(_whole(v) for v in sources.values())):
            raise r.fail(f"log[{i}].sources", f"{sources!r}: an object of source -> VP")
    elif not _whole(event.get("delta")):
        raise r.fail(f"log[{i}].delta", f"{event.get('delta')!r}: a whole number of spaces")


def loads(text: Any, hooks_for) -> State:
    """The state saved as ``text`` (JSON); StateError for anything else (any type: it validates)."""
    try:
        data = json.loads(text)
    except (TypeError, ValueError, RecursionError) as e:   # RecursionError: too deeply nested
        raise StateError(f"saved state: not valid JSON: {e}") from None
    return load(data, hooks_for)


def load(data: Any, hooks_for) -> State:
    """The state saved as ``data``, the JSON text already parsed; StateError for anything else."""
    try:
        return from_dict(data, hooks_for)
    except FrescoError:
        raise
    except (KeyError, TypeError, ValueError, IndexError) as e:
        raise StateError(f"saved state: malformed ({type(e).__name__}: {e})") from None
