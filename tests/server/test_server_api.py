"""The REST API of ``affresco serve`` (issue 5): every endpoint, every refusal, whole games.

Driven through Starlette's TestClient on a fresh app per test (its lifespan runs, so bots
move on the server).  The tests marked with ``db_url`` run on SQLite and on PostgreSQL
(``AFFRESCO_TEST_POSTGRES``).  Expected states come from the engine alone: a ``Journal``
wraps the store and records every version's list of actions, and ``States`` rebuilds the
game at that point with ``affresco.replay``.
"""
from __future__ import annotations

import asyncio
import json
import logging
import random
import time
from importlib import resources

import pytest

import affresco
from affresco.errors import FrescoError

from server_support import (Journal, UndoOracle, api_client, auth, db_url, eager_choice, expected_payload,  # noqa: E402,F401
                            fast_limits, public_seats, sqlite_url)

HUMAN = {"kind": "human"}
BOT = {"kind": "bot", "bot": "random"}


# ------------------------------------------------------------------------------ helpers
def create(c, players, **spec):
    r = c.post("/api/games", json={"players": players, **spec})
    assert r.status_code == 201, r.text
    return r.json()


def tokens_of(created) -> list[str | None]:
    return [s["token"] for s in created["seats"]]


def me(c, token) -> dict:
    r = c.get("/api/me", headers=auth(token))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"].startswith("application/json")
    return r.json()


def wait_turn(c, token, timeout: float = 60.0) -> dict:
    """Poll GET /api/me until the seat has legal actions or the game is over."""
    end = time.monotonic() + timeout
    while True:
        s = me(c, token)
        if s["is_over"] or s["legal"]:
            return s
        assert time.monotonic() < end, f"no turn came in {timeout} s (version {s['version']}, to act {s['to_act']})"
        time.sleep(0.003)


def act(c, token, action, version):
    return c.post("/api/me/act", headers=auth(token), json={"action": action, "version": version})


def assert_error(r, status: int, code: str) -> dict:
    assert r.status_code == status, (r.status_code, r.text)
    assert r.headers["content-type"].startswith("application/json"), r.headers
    body = r.json()
    assert set(body) == {"error"}, body
    assert body["error"]["code"] == code, body
    assert isinstance(body["error"]["message"], str) and body["error"]["message"]
    return body["error"]


def service_of(c):
    return c.app.state.service


def engine_check(c, journal, created, seat, payload):
    """The payload is exactly what the engine gives this seat at the payload's version."""
    gid = created["game_id"]
    live = service_of(c).live[gid]
    g = journal.game(gid, payload["version"])
    exp = expected_payload(g, seat, game_id=gid, version=payload["version"], seats=public_seats(created),
                           setup=live.setup, connected=[s["connected"] for s in payload["seats"]],
                           undo=payload["undo"], full=True, log_tail=0)
    assert payload == exp
    return g


# ------------------------------------------------------------------------------ pages, meta
def test_index_static_health_meta(sqlite_url):
    static = resources.files("affresco.server") / "static"
    with api_client(sqlite_url) as c:
        r = c.get("/")
        page = static / "index.html"
        if page.is_file():
            assert r.status_code == 200
            assert r.headers["content-type"].startswith("text/html")
            assert r.headers["cache-control"] == "no-cache"
            assert r.content == page.read_bytes()
        else:   # the client is being written; the server says so instead of a blank page
            assert r.status_code == 500 and b"web client is missing" in r.content
        files = [f for f in static.iterdir() if f.is_file()]
        assert files, "the package ships static files"
        for f in files:
            r = c.get(f"/static/{f.name}")
            assert r.status_code == 200 and r.content == f.read_bytes()
        assert_error(c.get("/static/no-such-file.js"), 404, "not_found")
        r = c.get("/static/../service.py")
        assert r.status_code == 404 and b"GameService" not in r.content

        r = c.get("/healthz")
        assert r.status_code == 200 and r.json() == {"ok": True, "games_in_memory": 0, "games_set_aside": 0}
        meta = c.get("/api/meta").json()
        assert [m["name"] for m in meta["modules"]] == list(affresco.MODULES)
        assert all(m["title"] != m["name"] for m in meta["modules"]), meta["modules"]   # a title for people
        assert meta["version"] == affresco.__version__
        assert {"random", "heuristic"} <= {b["name"] for b in meta["bots"]}
        assert all(isinstance(b["timed"], bool) for b in meta["bots"])
        assert {o["name"] for o in meta["options"]} == {"special_colours_on_fresco"}
        assert set(meta["languages"]) >= {"en", "fr", "ru"}
        create(c, [HUMAN, HUMAN])
        assert c.get("/healthz").json()["games_in_memory"] == 1


def test_json_errors_everywhere(sqlite_url):
    with api_client(sqlite_url) as c:
        assert_error(c.get("/no/such/page"), 404, "not_found")
        assert_error(c.get("/api/nothing"), 404, "not_found")
        assert_error(c.get("/api/games"), 405, "method_not_allowed")
        assert_error(c.post("/api/meta"), 405, "method_not_allowed")
        assert_error(c.get("/api/me/act"), 405, "method_not_allowed")
        assert_error(c.delete("/api/games/abc"), 405, "method_not_allowed")
        assert_error(c.get("/api/games/abc"), 404, "not_found")
        assert_error(c.get("/api/games/abc/record"), 404, "not_found")
        assert_error(c.get("/api/games/abc/replay/0"), 404, "not_found")
        assert_error(c.get("/api/games/abc/replay/x"), 400, "bad_request")
        assert_error(c.post("/api/games", content=b"{not json", headers={"content-type": "application/json"}),
                     400, "bad_request")
        assert_error(c.post("/api/games", content=b"\xff\xfe", headers={"content-type": "application/json"}),
                     400, "bad_request")
        # deeply nested JSON is refused like any bad body, not with a crash (500)
        assert_error(c.post("/api/games", content=b"[" * 15000, headers={"content-type": "application/json"}), 400, "bad_request")
        assert_error(c.post("/api/my-games", content=b"{\"tokens\":" + b"[" * 15000), 400, "bad_request")
        # failed loads of unknown games leave nothing behind
        for i in range(20):
            c.get(f"/api/games/nope{i}")
        assert not service_of(c).live
        assert len(service_of(c)._loading) == 0


# ------------------------------------------------------------------------------ creating
BAD_SPECS = [
    ([], "the body must be a JSON object"),
    ("x", "the body must be a JSON object"),
    ({}, "players"),
    ({"players": "2"}, "players"),
    ({"players": [HUMAN]}, "players"),
    ({"players": [HUMAN] * 5}, "players"),
    ({"players": [HUMAN, "bob"]}, "players[1] must be an object"),
    ({"players": [HUMAN, {"kind": "alien"}]}, "players[1].kind"),
    ({"players": [HUMAN, {"kind": "bot", "bot": "nobody"}]}, "players[1].bot"),
    ({"players": [HUMAN, {"kind": "bot", "bot": 7}]}, "players[1].bot"),
    ({"players": [HUMAN, {"name": "x" * 25}]}, "players[1].name"),
    ({"players": [HUMAN, {"name": "   "}]}, "players[1].name"),
    ({"players": [HUMAN, {"name": 12}]}, "players[1].name"),
    ({"players": [{"name": "Ann"}, {"name": "Ann"}]}, "different"),
    ({"players": [{"name": "Ann"}, {"name": " Ann "}]}, "different"),
    ({"players": [HUMAN, HUMAN], "modules": "scrolls"}, "modules"),
    ({"players": [HUMAN, HUMAN], "modules": [1]}, "modules"),
    ({"players": [HUMAN, HUMAN], "modules": ["dragons"]}, "unknown module"),
    ({"players": [HUMAN, HUMAN], "modules": ["scrolls", "scrolls"]}, "named twice"),
    ({"players": [HUMAN, HUMAN], "options": ["special_colours_on_fresco"]}, "options"),
    ({"players": [HUMAN, HUMAN], "options": "x"}, "options"),
    ({"players": [HUMAN, HUMAN], "options": {"fast": True}}, "unknown rule option"),
    ({"players": [HUMAN, HUMAN], "options": {"special_colours_on_fresco": True}}, "belongs to the module 'special_colours'"),
    ({"players": [HUMAN, HUMAN], "modules": ["special_colours"], "options": {"special_colours_on_fresco": 1}},
     "on or off"),
    ({"players": [HUMAN, HUMAN], "seed": "1"}, "seed"),
    ({"players": [HUMAN, HUMAN], "seed": True}, "seed"),
    ({"players": [HUMAN, HUMAN], "seed": 1.5}, "seed"),
    ({"players": [{"name": "Leonardo"}, HUMAN]}, "Leonardo"),
    ({"players": [HUMAN, {"kind": "bot", "bot": "search", "seconds": 0}]}, "seconds"),
    ({"players": [HUMAN, {"kind": "bot", "bot": "search", "seconds": -1}]}, "seconds"),
    ({"players": [HUMAN, {"kind": "bot", "bot": "search", "seconds": 31}]}, "seconds"),
    ({"players": [HUMAN, {"kind": "bot", "bot": "search", "seconds": "1"}]}, "seconds"),
    ({"players": [HUMAN, {"kind": "bot", "bot": "search", "seconds": True}]}, "seconds"),
]


def test_create_validation_errors(sqlite_url):
    with api_client(sqlite_url) as c:
        for spec, words in BAD_SPECS:
            err = assert_error(c.post("/api/games", json=spec), 400, "bad_request")
            assert words.lower() in err["message"].lower(), (spec, err)
        # NaN and infinity are not a time per move
        for text in ("NaN", "Infinity"):
            body = '{"players":[{"kind":"human"},{"kind":"bot","bot":"search","seconds":%s}]}' % text
            err = assert_error(c.post("/api/games", content=body.encode(), headers={"content-type": "application/json"}), 400, "bad_request")
            assert "seconds" in err["message"]
        assert service_of(c).store.count() == 0, "a refused game was stored"
        assert not service_of(c).live
        # an empty body is an empty spec
        assert_error(c.post("/api/games"), 400, "bad_request")


def test_create_defaults_and_names(sqlite_url):
    with api_client(sqlite_url, bot_delay=30.0) as c:      # the bots wait: this test only reads
        out = create(c, [{"name": "  Ann   Lee "}, {"kind": "bot"}, HUMAN, {"kind": "bot", "bot": "search"}],
                     modules=["scrolls", "portraits"], seed=3)
        seats = out["seats"]
        assert [s["name"] for s in seats] == ["Ann Lee", "Bot 2", "Player 3", "Bot 4"]
        assert [s["kind"] for s in seats] == ["human", "bot", "human", "bot"]
        assert seats[1]["bot"] == "heuristic" and seats[1]["seconds"] is None
        assert seats[3]["bot"] == "search" and seats[3]["seconds"] == 1.0
        assert seats[0]["token"] and seats[2]["token"] and seats[0]["token"] != seats[2]["token"]
        assert seats[1]["token"] is None and seats[3]["token"] is None and seats[1]["url"] is None
        assert seats[0]["url"] == f"/#/play/{seats[0]['token']}"
        assert out["watch_url"] == f"/#/watch/{out['game_id']}"
        assert len(out["game_id"]) >= 16
        s = me(c, seats[0]["token"])
        assert s["seat"] == 0 and s["names"] == ["Ann Lee", "Bot 2", "Player 3", "Bot 4"]
        assert s["setup"] == {"players": ["Ann Lee", "Bot 2", "Player 3", "Bot 4"],      # the server's round
                              "modules": ["portraits", "scrolls"], "options": {"max_rounds": 200}}  # limit (H1)
        assert "seed" not in json.dumps(s)
        # the seed given is the seed of the engine game: same set-up as affresco.new_game
        g = affresco.new_game(["Ann Lee", "Bot 2", "Player 3", "Bot 4"], ["scrolls", "portraits"], 3)
        assert s["view"]["booths"] == g.view(0)["booths"] and s["view"]["mood_display"] == g.view(0)["mood_display"]
        assert s["view"]["figures"][0]["paints"] == g.view(0)["figures"][0]["paints"]     # (bots may have moved)
        # tokens are stored hashed only
        from sqlalchemy import text
        with service_of(c).store.engine.connect() as conn:
            rows = conn.execute(text("select hash, seat from tokens")).all()
        assert sorted(r[1] for r in rows) == [0, 2]
        assert not {seats[0]["token"], seats[2]["token"]} & {r[0] for r in rows}


# ------------------------------------------------------------------------------ reading
def test_me_watch_and_tokens(db_url):
    with api_client(db_url) as c:
        journal = Journal(service_of(c))
        out = create(c, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], modules=["scrolls"], seed=9)
        gid, toks = out["game_id"], tokens_of(out)
        for seat, tok in enumerate(toks):
            s = me(c, tok)
            engine_check(c, journal, out, seat, s)
            assert s["version"] == 0 and s["undo"] is False and not s["is_over"]
            assert s["view"]["figures"][seat]["thalers"] is not None
        r = c.get(f"/api/games/{gid}")
        assert r.status_code == 200
        spec = r.json()
        engine_check(c, journal, out, None, spec)
        assert spec["legal"] == [] and spec["seat"] is None
        assert "thalers" not in r.text and "paints" not in r.text and '"mine":{' not in r.text
        # bad and missing tokens
        for headers in ({}, {"Authorization": "Bearer"}, {"Authorization": "Bearer short"},
                        {"Authorization": "Bearer " + "x" * 30}, {"Authorization": f"Basic {toks[0]}"},
                        {"Authorization": "Bearer " + "y" * 300}, {"Authorization": toks[0]}):
            for method, path, body in (("GET", "/api/me", None), ("POST", "/api/me/act", {"action": "x", "version": 0}),
                                       ("POST", "/api/me/undo", {"version": 0})):
                r = c.request(method, path, headers=headers, json=body)
                assert_error(r, 401, "bad_token")
        # a token in the URL is not a way in (tokens travel in the header only)
        assert_error(c.get(f"/api/me?token={toks[0]}"), 401, "bad_token")
        # another game's token opens that game only
        out2 = create(c, [HUMAN, HUMAN])
        assert me(c, out2["seats"][1]["token"])["game_id"] == out2["game_id"]
        assert me(c, toks[1])["game_id"] == gid


def test_my_games(sqlite_url):
    with api_client(sqlite_url) as c:
        a = create(c, [{"name": "Ann"}, {"name": "Bob"}], seed=1)
        b = create(c, [{"name": "Ann"}, BOT, BOT], seed=2)
        ta, tb = tokens_of(a), tokens_of(b)
        r = c.post("/api/my-games", json={"tokens": [ta[0], "unknown-token-123", tb[0], ta[1]]})
        assert r.status_code == 200
        games = r.json()["games"]
        assert {(g["game_id"], g["seat"]) for g in games} == {(a["game_id"], 0), (a["game_id"], 1), (b["game_id"], 0)}
        # your turn first
        flags = [g["your_turn"] for g in games]
        assert flags == sorted(flags, reverse=True)
        for g in games:
            s = me(c, g["token"])
            if g["game_id"] == a["game_id"]:      # no bots: nothing moves
                assert g["your_turn"] == bool(s["legal"])
                assert (g["round"], g["phase"], g["is_over"]) == (s["view"]["round"], s["view"]["phase"], False)
            assert g["players"] == s["names"][:len(g["players"])] and g["name"] == s["names"][g["seat"]]
            assert set(g) == {"token", "game_id", "seat", "name", "players", "your_turn", "round", "phase",
                              "is_over", "updated"}
        assert c.post("/api/my-games", json={"tokens": []}).json() == {"games": []}
        for bad in ({}, {"tokens": "x"}, {"tokens": [1]}, {"tokens": ["x"] * 201}, {"tokens": ["x" * 201]}, []):
            assert_error(c.post("/api/my-games", json=bad), 400, "bad_request")


# ------------------------------------------------------------------------------ acting
def test_refused_actions_change_nothing(db_url):
    with api_client(db_url) as c:
        journal = Journal(service_of(c))
        out = create(c, [{"name": "Ann"}, {"name": "Bob"}], modules=["requests"], seed=4)
        toks = tokens_of(out)
        gid = out["game_id"]
        s = me(c, toks[0])
        mover = s["to_act"][0]
        waiter = 1 - mover
        before = [me(c, t) for t in toks]
        raw_before = [c.get("/api/me", headers=auth(t)).content for t in toks]
        state_before = service_of(c).live[gid].game.to_json()
        g = journal.game(gid, 0)
        tries = [(waiter, before[mover]["legal"][0]), (mover, "getup 99:00"), (mover, "buy RRR"),
                 (mover, "xyzzy"), (mover, "plan 1-1-1-1-1"), (mover, "getup"), (mover, "  getup 5:00 extra")]
        for seat, action in tries:
            r = act(c, toks[seat], action, 0)
            err = assert_error(r, 422, "illegal")
            try:
                g.clone().apply(seat, action)
                raise AssertionError(f"{action!r} is legal for seat {seat}")
            except FrescoError as e:
                assert err["message"] == str(e), "the refusal gives the engine's reason"
        # malformed requests
        for body in ({"action": "", "version": 0}, {"action": 5, "version": 0}, {"action": "x" * 201, "version": 0},
                     {"version": 0}, {"action": before[mover]["legal"][0]},
                     {"action": before[mover]["legal"][0], "version": "0"},
                     {"action": before[mover]["legal"][0], "version": True},
                     {"action": before[mover]["legal"][0], "version": 0.0}):
            assert_error(c.post("/api/me/act", headers=auth(toks[mover]), json=body), 400, "bad_request")
        for raw in (b"[]", b"\"getup\"", b"{bad"):
            assert_error(c.post("/api/me/act", headers=auth(toks[mover]), content=raw), 400, "bad_request")
        # nothing changed: same version, same bytes, same engine state, nothing stored
        assert [c.get("/api/me", headers=auth(t)).content for t in toks] == raw_before
        assert service_of(c).live[gid].game.to_json() == state_before
        assert service_of(c).live[gid].version == 0 and journal.versions[gid] == {0: ()}
        assert service_of(c).store.load(gid).version == 0 and service_of(c).store.load(gid).actions == []

        # a stale version is refused (409) and says the current one
        legal = before[mover]["legal"]
        r = act(c, toks[mover], legal[0], 0)
        assert r.status_code == 200, r.text
        after = r.json()
        assert after["version"] == 1 and journal.versions[gid][1] == ((mover, legal[0]),)
        engine_check(c, journal, out, mover, after)
        nxt = after["legal"] or me(c, toks[waiter])["legal"]
        who = mover if after["legal"] else waiter
        for stale in (0, 2, -1, 10**9):
            err = assert_error(act(c, toks[who], nxt[0], stale), 409, "stale")
            assert err["version"] == 1
        assert service_of(c).live[gid].version == 1
        # the same move twice (a double click) is applied once
        assert act(c, toks[who], nxt[0], 1).status_code == 200
        assert_error(act(c, toks[who], nxt[0], 1), 409, "stale")
        assert service_of(c).store.load(gid).version == 2


def test_secret_plans_of_others_do_not_make_a_version_stale(sqlite_url):
    """Simultaneous planning: another seat's plan committed since the version a seat saw does
    not make that version stale (what it did is hidden); anything else does."""
    with api_client(sqlite_url) as c:
        out = create(c, [{"name": "Ann"}, {"name": "Bob"}, {"name": "Cid"}], seed=14)
        toks = tokens_of(out)
        while True:                      # everyone gets up
            s = me(c, toks[0])
            if s["view"]["phase"] == "plan":
                break
            mover = s["to_act"][0]
            m = me(c, toks[mover])
            assert act(c, toks[mover], m["legal"][0], m["version"]).status_code == 200
        v = s["version"]
        seen = [me(c, t) for t in toks]
        assert all(x["version"] == v and x["legal"] for x in seen)
        assert act(c, toks[1], seen[1]["legal"][-1], v).status_code == 200          # Bob plans (v + 1)
        r = act(c, toks[0], seen[0]["legal"][0], v)                                # Ann saw v: still fine
        assert r.status_code == 200, r.text
        assert r.json()["version"] == v + 2 and r.json()["committed"] == [True, True, False]
        assert "plan" not in r.json()["view"]["figures"][1]                        # still secret
        # Bob's own move since the version he saw does make it stale
        assert_error(act(c, toks[1], seen[1]["legal"][0], v), 409, "stale")
        # the last plan reveals them all: from then on any older version is stale
        r = act(c, toks[2], seen[2]["legal"][0], v)
        assert r.status_code == 200 and r.json()["view"]["phase"] != "plan"
        assert all("plan" in f for f in r.json()["view"]["figures"][:3])
        nxt = [me(c, t) for t in toks]
        who = next(x for x in nxt if x["legal"])
        assert_error(act(c, toks[who["seat"]], who["legal"][0], v + 2), 409, "stale")


def test_bot_seats_cannot_be_driven(sqlite_url):
    with api_client(sqlite_url, bot_delay=3.0) as c:      # bots wait: no race with the checks
        out = create(c, [BOT, HUMAN, BOT], seed=5)
        gid, tok = out["game_id"], tokens_of(out)[1]
        svc = service_of(c)
        live = svc.live[gid]
        # no link opens a bot seat: only the human seat has a token
        from sqlalchemy import text
        with svc.store.engine.connect() as conn:
            assert [r[0] for r in conn.execute(text("select seat from tokens"))] == [1]
        # the human cannot play a bot's move
        s = me(c, tok)
        if 1 in s["to_act"]:
            assert act(c, tok, s["legal"][0], s["version"]).status_code == 200
            s = me(c, tok)
        assert s["to_act"] and 1 not in s["to_act"]
        err = assert_error(act(c, tok, "getup 5:00", s["version"]), 422, "illegal")
        assert "not to act" in err["message"]
        # and the service itself refuses to act for a bot seat
        async def try_bot():
            from affresco.server.service import ServiceError
            try:
                await svc.act(live, 0, "getup 5:00", live.version)
            except ServiceError as e:
                return e.status, e.code
            return None
        assert c.portal.call(try_bot) == (403, "forbidden")


def test_body_limit(sqlite_url):
    with api_client(sqlite_url, limits=fast_limits(max_body=1000)) as c:
        out = create(c, [HUMAN, HUMAN])
        tok = tokens_of(out)[0]
        big = {"action": "x" * 2000, "version": 0}
        err = assert_error(c.post("/api/me/act", headers=auth(tok), json=big), 413, "too_large")
        assert "1000" in err["message"]
        assert_error(c.post("/api/games", json={"players": [{"name": "x" * 2000}]}), 413, "too_large")
        assert_error(c.post("/api/my-games", json={"tokens": ["t" * 100] * 20}), 413, "too_large")

        # a body without Content-Length (chunked) is counted as it arrives
        def chunks():
            for _ in range(10):
                yield b" " * 200
            yield b"{}"
        assert_error(c.post("/api/my-games", content=chunks()), 413, "too_large")
        # just under the limit is fine
        ok = c.post("/api/my-games", json={"tokens": ["t" * 100] * 8})
        assert ok.status_code == 200 and ok.json() == {"games": []}
        assert me(c, tok)["version"] == 0


def test_rate_limits(sqlite_url):
    from affresco.server.app import Limits
    with api_client(sqlite_url, limits=Limits(rate=0.001, burst=3, create_per_minute=1, ip_burst=12)) as c:
        out = create(c, [HUMAN, HUMAN])
        t0, t1 = tokens_of(out)
        for _ in range(3):
            assert c.get("/api/me", headers=auth(t0)).status_code == 200
        err = assert_error(c.get("/api/me", headers=auth(t0)), 429, "rate_limited")
        assert "slow down" in err["message"]
        assert_error(c.post("/api/me/act", headers=auth(t0), json={"action": "x", "version": 0}), 429, "rate_limited")
        # per token: the other seat is not slowed down by the first
        assert c.get("/api/me", headers=auth(t1)).status_code == 200
        # every request also counts against its address (12 here): spectators, lists, records too
        gid = out["game_id"]
        codes = [c.get(f"/api/games/{gid}").status_code for _ in range(12)]
        assert 429 in codes and codes[:codes.index(429)] == [200] * codes.index(429)
        assert_error(c.post("/api/my-games", json={"tokens": []}), 429, "rate_limited")
        assert_error(c.get(f"/api/games/{gid}/record"), 429, "rate_limited")
    with api_client(sqlite_url, limits=Limits(create_per_minute=1)) as c:
        # creating games: a burst of 10 a minute per address
        codes = [c.post("/api/games", json={"players": [HUMAN, HUMAN]}).status_code for _ in range(11)]
        assert codes[:10] == [201] * 10 and codes[10] == 429
        assert service_of(c).store.count() == 11


# ------------------------------------------------------------------------------ whole games
def play_to_end(c, tok, seat, rng, journal=None, created=None, check_every: int = 0) -> dict:
    moves = 0
    while True:
        s = wait_turn(c, tok)
        if s["is_over"]:
            return s
        action = eager_choice(rng, s["legal"], 0.5)
        r = act(c, tok, action, s["version"])
        if r.status_code == 409:          # a bot moved in between (simultaneous planning)
            assert r.json()["error"]["code"] == "stale"
            continue
        assert r.status_code == 200, r.text
        moves += 1
        if check_every and moves % check_every == 0:
            engine_check(c, journal, created, seat, r.json())


@pytest.mark.slow
def test_timed_bot_moves_from_a_worker_process(sqlite_url, caplog):
    """A search bot (seconds per move) decides in the process pool, from its view only."""
    caplog.set_level(logging.INFO, logger="affresco.server")
    with api_client(sqlite_url) as c:
        journal = Journal(service_of(c))
        out = create(c, [{"name": "Ann"}, {"kind": "bot", "bot": "search", "seconds": 0.05}], seed=19)
        gid, tok = out["game_id"], tokens_of(out)[0]
        rng = random.Random(19)
        while True:
            s = wait_turn(c, tok)
            bot_moves = [a for a in journal.versions[gid][s["version"]] if a[0] == 1]
            if len(bot_moves) >= 8 or s["is_over"]:
                break
            assert act(c, tok, rng.choice(s["legal"]), s["version"]).status_code in (200, 409)
        engine_check(c, journal, out, 0, s)
    errors = [r for r in caplog.records if getattr(r, "event", "") in ("bot_error", "bot_crash")]
    assert not errors, [r.getMessage() + str(getattr(r, "error", "")) for r in errors]
    moves = [r for r in caplog.records if getattr(r, "event", "") == "move" and getattr(r, "seat", None) == 1]
    assert len(moves) >= 8


@pytest.mark.slow
@pytest.mark.parametrize("n", [2, 4])
def test_whole_game_through_the_api(db_url, n, caplog):
    caplog.set_level(logging.INFO, logger="affresco.server")
    modules = ["scrolls", "bishops_favour"] if n == 2 else ["portraits", "requests", "special_colours"]
    with api_client(db_url) as c:
        journal = Journal(service_of(c))
        players = [{"name": "Ann"}] + [{"kind": "bot", "bot": "random" if i % 2 else "heuristic"} for i in range(1, n)]
        out = create(c, players, modules=modules, seed=11 + n)
        gid, tok = out["game_id"], tokens_of(out)[0]
        assert_error(c.get(f"/api/games/{gid}/record"), 403, "not_over")
        assert_error(c.get(f"/api/games/{gid}/replay/0"), 403, "not_over")
        final = play_to_end(c, tok, 0, random.Random(n), journal, out, check_every=7)
        engine_check(c, journal, out, 0, final)
        assert final["is_over"] and final["legal"] == [] and final["to_act"] == []
        assert final["undo"] is False, "no undo once the game is over (the record shows every hidden item)"
        err = assert_error(c.post("/api/me/undo", headers=auth(tok), json={"version": final["version"]}),
                           409, "no_undo")
        assert "undo" in err["message"]
        assert_error(act(c, tok, "pass", final["version"]), 422, "illegal")
        # the record: every action, and it replays to the same end
        rec = c.get(f"/api/games/{gid}/record").json()
        assert rec["setup"]["seed"] == 11 + n
        assert [tuple(a) for a in rec["actions"]] == list(journal.versions[gid][final["version"]])
        assert len(rec["actions"]) == final["version"]
        g = affresco.replay(rec)
        assert g.is_over and g.scores() == final["scores"] and g.ranking() == final["ranking"]
        assert g.view(0)["figures"] == final["view"]["figures"]
        # the replay: every step shows every hidden item
        total = len(rec["actions"])
        for step in (0, 1, total // 2, total):
            r = c.get(f"/api/games/{gid}/replay/{step}")
            assert r.status_code == 200
            body = r.json()
            assert body["step"] == step and body["steps"] == total
            assert body["action"] == (rec["actions"][step - 1] if step else None)
            assert body["scores"] == final["scores"] and body["names"] == list(g.names)
            gs = affresco.replay(rec, upto=step)
            for f in range(n):
                assert body["view"]["figures"][f] == gs.view(f)["figures"][f]
            if "scrolls" in modules:
                for f in range(n):       # each seat's module items, nothing else
                    assert body["view"]["hands"][str(f)] == {"scrolls": gs.view(f)["scrolls"]}
        for bad in (-1, total + 1):
            assert_error(c.get(f"/api/games/{gid}/replay/{bad}"), 400, "bad_request")
        # a finished game reads the same from the database (a fresh service)
        from affresco.server.service import GameService
        from affresco.server.store import Store
        fresh = GameService(Store(service_of(c).store.url))
        try:
            live = asyncio.run(fresh.get(gid))
            assert live.version == final["version"] and live.game.is_over
            assert json.loads(fresh.payload(live, 0))["view"] == final["view"]
        finally:
            fresh.store.close()
        my = c.post("/api/my-games", json={"tokens": [tok]}).json()["games"]
        assert my[0]["is_over"] is True and my[0]["your_turn"] is False
    # the bots never failed (a failing bot falls back to its first legal action: silent but logged)
    assert not [r for r in caplog.records if getattr(r, "event", "") in ("bot_error", "bot_crash")]
    # logs carry the kind of an action, never its arguments (a plan is secret until revealed)
    from affresco.server.app import JsonLogFormatter
    lines = [JsonLogFormatter().format(r) for r in caplog.records if r.name.startswith("affresco.server")]
    assert any('"event": "move"' in line for line in lines)
    secret = {a for _, a in journal.versions[gid][final["version"]] if a.startswith(("plan ", "scroll "))}
    assert secret
    for line in lines:
        assert not any(a in line for a in secret), line


# ------------------------------------------------------------------------------ undo
def test_undo_needs_a_game_against_bots_only(db_url):
    with api_client(db_url) as c:
        out = create(c, [{"name": "Ann"}, {"name": "Bob"}, BOT], seed=6)
        toks = tokens_of(out)
        end = time.monotonic() + 30
        while True:        # the first human seat to act (the bot may go first)
            states = [me(c, t) for t in toks[:2]]
            ready = [st for st in states if st["legal"]]
            if ready:
                s = ready[0]
                break
            assert time.monotonic() < end
            time.sleep(0.005)
        who = s["seat"]
        r = act(c, toks[who], s["legal"][0], s["version"])
        assert r.status_code == 200
        assert r.json()["undo"] is False
        v = r.json()["version"]
        err = assert_error(c.post("/api/me/undo", headers=auth(toks[who]), json={"version": v}), 409, "no_undo")
        assert "bot" in err["message"]
        assert me(c, toks[who])["version"] >= v


@pytest.mark.slow
def test_undo_restores_the_exact_state_and_stops_at_new_information(db_url):
    with api_client(db_url) as c:
        svc = service_of(c)
        journal = Journal(svc)
        out = create(c, [{"name": "Ann"}, {"kind": "bot", "bot": "heuristic"}], seed=21)
        gid, tok = out["game_id"], tokens_of(out)[0]
        setup = svc.live[gid].setup
        rng = random.Random(3)
        oracle = UndoOracle(setup)
        undone = refused = plan_barriers = draw_barriers = 0
        checked_flag = chain = longest_chain = 0
        full_game = db_url.startswith("sqlite")     # on PostgreSQL: until every case was seen
        while True:
            s = wait_turn(c, tok)
            if s["is_over"]:
                break
            if not full_game and undone >= 5 and refused >= 3 and longest_chain >= 2 and plan_barriers \
                    and draw_barriers and checked_flag > 20:
                break
            # the flag agrees with the engine's own account of what came out
            acts = journal.versions[gid][s["version"]]
            keep = oracle.keep(acts, 0)
            assert s["undo"] == (keep is not None), (s["version"], acts[-3:])
            checked_flag += 1
            if keep is None and any(a[0] == 0 for a in acts):
                # refused, and nothing changed
                raw = c.get("/api/me", headers=auth(tok)).content
                state = svc.live[gid].game.to_json()
                err = assert_error(c.post("/api/me/undo", headers=auth(tok), json={"version": s["version"]}),
                                   409, "no_undo")
                assert "new information" in err["message"]
                assert c.get("/api/me", headers=auth(tok)).content == raw
                assert svc.live[gid].game.to_json() == state
                refused += 1
                last_mine = max(i for i, a in enumerate(acts) if a[0] == 0)
                earlier_round = journal.game(gid, acts=acts[:last_mine]).round
                if earlier_round != journal.game(gid, acts=acts).round:
                    draw_barriers += 1
                elif journal.game(gid, acts=acts[:last_mine]).phase == "plan":
                    plan_barriers += 1
            if keep is not None and rng.random() < 0.5:
                # undo: the exact state before my last action, as stored and as shown
                assert_error(c.post("/api/me/undo", headers=auth(tok), json={"version": s["version"] - 1}),
                             409, "stale")
                r = c.post("/api/me/undo", headers=auth(tok), json={"version": s["version"]})
                if r.status_code == 409 and r.json()["error"]["code"] == "stale":
                    continue       # the bot planned in between: look again
                assert r.status_code == 200, r.text
                u = r.json()
                assert u["version"] == s["version"] + 1
                assert journal.versions[gid][u["version"]] == acts[:keep]
                assert svc.live[gid].game.to_json() == journal.game(gid, acts=acts[:keep]).to_json()
                engine_check(c, journal, out, 0, u)
                assert u["legal"] and 0 in u["to_act"]
                stored = svc.store.load(gid)
                assert stored.version == u["version"] and [a[:2] for a in stored.actions] == list(acts[:keep])
                undone += 1
                chain += 1
                longest_chain = max(chain, longest_chain)
                continue
            chain = 0
            r = act(c, tok, eager_choice(rng, s["legal"], 0.6), s["version"])
            assert r.status_code in (200, 409), r.text
        assert undone >= 5 and refused >= 3 and checked_flag > 20 and longest_chain >= 2
        assert plan_barriers >= 1, "never refused an undo at a plan reveal"
        assert draw_barriers >= 1, "never refused an undo at a round's draws"
        if not full_game:
            return
        # the whole line of play, undos left out, is the record
        rec = c.get(f"/api/games/{gid}/record").json()
        assert [tuple(a) for a in rec["actions"]] == list(journal.versions[gid][s["version"]])
        assert affresco.replay(rec).scores() == s["scores"]


def test_undo_bad_requests(sqlite_url):
    with api_client(sqlite_url) as c:
        out = create(c, [{"name": "Ann"}, BOT, BOT], seed=8)
        tok = tokens_of(out)[0]
        for body in ({}, {"version": "1"}, {"version": None}, {"version": True}):
            assert_error(c.post("/api/me/undo", headers=auth(tok), json=body), 400, "bad_request")
        for raw in (b"[1]", b"{", b"[" * 5000):
            assert_error(c.post("/api/me/undo", headers=auth(tok), content=raw), 400, "bad_request")
        s = wait_turn(c, tok)
        assert s["undo"] is False      # nothing of mine to undo yet
        assert_error(c.post("/api/me/undo", headers=auth(tok), json={"version": s["version"]}), 409, "no_undo")
        assert me(c, tok)["version"] >= s["version"]


def test_undo_while_a_bot_is_thinking(sqlite_url, caplog):
    """Undo cancels a bot that is deciding (in the worker process); memory and database agree."""
    caplog.set_level(logging.INFO, logger="affresco.server")
    with api_client(sqlite_url) as c:
        svc = service_of(c)
        journal = Journal(svc)
        out = create(c, [{"name": "Ann"}, {"kind": "bot", "bot": "search", "seconds": 0.3}], seed=23)
        gid, tok = out["game_id"], tokens_of(out)[0]
        rng = random.Random(23)
        undone = 0
        for _ in range(40):
            s = wait_turn(c, tok)
            r = act(c, tok, rng.choice(s["legal"]), s["version"])
            if r.status_code != 200:
                continue
            after = r.json()
            if after["undo"] and not after["legal"]:          # the bot is to move, and thinks
                u = c.post("/api/me/undo", headers=auth(tok), json={"version": after["version"]})
                assert u.status_code == 200, u.text
                assert u.json()["view"] == s["view"] and u.json()["legal"] == s["legal"]
                undone += 1
                if undone == 3:
                    break
        assert undone == 3
        s = wait_turn(c, tok)                 # the bot carries on after the undos
        live = svc.live[gid]
        stored = svc.store.load(gid)
        assert stored.version == live.version and stored.actions == live.acts
        assert tuple(a[:2] for a in live.acts) == journal.versions[gid][live.version]
        assert live.game.to_json() == journal.game(gid, live.version).to_json()
    assert not [r for r in caplog.records if getattr(r, "event", "") in ("bot_error", "bot_crash")]


def test_simultaneous_submissions_apply_once(sqlite_url):
    """The same move sent ten times at once (real server, threads): one is applied, the others
    are refused as stale; the database has it once."""
    from concurrent.futures import ThreadPoolExecutor

    from server_support import LiveServer
    with LiveServer(sqlite_url) as srv:
        out = srv.http.post("/api/games", json={"players": [HUMAN, HUMAN]}).json()
        toks = tokens_of(out)
        s = srv.http.get("/api/me", headers=auth(toks[0])).json()
        mover = s["to_act"][0]
        s = srv.http.get("/api/me", headers=auth(toks[mover])).json()
        body = {"action": s["legal"][0], "version": s["version"]}
        import httpx

        def send(_):
            with httpx.Client(base_url=srv.url, timeout=30) as h:
                return h.post("/api/me/act", headers=auth(toks[mover]), json=body).status_code
        with ThreadPoolExecutor(10) as pool:
            codes = sorted(pool.map(send, range(10)))
        assert codes == [200] + [409] * 9
        stored = srv.service.store.load(out["game_id"])
        assert stored.version == 1 and [a[:2] for a in stored.actions] == [(mover, body["action"])]


def test_seed_is_refused_with_several_people_unless_fixed_seeds(sqlite_url):
    """R22: whoever knows the seed knows every draw, so a creator may fix it only for a game
    against bots (or on a test server started with --fixed-seeds)."""
    with api_client(sqlite_url, fixed_seeds=False) as c:
        r = c.post("/api/games", json={"players": [HUMAN, HUMAN], "seed": 5})
        assert r.status_code == 400 and r.json()["error"]["code"] == "bad_request"
        assert "seed" in r.json()["error"]["message"]
        created = create(c, [HUMAN, BOT], seed=5)                 # one person against a bot: allowed
        created_again = create(c, [HUMAN, HUMAN])                 # no seed: a secret one is drawn
        assert created["game_id"] != created_again["game_id"]
    with api_client(sqlite_url, fixed_seeds=True) as c:
        create(c, [HUMAN, HUMAN], seed=5)
