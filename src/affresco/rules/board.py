"""The 5x5 fresco grid: segment names (A1 top left .. E5 bottom right, C3 the centre)."""
from __future__ import annotations

from typing import Final

SIZE: Final = 5
CELLS: Final = SIZE * SIZE
CENTRE: Final = CELLS // 2
COLUMNS: Final = "ABCDE"


def name(i: int) -> str:
    return f"{COLUMNS[i % SIZE]}{i // SIZE + 1}"


NAMES: Final[tuple[str, ...]] = tuple(name(i) for i in range(CELLS))
INDEX: Final[dict[str, int]] = {n: i for i, n in enumerate(NAMES)}


def _around(i: int, diagonal: bool) -> tuple[int, ...]:
    r, c = divmod(i, SIZE)
    out = []
    for dr in (-1, 0, 1):
        for dc in (-1, 0, 1):
            if (dr, dc) == (0, 0) or (not diagonal and dr and dc):
                continue
            if 0 <= r + dr < SIZE and 0 <= c + dc < SIZE:
                out.append((r + dr) * SIZE + c + dc)
    return tuple(out)


NEIGHBOURS8: Final[tuple[tuple[int, ...], ...]] = tuple(_around(i, True) for i in range(CELLS))   # bishop steps, bishop bonus
NEIGHBOURS4: Final[tuple[tuple[int, ...], ...]] = tuple(_around(i, False) for i in range(CELLS))  # Leonardo's master painter (R13)


def row_of(i: int) -> int:
    return i // SIZE


def col_of(i: int) -> int:
    return i % SIZE
