"""The GraphQL schema "module system": schema files import nothing and call nothing, so the resolver
core has nothing to bind in them; their types and fields are definitions (search, symbols) and their
root fields framework facts the linker joins to resolvers (:mod:`indexer.frameworks.link`). A file's
module key is its path without suffix."""

from __future__ import annotations

from indexer.resolve.language import UnboundModuleSystem

__all__ = ["MODULE_SYSTEM", "GraphQLModuleSystem"]


class GraphQLModuleSystem(UnboundModuleSystem):
    """The :class:`~indexer.resolve.language.ModuleSystem` of GraphQL schema files."""

    languages = frozenset({"graphql"})
    namespace = "graphql"
    primitives = frozenset({"Int", "Float", "String", "Boolean", "ID"})


MODULE_SYSTEM = GraphQLModuleSystem()
