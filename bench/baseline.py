"""Measure today's code against a baseline revision in one run, as ratios (issues #11, #16).

The benchmarks compare the working tree with an earlier commit of this repository on the same
machine in the same minutes: the baseline's ``src/`` is exported once with ``git archive`` into a
cache folder, and each measurement runs in a fresh interpreter whose ``PYTHONPATH`` points at one
tree or the other.  Blocks alternate (new, baseline, new, baseline, ...) so that a change in the
machine's load hits both sides; the medians of the blocks are compared.

    from baseline import BASELINE_REV, source_tree, interleave, machine_load

    trees = {"new": SRC, "baseline": source_tree(BASELINE_REV)}
    results = interleave(lambda src: [sys.executable, __file__, "--worker", ...], trees, blocks=5)
    # results["new"] / results["baseline"]: one parsed JSON object per block

A worker prints one JSON object on its last line of standard output.
"""
from __future__ import annotations

import json
import os
import statistics
import subprocess
import sys
import tarfile
import io
from pathlib import Path
from typing import Callable, Mapping

ROOT = Path(__file__).resolve().parent.parent
SRC = ROOT / "src"
# The code as it stood when issues #11 and #16 were filed (before the structured events).
BASELINE_REV = "bf4f55c"
CACHE = Path(os.environ.get("AFFRESCO_BENCH_CACHE", Path.home() / ".cache" / "affresco-bench"))


def source_tree(rev: str = BASELINE_REV) -> Path:
    """The ``src/`` folder of revision ``rev``, exported once into the cache; returns its path.
    ``rev`` may also be a folder holding an ``affresco`` package (e.g. a compiled install,
    ``pip install --target DIR``, or this checkout's ``src``): it is used as it is."""
    if (Path(rev) / "affresco").is_dir():
        return Path(rev).resolve()
    full = subprocess.run(["git", "-C", str(ROOT), "rev-parse", "--verify", f"{rev}^{{commit}}"],
                          capture_output=True, text=True)
    if full.returncode != 0:
        raise SystemExit(f"baseline revision {rev!r} is not in this clone's history "
                         f"(git says: {full.stderr.strip()}); pass --baseline REV or fetch it")
    target = CACHE / full.stdout.strip()[:12]
    src = target / "src"
    if not (src / "affresco").is_dir():
        data = subprocess.run(["git", "-C", str(ROOT), "archive", full.stdout.strip(), "src"],
                              capture_output=True, check=True).stdout
        target.mkdir(parents=True, exist_ok=True)
        with tarfile.open(fileobj=io.BytesIO(data)) as tar:
            tar.extractall(target, filter="data")
    return src


def run_worker(cmd: list[str], src: Path, pin: bool = False) -> dict:
    """Run ``cmd`` with ``src`` first on PYTHONPATH; parse the JSON on its last output line."""
    env = dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0")
    if pin and sys.platform.startswith("linux"):
        cmd = ["taskset", "-c", str(min(os.sched_getaffinity(0))), *cmd]
    out = subprocess.run(cmd, env=env, capture_output=True, text=True)
    if out.returncode != 0:
        raise SystemExit(f"worker failed on {src}:\n{out.stderr[-3000:]}")
    return json.loads(out.stdout.strip().splitlines()[-1])


def interleave(command: Callable[[Path], list[str]], trees: Mapping[str, Path], blocks: int = 5,
               pin: bool = False, progress: Callable[[str], None] | None = None) -> dict[str, list[dict]]:
    """Run ``command(src)`` for each tree in turn, ``blocks`` times; the results per tree label."""
    results: dict[str, list[dict]] = {label: [] for label in trees}
    for b in range(blocks):
        order = list(trees.items()) if b % 2 == 0 else list(trees.items())[::-1]
        for label, src in order:
            if progress:
                progress(f"block {b + 1}/{blocks}: {label}")
            results[label].append(run_worker(command(src), src, pin=pin))
    return results


def median_of(blocks: list[dict], key: str) -> float:
    return statistics.median(b[key] for b in blocks)


def machine_load() -> str:
    """The 1/5/15-minute load averages and the core count, for the report."""
    try:
        one, five, fifteen = os.getloadavg()
    except OSError:
        return "load unknown"
    return f"load average {one:.2f} / {five:.2f} / {fifteen:.2f} on {os.cpu_count()} cores"
