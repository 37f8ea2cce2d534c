"""Where a tournament's games are played: local processes (spawned) or Ray tasks, driven by one
loop (at most 2 x workers games in flight; an interruption keeps the finished games)."""
from __future__ import annotations

import contextlib
import logging
import multiprocessing
import os
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from typing import Callable, Iterable

from ..bots.parallel import end_pool, follow_parent, ray_unreachable
from ..errors import ConfigError
from .games import play_job
from .interrupts import sigint_deferred

def _worker_init(parent: int) -> None:  # pragma: no cover - runs in the worker processes
    """Workers leave Ctrl-C to the parent, which stops the tournament and ends them.  A parent
    killed outright (SIGKILL, a crash) cannot end them: they then end themselves within a
    second instead of playing on unseen."""
    follow_parent(parent)


class ProcessBackend:
    """Games on local processes (spawned, ignoring Ctrl-C)."""

    def __init__(self, job: tuple, workers: int):
        self.job, self.workers, self.name = job, workers, "processes"
        self.pool = ProcessPoolExecutor(max_workers=workers, mp_context=multiprocessing.get_context("spawn"),
                                        initializer=_worker_init, initargs=(os.getpid(),))

    def submit(self, k: int) -> Future:
        return self.pool.submit(play_job, self.job, k)

    def close(self, clean: bool, pending: Iterable[Future]) -> None:
        end_pool(self.pool, wait=clean)


def require_ray(address: str | None = None):
    """The ``ray`` module, or a :class:`ConfigError` saying how to install it; for a cluster's
    ``address`` also a ConfigError at once when nobody answers there (Ray itself would wait for
    ever: a mistyped address hung)."""
    ray = ray_module()
    why = ray_unreachable(address) if address not in (None, "local", "auto") else None
    if why is not None:
        raise ConfigError(f"cannot reach Ray at {address!r}: {why} (start Ray there, e.g. 'ray start --head', "
                          f"or check the address)")
    return ray


def ray_module():
    try:
        import ray
    except ImportError:
        raise ConfigError("playing on Ray needs the ray package: pip install 'affresco[ray]'") from None
    return ray


class RayBackend:
    """Games as Ray tasks (one CPU each): ``address`` ``"local"`` starts a local instance with
    ``workers`` CPUs (all of this machine's by default), anything else joins that cluster.
    A Ray already initialised in this process is used as it is and left running."""

    def __init__(self, job: tuple, address: str, workers: int | None):
        ray = self.ray = ray_module()
        self.job, self.refs, self.started = job, {}, False
        if not ray.is_initialized():
            common = dict(include_dashboard=False, log_to_driver=False, logging_level=logging.WARNING,
                          configure_logging=True)
            self.started = True
            try:
                if address == "local":
                    ray.init(num_cpus=workers, **common)
                else:
                    ray.init(address=address, **common)
            except Exception as e:  # noqa: BLE001 - Ray raises bare Exceptions ("timed out during startup")
                self.close(False, ())
                raise ConfigError(f"cannot start or join Ray at {address!r}: {e}") from None
            except BaseException:  # Ctrl-C while starting: leave nothing running
                self.close(False, ())
                raise
        if workers is None:
            workers = max(1, int(ray.cluster_resources().get("CPU", 1)))
        self.workers = workers
        self.name = f"ray ({address})"
        self.task = ray.remote(num_cpus=1, max_retries=0)(play_job)

    def submit(self, k: int) -> Future:
        ref = self.task.remote(self.job, k)
        fut = ref.future()
        self.refs[fut] = ref
        return fut

    def close(self, clean: bool, pending: Iterable[Future]) -> None:
        try:
            if not clean:
                for fut in pending:
                    ref = self.refs.get(fut)
                    if ref is not None and not fut.done():
                        with contextlib.suppress(Exception):
                            self.ray.cancel(ref, force=True)
        finally:
            if self.started:
                with sigint_deferred(reraise=False):
                    self.ray.shutdown()


def drive(backend, games: Iterable[int], finish, store, on_start: Callable[[], None] | None) -> None:
    """The loop of both pool backends: at most 2 x workers games in flight, handed over as they
    finish; on an interruption (or a failed game) the finished ones are kept, the rest dropped."""
    pending: set[Future] = set()
    handed: set[int] = set()
    clean = False
    try:
        if on_start is not None:
            on_start()
        todo = iter(games)        # the indexes of the games to play
        for k in todo:
            pending.add(backend.submit(k))
            if len(pending) >= 2 * backend.workers:
                break
        while pending:
            ready, pending = wait(pending, return_when=FIRST_COMPLETED)
            for fut in sorted(ready, key=lambda f: f.result()[0]):
                pending.add(fut)  # until handed over: an interruption keeps it
                k, rows, record = fut.result()
                handed.add(k)
                pending.discard(fut)
                finish(k, rows, record)
                nxt = next(todo, None)
                if nxt is not None:
                    pending.add(backend.submit(nxt))
        clean = True
    finally:
        with sigint_deferred(reraise=clean):
            if not clean:
                for fut in list(pending):
                    if fut.done() and not fut.cancelled() and fut.exception() is None:
                        k, rows, record = fut.result()
                        if k not in handed:
                            store(k, rows, record)
                    else:
                        fut.cancel()
            backend.close(clean, pending)
