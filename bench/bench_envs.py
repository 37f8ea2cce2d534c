#!/usr/bin/env python3
"""Environment steps per second for each wrapper of affresco.envs beside the raw engine's
decisions per second, in the same run (goal: each wrapper at most 2x the engine's cost).

Every loop plays whole random games with the same choice rule (uniform among the legal
actions, seeded):
  * engine: ``legal_actions`` + ``apply`` (bench_engine.py's decision);
  * engine+view: the same plus ``view(seat, log=False)`` of the deciding seat, the floor of
    any wrapper whose observations come from the seat's view;
  * pettingzoo-aec: ``env.last()`` (observation vector + mask) + ``env.step(index)``;
  * pettingzoo-parallel: ``env.step(actions)`` (every agent's observation each step);
  * gymnasium: ``env.step(index)`` + ``action_masks()``, the other seats random bots
    (counted as decisions too: the cost per decision of the whole loop);
  * openspiel: ``state.legal_actions()`` + ``apply_action`` / ``apply_actions``, plus
    ``observation_tensor`` of the player to act (what a learning loop reads).

    python bench/bench_envs.py                 # 2 and 4 players, base and all modules
    python bench/bench_envs.py --quick
    python bench/bench_envs.py --json out.json
"""
from __future__ import annotations

import argparse
import json
import random
import sys
import time
from pathlib import Path

import numpy as np

try:
    import affresco
except ImportError:  # a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import affresco

from affresco.rules.action_space import supported_modules  # noqa: E402

ALL = tuple(sorted(supported_modules()))


def engine(n, mods, games):
    decisions, t0 = 0, time.perf_counter()
    for seed in range(games):
        g = affresco.new_game(n, mods, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = rng.choice(g.to_act)
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            decisions += 1
    return decisions, time.perf_counter() - t0


def engine_view(n, mods, games):
    """The engine plus ``view(seat)`` of the deciding seat: what any player reading its view
    pays (a bot, a person's client), the floor of a wrapper built on views."""
    decisions, t0 = 0, time.perf_counter()
    for seed in range(games):
        g = affresco.new_game(n, mods, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = rng.choice(g.to_act)
            g.view(seat, log=False)
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            decisions += 1
    return decisions, time.perf_counter() - t0


def aec(n, mods, games):
    from affresco.envs.pettingzoo import env
    e = env(players=n, modules=mods)
    decisions, t0 = 0, time.perf_counter()
    for seed in range(games):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            if term or trunc:
                e.step(None)
                continue
            e.step(rng.choice(np.flatnonzero(obs["action_mask"]).tolist()))
            decisions += 1
    return decisions, time.perf_counter() - t0


def parallel(n, mods, games):
    from affresco.envs.pettingzoo import parallel_env
    p = parallel_env(players=n, modules=mods)
    decisions, t0 = 0, time.perf_counter()
    for seed in range(games):
        obs, _ = p.reset(seed=seed)
        rng = random.Random(seed)
        while p.agents:
            acting = p.game.to_act
            decisions += len(acting)
            acts = {a: rng.choice(np.flatnonzero(o["action_mask"]).tolist()) for a, o in obs.items()}
            obs, *_ = p.step(acts)
    return decisions, time.perf_counter() - t0


def gym(n, mods, games):
    from affresco.envs.gymnasium import FrescoEnv
    env = FrescoEnv(players=n, opponents="random", modules=mods)
    decisions, t0 = 0, time.perf_counter()
    for seed in range(games):
        env.reset(seed=seed)
        rng = random.Random(seed)
        while True:
            _, _, term, _, _ = env.step(rng.choice(np.flatnonzero(env.action_masks()).tolist()))
            if term:
                break
        decisions += len(env.game.history())
    return decisions, time.perf_counter() - t0


def openspiel(n, mods, games):
    import pyspiel
    import affresco.envs.openspiel  # noqa: F401
    game = pyspiel.load_game("python_fresco", {"players": n, "modules": ",".join(mods), "rng_seed": 0})
    decisions, t0 = 0, time.perf_counter()
    for seed in range(games):
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.is_simultaneous_node():
                s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(n)])
                decisions += n
            else:
                p = s.current_player()
                s.observation_tensor(p)
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
    return decisions, time.perf_counter() - t0


WRAPPERS = {"engine": engine, "engine+view": engine_view, "pettingzoo-aec": aec, "pettingzoo-parallel": parallel, "gymnasium": gym,
            "openspiel": openspiel}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--quick", action="store_true")
    ap.add_argument("--players", type=int, nargs="*", default=[2, 4])
    ap.add_argument("--json", default=None)
    args = ap.parse_args()
    games = 2 if args.quick else args.games
    results = []
    for n in args.players:
        for mods in ((), ALL):
            label = f"{n}p {'all modules' if mods else 'base'}"
            base = with_view = None
            for name, fn in WRAPPERS.items():
                fn(n, mods, 1)  # warm-up: imports, tables, caches
                d, sec = fn(n, mods, games)
                rate = d / sec
                base = base or rate
                if name == "engine+view":
                    with_view = rate
                vs_view = with_view / rate if with_view else None
                results.append({"setup": label, "wrapper": name, "decisions": d, "seconds": round(sec, 3),
                                "per_second": round(rate), "cost_vs_engine": round(base / rate, 2),
                                "cost_vs_engine_view": round(vs_view, 2) if vs_view else None})
                print(f"{label:<16} {name:<20} {rate:>9,.0f} decisions/s   {base / rate:5.2f}x the engine's cost"
                      + (f"   {vs_view:5.2f}x engine+view" if vs_view else ""), flush=True)
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))


if __name__ == "__main__":
    main()
