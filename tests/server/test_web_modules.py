"""Modules 8-10 in the browser (issue 12): the bells, the wall fresco and the medico.

A whole game with each module is played to the end against heuristic bots in Debian's chromium.
The module's part is played by tapping, where a person would: the plan widget places the
module's action tile (the audience tile, the wall fresco tile, the medico tile) and marks ill
apprentices, and its notation must be one of the server's legal plans; a certificate is tapped
on the bell board and then how much to pay, a wall section on the wall board, a bottle on the
medico board, the other new choices (who falls ill, which bottles, setting an apprentice aside,
exchanging wall tiles, extra payments) in the decision area.  Each kind of module decision is
tapped the first CLICKS_PER_KIND times it is offered; the base game's decisions (tapped in
test_web_phone.py) and later repeats go through the seat's API while the page follows the game
over its WebSocket, so that the three games fit the time the CI allows.  At phone size (390x844)
the page never scrolls sideways and every control is at least 44 px; axe-core checks each
board.  The boards are photographed at desktop and phone size
(AFFRESCO_SCREENSHOTS=docs/screenshots writes them for the README).
"""
from __future__ import annotations

import random
import re

import pytest

from test_server_browser import (  # noqa: F401  (fixtures)
    artifacts, browser, cat, create, fill, server,
)
from test_web_phone import DESKTOP, MY_OR_OVER, PHONE, SHOTS, axe_source, device, serious  # noqa: F401

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
    goal = rng.choice(sorted(pool))       # (whatever the order of the legal plans)
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
    label = f"plan-tiles-{PANEL[module]}"
    if SHOTS and label not in seen and (module != "medico" or plan["ill"]):
        seen[label] = True
        # the plan widget with the module's tile (and ill apprentices), scrolled to the tile's row
        p.tid("plan-widget").evaluate("e => { const r = e.querySelectorAll('.plan-tiles');"
                                      " if (r.length) r[r.length - 1].scrollIntoView({ block: 'end' }); }")
        p.keep(label)
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
    if early_getup_for_aside(st, module, seen):
        first = min((a for a in legal if a.startswith("getup ")), key=lambda a: int(a.split()[1].split(":")[0]))
        seen["early-getup"] = seen.get("early-getup", 0) + 1
        p.acting(p.tid(f"hostel-{first.split()[1]}").tap)
        return "getup"
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
        assert not re.search(r"undefined|NaN", p.tid("decision").inner_text())
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


def my_turn(p, st: dict | None = None) -> dict:
    """This seat's next decision (or the end): ``st`` when it has one, else the page's state once
    the bots' moves have reached it (the page follows the game over its WebSocket)."""
    if st is not None and (st["legal"] or st["is_over"]):
        return st
    if st is not None:
        p.wait_version(f"v > {st['version']}")
    p.pg.wait_for_function(MY_OR_OVER, timeout=60_000)
    return p.state()


def api_move(p, server, token: str, st: dict, bot) -> dict:
    """A decision that is not the module's, sent through the seat's API by the heuristic bot
    (the base game's decisions are clicked in test_web_phone.py); returns the next state."""
    import time
    from affresco import parse
    action = bot.choose(st["view"], [parse(a) for a in st["legal"]], st["seat"])
    for _ in range(50):
        r = server.post("/api/me/act", json={"action": str(action), "version": st["version"]},
                        headers={"Authorization": f"Bearer {token}"})
        if r.status_code != 429:       # the server's rate limit: wait a moment, as a client does
            break
        time.sleep(0.2)
    assert r.status_code == 200, r.text
    return my_turn(p, r.json())


CLICKS_PER_KIND = 2      # each kind of module decision is tapped this often; later ones go through the API


def small_board_buttons(p) -> list[str]:
    """On a phone, what can be tapped on a module's board is at least 44 px."""
    if p.device["viewport"]["width"] >= 1000:
        return []
    return p.pg.evaluate("""() => [...document.querySelectorAll('.mod-panel button:not(:disabled)')].map((e) => {
        const r = e.getBoundingClientRect();
        return r.width && (r.width < 43.5 || r.height < 43.5) ? `${e.dataset.testid || e.className} is ${r.width}x${r.height}` : null;
      }).filter(Boolean)""")


def early_getup_for_aside(st: dict, module: str, seen: dict) -> bool:
    """With ill apprentices, get up early (mood down) until a −1 space offers to set one aside."""
    m = st["view"].get("medico")
    return bool(module == "medico" and m and not seen.get("aside") and st["seat"] is not None
                and m["ill"][st["seat"]] and any(a.startswith("getup ") for a in st["legal"])
                and not st["view"]["figures"][st["view"].get("actor_figure") or st["seat"]].get("leonardo"))


def module_choice(st: dict, module: str, seen: dict) -> bool:
    if early_getup_for_aside(st, module, seen):
        return True
    kinds = {k for k in (a.split()[0] for a in st["legal"]) if seen.get(k, 0) < CLICKS_PER_KIND}
    return bool(kinds & set(MODULE_KINDS[module])) or (
        module == "medico" and seen.get("ill-action", 0) < CLICKS_PER_KIND
        and any(a.endswith(" ill") or a.startswith("saints ") for a in st["legal"]))


def play_module_game(p, server, token: str, module: str, seed: int, shots: tuple = (), on_shot=None,
                     clicked_plans: int = 2, max_moves: int = 600) -> dict:
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
    st = my_turn(p)
    for _ in range(max_moves):
        if st["is_over"]:
            p.wait_version(f"v >= {st['version']}")
            p.pg.wait_for_function(MY_OR_OVER, timeout=60_000)
            return seen
        kinds = {a.split()[0] for a in st["legal"]}
        for kind in kinds & set(MODULE_KINDS[module]):
            seen["offered"][kind] = seen["offered"].get(kind, 0) + 1
        ill_plan = "plan" in kinds and not seen.get("plan-ill") and any(" ill " in a for a in st["legal"])
        if module_choice(st, module, seen) or ("plan" in kinds and seen.get("plan", 0) < clicked_plans) or ill_plan:
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
            problems = p.layout_problems() + small_board_buttons(p)
            assert not problems, (st["view"]["phase"], st["legal"][:3], problems)
            panel = p.tid(f"{PANEL[module]}-panel")
            words = p.tid("decision").inner_text() + (panel.inner_text() if panel.count() else "")
            assert not re.search(r"undefined|NaN|\[object", words), words
            if tap_module_move(p, st, rng, module, seen):
                seen["moves"] += 1
                st = my_turn(p)
                continue
        st = api_move(p, server, token, st, bot)
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
        if module == "bells":      # which certificates a player holds is theirs alone (R22): only mine are listed
            assert q.tid("bells-own-0").count() <= 1 and not q.tid("bells-own-1").count()
        assert not serious(q, axe_source()), serious(q, axe_source())      # axe-core on the module's board
        q.context.close()

    seen = play_module_game(p, server, token, module, seed=seed, shots=((f"module-{name}", shot_kind),),
                            on_shot=other_size)
    st = p.state()
    assert st["is_over"] and seen.get(f"module-{name}"), seen
    # each kind of decision of the module the server offered was taken by a tap
    for kind, n in seen["offered"].items():
        assert seen.get(kind, 0) >= min(n, CLICKS_PER_KIND), (kind, seen)
    return p, st, seen


def final_sources(p, fig: int) -> dict:
    p.tid("final-scores").wait_for()
    # every source of points is named in words (the catalogue's source.* keys), none by its code
    heads = p.pg.locator("[data-testid=final-scores] th").all_inner_texts()
    assert not {"money", "medico", "bells_track", "bells_rank", "wall"} & {x.strip() for x in heads}, heads
    cells = p.pg.locator(f"[data-testid=final-scores] td[data-figure='{fig}'][data-source]").evaluate_all(
        "els => els.map(e => [e.dataset.source, Number(e.innerText)])")
    return {k: v for k, v in cells if v}


@pytest.mark.slow
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
    # a spectator sees the same boards (after final scoring every certificate is revealed)
    p.goto(f"/#/watch/{st['game_id']}")
    p.tid("bell-track").wait_for()
    assert p.pg.locator("[data-testid=bell-track] .bt-bishop").count() == 1
    assert not p.pg.locator("[data-testid=bells-panel] button.cert.hot").count()


@pytest.mark.slow
def test_wall_fresco_a_whole_game_by_tapping_the_wall_board_at_phone_size(device, server):
    """The wall fresco tile placed in the plan (one apprentice on it); a wall section tapped on
    the wall board; the wall tiles' income shown; at phone size (390x844)."""
    p, st, seen = play_module(device, server, "wall_fresco", 3, 4, PHONE, "wall")
    assert seen.get("plan-wall") and seen.get("wall"), seen
    w = st["view"]["wall_fresco"]
    assert final_sources(p, 0).get("wall", 0) >= 4 * seen["wall"]       # 4 VP per section restored
    restored = sum(cell is None for row in w["board"] for cell in row)
    p.tid("tab-wall").tap()
    assert p.pg.locator("[data-testid=wall-panel] .wall-cell.restored").count() == restored
    # the income of the wall and exchange tiles: one cube per basic colour shown, one per exchange tile
    for i, tiles in enumerate(w["tiles"]):
        if tiles or w["exchange_tiles"][i]:
            basics = {x.split("/")[1] for x in tiles}
            expect = "".join(c for c in "RYB" if c in basics) + "".join(w["exchange_tiles"][i])
            shown = p.tid(f"wall-income-{i}").inner_text().split(":")[-1]
            assert re.sub(r"[^RYBOGP]", "", shown) == expect, (tiles, shown)


@pytest.mark.slow
def test_medico_a_whole_game_by_tapping_the_medico_board_at_phone_size(device, server):
    """The medico tile and ill apprentices placed in the plan; a displayed bottle tapped on the
    medico board; who falls ill, which bottles to use and (after an early get-up onto a −1 space)
    setting an ill apprentice aside chosen in the decision area; the infection shown."""
    p, st, seen = play_module(device, server, "medico", 3, 5, PHONE, "medicine")
    assert seen.get("plan-medico") and seen.get("medicine") and seen.get("illness") and seen.get("heal"), seen
    assert seen.get("aside"), seen          # an early get-up onto a −1 space with an ill apprentice
    m = st["view"]["medico"]
    assert "medico" in final_sources(p, 0)            # 5 Thalers per own apprentice not on the medico board
    p.tid("tab-medico").tap()
    assert p.tid("infection").count() and p.tid("medico-display").count()
    for i in range(3):
        assert p.tid(f"ill-{i}").inner_text() == fill(cat("en")["medico.ill"], n=m["ill"][i])


NEW_DECISIONS = [
    "plan 0-1-0-1-1 audience market wall studio ill 0-1-0-0-0 medico", "audience 3:3:2 full", "audience 7:7:5 pay 4",
    "deposit 7:7:5 3", "deposit none", "wall A3", "exchange W:G/B W:O/Y", "illness neutral", "illness own",
    "medicine 1", "heal 3 juice", "heal 2", "heal none", "aside ill", "aside own", "restore C3 ill",
    "restore C3 using KN ill", "altar RYB ill", "saints R",
]


def test_every_new_decision_is_worded_in_english_french_and_russian(device, server):
    """Each kind of decision of modules 8-10 reads as a sentence of the catalogue in each
    language (never the notation, never a missing key), as the decision area shows it; each
    module board fits the phone in each language; another player's move marks the board's tab
    and outlines a restored wall section."""
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}],
               seed=7, modules=["bells", "wall_fresco", "medico"])
    p = device(PHONE)
    p.goto(g["seats"][0]["url"])
    p.wait_my_turn()
    texts = {}
    for lang in ("en", "fr", "ru"):
        p.tid(f"lang-{lang}").tap()
        p.pg.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        texts[lang] = p.pg.evaluate("""async (ns) => { const w = await import('/static/words.js');
            const v = window.affresco.S.state.view;
            return ns.map((n) => w.describe(n, v, 0).replace(/[\\uE000\\uE001]/g, '')); }""", NEW_DECISIONS)
        for tab in ("bells", "wall", "medico"):     # each board in each language fits the phone
            p.tid(f"tab-{tab}").tap()
            p.tid(f"{tab}-panel").wait_for()
            assert not p.layout_problems() + small_board_buttons(p), (lang, tab)
        for n, text in zip(NEW_DECISIONS, texts[lang]):
            assert text and text != n and not text.startswith(n.split()[0] + " "), (lang, n, text)
            assert not re.search(r"\\b(act|bottle|bells|plan|col|medico|wall)\\.[a-z_0-9]+", text), (lang, n, text)
            assert "{" not in text and "undefined" not in text and "NaN" not in text, (lang, n, text)
    for i, n in enumerate(NEW_DECISIONS):
        assert texts["en"][i] != texts["fr"][i] != texts["ru"][i], (n, [texts[x][i] for x in texts])
    # another player's move on a module board: its tab is marked, a restored wall section outlined
    marked = p.pg.evaluate("""async () => { const m = await import('/static/moves.js');
        const a = window.affresco.S.state.view; const b = JSON.parse(JSON.stringify(a));
        b.wall_fresco.board[2][0] = null; b.medico.ill[1] += 1; b.bells.display = b.bells.display.slice(1);
        const { ids, tabs } = m.changes(a, b); return [[...ids], [...tabs]]; }""")
    assert "wall:A3" in marked[0] and {"wall", "medico", "bells"} <= set(marked[1]), marked
    p.tid("tab-wall").tap()
    p.pg.evaluate("() => { const S = window.affresco.S; S.changed = new Set(['wall:A4']); window.affresco.render(); }")
    assert p.tid("wall-A4").get_attribute("data-last-move") == "true"
    assert "4" in texts["en"][2] and "2" in texts["en"][2]          # 4 Thalers now: 2 VP


def test_the_client_picks_event_variants_as_the_engine_does():
    """events.js renders an event through the same catalogue key as affresco.i18n (the new
    modules' wall_tile, medico_* variants included): the two VARIANTS tables agree."""
    from affresco.i18n import VARIANTS
    from test_server_browser import STATIC
    text = (STATIC / "events.js").read_text(encoding="utf-8")
    table = re.search(r"export const VARIANTS = \{(.*?)\};", text, re.S).group(1)
    assert dict(re.findall(r"(\w+): \"(\w+)\"", table)) == VARIANTS
    from affresco.i18n import EMPTY_VARIANTS
    table = re.search(r"export const EMPTY_VARIANTS = \{(.*?)\};", text, re.S).group(1)
    assert dict(re.findall(r"(\w+): \"(\w+)\"", table)) == EMPTY_VARIANTS
