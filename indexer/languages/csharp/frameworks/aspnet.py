"""ASP.NET Core routes: attribute-routed controllers and minimal APIs (framework ``aspnet``).

* Controllers: a class marked ``[ApiController]`` / ``[Controller]``, or named ``*Controller`` and
  deriving from ``Controller`` / ``ControllerBase``, or a POCO controller (public, concrete,
  non-generic, named ``*Controller``, routed by attributes; see :func:`_is_controller`). Its ``[Route("api/[controller]")]`` is the prefix
  (``[controller]`` -> the class name without ``Controller``, ``[action]`` -> the method's name, both
  lower-cased: ASP.NET Core matches paths case-insensitively and clients write them lower-case;
  ``[area]`` stays as written). An Ardalis.ApiEndpoints endpoint (a class deriving from
  ``EndpointBaseAsync.WithRequest<T>.WithResult<R>`` / ``EndpointBaseSync...``, or the older
  ``BaseAsyncEndpoint<T, R>`` / ``BaseEndpoint<T, R>``: a ``ControllerBase`` with one action) is such a
  controller, routed by its attributes only (``[HttpPost("api/authenticate")]`` on ``HandleAsync``;
  ``[controller]`` is the class's name). Each method with ``[HttpGet]`` / ``[HttpPost]`` / ``[HttpPut]`` /
  ``[HttpDelete]`` / ``[HttpPatch]`` / ``[HttpHead]`` / ``[HttpOptions]`` (its template joined to
  the prefix; a template starting ``/`` or ``~/`` is absolute) or ``[AcceptVerbs("GET", ...)]``, and
  a method with only ``[Route("x")]`` (any method), is a route handled by the method. A controller
  without ``[Route]`` or ``[ApiController]`` is conventionally routed: its public actions without a
  template of their own answer ``/{controller}/{action}`` (the default pattern of
  ``MapDefaultControllerRoute``; a pattern configured otherwise is not read). Constraints and
  optional markers are dropped: ``{id:int}`` / ``{id?}`` -> ``{id}``; a catch-all ``{*path}`` ->
  ``{path}``.
* Minimal APIs: ``X.MapGet|MapPost|MapPut|MapDelete|MapPatch(pattern, handler)``,
  ``X.MapMethods(pattern, new[] { "GET" }, handler)`` (the verbs as literals or ``HttpMethods.Options`` /
  ``HttpMethod.Get.Method`` constants, in an array or a collection expression ``[HttpMethods.Options]``;
  none read: ``*``), and groups ``var g = X.MapGroup("/api")``
  (prefix; groups of groups too, same file; the group's fluent calls after it,
  ``X.MapGroup("/api").HasApiVersion(1.0).RequireAuthorization()``, return the group); a lambda handler becomes a definition named after the
  route (``GET /todos/{id}``), a method group (``Handlers.GetTodo``) a ``handler_ref``. An
  application's own ``MapPost(handler, pattern = "")`` extension (a handler first, then at most a
  string: no overload of ASP.NET's) reads the same; a ``RouteGroupBuilder`` parameter of a method of
  an endpoint-group class (``class TodoItems : IEndpointGroup { static void Map(RouteGroupBuilder g)
  { g.MapPut(UpdateTodoItem, "{id}"); } }``, grouped by reflection at run time) is the group
  ``/{}/TodoItems``: an unknown head, then the class's name, the convention such groups follow
  (:func:`_parameter_group`).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import CsFile, attribute_args, attribute_name, cs_file
from indexer.model import Definition, FileExtraction, Route, StringConstant, Template, drop_generics
from indexer.symbols import ROUTE_TOKEN_CONVENTION, ROUTE_TOKEN_TRANSFORMER, handler_name

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "route_template"]

LANGUAGES = ("csharp",)
FRAMEWORK = "aspnet"
_HTTP_ATTRS = {"HttpGet": "GET", "HttpPost": "POST", "HttpPut": "PUT", "HttpDelete": "DELETE",
               "HttpPatch": "PATCH", "HttpHead": "HEAD", "HttpOptions": "OPTIONS"}
_MAP = {"MapGet": "GET", "MapPost": "POST", "MapPut": "PUT", "MapDelete": "DELETE", "MapPatch": "PATCH"}
_VERB_CONSTANT = re.compile(r"\bHttpMethods?\.(Get|Post|Put|Delete|Patch|Head|Options|Trace|Connect)\b")
_ROUTE_ATTRS = frozenset(_HTTP_ATTRS) | {"AcceptVerbs", "Route"}
_HANDLER_NODES = frozenset({"identifier", "member_access_expression", "lambda_expression", "anonymous_method_expression"})
_STRING_NODES = frozenset({"string_literal", "verbatim_string_literal", "interpolated_string_expression",
                           "raw_string_literal"})
_GROUP_TYPES = frozenset({"RouteGroupBuilder"})
_THIS_GROUP = re.compile(r"\(\s*this\s+(?:[\w.]+\.)?RouteGroupBuilder\s+(\w+)")
"""An extension method's receiver of a group type in its signature (``(this RouteGroupBuilder group``)."""
_NON_ACTIONS = {"Dispose", "OnActionExecuting", "OnActionExecuted", "OnActionExecutionAsync"}  # [NonAction] in Controller
_ENDPOINT_BASES = frozenset({"EndpointBaseAsync", "EndpointBaseSync", "BaseAsyncEndpoint", "BaseEndpoint"})
"""Ardalis.ApiEndpoints' base classes (the head of ``EndpointBaseAsync.WithRequest<T>.WithResult<R>``)."""
_PARAM = re.compile(r"\{\**(\w+)(?::[^{}]*)?\??\}")


def route_template(text: str) -> str:
    """An ASP.NET route template as a path: constraints, optional and catch-all markers dropped."""
    return _PARAM.sub(r"{\1}", text)


def _join(prefix: str, tmpl: str) -> str:
    if tmpl.startswith(("/", "~/")):
        return "/" + tmpl.lstrip("~/")
    if not tmpl:
        return "/" + prefix.strip("/") if prefix else "/"
    return "/" + "/".join(p.strip("/") for p in (prefix, tmpl) if p.strip("/"))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's controller and minimal-API routes to ``out``."""
    cf = cs_file(root, src, out)
    data = src.data
    if b"Controller" in data or b"[Http" in data:
        _controllers(cf, out)
    if b".Map" in data:
        _minimal(cf, out)
    if b"RouteTokenTransformerConvention" in data or b"IOutboundParameterTransformer" in data:
        _token_transformers(cf, root, out)


_SLUGIFY = re.compile(r'"\(\[a-z\]\)\(\[A-Z\]\)"\s*,\s*"\$1(.)\$2"\s*\)\s*\.ToLower(?:Invariant)?\s*\(')
"""The documented slugify body, ``Regex.Replace(value, "([a-z])([A-Z])", "$1-$2").ToLower()``: the separator."""


def _token_transformers(cf: CsFile, root: Node, out: FileExtraction) -> None:
    """The route token transformer facts of a file (:mod:`indexer.frameworks.route_tokens`): the class each
    ``new RouteTokenTransformerConvention(new X())`` uses, and each class implementing
    ``IOutboundParameterTransformer`` whose class body slugifies (:data:`_SLUGIFY`) with its separator."""
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "object_creation_expression" or \
                cf.expr(n.child_by_field_name("type")).rsplit(".", 1)[-1] != "RouteTokenTransformerConvention":
            continue
        args = cf.args(n)
        if args and args[0].type == "object_creation_expression":
            name = drop_generics(cf.expr(args[0].child_by_field_name("type"))).rsplit(".", 1)[-1]
            out.constants.append(StringConstant(ROUTE_TOKEN_CONVENTION, Template.of(name)))
    lines = cf.src.data.split(b"\n")
    for d in out.definitions:
        if d.kind == "class" and any(b.rsplit(".", 1)[-1] == "IOutboundParameterTransformer"
                                      for b in (*d.bases, *d.implements)):
            body = b"\n".join(lines[d.start_line - 1:d.end_line]).decode("utf-8", errors="replace")
            found = _SLUGIFY.search(body)
            if found is not None:
                out.constants.append(StringConstant(ROUTE_TOKEN_TRANSFORMER + d.name, Template.of(found.group(1))))


def _is_controller(d: Definition, defs: list[Definition]) -> bool:
    """ASP.NET Core's controller discovery (``ControllerFeatureProvider``): ``[ApiController]`` or
    ``[Controller]``, a ``*Controller`` deriving from ``Controller`` / ``ControllerBase``, or a POCO
    controller: a public, concrete, non-generic class named ``*Controller`` with no base of those,
    taken only when it routes by attributes (its own ``[Route]`` or an action's ``[HttpGet]``...:
    a plain ``*Controller`` class of a game or a desktop app is no controller). Never one marked
    ``[NonController]``."""
    names = {attribute_name(a) for a in d.decorators}
    if "NonController" in names:
        return False
    if names & {"ApiController", "Controller"} or _is_endpoint_class(d):
        return True
    if not d.name.endswith("Controller"):
        return False
    if any(b.rsplit(".", 1)[-1] in ("Controller", "ControllerBase") for b in d.bases):
        return True
    if "public" not in d.modifiers or {"abstract", "static"} & set(d.modifiers) \
            or re.search(rf"\b{d.name}\s*<", d.signature or ""):
        return False
    return "Route" in names or any(m.parent == d.qualname and m.kind == "method" and any(
        attribute_name(a) in _ROUTE_ATTRS for a in m.decorators) for m in defs)


def _is_endpoint_class(d: Definition) -> bool:
    """Whether ``d`` derives from an Ardalis.ApiEndpoints base (:data:`_ENDPOINT_BASES`)."""
    return any(b.split(".", 1)[0] in _ENDPOINT_BASES for b in d.bases)


def _controllers(cf: CsFile, out: FileExtraction) -> None:
    defs = list(out.definitions)
    for cls in defs:
        if cls.kind != "class" or not _is_controller(cls, defs):
            continue
        prefixes = [attribute_args(a) for a in cls.decorators if attribute_name(a) == "Route"] or [""]
        token = cls.name.removesuffix("Controller")
        conventional = prefixes == [""] and "ApiController" not in {attribute_name(a) for a in cls.decorators} \
            and not _is_endpoint_class(cls)
        for m in defs:
            if m.parent != cls.qualname or m.kind != "method" or "static" in m.modifiers:
                continue
            if conventional and _conventional(cf, out, m, token):
                continue
            verbs: list[tuple[list[str], str | None]] = []
            routes = []
            for a in m.decorators:
                name = attribute_name(a)
                if name in _HTTP_ATTRS:
                    verbs.append(([_HTTP_ATTRS[name]], attribute_args(a)))
                elif name == "AcceptVerbs":
                    verbs.append(([v.upper() for v in re.findall(r'"(\w+)"', a)], ""))
                elif name == "Route":
                    routes.append(attribute_args(a))
            if not verbs and routes:
                verbs = [(["*"], r) for r in routes]
            elif verbs and routes and all(t == "" for _, t in verbs):
                verbs = [(ms, r) for ms, _ in verbs for r in routes]
            for methods, tmpl in verbs:
                for prefix in prefixes:
                    if tmpl is None or prefix is None:
                        continue
                    path = _join(prefix, tmpl).replace("[controller]", token.lower()).replace("[action]", m.name.lower())
                    out.routes.append(Route(FRAMEWORK, methods, Template.of(route_template(path)), m.qualname,
                                            m.name_line, m.name_col))


def _conventional(cf: CsFile, out: FileExtraction, m: Definition, token: str) -> bool:
    """A conventionally routed action (its controller has no ``[Route]``, it has no template of
    its own): routed by the default pattern ``{controller}/{action}/{id?}`` that
    ``MapDefaultControllerRoute()`` / ``MapControllerRoute`` declare, as ``/{controller}/{action}``
    lower-cased, for its verb attributes' methods (any method without one). Only a public method
    not marked ``[NonAction]`` (nor one of ``Controller``'s own, ``Dispose``, ``OnActionExecuting``...)
    is an action. Whether ``m`` was handled here."""
    names = [attribute_name(a) for a in m.decorators]
    if "Route" in names or any(attribute_args(a) for a in m.decorators if attribute_name(a) in _HTTP_ATTRS):
        return False  # attribute-routed
    if "public" not in m.modifiers or "NonAction" in names or m.name in _NON_ACTIONS:
        return True
    methods = [_HTTP_ATTRS[n] for n in names if n in _HTTP_ATTRS]
    for a in m.decorators:
        if attribute_name(a) == "AcceptVerbs":
            methods += [v.upper() for v in re.findall(r'"(\w+)"', a)]
    path = f"/{token.lower()}/{m.name.lower()}"
    out.routes.append(Route(FRAMEWORK, methods or ["*"], Template.of(path), m.qualname, m.name_line, m.name_col))
    return True


def _minimal(cf: CsFile, out: FileExtraction) -> None:
    groups: dict[str, Template] = {}
    for call in cf.calls:  # groups first, in source order (a group of a group)
        sel = cf.member(call)
        if sel is None or sel[1] != "MapGroup":
            continue
        decl = _chain_end(call).parent
        while decl is not None and decl.type in ("equals_value_clause", "await_expression"):
            decl = decl.parent
        args = cf.args(call)
        if decl is None or decl.type != "variable_declarator" or not args:
            continue
        base = groups.get(sel[0], Template())
        tmpl = cf.name_template(args[0]) or Template()
        groups[cf.text(decl.child_by_field_name("name") or decl.named_children[0])] = _joined(base, tmpl)
    for call in sorted(cf.calls, key=lambda n: n.start_byte):
        sel = cf.member(call)
        if sel is None:
            continue
        recv, name = sel
        args = cf.args(call)
        pattern: Node | None
        if name in _MAP and _handler_first(args):  # the application's own MapGet(handler, pattern = "")
            methods, pattern, handler = [_MAP[name]], (args[1] if len(args) > 1 else None), args[0]
        elif name in _MAP and len(args) >= 2:
            methods, pattern, handler = [_MAP[name]], args[0], args[-1]
        elif name == "MapMethods" and len(args) >= 3:
            methods = _verbs(cf.text(args[1]))
            pattern, handler = args[0], args[-1]
        else:
            continue
        tmpl = cf.name_template(pattern) if pattern is not None else Template()
        if tmpl is None:
            continue
        if recv in groups:
            path = _joined(groups[recv], tmpl)
        else:
            group = _parameter_group(cf, call, recv)
            if group is None:
                path = _joined(Template(), tmpl)
            else:  # the unknown head, then the group's path and the pattern (`/{group}`, not `/{group}/`)
                rest = _joined(Template.of(group), tmpl)
                path = Template((("lit", "/"), ("hole", recv), *(() if rest.literal() == "/" else rest.parts)))
        path = Template.merged((k, route_template(t) if k == "lit" else t) for k, t in path.parts)
        line, col = cf.pos(call)
        scope = cf.owner(call)
        if handler.type in ("lambda_expression", "anonymous_method_expression"):
            out.routes.append(Route(FRAMEWORK, methods, path, cf.inline_function(handler, handler_name(methods, path),
                                                                                   scope), line, col))
        elif handler.type in ("identifier", "member_access_expression"):
            out.routes.append(Route(FRAMEWORK, methods, path, None, line, col, handler_ref=cf.expr(handler),
                                    scope=scope))


def _verbs(text: str) -> list[str]:
    """The HTTP methods of ``MapMethods``' second argument, in order, each once: string literals
    (``new[] { "GET", "HEAD" }``) and the framework's constants (``HttpMethods.Options``,
    ``HttpMethod.Get.Method``); ``["*"]`` when none is read (a variable)."""
    found = [(m.start(), m.group(1).upper()) for m in re.finditer(r'"(\w+)"', text)]
    found += [(m.start(), m.group(1).upper()) for m in _VERB_CONSTANT.finditer(text)]
    return list(dict.fromkeys(v for _, v in sorted(found))) or ["*"]


def _handler_first(args: list[Node]) -> bool:
    """Whether a ``MapGet`` / ``MapPost`` / ... call's arguments are a handler then at most a string
    pattern (``group.MapPut(UpdateTodoItem, "{id}")``, ``group.MapPost(CreateTodoItem)``): the shape of
    an application's own extension method forwarding to ASP.NET's ``MapPut(pattern, handler)`` (the
    pattern, left out, is the group's own path); ASP.NET's overloads all take the pattern first."""
    return bool(args) and args[0].type in _HANDLER_NODES and (
        len(args) == 1 or (len(args) == 2 and args[1].type in _STRING_NODES))


def _parameter_group(cf: CsFile, call: Node, recv: str) -> str | None:
    """The path a route group handed to a method as a ``RouteGroupBuilder`` parameter names, after an
    unknown head (the caller's prefix, set at run time): by the convention of endpoint-group classes
    (``class TodoItems : IEndpointGroup { static void Map(RouteGroupBuilder group) ... }``, found by
    reflection over the group classes and mapped under ``/api/{class name}``) ``/<class name>`` for
    a method of a class with a base type or an interface that is not an extension method; ``""``
    (the head only) for any other such parameter, an extension method's included
    (``static RouteGroupBuilder MapTodos(this RouteGroupBuilder group)``, called as
    ``app.MapGroup("/todos").MapTodos()``: the caller names the prefix, not the class). ``None``
    when ``recv`` is no such parameter (nor the receiver) of the method around ``call``."""
    owner = cf.owner(call)
    method = next((d for d in cf.out.definitions if d.qualname == owner and d.kind == "method"), None)
    if method is None or method.parent is None:
        return None
    this = _THIS_GROUP.search(method.signature)
    if this is not None and this.group(1) == recv:  # the `this` parameter is not in `params`
        return ""
    if not any(p.name == recv and p.type and p.type.rsplit(".", 1)[-1] in _GROUP_TYPES for p in method.params):
        return None
    cls = next((d for d in cf.out.definitions if d.qualname == method.parent and d.kind in ("class", "struct")), None)
    if method.receiver_type is not None or cls is None or not (cls.bases or cls.implements):
        return ""
    return "/" + method.parent.rsplit(".", 1)[-1]


def _chain_end(call: Node) -> Node:
    """The last call of a fluent chain starting at ``call``: ``X.MapGroup("/api").HasApiVersion(1.0)
    .RequireAuthorization()`` is the group itself (a route group's builder methods return it)."""
    node = call
    while node.parent is not None and node.parent.type == "member_access_expression" and \
            node.parent.child_by_field_name("expression") == node and node.parent.parent is not None and \
            node.parent.parent.type == "invocation_expression":
        node = node.parent.parent
    return node


def _joined(base: Template, tmpl: Template) -> Template:
    """A minimal-API pattern under its group's prefix: always relative to it (``/{id}`` under
    ``/api/todos`` is ``/api/todos/{id}``); one ``/`` between them."""
    b, t = base.literal(), tmpl.literal()
    if b is not None and t is not None:
        joined = "/" + "/".join(x.strip("/") for x in (b, t) if x.strip("/"))
        return Template.of(joined)
    return base + tmpl
