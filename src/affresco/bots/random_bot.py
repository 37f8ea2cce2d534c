"""RandomBot: a uniformly random legal action (seeded, so deterministic)."""
from __future__ import annotations

from typing import Any, Mapping, Sequence

from ..rules import Action
from .base import Bot

__all__ = ["RandomBot"]


class RandomBot(Bot):
    """Chooses uniformly among the legal actions."""

    name = "random"
    reads_view = False

    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
        return legal[self.rng.randrange(len(legal))]
