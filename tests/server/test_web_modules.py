"""Modules 8-10 in the browser (issue 12): the bells, the wall fresco and the medico.

A person plays a whole game with each module against a bot by clicking, in Debian's chromium:
the plan widget places the module's action tile (the audience tile, the wall fresco tile, the
medico tile) and marks ill apprentices; each new decision is taken where a person would take it
(a certificate on the bell board and then how much to pay, a wall section on the wall board, a
bottle on the medico board, the other choices in the decision area).  Every decision the page
offers comes from the server's legal actions: the widget's plan must be one of them, and every
module decision the server offers is taken by a click.  At phone size (390x844) the page never
scrolls sideways and every control is at least 44 px.  The module boards are photographed at
desktop and phone size (AFFRESCO_SCREENSHOTS=docs/screenshots writes them for the README).
"""
from __future__ import annotations

import random

import pytest

from test_server_browser import (  # noqa: F401  (fixtures)
    artifacts, browser, cat, create, server,
)
from test_web_phone import DESKTOP, MY_OR_OVER, PHONE, device, tap_a_move  # noqa: F401

MODULE_KINDS = {"bells": ("audience", "deposit"), "wall_fresco": ("wall", "exchange"),
                "medico": ("medicine", "illness", "heal", "aside", "saints")}
DESKTOP_TOUCH = {**DESKTOP, "has_touch": True}     # a desktop-size touch screen: the same taps as on a phone
PLAN_WORD = {"bells": "audience", "wall_fresco": "wall", "medico": "medico"}


def parse_plan(notation: str) -> dict:
    w = notation.split()[1:]
    out = {"counts": [int(x) for x in w[0].split("-")], "audience": None, "wall": None, "ill": None, "medico": False}
    i = 1
    while i < len(w):
        if w[i] in ("audience", "wall"):
            out[w[i]] = w[i + 1]
            i += 2
        elif w[i] == "ill":
            out["ill"] = [int(x) for x in w[i + 1].split("-")]
            i += 2
        else:
            out["medico"] = True
            i += 1
    return out


def tap_plan(p, st: dict, rng: random.Random, module: str, seen: dict) -> None:
    """A legal plan with the module's tile (and ill apprentices when there are), entered by
    tapping the plan widget: the widget must end up proposing exactly that notation."""
    legal = [a for a in st["legal"] if a.startswith("plan ")]
    word = PLAN_WORD[module]
    with_tile = [a for a in legal if f" {word}" in a and sum(parse_plan(a)["counts"]) >= 2]
    with_ill = [a for a in with_tile if " ill " in a]
    pool = with_ill or with_tile or legal
    goal = rng.choice(pool)
    plan = parse_plan(goal)
    for i, n in enumerate(plan["counts"]):
        for _ in range(n):
            p.tid(f"plan-inc-{i}").tap()
    for tile in ("audience", "wall"):
        if plan[tile]:
            p.tid(f"plan-{tile}-{plan[tile]}").tap()
            seen[f"plan-{tile}"] = seen.get(f"plan-{tile}", 0) + 1
    for i, n in enumerate(plan["ill"] or []):
        for _ in range(n):
            p.tid(f"plan-ill-{i}").tap()
        seen["plan-ill"] = seen.get("plan-ill", 0) + n
    if plan["medico"]:
        p.tid("plan-medico-toggle").tap()
        seen["plan-medico"] = seen.get("plan-medico", 0) + 1
    confirm = p.tid("plan-confirm")
    assert confirm.get_attribute("data-action") == goal and confirm.is_enabled(), (goal, confirm.get_attribute("data-action"))
    seen["plan"] = seen.get("plan", 0) + 1
    p.acting(confirm.tap)


def tap_module_move(p, st: dict, rng: random.Random, module: str, seen: dict) -> str:
    """One decision by tapping; a decision of the module is always taken when offered."""
    legal = st["legal"]
    kinds = {a.split()[0] for a in legal}
    if "plan" in kinds:
        tap_plan(p, st, rng, module, seen)
        return "plan"
    mine = [k for k in MODULE_KINDS[module] if k in kinds]
    # the ill restoration / saints of the medico come with the location's other choices
    if module == "medico" and any(a.endswith(" ill") for a in legal):
        mine.append("ill-action")
    if not mine:
        return tap_a_move(p, st, rng, seen)
    kind = mine[0]
    seen[kind] = seen.get(kind, 0) + 1
    decision = p.pg.locator("[data-testid=decision]")
    certs = p.pg.locator("[data-testid=bells-panel] button.cert.hot")
    if kind == "audience" or (kind == "deposit" and certs.count()):
        # the certificate on the bell board (its tab on a phone), then how much to pay
        assert certs.count() == len({a.split()[1] for a in legal if a.split()[0] == kind and a != "deposit none"})
        certs.nth(rng.randrange(certs.count())).tap()
        assert p.tid("selection-clear").count()
        ways = decision.locator(f"button[data-action^='{kind} ']")
        acts = ways.evaluate_all("els => els.map(e => e.dataset.action)")
        assert acts and all(a in legal for a in acts), acts
        if p.device["viewport"]["width"] < 500:
            assert not p.layout_problems(), p.layout_problems()
        i = rng.randrange(len(acts))
        seen[f"{kind}-{acts[i].split()[2]}"] = 1
        p.acting(ways.nth(i).tap)
        return kind
    if kind == "wall":
        cells = p.pg.locator("[data-testid=wall-panel] button.wall-cell.hot")
        assert cells.count() == len([a for a in legal if a.startswith("wall ")])
        p.acting(cells.nth(rng.randrange(cells.count())).tap)
        return kind
    if kind == "medicine":
        bottles = p.pg.locator("[data-testid=medico-panel] button.bottle.hot")
        assert bottles.count() == len([a for a in legal if a.startswith("medicine ")])
        p.acting(bottles.nth(rng.randrange(bottles.count())).tap)
        return kind
    if kind == "ill-action":
        buttons = decision.locator("button[data-action$=' ill'], button[data-action^='saints ']")
        if not buttons.count():       # a segment with several ways: its step first
            return tap_a_move(p, st, rng, seen)
    else:
        buttons = decision.locator(f"button[data-action^='{kind} ']")
    acts = buttons.evaluate_all("els => els.map(e => e.dataset.action)")
    assert acts and all(a in legal for a in acts), acts
    texts = buttons.all_inner_texts()
    assert all(t and not t.startswith(f"{kind} ") for t in texts), texts     # words, not notation
    p.acting(buttons.nth(rng.randrange(len(acts))).tap)
    return kind


def play_module_game(p, module: str, seed: int, shots: tuple = (), max_moves: int = 500) -> dict:
    rng = random.Random(seed)
    seen: dict = {"moves": 0}
    for _ in range(max_moves):
        p.pg.wait_for_function(MY_OR_OVER, timeout=60_000)
        st = p.state()
        if st["is_over"]:
            return seen
        if p.device["viewport"]["width"] < 500:
            problems = p.layout_problems()
            assert not problems, (st["view"]["phase"], st["legal"][:3], problems)
        kinds = {a.split()[0] for a in st["legal"]}
        for shot, kind in shots:
            if kind in kinds and shot not in seen:
                seen[shot] = True
                p.keep(shot)
        tap_module_move(p, st, rng, module, seen)
        seen["moves"] += 1
    raise AssertionError(f"the game did not end in {max_moves} moves: {seen}")


def test_smoke_all(device, server):
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"},
                        {"name": "Carla", "kind": "bot", "bot": "heuristic"}], seed=3,
               modules=["bells", "wall_fresco", "medico"])
    p = device(DESKTOP_TOUCH)
    p.goto(g["seats"][0]["url"])
    p.wait_my_turn()
    seen = play_module_game(p, "bells", seed=1, max_moves=30)
