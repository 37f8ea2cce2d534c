"""The rating ladder (issue #16): round-robin schedule, results kept as games end (resumable,
Ctrl-C keeps them), Bradley-Terry ratings with bootstrap intervals, the docs section."""
from __future__ import annotations

import json
from collections import Counter
from itertools import combinations

import pytest

from affresco.errors import ConfigError
from affresco.sim.ladder import (Ladder, fit_ratings, ladder_markdown, load_results, run_ladder, schedule,
                                 write_section)

FAST = Ladder(entrants=("random", "heuristic", "greedy"), formats=(2, 3), rounds=2, seed=3)


def test_every_set_of_entrants_meets_rounds_times_per_format_with_seats_rotated():
    games = schedule(Ladder(entrants=("a", "b", "c", "d", "e"), formats=(2, 4), rounds=2))
    assert [g["k"] for g in games] == list(range(len(games)))
    for players in (2, 4):
        mine = [g for g in games if g["players"] == players]
        meetings = Counter(frozenset(g["bots"]) for g in mine)
        assert set(meetings) == {frozenset(c) for c in combinations("abcde", players)}
        assert set(meetings.values()) == {2}
    two = [g["bots"] for g in games if g["players"] == 2]
    assert Counter(b[0] for b in two) == Counter(b[1] for b in two)  # each bot as often first as second


@pytest.mark.parametrize("entrants", ["abcdefg", "abcdef", "abcde", "abcd"])
def test_with_one_round_the_seats_are_shared_out(entrants):
    games = schedule(Ladder(entrants=tuple(entrants), formats=(2, 4), rounds=1))
    for players in (2, 4):
        seats = Counter((b, seat) for g in games if g["players"] == players for seat, b in enumerate(g["bots"]))
        for bot in entrants:
            times = [seats[bot, seat] for seat in range(players)]
            assert max(times) - min(times) <= (1 if players == 2 else 2), (bot, times)


def test_an_interrupted_ladder_keeps_its_finished_games_and_resumes_to_the_same_results(tmp_path):
    path = tmp_path / "ladder.jsonl"
    total = len(schedule(FAST.checked()))

    def stop_after_three(result):
        if len(load_results(path)[1]) >= 3:
            raise KeyboardInterrupt

    first = run_ladder(FAST, path, on_result=stop_after_three)
    assert first.interrupted and first.played == 3
    assert len(load_results(path)[1]) == 3
    with open(path, "a") as f:
        f.write('{"k": 99, "players"')  # a line cut short by the interruption is ignored
    second = run_ladder(FAST, path, workers=2)
    assert not second.interrupted and second.played == total - 3
    head, results = load_results(path)
    assert head == FAST.checked().describe() and sorted(results) == list(range(total))
    again = run_ladder(FAST, tmp_path / "fresh.jsonl")
    # untimed bots: the same games whatever the interruption and the number of processes
    assert {k: (r["scores"], r["order"]) for k, r in results.items()} == \
        {k: (r["scores"], r["order"]) for k, r in again.results.items()}


def test_a_results_file_of_another_ladder_is_refused(tmp_path):
    path = tmp_path / "ladder.jsonl"
    run_ladder(Ladder(entrants=("random", "greedy"), formats=(2,), rounds=1), path)
    with pytest.raises(ConfigError, match="another ladder"):
        run_ladder(Ladder(entrants=("random", "heuristic"), formats=(2,), rounds=1), path)
    with pytest.raises(ConfigError, match="at least 4 entrants"):
        run_ladder(Ladder(entrants=("random", "greedy"), formats=(4,)), tmp_path / "x.jsonl")


def test_a_ladder_given_more_rounds_keeps_its_games_and_plays_only_the_added_rounds(tmp_path):
    path = tmp_path / "ladder.jsonl"
    one = Ladder(entrants=("random", "heuristic", "greedy"), formats=(2, 3), rounds=1, seed=5)
    two = Ladder(entrants=("random", "heuristic", "greedy"), formats=(2, 3), rounds=2, seed=5)
    first = schedule(one.checked())
    assert schedule(two.checked())[:len(first)] == first  # more rounds begin with the same games
    run_ladder(one, path)
    before = load_results(path)[1]
    extended = run_ladder(two, path)
    assert extended.played == len(schedule(two.checked())) - len(first)
    head, results = load_results(path)
    assert head == two.checked().describe() and sorted(results) == list(range(len(schedule(two.checked()))))
    assert all(results[k] == before[k] for k in before)  # the first round's games are kept as they were
    assert run_ladder(two, path).played == 0  # resumed: nothing left
    with pytest.raises(ConfigError, match="with 2 rounds: ask for at least as many"):
        run_ladder(one, path)


def test_in_two_player_games_every_pair_plays_both_seatings_over_two_rounds():
    games = schedule(Ladder(entrants=tuple("abcdef"), formats=(2,), rounds=2))
    seatings = Counter(tuple(g["bots"]) for g in games)
    assert all(seatings[(b, a)] == 1 for a, b in seatings)


def _result(k, bots, order):
    return {"k": k, "players": len(bots), "bots": list(bots), "order": list(order), "scores": [0] * len(bots)}


def test_ratings_order_the_bots_by_results_and_intervals_hold_the_estimate():
    results = {}
    for k in range(30):  # a beats b beats c, mostly; c never wins
        bots = ["a", "b", "c"] if k % 2 else ["c", "a", "b"]
        winner_first = [bots.index("a"), bots.index("b"), bots.index("c")]
        if k % 5 == 0:
            winner_first = [bots.index("b"), bots.index("a"), bots.index("c")]
        results[k] = _result(k, bots, winner_first)
    rows = fit_ratings(results, ["a", "b", "c"], bootstrap=100)
    assert [r["bot"] for r in rows] == ["a", "b", "c"]
    assert abs(sum(r["rating"] for r in rows)) < 1e-6  # the field's mean is 0
    for r in rows:
        assert r["low"] <= r["rating"] <= r["high"]
        assert r["games"] == 30
    assert rows[2]["wins"] == 0 and rows[2]["rating"] > -2000  # finite, thanks to the prior
    assert rows[0]["mean_place"] < rows[1]["mean_place"] < rows[2]["mean_place"]


def test_the_docs_section_is_replaced_between_its_markers(tmp_path):
    doc = tmp_path / "bots.md"
    doc.write_text("# Bots\n\nText before.\n")
    results = {0: _result(0, ["random", "greedy"], [1, 0])}
    ladder = Ladder(entrants=("random", "greedy"), formats=(2,), rounds=1)
    write_section(doc, ladder_markdown(ladder, results, 1, "img/ladder.png"))
    write_section(doc, ladder_markdown(ladder, results, 1, "img/ladder.png", note="second run"))
    text = doc.read_text()
    assert text.startswith("# Bots\n\nText before.\n")
    assert text.count("<!-- ladder:begin -->") == 1 and "second run" in text
    assert "| `greedy` |" in text and "![ladder ratings](img/ladder.png)" in text
