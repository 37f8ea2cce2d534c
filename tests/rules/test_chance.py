"""Chance events (rules/chance.py): the engine's shuffle draws exactly as the library's, so a
seed gives the same game whichever is used (issue #16: the compiled build shuffles without an
interpreted call per item)."""
from __future__ import annotations

import random

import pytest

from affresco.rules.chance import shuffle


@pytest.mark.parametrize("length", [0, 1, 2, 3, 13, 14, 24, 100])
def test_shuffle_is_the_same_permutation_as_random_shuffle(length):
    for seed in range(60):
        items = list(range(length))
        expected = items[:]
        library = random.Random(f"affresco:{seed}:{length}")
        library.shuffle(expected)
        ours = random.Random(f"affresco:{seed}:{length}")
        shuffle(ours, items)
        assert items == expected
        assert ours.getstate() == library.getstate()   # the same draws: the generator goes on alike
