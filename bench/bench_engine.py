#!/usr/bin/env python3
"""Benchmark of the affresco rules engine against a baseline revision, as ratios from one run.

Each measurement runs in a fresh interpreter on one source tree or the other (this checkout's
``src/`` and the baseline revision's, exported by ``bench/baseline.py``), in alternating blocks,
and the medians of the blocks are compared; each block plays the next seeds (the same on both
trees).  Time is the process's CPU time (``--wall``: the wall clock), which moves far less than
the wall clock when other work shares the machine.  Measured, for 2, 3 and 4 players, base game:

  * random full games per second and engine decisions per second: every seat chooses uniformly
    among its legal actions with a seeded ``random.Random`` (like RandomBot); a decision is one
    ``legal_actions`` + ``apply`` (the random choice included);
  * ``clone()`` per second on states sampled from those games;
  * ``view(seat)`` per second (with the events): every seat's view of positions sampled every
    few decisions of those games, each position viewed once per seat, as a server or a
    searching bot does;
  * ``to_json`` / ``from_json`` per second on the sampled states;

then decisions/s and games/s of 4-player random games for each module set (each module alone,
the five of the supplement together, bells, wall_fresco and medico alone, all eight), with the
slowdown against the base game (targets: the five within 1.5x, all eight within 1.6x), the
plan decisions' legal lists' share of the time measured on as many more games after the timed ones.  Module
sets the baseline lacks are measured on this checkout only.  Each module block first plays
``--module-warm`` untimed games of every set (a long-running process, not a cold start).

``--crowded RUNS`` measures only this instead, on this checkout: the base game's decisions/s
alone and with an all-eight game's decision between each two of them (the same base games, so
the same instructions; only they are timed), in RUNS fresh processes: how much all eight's code
and data, crowding the processor's caches and branch predictors, slow the same work down (a
part of why all eight's time runs above its instructions, bench/README.md).

``--parts RUNS`` measures only this instead, on this checkout: in RUNS fresh processes playing the
module table's games (a warm-up game of every set, then ``--module-games`` games of every set
interleaved), the time of each part of the base game's and all eight's decisions: the plan
decisions' legal list, the random pick in it and the apply (the reveal in the last), the get-up
decisions, and the visit phase's legal lists and applies by the kind of the action chosen (an
apply holds the way to the next decision: the turns, the modules' hooks, a round end); per
decision of the game and per decision of the part, and all eight's against the base game's.
Parts are timed with the wall clock (``time.perf_counter``: the CPU clock is a system call here,
~1.2 us, more than a small part), and a decision longer than 2 ms (the process was preempted) is
left out and counted.  The garbage collector's collections in those games are timed apart
(``gc.callbacks``, the thread's CPU clock): per generation, how often and how long, per set.  Set
against ``bench_instructions.py --parts`` (the same parts in instructions), it tells which part's
time runs furthest above its instructions.

The measuring code uses only API present in both trees: ``new_game``, ``Game.to_act``,
``legal_actions``, ``apply(seat, action)``, ``is_over``, ``view``, ``clone``, ``to_json`` and
``Game.from_json``.  A forced pass is a decision in today's rules (rules notes N2) but was skipped
by the baseline's engine, so a game has more decisions now: games/s is the fairer second measure.

    nice -n 10 python bench/bench_engine.py            # ~5 minutes on an idle machine
    python bench/bench_engine.py --quick               # ~1 minute
    python bench/bench_engine.py --baseline HEAD~3 --blocks 7 --pin --json engine.json
    python bench/bench_engine.py --crowded 8 --module-games 3     # ~4 minutes
    python bench/bench_engine.py --parts 8 --module-games 3       # ~3 minutes
"""
from __future__ import annotations

import argparse
import gc
import json
import platform
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import BASELINE_REV, SRC, interleave, machine_load, median_of, run_worker, source_tree  # noqa: E402

# Time is the process's CPU time by default: on a machine shared with other work it moves far
# less than the wall clock (--wall measures the wall clock).
CLOCK = time.process_time

FIVE = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")
NEW_MODULES = ("bells", "wall_fresco", "medico")
EIGHT = FIVE + NEW_MODULES
MODULE_SETS = ([()] + [(m,) for m in FIVE] + [FIVE] + [(m,) for m in NEW_MODULES] + [EIGHT])
WARM_SEED = 10**6           # the warm-up games' seeds (never a measured one)
SPLIT_SEED = 2 * 10**6      # the module table's games for the plan lists' share (never a timed one)
MAX_FIVE_SLOWDOWN = 1.5    # issue #9: the five modules within 1.5x of the base game
MAX_EIGHT_SLOWDOWN = 1.6   # issue #12: all eight within 1.6x of the base game


# --- the worker (runs inside the tree being measured) -------------------------------------

def _random_game(affresco, players: int, seed: int, modules: tuple, sample_every: int = 0, plans: list | None = None):
    """One random game: (decisions, seconds in legal_actions+apply, sampled clones, game).
    ``plans``: a list to which the wall-clock seconds spent on the plan decisions' legal lists
    (making them and choosing in them) are added (a game played so is not a timed one: the
    phase asked at every decision and the two clock reads at every plan decision would be in
    its time, bench/README.md, session 24).  A caller timing
    games one after another lets each finished game go before the next starts: kept alive,
    its young objects are walked by the next game's first young collection, which the next
    game (all eight's, 246 decisions, after the medico's) would pay (bench/README.md, session 19)."""
    g = affresco.new_game(players=players, seed=seed, modules=modules)
    choice = random.Random(seed).choice
    samples, decisions = [], 0
    t0 = CLOCK()
    while not g.is_over:
        seat = choice(g.to_act)
        if plans is not None and g.phase == "plan":
            start = time.perf_counter()
            action = choice(g.legal_actions(seat))
            plans.append(time.perf_counter() - start)
            g.apply(seat, action)
        else:
            g.apply(seat, choice(g.legal_actions(seat)))
        decisions += 1
        if sample_every and decisions % sample_every == 0:
            pause = CLOCK()
            samples.append(g.clone())
            t0 += CLOCK() - pause   # sampling is not part of the game time
    return decisions, CLOCK() - t0, samples, g


def _per_second(fn, items, min_seconds: float) -> float:
    calls, t0 = 0, CLOCK()
    while True:
        for it in items:
            fn(it)
        calls += len(items)
        now = CLOCK()
        if now - t0 >= min_seconds:
            return calls / (now - t0)


def work_players(players: int, games: int, seed: int, sample_every: int, seconds: float) -> dict:
    import affresco
    gc.collect()
    decisions, total, samples = 0, 0.0, []
    for k in range(games):     # timed without sampling: kept positions would slow the collector
        d, sec = _random_game(affresco, players, seed + k, ())[:2]   # the game freed before the next (_random_game)
        decisions += d
        total += sec
    for k in range(games):     # the same games again, for the positions of the other measures
        samples.extend(_random_game(affresco, players, seed + k, (), sample_every)[2])
    # views: every seat's view of every sampled position, each position once (fresh positions,
    # as a server or a searching bot meets them)
    fresh = [g.clone() for g in samples[::max(1, len(samples) // 400)]]
    t0 = CLOCK()
    for g in fresh:
        for seat in range(players):
            g.view(seat)
    views = len(fresh) * players / (CLOCK() - t0)
    live = [g for g in samples if not g.is_over] or samples
    live = live[::max(1, len(live) // 60)]     # the clone and json measurements: ~60 positions
    texts = {id(g): g.to_json() for g in live}
    return {
        "file": affresco.__file__,
        "decisions": decisions, "seconds": total, "games": games,
        "decisions_per_s": decisions / total, "games_per_s": games / total,
        "clones_per_s": _per_second(lambda g: g.clone(), live, seconds),
        "views_per_s": views,
        "to_json_per_s": _per_second(lambda g: g.to_json(), live, seconds / 2),
        "from_json_per_s": _per_second(lambda g: affresco.Game.from_json(texts[id(g)]), live, seconds / 2),
    }


def work_modules(players: int, games: int, seed: int, sets: list, warm: int = 0) -> dict:
    """Random games of each module set this tree has, interleaved game by game; first ``warm``
    untimed games of each set (other seeds), so that the timed games meet the engine as a
    long-running process does (module data read, memos filled), not a fresh interpreter.  The
    timed games run the plain loop (``bench_instructions.py --live`` counts the same); the plan
    decisions' legal lists' share of a set's time comes from ``games`` more games of every set
    played after them (other seeds), their plan lists timed (:func:`_random_game`'s ``plans``),
    a plan list over 2 ms (the process was preempted) left out."""
    import affresco
    known = set(getattr(affresco, "MODULES", ()))
    sets = [tuple(m) for m in sets if set(m) <= known]
    totals = {m: [0, 0.0] for m in sets}
    for k in range(warm):
        for mods in sets:
            _random_game(affresco, players, WARM_SEED + k, mods)
    gc.collect()
    for k in range(games):
        for mods in sets:
            d, sec = _random_game(affresco, players, seed + k, mods)[:2]   # (the game freed here)
            totals[mods][0] += d
            totals[mods][1] += sec
    shares = {m: [0.0, 0.0] for m in sets}
    for k in range(games):
        for mods in sets:
            plans: list = []
            sec = _random_game(affresco, players, SPLIT_SEED + seed + k, mods, plans=plans)[1]
            shares[mods][0] += sum(t for t in plans if t <= PART_CAP)
            shares[mods][1] += sec
    out = {}
    for m, (d, sec) in totals.items():
        share = shares[m][0] / shares[m][1]
        out["+".join(m) or "base"] = {"decisions_per_s": d / sec, "games_per_s": games / sec,
                                      "decisions_per_game": d / games, "plan_list_share": share,
                                      "decisions_per_s_without_plan_lists": d / (sec * (1 - share))}
    return out


def _decisions(affresco, seed: int, modules: tuple):
    """The decisions of a 4-player random game (as :func:`_random_game` makes them), one at a
    time: each ``next`` makes one (legal list, choice, apply) and gives its CPU time."""
    g = affresco.new_game(players=4, seed=seed, modules=modules)
    choice = random.Random(seed).choice
    while not g.is_over:
        t0 = CLOCK()
        seat = choice(g.to_act)
        g.apply(seat, choice(g.legal_actions(seat)))
        yield CLOCK() - t0


def work_crowded(games: int, seed: int) -> dict:
    """The base game's decisions alone and with an all-eight game's decision between each two
    of them (the same games, so the same instructions; only the base game's decisions timed),
    after one warm-up game of every set: how much all eight's code and data, crowding the
    processor's caches and branch predictors, slow the same work down."""
    import affresco
    for mods in MODULE_SETS:
        _random_game(affresco, 4, WARM_SEED, mods)
    gc.collect()
    times = {"alone": 0.0, "crowded": 0.0}
    decisions = 0
    for k in range(games):
        for how in ("alone", "crowded") if k % 2 == 0 else ("crowded", "alone"):
            other = _decisions(affresco, WARM_SEED + 1 + k, EIGHT)
            for sec in _decisions(affresco, seed + k, ()):
                times[how] += sec
                decisions += how == "alone"
                if how == "crowded" and next(other, None) is None:
                    other = _decisions(affresco, WARM_SEED + 1 + k + games, EIGHT)
    return {"decisions": decisions, "alone_per_s": decisions / times["alone"],
            "crowded_per_s": decisions / times["crowded"]}


PART_CAP = 0.002     # --parts: a decision longer than this (seconds) was preempted: left out, counted


def work_parts(games: int, seed: int) -> dict:
    """``--parts``: the module table's games (a warm-up game of every set, then ``games`` of every
    set interleaved); in the base game's and all eight's, the wall-clock time of each part of a
    decision (see the module's docstring): {set: {part: [decisions, seconds]}, set + " left out":
    decisions, set + " decisions": all, set + " collector": {"generation N": [collections, CPU
    seconds]}} (each collection timed by ``gc.callbacks`` with the thread's CPU clock)."""
    import affresco
    clock = time.perf_counter
    out: dict = {}
    playing: list = [None]       # the set whose timed game is being played ("base", "eight"), else None
    started = [0.0]

    def collected(phase: str, info: dict) -> None:
        """gc.callbacks: each collection's CPU time, by the set being played and generation."""
        if phase == "start":
            started[0] = time.thread_time()
        elif playing[0] is not None:
            row = out.setdefault(playing[0] + " collector", {}).setdefault(f"generation {info['generation']}", [0, 0.0])
            row[0] += 1
            row[1] += time.thread_time() - started[0]

    def play(seed: int, mods: tuple, name: str | None) -> None:
        g = affresco.new_game(players=4, seed=seed, modules=mods)
        choice = random.Random(seed).choice
        if name is None:
            while not g.is_over:
                seat = choice(g.to_act)
                g.apply(seat, choice(g.legal_actions(seat)))
            return
        parts, decisions, left_out = out.setdefault(name, {}), 0, 0
        playing[0] = name
        while not g.is_over:
            phase = g.phase
            t0 = clock()
            seat = choice(g.to_act)
            legal = g.legal_actions(seat)
            t1 = clock()
            action = choice(legal)
            t2 = clock()
            g.apply(seat, action)
            t3 = clock()
            decisions += 1
            if t3 - t0 > PART_CAP:
                left_out += 1
                continue
            if phase == "plan":
                timed = (("plan list", t1 - t0), ("plan pick", t2 - t1), ("plan apply", t3 - t2))
            elif phase == "getup":
                timed = (("get-up", t3 - t0),)
            else:
                timed = (("visit legal list", t2 - t0), ("visit apply: " + action.kind, t3 - t2))
            for part, sec in timed:
                row = parts.setdefault(part, [0, 0.0])
                row[0] += 1
                row[1] += sec
        playing[0] = None
        out[name + " left out"] = out.get(name + " left out", 0) + left_out
        out[name + " decisions"] = out.get(name + " decisions", 0) + decisions

    for mods in MODULE_SETS:
        play(WARM_SEED, mods, None)
    gc.collect()
    gc.callbacks.append(collected)
    for k in range(games):
        for mods in MODULE_SETS:
            play(seed + k, mods, "base" if mods == () else "eight" if mods == EIGHT else None)
    gc.callbacks.remove(collected)
    return out


def worker(spec: str) -> None:
    global CLOCK
    job = json.loads(spec)
    kind = job.pop("job")
    if job.pop("wall", False):
        CLOCK = time.perf_counter
    out = (work_players(**job) if kind == "players" else work_crowded(**job) if kind == "crowded"
           else work_parts(**job) if kind == "parts" else work_modules(**job))
    print(json.dumps(out))


# --- the driver ------------------------------------------------------------------------------

def _by_block(me: list[str], job: dict, games: int, trees: int):
    """The worker command for ``interleave``: each block plays the next ``games`` seeds (the
    same seeds on every tree), so that the medians are over different games, not one set."""
    calls = [0]

    def command(src) -> list[str]:
        block = calls[0] // trees
        calls[0] += 1
        return [*me, "--worker", json.dumps(dict(job, seed=job["seed"] + block * games))]
    return command


PLAYER_ROWS = [("decisions_per_s", "decisions/s"), ("games_per_s", "games/s"), ("clones_per_s", "clone/s"),
               ("views_per_s", "view/s"), ("to_json_per_s", "to_json/s"), ("from_json_per_s", "from_json/s")]


def crowded(args) -> int:
    """``--crowded``: the base game's decisions/s alone and crowded by all eight's (work_crowded),
    in ``args.crowded`` fresh processes of this checkout; the medians and the median ratio."""
    src = Path(args.new_src) if args.new_src else SRC
    job = json.dumps({"job": "crowded", "games": args.module_games, "seed": args.seed, "wall": args.wall})
    print(f"the base game's decisions alone and crowded by an all-eight game's: {src} | "
          f"{args.crowded} runs x {args.module_games} games | {machine_load()} (start)")
    runs = []
    for i in range(args.crowded):
        runs.append(run_worker([sys.executable, str(Path(__file__).resolve()), "--worker", job], src, args.pin))
        print(f"  run {i + 1}: alone {runs[-1]['alone_per_s']:,.0f} decisions/s, crowded "
              f"{runs[-1]['crowded_per_s']:,.0f}", file=sys.stderr, flush=True)
    alone = statistics.median(r["alone_per_s"] for r in runs)
    crowd = statistics.median(r["crowded_per_s"] for r in runs)
    slower = statistics.median(r["alone_per_s"] / r["crowded_per_s"] for r in runs)
    print(f"base game alone {alone:,.0f} decisions/s, crowded {crowd:,.0f}: the same decisions take {slower:.2f}x "
          f"the time with all eight's between them (median of {len(runs)} runs) | {machine_load()} (end)")
    return 0


def parts(args) -> int:
    """``--parts``: the time of each part of the base game's and all eight's decisions (work_parts), in
    ``args.parts`` fresh processes of this checkout (each its own seeds), summed."""
    src = Path(args.new_src) if args.new_src else SRC
    print(f"time by part of a decision, base game and all eight, in the module table's games: {src} | "
          f"{args.parts} runs x {args.module_games} games of every set | wall clock | {machine_load()} (start)")
    total: dict = {}
    for i in range(args.parts):
        job = json.dumps({"job": "parts", "games": args.module_games, "seed": args.seed + i * args.module_games})
        got = run_worker([sys.executable, str(Path(__file__).resolve()), "--worker", job], src, args.pin)
        for key, value in got.items():
            if isinstance(value, dict):     # a set's parts, or its collector's generations
                for part, (n, sec) in value.items():
                    row = total.setdefault(key, {}).setdefault(part, [0, 0.0])
                    row[0] += n
                    row[1] += sec
            else:
                total[key] = total.get(key, 0) + value
        print(f"  run {i + 1} done", file=sys.stderr, flush=True)
    games = {name: total[name + " decisions"] for name in ("base", "eight")}
    timed = {name: sum(sec for _, sec in total[name].values()) for name in games}
    print(f"decisions: base {games['base']:,} ({total['base left out']} left out: over {PART_CAP * 1e3:.0f} ms), all "
          f"eight {games['eight']:,} ({total['eight left out']} left out); us per decision, the parts summed: base "
          f"{timed['base'] / games['base'] * 1e6:.2f}, all eight {timed['eight'] / games['eight'] * 1e6:.2f} "
          f"({timed['eight'] / games['eight'] / (timed['base'] / games['base']):.2f}x)")
    print(f"{'part':<28} {'per decision of the game: base':>31} {'all eight':>10} {'ratio':>6} | "
          f"{'share: base':>11} {'all eight':>10} | {'us per decision of the part: base':>34} {'all eight':>10} "
          f"{'ratio':>6}")
    names = sorted(set(total["base"]) | set(total["eight"]),
                   key=lambda p: (not p.startswith("plan"), not p.startswith("get"), p))
    for part in names:
        n = {name: total[name].get(part, [0, 0.0]) for name in games}
        per = {name: n[name][1] / games[name] * 1e6 for name in games}
        each = {name: n[name][1] / n[name][0] * 1e6 if n[name][0] else 0.0 for name in games}
        share = {name: n[name][1] / timed[name] for name in games}
        ratio = lambda d: f"{d['eight'] / d['base']:5.2f}x" if d["base"] else f"{'':>6}"   # noqa: E731
        print(f"{part:<28} {per['base']:>26.3f} us {per['eight']:>7.3f} us {ratio(per)} | {share['base']:>11.1%} "
              f"{share['eight']:>10.1%} | {each['base']:>31.2f} us {each['eight']:>7.2f} us {ratio(each)}")
    for gen in range(3):
        key = f"generation {gen}"
        n = {name: total.get(name + " collector", {}).get(key, [0, 0.0]) for name in games}
        if not any(c for c, _ in n.values()):
            continue
        print(f"collector, {key:<17} " + " | ".join(
            f"{name}: {c / games[name] * 1e3:5.2f} a thousand decisions, {sec / max(c, 1) * 1e3:6.3f} ms CPU each, "
            f"{sec / games[name] * 1e6:5.2f} us a decision" for name, (c, sec) in n.items()))
    print("(the collector's time is inside the parts above: a decision that holds a collection longer than "
          f"{PART_CAP * 1e3:.0f} ms is left out there, counted here)")
    print(f"{machine_load()} (end)")
    if args.json:
        Path(args.json).write_text(json.dumps(total, indent=1))
    return 0


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--baseline", default=BASELINE_REV,
                    help=f"baseline revision (default {BASELINE_REV}), or a folder holding an affresco package")
    ap.add_argument("--new-src", metavar="DIR", help="the new code's folder (default: this checkout's src/; "
                    "e.g. a compiled install, docs/compiled.md)")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    ap.add_argument("--games", type=int, default=3, help="random games per block and player count (default 3)")
    ap.add_argument("--blocks", type=int, default=15,
                    help="alternating blocks per tree (default 15: many short blocks follow the load best)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (games use seed, seed+1, ...)")
    ap.add_argument("--seconds", type=float, default=0.3, help="minimum time per clone/json measurement")
    ap.add_argument("--sample-every", type=int, default=4,
                    help="sample a position every N decisions for the clone/view/json measurements")
    ap.add_argument("--module-games", type=int, default=1,
                    help="4-player random games per module set and block (0: no module table)")
    ap.add_argument("--module-blocks", type=int, default=9, help="alternating blocks of the module table")
    ap.add_argument("--module-warm", type=int, default=1,
                    help="untimed warm-up games per module set in each module block (default 1; 0: a cold start)")
    ap.add_argument("--crowded", type=int, default=0, metavar="RUNS",
                    help="only this: RUNS fresh processes of this checkout time the base game's decisions alone and "
                         "with an all-eight game's decision between each two (--module-games games each)")
    ap.add_argument("--parts", type=int, default=0, metavar="RUNS",
                    help="only this: RUNS fresh processes of this checkout time each part of the base game's and all "
                         "eight's decisions in the module table's games (--module-games games of every set each)")
    ap.add_argument("--quick", action="store_true", help="about 40 seconds: 3 blocks of 4 games, 1 module block")
    ap.add_argument("--wall", action="store_true", help="time with the wall clock (default: the CPU time)")
    ap.add_argument("--pin", action="store_true", help="pin each worker to one CPU core (Linux)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        worker(args.worker)
        return 0
    if args.quick:
        args.games, args.blocks, args.seconds, args.module_games, args.module_blocks = 2, 5, 0.2, 1, 3
    if args.crowded:
        return crowded(args)
    if args.parts:
        return parts(args)

    trees = {"new": Path(args.new_src) if args.new_src else SRC, "baseline": source_tree(args.baseline)}
    me = [sys.executable, str(Path(__file__).resolve())]
    say = lambda msg: print(f"  {msg}", file=sys.stderr, flush=True)
    print(f"affresco engine: {trees['new']} vs baseline {args.baseline} | Python {platform.python_version()} "
          f"| {args.blocks} blocks x {args.games} games per player count | "
          f"{'wall-clock' if args.wall else 'CPU'} time | {machine_load()} (start)")
    results: dict = {"baseline": args.baseline, "load_start": machine_load(), "players": {}, "module_sets": {}}
    head = f"{'measure':<14}" + "".join(f"{p} players: new / baseline = ratio".rjust(44) for p in args.players)
    rows = {key: f"{label:<14}" for key, label in PLAYER_ROWS}
    for p in args.players:
        job = {"job": "players", "players": p, "games": args.games, "seed": args.seed,
               "sample_every": args.sample_every, "seconds": args.seconds, "wall": args.wall}
        got = interleave(_by_block(me, job, args.games, len(trees)), trees, args.blocks, args.pin,
                         progress=lambda m: say(f"{p} players, {m}"))
        res = results["players"][p] = {}
        for key, _ in PLAYER_ROWS:
            new, old = median_of(got["new"], key), median_of(got["baseline"], key)
            res[key] = {"new": new, "baseline": old, "ratio": new / old}
            rows[key] += f"{new:>16,.1f} / {old:>12,.1f} = {new / old:5.2f}x"
        res["decisions_per_game"] = {t: sum(b["decisions"] for b in got[t]) / (args.games * args.blocks)
                                     for t in trees}
    print()
    print(head)
    for key, _ in PLAYER_ROWS:
        print(rows[key])
    print("decisions/game: " + ", ".join(
        f"{p}p {results['players'][p]['decisions_per_game']['new']:.0f} new / "
        f"{results['players'][p]['decisions_per_game']['baseline']:.0f} baseline" for p in args.players)
        + " (forced passes are decisions now)")
    missed = []
    if args.module_games:
        job = {"job": "modules", "players": 4, "games": args.module_games, "seed": args.seed,
               "sets": [list(m) for m in MODULE_SETS], "wall": args.wall, "warm": args.module_warm}
        got = interleave(_by_block(me, job, args.module_games, len(trees)), trees, args.module_blocks, args.pin,
                         progress=lambda m: say(f"module sets, {m}"))
        print()
        print(f"module sets, 4 players ({args.module_blocks} blocks x {args.module_games} games, "
              f"{args.module_warm} warm-up game(s) per set and block): "
              f"decisions/s new (baseline, ratio) | games/s new (baseline) | slowdown vs base game (new) | "
              f"share of the time in the plan decisions' legal lists, slowdown without them (new)")
        base_new = statistics.median(b["base"]["decisions_per_s"] for b in got["new"])
        split = all("plan_list_share" in b["base"] for b in got["new"])   # a bench of today's
        base_rest = split and statistics.median(b["base"]["decisions_per_s_without_plan_lists"] for b in got["new"])
        for mods in MODULE_SETS:
            name = "+".join(mods) or "base"
            new_d = statistics.median(b[name]["decisions_per_s"] for b in got["new"])
            new_g = statistics.median(b[name]["games_per_s"] for b in got["new"])
            olds = [b[name] for b in got["baseline"] if name in b]
            row = {"new": {"decisions_per_s": new_d, "games_per_s": new_g}, "slowdown": base_new / new_d}
            line = f"  {name:<62} {new_d:>8,.0f}"
            if olds:
                old_d = statistics.median(o["decisions_per_s"] for o in olds)
                old_g = statistics.median(o["games_per_s"] for o in olds)
                row["baseline"] = {"decisions_per_s": old_d, "games_per_s": old_g}
                line += f" ({old_d:>7,.0f}, {new_d / old_d:4.2f}x) | {new_g:6.2f} ({old_g:6.2f})"
            else:
                line += f" {'(not in baseline)':>21} | {new_g:6.2f} {'':8}"
            line += f" | {base_new / new_d:4.2f}x"
            if split:
                share = statistics.median(b[name]["plan_list_share"] for b in got["new"])
                rest = statistics.median(b[name]["decisions_per_s_without_plan_lists"] for b in got["new"])
                row["plan_list_share"], row["slowdown_without_plan_lists"] = share, base_rest / rest
                line += f" | {share:4.0%}, {base_rest / rest:4.2f}x"
            print(line)
            results["module_sets"][name] = row
        five = results["module_sets"]["+".join(FIVE)]["slowdown"]
        eight = results["module_sets"]["+".join(EIGHT)]["slowdown"]
        print(f"all eight modules / base game: {eight:.2f}x slower (target <= {MAX_EIGHT_SLOWDOWN}x); "
              f"the five: {five:.2f}x (target <= {MAX_FIVE_SLOWDOWN}x)")
        if split:
            rest = {name: results["module_sets"]["+".join(mods)]["slowdown_without_plan_lists"]
                    for name, mods in (("eight", EIGHT), ("five", FIVE))}
            print(f"without the plan decisions' legal lists: all eight {rest['eight']:.2f}x, the five {rest['five']:.2f}x")
        if eight > MAX_EIGHT_SLOWDOWN:
            missed.append(f"all eight modules {eight:.2f}x")
        if five > MAX_FIVE_SLOWDOWN:
            missed.append(f"the five modules {five:.2f}x")
    results["load_end"] = machine_load()
    print(f"\n{results['load_end']} (end)")
    if missed:
        print("slowdown targets MISSED: " + ", ".join(missed))
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
