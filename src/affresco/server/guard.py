"""What stands between the internet and the game service: limits, timeouts, headers, origins.

- ``Limits``: body size, token-bucket rates (per seat token, per client address, failed seat
  tokens per address), game creation per address, header/body/idle timeouts, connections per
  client address.  docs/server.md ("Security") lists them with their ``affresco serve`` options.
- ``client_address``: the peer address, or the ``X-Forwarded-For`` client when (and only when)
  the peer is a configured trusted proxy.
- ASGI middleware (``Guard``): the client address, allowed ``Host`` values, security headers
  (CSP, frame-ancestors, nosniff, Referrer-Policy), body size and body timeout (408), and a
  client that hangs up mid-body is not an error.
- ``guarded_h11``: uvicorn's HTTP/1.1 protocol with a header timeout and a cap on open
  connections per client address.
"""
from __future__ import annotations

import asyncio
import ipaddress
import json
import logging
import time
from dataclasses import dataclass
from typing import Any, Iterable

__all__ = ["Limits", "Guard", "client_address", "guarded_h11", "same_origin", "Proxies", "SECURITY_HEADERS"]

log = logging.getLogger("affresco.server")

CSP = ("default-src 'self'; script-src 'self'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; "
       "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; form-action 'self'; "
       "frame-ancestors 'none'")
SECURITY_HEADERS = [
    (b"content-security-policy", CSP.encode()),
    (b"x-frame-options", b"DENY"),
    (b"x-content-type-options", b"nosniff"),
    (b"referrer-policy", b"no-referrer"),
    (b"cross-origin-opener-policy", b"same-origin"),
]


@dataclass
class Limits:
    """Every limit of the server (docs/server.md, "Security").  Times in seconds."""

    max_body: int = 16_384          # request body / WebSocket message bytes
    rate: float = 20.0              # requests per second per seat token (burst: ``burst``)
    burst: int = 60
    create_per_minute: int = 30     # new games per client address (burst 10)
    ip_rate: float | None = None    # requests per second per client address (default: 2 x rate)
    ip_burst: int | None = None     # (default: 2 x burst)
    bad_tokens_per_minute: int = 30  # failed seat tokens per client address (burst 20)
    header_timeout: float = 10.0    # a request's headers must arrive within this
    body_timeout: float = 15.0      # ... and its body within this after them (408)
    keep_alive: float = 5.0         # an idle keep-alive connection is closed after this
    hello_timeout: float = 15.0     # a WebSocket must say hello (or watch) within this
    conns_per_client: int = 64      # open connections (HTTP and WebSocket) per client address
    max_connections: int = 4096     # open connections in all (503 beyond)

    def __post_init__(self) -> None:
        self.create_rate = self.create_per_minute / 60.0
        self.create_burst = 10          # a burst of 10 new games, then create_per_minute
        if self.ip_rate is None:
            self.ip_rate = 2 * self.rate
        if self.ip_burst is None:
            self.ip_burst = 2 * self.burst
        self._buckets: dict[str, tuple[float, float]] = {}

    def level(self, key: str, rate: float, burst: float) -> float:
        now = time.monotonic()
        level, at = self._buckets.get(key, (float(burst), now))
        return min(float(burst), level + (now - at) * rate)

    def allow(self, key: str, rate: float | None = None, burst: float | None = None) -> bool:
        """Take one token from ``key``'s bucket (False: none left, nothing taken)."""
        rate = self.rate if rate is None else rate
        burst = self.burst if burst is None else burst
        now = time.monotonic()
        level = self.level(key, rate, burst)
        if level < 1:
            self._buckets[key] = (level, now)
            return False
        self._buckets[key] = (level - 1, now)
        if len(self._buckets) > 100_000:      # forget idle keys
            self._buckets = {k: v for k, v in self._buckets.items() if now - v[1] < 60}
        return True

    def allow_ip(self, address: str) -> bool:
        return self.allow(f"ip:{address}", self.ip_rate, self.ip_burst)

    def bad_token_room(self, address: str) -> bool:
        """May this address try a seat token now (it has not failed too often)?"""
        return self.level(f"bad:{address}", self.bad_tokens_per_minute / 60.0, 20) >= 1

    def bad_token(self, address: str) -> None:
        self.allow(f"bad:{address}", self.bad_tokens_per_minute / 60.0, 20)


class Proxies:
    """The configured trusted proxies (addresses or networks); empty: trust none."""

    def __init__(self, entries: Iterable[str] = ()):
        self.nets = [ipaddress.ip_network(e.strip(), strict=False) for e in entries if e.strip()]

    def __bool__(self) -> bool:
        return bool(self.nets)

    def trusts(self, address: str) -> bool:
        try:
            ip = ipaddress.ip_address(address)
        except ValueError:
            return False
        return any(ip in n for n in self.nets)


def client_address(scope: dict, proxies: Proxies) -> str:
    """The client's address: the peer, unless the peer is a trusted proxy; then the rightmost
    address of ``X-Forwarded-For`` that is not itself a trusted proxy."""
    peer = scope["client"][0] if scope.get("client") else "?"
    if not proxies or not proxies.trusts(peer):
        return peer
    hops = []
    for name, value in scope.get("headers") or []:
        if name == b"x-forwarded-for":
            hops += [h.strip() for h in value.decode("latin-1").split(",") if h.strip()]
    for hop in reversed(hops):
        if not proxies.trusts(hop):
            return hop
    return hops[0] if hops else peer


def _header(scope: dict, name: bytes) -> str | None:
    for k, v in scope.get("headers") or []:
        if k == name:
            return v.decode("latin-1")
    return None


def same_origin(scope: dict, allowed_hosts: Iterable[str] = ()) -> bool:
    """Is the request's ``Origin`` (if any) this server itself (its ``Host``, or an allowed host)?
    Requests without ``Origin`` (programs, not browsers) pass."""
    origin = _header(scope, b"origin")
    if origin is None:
        return _header(scope, b"sec-fetch-site") not in ("cross-site", "same-site")
    host = origin.split("://", 1)[-1].rstrip("/").lower()
    here = (_header(scope, b"host") or "").lower()
    return bool(host) and (host == here or host.split(":")[0] in {h.lower() for h in allowed_hosts})


class _TooLarge(Exception):
    pass


class _BodyTimeout(Exception):
    pass


async def _send_json(send, status: int, code: str, message: str, close: bool = False) -> None:
    body = json.dumps({"error": {"code": code, "message": message}}).encode()
    headers = [(b"content-type", b"application/json"), (b"content-length", str(len(body)).encode())]
    if close:
        headers.append((b"connection", b"close"))
    await send({"type": "http.response.start", "status": status, "headers": headers + SECURITY_HEADERS})
    await send({"type": "http.response.body", "body": body})


class Guard:
    """ASGI middleware in front of the app (see the module docstring)."""

    def __init__(self, app, limits: Limits, proxies: Proxies, allowed_hosts: Iterable[str] = ()):
        self.app, self.limits, self.proxies = app, limits, proxies
        self.allowed_hosts = {h.lower() for h in allowed_hosts}

    def host_ok(self, scope: dict) -> bool:
        if not self.allowed_hosts:
            return True
        host = (_header(scope, b"host") or "").lower()
        if host.startswith("["):
            host = host[:host.find("]") + 1]
        else:
            host = host.split(":")[0]
        return host in self.allowed_hosts

    async def __call__(self, scope, receive, send):
        if scope["type"] not in ("http", "websocket"):
            return await self.app(scope, receive, send)
        scope = dict(scope)
        address = client_address(scope, self.proxies)
        scope["client"] = (address, scope["client"][1] if scope.get("client") else 0)
        if not self.host_ok(scope):
            if scope["type"] == "websocket":
                return await send({"type": "websocket.close", "code": 1008})
            return await _send_json(send, 400, "bad_host", "this server does not answer for that host name")
        if scope["type"] == "websocket":
            return await self.app(scope, receive, send)

        async def send_secure(message):
            if message["type"] == "http.response.start":
                names = {k.lower() for k, _ in message.get("headers", [])}
                message = {**message, "headers": list(message.get("headers", []))
                           + [(k, v) for k, v in SECURITY_HEADERS if k not in names]}
            await send(message)

        limit = self.limits.max_body
        length = _header(scope, b"content-length")
        if length is not None and (not length.isdigit() or int(length) > limit):
            return await _send_json(send, 413, "too_large", f"request body over {limit} bytes", close=True)
        seen = 0
        done = False
        deadline = asyncio.get_running_loop().time() + self.limits.body_timeout

        async def limited():
            nonlocal seen, done
            if done:
                return await receive()
            try:
                message = await asyncio.wait_for(receive(), max(0.0, deadline - asyncio.get_running_loop().time()))
            except asyncio.TimeoutError:
                raise _BodyTimeout() from None
            if message["type"] == "http.request":
                seen += len(message.get("body", b""))
                if seen > limit:
                    raise _TooLarge()
                done = not message.get("more_body", False)
            else:
                done = True
            return message

        try:
            await self.app(scope, limited, send_secure)
        except _TooLarge:
            await _send_json(send, 413, "too_large", f"request body over {limit} bytes", close=True)
        except _BodyTimeout:
            log.info("request body too slow", extra={"event": "body_timeout", "path": scope.get("path")})
            await _send_json(send, 408, "timeout", f"the request body did not arrive within "
                             f"{self.limits.body_timeout:g} s", close=True)


def guarded_h11(limits: Limits, proxies: Proxies):
    """uvicorn's h11 protocol class, with a header timeout and a per-address connection cap
    (trusted proxies are not capped: they carry many clients)."""
    from uvicorn.protocols.http.h11_impl import H11Protocol

    open_by: dict[str, set] = {}

    class GuardedH11(H11Protocol):
        _header_timer: asyncio.TimerHandle | None = None

        def connection_made(self, transport) -> None:  # type: ignore[override]
            super().connection_made(transport)
            host = self.client[0] if self.client else "?"
            conns = open_by.setdefault(host, set())
            for t in [t for t in conns if t.is_closing()]:
                conns.discard(t)
            if len(open_by) > 10_000:
                for h in [h for h, c in open_by.items() if not c]:
                    del open_by[h]
            if len(conns) >= limits.conns_per_client and not proxies.trusts(host):
                log.info("too many connections from one address", extra={"event": "conn_cap"})
                transport.abort()
                return
            conns.add(transport)
            self._arm()

        def _arm(self) -> None:
            if self._header_timer is None:
                self._header_timer = self.loop.call_later(limits.header_timeout, self._headers_late)

        def _disarm(self) -> None:
            if self._header_timer is not None:
                self._header_timer.cancel()
                self._header_timer = None

        def _headers_late(self) -> None:
            self._header_timer = None
            if (self.cycle is None or self.cycle.response_complete) and not self.transport.is_closing():
                self.transport.close()

        def data_received(self, data: bytes) -> None:
            if self.cycle is None or self.cycle.response_complete:
                self._arm()                      # a new request starts: its headers are due
            cycle = self.cycle
            super().data_received(data)
            if self.cycle is not cycle or self.transport.get_protocol() is not self:
                self._disarm()                   # headers complete (or upgraded to a WebSocket)

        def connection_lost(self, exc) -> None:
            self._disarm()
            super().connection_lost(exc)

    return GuardedH11
