"""Scrolls (Russian edition, 'Свитки'; its 2-player note: Leonardo gets no scrolls; rulings
R6, R13, R17, R22)."""
from __future__ import annotations


import pytest

import affresco

from positions import (act, bishop, data, edit_state, fig, legal, module_game, mods, only_actor,  # noqa: E402
                       plan_all, portraits_state, scrolls_state, thalers, track)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 at the theater (9:00, last): keeps the round open
LEO = 2


def restored(*segs):
    return {s: None for s in segs}


def scroll_game(held, fresco, bishop_at="C3", paints_="YY", plan="0-1-0-0-0", thalers_=12, players=3,
                modules=("scrolls",), extra_state=None):
    """Seat 0 (7:00) holds ``held`` = (row, column) and visits the cathedral."""
    seats = [dict(getup="7:00", paints=paints_, thalers=thalers_), dict(getup="8:00"), dict(getup="9:00")]
    ms = {"scrolls": scrolls_state(players, {0: held})}
    ms.update(extra_state or {})
    g = module_game(players, modules=list(modules), modules_state=ms, fresco=fresco, bishop=bishop_at,
                    seats=seats)
    plan_all(g, plan, NOTHING, KEEP)
    return g


# ------------------------------------------------------------------------------ set-up
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(5))
def test_each_player_dealt_one_row_and_one_column_scroll(players, seed):
    """'Свитки', set-up: the scrolls are split by back into two piles, each shuffled; each
    player gets 1 scroll of each kind; the rest go back to the box. Leonardo gets none."""
    g = affresco.new_game(players=players, modules=("scrolls",), seed=seed)
    held = mods(g, "scrolls")
    assert len(held) == players                       # no entry for Leonardo
    rows = [h["row"] for h in held]
    cols = [h["column"] for h in held]
    assert all(r in range(1, 6) for r in rows) and all(c in "ABCDE" for c in cols)
    for seat in range(players):
        assert g.view(seat)["scrolls"]["mine"] == held[seat]
        assert g.view(seat)["scrolls"]["unplayed"] == [2] * players


@pytest.mark.parametrize("players", [2, 3, 4])
def test_scrolls_are_hidden_from_the_other_players(players):
    """'Свитки': the scrolls are kept behind the large screen / R22: a player's scrolls are
    private: changing them changes nothing another seat (or a spectator) sees."""
    g = affresco.new_game(players=players, modules=("scrolls",), seed=11)
    held = mods(g, "scrolls")

    def swap(d):
        for h in d["modules_state"]["scrolls"]:
            h["row"] = 6 - h["row"]
            h["column"] = "EDCBA"["ABCDE".index(h["column"])]

    h = edit_state(g, swap)
    assert mods(h, "scrolls") != held
    for viewer in list(range(1, players)) + [None]:
        v0, v1 = g.view(viewer), h.view(viewer)
        v0["scrolls"].pop("mine"), v1["scrolls"].pop("mine")
        assert v0 == v1
        other = g.view(viewer)["scrolls"]
        assert other["mine"] is None or other["mine"] == held[viewer]
    assert g.view(None)["scrolls"]["mine"] is None
    assert g.view(0)["scrolls"]["mine"] != h.view(0)["scrolls"]["mine"]


# ------------------------------------------------------------------ worked examples
def test_worked_example_both_scrolls_12_plus_9():
    """'Свитки' example: restoring the segment at the crossing of the row and the column on
    his scrolls, the player plays both: 12 VP for 4 restored segments in the row + 9 VP for 3
    in the column = 21 (3 VP each, the new segment counted in both) / R17."""
    fresco = restored("A3", "B3", "D3", "C1", "C2")
    fresco["C3"] = "3:YY"
    g = scroll_game((3, "C"), fresco, bishop_at="C3")
    g.apply(0, "restore C3")
    assert track(g, 0) == 3 + 3                       # tile + bishop on the segment
    assert only_actor(g) == 0
    assert legal(g, 0) == {"scroll none", "scroll row", "scroll column", "scroll both"}
    g.apply(0, "scroll both")
    assert track(g, 0) == 6 + 21
    assert mods(g, "scrolls")[0] == {"row": None, "column": None}


def test_worked_example_row_scroll_8():
    """'Свитки' example: had he played only his row scroll he would get 8 VP, 4 segments of
    that row being restored (2 VP each, the new one included) / R17."""
    fresco = restored("A3", "B3", "D3", "C1", "C2")
    fresco["C3"] = "3:YY"
    g = scroll_game((3, "C"), fresco, bishop_at="C3")
    g.apply(0, "restore C3")
    g.apply(0, "scroll row")
    assert track(g, 0) == 6 + 8
    assert mods(g, "scrolls")[0] == {"row": None, "column": "C"}   # the column scroll is kept


def test_column_scroll_alone():
    """R17: one scroll: 2 VP per restored segment of its line, this one included."""
    fresco = restored("C1", "C2")
    fresco["C3"] = "3:YY"
    g = scroll_game((3, "C"), fresco, bishop_at="C3")
    g.apply(0, "restore C3")
    g.apply(0, "scroll column")
    assert track(g, 0) == 6 + 6


def test_segments_restored_by_anyone_count():
    """'Свитки': it does not matter which player restored the segments of the line."""
    fresco = restored("A5", "B5", "C5", "D5")
    fresco["E5"] = "3:YY"
    g = scroll_game((5, None), fresco, bishop_at="E5")
    assert fig(g, 0)["tiles"] == []                   # none of them is seat 0's
    g.apply(0, "restore E5")
    g.apply(0, "scroll row")
    assert track(g, 0) == 6 + 10


def test_maximum_10_for_one_scroll():
    """'Свитки' / R17: up to 10 VP per scroll: restoring the last segment of the line."""
    fresco = restored("B1", "B2", "B3", "B4")
    fresco["B5"] = "3:YY"
    g = scroll_game((None, "B"), fresco, bishop_at="B5")
    g.apply(0, "restore B5")
    g.apply(0, "scroll column")
    assert track(g, 0) == 6 + 10


def test_maximum_30_for_both_scrolls():
    """'Свитки' / R17: with both scrolls up to 30 VP: the last segment of both lines (5 + 5
    restored, the crossing counted twice, 3 VP each)."""
    fresco = restored("A2", "B2", "C2", "E2", "D1", "D3", "D4", "D5")
    fresco["D2"] = "3:YY"
    g = scroll_game((2, "D"), fresco, bishop_at="D2")
    g.apply(0, "restore D2")
    g.apply(0, "scroll both")
    assert track(g, 0) == 6 + 30


# ----------------------------------------------------------- when a scroll may be played
def test_bishop_adjacent_no_scroll():
    """'Свитки' / R17: the bishop must stand on the restored segment; adjacent is not
    enough (no decision is asked)."""
    g = scroll_game((3, "C"), {"C3": "3:YY"}, bishop_at="C2")
    g.apply(0, "restore C3")
    assert track(g, 0) == 5
    assert data(g)["asks"] == []
    assert only_actor(g) == 2
    assert mods(g, "scrolls")[0] == {"row": 3, "column": "C"}


def test_bishop_far_away_no_scroll():
    """R17: no offer when the bishop is elsewhere."""
    g = scroll_game((3, "C"), {"C3": "3:YY"}, bishop_at="A5")
    g.apply(0, "restore C3")
    assert data(g)["asks"] == [] and only_actor(g) == 2


def test_bishop_moved_onto_the_segment_first():
    """'Свитки': to use a scroll the player must first move the bishop onto the segment being
    restored (if not already there) / R6, R17: the one-step move for 1 Thaler counts."""
    g = scroll_game((3, "C"), {"C3": "3:YY"}, bishop_at="C2")
    g.apply(0, "restore C3 bishop C3")
    assert thalers(g, 0) == 11 and track(g, 0) == 6
    assert legal(g, 0) == {"scroll none", "scroll row", "scroll column", "scroll both"}


def test_bishop_moved_off_the_segment_first():
    """R17: what counts is where the bishop stands at the restoration, after the move."""
    g = scroll_game((3, "C"), {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3 bishop C2")
    assert data(g)["asks"] == [] and only_actor(g) == 2


def test_sexton_move_onto_the_segment():
    """Supplement 'Sexton' + 'Свитки': the Sexton's move to any segment puts the bishop on the
    segment: the scroll may be played."""
    g = scroll_game((1, "A"), {"A1": "3:YY"}, bishop_at="E5", modules=("portraits", "scrolls"),
                    extra_state={"portraits": portraits_state(3, owned={0: ["sexton"]})})
    g.apply(0, "restore A1 sexton A1")
    assert legal(g, 0) == {"scroll none", "scroll row", "scroll column", "scroll both"}
    g.apply(0, "scroll row")
    assert track(g, 0) == 6 + 2


def test_scroll_line_must_contain_the_segment():
    """'Свитки': the segment must lie in the row or column of a scroll.  The player is still
    asked (only 'scroll none' is legal), so the others cannot tell the lines apart (R22)."""
    g = scroll_game((1, "A"), {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3")
    assert legal(g, 0) == {"scroll none"}
    g.apply(0, "scroll none")
    assert data(g)["asks"] == [] and only_actor(g) == 2 and track(g, 0) == 6


def test_only_the_matching_line_is_offered():
    """R17: in the row but not the column: only 'row' (or none); both only at the crossing."""
    g = scroll_game((3, "A"), {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3")
    assert legal(g, 0) == {"scroll none", "scroll row"}
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "scroll both")
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "scroll column")


def test_no_scroll_after_the_last_segment_of_its_line_was_restored():
    """'Свитки', 'Важно': 'a scroll cannot be played after the last segment of the row or column
    named on it has been restored'. Row 3 is complete; restoring B2 (column B) with the bishop
    on it, the holder of row 3 and column B may play only the column; the restoration that
    completes a line may still play its scroll (M8): there C3 completes column C and row 3 at once."""
    full_row = restored("A3", "B3", "C3", "D3", "E3")
    g = scroll_game((3, "B"), {**full_row, "B2": "3:YY"}, bishop_at="B2")
    g.apply(0, "restore B2")
    assert legal(g, 0) == {"scroll none", "scroll column"}
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "scroll row")
    g = scroll_game((3, "C"), {**restored("A3", "B3", "D3", "E3", "C1", "C2", "C4", "C5"), "C3": "3:YY"})
    g.apply(0, "restore C3")
    assert legal(g, 0) == {"scroll none", "scroll row", "scroll column", "scroll both"}
    g.apply(0, "scroll both")
    assert track(g, 0) == 3 + 3 + 30


def test_scroll_none_keeps_the_scrolls():
    """'Свитки': playing is optional; an unplayed scroll stays in hand for later."""
    g = scroll_game((3, "C"), {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3")
    g.apply(0, "scroll none")
    assert track(g, 0) == 6
    assert mods(g, "scrolls")[0] == {"row": 3, "column": "C"}


def test_played_scroll_leaves_the_game():
    """'Свитки': played scrolls are removed from the game: the next restoration in that row
    with the bishop on it offers only the column scroll (here: nothing)."""
    fresco = {"C3": "3:YY", "D3": "3:YY"}
    g = scroll_game((3, "C"), fresco, bishop_at="C3", paints_="YYYY", plan="0-2-0-0-0")
    g.apply(0, "restore C3")
    g.apply(0, "scroll row")
    assert track(g, 0) == 6 + 2
    assert g.view(1)["scrolls"]["unplayed"] == [1, 0, 0]
    g.apply(0, "restore D3 bishop D3")
    assert legal(g, 0) == {"scroll none"}          # the row scroll is gone; C is not D's column
    g.apply(0, "scroll none")
    assert track(g, 0) == 6 + 2 + 6


def test_scroll_decision_comes_before_the_next_action():
    """R17: the decision is taken right after the restoration; the visit then goes on."""
    g = scroll_game((3, "C"), {"C3": "3:YY", "A1": "3:YY"}, bishop_at="C3", paints_="YYYY",
                    plan="0-2-0-0-0")
    g.apply(0, "restore C3")
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore A1")
    g.apply(0, "scroll column")
    assert "restore A1" in legal(g, 0)


def test_other_players_are_never_asked():
    """'Свитки': only the restoring player plays scrolls."""
    ms = {"scrolls": scrolls_state(3, {0: (None, None), 1: (3, "C"), 2: (3, "C")})}
    seats = [dict(getup="7:00", paints="YY"), dict(getup="8:00"), dict(getup="9:00")]
    g = module_game(3, modules=["scrolls"], modules_state=ms, fresco={"C3": "3:YY"}, seats=seats)
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    g.apply(0, "restore C3")
    assert data(g)["asks"] == [] and only_actor(g) == 2


def test_unplayed_scrolls_score_nothing():
    """'Свитки': unplayed scrolls bring no points at the end of the game."""
    ms = {"scrolls": scrolls_state(3, {0: (1, "A"), 1: (2, "B"), 2: (3, "C")})}
    seats = [dict(getup="7:00", thalers=0), dict(getup="8:00", thalers=0), dict(getup="9:00", thalers=0)]
    g = module_game(3, modules=["scrolls"], modules_state=ms, seats=seats, final=True, side=2)
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.is_over
    assert g.scores() == [0, 0, 0]


# ---------------------------------------------------------------------------- Leonardo
def test_leonardo_has_no_scrolls_and_is_never_asked():
    """'Свитки', 2 players: Leonardo gets no scroll tokens; restoring the segment under the
    bishop he plays nothing."""
    seats = [dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2")]
    ms = {"scrolls": scrolls_state(2, {0: (3, "B"), 1: (3, "B")})}
    g = module_game(2, modules=["scrolls"], modules_state=ms, seats=seats,
                    leonardo=dict(getup="9:00", track="S3"), leonardo_painter="C3", bishop="B3",
                    fresco={"B3": "3:YY"}, fill="11:OGP", controller=0)
    plan_all(g, NOTHING, NOTHING)
    act(g, "close I")
    assert only_actor(g) == 0
    g.apply(0, "restore B3")
    assert track(g, LEO) == 6
    assert data(g)["asks"] == []
    assert len(mods(g, "scrolls")) == 2
    assert bishop(g) == "B3"


@pytest.mark.parametrize("viewer", [1, 2, None])
def test_the_scroll_decision_does_not_reveal_the_scrolls(viewer):
    """'Свитки' (scrolls behind the large screen) / R22: scrolls are private. After a
    restoration under the bishop by a player holding two unplayed scrolls (public), what the
    others see must not depend on whether those scrolls match the segment - or the mere
    pause for a decision tells them the row or column on a secret scroll."""
    views = []
    for held in ((3, "C"), (1, "A")):       # matching / not matching C3
        g = scroll_game(held, {"C3": "3:YY"}, bishop_at="C3")
        g.apply(0, "restore C3")             # seat 0's only cathedral action
        views.append(g.view(viewer))
    assert views[0] == views[1]
