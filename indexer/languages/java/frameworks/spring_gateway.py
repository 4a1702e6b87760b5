"""Spring Cloud Gateway routes declared in Java -> :class:`~indexer.model.GatewayRouteDecl`.

The Java DSL of a ``RouteLocator`` bean (Spring Cloud Gateway reference, "Fluent Java Routes API")::

    builder.routes()
        .route("customers", r -> r.path("/api/customer/**").and().method("GET", "POST")
            .filters(f -> f.stripPrefix(2).prefixPath("/v1"))
            .uri("lb://customers-service"))

Each ``route(...)`` call whose last argument is a lambda is one route: in the lambda's chain,
``path(p, ...)`` gives the ``Path`` patterns, ``method(m, ...)`` (strings or ``HttpMethod.X``) the
``Method`` predicate, ``filters(f -> ...)`` the filters, ``uri("lb://svc")`` the service (the host of
the URI). The path-changing filters are kept, with the configuration's names (``stripPrefix(2)`` ->
``("StripPrefix", "2")``, ``prefixPath``, ``rewritePath(regexp, replacement)``, ``setPath``): the same
model as the YAML routes (:func:`indexer.frameworks.spring_config.gateway_route_list`), applied by the
linker after them.

Not read: a route whose ``uri`` is not a literal naming a host, a path-changing filter whose arguments
are not literals (the route is left out: the path it forwards is not known), predicates other than
``path`` / ``method`` (``host``, ``header``: the route is kept with what is known), the Kotlin DSL.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import http_method, string_value
from indexer.model import FileExtraction, GatewayRouteDecl

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)

_FILTERS = {"stripPrefix": "StripPrefix", "prefixPath": "PrefixPath", "rewritePath": "RewritePath",
            "setPath": "SetPath"}
"""The DSL's path-changing filters (``GatewayFilterSpec``) and their configuration names."""
_MAX_CHAIN = 64
"""Calls followed down one chain (a route spec is a handful)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's gateway routes declared with the Java DSL (module docstring)."""
    if b"uri" not in src.data or b"route" not in src.data:
        return
    stack = [root]
    while stack:
        node = stack.pop()
        if node.type == "method_invocation" and _name(src, node) == "route":
            args = _args(node)
            if args and args[-1].type == "lambda_expression":
                route = _route(src, node, args[-1])
                if route is not None:
                    out.gateway_routes.append(route)
        stack.extend(reversed(node.named_children))
    out.gateway_routes.sort(key=lambda r: (r.line, r.col))


def _name(src: SourceText, call: Node) -> str:
    name = call.child_by_field_name("name")
    return src.text(name) if name is not None else ""


def _args(call: Node) -> list[Node]:
    arglist = call.child_by_field_name("arguments")
    return [c for c in arglist.named_children if c.type not in ("line_comment", "block_comment")] if arglist else []


def _chain(src: SourceText, lam: Node) -> list[tuple[str, list[Node]]]:
    """``(name, arguments)`` of each call of the chain a lambda's expression body is (``r -> r.path(..)
    .uri(..)``), first call first; ``[]`` for a block body."""
    body = lam.child_by_field_name("body")
    out: list[tuple[str, list[Node]]] = []
    node = body
    while node is not None and node.type == "method_invocation" and len(out) < _MAX_CHAIN:
        out.append((_name(src, node), _args(node)))
        node = node.child_by_field_name("object")
    return out[::-1]


def _strings(src: SourceText, args: list[Node]) -> list[str] | None:
    """The values of string-literal arguments; ``None`` when one is anything else."""
    out = []
    for a in args:
        if a.type != "string_literal":
            return None
        out.append(string_value(src, a))
    return out


def _route(src: SourceText, call: Node, lam: Node) -> GatewayRouteDecl | None:
    paths: list[str] = []
    methods: list[str] = []
    filters: list[tuple[str, ...]] = []
    service = ""
    for name, args in _chain(src, lam):
        if name == "path":
            paths += _strings(src, args) or []
        elif name == "method":
            methods += [m.upper() for m in (_strings(src, args) or [])]
            methods += [m for m in (http_method(src, a) for a in args) if m]
        elif name == "uri":
            uri = _strings(src, args[:1])
            host = uri[0].split("://", 1)[1].split("/", 1)[0].split(":", 1)[0] if uri and "://" in uri[0] else ""
            service = host if "$" not in host and "{" not in host else ""
        elif name == "filters" and args and args[-1].type == "lambda_expression":
            for fname, fargs in _chain(src, args[-1]):
                if fname not in _FILTERS:
                    continue
                values = [src.text(a) for a in fargs] if fname == "stripPrefix" else _strings(src, fargs)
                if not values or (fname == "stripPrefix" and not values[0].isdigit()):
                    return None  # a path-changing filter whose arguments are not known
                filters.append((_FILTERS[fname], *values))
    if not service:
        return None
    name = call.child_by_field_name("name") or call
    return GatewayRouteDecl(service, tuple(paths), tuple(dict.fromkeys(methods)), tuple(filters),
                            name.start_point[0] + 1, src.col(name))
