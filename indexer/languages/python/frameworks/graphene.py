"""Graphene -> GraphQL :class:`~indexer.model.Route` (framework ``graphene``).

In a file importing ``graphene``, a class whose bases include ``graphene.ObjectType`` (or
``ObjectType`` imported from graphene; ``DjangoObjectType`` of graphene_django too) is a GraphQL type
named after the class (``Query``, ``Mutation``, ``Subscription`` are the operations):

* each method ``resolve_<name>`` resolves ``<Type>.<name camel-cased>`` (Graphene's default
  ``auto_camelcase``: ``resolve_owner_by_id`` -> ``ownerById``), ``handler`` the method;
* each class attribute ``<name> = X.Field()`` where ``X`` is a class of this file deriving from
  ``graphene.Mutation`` resolves ``<Type>.<name camel-cased>`` with ``handler`` ``X.mutate``; a
  class from another file gives ``handler_ref`` ``X.mutate``.

A ``resolve_type`` class method is an interface's or union's type resolution, no field's resolver.
A class of such a file whose bases are none of those but which has ``resolve_<name>`` methods (``class
Order(ModelObjectType)``, the application's own base type defined in another file) gives the same routes with
:attr:`~indexer.model.Route.library_bases` :data:`GRAPHENE_TYPES`: the linker keeps them when a class of its
lineage names a Graphene type among its bases. Any other ``resolve_x`` method is not a resolver. Position: the
method or attribute name.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import ImportTable
from indexer.languages.python.frameworks.python_graphql import camel_case, decorator_name, graphql_route
from indexer.model import FileExtraction

__all__ = ["GRAPHENE_TYPES", "LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "graphene"
_OBJECT_TYPES = frozenset({"graphene.ObjectType", "graphene.types.ObjectType", "graphene.types.objecttype.ObjectType",
                           "graphene_django.DjangoObjectType", "graphene_django.types.DjangoObjectType"})
GRAPHENE_TYPES = tuple(sorted(_OBJECT_TYPES | {"graphene.Interface", "graphene.types.Interface",
                                               "graphene.types.interface.Interface"}))
"""The Graphene classes whose subclasses are GraphQL types with resolver methods (object types, interfaces)."""
_MUTATIONS = frozenset({"graphene.Mutation", "graphene.relay.ClientIDMutation"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per resolver of the file's Graphene object types."""
    imports = ImportTable.of(out)
    if not imports.uses("graphene", "graphene_django"):
        return
    types = {d.qualname: d.name for d in out.definitions
             if d.kind == "class" and any(imports.qualify(b) in _OBJECT_TYPES for b in d.bases)}
    mutations = {d.qualname for d in out.definitions
                 if d.kind == "class" and any(imports.qualify(b) in _MUTATIONS for b in d.bases)}
    classes = {d.qualname: d for d in out.definitions if d.kind == "class"}
    methods = {d.qualname for d in out.definitions if d.kind == "method"}
    for d in out.definitions:
        if d.kind != "method" or not d.name.startswith("resolve_") or len(d.name) <= 8 or d.parent not in classes:
            continue
        if d.name == "resolve_type" and any(decorator_name(t) == "classmethod" for t in d.decorators):
            continue  # an interface's or union's type resolution (`resolve_type(cls, instance, info)`), no field
        owner = classes[d.parent]
        if d.parent in types:
            route = graphql_route(FRAMEWORK, types[d.parent], camel_case(d.name[8:]), d.qualname, d.name_line, d.name_col)
        elif owner.bases and d.parent not in mutations:  # a base from elsewhere may be a Graphene type
            route = graphql_route(FRAMEWORK, owner.name, camel_case(d.name[8:]), d.qualname, d.name_line, d.name_col)
            route.library_bases = GRAPHENE_TYPES
        else:
            continue
        out.routes.append(route)
    if not types:
        return
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
