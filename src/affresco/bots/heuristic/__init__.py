"""HeuristicBot: a fast, sensible player for the whole game, every module included.

It values a position as

    VP already scored
    + ``future`` x the VP of the best few fresco tiles its paints could restore
      (with the bishop's bonus they would get, less ``blend_penalty`` per blend still needed)
    + ``piece`` per other paint piece (less as the game nears its end)
    + the Thalers (1/2 VP each, more for the first few that pay for paints)
    + the mood (an apprentice more or less next round)

and at every decision takes the legal action that leads to the best value (one step of
look-ahead); every module decision is evaluated the same way (no random choice anywhere).

* **Get-up time**: for each free space, the best round it could plan there (price, mood,
  apprentices), plus a little for acting early.
* **Planning** simulates the round for each number of market tiles it might buy: buy the best
  tiles, restore what it then can (the altar late), fulfil a bishop's request when it pays,
  blend what enables a later restoration, paint a portrait worth more than 3 Thalers, then
  theater if the mood is low and studio if money is short, spare apprentices where they are
  worth most.  Simulating the round is memoised, so the plan of the chosen get-up time costs
  nothing more.
* **Visits** score every legal action by the value it leads to: purchases, closing a booth an
  opponent would buy from, restorations (bishop bonus with the Abbot, a paid bishop or Sexton
  move, the expected favour token, the chance to play a scroll), the altar, blends (special
  colours included), portraits (the card's VP, Thalers, paints, mood, or what a permanent card
  is worth over the rounds left) against 3 Thalers, requests (VP and income against the income
  of the 3 tiles stacked and the blends given up).
* **Module questions**: the general request's paint (``income R|Y|B``) is the paint worth most
  to its holdings; a scroll is played when its VP now beat what keeping it is expected to
  bring (``scroll_keep``), always in the final round.
* **Leonardo** (2 players, as his controller): he acts early, closes the booth the opponent
  would want, restores the tile that gives him the fewest VP and the opponent the least,
  paints the portrait worth least to him and most to the opponent, fulfils a request only
  to deny it to the opponent; on the VP track he stops behind, its own figure ahead.

Every number is in :class:`Weights` (documented in docs/bots.md).  It uses only
``view(seat)`` and ``legal_actions(seat)``.

The package: ``weights`` (:class:`Weights`, :class:`Horizon`), ``valuation`` (what holdings are
worth), ``modules`` (portraits, requests, scrolls), ``bells``, ``wall`` (the wall fresco),
``round`` (the market, cathedral and workshop simulated for planning and the get-up time),
``leonardo`` (as his controller), ``medico`` and ``bot`` (:class:`HeuristicBot`: ranking the legal
actions of each decision).  The classes form one chain of single inheritance in that order
(each layer uses only the layers below it), so that the compiled build can make each a native
class (docs/compiled.md).
"""
from __future__ import annotations

from .bot import KNOWN_KINDS, HeuristicBot
from .weights import DEFAULT_WEIGHTS, Horizon, Weights

__all__ = ["DEFAULT_WEIGHTS", "KNOWN_KINDS", "HeuristicBot", "Horizon", "Weights"]
