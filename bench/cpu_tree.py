"""The CPU time of a command and of every process it starts, also those that escape ``wait()``
(issue #12's CI time).

``/usr/bin/time`` and ``ci_timeline`` count a process's CPU only where its parent reaps it.
Chromium's renderers are forked by its zygote and, when the browser closes, are reparented to
init and reaped there: their CPU is in no rusage of the test run (one whole browser game at phone
size: ~65 CPU-s of chromium, ~27 CPU-s counted by ``/usr/bin/time``; bench/README.md "### Measured:
session 22, ci25b").  The same holds for daemons (a Ray cluster's).  This runs the command and
samples ``/proc`` every ``--every`` seconds: every process whose parent is the command or one of
its descendants joins the tree, and keeps its last sampled CPU (user+system) after it is gone.
What a process spends in its last interval before it exits, and processes that live less than an
interval, are missed (a lower bound; the rusage of the reaped ones says how much)::

    python bench/cpu_tree.py [--every 0.2] -- pytest -n 0 tests/server/test_web_phone.py

It prints, per process kind (its name, chromium's ``--type``), the CPU-seconds, then the sum,
the wall time and the command's own rusage of its reaped children (what ``/usr/bin/time`` says).
"""
from __future__ import annotations

import collections
import os
import resource
import subprocess
import sys
import time

TICK = os.sysconf("SC_CLK_TCK")


def _kind(pid: str, comm: str) -> str | None:
    """The process's name, and chromium's process type; None for a chromium zombie (no cmdline)."""
    if not comm.startswith("chrom"):
        return comm
    try:        # chromium rewrites its children's argv into one space-separated string
        args = open(f"/proc/{pid}/cmdline").read().replace("\0", " ").split()
    except OSError:
        return None
    if not args:
        return None
    kind = next((a[len("--type="):] for a in args if a.startswith("--type=")), "browser")
    sub = next((a.split("=", 1)[1] for a in args if a.startswith("--utility-sub-type=")), "")
    return f"chromium {kind} {sub}".rstrip()


def _processes() -> dict[int, tuple[int, int, str, float]]:
    """pid -> (parent, start tick, name, CPU-s so far) of every process now."""
    out = {}
    for pid in os.listdir("/proc"):
        if not pid.isdigit():
            continue
        try:
            with open(f"/proc/{pid}/stat") as f:
                stat = f.read()
        except OSError:
            continue
        close = stat.rfind(")")
        comm = stat[stat.find("(") + 1:close]
        fields = stat[close + 2:].split()
        out[int(pid)] = (int(fields[1]), int(fields[19]), comm, (int(fields[11]) + int(fields[12])) / TICK)
    return out


def run(cmd: list[str], every: float = 0.2) -> int:
    t0 = time.monotonic()
    proc = subprocess.Popen(cmd)
    tree = {proc.pid}
    last: dict[tuple[int, int], list] = {}         # (pid, start) -> [first name, kind, CPU-s]
    while proc.poll() is None:
        now = _processes()
        grew = True
        while grew:                                 # children of the tree join it, at any depth
            grew = False
            for pid, (parent, *_rest) in now.items():
                if pid not in tree and parent in tree:
                    tree.add(pid)
                    grew = True
        for pid in tree:
            if pid in now:
                _parent, start, comm, cpu = now[pid]
                kind = _kind(str(pid), comm)        # again each time: an exec, a zygote's fork
                seen = last.setdefault((pid, start), [comm, kind or comm, cpu])
                seen[1:] = [kind or seen[1], cpu]
        time.sleep(every)
    wall = time.monotonic() - t0
    kinds: dict[str, float] = collections.defaultdict(float)
    for _comm, kind, cpu in last.values():
        kinds[kind] += cpu
    for kind, cpu in sorted(kinds.items(), key=lambda kv: -kv[1]):
        if cpu >= 0.05:
            print(f"{cpu:9.2f} CPU-s  {kind}", file=sys.stderr)
    reaped = resource.getrusage(resource.RUSAGE_CHILDREN)
    print(f"{sum(kinds.values()):9.2f} CPU-s sampled in {len(last)} processes, {wall:.1f} s wall; "
          f"reaped (what /usr/bin/time counts): {reaped.ru_utime + reaped.ru_stime:.2f} CPU-s", file=sys.stderr)
    return proc.returncode


if __name__ == "__main__":
    args = sys.argv[1:]
    every = 0.2
    if args[:1] == ["--every"]:
        every, args = float(args[1]), args[2:]
    if args[:1] == ["--"]:
        args = args[1:]
    sys.exit(run(args, every))
