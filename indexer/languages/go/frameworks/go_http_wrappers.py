"""Calls that may go through an application's own HTTP client function, in Go.

``c.do(http.MethodPost, "/users", body)`` where ``func (c *Client) do(method, path string, ...)``
builds ``http.NewRequest(method, c.base+path, body)``: that request is an
:class:`~indexer.model.HttpCall` whose method is a parameter (:attr:`HttpCall.method_param`) and
whose URL names one (:mod:`.go_web`); which calls reach it takes other files, so this detector only
reports the candidates, as :class:`~indexer.model.UrlArgCall` facts, which the linker keeps when the
callee resolves to such a client template (:mod:`indexer.frameworks.client_chains`).

A candidate is a call of a name or selector (not of a standard-library package, not ``net/http``'s
own client calls) with at most :data:`MAX_ARGS` arguments, one of which names an HTTP method (a
string literal that is a verb in any case, ``http.MethodPost``, an imported package's ``echo.POST``)
or is a literal URL or path (its leftmost string literal starts with ``/`` or holds ``://``;
tested before anything else is read, most calls being neither). Its arguments are
templates: a method as its verb, a string as :meth:`GoFile.template` builds it (a parameter of the
enclosing function a ``ref`` piece, listed in ``UrlArgCall.params``; a local given one value, that
value), ``None`` for anything else. At
most :data:`MAX_PER_FILE` per file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.go.frameworks.common import HTTP_METHOD_CONSTANTS, GoFile, go_file
from indexer.model import FileExtraction, Template, UrlArgCall

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "MAX_ARGS", "MAX_PER_FILE", "detect"]

LANGUAGES = ("go",)

MAX_PER_FILE = 2_000
MAX_ARGS = 8
_VERBS = frozenset(HTTP_METHOD_CONSTANTS.values())
"""The verbs ``net/http`` names a constant for (all nine of RFC 9110's)."""
_STRINGS = ("interpreted_string_literal", "raw_string_literal", "binary_expression", "call_expression")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's candidate calls of HTTP client functions to ``out.url_arg_calls``."""
    if b'"' not in src.data and b"`" not in src.data:
        return
    gf = go_file(root, src, out)
    clients = {(h.line, h.col) for h in out.http_calls}
    found: list[UrlArgCall] = []
    for call in gf.calls:
        fn = call.child_by_field_name("function")
        if fn is None or fn.type not in ("identifier", "selector_expression") or gf.standard_library(fn):
            continue
        nodes = gf.args(call)
        if not nodes or len(nodes) > MAX_ARGS:
            continue
        verbs = [_verb(gf, a) for a in nodes]
        # a cheap test first (most calls pass no method and no path): owners and templates walk the file
        if all(v is None for v in verbs) and not any(_url_like(gf, a) for a in nodes) or gf.pos(call) in clients:
            continue
        owner = gf.owner(call)
        params = gf.parameters(owner)
        args = [Template.of(v) if v is not None else _argument(gf, a, params) for a, v in zip(nodes, verbs)]
        named = tuple(sorted({p for t in args if t is not None for k, p in t.parts if k == "ref" and p in params}))
        line, col = gf.pos(call)
        found.append(UrlArgCall(gf.expr(fn), tuple(args), owner, line, col, named))
        if len(found) >= MAX_PER_FILE:
            break
    out.url_arg_calls.extend(found)


def _argument(gf: GoFile, node: Node, params: frozenset[str]) -> Template | None:
    """An argument as a template (:meth:`GoFile.template`); a local given exactly one value
    (``url := basePath + "/x"``, then ``c.do(ctx, http.MethodPost, url, body)``) is that value's
    (:meth:`GoFile.single_value`), as a URL handed straight to ``http.NewRequest`` is (:mod:`.go_web`)."""
    if node.type == "identifier" and gf.text(node) not in params and gf.is_local(node):
        node = gf.single_value(node) or node
    return gf.template(node, params, calls=True) if node.type in _STRINGS or node.type == "identifier" else None


def _url_like(gf: GoFile, node: Node, depth: int = 0) -> bool:
    """Whether an argument's leftmost string literal (of ``"/users/" + id``, ``fmt.Sprintf("/users/%s",
    id)``) is a path or a URL: it starts with ``/`` or holds ``://``."""
    if depth > 8:
        return False
    if node.type in ("interpreted_string_literal", "raw_string_literal"):
        text = gf.text(node)[1:-1]
        return text.startswith("/") or "://" in text
    if node.type == "binary_expression":
        left = node.child_by_field_name("left")
        return left is not None and _url_like(gf, left, depth + 1)
    if node.type == "call_expression" and gf.selector(node) == ("fmt", "Sprintf"):
        args = gf.args(node)
        return bool(args) and _url_like(gf, args[0], depth + 1)
    return False


def _verb(gf: GoFile, node: Node) -> str | None:
    """The HTTP method an argument names: a literal verb (``"post"`` too), ``http.MethodPost``, an
    imported package's constant named as the verb (``echo.POST``); else ``None``."""
    if node.type == "selector_expression":
        operand, field = node.child_by_field_name("operand"), gf.text(node.child_by_field_name("field"))
        if operand is None or operand.type != "identifier" or gf.text(operand) not in gf.imports:
            return None
        return HTTP_METHOD_CONSTANTS.get(field) or (field if field in _VERBS else None)
    if node.type in ("interpreted_string_literal", "raw_string_literal"):
        text = gf.text(node)[1:-1].strip().upper()
        return text if text in _VERBS else None
    return None
