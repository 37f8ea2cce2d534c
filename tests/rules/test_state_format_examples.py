"""docs/state-format.md, 'Modules' (issue #10): every module's state has documented defaults,
every documented field is what `to_json` writes, and each module's example position loads and
plays as its text says."""
from __future__ import annotations

import json
import os
import re
import sys
from pathlib import Path

import pytest

import affresco
from affresco import Game, StateError

from positions import answer_tracks, legal, plan_all, thalers, track  # noqa: E402

DOC = Path(__file__).resolve().parents[2] / "docs" / "state-format.md"
MODULES = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")
NOTHING = "0-0-0-0-0"


def module_sections() -> dict[str, str]:
    text = DOC.read_text(encoding="utf-8").split("\n## Modules", 1)[1]
    parts = re.split(r"^### (\w+)\s*$", text, flags=re.M)
    return dict(zip(parts[1::2], parts[2::2]))


def example(name: str) -> str:
    m = re.search(r"```json\n(.*?)```", module_sections()[name], re.S)
    assert m, f"no example position for {name} in docs/state-format.md"
    return m.group(1)


def documented(name: str) -> list[str]:
    return [f for line in module_sections()[name].splitlines() if line.startswith("| `modules_state.")
            for f in re.findall(r"`modules_state\.([\w.]+)`", line.split("|")[1])]


def test_every_module_has_a_section_with_an_example():
    assert set(module_sections()) >= set(MODULES) and set(MODULES) <= set(affresco.MODULES)


@pytest.mark.parametrize("name", MODULES)
def test_documented_module_fields_are_the_saved_fields(name):
    """Each module's table names exactly the fields `to_json` writes for it."""
    saved = json.loads(affresco.new_game(3, [name], seed=5).to_json())["modules_state"][name]
    fields = documented(name)
    if isinstance(saved, dict) and saved:
        assert sorted(f.split(".", 1)[1] for f in fields) == sorted(saved)
    elif saved == {}:
        assert fields == []
    else:
        assert fields == [name]


@pytest.mark.parametrize("name", MODULES)
def test_documented_view_key(name):
    """The module's view key and its inner keys, as documented."""
    v = affresco.new_game(3, [name], seed=5).view(0)[name]
    section = module_sections()[name]
    assert f'view["{name}"]' in section
    for key in v:
        assert f'"{key}"' in section, f"view['{name}']['{key}'] is not documented"


@pytest.mark.parametrize("name", MODULES)
def test_a_position_may_leave_out_a_modules_state(name):
    """Issue #10: a hand-written position with a module and no `modules_state` loads with the
    documented defaults, the same way every time (default draws use the game's seed)."""
    pos = json.loads(example(name))
    pos.pop("modules_state", None)
    a, b = Game.from_json(json.dumps(pos)), Game.from_json(json.dumps(pos))
    assert a.to_json() == b.to_json()
    ms = json.loads(a.to_json())["modules_state"][name]
    fresh = json.loads(affresco.new_game(3, [name], seed=0).to_json())["modules_state"][name]
    if name == "portraits":
        assert len(ms["display"]) == 2 and ms["owned"] == [[], [], []] and ms["taken"] == [0, 0, 0]
        assert len(ms["deck"]) == 16 and all(c.endswith("-a") or c in ("servant", "actor") for c in ms["display"])
    elif name == "requests":
        assert ms == fresh
    elif name == "scrolls":
        assert all(h["row"] is not None and h["column"] is not None for h in ms)
        assert len({h["row"] for h in ms}) == 3 and len({h["column"] for h in ms}) == 3
    else:
        assert ms == fresh


def test_a_modules_state_for_a_module_not_in_play_is_refused():
    pos = json.loads(example("portraits"))
    pos["modules_state"]["requests"] = {}
    with pytest.raises(StateError, match="modules_state.requests"):
        Game.from_json(json.dumps(pos))


# ------------------------------------------------------------------- each example, played
def test_example_portraits():
    g = Game.from_json(example("portraits"))
    v = g.view(0)["portraits"]
    assert [c["id"] for c in v["display"]] == ["patron-a", "girl-a"]
    assert [c["id"] for c in v["owned"][0]] == ["abbot"] and v["owned"][1:] == [[], []]
    assert v["deck_left"] == {"A": 4, "B": 5, "C": 6}
    plan_all(g, "0-0-1-0-0", NOTHING, NOTHING)
    assert {a for a in legal(g, 0) if a.startswith("portrait")} == {"portrait patron-a", "portrait girl-a"}
    g.apply(0, "portrait patron-a")
    assert thalers(g, 0) == 12 + 7


def test_example_requests():
    g = Game.from_json(example("requests"))
    v = g.view(None)["requests"]
    assert v["stacks"] == {"general": [4, 5], "orange": [8, 9, 10], "green": [8, 9, 10], "purple": [8, 9]}
    assert v["fulfilled"][1] == [{"type": "general", "vp": 6, "tiles": ["3:YY", "4:RRY", "5:RYB"]}]
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.round == 2 and g.to_act == (1,)                 # Ben chooses the general request's paint
    assert legal(g, 1) == {"income R", "income Y", "income B"}
    g.apply(1, "income B")
    assert thalers(g, 1) == 12 + 1 and thalers(g, 0) == 12 + 3
    assert json.loads(g.to_json())["figures"][1]["paints"] == "RYBB"


def test_example_special_colours():
    g = Game.from_json(example("special_colours"))
    assert g.view(0)["special_colours"]["on_fresco"] is True
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    assert {"restore C3", "restore B3 using KN"} <= legal(g, 0)
    g.apply(0, "restore C3")
    answer_tracks(g)
    assert track(g, 0) == 24 + 3                             # the bishop stood on C3


def test_example_scrolls():
    g = Game.from_json(example("scrolls"))
    assert g.to_act == (0,)
    assert legal(g, 0) == {"scroll none", "scroll row", "scroll column", "scroll both"}
    assert g.view(0)["scrolls"]["mine"] == {"row": 3, "column": "C"}
    assert g.view(1)["scrolls"]["unplayed"] == [2, 1, 1]
    g.apply(0, "scroll both")                                # 3 VP x (4 in row 3 + 3 in column C)
    assert track(g, 0) == 5 + 21
    assert g.view(0)["scrolls"]["mine"] == {"row": None, "column": None}


# ------------------------------------------------------ issue #15 item 10: validated on load
def _full(players=3):
    return json.loads(affresco.new_game(players, MODULES[:2] + MODULES[3:], seed=3).to_json())


BAD_MODULE_STATES = {
    "portraits sexton=[0] with 3 seats": lambda d: d["modules_state"]["portraits"].update(sexton=[0]),
    "portraits taken of strings": lambda d: d["modules_state"]["portraits"].update(taken=["a", "b", "c"]),
    "portraits display of numbers": lambda d: d["modules_state"]["portraits"].update(display=[1]),
    "portraits owned by too few seats": lambda d: d["modules_state"]["portraits"].update(owned=[[]]),
    "portraits three on display": lambda d: d["modules_state"]["portraits"].update(
        display=d["modules_state"]["portraits"]["display"] + d["modules_state"]["portraits"]["deck"][:1],
        deck=d["modules_state"]["portraits"]["deck"][1:]),
    "requests last=[0]": lambda d: d["modules_state"]["requests"].update(last=[0]),
    "requests fulfilled with an unknown tile": lambda d: d["modules_state"]["requests"].update(
        fulfilled=[[["general", 6, ["3:YY", "4:RRY", "bogus"]]], [], []]),
    "requests fulfilled with two tiles": lambda d: d["modules_state"]["requests"].update(
        fulfilled=[[["general", 6, ["3:YY", "4:RRY"]]], [], []]),
    "requests stacks.general of strings": lambda d: d["modules_state"]["requests"]["stacks"].update(general=["4", "5"]),
    "requests unknown type": lambda d: d["modules_state"]["requests"]["stacks"].update(pink=[3]),
    "scrolls row 9": lambda d: d["modules_state"]["scrolls"][0].update(row=9),
    "scrolls row true": lambda d: d["modules_state"]["scrolls"][0].update(row=True),
    "scrolls one seat missing": lambda d: d["modules_state"]["scrolls"].pop(),
    "favour unknown token": lambda d: d["modules_state"].update(bishops_favour=["vp:9"]),
    "favour 26 tokens": lambda d: d["modules_state"].update(bishops_favour=["vp:1"] * 26),
    "malformed asks entry": lambda d: d.update(asks=[[0, "scrolls"]]),
    "scrolls ask with a bad segment": lambda d: d.update(asks=[[0, "scrolls", 99]]),
    "requests ask for a purple paint": lambda d: d.update(asks=[[0, "requests", "purple"]]),
    "ask of a module without asks": lambda d: d.update(asks=[[0, "portraits", None]]),
}


@pytest.mark.parametrize("name", sorted(BAD_MODULE_STATES))
def test_module_states_that_would_fail_later_are_refused_on_load(name):
    """Issue #15 item 10: `Game.from_json` validates every module's state, so a loaded game
    never raises anything but FrescoError later."""
    d = _full()
    BAD_MODULE_STATES[name](d)
    with pytest.raises(StateError, match="modules_state|asks"):
        Game.from_json(json.dumps(d))


def test_example_bishops_favour():
    g = Game.from_json(example("bishops_favour"))
    assert g.view(None)["bishops_favour"] == {"tokens_left": 3}
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    g.apply(0, "restore C3")
    assert track(g, 0) == 3 + 3 + 1                          # one move (R18)
    assert g.vp_sources()[0] == {"tile": 3, "bishop": 3, "favour": 1}
