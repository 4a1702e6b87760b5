"""The port an application's server listens on, as its own code says (JavaScript and TypeScript).

``X.listen(port, ...)`` (Express's ``app.listen``, Koa's, Node's ``http.Server.listen``, Nest's ``await
app.listen(3000)``) and Fastify's ``fastify.listen({ port: 3000 })`` give a :class:`~indexer.model.ListenPort`
of the port a development run listens on (:func:`_value`): a literal, ``process.env.PORT || 3000`` (its
fallback), a ``const`` of the file holding one (``const PORT = process.env.PORT || 3000``), ``parseInt(...)`` of
one. A value read elsewhere (``config.port``, an imported constant) is no port. The linker names the file's application as the one a loopback client of that port
reaches (:mod:`indexer.frameworks.app_ports`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.ecmascript.frameworks.common import JsFile, js_file, unwrap
from indexer.model import ListenPort, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Record each ``X.listen(port)`` / ``X.listen({ port })`` of the file whose port is partly known."""
    if b".listen(" not in src.data:
        return  # the query runs only on files that can match (it is no section of the shared pass)
    jf = js_file(root, src, out)
    for _, caps in run_query(query(jf.grammar, "ecmascript/queries", "listen_ports"), root):
        arg: Node | None = unwrap(caps["port"][0]) or caps["port"][0]
        if arg is not None and arg.type == "object":
            arg = jf.object_pairs(arg).get("port")
            arg = unwrap(arg) or arg if arg is not None else None
        port = _value(jf, arg, 0) if arg is not None else None
        if port is not None:
            line, col = jf.pos(caps["listen_call"][0])
            out.listen_ports.append(ListenPort(Template.of(port), line, col))


_MAX_DEPTH = 8
_NUMBER_CALLS = frozenset({"parseInt", "Number", "parseFloat"})


def _value(jf: JsFile, node: Node, depth: int) -> str | None:
    """The text of the port ``node`` gives when the environment sets nothing: a number or string literal;
    ``process.env.PORT || 3000`` / ``?? 3000`` its known side (the right one first: the fallback); a local or
    module-level ``const`` its initialiser's; ``parseInt(x, 10)`` / ``Number(x)`` that of ``x``; ``None``
    for anything else (a member of a configuration object, a call), or nested deeper than :data:`_MAX_DEPTH`."""
    node = unwrap(node) or node
    if depth > _MAX_DEPTH:
        return None
    if node.type == "number":
        return jf.text(node)
    if node.type in ("string", "template_string"):
        return jf.string(node)
    if node.type == "binary_expression" and jf.text(node.child_by_field_name("operator")) in ("||", "??"):
        for side in ("right", "left"):
            child = node.child_by_field_name(side)
            found = _value(jf, child, depth + 1) if child is not None else None
            if found is not None:
                return found
        return None
    if node.type == "identifier":
        init = jf.local_value(node)
        if init is None:
            values = jf.module_values(jf.text(node))
            init = values[0] if len(values) == 1 else None
        return _value(jf, init, depth + 1) if init is not None else None
    if node.type == "call_expression" and jf.text(node.child_by_field_name("function")) in _NUMBER_CALLS:
        args = node.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and args.named_children else None
        return _value(jf, first, depth + 1) if first is not None else None
    return None
