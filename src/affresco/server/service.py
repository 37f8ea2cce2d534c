"""The game service behind ``affresco serve``: the engine is the only authority.

Each live game (``live.LiveGame``) is held in memory behind an asyncio lock and written through
the store's one ``Writer`` before a move is acknowledged.  Bots move through the ``BotRunner``.
A game whose stored rows are damaged is set aside (named in the log, answered with
``broken_game``); every other game starts.

On PostgreSQL the service is one of possibly several processes (``cluster.Cluster``): its
in-memory copies are caches of the database, brought up to date when another process's move is
announced (NOTIFY) or when a write finds the stored version moved on (``Conflict``); a game's
bots run in the process holding the game's lease.  A move may carry a ``client_id``: a retry of
an acknowledged move (same id) is acknowledged again, never played twice.
"""
from __future__ import annotations

import asyncio
import logging
import math
import re
import secrets
import time
import unicodedata
from typing import Any, Callable, Mapping

from .. import MODULES, FrescoError, Game, __version__, new_game, parse, replay
from ..rules.game import RECORD_FORMAT
from .bots import INLINE_BOTS, BotRunner, bot_kinds, known_bots
from .cluster import LEASE_SECONDS, Cluster
from .live import LiveGame, Subscriber
from .store import SNAPSHOT_EVERY, BrokenGame, Conflict, SeatInfo, Store, Writer

__all__ = ["ServiceError", "GameService", "LiveGame", "clean_name"]

log = logging.getLogger("affresco.server")

MAX_NAME = 24
MAX_ROUNDS = 200         # games end (house rule max_rounds) by this round; older ones past it are abandoned
MAX_LIVE = 2000          # games kept in memory; idle ones beyond this are dropped (reloaded on demand)
IDLE_SECONDS = 120
MAX_SECONDS = 30.0
OPTIONS = {"special_colours_on_fresco": ("Special colours may be used on the fresco (Russian edition)", False,
                                          "special_colours")}
MODULE_TITLES = {"portraits": "Portraits (module 1)", "requests": "Requests (module 2)",
                 "special_colours": "Special colours (Russian edition)", "scrolls": "Scrolls (Russian edition)",
                 "bishops_favour": "The bishop's favour (Russian edition)", "bells": "The bells (module 8)",
                 "wall_fresco": "The wall fresco (module 9)", "medico": "The medico (module 10)"}


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400, **extra: Any):
        super().__init__(message)
        self.code, self.message, self.status, self.extra = code, message, status, extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


# Characters a name may not carry: controls, bidi overrides and isolates, the client's
# private-use paint markers, surrogates, unassigned code points.
_BIDI = set("\u200e\u200f\u061c\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069")
_DROP = {"Cc", "Cs", "Co", "Cn"}
_BLANK_LETTERS = set("\u115f\u1160\u3164\uffa0\u2800")   # letters and symbols that show nothing
_ID = re.compile(r"[A-Za-z0-9_-]{1,64}")


def clean_name(raw: Any) -> str | None:
    """A player's name as shown: without control, bidi, private-use and format characters
    (a zero-width joiner inside an emoji is kept), spaces collapsed, in Unicode's composed form
    (NFC: two names that look alike are the same name); None if nothing visible is left."""
    if not isinstance(raw, str):
        return None
    kept = "".join(ch for ch in raw if unicodedata.category(ch) not in _DROP and ch not in _BIDI
                   and (unicodedata.category(ch) != "Cf" or ch == "\u200d"))
    name = unicodedata.normalize("NFC", " ".join(kept.split()))
    visible = [ch for ch in name if unicodedata.category(ch) not in ("Cf", "Zs", "Zl", "Zp", "Mn", "Me")
               and ch not in _BLANK_LETTERS]
    return name if visible else None


BAD_UNICODE = "text with a lone UTF-16 surrogate (invalid Unicode)"


def check_text(value: Any) -> None:
    """Refuse text that cannot be stored or hashed (a lone UTF-16 surrogate) as bad input."""
    if isinstance(value, str):
        try:
            value.encode("utf-8")
        except UnicodeEncodeError:
            raise ServiceError("bad_request", BAD_UNICODE) from None


class GameService:
    def __init__(self, store: Store, *, bot_processes: int = 1, bot_delay: float = 0.0, fixed_seeds: bool = False,
                 max_rounds: int = MAX_ROUNDS, bots: str = "local", lease_seconds: float = LEASE_SECONDS):
        self.fixed_seeds = fixed_seeds
        self.max_rounds = max_rounds
        self.store = store
        self.live: dict[str, LiveGame] = {}
        self.broken: dict[str, str] = {}          # game id -> why it cannot be loaded (set aside)
        self._loading: dict[str, asyncio.Lock] = {}
        self.bots = BotRunner(bot_processes, bot_delay, backend=bots)
        self.writer = Writer(store)
        # several processes share a PostgreSQL database; an SQLite file serves this process alone
        self.cluster: Cluster | None = Cluster(store, ttl=lease_seconds) if store.postgres else None
        self._heard: dict[str, int] = {}          # game -> version announced while it was not in memory
        self.kinds = bot_kinds()
        self.known = known_bots()
        self.closing = False
        self.listeners: list[Callable[[LiveGame], None]] = []   # told of every move and undo

    # --- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Resume the bots of every unfinished game (after a restart).  A game that cannot be
        loaded is set aside (logged with its id); the others start.  On PostgreSQL, start
        listening and keeping leases first (a game's bots then run where its lease is)."""
        if self.cluster is not None:
            self.cluster.on_moved = self._on_moved
            self.cluster.on_orphan = self._take_over
            self.cluster.on_lost = self._on_lost
            self.cluster.on_resync = self._resync
            self.cluster.start()
        self.bots.start()
        for gid in await asyncio.to_thread(self.store.active_games):
            try:
                live = await self.get(gid)
            except ServiceError:
                continue              # broken: logged by get()
            async with live.lock:
                self._schedule_bots(live)

    async def stop(self) -> None:
        self.closing = True
        tasks = [lg.bot_task for lg in self.live.values() if lg.bot_task is not None]
        for t in tasks:
            t.cancel()
        for t in tasks:
            try:
                await t
            except BaseException:  # noqa: BLE001 - we are closing
                pass
        if self.cluster is not None:
            await self.cluster.stop()
        self.bots.close()
        self.store.close()

    def meta(self) -> dict[str, Any]:
        return {
            "modules": [{"name": m, "title": MODULE_TITLES.get(m, m)} for m in MODULES],
            "options": [{"name": k, "title": t, "default": d, "module": m} for k, (t, d, m) in OPTIONS.items()],
            "bots": list(self.kinds.values()),
            "languages": ["en", "fr", "ru"],
            "version": __version__,
            # what the create form checks before sending: a bot's time per move, and whether
            # a seed may be given with two people or more (R22: else the server draws it)
            "max_seconds": MAX_SECONDS,
            "seed_with_friends": self.fixed_seeds,
        }

    # --- creating --------------------------------------------------------------------
    def _check_spec(self, spec: Mapping[str, Any]) -> tuple[list[SeatInfo], list[str], dict, Any]:
        if not isinstance(spec, Mapping):
            raise ServiceError("bad_request", "the body must be a JSON object")
        players = spec.get("players")
        if not isinstance(players, list) or not 2 <= len(players) <= 4:
            raise ServiceError("bad_request", "players: a list of 2 to 4 seats")
        seats: list[SeatInfo] = []
        for i, p in enumerate(players):
            if not isinstance(p, Mapping):
                raise ServiceError("bad_request", f"players[{i}] must be an object")
            kind = p.get("kind", "human")
            raw = p.get("name")
            raw = raw if raw not in (None, "") else (f"Player {i + 1}" if kind == "human" else f"Bot {i + 1}")
            check_text(raw)
            name = clean_name(raw)
            if name is None or len(name) > MAX_NAME:
                raise ServiceError("bad_request", f"players[{i}].name: 1 to {MAX_NAME} visible characters (control, "
                                   "bidi, private-use and invisible characters do not count)")
            if kind == "human":
                seats.append(SeatInfo(i, name, "human"))
            elif kind == "bot":
                bot = p.get("bot", "heuristic")
                if not isinstance(bot, str) or bot not in self.known:
                    raise ServiceError("bad_request", f"players[{i}].bot: unknown bot {bot!r}; bots: "
                                       + ", ".join(self.kinds))
                seconds = p.get("seconds")
                if self.known[bot]:
                    seconds = 1.0 if seconds is None else seconds
                    if isinstance(seconds, bool) or not isinstance(seconds, (int, float)) \
                            or not math.isfinite(seconds) or not 0 < seconds <= MAX_SECONDS:
                        raise ServiceError("bad_request",
                                           f"players[{i}].seconds: a time per move in (0, {MAX_SECONDS}]")
                    seconds = float(seconds)
                else:
                    seconds = None
                seats.append(SeatInfo(i, name, "bot", bot, seconds))
            else:
                raise ServiceError("bad_request", f"players[{i}].kind: 'human' or 'bot', not {kind!r}")
        if len({s.name for s in seats}) != len(seats):
            raise ServiceError("bad_request", "player names must be different")
        modules = spec.get("modules", [])
        if not isinstance(modules, list) or not all(isinstance(m, str) for m in modules):
            raise ServiceError("bad_request", "modules: a list of module names")
        options = spec.get("options", {})
        if options is None:
            options = {}
        if not isinstance(options, Mapping):
            raise ServiceError("bad_request", "options: an object of rule options")
        seed = spec.get("seed")
        if seed is not None and (isinstance(seed, bool) or not isinstance(seed, int)):
            raise ServiceError("bad_request", "seed: an integer")
        if seed is not None and not self.fixed_seeds and sum(s.kind == "human" for s in seats) > 1:
            # R22: whoever knows the seed knows every draw and every seat's secret set-up
            raise ServiceError("bad_request", "seed: only in a game with at most one person (the others "
                               "bots); with friends the server draws a secret seed")
        return seats, modules, dict(options), seed

    async def create(self, spec: Mapping[str, Any]) -> dict[str, Any]:
        seats, modules, options, seed = self._check_spec(spec)
        # house rule H1: the game ends (final scoring) at the server's round limit at the latest
        limit = options.get("max_rounds", self.max_rounds)
        if isinstance(limit, int) and not isinstance(limit, bool) and limit > self.max_rounds:
            raise ServiceError("bad_request", f"options.max_rounds: at most this server's limit, {self.max_rounds}")
        options["max_rounds"] = limit
        try:
            game = new_game([s.name for s in seats], modules, seed, options)
        except FrescoError as e:
            raise ServiceError("bad_request", str(e)) from None
        gid = secrets.token_urlsafe(12)
        toks = {s.seat: secrets.token_urlsafe(24) for s in seats if s.kind == "human"}
        setup = game.record()["setup"]
        await self.writer.write("create", gid, setup, seats, toks, game.to_json(pretty=False))
        live = LiveGame(gid, setup, seats, game, 0, [])
        self._evict()
        self.live[gid] = live
        log.info("game created", extra={"event": "create", "game_id": gid, "players": len(seats),
                                        "modules": list(setup.get("modules", [])), "bots": len(seats) - len(toks)})
        async with live.lock:
            self._schedule_bots(live)
        return {
            "game_id": gid,
            "seats": [{"seat": s.seat, "name": s.name, "kind": s.kind, "bot": s.bot, "seconds": s.seconds,
                       "token": toks.get(s.seat), "url": f"/#/play/{toks[s.seat]}" if s.seat in toks else None}
                      for s in seats],
            "watch_url": f"/#/watch/{gid}",
        }

    # --- loading ---------------------------------------------------------------------
    async def get(self, gid: Any) -> LiveGame:
        if not isinstance(gid, str) or not _ID.fullmatch(gid):
            raise ServiceError("not_found", "no such game", 404)
        live = self.live.get(gid)
        if live is not None:
            return live
        self._refuse_broken(gid)
        lock = self._loading.setdefault(gid, asyncio.Lock())
        try:
            async with lock:
                live = self.live.get(gid)
                if live is None:
                    self._refuse_broken(gid)
                    try:
                        live = await asyncio.to_thread(self._load, gid)
                    except BrokenGame as e:
                        self.broken[gid] = e.reason
                        log.error("game set aside: it cannot be loaded", extra={
                            "event": "broken_game", "game_id": gid, "error": e.reason})
                        self._refuse_broken(gid)
                    if live is None:
                        raise ServiceError("not_found", "no such game", 404)
                    self.live[gid] = live
                    if self._heard.pop(gid, -1) > live.version:   # moved on while we were reading it
                        self._refresh_soon(live)
        finally:      # also when the game is not found: unknown ids must not pile up here
            self._loading.pop(gid, None)
        return live

    def _refuse_broken(self, gid: str) -> None:
        why = self.broken.get(gid)
        if why is not None:
            raise ServiceError("broken_game", f"game {gid} cannot be loaded: its stored record is damaged ({why}); "
                               "it is set aside, other games are not affected", 500)

    def _load(self, gid: str) -> LiveGame | None:
        """Read and rebuild a stored game; BrokenGame if anything in it does not hold."""
        stored = self.store.load(gid)
        if stored is None:
            return None
        try:
            game = self._rebuild(stored.setup, stored.actions, stored.snapshot)
        except FrescoError as e:
            raise BrokenGame(gid, f"its record does not replay: {e}") from None
        except Exception as e:  # noqa: BLE001 - any damage (a garbage snapshot, a wrong type) sets it aside
            raise BrokenGame(gid, f"its record does not load: {type(e).__name__}: {e}") from None
        if game.players != len(stored.seats):
            raise BrokenGame(gid, f"{len(stored.seats)} seats for a game of {game.players} players")
        if game.is_over and not stored.over:
            raise BrokenGame(gid, "its record is over but the game is not marked so")
        return LiveGame(gid, stored.setup, stored.seats, game, stored.version, stored.actions, stored.updated,
                        abandoned=stored.over and not game.is_over)

    def _evict(self) -> None:
        """Forget idle games (no socket, no bot thinking, untouched for a while) beyond
        ``MAX_LIVE``; they are reloaded from the database when asked for.  (A write from a
        forgotten copy would fail the store's version check, never overwrite.)"""
        if len(self.live) < MAX_LIVE:
            return
        now = time.time()
        idle = sorted((lg.updated, gid) for gid, lg in self.live.items()
                      if not lg.subs and lg.bot_task is None and not lg.lock.locked()
                      and now - lg.updated > IDLE_SECONDS and not self._held(gid))
        for _, gid in idle[:max(1, len(self.live) - MAX_LIVE + 1 + MAX_LIVE // 10)]:
            del self.live[gid]

    @staticmethod
    def _rebuild(setup: dict, acts: list[tuple[int, str, bool]], snapshot: tuple[int, str] | None) -> Game:
        """The game after ``acts``: from the snapshot (checked against the record) or from the set-up."""
        if snapshot is not None:
            idx, text = snapshot
            game = Game.from_json(text)
            if [tuple(h) for h in game.record()["actions"]] != [(s, n) for s, n, _ in acts[:idx]]:
                raise FrescoError(f"the snapshot after {idx} actions does not match the action rows")
        else:
            idx, game = 0, replay({"format": RECORD_FORMAT, "setup": setup, "actions": []})
        for seat, notation, _ in acts[idx:]:
            game.apply(seat, notation)
        return game

    async def seat_for(self, token: Any) -> tuple[LiveGame, int]:
        if not isinstance(token, str) or not 8 <= len(token) <= 200 or not _ID.fullmatch(token[:64]) \
                or not token.isascii():
            raise ServiceError("bad_token", "a seat token is needed (the secret part of your link)", 401)
        found = await asyncio.to_thread(self.store.seat_of, token)
        if found is None:
            raise ServiceError("bad_token", "this link does not open any seat", 401)
        return await self.get(found[0]), found[1]

    # --- what a seat sees ------------------------------------------------------------
    def undo_target(self, live: LiveGame, seat: int | None) -> int | None:
        return live.undo_target(seat)

    def payload(self, live: LiveGame, seat: int | None, full: bool = True) -> str:
        return live.payload(seat, full)

    def message(self, live: LiveGame, seat: int | None, full: bool = True) -> dict[str, Any]:
        """The STATE message for ``seat`` (as a dict)."""
        return live.message(seat, full)

    # --- acting ----------------------------------------------------------------------
    def _check_version(self, live: LiveGame, version: Any, seat: int | None = None) -> None:
        """The client must have seen the current version, except that other seats' secret
        plans committed meanwhile don't make it stale: while planning, what they did is hidden
        and changes nothing this seat can see or do (simultaneous planning)."""
        if isinstance(version, bool) or not isinstance(version, int):
            raise ServiceError("bad_request", "version: the state version you saw (an integer)")
        if seat is not None and version < live.version and live.game.phase == "plan":
            since = [r for r in live.recent if r[0] > version]
            if len(since) == live.version - version and all(k == "plan" and s != seat for _, s, k in since):
                return
        if version != live.version:
            raise ServiceError("stale", f"the game has moved on (version {live.version}, you saw {version});"
                               " nothing was changed", 409, version=live.version)

    async def act(self, live: LiveGame, seat: int, action: Any, version: Any, client_id: Any = None) -> int:
        """Play ``action`` for ``seat``; returns the new version.  With ``client_id`` (the
        client's id for this move), a retry of a move already acknowledged is acknowledged
        again with its version, and not played twice."""
        if not isinstance(action, str) or not action.strip() or len(action) > 200:
            raise ServiceError("bad_request", "action: the notation of one of your legal actions")
        check_text(action)
        if client_id is not None and (not isinstance(client_id, str) or not _ID.fullmatch(client_id)):
            raise ServiceError("bad_request", "client_id: 1 to 64 letters, digits, '-' or '_' (your id for this move)")
        async with live.lock:
            for _ in range(5):
                if self.cluster is not None and isinstance(version, int) and version > live.version:
                    await self._refresh(live)      # the client saw a move another process made
                try:
                    self._refuse_abandoned(live)
                    self._check_version(live, version, seat)
                except ServiceError as e:
                    done = await self._receipt(live, seat, client_id) if e.code in ("stale", "abandoned") else None
                    if done is not None:
                        return done
                    raise
                if live.seats[seat].kind != "human":
                    raise ServiceError("forbidden", "this seat is played by a bot", 403)
                try:
                    await self._commit(live, seat, action, client_id)
                    return live.version
                except Conflict:                    # another process moved the game first
                    await self._refresh(live, force=True)
            raise ServiceError("busy", "the game is changing too fast; nothing was changed, try again", 503)

    async def _receipt(self, live: LiveGame, seat: int, client_id: str | None) -> int | None:
        """The version at which this seat's move ``client_id`` was acknowledged, if it was."""
        if client_id is None:
            return None
        found = await asyncio.to_thread(self.store.receipt, live.id, client_id)
        return found[1] if found is not None and found[0] == seat else None

    async def _commit(self, live: LiveGame, seat: int, notation: str, client_id: str | None = None) -> None:
        """Apply, store, then acknowledge; the caller holds the lock."""
        t0 = time.perf_counter()
        before = live.game
        after = before.clone()
        try:
            action = parse(notation)
            revealed = after.apply(seat, action)      # True: hidden information came out (R22)
        except FrescoError as e:
            raise ServiceError("illegal", str(e), 422) from None
        idx = len(live.acts)
        version = live.version + 1
        stalled = not after.is_over and after.round > self.max_rounds
        snapshot = after.to_json(pretty=False) if (idx + 1) % SNAPSHOT_EVERY == 0 or after.is_over or stalled \
            else None
        await self.writer.write("append", live.id, version, idx, seat, str(action), revealed,
                                after.is_over or stalled, snapshot, client_id)
        if stalled:
            live.abandoned = True
            if live.bot_task is not None and live.bot_task is not asyncio.current_task():
                live.bot_task.cancel()
            live.bot_task = None
            log.warning("game abandoned: still going after the round limit", extra={
                "event": "abandoned", "game_id": live.id, "version": version})
        live.game, live.version = after, version
        live.acts.append((seat, str(action), revealed))
        live.recent = live.recent[-7:] + [(version, seat, action.kind)]
        live.updated = time.time()
        log.info("move", extra={"event": "move", "game_id": live.id, "seat": seat, "kind": action.kind,
                                "version": version, "ms": round((time.perf_counter() - t0) * 1000, 2)})
        self._changed(live)
        self._schedule_bots(live)
        self._settle(live)

    def _refuse_abandoned(self, live: LiveGame) -> None:
        if live.abandoned:
            raise ServiceError("abandoned", f"this game was abandoned: it was still going after round "
                               f"{self.max_rounds} (the server's limit for stalled games)", 409)

    async def undo(self, live: LiveGame, seat: int, version: Any) -> int:
        """Take back ``seat``'s last move (and the bots' after it); returns the new version."""
        async with live.lock:
            if self.cluster is not None and isinstance(version, int) and version > live.version:
                await self._refresh(live)
            self._check_version(live, version)
            keep = self.undo_target(live, seat)
            if keep is None:
                raise ServiceError("no_undo", "nothing to undo: undo needs a game where everyone else is a bot, "
                                   "and stops where new information came out", 409)
            if live.bot_task is not None:
                live.bot_task.cancel()
                live.bot_task = None
            acts = live.acts[:keep]
            game = await asyncio.to_thread(self._rebuild, live.setup, acts, None)
            version = live.version + 1
            try:
                await self.writer.write("truncate", live.id, version, keep)
            except Conflict:
                await self._refresh(live, force=True)
                self._schedule_bots(live)
                raise ServiceError("stale", f"the game has moved on (version {live.version}); nothing was changed",
                                   409, version=live.version) from None
            live.game, live.version, live.acts, live.recent = game, version, acts, []
            log.info("undo", extra={"event": "undo", "game_id": live.id, "seat": seat, "version": version})
            self._changed(live)
            self._schedule_bots(live)
            return version

    # --- bots ------------------------------------------------------------------------
    def _schedule_bots(self, live: LiveGame) -> None:
        """Start the game's bot loop if a bot is to act (caller holds the lock).  A game with a
        timed bot starts the pool now, so that no decision's budget pays for starting it."""
        if self.closing or live.bot_task is not None or live.game.is_over or live.abandoned:
            return
        if any(s.seconds is not None for s in live.seats):
            self.bots.pool()
        if any(live.seats[s].kind == "bot" for s in live.game.to_act):
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(live))

    async def _bot_loop(self, live: LiveGame) -> None:
        me = asyncio.current_task()
        if self.cluster is not None and not await self.cluster.claim(live.id):
            if live.bot_task is me:      # another live process holds the game's lease: its bots play there
                live.bot_task = None
            return
        try:
            while True:
                async with live.lock:
                    if live.bot_task is not me:
                        return
                    g = live.game
                    bots = [s for s in g.to_act if live.seats[s].kind == "bot"] \
                        if not g.is_over and not live.abandoned else []
                    if not bots:
                        live.bot_task = None
                        return
                    seat = bots[0]
                    info = live.seats[seat]
                    view, legal = g.view(seat, log=info.bot not in INLINE_BOTS), g.legal_actions(seat)
                    seed = f"{g.seed}:{seat}:{len(live.acts)}"
                try:
                    choice = await self.bots.decide(info, seed, view, legal, seat)
                except Exception as e:  # noqa: BLE001 - a broken bot must not stop the game
                    log.error("bot failed", extra={"event": "bot_error", "game_id": live.id, "seat": seat,
                                                   "error": repr(e)})
                    choice = str(legal[0])
                async with live.lock:
                    if live.bot_task is not me:
                        return
                    g = live.game
                    if seat in g.to_act and parse(choice) in g.legal_actions(seat):
                        try:
                            await self._commit(live, seat, choice)
                        except Conflict:           # another process moved the game: decide again on it
                            await self._refresh(live, force=True)
                        except ServiceError as e:  # pragma: no cover - checked legal just above
                            log.error("bot move refused", extra={"event": "bot_error", "game_id": live.id,
                                                                 "error": e.message})
                    live.bot_task = me   # _commit's scheduling saw our task running
        except asyncio.CancelledError:
            raise
        except Exception as e:  # pragma: no cover - logged, never silent
            log.exception("bot loop crashed", extra={"event": "bot_crash", "game_id": live.id})
            live.bot_task = None
            raise e

    def _changed(self, live: LiveGame, local: bool = True) -> None:
        live.changed()
        if local:         # moves made here (another process tells its own listeners of its moves)
            for listener in self.listeners:
                listener(live)

    # --- several processes (PostgreSQL) --------------------------------------------------
    def _held(self, gid: str) -> bool:
        return self.cluster is not None and gid in self.cluster.held

    def _settle(self, live: LiveGame) -> None:
        """A finished or abandoned game needs no lease any more."""
        if (live.game.is_over or live.abandoned) and self._held(live.id) and not self.closing:
            asyncio.get_running_loop().create_task(self.cluster.release(live.id))

    async def _refresh(self, live: LiveGame, force: bool = False) -> None:
        """Bring the copy up to the stored game (another process moved it); the caller holds
        the lock.  Appended actions are replayed on a clone; anything else (an undo) reloads."""
        head = await asyncio.to_thread(self.store.head, live.id, len(live.acts))
        if head is None or (head[0] == live.version and not force):
            return
        version, count, over, rows = head
        added = count - len(live.acts)
        if version == live.version and added == 0:
            return
        try:
            if added >= 0 and version - live.version == added == len(rows):
                game = live.game.clone()
                for seat, notation, _ in rows:
                    game.apply(seat, notation)
                acts = live.acts + rows
            else:
                fresh = await asyncio.to_thread(self._load, live.id)
                if fresh is None:
                    return
                game, acts, rows = fresh.game, fresh.acts, []
                live.recent = []
                if live.bot_task is not None and live.bot_task is not asyncio.current_task():
                    live.bot_task.cancel()          # an undo elsewhere: a decision under way is for a lost position
                    live.bot_task = None
        except (FrescoError, BrokenGame) as e:
            log.error("game reload failed", extra={"event": "reload_error", "game_id": live.id, "error": str(e)})
            self.live.pop(live.id, None)
            return
        first = live.version + 1
        live.recent = (live.recent + [(first + i, seat, parse(n).kind) for i, (seat, n, _) in enumerate(rows)])[-8:]
        live.game, live.version, live.acts = game, version, acts
        live.abandoned = over and not game.is_over
        if live.abandoned and live.bot_task is not None and live.bot_task is not asyncio.current_task():
            live.bot_task.cancel()
            live.bot_task = None
        live.updated = time.time()
        self._changed(live, local=False)
        self._schedule_bots(live)
        self._settle(live)

    def _on_moved(self, gid: str, version: int) -> None:
        """A move was committed (by any process): refresh the games we serve or play the
        bots of; forget the others (reloaded on demand)."""
        live = self.live.get(gid)
        if live is None:
            if gid in self._loading:          # being read now: it may have read the version before this one
                if len(self._heard) > 10_000:
                    self._heard.clear()
                self._heard[gid] = max(version, self._heard.get(gid, -1))
            return
        if version <= live.version:
            return
        if not live.subs and live.bot_task is None and not live.lock.locked() and not self._held(gid):
            del self.live[gid]
            return
        self._refresh_soon(live)

    def _refresh_soon(self, live: LiveGame) -> None:
        if live.refresh_task is None or live.refresh_task.done():
            live.refresh_task = asyncio.get_running_loop().create_task(self._refresh_locked(live))

    async def _refresh_locked(self, live: LiveGame) -> None:
        async with live.lock:
            await self._refresh(live)

    def _resync(self) -> None:
        """Our listening connection was lost a while: some moves may not have been announced."""
        for gid, live in list(self.live.items()):
            if live.subs or live.bot_task is not None or self._held(gid):
                self._refresh_soon(live)
            elif not live.lock.locked():
                del self.live[gid]

    async def _take_over(self, gid: str) -> None:
        """We hold the lease of a game whose process died: play its bots here."""
        try:
            live = self.live.get(gid)
            if live is None:
                live = await self.get(gid)
            async with live.lock:
                await self._refresh(live)
                self._schedule_bots(live)
                self._settle(live)
        except ServiceError:        # gone or broken (logged): nobody should keep taking it over
            await self.cluster.release(gid)

    def _on_lost(self, gids: set[str]) -> None:
        """Another process took these games' leases (we paused too long): stop our bots there."""
        for gid in gids:
            live = self.live.get(gid)
            if live is not None and live.bot_task is not None:
                live.bot_task.cancel()
                live.bot_task = None

    # --- sockets -----------------------------------------------------------------------
    def subscribe(self, live: LiveGame, seat: int | None) -> Subscriber:
        sub = Subscriber(seat, live.payload, live.presence_message)
        live.subs.add(sub)
        live.presence_changed()
        return sub

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        live.subs.discard(sub)
        live.presence_changed()

    # --- lists and replays -----------------------------------------------------------
    async def my_games(self, toks: Any) -> list[dict[str, Any]]:
        if not isinstance(toks, list) or len(toks) > 200 or not all(isinstance(t, str) and len(t) <= 200 for t in toks):
            raise ServiceError("bad_request", "tokens: a list of at most 200 seat tokens")
        for t in toks:
            check_text(t)
        found = await asyncio.to_thread(self.store.seats_of, toks)
        out = []
        for tok in toks:
            if tok not in found:
                continue
            gid, seat = found[tok]
            try:
                live = await self.get(gid)
            except ServiceError:            # a broken game: left out of the list
                continue
            g = live.game
            out.append({"token": tok, "game_id": gid, "seat": seat, "name": live.seats[seat].name,
                        "players": [s.name for s in live.seats],
                        "your_turn": seat in g.to_act, "round": g.round, "phase": g.phase,
                        "is_over": g.is_over, "updated": live.updated})
        out.sort(key=lambda r: (not r["your_turn"], r["is_over"], -r["updated"]))
        return out

    def record(self, live: LiveGame) -> dict[str, Any]:
        if not live.game.is_over and not live.abandoned:
            raise ServiceError("not_over", "the record (with every hidden item) is shown once the game is over", 403)
        return live.game.record()

    def replay_step(self, live: LiveGame, step: Any) -> dict[str, Any]:
        """The finished game after ``step`` actions, every hidden item revealed (every event too)."""
        rec = self.record(live)
        total = len(rec["actions"])
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= total:
            raise ServiceError("bad_request", f"step: 0 to {total}")
        g = replay(rec, upto=step)
        view = g.full_view()
        secrets = view.pop("secrets", [])
        hands = {str(s): part for s, part in enumerate(secrets) if part}
        if hands:
            view["hands"] = hands        # each seat's module items (scrolls, requests...)
        return {"step": step, "steps": total, "view": view,
                "action": rec["actions"][step - 1] if step else None,
                "scores": live.game.scores(), "ranking": live.game.ranking(), "names": list(live.game.names)}
