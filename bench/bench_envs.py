#!/usr/bin/env python3
"""Environment steps per second for each wrapper of affresco.envs beside the raw engine's
decisions per second, in the same run (goal: each wrapper at most 2x the engine's cost).

Every loop plays whole random games with the same choice rule (uniform among the legal
actions, seeded):
  * engine: ``legal_actions`` + ``apply`` (bench_engine.py's decision);
  * engine+view: the same plus ``view(seat, log=False)`` of the deciding seat (what a bot or
    a person's client reads); engine+lean view: with ``lean=True``, what the wrappers read;
    engine+observation: the same plus ``game.observation(seat)`` (the vector every wrapper
    hands out, without any wrapper around it);
  * pettingzoo-aec: ``env.last()`` (observation vector + mask) + ``env.step(index)``;
    "(mask only)": ``last(observe=False)`` + ``env.action_mask()``, the protocol without the
    vector;
  * pettingzoo-parallel: ``env.step(actions)`` (every agent's observation each step; the
    agent picks for the deciding agents, the others answer WAIT, their only legal action);
  * gymnasium: ``env.step(index)``, the other seats random bots (counted as decisions too:
    the cost per decision of the whole loop);
  * openspiel: ``state.legal_actions()`` + ``apply_action`` / ``apply_actions``, plus the
    observation tensor of the player to act through OpenSpiel's Python observation API
    (``make_observation(game).set_from(state, player)``: a numpy tensor); "openspiel (tensor
    list)" reads ``state.observation_tensor(player)`` instead (pyspiel's list: its own cost).

The agent does what the engine loop's does (``rng.choice`` in the list of legal choices the
interface hands out): in the wrappers that list is ``legal_indices`` (OpenSpiel:
``legal_actions()``), the wrapper's own work; ``--pick mask`` makes it pick from the mask
instead (numpy's nonzero of a ~3,200-entry mask, :func:`pick`: about 2 us, a quarter of an
engine decision, work the engine loop's agent does not do; the measure before session 11).

Costs are in this process's CPU time, three ways: per env step (a "decision" of the loop:
with encoding 2 a plan takes several steps), per engine decision (the engine's actions applied:
one per plan whatever the encoding) and per game (the fair comparison when a plan takes several
steps; games of one seed differ by the random choices, so compare over several); each also as a
ratio to the engine loop's; blocks alternate the loops (every loop
once per block, each block starting with the next loop), and the machine's load is printed
beside the numbers.  Each loop runs in a process of its own (the bench telling each in turn
which block to play), and each loop's ratio is to the engine's work on that loop's own games
(``engine on LOOP's games``: recorded first by another process, replayed with the engine loop's
work, :func:`engine_on_games`): the same games, and no loop meets a game another loop has
warmed the engine's memos with (session 22; ``--one-process`` gives the bench before it: every
loop in this process, each ratio to the engine loop's own games).  Every loop first plays as many other games (other seeds) as it will be
measured on, unmeasured (``--warm-games N``: N of them): planning situations recur from game to
game (86 distinct ones in 30 random 4-player games with all eight modules, few new after 20),
so in a long training run they are known: the engine's lazy plan lists and a wrapper's mask of
them (which must list every plan: ~2 us per plan, up to 110,000 plans, for a situation new to
the process) are made once; the measured games themselves are new to every memo, as a
training run's games are (``--replay`` warms up on the measured games themselves, which also
fills the memos that remember positions by their contents; ``--cold`` warms up with one game
only).

    python bench/bench_envs.py                 # 2 and 4 players, base and all modules
    python bench/bench_envs.py --quick
    python bench/bench_envs.py --players 4 --modules base --only pettingzoo-aec
    python bench/bench_envs.py --json out.json
    python bench/bench_envs.py --modules all --encoding 1 2   # each wrapper with plans as one action and by steps
    python bench/bench_envs.py --baseline e9d8a5a --rounds 2   # this checkout against a revision, alternating
    python bench/bench_envs.py --observation-cost --modules base --players 2 4   # the vector's own cost, same games
    python bench/bench_envs.py --same-games --modules all --players 2 4   # encodings 1 and 2 on the same games
    python bench/bench_envs.py --same-games --modules all --encoding 2 3   # the module slots against hashing
    python bench/bench_envs.py --instructions --modules base --players 2 4 --games 5   # valgrind counts, same games
    python bench/bench_envs.py --instructions --modules base --players 2 --games 3 --only openspiel gymnasium
    python bench/bench_envs.py --instructions --modules all --players 2 --games 4 --warm-games 9 --only "pettingzoo-aec v3"
    python bench/bench_envs.py --by-kind --modules base --players 2 4   # per kind of decision, engine and AEC
    python bench/bench_envs.py --parts --modules all --players 2 --warm-games 9   # a step's parts, per wrapper
"""
from __future__ import annotations

import argparse
import functools
import gc
import json
import os
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
MOD_SETS = {"base": [()], "all": [ALL], "both": [(), ALL]}   # --modules


def _clock():
    return time.process_time()   # CPU time of this process: other jobs on the machine do not inflate it


FINISHED: list | None = None   # the games each loop finishes, as records (the recorder's: record_worker)


def _finished(game) -> None:
    """Keep the record of a game a loop has just finished (:func:`record_worker`)."""
    assert FINISHED is not None
    FINISHED.append((game.engine if type(game).__name__ == "SteppedGame" else game).record())


PICK = "list"    # --pick: how the wrappers' agents choose (see the module doc)


def pick(rng, mask):
    """A uniform choice among the legal indices of a 0/1 mask (``--pick mask``).  numpy's
    nonzero of an int8 array is several times slower than of the same bytes seen as booleans,
    so the mask is read as booleans."""
    legal = mask.view(np.bool_).nonzero()[0]
    return int(legal[rng.randrange(len(legal))])


def legal_indices(env):
    """The wrapper's ``legal_indices`` (an agent's legal indices, sorted); on a tree from before
    it (``--baseline``), the same tuple made the same way: the codec's kept indices of the env's
    legal list."""
    if hasattr(env, "legal_indices"):
        return env.legal_indices
    if hasattr(env, "action_masks"):          # gymnasium
        return lambda: env.codec.sorted_indices(env._legal()[0])
    return lambda agent=None: env.codec.sorted_indices(env._legal_of(env.agent_seat[agent or env.agent_selection])[1])


def engine(n, mods, seeds):
    decisions, t0 = 0, _clock()
    for seed in seeds:
        g = affresco.new_game(n, mods, seed=seed)
        rng = random.Random(seed)
        while not g.is_over:
            seat = rng.choice(g.to_act)
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            decisions += 1
        FINISHED is None or _finished(g)
    return decisions, _clock() - t0, decisions, len(seeds)


def engine_view(n, mods, seeds, lean=False):
    """The engine plus ``view(seat)`` of the deciding seat: what any player reading its view
    pays (a bot, a person's client), the floor of a wrapper built on views."""
    decisions, t0 = 0, _clock()
    for seed in seeds:
        g = affresco.new_game(n, mods, seed=seed)
        rng = random.Random(f"view:{seed}")   # not the engine loop's game: its memoised plans would be warm
        while not g.is_over:
            seat = rng.choice(g.to_act)
            g.view(seat, log=False, lean=lean)
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            decisions += 1
        FINISHED is None or _finished(g)
    return decisions, _clock() - t0, decisions, len(seeds)


def engine_lean_view(n, mods, seeds):
    """The engine plus the lean view the wrappers' vectors are made from."""
    return engine_view(n, mods, seeds, lean=True)


def engine_observation(n, mods, seeds, encoding=None):
    """The engine plus ``game.observation(seat)`` of the deciding seat (in ``encoding``: the
    engine's vector is the same for 1 and 2): the observation vector's own cost inside a game
    loop, without any wrapper (what every wrapper pays for it at least)."""
    observe = (lambda g, seat: g.observation(seat)) if encoding is None else \
        (lambda g, seat: g.observation(seat, encoding))
    decisions, t0 = 0, _clock()
    for seed in seeds:
        g = affresco.new_game(n, mods, seed=seed)
        rng = random.Random(f"observation:{seed}")   # not the engine loop's game (its memos would be warm)
        while not g.is_over:
            seat = rng.choice(g.to_act)
            observe(g, seat)
            g.apply(seat, rng.choice(g.legal_actions(seat)))
            decisions += 1
        FINISHED is None or _finished(g)
    return decisions, _clock() - t0, decisions, len(seeds)


def aec(n, mods, seeds, observe=True, encoding=None):
    """The AEC loop: ``last()`` (the observation vector and the mask) + ``step``; with
    ``observe=False`` (:func:`aec_mask_only`) without the vector."""
    from affresco.envs.pettingzoo import env
    e = env(players=n, modules=mods, **_encoding(encoding))
    indices = legal_indices(e)
    decisions, engine_decisions, t0 = 0, 0, _clock()
    for seed in seeds:
        e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last(observe=observe)
            if term or trunc:
                e.step(None)
                continue
            mask = obs["action_mask"] if observe else e.action_mask(agent)
            e.step(rng.choice(indices(agent)) if PICK == "list" else pick(rng, mask))
            decisions += 1
        FINISHED is None or _finished(e.game)
        engine_decisions += e.game.actions_applied
    return decisions, _clock() - t0, engine_decisions, len(seeds)


def aec_mask_only(n, mods, seeds, encoding=None):
    """The AEC loop without the observation vector (``last(observe=False)`` + ``action_mask``):
    what the PettingZoo protocol, the mask and the agent's pick cost by themselves."""
    return aec(n, mods, seeds, observe=False, encoding=encoding)


def _encoding(encoding):
    """The wrappers' ``encoding`` argument (none: their default; a tree before encoding 2 has none)."""
    return {} if encoding is None else {"encoding": encoding}


def parallel(n, mods, seeds, encoding=None):
    from affresco.envs.pettingzoo import parallel_env
    p = parallel_env(players=n, modules=mods, **_encoding(encoding))
    wait = p.WAIT   # an agent not to decide now has WAIT alone (the engine loop's agent picks only for the acting seat)
    indices = legal_indices(p)
    by_list = PICK == "list"
    decisions, engine_decisions, t0 = 0, 0, _clock()
    for seed in seeds:
        obs, _ = p.reset(seed=seed)
        rng = random.Random(seed)
        while p.agents:
            acts = {}
            for a, o in obs.items():    # the agent: WAIT where the mask says so, else a pick (a decision)
                if o["action_mask"][wait]:
                    acts[a] = wait
                else:
                    acts[a] = rng.choice(indices(a)) if by_list else pick(rng, o["action_mask"])
                    decisions += 1
            obs, *_ = p.step(acts)
        FINISHED is None or _finished(p.game)
        engine_decisions += p.game.actions_applied
    return decisions, _clock() - t0, engine_decisions, len(seeds)


def gym(n, mods, seeds, encoding=None):
    """The learner's steps plus the bots' decisions (steps: the learner's steps and the bots'
    decisions)."""
    from affresco.envs.gymnasium import FrescoEnv
    env = FrescoEnv(players=n, opponents="random", modules=mods, **_encoding(encoding))
    indices = legal_indices(env)
    decisions, steps, spent = 0, 0, 0.0
    for seed in seeds:
        t0 = _clock()
        env.reset(seed=seed)
        rng = random.Random(seed)
        mine = 0
        while True:
            _, _, term, _, _ = env.step(rng.choice(indices()) if PICK == "list" else pick(rng, env.action_masks()))
            mine += 1
            if term:
                break
        spent += _clock() - t0
        FINISHED is None or _finished(env.game)
        g = env.game   # decisions: the length of history(), without making it (an older tree: history())
        applied = g.actions_applied if hasattr(g, "actions_applied") else len(g.history())
        decisions += applied
        steps += applied + mine - _learner_decisions(env)
    return steps, spent, decisions, len(seeds)


def _learner_decisions(env) -> int:
    """The learner's decisions in the engine's record of the game just played."""
    seat = env.seat
    return sum(1 for entry in env.game.record()["actions"] if entry[0] == seat) if hasattr(env.game, "record") else 0


def openspiel(n, mods, seeds, tensor_list=False, encoding=None):
    """OpenSpiel's Python observation API (``make_observation(game).set_from(state, player)``,
    the numpy tensor its Python algorithms read); with ``tensor_list`` ``state.observation_tensor``
    instead, which pyspiel answers by making a throw-away new state, writing the tensor twice
    and converting it to a Python list (its own cost, about two engine decisions)."""
    import pyspiel
    from open_spiel.python.observation import make_observation
    import affresco.envs.openspiel  # noqa: F401
    decisions, engine_decisions, spent = 0, 0, 0.0
    for seed in seeds:   # the game's own seed from the loop's: the same game each time it is played
        game = pyspiel.load_game("python_fresco", {"players": n, "modules": ",".join(mods), "rng_seed": seed,
                                                   **_encoding(encoding)})
        observer = make_observation(game)
        t0 = _clock()
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.is_simultaneous_node():
                s.apply_actions([rng.choice(s.legal_actions(p)) for p in range(n)])
                decisions += n
            else:
                p = s.current_player()
                if tensor_list:
                    s.observation_tensor(p)
                else:
                    observer.set_from(s, p)
                s.apply_action(rng.choice(s.legal_actions()))
                decisions += 1
        spent += _clock() - t0
        FINISHED is None or _finished(s.fresco)
        engine_decisions += s.fresco.actions_applied
    return decisions, spent, engine_decisions, len(seeds)


def openspiel_tensor_list(n, mods, seeds, encoding=None):
    return openspiel(n, mods, seeds, tensor_list=True, encoding=encoding)


GAMES: dict = {}   # seed -> (the engine's seed, [(seat, index in its legal list), ...]): engine_on_games' games


def engine_on_games(n, mods, seeds):
    """The engine loop's work on another loop's games (:data:`GAMES`, recorded by another process,
    :func:`record_worker`): ``to_act``, ``legal_actions`` + ``apply`` and the agent's two picks as in
    :func:`engine`, the recorded seat and action played instead of the picks' results (the same
    work, another loop's game).  Exact, on the engine loop's own games (2p base, 2 games after 2): 77.6k
    instructions a decision against the engine loop's 78.3k: a ratio to it errs ~1% against the wrapper."""
    decisions, t0 = 0, _clock()
    for seed in seeds:
        game_seed, choices = GAMES[seed]
        g = affresco.new_game(n, mods, seed=game_seed)
        rng = random.Random(seed)
        for seat, i in choices:          # (a for loop: with next() a step cost 1.1k instructions more, session 22)
            if g.is_over:
                break
            rng.choice(g.to_act)         # the agent's choice of seat (the recorded seat plays)
            legal = g.legal_actions(seat)
            rng.choice(legal)            # its pick (the recorded action plays)
            g.apply(seat, legal[i])
            decisions += 1
    return decisions, _clock() - t0, decisions, len(seeds)


WRAPPERS = {"engine": engine, "engine+view": engine_view, "engine+lean view": engine_lean_view,
            "engine+observation": engine_observation,
            "pettingzoo-aec": aec, "pettingzoo-aec (mask only)": aec_mask_only, "pettingzoo-parallel": parallel, "gymnasium": gym, "openspiel": openspiel,
            "openspiel (tensor list)": openspiel_tensor_list}


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--games", type=int, default=2, help="games per wrapper per block")
    ap.add_argument("--blocks", type=int, default=3, help="blocks; each runs every wrapper once, in turn")
    ap.add_argument("--quick", action="store_true", help="1 game per block, 2 blocks")
    ap.add_argument("--players", type=int, nargs="*", default=[2, 4])
    ap.add_argument("--modules", choices=("base", "all", "both"), default="both")
    ap.add_argument("--only", nargs="*", default=None, help="wrappers to run (engine always runs)")
    ap.add_argument("--encoding", type=int, nargs="*", default=None,
                    help="the wrappers' encodings to run (default: their default; '2 3': each wrapper with both; "
                         "--same-games: default 1 2, --by-kind: the AEC's, default 1)")
    ap.add_argument("--cold", action="store_true", help="warm up with one other game only")
    ap.add_argument("--warm-games", type=int, default=None, metavar="N",
                    help="other games each loop plays first (default: as many as it is measured on; --instructions: "
                         "one of the recorded games); planning situations new to the process cost a wrapper their "
                         "mask (the engine's plan lists are lazy)")
    ap.add_argument("--replay", action="store_true",
                    help="warm up on the measured games themselves (every memo warm, also those kept by position)")
    ap.add_argument("--json", default=None)
    ap.add_argument("--observation-cost", action="store_true",
                    help="instead: the observation vector's own cost in a game loop, measured on the same recorded "
                         "games replayed with and without it (alternating; see observation_cost)")
    ap.add_argument("--by-kind", action="store_true",
                    help="instead: the engine's and the AEC loop's cost per decision by the kind of action decided, on "
                         "the same recorded games (see by_kind)")
    ap.add_argument("--baseline", default=None, metavar="REV",
                    help="run this bench on this checkout and on revision REV's src (or a folder) in alternating "
                         "processes, --rounds times each, and compare each loop's cost ratio (medians)")
    ap.add_argument("--rounds", type=int, default=2, help="with --baseline: runs per tree")
    ap.add_argument("--instructions", action="store_true",
                    help="instead: machine instructions per decision of the engine and of the AEC and Parallel loops "
                         "on the same recorded games, counted by valgrind (see instructions)")
    ap.add_argument("--observation-instructions", action="store_true",
                    help="instead: machine instructions per decision inside game.observation(seat) alone, on recorded "
                         "games, counted by valgrind (see observation_instructions)")
    ap.add_argument("--parts", action="store_true",
                    help="instead: a step of the engine loop and of each wrapper (AEC, Parallel, Gymnasium, OpenSpiel) "
                         "split into the engine's apply and legal list, the look, plan_choices, the mask, the Parallel "
                         "env's joined vectors and lazy views and the rest, "
                         "in machine instructions counted by valgrind, steady state (see parts)")
    ap.add_argument("--parts-worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--same-games", action="store_true",
                    help="instead: the engine and the AEC and Parallel loops with encodings 1 and 2 replaying the same "
                         "recorded games, CPU time per engine decision (see same_games)")
    ap.add_argument("--pick", choices=("list", "mask"), default="list",
                    help="how the wrappers' agents choose: from legal_indices (as the engine loop's from legal_actions; "
                         "default) or from the mask by numpy (the measure before session 11)")
    ap.add_argument("--one-process", action="store_true",
                    help="every loop in this process, the engine loop on its own games (the bench before session 22; "
                         "default: each loop in a process of its own, each ratio to the engine's work on that loop's "
                         "games)")
    ap.add_argument("--worker", action="store_true", help=argparse.SUPPRESS)
    ap.add_argument("--record-worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--record-out", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--loop-worker", default=None, help=argparse.SUPPRESS)
    ap.add_argument("--instruction-worker", default=None, help=argparse.SUPPRESS)
    args = ap.parse_args()
    global PICK
    PICK = args.pick
    if args.baseline:
        compare_with_baseline(args)
        return
    if args.record_worker:
        record_worker(args)
        return
    if args.loop_worker:
        loop_worker(args)
        return
    if args.instruction_worker:
        instruction_worker(args)
        return
    if args.parts_worker:
        parts_worker(args)
        return
    if args.parts:
        parts(args)
        return
    if args.instructions:
        instructions(args)
        return
    if args.observation_instructions:
        observation_instructions(args)
        return
    if args.observation_cost:
        observation_cost(args)
        return
    if args.by_kind:
        by_kind(args)
        return
    if args.same_games:
        same_games(args)
        return
    games, blocks = (1, 2) if args.quick else (args.games, args.blocks)
    loops = _loops(args)
    names = [w for w in loops if w == "engine" or args.only is None or w.split(" v")[0] in args.only]
    mod_sets = MOD_SETS[args.modules]
    load = os.getloadavg()
    from affresco.build import describe
    print(f"affresco {describe()}; machine load (1/5/15 min) at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f} "
          f"on {os.cpu_count()} cores; times are CPU time; " +
          ("every loop in this process, the engine loop on its own games" if args.one_process else
           "every loop in a process of its own, each ratio to the engine's on the same games"), flush=True)
    results = []
    apart = None if args.one_process else _Apart(args, names, games, blocks)
    for n in args.players:
        for mods in mod_sets:
            label = f"{n}p {'all modules' if mods else 'base'}"
            if apart is None:
                totals, same = _measure_one_process(args, loops, names, n, mods, games, blocks), {}
            else:
                totals, same = apart.measure(n, mods)
            own = totals["engine"]
            for w in [w for w in names] + [w for w in totals if w not in names]:
                d, sec, engine_d, played = totals[w]
                e = totals[same.get(w, "engine")]        # the engine on this loop's games (--one-process: its own)
                base, base_decision, base_game = e[1] / e[0], e[1] / e[2], e[1] / e[3]
                per, per_decision, per_game = sec / d, sec / engine_d, sec / played
                results.append({"setup": label, "wrapper": w, "decisions": d, "cpu_seconds": round(sec, 3),
                                "us_per_decision": round(per * 1e6, 1), "cost_vs_engine": round(per / base, 2),
                                "cost_vs_engine_own_games": round(per / (own[1] / own[0]), 2),
                                "engine_decisions": engine_d, "games": played,
                                "us_per_engine_decision": round(per_decision * 1e6, 1),
                                "cost_per_engine_decision_vs_engine": round(per_decision / base_decision, 2),
                                "ms_per_game": round(per_game * 1e3, 1), "cost_per_game_vs_engine": round(per_game / base_game, 2)})
                print(f"{label:<16} {w:<28} {per * 1e6:8.1f} us/step {per / base:5.2f}x | {d / engine_d:4.2f} steps per "
                      f"decision: {per_decision * 1e6:8.1f} us/decision {per_decision / base_decision:5.2f}x | "
                      f"{per_game * 1e3:7.1f} ms/game {per_game / base_game:5.2f}x the engine's" +
                      (f" | {per / (own[1] / own[0]):5.2f}x the engine loop's own games" if w in same else ""),
                      flush=True)
    if apart is not None:
        apart.close()
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")
    if args.json:
        Path(args.json).write_text(json.dumps({"load_end": load, "results": results}, indent=1))
    if args.worker:
        print(json.dumps({"load_end": load, "results": results}))


def _loops(args) -> dict:
    """The time bench's loops by name (each wrapper once per ``--encoding``)."""
    loops = {}
    for w, fn in WRAPPERS.items():
        if (w.startswith("engine") and w != "engine+observation") or not args.encoding:
            loops[w] = fn
        else:
            for v in args.encoding:
                loops[f"{w} v{v}" if len(args.encoding) > 1 else w] = functools.partial(fn, encoding=v)
    return loops


def _warm_seeds(args, games, blocks) -> range:
    """The games each loop plays before the measured ones (module doc: ``--warm-games``, ``--replay``, ``--cold``)."""
    return (range(blocks * games) if args.replay else range(100_000, 100_001) if args.cold
            else range(100_000, 100_000 + (blocks * games if args.warm_games is None else args.warm_games)))


def _measure_one_process(args, loops, names, n, mods, games, blocks) -> dict:
    """``--one-process`` (the bench before session 22): every loop in this process, each on its own
    games (the engine loop's are not the wrappers'); the loops' totals."""
    totals = {w: [0, 0.0, 0, 0] for w in names}
    warm = _warm_seeds(args, games, blocks)
    for w in names:   # warm-up: imports, tables, planning situations (module doc)
        loops[w](n, mods, warm)
    for b in range(blocks):   # blocks alternate the wrappers: a change in load hits them all
        seeds = range(b * games, (b + 1) * games)
        for w in names[b % len(names):] + names[:b % len(names)]:   # each block starts elsewhere
            gc.collect()   # no loop pays for another's garbage
            for i, v in enumerate(loops[w](n, mods, seeds)):
                totals[w][i] += v
    return totals


class _Apart:
    """The default since session 22: every loop in a worker process of its own (:func:`loop_worker`, kept
    for every set-up of the run), the blocks alternating through them as in one process (one worker runs at
    a time); and beside each loop that plays other games than the engine loop, the engine's work on that
    loop's games (:func:`engine_on_games`), recorded first by another process (:func:`record_worker`).  So
    a loop's ratio compares the same games (the same seeds, agents' picks and mix of decisions) and no loop
    meets a game another loop has warmed the engine's memos with (the memos that remember positions by
    their contents: a game played again is cheaper)."""

    def __init__(self, args, names, games, blocks):
        import subprocess
        import tempfile
        self.names, self.games, self.blocks = names, games, blocks
        self.common = ["--games", str(games), "--blocks", str(blocks), "--pick", args.pick] + \
            (["--encoding", *map(str, args.encoding)] if args.encoding else []) + \
            (["--warm-games", str(args.warm_games)] if args.warm_games is not None else []) + \
            (["--replay"] if args.replay else []) + (["--cold"] if args.cold else [])
        self.tmp = tempfile.TemporaryDirectory()
        self.recorded = os.path.join(self.tmp.name, "games.json")
        # every worker with the same hash seed: set iteration orders (and so the memos' layouts) alike
        self.env = dict(os.environ, PYTHONHASHSEED=os.environ.get("PYTHONHASHSEED", "0"))
        subprocess.run([sys.executable, __file__, "--record-worker", json.dumps(names), "--record-out", self.recorded,
                        "--players", *map(str, args.players), "--modules", args.modules, *self.common], check=True,
                       env=self.env)
        self.workers: dict = {}

    def worker(self, w):
        import subprocess
        if w not in self.workers:
            self.workers[w] = subprocess.Popen([sys.executable, __file__, "--loop-worker", w, "--record-out",
                                                self.recorded, *self.common], stdin=subprocess.PIPE,
                                               stdout=subprocess.PIPE, text=True, env=self.env)
        return self.workers[w]

    def ask(self, w, command):
        worker = self.worker(w)
        worker.stdin.write(command + "\n")
        worker.stdin.flush()
        for line in worker.stdout:
            if line.startswith("@@ "):
                return json.loads(line[3:])
        raise SystemExit(f"the worker of {w} ended (exit {worker.wait()}) on {command!r}")

    def measure(self, n, mods) -> tuple[dict, dict]:
        """One set-up: the totals of every loop and, per loop, the name of its engine loop on the same games."""
        key = f"{n} {'all' if mods else 'base'}"
        games_of = json.loads(Path(self.recorded).read_text())[key]
        groups: dict[str, list[str]] = {}
        for w in self.names:              # loops playing the same games share their engine loop
            groups.setdefault(json.dumps(games_of[w]), []).append(w)
        same, replays = {}, {}            # replays: a row -> (its worker, the loop whose games it replays)
        for group in groups.values():
            if "engine" in group:
                same.update((w, "engine") for w in group if w != "engine")
            else:                         # the k-th replay worker replays this set-up's k-th other games
                replay = f"engine on {group[0]}'s games"
                replays[replay] = (f"engine on games {len(replays)}", group[0])
                same.update((w, replay) for w in group)
        order = [*self.names, *replays]
        worker = {w: replays[w][0] if w in replays else w for w in order}
        command = {w: f"{key} {replays[w][1]}" if w in replays else key for w in order}
        for w in order:                   # warm-up, one worker at a time
            self.ask(worker[w], f"warm {command[w]}")
        totals = {w: [0, 0.0, 0, 0] for w in order}
        for b in range(self.blocks):
            for w in order[b % len(order):] + order[:b % len(order)]:
                for i, v in enumerate(self.ask(worker[w], f"run {b} {command[w]}")):
                    totals[w][i] += v
        return totals, same

    def close(self) -> None:
        for worker in self.workers.values():
            worker.stdin.close()          # the worker's end
            worker.wait()
        self.tmp.cleanup()


def record_worker(args) -> None:
    """``--record-worker NAMES``: the games the time bench's loops (a JSON list of names) play on the measured
    seeds of every set-up, written to ``--record-out`` as {"N base|all": {name: {seed: [the engine's seed,
    [[seat, index of the action in the seat's legal list], ...]]}}} (played here, in a process of its own: a
    game played again in the measuring process would find the engine's memos warm)."""
    global FINISHED
    loops = _loops(args)
    measured = range(args.blocks * args.games)
    out: dict = {}
    for n in args.players:
        for mods in MOD_SETS[args.modules]:
            for w in json.loads(args.record_worker):
                FINISHED = []
                loops[w](n, mods, measured)
                records, FINISHED = FINISHED, None
                out.setdefault(f"{n} {'all' if mods else 'base'}", {})[w] = {
                    seed: _choices(n, mods, record) for seed, record in zip(measured, records)}
    Path(args.record_out).write_text(json.dumps(out))


def _choices(n, mods, record) -> list:
    """A game's record as [the engine's seed, [[seat, index in its legal list], ...]], replayed by
    :func:`engine_on_games`' own calls (checked: the same set-up and actions)."""
    seed = record["setup"]["seed"]
    g = affresco.new_game(n, mods, seed=seed)
    assert g.record()["setup"] == record["setup"], (g.record()["setup"], record["setup"])
    choices = []
    for seat, note in record["actions"]:
        legal = g.legal_actions(seat)
        i = [str(a) for a in legal].index(note)
        choices.append([seat, i])
        g.apply(seat, legal[i])
    assert g.is_over and g.record()["actions"] == record["actions"]
    return [seed, choices]


def loop_worker(args) -> None:
    """``--loop-worker NAME``: one loop of the time bench in a process of its own, told by the bench on its
    standard input what to play until it closes it ("warm N MODS": a set-up's warm-up games, "run B N MODS":
    its block B's games, answering the loop's totals); ``engine on games K`` replays another loop's recorded
    games (``--record-out``; its commands end with that loop's name)."""
    global GAMES
    warm = _warm_seeds(args, args.games, args.blocks)
    loops = _loops(args)
    for line in sys.stdin:       # until the bench closes it
        command = line.strip().split(maxsplit=4 if line.startswith("run") else 3)
        b, command = (int(command[1]), command[2:]) if command[0] == "run" else (None, command[1:])
        n, mods = int(command[0]), MOD_SETS[command[1]][0]
        if args.loop_worker in loops:
            loop = warm_loop = loops[args.loop_worker]
        else:                    # another loop's games (warming up on other games: the engine loop's own)
            GAMES = {int(seed): (game[0], [tuple(c) for c in game[1]]) for seed, game in
                     json.loads(Path(args.record_out).read_text())[" ".join(command[:2])][command[2]].items()}
            loop = engine_on_games
            warm_loop = engine_on_games if all(seed in GAMES for seed in warm) else engine
        if b is None:
            warm_loop(n, mods, warm)
            answer = None
        else:
            gc.collect()   # no block pays for the warm-up's or the last block's garbage
            answer = loop(n, mods, range(b * args.games, (b + 1) * args.games))
        print("@@ " + json.dumps(answer), flush=True)


def observation_cost(args) -> None:
    """``--observation-cost``: random games are recorded once (:func:`_recorded`),
    then replayed live (``legal_actions`` + ``apply``) with and without ``game.observation(seat)``
    of the deciding seat before each decision, the two loops alternating ``--blocks`` times:
    the games are the same, so the difference of the medians is the vector's own cost in a
    game loop, without the spread of different games (several times its cost on one position)."""
    import statistics
    games = 1 if args.quick else args.games * args.blocks
    mod_sets = MOD_SETS[args.modules]
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; CPU time, "
          f"{games} recorded games per set-up, {args.blocks} alternations", flush=True)
    for n in args.players:
        for mods in mod_sets:
            record = _recorded(n, mods, games)
            decisions = sum(len(c) for _, c in record)

            def replay(observe: bool) -> float:
                t0 = _clock()
                _replay_engine(n, mods, record, observe)
                return (_clock() - t0) / decisions * 1e6

            replay(True), replay(False)      # warm: imports, layouts, memos of these games
            without, with_ = [], []
            for b in range(args.blocks):
                for observe in ((False, True) if b % 2 else (True, False)):
                    gc.collect()
                    (with_ if observe else without).append(replay(observe))
            e, o = statistics.median(without), statistics.median(with_)
            print(f"{n}p {'all modules' if mods else 'base':<12} engine {e:6.1f} us/decision; observation in the loop "
                  f"{o - e:6.1f} us ({(o - e) / e:.2f}x an engine decision); runs without {[round(x, 1) for x in without]}"
                  f", with {[round(x, 1) for x in with_]}", flush=True)
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def by_kind(args) -> None:
    """``--by-kind``: random games are recorded once (:func:`_recorded`), then replayed
    ``--blocks`` times through the engine (``to_act`` + ``legal_actions`` + ``apply``) and through
    the AEC env with encoding 1 (or ``--encoding K``'s first; a plan's steps timed together as one
    decision) (``last()`` + the agent reading its legal choices, as ``--pick`` + ``step``), each decision timed by
    itself (wall clock, ``perf_counter_ns``; medians per kind of action decided): a wrapper's
    cost per decision hardly depends on the kind, an engine decision's does, so the cheap kinds
    (a get-up time, a pass) have the highest ratios."""
    import statistics
    from affresco.envs.core import Config, tables
    from affresco.envs.pettingzoo import env
    clock = time.perf_counter_ns
    games = 1 if args.quick else args.games * args.blocks
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; wall clock per decision, "
          f"{games} recorded games, {args.blocks} replays", flush=True)
    for n in args.players:
        for mods in MOD_SETS[args.modules]:
            encoding = (args.encoding or [1])[0]
            codec, _ = tables(Config.of(n, mods, encoding=1))
            record = _recorded(n, mods, games)
            e = env(players=n, modules=mods, encoding=encoding)
            read = _reader(e)
            eng: dict[str, list] = {}
            aec: dict[str, list] = {}
            for rep in range(args.blocks + 1):        # the first replay warms up (not kept)
                keep_e = eng if rep else {}
                keep_a = aec if rep else {}
                for seed, choices in record:
                    g = affresco.new_game(n, mods, seed=seed)
                    for seat, i, index, _ in choices:
                        t0 = clock()
                        g.to_act
                        g.apply(seat, g.legal_actions(seat)[i])
                        keep_e.setdefault(codec.actions[index].kind, []).append(clock() - t0)
                    e.reset(seed=seed)
                    it = iter(choices)
                    steps: list = []             # the decision under way's steps (encoding 2, 3: a plan's choices)
                    spent = 0
                    for agent in e.agent_iter():
                        t0 = clock()
                        obs, _, term, trunc, _ = e.last()
                        if term or trunc:
                            e.step(None)
                            continue
                        read(agent, obs["action_mask"])       # the agent reads its legal choices
                        if not steps:
                            _, _, index, steps = next(it)
                            steps = [index] if encoding == 1 else list(steps)
                        e.step(steps.pop(0))
                        spent += clock() - t0
                        if not steps:            # the decision made: its steps' time together
                            keep_a.setdefault(codec.actions[index].kind, []).append(spent)
                            spent = 0
            total = sum(map(len, eng.values()))
            print(f"{n}p {'all modules' if mods else 'base'}: kind, share of decisions, engine us, AEC us, ratio, "
                  f"(AEC - engine) x share", flush=True)
            for kind in sorted(eng, key=lambda k: -len(eng[k])):
                te, ta = statistics.median(eng[kind]) / 1000, statistics.median(aec[kind]) / 1000
                share = len(eng[kind]) / total
                print(f"  {kind:<12} {share:5.2f} {te:8.2f} {ta:8.2f} {ta / te:6.2f}x {(ta - te) * share:6.2f}", flush=True)
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def same_games(args) -> None:
    """``--same-games``: random games (uniform among the engine's legal actions) are recorded
    once (:func:`_recorded`), then replayed by the engine and by the AEC (with and without the
    vector) and Parallel loops with encoding 1 (a plan one step) and 2 (a plan as its choices),
    the loops alternating ``--blocks`` times (each block starting elsewhere): the games are the
    same for every loop, so the medians per engine decision (= per game) compare the encodings
    without the spread of different games (a random agent choosing a step at a time plays
    other games than one choosing among whole plans)."""
    import statistics
    games = 1 if args.quick else args.games
    encodings = args.encoding or [1, 2]
    loops = ("engine+observation", "pettingzoo-aec (mask only)", "pettingzoo-aec", "pettingzoo-parallel")
    names = ["engine"] + [f"{loop} v{v}" for loop in loops for v in encodings]
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; CPU time per engine "
          f"decision, {games} recorded games per set-up, {args.blocks} alternations", flush=True)
    for n in args.players:
        for mods in MOD_SETS[args.modules]:
            record = _recorded(n, mods, games)
            decisions = sum(len(c) for _, c in record)
            for name in names:                  # warm: imports, tables, planning situations of these games
                _replay(name)(n, mods, record)
            runs: dict[str, list] = {name: [] for name in names}
            for b in range(args.blocks):
                for name in names[b % len(names):] + names[:b % len(names)]:
                    gc.collect()
                    t0 = _clock()
                    _replay(name)(n, mods, record)
                    runs[name].append((_clock() - t0) / decisions * 1e6)
            e = statistics.median(runs["engine"])
            label = f"{n}p {'all modules' if mods else 'base'}"
            print(f"{label:<16} engine {e:.1f} us/decision; " + "; ".join(
                f"{name} {statistics.median(runs[name]) / e:.2f}x" for name in names[1:]), flush=True)
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at end: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}")


def _recorded(n, mods, games, first=0):
    """``games`` seeded random games (seeds ``first`` on), each decision as (seat, index in the legal list, index in
    the encoding-1 action space, indices of its steps in the encoding-2 space: a plan's choices,
    any other action itself), the first seat to act deciding (the order the AEC env selects)."""
    from affresco.envs.core import Config, SteppedGame, tables
    codec1, _ = tables(Config.of(n, mods, encoding=1))
    config2 = Config.of(n, mods, encoding=2)
    codec2, _ = tables(config2)
    out = []
    for seed in range(first, first + games):
        g = affresco.new_game(n, mods, seed=seed)
        # as the wrappers play it: a game without module plan words plays whole plans (as encoding 1)
        stepped = config2.stepped(g)
        as_steps = stepped.as_steps if isinstance(stepped, SteppedGame) else (lambda a: (a,))
        rng = random.Random(seed)
        choices = []
        while not g.is_over:
            seat = min(g.to_act)
            legal = g.legal_actions(seat)
            i = rng.randrange(len(legal))
            steps = [codec2.index[a] for a in as_steps(legal[i])]
            choices.append((seat, i, codec1.index[legal[i]], steps))
            g.apply(seat, legal[i])
        out.append((seed, choices))
    return out


def _replay_engine(n, mods, record, observe=False, encoding=None):
    for seed, choices in record:
        g = affresco.new_game(n, mods, seed=seed)
        for seat, i, _, _ in choices:
            g.to_act
            if observe:
                g.observation(seat) if encoding is None else g.observation(seat, encoding)
            g.apply(seat, g.legal_actions(seat)[i])


def _replay_aec(n, mods, record, observe=True, encoding=1):
    """The recorded games through the AEC env, each step the recorded index of ``encoding``."""
    from affresco.envs.pettingzoo import env
    e = env(players=n, modules=mods, encoding=encoding)
    read = _reader(e)
    for seed, choices in record:
        e.reset(seed=seed)
        it = iter([c[2]] if encoding == 1 else c[3] for c in choices)
        steps = iter([index for indices in it for index in indices])
        for agent in e.agent_iter():
            obs, _, term, trunc, _ = e.last(observe=observe)
            if term or trunc:
                e.step(None)
                continue
            read(agent, obs["action_mask"] if observe else e.action_mask(agent))   # its legal choices
            e.step(next(steps))


def _replay_parallel(n, mods, record, encoding=1):
    """The recorded games through the Parallel env: at a planning step every planning seat's
    plan (encoding 2: its k-th choice at the k-th step)."""
    from affresco.envs.pettingzoo import parallel_env
    p = parallel_env(players=n, modules=mods, encoding=encoding)
    wait = p.WAIT
    read = _reader(p)
    for seed, choices in record:
        obs, _ = p.reset(seed=seed)
        it = iter(choices)
        pending: dict[str, list] = {}       # an agent's steps still to come (a plan's choices)
        while p.agents:
            for _ in p.game.to_act if not pending else ():
                seat, _, index, steps = next(it)
                pending[f"player_{seat}"] = [index] if encoding == 1 else list(steps)
            acts = {}
            for a, o in obs.items():
                if o["action_mask"][wait]:
                    acts[a] = wait
                else:
                    read(a, o["action_mask"])
                    acts[a] = pending[a].pop(0)
                    if not pending[a]:
                        del pending[a]
            obs, *_ = p.step(acts)


def _reader(env):
    """What a replaying agent reads of its legal choices, as the loops' agent (``--pick``):
    ``reader(agent, mask)``."""
    if PICK == "mask":
        return lambda agent, mask: mask.view(np.bool_).nonzero()
    indices = legal_indices(env)
    return lambda agent, mask: indices(agent)


_REPLAYS = {"engine": _replay_engine, "engine+observation": functools.partial(_replay_engine, observe=True),
            "pettingzoo-aec (mask only)": functools.partial(_replay_aec, observe=False),
            "pettingzoo-aec": _replay_aec, "pettingzoo-parallel": _replay_parallel,
            "pettingzoo-aec (mask only) v2": functools.partial(_replay_aec, observe=False, encoding=2),
            "pettingzoo-aec v2": functools.partial(_replay_aec, encoding=2),
            "pettingzoo-parallel v2": functools.partial(_replay_parallel, encoding=2)}


def _replay(name):
    """The replay loop ``name`` of :data:`_REPLAYS`, or ``LOOP vK``: that loop with encoding K
    (the engine's vector in that encoding; encoding 3's steps are encoding 2's)."""
    if name in _REPLAYS:
        return _REPLAYS[name]
    loop, v = name.rsplit(" v", 1)
    encoding = int(v)
    if loop == "engine+observation":
        return functools.partial(_replay_engine, observe=True, encoding=encoding)
    return functools.partial(_REPLAYS[loop], encoding=encoding)


def _replay_observation_only(n, mods, record, encoding=None):
    """The recorded games replayed live, ``game.observation(seat)`` of the deciding seat called
    through ``operator.call``: a C function nothing else of the loop calls, so callgrind can
    count the instructions inside the observation alone (``--observation-instructions``)."""
    from operator import call
    for seed, choices in record:
        g = affresco.new_game(n, mods, seed=seed)
        for seat, i, _, _ in choices:
            call(g.observation, seat) if encoding is None else call(g.observation, seat, encoding)
            g.apply(seat, g.legal_actions(seat)[i])


def instruction_worker(args) -> None:
    """One loop of ``--instructions`` (run under valgrind): the first recorded game to warm up
    (``--warm-games N``: N other recorded games instead, seeds 100,000 on, as the time bench warms
    up: a long run's steady state, its planning situations and tables known), then, with
    ``AFFRESCO_MEASURE=1``, the others (the garbage collector off after the warm-up in both runs,
    so that neither pays a last collection at exit that the other does not); for
    ``--observation-instructions`` (loop ``observation``) the others with the observation called
    through ``operator.call``.  A loop with no replay (gymnasium, openspiel:
    :data:`FRESH_COUNTED`) plays its own random games instead: seed 100,000 (or N from it) to warm
    up, then seeds 0 .. ``--games`` - 2, counted per step."""
    n, mods = args.players[0], MOD_SETS[args.modules][0]
    if args.instruction_worker in FRESH_COUNTED:
        fresh = WRAPPERS[args.instruction_worker]
        fresh(n, mods, range(100_000, 100_000 + (args.warm_games or 1)))
        steps = 1
        gc.disable()   # in both runs: a process that exits with the collector on pays a last collection
        if os.environ.get("AFFRESCO_MEASURE") == "1":
            steps = fresh(n, mods, range(args.games - 1))[0]
        print(json.dumps({"decisions": steps}))
        return
    record = _recorded(n, mods, args.games)
    warm = _recorded(n, mods, args.warm_games, 100_000) if args.warm_games else record[:1]
    if args.instruction_worker == "observation":
        encoding = args.encoding[0] if args.encoding else None
        _replay_engine(n, mods, warm, observe=True, encoding=encoding)
        gc.disable()
        _replay_observation_only(n, mods, record[1:], encoding)
        print(json.dumps({"decisions": sum(len(c) for _, c in record[1:])}))
        return
    loop = _replay(args.instruction_worker)
    loop(n, mods, warm)
    gc.disable()       # in both runs (above)
    if os.environ.get("AFFRESCO_MEASURE") == "1":
        loop(n, mods, record[1:])
    print(json.dumps({"decisions": sum(len(c) for _, c in record[1:])}))


# loops ``--instructions`` counts on their own random games (no replay of recorded ones): their
# counts per step compare two trees (the same games), not a loop with the engine's
FRESH_COUNTED = ("gymnasium", "openspiel")


def instructions(args) -> None:
    """``--instructions``: machine instructions per decision, counted by valgrind (cachegrind,
    no cache simulation), of the engine, the engine + observation vector, and the AEC (mask
    only, full) and Parallel loops, all on the same recorded games (``--games``, the first one
    to warm up): each loop runs twice, with and without the measured games, and the difference
    is divided by their decisions.  Deterministic (hash seed fixed, one BLAS thread), so a
    change of a few percent shows; it is a proxy, not the time (the vector's Python runs more
    instructions per microsecond than the engine's).  The loops marked ``v2`` replay the same
    games with encoding 2 (a plan as its choices): per engine decision, so per game too.  With
    modules compare the ``v2`` loops: the unmarked ones replay encoding 1, whose action space holds
    every whole plan, so a planning step's mask spans it (~2.4M instructions a decision with all
    eight, not what the default encoding does).
    ``--only gymnasium openspiel`` adds those loops on their own seeded games (per step: compare
    trees with it, the same games on both); ``--only "pettingzoo-aec v3"`` (any replay loop with
    `` vK``) replays the loop with encoding K (3: the wrappers' default)."""
    import re
    import subprocess
    load = os.getloadavg()
    print(f"machine load (1/5/15 min) at start: {load[0]:.2f} {load[1]:.2f} {load[2]:.2f}; instructions counted by "
          f"valgrind on {args.games - 1} recorded games after " +
          (f"{args.warm_games} others" if args.warm_games else "one") + " to warm up", flush=True)
    env = _valgrind_env()

    def count(name, n, modules, measure):
        cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null", sys.executable,
               __file__, "--instruction-worker", name, "--players", str(n), "--modules", modules,
               "--games", str(args.games), "--pick", args.pick] + \
            (["--warm-games", str(args.warm_games)] if args.warm_games else [])
        done = subprocess.run(cmd, env=dict(env, AFFRESCO_MEASURE="1" if measure else "0"), capture_output=True,
                              text=True, check=True)
        refs = re.search(r"I\s+refs:\s+([\d,]+)", done.stderr)
        assert refs is not None, done.stderr[-2000:]
        return int(refs.group(1).replace(",", "")), json.loads(done.stdout.strip().splitlines()[-1])["decisions"]

    for n in args.players:
        for modules in ("base", "all") if args.modules == "both" else (args.modules,):
            per = {}
            names = [w for w in _REPLAYS if w == "engine" or args.only is None or w in args.only]
            names += [w for w in args.only or () if w not in _REPLAYS and w not in FRESH_COUNTED]   # "LOOP vK"
            for name in names + [w for w in FRESH_COUNTED if args.only is not None and w in args.only]:
                warm, _ = count(name, n, modules, False)
                total, decisions = count(name, n, modules, True)
                per[name] = (total - warm) / decisions
            e = per["engine"]
            print(f"{n}p {modules:<5} " + "; ".join(f"{name} {v / 1000:,.1f}k" + (" per step" if name in FRESH_COUNTED
                                                                                    else f" ({v / e:.2f}x)")
                                                    for name, v in per.items()), flush=True)


def _valgrind_env() -> dict:
    """The environment of the valgrind workers: hash seed fixed, one BLAS thread, this
    checkout's (or PYTHONPATH's) affresco first."""
    env = dict(os.environ, PYTHONHASHSEED="0", OPENBLAS_NUM_THREADS="1", OMP_NUM_THREADS="1")
    env["PYTHONPATH"] = os.pathsep.join([str(Path(affresco.__file__).resolve().parent.parent)]
                                        + [p for p in env.get("PYTHONPATH", "").split(os.pathsep) if p])
    return env


def observation_instructions(args) -> None:
    """``--observation-instructions``: machine instructions per decision inside
    ``game.observation(seat)`` alone (the deciding seat's, in ``--encoding``'s first or the
    engine's default), counted by valgrind (callgrind collecting only inside ``operator.call``,
    through which the measured games call it), on the same recorded games (``--games``, the
    first one to warm up).  Exact: the same code and games give the same count to the
    instruction, so an A/B of two trees (``PYTHONPATH=OTHER/src python bench/bench_envs.py
    --observation-instructions ...``) shows a change of a fraction of a percent."""
    import re
    import subprocess
    env = _valgrind_env()
    print(f"instructions inside game.observation(seat), counted by valgrind on {args.games - 1} recorded games after "
          f"one to warm up", flush=True)
    for n in args.players:
        for modules in ("base", "all") if args.modules == "both" else (args.modules,):
            cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=*operator_call*",
                   "--callgrind-out-file=/dev/null", sys.executable, __file__, "--instruction-worker", "observation",
                   "--players", str(n), "--modules", modules, "--games", str(args.games)] + \
                (["--encoding", str(args.encoding[0])] if args.encoding else [])
            done = subprocess.run(cmd, env=env, capture_output=True, text=True, check=True)
            refs = re.search(r"Collected\s*:\s*(\d+)", done.stderr)
            assert refs is not None, done.stderr[-2000:]
            decisions = json.loads(done.stdout.strip().splitlines()[-1])["decisions"]
            print(f"{n}p {modules:<5} {int(refs.group(1)) / decisions:,.0f} instructions per decision "
                  f"({decisions} decisions)", flush=True)


# a step's parts (--parts): the public method each is, and the C function of CPython's that calls it in the
# worker (one the engine and the wrappers never call, so that callgrind's inclusive count of it is the part's)
PARTS = (("apply", "Game", "apply", "sys_call_tracing"), ("legal", "Game", "legal_actions", "functools_reduce"),
         ("look", "Game", "observation", "context_run"), ("plan_choices", "Game", "plan_choices", "calliter_iternext"),
         ("mask", "ActionCodec", "legal_entry", "keyobject_richcompare"),
         ("joined", "Game", "observations_joined", "starmap_next"), ("lazy view", "LazyView", "__init__", "takewhile_next"))
# parts that hold others (the Parallel env's step and its observations): shown, not subtracted from the rest
NESTED_PARTS = (("step", "FrescoParallel", "step", "dropwhile_next"),
                ("observations", "FrescoParallel", "_observations", "filterfalse_next"))
PART_LOOPS = {"engine": engine, "pettingzoo-aec": aec, "pettingzoo-parallel": parallel, "gymnasium": gym,
              "openspiel": openspiel}


def parts_worker(args) -> None:
    """One row of ``--parts`` (run under callgrind, collecting inside ``operator.call``): ``--warm-games``
    games of the loop to warm up, then ``--games`` others measured; with ``AFFRESCO_PARTS=1`` each part's
    method called through its own C function of :data:`PARTS` and :data:`NESTED_PARTS`
    (``sys.call_tracing``, ``functools.reduce``, ``Context.run``, ``iter(callable, sentinel)``,
    ``cmp_to_key``'s compare, ``itertools.starmap``, ``takewhile``, ``dropwhile``, ``filterfalse``)."""
    import contextvars
    import itertools
    from operator import call
    from affresco.envs.core import ActionCodec, LazyView
    from affresco.envs.pettingzoo import FrescoParallel
    global GAMES
    n, mods = args.players[0], MOD_SETS[args.modules][0]
    if args.parts_worker in PART_LOOPS:
        loop = warm_loop = PART_LOOPS[args.parts_worker]
    else:                         # "engine on LOOP's games": warm up on the engine loop's own
        GAMES = {int(seed): (game[0], [tuple(c) for c in game[1]]) for seed, game in
                 json.loads(Path(args.record_out).read_text())[args.parts_worker].items()}
        loop, warm_loop = engine_on_games, engine
    warm_loop(n, mods, range(100_000, 100_000 + (args.warm_games or 1)))
    split = os.environ.get("AFFRESCO_PARTS")
    if split in ("1", "nested"):
        context, done = contextvars.copy_context(), object()

        def through(how, f):
            if how == "sys_call_tracing":
                return lambda *a, **k: sys.call_tracing(f, a) if not k else f(*a, **k)
            if how == "functools_reduce":
                return lambda *a, **k: functools.reduce(lambda _, __: f(*a, **k), (0, 0))
            if how == "context_run":
                return lambda *a, **k: context.run(f, *a, **k)
            if how == "calliter_iternext":
                return lambda *a, **k: next(iter(lambda: f(*a, **k), done))
            if how == "starmap_next":
                return lambda *a, **k: next(itertools.starmap(f, (a,))) if not k else f(*a, **k)
            if how in ("takewhile_next", "dropwhile_next", "filterfalse_next"):
                run = {"takewhile_next": lambda p, it: next(itertools.takewhile(p, it)),
                       "dropwhile_next": lambda p, it: next(itertools.dropwhile(lambda x: not p(x), it)),
                       "filterfalse_next": lambda p, it: next(itertools.filterfalse(lambda x: not p(x), it))}[how]

                def called(*a, **k):     # the predicate calls f once (its answer kept) and says yes
                    out = []
                    run(lambda _: out.append(f(*a, **k)) or True, (0,))
                    return out[0]
                return called

            def compared(*a, **k):        # keyobject_richcompare
                out = []
                key = functools.cmp_to_key(lambda x, y: out.append(f(*a, **k)) or 0)
                key(0) < key(1)
                return out[0]
            return compared
        owners = {"Game": affresco.Game, "ActionCodec": ActionCodec, "LazyView": LazyView,
                  "FrescoParallel": FrescoParallel}
        for _, cls, name, how in PARTS if split == "1" else NESTED_PARTS:
            setattr(owners[cls], name, through(how, getattr(owners[cls], name)))
    gc.disable()
    steps, _, decisions, _ = call(loop, n, mods, range(args.games))
    print(json.dumps({"steps": steps, "decisions": decisions}))


def parts(args) -> None:
    """``--parts``: a step of each loop (``--only``: engine, pettingzoo-aec, pettingzoo-parallel, gymnasium,
    openspiel; default all; the wrappers in their default encoding) in machine instructions, split into its
    parts (:data:`PARTS`: the engine's ``Game.apply`` and ``Game.legal_actions``, the look ``Game.observation``,
    ``Game.plan_choices``, the mask ``ActionCodec.legal_entry``, the Parallel env's joined vectors
    ``Game.observations_joined`` and its infos' ``LazyView``) and the rest (the wrapper's own Python, the
    agent's pick, the loop); the Parallel env's ``step`` and ``_observations`` (:data:`NESTED_PARTS`, which
    hold some of the parts) are counted in a third run of their own: each loop counted twice by callgrind on the same games after
    ``--warm-games`` others (default 9: a long run's steady state), once as it is (its total) and once
    with each part's method called through a C function of its own, whose inclusive count is the part's
    (each part's count includes that call, ~2-3k instructions).  Per step; the engine loop's step is its
    decision; each wrapper's games are recorded first (by a process of their own) and the engine's work on
    them counted too (``engine on LOOP's games``, :func:`engine_on_games`): a wrapper's ratio is to the
    engine's on the same games, and to the engine loop's own games beside it (the measure until session 21)."""
    import re
    import subprocess
    import tempfile
    env = _valgrind_env()
    warm = args.warm_games if args.warm_games is not None else 9
    names = [w for w in PART_LOOPS if args.only is None or w == "engine" or w in args.only]
    nested = {part for part, *_ in NESTED_PARTS}
    print(f"instructions per step, callgrind, {args.games} games after {warm} others to warm up; "
          "machine load does not change them", flush=True)

    def count(name, n, modules, split, recorded=None):
        """(instructions, steps, {part: instructions}); ``split``: "1" the parts, "nested" the nested ones."""
        with tempfile.TemporaryDirectory() as tmp:
            out = os.path.join(tmp, "cg.out")
            cmd = ["valgrind", "--tool=callgrind", "--collect-atstart=no", "--toggle-collect=*operator_call*",
                   f"--callgrind-out-file={out}", sys.executable, __file__, "--parts-worker", name, "--players",
                   str(n), "--modules", modules, "--games", str(args.games), "--warm-games", str(warm)] + \
                (["--record-out", recorded] if recorded else [])
            done = subprocess.run(cmd, env=dict(env, AFFRESCO_PARTS=split or "0"), capture_output=True,
                                  text=True, check=True)
            total = int(re.search(r"Collected\s*:\s*(\d+)", done.stderr).group(1))
            steps = json.loads(done.stdout.strip().splitlines()[-1])["steps"]
            found = {}
            if split:
                text = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out],
                                      capture_output=True, text=True, check=True).stdout
                for part, _, _, how in PARTS if split == "1" else NESTED_PARTS:
                    hits = [int(m.group(1).replace(",", "")) for m in
                            re.finditer(rf"^\s*([\d,]+) .*:{how} \[", text, re.M)]
                    found[part] = max(hits, default=0)
            return total, steps, found

    for n in args.players:
        for modules in ("base", "all") if args.modules == "both" else (args.modules,):
            with tempfile.TemporaryDirectory() as tmp:   # each wrapper's games, recorded by a process of their own
                recorded = os.path.join(tmp, "games.json")
                subprocess.run([sys.executable, __file__, "--record-worker", json.dumps(names), "--record-out", recorded,
                                "--players", str(n), "--modules", modules, "--games", str(args.games), "--blocks", "1",
                                "--pick", args.pick], env=env, check=True)
                games_of = json.loads(Path(recorded).read_text())
                Path(recorded).write_text(json.dumps({f"engine on {w}'s games": games_of[w] for w in names}))
                same = {w: "engine" if games_of[w] == games_of["engine"] else   # loops playing the same games share
                        next(f"engine on {v}'s games" for v in names if games_of[v] == games_of[w]) for w in names}
                replays = [r for r in dict.fromkeys(same.values()) if r != "engine"]
                per_step = {}
                for name in ["engine", *replays, *names[1:]]:   # the engine on each loop's games before the loop
                    total, steps, _ = count(name, n, modules, None, recorded)
                    _, _, found = count(name, n, modules, "1", recorded)
                    if name == "pettingzoo-parallel":      # its step and observations, each holding parts: a run of their own
                        found.update(count(name, n, modules, "nested")[2])
                    per = per_step[name] = total / steps
                    rest = total - sum(v for part, v in found.items() if part not in nested)
                    print(f"{n}p {modules:<5} {name:<15} {per / 1000:7.1f}k a step" +
                          ("" if name == "engine" else f" ({per / per_step['engine']:.2f}x the engine loop's)"
                           if name in replays else f" ({per / per_step[same[name]]:.2f}x the engine's on the same games, "
                                                   f"{per / per_step['engine']:.2f}x the engine loop's own)") + ": " +
                          ", ".join(f"{part} {v / steps / 1000:.1f}k" for part, v in found.items()
                                    if v and part not in nested) + f", rest {rest / steps / 1000:.1f}k" +
                          "".join(f"; {part} (holding some of the above) {v / steps / 1000:.1f}k"
                                  for part, v in found.items() if v and part in nested), flush=True)


def compare_with_baseline(args) -> None:
    """``--baseline REV``: this bench run on this checkout's ``src`` and on REV's, in
    alternating processes (bench/baseline.py), each loop's cost ratio to its own engine loop
    compared (medians over the rounds)."""
    import statistics
    from baseline import SRC, interleave, machine_load, source_tree
    argv, skip = [], False
    for a in sys.argv[1:]:            # the same options, without the comparison's own
        if skip:
            skip = False
        elif a in ("--baseline", "--rounds", "--json"):
            skip = True
        elif not a.startswith(("--baseline=", "--rounds=", "--json=")):
            argv.append(a)
    trees = {"new": SRC, "baseline": source_tree(args.baseline)}
    print(f"this checkout vs {args.baseline}: {args.rounds} runs each, alternating; {machine_load()} (start)", flush=True)
    runs = interleave(lambda src: [sys.executable, __file__, *argv, "--worker"], trees, blocks=args.rounds,
                      progress=lambda m: print(m, flush=True))
    ratios: dict[tuple, dict[str, list]] = {}
    own: dict[tuple, dict[str, list]] = {}     # the ratios to the engine loop's own games (the measure until session 21)
    for label, blocks in runs.items():
        for block in blocks:
            for row in block["results"]:
                ratios.setdefault((row["setup"], row["wrapper"]), {"new": [], "baseline": []})[label].append(
                    row["cost_vs_engine"])
                if row.get("cost_vs_engine_own_games", row["cost_vs_engine"]) != row["cost_vs_engine"]:
                    own.setdefault((row["setup"], row["wrapper"]), {"new": [], "baseline": []})[label].append(
                        row["cost_vs_engine_own_games"])
    out = []
    for (setup, wrapper), r in ratios.items():
        if wrapper == "engine":
            continue
        new, old = statistics.median(r["new"]), statistics.median(r["baseline"])
        o = own.get((setup, wrapper))
        out.append({"setup": setup, "wrapper": wrapper, "new": new, "baseline": old, "runs": r, "own_games": o})
        print(f"{setup:<16} {wrapper:<28} baseline {old:5.2f}x  ->  new {new:5.2f}x the engine's cost   "
              f"(runs {r['baseline']} / {r['new']})" +
              (f"; x the engine loop's own games " + " -> ".join(
                  f"{statistics.median(o[t]):.2f}" if o[t] else "-" for t in ("baseline", "new")) if o else ""))
    print(f"{machine_load()} (end)")
    if args.json:
        Path(args.json).write_text(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
