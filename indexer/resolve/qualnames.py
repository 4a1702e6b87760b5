"""A file's definitions per qualname without a qualname string per definition.

In almost every file a definition's qualname is its parent's qualname and its name (``C.m``; a
top-level definition's is its name): then :class:`QualnameIndex` holds the file's definitions per
*name* (names are interned, shared by every file) and answers a lookup by qualname by splitting it at
its last dot and keeping the definitions of that name whose ``parent`` is the rest. A dict keyed by
qualname held one string per member definition (about 1.3 KB a file of the generated monorepos,
docs/benchmarks.md, session 52), which :attr:`indexer.resolve.values.Def.qualname` now builds when
read. A file breaking the rule (some qualname is not ``parent.name``, or a name holds a dot) keeps
a plain dict per qualname (:class:`indexer.resolve.context.FileCtx`).
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import TYPE_CHECKING

from indexer.resolve.multimap import freeze, group

if TYPE_CHECKING:
    from indexer.resolve.values import Def

__all__ = ["QualnameIndex"]


class QualnameIndex(Mapping[str, "Def | tuple[Def, ...]"]):
    """Definitions per qualname as a :data:`~indexer.resolve.multimap.MultiMap` (one definition
    stored as itself, several of one qualname as a tuple in source order; read with
    :func:`~indexer.resolve.multimap.entries`), held per name. Only for definitions whose
    :attr:`~indexer.resolve.values.Def.derived` is true (qualname = ``parent + "." + name``, no dot
    in the name), so that a qualname names exactly one ``(parent, name)`` pair. Iterates the
    qualnames grouped by name (names in the order of their first definition). Never changed after
    it is built."""

    __slots__ = ("_by_name", "_size")

    def __init__(self, defs: Sequence[Def]) -> None:
        self._by_name = freeze(group((rd.name, rd) for rd in defs))
        self._size = len({(rd.parent, rd.name) for rd in defs})

    def members(self, parent: str | None, name: str) -> tuple[Def, ...]:
        """The definitions named ``name`` whose parent qualname is ``parent`` (``None``: top
        level), in source order: those of qualname ``parent.name`` (``()`` when none)."""
        v = self._by_name.get(name)
        if v is None:
            return ()
        if type(v) is not tuple:
            return (v,) if v.parent == parent else ()  # type: ignore[union-attr]
        return tuple(rd for rd in v if rd.parent == parent)  # type: ignore[union-attr]

    def get(self, qualname: str, default: object = None) -> Def | tuple[Def, ...] | None:  # type: ignore[override]
        """The one definition of ``qualname``, a tuple of its several in source order, or
        ``default`` when it has none."""
        parent, dot, name = qualname.rpartition(".")
        v = self._by_name.get(name)
        if v is None:
            return default  # type: ignore[return-value]
        if type(v) is not tuple:
            return v if v.parent == (parent if dot else None) else default  # type: ignore[union-attr,return-value]
        kept = self.members(parent if dot else None, name)
        if not kept:
            return default  # type: ignore[return-value]
        return kept[0] if len(kept) == 1 else kept

    def __getitem__(self, qualname: str) -> Def | tuple[Def, ...]:
        v = self.get(qualname)
        if v is None:
            raise KeyError(qualname)
        return v

    def __contains__(self, qualname: object) -> bool:
        return isinstance(qualname, str) and self.get(qualname) is not None

    def __len__(self) -> int:
        return self._size

    def __iter__(self) -> Iterator[str]:
        seen: set[str] = set()
        for v in self._by_name.values():
            for rd in v if type(v) is tuple else (v,):  # type: ignore[union-attr]
                q = rd.qualname  # type: ignore[union-attr]
                if q not in seen:
                    seen.add(q)
                    yield q
