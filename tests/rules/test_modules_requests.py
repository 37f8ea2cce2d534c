"""Module 2, 'The bishop's request' (supplement p. 2-3; 2 players: supplement 'Module 2';
rulings R10, R13, R15).

Request values other than the printed ones (general 6 on top of its stack, purple 10) are
written into the hand-made positions, so no test depends on the reconstructed stacks.
"""
from __future__ import annotations


import pytest

import affresco

from positions import (act, data, fig, legal, load, module_game, module_position, mods, only_actor,  # noqa: E402
                       paints, plan_all, requests_state, thalers, track)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 at the theater (9:00, last): keeps the round open
LEO = 2
PURPLE3 = ["5:PY", "7:GP", "9:POB"]


def req_game(tiles, plan="0-0-0-1-0", players=3, stacks=None, seat0=None, others=None, plans=None, **kw):
    """Seat 0 (7:00) owns ``tiles`` and visits the workshop with ``plan``."""
    s0 = dict(getup="7:00", tiles=list(tiles))
    s0.update(seat0 or {})
    seats = [s0, dict(getup="8:00"), dict(getup="9:00")]
    for i, o in (others or {}).items():
        seats[i].update(o)
    ms = {"requests": requests_state(players, stacks=stacks)}
    g = module_game(players, modules=["requests"], modules_state=ms, seats=seats[:players], **kw)
    plan_all(g, *(plans or [plan, NOTHING, KEEP]))
    return g


def requests_offered(g, seat=0):
    return {a for a in legal(g, seat) if a.startswith("request")}


def finish_round(g):
    """Let seat 2 finish its theater visit (the round then ends)."""
    act(g, "theater")


# ----------------------------------------------------------------- worked examples
def test_worked_example_general_request_6_vp_and_its_income():
    """Supplement 'Fulfilling a general request' and its example: with at least 3 fresco tiles
    the player takes the topmost general request (6 VP, printed), stacks 3 tiles under it;
    from then on 1 Thaler and one basic paint of their choice each round at income; the
    stacked tiles no longer pay income (R15)."""
    g = req_game(["3:YY", "4:RRY", "5:RYB"], seat0=dict(paints=""))
    assert requests_offered(g) == {"request general 3:YY 4:RRY 5:RYB"}
    g.apply(0, "request general 3:YY 4:RRY 5:RYB")
    assert track(g, 0) == 6
    assert fig(g, 0)["tiles"] == []
    assert mods(g, "requests")["fulfilled"][0] == [["general", 6, ["3:YY", "4:RRY", "5:RYB"]]]
    finish_round(g)
    # income: 1 Thaler for the request, none for the stacked tiles; then the paint choice
    assert thalers(g, 0) == 12 + 1
    assert data(g)["round"] == 2
    assert g.to_act == (0,)
    assert legal(g, 0) == {"income R", "income Y", "income B"}
    g.apply(0, "income Y")
    assert paints(g, 0) == "Y"


def test_worked_example_purple_request_10_vp_and_its_income():
    """Supplement 'Fulfilling a special request' and its example: 3 fresco tiles with purple
    splashes give the purple request worth 10 VP; from then on 1 Thaler and one purple
    paint each round."""
    g = req_game(PURPLE3, seat0=dict(paints=""))
    assert "request purple 5:PY 7:GP 9:POB" in requests_offered(g)
    g.apply(0, "request purple 5:PY 7:GP 9:POB")
    assert track(g, 0) == 10
    finish_round(g)
    assert thalers(g, 0) == 13
    assert paints(g, 0) == "P"
    assert data(g)["asks"] == []        # no choice for a special request


def test_request_income_every_round():
    """Supplement: 'Each request tile is good for 1 Thaler of income and the paint piece
    shown' - at every income, not once."""
    fulfilled = {0: [["purple", 10, PURPLE3], ["orange", 8, ["5:OY", "8:OOY", "6:ORB"]]]}
    ms = {"requests": requests_state(3, fulfilled=fulfilled)}
    g = module_game(3, modules=["requests"], modules_state=ms, phase="plan",
                    seats=[dict(getup="7:00", paints="", tiles=["3:YY"]), dict(getup="8:00"), dict(getup="9:00")])
    for rnd in (1, 2):
        plan_all(g, NOTHING, NOTHING, NOTHING)
        assert data(g)["round"] == rnd + 1
        assert thalers(g, 0) == 12 + rnd * (1 + 2)
        assert paints(g, 0) == "O" * rnd + "P" * rnd
        while data(g)["phase"] == "getup":
            seat = only_actor(g)
            g.apply(seat, sorted(legal(g, seat))[0])


def test_general_request_paint_is_asked_at_each_income():
    """Supplement: 'A general request allows the player to select one paint piece of any basic
    color each round' - one choice per general request per income."""
    fulfilled = {1: [["general", 6, ["3:YY", "3:YY", "3:YY"]], ["general", 5, ["3:RB", "3:RB", "3:RB"]]]}
    ms = {"requests": requests_state(3, fulfilled=fulfilled)}
    g = module_game(3, modules=["requests"], modules_state=ms,
                    seats=[dict(getup="7:00"), dict(getup="8:00", paints=""), dict(getup="9:00")])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert thalers(g, 1) == 14
    assert g.to_act == (1,)
    g.apply(1, "income B")
    assert g.to_act == (1,)
    with pytest.raises(affresco.IllegalAction):
        g.apply(1, "income O")
    g.apply(1, "income B")
    assert paints(g, 1) == "BB"
    assert data(g)["phase"] == "getup"


def test_no_request_income_after_the_final_round():
    """Rulebook 'End of the game' / R10: no income is paid at the end of the final round -
    not the request income either."""
    fulfilled = {0: [["general", 6, ["3:YY", "3:YY", "3:YY"]], ["purple", 10, PURPLE3]]}
    ms = {"requests": requests_state(3, fulfilled=fulfilled)}
    g = module_game(3, modules=["requests"], modules_state=ms, final=True, side=2,
                    seats=[dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.is_over
    assert paints(g, 0) == ""
    assert track(g, 0) == 6      # 12 Thalers -> 6 VP in final scoring, nothing else


# ------------------------------------------------------------------------- stacks
def test_stacks_are_taken_highest_first():
    """Supplement 'Changes in set up': of each type the lowest tile is placed first, the others
    on top in ascending order: the highest request is taken first."""
    g = req_game(["3:YY"] * 3, stacks={"general": [1, 2, 6], "orange": [8], "green": [8], "purple": [8]},
                 others={1: dict(tiles=["3:RB"] * 3)}, plans=["0-0-0-1-0", "0-0-0-1-0", KEEP])
    g.apply(0, "request general 3:YY 3:YY 3:YY")
    g.apply(1, "request general 3:RB 3:RB 3:RB")
    assert track(g, 0) == 6 and track(g, 1) == 2
    assert mods(g, "requests")["stacks"]["general"] == [1]


def test_reference_stacks_have_the_printed_tiles_on_top():
    """Supplement examples (printed): the topmost general request is worth 6 VP; the purple
    request taken is worth 10 VP; 12 request tiles in 4 types."""
    g = affresco.new_game(players=3, modules=("requests",), seed=3)
    stacks = g.view(0)["requests"]["stacks"]
    assert set(stacks) == {"general", "orange", "green", "purple"}
    assert sum(len(v) for v in stacks.values()) == 12
    assert stacks["general"][-1] == 6 == max(stacks["general"])
    assert stacks["purple"][-1] == 10 == max(stacks["purple"])
    for v in stacks.values():
        assert v == sorted(v)


def test_empty_stack_offers_nothing():
    """Supplement: a request is a tile taken from its stack: once a stack is empty that
    request can no longer be fulfilled."""
    g = req_game(PURPLE3, stacks={"general": [], "orange": [8], "green": [8], "purple": []})
    assert requests_offered(g) == set()


# ------------------------------------------------------------------ the workshop
def test_request_instead_of_blending_with_the_only_apprentice():
    """Supplement 'Workshop': an apprentice may either pick up a request tile or blend paints,
    not both: with one workshop apprentice, no blend after the request."""
    g = req_game(["3:YY"] * 3, seat0=dict(paints="RRYYBB"))
    g.apply(0, "request general 3:YY 3:YY 3:YY")
    assert only_actor(g) == 2        # seat 0's workshop visit is over
    assert paints(g, 0) == "RRYYBB"


def test_an_apprentice_who_began_blending_cannot_fulfil():
    """Supplement 'Important: not both at the same time' / R15: an apprentice who has blended
    cannot then take a request."""
    g = req_game(["3:YY"] * 3, seat0=dict(paints="RRYYBB"))
    assert requests_offered(g)
    g.apply(0, "blend O")
    assert requests_offered(g) == set()
    assert "blend P" in legal(g, 0)


def test_other_apprentice_may_fulfil_after_a_blend_and_the_blender_goes_on():
    """Supplement 'Workshop': each round 1 apprentice in the workshop may fulfil a request
    instead of blending; all other apprentices blend as usual (2 blends each)."""
    g = req_game(["3:YY"] * 3, plan="0-0-0-2-0", seat0=dict(paints="RRRYYYBBB"))
    g.apply(0, "blend O")                            # apprentice 1 begins blending
    g.apply(0, "request general 3:YY 3:YY 3:YY")     # apprentice 2 fulfils
    assert requests_offered(g) == set()
    g.apply(0, "blend O")                            # apprentice 1's second blend
    assert only_actor(g) == 2
    assert paints(g, 0) == "RYBBBOO"


def test_request_first_then_the_other_apprentice_blends_twice():
    """Supplement 'Workshop': 'All their other apprentices must be used to blend paints as
    usual': after the request, 2 blends per other apprentice."""
    g = req_game(["3:YY"] * 3, plan="0-0-0-2-0", seat0=dict(paints="RRRYYYBBB"))
    g.apply(0, "request general 3:YY 3:YY 3:YY")
    g.apply(0, "blend O")
    g.apply(0, "blend O")
    assert only_actor(g) == 2
    assert paints(g, 0) == "RYBBBOO"


def test_no_request_when_every_apprentice_has_begun_blending():
    """R15: with 2 apprentices who both blended, no request is possible."""
    g = req_game(["3:YY"] * 3, plan="0-0-0-2-0", seat0=dict(paints="RRRYYYBBB"))
    for _ in range(3):
        g.apply(0, "blend O")
    assert requests_offered(g) == set()


def test_one_request_per_player_per_round():
    """Supplement 'Each round, each player may have 1 apprentice in the workshop fulfill 1
    request' / R15."""
    g = req_game(["3:YY"] * 3 + PURPLE3, plan="0-0-0-3-0")
    g.apply(0, "request general 3:YY 3:YY 3:YY")
    assert requests_offered(g) == set()
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "request purple 5:PY 7:GP 9:POB")


def test_requests_only_at_the_workshop():
    """Supplement: the request is an action of the workshop: no request elsewhere."""
    g = req_game(["3:YY"] * 3, plan="0-0-2-0-0")
    assert requests_offered(g) == set()


def test_next_round_another_request():
    """R15: one request per round, so again the next round."""
    g = req_game(["3:YY"] * 3 + PURPLE3, plans=["0-0-0-1-0", NOTHING, NOTHING])
    g.apply(0, "request general 3:YY 3:YY 3:YY")
    assert data(g)["round"] == 2
    while data(g)["asks"] or data(g)["phase"] == "getup":
        seat = only_actor(g)
        g.apply(seat, sorted(legal(g, seat))[0])
    plan_all(g, "0-0-0-1-0", NOTHING, NOTHING)
    assert requests_offered(g) == {"request general 5:PY 7:GP 9:POB", "request purple 5:PY 7:GP 9:POB"}


# --------------------------------------------------------------------- the tiles
def test_general_request_needs_3_tiles():
    """Supplement 'Fulfilling a general request': at least 3 fresco tiles."""
    g = req_game(["3:YY", "11:OGP"])
    assert requests_offered(g) == set()


def test_player_chooses_which_tiles_to_stack():
    """R15: the player chooses which 3 tiles to stack; every choice is offered."""
    g = req_game(["3:YY", "4:RRY", "5:RYB", "6:PBY"])
    assert requests_offered(g) == {
        "request general 3:YY 4:RRY 5:RYB", "request general 3:YY 4:RRY 6:PBY",
        "request general 3:YY 5:RYB 6:PBY", "request general 4:RRY 5:RYB 6:PBY"}
    g.apply(0, "request general 3:YY 5:RYB 6:PBY")
    assert fig(g, 0)["tiles"] == ["4:RRY"]


def test_stacked_tiles_no_longer_pay_income():
    """Supplement '... forfeit part of their income' / R15 / R10: the 3 tiles under the request
    pay nothing; the remaining tile pays 1, the request 1."""
    g = req_game(["3:YY", "4:RRY", "5:RYB", "6:PBY"], seat0=dict(paints=""))
    g.apply(0, "request general 3:YY 4:RRY 5:RYB")
    finish_round(g)
    assert thalers(g, 0) == 12 + 1 + 1


@pytest.mark.parametrize("kind,tiles,ok", [
    ("purple", ["5:PY", "7:GP", "9:POB"], True),
    ("purple", ["7:OG", "7:GP", "7:PO"], False),        # only two tiles show purple
    ("green", ["7:OG", "7:GP", "7:PO"], False),
    ("orange", ["7:OG", "7:GP", "7:PO"], False),
    ("orange", ["5:OY", "8:OOY", "6:ORB"], True),
    ("green", ["5:GR", "8:GGR", "10:GGP"], True),
    ("green", ["5:GR", "8:GGR", "5:OY"], False),
    ("purple", ["11:OGP", "5:PY", "8:PPB"], True),      # a tile with 3 splashes counts as purple
    ("orange", ["11:OGP", "11:OGP", "11:OGP"], True),
    ("green", ["11:OGP", "11:OGP", "11:OGP"], True),
])
def test_special_request_needs_3_tiles_with_that_splash(kind, tiles, ok):
    """Supplement 'Fulfilling a special request': any 3 fresco tiles showing the same splash of
    colour; R15: a tile with several splashes counts as any one of them."""
    g = req_game(tiles)
    offered = {a.split()[1] for a in requests_offered(g)}
    assert (kind in offered) == ok
    assert "general" in offered


def test_splashes_are_what_counts_not_the_paints():
    """Rulebook 'fresco tiles' (back: splashes) / state format 'VP:PAINTS/SPLASHES': the back of
    the tile decides; a tile written '5:RYB/P' shows a purple splash."""
    g = req_game(["5:RYB/P", "3:YY/P", "7:OG/"])
    offered = {a.split()[1] for a in requests_offered(g)}
    assert "purple" not in offered and "orange" not in offered and "green" not in offered
    g = req_game(["5:RYB/P", "3:YY/P", "4:RRY/GP"])
    offered = {a.split()[1] for a in requests_offered(g)}
    assert "purple" in offered and "green" not in offered


def test_tile_splashes_survive_a_save_and_load():
    """State format ('VP:PAINTS/SPLASHES' names the splashes) / R15: saving and loading a game
    must keep what the backs of the tiles show, or a request becomes (il)legal by a reload."""
    pos = module_position(3, modules=["requests"], seats=[dict(getup="7:00", tiles=["5:RYB/P", "3:YY/P", "4:RRY/P"]),
                                                          dict(getup="8:00"), dict(getup="9:00")],
                          fresco={"A1": "6:RRY/O"})
    g = load(pos)
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    before = requests_offered(g)
    assert any(a.startswith("request purple") for a in before)
    again = affresco.Game.from_json(g.to_json())
    assert requests_offered(again) == before
    assert [t.splashes for t in again.state.tiles[0]] == [t.splashes for t in g.state.tiles[0]]
    assert again.state.fresco[0].splashes == g.state.fresco[0].splashes == "O"


@pytest.mark.parametrize("written", ["request general 6:ORB/O 3:YY 4:RRY", "request general 3:yy/ 4:rry 6:orb/o",
                                     "request general 4:RRY 6:ORB 3:YY"])
def test_notation_a_tile_is_one_spelling_whatever_its_default_splashes_or_place(written):
    """State format / notation ('VP:PAINTS', '/SPLASHES' only when they are not the blended
    colours of its paints): '6:ORB/O' is the tile '6:ORB', so 'request general 6:ORB/O ...' is
    the legal request, written once by ``str(parse(...))``, and fulfils it."""
    g = req_game(["3:YY", "4:RRY", "6:ORB"], seat0=dict(paints=""))
    canonical = "request general 3:YY 4:RRY 6:ORB"
    assert requests_offered(g) == {canonical}
    assert str(affresco.parse(written)) == canonical
    g.apply(0, written)
    assert mods(g, "requests")["fulfilled"][0] == [["general", 6, ["3:YY", "4:RRY", "6:ORB"]]]


def test_notation_splashes_are_a_set_in_paint_order():
    """State format 'VP:PAINTS/SPLASHES': the splashes on a tile's back are a set; '9:RYB/PO'
    and '9:RYB/OP' are one tile, and its request is spelled one way."""
    g = req_game(["9:RYB/PO", "3:YY/O", "4:RRY/PO"], seat0=dict(paints=""))
    assert fig(g, 0)["tiles"] == ["9:RYB/OP", "3:YY/O", "4:RRY/OP"]
    assert "request orange 3:YY/O 4:RRY/OP 9:RYB/OP" in requests_offered(g)
    assert str(affresco.parse("request orange 9:RYB/PO 3:YY/O 4:RRY/PO")) == "request orange 3:YY/O 4:RRY/OP 9:RYB/OP"
    g.apply(0, "request orange 9:RYB/PO 3:YY/O 4:RRY/PO")
    assert fig(g, 0)["tiles"] == []


def test_request_is_one_scoring_move():
    """R8: a request is one scoring event on the VP track."""
    g = req_game(PURPLE3, seat0=dict(track=5), others={1: dict(track=15)})
    g.apply(0, "request purple 5:PY 7:GP 9:POB")
    assert data(g)["pending_track"] == {"figure": 0, "behind": 14, "ahead": 16, "target": 15}
    g.apply(0, "track behind")
    assert track(g, 0) == 14


def test_fulfilled_requests_are_public():
    """R22: everything not private is public: the requests fulfilled and the tiles under them."""
    g = req_game(PURPLE3)
    g.apply(0, "request purple 5:PY 7:GP 9:POB")
    for viewer in (1, 2, None):
        assert g.view(viewer)["requests"]["fulfilled"][0] == [{"type": "purple", "vp": 10, "tiles": PURPLE3}]


# ---------------------------------------------------------------------------- Leonardo
def two(leo_tiles, stacks=None, plans=(NOTHING, NOTHING)):
    seats = [dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2")]
    lv = dict(getup="9:00", track="S3", tiles=list(leo_tiles))
    ms = {"requests": requests_state(2, stacks=stacks)}
    g = module_game(2, modules=["requests"], modules_state=ms, seats=seats, leonardo=lv, controller=0)
    plan_all(g, *plans)
    return g


def leo_to_workshop(g):
    act(g, "close I")
    seat = only_actor(g)
    g.apply(seat, sorted(a for a in legal(g, seat) if a.startswith("restore"))[0])
    while data(g)["pending_track"] is not None:
        act(g, "track ahead")


def test_leonardo_has_a_workshop_apprentice():
    """Supplement '2 players using modules', Module 2: one additional apprentice on the top
    space of Leonardo's workshop column."""
    g = two(["3:YY"] * 3)
    assert fig(g, LEO)["plan"] == [1, 1, 0, 1, 0]


def test_leonardo_may_fulfil_a_request_and_tiles_leave_the_game():
    """Supplement Module 2 (2 players) / R13: in the workshop Leonardo may fulfil a request if
    he meets the prerequisites; he gains its VP; then the fresco tiles and the request tile
    are removed from the game."""
    g = two(PURPLE3, stacks={"general": [6], "orange": [8], "green": [8], "purple": [7, 10]})
    leo_to_workshop(g)
    assert only_actor(g) == 0
    offered = legal(g, 0)
    assert "pass" in offered                        # 'may'
    assert "request purple 5:PY 7:GP 9:POB" in offered
    tiles_before = fig(g, LEO)["tiles"]
    before = track(g, LEO)
    g.apply(0, "request purple 5:PY 7:GP 9:POB")
    assert track(g, LEO) == before + 10
    left = fig(g, LEO)["tiles"]
    assert len(left) == len(tiles_before) - 3
    assert mods(g, "requests")["stacks"]["purple"] == [7]


def test_leonardo_may_decline():
    """Supplement Module 2: Leonardo *may* fulfil a request: his controller may pass."""
    g = two(PURPLE3)
    leo_to_workshop(g)
    g.apply(0, "pass")
    assert len(fig(g, LEO)["tiles"]) == 4   # 3 + the tile restored this round
    assert data(g)["round"] == 2


def test_leonardo_without_enough_tiles_skips_the_workshop():
    """Supplement Module 2: 'provided he meets the necessary prerequisites'."""
    g = two(["3:YY"])
    leo_to_workshop(g)
    assert data(g)["round"] == 2


@pytest.mark.parametrize("income", [0, 2])
def test_each_request_tile_is_good_for_1_thaler_of_income_a_component_file_may_not_change_it(income):
    """'Each request tile is good for 1 Thaler of income and the paint piece shown': a printed
    value, so a user component file giving another amount is refused, naming it."""
    from positions import module_components
    comp = module_components("requests", lambda t: t.__setitem__("income_thalers", income))
    with pytest.raises(affresco.ComponentError, match="requests.income_thalers"):
        affresco.new_game(3, ["requests"], components=comp)
