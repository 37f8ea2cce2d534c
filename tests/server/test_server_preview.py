"""Decisions show their consequences (issue 13): ``GET /api/me/preview`` says what each scoring
choice of a seat would score, and playing the choice scores exactly that."""
from __future__ import annotations

import os
import random
import sys

import pytest

from server_support import api_client, auth  # noqa: E402


def test_the_preview_of_each_scoring_choice_is_what_it_scores(tmp_path):
    """Played on the real game, each previewed choice scores its preview, source by source
    (the track's behind/ahead difference, R8, and a favour token's hidden VP aside)."""
    import affresco
    if not hasattr(affresco.Game, "events_since"):
        pytest.skip("this engine has no events yet (docs/events.md)")
    checked = 0
    with api_client(f"sqlite:///{tmp_path / 'g.db'}") as c:
        r = c.post("/api/games", json={"players": [{"name": "Anna"}, {"name": "Bea"}, {"name": "Cleo"}],
                                       "modules": ["special_colours", "bishops_favour", "scrolls"], "seed": 6})
        tokens = [s["token"] for s in r.json()["seats"]]
        rng = random.Random(4)
        states = {tok: c.get("/api/me", headers=auth(tok)).json() for tok in tokens}
        for _ in range(2000):
            tok = next((t for t in tokens if states[t]["legal"]), None)
            if tok is None or checked >= 12:
                break
            me = states[tok]
            seat = me["seat"]
            scoring = [a for a in me["legal"] if a.split()[0] in ("restore", "altar", "scroll")]
            want = None
            if scoring and not me["view"].get("pending_track"):
                pre = c.get("/api/me/preview", headers=auth(tok)).json()
                assert pre["version"] == me["version"] and set(pre["previews"]) >= set(scoring)
                action = rng.choice(scoring)
                want = pre["previews"][action]
                assert want["vp"] == sum(want["sources"].values())
            else:
                good = [a for a in me["legal"] if a.split()[0] in ("buy", "restore", "altar", "blend")]
                action = rng.choice(good or me["legal"])
            before = me["view"]["vp_sources"][seat]
            r = c.post("/api/me/act", headers=auth(tok), json={"action": action, "version": me["version"]})
            assert r.status_code == 200, r.text
            after = r.json()
            if want is not None and not after["view"].get("pending_track"):
                now = after["view"]["vp_sources"][seat]
                # a favour token's VP is drawn face down: the preview leaves it out
                gained = {k: now.get(k, 0) - before.get(k, 0) for k in set(now) | set(before)
                          if k not in ("track", "favour")}
                assert {k: v for k, v in gained.items() if v} == {k: v for k, v in want["sources"].items() if v}, \
                    (action, want, gained)
                checked += want["vp"] > 0
            states = {t: c.get("/api/me", headers=auth(t)).json() for t in tokens}
        assert c.get("/api/me/preview").status_code == 401          # for seats only
    assert checked >= 12


def test_the_preview_never_tells_what_a_hidden_favour_token_gives():
    """R22 and the bishop's favour (tokens face down until taken, M7): the preview of a
    restoration with the bishop on the segment is the same whichever token lies there, so it
    cannot tell a +1 VP token from a Thaler one before the player commits."""
    from positions import module_game, plan_all

    from affresco.bots.preview import previews

    def preview(tokens):
        seats = [dict(getup="7:00", paints="YY"), dict(getup="8:00"), dict(getup="9:00")]
        g = module_game(3, modules=["bishops_favour"], modules_state={"bishops_favour": tokens},
                        fresco={"C3": "3:YY"}, bishop="C3", seats=seats)
        plan_all(g, "0-1-0-0-0", "0-0-0-0-0", "0-0-0-0-1")
        return previews(g, 0)

    with_vp, with_thalers = preview(["vp:1"]), preview(["thalers:1"])
    assert with_vp["restore C3"]["vp"] == 6 == with_thalers["restore C3"]["vp"]    # tile 3 + bishop 3
    assert with_vp == with_thalers


def test_the_preview_of_the_games_last_action_is_that_action_alone():
    """The last restoration of the final round ends the game, and final scoring follows at once
    (R12): the preview says what the restoration scores (tile 3 + bishop 3), never the final
    scoring's points of every painter, which would tell the others' secret Thalers (R22)."""
    from positions import game, plan_all

    from affresco.bots.preview import previews
    seats = [dict(getup="7:00", paints="YY", thalers=0), dict(getup="8:00", thalers=41), dict(getup="9:00", thalers=67)]
    g = game(3, final=True, side=2, fresco={"C3": "3:YY"}, bishop="C3", seats=seats)
    plan_all(g, "0-0-0-0-1", "0-0-0-0-0", "0-0-0-0-0")
    pre = previews(g, 0)
    assert pre["restore C3"] == {"vp": 6, "sources": {"tile": 3, "bishop": 3}}
    g.apply(0, "restore C3")
    assert g.is_over                       # it was the game's last action


def test_previews_depend_on_the_seats_view_alone():
    """The whole class of leak (a copy of the real game draws what the real game will): the
    previews are made on a copy built from the seat's view, so games that the seat sees alike
    (other seats' Thalers and paints, the seed, the favour tokens still face down) get the same
    previews, whatever their hidden parts (R22)."""
    from positions import module_game, plan_all

    from affresco.bots.preview import previews

    def preview(seed, tokens, thalers, paints):
        seats = [dict(getup="7:00", paints="YYRPO"), dict(getup="8:00", thalers=thalers, paints=paints),
                 dict(getup="9:00")]
        g = module_game(3, modules=["bishops_favour"], seed=seed, bishop="C3", seats=seats,
                        modules_state={"bishops_favour": tokens}, fresco={"C3": "3:YY", "C4": "5:PY"})
        plan_all(g, "0-2-0-0-0", "0-0-0-0-0", "0-0-0-0-1")
        return g.view(0, log=False), previews(g, 0)

    first = preview(1, ["vp:1", "vp:1"], 12, "RYB")
    for other in (preview(2, ["thalers:5", "vp:1"], 40, "OOG"), preview(3, ["mood:1", "paint:R"], 3, "")):
        assert other[0] == first[0] and other[1] == first[1]
    assert first[1]["restore C3"]["vp"] == 6
