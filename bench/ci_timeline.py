"""Where CI's test time goes (issue #12: CI under 12 minutes): per test, its worker, start and end,
and the CPU time of its worker and of the child processes it reaped.

As a pytest plugin, one JSON line per test into ``$CI_TIMELINE_DIR/tl-<worker>.jsonl``::

    PYTHONPATH=src:bench CI_TIMELINE_DIR=/tmp/tl pytest -p ci_timeline -n auto --dist worksteal ...

Then the summary (span, CPU, each worker's busy time and last end, the tail, the costliest tests
with their start, the costliest files)::

    python bench/ci_timeline.py /tmp/tl [files]

CPU-seconds move far less with the machine's load than wall times; a browser's or a server's
CPU counts only where its process is reaped (a module's fixture: the file's last test), and
processes that are not the tests' children (a Ray cluster's daemons) are not counted.  Nor are
chromium's renderers, where a browser's CPU is: its zygote forks them, and init reaps them when
the browser closes (a whole browser game: ~65 CPU-s of chromium, none of it counted here nor by
``/usr/bin/time``).  ``bench/cpu_tree.py`` samples the whole process tree of a command.
"""
from __future__ import annotations

import collections
import glob
import json
import os
import resource
import sys
import time

import pytest

_out = None


def _cpu() -> tuple[float, float]:
    own, kids = resource.getrusage(resource.RUSAGE_SELF), resource.getrusage(resource.RUSAGE_CHILDREN)
    return own.ru_utime + own.ru_stime, kids.ru_utime + kids.ru_stime


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_protocol(item, nextitem):
    global _out
    t0, (a0, b0) = time.time(), _cpu()
    yield
    t1, (a1, b1) = time.time(), _cpu()
    worker = os.environ.get("PYTEST_XDIST_WORKER", "main")
    if _out is None:
        _out = open(os.path.join(os.environ.get("CI_TIMELINE_DIR", "."), f"tl-{worker}.jsonl"), "a")
    _out.write(json.dumps({"id": item.nodeid, "w": worker, "t0": t0, "t1": t1, "cpu": a1 - a0, "child": b1 - b0}) + "\n")
    _out.flush()


def summary(folder: str, files: int = 40) -> None:
    rows = [json.loads(line) for f in glob.glob(os.path.join(folder, "tl-*.jsonl")) for line in open(f)]
    start, end = min(r["t0"] for r in rows), max(r["t1"] for r in rows)
    print(f"{len(rows)} tests over {end - start:.0f} s: {sum(r['cpu'] for r in rows):.0f} CPU-s in the workers, "
          f"{sum(r['child'] for r in rows):.0f} in reaped children")
    workers = collections.defaultdict(list)
    for r in rows:
        workers[r["w"]].append(r)
    for w, rs in sorted(workers.items()):
        print(f"{w}: busy {sum(r['t1'] - r['t0'] for r in rs):.0f} s, last test ended at {max(r['t1'] for r in rs) - start:.0f} s")
    ends = sorted(max(r["t1"] for r in rs) for rs in workers.values())
    if len(ends) > 1:
        print(f"tail (the last worker alone after the first one ended): {ends[-1] - ends[0]:.0f} s")
    print("the costliest tests (CPU with reaped children) and when they started:")
    for r in sorted(rows, key=lambda r: -(r["cpu"] + r["child"]))[:10]:
        print(f"  {r['cpu'] + r['child']:6.1f} CPU-s  start {r['t0'] - start:6.0f} s  {r['w']}  {r['id']}")
    per_file = collections.defaultdict(lambda: [0.0, 0.0, 0.0, 0])
    for r in rows:
        x = per_file[r["id"].split("::")[0]]
        x[0] += r["t1"] - r["t0"]
        x[1] += r["cpu"]
        x[2] += r["child"]
        x[3] += 1
    print(f"{'wall':>7} {'CPU':>7} {'child':>6} {'tests':>5}  file")
    for name, (wall, cpu, child, n) in sorted(per_file.items(), key=lambda kv: -(kv[1][1] + kv[1][2]))[:files]:
        print(f"{wall:7.1f} {cpu:7.1f} {child:6.1f} {n:5d}  {name}")


if __name__ == "__main__":
    summary(sys.argv[1], int(sys.argv[2]) if len(sys.argv) > 2 else 40)
