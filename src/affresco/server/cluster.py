"""Several ``affresco serve`` processes on one PostgreSQL: the database is the only shared state.

Nothing is shared between processes but PostgreSQL itself (docs/server.md, "Several processes"):

- **Moves** are serialised per game by the store's version check (the game row is locked by the
  ``UPDATE ... WHERE version = v - 1`` until the commit; the loser gets ``Conflict``, reloads
  and re-checks).  A move sent with a client id leaves a receipt: a retry is acknowledged once.
- **Pushes:** every move's transaction ends with ``NOTIFY affresco, 'game:version'``.  Each
  process ``LISTEN``s on its own connection; a game it holds for a socket or a bot is reloaded
  from the database (the actions after its copy) and its subscribers are poked.  A game held
  for neither is simply dropped (reloaded on demand).  After a lost listening connection every
  held game is reloaded.
- **Bots:** a game's bots run in the process holding its **lease** (a ``leases`` row with an
  expiry on the database's clock).  The holder renews its leases every ``ttl / 3``; a lease not
  renewed (the process died, even by ``kill -9``) expires after ``ttl`` seconds and the first
  process to see it (every process looks every ``scan`` seconds) claims it, reloads the game and
  runs its bots.  A lease lost while alive (a pause longer than ``ttl``) cancels that process's
  bot task; a late bot move would anyway fail the version check.
"""
from __future__ import annotations

import asyncio
import logging
import os
import secrets
import socket
from typing import Awaitable, Callable

from sqlalchemy import text

from .store import CHANNEL, Store

__all__ = ["Cluster", "LEASE_SECONDS"]

log = logging.getLogger("affresco.server")

LEASE_SECONDS = 3.0          # a dead process's bots move again on another after at most ttl + scan seconds

_NOW = "extract(epoch from clock_timestamp())"
# returns the row when we hold the lease now, with the owner before (None: nobody held it)
_CLAIM = text(f"""
    WITH before AS (SELECT owner FROM leases WHERE game_id = :g)
    INSERT INTO leases (game_id, owner, expires) VALUES (:g, :me, {_NOW} + :ttl)
    ON CONFLICT (game_id) DO UPDATE SET owner = excluded.owner, expires = excluded.expires
    WHERE leases.owner = excluded.owner OR leases.expires < {_NOW}
    RETURNING owner, (SELECT owner FROM before) AS previous""")
_RENEW = text(f"UPDATE leases SET expires = {_NOW} + :ttl WHERE owner = :me AND game_id = ANY(:ids) "
              "RETURNING game_id")
_RELEASE = text("DELETE FROM leases WHERE game_id = :g AND owner = :me")
_RELEASE_ALL = text("DELETE FROM leases WHERE owner = :me")
_EXPIRED = text(f"SELECT game_id FROM leases WHERE expires < {_NOW} LIMIT 500")


class Cluster:
    """This process's part in a cluster on PostgreSQL: its leases and its LISTEN connection.

    ``on_moved(game_id, version)`` is called for every move another process (or this one)
    committed; ``on_orphan(game_id)`` for a game whose lease this process just took over;
    ``on_lost(game_ids)`` for games whose lease this process no longer holds;
    ``on_resync()`` after the listening connection was lost (notifications may be missed)."""

    def __init__(self, store: Store, *, ttl: float = LEASE_SECONDS, scan: float | None = None):
        self.store, self.ttl = store, ttl
        self.scan = scan if scan is not None else ttl / 3
        self.me = f"{socket.gethostname()[:40]}:{os.getpid()}:{secrets.token_hex(4)}"
        self.held: set[str] = set()
        self.on_moved: Callable[[str, int], None] = lambda g, v: None
        self.on_orphan: Callable[[str], Awaitable[None]] | None = None
        self.on_lost: Callable[[set[str]], None] = lambda gs: None
        self.on_resync: Callable[[], None] = lambda: None
        self.listening = asyncio.Event()
        self._tasks: list[asyncio.Task] = []

    # --- leases --------------------------------------------------------------------
    def _run(self, stmt, **params) -> list:
        with self.store.engine.begin() as c:
            return c.execute(stmt, params).all()

    async def claim(self, game_id: str) -> bool:
        """Take (or keep) the game's lease; False if another live process holds it.  Taking an
        expired lease from another process (it died or paused too long) is logged as a takeover,
        whichever path claimed it (the upkeep's scan, or a bot loop that needed the game)."""
        rows = await asyncio.to_thread(self._run, _CLAIM, g=game_id, me=self.me, ttl=self.ttl)
        if not rows:
            return False
        self.held.add(game_id)
        previous = rows[0][1]
        if previous is not None and previous != self.me:
            log.warning("game taken over: its process stopped renewing its lease",
                        extra={"event": "takeover", "game_id": game_id, "previous": previous})
        return True

    async def release(self, game_id: str) -> None:
        self.held.discard(game_id)
        await asyncio.to_thread(self._exec, _RELEASE, g=game_id, me=self.me)

    def _exec(self, stmt, **params) -> None:
        with self.store.engine.begin() as c:
            c.execute(stmt, params)

    # --- background work ---------------------------------------------------------------
    def start(self) -> None:
        loop = asyncio.get_running_loop()
        self._tasks = [loop.create_task(self._listen()), loop.create_task(self._keep())]

    async def stop(self) -> None:
        for t in self._tasks:
            t.cancel()
        for t in self._tasks:
            try:
                await t
            except BaseException:  # noqa: BLE001 - stopping
                pass
        self._tasks = []
        try:      # leave our games to the others at once rather than after the lease expires
            await asyncio.to_thread(self._exec, _RELEASE_ALL, me=self.me)
        except Exception:  # noqa: BLE001 - the database may be gone; the leases then expire
            pass
        self.held.clear()

    async def _keep(self) -> None:
        """Renew our leases; take over the expired ones (their process died)."""
        loop = asyncio.get_running_loop()
        last_renew = 0.0
        while True:
            try:
                if loop.time() - last_renew >= self.ttl / 3:
                    last_renew = loop.time()
                    # only the leases we hold are renewed (a row of ours we gave up expires and is
                    # taken over like any other); a lease claimed while we renew is not lost
                    before = set(self.held)
                    kept = {r[0] for r in await asyncio.to_thread(self._run, _RENEW, me=self.me, ttl=self.ttl,
                                                                   ids=sorted(before))} if before else set()
                    lost = (before - kept) & self.held
                    if lost:
                        self.held -= lost
                        log.warning("game leases lost", extra={"event": "lease_lost", "game_id": sorted(lost)})
                        self.on_lost(lost)
                expired = [r[0] for r in await asyncio.to_thread(self._run, _EXPIRED)]
                for gid in expired:
                    if self.on_orphan is not None and await self.claim(gid):
                        await self.on_orphan(gid)
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - the database may be away for a moment
                log.error("lease upkeep failed", extra={"event": "lease_error", "error": repr(e)})
            await asyncio.sleep(min(self.scan, self.ttl / 3))

    async def _listen(self) -> None:
        """LISTEN on our own connection; reconnect (and resync) when it is lost."""
        import psycopg
        url = self.store.libpq_url()
        delay = 0.2
        while True:
            try:
                async with await psycopg.AsyncConnection.connect(url, autocommit=True) as conn:
                    await conn.execute(f"LISTEN {CHANNEL}")
                    if self.listening.is_set():
                        self.on_resync()          # we were deaf for a while
                    self.listening.set()
                    delay = 0.2
                    async for n in conn.notifies():
                        for item in n.payload.split():
                            gid, _, version = item.rpartition(":")
                            try:
                                self.on_moved(gid, int(version))
                            except Exception:  # noqa: BLE001 - one bad game must not deafen us
                                log.exception("push failed", extra={"event": "push_error", "game_id": gid})
            except asyncio.CancelledError:
                raise
            except Exception as e:  # noqa: BLE001 - reconnect below
                log.error("listening connection lost", extra={"event": "listen_error", "error": repr(e)})
            await asyncio.sleep(delay)
            delay = min(delay * 2, 5.0)
