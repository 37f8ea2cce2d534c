"""R22 (hidden information): ``view(seat)`` leaks nothing private, proven by perturbation.

For whole random games, at every step:
  * structure: every view (each seat and the spectator) is plain JSON; it shows the seat's
    own paints, Thalers and plan, and no other seat's paints or Thalers, no other seat's plan
    while planning (phase "plan"), no seed, no chance counter, no bag contents; the log holds
    the public lines and the seat's own private lines only;
  * perturbation: the full state is taken (to_json), another seat's hidden items are changed
    (Thalers, paints, a committed plan before the reveal, private log lines) together with the
    seed, the chance counter and the bag, and loaded back (``from_dict``: the saved format,
    parsed): ``view(seat)`` must be identical.  Changing the seat's *own* items must show in
    its view.  The spectator view does not change when every seat's hidden items change.

Scale: ``AFFRESCO_PROPERTY_GAMES`` (default 100) scales the number of games like in
test_properties.py.
"""
from __future__ import annotations

import copy
import json
import os
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import affresco
from positions import possible_plans
from affresco import Game
from affresco.rules import PlanVariants
from affresco.rules.paints import PAINTS, paint_text
from affresco.rules.state import cons_to_list

GAMES = int(os.environ.get("AFFRESCO_PROPERTY_GAMES", "100"))
STRUCT_GAMES = max(2, GAMES // 40)       # per player count: structure checked at every step
PERTURB_GAMES = max(1, GAMES // 100)     # per player count: perturbation at every step
SAMPLED_GAMES = max(3, GAMES // 30)      # per player count: perturbation at sampled steps
PLAYER_COUNTS = (2, 3, 4)
SETTINGS = dict(deadline=None, database=None,
                suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large])
PRIVATE_KEYS = {"paints", "thalers"}
SECRET_KEYS = {"seed", "chance_draws", "draws", "bag", "rng", "random_state", "history_offset"}

seeds = st.integers(min_value=0, max_value=2**63 - 1)


def choose(g: Game, rng: random.Random, eager: float):
    """A random legal action, preferring a productive one with probability ``eager``; a medico
    plan list (``PlanVariants``: plans, none productive) is not searched: iterating it would make
    each of its up to ~110,000 plans (the choice is the same)."""
    seat = rng.choice(g.to_act)
    legal = g.legal_actions(seat)
    if eager and rng.random() < eager and not isinstance(legal, PlanVariants):
        for kind in ("restore", "altar", "buy", "blend", "studio"):
            best = [a for a in legal if a.kind == kind]
            if best:
                return seat, rng.choice(best)
    return seat, rng.choice(legal)


def steps(n: int, seed: int, chooser: int, eager: float = 0.0):
    """Yield the game before each action and after the last."""
    g = affresco.new_game(players=n, seed=seed)
    rng = random.Random(chooser)
    while True:
        yield g
        if g.is_over:
            return
        seat, action = choose(g, rng, eager)
        g.apply(seat, action)


# ------------------------------------------------------------------------------ structure
def walk(obj, path=""):
    """Every (path, key, value) of nested dicts and lists."""
    if isinstance(obj, dict):
        for k, v in obj.items():
            yield path, k, v
            yield from walk(v, f"{path}.{k}")
    elif isinstance(obj, list):
        for i, v in enumerate(obj):
            yield from walk(v, f"{path}[{i}]")


def assert_plain_json(v) -> None:
    text = json.dumps(v, allow_nan=False)
    assert json.loads(text) == v, "the view is not plain JSON (tuples, non-string keys...)"


def check_view_structure(g: Game, seat: int | None, checked: dict | None = None) -> dict:
    """``checked`` (seat -> how many of its view's events earlier positions of this game
    checked): the log only grows, so only the new events are dumped and walked (at every step
    of a whole game, walking the whole log made these tests quadratic in its length)."""
    s = g.state
    v = g.view(seat)
    start = checked.get(seat, 0) if checked is not None else 0
    head = {k: x for k, x in v.items() if k != "events"}
    new = v["events"][start:]
    assert_plain_json(head)
    assert_plain_json(new)
    if checked is not None:
        checked[seat] = len(v["events"])
    for path, key, _ in [*walk(head), *walk(new, f".events[{start}:]")]:
        assert key not in SECRET_KEYS, f"view({seat}) shows {path}.{key}"
        if key in PRIVATE_KEYS:
            assert path == f".figures[{seat}]", f"view({seat}) shows {path}.{key}"
    figures = v["figures"]
    assert len(figures) == s.figures
    planning = s.phase == "plan"
    for f, fig in enumerate(figures):
        if f == seat:
            assert fig["paints"] == paint_text(s.paints[f]), "own paints not shown"
            assert fig["thalers"] == s.thalers[f], "own Thalers not shown"
            if s.plan[f] is not None:
                assert fig["plan"] == list(s.plan[f]), "own committed plan not shown"
        else:
            assert not PRIVATE_KEYS & set(fig), f"view({seat}) shows figure {f}'s {PRIVATE_KEYS & set(fig)}"
            if planning and f < s.n:
                assert "plan" not in fig, f"view({seat}) shows figure {f}'s plan while planning (R4)"
        if f < s.n and s.phase == "visits":
            assert fig.get("plan") == list(s.plan[f]), "a revealed plan is public"
    events = [{"round": r, **e} for (r, who, e) in cons_to_list(s.log) if who is None or who == seat]
    assert v["events"] == events, f"view({seat}) events are not the public ones plus its own"
    return v


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_views_show_own_items_and_no_others(n):
    @settings(max_examples=STRUCT_GAMES, **SETTINGS)
    @given(seed=seeds, chooser=seeds, eager=st.sampled_from([0.0, 0.5, 1.0]))
    def run(seed, chooser, eager):
        checked: dict = {}
        for g in steps(n, seed, chooser, eager):
            for seat in [*range(n), None]:
                check_view_structure(g, seat, checked)
    run()


# ------------------------------------------------------------------------------ perturbation
def state_dict(g: Game) -> dict:
    """The parsed to_json() text, from the compact text (the indented one's pure-Python
    encoder is slow for per-step use; the two are the same state, test_serialization, and are
    compared here from time to time too)."""
    return json.loads(g.to_json(pretty=False))


def other_paints(rng: random.Random, old: str, only_more: bool) -> str:
    """A different paint text; with ``only_more`` a superset of ``old`` (see ``perturb``)."""
    extra = "".join(rng.choice(PAINTS[:6]) for _ in range(rng.randint(1, 4)))
    if only_more or not old or rng.random() < 0.5:
        return old + extra
    return extra


def perturb(data: dict, g: Game, targets: list[int], rng: random.Random) -> dict:
    """A copy of the state dict with the hidden items of ``targets`` changed, and the seed,
    chance counter and bag changed.

    The current visitor's paints and Thalers only grow: after loading, the engine skips a
    visit that can only pass (a public consequence of the rules, not a leak), and more paint
    or money never takes a legal action away.
    """
    s = g.state
    d = dict(data)
    d["figures"] = [dict(f) for f in data["figures"]]
    # the seed and the chance counter are hidden from everyone
    d["seed"] = data["seed"] + 1 + rng.randrange(10**6) if isinstance(data["seed"], int) else data["seed"] + "x"
    d["chance_draws"] = data["chance_draws"] + rng.randrange(1, 50)
    # the bag: another order (not kept) and other contents of the same size
    mk = dict(data["market"])
    bag = list(mk["bag"])
    rng.shuffle(bag)
    if bag:
        bag[0] = rng.choice(["RRR", "YYY", "BBB", "RY", "G", "O", "RB"])
    mk["bag"] = bag
    d["market"] = mk
    if d.get("setup"):
        d["setup"] = dict(d["setup"], seed=d["seed"])
    visiting = s.actor if s.phase == "visits" and s.pending is None else -1
    for f in targets:
        fig = d["figures"][f]
        grow = f == visiting
        fig["thalers"] = fig["thalers"] + rng.randint(1, 30) if grow or rng.random() < 0.5 \
            else rng.randint(0, max(0, fig["thalers"] - 1)) if fig["thalers"] else 7
        fig["paints"] = other_paints(rng, fig["paints"], grow)
        if s.phase == "plan" and fig["plan"] is not None:
            # another legal plan, still secret
            legal = [p for p in possible_plans(g, f) if p != fig["plan"]]
            if legal:
                fig["plan"] = rng.choice(legal)
    # the targets' plans in the action history (the history is not part of any view)
    d["history"] = [[who, "plan 0-0-0-0-0" if who in targets and text.startswith("plan ") else text]
                    for who, text in data["history"]]
    # private log lines of the targets
    d["log"] = [[r, who, {"kind": "text", "text": f"secret {rng.random()}"} if who in targets else text] for r, who, text in data["log"]]
    return d


def check_perturbations(g: Game, rng: random.Random, data: dict | None = None, own: bool = True) -> None:
    s = g.state
    data = data or state_dict(g)
    if rng.random() < 0.05:
        assert data == json.loads(g.to_json())
    views = {seat: g.view(seat) for seat in [*range(s.n), None]}
    for seat in [*range(s.n), None]:
        targets = [f for f in range(s.n) if f != seat]
        p = perturb(data, g, targets, rng)
        h = Game.from_dict(p)
        assert h.view(seat) == views[seat], (
            f"view({seat}) changed when the hidden items of seats {targets} changed "
            f"(phase {s.phase}, round {s.round})")
        # the perturbed state really is different, and other seats do see their own change
        for f in targets:
            assert h.state.thalers[f] == p["figures"][f]["thalers"]
            if seat is None:
                assert h.view(f) != views[f]
    if own:
        # a seat sees its own items
        for seat in range(s.n):
            p = dict(data, figures=[dict(f) for f in data["figures"]])
            mine = p["figures"][seat]
            mine["thalers"] += 5
            mine["paints"] += "O"
            h = Game.from_dict(p)
            v = h.view(seat)["figures"][seat]
            assert v["thalers"] == s.thalers[seat] + 5
            assert sorted(v["paints"]) == sorted(paint_text(s.paints[seat]) + "O")


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_perturbing_hidden_items_never_changes_other_views_whole_games(n):
    """Every step of whole games (by default one per player count, a restoration-eager one
    so that it is short; the sampled test below covers uniform play)."""
    for k in range(PERTURB_GAMES):
        eager = 1.0 if k % 2 == 0 else 0.0
        rng = random.Random(f"perturb:{n}:{k}:{eager}")
        for i, g in enumerate(steps(n, 1000 * k + n, 77 + k, eager)):
            check_perturbations(g, rng, own=i % 10 == 0)


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_perturbing_hidden_items_at_random_steps(n):
    @settings(max_examples=SAMPLED_GAMES, **SETTINGS)
    @given(seed=seeds, chooser=seeds, eager=st.sampled_from([0.0, 0.5, 1.0]),
           share=st.floats(min_value=0.005, max_value=0.05))
    def run(seed, chooser, eager, share):
        rng = random.Random(chooser ^ seed)
        for g in steps(n, seed, chooser, eager):
            # always while planning with some plans committed; else at a random share of steps
            committed = g.state.phase == "plan" and any(p is not None for p in g.state.plan[:n])
            if (committed and rng.random() < 0.25) or g.is_over or rng.random() < share:
                check_perturbations(g, rng)
    run()


# ------------------------------------------------------------------------------ targeted cases
def to_plan_phase(n: int, seed: int) -> Game:
    g = affresco.new_game(players=n, seed=seed)
    while g.state.phase != "plan":
        seat = g.to_act[0]
        g.apply(seat, g.legal_actions(seat)[0])
    return g


@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_plans_secret_until_every_plan_is_committed(n):
    """R4/R22: a committed plan is seen by its owner only, until the last plan is committed."""
    g = to_plan_phase(n, 5)
    rng = random.Random(5)
    committed: dict[int, list[int]] = {}
    for seat in range(n - 1):
        plan = rng.choice([a for a in g.legal_actions(seat) if a.args[0] != "0-0-0-0-0"])
        g.apply(seat, plan)
        assert g.state.phase == "plan"
        committed[seat] = [int(x) for x in plan.args[0].split("-")]
        for viewer in [*range(n), None]:
            v = check_view_structure(g, viewer)
            for s2, counts in committed.items():
                assert v["figures"][s2]["plan_committed"] is True
                if viewer == s2:
                    assert v["figures"][s2]["plan"] == counts
                else:
                    assert "plan" not in v["figures"][s2]
            assert sum(e["kind"] == "plan_chosen" for e in v["events"]) == (viewer in committed)
        check_perturbations(g, rng)
    # the last plan reveals every plan (R4): public for everyone from now on
    last = n - 1
    g.apply(last, g.legal_actions(last)[-1])
    assert g.state.phase != "plan"
    if g.state.round == 1 and g.state.phase == "visits":
        for viewer in [*range(n), None]:
            figs = check_view_structure(g, viewer)["figures"]
            assert all(figs[f]["plan"] == list(g.state.plan[f]) for f in range(n))


def test_spectator_sees_no_private_items():
    for n in PLAYER_COUNTS:
        checked: dict = {}
        for g in steps(n, 11, 12, 0.5):
            v = check_view_structure(g, None, checked)
            assert v["seat"] is None
            for fig in v["figures"]:
                assert not PRIVATE_KEYS & set(fig)
                if g.state.phase == "plan":
                    assert "plan" not in fig
            assert v["events"] == [{"round": r, **e} for (r, who, e) in cons_to_list(g.state.log) if who is None]
            assert not any(e["kind"] == "plan_chosen" for e in v["events"])


def test_views_are_json_serialisable_and_independent():
    g = affresco.new_game(players=4, seed=2)
    rng = random.Random(2)
    for i in range(300):
        if g.is_over:
            break
        seat, action = choose(g, rng, 0.3)
        g.apply(seat, action)
        if i % 15:
            continue
        for viewer in [*range(4), None]:
            v = g.view(viewer)
            json.dumps(v)
            # a view is a snapshot: changing it does not change the game
            before = g.to_json(pretty=False)
            v2 = copy.deepcopy(v)
            v["figures"].clear()
            v["fresco"][0][0] = "changed"
            v["events"].append({"kind": "changed"})
            assert g.to_json(pretty=False) == before
            assert g.view(viewer) == v2


def test_view_rejects_bad_seats():
    g = affresco.new_game(players=3, seed=1)
    for bad in (-1, 3, 4, "0", True, 1.0):
        with pytest.raises(affresco.FrescoError):
            g.view(bad)


# ------------------------------------------------------------------------------ scrolls (R17, R22)
SCROLLS = "scrolls" in affresco.MODULES


def scroll_games(n: int, seed: int, chooser: int):
    """Yield (game before the action, seat, action) through a restoration-eager scrolls game."""
    g = affresco.new_game(players=n, modules=("scrolls",), seed=seed)
    rng = random.Random(chooser)
    while not g.is_over:
        seat, action = choose(g, rng, 0.8)
        yield g, seat, action
        g.apply(seat, action)


@pytest.mark.slow
@pytest.mark.skipif(not SCROLLS, reason="no scrolls module")
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_other_seats_scrolls_never_show(n):
    """R22: a player's scrolls are private; perturbing another seat's unplayed scrolls leaves
    every other view unchanged."""
    rng = random.Random(n)
    for i, (g, _, _) in enumerate(scroll_games(n, 40 + n, 41 + n)):
        if i % 7 or g.state.asks:
            continue
        data = state_dict(g)
        for seat in [*range(n), None]:
            p = json.loads(json.dumps(data))
            for f, h in enumerate(p["modules_state"]["scrolls"]):
                if f != seat:
                    if h["row"] is not None:
                        h["row"] = rng.randint(1, 5)
                    if h["column"] is not None:
                        h["column"] = rng.choice("ABCDE")
            assert Game.from_dict(p).view(seat) == g.view(seat), \
                f"view({seat}) shows another seat's scrolls"


@pytest.mark.slow
@pytest.mark.skipif(not SCROLLS, reason="no scrolls module")
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_scroll_question_does_not_reveal_a_scroll(n):
    """R17/R22: scrolls are secret.  After a restoration with the bishop on the segment, the
    other seats' views must be the same whether or not the restorer holds a scroll of that
    row or column; otherwise asking the restorer ('scroll none|row|column|both') only when a
    scroll could be played tells everyone that they hold one.

    Counterfactual: the same state with the restorer's unplayed scrolls moved to the row and
    column nobody holds, the same restoration applied to both."""
    found = 0
    for seed in range(60):
        if found >= 3:
            break
        for g, seat, action in scroll_games(n, 300 + seed, 301 + seed):
            s = g.state
            if action.kind != "restore" or s.actor != seat or seat >= s.n:
                continue
            data = state_dict(g)
            held = data["modules_state"]["scrolls"]
            mine = held[seat]
            extra = dict(zip(action.args[1::2], action.args[2::2]))
            segment = action.args[0]
            bishop_on = extra.get("bishop", data["bishop"]) == segment
            matches = (mine["row"] is not None and mine["row"] == int(segment[1])) or \
                      (mine["column"] is not None and mine["column"] == segment[0])
            if not (bishop_on and matches):
                continue
            rows_free = [r for r in range(1, 6) if all(h["row"] != r for h in held) and r != int(segment[1])]
            cols_free = [c for c in "ABCDE" if all(h["column"] != c for h in held) and c != segment[0]]
            if not rows_free or not cols_free:
                continue
            p = json.loads(json.dumps(data))
            if mine["row"] is not None:
                p["modules_state"]["scrolls"][seat]["row"] = rows_free[0]
            if mine["column"] is not None:
                p["modules_state"]["scrolls"][seat]["column"] = cols_free[0]
            without = Game.from_dict(p)
            for viewer in range(n):
                if viewer != seat:
                    assert without.view(viewer) == g.view(viewer)   # before: the same
            with_scroll = g.clone()
            with_scroll.apply(seat, action)
            without.apply(seat, action)
            found += 1
            for viewer in [*range(n), None]:
                if viewer == seat:
                    continue
                a, b = with_scroll.view(viewer), without.view(viewer)
                diff = sorted(k for k in a if a.get(k) != b.get(k))
                assert a == b, (
                    f"{n} players, seed {300 + seed}: after seat {seat}'s '{action}' with the bishop on "
                    f"{segment}, view({viewer}) differs in {diff} depending on whether seat {seat} "
                    f"holds a scroll of that line (to_act {a['to_act']} vs {b['to_act']})")
    assert found, "no restoration with a matching scroll happened"


# ------------------------------------------------------------------------------ module medico
def _perturb_medico(data: dict, g: Game, targets: list[int], rng: random.Random) -> dict:
    """``perturb`` plus the targets' secret medico plan words (ill apprentices, the medico
    tile), kept consistent with their (perturbed) counts."""
    d = perturb(data, g, targets, rng)
    ms = json.loads(json.dumps(d["modules_state"]))
    plans = ms["medico"]["plans"]
    for f in targets:
        counts = d["figures"][f]["plan"]
        if g.state.phase == "plan" and counts is not None and plans[f] is not None:
            most = g.view(None)["medico"]["healthy"][f]    # no ill one named: healthy ones only (MD18)
            counts = d["figures"][f]["plan"] = list(counts)
            while sum(counts) > most:
                counts[counts.index(max(counts))] -= 1
            plans[f] = {"ill": [0] * len(counts), "medico": not plans[f]["medico"] and counts[0] <= 1}
    d["modules_state"] = ms
    return d


@pytest.mark.slow
@pytest.mark.parametrize("n", PLAYER_COUNTS)
def test_medico_piles_and_secret_plan_words_never_show(n):
    """R22 with the medico: the infection pile and the bottles' draw pile keep no order (a tile
    or bottle is drawn at random when needed), so changing the seed and the chance counter
    changes which come next but no view; another seat's plan words (ill apprentices, the medico
    tile) stay secret until the reveal; no view lists what the piles hold, only how many."""
    g = affresco.new_game(players=n, modules=("medico",), seed=70 + n)
    rng = random.Random(n)
    step = 0
    while not g.is_over:
        if step % 3 == 0 or g.state.phase == "plan":
            data = state_dict(g)
            for seat in [*range(n), None]:
                v = g.view(seat)
                assert set(v["medico"]) >= {"draw_pile", "infection_tiles_left"}
                assert isinstance(v["medico"]["draw_pile"], int)
                assert isinstance(v["medico"]["infection_tiles_left"], int)
                targets = [f for f in range(n) if f != seat]
                h = Game.from_dict(_perturb_medico(data, g, targets, rng))
                assert h.view(seat) == v, f"view({seat}) changed (phase {g.state.phase}, round {g.state.round})"
        seat, action = choose(g, rng, 0.5)
        g.apply(seat, action)
        step += 1
