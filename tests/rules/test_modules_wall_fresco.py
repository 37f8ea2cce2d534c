"""Module 9, 'The Wall Fresco' (modules 8-10 rulebook, pages 5-7; rulings R10, R13, R15, R21).

Every position is hand-written (the reference board is 4 x 5 with A4 and B4 restored, R21);
the tiles on the board are written into the positions, so no test depends on the random
layout of the reference edition.
"""
from __future__ import annotations

import json

import pytest

import affresco
from affresco.rules.actions import parse

from positions import (act, data, fig, legal, load, medico_state, module_game, module_position, mods, only_actor,  # noqa: E402
                       paints, plan_all, requests_state, thalers, track, wall_state)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 at the theater (9:00, last): keeps the round open
SEATS = [dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")]


def wall_game(players=3, seats=None, board=None, tiles=None, exchange=None, modules=("wall_fresco",),
              ms=None, supply=None, **kw):
    seats = [dict(s) for s in (seats or SEATS)][:players]
    state = {"wall_fresco": wall_state(players, board=board, tiles=tiles, exchange=exchange, supply=supply)}
    state.update(ms or {})
    return module_game(players, modules=list(modules), modules_state=state, seats=seats, **kw)


def walls(g, seat=0):
    return {a for a in legal(g, seat) if a.startswith("wall")}


def wall_view(g, seat=None):
    return g.view(seat)["wall_fresco"]


def board_at(g, section):
    return wall_view(g)["board"][int(section[1]) - 1]["ABCDE".index(section[0])]


# ------------------------------------------------------------------------- the board
def test_set_up_the_bottom_left_is_restored_and_each_section_covered_by_one_tile():
    """'The bottom left of the wall fresco has already been restored'; 'Mix the 18 wall fresco
    tiles ... Cover each segment of the small wall fresco board with one random wall fresco
    tile' (R21: 4 x 5 board, A4 and B4 restored)."""
    for seed in (1, 2):
        g = affresco.new_game(players=3, modules=("wall_fresco",), seed=seed)
        w = wall_view(g)
        cells = [t for row in w["board"] for t in row]
        assert w["board"][3][0] is None and w["board"][3][1] is None
        assert sum(t is not None for t in cells) == 18
        assert sorted(t for t in cells if t) == sorted(
            ["W:O/Y"] * 3 + ["W:O/R"] * 3 + ["W:G/Y"] * 3 + ["W:G/B"] * 3 + ["W:P/R"] * 3 + ["W:P/B"] * 3)
        assert w["tiles"] == [[], [], []] and w["exchange_tiles"] == [[], [], []]
        assert w["supply"] == {"G": 4, "O": 4, "P": 4}
        assert sorted(w["restorable"]) == ["A3", "B3", "C4"]


def test_a_section_can_be_restored_only_if_it_adjoins_a_restored_section_orthogonally():
    """'Unlike the ceiling fresco, the wall fresco must be restored contiguously ... a section
    can be restored only if it adjoins a restored section in an orthogonal direction': at the
    start A3, B3 and C4 (next to A4, B4), not C3 (diagonal) nor anything farther."""
    g = wall_game(seats=[dict(getup="7:00", paints="PP"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    assert walls(g) == {"wall A3", "wall B3", "wall C4"}
    with pytest.raises(affresco.IllegalAction, match="does not adjoin a restored section orthogonally"):
        g.apply(0, "wall C3")
    g.apply(0, "wall A3")
    # the newly restored A3 opens A2 for the next restoration
    assert sorted(wall_view(g)["restorable"]) == ["A2", "B3", "C4"]


def test_contiguity_follows_the_restored_sections_not_the_row():
    """Contiguity: a section far from the bottom left becomes restorable once a path of
    restored sections reaches it (here E1 next to a restored E2)."""
    board = {"E2": None, "D2": None, "C2": None, "C3": None, "C4": None}
    g = wall_game(board=board, seats=[dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall market", NOTHING, KEEP)
    assert {"wall E1", "wall D1", "wall C1", "wall E3", "wall D3", "wall B3"} <= walls(g)
    assert "wall A1" not in walls(g)


def test_the_sections_next_after_a_restoration_are_those_of_the_new_board():
    """The restorable sections kept from the board before a restoration (the section leaves,
    its covered neighbours join) are those the new board gives, read afresh, in random games."""
    import random
    from affresco.rules.hooks import find
    for seed in (1, 2, 3):
        g = affresco.new_game(3, modules=("wall_fresco",), seed=seed)
        choice = random.Random(seed).choice
        wall = find(g.state, "wall_fresco")
        at_start = g.state.mods["wall_fresco"].board.count(None)
        while not g.is_over:
            board = g.state.mods["wall_fresco"].board
            fresh = tuple(list(board))      # another object: not in the memo of frontiers
            assert wall.frontier(board) == wall.frontier(fresh)
            seat = choice(g.to_act)
            g.apply(seat, choice(g.legal_actions(seat)))
        assert g.state.mods["wall_fresco"].board.count(None) > at_start + 2   # restorations were made


# ------------------------------------------------------------- the wall action tile
def test_the_wall_tile_covers_one_location_and_no_apprentice_may_go_there():
    """'he must cover one location on his action sheet with the "wall fresco" action tile. The
    player cannot deploy apprentices to this covered location this round'."""
    g = wall_game()
    assert "plan 1-0-0-0-0 wall studio" in legal(g, 0)
    assert "plan 0-0-1-0-0 wall studio" not in legal(g, 0)
    with pytest.raises(affresco.IllegalAction, match="no apprentice may go to the studio column"):
        g.apply(0, "plan 0-0-1-0-0 wall studio")
    with pytest.raises(affresco.IllegalAction, match="the wall tile covers a column: market, cathedral"):
        g.apply(0, "plan 0-0-0-0-0 wall dungeon")
    g.apply(0, "plan 1-0-0-0-0 wall studio")
    assert data(g)["figures"][0]["plan"] == [1, 0, 0, 0, 0]
    assert mods(g, "wall_fresco")["action_tile"][0] == 2


def test_only_one_apprentice_on_the_wall_tile_and_it_counts_against_the_apprentices():
    """'Only one apprentice can be placed on this tile, and if the player wants to restore the
    wall fresco, he must place one there': the tile takes exactly one of the player's 5."""
    g = wall_game()
    assert "plan 2-2-0-0-0 wall studio" in legal(g, 0)      # 4 + 1 on the tile
    with pytest.raises(affresco.IllegalAction, match=r"uses 6 apprentices; you have 5"):
        g.apply(0, "plan 2-2-0-1-0 wall studio")


def test_the_placement_of_the_wall_tile_is_as_secret_as_the_plan():
    """R4/R22: the plan, and so where the wall tile lies, is secret until all plans are
    revealed; then it is public."""
    g = wall_game()
    g.apply(0, "plan 0-0-0-0-0 wall studio")
    assert wall_view(g, 0)["action_tile"] == ["studio", None, None]
    assert wall_view(g, 1)["action_tile"] == [None, None, None]
    assert wall_view(g, None)["action_tile"] == [None, None, None]
    g.apply(1, "plan 0-1-0-0-0")
    g.apply(2, "plan " + KEEP)
    assert wall_view(g, 1)["action_tile"] == ["studio", None, None]


def test_the_wall_action_takes_place_in_player_order_at_the_time_of_the_covered_action():
    """'This action takes place in the given player order at the time of the covered action':
    seat 1 (8:00) covers the studio; seat 0 (7:00) visits the studio before him, seat 2 (9:00)
    after him; the cathedral before comes first."""
    seats = [dict(getup="7:00"), dict(getup="8:00", paints="P"), dict(getup="9:00")]
    g = wall_game(seats=seats)
    plan_all(g, "0-0-1-0-0", "0-0-0-0-0 wall studio", "0-1-1-0-0")
    assert g.to_act == (2,) and g.view(None)["location"] == "cathedral"
    g.apply(2, "pass")
    assert g.to_act == (0,) and g.view(None)["location"] == "studio"
    g.apply(0, "studio")
    assert g.to_act == (1,) and legal(g, 1) == {"pass", "wall A3", "wall B3", "wall C4"}
    g.apply(1, "wall C4")
    assert g.to_act == (2,) and "studio" in legal(g, 2)


def test_a_wall_visit_without_anything_to_restore_is_forfeited():
    """Rulebook 'Performing actions': a visit that cannot do anything is forfeited: without the
    paint for any restorable section the apprentice on the wall tile does nothing; the player
    passes himself (rules notes N2: the same public trace as a chosen pass, R22)."""
    g = wall_game(seats=[dict(getup="7:00", paints="RYB"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall market", NOTHING, KEEP)
    assert g.to_act == (0,) and legal(g, 0) == {"pass"}
    g.apply(0, "pass")
    assert g.to_act == (2,) and g.view(None)["location"] == "theater"
    assert wall_view(g)["tiles"][0] == []


def test_the_wall_tile_may_cover_the_second_cathedral_of_the_final_round():
    """R1: in the final round the theater column is a second cathedral, written 'cathedral2';
    the wall tile may cover any location, that one included."""
    g = wall_game(final=True, side=2, seats=[dict(getup="7:00", paints="O"), dict(getup="8:00"), dict(getup="9:00")],
                  board={"A3": "W:O/Y"})
    assert "plan 0-1-0-0-0 wall cathedral2" in legal(g, 0)
    plan_all(g, "0-0-0-0-0 wall cathedral2", NOTHING, NOTHING)
    seat = only_actor(g)
    assert seat == 0 and g.view(None)["column"] == 4
    g.apply(0, "wall A3")
    assert g.is_over
    assert track(g, 0) == 4 + 6        # 4 VP, then 12 Thalers = 6 VP in the final scoring


# --------------------------------------------------------------------- restoring
def test_worked_example_a_wall_section_for_one_purple_and_4_vp():
    """Example: 'Red pays one purple paint and takes the corresponding tile. He immediately
    gains 4 VP and keeps the tile in front of his large screen back side up.'"""
    g = wall_game(board={"A3": "W:P/R"}, seats=[dict(getup="7:00", paints="PY"), dict(getup="8:00"),
                                                  dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    g.apply(0, "wall A3")
    assert paints(g, 0) == "Y"
    assert track(g, 0) == 4
    assert board_at(g, "A3") is None
    assert wall_view(g, 1)["tiles"][0] == ["W:P/R"]            # back side up: public
    assert wall_view(g, 1)["paid"] == ["P", "", ""]           # what the wall cost: public
    assert thalers(g, 0) == 12


def test_restoring_returns_the_paint_shown_on_the_tile():
    """'the player returns the required paint on the selected tile': a green tile needs green;
    with only purple it is refused, and the refusal says what is legal."""
    g = wall_game(board={"A3": "W:G/Y", "B3": "W:P/B", "C4": "W:O/R"},
                  seats=[dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    assert walls(g) == {"wall B3"}
    with pytest.raises(affresco.IllegalAction, match=r"wall section A3 needs G.*legal now: pass, wall B3"):
        g.apply(0, "wall A3")
    assert paints(g, 0) == "P" and board_at(g, "A3") == "W:G/Y"


def test_the_wall_score_is_its_own_move_on_the_track():
    """R8: 'scores 4 VP, recording them on the victory point track immediately': one move,
    with the choice behind/ahead when the space is taken."""
    seats = [dict(getup="7:00", paints="P", track=1), dict(getup="8:00", track=5), dict(getup="9:00")]
    g = wall_game(seats=seats, board={"A3": "W:P/R"})
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    g.apply(0, "wall A3")
    assert legal(g, 0) == {"track behind", "track ahead"}
    g.apply(0, "track ahead")
    assert track(g, 0) == 6


# ------------------------------------------------------------------------- income
def test_worked_example_wall_income_one_cube_of_each_basic_colour_shown():
    """Example: 'Green owns 1 red, 1 blue, and 2 yellow wall fresco tiles, earning 1 paint cube
    each of the basic paints' ('at most 1 cube of each color')."""
    g = wall_game(tiles={1: ["W:P/R", "W:G/B", "W:G/Y", "W:O/Y"]},
                  seats=[dict(getup="7:00"), dict(getup="8:00", paints=""), dict(getup="9:00")])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert data(g)["round"] == 2
    assert paints(g, 1) == "RYB"
    assert thalers(g, 1) == 12                                    # wall tiles pay no Thalers (R10)
    assert wall_view(g, 0)["received"] == ["", "RYB", ""]        # the wall income is public


def test_each_exchange_tile_pays_one_cube_of_its_blend():
    """'He also receives 1 cube of the blended color - purple, orange or green - for each
    exchange tile he owns.'"""
    g = wall_game(tiles={0: ["W:O/Y"]}, exchange={0: "GP"},
                  seats=[dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert paints(g, 0) == "YGP"


def test_income_only_in_following_rounds_and_never_after_the_final_round():
    """'A player earns income ... during preparation of all following game rounds' (R10: no
    income after the final round)."""
    g = wall_game(final=True, side=2, tiles={0: ["W:O/Y"]}, exchange={0: "G"},
                  seats=[dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.is_over and paints(g, 0) == ""


def test_the_wall_action_tile_is_removed_at_round_preparation():
    """'If needed, the players remove the "wall fresco" action tile from their action sheet.'"""
    g = wall_game(seats=[dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall theater", NOTHING, NOTHING)
    g.apply(0, "wall A3")
    assert data(g)["round"] == 2
    assert mods(g, "wall_fresco")["action_tile"] == [-1, -1, -1]
    assert paints(g, 0) == "R"                                     # the new tile's income


# ----------------------------------------------------------------- the workshop
def test_worked_example_exchange_blue_and_yellow_for_the_green_exchange_tile():
    """Example: 'Red trades his blue and yellow wall fresco tile for the corresponding green
    exchange tile' - instead of blending ('Instead of blending paints 1 or 2 times')."""
    g = wall_game(tiles={0: ["W:G/B", "W:O/Y", "W:O/Y"]},
                  seats=[dict(getup="7:00", paints="RY"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    assert "exchange W:G/B W:O/Y" in legal(g, 0) and "blend O" in legal(g, 0)
    g.apply(0, "exchange W:O/Y W:G/B")                           # either order
    w = wall_view(g)
    assert w["tiles"][0] == ["W:O/Y"] and w["exchange_tiles"][0] == ["G"]
    assert w["supply"] == {"G": 3, "O": 4, "P": 4}
    assert paints(g, 0) == "RY"                                   # no blend left for this apprentice
    assert g.to_act == (2,)


def test_an_exchange_takes_two_tiles_of_two_different_basic_paints():
    """'The player discards 2 tiles of 2 different basic paints': two yellow backs do not
    exchange."""
    g = wall_game(tiles={0: ["W:O/Y", "W:G/Y"]}, seats=[dict(getup="7:00", paints=""), dict(getup="8:00"),
                                                         dict(getup="9:00")])
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    assert legal(g, 0) == {"pass"}                # nothing to do at the workshop: a forced pass (N2)
    g2 = wall_game(tiles={0: ["W:O/Y", "W:G/Y"]}, seats=[dict(getup="7:00", paints="RY"), dict(getup="8:00"),
                                                          dict(getup="9:00")])
    plan_all(g2, "0-0-0-1-0", NOTHING, KEEP)
    assert not any(a.startswith("exchange") for a in legal(g2, 0))
    with pytest.raises(affresco.IllegalAction, match="an exchange takes 2 wall tiles of 2 different basic colours"):
        g2.apply(0, "exchange W:O/Y W:G/Y")      # (session 22: its own reason, not 'not an action of the visit')


def test_each_player_can_acquire_only_one_exchange_tile_of_each_blended_colour():
    """'Each player can acquire only 1 exchange tile of each blended color.'"""
    g = wall_game(tiles={0: ["W:G/B", "W:O/Y", "W:P/R", "W:O/R"]}, exchange={0: "G"},
                  seats=[dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-2-0", NOTHING, KEEP)
    assert {a for a in legal(g, 0) if a.startswith("exchange")} == {
        "exchange W:G/B W:P/R", "exchange W:G/B W:O/R",           # B+R: purple
        "exchange W:O/Y W:P/R", "exchange W:O/R W:O/Y"}           # Y+R: orange (Y+B green: owned)
    with pytest.raises(affresco.IllegalAction, match="already have the G exchange tile"):
        g.apply(0, "exchange W:G/B W:O/Y")
    g.apply(0, "exchange W:G/B W:P/R")                           # purple
    assert {a for a in legal(g, 0) if a.startswith("exchange")} == {"exchange W:O/R W:O/Y"}   # orange
    g.apply(0, "exchange W:O/Y W:O/R")
    assert wall_view(g)["exchange_tiles"][0] == ["O", "G", "P"]


def test_an_exchange_needs_an_apprentice_who_has_not_begun_blending():
    """'Instead of blending': once the only workshop apprentice has blended, no exchange (M5)."""
    g = wall_game(tiles={0: ["W:G/B", "W:O/Y"]}, seats=[dict(getup="7:00", paints="RYRY"), dict(getup="8:00"),
                                                         dict(getup="9:00")])
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    g.apply(0, "blend O")
    assert not any(a.startswith("exchange") for a in legal(g, 0))


# ------------------------------------------------------------- with the requests
def test_wall_tiles_count_like_fresco_tiles_for_requests():
    """'These tiles can be used just like the fresco tiles of the basic game - and combined
    with them - to fulfill request tiles' (R15): a purple request with two fresco tiles and a
    wall tile with a purple splash; the wall tile is stacked and pays no more income."""
    ms = {"requests": requests_state(3, stacks={"general": [6], "orange": [8], "green": [8], "purple": [10]})}
    g = wall_game(modules=("requests", "wall_fresco"), ms=ms, tiles={0: ["W:P/R", "W:O/Y"]},
                  seats=[dict(getup="7:00", paints="", tiles=["5:PY", "7:GP"]), dict(getup="8:00"),
                         dict(getup="9:00")])
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    assert "request purple W:P/R 5:PY 7:GP" in legal(g, 0)
    assert "request general W:O/Y W:P/R 5:PY" in legal(g, 0)
    assert not any("purple" in a and "W:O/Y" in a for a in legal(g, 0))
    g.apply(0, "request purple 5:PY 7:GP W:P/R")                # any order
    assert track(g, 0) == 10
    assert wall_view(g)["tiles"][0] == ["W:O/Y"] and fig(g, 0)["tiles"] == []
    assert mods(g, "requests")["fulfilled"][0] == [["purple", 10, ["W:P/R", "5:PY", "7:GP"]]]
    again = affresco.Game.from_json(g.to_json())
    assert again.to_json() == g.to_json()
    act(g, "theater")
    # income: the request's Thaler and purple; the wall income only from the yellow tile left
    assert thalers(g, 0) == 13 and paints(g, 0) == "YP"


def test_request_income_is_separate_from_wall_income():
    """'The paint income gained from fulfilling request tiles is separate from the income gained
    from wall fresco tiles': a general request's yellow comes on top of the wall tile's yellow
    (the limit of one cube per colour is the wall tiles' own)."""
    ms = {"requests": requests_state(3, fulfilled={0: [["general", 6, ["3:YY", "3:YY", "3:YY"]]]})}
    g = wall_game(modules=("requests", "wall_fresco"), ms=ms, tiles={0: ["W:O/Y", "W:G/Y"]},
                  seats=[dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    g.apply(0, "income Y")
    assert paints(g, 0) == "YY"


# ------------------------------------------------------------------ two players
def test_leonardo_does_not_restore_the_wall_fresco():
    """2-player game: 'Leonardo does not restore the wall fresco' (R13): no wall tile for him,
    nothing on the wall in his plan, no wall tiles."""
    g = wall_game(players=2, seats=[dict(getup="7:00", paints="P"), dict(getup="8:00")])
    plan_all(g, "0-0-0-0-0 wall theater", "0-0-0-0-1")
    w = wall_view(g)
    assert len(w["tiles"]) == 2 and len(w["action_tile"]) == 2
    assert data(g)["figures"][2]["plan"] == [1, 1, 0, 0, 0]
    while g.to_act and data(g)["round"] == 1:
        seat = only_actor(g)
        acts = sorted(legal(g, seat))
        assert not any(a.startswith("wall") for a in acts) or seat == 0
        g.apply(seat, "wall A3" if "wall A3" in acts else acts[0])
    assert wall_view(g)["tiles"] == [["W:P/R"], []]


# ------------------------------------------------------------ notation, saving
def test_every_new_decision_is_notation_that_round_trips():
    """Notation (docs/notation.md): plans with the wall tile, 'wall <section>', 'exchange <tile>
    <tile>' read back to themselves; case and order do not matter."""
    for text in ("plan 1-0-2-1-0 wall theater", "plan 0-1-0-0-0 wall cathedral2", "wall A3",
                 "exchange W:G/B W:O/Y", "exchange W:O/Y/G W:P/R"):
        assert str(parse(text)) == text
        assert str(parse(str(parse(text)))) == text
    assert str(parse("plan 10210 WALL Theater")) == "plan 1-0-2-1-0 wall theater"
    assert str(parse("exchange w:o/y w:g/b")) == "exchange W:G/B W:O/Y"
    assert str(parse("wall a3")) == "wall A3"


def test_every_legal_wall_action_round_trips_in_a_game():
    g = wall_game(tiles={0: ["W:G/B", "W:O/Y"]}, seats=[dict(getup="7:00", paints="PPOG"), dict(getup="8:00"),
                                                         dict(getup="9:00")])
    for a in g.legal_actions(0):
        assert parse(str(a)) == a
    plan_all(g, "0-0-0-1-0 wall cathedral", NOTHING, KEEP)
    for a in g.legal_actions(0):
        assert parse(str(a)) == a


def test_save_and_load_keep_the_wall_and_validate_it():
    """State format (docs/state-format.md, modules_state.wall_fresco): saved and loaded the same;
    bad values are refused with the field named."""
    g = wall_game(tiles={1: ["W:G/B"]}, exchange={2: "O"}, seats=[dict(getup="7:00", paints="P"),
                                                                 dict(getup="8:00"), dict(getup="9:00")])
    g.apply(0, "plan 0-0-0-0-0 wall studio")
    text = g.to_json()
    again = affresco.Game.from_json(text)
    assert again.to_json() == text
    d = json.loads(text)

    def refused(edit, match):
        e = json.loads(text)
        edit(e["modules_state"]["wall_fresco"])
        with pytest.raises(affresco.StateError, match=match):
            affresco.Game.from_json(json.dumps(e))

    refused(lambda w: w["board"][0].__setitem__(0, "W:X/R"), "a wall tile is written")
    refused(lambda w: w["board"][3].__setitem__(0, "W:P/R"), "restored from the start")
    refused(lambda w: w["board"].pop(), "4 rows of 5 sections")
    refused(lambda w: w.__setitem__("exchange_tiles", ["GG", "", "O"]), "at most one exchange tile of each blend")
    refused(lambda w: w.__setitem__("action_tile", [9, -1, -1]), "a column 0..4 per seat or -1")
    refused(lambda w: w.__setitem__("supply", {"O": -1, "G": 4, "P": 4}), "exchange tiles left per blend")
    # a wall tile on a column where the plan has apprentices
    e = json.loads(text)
    e["figures"][0]["plan"] = [0, 0, 1, 0, 0]
    with pytest.raises(affresco.StateError, match="no apprentice may be planned in the column"):
        affresco.Game.from_json(json.dumps(e))
    assert d["modules_state"]["wall_fresco"]["action_tile"] == [2, -1, -1]


# ---------------------------------------------------------------------- components
def _component_file(edit):
    import tomllib
    from importlib import resources
    base = tomllib.loads(resources.files("affresco.rules").joinpath("data/base.toml").read_text())
    wall = tomllib.loads(resources.files("affresco.rules").joinpath("data/wall_fresco.toml").read_text())
    edit(wall)
    base["wall_fresco"] = wall
    return base


def test_a_user_component_file_replaces_the_wall_tiles():
    """Components: a user file with its own wall_fresco table (provenance on each entry) is
    used instead of the reference edition."""
    def edit(w):
        w["tiles"] = [{"paint": "P", "income": "R", "count": 18, "provenance": "printed: my copy"}]
    g = affresco.new_game(players=3, modules=("wall_fresco",), seed=1, components=_component_file(edit))
    assert {t for row in wall_view(g)["board"] for t in row if t} == {"W:P/R"}


@pytest.mark.parametrize("edit, match", [
    (lambda w: w.__setitem__("vp_per_section", 5), "prints 4 VP"),
    (lambda w: w["tiles"][0].__setitem__("count", 2), "17 tiles: the module has 18"),
    (lambda w: w["tiles"][0].__setitem__("paint", "R"), "the front shows blended paint"),
    (lambda w: w["tiles"][0].__setitem__("income", "O"), "the back shows a basic paint"),
    (lambda w: w["tiles"][0].__setitem__("provenance", "guess"), "must start with 'printed' or 'reconstructed'"),
    (lambda w: w["board"].__setitem__("restored", ["A1", "B1"]), "bottom-left section A4"),
    (lambda w: w["exchange"].__setitem__("O", 3), "printed are 4 each"),
])
def test_the_wall_component_table_is_validated(edit, match):
    """Components (components.md 'Constraints'): 18 wall tiles, 4 VP, 12 exchange tiles, the
    restored bottom left, blended fronts and basic backs, provenance."""
    with pytest.raises(affresco.ComponentError, match=match):
        affresco.new_game(players=3, modules=("wall_fresco",), seed=1, components=_component_file(edit))


# ------------------------------------------------------------------------ terminal
def test_the_terminal_shows_the_wall_board_and_the_players_wall_tiles():
    """Terminal ('affresco play', render): the wall board with each section's paint and income,
    the restorable sections, each player's wall and exchange tiles, and how to plan the tile."""
    from rich.console import Console

    from affresco.cli import render
    g = wall_game(board={"A3": "W:P/R", "C4": "W:G/B"}, tiles={1: ["W:O/Y", "W:G/B"]}, exchange={1: "O"})
    console = Console(record=True, width=140)
    console.print(render.board(g.view(0)))
    console.print(render.plan_panel(g.view(0), 0, []))
    text = console.export_text()
    assert "Wall fresco (4 VP a section)" in text
    assert "P→R ✓" in text and "G→B ✓" in text and "restored" in text
    assert "P1: Y B  exchange O" in text
    assert "wall <column>" in text
    assert "wall_fresco:" not in text              # drawn by its own table, not the generic panel


# ------------------------------------------------------- with the other modules
def test_a_wall_restoration_is_not_a_ceiling_restoration():
    """W5: the wall is its own board: restoring a section moves no bishop, gives no bishop
    bonus, favour token or scroll question, and pink/brown never pay for it (the option
    special_colours_on_fresco names the ceiling's fresco tiles)."""
    from positions import favour_state, scrolls_state
    ms = {"scrolls": scrolls_state(3, {0: (3, "C")}), "bishops_favour": favour_state(["vp:1"] * 25)}
    g = wall_game(modules=("special_colours", "scrolls", "bishops_favour", "wall_fresco"), ms=ms,
                  options={"special_colours_on_fresco": True}, board={"A3": "W:P/R", "B3": "W:O/Y", "C4": "W:G/B"},
                  seats=[dict(getup="7:00", paints="PK"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    assert walls(g) == {"wall A3"}                                # K does not pay for the orange B3
    g.apply(0, "wall A3")
    d = data(g)
    assert d["asks"] == [] and d["bishop"] == "C3"
    assert track(g, 0) == 4 and paints(g, 0) == "K"
    assert g.to_act == (2,)


def test_the_wall_state_is_public_except_other_seats_secret_tile_placements():
    """R22: the board, the wall and exchange tiles are public; where another seat's wall tile
    lies is secret while plans are: state_from_view (for determinizations) rebuilds the saved
    state from a seat's view, the secret placements left off."""
    from affresco.rules.modules.wall_fresco import state_from_view
    g = wall_game(tiles={1: ["W:G/B"]}, exchange={2: "O"})
    g.apply(0, "plan 0-0-0-0-0 wall studio")
    g.apply(1, "plan 0-0-0-0-0 wall market")
    saved = mods(g, "wall_fresco")
    seen = state_from_view(g.view(0), 0)
    assert seen["action_tile"] == [2, -1, -1] and saved["action_tile"] == [2, 0, -1]
    assert {k: v for k, v in seen.items() if k != "action_tile"} == \
        {k: v for k, v in saved.items() if k != "action_tile"}
    g.apply(2, "plan " + KEEP)
    assert state_from_view(g.view(2), 2) == mods(g, "wall_fresco")


# -------------------------------------------------------------------------- events
def test_wall_events_and_the_wall_vp_source():
    """docs/events.md: the wall emits structured events (no English for other layers): where
    the tile lies once plans are revealed, the restoration and its one score move with VP source
    `wall`, the exchange, the income; each renders in EN, FR and RU."""
    from affresco.i18n import render_event
    g = wall_game(board={"A3": "W:P/R"}, tiles={0: ["W:G/B", "W:O/Y"]},
                  seats=[dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-1-0 wall cathedral", NOTHING, NOTHING)
    g.apply(0, "wall A3")
    g.apply(0, "exchange W:G/B W:O/Y")
    assert g.round == 2
    ev = [e for e in g.events(1) if e["kind"].startswith("wall") or e.get("for") == "wall"]
    assert [e["kind"] for e in ev] == ["wall_tile", "wall_restore", "score", "wall_exchange", "wall_income"]
    assert ev[0]["column"] == "cathedral" and ev[0]["figure"] == 0
    assert ev[1]["section"] == "A3" and ev[1]["tile"] == "W:P/R" and ev[1]["paid"] == "P"
    assert ev[2]["sources"] == {"wall": 4} and ev[2]["vp"] == 4
    assert ev[3]["tiles"] == ["W:G/B", "W:O/Y"] and ev[3]["exchange"] == "G"
    assert ev[4]["paints"] == "RG"
    assert g.vp_sources()[0].get("wall") == 4
    for lang in ("en", "fr", "ru"):
        for e in ev:
            text = render_event(e, g.names, lang)
            assert not text.startswith(e["kind"] + " "), (lang, text)    # a template exists
    assert render_event(ev[0], g.names, "en") == "P0 covers the cathedral with the wall fresco tile"
    assert render_event(ev[2], g.names, "en") == "P0 scores 4 VP for wall section A3"
    # the placement is not an event before the reveal: nothing in another seat's events
    h = wall_game()
    h.apply(0, "plan 0-0-0-0-0 wall studio")
    assert not any(e["kind"] == "wall_tile" for e in h.events(1))
    assert any(e["kind"] == "wall_tile" and e["column"] == "studio" for e in h.events(0))   # its own, private


# ------------------------------------------------------------- with the medico (module 10)
def medico_wall_game(sick: int, **kw):
    from positions import medico_state
    return wall_game(modules=("wall_fresco", "medico"), ms={"medico": medico_state(3, sick={0: sick})}, **kw)


def test_with_the_medico_an_ill_apprentice_is_never_the_one_on_the_wall_tile():
    """Medico: 'Black apprentice tokens cannot be placed on the action tiles for ... the Wall
    Fresco': the wall tile's apprentice (``placed_off_sheet``) is counted among the healthy
    ones, so a plan whose only way to place everybody is an ill apprentice on the wall tile
    is refused, and every legal wall plan leaves a healthy apprentice for the tile (checked
    against the medico's public count of healthy apprentices)."""
    g = medico_wall_game(sick=1, seats=[dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")])
    healthy = g.view(0)["medico"]["healthy"][0]
    assert healthy == 4 and g.view(0)["medico"]["ill"][0] == 1
    # 4 in the columns + 1 on the tile: the ill one must be named in a column, not left for the tile
    with pytest.raises(affresco.IllegalAction, match="needs 5 healthy apprentices; you have 4"):
        g.apply(0, "plan 0-2-1-1-0 wall theater")
    for text in legal(g, 0):
        words = text.split()[2:]
        if "wall" not in words:
            continue
        counts = [int(x) for x in text.split()[1].split("-")]
        ill = [int(x) for x in words[words.index("ill") + 1].split("-")] if "ill" in words else [0] * 5
        assert sum(counts) - sum(ill) + 1 <= healthy, text
    assert "plan 0-2-1-1-0 wall theater ill 0-1-0-0-0" in legal(g, 0)
    assert str(parse("plan 0-2-1-1-0 ill 0-1-0-0-0 wall theater")) == "plan 0-2-1-1-0 wall theater ill 0-1-0-0-0"
    g.apply(0, "plan 0-2-1-1-0 ill 0-1-0-0-0 wall theater")   # any word order
    g.apply(1, "plan " + NOTHING)
    g.apply(2, "plan " + NOTHING)
    assert mods(g, "wall_fresco")["action_tile"][0] == 4


def test_with_the_medico_the_wall_restoration_happens_at_the_covered_column():
    """The wall tile's turn comes at the covered column in get-up order, with the medico in
    play as without it (the medico's visit hooks and the wall's share ``visit_start``)."""
    g = medico_wall_game(sick=0, board={"A3": "W:P/R"},
                         seats=[dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    assert "wall A3" in walls(g)
    g.apply(0, "wall A3")
    assert wall_view(g)["tiles"][0] == ["W:P/R"] and g.vp_sources()[0].get("wall") == 4


def test_with_the_medico_the_apprentice_on_the_wall_tile_does_not_fall_ill_at_an_infected_covered_column():
    """Wall fresco: 'The player cannot deploy apprentices to this covered location this round as
    he's working on the wall fresco instead'; medico: 'all players who have deployed at least
    one apprentice here are affected' (rules notes W14): the cathedral is infected, seat 0's wall
    tile covers the cathedral column with its apprentice and no one else: nobody falls ill."""
    from positions import medico_state
    g = wall_game(modules=("wall_fresco", "medico"), board={"A3": "W:P/R"},
                  ms={"medico": medico_state(3, pile=["cathedral", "cathedral"])},
                  seats=[dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    assert mods(g, "medico")["infected"] == "cathedral"
    g.apply(0, "wall A3")
    assert mods(g, "medico")["sick"] == [0, 0, 0] and mods(g, "medico")["ill"] == [0, 0, 0]
    assert not any(e["kind"] == "medico_ill" for e in g.events())


def test_a_game_waiting_on_the_wall_visit_survives_save_and_load():
    """The wall ask (at the covered column's turn) is saved with the game and accepted on load
    (asks are checked by their module); a forged wall ask for a seat without the tile is refused."""
    g = wall_game(seats=[dict(getup="7:00", paints="PP"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    d = json.loads(g.to_json())
    assert d["asks"] == [[0, "wall_fresco", "wall"]]
    h = affresco.Game.from_json(g.to_json())
    assert legal(h, 0) == legal(g, 0)
    d["asks"] = [[1, "wall_fresco", "wall"]]
    with pytest.raises(affresco.StateError, match="asks"):
        affresco.Game.from_json(json.dumps(d))


def test_a_wall_visit_leaves_the_same_public_trace_whatever_the_players_paints():
    """R22 and rules notes N2: a player who cannot pay for any section is still asked at the
    wall tile's turn and passes himself, as one who chooses not to; skipping him would show the
    others that he holds no paint for any section next to a restored one."""
    def public_trace(paints_):
        g = wall_game(seats=[dict(getup="7:00", paints=paints_), dict(getup="8:00"), dict(getup="9:00")])
        plan_all(g, "0-0-0-0-0 wall market", NOTHING, KEEP)
        asked = g.to_act
        if "pass" in legal(g, 0) and asked == (0,):
            g.apply(0, "pass")
        return asked, g.to_act, g.view(1, log=True)["events"][-3:]
    poor, rich_ = public_trace("RYB"), public_trace("RYBP")
    assert poor[0] == (0,) and poor == rich_


def test_a_record_written_before_the_forced_wall_pass_still_replays():
    """A record made when the wall visit was skipped for a player who could not pay (before W2
    asked it of him) lacks his forced pass: replaying makes it, as for a /1 record (N2)."""
    g = wall_game(seats=[dict(getup="7:00", paints="RYB"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-0 wall market", NOTHING, KEEP)
    g.apply(0, "pass")                      # the forced pass (W2)
    g.apply(2, "theater")
    record = g.record()
    old = dict(record, actions=[a for a in record["actions"] if a != [0, "pass"]])
    assert len(old["actions"]) == len(record["actions"]) - 1
    assert affresco.replay(old).to_json() == g.to_json()
    with pytest.raises(affresco.StateError, match="illegal"):     # anything else is still refused
        affresco.replay(dict(record, actions=record["actions"][:-1] + [[1, "theater"]]))


@pytest.mark.parametrize("phase", ["plan", "visits"])
def test_only_one_apprentice_on_the_wall_tile_and_it_counts_against_the_apprentices_a_position(phase):
    """'Only one apprentice can be placed on this tile' and it is one of the player's: a
    hand-written position whose committed plan has 5 apprentices in the columns and the wall
    tile (``action_tile``) holds 6, one more than the player's 5. Written without the neutral
    apprentice it is refused naming the plan (before, the loader counted the columns only and
    the player acted with 6; rules notes N25); in phase visits, left out, the sixth is the
    neutral apprentice taken at this round's get-up (N21)."""
    plans = [[1, 2, 0, 1, 1], [0, 0, 0, 0, 1], [0, 0, 0, 0, 1]] if phase == "visits" else [[1, 2, 0, 1, 1]]
    seats = [dict(s, plan=p) for s, p in zip(SEATS, plans + [None] * 3)]
    pos = module_position(3, phase=phase, modules=["wall_fresco"], seats=seats,
                          modules_state={"wall_fresco": wall_state(3, action_tile={0: 2})})
    with pytest.raises(affresco.StateError, match=r"figures\[0\]\.plan: \[1, 2, 0, 1, 1\] and 1 on an action tile "
                                                  r"uses more apprentices"):
        load(pos)
    pos["modules_state"]["wall_fresco"]["action_tile"] = [-1, -1, -1]
    assert fig(load(pos), 0)["plan"] == [1, 2, 0, 1, 1]          # 5 in the columns, no tile: the player's 5
    if phase == "visits":
        pos["modules_state"]["wall_fresco"]["action_tile"] = [2, -1, -1]
        for key in ("neutral_apprentice", "apprentice_set_aside"):
            del pos["figures"][0][key]
        assert fig(load(pos), 0)["neutral_apprentice"] is True


def test_the_audience_and_wall_tiles_never_cover_the_same_column_a_position():
    """'he must cover one location on his action sheet with the "wall fresco" action tile' and
    the bells' audience tile 'cover[s] one location': one action tile per column (W3, refused at
    planning). A position with both tiles of a seat on the studio column is refused naming the
    wall's ``action_tile`` (before, it loaded and both acted there); on two columns it loads."""
    from positions import bells_state
    seats = [dict(getup="7:00", plan=[1, 1, 0, 0, 0]), dict(getup="8:00", plan=[0, 0, 0, 0, 1]),
             dict(getup="9:00", plan=[0, 0, 0, 0, 1])]
    ms = {"bells": bells_state(3, display=["3:3:3", "2:2:1", "4:4:3"], audience={0: "studio"}),
          "wall_fresco": wall_state(3, action_tile={0: 2})}
    pos = module_position(3, phase="visits", modules=["bells", "wall_fresco"], seats=seats, modules_state=ms)
    with pytest.raises(affresco.StateError, match=r"wall_fresco.action_tile\[0\]: the audience tile covers that "
                                                  r"column; two action tiles cannot cover one column"):
        load(pos)
    pos["modules_state"]["wall_fresco"]["action_tile"] = [3, -1, -1]
    assert mods(load(pos), "wall_fresco")["action_tile"] == [3, -1, -1]


def test_the_wall_tile_on_the_market_beside_the_medico_tile():
    """'he must cover one location ... with the "wall fresco" action tile' and the medico tile
    'must be placed on the market location' ('No apprentice is needed to visit the medico'): the
    wall tile may lie on the market beside the medico tile, as the audience tile may (B13; rules
    notes W15). At the market's turn the wall restoration comes first, then the compulsory bottle."""
    g = wall_game(modules=("wall_fresco", "medico"), board={"A3": "W:O/Y"},
                  seats=[dict(getup="7:00", paints="RYBO"), dict(getup="8:00"), dict(getup="9:00")],
                  ms={"medico": medico_state(3, display=["3", "2", "juice"])})
    assert "plan 0-1-0-0-0 wall market medico" in legal(g, 0)
    plan_all(g, "0-1-0-0-0 wall market medico", NOTHING, KEEP)
    assert legal(g, 0) == {"wall A3", "pass"}
    act(g, "wall A3")
    assert legal(g, 0) == {"medicine 3", "medicine 2", "medicine 1"}
    act(g, "medicine 1")                 # the first place: the bottle of 3 portions
    assert mods(g, "wall_fresco")["tiles"][0] == ["W:O/Y"] and mods(g, "medico")["held"][0] == ["3"]
