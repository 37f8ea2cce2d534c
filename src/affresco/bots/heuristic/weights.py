"""The numbers of HeuristicBot (:class:`Weights`, documented in docs/bots.md) and what its
paints are still good for at a point of the round (:class:`Horizon`)."""
from __future__ import annotations

from dataclasses import dataclass
from typing import NamedTuple

__all__ = ["DEFAULT_WEIGHTS", "NEVER", "Horizon", "Weights"]


@dataclass(frozen=True)
class Weights:
    """Every number HeuristicBot uses (values in VP unless said otherwise)."""

    # --- what things are worth -------------------------------------------------------
    thaler: float = 0.5            # a Thaler: 2 Thalers make 1 VP in final scoring
    thaler_reserve: float = 0.35   # extra worth of each of the first `reserve` Thalers (they buy paints)
    reserve: int = 6               # Thalers kept as a float for next round's market
    future: float = 0.7            # share of the VP of tiles the paints could restore later
    targets: int = 3               # how many later restorations that potential counts
    blend_penalty: float = 0.6     # less per blend such a restoration still needs (workshop, time)
    bishop_future: float = 0.4     # share of the bishop bonus counted for later restorations
    piece: float = 0.3             # a paint piece not needed by those tiles (blended: x2); fades near the end
    mood_step: float = 0.35        # one space higher on the mood display (later rounds)
    mood_zone: float = 1.2         # next round's mood zone (+1/-1) at the end of this round
    early: float = 0.25            # per figure acting after me (first choice of booth and tiles)
    deny: float = 0.25             # per paint piece of a booth closed before an opponent buys there
    # --- planning thresholds -----------------------------------------------------------
    low_money: int = 5             # fewer Thalers than this after the market: send apprentices to the studio
    theater_mood: int = 4          # mood index (0 = top of the display) from which the theater is planned
    altar_tiles_left: int = 9      # the altar is planned when at most this many fresco tiles remain
    tiles_per_round: float = 2.6   # fresco tiles restored per round (all figures), to estimate the rounds left
    # --- modules -------------------------------------------------------------------------
    favour: float = 0.9            # expected worth of a bishop's favour token (restoring under the bishop)
    portrait_risk: float = 0.8     # share of a displayed portrait's worth counted when planning (others may take it)
    abbot: float = 0.8             # Abbot: per restoration with a bishop bonus expected in the rounds left
    restorations_per_round: float = 1.3  # my restorations per round, for the Abbot
    sexton: float = 1.0            # Sexton: per round left (a free choice of the bishop's square)
    actor: float = 0.3             # Actor: per round left (theater +3 instead of +2)
    request_paint: float = 0.6     # a paint a request pays at each income
    request_keep: float = 0.15     # per splash of the tiles stacked under a general request (kept for special ones)
    scroll_keep: float = 0.45      # share of a line's best scroll VP that keeping the scroll is worth
    scroll_chance: float = 0.6     # how much an unrestored segment of the line counts in that best VP
    wall_paint: float = 0.55       # wall fresco: a basic paint cube at each income (a wall tile of a new colour)
    wall_spare_tile: float = 0.05  # wall fresco: per income, a wall tile of a colour I already receive (exchanges, requests)
    wall_blend: float = 0.9        # wall fresco: a blended cube at each income (an exchange tile)
    wall_plan_share: float = 0.8   # share of the best wall restoration counted when planning (others may take it)
    wall_displace: float = 1.2     # taking a studio or theater apprentice for the wall tile
    medico_apprentice: float = 4.0  # an own apprentice kept healthy for the rest of the game (beside its 5 Thalers)
    medico_infection_risk: float = 0.2  # chance that a healthy apprentice's column is infected
    medico_juice: float = 0.8      # a raspberry juice used (one mood step)
    medico_waste: float = 0.3      # a healing portion or juice used for nothing (kept, it might serve later)
    medico_saints_loss: float = 0.4  # an ill studio apprentice paints saints (a paint) instead of 3 free Thalers
    bell_per_certificate: float = 3.4  # bells expected on another figure's face-down certificate (61 / 18)
    bell_paid_share: float = 0.6   # share of another figure's partly paid bells expected to be paid by the end
    bell_unsold_share: float = 0.5  # share of the certificates not yet sold expected to stay unsold (the bishop's)
    bell_step: float = 0.05        # per bell, beyond the bonus steps (more bells, safer rank)
    bell_earnings: float = 4.0     # Thalers a round that would go onto a partly paid certificate
    bell_early_payoff: float = 0.1  # paying a certificate off before the final round (frees later income)
    bell_audience_min: float = 0.5  # the best purchase must be worth this to plan an audience
    bell_audience_share: float = 0.8  # share of that purchase counted when planning (others may buy it first)
    # --- as Leonardo's controller (2 players) ------------------------------------------
    leo_vp: float = 1.0            # each VP Leonardo scores counts against me
    leo_mine: float = 0.8          # share of a tile's VP I lose when Leonardo takes a tile I could restore
    leo_bishop: float = 0.7        # share of the bishop bonus his restoration sets up for my next one
    leo_deny: float = 0.6          # share of a portrait's / request's worth to the opponent that denying it is worth
    leo_order: float = 0.01        # per hostel space later, when Leonardo's get-up time only has to beat the opponent's
    # --- reach and fading ------------------------------------------------------------------
    final_reach: int = 6           # final round: restorations counted from the market and the first cathedral visit
    final_reach_late: int = 3      # final round: restorations counted from the workshop or the second visit
    piece_fade: int = 10           # fresco tiles above the final-round count over which spare pieces fade out
    blended_piece: int = 2         # a blended (or special) spare piece counts as this many basic ones
    portraits_per_round: int = 2   # portrait cards leaving the deck per round (to count the incomes left)
    general_paint: float = 1.2     # the general request's paint (my choice) against a fixed one
    # --- preferences between near-equal actions -------------------------------------------
    act: float = 0.01              # a studio, theater or portrait visit over passing
    splash_final: float = 0.01     # final round: per splash stacked under a request (keep the others)
    splash: float = 0.001          # per splash stacked under a request (ties)
    tie: float = 1e-6              # a blend or a closed booth against an equal alternative
    useless_move: float = -100.0   # a paid bishop move that neither raises the bonus nor reaches the tile
    off_plan: float = 1.0          # less for the nearest legal plan when a built plan is not legal


NEVER = -1e9  # the score of an action a ranking must not choose


DEFAULT_WEIGHTS = Weights()


class Horizon(NamedTuple):
    """What the paints are still good for: ``k`` restorations, worth ``share`` of their VP,
    ``blends`` whether a workshop visit comes before them.  (A named tuple: it is part of the
    heuristic's memo keys, and hashes fast.)"""

    k: int
    share: float
    blends: bool
    final: bool
