"""FastAPI: routes, routers (``APIRouter(prefix=...)``) and their mounts (``include_router``).

Found (rules in ``indexer/languages/python/queries/fastapi.scm``):

* ``@R.get("/x")`` / ``.post`` / ``.put`` / ``.delete`` / ``.patch`` / ``.head`` / ``.options`` /
  ``.trace`` on a function -> :class:`~indexer.model.Route` with that method;
  ``@R.api_route("/x", methods=[...])`` -> the listed methods (``["GET"]`` when not given, FastAPI's
  default); ``R.add_api_route("/x", fn, methods=[...])`` likewise. ``Route.router`` is ``R`` as
  written, ``handler`` the decorated function's qualname (for ``add_api_route`` the function of this
  file the endpoint names, else ``handler_ref``).
* ``NAME = APIRouter(prefix="/items")`` / ``NAME = FastAPI()`` at module level ->
  :class:`~indexer.model.Router` (an app's prefix is empty).
* ``R.include_router(child, prefix="/api")`` -> :class:`~indexer.model.Mount` (``parent`` ``R``,
  ``child`` the router expression as written, prefix empty when not given);
  ``R.mount("/sub", sub_app, name="sub")`` of a named sub-application likewise (``name=`` its namespace:
  ``url_path_for("sub:items")``, :mod:`indexer.frameworks.route_names`).

Which receivers ``R`` count (FastAPI names are common words, so a rule is needed): only in a file that
imports from ``fastapi``, a receiver that is bound, seen from the decorator or call, to a
``fastapi`` ``FastAPI`` / ``APIRouter`` (constructed, annotated, ``self.x = APIRouter()``), or whose
head is an imported name (``from .api import router``, ``items.router``). An app built by a factory
(``app = create_app()``) is not recognised. In any file (one importing nothing from ``fastapi`` too), a
module-level ``NAME = Other(...)`` of a class of the file or of its own package (``_OwnClass``) is a
router when the file uses ``NAME`` as one (a route decorator, ``include_router``...): the linker keeps it only when ``Other`` derives from
``APIRouter`` / ``FastAPI`` through repository classes (:mod:`indexer.frameworks.router_classes`), and
``super().__init__(..., dependencies=[Depends(f)])`` in the ``__init__`` of a class ``C`` of the file is a
Wrapper on ``C``, which runs for every router ``C`` or a subclass builds.

Cross-cutting code (:class:`~indexer.model.WrapperRef` / :class:`~indexer.model.Wrapper`; ``Depends``
means ``fastapi`` ``Depends`` or ``Security``, also through ``fastapi.params``):

* a route's dependencies -> ``Route.wrappers`` (kind ``dependency``), in the order FastAPI runs them:
  the decorator's (or ``add_api_route``'s) ``dependencies=[Depends(a)]``, then the handler's
  parameters in order: ``u = Depends(get_user)``, ``u: Annotated[User, Depends(get_user)]``,
  ``u: User = Depends()`` / ``Annotated[User, Depends()]`` (the class ``User``), and a parameter
  annotated with a dependency alias (``u: CurrentUser``) -> the alias's name. The alias is either
  defined in this file or, unknowable here, an imported plain or dotted name: such a name is kept as
  written with ``WrapperRef.annotation`` set, and the linker, which knows the package layout (a
  package under ``backend/`` or ``src/``), keeps it only when it names an alias (a callable of this
  repository; a type such as ``Session`` or a model class is no dependency). ``expr`` is the dependency as written
  (``get_user``, ``deps.get_user``); for an instance (``Depends(RateLimiter(times=2))``) the class
  (``RateLimiter``, whose ``__call__`` runs).
* ``NAME = Annotated[T, Depends(f)]`` at module level, a dependency alias, becomes a callable
  definition of its own named ``NAME`` (kind ``function``, spanning the assignment) that calls ``f``:
  a route annotated with it depends on ``NAME`` and so, through that call, on ``f``. It is a type
  too: its ``return_type`` is ``T`` and its modifiers hold :data:`~indexer.model.TYPE_ALIAS`, so a
  parameter ``u: NAME`` is a ``T`` (``current_user.items``, ``session.add(current_user)``).
* sub-dependencies: a function that is not a route handler of this file and whose parameters depend
  on something (``def get_current_user(db = Depends(get_db))``, a dependency class's ``__init__``,
  or a parameter annotated with an alias of this file) gets a :class:`~indexer.model.CallSite` to
  it at the dependency's name (arity unknown: FastAPI passes keywords). FastAPI calls ``get_db``
  whenever it runs ``get_current_user``, so the walk from ``get_db`` reaches ``get_current_user``
  and through its wrapper edges every route that depends on it. A dependency given as a call runs
  what the call returns: ``Depends(get_repository(Repo))`` the function ``get_repository`` returns
  (``return _get_repo``; a class returned is built: its ``__init__``), ``Depends(Checker(...))`` the
  instance's ``__call__``; that site is ``via="result"`` and never a second call of ``get_repository``
  beside the one Python makes where the default is written. (An imported annotation there is not
  followed.)
* ``APIRouter(dependencies=[...])`` / ``FastAPI(dependencies=[...])`` -> a :class:`~indexer.model.Wrapper`
  per dependency on the assigned name; ``R.include_router(child, dependencies=[...])`` -> on
  ``child`` as written (kind ``dependency``).
* ``@R.middleware("http")`` on a function, ``R.add_middleware(Cls, ...)`` and ``FastAPI(middleware=
  [Middleware(Cls, ...)])`` -> kind ``middleware`` on ``R`` (a class: its ``dispatch`` /
  ``__call__``); ``@R.exception_handler(Exc)`` / ``R.add_exception_handler(Exc, fn)`` -> kind
  ``error_handler``.

A Wrapper's ``owner`` is the function / class of this file the expression names, else ``owner_ref``
the expression; its position is the callee name of the registering call (``Depends``,
``middleware``, ``add_middleware``, ``Middleware``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tree_sitter import Node

from indexer.languages.python.frameworks.common import (
    Args,
    Context,
    compact,
    library_kind,
    ref_text,
    scope_of,
    string_list,
    string_value,
    template,
)
from indexer.languages.base import SourceText, query, run_query
from indexer.model import (TYPE_ALIAS, CallSite, Definition, FileExtraction, Mount, Route, Router, Template, Wrapper,
                           WrapperRef)

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "fastapi"
_TYPES = {("fastapi", "FastAPI"): "app", ("fastapi", "APIRouter"): "router"}
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options", "trace"})
_DEPENDS = frozenset({
    f"fastapi.{module}{name}"
    for module in ("", "params.", "param_functions.")
    for name in ("Depends", "Security")
})  # fmt: skip
_ANNOTATED = frozenset({"typing.Annotated", "typing_extensions.Annotated"})
_MIDDLEWARE = frozenset({"starlette.middleware.Middleware", "fastapi.middleware.Middleware"})
_PARAMS = frozenset({"default_parameter", "typed_parameter", "typed_default_parameter"})
_DOTTED_NAME = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")
_ROUTER_USE = re.compile(rb"\.include_router\(|@\w+\.(?:get|post|put|delete|patch|head|options|trace|api_route)\(")
"""What a file importing no ``fastapi`` must hold for its routers built by another class to be looked for."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the FastAPI routes, routers and mounts of one parsed Python file to ``out``."""
    ctx = Context(src, out)
    fastapi_file = ctx.imports.uses("fastapi")
    if not fastapi_file and not _ROUTER_USE.search(src.data):
        return
    functions: list[dict[str, list[Node]]] = []
    aliases: dict[str, Node] = {}
    matches = [caps for _, caps in run_query(query("python", "python/queries", "fastapi"), root)]
    candidates: dict[str, dict[str, list[Node]]] = {}  # NAME = Other(...): routers if used as one
    own = _OwnClass(ctx)
    for caps in matches:
        if "router" in caps:
            _router(ctx, caps, candidates, own)
    used: set[str] = set()
    known = _Receivers(ctx, fastapi_file, candidates, used)
    for caps in matches:
        if "route" in caps:
            _decorated_route(ctx, caps, known)
        elif "call" in caps:
            _call(ctx, caps, known)
        elif "hook" in caps:
            _hook(ctx, caps, known)
        elif not fastapi_file:  # a file importing no fastapi: only routers built by another class
            continue
        elif "function" in caps:
            functions.append(caps)
        elif "alias" in caps:
            _alias(ctx, caps, aliases)
        elif "super" in caps:
            _router_class_dependencies(ctx, caps)
    for name in sorted(used, key=lambda n: candidates[n]["router"][0].start_byte):
        _add_router(ctx, candidates[name], name)
    handlers = {r.handler: r for r in ctx.out.routes if r.framework == _FRAMEWORK and r.handler}
    for caps in functions:
        _parameters(ctx, caps, handlers, aliases)
    if fastapi_file:
        _class_attribute_dependencies(ctx)


def _class_attribute_dependencies(ctx: Context) -> None:
    """``name: T = Depends(f)`` (``Security``, ``Annotated[T, Depends(f)]``; ``Depends()``: the class ``T``)
    as an annotated attribute of a class body: a Wrapper on the class (``router`` its qualname) at the
    ``Depends`` call, which :mod:`indexer.frameworks.class_views` applies to the routes of the class-based
    views deriving from the class (one per attribute name, a subclass's replacing its base's); no router
    is built by such a class, so it wraps nothing else. Read from the extractor's records: the class's
    annotated fields and the ``Depends`` calls its body makes on their lines."""
    fields = {(d.parent, line): d for d in ctx.out.definitions if d.kind == "field" and d.field_type and d.parent
              and ctx.kinds.get(d.parent) == "class" for line in range(d.start_line, d.end_line + 1)}
    seen: set[tuple[str | None, str]] = set()
    for cs in ctx.out.calls:
        d = fields.get((cs.caller, cs.line))
        if d is None or cs.via is not None or (d.parent, d.name) in seen or \
                ctx.imports.qualify(f"{cs.receiver}.{cs.name}" if cs.receiver else cs.name) not in _DEPENDS:
            continue
        seen.add((d.parent, d.name))
        expr = next((a.text for a in cs.handed if a.key in ("0", "dependency")), None)
        if expr is None:  # `Depends()`: the annotated class (`Annotated[T, Depends()]`: `T`)
            expr = re.sub(r"^(?:typing\.|typing_extensions\.)?Annotated\[([^,]+),.*$", r"\1", d.field_type or "").strip()
        if not expr:
            continue
        owner = expr if _DOTTED_NAME.fullmatch(expr) and ctx.kinds.get(expr) in ("function", "class") else None
        ctx.out.wrappers.append(Wrapper(_FRAMEWORK, "dependency", owner, cs.line, cs.col,
                                        None if owner else expr, d.parent))


class _Receivers:
    """The receivers that count as FastAPI apps or routers in one file (:meth:`is_router`)."""

    def __init__(self, ctx: Context, fastapi_file: bool, candidates: Mapping[str, object], used: set[str]) -> None:
        self.ctx, self.fastapi_file, self.candidates, self.used = ctx, fastapi_file, candidates, used

    def is_router(self, receiver: str, scope: str | None) -> bool:
        """The receiver rule of the module docstring (in a file importing from ``fastapi``); in any
        file, a module-level name built by a class that is not FastAPI's (a candidate), noted in
        ``used``: the linker keeps its routes when that class derives from ``APIRouter`` / ``FastAPI``
        (:mod:`indexer.frameworks.router_classes`)."""
        ctx = self.ctx
        if self.fastapi_file and (ctx.bound_to(scope, receiver, _TYPES) is not None or ctx.imports.is_imported(receiver)):
            return True
        if receiver in self.candidates and all(b.scope is None for b in ctx.bindings.lookup(scope, receiver)):
            self.used.add(receiver)
            return True
        return False


def _methods(src: SourceText, node: Node | None) -> list[str]:
    """``methods=[...]`` upper-cased; ``["GET"]`` when absent, ``["*"]`` when not literal."""
    if node is None:
        return ["GET"]
    values = string_list(src, node)
    return [v.upper() for v in values] if values else ["*"]


def _decorated_route(ctx: Context, caps: dict[str, list[Node]], known: _Receivers) -> None:
    src = ctx.src
    decorated = caps["route"][0]
    scope = scope_of(decorated, src)
    receiver = compact(src, caps["receiver"][0])
    if not known.is_router(receiver, scope):
        return
    verb_node = caps["verb"][0]
    verb = src.text(verb_node)
    args = Args.of(src, caps["args"][0])
    methods = [verb.upper()] if verb in _VERBS else _methods(src, args.keywords.get("methods"))
    name = src.text(caps["handler"][0])
    ctx.out.routes.append(
        Route(
            framework=_FRAMEWORK,
            methods=methods,
            path=template(src, args.get(0, "path")),
            handler=f"{scope}.{name}" if scope else name,
            line=src.line(verb_node),
            col=src.col(verb_node),
            router=receiver,
            wrappers=[WrapperRef("dependency", e) for e, _ in _dependency_list(ctx, args.keywords.get("dependencies"))],
            name=string_value(src, args.keywords.get("name")) or name,
        )
    )


def _router(ctx: Context, caps: dict[str, list[Node]], candidates: dict[str, dict[str, list[Node]]],
            own: _OwnClass) -> None:
    src = ctx.src
    assign = caps["router"][0]
    if scope_of(assign, src) is not None:
        return
    name = src.text(caps["router.name"][0])
    callee = compact(src, caps["router.callee"][0])
    kind = library_kind(ctx.imports.qualify(callee), _TYPES)
    if kind is None:  # a class of the application: a router if used as one and derived from one
        if own(callee):
            candidates[name] = caps
        return
    candidates.pop(name, None)
    _add_router(ctx, caps, name, kind)


class _OwnClass:
    """Whether a callee names an import from the file's own package (a relative import, or an absolute
    one whose top-level package is a folder of the file's path, as ``mealie.routes._base.routers`` from
    ``mealie/routes/users/crud.py``), never a library's (``flask.Blueprint``), which the linker could not
    look into anyway; or a class of this file with such a base or one spelling ``APIRouter`` /
    ``FastAPI``, through at most :data:`_OWN_DEPTH` classes of the file (a class of this file deriving
    from nothing of that kind is no router: ``Cache()``). Answers are memoised per name and depth
    left: the walk over every path of bases was exponential in a diamond of classes (7 classes a
    level, each deriving from all 7 of the level above, 9 levels: 26 s for a 4 KB file, brk49)."""

    def __init__(self, ctx: Context) -> None:
        self.ctx = ctx
        self._bases: dict[str, list[str]] | None = None
        self._memo: dict[tuple[str, int], bool] = {}

    def __call__(self, callee: str, depth: int = 0) -> bool:
        ctx = self.ctx
        if ctx.kinds.get(callee) == "class":
            if depth >= _OWN_DEPTH:
                return False
            known = self._memo.get((callee, depth))
            if known is None:
                if self._bases is None:
                    self._bases = {}
                    for d in ctx.out.definitions:
                        if d.kind == "class":
                            self._bases.setdefault(d.qualname, [b.split("[", 1)[0].strip() for b in d.bases])
                known = self._memo[(callee, depth)] = any(
                    n.rpartition(".")[2] in ("APIRouter", "FastAPI") or self(n, depth + 1)
                    for n in self._bases.get(callee, []))
            return known
        imp = ctx.imports.by_local.get(callee.split(".", 1)[0])
        if imp is None:
            return False
        return bool(imp.level) or imp.module.split(".", 1)[0] in ctx.out.path.split("/")[:-1]


_OWN_DEPTH = 8
"""Classes of one file :class:`_OwnClass` follows from the class called to ``APIRouter`` / ``FastAPI``."""


def _add_router(ctx: Context, caps: dict[str, list[Node]], name: str, kind: str = "router") -> None:
    """The Router ``NAME = Callee(...)`` makes (an app's prefix is empty), with its wrappers."""
    src = ctx.src
    args = Args.of(src, caps["args"][0])
    prefix = template(src, args.keywords.get("prefix")) if kind == "router" else Template()
    ctx.out.routers.append(Router(_FRAMEWORK, name, prefix, src.line(caps["router"][0])))
    _router_wrappers(ctx, args, name, None)


def _router_class_dependencies(ctx: Context, caps: dict[str, list[Node]]) -> None:
    """``super().__init__(..., dependencies=[Depends(f)])`` in the ``__init__`` of a class ``C`` of this
    file (``class UserAPIRouter(APIRouter)``): Wrappers on ``C``, which the linker applies to every router
    built by ``C`` or a subclass of it (:mod:`indexer.frameworks.router_classes`)."""
    scope = scope_of(caps["super"][0], ctx.src)
    cls, _, method = (scope or "").rpartition(".")
    if method == "__init__" and ctx.kinds.get(cls) == "class":
        _router_wrappers(ctx, Args.of(ctx.src, caps["args"][0]), cls, scope)


def _call(ctx: Context, caps: dict[str, list[Node]], known: _Receivers) -> None:
    src = ctx.src
    call = caps["call"][0]
    scope = scope_of(call, src)
    receiver = compact(src, caps["receiver"][0])
    if not known.is_router(receiver, scope):
        return
    name_node = caps["call.name"][0]
    name = src.text(name_node)
    args = Args.of(src, caps["args"][0])
    line, col = src.line(name_node), src.col(name_node)
    if name == "add_api_route":
        endpoint = args.get(1, "endpoint")
        if endpoint is None:
            return
        handler, ref = ctx.handler(endpoint, scope)
        methods = _methods(src, args.keywords.get("methods"))
        path = template(src, args.get(0, "path"))
        wrappers = [WrapperRef("dependency", e) for e, _ in _dependency_list(ctx, args.keywords.get("dependencies"))]
        name = string_value(src, args.keywords.get("name")) or (
            compact(src, endpoint).rpartition(".")[2] if endpoint.type in ("identifier", "attribute") else None)
        ctx.out.routes.append(Route(_FRAMEWORK, methods, path, handler, line, col, ref, receiver, wrappers, name=name))
        return
    if name == "add_middleware":
        cls = args.get(0, "middleware_class")
        if cls is not None:
            _wrapper(ctx, "middleware", cls, scope, receiver, name_node)
        return
    if name == "add_exception_handler":
        fn = args.get(1, "handler")
        if fn is not None:
            _wrapper(ctx, "error_handler", fn, scope, receiver, name_node)
        return
    if name == "include_router":
        child = args.get(0, "router")
        if child is None:
            return
        _router_wrappers(ctx, args, compact(src, child), scope)
        prefix = template(src, args.keywords.get("prefix"))
    else:  # mount("/sub", sub_app): only a named application, not StaticFiles(...) and the like
        child = args.get(1, "app")
        if child is None or child.type not in ("identifier", "attribute"):
            return
        prefix = template(src, args.get(0, "path"))
    namespace = string_value(src, args.keywords.get("name")) if name == "mount" else None  # url_path_for("sub:x")
    ctx.out.mounts.append(Mount(_FRAMEWORK, receiver, compact(src, child), prefix, line, col, namespace=namespace))


# ---------------------------------------------------------------------------------- cross-cutting


def _hook(ctx: Context, caps: dict[str, list[Node]], known: _Receivers) -> None:
    """``@R.middleware("http")`` / ``@R.exception_handler(Exc)`` on a function."""
    src = ctx.src
    scope = scope_of(caps["hook"][0], src)
    receiver = compact(src, caps["receiver"][0])
    if not known.is_router(receiver, scope):
        return
    name_node = caps["hook.name"][0]
    kind = "middleware" if src.text(name_node) == "middleware" else "error_handler"
    name = src.text(caps["handler"][0])
    owner = f"{scope}.{name}" if scope else name
    ctx.out.wrappers.append(Wrapper(_FRAMEWORK, kind, owner, src.line(name_node), src.col(name_node), router=receiver))


def _wrapper(ctx: Context, kind: str, node: Node, scope: str | None, router: str | None, at: Node) -> None:
    """A Wrapper of ``kind`` on ``router`` for what the expression ``node`` names, at ``at``."""
    src = ctx.src
    if node.type == "call":  # an instance: its class
        node = node.child_by_field_name("function") or node
    if node.type not in ("identifier", "attribute"):
        return
    owner, ref = _owner(ctx, node, scope)
    ctx.out.wrappers.append(Wrapper(_FRAMEWORK, kind, owner, src.line(at), src.col(at), ref, router))


def _owner(ctx: Context, node: Node, scope: str | None) -> tuple[str | None, str | None]:
    """``(qualname, None)`` for a function or class of this file the name reaches from ``scope``,
    else ``(None, expression)``."""
    owner, ref = ctx.handler(node, scope)
    if owner is not None:
        return owner, None
    text = compact(ctx.src, node)
    current = scope
    while True:  # a class of this file (a middleware or dependency class)
        candidate = f"{current}.{text}" if current else text
        if ctx.kinds.get(candidate) == "class":
            return candidate, None
        if current is None:
            return None, ref
        current = current.rpartition(".")[0] or None


def _router_wrappers(ctx: Context, args: Args, router: str, scope: str | None) -> None:
    """``dependencies=[...]`` and ``middleware=[Middleware(Cls)]`` of a router, app or
    ``include_router`` call: Wrappers on ``router``."""
    src = ctx.src
    for _, depends in _dependency_list(ctx, args.keywords.get("dependencies")):
        dep = _dependency_node(ctx, depends, None)
        callee = depends.child_by_field_name("function")
        if dep is not None and callee is not None:
            at = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
            _wrapper(ctx, "dependency", dep, scope, router, at)
    middleware = args.keywords.get("middleware")
    if middleware is None or middleware.type not in ("list", "tuple"):
        return
    for item in middleware.named_children:
        callee = item.child_by_field_name("function") if item.type == "call" else None
        if callee is None or ctx.imports.qualify(compact(src, callee)) not in _MIDDLEWARE:
            continue
        cls = Args.of(src, item.child_by_field_name("arguments")).get(0, "cls")
        if cls is not None:
            at = callee.child_by_field_name("attribute") if callee.type == "attribute" else callee
            _wrapper(ctx, "middleware", cls, scope, router, at)


def _is_depends(ctx: Context, node: Node | None) -> bool:
    """Whether ``node`` is a ``Depends(...)`` / ``Security(...)`` call of FastAPI's."""
    if node is None or node.type != "call":
        return False
    callee = node.child_by_field_name("function")
    if callee is None or callee.type not in ("identifier", "attribute"):
        return False
    return ctx.imports.qualify(compact(ctx.src, callee)) in _DEPENDS


def _dependency_node(ctx: Context, depends: Node, annotation: Node | None) -> Node | None:
    """What a ``Depends(...)`` call runs: its argument (for an instance ``Checker(...)``, the class
    ``Checker``), else (``Depends()``) the annotated type when it is a plain or dotted name."""
    dep = Args.of(ctx.src, depends.child_by_field_name("arguments")).get(0, "dependency")
    if dep is None:
        dep = annotation
    if dep is not None and dep.type == "call":
        dep = dep.child_by_field_name("function")
    if dep is None or dep.type not in ("identifier", "attribute"):
        return None
    return dep


def _dependency_text(ctx: Context, depends: Node, dep: Node) -> str:
    """The expression a route depends on: the name ``dep`` as written, or ``name()`` when the
    ``Depends`` argument calls it (``Depends(get_current_user_authorizer())`` runs what the factory
    returns, not the factory; ``Depends(Checker(...))`` an instance of ``Checker``). The linker
    resolves a call to its result (:mod:`indexer.frameworks.link`)."""
    arg = Args.of(ctx.src, depends.child_by_field_name("arguments")).get(0, "dependency")
    text = ref_text(ctx.src, dep)
    return text + "()" if arg is not None and arg.type == "call" else text


def _dependency_list(ctx: Context, node: Node | None) -> list[tuple[str, Node]]:
    """``(expression, Depends call)`` of each dependency of a ``dependencies=[...]`` list."""
    if node is None or node.type not in ("list", "tuple"):
        return []
    out = []
    for item in node.named_children:
        if _is_depends(ctx, item):
            dep = _dependency_node(ctx, item, None)
            if dep is not None:
                out.append((_dependency_text(ctx, item, dep), item))
    return out


def _annotated(ctx: Context, node: Node | None) -> tuple[Node | None, list[Node]]:
    """``(type, [Depends calls])`` of an ``Annotated[T, ...]`` expression (a ``subscript``, or the
    ``generic_type`` it parses as in an annotation); ``(None, [])`` otherwise."""
    if node is None:
        return None, []
    if node.type == "subscript":
        value = node.child_by_field_name("value")
        items = node.children_by_field_name("subscript")
    elif node.type == "generic_type":
        value = node.named_children[0] if node.named_child_count else None
        params = next((c for c in node.named_children if c.type == "type_parameter"), None)
        items = [_unwrap(c) for c in params.named_children] if params is not None else []
    else:
        return None, []
    if value is None or value.type not in ("identifier", "attribute") or not items:
        return None, []
    if ctx.imports.qualify(compact(ctx.src, value)) not in _ANNOTATED:
        return None, []
    return items[0], [c for c in items[1:] if _is_depends(ctx, c)]


def _unwrap(node: Node) -> Node:
    """The expression of a ``type`` node (the node itself otherwise)."""
    return node.named_children[0] if node.type == "type" and node.named_child_count == 1 else node


def _alias(ctx: Context, caps: dict[str, list[Node]], aliases: dict[str, Node]) -> None:
    """``NAME = Annotated[T, Depends(f)]`` at module level: a callable definition ``NAME`` that
    calls ``f`` (see the module docstring)."""
    src = ctx.src
    assign = caps["alias"][0]
    if scope_of(assign, src) is not None:
        return
    annotated_type, calls = _annotated(ctx, caps["alias.value"][0])
    deps = [(d, c) for d, c in ((_dependency_node(ctx, c, annotated_type), c) for c in calls) if d is not None]
    if not deps:
        return
    name_node = caps["alias.name"][0]
    name = src.text(name_node)
    if name in aliases or name in ctx.kinds:
        return
    aliases[name] = assign
    line, col = src.line(assign), src.col(assign)
    end = (assign.end_point[0] + 1, src.end_col(assign))
    ctx.out.definitions.append(
        Definition(
            kind="function", name=name, qualname=name, parent=None,
            start_line=line, start_col=col, end_line=end[0], end_col=end[1],
            name_line=src.line(name_node), name_col=src.col(name_node),
            signature=" ".join(src.text(assign).split()),
            return_type=compact(src, annotated_type) if annotated_type is not None else None,
            modifiers=[TYPE_ALIAS] if annotated_type is not None else [],
        )
    )  # fmt: skip
    ctx.kinds[name] = "function"
    made = [_span(src, a) for _, c in deps if (a := _depends_argument(ctx, c)) is not None and a.type == "call"]
    for c in ctx.out.calls:  # the Depends(...) calls of the alias are its own; `factory()` runs at import
        if c.caller is None and (line, col) <= (c.line, c.col) < end and not any(a <= (c.line, c.col) < b for a, b in made):
            c.caller = name
    for dep, depends in deps:
        _call_site(ctx, name, dep, depends)


def _depends_argument(ctx: Context, depends: Node) -> Node | None:
    """The dependency a ``Depends(...)`` call is given (first argument or ``dependency=``), if any."""
    return Args.of(ctx.src, depends.child_by_field_name("arguments")).get(0, "dependency")


def _span(src: SourceText, node: Node) -> tuple[tuple[int, int], tuple[int, int]]:
    """``((line, col), (end line, end col))`` of ``node`` (1-based lines, as call sites have)."""
    return (src.line(node), src.col(node)), (node.end_point[0] + 1, src.end_col(node))


def _call_site(ctx: Context, caller: str, dep: Node, depends: Node | None = None) -> None:
    """A call from ``caller`` to the dependency ``dep`` (a plain or dotted name), at the dependency's
    last name. When the ``Depends`` call ``depends`` is given a call (``Depends(factory(...))``,
    ``Depends(Checker(...))``), FastAPI runs what that call returns, not ``dep``: the site is
    ``via="result"`` (:class:`~indexer.model.CallSite`), apart from the call ``factory(...)`` itself,
    which Python makes once where the default value is written."""
    src = ctx.src
    if dep.type == "attribute":
        name_node = dep.child_by_field_name("attribute")
        receiver = ref_text(src, dep.child_by_field_name("object"))
    else:
        name_node, receiver = dep, None
    arg = _depends_argument(ctx, depends) if depends is not None else None
    via = "result" if arg is not None and arg.type == "call" else None
    line, col = src.line(name_node), src.col(name_node)
    ctx.out.calls.append(CallSite(caller, src.text(name_node), receiver, -1, line, col, via=via))


def _parameters(
    ctx: Context, caps: dict[str, list[Node]], handlers: dict[str, Route], aliases: dict[str, Node]
) -> None:
    """The dependencies a function's parameters declare: ``Route.wrappers`` of a route handler,
    calls of any other function (module docstring)."""
    src = ctx.src
    fn = caps["function"][0]
    scope = scope_of(fn, src)
    name = src.text(caps["function.name"][0])
    qualname = f"{scope}.{name}" if scope else name
    route = handlers.get(qualname)
    for param in caps["params"][0].named_children:
        if param.type not in _PARAMS:
            continue
        type_node = param.child_by_field_name("type")
        annotation = _unwrap(type_node) if type_node is not None else None
        value = param.child_by_field_name("value")
        annotated_type, calls = _annotated(ctx, annotation)
        declared = annotated_type if annotated_type is not None else annotation
        if _is_depends(ctx, value):
            calls.append(value)
        found = False
        for depends in calls:
            dep = _dependency_node(ctx, depends, declared)
            if dep is None:
                continue
            found = True
            if route is not None:
                route.wrappers.append(WrapperRef("dependency", _dependency_text(ctx, depends, dep)))
            else:
                _call_site(ctx, qualname, dep, depends)
        if found or annotation is None or annotation.type not in ("identifier", "attribute"):
            continue
        text = compact(src, annotation)
        if text in aliases:
            if route is not None:
                route.wrappers.append(WrapperRef("dependency", text))
            else:
                _call_site(ctx, qualname, annotation)
        elif route is not None and ctx.imports.is_imported(text):  # the linker decides: module docstring
            route.wrappers.append(WrapperRef("dependency", text, annotation=True))
