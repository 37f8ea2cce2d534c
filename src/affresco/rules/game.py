"""The public engine API: :func:`new_game`, :class:`Game`, :func:`replay`.

A :class:`Game` wraps one state.  Every method either reads it or, for :meth:`Game.apply`,
carries out one legal action; a refused action raises :class:`~affresco.errors.IllegalAction`
and leaves the state untouched.  Arguments a method checks itself (seats, actions, saved
texts, the seed) are typed ``Any``: anything else is refused with the documented error, in the
compiled build (docs/compiled.md) as in the pure one.
"""
from __future__ import annotations

import json
import secrets
from array import array
from typing import Any, Iterable, Mapping, Sequence

from ..errors import ConfigError, FrescoError, IllegalAction, StateError
from . import explain, flow, house, plan_choices, serialize, track
from .actions import PASS, Action, parse
from .chance import seed_refusal
from .components import Components, load_components, reference
from .hooks import MODULES, HookTable, ordered
from .setup import names_refusal, new_state
from .state import OVER, PLAN, State, cons_to_list, vp_of
from .determinized import state_from_view
from .observation import ENCODING as _ENCODING, Seen as _Seen, check_encoding as _check_encoding, \
    layout as _observation_layout, modules_from_view as _modules_from_view, observation as _observation, \
    observations as _observations, observations_joined as _observations_joined, seen_for as _seen_for
from .view import events as _events, full_view as _full_view, seat_events, view as _view

RECORD_FORMAT = "affresco-record/2"
# /1: written before forced passes were the player's own action (rules notes N2): replaying one
# makes those passes where the record leaves them out.
RECORD_FORMATS = ("affresco-record/1", RECORD_FORMAT)


def _hooks_for(modules: Iterable[str], options: Mapping[str, Any], comp: Components) -> HookTable:
    """Module instances for a set-up, in the canonical order (hooks.ORDER): one hook table per
    set-up, shared by its games (modules keep no game state, hooks.Module), made once."""
    modules = tuple(modules)
    key: tuple | None
    try:
        # the registered classes (a test may register another under a name) and each option
        # value's type: True == 1 (a bad max_rounds) must not hit a valid set-up's table
        key = (modules, tuple(MODULES.get(m) for m in modules),
               tuple(sorted(((k, type(v), v) for k, v in options.items()), key=lambda kv: kv[0])), id(comp))
        hit = _HOOK_TABLES.get(key)
    except TypeError:       # an unhashable option value: refused below
        key = hit = None
    if hit is not None and hit[0] is comp:
        return hit[1]
    table = _new_hook_table(modules, options, comp)
    if key is not None:
        if len(_HOOK_TABLES) > 256:
            _HOOK_TABLES.clear()
        _HOOK_TABLES[key] = (comp, table)
    return table


_HOOK_TABLES: dict[tuple, tuple[Components, HookTable]] = {}


def _new_hook_table(modules: tuple[str, ...], options: Mapping[str, Any], comp: Components) -> HookTable:
    from .modules import module_data

    hooks = []
    for name in ordered(modules):
        if name not in MODULES:
            known = ", ".join(sorted(MODULES)) or "none yet"
            raise ConfigError(f"unknown module {name!r}; available modules: {known}")
    allowed = {o: m for m in modules for o in MODULES[m].options}
    for key, value in options.items():
        if key in house.HOUSE_RULES:
            house.check(key, value)
            continue
        owner = next((m for m in sorted(MODULES) if key in MODULES[m].options), None)
        if key not in allowed and owner is not None:
            raise ConfigError(f"rule option {key!r} belongs to the module {owner!r}, which is not in this "
                              f"game (modules: {', '.join(modules) or 'none'}): add it to the modules")
        if key not in allowed:
            every = sorted(o for cls in MODULES.values() for o in cls.options)
            raise ConfigError(f"unknown rule option {key!r} for modules {list(modules)!r}; options: "
                              f"{', '.join(every) or 'none'} (each needs its module); house rules: "
                              f"{', '.join(house.HOUSE_RULES)}")
        if not isinstance(value, bool):
            raise ConfigError(f"rule option {key!r} is on or off (true/false), not {value!r}")
    for name in ordered(modules):
        hooks.append(MODULES[name](dict(options), module_data(name, comp)))
    return HookTable(hooks)


def new_game(players: int | Sequence[str] = 4, modules: Any = (), seed: Any = None,
             options: Mapping[str, Any] | None = None,
             components: Components | str | Mapping | None = None) -> "Game":
    """Set up a new game.

    players: 2, 3 or 4, or a list of 2-4 distinct names (seats are 0..n-1 in that order).
    modules: module names (see ``affresco.MODULES``).  seed: the seed of every chance event;
    a random one is chosen (and kept in the record) when omitted.  components: the reference
    edition (None, or "reference" as saved states name it), a component file path, or a parsed table.
    """
    if isinstance(players, bool) or not isinstance(players, (int, list, tuple)):
        raise ConfigError(f"players must be 2, 3 or 4 or a list of names, not {players!r}")
    if isinstance(players, int):
        if not 2 <= players <= 4:
            raise ConfigError(f"Fresco is for 2 to 4 players, not {players}")
        names = tuple(f"Player {i + 1}" for i in range(players))
    else:
        names = tuple(players)
        why = names_refusal(names)
        if why is not None:
            raise ConfigError(why)
    if isinstance(modules, str):
        raise ConfigError(f"modules is a list of names, e.g. ({modules!r},)")
    if not isinstance(modules, Iterable):
        raise ConfigError(f"modules is a list of module names, not {modules!r}")
    modules = tuple(modules)
    bad = next((m for m in modules if not isinstance(m, str)), None)
    if bad is not None:
        raise ConfigError(f"a module is named by its name (a string), not {bad!r}")
    if len(set(modules)) != len(modules):
        raise ConfigError(f"a module is named twice: {list(modules)!r}")
    if options is not None and not isinstance(options, Mapping):
        raise ConfigError(f"options is a mapping of option names to values, not {options!r}")
    options = dict(options or {})
    if seed is None:
        seed = secrets.randbelow(2**63)
    why = seed_refusal(seed)
    if why is not None:
        raise ConfigError(why)
    comp = components if isinstance(components, Components) else load_components(components)
    hooks = _hooks_for(modules, options, comp)
    modules = tuple(ordered(modules))
    s = new_state(comp, names, modules, hooks, tuple(sorted(options.items())), seed)
    s.setup = {"players": list(names), "modules": list(modules), "options": options, "seed": seed,
               "components": "reference" if comp is reference() else dict(comp.raw)}
    flow.advance(s)
    return Game(s)


class Game:
    """One game of Fresco.  Seats are 0..n-1; in a 2-player game Leonardo is figure 2."""

    __slots__ = ("_s", "_seen")

    def __init__(self, state: State):
        self._s = state
        # per encoding (1-3; 1 and 2 the same): what its observations were last written from
        self._seen: list[_Seen | None] = [None, None, None, None]

    # --- whose turn, what is legal ---------------------------------------------------
    @property
    def to_act(self) -> tuple[int, ...]:
        """Seats that must decide now (several while planning, none once over)."""
        return flow.to_act(self._s)

    def legal_actions(self, seat: Any) -> Sequence[Action]:
        """The legal actions of ``seat`` now ([] if it is not to act): a new list, or while
        planning with a module's plan words a read-only sequence (plans made one at a time
        when indexed: ``len``, ``[i]``, ``in`` and ``index`` are cheap; iterating makes them
        all), the same object for the same situation: with bells or wall fresco a
        :class:`~affresco.rules.planning.TiledPlans` (the base game's counting order, then the
        plans with action tiles), with the medico a
        :class:`~affresco.rules.planning.PlanVariants` (up to ~110,000 plans, in its own
        order: docs/architecture.md, "the order of the medico's plans")."""
        s = self._s
        if s.phase != PLAN and type(seat) is int and seat in flow.to_act(s):
            return flow.legal_for_figure(s)[:]   # the usual case, in one step
        if seat is True or seat is False:   # not a seat (apply refuses it), though True == 1
            return []
        try:
            return flow.legal(s, seat)
        except TypeError:   # a seat that is no int (1.0) while planning: it is not to act
            if type(seat) is int:
                raise
            return []

    def plan_steps(self) -> tuple[str, ...]:
        """The steps of a plan chosen as choices (:meth:`plan_choices`): ``counts``, then the
        plan words of the modules in play in the modules' order, e.g. ``('counts', 'audience',
        'wall', 'ill', 'medico')`` (the same for every position of the game)."""
        return plan_choices.steps(self._s)

    def plan_choices(self, seat: Any, prefix: Sequence[tuple[str, ...]] = ()) -> tuple[tuple[str, ...], ...]:
        """The choices of ``seat``'s plan at step ``len(prefix)`` of :meth:`plan_steps`, given
        the choices before it (each one of those this method gave), for code that picks a plan
        a step at a time (``affresco.envs``, docs/envs.md): the counts text
        (``('1-2-0-1-1',)``) at the first step, then per plan word ``()`` (left out) or the
        word and its arguments (``('audience', 'studio')``).  Every choice leads on to a legal
        plan, and every legal plan is reached so (rules/plan_choices.py); :meth:`plan_of`
        joins the choices of every step into the plan.  Raises IllegalAction if the seat is
        not planning now or ``prefix`` is not such choices."""
        if type(seat) is not int:
            raise IllegalAction(f"seat {seat!r} is not planning now")
        try:
            return plan_choices.choices(self._s, seat, prefix)
        except ValueError as e:
            raise IllegalAction(str(e)) from None
        except TypeError:
            if isinstance(prefix, Sequence):
                raise
            raise IllegalAction(f"prefix is a sequence of choices (tuples of text), not {prefix!r}") from None

    @staticmethod
    def plan_choice_counts(choice: Sequence[str]) -> tuple[int, ...] | None:
        """The apprentices per column (in column order) that a choice of :meth:`plan_choices`
        holds, as numbers: the counts step's (``('1-2-0-1-1',)`` -> ``(1, 2, 0, 1, 1)``) or a
        plan word's whose argument is counts (the medico's ``('ill', '0-1-0-0-0')``); None for
        any other choice (``()``, ``('audience', 'studio')``, ``('medico',)``)."""
        return plan_choices.counts_of(choice)

    def plan_of(self, choices: Sequence[tuple[str, ...]]) -> Action:
        """The plan that a choice for every step of :meth:`plan_steps` makes (the inverse of
        :meth:`plan_as_choices`)."""
        steps = plan_choices.steps(self._s)
        if not isinstance(choices, Sequence) or len(choices) != len(steps):
            raise IllegalAction(f"a plan takes {len(steps)} choices ({', '.join(steps)}), not {choices!r}")
        try:
            return plan_choices.plan_of(choices)
        except (TypeError, KeyError, IndexError):
            raise IllegalAction(f"{choices!r} are not choices of plan_choices (tuples of text)") from None

    def plan_as_choices(self, plan: Any) -> tuple[tuple[str, ...], ...]:
        """The choice of each step of :meth:`plan_steps` that makes ``plan`` (an Action or its
        notation)."""
        if isinstance(plan, str):
            plan = parse(plan)
        raw: Any = plan
        if not (isinstance(plan, Action) and type(raw[1]) is tuple and all(type(a) is str for a in raw[1])):
            raise IllegalAction(f"a plan is an Action of text arguments or its notation, not {plan!r}")
        try:
            return plan_choices.as_choices(self._s, plan)
        except ValueError as e:
            raise IllegalAction(str(e)) from None

    def apply(self, seat: Any, action: Any) -> bool:
        """Carry out ``action`` (an Action or its notation) for ``seat``.

        Returns True when the action brought hidden information out (R22): a chance event
        (a tile or card drawn), the plans revealed, or a module's secret shown (a scroll
        played); a server's undo stops there.  Raises IllegalAction (the state unchanged) if
        it is malformed, not legal, or the seat is not to act.
        """
        s = self._s
        if type(action) is not Action and isinstance(action, str):
            action = parse(action)
        if not (type(seat) is int and type(action) is Action and seat in flow.to_act(s)
                and flow.is_legal(s, seat, action, quick=True)):
            self._check(seat, action)   # the usual case (an action from legal_actions) skips this
        reveals = s.hooks.reveals_for.get(action.kind) if s.hooks.reveals else ()
        if reveals is None:
            reveals = s.hooks.for_kind("reveals", action.kind)
        draws, planning = s.draws, s.phase == PLAN
        figure = flow.deciding(s) if reveals else None
        flow.apply(s, seat, action)
        return (s.draws != draws or (planning and s.phase != PLAN)
                or bool(reveals) and any(hook(s, seat if figure is None else figure, action) for hook in reveals))

    def _check(self, seat: Any, action: Any) -> None:
        """Raise IllegalAction unless ``seat`` may carry out ``action`` (an Action) now."""
        s = self._s
        raw: Any = action   # a hand-built Action may hold anything: its fields are read untyped
        if not isinstance(action, Action):
            raise IllegalAction(f"an action must be an Action or notation text, not {type(action).__name__}")
        if (len(raw) != 2 or not isinstance(raw[0], str) or not isinstance(raw[1], tuple)
                or not all(isinstance(x, str) for x in raw[1])):
            raise IllegalAction(f"an Action is a kind and a tuple of text arguments, e.g. Action('getup', "
                                f"('7:00',)), not {tuple(action)!r}")
        if isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < s.n:
            raise IllegalAction(f"seat must be 0..{s.n - 1}, not {seat!r}")
        if s.phase == OVER:
            raise IllegalAction("the game is over")
        acting = flow.to_act(s)
        if seat not in acting:
            raise IllegalAction(f"seat {seat} ({s.names[seat]}) is not to act now; to act: "
                                + ", ".join(f"{f} ({s.names[f]})" for f in acting))
        if not flow.is_legal(s, seat, action, acting):
            raise IllegalAction(explain.why(s, seat, action, flow.legal(s, seat)))

    @property
    def deciding(self) -> int | None:
        """The figure whose decision the seat in :attr:`to_act` makes now: the figure choosing
        a VP-track space, else the one a module asks, else the acting figure (Leonardo's
        decisions are his controller's, R13); None while planning (each seat plans for itself)
        and once over.  Also ``view(seat)["deciding"]``."""
        return flow.deciding(self._s)

    def action_space(self) -> tuple[Action, ...]:
        """Every action a game of this set-up can ever offer, in a fixed, versioned order
        (rules/action_space.py): a stable action index for learning code.  Every legal action
        is in it."""
        from .action_space import action_space
        s = self._s
        return action_space(s.n, s.modules, dict(s.options), s.comp)

    # --- state -----------------------------------------------------------------------
    @property
    def is_over(self) -> bool:
        return self._s.phase == OVER

    @property
    def players(self) -> int:
        return self._s.n

    @property
    def names(self) -> tuple[str, ...]:
        """Names of the figures: the seats, then Leonardo in a 2-player game."""
        return self._s.names

    @property
    def round(self) -> int:
        return self._s.round

    @property
    def phase(self) -> str:
        return self._s.phase

    @property
    def seed(self) -> int | str:
        return self._s.seed

    @property
    def chance_events(self) -> int:
        """How many chance events (draws, shuffles) have happened so far: when it grows, new
        information has come out (a server's undo stops there)."""
        return self._s.draws

    @property
    def actions_applied(self) -> int:
        """How many actions have been applied since the game began (the length of
        :meth:`history`, without making it): positions of one game differ by it, and
        ``replay(game.record(), upto=k)`` rebuilds the position after ``k`` of them."""
        return self._s.nactions

    @property
    def state(self) -> State:
        """The raw state (read it, never change it: use :meth:`apply`)."""
        return self._s

    def scores(self) -> list[int]:
        """VP per seat, then Leonardo in a 2-player game (final once :attr:`is_over`)."""
        return [vp_of(p) for p in self._s.pos]

    def ranking(self) -> list[int]:
        """Figures from winner to last by the order on the VP track (R8: no ties)."""
        s = self._s
        return sorted(range(s.figures), key=lambda f: -s.pos[f])

    def view(self, seat: Any, log: bool = True, lean: bool = False) -> dict[str, Any]:
        """A JSON-ready dict of what ``seat`` may see (None: a spectator), R22.  ``log=False``
        leaves out the events (see :meth:`events_since` to follow them cheaply).  ``lean=True``
        also leaves out what never changes during a game and what the history gives
        (``view.FIXED_KEYS``: hostel, mood_display, house_rules, modules, options, components,
        vp_sources), for code that reads a view at every decision (``affresco.envs``); the rest
        is the same as the full view's."""
        self._check_seat(seat)
        return _view(self._s, seat, log, lean)

    def observation(self, seat: Any, encoding: Any = _ENCODING) -> array:
        """What ``view(seat)`` shows, as a fixed-size float32 vector (an ``array('f')``; wrap it
        with ``numpy.frombuffer(v, numpy.float32)``), written straight from the position: a
        fraction of a view's cost, for learning code that reads every decision
        (``affresco.envs``); the game keeps what its observations were last written from, so
        the next one writes again only what changed.  ``encoding`` (1, 2 or 3, the default):
        how the modules' parts are written, 3 in fixed, named slots, 1 and 2 (the same vector)
        by feature hashing of their view parts.  Its slices are :meth:`observation_layout`;
        docs/envs.md explains each.  Nothing in it is hidden from the seat (R22: the same
        perturbation check as the views)."""
        s = self._s
        if type(seat) is not int or not 0 <= seat < s.n:   # a seat of the game passes without a call
            _check_observer(s, seat)
        seen = self._seen[encoding] if type(encoding) is int and 0 < encoding < 4 else None
        return _observation(s, seat, seen if seen is not None else self._observed(encoding))

    def observations(self, seats: Any = None, encoding: Any = _ENCODING) -> list[array]:
        """:meth:`observation` of several seats at this position, in the order given (default:
        every seat): the same vectors, with what every seat sees alike brought up to date
        once, for code that reads every seat's at every decision (PettingZoo's Parallel
        environment)."""
        s = self._s
        return _observations(s, _observers(s, seats), self._observed(encoding))

    def observations_joined(self, seats: Any = None, encoding: Any = _ENCODING, pad: Any = 0) -> array:
        """:meth:`observations` of ``seats`` (default: every seat) back to back in one
        ``array('f')`` of ``len(seats)`` times the vector's size (numpy:
        ``numpy.frombuffer(v, numpy.float32).reshape(len(seats), -1)``, one row per seat): made
        at once, for code that reads every seat's vector at every decision (PettingZoo's
        Parallel environment).  ``pad``: zeros after each seat's vector, room for the caller's
        own numbers in each row (the environments' plan in progress), so the rows need no copy."""
        s = self._s
        if type(pad) is not int or pad < 0:
            raise ConfigError(f"pad must be a number of zeros (an int >= 0), not {pad!r}")
        seen = self._seen[encoding] if type(encoding) is int and 0 < encoding < 4 else None
        if seats is None and seen is not None:       # every seat, a valid encoding (the usual call): no checks
            return _observations_joined(s, seen.L.seats, seen, pad)
        return _observations_joined(s, _observers(s, seats), self._observed(encoding), pad)

    def _observed(self, encoding: Any) -> _Seen:
        """What this game's observations in ``encoding`` were last written from (on first use a
        copy of its set-up's, ``seen_for``; ConfigError for an encoding that is not one)."""
        seen = self._seen[_check_encoding(encoding)]
        if seen is None:
            seen = _seen_for(self._s, encoding)
            if encoding < 3:
                self._seen[1] = self._seen[2] = seen
            else:
                self._seen[3] = seen
        return seen

    def observation_modules(self, view: Mapping[str, Any], seat: Any, encoding: Any = _ENCODING) -> array:
        """The modules' numbers of :meth:`observation` (its end: the slices after ``bag``) made
        from ``view`` = ``view(seat)`` (full or lean) of a game of this set-up, in ``encoding``:
        for code that has only views (e.g. a client of the server) and the check that the
        vector shows what the view shows (the same numbers, tested)."""
        self._check_seat(seat)
        encoding = _check_encoding(encoding)
        try:
            return _modules_from_view(self._s, view, seat, encoding)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise StateError(f"observation_modules: not a view of seat {seat!r} of a game of this set-up "
                             f"({type(e).__name__}: {e})") from None

    def observation_layout(self, encoding: Any = _ENCODING) -> tuple[tuple[str, int, int], ...]:
        """The slices of :meth:`observation` in ``encoding``: ``(name, start, length)`` in order
        (the same for every game of this set-up: player count, modules, components)."""
        return _observation_layout(self._s, _check_encoding(encoding)).slices

    def full_view(self) -> dict[str, Any]:
        """Everything face up, for replays and analysis (never for a seat in a live game): the
        spectator's view with every seat's paints, Thalers and plan, every event, and
        ``secrets`` (per seat, the module parts only it sees, e.g. its scrolls)."""
        return _full_view(self._s)

    def _check_seat(self, seat: Any) -> None:
        if seat is not None and (isinstance(seat, bool) or not isinstance(seat, int) or not 0 <= seat < self._s.n):
            raise FrescoError(f"seat must be None or 0..{self._s.n - 1}, not {seat!r}")

    def events(self, seat: Any = None) -> list[dict[str, Any]]:
        """The events ``seat`` may see (None: a spectator), oldest first, as plain dicts with a
        ``kind`` and the ``round`` they happened in (docs/events.md)."""
        self._check_seat(seat)
        return [dict(e) for e in seat_events(self._s.log, seat)]

    def events_since(self, seat: Any, mark: Any = None) -> tuple[list[dict[str, Any]] | None, Any]:
        """The events ``seat`` may see (as in :meth:`events`) added since ``mark``, and a new
        mark.  ``mark`` is an opaque value from an earlier call on this game or an earlier
        position of it (None: from the start).  Returns ``(None, mark)`` when this log does not
        extend ``mark`` (another game, or a position before it): read again from None."""
        self._check_seat(seat)
        new, head = self._since(mark)
        return (None if new is None else _events(new, seat)), head

    def _since(self, mark: Any) -> tuple[list | None, Any]:
        node = head = self._s.log
        new = []
        while node is not None and node is not mark:
            new.append(node[0])
            node = node[1]
        if node is not mark:
            return None, head
        new.reverse()
        return new, head

    def vp_sources(self) -> list[dict[str, int]]:
        """VP by source for every figure, in the order of :meth:`scores` (seats, then Leonardo):
        source name -> VP (docs/events.md), adding up to the figure's score."""
        return track.vp_sources(self._s)

    def clone(self) -> "Game":
        return Game(self._s.clone())

    def __copy__(self) -> "Game":
        return self.clone()

    def __reduce__(self) -> tuple:
        """Pickled as its saved state (:meth:`to_json`, compact): the same game in either build
        (the compiled build's records refuse Python's default pickling); what its observations
        were last written from stays behind (a new game starts from its set-up's: the same vectors)."""
        return type(self).from_json, (self.to_json(pretty=False),)

    def __deepcopy__(self, memo) -> "Game":
        return self.clone()

    # --- saving, records -------------------------------------------------------------
    def to_json(self, pretty: bool = True) -> str:
        """The full state (docs/state-format.md), including hidden information; indented for
        people, or compact with ``pretty=False``."""
        return serialize.dumps(self._s, pretty)

    @classmethod
    def from_json(cls, text: Any) -> "Game":
        """Load a saved game or hand-written position; raises StateError if invalid."""
        return cls(serialize.loads(text, _hooks_for))

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> "Game":
        """``from_json`` of the text already parsed (``json.loads(text)``: lists, not tuples),
        without writing and reading it again; the same checks and StateError.  The game may keep
        parts of ``data`` (its set-up, the log's events) and never changes it: change a copy."""
        return cls(serialize.load(data, _hooks_for))

    @classmethod
    def from_view(cls, view: Mapping[str, Any], seat: Any, hidden: Mapping[str, Any] | None = None, *,
                  seed: Any = None, log: Any = None) -> "Game":
        """A game consistent with ``view`` = ``game.view(seat)`` whose hidden parts are
        ``hidden`` (a determinization, for searching bots): ``result.view(seat) == view``.

        hidden: ``{"figures": {figure: {"paints": "RYB", "thalers": 12, "plan": [1, 2, 0, 1, 1]}},
        "modules": {module: its state in the saved format}}``, the other seats' paints and
        Thalers (required), their committed secret plans (a plan not given leaves that seat
        uncommitted: ``legal_actions(figure)`` then lists the plans it could have made) and
        every module's state (docs/state-format.md).  seed: of the chance events to come
        (random when omitted).  log: the entries ``[round, seat, entry]`` to keep (default:
        the view's).  The history starts at this position.  Raises StateError if ``hidden``
        is incomplete or inconsistent.
        """
        if seed is None:
            seed = secrets.randbelow(2**48)
        if isinstance(view, Mapping) and "seat" in view and view["seat"] != seat:
            raise StateError(f"from_view: the view is seat {view['seat']!r}'s, not seat {seat!r}'s")
        try:
            data = state_from_view(view, seat, hidden, seed, log)
        except (KeyError, TypeError, ValueError, IndexError, AttributeError) as e:
            raise StateError(f"from_view: not a view of seat {seat!r} and its hidden parts "
                             f"({type(e).__name__}: {e})") from None
        return cls(serialize.load(data, _hooks_for))

    def history(self) -> list[tuple[int, str]]:
        return [(seat, str(action)) for seat, action in cons_to_list(self._s.history)]

    def record(self) -> dict[str, Any]:
        """The game record: its set-up and every action since, as notation."""
        setup = self._s.setup
        assert setup is not None, "a Game's state always keeps its set-up"
        hist = self.history()[setup.get("history_offset", 0):] if "position" in setup else self.history()
        return {"format": RECORD_FORMAT, "setup": setup, "actions": [list(h) for h in hist]}

    def __repr__(self) -> str:
        s = self._s
        return f"<affresco.Game {s.n} players, round {s.round}, {s.phase}, to act {list(self.to_act)}>"


def _observers(s: State, seats: Any) -> Sequence[int]:
    """The seats of :meth:`Game.observations` (None: every seat), each checked."""
    if seats is None:
        return range(s.n)
    try:
        seats = list(seats)
    except TypeError:
        raise FrescoError(f"seats is a list of seats 0..{s.n - 1} (or None: every seat), not {seats!r}") from None
    for seat in seats:
        _check_observer(s, seat)
    return seats


def _check_observer(s: State, seat: Any) -> None:
    """Refuse a seat that is not one of the game's (an observation is always a seat's)."""
    if type(seat) is not int or not 0 <= seat < s.n:
        raise FrescoError(f"seat must be 0..{s.n - 1}, not {seat!r}")


def _forced_passes(g: Game) -> None:
    """An ``affresco-record/1`` record (before forced passes were the player's own, rules notes
    N2) leaves them out: while a single seat is to act whose only legal action is 'pass', it
    passes."""
    while not g.is_over and len(g.to_act) == 1 and g.legal_actions(g.to_act[0]) == [PASS]:
        g.apply(g.to_act[0], PASS)


def replay(record: Mapping[str, Any] | str, upto: Any = None) -> Game:
    """Rebuild a game from its record (optionally only the first ``upto`` actions).  An
    ``affresco-record/1`` record, written before a forced pass became the player's own action
    (rules notes N2), still replays: those passes are made where it leaves them out; so does a
    later record written before the wall tile's forced pass was asked (W2)."""
    if isinstance(record, str):
        try:
            record = json.loads(record)
        except (ValueError, RecursionError) as e:   # RecursionError: too deeply nested
            raise StateError(f"game record: not valid JSON: {e}") from None
    if not isinstance(record, Mapping) or record.get("format") not in RECORD_FORMATS:
        raise StateError(f"game record: expected an object with format {RECORD_FORMAT!r}")
    legacy = record.get("format") != RECORD_FORMAT
    setup = record.get("setup")
    actions = record.get("actions")
    if not isinstance(setup, Mapping) or not isinstance(actions, list):
        raise StateError("game record: needs 'setup' and 'actions'")
    if upto is not None and (type(upto) is not int or upto < 0):
        raise StateError(f"replay: upto is a number of actions (an int >= 0), not {upto!r}")
    if "position" in setup:
        if not isinstance(setup["position"], Mapping):
            raise StateError(f"game record: setup.position is a saved state (an object), not {setup['position']!r}")
        pos = dict(setup["position"])
        pos["setup"] = dict(setup)
        g = Game.from_json(json.dumps(pos))
        g._s.setup = dict(setup)
        g._s.setup["history_offset"] = 0
    else:
        try:
            g = new_game(setup["players"], setup.get("modules", ()), setup["seed"], setup.get("options"),
                         None if setup.get("components", "reference") == "reference" else setup["components"])
        except KeyError as e:
            raise StateError(f"game record: setup lacks {e}") from None
        except FrescoError as e:
            raise StateError(f"game record: bad setup: {e}") from None
    for i, entry in enumerate(actions[:upto]):   # told as move i + 1: 'affresco replay' shows move N after N actions
        if not (isinstance(entry, list) and len(entry) == 2):
            raise StateError(f"game record: move {i + 1}: {entry!r} is not [seat, notation]")
        if legacy:
            _forced_passes(g)
        try:
            g.apply(entry[0], entry[1])
        except IllegalAction as e:
            # written before a forced forfeit was asked of the player (the wall tile's visit,
            # rules notes W2): that pass is made, as for an affresco-record/1 record (N2)
            if not legacy and len(g.to_act) == 1 and g.legal_actions(g.to_act[0]) == [PASS]:
                _forced_passes(g)
                try:
                    g.apply(entry[0], entry[1])
                    continue
                except IllegalAction:
                    pass
            raise StateError(f"game record: move {i + 1} ({entry[1]!r} by seat {entry[0]}) is illegal: {e}") from None
    if legacy and (upto is None or upto >= len(actions)):
        _forced_passes(g)
    return g


def upgrade_record(record: Mapping[str, Any]) -> tuple[dict[str, Any], int]:
    """An ``affresco-record/1`` record as an ``affresco-record/2`` one (its forced passes made,
    rules notes N2), for tools that step through records action by action.  Stops before the
    first action the current rules refuse (a record played under a rule revised since, e.g. M2);
    returns the new record and how many of the old actions it keeps.  A /2 record is returned
    as it is."""
    if record.get("format") == RECORD_FORMAT:
        return dict(record), len(record.get("actions") or [])
    g = replay(record, upto=0)
    kept = 0
    for seat, notation in record.get("actions") or []:
        _forced_passes(g)
        try:
            g.apply(seat, notation)
        except (IllegalAction, TypeError, ValueError):
            break
        kept += 1
    else:
        _forced_passes(g)
    return g.record(), kept
