"""Next.js API routes, which the file system declares (framework ``nextjs``; JavaScript and TypeScript).

Next.js routes a request by the file's path, not by a call (https://nextjs.org/docs/pages/building-your-application/routing/api-routes
and https://nextjs.org/docs/app/building-your-application/routing/route-handlers):

* Pages Router: a module under a ``pages/api/`` folder (``pages/api/cart.ts``,
  ``src/pages/api/products/[productId]/index.ts``) serves ``/api/<its path>``: the suffix dropped, a
  last segment ``index`` dropped, a dynamic segment ``[id]`` (and a catch-all ``[...slug]`` /
  ``[[...slug]]``) the parameter ``{id}`` (``{slug}``). Its handler is the module's default export: a
  function declared there (``export default function handler(req, res)``), a function of the file it
  names (``export default handler``), or the function a wrapper call is given
  (``export default withAuth(handler)``: ``handler``; the wrapper is a middleware of the route). The
  methods are the ones the handler compares ``method`` / ``req.method`` with (``switch (method) { case
  'GET': ...}``, ``req.method === 'POST'``), ``*`` when it compares none.
* App Router: a ``route.ts`` / ``route.js`` module under an ``app/`` folder serves its folder's path
  (route groups ``(shop)`` and parallel slots ``@modal`` dropped, dynamic segments as above) with
  each function it exports named by an HTTP method (``export async function GET(request)``,
  ``export const POST = handler``, ``export { handler as GET, handler as POST }``: NextAuth's idiom).
  A folder whose name starts with ``_`` is private (``app/_lib/route.ts``: no route); ``%5F`` in a
  folder name is an ``_`` of the URL.

A file outside both shapes, a page named ``pages/api.ts`` (a page at ``/api``: API routes lie *under*
``pages/api/``), or a ``pages/api`` module exporting no default, declares nothing.
Positions: the default export's (Pages Router) or the exported function's (App Router) start.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_TYPES, js_file, unwrap
from indexer.model import FileExtraction, Route, Template, WrapperRef
from indexer.symbols import handler_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.ecmascript.frameworks.common import JsFile
    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "route_path"]

LANGUAGES = ("javascript", "typescript")
FRAMEWORK = "nextjs"
_SUFFIXES = (".tsx", ".ts", ".jsx", ".js", ".mjs", ".cjs")
_PAGES_API = re.compile(r"(?:^|/)pages(/api/.+)$")
_APP_ROUTE = re.compile(r"(?:^|/)app((?:/.*)?)/route$")
_DYNAMIC = re.compile(r"^\[{1,2}(?:\.\.\.)?([^\[\]/]+?)\]{1,2}$")
_VERBS = frozenset({"GET", "POST", "PUT", "PATCH", "DELETE", "HEAD", "OPTIONS"})
_METHOD_TEST = re.compile(r"""\bmethod\s*===?\s*(['"`])([A-Za-z]+)\1""")
_METHOD_SWITCH = re.compile(r"""\bswitch\s*\(\s*(?:[\w.?]*\.)?method\s*\)""")
_CASE = re.compile(r"""\bcase\s+(['"`])([A-Za-z]+)\1\s*:""")
_METHOD_TEST_LEFT = re.compile(r"""(['"`])([A-Za-z]+)\1\s*===?\s*(?:[\w.?]*\.)?method\b""")
_MAX_WRAPPERS = 8


def route_path(path: str) -> tuple[str, str] | None:
    """``(router, url path)`` of a repository-relative file ``path`` Next.js routes: router ``pages``
    (``src/pages/api/products/[productId]/index.ts`` -> ``/api/products/{productId}``) or ``app``
    (``app/(shop)/api/items/[id]/route.ts`` -> ``/api/items/{id}``); ``None`` for any other file."""
    stem = next((path[: -len(s)] for s in _SUFFIXES if path.endswith(s)), None)
    if stem is None or "/node_modules/" in "/" + stem:
        return None
    m = _PAGES_API.search(stem)
    router = "pages"
    if m is None:
        m = _APP_ROUTE.search(stem)
        router = "app"
    if m is None:
        return None
    segments = [s for s in m.group(1).split("/") if s]
    if router == "pages" and segments and segments[-1] == "index":
        segments.pop()
    out: list[str] = []
    for s in segments:
        if router == "app" and s.startswith("_"):
            return None  # a private folder: out of routing
        if router == "app" and (s.startswith("@") or (s.startswith("(") and s.endswith(")"))):
            continue  # a route group or a parallel slot is no segment of the URL
        s = s.replace("%5F", "_").replace("%5f", "_") if router == "app" else s
        d = _DYNAMIC.match(s)
        out.append("{" + d.group(1) + "}" if d else s)
    return router, "/" + "/".join(out)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes a Next.js API module declares (module docstring) to ``out.routes``."""
    found = route_path(out.path)
    if found is None or not any(n in src.data for n in (b"export default", b"export async function",
                                                         b"export function", b"export const", b"export {",
                                                         b"export{")):
        return
    jf = js_file(root, src, out)
    router, path = found
    for node in root.named_children:
        if node.type != "export_statement":
            continue
        if router == "pages":
            _default_export(jf, out, node, path)
        else:
            _method_exports(jf, out, node, path)


def _default_export(jf: JsFile, out: FileExtraction, node: Node, path: str) -> None:
    if not any(c.type == "default" for c in node.children):
        return
    value = node.child_by_field_name("declaration") or node.child_by_field_name("value")
    if value is None:
        return
    value = unwrap(value) or value
    template = Template.of(path)
    name = handler_name(["*"], template)
    wrappers: list[WrapperRef] = []
    for _ in range(_MAX_WRAPPERS):  # withAuth(withLogging(handler)): each call a middleware
        if value.type != "call_expression":
            break
        args = [a for a in (value.child_by_field_name("arguments") or value).named_children if a.type != "comment"]
        fn = value.child_by_field_name("function")
        if not args or fn is None:
            return
        runs = jf.runs(fn, value, f"middleware {name}") if fn.type in ("identifier", "member_expression") else None
        if runs is not None and (runs[0] or runs[1]):
            wrappers.append(WrapperRef("middleware", runs[0] or runs[1] or ""))
        value = unwrap(args[0]) or args[0]
    if value.type not in FUNCTION_TYPES and value.type not in ("identifier", "function_declaration"):
        return
    handled = _handler(jf, value, node, name)
    if handled is None or handled == (None, None):
        return
    body = _function_of(jf, value)
    methods = _methods(jf.text(body)) if body is not None else []
    line, col = jf.pos(node)
    out.routes.append(Route(FRAMEWORK, methods or ["*"], template, handled[0], line, col, handled[1],
                            wrappers=wrappers))


def _method_exports(jf: JsFile, out: FileExtraction, node: Node, path: str) -> None:
    decl = node.child_by_field_name("declaration")
    pairs: list[tuple[str, Node]] = []
    if decl is None:
        if node.child_by_field_name("source") is not None:
            return  # export { GET } from "./x": the handler is another module's
        clause = next((c for c in node.named_children if c.type == "export_clause"), None)
        for spec in clause.named_children if clause is not None else ():
            local, alias = spec.child_by_field_name("name"), spec.child_by_field_name("alias")
            if spec.type == "export_specifier" and local is not None and local.type == "identifier":
                pairs.append((jf.text(alias if alias is not None else local), local))
    elif decl.type == "function_declaration":
        name = decl.child_by_field_name("name")
        if name is not None:
            pairs.append((jf.text(name), decl))
    elif decl.type in ("lexical_declaration", "variable_declaration"):
        for d in decl.named_children:
            name, value = d.child_by_field_name("name"), d.child_by_field_name("value")
            if d.type == "variable_declarator" and name is not None and value is not None:
                pairs.append((jf.text(name), unwrap(value) or value))
    template = Template.of(path)
    for verb, value in pairs:
        if verb not in _VERBS:
            continue
        handled = _handler(jf, value, node, handler_name([verb], template)) if (
            value.type in FUNCTION_TYPES or value.type in ("function_declaration", "identifier")) else None
        if handled is None or handled == (None, None):
            continue
        line, col = jf.pos(node)
        out.routes.append(Route(FRAMEWORK, [verb], template, handled[0], line, col, handled[1]))


def _handler(jf: JsFile, value: Node, node: Node, name: str) -> tuple[str | None, str | None] | None:
    """``(handler, handler_ref)`` of an exported handler: a declared function is the extractor's
    definition of its name; a function expression or a name as :meth:`JsFile.handler` reads them."""
    if value.type == "function_declaration":
        own = value.child_by_field_name("name")
        local = jf.local_callable(jf.text(own), None) if own is not None else None
        return (local, None) if local else None
    return jf.handler(value, node, name)


def _function_of(jf: JsFile, value: Node) -> Node | None:
    """The function node a handler expression is, or the one a ``const`` / ``function`` of the module
    of that name is (``handler`` -> ``const handler = async (req, res) => {...}``)."""
    if value.type == "function_declaration" or value.type in FUNCTION_TYPES:
        return value
    name = jf.text(value)
    for top in jf.root.named_children:
        decl = top.child_by_field_name("declaration") if top.type == "export_statement" else top
        if decl is None:
            continue
        if decl.type == "function_declaration" and jf.text(decl.child_by_field_name("name")) == name:
            return decl
        if decl.type in ("lexical_declaration", "variable_declaration"):
            for d in decl.named_children:
                if d.type == "variable_declarator" and jf.text(d.child_by_field_name("name")) == name:
                    v = d.child_by_field_name("value")
                    v = unwrap(v) or v
                    return v if v is not None and v.type in FUNCTION_TYPES else None
    return None


def _methods(text: str) -> list[str]:
    """The HTTP methods a handler's text tests ``method`` against (``method === 'POST'``, or the
    cases of a ``switch (req.method)``), comparisons first, then cases, each once."""
    seen: dict[str, None] = {}
    patterns = (_METHOD_TEST, _METHOD_TEST_LEFT, _CASE) if _METHOD_SWITCH.search(text) else (_METHOD_TEST, _METHOD_TEST_LEFT)
    for pattern in patterns:
        for m in pattern.finditer(text):
            verb = m.group(2).upper()
            if verb in _VERBS:
                seen[verb] = None
    return list(seen)
