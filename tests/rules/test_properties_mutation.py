"""Property tests, mutation fuzzer (issue #15 item 10): a loaded game never raises anything but
FrescoError.

Saved states of random games (every player count, random module sets, random moments) are
mutated at random: a value anywhere in the JSON tree replaced by one of another type or out of
range, a key removed, a list entry added, removed or repeated.  Loading must either refuse with
StateError or give a game on which every public call (views, legal actions, applying legal and
garbage actions, saving, playing on) raises at most a FrescoError.  Hypothesis picks the game,
the moment and the mutation, so a failure shrinks to a small case that replays exactly.

Scale: ``AFFRESCO_MUTATION_EXAMPLES`` (CI: 60 mutated states and 30 garbage-action runs, as many
kinds of mutation, fewer draws; ``AFFRESCO_FULL_SWEEP=1``, the full random volume: 150 and 75).
"""
from __future__ import annotations

import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import affresco
from affresco import Action, FrescoError, Game, StateError

FULL = os.environ.get("AFFRESCO_FULL_SWEEP") == "1"        # the full random volume
EXAMPLES = int(os.environ.get("AFFRESCO_MUTATION_EXAMPLES", "150" if FULL else "60"))
MODULES = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")
SETTINGS = dict(deadline=None, database=None, derandomize=False,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])

JUNK = [None, True, False, 0, -1, 1, 2, 7, 25, 10**12, -10**12, 1.5, float("inf"), "", "x", "S9", "S0", "C3",
        "7:OG", "RYB", "vp:1", "general", "\ud800", "0" * 500, [], [0], [None], [[0]], ["x"], {}, {"x": 1},
        {"row": 9, "column": "Z"}, [0, 0, 0], [[0, "x", 0]]]


def random_game(seed: int, players: int, modules: tuple[str, ...], steps: int) -> Game:
    rng = random.Random(seed)
    g = affresco.new_game(players, modules, seed=seed)
    for _ in range(steps):
        if g.is_over:
            break
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
    return g


def paths(node, prefix=()):
    """Every path (keys/indexes) into a JSON tree, the root excluded."""
    if isinstance(node, dict):
        items = node.items()
    elif isinstance(node, list):
        items = enumerate(node)
    else:
        return
    for k, v in items:
        yield prefix + (k,)
        yield from paths(v, prefix + (k,))


def mutate(d, draw) -> str:
    """Apply one random mutation to ``d`` (in place); return what was done."""
    every = [p for p in paths(d) if p[0] not in ("history", "log", "setup")]
    path = draw(st.sampled_from(every))
    parent = d
    for k in path[:-1]:
        parent = parent[k]
    key = path[-1]
    how = draw(st.sampled_from(["replace", "replace", "replace", "remove", "append", "repeat"]))
    if how == "remove" and isinstance(parent, dict):
        del parent[key]
    elif how == "remove":
        parent.pop(key)
    elif how in ("append", "repeat") and isinstance(parent[key], list):
        parent[key].append(draw(st.sampled_from(JUNK)) if how == "append" or not parent[key]
                           else json.loads(json.dumps(parent[key][0])))
    elif how == "repeat" and isinstance(parent, list):
        parent.append(json.loads(json.dumps(parent[key])))
    else:
        how = "replace"
        parent[key] = json.loads(json.dumps(draw(st.sampled_from(JUNK))))
    return f"{how} {'.'.join(map(str, path))}"


def garbage_actions(g: Game, rng: random.Random) -> list:
    out = ["", "x", "getup 5:00 x", "plan 9-9-9-9-9", "plan 1", "buy IX Y", "buy I", "restore Z9",
           "restore C3 bishop Z9", "restore C3 using XX", "altar", "altar QQQ", "blend", "blend Z", "track sideways",
           "portrait", "portrait nobody vp", "request general", "request x 1:R 2:R 3:R", "income Q", "scroll up",
           Action("getup", (5,)), Action("plan", None), Action("restore", ("C3", "bishop")),
           Action("restore", ("C3", "using")), Action("buy", ("I",) * 9), 5, None]
    for seat in range(g.players):
        for a in g.legal_actions(seat)[:5]:
            words = str(a).split()
            out.append(" ".join(words + [rng.choice(["x", "C3", "RYB", "1"])]))
            if len(words) > 1:
                out.append(" ".join(words[:-1]))
    return out


def exercise(g: Game, rng: random.Random, moves: int = 40) -> None:
    """Every public call on ``g``; each may refuse with a FrescoError, nothing else."""
    for _ in range(moves):
        for seat in [None, *range(g.players)]:
            g.view(seat)
            g.view(seat, log=False)
        g.to_json()
        g.to_json(pretty=False)
        g.scores(), g.ranking(), g.record(), g.history(), g.clone()
        for seat in range(g.players):
            for bad in garbage_actions(g, rng) if rng.random() < 0.2 else ():
                try:
                    g.apply(seat, bad)
                except FrescoError:
                    pass
        if g.is_over or not g.to_act:
            break
        seat = rng.choice(g.to_act)
        legal = g.legal_actions(seat)
        assert legal, "a seat to act has no legal action"
        g.apply(seat, rng.choice(legal))
    Game.from_json(g.to_json())


@settings(max_examples=EXAMPLES, **SETTINGS)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]),
       modules=st.lists(st.sampled_from(MODULES), unique=True, max_size=5),
       steps=st.integers(0, 300), data=st.data())
def test_mutated_saved_states_load_or_are_refused_with_state_error(seed, players, modules, steps, data):
    g = random_game(seed, players, tuple(modules), steps)
    d = json.loads(g.to_json())
    for _ in range(data.draw(st.integers(1, 3))):
        what = mutate(d, data.draw)
    try:
        text = json.dumps(d)
    except ValueError:
        return
    try:
        loaded = Game.from_json(text)
    except StateError:
        return
    except FrescoError as e:
        raise AssertionError(f"{what}: loading raised {type(e).__name__}, not StateError: {e}") from e
    try:
        exercise(loaded, random.Random(seed))
    except FrescoError:
        pass


@pytest.mark.slow
@settings(max_examples=max(10, EXAMPLES // 2), **SETTINGS)
@given(seed=st.integers(0, 2**32), players=st.sampled_from([2, 3, 4]),
       modules=st.lists(st.sampled_from(MODULES), unique=True, max_size=5), steps=st.integers(0, 400))
def test_garbage_actions_are_refused_and_change_nothing(seed, players, modules, steps):
    """Malformed and hand-built actions at random moments: IllegalAction, the state unchanged."""
    g = random_game(seed, players, tuple(modules), steps)
    rng = random.Random(seed)
    before = g.to_json(pretty=False)
    for seat in range(g.players):
        for bad in garbage_actions(g, rng):
            if g.is_over:
                break
            legal = {str(a) for a in g.legal_actions(seat)}
            if isinstance(bad, str) and " ".join(bad.split()).lower() in {x.lower() for x in legal}:
                continue
            try:
                g.apply(seat, bad)
            except affresco.IllegalAction:
                assert g.to_json(pretty=False) == before
            else:
                before = g.to_json(pretty=False)
