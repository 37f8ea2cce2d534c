"""Hand-written positions for the rule tests (test_rules_*.py).

Rule tests must not depend on the random reference-edition layout, so every test builds an
explicit position (the ``affresco-state/1`` JSON format read by ``Game.from_json``) with the
helpers below and then plays actions through the public API.

    g = game(players=3, phase="plan",
             seats=[dict(getup="7:00", paints="OY"), dict(getup="8:00"), dict(getup="6:00")],
             fresco={"B2": "3:YY"}, bishop="C3")
    plan_all(g, "0-1-0-0-0", "0-0-0-0-0", "0-0-0-0-0")

Segments: column letter A..E (left to right), row digit 1..5 (top to bottom); C3 the centre.
Mood: index from the top of the mood column, 0..6 (spaces +1,+1,0,0,0,-1,-1); 3 = middle.
"""
from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any, Iterable

import affresco

COLUMNS = "ABCDE"
PAINT_ORDER = "RYBOGPKN"

# A tile nobody in a test can pay for unless given the paints on purpose: it fills the
# segments a test does not care about (and keeps the count of tiles on the board above 6).
FILLER = "10:GGP"

MIDDLE = 3          # mood start space (index from the top)
TOP, BOTTOM = 0, 6  # ends of the mood column

# Default market: only tiles of the 3-player set (YBB, RRY, YRB removed) resp. the full set.
BOOTHS_3 = [["YYY", "RR", "BB"], ["RRR", "YB", "O"], ["BBB", "YY", "G"]]
BOOTHS_4 = [["YYY", "RR", "BB", "YRB"], ["RRR", "YB", "O"], ["BBB", "YY", "G"], ["YR", "RB", "RRY"]]

DEFAULT_GETUP = ["7:00", "8:00", "9:00", "6:00"]


def canon(paints: str) -> str:
    """Paint text in the engine's order (R, Y, B, O, G, P, K, N)."""
    return "".join(sorted(paints, key=PAINT_ORDER.index))


def segment_rc(seg: str) -> tuple[int, int]:
    return int(seg[1]) - 1, COLUMNS.index(seg[0])


def fresco_grid(tiles: dict[str, str | None] | None = None, fill: str | None = FILLER) -> list[list]:
    """5x5 rows of 'VP:PAINTS' or None: ``fill`` everywhere, then ``tiles`` by segment."""
    grid: list[list] = [[fill] * 5 for _ in range(5)]
    for seg, t in (tiles or {}).items():
        r, c = segment_rc(seg)
        grid[r][c] = t
    return grid


def _figure(i: int, name: str, spec: dict[str, Any], phase: str, leonardo: bool) -> dict:
    spec = dict(spec)
    fig: dict[str, Any] = {
        "name": name,
        "track": spec.pop("track", "S3" if leonardo else f"S{i + 1}"),
        "getup": spec.pop("getup", None if phase == "getup" else ("9:00" if leonardo else DEFAULT_GETUP[i])),
        "tiles": spec.pop("tiles", []),
        "plan": spec.pop("plan", None),
    }
    if not leonardo:
        fig["thalers"] = spec.pop("thalers", 12)
        fig["paints"] = spec.pop("paints", "RYB")
        fig["mood"] = spec.pop("mood", MIDDLE)
        fig["neutral_apprentice"] = spec.pop("neutral", False)
        fig["apprentice_set_aside"] = spec.pop("aside", False)
    if spec:
        raise TypeError(f"unknown figure keys {sorted(spec)}")
    return fig


def position(players: int = 3, *, phase: str = "plan", seats: Iterable[dict] | None = None,
             leonardo: dict | None = None, leonardo_painter: str | None = "C3", controller: int = 0,
             fresco: dict[str, str | None] | None = None, fill: str | None = FILLER,
             bishop: str = "C3", booths: list[list[str]] | None = None, bag: list[str] | None = None,
             round: int = 1, final: bool = False, side: int = 1, seed: int = 0) -> dict:
    """A position dict (see module docstring).  ``seats``: one dict per seat with any of
    track, getup, thalers, paints, mood, neutral, aside, plan, tiles."""
    names = [f"P{i}" for i in range(players)]
    seats = list(seats or [{} for _ in range(players)])
    seats += [{} for _ in range(players - len(seats))]
    figures = [_figure(i, names[i], seats[i], phase, False) for i in range(players)]
    if players == 2:
        figures.append(_figure(2, "Leonardo", leonardo or {}, phase, True))
    if booths is None:
        booths = BOOTHS_4 if players == 4 else BOOTHS_3
    pos: dict[str, Any] = {
        "players": names,
        "seed": seed,
        "round": round,
        "final_round": final,
        "action_sheet_side": side,
        "phase": phase,
        "fresco": fresco_grid(fresco, fill),
        "bishop": bishop,
        "market": {"booths": [list(b) for b in booths]},
        "figures": figures,
    }
    if bag is not None:
        pos["market"]["bag"] = list(bag)
    if players == 2:
        pos["leonardo"] = {"painter": leonardo_painter, "controller": controller}
    return pos


def load(pos: dict) -> affresco.Game:
    return affresco.Game.from_json(json.dumps(pos))


def game(players: int = 3, **kw) -> affresco.Game:
    return load(position(players, **kw))


# --------------------------------------------------------------------------- playing
def play(g: affresco.Game, *moves: tuple[int, str]) -> None:
    for seat, action in moves:
        g.apply(seat, action)


def plan_all(g: affresco.Game, *plans: str) -> None:
    """Commit one plan per seat (seat order), e.g. plan_all(g, "1-0-0-0-0", "0-1-0-0-0")."""
    for seat, p in enumerate(plans):
        g.apply(seat, "plan " + p)


def only_actor(g: affresco.Game) -> int:
    acting = g.to_act
    assert len(acting) == 1, acting
    return acting[0]


def act(g: affresco.Game, action: str) -> int:
    """Apply ``action`` for the single seat to act; return that seat."""
    seat = only_actor(g)
    g.apply(seat, action)
    return seat


# --------------------------------------------------------------------------- reading
def data(g: affresco.Game) -> dict:
    """The saved state as a dict (read from the compact text: the same state as the indented
    one, test_serialization.py, without json's pure-Python indenting encoder)."""
    return json.loads(g.to_json(pretty=False))


def fig(g: affresco.Game, f: int) -> dict:
    """The saved-state entry of figure ``f`` (seats, then Leonardo)."""
    return data(g)["figures"][f]


def paints(g: affresco.Game, seat: int) -> str:
    return fig(g, seat)["paints"]


def thalers(g: affresco.Game, seat: int) -> int:
    return fig(g, seat)["thalers"]


def track(g: affresco.Game, f: int):
    return fig(g, f)["track"]


def mood(g: affresco.Game, seat: int) -> int:
    return fig(g, seat)["mood"]


def tile_at(g: affresco.Game, seg: str):
    r, c = segment_rc(seg)
    return data(g)["fresco"][r][c]


def bishop(g: affresco.Game) -> str:
    return data(g)["bishop"]


def booths(g: affresco.Game) -> list[list[str]]:
    """The booths' tiles, each booth sorted (the order of tiles inside a booth is no rule)."""
    return norm(data(g)["market"]["booths"])


def norm(bs: list[list[str]]) -> list[list[str]]:
    return [sorted(b) for b in bs]


def bag(g: affresco.Game) -> list[str]:
    return data(g)["market"]["bag"]


def market_multiset(g: affresco.Game) -> Counter:
    d = data(g)["market"]
    return Counter(t for b in d["booths"] for t in b) + Counter(d["bag"])


def legal(g: affresco.Game, seat: int) -> set[str]:
    return {str(a) for a in g.legal_actions(seat)}


def tiles_on_board(g: affresco.Game) -> int:
    return sum(t is not None for row in data(g)["fresco"] for t in row)


# --------------------------------------------------------------------------- modules
# Helpers for the module tests (test_modules_*.py).  ``module_position`` is ``position`` plus
# ``modules``, ``options`` and ``modules_state``: every module in play gets a neutral default
# state (no portrait on display, request stacks as in the edition, no scroll held, the
# edition's favour tokens), which a test overrides module by module.
MODULES = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")

_REFERENCE_MODULE_STATE: dict[int, dict] = {}


def reference_modules_state(players: int = 3) -> dict:
    """The modules_state of a fresh reference-edition game with every module (a copy)."""
    if players not in _REFERENCE_MODULE_STATE:
        g = affresco.new_game(players=players, modules=MODULES, seed=0)
        _REFERENCE_MODULE_STATE[players] = json.loads(g.to_json())["modules_state"]
    return json.loads(json.dumps(_REFERENCE_MODULE_STATE[players]))


def portrait_ids() -> list[str]:
    """Every portrait card id of the edition."""
    p = reference_modules_state(3)["portraits"]
    return sorted(p["deck"] + p["display"])


def figures_of(players: int) -> int:
    return players + (1 if players == 2 else 0)


def portraits_state(players: int = 3, *, display=(), deck=None, owned=None, taken=None, sexton=None) -> dict:
    """Portraits: ``display`` cards on display; ``deck`` (default: every other card not
    owned); ``owned``: {seat: [card, ...]} permanent cards."""
    owned = {int(k): list(v) for k, v in (owned or {}).items()}
    used = set(display) | {c for v in owned.values() for c in v}
    if deck is None:
        deck = [c for c in portrait_ids() if c not in used]
    return {"deck": list(deck), "display": list(display),
            "owned": [owned.get(i, []) for i in range(players)],
            "taken": list(taken or [0] * figures_of(players)),
            "sexton": list(sexton or [0] * players)}


def requests_state(players: int = 3, *, stacks: dict | None = None, fulfilled: dict | None = None,
                   last=None) -> dict:
    """Requests: ``stacks`` {type: values bottom..top} (default the edition's stacks);
    ``fulfilled`` {figure: [[type, vp, [tiles]], ...]}."""
    base = reference_modules_state(3)["requests"]
    fulfilled = {int(k): v for k, v in (fulfilled or {}).items()}
    return {"stacks": dict(stacks if stacks is not None else base["stacks"]),
            "fulfilled": [fulfilled.get(f, []) for f in range(figures_of(players))],
            "last": list(last or [0] * figures_of(players))}


def scrolls_state(players: int = 3, held: dict | None = None) -> list:
    """Scrolls: ``held`` {seat: (row 1..5 or None, column 'A'..'E' or None)}; others hold none."""
    held = held or {}
    return [{"row": held.get(i, (None, None))[0], "column": held.get(i, (None, None))[1]}
            for i in range(players)]


def favour_state(tokens: Iterable[str] | None = None) -> list:
    """Bishop's favour: the tokens not yet drawn, e.g. ['vp:1'] * 3 (default: the edition's)."""
    if tokens is None:
        return reference_modules_state(3)["bishops_favour"]
    return list(tokens)


def bells_state(players: int = 3, *, display=(), stack=(), under=(), holdings: dict | None = None,
                audience: dict | None = None, asked: int = 0) -> dict:
    """Bells: certificates written 'price:vp:bells'; ``holdings`` {figure: dict(face_down=[...],
    partly_paid=[[cert, paid], ...])}; ``audience`` {seat: column word} (this round's tile)."""
    holdings = {int(k): v for k, v in (holdings or {}).items()}
    audience = audience or {}
    return {"stack": list(stack), "under": list(under), "display": list(display),
            "holdings": [{"face_down": list(holdings.get(f, {}).get("face_down", [])),
                          "partly_paid": [list(x) for x in holdings.get(f, {}).get("partly_paid", [])]}
                         for f in range(figures_of(players))],
            "audience": [audience.get(i) for i in range(players)], "asked": asked, "track": None}


WALL_FILL = "W:P/R"


def wall_state(players: int = 3, *, board: dict[str, str | None] | None = None, fill: str | None = WALL_FILL,
               tiles: dict | None = None, exchange: dict | None = None, action_tile: dict | None = None,
               supply: dict | None = None) -> dict:
    """Wall fresco (reference 4 x 5 board, A4 and B4 restored): ``fill`` on every other
    section, then ``board`` {section: tile text or None}; ``tiles`` {seat: [tile, ...]} in front
    of the screens; ``exchange`` {seat: 'OG'}; ``action_tile`` {seat: column index}."""
    grid: list[list] = [[fill] * 5 for _ in range(4)]
    grid[3][0] = grid[3][1] = None
    for seg, tile in (board or {}).items():
        grid[int(seg[1]) - 1][COLUMNS.index(seg[0])] = tile
    tiles = {int(k): list(v) for k, v in (tiles or {}).items()}
    exchange = {int(k): v for k, v in (exchange or {}).items()}
    placed = {int(k): v for k, v in (action_tile or {}).items()}
    out = {"board": grid, "tiles": [tiles.get(i, []) for i in range(players)],
           "exchange_tiles": [exchange.get(i, "") for i in range(players)],
           "action_tile": [placed.get(i, -1) for i in range(players)]}
    if supply is not None:
        out["supply"] = dict(supply)
    return out
def medico_state(players: int = 3, *, pile=None, infected=None, tile=None, display=None, held=None, sick=None,
                 ill=None, discard=(), draw=None, neutral_ill=None, spent=()) -> dict:
    """Medico: ``pile`` the infection tiles left (default the edition's 9), ``infected`` the
    location infected last round, ``display`` bottles by place ('3', '2', '1', 'juice' or None),
    ``held`` {seat: [bottles]}, ``sick`` {seat: own apprentices on the board}, ``ill`` {seat:
    black apprentices held} (default = sick); the draw pile holds the other bottles unless given."""
    places = 4 if players == 4 else 3
    sick = {int(k): v for k, v in (sick or {}).items()}
    ill = {int(k): v for k, v in (ill or sick).items()}
    held = {int(k): list(v) for k, v in (held or {}).items()}
    d = {"infection_pile": list(pile) if pile is not None else
         ["market"] * 2 + ["cathedral"] * 2 + ["studio"] * 2 + ["workshop"] * 2 + ["same"],
         "infection_tile": tile, "infected": infected, "infection_discard": list(spent),
         "display": list(display) + [None] * (places - len(display)) if display is not None else [None] * places,
         "held": [held.get(i, []) for i in range(players)], "discard": list(discard),
         "sick": [sick.get(i, 0) for i in range(players)], "ill": [ill.get(i, 0) for i in range(players)],
         "neutral_ill": list(neutral_ill or [0] * players)}
    if draw is not None:
        d["draw"] = list(draw)
    return d


def medico_bottles_rest(*used) -> list[str]:
    """The edition's bottles less ``used`` (for an explicit draw pile)."""
    rest = ["3"] * 4 + ["2"] * 4 + ["1"] * 4 + ["juice"] * 4
    for b in used:
        rest.remove(b)
    return rest


def default_module_state(players: int, name: str):
    if name == "bells":
        return bells_state(players)
    if name == "wall_fresco":
        return wall_state(players)
    if name == "portraits":
        return portraits_state(players)
    if name == "requests":
        return requests_state(players)
    if name == "scrolls":
        return scrolls_state(players)
    if name == "bishops_favour":
        return favour_state()
    return None


def module_position(players: int = 3, *, modules: Iterable[str] = (), modules_state: dict | None = None,
                    options: dict | None = None, asks: list | None = None, **kw) -> dict:
    """``position(...)`` with modules: ``modules_state`` overrides the default state of each
    named module (see the ``*_state`` helpers); ``options`` the rule options."""
    pos = position(players, **kw)
    modules = list(modules)
    pos["modules"] = modules
    pos["options"] = dict(options or {})
    ms = {m: default_module_state(players, m) for m in modules}
    ms.update(modules_state or {})
    pos["modules_state"] = ms
    if asks is not None:
        pos["asks"] = asks
    return pos


def module_game(players: int = 3, **kw) -> affresco.Game:
    return load(module_position(players, **kw))


def edit_state(g: affresco.Game, edit) -> affresco.Game:
    """to_json -> ``edit(dict)`` (in place) -> from_dict: a changed copy of ``g``."""
    d = data(g)
    edit(d)
    return affresco.Game.from_dict(d)


def mods(g: affresco.Game, name: str):
    """The saved modules_state of module ``name``."""
    return data(g)["modules_state"][name]


def answer_tracks(g: affresco.Game, choice: str = "ahead") -> None:
    """Answer any pending VP-track choice ('track ahead' by default)."""
    while data(g)["pending_track"] is not None:
        act(g, "track " + choice)


def possible_plans(g, f: int) -> list[list[int]]:
    """Every plan (counts per column) seat ``f`` could commit with its apprentices now."""
    from itertools import product
    s = g.state
    sheet = s.comp.rules["action_sheet"]
    return [list(c) for c in product(range(sheet["spaces_per_column"] + 1), repeat=sheet["columns"])
            if sum(c) <= s.apprentices(f)]


def lazy_planning(players: int, modules: Iterable[str], seed: int, rounds: int = 5):
    """Seeded random games stopped at every planning decision whose legal plans come as a lazy
    sequence (the medico's :class:`affresco.rules.PlanVariants`: ill words, the medico tile;
    without the medico, bells' and the wall's TiledPlans), up to round ``rounds``:
    ``(game, seat, legal)``."""
    import random

    rng = random.Random(seed)
    g = affresco.new_game(players, modules=tuple(modules), seed=seed)
    while not g.is_over and g.round <= rounds:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        if g.phase == "plan" and type(legal) is not list:
            yield g, seat, legal
        g.apply(seat, rng.choice(legal))


def english_price_components(directory) -> Path:
    """A user component file: the reference edition's base data with the English text's 6:00
    market price of 5 Thalers (rules notes N1), written as JSON into ``directory``."""
    import tomllib
    data = tomllib.loads((Path(affresco.__file__).parent / "rules" / "data" / "base.toml").read_text())
    for row in data["hostel"]:
        if row["time"] == "6:00":
            row["price"] = 5
    path = Path(directory) / "english.json"
    path.write_text(json.dumps(data))
    return path


def module_components(name: str, change):
    """A user component file (components.md): the reference edition with module ``name``'s
    table (its data file) passed to ``change`` to edit in place; the loaded Components."""
    import tomllib
    from importlib import resources
    from affresco.rules.components import load_components
    base = tomllib.loads(resources.files("affresco.rules").joinpath("data/base.toml").read_text())
    table = tomllib.loads(resources.files("affresco.rules").joinpath(f"data/{name}.toml").read_text())
    change(table)
    base[name] = table
    return load_components(base)
