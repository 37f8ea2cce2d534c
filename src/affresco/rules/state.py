"""The game state: plain fields, cheap to clone.

Per-figure data is held in lists indexed by figure (seats 0..n-1, then Leonardo in a
2-player game).  Values inside the lists are immutable (ints, tuples, frozen tiles), so a
clone copies only the outer lists.  The modules' states in ``mods`` are shared by a clone too
and written in place only by a state that owns them (``owned``: copy on write, hooks.Module.own).
The action history is a shared cons list.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Any, Final, Iterable

if TYPE_CHECKING:
    from .components import Components
    from .hooks import HookTable

# phases
GETUP: Final = "getup"      # phase 1: choosing get-up time
PLAN: Final = "plan"        # phase 2: secret simultaneous planning
VISITS: Final = "visits"    # phase 2: performing actions location by location
OVER: Final = "over"

SIDE1: Final[tuple[str, ...]] = ("market", "cathedral", "studio", "workshop", "theater")
SIDE2: Final[tuple[str, ...]] = ("market", "cathedral", "studio", "workshop", "cathedral")  # R1: the final round

# Track positions: a figure on start space Sk has position k - START_OFFSET (<= 0);
# on the VP track its position is the space number (>= 1).
START_OFFSET: Final = 10


def start_pos(k: int) -> int:
    return k - START_OFFSET


def vp_of(pos: int) -> int:
    return pos if pos > 0 else 0


# The state's fields fixed for the game: shared by clones, never replaced
FIXED_FIELDS = ("comp", "n", "names", "modules", "hooks", "options", "seed", "setup")

# The state's fields (the slots of State; a compiled State, a C struct, has no __slots__ to read)
FIELDS = (
    *FIXED_FIELDS,
    # chance
    "draws",
    # round
    "round", "final", "side2", "phase",
    # board
    "fresco", "bishop", "leo_pos", "leo_ctrl", "booths", "bag",
    # figures
    "pos", "getup", "order",
    # players
    "mood", "neutral", "aside", "paints", "thalers", "tiles", "plan",
    # turn
    "loc", "visit", "actor", "left", "moves", "pending", "asks",
    # modules, history
    "mods", "history", "nactions", "log",
    # memo of the current decision, cleared whenever the state changes (flow.advance): the
    # seats to act, the legal actions of the deciding figure (not for planning), and while
    # planning the last plans offered to a seat as a TiledPlans or PlanVariants (seat, plans), and per
    # planning seat its plans with the choices found of them (seat -> rules/plan_choices._draft)
    "acting", "cache", "offered", "drafts",
    # the names of the modules whose state (in mods) this state may write in place, shared with
    # no clone (hooks.Module.own); never saved
    "owned",
)


class State:
    __slots__ = FIELDS
    # The slots' types (for mypy, and for mypyc, which compiles them into a C struct).  Values
    # read from saved games are validated before they are assigned (rules/serialize.py).
    comp: Components
    n: int
    names: tuple[str, ...]
    modules: tuple[str, ...]
    hooks: HookTable
    options: tuple[tuple[str, Any], ...]
    seed: Any
    setup: dict[str, Any] | None
    draws: int
    round: int
    final: bool
    side2: bool
    phase: str
    fresco: list[Any]
    bishop: int
    leo_pos: int
    leo_ctrl: int
    booths: list[tuple[Any, ...]]
    bag: tuple[Any, ...]
    pos: list[int]
    getup: list[int]
    order: tuple[int, ...]
    mood: list[int]
    neutral: list[Any]
    aside: list[Any]
    paints: list[Any]
    thalers: list[int]
    tiles: list[tuple[Any, ...]]
    plan: list[Any]
    loc: int
    visit: int
    actor: int
    left: int
    moves: tuple[Any, ...]
    pending: tuple[Any, ...] | None
    asks: tuple[Any, ...]
    mods: dict[str, Any]
    # the cons lists (entry, rest) are typed as variable-length tuples on purpose: mypyc keeps a
    # fixed-length tuple type unboxed and boxes a new object on each read, and callers compare
    # these by identity (a log position is the same object, Game.events_since, track._totals)
    history: tuple[Any, ...] | None
    nactions: int
    log: tuple[Any, ...] | None
    acting: tuple[int, ...] | None
    cache: Any
    offered: tuple[int, Any] | None
    drafts: dict[int, Any] | None
    owned: tuple[str, ...]

    def clone(self) -> "State":
        c = State.__new__(State)
        c.comp = self.comp; c.n = self.n; c.names = self.names; c.modules = self.modules
        c.hooks = self.hooks; c.options = self.options; c.seed = self.seed; c.setup = self.setup
        c.draws = self.draws; c.round = self.round; c.final = self.final; c.side2 = self.side2
        c.phase = self.phase; c.fresco = self.fresco[:]; c.bishop = self.bishop; c.leo_pos = self.leo_pos
        c.leo_ctrl = self.leo_ctrl; c.booths = self.booths[:]; c.bag = self.bag
        c.pos = self.pos[:]; c.getup = self.getup[:]; c.order = self.order
        c.mood = self.mood[:]; c.neutral = self.neutral[:]; c.aside = self.aside[:]
        c.paints = self.paints[:]; c.thalers = self.thalers[:]; c.tiles = self.tiles[:]; c.plan = self.plan[:]
        c.loc = self.loc; c.visit = self.visit; c.actor = self.actor; c.left = self.left
        c.moves = self.moves; c.pending = self.pending; c.asks = self.asks
        c.mods = dict(self.mods); c.history = self.history; c.nactions = self.nactions; c.log = self.log
        c.acting = self.acting; c.cache = self.cache; c.offered = self.offered; c.drafts = self.drafts
        c.owned = self.owned = ()     # the module states are shared now: copied when written
        return c

    # --- derived facts -------------------------------------------------------------
    @property
    def figures(self) -> int:
        """Seats plus Leonardo (2 players)."""
        return len(self.pos)

    @property
    def leonardo(self) -> int | None:
        return self.n if len(self.pos) > self.n else None

    def columns(self) -> tuple[str, ...]:
        return SIDE2 if self.side2 else SIDE1

    def controller(self, fig: int) -> int:
        """The seat that decides for a figure (Leonardo: this round's controller, R13)."""
        return fig if fig < self.n else self.leo_ctrl

    def apprentices(self, seat: int) -> int:
        """Apprentices available for planning: 5, +1 neutral, -1 set aside (phase 1)."""
        n = self.comp.apprentices + self.neutral[seat] - self.aside[seat]
        for hook in self.hooks.apprentices:
            n = hook(self, seat, n)
        return n

    def tiles_on_board(self) -> int:
        n = 0
        for tile in self.fresco:    # by identity: list.count(None) would call each tile's __eq__
            if tile is not None:
                n += 1
        return n

    def log_event(self, kind: str, seat: int | None = None, **params: Any) -> None:
        """Append a structured event (docs/events.md): ``{"kind": kind, **params}``, public
        (seat None) or for that seat's eyes only.  Parameters are JSON data: figures as figure
        indexes, segments as names, tiles as tile text, paints as paint text."""
        self.add_event({"kind": kind, **params}, seat)

    def add_event(self, event: dict[str, Any], seat: int | None = None) -> None:
        """:meth:`log_event` of an event dict the caller builds, ``{"kind": ..., **params}``
        (the kind first): no keyword arguments to gather, for the events of every decision.
        The one place the log grows."""
        self.log = ((self.round, seat, event), self.log)


def cons_to_list(cons: tuple[Any, ...] | None) -> list[Any]:
    out: list[Any] = []
    while cons is not None:
        out.append(cons[0])
        cons = cons[1]
    out.reverse()
    return out


def list_to_cons(items: Iterable[Any]) -> tuple[Any, ...] | None:
    cons: tuple[Any, ...] | None = None
    for it in items:
        cons = (it, cons)
    return cons
