"""Round preparation and income; the start of a round with its end check (R2, R5, R10, R11)."""
from __future__ import annotations

from . import house, market, scoring
from .chance import chance
from .thalers import earn
from .state import GETUP, OVER, State, start_pos


def income(s: State) -> None:
    """R10: 1 Thaler per face-down fresco tile, plus module income.  Leonardo has none."""
    per = s.comp.rules["income"]["thalers_per_tile"]
    hooks = s.hooks.income
    for seat in range(s.n):
        gained = per * len(s.tiles[seat])
        for hook in hooks:
            gained += hook(s, seat)
        if gained:
            earn(s, seat, gained)
            s.add_event({"kind": "income", "figure": seat, "amount": gained})


def rotate_start_spaces(s: State) -> None:
    """R2 (revised): 'The first one is moved to the end of the line and the others are moved one
    space forward.'  S1 is the last position, so the first one is the figure on the highest
    occupied start space: it goes to S1, and every other figure on a start space moves one start
    space forward, towards the track (S1 to S2, S2 to S3, ...)."""
    waiting = sorted((f for f in range(s.figures) if s.pos[f] <= 0), key=lambda f: s.pos[f])
    if len(waiting) < 2:
        return
    for f in waiting[:-1]:
        s.pos[f] += 1
    s.pos[waiting[-1]] = start_pos(1)


def end_round(s: State) -> None:
    if s.final:
        scoring.final_scoring(s)
        s.phase = OVER
        s.add_event({"kind": "game_over"})
        return
    rng = chance(s)
    market.fill(s, rng)
    income(s)
    for hook in s.hooks.round_preparation:
        hook(s, rng)
    s.getup = [-1] * s.figures
    rotate_start_spaces(s)
    s.round += 1
    s.plan = [None] * s.figures
    if s.leonardo is not None:
        s.leo_ctrl = 1 - s.leo_ctrl
    start_round(s)


def start_round(s: State) -> None:
    """R11: the final round is checked at the start of a round (with the house rule
    ``max_rounds``, also by its number)."""
    if (s.tiles_on_board() <= s.comp.rules["end"]["final_round_tiles_left"]
            or any(hook(s) for hook in s.hooks.is_final_round) or house.last_round(s)):
        s.final = s.side2 = True
    s.phase = GETUP
    s.actor = -1
    s.add_event({"kind": "round_begins", "final": s.final})
