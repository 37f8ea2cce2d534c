"""Chance events (rules/chance.py): the engine's shuffle draws exactly as the library's, so a
seed gives the same game whichever is used (issue #16: the compiled build shuffles without an
interpreted call per item)."""
from __future__ import annotations

import random

import pytest

from affresco.rules.chance import below, shuffle


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


@pytest.mark.parametrize("n", [1, 2, 3, 4, 5, 7, 8, 17, 18, 31, 32, 33, 1000])
def test_below_draws_as_randrange_and_choice(n):
    """The modules' draws (a bell certificate, a bottle, a favour token, a portrait card) give the
    same number and leave the generator as the library's randrange(n) and choice do."""
    for seed in range(40):
        library, ours = random.Random(f"affresco:{seed}:{n}"), random.Random(f"affresco:{seed}:{n}")
        assert [below(ours, n) for _ in range(5)] == [library.randrange(n) for _ in range(5)]
        assert ours.getstate() == library.getstate()
        items = list(range(100, 100 + n))
        assert items[below(ours, n)] == library.choice(items)
        assert ours.getstate() == library.getstate()


def test_below_refuses_an_empty_range():
    with pytest.raises(ValueError):
        below(random.Random(1), 0)
