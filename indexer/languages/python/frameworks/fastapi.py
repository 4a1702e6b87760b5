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
  ``R.mount("/sub", sub_app)`` of a named sub-application likewise.

Which receivers ``R`` count (FastAPI names are common words, so a rule is needed): only in a file that
imports from ``fastapi``, a receiver that is bound, seen from the decorator or call, to a
``fastapi`` ``FastAPI`` / ``APIRouter`` (constructed, annotated, ``self.x = APIRouter()``), or whose
head is an imported name (``from .api import router``, ``items.router``). An app built by a factory
(``app = create_app()``) is not recognised.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.python.frameworks.common import Args, Context, compact, library_kind, scope_of, string_list, template
from indexer.languages.base import SourceText, query, run_query
from indexer.model import FileExtraction, Mount, Route, Router, Template

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "fastapi"
_TYPES = {("fastapi", "FastAPI"): "app", ("fastapi", "APIRouter"): "router"}
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "head", "options", "trace"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the FastAPI routes, routers and mounts of one parsed Python file to ``out``."""
    ctx = Context(src, out)
    if not ctx.imports.uses("fastapi"):
        return
    for _, caps in run_query(query("python", "python/queries", "fastapi"), root):
        if "route" in caps:
            _decorated_route(ctx, caps)
        elif "router" in caps:
            _router(ctx, caps)
        elif "call" in caps:
            _call(ctx, caps)


def _is_router(ctx: Context, receiver: str, scope: str | None) -> bool:
    """The receiver rule of the module docstring."""
    return ctx.bound_to(scope, receiver, _TYPES) is not None or ctx.imports.is_imported(receiver)


def _methods(src: SourceText, node: Node | None) -> list[str]:
    """``methods=[...]`` upper-cased; ``["GET"]`` when absent, ``["*"]`` when not literal."""
    if node is None:
        return ["GET"]
    values = string_list(src, node)
    return [v.upper() for v in values] if values else ["*"]


def _decorated_route(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    decorated = caps["route"][0]
    scope = scope_of(decorated, src)
    receiver = compact(src, caps["receiver"][0])
    if not _is_router(ctx, receiver, scope):
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
        )
    )


def _router(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    assign = caps["router"][0]
    if scope_of(assign, src) is not None:
        return
    kind = library_kind(ctx.imports.qualify(compact(src, caps["router.callee"][0])), _TYPES)
    if kind is None:  # the callee is not fastapi's (a class of the same name defined elsewhere)
        return
    args = Args.of(src, caps["args"][0])
    prefix = template(src, args.keywords.get("prefix")) if kind == "router" else Template()
    ctx.out.routers.append(Router(_FRAMEWORK, src.text(caps["router.name"][0]), prefix, src.line(assign)))


def _call(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    call = caps["call"][0]
    scope = scope_of(call, src)
    receiver = compact(src, caps["receiver"][0])
    if not _is_router(ctx, receiver, scope):
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
        ctx.out.routes.append(Route(_FRAMEWORK, methods, path, handler, line, col, ref, receiver))
        return
    if name == "include_router":
        child = args.get(0, "router")
        if child is None:
            return
        prefix = template(src, args.keywords.get("prefix"))
    else:  # mount("/sub", sub_app): only a named application, not StaticFiles(...) and the like
        child = args.get(1, "app")
        if child is None or child.type not in ("identifier", "attribute"):
            return
        prefix = template(src, args.get(0, "path"))
    ctx.out.mounts.append(Mount(_FRAMEWORK, receiver, compact(src, child), prefix, line, col))
