"""Seeded bot games, recorded once and replayed by tests/test_bot_games.py: the proof that a
refactoring of the bots leaves them playing the same moves (issue #11).

    PYTHONPATH=src python tests/bot_games.py      # (re)writes tests/data/bot_games.json

Regenerate only when a change is *meant* to change play (a rule fix, a new weight), and say
so in the commit.  Every bot plays: random, heuristic, greedy, and search with a fixed number
of simulations (deterministic); 2-4 players; every set of the modules recorded here.
"""
from __future__ import annotations

import json
from itertools import combinations
from pathlib import Path

import affresco
from affresco.bots import make_bot, play_game

DATA = Path(__file__).parent / "data" / "bot_games.json"
# the modules that existed when the games were recorded (later modules get their own games)
MODULES = ("bishops_favour", "portraits", "requests", "scrolls", "special_colours")
SEARCH = "search:simulations=4"


def module_sets() -> list[tuple[str, ...]]:
    return [c for k in range(len(MODULES) + 1) for c in combinations(MODULES, k)]


def configs() -> list[dict]:
    """One game per (module set, player count) for the fast bots; a few with SearchBot."""
    out = []
    fast = ("heuristic", "random", "greedy", "heuristic")
    for i, mods in enumerate(module_sets()):
        for n in (2, 3, 4):
            bots = [fast[(i + n + k) % len(fast)] for k in range(n)]
            out.append({"players": n, "modules": list(mods), "seed": 1000 * n + i, "bots": bots,
                        "bot_seeds": [i * 10 + k for k in range(n)]})
    for j, (n, mods) in enumerate([(2, ()), (3, MODULES), (4, ("portraits", "scrolls")), (2, MODULES),
                                   (4, ("bishops_favour", "requests", "special_colours")), (3, ())]):
        bots = ["heuristic"] * n
        bots[j % n] = SEARCH
        if n > 2:
            bots[(j + 1) % n] = "random"
        out.append({"players": n, "modules": list(mods), "seed": 77 + j, "bots": bots,
                    "bot_seeds": [j * 10 + k for k in range(n)]})
    return out


def bots_for(cfg: dict) -> list:
    return [make_bot(spec, seed) for spec, seed in zip(cfg["bots"], cfg["bot_seeds"])]


def play(cfg: dict) -> dict:
    g = affresco.new_game(cfg["players"], cfg["modules"], seed=cfg["seed"])
    play_game(g, bots_for(cfg))
    return dict(cfg, actions=[list(h) for h in g.history()], scores=g.scores())


def main() -> None:
    games = [play(cfg) for cfg in configs()]
    DATA.parent.mkdir(exist_ok=True)
    DATA.write_text(json.dumps({"format": "affresco-bot-games/1", "games": games}, separators=(",", ":")) + "\n")
    print(f"{len(games)} games, {sum(len(g['actions']) for g in games)} actions -> {DATA}")


if __name__ == "__main__":
    main()
