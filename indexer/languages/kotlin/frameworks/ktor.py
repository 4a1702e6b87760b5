"""Ktor server routing -> :class:`~indexer.model.Route` (framework ``ktor``).

A route is a call ``get("/x") { ... }`` (also ``post``, ``put``, ``delete``, ``patch``, ``head``,
``options``, and ``webSocket`` / ``webSocketRaw`` / ``sse``, served on a ``GET``: :data:`VERBS`; ``get { }`` without a path is the enclosing route's own path) with a trailing lambda,
written inside a routing block: a lambda handed to ``routing``, ``route``, ``authenticate`` or
``rateLimit``, or the body of an extension function on ``Route`` / ``Routing`` (``fun
Route.users() { get("/u") { } }``). Its path is the ``route("/p")`` prefixes of the enclosing blocks
joined (one ``/`` between pieces: :func:`~indexer.frameworks.jvm.join_path`) with its own, made
absolute. The handler lambda becomes a function of its own named after the route (``GET /api/x``,
:mod:`indexer.symbols`), under the enclosing definition, owning the calls in its body; the route sits
at the verb's name.

Type-safe routing (the Resources plugin, and the older Locations): ``get<Users.Id> { }`` serves the
path of the class named, ``resource<Users> { get { } }`` is a ``route`` block with that path. A class
annotated ``@Resource("/users")`` (or ``@Location``) is a string constant ``Users.@Resource`` of its
file (:data:`RESOURCE_KEY`), so a route in another file names it as any constant (a ``ref`` piece the
linker resolves through the class's imports); a resource class nested in another whose constructor
takes a property of the enclosing class's type (``class Id(val parent: Users, val id: Long)``) has its
path below the enclosing class's (``/users/{id}``), as the plugin builds it.

The body of a verb's lambda is a handler, not a routing block: a call named like a verb inside it
(kotlinx.html's ``head { title("x") }``) is no route.

Not seen here: the prefix under which an extension function's routes are mounted when it is called
from another route block (``route("/api") { users() }``): its routes keep the path written in it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import join_path, rooted
from indexer.languages.kotlin.frameworks.common import (
    caller_at,
    declarations,
    definition_of,
    inline_function,
    string_arg,
    template,
)
from indexer.model import FileExtraction, Route, StringConstant, Template
from indexer.symbols import handler_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)
FRAMEWORK = "ktor"
VERBS = {"get": "GET", "post": "POST", "put": "PUT", "delete": "DELETE", "patch": "PATCH", "head": "HEAD",
         "options": "OPTIONS", "webSocket": "GET", "webSocketRaw": "GET", "sse": "GET"}
"""Route calls and their methods: a WebSocket session (``webSocket("/ws") { }``, the WebSockets plugin) and
a Server-Sent Events stream (``sse("/events") { }``, the SSE plugin) are served on a ``GET`` (the upgrade
handshake, the event stream), so a client's request for them links to the route."""
BLOCKS = frozenset({"routing", "route", "authenticate", "rateLimit"})
ROUTE_RECEIVERS = frozenset({"Route", "Routing"})
TYPED_BLOCKS = frozenset({"resource", "location"})
RESOURCE_ANNOTATIONS = frozenset({"Resource", "Location"})
RESOURCE_KEY = "@Resource"
"""The member name under which a resource class's path is a string constant (``Users.@Resource``):
no Kotlin identifier, so it names no property of the class."""


def _callee(src: SourceText, call: Node) -> str | None:
    first = call.named_children[0] if call.named_children else None
    return src.text(first) if first is not None and first.type == "simple_identifier" else None


def _lambda(call: Node) -> Node | None:
    suffix = call.named_children[-1] if call.named_children else None
    if suffix is None or suffix.type != "call_suffix":
        return None
    ann = next((c for c in suffix.named_children if c.type == "annotated_lambda"), None)
    return next((c for c in ann.named_children if c.type == "lambda_literal"), None) if ann is not None else None


def _type_argument(src: SourceText, call: Node) -> str | None:
    """The one type argument of ``get<Users.Id> { }`` as written (``Users.Id``), ``None`` when the
    call has none or several."""
    suffix = call.named_children[-1] if call.named_children else None
    if suffix is None or suffix.type != "call_suffix":
        return None
    targs = next((c for c in suffix.named_children if c.type == "type_arguments"), None)
    if targs is None or len(targs.named_children) != 1:
        return None
    utype = next((c for c in targs.named_children[0].named_children if c.type == "user_type"), None)
    if utype is None:
        return None
    ids = [src.text(c) for c in utype.named_children if c.type == "type_identifier"]
    return ".".join(ids) if ids and len(ids) == len(utype.named_children) else None


def _resource_ref(type_name: str) -> Template:
    return Template((("ref", f"{type_name}.{RESOURCE_KEY}"),))


def _parameter_names(path: Template) -> Template:
    """``path`` with a value interpolated inside a ``{...}`` parameter (``"{$name...}"``) read as the
    parameter's name: Ktor matches any segment there whatever the name's value."""
    parts = list(path.parts)
    depth = 0
    for i, (kind, text) in enumerate(parts):
        if kind == "lit":
            for ch in text:
                depth = depth + 1 if ch == "{" else max(depth - 1, 0) if ch == "}" else depth
        elif depth > 0:
            parts[i] = ("lit", text)
    return Template.merged(parts)


def _shown(path: Template) -> Template:
    """``path`` as a handler's name shows it: a resource class's path as the class (``{Users.Id}``)."""
    suffix = "." + RESOURCE_KEY
    return Template(tuple((k, t.removesuffix(suffix) if k == "ref" else t) for k, t in path.parts))


def _resources(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Each ``@Resource("/p")`` / ``@Location("/p")`` class of the file as the string constant
    ``<Class>.@Resource`` (see the module docstring), nested resources below their enclosing one."""
    paths: dict[int, str] = {}  # a resource class node's id -> its definition's qualname
    for node, anns in declarations(src, root):
        ann = next((a for a in anns if a.name in RESOURCE_ANNOTATIONS), None)
        if node.type not in ("class_declaration", "object_declaration") or ann is None or "value" not in ann.args:
            continue
        d = definition_of(out, src, node)
        if d is None:
            continue
        own = template(src, ann.args["value"])
        outer = node.parent.parent if node.parent is not None and node.parent.type == "class_body" else None
        parent_q = paths.get(outer.id) if outer is not None else None
        if parent_q is not None and outer is not None and _takes(src, node, _name(src, outer)):
            value = join_path(_resource_ref(parent_q), own)
        else:
            value = rooted(own)
        paths[node.id] = d.qualname
        out.constants.append(StringConstant(f"{d.qualname}.{RESOURCE_KEY}", value))


def _name(src: SourceText, decl: Node) -> str | None:
    name = next((c for c in decl.named_children if c.type == "type_identifier"), None)
    return src.text(name) if name is not None else None


def _takes(src: SourceText, cls: Node, type_name: str | None) -> bool:
    """Whether class ``cls``'s primary constructor has a parameter of type ``type_name``."""
    ctor = next((c for c in cls.named_children if c.type == "primary_constructor"), None)
    for p in ctor.named_children if ctor is not None else ():
        utype = next((c for c in p.named_children if c.type == "user_type"), None) if p.type == "class_parameter" else None
        if utype is not None and type_name is not None and src.text(utype).rsplit(".", 1)[-1] == type_name:
            return True
    return False


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Ktor routes to ``out.routes`` and make their handler blocks functions; the
    file's resource classes become string constants (:func:`_resources`)."""
    _resources(root, src, out)
    route_fns = {(d.start_line, d.start_col) for d in out.definitions
                 if d.receiver_type and d.receiver_type.rsplit(".", 1)[-1] in ROUTE_RECEIVERS}
    found: list[tuple[Node, Node, list[str], Template]] = []
    stack: list[tuple[Node, Template | None]] = [(root, None)]
    while stack:
        n, prefix = stack.pop()
        if n.type == "function_declaration":
            pos = (src.line(n), src.col(n))
            prefix = Template() if pos in route_fns else None
            mods = next((c for c in n.named_children if c.type == "modifiers"), None)
            if mods is not None and mods.named_children and (src.line(mods), src.col(mods)) in route_fns:
                prefix = Template()
        elif n.type == "call_expression":
            name = _callee(src, n)
            body = _lambda(n)
            typed = _type_argument(src, n) if body is not None else None
            if (name in BLOCKS or (name in TYPED_BLOCKS and typed is not None)) and body is not None:
                inner = prefix if prefix is not None else Template()
                if name == "route":
                    arg = string_arg(src, n, 0)
                    inner = join_path(inner, _parameter_names(template(src, arg))) if arg is not None else inner
                elif typed is not None:
                    inner = join_path(inner, _resource_ref(typed))
                for c in n.named_children[:-1]:
                    stack.append((c, prefix))
                stack.append((body, inner))
                continue
            if name in VERBS and body is not None and prefix is not None:
                arg = string_arg(src, n, 0)
                own = _resource_ref(typed) if typed is not None else \
                    _parameter_names(template(src, arg)) if arg is not None else None
                path = rooted(join_path(prefix, own) if own is not None else prefix)
                found.append((n, body, [VERBS[name]], path))
                stack.extend((c, None) for c in n.named_children)  # a handler: no routes below
                continue
        stack.extend((c, prefix) for c in n.named_children)
    found.sort(key=lambda f: f[0].start_byte)
    for call, body, methods, path in found:
        head = call.named_children[0]
        line, col = src.line(head), src.col(head)
        parent = caller_at(out, line, col)
        handler = inline_function(out, src, body, handler_name(methods, _shown(path)), parent)
        out.routes.append(Route(FRAMEWORK, methods, path, handler, line, col))
