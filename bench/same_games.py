#!/usr/bin/env python3
"""Check that this checkout plays exactly the same games as a reference revision (issue #12).

A speed change to the engine must leave the game identical.  This plays seeded random games
(every seat choosing uniformly among its legal actions with a ``random.Random`` of the game's
seed, as RandomBot does) over module sets and 2-4 players, once on this checkout's ``src/``
and once on the reference revision's (exported with ``git archive`` by ``bench/baseline.py``),
each in a fresh interpreter, and compares per game a digest of everything the public API
shows, byte for byte:

  * at every decision: the seats to act, the deciding figure, each acting seat's legal
    actions (a plan decision's list: its length and every 97th plan, it may hold 100,000),
    the chosen action and what ``apply`` returned (a reveal);
  * at every decision: ``view(seat, log=False)`` of every seat and of the spectator (JSON,
    keys in order); every 8th decision also the views with their events, ``full_view()``
    and ``to_json()``, and a ``from_json`` round trip;
  * at the end: the record, ``events(seat)`` of every seat, the scores and ``vp_sources()``.

On a difference it replays that game on both trees step by step and names the first decision
whose digest differs, with the part that differs (legal actions, a view, the state...).

``--replay`` compares a tree whose legal lists come in another order (the medico's plans,
docs/architecture.md): the reference plays the random games and records their actions, and
this checkout plays the same actions by their notation (each taken from its own legal list by
``index``); the legal lists are compared as sets (a list of more than 400 actions: its length
and a digest of its actions' sorted notation), everything else as above.

    python bench/same_games.py                         # reference: main, ~2 minutes on an idle machine
    python bench/same_games.py --ref HEAD~3 --games 2  # 2 seeds per module set and player count
    python bench/same_games.py --sets eight base --players 4
    python bench/same_games.py --ref 501db5e --replay       # the medico's plans in a new order

Only API present in both trees is used (``new_game``, ``to_act``, ``deciding``, ``legal_actions``,
``apply``, ``view``, ``full_view``, ``to_json``/``from_json``, ``events``, ``record``, ``scores``,
``vp_sources``).
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
import tempfile
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import SRC, machine_load, run_worker, source_tree  # noqa: E402

FIVE = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")
NEW = ("bells", "wall_fresco", "medico")
SETS = {"base": (), **{m: (m,) for m in FIVE + NEW}, "five": FIVE, "new": NEW, "eight": FIVE + NEW,
        "bells+medico": ("bells", "medico"), "wall+requests": ("wall_fresco", "requests"),
        "scrolls+medico": ("scrolls", "medico"), "favour+bells+wall": ("bishops_favour", "bells", "wall_fresco")}
DEFAULT_SETS = ("base", "bells", "wall_fresco", "medico", "five", "new", "eight", "bells+medico",
                "wall+requests", "scrolls+medico", "favour+bells+wall")
PLAN_STRIDE = 97     # a plan decision's legal list: its length and every 97th plan
FULL_EVERY = 8       # every 8th decision: the views with events, full_view, to_json


def _dump(x) -> bytes:
    return json.dumps(x, separators=(",", ":")).encode()


def _legal_digest(legal, as_set: bool = False) -> list:
    n = len(legal)
    if as_set:
        texts = sorted(map(str, legal))
        return [n, hashlib.sha256("\n".join(texts).encode()).hexdigest()] if n > 400 else texts
    if n > 400:
        return [n, [str(legal[i]) for i in range(0, n, PLAN_STRIDE)], str(legal[n - 1])]
    return [str(a) for a in legal]


def _steps(players: int, modules: tuple, seed: int, as_set: bool = False, actions: list | None = None,
           played: list | None = None):
    """Yield ``(part, bytes)`` for every observable fact of one random game, in order; a
    ``("decision", b"")`` marks the start of each decision.  ``as_set``: the legal lists as
    sets; ``actions``: play these ``[seat, notation]`` instead of random ones; ``played``: a
    list to which the game's ``[seat, notation]`` are added."""
    import affresco
    g = affresco.new_game(players=players, seed=seed, modules=modules)
    choice = random.Random(seed).choice
    seats = list(range(players)) + [None]
    k = 0
    while not g.is_over:
        yield "decision", b""
        acting = g.to_act
        yield "to_act", _dump([list(acting), g.deciding])
        for seat in seats:
            yield f"view {seat}", _dump(g.view(seat, log=False))
        if k % FULL_EVERY == 0:
            for seat in seats:
                yield f"view+events {seat}", _dump(g.view(seat))
            yield "full_view", _dump(g.full_view())
            text = g.to_json()
            yield "to_json", text.encode()
            yield "from_json", affresco.Game.from_json(text).to_json().encode()
        legal = {seat: g.legal_actions(seat) for seat in acting}
        yield "legal", _dump({str(seat): _legal_digest(a, as_set) for seat, a in legal.items()})
        if actions is None:
            seat = choice(acting)
            action = choice(legal[seat])
        else:
            seat, text = actions[k]
            action = legal[seat][legal[seat].index(affresco.parse(text))]   # (this tree's own plan object)
        if played is not None:
            played.append([seat, str(action)])
        yield "apply", _dump([seat, str(action), g.apply(seat, action)])
        k += 1
    yield "decision", b""
    yield "record", _dump(g.record())
    for seat in seats:
        yield f"events {seat}", _dump(g.events(seat))
    yield "end", _dump([g.scores(), g.vp_sources(), g.to_json()])


def work(spec: dict) -> dict:
    """One digest per game ``"players/set/seed"``; with ``trace``, one per decision of one game.
    ``as_set``: the legal lists as sets; ``record``: a file to write every game's actions to;
    ``replay``: a file of such actions to play instead of random ones."""
    as_set = spec.get("as_set", False)
    given = json.loads(Path(spec["replay"]).read_text()) if spec.get("replay") else {}
    played: dict[str, list] = {}
    if spec.get("trace"):
        players, name, seed = spec["trace"]
        out, h, part_h = [], None, {}
        for part, data in _steps(players, SETS[name], seed, as_set, given.get(f"{players}/{name}/{seed}")):
            if part == "decision":
                if h is not None:
                    out.append({"digest": h.hexdigest(), "parts": {p: x.hexdigest() for p, x in part_h.items()}})
                h, part_h = hashlib.sha256(), {}
                continue
            h.update(part.encode() + b"\0" + data + b"\0")
            part_h.setdefault(part, hashlib.sha256()).update(data)
        out.append({"digest": h.hexdigest(), "parts": {p: x.hexdigest() for p, x in part_h.items()}})
        return {"trace": out}
    digests = {}
    for players in spec["players"]:
        for name in spec["sets"]:
            for seed in range(spec["seed"], spec["seed"] + spec["games"]):
                h = hashlib.sha256()
                decisions = 0
                key = f"{players}/{name}/{seed}"
                played[key] = []
                for part, data in _steps(players, SETS[name], seed, as_set, given.get(key), played[key]):
                    decisions += part == "decision"
                    h.update(part.encode() + b"\0" + data + b"\0")
                digests[key] = [h.hexdigest(), decisions - 1]
    if spec.get("record"):
        Path(spec["record"]).write_text(json.dumps(played))
    return digests


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", default="main", help="reference revision (default: main)")
    ap.add_argument("--sets", nargs="+", default=list(DEFAULT_SETS), choices=sorted(SETS),
                    help=f"module sets (default: {' '.join(DEFAULT_SETS)})")
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    ap.add_argument("--games", type=int, default=1, help="seeds per module set and player count (default 1)")
    ap.add_argument("--seed", type=int, default=1, help="first seed")
    ap.add_argument("--replay", action="store_true",
                    help="play the reference's games by their actions' notation here; legal lists compared as sets")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(work(json.loads(args.worker))))
        return 0
    rev = subprocess.run(["git", "-C", str(SRC.parent), "rev-parse", "--short", args.ref],
                         capture_output=True, text=True).stdout.strip() or args.ref
    trees = {"this checkout": SRC, f"reference {args.ref} ({rev})": source_tree(args.ref)}
    me = [sys.executable, str(Path(__file__).resolve()), "--worker"]
    spec = {"players": args.players, "sets": args.sets, "games": args.games, "seed": args.seed}
    total = len(args.players) * len(args.sets) * args.games
    print(f"{total} random games ({' '.join(args.sets)}; {args.players} players; seeds {args.seed}.."
          f"{args.seed + args.games - 1}) on each tree{', replayed here by notation' if args.replay else ''}"
          f" | {machine_load()}", flush=True)
    with tempfile.TemporaryDirectory() as tmp:
        if args.replay:      # the reference plays and records; this checkout replays its actions
            spec["as_set"], record = True, str(Path(tmp) / "actions.json")
            ref = run_worker([*me, json.dumps({**spec, "record": record})], trees[list(trees)[1]])
            mine = run_worker([*me, json.dumps({**spec, "replay": record})], SRC)
            replay = {"as_set": True, "replay": record}
        else:
            mine, ref = (run_worker([*me, json.dumps(spec)], src) for src in trees.values())
            replay = {}
        return _compare(me, trees, mine, ref, total, replay)


def _compare(me: list[str], trees: dict, mine: dict, ref: dict, total: int, replay: dict) -> int:
    """Print whether the games' digests agree; on a difference, the first decision that differs."""
    differ = [k for k in ref if mine.get(k) != ref[k]]
    decisions = sum(d for _, d in ref.values())
    if not differ:
        print(f"identical: {total} games, {decisions} decisions (legal actions{' as sets' if replay else ''}, views, "
              "events, states, records)")
        return 0
    print(f"DIFFERENT: {len(differ)} of {total} games: {', '.join(differ[:12])}")
    players, name, seed = differ[0].split("/")
    job = {"trace": [int(players), name, int(seed)], "as_set": bool(replay)}
    traces = [run_worker([*me, json.dumps({**job, "replay": replay.get("replay") if k == 0 else None})], src)["trace"]
              for k, src in enumerate(trees.values())]
    for i, (a, b) in enumerate(zip(*traces)):
        if a["digest"] != b["digest"]:
            parts = sorted(p for p in set(a["parts"]) | set(b["parts"]) if a["parts"].get(p) != b["parts"].get(p))
            print(f"game {differ[0]}: first difference at decision {i}: {', '.join(parts)}")
            break
    else:
        print(f"game {differ[0]}: the games have {len(traces[0])} and {len(traces[1])} decisions")
    return 1


if __name__ == "__main__":
    sys.exit(main())
