"""R22 (hidden information) with the rulebook's screens: paints and Thalers are hidden behind
each player's large screen, plans behind the small screen until revealed; the rest is
public."""
from __future__ import annotations

import json

from positions import game, plan_all  # noqa: E402


def test_paints_and_thalers_are_private():
    """'Gaming material per player' (large screen) / R22: a player's paints and Thalers are
    private to him."""
    g = game(3, seats=[dict(paints="RYBO", thalers=17), dict(paints="GG", thalers=3), {}])
    mine = g.view(0)["figures"]
    assert mine[0]["paints"] == "RYBO" and mine[0]["thalers"] == 17
    for other in (1, 2):
        assert "paints" not in mine[other] and "thalers" not in mine[other]
    spectator = g.view(None)["figures"]
    assert all("paints" not in f and "thalers" not in f for f in spectator)
    assert g.view(1)["figures"][1]["thalers"] == 3
    assert "RYBO" not in json.dumps(g.view(2))


def test_public_information_is_shown_to_everyone():
    """R22: track positions, fresco tiles owned, get-up times, mood, the board are public."""
    g = game(3, seats=[dict(track=4, tiles=["3:YY"], mood=1, neutral=True), {}, {}])
    for viewer in (0, 1, None):
        f0 = g.view(viewer)["figures"][0]
        assert f0["track"] == 4 and f0["vp"] == 4
        assert f0["tiles"] == ["3:YY"]
        assert f0["mood"] == 1 and f0["getup"] == "7:00"
        assert f0["apprentices"] == 6


def test_bag_contents_and_seed_are_hidden():
    """R22: the bag order (and contents) is hidden from everyone; only its size is shown."""
    g = game(3, bag=["RY", "RB"], seed=12345)
    for viewer in (0, None):
        v = g.view(viewer)
        assert v["bag_size"] == 2
        assert "bag" not in v and "seed" not in v
        assert "12345" not in json.dumps(v)


def test_private_log_lines_only_for_their_owner():
    """R4 / R22: what a player planned is logged for him alone until the reveal."""
    g = game(3)
    g.apply(0, "plan 0-0-3-0-0")
    assert any("0-0-3-0-0" in line for line in g.view(0)["log"])
    for viewer in (1, 2, None):
        assert not any("0-0-3-0-0" in line for line in g.view(viewer)["log"])


def test_legal_actions_only_for_the_seat_to_act():
    """'Performing actions': only the active player has actions; the others have none."""
    g = game(3)
    plan_all(g, "0-0-1-0-0", "0-0-0-0-0", "0-0-0-0-0")
    assert {str(a) for a in g.legal_actions(0)} == {"studio", "pass"}
    assert g.legal_actions(1) == [] and g.legal_actions(2) == []
