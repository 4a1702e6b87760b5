"""The port an application's server listens on, as its own Python code says: ``uvicorn.run(app, port=8000)``,
Flask's / Sanic's ``app.run(port=5000)``, aiohttp's ``web.run_app(app, port=8080)``, Flask-SocketIO's
``socketio.run(app, port=5000)``, waitress' ``serve(app, port=8080)`` (a ``port=`` keyword of a call named
``run`` / ``run_app`` / ``serve``): a :class:`~indexer.model.ListenPort` of the port a development run
listens on (:func:`_value`): a literal, ``int(os.environ.get("PORT", 8000))`` / ``os.getenv("PORT", "5000")``
(the default), a name the module or the function assigns once. The linker names the file's application as
the one a loopback client of that port reaches (:mod:`indexer.frameworks.app_ports`).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.languages.base import SourceText, query, run_query
from indexer.languages.python.frameworks.common import Args, compact, local_value, string_value
from indexer.model import FileExtraction, ListenPort, Template

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
_MAX_DEPTH = 8
_PORT_KEYWORD = re.compile(rb"\bport\s*=(?!=)")
_ENV_GETTERS = frozenset({"os.getenv", "os.environ.get", "getenv", "environ.get"})
_NUMBER_CALLS = frozenset({"int", "str"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Record each server start of the file whose ``port=`` is known."""
    if _PORT_KEYWORD.search(src.data) is None:
        return  # no `port=` keyword: nothing to match (a plain `b"port"` test would pass every `import`)
    assigned = _module_values(src, root)
    for _, caps in run_query(query("python", "python/queries", "listen_ports"), root):
        port = _value(src, assigned, caps["port"][0], 0)
        if port is not None:
            call = caps["listen_call"][0]
            out.listen_ports.append(ListenPort(Template.of(port), src.line(call), src.col(call)))


def _value(src: SourceText, assigned: dict[str, list[Node | None]], node: Node, depth: int) -> str | None:
    """The text of the port ``node`` gives when the environment sets nothing (module docstring; ``assigned``:
    :func:`_module_values`); ``None`` for anything else or nested deeper than :data:`_MAX_DEPTH`."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if depth > _MAX_DEPTH:
        return None
    if node.type == "integer":
        return src.text(node)
    if node.type in ("string", "concatenated_string"):
        return string_value(src, node)
    if node.type == "call":
        callee = compact(src, node.child_by_field_name("function"))
        args = Args.of(src, node.child_by_field_name("arguments"))
        inner = args.get(1, "default") if callee in _ENV_GETTERS else args.get(0, "x") if callee in _NUMBER_CALLS else None
        return _value(src, assigned, inner, depth + 1) if inner is not None else None
    if node.type == "boolean_operator" and src.text(node.child_by_field_name("operator")) == "or":
        right = node.child_by_field_name("right")
        return _value(src, assigned, right, depth + 1) if right is not None else None
    if node.type == "identifier":
        values = assigned.get(src.text(node), ())
        value = local_value(src, node) or (values[0] if len(values) == 1 else None)
        return _value(src, assigned, value, depth + 1) if value is not None else None
    return None


def _module_values(src: SourceText, root: Node) -> dict[str, list[Node | None]]:
    """The values of the file's module-level ``name = value`` statements by name, in file order; read once per
    file (a name is taken when it is assigned once), not once per server start: a file of 16,000
    ``uvicorn.run(app, port=P)`` read its statements 16,000 times (20 s)."""
    found: dict[str, list[Node | None]] = {}
    for stmt in root.named_children:
        if stmt.type == "expression_statement" and stmt.named_children:  # grammars before 0.23 wrap it
            stmt = stmt.named_children[0]
        if stmt.type == "assignment":  # `P: int` (no value) counts as an assignment too
            found.setdefault(src.text(stmt.child_by_field_name("left")), []).append(stmt.child_by_field_name("right"))
    return found
