"""Bots with the wall fresco (module 9): the heuristic values every wall decision (no fallback),
the search's determinization rebuilds the wall from the view only (R22)."""
from __future__ import annotations

import json
import random

import affresco
from affresco.bots.determinize import determinize
from affresco.bots.heuristic import HeuristicBot

from positions import module_game, plan_all, wall_state  # noqa: E402

NOTHING = "0-0-0-0-0"
KEEP = "0-0-0-0-1"


def wall_game(seats, **kw):
    return module_game(3, modules=["wall_fresco"], seats=seats,
                       modules_state={"wall_fresco": wall_state(3, **kw)})


def test_heuristic_plays_whole_games_with_the_wall_without_fallback():
    """Heuristic bot: every wall decision (the plan with the wall tile, 'wall <section>',
    'exchange') is valued; whole games with the wall (and requests) end with no fallback, and
    the wall is restored."""
    restored = 0
    for players, mods in ((2, ("wall_fresco",)), (3, ("requests", "wall_fresco")), (4, ("wall_fresco",))):
        g = affresco.new_game(players=players, modules=mods, seed=11 + players)
        bots = [HeuristicBot(seed=i) for i in range(players)]
        while not g.is_over:
            seat = g.to_act[0]
            g.apply(seat, bots[seat].choose(g.view(seat), g.legal_actions(seat), seat))
        assert all(b.fallbacks == 0 for b in bots)
        restored += sum(len(t) for t in g.view(None)["wall_fresco"]["tiles"])
    assert restored > 0


def test_heuristic_restores_a_wall_section_worth_4_vp_and_an_income():
    """Asked at the covered column's turn, the bot restores the section (4 VP and a new paint
    income beat keeping one purple)."""
    g = wall_game([dict(getup="7:00", paints="P"), dict(getup="8:00"), dict(getup="9:00")], board={"A3": "W:P/R"})
    plan_all(g, "0-0-0-0-0 wall cathedral", NOTHING, KEEP)
    bot = HeuristicBot(seed=0)
    ranked = bot.rank(g.view(0), g.legal_actions(0), 0)
    assert str(ranked[0][1]) == "wall A3" and ranked[0][0] > 4
    assert bot.fallbacks == 0


def test_heuristic_values_an_exchange_by_the_incomes_it_changes():
    """Exchange: a blended cube a round against the basic colours the two tiles stop paying: with
    a second yellow and a second blue tile nothing is lost, so the green exchange tile is taken;
    trading the only red away loses its income."""
    seats = [dict(getup="7:00", paints=""), dict(getup="8:00"), dict(getup="9:00")]
    g = wall_game(seats, tiles={0: ["W:G/B", "W:P/B", "W:O/Y", "W:G/Y", "W:O/R"]})
    plan_all(g, "0-0-0-1-0", NOTHING, KEEP)
    bot = HeuristicBot(seed=0)
    scores = {str(a): s for s, a in bot.rank(g.view(0), g.legal_actions(0), 0)}
    assert scores["exchange W:G/B W:O/Y"] > 0
    assert scores["exchange W:G/B W:O/Y"] > scores["exchange W:O/R W:P/B"]
    assert bot.choose(g.view(0), g.legal_actions(0), 0).kind == "exchange"


def test_heuristic_plans_the_wall_tile_when_it_can_pay_for_a_section():
    """Planning: with the paint for a restorable section the bot's best plans include the wall
    tile on an empty column."""
    g = wall_game([dict(getup="7:00", paints="PPG"), dict(getup="8:00"), dict(getup="9:00")])
    bot = HeuristicBot(seed=0)
    ranked = bot.rank(g.view(0), g.legal_actions(0), 0)
    assert any("wall" in a.args for _, a in ranked[:3])
    assert bot.fallbacks == 0


def test_determinization_rebuilds_the_wall_from_the_view_only():
    """Search bot (R22): a determinization shows its seat exactly the wall it sees, and does not
    depend on another seat's secret wall-tile placement (perturbing it changes nothing)."""
    g = wall_game([dict(getup="7:00", paints="P"), dict(getup="8:00", paints="PO"), dict(getup="9:00")],
                  tiles={1: ["W:G/B"]})
    g.apply(1, "plan 0-0-0-0-0 wall studio")
    view = g.view(0)
    d = determinize(view, 0, random.Random(3))
    assert d.view(0)["wall_fresco"] == view["wall_fresco"]
    state = json.loads(g.to_json())
    state["modules_state"]["wall_fresco"]["action_tile"][1] = 0
    other = affresco.Game.from_json(json.dumps(state))
    assert other.view(0) == view
    again = determinize(other.view(0), 0, random.Random(3))
    assert again.to_json() == d.to_json()


def test_determinization_follows_the_public_wall_accounts_of_paints():
    """The paint estimate of another seat counts the paints paid for its wall sections and its
    wall income (public, view['wall_fresco']['paid'/'received'])."""
    from affresco.bots.determinize import estimate_hidden
    g = wall_game([dict(getup="7:00"), dict(getup="8:00", paints="P"), dict(getup="9:00")], board={"A3": "W:P/R"})
    plan_all(g, NOTHING, "0-0-0-0-0 wall theater", NOTHING)
    g.apply(1, "wall A3")
    assert g.round == 2
    _, paints = estimate_hidden(g.view(0))
    # RYB at the start, purple not seen bought: clamped; the wall income R is counted
    assert paints[1].count("R") == 2
