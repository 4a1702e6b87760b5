"""The GraphQL schema "module system": schema files import nothing and call nothing, so the resolver
core has nothing to bind in them; their types and fields are definitions (search, symbols) and their
root fields framework facts the linker joins to resolvers (:mod:`indexer.frameworks.link`). A file's
module key is its path without suffix."""

from __future__ import annotations

from collections.abc import Iterable, Mapping

from indexer.model import FileExtraction, Import
from indexer.resolve.context import FileCtx
from indexer.resolve.language import ImportTarget, Lookup
from indexer.resolve.values import Value
from indexer.symbols import module_path

__all__ = ["MODULE_SYSTEM", "GraphQLModuleSystem"]


class GraphQLModuleSystem:
    """The :class:`~indexer.resolve.language.ModuleSystem` of GraphQL schema files."""

    languages = frozenset({"graphql"})
    namespace = "graphql"
    dotted_packages = False
    layout_suffixes: tuple[str, ...] = ()
    primitives = frozenset({"Int", "Float", "String", "Boolean", "ID"})
    constructor_name = None
    instance_prefix = ""
    class_body_hidden = False
    class_receiver = None
    implicit_this = False
    property_functions = False

    def is_builtin(self, name: str) -> bool:
        """The scalar types GraphQL defines."""
        return name in self.primitives

    def layout_keys(self, paths: Iterable[str]) -> Mapping[str, str]:
        """Keys do not depend on the file set."""
        return {}

    def module_key(self, ex: FileExtraction, layout: Mapping[str, str]) -> str:
        """The path without its suffix."""
        return module_path(ex.path)

    def module_keys(self, fc: FileCtx) -> list[str]:
        """The one module key."""
        return [fc.module_key]

    def resolve_import(self, r: Lookup, fc: FileCtx, imp: Import) -> Value:
        """Schema files import nothing."""
        return None

    def module_member(self, r: Lookup, key: str, name: str) -> Value:
        """Nothing is reached through a schema module."""
        return None

    def resolve_unbound(self, r: Lookup, fc: FileCtx, name: str) -> Value:
        """Nothing beyond the file's own names."""
        return None

    def qualified_name(self, r: Lookup, fc: FileCtx, dotted: str) -> Value:
        """No qualified names."""
        return None

    def import_target(self, r: Lookup, fc: FileCtx, imp: Import) -> ImportTarget:
        """Schema files import nothing."""
        return ImportTarget()

    def module_by_name(self, r: Lookup, fc: FileCtx, name: str) -> list[FileCtx]:
        """Schema modules are named by nobody."""
        return []


MODULE_SYSTEM = GraphQLModuleSystem()
