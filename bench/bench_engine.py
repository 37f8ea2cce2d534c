#!/usr/bin/env python3
"""Benchmark of the affresco rules engine (plain time.perf_counter, no pytest).

Measures, for 2, 3 and 4 players:
  * random full games per second (every seat choosing uniformly among its legal actions
    with a seeded random.Random, like RandomBot), and engine decisions per second
    (legal_actions + apply, the random choice included);
  * clone() per second, and clone() + apply of one legal action per second, on states
    sampled from those games;
  * to_json size in bytes, to_json per second and from_json per second on the same states
    (mid-game samples, and the finished games).

Targets (one core): >= 20,000 decisions/s and >= 100,000 clones/s.

    python bench/bench_engine.py                      # 2, 3, 4 players, ~1 minute
    python bench/bench_engine.py --players 4 --games 50
    python bench/bench_engine.py --quick              # a few seconds
    python bench/bench_engine.py --json results.json  # also write the numbers
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import platform
import random
import statistics
import sys
import time
from pathlib import Path

try:
    import affresco
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import affresco

TARGET_DECISIONS = 20_000
TARGET_CLONES = 100_000


ALL_MODULES = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")
# modules 8-10 (issue #12), each alone and with the five above
NEW_MODULES = ("bells", "wall_fresco", "medico")
MODULE_SETS = ([()] + [(m,) for m in ALL_MODULES] + [ALL_MODULES] + [(m,) for m in NEW_MODULES]
               + [ALL_MODULES + NEW_MODULES])
MAX_MODULE_SLOWDOWN = 1.5   # issue target: all five modules within 1.5x of the base game


def random_game(players: int, seed: int, sample_every: int = 0, modules: tuple = ()):
    """Play one random game; return (decisions, seconds, sampled clones of the game)."""
    g = affresco.new_game(players=players, seed=seed, modules=modules)
    rng = random.Random(seed)
    choice = rng.choice
    samples = []
    decisions = 0
    t0 = time.perf_counter()
    while not g.is_over:
        seat = choice(g.to_act)
        g.apply(seat, choice(g.legal_actions(seat)))
        decisions += 1
        if sample_every and decisions % sample_every == 0:
            pause = time.perf_counter()
            samples.append(g.clone())
            t0 += time.perf_counter() - pause   # sampling is not part of the game time
    seconds = time.perf_counter() - t0
    return decisions, seconds, samples, g


def per_second(fn, items, min_seconds: float) -> float:
    """Calls of fn(item) per second, cycling through items for at least min_seconds."""
    calls = 0
    t0 = time.perf_counter()
    deadline = t0 + min_seconds
    while True:
        for it in items:
            fn(it)
        calls += len(items)
        now = time.perf_counter()
        if now >= deadline:
            return calls / (now - t0)


def bench_players(players: int, games: int, seed: int, min_seconds: float, sample_every: int) -> dict:
    gc.collect()
    total_decisions = 0
    total_seconds = 0.0
    rounds = []
    samples = []
    finished = []
    for k in range(games):
        d, s, smp, g = random_game(players, seed + k, sample_every)
        total_decisions += d
        total_seconds += s
        rounds.append(g.round)
        samples.extend(smp)
        finished.append(g)
    # states to measure on: mid-game samples (spread over whole games)
    if len(samples) > 400:
        step = len(samples) / 400
        samples = [samples[int(i * step)] for i in range(400)]
    live = [g for g in samples if not g.is_over] or samples
    first_legal = {id(g): (g.to_act[0], g.legal_actions(g.to_act[0])[0]) for g in live}

    def clone(g):
        g.clone()

    def clone_apply(g):
        c = g.clone()
        seat, action = first_legal[id(g)]
        c.apply(seat, action)

    clones = per_second(clone, live, min_seconds)
    clone_applies = per_second(clone_apply, live, min_seconds)
    texts_mid = {id(g): g.to_json() for g in live}
    texts_end = [g.to_json() for g in finished]
    dumps = per_second(lambda g: g.to_json(), live, min_seconds)
    dumps_compact = per_second(lambda g: g.to_json(pretty=False), live, min_seconds)
    loads = per_second(lambda g: affresco.Game.from_json(texts_mid[id(g)]), live, min_seconds)
    dumps_end = per_second(lambda g: g.to_json(), finished, min_seconds / 2)
    loads_end = per_second(affresco.Game.from_json, texts_end, min_seconds / 2)
    mid_sizes = [len(t.encode()) for t in texts_mid.values()]
    end_sizes = [len(t.encode()) for t in texts_end]
    return {
        "players": players,
        "games": games,
        "decisions": total_decisions,
        "decisions_per_game": total_decisions / games,
        "rounds_per_game": statistics.mean(rounds),
        "games_per_s": games / total_seconds,
        "decisions_per_s": total_decisions / total_seconds,
        "clones_per_s": clones,
        "clone_apply_per_s": clone_applies,
        "json_bytes_mid": statistics.mean(mid_sizes),
        "json_bytes_end": statistics.mean(end_sizes),
        "json_bytes_max": max(end_sizes + mid_sizes),
        "to_json_per_s": dumps,
        "to_json_compact_per_s": dumps_compact,
        "from_json_per_s": loads,
        "to_json_end_per_s": dumps_end,
        "from_json_end_per_s": loads_end,
        "sampled_states": len(live),
    }


ROWS = [
    ("games", "random games played", "{:,.0f}"),
    ("decisions_per_game", "decisions per game", "{:,.0f}"),
    ("rounds_per_game", "rounds per game", "{:,.1f}"),
    ("games_per_s", "random full games / s", "{:,.1f}"),
    ("decisions_per_s", "decisions / s (legal_actions+apply)", "{:,.0f}"),
    ("clones_per_s", "clone() / s", "{:,.0f}"),
    ("clone_apply_per_s", "clone()+apply / s", "{:,.0f}"),
    ("json_bytes_mid", "to_json bytes, mid-game (mean)", "{:,.0f}"),
    ("json_bytes_end", "to_json bytes, game over (mean)", "{:,.0f}"),
    ("to_json_per_s", "to_json / s, mid-game", "{:,.0f}"),
    ("to_json_compact_per_s", "to_json(pretty=False) / s, mid-game", "{:,.0f}"),
    ("from_json_per_s", "from_json / s, mid-game", "{:,.0f}"),
    ("to_json_end_per_s", "to_json / s, game over", "{:,.0f}"),
    ("from_json_end_per_s", "from_json / s, game over", "{:,.0f}"),
]
TARGETS = {"decisions_per_s": TARGET_DECISIONS, "clones_per_s": TARGET_CLONES}


def table(results: list[dict]) -> str:
    head = ["measure"] + [f"{r['players']} players" for r in results] + ["target"]
    lines = []
    for key, label, fmt in ROWS:
        cells = [label]
        for r in results:
            cell = fmt.format(r[key])
            if key in TARGETS:
                cell += "  ok" if r[key] >= TARGETS[key] else "  LOW"
            cells.append(cell)
        cells.append(f">= {TARGETS[key]:,}" if key in TARGETS else "")
        lines.append(cells)
    widths = [max(len(row[i]) for row in [head] + lines) for i in range(len(head))]
    fmt_row = lambda row: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
    sep = "  ".join("-" * w for w in widths)
    return "\n".join([fmt_row(head), sep] + [fmt_row(r) for r in lines])


def bench_module_sets(players: int, games: int, seed: int, sets=MODULE_SETS) -> list[dict]:
    """Decisions per second of random games for each module set (interleaved, so that a
    change of machine load hits every set alike)."""
    totals = {m: [0, 0.0, 0] for m in sets}
    for k in range(games):
        for mods in sets:
            d, sec, _, g = random_game(players, seed + k, 0, mods)
            totals[mods][0] += d
            totals[mods][1] += sec
            totals[mods][2] += g.round
    base = totals[()][0] / totals[()][1] if () in totals else None
    out = []
    for mods, (d, sec, rounds) in totals.items():
        rate = d / sec
        out.append({"modules": "+".join(mods) or "base game", "decisions_per_s": rate,
                    "games_per_s": games / sec, "decisions_per_game": d / games, "rounds_per_game": rounds / games,
                    "slowdown": base / rate if base else None})
    return out


def module_table(rows: list[dict], players: int) -> str:
    lines = [f"module sets, {players} players: decisions/s   games/s   decisions/game   rounds/game   slowdown vs base"]
    for r in rows:
        lines.append(f"  {r['modules']:<70} {r['decisions_per_s']:>8,.0f}  {r['games_per_s']:>7.1f}  "
                     f"{r['decisions_per_game']:>8.0f}  {r['rounds_per_game']:>6.1f}  {r['slowdown']:>5.2f}x")
    return "\n".join(lines)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4],
                    help="player counts to measure (default: 2 3 4)")
    ap.add_argument("--games", type=int, default=30, help="random games per player count (default 30)")
    ap.add_argument("--seed", type=int, default=1, help="first seed (games use seed, seed+1, ...)")
    ap.add_argument("--seconds", type=float, default=1.0,
                    help="minimum time per clone/json measurement (default 1.0)")
    ap.add_argument("--sample-every", type=int, default=25,
                    help="sample a state for the clone/json measurements every N decisions")
    ap.add_argument("--quick", action="store_true", help="a few seconds: 4 games, 0.2 s per measurement")
    ap.add_argument("--pin", action="store_true", help="pin the process to one CPU core (Linux)")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    ap.add_argument("--module-games", type=int, default=20,
                    help="random games per module set (4 players; 0 skips the module table)")
    ap.add_argument("--check", action="store_true",
                    help="exit with status 1 if a target is missed")
    args = ap.parse_args(argv)
    if args.quick:
        args.games, args.seconds, args.module_games = 4, 0.2, 2
    if args.pin and hasattr(os, "sched_setaffinity"):
        os.sched_setaffinity(0, {min(os.sched_getaffinity(0))})

    print(f"affresco {getattr(affresco, '__version__', '?')} | Python {platform.python_version()} "
          f"({platform.python_implementation()}) | {platform.machine()} | "
          f"{args.games} games per player count, seeds {args.seed}..{args.seed + args.games - 1}")
    results = []
    for players in args.players:
        t = time.perf_counter()
        results.append(bench_players(players, args.games, args.seed, args.seconds, args.sample_every))
        print(f"  {players} players measured in {time.perf_counter() - t:.1f} s", file=sys.stderr)
    print()
    print(table(results))
    missed = [f"{r['players']}p {key}" for r in results for key, target in TARGETS.items() if r[key] < target]
    modules = []
    if args.module_games:
        modules = bench_module_sets(4, args.module_games, args.seed)
        print()
        print(module_table(modules, 4))
        every = next(r for r in modules if r["modules"] == "+".join(ALL_MODULES))
        if every["slowdown"] > MAX_MODULE_SLOWDOWN:
            missed.append(f"all modules {every['slowdown']:.2f}x slower than the base game (target <= {MAX_MODULE_SLOWDOWN}x)")
    print()
    print("targets: " + ("all met" if not missed else "MISSED: " + ", ".join(missed)))
    if args.json:
        Path(args.json).write_text(json.dumps({"players": results, "module_sets": modules}, indent=1))
    return 1 if (missed and args.check) else 0


if __name__ == "__main__":
    sys.exit(main())
