"""House rule ``max_rounds`` (issue #15 item 2, engine part): games cannot run forever, and the
saved state of a long game grows linearly with its length."""
from __future__ import annotations

import json
import random

import pytest

import affresco
from affresco import ConfigError, Game, StateError


def stall(g: Game, rounds: int | None = None) -> None:
    """The stalled game of issue #15: every seat takes the first free get-up space and plans
    nothing, round after round (to the end, or for ``rounds`` rounds)."""
    start = g.round
    while not g.is_over and (rounds is None or g.round < start + rounds):
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        plan = [a for a in legal if str(a) == "plan 0-0-0-0-0"]
        g.apply(seat, plan[0] if plan else legal[0])


@pytest.mark.parametrize("players", [3, 4])
def test_without_the_house_rule_a_stalled_game_does_not_end(players):
    """(With 2 players Leonardo restores a tile every round, so the fresco ends the game.)"""
    g = affresco.new_game(players, seed=1)
    stall(g, 30)
    assert not g.is_over and g.round == 31 and g.view(None)["house_rules"] == {}


@pytest.mark.parametrize("players", [2, 3, 4])
def test_max_rounds_makes_that_round_the_final_round(players):
    """House rule: the round numbered max_rounds is the final round (R11: side 2, the second
    cathedral instead of the theater), then final scoring (R12) ends the game."""
    g = affresco.new_game(players, seed=2, options={"max_rounds": 4})
    assert g.view(0)["house_rules"] == {"max_rounds": 4}
    stall(g, 3)
    assert g.round == 4 and not g.is_over
    v = g.view(None)
    assert v["final_round"] is True and v["action_sheet_side"] == 2
    assert v["columns"] == ["market", "cathedral", "studio", "workshop", "cathedral"]
    stall(g)
    assert g.is_over and g.round == 4
    # final scoring: 12 Thalers = 6 VP each, always forward on an occupied space (R8)
    assert sorted(g.scores()[:players]) == list(range(6, 6 + players))


def test_max_rounds_one_is_a_one_round_game():
    g = affresco.new_game(3, seed=3, options={"max_rounds": 1})
    assert g.view(None)["final_round"] is True
    stall(g)
    assert g.is_over and g.round == 1


def test_max_rounds_a_visits_position_without_the_final_flag_is_the_final_round():
    """House rule max_rounds (rules notes N19): the round number does not change during a
    round, so a position in phase visits of round max_rounds, written without ``final_round``
    and ``action_sheet_side``, is the final round (side 2) and the game ends after it."""
    from positions import load, position
    p = position(3, phase="visits", round=4,
                 seats=[dict(plan=[0, 0, 0, 0, 0]), dict(plan=[0, 0, 0, 0, 0]), dict(plan=[0, 0, 0, 0, 1])])
    p["options"] = {"max_rounds": 4}
    del p["final_round"], p["action_sheet_side"]
    g = load(p)
    v = g.view(None)
    assert v["final_round"] is True and v["action_sheet_side"] == 2
    while not g.is_over:
        g.apply(g.to_act[0], "pass")
    assert g.round == 4


def test_the_fresco_still_ends_the_game_first():
    """R11 is unchanged: with 6 tiles or fewer the final round comes whatever max_rounds says."""
    g = affresco.new_game(3, seed=4, options={"max_rounds": 1000})
    rng = random.Random(4)
    while not g.is_over:
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        good = [a for a in legal if a.kind in ("restore", "buy", "blend", "studio")]
        g.apply(seat, rng.choice(good if good and rng.random() < 0.8 else legal))
    left = sum(t is not None for row in g.view(None)["fresco"] for t in row)
    assert g.round < 1000 and left <= 6


@pytest.mark.parametrize("value", [0, -1, True, 2.5, "10", None, [3]])
def test_bad_max_rounds_is_refused(value):
    with pytest.raises(ConfigError, match="max_rounds"):
        affresco.new_game(3, seed=1, options={"max_rounds": value})
    d = json.loads(affresco.new_game(3, seed=1).to_json())
    d["options"] = {"max_rounds": value}
    with pytest.raises(StateError, match="max_rounds"):
        Game.from_json(json.dumps(d))


def test_max_rounds_is_saved_loaded_and_replayed():
    g = affresco.new_game(3, seed=5, modules=["portraits"], options={"max_rounds": 3})
    stall(g, 1)
    loaded = Game.from_json(g.to_json())
    assert loaded.view(None)["house_rules"] == {"max_rounds": 3}
    again = affresco.replay(g.record())
    assert again.to_json() == g.to_json()
    stall(loaded)
    assert loaded.is_over and loaded.round == 3


def test_a_long_games_saved_state_grows_linearly():
    """Issue #15 item 2: `to_json` of the stalled game grows by the same amount for every 40
    rounds (history and log are lists, each action and event saved once)."""
    g = affresco.new_game(4, seed=6)
    sizes = []
    for _ in range(3):
        stall(g, 40)
        sizes.append(len(g.to_json(pretty=False)))
    first, second = sizes[1] - sizes[0], sizes[2] - sizes[1]
    assert 0.9 < second / first < 1.1, sizes
