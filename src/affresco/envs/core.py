"""What every wrapper shares: the set-up, the action index space, the observation vector and
the end-of-game rewards (docs/envs.md).  Built only on the public engine API.

* :class:`ActionCodec`: ``Game.action_space()`` as indices, ``index <-> Action`` both ways and
  the legal mask.
* :class:`ObservationEncoder`: a fixed-size float32 vector per seat made from
  ``game.view(seat)`` alone, with a named layout (:attr:`ObservationEncoder.layout`).
* :func:`final_rewards`: ``margin``, ``rank`` or ``win``.
"""
from __future__ import annotations

import functools
import operator
import sys
import threading
from array import array
from dataclasses import dataclass, field
from typing import TYPE_CHECKING, Any, Iterable, Mapping, NamedTuple, Sequence

import numpy as np

import affresco
from affresco import Action, Game

from affresco.rules import PLAN_SCALE, parse_tile_text as _parse_tile_text
from affresco.rules.board import COLUMNS
from affresco.rules.paints import BLENDED, PAINTS

#: The encoding (action order and observation layout) the environments use unless told
#: (``encoding=1``): env ids end in it.  1: a plan is one action (up to ~191,000 of them with
#: the medico); 2: a plan is chosen as a few small choices (:class:`PlanChoice`, docs/envs.md);
#: 3: encoding 2's actions, the modules' parts of the observation in fixed, named slots
#: (``affresco.rules.observation.ModuleSlots``) instead of hashed.
ENCODING_VERSION = 3
ENCODINGS = (1, 2, 3)

REWARDS = ("margin", "rank", "win")
PHASES = ("getup", "plan", "visits", "over")   # the engine's (affresco.rules.observation.PHASES)
COLUMN_NAMES = ("market", "cathedral", "studio", "workshop", "theater")
SEGMENTS = tuple(f"{c}{r}" for r in range(1, 6) for c in COLUMNS)
SEGMENT_INDEX = {s: i for i, s in enumerate(SEGMENTS)}


def _modules(modules: Iterable[str] | str) -> tuple[str, ...]:
    if isinstance(modules, str):
        modules = [m.strip() for m in modules.replace("+", ",").split(",") if m.strip()]
    if not isinstance(modules, Iterable):
        raise affresco.ConfigError(f"modules is a list of module names, not {modules!r}")
    out = tuple(modules)
    unknown = [m for m in out if not isinstance(m, str) or m not in affresco.MODULES]
    if unknown:
        raise affresco.ConfigError(f"unknown module(s) {unknown}; available: {', '.join(sorted(affresco.MODULES))}")
    return tuple(sorted(out))


@dataclass(frozen=True)
class Config:
    """A set-up: player count, modules and rule options (what fixes the encoding)."""

    players: int = 2
    modules: tuple[str, ...] = ()
    options: Mapping[str, bool] = field(default_factory=dict)
    encoding: int = ENCODING_VERSION

    @classmethod
    def of(cls, players: int = 2, modules: Iterable[str] | str = (), options: Mapping[str, bool] | None = None,
           encoding: int = ENCODING_VERSION) -> "Config":
        if isinstance(players, bool) or not isinstance(players, int) or not 2 <= players <= 4:
            raise affresco.ConfigError(f"players must be 2, 3 or 4, not {players!r}")
        if encoding not in ENCODINGS:
            raise affresco.ConfigError(f"encoding must be one of {', '.join(map(str, ENCODINGS))}, not {encoding!r}")
        if options is not None and not isinstance(options, Mapping):
            raise affresco.ConfigError(f"options is a mapping of option names to values, not {options!r}")
        return cls(players, _modules(modules), dict(options or {}), encoding)

    def new_game(self, seed: int | str | None) -> Game:
        """A new engine game of this set-up."""
        return affresco.new_game(self.players, self.modules, seed=seed, options=self.options)

    def new_env_game(self, seed: int | str | None) -> "Game | SteppedGame":
        """A new game as the wrappers play it: the engine's, with encoding 2 or 3 and plans of
        several steps in a :class:`SteppedGame` (plans chosen a step at a time)."""
        return self.stepped(self.new_game(seed))

    def stepped(self, game: Game) -> "Game | SteppedGame":
        """``game`` as the wrappers play it (see :meth:`new_env_game`)."""
        draft = tables(self)[1].draft
        return game if draft is None else SteppedGame(game, draft, encoding=self.encoding)

    @property
    def figures(self) -> int:
        """Seats plus Leonardo in a 2-player game."""
        return self.players + (1 if self.players == 2 else 0)

    @property
    def env_id(self) -> str:
        mods = "".join("+" + m for m in self.modules)
        mods += "".join("+" + k for k, v in sorted(self.options.items()) if v)
        return f"Fresco-{self.players}p{mods}-v{self.encoding}"


class PlanChoice(NamedTuple):
    """One step of a plan chosen a step at a time (encoding 2, :meth:`affresco.Game.plan_choices`):
    the step (``counts``, ``audience``, ``wall``, ``ill``, ``medico``) and the choice (the
    plan's arguments it adds; ``()`` leaves the word out).  Its ``kind`` is ``plan``: it is as
    secret as the plan it is part of."""

    step: str
    choice: tuple[str, ...]
    kind: str = "plan"

    def __str__(self) -> str:
        return f"plan {self.step}: {' '.join(self.choice) or 'none'}"


def plan_choice_space(game: Game) -> tuple[PlanChoice, ...]:
    """Every choice of every step that makes one of the plans of the game's action space,
    step by step in :meth:`~affresco.Game.plan_steps` order, each step's in the order the
    plans first show them (leaving a word out first); made once per action space."""
    space = game.action_space()
    hit = _CHOICE_SPACES.get(id(space))
    if hit is None or hit[0] is not space:
        hit = _CHOICE_SPACES[id(space)] = (space, _choice_space(game, [a for a in space if a.kind == "plan"]))
    return hit[1]


_CHOICE_SPACES: dict[int, tuple] = {}    # id(action space) -> (it, plan_choice_space's answer)


def _choice_space(game: Game, plans: Sequence[Action]) -> tuple[PlanChoice, ...]:
    steps = game.plan_steps()
    counts: dict[str, None] = {}
    rests: dict[tuple, None] = {}
    for a in plans:
        counts[a.args[0]] = None
        rests[a.args[1:]] = None
    per_step: list[dict] = [{(t,): None for t in counts}] + [{(): None} for _ in steps[1:]]
    some = next(iter(counts))
    for rest in rests:
        for k, c in enumerate(game.plan_as_choices(Action("plan", (some, *rest)))[1:], 1):
            per_step[k][c] = None
    return tuple(c for step, found in zip(steps, per_step) for c in _plan_choices(step, found))


class DraftLayout:
    """The observation's slices of the seat's own plan in progress (encoding 2), after the
    engine's vector: ``plan_step`` (one-hot: the step the seat chooses now, while it plans),
    then per step ``plan:<step>`` its choice once made: a step whose choices hold counts
    (:meth:`affresco.Game.plan_choice_counts`: ``counts``, the medico's ``ill``) as a made flag
    then the apprentices per column / ``PLAN_SCALE`` (as the engine's plan slices); any other
    step's choice one-hot among the step's choices (leaving the word out among them).  Nothing
    of another seat's plan."""

    def __init__(self, steps: tuple[str, ...], space: Sequence[PlanChoice]):
        self.steps = steps
        self.slices: list[tuple[str, int, int]] = [("plan_step", 0, len(steps))]
        self._writers: list[tuple[int, dict | None]] = []   # per step: (start, choice -> place, or None: counts)
        pos = len(steps)
        for step in steps:
            found = [c.choice for c in space if c.step == step]
            counted = [Game.plan_choice_counts(c) for c in found if c]
            if counted and None not in counted:
                length, places = 1 + len(counted[0]), None
            else:
                length, places = len(found), {c: i for i, c in enumerate(found)}
            self._writers.append((pos, places))
            self.slices.append((f"plan:{step}", pos, length))
            pos += length
        self.size = pos
        self._blocks: dict[tuple, array] = {}
        #: the slices of a seat with no plan in progress and not planning (every seat, outside planning)
        self.idle: array = self.block((), False)

    def block(self, draft: tuple, planning: bool) -> array:
        """The slices' numbers for a seat's ``draft`` (its choices so far) and whether it is
        planning now (an ``array('f')``, kept: read it, never change it); a new draft's made
        from the draft before its last choice (a plan's steps come one at a time)."""
        key = (draft, planning)
        x = self._blocks.get(key)
        if x is None:
            k = len(draft)
            if k:
                x = self.block(draft[:-1], planning) * 1
                if planning:               # the step chosen now moves on
                    x[k - 1] = 0.0
                    if k < len(self.steps):
                        x[k] = 1.0
                start, places = self._writers[k - 1]
                choice = draft[-1]
                if places is not None:
                    x[start + places[choice]] = 1.0
                elif choice:
                    x[start] = 1.0
                    for i, n in enumerate(Game.plan_choice_counts(choice) or (), start + 1):
                        x[i] = n / PLAN_SCALE
            else:
                x = array("f", bytes(4 * self.size))
                if planning and self.steps:
                    x[0] = 1.0
            if len(self._blocks) > 4096:
                self._blocks.clear()
            self._blocks[key] = x
        return x


class SteppedGame:
    """A game whose plans are chosen a step at a time (encoding 2): what the wrappers play.
    ``legal_actions`` of a planning seat gives the :class:`PlanChoice` of its next step
    (:meth:`affresco.Game.plan_choices` after its choices so far, :attr:`drafts`);
    ``apply`` of one adds it to the seat's draft and, at the last step, applies the plan to
    the engine (:attr:`engine`, the :class:`affresco.Game`).  Other seats never see a draft:
    it is in its own seat's :meth:`observation` only (:class:`DraftLayout`).  Anything else is
    the engine's (``view``, ``record``, ``scores`` ...)."""

    __slots__ = ("engine", "drafts", "layout", "_step_names", "encoding", "_here_at", "_here")

    def __init__(self, engine: Game, layout: DraftLayout, drafts: Sequence[tuple] | None = None,
                 encoding: int = ENCODING_VERSION):
        self.engine = engine
        self.layout = layout
        self.encoding = encoding          # of the engine's vectors (2 or 3)
        self._step_names = engine.plan_steps()
        self.drafts: list[tuple] = list(drafts) if drafts is not None else [()] * engine.players
        # what is asked of a planning position (the choices of a plan do not move the engine),
        # made once per position (``_here_at``: the engine's actions applied then): see _seat
        self._here_at = -1
        self._here: tuple = ((), [], {})

    def __reduce__(self):              # (the per-position answers are not kept: made again when asked)
        return SteppedGame, (self.engine, self.layout, self.drafts, self.encoding)

    if TYPE_CHECKING:       # the engine's other names (made below: _delegate)
        def __getattr__(self, name: str) -> Any: ...

    @property
    def to_act(self) -> tuple[int, ...]:
        return self.engine.to_act

    @property
    def is_over(self) -> bool:
        return self.engine.is_over

    @property
    def phase(self) -> str:
        return self.engine.phase

    @property
    def actions_applied(self) -> int:
        """The engine's (a plan's choices are one action, applied at the last)."""
        return self.engine.actions_applied

    @property
    def players(self) -> int:
        return self.engine.players

    def _seat(self, seat: int) -> list:
        """This planning position's record of ``seat`` (made when the engine moved): ``[draft,
        offered, block, vector]``: the draft the next two are of (a draft changes by
        :meth:`apply` at one position), the choices offered to it (:meth:`_offered`; ``_ASK``:
        not asked yet), its draft's slices (:meth:`DraftLayout.block`; None: not made yet) and
        the engine's vector of the seat (None: not made yet)."""
        e = self.engine
        at = e.actions_applied
        if self._here_at != at:
            self._here_at = at
            self._here = (e.to_act, [[_NO_DRAFT, _ASK, None, None] for _ in self.drafts], {})
        return self._here[1][seat]

    def _offered(self, seat: int) -> tuple | None:
        """``(choices, PlanChoices, set of choices)`` of the seat's next step, or None if it
        is not planning now."""
        e = self.engine
        if e.phase != "plan" or not 0 <= seat < len(self.drafts):
            return None
        rec = self._seat(seat)
        draft = self.drafts[seat]
        if rec[0] is not draft:
            rec[0], rec[1], rec[2] = draft, _ASK, None
        hit = rec[1]
        if hit is not _ASK:
            return hit
        rec[1] = None
        if seat not in self._here[0]:
            return None
        try:
            found = e.plan_choices(seat, draft)
        except affresco.IllegalAction:      # a module's question while planning
            return None
        hit = _OFFERED.get(id(found))
        if hit is None or hit[0] is not found:
            key = (self._step_names[len(draft)], found)
            same = _OFFERED_AS.get(key)     # the same choices offered before (a new situation, the same answer)
            if same is None:
                same = (_plan_choices(*key), frozenset(found))
                if len(_OFFERED_AS) > 4096:
                    _OFFERED_AS.clear()
                _OFFERED_AS[key] = same
            hit = (found, *same)
            if len(_OFFERED) > 4096:
                _OFFERED.clear()
            _OFFERED[id(found)] = hit
        rec[1] = hit
        return hit

    def legal_actions(self, seat: int) -> Sequence[Action | PlanChoice]:
        e = self.engine
        if e.phase != "plan":            # no plan being chosen: the engine's own
            return e.legal_actions(seat)
        offered = self._offered(seat)
        return e.legal_actions(seat) if offered is None else offered[1]

    def apply(self, seat: Any, action: Any) -> bool:
        """Apply ``action`` (an engine action, or a :class:`PlanChoice` of a planning seat);
        IllegalAction (nothing changed) if it is not legal now."""
        if type(action) is PlanChoice:
            offered = self._offered(seat) if type(seat) is int else None
            draft = self.drafts[seat] if offered is not None else ()
            if offered is None or action.step != self._step_names[len(draft)] or action.choice not in offered[2]:
                raise affresco.IllegalAction(
                    f"{action} is not a choice of seat {seat!r} now"
                    + (f"; choices of step {self._step_names[len(draft)]}: {', '.join(map(str, offered[1][:12]))}"
                       if offered is not None else " (it is not planning)"))
            draft += (action.choice,)
            if len(draft) < len(self._step_names):
                self.drafts[seat] = draft
                return False
            self.drafts[seat] = ()
            return self.engine.apply(seat, self.engine.plan_of(draft))
        if type(seat) is int and 0 <= seat < len(self.drafts) and self.drafts[seat]:
            raise affresco.IllegalAction(f"seat {seat} is choosing its plan a step at a time: next, its "
                                         f"{self._step_names[len(self.drafts[seat])]} (encoding 2)")
        return self.engine.apply(seat, action)

    def as_steps(self, action: Action | str) -> tuple[Action | PlanChoice, ...]:
        """``action`` as this game takes it: a plan as the :class:`PlanChoice` of each step (a
        bot's plan played into an env a step at a time), any other action as itself."""
        if isinstance(action, str):
            action = affresco.parse(action)
        if action.kind != "plan":
            return (action,)
        return tuple(map(PlanChoice, self._step_names, self.engine.plan_as_choices(action)))

    def _check(self, encoding: Any) -> None:
        if encoding != self.encoding:
            raise affresco.ConfigError(f"this game's vectors are encoding {self.encoding}'s, not {encoding!r}")

    def observation(self, seat: Any, encoding: int | None = None) -> array:
        """The engine's vector of the seat, then its draft's slices (:class:`DraftLayout`), in
        the game's encoding (``encoding``: None or the same, as ``Game.observation`` takes it)."""
        if encoding is not None and encoding != self.encoding:
            self._check(encoding)
        e = self.engine
        if type(seat) is not int or not 0 <= seat < len(self.drafts):
            return e.observation(seat)      # (the engine's refusal)
        if e.phase != "plan":            # no plan being chosen: no position kept, the draft's slices idle
            return e.observation(seat, self.encoding) + self.layout.idle
        rec = self._seat(seat)           # (the engine's vector once per position, the slices once per draft)
        draft = self.drafts[seat]
        if rec[0] is not draft:
            rec[0], rec[1], rec[2] = draft, _ASK, None
        x = rec[3]
        if x is None:
            x = rec[3] = e.observation(seat, self.encoding)
        block = rec[2]
        if block is None:
            block = rec[2] = self.layout.block(draft, seat in self._here[0])
        return x + block

    def observations_joined(self, seats: Any = None, encoding: int | None = None) -> array:
        """:meth:`observation` of ``seats`` (default: every seat) back to back in a new
        ``array('f')``, as ``Game.observations_joined``: the engine's joined vectors with room for
        the draft's slices after each (``Game.observations_joined(..., pad=)``, made once per
        position while planning, then copied), each seat's draft's slices written into its room
        (none in progress outside planning: the idle slices, zeros, the room as it is)."""
        if encoding is not None:
            self._check(encoding)
        key = None if seats is None else tuple(seats)      # (seats read once: any iterable)
        e = self.engine
        pad = self.layout.size
        if e.phase != "plan":
            return e.observations_joined(key, self.encoding, pad)
        seats = range(e.players) if key is None else key
        self._seat(0)                   # the engine's joined vectors once per position, copied
        planning, recs, kept = self._here
        joined = kept.get(key)
        if joined is None:
            joined = kept[key] = e.observations_joined(key, self.encoding, pad)
        x = joined * 1
        row = len(x) // len(seats) if seats else 0
        layout = self.layout
        idle = layout.idle
        drafts = self.drafts
        for i, seat in enumerate(seats):
            rec = recs[seat]            # (_block of each seat, this position's records made above)
            draft = drafts[seat]
            if rec[0] is not draft:
                rec[0], rec[1], rec[2] = draft, _ASK, None
            block = rec[2]
            if block is None:
                block = rec[2] = layout.block(draft, seat in planning)
            if block is not idle:
                x[(i + 1) * row - pad:(i + 1) * row] = block
        return x

    def observation_rows(self, seats: Any = None) -> np.ndarray:
        """:meth:`observation` of ``seats`` (default: every seat) as the rows of a new float32
        array (writable, over the new ``array('f')`` of :meth:`observations_joined`)."""
        key = None if seats is None else tuple(seats)      # (seats read once: any iterable)
        x = self.observations_joined(key)
        k = self.engine.players if key is None else len(key)
        return np.frombuffer(x, F32).reshape(k, len(x) // k if k else self.layout.size)

    def clone(self) -> "SteppedGame":
        return SteppedGame(self.engine.clone(), self.layout, self.drafts, self.encoding)


def _delegate(name: str) -> property:
    """A :class:`SteppedGame` property reading the engine's ``name`` (a class-level name, not
    ``__getattr__``: a class with ``__getattr__`` has every attribute read of its instances,
    its own included, go the slow generic way, at every step)."""
    def get(self: SteppedGame) -> Any:
        return getattr(self.engine, name)
    get.__name__ = name
    return property(get, doc=f"The engine's :attr:`affresco.Game.{name}`.")


for _name in dir(Game):          # the rest of the engine's public names, as the engine's
    if not _name.startswith("_") and _name not in SteppedGame.__dict__:
        setattr(SteppedGame, _name, _delegate(_name))


_OFFERED: dict[int, tuple] = {}    # id(the engine's choices) -> SteppedGame._offered's answer (keeps them)
# (step, the engine's choices) -> (PlanChoices, set of choices): one PlanChoice tuple per answer, so that a
# wrapper's codec finds its mask by the tuple's identity (ActionCodec.legal_entry) in new situations too
_OFFERED_AS: dict[tuple, tuple] = {}
_ASK = object()         # SteppedGame._seat: the choices offered not asked yet
_NO_DRAFT = object()    # SteppedGame._seat: no draft's answers kept yet


class _StepChoices(dict):
    """One step's :class:`PlanChoice` per choice, each made once per process and shared (a
    step has a few hundred choices at most: the action space's)."""

    def __init__(self, step: str):
        super().__init__()
        self.step = step

    def __missing__(self, choice: tuple[str, ...]) -> PlanChoice:
        made = self[choice] = PlanChoice(self.step, choice)
        return made


_STEP_CHOICES: dict[str, _StepChoices] = {}    # step -> its choices' PlanChoice


def _plan_choices(step: str, found: Sequence[tuple[str, ...]]) -> tuple[PlanChoice, ...]:
    """``PlanChoice(step, c)`` of each choice ``c`` of ``found``: the step's kept ones, found by
    a dict look-up each (a step offers up to a few hundred; making them anew cost ~10x more)."""
    kept = _STEP_CHOICES.get(step)
    if kept is None:
        kept = _STEP_CHOICES[step] = _StepChoices(step)
    return tuple(map(kept.__getitem__, found))


class ActionCodec:
    """The fixed action index space of a set-up: index ``i`` is ``actions[i]``: the engine's
    action space (``Game.action_space()``), with encoding 2 its plans replaced by the
    :class:`PlanChoice` of every step (at the end) when a plan has more than one step (a
    module's plan words: bells, wall fresco, medico; else a plan is its counts, one step, and
    encoding 2 is encoding 1)."""

    def __init__(self, config: Config):
        self.config = config
        game = config.new_game(seed=0)
        space: tuple = game.action_space()
        if config.encoding >= 2 and len(game.plan_steps()) > 1:   # (a plan of one step is the plan itself)
            space = tuple(a for a in space if a.kind != "plan") + plan_choice_space(game)
        self.actions: tuple[Action | PlanChoice, ...] = space
        self.index: dict[Action | PlanChoice, int] = {a: i for i, a in enumerate(self.actions)}
        self.size = len(self.actions)
        self._by_length: dict[tuple[int, int], list] = {}   # see mask()
        self._short: dict[int, dict[tuple, list]] = {}   # extra -> actions -> [mask, sorted indices] (see mask())
        # short lists' masks kept: about 64 MB of them (~20,000 in the base game)
        self._short_limit = max(64, (64 << 20) // (self.size + 1))
        self._by_object: dict[tuple[int, int], tuple] = {}
        self._by_recipe: dict[tuple, list] = {}
        self._pool: dict[int, list[list]] = {}    # extra -> [bytes, mask, its indices] (see _unshared)
        self._pool_lock = threading.Lock()

    def __getstate__(self) -> dict:
        state = dict(self.__dict__)
        state["_pool"] = {}            # the reusable masks and their lock stay with this process
        del state["_pool_lock"]
        return state

    def __setstate__(self, state: dict) -> None:
        self.__dict__.update(state)
        self._pool_lock = threading.Lock()

    def encode(self, action: Action | PlanChoice | str) -> int:
        """The index of an action (or its notation) or, with encoding 2, a :class:`PlanChoice`."""
        if isinstance(action, str):
            action = affresco.parse(action)
        try:
            return self.index[action]
        except KeyError:
            raise affresco.IllegalAction(f"{str(action)!r} is not in the action space of {self.config.env_id}") from None

    def decode(self, index: int) -> Action | PlanChoice:
        if not 0 <= int(index) < self.size:
            raise affresco.IllegalAction(f"action index {index} is outside 0..{self.size - 1}")
        return self.actions[int(index)]

    def indices(self, legal: Sequence[Action]) -> list[int]:
        idx = self.index
        return [idx[a] for a in legal]

    def index_array(self, legal: Sequence[Action]) -> np.ndarray:
        """The indices of ``legal`` as an integer array (in its order)."""
        return np.fromiter(map(self.index.__getitem__, legal), dtype=np.intp, count=len(legal))

    def mask(self, legal: Sequence[Action], extra: int = 0) -> np.ndarray:
        """The 0/1 int8 vector of ``legal`` (``extra`` more zero entries at the end): a read-only
        array (copy it to change it), the same array for the same actions where it is kept
        (:meth:`shares`).

        Masks are remembered, so the indices of a legal list are looked up once per distinct
        list, not at every decision: a short list by its contents (a tuple of its actions, hashed
        and compared in C), unless the action space is large (the medico's: a mask of
        ~200 KB is not kept, keeping hundreds measured no faster; one nobody refers to any more
        is written again in place, :meth:`_unshared`); a long one (a
        planning decision: up to ~110,000 plans with all eight modules) by the sequence object
        the engine hands out (its plans are the same object for the same situation) or, for a
        list, by its contents."""
        if len(legal) <= _SHORT:
            if self.size > _KEPT_SPACE:       # a mask of ~200 KB (the medico's plans): not kept
                return self._unshared(legal, extra)
            return self.legal_entry(legal, extra)[0]
        return self._entry(legal, extra)[0]

    def shares(self, legal: Sequence[Action]) -> bool:
        """Whether :meth:`mask` gives ``legal`` a kept array, shared by the next calls with the
        same actions (else a new read-only one each time)."""
        return len(legal) > _SHORT or self.size <= _KEPT_SPACE

    def _made(self, legal: Sequence[Action], extra: int) -> list:
        """[read-only mask, its ones' indices in increasing order] of a short list, from one
        look-up of its actions; the mask written byte by byte (cheaper than numpy's indexing)."""
        idx = sorted(map(self.index.__getitem__, legal))
        b = bytearray(self.size + extra)
        for i in idx:
            b[i] = 1
        m = np.frombuffer(b, np.int8)
        m.setflags(write=False)       # (cheaper than setting m.flags.writeable)
        return [m, tuple(idx)]

    def _unshared(self, legal: Sequence[Action], extra: int) -> np.ndarray:
        """A new read-only mask of a short list in a large action space.  Making one means
        zeroing ~200 KB (the medico's space), so the last few such masks are written again in
        place once nothing but this codec refers to them any more (CPython's reference count:
        an agent that keeps a mask, a view or a slice of it keeps it unchanged): only the
        entries of the old and the new list are written (under a lock: envs in several threads
        may share this codec)."""
        pool = self._pool.get(extra)
        if pool is None:
            pool = self._pool[extra] = []
        idx = list(map(self.index.__getitem__, legal))
        if _refcount is not None:
            with self._pool_lock:
                for slot in pool:
                    if _refcount(slot[1]) == _FREE_MASK and _refcount(slot[0]) == _FREE_BYTES:
                        m, b = slot[1], slot[0]     # now referred to here: no other call takes it
                        for i in slot[2]:
                            b[i] = 0
                        for i in idx:
                            b[i] = 1
                        slot[2] = idx
                        return m
        b = bytearray(self.size + extra)
        for i in idx:
            b[i] = 1
        m = np.frombuffer(b, np.int8)
        m.setflags(write=False)
        if _refcount is not None and len(pool) < 8:
            with self._pool_lock:
                pool.append([b, m, idx])
        return m

    def legal_entry(self, legal: Sequence[Action], extra: int = 0, masked: bool = True) -> list:
        """What a wrapper reads of a decision's legal actions, in one look-up: ``[mask (as
        :meth:`mask`; None if not ``masked`` and not made yet), its ones' indices in increasing
        order (a tuple)]``, kept with the mask (read it, never change it), so an agent's legal
        indices cost no scan of the mask."""
        if len(legal) <= _SHORT:
            if self.size > _KEPT_SPACE:
                m = self._unshared(legal, extra) if masked else None
                return [m, tuple(sorted(map(self.index.__getitem__, legal)))]
            # a short list is found by its actions (a tuple of them: hashed and compared in C; the
            # engine makes some actions anew, so their identities would not find them): [read-only
            # mask or None (made when first asked), sorted indices or None]
            kept = self._short.get(extra)
            if kept is None:
                kept = self._short[extra] = {}
            key = legal if type(legal) is tuple else tuple(legal)
            entry = kept.get(key)
            if entry is None:
                if len(kept) > self._short_limit:
                    kept.clear()
                entry = kept[key] = [None, None]
            if entry[0] is None:
                if masked:
                    entry[:] = self._made(legal, extra)
                elif entry[1] is None:
                    entry[1] = tuple(sorted(map(self.index.__getitem__, legal)))
            return entry
        entry = self._entry(legal, extra)
        if entry[1] is None:      # the mask's ones, read as booleans (numpy's nonzero of int8 is ~15x slower)
            entry[1] = tuple(np.flatnonzero(entry[0].view(np.bool_)).tolist())
        return entry

    def _entry(self, legal: Sequence[Action], extra: int) -> list:
        """[read-only mask, sorted indices or None] of a long legal sequence."""
        if type(legal) is list:
            key = (len(legal), extra)
            seen = self._by_length.setdefault(key, [])
            for i, (actions, entry) in enumerate(seen):
                if actions == legal:
                    if i:
                        seen.insert(0, seen.pop(i))
                    return entry
            entry = [self._frozen(legal, extra), None]
            seen.insert(0, (list(legal), entry))
            del seen[32:]          # the last situations of this length
            return entry
        hit = self._by_object.get((id(legal), extra))
        if hit is not None and hit[0] is legal:
            return hit[1]
        recipe = _recipe(legal)          # the engine may make the same plans again as a new object
        entry = self._by_recipe.get((recipe, extra)) if recipe is not None else None
        if entry is None:
            entry = [self._frozen(legal, extra), None]
            if recipe is not None:
                if len(self._by_recipe) > 256:
                    self._by_recipe.clear()
                self._by_recipe[(recipe, extra)] = entry
        if len(self._by_object) > 256:
            self._by_object.clear()
        self._by_object[(id(legal), extra)] = (legal, entry)   # keeps the object: its id is not reused
        return entry

    def _frozen(self, legal: Sequence[Action], extra: int) -> np.ndarray:
        m = np.zeros(self.size + extra, dtype=np.int8)
        m[self.index_array(legal)] = 1
        m.setflags(write=False)
        return m


_refcount = getattr(sys, "getrefcount", None)   # CPython's (see ActionCodec._unshared)
# the counts of a pooled mask (and of its bytes) that nothing outside the pool refers to:
# the pool's slot and getrefcount's own argument (the bytes: also the mask's base)
_FREE_MASK, _FREE_BYTES = 2, 3
_KEPT_SPACE = 20_000   # short masks are kept for action spaces up to this size (see mask())
_SHORT = 64   # legal lists up to this long are "short": kept by contents, found by their actions (see mask())


def index_of(action: Any) -> int:
    """An action given to ``step`` as an index of the action space: an int or a numpy integer
    (a 0-d integer array too); -1, no index, for ``None`` or anything else (a float 1.7 is
    not index 1, and is refused or substituted as any illegal action)."""
    if action is None:
        return -1
    try:
        return operator.index(action)
    except TypeError:
        return -1


def allowed(mask: np.ndarray, i: int) -> bool:
    """Whether index ``i`` is legal in a mask of :meth:`ActionCodec.mask` (read from the bytes
    under it when it has them: faster than numpy's item access, at every step)."""
    b = mask.base
    return bool(b[i] if type(b) is bytearray else mask[i])


def _recipe(legal: Sequence[Action]) -> tuple | None:
    """What makes a lazy plan sequence of the engine again (its ``__reduce__``: a module
    function and the situation's numbers, nested sequences by theirs), so that the same plans
    are found again when the engine makes them anew (its memo of plan lists is bounded); None
    for a sequence that is pickled as its actions."""
    if type(legal) in (list, tuple):
        return None
    try:
        made = legal.__reduce__()
    except (TypeError, AttributeError):
        return None
    if not isinstance(made, tuple) or len(made) < 2 or made[0] in (tuple, list) or not callable(made[0]):
        return None
    args = _plain(made[1])
    return None if args is None else (getattr(made[0], "__module__", None), getattr(made[0], "__qualname__", None), args)


def _plain(value):
    """``value`` as hashable plain data (numbers, text, tuples; a nested sequence by its
    :func:`_recipe`), or None."""
    t = type(value)
    if value is None or t in (int, str, bool, float):
        return value
    if t is tuple:
        out = tuple(map(_plain, value))
        return None if any(v is None and x is not None for v, x in zip(out, value)) else out
    if isinstance(value, Sequence):
        return _recipe(value)
    return None


@functools.lru_cache(maxsize=4096)
def _tiles_block(tiles: tuple[str, ...]) -> array:
    """A figure's tiles: count / 10, VP / 50, O, G, P splashes / 5."""
    vps, spl = 0, [0, 0, 0]
    for t in tiles:
        vp, _, splashes = _tile(t)
        vps += vp
        for c in splashes:
            spl[BLENDED.index(c)] += 1
    return array("f", [len(tiles) / 10, vps / 50] + [v / 5 for v in spl])


@functools.lru_cache(maxsize=4096)
def _tile(text: str) -> tuple[int, str, str]:
    """'VP:PAINTS[/SPLASHES]' (the engine's tile notation) -> (vp, paints, splashes), by the
    engine's one tile codec."""
    return _parse_tile_text(text)


class ObservationEncoder:
    """The observation vector of a seat: what its view shows, as fixed-size float32 numbers.

    :meth:`observe` asks the engine (:meth:`Game.observation`: written straight from the
    position, a fraction of a view's cost; the wrappers use it); :meth:`encode` makes the same
    vector from a view dict ``game.view(seat)`` (for code that only has views, e.g. a client of
    the server; tested equal).  Figures are listed relative to the observer: the observer
    first, then the next seats in seat order, then Leonardo (2 players).  :attr:`layout` names
    each slice (``(name, start, length)``); docs/envs.md explains each.  Module state: with
    encoding 3 each module's numbers in fixed, named slots (``bells:display`` ...: the module's
    ``ModuleSlots``; from a view by :meth:`affresco.Game.observation_modules`), with 1 and 2 by
    feature hashing of the module's part of the view (``affresco.rules.module_block``,
    :data:`MODULE_FEATURES` numbers per module).
    """

    def __init__(self, config: Config):
        self.config = config
        g = config.new_game(seed=0)
        v = g.view(0, log=False)
        self.n = config.players
        self.F = config.figures
        self.hostel = [h["time"] for h in v["hostel"]]
        self.hostel_index = {t: i for i, t in enumerate(self.hostel)}
        self.mood_len = len(v["mood_display"])
        self.booths = list(v["booths"])
        self.market_types = sorted({t for b in g.action_space() if b.kind == "buy" for t in b.args[1:]},
                                   key=lambda t: (-len(t), [PAINTS.index(c) for c in t]))
        self.market_index = {t: i for i, t in enumerate(self.market_types)}
        self._game = g                       # (a game of the set-up: the modules' numbers from a view)
        self.layout: list[tuple[str, int, int]] = list(g.observation_layout(config.encoding))
        #: encoding 2 with plans of several steps: the slices of the seat's own plan in
        #: progress, after the engine's (None: no such slices, the plan is one step)
        self.draft: DraftLayout | None = None
        if config.encoding >= 2 and len(g.plan_steps()) > 1:
            self.draft = DraftLayout(g.plan_steps(), plan_choice_space(g))
            end = self.layout[-1][1] + self.layout[-1][2]
            self.layout += [(name, end + start, length) for name, start, length in self.draft.slices]
        self.per_figure = dict((name, length) for name, _, length in self.layout)["figures"] // self.F
        self.offsets = {name: start for name, start, _ in self.layout}
        self.o_modules = self.offsets["bag"] + 1    # the modules' numbers: from here to the engine's end
        self.module_keys: list[str] = list(v["modules"])   # the modules' names, in the engine's order
        self.size = self.layout[-1][1] + self.layout[-1][2]
        self._fresco_cache: dict = {}
        self._zeros = array("f", [0.0]) * self.size
        self._rel = [{f: i for i, f in enumerate(self.relative(seat))} for seat in range(self.n)]

    def relative(self, seat: int) -> list[int]:
        """Figure indexes in observer order."""
        n = self.n
        return [(seat + i) % n for i in range(n)] + list(range(n, self.F))

    def observe(self, game: "Game | SteppedGame", seat: int) -> np.ndarray:
        """The seat's vector, from the engine (:meth:`Game.observation`): what the wrappers
        call at every decision (with encoding 2 and an engine game: no plan in progress)."""
        x = game.observation(seat, self.config.encoding)
        if self.draft is not None and type(game) is not SteppedGame:
            x = x + self.draft.block((), game.phase == "plan" and seat in game.to_act)
        return np.frombuffer(x, F32)

    def encode(self, view: Mapping[str, Any], seat: int) -> np.ndarray:
        """The seat's vector from ``view`` = ``game.view(seat)`` (full or lean): the same
        numbers as :meth:`observe`."""
        x = self._zeros * 1                 # a float32 buffer (array.array: cheap writes)
        o = self.offsets
        F = self.F
        rel = self._rel[seat]
        x[o["seat"] + seat] = 1.0
        x[o["phase"] + _PHASE_INDEX[view["phase"]]] = 1.0
        p = o["round"]
        x[p] = view["round"] / 10
        if view["final_round"]:
            x[p + 1] = 1.0
        if view["action_sheet_side"] == 2:
            x[p + 2] = 1.0
        if seat in view["to_act"]:
            x[o["to_act"]] = 1.0
        if view["actor_figure"] is not None:
            x[o["actor"] + rel[view["actor_figure"]]] = 1.0
        if view["column"] is not None:
            x[o["column"] + view["column"]] = 1.0
        if view["visit_left"] is not None:
            x[o["visit_left"]] = view["visit_left"] / 6
        pt = view["pending_track"]
        if pt is not None:
            p = o["pending_track"]
            x[p] = 1.0
            x[p + 1 + rel[pt["figure_index"]]] = 1.0
            x[p + 1 + F] = pt["behind"] / 50
            x[p + 2 + F] = pt["ahead"] / 50
        order_pos = {name: i for i, name in enumerate(view["order"])}
        M = self.mood_len
        hostel_index, per_figure, base, H = self.hostel_index, self.per_figure, o["figures"], len(self.hostel)
        for f, fig in enumerate(view["figures"]):
            p = base + rel[f] * per_figure
            track = fig["track"]
            x[p] = fig["vp"] / 50
            if track.__class__ is str:          # a start space 'S3'
                x[p + 1] = 1.0
                x[p + 2] = int(track[1:]) / 5
            p += 3
            if fig["getup"] is not None:
                x[p + hostel_index[fig["getup"]]] = 1.0
            p += H
            if fig["tiles"]:
                x[p:p + 5] = _tiles_block(tuple(fig["tiles"]))
            p += 5
            if "mood" in fig:
                x[p + fig["mood"]] = 1.0
                x[p + M] = float(fig["neutral_apprentice"])
                x[p + M + 1] = float(fig["apprentice_set_aside"])
                x[p + M + 2] = fig["apprentices"] / 6
                x[p + M + 3] = float(fig["plan_committed"])
            p += M + 4
            plan = fig.get("plan")
            if plan is not None:
                x[p] = 1.0
                for i, v in enumerate(plan, p + 1):
                    x[i] = v / 3
            p += 6
            pos = order_pos.get(fig["name"])
            if pos is not None:
                x[p + pos] = 1.0
            if fig["leonardo"]:
                x[p + F] = 1.0
        me = view["figures"][seat]
        p = o["own_paints"]
        paints = me.get("paints", "")
        for c in set(paints):
            x[p + _PAINT_INDEX[c]] = paints.count(c) / 5
        x[o["own_thalers"]] = me.get("thalers", 0) / 30
        p = o["fresco"]
        block = self._fresco_block(view["fresco"])
        x[p:p + len(block)] = block
        x[o["bishop"] + SEGMENT_INDEX[view["bishop"]]] = 1.0
        if self.F > self.n:
            p = o["leonardo"]
            if view["leonardo_painter"] is not None:
                x[p + SEGMENT_INDEX[view["leonardo_painter"]]] = 1.0
            if view["leonardo_controller"] == seat:
                x[p + 25] = 1.0
        p = o["booths"]
        T, market_index = len(self.market_types), self.market_index
        for b, tiles in enumerate(view["booths"].values()):
            for t in tiles:
                x[p + b * T + market_index[t]] += 1.0
        x[o["bag"]] = view["bag_size"] / 40
        if self.config.modules:
            numbers = self._game.observation_modules(view, seat, self.config.encoding)
            x[self.o_modules:self.o_modules + len(numbers)] = numbers
        if self.draft is not None:     # (a view shows no plan in progress)
            block = self.draft.block((), view["phase"] == "plan" and seat in view["to_act"])
            x[self.size - len(block):] = block
        return np.frombuffer(x, F32)

    def _fresco_block(self, fresco) -> array:
        key = tuple(map(tuple, fresco))
        block = self._fresco_cache.get(key)
        if block is None:
            block = array("f", [0.0]) * (25 * (2 + len(PAINTS)))
            for r, row in enumerate(key):
                for c, t in enumerate(row):
                    if t is None:
                        continue
                    q = (r * 5 + c) * (2 + len(PAINTS))
                    vp, paints, _ = _tile(t)
                    block[q] = 1.0
                    block[q + 1] = vp / 24
                    for ch in paints:
                        block[q + 2 + _PAINT_INDEX[ch]] += 1 / 3
            if len(self._fresco_cache) > 256:
                self._fresco_cache.clear()
            self._fresco_cache[key] = block
        return block


F32 = np.dtype(np.float32)   # the vectors' dtype (a dtype object: numpy reads it faster than np.float32)
_PHASE_INDEX = {p: i for i, p in enumerate(PHASES)}
_PAINT_INDEX = {c: i for i, c in enumerate(PAINTS)}


@functools.lru_cache(maxsize=32)
def _tables(players: int, modules: tuple[str, ...], options: tuple, encoding: int) -> tuple[ActionCodec, ObservationEncoder]:
    cfg = Config.of(players, modules, dict(options), encoding)
    return ActionCodec(cfg), ObservationEncoder(cfg)


def tables(config: Config) -> tuple[ActionCodec, ObservationEncoder]:
    """The set-up's codec and encoder, built once per set-up and shared by every env of it
    (the encoder's caches hold only pure functions of their keys)."""
    return _tables(config.players, config.modules, tuple(sorted(config.options.items())), config.encoding)


class LazyView(Mapping):
    """A seat's lean view ``game.view(seat, log=False, lean=True)`` of one position, made when
    first read (most learning loops never read it): a read-only mapping (``dict(v)`` gives a
    plain dict).  It keeps the game and how many actions it had applied then
    (:attr:`affresco.Game.actions_applied`): read while the game is still there, the view is
    made from it; read after the game moved on, from the game rebuilt up to that position
    (``affresco.replay``: the engine is deterministic), so no copy is made at every step.
    The Parallel and Gymnasium envs make their views (at every step) without the class call: with
    ``object.__new__`` and the three slots ``__init__`` sets (~0.6k instructions fewer a view:
    a call of a class with a Python ``__init__`` is dear), so ``__init__`` must set nothing else."""

    __slots__ = ("_game", "_seat", "_upto", "_view")
    _view: dict[str, Any]

    def __init__(self, game: Game, seat: int, at: int | None = None):
        self._game: Game | None = game
        self._seat = seat
        self._upto = game.actions_applied if at is None else at
        # _view: set when first read (_get): one store fewer at every step

    def _get(self) -> dict[str, Any]:
        try:
            return self._view
        except AttributeError:
            pass
        game = self._game
        assert game is not None
        if game.actions_applied != self._upto:
            game = affresco.replay(game.record(), upto=self._upto)
        view = self._view = game.view(self._seat, log=False, lean=True)
        self._game = None
        return view

    def __getitem__(self, key):
        return self._get()[key]

    def __iter__(self):
        return iter(self._get())

    def __len__(self) -> int:
        return len(self._get())

    def __repr__(self) -> str:
        return f"LazyView({self._get()!r})"


def final_rewards(game: Game, reward: str) -> list[float]:
    """End-of-game reward per seat: ``margin`` (own VP minus the best other figure's VP),
    ``rank`` (1 for first ... -1 for last among all figures, Leonardo included) or ``win``
    (1 for the winner, 0 otherwise)."""
    scores = game.scores()
    ranking = game.ranking()
    F = len(scores)
    out = []
    for seat in range(game.players):
        if reward == "margin":
            out.append(float(scores[seat] - max(s for f, s in enumerate(scores) if f != seat)))
        elif reward == "rank":
            out.append(1.0 - 2.0 * ranking.index(seat) / (F - 1))
        else:
            out.append(1.0 if ranking[0] == seat else 0.0)
    return out


def check_render_mode(mode: str | None) -> str | None:
    """``render_mode`` as the wrappers take it: None, ``"ansi"`` or ``"human"``."""
    if mode not in (None, "ansi", "human"):
        raise ValueError(f"render_mode must be None, 'ansi' or 'human', not {mode!r}")
    return mode


def check_reward(reward: str) -> str:
    if reward not in REWARDS:
        raise affresco.ConfigError(f"reward must be one of {', '.join(REWARDS)}, not {reward!r}")
    return reward


def render_text(game: Game, seat: int | None = None) -> str:
    """A short text picture of the game for people (``render()``), from a view."""
    v = game.view(seat, log=False)
    lines = [f"Round {v['round']}{' (final)' if v['final_round'] else ''}, {v['phase']}; to act: {v['to_act']}"]
    for row in v["fresco"]:
        lines.append("  " + " ".join(f"{t or '--':>8}" for t in row))
    lines.append(f"  bishop {v['bishop']}; booths " + "; ".join(f"{b}: {' '.join(t) or '-'}" for b, t in v["booths"].items()))
    for f in v["figures"]:
        extra = f" paints {f['paints']} thalers {f['thalers']}" if "paints" in f else ""
        lines.append(f"  {f['name']}: {f['vp']} VP, track {f['track']}, get-up {f['getup']}{extra}")
    return "\n".join(lines)
