"""Issue #12, 'Property tests over all 256 combinations of the 8 modules with 2, 3 and 4
players': random games finish with every invariant, deterministically, surviving save/load
and record/replay, and no seat's view shows another seat's secret (the perturbation check
of test_modules_combinations.py, with the bells' face-down certificates added there).

Invariants, checked on the saved state (docs/state-format.md) after every action:
  * one figure per VP-track space (R8); Thalers never negative;
  * bells: the 18 certificates are all somewhere (stack, under it, display, a figure's face-down
    or partly paid ones); a partly paid one holds less than its price; the Thalers that went
    onto certificates are accounted: what a figure has put into certificates (paid onto
    partly paid ones + the price of face-down ones) grows by exactly the Thalers its
    purchase, instalment and deposit events name, and an audience or a deposit from behind
    the screen takes exactly those Thalers from the player; a player holding a partly paid certificate
    gains no Thaler unless one is paid up (every Thaler earned goes onto it); at the end one
    figure per bell-track space (the bishop's included);
  * wall fresco: the 18 wall tiles are on the board, in front of a screen, under a fulfilled
    request (R15, W6) or discarded for an exchange tile (2 each, W7); exchange tiles: 4 of
    each blend between the supply and the players, at most one of each blend a player;
  * medico: 16 bottles (draw, discard, display, held; at most 2 held); apprentices conserved
    between own colour, black and neutral: 0 <= own on the medico board <= 5, black held =
    own on the board + neutral ones that fell ill (so more black than own on the board only
    after the neutral one fell ill), black held by all <= 5 per player.

CI plays every combination once, with one player count drawn per combination (seeded) and
the determinism replay for every fourth one; ``AFFRESCO_FULL_SWEEP=1`` plays every
combination with 2, 3 and 4 players, each also replayed for determinism.
``AFFRESCO_SWEEP_EVERY=k`` plays every k-th combination only (the k-1-th, 2k-1-th, ... of the
list, all eight modules included, none of the determinism replays): CI's second stage, the
compiled build, runs a quarter of the sweep (the pure build runs all of it; the two builds'
games are compared move for move in tests/compiled).
"""
from __future__ import annotations

import json
import os
import random
from collections import Counter
from itertools import combinations

import pytest

import affresco

from test_modules_combinations import check_no_leak, check_round_trip, options_for, random_step

MODULES = tuple(sorted(affresco.MODULES))
COMBOS = [c for k in range(len(MODULES) + 1) for c in combinations(MODULES, k)]
FULL = os.environ.get("AFFRESCO_FULL_SWEEP") == "1"
EVERY = 1 if FULL else int(os.environ.get("AFFRESCO_SWEEP_EVERY", "1"))
CHECKPOINTS = 3 if not FULL else 6      # save/load checks per game (the leak check at every other)
MAX_ACTIONS = 20000
WALL_TILES, EXCHANGE_PER_BLEND, BOTTLES, BLACK_PER_PLAYER, OWN = 18, 4, 16, 5, 5


def cases():
    pick = random.Random(256)
    out = []
    for i, combo in enumerate(COMBOS):
        counts = (2, 3, 4) if FULL else (pick.choice((2, 3, 4)),)
        if i % EVERY != EVERY - 1:
            continue
        out += [pytest.param(combo, n, FULL or i % 4 == 0, id=f"{'+'.join(m[:4] for m in combo) or 'base'}-{n}p")
                for n in counts]
    return out


def test_the_sweep_covers_all_256_combinations():
    assert len(MODULES) == 8 and len(set(COMBOS)) == 256
    assert len({p.values[0] for p in cases()}) == 256 // EVERY


# ------------------------------------------------------------------------ invariants
def certificates(ms: dict) -> Counter:
    b = ms["bells"]
    out = Counter(b["stack"]) + Counter(b["under"]) + Counter(b["display"])
    for h in b["holdings"]:
        out += Counter(h["face_down"]) + Counter(c for c, _ in h["partly_paid"])
    return out


def price(cert: str) -> int:
    return int(cert.split(":")[0])


def put_into_certificates(ms: dict) -> list[int]:
    """Per figure: Thalers on partly paid certificates plus the price of face-down ones."""
    return [sum(p for _, p in h["partly_paid"]) + sum(price(c) for c in h["face_down"])
            for h in ms["bells"]["holdings"]]


def certificate_thalers(events: list[dict], fig: int) -> tuple[int, int, bool]:
    """Thalers a figure's new events put onto certificates, how many of them from its own
    money (a purchase, an instalment, a deposit from behind the screen), and whether one was
    paid up."""
    paid, own, done = 0, 0, False
    for e in events:
        if e.get("figure") != fig:
            continue
        if e["kind"] in ("bells_full_certificate", "bells_instalment"):
            paid += e["paid"]
            own += e["paid"]
        elif e["kind"] == "bells_deposit":
            paid += e["thalers"]
            own += e["thalers"] if e["source"] == "own" else 0
        elif e["kind"] == "bells_paid":
            done = True
    return paid, own, done


def check_state(d: dict, n: int, first: dict) -> None:
    figures = d["figures"]
    assert len(set(map(str, (f["track"] for f in figures)))) == len(figures), "two figures on a track space"
    assert all(f["thalers"] >= 0 for f in figures[:n])
    ms = d["modules_state"]
    if "bells" in ms:
        assert certificates(ms) == first["certificates"], "a bell certificate was lost or made"
        for h in ms["bells"]["holdings"]:
            assert all(0 <= p < price(c) for c, p in h["partly_paid"])
        track = ms["bells"].get("track")
        if track:
            placed = [x for x in track if x >= 0]
            assert len(set(placed)) == len(placed), f"two figures on a bell-track space: {track}"
    if "wall_fresco" in ms:
        w, fulfilled = ms["wall_fresco"], ms.get("requests", {}).get("fulfilled", [])
        on_board = sum(t is not None for row in w["board"] for t in row)
        held = sum(len(t) for t in w["tiles"])
        under_requests = sum(t.startswith("W:") for seat in fulfilled for r in seat for t in r[2])
        exchanged = sum(len(x) for x in w["exchange_tiles"])
        assert on_board + held + under_requests + 2 * exchanged == first["wall_tiles"]
        for blend, left in w["supply"].items():
            owners = [x.count(blend) for x in w["exchange_tiles"]]
            assert left + sum(owners) == EXCHANGE_PER_BLEND and max(owners) <= 1
    if "medico" in ms:
        m = ms["medico"]
        bottles = m["draw"] + m["discard"] + [b for b in m["display"] if b] + [b for h in m["held"] for b in h]
        assert len(bottles) == BOTTLES and all(len(h) <= 2 for h in m["held"])
        assert sum(m["ill"]) <= BLACK_PER_PLAYER * n, "more black apprentices held than the medico board had"
        for sick, ill, neutral in zip(m["sick"], m["ill"], m["neutral_ill"]):
            assert 0 <= sick <= OWN
            assert ill >= sick, "an own apprentice on the medico board without its black one"
            assert ill == sick or neutral > 0, "a black apprentice not from an own or the neutral one"


def check_step(g, applied, before: dict, after: dict, new_events: list[list[dict]], n: int) -> None:
    """``applied``: the (seat, action) that led from ``before`` to ``after``."""
    ms0, ms1 = before["modules_state"], after["modules_state"]
    if "bells" not in ms0:
        return
    into0, into1 = put_into_certificates(ms0), put_into_certificates(ms1)
    seat, action = applied[0], str(applied[1])
    for fig in range(n):
        paid, own, done = certificate_thalers(new_events[fig], fig)
        assert into1[fig] - into0[fig] == paid, f"certificate deposits of figure {fig} not accounted"
        if fig == seat and action.split()[0] in ("audience", "deposit") and before["round"] == after["round"] \
                and not g.is_over:
            assert after["figures"][fig]["thalers"] == before["figures"][fig]["thalers"] - own, \
                f"{action}: the Thalers paid are not the Thalers that left the player"
        if ms0["bells"]["holdings"][fig]["partly_paid"] and not g.is_over and not done:
            assert after["figures"][fig]["thalers"] <= before["figures"][fig]["thalers"], \
                "a Thaler earned did not go onto the partly paid certificate"


def snapshot(g) -> dict:
    """The parts of the saved state (docs/state-format.md) the invariants read, without the
    whole log (``to_json`` after every action would cost most of the sweep's time)."""
    s = g.state
    return {"round": g.round,
            "figures": [{"track": s.pos[f], "thalers": s.thalers[f] if f < s.n else 0} for f in range(len(s.pos))],
            "modules_state": {m.name: m.dump(s) for m in s.hooks}}


def play_checked(combo, n, seed, checkpoints=frozenset()):
    g = affresco.new_game(players=n, modules=combo, seed=seed, options=options_for(combo, n))
    rng = random.Random(f"sweep:{seed}")
    d = snapshot(g)
    assert d["modules_state"] == json.loads(g.to_json(pretty=False))["modules_state"]
    ms = d["modules_state"]
    first = {"certificates": certificates(ms) if "bells" in ms else None,
             "wall_tiles": WALL_TILES}
    if "bells" in ms:
        assert sum(first["certificates"].values()) == 18
    marks = [g.events_since(f, 0)[1] for f in range(n)]
    check_state(d, n, first)
    steps = 0
    while not g.is_over:
        if steps in checkpoints:
            again = check_round_trip(g, pretty=steps == max(checkpoints))
            if steps % 2 == 0:
                check_no_leak(g)
            else:
                g = again                        # the rest of the game played on a loaded copy
                marks = [g.events_since(f, 0)[1] for f in range(n)]
        applied = random_step(g, rng)
        steps += 1
        assert steps < MAX_ACTIONS, "the game does not end"
        after = snapshot(g)
        new = []
        for f in range(n):
            events, marks[f] = g.events_since(f, marks[f])
            new.append(events)
        check_state(after, n, first)
        check_step(g, applied, d, after, new, n)
        d = after
    return g, steps


@pytest.mark.parametrize("combo, players, twice", cases())
def test_every_module_combination_keeps_the_invariants(combo, players, twice):
    """A random game with these modules ends (final scoring done) with every invariant above
    after every action, survives save/load at random points (same state, legal actions and
    views; the rest played on the loaded copy) with no secret in another seat's view, replays
    from its record, and (``twice``) is the same game when played again from its seed."""
    seed = 9000 + 10 * players + COMBOS.index(combo)
    pick = random.Random(seed)
    length = 60 + pick.randrange(120)          # checkpoints fall in the first rounds and later
    checkpoints = frozenset(pick.randrange(length) for _ in range(CHECKPOINTS)) | {0}
    g, steps = play_checked(combo, players, seed, checkpoints)
    d = json.loads(g.to_json(pretty=False))
    assert snapshot(g)["modules_state"] == d["modules_state"]
    assert d["phase"] == "over" and len(g.scores()) == players + (players == 2)
    assert sorted(g.ranking()) == list(range(len(g.names)))
    assert sum(sum(v.values()) for v in g.vp_sources()) == sum(g.scores())
    assert affresco.replay(json.loads(json.dumps(g.record()))).to_json(pretty=False) == g.to_json(pretty=False)
    if twice:
        again, _ = play_checked(combo, players, seed, checkpoints)
        assert again.to_json(pretty=False) == g.to_json(pretty=False)
