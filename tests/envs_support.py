"""Shared by the environment tests: the sampled configurations and the perturbation of
another seat's secrets (through the public JSON format only)."""
from __future__ import annotations

import json
import os

import affresco

from affresco.rules.action_space import supported_modules

ALL = tuple(sorted(supported_modules()))
# Every player count with the base game and with all modules; CI runs a sample unless
# AFFRESCO_ENVS_ALL=1.
FULL = [(n, mods) for n in (2, 3, 4) for mods in ((), ALL)]
SAMPLE = [(2, ()), (3, ALL), (4, ())]
CONFIGS = FULL if os.environ.get("AFFRESCO_ENVS_ALL") else SAMPLE


def cfg_id(c) -> str:
    n, mods = c
    return f"{n}p-{'all' if mods else 'base'}"


def perturbed(game: affresco.Game, seat: int) -> affresco.Game:
    """The same position with every *other* seat's secrets changed: Thalers, paints, a
    committed plan before the reveal (with its medico words and audience tile), secret
    scrolls, which bell certificates it holds face down, and the seed (future chance)."""
    d = json.loads(game.to_json(pretty=False))
    for f, fig in enumerate(d["figures"][:game.players]):
        if f == seat:
            continue
        fig["thalers"] = fig.get("thalers", 0) + 7
        fig["paints"] = fig.get("paints", "") + "RYBO"
        if d["phase"] == "plan" and fig.get("plan") is not None:   # committed, not yet revealed
            fig["plan"] = [0] * len(fig["plan"]) if any(fig["plan"]) else [1] + [0] * (len(fig["plan"]) - 1)
            medico = d.get("modules_state", {}).get("medico")
            if medico and medico["plans"][f] is not None:   # its secret plan words, fitting the new counts
                medico["plans"][f] = {"ill": [0] * len(fig["plan"]), "medico": not medico["plans"][f]["medico"]
                                      and fig["plan"][0] <= 1}
    bells = d.get("modules_state", {}).get("bells")
    if bells:   # which certificates another seat holds face down (the count is public), its audience tile
        for f, hold in enumerate(bells["holdings"][:game.players]):
            if f != seat and hold["face_down"] and bells["stack"] and bells["stack"][0] != hold["face_down"][0]:
                hold["face_down"][0], bells["stack"][0] = bells["stack"][0], hold["face_down"][0]
        if d["phase"] == "plan":
            for f, word in enumerate(bells["audience"]):
                if f != seat and word is not None:
                    bells["audience"][f] = None
    if isinstance(d.get("seed"), int):
        d["seed"] += 1
    else:
        d["seed"] = "other"
    scrolls = d.get("modules_state", {}).get("scrolls")
    if scrolls:
        for f, s in enumerate(scrolls):
            if f != seat and s.get("row"):
                s["row"] = s["row"] % 5 + 1
    return affresco.Game.from_json(json.dumps(d))
