"""Storage of games through SQLAlchemy: an SQLite file by default, PostgreSQL by URL.

A game is stored as its record (set-up + every action, one row per action) plus its latest
snapshot (the compact engine JSON, written every ``SNAPSHOT_EVERY`` actions; the older one is
deleted in the same transaction, so storage grows linearly with the game's length).  A move's
action row, the game's new version and any snapshot are written in one transaction, before the
move is acknowledged, so a server killed at any point restarts with every acknowledged move.
``Writer`` is the one writer: every write goes through it (group commit).

Seat tokens are stored only as SHA-256 hashes: the database alone does not let anyone play.
An SQLite file (and its WAL/SHM files) is created readable by its owner only: it holds every
game's seed and hidden state.

Reading checks what it reads (``BrokenGame``): a game whose rows are damaged is named and set
aside by the service, never played on.

**Several processes (PostgreSQL).**  Every move's write checks the game's stored version first
(``UPDATE ... WHERE version = v - 1`` takes the game row's lock, so concurrent writers of one
game are serialised by PostgreSQL and the loser gets ``Conflict``); a move sent with a client id
leaves a receipt in the same transaction (a retried move is acknowledged once); and the
transaction ends with ``NOTIFY affresco, 'game:version'`` so that every process learns of it.
An SQLite file serves one process: ``Store(..., exclusive=True)`` (the server) holds an
exclusive lock on ``FILE.lock`` and refuses a second process with ``DatabaseInUse``.
"""
from __future__ import annotations

import asyncio
import hashlib
import errno
import json
import os
import time
from dataclasses import dataclass, field
from typing import Any, Iterable, Sequence

from sqlalchemy import (Boolean, Column, Float, ForeignKey, Integer, MetaData, String, Table, Text, bindparam,
                        create_engine, delete, event, func, insert, select, text, update)
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError

__all__ = ["Store", "StoredGame", "SeatInfo", "Writer", "BrokenGame", "Conflict", "DatabaseInUse", "hash_token",
           "SNAPSHOT_EVERY", "CHANNEL"]

CHANNEL = "affresco"          # PostgreSQL NOTIFY channel: payload 'game_id:version' (space-separated)

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


receipts = Table(                                   # exactly-once: a client's move id, acknowledged once
    "receipts", metadata,
    Column("game_id", String(32), ForeignKey("games.id"), primary_key=True),
    Column("client_id", String(64), primary_key=True),
    Column("seat", Integer, nullable=False),
    Column("version", Integer, nullable=False),     # the version the move was acknowledged at
)

leases = Table(                                     # which process runs a game's bots (server/cluster.py)
    "leases", metadata,
    Column("game_id", String(32), primary_key=True),
    Column("owner", String(80), nullable=False),
    Column("expires", Float, nullable=False),       # the database's clock (epoch seconds)
)


_HEAD = text("SELECT g.version, g.actions, g.over, a.seat, a.notation, a.reveals FROM games g "
             "LEFT JOIN actions a ON a.game_id = g.id AND a.idx >= :k WHERE g.id = :g ORDER BY a.idx")


def hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


class BrokenGame(Exception):
    """A stored game that cannot be loaded as it is (a damaged or missing row): ``reason`` says why."""

    def __init__(self, game_id: str, reason: str):
        super().__init__(f"game {game_id}: {reason}")
        self.game_id, self.reason = game_id, reason


class Conflict(RuntimeError):
    """Another writer (another process) moved the game on first: nothing of this write was stored."""


class DatabaseInUse(RuntimeError):
    """An SQLite file already served by another process."""


def _sqlite_path(url: str) -> str:
    path = url.split("///", 1)[1] if "///" in url else ""
    path = path.split("?", 1)[0]
    return "" if not path or path == ":memory:" or path.startswith("file:") else path


def _exclusive(path: str):
    """Hold an exclusive lock on ``path + '.lock'`` (released by the kernel when the process
    dies, even by kill -9); DatabaseInUse if another process holds it."""
    try:
        import fcntl
    except ImportError:  # pragma: no cover - not POSIX: no lock, one process by convention
        return None
    f = open(path + ".lock", "a+")
    try:
        fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
    except OSError as e:
        f.seek(0)
        pid = f.read().strip() or "?"
        f.close()
        if e.errno not in (errno.EAGAIN, errno.EACCES, errno.EWOULDBLOCK):
            raise
        raise DatabaseInUse(f"the SQLite database {path} is already served by another process (pid {pid}); "
                            "an SQLite file serves one process: run several processes on PostgreSQL "
                            "(--db postgresql://...)") from None
    f.truncate(0)
    f.write(str(os.getpid()))
    f.flush()
    return f


def _owner_only(url: str) -> None:
    """Create the SQLite file readable by its owner only (SQLite gives its -wal and -shm files
    the database file's mode), and tighten an existing one and its companions."""
    path = _sqlite_path(url)
    if not path:
        return
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    os.close(fd)
    for p in (path, path + "-wal", path + "-shm", path + "-journal"):
        if os.path.exists(p):
            os.chmod(p, 0o600)


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

    def __init__(self, url: str, exclusive: bool = False):
        self.url = url
        self.postgres = url.startswith("postgresql")
        self._lock = None
        kwargs: dict[str, Any] = {"future": True}
        if url.startswith("sqlite"):
            kwargs["connect_args"] = {"check_same_thread": False, "timeout": 30}
        if url.startswith("sqlite"):
            _owner_only(url)
            if exclusive and _sqlite_path(url):
                self._lock = _exclusive(_sqlite_path(url))
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
        with self.engine.begin() as c:
            if self.postgres:        # several processes starting at once on a new database: one creates
                c.execute(text("SELECT pg_advisory_xact_lock(17017017)"))
            metadata.create_all(c)

    def close(self) -> None:
        self.engine.dispose()
        if self._lock is not None:
            self._lock.close()         # releases the lock
            self._lock = None

    def libpq_url(self) -> str:
        """The PostgreSQL URL for psycopg itself (LISTEN connection)."""
        return self.engine.url.set(drivername="postgresql").render_as_string(hide_password=False)

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
                    self._notify(c, ops)
                return [None] * len(ops)
            except Exception:  # noqa: BLE001 - retried one by one just below
                pass
        out: list[Exception | None] = []
        for op, args in ops:
            try:
                with self.engine.begin() as c:
                    getattr(self, "_" + op)(c, *args)
                    self._notify(c, [(op, args)])
                out.append(None)
            except IntegrityError as e:     # a duplicate action index or receipt: another writer was first
                out.append(Conflict(f"game {args[0]}: another writer stored this move first ({e.orig})"))
            except Exception as e:  # noqa: BLE001 - handed back to the caller of this write
                out.append(e)
        return out

    def _notify(self, c, ops: Sequence[tuple[str, tuple]]) -> None:
        """PostgreSQL: tell every process which games moved (delivered at commit, in order)."""
        if not self.postgres:
            return
        moved = [f"{args[0]}:{args[1]}" for op, args in ops if op in ("append", "truncate")]
        for i in range(0, len(moved), 200):      # a payload is at most 8000 bytes
            c.execute(text("SELECT pg_notify(:ch, :p)"), {"ch": CHANNEL, "p": " ".join(moved[i:i + 200])})

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
                over: bool, snapshot: str | None, client_id: str | None = None) -> None:
        """Add action number ``idx`` (0-based) and move the game to ``version`` (first: the
        version check, which locks the game's row until the commit)."""
        now = time.time()
        res = c.execute(update(games).where(games.c.id == game_id, games.c.version == version - 1)
                        .values(version=version, actions=idx + 1, over=over, updated=now))
        if res.rowcount != 1:
            raise Conflict(f"game {game_id}: stored version is not {version - 1}")
        c.execute(insert(actions).values(game_id=game_id, idx=idx, seat=seat, notation=notation,
                                         reveals=reveals, at=now))
        if client_id is not None:
            c.execute(insert(receipts).values(game_id=game_id, client_id=client_id, seat=seat, version=version))
        if snapshot is not None:     # only the latest snapshot is kept: storage linear in the game's length
            c.execute(delete(snapshots).where(snapshots.c.game_id == game_id, snapshots.c.idx <= idx))
            c.execute(insert(snapshots).values(game_id=game_id, idx=idx + 1, state=snapshot))

    @staticmethod
    def _append_many(c, many: Sequence[tuple]) -> None:
        """Several games' moves at once (executemany): a game has at most one move in flight,
        so each game appears once; any stale version fails the whole batch."""
        now = time.time()
        if len({args[0] for args in many}) != len(many):
            raise RuntimeError("one game twice in a batch")
        many = [tuple(args) + (None,) * (9 - len(args)) for args in many]
        res = c.execute(update(games).where(games.c.id == bindparam("gid"), games.c.version == bindparam("prev"))
                        .values(version=bindparam("new"), actions=bindparam("n"), over=bindparam("end"), updated=now),
                        [dict(gid=g, prev=v - 1, new=v, n=i + 1, end=o) for g, v, i, _, _, _, o, _, _ in many])
        if res.rowcount != len(many):
            raise Conflict("a stored version moved on")
        c.execute(insert(actions), [dict(game_id=g, idx=i, seat=s, notation=n, reveals=r, at=now)
                                    for g, _, i, s, n, r, _, _, _ in many])
        recs = [dict(game_id=g, client_id=cid, seat=s, version=v) for g, v, _, s, _, _, _, _, cid in many
                if cid is not None]
        if recs:
            c.execute(insert(receipts), recs)
        snaps = [dict(game_id=g, idx=i + 1, state=snap) for g, _, i, _, _, _, _, snap, _ in many if snap is not None]
        if snaps:
            c.execute(delete(snapshots).where(snapshots.c.game_id == bindparam("g"), snapshots.c.idx < bindparam("i")),
                      [dict(g=d["game_id"], i=d["idx"]) for d in snaps])
            c.execute(insert(snapshots), snaps)

    @staticmethod
    def _truncate(c, game_id: str, version: int, keep: int) -> None:
        """Undo: keep only the first ``keep`` actions."""
        res = c.execute(update(games).where(games.c.id == game_id, games.c.version == version - 1)
                        .values(version=version, actions=keep, over=False, updated=time.time()))
        if res.rowcount != 1:
            raise Conflict(f"game {game_id}: stored version is not {version - 1}")
        c.execute(delete(actions).where(actions.c.game_id == game_id, actions.c.idx >= keep))
        c.execute(delete(snapshots).where(snapshots.c.game_id == game_id, snapshots.c.idx > keep))

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
        reveal flags are needed for undo, so every action row is read).  Raises BrokenGame
        if a row is damaged or missing (e.g. a deleted action row).  On PostgreSQL the rows are
        read from one snapshot (another process may be writing the game meanwhile)."""
        with self.engine.connect() as c, self._snapshot(c):
            g = c.execute(select(games).where(games.c.id == game_id)).first()
            if g is None:
                return None
            rows = c.execute(select(actions.c.idx, actions.c.seat, actions.c.notation, actions.c.reveals)
                             .where(actions.c.game_id == game_id).order_by(actions.c.idx)).all()
            snap = c.execute(select(snapshots.c.idx, snapshots.c.state)
                             .where(snapshots.c.game_id == game_id, snapshots.c.idx <= g.actions)
                             .order_by(snapshots.c.idx.desc()).limit(1)).first()
        try:
            setup = json.loads(g.setup)
            seats = json.loads(g.seats)
        except (TypeError, ValueError) as e:
            raise BrokenGame(game_id, f"its set-up or seats are not valid JSON ({e})") from None
        if not isinstance(setup, dict):
            raise BrokenGame(game_id, "its set-up is not a JSON object")
        if not isinstance(seats, list) or not 2 <= len(seats) <= 4 or not all(isinstance(s, dict) for s in seats):
            raise BrokenGame(game_id, "its seats are not a list of 2 to 4 objects")
        try:
            infos = [SeatInfo(**s) for s in seats]
        except TypeError as e:
            raise BrokenGame(game_id, f"a seat is malformed ({e})") from None
        if [s.seat for s in infos] != list(range(len(infos))) or any(s.kind not in ("human", "bot") for s in infos):
            raise BrokenGame(game_id, "its seats are not numbered 0..n-1 with kind human or bot")
        if [r[0] for r in rows] != list(range(g.actions)):
            raise BrokenGame(game_id, f"{g.actions} actions are recorded but {len(rows)} action rows are stored "
                                      "(a row is missing or extra)")
        if g.version < g.actions:
            raise BrokenGame(game_id, f"version {g.version} is lower than its {g.actions} actions")
        return StoredGame(
            id=g.id, setup=setup, seats=infos,
            version=g.version, over=bool(g.over), updated=g.updated,
            actions=[(r[1], r[2], bool(r[3])) for r in rows],
            snapshot=(snap[0], snap[1]) if snap else None)

    def _snapshot(self, c):
        """A read-only transaction that sees one snapshot of the database (PostgreSQL)."""
        if self.postgres:
            c.execution_options(isolation_level="REPEATABLE READ")
        return c.begin()

    def head(self, game_id: str, known: int) -> tuple[int, int, bool, list[tuple[int, str, bool]]] | None:
        """The game's (version, actions, over) and its action rows from index ``known`` on:
        what another process added since this one's copy (None if the game is gone)."""
        with self.engine.connect() as c:       # one round trip: this runs in every process, for every move
            rows = c.execute(_HEAD, {"g": game_id, "k": known}).all()
        if not rows:
            return None
        version, count, over = rows[0][:3]
        return version, count, bool(over), [(r[3], r[4], bool(r[5])) for r in rows if r[3] is not None]

    def receipt(self, game_id: str, client_id: str) -> tuple[int, int] | None:
        """(seat, version) of the move acknowledged under ``client_id`` in this game, if any."""
        with self.engine.connect() as c:
            row = c.execute(select(receipts.c.seat, receipts.c.version)
                            .where(receipts.c.game_id == game_id, receipts.c.client_id == client_id)).first()
        return (row[0], row[1]) if row else None

    def snapshot_bytes(self, game_id: str) -> int:
        """Bytes of snapshot text stored for a game (storage checks)."""
        with self.engine.connect() as c:
            return c.execute(select(func.coalesce(func.sum(func.length(snapshots.c.state)), 0))
                             .where(snapshots.c.game_id == game_id)).scalar_one()

    def active_games(self) -> list[str]:
        with self.engine.connect() as c:
            return [r[0] for r in c.execute(select(games.c.id).where(games.c.over.is_(False)))]

    def count(self) -> int:
        with self.engine.connect() as c:
            return c.execute(select(func.count()).select_from(games)).scalar_one()


class Writer:
    """Serialises every database write through one thread and commits the writes that queued
    up meanwhile in one transaction (group commit).  Each caller still gets its own answer:
    its write is stored when ``await write(...)`` returns."""

    def __init__(self, store: Store):
        self.store = store
        self.queue: list[tuple[str, tuple, asyncio.Future]] = []
        self.task: asyncio.Task | None = None

    async def write(self, op: str, *args) -> None:
        fut = asyncio.get_running_loop().create_future()
        self.queue.append((op, args, fut))
        if self.task is None or self.task.done():
            self.task = asyncio.get_running_loop().create_task(self._run())
        await fut

    async def _run(self) -> None:
        while self.queue:
            batch, self.queue = self.queue, []
            results = await asyncio.to_thread(self.store.batch, [(op, args) for op, args, _ in batch])
            for (_, _, fut), err in zip(batch, results):
                if fut.done():
                    continue
                if err is None:
                    fut.set_result(None)
                else:
                    fut.set_exception(err)
