"""Supplement 'Rules for 2 players (basic game)': Leonardo, the imaginary third player (R13)."""
from __future__ import annotations

from collections import Counter

import pytest

import affresco

from positions import (bag, bishop, booths, data, fig, game, legal, load, only_actor, plan_all, position,  # noqa: E402
                       thalers, tile_at, tiles_on_board, track)

LEO = 2
NOTHING = "0-0-0-0-0"
B3 = [["YYY", "RR", "BB"], ["RRR", "YB", "O"], ["BBB", "YY", "G"]]


def two(seats=None, leo=None, **kw):
    """2 players: seat 0 at 7:00 on S1, seat 1 at 8:00 on S2, Leonardo at 9:00 on S3."""
    seats = seats or [{}, {}]
    s0 = dict(getup="7:00", track="S1"); s0.update(seats[0])
    s1 = dict(getup="8:00", track="S2"); s1.update(seats[1])
    lv = dict(getup="9:00", track="S3"); lv.update(leo or {})
    if kw.get("phase") == "getup":
        for d in (s0, s1, lv):
            d.pop("getup", None)
    kw.setdefault("booths", B3)
    return game(2, seats=[s0, s1], leonardo=lv, **kw)


def leo_market_done(g, controller):
    """Leonardo's market visit (9:00, last): the controller closes booth I."""
    assert only_actor(g) == controller
    g.apply(controller, "close I")


# ------------------------------------------------------------------ controller, get-up
def test_controller_alternates_every_round():
    """Supplement / R13: the player given the Leonardo tile plays him this round; next round
    the other player, alternating round by round."""
    g = two(phase="getup", controller=0)
    controllers = []
    for rnd in range(1, 4):
        d = data(g)
        assert d["round"] == rnd and d["phase"] == "getup"
        controllers.append(d["leonardo"]["controller"])
        for t in ("7:00", "8:00", "9:00"):
            seat = only_actor(g)
            g.apply(seat, f"getup {t}")
        plan_all(g, NOTHING, NOTHING)
        while data(g)["round"] == rnd:          # Leonardo's market and cathedral visits
            seat = only_actor(g)
            assert seat == controllers[-1]
            g.apply(seat, sorted(legal(g, seat))[0])
    assert controllers == [0, 1, 0]


def test_controller_chooses_leonardos_get_up_space():
    """Supplement 1. 'Choosing get up time' / R13: when it is Leonardo's turn his current
    player places his master painter on the desired get-up space. Leonardo chooses in track
    order like everyone (on S3 he chooses after S1 and S2)."""
    g = two(phase="getup", controller=1)
    g.apply(0, "getup 7:00")            # S1
    g.apply(1, "getup 8:00")            # S2
    assert g.to_act == (1,)             # Leonardo's turn, decided by seat 1
    assert "getup 7:00" not in legal(g, 1)
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "getup 6:00")
    g.apply(1, "getup 6:00")
    assert fig(g, LEO)["getup"] == "6:00"
    assert data(g)["turn"]["order"] == [2, 0, 1]   # Leonardo acts first in phase 2



@pytest.mark.parametrize("phase", ["getup", "plan"])
def test_give_the_leonardo_tile_to_the_starting_player_a_round_one_position(phase):
    """'Give the Leonardo tile to the starting player. They will play for and act as Leonardo
    for this game round' (R13: the player who chooses get-up time first in round 1, the one on
    S1). A round-1 position with seat 1 on S1 and seat 0 on S2 that leaves out
    ``leonardo.controller`` gives Leonardo to seat 1 (before, to seat 0 whoever started; rules
    notes N27); the next round, to seat 0. Written, the controller is kept."""
    pos = position(2, phase="getup", seats=[dict(track="S2"), dict(track="S1")], booths=B3)
    del pos["leonardo"]["controller"]
    g = load(pos)
    assert data(g)["leonardo"]["controller"] == 1
    g.apply(1, "getup 7:00")            # S1 chooses first
    g.apply(0, "getup 8:00")
    assert g.to_act == (1,)             # Leonardo's get-up space: his controller's choice
    g.apply(1, "getup 9:00")
    if phase == "plan":
        pos = data(g)
        del pos["leonardo"]["controller"], pos["setup"]
        g = load(pos)
        assert data(g)["leonardo"]["controller"] == 1
    plan_all(g, NOTHING, NOTHING)
    while data(g)["round"] == 1:        # Leonardo's market and cathedral visits
        assert only_actor(g) == 1
        g.apply(1, sorted(legal(g, 1))[0])
    assert data(g)["leonardo"]["controller"] == 0
    pos["leonardo"] = {"painter": "C3", "controller": 0}
    assert data(load(pos))["leonardo"]["controller"] == 0


def test_leonardo_chooses_first_when_furthest_behind():
    """R2 + R13: Leonardo is on the VP track like a player: furthest behind chooses first."""
    g = two(seats=[dict(track=9), dict(track=5)], leo=dict(track=2), phase="getup", controller=0)
    assert g.to_act == (0,)
    g.apply(0, "getup 8:00")
    assert fig(g, LEO)["getup"] == "8:00"
    assert g.to_act == (1,)             # seat 1 on 5 next


def test_leonardo_has_no_mood():
    """Supplement: there is no master painter of Leonardo on the mood display."""
    g = two(phase="getup", controller=0)
    g.apply(0, "getup 8:00")
    g.apply(1, "getup 7:00")
    g.apply(0, "getup 6:00")
    assert "mood" not in fig(g, LEO)


def test_leonardo_action_sheet_is_market_and_cathedral():
    """Supplement: Leonardo's two apprentices stand on the top spaces of the market and
    cathedral columns, unchanged for the game."""
    g = two(seats=[dict(paints=""), {}])
    with pytest.raises(affresco.IllegalAction):
        g.apply(LEO, "plan 1-1-0-0-0")      # Leonardo is no seat: nobody plans for him
    assert g.to_act == (0, 1)
    plan_all(g, NOTHING, "0-0-1-0-0")
    assert g.view(0)["figures"][LEO]["plan"] == [1, 1, 0, 0, 0]


# ------------------------------------------------------------------------------ market
def test_leonardo_must_close_an_open_booth():
    """Supplement 'Market' / R13: Leonardo never buys paints; instead he closes down an open
    booth chosen by his player; he must close one (no pass)."""
    g = two(leo=dict(getup="6:00"), controller=1)
    plan_all(g, NOTHING, "0-0-1-0-0")
    assert g.to_act == (1,)
    assert legal(g, 1) == {"close I", "close II", "close III"}
    before = g.to_json()
    for bad in ("pass", "buy I YYY", "buy II O"):
        with pytest.raises(affresco.IllegalAction):
            g.apply(1, bad)
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "close I")           # not his controller this round
    assert g.to_json() == before
    g.apply(1, "close II")
    assert booths(g)[1] == []
    assert Counter(bag(g)) == Counter(["RY", "RB", "RRR", "YB", "O"])


def test_leonardo_closes_only_open_booths():
    """R13: he closes an OPEN booth: one emptied earlier this round is not offered."""
    g = two(controller=0)
    plan_all(g, "1-0-0-0-0", "0-0-1-0-0")
    g.apply(0, "close I")
    assert g.to_act == (0,)             # Leonardo (9:00), controlled by seat 0
    assert legal(g, 0) == {"close II", "close III"}
    g.apply(0, "close III")
    assert booths(g)[2] == [] and booths(g)[0] == []


def test_leonardo_market_visit_skipped_without_open_booth():
    """R5 + R13: if no booth has tiles Leonardo's market visit does nothing."""
    g = two(booths=[[], [], []], leonardo_painter="C3", controller=0)
    plan_all(g, NOTHING, "0-0-1-0-0")
    assert g.view(None)["location"] == "cathedral"


# --------------------------------------------------------------------------- cathedral
def test_leonardo_restores_one_orthogonal_step_and_scores_with_the_bishop():
    """Supplement 'Cathedral' / R13: Leonardo restores 1 tile, moving his master painter one
    space up, down, left or right (not diagonally); he needs no paint; he scores the tile's
    VP plus the bishop's bonus; the tile is placed in front of him; bishop and painter move
    to the restored space."""
    g = two(controller=0, fresco={"C2": "5:OY"})
    plan_all(g, NOTHING, "0-0-1-0-0")
    leo_market_done(g, 0)
    assert g.view(None)["location"] == "cathedral"
    assert legal(g, 0) == {"restore C2", "restore B3", "restore D3", "restore C4"}
    for bad in ("restore B2", "restore D4", "restore C1", "restore C3", "pass", "altar RYB"):
        with pytest.raises(affresco.IllegalAction):
            g.apply(0, bad)
    g.apply(0, "restore C2")
    assert track(g, LEO) == 5 + 2          # bishop on C3, adjacent
    assert bishop(g) == "C2"
    assert data(g)["leonardo"]["painter"] == "C2"
    assert tile_at(g, "C2") is None
    assert fig(g, LEO)["tiles"] == ["5:OY"]
    assert only_actor(g) == 1               # exactly one tile: seat 1's studio next


def test_leonardo_bonus_bishop_on_segment():
    """R13: bishop as he finds it: standing on the tile Leonardo restores: +3."""
    g = two(controller=0, fresco={"D3": "4:YYR"}, bishop="D3")
    plan_all(g, NOTHING, "0-0-1-0-0")
    leo_market_done(g, 0)
    g.apply(0, "restore D3")
    assert track(g, LEO) == 7


def test_leonardo_no_bonus_when_bishop_far():
    """R13: no bonus when the bishop is neither on nor next to the tile; he never pays to
    move the bishop."""
    g = two(controller=0, fresco={"C4": "4:YYR"}, bishop="A1")
    plan_all(g, NOTHING, "0-0-1-0-0")
    leo_market_done(g, 0)
    assert not any("bishop" in a for a in legal(g, 0))
    g.apply(0, "restore C4")
    assert track(g, LEO) == 4
    assert bishop(g) == "C4"


def test_leonardo_steps_only_onto_unrestored_segments():
    """R13: the step goes onto an unrestored segment."""
    g = two(controller=1, fresco={"C2": None, "B3": None}, leonardo_painter="C3")
    plan_all(g, NOTHING, "0-0-1-0-0")
    leo_market_done(g, 1)
    assert legal(g, 1) == {"restore D3", "restore C4"}


def test_leonardo_on_an_edge_has_fewer_steps():
    """R13: orthogonal steps stay on the fresco."""
    g = two(controller=0, leonardo_painter="A1")
    plan_all(g, NOTHING, "0-0-1-0-0")
    leo_market_done(g, 0)
    assert legal(g, 0) == {"restore A2", "restore B1"}


def test_leonardo_jumps_to_a_lowest_valued_tile_controller_picks_among_ties():
    """Supplement / R13: if no step is possible he jumps to the fresco tile with the lowest
    value; among several such tiles his player chooses."""
    fresco = {"C2": None, "B3": None, "D3": None, "C4": None, "C3": None,
              "A1": "3:YY", "E5": "3:RB", "E1": "4:RRY", "A5": "5:OY"}
    g = two(controller=1, fresco=fresco, fill="7:OG", bishop="B1")
    plan_all(g, NOTHING, "0-0-1-0-0")
    leo_market_done(g, 1)
    assert legal(g, 1) == {"restore A1", "restore E5"}
    g.apply(1, "restore A1")
    assert track(g, LEO) == 3 + 2            # bishop on B1 is adjacent to A1
    assert data(g)["leonardo"]["painter"] == "A1"
    assert bishop(g) == "A1"


def test_leonardo_does_not_restore_in_the_final_round():
    """Supplement / R13: when the players flip their sheets, Leonardo's cathedral apprentice
    is removed: no restoration in the final round (he still closes a booth)."""
    g = two(controller=0, fresco={"C2": "3:YY", "C4": "3:YY"}, fill=None, final=True, side=2,
            seats=[dict(thalers=0), dict(thalers=0)])
    plan_all(g, NOTHING, NOTHING)
    assert g.view(None)["figures"][LEO]["plan"] == [1, 0, 0, 0, 0]
    g.apply(0, "close I")
    assert g.is_over
    assert tiles_on_board(g) == 2
    assert track(g, LEO) == "S3"


def test_leonardo_track_choice_is_made_by_his_controller():
    """R8 + R13: landing on an occupied space, Leonardo's controller decides behind/ahead."""
    g = two(controller=1, seats=[dict(track=7), {}], fresco={"C2": "5:OY"})
    plan_all(g, NOTHING, "0-0-1-0-0")
    leo_market_done(g, 1)
    g.apply(1, "restore C2")                 # 0 + 5 + 2 = 7: occupied by seat 0
    assert g.to_act == (1,)
    assert legal(g, 1) == {"track behind", "track ahead"}
    g.apply(1, "track ahead")
    assert track(g, LEO) == 8


# ----------------------------------------------------------------- income and scoring
def test_leonardo_has_no_income_and_no_money():
    """Supplement / R13: Leonardo receives no paint and no income."""
    g = two(controller=0, leo=dict(tiles=["3:YY", "5:OY"]), seats=[dict(thalers=3), dict(thalers=4)])
    plan_all(g, NOTHING, NOTHING)
    leo_market_done(g, 0)
    g.apply(0, "restore C2")
    d = data(g)
    assert d["round"] == 2
    assert "thalers" not in d["figures"][LEO] and "paints" not in d["figures"][LEO]
    assert [thalers(g, 0), thalers(g, 1)] == [3, 4]
    assert len(fig(g, LEO)["tiles"]) == 3


def test_leonardo_in_scores_and_ranking_and_can_win():
    """Supplement 'Final scoring': Leonardo occupies a space on the VP track; he is ranked
    like a player (after the seats in scores()) and can win."""
    g = two(seats=[dict(track=10, thalers=4), dict(track=20, thalers=0)], leo=dict(track=30),
            final=True, side=2, fill=None, fresco={"A1": "3:YY"}, controller=0)
    plan_all(g, NOTHING, NOTHING)
    g.apply(0, "close I")
    assert g.is_over
    assert g.scores() == [12, 20, 30]
    assert g.ranking() == [2, 1, 0]
    assert g.names[g.ranking()[0]] == "Leonardo"


def test_leonardo_occupies_a_space_in_final_scoring():
    """Supplement: 'please don't forget that Leonardo occupies one space on the VP track':
    a player landing on it in final scoring moves forward; Leonardo scores no Thaler VP."""
    g = two(seats=[dict(track=10, thalers=4), dict(track=5, thalers=0)], leo=dict(track=12),
            final=True, side=2, fill=None, fresco={"A1": "3:YY"}, controller=0)
    plan_all(g, NOTHING, NOTHING)
    g.apply(0, "close I")
    assert g.is_over
    assert g.scores() == [13, 5, 12]


def test_this_array_remains_unchanged_for_the_rest_of_the_game_a_visits_position():
    """'1 each of his apprentices is placed on the top space of the market and cathedral
    columns. This array remains unchanged for the rest of the game' (R13). A position in phase
    visits may leave Leonardo's plan out: it is his fixed plan, and he closes a booth and
    restores a tile (before: refused); a plan that differs is refused naming his plan (before:
    loaded, and Leonardo went to the theater instead; rules notes N23)."""
    def visits(plan):
        return load(position(
            2, phase="visits", fresco={"C2": "3:YY", "A5": "3:YY"}, fill=None, booths=B3, controller=0,
            seats=[dict(getup="7:00", plan=[0, 0, 0, 0, 1]), dict(getup="8:00", plan=[0, 0, 0, 0, 1])],
            leonardo=dict(getup="6:00", plan=plan)))
    with pytest.raises(affresco.StateError, match=r"figures\[2\].plan.*fixed"):
        visits([0, 0, 0, 0, 1])
    g = visits(None)
    assert fig(g, LEO)["plan"] == [1, 1, 0, 0, 0]
    assert only_actor(g) == 0 and legal(g, 0) == {"close I", "close II", "close III"}
    g.apply(0, "close I")
    assert legal(g, 0) == {"restore C2"}
    g.apply(0, "restore C2")
    assert fig(g, LEO)["tiles"] == ["3:YY"]
