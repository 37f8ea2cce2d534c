"""Rulebook phase 1 'Choosing get up time and adjusting mood' (R2, R3): who chooses when,
one painter per get-up space, the mood change, the neutral apprentice and the set-aside
apprentice, the phase 2 player order."""
from __future__ import annotations


import pytest

import affresco

from positions import BOTTOM, MIDDLE, TOP, act, data, fig, game, legal, load, mood, only_actor, position  # noqa: E402


def choose_all(g, *times):
    """Let the figures choose get-up times in the order the engine asks; return the order
    of the figures that chose."""
    who = []
    for t in times:
        who.append(act(g, f"getup {t}"))
    return who


def apprentices(g, seat):
    return g.view(seat)["figures"][seat]["apprentices"]


def test_furthest_behind_chooses_first_start_spaces_behind_track():
    """Phase 1 / R2: the player holding last position on the VP track goes first, then the
    others from second last to first; players on start spaces are behind everyone on the
    track, S1 furthest behind."""
    g = game(4, phase="getup", seats=[dict(track="S2"), dict(track=5), dict(track="S1"), dict(track=2)])
    assert g.to_act == (2,)
    order = choose_all(g, "7:00", "8:00", "6:00", "9:00")
    assert order == [2, 0, 3, 1]


def test_get_up_choice_order_by_track_three_players():
    """Phase 1 / R2: last position first; S1 behind track space 4 behind track space 10."""
    g = game(3, phase="getup", seats=[dict(track=10), dict(track="S1"), dict(track=4)])
    assert choose_all(g, "8:00", "7:00", "6:00") == [1, 2, 0]


def test_only_one_painter_per_get_up_space():
    """Phase 1: 'Only one painter may occupy any single get up space' - a taken space is not
    offered and is refused."""
    g = game(3, phase="getup")
    first = act(g, "getup 7:00")
    assert first == 0
    nxt = only_actor(g)
    assert "getup 7:00" not in legal(g, nxt)
    assert {"getup 8:00", "getup 6:00"} <= legal(g, nxt)
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction):
        g.apply(nxt, "getup 7:00")
    assert g.to_json() == before
    act(g, "getup 8:00")
    assert {"getup 7:00", "getup 8:00"}.isdisjoint(legal(g, only_actor(g)))


def test_rulebook_example_7_00_lowers_mood_by_one():
    """Phase 1 example: Red places his painter on 7 o'clock: his mood changes for the worse
    by 1 (he moves his figure in the theater down 1 space)."""
    g = game(3, phase="getup")
    act(g, "getup 7:00")
    assert mood(g, 0) == MIDDLE + 1
    assert fig(g, 0)["getup"] == "7:00"


def test_8_00_keeps_mood_and_6_00_lowers_it_by_two():
    """Phase 1, hostel table: 8:00 mood change 0, 6:00 mood change -2."""
    g = game(3, phase="getup")
    act(g, "getup 8:00")
    act(g, "getup 6:00")
    assert mood(g, 0) == MIDDLE
    assert mood(g, 1) == MIDDLE + 2


def test_mood_is_clamped_at_the_bottom():
    """Phase 1 / R3: 'A figure may never be moved beyond the top or bottom space of a
    column'; excess movement is lost."""
    g = game(3, phase="getup", seats=[dict(mood=BOTTOM - 1, aside=True), dict(mood=BOTTOM, aside=True)])
    act(g, "getup 6:00")   # -2 from the second-lowest space
    act(g, "getup 7:00")   # -1 from the lowest space
    assert mood(g, 0) == BOTTOM
    assert mood(g, 1) == BOTTOM


def test_plus_one_zone_gives_the_neutral_apprentice():
    """Phase 1 '+1 spaces': a painter on one of the two +1 spaces takes the natural-colored
    apprentice: 6 actions."""
    g = game(3, phase="getup", seats=[dict(mood=1), dict(mood=TOP)])
    act(g, "getup 8:00")
    act(g, "getup 7:00")   # top space, -1: the second +1 space
    assert fig(g, 0)["neutral_apprentice"] is True
    assert fig(g, 1)["neutral_apprentice"] is True
    assert apprentices(g, 0) == 6 and apprentices(g, 1) == 6
    act(g, "getup 6:00")
    g.apply(0, "plan 2-2-1-1-0")   # 6 apprentices
    g.apply(1, "plan 1-1-1-1-2")


def test_leaving_the_plus_one_zone_returns_the_neutral_apprentice():
    """Phase 1 '+1 spaces': the player keeps the extra apprentice until leaving the +1 spaces,
    then returns him."""
    g = game(3, phase="getup", seats=[dict(mood=1, neutral=True)])
    act(g, "getup 6:00")   # 1 -> 3
    assert mood(g, 0) == 3
    assert fig(g, 0)["neutral_apprentice"] is False
    assert apprentices(g, 0) == 5


def test_minus_one_zone_sets_an_apprentice_aside():
    """Phase 1 '-1 spaces': a painter on one of the two -1 spaces sets one own apprentice
    aside: only 4 actions in phase 2."""
    g = game(3, phase="getup", seats=[dict(mood=4)])
    act(g, "getup 7:00")   # 4 -> 5, a -1 space
    assert mood(g, 0) == 5
    assert fig(g, 0)["apprentice_set_aside"] is True
    act(g, "getup 8:00")
    act(g, "getup 6:00")
    assert apprentices(g, 0) == 4
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "plan 1-1-1-1-1")
    g.apply(0, "plan 1-1-1-1-0")


def test_zero_zone_means_five_apprentices():
    """Phase 1: between the +1 and -1 spaces the player has his 5 apprentices."""
    g = game(3, phase="getup", seats=[dict(mood=2)])
    act(g, "getup 7:00")   # 2 -> 3
    d = fig(g, 0)
    assert d["neutral_apprentice"] is False and d["apprentice_set_aside"] is False
    assert apprentices(g, 0) == 5


def test_leaving_the_minus_one_zone_takes_the_apprentice_back():
    """Phase 1 '-1 spaces' / R3: a player whose marker was lifted out of the -1 spaces (by
    the theater last round) takes the apprentice back in phase 1."""
    g = game(3, phase="getup", seats=[dict(mood=3, aside=True)])
    act(g, "getup 8:00")
    assert fig(g, 0)["apprentice_set_aside"] is False
    assert apprentices(g, 0) == 5


def test_staying_in_minus_one_zone_keeps_the_apprentice_aside():
    """Phase 1 '-1 spaces': the apprentice comes back only when leaving the -1 spaces."""
    g = game(3, phase="getup", seats=[dict(mood=5, aside=True)])
    act(g, "getup 8:00")
    assert fig(g, 0)["apprentice_set_aside"] is True
    assert apprentices(g, 0) == 4


def test_phase_two_order_is_by_get_up_time():
    """'Player order': the player with the earliest get-up time is first in phase 2, the
    others follow in ascending order of get-up time (not the choosing order)."""
    g = game(3, phase="getup", seats=[dict(track="S1"), dict(track="S2"), dict(track="S3")])
    choose_all(g, "8:00", "7:00", "6:00")   # seats 0, 1, 2 choose in that order
    assert data(g)["turn"]["order"] == [2, 1, 0]
    assert g.view(None)["order"] == ["P2", "P1", "P0"]
    assert data(g)["phase"] == "plan"


def test_all_five_get_up_spaces_are_offered_at_first():
    """Hostel: the first chooser may choose any get-up space (5 spaces on the board)."""
    g = game(4, phase="getup")
    assert len(legal(g, only_actor(g))) == 5
    assert {"getup 6:00", "getup 7:00", "getup 8:00"} <= legal(g, only_actor(g))


@pytest.mark.parametrize("written", ["getup 07:00", "getup 7", "GETUP 07:00"])
def test_notation_a_get_up_time_is_one_spelling(written):
    """Phase 1 'places his master painter on the 7 o'clock space' / notation: '07:00' and '7'
    name the 7:00 space; ``str(parse(...))`` writes it one way and the engine takes it."""
    assert str(affresco.parse(written)) == "getup 7:00"
    g = game(3, phase="getup")
    act(g, written)
    assert fig(g, 0)["getup"] == "7:00"


def test_notation_numbers_are_written_without_leading_zeros():
    """Notation: a number argument (a bottle's place, Thalers paid) has one spelling."""
    for written, canonical in [("medicine 01", "medicine 1"), ("deposit 3:3:2 02", "deposit 3:3:2 2"),
                               ("audience 3:3:2 pay 004", "audience 3:3:2 pay 4")]:
        assert str(affresco.parse(written)) == canonical
        assert str(affresco.parse(canonical)) == canonical


def test_plus_one_spaces_take_the_natural_colored_apprentice_a_getup_position_after_the_choice():
    """'If a player's master painter is occupying any of the two "+1" spaces they take the
    natural-colored apprentice ... (thus having a total of 6 actions)', right after the get-up
    choice (R3). A position in phase getup where a seat has already chosen its get-up time this
    round and stands on a +1 space, written without ``neutral_apprentice``, holds the neutral
    apprentice: it plans with 6 (rules notes N24; before, 5). A seat still to choose gets it
    (or not) at its own choice."""
    pos = position(3, phase="getup", seats=[dict(getup="9:00", mood=1), dict(mood=1), {}])
    for f in pos["figures"]:
        del f["neutral_apprentice"], f["apprentice_set_aside"]
    g = load(pos)
    assert only_actor(g) == 1
    act(g, "getup 7:00")         # seat 1: -1 from a +1 space to the middle: no neutral apprentice
    act(g, "getup 8:00")
    assert g.phase == "plan"
    assert [g.view(s)["figures"][s]["apprentices"] for s in range(3)] == [6, 5, 5]


def test_only_one_painter_may_occupy_a_get_up_space_a_position_where_one_ahead_chose_first():
    """'The player holding last position ... goes first ... The other players do likewise in
    order from second last position to first position ... Only one painter may occupy any
    single get up space.' A position in phase getup where a figure further ahead (S3) has
    already chosen while the ones behind (S1, S2) have not cannot arise in play (the track does
    not change in phase 1); it loads as written, and the figures still to choose do so in the
    get-up order among themselves, never on the space already taken (rules notes N30: refusing
    it would fail a scenario that writes a taken space to check the one-painter rule)."""
    pos = position(3, phase="getup", seats=[{}, {}, dict(getup="7:00")])
    g = load(pos)
    assert only_actor(g) == 0                     # S1: the last position chooses first
    assert "getup 7:00" not in legal(g, 0)
    act(g, "getup 6:00")
    assert only_actor(g) == 1
    assert {"getup 6:00", "getup 7:00"}.isdisjoint(legal(g, 1))
    act(g, "getup 8:00")
    assert g.phase == "plan"
    assert [fig(g, s)["getup"] for s in range(3)] == ["6:00", "8:00", "7:00"]


def test_plus_one_spaces_a_plan_position_keeps_the_zone_flags_it_writes():
    """'If a player's master painter is occupying any of the two "+1" spaces they take the
    natural-colored apprentice' (R3: right after the get-up choice). In phase plan the flags a
    position writes are the pieces behind the screen and load as written, even where they do
    not match the mood space (rules notes N29; N16 derives them only when left out): the seat
    plans with 6 (neutral) and 4 (set aside). Its mood decides again at its next get-up: on
    the middle spaces the neutral apprentice goes back and the set-aside one returns."""
    g = game(3, phase="plan", seats=[dict(neutral=True), dict(aside=True), {}])
    assert [apprentices(g, s) for s in range(3)] == [6, 4, 5]
    for seat, plan in enumerate(("3-3-0-0-0", "2-2-0-0-0", "0-0-0-0-0")):
        g.apply(seat, "plan " + plan)
    while g.phase == "visits":
        g.apply(only_actor(g), "pass")
    assert g.phase == "getup"
    while g.phase == "getup":      # 8:00 keeps the mood, 9:00 and 7:00 move it within the middle
        act(g, next(t for t in ("getup 8:00", "getup 9:00", "getup 7:00") if t in legal(g, only_actor(g))))
    assert all(MIDDLE - 1 <= mood(g, s) <= MIDDLE + 1 for s in range(3))
    assert [apprentices(g, s) for s in range(3)] == [5, 5, 5]


def test_the_player_with_the_earliest_get_up_time_is_first_player_a_written_order():
    """'The player having chosen the earliest get up time will be first player during phase 2,
    followed by the other players in ascending order of their chosen get up time.' A position
    whose `turn.order` contradicts its get-up times loaded, and the visits went in the written
    order (the 7:00 seat before the 6:00 one). It is refused naming `turn.order` and the order
    of the get-up times (rules notes N31); left out, the order is derived."""
    seats = [dict(getup="7:00", plan=[1, 0, 0, 0, 0]), dict(getup="8:00", plan=[1, 0, 0, 0, 0]),
             dict(getup="6:00", plan=[1, 0, 0, 0, 0])]
    pos = position(3, phase="visits", seats=seats)
    assert only_actor(load(pos)) == 2
    pos["turn"] = {"order": [0, 1, 2]}
    with pytest.raises(affresco.StateError, match=r"turn\.order: \[0, 1, 2\]: the order of phase 2 is that of "
                                                  r"the get-up times, \[2, 0, 1\]"):
        load(pos)
