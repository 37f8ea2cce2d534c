"""Bots on the medico's lazy plans (issue #12: 'the heuristic bot values every new decision';
issue #16: the heuristic's speed 'at the same choices'): a bot given the lazy
:class:`affresco.rules.PlanVariants` makes only the plans it values, and chooses exactly what
it chooses from the full list of the same plans."""
from __future__ import annotations


import pytest

from affresco.bots import make_bot
from positions import lazy_planning

ALL = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")


@pytest.mark.parametrize("spec", ["heuristic", "search:simulations=12"])
@pytest.mark.parametrize("players,modules", [(2, ("medico",)), (3, ALL)])
def test_a_bot_chooses_the_same_plan_from_the_lazy_plans_as_from_the_full_list(spec, players, modules):
    positions = 0
    for g, seat, legal in lazy_planning(players, modules, seed=7):
        view = g.view(seat)
        made_before = legal.made     # the memo may hand out a sequence made at an earlier position
        lazy = make_bot(spec, seed=3).choose(view, legal, seat)
        assert legal.made == made_before     # the bot did not make every plan
        full = make_bot(spec, seed=3).choose(view, [legal[i] for i in range(len(legal))], seat)   # a list
        assert lazy == full and lazy in legal
        positions += 1
        if positions == 4:
            break
    assert positions >= 2
