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
file importing ``fastify`` (an ``app`` elsewhere is Express's, ``express.py``), or, in a file importing
``fastify``, the first parameter of the function around the call (a plugin, below). For a named receiver
the path must be a literal starting with ``/``.

Handlers follow ``express.py``: a function of this file -> ``handler`` its qualname; a name or
property chain from elsewhere -> ``handler_ref``; an inline arrow / function becomes a definition of
its own named after the route (``GET /orders/:id``, :mod:`indexer.symbols`), owning its calls.
Positions: the call's start.

Plugins and prefixes: ``router`` is what the routes hang on. When ``F`` is the first parameter of
the function around the call (a plugin: ``async function routes(fastify, opts) {...}``), ``router``
is that function's qualname and a :class:`~indexer.model.Router` record names it, so that
``app.register(routes, { prefix: "/v1" })`` (a :class:`~indexer.model.Mount` with the child as
written: a name, ``require("./x")``, ``import("./x")``) puts its routes under ``/v1``. An inline
plugin ``app.register(async (instance) => {...}, { prefix })`` becomes a definition of its own,
``plugin /v1`` (``plugin`` without a prefix), owning its calls and standing for its routes the
same way. A plugin wrapped in ``fastify-plugin`` (``fp(async (f) => ...)``) shares its parent's scope:
its routes and hooks have ``router`` ``None`` (the application). A Fastify instance of this file
(``const app = Fastify()``) is its own ``router``; a receiver matched by name only keeps ``None``.
A package's plugin (``@fastify/cors``) is no mount.

Hooks (issue 14): ``F.addHook(name, fn)`` for the request hooks (``onRequest``, ``preParsing``,
``preValidation``, ``preHandler``, ``preSerialization``, ``onSend``, ``onResponse``, ``onTimeout``,
``onRequestAbort``: kind ``hook``; ``onError``: ``error_handler``) is a
:class:`~indexer.model.Wrapper` of ``F``'s router (above); an inline hook is a definition named
``hook onRequest``. A route's own hooks, from its options object (``{ preHandler: [auth],
onRequest: fn }``, in the ``F.route({...})`` object too), are its ``Route.wrappers`` in the order
Fastify runs them. Application hooks (``onReady``, ``onClose``, ``onRoute``, ...) wrap no request
and are left out.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import FUNCTION_TYPES, JsFile, arguments, js_file, unwrap
from indexer.model import FileExtraction, Mount, Route, Router, Template, Wrapper, WrapperRef
from indexer.symbols import handler_name, path_text

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "fastify"
_NAMED = frozenset({"fastify", "server", "instance"})
_REQUIRES = (b'require("fastify")', b"require('fastify')")
# Request hooks in the order Fastify runs them (onError when a step throws).
_HOOKS = ("onRequest", "preParsing", "preValidation", "preHandler", "preSerialization", "onSend", "onResponse",
          "onTimeout", "onRequestAbort", "onError")
_FUNCTIONS = frozenset({"function_declaration", "function_expression", "arrow_function", "generator_function",
                        "generator_function_declaration", "method_definition"})


def _fastify_file(jf: JsFile) -> bool:
    """Whether the file imports or requires ``fastify``."""
    return bool(jf.import_locals("fastify")) or jf.has(*_REQUIRES)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Fastify routes, plugin routers, mounts and hooks to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("fastify")
    if not matches:
        return
    objects = {jf.receiver(caps["name"][0]) for caps in matches if "factory" in caps}
    imported = _fastify_file(jf)
    d = _Detector(jf, out, objects)
    calls = []
    for caps in matches:
        if "factory" in caps:
            continue
        receiver = jf.receiver(caps["object"][0])
        last = receiver.rpartition(".")[2]
        named = last in _NAMED or (imported and last == "app")
        if receiver not in objects and not named and not (imported and d.plugin_of(caps["call"][0], receiver)):
            continue
        calls.append((caps, receiver))
    for caps, receiver in calls:  # inline plugins first: the routes inside them hang on them
        if jf.text(caps["verb"][0]) == "register":
            d.register(caps, receiver)
    for caps, receiver in calls:
        verb = jf.text(caps["verb"][0])
        args = arguments(caps["args"][0])
        call = caps["call"][0]
        if verb == "register":
            continue
        if verb == "addHook":
            d.hook(call, receiver, args)
            continue
        if verb == "route":
            d.route_object(call, receiver, args, check_path=receiver not in objects)
            continue
        if len(args) < 2:
            continue  # `app.get("key")` reads a decoration
        path = jf.template(args[0])
        if receiver not in objects and not _literal_slash(path):
            continue
        methods = ["*"] if verb == "all" else [verb.upper()]
        last_arg = unwrap(args[-1]) or args[-1]
        options = jf.object_pairs(args[1]) if len(args) == 3 else {}
        if last_arg.type == "object":
            options = jf.object_pairs(last_arg)
            handler_node = options.get("handler")
        else:
            handler_node = last_arg
        d.emit(call, receiver, methods, path, handler_node, options)


class _Detector:
    def __init__(self, jf: JsFile, out: FileExtraction, objects: set[str]) -> None:
        self.jf = jf
        self.out = out
        self.objects = objects
        self.routers: set[str] = set()
        self.plugins: dict[int, str] = {}  # inline plugin function node id -> its qualname

    def plugin_of(self, call: Node, receiver: str) -> str | None:
        """The qualname of the plugin function ``receiver`` is the first parameter of (the function
        around ``call``), or ``None``."""
        n = call.parent
        while n is not None and n.type not in _FUNCTIONS:
            n = n.parent
        if n is None:
            return None
        params = n.child_by_field_name("parameters")
        first = n.child_by_field_name("parameter")
        if first is None and params is not None:
            named = [p for p in params.named_children if p.type != "comment"]
            first = named[0] if named else None
        if first is not None and first.type in ("required_parameter", "optional_parameter"):
            first = first.child_by_field_name("pattern")
        if first is None or self.jf.text(first) != receiver:
            return None
        if n.id in self.plugins:
            return self.plugins[n.id]
        scope = self.jf.code_scope(first)
        return scope

    def router(self, call: Node, receiver: str) -> str | None:
        """The router routes and hooks registered on ``receiver`` at ``call`` hang on."""
        plugin = self.plugin_of(call, receiver)
        if plugin is not None:
            if plugin not in self.routers:
                self.routers.add(plugin)
                d = next((x for x in self.out.definitions if x.qualname == plugin), None)
                self.out.routers.append(Router(FRAMEWORK, plugin, Template(), d.start_line if d else self.jf.pos(call)[0]))
            return plugin
        return receiver if receiver in self.objects else None

    def register(self, caps: dict[str, list[Node]], receiver: str) -> None:
        """``F.register(plugin, { prefix })``: a mount of the plugin under its prefix."""
        jf = self.jf
        call = caps["call"][0]
        args = arguments(caps["args"][0])
        if not args:
            return
        options = jf.object_pairs(args[1]) if len(args) > 1 else {}
        prefix = jf.template(options["prefix"]) if "prefix" in options else Template()
        plugin = unwrap(args[0]) or args[0]
        child: str | None = None
        if plugin.type in FUNCTION_TYPES:
            child = jf.inline_function(plugin, "plugin" + (f" {path_text(prefix)}" if prefix.parts else ""))
            self.plugins[plugin.id] = child
        elif plugin.type in ("identifier", "member_expression"):
            child = jf.name_ref(plugin)
            module = jf.imported(child.split(".", 1)[0]) if child else None
            if module is not None and not module.startswith("."):
                return  # a package's plugin
        elif plugin.type in ("call_expression", "await_expression"):
            inner = plugin.named_children[0] if plugin.type == "await_expression" else plugin
            fn = inner.child_by_field_name("function")
            spec = arguments(inner.child_by_field_name("arguments"))
            if fn is not None and jf.text(fn) in ("require", "import") and len(spec) == 1:
                text = jf.string(spec[0])
                if text is not None and text.startswith("."):
                    child = f'require("{text}")'
        if child is None:
            return
        parent = self.router(call, receiver)
        if parent is None:
            return
        line, col = jf.pos(call)
        self.out.mounts.append(Mount(FRAMEWORK, parent, child, prefix, line, col))

    def hook(self, call: Node, receiver: str, args: list[Node]) -> None:
        """``F.addHook("onRequest", fn)``."""
        if len(args) != 2:
            return
        name = self.jf.string(args[0])
        if name not in _HOOKS:
            return
        runs = self.jf.runs(args[1], call, f"hook {name}")
        if runs is None or not (runs[0] or runs[1]):
            return
        line, col = self.jf.pos(call)
        kind = "error_handler" if name == "onError" else "hook"
        self.out.wrappers.append(Wrapper(FRAMEWORK, kind, runs[0], line, col, runs[1], self.router(call, receiver)))

    def route_object(self, call: Node, receiver: str, args: list[Node], check_path: bool) -> None:
        """``F.route({ method, url, handler })``."""
        jf = self.jf
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
        self.emit(call, receiver, methods, path, config.get("handler"), config)

    def emit(
        self, call: Node, receiver: str, methods: list[str], path: Template, node: Node | None, options: dict[str, Node]
    ) -> None:
        jf = self.jf
        name = handler_name(methods, path)
        wrappers: list[WrapperRef] = []
        for hook in _HOOKS:
            value = unwrap(options.get(hook))
            if value is None:
                continue
            for item in value.named_children if value.type == "array" else [value]:
                runs = jf.runs(item, call, f"hook {hook} {name}")
                if runs is not None and (runs[0] or runs[1]):
                    wrappers.append(WrapperRef("error_handler" if hook == "onError" else "hook", runs[0] or runs[1] or ""))
        handler, ref = _handler(jf, node, call, name)
        if handler is None and ref is None:
            return
        line, col = jf.pos(call)
        out_router = self.router(call, receiver)
        self.out.routes.append(Route(FRAMEWORK, methods, path, handler, line, col, ref, out_router, wrappers))


def _literal_slash(path: Template) -> bool:
    return bool(path.parts) and path.parts[0][0] == "lit" and path.parts[0][1].startswith("/")


def _handler(jf: JsFile, node: Node | None, call: Node, name: str) -> tuple[str | None, str | None]:
    """(handler, handler_ref) of a route's handler expression."""
    node = unwrap(node)
    if node is None:
        return None, None
    return jf.handler(node, call, name) or (None, None)
