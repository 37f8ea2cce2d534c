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
true, so code that checks names against the registry accepts spec strings.
"""
from __future__ import annotations

from typing import Any

from .base import Bot, BotError, ask, play_game
from .greedy import GreedyBot
from .heuristic import HeuristicBot, Weights
from .random_bot import RandomBot
from .search import SearchBot

__all__ = ["BOTS", "Bot", "BotError", "GreedyBot", "HeuristicBot", "RandomBot", "SearchBot", "Weights", "ask",
           "make_bot", "parse_spec", "play_game"]


class _Registry(dict):
    """name -> bot class; ``spec in BOTS`` also accepts a spec string such as ``"search:0.5"``."""

    def __contains__(self, key: object) -> bool:
        if isinstance(key, str) and ":" in key:
            key = key.split(":", 1)[0].strip().lower()
        return dict.__contains__(self, key)


BOTS: dict[str, type[Bot]] = _Registry(random=RandomBot, heuristic=HeuristicBot, greedy=GreedyBot, search=SearchBot)


def _value(text: str) -> Any:
    low = text.strip().lower()
    if low in ("true", "yes", "on"):
        return True
    if low in ("false", "no", "off"):
        return False
    if low in ("none", "null"):
        return None
    for kind in (int, float):
        try:
            return kind(text)
        except ValueError:
            pass
    return text.strip()


def parse_spec(spec: str) -> tuple[str, dict[str, Any]]:
    """``"search:0.5:horizon=1"`` -> ``("search", {"budget": 0.5, "horizon": 1})``."""
    if not isinstance(spec, str):
        raise BotError(f"a bot is named by a string, not {spec!r}")
    name, *parts = spec.split(":")
    options: dict[str, Any] = {}
    for part in parts:
        if not part.strip():
            continue
        if "=" in part:
            key, value = part.split("=", 1)
            options[key.strip().lower()] = _value(value)
        elif "budget" not in options:
            options["budget"] = _value(part)
        else:
            raise BotError(f"bot spec {spec!r}: only one bare value (the budget) is allowed")
    return name.strip().lower(), options


def make_bot(name: str, seed: int | str | None = 0, **options: Any) -> Bot:
    """A bot of the registered kind ``name`` (see :data:`BOTS`) with this seed.

    ``name`` may be a spec string with options (``"search:0.5"``, ``"search:simulations=64"``);
    keyword ``options`` are passed to the bot's constructor too (they win over the spec's).
    """
    kind, spec_options = parse_spec(name) if isinstance(name, str) else (name, {})
    try:
        cls = BOTS[kind]
    except (KeyError, TypeError):
        raise BotError(f"unknown bot {name!r}; bots: {', '.join(sorted(BOTS))}") from None
    spec_options.update(options)
    if "budget" in spec_options:
        budget = spec_options.pop("budget")
        key = getattr(cls, "budget_option", None)
        if key is None:
            raise BotError(f"bot {kind!r} takes no budget (given {budget!r} in {name!r})")
        spec_options.setdefault(key, budget)
    try:
        return cls(seed, **spec_options)
    except TypeError as e:
        raise BotError(f"bot {kind!r}: bad options {spec_options!r} ({e})") from None
