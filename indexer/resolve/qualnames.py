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

from indexer.resolve.multimap import every, freeze, group

if TYPE_CHECKING:
    from indexer.resolve.values import Def

__all__ = ["FANOUT", "QualnameIndex"]

FANOUT = 16
"""A name defined more often than this in one file (``__init__`` of 10,000 generated classes,
``addEventListener`` of every interface of a DOM typing file) is held per parent too: a lookup scanning
each definition of the name was quadratic in such a file (10,000 classes: 84 of 136 s; brk53)."""


class QualnameIndex(Mapping[str, "Def | tuple[Def, ...]"]):
    """Definitions per qualname as a :data:`~indexer.resolve.multimap.MultiMap` (one definition
    stored as itself, several of one qualname as a tuple in source order; read with
    :func:`~indexer.resolve.multimap.entries`), held per name. Only for definitions whose
    :attr:`~indexer.resolve.values.Def.derived` is true (qualname = ``parent + "." + name``, no dot
    in the name), so that a qualname names exactly one ``(parent, name)`` pair. Iterates the
    qualnames grouped by name (names in the order of their first definition). Never changed after
    it is built. A name of more than :data:`FANOUT` definitions is held per parent as well."""

    __slots__ = ("_by_name", "_size")

    def __init__(self, defs: Sequence[Def]) -> None:
        by_name: dict[str, Def | tuple[Def, ...] | dict[str | None, Def | tuple[Def, ...]]] = {}
        for name, v in freeze(group((rd.name, rd) for rd in defs)).items():
            by_name[name] = freeze(group((rd.parent, rd) for rd in v)) \
                if type(v) is tuple and len(v) > FANOUT else v  # type: ignore[arg-type]
        self._by_name = by_name
        self._size = len({(rd.parent, rd.name) for rd in defs})

    def members(self, parent: str | None, name: str) -> tuple[Def, ...]:
        """The definitions named ``name`` whose parent qualname is ``parent`` (``None``: top
        level), in source order: those of qualname ``parent.name`` (``()`` when none)."""
        v = self._by_name.get(name)
        if v is None:
            return ()
        if type(v) is dict:  # a name of more than FANOUT definitions: held per parent
            found = v.get(parent)
            return () if found is None else found if type(found) is tuple else (found,)  # type: ignore[return-value]
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
        if type(v) is not tuple and type(v) is not dict:
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
            for rd in every(v) if type(v) is dict else v if type(v) is tuple else (v,):  # type: ignore[union-attr,arg-type]
                q = rd.qualname  # type: ignore[union-attr]
                if q not in seen:
                    seen.add(q)
                    yield q
