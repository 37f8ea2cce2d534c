"""The project's own readings of open points (docs/rules-notes.md N- and M-numbers)."""
from __future__ import annotations


import pytest

import affresco

from positions import (data, game, legal, module_game, only_actor, plan_all, portraits_state,  # noqa: E402
                       thalers, track)

NOTHING = "0-0-0-0-0"


def test_n5_pass_in_the_cathedral_forfeits_every_remaining_apprentice():
    """N5 / 'Players are not forced to perform their chosen actions': 'pass' ends the visit."""
    g = game(3, seats=[dict(paints="YYYY"), {}, {}], fresco={"A1": "3:YY", "E5": "3:YY"}, bishop="C3")
    plan_all(g, "0-3-0-0-0", NOTHING, "0-0-0-0-1")
    g.apply(0, "restore A1")
    assert only_actor(g) == 0
    g.apply(0, "pass")
    assert only_actor(g) == 2                      # the theater visitor: seat 0's visit is over
    assert data(g)["fresco"][4][4] == "3:YY"       # E5 not restored, though seat 0 could pay


def test_n7_completing_the_fresco_keeps_the_theater_and_ends_the_game_without_income():
    """R11 / N7: the fresco completed in a round that was not final: that round is final, the
    sheets stay on side 1 (theater visited), no income, then final scoring."""
    g = game(3, seats=[dict(paints="YY", thalers=10, mood=4), {}, {}], fresco={"A1": "3:YY"}, fill=None,
             bishop="E5")
    plan_all(g, "0-1-0-0-1", NOTHING, NOTHING)
    g.apply(0, "restore A1")
    assert not g.is_over and g.view(0)["location"] == "theater" and g.view(0)["final_round"]
    g.apply(0, "theater")
    assert g.is_over
    assert data(g)["figures"][0]["mood"] == 2      # the theater was visited
    assert thalers(g, 0) == 10                     # no income for the tile after the last round
    assert track(g, 0) == 3 + 5                    # 3 VP, then 10 Thalers = 5 VP


def test_n8_leonardo_with_no_tile_left_does_nothing():
    """N8: Leonardo's cathedral visit when the fresco is complete is skipped."""
    g = game(2, seats=[dict(getup="7:00", track="S1", paints="YY"), dict(getup="8:00", track="S2")],
             leonardo=dict(getup="9:00", track="S3"), fresco={"A1": "3:YY"}, fill=None, bishop="E5")
    plan_all(g, "0-1-0-0-0", NOTHING)
    g.apply(0, "close I")                          # seat 0 controls Leonardo: he must close a booth
    g.apply(0, "restore A1")                       # the last tile
    assert g.is_over                               # Leonardo's visit was skipped; final scoring ran
    assert track(g, 2) == "S3"


def test_n10_nearest_free_space_behind_may_be_the_movers_own_space():
    """R8 / N10: at 10, gaining 1 onto an occupied 11: 'behind' is 10, the mover's own space."""
    g = game(3, seats=[dict(track=10, paints="YY"), dict(track=11), dict(track=12)],
             fresco={"A1": "1:YY"}, bishop="E5")
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    g.apply(0, "restore A1")
    assert legal(g, 0) == {"track behind", "track ahead"}
    assert g.view(0)["pending_track"] == {"figure": "P0", "figure_index": 0, "behind": 10, "ahead": 13, "target": 11}
    assert affresco.Game.from_json(g.to_json()).to_json() == g.to_json()   # a state that saves and loads
    g.apply(0, "track behind")
    assert track(g, 0) == 10


def test_n12_figures_on_start_spaces_rank_last_higher_start_space_first():
    """R8 / N12: track order decides; start spaces are behind the track, S3 ahead of S1."""
    g = game(3, seats=[dict(track="S1"), dict(track="S3"), dict(track=1)], phase="getup")
    assert g.ranking() == [2, 1, 0]
    assert g.scores() == [0, 0, 1]


def test_m11_the_sexton_moves_the_bishop_only_for_a_segment_never_for_the_altar():
    """R14 / M11: the Sexton's move comes with a segment restoration; the altar has none."""
    g = module_game(3, modules=["portraits"],
                    modules_state={"portraits": portraits_state(3, owned={0: ["sexton"]})},
                    seats=[dict(paints="RYBYY"), {}, {}], fresco={"A1": "3:YY"}, bishop="E5")
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    acts = legal(g, 0)
    assert "restore A1 sexton A1" in acts and "restore A1 sexton B2" in acts
    assert not any(a.startswith("altar") and "sexton" in a for a in acts)
    assert "altar RYB" in acts


def test_m11_the_sexton_once_a_round_over_both_final_cathedral_visits():
    """R14 / M11: once a round, also across the two cathedral columns of the final round."""
    g = module_game(3, modules=["portraits"], final=True, side=2,
                    modules_state={"portraits": portraits_state(3, owned={0: ["sexton"]})},
                    seats=[dict(paints="YYYY", thalers=5), {}, {}],
                    fresco={"A1": "3:YY", "E1": "3:YY"}, bishop="E5")
    plan_all(g, "0-1-0-0-1", NOTHING, NOTHING)
    g.apply(0, "restore A1 sexton A1")
    assert thalers(g, 0) == 4
    assert data(g)["bishop"] == "A1"
    # second cathedral visit (after the workshop): no Sexton move any more this round
    assert g.view(0)["column"] == 4
    assert not any("sexton" in a for a in legal(g, 0))
    assert "restore E1" in legal(g, 0)


def test_refusals_name_the_reason_for_bishop_and_payment_variants():
    """Illegal actions are refused with a clear reason (rulebook 'Moving the bishop')."""
    g = game(3, seats=[dict(paints="YY", thalers=3), {}, {}], fresco={"A1": "3:YY"}, bishop="C3")
    plan_all(g, "0-1-0-0-0", NOTHING, NOTHING)
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction, match="one step from C3, not to A1"):
        g.apply(0, "restore A1 bishop A1")
    with pytest.raises(affresco.IllegalAction, match="Sexton"):
        g.apply(0, "restore A1 sexton A1")
    with pytest.raises(affresco.IllegalAction, match="not a way to pay"):
        g.apply(0, "restore A1 using NN")
    assert g.to_json() == before
