"""The medico's plans as a lazy sequence (issue #12's speed): 'Every new decision is an action
... Refused actions change nothing and say what is legal' holds for the up to ~110,000 plans a
medico planning decision offers, which ``legal_actions`` gives as a read-only
:class:`affresco.rules.PlanVariants` that makes a plan only when asked."""
from __future__ import annotations

import pickle
import random

import pytest

import affresco
from affresco.errors import IllegalAction
from positions import lazy_planning

ALL = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")


@pytest.mark.parametrize("players,modules", [(2, ("medico",)), (4, ("medico",)), (3, ALL)])
def test_every_medico_plan_is_listed_once_in_order_and_indexable(players, modules):
    """Each plan with every way of naming its ill apprentices and with the medico tile (MD1):
    indexing, iterating, ``in`` and ``index`` agree, each plan appears once, and the sequence
    pickles as itself (made again from its parents in the other process)."""
    seen = 0
    for g, seat, legal in lazy_planning(players, modules, seed=11):
        made = list(legal)
        assert len(made) == len(legal) == len(set(made)) > 0
        probes = sorted({0, len(made) - 1, *random.Random(len(made)).sample(range(len(made)), min(200, len(made)))})
        for i in probes:
            assert legal[i] == made[i] and legal[i - len(made)] == made[i]
            assert made[i] in legal and legal.index(made[i]) == i
        assert legal[1:4] == made[1:4]
        again = pickle.loads(pickle.dumps(legal))      # sent to another process: made again there
        assert type(again) is type(legal) and again == tuple(made) == legal
        assert g.legal_actions(seat) is legal          # the same situation: the same object
        seen += 1
    assert seen >= 3


def test_the_lazy_plans_are_exactly_the_plans_the_rules_allow():
    """Every plan of the set-up's action space is in ``legal_actions`` exactly when applying it
    is accepted (the rules' own refusal), at a medico planning decision with ill apprentices:
    a sample of the plans not listed is refused, a sample of the listed ones accepted."""
    for g, seat, legal in lazy_planning(2, ("medico",), seed=5, rounds=9):
        if not any("ill" in a.args for a in legal[-50:]):
            continue
        space = [a for a in g.action_space() if a.kind == "plan"]
        listed = [a for a in space if a in legal]
        assert len(listed) == len(legal) and set(listed) == set(legal)
        unlisted = [a for a in space if a not in legal]
        for a in random.Random(0).sample(unlisted, min(3000, len(unlisted))):
            with pytest.raises(IllegalAction):
                g.apply(seat, a)           # refused: nothing changes
        for a in random.Random(1).sample(listed, min(300, len(listed))):
            g.clone().apply(seat, a)
        return
    pytest.fail("no planning decision with an ill apprentice was reached")


def test_a_plan_not_offered_is_refused_and_not_in_the_sequence():
    """'Refused actions change nothing and say what is legal': more ill apprentices than the
    column holds is neither listed nor accepted."""
    for g, seat, legal in lazy_planning(2, ("medico",), seed=5, rounds=9):
        plan = next((a for a in legal if "ill" in a.args), None)
        if plan is None:
            continue
        words = list(plan.args)
        counts = words[0].split("-")
        ill = words[words.index("ill") + 1].split("-")
        col = next(i for i, x in enumerate(ill) if x != "0")
        ill[col] = str(int(counts[col]) + 1)
        words[words.index("ill") + 1] = "-".join(ill)
        bad = affresco.Action("plan", tuple(words))
        assert bad not in legal
        before = g.to_json()
        with pytest.raises(IllegalAction):
            g.apply(seat, bad)
        assert g.to_json() == before
        return
    pytest.fail("no planning decision with an ill apprentice was reached")
