"""E-mail notification for asynchronous games (issue 13): "your turn" and "game over".

Only when the server is given SMTP settings (``SmtpSettings``, or the environment variables
``AFFRESCO_SMTP_HOST`` [``_PORT``, ``_FROM``, ``_USER``, ``_PASSWORD``, ``_STARTTLS``] and
``AFFRESCO_PUBLIC_URL`` for the links in the mails); without them nothing is stored and
nothing is sent.  A seat gives (or clears) its address with ``POST /api/me/notify``; the
address is kept in its own table beside the games and is never shown to anyone.

A seat gets "your turn" when it becomes one of the seats to act while none of its pages is
connected (a person watching the page needs no mail), once per turn; every seat with an
address gets "game over" once.  Mails are sent from a worker thread, so a slow or failing
SMTP server never holds up a move; failures are logged.
"""
from __future__ import annotations

import asyncio
import logging
import os
import re
import smtplib
from dataclasses import dataclass
from email.message import EmailMessage
from typing import Any

from sqlalchemy import Column, Integer, MetaData, String, Table, delete, insert, select

log = logging.getLogger("affresco.notify")

EMAIL = re.compile(r"^[^@\s]{1,64}@[^@\s]{1,190}\.[^@\s]{1,60}$")

metadata = MetaData()
addresses = Table(
    "notify_addresses", metadata,
    Column("game_id", String(64), primary_key=True),
    Column("seat", Integer, primary_key=True),
    Column("email", String(320), nullable=False),
    Column("token", String(200), nullable=False),
)


@dataclass(frozen=True)
class SmtpSettings:
    host: str
    port: int = 25
    sender: str = "affresco@localhost"
    username: str | None = None
    password: str | None = None
    starttls: bool = False
    public_url: str = "http://localhost:8000"
    timeout: float = 20.0

    @classmethod
    def from_env(cls, env: dict[str, str] | None = None) -> "SmtpSettings | None":
        """Settings from ``AFFRESCO_SMTP_*``; None when no host is given."""
        env = dict(os.environ if env is None else env)
        host = env.get("AFFRESCO_SMTP_HOST", "").strip()
        if not host:
            return None
        return cls(host=host, port=int(env.get("AFFRESCO_SMTP_PORT", "25")),
                   sender=env.get("AFFRESCO_SMTP_FROM", "affresco@localhost"),
                   username=env.get("AFFRESCO_SMTP_USER") or None, password=env.get("AFFRESCO_SMTP_PASSWORD") or None,
                   starttls=env.get("AFFRESCO_SMTP_STARTTLS", "").lower() in ("1", "true", "yes"),
                   public_url=env.get("AFFRESCO_PUBLIC_URL", "http://localhost:8000").rstrip("/"))


class Notifier:
    """Watches every change of every live game (``on_change``) and mails the seats that asked."""

    def __init__(self, settings: SmtpSettings, engine):
        self.settings = settings
        self.engine = engine
        metadata.create_all(engine)
        self.turns: dict[str, set[int]] = {}     # game -> the seats to act at the last change
        self.ended: set[str] = set()
        self.tasks: set[asyncio.Task] = set()
        self.sent: list[EmailMessage] = []       # what went out (for the log and tests)

    # --- addresses -----------------------------------------------------------------
    def watch(self, live: Any) -> None:
        """Start following ``live`` (the seats to act now are not "new" turns)."""
        if live.id not in self.turns:
            humans = {s.seat for s in live.seats if s.kind == "human"}
            self.turns[live.id] = set(live.game.to_act) & humans if not live.game.is_over else set()

    def set_address(self, game_id: str, seat: int, token: str, email: str | None) -> str | None:
        email = (email or "").strip() or None
        if email is not None and not EMAIL.match(email):
            raise ValueError("email: an e-mail address like name@example.org, or empty to stop")
        with self.engine.begin() as c:
            c.execute(delete(addresses).where(addresses.c.game_id == game_id, addresses.c.seat == seat))
            if email:
                c.execute(insert(addresses).values(game_id=game_id, seat=seat, email=email, token=token))
        return email

    def address(self, game_id: str, seat: int) -> str | None:
        with self.engine.connect() as c:
            return c.execute(select(addresses.c.email).where(addresses.c.game_id == game_id,
                                                              addresses.c.seat == seat)).scalar()

    def _all(self, game_id: str) -> dict[int, tuple[str, str]]:
        with self.engine.connect() as c:
            rows = c.execute(select(addresses.c.seat, addresses.c.email, addresses.c.token)
                             .where(addresses.c.game_id == game_id)).all()
        return {r.seat: (r.email, r.token) for r in rows}

    # --- watching ------------------------------------------------------------------
    def on_change(self, live: Any) -> None:
        """Called by the service after each change of ``live`` (a move, an undo, a connection)."""
        g = live.game
        humans = {s.seat for s in live.seats if s.kind == "human"}
        now = set(g.to_act) & humans if not g.is_over else set()
        before = self.turns.get(live.id)
        self.turns[live.id] = now
        over = g.is_over and live.id not in self.ended
        if over:
            self.ended.add(live.id)
        fresh = now - before if before is not None else set()
        if not fresh and not over:
            return
        connected = {s.seat for s in live.subs if s.seat is not None}
        names = list(g.names)
        ranking, scores = (g.ranking(), g.scores()) if g.is_over else ([], [])
        task = asyncio.get_running_loop().create_task(
            self._mail(live.id, fresh - connected, over, names, ranking, scores))
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    async def _mail(self, game_id: str, turn: set[int], over: bool, names: list[str],
                    ranking: list[int], scores: list[int]) -> None:
        book = await asyncio.to_thread(self._all, game_id)
        messages = []
        for seat in sorted(turn):
            if seat in book:
                email, token = book[seat]
                messages.append(self._message(email, f"Affresco: your turn ({names[seat]})",
                                              f"It is your turn in game {game_id}.\n\nPlay: {self._link(token)}\n"))
        if over:
            name = lambda f: names[f] if f < len(names) else "Leonardo"  # noqa: E731
            table = "\n".join(f"{i + 1}. {name(f)}: {scores[f]} VP" for i, f in enumerate(ranking))
            for seat, (email, token) in sorted(book.items()):
                messages.append(self._message(
                    email, f"Affresco: game over, {name(ranking[0])} wins",
                    f"Game {game_id} is over.\n\n{table}\n\nThe end screen and the replay: {self._link(token)}\n"))
        for m in messages:
            try:
                await asyncio.to_thread(self._send, m)
                self.sent.append(m)
                log.info("mail sent", extra={"event": "mail", "game_id": game_id})
            except (OSError, smtplib.SMTPException) as e:
                log.warning("mail not sent: %s", e, extra={"event": "mail", "game_id": game_id, "error": str(e)})

    def _link(self, token: str) -> str:
        return f"{self.settings.public_url}/#/play/{token}"

    def _message(self, to: str, subject: str, body: str) -> EmailMessage:
        m = EmailMessage()
        m["From"] = self.settings.sender
        m["To"] = to
        m["Subject"] = subject
        m.set_content(body + "\n(You get this because you asked for mails about this game on its page;"
                      " clear the address there to stop.)\n")
        return m

    def _send(self, m: EmailMessage) -> None:
        s = self.settings
        with smtplib.SMTP(s.host, s.port, timeout=s.timeout) as smtp:
            if s.starttls:
                smtp.starttls()
            if s.username:
                smtp.login(s.username, s.password or "")
            smtp.send_message(m)

    async def drain(self) -> None:
        """Wait for the mails under way (at shutdown, and in tests)."""
        while self.tasks:
            await asyncio.gather(*list(self.tasks), return_exceptions=True)


def make_notifier(service: Any, store: Any, smtp: "SmtpSettings | None | bool") -> Notifier | None:
    """The notifier of an app (None: no e-mail).  ``smtp`` None reads the environment."""
    settings = SmtpSettings.from_env() if smtp is None else (smtp or None)
    if not isinstance(settings, SmtpSettings):
        return None
    notifier = Notifier(settings, store.engine)
    service.listeners.append(notifier.on_change)
    return notifier
