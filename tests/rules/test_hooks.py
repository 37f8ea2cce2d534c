"""Modules plug into the round through named hooks (rules/hooks.py), not through ifs."""
import random
import re

import pytest

import affresco
from affresco.rules.hooks import MODULES, Module


class Tithe(Module):
    """A test module touching several hook points."""

    name = "tithe"

    def setup(self, state, rng):
        state.mods["tithe"] = 0

    def after_getup(self, state, fig):
        state.mods["tithe"] += 1

    def income(self, state, seat):
        return 100

    def is_final_round(self, state):
        return state.round >= 2

    def view(self, state, seat, out):
        out["tithe"] = state.mods["tithe"]

    def theater_steps(self, state, fig, per):
        return 1


@pytest.fixture
def tithe():
    MODULES["tithe"] = Tithe
    yield
    del MODULES["tithe"]


def play_out(g, seed=0):
    rng = random.Random(seed)
    while not g.is_over:
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))


def test_hooks_are_called_at_their_points(tithe):
    g = affresco.new_game(3, modules=("tithe",), seed=5)
    assert g.view(0)["tithe"] == 0
    for _ in range(3):
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    assert g.view(None)["tithe"] == 3          # after_getup, once per figure
    play_out(g)
    assert g.round == 2                        # the module's end condition made round 2 final
    assert g.state.side2
    # income after round 1 included the module's 100 Thalers
    incomes = [int(m.group(1)) for line in g.view(None)["log"] if (m := re.search(r"receives (\d+) Thalers", line))]
    assert len(incomes) == 3 and all(i >= 100 for i in incomes)


def test_unknown_module_and_option_are_refused():
    with pytest.raises(affresco.ConfigError, match="unknown module 'nonesuch'"):
        affresco.new_game(3, modules=("nonesuch",))
    with pytest.raises(affresco.ConfigError, match="unknown rule option"):
        affresco.new_game(3, options={"house_rule": True})


@pytest.mark.parametrize("players", [1, 5, 0, True, "four", ["a"], ["a", "a"], ["", "b"], ["Leonardo", "b"]])
def test_bad_player_arguments(players):
    with pytest.raises(affresco.ConfigError):
        affresco.new_game(players)


def test_bad_seed():
    with pytest.raises(affresco.ConfigError):
        affresco.new_game(3, seed=1.5)


def test_seed_is_chosen_and_kept_when_omitted():
    g = affresco.new_game(4)
    assert isinstance(g.seed, int)
    assert affresco.replay(g.record()).to_json() == g.to_json()
