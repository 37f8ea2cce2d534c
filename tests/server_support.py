"""Shared helpers of the server tests: databases (SQLite file, PostgreSQL schema), clients."""
from __future__ import annotations

import os
import secrets
import shutil

import pytest

REQUIRE_ALL = os.environ.get("AFFRESCO_REQUIRE_ALL") == "1"


def need(what: str) -> None:
    """Skip when ``what`` is missing on a developer's machine; fail in CI (.ci/run)."""
    if REQUIRE_ALL:
        pytest.fail(f"{what} is required in CI (.ci/run installs it)")
    pytest.skip(f"{what} not available (bash .ci/run installs it)")


def postgres_url() -> str:
    """A fresh PostgreSQL schema for one test, as a database URL (search_path set)."""
    base = os.environ.get("AFFRESCO_TEST_POSTGRES")
    if not base:
        need("PostgreSQL (AFFRESCO_TEST_POSTGRES)")
    try:
        import psycopg
    except ImportError:
        need("psycopg")
    schema = "t_" + secrets.token_hex(6)
    try:
        with psycopg.connect(base, autocommit=True, connect_timeout=5) as conn:
            conn.execute(f"CREATE SCHEMA {schema}")
    except psycopg.OperationalError as e:
        need(f"a running PostgreSQL at {base} ({e})")
    sep = "&" if "?" in base else "?"
    return f"{base}{sep}options=-csearch_path%3D{schema}"


def chromium_path() -> str:
    path = os.environ.get("AFFRESCO_TEST_CHROMIUM") or shutil.which("chromium") or "/usr/bin/chromium"
    if not os.path.exists(path):
        need("Debian's chromium")
    return path


@pytest.fixture(params=["sqlite", "postgres"])
def db_url(request, tmp_path) -> str:
    """Each server test that takes this runs on both databases."""
    if request.param == "sqlite":
        return f"sqlite:///{tmp_path / 'games.db'}"
    return postgres_url()


@pytest.fixture
def sqlite_url(tmp_path) -> str:
    return f"sqlite:///{tmp_path / 'games.db'}"


# --------------------------------------------------------------------------- server helpers
# (used by test_server_api/ws/leaks/restart; imports of the web stack are local so that the
# rest of the suite does not need it)
import contextlib  # noqa: E402
import json  # noqa: E402
import random  # noqa: E402
import socket  # noqa: E402
import threading  # noqa: E402
import time  # noqa: E402
from typing import Any, Iterator  # noqa: E402

PAYLOAD_KEYS = {"type", "game_id", "seat", "version", "names", "seats", "setup", "view", "legal", "to_act",
                "committed", "undo", "is_over", "abandoned", "scores", "ranking", "events", "events_total"}


def fast_limits(**kw):
    """Limits that never get in the way of a test (each may be overridden)."""
    from affresco.server.app import Limits
    return Limits(**{"rate": 1e6, "burst": 10**6, "create_per_minute": 10**6, "bad_tokens_per_minute": 10**8, **kw})


@contextlib.contextmanager
def api_client(db: str, **app_kw) -> Iterator[Any]:
    """A Starlette TestClient on a fresh app (lifespan run: bots are scheduled)."""
    from fastapi.testclient import TestClient

    from affresco.server.app import create_app
    app_kw.setdefault("limits", fast_limits())
    app_kw.setdefault("fixed_seeds", True)      # reproducible games with several people
    app = create_app(db, **app_kw)
    with TestClient(app) as c:
        yield c


def auth(token: str | None) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"} if token else {}


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_port(port: int, timeout: float = 30.0, proc=None) -> None:
    """Wait until something listens on 127.0.0.1:port (or fail, showing why)."""
    end = time.monotonic() + timeout
    while time.monotonic() < end:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"the server exited with {proc.returncode} before listening")
        with socket.socket() as s:
            s.settimeout(0.2)
            if s.connect_ex(("127.0.0.1", port)) == 0:
                return
        time.sleep(0.05)
    raise AssertionError(f"nothing listens on port {port} after {timeout} s")


class LiveServer:
    """The app served by a real uvicorn in a thread (real sockets, real WebSocket frames),
    with the same WebSocket frame limit as ``affresco serve``."""

    def __init__(self, db: str, ws_max_size: int = 65_536, **app_kw):
        import uvicorn

        from affresco.server.app import create_app
        app_kw.setdefault("limits", fast_limits())
        app_kw.setdefault("fixed_seeds", True)
        self.app = create_app(db, **app_kw)
        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        self.ws_url = f"ws://127.0.0.1:{self.port}/ws"
        from affresco.server.app import uvicorn_config
        config = uvicorn_config(self.app, "127.0.0.1", self.port, "warning", ws_max_size=ws_max_size)
        self.server = uvicorn.Server(config)
        self.thread = threading.Thread(target=self.server.run, daemon=True)

    @property
    def service(self):
        return self.app.state.service

    def __enter__(self) -> "LiveServer":
        import httpx
        self.http = httpx.Client(base_url=self.url, timeout=30)   # one client: a new one costs ~0.1 s
        self.thread.start()
        end = time.monotonic() + 30
        while not self.server.started:
            if not self.thread.is_alive() or time.monotonic() > end:
                raise AssertionError("uvicorn did not start")
            time.sleep(0.01)
        return self

    def __exit__(self, *exc) -> None:
        self.http.close()
        self.server.should_exit = True
        self.thread.join(timeout=30)

    def connect(self, first: dict | None = None):
        """A WebSocket client (websockets' sync client), optionally sending a first message."""
        from websockets.sync.client import connect
        kw = dict(max_size=2**22, open_timeout=10, close_timeout=2)
        try:
            ws = connect(self.ws_url, legacy=True, **kw)    # websockets >= 17.1: a plain connection
        except TypeError:
            ws = connect(self.ws_url, **kw)
        if first is not None:
            ws.send(json.dumps(first))
        return ws


def recv_json(ws, timeout: float = 10.0) -> dict:
    return json.loads(ws.recv(timeout=timeout))


def recv_until(ws, pred, timeout: float = 20.0, into: list | None = None) -> dict:
    """Receive messages until ``pred(msg)``; every text received is appended to ``into``."""
    end = time.monotonic() + timeout
    while True:
        left = end - time.monotonic()
        if left <= 0:
            raise AssertionError("timed out waiting for a WebSocket message")
        text = ws.recv(timeout=left)
        if into is not None:
            into.append(text)
        msg = json.loads(text)
        if pred(msg):
            return msg


def drain(ws, into: list, wait: float = 0.0) -> None:
    """Append every message already received (waiting at most ``wait`` for the first)."""
    timeout = wait
    while True:
        try:
            into.append(ws.recv(timeout=timeout))
        except TimeoutError:
            return
        timeout = 0


def eager_choice(rng: random.Random, legal: list[str], eager: float = 0.7) -> str:
    """A random legal action, often a productive one (games end sooner than uniform play)."""
    if rng.random() < eager:
        for kind in ("restore", "altar", "buy", "blend", "studio"):
            best = [a for a in legal if a.split(" ", 1)[0] == kind]
            if best:
                return rng.choice(best)
    return rng.choice(legal)


class Journal:
    """Wraps a service's store: every version of every game with its list of actions
    [(seat, notation)], from the writes themselves (undo included), once they are stored."""

    def __init__(self, service):
        self.inner = service.store
        self.versions: dict[str, dict[int, tuple]] = {}
        self.setups: dict[str, dict] = {}
        self._states: dict[str, States] = {}
        service.store = self
        writer = getattr(service, "writer", None)
        if writer is not None:        # writes go through the group-commit writer
            writer.store = self

    def __getattr__(self, name):
        return getattr(self.inner, name)

    def _note(self, op: str, args: tuple) -> None:
        if op == "create":
            self.versions[args[0]] = {0: ()}
            self.setups[args[0]] = args[1]
        elif op == "append":
            gid, version, idx, seat, notation = args[:5]
            self.versions[gid][version] = self.versions[gid][version - 1][:idx] + ((seat, notation),)
        elif op == "truncate":
            gid, version, keep = args[:3]
            self.versions[gid][version] = self.versions[gid][version - 1][:keep]

    def game(self, gid: str, version: int | None = None, acts=None):
        """The engine game of ``gid`` at ``version`` (or after the actions ``acts``)."""
        states = self._states.get(gid)
        if states is None:
            states = self._states[gid] = States(self.setups[gid])
        return states.at(self.versions[gid][version] if acts is None else acts)

    def batch(self, ops):
        results = self.inner.batch(ops)
        for (op, args), err in zip(ops, results):
            if err is None:
                self._note(op, args)
        return results

    def create(self, *args):
        self.inner.create(*args)
        self._note("create", args)

    def append(self, *args):
        self.inner.append(*args)
        self._note("append", args)

    def truncate(self, *args):
        self.inner.truncate(*args)
        self._note("truncate", args)


class States:
    """Engine games at given action lists, rebuilt from a set-up by the engine alone.  The
    games along the current line of play are kept (a clone costs microseconds), so going
    forward, back, or to another line after an undo replays only what differs.  The games
    returned are shared: clone one before changing it."""

    def __init__(self, setup: dict):
        import affresco
        self.setup = setup
        self.acts: tuple = ()
        self.line = [affresco.replay({"format": _record_format(), "setup": setup, "actions": []})]

    def at(self, acts):
        acts = tuple(tuple(a) for a in acts)
        p = 0
        for a, b in zip(acts, self.acts):
            if a != b:
                break
            p += 1
        del self.line[p + 1:]
        g = self.line[p]
        for seat, notation in acts[p:]:
            g = g.clone()
            g.apply(seat, notation)
            self.line.append(g)
        self.acts = acts
        return self.line[len(acts)]


def _record_format() -> str:
    from affresco.rules.game import RECORD_FORMAT
    return RECORD_FORMAT


def expected_payload(g, seat: int | None, *, game_id: str, version: int, seats: list[dict], setup: dict,
                     connected: list[bool], undo: bool, full: bool, log_tail: int) -> dict:
    """The state message ``seat`` should get at this version, from the engine alone: its view,
    its legal actions and public facts (names, seat kinds, who is connected, the version)."""
    view = g.view(seat)
    events = view.pop("events")
    first = 0 if full else max(0, len(events) - log_tail)
    over = g.is_over
    return {
        "type": "state", "game_id": game_id, "seat": seat, "version": version, "names": list(g.names),
        "seats": [{**s, "connected": c} for s, c in zip(seats, connected)],
        "setup": {"players": [s["name"] for s in seats], "modules": list(setup.get("modules", [])),
                  "options": dict(setup.get("options", {}))},
        "view": view,
        "legal": [str(a) for a in g.legal_actions(seat)] if seat is not None else [],
        "to_act": list(g.to_act),
        "committed": [bool(f.get("plan_committed")) for f in view["figures"][:len(seats)]],
        "undo": undo, "is_over": over, "abandoned": False,
        "scores": g.scores() if over else None, "ranking": g.ranking() if over else None,
        "events": [{"i": i, **events[i]} for i in range(first, len(events))],
        "events_total": len(events),
    }


def public_seats(created: dict) -> list[dict]:
    """The public part of the seats of a create response (no tokens, no links)."""
    return [{k: s[k] for k in ("seat", "name", "kind", "bot", "seconds")} for s in created["seats"]]


def reveals(before, after, action: str) -> bool:
    """New information came out: a chance event, the plans revealed, a scroll played."""
    return (after.chance_events != before.chance_events
            or (before.phase == "plan" and after.phase != "plan")
            or (action.startswith("scroll ") and action != "scroll none"))


class UndoOracle:
    """From the engine alone: how many actions an undo by ``seat`` keeps, or None.  The
    reveal flags of a line of play are kept and extended (recomputed after an undo)."""

    def __init__(self, setup: dict):
        self.setup = setup
        self.acts: tuple = ()
        self.flags: list[bool] = []
        self.game = States(setup).at(()).clone()

    def keep(self, acts: tuple, seat: int) -> int | None:
        if acts[:len(self.acts)] != self.acts:
            self.acts, self.flags, self.game = (), [], States(self.setup).at(()).clone()
        for s, a in acts[len(self.acts):]:
            before = self.game.clone()
            self.game.apply(s, a)
            self.flags.append(reveals(before, self.game, a))
        self.acts = acts
        if self.game.is_over:
            return None
        for i in range(len(acts) - 1, -1, -1):
            if self.flags[i]:
                return None
            if acts[i][0] == seat:
                return i
        return None


def live_server_fixture(name: str):
    """A module-scoped fixture: a LiveServer on a fresh SQLite file, with a Journal of its writes."""
    @pytest.fixture(scope="module")
    def server(tmp_path_factory):
        db = f"sqlite:///{tmp_path_factory.mktemp(name) / 'games.db'}"
        with LiveServer(db) as srv:
            srv.journal = Journal(srv.service)
            yield srv
    return server


# --------------------------------------------------------------------------- real server processes
# (``affresco serve`` as a subprocess: test_server_restart, test_server_soak, test_server_cluster)
def _stat(pid: int) -> tuple[int, str] | None:
    """(parent pid, state letter) of a live process, or None."""
    try:
        with open(f"/proc/{pid}/stat") as f:
            text = f.read()
    except OSError:
        return None
    rest = text[text.rindex(")") + 2:].split()
    return int(rest[1]), rest[0]


def descendants(pid: int) -> set[int]:
    parents: dict[int, int] = {}
    for name in os.listdir("/proc"):
        if name.isdigit():
            st = _stat(int(name))
            if st is not None:
                parents[int(name)] = st[0]
    out, todo = set(), [pid]
    while todo:
        p = todo.pop()
        for child, parent in parents.items():
            if parent == p and child not in out:
                out.add(child)
                todo.append(child)
    return out


def alive(pids: set[int]) -> set[int]:
    return {p for p in pids if (st := _stat(p)) is not None and st[1] != "Z"}


def kill(proc) -> None:
    """SIGKILL a server process (if still running) and reap it."""
    import signal
    if proc.poll() is None:
        os.kill(proc.pid, signal.SIGKILL)
    proc.wait(timeout=30)


def kill_and_check_orphans(proc, within: float = 30.0) -> None:
    """SIGKILL the server; every process it started must be gone soon after (a worker still
    importing when its server dies ends once its start-up is done: seconds on a loaded machine;
    the wait ends when they are gone)."""
    kids = descendants(proc.pid)
    kill(proc)
    end = time.monotonic() + within
    while alive(kids):
        assert time.monotonic() < end, f"orphans after kill -9: {sorted(alive(kids))}"
        time.sleep(0.1)


@contextlib.contextmanager
def serving(db: str, log_path, *extra: str, bot_delay: float = 0.0):
    """``affresco serve`` on ``db`` as a subprocess; yields an httpx client on it (``.proc``,
    ``.port``); always killed (SIGKILL) on the way out."""
    import subprocess
    import sys

    import httpx
    port = free_port()
    with open(log_path, "ab") as log:
        proc = subprocess.Popen([sys.executable, "-m", "affresco.cli", "serve", "--port", str(port), "--db", db,
                                 "--bot-delay", str(bot_delay), "--log-level", "warning", "--fixed-seeds", *extra],
                                stdout=log, stderr=log, stdin=subprocess.DEVNULL)
    try:
        wait_port(port, 60, proc)
        c = httpx.Client(base_url=f"http://127.0.0.1:{port}", timeout=30)
        end = time.monotonic() + 30
        while True:
            try:
                if c.get("/healthz").status_code == 200:
                    break
            except httpx.TransportError:
                pass
            assert time.monotonic() < end, "the server does not answer"
            time.sleep(0.05)
        c.proc, c.port = proc, port
        try:
            yield c
        finally:
            c.close()
    finally:
        kill(proc)


def ws_connect(port: int, first: dict | None = None):
    """A WebSocket client on a server process's /ws (websockets' sync client)."""
    from websockets.sync.client import connect
    kw = dict(max_size=2**22, open_timeout=10, close_timeout=2)
    try:
        ws = connect(f"ws://127.0.0.1:{port}/ws", legacy=True, **kw)
    except TypeError:
        ws = connect(f"ws://127.0.0.1:{port}/ws", **kw)
    if first is not None:
        ws.send(json.dumps(first))
    return ws


def wait_until(c, path, pred, headers=None, timeout=60.0) -> dict:
    """Poll (within the server's default rate limit: 20 requests a second) until ``pred``."""
    end = time.monotonic() + timeout
    while True:
        r = c.get(path, headers=headers)
        if r.status_code == 429:
            time.sleep(0.2)
            continue
        assert r.status_code == 200, r.text
        s = r.json()
        if pred(s):
            return s
        assert time.monotonic() < end, f"timed out at version {s['version']}"
        time.sleep(0.03)


def check_history(record: dict, seen: list[tuple[int | None, dict]]) -> None:
    """Every state seen (seat or spectator) is the engine's view at that point of the record
    (a socket's push carries the tail of the events: it is the tail of the record's)."""
    import affresco
    for seat, s in seen:
        g = affresco.replay(record, upto=s["version"])
        view = g.view(seat)
        events = view.pop("events")
        assert s["view"] == view, f"version {s['version']}: the state seen then is not in the stored history"
        first = s["events"][0]["i"] if s["events"] else len(events)    # a push carries the log's tail
        assert s["events_total"] == len(events)
        assert [{k: v for k, v in e.items() if k != "i"} for e in s["events"]] == events[first:]
        assert s["legal"] == ([str(a) for a in g.legal_actions(seat)] if seat is not None else [])


# --------------------------------------------------------------------------- bot answer times
# (issue #15.3; test_server_bot_timing, test_server_ray)
import asyncio  # noqa: E402
import functools  # noqa: E402

SECRET_KINDS = ("scroll", "restore", "blend", "altar", "portrait", "request")


@functools.lru_cache(maxsize=1)
def decision_points(per_label: int = 2) -> dict[str, list]:
    """(view, legal, seat) of decisions from random games, labelled by what the legal set shows
    (issue #15.3: decisions whose legal set depends on secrets)."""
    from affresco import new_game
    found: dict[str, list] = {}
    for seed in range(40):
        g = new_game(3, ["scrolls", "portraits", "requests", "special_colours", "bishops_favour"], seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = g.to_act[0]
            legal = g.legal_actions(seat)
            kinds = {a.kind for a in legal}
            for kind in SECRET_KINDS:
                if kind in kinds:
                    label = f"{kind}:{'forced' if len(legal) == 1 else 'choice'}"
                    if len(found.setdefault(label, [])) < per_label:
                        found[label].append((g.view(seat), legal, seat))
            if "restore" not in kinds and "pass" in kinds and len(found.setdefault("no-restore", [])) < per_label:
                found["no-restore"].append((g.view(seat), legal, seat))
            g.apply(seat, rng.choice(legal))
        if all(len(found.get(f"{k}:choice", [])) >= per_label for k in ("scroll", "restore", "blend")) \
                and len(found.get("scroll:forced", [])) >= per_label:
            break
    return found


async def answer_times(runner, info, points: dict[str, list]) -> dict[str, list[float]]:
    """Seconds from asking ``runner`` for each decision of ``points`` to its answer, by label.
    The labels take turns (each label's first decision, then each one's second, ...): a spell of
    load on the machine then delays one answer of many labels, not every answer of one."""
    loop = asyncio.get_running_loop()
    out: dict[str, list[float]] = {label: [] for label in points}
    for i in range(max(map(len, points.values()), default=0)):
        for label, pts in points.items():
            if i >= len(pts):
                continue
            view, legal, seat = pts[i]
            t0 = loop.time()
            choice = await runner.decide(info, f"t:{label}:{i}", view, legal, seat)
            out[label].append(loop.time() - t0)
            assert choice in [str(a) for a in legal]
    return out




class OpenedPages:
    """The browser pages one test opens, named after the test (and a label); at the end they
    are closed, and no page may have logged a script error."""

    def __init__(self, request):
        self.base, self.pages = request.node.name.removeprefix("test_"), []
        self.session, self.failed = request.session, request.session.testsfailed

    def add(self, open_page, label: str = ""):
        p = open_page(self.base + (f"-{label}" if label else ""))
        self.pages.append(p)
        return p

    def close(self) -> None:
        errors = []
        failed = self.session.testsfailed > self.failed      # the test's own failure is logged by now
        for p in self.pages:
            errors += p.errors
            p.close(failed)
        assert not errors, errors
