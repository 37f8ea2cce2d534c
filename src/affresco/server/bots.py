"""The bot runner: bots decide off the event loop, in constant time, in workers that die with us.

A bot decides from its seat's view and legal actions only.  Quick bots run in a thread (the
random bot inline); timed bots (search, seconds per move) in a process pool.

**Time reveals nothing (R22).**  How long a bot thinks may depend on what only it knows (a
search bot holding a matching scroll thinks, one with nothing to play does not).  So every
decision of a bot is answered exactly at the end of a fixed budget for that bot, computed
before it looks at anything: ``max(delay, seconds + slack)`` for a timed bot, ``delay`` for
a quick one.  A forced move (one legal action) waits for the same budget.  A decision that
overruns its budget is logged (``bot_overrun``).

**No orphans.**  Pool workers watch their parent: when the server dies (even by ``kill -9``)
they exit within a second, and with them the ``resource_tracker`` they hold open.

**Ray.**  ``backend="ray://HOST:PORT"`` (a Ray cluster, through Ray Client) or ``"ray-local"``
(a Ray started by this process) runs the decisions of timed and thread bots as Ray tasks
instead, off the web processes; the budget above is kept the same way (the answer waits for
the end of the seat's budget, whatever the task took).  Ray is started when the server starts,
never inside a decision's budget.  A start that fails (a busy machine: Ray's raylet must register
within 30 s) is tried again once, after stopping what it left running (its GCS server, raylet
and monitors, which ``ray.shutdown`` does not know); if Ray still cannot be had, the bots decide
here as without Ray (logged ``ray_fallback``) rather than answering every decision with a
``bot_error``.
"""
from __future__ import annotations

import asyncio
import logging
import os
import signal
import threading
import time
from concurrent.futures import Executor, ProcessPoolExecutor
from typing import Any, Sequence

from .. import parse
from ..rules import PlanVariants
from .store import SeatInfo

__all__ = ["BotRunner", "RayBots", "check_backend", "bot_kinds", "known_bots", "decide", "TIMED_SLACK"]

log = logging.getLogger("affresco.server")

INLINE_BOTS = {"random"}     # decide in microseconds, from the legal actions alone: no thread hop
TIMED_SLACK = 0.35           # seconds over a timed bot's budget before its answer is due (start-up, IPC)


def bot_kinds() -> dict[str, dict[str, Any]]:
    """The bots offered to players (the one bot menu: name, title, description, timed, options)."""
    from ..bots.specs import bot_menu
    return {b["name"]: b for b in bot_menu()}


def known_bots() -> dict[str, bool]:
    """Every bot kind a game may seat (former names too, for old specs), -> takes seconds per move."""
    from ..bots.specs import KINDS
    return {k.name: k.budget is not None for k in KINDS.values()}


def decide(bot: str, seed: str, seconds: float | None, view: dict, legal: list, seat: int) -> str:
    """One bot decision from the seat's view and legal actions only (notation text or Actions;
    runs in a worker process, a thread, or inline for the quickest bots)."""
    from ..bots import make_bot
    b = make_bot(bot, seed) if seconds is None else make_bot(bot, seed, seconds=seconds)
    actions = legal if type(legal) is PlanVariants else [parse(a) if isinstance(a, str) else a for a in legal]
    return str(b.choose(view, actions, seat))


def _sendable(legal: Sequence) -> Sequence:
    """The legal actions as sent to a worker process or Ray: the medico's lazy plans as
    themselves (they pickle as their parents and limits, not ~110,000 plans), else as text."""
    return legal if type(legal) is PlanVariants else [str(a) for a in legal]


def _warm() -> None:
    import affresco.bots  # noqa: F401 - imports once per worker, before any decision


def _watch_parent(parent: int) -> None:
    """In a pool worker: exit as soon as the server process is gone (re-parented)."""
    def watch() -> None:
        while True:
            if os.getppid() != parent:
                os._exit(0)
            time.sleep(0.25)
    threading.Thread(target=watch, name="affresco-parent-watch", daemon=True).start()


class BotRunner:
    """Bot decisions for the service, each answered at the end of its seat's fixed budget."""

    def __init__(self, processes: int = 1, delay: float = 0.0, slack: float = TIMED_SLACK, backend: str = "local"):
        self.processes, self.delay, self.slack = processes, delay, slack
        self._pool: Executor | None = None
        self.ray: RayBots | None = None
        if backend != "local":
            self.ray = RayBots(backend, processes)

    def start(self) -> None:
        """Start what decisions need before any decision's budget runs (Ray, when chosen)."""
        if self.ray is not None:
            self.ray.start()

    def budget(self, info: SeatInfo) -> float:
        """Seconds from the request of a decision to its answer: fixed per seat, never
        depending on the position (so never on the bot's secrets)."""
        if info.seconds is not None:
            return max(self.delay, info.seconds + self.slack)
        return self.delay

    async def decide(self, info: SeatInfo, seed: str, view: dict, legal: list, seat: int) -> str:
        """The bot's choice (notation), answered ``budget(info)`` seconds after the call."""
        loop = asyncio.get_running_loop()
        due = loop.time() + self.budget(info)
        try:
            choice = await self._decide(info, seed, view, legal, seat)
        finally:
            late = loop.time() - due
            if late > 0.005 and self.budget(info) > 0:
                log.warning("bot overran its time budget", extra={"event": "bot_overrun", "seat": seat,
                                                                  "ms": round(late * 1000, 1)})
            else:
                await asyncio.sleep(max(0.0, due - loop.time()))
        return choice

    async def _decide(self, info: SeatInfo, seed: str, view: dict, legal: list, seat: int) -> str:
        if len(legal) == 1:            # forced: no thinking, but the same wait (above)
            return str(legal[0])
        if self.ray is not None and info.bot not in INLINE_BOTS and await self.ray.available():
            return await self.ray.decide(info.bot, seed, info.seconds, view, _sendable(legal), seat)
        if info.seconds is not None:
            loop = asyncio.get_running_loop()
            return await loop.run_in_executor(self.pool(), decide, info.bot, seed, info.seconds, view,
                                              _sendable(legal), seat)
        if info.bot in INLINE_BOTS:
            return decide(info.bot, seed, None, view, legal, seat)
        return await asyncio.to_thread(decide, info.bot, seed, None, view, legal, seat)

    def pool(self) -> Executor | None:
        if self.ray is not None and not self.ray.failed:
            return None
        if self._pool is None:
            import multiprocessing as mp
            self._pool = ProcessPoolExecutor(max_workers=self.processes, mp_context=mp.get_context("spawn"),
                                             initializer=_watch_parent, initargs=(os.getpid(),))
            for _ in range(self.processes):     # start and warm the workers now, not in a bot's first budget
                self._pool.submit(_warm)
        return self._pool

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        if self.ray is not None:
            self.ray.close()


def check_backend(backend: str) -> str:
    """``local``, ``ray-local`` or ``ray://HOST:PORT``; ValueError otherwise."""
    if backend in ("local", "ray-local") or (backend.startswith("ray://") and len(backend) > 6):
        return backend
    raise ValueError(f"--bots {backend!r}: 'local' (a process pool here), 'ray-local' (Ray started here) "
                     "or 'ray://HOST:PORT' (a Ray cluster's client address)")


class RayBots:
    """Bot decisions as Ray tasks (``decide`` above, run in Ray's workers).

    Ray is started, and shut down, by one thread that lives as long as the runner: the
    processes ``ray-local`` starts share the fate of the thread that started them (Linux
    parent-death signal), so that thread must not end before them."""

    def __init__(self, backend: str, cpus: int = 1):
        self.backend, self.cpus = check_backend(backend), cpus
        self._ready = threading.Event()
        self._stop = threading.Event()
        self._error: BaseException | None = None
        self._task: Any = None
        self._thread: threading.Thread | None = None

    def start(self) -> None:
        if self._thread is None:
            self._thread = threading.Thread(target=self._connect, name="affresco-ray", daemon=True)
            self._thread.start()

    ATTEMPTS = 2    # a local start can time out on a busy machine (the raylet's 30 s); a second one often does not

    @property
    def failed(self) -> bool:
        """Ray could not be started (or joined): decisions run in this process's pool instead."""
        return self._ready.is_set() and self._error is not None

    def _connect(self) -> None:
        ray: Any = None
        try:
            import ray
            for attempt in range(1, self.ATTEMPTS + 1):
                before = _ray_children(ray)
                try:
                    self._init(ray)
                    break
                except Exception as e:  # noqa: BLE001 - Ray raises bare Exceptions ("timed out during startup")
                    _clean_failed_start(ray, before)
                    if attempt == self.ATTEMPTS:
                        raise
                    log.warning("Ray could not be started, trying again",
                                extra={"event": "ray_retry", "error": repr(e)})
            log.info("bots run on Ray", extra={"event": "ray_ready", "status": self.backend})
        except BaseException as e:  # noqa: BLE001 - logged; the runner's decisions fall back to local workers
            self._error = e
            log.error("Ray could not be started", extra={"event": "ray_error", "error": repr(e)})
            log.warning("bots decide in this server's processes instead of Ray",
                        extra={"event": "ray_fallback", "status": self.backend})
            return
        finally:
            self._ready.set()
        self._stop.wait()
        ray.shutdown()

    def _init(self, ray: Any) -> None:
        """Start (``ray-local``) or join Ray, and warm one worker (it imports affresco now)."""
        if self.backend == "ray-local":
            ray.init(num_cpus=self.cpus, include_dashboard=False, log_to_driver=False,
                     ignore_reinit_error=True, configure_logging=False,
                     object_store_memory=100 * 2**20)     # views and choices are small
        else:
            ray.init(address=self.backend, log_to_driver=False, ignore_reinit_error=True,
                     configure_logging=False)
        self._task = ray.remote(num_cpus=1, max_retries=2)(decide)
        ray.get(self._task.remote("random", "warm", None, {}, ["pass"], 0))

    async def available(self) -> bool:
        """Whether Ray takes the decisions (waits for its start, once)."""
        if not self._ready.is_set():
            self.start()
            await asyncio.to_thread(self._ready.wait)
        return self._error is None

    async def decide(self, bot: str, seed: str, seconds: float | None, view: dict, legal: list[str],
                     seat: int) -> str:
        if not await self.available():
            raise RuntimeError(f"Ray is not available ({self._error!r})")
        return await self._task.remote(bot, seed, seconds, view, legal, seat)

    def close(self) -> None:
        self._stop.set()
        if self._thread is not None:
            self._thread.join(timeout=60)


def _ray_children(ray: Any) -> set[int]:
    """This process's child processes run from the ray package (Linux ``/proc``; else none)."""
    home = os.path.dirname(getattr(ray, "__file__", None) or "")
    if not home:
        return set()
    mark, me, out = (home + os.sep).encode(), os.getpid(), set()
    try:
        pids = [p for p in os.listdir("/proc") if p.isdigit()]
    except OSError:
        return out
    for pid in pids:
        try:
            with open(f"/proc/{pid}/stat", "rb") as f:
                ppid = int(f.read().rsplit(b")", 1)[1].split()[1])
            if ppid != me:
                continue
            with open(f"/proc/{pid}/cmdline", "rb") as f:
                if mark in f.read():
                    out.add(int(pid))
        except (OSError, ValueError, IndexError):
            continue
    return out


def _clean_failed_start(ray: Any, before: set[int]) -> None:
    """Stop what a failed ``ray.init`` left running: a local start that times out leaves its
    GCS server, raylet and monitors up (``ray.shutdown`` does not know them), for the server's
    whole life (they die with it)."""
    try:
        ray.shutdown()
    except Exception:  # noqa: BLE001 - best effort
        pass
    left = _ray_children(ray) - before
    if not left:
        return
    for pid in left:
        try:
            os.kill(pid, signal.SIGTERM)
        except OSError:
            pass
    end, waiting = time.monotonic() + 5, set(left)
    while waiting:
        for pid in list(waiting):
            try:
                if os.waitpid(pid, os.WNOHANG)[0]:
                    waiting.discard(pid)
            except ChildProcessError:
                waiting.discard(pid)
        if waiting and time.monotonic() > end:
            for pid in waiting:
                try:
                    os.kill(pid, signal.SIGKILL)
                    os.waitpid(pid, 0)
                except OSError:
                    pass
            break
        time.sleep(0.05)
    log.info("stopped what the failed start of Ray left running",
             extra={"event": "ray_cleanup", "status": f"{len(left)} processes"})
