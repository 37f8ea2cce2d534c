"""The seat's extra endpoints of the web client (issue 13), kept apart from the core routes:
what each scoring choice would score (bots/preview.py) and e-mail notification (notify.py)."""
from __future__ import annotations

import asyncio
from typing import Any, Awaitable, Callable

from fastapi import FastAPI, Request

from .notify import Notifier
from ..bots.preview import previews
from .service import ServiceError


def add_seat_extras(app: FastAPI, *, seat_of: Callable[[Request], Awaitable[Any]],
                    body_of: Callable[[Request], Awaitable[Any]], bearer: Callable[[Request], str | None],
                    notifier: Notifier | None) -> None:
    """``seat_of``/``body_of``/``bearer``: the app's own helpers (authentication, JSON body)."""

    @app.get("/api/me/preview")
    async def preview(request: Request):
        """What each of the seat's scoring choices would score now (bots/preview.py)."""
        live, seat = await seat_of(request)
        game, version = live.game, live.version
        return {"version": version, "previews": await asyncio.to_thread(previews, game, seat)}

    @app.get("/api/me/notify")
    async def notify_get(request: Request):
        """Whether this server mails, and the address this seat gave (server/notify.py)."""
        live, seat = await seat_of(request)
        email = await asyncio.to_thread(notifier.address, live.id, seat) if notifier else None
        return {"enabled": notifier is not None, "email": email}

    @app.post("/api/me/notify")
    async def notify_set(request: Request):
        """``{"email": "..."}`` mails this seat "your turn" and "game over"; empty stops."""
        live, seat = await seat_of(request)
        body = await body_of(request)
        if notifier is None:
            raise ServiceError("not_enabled", "this server sends no e-mail (no SMTP settings)", 409)
        if not isinstance(body, dict) or not isinstance(body.get("email"), (str, type(None))):
            raise ServiceError("bad_request", 'the body must be {"email": "name@example.org"} or {"email": ""}')
        notifier.watch(live)
        try:
            email = await asyncio.to_thread(notifier.set_address, live.id, seat, bearer(request), body.get("email"))
        except ValueError as e:
            raise ServiceError("bad_request", str(e)) from None
        return {"enabled": True, "email": email}
