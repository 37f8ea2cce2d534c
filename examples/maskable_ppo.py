"""Learning to play Fresco: sb3-contrib's MaskablePPO on the Gymnasium env, 2 players against
the random bot (docs/envs-gymnasium.md).  Needs ``pip install affresco[rl-train]``.

    python examples/maskable_ppo.py --steps 60000 --plot docs/img/envs-learning.png

The reward is dense: the change of the VP margin over the random bot after each step (see
MarginOverOpponent).  Every ``--eval-every`` steps the policy (masked, sampling its actions)
plays ``--eval-games`` games;
the win rate against the random bot (finishing ahead of it on the VP track; Leonardo, who
usually beats two random players, is left out) is printed and plotted beside the random
policy's win rate in the same seat (about one half).
"""
from __future__ import annotations

import argparse
import json
import time

import gymnasium
import numpy as np
import torch
from sb3_contrib import MaskablePPO
from sb3_contrib.common.maskable.utils import get_action_masks
from stable_baselines3.common.callbacks import BaseCallback

from affresco.envs.gymnasium import FrescoEnv


def win_rate(policy, games: int, seed: int) -> float:
    """Share of games in which ``policy(obs, mask) -> action`` (seat 0) finishes ahead of the
    random bot (seat 1)."""
    env = FrescoEnv(players=2, opponents="random", reward="margin")
    wins = 0
    for i in range(games):
        obs, info = env.reset(seed=seed + i)
        while True:
            obs, reward, term, trunc, info = env.step(policy(obs, env.action_masks()))
            if term:
                ranking = info["ranking"]
                wins += ranking.index(0) < ranking.index(1)
                break
    return wins / games


class MarginOverOpponent(gymnasium.Wrapper):
    """Dense reward: each step, the change of (own VP - the opponent seat's VP) / 10.  Summed
    over a game it is the final VP margin over the opponent, so it rewards exactly finishing
    ahead of it by as much as possible, with credit given when VP are scored."""

    def reset(self, **kw):
        obs, info = self.env.reset(**kw)
        self._last = self._diff(info)
        return obs, info

    def step(self, action):
        obs, _, term, trunc, info = self.env.step(action)
        diff = self._diff(info)
        reward, self._last = (diff - self._last) / 10, diff
        return obs, reward, term, trunc, info

    def action_masks(self):
        return self.env.action_masks()

    @staticmethod
    def _diff(info):
        figs = info["view"]["figures"]
        return figs[0]["vp"] - figs[1]["vp"]


def random_policy(rng):
    return lambda obs, mask: int(rng.choice(np.flatnonzero(mask)))


class Evaluate(BaseCallback):
    def __init__(self, every: int, games: int):
        super().__init__()
        self.every, self.games, self.curve, self.next = every, games, [], every

    def _on_step(self) -> bool:
        if self.num_timesteps >= self.next and self.num_timesteps > 1:
            self.next += self.every
            model = self.model
            rate = win_rate(lambda o, m: int(model.predict(o, action_masks=m, deterministic=False)[0]),
                            self.games, seed=10_000)
            self.curve.append((self.num_timesteps, rate))
            print(f"{self.num_timesteps:>7} steps: win rate {rate:.2f}", flush=True)
        return True


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--steps", type=int, default=60_000)
    ap.add_argument("--eval-every", type=int, default=10_000)
    ap.add_argument("--eval-games", type=int, default=50)
    ap.add_argument("--seed", type=int, default=0)
    ap.add_argument("--plot", default=None, help="write the learning curve as a PNG")
    ap.add_argument("--json", default=None, help="write the numbers as JSON")
    args = ap.parse_args()
    torch.set_num_threads(1)  # a small MLP: one thread is fastest, and leaves a core to the game
    t0 = time.time()
    baseline = win_rate(random_policy(np.random.default_rng(args.seed)), args.eval_games, seed=10_000)
    print(f"random policy: win rate {baseline:.2f}", flush=True)
    env = MarginOverOpponent(FrescoEnv(players=2, opponents="random", seat=0))
    model = MaskablePPO("MlpPolicy", env, n_steps=1024, batch_size=256, learning_rate=3e-4, gamma=1.0, normalize_advantage=True,
                        ent_coef=0.01, seed=args.seed, verbose=0, policy_kwargs={"net_arch": [128, 128]})
    cb = Evaluate(args.eval_every, args.eval_games)
    cb.curve.append((0, win_rate(lambda o, m: int(model.predict(o, action_masks=m, deterministic=False)[0]),
                                 args.eval_games, seed=10_000)))
    print(f"      0 steps: win rate {cb.curve[0][1]:.2f}", flush=True)
    model.learn(total_timesteps=args.steps, callback=cb)
    final = win_rate(lambda o, m: int(model.predict(o, action_masks=m, deterministic=False)[0]),
                     args.eval_games, seed=10_000)
    if cb.curve[-1][0] != model.num_timesteps:
        cb.curve.append((model.num_timesteps, final))
    minutes = (time.time() - t0) / 60
    cpu = time.process_time() / 60
    print(f"final win rate {final:.2f} (random policy {baseline:.2f}); {minutes:.1f} min, {cpu:.1f} CPU min",
          flush=True)
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"random_policy": baseline, "curve": cb.curve, "minutes": minutes, "cpu_minutes": cpu,
                       "steps": args.steps, "eval_games": args.eval_games}, f, indent=1)
    if args.plot:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        xs, ys = zip(*cb.curve)
        plt.figure(figsize=(6, 3.5))
        plt.plot(xs, ys, marker="o", label="MaskablePPO")
        plt.axhline(baseline, color="grey", linestyle="--", label="random policy")
        plt.xlabel("training steps (agent decisions)")
        plt.ylabel(f"win rate ({args.eval_games} games)")
        plt.title("Fresco, 2 players: finishing ahead of the random bot")
        plt.ylim(0, 1)
        plt.legend()
        plt.tight_layout()
        plt.savefig(args.plot, dpi=100)


if __name__ == "__main__":
    main()
