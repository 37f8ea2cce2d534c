"""Module 1, 'The portraits' (supplement pp. 1-2; 2 players: supplement 'Module 1: The
portraits'; rulings R11, R13, R14).

Every test builds an explicit position (positions.module_game) with the display it needs.
Card amounts that components.md marks as reconstructed (Peers, Bishop, Virgin Mary, Pretty
girl, Self-portrait) are read from the card shown in the view, so the tests hold for any
edition; only the printed amounts (Patron 7 Thalers, Merchant 2 paints + 1 Thaler, God's
servant +1, Actor 3, Abbot +1, Sexton 1 Thaler) are written as numbers.
"""
from __future__ import annotations


import pytest

import affresco

from positions import (BOTTOM, MIDDLE, TOP, act, bishop, data, fig, legal, load, module_game,  # noqa: E402
                       module_position, mods, mood, only_actor, paints, plan_all, portrait_ids, portraits_state,
                       thalers, track)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 at the theater (9:00, last): keeps the round open
GETUPS3 = [dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")]
LEO = 2


def portrait_game(display, plans, players=3, seats=None, owned=None, deck=None, **kw):
    """Seats at 7:00, 8:00, 9:00 (3 players) with ``display`` on show; ``plans`` are committed."""
    seats = seats or [dict(s) for s in GETUPS3[:players]]
    ms = {"portraits": portraits_state(players, display=display, owned=owned, deck=deck)}
    g = module_game(players, modules=["portraits"], modules_state=ms, seats=seats, **kw)
    plan_all(g, *plans)
    return g


def getups(g):
    """Phase 1 of a new round: every figure takes the first free get-up space."""
    while data(g)["phase"] == "getup":
        seat = only_actor(g)
        g.apply(seat, sorted(legal(g, seat))[0])


def card(g, cid, seat=0):
    """The card ``cid`` as the view shows it (on display or owned)."""
    v = g.view(seat)["portraits"]
    for c in v["display"] + [c for o in v["owned"] for c in o]:
        if c["id"] == cid:
            return c
    raise KeyError(cid)


def gone(g, cid):
    """True if ``cid`` is out of the game: not on display, not owned, not in the deck."""
    p = mods(g, "portraits")
    return cid not in p["display"] + p["deck"] + [c for o in p["owned"] for c in o]


# ------------------------------------------------------------------------------ set-up
@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(6))
def test_setup_reveals_two_cards_of_deck_A(players, seed):
    """Supplement 'Changes in set up': the piles are stacked C, B, then A on top and the top
    two cards revealed: the first display is two cards of deck A."""
    g = affresco.new_game(players=players, modules=("portraits",), seed=seed)
    v = g.view(0)["portraits"]
    assert [c["deck"] for c in v["display"]] == ["A", "A"]
    assert v["deck_left"] == {"A": 4, "B": 6, "C": 6}
    assert v["owned"] == [[] for _ in range(players)]


def test_cards_are_revealed_from_the_earliest_deck_left():
    """'The piles are stacked C, B, then A on top': a card is revealed from the cards of the
    earliest deck still there (any of them, drawn at random), for every part of the deck left."""
    import random

    from affresco.rules.modules.portraits import _top_cards
    g = affresco.new_game(players=3, modules=("portraits",), seed=1)
    cards = g.state.hooks.named["portraits"].data.cards
    rng = random.Random(7)
    for _ in range(300):
        deck = tuple(sorted(rng.sample(sorted(cards), rng.randint(1, len(cards)))))
        first = min(cards[c].deck for c in deck)
        assert _top_cards(cards, deck) == tuple(c for c in deck if cards[c].deck == first)


def test_reference_edition_has_18_cards_in_decks_of_6():
    """Supplement 'Additional game components' / components.md: 18 portrait cards, backs A, B,
    C (reference edition: 6 each); the printed card names are all present."""
    g = affresco.new_game(players=3, modules=("portraits",), seed=1)
    ids = portrait_ids()
    assert len(ids) == len(set(ids)) == 18
    left = g.view(0)["portraits"]["deck_left"]
    assert sum(left.values()) + 2 == 18
    names = set()
    for i in range(0, len(ids), 2):      # every card on display in turn (a player owns only permanent ones)
        g = module_game(3, modules=["portraits"], modules_state={"portraits": portraits_state(3, display=ids[i:i + 2])})
        names |= {c["name"] for c in g.view(1)["portraits"]["display"]}
    assert {"God's servant", "Actor", "Abbot", "Sexton", "Merchant", "Patron", "Muse", "Peers", "Bishop",
            "Virgin Mary", "Pretty girl", "Self-portrait"} <= names


# ------------------------------------------------------------------------------ studio
def test_one_portrait_and_3_thalers_for_each_other_studio_apprentice():
    """Supplement 'Studio: Paint portraits' / R14: one apprentice paints a displayed portrait;
    each other studio apprentice earns 3 Thalers as usual; at most one portrait per visit."""
    g = portrait_game(["patron-a", "merchant-a"], ["0-0-3-0-0", NOTHING, KEEP])
    assert {"portrait patron-a", "studio", "pass"} <= legal(g, 0)
    g.apply(0, "portrait patron-a")
    assert thalers(g, 0) == 12 + 7
    assert mods(g, "portraits")["display"] == ["merchant-a"]
    assert legal(g, 0) == {"studio", "pass"}          # R14: no second portrait this visit
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "portrait merchant-a RY")
    g.apply(0, "studio")
    assert thalers(g, 0) == 12 + 7 + 2 * 3


def test_single_studio_apprentice_painting_a_portrait_earns_no_thalers():
    """Supplement 'Studio': the portrait is taken *for one of their apprentices*; that
    apprentice earns no 3 Thalers."""
    g = portrait_game(["patron-a"], ["0-0-1-0-0", "0-0-1-0-0", NOTHING])
    g.apply(0, "portrait patron-a")
    assert thalers(g, 0) == 19
    assert only_actor(g) == 1                          # seat 0's visit is over
    assert "portrait patron-a" not in legal(g, 1)       # the card is gone from the display
    g.apply(1, "studio")
    assert thalers(g, 1) == 15


def test_without_display_only_the_thalers():
    """Supplement 'Studio': if both portraits have been painted already, the players can only
    be paid 3 Thalers."""
    g = portrait_game([], ["0-0-2-0-0", NOTHING, KEEP])
    assert legal(g, 0) == {"studio", "pass"}
    g.apply(0, "studio")
    assert thalers(g, 0) == 18


def test_second_player_takes_the_other_card_then_display_is_empty():
    """Supplement 'Studio': the two cards on open display can be taken one each by different
    players in the same round; the third visitor gets only Thalers."""
    g = portrait_game(["patron-a", "patron-c"], ["0-0-1-0-0", "0-0-1-0-0", "0-0-1-0-0"])
    g.apply(0, "portrait patron-a")
    g.apply(1, "portrait patron-c")
    assert legal(g, 2) == {"studio", "pass"}
    assert mods(g, "portraits")["display"] == []


def test_one_portrait_per_round_again_next_round():
    """R14: the limit is one portrait per studio visit: next round the same player may paint
    again."""
    g = portrait_game(["patron-a", "patron-c"], ["0-0-1-0-0", NOTHING, NOTHING],
                      deck=["merchant-a", "muse", "abbot", "actor"])
    g.apply(0, "portrait patron-a")
    assert data(g)["round"] == 2
    getups(g)
    plan_all(g, "0-0-1-0-0", NOTHING, NOTHING)
    assert only_actor(g) == 0
    assert any(a.startswith("portrait") for a in legal(g, 0))


# --------------------------------------------------------------------- one-time cards
def test_patron_pays_7_thalers_and_leaves_the_game():
    """Supplement 'Patron': the player gains 7 Thalers; a one-time card is then removed from
    the game."""
    g = portrait_game(["patron-a"], ["0-0-1-0-0", NOTHING, KEEP])
    g.apply(0, "portrait patron-a")
    assert thalers(g, 0) == 19
    assert gone(g, "patron-a")
    assert mods(g, "portraits")["owned"][0] == []


def test_merchant_two_basic_paints_of_choice_and_1_thaler():
    """Supplement 'Merchant': any 2 paint pieces (red, yellow, blue) of the player's choice +
    1 Thaler; the six choices (with repeats) are offered and nothing else."""
    g = portrait_game(["merchant-a"], ["0-0-1-0-0", NOTHING, KEEP], seats=[dict(getup="7:00", paints=""),
                                                                           dict(getup="8:00"), dict(getup="9:00")])
    offered = {a for a in legal(g, 0) if a.startswith("portrait")}
    assert offered == {f"portrait merchant-a {c}" for c in ("RR", "RY", "RB", "YY", "YB", "BB")}
    g.apply(0, "portrait merchant-a BB")
    assert paints(g, 0) == "BB"
    assert thalers(g, 0) == 13
    assert gone(g, "merchant-a")


def test_merchant_choice_is_written_in_any_order():
    """Notation: 'portrait merchant-a YR' is the same action as 'portrait merchant-a RY'."""
    g = portrait_game(["merchant-a"], ["0-0-1-0-0", NOTHING, KEEP])
    g.apply(0, "portrait merchant-a YR")
    assert paints(g, 0) == "RRYYB"


@pytest.mark.parametrize("cid", ["peers-a", "peers-b"])
def test_peers_money_and_a_paint(cid):
    """Supplement 'Peers': the player gains money and a paint piece as shown."""
    g = portrait_game([cid], ["0-0-1-0-0", NOTHING, KEEP], seats=[dict(getup="7:00", paints=""),
                                                                  dict(getup="8:00"), dict(getup="9:00")])
    c = card(g, cid)
    assert c["thalers"] > 0 and c["paint"]
    assert {a for a in legal(g, 0) if a.startswith("portrait")} == {f"portrait {cid}"}
    g.apply(0, f"portrait {cid}")
    assert thalers(g, 0) == 12 + c["thalers"]
    assert paints(g, 0) == c["paint"]
    assert track(g, 0) == "S1"
    assert gone(g, cid)


@pytest.mark.parametrize("cid", ["bishop-b", "bishop-c", "mary"])
def test_bishop_and_virgin_mary_vp_plus_paint_or_thalers(cid):
    """Supplement 'Bishop / Pictures of the Virgin Mary': the player gains victory points and a
    paint piece or Thalers as shown."""
    g = portrait_game([cid], ["0-0-1-0-0", NOTHING, KEEP], seats=[dict(getup="7:00", paints=""),
                                                                  dict(getup="8:00"), dict(getup="9:00")])
    c = card(g, cid)
    assert c["vp"] > 0 and (("paint" in c) != ("thalers" in c))
    g.apply(0, f"portrait {cid}")
    assert track(g, 0) == c["vp"]
    assert paints(g, 0) == c.get("paint", "")
    assert thalers(g, 0) == 12 + c.get("thalers", 0)
    assert gone(g, cid)


@pytest.mark.parametrize("cid", ["girl-a", "girl-c", "self-b", "self-c"])
def test_pretty_girl_self_portrait_the_player_gains_victory_points_or_thalers_as_shown(cid):
    """Supplement 'Pretty girl / Self-portrait: The player gains victory points or Thalers and
    their mood increases as many spaces as shown' (M2): each card shows VP *or* Thalers
    (components.md: Pretty girl VP, Self-portrait Thalers), and gives what it shows, no choice."""
    g = portrait_game([cid], ["0-0-1-0-0", NOTHING, KEEP], seats=[dict(getup="7:00", mood=BOTTOM, aside=True),
                                                                  dict(getup="8:00"), dict(getup="9:00")])
    c = card(g, cid)
    assert ("vp" in c) != ("thalers" in c)
    assert {a for a in legal(g, 0) if a.startswith("portrait")} == {f"portrait {cid}"}
    g.apply(0, f"portrait {cid}")
    if "vp" in c:
        assert track(g, 0) == c["vp"] and thalers(g, 0) == 12
    else:
        assert track(g, 0) == "S1" and thalers(g, 0) == 12 + c["thalers"]
    assert mood(g, 0) == BOTTOM - c["mood"]
    assert gone(g, cid)


@pytest.mark.parametrize("cid,shows", [("girl-a", "vp"), ("self-b", "thalers"), ("girl-c", "vp"),
                                       ("self-c", "thalers")])
def test_pretty_girl_self_portrait_reference_cards_show_vp_or_thalers(cid, shows):
    """components.md, reference decks: A Pretty girl 2 VP, B Self-portrait 4 Thalers, C Pretty
    girl 3 VP, C Self-portrait 5 Thalers; no card offers a choice ('portrait self-b vp' is refused)."""
    g = portrait_game([cid], ["0-0-1-0-0", NOTHING, KEEP])
    assert shows in card(g, cid)
    for choice in ("vp", "thalers"):
        with pytest.raises(affresco.IllegalAction):
            g.apply(0, f"portrait {cid} {choice}")


def test_pretty_girl_self_portrait_the_data_file_decides():
    """M2: the component data, not code, says what a card gives: a user's component file whose
    Self-portrait shows VP gives VP, and a card still written 'vp_or_thalers' is refused."""
    import tomllib
    from importlib import resources
    raw = tomllib.loads(resources.files("affresco.rules").joinpath("data/portraits.toml").read_text())
    for c in raw["cards"]:
        if c["id"] == "self-b":
            c["vp"] = c.pop("thalers")

    def position():
        pos = module_position(3, modules=["portraits"], seats=[dict(s) for s in GETUPS3],
                              modules_state={"portraits": portraits_state(3, display=["self-b"])})
        pos["components"] = {**affresco.load_components().raw, "portraits": raw}
        return pos

    g = load(position())
    plan_all(g, "0-0-1-0-0", NOTHING, KEEP)
    g.apply(0, "portrait self-b")
    assert track(g, 0) == 4 and thalers(g, 0) == 12
    for c in raw["cards"]:
        if c["id"] == "girl-a":
            c["vp_or_thalers"] = c.pop("vp")
    with pytest.raises(affresco.StateError, match="vp_or_thalers"):
        load(position())


@pytest.mark.parametrize("start", [MIDDLE, BOTTOM, 1])
def test_muse_pushes_mood_to_the_top(start):
    """Supplement 'Muse': the player's mood is pushed to its maximum."""
    g = portrait_game(["muse"], ["0-0-1-0-0", NOTHING, KEEP],
                      seats=[dict(getup="7:00", mood=start, aside=start >= 5, neutral=start <= 1),
                             dict(getup="8:00"), dict(getup="9:00")])
    g.apply(0, "portrait muse")
    assert mood(g, 0) == TOP
    assert gone(g, "muse")


# ---------------------------------------------------------------------- permanent cards
@pytest.mark.parametrize("cid", ["servant", "actor", "abbot", "sexton"])
def test_permanent_cards_stay_face_up_with_their_owner(cid):
    """Supplement 'Cards with ∞': the owner places it face up in front of them and benefits
    from it permanently (public: every seat sees it)."""
    g = portrait_game([cid], ["0-0-1-0-0", NOTHING, KEEP])
    g.apply(0, f"portrait {cid}")
    assert mods(g, "portraits")["owned"][0] == [cid]
    for viewer in (0, 1, None):
        assert [c["id"] for c in g.view(viewer)["portraits"]["owned"][0]] == [cid]


def test_gods_servant_one_more_thaler_income_every_round():
    """Supplement "God's servant": each round the player earns an additional income of 1
    Thaler (R10: module income), also without any fresco tile."""
    g = portrait_game([], [NOTHING] * 3, seats=[dict(getup="7:00", tiles=["3:YY", "3:RB"]),
                                                dict(getup="8:00", tiles=["3:YY", "3:RB"]),
                                                dict(getup="9:00")],
                      owned={0: ["servant"], 2: []})
    assert data(g)["round"] == 2
    assert thalers(g, 0) == 12 + 2 + 1
    assert thalers(g, 1) == 12 + 2
    assert thalers(g, 2) == 12


def test_gods_servant_income_without_tiles():
    """Supplement "God's servant" / R10: the extra Thaler does not depend on fresco tiles."""
    g = portrait_game([], [NOTHING] * 3, owned={1: ["servant"]})
    assert thalers(g, 1) == 13 and thalers(g, 0) == 12


@pytest.mark.parametrize("n,start,end_with,end_without", [(1, BOTTOM, 3, 4), (2, BOTTOM, 0, 2), (1, 2, 0, 0)])
def test_actor_theater_3_spaces_per_apprentice(n, start, end_with, end_without):
    """Supplement 'Actor': for each apprentice at the theater the mood increases by 3 spaces
    instead of 2 (never beyond the top, R3)."""
    for owned, end in (({0: ["actor"]}, end_with), ({}, end_without)):
        g = portrait_game([], [f"0-0-0-0-{n}", NOTHING, NOTHING], owned=owned,
                          seats=[dict(getup="7:00", mood=start, aside=start >= 5), dict(getup="8:00"),
                                 dict(getup="9:00")])
        g.apply(0, "theater")
        assert mood(g, 0) == end, owned


def cathedral_game(fresco, bishop_at="C3", owned=None, thalers_=12, paints_="RYBOGP", apprentices=1,
                   players=3, final=False, **kw):
    seats = [dict(getup="7:00", paints=paints_, thalers=thalers_), dict(getup="8:00"), dict(getup="9:00")]
    plan = f"0-{apprentices}-0-0-0" if not final else f"0-{apprentices}-0-0-{apprentices}"
    return portrait_game([], [plan, NOTHING, KEEP], owned=owned, seats=seats, fresco=fresco,
                         bishop=bishop_at, final=final, side=2 if final else 1, **kw)


@pytest.mark.parametrize("seg,base_bonus", [("C3", 3), ("D4", 2), ("B2", 2), ("A1", 0), ("E5", 0)])
def test_abbot_adds_1_to_a_bishop_bonus_only(seg, base_bonus):
    """Supplement 'Abbot': any bonus points gained from the bishop are increased by 1 (so
    4 on the segment, 3 adjacent); no bonus, nothing to increase."""
    for owned, extra in (({0: ["abbot"]}, 1 if base_bonus else 0), ({}, 0)):
        g = cathedral_game({seg: "4:RRY"}, paints_="RRY", owned=owned)
        g.apply(0, f"restore {seg}")
        assert track(g, 0) == 4 + base_bonus + extra, owned


def test_abbot_does_not_help_other_players():
    """Supplement 'Abbot': the benefit is the owner's only."""
    seats = [dict(getup="7:00"), dict(getup="8:00", paints="RRY"), dict(getup="9:00")]
    g = portrait_game([], [NOTHING, "0-1-0-0-0", NOTHING], owned={0: ["abbot"]}, seats=seats,
                      fresco={"C3": "4:RRY"})
    g.apply(1, "restore C3")
    assert track(g, 1) == 7


def test_sexton_moves_the_bishop_anywhere_for_1_thaler():
    """Supplement 'Sexton' / R6 / R14: once a round in the cathedral the owner may move the
    bishop to any segment for 1 Thaler, then restore; the bonus counts from there."""
    g = cathedral_game({"A1": "4:RRY"}, bishop_at="E5", owned={0: ["sexton"]}, paints_="RRY")
    offered = legal(g, 0)
    assert "restore A1 sexton A1" in offered
    assert "restore A1 sexton B2" in offered and "restore A1 sexton E1" in offered
    assert "restore A1 sexton E5" not in offered          # not a move
    g.apply(0, "restore A1 sexton A1")
    assert thalers(g, 0) == 11
    assert track(g, 0) == 4 + 3
    assert bishop(g) == "A1"


def test_sexton_far_move_then_adjacent_bonus():
    """Supplement 'Sexton': the bishop may go to any place, also next to the segment
    (2 bonus points), without paying per step."""
    g = cathedral_game({"A1": "4:RRY"}, bishop_at="E5", owned={0: ["sexton"]}, paints_="RRY")
    g.apply(0, "restore A1 sexton B2")
    assert thalers(g, 0) == 11 and track(g, 0) == 6 and bishop(g) == "A1"


def test_sexton_replaces_the_one_step_move():
    """R14: the Sexton's move replaces the one-step move before that restoration: no action
    does both."""
    g = cathedral_game({"A1": "4:RRY"}, bishop_at="B2", owned={0: ["sexton"]}, paints_="RRY")
    offered = legal(g, 0)
    assert "restore A1 bishop A1" in offered and "restore A1 sexton A1" in offered
    assert not any("sexton" in a and "bishop" in a for a in offered)
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore A1 sexton C3 bishop B2")


def test_sexton_once_a_round():
    """Supplement 'Sexton': once each round; a second cathedral apprentice moves the bishop
    only one step as usual."""
    g = cathedral_game({"A1": "4:RRY", "E5": "4:RRY"}, bishop_at="C3", owned={0: ["sexton"]},
                       paints_="RRYRRY", apprentices=2)
    g.apply(0, "restore A1 sexton A1")
    offered = legal(g, 0)
    assert not any("sexton" in a for a in offered)
    assert "restore E5 bishop B1" in offered or "restore E5" in offered
    assert thalers(g, 0) == 11


def test_sexton_once_a_round_in_the_final_round_too():
    """Supplement 'Sexton' / R1: in the final round the cathedral is visited twice; the
    Sexton still works only once that round."""
    g = cathedral_game({"A1": "4:RRY", "E5": "4:RRY", "A5": "4:RRY"}, bishop_at="C3", owned={0: ["sexton"]},
                       paints_="RRYRRY", apprentices=1, final=True)
    g.apply(0, "restore A1 sexton A1")
    # second cathedral column (after the workshop): seat 0 again
    assert only_actor(g) == 0
    assert not any("sexton" in a for a in legal(g, 0))


def test_sexton_needs_a_thaler_and_only_its_owner_uses_it():
    """Supplement 'Sexton': the move costs 1 Thaler (a player without money must forfeit it);
    players without the card have no such move."""
    g = cathedral_game({"A1": "4:RRY"}, bishop_at="E5", owned={0: ["sexton"]}, paints_="RRY", thalers_=0)
    assert not any("sexton" in a for a in legal(g, 0))
    g = cathedral_game({"A1": "4:RRY"}, bishop_at="E5", owned={1: ["sexton"]}, paints_="RRY")
    assert not any("sexton" in a for a in legal(g, 0))


def test_sexton_again_next_round():
    """Supplement 'Sexton': once *each* round: available again the next round."""
    g = cathedral_game({"A1": "4:RRY", "E5": "4:RRY"}, bishop_at="C3", owned={0: ["sexton"]},
                       paints_="RRYRRY")
    g.apply(0, "restore A1 sexton A1")
    act(g, "theater")
    assert data(g)["round"] == 2
    getups(g)
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    assert only_actor(g) == 0
    assert "restore E5 sexton E5" in legal(g, 0)


# ------------------------------------------------------------------- round preparation
def test_leftover_cards_leave_the_game_and_two_new_are_revealed():
    """Supplement 'Preparing the next round': reveal 2 new cards from the top of the deck; any
    card left from the previous round is removed from the game."""
    g = portrait_game(["patron-a", "merchant-a"], ["0-0-1-0-0", NOTHING, NOTHING],
                      deck=["muse", "abbot", "sexton", "actor", "girl-c", "mary"])
    g.apply(0, "portrait patron-a")
    p = mods(g, "portraits")
    assert data(g)["round"] == 2
    assert len(p["display"]) == 2
    assert "merchant-a" not in p["display"] + p["deck"]
    assert gone(g, "merchant-a") and gone(g, "patron-a")
    assert len(p["deck"]) == 4


def test_new_cards_come_from_deck_A_then_B_then_C():
    """Supplement set-up: pile C at the bottom, B on it, A on top: the display is refilled
    from A while it lasts, then B, then C."""
    deck = ["abbot", "sexton", "mary", "bishop-c", "actor", "servant"]   # A: actor, servant; B; C
    g = portrait_game([], [NOTHING] * 3, deck=deck)
    decks = []
    for _ in range(3):
        v = g.view(0)["portraits"]
        decks.append(sorted(c["deck"] for c in v["display"]))
        if data(g)["final_round"]:
            break
        getups(g)
        plan_all(g, NOTHING, NOTHING, NOTHING)
    assert decks == [["A", "A"], ["B", "B"], ["C", "C"]]


def test_last_two_cards_revealed_make_the_final_round():
    """Supplement 'Changes for End of the game' / R11: if the last 2 portrait cards have been
    revealed this is the final round (action sheets flipped)."""
    g = portrait_game(["patron-a", "merchant-a"], [NOTHING] * 3, deck=["muse", "abbot"])
    d = data(g)
    assert d["round"] == 2
    assert d["final_round"] is True and d["action_sheet_side"] == 2
    assert sorted(mods(g, "portraits")["display"]) == ["abbot", "muse"]
    assert mods(g, "portraits")["deck"] == []


def test_last_two_cards_revealed_a_position_without_the_final_flag_is_the_final_round():
    """Supplement 'Changes for End of the game' / R11: a position in phase getup with the last
    two cards on display and the deck empty, written without ``final_round`` and
    ``action_sheet_side``, is the final round (action sheets flipped)."""
    pos = module_position(3, modules=["portraits"], phase="getup",
                          modules_state={"portraits": portraits_state(3, display=["muse", "abbot"], deck=[])})
    del pos["final_round"], pos["action_sheet_side"]
    d = data(load(pos))
    assert d["final_round"] is True and d["action_sheet_side"] == 2


def test_last_two_cards_revealed_a_visits_position_without_the_final_flag_is_the_final_round():
    """Supplement 'Changes for End of the game' / R11 (rules notes N19): the deck changes only at
    round preparation, so a position in phase visits with the deck empty, written without
    ``final_round`` and ``action_sheet_side``, is the final round too (side 2): the game ends
    after it (before: a further round was played)."""
    pos = module_position(3, modules=["portraits"], phase="visits",
                          seats=[dict(plan=[0, 0, 0, 0, 0]), dict(plan=[0, 0, 0, 0, 0]), dict(plan=[0, 0, 0, 0, 1])],
                          modules_state={"portraits": portraits_state(3, display=["muse"], deck=[])})
    del pos["final_round"], pos["action_sheet_side"]
    g = load(pos)
    d = data(g)
    assert d["final_round"] is True and d["action_sheet_side"] == 2
    while not g.is_over:
        act(g, "pass")
    assert data(g)["round"] == 1


def test_cards_left_in_the_deck_do_not_end_the_game():
    """Supplement 'End of the game' / R11: with cards still in the deck after the reveal, the
    round is an ordinary one (many tiles on the board)."""
    g = portrait_game(["patron-a", "merchant-a"], [NOTHING] * 3, deck=["muse", "abbot", "actor", "servant"])
    d = data(g)
    assert d["round"] == 2 and d["final_round"] is False and d["action_sheet_side"] == 1


def test_final_round_by_portraits_then_game_ends():
    """R11/R12: the final round triggered by the portraits is played on side 2 and followed
    by final scoring (no income)."""
    g = portrait_game([], [NOTHING] * 3, deck=["muse", "abbot"],
                      seats=[dict(getup="7:00", tiles=["3:YY"]), dict(getup="8:00"), dict(getup="9:00")])
    assert data(g)["final_round"] is True
    th = thalers(g, 0)
    while not g.is_over:
        seat = g.to_act[0]
        if data(g)["phase"] == "plan":
            plan_all(g, NOTHING, NOTHING, NOTHING)
            continue
        g.apply(seat, sorted(legal(g, seat))[0])
    assert thalers(g, 0) == th     # no income after the final round


# ---------------------------------------------------------------------------- Leonardo
def two(display, plans=(NOTHING, NOTHING), leo=None, owned=None, deck=None, **kw):
    seats = [dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2")]
    lv = dict(getup="9:00", track="S3")
    lv.update(leo or {})
    return portrait_game(display, list(plans), players=2, seats=seats, owned=owned, deck=deck,
                         leonardo=lv, controller=0, **kw)


def leo_to_studio(g):
    """Leonardo's market (close I) and cathedral visits, by his controller (seat 0)."""
    act(g, "close I")
    seat = only_actor(g)
    g.apply(seat, sorted(a for a in legal(g, seat) if a.startswith("restore"))[0])
    while data(g)["pending_track"] is not None:
        act(g, "track ahead")


def test_leonardo_has_a_studio_apprentice():
    """Supplement '2 players using modules', Module 1: one additional apprentice on the top
    space of Leonardo's studio column."""
    g = two(["patron-a", "bishop-b"])
    assert fig(g, LEO)["plan"] == [1, 1, 1, 0, 0]


def test_leonardo_must_take_a_displayed_portrait_and_gains_only_vp():
    """Supplement Module 1 (2 players): in the studio Leonardo must paint a portrait if
    possible (no pass); the card leaves the game; he gains only its victory points."""
    g = two(["patron-a", "bishop-b"])
    leo_to_studio(g)
    before = track(g, LEO)
    assert only_actor(g) == 0
    offered = legal(g, 0)
    assert offered == {"portrait patron-a", "portrait bishop-b"}   # must: no pass, no Thalers
    vp = card(g, "bishop-b")["vp"]
    g.apply(0, "portrait bishop-b")
    assert track(g, LEO) == before + vp
    assert gone(g, "bishop-b")


def test_leonardo_gains_any_victory_points_granted_by_the_card_none_from_a_thaler_card():
    """Supplement Module 1: 'Leonardo gains any victory points granted by the card' (M3):
    a Pretty girl (VP card) moves him by its VP; a Self-portrait (Thaler card) moves him not at
    all (with self-b displayed he no longer scores 4)."""
    g = two(["girl-a"])
    leo_to_studio(g)
    before, vp = track(g, LEO), card(g, "girl-a")["vp"]
    g.apply(0, "portrait girl-a")
    assert track(g, LEO) == before + vp
    assert gone(g, "girl-a")
    g = two(["self-b"])
    leo_to_studio(g)
    before = track(g, LEO)
    assert legal(g, 0) == {"portrait self-b"}
    g.apply(0, "portrait self-b")
    assert track(g, LEO) == before
    assert gone(g, "self-b")


def test_leonardo_keeps_no_permanent_card():
    """Supplement Module 1: Leonardo's card is removed from the game (he has no income,
    mood or bishop-bonus benefit)."""
    g = two(["servant", "abbot"])
    leo_to_studio(g)
    g.apply(0, "portrait abbot")
    assert gone(g, "abbot")
    assert mods(g, "portraits")["owned"] == [[], []]


def test_leonardo_studio_skipped_without_display():
    """Supplement Module 1: 'if possible': with no card on display Leonardo does nothing."""
    g = two([], deck=["muse", "abbot", "actor", "servant"])
    leo_to_studio(g)
    d = data(g)
    assert d["round"] == 2


def test_leonardo_paints_portraits_in_the_final_round_too():
    """Supplement 2 players: in the final round only Leonardo's cathedral apprentice is
    removed; his studio apprentice (Module 1) stays."""
    g = two(["patron-a", "bishop-b"], final=True, side=2)
    assert fig(g, LEO)["plan"] == [1, 0, 1, 0, 0]
    act(g, "close I")
    assert only_actor(g) == 0
    assert legal(g, 0) == {"portrait patron-a", "portrait bishop-b"}


def _portraits_file(change):
    """A user component file: the reference edition with its portraits cards (by id) changed."""
    from positions import module_components
    return module_components("portraits", lambda table: change({c["id"]: c for c in table["cards"]}))


@pytest.mark.parametrize("change", [
    lambda c: c["actor"].__setitem__("theater", 2),                # "3 spaces instead of only 2"
    lambda c: c["abbot"].__setitem__("bishop_bonus", 2),          # "increased by 1"
    lambda c: c["servant"].__setitem__("income", 2),        # "an additional income of 1 Thaler"
    lambda c: c["sexton"].__setitem__("sexton", 2),               # "paying 1 Thaler"
    lambda c: c["patron-a"].__setitem__("thalers", 8),            # "The player gains 7 Thalers"
    lambda c: c["merchant-c"].__setitem__("basic_paints", 3),     # "any 2 paint pieces ... + 1 Thaler"
    lambda c: c["merchant-a"].pop("thalers"),
    lambda c: c["peers-a"].pop("paint"),                          # "money and a paint piece"
    lambda c: c["mary"].pop("vp"),                         # "victory points and a paint piece or Thalers"
    lambda c: c["bishop-c"].__setitem__("paint", "R"),            # ... a paint piece *or* Thalers
    lambda c: c["girl-a"].pop("mood"),                            # "... and their mood increases"
    lambda c: c["self-b"].__setitem__("vp", 2),                   # "victory points or Thalers"
])
def test_details_of_the_portrait_cards_a_component_file_breaking_a_printed_effect_is_refused(change):
    """Supplement, 'Details of the portrait cards': the amounts the text prints (God's servant
    1 Thaler, Actor 3 spaces, Abbot +1, Sexton 1 Thaler, Merchant 2 basic paints + 1 Thaler,
    Patron 7 Thalers, Muse to the top) and which effects the other cards show are checked in a
    user component file (components.md: a file breaking a printed value is refused, naming it)."""
    with pytest.raises(affresco.ComponentError, match=r"portraits\.cards\[\d+\] \("):
        affresco.new_game(3, ["portraits"], components=_portraits_file(change))


def test_details_of_the_portrait_cards_the_reference_edition_and_other_reconstructed_amounts_load():
    """The reconstructed amounts (Peers, Bishop, Virgin Mary, Pretty girl, Self-portrait) may
    differ in a user's file, as long as each card shows what the supplement says it shows."""
    def change(c):
        c["peers-a"]["thalers"] = 5
        c["mary"]["vp"] = 6
        c["girl-a"]["mood"] = 2
    affresco.new_game(3, ["portraits"], components=_portraits_file(change))


def test_a_card_paid_at_once_is_removed_from_the_game_a_position_owning_one():
    """'When a player obtains such a card they are paid the reward immediately. Subsequently the
    card is removed from the game': only permanent cards stay in front of a player. A position
    whose `owned` held a card paid at once (the Patron) loaded, and the observation then failed
    (KeyError); it is refused naming `owned[0]` (rules notes M15). A permanent card loads."""
    from positions import load, module_position

    pos = module_position(3, modules=["portraits"], modules_state={"portraits": {"owned": [["patron-a"], [], []]}})
    with pytest.raises(affresco.StateError, match=r"modules_state\.portraits\.owned\[0\]: \['patron-a'\]: a player "
                                                  r"keeps only permanent cards"):
        load(pos)
    pos["modules_state"]["portraits"]["owned"] = [["abbot"], [], []]
    g = load(pos)
    assert [c["id"] for c in g.view(0)["portraits"]["owned"][0]] == ["abbot"]
    assert len(g.observation(0))
