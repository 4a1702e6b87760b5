"""Route linking of the framework linker: ``EXPOSES`` handler -> ``Endpoint`` edges.

Mixed into the linker of :mod:`indexer.frameworks.link` (which provides ``r``, ``ctxs``, ``options``,
``result``, ``routers``, ``refused``, ``scopes``, ``_linked``, ``render``, ``_graphql_text``,
``prefixes``, ``_router_key``, ``_endpoint``, ``_edge`` and the other mixins' methods). A route's
handler is named in its file or resolved like a callee (a Django view, ``DetailView.as_view()``, a
class-based view's ``get`` / ``post`` methods, a DRF viewset's actions); its full paths are its
router's full prefixes (or the application's context path, global prefix and URI versions for an
absolute route) joined with its own path; the wrappers written on the route and, for a Python handler
defined in another file, the handler's own decorators, WRAP its endpoints. GraphQL resolvers expose
(schema fields declare) ``<OPERATION> Type.field``.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Mapping
from dataclasses import dataclass, field

from indexer.frameworks.auth_guards import GUARD_CALLBACK, factory_callbacks, guard_callbacks
from indexer.frameworks.clients import HOLE, unknown_only
from indexer.frameworks.django_methods import bound_view, required_methods
from indexer.frameworks.paths import join_paths, unglue_holes
from indexer.frameworks.python_graphql_links import MERGING_FRAMEWORKS
from indexer.frameworks.razor_directives import page_route
from indexer.frameworks.route_tokens import project_of, token_separators, transform_tokens
from indexer.frameworks.router_classes import borrowed_router
from indexer.frameworks.wrapper_links import decorator_refs
from indexer.model import DRF_ROUTE, EXCHANGE_ROUTE, GRAPHQL_SCHEMA, Route
from indexer.resolve.context import FileCtx
from indexer.resolve.values import ClassV, Def, FuncV, InstV
from indexer.symbols import file_id
from stores.contracts import EDGE_RECEIVER, GRAPHQL_OPERATIONS, Edge, declared_route, graphql_operation, receiver_value

__all__ = ["LinkedRoute", "RouteLinks"]

_INLINE_NAME = re.compile(r"^(?!new\s)\S+\s")
"""A ``WrapperRef.expr`` that no expression spells: the qualname, in the route's file, of an inline
function a detector made a definition of its own (``middleware GET /x``, :mod:`indexer.symbols`)."""
_HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
_AS_VIEW = re.compile(r"\.as_view\(.*\)$", re.S)


def _library_view(d: Def) -> bool:
    """Whether ``d`` is a member of Django's own ``View`` (django/views/generic/base.py, when the repository holds
    Django itself)."""
    return d.file.path.endswith("django/views/generic/base.py") and d.d.qualname.startswith("View.")


@dataclass(slots=True)
class LinkedRoute:
    """A route as linked: its file, its router's key (``None``: an absolute route), the service
    exposing it, and its endpoints as ``(endpoint id, method, full path)``; ``entries``: its handlers
    as ``(node id, method)`` when its whole path is unknown values (no endpoint: the middleware that
    wraps it wraps the handler, :meth:`indexer.frameworks.wrapper_links.WrapperLinks._wraps`)."""

    fc: FileCtx
    router: tuple[str, str] | None
    service: str | None
    endpoints: list[tuple[str, str, str]] = field(default_factory=list)
    framework: str = ""
    view: Def | None = None  # a DRF view class or @api_view function (indexer.frameworks.drf_defaults)
    at: tuple[str, int, int, int] = ("", 0, 0, 0)  # where the route is registered (indexer.frameworks.wrap_order)
    entries: list[tuple[str, str]] = field(default_factory=list)


def _application_base(props: Mapping[str, str], framework: str) -> str:
    """The path an application serves its absolute routes under: ``server.servlet.context-path`` (or
    WebFlux's ``spring.webflux.base-path``), then, for Spring MVC routes (``framework`` ``spring``),
    the DispatcherServlet's ``spring.mvc.servlet.path`` (``/shop`` + ``/api``); ``""``: none."""
    base = props.get("server.servlet.context-path") or props.get("spring.webflux.base-path") or ""
    servlet = props.get("spring.mvc.servlet.path") or ""
    if framework == "spring" and servlet.strip("/"):
        base = join_paths(base, servlet)
    return base


class RouteLinks:
    """Mixin of the framework linker: EXPOSES / DECLARES edges of routes (see the module's docstring).
    An EXPOSES edge from a method a class-based view inherits (``EditView.get`` serving
    ``SiteEdit.as_view()``) records the view's class as :data:`~stores.contracts.EDGE_RECEIVER`."""

    view_class: Def | None = None
    """The class of the class-based view the route being linked names (set by :meth:`_resolve_handler`)."""
    head_by_get: str | None = None
    """The ``get`` method that also answers ``HEAD`` on the route being linked (:meth:`_answers_head`), else ``None``."""

    def route(self, fc: FileCtx, route: Route) -> None:
        """EXPOSES edges of ``route`` (a GraphQL resolver's: :meth:`graphql_route`), the WRAPS edges of the
        wrappers written on it, counted in ``result.outcomes`` (``unlinked_handler`` when its handler
        resolves to nothing)."""
        if route.methods and all(m in GRAPHQL_OPERATIONS for m in route.methods):
            return self.graphql_route(fc, route)
        if route.operation is not None:
            return self._linked.append(LinkedRoute(fc, None, *self.api_route(fc, route)))
        if route.framework == EXCHANGE_ROUTE:  # an @HttpExchange interface: its controllers expose it
            return self._linked.append(LinkedRoute(fc, None, *self.exchange_route(fc, route), framework="spring"))
        handlers: list = []  # (node id, methods[, path below the route's own: a DRF viewset action])
        self.view_class = None  # the class of a class-based view (_resolve_handler)
        self.head_by_get = None  # its get, when it answers HEAD too (_answers_head)
        scope = route.handler.rpartition(".")[0] or None if route.handler else None
        if route.handler is not None:
            rd = fc.def_at(route.handler, route.line)
            if rd is not None:  # an inline handler's name may hold dots (`GET /a.json`): ask its parent
                scope = rd.parent
            handlers.append((rd.id if rd is not None else file_id(fc.repo, fc.path), route.methods))
        elif route.handler_ref is not None:
            handlers = self._resolve_handler(fc, route.handler_ref, route.methods, route.scope, route.framework)
            if route.inherited:  # a Django admin view method (indexer.frameworks.admin_sites)
                if handlers:
                    self.inherited_receiver(fc, route)  # type: ignore[attr-defined]
                    handlers = [*handlers, *self.overridden_view_hooks(fc, route, route.methods)]  # type: ignore[attr-defined]
                else:
                    handlers = self.inherited_handlers(fc, route)  # type: ignore[attr-defined]
            if not handlers:
                self.result.outcomes["unlinked_handler"] += 1
                return
        else:
            handlers.append((file_id(fc.repo, fc.path), route.methods))
        raw = unglue_holes(self.render(fc, scope, route.path), route.framework == "django")
        own = raw.replace(HOLE, "{}")
        if route.framework == "aspnet" and self.options.pages and fc.path.endswith(".cshtml.cs"):
            own = page_route(self.options.pages, fc.path, own, route.handler)  # the page's @page "template"
        elif route.framework == "aspnet" and route.handler is not None and self.options.project_refs:
            own = self._transformed_tokens(fc, route, own)  # a slugifying RouteTokenTransformerConvention
        props = self.options.properties_for(fc.path)
        router_key = self._router_key(fc, route.router, route.line, route.col) if route.router else None
        if router_key is not None and (*router_key, route.framework) in self.refused:
            return  # a name built by a class that is no router of the framework (indexer.frameworks.router_classes)
        if route.inherited and router_key not in self.mounts:  # type: ignore[attr-defined]
            self.result.outcomes["unmounted_admin_site"] += 1  # a Django admin site no URLconf mounts serves nothing
            return
        if router_key not in self.routers and borrowed_router(fc, route):
            self.result.outcomes["unconfirmed_router"] += 1  # `@bus.route(...)` on some other `.route`
            return
        if router_key is not None:
            bases = self.prefixes(router_key)
        else:  # Spring / JAX-RS / servlet / Nest: absolute, under the application's context path
            base = join_paths(_application_base(props, route.framework), self.global_prefix(fc, route.framework, own))
            bases = [join_paths(base, version) for version in self.uri_versions(fc, route)]
        service = self.options.service_for(fc.path)
        linked = LinkedRoute(fc, router_key, service, framework=route.framework, view=self.drf_view(fc, route),
                         at=(fc.path, route.line, route.col, 0))
        view = self.view_class
        for base in bases:
            for handler, methods, *tail in handlers:  # a DRF viewset's action: its path below the prefix
                # an inherited handler (`EditView.get` serving `SiteEdit.as_view()`) runs on the view's instance
                recv = view.id if view is not None and handler != view.id and not handler.startswith(view.id + ".") \
                    else None
                full = join_paths(join_paths(base, own), tail[0] if tail else "").replace(HOLE, "{}")
                if HOLE in raw and unknown_only(full):
                    self._unknown_path(fc, route, handler, methods, linked)
                    continue
                for method in methods:
                    eid = self._endpoint(fc, method, full)
                    self._edge(fc, "EXPOSES", handler, eid, route.line, route.col, framework=route.framework,
                               service=service, route=declared_route(full),
                               head=True if method == "GET" and handler == self.head_by_get else None,
                               **{EDGE_RECEIVER: recv and receiver_value(recv, handler, eid, fc.repo)})
                    self.result.outcomes["exposes"] += 1
                    linked.endpoints.append((eid, method, full))
        self._linked.append(linked)
        if route.name or route.framework == DRF_ROUTE:  # what code builds its URL from (indexer.frameworks.route_names)
            self.name_route(route, router_key, bases, own, linked, handlers)  # type: ignore[attr-defined]
        at = self.scopes.at(fc, route.line, route.col) if route.wrappers else None  # where the expressions are written
        for ref in route.wrappers:
            if ref.kind == "decorator" and route.framework == "nest":  # an application's decorator composing Use*
                self.composed_wraps(fc, at, ref.expr, linked, route.line, route.col, route.framework)  # type: ignore[attr-defined]
                continue
            inline = fc.def_at(ref.expr, route.line) if _INLINE_NAME.search(ref.expr) else None
            if ref.annotation and not isinstance(self.r.resolve_expr(fc, at, ref.expr), FuncV):
                continue  # a parameter's type naming no dependency alias (a model class, a library type)
            if inline is not None and inline.is_callable:  # an inline function a detector named
                srcs = [inline.id]
            else:
                srcs = self._wrapper_callables(fc, at, ref.expr, kind=ref.kind)
            failing: set[str] = set()  # of a library guard's callbacks, those run only when its check fails
            guards = [] if srcs else (guard_callbacks(self.r, fc, ref.expr, failing) if ref.kind == "decorator"
                                        else factory_callbacks(self.r, fc, ref.expr, self.default_strategies))
            if not srcs and not guards:
                self.result.outcomes["unlinked_wrapper"] += 1
                continue
            sure = {"match": "inferred"} if guards or self._chosen_at_run_time(fc, at, ref.expr) else {}
            if guards:  # a library guard: the application's callbacks it runs
                self._guard_wraps(fc, guards, failing, linked, route, sure)
                continue
            self._wraps(fc, srcs, [linked], route.line, route.col, framework=route.framework,
                        kind=ref.kind, scope="route", **sure)
            callbacks = self.factory_guards(fc, at, ref.expr) if ref.kind == "guard" else []  # type: ignore[attr-defined]
            if callbacks:  # an application's factory around passport's AuthGuard: its strategies' callbacks
                self._guard_wraps(fc, callbacks, set(), linked, route, {"match": "inferred"})
        if route.handler is None and route.handler_ref is not None and fc.lang == "python":
            self._handler_decorators(fc, route, linked)
        self.class_view_wraps(fc, route, linked)  # fastapi-utils' @cbv: indexer.frameworks.class_views

    def _transformed_tokens(self, fc: FileCtx, route: Route, own: str) -> str:
        """``own``, the path of an ASP.NET attribute route, with the segments its ``[controller]`` / ``[action]``
        tokens gave written as the route token transformer of ``fc``'s .NET project writes them
        (:mod:`indexer.frameworks.route_tokens`); unchanged when the project registers none."""
        if self._token_seps is None:  # type: ignore[has-type]
            self._token_seps = token_separators(self.ctxs, self.options.project_refs)
        separator = self._token_seps.get(project_of(self.options.project_refs, fc.path))
        method = fc.def_at(route.handler, route.line) if separator else None
        cls = fc.def_at(method.parent, route.line) if method is not None and method.parent else None
        if method is None or cls is None:
            return own
        written = " ".join([*cls.heads.decorators, *method.heads.decorators])
        tokens = {}
        if "[controller]" in written:
            token = cls.name.removesuffix("Controller")
            tokens[token.lower()] = token
        if "[action]" in written:
            tokens[method.name.lower()] = method.name
        return transform_tokens(own, separator, tokens)

    def _unknown_path(self, fc: FileCtx, route: Route, handler: str, methods: tuple[str, ...] | list[str],
                      linked: LinkedRoute) -> None:
        """A route whose whole path is unknown values (an unresolved constant: Ktor's ``get<T> {}`` of an
        unannotated class, ``@GetMapping(Paths.X)`` of a library, ``app.get(PATH, h)`` of an import) names
        no endpoint, as a client's URL of unknown values only does not
        (:func:`~indexer.frameworks.clients.unknown_only`): ``GET /{}`` would serve any one-segment path
        and link every such request. Its handler stays an ``http`` entry point: an ENTRY self-edge
        (counted ``unknown_route_path``), and one of ``linked``'s ``entries``, which the middleware
        wrapping the route wraps (a WRAPS edge to the handler itself)."""
        for method in methods:
            if (handler, method) not in linked.entries:
                linked.entries.append((handler, method))
            self.result.edges[fc.path].append(Edge(
                "ENTRY", handler, handler, fc.repo, fc.path, route.line, route.col, None,
                {"kind": "http", "framework": route.framework, "name": f"{method} (unknown path)"}))
            self.result.outcomes["unknown_route_path"] += 1

    def _handler_decorators(self, fc: FileCtx, route: Route, linked: LinkedRoute) -> None:
        """WRAPS from the view decorators of a Python handler defined in another file (a Django view
        in ``views.py`` routed from ``urls.py``; the detectors list those of a handler of the route's
        own file in :attr:`Route.wrappers`): every decorator of a function, resolved in the handler's
        file; for a class-based view the ``method_decorator(...)`` decorators of the class and the
        decorators of its ``dispatch``. The route's file owns the edges and depends on the handler's."""
        v = self.r.resolve_expr(fc, None, _AS_VIEW.sub("", route.handler_ref or ""))
        if isinstance(v, FuncV):
            decorated = [(v.f, False)]
        elif isinstance(v, ClassV):
            decorated = [(v.c, True), *((m, False) for m in self._members(v.c, "dispatch"))]
        else:
            return
        for rd, class_level in decorated:
            if rd.file is fc or rd.file.repo != self.r.repo:
                continue
            self.r.use(("file", rd.file.path, ""))  # its decorators
            for text in rd.heads.decorators:
                for expr in decorator_refs(text, class_level):
                    srcs = self._wrapper_callables(rd.file, rd.parent, expr, kind="decorator")
                    failing: set[str] = set()
                    guards = [] if srcs else guard_callbacks(self.r, rd.file, expr, failing)
                    if not srcs and not guards:
                        self.result.outcomes["unlinked_wrapper"] += 1
                        continue
                    if guards:
                        self._guard_wraps(fc, guards, failing, linked, route, {"match": "inferred"})
                        continue
                    self._wraps(fc, srcs, [linked], route.line, route.col, framework=route.framework,
                                kind="decorator", scope="route")

    def _guard_wraps(self, fc: FileCtx, guards: list[str], failing: set[str], linked: LinkedRoute, route: Route,
                     sure: dict[str, str]) -> None:
        """WRAPS of a library guard's callbacks ``guards`` on the route ``linked``: kind ``guard_callback``,
        those of ``failing`` (run only when the guard's check fails) ``error_handler``."""
        for srcs, kind in (([g for g in guards if g not in failing], GUARD_CALLBACK),
                           ([g for g in guards if g in failing], "error_handler")):
            if srcs:
                self._wraps(fc, srcs, [linked], route.line, route.col, framework=route.framework, kind=kind,
                            scope="route", **sure)

    def graphql_route(self, fc: FileCtx, route: Route) -> None:
        """A GraphQL resolver's EXPOSES (a schema field's DECLARES) edge to ``<OPERATION> Type.field``."""
        scope = route.handler.rpartition(".")[0] or None if route.handler else None
        if route.handler is not None:
            rd = fc.def_at(route.handler, route.line)
            scope = rd.parent if rd is not None else scope
            handlers = [rd.id if rd is not None else file_id(fc.repo, fc.path)]
        elif route.handler_ref is not None:
            handlers = [h for h, _ in self._resolve_handler(fc, route.handler_ref, route.methods, route.scope)]
            if fc.lang == "python" and handlers:  # an inherited `mutate`: the overrides it dispatches to
                handlers += self._dispatched_handlers(fc, route)
        else:
            handlers = [file_id(fc.repo, fc.path)]
        if route.library_bases and not self.has_library_base(fc, route.handler, route.line, route.library_bases):
            self.result.outcomes["unconfirmed_graphql_type"] += 1  # `resolve_x` of a class that is no GraphQL type
            return
        text = self._graphql_text(fc, scope, route.path)
        type_name, _, field_name = (text or "").partition(".")
        if type_name and route.framework != GRAPHQL_SCHEMA:
            type_name = self._schema_type(type_name)
            if route.framework in MERGING_FRAMEWORKS and fc.lang == "python":  # `class Query(ProductQueries)`
                type_name = self.merged_root(fc, type_name)
            text = f"{type_name}.{field_name}"
        if not handlers or not type_name or not field_name:
            self.result.outcomes["unlinked_graphql" if handlers else "unlinked_handler"] += 1
            return
        method = graphql_operation(type_name)
        eid = self._endpoint(fc, method, text)  # type: ignore[arg-type]
        kind = "DECLARES" if route.framework == GRAPHQL_SCHEMA else "EXPOSES"
        for handler in handlers:
            self._edge(fc, kind, handler, eid, route.line, route.col, framework=route.framework)
            self.result.outcomes["declares" if kind == "DECLARES" else "exposes"] += 1
        if kind == "EXPOSES":  # an app-wide wrapper without a path limit runs for every operation too
            service = self.options.service_for(fc.path)
            self._linked.append(LinkedRoute(fc, None, service, [(eid, method, text)],  # type: ignore[list-item]
                                        framework=route.framework))

    def _dispatched_handlers(self, fc: FileCtx, route: Route) -> list[str]:
        """Ids of the overrides a Python GraphQL handler ``X.mutate`` that ``X`` inherits dispatches to
        (:meth:`~indexer.frameworks.python_graphql_links.PythonGraphqlLinks.dispatched_overrides`)."""
        owner, _, method = (route.handler_ref or "").rpartition(".")
        c = self.r.resolve_expr(fc, route.scope, owner) if owner else None
        if not isinstance(c, ClassV) or c.c.file.repo != self.r.repo:
            return []
        found, inherited = self.r.lookup(c.c, method)
        if not inherited:
            return []
        return [d.id for m in found if m.is_callable for d in self.dispatched_overrides(c.c, m)]

    def _schema_type(self, name: str) -> str:
        """``name`` as the repository's GraphQL schema spells it when only the case differs and one
        schema type matches (DGS's generated ``ARTICLEPAYLOAD`` constant read as ``Articlepayload``
        is the schema's ``ArticlePayload``); else ``name``. Records the schema files read."""
        if self._schema_types is None:
            self._schemas = [c.path for c in self.ctxs if c.ex.language == "graphql"]
            self._schema_types = defaultdict(set)
            for d in (d for c in self.ctxs if c.ex.language == "graphql" for d in c.ex.definitions if d.parent is None):
                self._schema_types[d.name.lower()].add(d.name)
        for path in self._schemas:  # every time: the reads are recorded for the file being linked
            self.r.use(("file", path, ""))
        found = self._schema_types.get(name.lower(), set())
        return next(iter(found)) if len(found) == 1 and name not in found else name

    def _resolve_handler(self, fc: FileCtx, ref: str, methods: list[str], scope: str | None = None,
                         framework: str = "") -> list[tuple[str, list[str]]] | list[tuple[str, list[str], str]]:
        is_view = bool(_AS_VIEW.search(ref))
        expr = _AS_VIEW.sub("", ref)
        v = self.r.resolve_expr(fc, scope, expr)
        if fc.lang == "python" and not isinstance(v, (FuncV, ClassV)):  # `login = LoginView.as_view()` (django_methods)
            bound = bound_view(self.r, fc, scope, expr)
            v, is_view = (bound, True) if bound is not None else (v, is_view)
        if isinstance(v, FuncV):  # a Django function view: @require_POST & co (indexer.frameworks.django_methods)
            return [(v.f.id, (framework == "django" and methods == ["*"] and required_methods(v.f, self.r.use)) or methods)]
        if isinstance(v, InstV) and v.concrete and framework == "django" and fc.lang == "python":
            return self._instance_view(v.c, methods)  # path("feed/", LatestFeed()): a syndication feed & co
        if isinstance(v, ClassV):
            self.view_class = v.c
        if isinstance(v, ClassV) and framework == DRF_ROUTE:  # indexer.frameworks.viewsets
            return self.viewset_handlers(v.c)
        if isinstance(v, ClassV):
            c = v.c
            verbs = [(m.id, [verb.upper()]) for verb in _HTTP_VERBS for m in self._members(c, verb)]
            verbs += self.generic_view_verbs(c, {m[0] for _, m in verbs}) if fc.lang == "python" else []
            if verbs and (is_view or methods == ["*"]):
                if framework == "django" and fc.lang == "python":
                    self.head_by_get = self._answers_head(c, verbs)
                return verbs
            return [(c.id, methods)]
        return []

    def _instance_view(self, c: Def, methods: list[str]) -> list[tuple[str, list[str]]]:
        """The handler of a Django route whose view is an instance (``path("feed/", LatestFeed())``: Django calls it,
        ``django.urls.path`` requiring a callable): the ``__call__`` it has in the repository (its own or a base's:
        ``django.contrib.syndication.views.Feed.__call__`` when the repository is Django), the instance's class
        the receiver; else the class itself when some base is not of the repository (a library's callable: Feed);
        nothing for a class of the repository with no ``__call__`` and no other base. ``methods`` stay the route's
        (``*``: ``Feed.__call__`` answers any method)."""
        calls = self._members(c, "__call__")
        self.view_class = c
        if calls:
            return [(calls[0].id, methods)]
        names = {k.d.name for k in self.r.mro(c)}
        if any(base.split("[", 1)[0].strip().rpartition(".")[2] not in names | {"object"}
               for k in self.r.mro(c) for base in k.heads.bases):
            return [(c.id, methods)]
        self.view_class = None
        return []

    def _answers_head(self, c: Def, verbs: list[tuple[str, list[str]]]) -> str | None:
        """The id of the ``get`` method of the Django class-based view ``c`` when Django answers ``HEAD`` with it, else
        ``None``. ``View.setup`` sets ``self.head = self.get`` when the view has a ``get`` and no ``head``, and
        ``View.dispatch`` calls the method named by the request's method when ``http_method_names`` lists it
        (django/views/generic/base.py). So: ``c`` has a ``get`` and defines no ``head`` (a method, already a ``HEAD``
        verb, or an attribute: ``head = None`` answers nothing) and sets no ``http_method_names`` of its own (its
        value is not read; the library's default lists ``head``). What ``View`` itself writes (``self.head`` in
        ``setup``, its ``http_method_names``) is the library's default, not the view's."""
        gets = [handler for handler, methods in verbs if methods == ["GET"]]
        if len(gets) != 1 or "HEAD" in {m for _, methods in verbs for m in methods}:
            return None
        for name in ("head", "http_method_names"):
            found, _ = self.r.lookup(c, name)
            if any(not _library_view(d) for d in found):
                return None
        return gets[0]

    def _members(self, c: Def, name: str) -> list[Def]:
        found, _ = self.r.lookup(c, name)
        return [m for m in found if m.is_callable and m.file.repo == self.r.repo]
