"""A file's named imports read back from disk when looked up, not held for the whole run.

A one-shot run's resolver holds every file's context from the first file bound to the last. A
file's imports are read all the time while that file itself is bound (every unbound name), but by
other files only when a name they import from it is not defined there (a re-export: a package's
``__init__`` importing ``X`` that ``from pkg import X`` reaches; a JavaScript barrel). Packed in two
tuples (:class:`~indexer.resolve.import_table.ImportTable`) they were still about 1.1 KB a file of
the 45-package generated monorepo (docs/benchmarks.md, session 53), the second largest part of a
context after its definitions.

When a file's extraction is parked on disk (:func:`indexer.parked.park_extraction`: the one-shot
run), :func:`park_imports` writes its imports to the same spill file and :class:`ParkedImports`
stands for the table: a lookup builds the :class:`ImportTable` from the pickle on first use and
keeps it while it is among the :data:`OPEN_IMPORTS` tables built last (least recently used dropped
first: :class:`indexer.resolve.held_tables.HeldTables`, as for function-local bindings). The star
imports (read on every lookup of a name the file does not bind, and in almost every file none) stay in memory.
Answers are the same as the packed table's; only where they come from differs. A watcher's
resolver (extractions not parked) keeps the packed table in memory as before.
"""

from __future__ import annotations

from collections.abc import Iterator, Mapping, Sequence
from typing import Any

from indexer.model import Import
from indexer.parked import ParkedList
from indexer.resolve.held_tables import HeldTables
from indexer.resolve.import_table import EMPTY_IMPORTS, ImportList, ImportTable, import_table
from indexer.spill import SpillFile

__all__ = ["OPEN_IMPORTS", "ParkedImports", "park_imports", "open_import_tables"]

OPEN_IMPORTS = 64
"""How many files' import tables are held built at once, at most (least recently used dropped
first). Binding a file reads its own table many times; other files read a few re-exporting ones
(packages' ``__init__``, barrels) often, and those stay among the last used."""

def _keep(owner: ParkedImports, table: ImportTable | None) -> None:
    owner._table = table


_open: HeldTables[ParkedImports, ImportTable] = HeldTables(_keep, weak=True)
"""The parked imports whose table is built, least recently used first: weakly, so that the
process-wide record never keeps a run's spill file (a :class:`ParkedImports` holds it) alive."""


def open_import_tables() -> tuple[ParkedImports, ...]:
    """The parked imports whose table the process holds built now (least recently used first)."""
    return _open.owners()


class ParkedImports(Mapping[str, "Import | tuple[Import, ...]"]):
    """A file's imports per local name, as :class:`~indexer.resolve.import_table.ImportTable`
    answers them (read with :func:`~indexer.resolve.multimap.entries` and
    :func:`~indexer.resolve.multimap.every`), built from ``source`` (a :class:`ParkedList` of the
    imports in :meth:`ImportTable.every`'s order) when read and dropped again once
    :data:`OPEN_IMPORTS` other tables were used since. :attr:`stars` (the star imports) is held.
    Reading raises :class:`indexer.parked.ParkedDataError` when the spill file cannot give the
    imports back."""

    __slots__ = ("source", "stars", "_table", "__weakref__")

    def __init__(self, source: ParkedList, stars: tuple[Import, ...]) -> None:
        self.source = source
        self.stars = stars
        """The star imports (``local == "*"``) in source order."""
        self._table: ImportTable | None = None

    def table(self) -> ImportTable:
        """The packed table, built from the spill file when not held (see the module docstring)."""
        table = self._table
        if table is not None:
            _open.used(self)
            return table
        table = ImportTable(self.source.unpack())
        _open.hold(self, table, OPEN_IMPORTS)
        return table

    def release(self) -> None:
        """Drop the built table (it is built again when read)."""
        _open.release(self)

    def get(self, key: object, default: Any = None) -> Any:
        """The import bound to local name ``key`` (a tuple of them when several, in source order),
        or ``default``."""
        return self.table().get(key, default)

    def __getitem__(self, key: str) -> Import | tuple[Import, ...]:
        return self.table()[key]

    def __contains__(self, key: object) -> bool:
        return key in self.table()

    def __iter__(self) -> Iterator[str]:
        return iter(self.table())

    def __len__(self) -> int:
        return len(self.table())

    def every(self) -> Iterator[Import]:
        """Every import, in :meth:`ImportTable.every`'s order."""
        return self.table().every()

    def count(self) -> int:
        """How many imports there are, star imports included."""
        return len(self.source)


def park_imports(imports: Sequence[Import], spill: SpillFile) -> tuple[ImportTable | ParkedImports, Sequence[Import]]:
    """A file's imports (an extraction's ``imports`` field: a list, an
    :class:`~indexer.resolve.import_table.ImportList`, or a :class:`ParkedList` parked in that
    order before: by this function, or as the extraction arrived by
    :func:`indexer.parked.park_extraction`) written to ``spill`` when not yet: ``(table, field)``, the
    :class:`ParkedImports` to look them up through and the :class:`ParkedList` to hold as the
    extraction's ``imports`` (iterating them in :class:`ImportList`'s order: star imports first,
    then by local name). A file without imports gives the shared empty table and ``imports``
    itself. Raises ``OSError`` when the spill file cannot be written."""
    if not imports:
        return EMPTY_IMPORTS, imports
    if isinstance(imports, ParkedList):
        parked = imports
        stars = tuple(i for i in parked.unpack() if i.local == "*")  # first in the parked order
    else:
        table = import_table(imports)
        parked = ParkedList.park(spill, list(ImportList(table)))
        stars = table.stars
    return ParkedImports(parked, stars), parked
