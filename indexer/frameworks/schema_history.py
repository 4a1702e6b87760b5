"""Migrations replayed in order, so the tables of the graph are the schema the migrations lead to.

A migration history declares tables (``CREATE TABLE``, Liquibase ``createTable``, a Django
``CreateModel``) and later changes them: drops a table, renames it, renames or drops a column. Each
file reports those facts on its own (:class:`~indexer.model.TableDef` of ``kind`` ``table``,
``drop``, ``rename``, ``rename_column``, ``drop_column``); :func:`replay` runs every migration fact
of a repository in migration order and says, for each declaration, what became of it:

* a table created in ``V1`` and renamed in ``V3`` is declared by ``V1`` under its *new* name (the
  ``DECLARES`` edge of ``V1`` and of ``V3`` both reach the one current table);
* a table dropped later (and not created again) is declared by nobody: no node;
* a column renamed later is declared under its new name, a dropped column not at all.

Order: by file path with runs of digits compared as numbers (Flyway ``V2__`` before ``V10__``,
Django ``0002_`` before ``0010_``, Liquibase change logs named by timestamp), then by line in the
file. Only migration facts take part (frameworks :data:`MIGRATION_FRAMEWORKS`, no entity): an ORM
class names the table as the code uses it and is never dropped by a script. A change to a table no
earlier fact declared changes nothing (the table may come from a source not indexed). A ``.sql``
script that is no step of a history (:func:`indexer.frameworks.sql_dialect.is_history_step`: ``schema.sql``,
``schema-drop-h2.sql``, a test's ``init-schema.sql``) stands alone: its changes apply to the tables
its own file declares, never to another file's (spring-batch's ``src/test/resources/
schema-drop-hsqldb.sql`` does not drop the tables of ``src/main/resources/.../schema-h2.sql``).
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from indexer.frameworks.sql_dialect import is_history_step
from indexer.model import TableDef
from stores.contracts import table_key

__all__ = ["MIGRATION_FRAMEWORKS", "CHANGE_KINDS", "Fate", "replay", "migration_order"]

MIGRATION_FRAMEWORKS = frozenset({"sql", "liquibase", "alembic", "django-migration"})
"""The frameworks whose table facts are migration steps (replayed in order)."""
CHANGE_KINDS = frozenset({"drop", "rename", "rename_column", "drop_column"})
"""The :attr:`~indexer.model.TableDef.kind` values of a schema change (they declare no table)."""
_DIGITS = re.compile(r"(\d+)")


@dataclass(frozen=True, slots=True)
class Fate:
    """What a declaration became: the current ``name`` / ``schema`` of its table and its ``columns``
    ``(current name, type)`` still present, in the declaration's order."""

    name: str
    schema: str | None
    columns: tuple[tuple[str, str | None], ...]


@dataclass(slots=True)
class _Col:
    name: str
    dropped: bool = False


@dataclass(slots=True)
class _Table:
    name: str
    schema: str | None
    origin: str = ""  # the path of the file that first declared it
    dropped: bool = False
    cols: dict[str, _Col] = field(default_factory=dict)  # lower current name -> column


def migration_order(path: str) -> tuple[object, ...]:
    """The sort key of a migration file's path: digit runs compared as numbers (``V2`` < ``V10``)."""
    return tuple(int(p) if p.isdigit() else p.lower() for p in _DIGITS.split(path))


def replay(items: Sequence[tuple[str, TableDef]]) -> dict[int, Fate | None]:
    """Replay the migration facts ``items`` (``(file path, fact)``; facts of other frameworks are
    ignored) and return, for each declaring fact (``kind`` ``table``) by ``id(fact)``, its
    :class:`Fate`, or ``None`` when its table was dropped later. Change facts get no entry. Never
    raises."""
    steps = sorted((m for m in enumerate(items) if m[1][1].framework in MIGRATION_FRAMEWORKS and m[1][1].entity is None),
                   key=lambda m: (migration_order(m[1][0]), m[1][1].line, m[0]))
    live: dict[str, _Table] = {}
    declared: list[tuple[TableDef, _Table, list[tuple[_Col, str | None]]]] = []
    for _, (path, td) in steps:
        key = table_key(td.name, td.schema)
        t = live.get(key)
        if td.kind == "table":
            if t is None:
                t = live[key] = _Table(td.name, td.schema, path)
            cols: list[tuple[_Col, str | None]] = []
            for c, ty in td.columns:
                col = t.cols.get(c.lower())
                if col is None:
                    col = t.cols[c.lower()] = _Col(c)
                cols.append((col, ty))
            declared.append((td, t, cols))
        elif t is None or (td.framework == "sql" and t.origin != path and not is_history_step(path)):
            continue  # a standalone script (schema-drop-h2.sql) changes no other file's tables
        elif td.kind == "drop":
            t.dropped = True
            del live[key]
        elif td.kind == "rename" and td.renamed:
            new = td.renamed[1]
            schema, _, name = new.rpartition(".")
            del live[key]
            t.name, t.schema = name, schema or t.schema
            live[table_key(t.name, t.schema)] = t
        elif td.kind == "rename_column" and td.renamed:
            col = t.cols.pop(td.renamed[0].lower(), None)
            if col is not None:
                col.name = td.renamed[1]
                t.cols[col.name.lower()] = col
        elif td.kind == "drop_column":
            for c, _ in td.columns:
                col = t.cols.pop(c.lower(), None)
                if col is not None:
                    col.dropped = True
    out: dict[int, Fate | None] = {}
    for td, t, cols in declared:
        out[id(td)] = None if t.dropped else Fate(
            t.name, t.schema, tuple(dict.fromkeys((c.name, ty) for c, ty in cols if not c.dropped)))
    return out
