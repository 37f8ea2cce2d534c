"""Chance events: the seeded generator of each, and shuffling with it.

Every chance event (a shuffle, a draw) takes the next generator of the game's seed
(:func:`chance`), so a game is the same for a seed on any machine.
"""
from __future__ import annotations

import random
from typing import Any

from .state import State


_SEED_BOUND = 10**4000


def seed_refusal(seed: object) -> str | None:
    """Why ``seed`` cannot seed a game's chance events, or None: it must be an integer that
    Python writes as text (at most 4000 digits: :func:`chance` and the saved state write it) or
    a string that UTF-8 can write (:func:`chance` hashes its bytes; a lone surrogate has none)."""
    if isinstance(seed, bool) or not isinstance(seed, (int, str)):
        return f"seed must be an integer or a string, not {seed!r}"
    if isinstance(seed, int) and not -_SEED_BOUND < seed < _SEED_BOUND:
        return (f"an integer seed has at most 4000 digits, not about {int(abs(seed).bit_length() * 0.30103)} "
                "(Python writes no longer integer as text by default)")
    if isinstance(seed, str):
        try:
            seed.encode()
        except UnicodeEncodeError:
            return f"seed {seed!r} is not text UTF-8 can write (a lone surrogate)"
    return None


def chance(s: State) -> random.Random:
    """The game's seeded random generator for the next chance event (deterministic for a seed,
    on any machine: string seeds are hashed with SHA-512 by :mod:`random`)."""
    rng = random.Random(f"affresco:{s.seed}:{s.draws}")
    s.draws += 1
    return rng


def below(rng: random.Random, n: int) -> int:
    """``rng.randrange(n)`` for ``n`` > 0 (and ``rng.choice(seq)`` is ``seq[below(rng, len(seq))]``):
    the same number, drawn the same way as the library (``getrandbits`` of ``n``'s bit length,
    drawn again while not below ``n``; tests/rules/test_chance.py checks it), without the
    library's two interpreted calls and argument checks per draw (the modules' round
    preparations draw several a round)."""
    if n <= 0:
        raise ValueError(f"no number below {n} to draw")
    k = n.bit_length()
    getrandbits = rng.getrandbits
    r = getrandbits(k)
    while r >= n:
        r = getrandbits(k)
    return r


def shuffle(rng: random.Random, items: list[Any]) -> None:
    """``rng.shuffle(items)``: the same permutation for the same generator, drawn the same way
    as :meth:`random.Random.shuffle` (each position from the end swapped with one below it,
    chosen by ``getrandbits`` with rejection, tests/rules/test_chance.py checks it against the
    library's), without an interpreted call per item in the compiled build."""
    getrandbits = rng.getrandbits
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        k = n.bit_length()
        j = getrandbits(k)
        while j >= n:
            j = getrandbits(k)
        items[i], items[j] = items[j], items[i]
