"""Strawberry GraphQL -> GraphQL :class:`~indexer.model.Route` (framework ``strawberry``).

In a file importing ``strawberry``: a method decorated ``@strawberry.field`` / ``@strawberry.mutation``
/ ``@strawberry.subscription`` (or ``field`` / ``mutation`` / ``subscription`` imported from
``strawberry``) in a class decorated ``@strawberry.type`` (``@type``, or ``strawberry.federation.type``)
resolves ``<Type>.<name>``: ``Type`` the ``name=`` of the class decorator else the class name
(``Query``, ``Mutation``, ``Subscription`` are the operations; others ``FIELD``); ``name`` the
decorator's ``name=`` else the method name camel-cased (Strawberry's default ``auto_camel_case``:
``owner_by_id`` -> ``ownerById``). ``handler`` the method's qualname; position its name. A field
declared with a resolver function (``owner: Owner = strawberry.field(resolver=get_owner)``, rule in
``indexer/languages/python/queries/strawberry.scm``) resolves ``<Type>.<field name>`` (``name=``, else
the attribute camel-cased) with that function as handler (this file's, else a reference); position
the attribute's name.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, Context, ImportTable, compact, scope_of, string_value
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
    imports = ImportTable.of(out)
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

    ctx = Context(src, out)
    for _, caps in run_query(query("python", "python/queries", "strawberry"), root):
        name_node = caps["name"][0]
        owner = scope_of(name_node, src)
        if owner not in types or imports.qualify(compact(src, caps["fn"][0])) not in _FIELDS:
            continue
        args = Args.of(src, caps["args"][0])
        resolver = args.get(-1, "resolver")
        if resolver is None or resolver.type not in ("identifier", "attribute"):
            continue
        handler, ref = ctx.handler(resolver, owner.rpartition(".")[0] or None)
        field = string_value(src, args.get(-1, "name")) or camel_case(src.text(name_node))
        out.routes.append(graphql_route(FRAMEWORK, types[owner], field, handler, src.line(name_node), src.col(name_node),
                                        ref))
