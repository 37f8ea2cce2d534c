"""Interactions of modules 8-10 (the bells, the wall fresco, the medico) with each other that
the module files do not test on their own; docs/module-interactions.md lists every named
interaction with the rule that settles it and its test (here or in the module's file).

Positions are built from the public JSON format (positions.py); certificates are written
'price:vp:bells'.
"""
from __future__ import annotations

import pytest

from affresco import IllegalAction

from positions import (act, bells_state, data, legal, medico_state, mods, module_game, paints, plan_all,  # noqa: E402
                       requests_state, thalers, track, wall_state)

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"      # seat 2 (9:00, last) at the theater keeps the round going
SEATS = [dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")]


def game(modules, seats=None, **states):
    return module_game(3, modules=list(modules), modules_state=states,
                       seats=[dict(s) for s in (seats or SEATS)])


def holdings(g, f):
    return mods(g, "bells")["holdings"][f]


def test_pictures_of_saints_thalers_go_onto_the_partly_paid_certificate():
    """Bells x medico: 'Each time the player earns money, he must place each Thaler on the
    certificate' (R10) - the 3 Thalers of an ill apprentice's picture of saints too."""
    g = game(("bells", "medico"), seats=[dict(getup="7:00", thalers=0, paints="R"), SEATS[1], SEATS[2]],
             bells=bells_state(3, holdings={0: dict(partly_paid=[["6:6:4", 1]])}),
             medico=medico_state(3, pile=["market", "market"], sick={0: 1}))
    plan_all(g, "0-0-1-0-0 ill 0-0-1-0-0", NOTHING, KEEP)
    act(g, "saints R")
    assert holdings(g, 0)["partly_paid"] == [["6:6:4", 4]] and thalers(g, 0) == 0 and paints(g, 0) == ""


def test_the_medicos_final_credit_comes_after_bell_scoring_and_never_onto_a_certificate():
    """Bells x medico (B12, R12): bell scoring first; the medico's 5 Thalers per own
    apprentice off its board are money credited at final scoring, not money earned during the
    game, so they stay with the player (1 VP per 2 Thalers) and the partly paid certificate
    stays partly paid (its 3 bells subtracted: 5 - 3 = 2 bells, no threshold)."""
    g = module_game(3, modules=["bells", "medico"], final=True, side=2,
                    seats=[dict(getup="7:00", thalers=0, track=5), dict(getup="8:00", thalers=0, track=10),
                           dict(getup="9:00", thalers=0, track=20)],
                    modules_state={"bells": bells_state(3, holdings={0: dict(face_down=["5:5:5"],
                                                                             partly_paid=[["4:4:3", 1]])},
                                                        display=["8:8:12"]),
                                   "medico": medico_state(3, pile=["market"], sick={0: 1})})
    plan_all(g, NOTHING, NOTHING, NOTHING)
    if not g.is_over:
        act(g, "deposit none")                   # B1: seat 0 may pay more from its own money (it has none)
    assert g.is_over
    assert holdings(g, 0)["partly_paid"] == [["4:4:3", 1]]
    sources = g.vp_sources()[0]
    assert sources["medico"] == 4 * 5 // 2 and sources.get("money", 0) == 0
    assert sources.get("bells_track", 0) == 0 and sources["bells_rank"] == 5     # 2 bells, second behind the bishop
    kinds = [e["kind"] for e in g.events() if e["kind"] in ("bells_placed", "medico_credit")]
    assert kinds.index("bells_placed") < kinds.index("medico_credit")


def test_audience_and_medico_tiles_both_on_the_market_column():
    """Bells x medico (B13): the audience tile covers the market column and the medico tile is
    placed there as well; the audience comes first, then the compulsory purchase."""
    g = game(("bells", "medico"), seats=[dict(getup="7:00", thalers=12), SEATS[1], SEATS[2]],
             bells=bells_state(3, display=["3:3:3", "5:5:4", "6:6:4"], stack=["2:2:1"] * 3),
             medico=medico_state(3, pile=["studio", "studio"], display=["2", "juice", None]))
    plan = "0-0-0-0-0 audience market medico"
    assert "plan " + plan in legal(g, 0)
    plan_all(g, plan, NOTHING, KEEP)
    assert any(a.startswith("audience 3:3:3") for a in legal(g, 0))
    act(g, "audience 3:3:3 full")
    assert thalers(g, 0) == 9 and track(g, 0) == 3
    assert legal(g, 0) == {"medicine 1", "medicine 2"}
    act(g, "medicine 1")
    assert mods(g, "medico")["held"][0] == ["2"]


def test_the_audience_and_wall_tiles_never_cover_the_same_column():
    """Bells x wall fresco (W3): each tile covers a location; a covered location holds one tile."""
    g = game(("bells", "wall_fresco"), seats=[dict(getup="7:00", paints="P"), SEATS[1], SEATS[2]],
             bells=bells_state(3, display=["3:3:3", "5:5:4", "6:6:4"], stack=["2:2:1"] * 3),
             wall_fresco=wall_state(3, board={"A3": "W:P/R"}))
    plans = legal(g, 0)
    assert "plan 0-0-0-0-0 audience studio wall market" in plans
    assert not any("audience studio wall studio" in p for p in plans)
    with pytest.raises(IllegalAction, match="two action tiles cannot cover the studio column"):
        g.apply(0, "plan 0-0-0-0-0 audience studio wall studio")


def test_an_ill_apprentice_does_not_exchange_wall_tiles():
    """Medico x wall fresco (MD7): an ill apprentice 'can blend paint only once'; the exchange
    is made instead of a (healthy) apprentice's blending, so an ill one alone cannot make it."""
    g = game(("wall_fresco", "medico"), seats=[dict(getup="7:00", paints="RY"), SEATS[1], SEATS[2]],
             wall_fresco=wall_state(3, tiles={0: ["W:G/B", "W:O/Y"]}),
             medico=medico_state(3, pile=["market", "market"], sick={0: 1}))
    plan_all(g, "0-0-0-1-0 ill 0-0-0-1-0", NOTHING, KEEP)
    assert "blend O" in legal(g, 0)
    assert not any(a.startswith("exchange") for a in legal(g, 0))
    with pytest.raises(IllegalAction):
        g.apply(0, "exchange W:G/B W:O/Y")
    g = game(("wall_fresco", "medico"), seats=[dict(getup="7:00", paints="RY"), SEATS[1], SEATS[2]],
             wall_fresco=wall_state(3, tiles={0: ["W:G/B", "W:O/Y"]}),
             medico=medico_state(3, pile=["market", "market"], sick={0: 1}))
    plan_all(g, "0-0-0-2-0 ill 0-0-0-1-0", NOTHING, KEEP)       # a healthy one beside it may
    assert "exchange W:G/B W:O/Y" in legal(g, 0)


def test_an_infected_audience_column_makes_nobody_ill():
    """Bells x medico: the infection strikes 'one of his healthy apprentices there'; the
    audience tile's column holds no apprentice, so the audience alone makes nobody ill."""
    g = game(("bells", "medico"), seats=[dict(getup="7:00", thalers=12), SEATS[1], SEATS[2]],
             bells=bells_state(3, display=["3:3:3", "5:5:4", "6:6:4"], stack=["2:2:1"] * 3),
             medico=medico_state(3, pile=["studio", "studio"]))
    plan_all(g, "0-0-0-0-0 audience studio", NOTHING, KEEP)
    assert mods(g, "medico")["infected"] == "studio"
    act(g, "audience 3:3:3 full")
    m = mods(g, "medico")
    assert m["sick"][0] == 0 and m["ill"][0] == 0


def test_a_requests_thaler_income_goes_onto_the_partly_paid_certificate():
    """Bells x requests: 'Each request tile is good for 1 Thaler of income and the paint piece
    shown' (supplement) is money earned, so R10 puts it onto the partly paid certificate first;
    the request's paint still comes to the player."""
    fulfilled = {0: [["purple", 10, ["5:PY", "7:GP", "9:POB"]]]}
    g = module_game(3, modules=["bells", "requests"],
                    modules_state={"bells": bells_state(3, holdings={0: dict(partly_paid=[["4:4:3", 1]])}),
                                   "requests": requests_state(3, fulfilled=fulfilled)},
                    seats=[dict(getup="7:00", thalers=0, paints=""), SEATS[1], SEATS[2]])
    plan_all(g, NOTHING, NOTHING, KEEP)
    act(g, "theater")
    assert g.to_act == (0,)                       # R19: paying more, asked at round end
    act(g, "deposit none")
    assert data(g)["round"] == 2
    assert holdings(g, 0)["partly_paid"] == [["4:4:3", 2]]
    assert thalers(g, 0) == 0 and paints(g, 0) == "P"
