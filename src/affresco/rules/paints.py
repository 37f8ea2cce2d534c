"""Paint codes (components.md): R Y B basic, O G P blended, K N special colours."""
from __future__ import annotations

from functools import lru_cache
from operator import ge, sub, add
from typing import Final

PAINTS: Final = "RYBOGPKN"
BASIC: Final = "RYB"
BLENDED: Final = "OGP"
SPECIAL: Final = "KN"
INDEX: Final[dict[str, int]] = {c: i for i, c in enumerate(PAINTS)}
NONE: Final[tuple[int, ...]] = (0,) * len(PAINTS)
assert len(PAINTS) == 8   # covers8() unrolls its loop for 8 paints


def paint_vector(text: str) -> tuple[int, ...]:
    """Counts per paint, in PAINTS order, of a text like 'RRY'."""
    v = [0] * len(PAINTS)
    for c in text:
        v[INDEX[c]] += 1
    return tuple(v)


def paint_text(vector) -> str:
    """The inverse of :func:`paint_vector`, in PAINTS order."""
    return _paint_text(vector if type(vector) is tuple else tuple(vector))


@lru_cache(maxsize=8192)
def _paint_text(vector: tuple[int, ...]) -> str:
    return "".join(c * n for c, n in zip(PAINTS, vector))


def canonical(text: str) -> str:
    """Paint letters in PAINTS order ('YR' -> 'RY'): how notation names tiles and paints."""
    return "".join(sorted(text, key=INDEX.__getitem__))


def covers(have, need) -> bool:
    """Whether ``have`` holds at least ``need`` of every paint (two paint vectors)."""
    if type(have) is tuple and type(need) is tuple and len(have) == 8 == len(need):
        return covers8(have, need)
    return all(map(ge, have, need))


def covers8(have: tuple[int, ...], need: tuple[int, ...]) -> bool:
    """:func:`covers` of two paint vectors known to be tuples of the 8 paints (the engine's):
    unrolled and typed, so the compiled build compares machine integers."""
    return (have[0] >= need[0] and have[1] >= need[1] and have[2] >= need[2] and have[3] >= need[3]
            and have[4] >= need[4] and have[5] >= need[5] and have[6] >= need[6] and have[7] >= need[7])


def minus(a, b) -> tuple[int, ...]:
    return tuple(map(sub, a, b))


def plus(a, b) -> tuple[int, ...]:
    return tuple(map(add, a, b))


def add_one(vector, paint: str) -> tuple[int, ...]:
    """``vector`` with one more piece of ``paint`` (a letter)."""
    v = list(vector)
    v[INDEX[paint]] += 1
    return tuple(v)
