"""A single-agent Gymnasium environment: one seat learns, affresco bots play the others
(docs/envs-gymnasium.md).

    >>> import gymnasium as gym
    >>> import affresco.envs.gymnasium  # registers affresco/Fresco-v0
    >>> env = gym.make("affresco/Fresco-v0", players=2, opponents="random")
    >>> obs, info = env.reset(seed=1)
    >>> obs, reward, terminated, truncated, info = env.step(int(info["action_mask"].argmax()))

Observation: the seat's float32 vector (:class:`affresco.envs.ObservationEncoder`); the
action: an index into the set-up's fixed action space (:class:`affresco.envs.ActionCodec`; with
``encoding=3``, the default, and 2 a plan is chosen as a few small choices, one per step, docs/envs.md);
:meth:`FrescoEnv.action_masks` (sb3-contrib's MaskablePPO reads it) and ``info["action_mask"]``
give the legal ones; ``info["view"]`` is the seat's lean view ``game.view(seat, log=False,
lean=True)`` (what the vector shows, as a read-only mapping made when first read;
``env.game.view(seat)`` has the rest).  The other seats' decisions,
including Leonardo's when a bot controls him, are made by bots between the agent's steps.
Reward 0 until the end, then ``margin``, ``rank`` or ``win`` (see affresco.envs.core).
"""
from __future__ import annotations

import sys
import random
from typing import Any, Iterable, Mapping, Sequence

import gymnasium
import numpy as np
from gymnasium import spaces

from affresco import IllegalAction
from affresco.bots import make_bot
from .core import (ENCODING_VERSION, ENCODINGS, Config, LazyView, check_render_mode, check_reward, final_rewards,
                   index_of, render_text, tables)

_new = object.__new__

__all__ = ["FrescoEnv", "ENV_ID"]

ENV_ID = "affresco/Fresco-v0"
_SHARED = 64   # info["action_mask"] of a longer legal list is the codec's shared read-only mask


class FrescoEnv(gymnasium.Env):
    """Fresco for one learning seat against bots (see the module doc).

    players: 2-4; opponents: one bot spec for every other seat (``"random"``, ``"heuristic"``,
    ``"search:0.1"``) or a list with one per other seat; seat: the learner's seat (None: a
    random seat each episode, drawn from the reset seed); illegal: ``"raise"`` or
    ``"substitute"`` (a random legal action, ``info["illegal_action"] = True``).
    """

    metadata = {"render_modes": ["ansi", "human"]}

    def __init__(self, players: int = 2, opponents: str | Sequence[str] = "heuristic", modules: Iterable[str] = (),
                 options: Mapping[str, bool] | None = None, reward: str = "margin", seat: int | None = 0,
                 illegal: str = "raise", render_mode: str | None = None, encoding: int = ENCODING_VERSION):
        self.config = Config.of(players, modules, options, encoding)
        self.codec, self.encoder = tables(self.config)
        self.reward_kind = check_reward(reward)
        others = players - 1
        if not isinstance(opponents, (str, Sequence)):
            raise ValueError(f"opponents is a bot spec or a list of {others}, not {opponents!r}")
        self.opponent_specs = [opponents] * others if isinstance(opponents, str) else list(opponents)
        if len(self.opponent_specs) != others:
            raise ValueError(f"{players} players need {others} opponent bot specs, not {self.opponent_specs!r}")
        for spec in self.opponent_specs:
            make_bot(spec, 0)  # fail early on a bad spec
        if seat is not None and (type(seat) is not int or not 0 <= seat < players):
            raise ValueError(f"seat must be None or 0..{players - 1}, not {seat!r}")
        if illegal not in ("raise", "substitute"):
            raise ValueError(f"illegal must be 'raise' or 'substitute', not {illegal!r}")
        self.fixed_seat, self.illegal, self.render_mode = seat, illegal, check_render_mode(render_mode)
        self.observation_space = spaces.Box(-np.inf, np.inf, (self.encoder.size,), np.float32)
        self.action_space = spaces.Discrete(self.codec.size)
        self.game = self.engine = None
        self.seat = seat or 0

    # --- gymnasium API ---------------------------------------------------------------
    def reset(self, *, seed: int | None = None, options: dict | None = None):
        super().reset(seed=seed)
        game_seed = int(self.np_random.integers(2**62))
        self._rng = random.Random(game_seed)
        self.seat = self.fixed_seat if self.fixed_seat is not None else self._rng.randrange(self.config.players)
        self.engine = self.config.new_game(game_seed)        # what the bots play
        self.game = self.config.stepped(self.engine)         # what the learner plays (encoding 2: plans by steps)
        self._marker, self._legal_at = 0, (-1, [], None, ())
        others = [s for s in range(self.config.players) if s != self.seat]
        self.bots = {s: make_bot(spec, f"{game_seed}:{s}") for s, spec in zip(others, self.opponent_specs)}
        self._play_bots()
        obs = self._obs()
        return obs, self._info()

    def step(self, action):
        if self.game is None or self.game.is_over:
            raise RuntimeError("the game is over: call reset()" if self.game is not None else "call reset() first")
        i = action if type(action) is int else index_of(action)
        substituted = False
        try:                    # the engine refuses an illegal action with the game unchanged
            self.game.apply(self.seat, self.codec.actions[i] if 0 <= i < self.codec.size else None)
        except IllegalAction:
            legal, mask = self._legal()
            a = self.codec.actions[i] if 0 <= i < self.codec.size else None
            if self.illegal == "raise":
                raise IllegalAction(f"action {action} ({a}) is not legal now; legal: {[str(x) for x in legal[:10]]}...") \
                    from None
            self.game.apply(self.seat, self._rng.choice(legal))
            substituted = True
        self._marker += 1
        self._play_bots()
        over = self.game.is_over
        reward = final_rewards(self.game, self.reward_kind)[self.seat] if over else 0.0
        obs = self._obs()
        info = self._info()
        if substituted:
            info["illegal_action"] = True
        if over:
            info.update(scores=self.game.scores(), ranking=self.game.ranking(), seat=self.seat)
        return obs, reward, over, False, info

    def action_masks(self) -> np.ndarray:
        """The legal actions as booleans (sb3-contrib's MaskablePPO calls this): a new writable
        array at each call, the caller's to keep or change (PyTorch warns about a read-only
        array handed to ``MaskablePPO.predict(..., action_masks=...)``; the codec's masks are
        shared and read-only, so this is a copy of one)."""
        return self._legal()[1].view(np.bool_).copy()

    def legal_indices(self) -> tuple[int, ...]:
        """The learner's legal action indices in increasing order, the ones of
        :meth:`action_masks` (kept for the same legal actions), for agents that choose among
        them (random, search) without reading a mask."""
        self._legal()
        return self._legal_at[3]

    def render(self):
        text = render_text(self.game, self.seat) if self.game is not None else ""
        if self.render_mode == "human":
            sys.stdout.write(text + "\n")   # render_mode "human": the terminal, as the libraries expect
            return None
        return text

    # --- helpers ---------------------------------------------------------------------
    def _play_bots(self) -> None:
        """Let the bots decide until the learner must (or the game is over).  A bot that
        does not read views (``Bot.reads_view`` False, e.g. the random bot) is given none."""
        g, me, bots = self.engine, self.seat, self.bots
        while True:
            acting = g.to_act           # (none once the game is over)
            if not acting or me in acting:
                return
            seat = acting[0]
            bot = bots[seat]
            g.apply(seat, bot.choose(g.view(seat) if bot.reads_view else {}, g.legal_actions(seat), seat))
            self._marker += 1

    def _legal(self) -> tuple[list, np.ndarray]:
        """The learner's legal actions and mask, once per decision (``_legal_at``: with the
        marker and the legal indices, :meth:`ActionCodec.legal_entry`)."""
        if self._legal_at[0] != self._marker:
            legal = [] if self.game.is_over else self.game.legal_actions(self.seat)
            self._legal_at = (self._marker, legal, *self.codec.legal_entry(legal))
        return self._legal_at[1], self._legal_at[2]

    def _obs(self) -> np.ndarray:
        return self.encoder.observe(self.game, self.seat)

    def _info(self) -> dict[str, Any]:
        """``action_mask``: a new array (Gymnasium asks for new info data at every call), except
        a planning decision's long mask (up to ~204,000 entries), which is shared and
        read-only; ``view``: the lean view, made when read."""
        legal, mask = self._legal()
        fresh = mask.copy() if len(legal) <= _SHARED and self.codec.shares(legal) else mask
        view = _new(LazyView)      # LazyView(game, seat) without the class call (~0.6k instructions fewer)
        view._game, view._seat, view._upto = self.game, self.seat, self.game.actions_applied
        return {"action_mask": fresh, "view": view}


gymnasium.register(id=ENV_ID, entry_point="affresco.envs.gymnasium:FrescoEnv")
for _n in (2, 3, 4):  # the versioned ids of the base game per player count and encoding (docs/envs.md)
    for _v in ENCODINGS:
        gymnasium.register(id=f"affresco/Fresco-{_n}p-v{_v}", entry_point="affresco.envs.gymnasium:FrescoEnv",
                           kwargs={"players": _n, "encoding": _v})
