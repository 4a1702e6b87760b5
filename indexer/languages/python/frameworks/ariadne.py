"""Ariadne -> GraphQL :class:`~indexer.model.Route` (framework ``ariadne``).

In a file importing ``ariadne``, a module-level name bound to ``QueryType()`` / ``MutationType()`` /
``SubscriptionType()`` (type ``Query`` / ``Mutation`` / ``Subscription``) or ``ObjectType("Owner")``
/ ``InterfaceType("Owner")`` (rules in ``indexer/languages/python/queries/ariadne.scm``) is a bindable;
then ``@x.field("owner")`` (or ``@x.source("owner")``, a subscription's source) on a function, and
``x.set_field("owner", resolver)``, resolve ``<Type>.owner`` (the name as written: Ariadne does not
camel-case). ``handler`` is the decorated function, or the resolver named (a function of this file,
else ``handler_ref``). Position: the function's or ``set_field``'s name.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Context, ImportTable, compact, scope_of, string_value
from indexer.languages.python.frameworks.python_graphql import decorator_name, first_string, graphql_route
from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "ariadne"
_ROOTS = {"ariadne.QueryType": "Query", "ariadne.MutationType": "Mutation", "ariadne.SubscriptionType": "Subscription"}
_NAMED = frozenset({"ariadne.ObjectType", "ariadne.InterfaceType"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per Ariadne resolver of the file."""
    imports = ImportTable.of(out)
    if not imports.uses("ariadne"):
        return
    bindables: dict[str, str] = {}
    calls: list[dict[str, list[Node]]] = []
    for _, caps in run_query(query("python", "python/queries", "ariadne"), root):
        if "call" in caps:
            calls.append(caps)
            continue
        ctor = imports.qualify(compact(src, caps["ctor"][0]))
        var = src.text(caps["var"][0])
        if ctor in _ROOTS:
            bindables[var] = _ROOTS[ctor]
        elif ctor in _NAMED:
            args = caps["args"][0].named_children
            name = string_value(src, args[0]) if args else None
            if name:
                bindables[var] = name
    if not bindables:
        return
    for d in out.definitions:
        if d.kind not in ("function", "method"):
            continue
        for deco in d.decorators:
            receiver, _, method = decorator_name(deco).rpartition(".")
            field = first_string(deco)
            if receiver in bindables and method in ("field", "source") and field:
                out.routes.append(graphql_route(FRAMEWORK, bindables[receiver], field, d.qualname, d.name_line,
                                                d.name_col))
    ctx = Context(src, out)
    for caps in calls:
        receiver = src.text(caps["receiver"][0])
        field = string_value(src, caps["field"][0])
        if receiver not in bindables or not field:
            continue
        call = caps["call"][0]
        handler, ref = ctx.handler(caps["resolver"][0], scope_of(call, src))
        name_node = call.child_by_field_name("function").child_by_field_name("attribute")  # type: ignore[union-attr]
        out.routes.append(graphql_route(FRAMEWORK, bindables[receiver], field, handler, src.line(name_node),
                                        src.col(name_node), ref))
