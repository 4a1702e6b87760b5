"""Strawberry GraphQL -> GraphQL :class:`~indexer.model.Route` (framework ``strawberry``).

In a file importing ``strawberry``: a method decorated ``@strawberry.field`` / ``@strawberry.mutation``
/ ``@strawberry.subscription`` (or ``field`` / ``mutation`` / ``subscription`` imported from
``strawberry``) in a class decorated ``@strawberry.type`` (``@type``, or ``strawberry.federation.type``)
resolves ``<Type>.<name>``: ``Type`` the ``name=`` of the class decorator else the class name
(``Query``, ``Mutation``, ``Subscription`` are the operations; others ``FIELD``); ``name`` the
decorator's ``name=`` else the method name camel-cased (Strawberry's default ``auto_camel_case``:
``owner_by_id`` -> ``ownerById``). ``handler`` the method's qualname; position its name. Fields
declared with a resolver function (``owner: Owner = strawberry.field(resolver=get_owner)``) are not
followed.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.languages.python.frameworks.common import ImportTable
from indexer.languages.python.frameworks.python_graphql import camel_case, decorator_name, graphql_route, keyword_string
from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "strawberry"
_TYPES = frozenset({"strawberry.type", "strawberry.federation.type", "strawberry.interface"})
_FIELDS = frozenset({"strawberry.field", "strawberry.mutation", "strawberry.subscription",
                     "strawberry.federation.field"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per resolver method of the file's Strawberry types."""
    imports = ImportTable(out.imports)
    if not imports.uses("strawberry"):
        return
    types: dict[str, str] = {}
    for d in out.definitions:
        if d.kind != "class":
            continue
        for deco in d.decorators:
            if imports.qualify(decorator_name(deco)) in _TYPES:
                types[d.qualname] = keyword_string(deco, "name") or d.name
    for d in out.definitions:
        if d.kind != "method" or d.parent not in types:
            continue
        for deco in d.decorators:
            if imports.qualify(decorator_name(deco)) in _FIELDS:
                field = keyword_string(deco, "name") or camel_case(d.name)
                out.routes.append(graphql_route(FRAMEWORK, types[d.parent], field, d.qualname, d.name_line, d.name_col))
                break
