"""graphql-java runtime wiring -> GraphQL :class:`~indexer.model.Route` (framework ``graphql-java``).

``X.dataFetcher("owner", fetcher)`` (rule in ``indexer/languages/java/queries/graphql_java.scm``) wires
``<Type>.owner`` where the type is the string given to the ``.type("Query", builder -> ...)`` call
whose lambda holds it, or to the ``newTypeWiring("Query")`` / ``TypeRuntimeWiring.newTypeWiring(...)``
its receiver chain starts from. The fetcher: ``this::m`` / ``m`` of this class -> ``handler`` that
method; ``x::m`` / a call ``fetchers.ownerFetcher()`` (a method building the fetcher, the usual
style) -> ``handler_ref`` ``x.m`` / ``fetchers.ownerFetcher``; an inline lambda -> the method holding
the wiring (a Java lambda is not a definition of its own: its calls belong to that method). Anything
else (a field holding a ``DataFetcher``) is not followed. Position: ``dataFetcher``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR, JavaFile, compact, string_value
from indexer.languages.java.frameworks.spring_graphql import graphql_route
from indexer.model import FileExtraction, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "graphql-java"
_MAX_UP = 64


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per ``dataFetcher`` wiring of the file."""
    jf = JavaFile.of(root, src, out)
    if not jf.calls_any(frozenset({"dataFetcher"})):
        return
    for _, m in run_query(query(GRAMMAR, "java/queries", "graphql_java"), root):
        call, name_node = m["call"][0], m["name"][0]
        type_name = _wired_type(src, call)
        if type_name is None:
            continue
        scope = jf.enclosing(call)
        handler, ref = _fetcher(jf, m["fetcher"][0], scope)
        if handler is None and ref is None:
            continue
        route = graphql_route(FRAMEWORK, Template.of(type_name), Template.of(string_value(src, m["field"][0])),
                              handler or "", src.line(name_node), src.col(name_node))
        if handler is None:
            route.handler, route.handler_ref, route.scope = None, ref, scope
        out.routes.append(route)


def _type_call(src: SourceText, node: Node, names: tuple[str, ...]) -> str | None:
    """The string first argument of ``node`` when it is a call of one of ``names``."""
    if node.type != "method_invocation" or src.text(node.child_by_field_name("name")) not in names:
        return None
    args = node.child_by_field_name("arguments")
    first = args.named_children[0] if args is not None and args.named_children else None
    return string_value(src, first) if first is not None and first.type == "string_literal" else None


def _wired_type(src: SourceText, call: Node) -> str | None:
    link: Node | None = call.child_by_field_name("object")
    for _ in range(_MAX_UP):  # down the receiver chain: newTypeWiring("Query").dataFetcher(...)
        if link is None or link.type != "method_invocation":
            break
        found = _type_call(src, link, ("newTypeWiring",))
        if found is not None:
            return found
        link = link.child_by_field_name("object")
    n = call.parent
    for _ in range(_MAX_UP):  # up to the lambda of .type("Query", builder -> builder.dataFetcher(...))
        if n is None or n.type in ("method_declaration", "class_body"):
            return None
        if n.type == "lambda_expression" and n.parent is not None and n.parent.parent is not None:
            found = _type_call(src, n.parent.parent, ("type",))
            if found is not None:
                return found
        n = n.parent
    return None


def _fetcher(jf: JavaFile, node: Node, scope: str | None) -> tuple[str | None, str | None]:
    src = jf.src
    owner_class = scope.rpartition(".")[0] if scope else ""
    if node.type == "method_reference":
        parts = [c for c in node.named_children]
        if len(parts) == 2:
            head, name = compact(src, parts[0]), src.text(parts[1])
            if head == "this" and owner_class:
                return f"{owner_class}.{name}", None
            return None, f"{head}.{name}"
    if node.type == "method_invocation":
        obj, name = node.child_by_field_name("object"), src.text(node.child_by_field_name("name"))
        if obj is None or compact(src, obj) == "this":
            return (f"{owner_class}.{name}" if owner_class else name), None
        return None, f"{compact(src, obj).removeprefix('this.')}.{name}"
    if node.type == "lambda_expression" and scope:
        return scope, None
    return None, None
