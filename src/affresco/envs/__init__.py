"""Fresco for AI research: PettingZoo, Gymnasium and OpenSpiel environments (docs/envs.md).

Install with ``pip install affresco[rl]``.  The wrappers share one action index space and
one observation encoding per set-up (players, modules, options, encoding: with 3, the default,
and 2 a plan is chosen a step at a time, :class:`PlanChoice`, :class:`SteppedGame`; 3 writes the
modules' numbers into fixed slots), built only on the
public engine API:

* :mod:`affresco.envs.pettingzoo`: ``env(...)`` (AEC) and ``parallel_env(...)``;
* :mod:`affresco.envs.gymnasium`: ``FrescoEnv(players=2, opponents="heuristic")``, registered
  as ``affresco/Fresco-v0``;
* :mod:`affresco.envs.openspiel`: importing it registers ``python_fresco``.
"""
from .core import (ENCODING_VERSION, ENCODINGS, REWARDS, ActionCodec, Config, ObservationEncoder, PlanChoice,
                   SteppedGame, final_rewards, tables)

__all__ = ["ENCODING_VERSION", "ENCODINGS", "REWARDS", "ActionCodec", "Config", "ObservationEncoder", "PlanChoice",
           "SteppedGame", "final_rewards", "tables"]
