"""A small bounded cache of values read from one state of a store (the embedded store's decompressed
file texts and FTS term frequencies), emptied when the state changes.

The owner passes a *stamp* that changes with every write it could see (the embedded store: its own
write generation and SQLite's ``PRAGMA data_version``, which moves when another connection commits)
to :meth:`StampedCache.view`; a different stamp empties the cache first, so a value is never served
from an older state. Least recently used entries go first once ``max_items`` or ``max_size`` (the sum
of the sizes given to :meth:`StampedCache.put`) would be exceeded.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Hashable
from typing import Generic, TypeVar

__all__ = ["StampedCache"]

_V = TypeVar("_V")


class StampedCache(Generic[_V]):
    """At most ``max_items`` values, of total size at most ``max_size`` (units of the caller's
    choosing: bytes for texts), valid for one stamp. Raises :class:`ValueError` for a bound below 1.
    Not thread-safe: the embedded store calls it under its lock."""

    def __init__(self, max_items: int, max_size: int) -> None:
        if max_items < 1 or max_size < 1:
            raise ValueError(f"cache bounds must be at least 1, not {max_items!r} items / {max_size!r}")
        self.max_items = max_items
        self.max_size = max_size
        self._stamp: Hashable = None
        self._values: OrderedDict[Hashable, tuple[_V, int]] = OrderedDict()
        self._size = 0

    def view(self, stamp: Hashable) -> StampedCache[_V]:
        """This cache for the store state ``stamp``: emptied first when ``stamp`` differs from the last."""
        if stamp != self._stamp:
            self.clear()
            self._stamp = stamp
        return self

    def get(self, key: Hashable) -> _V | None:
        """The value cached for ``key`` (now the most recently used), or ``None``."""
        entry = self._values.get(key)
        if entry is None:
            return None
        self._values.move_to_end(key)
        return entry[0]

    def put(self, key: Hashable, value: _V, size: int = 1) -> None:
        """Cache ``value`` of ``size`` for ``key``, evicting the least recently used entries to stay
        within the bounds; a value larger than ``max_size`` is not cached."""
        old = self._values.pop(key, None)
        if old is not None:
            self._size -= old[1]
        if size > self.max_size:
            return
        while self._values and (len(self._values) >= self.max_items or self._size + size > self.max_size):
            _, (_, dropped) = self._values.popitem(last=False)
            self._size -= dropped
        self._values[key] = (value, size)
        self._size += size

    def clear(self) -> None:
        """Forget every value."""
        self._values.clear()
        self._size = 0

    def __len__(self) -> int:
        return len(self._values)
