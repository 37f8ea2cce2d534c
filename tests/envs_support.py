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
            medico = d.get("modules_state", {}).get("medico")
            one = not any(fig["plan"]) and (not medico or game.view(None)["medico"]["healthy"][f] >= 1 + (
                d["modules_state"].get("wall_fresco", {}).get("action_tile", [-1] * (f + 1))[f] >= 0))
            # (with the medico the new plan's apprentice is a healthy one, as the wall tile's: MD18)
            fig["plan"] = [1] + [0] * (len(fig["plan"]) - 1) if one else [0] * len(fig["plan"])
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
    return affresco.Game.from_dict(d)


def secret_changes(game: affresco.Game, seat: int):
    """The same position with *one* kind of secret that ``seat`` may not see changed at a
    time (through the public JSON format): ``(name, game)`` for each kind the position has.
    Other seats' Thalers, paints, committed plans before the reveal (with their medico words),
    audience and wall action tiles while planning, scroll rows, which bell certificates they
    hold face down (swapped with the certificate stack's: the stack's contents too); the
    portrait decks' and the favour tokens' contents (their counts alone are shown); the seed
    (future chance: the next infection tile, bottle, certificate ...).  (The infection and
    bottle piles hold the edition's tiles and bottles minus the ones shown, so a state with
    other contents is refused on loading: their secret is the order they come in, the seed.)"""
    text = game.to_json(pretty=False)
    base = json.loads(text)
    n = game.players
    others = [f for f in range(n) if f != seat]
    planning = base["phase"] == "plan"
    mods = base.get("modules_state", {})

    def changed(name, edit):
        d = json.loads(text)            # a fresh copy to edit (one parse, not a dump and a parse)
        if edit(d) is not False:
            yield name, affresco.Game.from_dict(d)

    def thalers(d):
        for f in others:
            d["figures"][f]["thalers"] = d["figures"][f].get("thalers", 0) + 7

    def paints(d):
        for f in others:
            d["figures"][f]["paints"] = d["figures"][f].get("paints", "") + "RYBO"

    def seed(d):
        d["seed"] = d["seed"] + 1 if isinstance(d.get("seed"), int) else "other"

    yield from changed("thalers", thalers)
    yield from changed("paints", paints)
    yield from changed("seed", seed)
    if planning and any(base["figures"][f].get("plan") is not None for f in others):
        def plans(d):
            for f in others:
                fig = d["figures"][f]
                if fig.get("plan") is None:
                    continue
                fig["plan"] = [0] * len(fig["plan"]) if any(fig["plan"]) else [1] + [0] * (len(fig["plan"]) - 1)
                medico = d.get("modules_state", {}).get("medico")
                if medico and medico["plans"][f] is not None:
                    medico["plans"][f] = {"ill": [0] * len(fig["plan"]),
                                          "medico": not medico["plans"][f]["medico"] and fig["plan"][0] <= 1}
                for name, empty in (("bells", None), ("wall_fresco", -1)):   # their action tiles, off
                    tiles = d.get("modules_state", {}).get(name)
                    if tiles:
                        key = "audience" if name == "bells" else "action_tile"
                        tiles[key][f] = empty
        yield from changed("plans", plans)
    if "scrolls" in mods:
        def scrolls(d):
            rows = [s for f, s in enumerate(d["modules_state"]["scrolls"]) if f in others and s.get("row")]
            for s in rows:
                s["row"] = s["row"] % 5 + 1
            return bool(rows)
        yield from changed("scrolls", scrolls)
    if "bells" in mods:
        def face_down(d):
            bells = d["modules_state"]["bells"]
            done = False
            for f in others:
                hold = bells["holdings"][f]
                if hold["face_down"] and bells["stack"] and bells["stack"][0] != hold["face_down"][0]:
                    hold["face_down"][0], bells["stack"][0] = bells["stack"][0], hold["face_down"][0]
                    done = True
            return done
        yield from changed("bells face down", face_down)
    if "portraits" in mods:
        yield from changed("portrait deck", swap_portrait_card)
    if "bishops_favour" in mods:
        def tokens(d):
            left = d["modules_state"]["bishops_favour"]
            if not left:
                return False
            left[0] = "vp:1" if left[0] != "vp:1" else "thalers:5"
        yield from changed("favour tokens", tokens)


def swap_portrait_card(d: dict) -> bool:
    """In a position's JSON ``d``: a card of the portrait deck swapped with one of the same deck
    (A, B, C) that is out of the game (the decks' counts, all a view shows, stay); False if
    none can be."""
    p = d["modules_state"]["portraits"]
    used = set(p["deck"]) | set(p["display"]) | {c for o in p["owned"] for c in o}
    decks = _portrait_decks()
    for i, c in enumerate(p["deck"]):
        out = [x for x, deck in decks.items() if deck == decks[c] and x not in used]
        if out:
            p["deck"][i] = out[0]
            return True
    return False


def random_positions(n: int, mods, seed: int, every: int, plans: bool = False):
    """Every ``every``-th position of a seeded random game, and the last; ``plans``: also each
    round's planning position after its first plan (a committed plan is secret then)."""
    import random
    g = affresco.new_game(n, mods, seed=seed)
    rng = random.Random(seed)
    i = 0
    planned = -1           # the round whose planning position after its first plan was given
    while not g.is_over:
        if plans and g.phase == "plan" and len(g.to_act) < n and planned != g.round:
            planned = g.round
            yield g
        elif i % every == 0:
            yield g
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        i += 1
    yield g


def _portrait_decks() -> dict[str, str]:
    """The reference edition's portrait cards: id -> deck (A, B, C)."""
    from importlib import resources
    import tomllib
    data = tomllib.loads(resources.files("affresco.rules").joinpath("data/portraits.toml").read_text(encoding="utf-8"))
    return {c["id"]: c["deck"] for c in data["cards"]}
