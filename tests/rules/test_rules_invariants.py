"""Whole games of legal play (seeded, random but restoration-greedy) checked after every
action against rules that must always hold: one figure per VP-track space (R8), fresco
tiles and market tiles never lost (set-up, R5), money and paint never negative ('must
forfeit'), mood inside its column (R3), at most 3 apprentices per column (R1), the final
round exactly when 6 or fewer tiles are left at a round's start (R11), and the game ends."""
from __future__ import annotations

import json
import random
from collections import Counter

import pytest

import affresco

PREFER = ("restore", "altar", "buy", "blend", "track")


def market_of(s):
    return Counter(t for b in s.booths for t in b) + Counter(s.bag)


def check(g, n, market_total):
    """Invariants on the raw state (read only)."""
    s = g.state
    on_track = [p for p in s.pos if p > 0]
    assert len(set(s.pos)) == len(s.pos), s.pos           # one figure per space, start spaces too
    on_board = sum(t is not None for t in s.fresco)
    assert on_board + sum(len(t) for t in s.tiles) == 25
    assert market_of(s) == market_total
    for f in range(n):
        assert s.thalers[f] >= 0
        assert min(s.paints[f]) >= 0
        assert 0 <= s.mood[f] <= 6
        if s.plan[f] is not None:
            assert all(0 <= c <= 3 for c in s.plan[f])
            assert sum(s.plan[f]) <= 5 + s.neutral[f] - s.aside[f]
    del on_track
    return on_board


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("seed", range(4))
def test_random_games_keep_the_rules_invariant(players, seed):
    g = affresco.new_game(players, seed=seed)
    rng = random.Random(seed * 10 + players)
    market_total = market_of(g.state)
    assert sum(market_total.values()) == (14 if players == 4 else 11)
    rnd = g.round
    assert g.state.final is False
    for _ in range(5000):
        if g.is_over:
            break
        seat = rng.choice(g.to_act)
        objs = g.legal_actions(seat)
        assert objs
        by_text = {str(a): a for a in objs}
        acts = list(by_text)
        if g.phase == "plan":
            # plans that put apprentices to work (cathedral and market favoured)
            plans = [a for a in acts if int(a.split()[1].split("-")[1]) >= 1] or acts
            action = rng.choice(plans)
        else:
            good = [a for a in acts if a.startswith(PREFER)]
            action = rng.choice(good) if good and rng.random() < 0.9 else rng.choice(acts)
        g.apply(seat, by_text[action])   # the Action object (notation is tested elsewhere)
        on_board = check(g, players, market_total)
        if g.round != rnd and not g.is_over:
            rnd = g.round
            # R11: the final round is decided at the beginning of the round
            assert g.state.final is (on_board <= 6), (rnd, on_board)
            assert g.state.side2 is (on_board <= 6)
            assert g.phase == "getup"
            assert all(x < 0 for x in g.state.getup)
    assert g.is_over, "game did not end"
    d = json.loads(g.to_json())
    assert g.scores() == [f["track"] if isinstance(f["track"], int) else 0 for f in d["figures"]]
    ranking = g.ranking()
    assert sorted(ranking) == list(range(len(d["figures"])))
    tracks = [g.scores()[f] for f in ranking]
    assert tracks == sorted(tracks, reverse=True)
