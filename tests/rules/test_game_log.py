"""Game.view(seat, log=False) and Game.events_since: following the events cheaply (R22 per seat)."""
import random

import affresco


def _play(g, n, rng):
    for _ in range(n):
        if g.is_over:
            return
        seat = g.to_act[0]
        g.apply(seat, rng.choice(g.legal_actions(seat)))


def test_view_without_log_is_the_view_minus_its_events():
    g = affresco.new_game(3, seed=4)
    _play(g, 60, random.Random(1))
    for seat in (None, 0, 1, 2):
        full = g.view(seat)
        lean = g.view(seat, log=False)
        assert "events" not in lean and "log" not in full
        assert full.pop("events") == g.events(seat)
        assert lean == full


def test_events_since_follows_each_seat_incrementally_and_detects_a_rewind():
    rng = random.Random(2)
    g = affresco.new_game(4, ["scrolls"], seed=9)
    marks = {s: (None, []) for s in (None, 0, 1, 2, 3)}
    for _ in range(40):
        _play(g, 7, rng)
        for seat, (mark, evs) in marks.items():
            new, mark = g.events_since(seat, mark)
            assert new is not None
            evs = evs + new
            assert evs == g.view(seat)["events"]          # private events only for their seat
            marks[seat] = (mark, evs)
    assert any(e["kind"] == "plan_chosen" for e in marks[0][1])
    assert not any(e["kind"] == "plan_chosen" for e in marks[None][1])
    earlier = affresco.replay(g.record(), upto=20)         # another position: the mark is not in it
    assert earlier.events_since(0, marks[0][0]) == (None, earlier.events_since(0, None)[1])
    assert earlier.events_since(0, None)[0] == earlier.view(0)["events"]
