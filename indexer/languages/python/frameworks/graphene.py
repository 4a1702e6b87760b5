"""Graphene -> GraphQL :class:`~indexer.model.Route` (framework ``graphene``).

In a file importing ``graphene``, a class whose bases include ``graphene.ObjectType`` (or
``ObjectType`` imported from graphene; ``DjangoObjectType`` of graphene_django too) is a GraphQL type
named after the class (``Query``, ``Mutation``, ``Subscription`` are the operations):

* each method ``resolve_<name>`` resolves ``<Type>.<name camel-cased>`` (Graphene's default
  ``auto_camelcase``: ``resolve_owner_by_id`` -> ``ownerById``), ``handler`` the method;
* each class attribute ``<name> = X.Field()`` where ``X`` is a class of this file deriving from
  ``graphene.Mutation`` resolves ``<Type>.<name camel-cased>`` with ``handler`` ``X.mutate``; a
  class from another file gives ``handler_ref`` ``X.mutate``.

A ``resolve_x`` method in any other class is not a resolver. Position: the method or attribute name.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import ImportTable
from indexer.languages.python.frameworks.python_graphql import camel_case, graphql_route
from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "graphene"
_OBJECT_TYPES = frozenset({"graphene.ObjectType", "graphene_django.DjangoObjectType",
                           "graphene_django.types.DjangoObjectType"})
_MUTATIONS = frozenset({"graphene.Mutation", "graphene.relay.ClientIDMutation"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per resolver of the file's Graphene object types."""
    imports = ImportTable(out.imports)
    if not imports.uses("graphene", "graphene_django"):
        return
    types = {d.qualname: d.name for d in out.definitions
             if d.kind == "class" and any(imports.qualify(b) in _OBJECT_TYPES for b in d.bases)}
    mutations = {d.qualname for d in out.definitions
                 if d.kind == "class" and any(imports.qualify(b) in _MUTATIONS for b in d.bases)}
    if not types:
        return
    methods = {d.qualname for d in out.definitions if d.kind == "method"}
    for d in out.definitions:
        if d.parent not in types:
            continue
        type_name = types[d.parent]
        if d.kind == "method" and d.name.startswith("resolve_") and len(d.name) > 8:
            out.routes.append(graphql_route(FRAMEWORK, type_name, camel_case(d.name[8:]), d.qualname,
                                            d.name_line, d.name_col))
    for b in out.bindings:
        if b.scope not in types or b.how != "constructed" or not b.type.endswith(".Field"):
            continue
        cls = b.type[: -len(".Field")]
        if imports.qualify(cls).split(".", 1)[0] in ("graphene", "graphene_django"):
            continue  # graphene.Field(Owner): a plain field, resolved by a resolve_ method if any
        if f"{cls}.mutate" in methods:
            handler, ref = f"{cls}.mutate", None
        elif cls in mutations:
            continue  # a mutation of this file without its own mutate (inherited): not followed
        else:
            handler, ref = None, f"{cls}.mutate"
        field = next((d for d in out.definitions if d.kind == "field" and d.qualname == f"{b.scope}.{b.name}"), None)
        line, col = (field.name_line, field.name_col) if field is not None else (b.line, 0)
        out.routes.append(graphql_route(FRAMEWORK, types[b.scope], camel_case(b.name), handler, line, col, ref))
