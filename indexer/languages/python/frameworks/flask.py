"""Flask: routes, blueprints (``Blueprint(url_prefix=...)``) and their registration.

Found (rules in ``indexer/languages/python/queries/flask.scm``):

* ``@R.route("/x", methods=[...])`` on a function -> :class:`~indexer.model.Route` with the listed
  methods, ``["GET"]`` when none are given (Flask's default; the HEAD / OPTIONS Flask adds are not
  listed); ``@R.get`` / ``.post`` / ``.put`` / ``.delete`` / ``.patch`` (Flask 2) -> that method.
  ``handler`` is the decorated function's qualname, ``router`` ``R`` as written.
* ``R.add_url_rule("/x", endpoint, view_func=f, methods=...)`` -> a Route whose handler is the
  function of this file ``f`` names (a ``lambda`` becomes a function of its own named after the route,
  ``GET /x``, owning the calls in its body: :mod:`indexer.symbols`), else ``handler_ref`` (``X.as_view()`` for a class-based view,
  arguments dropped). Without ``methods=``: ``["GET"]`` for a function; for ``X.as_view(...)`` the
  HTTP-verb methods class ``X`` defines in this file (a ``MethodView``), else ``["*"]``.
* ``NAME = Blueprint("name", __name__, url_prefix="/bp")`` / ``NAME = Flask(__name__)`` at module
  level -> :class:`~indexer.model.Router` (an app's prefix is empty).
* ``R.register_blueprint(bp, url_prefix="/x")`` -> :class:`~indexer.model.Mount` (prefix empty when
  not given). werkzeug's ``DispatcherMiddleware(app.wsgi_app, {"/backend": backend})`` -> one Mount
  per entry (parent ``app``, child ``backend``: a Flask app, or any app the linker finds as a router). Flask's ``url_prefix`` given at registration *replaces* the blueprint's own prefix;
  the Mount records it as written and leaves that to the linker.

Cross-cutting code -> :class:`~indexer.model.Wrapper` (``owner`` the decorated function, or for a
call the function of this file it names, else ``owner_ref`` the expression; position: the method
name):

* ``@R.before_request`` / ``after_request`` / ``teardown_request`` / ``url_value_preprocessor`` /
  ``url_defaults`` (kind ``hook``) and ``@R.errorhandler(404)`` (kind ``error_handler``) on an app
  or a blueprint -> ``router`` ``R`` (a blueprint's hooks run for its own routes only);
  ``@R.teardown_appcontext`` (an app's) likewise;
* a blueprint's app-wide ones, ``before_app_request`` / ``after_app_request`` /
  ``teardown_app_request`` / ``app_url_value_preprocessor`` / ``app_url_defaults`` (``hook``) and
  ``app_errorhandler`` (``error_handler``) -> ``router`` ``None`` (every route of the application);
* the same registrations called as functions, ``R.before_request(fn)``,
  ``R.register_error_handler(404, fn)``, ``R.errorhandler(E)(fn)`` (the call the decorator makes;
  ``R.errorhandler(E)`` alone registers nothing).

A hook registered on a parameter of the enclosing module-level function, in a file importing flask
that is no test file (an application factory's ``def register_errorhandlers(app):
app.errorhandler(E)(handler)``; not a test's ``app`` fixture), is registered on the application the
factory is given: ``router`` ``None`` (every route).

Receivers ``R`` count, in a file importing from ``flask``, when bound (seen from the decorator or
call) to a ``flask`` ``Flask`` / ``Blueprint`` or when their head is an imported name (``from . import
bp``; ``from app import app``). A blueprint's view module often imports only ``bp`` and its helpers
(microblog's ``api/tokens.py``): in a file importing no flask (nor another framework whose apps have
``.route``) a receiver counts when imported from the repository (relatively, or from a top package
that is a folder of the file's path), so ``from cachelib import app`` claims nothing. Decorated classes (flask-restx resources) are not
routes.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.languages.python.frameworks.common import (Args, Context, compact, library_kind, scope_of, string_list,
                                                        string_value, template)
from indexer.languages.base import SourceText, query, run_query
from indexer.model import FileExtraction, Mount, Route, Router, Template, Wrapper
from indexer.symbols import handler_name

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "flask"
_TYPES = {("flask", "Flask"): "app", ("flask", "Blueprint"): "blueprint"}
_VERBS = ("get", "post", "put", "delete", "patch", "head", "options")  # MethodView's, in this order
_APP_WIDE = frozenset({
    "before_app_request", "after_app_request", "teardown_app_request", "app_url_value_preprocessor",
    "app_url_defaults", "app_errorhandler",
})  # fmt: skip
_ERROR_HANDLERS = frozenset({"errorhandler", "app_errorhandler", "register_error_handler"})
_TEST_PATH = re.compile(r"(^|/)(tests?/|test_[^/]*\.py$|[^/]*_test\.py$|conftest\.py$)")
"""Python test files by path (pytest's conventions; a ``test/`` or ``tests/`` folder)."""
_OTHER_WEB = ("quart", "sanic", "starlette", "fastapi", "aiohttp", "bottle", "falcon", "tornado", "litestar", "django")
"""Frameworks whose apps also have ``.route``: a file importing one of them and no flask is theirs."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the Flask routes, blueprints and registrations of one parsed Python file to ``out``."""
    ctx = Context(src, out)
    if not ctx.imports.uses("flask") and (not ctx.imports.by_local or ctx.imports.uses(*_OTHER_WEB)):
        return  # a file importing no flask counts through receivers it imports from the repository only
    for _, caps in run_query(query("python", "python/queries", "flask"), root):
        if "route" in caps:
            _decorated_route(ctx, caps)
        elif "router" in caps:
            _router(ctx, caps)
        elif "call" in caps:
            _call(ctx, caps)
        elif "hook" in caps:
            _hook(ctx, caps)
        elif "hook.call" in caps:
            _hook_call(ctx, caps)
        elif "dispatch" in caps:
            _dispatcher(ctx, caps)


def _is_app(ctx: Context, receiver: str, scope: str | None) -> bool:
    """The receiver rule of the module docstring."""
    if not ctx.imports.uses("flask"):
        return _local_import(ctx, receiver)
    return ctx.bound_to(scope, receiver, _TYPES) is not None or ctx.imports.is_imported(receiver)


def _local_import(ctx: Context, receiver: str) -> bool:
    """Whether ``receiver``'s head is imported from this repository as far as one file can tell: a
    relative import, or an absolute one whose top package is a folder of this file's path
    (``from app.api import bp`` in ``app/api/tokens.py``); ``from cachelib import app`` is not."""
    imp = ctx.imports.by_local.get(receiver.split(".", 1)[0])
    if imp is None:
        return False
    return imp.level > 0 or imp.module.split(".", 1)[0] in ctx.out.path.split("/")[:-1]


def _methods(src: SourceText, node: Node | None) -> list[str] | None:
    """``methods=[...]`` upper-cased; ``None`` when absent, ``["*"]`` when not literal."""
    if node is None:
        return None
    values = string_list(src, node)
    return [v.upper() for v in values] if values else ["*"]


def _decorated_route(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    decorated = caps["route"][0]
    scope = scope_of(decorated, src)
    receiver = compact(src, caps["receiver"][0])
    if not _is_app(ctx, receiver, scope):
        return
    verb_node = caps["verb"][0]
    verb = src.text(verb_node)
    args = Args.of(src, caps["args"][0])
    if verb == "route":
        methods = _methods(src, args.keywords.get("methods")) or ["GET"]
    else:
        methods = [verb.upper()]
    name = src.text(caps["handler"][0])
    ctx.out.routes.append(
        Route(
            framework=_FRAMEWORK,
            methods=methods,
            path=template(src, args.get(0, "rule")),
            handler=f"{scope}.{name}" if scope else name,
            line=src.line(verb_node),
            col=src.col(verb_node),
            router=receiver,
            name=_endpoint(src, args.keywords.get("endpoint")) or name,
        )
    )


def _endpoint(src: SourceText, node: Node | None, view: Node | None = None) -> str | None:
    """A view's endpoint name (what ``url_for`` names it by, without its blueprint's): the literal
    ``endpoint`` given, else the view function's name (``view_func=views.show``: ``show``) or the name
    ``X.as_view("name")`` gives; ``None`` when not known."""
    given = string_value(src, node)
    if given or view is None:
        return given
    if view.type in ("identifier", "attribute"):
        return compact(src, view).rpartition(".")[2]
    callee = view.child_by_field_name("function") if view.type == "call" else None
    if callee is not None and callee.type == "attribute" and src.text(callee.child_by_field_name("attribute")) == "as_view":
        return string_value(src, Args.of(src, view.child_by_field_name("arguments")).get(0, "name"))
    return None


def _router(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    assign = caps["router"][0]
    if scope_of(assign, src) is not None:
        return
    kind = library_kind(ctx.imports.qualify(compact(src, caps["router.callee"][0])), _TYPES)
    if kind is None:
        return
    args = Args.of(src, caps["args"][0])
    prefix = template(src, args.get(5, "url_prefix")) if kind == "blueprint" else Template()
    namespace = string_value(src, args.get(0, "name")) if kind == "blueprint" else None
    ctx.out.routers.append(Router(_FRAMEWORK, src.text(caps["router.name"][0]), prefix, src.line(assign), namespace))


def _view_methods(ctx: Context, view: Node, scope: str | None) -> list[str]:
    """Default methods of a view passed without ``methods=``: ``["GET"]`` for a function; for
    ``X.as_view(...)`` the verbs class ``X`` of this file defines, else ``["*"]``."""
    if view.type != "call":
        return ["GET"]
    callee = view.child_by_field_name("function")
    if callee is None or callee.type != "attribute" or ctx.src.text(callee.child_by_field_name("attribute")) != "as_view":
        return ["*"]
    cls_text = compact(ctx.src, callee.child_by_field_name("object"))
    kinds = ctx.kinds
    current = scope
    while True:
        cls = f"{current}.{cls_text}" if current else cls_text
        if kinds.get(cls) == "class":
            verbs = [v.upper() for v in _VERBS if kinds.get(f"{cls}.{v}") == "method"]
            return verbs or ["*"]
        if current is None:
            return ["*"]
        current = current.rpartition(".")[0] or None


def _call(ctx: Context, caps: dict[str, list[Node]]) -> None:
    src = ctx.src
    call = caps["call"][0]
    scope = scope_of(call, src)
    receiver = compact(src, caps["receiver"][0])
    if not _is_app(ctx, receiver, scope):
        return
    name_node = caps["call.name"][0]
    args = Args.of(src, caps["args"][0])
    line, col = src.line(name_node), src.col(name_node)
    if src.text(name_node) == "add_url_rule":
        view = args.get(2, "view_func")
        if view is None:  # a rule bound to an endpoint name only (@app.endpoint): no handler here
            return
        methods = _methods(src, args.keywords.get("methods")) or _view_methods(ctx, view, scope)
        path = template(src, args.get(0, "rule"))
        if view.type == "lambda":
            handler, ref = ctx.inline_function(view, handler_name(methods, path), scope), None
        else:
            handler, ref = ctx.handler(view, scope)
        ctx.out.routes.append(Route(_FRAMEWORK, methods, path, handler, line, col, ref, receiver,
                                    name=_endpoint(src, args.get(1, "endpoint"), view)))
        return
    child = args.get(0, "blueprint")
    if child is None:
        return
    prefix = template(src, args.keywords.get("url_prefix"))
    ctx.out.mounts.append(Mount(_FRAMEWORK, receiver, compact(src, child), prefix, line, col,
                                namespace=string_value(src, args.keywords.get("name"))))


def _dispatcher(ctx: Context, caps: dict[str, list[Node]]) -> None:
    """``DispatcherMiddleware(app.wsgi_app, {"/backend": backend})``: one :class:`Mount` per entry
    whose key is a string and whose value names an app (a name or attribute chain), under the app
    the first argument names (``.wsgi_app`` cut off)."""
    src = ctx.src
    parent = compact(src, caps["dispatch.parent"][0]).removesuffix(".wsgi_app")
    line, col = src.line(caps["dispatch"][0]), src.col(caps["dispatch"][0])
    for pair in caps["dispatch.mounts"][0].named_children:
        if pair.type != "pair":
            continue
        key, value = pair.child_by_field_name("key"), pair.child_by_field_name("value")
        if key is None or value is None or key.type != "string" or value.type not in ("identifier", "attribute"):
            continue
        child = compact(src, value).removesuffix(".wsgi_app")
        ctx.out.mounts.append(Mount(_FRAMEWORK, parent, child, template(src, key), line, col))


def _hook_wrapper(ctx: Context, receiver: str, name_node: Node, owner: str | None, ref: str | None,
                  given: bool = False) -> None:
    """The Wrapper a hook registration named ``name_node`` on ``receiver`` makes (module docstring);
    ``given``: the receiver is the application a factory is given (every route)."""
    src = ctx.src
    name = src.text(name_node)
    kind = "error_handler" if name in _ERROR_HANDLERS else "hook"
    router = None if name in _APP_WIDE or given else receiver
    ctx.out.wrappers.append(Wrapper(_FRAMEWORK, kind, owner, src.line(name_node), src.col(name_node), ref, router))


def _app_parameter(ctx: Context, receiver: str, scope: str | None) -> bool:
    """Whether ``receiver`` is a parameter of the module-level function ``scope`` in a file importing
    flask (an application factory's ``app``: the module docstring). Test code is left out: a test
    (or a test file's function) given an ``app`` fixture registers on that test's own app."""
    if scope is None or "." in scope or scope.startswith("test") or not receiver.isidentifier() \
            or not ctx.imports.uses("flask") or _TEST_PATH.search(ctx.out.path):
        return False
    return any(d.qualname == scope and d.kind in ("function", "method") and any(p.name == receiver for p in d.params)
               for d in ctx.out.definitions)


def _hook(ctx: Context, caps: dict[str, list[Node]]) -> None:
    """``@R.before_request`` / ``@R.errorhandler(404)`` ... on a function."""
    src = ctx.src
    scope = scope_of(caps["hook"][0], src)
    receiver = compact(src, caps["receiver"][0])
    given = _app_parameter(ctx, receiver, scope)
    if not given and not _is_app(ctx, receiver, scope):
        return
    name = src.text(caps["handler"][0])
    _hook_wrapper(ctx, receiver, caps["hook.name"][0], f"{scope}.{name}" if scope else name, None, given)


def _hook_call(ctx: Context, caps: dict[str, list[Node]]) -> None:
    """``R.before_request(fn)`` / ``R.register_error_handler(404, fn)`` called as a function (the
    call a decorator makes, ``@R.errorhandler(404)``, is not one: the decorated function is)."""
    src = ctx.src
    call = caps["hook.call"][0]
    if call.parent is not None and call.parent.type == "decorator":
        return
    scope = scope_of(call, src)
    receiver = compact(src, caps["receiver"][0])
    given = _app_parameter(ctx, receiver, scope)
    if not given and not _is_app(ctx, receiver, scope):
        return
    name_node = caps["hook.name"][0]
    name = src.text(name_node)
    args = Args.of(src, caps["args"][0])
    if name in ("errorhandler", "app_errorhandler"):  # R.errorhandler(E)(fn): the outer call hands fn
        outer = call.parent
        if outer is None or outer.type != "call" or outer.child_by_field_name("function") != call:
            return
        fn = Args.of(src, outer.child_by_field_name("arguments")).get(0, "f")
    else:
        fn = args.get(1, "f") if name == "register_error_handler" else args.get(0, "f")
    if fn is None or fn.type not in ("identifier", "attribute"):
        return
    owner, ref = ctx.handler(fn, scope)
    _hook_wrapper(ctx, receiver, name_node, owner, ref, given)
