"""Database schema files: SQL scripts (``.sql``: ``schema.sql``, Flyway ``V1__init.sql``, Liquibase
SQL changelogs, any migration), Prisma schemas (``.prisma``) and Liquibase XML / YAML / JSON change
logs (claimed by path: :func:`claim`).

Like ``.proto`` and GraphQL schema files these declare rather than run: their tables are framework
facts (:class:`~indexer.model.TableDef`) the linker (:mod:`indexer.frameworks.tables`) makes
``Table`` / ``Column`` nodes of, merged with the tables ORM models of the code declare. Read one file
at a time, cached and kept current by the incremental run like any other file. SQL is parsed with
sqlglot (:mod:`indexer.frameworks.sql_text`); the module system binds nothing.

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.base import Extractor
from indexer.languages.sql.extractor import PRISMA_EXTRACTOR, SQL_EXTRACTOR
from indexer.languages.sql.liquibase import LIQUIBASE_EXTRACTOR, is_changelog_path

__all__ = ["EXTRACTORS", "SQL_EXTRACTOR", "PRISMA_EXTRACTOR", "LIQUIBASE_EXTRACTOR", "CLAIMED", "claim"]

EXTRACTORS = (SQL_EXTRACTOR, PRISMA_EXTRACTOR)
CLAIMED = (LIQUIBASE_EXTRACTOR,)
"""Extractors claiming files by path (:func:`claim`), not by suffix."""


def claim(path: str) -> Extractor | None:
    """The extractor of a file no suffix decides, by its path: a Liquibase change log
    (:func:`~indexer.languages.sql.liquibase.is_changelog_path`), else ``None``."""
    return LIQUIBASE_EXTRACTOR if is_changelog_path(path) else None
