"""Rulebook 'preparing the next round', 'End of the game and final scoring' (R2, R5, R10,
R11, R12, R8)."""
from __future__ import annotations

from collections import Counter

import pytest

import affresco

from positions import (act, booths, data, fig, game, legal, load, market_multiset, mood, norm, only_actor,  # noqa: E402
                       plan_all, position, thalers, tiles_on_board, track)

B3 = [["YYY", "RR", "BB"], ["RRR", "YB", "O"], ["BBB", "YY", "G"]]
BAG3 = ["RY", "RB"]
NOTHING = "0-0-0-0-0"


def seven_tiles(**extra):
    """A fresco with exactly 7 tiles left (A1..A5, E1, E2), the others restored."""
    tiles = {"A1": "3:YY", "A2": "3:YY", "A3": "3:YY", "A4": "3:YY", "A5": "3:YY", "E1": "3:YY", "E2": "3:YY"}
    tiles.update(extra)
    return tiles


# ------------------------------------------------------------------ round preparation
def test_booths_are_refilled_and_no_tile_is_lost():
    """'Preparing the next round' / R5: each booth gets its tiles again from the bag (3
    booths of 3 tiles for 3 players, 2 left in the bag)."""
    g = game(3, seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")], booths=B3, bag=BAG3)
    total = market_multiset(g)
    plan_all(g, "1-0-0-0-0", NOTHING, NOTHING)
    g.apply(0, "close I")
    d = data(g)
    assert d["round"] == 2 and d["phase"] == "getup"
    assert [len(b) for b in d["market"]["booths"]] == [3, 3, 3]
    assert len(d["market"]["bag"]) == 2
    assert market_multiset(g) == total


def test_all_booth_tiles_go_back_to_the_bag_before_refilling():
    """R5: at round preparation all tiles still on booths return to the bag, then every
    booth is refilled: an untouched booth does not simply keep its tiles."""
    changed = []
    for seed in range(10):
        g = game(3, seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")], booths=B3, bag=BAG3,
                 seed=seed)
        plan_all(g, NOTHING, NOTHING, NOTHING)
        assert data(g)["round"] == 2
        changed.append(booths(g) != norm(B3))
        assert market_multiset(g) == Counter(sum(B3, []) + BAG3)
    assert any(changed)


def test_income_one_thaler_per_fresco_tile():
    """'Preparing the next round' / R10: each player is paid 1 Thaler per face-down fresco
    tile in front of him, including one restored this round."""
    g = game(3, seats=[dict(getup="7:00", thalers=5, tiles=["3:YY", "5:OY", "7:OG"], paints="YY"),
                       dict(getup="8:00", thalers=5),
                       dict(getup="9:00", thalers=5, tiles=["4:RRY"])],
             fresco={"A1": "3:YY"})
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    g.apply(0, "restore A1")
    assert data(g)["round"] == 2
    assert thalers(g, 0) == 5 + 4
    assert thalers(g, 1) == 5
    assert thalers(g, 2) == 5 + 1


def test_get_up_spaces_are_freed_and_last_position_chooses_first():
    """'Preparing the next round': all master painters go back above the hostel; the player
    holding last position starts the next round by choosing his get-up time."""
    g = game(3, seats=[dict(getup="7:00", track=12), dict(getup="8:00", track=4), dict(getup="9:00", track=20)])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    d = data(g)
    assert d["phase"] == "getup" and d["round"] == 2
    assert all(f["getup"] is None for f in d["figures"])
    assert g.to_act == (1,)
    assert len(legal(g, 1)) == 5


def test_start_space_rotation_the_first_one_is_moved_to_the_end_of_the_line_three_figures():
    """'In case 2 or more master painters are still standing on the starting spaces they will
    change places. The first one is moved to the end of the line and the others are moved one
    space forward' (R2 revised: S1 is the last position, so the first one is on the highest
    start space). A on S1, B on S2, C on S3 become C on S1, A on S2, B on S3."""
    g = game(3, seats=[dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2"),
                       dict(getup="9:00", track="S3")])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert [track(g, f) for f in range(3)] == ["S2", "S3", "S1"]
    assert g.to_act == (2,)                         # C holds last position: C chooses first


def test_start_space_rotation_the_first_one_is_moved_to_the_end_of_the_line_four_figures():
    """R2 revised with 4 figures: A S1, B S2, C S3, D S4 become D S1, A S2, B S3, C S4."""
    g = game(4, seats=[dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2"),
                       dict(getup="9:00", track="S3"), dict(getup="6:00", track="S4")])
    plan_all(g, NOTHING, NOTHING, NOTHING, NOTHING)
    assert [track(g, f) for f in range(4)] == ["S2", "S3", "S4", "S1"]
    assert g.to_act == (3,) and data(g)["round"] == 2


def test_start_space_rotation_four_figures_cycles_back_after_four_rounds():
    """R2 revised: every round the figure on the highest start space drops to S1, so after four
    rounds on the start spaces each of four figures is back where it began, and each was last
    (on S1) exactly once."""
    g = game(4, phase="getup")
    start = [track(g, f) for f in range(4)]
    last = []
    for _ in range(4):
        while data(g)["phase"] == "getup":
            seat = only_actor(g)
            g.apply(seat, sorted(legal(g, seat))[0])
        plan_all(g, NOTHING, NOTHING, NOTHING, NOTHING)
        last.append(next(f for f in range(4) if track(g, f) == "S1"))
    assert [track(g, f) for f in range(4)] == start
    assert sorted(last) == [0, 1, 2, 3]
    assert last == [3, 2, 1, 0]                     # S4, then (moved up to S4) S3's, ...


def test_start_space_rotation_skips_players_on_the_track():
    """R2 revised with one player already on the VP track (4 players, S3 left): the first one
    (S4) goes to the end of the line (S1), the others move one space forward: S1 -> S2,
    S2 -> S3."""
    g = game(4, seats=[dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2"),
                       dict(getup="9:00", track=5), dict(getup="6:00", track="S4")])
    plan_all(g, NOTHING, NOTHING, NOTHING, NOTHING)
    assert [track(g, f) for f in range(4)] == ["S2", "S3", 5, "S1"]


def test_start_space_rotation_after_a_player_scored_this_round():
    """R2: the rotation concerns the players still on start spaces at the end of the round
    (S1 and S3 left: S3 goes to S1, S1 moves forward to S2)."""
    g = game(3, seats=[dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2", paints="YY"),
                       dict(getup="9:00", track="S3")], fresco={"A1": "3:YY"})
    plan_all(g, NOTHING, "0-1-0-0-0", NOTHING)
    g.apply(1, "restore A1")
    assert [track(g, f) for f in range(3)] == ["S2", 3, "S1"]
    assert g.to_act == (2,)


def test_single_player_on_start_spaces_does_not_move():
    """R2: the rotation needs 2 or more master painters on the start spaces."""
    g = game(3, seats=[dict(getup="7:00", track="S2"), dict(getup="8:00", track=3),
                       dict(getup="9:00", track=9)])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert track(g, 0) == "S2"


# ------------------------------------------------------------------------ final round
def test_six_tiles_left_at_round_start_makes_it_the_final_round():
    """'End of the game' / R11: with 6 or fewer fresco tiles on the board at the beginning of
    a round, this is the final round; the action sheets show side 2."""
    g = game(3, seats=[dict(getup="7:00", paints="YY"), dict(getup="8:00"), dict(getup="9:00")],
             fresco=seven_tiles(), fill=None)
    assert tiles_on_board(g) == 7
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    g.apply(0, "restore A1")
    d = data(g)
    assert d["round"] == 2 and tiles_on_board(g) == 6
    assert d["final_round"] is True and d["action_sheet_side"] == 2
    assert g.view(0)["columns"] == ["market", "cathedral", "studio", "workshop", "cathedral"]
    assert thalers(g, 0) == 12 + 1            # the round before the final round pays income
    assert not g.is_over


@pytest.mark.parametrize("phase", ["getup", "plan"])
def test_six_or_less_tiles_at_the_beginning_of_a_round_a_position_without_the_final_flag(phase):
    """'If there are 6 or less fresco tiles remaining on the board at the beginning of a round
    this is the final round of the game. All players flip their action sheet over' (R11, R1):
    a position in phase getup or plan with 6 tiles that leaves out ``final_round`` and
    ``action_sheet_side`` is that final round: cathedral twice, no theater, no income, then
    final scoring. With 7 tiles it is a normal round."""
    def pos(tiles):
        p = position(3, phase=phase, fresco=tiles, fill=None,
                     seats=[dict(getup="7:00", paints="YY", thalers=13), dict(getup="8:00"), dict(getup="9:00")])
        if phase == "getup":
            for f in p["figures"]:
                f["getup"] = None
        del p["final_round"], p["action_sheet_side"]
        return load(p)

    g = pos(seven_tiles())
    assert data(g)["final_round"] is False and data(g)["action_sheet_side"] == 1
    g = pos(seven_tiles(E2=None))
    assert tiles_on_board(g) == 6
    assert data(g)["final_round"] is True and data(g)["action_sheet_side"] == 2
    if phase == "getup":
        for _ in range(3):
            act(g, sorted(legal(g, only_actor(g)))[0])
    assert g.view(0)["columns"] == ["market", "cathedral", "studio", "workshop", "cathedral"]
    plan_all(g, "0-0-0-0-1", NOTHING, NOTHING)       # the second cathedral, not the theater
    while not g.is_over:
        act(g, "restore A1" if "restore A1" in legal(g, only_actor(g)) else "pass")
    assert fig(g, 0)["tiles"] == ["3:YY"]
    assert thalers(g, 0) == 13               # no income after the final round


@pytest.mark.parametrize("phase", ["getup", "plan", "visits"])
def test_side_2_is_needed_for_the_final_round_only_a_position_without_the_final_flag(phase):
    """Action sheet: 'Side 2 is needed for the final round only'; 'The game will end after
    this round' (R1, R11): a position (7 tiles left) that shows side 2 but leaves out
    ``final_round`` is the final round: the game ends after it, with no income (before: a side-2
    round with income, then round 2 on side 2 again, forever without the theater).  One that
    says ``final_round: false`` on side 2 is refused, naming the field (rules notes N18)."""
    plans = {"visits": [[0, 0, 0, 0, 0], [0, 0, 0, 0, 0], [0, 0, 0, 0, 1]]}.get(phase, [None] * 3)
    p = position(3, phase=phase, fresco=seven_tiles(), fill=None,
                 seats=[dict(getup=None if phase == "getup" else t, plan=pl, tiles=["3:YY"])
                        for t, pl in zip(("7:00", "8:00", "9:00"), plans)])
    p["action_sheet_side"] = 2
    with pytest.raises(affresco.StateError, match="action_sheet_side"):
        load(p)
    del p["final_round"]
    g = load(p)
    assert data(g)["final_round"] is True and data(g)["action_sheet_side"] == 2
    if phase == "getup":
        for _ in range(3):
            act(g, sorted(legal(g, only_actor(g)))[0])
    if phase != "visits":
        plan_all(g, NOTHING, NOTHING, "0-0-0-0-1")
    while not g.is_over:
        act(g, "pass")
    assert data(g)["round"] == 1 and [thalers(g, s) for s in range(3)] == [12, 12, 12]


@pytest.mark.parametrize("phase", ["getup", "plan"])
def test_all_players_flip_their_action_sheet_over_a_final_position_on_side_1_before_the_visits(phase):
    """'If there are 6 or less fresco tiles remaining on the board at the beginning of a round
    this is the final round of the game. All players flip their action sheet over, now showing
    side 2'; 'In the final round the "theater" can not be visited any more, instead the
    "cathedral" may be visited twice' (R1, R11). A position in phase getup or plan that is final
    (``final_round: true``, or 6 tiles left with the flag left out) and shows side 1 plays the
    final round on side 2: the fifth column is the second cathedral, not the theater (rules
    notes N20; before, the final round was played with the theater)."""
    seats = [dict(getup=None if phase == "getup" else t) for t in ("7:00", "8:00", "9:00")]
    written = position(3, phase=phase, fresco=seven_tiles(), fill=None, seats=seats, final=True, side=1)
    six = position(3, phase=phase, fresco=seven_tiles(E2=None), fill=None, seats=seats, side=1)
    del six["final_round"]
    for p in (written, six):
        g = load(p)
        assert data(g)["final_round"] is True and data(g)["action_sheet_side"] == 2
        if phase == "getup":
            for _ in range(3):
                act(g, sorted(legal(g, only_actor(g)))[0])
        assert g.view(0)["columns"] == ["market", "cathedral", "studio", "workshop", "cathedral"]
        plan_all(g, NOTHING, NOTHING, NOTHING)
        assert g.is_over


def test_the_fresco_completely_restored_a_visits_position_without_the_final_flag_is_the_final_round():
    """'In case the fresco is completely restored during a round without the final round being
    triggered, that is the final round and followed immediately by final scoring. As it's the
    final round, no income is paid' (R11, N7; rules notes N19): a position in phase visits with
    no tile left on the fresco, written without ``final_round``, is the final round on the side
    planned (1: the theater); with 3 tiles left it may have begun with more (N7): not final."""
    def pos(fresco):
        p = position(3, phase="visits", fill=None, fresco=fresco,
                     seats=[dict(plan=[0, 0, 0, 0, 0], tiles=["3:YY"]), dict(plan=[0, 0, 0, 0, 0]),
                            dict(plan=[0, 0, 0, 0, 1])])
        del p["final_round"], p["action_sheet_side"]
        return load(p)
    g = pos({})
    assert data(g)["final_round"] is True and data(g)["action_sheet_side"] == 1
    while not g.is_over:
        act(g, "theater" if "theater" in legal(g, only_actor(g)) else "pass")
    assert data(g)["round"] == 1 and thalers(g, 0) == 12
    g = pos({"A1": "3:YY", "A2": "3:YY", "A3": "3:YY"})
    assert data(g)["final_round"] is False


def test_seven_tiles_left_is_not_the_final_round():
    """R11: 7 tiles at the start of a round: a normal round."""
    g = game(3, seats=[dict(getup="7:00", paints="YY"), dict(getup="8:00"), dict(getup="9:00")],
             fresco=seven_tiles(E3="3:YY"), fill=None)
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    g.apply(0, "restore A1")
    d = data(g)
    assert d["round"] == 2 and tiles_on_board(g) == 7
    assert d["final_round"] is False and d["action_sheet_side"] == 1
    assert g.view(0)["columns"][4] == "theater"


def final_round(seats, **kw):
    kw.setdefault("fresco", {"A1": "5:OY", "A2": "3:YY", "A3": "3:YY"})
    return game(3, seats=seats, final=True, side=2, fill=None, **kw)


def test_final_round_second_cathedral_comes_after_the_workshop():
    """'End of the game' note / R1: in the final round the theater is replaced by a second
    cathedral visit, resolved after the workshop: paint blended there can be used."""
    g = final_round([dict(getup="7:00", paints="RYY"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-1-1", NOTHING, NOTHING)
    assert g.view(0)["location"] == "workshop"
    g.apply(0, "blend O")       # Y, O left: no second blend possible
    assert legal(g, 0) == {"pass"}
    g.apply(0, "pass")
    assert g.view(0)["location"] == "cathedral"
    g.apply(0, "restore A1")
    assert fig(g, 0)["tiles"] == ["5:OY"]
    assert g.is_over


def test_final_round_cathedral_twice():
    """R1: on side 2 the cathedral may be visited twice (columns 2 and 5)."""
    g = final_round([dict(getup="7:00", paints="YYYY", thalers=0), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-1-0-0-1", NOTHING, NOTHING)
    g.apply(0, "restore A2")
    assert only_actor(g) == 0 and g.view(0)["location"] == "cathedral"
    g.apply(0, "restore A3")
    assert track(g, 0) == 3 + 5          # A2: 3 (bishop C3 not adjacent); A3: 3 + 2 (bishop on A2)
    assert g.is_over


def test_final_round_has_no_theater():
    """'End of the game' note: in the final round the theater cannot be visited; the 5th
    column is a cathedral: no mood change."""
    g = final_round([dict(getup="7:00", paints="", mood=5, aside=True), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-1-0-1", NOTHING, NOTHING)
    assert "theater" not in legal(g, 0)
    g.apply(0, "studio")
    assert legal(g, 0) == {"pass"}                  # the second cathedral: no paint
    g.apply(0, "pass")
    assert mood(g, 0) == 5
    assert g.is_over


def test_game_ends_after_the_final_round_without_income():
    """'End of the game': the game ends after the final round; no income is paid; then 1 VP
    per 2 Thalers (rounded down)."""
    g = final_round([dict(getup="7:00", thalers=5, tiles=["3:YY", "5:OY", "7:OG"], track=20),
                     dict(getup="8:00", thalers=7, track=30), dict(getup="9:00", thalers=1, track=40)])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.is_over
    assert thalers(g, 0) == 5                 # no income
    assert g.scores() == [20 + 2, 30 + 3, 40 + 0]
    assert g.to_act == ()
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "getup 7:00")


@pytest.mark.parametrize("first", [0, 1])
def test_final_scoring_in_get_up_order_and_forward_on_occupied(first):
    """'Final scoring' / R12 / R8: Thaler VP are awarded in get-up order of the final round;
    a painter landing on an occupied space moves forward to the next free space."""
    times = ["7:00", "8:00"] if first == 0 else ["8:00", "7:00"]
    g = final_round([dict(getup=times[0], track=10, thalers=4), dict(getup=times[1], track=11, thalers=2),
                     dict(getup="9:00", track=13, thalers=0)])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.is_over
    assert data(g)["pending_track"] is None
    if first == 0:     # seat 0: 10 -> 12; seat 1: 11 -> 12 taken, 13 taken -> 14
        assert g.scores() == [12, 14, 13]
    else:              # seat 1: 11 -> 12; seat 0: 10 -> 12 taken, 13 taken -> 14
        assert g.scores() == [14, 12, 13]


def test_completing_the_fresco_during_a_round_makes_it_final():
    """'End of the game' note / R11: if the fresco is completely restored during a round
    (7 tiles at its start: not yet the final round), that round is the last: final scoring
    follows at once, no income is paid."""
    tiles = {"A1": "3:YY", "A2": "3:YY", "A3": "3:YY", "E1": "3:YY", "E2": "3:YY", "E3": "3:YY", "C5": "3:YY"}
    g = game(3, seats=[dict(getup="7:00", track="S1", paints="YYYYYY", thalers=13),
                       dict(getup="8:00", track=1, paints="YYYYYY", thalers=12),
                       dict(getup="9:00", track="S3", paints="RYYYB", thalers=11)],
             fresco=tiles, fill=None)
    plan_all(g, "0-3-0-0-0", "0-3-0-0-0", "0-2-0-0-0")
    for seg in ("A1", "A2", "A3"):     # 3, then 3+2, 3+2 (bishop on the previous tile)
        g.apply(0, f"restore {seg}")
    assert track(g, 0) == 13
    for seg in ("E1", "E2", "E3"):     # from 1: 4, 9, 14
        g.apply(1, f"restore {seg}")
    assert track(g, 1) == 14
    assert not g.is_over
    g.apply(2, "restore C5")           # bishop on E3: C5 not adjacent: 3
    assert tiles_on_board(g) == 0
    assert not g.is_over               # the round is played to its end: the altar is still open
    g.apply(2, "altar RYB")            # 2 VP
    assert g.is_over
    assert data(g)["round"] == 1
    assert [thalers(g, s) for s in range(3)] == [13, 12, 11]      # no income
    assert g.scores() == [13 + 6, 14 + 6, 3 + 2 + 5]


def test_winner_is_decided_by_track_order():
    """'Final scoring' / R8: the highest VP total wins; the order on the track decides."""
    g = final_round([dict(getup="7:00", track=25, thalers=0), dict(getup="8:00", track=31, thalers=0),
                     dict(getup="9:00", track=18, thalers=0)])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.is_over
    assert g.ranking() == [1, 0, 2]
    assert g.scores() == [25, 31, 18]
