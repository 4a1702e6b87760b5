"""Express routes, routers and mounts (JavaScript and TypeScript).

Facts, from ``indexer/languages/ecmascript/queries/express.scm`` and the rules below:

* ``Router("express", name, Template(), line)`` for every module-level variable bound to
  ``express()``, ``express.Router()``, ``Router()`` or ``require("express").Router()`` (an
  application can be mounted like a router: ``app.use("/admin", require("./admin"))``).
* ``Route`` for ``X.get|post|put|delete|patch|options|head|all(path, ...handlers)`` (``all`` ->
  ``["*"]``) and for each verb of a chain ``X.route(path).get(h).post(h2)``; ``router`` is ``X`` as
  written. A path given as an array gives one route per element; a regular expression gives none.
* ``Router("express", name, prefix)`` for a module-level ``new Router({ prefix: "/api" })`` (or
  ``this.router = new Router({ prefix })`` in a class: the router ``this.router``) of
  koa-router / @koa/router (``prefix`` its ``prefix`` option, or the path of a
  ``router.prefix("/api")``, the last written; ``require("koa-router")()`` too; Koa routes are read as Express's) and
  ``new express.Router()``; koa-mount's ``app.use(mount("/api", api))`` reads as ``app.use("/api", api)``.
* A chain built on a factory call, ``const api = Router().use(a).get("/x", h)``, is the router
  ``api``; ``export default Router().use("/api", api)`` (or ``module.exports = ...``) the router
  ``default`` (a ``Router`` record either way, at module level).
* ``Mount("express", X, child, prefix)`` for ``X.use([path,] ...children)``: one per child that can be
  a router: a name, a property chain or ``require("...")`` (kept as written, the linker resolves it
  through the file's imports), never an inline function, another call (``express.json()``), a
  function defined in this file, or a name imported from a package (``helmet``, ``cors``). The first
  argument is the prefix when it is a string or template literal, a concatenation, an array of
  those, or a name that looks like one (an upper-case last part, ``API_PREFIX``, or one with a
  word ``path`` / ``prefix`` / ``url`` / ``base``: ``config.basePath``); otherwise the prefix is
  empty. A child that is the variable of a loop over a list literal of this file (``for (const r of
  routers) app.use("/api", r)``, ``[a, b].forEach((r) => app.use(r))``, ``r.routes()``) stands for
  each element of the list; a loop over a list of object literals (a route table, ``routes.forEach((r)
  => router.use(r.path, r.route))``, ``for (const { prefix, router } of mounts) ...``) reads the call
  once per element, ``r.path`` / ``path`` being that element's value (:meth:`_Detector._per_element`).

``X`` is an Express object when it is (1) bound in this file to one of the factories above (any
scope; ``this.app = express()`` too), (2) declared with the type ``Express`` / ``Application`` /
``Router`` / ``IRouter`` in a file importing ``express``, or (3) named ``app`` / ``router`` / ``...Router`` /
``...router`` (a route file that receives the app: ``module.exports = (app) => { app.get(...) }``);
Koa's ``new Koa()`` is such a factory (``this.app = new Koa()`` in a class's constructor too), and ``this``
is a Koa application in a class extending the ``koa`` import (``class Server extends Koa``);
in case (3) a route needs a literal path starting with ``/`` and a mount a child, and the file must not
import ``fastify`` or ``hono`` without ``express`` (``fastify.py`` and ``hono.py`` read those).

Routers of a function (the mechanism of :mod:`indexer.frameworks.mounts`, as Go's ``go_web.py``): an
Express object that is a parameter of a function definition (``module.exports = (app) => {...}``,
the function ``default``; ``export function registerRoutes(r: Router)``; a function of this file a
call hands an Express object, ``mountAuth(router)``, whatever its parameter's name) goes by the
router key ``<function qualname>#<position>`` (``default#0``): its routes, mounts and middleware
hang on that key, with a ``Router`` record of it. A router made in a function and returned
(``const r = Router(); ...; return r``) is ``<function>#return``, another one made in a function
``<function>#<name>`` (``routerApi#router`` of ``function routerApi(app) { const router =
express.Router(); app.use("/api/v1", router); ... }``). A call handing an Express object
of the file (a router, or such a parameter) to a function (``users(app)``, ``routes.register(api)``,
``require("./routes")(app, passport)``; not a method of an Express object, not a package's function)
is a ``Mount`` with ``argument`` the position, the callee as written its child; ``X.use(path,
f())`` with ``f`` a function of this file returning a router, or imported from a module of the
repository, is a ``Mount`` with ``argument`` -1 (and, imported, middleware too: the linker keeps
what resolves). A function never handed a router keeps its routes' own paths, as before.

Handlers: the *last* argument is the handler (the ones before it are middleware). A function
defined in this file -> ``handler`` its qualname; a name or property chain from elsewhere
(``controllers.list``, an import) -> ``handler_ref`` that text (``this.list`` -> ``Class.list``); a
wrapper call (``asyncHandler(controller.list)``, ``h.bind(x)``) is looked through. An inline arrow /
function (wrapped or not) becomes a definition of its own, named after the route (``DELETE /:id``,
the first path of an array; :mod:`indexer.symbols` has the scheme), which owns the calls in its body;
``handler`` is its qualname.
Middleware (issue 14): the arguments of a route before its handler (arrays spread) are its
``Route.wrappers`` in order (kind ``middleware``; ``error_handler`` for a function of this file with
four parameters); the code named: a function of this file by its qualname, a name or property chain
as written (``auth.required``), a call by its callee (``validate(schema)`` -> ``validate``: the
factory whose returned function runs), an inline function as a definition of its own named
``middleware <route name>`` (``middleware GET /x``). Each argument of ``X.use([path,] ...)`` is a
:class:`Mount`, a :class:`Wrapper` (``router`` ``X``, ``path`` the mount path) or both, by the rule of
:meth:`_Detector._use_arg`: inline functions, functions of this file, calls other than
``require("./x")`` / ``X.routes()`` and names of package imports are middleware; Express objects
of this file, names whose last word says router (``ordersRouter``, ``userRoutes``, ``api``) or
imported from a module whose path says so (``./routes/x``, ``./tag/tag.controller``) are mounts;
names imported from a module whose path says middleware (``./middleware/auth``) are middleware;
any other name is both (the linker keeps what resolves). An inline ``use`` function is named
``middleware X.use /path`` (``error_handler X.use /path`` with four parameters: Express error
middleware). In a file importing ``koa`` (and not ``express``) the wrappers' framework is ``koa``.
Positions: the call's start; a chained verb's property name (the links of a chain share a start). The
mounts and wrappers of one ``use`` call keep their arguments' order (``order``: Express and Koa run them
in that order, so ``app.use(router, notFound)`` runs ``notFound`` only after the router's routes).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.ecmascript.frameworks.express_loops import LoopedUses
from indexer.languages.ecmascript.frameworks.common import (
    FUNCTION_NODES, FUNCTION_TYPES, JsFile, arguments, js_file, unwrap,
)
from indexer.model import FileExtraction, Mount, Route, Router, Template, Wrapper, WrapperRef
from indexer.symbols import handler_name, path_text

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")

FRAMEWORK = "express"
_VERBS = frozenset({"get", "post", "put", "delete", "patch", "all", "options", "head"})
_TYPES = frozenset({"Express", "Application", "Router", "IRouter"})
_NAMED_LIKE = re.compile(r"^(app|router|\w*Router|\w*router)$")
_CONSTANT_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
_NAME_PART = re.compile(r"[A-Z]?[a-z]+|[A-Z]+(?![a-z])")
_PATH_WORDS = frozenset({"path", "prefix", "url", "base"})
_PACKAGE = re.compile(r"^(@[\w.-]+/)?[\w.-]+$")
_MODULES = ("express",)
# The last word of a `use` argument's name, or of the module it is imported from, that says router
# (mounted) or middleware (wrapping): `ordersRouter`, `./routes/users`, `./tag/tag.controller` vs
# `requireAuth` from `./middleware/auth`.
_ROUTER_WORDS = re.compile(r"(?i)(router|routes?|app|api|controllers?|endpoints?)s?$")
_ROUTER_MODULE = re.compile(r"(?i)(^|[/.\-_])(routers?|routes?|api|apis|controllers?|endpoints?|app)([/.\-_]|$)")
_MIDDLEWARE_MODULE = re.compile(r"(?i)(middlewares?|auth\w*|guards?|security|passport|session|cors|logger|logging)")
_REQUIRES = ('require("express")', "require('express')")
_KOA_ROUTERS = ("@koa/router", "koa-router")
_REQUIRED = frozenset({*(f'require("{m}")' for m in _KOA_ROUTERS), 'require("express").Router'})
"""Factories written as a ``require`` call, whose receiver text (``require().Router``) says nothing."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Express routers, routes and mounts to ``out``."""
    jf = js_file(root, src, out)
    matches = jf.matches("express")
    if not matches:
        return
    _Detector(jf, out).run(matches)


class _Detector(LoopedUses):
    def __init__(self, jf: JsFile, out: FileExtraction) -> None:
        self.jf = jf
        self.out = out
        locals_ = jf.import_locals(*_MODULES)
        self.express_imported = bool(locals_) or jf.has(b'require("express")', b"require('express')")
        self.express_names = {k for k, v in locals_.items() if v in (None, "default")} or {"express"}
        self.router_names = {k for k, v in locals_.items() if v == "Router"}
        # `var Router = express.Router` (express's own tests, apps aliasing the factory)
        self.router_names |= {b.name for b in out.bindings if b.how == "alias" and b.scope is None
                              and b.type in {f"{e}.Router" for e in self.express_names}}
        # koa-router / @koa/router: `new Router({ prefix: "/api" })` (its routes are read as Express's)
        self.koa_routers = {k for k, v in jf.import_locals(*_KOA_ROUTERS).items() if v in (None, "default", "Router")}
        # Koa applications: `new Koa()`, and `this` in a class extending Koa (`class Server extends Koa`)
        self.koa_apps = {k for k, v in jf.import_locals("koa").items() if v in (None, "default", "Koa")}
        self.koa_classes = {d.qualname for d in out.definitions if any(b in self.koa_apps for b in d.bases)}
        # koa-mount: `app.use(mount("/api", api))` mounts `api` (a Koa application or router) under `/api`
        self.koa_mounts = {k for k, v in jf.import_locals("koa-mount").items() if v in (None, "default")}
        self.objects: set[str] = set()  # receivers known to be Express applications / routers
        self.routers: set[str] = set()  # names of the Router records emitted
        # routers of a function (router keys, indexer/frameworks/mounts.py): a parameter's position per
        # function qualname that a call of this file hands an Express object (`mountAuth(router)`), and
        # the router key of a function's local router, by the function node and name
        self.handed: dict[str, set[int]] = {}
        self.locals: dict[tuple[int, str], str] = {}
        # a Fastify file's `app.get("/x", h)` is Fastify's (fastify.py), unless the file uses Express too
        self.framework = "koa" if (jf.import_locals("koa") or jf.has(b'require("koa")', b"require('koa')")) and not self.express_imported else FRAMEWORK
        self.by_name = self.express_imported or not (
            jf.import_locals("fastify", "hono") or jf.has(b'require("fastify")', b"require('fastify')")
        )

    def run(self, matches: list[dict[str, list[Node]]]) -> None:
        calls: list[dict[str, list[Node]]] = []
        handing: list[dict[str, list[Node]]] = []
        for caps in matches:
            if "factory" in caps:
                self._factory(caps)
            elif "handing" in caps:
                handing.append(caps)
            else:
                calls.append(caps)
        if self.express_imported:
            self.objects.update(b.name for b in self.out.bindings if b.how == "declared" and b.type in _TYPES)
        handing = [caps for caps in handing if self._maybe_router(self.jf.text(caps["arg"][0]))]
        for caps in handing:  # functions of this file handed a router: their parameter is one
            self._mark(caps)
        for caps in calls:
            verb = self.jf.text(caps["verb"][0])
            if verb == "use":
                self._mounts(caps)
            elif verb == "prefix":
                self._prefix(caps)
            else:
                self._route(caps, verb)
        for caps in handing:
            self._handing(caps)

    # -- objects ---------------------------------------------------------------------------------

    def _is_factory(self, callee: str) -> bool:
        """Whether a callee text creates an Express application or router."""
        head, _, last = callee.rpartition(".")
        return (
            callee in self.express_names
            or callee in self.router_names
            or callee in self.koa_routers
            or callee in self.koa_apps
            or (last == "Router" and (head in self.express_names or head in _REQUIRES))
        )

    def _prefix(self, caps: dict[str, list[Node]]) -> None:
        """koa-router's ``router.prefix("/api")`` on a module-level router of this file: the router's
        prefix (the last written wins, as koa-router's ``opts.prefix``)."""
        args = arguments(caps["args"][0])
        name = self.jf.text(caps["object"][0])
        if len(args) != 1 or caps["object"][0].type != "identifier" or not self._is_path(args[0]):
            return
        for router in self.out.routers:
            if router.name == name:
                router.prefix = self.jf.template(args[0])

    def _factory(self, caps: dict[str, list[Node]]) -> None:
        factory = caps["factory"][0]
        if not (self._is_factory(self.jf.receiver(factory)) or self.jf.text(factory).replace("'", '"') in _REQUIRED):
            return
        name = self.jf.receiver(caps["name"][0])
        self.objects.add(name)
        decl = caps.get("declarator")
        if self.jf.receiver(factory) in self.koa_apps and not (decl and _module_level(decl[0]) and self._exported(name)):
            return  # a Koa application: an object whose `use` and routes count, no router of its own
        if decl and _module_level(decl[0]):  # an exported module-level Koa application too: koa-mount mounts it
            self._router(name, decl[0], self._prefix_option(caps["factory"][0]))
        elif decl:
            self._local(name, decl[0])
        elif name.startswith("this."):  # `this.router = new Router({ prefix })` in a class: its own prefix
            prefix = self._prefix_option(caps["factory"][0])
            if prefix.parts:
                self._router(name, caps["name"][0], prefix)

    def _exported(self, name: str) -> bool:
        """Whether the module exports its top-level ``name`` (``export default api``, ``module.exports
        = app``, ``export { api }``, ``export const api = ...``): another module may mount it."""
        return any(ex.local == name for ex in self.out.exports) or any(
            d.parent is None and d.name == name and d.exported for d in self.out.definitions)

    def _prefix_option(self, factory: Node) -> Template:
        """A koa-router's own prefix: ``new Router({ prefix: "/api" })``; else empty."""
        made = factory.parent
        args = arguments(made.child_by_field_name("arguments")) if made is not None and made.type == "new_expression" else []
        prefix = self.jf.object_pairs(unwrap(args[0])).get("prefix") if args else None
        return self.jf.template(prefix) if prefix is not None else Template()

    def _router(self, name: str, node: Node, prefix: Template | None = None) -> None:
        if name not in self.routers:
            self.routers.add(name)
            self.out.routers.append(Router(FRAMEWORK, name, prefix or Template(), self.jf.src.line(node)))

    def _is_object(self, receiver: str) -> bool:
        return receiver in self.objects

    def _accepts(self, receiver: str, node: Node) -> bool:
        """Whether ``receiver`` at ``node`` is an Express object known without a name rule: made or
        typed in this file, or the parameter of a function a call of this file hands one to."""
        if self._is_object(receiver) or (receiver == "this" and self.jf.class_of(node) in self.koa_classes):
            return True
        found = self._param(receiver, node)
        return found is not None and found[1] in self.handed.get(found[0], ())

    def _maybe_router(self, name: str) -> bool:
        """A cheap gate on a name handed to a function: whether it may be a router at all."""
        return self._is_object(name) or bool(self.by_name and _NAMED_LIKE.match(name))

    def _binder(self, name: str, node: Node, locals_too: bool) -> tuple[Node, int | None] | None:
        """The innermost function around ``node`` binding ``name``: ``(function, position)`` for a
        parameter, ``(function, None)`` for a local router (``locals_too``: :attr:`locals`); ``None``."""
        n = node.parent
        while n is not None:
            if n.type in FUNCTION_NODES:
                names = _param_names(self.jf, n)
                if name in names:
                    return n, names.index(name)
                if locals_too and (n.id, name) in self.locals:
                    return n, None
            n = n.parent
        return None

    def _param(self, name: str, node: Node) -> tuple[str, int] | None:
        """(qualname, position) of the function defining ``name`` as its parameter around ``node``,
        when that function is a definition (an anonymous callback binding it: ``None``)."""
        found = self._binder(name, node, False)
        d = self.jf.function_definition(found[0]) if found is not None else None
        return (d.qualname, found[1]) if d is not None and found[1] is not None else None

    def _key(self, name: str, node: Node) -> str:
        """The router key (:mod:`indexer.frameworks.mounts`) an Express object named ``name`` at
        ``node`` goes by: ``<function>#<position>`` for a function's parameter, ``<function>#return``
        for a local router the function returns, ``<function>#<name>`` for another local router, else
        the name as written."""
        found = self._binder(name, node, True) if "." not in name and name.isidentifier() else None
        if found is None:
            return name
        fn, position = found
        if position is None:
            key = self.locals[(fn.id, name)]
        else:
            d = self.jf.function_definition(fn)
            if d is None:
                return name
            key = f"{d.qualname}#{position}"
        self._router(key, fn)
        return key

    def _local(self, name: str, declarator: Node) -> None:
        """Record a router made in a function definition (``const r = express.Router()``): the key
        ``<function>#return`` when the function returns it (``return r``, with a ``Router`` record
        now: a caller may mount it), else ``<function>#<name>``."""
        fn = declarator.parent
        while fn is not None and fn.type not in FUNCTION_NODES:
            fn = fn.parent
        if fn is None:
            return
        d = self.jf.function_definition(fn)
        body = fn.child_by_field_name("body")
        if d is None or body is None:
            return
        if any(self.jf.text(r.named_children[0]) == name for r in _returns(body) if r.named_children):
            self.locals[(fn.id, name)] = f"{d.qualname}#return"
            self._router(f"{d.qualname}#return", fn)
        else:
            self.locals[(fn.id, name)] = f"{d.qualname}#{name}"

    def _mark(self, caps: dict[str, list[Node]]) -> None:
        """A call of a function of this file handing it an Express object (``mountAuth(router)``):
        that parameter of the function is a router (its receivers route without a name rule)."""
        callee, arg, call = caps["callee"][0], caps["arg"][0], caps["handing"][0]
        name = self.jf.text(arg)
        if callee.type != "identifier" or not (self._is_object(name) or self._param(name, call) is not None):
            return
        target = self.jf.local_callable(self.jf.text(callee), self.jf.code_scope(call))
        if target is not None:
            self.handed.setdefault(target, set()).add(_position(arg))

    def _handing(self, caps: dict[str, list[Node]]) -> None:
        """A call handing an Express object to a function (``users(app)``, ``registerRoutes(api)``,
        ``require("./routes")(app, passport)``): a :class:`Mount` with ``argument`` the position, the
        callee as written its child (``require("./x")`` for a required module), the object's router key
        its parent; the linker resolves the callee (:mod:`indexer.frameworks.mounts`)."""
        jf = self.jf
        callee, arg, call = caps["callee"][0], caps["arg"][0], caps["handing"][0]
        name = jf.text(arg)
        if not (self._accepts(name, call) or (self.by_name and _NAMED_LIKE.match(name))):
            return
        key = self._key(name, call)
        if key == name and not self._is_object(name):
            return  # a name-like value that is no parameter or object of this file (`app` of an import)
        if callee.type == "call_expression":
            child = self._child(callee, None)
            if child is None or not child.startswith("require("):
                return
        else:
            child = jf.name_ref(callee)
            if child is None or child.split(".", 1)[0] in ("console", "this"):
                return
            owner = child.rpartition(".")[0]
            if owner and (self._accepts(owner, call) or _NAMED_LIKE.match(owner)):
                return  # a method of an Express object itself: `app.use(api)`, `app.listen(port)`
            module = jf.imported(child.split(".", 1)[0])
            if module is not None and _PACKAGE.match(module) and not module.startswith("."):
                return  # a package's function (`http.createServer(app)`, `supertest(app)`)
        line, col = jf.pos(call)
        self.out.mounts.append(Mount(FRAMEWORK, key, child, Template(), line, col, argument=_position(arg)))

    def _target(self, caps: dict[str, list[Node]]) -> tuple[str, Node | None, tuple[int, int]] | None:
        """What a verb / ``use`` call applies to: (router expression, the path of a
        ``router.route(path)`` chain or ``None``, position), or ``None`` when not Express."""
        obj = caps["object"][0]
        if obj.type != "call_expression":
            return self.jf.receiver(obj), None, self.jf.pos(caps["call"][0])
        chain = self._chain(obj)
        if chain is None:
            return None
        pos = self.jf.pos(caps["verb"][0])  # the links of a chain share their start
        if chain[0] == "route":
            return self.jf.receiver(chain[1]), chain[2], pos
        owner = self._chain_owner(caps["call"][0])
        return (owner, None, pos) if owner is not None else None

    def _chain(self, node: Node) -> tuple[str, Node, Node | None] | None:
        """The object of a chained call, followed down through earlier verb / ``use`` links:
        ``("route", router, path)`` for ``router.route(path)...``, ``("factory", call, None)`` for
        ``Router().use(a)...`` / ``express.Router().get(...)``."""
        jf = self.jf
        for _ in range(64):
            if node.type != "call_expression":
                return None
            fn = node.child_by_field_name("function")
            if fn is None:
                return None
            if fn.type == "member_expression":
                name = jf.text(fn.child_by_field_name("property"))
                obj = fn.child_by_field_name("object")
                if obj is None:
                    return None
                if name == "route":
                    args = arguments(node.child_by_field_name("arguments"))
                    return ("route", obj, args[0]) if args else None
                if name in _VERBS or name == "use":
                    node = obj
                    continue
            return ("factory", node, None) if self._is_factory(jf.receiver(fn)) else None
        return None

    def _chain_owner(self, call: Node) -> str | None:
        """The name a chain built on a factory call is bound to: ``const api = Router().use(a)`` ->
        ``api``; ``export default Router().use(...)`` / ``module.exports = ...`` -> ``default``."""
        top = call
        for _ in range(64):
            member = top.parent
            if member is None or member.type != "member_expression" or member.parent is None:
                break
            if member.parent.type != "call_expression" or member.parent.child_by_field_name("function") != member:
                break
            top = member.parent
        holder = top.parent
        name: str | None = None
        if holder is None:
            return None
        if holder.type == "variable_declarator" and holder.child_by_field_name("value") == top:
            name = self.jf.text(holder.child_by_field_name("name"))
            if _module_level(holder):
                self._router(name, holder)
        elif holder.type == "export_statement" and holder.parent is not None and holder.parent.type == "program":
            name = "default"
            self._router(name, holder)
        elif holder.type == "assignment_expression" and holder.child_by_field_name("right") == top:
            name = self.jf.receiver(holder.child_by_field_name("left"))  # type: ignore[arg-type]
            if name == "module.exports":
                name = "default"
                self._router(name, holder)
        if name is not None:
            self.objects.add(name)
        return name

    # -- routes ----------------------------------------------------------------------------------

    def _route(self, caps: dict[str, list[Node]], verb: str) -> None:
        args = arguments(caps["args"][0])
        target = self._target(caps)
        if target is None:
            return
        router, route_path, (line, col) = target
        if route_path is None:
            if len(args) < 2:
                return  # `app.get("env")` reads a setting; a route has a path and a handler
            route_path, handlers = args[0], args[1:]
        else:
            handlers = args
        if not handlers:
            return
        if not self._accepts(router, caps["call"][0]) and not self._named_like(router, route_path):
            return
        router = self._key(router, caps["call"][0])
        methods = ["*"] if verb == "all" else [verb.upper()]
        paths = self._paths(route_path)
        if not paths:
            return
        name = handler_name(methods, paths[0])
        wrappers = self._route_wrappers(handlers[:-1], caps["call"][0], name)
        handler, handler_ref = self._handler(handlers[-1], caps["call"][0], name)
        for path in paths:
            self.out.routes.append(
                Route(FRAMEWORK, methods, path, handler, line, col, handler_ref, router, list(wrappers))
            )

    def _route_wrappers(self, nodes: list[Node], call: Node, route_name: str) -> list[WrapperRef]:
        """A route's middleware arguments (arrays flattened), in the order they run; an inline one
        becomes the definition ``middleware <route name>``."""
        out: list[WrapperRef] = []
        for node in _flatten(nodes):
            runs = self.jf.runs(node, call, f"middleware {route_name}")
            if runs is None:
                continue
            owner, ref = runs
            if owner is not None:
                out.append(WrapperRef(self._kind(owner), owner))
            elif ref is not None:
                out.append(WrapperRef("middleware", ref))
        return out

    def _kind(self, owner: str | None) -> str:
        """``error_handler`` for a function of four parameters (Express error middleware), else
        ``middleware``."""
        return "error_handler" if self.jf.param_count(owner) == 4 else "middleware"

    def _named_like(self, receiver: str, path: Node) -> bool:
        """Rule (3): a receiver named like an app or router, with a literal path starting with ``/``."""
        if not self.by_name or not _NAMED_LIKE.match(receiver):
            return False
        literal = self.jf.template(path).parts
        return bool(literal) and literal[0][0] == "lit" and literal[0][1].startswith("/")

    def _paths(self, node: Node) -> list[Template]:
        node = unwrap(node) or node
        if node.type == "array":
            out: list[Template] = []
            for element in node.named_children:
                out.extend(self._paths(element))
            return out
        if node.type == "regex":
            return []
        return [self.jf.template(node)]

    def _handler(self, node: Node, call: Node, name: str) -> tuple[str | None, str | None]:
        """(handler, handler_ref) of a route's last argument; an inline function becomes the
        definition ``name`` (:meth:`JsFile.inline_function`)."""
        jf = self.jf
        for _ in range(8):
            node = unwrap(node) or node
            found = jf.handler(node, call, name)
            if found is not None:
                return found
            if node.type == "call_expression":
                fn = node.child_by_field_name("function")
                if (
                    fn is not None
                    and fn.type == "member_expression"
                    and jf.text(fn.child_by_field_name("property")) == "bind"
                ):
                    node = fn.child_by_field_name("object")  # type: ignore[assignment]
                    continue
                args = arguments(node.child_by_field_name("arguments"))
                if not args:
                    return None, None
                node = args[-1]
                continue
            return None, None
        return None, None

    # -- mounts ----------------------------------------------------------------------------------

    def _mounts(self, caps: dict[str, list[Node]]) -> None:
        """``X.use([path,] ...args)``: each argument is a mounted router (:class:`Mount`), middleware
        (:class:`Wrapper`), or, when the file cannot tell, both (the linker keeps what resolves: a
        mount whose child is no router mounts nothing, a wrapper naming no function wraps nothing);
        see :meth:`_use_arg`."""
        target = self._target(caps)
        if target is None:
            return
        parent, route_path, (line, col) = target
        args = arguments(caps["args"][0])
        if route_path is not None or not args:
            return
        if not (self._accepts(parent, caps["call"][0]) or (self.by_name and _NAMED_LIKE.match(parent))):
            return
        for given in self._per_element(args):
            self._mount(parent, given, caps["call"][0], line, col)

    def _mount(self, parent: str, args: list[Node], call: Node, line: int, col: int) -> None:
        """The mounts and wrappers of one ``X.use(...)`` call's arguments (see :meth:`_mounts`)."""
        jf = self.jf
        written, parent = parent, self._key(parent, call)
        if len(args) == 1:
            args = self._koa_mounted(args[0]) or args
        prefixes = [Template()]
        if len(args) > 1 and self._is_path(args[0]):
            prefixes = self._paths(args[0])
            args = args[1:]
            if not prefixes:  # a regular expression or an empty array: which paths it covers is not modelled
                return
        scope = jf.code_scope(call)
        where = f"{written}.use" + (f" {path_text(prefixes[0])}" if prefixes[0].parts else "")
        for order, arg in enumerate(item for given in _flatten(args) for item in self._looped(given)):
            child, wraps = self._use_arg(arg, call, scope, where)
            if child is not None:
                returned = child.endswith("()")  # a function's returned router: `<function>#return`
                child = self._key(child, call) if child.isidentifier() else child
                for prefix in prefixes:
                    self.out.mounts.append(Mount(FRAMEWORK, parent, child.removesuffix("()"), prefix, line, col,
                                                 argument=-1 if returned else None, order=order))
            if wraps is not None:
                owner, ref = wraps
                kind = self._kind(owner)
                for prefix in prefixes:
                    self.out.wrappers.append(
                        Wrapper(self.framework, kind, owner, line, col, ref, parent, prefix, order=order)
                    )

    def _koa_mounted(self, node: Node) -> list[Node] | None:
        """The arguments of a koa-mount call ``mount([prefix,] app)`` given as a ``use`` call's only
        argument (``app.use(mount("/api", api))``: koa-mount runs ``api`` for the requests under
        ``/api``, the prefix stripped, so it reads as ``app.use("/api", api)``); ``None`` for any
        other argument."""
        inner = unwrap(node) or node
        if inner.type != "call_expression" or not self.koa_mounts:
            return None
        fn = inner.child_by_field_name("function")
        if fn is None or fn.type != "identifier" or self.jf.text(fn) not in self.koa_mounts:
            return None
        return arguments(inner.child_by_field_name("arguments")) or None

    def _use_arg(
        self, node: Node, call: Node, scope: str | None, where: str
    ) -> tuple[str | None, tuple[str | None, str | None] | None]:
        """(mounted child, (owner, owner_ref) of middleware) of one ``use`` argument. The rule:

        * an inline function is middleware, a definition of its own named ``middleware <where>``
          (``error_handler <where>`` with four parameters); a function of this file is middleware;
        * ``require("./x")`` and ``X.routes()`` (koa-router) are mounts; another call
          (``express.json()``, ``cors()``, ``auth({...})``) is middleware: its callee, the factory;
        * a name of a package import (``helmet``, ``passport.initialize``) is middleware;
        * an Express object of this file (``Router()``-made), a name whose last word says router
          (``ordersRouter``, ``userRoutes``, ``api``, ``adminApp``) or one imported from a module
          whose path says so (``./routes/users``, ``./tag/tag.controller``) is a mount;
        * a name imported from a module whose path says middleware (``./middleware/auth``,
          ``./auth``, ``./guards``) is middleware;
        * any other name is both."""
        jf = self.jf
        node = unwrap(node) or node
        t = node.type
        if t in FUNCTION_TYPES:
            name = f"middleware {where}"
            if _arity(node) == 4:
                name = f"error_handler {where}"
            return None, (jf.inline_function(node, name), None)
        if t in ("call_expression", "new_expression"):
            child = self._child(node, scope)
            if child is not None:
                return child, None
            fn = node.child_by_field_name("function")
            if fn is not None and fn.type == "member_expression" and jf.text(fn.child_by_field_name("property")) in (
                "routes", "allowedMethods", "middleware"
            ):
                prop = jf.text(fn.child_by_field_name("property"))
                held = fn.child_by_field_name("object")
                written = jf.receiver(held)  # type: ignore[arg-type]
                # `this.router.routes()` of a router this file makes keeps its name; `require("./x").routes()`
                obj = written if self._is_object(written) else jf.name_ref(held) or self._child(held, scope)  # type: ignore[arg-type]
                return (obj if prop != "allowedMethods" else None), None
            if fn is not None and self._is_factory(jf.receiver(fn)):
                return None, None  # `app.use(Router().get(...))`: a router built in place
            runs = jf.runs(node, call, f"middleware {where}")
            # `app.use("/x", makeRouter())`: the router a function of the repository returns, or the
            # middleware a factory returns (the linker keeps what resolves)
            made = runs[1] if runs is not None and fn is not None and fn.type in ("identifier", "member_expression") else None
            local = jf.local_callable(made, scope) if made is not None else None
            if local is not None:  # a function of this file: its router when it returns one, else middleware
                return (f"{made}()", None) if f"{local}#return" in self.routers else (None, runs)
            module = jf.imported(made.split(".", 1)[0]) if made is not None else None
            imported = module is not None and not (_PACKAGE.match(module) and not module.startswith("."))
            return (f"{made}()" if imported and not _MIDDLEWARE_MODULE.search(module or "") else None), runs
        if t not in ("identifier", "member_expression", "shorthand_property_identifier"):
            return None, None
        if t == "member_expression" and self._is_object(jf.receiver(node)):
            return jf.receiver(node), None  # `this.app.use(this.router)`: a router this file makes
        child = self._child(node, scope)
        runs = jf.runs(node, call, f"middleware {where}")
        if child is None:
            return None, runs
        head = child.split(".", 1)[0]
        module = jf.imported(head) or ""
        last = child.rpartition(".")[2]
        if self._is_object(child) or child in self.routers or _ROUTER_WORDS.search(last) or _ROUTER_MODULE.search(module):
            return child, None
        if module and _MIDDLEWARE_MODULE.search(module):
            return None, runs
        return child, runs

    def _is_path(self, node: Node) -> bool:
        node = unwrap(node) or node
        t = node.type
        if t in ("string", "template_string", "binary_expression", "regex"):
            return True
        if t == "array":
            return all(self._is_path(e) for e in node.named_children)
        if t in ("identifier", "member_expression"):
            ref = self.jf.name_ref(node)
            if ref is None or self._is_object(ref):
                return False
            last = ref.rpartition(".")[2]
            words = {w.lower() for w in _NAME_PART.findall(last)}
            return bool(_CONSTANT_NAME.fullmatch(last)) or bool(words & _PATH_WORDS)
        return False

    def _child(self, node: Node, scope: str | None) -> str | None:
        """The expression of a ``use`` argument that can be a router, or ``None``."""
        jf = self.jf
        node = unwrap(node) or node
        t = node.type
        if t == "call_expression":
            fn = node.child_by_field_name("function")
            args = arguments(node.child_by_field_name("arguments"))
            if fn is not None and jf.text(fn) == "require" and len(args) == 1:
                spec = jf.string(args[0])
                if spec is not None and not _PACKAGE.match(spec):
                    return f'require("{spec}")'
            return None
        if t not in ("identifier", "member_expression", "shorthand_property_identifier"):
            return None  # (the last: a loop element's `{ path, route }`, :meth:`_per_element`)
        ref = jf.name_ref(node)
        if ref is None:
            return None
        head = ref.split(".", 1)[0]
        if t != "member_expression" and jf.local_callable(ref, scope):
            return None  # middleware defined here
        module = jf.imported(head)
        if module is not None and _PACKAGE.match(module) and not module.startswith("."):
            return None  # a package's middleware (helmet, cors, passport)
        return ref


def _flatten(nodes: list[Node]) -> list[Node]:
    """Arguments with array literals spread (``app.use([a, b])``, ``router.get("/x", [auth, v], h)``)."""
    out: list[Node] = []
    for n in nodes:
        u = unwrap(n) or n
        if u.type == "array":
            out.extend(_flatten([c for c in u.named_children if c.type != "comment"]))
        else:
            out.append(n)
    return out


def _arity(fn: Node) -> int:
    """The number of parameters an inline function declares."""
    params = fn.child_by_field_name("parameters")
    if params is None:
        return 1 if fn.child_by_field_name("parameter") is not None else 0
    return sum(1 for p in params.named_children if p.type != "comment")


def _module_level(declarator: Node) -> bool:
    """Whether a variable declarator is a top-level statement's (``export`` included)."""
    decl = declarator.parent
    if decl is None or decl.type not in ("lexical_declaration", "variable_declaration"):
        return False
    stmt = decl.parent
    if stmt is not None and stmt.type == "export_statement":
        stmt = stmt.parent
    return stmt is not None and stmt.type == "program"


def _param_names(jf: JsFile, fn: Node) -> list[str]:
    """The names of a function's parameters by position (``""`` for a destructured one)."""
    single = fn.child_by_field_name("parameter")
    if single is not None:
        return [jf.text(single)]
    params = fn.child_by_field_name("parameters")
    out: list[str] = []
    for p in params.named_children if params is not None else ():
        if p.type == "comment":
            continue
        if p.type in ("required_parameter", "optional_parameter"):
            p = p.child_by_field_name("pattern") or p
        if p.type == "assignment_pattern":
            p = p.child_by_field_name("left") or p
        out.append(jf.text(p) if p.type == "identifier" else "")
    return out


def _position(arg: Node) -> int:
    """The position of an argument in its argument list."""
    args = arg.parent
    return [c.id for c in args.named_children if c.type != "comment"].index(arg.id) if args is not None else 0


def _returns(body: Node) -> list[Node]:
    """The ``return`` statements of a function body, not of the functions nested in it."""
    out: list[Node] = []
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "return_statement":
            out.append(n)
        stack.extend(c for c in n.named_children if c.type not in FUNCTION_NODES and c.type != "class_declaration")
    return out
