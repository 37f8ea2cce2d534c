"""The HTTP and WebSocket endpoints of ``affresco serve`` (documented in docs/server.md).

Every error is JSON: ``{"error": {"code", "message"}}``.  Seat tokens travel only in the
``Authorization`` header or the WebSocket's first message, never in a URL, so they stay out of
access logs.  Rates: every request counts against its client address; a seat request also
against its seat token once the token is known good; a failed token counts against the
address (so fresh random tokens are limited too).
"""
from __future__ import annotations

import asyncio
import json
import logging
from importlib import resources
from typing import Any

from fastapi import FastAPI, Request, WebSocket, WebSocketDisconnect
from starlette.websockets import WebSocketDisconnected
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.requests import ClientDisconnect

from .extras import add_seat_extras
from .guard import Limits, same_origin
from .service import BAD_UNICODE, GameService, ServiceError, check_text
from .store import hash_token

__all__ = ["add_routes", "STATIC"]

log = logging.getLogger("affresco.server")

STATIC = resources.files("affresco.server") / "static"
CATALOGS = resources.files("affresco.i18n")


def parse_json(text: str | bytes) -> Any:
    """A message or body as JSON; bad JSON and lone surrogates are bad requests."""
    try:
        value = json.loads(text or b"{}")
    except (ValueError, RecursionError):      # RecursionError: deeply nested JSON
        raise ServiceError("bad_request", "the body is not valid JSON") from None
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        raise ServiceError("bad_request", BAD_UNICODE) from None
    return value


def add_routes(app: FastAPI, service: GameService, limits: Limits, allowed_hosts: tuple[str, ...] = ()) -> None:
    @app.exception_handler(ServiceError)
    async def _service_error(request: Request, e: ServiceError):
        return JSONResponse(e.body(), status_code=e.status)

    from fastapi.exceptions import RequestValidationError
    from starlette.exceptions import HTTPException as StarletteHTTPException

    @app.exception_handler(StarletteHTTPException)
    async def _http_error(request: Request, e: StarletteHTTPException):
        code = {404: "not_found", 405: "method_not_allowed"}.get(e.status_code, "http_error")
        return JSONResponse({"error": {"code": code, "message": str(e.detail)}}, status_code=e.status_code)

    @app.exception_handler(ClientDisconnect)
    async def _gone(request: Request, e: ClientDisconnect):
        # the client hung up mid-body: nothing to answer, nothing went wrong here
        log.debug("client left mid-request", extra={"event": "client_gone", "path": request.url.path})
        return Response(status_code=400)

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
        return parse_json(await request.body())

    def bearer(request: Request) -> str | None:
        auth = request.headers.get("authorization", "")
        return auth[7:].strip() if auth[:7].lower() == "bearer " else None

    def client(request: Request) -> str:
        return request.client.host if request.client else "?"

    def rate_ip(request: Request) -> None:
        if not limits.allow_ip(client(request)):
            raise ServiceError("rate_limited", "too many requests from this address; slow down", 429)

    async def seat_of(request: Request):
        rate_ip(request)
        address = client(request)
        if not limits.bad_token_room(address):
            raise ServiceError("rate_limited", "too many unknown seat tokens from this address; wait a minute", 429)
        token = bearer(request)
        try:
            live, seat = await service.seat_for(token)
        except ServiceError as e:
            if e.code == "bad_token":
                limits.bad_token(address)
            raise
        if not limits.allow(f"tok:{hash_token(token)}"):
            raise ServiceError("rate_limited", "too many requests; slow down", 429)
        return live, seat

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
        out = {"ok": True, "games_in_memory": len(service.live), "games_set_aside": len(service.broken)}
        if service.cluster is not None:      # several processes on PostgreSQL
            out["bot_leases_held"] = len(service.cluster.held)
        return out

    # --- API ---------------------------------------------------------------------
    @app.get("/api/meta")
    async def meta(request: Request):
        rate_ip(request)
        return service.meta()

    @app.post("/api/games", status_code=201)
    async def create(request: Request):
        # another site's page may not create games here: browsers send a JSON content type
        # cross-site only after a CORS preflight (which this server never grants)
        if request.headers.get("content-type", "").split(";")[0].strip().lower() != "application/json":
            raise ServiceError("bad_request", "send the game as JSON (Content-Type: application/json)")
        if not same_origin(request.scope, allowed_hosts):
            raise ServiceError("forbidden", "games are created from this server's own page", 403)
        rate_ip(request)
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
        return await seat_request(request, '{"action": ..., "version": ..., "client_id": ...}',
                                  lambda live, seat, b: service.act(live, seat, b.get("action"), b.get("version"),
                                                                    b.get("client_id")))

    @app.post("/api/me/undo")
    async def undo(request: Request):
        return await seat_request(request, '{"version": ...}',
                                  lambda live, seat, b: service.undo(live, seat, b.get("version")))

    @app.get("/api/games/{game_id}")
    async def watch(game_id: str, request: Request):
        rate_ip(request)
        live = await service.get(game_id)
        return Response(service.payload(live, None), media_type="application/json")

    @app.get("/api/games/{game_id}/record")
    async def record(game_id: str, request: Request):
        rate_ip(request)
        live = await service.get(game_id)
        return service.record(live)

    @app.get("/api/games/{game_id}/replay/{step}")
    async def replay_step(game_id: str, step: int, request: Request):
        rate_ip(request)
        live = await service.get(game_id)
        return await asyncio.to_thread(service.replay_step, live, step)

    # the web client's seat extras (issue 13): scoring previews, e-mail notification
    add_seat_extras(app, seat_of=seat_of, body_of=body_of, bearer=bearer,
                    notifier=getattr(app.state, "notifier", None))

    @app.post("/api/my-games")
    async def my_games(request: Request):
        rate_ip(request)
        body = await body_of(request)
        return {"games": await service.my_games(body.get("tokens") if isinstance(body, dict) else None)}

    @app.websocket("/ws")
    async def ws(socket: WebSocket):
        if not same_origin(socket.scope, allowed_hosts):
            await socket.close(code=1008)          # another site's page may not open a seat's socket
            return
        await socket.accept()
        try:
            await _ws_session(socket, service, limits)
        except (WebSocketDisconnect, WebSocketDisconnected):
            pass        # the client left (even while its move was being stored): not a server error


async def _ws_session(socket: WebSocket, service: GameService, limits: Limits) -> None:
    """One WebSocket: 'hello' (seat token) or 'watch' (game id) first, then acts and pushes."""
    address = socket.client.host if socket.client else "?"

    async def send_error(e: ServiceError) -> None:
        await socket.send_text(json.dumps({"type": "error", **e.body()["error"]}))

    async def receive() -> dict:
        try:
            text = await socket.receive_text()
        except KeyError:        # a binary frame (Starlette finds no "text"): not a crash, a refusal
            raise ServiceError("bad_request", "messages are JSON text frames") from None
        if len(text) > limits.max_body // 4 and len(text.encode("utf-8", "surrogatepass")) > limits.max_body:
            raise ServiceError("too_large", f"message over {limits.max_body} bytes")
        msg = parse_json(text)
        if not isinstance(msg, dict) or not isinstance(msg.get("type"), str):
            raise ServiceError("bad_request", "messages are JSON objects with a 'type'")
        return msg

    live = seat = None
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limits.hello_timeout     # say hello (or watch) in time
    while live is None:
        try:
            first = await asyncio.wait_for(receive(), timeout=max(0.0, deadline - loop.time()))
            if not limits.allow_ip(address):
                raise ServiceError("rate_limited", "too many requests from this address; slow down", 429)
            if first["type"] == "hello":
                if not limits.bad_token_room(address):
                    await send_error(ServiceError("rate_limited", "too many unknown seat tokens from this "
                                                  "address; wait a minute", 429))
                    await socket.close(code=1008)
                    return
                try:
                    live, seat = await service.seat_for(first.get("token"))
                except ServiceError as e:
                    if e.code == "bad_token":
                        limits.bad_token(address)
                    raise
            elif first["type"] == "watch":
                gid = first.get("game_id")
                if not isinstance(gid, str) or len(gid) > 64:
                    raise ServiceError("bad_request", "watch: game_id")
                check_text(gid)
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
            if e.code in ("bad_token", "not_found", "broken_game") or e.message == BAD_UNICODE:
                await socket.close(code=1008)
                return
    sub = service.subscribe(live, seat)
    key = f"tok:{hash_token(first['token'])}" if seat is not None else f"ws:{id(socket)}"

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
                    version = await service.act(live, seat, msg.get("action"), msg.get("version"),
                                                msg.get("client_id"))
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
