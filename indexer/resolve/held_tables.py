"""The process-wide bound on tables built on demand and held by their owners (least recently used dropped first).

Two kinds of per-file table are built from a parked list on first use and dropped again once enough
other files' tables were built since: a file's function-local bindings
(:class:`indexer.resolve.bindings.ScopedBindings`, by default :data:`~indexer.resolve.bindings.OPEN_FILES`
held) and a file's named imports (:class:`indexer.resolve.parked_imports.ParkedImports`,
:data:`~indexer.resolve.parked_imports.OPEN_IMPORTS`). Each owner keeps its table in an attribute of its
own (read without a lock on the hot path); a :class:`HeldTables` records which owners hold one, in the
order they were built or last used, and drops the oldest tables beyond the bound.

Why not a library: :func:`functools.lru_cache` and ``cachetools.LRUCache`` hold their keys or values
strongly (a run's parked imports must not be kept alive by the process-wide record: they hold the run's
spill file), key by hash (these owners hash by identity or not at all) and cannot drop one owner's entry
on its own (``release``); what they would save is an ``OrderedDict`` and a lock.
"""

from __future__ import annotations

import threading
import weakref
from collections import OrderedDict, deque
from collections.abc import Callable
from typing import Generic, TypeVar

__all__ = ["HeldTables"]

Owner = TypeVar("Owner")
T = TypeVar("T")


class HeldTables(Generic[Owner, T]):
    """Which owners hold a built table, least recently built (or, with :meth:`used`, used) first.

    ``store(owner, table)`` sets the owner's table attribute (``None``: drop it); it is called under
    this record's lock, so that an owner's table and its entry change together. ``weak``: the record
    refers to its owners weakly (an owner that goes is forgotten, and never kept alive by the record);
    otherwise strongly. Thread-safe; ``store`` must not call back into the record.
    """

    __slots__ = ("_store", "_weak", "_entries", "_lock", "_gone")

    def __init__(self, store: Callable[[Owner, T | None], None], *, weak: bool) -> None:
        self._store = store
        self._weak = weak
        self._entries: OrderedDict[int, object] = OrderedDict()
        """``id(owner)`` -> the owner (``weak``: a weak reference to it), oldest first."""
        self._lock = threading.Lock()
        self._gone: deque[tuple[int, object]] = deque()
        """Weak references whose owner went: ``(key, reference)``, purged under the lock on the next call
        (a weak reference's callback may run inside a locked call of the same thread, when the collector
        runs there, so it only appends here)."""

    def _owner(self, entry: object) -> Owner | None:
        return entry() if self._weak else entry  # type: ignore[operator, return-value]

    def _purge(self) -> None:
        """Forget the entries whose owner went (lock held)."""
        while self._gone:
            key, ref = self._gone.popleft()
            if self._entries.get(key) is ref:  # the id may be another owner's by now
                del self._entries[key]

    def hold(self, owner: Owner, table: T, bound: int) -> None:
        """Give ``owner`` its built ``table`` (through ``store``) and make it the most recent; then drop
        the tables of the oldest owners (``store(old, None)``) until at most ``bound`` are held (``bound``
        0: ``owner``'s own too, at once)."""
        with self._lock:
            self._purge()
            self._store(owner, table)
            key = id(owner)
            if self._weak:
                self._entries[key] = weakref.ref(owner, lambda ref, key=key: self._gone.append((key, ref)))
            else:
                self._entries[key] = owner
            self._entries.move_to_end(key)
            while len(self._entries) > bound:
                _, entry = self._entries.popitem(last=False)
                old = self._owner(entry)
                if old is not None:
                    self._store(old, None)

    def used(self, owner: Owner) -> None:
        """Make ``owner`` the most recent if it holds a table (a least-recently-used order rather than a
        least-recently-built one)."""
        with self._lock:
            key = id(owner)
            entry = self._entries.get(key)
            if entry is not None and self._owner(entry) is owner:
                self._entries.move_to_end(key)

    def release(self, owner: Owner) -> None:
        """Drop ``owner``'s table (``store(owner, None)``) and forget it."""
        with self._lock:
            entry = self._entries.get(id(owner))
            if entry is not None and self._owner(entry) is owner:
                del self._entries[id(owner)]
            self._store(owner, None)

    def owners(self) -> tuple[Owner, ...]:
        """The owners holding a table now, least recent first."""
        with self._lock:
            self._purge()
            found = [self._owner(entry) for entry in list(self._entries.values())]
        return tuple(x for x in found if x is not None)

    def __len__(self) -> int:
        """How many owners are recorded (a weak one that went and is not purged yet counts until the next
        call that purges)."""
        with self._lock:
            self._purge()
            return len(self._entries)
