"""A repository-wide table of items per ``(namespace, name)`` held per namespace, then per name.

The lookup tables of :class:`indexer.resolve.tables.ModuleTables` (callables, classes, decorated
functions per short name, ...) had a ``dict`` keyed by ``(namespace, name)`` tuples, a list per key.
Almost every key holds one item and there are a handful of namespaces, so :class:`NameTable` keys a
dict per namespace by the name itself (the interned string the definitions already hold: no tuple
of 56 bytes a key) and stores a key's one item as itself, a list only for a key of several (a
one-item list is 88 bytes). Items are never lists (:class:`~indexer.resolve.values.Def`,
:class:`~indexer.resolve.context.FileCtx`, tuples of those), so the two cases cannot be confused.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from typing import Any, Generic, TypeVar

__all__ = ["NameTable"]

T = TypeVar("T")


class NameTable(Generic[T]):
    """Items per ``(namespace, name)`` key in insertion order (or the order :meth:`insert` keeps).
    Read with :meth:`get` (what a ``dict`` of lists gave, without creating the key); changed only
    through :meth:`append`, :meth:`insert`, :meth:`sort` and :meth:`discard`. A key whose last item
    goes is dropped."""

    __slots__ = ("_by_ns",)

    def __init__(self) -> None:
        self._by_ns: dict[str, dict[str, Any]] = {}

    def get(self, key: tuple[str, str], default: Sequence[T] = ()) -> Sequence[T]:
        """The items under ``key`` in order: a one-item tuple, the table's own list of several (not to
        be changed by the caller), or ``default`` when the key holds none."""
        names = self._by_ns.get(key[0])
        v = None if names is None else names.get(key[1])
        if v is None:
            return default
        return v if type(v) is list else (v,)

    def __getitem__(self, key: tuple[str, str]) -> list[T]:
        """The items under ``key`` as a new list (empty when none)."""
        return list(self.get(key))

    def __contains__(self, key: object) -> bool:
        return isinstance(key, tuple) and len(key) == 2 and bool(self.get(key))  # type: ignore[arg-type]

    def __len__(self) -> int:
        return sum(len(names) for names in self._by_ns.values())

    def __iter__(self) -> Iterator[tuple[str, str]]:
        for ns, names in self._by_ns.items():
            for name in names:
                yield (ns, name)

    def append(self, key: tuple[str, str], item: T) -> list[T] | None:
        """Add ``item`` last under ``key``; the key's list when it now holds several (else ``None``)."""
        names = self._by_ns.get(key[0])
        if names is None:
            names = self._by_ns[key[0]] = {}
        name = key[1]
        v = names.get(name)
        if v is None:
            names[name] = item
            return None
        if type(v) is list:
            v.append(item)
            return v
        out = names[name] = [v, item]
        return out

    def insert(self, key: tuple[str, str], item: T, order: Callable[[T], Any]) -> None:
        """Add ``item`` under ``key``, the key's items kept sorted by ``order`` (a stable sort: equal
        ones in insertion order)."""
        several = self.append(key, item)
        if several is not None:
            several.sort(key=order)

    def sort(self, key: tuple[str, str], order: Callable[[T], Any]) -> None:
        """Sort the items under ``key`` by ``order`` (stable)."""
        names = self._by_ns.get(key[0])
        v = None if names is None else names.get(key[1])
        if type(v) is list:
            v.sort(key=order)

    def discard(self, key: tuple[str, str], gone: Callable[[T], bool]) -> None:
        """Drop the items under ``key`` for which ``gone`` is true (order kept); the key goes with
        its last item."""
        names = self._by_ns.get(key[0])
        if names is None:
            return
        name = key[1]
        v = names.get(name)
        if v is None:
            return
        kept = [x for x in v if not gone(x)] if type(v) is list else [] if gone(v) else [v]
        if not kept:
            del names[name]
        else:
            names[name] = kept[0] if len(kept) == 1 else kept
