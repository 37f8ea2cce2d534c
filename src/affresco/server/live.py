"""Live games in memory: the engine game, who is connected, and what each seat is sent.

A seat sees only ``Game.view(seat)``; every payload sent to a seat is built from that view
alone, so no hidden item can reach it before the rules reveal it (R22).  A change only pokes
the subscribers; a payload is built when a socket is ready to send (a slow client skips
intermediate versions) and cached per version.

Presence (which seats have a socket open) is pushed as a small ``presence`` message, only when
the set of connected seats changed, at most once per ``PRESENCE_DELAY``: spectators coming and
going push nothing.
"""
from __future__ import annotations

import asyncio
import time
from dataclasses import dataclass, field
from typing import Any, Callable, Sequence

import msgspec

from .. import Action, Game
from ..rules import PlanVariants
from .store import SeatInfo

__all__ = ["LiveGame", "Subscriber", "LOG_TAIL", "PRESENCE_DELAY"]

_JSON = msgspec.json.Encoder()      # several times faster than json.dumps on the state payloads
_TEXTS: dict[int, tuple[PlanVariants, list[str]]] = {}   # id -> (the lazy plans, their notation)


def legal_texts(legal: Sequence[Action]) -> list[str]:
    """The notation of the legal actions.  The medico's lazy plans (up to ~110,000, the same
    object for the same situation) are written once and kept for the pushes that follow."""
    if type(legal) is not PlanVariants:
        return [str(a) for a in legal]
    hit = _TEXTS.get(id(legal))
    if hit is None or hit[0] is not legal:
        if len(_TEXTS) >= 4:
            _TEXTS.pop(next(iter(_TEXTS)))
        hit = _TEXTS[id(legal)] = (legal, [str(a) for a in legal])
    return hit[1]
LOG_TAIL = 40
PRESENCE_DELAY = 0.25


class Subscriber:
    """One WebSocket.  A change only pokes it; the payload is built when the socket is ready
    to send.  The first payload, and any asked for, carries the whole log; later ones its tail."""

    def __init__(self, seat: int | None, render: Callable[[int | None, bool], str], presence: Callable[[], str]):
        self.seat = seat
        self.render, self.presence = render, presence
        self.full = True
        self.state_due = True
        self.presence_due = False
        self.event = asyncio.Event()
        self.event.set()                  # the first state is due at once

    def poke(self, full: bool = False) -> None:
        self.full = self.full or full
        self.state_due = True
        self.event.set()

    def poke_presence(self) -> None:
        self.presence_due = True
        self.event.set()

    async def next(self) -> str:
        while True:
            await self.event.wait()
            self.event.clear()
            if self.state_due:            # a state carries presence too
                full, self.full = self.full, False
                self.state_due = self.presence_due = False
                return self.render(self.seat, full)
            if self.presence_due:
                self.presence_due = False
                return self.presence()


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
    cache: dict[Any, str] = field(default_factory=dict)   # (seat, full) -> payload JSON at this version
    bot_task: asyncio.Task | None = None
    recent: list[tuple[int, int, str]] = field(default_factory=list)   # (version, seat, kind), latest moves
    events: dict[Any, tuple[Any, list[dict]]] = field(default_factory=dict)  # seat -> (mark, events)
    abandoned: bool = False                            # stalled past the round limit: no more moves
    shown: tuple[bool, ...] = ()                       # the connected flags last pushed
    presence_task: asyncio.Task | None = None
    refresh_task: asyncio.Task | None = None           # reloading moves another process made

    @property
    def humans(self) -> list[int]:
        return [s.seat for s in self.seats if s.kind == "human"]

    def connected(self) -> list[bool]:
        here = {s.seat for s in self.subs if s.seat is not None}
        return [s.kind == "bot" or s.seat in here for s in self.seats]

    # --- changes -------------------------------------------------------------------
    def changed(self) -> None:
        """The game moved: every subscriber gets the new state when it is ready."""
        self.cache.clear()
        self.shown = tuple(self.connected())
        for sub in list(self.subs):
            sub.poke()

    def presence_changed(self) -> None:
        """A socket opened or closed: push the connected flags if they changed, coalesced
        (states built from now on carry the new flags)."""
        self.cache.clear()
        if self.presence_task is None or self.presence_task.done():
            self.presence_task = asyncio.get_running_loop().create_task(self._push_presence())

    async def _push_presence(self) -> None:
        await asyncio.sleep(PRESENCE_DELAY)
        now = tuple(self.connected())
        if now == self.shown:
            return
        self.shown = now
        for sub in list(self.subs):
            sub.poke_presence()

    def presence_message(self) -> str:
        return _JSON.encode({"type": "presence", "version": self.version, "connected": list(self.shown)}).decode()

    # --- what a seat sees ----------------------------------------------------------
    def undo_target(self, seat: int | None) -> int | None:
        """How many actions to keep if ``seat`` undoes its last move, or None.  Only in a game
        where every other seat is a bot, and only back to a point after which no new
        information came out (R22: an undo may not let a player see a draw and take it back)."""
        if seat is None or self.seats[seat].kind != "human" or len(self.humans) != 1:
            return None
        if self.game.is_over or self.abandoned:   # the record (seed, every hidden item) is open once over
            return None
        for i in range(len(self.acts) - 1, -1, -1):
            s, _, rev = self.acts[i]
            if rev:
                return None
            if s == seat:
                return i
        return None

    def payload(self, seat: int | None, full: bool = True) -> str:
        """The STATE message for ``seat`` as JSON text, cached per version.  ``full``: the
        whole log; otherwise its last ``LOG_TAIL`` events (pushes: the client keeps the rest)."""
        key = (seat, full)
        text = self.cache.get(key)
        if text is None:
            text = _JSON.encode(self.message(seat, full)).decode()
            self.cache[key] = text
        return text

    def _events(self, seat: int | None) -> list[dict]:
        """The seat's events (``Game.events_since``), followed incrementally."""
        mark, evs = self.events.get(seat, (None, []))
        new, mark = self.game.events_since(seat, mark)
        if new is None:                       # an undo: the events no longer extend what we had
            new, mark = self.game.events_since(seat, None)
            evs = []
        evs.extend(new)
        self.events[seat] = (mark, evs)
        return evs

    def message(self, seat: int | None, full: bool = True) -> dict[str, Any]:
        g = self.game
        view = g.view(seat, log=False)
        evs = self._events(seat)
        first = 0 if full else max(0, len(evs) - LOG_TAIL)
        over = g.is_over
        connected = self.connected()
        figures = view["figures"]
        return {
            "type": "state",
            "game_id": self.id,
            "seat": seat,
            "version": self.version,
            "names": list(g.names),
            "seats": [{**s.public(), "connected": c} for s, c in zip(self.seats, connected)],
            "setup": {"players": [s.name for s in self.seats], "modules": list(self.setup.get("modules", [])),
                      "options": dict(self.setup.get("options", {}))},
            "view": view,
            "legal": legal_texts(g.legal_actions(seat)) if seat is not None and not self.abandoned else [],
            "to_act": list(g.to_act),
            "committed": [bool(figures[s.seat].get("plan_committed")) for s in self.seats],
            "undo": self.undo_target(seat) is not None,
            "is_over": over,
            "abandoned": self.abandoned,
            "scores": g.scores() if over else None,
            "ranking": g.ranking() if over else None,
            "events": [{"i": i, **evs[i]} for i in range(first, len(evs))],
            "events_total": len(evs),
        }
