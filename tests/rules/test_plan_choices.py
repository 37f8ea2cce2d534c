"""A plan chosen a step at a time (``Game.plan_choices``, rules/plan_choices.py; issue #14's
encoding 2): the counts, then each module word.  'Each player secretly places apprentices
on the action sheet' (R1): the choices reach exactly the legal plans, each once, and every
choice offered leads on to a legal plan."""
from __future__ import annotations

import random
from itertools import combinations

import pytest

import affresco
from affresco.errors import IllegalAction
from positions import lazy_planning

ALL = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour", "bells", "wall_fresco", "medico")


def _walk(g, seat, prefix=()):
    """Every plan the choices reach (depth first)."""
    last = len(prefix) + 1 == len(g.plan_steps())
    for c in g.plan_choices(seat, prefix):
        if last:
            yield g.plan_of(prefix + (c,))
        else:
            yield from _walk(g, seat, prefix + (c,))


def _planning(players, modules, seed, rounds, most):
    """Up to ``most`` planning decisions of a seeded random game, from round ``rounds`` on."""
    rng = random.Random(seed)
    g = affresco.new_game(players, modules, seed=seed)
    found = 0
    while not g.is_over and found < most:
        seat = g.to_act[0]
        legal = g.legal_actions(seat)
        if g.phase == "plan" and g.round >= rounds and all(a.kind == "plan" for a in legal):
            yield g, seat, legal
            found += 1
        g.apply(seat, rng.choice(legal))


@pytest.mark.parametrize("players,modules", [
    (2, ()), (4, ()), (3, ("bells",)), (2, ("wall_fresco",)), (4, ("bells", "wall_fresco")),
    (2, ("medico",)), (3, ("wall_fresco", "medico")),
])
def test_the_choices_reach_exactly_the_legal_plans_each_once(players, modules):
    """With the audience tile on an empty column, the wall tile and its apprentice, the ill
    apprentices (only where they may go, at least the ones the healthy cannot cover) and the
    medico tile: the plans the choices reach are the legal plans, none twice, and every
    choice offered leads on (no dead end)."""
    for g, seat, legal in _planning(players, modules, seed=5, rounds=3, most=3):
        reached = list(_walk(g, seat))
        assert len(reached) == len(set(reached)) and set(reached) == set(legal)


def test_all_eight_modules_with_ill_apprentices_reach_the_legal_plans():
    """All eight modules, the medico's plans with ill apprentices (a lazy PlanVariants)."""
    checked = 0
    for g, seat, legal in lazy_planning(3, ALL, seed=3, rounds=6):
        if len(legal) > 30000 or not any(g.state.mods["medico"].black):
            continue
        reached = list(_walk(g, seat))
        assert len(reached) == len(set(reached)) == len(legal) and all(p in legal for p in reached)
        checked += 1
        if checked == 2:
            break
    assert checked == 2


@pytest.mark.parametrize("players,modules", [(2, ("bells",)), (4, ALL)])
def test_a_plan_splits_into_its_choices_and_joins_again(players, modules):
    for g, seat, legal in _planning(players, modules, seed=2, rounds=1, most=2):
        for plan in random.Random(len(legal)).sample(list(legal), min(50, len(legal))):
            choices = g.plan_as_choices(plan)
            assert len(choices) == len(g.plan_steps()) and g.plan_of(choices) == plan
            for k in range(len(choices)):        # each choice is offered after those before it
                assert choices[k] in g.plan_choices(seat, choices[:k])


def test_the_audience_tile_is_offered_only_on_an_empty_column():
    """'no apprentice may go to that column' (bells): after counts '1-0-2-0-1' the audience
    tile's choices are none, the cathedral and the workshop."""
    g = next(g for g, seat, legal in _planning(2, ("bells",), seed=1, rounds=1, most=1))
    seat = g.to_act[0]
    assert g.plan_steps() == ("counts", "audience")
    assert ("1-0-2-0-1",) in g.plan_choices(seat)
    assert g.plan_choices(seat, [("1-0-2-0-1",)]) == ((), ("audience", "cathedral"), ("audience", "workshop"))


def test_the_wall_tile_needs_an_apprentice_left():
    """'Only one apprentice can be placed on this tile', and it is one of the player's: with
    every apprentice on the sheet, the wall tile is not offered."""
    for g, seat, legal in _planning(2, ("wall_fresco",), seed=4, rounds=1, most=2):
        have = g.view(seat)["figures"][seat]["apprentices"]
        full = next(c for c in g.plan_choices(seat) if sum(g.plan_choice_counts(c)) == have)
        assert g.plan_choices(seat, [full]) == ((),)
        some = next(c for c in g.plan_choices(seat) if sum(g.plan_choice_counts(c)) == have - 1)
        assert len(g.plan_choices(seat, [some])) > 1


def test_a_choice_hands_over_its_apprentices_per_column_as_numbers():
    """The counts step's choice and the medico's ill word hold apprentices per column (in
    column order); no other choice does."""
    counts = affresco.Game.plan_choice_counts
    assert counts(("1-2-0-1-1",)) == (1, 2, 0, 1, 1)
    assert counts(("ill", "0-1-0-0-0")) == (0, 1, 0, 0, 0)
    assert [counts(c) for c in ((), ("audience", "studio"), ("wall", "market"), ("medico",))] == [None] * 4


@pytest.mark.parametrize("players", [2, 4])
def test_the_counts_of_every_choice_agree_with_the_plan_it_makes(players):
    """A step's choices all hold counts (``counts``, ``ill``) or none do; a plan's counts are
    its apprentices per column on the action sheet and its ill ones a part of them."""
    ill = 0
    for g, seat, legal in lazy_planning(players, ALL, seed=5, rounds=6):
        steps = g.plan_steps()
        rng = random.Random(len(legal))
        for plan in (legal[rng.randrange(len(legal))] for _ in range(20)):
            choices = g.plan_as_choices(plan)
            sheet = g.plan_choice_counts(choices[0])
            assert sheet is not None and len(sheet) == 5 and sum(sheet) <= g.view(seat)["figures"][seat]["apprentices"]
            for step, choice in zip(steps[1:], choices[1:]):
                held = g.plan_choice_counts(choice)
                if step != "ill" or not choice:
                    assert held is None
                else:
                    assert held is not None and all(0 <= i <= k for i, k in zip(held, sheet)) and sum(held) >= 1
                    ill += 1
        if ill >= 20:
            break
    assert ill >= 20


def _anew(g, seat, prefix):
    """The choices after ``prefix`` made from scratch: from the position's legal plans as the
    plan hooks make them now, with nothing kept (no situation's, no kind's, no column list's)."""
    from affresco.rules import plan_choices, planning
    plan_choices._VARIANTS.clear()
    plan_choices._columns.cache_clear()
    return plan_choices._choices(plan_choices._Situation(g.plan_steps()), planning.options(g.state, seat),
                                 tuple(prefix))


def test_a_kinds_word_choices_are_kept_per_question_not_per_word():
    """A module word's choices among one kind of variants (kept per variants object) are those
    of the variants that agree with the words chosen before: asked with other choices before,
    the answer kept for the first question is not given again (the medico tile only with the
    ill word it may go with)."""
    from affresco.rules.plan_choices import _variant_choices
    one, two = ("ill", "1-0-0-0-0"), ("ill", "0-1-0-0-0")
    variants = ({"ill": one}, {"ill": one, "medico": ("medico",)}, {"ill": two})
    assert _variant_choices(variants, "ill", ()) == (one, two)
    assert _variant_choices(variants, "medico", (("ill", one),)) == ((), ("medico",))
    assert _variant_choices(variants, "medico", (("ill", two),)) == ((),)


@pytest.mark.parametrize("players", [2, 3, 4])
def test_the_choices_kept_between_steps_are_those_made_anew_in_every_position(players):
    """The choices a plan's steps keep (per position, seat and situation) are those made from
    scratch at every prefix reached, in random games of sampled module sets (of all 256),
    with the seats' drafts interleaved, on a clone and on the game saved and loaded, and in
    every position after: nothing kept survives a change of the position."""
    rng = random.Random(players)
    sets = [c for k in range(len(ALL) + 1) for c in combinations(ALL, k)]
    checked = 0
    for modules in rng.sample(sets, 16):
        g = affresco.new_game(players, modules, seed=rng.randrange(10**6))
        while not g.is_over and g.round <= 6:
            seat = g.to_act[0]
            if g.phase == "plan" and g.state.asks == () and g.state.pending is None:
                drafts = {s: () for s in g.to_act}
                for _ in g.plan_steps():
                    for s, draft in drafts.items():
                        offered = g.plan_choices(s, draft)
                        assert offered == _anew(g, s, draft), (modules, s, draft)
                        drafts[s] = draft + (rng.choice(offered),)
                        checked += 1
                for other in (g.clone(), affresco.Game.from_json(g.to_json())):
                    s, draft = seat, drafts[seat][:rng.randrange(len(drafts[seat]))]
                    assert other.plan_choices(s, draft) == _anew(other, s, draft)
                g.apply(seat, g.plan_of(drafts[seat]))
                continue
            g.apply(seat, rng.choice(g.legal_actions(seat)))
    assert checked >= 100


def test_a_choice_that_is_no_tuple_is_refused_as_not_offered():
    """A choice given as a list (as JSON reads it) is not one of the choices given: refused
    with the choices of its step, like any other."""
    g = next(g for g, _, _ in _planning(2, ("bells", "wall_fresco"), seed=2, rounds=1, most=1))
    seat = g.to_act[0]
    first = g.plan_choices(seat)[0]
    with pytest.raises(IllegalAction, match=r"\['x'\] is not a choice of step 1 \(audience\) after"):
        g.plan_choices(seat, [first, ["x"]])
    with pytest.raises(IllegalAction, match=r"is not a choice of step 0 \(counts\)"):
        g.plan_choices(seat, [list(first)])


def test_choices_are_refused_when_not_planning_or_not_offered():
    g = affresco.new_game(2, ("bells",), seed=1)
    seat = g.to_act[0]
    if g.phase != "plan":
        with pytest.raises(IllegalAction, match="not planning"):
            g.plan_choices(seat)
        while g.phase != "plan":
            seat = g.to_act[0]
            g.apply(seat, g.legal_actions(seat)[0])
    seat = g.to_act[0]
    with pytest.raises(IllegalAction, match="not a choice"):
        g.plan_choices(seat, [("3-3-3-3-3",)])
    with pytest.raises(IllegalAction, match="takes 2 choices"):
        g.plan_choices(seat, [("0-0-0-0-0",), ()])
    with pytest.raises(IllegalAction, match="not a plan word"):
        g.plan_as_choices("plan 0-0-0-0-0 wall studio")


def test_a_plan_is_read_as_its_counts_and_its_module_words():
    """``read_plan``: the apprentices per column of the action sheet, then each module word
    with its arguments; anything that is not a plan reads as None."""
    from affresco.rules import read_plan
    counts, words = read_plan(affresco.parse("plan 1-2-0-1-1 audience studio ill 0-1-0-0-0 medico"))
    assert counts == (1, 2, 0, 1, 1)
    assert dict(words) == {"audience": ("studio",), "ill": ("0-1-0-0-0",), "medico": ()}
    assert read_plan(affresco.parse("plan 0-0-0-0-3")) == ((0, 0, 0, 0, 3), {})
    assert read_plan(affresco.parse("pass")) is None
