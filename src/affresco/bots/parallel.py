"""Helper processes for root-parallel search (``SearchBot(workers=N)``, spec ``search:1.0:workers=2``).

The searching process keeps ``N - 1`` helper processes (started once per process and shared by
every SearchBot in it; ended when the process exits, or by :func:`close_helpers`).  Each helper
builds the same SearchBot from its options (its heuristic's game-long memos stay warm between
decisions) and searches the candidates of a decision with its own seed; the searching process
adds up the rewards and rollout counts.  Helpers ignore Ctrl-C (the process that owns them
decides) and end themselves when that process is gone.
"""
from __future__ import annotations

import atexit
import multiprocessing
import multiprocessing.util
import os
import signal
import socket
import threading
import time
from concurrent.futures import Future, ProcessPoolExecutor
from concurrent.futures import TimeoutError as FutureTimeout
from typing import Any

from ..rules import PlanVariants

__all__ = ["Helpers", "close_helpers", "end_pool", "follow_parent", "helpers"]

_POOLS: dict[int, "Helpers"] = {}
_BOTS: dict[str, Any] = {}  # in a helper: the SearchBot built for each set of options


def follow_parent(parent: int) -> None:  # pragma: no cover - runs in worker processes
    """Set up a worker process of ``parent``: it ignores Ctrl-C (the parent decides and ends
    it) and ends itself within a second once the parent is gone (killed outright, crashed)."""
    signal.signal(signal.SIGINT, signal.SIG_IGN)

    def watch() -> None:
        while os.getppid() == parent:
            time.sleep(0.5)
        os._exit(1)

    threading.Thread(target=watch, name="affresco-parent-watch", daemon=True).start()


def _ready() -> bool:  # pragma: no cover - runs in the helper processes
    from . import search  # noqa: F401  (import the bots while the searching process starts)
    return True


def _share(options: dict, view, legal, seat: int, cands, seed: int, budget: int | None,
           until: float | None):  # pragma: no cover - runs in the helper processes
    from .search import SearchBot
    key = repr(sorted(options.items()))
    bot = _BOTS.get(key)
    if bot is None:
        bot = _BOTS[key] = SearchBot(0, **options)
    return bot.search_share(view, legal, seat, cands, seed, budget, until)


def _context():
    """Fork from a main process running one thread (fast, and no script is imported again);
    spawn otherwise: forking a process with threads may copy a held lock, and a fork of a
    multiprocessing worker inherits its exit handlers (it would hang on the worker's queues)."""
    if ("fork" in multiprocessing.get_all_start_methods() and threading.active_count() == 1
            and multiprocessing.parent_process() is None):
        return multiprocessing.get_context("fork")
    return multiprocessing.get_context("spawn")


class Helpers:
    """``n`` helper processes (spawned; see the module doc)."""

    def __init__(self, n: int):
        self.n = n
        self.pool = ProcessPoolExecutor(max_workers=n, mp_context=_context(),
                                        initializer=follow_parent, initargs=(os.getpid(),))
        self.warm = [self.pool.submit(_ready) for _ in range(n)]

    def submit(self, options: dict, view, legal, seat: int, cands, seed: int, budget: int | None,
               until: float | None) -> Future:
        """Search ``budget`` rollouts, or until ``until`` (``time.monotonic()``), on a helper."""
        if type(legal) is not PlanVariants:    # the medico's lazy plans pickle as their parents
            legal = list(legal)
        return self.pool.submit(_share, options, view, legal, seat, list(cands), seed, budget, until)

    def result(self, job: Future, timeout: float | None):
        """The helper's (totals, counts, rollouts), or None if it is not done within ``timeout``."""
        try:
            return job.result(timeout)
        except FutureTimeout:
            job.cancel()
            return None

    def close(self, wait: bool = True) -> None:
        """End the helpers: when they are done (``wait``), or at once (terminated)."""
        end_pool(self.pool, wait)


def ray_unreachable(address: str, timeout: float = 5.0) -> str | None:
    """Why the Ray cluster at ``address`` (``HOST:PORT`` or ``ray://HOST:PORT``) cannot be
    reached, or None (reached, or an address without a host and port, e.g. ``auto``).  Ray
    itself retries an unreachable address for ever, so a typing error would hang."""
    target = address[len("ray://"):] if address.startswith("ray://") else address
    host, sep, port = target.rpartition(":")
    if not sep or not host or not (port.isascii() and port.isdigit()):
        return None
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=timeout).close()
    except OSError as e:
        return str(e.strerror or e)
    return None


def end_pool(pool: ProcessPoolExecutor, wait: bool) -> None:
    """Shut ``pool`` down: after its work (``wait``), or at once, its processes terminated."""
    if wait:
        pool.shutdown(wait=True, cancel_futures=True)
        return
    procs = list((getattr(pool, "_processes", None) or {}).values())
    manager = getattr(pool, "_executor_manager_thread", None)
    pool.shutdown(wait=False, cancel_futures=True)
    for p in procs:
        if p.is_alive():
            p.terminate()
    for p in procs:
        p.join(timeout=5)
    # its thread then ends and closes its wake-up pipe; until it has ended, Python 3.11's exit
    # hook may still write to that pipe (a traceback, "Bad file descriptor", after a SIGTERM)
    if manager is not None:
        manager.join(timeout=5)


def helpers(n: int) -> Helpers:
    """The shared pool of ``n`` helper processes of this process (started on first use)."""
    pool = _POOLS.get(n)
    if pool is None:
        pool = _POOLS[n] = Helpers(n)
        # A process started by multiprocessing (a tournament's worker) skips atexit and waits
        # for its children when it ends: its finalizers run first, so end the helpers there
        # (at once: its queues may already be closed).
        multiprocessing.util.Finalize(pool, close_helpers, kwargs={"wait": False}, exitpriority=100)
    return pool


def close_helpers(wait: bool = True) -> None:
    """End every helper process of this process (also done when it exits)."""
    while _POOLS:
        _, pool = _POOLS.popitem()
        pool.close(wait)


atexit.register(close_helpers)
