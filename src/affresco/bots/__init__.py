"""Bots: computer players that see only what their seat may see.

    >>> import affresco
    >>> from affresco.bots import make_bot, play_game
    >>> g = affresco.new_game(players=3, seed=7)
    >>> play_game(g, [make_bot("heuristic", seed=1), make_bot("random", seed=2), make_bot("random", seed=3)]).is_over
    True

A bot implements :meth:`Bot.choose` ``(view, legal, seat) -> Action`` where ``view`` is
``game.view(seat)`` and ``legal`` is ``game.legal_actions(seat)``.  Bots are deterministic
for their seed (SearchBot: for its seed and a fixed ``simulations`` count).

Registered bots (:data:`BOTS`): ``random``, ``heuristic`` (``greedy`` is the same player under
its former name) and ``search``.  :func:`make_bot` also takes options, as keywords
(``make_bot("search", 1, seconds=0.5)``) or in a spec string: ``"search:0.5"`` (a bare
number is the bot's budget, for SearchBot its seconds per decision),
``"search:simulations=200"``, ``"search:seconds=2:horizon=1"``.  ``"search:0.5" in BOTS`` is
true, so code that checks names against the registry accepts spec strings.  :func:`bot_menu`
lists the bots for people (names, titles, descriptions, options); ``bots/specs.py`` is the one
parser of spec strings.
"""
from __future__ import annotations

from typing import Any

from .base import Bot, BotError, ask, play_game
from .greedy import GreedyBot
from .heuristic import HeuristicBot, Weights
from .random_bot import RandomBot
from .search import SearchBot
from .specs import KINDS, BotKind, BotSpec, bot_menu, parse_spec

__all__ = ["BOTS", "KINDS", "Bot", "BotError", "BotKind", "BotSpec", "GreedyBot", "HeuristicBot", "RandomBot",
           "SearchBot", "Weights", "ask", "bot_menu", "make_bot", "parse_spec", "play_game"]


class _Registry(dict):
    """name -> bot class; ``spec in BOTS`` also accepts a spec string such as ``"search:0.5"``."""

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str) and ":" in key:
            key = key.split(":", 1)[0].strip().lower()
        return dict.__contains__(self, key)


BOTS: dict[str, type[Bot]] = _Registry({name: kind.factory for name, kind in KINDS.items()})


def make_bot(name: str | BotSpec, seed: int | str | None = 0, **options: Any) -> Bot:
    """A bot of the registered kind ``name`` (see :data:`KINDS`) with this seed.

    ``name`` may be a spec string with options (``"search:0.5"``, ``"search:simulations=64"``,
    parsed by :func:`parse_spec`); keyword ``options`` are passed to the bot's constructor too
    (they win over the spec's).
    """
    return parse_spec(name).make(seed, **options)
