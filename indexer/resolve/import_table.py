"""A file's imports as the resolver holds them for a whole run: two tuples, not an object per import.

:class:`~indexer.resolve.context.FileCtx` used to hold each import three ways: the extraction's list
of :class:`~indexer.model.Import` objects (72 bytes each in pymalloc), a dict of them per local name
(about 40 bytes a key) and a list of the star imports (56 bytes, empty in almost every file). Other
files read a file's imports too (re-exports: ``from pkg import X`` where ``pkg/__init__`` imports
``X``; JS barrels), so they live as long as the run. :class:`ImportTable` packs the named imports
into two tuples: their local names sorted (stable: one name's imports keep their source order), and
their other fields (module, name, level, line) four slots each in the same order, 40 bytes an
import in all; a lookup by local name bisects the names and makes the :class:`Import` objects it
returns (equal to the extraction's: same fields). Star imports (``local == "*"``) are read on every
lookup of an unbound name, so their objects are kept as they are, in a tuple (the shared empty
tuple in files without one). :class:`ImportList` gives the extraction's ``imports`` field back as a
sequence over the same table, so the imports are held once.

Read a table through :func:`~indexer.resolve.multimap.entries` and
:func:`~indexer.resolve.multimap.every` as before: it is a read-only mapping of each local name (no
``*``) to its import, or a tuple of its imports in source order.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Iterator, Mapping, Sequence
from typing import Any, overload

from indexer.model import Import

__all__ = ["EMPTY_IMPORTS", "ImportList", "ImportTable", "import_table"]


class ImportTable(Mapping[str, "Import | tuple[Import, ...]"]):
    """A file's imports packed (see the module docstring): a mapping of each local name bound by a
    named import to its :class:`Import` (several: a tuple of them in source order), made anew on
    each read, and :attr:`stars`, the star imports' own objects in source order. Immutable."""

    __slots__ = ("locals_", "fields", "stars")

    def __init__(self, imports: Iterable[Import]) -> None:
        stars: list[Import] = []
        named: list[Import] = []
        for imp in imports:
            (stars if imp.local == "*" else named).append(imp)
        named.sort(key=_local)  # stable: one local name's imports stay in source order
        self.locals_: tuple[str, ...] = tuple(imp.local for imp in named)
        """The named imports' local names, sorted."""
        self.fields: tuple[Any, ...] = tuple(v for imp in named for v in (imp.module, imp.name, imp.level, imp.line))
        """``module, name, level, line`` of each named import, in the order of :attr:`locals_`."""
        self.stars: tuple[Import, ...] = tuple(stars)
        """The star imports (``local == "*"``) in source order."""

    def _at(self, i: int) -> Import:
        f = self.fields
        k = 4 * i
        return Import(self.locals_[i], f[k], f[k + 1], f[k + 2], f[k + 3])

    def get(self, key: object, default: Any = None) -> Any:
        """The import bound to local name ``key`` (a tuple of them when several, in source order),
        or ``default``."""
        names = self.locals_
        i = bisect_left(names, key) if type(key) is str else len(names)
        if i == len(names) or names[i] != key:
            return default
        j = i + 1
        while j < len(names) and names[j] == key:
            j += 1
        return self._at(i) if j == i + 1 else tuple(self._at(k) for k in range(i, j))

    def __getitem__(self, key: str) -> Import | tuple[Import, ...]:
        v = self.get(key)
        if v is None:
            raise KeyError(key)
        return v  # type: ignore[no-any-return]

    def __contains__(self, key: object) -> bool:
        names = self.locals_
        if type(key) is not str:
            return False
        i = bisect_left(names, key)
        return i < len(names) and names[i] == key

    def __iter__(self) -> Iterator[str]:
        last = None
        for name in self.locals_:
            if name != last:
                yield name
                last = name

    def __len__(self) -> int:
        names = self.locals_
        return sum(1 for i, name in enumerate(names) if i == 0 or names[i - 1] != name)

    def every(self) -> Iterator[Import]:
        """Every import: the star imports, then the named ones by local name (each name's in source
        order)."""
        yield from self.stars
        for i in range(len(self.locals_)):
            yield self._at(i)

    def count(self) -> int:
        """How many imports the table holds, star imports included."""
        return len(self.stars) + len(self.locals_)


class ImportList(Sequence[Import]):
    """The imports of an :class:`ImportTable` as the extraction's ``imports`` field: a read-only
    sequence of :class:`Import` in :meth:`ImportTable.every`'s order (star imports first, then by
    local name; the order among one local name's imports is the source's). Equal to any sequence of
    the same imports in that order; pickles and copies as a plain list."""

    __slots__ = ("table",)

    def __init__(self, table: ImportTable) -> None:
        self.table = table

    def __iter__(self) -> Iterator[Import]:
        return self.table.every()

    def __len__(self) -> int:
        return self.table.count()

    def __bool__(self) -> bool:
        return bool(self.table.stars) or bool(self.table.locals_)

    @overload
    def __getitem__(self, index: int) -> Import: ...

    @overload
    def __getitem__(self, index: slice) -> list[Import]: ...

    def __getitem__(self, index: int | slice) -> Import | list[Import]:
        return list(self.table.every())[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return list(self) == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return repr(list(self))

    def __reduce__(self) -> tuple[type, tuple[list[Import]]]:
        return (list, (list(self),))


def import_table(imports: Sequence[Import]) -> ImportTable:
    """The :class:`ImportTable` of ``imports`` (an extraction's ``imports`` field): the one it
    holds already when it is an :class:`ImportList`, the shared :data:`EMPTY_IMPORTS` when there
    are none, else a new one packing them."""
    if isinstance(imports, ImportList):
        return imports.table
    return ImportTable(imports) if imports else EMPTY_IMPORTS


def _local(imp: Import) -> str:
    return imp.local


EMPTY_IMPORTS = ImportTable(())
"""The table of a file without imports, shared (immutable, like every table)."""
