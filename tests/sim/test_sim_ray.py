"""Tournaments on Ray (affresco.sim with ray=...): a local Ray instance of 2 CPUs, random bots,
a handful of games.  Skipped where Ray is not installed (it is an optional extra)."""
from __future__ import annotations

import sys

import pytest

from affresco.errors import FrescoError
from affresco.sim import run_tournament

from test_sim import check_interrupted_files, run_and_interrupt

ray = pytest.importorskip("ray")


@pytest.fixture(autouse=True)
def no_ray_left_running():
    yield
    assert not ray.is_initialized()


@pytest.mark.slow
def test_ray_gives_the_rows_of_local_processes():
    seen = []
    started = []
    result = run_tournament(3, ["greedy", "random", "random"], games=3, seed=9, workers=2, ray="local",
                            modules=("scrolls",), on_start=started.append,
                            on_result=lambda k, rows, record: seen.append(k))
    assert started == [result] and result.backend == "ray (local)" and result.workers == 2
    assert not result.interrupted and sorted(seen) == result.games == [0, 1, 2]
    here = run_tournament(3, ["greedy", "random", "random"], games=3, seed=9, modules=("scrolls",))
    assert list(result) == list(here)
    assert result.records == here.records


@pytest.mark.slow
def test_ctrl_c_keeps_finished_games_on_ray(tmp_path):
    code, output, out = run_and_interrupt(tmp_path, ["--ray", "local", "--workers", "2"], wait_games=2)
    assert code == 130, output
    check_interrupted_files(out, output, wait_games=2)
    assert "Traceback" not in output and "ray (local) with 2 worker(s)" in " ".join(output.split())


def test_without_ray_a_clear_error(monkeypatch):
    monkeypatch.setitem(sys.modules, "ray", None)
    with pytest.raises(FrescoError, match=r"pip install 'affresco\[ray\]'"):
        run_tournament(4, ["random"], games=1, ray="local")


def test_a_ray_start_that_times_out_is_a_clear_error_not_a_traceback(tmp_path, monkeypatch):
    """On a busy machine a local Ray's raylet may not register within Ray's fixed 30 s: Ray then
    raises a bare Exception, which the tournament command showed as a traceback."""
    import types

    from typer.testing import CliRunner

    from affresco.cli import app
    fake = types.ModuleType("ray")
    calls = []
    fake.is_initialized = lambda: False

    def init(**kw):
        calls.append("init")
        raise Exception("The current node timed out during startup. This could happen because some of "
                        "the raylet failed to startup or the GCS has become overloaded.")
    fake.init = init
    fake.shutdown = lambda: calls.append("shutdown")
    monkeypatch.setitem(sys.modules, "ray", fake)
    res = CliRunner().invoke(app, ["tournament", "--ray", "local", "--games", "1", "--out", str(tmp_path / "t.csv")])
    out = " ".join(res.output.split())
    assert res.exit_code == 1 and "Traceback" not in out, (res.exception, out)
    assert "cannot start or join Ray at 'local'" in out and "timed out during startup" in out, out
    assert calls == ["init", "shutdown"]      # what the failed start left is shut down


def test_a_ray_address_nobody_answers_is_refused_at_once_not_waited_for(tmp_path):
    """Ray retries an unreachable cluster address for ever: a mistyped --ray (a host that does
    not resolve, a port nothing listens on) is refused at once, naming the address and the
    reason, before any results file is opened; the same from the Python API and for a ladder."""
    import socket

    from typer.testing import CliRunner

    from affresco.cli import app

    with socket.socket() as s:       # a port that was free a moment ago: nothing listens there
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    out = tmp_path / "r.csv"
    for address in (f"127.0.0.1:{port}", f"ray://127.0.0.1:{port}", "no-such-host.invalid:10001"):
        res = CliRunner().invoke(app, ["tournament", "--ray", address, "--games", "1", "--out", str(out)])
        assert res.exit_code == 1 and f"cannot reach Ray at {address!r}" in " ".join(res.output.split()), res.output
        assert not list(tmp_path.iterdir())
    with pytest.raises(FrescoError, match=f"cannot reach Ray at '127.0.0.1:{port}': .*refused"):
        run_tournament(2, ["random"], games=1, ray=f"127.0.0.1:{port}")
    res = CliRunner().invoke(app, ["ladder", "--bots", "random,heuristic", "--formats", "2", "--ray", f"127.0.0.1:{port}",
                                   "--out", str(tmp_path / "ladder.jsonl")])    # the ladder too, before its file
    assert res.exit_code == 1 and "cannot reach Ray" in res.output and not list(tmp_path.iterdir()), res.output
