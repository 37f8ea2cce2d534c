"""``Game.view(seat, lean=True)`` (docs/api.md): the full view without what never changes in a
game and without what the history gives (``view.FIXED_KEYS``); everything else identical, so
it shows a seat no more than its full view does (R22)."""
import random

import affresco
from affresco.rules.view import FIXED_KEYS


def test_the_lean_view_is_the_full_view_without_the_fixed_keys():
    mods = ("portraits", "scrolls", "bells", "medico")   # modules with secrets in their view parts
    g = affresco.new_game(3, mods, seed=4)
    rng = random.Random(4)
    checked = 0
    while not g.is_over:
        if checked % 9 == 0:
            for seat in (None, *range(3)):
                full, lean = g.view(seat, log=False), g.view(seat, log=False, lean=True)
                assert set(FIXED_KEYS) <= set(full) and not set(FIXED_KEYS) & set(lean)
                assert lean == {k: v for k, v in full.items() if k not in FIXED_KEYS}
                assert list(lean) == [k for k in full if k not in FIXED_KEYS]   # same order
        seat = rng.choice(g.to_act)
        g.apply(seat, rng.choice(g.legal_actions(seat)))
        checked += 1
    assert g.view(0, lean=True)["events"] == g.view(0)["events"]   # log=True still gives the events
