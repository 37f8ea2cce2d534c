#!/usr/bin/env python3
"""Benchmark of the bots and of tournaments, today's code against a baseline revision, as
ratios from one run (plain time.perf_counter, no pytest; issue #16).

Measures, in interleaved blocks (new, baseline, baseline, new, ...; bench/baseline.py), each
block a fresh interpreter whose PYTHONPATH is the working tree's ``src/`` or the baseline's:
  * SearchBot simulations per second: the bot with a fixed number of simulations (no time
    budget) chooses on positions of 2, 3 and 4 players, base game and every module the
    baseline knows, reached by heuristic play (the positions are replayed from their actions,
    the same in both trees); simulations / s = simulations x positions / time in choose();
  * HeuristicBot microseconds per decision over whole seeded games (2-4 players, base and
    modules), every seat the heuristic (the same games in both trees: the decision counts
    are printed side by side);
  * this tree only: SearchBot on 2 worker processes (root-parallel, ``workers=2``) against 1,
    the same total simulations: the speed-up in wall time;
  * tournament games per second, 4 players (heuristic bots, or greedy where there is no
    heuristic bot), with seats rotated as in ``affresco tournament``: in this process (one
    core) and on 2 worker processes (optionally also on a local Ray instance, --ray).
    "games/s" is over the whole run, starting the workers included; "steady" is from the
    first finished game to the last (the workers' start left out); "games/CPU-s" divides by
    the CPU time of this process and its worker processes (Ray's workers are not counted), so
    it moves less than games/s when other work shares the machine.

    python bench/bench_sim.py                  # ~5 minutes (the baseline is slow)
    python bench/bench_sim.py --quick          # ~1 minute
    python bench/bench_sim.py --blocks 5 --sims 200 --no-tournament
    python bench/bench_sim.py --baseline HEAD~5   # another baseline revision
    python bench/bench_sim.py --ray            # also the tournament on a local Ray instance (2 CPUs)
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
import tempfile
import time
from pathlib import Path

try:
    import affresco
except ImportError:  # running from a checkout without installing
    sys.path.insert(0, str(Path(__file__).resolve().parent.parent / "src"))
    import affresco

# A worker may run the baseline's code: it uses only what both trees have.
from affresco.bots import make_bot

BASELINE_MODULES = ("bishops_favour", "portraits", "requests", "scrolls", "special_colours")
CONFIGS = [(n, mods) for mods in ((), BASELINE_MODULES) for n in (2, 3, 4)]


def sample_positions(per_config: int, seed: int) -> list[dict]:
    """``per_config`` decisions with more than one legal action (not a VP-track stop) from a
    heuristic game of each configuration (2-4 players, base and the baseline's modules), as
    ``{state, state_v1, seat}``: the saved game, and the same in the baseline's state format 1
    (its log as English lines rendered from the events, which the baseline's bots parse)."""
    from affresco.bots import play_game
    from affresco.i18n import render_event
    out: list[dict] = []
    for i, (players, mods) in enumerate(CONFIGS):
        game = affresco.new_game(players, list(mods), seed=seed + i)
        points: list[tuple[affresco.Game, int]] = []

        def keep(seat, action, game=game, points=points):
            if not game.is_over:
                for s in game.to_act:
                    legal = game.legal_actions(s)
                    if len(legal) > 1 and all(a.kind != "track" for a in legal):
                        points.append((game.clone(), s))
                        break

        play_game(game, [make_bot("heuristic", seed=f"{seed}:{s}") for s in range(players)], on_action=keep)
        step = max(1, len(points) // per_config)
        for g, seat in points[step // 2::step][:per_config]:
            state = json.loads(g.to_json(pretty=False))
            old = dict(state, format="affresco-state/1",
                       log=[[r, s, render_event(dict(e, round=r), g.names)] for r, s, e in state["log"]])
            out.append({"state": json.dumps(state), "state_v1": json.dumps(old), "seat": seat})
    return out


def load_position(p: dict):
    from affresco.errors import StateError
    try:
        return affresco.Game.from_json(p["state"])
    except StateError:  # the baseline reads format 1
        return affresco.Game.from_json(p["state_v1"])


def worker_search(positions: list[dict], simulations: int, seed: int, workers: int = 1) -> dict:
    """SearchBot with ``simulations`` per decision on every position: time in choose()."""
    games = [(load_position(p), p["seat"]) for p in positions]
    options = {"simulations": simulations} if workers == 1 else {"simulations": simulations, "workers": workers}
    bot = make_bot("search", seed, **options)
    wall = cpu = 0.0
    for game, seat in games:
        legal, view = game.legal_actions(seat), game.view(seat)
        t0, c0 = time.perf_counter(), time.process_time()
        bot.choose(view, legal, seat)
        wall += time.perf_counter() - t0
        cpu += time.process_time() - c0
    close = getattr(bot, "close", None)
    if close:
        close()
    n = simulations * len(games)
    return {"positions": len(games), "simulations": simulations, "seconds": wall,
            "sims_per_s": n / wall, "sims_per_cpu_s": n / cpu if cpu else float("nan")}


def worker_heuristic(games: int, seed: int) -> dict:
    """Whole seeded games of heuristic bots: microseconds per decision in choose()."""
    spent = cpu = 0.0
    decisions = 0
    for i in range(games):
        players, mods = CONFIGS[i % len(CONFIGS)]
        game = affresco.new_game(players, list(mods), seed=seed + i)
        bots = [make_bot("heuristic", seed=f"{seed}:{i}:{s}") for s in range(players)]
        while not game.is_over:
            for seat in sorted(game.to_act):
                if seat not in game.to_act:
                    continue
                legal, view = game.legal_actions(seat), game.view(seat)
                t0, c0 = time.perf_counter(), time.process_time()
                action = bots[seat].choose(view, legal, seat)
                spent += time.perf_counter() - t0
                cpu += time.process_time() - c0
                decisions += 1
                game.apply(seat, action)
    return {"games": games, "decisions": decisions, "us_per_decision": 1e6 * spent / decisions,
            "us_per_cpu_decision": 1e6 * cpu / decisions}


def worker(argv: list[str]) -> int:
    ap = argparse.ArgumentParser()
    ap.add_argument("--worker", choices=("search", "heuristic"))
    ap.add_argument("--positions")
    ap.add_argument("--sims", type=int, default=100)
    ap.add_argument("--games", type=int, default=6)
    ap.add_argument("--workers", type=int, default=1)
    ap.add_argument("--seed", type=int, default=1)
    args = ap.parse_args(argv)
    if args.worker == "search":
        out = worker_search(json.loads(Path(args.positions).read_text()), args.sims, args.seed, args.workers)
    else:
        out = worker_heuristic(args.games, args.seed)
    print(json.dumps(out))
    return 0


def bench_tournament(bots: str, games: int, workers: int, seed: int, ray: str | None = None) -> dict:
    from affresco.sim import run_tournament
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
    argv = sys.argv[1:] if argv is None else argv
    if "--worker" in argv:
        return worker(argv)
    sys.path.insert(0, str(Path(__file__).resolve().parent))
    from baseline import BASELINE_REV, SRC, interleave, machine_load, median_of, source_tree
    from affresco.bots import bot_menu, parse_spec

    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--sims", type=int, default=100, help="SearchBot simulations per decision (default 100)")
    ap.add_argument("--positions", type=int, default=2,
                    help="positions per configuration (6 configurations: 2-4 players, base and modules; default 2)")
    ap.add_argument("--heuristic-games", type=int, default=6, help="whole heuristic games per block (default 6)")
    ap.add_argument("--blocks", type=int, default=3, help="interleaved blocks per tree (default 3)")
    ap.add_argument("--baseline", default=BASELINE_REV, help=f"baseline revision or a folder holding an affresco package (default {BASELINE_REV}, today's "
                    "code when issue #16 was filed)")
    ap.add_argument("--new-src", metavar="DIR", help="the new code's src/ folder (default: this checkout's)")
    ap.add_argument("--pin", action="store_true", help="run every block on one core (taskset)")
    ap.add_argument("--bots", default="heuristic", type=lambda text: parse_spec(text).label,
                    help="the bot spec of every seat in the tournament runs (default: heuristic)")
    ap.add_argument("--games", type=int, default=40, help="games per tournament run (default 40)")
    ap.add_argument("--workers", type=int, default=2, help="worker processes of the parallel runs (default 2)")
    ap.add_argument("--no-tournament", action="store_true", help="leave the tournament runs out")
    ap.add_argument("--ray", action="store_true", help="also run the tournament on a local Ray instance")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--quick", action="store_true", help="~1 minute: 40 simulations, 1 position per "
                    "configuration, 3 heuristic games, 2 blocks, 10 tournament games")
    ap.add_argument("--json", metavar="FILE", help="also write the results as JSON")
    args = ap.parse_args(argv)
    if args.quick:
        args.sims, args.positions, args.heuristic_games, args.blocks, args.games = 40, 1, 3, 2, 10

    def progress(text: str) -> None:
        print(f"  {text}", file=sys.stderr, flush=True)

    print(f"affresco {getattr(affresco, '__version__', '?')} | Python {platform.python_version()} | "
          f"{platform.machine()} | bots: {', '.join(b['name'] for b in bot_menu())} | baseline {args.baseline}")
    print(f"at the start: {machine_load()}")
    trees = {"new": Path(args.new_src) if args.new_src else SRC, "baseline": source_tree(args.baseline)}
    positions = sample_positions(args.positions, args.seed)
    tmp = tempfile.NamedTemporaryFile("w", suffix=".json", delete=False)
    with tmp:
        json.dump(positions, tmp)
    here = str(Path(__file__).resolve())
    results: dict = {"load_start": machine_load(), "baseline": args.baseline}
    try:
        search = interleave(lambda src: [sys.executable, here, "--worker", "search", "--positions", tmp.name,
                                         "--sims", str(args.sims), "--seed", str(args.seed)],
                            trees, blocks=args.blocks, pin=args.pin, progress=lambda t: progress(f"search {t}"))
        heuristic = interleave(lambda src: [sys.executable, here, "--worker", "heuristic", "--games",
                                            str(args.heuristic_games), "--seed", str(args.seed)],
                               trees, blocks=args.blocks, pin=args.pin, progress=lambda t: progress(f"heuristic {t}"))
        progress(f"search on {args.workers} workers")
        try:
            parallel = {w: worker_search(positions, args.sims * args.workers, args.seed, w) for w in (1, args.workers)}
        except Exception as e:  # a tree whose SearchBot has no workers option
            progress(f"no parallel search: {e}")
            parallel = {}
    finally:
        os.unlink(tmp.name)
    new_s, old_s = median_of(search["new"], "sims_per_s"), median_of(search["baseline"], "sims_per_s")
    new_c, old_c = median_of(search["new"], "sims_per_cpu_s"), median_of(search["baseline"], "sims_per_cpu_s")
    print()
    print(show(f"SearchBot, {args.sims} simulations per decision, {len(positions)} positions (2-4 players, base "
               f"and {'+'.join(BASELINE_MODULES)}), medians of {args.blocks} interleaved blocks",
               ["measure", "baseline", "new", "ratio"],
               [["simulations / s", f"{old_s:,.0f}", f"{new_s:,.0f}", f"{new_s / old_s:.2f}x"],
                ["simulations / CPU-second", f"{old_c:,.0f}", f"{new_c:,.0f}", f"{new_c / old_c:.2f}x"]]))
    new_h, old_h = median_of(heuristic["new"], "us_per_decision"), median_of(heuristic["baseline"], "us_per_decision")
    new_hc = median_of(heuristic["new"], "us_per_cpu_decision")
    old_hc = median_of(heuristic["baseline"], "us_per_cpu_decision")
    print()
    print(show(f"HeuristicBot, {args.heuristic_games} whole games per block (every seat heuristic)",
               ["measure", "baseline", "new", "speed-up"],
               [["decisions per block", str(heuristic["baseline"][0]["decisions"]), str(heuristic["new"][0]["decisions"]), ""],
                ["us per decision", f"{old_h:,.0f}", f"{new_h:,.0f}", f"{old_h / new_h:.2f}x"],
                ["us of CPU per decision", f"{old_hc:,.0f}", f"{new_hc:,.0f}", f"{old_hc / new_hc:.2f}x"]]))
    if parallel:
        one, many = parallel[1], parallel[args.workers]
        print()
        print(show(f"SearchBot (this tree), {args.sims * args.workers} simulations per decision, 1 against "
                   f"{args.workers} worker processes (root-parallel)",
                   ["workers", "simulations / s", "speed-up"],
                   [["1", f"{one['sims_per_s']:,.0f}", "1.00x"],
                    [str(args.workers), f"{many['sims_per_s']:,.0f}", f"{many['sims_per_s'] / one['sims_per_s']:.2f}x"]]))
    results.update(search=search, heuristic=heuristic, parallel=parallel)
    print(f"\nafter the bot measures: {machine_load()}")

    if not args.no_tournament:
        runs = [bench_tournament(args.bots, args.games, 1, args.seed)]
        progress(f"in-process run done in {runs[-1]['seconds']:.1f} s")
        runs.append(bench_tournament(args.bots, args.games, args.workers, args.seed))
        progress(f"{args.workers}-process run done in {runs[-1]['seconds']:.1f} s")
        if args.ray:
            runs.append(bench_tournament(args.bots, args.games, args.workers, args.seed, ray="local"))
        base = runs[0]["games_per_s"]
        print()
        print(show(f"Tournament (this tree), 4 players, {args.bots} in every seat, {args.games} games",
                   ["backend", "workers", "games/s", "steady games/s", "speed-up", "games/CPU-s", "actions/game"],
                   [[r["backend"], str(r["workers"]), f"{r['games_per_s']:.2f}", f"{r['steady_games_per_s']:.2f}",
                     f"{r['games_per_s'] / base:.2f}x", f"{r['games_per_cpu_s']:.2f}", f"{r['actions_per_game']:.0f}"]
                    for r in runs]))
        results["tournament"] = runs
        print(f"\nat the end: {machine_load()} (games/CPU-s is less sensitive to other work than games/s)")
    results["load_end"] = machine_load()
    if args.json:
        Path(args.json).write_text(json.dumps(results, indent=1))
    return 0


if __name__ == "__main__":
    sys.exit(main())
