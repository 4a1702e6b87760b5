"""Calls that may go through a thin HTTP wrapper, in JavaScript / TypeScript.

``request("/orders")`` where ``function request(path) { return fetch(BASE + path) }``, or
``api.get("orders")`` where ``api``'s ``get(path)`` calls ``this.http.get(`${base}/${path}`)``: the
wrapper's own request is an :class:`~indexer.model.HttpCall` whose URL names a parameter; which calls
reach it takes other files, so this detector only reports the candidates, as
:class:`~indexer.model.UrlArgCall` facts (rules in ``indexer/languages/ecmascript/queries/http_wrappers.scm``):
a call of a name or property chain whose first argument is a string or template literal whose first
literal piece holds no whitespace (a path, not a message) and, when it is all literal, a letter (``"1"``
is an id passed to ``deleteOwner(id)``, not a path), a ``+`` with a literal piece, or a constant's
name (``ORDERS``, ``Paths.ORDERS``: upper case), or a parameter of the function around the call (a layer
handing its URL on: ``this.fetch(path, "POST")``; any other name is a variable, unknown here), its callee not a well-known global
(``console.log``, ``document.querySelector``, ...) nor a client the ``js_http_clients`` detector reads
itself. At most :data:`MAX_PER_FILE` per file. The linker (:mod:`indexer.frameworks.link`) keeps those
whose callee resolves to a client template.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import FileExtraction, Template, UrlArgCall

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "MAX_PER_FILE", "detect"]

LANGUAGES = ("javascript", "typescript")

MAX_PER_FILE = 2_000
MAX_ARGS = 8
_GLOBAL_HEADS = frozenset({
    "console", "document", "window", "globalThis", "JSON", "Object", "Math", "Promise", "Array", "String",
    "Number", "Reflect", "Symbol", "require", "fetch", "axios", "describe", "it", "test", "expect", "jest",
    "process", "path", "fs", "Error", "RegExp", "Date", "URL", "import", "localStorage", "sessionStorage",
})  # fmt: skip
_CONSTANT_NAME = re.compile(r"^[A-Z][A-Z0-9_]*$")
_ARG_NODES = frozenset({"string", "template_string", "identifier", "member_expression", "binary_expression", "number"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's candidate wrapper calls to ``out.url_arg_calls``."""
    jf = js_file(root, src, out)
    matches = jf.matches("http_wrappers")
    if not matches:
        return
    clients = {(h.line, h.col) for h in out.http_calls}
    found: list[UrlArgCall] = []
    for caps in matches:
        call = caps["call"][0]
        callees = _callees(jf, caps["fn"][0])
        if not callees:
            continue
        line, col = jf.pos(call)
        if (line, col) in clients:
            continue
        first_node = caps["first"][0]
        nodes = arguments(call.child_by_field_name("arguments"))[:MAX_ARGS]
        fields = tuple((i, key, jf.template(v) if v.type in _ARG_NODES else None)
                       for i, a in enumerate(nodes) for key, v in jf.object_pairs(a).items())
        if first_node.type == "object":  # `request({ url: `${base}/cart`, method })`: a property like a path
            params = jf.parameters(call)
            if not any(t is not None and _url_like(t, params) for i, _, t in fields if i == 0):
                continue
            _record(jf, found, call, callees, nodes, fields, (line, col))
            if len(found) >= MAX_PER_FILE:
                break
            continue
        first = jf.template(first_node)
        if first_node.type in ("identifier", "member_expression"):
            name = jf.text(first_node)
            if not _CONSTANT_NAME.match(name.rsplit(".", 1)[-1]) and not (first_node.type == "identifier" and (
                    name in jf.parameters(call) or
                    any(a != Template((("ref", name),)) for a in jf.alternatives(lambda n=first_node: jf.template(n))))):
                continue  # request(p): a variable, nothing known (unless a parameter, or a local of known value)
        if first_node.type == "binary_expression" and not any(k == "lit" for k, _ in first.parts):
            continue
        lit = first.parts[0][1] if first.parts and first.parts[0][0] == "lit" else ""
        if first.parts and first.parts[0][0] == "lit" and (not lit or any(ch.isspace() for ch in lit)):
            continue
        if first.literal() is not None and not any(ch.isalpha() for ch in lit):
            continue  # deleteOwner("1"): an id, not a path (a path names something)
        _record(jf, found, call, callees, nodes, fields, (line, col))
        if len(found) >= MAX_PER_FILE:
            break
    out.url_arg_calls.extend(found)


def _url_like(t: Template, params: set[str] | frozenset[str]) -> bool:
    """Whether an options object's property value may be a URL: a path (a literal piece holding a
    ``/``, the first literal piece no whitespace: ``${base}/cart``, ``"/api/x"``), or one name, a
    constant's (``ORDERS``, ``Paths.ORDERS``) or a parameter of ``params`` (the function around the call
    handing its URL on). Not a message, a flag or any other name (``dispatch({ type: "loaded" })``)."""
    if len(t.parts) == 1 and t.parts[0][0] == "ref":
        name = t.parts[0][1]
        return bool(_CONSTANT_NAME.match(name.rsplit(".", 1)[-1])) or name in params
    lits = [text for kind, text in t.parts if kind == "lit"]
    return bool(lits) and not any(ch.isspace() for ch in lits[0]) and any("/" in text for text in lits)


def _record(jf: JsFile, found: list[UrlArgCall], call: Node, callees: list[str], nodes: list[Node],
            fields: tuple[tuple[int, str, Template | None], ...], at: tuple[int, int]) -> None:
    """Append the :class:`UrlArgCall` of ``call`` for each callee and each way its arguments are built."""
    methods = tuple((i, jf.template(m)) for i, a in enumerate(nodes) if (m := jf.object_pairs(a).get("method")) is not None)
    scope = jf.code_scope(call)
    for args in jf.alternatives(lambda nodes=nodes: tuple(
            jf.template(a) if a.type in _ARG_NODES else None for a in nodes)):
        refs = {t for a in args if a is not None for k, t in a.parts if k == "ref"}
        refs.update(t for _, _, v in fields if v is not None for k, t in v.parts if k == "ref")
        named = tuple(sorted(refs & jf.parameters(call))) if refs else ()
        for callee in callees:
            found.append(UrlArgCall(callee, args, scope, *at, named, methods, fields))


def _callees(jf: JsFile, fn: Node) -> list[str]:
    """The functions a call's callee names: a name or property chain as written (``request``,
    ``this.api.get``; not a well-known global's, nor one holding a call); through parentheses, both
    branches of a conditional and a higher-order wrapper of one function (``(c ? send : retry(send))``,
    ``retry(send)``: fetch-retry, p-retry, memoize and tracing wrappers call the function they are given
    with the arguments they get), the local functions it names. At most two."""
    node = unwrap(fn) or fn
    if node.type == "ternary_expression":
        out: list[str] = []
        for side in ("consequence", "alternative"):
            branch = node.child_by_field_name(side)
            for c in _callees(jf, branch) if branch is not None else []:
                if c not in out:
                    out.append(c)
        return out[:2]
    if node.type == "call_expression":
        args = arguments(node.child_by_field_name("arguments"))
        inner = unwrap(args[0]) or args[0] if len(args) == 1 else None
        return [jf.text(inner)] if inner is not None and inner.type == "identifier" else []
    if node.type not in ("identifier", "member_expression"):
        return []
    callee = jf.receiver(node)
    head = callee.split(".", 1)[0].split("(", 1)[0]
    return [] if head in _GLOBAL_HEADS or "(" in callee else [callee]
