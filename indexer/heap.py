"""The process's heap during a whole-tree run: fewer cyclic collections while it runs
(:func:`fewer_collections`), and the memory it freed handed back to the system after
(:func:`release_memory`). Used by :mod:`indexer.incremental` (which re-exports both). And
:class:`declared_lazily`, a value computed when first read that keeps its object's attribute dict
small."""

from __future__ import annotations

import contextlib
import ctypes
import gc
from collections.abc import Callable, Iterator
from typing import Any, Generic, TypeVar, overload

__all__ = ["BIND_GC_THRESHOLD0", "GC_THRESHOLD0", "declared_lazily", "fewer_collections", "release_memory"]

_V = TypeVar("_V")


def release_memory() -> None:
    """Hand the memory a whole-tree run freed back to the system (glibc keeps freed arenas): a
    long-lived watcher would otherwise keep its peak for good."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


GC_THRESHOLD0 = 10_000
"""Allocations between two young-generation collections of the cyclic GC while a whole-tree run is
under way (:func:`fewer_collections`; Python's default is 700)."""

BIND_GC_THRESHOLD0 = 100_000
"""The cyclic GC's first threshold while a whole-tree run builds its lookup tables, binds and links
its files (:meth:`indexer.resolve.repository.RepositoryResolver.resolve` with a spill file; the
forked binding copy inherits it). That work makes many lasting containers and almost no cyclic
garbage: at :data:`GC_THRESHOLD0` the forked child of a cold Django index (binding copy off) ran
245 collections there, 4.7 s of CPU, that found 7,470 objects (11 of them while binding), each young
collection walking what binding had just made and each older one all of it again; at 100,000, 9
collections, 1.1 s, the same objects found, the child's peak 1 MiB higher (at 300,000 or 1,000,000:
0.6-0.75 s but 5.6-5.8 MiB higher: the link's garbage is found later). docs/benchmarks.md, session 60, cpu60."""


@contextlib.contextmanager
def fewer_collections(threshold0: int = GC_THRESHOLD0) -> Iterator[None]:
    """Run the block with the cyclic GC's first threshold raised to ``threshold0`` (never lowered),
    the previous thresholds back after it; extraction workers forked inside inherit it. A run keeps
    millions of containers alive for its whole length (extractions, contexts, the memo, rows); at
    the default each full collection walks all of them again, and it ran 26 times in the main
    process of a cold Django index (4.8-5.6 s of its CPU, 0.7 s more in the workers) for garbage a
    few explicit collections (:func:`release_memory`) free anyway. At 10,000: five, and the same
    peak RSS (docs/benchmarks.md, "Cold CPU: the cyclic GC's threshold")."""
    old = gc.get_threshold()
    gc.set_threshold(max(old[0], threshold0), *old[1:])
    try:
        yield
    finally:
        gc.set_threshold(*old)


class declared_lazily(Generic[_V]):  # noqa: N801 (used as a decorator, as functools.cached_property)
    """A property computed when first read and kept, like :func:`functools.cached_property`, but
    kept in an attribute the class declares: ``_<name>``, which the class sets to ``None`` (in
    ``__init__`` with its other attributes; a class attribute too unless it is a slot). ``functools.cached_property``
    adds its name to the instance's attribute dict when first read; a name that was not among the
    class's attributes turns CPython's compact, key-sharing dict (values only: 8 bytes an
    attribute) into a dict of its own (CPython 3.11: a file context's went from 248 to 1,584 bytes,
    1.3 KiB for each of the 41,940 files of the 400 MB generated monorepo as they were bound;
    docs/benchmarks.md, session 61). Assigning sets the value (``None``: computed again when next
    read). The computed value must not be ``None``."""

    def __init__(self, compute: Callable[[Any], _V]) -> None:
        self.compute = compute
        self.__doc__ = compute.__doc__
        self.attr = "_" + compute.__name__

    def __set_name__(self, owner: type, name: str) -> None:
        self.attr = "_" + name

    @overload
    def __get__(self, obj: None, owner: type | None = None) -> declared_lazily[_V]: ...

    @overload
    def __get__(self, obj: object, owner: type | None = None) -> _V: ...

    def __get__(self, obj: object | None, owner: type | None = None) -> _V | declared_lazily[_V]:
        if obj is None:
            return self
        value = getattr(obj, self.attr)
        if value is None:
            value = self.compute(obj)
            setattr(obj, self.attr, value)
        return value

    def __set__(self, obj: object, value: _V | None) -> None:
        setattr(obj, self.attr, value)
