"""PettingZoo environments of Fresco (docs/envs-pettingzoo.md).

    >>> from affresco.envs.pettingzoo import env, parallel_env
    >>> e = env(players=3, modules=("portraits",), reward="rank")
    >>> e.reset(seed=1)

Agents are ``player_0`` .. ``player_{n-1}`` (seats).  Observations are dicts
``{"observation": float32 vector, "action_mask": int8 vector}`` (``game.observation(seat)``;
a planning decision's mask is shared and read-only); ``infos[agent]["view"]`` (Parallel) is
the seat's lean view ``game.view(seat, log=False, lean=True)`` of that step, a read-only mapping
made when first read (``env.game.view(seat)`` has the rest).  Actions are indices into the set-up's fixed action space
(:class:`affresco.envs.ActionCodec`) plus one last index, ``WAIT``, the only legal action of
an agent that is not to decide now.  With ``encoding=3`` (the default) or 2 a plan is chosen as a
few small choices (docs/envs.md): a planning agent's turns (AEC) or steps (Parallel, every
planning agent choosing step k at the same step) each pick one choice, and the plan is applied
when its last choice is made.  Rewards are 0 until the end, then the chosen final reward
(``margin``, ``rank`` or ``win``).

* :func:`env` (AEC): ``turns="acting"`` (default) selects only the agents that must decide,
  one after the other (while planning each in seat order, blind to the others' plans);
  ``turns="all"`` steps every agent once per decision point ("cycle"), the others with WAIT.
* :func:`parallel_env`: one step per decision point; while planning every seat's plan is
  applied at once (truly simultaneous); otherwise only the deciding agent's action counts.

``max_cycles`` truncates after that many decision points (AEC ``turns="acting"``: that many
steps).  ``illegal`` says what an action the mask forbids does: ``"raise"`` (default) or
``"substitute"`` (a random legal action from the env's seeded generator, and
``infos[agent]["illegal_action"] = True``), for tools that sample without the mask.
"""
from __future__ import annotations

import sys
import random
from typing import Any, Iterable, Mapping

import numpy as np
from gymnasium import spaces
from pettingzoo import AECEnv, ParallelEnv

from affresco import IllegalAction
from .core import (ENCODING_VERSION, F32, Config, LazyView, SteppedGame, allowed, check_render_mode, check_reward,
                   final_rewards, index_of, render_text, tables)

_new = object.__new__

__all__ = ["env", "raw_env", "parallel_env", "FrescoAEC", "FrescoParallel"]


class _Common:
    metadata = {"render_modes": ["ansi", "human"], "name": "affresco_fresco_v0", "is_parallelizable": True}

    def _setup(self, players, modules, options, reward, max_cycles, illegal, render_mode, encoding):
        self.config = Config.of(players, modules, options, encoding)
        self.codec, self.encoder = tables(self.config)
        self.reward_kind = check_reward(reward)
        if illegal not in ("raise", "substitute"):
            raise ValueError(f"illegal must be 'raise' or 'substitute', not {illegal!r}")
        if max_cycles is not None and (type(max_cycles) is not int or max_cycles < 1):
            raise ValueError(f"max_cycles must be None or a whole number >= 1, not {max_cycles!r}")
        self.illegal = illegal
        self.max_cycles = max_cycles
        self.render_mode = check_render_mode(render_mode)
        self.possible_agents = [f"player_{i}" for i in range(self.config.players)]
        self.agent_seat = {a: i for i, a in enumerate(self.possible_agents)}
        self.WAIT = self.codec.size
        n_actions = self.codec.size + 1
        obs_space = spaces.Dict({
            "observation": spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32),
            "action_mask": spaces.Box(0, 1, (n_actions,), np.int8),
        })
        self._obs_spaces = {a: obs_space for a in self.possible_agents}
        self._act_spaces = {a: spaces.Discrete(n_actions) for a in self.possible_agents}
        self.game = None
        self._rng = random.Random(0)
        self._none_mask = np.zeros(n_actions, dtype=np.int8)   # shared, read-only: nothing legal
        self._none_mask.flags.writeable = False
        self._wait_mask = np.zeros(n_actions, dtype=np.int8)   # WAIT alone
        self._wait_mask[self.WAIT] = 1
        self._wait_mask.flags.writeable = False
        self._wait_only = (self.WAIT,)

    def observation_space(self, agent):
        return self._obs_spaces[agent]

    def action_space(self, agent):
        return self._act_spaces[agent]

    def _new_game(self, seed):
        if seed is None:
            seed = random.getrandbits(63)
        self._rng = random.Random(f"affresco-envs:{seed}")
        self.game = self.config.new_env_game(seed)
        n = self.config.players
        self._marker = 0                          # actions applied: what the per-decision memos below are of
        self._cache: list[tuple] = [(-1, None)] * n      # per seat: (marker, observation)
        # per seat: (marker, legal actions, mask, legal indices: ActionCodec.legal_entry)
        self._legal: list[tuple] = [(-1, (), None, ())] * n
        self._acting: tuple = (-1, ())

    def _legal_of(self, seat: int) -> tuple:
        """``(marker, legal actions, mask, legal indices)`` of the seat
        (:meth:`ActionCodec.legal_entry`; no actions and WAIT alone if it is not to decide),
        once per decision (``_marker`` counts the actions applied)."""
        hit = self._legal[seat]
        marker = self._marker
        if hit[0] == marker:
            return hit
        at = self._acting
        if seat in (at[1] if at[0] == marker else self._seats_to_act()):
            legal = self.game.legal_actions(seat)
            hit = (marker, legal, *self.codec.legal_entry(legal, 1))
        elif self.game.is_over:
            hit = (marker, (), self._none_mask, ())
        else:
            hit = (marker, (), self._wait_mask, self._wait_only)
        self._legal[seat] = hit
        return hit

    def _legal_indices(self, seat: int) -> tuple[int, ...]:
        """The seat's legal indices in increasing order (the mask's ones): WAIT alone if it is
        not to decide, none once the game is over."""
        return self._legal_of(seat)[3]

    def _seats_to_act(self) -> tuple:
        """``game.to_act``, asked once per decision."""
        at = self._acting
        if at[0] != self._marker:
            at = self._acting = (self._marker, self.game.to_act)
        return at[1]

    def _observe_seat(self, seat: int) -> dict:
        hit = self._cache[seat]
        if hit[0] == self._marker:
            return hit[1]
        obs = {"observation": self.encoder.observe(self.game, seat), "action_mask": self._legal_of(seat)[2]}
        self._cache[seat] = (self._marker, obs)
        return obs

    def _view(self, seat: int) -> dict:
        """The seat's lean view now (what the vector shows, as a dict)."""
        return self.game.view(seat, log=False, lean=True)

    def _play(self, seat: int, index) -> bool:
        """Apply the action ``index`` of ``seat`` (who is to act) at once: the engine refuses an
        illegal action with the game unchanged, and only then are the legal actions read
        (:meth:`_act`: raise, or substitute); True if it was substituted."""
        i = index if type(index) is int else index_of(index)
        try:
            self.game.apply(seat, self.codec.actions[i] if 0 <= i < self.WAIT else None)
        except IllegalAction:
            return self._act(seat, index)
        self._marker += 1
        return False

    def _act(self, seat: int, index, legal: tuple | None = None) -> bool:
        """Apply the action ``index`` of ``seat`` (who is to act; ``legal``: its
        :meth:`_legal_of`); True if it was substituted."""
        _, legal, mask, _ = legal or self._legal_of(seat)
        i = index if type(index) is int else index_of(index)
        if 0 <= i < self.WAIT and allowed(mask, i):
            self.game.apply(seat, self.codec.actions[i])
            self._marker += 1
            return False
        if self.illegal == "raise":
            shown = "WAIT" if i == self.WAIT else (str(self.codec.actions[i]) if 0 <= i < self.codec.size else index)
            raise IllegalAction(f"player_{seat}: action {index} ({shown}) is not legal now; legal indices: "
                                f"{np.flatnonzero(mask[:-1]).tolist()[:20]}...")
        self.game.apply(seat, self._rng.choice(legal))
        self._marker += 1
        return True

    def render(self):
        if self.game is None:
            return None
        text = render_text(self.game)
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")   # render_mode "human": the terminal, as the libraries expect
            return None
        return text

    def close(self):
        pass

    def state_json(self) -> str:
        """The full game (hidden information included) as the engine's JSON (without plans
        still being chosen a step at a time, encoding 2)."""
        return self.game.to_json(pretty=False)


class FrescoAEC(_Common, AECEnv):
    """The AEC environment (see the module doc)."""

    def __init__(self, players: int = 4, modules: Iterable[str] = (), options: Mapping[str, bool] | None = None,
                 reward: str = "margin", max_cycles: int | None = None, turns: str = "acting",
                 illegal: str = "raise", render_mode: str | None = None, encoding: int = ENCODING_VERSION):
        super().__init__()
        if turns not in ("acting", "all"):
            raise ValueError(f"turns must be 'acting' or 'all', not {turns!r}")
        self.turns = turns
        self._setup(players, modules, options, reward, max_cycles, illegal, render_mode, encoding)
        self._names: dict[tuple, str] = {}   # seats to act -> the agent of the first
        self._actions = self.codec.actions
        self._encoding = self.config.encoding

    def reset(self, seed=None, options=None):
        self._new_game(seed)
        self.agents = self.possible_agents[:]
        self.rewards = {a: 0.0 for a in self.agents}
        self._cumulative_rewards = {a: 0.0 for a in self.agents}
        self.terminations = {a: False for a in self.agents}
        self.truncations = {a: False for a in self.agents}
        self.infos = {a: {} for a in self.agents}
        self.cycles = 0
        self._noted = False       # some agent's info says an action was substituted (cleared at its next step)
        # steps go the general way (_step): some agent is done, an info is to be cleared, or turns="all"
        self._slow = self.turns != "acting"
        self._queue: list[str] = []
        self._next_cycle()

    def _next_cycle(self):
        if self.turns == "all":
            self._queue = self.agents[:]
            self.agent_selection = self._queue[0]
        else:
            self.agent_selection = self._first_to_act()

    def observe(self, agent):
        return self._observe_seat(self.agent_seat[agent])

    def last(self, observe: bool = True):
        """PettingZoo's ``last()`` (observation, cumulative reward, terminated, truncated, info of
        the selected agent), in one step."""
        agent = self.agent_selection
        seat = self.agent_seat[agent]
        if not observe:
            obs = None
        elif self._cache[seat][0] == self._marker:
            obs = self._cache[seat][1]
        elif self._slow:
            obs = self._observe_seat(seat)
        else:     # the usual step: the selected agent is to act (``_first_to_act``), its vector not made yet
            g = self.game
            marker = self._marker
            legal = g.legal_actions(seat)     # (a SteppedGame answers outside planning as its engine)
            x = g.observation(seat, self._encoding)
            entry = self.codec.legal_entry(legal, 1)
            self._legal[seat] = (marker, legal, entry[0], entry[1])
            obs = {"observation": np.frombuffer(x, F32), "action_mask": entry[0]}
            self._cache[seat] = (marker, obs)
        return (obs, self._cumulative_rewards[agent], self.terminations[agent], self.truncations[agent],
                self.infos[agent])

    def agent_iter(self, max_iter: int = 2**63):
        """PettingZoo's ``agent_iter``: the selected agent, while any agent is in (at most
        ``max_iter`` times); its iterator is a generator (cheaper than a ``__next__`` method at
        every step)."""
        return _AgentIter(self, max_iter)

    def step(self, action):
        if type(action) is not int and isinstance(action, np.integer):   # a policy's numpy index
            action = int(action)
        if self._slow or type(action) is not int or not 0 <= action < self.WAIT:
            self._step_general(action)
            return
        # the usual step (turns="acting", no agent done, no info to clear, an index of the action
        # space): the selected agent is to act and its cumulative reward is 0 (every reward is 0
        # until the game ends); the engine refuses an illegal action with the game unchanged
        g = self.game
        seat = self.agent_seat[self.agent_selection]
        try:
            g.apply(seat, self._actions[action])
        except IllegalAction:
            self._step_general(action)
            return
        self._marker += 1
        self.cycles += 1
        acting = g.to_act                  # none once the game is over
        if not acting or (self.max_cycles is not None and self.cycles >= self.max_cycles):
            self._finish()
            return
        self._acting = (self._marker, acting)
        name = self._names.get(acting)
        if name is None:
            name = self._names[acting] = self.possible_agents[min(acting)]
        self.agent_selection = name

    def _step_general(self, action):
        """A step of any other kind (``turns="all"``, an agent done, an info to clear) or with
        any other action (``None``, WAIT, an index out of range or the engine refuses:
        :meth:`_play` raises or substitutes)."""
        if self._slow:
            self._step(action)
            return
        if self._play(self.agent_seat[self.agent_selection], action):
            self.infos[self.agent_selection] = {"illegal_action": True}
            self._noted = self._slow = True
        self.cycles += 1
        if self.game.is_over or (self.max_cycles is not None and self.cycles >= self.max_cycles):
            self._finish()
            return
        self.agent_selection = self._first_to_act()

    def _first_to_act(self) -> str:
        """The agent of the first seat to act (``turns="acting"``: the seats to act in seat order)."""
        acting = self.game.to_act
        self._acting = (self._marker, acting)
        name = self._names.get(acting)
        if name is None:
            name = self._names[acting] = self.possible_agents[min(acting)]
        return name

    def _step(self, action):
        """A step in general (PettingZoo's dead steps, ``turns="all"``, an info to clear)."""
        agent = self.agent_selection
        if self.terminations[agent] or self.truncations[agent]:
            self._was_dead_step(action)
            return
        seat = self.agent_seat[agent]
        self._cumulative_rewards[agent] = 0.0   # every reward is 0 until the game ends
        if self.infos[agent]:
            self.infos[agent] = {}
            self._noted = any(self.infos.values())
            self._slow = self._noted or self.turns != "acting" or any(self.terminations.values()) \
                or any(self.truncations.values())
        legal = self._legal_of(seat)
        if legal[1]:                 # the seat is to act (a seat to act has a legal action)
            if self._act(seat, action, legal):
                self.infos[agent] = {"illegal_action": True}
                self._noted = self._slow = True
        elif action != self.WAIT and action is not None and self.illegal == "raise":
            raise IllegalAction(f"{agent} is not to act now: its only legal action is WAIT ({self.WAIT})")
        if self.turns == "acting":
            self.cycles += 1
            end_of_cycle = True
        else:
            self._queue.pop(0)
            end_of_cycle = not self._queue
            if end_of_cycle:
                self.cycles += 1
        if self.game.is_over or (end_of_cycle and self.max_cycles is not None and self.cycles >= self.max_cycles):
            self._finish()
        elif end_of_cycle:
            self._next_cycle()
        else:
            self.agent_selection = self._queue[0]

    def _finish(self):
        """The game is over (final rewards, every agent terminated) or truncated (``max_cycles``)."""
        g = self.game
        self._slow = True
        if g.is_over:
            for a in self.agents:
                self.rewards[a] = 0.0
            for a, r in zip(self.possible_agents, final_rewards(g, self.reward_kind)):
                self.rewards[a] = r
                self.terminations[a] = True
                self.infos[a] = {"scores": g.scores(), "ranking": g.ranking()}
            self._accumulate_rewards()
        else:
            for a in self.agents:
                self.truncations[a] = True
        self._deads_step_first()
        if self.terminations[self.agent_selection] or self.truncations[self.agent_selection]:
            return
        self.agent_selection = self.agents[0]

    def action_mask(self, agent=None) -> np.ndarray:
        """The mask of ``agent`` (default: the selected agent) without its observation vector,
        for policies that read only the legal actions (with ``last(observe=False)``)."""
        return self._legal_of(self.agent_seat[agent or self.agent_selection])[2]

    def legal_indices(self, agent=None) -> tuple[int, ...]:
        """The legal action indices of ``agent`` (default: the selected agent) in increasing
        order, the ones of its mask (kept for the same legal actions), for agents that choose
        among them (random, search) without reading the mask."""
        seat = self.agent_seat[agent or self.agent_selection]
        hit = self._legal[seat]          # (this decision's is usually made: last())
        return hit[3] if hit[0] == self._marker else self._legal_of(seat)[3]

    def last_view(self, agent=None) -> dict:
        """``game.view(seat)`` of ``agent`` (default: the selected agent)."""
        return self._view(self.agent_seat[agent or self.agent_selection])


class FrescoParallel(_Common, ParallelEnv):
    """The Parallel environment (see the module doc)."""

    def __init__(self, players: int = 4, modules: Iterable[str] = (), options: Mapping[str, bool] | None = None,
                 reward: str = "margin", max_cycles: int | None = None, illegal: str = "raise",
                 render_mode: str | None = None, encoding: int = ENCODING_VERSION):
        self._setup(players, modules, options, reward, max_cycles, illegal, render_mode, encoding)
        self._encoding = self.config.encoding
        self._blank: tuple = (None,)
        size = self.encoder.size    # every agent in: (agent, seat, its row of the joined vectors: a slice of one array)
        self._rows = tuple((a, i, slice(i * size, (i + 1) * size)) for i, a in enumerate(self.possible_agents))
        self._actions = self.codec.actions

    def reset(self, seed=None, options=None):
        self._new_game(seed)
        g = self.game     # the engine (a SteppedGame's to_act, is_over and actions applied: its engine's)
        self._engine = g.engine if type(g) is SteppedGame else g
        self.agents = self.possible_agents[:]
        self.cycles = 0
        return self._observations(self._engine.to_act)

    def step(self, actions):
        g = self.game
        names = self.possible_agents
        substituted = None
        at = self._acting
        acting = at[1] if at[0] == self._marker else self._seats_to_act()
        for seat in acting if len(acting) == 1 else sorted(acting):   # while planning: every plan at once
            agent = names[seat]
            try:
                index = actions[agent]
            except KeyError:
                raise IllegalAction(f"{agent} must decide now but has no action in this step") from None
            # (_play inline: the engine refuses an illegal action with the game unchanged, and only
            # then are the legal actions read: _act raises or substitutes)
            i = index if type(index) is int else index_of(index)
            try:
                g.apply(seat, self._actions[i] if 0 <= i < self.WAIT else None)
            except IllegalAction:
                if self._act(seat, index):
                    substituted = (substituted or []) + [agent]
            else:
                self._marker += 1
        self.cycles += 1
        acting = self._engine.to_act          # none once the game is over
        over = not acting and self._engine.is_over
        truncate = not over and self.max_cycles is not None and self.cycles >= self.max_cycles
        agents = self.agents
        obs, infos = self._observations(acting)
        for a in substituted or ():
            infos[a]["illegal_action"] = True
        blank = self._blank         # (agents, 0.0 / False / True per agent): the step's dicts are copies
        if blank[0] != agents:
            blank = self._blank = (agents[:], dict.fromkeys(agents, 0.0), dict.fromkeys(agents, False),
                                   dict.fromkeys(agents, True))
        if over:
            rewards = dict(zip(names, final_rewards(g, self.reward_kind)))
            scores, ranking = g.scores(), g.ranking()
            for a in agents:
                infos[a].update(scores=list(scores), ranking=list(ranking))
            rewards = {a: rewards[a] for a in agents}
        else:
            rewards = blank[1].copy()
        terminations = blank[3 if over else 2].copy()
        truncations = blank[3 if truncate else 2].copy()
        if over or truncate:
            self.agents = []
        return obs, rewards, terminations, truncations, infos

    def legal_indices(self, agent) -> tuple[int, ...]:
        """The legal action indices of ``agent`` now in increasing order, the ones of its
        observation's mask (kept for the same legal actions), for agents that choose among them
        (random, search) without reading the mask."""
        seat = self.agent_seat[agent]
        hit = self._legal[seat]          # (this step's is usually made: the observations)
        return hit[3] if hit[0] == self._marker else self._legal_of(seat)[3]

    def _observations(self, acting: tuple) -> tuple[dict, dict]:
        """Every agent's observation and info now, made in one pass (asked once per step: no
        cache): the vectors together in one array (``Game.observations_joined``, with plans by
        steps ``SteppedGame.observations_joined``: every seat's, in seat order, while every agent
        is in), each agent's row a slice of it; the legal actions of the seats to act, kept for
        :meth:`legal_indices`; the others' mask WAIT alone (none once over).  ``acting``: the
        engine's ``to_act`` now (none once over)."""
        g = self.game
        agents = self.agents
        n = self.config.players
        marker = self._marker
        e = self._engine
        self._acting = (marker, acting)
        if len(agents) == n:      # every seat, in seat order: no seats to check
            asked = None
            rows = self._rows
        else:
            asked = [self.agent_seat[a] for a in agents]
            size = self.encoder.size
            rows = [(a, seat, slice(i * size, (i + 1) * size)) for i, (a, seat) in enumerate(zip(agents, asked))]
        if e is not g:       # (plans by steps: the engine's rows and each seat's draft)
            joined = g.observations_joined(asked)
        else:
            joined = g.observations_joined(asked, self._encoding)
        flat = np.frombuffer(joined, F32)
        masks = [self._wait_mask if acting or not e.is_over else self._none_mask] * n
        legal = self._legal
        for seat in acting:     # (_legal_of of a seat to act, not made yet: the actions were just applied)
            actions = g.legal_actions(seat)
            entry = self.codec.legal_entry(actions, 1)
            mask = masks[seat] = entry[0]
            legal[seat] = (marker, actions, mask, entry[1])      # (the entry's items taken: no list made)
        at = e.actions_applied
        obs, infos = {}, {}
        for a, seat, row in rows:
            obs[a] = {"observation": flat[row], "action_mask": masks[seat]}
            view = _new(LazyView)      # LazyView(g, seat, at) without the class call (~0.6k instructions fewer)
            view._game, view._seat, view._upto = g, seat, at
            infos[a] = {"view": view}
        return obs, infos


class _AgentIter:
    """What :meth:`FrescoAEC.agent_iter` returns: iterable like PettingZoo's ``AECIterable``
    (each ``iter()`` starts again with ``max_iter``)."""

    __slots__ = ("env", "max_iter")

    def __init__(self, env: FrescoAEC, max_iter: int):
        self.env, self.max_iter = env, max_iter

    def __iter__(self):
        env, left = self.env, self.max_iter
        while env.agents and left > 0:
            left -= 1
            yield env.agent_selection


def raw_env(players: int = 4, modules: Iterable[str] = (), options: Mapping[str, bool] | None = None,
            reward: str = "margin", **kwargs: Any) -> FrescoAEC:
    return FrescoAEC(players, modules, options, reward, **kwargs)


def env(players: int = 4, modules: Iterable[str] = (), options: Mapping[str, bool] | None = None,
        reward: str = "margin", **kwargs: Any) -> FrescoAEC:
    """The AEC environment (PettingZoo's order-enforcing wrapper is left out: the env itself
    refuses steps out of turn)."""
    return FrescoAEC(players, modules, options, reward, **kwargs)


def parallel_env(players: int = 4, modules: Iterable[str] = (), options: Mapping[str, bool] | None = None,
                 reward: str = "margin", **kwargs: Any) -> FrescoParallel:
    return FrescoParallel(players, modules, options, reward, **kwargs)
