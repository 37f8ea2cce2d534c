"""A memo of values made from immutable objects of a position (a board, a deck, a hook table)."""
from __future__ import annotations

from typing import Any


class IdentityMemo:
    """Values made from immutable objects, found again by the object's identity (no hashing of
    the object): the memo keeps the object with its value, so that its id cannot be reused by
    another object while the entry is kept; beyond ``size`` entries it starts again."""

    __slots__ = ("_entries", "size")

    def __init__(self, size: int) -> None:
        self._entries: dict[int, tuple[Any, Any]] = {}
        self.size = size

    def get(self, obj: Any) -> Any:
        """The value kept for ``obj``, or None."""
        hit = self._entries.get(id(obj))
        return hit[1] if hit is not None and hit[0] is obj else None

    def put(self, obj: Any, value: Any) -> Any:
        """Keep ``value`` for ``obj``; returns ``value``."""
        if len(self._entries) >= self.size:
            self._entries.clear()
        self._entries[id(obj)] = (obj, value)
        return value
