"""Set-up for 2 (with Leonardo), 3 and 4 players (rulebook 'Set up', supplement, R13)."""
from __future__ import annotations

from typing import Any

from . import market, preparation
from .board import CELLS, CENTRE
from .chance import shuffle
from .components import Components
from .hooks import HookTable
from .leonardo import NAME as LEONARDO
from .state import State, start_pos


def names_refusal(names: Any) -> str | None:
    """Why ``names`` (a list of the seats' names) cannot name a game's seats, or None: 2 to 4
    distinct non-blank strings, and no seat of a 2-player game named as Leonardo (R13)."""
    if not 2 <= len(names) <= 4:
        return f"Fresco is for 2 to 4 players, not {len(names)}"
    if not all(isinstance(x, str) and x.strip() for x in names) or len(set(names)) != len(names):
        return f"player names must be distinct non-empty strings: {list(names)!r}"
    if LEONARDO in names and len(names) == 2:
        return f"{LEONARDO!r} is the name of the imaginary third player in a 2-player game"
    return None


def new_state(comp: Components, names: tuple[str, ...], modules: tuple[str, ...], hooks: HookTable,
              options: tuple[tuple[str, Any], ...], seed: int | str) -> State:
    n = len(names)
    s = State.__new__(State)
    s.comp, s.n, s.modules, s.hooks, s.options, s.seed = comp, n, modules, hooks, options, seed
    s.names = names + ((LEONARDO,) if n == 2 else ())
    s.setup = None
    s.draws = 0
    s.round, s.final, s.side2 = 1, False, False
    figs = len(s.names)
    rng = preparation.chance(s)

    # 2. start spaces: one master painter per player drawn from the bag onto S1, S2, ...
    s.pos = [0] * figs
    for k, seat in enumerate(rng.sample(range(n), n), start=1):
        s.pos[seat] = start_pos(k)
    if n == 2:
        s.pos[2] = start_pos(3)  # Leonardo starts on S3 (R13)

    # 5. the fresco: a tile valued 11 in the centre, the others dealt at random
    tiles = list(comp.fresco_tiles)
    centre = next(t for t in tiles if t.vp == comp.centre_value)
    tiles.remove(centre)
    shuffle(rng, tiles)
    s.fresco = tiles[:CENTRE] + [centre] + tiles[CENTRE:]
    assert len(s.fresco) == CELLS
    s.bishop = CENTRE                              # 9. the bishop in the centre
    s.leo_pos = CENTRE if n == 2 else -1           # Leonardo's master painter beside him

    # 4. the market: 3 named tiles removed for 3 (and 2) players, booths filled from the bag
    removed = set(comp.removed_for_3) if n <= 3 else set()
    s.bag = tuple(sorted(t.paints for i, t in enumerate(comp.market_tiles) if i not in removed))
    s.booths = [()] * len(comp.booths[n])
    market.fill(s, rng)

    # players' material
    s.thalers = [comp.thalers] * n
    s.paints = [comp.start_paints] * n
    s.mood = [comp.mood_start] * n
    s.neutral = [False] * n
    s.aside = [False] * n
    s.tiles = [()] * figs
    s.getup = [-1] * figs
    s.plan = [None] * figs
    s.order = ()
    s.loc = s.visit = s.actor = -1
    s.left = 0
    s.moves = ()
    s.pending = None
    s.asks = ()
    s.mods = {}
    s.owned = ()     # module states it may write in place (hooks.Module.own)
    s.history = None
    s.nactions = 0
    s.log = None
    s.acting = s.cache = s.offered = s.drafts = None
    # 2 players: the player who chooses get-up time first in round 1 controls Leonardo
    s.leo_ctrl = min(range(n), key=lambda f: s.pos[f]) if n == 2 else -1
    for m in hooks:
        m.setup(s, rng)
    preparation.start_round(s)
    return s
