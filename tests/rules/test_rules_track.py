"""Rulebook 'Restore a segment of the fresco' (the victory point track) and the final
scoring note (R8): one figure per space; landing on an occupied space the mover chooses the
next empty space behind or in front."""
from __future__ import annotations


import pytest

import affresco

from positions import data, game, legal, only_actor, plan_all, track  # noqa: E402


def track_game(me, others, *, apprentices=1, paints="YY", fresco=None):
    """Seat 0 (7:00, on space ``me``) restores; seats 1, 2 stand on ``others``; seat 1 has a
    studio apprentice to keep the round open."""
    g = game(3, seats=[dict(getup="7:00", track=me, paints=paints),
                       dict(getup="8:00", track=others[0]), dict(getup="9:00", track=others[1])],
             fresco=fresco or {"A1": "3:YY", "E5": "3:YY"})
    plan_all(g, f"0-{apprentices}-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
    return g


def positions_distinct(g):
    labels = [f["track"] for f in data(g)["figures"]]
    assert len(set(labels)) == len(labels)


def test_free_space_no_choice():
    """VP track: the painter advances as many spaces as VP gained."""
    g = track_game(3, ["S1", 10])
    g.apply(0, "restore A1")
    assert track(g, 0) == 6
    assert only_actor(g) == 1


def test_landing_on_occupied_space_asks_behind_or_ahead():
    """VP track / R8: landing on an occupied space the mover decides to stop on the next
    empty space behind or in front."""
    g = track_game(3, [6, 10])
    g.apply(0, "restore A1")
    assert g.to_act == (0,)
    assert legal(g, 0) == {"track behind", "track ahead"}
    assert data(g)["pending_track"] is not None
    # other actions are refused while the choice is pending
    with pytest.raises(affresco.IllegalAction):
        g.apply(0, "pass")
    with pytest.raises(affresco.IllegalAction):
        g.apply(1, "studio")


@pytest.mark.parametrize("choice,space", [("behind", 5), ("ahead", 7)])
def test_behind_or_ahead(choice, space):
    """VP track / R8: the next empty space behind or in front of the occupied one."""
    g = track_game(3, [6, 10])
    g.apply(0, "restore A1")
    g.apply(0, f"track {choice}")
    assert track(g, 0) == space
    assert track(g, 1) == 6
    positions_distinct(g)
    assert only_actor(g) == 1


@pytest.mark.parametrize("choice,space", [("behind", 4), ("ahead", 8)])
def test_nearest_free_space_skips_occupied_ones(choice, space):
    """R8: the nearest FREE space behind or in front; no space ever holds 2 figures."""
    g = game(4, seats=[dict(getup="7:00", track=2, paints="YY"), dict(getup="8:00", track=6),
                       dict(getup="9:00", track=7), dict(getup="6:00", track=5)],
             fresco={"A1": "4:YY"})
    plan_all(g, "0-1-0-0-0", "0-0-1-0-0", "0-0-0-0-0", "0-0-0-0-0")
    g.apply(0, "restore A1")          # 2 + 4 = 6: 6 taken, 7 taken, 5 taken
    g.apply(0, f"track {choice}")
    assert track(g, 0) == space
    positions_distinct(g)


def test_never_below_space_one_then_forced_ahead():
    """R8: the space behind is never below space 1 (start spaces are no track spaces); if no
    free space is behind, the figure goes ahead without a choice."""
    g = track_game("S1", [2, 1], paints="RYB")
    g.apply(0, "altar RYB")         # 2 VP: space 2 taken, space 1 taken
    assert track(g, 0) == 3
    assert data(g)["pending_track"] is None
    assert only_actor(g) == 1
    positions_distinct(g)


def test_behind_not_offered_below_one_from_start_space():
    """R8 with the start spaces not counting: from S2, 2 VP onto occupied space 2 with space
    1 taken too: forced to 3."""
    g = game(3, seats=[dict(getup="7:00", track="S2", paints="RYB"), dict(getup="8:00", track=1),
                       dict(getup="9:00", track=2)])
    plan_all(g, "0-1-0-0-0", "0-0-1-0-0", "0-0-0-0-0")
    g.apply(0, "altar RYB")
    assert track(g, 0) == 3


def test_behind_space_one_is_allowed():
    """R8: space 1 is a track space: behind may stop there."""
    g = track_game("S1", [2, 10], paints="RYB")
    g.apply(0, "altar RYB")
    assert legal(g, 0) == {"track behind", "track ahead"}
    g.apply(0, "track behind")
    assert track(g, 0) == 1


def test_restoration_with_bonus_is_one_move():
    """R8: a restoration with its bishop bonus is one scoring event: 3 + 2 from space 3
    lands on 8 directly (space 6, occupied, is passed over)."""
    g = track_game(3, [6, 10], fresco={"B2": "3:YY"})
    g.apply(0, "restore B2")
    assert track(g, 0) == 8
    assert data(g)["pending_track"] is None


def test_choice_then_the_visit_continues():
    """R8: after the choice the mover goes on with his remaining cathedral actions."""
    g = track_game(3, [6, 10], apprentices=2, paints="YYYY")
    g.apply(0, "restore A1")
    g.apply(0, "track ahead")
    assert only_actor(g) == 0
    g.apply(0, "restore E5")          # 7 + 3 = 10: occupied again
    assert g.to_act == (0,)
    g.apply(0, "track behind")
    assert track(g, 0) == 9
    positions_distinct(g)


def test_every_figure_is_on_the_track_in_positions_of_each_player_count_loaded_one_after_another():
    """'The player advances their master painter on the victory point track' / R8 (the track
    gives each figure its score): positions written without a log, of 3, then 4, then 2
    players (Leonardo the third figure), each show one score and one set of VP sources per
    figure, adding up to its space. (The sources were memoised by the log, and every position
    without a log has the same empty one: a 4-player position after a 3-player one failed.)"""
    for players, figures in ((3, 3), (4, 4), (2, 3), (4, 4)):
        g = game(players, seats=[dict(track=5 + i) for i in range(players)])
        sources = g.vp_sources()
        assert len(sources) == len(g.scores()) == len(g.view(0)["vp_sources"]) == figures
        assert [sum(d.values()) for d in sources] == g.scores()
