"""Refused actions and bad input: every one raises a subclass of affresco.FrescoError with a
clear message and leaves the game unchanged (API contract; rulebook 'Performing actions' for
what is legal)."""
from __future__ import annotations

import copy
import json
import random

import pytest

import affresco

from positions import game, load, plan_all, position  # noqa: E402


def refused(g, seat, action, exc=affresco.IllegalAction):
    before = g.to_json(pretty=False)
    with pytest.raises(exc) as info:
        g.apply(seat, action)
    assert isinstance(info.value, affresco.FrescoError)
    assert str(info.value).strip()
    assert g.to_json(pretty=False) == before
    return str(info.value)


def test_error_classes_are_fresco_errors():
    """Every error affresco raises on purpose is a FrescoError."""
    for cls in (affresco.IllegalAction, affresco.NotationError, affresco.StateError,
                affresco.ConfigError, affresco.ComponentError):
        assert issubclass(cls, affresco.FrescoError)
    assert issubclass(affresco.NotationError, affresco.IllegalAction)


# ---------------------------------------------------------------------------- wrong seat
def test_wrong_seat_in_phase_one():
    """Phase 1: only the player whose turn it is may choose a get-up time."""
    g = game(3, phase="getup")
    msg = refused(g, 1, "getup 7:00")
    assert "not to act" in msg or "seat" in msg
    refused(g, 2, "getup 8:00")


def test_wrong_seat_during_visits():
    """'Performing actions': only the active player acts."""
    g = game(3)
    plan_all(g, "0-0-1-0-0", "0-0-1-0-0", "0-0-0-0-0")
    assert g.to_act == (0,)
    refused(g, 1, "studio")
    refused(g, 2, "pass")


@pytest.mark.parametrize("seat", [3, -1, 7, True, "0", None, 0.0])
def test_seat_out_of_range(seat):
    """Seats are 0..n-1."""
    g = game(3, phase="getup")
    refused(g, seat, "getup 7:00")


# ---------------------------------------------------------------------- illegal actions
def test_illegal_actions_name_the_problem():
    """Refusals explain what is wrong."""
    g = game(3, phase="getup")
    g.apply(0, "getup 7:00")
    msg = refused(g, 1, "getup 7:00")
    assert "7:00" in msg
    msg = refused(g, 1, "getup 10:30")
    assert "10:30" in msg


def test_wrong_kind_for_the_phase():
    """Phase 1 takes get-up choices only; phase 2 planning plans only."""
    g = game(3, phase="getup")
    for a in ("plan 1-1-1-1-1", "studio", "restore C3", "pass", "track ahead"):
        refused(g, 0, a)
    g = game(3)
    for a in ("getup 7:00", "studio", "close I", "pass"):
        refused(g, 0, a)


def test_wrong_kind_for_the_location():
    """At the studio a player cannot buy, blend or restore."""
    g = game(3, seats=[dict(paints="RRYYBB")])
    plan_all(g, "0-0-1-0-0", "0-0-0-0-0", "0-0-0-0-0")
    for a in ("buy I YYY", "close I", "blend O", "restore C3", "altar RYB", "theater", "track ahead"):
        refused(g, 0, a)


@pytest.mark.parametrize("text", [
    "", "   ", "frobnicate", "getup", "plan", "plan x-y", "plan 1-2", "plan 1-1-1-1-1-1",
    "restore", "restore Z9", "restore C33", "restore C3 bishop", "restore C3 bishop Q1",
    "restore C3 pope D2", "buy", "buy V YYY", "buy I", "buy I XYZ", "close", "close IX",
    "altar", "altar RY", "altar RYBR", "altar XYZ", "blend", "blend Z", "track", "track sideways",
    "studio now", "pass pass",
])
@pytest.mark.parametrize("phase", ["getup", "plan", "visits"])
def test_malformed_notation_is_refused(text, phase):
    """Notation: malformed text raises IllegalAction (or NotationError), state unchanged."""
    g = game(3, phase="getup" if phase == "getup" else "plan",
             seats=[dict(paints="RRYYBBOGP")])
    if phase == "visits":
        plan_all(g, "1-1-1-1-1", "1-1-1-1-1", "1-1-1-1-1")
    seat = g.to_act[0]
    refused(g, seat, text)


@pytest.mark.parametrize("action", [42, None, ["getup", "7:00"], b"getup 7:00", 7.0])
def test_non_text_action_is_refused(action):
    """An action is notation text or an Action."""
    g = game(3, phase="getup")
    refused(g, 0, action)


@pytest.mark.parametrize("action", [affresco.Action("getup", (5,)), affresco.Action("plan", None),
                                    affresco.Action(5), affresco.Action("getup", "7:00"),
                                    affresco.Action("getup", ("7:00", None)), affresco.Action("getup", ["7:00"])])
def test_hand_built_action_with_non_text_arguments_is_refused(action):
    """Issue #15 item 10: an Action is a kind and a tuple of text arguments; anything else is an
    IllegalAction (not a TypeError), the state unchanged."""
    g = game(3, phase="getup")
    msg = refused(g, 0, action)
    assert "tuple of text arguments" in msg


def test_getup_with_an_extra_word_names_the_form_not_a_taken_space():
    """Issue #15 item 14: 'getup 5:00 x' with 5:00 free is refused for its extra word, not as
    'the 5:00 get-up space is taken'; a space really taken is named as taken."""
    g = game(3, phase="getup")
    msg = refused(g, 0, "getup 5:00 x")
    assert "taken" not in msg and "'getup' takes 1 word" in msg
    g.apply(0, "getup 5:00")
    assert "the 5:00 get-up space is taken" in refused(g, 1, "getup 5:00")
    assert "is not a get-up time" in refused(g, 1, "getup 4:00")


def test_action_object_is_accepted():
    """The API takes an Action as well as its notation."""
    g = game(3, phase="getup")
    g.apply(0, affresco.Action("getup", ("7:00",)))
    assert g.state.getup[0] >= 0


def test_actions_after_the_game_is_over_are_refused():
    """'End of the game': no action after final scoring."""
    g = game(3, final=True, side=2)
    plan_all(g, "0-0-0-0-0", "0-0-0-0-0", "0-0-0-0-0")
    assert g.is_over
    for seat in range(3):
        refused(g, seat, "getup 7:00")
        refused(g, seat, "pass")
        assert g.legal_actions(seat) == []


def candidates():
    segs = [c + r for c in "ABCDE" for r in "12345"]
    out = ["pass", "studio", "theater", "track ahead", "track behind"]
    out += [f"restore {s}" for s in segs] + [f"restore B2 bishop {s}" for s in segs]
    out += [f"altar {a}{b}{c}" for a in "RYBOGP" for b in "RYBOGP" for c in "RYBOGP"]
    out += [f"blend {p}" for p in "RYBOGP"]
    out += [f"close {b}" for b in ("I", "II", "III", "IV")]
    out += [f"buy {b} {t}" for b in ("I", "II", "III") for t in ("YYY", "RR", "BB", "RRR", "YB", "O", "G")]
    return out


def test_every_non_legal_action_is_refused_and_every_legal_one_accepted():
    """legal_actions is exact: each listed action is accepted (on a clone, also as notation);
    every other candidate action is refused with the state unchanged."""
    g = game(3, seats=[dict(paints="RRYYBBOGP", getup="7:00")], fresco={"B2": "3:RB", "C4": "5:OY"})
    plan_all(g, "1-1-1-1-1", "0-0-0-0-0", "0-0-0-0-0")
    steps = 0
    while not g.is_over and g.round == 1:
        seat = g.to_act[0]
        acts = g.legal_actions(seat)
        assert acts
        listed = {str(a) for a in acts}
        for a in acts:
            c = g.clone()
            c.apply(seat, a)
            c2 = g.clone()
            c2.apply(seat, str(a))           # the notation round-trips
            assert c.to_json(pretty=False) == c2.to_json(pretty=False)
        for text in candidates():
            if str(affresco.parse(text)) not in listed:
                refused(g, seat, text)
        g.apply(seat, acts[-1])
        steps += 1
    assert steps >= 3


# -------------------------------------------------------------------- saved positions
def mutated(fn):
    pos = position(3)
    fn(pos)
    return json.dumps(pos)


def _set(path, value):
    def fn(pos):
        obj = pos
        for k in path[:-1]:
            obj = obj[k]
        obj[path[-1]] = value
    return fn


BAD_POSITIONS = {
    "players missing": lambda p: p.pop("players"),
    "five players": _set(["players"], ["a", "b", "c", "d", "e"]),
    "duplicate names": _set(["players"], ["a", "a", "b"]),
    "fresco 4 rows": lambda p: p["fresco"].pop(),
    "fresco row of 6": lambda p: p["fresco"][0].append(None),
    "tile text": lambda p: p["fresco"][0].__setitem__(0, "three:YY"),
    "tile paint": lambda p: p["fresco"][0].__setitem__(0, "3:XX"),
    "bishop F9": _set(["bishop"], "F9"),
    "phase": _set(["phase"], "lunch"),
    "figures count": lambda p: p["figures"].pop(),
    "track S5 with 3 players": lambda p: p["figures"][0].__setitem__("track", "S5"),
    "track 0": lambda p: p["figures"][0].__setitem__("track", 0),
    "same track space": lambda p: [f.__setitem__("track", 4) for f in p["figures"][:2]],
    "same get-up": lambda p: [f.__setitem__("getup", "7:00") for f in p["figures"][:2]],
    "get-up time": lambda p: p["figures"][0].__setitem__("getup", "10:30"),
    "mood 7": lambda p: p["figures"][0].__setitem__("mood", 7),
    "mood -1": lambda p: p["figures"][0].__setitem__("mood", -1),
    "neutral and aside": lambda p: p["figures"][0].update(neutral_apprentice=True, apprentice_set_aside=True),
    "plan too big": lambda p: p["figures"][0].__setitem__("plan", [2, 2, 2, 0, 0]),
    "plan column 4": lambda p: p["figures"][0].__setitem__("plan", [4, 0, 0, 0, 0]),
    "plan 4 columns": lambda p: p["figures"][0].__setitem__("plan", [1, 1, 1, 1]),
    "paints": lambda p: p["figures"][0].__setitem__("paints", "RXB"),
    "thalers text": lambda p: p["figures"][0].__setitem__("thalers", "12"),
    "4 booths with 3 players": lambda p: p["market"]["booths"].append(["YY"]),
    "booth tile": lambda p: p["market"]["booths"][0].append("XYZ"),
    "format": _set(["format"], "other/9"),
    "figure not an object": lambda p: p["figures"].__setitem__(0, "P0"),
    "planning without get-up time": lambda p: p["figures"][1].__setitem__("getup", None),
    "visits without plans": _set(["phase"], "visits"),
    "leonardo in a 3-player game": lambda p: p["figures"].append({"name": "Leonardo", "track": "S3"}),
    "history seat 3 with 3 players": _set(["history"], [[3, "getup 7:00"]]),
    "history seat true": _set(["history"], [[True, "getup 7:00"]]),
    "setup history_offset text": _set(["setup"], {"position": {}, "history_offset": "2"}),
}


@pytest.mark.parametrize("name", sorted(BAD_POSITIONS))
def test_bad_positions_are_refused_with_state_error(name):
    """Hand-written positions are validated: StateError naming the bad field."""
    text = mutated(BAD_POSITIONS[name])
    with pytest.raises(affresco.StateError) as info:
        affresco.Game.from_json(text)
    assert str(info.value).strip()


@pytest.mark.parametrize("text", ["not json", "", "[]", "42", "null", '"text"', "{}",
                                  "[" * 100_000 + "]" * 100_000, '{"players": ' + "[" * 100_000 + "]" * 100_000 + "}"])
def test_unreadable_json_is_refused(text):
    """A saved game must be a JSON object of the state format."""
    with pytest.raises(affresco.StateError):
        affresco.Game.from_json(text)


@pytest.mark.parametrize("kind, field, value", [
    ("score", "sources", None), ("score", "sources", [["tile", 3]]), ("score", "sources", {"tile": "3"}),
    ("score", "figure", None), ("score", "figure", 4), ("score", "figure", -1), ("track", "delta", "1"),
    ("track", "figure", 9)])
def test_a_log_event_the_engine_reads_is_checked_on_load(kind, field, value):
    """The score and track events give VP by source (docs/events.md): a damaged one is refused
    with the log entry named, not left to break views later."""
    for seed in range(100):     # a random game with such an event (a track event is rare)
        g, rng = affresco.new_game(4, seed=seed), random.Random(seed)
        while not g.is_over and not any(e["kind"] == kind for e in g.events()):
            seat = g.to_act[0]
            g.apply(seat, rng.choice(g.legal_actions(seat)))
        if not g.is_over:
            break
    data = json.loads(g.to_json())
    i = next(i for i, e in enumerate(data["log"]) if e[2]["kind"] == kind)
    data["log"][i][2][field] = value
    with pytest.raises(affresco.StateError, match=rf"log\[{i}\]\.{field}"):
        affresco.Game.from_json(json.dumps(data))


def _played(players: int = 3, actions: int = 40) -> dict:
    """A random game's saved state after some actions (its log and history have entries)."""
    g, rng = affresco.new_game(players, seed=1), random.Random(1)
    for _ in range(actions):
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    return json.loads(g.to_json(pretty=False))


@pytest.mark.parametrize("entry", [
    None, "text", [], [1, None], [1, None, {"kind": "x"}, 0], [True, None, {"kind": "x"}], [1.0, None, {"kind": "x"}],
    ["1", None, {"kind": "x"}], [1, 3, {"kind": "x"}], [1, -1, {"kind": "x"}], [1, True, {"kind": "x"}],
    [1, 0.0, {"kind": "x"}], [1, None, "text"], [1, None, None], [1, None, {}], [1, None, {"kind": 3}],
    [1, None, ["kind", "x"]], [1, 0, {"kind": "score", "figure": 0, "sources": {"tile": True}}],
    [1, 0, {"kind": "track", "figure": 0, "delta": False}], [1, 0, {"kind": "track", "figure": True, "delta": 1}]])
def test_a_damaged_log_entry_is_refused_and_named(entry):
    """Each log entry is ``[round, seat 0..n-1 or null, event]``, an event an object with a
    string ``kind`` (docs/state-format.md; JSON true/false are not numbers): any other is
    refused with its place named."""
    data = _played()
    i = len(data["log"]) // 2
    data["log"][i] = entry
    with pytest.raises(affresco.StateError, match=rf"log\[{i}\]"):
        affresco.Game.from_dict(data)
    with pytest.raises(affresco.StateError, match=rf"log\[{i}\]"):
        affresco.Game.from_json(json.dumps(data))


@pytest.mark.parametrize("entry", [None, [], [0], [0, "pass", 1], [3, "pass"], [-1, "pass"], [True, "pass"],
                                   [0.0, "pass"], ["0", "pass"], [0, None], [0, ["pass"]]])
def test_a_damaged_history_entry_is_refused_and_named(entry):
    """Each history entry is ``[seat 0..n-1, notation]``: any other is refused with its place named."""
    data = _played()
    i = len(data["history"]) // 2
    data["history"][i] = entry
    with pytest.raises(affresco.StateError, match=rf"history\[{i}\]"):
        affresco.Game.from_dict(data)


def test_a_saved_log_and_history_load_as_saved():
    """The log's entries and the history load unchanged: the loaded game saves the same text,
    and its events are the saved ones."""
    data = _played()
    g = affresco.Game.from_dict(data)
    assert json.loads(g.to_json(pretty=False)) == data
    assert [[e["round"], {k: v for k, v in e.items() if k != "round"}] for e in g.events()] == \
        [[r, e] for r, who, e in data["log"] if who is None]


@pytest.mark.parametrize("players, names", [(2, ["Leonardo", "P1"]), (3, [" ", "P1", "P2"]), (3, ["", "P1", "P2"])])
def test_a_saved_state_names_its_seats_as_new_game_must(players, names):
    """A 2-player state whose seat is called Leonardo (two figures of one name: views and
    determinizations find figures by name) or a blank name loaded, though new_game refuses both."""
    pos = position(players)
    pos["players"] = names
    for figure, name in zip(pos["figures"], names):
        figure["name"] = name
    with pytest.raises(affresco.StateError, match="players: "):
        load(pos)
    with pytest.raises(affresco.ConfigError):
        affresco.new_game(names)


def test_bad_leonardo_controller():
    """R13: the controller is seat 0 or 1."""
    pos = position(2)
    pos["leonardo"]["controller"] = 2
    with pytest.raises(affresco.StateError):
        load(pos)


@pytest.mark.parametrize("seat", [3, -1, "0", 1.0])
def test_view_of_a_bad_seat_is_refused(seat):
    """view(seat): seats are 0..n-1 (None for a spectator)."""
    g = game(3)
    with pytest.raises(affresco.FrescoError):
        g.view(seat)


def test_replay_after_buying_the_yr_tile():
    """record() + replay(): a game in which the reference tile YR was bought replays (the
    record holds the purchase as notation). Fails with the notation bug of
    test_rules_market.test_every_market_tile_can_be_bought_by_notation."""
    g = game(3, seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")],
             booths=[["YR", "RRR", "BBB"], ["YYY", "RB", "O"], ["BB", "YY", "G"]])
    plan_all(g, "1-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
    buy = next(a for a in g.legal_actions(0) if a.kind == "buy" and len(a.args) == 2 and sorted(a.args[1]) == sorted("YR"))
    g.apply(0, buy)                                 # the Action object is accepted
    assert affresco.replay(g.record()).to_json() == g.to_json()


def test_save_and_load_round_trip():
    """A saved game loads back to the same state."""
    g = game(3, seats=[dict(paints="RYBO", thalers=7, mood=1, neutral=True, tiles=["3:YY"], track=4)])
    g2 = affresco.Game.from_json(g.to_json())
    assert g2.to_json() == g.to_json()


def test_clone_is_independent():
    """clone(): acting on the copy leaves the original alone."""
    g = game(3, phase="getup")
    before = g.to_json()
    c = g.clone()
    c.apply(0, "getup 7:00")
    assert g.to_json() == before
    c2 = copy.deepcopy(g)
    c2.apply(0, "getup 8:00")
    assert g.to_json() == before


# ------------------------------------------------------------------------- new_game
@pytest.mark.parametrize("kwargs", [
    dict(players=1), dict(players=5), dict(players=0), dict(players="three"), dict(players=True),
    dict(players=["solo"]), dict(players=["a", "a"]), dict(players=["a", "b", "c", "d", "e"]),
    dict(players=3, modules=("no_such_module",)), dict(players=3, seed=1.5),
    dict(players=3, seed="\ud800"), dict(players=["Ann", "Leonardo"]),
    dict(players=3, modules=None), dict(players=3, modules=5), dict(players=3, modules=[["bells"]]),
    dict(players=3, options=["max_rounds", 3]), dict(players=3, options=[1, 2]),
    dict(players=3, seed=10**4000), dict(players=3, seed=-10**5000),
])
def test_bad_new_game_arguments(kwargs):
    """new_game: 2-4 players (rulebook: 'for 2-4 players'), known modules (a list of names),
    options as a mapping, int/str seed (an int Python writes as text, a string UTF-8 can write:
    chance formats and hashes it)."""
    with pytest.raises(affresco.ConfigError):
        affresco.new_game(**kwargs)


@pytest.mark.parametrize("components", [5, ["base.toml"], b"base.toml"])
def test_components_that_are_neither_a_path_nor_a_table_are_refused(components):
    with pytest.raises(affresco.ComponentError, match="path or a parsed table"):
        affresco.new_game(3, components=components)


def test_an_integer_seed_of_4000_digits_plays_saves_and_loads():
    g = affresco.new_game(3, seed=10**4000 - 1)
    g.apply(g.to_act[0], g.legal_actions(g.to_act[0])[0])
    assert affresco.Game.from_json(g.to_json()).to_json() == g.to_json()


@pytest.mark.parametrize("record", ["nope", {}, {"format": "affresco-record/1"},
                                    {"format": "affresco-record/1", "setup": {"players": 3, "seed": 1},
                                     "actions": [[0, "getup 25:00"]]},
                                    {"format": "affresco-record/2", "setup": {"position": "x"}, "actions": []},
                                    {"format": "affresco-record/2", "setup": {"position": [1]}, "actions": []},
                                    {"format": "affresco-record/2", "setup": {"players": 3, "seed": 1, "modules": 5},
                                     "actions": []},
                                    {"format": "affresco-record/2", "setup": {"players": 3, "seed": 1, "options": [1]},
                                     "actions": []},
                                    "[" * 100_000 + "]" * 100_000])
def test_bad_records_are_refused(record):
    """replay(): a record must be well formed and every action legal."""
    with pytest.raises(affresco.StateError):
        affresco.replay(record)


@pytest.mark.parametrize("upto", [-1, "3", 1.0, True])
def test_replay_upto_is_a_number_of_actions(upto):
    """upto=-1 would otherwise replay all but the last action, silently."""
    with pytest.raises(affresco.StateError, match="upto"):
        affresco.replay(affresco.new_game(3, seed=1).record(), upto=upto)


def test_replay_reproduces_the_game():
    """record() + replay(): the same state."""
    g = affresco.new_game(3, seed=5)
    for _ in range(3):
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert affresco.replay(g.record()).to_json() == g.to_json()
    h = game(3, phase="getup")
    h.apply(0, "getup 7:00")
    assert affresco.replay(h.record()).to_json() == h.to_json()
