"""Every combination of the five modules (32) with 2, 3 and 4 players: random games run to the
end, deterministically, and survive to_json/from_json and record/replay at any point; no
seat's view ever shows what R22 keeps private (the supplement: 'You may combine the basic
game with these modules in any way you like'; rulings R4, R13, R22 and the module rulings).

The no-leak check perturbs the hidden items of the saved state (another seat's paints,
Thalers, scrolls and committed plan; the favour tokens left; the portrait deck; the market
bag) and compares the views before and after.
"""
from __future__ import annotations

import json
import random
import os
from itertools import combinations

import pytest

import affresco
from affresco.rules import PlanVariants

from positions import module_game, portrait_ids, portraits_state  # noqa: E402

MODULES = ("portraits", "requests", "special_colours", "scrolls", "bishops_favour")
COMBOS = [c for k in range(len(MODULES) + 1) for c in combinations(MODULES, k)]
# modules 8-10: each with the module it names an interaction with, and with all the others
# (a sample, to keep CI time small)
LATER = [("wall_fresco",), ("requests", "wall_fresco"), MODULES + ("wall_fresco",), ("bells",), ("bells", "medico")]
CHECKS = 14              # full checks per game, at random steps
MAX_ACTIONS = 20000
# AFFRESCO_SWEEP_EVERY=k: the random games below, every k-th (combination, player count) only,
# like test_modules_sweep.py (CI's second stage, the compiled build: a quarter; the pure build
# plays all of them)
_EVERY = 1 if os.environ.get("AFFRESCO_FULL_SWEEP") == "1" else int(os.environ.get("AFFRESCO_SWEEP_EVERY", "1"))


def every_kth(combos, players=(2, 3, 4)):
    """The (combination, player count) cases, every ``_EVERY``-th of them."""
    cases = [(c, n) for c in combos for n in players]
    return [pytest.param(c, n, id=f"{label(c)}-{n}") for i, (c, n) in enumerate(cases) if i % _EVERY == _EVERY - 1]


def label(combo):
    return "+".join(m[:4] for m in combo) or "base"


def options_for(combo, players):
    """Option special_colours_on_fresco on in the 3-player games with its module."""
    return {"special_colours_on_fresco": True} if "special_colours" in combo and players == 3 else {}


PRODUCTIVE = ("restore", "altar", "request", "portrait", "buy", "blend", "scroll", "income", "wall", "exchange", "audience", "deposit")


def random_step(g, rng):
    """A random legal action, preferring (4 in 5) one that does something, so that games
    reach the modules' actions and end in a reasonable number of rounds; returns (seat,
    action).  A medico plan list (``PlanVariants``: plans, none of them productive) is not
    searched: iterating it would make each of its up to ~110,000 plans (a quarter of the sweep's
    CPU); the games are the same."""
    seats = g.to_act
    seat = seats[rng.randrange(len(seats))]
    legal = g.legal_actions(seat)
    assert legal, f"seat {seat} to act without a legal action"
    good = [] if isinstance(legal, PlanVariants) else [a for a in legal if a.kind in PRODUCTIVE]
    pick = good if good and rng.random() < 0.8 else legal
    action = pick[rng.randrange(len(pick))]
    g.apply(seat, action)
    return seat, action


def load(d):
    """The game of an edited saved-state dict, through the public format (parsed: ``from_dict``)."""
    return affresco.Game.from_dict(d)


# ------------------------------------------------------------------------ hidden items
PLANS = ["0-0-0-0-0", "0-1-0-0-0"]


def healthy(g, x: int) -> int:
    """Apprentices seat ``x`` may plan as healthy ones: with the medico, the view's count of its
    healthy apprentices; without it no limit of the medico's (6: the 5 and the neutral one)."""
    view = g.view(None)
    return view["medico"]["healthy"][x] if "medico" in view else 6


def wall_column(g, e: dict, x: int, plan: list[int]) -> int:
    """The column for seat ``x``'s wall tile beside ``plan``: the first empty one its audience
    tile (saved state ``e``) does not cover, or -1 (no tile) when the plan's market is not empty."""
    if plan[0]:
        return -1
    audience = e["modules_state"].get("bells", {}).get("audience", [None] * (x + 1))[x]
    return next(c for c, w in enumerate(g.view(None)["columns"]) if not plan[c] and w != audience)


def perturbations(g):
    """Pairs (what, edited saved-state dict) that change only hidden information, each with
    the seats that may legitimately see the change (None: nobody)."""
    text = g.to_json(pretty=False)
    d = json.loads(text)            # each edit below on its own copy parsed from the text
    n = len(d["players"])
    acting = set(g.to_act)
    out = []
    for x in range(n):
        if x in acting:
            continue        # the acting seat's items decide what happens now: keep them
        e = json.loads(text)
        f = e["figures"][x]
        f["thalers"] += 7
        f["paints"] = "".join(sorted(f["paints"] + "RGK" + "N" * (x + 1), key="RYBOGPKN".index))
        if "scrolls" in e["modules_state"]:
            h = e["modules_state"]["scrolls"][x]
            if h["row"] is not None:
                h["row"] = h["row"] % 5 + 1
            if h["column"] is not None:
                h["column"] = "BCDEA"["ABCDE".index(h["column"])]
        if d["phase"] == "plan" and f["plan"] is not None:
            wall = "wall_fresco" in e["modules_state"]
            # another plan the seat could have committed: with the medico its apprentices (and the
            # wall tile's) are healthy ones, as many as the seat has at most (rules notes MD18)
            fits = [p for p in ([int(c) for c in q.split("-")] for q in PLANS) if p != f["plan"]
                    and sum(p) + (wall and wall_column(g, e, x, p) >= 0) <= healthy(g, x)]
            if fits:
                f["plan"] = fits[0]
                if wall:     # where the wall tile lies is part of the plan: an empty column the
                    # seat's audience tile does not cover (one action tile per column, W3)
                    e["modules_state"]["wall_fresco"]["action_tile"][x] = wall_column(g, e, x, f["plan"])
                if e["modules_state"].get("medico"):     # its ill apprentices must fit the new counts
                    e["modules_state"]["medico"]["plans"][x] = {"ill": [0] * len(f["plan"]), "medico": False}
        out.append((f"seat {x} hidden items", e, {x}))
    ms = d["modules_state"]
    if ms.get("bishops_favour"):
        e = json.loads(text)
        pool = e["modules_state"]["bishops_favour"]
        e["modules_state"]["bishops_favour"] = [("vp:1" if t != "vp:1" else "thalers:5") for t in pool]
        out.append(("favour tokens", e, set()))
    if ms.get("portraits") and ms["portraits"]["deck"]:
        p = ms["portraits"]
        present = set(p["deck"]) | set(p["display"]) | {c for o in p["owned"] for c in o}
        # swap a deck card for a card of the same back already out of the game, if any
        ids = _portrait_decks()
        for i, c in enumerate(p["deck"]):
            gone = sorted(k for k in ids if ids[k] == ids[c] and k not in present)
            if gone:
                e = json.loads(text)
                e["modules_state"]["portraits"]["deck"][i] = gone[0]
                out.append(("portrait deck", e, set()))
                break
    if ms.get("medico") and d["phase"] == "plan":
        # another seat's secret plan words (ill apprentices, medico tile), still fitting its plan
        for x in range(n):
            plan = ms["medico"]["plans"][x]
            if x in acting or plan is None:
                continue
            e = json.loads(text)
            counts = e["figures"][x]["plan"]
            tile = "wall_fresco" in ms and ms["wall_fresco"]["action_tile"][x] >= 0
            ill = [0] * len(counts) if sum(counts) + tile <= healthy(g, x) else plan["ill"]   # (MD18)
            new = {"ill": ill, "medico": not plan["medico"] and counts[0] <= 1}
            if new != plan:
                e["modules_state"]["medico"]["plans"][x] = new
                out.append((f"seat {x} medico plan words", e, {x}))
    if ms.get("bells") and ms["bells"]["stack"] and not g.is_over:
        # R22: which face-down certificates a seat holds is its own (their count is public);
        # swap one for a never-revealed certificate of the stack (kept in no order)
        for x, held in enumerate(ms["bells"]["holdings"]):         # Leonardo's too (seen by nobody)
            down = held["face_down"]
            other = next((c for c in ms["bells"]["stack"] if down and c != down[0]), None)
            if other is None:      # (an acting seat's too: face-down bells decide nothing until the end)
                continue
            e = json.loads(text)
            b = e["modules_state"]["bells"]
            b["stack"][b["stack"].index(other)] = down[0]
            b["holdings"][x]["face_down"][0] = other
            out.append((f"figure {x} face-down certificates", e, {x} if x < n else set()))
    if len(d["market"]["bag"]) >= 1:
        e = json.loads(text)
        e["market"]["bag"] = ["O" if t != "O" else "G" for t in e["market"]["bag"]]
        out.append(("market bag", e, set()))
    return out


_DECKS: dict[str, str] = {}


def _portrait_decks():
    """Card id -> deck letter (A, B, C), as the view shows the cards."""
    if not _DECKS:
        ids = portrait_ids()
        for i in range(0, len(ids), 2):     # every card on display in turn (players own only permanent ones)
            g = module_game(3, modules=["portraits"], modules_state={"portraits": portraits_state(3, display=ids[i:i + 2])})
            for c in g.view(None)["portraits"]["display"]:
                _DECKS[c["id"]] = c["deck"]
    return _DECKS


def check_no_leak(g):
    n = g.players
    viewers = list(range(n)) + [None]
    base = {v: g.view(v) for v in viewers}
    for what, edited, may_see in perturbations(g):
        h = load(edited)
        for v in viewers:
            if v in may_see:
                continue
            assert h.view(v) == base[v], f"{what} leak into the view of seat {v}"


def check_round_trip(g, pretty: bool = False):
    """Save and load: the same state, legal actions and views.  ``pretty``: the indented text
    of ``to_json()`` (what people save), else the compact one (the same state: CI time, the
    indented text is written by json's pure-Python encoder; the games ask for it at their
    last checkpoint)."""
    text = g.to_json(pretty=pretty)
    again = affresco.Game.from_json(text)
    assert again.to_json(pretty=pretty) == text
    for seat in g.to_act:
        assert [str(a) for a in again.legal_actions(seat)] == [str(a) for a in g.legal_actions(seat)]
    for v in list(range(g.players)) + [None]:
        assert again.view(v) == g.view(v)
    return again


def play(players, combo, seed, checkpoints=()):
    """A random game.  At each step number in ``checkpoints``: the save/load check, every
    other time the no-leak check, and every other time the game goes on from the reloaded
    copy (so the rest of it is played on loaded states)."""
    g = affresco.new_game(players=players, modules=combo, seed=seed, options=options_for(combo, players))
    rng = random.Random(f"combinations:{seed}")
    steps, k = 0, 0
    while not g.is_over:
        if steps in checkpoints:
            k += 1
            again = check_round_trip(g, pretty=steps == max(checkpoints))
            if k % 2 == 1:
                check_no_leak(g)
            if k % 2 == 0:
                g = again
        random_step(g, rng)
        steps += 1
        assert steps < MAX_ACTIONS, "the game does not end"
    return g, steps


@pytest.mark.slow
@pytest.mark.parametrize("combo, players", every_kth(COMBOS + LATER))
def test_random_game_with_modules(combo, players):
    """Supplement: the modules combine in any way: a random game ends (final scoring done),
    survives save/load at any point (same state, legal actions and views; the rest of the
    game played on loaded states), replays from its record, and equals the same game
    played without reloads (determinism for a seed)."""
    seed = 1000 + 10 * players + (COMBOS + LATER).index(combo)
    plain, length = play(players, combo, seed)
    pick = random.Random(seed)
    figures = players + (players == 2)
    # the start, the planning of round 1 with one plan committed, the last decision, and
    # random steps in between
    checkpoints = {0, figures + 1, length - 1} | {pick.randrange(length) for _ in range(CHECKS - 3)}
    g, _ = play(players, combo, seed, checkpoints)
    assert g.is_over
    d = json.loads(g.to_json(pretty=False))
    assert d["phase"] == "over" and d["action_sheet_side"] == 2
    assert len(g.scores()) == len(g.names) and sorted(g.ranking()) == list(range(len(g.names)))
    pos = [f["track"] for f in d["figures"]]
    assert len(set(map(str, pos))) == len(pos)                     # R8: one figure per space
    assert plain.to_json(pretty=False) == g.to_json(pretty=False)
    # the record as JSON text replays to the same state (replay parses the text, then takes the
    # dict path: one replay checks both; the scores follow from the state)
    assert affresco.replay(json.dumps(g.record())).to_json(pretty=False) == g.to_json(pretty=False)


# The medico with a sample of the other combinations (CI time): alone, with all five, and
# 4 more per player count drawn with a fixed seed; AFFRESCO_FULL_SWEEP=1 runs all 32.
_FULL = os.environ.get("AFFRESCO_FULL_SWEEP") == "1"
MEDICO_COMBOS = sorted({("medico",), MODULES + ("medico",), ("wall_fresco", "medico")}
                       | ({c + ("medico",) for c in COMBOS} if _FULL else
                          {c + ("medico",) for c in random.Random(10).sample(COMBOS, 4)}))


@pytest.mark.parametrize("combo, players", every_kth(MEDICO_COMBOS))
def test_random_game_with_the_medico(combo, players):
    """Module 10 combines with the others: a random game ends, survives save/load with the
    no-leak check (the secret plan words perturbed), replays from its record, and is
    deterministic for a seed."""
    seed = 5000 + 10 * players + MEDICO_COMBOS.index(combo)
    plain, length = play(players, combo, seed)
    pick = random.Random(seed)
    figures = players + (players == 2)
    checkpoints = {0, figures + 1, length - 1} | {pick.randrange(length) for _ in range(CHECKS - 3)}
    g, _ = play(players, combo, seed, checkpoints)
    assert g.is_over and plain.to_json(pretty=False) == g.to_json(pretty=False)
    m = json.loads(g.to_json(pretty=False))["modules_state"]["medico"]
    # bottles and black apprentices are conserved
    bottles = m["draw"] + m["discard"] + [b for b in m["display"] if b] + [b for h in m["held"] for b in h]
    assert len(bottles) == 16
    assert all(i >= s for i, s in zip(m["ill"], m["sick"])) and sum(m["ill"]) <= 5 * players
    assert all(0 <= s <= 5 for s in m["sick"])           # own apprentices: 5 per player
    assert affresco.replay(g.record()).to_json(pretty=False) == g.to_json(pretty=False)


@pytest.mark.parametrize("combo", [MODULES, ("requests", "scrolls"), ("portraits", "bishops_favour")], ids=label)
def test_replay_upto_gives_each_intermediate_state(combo):
    """Record/replay: replaying the first k actions of a record gives the state after k
    actions."""
    g = affresco.new_game(players=3, modules=combo, seed=77, options=options_for(combo, 3))
    rng = random.Random(77)
    marks = (0, 1, 7, 50, 133, 250)
    states = {0: g.to_json()}
    steps = 0
    while not g.is_over and steps < marks[-1]:
        random_step(g, rng)
        steps += 1
        if steps in marks:
            states[steps] = g.to_json()
    rec = g.record()
    for k, text in states.items():
        assert affresco.replay(rec, upto=k).to_json() == text


@pytest.mark.parametrize("players", [2, 3, 4])
def test_new_game_is_deterministic_for_a_seed(players):
    """Set-up: every chance event follows the seed: same seed, same game; other seeds differ."""
    a = affresco.new_game(players=players, modules=MODULES, seed=42).to_json()
    b = affresco.new_game(players=players, modules=MODULES, seed=42).to_json()
    c = affresco.new_game(players=players, modules=MODULES, seed=43).to_json()
    assert a == b and a != c


def test_module_order_does_not_matter():
    """Supplement: the modules are chosen, not ordered: the same set in another order is the
    same game."""
    a = affresco.new_game(players=3, modules=MODULES, seed=9)
    b = affresco.new_game(players=3, modules=tuple(reversed(MODULES)), seed=9)
    assert a.to_json() == b.to_json()


@pytest.mark.parametrize("players", [2, 3, 4])
def test_spectator_and_seats_never_see_private_items_in_a_full_game(players):
    """R22 with all modules: at every decision of a whole game, no view shows another seat's
    paints, Thalers or scrolls, nor an uncommitted-reveal plan."""
    g = affresco.new_game(players=players, modules=MODULES, seed=5 + players)
    rng = random.Random(players)
    while not g.is_over:
        d = json.loads(g.to_json(pretty=False))
        for v in list(range(players)) + [None]:
            view = g.view(v)
            for f, fig in enumerate(view["figures"][:players]):
                if f != v:
                    assert "paints" not in fig and "thalers" not in fig
                    if d["phase"] == "plan":
                        assert "plan" not in fig
            if "scrolls" in view:
                mine = view["scrolls"]["mine"]
                assert mine == (None if v is None else d["modules_state"]["scrolls"][v])
        random_step(g, rng)


def test_leak_check_notices_a_public_change():
    """The no-leak check above would notice a change of what a seat may see (here a
    public track position, and the seat's own Thalers in its own view)."""
    g = affresco.new_game(players=3, modules=MODULES, seed=3)
    d = json.loads(g.to_json())
    d["figures"][1]["track"] = 9
    d["figures"][2]["thalers"] += 5
    h = load(d)
    assert h.view(0) != g.view(0)
    assert h.view(2)["figures"][2]["thalers"] == g.view(2)["figures"][2]["thalers"] + 5


def test_the_bells_perturbation_is_seen_by_the_owner_only():
    """The no-leak check swaps a face-down certificate of another seat (R22): the owner's view
    shows the change (so the check is not empty), every other view stays the same."""
    from positions import bells_state
    g = module_game(3, modules=["bells"], modules_state={"bells": bells_state(
        3, holdings={1: dict(face_down=["3:3:3"])}, display=["5:5:4"], stack=["6:6:4", "2:2:1"])})
    swaps = [(what, e, who) for what, e, who in perturbations(g) if "certificates" in what]
    assert [what for what, _, _ in swaps] == ["figure 1 face-down certificates"]
    _, edited, _ = swaps[0]
    h = load(edited)
    assert h.view(1)["bells"] != g.view(1)["bells"]
    assert all(h.view(v) == g.view(v) for v in (0, 2, None))


def test_all_five_modules_at_one_restoration():
    """Supplement 'Sexton' and 'Abbot', Russian text special colours on the fresco (option),
    scrolls and bishop's favour, at one restoration: the Sexton moves the bishop onto A1 (1
    Thaler), pink replaces orange (+3), bishop on the segment +3 and Abbot +1, the favour
    token (+1 VP) is taken, then both scrolls are played at the crossing of row 1 and column
    A (2 restored in each line, the new one counted twice: 3 x 4)."""
    from positions import MODULES as ALL, favour_state, plan_all, scrolls_state, track
    ms = {"portraits": portraits_state(3, owned={0: ["sexton", "abbot"]}),
          "scrolls": scrolls_state(3, {0: (1, "A")}), "bishops_favour": favour_state(["vp:1"])}
    g = module_game(3, modules=list(ALL), modules_state=ms, options={"special_colours_on_fresco": True},
                    fresco={"A1": "7:OG", "B1": None, "A2": None}, bishop="E5",
                    seats=[dict(getup="7:00", paints="GK"), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-1-0-0-0", "0-0-0-0-0", "0-0-0-0-1")
    g.apply(0, "restore A1 sexton A1 using GK")
    assert track(g, 0) == 7 + 3 + 3 + 1 + 1
    assert json.loads(g.to_json())["figures"][0]["thalers"] == 11
    g.apply(0, "scroll both")
    assert track(g, 0) == 15 + 12


def test_pending_module_decisions_survive_save_and_load():
    """State format 'asks' (pending module decisions): a scroll decision and a general
    request's paint choice are saved and loaded with the game, and answered the same way."""
    from positions import plan_all, requests_state, scrolls_state
    ms = {"scrolls": scrolls_state(3, {0: (3, "C")}),
          "requests": requests_state(3, fulfilled={1: [["general", 6, ["3:YY", "3:YY", "3:YY"]]]})}
    seats = [dict(getup="7:00", paints="YY"), dict(getup="8:00"), dict(getup="9:00")]
    g = module_game(3, modules=["requests", "scrolls"], modules_state=ms, fresco={"C3": "3:YY"}, seats=seats)
    plan_all(g, "0-1-0-0-0", "0-0-0-0-0", "0-0-0-0-0")
    g.apply(0, "restore C3")
    for answer in ("scroll column", "income B"):
        text = g.to_json()
        again = affresco.Game.from_json(text)
        assert again.to_json() == text
        assert again.to_act == g.to_act
        assert again.legal_actions(g.to_act[0]) == g.legal_actions(g.to_act[0])
        seat = g.to_act[0]
        g.apply(seat, answer)
        again.apply(seat, answer)
        assert again.to_json() == g.to_json()
    assert json.loads(g.to_json())["figures"][1]["paints"] == "RYBB"
