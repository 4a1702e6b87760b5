"""Ktor server routing -> :class:`~indexer.model.Route` (framework ``ktor``).

A route is a call ``get("/x") { ... }`` (also ``post``, ``put``, ``delete``, ``patch``, ``head``,
``options``; ``get { }`` without a path is the enclosing route's own path) with a trailing lambda,
written inside a routing block: a lambda handed to ``routing``, ``route``, ``authenticate`` or
``rateLimit``, or the body of an extension function on ``Route`` / ``Routing`` (``fun
Route.users() { get("/u") { } }``). Its path is the ``route("/p")`` prefixes of the enclosing blocks
joined (one ``/`` between pieces: :func:`~indexer.frameworks.jvm.join_path`) with its own, made
absolute. The handler lambda becomes a function of its own named after the route (``GET /api/x``,
:mod:`indexer.symbols`), under the enclosing definition, owning the calls in its body; the route sits
at the verb's name.

Not seen here: the prefix under which an extension function's routes are mounted when it is called
from another route block (``route("/api") { users() }``): its routes keep the path written in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import join_path, rooted
from indexer.languages.kotlin.frameworks.common import caller_at, inline_function, string_arg, template
from indexer.model import FileExtraction, Route, Template
from indexer.symbols import handler_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)
FRAMEWORK = "ktor"
VERBS = {"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD",
         "options": "OPTIONS"}
BLOCKS = frozenset({"routing", "route", "authenticate", "rateLimit"})
ROUTE_RECEIVERS = frozenset({"Route", "Routing"})


def _callee(src: SourceText, call: Node) -> str | None:
    first = call.named_children[0] if call.named_children else None
    return src.text(first) if first is not None and first.type == "simple_identifier" else None


def _lambda(call: Node) -> Node | None:
    suffix = call.named_children[-1] if call.named_children else None
    if suffix is None or suffix.type != "call_suffix":
        return None
    ann = next((c for c in suffix.named_children if c.type == "annotated_lambda"), None)
    return next((c for c in ann.named_children if c.type == "lambda_literal"), None) if ann is not None else None


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Ktor routes to ``out.routes`` and make their handler blocks functions."""
    route_fns = {(d.start_line, d.start_col) for d in out.definitions
                 if d.receiver_type and d.receiver_type.rsplit(".", 1)[-1] in ROUTE_RECEIVERS}
    found: list[tuple[Node, Node, list[str], Template]] = []
    stack: list[tuple[Node, Template | None]] = [(root, None)]
    while stack:
        n, prefix = stack.pop()
        if n.type == "function_declaration":
            pos = (src.line(n), src.col(n))
            prefix = Template() if pos in route_fns else None
            mods = next((c for c in n.named_children if c.type == "modifiers"), None)
            if mods is not None and mods.named_children and (src.line(mods), src.col(mods)) in route_fns:
                prefix = Template()
        elif n.type == "call_expression":
            name = _callee(src, n)
            body = _lambda(n)
            if name in BLOCKS and body is not None:
                inner = prefix if prefix is not None else Template()
                if name == "route":
                    arg = string_arg(src, n, 0)
                    inner = join_path(inner, template(src, arg)) if arg is not None else inner
                for c in n.named_children[:-1]:
                    stack.append((c, prefix))
                stack.append((body, inner))
                continue
            if name in VERBS and body is not None and prefix is not None:
                arg = string_arg(src, n, 0)
                path = rooted(join_path(prefix, template(src, arg)) if arg is not None else prefix)
                found.append((n, body, [VERBS[name]], path))
        stack.extend((c, prefix) for c in n.named_children)
    found.sort(key=lambda f: f[0].start_byte)
    for call, body, methods, path in found:
        head = call.named_children[0]
        line, col = src.line(head), src.col(head)
        parent = caller_at(out, line, col)
        handler = inline_function(out, src, body, handler_name(methods, path), parent)
        out.routes.append(Route(FRAMEWORK, methods, path, handler, line, col))
