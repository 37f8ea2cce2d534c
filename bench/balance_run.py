#!/usr/bin/env python3
"""Play several balance settings side by side: game k of every setting before game k+1 of
any, on a pool of worker processes, each setting's results streamed to its own results file
(the same rows and records as ``affresco tournament`` with the same seed, bots and modules:
``affresco.sim.play_one``).  When time runs out (Ctrl-C, a kill, ``--until``), every setting
has about the same number of finished games, each kept on disk.

    python bench/balance_run.py --games 2000 --workers 2 --seed 2026 --out runs/ \\
        p2_bells:2:bells p2_wall:2:wall_fresco p2_medico:2:medico \\
        p2_all8:2:portraits,requests,special_colours,scrolls,bishops_favour,bells,wall_fresco,medico \\
        p4_all8:4:portraits,requests,special_colours,scrolls,bishops_favour,bells,wall_fresco,medico
    python bench/balance.py runs/p2_base.csv runs/p2_bells.csv ...   # the tables

Each setting is ``NAME:PLAYERS:MODULES`` (modules comma-separated, empty for none); every
seat plays ``--bot`` (default heuristic).
"""
from __future__ import annotations

import argparse
import sys
import time
from concurrent.futures import FIRST_COMPLETED, ProcessPoolExecutor, wait
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from affresco.sim import ResultsWriter, play_one, read_records  # noqa: E402


def _play(job):
    name, players, bots, modules, seed, k = job
    return name, play_one(players, bots, modules, None, seed, k)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("settings", nargs="+", metavar="NAME:PLAYERS:MODULES")
    ap.add_argument("--games", type=int, default=2000)
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--seed", type=int, default=2026)
    ap.add_argument("--bot", default="heuristic")
    ap.add_argument("--out", default="runs")
    ap.add_argument("--until", type=float, default=None, metavar="UNIX_TIME",
                    help="start no game after this time (finished games are kept)")
    ap.add_argument("--skip-done", metavar="DIR", default=None,
                    help="skip the games already in DIR/NAME.jsonl (an earlier run; merge the files after)")
    args = ap.parse_args(argv)
    settings = []
    for text in args.settings:
        name, players, modules = text.split(":")
        settings.append((name, int(players), tuple(m for m in modules.split(",") if m)))
    writers = {name: ResultsWriter(Path(args.out) / f"{name}.csv") for name, _, _ in settings}
    done_before = {name: set() for name in writers}
    if args.skip_done:
        for name in done_before:
            old = Path(args.skip_done) / f"{name}.jsonl"
            if old.exists():
                done_before[name] = {r["tournament"]["game"] for r in read_records(old)}
    jobs = iter([(name, p, [args.bot] * p, mods, args.seed, k)
                 for k in range(args.games) for name, p, mods in settings if k not in done_before[name]])
    done = {name: 0 for name in writers}
    start = time.time()
    try:
        with ProcessPoolExecutor(args.workers) as pool:
            running = set()
            while True:
                while len(running) < 2 * args.workers and (args.until is None or time.time() < args.until):
                    job = next(jobs, None)
                    if job is None:
                        break
                    running.add(pool.submit(_play, job))
                if not running:
                    break
                finished, running = wait(running, return_when=FIRST_COMPLETED)
                for f in finished:
                    name, (k, rows, record) = f.result()
                    writers[name].add(k, rows, record)
                    done[name] += 1
                print(f"{time.time() - start:7.0f} s  " + "  ".join(f"{n} {c}" for n, c in done.items()),
                      flush=True)
    except KeyboardInterrupt:
        pass
    finally:
        for w in writers.values():
            w.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
