"""Identities of the shared ``Table`` / ``Column`` nodes (design: data layer): one node per table of a
repository however many sources (ORM classes, SQL files, migrations) declare it. Re-exported by
:mod:`stores.contracts`."""

from __future__ import annotations

DEFAULT_SCHEMAS = frozenset({"public", "dbo", "main"})
"""Database schemas that fold into "no schema" in :func:`table_key`."""


def table_key(name: str, schema: str | None = None) -> str:
    """The identity of a table inside one repository: ``schema.name`` lowercased, quotes and
    brackets dropped, a default schema (:data:`DEFAULT_SCHEMAS`) or none written as ``""``:
    ``table_key("Users", "public") == table_key("users") == ".users"``."""
    n = name.strip().strip('"`[]').lower()
    s = (schema or "").strip().strip('"`[]').lower()
    if s in DEFAULT_SCHEMAS:
        s = ""
    return f"{s}.{n}"


def table_id(repo: str, name: str, schema: str | None = None) -> str:
    """The id of the shared ``Table`` node ``name`` (``schema``) of repository ``repo``:
    ``table:<repo>:<schema>.<name>`` (:func:`table_key`): one node however many sources declare it."""
    return f"table:{repo}:{table_key(name, schema)}"


def column_id(table: str, column: str) -> str:
    """The id of the shared ``Column`` node ``column`` of the Table node id ``table``:
    ``column:<repo>:<schema>.<table>.<column>``, the column lowercased."""
    return "column:" + table.removeprefix("table:") + "." + column.strip('"`[]').lower()
