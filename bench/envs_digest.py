#!/usr/bin/env python3
"""Check that this checkout's observation vectors and environment outputs are exactly a reference
revision's (issue #14: a speed change to the look or a wrapper must not move a number).

Two digests (sha256), each computed by a worker on this checkout's ``src/`` and on the reference's
(exported with ``git archive`` by ``bench/baseline.py``), each in a fresh interpreter, compared
per set-up:

  * ``vectors``: seeded random games over module sets (base, each module alone, all eight, a few
    combinations) with 2-4 players, encodings 1, 2 and 3; at every decision the deciding seat's
    ``observation`` (the look), every 3rd decision also another seat's, ``observations_joined``
    of every seat (with ``pad``), ``observations`` with a repeated seat; every 17th decision a
    clone and a ``from_json`` copy looked at and played on for a few decisions;
  * ``wrappers``: every wrapper played with random legal actions (seeded): PettingZoo AEC (both
    turn modes) and Parallel, each also with the other options (``max_cycles``, the rank and win
    rewards, an illegal index answered one time in ten with ``illegal="substitute"``), Gymnasium, OpenSpiel (both games: observer tensor, legal actions,
    returns; every 11th step the observation string), 2-4 players, base and all eight, encodings
    1-3: observations, masks, rewards, terminations, truncations, infos (keys; the Parallel
    env's lean view every 13th step), legal indices.

    python bench/envs_digest.py --ref b7fbc13                  # both digests, ~4 min each tree
    python bench/envs_digest.py --ref b7fbc13 --only vectors   # one of them
    python bench/envs_digest.py --print                        # this checkout's digests only

On a difference it names the set-ups whose digests differ.  Only API present in both trees is used.
"""
from __future__ import annotations

import argparse
import hashlib
import json
import random
import subprocess
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))
from baseline import SRC, machine_load, run_worker, source_tree  # noqa: E402

ALL = ("bells", "bishops_favour", "medico", "portraits", "requests", "scrolls", "special_colours", "wall_fresco")
VECTOR_SETS = {"base": (), **{m: (m,) for m in ALL}, "eight": ALL, "bells+medico": ("bells", "medico"),
               "wall+requests": ("wall_fresco", "requests"), "scrolls+medico+portraits": ("scrolls", "medico", "portraits")}
WRAPPER_SETS = {"base": (), "eight": ALL}


def _bytes(v) -> bytes:
    return bytes(memoryview(v).cast("B")) if not hasattr(v, "tobytes") else v.tobytes()


def vectors(spec: dict) -> dict:
    """Per set-up ``"n/set/encoding"``: [digest, vectors hashed]."""
    import affresco
    out = {}
    for n in spec["players"]:
        for name in spec["vector_sets"]:
            mods = VECTOR_SETS[name]
            for enc in (1, 2, 3):
                h, count = hashlib.sha256(), 0

                def add(v):
                    nonlocal count
                    h.update(_bytes(v))
                    count += 1
                for seed in range(spec["games"]):
                    g = affresco.new_game(n, mods, seed=seed)
                    rng = random.Random(f"digest:{seed}")
                    k = 0
                    while not g.is_over:
                        seat = rng.choice(g.to_act)
                        add(g.observation(seat, enc))
                        if k % 3 == 0:
                            add(g.observation((seat + 1) % n, enc))
                            add(g.observations_joined(None, enc, 7 if k % 2 else 0))
                            add(b"".join(_bytes(v) for v in g.observations([seat, (seat + 1) % n, seat], enc)))
                        if k % 17 == 5:
                            for other in (g.clone(), affresco.Game.from_json(g.to_json())):
                                r2 = random.Random(k)
                                for _ in range(4):
                                    if other.is_over:
                                        break
                                    s2 = r2.choice(other.to_act)
                                    add(other.observation(s2, enc))
                                    other.apply(s2, r2.choice(other.legal_actions(s2)))
                        g.apply(seat, rng.choice(g.legal_actions(seat)))
                        k += 1
                    add(g.observation(0, enc))
                out[f"{n}/{name}/{enc}"] = [h.hexdigest(), count]
    return out


def _plain(x):
    """Infos and the like as hashable text."""
    import numpy as np
    if isinstance(x, np.ndarray):
        return {"array": hashlib.sha256(x.tobytes()).hexdigest(), "dtype": str(x.dtype), "shape": x.shape}
    if isinstance(x, dict):
        return {str(k): _plain(v) for k, v in x.items()}
    if isinstance(x, (list, tuple)):
        return [_plain(v) for v in x]
    if hasattr(x, "keys") and hasattr(x, "__getitem__"):     # a lazy view: its keys only
        return {"keys": sorted(x.keys())}
    return x


def wrappers(spec: dict) -> dict:
    """Per wrapper and set-up: [digest, steps]."""
    import numpy as np
    out = {}

    def run(label, fn):
        h = hashlib.sha256()
        steps = fn(lambda *parts: [h.update(json.dumps(_plain(p), sort_keys=True, default=str).encode()
                                            if not isinstance(p, (bytes, np.ndarray)) else _bytes(p)) for p in parts])
        out[label] = [h.hexdigest(), steps]

    for n in spec["players"]:
        for name in spec["wrapper_sets"]:
            mods = WRAPPER_SETS[name]
            for enc in (1, 2, 3):
                for turns in ("acting", "all"):
                    run(f"aec/{turns}/{n}/{name}/{enc}", lambda add: _aec(add, n, mods, enc, turns, spec["games"]))
                run(f"aec/substitute/{n}/{name}/{enc}", lambda add: _aec(add, n, mods, enc, "all", spec["games"],
                                                                       **AEC_OTHER))
                run(f"parallel/{n}/{name}/{enc}", lambda add: _parallel(add, n, mods, enc, spec["games"]))
                run(f"parallel/substitute/{n}/{name}/{enc}",
                    lambda add: _parallel(add, n, mods, enc, spec["games"], **PARALLEL_OTHER))
                run(f"gymnasium/{n}/{name}/{enc}", lambda add: _gym(add, n, mods, enc, spec["games"]))
                for game in ("python_fresco", "python_fresco_turns"):
                    run(f"{game}/{n}/{name}/{enc}", lambda add: _spiel(add, game, n, mods, enc, spec["games"]))
    return out


# the other options, with an illegal index answered now and then (``illegal="substitute"``)
AEC_OTHER = {"illegal": "substitute", "max_cycles": 30, "reward": "win"}
PARALLEL_OTHER = {"illegal": "substitute", "max_cycles": 40, "reward": "rank"}


def _answer(rng, legal, env, illegal):
    """A random legal index; with ``illegal="substitute"`` one time in ten any index (illegal ones too)."""
    return rng.randrange(env.WAIT + 1) if illegal == "substitute" and rng.random() < 0.1 else rng.choice(legal)


def _aec(add, n, mods, enc, turns, games, illegal="raise", **options) -> int:
    from affresco.envs.pettingzoo import env
    e = env(players=n, modules=mods, encoding=enc, turns=turns, illegal=illegal, **options)
    steps = 0
    for seed in range(games):
        e.reset(seed=seed)
        rng = random.Random(seed)
        for agent in e.agent_iter():
            obs, reward, term, trunc, info = e.last()
            add(agent, obs["observation"], obs["action_mask"], reward, term, trunc, info)
            if term or trunc:
                e.step(None)
                continue
            legal = e.legal_indices(agent)
            add(legal)
            if steps % 7 == 0:
                add(e.observe(e.possible_agents[(e.agent_seat[agent] + 1) % n])["observation"])
            e.step(_answer(rng, legal, e, illegal))
            steps += 1
        add(e.rewards, e._cumulative_rewards, e.terminations, e.truncations, e.infos)
    return steps


def _parallel(add, n, mods, enc, games, illegal="raise", **options) -> int:
    from affresco.envs.pettingzoo import parallel_env
    p = parallel_env(players=n, modules=mods, encoding=enc, illegal=illegal, **options)
    steps = 0
    for seed in range(games):
        obs, infos = p.reset(seed=seed)
        add(obs, infos)
        rng = random.Random(seed)
        while p.agents:
            acts = {a: _answer(rng, p.legal_indices(a), p, illegal) for a in p.agents}
            obs, rewards, terms, truncs, infos = p.step(acts)
            add(obs, rewards, terms, truncs, infos)
            if steps % 13 == 0 and p.agents:
                add(dict(infos[p.agents[0]]["view"]))
            steps += 1
    return steps


def _gym(add, n, mods, enc, games) -> int:
    from affresco.envs.gymnasium import FrescoEnv
    env = FrescoEnv(players=n, opponents="random", modules=mods, encoding=enc)
    steps = 0
    for seed in range(games):
        obs, info = env.reset(seed=seed)
        add(obs, info, env.action_masks())
        rng = random.Random(seed)
        while True:
            legal = env.legal_indices()
            add(legal)
            obs, reward, term, trunc, info = env.step(rng.choice(legal))
            add(obs, reward, term, trunc, info, env.action_masks())
            steps += 1
            if term or trunc:
                break
    return steps


def _spiel(add, game_name, n, mods, enc, games) -> int:
    import pyspiel
    from open_spiel.python.observation import make_observation
    import affresco.envs.openspiel  # noqa: F401
    steps = 0
    for seed in range(games):
        game = pyspiel.load_game(game_name, {"players": n, "modules": ",".join(mods), "rng_seed": seed,
                                             "encoding": enc})
        observer = make_observation(game)
        s = game.new_initial_state()
        rng = random.Random(seed)
        while not s.is_terminal():
            if s.is_simultaneous_node():
                legal = [s.legal_actions(p) for p in range(n)]
                add(legal)
                for p in range(n):
                    observer.set_from(s, p)
                    add(observer.tensor)
                s.apply_actions([rng.choice(a) for a in legal])
            else:
                p = s.current_player()
                observer.set_from(s, p)
                legal = s.legal_actions()
                add(p, observer.tensor, legal)
                if steps % 11 == 0:
                    add(s.observation_string(p))
                s.apply_action(rng.choice(legal))
            steps += 1
        add(s.returns())
    return steps


def work(spec: dict) -> dict:
    out = {}
    if "vectors" in spec["only"]:
        out.update({f"vectors:{k}": v for k, v in vectors(spec).items()})
    if "wrappers" in spec["only"]:
        out.update({f"wrappers:{k}": v for k, v in wrappers(spec).items()})
    return out


def _summary(digests: dict) -> str:
    parts = []
    for kind in ("vectors", "wrappers"):
        mine = {k: v for k, v in digests.items() if k.startswith(kind + ":")}
        if mine:
            h = hashlib.sha256("".join(f"{k}={v[0]}\n" for k, v in sorted(mine.items())).encode()).hexdigest()
            parts.append(f"{kind} {h[:12]}...{h[-4:]} ({len(mine)} set-ups, {sum(v[1] for v in mine.values())} "
                         f"{'vectors' if kind == 'vectors' else 'steps'})")
    return "; ".join(parts)


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0],
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--ref", default="main", help="reference revision (default: main)")
    ap.add_argument("--only", nargs="+", default=["vectors", "wrappers"], choices=["vectors", "wrappers"])
    ap.add_argument("--players", type=int, nargs="+", default=[2, 3, 4], choices=[2, 3, 4])
    ap.add_argument("--games", type=int, default=1, help="seeds per set-up (default 1)")
    ap.add_argument("--print", action="store_true", help="this checkout's digests only, no reference")
    ap.add_argument("--worker", help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.worker:
        print(json.dumps(work(json.loads(args.worker))))
        return 0
    spec = {"players": args.players, "games": args.games, "only": args.only,
            "vector_sets": list(VECTOR_SETS), "wrapper_sets": list(WRAPPER_SETS)}
    me = [sys.executable, str(Path(__file__).resolve()), "--worker", json.dumps(spec)]
    print(f"{' and '.join(args.only)}: {args.players} players, {args.games} game(s) per set-up | {machine_load()}",
          flush=True)
    mine = run_worker(me, SRC)
    print(f"this checkout: {_summary(mine)}", flush=True)
    if args.print:
        return 0
    rev = subprocess.run(["git", "-C", str(SRC.parent), "rev-parse", "--short", args.ref],
                         capture_output=True, text=True).stdout.strip() or args.ref
    ref = run_worker(me, source_tree(args.ref))
    print(f"reference {args.ref} ({rev}): {_summary(ref)}", flush=True)
    differ = sorted(k for k in set(ref) | set(mine) if ref.get(k) != mine.get(k))
    if not differ:
        print(f"identical: {len(ref)} set-ups")
        return 0
    print(f"DIFFERENT: {len(differ)} of {len(ref)} set-ups: " + ", ".join(differ[:20]))
    return 1


if __name__ == "__main__":
    sys.exit(main())
