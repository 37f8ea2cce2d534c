"""R22 over the wire: nothing a seat may not see ever reaches it from ``affresco serve``.

Whole games (2, 3 and 4 players; module combinations with scrolls, portraits, requests, the
bishop's favour and special colours, and one with the bells, the wall fresco and the medico) are played against a real uvicorn server, with every
human seat connected over a WebSocket *and* polling the REST API, and a spectator watching
both ways.  Human seats play random legal actions (sometimes over the socket, sometimes over
REST), try illegal ones, reconnect, undo (in a game against bots), ask for the record and
the replay before the end, and list their games.  Every byte each of them receives is kept:
every WebSocket frame and every REST answer.

Ground truth comes from the engine alone.  A ``Journal`` wraps the store, so every version
of the game has its list of actions from the writes themselves (undo included), and the
engine rebuilds the game at that version (``States``: ``affresco.replay`` along the line).

Why this is sound.  Each received message is checked three ways:

1. *Exactness*: every STATE equals ``expected_payload``, built from the engine game at the
   message's version by ``Game.view(seat)``, ``Game.legal_actions(seat)`` and public facts
   only (names, seat kinds, who is connected, the version number, whether an undo is
   possible, computed from the public action history).  So a payload holds nothing but the
   seat's view and its own legal actions, and pushes carry the tail of the seat's own log.
2. *Perturbation*: the same seat would have received the very same bytes had the hidden
   items of the other seats been different.  For sampled (seat, version) pairs — all of
   them while plans are secret — the engine state is taken (``to_json``, parsed), everything the
   seat may not see is changed: every other seat's Thalers and paints (they only grow, so
   no legal action of theirs disappears), their committed plans while planning, their
   unplayed scrolls, their private log lines, the seed, the chance counter, the bag, the
   portrait deck's order and the favour tokens' order, which certificates they hold face down
   and the bottles' draw pile (with a changed plan, its audience, wall and medico words); it is loaded back (``from_dict``: ``from_json`` of the parsed text) and
   the expected payload must be byte-for-byte unchanged.  Different seeds would not do:
   they change the public draws.  Every refusal of an illegal action is checked the same way
   (the engine's reason must not depend on others' hidden items).
3. *Raw scans*: the parsed message carries ``paints``/``thalers`` only inside the seat's own
   figure, no other seat's ``plan`` while planning, no ``seed``/``bag``/``history``/deck,
   and the text never contains another seat's token.

A spectator's bytes are checked against ``view(None)``: perturbing every seat's hidden items
changes nothing.  Before the end, the record and the replay answer a bare 403.  After an
undo, exactness (1) proves the payload is the view at the earlier point, with no trace of the
undone branch (its log lines or draws).  A reconnect's first message is checked like any
other.  ``Game.view`` itself is proven leak-free by perturbation in test_view_secrecy.py;
this suite proves the server adds nothing to it.
"""
from __future__ import annotations

import hashlib
import json
import random
import re
import time
from dataclasses import dataclass, field
from typing import Any

import pytest

from affresco import Game
from affresco.rules.paints import BASIC

from server_support import (UndoOracle, eager_choice, expected_payload, live_server_fixture,  # noqa: E402,F401
                            public_seats)

LOG_TAIL = 40
PERTURB_SHARE = 0.15
# keys that no message to a seat may carry ("token" only in the seat's own list of games)
FORBIDDEN = re.compile(r'"(seed|chance_draws|bag|history|rng|tokens|modules_state|market)":')
WRONG_ACTIONS = ["restore A1", "buy RRR", "plan 1-1-1-1-1", "plan 0-0-0-0-0", "getup 5:00", "scroll both",
                 "altar", "blend O", "pass", "studio 1", "theater", "portrait muse", "close", "track ahead"]


# ------------------------------------------------------------------------------ capture
@dataclass
class Viewer:
    """One client: a seat (or the spectator), its socket, and every byte it received."""
    seat: int | None
    token: str | None
    srv: Any
    game_id: str
    ws: Any = None
    got: list = field(default_factory=list)        # (channel, text, context)
    pending: list = field(default_factory=list)    # (message, text) from the socket, not consumed yet
    ws_context: dict = field(default_factory=dict)  # error text -> the request it answers
    last_text: str = ""

    def open(self) -> None:
        first = {"type": "hello", "token": self.token} if self.seat is not None \
            else {"type": "watch", "game_id": self.game_id}
        self.ws = self.srv.connect(first)

    def reconnect(self) -> None:
        self.ws.close()
        self.pending.clear()
        self.open()
        self.wait_for(lambda m: m.get("type") == "state")

    def _recv(self, timeout: float) -> tuple[dict, str]:
        text = self.ws.recv(timeout=timeout)
        self.got.append(("ws", text, None))
        return json.loads(text), text

    def pump(self) -> None:
        while True:
            try:
                self.pending.append(self._recv(0))
            except TimeoutError:
                break
        if len(self.pending) > 200:     # every byte is kept in ``got``; here only what may be waited for
            states = [p for p in self.pending if p[0].get("type") == "state"]
            self.pending = [p for p in self.pending if p[0].get("type") != "state"] + states[-20:]

    def wait_for(self, pred, timeout: float = 20.0) -> dict:
        """The first message that matches, in arrival order (the others stay pending, as a push
        and an answer may come in either order); ``last_text`` is its text."""
        for i, (m, text) in enumerate(self.pending):
            if pred(m):
                del self.pending[i]
                self.last_text = text
                return m
        end = time.monotonic() + timeout
        while True:
            left = end - time.monotonic()
            if left <= 0:
                raise AssertionError(f"seat {self.seat}: timed out; received meanwhile "
                                     f"{[(m.get('type'), m.get('version'), m.get('code')) for m, _ in self.pending[-8:]]}")
            try:
                m, text = self._recv(left)
            except TimeoutError:
                continue
            if pred(m):
                self.last_text = text
                return m
            self.pending.append((m, text))

    def ask(self, msg: dict) -> dict:
        """Send an act or undo and wait for its answer (an ack or an error)."""
        self.pump()
        self.pending = [(m, t) for m, t in self.pending if m.get("type") not in ("ack", "error")]
        self.send(msg)
        return self.wait_for(lambda m: m.get("type") in ("error", "ack"))

    def send(self, msg: dict) -> None:
        self.ws.send(json.dumps(msg))

    def rest(self, method: str, path: str, context: dict | None = None, **kw):
        headers = {"Authorization": f"Bearer {self.token}"} if self.token else {}
        r = self.srv.http.request(method, path, headers=headers, **kw)
        self.got.append(("rest", r.text, {"status": r.status_code, "path": path, **(context or {})}))
        return r


# ------------------------------------------------------------------------------ perturbation
def other_plans(g: Game, f: int) -> list[list[int]]:
    from positions import possible_plans          # every plan the seat could have committed
    plans = possible_plans(g, f)
    view = g.view(None)
    if "medico" in view:       # its medico words become 'no ill apprentice': healthy ones only (MD18)
        plans = [p for p in plans if sum(p) <= view["medico"]["healthy"][f]]
    return plans


def perturbed(g: Game, seat: int | None, rng: random.Random) -> Game:
    """The same game with everything ``seat`` may not see changed (see the module docstring)."""
    s = g.state
    d = json.loads(g.to_json(pretty=False))
    others = [f for f in range(s.n) if f != seat]
    d["seed"] = d["seed"] + 1 + rng.randrange(10**6) if isinstance(d["seed"], int) else f"{d['seed']}x"
    d["chance_draws"] += rng.randrange(1, 50)
    if d.get("setup"):
        d["setup"]["seed"] = d["seed"]
    bag = d["market"]["bag"]
    rng.shuffle(bag)
    if bag:
        bag[0] = rng.choice(["RRR", "YYY", "BBB", "RY", "G", "O", "RB"])
    for f in others:
        fig = d["figures"][f]
        fig["thalers"] += rng.randint(1, 30)
        fig["paints"] += "".join(rng.choice(BASIC) for _ in range(rng.randint(1, 3)))
        if s.phase == "plan" and fig["plan"] is not None:
            choices = [p for p in other_plans(g, f) if p != fig["plan"]]
            if choices:
                fig["plan"] = rng.choice(choices)
                # the plan's secret module words go with it (modules 8-10): none on the new plan
                ms = d.get("modules_state") or {}
                if ms.get("medico") and ms["medico"]["plans"][f] is not None:
                    ms["medico"]["plans"][f] = {"ill": [0] * len(fig["plan"]), "medico": False}
                if ms.get("wall_fresco"):
                    ms["wall_fresco"]["action_tile"][f] = -1
                if ms.get("bells"):
                    ms["bells"]["audience"][f] = None
    mods = d.get("modules_state") or {}
    if mods.get("bells"):       # which certificates another seat holds face down (their count is public)
        b = mods["bells"]
        for f in others:
            hold = b["holdings"][f]
            if hold["face_down"] and b["stack"] and b["stack"][0] != hold["face_down"][0]:
                hold["face_down"][0], b["stack"][0] = b["stack"][0], hold["face_down"][0]
    if mods.get("medico"):      # the bottles' draw pile keeps no order anyone sees
        rng.shuffle(mods["medico"]["draw"])
    if mods.get("scrolls"):
        for f in others:
            held = mods["scrolls"][f]
            if held["row"] is not None:
                held["row"] = rng.randint(1, 5)
            if held["column"] is not None:
                held["column"] = rng.choice("ABCDE")
    if mods.get("portraits"):
        rng.shuffle(mods["portraits"]["deck"])
    if mods.get("bishops_favour"):
        rng.shuffle(mods["bishops_favour"])
    d["history"] = [[who, "plan 0-0-0-0-0" if who in others and text.startswith("plan ") else text]
                    for who, text in d["history"]]
    d["log"] = [[r, who, (({**e, "noise": rng.random()} if isinstance(e, dict) else f"secret {rng.random()}")
                          if who in others else e)] for r, who, e in d["log"]]
    h = Game.from_dict(d)
    for f in others:      # the change really is there
        assert h.state.thalers[f] == d["figures"][f]["thalers"]
    return h


def illegal_reason(g: Game, seat: int, action: str) -> str | None:
    try:
        g.clone().apply(seat, action)
    except Exception as e:  # noqa: BLE001 - FrescoError of every kind
        return str(e)
    return None


# ------------------------------------------------------------------------------ checks
from rules.test_view_secrecy import walk  # noqa: E402 - every (path, key, value) of nested dicts and lists


class Checker:
    def __init__(self, srv, journal, created, n: int, humans: list[int], rng: random.Random):
        self.srv, self.journal, self.created = srv, journal, created
        self.gid = created["game_id"]
        self.n, self.humans, self.rng = n, humans, rng
        self.tokens = {s["seat"]: s["token"] for s in created["seats"] if s["token"]}
        self.oracle = UndoOracle(journal.setups[self.gid]) if len(humans) == 1 else None
        self.done: set[str] = set()
        self.flags: dict[tuple, bool] = {}
        self.share = PERTURB_SHARE
        self.perturbed: set[tuple] = set()
        self.counts = {"state": 0, "perturbed": 0, "illegal": 0, "refused_record": 0, "ws": 0, "rest": 0,
                       "undo_payloads": 0, "my_games": 0}

    def game(self, version: int) -> Game:
        return self.journal.game(self.gid, version)

    def undo_flag(self, seat, version) -> bool:
        if self.oracle is None or seat is None:
            return False
        if (seat, version) not in self.flags:
            self.flags[seat, version] = self.oracle.keep(self.journal.versions[self.gid][version], seat) is not None
        return self.flags[seat, version]

    def expected(self, g, seat, msg) -> dict:
        connected = [s["connected"] for s in msg["seats"]]
        return expected_payload(g, seat, game_id=self.gid, version=msg["version"],
                                seats=public_seats(self.created), setup=self.journal.setups[self.gid],
                                connected=connected, undo=self.undo_flag(seat, msg["version"]),
                                full=len(msg["events"]) == msg["events_total"],
                                log_tail=LOG_TAIL)

    def scan(self, seat, text: str, obj) -> None:
        for other, tok in self.tokens.items():
            if other != seat:
                assert tok not in text, f"seat {seat} received seat {other}'s token"
        found = FORBIDDEN.search(text)
        assert not found, f"seat {seat} received {found.group(0)}"
        if isinstance(obj, dict) and isinstance(obj.get("view"), dict):
            for f, fig in enumerate(obj["view"]["figures"]):
                if f != seat:
                    assert not {"paints", "thalers"} & set(fig), f"seat {seat} received figure {f}'s items"
        elif '"paints"' in text or '"thalers"' in text:       # a small message: look everywhere
            for path, key, _ in walk(obj):
                assert key not in ("paints", "thalers"), f"seat {seat} received {path}.{key}"

    def state(self, seat, text, msg) -> None:
        self.counts["state"] += 1
        assert msg["seat"] == seat and msg["game_id"] == self.gid
        g = self.game(msg["version"])
        exp = self.expected(g, seat, msg)
        assert msg == exp, f"seat {seat}, version {msg['version']}: the payload is not the engine's"
        assert all(isinstance(c["connected"], bool) for c in msg["seats"])
        assert all(c["connected"] for c in msg["seats"] if c["kind"] == "bot")
        if msg["view"]["phase"] == "plan":
            for f, fig in enumerate(msg["view"]["figures"][:self.n]):
                assert f == seat or "plan" not in fig, f"seat {seat} sees seat {f}'s secret plan"
        key = (seat, msg["version"])
        planning_secret = g.phase == "plan" and any(p is not None for p in g.state.plan[:self.n])
        if key not in self.perturbed and (planning_secret or g.is_over or self.rng.random() < self.share):
            self.perturbed.add(key)
            self.counts["perturbed"] += 1
            h = perturbed(g, seat, self.rng)
            assert self.expected(h, seat, msg) == exp, (
                f"seat {seat}, version {msg['version']}: the payload depends on hidden items of other seats")

    def error(self, seat, text, err: dict, ctx: dict | None) -> None:
        code = err["code"]
        assert set(err) <= {"code", "message", "version"} | ({"type"} if "type" in err else set())
        if code == "stale":
            assert isinstance(err["version"], int)
            assert err["message"].startswith("the game has moved on")
        elif code == "not_over":
            assert ctx and ctx.get("status") == 403 and set(json.loads(text)) == {"error"}
            self.counts["refused_record"] += 1
        elif code == "illegal":
            assert ctx and "action" in ctx, "an illegal-action refusal nobody asked for"
            # the engine's reason at the version it was judged (bots may have moved since it was sent)
            versions = [v for v in sorted(self.journal.versions[self.gid]) if v >= ctx["version"]][:12]
            match = [v for v in versions if illegal_reason(self.game(v), seat, ctx["action"]) == err["message"]]
            assert match, f"seat {seat}: refusal {err['message']!r} is not the engine's reason"
            g = self.game(match[0])
            assert illegal_reason(perturbed(g, seat, self.rng), seat, ctx["action"]) == err["message"], \
                f"seat {seat}: the reason for refusing {ctx['action']!r} depends on others' hidden items"
            self.counts["illegal"] += 1
        elif code in ("no_undo", "forbidden"):
            pass
        else:
            raise AssertionError(f"unexpected error sent to seat {seat}: {err}")

    def check(self, viewer: Viewer) -> None:
        seat = viewer.seat
        for channel, text, ctx in viewer.got:
            self.counts[channel] += 1
            digest = hashlib.sha1(f"{seat}|{text}|{json.dumps(ctx, sort_keys=True)}".encode()).hexdigest()
            if digest in self.done:
                continue
            self.done.add(digest)
            msg = json.loads(text)
            self.scan(seat, text, msg)
            if channel == "rest" and "error" in msg:
                assert set(msg) == {"error"}
                self.error(seat, text, msg["error"], ctx)
            elif msg.get("type") == "error":
                self.error(seat, text, msg, viewer.ws_context.get(text))
            elif msg.get("type") == "state":
                self.state(seat, text, msg)
            elif msg.get("type") == "ack":
                assert set(msg) == {"type", "of", "version"} and msg["of"] in ("act", "undo")
            elif msg.get("type") == "pong":
                assert msg == {"type": "pong"}
            elif msg.get("type") == "presence":      # public: who has a socket open, per seat
                assert set(msg) == {"type", "version", "connected"} and isinstance(msg["version"], int)
                assert len(msg["connected"]) == self.n and all(isinstance(c, bool) for c in msg["connected"])
            elif "games" in msg:
                self.counts["my_games"] += 1
                for row in msg["games"]:
                    assert row["token"] == viewer.token and row["seat"] == seat and row["game_id"] == self.gid
                    assert set(row) == {"token", "game_id", "seat", "name", "players", "your_turn", "round",
                                        "phase", "is_over", "updated"}
            else:
                raise AssertionError(f"unexpected message to seat {seat}: {text[:200]}")


# ------------------------------------------------------------------------------ driving
def play(srv, journal, players: list[dict], modules: list[str], seed: int, options: dict | None = None,
         undo_share: float = 0.0, rng_seed: int = 0, max_steps: int = 5000):
    r = srv.http.post("/api/games", json={"players": players, "modules": modules, "seed": seed,
                                          "options": options or {}})
    assert r.status_code == 201, r.text
    created = r.json()
    gid = created["game_id"]
    humans = [Viewer(s["seat"], s["token"], srv, gid) for s in created["seats"] if s["token"]]
    spec = Viewer(None, None, srv, gid)
    viewers = [*humans, spec]
    for v in viewers:
        v.open()
    rng = random.Random(rng_seed)
    stats = {"undos": 0, "reconnects": 0, "ws_acts": 0, "rest_acts": 0}
    for step in range(max_steps):
        for v in viewers:
            v.pump()
        states = {v.seat: v.rest("GET", "/api/me").json() for v in humans}
        if any(s["is_over"] for s in states.values()):
            break
        if step % 7 == 0:
            spec.rest("GET", f"/api/games/{gid}")
            who = rng.choice(viewers)
            for path in (f"/api/games/{gid}/record", f"/api/games/{gid}/replay/{rng.randint(0, 3)}"):
                if who.rest("GET", path).status_code != 403:      # only if a bot just ended the game
                    who.got.pop()
                    assert srv.service.live[gid].game.is_over
        if step % 23 == 5:
            v = rng.choice(viewers)
            v.reconnect()
            stats["reconnects"] += 1
        if step % 31 == 3:
            v = rng.choice(humans)
            v.rest("POST", "/api/my-games", json={"tokens": [v.token]})
        ready = [v for v in humans if states[v.seat]["legal"]]
        if not ready:
            time.sleep(0.002)           # bots are moving
            continue
        v = rng.choice(ready)
        s = states[v.seat]
        if rng.random() < 0.12:         # an illegal try: someone else's move, or a wrong one
            pool = [a for w in humans for a in states[w.seat]["legal"] if w is not v] + WRONG_ACTIONS
            bad = rng.choice(pool)
            if bad not in s["legal"]:
                ctx = {"action": bad, "version": s["version"]}
                if rng.random() < 0.5:
                    v.rest("POST", "/api/me/act", ctx, json={"action": bad, "version": s["version"]})
                else:
                    m = v.ask({"type": "act", "action": bad, "version": s["version"]})
                    assert m["type"] == "error"
                    v.ws_context[v.last_text] = ctx
        if s["undo"] and rng.random() < undo_share:
            if stats["undos"] % 2 == 0:          # every other undo over REST: its answer is the payload at the undo
                r = v.rest("POST", "/api/me/undo", json={"version": s["version"]})
                assert r.status_code in (200, 409), r.text
            else:
                v.ask({"type": "undo", "version": s["version"]})
            stats["undos"] += 1
            continue
        action = eager_choice(rng, s["legal"], 0.6)
        if rng.random() < 0.5:
            r = v.rest("POST", "/api/me/act", json={"action": action, "version": s["version"]})
            assert r.status_code in (200, 409), r.text
            stats["rest_acts"] += 1
        else:
            m = v.ask({"type": "act", "action": action, "version": s["version"]})
            assert m["type"] == "ack" or m["code"] == "stale", m
            stats["ws_acts"] += 1
    else:
        if max_steps < 5000:            # a partial game, for the checker's own test
            for v in viewers:
                v.pump()
                v.ws.close()
            return created, viewers, stats
        raise AssertionError("the game did not end")
    # the end reaches every socket
    for v in viewers:
        v.wait_for(lambda m: m.get("type") == "state" and m["is_over"], timeout=30)
        v.rest("GET", "/api/me" if v.token else f"/api/games/{gid}")
        v.ws.close()
    final = journal.versions[gid][max(journal.versions[gid])]
    rec = srv.http.get(f"/api/games/{gid}/record").json()
    assert [tuple(a) for a in rec["actions"]] == list(final)
    return created, viewers, stats


server = live_server_fixture("leaks")


GAMES = [
    # (players: human or bot, modules, options, seed)
    (["h", "h", "b"], ["bells", "wall_fresco", "medico"], {}, 41),
    (["h", "h"], ["scrolls", "special_colours"], {"special_colours_on_fresco": True}, 31),
    (["h", "h", "b"], ["portraits", "requests", "bishops_favour"], {}, 32),
    (["h", "h", "h", "b"], ["scrolls", "portraits", "requests"], {}, 33),
]


@pytest.mark.slow
@pytest.mark.parametrize("kinds,modules,options,seed", GAMES,
                         ids=[f"{len(k)}p-{'+'.join(m)}" for k, m, _, _ in GAMES])
def test_every_byte_to_every_seat(server, kinds, modules, options, seed):
    players = [{"name": f"P{i}"} if k == "h" else {"kind": "bot", "bot": "random" if i % 2 else "heuristic",
                                                      "name": f"B{i}"} for i, k in enumerate(kinds)]
    created, viewers, stats = play(server, server.journal, players, modules, seed, options, rng_seed=seed)
    humans = [i for i, k in enumerate(kinds) if k == "h"]
    checker = Checker(server, server.journal, created, len(kinds), humans, random.Random(seed))
    for v in viewers:
        checker.check(v)
    c = checker.counts
    assert c["state"] > 100 and c["ws"] > 100 and c["rest"] > 100, c
    assert c["perturbed"] > 20 and c["illegal"] >= 3 and c["refused_record"] >= 4, (c, stats)
    assert stats["ws_acts"] > 5 and stats["rest_acts"] > 5 and stats["reconnects"] >= 1, stats


@pytest.mark.slow
def test_undo_leaves_no_trace(server):
    """One human against bots, undoing often: every payload is the view at its version (the
    undone branch's log lines and draws never show), and the undo flag is the engine's."""
    players = [{"name": "Solo"}, {"kind": "bot", "bot": "heuristic"}, {"kind": "bot", "bot": "random"}]
    created, viewers, stats = play(server, server.journal, players, ["scrolls", "bishops_favour"], 41,
                                   undo_share=0.4, rng_seed=41)
    assert stats["undos"] >= 5, stats
    gid = created["game_id"]
    versions = server.journal.versions[gid]
    undone = [v for v in versions if v and len(versions[v]) < len(versions[v - 1])]
    assert len(undone) >= 3, "undos were made but none was stored"
    checker = Checker(server, server.journal, created, 3, [0], random.Random(41))
    for v in viewers:
        checker.check(v)
    # payloads right after an undo were seen and checked
    after_undo = {json.loads(t)["version"] for _, t, _ in viewers[0].got
                  if t.startswith('{"type":"state"') and json.loads(t)["version"] in undone}
    assert after_undo, "no payload right after an undo was received"
    assert checker.counts["state"] > 100 and checker.counts["perturbed"] > 10, checker.counts


def test_the_checker_catches_planted_leaks(server):
    """The checks above are not vacuous: leaks planted into received bytes are found, and a
    leak planted into the engine's view too (so that exactness agrees) is found by perturbation."""
    players = [{"name": "P0"}, {"name": "P1"}]
    created, viewers, _ = play(server, server.journal, players, ["scrolls"], 51, rng_seed=51, max_steps=40)
    gid = created["game_id"]
    seat0 = viewers[0]
    states = [(ch, t, ctx) for ch, t, ctx in seat0.got if t.startswith('{"type":"state"')]
    assert len(states) > 20
    planning = [e for e in states if json.loads(e[1])["view"]["phase"] == "plan"]
    assert planning

    def verdict(entries, checker_cls=Checker) -> str | None:
        checker = checker_cls(server, server.journal, created, 2, [0, 1], random.Random(5))
        checker.share = 1.0
        probe = Viewer(0, seat0.token, server, gid, got=entries)
        try:
            checker.check(probe)
        except AssertionError as e:
            return str(e)
        return None

    assert verdict(states) is None           # the real bytes pass
    ch, text, ctx = states[-1]
    msg = json.loads(text)
    g = server.journal.game(gid, msg["version"])

    def planted(change) -> list:
        m = json.loads(text)
        change(m)
        return [(ch, json.dumps(m, separators=(",", ":")), ctx)]

    other = g.state.thalers[1]
    assert "figure 1" in verdict(planted(lambda m: m["view"]["figures"][1].__setitem__("thalers", other)))
    assert "not the engine" in verdict(planted(lambda m: m["view"].__setitem__("bag_size", m["view"]["bag_size"] + 1)))
    assert "token" in verdict(planted(lambda m: m["events"].append({"i": 999, "kind": "pass", "figure": 0, "round": 1, "note": viewers[1].token})))
    assert "seed" in verdict(planted(lambda m: m["setup"].__setitem__("seed", 51)))
    assert "not the engine" in verdict(planted(lambda m: m["legal"].append("pass")))
    # a leak in the view itself: the sum of everyone's Thalers, in the bytes and in the
    # expectation alike; only perturbation can see it
    class LeakyView(Checker):
        def expected(self, g, seat, msg):
            exp = super().expected(g, seat, msg)
            exp["view"]["purse"] = sum(g.state.thalers[:2])
            return exp

    def with_purse(entry):
        ch, text, ctx = entry
        m = json.loads(text)
        m["view"]["purse"] = sum(server.journal.game(gid, m["version"]).state.thalers[:2])
        return (ch, json.dumps(m, separators=(",", ":")), ctx)

    found = verdict([with_purse(e) for e in planning[-3:]], LeakyView)
    assert found and "depends on hidden items" in found
