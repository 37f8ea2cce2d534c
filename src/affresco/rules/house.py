"""House rules: declared, named options of the base game that no rulebook prints.

``max_rounds`` (a whole number >= 1, default none): the round with that number is the final
round (R11: played on side 2, then final scoring, R12), however many fresco tiles are left.
It bounds a game that would otherwise never end (players who never restore: issue #15 item 2);
a server sets it for the games it hosts and every view shows it (``view["house_rules"]``).
"""
from __future__ import annotations

from typing import Any

from ..errors import ConfigError
from .state import State

HOUSE_RULES: dict[str, str] = {
    "max_rounds": "the round with this number is the final round (a whole number >= 1)",
}


def check(name: str, value: Any) -> None:
    """Raise ConfigError unless ``value`` is a valid setting of the house rule ``name``."""
    if name == "max_rounds":
        if isinstance(value, bool) or not isinstance(value, int) or value < 1:
            raise ConfigError(f"house rule max_rounds: {value!r}: {HOUSE_RULES['max_rounds']}")


def in_play(s: State) -> dict[str, Any]:
    """The house rules of this game (public)."""
    return {k: v for k, v in s.options if k in HOUSE_RULES}


def last_round(s: State) -> bool:
    """R11 with ``max_rounds``: this round is the last one allowed."""
    limit = dict(s.options).get("max_rounds")
    return limit is not None and s.round >= limit
