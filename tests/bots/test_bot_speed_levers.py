"""Issue #16's bot speed levers change no decision: the heuristic's game-long memos, the
rollouts' views without the log, and root-parallel search (``search:...:workers=2``)."""
from __future__ import annotations

import pytest

import affresco
from affresco.rules import MODULES
from affresco.bots import HeuristicBot, make_bot
from affresco.bots.parallel import close_helpers
from affresco.bots.search import SearchBot, _RolloutViews


def _decisions(players, modules, seed, limit=400):
    """(game clone, seat) at every decision with a choice of a heuristic game."""
    g = affresco.new_game(players, modules, seed=seed)
    bots = [HeuristicBot(s) for s in range(players)]
    out = []
    while not g.is_over and len(out) < limit:
        for seat in sorted(g.to_act):
            if seat not in g.to_act:
                continue
            legal = g.legal_actions(seat)
            if len(legal) > 1:
                out.append((g.clone(), seat))
            g.apply(seat, bots[seat].choose(g.view(seat), legal, seat))
    return out


def test_heuristic_memos_kept_across_decisions_and_games_change_no_ranking():
    """The potential()/holdings() memos live for the game (issue #16): a bot that keeps them
    over several games (another fresco, other modules, special colours' blends) ranks every
    decision exactly as one that empties them at every decision."""
    kept, emptied = HeuristicBot(0), HeuristicBot(0)
    emptied.memo_limit = -1
    for players, modules, seed in ((3, ["special_colours"], 11), (2, [], 12), (4, ["portraits", "requests"], 13)):
        for g, seat in _decisions(players, modules, seed, limit=120):
            view, legal = g.view(seat), g.legal_actions(seat)
            assert kept.rank(view, legal, seat) == emptied.rank(view, legal, seat), \
                f"{players}p {modules} seed {seed}, round {g.round} {g.phase}: seat {seat}"
    assert len(kept._potentials) > len(emptied._potentials)  # the kept memos did serve


@pytest.mark.parametrize("players,modules,limit", [(3, ["portraits", "requests"], 150), (2, sorted(MODULES), 50)])
def test_rollout_views_are_full_views_but_for_the_log_and_vp_sources(players, modules, limit):
    """A rollout's views (lean views completed from the root view; this round's events followed
    with events_since) are game.view(seat) but for the events before this round and
    vp_sources, which the heuristic does not read."""
    g = affresco.new_game(players, modules, seed=5)
    views = _RolloutViews(g, True, g.view(0))
    bots = [HeuristicBot(s) for s in range(players)]
    checked = 0
    while not g.is_over and checked < limit:
        who = g.to_act[0]
        cheap, full = views.view(who), g.view(who)
        rb = max((i for i, e in enumerate(full["events"]) if e["kind"] == "round_begins"), default=0)
        cheap_rb = max((i for i, e in enumerate(cheap["events"]) if e["kind"] == "round_begins"), default=0)
        assert cheap["events"][cheap_rb:] == full["events"][rb:]
        assert "vp_sources" not in cheap
        assert {k: v for k, v in cheap.items() if k != "events"} == \
            {k: v for k, v in full.items() if k not in ("events", "vp_sources")}
        g.apply(who, bots[who].choose(full, g.legal_actions(who), who))
        checked += 1


def test_rollouts_reusing_rankings_on_paths_met_again_choose_and_score_as_recomputing_them():
    """A rollout path met again on another sample (only the seed differs, no chance event yet)
    reuses the rankings and leaf values found the first time: the same rollout rewards, so the
    same statistics and choice as recomputing them, in 2-4 players with and without modules."""
    checked = 0
    for players, modules, seed in ((2, [], 21), (4, ["portraits", "bishops_favour"], 22),
                                   (3, ["bells", "scrolls", "medico"], 23)):
        for g, seat in _decisions(players, modules, seed, limit=120)[3::40]:
            view, legal = g.view(seat), g.legal_actions(seat)
            fast, slow = SearchBot(5, simulations=16), SearchBot(5, simulations=16)
            slow.reuse_paths = False
            assert fast.choose(view, legal, seat) == slow.choose(view, legal, seat)
            assert fast.last_stats == slow.last_stats
            checked += bool(fast._known)
    assert checked  # paths were met again


def test_search_on_two_workers_uses_the_whole_budget_and_is_deterministic_for_its_seed():
    """search:simulations=N:workers=2 shares the N rollouts between this process and a helper
    process (root-parallel) and answers the same for the same seed."""
    positions = [(g, s) for g, s in _decisions(2, [], 3, limit=40)[5::12]][:3]
    try:
        answers = []
        for _ in range(2):
            bot = make_bot("search:simulations=12:workers=2", 7)
            assert isinstance(bot, SearchBot) and bot.workers == 2
            out = []
            for g, seat in positions:
                legal = g.legal_actions(seat)
                choice = bot.choose(g.view(seat), legal, seat)
                assert choice in legal
                if bot.last_stats:
                    assert bot.last_iterations == 12
                    assert sum(c for c, _ in bot.last_stats.values()) == 12
                out.append(str(choice))
            answers.append(out)
        assert answers[0] == answers[1]
    finally:
        close_helpers()


def test_a_two_worker_search_bot_in_a_tournament_worker_process_ends_with_it():
    """A tournament on worker processes with a search bot on 2 workers: each worker process
    starts its own helper and ends it when it ends (it once waited for it for ever)."""
    from affresco.sim import run_tournament
    result = run_tournament(2, ["random", "search:simulations=4:workers=2"], 2, seed=3, workers=2)
    assert len(result.records) == 2 and not result.interrupted

