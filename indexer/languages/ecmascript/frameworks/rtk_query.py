"""RTK Query (Redux Toolkit's data fetching) endpoints as outgoing HTTP calls, in JavaScript / TypeScript.

A React / Redux front end declares its requests as data, not as calls of a client::

    export const apiSlice = createApi({ baseQuery: fetchBaseQuery({ baseUrl: BASE_URL }), endpoints: () => ({}) })
    export const productsApi = apiSlice.injectEndpoints({
      endpoints: (builder) => ({
        getProducts: builder.query({ query: ({ keyword }) => ({ url: PRODUCTS_URL, params: { keyword } }) }),
        getTop: builder.query({ query: () => `${PRODUCTS_URL}/top` }),
        deleteProduct: builder.mutation({ query: (id) => ({ url: `${PRODUCTS_URL}/${id}`, method: 'DELETE' }) }),
      }),
    })

Facts (:class:`~indexer.model.HttpCall`, framework ``rtk-query``), one per endpoint definition of a ``createApi(...)``
call (``createApi`` imported from ``@reduxjs/toolkit/query`` or ``@reduxjs/toolkit/query/react``) or of an
``X.injectEndpoints(...)`` / ``X.enhanceEndpoints`` -less injection on any api object: the ``endpoints`` function's
returned object (an expression body or its ``return``), each property a ``B.query(...)`` / ``B.mutation(...)`` call
of the function's parameter ``B``, whose options' ``query`` (a function: arrow, function expression or method) returns
the request: a string (the URL, ``GET``) or an object literal (``url``; ``method``, ``GET`` when absent as in
``fetchBaseQuery``, ``*`` when not a literal). Each ``return`` of a block body is one call. ``queryFn`` (code, no
request) is not read.

The base URL is what RTK Query's ``fetchBaseQuery`` joins before a URL that is not absolute: the ``baseUrl`` of the one
``fetchBaseQuery({ baseUrl })`` call inside the api's own ``createApi(...)`` arguments, else of the one outside every
``createApi`` of the file declaring the api (``const baseQuery = fetchBaseQuery(...)``, also when a re-authenticating
function wraps it, as RTK's documentation shows); two apis of one file each keep their own. In that file the base is put before the URL; a module-level api gets a
:class:`~indexer.model.StringConstant` ``NAME.baseUrl`` (``ref`` pieces kept: the linker resolves them), which an
injecting file names as a ``ref`` before its URLs, so the linker reads it through the import (an api whose base is
not known renders an unknown start, and the URL links by its known end). One ``/`` is put between base and URL when
the URL's text starts with no ``/`` (``joinUrls``); doubled slashes after the host are one (the linker).

``caller`` follows the extractor's ``CallSite.caller`` rule at the ``query`` function (module level: ``None``); the
position is the ``B.query`` / ``B.mutation`` call's. Source of the rules: RTK Query's API reference (``createApi``,
``fetchBaseQuery``, ``injectEndpoints``), redux-toolkit.js.org.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import FileExtraction, HttpCall, StringConstant, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

_MODULES = ("@reduxjs/toolkit/query", "@reduxjs/toolkit/query/react")
_KINDS = frozenset({"query", "mutation", "infiniteQuery"})
_FUNCTIONS = frozenset({"arrow_function", "function_expression", "function"})
_MAX_ENDPOINTS = 2_000
"""At most this many endpoint definitions read per file (generated slices hold a few hundred)."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's RTK Query endpoint definitions to ``out.http_calls`` (and a module-level api's base URL
    to ``out.constants``)."""
    jf = js_file(root, src, out)
    if not jf.has(b"injectEndpoints", b"createApi"):
        return
    create = {k for k, v in jf.import_locals(*_MODULES).items() if v == "createApi"}
    fetch_base = {k for k, v in jf.import_locals(*_MODULES).items() if v == "fetchBaseQuery"}
    apis: list[tuple[Node, Node | None]] = []  # (the createApi / injectEndpoints call, its api object or None)
    bases: list[tuple[Node, int | None]] = []  # (a fetchBaseQuery's baseUrl, the id of the createApi call around it)
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(reversed(n.named_children))
        if n.type != "call_expression":
            continue
        fn = n.child_by_field_name("function")
        if fn is None:
            continue
        if fn.type == "identifier" and jf.text(fn) in create:
            apis.append((n, None))
        elif fn.type == "identifier" and jf.text(fn) in fetch_base:
            base = jf.object_pairs(_first(n)).get("baseUrl")
            if base is not None:
                bases.append((base, _around(jf, n, create)))
        elif fn.type == "member_expression" and jf.text(fn.child_by_field_name("property")) == "injectEndpoints":
            apis.append((n, fn.child_by_field_name("object")))
    if not apis:
        return
    loose = [b for b, around in bases if around is None]  # `const baseQuery = fetchBaseQuery({ baseUrl })`
    found = 0
    for call, api in apis:
        if api is None:
            mine = [b for b, around in bases if around == call.id]
            node = mine[0] if len(mine) == 1 else loose[0] if not mine and len(loose) == 1 else None
            own_base = jf.template(node) if node is not None else None
            base = own_base if own_base is not None else Template((("hole", "baseUrl"),))
            name = _declared_name(call)
            if name is not None and own_base is not None:
                out.constants.append(StringConstant(f"{name}.baseUrl", own_base))
        else:
            recv = jf.receiver(api)
            base = Template((("ref", f"{recv}.baseUrl"),)) if api.type == "identifier" else Template((("hole", recv),))
        for at, method, url, scope in _endpoints(jf, call):
            line, col = jf.pos(at)
            out.http_calls.append(HttpCall("rtk-query", method, _joined(base, url), scope, line, col))
            found += 1
            if found >= _MAX_ENDPOINTS:
                return


def _around(jf: JsFile, node: Node, create: set[str]) -> int | None:
    """The id of the ``createApi(...)`` call (``create``: its local names) whose arguments hold ``node`` (a
    ``fetchBaseQuery`` call in its ``baseQuery``, or in a function there), ``None`` when none does."""
    parent = node.parent
    while parent is not None:  # bounded by the tree's depth
        if parent.type == "call_expression":
            fn = parent.child_by_field_name("function")
            if fn is not None and fn.type == "identifier" and jf.text(fn) in create:
                return parent.id
        parent = parent.parent
    return None


def _first(call: Node) -> Node | None:
    args = arguments(call.child_by_field_name("arguments"))
    return args[0] if args else None


def _declared_name(call: Node) -> str | None:
    """``NAME`` of a module-level ``const NAME = createApi(...)`` (also ``export const``), else ``None``."""
    parent = call.parent
    while parent is not None and parent.type in ("parenthesized_expression", "as_expression", "satisfies_expression"):
        parent = parent.parent
    if parent is None or parent.type != "variable_declarator":
        return None
    top = parent.parent.parent if parent.parent is not None else None
    if top is not None and top.type == "export_statement":
        top = top.parent
    if top is None or top.type != "program":
        return None
    name = parent.child_by_field_name("name")
    return name.text.decode() if name is not None and name.type == "identifier" and name.text else None


def _endpoints(jf: JsFile, call: Node) -> list[tuple[Node, str, Template, str | None]]:
    """``(definition call, method, URL, caller)`` of each request the ``endpoints`` option of ``call`` defines."""
    fn = unwrap(jf.object_pairs(_first(call)).get("endpoints"))
    if fn is None or fn.type not in _FUNCTIONS:
        return []
    params = fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter")
    names = [p for p in (params.named_children if params is not None and params.type == "formal_parameters"
                         else [params] if params is not None else []) if p.type != "comment"]
    if not names:
        return []
    builder = names[0].child_by_field_name("pattern") if names[0].type == "required_parameter" else names[0]
    if builder is None or builder.type != "identifier":
        return []
    b = jf.text(builder)
    out: list[tuple[Node, str, Template, str | None]] = []
    for returned in _returned(fn):
        for definition in jf.object_pairs(returned).values():
            d = unwrap(definition)
            if d is None or d.type != "call_expression":
                continue
            callee = d.child_by_field_name("function")
            if callee is None or callee.type != "member_expression" or jf.text(callee.child_by_field_name("object")) != b \
                    or jf.text(callee.child_by_field_name("property")) not in _KINDS:
                continue
            query = _query_function(jf, _first(d))
            if query is None:
                continue
            scope = jf.code_scope(query)
            for value in _returned(query):
                request = _request(jf, value)
                if request is not None:
                    out.append((d, *request, scope))
    return out


def _query_function(jf: JsFile, options: Node | None) -> Node | None:
    """The ``query`` function of an endpoint's options object (a property or a method ``query(arg) {...}``)."""
    node = unwrap(options)
    if node is None or node.type != "object":
        return None
    for c in node.named_children:
        if c.type == "method_definition" and jf.text(c.child_by_field_name("name")) == "query":
            return c
    q = unwrap(jf.object_pairs(node).get("query"))
    return q if q is not None and q.type in _FUNCTIONS else None


def _returned(fn: Node) -> list[Node]:
    """The values a function returns: an arrow's expression body, else each ``return`` of its own body (nested
    functions' left out)."""
    body = fn.child_by_field_name("body")
    if body is None:
        return []
    if body.type != "statement_block":
        return [body]
    out: list[Node] = []
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "return_statement":
            value = next((c for c in n.named_children if c.type != "comment"), None)
            if value is not None:
                out.append(value)
            continue
        if n.type in _FUNCTIONS or n.type in ("class", "class_declaration", "function_declaration", "method_definition"):
            continue
        stack.extend(reversed(n.named_children))
    return out


def _request(jf: JsFile, value: Node) -> tuple[str, Template] | None:
    """``(method, URL)`` of what a ``query`` function returns: a string is the URL of a ``GET``; an object literal
    its ``url`` and ``method``; anything else ``None``."""
    node = unwrap(value)
    if node is None:
        return None
    if node.type in ("string", "template_string", "binary_expression", "identifier", "member_expression"):
        return "GET", jf.template(node)
    pairs = jf.object_pairs(node)
    url = pairs.get("url")
    if url is None:
        return None
    m = pairs.get("method")
    lit = jf.string(m) if m is not None else "GET"
    method = lit.strip().upper() if lit and lit.strip().isalpha() else "*"
    return method, jf.template(url)


def _joined(base: Template, url: Template) -> Template:
    """``fetchBaseQuery``'s ``joinUrls(base, url)`` as a template: an absolute URL alone, else the base then the URL,
    one ``/`` between them when the URL's text starts with none (``?`` a query: none)."""
    first = url.parts[0] if url.parts else ("lit", "")
    if first[0] == "lit" and ("://" in first[1][:12] or first[1].startswith("//")):
        return url
    sep = "" if first[0] != "lit" or first[1].startswith(("/", "?")) else "/"
    return Template.merged((*base.parts, ("lit", sep), *url.parts))
