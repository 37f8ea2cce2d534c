"""Issue #16's bot speed levers change no decision: the heuristic's game-long memos, the
rollouts' views without the log, and root-parallel search (``search:...:workers=2``)."""
from __future__ import annotations

import affresco
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


def test_rollout_views_carry_the_events_a_full_view_has_this_round():
    """A rollout's views (no log; this round's events followed with events_since) give the
    heuristic the same round events as game.view(seat)."""
    g = affresco.new_game(3, ["portraits", "requests"], seed=5)
    views = _RolloutViews(g, follow=True)
    bots = [HeuristicBot(s) for s in range(3)]
    checked = 0
    while not g.is_over and checked < 300:
        who = g.to_act[0]
        cheap, full = views.view(who), g.view(who)
        rb = max((i for i, e in enumerate(full["events"]) if e["kind"] == "round_begins"), default=0)
        cheap_rb = max((i for i, e in enumerate(cheap["events"]) if e["kind"] == "round_begins"), default=0)
        assert cheap["events"][cheap_rb:] == full["events"][rb:]
        assert {k: v for k, v in cheap.items() if k != "events"} == {k: v for k, v in full.items() if k != "events"}
        g.apply(who, bots[who].choose(full, g.legal_actions(who), who))
        checked += 1


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
