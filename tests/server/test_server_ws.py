"""The WebSocket ``/ws`` of ``affresco serve`` (issue 5): every message and its answer.

A real uvicorn serves the app in a thread (real sockets, the same 64 KB frame limit as
``affresco serve``); clients are websockets' sync clients, so every wait has a timeout.
Payloads are checked against the engine (``expected_payload``) at the version they carry.
"""
from __future__ import annotations

import json
import random
import time

import pytest
from websockets.exceptions import ConnectionClosed

from server_support import (Journal, LiveServer, auth, db_url, eager_choice, expected_payload, fast_limits,  # noqa: E402,F401
                            live_server_fixture,
                            public_seats, recv_json, recv_until)

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}
LOG_TAIL = 40


server = live_server_fixture("ws")


def create(srv, players, **spec) -> dict:
    r = srv.http.post("/api/games", json={"players": players, **spec}, timeout=10)
    assert r.status_code == 201, r.text
    return r.json()


def is_state(version=None):
    return lambda m: m.get("type") == "state" and (version is None or m["version"] == version)


def check(srv, created, seat, msg, full: bool | None = None):
    """``msg`` is exactly the engine's state for ``seat`` at its version."""
    gid = created["game_id"]
    g = srv.journal.game(gid, msg["version"])
    full = (len(msg["events"]) == msg["events_total"]) if full is None else full
    exp = expected_payload(g, seat, game_id=gid, version=msg["version"], seats=public_seats(created),
                           setup=srv.journal.setups[gid], connected=[s["connected"] for s in msg["seats"]],
                           undo=msg["undo"], full=full, log_tail=LOG_TAIL)
    assert msg == exp


class Inbox:
    """Messages of one socket, taken by predicate: a message that does not match stays for a
    later ``get`` (an ack and a push may come in either order)."""

    def __init__(self, ws):
        self.ws, self.buf = ws, []

    def get(self, pred, timeout: float = 20.0) -> dict:
        for i, m in enumerate(self.buf):
            if pred(m):
                del self.buf[i]
                return m
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            assert left > 0, f"timed out; got meanwhile {[m.get('type') for m in self.buf]}"
            m = json.loads(self.ws.recv(timeout=left))
            if pred(m):
                return m
            self.buf.append(m)


def closed_code(ws, timeout=20.0) -> int:
    """Wait for the server to close the socket (the wait ends then); its close code."""
    end = time.monotonic() + timeout
    with pytest.raises(ConnectionClosed) as info:
        while time.monotonic() < end:
            ws.recv(timeout=end - time.monotonic())
    return info.value.rcvd.code if info.value.rcvd else info.value.sent.code


def error(ws, code: str, timeout=20.0) -> dict:
    msg = recv_until(ws, lambda m: m.get("type") == "error", timeout)
    assert msg["code"] == code, msg
    assert set(msg) == {"type", "code", "message"} | ({"version"} if code == "stale" else set())
    return msg


def ping(ws) -> None:
    """The socket is open and answers (states pushed meanwhile are skipped)."""
    ws.send(json.dumps({"type": "ping"}))
    recv_until(ws, lambda m: m.get("type") == "pong", 5)


# ------------------------------------------------------------------------------ opening
def test_hello_state_ping(server):
    out = create(server, [{"name": "Ann"}, {"name": "Bob"}], modules=["scrolls"], seed=2)
    tok = out["seats"][1]["token"]
    with server.connect() as ws:
        ws.send(json.dumps({"type": "ping"}))        # before hello too
        assert recv_json(ws) == {"type": "pong"}
        ws.send(json.dumps({"type": "hello", "token": tok}))
        first = recv_json(ws)
        check(server, out, 1, first, full=True)
        assert first["seat"] == 1 and first["version"] == 0
        assert [s["connected"] for s in first["seats"]] == [False, True]
        ws.send(json.dumps({"type": "ping"}))
        assert recv_json(ws) == {"type": "pong"}
        ws.send(json.dumps({"type": "state"}))
        again = recv_until(ws, is_state())
        check(server, out, 1, again, full=True)
        assert again == first
        # the same over REST
        rest = server.http.get("/api/me", headers=auth(tok)).json()
        assert rest == first


def test_first_message_must_open_something(server):
    out = create(server, [HUMAN, HUMAN])
    with server.connect() as ws:
        for msg in ({"type": "act", "action": "pass", "version": 0}, {"type": "state"}, {"type": "nope"},
                    {"type": "watch", "game_id": 5}, {"type": "watch", "game_id": "x" * 65}, {"type": "watch"}):
            ws.send(json.dumps(msg))
            error(ws, "bad_request")
        for raw in ("not json", "[1, 2]", "{}", '{"type": 1}', "[" * 5000, "null"):
            ws.send(raw)
            error(ws, "bad_request")
        ws.send(json.dumps({"type": "hello", "token": "x" * 20000}))
        error(ws, "too_large")
        ws.send(json.dumps({"type": "ping"}).encode())     # a binary frame is refused, not a crash
        error(ws, "bad_request")
        # still open: a hello now works
        ws.send(json.dumps({"type": "hello", "token": out["seats"][0]["token"]}))
        assert recv_until(ws, is_state())["seat"] == 0


@pytest.mark.parametrize("first", [{"type": "hello", "token": "not-a-real-token-1234"},
                                   {"type": "hello", "token": "short"}, {"type": "hello"},
                                   {"type": "hello", "token": 12345678}, {"type": "watch", "game_id": "nosuchgame"}])
def test_bad_token_or_unknown_game_closes(server, first):
    with server.connect(first) as ws:
        msg = recv_json(ws)
        assert msg["type"] == "error" and msg["code"] in ("bad_token", "not_found")
        assert closed_code(ws) == 1008


def test_messages_after_opening(server):
    out = create(server, [HUMAN, HUMAN], seed=3)
    with server.connect({"type": "hello", "token": out["seats"][0]["token"]}) as ws:
        recv_until(ws, is_state(0))
        for raw, code in (("{bad", "bad_request"), ("[" * 5000, "bad_request"), ('"act"', "bad_request"),
                          (json.dumps({"type": "fly"}), "bad_request"), (json.dumps({"type": "hello"}), "bad_request"),
                          (json.dumps({"type": "act", "action": "pass"}), "bad_request"),
                          (json.dumps({"type": "act", "action": 3, "version": 0}), "bad_request"),
                          (json.dumps({"type": "undo"}), "bad_request"),
                          (json.dumps({"type": "act", "action": "x" * 20000, "version": 0}), "too_large"),
                          (json.dumps({"type": "state"}).encode(), "bad_request")):
            ws.send(raw)
            e = error(ws, code)
            if raw == json.dumps({"type": "fly"}):
                assert "fly" in e["message"]
        ping(ws)
        # over the server's frame limit (64 KB): the connection is closed (1009)
        ws.send("x" * 70_000)
        assert closed_code(ws) == 1009
    assert server.http.get("/api/me", headers=auth(out["seats"][0]["token"])).json()["version"] == 0


# ------------------------------------------------------------------------------ acting
def test_act_ack_push_to_everyone_and_errors(db_url):
    with LiveServer(db_url) as srv:
        journal = srv.journal = Journal(srv.service)
        out = create(srv, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], modules=["requests"], seed=5)
        toks = [s["token"] for s in out["seats"]]
        socks = [srv.connect({"type": "hello", "token": t}) for t in toks]
        spec = srv.connect({"type": "watch", "game_id": out["game_id"]})
        try:
            everyone = [*socks, spec]
            seats = [0, 1, 2, None]
            # wait until each socket has seen everyone connected
            for ws in everyone:
                recv_until(ws, lambda m: flags(m) is not None and all(flags(m)))
            rng = random.Random(1)
            version = 0
            boxes = {id(ws): Inbox(ws) for ws in everyone}
            for step in range(25):
                state = json.loads(srv.http.get("/api/me", headers=auth(toks[0])).text)
                mover = state["to_act"][0]
                ms = json.loads(srv.http.get("/api/me", headers=auth(toks[mover])).text)
                action = eager_choice(rng, ms["legal"])
                if step == 0:
                    # refused: not this seat's turn, an illegal action, a stale version
                    other = (mover + 1) % 3
                    socks[other].send(json.dumps({"type": "act", "action": action, "version": version}))
                    e = error(socks[other], "illegal")
                    try:
                        journal.game(out["game_id"], version).clone().apply(other, action)
                    except Exception as x:  # noqa: BLE001
                        assert e["message"] == str(x)
                    socks[mover].send(json.dumps({"type": "act", "action": "restore Z9", "version": version}))
                    error(socks[mover], "illegal")
                    socks[mover].send(json.dumps({"type": "act", "action": action, "version": version + 1}))
                    assert error(socks[mover], "stale")["version"] == version
                    spec.send(json.dumps({"type": "act", "action": action, "version": version}))
                    assert "spectators" in error(spec, "forbidden")["message"]
                    spec.send(json.dumps({"type": "undo", "version": version}))
                    error(spec, "forbidden")
                    assert srv.service.live[out["game_id"]].version == version
                socks[mover].send(json.dumps({"type": "act", "action": action, "version": version}))
                ack = boxes[id(socks[mover])].get(lambda m: m.get("type") == "ack")
                assert ack == {"type": "ack", "of": "act", "version": version + 1}
                version += 1
                assert journal.versions[out["game_id"]][version][-1] == (mover, action)
                for ws, seat in zip(everyone, seats):
                    msg = boxes[id(ws)].get(is_state(version))
                    check(srv, out, seat, msg)
                    assert len(msg["events"]) == min(LOG_TAIL, msg["events_total"])   # pushes: the log's tail
            # the spectator never gets anyone's paints or Thalers
            spec.send(json.dumps({"type": "state"}))
            full = boxes[id(spec)].get(lambda m: m.get("type") == "state" and m["events_total"] == len(m["events"])
                                       and m["version"] == version)
            assert full["events_total"] == len(full["events"])
            check(srv, out, None, full, full=True)
            assert "thalers" not in json.dumps(full["view"]) and "paints" not in json.dumps(full["view"])
        finally:
            for ws in [*socks, spec]:
                ws.close()


def flags(m: dict) -> list[bool] | None:
    """Who is connected, from a state or a presence message."""
    if m.get("type") == "presence":
        return m["connected"]
    if m.get("type") == "state":
        return [s["connected"] for s in m["seats"]]
    return None


def test_connected_flags_and_reconnect(server):
    out = create(server, [{"name": "Ann"}, {"name": "Bob"}, {"kind": "bot", "bot": "random"}], seed=7)
    t0, t1 = out["seats"][0]["token"], out["seats"][1]["token"]
    a = server.connect({"type": "hello", "token": t0})
    m = recv_until(a, is_state())
    assert m["seats"][0]["connected"] is True and m["seats"][1]["connected"] is False
    assert m["seats"][2]["connected"] is True                     # bots are always there
    b = server.connect({"type": "hello", "token": t1})
    recv_until(a, lambda m: flags(m) is not None and flags(m)[1])
    # a spectator is nobody's seat
    w = server.connect({"type": "watch", "game_id": out["game_id"]})
    mw = recv_until(w, is_state())
    assert [s["connected"] for s in mw["seats"]] == [True, True, True]
    b.close()
    m = recv_until(a, lambda m: flags(m) is not None and not flags(m)[1])   # a small "presence" push
    assert m["type"] == "presence" and flags(m) == [True, False, True]
    # two sockets of one seat: it stays connected while either is open
    a2 = server.connect({"type": "hello", "token": t0})
    recv_until(a2, is_state())
    a.close()
    ping(a2)
    rest = server.http.get("/api/me", headers=auth(t1)).json()
    assert rest["seats"][0]["connected"] is True
    a2.close()
    w.close()
    end = time.monotonic() + 30          # ends when the server has read the close (later when loaded)
    while server.http.get("/api/me", headers=auth(t1)).json()["seats"][0]["connected"]:
        assert time.monotonic() < end, "a closed socket still counts as connected"
        time.sleep(0.02)

    # reconnect: the current state with the whole log, also after moves made while away
    rng = random.Random(2)
    for _ in range(30):
        s = server.http.get("/api/me", headers=auth(t1)).json()
        if s["legal"]:
            server.http.post("/api/me/act", headers=auth(t1),
                       json={"action": rng.choice(s["legal"]), "version": s["version"]})
        s0 = server.http.get("/api/me", headers=auth(t0)).json()
        if s0["legal"]:
            server.http.post("/api/me/act", headers=auth(t0),
                       json={"action": rng.choice(s0["legal"]), "version": s0["version"]})
    with server.connect({"type": "hello", "token": t0}) as again:
        first = recv_until(again, is_state())
        rest = server.http.get("/api/me", headers=auth(t0)).json()
        assert first["version"] <= rest["version"]
        if first["version"] == rest["version"]:
            assert first == rest
        assert first["events_total"] == len(first["events"]) and first["version"] > 0
        check(server, out, 0, first, full=True)


def test_undo_over_websocket(server):
    out = create(server, [{"name": "Ann"}, {"kind": "bot", "bot": "random"}], seed=12)
    tok = out["seats"][0]["token"]
    gid = out["game_id"]
    with server.connect({"type": "hello", "token": tok}) as ws:
        box = Inbox(ws)
        m = box.get(lambda m: m.get("type") == "state" and bool(m["legal"]))
        before = m
        ws.send(json.dumps({"type": "act", "action": m["legal"][0], "version": m["version"]}))
        ack = box.get(lambda m: m.get("type") == "ack")
        m = box.get(lambda m: m.get("type") == "state" and m["version"] >= ack["version"] and bool(m["legal"]))
        assert m["undo"] is True
        ws.send(json.dumps({"type": "undo", "version": m["version"] - 1}))
        error(ws, "stale")
        ws.send(json.dumps({"type": "undo", "version": m["version"]}))
        ack = box.get(lambda m: m.get("type") == "ack")
        assert ack == {"type": "ack", "of": "undo", "version": m["version"] + 1}
        u = box.get(is_state(ack["version"]))
        check(server, out, 0, u)
        assert server.journal.versions[gid][u["version"]] == server.journal.versions[gid][before["version"]]
        assert u["view"] == before["view"] and u["legal"] == before["legal"]
        # nothing more to undo at the start of the game: refused, the socket stays open
        ws.send(json.dumps({"type": "undo", "version": u["version"]}))
        error(ws, "no_undo")
        ping(ws)


def test_pushes_follow_bots_to_the_end(server):
    out = create(server, [{"name": "Ann"}, BOT, BOT], modules=["portraits"], seed=4)
    tok = out["seats"][0]["token"]
    rng = random.Random(4)
    with server.connect({"type": "hello", "token": tok}) as ws, \
            server.connect({"type": "watch", "game_id": out["game_id"]}) as spec:
        seen: list[str] = []
        while True:
            m = recv_until(ws, is_state(), timeout=30, into=seen)
            if m["is_over"]:
                break
            if m["legal"]:
                ws.send(json.dumps({"type": "act", "action": eager_choice(rng, m["legal"]), "version": m["version"]}))
        versions = [json.loads(t)["version"] for t in seen if json.loads(t).get("type") == "state"]
        assert versions == sorted(versions), "pushes never go back in time"
        check(server, out, 0, m)
        assert m["scores"] and m["ranking"] and m["undo"] is False
        last = recv_until(spec, lambda x: x.get("type") == "state" and x["is_over"], timeout=30)
        check(server, out, None, last)
        assert last["version"] == m["version"]


def test_websocket_rate_limit():
    import tempfile
    with tempfile.TemporaryDirectory() as d, \
            LiveServer(f"sqlite:///{d}/g.db", limits=fast_limits(rate=0.001, burst=3)) as srv:
        r = srv.http.post("/api/games", json={"players": [HUMAN, HUMAN]})
        tok = r.json()["seats"][0]["token"]
        with srv.connect({"type": "hello", "token": tok}) as ws:
            recv_until(ws, is_state())
            for _ in range(3):
                ws.send(json.dumps({"type": "state"}))
                recv_until(ws, is_state())
            ws.send(json.dumps({"type": "state"}))
            assert "slow down" in error(ws, "rate_limited")["message"]
            ping(ws)                          # pings are never limited
        # the token's bucket is shared with REST
        assert srv.http.get("/api/me", headers=auth(tok)).status_code == 429
