"""Database schema files: SQL scripts (``.sql``: ``schema.sql``, Flyway ``V1__init.sql``, Liquibase
SQL changelogs, any migration) and Prisma schemas (``.prisma``).

Like ``.proto`` and GraphQL schema files these declare rather than run: their tables are framework
facts (:class:`~indexer.model.TableDef`) the linker (:mod:`indexer.frameworks.tables`) makes
``Table`` / ``Column`` nodes of, merged with the tables ORM models of the code declare. Read one file
at a time, cached and kept current by the incremental run like any other file. SQL is parsed with
sqlglot (:mod:`indexer.frameworks.sql_text`); the module system binds nothing.

``EXTRACTORS`` is what the language registry (:mod:`indexer.languages`) reads.
"""

from __future__ import annotations

from indexer.languages.sql.extractor import PRISMA_EXTRACTOR, SQL_EXTRACTOR

__all__ = ["EXTRACTORS", "SQL_EXTRACTOR", "PRISMA_EXTRACTOR"]

EXTRACTORS = (SQL_EXTRACTOR, PRISMA_EXTRACTOR)
