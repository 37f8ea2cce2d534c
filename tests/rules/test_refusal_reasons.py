"""Refusals name the rule that forbids the action (session 21 bug hunt).

'In case a player does not possess sufficient money or paint pieces needed for a certain
action, they must forfeit this action': a refused action leaves the game unchanged and its
message says why (the paints, the card, the bottle, the rule) and what is legal now.  Before
these tests, several refusals gave a wrong reason ('takes 1 word' for a two-word action,
'not an action of the cathedral visit' at the cathedral, 'moving the bishop costs 1 Thaler'
to Leonardo's controller, 'blends make O, P, G' with pink and brown in play) or none.
Every position is hand-written in the public JSON format (positions.py).
"""
from __future__ import annotations

import pytest

from affresco import IllegalAction

from positions import (act, bells_state, game, legal, medico_state, module_game, plan_all,  # noqa: E402
                       portraits_state, requests_state, scrolls_state, wall_state)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 (9:00, last) at the theater keeps the round open


def refused(g, seat, action) -> str:
    """Apply ``action``, which must be refused with the state unchanged; return the message."""
    before = g.to_json()
    with pytest.raises(IllegalAction) as e:
        g.apply(seat, action)
    assert g.to_json() == before
    assert "legal now: " in str(e.value)
    return str(e.value)


def test_restoring_a_segment_without_its_paints_names_the_paints_not_another_kind():
    """'In order to restore a segment the player must own the paint pieces shown on the
    segment's tile': at his cathedral visit, with no paint for any tile (only 'pass' legal), a
    restoration is refused for its paints, not as 'not an action of the cathedral visit'."""
    g = game(3, seats=[dict(paints="R"), {}, {}], fresco={"B2": "3:YY"})
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    assert legal(g, 0) == {"pass"}
    msg = refused(g, 0, "restore B2")
    assert "B2 needs YY; you have R" in msg and "not an action of" not in msg


def test_leonardo_restores_one_step_away_and_never_moves_the_bishop():
    """2 players: 'His master painter is moved one space up or down or left or right (not
    diagonally)' and (R13) he never pays to move the bishop: his controller's 'restore C2
    bishop B2' is refused for Leonardo's rule, not for the controller's money."""
    g = game(2, seats=[dict(thalers=12), dict(thalers=12)], leonardo=dict(getup="6:00"),
             leonardo_painter="C3", fresco={"C2": "3:YY"})
    plan_all(g, NOTHING, NOTHING)
    assert g.to_act == (0,) and legal(g, 0) == {"close I", "close II", "close III"}
    msg = refused(g, 0, "buy I YYY")
    assert "Leonardo never buys paints" in msg
    act(g, "close I")
    assert "restore C2" in legal(g, 0)
    msg = refused(g, 0, "restore C2 bishop B2")
    assert "Leonardo restores one tile a round" in msg and "costs 1 Thaler" not in msg
    assert "{" not in msg and "restore C2" in msg.split("legal now: ")[1]


def test_a_portrait_not_on_display_is_named_as_such():
    """Portraits: 'The active player may take one of the two portrait cards on open display':
    a card not on display is refused as not displayed (before: no reason, or 'portrait takes 2
    words' for a one-word card when the Merchant was displayed)."""
    g = module_game(3, modules=["portraits"], seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")],
                    modules_state={"portraits": portraits_state(3, display=["merchant-a", "actor"])})
    plan_all(g, "0-0-1-0-0", NOTHING, KEEP)
    assert "the portraits on display: merchant-a, actor" in refused(g, 0, "portrait patron-a")
    msg = refused(g, 0, "portrait merchant-a")
    assert "name the 2 basic paints you choose" in msg and "'portrait merchant-a RY'" in msg
    assert "takes no other word" in refused(g, 0, "portrait actor RY")


def test_paying_more_onto_a_certificate_with_no_money_names_the_certificate_not_a_word_count():
    """Bells: 'If a player has kept money behind his screen, he can choose to place it on the
    certificate at any time' (R19): with no money only 'deposit none' is legal, and 'deposit
    4:4:3 1' is refused for the money, not as "'deposit' takes 1 word"."""
    g = module_game(3, modules=["bells"], seats=[dict(thalers=0), {}, {}],
                    modules_state={"bells": bells_state(3, holdings={0: dict(partly_paid=[["4:4:3", 1]])})})
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert legal(g, 0) == {"deposit none"}
    msg = refused(g, 0, "deposit 4:4:3 1")
    assert "partly paid certificates (4:4:3)" in msg and "your 0 Thalers" in msg and "takes" not in msg


def medico_game(state, seats, modules=("medico",), **kw):
    return module_game(3, modules=list(modules), seats=seats,
                       modules_state={"medico": medico_state(3, **state), **kw.pop("modules_state", {})}, **kw)


def test_healing_names_the_bottles_held_not_a_word_count():
    """Medico: 'the players decide whether to heal their apprentices and how many bottles to
    use': 'heal 3 1' with one 2-portion bottle is refused for the bottles held (before:
    "'heal' takes 1 word"), the example made of the player's own bottles."""
    g = medico_game(dict(pile=["market", "market"], sick={0: 1}, held={0: ["2"]}), seats=[{}, {}, {}])
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert legal(g, 0) == {"heal none", "heal 2"}
    msg = refused(g, 0, "heal 3 1")
    assert "you hold a bottle of 2 portions" in msg and "'heal 2'" in msg and "takes" not in msg


def test_an_ill_apprentices_restoration_without_one_left_says_so():
    """Medico, cathedral: the 'ill' word names an ill apprentice's action; a player with only
    healthy apprentices there is told so (before: "'altar' takes 1 word")."""
    g = medico_game(dict(pile=["market", "market"]), seats=[dict(paints="RYB"), {}, {}])
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    assert "altar RYB" in legal(g, 0)
    assert "no ill apprentice of yours is left in this column" in refused(g, 0, "altar RYB ill")


def test_apprentices_left_at_the_cathedral_that_are_ill_act_as_ill_ones():
    """Medico: 'If an ill apprentice restores a section ... the bishop cannot be moved
    beforehand': with only an ill apprentice left there, 'restore E5' (as a healthy one) is
    refused naming the ill apprentice's form (before: no reason)."""
    g = medico_game(dict(pile=["market", "market"], sick={0: 1}), seats=[dict(paints="RRY"), {}, {}],
                    fresco={"E5": "4:RRY"}, bishop="C3")
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    assert legal(g, 0) == {"pass", "restore E5 ill"}
    assert "are ill: 'restore E5 ill'" in refused(g, 0, "restore E5")


def test_an_ill_apprentices_form_is_named_without_the_bishops_move():
    """Medico: 'If an ill apprentice restores a section of the cathedral's ceiling fresco, the
    bishop cannot be moved beforehand': with only an ill apprentice left, 'restore E5 bishop D4'
    is refused naming the ill form without the move ('restore E5 ill'; before: 'restore E5
    bishop D4 ill', itself illegal)."""
    g = medico_game(dict(pile=["market", "market"], sick={0: 1}), seats=[dict(paints="RRY"), {}, {}],
                    fresco={"E5": "4:RRY"}, bishop="C3")
    plan_all(g, "0-1-0-0-0 ill 0-1-0-0-0", NOTHING, KEEP)
    msg = refused(g, 0, "restore E5 bishop D4")
    assert "are ill: 'restore E5 ill' (without moving the bishop)" in msg


def test_pictures_of_saints_name_a_paint_the_player_has():
    """Medico, studio: pictures of saints 'cost one paint cube of any color': the refusal's
    example is a paint the player has (B), not always 'saints R'."""
    g = medico_game(dict(pile=["market", "market"], sick={0: 1}), seats=[dict(paints="B"), {}, {}])
    plan_all(g, "0-0-1-0-0 ill 0-0-1-0-0", NOTHING, KEEP)
    assert "saints B" in legal(g, 0)
    msg = refused(g, 0, "saints O")
    assert "e.g. 'saints B'" in msg


def test_blending_pink_names_its_paints():
    """Special colours: 'they can now blend purple + red into pink': 'blend K' without them is
    refused for P+R (before: 'blends make O, P, G', as if pink were no blend)."""
    g = module_game(3, modules=["special_colours"], seats=[dict(paints="YR"), {}, {}])
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    assert legal(g, 0) == {"pass", "blend O"}
    assert "blending K needs P+R" in refused(g, 0, "blend K")
    assert "blends make O, P, G, K, N" in refused(g, 0, "blend X")


def test_a_request_with_tiles_the_player_does_not_own_names_his_tiles():
    """Requests: 'they pile any 3 of their fresco tiles': a request naming tiles the player does
    not own is refused naming his tiles (before: no reason)."""
    g = module_game(3, modules=["requests"], seats=[dict(tiles=["3:YY", "3:RB", "4:RRY"]), {}, {}],
                    modules_state={"requests": requests_state(3)})
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    assert "request general 3:RB 3:YY 4:RRY" in legal(g, 0)
    assert "your tiles: 3:YY 3:RB 4:RRY" in refused(g, 0, "request general 3:YY 3:RB 5:GR")
    assert "3 tiles showing the P splash" in refused(g, 0, "request purple 3:YY 3:RB 4:RRY")


def test_a_scroll_of_another_line_is_refused_naming_the_lines_of_the_segment():
    """Scrolls (R17): a scroll is played when restoring a segment in its line; after restoring
    B2 with a scroll of row 4 only 'scroll none' is legal, and 'scroll row' is refused naming
    the lines of B2 (before: no reason)."""
    g = module_game(3, modules=["scrolls"], seats=[dict(paints="YY"), {}, {}], fresco={"B2": "3:YY"}, bishop="B2",
                    modules_state={"scrolls": scrolls_state(3, {0: (4, "D")})})
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    act(g, "restore B2")
    assert legal(g, 0) == {"scroll none"}
    msg = refused(g, 0, "scroll row")
    assert "row 2" in msg and "column B" in msg


def test_a_one_word_choice_that_is_not_offered_names_the_choices():
    """Requests: 'A general request allows the player to select one paint piece of any basic
    color each round': 'income O' is refused naming the choices R, Y, B (before: no reason);
    the same for the VP track's 'behind or in front' (R8)."""
    g = module_game(3, modules=["requests"], seats=[{}, {}, {}],
                    modules_state={"requests": requests_state(3, fulfilled={0: [["general", 6, ["3:YY", "3:RB",
                                                                                                "4:RRY"]]]})})
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert legal(g, 0) == {"income R", "income Y", "income B"}
    assert "'O' is not a choice now: R, Y, B" in refused(g, 0, "income O")
    g = game(3, seats=[dict(paints="YY", track=2), dict(track=5), {}], fresco={"B2": "3:YY"}, bishop="E5")
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    act(g, "restore B2")
    assert "'up' is not a choice now: behind, ahead" in refused(g, 0, "track up")


def test_the_automatic_healing_answer_is_one_word():
    """Medico: 'If a player chooses a wake-up time that forces him to move onto a -1 space, he
    can choose to set aside an ill apprentice': 'aside' alone is refused for its missing word
    (the word 'ill' of 'aside ill' is no restoration's 'ill')."""
    g = medico_game(dict(sick={0: 1}), seats=[dict(mood=4), {}, {}], phase="getup")
    act(g, "getup 6:00")
    assert legal(g, 0) == {"aside ill", "aside own"}
    assert "'aside' takes 1 word after it" in refused(g, 0, "aside")


@pytest.mark.parametrize("text, echoed", [("aside yes no", "'aside yes no'"), ("aside on", "'aside on'"),
                                          ("illness by", "'illness by'")])
def test_a_word_of_paint_letters_is_echoed_as_written_where_no_paint_is_asked(text, echoed):
    """Notation: 'Paints: R red, Y yellow, B blue ...' are read in the actions that take paints;
    an answer to the medico's questions ('aside ill', 'illness own') takes words, so a wrong word
    made of paint letters ('no', 'on', 'by') is refused as written, not read as paints ('aside
    yes ON', before)."""
    g = medico_game(dict(sick={0: 1}), seats=[dict(mood=4), {}, {}], phase="getup")
    act(g, "getup 6:00")
    assert legal(g, 0) == {"aside ill", "aside own"}
    assert refused(g, 0, text).startswith(echoed + " is not legal")


def test_a_request_not_possible_now_names_its_rule_not_another_kind():
    """Requests: 'If a player has at least 3 fresco tiles laid out in front of themselves they
    are entitled to retrieve 1 request tile'; 'Each round, each player may have 1 apprentice in
    the workshop fulfill 1 request instead of blending paints' (R15, M5). At the workshop, a
    request that is not legal now (no tiles; one fulfilled this round; every apprentice has
    begun blending) is refused for that reason (before: "'request' is not an action of the
    workshop visit", though it is one)."""
    g = module_game(3, modules=["requests"], seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")],
                    modules_state={"requests": requests_state(3)})
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    msg = refused(g, 0, "request general 3:YY 3:RB 4:RRY")
    assert "not an action" not in msg and "your tiles: none" in msg
    tiles = ["3:YY", "3:RB", "4:RRY", "5:RYB", "4:BBY", "4:YYR"]
    g = module_game(3, modules=["requests"], seats=[dict(tiles=tiles, paints="RYBRYB"), {}, {}],
                    modules_state={"requests": requests_state(3)})
    plan_all(g, "0-0-0-2-0", NOTHING, KEEP)
    act(g, "request general 3:RB 3:YY 4:RRY")
    msg = refused(g, 0, "request general 4:BBY 4:YYR 5:RYB")
    assert "one request per player per round" in msg
    g = module_game(3, modules=["requests"], seats=[dict(tiles=tiles, paints="RYB"), {}, {}],
                    modules_state={"requests": requests_state(3)})
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    act(g, "blend O")
    assert "has begun blending" in refused(g, 0, "request general 3:RB 3:YY 4:RRY")


def test_an_exchange_not_possible_now_names_its_rule_not_another_kind():
    """Wall fresco: 'a player's apprentice may exchange 2 wall fresco tiles for one exchange
    tile. The player discards 2 tiles of 2 different basic paints' (W4): at the workshop, an
    exchange without the tiles is refused naming the player's wall tiles (before: "'exchange'
    is not an action of the workshop visit")."""
    g = module_game(3, modules=["wall_fresco"], seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")],
                    modules_state={"wall_fresco": wall_state(3, tiles={0: ["W:G/B"]})})
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    msg = refused(g, 0, "exchange W:G/B W:O/Y")
    assert "not an action" not in msg and "you hold the wall tiles W:G/B" in msg


def test_a_portrait_or_pictures_of_saints_not_possible_now_name_their_rule():
    """Portraits: 'If both portraits have been painted (picked up) already, the players can only
    be paid 3 Thalers'; medico: 'Ill apprentices cannot paint portraits in this location, only
    pictures of saints'; 'he must buy one bottle' with the medico tile on the market. At the
    studio with no card on display, a portrait is refused for the display; pictures of saints
    with no ill apprentice there, for that; at the market without the medico tile, a bottle for
    the tile (before: each "not an action of the studio / market visit")."""
    g = module_game(3, modules=["portraits"], seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")],
                    modules_state={"portraits": portraits_state(3, display=[])})
    plan_all(g, "0-0-1-0-0", NOTHING, KEEP)
    assert "the portraits on display: none" in refused(g, 0, "portrait patron-a")
    g = medico_game(dict(pile=["market", "market"], display=["3", None, None]), seats=[{}, {}, {}])
    plan_all(g, "1-0-1-0-0", NOTHING, KEEP)
    assert "'medico at the market' tile" in refused(g, 0, "medicine 1")
    act(g, "pass")
    assert "painted by ill apprentices: you have none" in refused(g, 0, "saints R")
