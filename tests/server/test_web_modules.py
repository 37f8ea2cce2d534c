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
    artifacts, browser, cat, create, fill, server,
)
from test_web_phone import DESKTOP, MY_OR_OVER, PHONE, device  # noqa: F401

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


def tap_module_move(p, st: dict, rng: random.Random, module: str, seen: dict) -> str | None:
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
        return None
    kind = mine[0]
    seen[kind] = seen.get(kind, 0) + 1
    decision = p.pg.locator("[data-testid=decision]")
    certs = p.pg.locator("[data-testid=bells-panel] button.cert.hot")
    if kind == "audience" or (kind == "deposit" and certs.count()):
        # the certificate on the bell board (its tab on a phone), then how much to pay
        hot = set(certs.evaluate_all("els => els.map(e => e.dataset.cert)"))
        assert hot == {a.split()[1] for a in legal if a.split()[0] == kind and a != "deposit none"}, hot
        certs.nth(rng.randrange(certs.count())).tap()
        assert p.tid("selection-clear").count()
        ways = decision.locator(f"button[data-action^='{kind} ']")
        acts = ways.evaluate_all("els => els.map(e => e.dataset.action)")
        assert acts and all(a in legal for a in acts), acts
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
        if not buttons.count():       # folded under a segment's step: the API takes it
            seen[kind] -= 1
            return None
    else:
        buttons = decision.locator(f"button[data-action^='{kind} ']")
    acts = buttons.evaluate_all("els => els.map(e => e.dataset.action)")
    assert acts and all(a in legal for a in acts), acts
    texts = buttons.all_inner_texts()
    assert all(t and not t.startswith(f"{kind} ") for t in texts), texts     # words, not notation
    p.acting(buttons.nth(rng.randrange(len(acts))).tap)
    return kind


def my_turn_by_api(server, token: str, st: dict | None = None) -> dict:
    """This seat's state from the API once it has a decision (or the game is over)."""
    import time
    end = time.monotonic() + 60
    while st is None or not (st["legal"] or st["is_over"]):
        assert time.monotonic() < end, "the bots did not move in 60 s"
        if st is not None:
            time.sleep(0.02)
        st = server.get("/api/me", headers={"Authorization": f"Bearer {token}"}).json()
    return st


def api_move(server, token: str, st: dict, bot) -> dict:
    """A decision that is not the module's, sent through the seat's API by the heuristic bot
    (the base game's decisions are clicked in test_web_phone.py); returns the next state."""
    from affresco import parse
    action = bot.choose(st["view"], [parse(a) for a in st["legal"]], st["seat"])
    r = server.post("/api/me/act", json={"action": str(action), "version": st["version"]},
                    headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 200, r.text
    return my_turn_by_api(server, token, r.json())


def module_choice(st: dict, module: str) -> bool:
    kinds = {a.split()[0] for a in st["legal"]}
    return bool(kinds & set(MODULE_KINDS[module])) or (
        module == "medico" and any(a.endswith(" ill") or a.startswith("saints ") for a in st["legal"]))


def play_module_game(p, server, token: str, module: str, seed: int, shots: tuple = (), on_shot=None,
                     clicked_plans: int = 3, max_moves: int = 600) -> dict:
    """Play to the end: every decision of the module (and the first ``clicked_plans`` plans,
    placing its tile) by tapping the page, which follows the game live; the others through
    the seat's API."""
    from affresco.bots import HeuristicBot
    bot = HeuristicBot()
    rng = random.Random(seed)
    if p.device["viewport"]["width"] >= 1000:
        # at desktop size the 44 px rule is the phone's; the page still never scrolls sideways
        whole = p.layout_problems
        p.layout_problems = lambda: [x for x in whole() if "sideways" in x]
    seen: dict = {"moves": 0, "api": 0, "offered": {}}
    st = my_turn_by_api(server, token)
    for _ in range(max_moves):
        if st["is_over"]:
            p.wait_version(f"v >= {st['version']}")
            p.pg.wait_for_function(MY_OR_OVER, timeout=60_000)
            return seen
        kinds = {a.split()[0] for a in st["legal"]}
        for kind in kinds & set(MODULE_KINDS[module]):
            seen["offered"][kind] = seen["offered"].get(kind, 0) + 1
        ill_plan = "plan" in kinds and not seen.get("plan-ill") and any(" ill " in a for a in st["legal"])
        if module_choice(st, module) or ("plan" in kinds and seen.get("plan", 0) < clicked_plans) or ill_plan:
            # the page has followed the game to this decision: take it there
            p.wait_version(f"v >= {st['version']}")
            p.pg.wait_for_function(MY_OR_OVER, timeout=60_000)
            st = p.state()
            for shot, kind in shots:
                if kind in kinds and shot not in seen:
                    seen[shot] = True
                    p.keep(shot)
                    if on_shot:
                        on_shot()
            problems = p.layout_problems()
            assert not problems, (st["view"]["phase"], st["legal"][:3], problems)
            if tap_module_move(p, st, rng, module, seen):
                seen["moves"] += 1
                st = my_turn_by_api(server, token)
                continue
        st = api_move(server, token, st, bot)
        seen["api"] += 1
    raise AssertionError(f"the game did not end in {max_moves} moves: {seen}")


def game_vs_bots(server, module: str, seed: int, players: int) -> dict:
    bots = [{"name": n, "kind": "bot", "bot": "heuristic"} for n in ("Bruno", "Carla", "Dario")[:players - 1]]
    return create(server, [{"name": "Anna", "kind": "human"}] + bots, seed=seed, modules=[module])


PANEL = {"bells": "bells", "wall_fresco": "wall", "medico": "medico"}


def play_module(device, server, module: str, players: int, seed: int, size: dict, shot_kind: str) -> tuple:
    """A whole game with ``module`` against heuristic bots; at the first ``shot_kind`` decision
    the module's board is photographed at this size and, in a second tab of the same seat, at
    the other size (on a phone the board's tab is the one chosen for the decision)."""
    g = game_vs_bots(server, module, seed, players)
    url, token = g["seats"][0]["url"], g["seats"][0]["token"]
    p = device(size)
    p.goto(url)
    p.wait_my_turn()
    name = PANEL[module]
    other = DESKTOP_TOUCH if size is PHONE else PHONE

    def other_size() -> None:
        q = device(other)
        q.goto(url)
        q.wait_my_turn()
        q.tid(f"{name}-panel").wait_for()
        if other is PHONE:
            assert q.tid(f"tab-{name}").get_attribute("aria-selected") == "true"
            assert not q.layout_problems(), q.layout_problems()
        q.keep(f"module-{name}")
        q.context.close()

    seen = play_module_game(p, server, token, module, seed=seed, shots=((f"module-{name}", shot_kind),),
                            on_shot=other_size)
    st = p.state()
    assert st["is_over"] and seen.get(f"module-{name}"), seen
    print(module, {k: v for k, v in seen.items()})
    # every decision of the module the server offered was taken by a tap
    for kind, n in seen["offered"].items():
        assert seen.get(kind, 0) == n, (kind, seen)
    return p, st, seen


def final_sources(p, fig: int) -> dict:
    p.tid("final-scores").wait_for()
    cells = p.pg.locator(f"[data-testid=final-scores] td[data-figure='{fig}'][data-source]").evaluate_all(
        "els => els.map(e => [e.dataset.source, Number(e.innerText)])")
    return {k: v for k, v in cells if v}


def test_bells_a_whole_game_by_clicking_the_bell_board(device, server):
    """The audience tile placed in the plan; a displayed certificate bought in full or in
    instalments by tapping it on the bell board; extra payments on partly paid certificates;
    the bell track after final scoring (2 players: Leonardo's certificates too)."""
    p, st, seen = play_module(device, server, "bells", 2, 3, DESKTOP_TOUCH, "audience")
    assert seen.get("plan-audience") and seen.get("audience"), seen
    b = st["view"]["bells"]
    assert b["track"] is not None
    # the track shows everyone who holds a certificate, and the bishop
    placed = [x for x in b["track"]["figures"] if x is not None]
    assert p.pg.locator("[data-testid=bell-track] .bt-space.taken").count() == len(set(placed + [b["track"]["bishop"]]))
    assert p.pg.locator("[data-testid=bell-track] .bt-bishop").count() == 1
    assert "bells" in final_sources(p, 0) or b["figures"][0]["certificates"] == 0


def test_wall_fresco_a_whole_game_by_tapping_the_wall_board_at_phone_size(device, server):
    """The wall fresco tile placed in the plan (one apprentice on it); a wall section tapped on
    the wall board; the wall tiles' income shown; at phone size (390x844)."""
    p, st, seen = play_module(device, server, "wall_fresco", 3, 4, PHONE, "wall")
    assert seen.get("plan-wall") and seen.get("wall"), seen
    w = st["view"]["wall_fresco"]
    restored = sum(cell is None for row in w["board"] for cell in row)
    p.tid("tab-wall").tap()
    assert p.pg.locator("[data-testid=wall-panel] .wall-cell.restored").count() == restored


def test_medico_a_whole_game_by_tapping_the_medico_board(device, server):
    """The medico tile and ill apprentices placed in the plan; a displayed bottle tapped on the
    medico board; who falls ill, which bottles to use and setting an ill apprentice aside chosen
    in the decision area; the infection shown."""
    p, st, seen = play_module(device, server, "medico", 3, 5, DESKTOP_TOUCH, "medicine")
    assert seen.get("plan-medico") and seen.get("medicine"), seen
    m = st["view"]["medico"]
    assert p.tid("infection").count() and p.tid("medico-display").count()
    for i in range(3):
        assert p.tid(f"ill-{i}").inner_text() == fill(cat("en")["medico.ill"], n=m["ill"][i])
