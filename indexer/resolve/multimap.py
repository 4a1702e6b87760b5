"""Compact multimaps: the resolver's per-file lookup tables held for the whole run.

A table maps a key to the items stored under it, in insertion order. Almost every key holds one
item, so a key holding one item stores the item itself and only a key holding several stores a
tuple of them: no list per key (a one-item list costs 88 bytes, the item itself nothing). Items are
never tuples (:class:`~indexer.resolve.values.Def`, :class:`~indexer.model.Import`), so the two
cases cannot be confused. Tables are built once (:func:`freeze`) and read through :func:`entries`
and :func:`every` only; they are never changed in place.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from types import MappingProxyType
from typing import TypeVar

__all__ = ["MultiMap", "EMPTY_TABLE", "entries", "every", "freeze", "group"]

T = TypeVar("T")
K = TypeVar("K")

MultiMap = Mapping[K, T | tuple[T, ...]]
"""Key -> the one item stored under it, or a tuple of the several (in insertion order)."""

EMPTY_TABLE: Mapping[str, object] = MappingProxyType({})
"""A table without keys, shared (read-only): the members of the many definitions without any."""


def entries(table: Mapping[K, T | tuple[T, ...]], key: K) -> tuple[T, ...]:
    """The items stored under ``key`` in insertion order (``()`` when none)."""
    v = table.get(key)
    if v is None:
        return ()
    return v if type(v) is tuple else (v,)  # type: ignore[return-value]


def every(table: Mapping[K, T | tuple[T, ...]]) -> Iterator[T]:
    """Every item of the table: key by key in insertion order, each key's items in order."""
    for v in table.values():
        if type(v) is tuple:
            yield from v  # type: ignore[misc]
        else:
            yield v  # type: ignore[misc]


def group(pairs: Iterable[tuple[K, T]]) -> dict[K, list[T]]:
    """``(key, item)`` pairs gathered per key in order (a table under construction)."""
    out: dict[K, list[T]] = {}
    for k, item in pairs:
        items = out.get(k)
        if items is None:
            out[k] = [item]
        else:
            items.append(item)
    return out


def freeze(lists: Mapping[K, list[T]]) -> dict[K, T | tuple[T, ...]]:
    """The compact table of ``lists`` (key -> items in order, none empty): one item stored as
    itself, several as a tuple."""
    out: dict[K, T | tuple[T, ...]] = {}
    for k, items in lists.items():
        out[k] = items[0] if len(items) == 1 else tuple(items)
    return out
