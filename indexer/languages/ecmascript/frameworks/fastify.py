"""Fastify routes (JavaScript and TypeScript).

Facts (:class:`~indexer.model.Route`, framework ``fastify``), from
``indexer/languages/ecmascript/queries/fastify.scm`` and the rules below:

* ``F.get|post|put|delete|patch|options|head|all(path, [options,] handler)`` (``all`` -> ``["*"]``);
  the handler is the last argument, or the ``handler`` property of an options object given last
  (``F.get("/x", { schema, handler })``);
* ``F.route({ method, url, handler })``: ``method`` a string or an array of strings (``url`` or
  ``path``), upper-cased.

``F`` is a Fastify instance when it is bound in this file to ``Fastify(...)`` / ``fastify(...)`` /
``require("fastify")(...)`` (any scope), or its last part is named ``fastify`` / ``server`` /
``instance`` (a plugin: ``async function routes(fastify, opts) { fastify.get(...) }``), or ``app`` in a
file importing ``fastify`` (an ``app`` elsewhere is Express's, ``express.py``). For a named receiver
the path must be a literal starting with ``/``.

Handlers follow ``express.py``: a function of this file -> ``handler`` its qualname; a name or
property chain from elsewhere -> ``handler_ref``; an inline arrow / function becomes a definition of
its own named after the route (``GET /orders/:id``, :mod:`indexer.symbols`), owning its calls.
``router`` is ``None``: a prefix given by ``register(plugin, { prefix })`` is not applied (the paths are
the plugin's own). Positions: the call's start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import FileExtraction, Route, Template
from indexer.symbols import handler_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "fastify"
_NAMED = frozenset({"fastify", "server", "instance"})
_REQUIRES = (b'require("fastify")', b"require('fastify')")


def _fastify_file(jf: JsFile) -> bool:
    """Whether the file imports or requires ``fastify``."""
    return bool(jf.import_locals("fastify")) or jf.has(*_REQUIRES)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Fastify routes to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("fastify")
    if not matches:
        return
    objects = {jf.receiver(caps["name"][0]) for caps in matches if "factory" in caps}
    imported = _fastify_file(jf)
    for caps in matches:
        if "factory" in caps:
            continue
        receiver = jf.receiver(caps["object"][0])
        last = receiver.rpartition(".")[2]
        named = last in _NAMED or (imported and last == "app")
        if receiver not in objects and not named:
            continue
        verb = jf.text(caps["verb"][0])
        args = arguments(caps["args"][0])
        call = caps["call"][0]
        if verb == "route":
            _route_object(jf, out, call, args, check_path=receiver not in objects)
            continue
        if len(args) < 2:
            continue  # `app.get("key")` reads a decoration
        path = jf.template(args[0])
        if receiver not in objects and not _literal_slash(path):
            continue
        methods = ["*"] if verb == "all" else [verb.upper()]
        last_arg = unwrap(args[-1]) or args[-1]
        handler_node = jf.object_pairs(last_arg).get("handler") if last_arg.type == "object" else last_arg
        _emit(jf, out, call, methods, path, handler_node)


def _route_object(jf: JsFile, out: FileExtraction, call: Node, args: list[Node], check_path: bool) -> None:
    """``F.route({ method, url, handler })``."""
    if len(args) != 1:
        return
    config = jf.object_pairs(unwrap(args[0]))
    url = config.get("url") or config.get("path")
    method = unwrap(config.get("method"))
    if url is None or method is None:
        return
    path = jf.template(url)
    if check_path and not _literal_slash(path):
        return
    values = method.named_children if method.type == "array" else [method]
    methods = [v.upper() for v in (jf.string(x) for x in values) if v]
    if not methods:
        return
    _emit(jf, out, call, methods, path, config.get("handler"))


def _emit(jf: JsFile, out: FileExtraction, call: Node, methods: list[str], path: Template, node: Node | None) -> None:
    handler, ref = _handler(jf, node, call, handler_name(methods, path))
    if handler is None and ref is None:
        return
    line, col = jf.pos(call)
    out.routes.append(Route(FRAMEWORK, methods, path, handler, line, col, ref, None))


def _literal_slash(path: Template) -> bool:
    return bool(path.parts) and path.parts[0][0] == "lit" and path.parts[0][1].startswith("/")


def _handler(jf: JsFile, node: Node | None, call: Node, name: str) -> tuple[str | None, str | None]:
    """(handler, handler_ref) of a route's handler expression."""
    node = unwrap(node)
    if node is None:
        return None, None
    return jf.handler(node, call, name) or (None, None)
