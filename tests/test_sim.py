"""Tournaments (affresco.sim), their reports (affresco.report) and the CLI commands."""
from __future__ import annotations

import json

import pytest
from typer.testing import CliRunner

import affresco
from affresco import report
from affresco.cli import app
from affresco.errors import FrescoError
from affresco.sim import (FIELDS, SOURCES, game_seed, lineup, read_records, read_rows, records_path,
                          run_tournament, vp_sources, write_results)

BOTS4 = ["greedy", "random", "random", "random"]


@pytest.fixture(scope="module")
def small():
    """4 games, 4 players, one greedy bot among random ones, played in-process."""
    return run_tournament(4, BOTS4, games=4, seed=11)


@pytest.fixture(scope="module")
def duo():
    """2-player games with modules: Leonardo has his own rows."""
    return run_tournament(2, ["greedy", "random"], games=2, seed=5,
                          modules=("portraits", "requests", "scrolls", "bishops_favour"))


def by_game(rows):
    out = {}
    for r in rows:
        out.setdefault(r["game"], []).append(r)
    return out


def test_workers_give_identical_rows(small):
    parallel = run_tournament(4, BOTS4, games=4, seed=11, workers=2)
    assert list(parallel) == list(small)
    assert parallel.records == small.records
    assert not parallel.interrupted and not small.interrupted


def test_same_seed_same_rows_other_seed_other_games(small):
    assert list(run_tournament(4, BOTS4, games=2, seed=11)) == [r for r in small if r["game"] < 2]
    assert game_seed(11, 0) != game_seed(12, 0) and game_seed(11, 0) != game_seed(11, 1)


def test_seats_rotate(small):
    assert lineup(["a", "b", "c", "d"], 1) == ["b", "c", "d", "a"]
    for k, rows in by_game(small).items():
        assert [r["bot"] for r in sorted(rows, key=lambda r: r["seat"])] == lineup(BOTS4, k)
    # over 4 games the greedy bot sat in every seat once
    assert sorted(r["seat"] for r in small if r["bot"] == "greedy") == [0, 1, 2, 3]


def test_rows_consistent_with_scores(small, duo):
    for result, figures in ((small, 4), (duo, 3)):
        assert result.games == sorted(by_game(result))
        for k, rows in by_game(result).items():
            assert [r["seat"] for r in rows] == list(range(figures))
            assert sorted(r["rank"] for r in rows) == list(range(1, figures + 1))
            by_rank = sorted(rows, key=lambda r: r["rank"])
            assert all(a["score"] >= b["score"] for a, b in zip(by_rank, by_rank[1:]))
            game = affresco.replay(result.records[k])
            assert [r["score"] for r in rows] == game.scores()
            assert [r["seat"] for r in by_rank] == game.ranking()
            for r in rows:
                assert set(FIELDS) <= set(r)
                assert r["seed"] == result.records[k]["setup"]["seed"]
                assert r["rounds"] == game.round
                assert sum(r[f"vp_{s}"] for s in SOURCES) == r["score"]
                assert r["getup"] and ":" in r["getup"]


def test_leonardo_has_his_own_row(duo):
    for rows in by_game(duo).values():
        assert [r["bot"] for r in rows][2] == "leonardo"
        leo = rows[2]
        assert leo["name"] == "Leonardo" and leo["vp_money"] == 0
    assert {r["bot"] for r in duo} == {"greedy", "random", "leonardo"}
    assert duo[0]["modules"] == "portraits+requests+scrolls+bishops_favour"


def test_vp_sources_from_log_lines():
    log = ["A scores 5 VP (restores C3)", "B scores 3 VP (final scoring: Thalers)",
           "A scores 6 VP (restores the altar with RBG)", "A scores 10 VP (purple request with YYY RB OG)",
           "B scores 8 VP (scroll at C3)", "B scores 2 VP (portrait Bishop)", "A scores 1 VP (the bishop's favour)",
           "A stops behind on space 4", "A B scores 7 VP (general request with X)"]
    a, b, ab = vp_sources(log, ["A", "B", "A B"])
    assert (a["fresco"], a["altar"], a["requests"], a["favour"]) == (5, 6, 10, 1)
    assert (b["money"], b["scrolls"], b["portraits"]) == (3, 8, 2)
    assert ab["requests"] == 7 and sum(ab.values()) == 7


def test_csv_and_jsonl_written_and_records_replay(small, tmp_path):
    csv_path, jsonl_path = write_results(small, small.records, tmp_path / "out" / "results.csv")
    assert csv_path.exists() and jsonl_path == records_path(csv_path) == tmp_path / "out" / "results.jsonl"
    rows = read_rows(csv_path)
    assert rows == [{k: (str(v) if isinstance(v, str) else v) for k, v in r.items()} for r in small]
    records = read_records(jsonl_path)
    assert [r["tournament"]["game"] for r in records] == small.games
    for rec in records:
        k = rec["tournament"]["game"]
        scores = [r["score"] for r in rows if r["game"] == k]
        assert affresco.replay(rec).scores() == scores
        assert json.loads(json.dumps(rec))["format"] == "affresco-record/1"


def test_interrupt_keeps_finished_games():
    seen = []

    def stop_after_two(k, rows, record):
        seen.append(k)
        if len(seen) == 2:
            raise KeyboardInterrupt

    result = run_tournament(4, ["random"], games=6, seed=3, on_result=stop_after_two)
    assert result.interrupted
    assert result.games == [0, 1] and len(result) == 8
    assert list(result) == list(run_tournament(4, ["random"], games=2, seed=3))


def test_interrupt_with_workers_keeps_finished_games():
    seen = []

    def stop_after_two(k, rows, record):
        seen.append(k)
        if len(seen) == 2:
            raise KeyboardInterrupt

    result = run_tournament(4, ["random"], games=12, seed=3, workers=2, on_result=stop_after_two)
    assert result.interrupted
    assert 2 <= len(result.games) < 12 and set(seen) <= set(result.games)
    assert len(result) == 4 * len(result.games)
    full = by_game(run_tournament(4, ["random"], games=max(result.games) + 1, seed=3))
    assert by_game(result) == {k: full[k] for k in result.games}


def test_bad_arguments():
    with pytest.raises(FrescoError):
        run_tournament(4, ["greedy", "random"], games=1)
    with pytest.raises(FrescoError):
        run_tournament(4, ["nobody"], games=1)
    with pytest.raises(FrescoError):
        run_tournament(4, ["random"], games=1, modules=("nonsense",))


def test_wilson_interval():
    lo, hi = report.wilson(50, 100)
    assert lo == pytest.approx(0.4038, abs=1e-3) and hi == pytest.approx(0.5962, abs=1e-3)
    assert report.wilson(0, 10)[0] == pytest.approx(0.0) and report.wilson(10, 10)[1] == pytest.approx(1.0)
    assert report.wilson(0, 0) == (0.0, 1.0)


def test_report_statistics(small):
    bots = report.by_bot(small)
    assert set(bots) == {"greedy", "random"}
    assert bots["greedy"]["n"] == 4 and bots["random"]["n"] == 12
    assert sum(b["wins"] for b in bots.values()) == 4
    seats = report.by_seat(small)
    assert list(seats) == [0, 1, 2, 3] and sum(s["wins"] for s in seats.values()) == 4
    src = report.sources_by_bot(small)
    assert sum(src["greedy"].values()) == pytest.approx(bots["greedy"]["mean_score"])


def test_cli_tournament_and_report(tmp_path):
    runner = CliRunner()
    out = tmp_path / "results.csv"
    res = runner.invoke(app, ["tournament", "--players", "3", "--bots", "greedy,random,random", "--games", "3",
                              "--seed", "2", "--out", str(out)])
    assert res.exit_code == 0, res.output
    assert "3 games" in res.output and "games/s" in res.output
    assert out.exists() and records_path(out).exists()
    assert len(read_rows(out)) == 9 and len(read_records(records_path(out))) == 3

    res = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "160"})
    assert res.exit_code == 0, res.output
    for text in ("greedy", "random", "95% CI", "Seat advantage", "fresco", "money"):
        assert text in res.output
    rows = read_rows(out)
    st = report.by_bot(rows)["greedy"]
    assert f"{100 * st['ci_low']:.1f}% – {100 * st['ci_high']:.1f}%" in res.output


def test_cli_rejects_wrong_number_of_bots(tmp_path):
    res = CliRunner().invoke(app, ["tournament", "--players", "4", "--bots", "greedy,random", "--games", "1",
                                   "--out", str(tmp_path / "r.csv")])
    assert res.exit_code != 0
    assert not (tmp_path / "r.csv").exists()


def test_report_plots_are_png(small, tmp_path):
    pytest.importorskip("matplotlib")
    csv_path, _ = write_results(small, small.records, tmp_path / "results.csv")
    res = CliRunner().invoke(app, ["report", str(csv_path), "--plots", str(tmp_path / "plots")])
    assert res.exit_code == 0, res.output
    files = sorted((tmp_path / "plots").glob("*.png"))
    assert [f.name for f in files] == ["scores_by_bot.png", "vp_sources_by_bot.png", "winrate_by_seat.png"]
    for f in files:
        assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
