"""Starlette: applications and routers declared by route lists, and what they mount.

Found (rules in ``indexer/languages/python/queries/starlette.scm``), only in a file importing from
``starlette``:

* ``NAME = Starlette(routes=...)`` / ``Router(routes=...)`` at module level ->
  :class:`~indexer.model.Router` ``NAME`` (no prefix of its own);
* in its ``routes`` (a list literal, or the name of a module-level list of this file):
  ``Route("/x", endpoint, methods=[...])`` -> :class:`~indexer.model.Route` on ``NAME`` (methods as
  listed, else ``["GET"]`` for a function of this file, ``["*"]`` for a class, an ``HTTPEndpoint``,
  or a name defined elsewhere; ``handler`` the function of this file, else ``handler_ref``);
  ``Mount("/p", app=X)`` / ``Mount("/p", X)`` -> :class:`~indexer.model.Mount` of ``X`` (an app or
  router of any framework the linker knows: a FastAPI app, another Starlette app) under ``NAME``;
  ``Mount("/p", routes=[...])`` -> its routes under ``/p`` (nested at most :data:`MAX_NESTING` deep).
  ``WebSocketRoute``, ``Host`` and anything else are skipped.

Why Python walks the list: a route list nests through ``Mount(routes=[...])`` to any depth, which a
query cannot follow with the accumulated prefix. Position: the ``Route`` / ``Mount`` call.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, Context, compact, join, string_list, string_value, template
from indexer.model import FileExtraction, Mount, Route, Router, Template

__all__ = ["LANGUAGES", "MAX_NESTING", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "starlette"
MAX_NESTING = 8
MAX_ENTRIES = 2_000


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the Starlette routers, routes and mounts of one parsed Python file to ``out``."""
    ctx = Context(src, out)
    if not ctx.imports.uses("starlette"):
        return
    apps: list[tuple[str, Node]] = []
    lists: dict[str, Node] = {}
    for _, caps in run_query(query("python", "python/queries", "starlette"), root):
        if "app.name" in caps:
            apps.append((src.text(caps["app.name"][0]), caps["app.args"][0]))
        elif "list.name" in caps:
            lists[src.text(caps["list.name"][0])] = caps["list"][0]
    for name, args_node in apps:
        out.routers.append(Router(_FRAMEWORK, name, Template(), src.line(args_node)))
        routes = Args.of(src, args_node).get(0, "routes")
        if routes is not None and routes.type == "identifier":
            routes = lists.get(src.text(routes))
        if routes is not None and routes.type == "list":
            _entries(ctx, name, routes, Template(), 0, [0], "")


def _entries(ctx: Context, router: str, node: Node, prefix: Template, depth: int, count: list[int], names: str) -> None:
    """The ``Route`` / ``Mount`` calls of the list ``node``, under ``prefix``, their names under ``names``
    (``users:`` inside ``Mount("/users", routes=[...], name="users")``)."""
    src = ctx.src
    for call in node.named_children:
        if call.type != "call" or count[0] >= MAX_ENTRIES:
            continue
        count[0] += 1
        callee = compact(src, call.child_by_field_name("function")).rpartition(".")[2]
        args = Args.of(src, call.child_by_field_name("arguments"))
        path = args.get(0, "path")
        if path is None:
            continue
        full = join(prefix, template(src, path))
        line, col = src.line(call), src.col(call)
        if callee == "Route":
            endpoint = args.get(1, "endpoint")
            if endpoint is None:
                continue
            handler, ref = ctx.handler(endpoint, None)
            methods = [m.upper() for m in string_list(src, args.keywords.get("methods")) or []]
            if not methods:  # a function of this file: GET; a class (its verbs) or a name from elsewhere: any
                methods = ["GET"] if handler is not None else ["*"]
            name = string_value(src, args.keywords.get("name")) or (  # else the endpoint's __name__
                compact(src, endpoint).rpartition(".")[2] if endpoint.type in ("identifier", "attribute") else None)
            ctx.out.routes.append(Route(_FRAMEWORK, methods, full, handler, line, col, ref, router,
                                        name=names + name if name else None))
        elif callee == "Mount":
            app = args.get(1, "app")
            nested = args.keywords.get("routes")
            own = string_value(src, args.keywords.get("name"))
            if app is not None and app.type in ("identifier", "attribute"):
                ctx.out.mounts.append(Mount(_FRAMEWORK, router, compact(src, app), full, line, col,
                                            namespace=names + own if own else names.removesuffix(":") or None))
            elif nested is not None and nested.type == "list" and depth < MAX_NESTING:
                _entries(ctx, router, nested, full, depth + 1, count, f"{names}{own}:" if own else names)
