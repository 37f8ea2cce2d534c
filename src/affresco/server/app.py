"""The web application of ``affresco serve``: the pieces put together, and how uvicorn runs it.

``create_app`` builds the FastAPI app (routes.py) on a ``GameService`` (service.py) over a
``Store`` (store.py), behind the ``Guard`` middleware (guard.py); ``uvicorn_config`` gives the
uvicorn settings that go with it (timeouts, connection caps, no proxy headers trusted unless
configured) and ``run`` serves it.
"""
from __future__ import annotations

import json
import logging
from contextlib import asynccontextmanager
from typing import Any, Iterable

from fastapi import FastAPI

from .bots import check_backend
from .guard import Guard, Limits, Proxies, guarded_h11
from .notify import SmtpSettings, make_notifier
from .routes import add_routes
from .service import GameService
from .store import Store

__all__ = ["create_app", "Limits", "JsonLogFormatter", "uvicorn_config", "run"]

log = logging.getLogger("affresco.server")


class JsonLogFormatter(logging.Formatter):
    """One JSON object per line: time, level, message and the structured fields given."""

    FIELDS = ("event", "game_id", "seat", "kind", "version", "ms", "error", "players", "modules", "bots",
              "status", "path", "method", "code")

    def format(self, record: logging.LogRecord) -> str:
        out: dict[str, Any] = {"t": round(record.created, 3), "level": record.levelname.lower(),
                               "msg": record.getMessage()}
        for k in self.FIELDS:
            if hasattr(record, k):
                out[k] = getattr(record, k)
        if record.exc_info:
            out["exc"] = self.formatException(record.exc_info)
        return json.dumps(out, default=str)


def create_app(db: str = "sqlite:///affresco.db", *, limits: Limits | None = None, bot_processes: int = 1,
               bot_delay: float = 0.0, resume: bool = True, fixed_seeds: bool = False,
               trusted_proxies: Iterable[str] = (), allowed_hosts: Iterable[str] = (),
               api_docs: bool = False, max_rounds: int | None = None,
               smtp: "SmtpSettings | None | bool" = None, bots: str = "local",
               lease_seconds: float | None = None) -> FastAPI:
    """The app on database URL ``db`` (``sqlite:///file.db`` or ``postgresql://...``).
    ``fixed_seeds``: let a creator choose the seed even in a game with several people (for
    tests: whoever knows the seed knows every draw).  ``trusted_proxies``: addresses or networks
    whose ``X-Forwarded-For`` is believed (none by default).  ``allowed_hosts``: the host names
    the server answers for (any by default).  ``api_docs``: serve the OpenAPI description at
    ``/api/openapi.json`` (no documentation page with third-party scripts is ever served).
    ``max_rounds``: a game still going after this round is abandoned (stalled; default 200).
    ``smtp``: e-mail notification settings (None: from the environment, see server/notify.py;
    False: none).  ``bots``: where bot decisions run (``local``: a process pool here;
    ``ray-local`` or ``ray://HOST:PORT``: Ray).  On PostgreSQL several processes may serve one
    database (``lease_seconds``: how long a dead process's games wait before another takes
    their bots over); an SQLite file is locked for this process (``DatabaseInUse``)."""
    limits = limits or Limits()
    proxies = Proxies(trusted_proxies)
    hosts = tuple(allowed_hosts)
    check_backend(bots)
    store = Store(_normalise_url(db), exclusive=True)
    extra: dict[str, Any] = {} if max_rounds is None else {"max_rounds": max_rounds}
    if lease_seconds is not None:
        extra["lease_seconds"] = lease_seconds
    service = GameService(store, bot_processes=bot_processes, bot_delay=bot_delay, fixed_seeds=fixed_seeds,
                          bots=bots, **extra)
    notifier = make_notifier(service, store, smtp)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if resume:
            await service.start()
        yield
        if notifier is not None:
            await notifier.drain()
        await service.stop()

    app = FastAPI(title="affresco", version=service.meta()["version"], lifespan=lifespan,
                  docs_url=None, redoc_url=None, openapi_url="/api/openapi.json" if api_docs else None)
    app.state.service = service
    app.state.notifier = notifier
    app.state.limits = limits
    app.state.proxies = proxies
    add_routes(app, service, limits, hosts)
    app.add_middleware(Guard, limits=limits, proxies=proxies, allowed_hosts=hosts)
    return app


def uvicorn_config(app, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info", **extra):
    """uvicorn's settings for the app: the guarded HTTP protocol (header timeout, connections
    per address), idle timeout, WebSocket frame limit, and proxy headers handled by the app
    (only from configured proxies), never by uvicorn."""
    import uvicorn
    limits: Limits = app.state.limits
    kw = dict(host=host, port=port, log_level=log_level.lower(), ws_max_size=65_536,
              # deflate costs more CPU than it saves on loopback/LAN; payloads are small JSON
              ws_per_message_deflate=False, http=guarded_h11(limits, app.state.proxies),
              proxy_headers=False, server_header=False, timeout_keep_alive=limits.keep_alive,
              limit_concurrency=limits.max_connections, access_log=log_level.lower() == "debug", lifespan="on")
    kw.update(extra)
    return uvicorn.Config(app, **kw)


def run(app, host: str = "127.0.0.1", port: int = 8000, log_level: str = "info") -> None:
    import uvicorn
    uvicorn.Server(uvicorn_config(app, host, port, log_level)).run()


def _normalise_url(db: str) -> str:
    """Accept a bare file path for SQLite and plain ``postgresql://`` URLs (psycopg 3 driver)."""
    if "://" not in db:
        return f"sqlite:///{db}"
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    if not db.startswith(("sqlite:", "sqlite+", "postgresql+")):
        raise ValueError(f"games are kept in SQLite (a file path or sqlite:///file.db) or PostgreSQL "
                         f"(postgresql://user:password@host/name), not {db.split('://', 1)[0]}://")
    return db
