"""Issue #17: several ``affresco serve`` processes on one PostgreSQL database.

Two real server processes (subprocesses, as ``affresco serve --db postgresql://...``) on the same
database, with no proxy: the tests choose the process of every request themselves.

- A game is played through both, its moves sent to each in turn; a socket on one process sees
  the moves made through the other; a retried move (same client id) is acknowledged once.
- One process is killed (SIGKILL) while its bots are to move: the game goes on and finishes on
  the other (its bots taken over when their lease expires), every acknowledged move is kept,
  and no process of the killed server is left.
- An SQLite file refuses a second process with a clear error.
"""
from __future__ import annotations

import json
import random
import secrets
import subprocess
import sys
import threading
import time

import pytest

import affresco

from server_support import (auth, check_history, eager_choice, free_port, kill_and_check_orphans, postgres_url,  # noqa: E402
                            serving, wait_until, ws_connect)

FAST = ("--rate", "1000", "--lease-seconds", "2")


class Follower:
    """A WebSocket read continuously in a thread (a socket left unread stops answering pings):
    every STATE message it receives is kept in ``states``."""

    def __init__(self, port: int, first: dict):
        self.ws = ws_connect(port, first)
        self.states: list[dict] = []
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self) -> None:
        try:
            for text in self.ws:
                msg = json.loads(text)
                if msg.get("type") == "state":
                    self.states.append(msg)
        except Exception:  # noqa: BLE001 - closed
            pass

    def wait(self, until, timeout: float = 60.0) -> dict:
        end = time.monotonic() + timeout
        while True:
            done = [m for m in self.states if until(m)]
            if done:
                return done[0]
            assert time.monotonic() < end, "the socket saw no such state"
            time.sleep(0.05)

    def close(self) -> None:
        self.ws.close()
        self.thread.join(timeout=10)


@pytest.mark.slow
def test_a_game_is_played_through_two_processes_and_each_socket_sees_every_move(tmp_path):
    """Moves sent to each process in turn are serialised on the one database; a spectator's
    socket on B and a seat's socket on A both follow the game to its end; a retried move
    (same client id, sent to the other process) is acknowledged once."""
    db = postgres_url()
    log = tmp_path / "servers.log"
    rng = random.Random(17)
    with serving(db, log, *FAST) as a, serving(db, log, *FAST) as b:
        r = a.post("/api/games", json={"players": [{"name": "Ann"}, {"name": "Bob"}], "seed": 171})
        assert r.status_code == 201
        gid = r.json()["game_id"]
        toks = [s["token"] for s in r.json()["seats"]]
        watcher = Follower(b.port, {"type": "watch", "game_id": gid})      # spectator on B
        seat_ws = Follower(a.port, {"type": "hello", "token": toks[1]})    # Bob's socket on A
        acked: list[tuple[int, int, str, str]] = []      # (version, seat, action, through)
        servers = {"A": a, "B": b}
        order = ["A", "B"]
        retried = False
        final = None
        while final is None:
            name = order[len(acked) % 2]                 # the next move goes to the other process
            c = servers[name]
            for seat in (0, 1):
                s = c.get("/api/me", headers=auth(toks[seat])).json()
                if s["is_over"]:
                    final = s
                    break
                if not s["legal"]:
                    continue
                action, cid = eager_choice(rng, s["legal"]), secrets.token_hex(8)
                body = {"action": action, "version": s["version"], "client_id": cid}
                r = c.post("/api/me/act", headers=auth(toks[seat]), json=body)
                if r.status_code == 409:                 # this process had not heard of the last move yet
                    continue
                assert r.status_code == 200, r.text
                version = r.json()["version"]
                acked.append((version, seat, action, name))
                if not retried and len(acked) >= 5:      # the answer was lost: the client sends it again, elsewhere
                    other = servers[order[len(acked) % 2]]
                    again = other.post("/api/me/act", headers=auth(toks[seat]), json=body)
                    assert again.status_code == 200, again.text
                    assert again.json()["version"] >= version
                    retried = True
                break
        seen_b = watcher.wait(lambda m: m["is_over"])
        seat_ws.wait(lambda m: m["is_over"])
        seen_a = seat_ws.states
        watcher.close()
        seat_ws.close()
        record = b.get(f"/api/games/{gid}/record").json()
        assert a.get(f"/api/games/{gid}/record").json() == record
    assert retried and {n for *_, n in acked} == {"A", "B"}
    # every move acknowledged once, at its version, whichever process took it
    assert len(record["actions"]) == final["version"] == len(acked)
    for version, seat, action, _ in acked:
        assert record["actions"][version - 1] == [seat, action]
    assert seen_b["version"] == final["version"]
    # Bob's socket on A saw moves that went through B, each state true to the stored history
    through_b = {v for v, _, _, n in acked if n == "B"}
    assert through_b & {m["version"] for m in seen_a}, "the socket on A saw none of the moves made through B"
    check_history(record, [(1, m) for m in seen_a] + [(None, seen_b)])
    g = affresco.replay(record)
    assert g.is_over and g.scores() == final["scores"]


@pytest.mark.slow
def test_kill_9_of_one_process_mid_game_the_game_finishes_on_the_other(tmp_path):
    """A's bots are to move when A is killed: B takes over the game's lease once it expires,
    its bots move on B, the person plays on through B, every acknowledged move is kept and no
    process of A is left."""
    db = postgres_url()
    log_a, log_b = tmp_path / "a.log", tmp_path / "b.log"
    rng = random.Random(18)
    acked: list[tuple[int, str]] = []
    seen: list[tuple[int | None, dict]] = []
    with serving(db, log_b, *FAST, bot_delay=0.01) as b:
        # A's bots take 0.3 s a move: when A is killed right after the person's move, they are
        # still to move, so only B's takeover (once A's lease expires) can get the game going
        with serving(db, log_a, *FAST, "--bot-processes", "1", bot_delay=0.3) as a:
            r = a.post("/api/games", json={"players": [{"name": "Ann"}, {"kind": "bot", "bot": "heuristic"},
                                                       {"kind": "bot", "bot": "random"}],
                                           "modules": ["portraits"], "seed": 181})
            assert r.status_code == 201
            gid, tok = r.json()["game_id"], r.json()["seats"][0]["token"]
            # a second game with a timed bot: A's pool of search workers runs (and must die with A)
            timed = a.post("/api/games", json={"players": [{"name": "Cy"}, {"kind": "bot", "bot": "search",
                                                                              "seconds": 0.05}], "seed": 182})
            assert timed.status_code == 201
            # B has no interest in the game until the kill (no socket, no move through it), so A's
            # bot loop is the only one to claim the game's lease: after the kill only B's takeover of
            # the expired lease gets the bots going again
            killed = False
            while not killed:
                s = wait_until(a, "/api/me", lambda s: s["legal"] or s["is_over"], auth(tok))
                assert not s["is_over"], "the game ended before the kill"
                action = eager_choice(rng, s["legal"])
                r = a.post("/api/me/act", headers=auth(tok), json={"action": action, "version": s["version"]})
                if r.status_code == 409:
                    continue
                assert r.status_code == 200, r.text
                after = r.json()
                acked.append((after["version"], action))
                seen.append((0, after))
                if len(acked) >= 4 and 0 not in after["to_act"]:
                    kill_and_check_orphans(a.proc)        # its bots are thinking (A holds the lease)
                    killed = True
                    killed_at = after["version"]
        # the game goes on through B alone, a spectator's socket on B following it
        watcher = Follower(b.port, {"type": "watch", "game_id": gid})
        while True:
            s = wait_until(b, "/api/me", lambda s: s["legal"] or s["is_over"], auth(tok), timeout=90)
            if s["is_over"]:
                final = s
                break
            action = eager_choice(rng, s["legal"])
            r = b.post("/api/me/act", headers=auth(tok), json={"action": action, "version": s["version"]})
            if r.status_code == 409:
                continue
            assert r.status_code == 200, r.text
            acked.append((r.json()["version"], action))
            seen.append((0, r.json()))
        watcher.wait(lambda m: m["is_over"])
        watcher.close()
        watched = watcher.states
        record = b.get(f"/api/games/{gid}/record").json()
    takeovers = [json.loads(line) for line in log_b.read_text().splitlines() if '"takeover"' in line]
    assert gid in [t["game_id"] for t in takeovers], "B did not take the game's bots over"
    assert record["actions"][killed_at][0] != 0, "the bots were not the next to move after the kill"
    assert len(record["actions"]) == final["version"]
    for version, action in acked:
        assert record["actions"][version - 1] == [0, action], f"acknowledged move {version} ({action}) is lost"
    check_history(record, seen + [(None, m) for m in watched[-3:]])
    assert affresco.replay(record).scores() == final["scores"]


@pytest.mark.slow
def test_a_second_process_on_one_sqlite_file_is_refused_with_a_clear_error(tmp_path):
    db = str(tmp_path / "games.db")
    with serving(db, tmp_path / "first.log"):
        second = subprocess.run([sys.executable, "-m", "affresco.cli", "serve", "--port", str(free_port()),
                                 "--db", db], capture_output=True, text=True, timeout=120)
    assert second.returncode == 1
    said = " ".join(second.stderr.split())
    assert "already served by another process" in said and "PostgreSQL" in said


def test_a_games_bot_lease_is_held_by_one_process_and_taken_over_only_once_it_expires():
    """The lease (server/cluster.py): one holder at a time; a holder that stops renewing loses
    it to the first process that sees it expired, and learns it lost it when it renews again."""
    import asyncio

    from affresco.server.app import _normalise_url
    from affresco.server.cluster import Cluster
    from affresco.server.store import Store

    store = Store(_normalise_url(postgres_url()))
    a, b = Cluster(store, ttl=1.0), Cluster(store, ttl=1.0)
    taken, lost = [], []

    async def orphan(gid: str) -> None:
        taken.append(gid)

    async def until(cond, timeout: float = 30.0) -> None:
        end = asyncio.get_running_loop().time() + timeout
        while not cond():
            assert asyncio.get_running_loop().time() < end, "timed out"
            await asyncio.sleep(0.05)

    async def main() -> None:
        assert await a.claim("g1") and "g1" in a.held
        assert not await b.claim("g1"), "two holders of one lease"
        assert await a.claim("g1"), "the holder keeps its lease"
        b.on_orphan, a.on_lost = orphan, lost.extend
        b.start()                    # a does not renew: its lease expires and b takes the game over
        await until(lambda: taken == ["g1"])
        assert "g1" in b.held and not await a.claim("g1")
        a.start()                    # a renews and finds the lease gone
        await until(lambda: lost == ["g1"])
        assert "g1" not in a.held
        await b.stop()               # a graceful stop releases b's leases at once
        assert await a.claim("g1")
        await a.stop()
    try:
        asyncio.run(main())
    finally:
        store.close()


def test_a_game_read_while_another_process_writes_it_is_never_taken_for_damaged():
    """Loading reads the game's row, its action rows and its snapshot from one snapshot of the
    database: a move committed meanwhile by another process must not look like a missing or
    extra row (which would set the game aside as damaged)."""
    from affresco import new_game
    from affresco.server.app import _normalise_url
    from affresco.server.store import SeatInfo, Store

    url = _normalise_url(postgres_url())
    writer, reader = Store(url), Store(url)
    g = new_game(2, [], 7)
    writer.batch([("create", ("g1", g.record()["setup"], [SeatInfo(0, "A", "human"), SeatInfo(1, "B", "human")],
                              {}, g.to_json(pretty=False)))])
    rng = random.Random(7)
    moves = []
    while not g.is_over and len(moves) < 150:
        seat = g.to_act[0]
        action = rng.choice(g.legal_actions(seat))
        g.apply(seat, action)
        moves.append((seat, str(action)))
    stop = threading.Event()
    errors: list[Exception] = []

    def write() -> None:
        for i, (seat, notation) in enumerate(moves):
            errors.extend(e for e in writer.batch([("append", ("g1", i + 1, i, seat, notation, False, False,
                                                               None, None))]) if e is not None)
        stop.set()
    t = threading.Thread(target=write)
    t.start()
    loads = 0
    try:
        while not stop.is_set() or loads == 0:
            stored = reader.load("g1")          # raises BrokenGame on an inconsistent read
            assert len(stored.actions) == stored.version
            loads += 1
    finally:
        t.join()
        writer.close()
        reader.close()
    assert not errors and loads > 1


def test_an_undo_through_one_process_is_followed_by_the_other(tmp_path):
    """A person's undo sent to B: A's copy (held for a spectator's socket and the bot) is
    reloaded from the database, its socket shows the state after the undo, and the next move
    through A is played on it."""
    db = postgres_url()
    log = tmp_path / "servers.log"
    rng = random.Random(19)
    with serving(db, log, *FAST) as a, serving(db, log, *FAST) as b:
        r = a.post("/api/games", json={"players": [{"name": "Ann"}, {"kind": "bot", "bot": "random"}], "seed": 191})
        gid, tok = r.json()["game_id"], r.json()["seats"][0]["token"]
        watcher = Follower(a.port, {"type": "watch", "game_id": gid})
        for _ in range(200):                          # play through A until an undo is offered
            s = wait_until(a, "/api/me", lambda s: s["legal"] or s["is_over"], auth(tok))
            assert not s["is_over"]
            if s["undo"] and s["to_act"] == [0] and s["version"] >= 3:     # (the bot waits for Ann)
                break
            r = a.post("/api/me/act", headers=auth(tok), json={"action": eager_choice(rng, s["legal"]),
                                                               "version": s["version"]})
            assert r.status_code in (200, 409), r.text
        else:
            raise AssertionError("no undo was offered")
        before = s["version"]
        s_b = wait_until(b, "/api/me", lambda x: x["version"] == before, auth(tok))
        r = b.post("/api/me/undo", headers=auth(tok), json={"version": s_b["version"]})
        assert r.status_code == 200, r.text
        undone = r.json()
        assert undone["version"] == before + 1 and undone["events_total"] < s["events_total"]
        seen = watcher.wait(lambda m: m["version"] >= undone["version"])
        mine = wait_until(a, "/api/me", lambda x: x["version"] >= undone["version"] and x["legal"], auth(tok))
        r = a.post("/api/me/act", headers=auth(tok), json={"action": mine["legal"][0], "version": mine["version"]})
        assert r.status_code == 200, r.text
        watcher.close()
    # what A showed after the undo is the stored game (the actions kept, then the later ones)
    from affresco.rules.game import RECORD_FORMAT
    from affresco.server.app import _normalise_url
    from affresco.server.store import Store
    store = Store(_normalise_url(db))
    stored = store.load(gid)
    store.close()
    record = {"format": RECORD_FORMAT, "setup": stored.setup, "actions": [[s, n] for s, n, _ in stored.actions]}
    # after the undo every version is one action: the state at version v has this many actions
    upto = {st["version"]: len(record["actions"]) - (stored.version - st["version"]) for st in (seen, mine)}
    assert len(record["actions"]) < stored.version - 1, "the undo took nothing back"
    check_history(record, [(seat, {**st, "version": upto[st["version"]]}) for seat, st in ((None, seen), (0, mine))])
