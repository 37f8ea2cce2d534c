"""The web application of ``affresco serve`` (FastAPI/Starlette, run by uvicorn).

REST and WebSocket endpoints are documented in docs/server.md.  Every error is JSON:
``{"error": {"code", "message"}}``.  Seat tokens travel only in the ``Authorization`` header
or the WebSocket's first message, never in a URL, so they stay out of access logs.
"""
from __future__ import annotations

import asyncio
import json
import logging
import time
from contextlib import asynccontextmanager
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles

from .service import GameService, ServiceError
from .store import Store

__all__ = ["create_app", "Limits", "JsonLogFormatter"]

log = logging.getLogger("affresco.server")

STATIC = resources.files("affresco.server") / "static"
CATALOGS = resources.files("affresco.i18n")


class Limits:
    """Request size and rate limits (a token bucket per seat token, or per client address)."""

    def __init__(self, max_body: int = 16_384, rate: float = 20.0, burst: int = 60, create_per_minute: int = 30):
        self.max_body, self.rate, self.burst = max_body, rate, burst
        self.create_rate = create_per_minute / 60.0
        self.create_burst = 10          # a burst of 10 new games, then create_per_minute
        self._buckets: dict[str, tuple[float, float]] = {}

    def allow(self, key: str, rate: float | None = None, burst: int | None = None) -> bool:
        rate = self.rate if rate is None else rate
        burst = self.burst if burst is None else burst
        now = time.monotonic()
        level, at = self._buckets.get(key, (float(burst), now))
        level = min(float(burst), level + (now - at) * rate)
        if level < 1:
            self._buckets[key] = (level, now)
            return False
        self._buckets[key] = (level - 1, now)
        if len(self._buckets) > 100_000:      # forget idle keys
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        return True


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


class BodyLimit:
    """ASGI middleware: refuse request bodies over ``max_body`` bytes with a JSON 413."""

    def __init__(self, app, max_body: int):
        self.app, self.max_body = app, max_body

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http":
            return await self.app(scope, receive, send)
        headers = dict(scope.get("headers") or [])
        length = headers.get(b"content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            return await _too_large(send, self.max_body)
        seen = 0

        async def limited():
            nonlocal seen
            message = await receive()
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > self.max_body:
                    raise _TooLarge()
            return message

        try:
            await self.app(scope, limited, send)
        except _TooLarge:
            await _too_large(send, self.max_body)


class _TooLarge(Exception):
    pass


async def _too_large(send, limit: int) -> None:
    body = json.dumps({"error": {"code": "too_large", "message": f"request body over {limit} bytes"}}).encode()
    await send({"type": "http.response.start", "status": 413,
                "headers": [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]})
    await send({"type": "http.response.body", "body": body})


def _error(e: ServiceError) -> JSONResponse:
    return JSONResponse(e.body(), status_code=e.status)


def create_app(db: str = "sqlite:///affresco.db", *, limits: Limits | None = None, bot_processes: int = 1,
               bot_delay: float = 0.0, resume: bool = True, fixed_seeds: bool = False) -> FastAPI:
    """The app on database URL ``db`` (``sqlite:///file.db`` or ``postgresql://...``).
    ``fixed_seeds``: let a creator choose the seed even in a game with several people (for
    tests: whoever knows the seed knows every draw)."""
    limits = limits or Limits()
    store = Store(_normalise_url(db))
    service = GameService(store, bot_processes=bot_processes, bot_delay=bot_delay, fixed_seeds=fixed_seeds)

    @asynccontextmanager
    async def lifespan(app: FastAPI):
        if resume:
            await service.start()
        yield
        await service.stop()

    app = FastAPI(title="affresco", version=service.meta()["version"], lifespan=lifespan,
                  docs_url="/api/docs", redoc_url=None, openapi_url="/api/openapi.json")
    app.state.service = service
    app.state.limits = limits

    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, e: ServiceError):
        return _error(e)

    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return JSONResponse({"error": {"code": code, "message": str(e.detail)}}, status_code=e.status_code)

    @app.exception_handler(Exception)
    async def _crash(request: Request, e: Exception):
        log.exception("request failed", extra={"event": "error", "path": request.url.path,
                                                "method": request.method})
        return JSONResponse({"error": {"code": "server_error", "message": "the server failed; nothing was "
                                       "acknowledged (try again)"}}, status_code=500)

    @app.exception_handler(RequestValidationError)
    async def _validation_error(request: Request, e: RequestValidationError):
        return JSONResponse({"error": {"code": "bad_request", "message": "invalid request"}}, status_code=400)

    async def body_of(request: Request) -> Any:
        try:
            return json.loads(await request.body() or b"{}")
        except (ValueError, RecursionError):      # RecursionError: deeply nested JSON
            raise ServiceError("bad_request", "the body is not valid JSON") from None

    def bearer(request: Request) -> str | None:
        auth = request.headers.get("authorization", "")
        return auth[7:].strip() if auth[:7].lower() == "bearer " else None

    def rate(key: str) -> None:
        if not limits.allow(key):
            raise ServiceError("rate_limited", "too many requests; slow down", 429)

    def client(request: Request) -> str:
        return request.client.host if request.client else "?"

    async def seat_of(request: Request):
        token = bearer(request)
        rate(f"tok:{token}" if token else f"ip:{client(request)}")
        return await service.seat_for(token)

    # --- pages -------------------------------------------------------------------
    @app.get("/", include_in_schema=False)
    async def index():
        page = STATIC / "index.html"
        if not page.is_file():  # pragma: no cover - the package ships it
            return Response("affresco server: the web client is missing from this installation", 500)
        return FileResponse(str(page), headers={"Cache-Control": "no-cache"})

    # the language catalogues live with the engine's text renderer (affresco.i18n)
    app.mount("/static/i18n", StaticFiles(directory=str(CATALOGS)), name="i18n")
    if STATIC.is_dir():
        app.mount("/static", StaticFiles(directory=str(STATIC)), name="static")

    @app.get("/healthz", include_in_schema=False)
    async def healthz():
        return {"ok": True, "games_in_memory": len(service.live)}

    # --- API ---------------------------------------------------------------------
    @app.get("/api/meta")
    async def meta():
        return service.meta()

    @app.post("/api/games", status_code=201)
    async def create(request: Request):
        if not limits.allow(f"create:{client(request)}", limits.create_rate, limits.create_burst):
            raise ServiceError("rate_limited", "too many games created from this address; wait a minute", 429)
        return await service.create(await body_of(request))

    @app.get("/api/me")
    async def me(request: Request):
        live, seat = await seat_of(request)
        return Response(service.payload(live, seat), media_type="application/json")

    async def seat_request(request: Request, shape: str, run) -> Response:
        """A seat's move: authenticate, read ``{...}``, run, answer with the seat's new state."""
        live, seat = await seat_of(request)
        body = await body_of(request)
        if not isinstance(body, dict):
            raise ServiceError("bad_request", f"the body must be {shape}")
        await run(live, seat, body)
        return Response(service.payload(live, seat), media_type="application/json")

    @app.post("/api/me/act")
    async def act(request: Request):
        return await seat_request(request, '{"action": ..., "version": ...}',
                                  lambda live, seat, b: service.act(live, seat, b.get("action"), b.get("version")))

    @app.post("/api/me/undo")
    async def undo(request: Request):
        return await seat_request(request, '{"version": ...}',
                                  lambda live, seat, b: service.undo(live, seat, b.get("version")))

    @app.get("/api/games/{game_id}")
    async def watch(game_id: str, request: Request):
        rate(f"ip:{client(request)}")
        live = await service.get(game_id)
        return Response(service.payload(live, None), media_type="application/json")

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str):
        live = await service.get(game_id)
        return service.record(live)

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay_step(game_id: str, step: int, request: Request):
        rate(f"ip:{client(request)}")
        live = await service.get(game_id)
        return await asyncio.to_thread(service.replay_step, live, step)

    @app.post("/api/my-games")
    async def my_games(request: Request):
        rate(f"ip:{client(request)}")
        body = await body_of(request)
        return {"games": await service.my_games(body.get("tokens") if isinstance(body, dict) else None)}

    @app.websocket("/ws")
    async def ws(socket: WebSocket):
        await socket.accept()
        try:
            await _ws_session(socket, service, limits)
        except WebSocketDisconnect:
            pass

    app.add_middleware(BodyLimit, max_body=limits.max_body)
    return app


async def _ws_session(socket: WebSocket, service: GameService, limits: Limits) -> None:
    """One WebSocket: 'hello' (seat token) or 'watch' (game id) first, then acts and pushes."""
    async def send_error(e: ServiceError) -> None:
        await socket.send_text(json.dumps({"type": "error", **e.body()["error"]}))

    async def receive() -> dict:
        try:
            text = await socket.receive_text()
        except KeyError:        # a binary frame (Starlette finds no "text"): not a crash, a refusal
            raise ServiceError("bad_request", "messages are JSON text frames") from None
        if len(text) > limits.max_body // 4 and len(text.encode()) > limits.max_body:
            raise ServiceError("too_large", f"message over {limits.max_body} bytes")
        try:
            msg = json.loads(text)
        except (ValueError, RecursionError):
            raise ServiceError("bad_request", "messages are JSON objects") from None
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ServiceError("bad_request", "messages are JSON objects with a 'type'")
        return msg

    live = seat = None
    deadline = asyncio.get_running_loop().time() + 30     # say hello (or watch) within 30 s
    while live is None:
        try:
            first = await asyncio.wait_for(receive(), timeout=max(0.0, deadline - asyncio.get_running_loop().time()))
            if first["type"] == "hello":
                live, seat = await service.seat_for(first.get("token"))
            elif first["type"] == "watch":
                gid = first.get("game_id")
                if not isinstance(gid, str) or len(gid) > 64:
                    raise ServiceError("bad_request", "watch: game_id")
                live = await service.get(gid)
            elif first["type"] == "ping":
                await socket.send_text('{"type":"pong"}')
            else:
                raise ServiceError("bad_request", "say 'hello' with your token or 'watch' a game first")
        except asyncio.TimeoutError:
            await socket.close(code=1008)
            return
        except ServiceError as e:
            await send_error(e)
            if e.code in ("bad_token", "not_found"):
                await socket.close(code=1008)
                return
    sub = service.subscribe(live, seat)
    key = f"tok:{first.get('token')}" if seat is not None else f"ws:{id(socket)}"

    async def writer():
        while True:
            await socket.send_text(await sub.next())

    push = asyncio.create_task(writer())
    try:
        while True:
            try:
                msg = await receive()
                kind = msg["type"]
                if kind == "ping":
                    await socket.send_text('{"type":"pong"}')
                    continue
                if not limits.allow(key):
                    raise ServiceError("rate_limited", "too many messages; slow down", 429)
                if kind in ("act", "undo") and seat is None:
                    raise ServiceError("forbidden", "spectators cannot act", 403)
                if kind == "act":
                    version = await service.act(live, seat, msg.get("action"), msg.get("version"))
                    await socket.send_text(json.dumps({"type": "ack", "of": "act", "version": version}))
                elif kind == "undo":
                    version = await service.undo(live, seat, msg.get("version"))
                    await socket.send_text(json.dumps({"type": "ack", "of": "undo", "version": version}))
                elif kind == "state":
                    sub.poke(full=True)
                else:
                    raise ServiceError("bad_request", f"unknown message type {kind!r}")
            except ServiceError as e:
                await send_error(e)
            if push.done():
                break
    finally:
        push.cancel()
        service.unsubscribe(live, sub)


def _normalise_url(db: str) -> str:
    """Accept a bare file path for SQLite and plain ``postgresql://`` URLs (psycopg 3 driver)."""
    if "://" not in db:
        return f"sqlite:///{db}"
    if db.startswith("postgresql://") or db.startswith("postgres://"):
        return "postgresql+psycopg://" + db.split("://", 1)[1]
    return db
