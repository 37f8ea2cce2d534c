"""Nothing acknowledged is lost: the real ``affresco serve`` killed with SIGKILL mid-game.

The server runs as a subprocess (``python -m affresco.cli serve --bot-delay 0``) on an
SQLite file or a PostgreSQL schema.  Games are driven over HTTP; the process is killed
(``kill -9``) right after acknowledged moves, while its bots are moving, and restarted on the
same database.  Then: every acknowledged move is in the record at its version, every state
seen before the kill is exactly the engine's view at that point of the final record (so the
history before it is intact), the seat's link still works, the bots carry on by themselves,
and the game reaches its end.
"""
from __future__ import annotations

import random
import time

import pytest

import affresco

from server_support import auth, check_history, eager_choice, kill, postgres_url, serving, wait_until  # noqa: E402


def human_and_bots(db: str, tmp_path, kills: int, seed: int) -> None:
    log = tmp_path / "server.log"
    rng = random.Random(seed)
    acked: list[tuple[int, str]] = []          # (version, action) of every acknowledged move
    seen: list[tuple[int | None, dict]] = []
    lives = 0
    final = gid = tok = None
    while final is None:
        with serving(db, log) as c:
            lives += 1
            if gid is None:
                r = c.post("/api/games", json={"players": [{"name": "Ann"}, {"kind": "bot", "bot": "heuristic"},
                                                           {"kind": "bot", "bot": "random"}],
                                               "modules": ["scrolls", "portraits"], "seed": seed})
                assert r.status_code == 201
                gid, tok = r.json()["game_id"], r.json()["seats"][0]["token"]
            me = wait_until(c, "/api/me", lambda s: s["legal"] or s["is_over"], auth(tok))
            if acked:
                assert me["version"] >= acked[-1][0], "an acknowledged move was lost"
            moves = 0
            s = me
            while True:
                if not (s["legal"] or s["is_over"]):
                    s = wait_until(c, "/api/me", lambda s: s["legal"] or s["is_over"], auth(tok))
                if s["is_over"]:
                    final = s
                    seen.append((0, s))
                    break
                action = eager_choice(rng, s["legal"], 0.7)
                r = c.post("/api/me/act", headers=auth(tok), json={"action": action, "version": s["version"]})
                if r.status_code in (409, 429):
                    time.sleep(0.2 if r.status_code == 429 else 0)
                    s = {"legal": [], "is_over": False}
                    continue
                assert r.status_code == 200, r.text
                after = s = r.json()
                acked.append((after["version"], action))
                seen.append((0, after))
                if moves % 4 == 0:
                    spec = c.get(f"/api/games/{gid}")
                    if spec.status_code == 200:
                        seen.append((None, spec.json()))
                moves += 1
                if lives <= kills and moves >= 6 and not after["is_over"] and 0 not in after["to_act"]:
                    kill(c.proc)            # the bots were to move: killed while they play
                    break
    assert lives == kills + 1, "the game ended before every kill was made; use fewer moves"
    with serving(db, log) as c:              # a finished game is still there after one more restart
        rec = c.get(f"/api/games/{gid}/record")
        assert rec.status_code == 200
        record = rec.json()
        again = c.get("/api/me", headers=auth(tok)).json()
        assert again["version"] == final["version"] and again["is_over"]
    assert len(record["actions"]) == final["version"]          # no undo: one version per action
    for version, action in acked:
        assert record["actions"][version - 1] == [0, action], f"acknowledged move {version} ({action}) is lost"
    check_history(record, seen)
    g = affresco.replay(record)
    assert g.is_over and g.scores() == final["scores"]


@pytest.mark.slow
def test_kill_mid_game_sqlite(tmp_path):
    human_and_bots(str(tmp_path / "games.db"), tmp_path, kills=2, seed=61)


@pytest.mark.slow
def test_kill_mid_game_postgres(tmp_path):
    human_and_bots(postgres_url(), tmp_path, kills=1, seed=62)


@pytest.mark.slow
@pytest.mark.parametrize("where", ["sqlite", "postgres"])
def test_bots_resume_by_themselves(tmp_path, where):
    """An all-bot game killed while it plays goes on to its end after a restart, by itself."""
    db = f"sqlite:///{tmp_path / 'games.db'}" if where == "sqlite" else postgres_url()
    log = tmp_path / "server.log"
    seen: list[tuple[None, dict]] = []
    with serving(db, log, bot_delay=0.01) as c:       # slow enough to be caught mid-game
        r = c.post("/api/games", json={"players": [{"kind": "bot", "bot": "random"}, {"kind": "bot", "bot": "heuristic"},
                                                   {"kind": "bot", "bot": "random"}],
                                       "modules": ["portraits"], "seed": 71})
        gid = r.json()["game_id"]
        s = wait_until(c, f"/api/games/{gid}", lambda s: s["version"] >= 15)
        seen.append((None, s))
        kill(c.proc)
    assert not s["is_over"]
    with serving(db, log) as c:
        first = c.get(f"/api/games/{gid}").json()
        assert first["version"] >= s["version"]
        # nobody asks anything: the bots move on their own
        last = wait_until(c, f"/api/games/{gid}", lambda x: x["is_over"])
        seen.append((None, last))
        record = c.get(f"/api/games/{gid}/record").json()
    assert len(record["actions"]) == last["version"] > s["version"]
    check_history(record, seen)
