"""The bot interface and the loop that lets bots play a game to the end.

A bot sees exactly what a person in its seat would see: ``game.view(seat)`` and
``game.legal_actions(seat)``.  It never reads the raw state.  A bot is built with a seed and
is deterministic for it: the same seed and the same sequence of questions give the same
answers.
"""
from __future__ import annotations

import random
from abc import ABC, abstractmethod
from typing import Any, Callable, ClassVar, Mapping, Protocol, Sequence

from mypy_extensions import mypyc_attr

from ..errors import FrescoError, IllegalAction
from ..rules import Action, Game

__all__ = ["Bot", "BotError", "Player", "play_game", "ask"]


class BotError(FrescoError):
    """A bot answered with something that is not one of the legal actions offered to it,
    or a game did not end within the allowed number of actions."""


@mypyc_attr(allow_interpreted_subclasses=True)  # the compiled build: pure bots subclass it (docs/compiled.md)
class Bot(ABC):
    """A player that chooses one of the legal actions from what its seat may see.

    Subclasses set :attr:`name` (the registry key) and implement :meth:`choose`.
    ``self.rng`` is a :class:`random.Random` seeded from the bot's name and ``seed``; use it
    for every random choice so the bot stays deterministic.
    """

    name: ClassVar[str] = "bot"
    # False for a bot whose choose() never reads its view (callers may then pass {})
    reads_view: ClassVar[bool] = True

    def __init__(self, seed: int | str | None = 0):
        self.seed = seed
        self.rng = random.Random(f"affresco-bot:{self.name}:{seed}")

    @abstractmethod
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
        """Return one element of ``legal`` (never empty) for ``seat``, given ``view`` =
        ``game.view(seat)``.  In a 2-player game the decision may be Leonardo's: then
        ``view['actor']`` (or ``view['pending_track']['figure']``) names him."""

    def __repr__(self) -> str:
        return f"{type(self).__name__}(seed={self.seed!r})"


class Player(Protocol):
    """What :func:`ask` and :func:`play_game` need of a seat's player: a :class:`Bot`, or any
    object with its ``choose`` (a wrapper that records or filters a bot's choices).  The answer
    may also be the action's notation."""

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action | str: ...


def ask(bot: Player, game: Game, seat: int) -> Action:
    """Ask ``bot`` for the action of ``seat`` now and check that it is one of the legal ones."""
    legal = game.legal_actions(seat)
    if not legal:
        raise BotError(f"seat {seat} has no legal action now")
    choice = bot.choose(game.view(seat), list(legal), seat)
    if isinstance(choice, str):
        from ..rules import parse
        choice = parse(choice)
    if choice not in legal:
        raise BotError(f"{bot!r} for seat {seat} chose {str(choice)!r}, which is not legal")
    return choice


def _bots_by_seat(game: Game, bots: Mapping[int, Player] | Sequence[Player]) -> dict[int, Player]:
    if isinstance(bots, Mapping):
        table = dict(bots)
    else:
        table = dict(enumerate(bots))
    missing = [seat for seat in range(game.players) if seat not in table]
    if missing:
        raise BotError(f"no bot for seat(s) {missing}; a {game.players}-player game needs one per seat")
    return table


def play_game(game: Game, bots: Mapping[int, Player] | Sequence[Player], *, max_actions: int | None = 100_000,
              on_action: Callable[[int, Action], None] | None = None) -> Game:
    """Let the bots play ``game`` to its end (in place) and return it.

    bots: one bot per seat, as a list (index = seat) or a dict seat -> bot.  While planning,
    several seats are to act: each is asked in seat order (no one sees another's plan).
    ``on_action(seat, action)`` is called after every action.  Raises :class:`BotError` if a
    bot answers with an illegal action or the game is not over after ``max_actions``.
    """
    table = _bots_by_seat(game, bots)
    done = 0
    while not game.is_over:
        acting = game.to_act
        if not acting:  # pragma: no cover - the engine always has someone to act until the end
            raise BotError(f"nobody is to act but the game is not over: {game!r}")
        for seat in sorted(acting):
            if seat not in game.to_act:
                continue
            action = ask(table[seat], game, seat)
            try:
                game.apply(seat, action)
            except IllegalAction as e:  # pragma: no cover - ask() checked legality
                raise BotError(f"{table[seat]!r}: {e}") from None
            done += 1
            if on_action is not None:
                on_action(seat, action)
            if max_actions is not None and done >= max_actions and not game.is_over:
                raise BotError(f"the game is not over after {done} actions")
    return game
