"""GreedyBot: the registry name ``greedy``, kept for existing callers (the terminal client's
default opponent, tournaments): it plays exactly as :class:`~affresco.bots.heuristic.HeuristicBot`
(see there and docs/bots.md), whose :class:`Weights` it shares."""
from __future__ import annotations

from .heuristic import DEFAULT_WEIGHTS, HeuristicBot, Horizon, Weights

__all__ = ["GreedyBot", "Weights", "DEFAULT_WEIGHTS", "Horizon"]


class GreedyBot(HeuristicBot):
    """HeuristicBot under its former name."""

    name = "greedy"
