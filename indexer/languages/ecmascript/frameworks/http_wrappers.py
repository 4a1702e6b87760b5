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

from indexer.languages.ecmascript.frameworks.common import FUNCTION_NODES, JsFile, arguments, js_file
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
        callee = jf.receiver(caps["fn"][0])
        head = callee.split(".", 1)[0].split("(", 1)[0]
        if head in _GLOBAL_HEADS or "(" in callee:
            continue
        line, col = jf.pos(call)
        if (line, col) in clients:
            continue
        first_node = caps["first"][0]
        own = _parameters(jf, call)
        if first_node.type in ("identifier", "member_expression"):
            if not _CONSTANT_NAME.match(jf.text(first_node).rsplit(".", 1)[-1]) and not (
                    first_node.type == "identifier" and jf.text(first_node) in own):
                continue  # request(p): a variable, nothing known
        first = jf.template(first_node)
        if first_node.type == "binary_expression" and not any(k == "lit" for k, _ in first.parts):
            continue
        lit = first.parts[0][1] if first.parts and first.parts[0][0] == "lit" else ""
        if first.parts and first.parts[0][0] == "lit" and (not lit or any(ch.isspace() for ch in lit)):
            continue
        if first.literal() is not None and not any(ch.isalpha() for ch in lit):
            continue  # deleteOwner("1"): an id, not a path (a path names something)
        args: list[Template | None] = []
        for arg in arguments(call.child_by_field_name("arguments"))[:MAX_ARGS]:
            args.append(jf.template(arg) if arg.type in _ARG_NODES else None)
        named = {t for a in args if a is not None for k, t in a.parts if k == "ref" and t in own}
        found.append(UrlArgCall(callee, tuple(args), jf.code_scope(call), line, col, tuple(sorted(named))))
        if len(found) >= MAX_PER_FILE:
            break
    out.url_arg_calls.extend(found)



def _parameters(jf: JsFile, node: Node) -> frozenset[str]:
    """The parameter names of the function around ``node`` (``path``, ``method`` in ``send(path: string,
    method = "GET", { body })``; a destructured one's names too): what a call there may hand on as a
    layer of a client (:mod:`indexer.frameworks.client_chains`). Empty at module level."""
    n = node.parent
    while n is not None and n.type != "program":
        if n.type in FUNCTION_NODES:
            params = n.child_by_field_name("parameters") or n.child_by_field_name("parameter")
            if params is None:
                return frozenset()
            if params.type == "identifier":  # `path => ...`
                return frozenset({jf.text(params)})
            names: set[str] = set()
            stack = list(params.named_children)
            while stack:
                p = stack.pop()
                if p.type in ("identifier", "shorthand_property_identifier_pattern"):
                    names.add(jf.text(p))
                elif p.type in ("required_parameter", "optional_parameter"):
                    stack.extend(x for x in (p.child_by_field_name("pattern"),) if x is not None)
                elif p.type in ("assignment_pattern", "object_assignment_pattern"):
                    stack.extend(x for x in (p.child_by_field_name("left"),) if x is not None)
                elif p.type in ("object_pattern", "array_pattern", "rest_pattern", "pair_pattern"):
                    stack.extend(p.child_by_field_name("value") and [p.child_by_field_name("value")] or
                                 [c for c in p.named_children if c.type != "property_identifier"])
            return frozenset(names)
        n = n.parent
    return frozenset()
