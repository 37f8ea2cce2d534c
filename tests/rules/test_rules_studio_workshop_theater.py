"""Rulebook 'Studio: Paint portraits', 'Workshop: Blend paints', 'Theater: Improve one's
mood' (R3, R9)."""
from __future__ import annotations


import pytest

import affresco

from positions import TOP, act, data, fig, game, mood, only_actor, paints, plan_all, thalers  # noqa: E402


def visit_game(plan0, plan1="0-0-0-0-0", **seat0):
    seat0.setdefault("getup", "7:00")
    g = game(3, seats=[seat0, dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, plan0, plan1, "0-0-0-0-0")
    return g


# ------------------------------------------------------------------------------ studio
@pytest.mark.parametrize("n", [1, 2, 3])
def test_studio_pays_3_thalers_per_apprentice(n):
    """'Studio' / R9: for each apprentice deployed at the studio the player is paid 3
    Thalers."""
    g = visit_game(f"0-0-{n}-0-0", "0-0-1-0-0")
    g.apply(0, "studio")
    assert thalers(g, 0) == 12 + 3 * n
    assert only_actor(g) == 1


def test_studio_may_be_forfeited():
    """'Performing actions': a player may forfeit his studio action."""
    g = visit_game("0-0-2-0-0", "0-0-1-0-0")
    g.apply(0, "pass")
    assert thalers(g, 0) == 12


# ---------------------------------------------------------------------------- workshop
@pytest.mark.parametrize("have,blend,after", [
    ("RY", "O", "O"),      # Y + R = O
    ("RB", "P", "P"),      # R + B = P
    ("YB", "G", "G"),      # Y + B = G
    ("RRYB", "O", "RBO"),
])
def test_blending_table(have, blend, after):
    """'Workshop' / R9, blending table: yellow + red = orange, red + blue = purple, yellow +
    blue = green; the two paints return to the supply, the result is taken."""
    g = visit_game("0-0-0-1-0", "0-0-0-0-1", paints=have)
    g.apply(0, f"blend {blend}")
    assert paints(g, 0) == after


@pytest.mark.parametrize("have,blend", [("RRBB", "O"), ("YYRR", "G"), ("BBYY", "P"), ("RY", "G"), ("RY", "P")])
def test_blend_needs_both_paints(have, blend):
    """'Workshop': a blend needs the two paints of the blending table."""
    g = visit_game("0-0-0-1-0", "0-0-0-0-1", paints=have)
    assert only_actor(g) == 0   # another blend is possible: he is asked
    before = g.to_json()
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, f"blend {blend}")
    assert g.to_json() == before


@pytest.mark.parametrize("bad", ["blend R", "blend K", "blend"])
def test_only_table_blends_exist(bad):
    """'Workshop', blending table of the base game: only O, G and P can be made."""
    g = visit_game("0-0-0-1-0", "0-0-0-0-1", paints="RRYYBB")
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, bad)


def test_two_blends_per_workshop_apprentice():
    """'Workshop' / R9: for each apprentice at the workshop up to 2 blends."""
    g = visit_game("0-0-0-1-0", "0-0-0-0-1", paints="RRRYYYBBB")
    g.apply(0, "blend O")
    assert only_actor(g) == 0
    g.apply(0, "blend P")
    assert only_actor(g) == 1     # seat 0's 2 blends are used up
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "blend G")
    assert paints(g, 0) == "RYYBBOP"


def test_four_blends_with_two_apprentices():
    """'Workshop': 2 apprentices, up to 4 blends."""
    g = visit_game("0-0-0-2-0", "0-0-0-0-1", paints="RRRYYYBBB")
    for b in ("O", "P", "G", "O"):
        assert only_actor(g) == 0
        g.apply(0, f"blend {b}")
    assert only_actor(g) == 1
    assert paints(g, 0) == "BOOGP"


def test_blends_may_stop_early():
    """'Performing actions': a player may blend fewer times than allowed."""
    g = visit_game("0-0-0-1-0", "0-0-0-0-1", paints="RRYYBB")
    g.apply(0, "blend G")
    g.apply(0, "pass")
    assert only_actor(g) == 1
    assert paints(g, 0) == "RRYBG"


# ----------------------------------------------------------------------------- theater
@pytest.mark.parametrize("n,start,end", [(1, 3, 1), (2, 5, 1), (1, 6, 4), (3, 6, 0)])
def test_theater_raises_mood_2_per_apprentice(n, start, end):
    """'Theater' / R9: per theater apprentice the painter moves 2 spaces up the mood display."""
    g = visit_game(f"0-0-0-0-{n}", mood=start, aside=start >= 5)
    assert only_actor(g) == 0
    g.apply(0, "theater")
    assert mood(g, 0) == end


@pytest.mark.parametrize("n,start", [(1, 1), (2, 2), (3, 3), (1, 0)])
def test_theater_mood_is_clamped_at_the_top(n, start):
    """Phase 1 / R3: a figure never moves beyond the top space; excess movement is lost."""
    g = visit_game(f"0-0-0-0-{n}", mood=start, neutral=start <= 1)
    g.apply(0, "theater")
    assert mood(g, 0) == TOP


def test_theater_effect_on_apprentices_waits_for_next_phase_one():
    """'Theater' note / R3: a change of mood by the theater takes effect only in the next
    round after choosing the get-up time: only then the neutral apprentice is taken."""
    g = game(3, seats=[dict(getup="7:00", track="S1"), dict(getup="8:00", track="S2"),
                       dict(getup="9:00", track="S3")])
    plan_all(g, "0-0-0-0-1", "0-0-0-0-0", "0-0-0-0-0")
    g.apply(0, "theater")               # 3 -> 1: a +1 space
    d = fig(g, 0)
    assert d["mood"] == 1
    assert d["neutral_apprentice"] is False   # not yet (the round ended: phase 1 of round 2)
    assert data(g)["phase"] == "getup" and data(g)["round"] == 2
    assert g.view(0)["figures"][0]["apprentices"] == 5
    # round 2, phase 1: the players rotated on the start spaces (R2): seat 2 (now S1) chooses
    # first, then seat 0 (now S2)
    assert act(g, "getup 7:00") == 2
    assert only_actor(g) == 0
    g.apply(0, "getup 8:00")
    assert fig(g, 0)["neutral_apprentice"] is True
    assert g.view(0)["figures"][0]["apprentices"] == 6


def test_theater_out_of_minus_one_zone_returns_apprentice_only_next_phase_one():
    """R3: leaving the -1 spaces by the theater: the set-aside apprentice comes back at the
    next phase 1, after the get-up choice."""
    g = game(3, seats=[dict(getup="7:00", mood=5, aside=True), dict(getup="8:00"), dict(getup="9:00")])
    plan_all(g, "0-0-0-0-1", "0-0-0-0-0", "0-0-0-0-0")
    g.apply(0, "theater")               # 5 -> 3
    assert mood(g, 0) == 3
    assert fig(g, 0)["apprentice_set_aside"] is True
    assert act(g, "getup 7:00") == 2    # R2 rotation: seat 2 now on S1, seat 0 on S2, seat 1 on S3
    g.apply(0, "getup 8:00")
    assert fig(g, 0)["apprentice_set_aside"] is False
    assert g.view(0)["figures"][0]["apprentices"] == 5
