"""A memo of values made from immutable objects of a position (a board, a deck, a hook table,
the plans a ``plan_options`` hook is given)."""
from __future__ import annotations

from collections import OrderedDict
from typing import Any, Callable

CHECK_EVERY = 8     # values kept between two weighings of every value (a value may grow once kept)


class IdentityMemo:
    """Values made from immutable objects, found again by the object's identity (no hashing of
    the object) and an optional key of the caller's: the memo keeps the object with its value,
    so that its id cannot be reused by another object while the entry is kept.  Forgets the
    least recently used entry beyond ``size`` entries, or while the values weigh more than
    ``most`` in all (``weigh(value)``, e.g. the plan actions a sequence holds; 0: no bound),
    weighed when a heavy value is kept and every ``CHECK_EVERY`` values kept (a kept value may
    grow: a lazy sequence made in full)."""

    __slots__ = ("_entries", "size", "most", "weigh", "_puts")

    def __init__(self, size: int, most: int = 0, weigh: Callable[[Any], int] = len) -> None:
        self._entries: OrderedDict = OrderedDict()
        self.size, self.most, self.weigh = size, most, weigh
        self._puts = 0

    def get(self, obj: Any, key: Any = None) -> Any:
        """The value kept for ``obj`` (and ``key``), or None."""
        k = (id(obj), key)
        hit = self._entries.get(k)
        if hit is None or hit[0] is not obj:
            return None
        self._entries.move_to_end(k)
        return hit[1]

    def put(self, obj: Any, value: Any, key: Any = None) -> Any:
        """Keep ``value`` for ``obj`` (and ``key``); returns ``value``."""
        entries = self._entries
        entries[(id(obj), key)] = (obj, value)
        while len(entries) > self.size:
            entries.popitem(last=False)
        if self.most:
            self._puts += 1
            if self._puts % CHECK_EVERY == 0 or self.weigh(value) > self.most // self.size:
                while len(entries) > 1 and sum(self.weigh(v[1]) for v in entries.values()) > self.most:
                    entries.popitem(last=False)
        return value

    def made(self, obj: Any, key: Any, make: Callable[[], Any]) -> Any:
        """The value kept for ``obj`` and ``key``, made by ``make()`` and kept if there is none."""
        hit = self.get(obj, key)
        return hit if hit is not None else self.put(obj, make(), key)
