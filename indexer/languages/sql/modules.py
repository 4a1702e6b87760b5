"""The "module system" of schema files (``.sql``, ``.prisma``): they import and call nothing the
resolver could bind; their tables are framework facts the linker reads
(:mod:`indexer.frameworks.tables`). A file's module key is its path without suffix."""

from __future__ import annotations

from indexer.resolve.language import UnboundModuleSystem

__all__ = ["MODULE_SYSTEM", "SchemaModuleSystem"]


class SchemaModuleSystem(UnboundModuleSystem):
    """The :class:`~indexer.resolve.language.ModuleSystem` of SQL scripts and Prisma schemas."""

    languages = frozenset({"sql", "prisma", "liquibase"})
    namespace = "sql"


MODULE_SYSTEM = SchemaModuleSystem()
