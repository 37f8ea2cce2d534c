"""The browser game for real players (issue 13), in Debian's chromium at phone and tablet size.

Whole games are played by tapping (a touch screen at 390x844 and 768x1024): at every decision
the page must not scroll sideways, every control of the decision area must lie inside the
screen and be at least 44 px high and wide, and every place of the board that can be tapped
now must be at least 44 px.  A bot's move is highlighted on the board with a last-move marker;
the end screen's points by source add up to each score; the help exists in English, French
and Russian; a bad link offers the way back; axe-core finds no serious or critical violation.

Screenshots go to $AFFRESCO_ARTIFACTS when it is set (else a failed test's last screens only); with
AFFRESCO_SCREENSHOTS=docs/screenshots the named screens are also written there (README).
"""
from __future__ import annotations

import json
import os
import random
import re
import sys
from pathlib import Path

import pytest

from server_support import OpenedPages  # noqa: E402
from test_server_browser import (  # noqa: E402,F401  (fixtures)
    CHROMIUM_ARGS, MY_TURN, STATIC, TIMEOUT, Page, artifacts, browser, cat, create, fill, server, settled_box,
)

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True, "device_scale_factor": 2}
TABLET = {"viewport": {"width": 768, "height": 1024}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1}
DESKTOP = {"viewport": {"width": 1366, "height": 900}}
MIN_TAP = 44
MY_OR_OVER = ("() => { const a = document.querySelector('[data-testid=app]'); const s = window.affresco.S.state;"
              " return !!(a && a.dataset.busy === 'false' && (a.dataset.yourTurn === 'true' || (s && s.is_over))); }")
SHOTS = os.environ.get("AFFRESCO_SCREENSHOTS")
SHEET_ROOM_FITS = ("() => { const s = document.querySelector('.game.phone .decision'); return !s ||"
                   " document.documentElement.style.getPropertyValue('--sheet-h') === `${s.offsetHeight}px`; }")


def help_doc(lang: str) -> dict:
    return json.loads((STATIC / "help" / f"{lang}.json").read_text(encoding="utf-8"))


class Phone(Page):
    """A tab on a touch screen of the given size."""

    def __init__(self, browser, server, artifacts: Path, name: str, device: dict):
        self.base = str(server.base_url).rstrip("/")
        self.dir = artifacts
        self.name = name
        self.context = browser.new_context(locale="en-GB", **device)
        self.pg = self.context.new_page()
        self.pg.set_default_timeout(TIMEOUT)
        self.errors: list[str] = []
        self.pg.on("pageerror", lambda e: self.errors.append(f"pageerror: {e}"))
        self.pg.on("console", self._console)
        self.shots: list[str] = []
        self.device = device

    def keep(self, label: str) -> None:
        """A named screenshot for docs/screenshots (when asked for), besides the artifacts."""
        self.shot(label)
        if SHOTS:
            width = self.pg.viewport_size["width"]     # the size now (a game may change it)
            kind = "phone" if width < 500 else ("tablet" if width < 1000 else "desktop")
            Path(SHOTS).mkdir(parents=True, exist_ok=True)
            if kind == "phone":
                self.pg.evaluate("window.scrollTo(0, 0)")
            self.pg.screenshot(path=str(Path(SHOTS) / f"{label}-{kind}.png"), full_page=kind != "phone")

    def layout_problems(self) -> list[str]:
        """What a person could not tap or see: sideways scrolling, decision controls outside
        the screen or smaller than 44 px, tappable board places smaller than 44 px."""
        return self.pg.evaluate("""(min) => {
          const out = [];
          // the screen's width (a mobile browser widens innerWidth to content wider than the screen)
          const W = document.documentElement.clientWidth;
          if (document.documentElement.scrollWidth > W + 1) out.push(`page scrolls sideways: ${document.documentElement.scrollWidth} > ${W}`);
          const visible = (el) => { const r = el.getBoundingClientRect(); return r.width > 0 && r.height > 0
            && getComputedStyle(el).visibility !== 'hidden'; };
          const sheet = document.querySelector('[data-testid=decision]');
          if (sheet) {
            for (const el of sheet.querySelectorAll('button:not(:disabled), a[href], input, select')) {
              if (!visible(el)) continue;
              const r = el.getBoundingClientRect();
              const name = el.dataset.testid || el.textContent.trim().slice(0, 30);
              if (r.left < -1 || r.right > W + 1) out.push(`${name} outside the screen (${r.left}-${r.right})`);
              if (r.height < min - 0.5 || r.width < min - 0.5) out.push(`${name} is ${Math.round(r.width)}x${Math.round(r.height)}`);
            }
          }
          for (const el of document.querySelectorAll('svg.board [data-click].hot')) {
            const r = el.getBoundingClientRect();
            if (r.width === 0) continue;
            if (r.height < min - 0.5 || r.width < min - 0.5) out.push(`board ${el.dataset.click} is ${Math.round(r.width)}x${Math.round(r.height)}`);
          }
          return out;
        }""", MIN_TAP)


@pytest.fixture
def device(browser, server, artifacts, request):
    pages = OpenedPages(request)
    yield lambda kind, label="": pages.add(lambda name: Phone(browser, server, artifacts, name, kind), label)
    pages.close()


# ------------------------------------------------------------------------------ playing
PRODUCTIVE = ("restore", "altar", "buy", "portrait", "request", "blend", "studio", "theater", "income", "scroll", "track")


def tap_a_move(p: Phone, st: dict, rng: random.Random, seen: dict) -> str:
    """One decision, by tapping the decision sheet (and the board where that is the way)."""
    legal = st["legal"]
    kinds = {a.split()[0] for a in legal}
    if "plan" in kinds:
        n = st["view"]["figures"][st["seat"]]["apprentices"]
        cols = len(st["view"]["columns"])
        order = [0, 1, 1, 0, 2, 3, 1, 4, 0][: n] if cols >= 5 else list(range(n))
        for col in order:
            inc = p.tid(f"plan-inc-{col % cols}")
            if inc.is_enabled():
                inc.tap()
        confirm = p.tid("plan-confirm")
        if not confirm.is_enabled():
            p.tid("plan-reset").tap()
            p.tid("plan-inc-0").tap()
        seen["plan"] = seen.get("plan", 0) + 1
        p.acting(p.tid("plan-confirm").tap)
        return "plan"
    if "getup" in kinds:
        times = [a.split()[1] for a in legal if a.startswith("getup ")]
        target = p.tid(f"hostel-{rng.choice(times)}")
        assert "hot" in target.get_attribute("class")
        p.acting(target.tap)
        return "getup"
    # a step button (a booth, a segment with several ways): choose it first
    steps = p.pg.locator("[data-testid^='step-']")
    if steps.count() and rng.random() < 0.8:
        step = steps.nth(rng.randrange(steps.count()))
        step.tap()
        seen["step"] = seen.get("step", 0) + 1
        assert p.tid("selection-clear").count()
        assert not p.layout_problems(), p.layout_problems()
        if p.tid("buy-widget").count():
            tiles = p.pg.locator("svg [data-click^='tile:'].hot")
            left = st["view"].get("visit_left") or 1
            for j in range(min(left, tiles.count())):
                tiles.nth(j).tap()
            if p.tid("buy-confirm").is_enabled():
                seen["buy"] = seen.get("buy", 0) + 1
                p.acting(p.tid("buy-confirm").tap)
                return "buy"
        buttons = p.pg.locator("[data-testid=decision] button[data-action]")
        p.acting(buttons.nth(rng.randrange(buttons.count())).tap)
        return "step"
    buttons = p.pg.locator("[data-testid=decision] button[data-action]")
    actions = buttons.evaluate_all("els => els.map(e => e.dataset.action)")
    good = [i for i, a in enumerate(actions) if a.split()[0] in PRODUCTIVE]
    i = rng.choice(good) if good and rng.random() < 0.9 else rng.randrange(len(actions))
    kind = actions[i].split()[0]
    seen[kind] = seen.get(kind, 0) + 1
    p.acting(buttons.nth(i).tap)
    return kind


def play_out(p: Phone, seed: int, max_moves: int = 400, sizes: tuple = ()) -> dict:
    """Tap until the game is over, checking the layout at every decision.  With ``sizes``
    (viewports), the same game at each size: every decision is checked at each of them (the
    page resized, as a turned or other screen), and tapped at one, each in turn."""
    rng = random.Random(seed)
    seen: dict = {"highlight": 0, "moves": 0, "tapped at": {}, "shots": set()}
    views = list(sizes) or [p.pg.viewport_size]
    for _ in range(max_moves):
        p.pg.wait_for_function(MY_OR_OVER, timeout=60_000)
        st = p.state()
        if st["is_over"]:
            return seen
        for view in views:
            if p.pg.viewport_size != view:
                p.pg.set_viewport_size(view)
                # the bottom sheet's room follows its height at the new size (no redraw)
                p.pg.wait_for_function(SHEET_ROOM_FITS)
            problems = p.layout_problems()
            assert not problems, (view, st["view"]["phase"], st["view"].get("location"), problems)
            size = f"{view['width']}x{view['height']}"
            if p.pg.locator("svg.board [data-last-move=true]").count() and p.tid("last-move").count():
                seen["highlight"] += 1
                if ("highlight", size) not in seen["shots"]:
                    seen["shots"].add(("highlight", size))
                    p.keep("last-move")
            loc = st["view"].get("location") or st["view"]["phase"]
            if (loc, size) not in seen["shots"] and loc in ("getup", "plan", "market", "cathedral"):
                seen["shots"].add((loc, size))
                p.keep(f"decision-{loc}")
        tap_a_move(p, st, rng, seen)
        seen["tapped at"][size] = seen["tapped at"].get(size, 0) + 1
        seen["moves"] += 1
        views.reverse()     # the next decision is tapped at the other size
    raise AssertionError(f"the game did not end in {max_moves} moves: {seen}")


def check_end_screen(p: Phone, st: dict) -> None:
    """The winner, and each figure's points by source adding up to its score."""
    final = p.tid("final-scores")
    final.wait_for()
    names = [("Leonardo" if f.get("leonardo") else st["names"][i]) for i, f in enumerate(st["view"]["figures"])]
    winner = st["ranking"][0]
    assert p.tid("winner").inner_text() == fill(cat("en")["final.wins"], name=names[winner])
    assert p.tid("game-length").inner_text() and p.tid("replay-link").count()


def check_breakdown(p: Phone, st: dict) -> None:
    """Each figure's points by source on the end screen add up to its score (the engine's
    view["vp_sources"], never recomputed by the page)."""
    p.tid("final-scores").wait_for()
    if "vp_sources" not in st["view"]:
        pytest.skip("this engine has no VP sources yet (the event core, docs/events.md)")
    sources = st["view"]["vp_sources"]
    for fi, score in enumerate(st["scores"]):
        cells = p.pg.locator(f"[data-testid=final-scores] td[data-figure='{fi}'][data-source]").evaluate_all(
            "els => els.map(e => [e.dataset.source, Number(e.innerText)])")
        assert sum(v for _, v in cells) == score == int(p.tid(f"final-vp-{fi}").inner_text()), (fi, cells, score)
        assert {k: v for k, v in cells if v} == {k: v for k, v in sources[fi].items() if v}
    assert p.tid("vp-chart").count()


@pytest.mark.slow
def test_a_whole_two_player_game_at_phone_size_by_tapping(device, server):
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}], seed=12)
    p = device(PHONE)
    p.goto(g["seats"][0]["url"])
    p.wait_my_turn()
    # the decision sheet is in reach: at the bottom of the screen, without scrolling
    box = settled_box(p.tid("decision"))
    assert box["y"] + box["height"] <= 844 + 1 and box["y"] > 844 / 3, box
    # the board shows the location of the decision (the hostel) in its tab
    assert p.tid("tab-hostel").get_attribute("aria-selected") == "true"
    seen = play_out(p, seed=1)
    st = p.state()
    assert st["is_over"] and seen["moves"] > 20, seen
    assert seen["highlight"] > 0, "no bot move was ever highlighted"
    check_end_screen(p, st)
    assert not p.layout_problems()
    p.keep("end")
    # "My games" shows the result
    p.tid("home-link").tap()
    # (the list refreshes every 15 s: a result fetch refused for the moment comes on the next)
    p.pg.wait_for_function("(s) => { const e = document.querySelector('[data-testid=my-game-meta-0]');"
                           " return e && e.innerText.includes(s) && e.innerText.includes('VP'); }",
                           arg=cat("en")["status.over"], timeout=40_000)
    assert "VP" in p.tid("my-game-meta-0").inner_text()
    assert fill(cat("en")["final.wins"], name=["Anna", "Bruno", "Leonardo"][st["ranking"][0]]) in \
        p.tid("my-game-meta-0").inner_text()
    p.pg.go_back()
    check_breakdown(p, st)
    # the replay, too, shows one place of the board at a time on a phone, never the whole
    # board shrunk to the screen (fresco segments as wide as in the game)
    p.tid("replay-link").tap()
    p.tid("replay").wait_for()
    p.tid("tab-cathedral").tap()
    width = p.tid("segment-C3").bounding_box()["width"]
    assert width >= MIN_TAP and not p.layout_problems(), width
    p.keep("replay")


@pytest.mark.slow
def test_a_whole_four_player_game_with_modules_at_phone_and_tablet_size_by_tapping(device, server):
    """One game, every decision checked at phone and at tablet size and tapped at each in turn
    (the same game at two sizes, played once: bench/README.md "session 23, web26")."""
    modules = ["portraits", "requests", "special_colours", "scrolls", "bishops_favour"]
    g = create(server, [{"name": "Anna", "kind": "human"}] + [
        {"name": n, "kind": "bot", "bot": "heuristic"} for n in ("Bruno", "Carla", "Dario")], seed=8, modules=modules)
    p = device(PHONE)
    p.goto(g["seats"][0]["url"])
    p.wait_my_turn()
    seen = play_out(p, seed=2, sizes=(PHONE["viewport"], TABLET["viewport"]))
    st = p.state()
    assert st["is_over"] and seen["highlight"] > 0, seen
    assert len(seen["tapped at"]) == 2 and min(seen["tapped at"].values()) >= seen["moves"] // 2 > 10, seen
    for view in (PHONE["viewport"], TABLET["viewport"]):
        p.pg.set_viewport_size(view)
        check_end_screen(p, st)
        assert not p.layout_problems(), view
    check_breakdown(p, st)


def test_a_bot_move_is_highlighted_and_the_board_follows_the_decision(device, server):
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"},
                        {"name": "Carla", "kind": "bot", "bot": "heuristic"}], seed=31)
    p = device(PHONE)
    p.goto(g["seats"][0]["url"])
    st = p.wait_my_turn()
    # get up; the bots then choose their times: their hostel spaces carry the last-move marker
    p.acting(p.pg.locator("svg [data-click^='hostel:'].hot").last.tap)
    st = p.wait_my_turn()
    taken = [r["time"] for r in st["view"]["hostel"] if r.get("taken_by") in ("Bruno", "Carla")]
    if taken:
        p.tid("tab-hostel").tap()
        marked = p.pg.locator("svg [data-last-move=true]").evaluate_all("els => els.map(e => e.dataset.click)")
        assert any(f"hostel:{t}" in marked for t in taken), (marked, taken)
        assert "Bruno" in p.tid("last-move").inner_text() or "Carla" in p.tid("last-move").inner_text()
    # the tabs say where things changed and where the choice is; the title says whose turn
    assert p.pg.title().startswith("● ")


@pytest.mark.slow
def test_help_in_three_languages_and_explanations_on_tap(device, server):
    p = device(PHONE)
    p.goto("/#/help")
    for lang in ("en", "fr", "ru"):
        if lang != "en":
            p.tid(f"lang-{lang}").tap()
        doc = help_doc(lang)
        p.pg.wait_for_function("(s) => document.querySelector('.help h1') && document.querySelector('.help h1').innerText === s",
                               arg=doc["title"])
        for s in doc["sections"]:
            assert p.tid(f"help-{s['id']}").locator("h2").inner_text() == s["title"]
        assert doc["places"]["hostel"] in p.tid("help-places").inner_text()
        assert not p.layout_problems()
        p.keep(f"help-{lang}")
    # the same sections in every language, and every place explained
    keys = [[s["id"] for s in help_doc(lang)["sections"]] for lang in ("en", "fr", "ru")]
    assert keys[0] == keys[1] == keys[2]
    assert set(help_doc("en")["places"]) == set(help_doc("fr")["places"]) == set(help_doc("ru")["places"])
    # in a game: the ⓘ of the board's location and of the plan columns explain them
    p.tid("lang-en").tap()
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "random"}], seed=5)
    p.goto(g["seats"][0]["url"])
    p.wait_my_turn()
    p.tid("info-tab-hostel").tap()
    assert p.tid("info-text-tab-hostel").inner_text() == help_doc("en")["places"]["hostel"]
    for tab, keys in (("market", ["market"]), ("cathedral", ["cathedral", "altar"]), ("theater", ["theater"])):
        p.tid(f"tab-{tab}").tap()
        p.tid(f"info-tab-{tab}").tap()
        text = p.tid(f"info-text-tab-{tab}").inner_text()
        assert all(help_doc("en")["places"][k] in text for k in keys), text
    p.tid("lang-ru").tap()
    p.pg.wait_for_function("(s) => document.querySelector('[data-testid=info-text-tab-theater]').innerText === s",
                           arg=help_doc("ru")["places"]["theater"])
    # a get-up choice says what it does: mood, price, and the apprentice it may cost
    p.tid("lang-en").tap()
    labels = p.pg.locator("[data-testid=decision] button[data-action^='getup']").all_inner_texts()
    assert labels and all("Thaler" in x and "mood" in x for x in labels), labels
    assert any(cat("en")["act.getup_zone_down"].strip(" —") in x for x in labels), labels


def test_a_bad_link_offers_the_way_back(device, server):
    p = device(PHONE)
    for path in ("/#/play/not-a-real-token", "/#/watch/no-such-game", "/#/nonsense/page"):
        p.goto(path)
        p.tid("lost").wait_for()
        assert cat("en")["lost.title"] in p.tid("lost").inner_text()
        assert p.tid("status").count() == 0 or p.tid("status").inner_text() != cat("en")["status.loading"]
        assert not p.layout_problems()
    p.keep("bad-link")
    p.tid("lost-home").tap()
    p.pg.wait_for_selector("[data-testid=app][data-page=home]")
    p.tid("create-game").wait_for()


def test_plural_words_follow_each_language(device, server):
    p = device(PHONE)
    p.goto("/")
    p.tid("create-game").wait_for()
    got = p.pg.evaluate("""async () => {
      const i18n = await import('/static/i18n.js');
      const out = {};
      for (const l of ['en', 'fr', 'ru']) {
        await i18n.setLang(l, false);
        out[l] = [1, 2, 5, 21].map((n) => i18n.t('players.thalers', { n }));
      }
      await i18n.setLang('en', false);
      return out;
    }""")
    assert got["en"] == ["1 Thaler", "2 Thalers", "5 Thalers", "21 Thalers"]
    assert got["fr"] == ["1 thaler", "2 thalers", "5 thalers", "21 thalers"]
    assert got["ru"] == ["1 талер", "2 талера", "5 талеров", "21 талер"]



def test_a_forced_pass_and_the_wall_exchange_are_prompted_as_they_are(device, server):
    """The prompt says what the choice does (issue 13): a visit where only 'pass' is legal (the
    forfeit of rules notes N2; the wall tile's visit too, W2) says there is nothing to do, never
    'blend paints' or 'fulfil a request' in a game without requests; a workshop where only the
    wall exchange (module 9) is possible says so."""
    p = device(PHONE)
    p.goto("/")
    p.tid("create-game").wait_for()
    cols = ["market", "cathedral", "studio", "workshop", "theater"]
    got = p.pg.evaluate("""async (cols) => {
      const i18n = await import('/static/i18n.js');
      const d = await import('/static/decide.js');
      const st = (legal, at) => ({ seat: 0, legal, view: { columns: cols, location: cols[at], column: at,
        visit_left: 1, pending_track: null, figures: [{ apprentices: 5 }] } });
      const out = {};
      for (const l of ['en', 'fr', 'ru']) {
        await i18n.setLang(l, false);
        const wall = st(['pass'], 0);
        wall.view.asks = [[0, 'wall_fresco', 'wall']];
        const g = await import('/static/game.js');
        if (g.decisionTab(wall) !== 'wall') return { tab: g.decisionTab(wall) };     // the wall board shows
        out[l] = [d.promptText(st(['pass'], 3), 0), d.promptText(st(['pass'], 1), 0),
                  d.promptText(st(['exchange BY', 'pass'], 3), 0), d.promptText(st(['blend O', 'pass'], 3), 0),
                  d.promptText(wall, 0)];
      }
      await i18n.setLang('en', false);
      return out;
    }""", cols)
    assert "tab" not in got, got
    for lang, (workshop, cathedral, exchange, blend, wall) in got.items():
        c = cat(lang)
        assert workshop == fill(c["prompt.forced"], lang, place=c["col.workshop"]), (lang, workshop)
        assert cathedral == fill(c["prompt.forced"], lang, place=c["col.cathedral"]), (lang, cathedral)
        assert exchange == c["prompt.workshop_exchange"] and blend == fill(c["prompt.workshop"], lang, n=1), lang
        assert wall == fill(c["prompt.forced"], lang, place=c["kind.wall"]), (lang, wall)     # rules notes W2



# every source the engine scores (docs/events.md, "score and VP by source")
ENGINE_SOURCES = ["tile", "bishop", "special_colours", "favour", "scroll", "altar", "portrait", "request", "wall",
                  "bells", "bells_rank", "bells_track", "track", "medico", "money"]


def test_the_end_screen_shows_every_source_in_a_desktops_side_column_each_in_its_colour(device, server):
    """The end screen (issue 13: 'each player's VP by source as a table and a chart'): at
    desktop size it lies in the side column (320-410 px), where the points of four painters
    from every source the engine scores, and their totals, show without scrolling sideways
    (the painter-per-row table was 1,121 px wide there with all eight modules); the chart tells
    every source apart (the final Thalers 'money', the medico's credit and the bell track once
    shared one grey)."""
    p = device(DESKTOP)
    p.goto("/")
    p.tid("create-game").wait_for()
    widths = p.pg.evaluate("""async (names) => {
      const f = await import('/static/final.js');
      const sources = Object.fromEntries(names.map((n, i) => [n, i + 1]));
      const total = names.reduce((a, _, i) => a + i + 1, 0);
      const figures = ['Player 1', 'Journeyman 2', 'Journeyman 3', 'Journeyman 4'].map((name) => ({ name, vp: total, track: total }));
      const v = { round: 9, figures, vp_sources: figures.map(() => sources) };
      const el = f.finalPanel({ view: v, scores: figures.map(() => total), ranking: [0, 1, 2, 3], version: 1 },
                             { labels: ['P', 'J2', 'J3', 'J4'], figName: (i) => figures[i].name });
      const game = document.createElement('div'); game.className = 'game';
      const side = document.createElement('aside'); side.className = 'side';
      game.append(document.createElement('section'), side); side.append(el);
      document.querySelector('main').append(game);
      const box = el.querySelector('.table-scroll');
      const fills = [...el.querySelectorAll('.chart-row')][0].querySelectorAll('.chart-seg');
      return [box.scrollWidth, box.clientWidth, [...fills].map((r) => r.style.background)];
    }""", ENGINE_SOURCES)
    assert widths[0] <= widths[1] + 1, widths[:2]
    fills = widths[2][:len(ENGINE_SOURCES)]             # the first painter's bar, a segment per source
    assert len(fills) == len(ENGINE_SOURCES) and len(set(fills)) == len(fills), fills



def test_an_empty_bell_display_says_whether_the_audiences_are_void_for_the_round_or_for_good(device, server):
    """The bells: with no certificate on display, the audiences still to come this round are
    void; only with the stack empty too is the audience tile useless for good ('After the last
    certificate is bought ... This action tile is now useless for the remainder of the game')."""
    p = device(PHONE)
    p.goto("/")
    p.tid("create-game").wait_for()
    got = p.pg.evaluate("""async () => {
      const b = await import('/static/bells.js');
      const panel = (stack) => {
        const v = { figures: [{ name: 'Anna' }], bells: { display: [], stack, audience_usable: false, figures: [{}],
          audience: [null], track: null, thresholds: [], rank_points: [] } };
        return b.bellsPanel({ view: v, seat: 0, legal: [] }, { labels: ['A'], figName: () => 'Anna' }).innerText;
      };
      return [panel(5), panel(0)];
    }""")
    c = cat("en")
    assert c["bells.audience_void_round"] in got[0] and c["bells.audience_void"] not in got[0], got
    assert c["bells.audience_void"] in got[1], got



def test_a_phone_held_sideways_keeps_the_places_large_enough_to_tap(device, server):
    """A phone on its side (844x390): the place of the decision is as wide as on a phone held
    upright, so its hostel spaces stay at least 44 px (they shrank to 32 px, fitted to 62% of
    a 390-px-high screen)."""
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "random"}], seed=5)
    p = device({"viewport": {"width": 844, "height": 390}, "is_mobile": True, "has_touch": True, "device_scale_factor": 1})
    p.goto(g["seats"][0]["url"])
    st = p.wait_my_turn()
    assert any(a.startswith("getup ") for a in st["legal"]) and p.tid("tab-hostel").get_attribute("aria-selected") == "true"
    assert not p.layout_problems(), p.layout_problems()



def test_the_log_tells_engine_words_in_the_pages_language(device, server):
    """The browser's log (events.js) tells an audience's column, a request's type and the
    scrolls played in the page's language, as the terminal's renderer does ('Рынок', not
    'market')."""
    from test_server_client import ENGINE_WORDS, WORDED_EVENTS
    p = device(PHONE)
    p.goto("/")
    p.tid("create-game").wait_for()
    got = p.pg.evaluate("""async (events) => {
      const i18n = await import('/static/i18n.js');
      const ev = await import('/static/events.js');
      const out = {};
      for (const l of ['fr', 'ru']) {
        await i18n.setLang(l, false);
        out[l] = events.map((e) => ev.renderEvent(e, ['Anna']).replace(/[\uE000\uE001]/g, ''));
      }
      await i18n.setLang('en', false);
      return out;
    }""", WORDED_EVENTS)
    for lang, texts in got.items():
        assert not [x for x in texts if ENGINE_WORDS.search(x)], (lang, texts)
        assert cat(lang)["col.market"] in texts[1] and cat(lang)["scroll.both"] in texts[2], (lang, texts)
    # portrait names are words: a comma between two revealed cards, as in the terminal
    cards = p.pg.evaluate("""async () => (await import('/static/events.js')).renderEvent(
      { kind: 'portraits_revealed', cards: ['girl-a', 'servant-b'] }, ['Anna'])""")
    assert f"{cat('en')['card.girl']}, {cat('en')['card.servant']}" in cards, cards
    # a figure with no face-down bell certificate is told so (not "Anna reveals : space 0")
    none = p.pg.evaluate("""async () => (await import('/static/events.js')).renderEvent(
      { kind: 'bells_placed', figure: 0, space: 0, face_down: [], partly_paid: [] }, ['Anna'])""")
    assert none == fill(cat("en")["event.bells_placed.none"], who="Anna", space=0), none


# ------------------------------------------------------------------------------ axe-core
def axe_source() -> str:
    try:
        import axe_playwright_python
    except ImportError:
        from server_support import need
        need("axe-playwright-python (its axe.min.js is axe-core)")
    return (Path(axe_playwright_python.__file__).parent / "axe.min.js").read_text(encoding="utf-8")


# moderate rules kept too: every screen has a heading 1 (the game's is for screen readers only)
ALSO = ("page-has-heading-one",)


def serious(p: Phone, source: str) -> list[str]:
    p.pg.evaluate(source)
    result = p.pg.evaluate("async () => await axe.run(document, { resultTypes: ['violations'] })")
    return [f"{v['id']} ({v['impact']}): {v['help']} — {[n['target'] for n in v['nodes'][:3]]}"
            for v in result["violations"] if v["impact"] in ("serious", "critical") or v["id"] in ALSO]


@pytest.mark.slow
def test_axe_core_finds_no_serious_violation(device, server):
    source = axe_source()
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}],
               seed=3, modules=["portraits", "scrolls"])
    done = create(server, [{"name": n, "kind": "bot", "bot": "random"} for n in ("Ada", "Bea")], seed=9)
    problems = {}
    for kind, dev in (("phone", PHONE), ("desktop", DESKTOP)):
        p = device(dev, kind)
        for label, path, ready in (("home", "/", "create-game"), ("help", "/#/help", "help-getup"),
                                   ("game", g["seats"][0]["url"], "decision"), ("lost", "/#/play/nope", "lost")):
            p.goto(path)
            p.tid(ready).wait_for()
            if label == "game":
                p.wait_my_turn()
                p.keep("game-start")
            elif label == "home" or (kind == "desktop" and label == "help"):
                p.keep(label)
            problems[f"{kind}:{label}"] = serious(p, source)
        # a finished game: the end screen
        p.pg.wait_for_function("async (gid) => (await (await fetch('/api/games/' + gid)).json()).is_over",
                               arg=done["game_id"], timeout=120_000, polling=500)
        p.goto(done["watch_url"])
        p.tid("final-scores").wait_for()
        p.keep("end-watch")
        problems[f"{kind}:end"] = serious(p, source)
        p.tid("replay-link").click()
        p.tid("replay").wait_for()
        p.keep("replay")
        problems[f"{kind}:replay"] = serious(p, source)
    assert not any(problems.values()), {k: v for k, v in problems.items() if v}


def test_axe_core_on_the_plan_widget_and_every_players_colour(device, server):
    """The screens the test above does not reach: the plan widget (its columns of slots), and
    the discs of the third and fourth players (a four-player game: no Leonardo), on the
    players' list and the end screen.  Two names begin alike, so that the discs carry two
    letters (axe-core leaves a single letter's contrast undecided)."""
    source = axe_source()
    g = create(server, [{"name": "Anna", "kind": "human"}] + [
        {"name": n, "kind": "bot", "bot": "heuristic"} for n in ("Bruno", "Carla", "Cora")], seed=5)
    done = create(server, [{"name": n, "kind": "bot", "bot": "random"} for n in ("Ada", "Bea", "Cid", "Cy")], seed=6)
    p = device(PHONE)
    p.goto(g["seats"][0]["url"])
    st = p.wait_my_turn()
    if "plan" not in {a.split()[0] for a in st["legal"]}:      # the get-up time first
        p.acting(p.tid(f"hostel-{st['legal'][0].split()[1]}").tap)
        st = p.wait_my_turn()
    p.tid("plan-widget").wait_for()
    assert p.pg.locator("[data-testid=players] .disc").count() == 4
    problems = {"plan": serious(p, source)}
    p.pg.wait_for_function("async (gid) => (await (await fetch('/api/games/' + gid)).json()).is_over",
                           arg=done["game_id"], timeout=120_000, polling=500)
    p.goto(done["watch_url"])
    p.tid("final-scores").wait_for()
    problems["end"] = serious(p, source)
    assert not any(problems.values()), problems


def test_the_plan_columns_names_stay_in_their_columns_on_a_small_phone_in_every_language(device, server):
    """At 360 px the five columns of the plan widget are 62 px wide: the Russian "Мастерская"
    ran over its column's edge into the next one.  Every column name's text lies within its
    column, in English, French and Russian."""
    g = create(server, [{"name": "Anna", "kind": "human"}] + [
        {"name": n, "kind": "bot", "bot": "heuristic"} for n in ("Bruno", "Carla", "Cora")], seed=5)
    p = device({**PHONE, "viewport": {"width": 360, "height": 740}})
    p.goto(g["seats"][0]["url"])
    st = p.wait_my_turn()
    if "plan" not in {a.split()[0] for a in st["legal"]}:      # the get-up time first
        p.acting(p.tid(f"hostel-{st['legal'][0].split()[1]}").tap)
        p.wait_my_turn()
    overflow = {}
    for lang in ("en", "fr", "ru"):
        p.tid(f"lang-{lang}").tap()
        p.pg.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        p.tid("plan-widget").wait_for()
        overflow[lang] = p.pg.evaluate("""() => [...document.querySelectorAll('.plan-name')].flatMap((e) => {
          const col = e.closest('.plan-col').getBoundingClientRect();
          const range = document.createRange(); range.selectNodeContents(e);
          const text = range.getBoundingClientRect();
          return text.left < col.left - 0.5 || text.right > col.right + 0.5 ? [e.textContent] : []; })""")
    assert not any(overflow.values()), overflow


def test_keyboard_play_without_a_mouse(device, server):
    """Every control is reachable and works from the keyboard: Tab moves through the page,
    Enter chooses a glowing place of the board or a button."""
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}], seed=17)
    p = device(DESKTOP)
    p.goto(g["seats"][0]["url"])
    st = p.wait_my_turn()
    # Tab until a get-up space of the hostel has the focus, then Enter
    for _ in range(60):
        p.pg.keyboard.press("Tab")
        focused = p.pg.evaluate("document.activeElement && document.activeElement.getAttribute('data-click')")
        if focused and focused.startswith("hostel:"):
            break
    else:
        raise AssertionError("Tab never reached a hostel space")
    assert p.pg.evaluate("document.activeElement.getAttribute('role')") == "button"
    assert p.pg.evaluate("document.activeElement.getAttribute('aria-label')")
    p.acting(lambda: p.pg.keyboard.press("Enter"))
    st = p.wait_my_turn()
    if st["view"]["phase"] == "plan":
        p.tid("plan-inc-0").focus()
        p.pg.keyboard.press("Enter")
        p.pg.keyboard.press("Enter")
        assert p.tid("plan-count-0").inner_text() == "2"
        p.tid("plan-confirm").focus()
        p.acting(lambda: p.pg.keyboard.press("Enter"))
    # Escape closes an explanation opened from the keyboard
    p.tid("info-players").focus()
    p.pg.keyboard.press("Enter")
    p.tid("info-text-players").wait_for()
    p.pg.keyboard.press("Escape")
    p.pg.wait_for_function("() => !document.querySelector('[data-testid=info-text-players]')")


def test_the_board_tabs_are_one_tab_stop_and_the_arrow_keys_move_between_them(device, server):
    """The WAI-ARIA tabs pattern: every board tab was a Tab stop of its own (ten or more on a
    phone before the decision); now the shown tab is the one stop, the arrow keys, Home and
    End move to another tab and show it, and the tabs name the panel they control."""
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}], seed=17)
    p = device(PHONE)
    p.goto(g["seats"][0]["url"])
    p.wait_my_turn()
    tabs = p.pg.locator("[role=tab]")
    names = tabs.evaluate_all("els => els.map(e => e.dataset.testid)")
    assert len(names) >= 5
    stops = "() => [...document.querySelectorAll('[role=tab]')].filter(e => e.tabIndex >= 0).map(e => e.dataset.testid)"
    selected = "() => document.querySelector('[role=tab][aria-selected=true]').dataset.testid"
    assert p.pg.evaluate(stops) == [p.pg.evaluate(selected)]
    shown = p.pg.evaluate(selected)
    p.tid(shown).focus()
    p.pg.keyboard.press("Tab")              # Tab leaves the tab list at once
    assert not (p.pg.evaluate("document.activeElement.getAttribute('role')") == "tab")
    p.tid(shown).focus()
    i = names.index(shown)
    for key, j in (("ArrowRight", (i + 1) % len(names)), ("ArrowLeft", i), ("End", len(names) - 1), ("ArrowRight", 0),
                   ("ArrowLeft", len(names) - 1), ("Home", 0)):
        p.pg.keyboard.press(key)
        assert p.pg.evaluate("document.activeElement.dataset.testid") == names[j], key
        assert p.pg.evaluate(selected) == names[j] and p.pg.evaluate(stops) == [names[j]]
        panel = p.pg.locator("[role=tabpanel]")
        assert panel.get_attribute("id") == p.tid(names[j]).get_attribute("aria-controls")
        assert panel.get_attribute("aria-labelledby") == p.tid(names[j]).get_attribute("id")


FOCUS_HIDDEN = """() => { const e = document.activeElement; if (!e || e === document.body) return null;
  const r = e.getBoundingClientRect(); const x = r.left + r.width / 2, y = r.top + r.height / 2;
  if (y < 0 || y > innerHeight || x < 0 || x > innerWidth) return `${e.dataset.testid} off the screen`;
  const top = document.elementFromPoint(x, y);
  return top === e || e.contains(top) ? null
    : `${e.dataset.testid || e.getAttribute('data-click')} behind ${(top.closest('[data-testid]') || top).dataset.testid}`; }"""


def test_a_control_reached_by_tab_on_a_phone_is_not_behind_the_bottom_sheet(device, server):
    """WCAG 2.4.11 (focus not obscured): at phone size the decision sheet is fixed at the foot
    of the screen; Tab through the page must scroll each control it reaches into the part of
    the screen the sheet leaves free (the hostel's late spaces were behind it)."""
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}], seed=17)
    p = device(PHONE)
    p.goto(g["seats"][0]["url"])
    p.wait_my_turn()
    reached, hidden = set(), []
    for _ in range(40):
        p.pg.keyboard.press("Tab")
        reached.add(p.pg.evaluate("document.activeElement && document.activeElement.dataset.testid"))
        why = p.pg.evaluate(FOCUS_HIDDEN)
        if why:
            hidden.append(why)
    assert "info-players" in reached and {t.split("-")[0] for t in reached if t} >= {"hostel", "action"}, reached
    assert not hidden, hidden


def test_the_end_screens_names_stay_whole_and_readable_on_a_small_phone(device, server):
    """At 360 px the sources' column took the room and the painters' columns broke even short
    names inside the word ("Brun|o", "Carl|a"); the chart's SVG, scaled to the phone's width,
    drew the names at 7 px and cut a long one off at the left.  In English, French and Russian:
    every word of a short name stays on one line in its column head, and each chart name is
    whole within the chart, in a readable size."""
    names = ("Bruno", "Carla", "Dario", "Donatella Длинноимённая")
    # (heuristic bots: random ones can play 30 rounds, whose long log the page draws slowly)
    done = create(server, [{"name": n, "kind": "bot", "bot": "heuristic"} for n in names], seed=6)
    p = device({**PHONE, "viewport": {"width": 360, "height": 740}})
    p.goto("/")
    p.tid("create-game").wait_for()
    p.pg.wait_for_function("async (gid) => (await (await fetch('/api/games/' + gid)).json()).is_over",
                           arg=done["game_id"], timeout=120_000, polling=500)
    p.goto(done["watch_url"])
    p.tid("final-scores").wait_for()
    got = {}
    for lang in ("en", "fr", "ru"):
        p.tid(f"lang-{lang}").tap()
        p.pg.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        p.tid("final-scores").wait_for()
        got[lang] = p.pg.evaluate("""(short) => {
          const out = [];
          for (const el of document.querySelectorAll('[data-testid=final-scores] .fig-name')) {
            if (!short.includes(el.textContent)) continue;
            const range = document.createRange(); range.selectNodeContents(el);
            if (new Set([...range.getClientRects()].map((r) => Math.round(r.top))).size > 1) out.push(`broken: ${el.textContent}`);
          }
          const chart = document.querySelector('[data-testid=vp-chart]').getBoundingClientRect();
          for (const name of document.querySelectorAll('[data-testid=vp-chart] .chart-name')) {
            const range = document.createRange(); range.selectNodeContents(name);
            const text = range.getBoundingClientRect();
            if (text.left < chart.left - 0.5 || text.right > chart.right + 0.5) out.push(`cut off: ${name.textContent}`);
            if (text.height < 12) out.push(`${name.textContent} at ${text.height.toFixed(1)} px`);
          }
          if (document.querySelectorAll('[data-testid=vp-chart] .chart-name').length !== short.length + 1) out.push('chart names missing');
          return out;
        }""", list(names[:3]))
    assert not any(got.values()), got
    assert p.pg.evaluate("document.documentElement.scrollWidth") <= 360


def test_a_half_built_plan_comes_back_after_a_reload(device, server):
    """A phone drops a page in the background and reloads it: the plan widget's choices so far
    (apprentices per column, the audience tile) were kept only in the page and were lost.  They
    come back after a reload; after a reset, a reload shows the reset widget."""
    g = create(server, [{"name": "Anna", "kind": "human"}, {"name": "Bruno", "kind": "bot", "bot": "heuristic"}],
               seed=14, modules=["bells"])
    p = device({**PHONE, "viewport": {"width": 360, "height": 740}})
    p.goto(g["seats"][0]["url"])
    st = p.wait_my_turn()
    while "plan" not in {a.split()[0] for a in st["legal"]}:      # the get-up times first (Leonardo's too)
        p.acting(p.tid(f"hostel-{st['legal'][0].split()[1]}").tap)
        st = p.wait_my_turn()
    p.tid("plan-widget").wait_for()
    for col in (0, 0, 2):
        p.tid(f"plan-inc-{col}").tap()
    tiles = p.pg.locator("[data-testid=plan-audience] button[data-testid^=plan-audience-]:not([data-testid$=-none])")
    if tiles.count():
        tiles.last.tap()
    before = p.tid("plan-confirm").get_attribute("data-action")
    assert before.startswith("plan 2-0-1-0-0"), before
    p.pg.reload()
    p.wait_my_turn()
    p.tid("plan-widget").wait_for()
    assert [p.tid(f"plan-count-{i}").inner_text() for i in range(3)] == ["2", "0", "1"]
    assert p.tid("plan-confirm").get_attribute("data-action") == before
    p.tid("plan-reset").tap()
    assert p.tid("plan-count-0").inner_text() == "0"
    p.pg.reload()
    p.wait_my_turn()
    p.tid("plan-widget").wait_for()
    assert [p.tid(f"plan-count-{i}").inner_text() for i in range(3)] == ["0", "0", "0"]


def test_the_new_game_form_fits_a_small_phone_in_every_language(device, server):
    """A fieldset is as wide as its content by default: at 360 px in Russian the bot menu's
    longest name made the players' fieldset 387 px wide, past its card and the screen (the
    page scrolled sideways; a mobile browser widens innerWidth to it, so the check measures the
    screen's width).  In English, French and Russian, with four seats, every fieldset lies
    within the form and the page does not scroll sideways."""
    p = device({**PHONE, "viewport": {"width": 360, "height": 740}})
    p.goto("/")
    p.tid("create-game").wait_for()
    p.tid("player-count-4").check()
    got = {}
    for lang in ("en", "fr", "ru"):
        p.tid(f"lang-{lang}").tap()
        p.pg.wait_for_function("(l) => document.documentElement.lang === l", arg=lang)
        got[lang] = p.layout_problems() + p.pg.evaluate("""() => {
          const form = document.querySelector('.create-form').getBoundingClientRect();
          return [...document.querySelectorAll('.create-form fieldset, .create-form select')].flatMap((e) => {
            const r = e.getBoundingClientRect();
            return r.left < form.left - 0.5 || r.right > form.right + 0.5 ? [`${e.tagName} ${Math.round(r.right)} > ${Math.round(form.right)}`] : []; });
        }""")
    assert not any(got.values()), got


@pytest.mark.parametrize("size", ["phone", "desktop"])
def test_the_end_screen_offers_a_new_game(device, server, size):
    """A newcomer's first game ends: the end screen says who won and why, offers the replay, and
    (it did not) a new game, at phone and desktop size; the link opens the new-game form."""
    done = create(server, [{"name": n, "kind": "bot", "bot": "heuristic"} for n in ("Bruno", "Carla")], seed=8)
    p = device(PHONE if size == "phone" else DESKTOP)
    p.goto("/")
    p.tid("create-game").wait_for()
    p.pg.wait_for_function("async (gid) => (await (await fetch('/api/games/' + gid)).json()).is_over",
                           arg=done["game_id"], timeout=120_000, polling=500)
    p.goto(done["watch_url"])
    final = p.tid("final-scores")
    final.wait_for()
    link = final.get_by_test_id("new-game-link")
    assert link.inner_text() == cat("en")["home.create"]
    box = settled_box(link)
    assert box["height"] >= (MIN_TAP if size == "phone" else 20), box
    (link.tap if size == "phone" else link.click)()
    p.tid("create-game").wait_for()
    assert not p.layout_problems()
