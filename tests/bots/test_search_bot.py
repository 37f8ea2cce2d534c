"""SearchBot (ISMCTS) and determinize(): legality, determinism, no peeking, view round trip."""
from __future__ import annotations

import json
import random
import time

import pytest

import affresco
from affresco.bots import play_game
from affresco.bots.determinize import determinize
from affresco.bots.search import SearchBot
from affresco.rules.hooks import MODULES

ALL_MODULES = sorted(MODULES)


def _positions(n, modules, seed, every=0.25, limit=40):
    """(game clone, seat) at random decision points of a random game."""
    r = random.Random(seed)
    g = affresco.new_game(players=n, modules=modules, seed=seed)
    out = []
    while not g.is_over and len(out) < limit:
        for seat in g.to_act:
            if r.random() < every:
                out.append((g.clone(), seat))
        s = g.to_act[r.randrange(len(g.to_act))]
        g.apply(s, r.choice(g.legal_actions(s)))
    return out


@pytest.mark.parametrize("game", range(12))
def test_determinize_round_trip(game):
    r = random.Random(1000 + game)
    n = 2 + game % 3
    modules = [m for m in ALL_MODULES if r.random() < 0.5] if game % 2 else []
    for k, (g, seat) in enumerate(_positions(n, modules, game, limit=60)):
        v = g.view(seat)
        d = determinize(v, seat, random.Random(k), legal=g.legal_actions(seat))
        assert d.view(seat) == v
        assert sorted(map(str, d.legal_actions(seat))) == sorted(map(str, g.legal_actions(seat)))
        # also without the legal actions (log-based inference only): the view must still match
        assert determinize(v, seat, random.Random(k)).view(seat) == v


def test_search_bot_plays_legal_games():
    g = affresco.new_game(players=2, modules=["portraits", "scrolls", "bishops_favour", "requests"], seed=3)
    play_game(g, [SearchBot(1, simulations=2), SearchBot(2, simulations=2)])
    assert g.is_over


def test_search_bot_deterministic():
    for g, seat in _positions(3, ["requests", "special_colours"], 7, every=0.5, limit=6):
        v, legal = g.view(seat), g.legal_actions(seat)
        a = SearchBot(5, simulations=8).choose(v, legal, seat)
        b = SearchBot(5, simulations=8).choose(v, legal, seat)
        assert a == b and a in legal


def _scramble(g, seat, r):
    """The same position with every other seat's hidden items changed: paints, Thalers, a
    committed but secret plan (with its medico words), scrolls, the favour tokens left, the seed
    of future chance (the next infection tile and bottles)."""
    d = json.loads(g.to_json())
    n = len(d["players"])
    d["seed"] = r.getrandbits(40)
    for f in range(n):
        if f == seat:
            continue
        fig = d["figures"][f]
        fig["thalers"] = r.randrange(0, 30)
        fig["paints"] = "".join(r.choice("RYBOGP") for _ in range(r.randrange(0, 9)))
        if d["phase"] == "plan" and fig.get("plan") is not None:
            fig["plan"] = r.sample([1, 1, 1, 0, 0], 5)  # 3 apprentices: every seat has at least 4
    ms = d["modules_state"]
    if "scrolls" in ms:
        held = ms["scrolls"]
        others = [f for f in range(n) if f != seat and held[f]["row"] and held[f]["column"]]
        if len(others) >= 2:
            a, b = others[:2]
            held[a], held[b] = held[b], held[a]
    if "bells" in ms and ms["bells"]["track"] is None:
        # other figures' face-down certificates (Leonardo's too) traded with the stack's (R22)
        b = ms["bells"]
        pool = b["stack"]
        for f, h in enumerate(b["holdings"]):
            if f != seat:
                for i, c in enumerate(h["face_down"]):
                    if pool:
                        j = r.randrange(len(pool))
                        h["face_down"][i], pool[j] = pool[j], c
        b["stack"] = sorted(pool)
    if "medico" in ms:
        # another seat's secret plan words (fitting the scrambled counts)
        for f in range(n):
            if f != seat and d["phase"] == "plan" and ms["medico"]["plans"][f] is not None:
                counts = d["figures"][f]["plan"]
                ms["medico"]["plans"][f] = {"ill": [0] * len(counts), "medico": counts[0] <= 1 and r.random() < 0.5}
    if "bishops_favour" in ms and ms["bishops_favour"]:
        every = ["thalers:1", "thalers:5", "vp:1", "mood:1", "paint:R", "paint:B"]
        ms["bishops_favour"] = sorted(r.choice(every) for _ in ms["bishops_favour"])
    return affresco.Game.from_json(json.dumps(d))


def test_no_peeking():
    """The search's decisions depend on the seat's view only: changing every other seat's
    hidden items in the real state changes nothing."""
    r = random.Random(11)
    checked = 0
    for n, modules, seed in ((3, [], 21), (4, ["scrolls", "bishops_favour"], 22), (2, [], 23),
                             (2, ["portraits", "requests", "special_colours"], 24), (3, ["medico"], 25),
                             (4, ["medico", "scrolls"], 26), (3, ["bells"], 27),
                             (2, ["bells"], 28)):
        for g, seat in _positions(n, modules, seed, every=0.3, limit=5):
            legal = g.legal_actions(seat)
            if len(legal) < 2:
                continue
            h = _scramble(g, seat, r)
            assert h.view(seat) == g.view(seat)
            assert h.legal_actions(seat) == legal
            bot_a, bot_b = SearchBot(9, simulations=8), SearchBot(9, simulations=8)
            a = bot_a.choose(g.view(seat), legal, seat)
            b = bot_b.choose(h.view(seat), h.legal_actions(seat), seat)
            assert a == b
            assert bot_a.last_stats == bot_b.last_stats  # the whole search was the same, rewards included
            checked += 1
    assert checked >= 8


def test_the_determinization_never_reads_the_hidden_state_with_the_medico():
    """The medico's piles and secret plan words: scrambled, the determinized game is the same."""
    r = random.Random(6)
    for g, seat in _positions(3, ["medico"], 32, every=0.3, limit=12):
        h = _scramble(g, seat, r)
        a = determinize(g.view(seat), seat, random.Random(1), legal=g.legal_actions(seat))
        b = determinize(h.view(seat), seat, random.Random(1), legal=h.legal_actions(seat))
        assert a.to_json() == b.to_json()


def test_the_determinization_never_reads_the_hidden_state():
    """Scrambled hidden items: the determinized game the search plays in is the same."""
    r = random.Random(5)
    for g, seat in (_positions(4, ["scrolls", "bishops_favour", "portraits"], 31, every=0.3, limit=10)
                    + _positions(2, ["bells"], 32, every=0.3, limit=10)):
        h = _scramble(g, seat, r)
        a = determinize(g.view(seat), seat, random.Random(1), legal=g.legal_actions(seat))
        b = determinize(h.view(seat), seat, random.Random(1), legal=h.legal_actions(seat))
        assert a.to_json() == b.to_json()


def test_search_bot_registered_with_options():
    from affresco.bots import BOTS, BotError, make_bot
    assert isinstance(make_bot("search", 1), SearchBot)
    assert make_bot("search", 1).seconds == 1.0
    assert make_bot("search", 1, seconds=0.5).seconds == 0.5
    assert make_bot("search:0.25", 1).seconds == 0.25
    b = make_bot("Search:simulations=16:horizon=2", 3)
    assert (b.simulations, b.horizon, b.seed) == (16, 2, 3)
    assert make_bot("search:0.3", 1, seconds=2).seconds == 2  # keywords win over the spec
    assert "search:0.5" in BOTS and "search" in BOTS and "alphazero:1" not in BOTS
    with pytest.raises(BotError, match="unknown bot"):
        make_bot("alphazero:1")
    with pytest.raises(BotError, match="no time budget"):
        make_bot("heuristic:0.5")
    with pytest.raises(BotError, match="no option 'depth'"):
        make_bot("search:depth=3")


def test_search_respects_its_time_budget():
    g = affresco.new_game(4, seed=12)
    seat = g.to_act[0]
    bot = SearchBot(1, seconds=0.2)
    t = time.process_time()
    bot.choose(g.view(seat), g.legal_actions(seat), seat)
    # one determinization always completes; a rollout of a round is well under a second.  The
    # bot's CPU time, at most its wall time: a loaded machine does not make it longer, a bot
    # searching past its budget does
    assert time.process_time() - t < 3.0
    assert bot.last_iterations >= 1


def test_search_searches_the_simultaneous_plan():
    """While planning, the candidates are the heuristic's plans and the others' secret plans
    are sampled: the statistics cover several plans."""
    g = affresco.new_game(3, seed=13)
    while g.phase != "plan":
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    g.apply(0, g.legal_actions(0)[3])  # seat 0 commits a secret plan
    bot = SearchBot(2, simulations=24)
    choice = bot.choose(g.view(1), g.legal_actions(1), 1)
    assert choice.kind == "plan" and choice in g.legal_actions(1)
    assert sum(1 for c, _ in bot.last_stats.values() if c) >= 2
    assert bot.last_iterations <= 24


def test_determinize_rebuilds_another_seats_scroll_question():
    """After a restoration under the bishop, the restorer's scroll question (M8) is pending;
    another seat's determinization must rebuild it from the public log alone."""
    found = 0
    for seed in range(30):
        r = random.Random(seed)
        g = affresco.new_game(players=3, modules=["scrolls"], seed=seed)
        while not g.is_over and found < 12:
            actor = g.to_act[0]
            legal = g.legal_actions(actor)
            if any(a.kind == "scroll" for a in legal):
                other = (actor + 1) % 3
                d = determinize(g.view(other), other, random.Random(seed))
                assert d.to_act == g.to_act
                assert any(a.kind == "scroll" for a in d.legal_actions(actor))
                found += 1
            g.apply(actor, r.choice(legal))
    assert found >= 12
