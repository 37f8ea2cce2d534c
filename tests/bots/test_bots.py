"""Bots: the interface, legality over whole games (every module combination), determinism,
and GreedyBot's strength."""
from __future__ import annotations

import json
import operator

import pytest

import affresco
from affresco import Action
from affresco.bots import BOTS, Bot, BotError, GreedyBot, HeuristicBot, RandomBot, SearchBot, Weights, make_bot, play_game

# Whole-game conformance runs for the fast bots; SearchBot (seconds per decision) plays short
# games here with a small simulation count, and has its own tests in test_search_bot.py.
FAST_BOTS = sorted(k for k in BOTS if k != "search")


def _bot(kind: str, seed) -> Bot:
    """A registered bot; SearchBot with a small fixed simulation count (fast, deterministic)."""
    return make_bot(kind, seed=seed, simulations=4) if kind == "search" else make_bot(kind, seed=seed)


class Checked(Bot):
    """Wraps a bot: passes it a JSON round-tripped view (so it can only use what a client
    would receive) and checks every answer is one of the legal actions; with a ``seen`` list,
    records each (view, legal actions as text) and answer there.

    The view's events are round-tripped once each (CI time: the whole log at every decision
    made these games quadratic): the engine shares the event dicts of one game's views
    (rules/view.py ``seat_events``), so when the events this wrapper already round-tripped are
    the very objects at the start of the new view's list, only the new ones are encoded and
    decoded; otherwise (another game) the whole list is.  The inner bot gets its own list."""

    name = "checked"

    def __init__(self, inner: Bot, seen: list | None = None):
        super().__init__(inner.seed)
        self.inner = inner
        self.seen = seen
        self._raw: list = []        # the view events already round-tripped, as the engine gave them
        self._plain: list = []      # ... and as a client received them

    def _plain_view(self, view: dict) -> dict:
        events = view["events"]
        k = len(self._raw)
        if len(events) < k or not all(map(operator.is_, events[:k], self._raw)):
            self._raw, self._plain, k = [], [], 0
        self._raw.extend(events[k:])
        self._plain.extend(json.loads(json.dumps(events[k:])))
        plain = json.loads(json.dumps({key: v for key, v in view.items() if key != "events"}))
        plain["events"] = self._plain[:]
        return plain

    def choose(self, view, legal, seat):
        assert view["seat"] == seat
        plain = self._plain_view(view)
        choice = self.inner.choose(plain, list(legal), seat)
        assert isinstance(choice, Action)
        assert choice in legal, f"{self.inner!r} chose {choice} not in legal"
        if self.seen is not None:
            self.seen.append((dict(plain, checked_legal=[str(a) for a in legal]), choice))
        return choice


def test_the_checked_wrapper_gives_the_bot_the_json_round_trip_of_each_view():
    """The incremental round trip above gives exactly ``json.loads(json.dumps(view))`` at every
    decision of a game, and again when the wrapper moves on to another game."""
    class Keep(Bot):
        name = "keep"

        def __init__(self):
            super().__init__(0)
            self.got: list = []

        def choose(self, view, legal, seat):
            self.got.append(view)
            return legal[0]

    inner = Keep()
    wrapped = Checked(inner)
    for seed in (1, 2):
        g = affresco.new_game(players=2, modules=("scrolls",), seed=seed)
        inner.got.clear()
        expected = []
        while not g.is_over:
            seat = g.to_act[0]
            view = g.view(seat)
            expected.append(json.loads(json.dumps(view)))
            g.apply(seat, wrapped.choose(view, g.legal_actions(seat), seat))
        assert inner.got == expected and len(expected) > 100
        assert any(len(v["events"]) > 50 for v in inner.got)


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
    assert BOTS == {"random": RandomBot, "heuristic": HeuristicBot, "greedy": GreedyBot, "search": SearchBot}
    b = make_bot("Greedy", seed=3)
    assert isinstance(b, GreedyBot) and b.seed == 3 and b.name == "greedy"
    assert isinstance(make_bot("heuristic"), HeuristicBot)
    assert isinstance(make_bot("random"), RandomBot)
    with pytest.raises(BotError, match="unknown bot"):
        make_bot("alphazero")


def _module_sets():
    """Every combination of the modules (the empty one included)."""
    from itertools import combinations
    mods = _all_modules()
    return [c for k in range(len(mods) + 1) for c in combinations(mods, k)]


def _play_rounds(game, bots, rounds: int) -> None:
    """Play until ``rounds`` rounds are over (or the game): each answer checked."""
    while not game.is_over and game.round <= rounds:
        seat = game.to_act[0]
        game.apply(seat, bots[seat].choose(game.view(seat), game.legal_actions(seat), seat))


@pytest.mark.parametrize("index", range(32))
def test_every_registered_bot_handles_every_module_combination(index):
    """Short games (the first round and the round preparation after it) with every registered
    bot seated, over every combination of modules, player counts 2-4 in turn; with 2 players
    the bots take turns controlling Leonardo.  With more than five modules, 32 combinations
    spread over all of them (the last: every module).  (Whole games with every module: the tests above
    and test_search_bot.py.)"""
    sets = _module_sets()
    assert len(sets) == 2 ** len(_all_modules())
    modules = sets[index * len(sets) // 32] if index < 31 else sets[-1]   # a spread sample, and all modules
    players = 2 + index % 3
    kinds = sorted(BOTS)
    options = {"special_colours_on_fresco": True} if "special_colours" in modules and index % 2 else {}
    g = affresco.new_game(players=players, modules=modules, seed=300 + index, options=options)
    seats = [Checked(_bot(kinds[(index + s) % len(kinds)], seed=s)) for s in range(players)]
    _play_rounds(g, seats, 1)
    assert g.round == 2
    for bot in seats:
        assert getattr(bot.inner, "fallbacks", 0) == 0
        if isinstance(bot.inner, SearchBot):
            assert bot.inner.heuristic.fallbacks == bot.inner.policy.fallbacks == 0


def _record(kind: str, seed: int, players: int = 3) -> list:
    g = affresco.new_game(players=players, seed=42)
    play_game(g, [make_bot(kind, seed=seed * 10 + s) for s in range(players)])
    return g.record()["actions"]


@pytest.mark.parametrize("kind", FAST_BOTS)
def test_bots_are_deterministic_for_a_seed(kind):
    assert _record(kind, 1) == _record(kind, 1)


def test_search_bot_is_deterministic_for_a_seed_and_count():
    def record(seed):
        g = affresco.new_game(players=2, modules=("portraits", "scrolls"), seed=42)
        bots = [_bot("search", seed), _bot("heuristic", 1)]
        _play_rounds(g, bots, 1)
        return g.record()["actions"]
    assert record(5) == record(5)


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
                   and v["figures"][v["seat"]]["plan"][1] == 0 and v["checked_legal"] != ["pass"]]
    assert not last_visits  # 'pass' is chosen there only when it is the only legal action (N2)


def test_weights_are_one_documented_place():
    w = Weights()
    assert w.thaler == 0.5 and w.targets >= 1
    assert GreedyBot(0).w == w
    custom = Weights(future=0.5)
    assert GreedyBot(0, weights=custom).w.future == 0.5


def test_greedy_beats_random_clearly():
    """GreedyBot against three RandomBots, its seat rotating: it must win well above 25%
    (it wins nearly always)."""
    games, wins = 12, 0
    for i in range(games):
        g = affresco.new_game(players=4, seed=5000 + i)
        me = i % 4
        play_game(g, [GreedyBot(i) if s == me else RandomBot(i * 4 + s) for s in range(4)])
        wins += g.ranking()[0] == me
    assert wins >= 9, f"GreedyBot won only {wins}/{games}"


def test_one_spec_parser_and_a_menu_for_people():
    from affresco.bots import bot_menu, parse_spec

    menu = bot_menu()
    names = [b["name"] for b in menu]
    assert names == ["random", "heuristic", "search"]  # 'greedy' is a former name, not offered
    for b in menu:
        assert b["title"] and b["description"].endswith(".") and isinstance(b["timed"], bool)
    assert [b["timed"] for b in menu] == [False, False, True]
    spec = parse_spec("Search:0.50:Simulations=8")
    assert spec.label == "search:0.5:simulations=8" and parse_spec(spec.label) == spec
    bot = spec.make(3)
    assert (bot.seconds, bot.simulations) == (0.5, 8)
    assert make_bot("search:0.5:simulations=8", 3).simulations == 8
    for bad, words in (("nobody", "unknown bot"), ("heuristic:2", "no time budget"), ("search:0", "seconds"),
                       ("search:depth=3", "no option 'depth'")):
        with pytest.raises(BotError, match=words):
            parse_spec(bad)
