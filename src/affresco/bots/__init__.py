"""Bots: computer players that see only what their seat may see.

    >>> import affresco
    >>> from affresco.bots import make_bot, play_game
    >>> g = affresco.new_game(players=3, seed=7)
    >>> play_game(g, [make_bot("greedy", seed=1), make_bot("random", seed=2), make_bot("random", seed=3)]).is_over
    True

A bot implements :meth:`Bot.choose` ``(view, legal, seat) -> Action`` where ``view`` is
``game.view(seat)`` and ``legal`` is ``game.legal_actions(seat)``.  Bots are deterministic
for their seed.
"""
from __future__ import annotations

from .base import Bot, BotError, ask, play_game
from .greedy import GreedyBot, Weights
from .random_bot import RandomBot

__all__ = ["BOTS", "Bot", "BotError", "GreedyBot", "RandomBot", "Weights", "ask", "make_bot", "play_game"]

BOTS: dict[str, type[Bot]] = {"random": RandomBot, "greedy": GreedyBot}
from .search import SearchBot; BOTS["search"] = SearchBot  # noqa: E402,E702


def make_bot(name: str, seed: int | str | None = 0) -> Bot:
    """A bot of the registered kind ``name`` (see :data:`BOTS`) with this seed."""
    try:
        cls = BOTS[name.strip().lower()]
    except (KeyError, AttributeError):
        raise BotError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    return cls(seed)
