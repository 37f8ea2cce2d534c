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


def test_private_log_events_only_for_their_owner():
    """R4 / R22: what a player planned is logged for him alone until the reveal."""
    g = game(3)
    g.apply(0, "plan 0-0-3-0-0")
    assert {"kind": "plan_chosen", "figure": 0, "plan": "0-0-3-0-0", "round": 1} in g.view(0)["events"]
    for viewer in (1, 2, None):
        assert not any(e.get("plan") == "0-0-3-0-0" for e in g.view(viewer)["events"])
        assert "0-0-3-0-0" not in json.dumps(g.view(viewer))


def test_legal_actions_only_for_the_seat_to_act():
    """'Performing actions': only the active player has actions; the others have none."""
    g = game(3)
    plan_all(g, "0-0-1-0-0", "0-0-0-0-0", "0-0-0-0-0")
    assert {str(a) for a in g.legal_actions(0)} == {"studio", "pass"}
    assert g.legal_actions(1) == [] and g.legal_actions(2) == []


def _trace(g, seat_to_pass, viewers):
    """What the others see: every view before and after the pass, and who is to act."""
    out = [(g.to_act, [g.view(v) for v in viewers])]
    g.apply(seat_to_pass, "pass")
    out.append((g.to_act, [g.view(v) for v in viewers]))
    return out


def test_a_forced_pass_leaves_the_same_public_trace_as_a_chosen_one():
    """'Performing actions': a player who cannot pay 'must forfeit' the action; R22: his paints
    are secret. Issue #15 item 4: whether seat 0 passes in the cathedral because it cannot pay
    (no paint) or by choice (it could restore A1), the others see the same: seat 0 to act, then
    its public 'pass', the same views and log (N2)."""
    traces = []
    for paints in ("", "YY"):
        g = game(3, seats=[dict(getup="7:00", paints=paints), dict(getup="8:00"), dict(getup="9:00")],
                 fresco={"A1": "3:YY"})
        plan_all(g, "0-1-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
        assert g.to_act == (0,)
        assert ({str(a) for a in g.legal_actions(0)} == {"pass"}) == (paints == "")
        traces.append(_trace(g, 0, [1, 2, None]))
    assert traces[0] == traces[1]
    assert any(e["kind"] == "pass" and e["figure"] == 0 for e in traces[0][1][1][2]["events"])


def test_a_forced_pass_in_the_workshop_is_the_players_own():
    """The same in the workshop: nothing to blend (secret paints) is a pass of the player's own."""
    traces = []
    for paints in ("R", "RY"):
        g = game(3, seats=[dict(getup="7:00", paints=paints), dict(getup="8:00"), dict(getup="9:00")])
        plan_all(g, "0-0-0-1-0", "0-0-1-0-0", "0-0-0-0-0")
        assert g.to_act == (1,)
        g.apply(1, "studio")
        assert g.to_act == (0,)
        traces.append(_trace(g, 0, [1, 2, None]))
    assert traces[0] == traces[1]


def test_a_market_without_tiles_is_skipped_for_everyone_to_see():
    """R5: 'If no booth has tiles, the visit does nothing': public, so it is skipped (N2)."""
    g = game(3, seats=[dict(getup="7:00"), dict(getup="8:00"), dict(getup="9:00")], booths=[[], [], []],
             bag=["YYY", "RR", "BB", "RRR", "YB", "O", "BBB", "YY", "G", "RY", "RB"])
    plan_all(g, "1-0-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
    assert g.to_act == (1,)
