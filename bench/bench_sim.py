#!/usr/bin/env python3
"""Benchmark of the search bot and of tournaments (plain time.perf_counter, no pytest).

Measures:
  * SearchBot simulations per second: the bot with a fixed number of simulations (no time
    budget) chooses on a few positions sampled from greedy games of 2, 3 and 4 players;
    simulations / s = simulations x positions / time spent in choose();
  * tournament games per second, 4 players (heuristic bots, or greedy where there is no
    heuristic bot), with seats rotated as in ``affresco tournament``: in this process (one
    core) and on 2 worker processes (optionally also on a local Ray instance, --ray).
    "games/s" is over the whole run, starting the workers included; "steady" is from the
    first finished game to the last (the workers' start left out); "games/CPU-s" divides by
    the CPU time of this process and its worker processes (Ray's workers are not counted), so
    it moves less than games/s when other work shares the machine.

    python bench/bench_sim.py                  # ~1-2 minutes
    python bench/bench_sim.py --quick          # ~15 seconds
    python bench/bench_sim.py --bots greedy --games 60 --sims 300 --positions 12
    python bench/bench_sim.py --ray            # also on a local Ray instance (2 CPUs)
    python bench/bench_sim.py --json sim.json  # also write the numbers
"""
from __future__ import annotations

import argparse
import json
import os
import platform
import resource
import statistics
import sys
import time
from pathlib import Path

try:
    import affresco
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import affresco

from affresco.bots import bot_menu, make_bot, parse_spec, play_game
from affresco.sim import run_tournament


def sample_positions(count: int, seed: int) -> list[tuple[affresco.Game, int]]:
    """``count`` decisions (game, seat) with more than one legal action, spread over greedy
    games of 2, 3 and 4 players."""
    out: list[tuple[affresco.Game, int]] = []
    per_game = max(1, -(-count // 3))
    for i, players in enumerate((2, 3, 4)):
        game = affresco.new_game(players, seed=seed + i)
        points: list[tuple[affresco.Game, int]] = []

        def keep(seat, action, game=game, points=points):
            if not game.is_over:
                for s in game.to_act:
                    if len(game.legal_actions(s)) > 1:
                        points.append((game.clone(), s))
                        break

        play_game(game, [make_bot("greedy", seed=f"{seed}:{s}") for s in range(players)], on_action=keep)
        step = max(1, len(points) // per_game)
        out.extend(points[step // 2::step][:per_game])
    return out[:count]


def search_bot(seed, simulations: int):
    return make_bot("search", seed, simulations=simulations)


def bench_search(positions, simulations: int, seed: int) -> dict:
    bot = search_bot(seed, simulations)
    times = []
    cpu = 0.0
    legal_counts = []
    for game, seat in positions:
        legal = game.legal_actions(seat)
        view = game.view(seat)
        t0, c0 = time.perf_counter(), time.process_time()
        bot.choose(view, legal, seat)
        times.append(time.perf_counter() - t0)
        cpu += time.process_time() - c0
        legal_counts.append(len(legal))
    total = sum(times)
    return {"positions": len(positions), "simulations": simulations,
            "sims_per_s": simulations * len(positions) / total,
            "sims_per_cpu_s": simulations * len(positions) / cpu if cpu else float("nan"),
            "seconds_per_decision": statistics.mean(times),
            "legal_actions_mean": statistics.mean(legal_counts)}


def bench_tournament(bots: str, games: int, workers: int, seed: int, ray: str | None = None) -> dict:
    done: list[float] = []
    t0, c0 = time.perf_counter(), _cpu()
    result = run_tournament(4, [bots], games, seed=seed, workers=workers, ray=ray,
                            on_result=lambda k, rows, record: done.append(time.perf_counter()))
    wall, cpu = time.perf_counter() - t0, _cpu() - c0
    steady = (len(done) - 1) / (done[-1] - done[0]) if len(done) > 1 and done[-1] > done[0] else float("nan")
    return {"backend": result.backend, "workers": result.workers, "games": len(result.records),
            "seconds": wall, "games_per_s": len(result.records) / wall, "steady_games_per_s": steady,
            "cpu_seconds": cpu, "games_per_cpu_s": len(result.records) / cpu if cpu and ray is None else float("nan"),
            "actions_per_game": statistics.mean(len(r["actions"]) for r in result.records.values())}


def _cpu() -> float:
    """CPU seconds of this process and of its finished child processes (the workers)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def show(title: str, head: list[str], lines: list[list[str]]) -> str:
    widths = [max(len(row[i]) for row in [head] + lines) for i in range(len(head))]
    fmt = lambda row: "  ".join(c.ljust(w) if i == 0 else c.rjust(w) for i, (c, w) in enumerate(zip(row, widths)))
    return "\n".join([title, fmt(head), "  ".join("-" * w for w in widths)] + [fmt(r) for r in lines])


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sims", type=int, default=200, help="SearchBot simulations per decision (default 200)")
    ap.add_argument("--positions", type=int, default=9, help="positions the search bot chooses on (default 9)")
    ap.add_argument("--bots", default="heuristic", type=lambda text: parse_spec(text).label,
                    help="the bot spec of every seat in the tournament runs (default: heuristic)")
    ap.add_argument("--games", type=int, default=40, help="games per tournament run (default 40)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes of the parallel run (default 2)")
    ap.add_argument("--ray", action="store_true", help="also run the tournament on a local Ray instance")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="~15 s: 50 simulations, 6 positions, 10 games")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)
    if args.quick:
        args.sims, args.positions, args.games = 50, 6, 10

    print(f"affresco {getattr(affresco, '__version__', '?')} | Python {platform.python_version()} | "
          f"{platform.machine()} | bots: {', '.join(b['name'] for b in bot_menu())}")
    positions = sample_positions(args.positions, args.seed)
    search = bench_search(positions, args.sims, args.seed)
    print()
    print(show(f"SearchBot, {args.sims} simulations per decision, {search['positions']} positions (2-4 players)",
               ["measure", "value"],
               [["simulations / s", f"{search['sims_per_s']:,.0f}"],
                ["simulations / CPU-second", f"{search['sims_per_cpu_s']:,.0f}"],
                ["seconds per decision", f"{search['seconds_per_decision']:.3f}"],
                ["legal actions per position (mean)", f"{search['legal_actions_mean']:.1f}"]]))

    runs = [bench_tournament(args.bots, args.games, 1, args.seed)]
    print(f"  in-process run done in {runs[-1]['seconds']:.1f} s", file=sys.stderr)
    runs.append(bench_tournament(args.bots, args.games, args.workers, args.seed))
    print(f"  {args.workers}-process run done in {runs[-1]['seconds']:.1f} s", file=sys.stderr)
    if args.ray:
        runs.append(bench_tournament(args.bots, args.games, args.workers, args.seed, ray="local"))
    base = runs[0]["games_per_s"]
    print()
    print(show(f"Tournament, 4 players, {args.bots} in every seat, {args.games} games",
               ["backend", "workers", "games/s", "steady games/s", "speed-up", "games/CPU-s", "actions/game"],
               [[r["backend"], str(r["workers"]), f"{r['games_per_s']:.2f}", f"{r['steady_games_per_s']:.2f}",
                 f"{r['games_per_s'] / base:.2f}x", f"{r['games_per_cpu_s']:.2f}", f"{r['actions_per_game']:.0f}"]
                for r in runs]))
    print(f"\nload average at the end: {', '.join(f'{x:.1f}' for x in os.getloadavg())} "
          f"on {os.cpu_count()} CPUs (games/CPU-s is less sensitive to other work than games/s)")
    if args.json:
        Path(args.json).write_text(json.dumps({"search": search, "tournament": runs}, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
