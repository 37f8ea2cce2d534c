"""SearchBot: determinized search guided by the heuristic (single-observer ISMCTS, one level).

At each decision, with ``legal`` the seat's legal actions (only ``view(seat)`` and ``legal``
are used; the hidden state is never read):

1. **Candidates**: :class:`~affresco.bots.heuristic.HeuristicBot` ranks the legal actions; the
   best ``candidates`` are searched (planning: the plans it built for each market size and
   variant).  A decision with one candidate, or a VP-track stop, is answered at once.
2. **Determinize** (``determinize.py``): sample a full game consistent with the view: the
   other seats' paints and Thalers estimated from the public log, their committed but secret
   plans drawn from their heuristic ranking (the simultaneous planning step: the best plan
   with probability ``plan_top``, else one of the next ones), module secrets and future chance
   sampled.  Seats that have not committed a plan yet plan inside the rollout, without seeing
   this seat's plan.
3. **Roll out** each candidate still in the running from the *same* determinization with the
   same random stream (paired comparison): every figure plays the heuristic until the end of
   the current round (``horizon`` rounds; in the final round to the end of the game); the
   other seats take the heuristic's second choice with probability ``epsilon``, so repeated
   determinizations also sample their behaviour.
4. **Evaluate** the leaf for every figure with the heuristic's position value (VP + paints,
   Thalers, mood, permanent portraits, scrolls; final scores once the game is over) and turn
   the margins into a reward in [0, 1]: half the sigmoid of the margin over the best other
   figure (Leonardo included), half the mean sigmoid of the margins over each other figure.
5. **Prune** after each determinization the candidates whose mean reward is more than
   ``prune / sqrt(determinizations)`` below the best (at least two stay), and stop early when
   one is left.  Play the best mean (the heuristic's first choice gets ``prior`` extra, so
   the search departs from the heuristic only on evidence).

Budget: ``seconds`` of wall time per decision (``clock="cpu"``: of the process's CPU time, for
measurements on a busy machine), or ``simulations`` rollouts (then the bot is deterministic for
its seed).  ``make_bot("search", seed, seconds=0.5)`` or ``"search:0.5"``.  ``workers=2``
searches on a helper process too (root-parallel, ``bots/parallel.py``): ``"search:1.0:workers=2"``.
"""
from __future__ import annotations

import math
import random
import time
from typing import Any, Mapping, Sequence

from ..errors import FrescoError
from ..rules import Action, Game, PlanVariants
from .base import Bot
from .determinize import determinize, estimate_hidden
from .heuristic import HeuristicBot, Weights
from .model import round_start

__all__ = ["SearchBot"]


_EVENT_MODULES = frozenset({"portraits", "requests"})  # the heuristic reads this round's events for them


class _RolloutViews:
    """The views a rollout's decisions are made on: ``game.view(seat, log=False, lean=True)``
    completed from the searched decision's view with what never changes in a game (the
    edition, the mood display, the modules...; the hostel's spaces, with who took each
    worked out from the figures' get-up times), and with only the events the heuristic reads
    (this round's), followed cheaply with ``events_since`` and only where a module in play
    makes them matter (portraits, requests).  The heuristic ranks the same on them as on
    full views (``vp_sources``, which it does not read, is left out)."""

    __slots__ = ("game", "follow", "logs", "fixed", "hostel")

    def __init__(self, game: Game, follow: bool, root: Mapping[str, Any]):
        self.game, self.follow = game, follow
        self.logs: dict[int, tuple[Any, list]] = {}
        lean = game.view(0, log=False, lean=True)
        self.fixed = {k: v for k, v in root.items() if k not in lean and k not in ("events", "vp_sources", "hostel")}
        self.hostel = [(h["time"], h["mood"], h["price"]) for h in root["hostel"]]

    def view(self, seat: int, events: bool = True) -> dict[str, Any]:
        v = self.game.view(seat, log=False, lean=True)
        v.update(self.fixed)
        taken: dict[Any, Any] = {}   # get-up time -> the first figure on it
        for f in v["figures"]:
            getup = f["getup"]
            if getup is not None and getup not in taken:
                taken[getup] = f["name"]
        v["hostel"] = [{"time": time, "mood": mood, "price": price, "taken_by": taken.get(time)}
                       for time, mood, price in self.hostel]
        if self.follow and events:
            mark, seen = self.logs.get(seat, (None, []))
            new, mark = self.game.events_since(seat, mark)
            if new is None:  # pragma: no cover - a rollout only moves forward
                new, seen = self.game.events(seat), []
            if new:
                seen = seen + new
                start = round_start(seen)
                if start:
                    seen = seen[start:]
            self.logs[seat] = (mark, seen)
            v["events"] = seen
        else:
            v["events"] = []
        return v


def _sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x)) if x > -50 else 0.0


class SearchBot(Bot):
    """Determinized rollouts of the heuristic policy at the root (see the module docstring)."""

    name = "search"

    def __init__(self, seed: int | str | None = 0, seconds: float = 1.0, simulations: int | None = None,
                 horizon: int = 1, candidates: int = 5, epsilon: float = 0.15, prior: float = 0.02,
                 prune: float = 0.12, scale: float = 8.0, plan_top: float = 0.5,
                 weights: Weights | None = None, max_rollout_actions: int = 3000, workers: int = 1,
                 clock: str = "wall"):
        super().__init__(seed)
        if int(workers) < 1:
            raise ValueError(f"workers must be 1 or more, not {workers!r}")
        if clock not in ("wall", "cpu"):
            raise ValueError(f"clock is 'wall' or 'cpu', not {clock!r}")
        self.workers = int(workers)
        self.clock = clock  # what 'seconds' counts: wall time, or this process's CPU time (a busy machine)
        self._clock = time.perf_counter if clock == "wall" else time.process_time
        # what a helper process needs to build the same bot (root-parallel search, workers > 1)
        self._options = dict(seconds=seconds, simulations=simulations, horizon=horizon, candidates=candidates,
                             epsilon=epsilon, prior=prior, prune=prune, scale=scale, plan_top=plan_top,
                             weights=weights, max_rollout_actions=max_rollout_actions, clock=clock)
        self.seconds = float(seconds)
        self.simulations = None if simulations is None else int(simulations)
        self.horizon = int(horizon)
        self.candidates = int(candidates)
        self.epsilon = float(epsilon)
        self.prior = float(prior)
        self.prune = float(prune)
        self.scale = float(scale)
        self.plan_top = float(plan_top)
        self.max_rollout_actions = int(max_rollout_actions)
        self.heuristic = HeuristicBot(seed, weights)      # ranks the root candidates
        self.policy = HeuristicBot(seed, weights)         # plays every figure in the rollouts
        self._follow_events = True
        self._root_view: Mapping[str, Any] = {}
        self._paths: dict = {}
        self._known: dict = {}
        self.reuse_paths = True  # reuse rankings on a rollout path met again (see _rollout); False: recompute
        self._root: Any = None            # the view of the decision being searched, and what
        self._root_facts: tuple = ()      # determinize() needs of it every time
        self.last_stats: dict[str, list] = {}
        self.last_iterations = 0

    # ------------------------------------------------------------------ the decision
    def choose(self, view: Mapping[str, Any], legal: Sequence[Action], seat: int) -> Action:
        lazy = type(legal) is PlanVariants   # the medico's plans: never made all at once
        if not lazy:
            legal = list(legal)
        if len(legal) == 1:
            return legal[0]
        clock = self._clock
        start = clock()
        ranked = self.heuristic.rank(view, legal, seat)
        kinds = {"plan"} if lazy else {a.kind for a in legal}
        cands: list[Action] = []
        for _, a in ranked:
            if a not in cands:
                cands.append(a)
            if len(cands) >= self.candidates:
                break
        self.last_stats, self.last_iterations = {}, 0
        if len(cands) == 1 or "track" in kinds:
            return cands[0]
        rng = random.Random(self.rng.getrandbits(64))
        deadline = None if self.simulations is not None else start + self.seconds
        if self.workers > 1:
            total, count, used = self._search_parallel(view, legal, seat, cands, rng, start)
        else:
            total, count, used = self._search(view, legal, seat, cands, rng, self.simulations, deadline)
        n = len(cands)
        self.last_iterations = used
        self.last_stats = {str(cands[i]): [count[i], total[i]] for i in range(n)}
        # compare on the determinizations every contender finished
        most = max(count)
        if most == 0:
            return cands[0]
        contenders = [i for i in range(n) if count[i] == most] or [0]

        def score(i: int) -> float:
            return total[i] / count[i] + (self.prior if i == 0 else 0.0)

        return cands[max(contenders, key=lambda i: (score(i), -i))]

    def _search(self, view, legal, seat: int, cands: list[Action], rng: random.Random, budget: int | None,
                deadline: float | None) -> tuple[list[float], list[int], int]:
        """Steps 2-5 of the module doc: (total reward, rollouts) per candidate and rollouts done,
        within ``budget`` rollouts or until ``deadline`` (on the bot's clock)."""
        clock = self._clock
        self._follow_events = bool(_EVENT_MODULES & set(view.get("modules", ())))
        self._root_view = view
        self._root = None
        self._paths = {}    # (path, seat, action) -> path: the action paths of this decision's rollouts
        self._known = {}    # (path, seat) -> ranking, and (path, None) -> leaf values (see _rollout)
        n = len(cands)
        total = [0.0] * n
        count = [0] * n
        alive = list(range(n))
        dets = used = 0
        while len(alive) > 1:
            if budget is not None and used >= budget:
                break
            if deadline is not None and dets > 0 and clock() >= deadline:
                break
            g, sample = self._determinize(view, seat, rng, legal)
            stream = rng.getrandbits(64)
            done_all = True
            for i in alive:
                if budget is not None and used >= budget or deadline is not None and dets > 0 \
                        and clock() >= deadline:
                    done_all = False
                    break
                sim = g.clone()
                try:
                    revealed = sim.apply(seat, cands[i])
                except FrescoError:  # the sample contradicts the decision (should not happen)
                    continue
                node = None if revealed or not self.reuse_paths else self._node((sample, i))
                total[i] += self._rollout(sim, seat, random.Random(stream), node)
                count[i] += 1
                used += 1
            if not done_all:
                break
            dets += 1
            if dets >= 2:
                means = {i: total[i] / count[i] for i in alive if count[i]}
                if means:
                    best = max(means.values())
                    keep = [i for i in alive if i in means and means[i] >= best - self.prune / math.sqrt(dets)]
                    if len(keep) < 2:
                        keep = sorted(alive, key=lambda i: -means.get(i, -1.0))[:2]
                    alive = sorted(keep)
        return total, count, used

    def _search_parallel(self, view, legal, seat: int, cands: list[Action], rng: random.Random,
                         start: float) -> tuple[list[float], list[int], int]:
        """Root-parallel search: ``workers - 1`` helper processes search the same candidates on
        their own determinizations (their own seeds) while this one does; the rewards and
        rollout counts are added up.  A fixed ``simulations`` budget is shared out (the same
        total, deterministic for the seed); with ``seconds`` every process searches that long."""
        from .parallel import helpers
        w = self.workers
        seeds = [self.rng.getrandbits(64) for _ in range(w - 1)]
        shares: list[int | None]
        if self.simulations is not None:
            shares = [self.simulations // w + (1 if i < self.simulations % w else 0) for i in range(w)]
        else:
            shares = [None] * w
        pool = helpers(w - 1)
        # the helpers stop at the same moment (time.monotonic() is the same clock in every
        # process), or after the same CPU time of their own
        left = None if self.simulations is not None else max(0.0, start + self.seconds - self._clock())
        until = left if left is None or self.clock == "cpu" else time.monotonic() + left
        jobs = [pool.submit(self._options, view, legal, seat, cands, seed, share, until)
                for seed, share in zip(seeds, shares[1:])]
        deadline = None if until is None else start + self.seconds
        total, count, used = self._search(view, legal, seat, cands, rng, shares[0], deadline)
        for job in jobs:
            wait = None if deadline is None or self.clock == "cpu" else max(0.0, deadline - self._clock()) + 0.25
            got = pool.result(job, wait)
            if got is None:  # a helper that is late (still starting) is left out of this decision
                continue
            t, c, u = got
            total = [a + b for a, b in zip(total, t)]
            count = [a + b for a, b in zip(count, c)]
            used += u
        return total, count, used

    def search_share(self, view, legal, seat: int, cands: list[Action], seed: int, budget: int | None,
                     until: float | None) -> tuple[list[float], list[int], int]:
        """One helper process's part of a root-parallel search (see :meth:`_search_parallel`):
        ``budget`` rollouts, or until ``until`` (``time.monotonic()``; with the CPU clock, for
        ``until`` seconds of this process's CPU time)."""
        if until is None:
            deadline = None
        elif self.clock == "cpu":
            deadline = self._clock() + until
        else:
            deadline = time.perf_counter() + (until - time.monotonic())
        return self._search(view, legal if type(legal) is PlanVariants else list(legal), seat, list(cands),
                            random.Random(seed), budget, deadline)

    # ------------------------------------------------------------------ determinization
    def _determinize(self, view, seat, rng, legal):
        # keep only this round's events (what the heuristic reads; views get cheaper); the
        # public estimates of the other seats' holdings are the same for every sample
        if self._root is not view:
            self._root = view
            self._root_facts = (round_start(view["events"]), estimate_hidden(view))
        log_from, estimates = self._root_facts
        return determinize(view, seat, rng, legal=legal, plan_chooser=self._plan_chooser,
                           log_from=log_from, estimates=estimates, with_key=True)

    def _plan_chooser(self, probe, figure: int, options: Sequence[Action], rng: random.Random) -> Action:
        """A committed secret plan of another seat: from its heuristic ranking."""
        ranked = [a for _, a in self.policy.rank(probe.view(figure), options, figure)]
        if not ranked:
            return options[rng.randrange(len(options))]
        if len(ranked) == 1 or rng.random() < self.plan_top:
            return ranked[0]
        return ranked[1 + rng.randrange(min(3, len(ranked) - 1))]

    # ------------------------------------------------------------------ rollout and value
    def _node(self, key) -> int:
        paths = self._paths
        node = paths.get(key)
        if node is None:
            node = paths[key] = len(paths)
        return node

    def _rollout(self, g: Game, seat: int, rng: random.Random, node: int | None = None) -> float:
        """Play the heuristic (the others with ``epsilon`` second choices) to the end of the
        horizon.  ``node`` names the path from the searched decision (the sample's hidden parts,
        the candidate, the actions since) while no chance event has happened: the same path then
        gives the same views (only the seed differs), so the ranking of each decision and the
        leaf values met again on it (on other samples) are reused instead of recomputed."""
        stop = g.round + self.horizon
        steps = 0
        policy = self.policy
        views = _RolloutViews(g, self._follow_events, self._root_view)
        known = self._known
        while not g.is_over and g.round < stop and steps < self.max_rollout_actions:
            who = g.to_act[0]
            ranked = known.get((node, who)) if node is not None else None
            if ranked is None:
                legal = g.legal_actions(who)
                ranked = [(0.0, legal[0])] if len(legal) == 1 else policy.rank(views.view(who), legal, who)
                if node is not None:
                    known[(node, who)] = ranked
            action = ranked[0][1]
            if who != seat and len(ranked) > 1 and rng.random() < self.epsilon:
                action = ranked[1][1]
            if g.apply(who, action):
                node = None  # hidden information came out: the paths part
            elif node is not None:
                node = self._node((node, who, action))
            steps += 1
        return self._reward(g, seat, views, node)

    def values(self, g: Game, views: _RolloutViews | None = None) -> list[float]:
        """The heuristic's position value of every figure (final scores once the game is over)."""
        if g.is_over:
            return [float(x) for x in g.scores()]
        # the leaf value reads no events
        out = [self.policy.position_value(views.view(f, events=False) if views else g.view(f, log=False), f)
               for f in range(g.players)]
        out += [float(vp) for vp in g.scores()[g.players:]]  # Leonardo: his VP
        return out

    def _reward(self, g: Game, seat: int, views: _RolloutViews | None = None, node: int | None = None) -> float:
        v = self._known.get((node, None)) if node is not None else None
        if v is None:
            v = self.values(g, views)
            if node is not None:
                self._known[(node, None)] = v
        mine = v[seat]
        others = [x for f, x in enumerate(v) if f != seat]
        best = _sigmoid((mine - max(others)) / self.scale)
        pair = sum(_sigmoid((mine - x) / self.scale) for x in others) / len(others)
        if g.is_over:
            won = 1.0 if g.ranking()[0] == seat else 0.0
            return 0.5 * won + 0.25 * best + 0.25 * pair
        return 0.5 * best + 0.5 * pair
