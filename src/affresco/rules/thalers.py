"""Thalers a player earns (studio, income, portraits, favour tokens...).

R10: money earned while a bell certificate is partly paid goes onto it first; modules take
their part through the ``thalers_earned`` hook, and the rest reaches the player's money.
"""
from __future__ import annotations

from .state import State


def earn(s: State, seat: int, amount: int) -> int:
    """``seat`` earns ``amount`` Thalers; return how many reach the player's money."""
    if amount <= 0 or seat >= s.n:
        return 0
    for hook in s.hooks.thalers_earned:
        amount = hook(s, seat, amount)
    s.thalers[seat] += amount
    return amount
