"""The game service behind ``affresco serve``: the engine is the only authority.

Each live game is held in memory (``LiveGame``) behind an asyncio lock and written through the
``Store`` before a move is acknowledged.  A seat sees only ``Game.view(seat)``; the payloads
sent to a seat are built from that view alone, so no hidden item can reach it before the
rules reveal it (R22).  Bots decide from the same view and legal actions, off the event loop:
quick bots in a thread, timed (search) bots in a process pool.
"""
from __future__ import annotations

import asyncio
import inspect
import logging
import math
import re
import secrets
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any, Callable, Mapping

import msgspec

from .. import MODULES, Game, __version__, new_game
from ..errors import FrescoError
from ..rules import parse, replay
from ..rules.game import RECORD_FORMAT
from .store import SNAPSHOT_EVERY, SeatInfo, Store

__all__ = ["ServiceError", "GameService", "LiveGame"]

log = logging.getLogger("affresco.server")
_JSON = msgspec.json.Encoder()      # several times faster than json.dumps on the state payloads

MAX_NAME = 24
LOG_TAIL = 40
MAX_LIVE = 2000          # games kept in memory; idle ones beyond this are dropped (reloaded on demand)
IDLE_SECONDS = 120
MAX_SECONDS = 30.0
OPTIONS = {"special_colours_on_fresco": ("Special colours may be used on the fresco (Russian edition)", False,
                                          "special_colours")}
MODULE_TITLES = {"portraits": "Portraits (module 1)", "requests": "Requests (module 2)",
                 "special_colours": "Special colours (Russian edition)", "scrolls": "Scrolls (Russian edition)",
                 "bishops_favour": "The bishop's favour (Russian edition)"}


class ServiceError(Exception):
    """A refused request: ``code`` for programs, ``message`` for people, ``status`` for HTTP."""

    def __init__(self, code: str, message: str, status: int = 400, **extra: Any):
        super().__init__(message)
        self.code, self.message, self.status, self.extra = code, message, status, extra

    def body(self) -> dict[str, Any]:
        return {"error": {"code": self.code, "message": self.message, **self.extra}}


# --- bots ------------------------------------------------------------------------------
def bot_kinds() -> dict[str, dict[str, Any]]:
    from ..bots import BOTS
    out = {}
    for name, cls in sorted(BOTS.items()):
        timed = "seconds" in inspect.signature(cls.__init__).parameters
        doc = (cls.__doc__ or name).strip().splitlines()[0]
        out[name] = {"name": name, "title": doc, "timed": timed}
    return out


def decide(bot: str, seed: str, seconds: float | None, view: dict, legal: list, seat: int) -> str:
    """One bot decision from the seat's view and legal actions only (notation text or Actions;
    runs in a worker process, a thread, or inline for the quickest bots)."""
    from ..bots import make_bot
    b = make_bot(bot, seed) if seconds is None else make_bot(bot, seed, seconds=seconds)
    actions = [parse(a) if isinstance(a, str) else a for a in legal]
    choice = b.choose(view, actions, seat)
    return str(choice)


INLINE_BOTS = {"random"}     # decide in microseconds, from the legal actions alone: no thread hop, no log


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


# --- subscribers -----------------------------------------------------------------------
class Subscriber:
    """One WebSocket.  A change only pokes it; the payload is built when the socket is ready
    to send, so a slow client skips intermediate versions instead of queueing them.  The first
    payload, and any asked for, carries the whole log; later ones its tail."""

    def __init__(self, seat: int | None, render: Callable[[int | None, bool], str]):
        self.seat = seat
        self.render = render
        self.full = True
        self.event = asyncio.Event()

    def poke(self, full: bool = False) -> None:
        self.full = self.full or full
        self.event.set()

    async def next(self) -> str:
        await self.event.wait()
        self.event.clear()
        full, self.full = self.full, False
        return self.render(self.seat, full)


@dataclass
class LiveGame:
    id: str
    setup: dict[str, Any]
    seats: list[SeatInfo]
    game: Game
    version: int
    acts: list[tuple[int, str, bool]]                 # (seat, notation, reveals) for every action
    updated: float = field(default_factory=time.time)
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    subs: set[Subscriber] = field(default_factory=set)
    cache: dict[Any, str] = field(default_factory=dict)   # seat -> payload JSON at this version
    bot_task: asyncio.Task | None = None
    recent: list[tuple[int, int, str]] = field(default_factory=list)   # (version, seat, kind), latest moves
    logs: dict[Any, tuple[Any, list[str]]] = field(default_factory=dict)  # seat -> (log mark, lines)

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]


def _reveals(before: Game, after: Game, action) -> bool:
    """Did this action bring new information out?  A chance event (a tile or card drawn),
    the plans revealed, or a secret scroll played."""
    return (after.chance_events != before.chance_events
            or (before.phase == "plan" and after.phase != "plan")
            or (action.kind == "scroll" and action.args[:1] != ("none",)))


class GameService:
    def __init__(self, store: Store, *, bot_processes: int = 1, bot_delay: float = 0.0, fixed_seeds: bool = False):
        self.fixed_seeds = fixed_seeds
        self.store = store
        self.live: dict[str, LiveGame] = {}
        self._loading: dict[str, asyncio.Lock] = {}
        self.bot_processes = bot_processes
        self.bot_delay = bot_delay
        self._pool: Executor | None = None
        self.writer = Writer(store)
        self.kinds = bot_kinds()
        self.closing = False

    # --- lifecycle -------------------------------------------------------------------
    async def start(self) -> None:
        """Resume the bots of every unfinished game (after a restart)."""
        for gid in await asyncio.to_thread(self.store.active_games):
            live = await self.get(gid)
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
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
        self.store.close()

    def meta(self) -> dict[str, Any]:
        return {
            "modules": [{"name": m, "title": MODULE_TITLES.get(m, m)} for m in MODULES],
            "options": [{"name": k, "title": t, "default": d, "module": m} for k, (t, d, m) in OPTIONS.items()],
            "bots": list(self.kinds.values()),
            "languages": ["en", "fr", "ru"],
            "version": __version__,
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
            name = p.get("name") or (f"Player {i + 1}" if kind == "human" else f"Bot {i + 1}")
            if not isinstance(name, str) or not name.strip() or len(name) > MAX_NAME:
                raise ServiceError("bad_request", f"players[{i}].name: 1 to {MAX_NAME} characters")
            name = re.sub(r"\s+", " ", name.strip())
            if kind == "human":
                seats.append(SeatInfo(i, name, "human"))
            elif kind == "bot":
                bot = p.get("bot", "heuristic" if "heuristic" in self.kinds else "greedy")
                if bot not in self.kinds:
                    raise ServiceError("bad_request", f"players[{i}].bot: unknown bot {bot!r}; bots: "
                                       + ", ".join(self.kinds))
                seconds = p.get("seconds")
                if self.kinds[bot]["timed"]:
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
                                        "modules": list(game.state.modules), "bots": len(seats) - len(toks)})
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
    async def get(self, gid: str) -> LiveGame:
        live = self.live.get(gid)
        if live is not None:
            return live
        lock = self._loading.setdefault(gid, asyncio.Lock())
        try:
            async with lock:
                live = self.live.get(gid)
                if live is None:
                    stored = await asyncio.to_thread(self.store.load, gid)
                    if stored is None:
                        raise ServiceError("not_found", "no such game", 404)
                    game = self._rebuild(stored.setup, stored.actions, stored.snapshot)
                    live = LiveGame(gid, stored.setup, stored.seats, game, stored.version, stored.actions,
                                    stored.updated)
                    self.live[gid] = live
        finally:      # also when the game is not found: unknown ids must not pile up here
            self._loading.pop(gid, None)
        return live

    def _evict(self) -> None:
        """Forget idle games (no socket, no bot thinking, untouched for a while) beyond
        ``MAX_LIVE``; they are reloaded from the database when asked for.  (A write from a
        forgotten copy would fail the store's version check, never overwrite.)"""
        if len(self.live) < MAX_LIVE:
            return
        now = time.time()
        idle = sorted((lg.updated, gid) for gid, lg in self.live.items()
                      if not lg.subs and lg.bot_task is None and not lg.lock.locked()
                      and now - lg.updated > IDLE_SECONDS)
        for _, gid in idle[:max(1, len(self.live) - MAX_LIVE + 1 + MAX_LIVE // 10)]:
            del self.live[gid]

    @staticmethod
    def _rebuild(setup: dict, acts: list[tuple[int, str, bool]], snapshot: tuple[int, str] | None) -> Game:
        if snapshot is not None:
            idx, text = snapshot
            game = Game.from_json(text)
        else:
            idx, game = 0, replay({"format": RECORD_FORMAT, "setup": setup, "actions": []})
        for seat, notation, _ in acts[idx:]:
            game.apply(seat, notation)
        return game

    async def seat_for(self, token: Any) -> tuple[LiveGame, int]:
        if not isinstance(token, str) or not 8 <= len(token) <= 200:
            raise ServiceError("bad_token", "a seat token is needed (the secret part of your link)", 401)
        found = await asyncio.to_thread(self.store.seat_of, token)
        if found is None:
            raise ServiceError("bad_token", "this link does not open any seat", 401)
        return await self.get(found[0]), found[1]

    # --- what a seat sees ------------------------------------------------------------
    def undo_target(self, live: LiveGame, seat: int | None) -> int | None:
        """How many actions to keep if ``seat`` undoes its last move, or None.  Only in a game
        where every other seat is a bot, and only back to a point after which no new
        information came out (R22: an undo may not let a player see a draw and take it back)."""
        if seat is None or live.seats[seat].kind != "human" or len(live.humans) != 1:
            return None
        if live.game.is_over:       # the record (seed, every hidden item) is open once over
            return None
        for i in range(len(live.acts) - 1, -1, -1):
            s, _, reveals = live.acts[i]
            if reveals:
                return None
            if s == seat:
                return i
        return None

    def payload(self, live: LiveGame, seat: int | None, full: bool = True) -> str:
        """The STATE message for ``seat`` as JSON text, cached per version.  ``full``: the
        whole log; otherwise its last ``LOG_TAIL`` lines (pushes: the client keeps the rest)."""
        key = (seat, full)
        text = live.cache.get(key)
        if text is None:
            text = _JSON.encode(self.state(live, seat, full)).decode()
            live.cache[key] = text
        return text

    @staticmethod
    def _log(live: LiveGame, seat: int | None) -> list[str]:
        """The seat's log lines, followed incrementally (a push costs the new lines only)."""
        mark, lines = live.logs.get(seat, (None, []))
        new, mark = live.game.log_since(seat, mark)
        if new is None:                       # an undo: the log no longer extends what we had
            new, mark = live.game.log_since(seat, None)
            lines = []
        lines.extend(new)
        live.logs[seat] = (mark, lines)
        return lines

    def state(self, live: LiveGame, seat: int | None, full: bool = True) -> dict[str, Any]:
        g = live.game
        view = g.view(seat, log=False)
        lines = self._log(live, seat)
        start = 0 if full else max(0, len(lines) - LOG_TAIL)
        over = g.is_over
        connected = {s.seat for s in live.subs if s.seat is not None}
        figures = view["figures"]
        return {
            "type": "state",
            "game_id": live.id,
            "seat": seat,
            "version": live.version,
            "names": list(g.names),
            "seats": [{**s.public(), "connected": s.kind == "bot" or s.seat in connected} for s in live.seats],
            "setup": {"players": [s.name for s in live.seats], "modules": list(live.setup.get("modules", [])),
                      "options": dict(live.setup.get("options", {}))},
            "view": view,
            "legal": [str(a) for a in g.legal_actions(seat)] if seat is not None else [],
            "to_act": list(g.to_act),
            "committed": [bool(figures[s.seat].get("plan_committed")) for s in live.seats],
            "undo": self.undo_target(live, seat) is not None,
            "is_over": over,
            "scores": g.scores() if over else None,
            "ranking": g.ranking() if over else None,
            "log": [{"i": i, "text": lines[i]} for i in range(start, len(lines))],
            "log_total": len(lines),
        }

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

    async def act(self, live: LiveGame, seat: int, action: Any, version: Any) -> int:
        """Play ``action`` for ``seat``; returns the new version."""
        if not isinstance(action, str) or not action.strip() or len(action) > 200:
            raise ServiceError("bad_request", "action: the notation of one of your legal actions")
        async with live.lock:
            self._check_version(live, version, seat)
            if live.seats[seat].kind != "human":
                raise ServiceError("forbidden", "this seat is played by a bot", 403)
            await self._commit(live, seat, action)
            return live.version

    async def _commit(self, live: LiveGame, seat: int, notation: str) -> None:
        """Apply, store, then acknowledge; the caller holds the lock."""
        t0 = time.perf_counter()
        before = live.game
        after = before.clone()
        try:
            action = parse(notation)
            after.apply(seat, action)
        except FrescoError as e:
            raise ServiceError("illegal", str(e), 422) from None
        reveals = _reveals(before, after, action)
        idx = len(live.acts)
        version = live.version + 1
        snapshot = after.to_json(pretty=False) if (idx + 1) % SNAPSHOT_EVERY == 0 or after.is_over else None
        await self.writer.write("append", live.id, version, idx, seat, str(action), reveals, after.is_over, snapshot)
        live.game, live.version = after, version
        live.acts.append((seat, str(action), reveals))
        live.recent = live.recent[-7:] + [(version, seat, action.kind)]
        live.updated = time.time()
        live.cache.clear()
        log.info("move", extra={"event": "move", "game_id": live.id, "seat": seat, "kind": action.kind,
                                "version": version, "ms": round((time.perf_counter() - t0) * 1000, 2)})
        self._broadcast(live)
        self._schedule_bots(live)

    async def undo(self, live: LiveGame, seat: int, version: Any) -> int:
        """Take back ``seat``'s last move (and the bots' after it); returns the new version."""
        async with live.lock:
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
            await self.writer.write("truncate", live.id, version, keep)
            live.game, live.version, live.acts, live.recent = game, version, acts, []
            live.cache.clear()
            log.info("undo", extra={"event": "undo", "game_id": live.id, "seat": seat, "version": version})
            self._broadcast(live)
            self._schedule_bots(live)
            return version

    # --- bots ------------------------------------------------------------------------
    def _schedule_bots(self, live: LiveGame) -> None:
        """Start the game's bot loop if a bot is to act (caller holds the lock)."""
        if self.closing or live.bot_task is not None or live.game.is_over:
            return
        if any(live.seats[s].kind == "bot" for s in live.game.to_act):
            live.bot_task = asyncio.get_running_loop().create_task(self._bot_loop(live))

    async def _bot_loop(self, live: LiveGame) -> None:
        me = asyncio.current_task()
        try:
            while True:
                async with live.lock:
                    if live.bot_task is not me:
                        return
                    g = live.game
                    bots = [s for s in g.to_act if live.seats[s].kind == "bot"] if not g.is_over else []
                    if not bots:
                        live.bot_task = None
                        return
                    seat = bots[0]
                    info = live.seats[seat]
                    view, legal = g.view(seat, log=info.bot not in INLINE_BOTS), g.legal_actions(seat)
                    seed = f"{g.seed}:{seat}:{len(live.acts)}"
                if self.bot_delay:
                    await asyncio.sleep(self.bot_delay)
                try:
                    choice = await self._decide(info, seed, view, legal, seat)
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

    async def _decide(self, info: SeatInfo, seed: str, view: dict, legal: list, seat: int) -> str:
        if len(legal) == 1:
            return str(legal[0])
        if info.seconds is not None:
            if self._pool is None:
                import multiprocessing as mp
                self._pool = ProcessPoolExecutor(max_workers=self.bot_processes, mp_context=mp.get_context("spawn"))
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self._pool, decide, info.bot, seed, info.seconds, view,
                                              [str(a) for a in legal], seat)
        if info.bot in INLINE_BOTS:
            return decide(info.bot, seed, None, view, legal, seat)
        return await asyncio.to_thread(decide, info.bot, seed, None, view, legal, seat)

    # --- push ------------------------------------------------------------------------
    def _broadcast(self, live: LiveGame) -> None:
        for sub in list(live.subs):
            sub.poke()

    def subscribe(self, live: LiveGame, seat: int | None) -> Subscriber:
        sub = Subscriber(seat, lambda seat, full: self.payload(live, seat, full))
        live.subs.add(sub)
        live.cache.clear()          # "connected" changed for everyone
        self._broadcast(live)
        return sub

    def unsubscribe(self, live: LiveGame, sub: Subscriber) -> None:
        live.subs.discard(sub)
        live.cache.clear()
        self._broadcast(live)

    # --- lists and replays -----------------------------------------------------------
    async def my_games(self, toks: Any) -> list[dict[str, Any]]:
        if not isinstance(toks, list) or len(toks) > 200 or not all(isinstance(t, str) and len(t) <= 200 for t in toks):
            raise ServiceError("bad_request", "tokens: a list of at most 200 seat tokens")
        found = await asyncio.to_thread(self.store.seats_of, toks)
        out = []
        for tok in toks:
            if tok not in found:
                continue
            gid, seat = found[tok]
            live = await self.get(gid)
            g = live.game
            out.append({"token": tok, "game_id": gid, "seat": seat, "name": live.seats[seat].name,
                        "players": [s.name for s in live.seats],
                        "your_turn": seat in g.to_act, "round": g.round, "phase": g.phase,
                        "is_over": g.is_over, "updated": live.updated})
        out.sort(key=lambda r: (not r["your_turn"], r["is_over"], -r["updated"]))
        return out

    def record(self, live: LiveGame) -> dict[str, Any]:
        if not live.game.is_over:
            raise ServiceError("not_over", "the record (with every hidden item) is shown once the game is over", 403)
        return live.game.record()

    def replay_step(self, live: LiveGame, step: Any) -> dict[str, Any]:
        """The finished game after ``step`` actions, every hidden item revealed."""
        rec = self.record(live)
        total = len(rec["actions"])
        if isinstance(step, bool) or not isinstance(step, int) or not 0 <= step <= total:
            raise ServiceError("bad_request", f"step: 0 to {total}")
        g = replay(rec, upto=step)
        view = g.view(None)
        for s in range(g.players):
            own = g.view(s)
            view["figures"][s] = own["figures"][s]
            for key, value in own.items():       # module items (scrolls, requests...) of each seat
                if key not in view or key in ("log", "events", "seat", "figures"):   # figures: merged just above
                    continue
                if value != view[key]:
                    view.setdefault("hands", {}).setdefault(str(s), {})[key] = value
        return {"step": step, "steps": total, "view": view,
                "action": rec["actions"][step - 1] if step else None,
                "scores": live.game.scores(), "ranking": live.game.ranking(), "names": list(live.game.names)}
