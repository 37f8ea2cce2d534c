"""Bots: the interface, legality over whole games, determinism, and GreedyBot's strength."""
from __future__ import annotations

import json

import pytest

import affresco
from affresco import Action
from affresco.bots import BOTS, Bot, BotError, GreedyBot, RandomBot, Weights, make_bot, play_game

# Whole-game conformance runs for the fast bots; SearchBot (seconds per decision) has its own
# tests with a small simulation count in test_search_bot.py.
FAST_BOTS = sorted(k for k in BOTS if k != "search")


class Checked(Bot):
    """Wraps a bot: passes it a JSON round-tripped view (so it can only use what a client
    would receive) and checks every answer is one of the legal actions."""

    name = "checked"

    def __init__(self, inner: Bot, seen: list | None = None):
        super().__init__(inner.seed)
        self.inner = inner
        self.seen = seen if seen is not None else []

    def choose(self, view, legal, seat):
        assert view["seat"] == seat
        if "legal_actions" in view:
            assert [str(a) for a in legal] == view["legal_actions"]
        plain = json.loads(json.dumps(view))
        choice = self.inner.choose(plain, list(legal), seat)
        assert isinstance(choice, Action)
        assert choice in legal, f"{self.inner!r} chose {choice} not in legal"
        self.seen.append((plain, choice))
        return choice


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", FAST_BOTS)
def test_every_bot_plays_legal_actions_to_the_end(players, kind):
    g = affresco.new_game(players=players, seed=100 + players)
    play_game(g, [Checked(make_bot(kind, seed=s)) for s in range(players)])
    assert g.is_over
    assert len(g.scores()) == players + (1 if players == 2 else 0)


def _all_modules() -> tuple[str, ...]:
    affresco.new_game(players=2, seed=0)  # modules register when first needed
    return tuple(sorted(affresco.MODULES))


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("kind", FAST_BOTS)
def test_bots_play_legal_actions_with_every_module(players, kind):
    modules = _all_modules()
    g = affresco.new_game(players=players, modules=modules, seed=200 + players)
    play_game(g, [Checked(make_bot(kind, seed=s)) for s in range(players)], max_actions=20_000)
    assert g.is_over


@pytest.mark.parametrize("module", _all_modules())
def test_greedy_finishes_games_with_each_module(module):
    g = affresco.new_game(players=4, modules=(module,), seed=3)
    play_game(g, [make_bot("greedy", seed=s) for s in range(4)], max_actions=20_000)
    assert g.is_over


@pytest.mark.parametrize("players", [2, 3, 4])
def test_mixed_bots_with_a_dict_of_seats(players):
    g = affresco.new_game(players=players, seed=7)
    bots = {s: Checked(make_bot("greedy" if s % 2 else "random", seed=s)) for s in range(players)}
    assert play_game(g, bots) is g
    assert g.is_over


def test_registry_and_make_bot():
    from affresco.bots.search import SearchBot
    assert BOTS == {"random": RandomBot, "greedy": GreedyBot, "search": SearchBot}
    b = make_bot("Greedy", seed=3)
    assert isinstance(b, GreedyBot) and b.seed == 3 and b.name == "greedy"
    assert isinstance(make_bot("random"), RandomBot)
    with pytest.raises(BotError, match="unknown bot"):
        make_bot("alphazero")


def _record(kind: str, seed: int, players: int = 3) -> list:
    g = affresco.new_game(players=players, seed=42)
    play_game(g, [make_bot(kind, seed=seed * 10 + s) for s in range(players)])
    return g.record()["actions"]


@pytest.mark.parametrize("kind", FAST_BOTS)
def test_bots_are_deterministic_for_a_seed(kind):
    assert _record(kind, 1) == _record(kind, 1)


def test_random_bot_depends_on_its_seed():
    assert _record("random", 1) != _record("random", 2)


def test_random_bot_choice_is_uniformish():
    g = affresco.new_game(players=3, seed=1)
    seat = g.to_act[0]
    legal = g.legal_actions(seat)
    bot = RandomBot(seed=5)
    picks = {str(bot.choose(g.view(seat), legal, seat)) for _ in range(200)}
    assert picks == {str(a) for a in legal}


def test_play_game_rejects_illegal_answers_and_missing_seats():
    class Cheater(Bot):
        name = "cheater"

        def choose(self, view, legal, seat):
            return Action("getup", ("4:00",))

    g = affresco.new_game(players=2, seed=1)
    with pytest.raises(BotError, match="not legal"):
        play_game(g, [Cheater(), Cheater()])
    with pytest.raises(BotError, match="no bot for seat"):
        play_game(affresco.new_game(players=3, seed=1), [RandomBot(1), RandomBot(2)])


def test_play_game_reports_each_action():
    g = affresco.new_game(players=2, seed=3)
    log = []
    play_game(g, [GreedyBot(1), RandomBot(2)], on_action=lambda seat, a: log.append((seat, str(a))))
    assert [tuple(x) for x in g.record()["actions"]] == log


def test_greedy_controls_leonardo_and_takes_sensible_track_choices():
    seen: list = []
    for seed in range(6):
        g = affresco.new_game(players=2, seed=seed)
        play_game(g, [Checked(GreedyBot(seed), seen), Checked(GreedyBot(seed + 50), seen)])
    leo_decisions = track_own = track_leo = 0
    for view, action in seen:
        pending = view["pending_track"]
        figure = pending["figure"] if pending else view["actor"]
        if action.kind == "track":
            if figure == "Leonardo":
                track_leo += 1
                assert action == Action("track", ("behind",))
            else:
                track_own += 1
                assert action == Action("track", ("ahead",))
        elif figure == "Leonardo":
            leo_decisions += 1
            assert action.kind in ("getup", "close", "restore")
    assert leo_decisions > 0 and track_own > 0 and track_leo > 0


def test_greedy_never_passes_up_a_restoration_in_the_last_cathedral_visit():
    """In the final round nothing is worth keeping: once the second cathedral visit comes,
    every apprentice restores something if it can."""
    seen: list = []
    for seed in range(4):
        g = affresco.new_game(players=3, seed=seed)
        play_game(g, [Checked(GreedyBot(s), seen) for s in range(3)])
    last_visits = [(v, a) for v, a in seen
                   if v["final_round"] and v["location"] == "cathedral" and a.kind == "pass"
                   and v["figures"][v["seat"]]["plan"][1] == 0]
    assert not last_visits  # 'pass' is never chosen there: a forfeit is automatic when nothing is legal


def test_weights_are_one_documented_place():
    w = Weights()
    assert w.thaler == 0.5 and w.targets >= 1
    assert GreedyBot(0).w == w
    custom = Weights(future=0.5)
    assert GreedyBot(0, weights=custom).w.future == 0.5


def test_greedy_beats_random_clearly():
    """GreedyBot against three RandomBots, its seat rotating: it must win well above 25%."""
    games, wins = 30, 0
    for i in range(games):
        g = affresco.new_game(players=4, seed=5000 + i)
        me = i % 4
        play_game(g, [GreedyBot(i) if s == me else RandomBot(i * 4 + s) for s in range(4)])
        wins += g.ranking()[0] == me
    assert wins >= 0.6 * games, f"GreedyBot won only {wins}/{games}"
