"""Hono routes, sub-application mounts and middleware (JavaScript and TypeScript).

Facts, from ``indexer/languages/ecmascript/queries/hono.scm`` and the rules below (framework ``hono``):

* ``Router("hono", name, prefix)`` for a module-level ``const app = new Hono()``; ``new
  Hono().basePath("/v1")`` gives the prefix ``/v1``.
* ``Route`` for ``X.get|post|put|delete|patch|options|all(path, ...middleware, handler)`` (``all`` ->
  ``["*"]``) and ``X.on(method | [methods], path, ...)``; ``router`` is ``X``. The handler is the last
  argument (an inline one becomes a definition named after the route, ``GET /posts/:id``, owning the
  calls in its body, as for Express); the arguments between path and handler are its
  ``Route.wrappers`` (kind ``middleware``; an inline one is ``middleware GET /posts/:id``).
* ``Mount("hono", X, child, prefix)`` for ``X.route(path, child)``.
* ``Wrapper("hono", "middleware", ..., router=X, path=...)`` for ``X.use([path,] ...middleware)``;
  a path's trailing ``*`` / ``/*`` is dropped (``/api/*`` wraps the routes under ``/api``); an inline
  middleware is a definition ``middleware X.use /api``.

``X`` is a Hono application when the file binds it to ``new Hono(...)`` (a ``basePath`` chain too;
any scope). Express's name rule (``app.get("/x", h)``) is off in a file importing ``hono``
(``express.py``). Positions: the call's start.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.common import JsFile, arguments, js_file, unwrap
from indexer.model import FileExtraction, Mount, Route, Router, Template, Wrapper, WrapperRef
from indexer.symbols import handler_name, path_text

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "hono"
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "all", "options"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Hono routers, routes, mounts and middleware to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("hono")
    if not matches or not jf.has(b"Hono"):
        return
    objects: set[str] = set()
    for caps in matches:
        if "declarator" not in caps:
            continue
        name = jf.text(caps["name"][0])
        objects.add(name)
        decl = caps["declarator"][0]
        if decl.parent is not None and decl.parent.parent is not None and decl.parent.parent.type in (
            "program", "export_statement"
        ):
            out.routers.append(Router(FRAMEWORK, name, _base_path(jf, caps["made"][0]), jf.src.line(decl)))
    for caps in matches:
        if "declarator" in caps:
            continue
        receiver = jf.receiver(caps["object"][0])
        if receiver not in objects:
            continue
        verb = jf.text(caps["verb"][0])
        args = arguments(caps["args"][0])
        call = caps["call"][0]
        if verb == "route":
            if len(args) == 2 and args[1].type in ("identifier", "member_expression"):
                child = jf.name_ref(args[1])
                if child is not None:
                    line, col = jf.pos(call)
                    out.mounts.append(Mount(FRAMEWORK, receiver, child, jf.template(args[0]), line, col))
        elif verb == "use":
            _use(jf, out, call, receiver, args)
        elif verb == "on":
            if len(args) >= 3:
                method = unwrap(args[0]) or args[0]
                values = method.named_children if method.type == "array" else [method]
                methods = [v.upper() for v in (jf.string(x) for x in values) if v]
                if methods:
                    _route(jf, out, call, receiver, methods, args[1], args[2:])
        elif verb in _VERBS and len(args) >= 2:
            _route(jf, out, call, receiver, ["*"] if verb == "all" else [verb.upper()], args[0], args[1:])


def _base_path(jf: JsFile, made: Node) -> Template:
    """The ``basePath("/v1")`` of ``new Hono().basePath("/v1")`` (empty when none)."""
    if made.type == "call_expression":
        fn = made.child_by_field_name("function")
        args = arguments(made.child_by_field_name("arguments"))
        if fn is not None and fn.type == "member_expression" and jf.text(fn.child_by_field_name("property")) == "basePath" and args:
            return jf.template(args[0])
    return Template()


def _route(
    jf: JsFile, out: FileExtraction, call: Node, receiver: str, methods: list[str], path_node: Node, rest: list[Node]
) -> None:
    if (unwrap(path_node) or path_node).type not in ("string", "template_string", "identifier", "member_expression",
                                                      "binary_expression"):
        return
    path = jf.template(path_node)
    name = handler_name(methods, path)
    wrappers: list[WrapperRef] = []
    for mw in rest[:-1]:
        runs = jf.runs(mw, call, f"middleware {name}")
        if runs is not None and (runs[0] or runs[1]):
            wrappers.append(WrapperRef("middleware", runs[0] or runs[1] or ""))
    found = jf.handler(unwrap(rest[-1]) or rest[-1], call, name)
    if found is None or found == (None, None):
        return
    line, col = jf.pos(call)
    out.routes.append(Route(FRAMEWORK, methods, path, found[0], line, col, found[1], receiver, wrappers))


def _use(jf: JsFile, out: FileExtraction, call: Node, receiver: str, args: list[Node]) -> None:
    path = Template()
    if args and (unwrap(args[0]) or args[0]).type in ("string", "template_string"):
        path = jf.template(args[0])
        text = path.literal()
        if text is not None:
            text = text.removesuffix("*").removesuffix("/")
            path = Template.of(text)
        args = args[1:]
    where = f"{receiver}.use" + (f" {path_text(path)}" if path.parts else "")
    line, col = jf.pos(call)
    for arg in args:
        node = unwrap(arg) or arg
        runs = jf.runs(node, call, f"middleware {where}")
        if runs is None or not (runs[0] or runs[1]):
            continue
        out.wrappers.append(Wrapper(FRAMEWORK, "middleware", runs[0], line, col, runs[1], receiver, path))
