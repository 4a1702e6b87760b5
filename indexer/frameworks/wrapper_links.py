"""Wrapper linking of the framework linker: ``WRAPS`` wrapper callable -> ``Endpoint`` edges.

Mixed into the linker of :mod:`indexer.frameworks.link` (which provides ``r``, ``options``, ``result``,
``routers``, ``scopes``, ``order``, ``_linked``, ``_wrapped``, ``_modules``, ``render``, ``prefixes``,
``_router_key``, ``_endpoint``, ``_edge``, ``_members``, ``by_path`` and the other mixins' methods). Cross-cutting
code (a filter, middleware, interceptor, guard, pipe, hook, dependency, error handler or view
decorator) registered on a router or application WRAPS every endpoint it runs for: what runs is the
function or method the registration names, the framework methods of a class
(:data:`WRAPPER_METHODS`), what a factory returns, or the functions nested in a Python decorator or
middleware factory; :func:`decorator_refs` reads the wrappers a Python decorator's text stands for.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from typing import TYPE_CHECKING

from indexer.frameworks.auth_guards import GUARD_CALLBACK, base_callbacks, factory_callbacks
from indexer.frameworks.clients import HOLE
from indexer.frameworks.drf_defaults import DRF_DEFAULTS
from indexer.frameworks.paths import join_paths, path_under
from indexer.frameworks.test_apps import owning_test
from indexer.frameworks.web_families import wrapper_runs_for
from indexer.frameworks.wrap_order import ORDERED_FRAMEWORKS, runs_on_errors
from indexer.model import COMPOSED_BY, DRF_ROUTE, Import, Wrapper
from indexer.resolve.context import FileCtx
from indexer.resolve.values import ClassV, Def, FuncV, InstV, ModuleV

if TYPE_CHECKING:
    from indexer.frameworks.route_links import LinkedRoute

__all__ = ["WRAPPER_METHODS", "WrapperLinks", "decorator_refs", "per_request_functions"]

WRAPPER_METHODS = (
    "doFilter", "doFilterInternal", "filter", "preHandle", "postHandle", "afterCompletion", "canActivate",
    "intercept", "transform", "use", "catch", "__call__", "process_request", "process_view", "process_response",
    "process_exception", "dispatch",
)
"""The methods a framework calls on a wrapper given as a class: servlet / Spring filters (``doFilter``,
``doFilterInternal``), JAX-RS ``ContainerRequestFilter`` / ``ContainerResponseFilter`` (``filter``),
Spring ``HandlerInterceptor`` (``preHandle``, ``postHandle``, ``afterCompletion``), Nest guards
(``canActivate``), interceptors (``intercept``), pipes (``transform``), middleware (``use``) and
exception filters (``catch``), Django middleware (``__call__``, ``process_request``, ``process_view``,
``process_response``, ``process_exception``), Starlette ``BaseHTTPMiddleware`` (``dispatch``)."""


ERROR_METHODS = frozenset({"process_exception"})
"""The :data:`WRAPPER_METHODS` the framework calls only when handling a request failed (Django
middleware's ``process_exception``): their WRAPS edges are of kind ``error_handler``, whatever the
registration's kind (``middleware``), as Flask's ``errorhandler`` or Spring's ``@ExceptionHandler``."""


def _method_name(node_id: str) -> str:
    """The short name of a callable's node id (``r:shop/mw.Audit.process_exception(2)`` ->
    ``process_exception``)."""
    return node_id.split("(", 1)[0].rsplit(".", 1)[-1]


_FACTORY_KINDS = frozenset({"decorator", "middleware"})
"""Wrapper kinds whose Python function returns the function that runs per request (nested in it)."""


def _callee(expr: str) -> str | None:
    """``a.make`` of a call expression ``a.make(x, (y))`` (its last, balanced argument list cut off),
    ``None`` when ``expr`` is no call."""
    if not expr.endswith(")"):
        return None
    depth = 0
    for i in range(len(expr) - 1, -1, -1):
        ch = expr[i]
        if ch == ")":
            depth += 1
        elif ch == "(":
            depth -= 1
            if depth == 0:
                head = expr[:i].strip()
                return head or None
    return None



_NOT_WRAPPING = frozenset({"staticmethod", "classmethod", "property", "abstractmethod", "overload", "override"})


def decorator_refs(text: str, class_level: bool = False) -> list[str]:
    """The callee names a Python decorator's text stands for, as wrappers of the view it decorates:
    ``login_required`` -> ``login_required``, ``permission_required("x")`` -> ``permission_required``,
    ``method_decorator([a, b], name="dispatch")`` -> ``a``, ``b``; none for ``staticmethod`` and the
    like, for anything but ``method_decorator`` on a class (``class_level``), and for text that does
    not parse as an expression."""
    try:
        node = ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError, MemoryError):
        return []
    name = _dotted(node.func if isinstance(node, ast.Call) else node)
    if name is None:
        return []
    last = name.rsplit(".", 1)[-1]
    if last == "method_decorator":
        if not isinstance(node, ast.Call) or not node.args:
            return []
        inner = node.args[0]
        items = inner.elts if isinstance(inner, (ast.List, ast.Tuple)) else [inner]
        names = (_dotted(i.func if isinstance(i, ast.Call) else i) for i in items)
        return [n for n in names if n is not None]
    if class_level or last in _NOT_WRAPPING:
        return []
    return [name]




def per_request_functions(f: Def, defs: Sequence[Def]) -> list[Def]:
    """The functions nested in the Python decorator or middleware factory ``f`` that run per request, among
    ``defs`` (the definitions of ``f``'s file): follow what each level returns uncalled by name
    (:attr:`indexer.model.Definition.returned_refs`) to a function nested in it, level by level, and keep
    the last level, the functions that return no nested function. ``login_required`` returning ``wrapped``:
    ``wrapped``; a factory ``cache(key_prefix=...)`` returning ``wrapper`` returning ``inner``: ``inner`` only,
    as ``cache`` runs once when the module is imported and ``wrapper`` once when it decorates the view; a
    decorator usable both bare and called (``return decorator if fn is None else decorator(fn)``) gives the
    last level of each branch. Empty when ``f`` returns no function nested in it (then which nested function
    runs is not known). In source order; a cycle of names ends the walk."""
    by_qualname = {d.qualname: d for d in defs if d.is_callable}
    leaves: list[Def] = []
    seen = {f.qualname}
    frontier = [f]
    while frontier:
        g = frontier.pop()
        nested = [by_qualname[q] for q in (f"{g.qualname}.{n}" for n in g.d.returned_refs) if q in by_qualname]
        if not nested:
            if g is not f:
                leaves.append(g)
            continue
        for h in nested:
            if h.qualname not in seen:
                seen.add(h.qualname)
                frontier.append(h)
    order = {d.qualname: i for i, d in enumerate(defs)}
    return sorted(leaves, key=lambda d: order.get(d.qualname, 0))


def _dotted(node: ast.expr) -> str | None:
    """``a.b.c`` for a name or attribute chain, else ``None``."""
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if not isinstance(node, ast.Name):
        return None
    parts.append(node.id)
    return ".".join(reversed(parts))


class WrapperLinks:
    """Mixin of the framework linker: WRAPS edges of router- and app-wide registrations and the callables
    a wrapper expression stands for (see the module's docstring)."""

    def wrapper(self, fc: FileCtx, w: Wrapper) -> None:
        """WRAPS edges of one router- or app-wide registration (see the module docstring)."""
        if w.router is not None and w.router.startswith(COMPOSED_BY):
            return  # composed by a decorator function: wraps the routes it decorates (composed_wraps)
        if w.framework in DRF_DEFAULTS:  # REST_FRAMEWORK's default classes: indexer.frameworks.drf_defaults
            srcs, attribute = self.drf_default_guards(fc, w)
            module, ns = self._module_of(fc.path), fc.rules.namespace
            views = [rt for rt in self._linked if rt.view is not None and rt.fc.rules.namespace == ns
                     and self._module_of(rt.fc.path) == module and self.keeps_drf_default(rt.view, attribute)]
            if not srcs:  # a library class (IsAuthenticated), or a path naming nothing
                self.result.outcomes["unlinked_wrapper"] += 1
            return self._wraps(fc, srcs, views, w.line, w.col, framework=DRF_ROUTE, kind=w.kind, scope="app")
        srcs: list[str] = []
        if w.owner is not None:
            rd = fc.def_at(w.owner, w.line)
            if rd is not None and rd.is_callable:
                srcs = [rd.id]
            elif rd is not None and rd.is_type:
                srcs = self._framework_methods(rd)
        elif w.owner_ref is not None:
            dotted = w.framework == "django"  # a settings string: an absolute import path
            srcs = self._wrapper_callables(fc, self.scopes.at(fc, w.line, w.col), w.owner_ref, dotted, w.kind)
        if not srcs:
            self.result.outcomes["unlinked_wrapper"] += 1
            return
        limit = self.render(fc, None, w.path).replace(HOLE, "{}") if w.path.parts else ""
        kind = w.kind
        if w.router is not None:
            key = self._router_key(fc, w.router, w.line, w.col)
            errors = w.framework in ORDERED_FRAMEWORKS and runs_on_errors(self.r, fc, self.scopes.at(fc, w.line, w.col), w)
            if errors:  # `app.use(errorHandler)` of an imported four-parameter function: it runs on errors only
                kind = "error_handler"
            reach = self.order.reach(key, (fc.path, w.line, w.col, w.order), errors) \
                if w.framework in ORDERED_FRAMEWORKS else None  # Express / Koa: what is registered after it
            keys = reach.keys() if reach is not None else self.order.everything(key)
            routes = [rt for rt in self._linked if rt.router in keys and (reach is None or reach.runs_for(rt.router, rt.at))]
            # what goes through the router: its own full paths (a child router also mounted elsewhere
            # is not wrapped there; a Go function handed two routers, only under the one that has it)
            prefixes = [join_paths(p, limit).replace(HOLE, "{}") for p in self.prefixes(key)]
            scope = "router"
        else:
            module, ns = self._module_of(fc.path), fc.rules.namespace
            test = owning_test(fc.lang, fc.path, self.scopes.at(fc, w.line, w.col))  # a test's: its apps only
            routes = [rt for rt in self._linked
                      if rt.fc.rules.namespace == ns and self._module_of(rt.fc.path) == module
                      and wrapper_runs_for(w.framework, w.kind, rt.framework)
                      and (test is None or rt.router is not None and rt.router[0] == fc.path and rt.router[1].startswith(f"{test}#"))]
            props = self.options.properties_for(fc.path)
            base = props.get("server.servlet.context-path") or props.get("spring.webflux.base-path") or ""
            base = join_paths(base, self.global_prefix(fc, w.framework, limit)) if limit else base  # Nest forRoutes
            prefixes = [join_paths(base, limit)] if limit else []
            scope = "app"
        # a middleware class's exception hook runs only when the view fails: an error handler of its routes
        failing = [s for s in srcs if _method_name(s) in ERROR_METHODS] if kind != "error_handler" else []
        for part, part_kind in ((srcs if not failing else [s for s in srcs if s not in failing], kind),
                                (failing, "error_handler")):
            if part:
                self._wraps(fc, part, routes, w.line, w.col, prefixes, w.methods, framework=w.framework,
                            kind=part_kind, scope=scope, path=limit or None)

    def _wraps(self, fc: FileCtx, srcs: Sequence[str], routes: Sequence[LinkedRoute], line: int, col: int,
               prefixes: Sequence[str] = (), methods: Sequence[str] = (), **props: str | None) -> None:
        """WRAPS edges, owned by ``fc``, from each of ``srcs`` to each endpoint of ``routes`` under one of ``prefixes``
        (a ``path`` limit is written as the full prefix it is under) and of one of ``methods`` or any (``*``) (none: no
        limit); the endpoints' nodes are emitted in ``fc`` too, so the edges never dangle whichever file goes first.

        Volume: one edge per (callable that runs, endpoint), i.e. wrappers x endpoints, not more: an
        app-wide filter of one method on a 1,000-endpoint application is 1,000 edges. Measured:
        spring-petclinic gains 38 WRAPS (controller ``@ModelAttribute`` / ``@InitBinder`` methods x their
        controller's routes) beside 823 other edges; the JWT fixture, 30 for 6 endpoints (a filter
        registered twice, an interceptor of two methods, two exception handlers); 200 generated Spring
        controllers of 5 routes with 3 filter beans, 3,000 for 1,000 endpoints (the whole index in
        1.7 s; the blast radius of a method the three filters call, 0.18 s).

        A route whose whole path is unknown values has no endpoint, only handlers (its ``entries``,
        ``http`` entry points): each of ``srcs`` wraps such a handler itself (a WRAPS edge to the
        handler's node) when no prefix limits the registration or one of them is the root (the route's
        path, unknown, may be anything under the root; under a known prefix it may not be)."""
        seen = self._wrapped[fc.path]
        anywhere = not prefixes or any(not p.strip("/") for p in prefixes)
        for rt in routes:
            for handler, method in rt.entries if anywhere else ():
                if methods and method not in (*methods, "*"):
                    continue
                for src in srcs:
                    if src != handler and (src, handler, line, col) not in seen:
                        seen.add((src, handler, line, col))
                        self._edge(fc, "WRAPS", src, handler, line, col, **props, service=rt.service)
                        self.result.outcomes["wraps"] += 1
            for eid, method, full in rt.endpoints:
                under = next((p for p in prefixes if path_under(full, p)), None)
                if prefixes and under is None or methods and method not in (*methods, "*"):
                    continue
                full_limit = "/" + under.strip("/") if props.get("path") and under else None  # `/api/x`
                shown = {**props, "path": full_limit} if full_limit else props
                for src in srcs:
                    if (src, eid, line, col) in seen:
                        continue
                    seen.add((src, eid, line, col))
                    self._endpoint(fc, method, full)
                    self._edge(fc, "WRAPS", src, eid, line, col, **shown, service=rt.service)
                    self.result.outcomes["wraps"] += 1

    def _wrapper_callables(self, fc: FileCtx, scope: str | None, expr: str, dotted: bool = False,
                           kind: str = "") -> list[str]:
        """Ids of what runs when the wrapper ``expr`` (resolved like a callee in ``scope``) wraps a
        request: a function or method itself; a class's (or an instance's class's) framework methods.
        A class given as a ``dependency`` (FastAPI ``Depends(Params)``) is built: its constructor.
        A call (``jwtFilter()``, ``authenticate({ secret })``) is what it returns: an instance's
        framework methods; when the resolver cannot type the result (no return type, no inferred
        return: a JavaScript or Python factory returning a closure), the function called itself, which
        owns the returned closure's calls (calls in anonymous functions belong to the named function
        around them, :mod:`indexer.model`); a factory that returns functions of this repository by name
        (``return _strict if required else _lenient``: :attr:`indexer.model.Definition.returned_refs`)
        stands for those, whatever its declared type; a library type (``localeChangeInterceptor()`` returning
        Spring's ``LocaleChangeInterceptor``) is nothing. A Python ``decorator`` or ``middleware``
        function is a factory too: the functions nested in it that run per request
        (:func:`per_request_functions`: ``login_required``'s ``wrapped``, ``cache(...)``'s ``wrapper``'s ``inner``,
        a Django middleware factory's ``middleware(request)``) count, not the import-time levels above them.
        ``dotted``: ``expr`` may also be an absolute ``module.name`` path, imported from its module
        when no name of the file binds it (Django settings). Empty when it resolves to nothing of this
        repository."""
        expr = expr.strip()
        if expr.startswith("new "):  # Java / TypeScript ``new JwtFilter(...)``: the class
            expr = expr[4:].split("(", 1)[0].strip()
        callee = _callee(expr)
        v = self.r.resolve_expr(fc, scope, expr if callee is None else callee + "()")
        if v is None and dotted and callee is None and "." in expr:
            module, _, name = expr.rpartition(".")
            v = self.r.resolve_import(fc, Import(name, module, name))
        if isinstance(v, ModuleV):  # `app.use(errorHandler())` of a required `module.exports = () => ...`
            v = self.r.module_member(v.ns, v.key, "default")
        if isinstance(v, FuncV):
            if (v.f.file.path, f"{v.f.qualname}#return") in self.routers:
                return []  # `app.use("/api", routes())`: a router the function returns is mounted, no middleware
            return self._function_ids(v.f, kind) if v.f.file.repo == self.r.repo else []
        if isinstance(v, ClassV) and kind == "dependency":  # FastAPI builds a class dependency
            built = self._members(v.c, v.c.file.rules.constructor_name or v.c.name)
            if built:
                return [m.id for m in built]
        if isinstance(v, (ClassV, InstV)):  # and what a library base it extends runs (passport's AuthGuard("jwt"))
            return list(dict.fromkeys(self._framework_methods(v.c) + base_callbacks(self.r, v.c, self.default_strategies)))
        if callee is not None:
            f = self.r.resolve_expr(fc, scope, callee)
            if isinstance(f, FuncV) and f.f.file.repo == self.r.repo:
                returned = self._returned_functions(f.f)
                if returned:  # a factory returning functions of this repository by name: those run
                    return returned
                if v is None:  # an untyped result: the factory (a library object: nothing)
                    return self._function_ids(f.f, kind)
        return []

    def composed_wraps(self, fc: FileCtx, scope: str | None, expr: str, linked: LinkedRoute, line: int, col: int,
                       framework: str) -> bool:
        """WRAPS edges of the wrappers an application's decorator ``expr`` (resolved like a callee in
        ``scope`` of ``fc``) composes, for the route ``linked`` it decorates: the :class:`Wrapper` facts of
        the decorator function's file whose router is :data:`~indexer.model.COMPOSED_BY` + its qualname
        (Nest's ``applyDecorators(UseGuards(RolesGuard), ...)``), each resolved in that function's scope, of
        that Wrapper's kind. Whether the decorator composes any (nothing is linked otherwise: a decorator
        that composes none, or one of a library, is no wrapper)."""
        v = self.r.resolve_expr(fc, scope, expr)
        if not isinstance(v, FuncV) or v.f.file.repo != self.r.repo:
            return False
        home = self.by_path.get(v.f.file.path)
        marker = COMPOSED_BY + v.f.qualname
        composed = [w for w in home.ex.wrappers if w.router == marker] if home is not None else []
        for w in composed:
            if w.owner is not None:
                rd = home.def_at(w.owner, w.line)
                srcs = [rd.id] if rd is not None and rd.is_callable else \
                    self._framework_methods(rd) if rd is not None and rd.is_type else []
            else:
                srcs = self._wrapper_callables(home, v.f.qualname, w.owner_ref or "", kind=w.kind)
            if srcs:
                self._wraps(fc, srcs, [linked], line, col, framework=framework, kind=w.kind, scope="route")
            else:
                self.result.outcomes["unlinked_wrapper"] += 1
            callbacks = self.factory_guards(home, v.f.qualname, w.owner_ref) if w.owner_ref else []
            if callbacks:
                self._wraps(fc, callbacks, [linked], line, col, framework=framework, kind=GUARD_CALLBACK,
                            scope="route", match="inferred")
        return bool(composed)

    def factory_guards(self, fc: FileCtx, scope: str | None, expr: str) -> list[str]:
        """Ids of the strategy callbacks a guard made by an application's factory around passport's runs:
        ``expr`` (``AuthGuard({ public: true })``, or the factory's name) names a function of this repository
        whose file composes ``AuthGuard([names])`` for it (a ``guard`` Wrapper marked
        :data:`~indexer.model.COMPOSED_BY` + its qualname, :mod:`indexer.languages.ecmascript.frameworks.nest`),
        and each such guard runs :func:`~indexer.frameworks.auth_guards.factory_callbacks`; sorted, ``[]`` for
        anything else."""
        expr = expr.strip()
        v = self.r.resolve_expr(fc, scope, _callee(expr) or expr)
        if not isinstance(v, FuncV) or v.f.file.repo != self.r.repo:
            return []
        home = self.by_path.get(v.f.file.path)
        marker = COMPOSED_BY + v.f.qualname
        found: set[str] = set()
        for w in home.ex.wrappers if home is not None else ():
            if w.router == marker and w.kind == "guard" and w.owner is None and (w.owner_ref or "").startswith("AuthGuard("):
                found.update(factory_callbacks(self.r, home, w.owner_ref or "", self.default_strategies))
        return sorted(found)

    def _chosen_at_run_time(self, fc: FileCtx, scope: str | None, expr: str) -> bool:
        """Whether the wrapper ``expr`` is a call of a factory that returns one of several functions
        (``authorizer(required=False)`` returning ``_strict if required else _lenient``): which one runs
        depends on the arguments, so its WRAPS edges say ``match: inferred``."""
        callee = _callee(expr.strip())
        if callee is None:
            return False
        f = self.r.resolve_expr(fc, scope, callee)
        return isinstance(f, FuncV) and len(f.f.d.returned_refs) > 1

    def _returned_functions(self, f: Def) -> list[str]:
        """Ids of the functions of this repository factory ``f`` returns uncalled
        (:attr:`indexer.model.Definition.returned_refs`, resolved in ``f``'s own scope): a FastAPI
        ``Depends(get_current_user_authorizer())`` runs ``_get_current_user``, which the factory
        returns, not the factory's body; ``return Repo`` the constructor of ``Repo``."""
        out: list[str] = []
        for g in self.r.returned_values(f):  # a class returned is built: its constructor runs
            if isinstance(g, FuncV) and g.f.file.repo == self.r.repo:
                out.append(g.f.id)
            elif isinstance(g, ClassV) and g.c.file.repo == self.r.repo:
                out += [m.id for m in self._members(g.c, g.c.file.rules.constructor_name or g.c.name)]
        return out

    def _function_ids(self, f: Def, kind: str) -> list[str]:
        """``f`` and, for a Python ``decorator`` / ``middleware`` factory, every function nested in it (in
        other languages, the nested ones it returns: an Express ``errorHandler()``'s ``error_handler``)."""
        if kind not in _FACTORY_KINDS:
            return [f.id]
        self.r.use(("file", f.file.path, ""))  # its nested definitions
        if f.file.lang == "python":
            per_request = per_request_functions(f, f.file.defs)
            if per_request:  # the factory levels above them ran once, at import
                return [g.id for g in per_request]
        inner, returned = f.qualname + ".", {f"{f.qualname}.{n}" for n in f.d.returned_refs}
        return [f.id, *(rd.id for rd in f.file.defs if rd.is_callable and rd.qualname.startswith(inner)
                        and (f.file.lang == "python" or rd.qualname in returned))]

    def _framework_methods(self, c: Def) -> list[str]:
        """The :data:`WRAPPER_METHODS` class ``c`` has (its own or inherited from a class of this
        repository), in that order."""
        return list(dict.fromkeys(m.id for name in WRAPPER_METHODS for m in self._members(c, name)))

    def _module_of(self, path: str) -> str | None:
        """The innermost folder of :attr:`LinkOptions.modules` (Spring modules) or
        :attr:`LinkOptions.units` (service units of any language) holding ``path`` (``None``: none)."""
        if path not in self._modules:
            folders = (*self.options.modules, *self.options.units)
            self._modules[path] = max((m for m in folders if not m or path.startswith(m + "/")), key=len, default=None)
        return self._modules[path]
