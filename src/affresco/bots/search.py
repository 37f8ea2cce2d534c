"""SearchBot: single-observer Information-Set MCTS (groundwork for the strong bots).

At each decision, with ``legal`` the seat's legal actions:

1. determinize: sample a full game consistent with the seat's view (``determinize.py``;
   other seats' hidden paints, Thalers, secret plans and module items are sampled, never read);
2. select a root action by UCB1 over the actions legal in both the real decision and the
   determinization, with one statistics table shared by all determinizations and keyed by the
   action's notation (availability counts as in ISMCTS: the exploration term uses how often
   an action was available, not the total);
3. roll out: every seat (the other seats' uncommitted plans included: simultaneous planning
   is resolved by sampling them with the rollout policy) plays a light random policy (uniform,
   but 'pass' only when nothing else is legal) until the game ends or ``horizon`` further
   rounds have begun;
4. reward in [0, 1] for the seat: at the end 0.75 x (won) + 0.25 x margin term, otherwise the
   margin term ``0.5 + 0.5 tanh(margin / 10)`` where margin = (VP + Thalers/2) of the seat
   minus the best other figure's (Leonardo included).

Budget: ``simulations`` iterations (deterministic for the seed) or ``seconds`` of wall time.
The most visited root action is played.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any, Mapping, Sequence

from ..rules import Action
from .base import Bot
from .determinize import determinize

__all__ = ["SearchBot"]


def _value(g, f: int) -> float:
    s = g.state
    vp = max(s.pos[f], 0)
    if f < s.n and not g.is_over:
        return vp + s.thalers[f] / 2
    return float(vp)


def _reward(g, seat: int) -> float:
    mine = _value(g, seat)
    best = max(_value(g, f) for f in range(len(g.state.pos)) if f != seat)
    margin = 0.5 + 0.5 * math.tanh((mine - best) / 10.0)
    if g.is_over:
        won = 1.0 if g.ranking()[0] == seat else 0.0
        return 0.75 * won + 0.25 * margin
    return margin


class SearchBot(Bot):
    name = "search"

    def __init__(self, seed: int | str | None = 0, seconds: float = 1.0, simulations: int | None = None,
                 horizon: int = 2, exploration: float = 0.7, max_rollout_actions: int = 400):
        super().__init__(seed)
        self.seconds = seconds
        self.simulations = simulations
        self.horizon = horizon
        self.c = exploration
        self.max_rollout_actions = max_rollout_actions
        self.last_stats: dict[str, list] = {}
        self.last_iterations = 0

    # -- the rollout policy ------------------------------------------------------------
    @staticmethod
    def _policy(actions: Sequence[Action], rng: random.Random) -> Action:
        if len(actions) > 1:
            non_pass = [a for a in actions if a.kind != "pass"]
            if non_pass:
                return non_pass[rng.randrange(len(non_pass))]
        return actions[rng.randrange(len(actions))]

    def _rollout(self, g, seat: int, rng: random.Random) -> float:
        stop_round = g.state.round + self.horizon
        steps = 0
        while not g.is_over and g.state.round < stop_round and steps < self.max_rollout_actions:
            acting = g.to_act
            if not acting:  # pragma: no cover
                break
            who = acting[0] if len(acting) == 1 else acting[rng.randrange(len(acting))]
            g.apply(who, self._policy(g.legal_actions(who), rng))
            steps += 1
        return _reward(g, seat)

    # -- the search ----------------------------------------------------------------------
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
        legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        by_key = {str(a): a for a in legal}
        # per key: [visits, total reward, times available]
        stats: dict[str, list] = {k: [0, 0.0, 0] for k in by_key}
        rng = random.Random(self.rng.getrandbits(64))
        deadline = None if self.simulations is not None else time.perf_counter() + self.seconds
        it = 0
        while True:
            if self.simulations is not None:
                if it >= self.simulations:
                    break
            elif it > 0 and time.perf_counter() >= deadline:
                break
            it += 1
            g = determinize(view, seat, rng, legal=legal, keep_log=False)
            here = {str(a) for a in g.legal_actions(seat)}
            avail = [k for k in by_key if k in here]
            if not avail:  # the sample contradicts the decision (should not happen): skip it
                continue
            for k in avail:
                stats[k][2] += 1
            untried = [k for k in avail if stats[k][0] == 0]
            if untried:
                key = untried[rng.randrange(len(untried))]
            else:
                key = max(avail, key=lambda k: stats[k][1] / stats[k][0]
                          + self.c * math.sqrt(math.log(stats[k][2]) / stats[k][0]))
            g.apply(seat, by_key[key])
            r = self._rollout(g, seat, rng)
            stats[key][0] += 1
            stats[key][1] += r
        self.last_stats, self.last_iterations = stats, it
        best = max(by_key, key=lambda k: (stats[k][0], stats[k][1] / stats[k][0] if stats[k][0] else 0.0))
        return by_key[best]
