#!/usr/bin/env python3
"""Engine instructions per decision, counted by valgrind, against a baseline revision (issue #12).

On a machine shared with other work, CPU-time ratios of two runs move by about 10%; the number
of machine instructions the interpreter executes for the same games does not (hash seed fixed,
garbage collector off): a change of a few percent to the engine shows as a stable difference.
It is a proxy, not the time: the modules' code runs fewer instructions per second than the base
game's, so a time ratio (bench_engine.py) stays higher than the instruction ratio.

For each module set, seeded 4-player random games are recorded on this checkout (the same games
on both trees: bench/same_games.py checks that), then replayed on each tree under
``valgrind --tool=cachegrind --cache-sim=no``: once with the first ``--warm`` games, once with
``--games`` more, and the difference is divided by those games' decisions, the steady cost of a
decision without the start-up (imports, component data, first memo entries).  A replay asks for
the legal actions before each action, except at plan decisions: their legal lists are the plan
lists that bench_engine.py reports apart, so this is the work outside them.

    python bench/bench_instructions.py                          # baseline main; base and all eight
    python bench/bench_instructions.py --baseline HEAD~2 --sets base bells medico eight --games 6
    python bench/bench_instructions.py --live --baseline 4180999 --games 6       # with the plan lists
    python bench/bench_instructions.py --plans --baseline 501db5e --games 6      # the same games, plan lists too
    python bench/bench_instructions.py --live --gc --baseline 94e78c8 --games 6  # and the collector on
    python bench/bench_instructions.py --live --new-src build/compiled --baseline /tmp/old-compiled
    python bench/bench_instructions.py --parts --baseline ea5e382 --games 6 --sets eight   # by part (callgrind)
    python bench/bench_instructions.py --live --sim --baseline 501db5e --games 6   # and cache misses, mispredictions
    python bench/bench_instructions.py --live --sim --l2 --baseline dce8c49 --games 6   # misses out of this machine's L2
    python bench/bench_instructions.py --live --sim --ll 2048 --baseline e4d81a0 --games 6   # ... out of a 2 MB one
    python bench/bench_instructions.py --parts --sim --l2 --baseline e4d81a0 --games 4 --sets eight   # by part
    python bench/bench_instructions.py --kinds --baseline f4d1d9d --games 6   # visit-phase applies by kind (callgrind)
    python bench/bench_instructions.py --hooks --baseline 7d7619b --games 4 --sets eight   # plan applies' hooks

Needs valgrind (Debian: ``apt-get install valgrind``); each replay runs ~40x slower under it
(about a minute per set and tree with the defaults).
"""
from __future__ import annotations

import argparse
import gc
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path
from typing import Any, Callable

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import SRC, machine_load, run_worker, source_tree  # noqa: E402

FIVE = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")
NEW = ("bells", "wall_fresco", "medico")
SETS = {"base": (), **{m: (m,) for m in FIVE + NEW}, "five": FIVE, "eight": FIVE + NEW,
        "seven": FIVE + NEW[:2]}     # all eight but the medico: the tile modules' plans without its variants


# --- the workers (run inside the tree measured) ------------------------------------------

def record(modules: tuple, count: int) -> list:
    """The actions of ``count`` seeded random games (seeds 1, 2, ...), as bench_engine plays them."""
    import affresco
    games = []
    for seed in range(1, count + 1):
        g = affresco.new_game(players=4, seed=seed, modules=modules)
        choice = random.Random(seed).choice
        while not g.is_over:
            seat = choice(g.to_act)
            g.apply(seat, choice(g.legal_actions(seat)))
        games.append(g.record()["actions"])
    return games


def replay(modules: tuple, path: str, count: int, plans: bool = False) -> None:
    """Replay the first ``count`` recorded games (every game's actions read first, so that the
    difference of two counts holds only the games).  ``plans``: at a plan decision, also make
    the legal list and choose a seeded random plan in it (the recorded plan is applied)."""
    import affresco
    from affresco.rules.actions import parse
    games = [[(seat, parse(text)) for seat, text in actions] for actions in json.loads(Path(path).read_text())]
    gc.disable()
    for seed, actions in enumerate(games[:count], start=1):
        g = affresco.new_game(players=4, seed=seed, modules=modules)
        choice = random.Random(seed).choice
        for seat, action in actions:
            if g.phase != "plan":
                g.legal_actions(seat)
            elif plans:
                choice(g.legal_actions(seat))
            g.apply(seat, action)


def live(modules: tuple, count: int, collector: bool = False, play: bool = True) -> None:
    """As a block of bench_engine.py's module table plays them: one warm-up game of every module
    set of that table, then ``count`` seeded random games (seeds 1, 2, ...) of ``modules``,
    every decision's legal actions made (plan lists too) and chosen in; prints their decisions.
    ``collector``: the garbage collector stays on (as in bench_engine.py's timed games).
    ``play=False`` (the count's calibration): the same games set up (``new_game`` and the seeded
    choice, which bench_engine.py leaves out of a game's time) and let go unplayed; prints 0."""
    import affresco
    import bench_engine
    for mods in bench_engine.MODULE_SETS:
        bench_engine._random_game(affresco, 4, bench_engine.WARM_SEED, mods)
    gc.collect()
    if not collector:
        gc.disable()
    if not play:
        for seed in range(1, count + 1):
            affresco.new_game(players=4, seed=seed, modules=modules), random.Random(seed).choice
        print(0)
        return
    print(sum(bench_engine._random_game(affresco, 4, seed, modules)[0] for seed in range(1, count + 1)))


# The parts of a decision that --parts counts apart: each runs inside its own rarely used C
# function (a "trampoline"), so that callgrind's inclusive count of that function is the part's.
# The random choice in a plan list (the pick of a lazy plan sequence), the reveal and the round
# end run inside a plan list or an apply (counted there too).
PARTS = {"plan lists": "starmap_next", "of it the random choice": "functools_reduce",
         "plan applies": "takewhile_next", "of it the reveal": "dropwhile_next",
         "visit legal lists": "_operator_call", "visit applies": "methodcaller_call",
         "of it the round end": "filterfalse_next", "get-up": "groupby_next"}


def trampoline(name: str, fn):
    """Run ``fn()`` inside the rarely used C function ``name`` (of :data:`PARTS` or :data:`KINDS`),
    whose inclusive count callgrind then gives; returns what ``fn()`` returned."""
    import functools
    import itertools
    import operator

    box: list = []
    call = lambda *_: box.append(fn())                            # noqa: E731
    if name == "starmap_next":
        list(itertools.starmap(call, [()]))
    elif name == "takewhile_next":
        list(itertools.takewhile(lambda _: call() or False, [0]))
    elif name == "dropwhile_next":
        list(itertools.dropwhile(lambda _: call() or False, [0]))
    elif name == "functools_reduce":
        functools.reduce(lambda *_: call(), [0, 0])
    elif name == "filterfalse_next":
        list(itertools.filterfalse(lambda _: call() or True, [0]))
    elif name == "_operator_call":
        operator.call(call)
    elif name == "methodcaller_call":
        operator.methodcaller("__call__")(call)
    elif name == "partial_vectorcall":
        functools.partial(call)()
    else:
        list(itertools.groupby([0], key=call))
    return box[0]


def parts(modules: tuple, count: int) -> None:
    """:func:`live`'s games, with each part of a decision (:data:`PARTS`) inside its trampoline."""
    import affresco
    import bench_engine
    from affresco.rules import planning, preparation

    def via(part: str, fn):
        """Run ``fn()`` inside the part's C function; returns what it returned."""
        return trampoline(PARTS[part], fn)

    for mods in bench_engine.MODULE_SETS:
        bench_engine._random_game(affresco, 4, bench_engine.WARM_SEED, mods)
    reveal, end_round = planning.reveal, preparation.end_round
    planning.reveal = lambda s: via("of it the reveal", lambda: reveal(s))             # type: ignore[assignment]
    preparation.end_round = lambda s: via("of it the round end", lambda: end_round(s))  # type: ignore[assignment]
    gc.collect()
    gc.disable()
    decisions = 0
    for seed in range(1, count + 1):
        g = affresco.new_game(players=4, seed=seed, modules=modules)
        choice = random.Random(seed).choice
        while not g.is_over:
            seat = choice(g.to_act)
            phase = g.phase
            legal, apply = (("plan lists", "plan applies") if phase == "plan" else
                            ("get-up", "get-up") if phase == "getup" else ("visit legal lists", "visit applies"))
            if phase == "plan":
                def plan_list():
                    plans = g.legal_actions(seat)
                    return via("of it the random choice", lambda: choice(plans))
                action = via(legal, plan_list)
            else:
                action = via(legal, lambda: choice(g.legal_actions(seat)))
            via(apply, lambda: g.apply(seat, action))
            decisions += 1
    print(decisions)


# The kinds of visit-phase decisions that --kinds counts apart (the apply of each, with the way to
# the next decision: the turns and hooks on the way, the next legal list, a round end), each inside
# its own C function as --parts does.
KINDS = {"visit market": "starmap_next", "visit cathedral": "takewhile_next", "visit studio": "dropwhile_next",
         "visit workshop": "functools_reduce", "visit theater": "filterfalse_next", "ask bells": "_operator_call",
         "ask medico": "methodcaller_call", "ask wall_fresco": "groupby_next",
         "other asks, VP track": "partial_vectorcall"}


def kinds(modules: tuple, count: int) -> None:
    """:func:`live`'s games, each visit-phase decision's apply inside the trampoline of its kind
    (:data:`KINDS`); prints the decisions and the count of each kind."""
    import affresco
    import bench_engine
    for mods in bench_engine.MODULE_SETS:
        bench_engine._random_game(affresco, 4, bench_engine.WARM_SEED, mods)
    gc.collect()
    gc.disable()
    decisions, seen = 0, dict.fromkeys(KINDS, 0)
    for seed in range(1, count + 1):
        g = affresco.new_game(players=4, seed=seed, modules=modules)
        choice = random.Random(seed).choice
        while not g.is_over:
            seat = choice(g.to_act)
            action = choice(g.legal_actions(seat))
            decisions += 1
            if g.phase in ("plan", "getup"):
                g.apply(seat, action)
                continue
            view = g.view(seat, log=False)     # (outside the trampolines: not counted)
            ask = view["asks"][0][1] if view["asks"] else None
            kind = (f"ask {ask}" if ask else "other asks, VP track" if view["pending_track"]
                    else "visit " + view["location"])
            kind = kind if kind in KINDS else "other asks, VP track"
            seen[kind] += 1
            trampoline(KINDS[kind], lambda: g.apply(seat, action))
    print(json.dumps(seen))
    print(decisions)


# --hooks: the plan decisions' applies, and inside them each module's hook of the plan (``plan_apply``) and of
# the reveal (``after_planning``) and the chance events' generators (``chance``: the medico's infection draw),
# each inside its own C function (as --parts does), given out in this order to the parts of the set played
# (``partial_vectorcall`` last: holding the generators it read ~4k more a plan decision than the others)
HOOK_TRAMPOLINES = ("groupby_next", "filterfalse_next", "starmap_next", "takewhile_next", "dropwhile_next",
                    "functools_reduce", "_operator_call", "methodcaller_call", "partial_vectorcall")


def plan_hooks(modules: tuple, count: int) -> None:
    """:func:`live`'s games, each plan decision's apply inside a trampoline, and inside it each module's
    ``plan_apply`` and ``after_planning`` hook and the generators of the chance events (``chance``) in
    their own (:data:`HOOK_TRAMPOLINES`); prints the parts' trampolines (JSON), then the plan decisions."""
    import affresco
    import bench_engine
    from affresco.rules import chance as chance_module

    for mods in bench_engine.MODULE_SETS:
        bench_engine._random_game(affresco, 4, bench_engine.WARM_SEED, mods)
    names = {"plan applies": HOOK_TRAMPOLINES[0], "of them chance generators": HOOK_TRAMPOLINES[1]}
    table = affresco.new_game(players=4, seed=1, modules=modules).state.hooks
    for point in ("plan_apply", "after_planning"):
        for hook in getattr(table, point):
            if len(names) == len(HOOK_TRAMPOLINES):
                raise SystemExit(f"--hooks: more plan hooks than the {len(HOOK_TRAMPOLINES)} trampolines")
            names[f"of them {hook.__self__.name} {point}"] = HOOK_TRAMPOLINES[len(names)]

    def wrapped(point: str) -> Callable[[Any], Any]:
        """Replace a hook table's hooks of ``point`` by the same hooks, each inside its trampoline."""
        return lambda hook: (lambda *a: trampoline(names[f"of them {hook.__self__.name} {point}"], lambda: hook(*a)))

    made = chance_module.chance
    in_plan = [False]

    def chance(s: Any) -> Any:
        return trampoline(names["of them chance generators"], lambda: made(s)) if in_plan[0] else made(s)
    for module in list(sys.modules.values()):     # every rules module that took ``chance`` by name
        if getattr(module, "__name__", "").startswith("affresco.rules") and getattr(module, "chance", None) is made:
            module.chance = chance                 # type: ignore[attr-defined]
    gc.collect()
    gc.disable()
    plans, seen = 0, set()
    for seed in range(1, count + 1):
        g = affresco.new_game(players=4, seed=seed, modules=modules)
        hooks = g.state.hooks
        if id(hooks) not in seen:      # the hook table is shared by the games of one set-up
            seen.add(id(hooks))
            hooks.plan_apply = tuple(map(wrapped("plan_apply"), hooks.plan_apply))
            hooks.after_planning = tuple(map(wrapped("after_planning"), hooks.after_planning))
        choice = random.Random(seed).choice
        while not g.is_over:
            seat = choice(g.to_act)
            action = choice(g.legal_actions(seat))
            if g.phase != "plan":
                g.apply(seat, action)
                continue
            in_plan[0] = True
            trampoline(names["plan applies"], lambda: g.apply(seat, action))
            in_plan[0] = False
            plans += 1
    print(json.dumps(names))
    print(plans)


# The counts --parts --sim gives each part besides its instructions: name -> callgrind's events summed
SIM_PARTS = {" misses": ("ILmr", "DLmr", "DLmw"), " L1i": ("I1mr",), " mispredicted": ("Bcm", "Bim")}


def _trampolined(src: Path, worker: str, modules: tuple, count: int,
                 last_level: str | None = None) -> tuple[str, dict[str, int]]:
    """Run the ``worker`` (``parts``, ``kinds`` or ``hooks``) on ``count`` live games under callgrind: its
    output and the inclusive instructions of each trampoline (by its function's name); with
    ``last_level`` (a ``--LL=`` option or "", :func:`last_level`), cachegrind's cache and branch
    simulation too, and ``found[name + tail]`` for each ``tail`` of :data:`SIM_PARTS`: the
    trampoline's last-level misses (instruction and data reads and writes), L1 instruction
    misses and mispredicted branches."""
    with tempfile.TemporaryDirectory() as tmp:
        out_file = str(Path(tmp) / "callgrind.out")
        sim = (["--cache-sim=yes", "--branch-sim=yes", *([last_level] if last_level else [])]
               if last_level is not None else [])
        cmd = ["valgrind", "--tool=callgrind", *sim, f"--callgrind-out-file={out_file}",
               sys.executable, str(Path(__file__).resolve()), "--worker", worker, json.dumps(list(modules)), str(count)]
        run = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0"),
                             capture_output=True, text=True)
        if run.returncode != 0:
            raise SystemExit(f"{worker} failed on {src} ({' '.join(modules) or 'base'}):\n{run.stderr[-2000:]}")
        table = subprocess.run(["callgrind_annotate", "--inclusive=yes", "--threshold=100", out_file],
                               capture_output=True, text=True, check=True).stdout
    shown = re.search(r"Events shown:\s+(.*)", table)
    events = shown.group(1).split() if shown else ["Ir"]
    found: dict[str, int] = {}
    for line in table.splitlines():
        m = re.match(r"\s*([\d,]+) .*:(\w+) \[", line)
        if m and m.group(2) not in found:
            found[m.group(2)] = int(m.group(1).replace(",", ""))
            if last_level is not None:
                counts = dict(zip(events, (int(c.replace(",", "")) for c in re.findall(r"([\d,]+) \(", line))))
                for tail, names in SIM_PARTS.items():
                    found[m.group(2) + tail] = sum(counts.get(e, 0) for e in names)
    return run.stdout, found


def part_counts(src: Path, modules: tuple, count: int, last_level: str | None = None) -> dict[str, float]:
    """Instructions per decision of each part (:data:`PARTS`) of ``count`` live games under callgrind;
    with ``last_level`` also ``counts[part + tail]`` per decision for each tail of :data:`SIM_PARTS`."""
    out, found = _trampolined(src, "parts", modules, count, last_level)
    decisions = int(out.split()[-1])
    return {part + tail: found.get(name + tail, 0) / decisions for part, name in PARTS.items()
            for tail in ("", *(SIM_PARTS if last_level is not None else ()))}


def hook_counts(src: Path, modules: tuple, count: int, last_level: str | None = None) -> dict[str, float]:
    """Instructions per plan decision of each part of :func:`plan_hooks` over ``count`` live games under
    callgrind; with ``last_level`` also ``counts[part + tail]`` per plan decision for each tail of
    :data:`SIM_PARTS`."""
    out, found = _trampolined(src, "hooks", modules, count, last_level)
    lines = out.strip().split("\n")
    names, plans = json.loads(lines[-2]), int(lines[-1])
    return {part + tail: found.get(name + tail, 0) / plans for part, name in names.items()
            for tail in ("", *(SIM_PARTS if last_level is not None else ()))}


def kind_counts(src: Path, modules: tuple, count: int) -> tuple[dict[str, float], dict[str, int], int]:
    """Instructions per decision of each kind of visit-phase decision (:data:`KINDS`) over ``count``
    live games under callgrind, the decisions of each kind, and all the games' decisions."""
    out, found = _trampolined(src, "kinds", modules, count)
    seen, decisions = json.loads(out.split("\n")[0]), int(out.split()[-1])
    return {kind: found.get(name, 0) / decisions for kind, name in KINDS.items()}, seen, decisions


# --- the driver --------------------------------------------------------------------------

def instructions(src: Path, modules: tuple, path: str | None, count: int, collector: bool = False,
                 plans: bool = False, setup: bool = False) -> tuple[int, str]:
    """Instructions of one replay of ``count`` games under cachegrind (``plans``: with the plan
    lists, :func:`replay`; ``path`` None: ``count`` live games, :func:`live`, with the garbage
    collector on if ``collector``, only set up and let go if ``setup``), and what the worker printed."""
    job = ["replay", json.dumps(list(modules)), str(path), str(count), *(["plans"] if plans else [])] if path else \
        ["live", json.dumps(list(modules)), str(count), *(["gc"] if collector else []), "setup" if setup else "games"]
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
           sys.executable, str(Path(__file__).resolve()), "--worker", *job]
    out = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0"),
                         capture_output=True, text=True)
    found = re.search(r"I\s+refs:\s+([\d,]+)", out.stderr)
    if out.returncode != 0 or not found:
        raise SystemExit(f"{job[0]} failed on {src} ({' '.join(modules) or 'base'}):\n{out.stderr[-2000:]}")
    return int(found.group(1).replace(",", "")), out.stdout


# cachegrind's summary lines that --sim reads (its cache and branch simulation), and their names here
SIM = {"I1  misses": "L1 instruction misses", "D1  misses": "L1 data misses", "LL misses": "last-level misses",
       "Mispredicts": "mispredicted branches"}


def last_level(kb: int | None, ways: int | None = None) -> str:
    """cachegrind's option sizing its last level as a ``kb`` KB cache of 64-byte lines, ``ways``-way
    (default 8, or 16 from 1 MB: --ll), or "" (None: its default last level, the machine's L3, which
    all of a decision's data fits in)."""
    if kb is None:
        return ""
    ways = ways or (8 if kb < 1024 else 16)
    sets = kb * 1024 // (ways * 64)
    if sets < 1 or sets & (sets - 1) or sets * ways * 64 != kb * 1024:
        raise SystemExit(f"--ll {kb}: the cache's sets ({kb} KB / {ways} ways / 64 B) must be a power of two")
    return f"--LL={kb * 1024},{ways},64"


def machine_l2() -> tuple[int, int]:
    """This machine's L2 (--l2): its size in KB and its ways, read from Linux's
    /sys/devices/system/cpu/cpu0/cache (512 KB 8-way where it cannot be read).  Sessions 14-15 took
    it as 512 KB; session 16's machine reads 1 MB 8-way (AMD Zen 4)."""
    for index in sorted(Path("/sys/devices/system/cpu/cpu0/cache").glob("index*")):
        try:
            if (index / "level").read_text().strip() == "2" and (index / "type").read_text().strip() == "Unified":
                size = (index / "size").read_text().strip()
                kb = int(size[:-1]) * (1024 if size.endswith("M") else 1) if size[-1] in "KM" else int(size) // 1024
                return kb, int((index / "ways_of_associativity").read_text())
        except (OSError, ValueError):
            continue
    return 512, 8


def simulated(src: Path, modules: tuple, count: int, collector: bool = False,
              level: str | None = None, setup: bool = False) -> tuple[dict[str, int], str]:
    """``count`` live games (:func:`live`) under cachegrind with its cache and branch simulation
    (``level``: the ``--LL=`` option sizing its last level, :func:`last_level`): the instructions
    and the counts of :data:`SIM`, and what the worker printed."""
    cmd = ["valgrind", "--tool=cachegrind", "--cache-sim=yes", "--branch-sim=yes", *([level] if level else []),
           "--cachegrind-out-file=/dev/null",
           sys.executable, str(Path(__file__).resolve()), "--worker", "live", json.dumps(list(modules)), str(count),
           *(["gc"] if collector else []), "setup" if setup else "games"]   # one length: the layout alike
    out = subprocess.run(cmd, env=dict(os.environ, PYTHONPATH=str(src), PYTHONHASHSEED="0"),
                         capture_output=True, text=True)
    found = {name: re.search(rf"{line}:\s+([\d,]+)", out.stderr)
             for line, name in {r"I\s+refs": "instructions", **SIM}.items()}
    if out.returncode != 0 or not all(found.values()):
        raise SystemExit(f"live failed on {src} ({' '.join(modules) or 'base'}):\n{out.stderr[-2000:]}")
    return {name: int(hit.group(1).replace(",", "")) for name, hit in found.items() if hit}, out.stdout


def _print_ab(name: str, parts, got: dict, width: int, sim: bool) -> None:
    """One set's table of per-part counts, baseline against new (and, with ``sim``, each part's
    simulated misses and mispredictions); a part the baseline lacks reads 0."""
    print(f"{name}:  {'part':<{width}} {'baseline':>10} {'new':>10}"
          + (f" {'misses: baseline':>17} {'new':>8} {'L1i: baseline':>14} {'new':>8}"
             f" {'mispredicted: baseline':>23} {'new':>8}" if sim else ""))
    old, new = got["baseline"], got["new"]
    for part in parts:
        print(f"{'':<{len(name) + 3}}{part:<{width}} {old.get(part, 0):>10,.0f} {new[part]:>10,.0f}"
              + "".join(f" {old.get(part + tail, 0):>{w},.1f} {new[part + tail]:>8,.1f}"
                        for tail, w in zip(SIM_PARTS, (17, 14, 23)) if sim), flush=True)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--baseline", default="main", help="revision (or folder with an affresco package) to compare with")
    ap.add_argument("--sets", nargs="+", default=["base", "eight"], choices=sorted(SETS), help="module sets")
    ap.add_argument("--games", type=int, default=10, help="games counted per set (default 10)")
    ap.add_argument("--warm", type=int, default=2, help="games played first, not counted (default 2)")
    ap.add_argument("--new-src", metavar="DIR", help="the new code's folder (default: this checkout's src/; "
                    "e.g. a compiled install)")
    ap.add_argument("--live", action="store_true",
                    help="count live random games as bench_engine.py's module table plays them (one warm-up game "
                         "of every set first, plan lists and the random choice included) instead of replays")
    ap.add_argument("--gc", action="store_true",
                    help="with --live: leave the garbage collector on, as bench_engine.py times its games (its "
                         "collections are then counted: they cost the module sets more than the base game)")
    ap.add_argument("--sim", action="store_true",
                    help="with --live: also the L1 instruction and data cache misses, last-level misses and "
                         "mispredicted branches per decision (cachegrind's cache and branch simulation, ~2x "
                         "slower): what makes a decision's time run above its instructions; with --parts: each part's "
                         "last-level misses, L1 instruction misses and mispredicted branches")
    ap.add_argument("--l2", action="store_true",
                    help="with --sim: cachegrind's last level sized as this machine's L2 (size and ways read from "
                         "/sys/devices/system/cpu/cpu0/cache; sessions 14-15 took it as 512 KB, session 16's machine "
                         "reads 1 MB 8-way), so that the last-level misses are what leaves the L2 (the default last level is the "
                         "L3, which holds all of a decision's data)")
    ap.add_argument("--ll", type=int, metavar="KB",
                    help="with --sim: cachegrind's last level sized KB kilobytes (8-way, 16-way from 1024): how the "
                         "misses fall with a larger cache tells the working set's size (session 15)")
    ap.add_argument("--parts", action="store_true",
                    help="with --live's games: instructions per decision of each part of a decision (plan lists, "
                         "plan applies and the reveal, visit legal lists, visit applies and the round end, get-up), "
                         "counted by callgrind; with --sim, each part's last-level misses (--l2, --ll: its size), L1 "
                         "instruction misses and mispredicted branches too")
    ap.add_argument("--kinds", action="store_true",
                    help="with --live's games: instructions of the visit-phase applies by kind of decision (a visit "
                         "at each location, each module's asks, the VP track's choices), each with the way to the "
                         "next decision (a round end included), per decision and per decision of that kind (callgrind)")
    ap.add_argument("--hooks", action="store_true",
                    help="with --live's games: instructions per plan decision of its apply (with the reveal and the "
                         "way to the first visit), and of them each module's plan_apply and after_planning hook and "
                         "the chance events' generators (the medico's infection draw), counted by callgrind; with "
                         "--sim, their misses too (as --parts)")
    ap.add_argument("--plans", action="store_true",
                    help="with the replays: at each plan decision also make the legal list and choose a seeded random "
                         "plan in it, the recorded plan applied (the plan lists on the same games on both trees: a "
                         "tree whose plan lists come in another order plays other games live)")
    ap.add_argument("--worker", nargs="+", help=argparse.SUPPRESS)
    args = ap.parse_args()
    if args.worker:
        kind, modules = args.worker[0], tuple(json.loads(args.worker[1]))
        if kind == "record":
            print(json.dumps(record(modules, int(args.worker[2]))))
        elif kind == "live":
            live(modules, int(args.worker[2]), "gc" in args.worker[3:], "setup" not in args.worker[3:])
        elif kind == "parts":
            parts(modules, int(args.worker[2]))
        elif kind == "kinds":
            kinds(modules, int(args.worker[2]))
        elif kind == "hooks":
            plan_hooks(modules, int(args.worker[2]))
        else:
            replay(modules, args.worker[2], int(args.worker[3]), args.worker[4:] == ["plans"])
        if kind in ("live", "replay"):
            # no interpreter finalization: its last collection and the teardown of what the games
            # left (memos) were in the difference of two counts (all eight ~2.2k instructions a
            # decision of --live, the base game ~0.7k: bench/README.md, session 14)
            sys.stdout.flush()
            os._exit(0)
        return 0
    if shutil.which("valgrind") is None:
        raise SystemExit("valgrind is not installed (Debian: apt-get install valgrind)")
    trees = {"new": Path(args.new_src) if args.new_src else SRC, "baseline": source_tree(args.baseline)}
    level = (last_level(*machine_l2()) if args.l2 else last_level(args.ll)) if args.sim else None   # None: no simulation
    if args.parts:
        print(f"instructions per decision by part, 4 players, games 1..{args.games} of each set played live after "
              f"one warm-up game of every set: {trees['new']} vs baseline {args.baseline} | {machine_load()}")
        if args.sim:
            print(f"(and per decision: last-level misses, instruction and data reads and writes, last level "
                  f"{level or 'the machine L3'}; L1 instruction misses; mispredicted branches)")
        for name in args.sets:
            got = {t: part_counts(src, SETS[name], args.games, level) for t, src in trees.items()}
            _print_ab(name, PARTS, got, 22, args.sim)
            print(f"{'':<{len(name) + 3}}{'sum':<22} "
                  + " ".join(f"{sum(v for p, v in got[t].items() if p in PARTS and not p.startswith('of it')):>10,.0f}"
                             for t in ("baseline", "new")), flush=True)
        return 0
    if args.hooks:
        print(f"instructions per plan decision: its apply and the module hooks in it, 4 players, games 1..{args.games} "
              f"of each set played live after one warm-up game of every set: {trees['new']} vs baseline "
              f"{args.baseline} | {machine_load()}")
        if args.sim:
            print(f"(and per plan decision: last-level misses, last level {level or 'the machine L3'}; L1 instruction "
                  f"misses; mispredicted branches)")
        for name in args.sets:
            got = {t: hook_counts(src, SETS[name], args.games, level) for t, src in trees.items()}
            _print_ab(name, [p for p in got["new"] if not any(p.endswith(tail) for tail in SIM_PARTS)], got, 36,
                      args.sim)
        return 0
    if args.kinds:
        print(f"instructions of the visit-phase applies by kind of decision, 4 players, games 1..{args.games} of each "
              f"set played live after one warm-up game of every set: {trees['new']} vs baseline {args.baseline} | "
              f"{machine_load()}")
        for name in args.sets:
            got = {t: kind_counts(src, SETS[name], args.games) for t, src in trees.items()}
            print(f"{name}:  {'kind':<22} {'share':>7} {'per decision: baseline':>23} {'new':>8} "
                  f"{'per decision of the kind: baseline':>35} {'new':>8}")
            for kind in KINDS:
                share = got["new"][1][kind] / got["new"][2]
                each = {t: got[t][0][kind] * got[t][2] / max(got[t][1][kind], 1) for t in trees}
                print(f"{'':<{len(name) + 3}}{kind:<22} {share:>7.3f} {got['baseline'][0][kind]:>23,.0f} "
                      f"{got['new'][0][kind]:>8,.0f} {each['baseline']:>35,.0f} {each['new']:>8,.0f}")
            print(f"{'':<{len(name) + 3}}{'sum':<22} {'':>7} "
                  + " ".join(f"{sum(got[t][0].values()):>{w},.0f}" for t, w in (("baseline", 23), ("new", 8))),
                  flush=True)
        return 0
    what = (f"games 1..{args.games} of each set played live after one warm-up game of every set (plan lists "
            f"included{', garbage collector on' if args.gc else ''})" if args.live else
            f"games {args.warm + 1}..{args.warm + args.games} of each set ("
            + ("plan lists and a random choice in them included, the recorded plans applied)" if args.plans else
               "plan decisions without their legal lists)"))
    print(f"instructions per decision, 4 players, {what}: {trees['new']} vs baseline {args.baseline} | {machine_load()}")
    if level:
        print(f"(last level: {level})")
    print(f"{'set':<{30 if args.sim else 10}} {'baseline':>12} {'new':>12} {'new/baseline':>13} "
          f"{'vs base (baseline, new)':>26}")
    per: dict = {}
    missed: dict = {}   # --sim: set -> tree -> counter -> per decision
    with tempfile.TemporaryDirectory() as tmp:
        for name in args.sets:
            modules = SETS[name]
            if args.live and args.sim:
                missed[name] = {}
                for t, src in trees.items():
                    (counted, out), (start, _) = (simulated(src, modules, args.games, args.gc, level),
                                                  simulated(src, modules, args.games, args.gc, level, setup=True))
                    missed[name][t] = {k: (counted[k] - start[k]) / int(out.split()[-1]) for k in counted}
                per[name] = {t: missed[name][t]["instructions"] for t in trees}
                print_row(name, per, width=30)
                for k in SIM.values():
                    print_row(name, {n: {t: v[t][k] for t in v} for n, v in missed.items()}, f"  {k}", 30, 1)
                continue
            if args.live:
                per[name] = {}
                for t, src in trees.items():
                    (counted, out), (start, _) = (instructions(src, modules, None, args.games, args.gc),
                                                  instructions(src, modules, None, args.games, args.gc, setup=True))
                    per[name][t] = (counted - start) / int(out.split()[-1])
                print_row(name, per)
                continue
            games = run_worker([sys.executable, str(Path(__file__).resolve()), "--worker", "record",
                                json.dumps(list(modules)), str(args.warm + args.games)], SRC)
            path = str(Path(tmp) / f"{name}.json")
            Path(path).write_text(json.dumps(games))
            decisions = sum(len(g) for g in games[args.warm:])
            per[name] = {t: (instructions(src, modules, path, args.warm + args.games, plans=args.plans)[0]
                             - instructions(src, modules, path, args.warm, plans=args.plans)[0]) / decisions
                         for t, src in trees.items()}
            print_row(name, per)
    return 0


def print_row(name: str, per: dict, label: str = "", width: int = 10, places: int = 0) -> None:
    """One set's row: baseline, new, their ratio and each against the base game's (``label``
    instead of the set's name: a counter of --sim)."""
    old, new = per[name]["baseline"], per[name]["new"]
    line = f"{label or name:<{width}} {old:>12,.{places}f} {new:>12,.{places}f} {new / old:>12.3f}x"
    if "base" in per:
        line += f" {old / per['base']['baseline']:>12.2f}x {new / per['base']['new']:>12.2f}x"
    print(line, flush=True)


if __name__ == "__main__":
    sys.exit(main())
