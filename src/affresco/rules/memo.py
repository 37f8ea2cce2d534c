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
    weighed when a heavy value is kept, when the values kept since the last weighing may have
    passed the bound, and every ``CHECK_EVERY`` values kept (a kept value may grow: a lazy
    sequence made in full).  ``grown`` (optional): a count that moves whenever a kept value may
    have grown (e.g. the plan sequences made in full so far): the periodic weighing is skipped
    while it has not moved (weighing every value touches every kept object)."""

    __slots__ = ("_entries", "size", "most", "weigh", "_puts", "grown", "_grown_at", "_load")

    def __init__(self, size: int, most: int = 0, weigh: Callable[[Any], int] = len,
                 grown: Callable[[], int] | None = None) -> None:
        self._entries: OrderedDict = OrderedDict()
        self.size, self.most, self.weigh, self.grown = size, most, weigh, grown
        self._puts = 0
        self._grown_at = -1     # grown() at the last weighing
        self._load = 0          # the weight at the last weighing plus the values' kept since: at least the weight

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
            weight = self.weigh(value)
            self._load += weight
            grown = self.grown
            if (weight > self.most // self.size or self._load > self.most
                    or self._puts % CHECK_EVERY == 0 and (grown is None or grown() != self._grown_at)):
                total = sum(self.weigh(v[1]) for v in entries.values())
                while len(entries) > 1 and total > self.most:
                    total -= self.weigh(entries.popitem(last=False)[1][1])
                self._load = total
                if grown is not None:
                    self._grown_at = grown()
        return value

    def made(self, obj: Any, key: Any, make: Callable[[], Any]) -> Any:
        """The value kept for ``obj`` and ``key``, made by ``make()`` and kept if there is none."""
        hit = self.get(obj, key)
        return hit if hit is not None else self.put(obj, make(), key)
