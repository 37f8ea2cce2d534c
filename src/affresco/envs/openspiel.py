"""Fresco as an OpenSpiel game (docs/envs-openspiel.md).  Importing this module registers

* ``python_fresco``: planning is one **simultaneous** node (every seat plans at once);
* ``python_fresco_turns``: the same game with planning as sequential turns (each seat blind
  to the plans before it), for algorithms that need sequential dynamics such as
  OpenSpiel's IS-MCTS bot.

Parameters: ``players`` (int, 2-4), ``modules`` (comma-separated module names), ``reward``
(``rank``: 1 for the first figure ... -1 for the last; ``win``: 1/0; ``margin``: VP margin),
``rng_seed`` (int; -1: fresh seeds) and ``encoding`` (3, the default, and 2: a plan is chosen as
a few small choices, every planning seat making its k-th at the same simultaneous node, or at
its consecutive turns in ``python_fresco_turns``; 3 writes the modules' numbers into fixed
slots, 2 hashes them; 1: a plan is one action; docs/envs.md).

    >>> import pyspiel, affresco.envs.openspiel
    >>> game = pyspiel.load_game("python_fresco(players=3,modules=portraits)")

Chance is *sampled stochastic*: the engine draws market tiles, cards and tokens itself
(reproducibly for the state's seed), so there are no explicit chance nodes.  Actions are the
set-up's fixed action indices (:class:`affresco.envs.ActionCodec`).  Observation tensor: the
seat's vector (:class:`affresco.envs.ObservationEncoder`); the information-state tensor is
the same vector (it is not perfect-recall).  Observation string: the seat's view as JSON;
information-state string: that plus the public history (every action, plans as 'plan'
until revealed, and what each chance event showed).  ``resample_from_infostate`` builds a
game from the seat's view with the engine's determinization.
"""
from __future__ import annotations

import json
import random
import weakref

import numpy as np
import pyspiel

from .core import ENCODING_VERSION, REWARDS, Config, PlanChoice, SteppedGame, final_rewards, render_text, tables

__all__ = ["FrescoGame", "FrescoState", "SHORT_NAME", "TURNS_NAME"]

SHORT_NAME = "python_fresco"
TURNS_NAME = "python_fresco_turns"
_PARAMS = {"players": 2, "modules": "", "reward": "rank", "rng_seed": -1, "encoding": ENCODING_VERSION}
MAX_GAME_LENGTH = 3000


def _determinize(view, seat, rng, legal):
    """A full game consistent with ``view`` (the engine's determinization)."""
    from affresco.bots.determinize import determinize
    return determinize(view, seat, rng, legal=legal)


def _game_type(short_name: str, simultaneous: bool) -> pyspiel.GameType:
    return pyspiel.GameType(
        short_name=short_name,
        long_name="Fresco (affresco)" + ("" if simultaneous else ", sequential planning"),
        dynamics=(pyspiel.GameType.Dynamics.SIMULTANEOUS if simultaneous
                  else pyspiel.GameType.Dynamics.SEQUENTIAL),
        chance_mode=pyspiel.GameType.ChanceMode.SAMPLED_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.GENERAL_SUM,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=4,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=True,
        provides_observation_string=True,
        provides_observation_tensor=True,
        parameter_specification=_PARAMS,
    )


_TYPES = {SHORT_NAME: _game_type(SHORT_NAME, True), TURNS_NAME: _game_type(TURNS_NAME, False)}
_SIMULTANEOUS = int(pyspiel.PlayerId.SIMULTANEOUS)
_CHANCE = int(pyspiel.PlayerId.CHANCE)
_TERMINAL = int(pyspiel.PlayerId.TERMINAL)


class FrescoGame(pyspiel.Game):
    simultaneous = True
    short_name = SHORT_NAME

    def __init__(self, params=None):
        params = {**_PARAMS, **(params or {})}
        self.config = Config.of(int(params["players"]), params["modules"], encoding=int(params["encoding"]))
        self.reward_kind = params["reward"]
        if self.reward_kind not in REWARDS:
            raise ValueError(f"reward must be one of {REWARDS}, not {self.reward_kind!r}")
        self.codec, self.encoder = tables(self.config)
        lo, hi = (-1.0, 1.0) if self.reward_kind == "rank" else (0.0, 1.0) if self.reward_kind == "win" else (-300.0, 300.0)
        super().__init__(_TYPES[self.short_name], pyspiel.GameInfo(
            num_distinct_actions=self.codec.size, max_chance_outcomes=0, num_players=self.config.players,
            min_utility=lo, max_utility=hi, utility_sum=None, max_game_length=MAX_GAME_LENGTH), params)
        seed = int(params["rng_seed"])
        self._seeds = random.Random(seed if seed >= 0 else None)

        self._pending = None  # [seed, Game, weak reference to the box bound to it or None]
        self.setup = _Setup(self.codec, self.simultaneous,
                            ("booths", "fresco", "bag_size") + tuple(self.encoder.module_keys))

    @property
    def history_asked(self) -> bool:
        """Whether an information-state string was asked of a state of this game (from then on
        the public history is noted as it happens: :class:`_Shown`)."""
        return self.setup.history_asked

    def new_initial_state(self):
        return FrescoState(self)

    def deserialize_state(self, text):
        """A serialized state, refused at once if of another set-up (:func:`_check_set_up`)."""
        state = super().deserialize_state(text)
        state.owner    # noqa: B018 (reading it checks the set-up)
        return state

    def pending(self, box):
        """The seed and initial game the new state holding ``box`` will get, without setting
        it up yet.  OpenSpiel sizes every tensor by writing one for a throw-away new state:
        such states see the same pending game, so no game is set up for them (a pending game
        is bound to one living state at a time, so two states never share a seed)."""
        p = self._pending
        if p is not None and (p[2] is None or p[2]() is None or p[2]() is box):
            p[2] = weakref.ref(box)
            return p[0], p[1]
        seed = self._seeds.getrandbits(62)
        self._pending = [seed, self.config.new_env_game(seed), weakref.ref(box)]
        return seed, self._pending[1]

    def take(self, box):
        """The initial game for ``box``'s state: the pending one if bound to it or free."""
        p = self._pending
        if p is not None and (box.seed == p[0] if box.seed is not None else p[2] is None or p[2]() is None):
            self._pending = None
            box.seed = p[0]
            return p[1]
        if box.seed is None:
            box.seed = self._seeds.getrandbits(62)
        return self.config.new_env_game(box.seed)

    def make_py_observer(self, iig_obs_type=None, params=None):
        perfect_recall = iig_obs_type is not None and iig_obs_type.perfect_recall
        return FrescoObserver(self, perfect_recall)


class _Setup:
    """What a state's every step reads of its game, in a plain object (an attribute of a
    pyspiel game, as of a state, is read through pybind11 at several times a plain object's
    cost): the codec and its actions, whether planning is one simultaneous node, what a chance
    event shows everyone (these keys of the spectator's view) and whether an information-state
    string was asked (shared by every state of the game)."""

    __slots__ = ("codec", "actions", "simultaneous", "chance_keys", "history_asked")

    def __init__(self, codec, simultaneous: bool, chance_keys: tuple):
        self.codec, self.actions, self.simultaneous = codec, codec.actions, simultaneous
        self.chance_keys, self.history_asked = chance_keys, False


class FrescoTurnsGame(FrescoGame):
    simultaneous = False
    short_name = TURNS_NAME


class _Box:
    """Holds a state's game.  A new state's game is set up on first use (OpenSpiel makes
    throw-away states, e.g. to size tensors, and clones by copying onto fresh ones);
    serialization pickles it as the engine's JSON (docs/state-format.md)."""

    __slots__ = ("game", "owner", "seed", "__weakref__")

    def __init__(self, game=None, owner=None):
        self.game, self.owner, self.seed = game, owner, None

    def get(self):
        if self.game is None:
            self.game = self.owner.take(self)
            self.owner = None
        return self.game

    def peek(self):
        """The game, or for a new state not yet used the game it will start from."""
        if self.game is None:
            seed, game = self.owner.pending(self)
            self.seed = seed
            return game
        return self.game

    def __reduce__(self):
        g = self.get()
        if type(g) is SteppedGame:       # its plans in progress too (encoding 2)
            return _unbox, (g.engine.to_json(pretty=False), g.layout, tuple(g.drafts), g.encoding)
        return _unbox, (g.to_json(pretty=False),)


def _unbox(text: str, layout=None, drafts=(), encoding: int = 2) -> _Box:
    from affresco import Game
    game = Game.from_json(text)
    return _Box(game if layout is None else SteppedGame(game, layout, drafts, encoding))


class _Core:
    """A state's Python side in one plain object, the state's only attribute (``_c``): an
    attribute of a pyspiel state is read through pybind11 at about 3.5 times a plain object's
    cost, and every OpenSpiel call reads several, so each call reads the state once.

    ``box`` holds the game (set up on first use); ``game`` is it once the state has started
    (None before: :attr:`FrescoState.fresco` starts it); ``public`` the public history;
    ``replayable`` whether the game replays from its record (not one from
    ``resample_from_infostate``); ``moves`` the actions applied (the position's identity for the
    observer's cache); ``legal_at`` (player, legal indices), ``player`` (``current_player()``)
    and ``planning`` (whether the position is in the planning phase) of this position, made
    when the position is reached (or first asked); ``draws`` the game's chance events so far
    (once started); ``owner`` the :class:`FrescoGame` and ``setup`` its :class:`_Setup`
    (``get_game()`` crosses into C++; both None after unpickling until asked).  OpenSpiel clones
    a state by deep-copying its attributes onto a fresh one (here: the game cloned with the
    engine's cheap clone, the history list copied, the rest shared) and serializes it by
    pickling them."""

    __slots__ = ("box", "game", "public", "replayable", "moves", "legal_at", "player", "planning", "draws",
                 "owner", "setup")

    def __init__(self, box: _Box, owner, game=None, public=(), replayable: bool = True, moves: int = 0):
        self.box, self.owner, self.game = box, owner, game
        self.setup = owner.setup if owner is not None else None
        self.public = list(public)     # entries never change once added: clones share them
        self.replayable, self.moves = replayable, moves
        self.legal_at = self.player = self.planning = None
        self.draws = game.chance_events if game is not None else None

    def __deepcopy__(self, memo):
        c = _Core(_Box(self.box.get().clone()), self.owner, None, self.public, self.replayable, self.moves)
        if self.game is not None:
            c.game, c.draws = c.box.game, self.draws
        c.legal_at, c.player, c.planning = self.legal_at, self.player, self.planning     # the same position
        c.setup = self.setup
        return c

    def __reduce__(self):         # (a serialized state finds its game again: FrescoState.owner)
        return _core, (self.box, self.game is not None, list(self.public), self.replayable, self.moves)


def _core(box: _Box, started: bool, public, replayable: bool, moves: int) -> _Core:
    return _Core(box, None, box.get() if started else None, public, replayable, moves)


class _Shown:
    """What everyone saw at one position of a game (``keys`` None: the plans revealed; else
    those keys of the spectator's view, what a chance event showed), made when first needed
    (an information-state string asks for it): from the game while it is still at that
    position, else from the game replayed up to it (the engine is deterministic), so a game
    that nobody asks information states of pays nothing for its history.  Shared by clones;
    pickled as its value."""

    __slots__ = ("game", "at", "keys", "value")

    def __init__(self, game, keys):
        self.game, self.at, self.keys, self.value = game, game.actions_applied, keys, None

    def get(self):
        if self.game is not None:
            g = self.game
            if g.actions_applied != self.at:
                from affresco import replay
                g = replay(g.record(), upto=self.at)
            v = g.view(None, log=False, lean=True)
            self.value = ([f.get("plan") for f in v["figures"]] if self.keys is None
                          else {k: v.get(k) for k in self.keys})
            self.game = None
        return self.value

    def __reduce__(self):
        return _shown, (self.get(),)


def _shown(value) -> _Shown:
    shown = _Shown.__new__(_Shown)
    shown.game, shown.at, shown.keys, shown.value = None, None, None, value
    return shown


def _check_set_up(owner: FrescoGame, game) -> None:
    """Refuse a serialized state of another set-up (players, modules, options, plans by steps
    or at once) than the game asked to deserialize it: it would be read with the wrong tables."""
    engine = game.engine if type(game) is SteppedGame else game
    setup = engine.record()["setup"]
    setup = setup.get("position", setup)
    config = owner.config
    theirs = (len(setup["players"]), tuple(sorted(setup.get("modules", ()))), dict(setup.get("options") or {}),
              type(game) is SteppedGame)
    ours = (config.players, tuple(sorted(config.modules)), dict(config.options), tables(config)[1].draft is not None)
    if theirs != ours:
        raise pyspiel.SpielError(f"the serialized state is of another set-up (players, modules, options, plans "
                                 f"by steps: {theirs}) than this game's {ours}")


class FrescoState(pyspiel.State):
    """One position.  The affresco game is built on first use, so OpenSpiel's clones (which
    copy the attributes onto a fresh state) never set up a game they throw away.  Everything
    Python keeps of it is in one plain object (:class:`_Core`)."""

    def __init__(self, game: FrescoGame, seed=None):
        super().__init__(game)
        self._c = _Core(_Box(owner=game), game)

    @property
    def owner(self) -> FrescoGame:
        """This state's game (``get_game()`` without crossing into OpenSpiel each time)."""
        c = self._c
        if c.owner is None:        # a deserialized state: its game must be of this game's set-up
            owner = self.get_game()
            _check_set_up(owner, c.box.get())
            c.owner = owner
            c.setup = c.owner.setup
        return c.owner

    @property
    def fresco(self):
        """The affresco :class:`~affresco.Game` of this state."""
        c = self._c
        g = c.game
        if g is None:          # the first use: set the game up, note what its set-up showed
            g = c.game = c.box.get()
            _note_chance(self.owner.setup, c)
        return g

    # --- OpenSpiel API ---------------------------------------------------------------
    def current_player(self):
        c = self._c
        p = c.player
        return p if p is not None else _player(self, c)

    def _legal_actions(self, player):
        return _legal(self, self._c, player)

    # pyspiel answers these in C++ by calling back into Python several times (current_player,
    # is_terminal, _legal_actions); called from Python, the same answers are given here in one
    # step (C++ callers still go through pyspiel, which calls the methods above)
    def legal_actions(self, player=None):
        """The legal action indices of ``player`` (default: the player to act), sorted, as
        pyspiel's ``legal_actions`` gives them for a Python game: none once terminal or for a
        player not to act."""
        c = self._c
        current = c.player
        if current is None:
            current = self.current_player()
        if player is None:
            player = current
        if current == _TERMINAL:            # current_player() is TERMINAL exactly when the game is over
            return []
        if player == current or (player >= 0 and current == _SIMULTANEOUS):
            return list(_legal(self, c, player))
        if player < 0:
            raise pyspiel.SpielError(f"Called LegalActions for psuedo-player {player}")
        return []

    def is_simultaneous_node(self):
        c = self._c
        p = c.player
        return (p if p is not None else _player(self, c)) == _SIMULTANEOUS

    def is_chance_node(self):
        c = self._c
        p = c.player
        return (p if p is not None else _player(self, c)) == _CHANCE

    def _apply_action(self, action):
        c = self._c
        p = c.player      # (pyspiel asked current_player() just before)
        if p is None:
            p = _player(self, c)
        _apply(self, c, p, action, c.planning)
        _player(self, c)      # the next position's, asked by every caller next

    def _apply_actions(self, actions):
        c = self._c
        for seat, action in enumerate(actions):
            _apply(self, c, seat, action, True)      # (a simultaneous node: planning)
        _player(self, c)

    def _action_to_string(self, player, action):
        return str(self.owner.codec.actions[action])

    def is_terminal(self):
        c = self._c
        p = c.player
        return (p if p is not None else _player(self, c)) == _TERMINAL

    def returns(self):
        g = self.fresco
        if not g.is_over:
            return [0.0] * g.players
        return final_rewards(g, self.owner.reward_kind)

    def __str__(self):
        return render_text(self.fresco)

    # --- information sets ------------------------------------------------------------
    def observation_json(self, player) -> str:
        """The seat's view as JSON, without the log and the VP breakdown by source (both
        summaries of the history, which the information state carries itself)."""
        g = self.fresco
        view = g.view(player, log=False)
        view.pop("vp_sources", None)
        if type(g) is SteppedGame and g.drafts[player]:     # its own plan in progress (encoding 2)
            view["plan_draft"] = [list(c) for c in g.drafts[player]]
        return json.dumps(view, sort_keys=True, separators=(",", ":"))

    def resample_from_infostate(self, player_id, probability_sampler=None):
        """A state the seat cannot tell from this one: the engine's determinization of the
        seat's view (other seats' paints, Thalers, unrevealed plans and secret module items,
        and the future chance, sampled)."""
        g = self.fresco
        try:
            u = float(probability_sampler.sample()) if probability_sampler is not None else random.random()
        except Exception:  # pragma: no cover - samplers without sample()
            u = random.random()
        public = self._c.public
        rng = random.Random(f"resample:{g.seed}:{len(public)}:{u}")
        engine = g.engine if type(g) is SteppedGame else g
        legal = engine.legal_actions(player_id) if player_id in g.to_act else None
        det = _determinize(g.view(player_id), player_id, rng, legal)
        return _holding(self.get_game().new_initial_state(),
                        det if type(g) is not SteppedGame
                        else SteppedGame(det, g.layout, _drafts(g, det, player_id, rng), g.encoding), public)


def _holding(state: FrescoState, game, public=()) -> FrescoState:
    """``state`` (a new one) holding ``game`` (as the wrappers play it) from now on, with
    ``public`` as its public history so far; its game does not replay from its record."""
    c = state._c
    c.box = _Box(game)
    c.game, c.public, c.replayable, c.draws = game, list(public), False, game.chance_events
    c.legal_at = c.player = c.planning = None
    return state


def _player(state: FrescoState, c: _Core):
    """``current_player()`` of this position, kept in the core with whether it is planning."""
    g = c.game if c.game is not None else state.fresco
    if g.is_over:
        p, planning = pyspiel.PlayerId.TERMINAL, False
    else:
        acting = g.to_act
        planning = g.phase == "plan"
        setup = c.setup if c.setup is not None else state.owner.setup
        p = (pyspiel.PlayerId.SIMULTANEOUS if planning and len(acting) == g.players and setup.simultaneous
             else min(acting))
    c.player, c.planning = p, planning
    return p


def _legal(state: FrescoState, c: _Core, player) -> tuple:
    """The legal indices of ``player`` (to act) at this position, once per position and player."""
    hit = c.legal_at
    if hit is None or hit[0] != player:
        g = c.game if c.game is not None else state.fresco
        setup = c.setup if c.setup is not None else state.owner.setup
        hit = c.legal_at = (player, setup.codec.legal_entry(g.legal_actions(player), 0, False)[1])
    return hit[1]


def _apply(state: FrescoState, c: _Core, seat: int, index, planning: bool) -> None:
    """Apply the action ``index`` of ``seat``; ``planning``: whether the position before it is
    in the planning phase.  The public history notes the action, and what the engine says it
    brought out (``Game.apply``'s answer, R22): the plans revealed, what a chance event showed."""
    g = c.game if c.game is not None else state.fresco
    setup = c.setup if c.setup is not None else state.owner.setup
    action = setup.actions[index]
    shown = g.apply(seat, action)
    c.legal_at = c.player = None
    c.moves += 1
    c.public.append((seat, action))
    if shown:
        if planning and g.phase != "plan":
            c.public.append(("plans", _shown_now(setup, c, g, None)))
        if g.chance_events != c.draws:
            _note_chance(setup, c)


def _note_chance(setup: _Setup, c: _Core) -> None:
    """Perfect recall of chance: note what everyone saw of the chance events since the last
    noted (at the set-up: what it showed)."""
    c.draws = c.game.chance_events
    c.public.append(("chance", _shown_now(setup, c, c.game, setup.chance_keys)))


def _shown_now(setup: _Setup, c: _Core, g, keys) -> _Shown:
    """What everyone sees now (:class:`_Shown`), made now if information states are asked
    of this game or its game cannot be replayed, else when first needed."""
    shown = _Shown(g, keys)
    if setup.history_asked or not c.replayable:
        shown.get()
    return shown


def _drafts(g: SteppedGame, det, seat: int, rng: random.Random) -> list[tuple]:
    """Plans in progress for a determinized game: the seat's own, and for each other seat
    choosing its plan (the simultaneous node) as many choices as it has made, drawn at random
    (they are as secret as its plan)."""
    out = []
    for other, draft in enumerate(g.drafts):
        if other != seat and draft:
            draft = ()
            while len(draft) < len(g.drafts[other]):
                draft += (rng.choice(det.plan_choices(other, draft)),)
        out.append(draft)
    return out


def _public_text(entry) -> str:
    """One entry of the public history: an action ('1:restore C3', a plan only as '1:plan'
    until the reveal), the revealed plans, or what a chance event showed everyone."""
    who, what = entry
    if who.__class__ is int:
        return f"{who}:plan" if what.kind == "plan" else f"{who}:{what}"
    return f"{who} {json.dumps(what.get(), sort_keys=True)}"


class FrescoObserver:
    """Observation (perfect_recall False) or information state (True) of a seat."""

    def __init__(self, game: FrescoGame, perfect_recall: bool):
        self.perfect_recall = perfect_recall
        self.tensor = np.zeros(game.encoder.size, np.float32)
        self.dict = {"observation": self.tensor}
        self._into = memoryview(self.tensor)      # written from the engine's float32 array in one copy
        self._recent: dict = {}   # (id(game), moves, player) -> (game, vector)
        self._encoding = game.config.encoding

    def set_from(self, state: FrescoState, player: int):
        """The seat's vector of a state that has started, made now; OpenSpiel sets the tensor of
        a throw-away new state before each state's own (to size it): a new state's last few
        vectors are kept (by game, actions applied, player) and copied back."""
        c = state._c
        game = c.game
        if game is not None:
            self._into[:] = game.observation(player, self._encoding)
            return
        game = c.box.game
        if game is None:
            game = c.box.peek()
        key = (id(game), c.moves, player)
        recent = self._recent
        hit = recent.pop(key, None)
        if hit is None or hit[0] is not game:
            hit = (game, game.observation(player, self._encoding))
            if len(recent) >= 4:
                del recent[next(iter(recent))]
        recent[key] = hit           # the most recent last (the throw-away state's stays)
        self._into[:] = hit[1]

    def string_from(self, state: FrescoState, player: int):
        text = state.observation_json(player)
        if self.perfect_recall:
            state.owner.setup.history_asked = True     # from now on the history is noted as it happens
            return text + "\n" + "\n".join(map(_public_text, state._c.public))
        return text


pyspiel.register_game(_TYPES[SHORT_NAME], FrescoGame)
pyspiel.register_game(_TYPES[TURNS_NAME], FrescoTurnsGame)
