"""Rulebook 'Cathedral: Restore the fresco or altar', 'Moving the bishop', 'The bishop's
bonus points', 'Restore the altar' (R6, R7, R8)."""
from __future__ import annotations


import random

import pytest

import affresco

from positions import (bishop, fig, game, legal, module_game, only_actor, paints, plan_all, thalers,  # noqa: E402
                       tile_at, track)

NEIGHBOURS_OF_C3 = ["B2", "C2", "D2", "B3", "D3", "B4", "C4", "D4"]


def cathedral_game(apprentices=1, fresco=None, bishop_at="C3", **seat0):
    """Seat 0 (7:00, on S1) visits the cathedral; seat 1 has a studio apprentice so the
    round stays open afterwards."""
    seat0.setdefault("getup", "7:00")
    g = game(3, seats=[seat0, dict(getup="8:00"), dict(getup="9:00")], fresco=fresco or {},
             bishop=bishop_at)
    plan_all(g, f"0-{apprentices}-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
    return g


def test_rulebook_example_tile_3_with_bishop_diagonal_scores_5():
    """Cathedral example: Red restores the tile valued 3, returning its paints; the bishop
    stands diagonally adjacent: +2, 5 VP in total. The tile goes face down in front of him
    and the bishop moves to the restored segment. Then he performs his 2nd action."""
    g = cathedral_game(apprentices=2, fresco={"B2": "3:RB"}, paints="RRYBB")
    g.apply(0, "restore B2")
    assert track(g, 0) == 5
    assert paints(g, 0) == "RYB"
    assert tile_at(g, "B2") is None
    assert fig(g, 0)["tiles"] == ["3:RB"]
    assert bishop(g) == "B2"
    assert only_actor(g) == 0          # his 2nd cathedral action


def test_bishop_on_the_segment_gives_3():
    """'The bishop's bonus points': bishop standing on the segment restored: +3."""
    g = cathedral_game(fresco={"C3": "11:OGP"}, paints="OGP")
    g.apply(0, "restore C3")
    assert track(g, 0) == 14
    assert paints(g, 0) == ""


@pytest.mark.parametrize("seg", NEIGHBOURS_OF_C3)
def test_bishop_adjacent_in_any_of_8_directions_gives_2(seg):
    """'The bishop's bonus points' / R6: bishop on a space adjacent vertically, horizontally
    or diagonally: +2."""
    g = cathedral_game(fresco={seg: "4:YYR"}, paints="RYY")
    g.apply(0, f"restore {seg}")
    assert track(g, 0) == 6
    assert bishop(g) == seg


@pytest.mark.parametrize("seg", ["A1", "C1", "E1", "A3", "E3", "A5", "C5", "E5", "B5", "D1"])
def test_bishop_further_away_gives_no_bonus(seg):
    """'The bishop's bonus points': no bonus when the bishop is neither on nor adjacent."""
    g = cathedral_game(fresco={seg: "4:YYR"}, paints="RYY")
    g.apply(0, f"restore {seg}")
    assert track(g, 0) == 4
    assert bishop(g) == seg


@pytest.mark.parametrize("have,tile", [("RYB", "3:YY"), ("YO", "3:YY"), ("RYG", "5:RYB"),
                                       ("RYB", "5:GR"), ("RYYB", "5:OY"), ("OGG", "11:OGP")])
def test_restoring_needs_exactly_the_paints_shown(have, tile):
    """'Restore a segment' / R6: the player must own the paint pieces shown on the tile; no
    substitution on fresco tiles (substitutes exist only at the altar)."""
    g = cathedral_game(fresco={"A1": tile}, paints=have)
    assert not any(a.startswith("restore") for a in legal(g, 0))
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore A1")
    assert g.to_json() == before
    assert tile_at(g, "A1") == tile
    assert paints(g, 0) == have


def test_restoring_with_paints_shown_and_no_more():
    """'Restore a segment': the requested paints return to the supply, the rest stays."""
    g = cathedral_game(fresco={"A1": "5:OY"}, paints="RYYBO")
    assert "restore A1" in legal(g, 0)
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore A2")  # the filler tile there needs paints he lacks
    g.apply(0, "restore A1")
    assert paints(g, 0) == "RYB"
    assert track(g, 0) == 5


def test_bishop_moves_one_step_for_one_thaler_before_restoring():
    """'Moving the bishop' / R6: before restoring, the player may move the bishop one space
    in any direction for 1 Thaler; the bonus counts from the bishop's new space."""
    g = cathedral_game(fresco={"D5": "3:YY"}, paints="YY")
    g.apply(0, "restore D5 bishop D4")
    assert thalers(g, 0) == 11
    assert track(g, 0) == 3 + 2
    assert bishop(g) == "D5"


def test_bishop_moved_onto_the_segment_gives_3():
    """'Moving the bishop' + bonus: move the bishop onto the segment, then restore: +3."""
    g = cathedral_game(fresco={"C4": "3:YY"}, paints="YY")
    g.apply(0, "restore C4 bishop C4")
    assert thalers(g, 0) == 11
    assert track(g, 0) == 6


def test_bishop_may_move_in_8_directions_but_only_one_step():
    """'Moving the bishop': one space, vertically, horizontally or diagonally; not 2."""
    g = cathedral_game(fresco={"A1": "3:YY"}, paints="YY")
    offered = legal(g, 0)
    for seg in NEIGHBOURS_OF_C3:
        assert f"restore A1 bishop {seg}" in offered
    before = g.to_json()
    for far in ("A1", "B1", "C1", "C5", "E3", "A5", "C3"):
        assert f"restore A1 bishop {far}" not in offered
        with pytest.raises(affresco.IllegalAction):
            g.apply(0, f"restore A1 bishop {far}")
    assert g.to_json() == before


def test_bishop_may_move_onto_a_restored_segment():
    """'Moving the bishop': the move may end on any segment, restored or not."""
    g = cathedral_game(fresco={"C2": None, "C1": "3:YY"}, paints="YY")
    g.apply(0, "restore C1 bishop C2")
    assert track(g, 0) == 5
    assert thalers(g, 0) == 11


def test_bishop_move_needs_a_thaler():
    """'Moving the bishop' costs 1 Thaler: without money it is refused."""
    g = cathedral_game(fresco={"D5": "3:YY"}, paints="YY", thalers=0)
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore D5 bishop D4")
    assert g.to_json() == before
    g.apply(0, "restore D5")
    assert track(g, 0) == 3


def test_bishop_can_be_moved_before_each_restoration():
    """R6: before EACH segment restoration the player may move the bishop once."""
    g = cathedral_game(apprentices=2, fresco={"A1": "3:YY", "E5": "3:RB"}, paints="RYYB")
    g.apply(0, "restore A1 bishop B2")     # B2 adjacent to A1: +2
    assert track(g, 0) == 5
    assert bishop(g) == "A1"
    g.apply(0, "restore E5 bishop B2")     # from A1 one step to B2: E5 far away: +0
    assert track(g, 0) == 8
    assert thalers(g, 0) == 10
    assert bishop(g) == "E5"


def test_second_restoration_counts_from_the_bishop_on_the_first():
    """Cathedral example step 4 / R6: after a restoration the bishop stands on the restored
    segment, which decides the bonus of the next restoration."""
    g = cathedral_game(apprentices=2, fresco={"C2": "3:YY", "C1": "3:RB"}, paints="RYYB")
    g.apply(0, "restore C2")    # bishop C3 adjacent: 3 + 2
    g.apply(0, "restore C1")    # bishop now C2, adjacent: 3 + 2
    assert track(g, 0) == 10
    assert bishop(g) == "C1"
    assert fig(g, 0)["tiles"] == ["3:YY", "3:RB"]


def test_one_restoration_per_cathedral_apprentice():
    """'Cathedral': each apprentice deployed there may restore one segment."""
    g = cathedral_game(apprentices=1, fresco={"C2": "3:YY", "C1": "3:YY"}, paints="YYYY")
    g.apply(0, "restore C2")
    assert only_actor(g) == 1            # seat 0's visit is over
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore C1")
    assert tile_at(g, "C1") == "3:YY"


def test_restored_segment_cannot_be_restored_again():
    """'Restore a segment': the tile is removed from the board."""
    g = cathedral_game(apprentices=2, fresco={"C2": "3:YY"}, paints="YYYY")
    g.apply(0, "restore C2")
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore C2")


# ---------------------------------------------------------------------- altar (R7)
@pytest.mark.parametrize("have,notation,vp", [
    ("RYB", "altar RYB", 2),       # basic paints: 2 VP
    ("RBG", "altar RBG", 3),       # example: 2 + 1 (green replaces yellow)
    ("OOG", "altar OOG", 5),       # example: 2 + 1 + 1 + 1
    ("OGP", "altar OGP", 6),       # example: 3 different blended paints: 6 VP
    ("RYO", "altar RYO", 3),
    ("RPG", "altar RPG", 4),
    ("OOO", "altar OOO", 5),       # R7: each of R, Y, B may be replaced ("even all")
    ("GGP", "altar GGP", 5),
])
def test_altar_worked_examples(have, notation, vp):
    """'Restore the altar' / R7: R, Y, B for 2 VP, each replaceable by a blended paint worth
    +1; or O, G, P for 6 VP. Examples: 3 VP, 5 VP, 6 VP."""
    g = cathedral_game(paints=have)
    g.apply(0, notation)
    assert track(g, 0) == vp
    assert paints(g, 0) == ""
    assert bishop(g) == "C3"        # the altar is not a fresco segment: no bishop move/bonus
    assert fig(g, 0)["tiles"] == []


@pytest.mark.parametrize("have,notation", [
    ("RRY", "altar RRY"), ("RYY", "altar RYY"), ("RRB", "altar RRB"), ("BBB", "altar BBB"),
    ("RRO", "altar RRO"), ("YYG", "altar YYG"),
])
def test_illegal_altar_sets_are_refused(have, notation):
    """R7: a basic colour may appear once (R, Y, B, or its blended substitute); sets like RRY
    are no altar restoration."""
    g = cathedral_game(paints=have + "RYB")
    before = g.to_json()
    assert notation not in legal(g, 0)
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, notation)
    assert g.to_json() == before


def test_altar_needs_the_paints_named():
    """'Restore the altar': the player returns the paints from behind his screen."""
    g = cathedral_game(paints="RYB")
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "altar OGP")
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "altar RYB RYB")


def test_altar_may_be_restored_by_several_apprentices():
    """R6: each cathedral apprentice restores a segment or the altar (the altar any number of
    times)."""
    g = cathedral_game(apprentices=3, paints="RYBOGPRBG")
    g.apply(0, "altar OGP")
    g.apply(0, "altar RYB")
    g.apply(0, "altar RBG")
    assert track(g, 0) == 6 + 2 + 3
    assert paints(g, 0) == ""


def test_altar_and_segment_in_one_visit():
    """'Cathedral': each apprentice chooses: a segment or the altar."""
    g = cathedral_game(apprentices=2, fresco={"C2": "3:YY"}, paints="RYYYB")
    g.apply(0, "restore C2")
    g.apply(0, "altar RYB")
    assert track(g, 0) == 5 + 2
    assert paints(g, 0) == ""


@pytest.mark.parametrize("modules", [(), ("special_colours",)])
def test_altar_restorations_offered_are_those_the_paints_held_pay_for(modules):
    """'Restore the altar': the player returns 3 paints from behind his screen, so the altar
    restorations offered are exactly the sets of the forms (R7; with the special colours, pink
    and brown as substitutes) that the paints held contain, whatever the holding: checked
    against the sets offered to a player holding 3 of every paint, for random holdings."""
    def altars(have: str) -> set[str]:
        seats = [dict(getup="7:00", paints=have), dict(getup="8:00"), dict(getup="9:00")]
        g = module_game(3, modules=list(modules), seats=seats, fresco={}) if modules else \
            game(3, seats=seats, fresco={})
        plan_all(g, "0-1-0-0-0", "0-0-0-0-0", "0-0-0-0-1")
        return {a for a in legal(g, 0) if a.startswith("altar ")}

    paints_ = "RYBOGPKN" if modules else "RYBOGP"
    every = altars("".join(c * 3 for c in paints_))
    assert len(every) > 20
    rng = random.Random(7)
    for _ in range(40):
        have = "".join(c * rng.choice((0, 0, 1, 1, 2, 3, 4)) for c in paints_)
        held = {c: have.count(c) for c in paints_}
        assert altars(have) == {a for a in every if all(a[6:].count(c) <= held[c] for c in a[6:])}, have
