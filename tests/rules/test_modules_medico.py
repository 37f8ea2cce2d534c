"""Module 10, the medico (en-modules-8-9-10.txt, 'The Medico'; rulings R11, R12, R13, R20, R22).

Every test builds its position from the public JSON format (positions.py) and plays through
the public API; each is named after the rulebook sentence it checks.  Infection tiles are
drawn at random from the pile, so a test that needs a given location leaves only such tiles
in the pile.
"""
from __future__ import annotations

import json

import pytest

import affresco
from affresco.errors import ComponentError, IllegalAction, StateError
from affresco.rules.actions import parse

from positions import (act, bishop, data, edit_state, fig, legal, load, medico_bottles_rest, medico_state,  # noqa: E402
                       module_game, module_position, mods, mood, paints, plan_all, scrolls_state, thalers,
                       tile_at, track, portraits_state)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # an apprentice at the theater: keeps the round going to the end


def med(g):
    return mods(g, "medico")


def medico_game(players=3, state=None, modules=("medico",), seats=None, **kw):
    ms = {"medico": medico_state(players, **(state or {}))}
    ms.update(kw.pop("modules_state", {}))
    return module_game(players, modules=list(modules), modules_state=ms, seats=seats, **kw)


def forced_passes(g):
    """Play the forced passes (N2: a player whose only action is 'pass' passes himself)."""
    while g.to_act and legal(g, g.to_act[0]) == {"pass"}:
        g.apply(g.to_act[0], "pass")


# ---------------------------------------------------------------------------- set-up
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_black_apprentices_bottles_and_infection_tiles(players):
    """Set-up: 5 black apprentices per player on the medico board, the bottles face down on
    the draw pile, the 9 infection tiles stacked; 'No medicine will be offered at the market
    during the first game round'; 3 bottle places for 2-3 players, 4 for 4."""
    g = affresco.new_game(players=players, modules=("medico",), seed=3)
    v = g.view(0)["medico"]
    assert v["black_on_board"] == 5 * players
    assert v["draw_pile"] == 16 and v["infection_tiles_left"] == 9
    assert v["display"] == [None] * (4 if players == 4 else 3)
    assert v["sick"] == [0] * players and v["ill"] == [0] * players


# ---------------------------------------------------------------------------- getting ill
def test_infection_tile_is_revealed_after_planning_before_any_action():
    """'After players have planned their actions, reveal the top infection tile and place it at
    the corresponding location before players perform any actions.'"""
    g = medico_game(state=dict(pile=["studio", "studio"]))
    g.apply(0, "plan 1-0-0-0-0")
    g.apply(1, "plan " + NOTHING)
    assert med(g)["infection_tile"] is None            # not before the last plan
    g.apply(2, "plan " + NOTHING)
    v = g.view(1)["medico"]
    assert v["infection_tile"] == "studio" and v["infected"] == "studio" and v["infection_tiles_left"] == 1
    assert [e for e in g.events(1) if e["kind"] == "medico_infection"][-1] == {
        "kind": "medico_infection", "round": 1, "tile": "studio", "location": "studio"}
    assert g.view(0)["location"] == "market" and g.to_act == (0,)   # the first action is still to come


def test_same_location_tile_infects_last_rounds_location_again():
    """'When the "same location" tile is revealed, leave the location tile from the previous
    game round in place. This same location is infected again.'"""
    g = medico_game(state=dict(pile=["same"], infected="workshop", spent=["workshop"]), round=3)
    plan_all(g, NOTHING, NOTHING, KEEP)
    assert g.view(0)["medico"]["infected"] == "workshop"


def test_same_location_tile_in_the_first_round_infects_nothing():
    """'If this tile is revealed during the first game round, no location is infected.'"""
    g = medico_game(state=dict(pile=["same"]), seats=[dict(paints="RYB")])
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    assert g.view(0)["medico"]["infected"] is None
    act(g, "pass")
    assert med(g)["sick"] == [0, 0, 0]


def test_reveal_the_top_infection_tile_with_no_tile_left_no_location_is_infected():
    """'After players have planned their actions, reveal the top infection tile ... This
    location is infected': with no tile left to reveal (a hand-written position whose pile is
    empty) no location is infected. Before, last round's location (`infected`, kept for the
    'same location' tile) was infected again and the studio apprentice fell ill."""
    pos = module_position(3, phase="plan", modules=["medico"],
                          modules_state={"medico": medico_state(3, pile=[], infected="studio", spent=["studio"])},
                          seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")], round=9)
    del pos["final_round"], pos["action_sheet_side"]       # R11: the final round (N17)
    g = load(pos)
    plan_all(g, "0-0-2-0-0", NOTHING, NOTHING)
    assert g.view(0)["medico"]["infected"] is None and g.view(0)["medico"]["infection_tile"] is None
    act(g, "studio")
    assert med(g)["sick"] == [0, 0, 0]


def test_after_the_final_action_at_the_infected_location_one_healthy_apprentice_falls_ill():
    """'After a player has finished his final action at the infected location, one of his
    healthy apprentices there becomes ill ... swaps it with a black apprentice from the
    "medico" board.'  Players without an apprentice there are not affected."""
    g = medico_game(state=dict(pile=["studio", "studio"]))
    plan_all(g, "0-0-2-0-0", "0-0-0-1-0", KEEP)
    assert med(g)["sick"] == [0, 0, 0]
    act(g, "studio")                                   # both studio apprentices: 6 Thalers
    assert thalers(g, 0) == 18
    m = med(g)
    assert m["sick"] == [1, 0, 0] and m["ill"] == [1, 0, 0]
    assert g.view(2)["medico"]["black_on_board"] == 14
    assert g.view(0)["figures"][0]["apprentices"] == 5   # the own one became a black one


def test_worked_example_the_market_is_infected_and_yellow_falls_ill_after_buying_paint():
    """Example: 'The market infection tile was drawn. After yellow has bought paint, one of his
    apprentices gets ill. He places one of his apprentices onto the "medico" board, exchanging
    it for one black apprentice.'"""
    g = medico_game(state=dict(pile=["market", "market"]))
    plan_all(g, "1-0-0-0-0", NOTHING, KEEP)
    assert med(g)["infected"] == "market"
    buy = sorted(a for a in legal(g, 0) if a.startswith("buy"))[0]
    act(g, buy)
    m = med(g)
    assert m["sick"] == [1, 0, 0] and m["ill"] == [1, 0, 0]
    assert g.view(2)["medico"]["black_on_board"] == 14


def test_an_apprentice_falls_ill_even_if_the_actions_are_forfeited():
    """'Note: Even if a player forfeits actions at an infected location, one of his
    apprentices assigned to this location becomes ill.'"""
    g = medico_game(state=dict(pile=["cathedral", "cathedral"]), seats=[dict(paints="")])
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)            # seat 0 can pay for nothing: forfeits
    forced_passes(g)
    assert med(g)["sick"][0] == 1


def test_the_player_chooses_the_neutral_apprentice_which_returns_to_the_theater():
    """'He chooses one apprentice in this section of his action sheet (which can be the neutral
    sixth apprentice) ... If he swaps the neutral apprentice for a black apprentice, return the
    neutral apprentice to its place in the theater.'"""
    g = medico_game(state=dict(pile=["studio", "studio"]), seats=[dict(neutral=True, mood=1)])
    plan_all(g, "0-0-1-0-0", NOTHING, KEEP)
    act(g, "studio")
    assert legal(g, 0) == {"illness own", "illness neutral"}
    with pytest.raises(IllegalAction, match="illness"):
        g.apply(0, "illness both")
    act(g, "illness neutral")
    m = med(g)
    assert m["sick"] == [0, 0, 0] and m["ill"] == [1, 0, 0] and m["neutral_ill"][0] == 1
    # five own apprentices, all healthy, plus the black one (and the neutral back in the theater)
    assert g.view(0)["medico"]["healthy"][0] == 6 and g.view(0)["figures"][0]["apprentices"] == 7


def test_the_neutral_apprentice_falls_ill_only_once():
    """The neutral apprentice is one figure: once it fell ill this round, a second illness
    (a mixed location) takes own apprentices (rules notes)."""
    g = medico_game(state=dict(pile=["studio", "studio"], sick={0: 1}), seats=[dict(neutral=True, paints="RYB")])
    plan_all(g, "0-2-1-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    act(g, "pass")                                     # cathedral: 1 ill, 1 healthy (mixed)
    act(g, "illness neutral")
    act(g, "studio")                                   # the studio is infected: no neutral left to choose
    m = med(g)
    assert m["sick"][0] == 2 and m["ill"][0] == 3


def test_when_more_fall_ill_than_own_apprentices_are_there_the_neutral_one_is_among_them():
    """Pieces are counted: with 4 own apprentices on the medico board, a mixed column with 2
    healthy apprentices holds the neutral one; both fall ill without a question."""
    g = medico_game(state=dict(pile=["studio", "studio"], sick={0: 4}), seats=[dict(neutral=True, paints="")])
    plan_all(g, "0-3-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    forced_passes(g)
    m = med(g)
    assert m["sick"][0] == 5 and m["ill"][0] == 6 and m["neutral_ill"][0] == 1


def test_ill_apprentices_may_not_be_deployed_at_the_market_theater_or_the_medico_tile():
    """'A player cannot deploy black apprentice tokens to the market or theater locations on
    his action sheet. He also cannot deploy them to the "medico" board at the market.'"""
    g = medico_game(state=dict(sick={0: 4}, display=["3"]))
    with pytest.raises(IllegalAction, match="may not go to the market"):
        g.apply(0, "plan 1-0-0-0-0 ill 1-0-0-0-0")
    with pytest.raises(IllegalAction, match="may not go to the theater"):
        g.apply(0, "plan 0-0-0-0-1 ill 0-0-0-0-1")
    with pytest.raises(IllegalAction, match="healthy apprentices"):
        g.apply(0, "plan 2-0-0-0-0")                   # only one healthy apprentice left
    with pytest.raises(IllegalAction, match="at most one"):
        medico_game(state=dict(display=["3"])).apply(0, "plan 2-0-0-0-0 medico")
    assert "plan 1-1-1-1-0 ill 0-1-1-1-0 medico" in legal(g, 0)
    assert "plan 1-2-0-0-1 ill 0-2-0-0-0" not in legal(g, 0)
    g.apply(0, "plan 0-1-1-1-0 ill 0-1-1-1-0 medico")  # the medico tile needs no apprentice


def test_plan_notation_round_trips_and_words_are_in_a_fixed_order():
    """Every new decision is an action whose notation round-trips (docs/notation.md)."""
    for text in ("plan 1-2-0-1-1 ill 0-1-0-0-0 medico", "medicine 2", "heal 3 juice", "heal none",
                 "aside ill", "illness neutral", "saints R", "restore C3 ill", "altar RYB ill",
                 "restore C3 using KN ill"):
        assert str(parse(text)) == text and parse(str(parse(text))) == parse(text)
    assert parse("plan 12011 medico ill 01000") == parse("plan 1-2-0-1-1 ill 0-1-0-0-0 medico")
    assert parse("heal juice 3") == parse("heal 3 juice")
    assert parse("altar ryb ill") == parse("altar RYB ill")


def test_plan_words_of_modules_not_in_play_are_refused():
    """A plan word of a module that is not in play is refused, naming the words in play."""
    g = module_game(3)
    with pytest.raises(IllegalAction, match="not a plan word"):
        g.apply(0, "plan 0-1-0-0-0 ill 0-1-0-0-0")


def test_a_plans_medico_part_is_secret_until_the_reveal():
    """R4/R22: the ill apprentices and the medico tile of a committed plan are hidden from the
    others until every plan is revealed."""
    g = medico_game(state=dict(sick={0: 1}, display=["2"]))
    g.apply(0, "plan 0-1-0-0-0 ill 0-1-0-0-0 medico")
    assert g.view(0)["medico"]["plans"][0] == {"ill": [0, 1, 0, 0, 0], "medico": True}
    assert g.view(1)["medico"]["plans"][0] is None and g.view(None)["medico"]["plans"][0] is None
    other = edit_state(g, lambda d: d["modules_state"]["medico"]["plans"].__setitem__(
        0, {"ill": [0, 0, 0, 0, 0], "medico": False}))
    assert other.view(1) == g.view(1)
    plan_all_rest(g)
    assert g.view(1)["medico"]["plans"][0] == {"ill": [0, 1, 0, 0, 0], "medico": True}


def test_a_plans_medico_part_is_told_to_its_player_at_once_and_to_everyone_at_the_reveal():
    """R4/R22: the committed plan's ill apprentices and medico tile are an event for the player
    alone; at the reveal they are told to everyone, for each plan naming ill apprentices or
    the medico tile (in seat order, after the plans themselves)."""
    g = medico_game(state=dict(sick={0: 1}, display=["2"]))
    g.apply(1, "plan 1-0-0-0-0 medico")
    g.apply(0, "plan 0-1-0-0-0 ill 0-1-0-0-0")
    own = {"kind": "medico_plan", "round": 1, "figure": 0, "ill": "0-1-0-0-0", "medico": False}
    assert [e for e in g.events(0) if e["kind"] == "medico_plan"] == [own]
    assert [e for e in g.events(1) if e["kind"] == "medico_plan"] == [
        {"kind": "medico_plan", "round": 1, "figure": 1, "ill": "0-0-0-0-0", "medico": True}]
    assert not [e for e in g.events(2) if e["kind"] == "medico_plan"]
    g.apply(2, "plan " + KEEP)
    told = [e for e in g.events(2) if e["kind"] in ("plan_revealed", "medico_plan")]
    assert [(e["kind"], e["figure"]) for e in told] == [("plan_revealed", 0), ("plan_revealed", 1),
                                                        ("plan_revealed", 2), ("medico_plan", 0), ("medico_plan", 1)]
    assert told[3] == own and told[4]["ill"] == "0-0-0-0-0" and told[4]["medico"] is True


def plan_all_rest(g):
    for seat in g.to_act:
        g.apply(seat, "plan " + (KEEP if seat == 2 else NOTHING))


# ---------------------------------------------------------------------------- handicaps
def test_cathedral_ill_apprentice_restores_away_from_the_bishop_without_moving_him():
    """'If an ill apprentice restores a section of the cathedral's ceiling fresco, the bishop
    cannot be moved beforehand and the apprentice cannot restore a section orthogonally or
    diagonally adjacent to the bishop. After an ill apprentice has restored a section, the
    bishop is moved to this section.'"""
    fresco = {"C3": "3:YY", "D4": "3:YY", "E5": "4:RRY", "A1": "3:RB"}
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 1}), fresco=fresco, bishop="C3",
                    seats=[dict(paints="RRYYYB")])
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    options = legal(g, 0)
    # not C3 (the bishop's), not D4 (next to him); the altar as well
    assert options == {"pass", "restore E5 ill", "restore A1 ill", "altar RYB ill"}
    with pytest.raises(IllegalAction, match="on or next to the bishop"):
        g.apply(0, "restore D4 ill")
    act(g, "restore E5 ill")
    assert tile_at(g, "E5") is None and bishop(g) == "E5"
    assert track(g, 0) == 4                            # the tile's 4 VP, no bishop bonus


def test_sexton_cannot_be_played_by_an_ill_apprentice():
    """'The cards "Sexton" (module 1) ... cannot be played' by an ill apprentice."""
    fresco = {"E5": "4:RRY", "B2": "3:YY"}
    g = medico_game(modules=("portraits", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                    fresco=fresco, bishop="C3", seats=[dict(paints="RRYYY")],
                    modules_state={"portraits": portraits_state(3, owned={0: ["sexton"]})})
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    assert not any("sexton" in a for a in legal(g, 0))
    assert "restore E5 ill" in legal(g, 0)


def test_ill_apprentices_can_restore_the_altar_without_any_restriction():
    """'Ill apprentices can restore the altar without any restriction.'"""
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 1}), seats=[dict(paints="RYB")])
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    act(g, "altar RYB ill")
    assert track(g, 0) == 2 and paints(g, 0) == ""


def test_scrolls_may_be_played_after_an_ill_apprentices_restoration():
    """'Scrolls (module 7) may be played': the bishop stands on the section right after the ill
    apprentice's restoration, so the scroll of its line may be played (R17)."""
    fresco = {"E5": "4:RRY"}
    g = medico_game(modules=("scrolls", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                    fresco=fresco, bishop="C3", seats=[dict(paints="RRY")],
                    modules_state={"scrolls": scrolls_state(3, {0: (5, "A")})})
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    act(g, "restore E5 ill")
    assert legal(g, 0) == {"scroll none", "scroll row"}


def test_studio_ill_apprentices_paint_pictures_of_saints_for_one_paint_and_three_thalers():
    """'Ill apprentices cannot paint portraits in this location, only pictures of saints. This
    costs one paint cube of any color and earns the player 3 Thalers.'"""
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 1}), seats=[dict(paints="GR")])
    plan_all(g, "0-0-2-0-0 ill 0-0-1-0-0", NOTHING, KEEP)
    assert legal(g, 0) == {"pass", "studio", "saints R", "saints G"}
    act(g, "saints G")
    assert thalers(g, 0) == 15 and paints(g, 0) == "R"
    assert legal(g, 0) == {"pass", "studio"}           # the healthy one is left
    act(g, "studio")
    assert thalers(g, 0) == 18


def test_studio_with_only_ill_apprentices_no_portrait_no_studio_thalers():
    """Only pictures of saints for ill apprentices: no portrait, no free 3 Thalers."""
    from positions import portrait_ids
    g = medico_game(modules=("portraits", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                    seats=[dict(paints="B")], modules_state={"portraits": portraits_state(3, display=portrait_ids()[:2])})
    plan_all(g, "0-0-1-0-0 ill 0-0-1-0-0", NOTHING, KEEP)
    assert legal(g, 0) == {"pass", "saints B"}


def test_workshop_ill_apprentices_can_blend_paint_only_once():
    """'Ill apprentices can blend paint only once.'"""
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 1}), seats=[dict(paints="RRYYB")])
    plan_all(g, "0-0-0-1-0 ill 0-0-0-1-0", NOTHING, KEEP)
    assert "blend O" in legal(g, 0)
    act(g, "blend O")
    assert g.view(0)["location"] == "theater"         # the one blend ended the workshop turn
    assert paints(g, 0) == "RYBO"


def test_workshop_the_one_blend_may_be_a_special_blend():
    """'This one blend may be a special blend (module 3).'"""
    g = medico_game(modules=("special_colours", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                    seats=[dict(paints="RP")])
    plan_all(g, "0-0-0-1-0 ill 0-0-0-1-0", NOTHING, KEEP)
    assert "blend K" in legal(g, 0)
    act(g, "blend K")
    assert paints(g, 0) == "K"


def test_an_ill_apprentice_does_not_fulfil_a_request():
    """Rules notes (N-medico-1): an ill apprentice only blends once at the workshop; a request,
    made instead of blending, needs a healthy apprentice."""
    tiles = ["3:YY", "3:RB", "4:RRY"]
    g = medico_game(modules=("requests", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                    seats=[dict(paints="RY", tiles=tiles)])
    plan_all(g, "0-0-0-1-0 ill 0-0-0-1-0", NOTHING, KEEP)
    assert not any(a.startswith("request") for a in legal(g, 0))
    g2 = medico_game(modules=("requests", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                     seats=[dict(paints="RY", tiles=tiles)])
    plan_all(g2, "0-0-0-2-0 ill 0-0-0-1-0", NOTHING, KEEP)
    act(g2, "blend O")                                 # counted as the ill apprentice's blend
    assert any(a.startswith("request general") for a in legal(g2, 0))


def test_mixed_location_every_healthy_apprentice_there_becomes_ill():
    """'If a player deploys healthy and ill apprentices to the same location, the apprentices
    perform their actions in the order of the player's choice, then all healthy apprentices at
    this location become infected.' (the rulebook example: 1 ill and 2 healthy in the
    cathedral; both healthy ones get ill, wherever the infection tile lies)"""
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 1}), seats=[dict(paints="")])
    plan_all(g, "0-3-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    forced_passes(g)
    m = med(g)
    assert m["sick"][0] == 3 and m["ill"][0] == 3


# ---------------------------------------------------------------------------- buying medicine
def test_medico_purchase_order_on_a_three_place_display():
    """The rulebook example: 'The medico offers 3 bottles. Yellow has to buy one bottle and
    chooses a green one with 3 healing portions for 2 Thalers. Red also buys one green bottle
    with 3 healing portions but for 3 Thalers. Blue is now forced to buy the red bottle for 2
    Thalers.'"""
    g = medico_game(state=dict(display=["3", "3", "juice"]))
    plan_all(g, "1-0-0-0-0 medico", "0-0-0-0-0 medico", "0-0-0-0-1 medico")
    assert g.view(0)["medico"]["display"] == [{"place": 1, "bottle": "3", "price": 3},
                                              {"place": 2, "bottle": "3", "price": 2},
                                              {"place": 3, "bottle": "juice", "price": 2}]
    assert legal(g, 0) == {"medicine 1", "medicine 2", "medicine 3"}
    act(g, "medicine 2")                               # yellow: a 3-portion bottle for 2
    assert thalers(g, 0) == 10
    act(g, "pass")                                     # yellow's market apprentice buys nothing here
    act(g, "medicine 1")                               # red: the other 3-portion bottle for 3
    assert thalers(g, 1) == 9
    assert legal(g, 2) == {"medicine 3"}               # blue is forced to buy the juice
    act(g, "medicine 3")
    assert thalers(g, 2) == 10
    assert med(g)["held"] == [["3"], ["3"], ["juice"]]
    assert med(g)["display"] == [None, None, None]
    bought = [(e["figure"], e["place"], e["bottle"], e["cost"]) for e in g.events() if e["kind"] == "medico_buy"]
    assert bought == [(0, 2, "3", 2), (1, 1, "3", 3), (2, 3, "juice", 2)]
    from affresco.i18n import render_event
    first = next(e for e in g.events() if e["kind"] == "medico_buy")
    assert render_event(first, g.names) == "P0 buys a bottle of 3 portions for 2 Thalers"
    assert "Лекарь" not in render_event(first, g.names, "ru") and "P0" in render_event(first, g.names, "ru")


def test_no_money_shown_means_no_purchase():
    """'If a player doesn't have enough money to buy a bottle, he must lift his screen to prove
    this': no purchase, and the player's turn at the market goes on."""
    g = medico_game(state=dict(display=["3"]), seats=[dict(thalers=2)])
    plan_all(g, "0-0-0-0-0 medico", NOTHING, KEEP)
    assert med(g)["held"][0] == [] and med(g)["display"][0] == "3"


def test_at_most_two_bottles_in_front_of_the_screen():
    """'He can have at most two bottles of medicine in front of his screen.'"""
    g = medico_game(state=dict(display=["3"], held={0: ["1", "juice"]}))
    with pytest.raises(IllegalAction, match="two bottles|the most"):
        g.apply(0, "plan 0-0-0-0-0 medico")


@pytest.mark.parametrize("held, display, why", [(["1", "juice"], ["3"], "the most a player may have"),
                                                ([], [], "offers no bottle"), (["1"], ["3"], None)])
def test_the_medico_tile_goes_only_with_a_bottle_displayed_and_room_to_keep_it(held, display, why):
    """'He can have at most two bottles of medicine in front of his screen', and the tile buys a
    displayed bottle: the plans offered have the medico tile exactly when it may go (the plan
    situation the offered plans are kept by says so too), and a refused tile says why and
    changes nothing."""
    g = medico_game(state=dict(display=display, held={0: held}))
    tile_plan = parse("plan 0-0-0-0-0 medico")
    assert (tile_plan in g.legal_actions(0)) == (why is None)
    s = g.state
    assert [h(s, 0) for h in s.hooks.plan_situation][-1][2] == (why is None)
    if why is None:
        g.apply(0, tile_plan)
        assert g.to_act == (1, 2)
        return
    before = g.to_json()
    with pytest.raises(IllegalAction, match=why):
        g.apply(0, tile_plan)
    assert g.to_json() == before


# ---------------------------------------------------------------------------- healing
def test_healing_two_of_three_portions_the_rest_is_lost():
    """The rulebook example: 'Red has 2 ill apprentices. He uses a green bottle with 3 healing
    portions and exchanges 2 ill apprentices for 2 healthy ones; the remaining portion is lost.'"""
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 2}, held={0: ["3"]}))
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert legal(g, 0) == {"heal none", "heal 3"}
    act(g, "heal 3")
    m = med(g)
    assert m["sick"][0] == 0 and m["ill"][0] == 0 and m["held"][0] == [] and "3" in m["discard"]


def test_refused_medico_actions_change_nothing_and_say_what_is_legal():
    """Every refusal leaves the game unchanged and names what is legal."""
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 2}, held={0: ["3"]}))
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    before = g.to_json()
    for bad, says in (("heal 2", "you hold a bottle of 3 portions"), ("medicine 1", "not an action of this medico"),
                      ("restore C3", "not an action of this medico"), ("illness own", "legal now: heal none, heal 3")):
        with pytest.raises(IllegalAction, match=says) as e:
            g.apply(0, bad)
        assert "legal now: heal none, heal 3" in str(e.value)
        assert g.to_json() == before


def test_raspberry_juice_improves_the_mood_by_one():
    """The rulebook example: 'Raspberry juice improves the mood by 1.'"""
    g = medico_game(state=dict(pile=["market", "market"], held={1: ["juice"]}), seats=[{}, dict(mood=4)])
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    act(g, "heal juice")
    assert mood(g, 1) == 3


def test_healing_is_in_player_order_after_the_theater():
    """'After the last player has performed his final action at the theater (or passed), the
    players can now heal their ill apprentices. In the given player order ...' (R20)."""
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 1, 1: 1}, held={0: ["1"], 1: ["2"]}),
                    seats=[dict(getup="8:00"), dict(getup="7:00"), {}])
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert g.to_act == (1,)                            # 7:00 first
    act(g, "heal 2")
    assert g.to_act == (0,)
    act(g, "heal 1")
    assert med(g)["sick"] == [0, 0, 0]


def test_healing_in_the_final_round_after_the_final_cathedral():
    """R20: in the final round (the theater replaced by a second cathedral) healing follows
    the final cathedral visit."""
    g = medico_game(state=dict(pile=["market"], sick={0: 1}, held={0: ["1"]}), final=True, side=2,
                    seats=[dict(paints=""), dict(paints=""), dict(paints="")])
    plan_all(g, NOTHING, NOTHING, "0-0-0-0-1")
    forced_passes(g)
    assert legal(g, 0) == {"heal none", "heal 1"}
    act(g, "heal 1")
    assert g.is_over and med(g)["sick"][0] == 0


def test_minus_one_space_set_aside_an_ill_apprentice_who_comes_back_healthy():
    """'If a player chooses a wake-up time that forces him to move onto a -1 space, he can
    choose to set aside an ill apprentice for the turn. He returns the black apprentice token
    to the "medico" board, takes an apprentice of his own color.'"""
    g = medico_game(state=dict(sick={0: 2}), phase="getup", seats=[dict(mood=4), dict(), dict()])
    act(g, "getup 6:00") if g.to_act == (0,) else None
    while g.to_act and 0 not in g.to_act:
        act(g, sorted(legal(g, g.to_act[0]))[0])
    if "getup 6:00" in legal(g, 0):
        g.apply(0, "getup 6:00")
    assert legal(g, 0) == {"aside ill", "aside own"}
    act(g, "aside ill")
    m = med(g)
    assert m["sick"][0] == 1 and m["ill"][0] == 1
    v = g.view(0)
    assert v["figures"][0]["apprentice_set_aside"] and v["medico"]["healthy"][0] == 3


@pytest.mark.parametrize("getup,mood_after", [("8:00", 5), ("9:00", 5), ("7:00", 6)])
def test_a_wake_up_time_that_moves_onto_a_minus_one_space_not_one_already_on_it(getup, mood_after):
    """'If a player chooses a wake-up time that forces him to move onto a -1 space, he can
    choose to set aside an ill apprentice' (rules notes MD14): a player already on a -1 space
    keeps the apprentice he set aside before ('When leaving these spaces they take their
    apprentice back'); staying there sets none aside anew, so no ill apprentice comes back
    healthy round after round."""
    g = medico_game(state=dict(sick={0: 2}), phase="getup",
                    seats=[dict(mood=5 if getup != "9:00" else 6, aside=True), dict(), dict()])
    g.apply(0, f"getup {getup}")
    assert mood(g, 0) == mood_after
    assert g.to_act == (1,)                                   # no 'aside' question for seat 0
    m = med(g)
    assert m["sick"][0] == 2 and m["ill"][0] == 2
    assert g.view(0)["medico"]["healthy"][0] == 2 and data(g)["figures"][0]["apprentice_set_aside"]


@pytest.mark.parametrize("getup", ["8:00", "9:00"])
def test_a_wake_up_time_that_moves_onto_a_minus_one_space_a_position_without_the_flag(getup):
    """MD14 in a position of phase getup that gives the mood (a -1 space) but leaves out
    ``apprentice_set_aside`` (rules notes N16: the mood falls only at a get-up, so the figure
    reached the -1 space at an earlier one and set an apprentice aside then): staying there
    is no move onto a -1 space, so no automatic healing is offered."""
    pos = module_position(3, modules=["medico"], phase="getup",
                          modules_state={"medico": medico_state(3, sick={0: 2})})
    pos["figures"][0].update(mood=5 if getup == "8:00" else 6)
    for key in ("apprentice_set_aside", "neutral_apprentice"):
        del pos["figures"][0][key]
    for f in pos["figures"]:
        f["getup"] = None
    g = load(pos)
    assert data(g)["figures"][0]["apprentice_set_aside"]
    g.apply(0, f"getup {getup}")
    assert mood(g, 0) == 5 and g.to_act == (1,)               # no 'aside' question for seat 0
    assert med(g)["sick"][0] == 2


# ---------------------------------------------------------------------------- round preparation
def test_display_refilled_one_bottle_per_player_with_an_ill_apprentice_in_the_printed_order():
    """The rulebook example: 'Since 4 players have ill apprentices, 4 bottles are offered at the
    medico. They are sorted as follows: First the 2 bottles with 3 healing portions, followed
    by one with 1 healing portion and in last place the raspberry juice.'"""
    rest = medico_bottles_rest("3", "3", "1", "juice")
    g = medico_game(4, state=dict(pile=["market", "market"], sick={0: 1, 1: 1, 2: 1, 3: 1},
                                  draw=["3", "juice", "1", "3"], discard=rest))
    plan_all(g, NOTHING, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert g.round == 2
    assert med(g)["display"] == ["3", "3", "1", "juice"]
    assert [d["price"] for d in g.view(0)["medico"]["display"]] == [3, 3, 2, 2]


def test_unsold_bottles_are_discarded_and_the_discard_pile_reshuffled_when_the_draw_pile_is_empty():
    """'At the end of the game round, discard unsold bottles as well, then reveal new bottles
    ... If the draw pile is empty, mix the discarded bottles to create a new draw pile.'"""
    rest = medico_bottles_rest("2")
    g = medico_game(state=dict(pile=["market", "market"], sick={0: 1}, display=["2"], draw=[], discard=rest))
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    m = med(g)
    assert [b for b in m["display"] if b] and len(m["draw"]) == 15 and m["discard"] == []


def test_only_players_with_ill_apprentices_count_for_the_display():
    """'Draw one bottle for each player who has at least one ill apprentice.'"""
    g = medico_game(state=dict(pile=["market", "market"], sick={1: 2}))
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert sum(b is not None for b in med(g)["display"]) == 1
    assert med(g)["infection_discard"] == ["market"]


# ---------------------------------------------------------------------------- the end
def test_alternative_end_one_infection_tile_left_at_the_start_of_a_round():
    """R11: 'If only one infection tile remains on the "medico" board at the start of a round,
    this is the final game round. Flip the action sheet over.'"""
    g = medico_game(state=dict(pile=["market", "market"]))
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert g.round == 2 and g.view(0)["final_round"] and g.view(0)["action_sheet_side"] == 2


def test_alternative_end_a_position_with_one_infection_tile_left_is_the_final_round():
    """R11 / medico 'Changes for "End of the game"': a position in phase plan whose pile holds
    one infection tile, written without ``final_round`` and ``action_sheet_side``, is the final
    round with side 2 (the theater replaced by a second cathedral); with two tiles it is not."""
    for pile, final in ((["market"], True), (["market", "studio"], False)):
        pos = module_position(3, modules=["medico"], modules_state={"medico": medico_state(3, pile=pile)})
        del pos["final_round"], pos["action_sheet_side"]
        g = load(pos)
        assert g.view(0)["final_round"] is final
        assert g.view(0)["columns"][4] == ("cathedral" if final else "theater")


@pytest.mark.parametrize("pile, tile, final", [([], "market", True), (["studio"], None, True),
                                               (["studio"], "market", False)])
def test_alternative_end_a_visits_position_counts_this_rounds_infection_tile(pile, tile, final):
    """Medico 'Changes for "End of the game"' / R11 (rules notes N19): 'If only one infection
    tile remains on the medico board at the start of a round, this is the final game round.' In
    phase visits this round's tile is revealed already: the tiles at the start of the round
    are the pile's and this one; a visits position without ``final_round`` whose round began
    with one tile is the final round (side 2) and the game ends after it (before: the visits
    default, not final, played a further round)."""
    state = dict(medico_state(3, pile=pile), infection_tile=tile, infected=tile)
    pos = module_position(3, modules=["medico"], phase="visits", modules_state={"medico": state},
                          seats=[dict(plan=[0, 0, 0, 0, 0]), dict(plan=[0, 0, 0, 0, 0]), dict(plan=[0, 0, 0, 0, 1])])
    del pos["final_round"], pos["action_sheet_side"]
    g = load(pos)
    assert g.view(0)["final_round"] is final and g.view(0)["action_sheet_side"] == (2 if final else 1)
    while g.round == 1 and not g.is_over:
        act(g, sorted(legal(g, g.to_act[0]))[0] if "pass" not in legal(g, g.to_act[0]) else "pass")
    assert g.is_over is final


def test_final_scoring_five_thalers_per_own_apprentice_not_on_the_medico_board():
    """R12: 'each player is credited 5 Thalers for each apprentice of their color not standing
    on the "medico" board' - after bells, before 1 VP per 2 Thalers."""
    g = medico_game(state=dict(pile=["market"], sick={0: 2, 1: 0}, ill={0: 3}), final=True, side=2,
                    seats=[dict(thalers=1, track=5), dict(thalers=0, track=10), dict(thalers=0, track=20)])
    plan_all(g, NOTHING, NOTHING, NOTHING)
    assert g.is_over
    assert g.scores()[:3] == [5 + (1 + 15) // 2, 10 + 25 // 2, 20 + 25 // 2]
    # the credit's VP are their own source; the rest of the Thalers stay 'thalers'
    credits = [e for e in g.events() if e["kind"] == "medico_credit"]
    assert [(e["figure"], e["apprentices"], e["amount"]) for e in credits] == [(0, 3, 15), (1, 5, 25), (2, 5, 25)]
    assert g.vp_sources()[0] == {"position": 5, "medico": 7, "money": 1}
    assert g.vp_sources()[1] == {"position": 10, "medico": 12}


# ---------------------------------------------------------------------------- 2 players
def test_leonardo_never_falls_ill_and_buys_no_medicine():
    """'Leonardo's apprentices do not become ill, and he does not buy medicine.'"""
    g = medico_game(2, state=dict(pile=["market", "market"], display=["3"]), leonardo_painter="C3")
    plan_all(g, NOTHING, KEEP)
    while not g.round == 2:
        seat = g.to_act[0]
        g.apply(seat, sorted(legal(g, seat))[0])
    m = med(g)
    assert m["sick"] == [0, 0] and m["ill"] == [0, 0]


# ---------------------------------------------------------------------------- data, saving
def test_reference_components_are_the_printed_ones():
    """Printed: 16 bottles with 4 raspberry juices, 9 infection tiles (2 each + 1 'same')."""
    from affresco.rules.modules import module_data
    from affresco.rules.components import reference
    d = module_data("medico", reference())
    assert len(d.bottles) == 16 and d.bottles.count("juice") == 4
    assert sorted(d.infection) == sorted(["market"] * 2 + ["cathedral"] * 2 + ["studio"] * 2 + ["workshop"] * 2 + ["same"])


def _user_components(**medico):
    from importlib import resources
    import tomllib
    from affresco.rules.components import reference
    raw = dict(reference().raw)
    table = tomllib.loads(resources.files("affresco.rules").joinpath("data/medico.toml").read_text())
    table.update(medico)
    raw["medico"] = table
    return raw


def test_a_user_component_file_replaces_the_medico_data_and_is_validated():
    """Components are data with provenance, replaceable by a user file and validated."""
    good = _user_components(bottles=[{"portions": 3, "count": 6, "provenance": "reconstructed: x"},
                                     {"portions": 1, "count": 6, "provenance": "reconstructed: x"},
                                     {"juice": True, "count": 4, "provenance": "printed: x"}])
    g = affresco.new_game(players=3, modules=("medico",), seed=1, components=good)
    assert sorted(set(g.state.mods["medico"].draw)) == ["1", "3", "juice"]
    with pytest.raises(ComponentError, match="16 are printed"):
        affresco.new_game(players=3, modules=("medico",), seed=1,
                          components=_user_components(bottles=[{"juice": True, "count": 4, "provenance": "printed"}]))
    with pytest.raises(ComponentError, match="prices.3"):
        affresco.new_game(players=3, modules=("medico",), seed=1,
                          components=_user_components(prices={"3": [1, 1, 1], "4": [3, 3, 2, 2],
                                                              "provenance": "reconstructed"}))
    with pytest.raises(ComponentError, match="provenance"):
        affresco.new_game(players=3, modules=("medico",), seed=1,
                          components=_user_components(provenance="a guess"))


def test_saved_state_is_validated():
    """Loading refuses impossible medico states, naming the field."""
    pos = module_position(3, modules=["medico"], modules_state={"medico": medico_state(3, sick={0: 2}, ill={0: 1})})
    with pytest.raises(StateError, match="ill >= sick"):
        load(pos)
    pos = module_position(3, modules=["medico"], modules_state={"medico": medico_state(3, pile=["same", "same"])})
    with pytest.raises(StateError, match="more 'same'"):
        load(pos)
    pos = module_position(3, modules=["medico"], modules_state={"medico": dict(medico_state(3), draw=["3"])})
    with pytest.raises(StateError, match="edition's"):
        load(pos)
    g = medico_game(state=dict(sick={0: 1}))    # ill apprentices never go to the theater (nor the market)
    g.apply(0, "plan 0-1-0-0-1 ill 0-1-0-0-0")
    with pytest.raises(StateError, match=r"plans\[0\].ill: .*the market or the theater"):
        edit_state(g, lambda d: d["modules_state"]["medico"]["plans"].__setitem__(
            0, {"ill": [0, 0, 0, 0, 1], "medico": False}))


@pytest.mark.parametrize("players", [2, 3, 4])
def test_games_finish_and_survive_save_load_and_replay(players):
    """Random games with the medico end (the alternative end at the latest), and every
    position survives to_json/from_json; the record replays to the same end."""
    import random
    g = affresco.new_game(players=players, modules=("medico",), seed=40 + players)
    rng = random.Random(players)
    while not g.is_over:
        seat = rng.choice(g.to_act)
        options = g.legal_actions(seat)
        good = [a for a in options if a.kind in ("restore", "altar", "medicine", "heal", "saints", "buy", "blend")]
        g.apply(seat, rng.choice(good if good and rng.random() < 0.8 else options))
        if rng.random() < 0.2:
            h = affresco.Game.from_json(g.to_json())
            assert h.to_json() == g.to_json()
    assert g.round <= 9
    r = affresco.replay(json.loads(json.dumps(g.record())))
    assert r.scores() == g.scores()


# ---------------------------------------------------------------------------- interactions
def test_an_ill_restoration_discards_the_bishops_favour_token():
    """MD8 / R18: the favour token goes to a restoration of the segment the bishop stands on;
    an ill apprentice never restores there, so the token is discarded with the tile."""
    g = medico_game(modules=("bishops_favour", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                    fresco={"E5": "4:RRY"}, bishop="C3", seats=[dict(paints="RRY", thalers=12)],
                    modules_state={"bishops_favour": ["thalers:5"] * 25})
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    act(g, "restore E5 ill")
    assert thalers(g, 0) == 12 and len(mods(g, "bishops_favour")) == 24


def test_an_ill_apprentice_may_pay_with_special_colours_on_the_fresco():
    """Option special_colours_on_fresco with the medico: the ill apprentice's restoration may be
    paid with pink or brown as any other (only the bishop's move is barred)."""
    g = medico_game(modules=("special_colours", "medico"), options={"special_colours_on_fresco": True},
                    state=dict(pile=["market", "market"], sick={0: 1}), fresco={"A1": "7:OG"}, bishop="C3",
                    seats=[dict(paints="GN")])
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    assert "restore A1 using GN ill" in legal(g, 0)
    act(g, "restore A1 using GN ill")
    assert track(g, 0) == 7 + 5 and bishop(g) == "A1"


def test_a_healthy_studio_apprentice_paints_a_portrait_beside_an_ill_one():
    """Portraits with the medico: the healthy apprentice may paint the portrait, the ill one
    only saints."""
    from positions import portrait_ids
    cards = portrait_ids()[:2]
    g = medico_game(modules=("portraits", "medico"), state=dict(pile=["market", "market"], sick={0: 1}),
                    seats=[dict(paints="R")], modules_state={"portraits": portraits_state(3, display=cards)})
    plan_all(g, "0-0-2-0-0 ill 0-0-1-0-0", NOTHING, KEEP)
    options = legal(g, 0)
    assert "saints R" in options and any(a.startswith("portrait") for a in options)
    portrait = sorted(a for a in options if a.startswith("portrait"))[0]
    act(g, portrait)
    assert legal(g, 0) == {"pass", "saints R"}


def test_this_location_is_infected_a_visits_position_with_the_rounds_tile():
    """'After players have planned their actions, reveal the top infection tile from the stack
    and place it at the corresponding location before players perform any actions. This
    location is infected' (R20). A position in phase visits that shows this round's tile (the
    studio) and leaves ``infected`` out or null is the studio infected: after the studio
    visit one healthy apprentice falls ill (rules notes MD16; before, nobody did). A position
    whose tile and infected location differ is refused."""
    pos = module_position(3, modules=["medico"], phase="visits",
                          seats=[dict(getup="7:00", plan=[0, 0, 2, 0, 0]), dict(getup="8:00", plan=[0, 0, 0, 0, 0]),
                                 dict(getup="9:00", plan=[0, 0, 0, 0, 1])],
                          modules_state={"medico": medico_state(3, pile=["market"], tile="studio")})
    pos["turn"] = {"location": 2}
    for written in (False, True):
        p = json.loads(json.dumps(pos))
        if not written:
            del p["modules_state"]["medico"]["infected"]
        g = load(p)
        assert med(g)["infected"] == "studio"
        act(g, "studio")
        assert med(g)["sick"] == [1, 0, 0]
    pos["modules_state"]["medico"]["infected"] = "market"
    with pytest.raises(affresco.StateError, match="infection_tile"):
        load(pos)


def test_ill_apprentices_may_not_be_deployed_a_visits_position_must_name_them():
    """'Ill apprentices may not be deployed at the following locations: Market and Theater';
    'Ill apprentices are handicapped' at the others (R20). A position in phase visits whose
    plan holds more apprentices than the seat's healthy ones, with the plan's medico part left
    out (read as no ill apprentice), is refused naming ``plans``: before, the ill apprentices
    acted as healthy ones (at the market, the theater, with the bishop's move; rules notes
    MD17). Written, the plan loads and the ill ones act as ill."""
    pos = module_position(3, modules=["medico"], phase="visits",
                          seats=[dict(getup="7:00", plan=[1, 2, 0, 1, 1]), dict(getup="8:00", plan=[0, 0, 0, 0, 0]),
                                 dict(getup="9:00", plan=[0, 0, 0, 0, 1])],
                          modules_state={"medico": medico_state(3, pile=["market", "market"], sick={0: 2})})
    pos["modules_state"]["medico"].pop("plans", None)
    with pytest.raises(affresco.StateError, match=r"medico.plans\[0\]"):
        load(pos)
    pos["modules_state"]["medico"]["plans"] = [{"ill": [0, 1, 0, 1, 0], "medico": False}, None, None]
    g = load(pos)
    assert mods(g, "medico")["plans"][0]["ill"] == [0, 1, 0, 1, 0]


@pytest.mark.parametrize("phase", ["plan", "visits"])
def test_ill_apprentices_may_not_be_deployed_a_position_naming_too_few_ill_ones(phase):
    """'Ill apprentices may not be deployed at the following locations: Market and Theater' (R20).
    A position whose plan's medico part is written (``plans[seat].ill``) names every ill
    apprentice of the plan: one naming fewer than the plan needs (5 planned, 4 healthy) is
    refused, as one naming more ill ones than the seat holds (before, both loaded: the ill
    apprentice bought at the market as a healthy one; rules notes MD18). Exact, it loads."""
    others = [[0, 0, 0, 0, 0], [0, 0, 0, 0, 1]] if phase == "visits" else [None, None]
    pos = module_position(3, modules=["medico"], phase=phase,
                          seats=[dict(getup="7:00", plan=[1, 2, 0, 1, 1]), dict(getup="8:00", plan=others[0]),
                                 dict(getup="9:00", plan=others[1])],
                          modules_state={"medico": medico_state(3, pile=["market", "market"], sick={0: 1})})
    ms = pos["modules_state"]["medico"]
    ms["plans"] = [{"ill": [0, 0, 0, 0, 0], "medico": False}, None, None]
    with pytest.raises(affresco.StateError, match=r"medico.plans\[0\]: .* 5 healthy apprentices still to act; "
                                                  r"the seat has 4"):
        load(pos)
    ms["plans"][0]["ill"] = [0, 2, 0, 0, 0]
    with pytest.raises(affresco.StateError, match=r"medico.plans\[0\].ill: .* 2 ill apprentices; the seat holds 1"):
        load(pos)
    ms["plans"][0]["ill"] = [0, 1, 0, 0, 0]
    g = load(pos)
    assert mods(g, "medico")["plans"][0]["ill"] == [0, 1, 0, 0, 0]
    if phase == "visits":     # 6 healthy planned, the zone flags left out: the neutral apprentice (N21)
        ms["sick"], ms["ill"], ms["plans"][0]["ill"] = [0, 0, 0], [0, 0, 0], [0, 0, 0, 0, 0]
        pos["figures"][0]["plan"] = [1, 2, 0, 2, 1]
        for key in ("neutral_apprentice", "apprentice_set_aside"):
            del pos["figures"][0][key]
        assert fig(load(pos), 0)["neutral_apprentice"] is True


def test_the_apprentice_on_the_wall_tile_is_a_healthy_one_a_position():
    """'Black apprentice tokens cannot be placed on the action tiles for ... the Wall Fresco'
    (W10): a position whose committed plan has 4 healthy apprentices in the columns and one on
    the wall tile needs 5 healthy ones; with 4 (one own apprentice on the medico board) it is
    refused (before, the loader left the wall tile's apprentice out; rules notes N25)."""
    from positions import wall_state
    pos = module_position(3, modules=["wall_fresco", "medico"], phase="visits",
                          seats=[dict(getup="7:00", plan=[1, 2, 0, 1, 0]), dict(getup="8:00", plan=[0, 0, 0, 0, 0]),
                                 dict(getup="9:00", plan=[0, 0, 0, 0, 1])],
                          modules_state={"medico": medico_state(3, pile=["market", "market"], sick={0: 1}),
                                         "wall_fresco": wall_state(3, action_tile={0: 2})})
    with pytest.raises(affresco.StateError, match=r"medico.plans\[0\]"):
        load(pos)
    pos["modules_state"]["medico"]["plans"] = [{"ill": [0, 1, 0, 0, 0], "medico": False}, None, None]
    assert mods(load(pos), "medico")["plans"][0]["ill"] == [0, 1, 0, 0, 0]


def test_the_player_can_also_send_one_healthy_apprentice_to_the_market_a_position():
    """'No apprentice is needed to visit the medico. The player can also send one healthy
    apprentice to the market to purchase paint' (MD15): a position whose committed plan has the
    medico tile and 3 apprentices at the market is refused naming the plan's medico part
    (before, it loaded and the player bought 3 market tiles beside the bottle); with one it loads."""
    ms = medico_state(3, display=["3", "2", "juice"])
    ms["plans"] = [{"ill": [0, 0, 0, 0, 0], "medico": True}, None, None]
    pos = module_position(3, modules=["medico"], phase="visits", modules_state={"medico": ms},
                          seats=[dict(getup="7:00", plan=[3, 0, 0, 0, 0]), dict(getup="8:00", plan=[0, 0, 0, 0, 0]),
                                 dict(getup="9:00", plan=[0, 0, 0, 0, 1])])
    with pytest.raises(affresco.StateError, match=r"medico.plans\[0\].medico: with the medico tile at most 1 "
                                                  r"apprentice goes to the market"):
        load(pos)
    pos["figures"][0]["plan"] = [1, 0, 0, 0, 0]
    g = load(pos)
    assert legal(g, 0) == {"medicine 3", "medicine 2", "medicine 1"}
