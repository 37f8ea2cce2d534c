"""Storage of games through SQLAlchemy: an SQLite file by default, PostgreSQL by URL.

A game is stored as its record (set-up + every action, one row per action) plus snapshots
(the compact engine JSON every ``SNAPSHOT_EVERY`` actions).  A move's action row, the game's
new version and any snapshot are written in one transaction, before the move is acknowledged,
so a server killed at any point restarts with every acknowledged move.

Seat tokens are stored only as SHA-256 hashes: the database alone does not let anyone play.
"""
from __future__ import annotations

import hashlib
import json
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from sqlalchemy import (Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, bindparam,
                        create_engine, delete, event, func, insert, select, update)
from sqlalchemy.engine import Engine

__all__ = ["Store", "StoredGame", "SeatInfo", "hash_token", "SNAPSHOT_EVERY", "default_url"]

SNAPSHOT_EVERY = 50

metadata = MetaData()

games = Table(
    "games", metadata,
    Column("id", String(32), primary_key=True),
    Column("created", Float, nullable=False),
    Column("updated", Float, nullable=False),
    Column("setup", Text, nullable=False),          # JSON: the engine record's set-up
    Column("seats", Text, nullable=False),          # JSON: [{seat, name, kind, bot, seconds}]
    Column("version", Integer, nullable=False),     # bumped by every move and undo
    Column("actions", Integer, nullable=False),     # number of actions in the record
    Column("over", Boolean, nullable=False, default=False),
)

tokens = Table(
    "tokens", metadata,
    Column("hash", String(64), primary_key=True),
    Column("game_id", String(32), ForeignKey("games.id"), nullable=False, index=True),
    Column("seat", Integer, nullable=False),
)

actions = Table(
    "actions", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("notation", String(200), nullable=False),
    Column("reveals", Boolean, nullable=False),     # new information came out (undo barrier)
    Column("at", Float, nullable=False),
)

snapshots = Table(
    "snapshots", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("idx", Integer, primary_key=True),       # the state after this many actions
    Column("state", Text, nullable=False),
)


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def default_url(path: str = "affresco.db") -> str:
    return f"sqlite:///{path}"


@dataclass
class SeatInfo:
    seat: int
    name: str
    kind: str                       # "human" or "bot"
    bot: str | None = None
    seconds: float | None = None

    def public(self) -> dict[str, Any]:
        return {"seat": self.seat, "name": self.name, "kind": self.kind, "bot": self.bot,
                "seconds": self.seconds}


@dataclass
class StoredGame:
    id: str
    setup: dict[str, Any]
    seats: list[SeatInfo]
    version: int
    over: bool
    updated: float
    actions: list[tuple[int, str, bool]] = field(default_factory=list)   # (seat, notation, reveals)
    snapshot: tuple[int, str] | None = None


class Store:
    """Games, tokens, actions and snapshots in one SQL database."""

    def __init__(self, url: str):
        self.url = url
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        self.engine: Engine = create_engine(url, **kwargs)
        if url.startswith("sqlite"):
            @event.listens_for(self.engine, "connect")
            def _pragmas(dbapi_conn, _record):  # pragma: no cover - trivial
                cur = dbapi_conn.cursor()
                # WAL: readers don't block the writer; NORMAL: a commit survives a killed process.
                cur.execute("PRAGMA journal_mode=WAL")
                cur.execute("PRAGMA synchronous=NORMAL")
                cur.execute("PRAGMA foreign_keys=ON")
                cur.close()
        metadata.create_all(self.engine)

    def close(self) -> None:
        self.engine.dispose()

    # --- writing ---------------------------------------------------------------------
    def batch(self, ops: Sequence[tuple[str, tuple]]) -> list[Exception | None]:
        """Run several writes (``create``, ``append``, ``truncate`` with their arguments) in one
        transaction; if it fails, run them one by one so that one bad write fails alone."""
        if len(ops) > 1:
            try:
                with self.engine.begin() as c:
                    if all(op == "append" for op, _ in ops):
                        self._append_many(c, [args for _, args in ops])
                    else:
                        for op, args in ops:
                            getattr(self, "_" + op)(c, *args)
                return [None] * len(ops)
            except Exception:  # noqa: BLE001 - retried one by one just below
                pass
        out: list[Exception | None] = []
        for op, args in ops:
            try:
                with self.engine.begin() as c:
                    getattr(self, "_" + op)(c, *args)
                out.append(None)
            except Exception as e:  # noqa: BLE001 - handed back to the caller of this write
                out.append(e)
        return out

    @staticmethod
    def _create(c, game_id: str, setup: dict, seats: Sequence[SeatInfo], seat_tokens: dict[int, str],
                state_json: str) -> None:
        now = time.time()
        c.execute(insert(games).values(
            id=game_id, created=now, updated=now, setup=json.dumps(setup),
            seats=json.dumps([s.public() for s in seats]), version=0, actions=0, over=False))
        for seat, tok in seat_tokens.items():
            c.execute(insert(tokens).values(hash=hash_token(tok), game_id=game_id, seat=seat))
        c.execute(insert(snapshots).values(game_id=game_id, idx=0, state=state_json))

    @staticmethod
    def _append(c, game_id: str, version: int, idx: int, seat: int, notation: str, reveals: bool,
                over: bool, snapshot: str | None) -> None:
        """Add action number ``idx`` (0-based) and move the game to ``version``."""
        now = time.time()
        c.execute(insert(actions).values(game_id=game_id, idx=idx, seat=seat, notation=notation,
                                         reveals=reveals, at=now))
        if snapshot is not None:
            c.execute(insert(snapshots).values(game_id=game_id, idx=idx + 1, state=snapshot))
        res = c.execute(update(games).where(games.c.id == game_id, games.c.version == version - 1)
                        .values(version=version, actions=idx + 1, over=over, updated=now))
        if res.rowcount != 1:
            raise RuntimeError(f"game {game_id}: stored version is not {version - 1}")

    @staticmethod
    def _append_many(c, many: Sequence[tuple]) -> None:
        """Several games' moves at once (executemany): a game has at most one move in flight,
        so each game appears once; any stale version fails the whole batch."""
        now = time.time()
        if len({args[0] for args in many}) != len(many):
            raise RuntimeError("one game twice in a batch")
        c.execute(insert(actions), [dict(game_id=g, idx=i, seat=s, notation=n, reveals=r, at=now)
                                    for g, _, i, s, n, r, _, _ in many])
        snaps = [dict(game_id=g, idx=i + 1, state=snap) for g, _, i, _, _, _, _, snap in many if snap is not None]
        if snaps:
            c.execute(insert(snapshots), snaps)
        res = c.execute(update(games).where(games.c.id == bindparam("gid"), games.c.version == bindparam("prev"))
                        .values(version=bindparam("new"), actions=bindparam("n"), over=bindparam("end"), updated=now),
                        [dict(gid=g, prev=v - 1, new=v, n=i + 1, end=o) for g, v, i, _, _, _, o, _ in many])
        if res.rowcount != len(many):
            raise RuntimeError("a stored version moved on")

    @staticmethod
    def _truncate(c, game_id: str, version: int, keep: int) -> None:
        """Undo: keep only the first ``keep`` actions."""
        c.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.idx >= keep))
        c.execute(delete(snapshots).where(snapshots.c.game_id == game_id, snapshots.c.idx > keep))
        res = c.execute(update(games).where(games.c.id == game_id, games.c.version == version - 1)
                        .values(version=version, actions=keep, over=False, updated=time.time()))
        if res.rowcount != 1:
            raise RuntimeError(f"game {game_id}: stored version is not {version - 1}")

    # --- reading ---------------------------------------------------------------------
    def seat_of(self, token: str) -> tuple[str, int] | None:
        with self.engine.connect() as c:
            row = c.execute(select(tokens.c.game_id, tokens.c.seat)
                            .where(tokens.c.hash == hash_token(token))).first()
        return (row[0], row[1]) if row else None

    def seats_of(self, toks: Iterable[str]) -> dict[str, tuple[str, int]]:
        by_hash = {hash_token(t): t for t in toks}
        if not by_hash:
            return {}
        with self.engine.connect() as c:
            rows = c.execute(select(tokens.c.hash, tokens.c.game_id, tokens.c.seat)
                             .where(tokens.c.hash.in_(list(by_hash)))).all()
        return {by_hash[h]: (g, s) for h, g, s in rows}

    def exists(self, game_id: str) -> bool:
        with self.engine.connect() as c:
            return c.execute(select(games.c.id).where(games.c.id == game_id)).first() is not None

    def load(self, game_id: str) -> StoredGame | None:
        """The game with its latest snapshot and the actions after it (all actions' seats and
        reveal flags are needed for undo, so every action row is read)."""
        with self.engine.connect() as c:
            g = c.execute(select(games).where(games.c.id == game_id)).first()
            if g is None:
                return None
            rows = c.execute(select(actions.c.seat, actions.c.notation, actions.c.reveals)
                             .where(actions.c.game_id == game_id).order_by(actions.c.idx)).all()
            snap = c.execute(select(snapshots.c.idx, snapshots.c.state)
                             .where(snapshots.c.game_id == game_id, snapshots.c.idx <= g.actions)
                             .order_by(snapshots.c.idx.desc()).limit(1)).first()
        return StoredGame(
            id=g.id, setup=json.loads(g.setup), seats=[SeatInfo(**s) for s in json.loads(g.seats)],
            version=g.version, over=bool(g.over), updated=g.updated,
            actions=[(r[0], r[1], bool(r[2])) for r in rows],
            snapshot=(snap[0], snap[1]) if snap else None)

    def active_games(self) -> list[str]:
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(select(games.c.id).where(games.c.over.is_(False)))]

    def count(self) -> int:
        with self.engine.connect() as c:
            return c.execute(select(func.count()).select_from(games)).scalar_one()
