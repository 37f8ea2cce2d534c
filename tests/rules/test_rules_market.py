"""Rulebook 'Market: Buy paints or close down market booth' (R5)."""
from __future__ import annotations

from collections import Counter

import pytest

import affresco

from positions import norm, bag, booths, game, legal, market_multiset, only_actor, paints, plan_all, thalers  # noqa: E402

B3 = [["YYY", "RR", "BB"], ["RRR", "YB", "O"], ["BBB", "YY", "G"]]
BAG3 = ["RY", "RB"]


def market_game(seat0=None, plans=("1-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0"), **kw):
    """Seat 0 (7:00) at the market; seat 1 has a studio apprentice so the round stays open."""
    seats = [dict(getup="7:00", **(seat0 or {})), dict(getup="8:00"), dict(getup="9:00")]
    kw.setdefault("booths", B3)
    kw.setdefault("bag", BAG3)
    g = game(3, seats=seats, **kw)
    plan_all(g, *plans)
    return g


def test_rulebook_example_buy_yyy_at_booth_iv_for_two_thalers():
    """Market example: Red, 7 o'clock, 1 apprentice at the market, buys the tile with 3
    yellow paint pieces at booth IV: he pays 2 Thalers, takes 3 yellow paints, and all tiles
    of booth IV return to the linen bag."""
    b4 = [["RR", "BB", "YB", "RYB"], ["RRR", "O", "G"], ["BBB", "YY", "RRY"], ["YYY", "RY", "RB"]]
    g = game(4, seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00"), dict(getup="6:00")],
             booths=b4, bag=["YBB"])
    plan_all(g, "1-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0", "0-0-0-0-0")
    assert only_actor(g) == 0
    g.apply(0, "buy IV YYY")
    assert thalers(g, 0) == 10
    assert paints(g, 0) == "RYYYYB"
    assert booths(g)[3] == []
    assert booths(g)[:3] == norm(b4[:3])
    assert Counter(bag(g)) == Counter(["YBB", "YYY", "RY", "RB"])


def test_one_tile_per_market_apprentice_at_the_get_up_price():
    """Market 'Buy paints': each market apprentice may buy 1 tile of the selected booth at
    the get-up price (8:00: 2 Thalers per tile)."""
    g = game(3, seats=[dict(getup="8:00"), dict(getup="7:00"), dict(getup="9:00")], booths=B3, bag=BAG3)
    plan_all(g, "2-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
    g.apply(0, "buy I RR BB")
    assert thalers(g, 0) == 12 - 4
    assert paints(g, 0) == "RRRYBBB"
    assert booths(g)[0] == []
    assert Counter(bag(g)) == Counter(BAG3 + B3[0])


def test_three_apprentices_may_buy_a_whole_booth():
    """Market: up to one tile per apprentice, three apprentices may buy three tiles."""
    g = market_game(plans=("3-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0"))
    g.apply(0, "buy II RRR YB O")
    assert thalers(g, 0) == 12 - 6
    assert paints(g, 0) == "RRRRYYBBO"


def test_not_more_tiles_than_market_apprentices():
    """Market: one tile per apprentice deployed at the market."""
    g = market_game()
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "buy I RR BB")
    assert g.to_json() == before
    assert "buy I RR BB" not in legal(g, 0)
    assert "buy I RR" in legal(g, 0)


def test_each_tile_can_be_bought_only_once():
    """Market: 'Each tile can be bought only once.'"""
    g = market_game(plans=("2-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0"))
    with pytest.raises(affresco.IllegalAction, match="each tile can be bought only once: booth I shows RR 1x"):
        g.apply(0, "buy I RR RR")
    with pytest.raises(affresco.IllegalAction, match="booth I has no tile RRR"):
        g.apply(0, "buy I RRR")   # RRR is at booth II, not I


def test_a_buy_takes_at_least_one_tile_and_the_refusal_says_so():
    """Market 'Buy paints' (N6: a buy takes at least one tile; forfeiting is 'pass', closing is
    'close'): 'buy I' alone is refused with that reason, not with a price."""
    g = market_game()
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction, match="a buy names the tiles it takes, e.g. 'buy I YYY'"):
        g.apply(0, "buy I")
    assert g.to_json() == before


def test_only_one_booth_per_visit():
    """R5: the player chooses ONE booth; after buying there the market visit is over, even
    with apprentices left."""
    g = market_game(plans=("2-0-0-0-0", "1-0-0-0-0", "0-0-0-0-0"))
    g.apply(0, "buy I RR")
    assert only_actor(g) == 1
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "buy II O")
    assert thalers(g, 0) == 10


def test_close_down_a_booth_is_free_and_returns_its_tiles():
    """Market 'Close down market booth': instead of buying, the player closes the selected
    booth; all its tiles return to the bag; it is a free action."""
    g = market_game()
    g.apply(0, "close II")
    assert thalers(g, 0) == 12
    assert paints(g, 0) == "RYB"
    assert booths(g) == norm([B3[0], [], B3[2]])
    assert Counter(bag(g)) == Counter(BAG3 + B3[1])


def test_pass_leaves_the_booths_alone():
    """'Performing actions': a player may forfeit his market action; nothing changes."""
    g = market_game()
    g.apply(0, "pass")
    assert booths(g) == norm(B3)
    assert thalers(g, 0) == 12


def test_cannot_buy_without_enough_money():
    """'Performing actions': without the money for a purchase the player must forfeit it;
    he may still close a booth."""
    g = market_game(seat0=dict(thalers=1))
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction, match="1 tile costs 2 Thalers; you have 1"):
        g.apply(0, "buy I YYY")
    assert g.to_json() == before
    assert not any(a.startswith("buy") for a in legal(g, 0))
    assert "close I" in legal(g, 0)


def test_money_limits_the_number_of_tiles():
    """Market: 3 Thalers at 7:00 (2 per tile) pay for one tile only."""
    g = market_game(seat0=dict(thalers=3), plans=("2-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0"))
    with pytest.raises(affresco.IllegalAction, match="2 tiles cost 4 Thalers; you have 3"):
        g.apply(0, "buy I YYY RR")
    g.apply(0, "buy I YYY")
    assert thalers(g, 0) == 1


def test_an_emptied_booth_cannot_be_chosen_again():
    """R5: a visiting player chooses a booth that still has tiles."""
    g = market_game(plans=("1-0-0-0-0", "1-0-0-0-0", "0-0-0-0-0"))
    g.apply(0, "close I")
    assert only_actor(g) == 1
    for bad in ("close I", "buy I YYY"):
        assert bad not in legal(g, 1)
        with pytest.raises(affresco.IllegalAction):
            g.apply(1, bad)
    g.apply(1, "buy III G")
    assert paints(g, 1) == "RYBG"
    assert thalers(g, 1) == 10


def test_market_visit_does_nothing_when_no_booth_has_tiles():
    """R5: if no booth has tiles, the market visit does nothing (the player is not asked)."""
    g = market_game(booths=[[], [], []], bag=["YYY", "RR", "BB", "RRR", "YB", "O", "BBB", "YY", "G", "RY", "RB"],
                    plans=("1-0-1-0-0", "0-0-0-0-0", "0-0-0-0-0"))
    assert g.view(None)["location"] == "studio"
    assert only_actor(g) == 0


def test_market_tiles_are_never_lost():
    """Market: bought and closed tiles go back to the bag: the 11 tiles of a 3-player game
    stay in play."""
    g = market_game(plans=("2-0-0-0-0", "1-0-0-0-0", "1-0-0-0-0"))
    total = market_multiset(g)
    g.apply(0, "buy I YYY BB")
    g.apply(1, "close II")
    g.apply(2, "buy III G")
    assert market_multiset(g) == total


@pytest.mark.parametrize("players,tile,spelling", [
    (3, "YR", "YR"), (3, "YR", "RY"), (4, "YRB", "YRB"), (4, "YRB", "RYB"), (3, "YB", "YB"),
])
def test_every_market_tile_can_be_bought_by_notation(players, tile, spelling):
    """Market 'Buy paints' / R5 with the notation 'buy <booth> <tile>': a tile offered in
    legal_actions must be buyable from its notation (str of the legal action), and the paint
    order inside a tile's name does not matter. Reference tiles YR (3-4 players) and YRB
    (4 players) are affected."""
    bs = [[tile, "RRR", "BBB"], ["YYY", "RB", "O"], ["BB", "YY", "G"]]
    if players == 4:
        bs.append(["RR", "YBB", "RRY"])
    seats = [dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00"), dict(getup="6:00")][:players]
    g = game(players, seats=seats, booths=bs)
    plan_all(g, "1-0-0-0-0", "0-0-1-0-0", *["0-0-0-0-0"] * (players - 2))
    offered = [a for a in g.legal_actions(0) if a.kind == "buy" and a.args[1:] and len(a.args) == 2
               and sorted(a.args[1]) == sorted(tile)]
    assert len(offered) == 1
    g.apply(0, str(offered[0]))                 # the engine's own notation for it
    assert thalers(g, 0) == 10
    assert Counter(paints(g, 0)) == Counter("RYB" + tile)
    assert booths(g)[0] == []
    h = game(players, seats=seats, booths=bs)
    plan_all(h, "1-0-0-0-0", "0-0-1-0-0", *["0-0-0-0-0"] * (players - 2))
    h.apply(0, f"buy I {spelling}")
    assert Counter(paints(h, 0)) == Counter("RYB" + tile)


def test_each_apprentice_at_the_market_may_buy_one_tile_a_written_turn():
    """'Each of the player's apprentices deployed at the "market" column may buy 1 market tile
    from the selected booth.' A position whose `turn.left` gave the visitor more actions than
    its apprentices in the column loaded, and one market apprentice bought three tiles (or an
    actor with none in the cathedral restored). `turn.left` is refused beyond the apprentices'
    actions (rules notes N31); up to them it loads."""
    from positions import load, position

    seats = [dict(getup="7:00", plan=[1, 0, 0, 0, 0], thalers=20), dict(getup="8:00", plan=[0, 0, 0, 0, 0]),
             dict(getup="6:00", plan=[0, 0, 0, 0, 0])]
    pos = position(3, phase="visits", seats=seats)
    pos["turn"] = {"order": [2, 0, 1], "location": 0, "visit": 1, "actor": 0, "left": 1}
    assert only_actor(load(pos)) == 0
    for column, left in ((0, 3), (1, 1)):
        pos["turn"].update(location=column, left=left)
        with pytest.raises(affresco.StateError, match=r"turn\.left: %d: the actions left in this turn, 0\.\.%d"
                                                      % (left, 1 - column)):
            load(pos)


@pytest.mark.parametrize("where", ["booths", "bag"])
def test_for_three_players_remove_the_tiles_shown_a_position_with_one(where):
    """Set-up 4: 'Put all 14 market tiles into the linen bag ... For three players there are
    only 3 booths. Please remove the tiles shown below from the game' (2 players use the
    3-player set-up, R13). A 3-player position with a removed tile (RRY), or a tile no edition
    has (KKK), on a booth or in the bag loaded, and the observation then failed (KeyError). It
    is refused naming the field (rules notes N32); RRY is a tile of the 4-player game."""
    from positions import BOOTHS_3, BOOTHS_4, load, position

    for players, tile, refused in ((3, "RRY", True), (2, "RRY", True), (3, "KKK", True), (4, "RRY", False)):
        booths = [list(b) for b in (BOOTHS_4 if players == 4 else BOOTHS_3)]
        pos = position(players, phase="plan", booths=booths, bag=[])
        if where == "booths":
            booths[0] = [t for t in booths[0] if t != tile] + [tile]
            pos["market"]["booths"] = booths
        else:
            pos["market"]["bag"] = [tile]
        if refused:
            with pytest.raises(affresco.StateError, match=r"market\.%s.*\['%s'\]: not market tiles of this game"
                                                          % (where, tile)):
                load(pos)
        else:
            assert len(load(pos).observation(0))
