"""Market: buy paints or close down a market booth (R5).

The visitor chooses one booth that still has tiles, then buys up to one tile per market
apprentice at their get-up price, or closes it; either way every tile of that booth returns
to the bag.  'pass' forfeits the visit and leaves the booths as they are.
"""
from __future__ import annotations

from itertools import combinations
from typing import Final

from .actions import PASS, Action
from .chance import shuffle
from .paints import PAINTS, paint_vector, plus
from .state import State

BOOTHS: Final[tuple[str, ...]] = ("I", "II", "III", "IV")  # not a fixed-length tuple type: the compiled build keeps it one object


def tile_key(t: str):
    """Canonical order of market tiles in notation: larger tiles first, then by paint."""
    key = _TILE_KEYS.get(t)
    if key is None:
        if len(_TILE_KEYS) > 4096:
            _TILE_KEYS.clear()
        key = _TILE_KEYS[t] = (-len(t), tuple(PAINTS.index(c) for c in t))
    return key


_TILE_KEYS: Final[dict[str, tuple]] = {}


def price(s: State, seat: int) -> int:
    return s.comp.hostel[s.getup[seat]].price


def start(s: State, fig: int, count: int) -> None:
    s.left = count


def legal(s: State, fig: int) -> list[Action]:
    out = [PASS]
    cost = price(s, fig)
    money = s.thalers[fig]
    for b, tiles in enumerate(s.booths):
        if tiles:
            most = min(s.left, len(tiles))
            if cost:
                most = min(most, money // cost)
            actions, ends = booth_actions(b, tiles)
            out += actions if most >= len(tiles) else actions[:ends[most]]
    return out


def booth_actions(b: int, tiles: tuple[str, ...]) -> tuple[tuple[Action, ...], tuple[int, ...]]:
    """Closing booth ``b``, then every purchase of its ``tiles`` (kept in canonical tile order,
    so each purchase is listed once), by number of tiles; and per number k how many of those
    actions close or buy at most k tiles.  Memoised per booth and tiles: a booth keeps its
    tiles until a visitor takes them, whatever each visitor can afford."""
    key = (b, tiles)
    hit = _BOOTH_ACTIONS.get(key)
    if hit is None:
        out = [_purchase(b, ())]
        ends = [1]
        distinct = len(set(tiles)) == len(tiles)   # the reference edition's 14 tiles all differ
        for k in range(1, len(tiles) + 1):
            combos = combinations(tiles, k)
            for combo in (combos if distinct else dict.fromkeys(combos)):    # each purchase once
                out.append(_purchase(b, combo))
            ends.append(len(out))
        if len(_BOOTH_ACTIONS) > 8192:
            _BOOTH_ACTIONS.clear()
        hit = _BOOTH_ACTIONS[key] = (tuple(out), tuple(ends))
    return hit


_BOOTH_ACTIONS: Final[dict[tuple, tuple[tuple[Action, ...], tuple[int, ...]]]] = {}


def _purchase(b: int, tiles: tuple[str, ...]) -> Action:
    """Buying ``tiles`` at booth ``b`` (no tiles: closing it), one Action per purchase for the
    process: a booth's tiles come from the few market tiles, so purchases recur round after round."""
    key = (b, tiles)
    action = _PURCHASES.get(key)
    if action is None:
        if len(_PURCHASES) > 65536:
            _PURCHASES.clear()
        name = BOOTHS[b]
        action = _PURCHASES[key] = _new(Action, ("buy", (name,) + tiles) if tiles else ("close", (name,)))
    return action


_PURCHASES: Final[dict[tuple[int, tuple[str, ...]], Action]] = {}
_new: Final = tuple.__new__   # Action(...) without its Python-level __new__


def return_booth(s: State, b: int) -> None:
    s.bag = tuple(sorted(s.bag + s.booths[b]))
    s.booths[b] = ()


def apply(s: State, fig: int, action: Action) -> None:
    b = BOOTHS.index(action.args[0])
    if action.kind == "buy":
        bought = action.args[1:]
        cost = price(s, fig) * len(bought)
        s.thalers[fig] -= cost
        for t in bought:
            s.paints[fig] = plus(s.paints[fig], paint_vector(t))
        s.add_event({"kind": "buy", "figure": fig, "booth": action.args[0], "tiles": list(bought), "cost": cost})
    else:
        s.add_event({"kind": "close", "figure": fig, "booth": action.args[0]})
    return_booth(s, b)
    s.left = 0


def fill(s: State, rng) -> None:
    """Round preparation (R5): every tile on a booth returns to the bag, then each booth is
    refilled from the bag."""
    bag = list(s.bag)
    for t in s.booths:
        bag.extend(t)
    shuffle(rng, bag)
    sizes = s.comp.booths[s.n]
    booths = []
    for size in sizes:
        booths.append(tuple(sorted(bag[:size], key=tile_key)))
        del bag[:size]
    s.booths = booths
    s.bag = tuple(sorted(bag))
