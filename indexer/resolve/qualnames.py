"""A file's definitions per qualname without a qualname string per definition and without a dict.

In almost every file a definition's qualname is its parent's qualname and its name (``C.m``; a
top-level definition's is its name): then :class:`QualnameIndex` holds the file's definitions sorted
by *name* (names are interned, shared by every file) in one tuple and answers a lookup by qualname
by splitting it at its last dot, bisecting the tuple for the definitions of that name and keeping
those whose ``parent`` is the rest. A dict keyed by qualname held one string per member definition
(about 1.3 KB a file of the generated monorepos, docs/benchmarks.md, session 52), which
:attr:`indexer.resolve.values.Def.qualname` now builds when read; a dict keyed by name was the next
largest part a file's context held once its definitions were parked (823 bytes a file of the
10-package generated monorepo, session 55), the sorted tuple is 8 bytes a definition and its header.
A file breaking the rule (some qualname is not ``parent.name``, or a name holds a dot) keeps a plain
dict per qualname (:class:`indexer.resolve.context.FileCtx`).
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterator, Mapping, Sequence
from operator import attrgetter
from typing import TYPE_CHECKING

from indexer.resolve.multimap import freeze, group

if TYPE_CHECKING:
    from indexer.resolve.values import Def

__all__ = ["FANOUT", "QualnameIndex"]

FANOUT = 16
"""A name defined more often than this in one file (``__init__`` of 10,000 generated classes,
``addEventListener`` of every interface of a DOM typing file) is held per parent too: a lookup scanning
each definition of the name was quadratic in such a file (10,000 classes: 84 of 136 s; brk53)."""

_NAME = attrgetter("name")
"""The bisection key: a :class:`~indexer.resolve.values.Def`'s name (a slot, read in C)."""


class QualnameIndex(Mapping[str, "Def | tuple[Def, ...]"]):
    """Definitions per qualname as a :data:`~indexer.resolve.multimap.MultiMap` (one definition
    given as itself, several of one qualname as a tuple in source order; read with
    :func:`~indexer.resolve.multimap.entries`), held as one tuple of the definitions sorted by name
    (stable: source order within a name) and bisected, in O(log n) string comparisons per lookup.
    Only for definitions whose :attr:`~indexer.resolve.values.Def.derived` is true (qualname =
    ``parent + "." + name``, no dot in the name), so that a qualname names exactly one ``(parent,
    name)`` pair. Iterates the qualnames by name in sorted order, a name's qualnames in the order of
    their first definition. Never changed after it is built. A name of more than :data:`FANOUT`
    definitions is held per parent as well (a dict of those names only; ``None`` in most files)."""

    __slots__ = ("_defs", "_wide")

    def __init__(self, defs: Sequence[Def]) -> None:
        ordered = tuple(sorted(defs, key=_NAME))
        wide: dict[str, dict[str | None, Def | tuple[Def, ...]]] | None = None
        i, n = 0, len(ordered)
        while i < n:  # each run of one name
            name = ordered[i].name
            j = i + 1
            while j < n and ordered[j].name == name:
                j += 1
            if j - i > FANOUT:
                if wide is None:
                    wide = {}
                wide[name] = freeze(group((rd.parent, rd) for rd in ordered[i:j]))
            i = j
        self._defs = ordered
        self._wide = wide

    def _run(self, i: int, parent: str | None, name: str) -> Def | tuple[Def, ...] | None:
        """Of the definitions named ``name`` from position ``i`` of the sorted tuple on (at most
        :data:`FANOUT`: more are in ``_wide``), the one of ``parent``, a tuple of its several in
        source order, or ``None``."""
        defs = self._defs
        n = len(defs)
        found = []
        while i < n and (rd := defs[i]).name == name:
            if rd.parent == parent:
                found.append(rd)
            i += 1
        if not found:
            return None
        return found[0] if len(found) == 1 else tuple(found)

    def members(self, parent: str | None, name: str) -> tuple[Def, ...]:
        """The definitions named ``name`` whose parent qualname is ``parent`` (``None``: top
        level), in source order: those of qualname ``parent.name`` (``()`` when none)."""
        if type(name) is not str:
            return ()
        wide = self._wide
        if wide is not None and name in wide:
            v = wide[name].get(parent)
        else:  # inlined with get(): lookups run hundreds of thousands of times a run
            defs = self._defs
            i = bisect_left(defs, name, key=_NAME)
            n = len(defs)
            if i == n or (rd := defs[i]).name != name:
                return ()
            if i + 1 == n or defs[i + 1].name != name:  # one definition of the name: most
                return (rd,) if rd.parent == parent else ()
            v = self._run(i, parent, name)
        return () if v is None else v if type(v) is tuple else (v,)

    def get(self, qualname: str, default: object = None) -> Def | tuple[Def, ...] | None:  # type: ignore[override]
        """The one definition of ``qualname``, a tuple of its several in source order, or
        ``default`` when it has none."""
        if type(qualname) is not str:
            return default  # type: ignore[return-value]
        parent, dot, name = qualname.rpartition(".")
        p = parent if dot else None
        wide = self._wide
        if wide is not None and name in wide:
            v = wide[name].get(p)
            return default if v is None else v  # type: ignore[return-value]
        defs = self._defs
        i = bisect_left(defs, name, key=_NAME)
        n = len(defs)
        if i == n or (rd := defs[i]).name != name:
            return default  # type: ignore[return-value]
        if i + 1 == n or defs[i + 1].name != name:  # one definition of the name: most
            return rd if rd.parent == p else default  # type: ignore[return-value]
        v = self._run(i, p, name)
        return default if v is None else v  # type: ignore[return-value]

    def __getitem__(self, qualname: str) -> Def | tuple[Def, ...]:
        v = self.get(qualname)
        if v is None:
            raise KeyError(qualname)
        return v

    def __contains__(self, qualname: object) -> bool:
        return isinstance(qualname, str) and self.get(qualname) is not None

    def __len__(self) -> int:
        """How many distinct qualnames (counted when asked: O(n))."""
        return len({(rd.parent, rd.name) for rd in self._defs})

    def __iter__(self) -> Iterator[str]:
        seen: set[str] = set()
        for rd in self._defs:
            q = rd.qualname
            if q not in seen:
                seen.add(q)
                yield q
