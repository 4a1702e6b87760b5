"""Flask-RESTful and Flask-RESTX (and its predecessor flask-restplus): resource classes as routes.

A *resource* is a class whose ``get`` / ``post`` / ``put`` / ``patch`` / ``delete`` ... methods
handle the requests to its paths. Found (rules in ``indexer/languages/python/queries/flask_restful.scm``),
only in a file importing one of those packages:

* ``R.add_resource(Resource, "/a", "/b", endpoint=...)`` -> one :class:`~indexer.model.Route` per
  path, ``methods`` ``["*"]`` and ``handler_ref`` the class as written, so the linker resolves it
  (also when imported) and gives each HTTP-verb method of the class its own endpoint, as for a
  Django or Flask class-based view; ``router`` ``R``.
* ``@R.route("/a", "/b")`` on a class (Flask-RESTX) -> the same, the class being of this file.
* ``NAME = Api(app_or_blueprint, prefix="/v1")`` at module level -> :class:`~indexer.model.Router`
  ``NAME`` with that prefix, and a :class:`~indexer.model.Mount` of it into the app or blueprint
  (prefix empty: a blueprint's own ``url_prefix`` still applies); ``NAME.init_app(app_or_bp)``
  mounts it the same way (``Api()`` created first, bound later).
* ``NAME = Namespace("todos", path="/todos")`` / ``NAME = api.namespace("todos")`` -> a Router whose
  prefix is ``path``, else ``/`` + the namespace's name (Flask-RESTX's default); the second form is
  mounted into ``api`` at once. ``api.add_namespace(ns, path="/x")`` mounts ``ns`` into ``api``; a
  ``path`` given there replaces the namespace's own, which the ``flask`` mount rule of the linker
  already does for blueprints.

Receivers ``R`` count when bound in the file to such an ``Api`` / ``Namespace`` or imported
(``from .api import api``): ``add_resource`` / ``add_namespace`` are names no other Flask object has.
Routes keep ``framework`` ``flask``: they run in the Flask application, whose hooks and error
handlers wrap them.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.python.frameworks.common import Args, Context, compact, library_kind, scope_of, string_value, template
from indexer.model import Mount, Route, Router, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)

_FRAMEWORK = "flask"
_PACKAGES = ("flask_restful", "flask_restx", "flask_restplus")
_TYPES = {(p, name): kind for p in _PACKAGES for name, kind in (("Api", "api"), ("Namespace", "namespace"))}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the Flask-RESTful / Flask-RESTX resources, APIs and namespaces of one parsed Python file
    to ``out`` (see the module docstring)."""
    ctx = Context(src, out)
    if not ctx.imports.uses(*_PACKAGES):
        return
    known: set[str] = set()  # module-level names this file binds to an Api / Namespace
    for _, caps in run_query(query("python", "python/queries", "flask_restful"), root):
        if "holder" in caps:
            _holder(ctx, caps, known)
        elif "call" in caps:
            _call(ctx, caps, known)
        elif "route" in caps:
            _decorated(ctx, caps, known)


def _is_api(ctx: Context, receiver: str, scope: str | None, known: set[str]) -> bool:
    """Whether ``receiver`` is an ``Api`` / ``Namespace`` of the supported packages (module docstring):
    one made at module level above (``known``; ``api.namespace(...)`` binds no library type), bound
    to one, or imported."""
    return (receiver in known or ctx.bound_to(scope, receiver, _TYPES) is not None
            or ctx.imports.is_imported(receiver))


def _holder(ctx: Context, caps: dict[str, list[Node]], known: set[str]) -> None:
    """``NAME = Api(...)`` / ``Namespace(...)`` / ``api.namespace(...)`` at module level."""
    src = ctx.src
    assign = caps["holder"][0]
    if scope_of(assign, src) is not None:
        return
    name = src.text(caps["holder.name"][0])
    callee = compact(src, caps["holder.callee"][0])
    args = Args.of(src, caps["args"][0])
    line = src.line(assign)
    if callee.endswith(".namespace") and "." in callee:  # api.namespace("todos", path=...)
        parent = callee.rpartition(".")[0]
        if not _is_api(ctx, parent, None, known):
            return
        known.add(name)
        ctx.out.routers.append(Router(_FRAMEWORK, name, _namespace_prefix(src, args), line))
        ctx.out.mounts.append(Mount(_FRAMEWORK, parent, name, Template(), line, src.col(assign)))
        return
    kind = library_kind(ctx.imports.qualify(callee), _TYPES)
    if kind is not None:
        known.add(name)
    if kind == "namespace":
        ctx.out.routers.append(Router(_FRAMEWORK, name, _namespace_prefix(src, args), line))
    elif kind == "api":
        ctx.out.routers.append(Router(_FRAMEWORK, name, template(src, args.keywords.get("prefix")), line))
        app = args.get(0, "app")
        if app is not None and app.type in ("identifier", "attribute"):
            ctx.out.mounts.append(Mount(_FRAMEWORK, compact(src, app), name, Template(), line, src.col(assign)))


def _namespace_prefix(src: SourceText, args: Args) -> Template:
    """A namespace's path: ``path=``, else ``/`` + its name (Flask-RESTX's default), else empty."""
    path = args.keywords.get("path")
    if path is not None:
        return template(src, path)
    name = string_value(src, args.get(0, "name"))
    return Template.of("/" + name) if name else Template()


def _call(ctx: Context, caps: dict[str, list[Node]], known: set[str]) -> None:
    src = ctx.src
    call = caps["call"][0]
    scope = scope_of(call, src)
    receiver = compact(src, caps["receiver"][0])
    if not _is_api(ctx, receiver, scope, known):
        return
    name_node = caps["call.name"][0]
    name = src.text(name_node)
    args = Args.of(src, caps["args"][0])
    line, col = src.line(name_node), src.col(name_node)
    first = args.get(0, "resource" if name == "add_resource" else "ns" if name == "add_namespace" else "app")
    if first is None or first.type not in ("identifier", "attribute"):
        return
    if name == "add_resource":
        for path in args.positional[1:]:
            ctx.out.routes.append(Route(_FRAMEWORK, ["*"], template(src, path), None, line, col,
                                        compact(src, first), receiver, scope=scope))
    elif name == "add_namespace":
        ctx.out.mounts.append(Mount(_FRAMEWORK, receiver, compact(src, first),
                                    template(src, args.keywords.get("path")), line, col))
    else:  # api.init_app(app_or_blueprint)
        ctx.out.mounts.append(Mount(_FRAMEWORK, compact(src, first), receiver, Template(), line, col))


def _decorated(ctx: Context, caps: dict[str, list[Node]], known: set[str]) -> None:
    """``@ns.route("/a", "/b")`` on a resource class of this file."""
    src = ctx.src
    decorated = caps["route"][0]
    scope = scope_of(decorated, src)
    receiver = compact(src, caps["receiver"][0])
    if not _is_api(ctx, receiver, scope, known):
        return
    verb = caps["verb"][0]
    resource = src.text(caps["resource"][0])
    for path in Args.of(src, caps["args"][0]).positional:
        ctx.out.routes.append(Route(_FRAMEWORK, ["*"], template(src, path), None, src.line(verb), src.col(verb),
                                    resource, receiver, scope=scope))
