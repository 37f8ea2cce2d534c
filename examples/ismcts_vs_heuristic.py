"""OpenSpiel's IS-MCTS bot against affresco's heuristic bot (docs/envs-openspiel.md).

    python examples/ismcts_vs_heuristic.py --players 2 --simulations 20 --games 2

IS-MCTS needs sequential dynamics, so it plays ``python_fresco_turns`` (planning as blind
turns); its information sets are resampled with the engine's determinization
(``FrescoState.resample_from_infostate``).  The heuristic bots see only their seat's view.
"""
from __future__ import annotations

import argparse
import time

import numpy as np
import pyspiel
from open_spiel.python.algorithms import ismcts, mcts

import affresco.envs.openspiel  # noqa: F401  (registers the games)
from affresco.bots import make_bot
from affresco.envs.core import SteppedGame


def play(players: int = 2, modules: str = "", simulations: int = 20, seed: int = 0, ismcts_seat: int = 0,
         rollouts: int = 1) -> list[float]:
    """One game; returns OpenSpiel's returns (rank reward: 1 first ... -1 last)."""
    game = pyspiel.load_game("python_fresco_turns", {"players": players, "modules": modules, "rng_seed": seed})
    rng = np.random.RandomState(seed)
    evaluator = mcts.RandomRolloutEvaluator(n_rollouts=rollouts, random_state=rng)
    bot = ismcts.ISMCTSBot(game, evaluator, uct_c=2.0, max_simulations=simulations, random_state=rng,
                           max_world_samples=ismcts.UNLIMITED_NUM_WORLD_SAMPLES)
    heuristic = {s: make_bot("heuristic", seed * 10 + s) for s in range(players) if s != ismcts_seat}
    state = game.new_initial_state()
    codec = game.codec
    while not state.is_terminal():
        seat = state.current_player()
        if seat == ismcts_seat:
            action = bot.step(state)
            state.apply_action(action)
        else:       # the bot decides on the engine's actions; a plan goes in a step at a time (encoding 2)
            g = state.fresco
            engine = g.engine if isinstance(g, SteppedGame) else g
            choice = heuristic[seat].choose(g.view(seat), engine.legal_actions(seat), seat)
            for part in g.as_steps(choice) if isinstance(g, SteppedGame) else (choice,):
                state.apply_action(codec.encode(part))
    return list(state.returns())


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--players", type=int, default=2)
    ap.add_argument("--modules", default="")
    ap.add_argument("--simulations", type=int, default=20)
    ap.add_argument("--games", type=int, default=2)
    args = ap.parse_args()
    wins = 0
    for i in range(args.games):
        t = time.time()
        returns = play(args.players, args.modules, args.simulations, seed=i, ismcts_seat=i % args.players)
        seat = i % args.players
        wins += returns[seat] == max(returns)
        print(f"game {i + 1}: IS-MCTS in seat {seat}, returns {returns} ({time.time() - t:.0f} s)", flush=True)
    print(f"IS-MCTS won {wins} of {args.games} against the heuristic bot")


if __name__ == "__main__":
    main()
