"""Tournaments (affresco.sim), their reports (affresco.report) and the CLI commands."""
from __future__ import annotations

import json
import os
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

import affresco
from affresco.sim import report
from affresco.cli import app
from affresco.errors import FrescoError
from affresco.bots import BOTS, BotError, BotSpec, make_bot, parse_spec, play_game


def bot_label(spec):
    return parse_spec(spec).label


def build_bot(spec, seed=0):
    return parse_spec(spec).make(seed)
from affresco.sim import (FIELDS, SOURCES, ResultsWriter, game_seed, lineup,
                          play_one, read_records, read_rows, records_path, rows_from_record, run_tournament,
                          vp_columns, write_results)

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


def test_vp_columns_are_the_engines_sources():
    """The columns are Game.vp_sources() (one place in the engine); a source with no column of
    its own (a newer module's) counts as 'other', so the columns still add up."""
    g = affresco.new_game(3, ["portraits", "scrolls"], seed=4)
    play_game(g, [make_bot("heuristic", s) for s in range(3)])
    for fig, sources in enumerate(g.vp_sources()):
        cols = vp_columns(sources)
        assert sum(cols.values()) == g.scores()[fig]
        assert all(cols[s] == v for s, v in sources.items() if s in SOURCES)
    assert vp_columns({"tile": 7, "a_future_module": 3}) == dict(dict.fromkeys(SOURCES, 0), tile=7, other=3)


@pytest.fixture(scope="module")
def new_modules():
    """2 heuristic-vs-random games with the bells, the wall fresco and the medico (seeds in
    which every new VP column scores: with seed 1 the wall restored nothing in these two games
    once the medico's plans came in their new order, docs/architecture.md)."""
    return run_tournament(2, ["heuristic", "random"], games=2, seed=2,
                          modules=("bells", "wall_fresco", "medico"))


@pytest.mark.slow
def test_bells_wall_and_medico_vp_have_their_own_columns(new_modules):
    """Issue #12 'Tournaments and report: VP by source for bells, wall and medico (the Thalers
    credit included)': each is its own column, none lands in 'other', and the medico column is
    the VP of the medico's final Thalers credit (5 per own apprentice off the medico board,
    1 VP per 2 Thalers)."""
    new = ("bells", "bells_track", "bells_rank", "wall", "medico")
    assert set(new) <= set(SOURCES)
    for k, rows in by_game(new_modules).items():
        game = affresco.replay(new_modules.records[k])
        credit = {e["figure"]: e["amount"] for e in game.events(None) if e["kind"] == "medico_credit"}
        for r, sources in zip(rows, game.vp_sources()):
            assert r["vp_other"] == 0
            assert all(r[f"vp_{s}"] == sources.get(s, 0) for s in SOURCES if s != "other")
            assert r["vp_medico"] == credit.get(r["seat"], 0) // 2
            assert sum(r[f"vp_{s}"] for s in SOURCES) == r["score"]
    # over these games every new column scored (Leonardo's four certificates give him bell points)
    assert all(any(r[f"vp_{s}"] for r in new_modules) for s in new)
    assert any(r["vp_bells_track"] for r in new_modules if r["bot"] == "leonardo")


def test_report_shows_the_new_modules_columns(new_modules, tmp_path):
    """The report tells every source (bells, wall, medico too), a row each, whole at 100 columns
    (a column per source was cut to "bells_tra…" or "heuri…" once eight modules brought 16)."""
    csv_path, _ = write_results(new_modules, new_modules.records, tmp_path / "new.csv")
    rows = read_rows(csv_path)
    src = report.sources_by_bot(rows)
    assert src["heuristic"]["bells"] > 0 and src["leonardo"]["bells_rank"] > 0
    out = CliRunner().invoke(app, ["report", str(csv_path)], env={"COLUMNS": "300"})
    assert out.exit_code == 0, out.output
    for col in ("bells", "bells track", "bells rank", "wall", "medico"):
        assert f" {col} " in out.output
    narrow = CliRunner().invoke(app, ["report", str(csv_path)], env={"COLUMNS": "100"}).output
    assert "…" not in narrow.split("by source")[1], narrow       # every source and bot whole


def test_a_table_written_before_the_new_columns_reads_back_with_them_at_zero(small, tmp_path):
    """A results CSV from before the bells, wall and medico columns still reads (and reports)."""
    csv_path, _ = write_results(small, small.records, tmp_path / "old.csv")
    lines = csv_path.read_text(encoding="utf-8").splitlines()
    header = lines[0].split(",")
    gone = [header.index(f"vp_{s}") for s in ("bells", "bells_track", "bells_rank", "wall", "medico")]
    csv_path.write_text("\n".join(",".join(v for i, v in enumerate(line.split(",")) if i not in gone)
                                   for line in lines) + "\n", encoding="utf-8")
    rows = read_rows(csv_path)
    assert all(r["vp_bells"] == r["vp_medico"] == 0 for r in rows)
    assert [r["score"] for r in rows] == [r["score"] for r in small]
    assert sum(report.sources_by_bot(rows)["greedy"].values()) > 0


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
        assert json.loads(json.dumps(rec))["format"] == "affresco-record/2"


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
    # not a terminal (a log file): a line per finished game, places in order
    lines = [x for x in res.output.splitlines() if x.startswith("[")]
    assert [x.split("]")[0] for x in lines] == ["[1/3", "[2/3", "[3/3"]
    assert all(0 < x.index("1. ") < x.index("2. ") < x.index("3. ") for x in lines)
    assert out.exists() and records_path(out).exists()
    assert len(read_rows(out)) == 9 and len(read_records(records_path(out))) == 3

    res = runner.invoke(app, ["report", str(out)], env={"COLUMNS": "160"})
    assert res.exit_code == 0, res.output
    for text in ("greedy", "random", "95% CI", "Seat advantage", "tile", "money"):
        assert text in res.output
    rows = read_rows(out)
    st = report.by_bot(rows)["greedy"]
    assert f"{100 * st['ci_low']:.1f}% – {100 * st['ci_high']:.1f}%" in res.output


def test_an_interrupted_tournament_goes_on_where_it_stopped_and_never_writes_over_other_results(tmp_path):
    """Nothing lost: the same command run again after an interruption (its .jsonl holds the
    finished games, in finishing order, the last line cut short by a kill) plays only the other
    games and leaves the files a whole run would; results of another tournament (another seed)
    or a table whose records are gone are refused before anything is written, saying how to go
    on; --overwrite starts afresh; a header alone (stopped before the first game) is no result."""
    runner = CliRunner()
    args = ["tournament", "--players", "2", "--bots", "random", "--games", "4", "--seed", "5"]
    whole = tmp_path / "whole.csv"
    assert runner.invoke(app, [*args, "--out", str(whole)]).exit_code == 0
    lines = records_path(whole).read_text().splitlines(keepends=True)
    out = tmp_path / "results.csv"
    records_path(out).write_text(lines[2] + lines[0] + lines[3][:40])        # games 2 and 0, then a kill
    out.write_text(whole.read_text().splitlines()[0] + "\n")
    res = runner.invoke(app, [*args, "--out", str(out)])
    assert res.exit_code == 0 and "2 of 4 games were played before" in " ".join(res.output.split()), res.output
    assert out.read_text() == whole.read_text() and records_path(out).read_text() == records_path(whole).read_text()
    table, records = out.read_text(), records_path(out).read_text()
    for other in (["--seed", "6"], ["--players", "3"]):
        res = runner.invoke(app, [*args, *other, "--out", str(out)])
        assert res.exit_code == 1 and "not of this tournament" in res.output and "--overwrite" in res.output, res.output
        assert out.read_text() == table and records_path(out).read_text() == records
    records_path(out).unlink()                          # a table alone is results too
    res = runner.invoke(app, [*args, "--out", str(out)])
    assert res.exit_code == 1 and "--overwrite" in res.output and out.read_text() == table
    res = runner.invoke(app, [*args, "--games", "1", "--out", str(out), "--overwrite"])
    assert res.exit_code == 0, res.output
    assert len(read_records(records_path(out))) == 1 and {r["game"] for r in read_rows(out)} == {0}
    out.write_text(table.splitlines()[0] + "\n")       # stopped before its first game: a header alone
    records_path(out).write_text("")
    assert runner.invoke(app, [*args, "--out", str(out)]).exit_code == 0


def test_cli_rejects_wrong_number_of_bots(tmp_path):
    res = CliRunner().invoke(app, ["tournament", "--players", "4", "--bots", "greedy,random", "--games", "1",
                                   "--out", str(tmp_path / "r.csv")])
    assert res.exit_code != 0
    assert not (tmp_path / "r.csv").exists()


def test_report_plots_are_png(small, duo, tmp_path):
    pytest.importorskip("matplotlib")
    csv_path, _ = write_results(small, small.records, tmp_path / "results.csv")
    res = CliRunner().invoke(app, ["report", str(csv_path), "--plots", str(tmp_path / "plots")])
    assert res.exit_code == 0, res.output
    files = sorted((tmp_path / "plots").glob("*.png"))
    assert [f.name for f in files] == ["scores_by_bot.png", "vp_sources_by_bot.png", "winrate_by_seat.png"]
    for f in files:
        assert f.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and f.stat().st_size > 5000
    # 2 players: Leonardo has his seat; a single kind of bot
    for name, rows in (("duo", list(duo)), ("one", [r for r in small if r["bot"] == "random"])):
        written = report.plots(rows, tmp_path / name)
        assert len(written) == 3 and all(f.stat().st_size > 5000 for f in written)


# ---------------------------------------------------------------------------- VP sources: bishop, special colours
@pytest.fixture(scope="module")
def colourful():
    """Random games with every module and pink/brown allowed on fresco tiles."""
    return run_tournament(4, ["random"], games=6, seed=3, options={"special_colours_on_fresco": True},
                          modules=("portraits", "requests", "special_colours", "scrolls", "bishops_favour"))


def test_restorations_split_into_tile_bishop_and_special(colourful, duo):
    for result in (colourful, duo):
        for r in result:
            assert sum(r[f"vp_{s}"] for s in SOURCES) == r["score"]
            assert min(r[f"vp_{s}"] for s in SOURCES if s != "track") >= 0
    # the bishop bonus (2 adjacent, 3 on the segment; +1 with the portrait) and pink/brown
    # bonus (+3/+5 each) are both seen, in their own columns
    assert any(r["vp_bishop"] for r in colourful) and any(r["vp_bishop"] for r in duo)
    specials = {r["vp_special_colours"] for r in colourful}
    assert specials - {0} and all(any(v == 3 * a + 5 * b for a in range(8) for b in range(8)) for v in specials)
    assert all(r["vp_special_colours"] == 0 for r in duo)  # the option is off there
    assert sum(r["vp_portrait"] for r in colourful) > 0 and sum(r["vp_request"] for r in colourful) > 0


def test_rows_rebuilt_from_records(colourful, duo):
    for result in (colourful, duo):
        for k, record in result.records.items():
            assert record["tournament"]["game"] == k and record["tournament"]["bots"] == lineup(
                [r["bot"] for r in result if r["game"] == k and r["bot"] != "leonardo"], 0)
            assert rows_from_record(json.loads(json.dumps(record))) == [r for r in result if r["game"] == k]


def test_thalers_left_and_money_vp(small, duo):
    for r in small:
        assert r["thalers"] >= 0 and r["vp_money"] == r["thalers"] // 2
    assert [r["thalers"] for r in duo if r["bot"] == "leonardo"] == [None, None]


# ---------------------------------------------------------------------------- bot specs
def test_bot_specs():
    assert parse_spec("greedy") == BotSpec("greedy")
    assert parse_spec(" Search:1.50 ") == BotSpec("search", 1.5) and parse_spec("Search:1.50").timed
    assert bot_label("SEARCH:0.50") == "search:0.5" and bot_label("Random") == "random"
    for bad, words in (("nobody", "unknown bot"), ("search:x", "seconds"), ("search:-1", "seconds"),
                       ("search:nan", "seconds"), ("search:1:2", "one time budget"), ("random:1", "no time budget")):
        with pytest.raises(BotError, match=words):
            bot_label(bad)
    bot = build_bot("search:0.25", seed=3)
    assert type(bot) is BOTS["search"] and bot.seconds == 0.25
    assert type(build_bot("greedy", seed=1)) is BOTS["greedy"]


def test_bot_spec_options_go_to_make_bot():
    assert bot_label("Search:simulations=20:0.5") == "search:0.5:simulations=20"
    bot = build_bot("search:0.5:simulations=20", seed=1)
    assert (bot.seconds, bot.simulations) == (0.5, 20)
    with pytest.raises(BotError):
        bot_label("search:nonsense=1")


def test_timed_search_bot_in_a_tournament():
    k, rows, record = play_one(2, ["search:0.002", "random"], (), None, 1, 0)
    assert [r["bot"] for r in rows] == ["search:0.002", "random", "leonardo"]
    assert record["tournament"]["bots"] == ["search:0.002", "random"]
    with pytest.raises(BotError):
        run_tournament(2, ["greedy:1", "random"], games=1)


# ---------------------------------------------------------------------------- files
def test_parquet_written_and_read(small, tmp_path):
    pytest.importorskip("pyarrow")
    path, jsonl = write_results(small, small.records, tmp_path / "results.parquet")
    assert path.read_bytes()[:4] == b"PAR1" and jsonl == tmp_path / "results.jsonl"
    assert read_rows(path) == list(small)
    res = CliRunner().invoke(app, ["report", str(path)], env={"COLUMNS": "160"})
    assert res.exit_code == 0, res.output
    assert "Seat advantage" in res.output and "greedy" in res.output


def test_parquet_without_pyarrow_is_a_clear_error(small, tmp_path, monkeypatch):
    monkeypatch.setitem(sys.modules, "pyarrow", None)
    with pytest.raises(FrescoError, match="pyarrow"):
        write_results(small, small.records, tmp_path / "results.parquet")
    with pytest.raises(FrescoError, match="pyarrow"):
        ResultsWriter(tmp_path / "results.parquet")
    res = CliRunner().invoke(app, ["tournament", "--bots", "random", "--games", "1",
                                   "--out", str(tmp_path / "r.parquet")])
    assert res.exit_code == 1 and "pyarrow" in res.output
    assert not list(tmp_path.iterdir())


def test_results_writer_streams_then_sorts(small, tmp_path):
    out = tmp_path / "results.csv"
    with ResultsWriter(out) as writer:
        for k in (2, 0):  # in finishing order
            writer.add(k, [r for r in small if r["game"] == k], small.records[k])
        # already on disk, readable, before the end
        assert [r["game"] for r in read_rows(out)] == [2] * 4 + [0] * 4
        assert [r["tournament"]["game"] for r in read_records(records_path(out))] == [2, 0]
        partial = type(small)([r for r in small if r["game"] in (0, 2)], {k: small.records[k] for k in (0, 2)})
        writer.close(partial)
    assert [r["game"] for r in read_rows(out)] == [0] * 4 + [2] * 4
    assert [r["tournament"]["game"] for r in read_records(records_path(out))] == [0, 2]
    assert sorted(p.name for p in tmp_path.iterdir()) == ["results.csv", "results.jsonl"]  # no temporary left


def test_records_file_cut_short_by_a_kill(small, tmp_path):
    _, jsonl = write_results(small, small.records, tmp_path / "results.csv")
    text = jsonl.read_text()
    jsonl.write_text(text + text.splitlines()[0][:50])
    assert len(read_records(jsonl)) == len(small.records)
    jsonl.write_text("{oops\n" + text)
    with pytest.raises(ValueError):
        read_records(jsonl)


def test_results_table_may_not_be_named_jsonl(small, tmp_path):
    with pytest.raises(FrescoError, match=".jsonl"):
        write_results(small, small.records, tmp_path / "results.jsonl")


def test_cli_report_game_and_rows_from_records(small, tmp_path):
    csv_path, jsonl_path = write_results(small, small.records, tmp_path / "results.csv")
    res = CliRunner().invoke(app, ["report", str(csv_path), "--game", "2"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    saved = tmp_path / "results-game-2.json"
    assert "Game 2" in res.output and str(saved) in res.output
    assert affresco.replay(json.loads(saved.read_text())).scores() == [r["score"] for r in small if r["game"] == 2]
    res = CliRunner().invoke(app, ["replay", str(saved), "--to", "3"], env={"COLUMNS": "200"})
    assert res.exit_code == 0, res.output
    res = CliRunner().invoke(app, ["report", str(csv_path), "--game", "99"])
    assert res.exit_code == 1 and "no game 99" in res.output
    # the report also reads the records alone (rows rebuilt by replaying)
    res = CliRunner().invoke(app, ["report", str(jsonl_path)], env={"COLUMNS": "160"})
    assert res.exit_code == 0, res.output
    assert read_rows(jsonl_path) == list(small)


def test_cli_bot_specs(tmp_path):
    res = CliRunner().invoke(app, ["tournament", "--players", "2", "--bots", "random:1,random", "--games", "1",
                                   "--out", str(tmp_path / "r.csv")])
    assert res.exit_code != 0 and "no time budget" in res.output
    assert not (tmp_path / "r.csv").exists()
    res = CliRunner().invoke(app, ["tournament", "--players", "2", "--bots", "Search:0.002,random", "--games", "1",
                                   "--out", str(tmp_path / "r.csv")])
    assert res.exit_code == 0, res.output
    assert {r["bot"] for r in read_rows(tmp_path / "r.csv")} == {"search:0.002", "random", "leonardo"}


def test_cli_parquet_tournament(tmp_path):
    pytest.importorskip("pyarrow")
    out = tmp_path / "res.parquet"
    res = CliRunner().invoke(app, ["tournament", "--players", "3", "--bots", "random", "--games", "2",
                                   "--out", str(out)])
    assert res.exit_code == 0, res.output
    rows = read_rows(out)
    assert len(rows) == 6 and {r["game"] for r in rows} == {0, 1}
    assert rows == [r for k in (0, 1) for r in play_one(3, ["random"] * 3, (), None, 0, k)[1]]
    assert len(read_records(records_path(out))) == 2


# ---------------------------------------------------------------------------- Ctrl-C
def _default_sigint() -> None:
    """In the child before exec: Ctrl-C as in a terminal's foreground job, even when these tests
    run in a background job (which ignores SIGINT, and Python keeps it ignored)."""
    signal.signal(signal.SIGINT, signal.SIG_DFL)


def run_and_interrupt(tmp_path: Path, extra: list[str], wait_games: int = 3, timeout: float = 120,
                      sig: int = signal.SIGINT):
    """Run 'affresco tournament' in a subprocess, send it ``sig`` (SIGINT: Ctrl-C) once
    ``wait_games`` games are on disk, and return (exit code, output, results path)."""
    out = tmp_path / "results.csv"
    env = dict(os.environ, COLUMNS="120", PYTHONUNBUFFERED="1")
    proc = subprocess.Popen([sys.executable, "-m", "affresco.cli", "tournament", "--players", "4", "--bots", "random",
                             "--games", "5000", "--seed", "4", "--out", str(out), *extra],
                            stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, env=env,
                            preexec_fn=_default_sigint)
    try:
        deadline = time.monotonic() + timeout
        jsonl = records_path(out)
        while True:
            assert proc.poll() is None, proc.communicate()[0]
            if jsonl.exists() and jsonl.read_text().count("\n") >= wait_games:
                break
            assert time.monotonic() < deadline, "no games finished in time"
            time.sleep(0.05)
        proc.send_signal(sig)
        output, _ = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:  # pragma: no cover - only when the test fails
            proc.kill()
            proc.communicate()
    return proc.returncode, output, out


def check_interrupted_files(out: Path, output: str, wait_games: int = 3):
    rows = read_rows(out)
    records = read_records(records_path(out))
    games = [r["tournament"]["game"] for r in records]
    assert len(games) >= wait_games and games == sorted(games) and len(rows) == 4 * len(games)
    assert f"Interrupted: {len(games)} of 5000 games finished" in " ".join(output.split())
    # the finished games are the games of the tournament (any of them, in any finishing order)
    for rec in records[:2]:
        k = rec["tournament"]["game"]
        assert [r for r in rows if r["game"] == k] == play_one(4, ["random"] * 4, (), None, 4, k)[1]
        assert affresco.replay(rec).is_over
    return games


def test_ctrl_c_keeps_finished_games_on_processes(tmp_path):
    code, output, out = run_and_interrupt(tmp_path, ["--workers", "2"])
    assert code == 130, output
    check_interrupted_files(out, output)
    assert "Traceback" not in output


def test_ctrl_c_keeps_finished_games_in_process(tmp_path):
    code, output, out = run_and_interrupt(tmp_path, [], wait_games=2)
    assert code == 130, output
    games = check_interrupted_files(out, output, wait_games=2)
    assert games == list(range(len(games)))  # one after the other


def test_sigterm_stops_like_ctrl_c(tmp_path):
    """'kill PID' (a scheduler ending the job) keeps the finished games and ends the workers."""
    code, output, out = run_and_interrupt(tmp_path, ["--workers", "2"], sig=signal.SIGTERM)
    assert code == 130, output
    check_interrupted_files(out, output)
    assert "Traceback" not in output


def _children(pid: int) -> list[int]:
    out = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue
            if int(stat.rsplit(")", 1)[1].split()[1]) == pid:
                out.append(int(entry.name))
    return out


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")


@pytest.mark.skipif(not Path("/proc/self/stat").exists(), reason="reads /proc (Linux)")
def test_workers_end_when_the_tournament_is_killed(tmp_path):
    """SIGKILL leaves the parent no chance to end its workers: they notice and end themselves."""
    out = tmp_path / "results.csv"
    proc = subprocess.Popen([sys.executable, "-m", "affresco.cli", "tournament", "--players", "4", "--bots", "random",
                             "--games", "5000", "--workers", "2", "--out", str(out)],
                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    try:
        deadline = time.monotonic() + 120
        while not (records_path(out).exists() and records_path(out).read_text().count("\n") >= 2):
            assert proc.poll() is None and time.monotonic() < deadline
            time.sleep(0.05)
        workers = [c for c in _children(proc.pid) if _running(c)]
        assert len(workers) >= 2  # the pool's processes (and multiprocessing's resource tracker)
        proc.kill()
        proc.wait()
        deadline = time.monotonic() + 60        # ends when they have: long only if they never do
        while any(_running(w) for w in workers) and time.monotonic() < deadline:
            time.sleep(0.1)
        assert not any(_running(w) for w in workers)
    finally:
        if proc.poll() is None:  # pragma: no cover - only when the test fails
            proc.kill()


def test_a_tournament_with_your_own_component_file(tmp_path):
    """--components: every game of the tournament uses the file (here the English text's 6:00
    price, rules notes N1), its records keep it (they replay with it), and results made with
    another edition are not gone on with."""
    from positions import english_price_components
    mine = english_price_components(tmp_path)
    out = tmp_path / "r.csv"
    args = ["tournament", "--players", "2", "--bots", "random", "--games", "2", "--out", str(out)]
    res = CliRunner().invoke(app, [*args, "--components", str(mine)])
    assert res.exit_code == 0, res.output
    for record in read_records(records_path(out)):
        assert [h["price"] for h in affresco.replay(record).view(0)["hostel"] if h["time"] == "6:00"] == [5]
    res = CliRunner().invoke(app, [*args, "--games", "3"])
    assert res.exit_code == 1 and "the component file" in " ".join(res.output.split())
    res = CliRunner().invoke(app, [*args, "--games", "3", "--components", str(mine)])
    assert res.exit_code == 0 and "2 of 3 games were played before" in " ".join(res.output.split()), res.output


def test_every_tournament_option_is_in_the_docs():
    """docs/tournaments.md lists every option of `affresco tournament` (docs that match)."""
    from typer.main import get_command
    command = get_command(app).commands["tournament"]
    text = (Path(__file__).parents[2] / "docs" / "tournaments.md").read_text(encoding="utf-8")
    options = [max(p.opts, key=len) for p in command.params if p.opts[0].startswith("-")]
    assert len(options) >= 11
    assert [o for o in options if f"`{o}`" not in text] == []


def test_every_vp_source_has_a_colour_of_its_own_in_the_plots():
    """The VP-sources plot gave 'tile' and 'wall', 'bishop' and 'medico', 'favour' and 'money',
    'altar' and 'track' one colour each (matplotlib's cycle has 10 colours, the sources 17)."""
    plt = pytest.importorskip("matplotlib.pyplot")
    colours = report.source_colours(plt)
    assert set(colours) == set(SOURCES) and len(set(colours.values())) == len(SOURCES)
