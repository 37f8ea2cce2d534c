"""Issue #17: bot decisions on Ray (``affresco serve --bots ray-local`` / ``ray://ADDRESS``).

One test (starting Ray is slow): a server whose bots decide on a local Ray plays a game with a
quick and a timed bot.  The decisions are Ray's (the in-process decision function is broken
once Ray is up, and nothing fails), they are the same as the bot decides locally from the same
view and seed, and every answer still comes at the end of its seat's fixed budget, whatever the
bot knows (the decisions of issue #15.3 whose legal set depends on secrets).
"""
from __future__ import annotations

import asyncio
import copy
import logging
import os
import random
import subprocess
import sys
import types

import pytest

import affresco
from affresco.server import bots as bots_module
from affresco.server.bots import RayBots
from affresco.server.store import SeatInfo

from server_support import answer_times, api_client, auth, decision_points, eager_choice, need, sqlite_url  # noqa: E402,F401


@pytest.mark.slow
def test_bot_decisions_run_on_a_local_ray_at_the_fixed_budget(sqlite_url, monkeypatch, caplog):
    try:
        import ray  # noqa: F401
    except ImportError:
        need("Ray (the ray extra)")
    caplog.set_level(logging.WARNING, logger="affresco.server")
    with api_client(sqlite_url, bots="ray-local", bot_delay=0.05) as c:
        service = c.app.state.service
        runner = service.bots
        assert runner.ray is not None and runner.ray._ready.wait(180), "Ray did not start"
        assert runner.ray._error is None, runner.ray._error
        real = bots_module.decide

        def not_here(*args, **kw):
            raise AssertionError("a bot decided in the web process")
        monkeypatch.setattr(bots_module, "decide", not_here)    # Ray's workers have their own copy

        r = c.post("/api/games", json={"players": [{"name": "Ann"}, {"kind": "bot", "bot": "heuristic"},
                                                   {"kind": "bot", "bot": "search", "seconds": 0.05}],
                                       "modules": ["scrolls"], "seed": 1717})
        assert r.status_code == 201
        gid, tok = r.json()["game_id"], r.json()["seats"][0]["token"]
        rng = random.Random(17)
        moves = 0
        while moves < 12:
            s = c.get("/api/me", headers=auth(tok)).json()
            if s["is_over"]:
                break
            if not s["legal"]:
                asyncio.run(asyncio.sleep(0.05))
                continue
            r = c.post("/api/me/act", headers=auth(tok),
                       json={"action": eager_choice(rng, s["legal"]), "version": s["version"]})
            moves += r.status_code == 200
        game = service.live[gid].game
        record = game.record()
        assert runner._pool is None, "a local process pool was started"
        assert not [r for r in caplog.records if getattr(r, "event", "") in ("bot_error", "bot_crash")]

        # the heuristic's moves are what it decides from the same view and seed
        g = affresco.replay({**record, "actions": []})
        checked = 0
        for i, (seat, notation) in enumerate(record["actions"]):
            if seat == 1 and len(g.legal_actions(seat)) > 1:
                assert real("heuristic", f"{g.seed}:{seat}:{i}", None, g.view(seat), g.legal_actions(seat),
                            seat) == notation
                checked += 1
            g.apply(seat, notation)
        assert checked >= 5

        # every answer at the end of its seat's budget, forced or not, whatever the secret
        points = {k: v for k, v in copy.deepcopy(decision_points()).items()
                  if k in ("scroll:forced", "scroll:choice", "restore:choice", "no-restore")}
        info = SeatInfo(1, "B", "bot", "search", 0.05)
        budget = runner.budget(info)
        times = c.portal.call(answer_times, runner, info, points)
        every = [t for ts in times.values() for t in ts]
        assert min(every) >= budget - 0.002, times
        assert sum(t <= budget + 0.1 for t in every) >= 0.75 * len(every), times
    assert not ray.is_initialized(), "Ray was not shut down with the server"


class FakeRay(types.ModuleType):
    """A stand-in for the ``ray`` module whose first ``failures`` starts fail as Ray's own does on
    a busy machine (a bare Exception: the raylet did not register within its 30 s); its tasks
    run here, counted."""

    def __init__(self, failures: int, home=None):
        super().__init__("ray")
        self.failures, self.inits, self.shutdowns, self.tasks = failures, 0, 0, 0
        self.left: list[subprocess.Popen] = []
        if home is not None:            # a failed start leaves a "raylet" running, as Ray's does
            (home / "ray").mkdir()
            self.__file__ = str(home / "ray" / "__init__.py")
            (home / "ray" / "raylet.py").write_text("import time\ntime.sleep(120)\n")

    def init(self, **kw):
        self.inits += 1
        if self.inits <= self.failures:
            if getattr(self, "__file__", None):
                self.left.append(subprocess.Popen([sys.executable, os.path.join(os.path.dirname(self.__file__),
                                                                                "raylet.py")]))
            raise Exception("The current node timed out during startup. This could happen because "
                            "some of the raylet failed to startup or the GCS has become overloaded.")

    def shutdown(self):
        self.shutdowns += 1

    def is_initialized(self):
        return False

    def remote(self, **kw):
        fake = self

        class Task:
            def __init__(self, fn):
                self.fn = fn

            def remote(self, *args):
                fake.tasks += 1
                value = self.fn(*args)

                class Ref:
                    def __await__(self):
                        yield from asyncio.sleep(0).__await__()
                        return value
                return Ref()
        return Task

    def get(self, ref):
        return asyncio.run(_awaited(ref))


async def _awaited(ref):
    return await ref


def _bot_moves(c, count: int) -> dict:
    """Play seat 0 (random legal moves) until the bot seats moved ``count`` times; the record."""
    service = c.app.state.service
    rng = random.Random(5)
    r = c.post("/api/games", json={"players": [{"name": "Ann"}, {"kind": "bot", "bot": "heuristic"}],
                                   "seed": 99})
    assert r.status_code == 201
    gid, tok = r.json()["game_id"], r.json()["seats"][0]["token"]
    for _ in range(400):
        s = c.get("/api/me", headers=auth(tok)).json()
        record = service.live[gid].game.record()
        if s["is_over"] or sum(seat == 1 for seat, _ in record["actions"]) >= count:
            return record
        if not s["legal"]:
            asyncio.run(asyncio.sleep(0.02))
            continue
        c.post("/api/me/act", headers=auth(tok), json={"action": rng.choice(s["legal"]), "version": s["version"]})
    raise AssertionError("the bot did not move")


def _decided_here(record) -> int:
    """How many of seat 1's chosen moves are the heuristic's own (from its view and seed)."""
    g = affresco.replay({**record, "actions": []})
    same = 0
    for i, (seat, notation) in enumerate(record["actions"]):
        if seat == 1 and len(g.legal_actions(seat)) > 1:
            assert bots_module.decide("heuristic", f"{g.seed}:{seat}:{i}", None, g.view(seat),
                                      g.legal_actions(seat), seat) == notation
            same += 1
        g.apply(seat, notation)
    return same


def test_a_ray_start_that_times_out_is_tried_again(sqlite_url, monkeypatch, caplog):
    fake = FakeRay(failures=1)
    monkeypatch.setitem(sys.modules, "ray", fake)
    caplog.set_level(logging.INFO, logger="affresco.server")
    with api_client(sqlite_url, bots="ray-local", bot_delay=0.0) as c:
        runner = c.app.state.service.bots
        assert runner.ray._ready.wait(30)
        assert runner.ray._error is None, runner.ray._error
        record = _bot_moves(c, 4)
        assert _decided_here(record) >= 3
        assert fake.tasks >= 4, "the bots did not decide on Ray"
        assert runner._pool is None
    events = [getattr(r, "event", "") for r in caplog.records]
    assert "ray_retry" in events and "ray_ready" in events and "bot_error" not in events
    assert fake.inits == 2 and fake.shutdowns >= 1     # the failed start cleaned before the second


def test_bots_decide_here_when_ray_cannot_be_started(sqlite_url, monkeypatch, caplog, tmp_path):
    # one failed start of Ray used to leave every bot decision of the server's life a
    # bot_error (the first legal move played): they now run here, as without Ray; and what
    # the failed starts left running (Ray's GCS server, raylet...) is stopped
    fake = FakeRay(failures=99, home=tmp_path)
    monkeypatch.setitem(sys.modules, "ray", fake)
    caplog.set_level(logging.INFO, logger="affresco.server")
    with api_client(sqlite_url, bots="ray-local", bot_delay=0.0) as c:
        runner = c.app.state.service.bots
        assert runner.ray._ready.wait(30) and runner.ray._error is not None
        record = _bot_moves(c, 4)
        assert _decided_here(record) >= 3
        assert fake.tasks == 0
    events = [getattr(r, "event", "") for r in caplog.records]
    assert "ray_error" in events and "ray_fallback" in events and "bot_error" not in events, events
    assert fake.inits == RayBots.ATTEMPTS and len(fake.left) == RayBots.ATTEMPTS
    try:
        assert all(p.poll() is not None for p in fake.left), "a failed start's processes were left running"
    finally:
        for p in fake.left:
            if p.poll() is None:
                p.kill()
                p.wait()
