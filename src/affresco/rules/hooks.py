"""Named hooks through which modules plug into the round.

The base game calls these at the points where the module rules change the round; a module
(``rules/modules/<name>.py``, later issues) subclasses :class:`Module` and overrides what it
needs.  With no module the hook lists are empty and cost nothing.

Hook points (in round order): ``setup``, ``after_getup``, ``apprentices``, planning
(``plan_options`` with ``plan_situation``, ``plan_refusal``, ``placed_off_sheet``, ``plan_apply``), ``leonardo_plan``,
``after_planning``, ``visit_start`` (each figure's turn at a column), ``visit_actions``,
``apply_action``, ``after_action``, ``bishop_bonus``, ``altar_values``, ``theater_steps``, ``after_restore``,
``request_tiles`` / ``take_request_tile`` (other modules' tiles usable for requests),
``thalers_earned`` (R10), ``after_visit``, ``after_location``, ``round_preparation``, ``income``, ``is_final_round``
(end conditions), ``final_scoring``, ``view``, ``refusal`` (why an action is illegal), ``reveals``.
"""
from __future__ import annotations

from typing import Any, Callable, ClassVar, Hashable, Iterable, Iterator, Mapping, Sequence

from mypy_extensions import mypyc_attr

from .actions import KINDS
from .state import SIDE1, SIDE2

_new = tuple.__new__


class ModuleState:
    """A module's state ``state.mods[name]`` as named fields that the state owning it writes in
    place (:meth:`Module.own`): a clone shares it with its original until either writes it,
    which copies it first (``State.owned``).  ``version`` counts the writes to this copy (what
    the observation compares).  Subclasses list their fields in ``__init__`` and :meth:`copy`."""

    version: int

    def copy(self) -> ModuleState:
        """A new record with the same fields (version 0)."""
        raise NotImplementedError


@mypyc_attr(allow_interpreted_subclasses=True)
class Module:
    """A rules module.  Every hook is a no-op here.

    (In the compiled build a native class that pure-Python classes may subclass: the modules
    left out of the compiled set, and tests.  Its class attributes are ``ClassVar``s, read
    from the class by :func:`register` and the action space.)

    One instance serves every game (and clone) with the same set-up: it holds the module's
    validated component data and options, never game state (that lives in ``state.mods``).
    """

    name: ClassVar[str] = "module"
    options: ClassVar[tuple[str, ...]] = ()   # names of the rule options this module reads
    plan_words: ClassVar[tuple[str, ...]] = ()  # words it adds to plans (registered with actions.plan_word)
    # the columns where its ``visit_actions`` may add or remove actions, and the action kinds
    # its ``apply_action`` may handle and its ``reveals`` may answer True for (None: any); the
    # hook table calls them only there
    visit_columns: ClassVar[tuple[str, ...] | None] = None
    action_kinds: ClassVar[tuple[str, ...] | None] = None
    # the action kinds it adds to a location's visit, as (column word, kinds) pairs: a refused
    # one is explained by its ``refusal`` hook (why it is not legal now), never as a kind the
    # visit does not offer (rules/explain.py)
    visit_kinds: ClassVar[tuple[tuple[str, tuple[str, ...]], ...]] = ()
    # the words it appends to actions of base kinds, as (kind, word) pairs (the medico's 'ill'
    # in 'restore B1 ill'): explain checks the rest of such an action as the base kind's
    suffixes: ClassVar[tuple[tuple[str, str], ...]] = ()
    # the column indexes (negative: counted from the last) after which its ``after_location``
    # may act (None: after every column); the hook table calls it only there
    location_columns: ClassVar[tuple[int, ...] | None] = None
    # the columns (their words, as ``visit_columns``) where its ``after_action`` may act after
    # a visit action, and after whose turns its ``after_visit`` may act (None: every column); the
    # hook table calls them only there
    after_action_columns: ClassVar[tuple[str, ...] | None] = None
    after_visit_columns: ClassVar[tuple[str, ...] | None] = None
    # the column indexes (negative: counted from the last) at whose turns its ``visit_start``
    # may act: turns where the figure has apprentices in the column (``busy_columns``) and
    # turns where it has none (``empty_columns``); None: every column, (): none (an action
    # tile's column, which no apprentice may share, is never a busy one); the hook table calls
    # it only there
    busy_columns: ClassVar[tuple[int, ...] | None] = None
    empty_columns: ClassVar[tuple[int, ...] | None] = None
    # the State fields its ``view`` hook reads besides its own state ``state.mods[name]``, its
    # data and options (None: not declared): the observation (rules/observation.py) calls the
    # hook again only when one of them, or the module's state, changed
    view_reads: ClassVar[tuple[str, ...] | None] = None
    # the action tile that takes a column of the action sheet from the apprentices ('cover one
    # location on his action sheet ... The player cannot deploy apprentices to this covered
    # location'), as its name and its field in the module's saved state; ('', ''): none (the
    # medico's tile leaves the market one apprentice, MD15, W15); see :meth:`covered_column`
    action_tile: ClassVar[tuple[str, str]] = ("", "")

    def __init__(self, options: dict, data: Any = None):
        self.opts = options
        self.data = data

    @classmethod
    def build_data(cls, raw: dict) -> Any:
        """Validate this module's component table (raise ComponentError naming the value)."""
        return raw

    def idle_hooks(self) -> tuple[str, ...]:
        """Hook points this module overrides that do nothing with its options (e.g. a rule
        option switched off): the hook table leaves them out, so the base game keeps its fast
        paths (a ``payments`` hook turns off the cathedral's memo of restorations)."""
        return ()

    def own(self, state) -> Any:
        """This module's state ``state.mods[name]`` to be written in place (:func:`own`)."""
        return own(state, self.name)

    def put(self, state, **changes) -> None:
        """Replace fields of this module's state ``state.mods[name]``: a :class:`ModuleState`
        written in place (:meth:`own`), or an immutable NamedTuple (clones share it) replaced,
        as ``NamedTuple._replace`` does at a third of its cost."""
        mods = state.mods
        old = mods[self.name]
        if isinstance(old, ModuleState):
            record = self.own(state)
            for field in changes:
                setattr(record, field, changes[field])
            return
        record = type(old)
        index = _FIELD_INDEX.get(record)
        if index is None:
            index = _FIELD_INDEX[record] = {field: i for i, field in enumerate(record._fields)}
        values = list(old)
        for field in changes:
            values[index[field]] = changes[field]
        mods[self.name] = _new(record, values)

    # --- the action index space (rules/action_space.py) ----------------------------------
    def fresco_tiles(self) -> tuple:
        """Fresco tiles this module brings into the game (beyond the base game's)."""
        return ()

    # whether the module lists its actions for the fixed action space (action_space below);
    # a set-up with a module that does not is refused by rules.action_space (ConfigError)
    fixed_action_space: ClassVar[bool] = True

    def action_space(self, space) -> None:
        """Append to ``space.actions`` every action of this module's kinds, and its variants of
        base kinds, that a game may ever offer (a superset; see rules/action_space.py)."""

    def setup(self, state, rng) -> None:
        """Set-up, after the base set-up (rng: the game's seeded generator)."""

    def after_getup(self, state, fig: int) -> None:
        """Phase 1, right after a figure chose its get-up space and its mood changed, before the
        neutral apprentice is taken or an own one set aside (``state.neutral``/``state.aside``
        still tell the zone it left, R3)."""

    def apprentices(self, state, seat: int, n: int) -> int:
        """Apprentices ``seat`` may plan with (``n``: the base count, 5 + neutral - set aside)."""
        return n

    # --- planning: module words after the counts ('plan 1-2-0-1-1 ill 0-1-0-0-0 medico') ---
    def plan_options(self, state, seat: int, plans: Sequence) -> Sequence:
        """The legal plans with this module's words added (``plans``: the legal plans so far, a
        read-only sequence that is the same object for the same inputs, so a module may memoise
        on its identity; return a sequence).  The first hook gets a
        :class:`~affresco.rules.planning.TiledPlans` (the base plans; an action tile on an empty
        column: ``plans.with_tile(word)``); ``plans + (more plans,)`` gives a tuple."""
        return plans

    def plan_situation(self, state, seat: int) -> Hashable:
        """What this module's ``plan_options`` answer depends on in the position besides the
        plans it is given (those depend on the seat's apprentices and the action sheet's side):
        a hashable value that is equal whenever the answer is the same (e.g. the medico's
        healthy and ill apprentices).  When every module with a ``plan_options`` hook gives it,
        :func:`~affresco.rules.planning.options` keeps each situation's answer and skips the
        hooks when the situation comes again.  A module whose answer depends on nothing of
        the position but the seat returns a constant and names this hook idle
        (:meth:`idle_hooks`): it still counts as given, and the memo's key leaves it out."""
        return None

    def plan_refusal(self, state, seat: int, counts: tuple, words: Mapping) -> str | None:
        """Why this plan breaks a rule of the module (None: it does not).  ``words`` maps each
        plan word to its arguments."""
        return None

    def placed_off_sheet(self, state, seat: int, words: Mapping) -> int:
        """Apprentices this plan puts on the module's action tiles outside the columns."""
        return 0

    def off_sheet(self, state, seat: int) -> int:
        """Apprentices the committed plan of ``seat`` put on this module's action tiles outside
        the columns, read from the state (a loaded position's count: :meth:`placed_off_sheet`
        reads the words of a plan being committed).  Not a hook point: called on load only."""
        return 0

    def covered_column(self, state, seat: int) -> int:
        """The column index that the :attr:`action_tile` of ``seat`` covers in a loaded
        position, -1 none.  Not a hook point: called on load only, where the base checks every
        module's tile at once (no apprentice planned in the column, one tile per column: W3)."""
        return -1

    def loaded(self, state) -> None:
        """Checks of this module's part that need the whole position read (after the figures'
        flags a hand-written position leaves out are derived): raise StateError naming the field.
        Not a hook point: called on load only."""

    def plan_apply(self, state, seat: int, counts: tuple, words: Mapping) -> None:
        """Keep the module's part of a committed plan (secret until the reveal, R4)."""

    def after_planning(self, state) -> None:
        """Right after the plans are revealed, before any action."""

    def visit_start(self, state, fig: int, column: str, count: int) -> bool:
        """A figure's turn at a column (after the base set ``state.left``; ``count`` may be 0;
        called only at the columns ``busy_columns`` / ``empty_columns`` name).  May adjust the
        turn or queue asks; return True if the figure has a turn here even with no apprentice
        in the column."""
        return False

    def after_action(self, state, fig: int, action) -> None:
        """After a visit action of ``fig`` was carried out (not 'pass', not asks or track; called
        only at the columns ``after_action_columns`` names)."""

    def after_visit(self, state, fig: int, column: str) -> None:
        """After a figure's last action at a column (also when it forfeited them; called only
        at the columns ``after_visit_columns`` names)."""

    def after_location(self, state, column: str, index: int) -> None:
        """After every figure's turn at the column ``index`` of the action sheet."""

    def refusal(self, state, seat: int, action) -> str | None:
        """Why a module action is not legal now (for the refusal message), or None."""
        return None

    def leonardo_plan(self, state, plan: list[int]) -> None:
        """2 players: add Leonardo's apprentices to his fixed action sheet."""

    def visit_actions(self, state, fig: int, column: str, actions: list) -> None:
        """Add or remove legal actions of the visiting figure at a location."""

    def apply_action(self, state, fig: int, action) -> bool:
        """Perform an action of this module's kinds; return True if handled."""
        return False

    def bishop_bonus(self, state, fig: int, bonus: int) -> int:
        """Cathedral: change a bishop bonus (e.g. the Abbot)."""
        return bonus

    def altar_values(self, state, basic: dict, blend: dict) -> None:
        """Cathedral: add substitute paints and their bonus to the altar forms (R7): the
        set-up's forms, the same at every position (read once per hook table)."""

    def theater_steps(self, state, fig: int, per_apprentice: int) -> int:
        """Theater: change the mood steps per apprentice (e.g. the Actor)."""
        return per_apprentice

    def payments(self, state, fig: int, tile, payments: list[str]) -> None:
        """Cathedral: add other ways (paint texts) to pay for a fresco tile."""

    def restoration_vp(self, state, fig: int, segment: int, tile, paid: str | None, sources: dict) -> None:
        """Cathedral: add this module's VP to a segment restoration's single move on the track
        (R8): ``sources`` maps source names to VP (``tile``, ``bishop``; special colours add
        ``special_colours``, the bishop's favour ``favour``).  ``paid``: the paints paid, None
        for Leonardo.  Called after any bishop move, before the bishop goes onto ``segment``."""

    def after_restore(self, state, fig: int, segment: int, tile, bishop_on: bool) -> None:
        """Cathedral, after a segment was restored (tile: the fresco tile taken)."""

    def thalers_earned(self, state, seat: int, amount: int) -> int:
        """A player earns ``amount`` Thalers (studio, income, cards, tokens; through
        ``rules/thalers.earn``): return how many reach the player's money (R10: the rest went
        elsewhere, e.g. onto a partly paid bell certificate)."""
        return amount

    def request_tiles(self, state, fig: int, tiles: list[tuple[str, str]]) -> None:
        """Requests (R15): append this module's tiles of ``fig`` that count as fresco tiles for
        requests, one ``(tile text, splashes on its back)`` per tile held."""

    def take_request_tile(self, state, fig: int, text: str) -> bool:
        """Requests: ``fig`` stacks one of this module's tiles ``text`` under a request (it
        leaves the player's tiles); return True if the tile was this module's."""
        return False

    def round_preparation(self, state, rng) -> None:
        """Round preparation, after the market is refilled."""

    def income(self, state, seat: int) -> int:
        """Extra Thalers of income for ``seat`` (may be negative to cancel base income)."""
        return 0

    def is_final_round(self, state) -> bool:
        """An end condition of the module, checked at the start of each round."""
        return False

    def final_scoring(self, state, seat: int) -> dict[str, int] | None:
        """Final scoring, before Thalers are turned into VP.  May return the Thalers it
        credited by VP source (e.g. ``{"medico": 25}``) so their VP are told apart."""

    def view(self, state, seat: int | None, out: dict[str, Any]) -> None:
        """Add this module's part to a seat's view."""

    def reveals(self, state, fig: int, action) -> bool:
        """Did ``action`` of ``fig`` (just carried out) show a secret of this module (R22)?"""
        return False

    # --- decisions a module asks for outside the location visits (``state.asks``) --------
    def ask_actions(self, state, ask: tuple) -> list:
        """Legal actions for a queued ask ``(figure, module name, payload)``."""
        return []

    def answer(self, state, ask: tuple, action) -> None:
        """Carry out the answer to a queued ask."""

    def valid_ask(self, state, fig: int, payload) -> bool:
        """Whether a saved ask ``(fig, this module, payload)`` is one this module can answer
        (checked on load, after the module's state is read)."""
        return False

    # --- saving -----------------------------------------------------------------------
    def dump(self, state) -> Any:
        """This module's part of ``state.mods`` as JSON data."""
        return state.mods.get(self.name)

    def load(self, state, data: Any) -> None:
        """Read this module's part back: ``data`` is None when a hand-written position leaves it
        out (give the documented default), else validate it completely (raise StateError naming
        the bad field), so that no later step can fail on it (docs/state-format.md)."""
        if data is not None:
            from ..errors import StateError
            raise StateError(f"saved state: modules_state.{self.name}: this module keeps no state")


HOOK_POINTS = ("setup", "after_getup", "apprentices", "plan_options", "plan_situation", "plan_refusal", "placed_off_sheet",
               "plan_apply", "after_planning", "visit_start", "after_action", "after_visit", "after_location", "refusal",
               "leonardo_plan", "visit_actions", "apply_action", "bishop_bonus",
               "altar_values", "theater_steps", "payments", "restoration_vp", "after_restore",
               "request_tiles", "take_request_tile", "thalers_earned", "round_preparation", "income", "is_final_round",
               "final_scoring", "view", "reveals")


Hooks = tuple[Callable[..., Any], ...]   # bound methods of modules


def _module_of(hook: Any) -> Module:
    """The module whose bound method ``hook`` is."""
    return hook.__self__


def _at(index: int, where: tuple[int, ...] | None) -> bool:
    """Whether column ``index`` is among the column indexes ``where`` (negative: counted from the
    last; None: every column), as Module.location_columns, busy_columns and empty_columns name them."""
    return where is None or index in where or index - len(SIDE1) in where


def _within(name: str, names: tuple[str, ...] | None) -> bool:
    """Whether a module limited to ``names`` (None: no limit) deals with ``name``."""
    return names is None or name in names


def _by_column(hooks: Hooks, columns: str) -> tuple[tuple[Hooks, ...], ...]:
    """Per action sheet side (``State.side2``) and column index, the ``hooks`` of the modules
    whose class attribute ``columns`` (column words, None: every column) names the column."""
    return tuple(tuple(tuple(h for h in hooks if _within(column, getattr(type(_module_of(h)), columns)))
                       for column in side)
                 for side in (SIDE1, SIDE2))


class HookTable:
    """The modules of a game (iterating gives them in order, indexing and ``len`` work as on a
    tuple), with one attribute per hook point listing only the bound hooks that a module
    actually overrides: the base game calls ``for hook in state.hooks.payments: hook(...)`` and
    pays nothing for modules that leave a point alone (nor for the points a module names idle,
    :meth:`Module.idle_hooks`).  ``named`` maps each module's name to it.  (A plain class with
    declared attributes, not a ``tuple`` subclass, so that mypy and mypyc know every hook point.)"""

    modules: tuple[Module, ...]
    named: dict[str, Module]
    visit_actions_at: dict[str, Hooks]    # column -> the visit_actions hooks of modules acting there
    visit_start_at: tuple[tuple[Hooks, Hooks], ...]  # column index -> the visit_start hooks acting
                                          # there where the figure has apprentices, and where it has none
    after_location_at: tuple[Hooks, ...]  # column index -> the after_location hooks of modules acting there
    after_action_at: tuple[tuple[Hooks, ...], ...]  # action sheet side (State.side2) -> column index -> the
                                          # after_action hooks of modules acting there
    after_visit_at: tuple[tuple[Hooks, ...], ...]   # the same for after_visit
    _by_kind: dict[tuple[str, str], Hooks]  # memo of for_kind
    apply_action_for: dict[str, Hooks]    # action kind -> for_kind("apply_action", kind), every registered kind
    reveals_for: dict[str, Hooks]         # action kind -> for_kind("reveals", kind)
    setup: Hooks
    after_getup: Hooks
    apprentices: Hooks
    plan_options: Hooks
    plan_situation: Hooks
    plans_kept: dict[tuple, Any] | None   # situation -> a weak reference to its plans (planning.options), or
                                          # None: a module with a plan_options hook gives no plan_situation
    plan_refusal: Hooks
    placed_off_sheet: Hooks
    plan_apply: Hooks
    after_planning: Hooks
    visit_start: Hooks
    after_action: Hooks
    after_visit: Hooks
    after_location: Hooks
    refusal: Hooks
    leonardo_plan: Hooks
    visit_actions: Hooks
    apply_action: Hooks
    bishop_bonus: Hooks
    altar_values: Hooks
    theater_steps: Hooks
    payments: Hooks
    restoration_vp: Hooks
    after_restore: Hooks
    request_tiles: Hooks
    take_request_tile: Hooks
    thalers_earned: Hooks
    round_preparation: Hooks
    income: Hooks
    is_final_round: Hooks
    final_scoring: Hooks
    view: Hooks
    reveals: Hooks

    def __init__(self, modules: Iterable[Module] = ()) -> None:
        self.modules = tuple(modules)
        self.named = {m.name: m for m in self.modules}
        idle = [m.idle_hooks() for m in self.modules]
        for point in HOOK_POINTS:
            base = getattr(Module, point)
            setattr(self, point, tuple(getattr(m, point) for m, off in zip(self.modules, idle)
                                       if getattr(type(m), point) is not base and point not in off))
        self.visit_actions_at = {column: tuple(h for h in self.visit_actions
                                               if _within(column, _module_of(h).visit_columns))
                                 for column in set(SIDE1 + SIDE2)}
        self.visit_start_at = tuple((tuple(h for h in self.visit_start if _at(i, _module_of(h).busy_columns)),
                                     tuple(h for h in self.visit_start if _at(i, _module_of(h).empty_columns)))
                                    for i in range(len(SIDE1)))
        self.after_location_at = tuple(tuple(h for h in self.after_location if _at(i, _module_of(h).location_columns))
                                       for i in range(len(SIDE1)))
        self.after_action_at = _by_column(self.after_action, "after_action_columns")
        self.after_visit_at = _by_column(self.after_visit, "after_visit_columns")
        declared = {m for m in self.modules if type(m).plan_situation is not Module.plan_situation}   # idle ones too
        self.plans_kept = {} if all(_module_of(h) in declared for h in self.plan_options) else None
        self._by_kind = {}
        self.apply_action_for = {kind: self.for_kind("apply_action", kind) for kind in KINDS}
        self.reveals_for = {kind: self.for_kind("reveals", kind) for kind in KINDS}

    def __iter__(self) -> Iterator[Module]:
        return iter(self.modules)

    def __reduce__(self) -> tuple:
        """Pickled as its modules: the hook lists and memos (``plans_kept``'s weak references
        among them) are made again from them."""
        return HookTable, (self.modules,)

    def __len__(self) -> int:
        return len(self.modules)

    def __getitem__(self, index: int) -> Module:
        return self.modules[index]

    def for_kind(self, point: str, kind: str) -> Hooks:
        """The hooks of ``point`` (``apply_action``, ``reveals``) of the modules that deal with
        actions of ``kind`` (Module.action_kinds).  For the kinds registered when the table was
        made, ``apply_action_for`` and ``reveals_for`` hold the same in a dict (one look-up per
        action carried out)."""
        hit = self._by_kind.get((point, kind))
        if hit is None:
            hit = self._by_kind[point, kind] = tuple(h for h in getattr(self, point)
                                                     if _within(kind, _module_of(h).action_kinds))
        return hit


_FIELD_INDEX: dict[type, dict[str, int]] = {}   # module state record -> field name -> index (Module.put)


def own(state, name: str) -> Any:
    """The state ``state.mods[name]`` of the module ``name`` (a :class:`ModuleState`) to be written
    in place: copied first if ``state`` shares it with a clone, its version counted.  A module's
    hooks call it with their module's name as a constant (``own(s, NAME)``): ``self.name``, a
    class attribute, is read on CPython 3.11's generic attribute path at every call."""
    record = state.mods[name]
    if name not in state.owned:
        record = state.mods[name] = record.copy()
        state.owned += (name,)
    record.version += 1
    return record


def with_item(items: tuple, i: int, value: Any) -> tuple:
    """``items`` with ``items[i]`` replaced by ``value`` (per-seat tuples of module states)."""
    changed = list(items)
    changed[i] = value
    return tuple(changed)


def ask(state, fig: int, module: str, payload: Any = None) -> None:
    """Queue a decision of ``fig`` that a module needs (answered before play goes on)."""
    state.asks = state.asks + ((fig, module, payload),)


def find(state, name: str) -> Module:
    """The module ``name`` of the game (it is in play)."""
    return state.hooks.named[name]


MODULES: dict[str, type[Module]] = {}
# The order in which modules' hooks run when several are in play (the supplement's order).
ORDER = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour",
         "bells", "wall_fresco", "medico")


def register(cls: type[Module]) -> type[Module]:
    MODULES[cls.name] = cls
    return cls


def ordered(names) -> list[str]:
    rank = {n: i for i, n in enumerate(ORDER)}
    return sorted(names, key=lambda n: rank.get(n, len(ORDER)))
