"""Module 3, 'Special blend colors' (supplement p. 3; Russian edition 'Особые цвета';
rulings R6, R7, R9, R16; option ``special_colours_on_fresco``)."""
from __future__ import annotations

from collections import Counter

import pytest

import affresco

from positions import bishop, data, legal, load, module_game, only_actor, paints, plan_all, track  # noqa: E402

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 at the theater (9:00, last): keeps the round open
OPTION = "special_colours_on_fresco"


def sc_game(plan, paints_, fresco=None, option=None, bishop_at="C3", **kw):
    """Seat 0 (7:00) with ``paints_`` visits per ``plan``; seat 2 keeps the round open."""
    opts = {} if option is None else {OPTION: option}
    g = module_game(3, modules=["special_colours"], options=opts,
                    seats=[dict(getup="7:00", paints=paints_), dict(getup="8:00"), dict(getup="9:00")],
                    fresco=fresco or {}, bishop=bishop_at, **kw)
    plan_all(g, plan, NOTHING, KEEP)
    return g


def restores(g, seat=0):
    return {a for a in legal(g, seat) if a.startswith("restore") and "bishop" not in a}


# ------------------------------------------------------------------------------ set-up
def base_tiles():
    """The 25 base fresco tiles of the edition (a base game's board)."""
    g = affresco.new_game(players=3, seed=0)
    return Counter(f"{t.vp}:{t.paints}" for t in g.state.fresco)


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(5))
def test_setup_24_in_centre_7_base_tiles_removed(players, seed):
    """Supplement 'Changes in set up': the tile valued 24 goes to the centre; 7 base tiles are
    removed at random; the other 6 new tiles are mixed with the remaining 18 base tiles and
    spread over the fresco: 25 tiles, all 7 new ones among them."""
    g = affresco.new_game(players=players, modules=("special_colours",), seed=seed)
    fresco = g.state.fresco
    assert all(t is not None for t in fresco) and len(fresco) == 25
    assert fresco[12].vp == 24
    new = [t for t in fresco if t.vp >= 13]
    base = Counter(f"{t.vp}:{t.paints}" for t in fresco if t.vp < 13)
    assert len(new) == 7 and sum(t.vp == 24 for t in new) == 1
    assert all(13 <= t.vp <= 24 for t in new)
    assert sum(base.values()) == 18
    assert not base - base_tiles()                  # a sub-multiset of the base tiles


def test_setup_same_new_tiles_every_game_and_base_tiles_vary():
    """Supplement set-up: every new tile is used (only the base tiles are removed, at
    random)."""
    news, bases = set(), set()
    for seed in range(8):
        g = affresco.new_game(players=3, modules=("special_colours",), seed=seed)
        news.add(tuple(sorted(f"{t.vp}:{t.paints}" for t in g.state.fresco if t.vp >= 13)))
        bases.add(tuple(sorted(f"{t.vp}:{t.paints}" for t in g.state.fresco if t.vp < 13)))
    assert len(news) == 1
    assert len(bases) > 1


def test_reference_new_tiles():
    """components.md (reference edition): the 7 new tiles 13 KG, 15 NYY, 16 KK, 18 NO, 20 NK,
    22 NN, 24 NNK (24 printed)."""
    g = affresco.new_game(players=3, modules=("special_colours",), seed=2)
    got = sorted((t.vp, "".join(sorted(t.paints))) for t in g.state.fresco if t.vp >= 13)
    assert got == [(13, "GK"), (15, "NYY"), (16, "KK"), (18, "NO"), (20, "KN"), (22, "NN"), (24, "KNN")]


def test_fresco_tiles_survive_a_save_and_load():
    """State format / R15: to_json -> from_json keeps every tile as it was, including what its
    back shows (the splashes used by the bishop's requests)."""
    for seed in range(3):
        g = affresco.new_game(players=3, modules=("special_colours", "requests"), seed=seed)
        again = affresco.Game.from_json(g.to_json())
        assert [(t.vp, t.paints, t.splashes) for t in again.state.fresco] == \
            [(t.vp, t.paints, t.splashes) for t in g.state.fresco]


# ---------------------------------------------------------------------------- blending
@pytest.mark.parametrize("have,blend,after", [
    ("PR", "K", "K"), ("RRP", "K", "RK"), ("OG", "N", "N"), ("OGG", "N", "GN"),
])
def test_new_blends(have, blend, after):
    """Supplement 'Workshop': purple + red blend into pink (K), orange + green into brown (N)."""
    g = sc_game("0-0-0-1-0", have)
    g.apply(0, f"blend {blend}")
    assert paints(g, 0) == after


@pytest.mark.parametrize("have,bad", [("PB", "K"), ("PY", "K"), ("RR", "K"), ("OO", "N"), ("OY", "N"),
                                      ("GP", "N"), ("KN", "K"), ("KN", "N")])
def test_new_blends_need_both_paints(have, bad):
    """Supplement 'Workshop': only P+R=K and O+G=N; no other new blend."""
    g = sc_game("0-0-0-1-0", have)
    assert f"blend {bad}" not in legal(g, 0)


def test_no_pink_or_brown_without_the_module():
    """Base game: the blending table has only O, G, P."""
    from positions import game
    g = game(3, seats=[dict(getup="7:00", paints="PROG"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    assert "blend K" not in legal(g, 0) and "blend N" not in legal(g, 0)


def test_a_paint_just_blended_is_used_by_the_next_blend():
    """Supplement 'Workshop' / R9 / R16: the same apprentice who just blended a paint may reuse
    it immediately for a second blend: R+B=P, then P+R=K."""
    g = sc_game("0-0-0-1-0", "RRB")
    g.apply(0, "blend P")
    assert "blend K" in legal(g, 0)
    g.apply(0, "blend K")
    assert paints(g, 0) == "K"
    assert only_actor(g) == 2            # the apprentice's two blends are used


def test_brown_from_basic_paints_takes_three_blends():
    """R9 / R16: Y+R=O and Y+B=G, then O+G=N: three blends, so two apprentices."""
    g = sc_game("0-0-0-2-0", "RYYB")
    for b in ("O", "G", "N"):
        g.apply(0, f"blend {b}")
    assert paints(g, 0) == "N"


# ------------------------------------------------------------------------------- altar
@pytest.mark.parametrize("have,vp", [
    ("OGK", 9),      # supplement example: 6 VP + 3 for 1 pink
    ("NNN", 21),     # supplement example: 6 VP + 3 x 5 for 3 brown
    ("OGP", 6),      # base blend form unchanged
    ("KKK", 15),
    ("GPN", 11),
    ("KNO", 14),
])
def test_altar_blend_form_with_pink_and_brown(have, vp):
    """Supplement 'Cathedral: Restore the altar' and its examples (9 VP = 6 + 3 for 1 pink;
    21 VP = 6 + 3 x 5 brown) / R7: K and N may replace O, G, P: +3 per K, +5 per N."""
    g = sc_game("0-1-0-0-0", have)
    g.apply(0, f"altar {have}")
    assert track(g, 0) == vp
    assert paints(g, 0) == ""


@pytest.mark.parametrize("have,vp", [("RYK", 5), ("RYN", 7), ("RKN", 10), ("YBK", 5), ("RGK", 6)])
def test_altar_basic_form_with_pink_and_brown(have, vp):
    """R7: in the basic form (R, Y, B = 2 VP) any slot may be taken by a blended paint; pink
    and brown count +3 and +5 there too."""
    g = sc_game("0-1-0-0-0", have)
    g.apply(0, f"altar {have}")
    assert track(g, 0) == vp


@pytest.mark.parametrize("have,vp", [("RRK", None), ("OOK", 7), ("KKR", 8), ("NNY", 12), ("OOG", 5)])
def test_altar_forms_with_repeated_paints(have, vp):
    """R7 and the rulebook altar examples ('2 orange and 1 green substitute red/yellow/blue' =
    5 VP): two reds fit no form; O, O, K fit the basic form (2 + 1 + 1 + 3); K, K, R fit the
    basic form (R + two substitutes: 2 + 3 + 3); N, N, Y: 2 + 5 + 5."""
    g = sc_game("0-1-0-0-0", have)
    if vp is None:
        assert f"altar {have}" not in legal(g, 0)
        return
    g.apply(0, f"altar {have}")
    assert track(g, 0) == vp


# ------------------------------------------------------------ special colours on the fresco
def test_option_is_off_by_default():
    """Supplement (English text): pink/brown replace blended paints at the *altar*; R6: on the
    fresco the paints shown are needed exactly, unless option special_colours_on_fresco."""
    g = sc_game("0-1-0-0-0", "KG", fresco={"A1": "7:OG"})
    assert restores(g) == set()
    assert not any("using" in a for a in legal(g, 0))
    g = sc_game("0-1-0-0-0", "OGK", fresco={"A1": "7:OG"})
    assert restores(g) == {"restore A1"}
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "restore A1 using GK")


def test_option_off_by_default_in_a_new_game():
    """Option special_colours_on_fresco is off unless chosen (view says so)."""
    g = affresco.new_game(players=3, modules=("special_colours",), seed=0)
    assert g.view(0)["special_colours"]["on_fresco"] is False
    g = affresco.new_game(players=3, modules=("special_colours",), seed=0, options={OPTION: True})
    assert g.view(0)["special_colours"]["on_fresco"] is True


@pytest.mark.parametrize("tile,have,using,vp", [
    ("7:OG", "GK", "GK", 7 + 3),
    ("7:OG", "KO", "OK", 7 + 3),
    ("7:OG", "NN", "NN", 7 + 10),
    ("11:OGP", "KNP", "PKN", 11 + 8),
    ("8:OOY", "YKK", "YKK", 8 + 6),
    ("9:POB", "BKN", "BKN", 9 + 8),
])
def test_option_on_pink_and_brown_replace_blended_paints_on_the_fresco(tile, have, using, vp):
    """Russian text 'Особые цвета' / R6 option: pink and brown may replace green, orange and
    purple in any combination when restoring the fresco; each pink used +3 VP, each brown
    +5 VP (bishop elsewhere: no bonus)."""
    g = sc_game("0-1-0-0-0", have, fresco={"A1": tile}, option=True, bishop_at="E5")
    assert f"restore A1 using {using}" in legal(g, 0)
    g.apply(0, f"restore A1 using {using}")
    assert track(g, 0) == vp
    assert paints(g, 0) == ""


def test_option_on_with_the_bishop_bonus_and_a_move():
    """R6: the substitute bonus adds to the bishop bonus; the bishop may be moved first."""
    g = sc_game("0-1-0-0-0", "GK", fresco={"A1": "7:OG"}, option=True, bishop_at="C3")
    assert "restore A1 bishop B2 using GK" in legal(g, 0)
    g.apply(0, "restore A1 bishop B2 using GK")
    assert track(g, 0) == 7 + 2 + 3 and bishop(g) == "A1"


@pytest.mark.parametrize("tile,have", [("4:RRY", "RRK"), ("3:YY", "YN"), ("5:RYB", "RYK")])
def test_option_on_basic_paints_are_not_replaced(tile, have):
    """Russian text: pink and brown replace *green, orange and purple* only."""
    g = sc_game("0-1-0-0-0", have, fresco={"A1": tile}, option=True, bishop_at="E5")
    assert not any(a.startswith("restore A1") for a in legal(g, 0))


@pytest.mark.parametrize("tile,using,vp", [
    ("13:GK", "KK", 13 + 3),       # the pink shown is paid as shown; one pink replaces green
    ("13:GK", "KN", 13 + 5),       # brown replaces green
    ("18:NO", "KN", 18 + 3),       # pink replaces orange; the brown is the one shown
    ("18:NO", "NN", 18 + 5),
])
def test_option_on_only_substitutes_score_the_bonus(tile, using, vp):
    """Russian text / R6: the +3/+5 is for pink/brown *replacing* a blended paint; a pink or
    brown the tile itself shows is paid as shown (its value is in the tile's VP), as it is
    when the tile is paid exactly ('restore A1' on 16:KK scores 16)."""
    g = sc_game("0-1-0-0-0", using, fresco={"A1": tile}, option=True, bishop_at="E5")
    g.apply(0, f"restore A1 using {using}")
    assert track(g, 0) == vp


def test_option_on_tile_paid_as_shown_scores_its_value():
    """R6: paying the paints shown scores the tile's value (plus any bishop bonus)."""
    g = sc_game("0-1-0-0-0", "KK", fresco={"A1": "16:KK"}, option=True, bishop_at="E5")
    g.apply(0, "restore A1")
    assert track(g, 0) == 16


def test_option_on_offers_using_only_for_a_real_substitution():
    """Notation ('restore C3 using GPK': pay K/N *instead of* O/G/P shown): with no pink or
    brown paid there is nothing to name; the move is 'restore A1' once, not also under a
    second name."""
    g = sc_game("0-1-0-0-0", "ORB", fresco={"A1": "6:ORB", "B5": "7:GO"}, option=True, bishop_at="E5")
    assert not any("using" in a for a in legal(g, 0))
    assert restores(g) == {"restore A1"}


def test_option_on_in_a_reference_game_every_using_pays_pink_or_brown():
    """Notation: every 'using' action names a payment with K or N (reference board, whose
    base tiles are written like '6:ORB')."""
    g = affresco.new_game(players=3, modules=("special_colours",), seed=4, options={OPTION: True})
    d = data(g)
    d["phase"] = "plan"
    d["figures"][0]["paints"] = "RRYYBBOOGGPP"
    for i, t in enumerate(["7:00", "8:00", "9:00"]):
        d["figures"][i]["getup"] = t
    d["turn"] = {}
    g = load(d)
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    using = sorted(a for a in legal(g, 0) if "using" in a)
    bad = [a for a in using if not set(a.split()[-1]) & set("KN")]
    assert bad == []


def test_two_players_leonardo_restores_a_special_tile_like_any_other():
    """Special colours, 2 players: no special rule for Leonardo (R13): he restores a pink/brown
    tile next to his master painter without paint and scores its VP + the bishop bonus."""
    seats = [dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2")]
    g = module_game(2, modules=["special_colours"], seats=seats, leonardo=dict(getup="9:00", track="S3"),
                    fresco={"C3": None, "C2": "24:KNN"}, bishop="C2", leonardo_painter="C3", controller=0)
    plan_all(g, NOTHING, "0-0-1-0-0")
    g.apply(0, "close I")                          # Leonardo's market visit: he closes a booth
    assert "restore C2" in legal(g, 0)
    g.apply(0, "restore C2")
    assert track(g, 2) == 24 + 3                     # the bishop stands on the tile
    assert data(g)["figures"][2]["tiles"] == ["24:KNN"]


@pytest.mark.parametrize("where, change", [
    ("altar.basic", lambda t: t["altar"]["basic"].__setitem__("K", 4)),
    ("fresco_substitute_bonus", lambda t: t["fresco_substitute_bonus"].__setitem__("N", 4)),
])
def test_each_pink_paint_piece_is_worth_an_additional_3_and_each_brown_5_in_a_component_file_too(where, change):
    """'Each pink paint piece is worth an additional 3 victory points. Each brown paint piece is
    worth an additional 5 points!' (supplement; the Russian text on the fresco too; R7 in the
    basic altar form): printed values, so a user component file giving others is refused."""
    from positions import module_components
    comp = module_components("special_colours", change)
    with pytest.raises(affresco.ComponentError, match=f"special_colours.{where}"):
        affresco.new_game(3, ["special_colours"], components=comp)


def test_a_component_file_leaving_out_the_pink_and_brown_bonuses_gets_the_printed_ones():
    """A user file without the basic altar form's and the fresco's pink/brown bonuses gets the
    printed +3 and +5, not nothing."""
    from positions import module_components

    def change(t):
        del t["altar"]["basic"]
        del t["fresco_substitute_bonus"]
    comp = module_components("special_colours", change)
    g = affresco.new_game(3, ["special_colours"], options={"special_colours_on_fresco": True}, components=comp)
    assert g.view(0)["special_colours"]["fresco_bonus"] == {"K": 3, "N": 5}
