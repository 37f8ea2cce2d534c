"""The bishop's favour (Russian edition, 'Благосклонность епископа'; its 2-player note;
rulings R6, R13, R18, R22).

The tokens not yet drawn are written into each position (``favour_state``) so a test knows
which effect the restored tile's token has.
"""
from __future__ import annotations


import pytest

import affresco

from positions import (BOTTOM, act, edit_state, favour_state, legal, module_game, mods, mood,  # noqa: E402
                       paints, plan_all, portraits_state, thalers, track)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 at the theater (9:00, last): keeps the round open
LEO = 2


def favour_game(tokens, fresco, bishop_at="C3", paints_="YY", plan="0-1-0-0-0", mood_=3, modules=("bishops_favour",),
                extra_state=None):
    seats = [dict(getup="7:00", paints=paints_, mood=mood_, aside=mood_ >= 5), dict(getup="8:00"),
             dict(getup="9:00")]
    ms = {"bishops_favour": favour_state(tokens)}
    ms.update(extra_state or {})
    g = module_game(3, modules=list(modules), modules_state=ms, fresco=fresco, bishop=bishop_at, seats=seats)
    plan_all(g, plan, NOTHING, KEEP)
    return g


# ------------------------------------------------------------------------------ set-up
@pytest.mark.parametrize("players", [2, 3, 4])
def test_setup_one_token_per_tile_hidden(players):
    """'Благосклонность епископа', set-up: one favour token face down on every fresco tile
    (25) / R22: nobody sees them; the view shows only how many are left."""
    g = affresco.new_game(players=players, modules=("bishops_favour",), seed=5)
    assert len(mods(g, "bishops_favour")) == 25
    for viewer in list(range(players)) + [None]:
        assert g.view(viewer)["bishops_favour"] == {"tokens_left": 25}


def test_reference_tokens_have_the_printed_kinds():
    """'Благосклонность епископа' (printed kinds): 1 or 5 Thalers, +1 VP, mood +1, a paint."""
    g = affresco.new_game(players=3, modules=("bishops_favour",), seed=5)
    kinds = {t.split(":")[0] + (":" + t.split(":")[1] if t.startswith(("thalers", "vp", "mood")) else "")
             for t in mods(g, "bishops_favour")}
    assert kinds <= {"thalers:1", "thalers:5", "vp:1", "mood:1", "paint"}
    assert {"thalers:1", "thalers:5", "vp:1", "mood:1", "paint"} <= kinds


def test_tokens_are_hidden_from_every_seat():
    """R22 / 'face down': changing which tokens are left changes no seat's view."""
    g = affresco.new_game(players=3, modules=("bishops_favour",), seed=5)

    def edit(d):
        d["modules_state"]["bishops_favour"] = ["thalers:5"] * 25

    h = edit_state(g, edit)
    for viewer in (0, 1, 2, None):
        assert g.view(viewer) == h.view(viewer)


# --------------------------------------------------------------------------- effects
@pytest.mark.parametrize("token", ["thalers:1", "thalers:5"])
def test_thalers_token(token):
    """'Благосклонность епископа': restoring the segment the bishop stands on, the player takes
    its token with the tile; the effect is immediate: 1 or 5 Thalers behind the screen."""
    g = favour_game([token] * 3, {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3")
    assert thalers(g, 0) == 12 + int(token.split(":")[1])
    assert track(g, 0) == 6
    assert mods(g, "bishops_favour") == [token] * 2
    assert g.view(1)["bishops_favour"] == {"tokens_left": 2}


def test_vp_token():
    """'Благосклонность епископа': +1 victory point."""
    g = favour_game(["vp:1"], {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3")
    assert track(g, 0) == 3 + 3 + 1
    assert mods(g, "bishops_favour") == []


def test_favour_vp_triggers_at_once_one_move_with_the_restoration_lands_free():
    """R18 revised / R8, Russian text: the token is taken with the tile and 'its effect triggers
    at once': tile 3 + bishop 3 + favour 1 is ONE move of 7. From S1, with spaces 6 and 8
    taken, it lands on the free 7 with no choice (two moves would stop on the occupied 6 first
    and ask behind/ahead)."""
    seats = [dict(getup="7:00", paints="YY"), dict(getup="8:00", track=6), dict(getup="9:00", track=8)]
    g = module_game(3, modules=["bishops_favour"], modules_state={"bishops_favour": favour_state(["vp:1"])},
                    fresco={"C3": "3:YY"}, bishop="C3", seats=seats)
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    g.apply(0, "restore C3")
    assert g.view(0)["pending_track"] is None
    assert track(g, 0) == 7
    scored = [e for e in g.events(None) if e["kind"] == "score" and e["figure"] == 0]
    assert len(scored) == 1
    assert scored[0]["vp"] == 7 and scored[0]["sources"] == {"tile": 3, "bishop": 3, "favour": 1}
    assert g.vp_sources()[0] == {"tile": 3, "bishop": 3, "favour": 1}


def test_favour_vp_one_move_one_behind_or_ahead_choice():
    """R18 revised / R8: landing 3 + 3 + 1 = 7 on an occupied space asks ONE behind/ahead
    choice (6 behind; 8 taken, so 9 ahead), and nothing more after it."""
    seats = [dict(getup="7:00", paints="YY"), dict(getup="8:00", track=7), dict(getup="9:00", track=8)]
    g = module_game(3, modules=["bishops_favour"], modules_state={"bishops_favour": favour_state(["vp:1"])},
                    fresco={"C3": "3:YY"}, bishop="C3", seats=seats)
    plan_all(g, "0-1-0-0-0", NOTHING, KEEP)
    g.apply(0, "restore C3")
    p = g.view(0)["pending_track"]
    assert (p["figure_index"], p["behind"], p["ahead"]) == (0, 6, 9)
    g.apply(0, "track behind")
    assert track(g, 0) == 6 and g.view(0)["pending_track"] is None


def test_leonardos_favour_vp_is_part_of_his_restorations_move():
    """R13 + R18 revised: Leonardo's VP token joins his restoration's single move: 3 + 3 + 1
    lands on 7 though space 6 is taken (no choice asked)."""
    seats = [dict(getup="7:00", track=6), dict(getup="8:00", track="S2")]
    g = module_game(2, modules=["bishops_favour"], modules_state={"bishops_favour": favour_state(["vp:1"])},
                    seats=seats, leonardo=dict(getup="9:00", track="S3"), leonardo_painter="C3",
                    bishop="B3", fresco={"B3": "3:YY"}, fill="11:OGP", controller=0)
    plan_all(g, NOTHING, NOTHING)
    act(g, "close I")
    g.apply(0, "restore B3")
    assert g.view(0)["pending_track"] is None
    assert track(g, LEO) == 7


def test_mood_token():
    """'Благосклонность епископа': mood improves by 1."""
    g = favour_game(["mood:1"], {"C3": "3:YY"}, bishop_at="C3", mood_=BOTTOM)
    g.apply(0, "restore C3")
    assert mood(g, 0) == BOTTOM - 1


@pytest.mark.parametrize("colour", ["R", "Y", "B", "O", "G"])
def test_paint_token(colour):
    """'Благосклонность епископа': the paint shown goes behind the player's screen."""
    g = favour_game([f"paint:{colour}"], {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3")
    assert paints(g, 0) == colour


def test_paint_token_usable_at_once():
    """'Благосклонность епископа': 'the effect applies immediately': a paint taken is usable by
    the player's next cathedral apprentice."""
    g = favour_game(["paint:Y"], {"C3": "3:YY", "C4": "3:YY"}, bishop_at="C3", paints_="YYY", plan="0-2-0-0-0")
    g.apply(0, "restore C3")
    assert paints(g, 0) == "YY"
    assert "restore C4" in legal(g, 0)


# ------------------------------------------------------------ bishop not on the segment
@pytest.mark.parametrize("bishop_at", ["C2", "A1"])
def test_token_discarded_when_the_bishop_is_not_on_the_segment(bishop_at):
    """'Благосклонность епископа': if the bishop is not on the restored segment the player does
    not get the token; it is simply discarded."""
    g = favour_game(["thalers:5", "thalers:5"], {"C3": "3:YY"}, bishop_at=bishop_at)
    g.apply(0, "restore C3")
    assert thalers(g, 0) == 12
    assert mods(g, "bishops_favour") == ["thalers:5"]        # one token gone with the tile
    assert g.view(0)["bishops_favour"] == {"tokens_left": 1}


def test_bishop_moved_onto_the_segment_first():
    """R18: restoring the segment the bishop stands on *after any move*: a one-step move onto
    it (1 Thaler) earns the token."""
    g = favour_game(["thalers:5"], {"C3": "3:YY"}, bishop_at="C2")
    g.apply(0, "restore C3 bishop C3")
    assert thalers(g, 0) == 12 - 1 + 5
    assert track(g, 0) == 6


def test_bishop_moved_off_the_segment_first():
    """R18: moving the bishop away before restoring loses the token."""
    g = favour_game(["thalers:5"], {"C3": "3:YY"}, bishop_at="C3")
    g.apply(0, "restore C3 bishop C2")
    assert thalers(g, 0) == 11
    assert mods(g, "bishops_favour") == []


def test_sexton_move_onto_the_segment_earns_the_token():
    """Supplement 'Sexton' + R18: the Sexton's move onto the segment counts like any move."""
    g = favour_game(["vp:1"], {"A1": "3:YY"}, bishop_at="E5", modules=("portraits", "bishops_favour"),
                    extra_state={"portraits": portraits_state(3, owned={0: ["sexton"]})})
    g.apply(0, "restore A1 sexton A1")
    assert track(g, 0) == 3 + 3 + 1
    assert thalers(g, 0) == 11


def test_each_restoration_uses_one_token():
    """Set-up: one token per tile: every restored tile takes its own token away."""
    g = favour_game(["vp:1"] * 5, {"C3": "3:YY", "C4": "3:YY", "A1": "3:YY"}, bishop_at="C3",
                    paints_="YYYYYY", plan="0-3-0-0-0")
    g.apply(0, "restore C3")             # bishop on: taken
    g.apply(0, "restore C4 bishop C4")   # moved on: taken
    g.apply(0, "restore A1")             # bishop far: discarded
    assert mods(g, "bishops_favour") == ["vp:1", "vp:1"]
    assert track(g, 0) == (3 + 3 + 1) + (3 + 3 + 1) + 3


def test_altar_uses_no_token():
    """'Благосклонность епископа': the tokens lie on fresco tiles; the altar has none."""
    g = favour_game(["vp:1"], {}, paints_="OGP")
    g.apply(0, "altar OGP")
    assert mods(g, "bishops_favour") == ["vp:1"]


# ---------------------------------------------------------------------------- Leonardo
def two(tokens, bishop_at="B3"):
    seats = [dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2")]
    g = module_game(2, modules=["bishops_favour"], modules_state={"bishops_favour": favour_state(tokens)},
                    seats=seats, leonardo=dict(getup="9:00", track="S3"), leonardo_painter="C3",
                    bishop=bishop_at, fresco={"B3": "3:YY"}, fill="11:OGP", controller=0)
    plan_all(g, NOTHING, NOTHING)
    act(g, "close I")
    return g


def test_leonardo_keeps_a_vp_token():
    """R13: a favour token on a tile Leonardo restores under the bishop is kept if it gives
    VP (Leonardo is awarded victory points)."""
    g = two(["vp:1"])
    g.apply(0, "restore B3")
    assert track(g, LEO) == 3 + 3 + 1
    assert mods(g, "bishops_favour") == []


@pytest.mark.parametrize("token", ["thalers:5", "mood:1", "paint:R"])
def test_leonardo_discards_other_tokens(token):
    """Supplement 2 players / R13: Leonardo gets no paint, income or mood: any other token is
    discarded."""
    g = two([token])
    g.apply(0, "restore B3")
    assert track(g, LEO) == 6
    assert mods(g, "bishops_favour") == []
    assert thalers(g, 0) == 12 and thalers(g, 1) == 12
    assert paints(g, 0) == "RYB" and paints(g, 1) == "RYB"


def test_leonardo_without_the_bishop_discards():
    """R18: like everyone, Leonardo earns a token only with the bishop on the segment."""
    g = two(["vp:1"], bishop_at="A1")
    g.apply(0, "restore B3")
    assert track(g, LEO) == 3
    assert mods(g, "bishops_favour") == []
