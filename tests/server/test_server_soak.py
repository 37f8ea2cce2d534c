"""Soak: the real ``affresco serve`` under good and bad clients, killed and restarted (issue #15).

Bounded (about a minute), loopback only.  Good players (127.0.0.1) play several games over
HTTP against random, heuristic and search bots; bad clients (127.0.0.2 and 127.0.0.3) send
random tokens, lone surrogates, oversized and malformed bodies, hold slow sockets, and let
spectators come and go.  The server is killed with SIGKILL while this goes on, and restarted
on the same database.  Then: no acknowledged move is missing from the database, no process
of a killed server is left (issue #15.5: the search bots' pool workers and their
resource tracker), and the server's memory stays flat while it runs.
"""
from __future__ import annotations

import json
import os
import random
import socket
import sqlite3
import threading
import time

import httpx
import pytest

from server_support import alive, descendants, eager_choice, kill_and_check_orphans, serving  # noqa: E402


# ------------------------------------------------------------------ processes
def rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    raise AssertionError("no VmRSS")


@pytest.mark.slow
def test_pool_workers_end_with_a_killed_server(tmp_path):
    """Issue #15.5: kill -9 left a resource_tracker and a spawn worker re-parented to PID 1."""
    with serving(str(tmp_path / "g.db"), tmp_path / "log", "--bot-processes", "2") as c:
        r = c.post("/api/games", json={"players": [{"kind": "human"}, {"kind": "bot", "bot": "search", "seconds": 0.3}]})
        assert r.status_code == 201
        tok = r.json()["seats"][0]["token"]
        h = {"Authorization": f"Bearer {tok}"}
        end = time.monotonic() + 60
        while True:               # play until the search bot has decided in a worker
            s = c.get("/api/me", headers=h).json()
            if s["legal"]:
                c.post("/api/me/act", headers=h, json={"action": s["legal"][0], "version": s["version"]})
            if s["version"] >= 4:        # both get-ups and both plans: the bot chose twice
                break
            assert time.monotonic() < end, "the search bot did not move"
            time.sleep(0.05)
        assert len(alive(descendants(c.proc.pid))) >= 2            # a worker (or two) and the resource tracker
        kill_and_check_orphans(c.proc)


# ------------------------------------------------------------------ clients
class Player(threading.Thread):
    """A person at one seat, playing over HTTP until told to stop; records every acknowledged move."""

    def __init__(self, base: str, gid: str, seat: int, token: str, acked: list, stop: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.base, self.gid, self.seat, self.token = base, gid, seat, token
        self.acked, self.stop, self.rng = acked, stop, random.Random(seed)
        self.errors: list[str] = []
        self.over = False

    def run(self) -> None:
        h = {"Authorization": f"Bearer {self.token}"}
        with httpx.Client(base_url=self.base, timeout=10) as c:
            while not self.stop.is_set():
                try:
                    s = c.get("/api/me", headers=h)
                    if s.status_code == 429:
                        time.sleep(0.1)
                        continue
                    if s.status_code != 200:
                        self.errors.append(f"GET /api/me {s.status_code} {s.text[:200]}")
                        return
                    s = s.json()
                    if s["is_over"]:
                        self.over = True
                        return
                    if not s["legal"]:
                        time.sleep(0.01)
                        continue
                    action = eager_choice(self.rng, s["legal"], 0.7)
                    r = c.post("/api/me/act", headers=h, json={"action": action, "version": s["version"]})
                    if r.status_code == 200:
                        self.acked.append((self.gid, r.json()["version"], self.seat, action))
                    elif r.status_code not in (409, 429):
                        self.errors.append(f"act {r.status_code} {r.text[:200]}")
                        return
                except httpx.TransportError:
                    return                  # the server was killed
                time.sleep(0.005)


class Vandal(threading.Thread):
    """Bad clients from other loopback addresses: junk of every kind, and slow sockets."""

    def __init__(self, port: int, gids: list[str], stop: threading.Event, seed: int):
        super().__init__(daemon=True)
        self.port, self.gids, self.stop, self.rng = port, gids, stop, random.Random(seed)
        self.held: list[socket.socket] = []

    def slow_socket(self) -> None:
        try:
            s = socket.create_connection(("127.0.0.1", self.port), timeout=2, source_address=("127.0.0.3", 0))
            s.sendall(b"POST /api/games HTTP/1.1\r\nHost: x\r\n" if self.rng.random() < 0.5 else b"")
            self.held.append(s)
        except OSError:
            pass

    def run(self) -> None:
        tr = httpx.HTTPTransport(local_address="127.0.0.2")
        with httpx.Client(base_url=f"http://127.0.0.1:{self.port}", timeout=5, transport=tr) as c:
            while not self.stop.is_set():
                try:
                    k = self.rng.randrange(8)
                    if k == 0:
                        c.get("/api/me", headers={"Authorization": f"Bearer {os.urandom(18).hex()}"})
                    elif k == 1:
                        c.post("/api/games", content=b'{"players": [{"name": "\\ud800"}, {}]}',
                               headers={"content-type": "application/json"})
                    elif k == 2:
                        c.post("/api/my-games", content=b"[" * 30000, headers={"content-type": "application/json"})
                    elif k == 3:
                        c.post("/api/games", content=b"players=1", headers={"content-type": "text/plain"})
                    elif k == 4:
                        c.get(f"/api/games/{self.rng.choice(self.gids)}")
                    elif k == 5:
                        self.slow_socket()
                    elif k == 6:
                        self.spectate(self.rng.choice(self.gids))
                    else:
                        c.get(f"/api/games/{self.rng.choice(self.gids)}/record")
                except (httpx.TransportError, OSError):
                    time.sleep(0.05)
                time.sleep(0.01)
        for s in self.held:
            s.close()

    def spectate(self, gid: str) -> None:
        from websockets.sync.client import connect
        try:
            with connect(f"ws://127.0.0.1:{self.port}/ws", open_timeout=3, close_timeout=1) as ws:
                ws.send(json.dumps({"type": "watch", "game_id": gid}))
                ws.recv(timeout=3)
                ws.send('{"type": "act", "action": "pass", "version": 0}')
        except Exception:  # noqa: BLE001 - a bad client does not care why
            pass


GAMES = [
    [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"}],
    [{"kind": "human"}, {"kind": "human"}, {"kind": "bot", "bot": "random"}],
    [{"kind": "human"}, {"kind": "bot", "bot": "search", "seconds": 0.1}],
    [{"kind": "human"}, {"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "random"}, {"kind": "human"}],
]


@pytest.mark.slow
def test_soak_good_and_bad_clients_kills_and_restarts(tmp_path):
    db = tmp_path / "soak.db"
    log = tmp_path / "server.log"
    acked: list[tuple[str, int, int, str]] = []
    seats: list[tuple[str, int, str]] = []
    lives, life_seconds = 3, 14.0
    memory: list[tuple[float, float]] = []
    for life in range(lives):
        with serving(str(db), log, "--rate", "200", "--max-connections-per-client", "32",
                     "--header-timeout", "2", "--body-timeout", "2") as c:
            if not seats:
                for i, players in enumerate(GAMES):
                    r = c.post("/api/games", json={"players": players, "modules": ["scrolls", "portraits"][:i % 3],
                                                   "seed": 100 + i})
                    assert r.status_code == 201, r.text
                    out = r.json()
                    seats += [(out["game_id"], s["seat"], s["token"]) for s in out["seats"] if s["token"]]
            health = c.get("/healthz").json()
            assert health["games_set_aside"] == 0
            base = f"http://127.0.0.1:{c.port}"
            stop = threading.Event()
            players = [Player(base, g, s, t, acked, stop, seed=life * 10 + k) for k, (g, s, t) in enumerate(seats)]
            vandals = [Vandal(c.port, sorted({g for g, _, _ in seats}) + ["nosuchgame"], stop, seed=life)]
            for t in players + vandals:
                t.start()
            end = time.monotonic() + life_seconds
            first, cap = len(acked), end + 60
            # a life lasts life_seconds, longer on a loaded machine until 20 moves are acknowledged
            while time.monotonic() < end or (len(acked) - first < 20 and time.monotonic() < cap):
                if life == lives - 1:
                    memory.append((time.monotonic(), rss_mb(c.proc.pid)))
                time.sleep(0.5)
            kill_and_check_orphans(c.proc)          # mid-play: moves in flight, bots thinking
            stop.set()
            for t in players + vandals:
                t.join(timeout=30)
            assert not [t for t in players + vandals if t.is_alive()], "a client did not stop when told"
            errors = [e for p in players for e in p.errors]
            assert not errors, errors
    assert len(acked) > 50, f"only {len(acked)} moves acknowledged"
    # every acknowledged move is in the database, at its place
    conn = sqlite3.connect(db)
    rows = {(g, i): (s, n) for g, i, s, n in conn.execute("SELECT game_id, idx, seat, notation FROM actions")}
    versions = dict(conn.execute("SELECT id, actions FROM games"))
    conn.close()
    for gid, version, seat, action in acked:
        assert rows.get((gid, version - 1)) == (seat, action), f"acknowledged move lost: {gid} v{version} {action}"
    for gid, n in versions.items():
        assert all((gid, i) in rows for i in range(n))
    # memory flat: the last third of the run within a few MB of its middle third
    rss = [m for _, m in memory]
    third = len(rss) // 3
    mid, last = sorted(rss[third:2 * third])[third // 2], sorted(rss[2 * third:])[-1]
    assert last - mid < 15, f"server memory grew from {mid:.1f} to {last:.1f} MB"
    print(f"soak: {len(acked)} acknowledged moves over {lives} lives, server RSS {rss[0]:.0f}->{rss[-1]:.0f} MB")
