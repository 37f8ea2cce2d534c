"""Rulebook phase 2 'Planning actions' and 'Performing actions' (R1, R4): secret and
simultaneous plans, the action sheet limits, visiting the locations in order."""
from __future__ import annotations

import json
from itertools import product

import pytest

import affresco

from positions import act, data, fig, game, legal, only_actor, paints, plan_all, position, thalers, tile_at  # noqa: E402


def test_planning_is_simultaneous():
    """'Planning actions' / R4: all players plan at the same time: every seat without a
    committed plan is to act."""
    g = game(3)
    assert g.to_act == (0, 1, 2)
    g.apply(1, "plan 0-0-1-0-0")
    assert g.to_act == (0, 2)
    g.apply(2, "plan 0-0-1-0-0")
    assert g.to_act == (0,)


def test_plans_are_secret_until_all_committed():
    """R4 / R22: a plan is private until every player has committed; then all are revealed
    ('they remove their small screens')."""
    g = game(3)
    g.apply(1, "plan 0-0-2-0-0")
    # others do not see it (only that a plan was committed)
    for viewer in (0, 2, None):
        other = g.view(viewer)["figures"][1]
        assert "plan" not in other
        assert other["plan_committed"] is True
    assert g.view(1)["figures"][1]["plan"] == [0, 0, 2, 0, 0]
    assert not any(e.get("plan") == "0-0-2-0-0" for e in g.view(0)["events"])
    g.apply(0, "plan 0-0-1-0-0")
    assert "plan" not in g.view(2)["figures"][0]
    g.apply(2, "plan 0-0-1-0-0")
    # revealed: everybody sees every plan
    for viewer in (0, 2, None):
        figs = g.view(viewer)["figures"]
        assert figs[1]["plan"] == [0, 0, 2, 0, 0]
        assert figs[0]["plan"] == [0, 0, 1, 0, 0]
        # the reveal tells every plan in the notation, in seat order
        told = [(e["figure"], e["plan"]) for e in g.view(viewer)["events"] if e["kind"] == "plan_revealed"]
        assert told == [(0, "0-0-1-0-0"), (1, "0-0-2-0-0"), (2, "0-0-1-0-0")]


def test_committed_plan_cannot_be_changed():
    """R4: a committed plan cannot be changed: a second plan is refused, state unchanged."""
    g = game(3)
    g.apply(0, "plan 1-1-1-1-1")
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "plan 0-0-0-0-0")
    assert g.to_json() == before
    assert g.legal_actions(0) == []


def test_at_most_three_apprentices_per_column():
    """R1: 5 columns of 3 spaces; only one apprentice per space."""
    g = game(3, phase="plan", seats=[dict(mood=0, neutral=True)])
    assert g.view(0)["figures"][0]["apprentices"] == 6
    for bad in ("plan 4-0-0-0-0", "plan 0-4-0-0-0", "plan 0-0-0-0-4", "plan 1-0-0-4-0"):
        with pytest.raises(affresco.IllegalAction):
            g.apply(0, bad)
    g.apply(0, "plan 3-3-0-0-0")


def test_no_more_apprentices_than_available():
    """'Planning actions': the player deploys his available apprentices (5; 6 with the
    neutral apprentice; 4 with one set aside)."""
    g = game(3, seats=[{}, dict(mood=5, aside=True), dict(mood=1, neutral=True)])
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "plan 2-2-2-0-0")
    with pytest.raises(affresco.IllegalAction):
        g.apply(1, "plan 1-1-1-1-1")
    with pytest.raises(affresco.IllegalAction):
        g.apply(2, "plan 3-3-1-0-0")
    g.apply(0, "plan 2-2-1-0-0")
    g.apply(1, "plan 1-1-1-1-0")
    g.apply(2, "plan 3-3-0-0-0")


@pytest.mark.parametrize("mood,apprentices", [(0, 6), (1, 6), (2, 5), (4, 5), (5, 4), (6, 4)])
def test_plus_one_spaces_six_actions_minus_one_spaces_four_in_a_position_without_the_flags(mood, apprentices):
    """'"+1" Spaces ... 1 additional action (thus having a total of 6 actions)'; '"-1" Spaces
    ... a total of only 4 actions during phase 2' (R3: decided right after the get-up choice).
    A position in phase plan that gives the mood but leaves out ``neutral_apprentice`` and
    ``apprentice_set_aside`` (docs/state-format.md) holds what its mood space gives."""
    pos = affresco_position(mood)
    g = affresco.Game.from_json(json.dumps(pos))
    assert g.view(0)["figures"][0]["apprentices"] == apprentices
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, spread(apprentices + 1))
    g.apply(0, spread(apprentices))


def test_they_may_use_this_apprentice_for_1_additional_action_a_visits_position_without_the_flag():
    """'If a player's master painter is occupying any of the two "+1" spaces they take the
    natural-colored apprentice ... (thus having a total of 6 actions)' (R3). A position in phase
    visits whose committed plan holds 6 apprentices, written without ``neutral_apprentice``,
    loads with the neutral apprentice taken (the plan shows it: the mood cannot, the theater
    may have moved the figure since; rules notes N21). Before, it was refused as a plan with
    more apprentices than the player has. Written as ``false``, the plan is refused."""
    pos = position(3, phase="visits", seats=[dict(mood=0, plan=[2, 2, 0, 1, 1], paints="YY"),
                                             dict(plan=[0, 0, 0, 0, 1]), dict(plan=[0, 0, 0, 0, 1])],
                   fresco={"A1": "3:YY"})
    with pytest.raises(affresco.StateError, match="plan"):
        affresco.Game.from_json(json.dumps(pos))
    for key in ("neutral_apprentice", "apprentice_set_aside"):
        del pos["figures"][0][key]
    g = affresco.Game.from_json(json.dumps(pos))
    assert fig(g, 0)["neutral_apprentice"] is True
    assert g.to_act == (0,)
    act(g, "pass")                      # the market
    act(g, "restore A1")                # the first of two cathedral apprentices
    assert tile_at(g, "A1") is None


@pytest.mark.parametrize("turn", [{"location": 1, "actor": 1}, {"location": 1, "visit": 1},
                                  {"location": 1, "visit": 1, "actor": 1}])
def test_the_active_player_performs_all_their_actions_at_a_location_a_position_naming_the_visitor(turn):
    """'At each location the attending players perform their actions in order of their
    previously chosen get up time. The active player performs all their actions at a certain
    location before the next player will perform their actions at this location.' A position
    in phase visits whose ``turn`` names the visitor at the cathedral (by ``actor``, by
    ``visit``, or both) without ``left`` begins that visitor's turn there with all its
    apprentices (rules notes N22; before, the visitor was skipped as one with no action left,
    or the position was refused)."""
    pos = position(3, phase="visits", fresco={"A1": "3:YY", "A2": "3:YY", "A3": "3:YY"},
                   seats=[dict(getup="7:00", plan=[0, 1, 0, 0, 0], paints="YY"),
                          dict(getup="8:00", plan=[0, 2, 0, 0, 0], paints="YYYY"),
                          dict(getup="9:00", plan=[0, 0, 0, 0, 1])])
    pos["turn"] = turn
    g = affresco.Game.from_json(json.dumps(pos))
    assert g.to_act == (1,) and data(g)["turn"]["left"] == 2
    act(g, "restore A1")
    act(g, "restore A2")
    assert fig(g, 1)["tiles"] == ["3:YY", "3:YY"] and fig(g, 0)["tiles"] == []
    assert only_actor(g) == 2            # then the theater


def test_the_active_player_performs_all_their_actions_at_a_location_a_position_naming_the_actor_and_left():
    """The same sentence, mid-turn: a position whose ``turn`` names the cathedral's visitor by
    ``actor`` and gives ``left`` (one restoration made, one to come) without ``visit`` is that
    visitor's turn with one action left: the actor names its place in the order (rules notes
    N22; before, ``visit`` defaulted to -1 and the position was refused with 'the visitor does
    not match turn.order[turn.visit]')."""
    pos = position(3, phase="visits", fresco={"A1": "3:YY", "A2": "3:YY", "A3": "3:YY"},
                   seats=[dict(getup="7:00", plan=[0, 1, 0, 0, 0], paints="YY"),
                          dict(getup="8:00", plan=[0, 2, 0, 0, 0], paints="YYYY"),
                          dict(getup="9:00", plan=[0, 0, 0, 0, 1])])
    pos["turn"] = {"location": 1, "actor": 1, "left": 1}
    g = affresco.Game.from_json(json.dumps(pos))
    assert g.to_act == (1,) and data(g)["turn"]["visit"] == 1
    act(g, "restore A1")
    assert fig(g, 1)["tiles"] == ["3:YY"]
    assert only_actor(g) == 2            # then the theater


def spread(k: int) -> str:
    """A plan of ``k`` apprentices, 3 per column from the left ('plan 3-2-0-0-0' for 5)."""
    return "plan " + "-".join(str(min(3, max(0, k - 3 * i))) for i in range(5))


def affresco_position(mood: int) -> dict:
    """Seat 0 in phase plan on mood space ``mood``, its zone flags left out."""
    pos = position(3, phase="plan")
    for key in ("neutral_apprentice", "apprentice_set_aside"):
        del pos["figures"][0][key]
    pos["figures"][0]["mood"] = mood
    return pos


def test_legal_plans_are_exactly_the_sheet_limits():
    """R1: every plan of 0..3 per column using at most the available apprentices is legal
    (apprentices may be left unplaced), and nothing else."""
    g = game(3)
    expected = {"plan " + "-".join(map(str, c)) for c in product(range(4), repeat=5) if sum(c) <= 5}
    assert legal(g, 0) == expected


def test_apprentices_may_be_left_unplaced():
    """R1: a player may leave apprentices unplaced, even all of them."""
    g = game(3)
    g.apply(0, "plan 0-0-0-0-0")
    g.apply(1, "plan 1-0-0-0-0")
    g.apply(2, "plan 0-0-0-0-1")


def test_plan_needs_five_columns():
    """R1: the action sheet has 5 columns."""
    g = game(3)
    for bad in ("plan 1-1-1-1", "plan 1-1-1-1-0-0"):
        with pytest.raises(affresco.IllegalAction):
            g.apply(0, bad)


def test_locations_in_order_market_before_cathedral():
    """'Performing actions': the locations are visited one after the other (market, then
    cathedral): paint bought at the market can be used in the cathedral the same round."""
    g = game(3, seats=[dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")],
             booths=[["YY", "RR", "BB"], ["RRR", "YB", "O"], ["BBB", "YYY", "G"]],
             fresco={"A1": "3:YY"})
    plan_all(g, "1-1-0-0-0", "0-0-0-0-0", "0-0-0-0-0")
    g.apply(0, "buy I YY")
    assert paints(g, 0) == "YY"
    assert "restore A1" in legal(g, 0)
    g.apply(0, "restore A1")
    assert tile_at(g, "A1") is None


def test_workshop_comes_after_the_cathedral_on_side_one():
    """'Performing actions' / R1: on side 1 the workshop is visited after the cathedral, so a
    blend made there cannot pay for a restoration in the same round."""
    g = game(3, seats=[dict(paints="RYY")], fresco={"A1": "5:OY"})
    plan_all(g, "0-1-0-1-0", "0-0-0-0-0", "0-0-0-0-0")
    # nothing to do in the cathedral (no tile affordable, no altar): the player passes (N2),
    # then the workshop
    assert legal(g, 0) == {"pass"}
    g.apply(0, "pass")
    assert data(g)["turn"]["location"] == 3
    assert "restore A1" not in legal(g, 0)
    g.apply(0, "blend O")
    assert tile_at(g, "A1") == "5:OY"
    assert paints(g, 0) == "YO"


def test_at_each_location_players_act_in_get_up_order():
    """'Performing actions': at each location the attending players act in order of their
    chosen get-up time."""
    g = game(3, seats=[dict(getup="8:00"), dict(getup="9:00"), dict(getup="7:00")])
    plan_all(g, "0-0-1-0-1", "0-0-1-0-1", "0-0-1-0-1")
    seen = [act(g, "studio") for _ in range(3)]
    assert seen == [2, 0, 1]
    seen = [act(g, "theater") for _ in range(3)]
    assert seen == [2, 0, 1]


def test_player_without_apprentice_at_a_location_is_skipped():
    """'Performing actions': a player who did not deploy an apprentice at a location is
    simply skipped in the player order there."""
    g = game(3, seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-1-0-0", "0-0-0-0-1", "0-0-1-0-0")
    assert act(g, "studio") == 0
    assert act(g, "studio") == 2      # seat 1 skipped at the studio
    assert act(g, "theater") == 1


def test_active_player_does_all_actions_at_a_location_first():
    """'Performing actions': the active player performs all his actions at a location before
    the next player performs his."""
    g = game(3, seats=[dict(getup="7:00", paints="RYBRYB"), dict(getup="8:00", paints="RYB"),
                       dict(getup="9:00")])
    plan_all(g, "0-2-0-0-0", "0-1-0-0-0", "0-0-0-0-0")
    assert act(g, "altar RYB") == 0
    assert act(g, "altar RYB") == 0
    assert act(g, "altar RYB") == 1


def test_players_may_forfeit_actions():
    """'Performing actions': players are not forced to perform their chosen actions."""
    g = game(3)
    plan_all(g, "0-0-2-0-0", "0-0-0-0-0", "0-0-0-0-0")
    g.apply(0, "pass")
    assert thalers(g, 0) == 12


def test_action_that_cannot_be_paid_is_forfeited():
    """'Performing actions': a player lacking the money or paint for an action must forfeit
    it: with no paint at the cathedral his only action is 'pass', which he makes himself (N2:
    the others must not learn that he could not pay, R22)."""
    g = game(3, seats=[dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-1-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
    assert only_actor(g) == 0 and legal(g, 0) == {"pass"}
    g.apply(0, "pass")
    assert only_actor(g) == 1
    assert data(g)["turn"]["location"] == 2


def test_plan_phase_offers_only_plans():
    """Phase 2 planning: the only decisions are plans; location actions are refused."""
    g = game(3)
    assert all(a.startswith("plan ") for a in legal(g, 0))
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "studio")
    assert fig(g, 0)["plan"] is None
