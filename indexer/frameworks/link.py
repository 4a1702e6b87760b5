"""Join the framework facts of every file of a repository into Endpoint / Topic nodes and edges.

Detectors (:mod:`indexer.frameworks`) see one file. What an endpoint's full path is, which function
handles a Django route, what ``Paths.OWNERS`` or ``${kafka.topic}`` says: that takes other files. This
module runs in the resolve step, after the file outputs (:class:`indexer.resolve.repository.RepositoryResolver`
calls it), with the resolver's module and name lookup (:class:`indexer.resolve.language.Lookup`; what
an import names comes from the file's module system) and produces per file the shared nodes and the
edges that file owns:

* ``EXPOSES`` handler -> ``Endpoint``: one per HTTP method and per full path. A route's full paths are
  the prefixes of every chain of mounts leading to its router (FastAPI ``include_router``, Flask
  ``register_blueprint``, Express ``app.use``, Django ``include``), each followed by the router's own
  prefix and the route's path. A handler named elsewhere (Django ``views.detail``,
  ``DetailView.as_view()``) is resolved like a callee; a class-based view exposes through each of its
  ``get`` / ``post`` / ... methods. A route without a named handler (an inline callback) is exposed by
  the File node, whose module-level code owns the callback's calls.
* ``CALLS_HTTP`` caller -> ``Endpoint``: the URL's constants are resolved, Spring ``${...}``
  placeholders filled from the repository's configuration, then the scheme and host (or a prefix named
  in the service map) are cut off and recorded as ``props["service"]``. A URL whose start is unknown
  (``base + "/owners"`` with ``base`` a parameter) keeps its known path and no service.
* ``PRODUCES`` / ``CONSUMES`` method -> ``Topic``: a Kafka topic (``topic:<name>``), or a queue,
  task, channel or destination of another broker (``topic:<broker>:<name>``), placed by
  :mod:`indexer.frameworks.queues` (RabbitMQ exchange + routing key through the bindings in the code,
  Celery task names, Spring Cloud Stream bindings); those edges carry ``broker`` and ``match``
  (``exact`` / ``inferred`` / ``name``). Every Topic node's ``props["broker"]`` names its broker.
* GraphQL client operations ``CALLS_HTTP`` (``kind`` ``graphql``) the root fields they select:
  :mod:`indexer.frameworks.graphql_clients`.
* gRPC servers ``EXPOSES`` and stubs ``CALLS_HTTP`` (``kind`` ``grpc``) the ``GRPC package.Service/Rpc``
  endpoints of the repository's ``.proto`` services: :mod:`indexer.frameworks.grpc`.
* ``WRAPS`` wrapper callable -> ``Endpoint``: cross-cutting code (a filter, middleware, interceptor,
  guard, pipe, hook, dependency, error handler or view decorator) to every endpoint it runs for. What
  runs is the function or method the registration names; a class stands for the methods the framework
  calls on it (:data:`WRAPPER_METHODS`: ``doFilter``, ``preHandle``, ``canActivate``, ``__call__``,
  ...). A Django ``MIDDLEWARE`` entry names it by its dotted path (``"shop.middleware.Audit"``),
  resolved as ``from shop.middleware import Audit`` would be. A Python handler defined in another
  file than its route (a Django view) brings its own decorators (:func:`decorator_refs`). Scopes: ``route`` (:attr:`Route.wrappers`: that route's endpoints), ``router`` (a
  :class:`~indexer.model.Wrapper` on a router: the endpoints of routes on that router and on every
  router mounted into it, transitively), ``app`` (a ``Wrapper`` without router: every endpoint of the
  repository, or of the module folder (:attr:`~indexer.frameworks.link_options.LinkOptions.modules`, ``units``) that
  holds the registration's file, exposed by code of the same language family). A ``Wrapper.path`` limits a router or app
  wrapper to endpoints whose full path lies under it (relative to the router's full prefixes, or to
  the application's context path); ``*`` / ``**`` segments match any segment, a trailing one anything.
  Props: ``framework``, ``kind`` (:data:`~indexer.model.WRAPPER_KINDS`), ``scope``, ``path`` (the
  limit, when any) and ``service`` (as on the endpoint's EXPOSES); the registration's file and line are
  the edge's own ``file`` / ``line``.
* GraphQL: a resolver route (methods among :data:`stores.contracts.GRAPHQL_OPERATIONS`) ``EXPOSES``
  the Endpoint ``<OPERATION> Type.field`` (no router, no context path; the operation re-derived from
  the rendered type name, :func:`stores.contracts.graphql_operation`); a schema file's field
  (:data:`indexer.model.GRAPHQL_SCHEMA`) ``DECLARES`` the same node. A constant the repository does
  not define (Netflix DGS's generated ``DgsConstants``) is read by the code generator's naming rule
  (:func:`indexer.frameworks.graphql_names.graphql_constant_name`).
* ``ENTRY`` self-edges on the code an :class:`~indexer.model.EntryRegistration` names (a scheduled
  task, a command, a ``__main__`` block), owned by the registering file.

An EXPOSES edge carries ``props["service"]`` when the service unit holding the file is named
(:mod:`indexer.frameworks.services`: compose / Kubernetes service, ``spring.application.name``,
``package.json`` name, folder) or its module configuration names its application
(``spring.application.name``), so a client's ``service`` can be matched to it. A client URL's host
that is another name of a unit (its folder, Spring or package name) is recorded as that unit's
service name.

An edge is owned by the file whose fact it comes from (a Django ``urls.py`` owns the EXPOSES edges of
the views it routes; the file registering an app-wide filter owns its WRAPS edges, so it is produced
again whenever the linked endpoints may change: see :mod:`indexer.resolve.repository`). Endpoint and Topic nodes are shared (``stores.contracts.SHARED_LABELS``).
Everything that cannot be linked is counted in :attr:`LinkResult.outcomes`, never raised.
"""

from __future__ import annotations

import ast
import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from indexer.frameworks.auth_guards import (
    DEFAULT_STRATEGY, GUARD_CALLBACK, base_callbacks, factory_callbacks, guard_callbacks,
)
from indexer.frameworks.env_config import ENV_REF, env_for
from indexer.frameworks.graphql_clients import link_graphql_clients
from indexer.frameworks.tables import link_tables
from indexer.frameworks.ui_templates import link_components
from indexer.frameworks.grpc import link_rpcs
from indexer.frameworks.api_first import ApiFirstLinks
from indexer.frameworks.app_prefixes import AppPrefixLinks
from indexer.frameworks.exchange import ExchangeLinks
from indexer.frameworks.clients import HOLE as _HOLE, ClientLinks, split_url
from indexer.frameworks.literal_paths import retarget_literal_clients
from indexer.frameworks.paths import join_paths as _join, path_under, unglue_holes
from indexer.frameworks.queues import QueueLinker
from indexer.frameworks.link_memo import LinkMemo
from indexer.frameworks.link_options import LinkOptions
from indexer.frameworks.mounts import mount_ends
from indexer.frameworks.router_classes import borrowed_router, module_routers
from indexer.frameworks.test_apps import owned_by_test, owning_test, scoped_key
from indexer.frameworks.wrap_order import ORDERED_FRAMEWORKS, RegistrationOrder, runs_on_errors
from indexer.frameworks.scopes import Scopes
from indexer.frameworks.spring_config import resolve_placeholders
from indexer.frameworks.viewsets import ViewSetLinks
from indexer.frameworks.drf_defaults import DRF_DEFAULTS, DrfDefaultLinks
from indexer.frameworks.class_views import ClassViewLinks
from indexer.frameworks.django_methods import required_methods
from indexer.frameworks.graphql_names import graphql_constant_name
from indexer.frameworks.web_families import same_application_kind
from indexer.model import DRF_ROUTE, EXCHANGE_ROUTE, GRAPHQL_SCHEMA, EntryRegistration, HttpCall, Import, Route, Template, TopicUse, Wrapper
from indexer.resolve.context import FileCtx, default_export
from indexer.resolve.language import ImportTarget, Lookup
from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, Def, FuncV, InstV, ModuleV
from indexer.symbols import CONFIG_KEY, file_id
from stores.contracts import GRAPHQL_OPERATIONS, Edge, Node, declared_route, endpoint_id, graphql_operation, topic_id

__all__ = ["LinkMemo", "LinkOptions", "LinkResult", "WRAPPER_METHODS", "decorator_refs", "link_frameworks", "same_application_kind",
           "split_url", "path_under"]

MAX_DEPTH = 8
"""Imports of imports, and mounts of mounts, are followed at most this deep."""
_INLINE_NAME = re.compile(r"^(?!new\s)\S+\s")
"""A ``WrapperRef.expr`` that no expression spells: the qualname, in the route's file, of an inline
function a detector made a definition of its own (``middleware GET /x``, :mod:`indexer.symbols`)."""
MAX_CONSTANT_DEPTH = 128
"""Constants referring to constants are followed at most this deep; a deeper one is unknown."""
MAX_RENDERED = 2_048
"""A rendered URL, path or topic name longer than this (a node id: ``send_task("x" * 200000)``) is cut
here and ends in :data:`TRUNCATED`: the literal it starts with, never a hole (``/{}`` matches any request)."""
TRUNCATED = "\u2026"
MAX_PREFIXES = 64
"""At most this many full prefixes per router (a router mounted in many places)."""
MAX_PREFIX_STEPS = 10_000
"""At most this many routers are visited to work out one router's prefixes (a lattice of mounts);
what lies beyond is not followed."""

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

_HTTP_VERBS = ("get", "post", "put", "patch", "delete", "head", "options")
_REQUIRE = re.compile(r"""^require\(\s*["'`]([^"'`]+)["'`]\s*\)$""")
_AS_VIEW = re.compile(r"\.as_view\(.*\)$", re.S)
_FACTORY_KINDS = frozenset({"decorator", "middleware"})
"""Wrapper kinds whose Python function returns the function that runs per request (nested in it)."""


@dataclass(slots=True)
class LinkResult:
    """Per file path, the shared nodes and the edges it owns; ``outcomes`` counts what was linked
    (``exposes``, ``calls_http``, ``produces``, ``consumes``, ``wraps``: WRAPS edges) and what was not
    (``unlinked_handler``, ``unlinked_url``, ``unlinked_topic``, ``unlinked_wrapper``: a registration
    whose code nothing resolves to a function, or to a class with one of :data:`WRAPPER_METHODS`)."""

    nodes: dict[str, list[Node]] = field(default_factory=lambda: defaultdict(list))
    edges: dict[str, list[Edge]] = field(default_factory=lambda: defaultdict(list))
    outcomes: Counter[str] = field(default_factory=Counter)


class _Linker(ApiFirstLinks, ClientLinks, AppPrefixLinks, ExchangeLinks, ViewSetLinks, DrfDefaultLinks,
              ClassViewLinks):
    def __init__(self, resolver: Lookup, ctxs: Sequence[FileCtx], options: LinkOptions,
                 produce: Collection[str] | None = None, memo: LinkMemo | None = None) -> None:
        self.r = resolver
        self.ctxs, self.produce, self.memo = ctxs, produce, memo
        self.options = options
        self.by_path = {fc.path: fc for fc in ctxs}
        self.constants: dict[tuple[str, str], Template] = {}
        self.default_strategies: dict[str, str] = {}  # file path -> its PassportModule defaultStrategy
        self.routers: dict[tuple[str, str], tuple[str, Template]] = {}  # key -> (framework, prefix)
        self.refused: set[tuple[str, str, str]] = set()  # (path, name, framework): built by another class
        self.mounts: dict[tuple[str, str], list[tuple[tuple[str, str], str, str]]] = defaultdict(list)
        self.result = LinkResult()
        self._endpoint_nodes: dict[str, set[str]] = defaultdict(set)
        self._values: dict[tuple[str, str], str] = {}  # constant -> its rendered value
        self._prefixes: dict[tuple[str, str], list[str]] = {}  # router -> its full prefixes
        self._complete: dict[tuple[str, str], list[str]] = {}  # router -> chains found without a cut
        self._steps = 0
        self._linked: list[_Linked] = []  # every route linked, with its endpoints
        self._schema_types: dict[str, set[str]] | None = None  # GraphQL schema type names by lower case
        self._schemas: list[str] = []  # the schema files' paths
        self.scopes = Scopes()  # the innermost definition at a position, per file
        self.order = RegistrationOrder(MAX_DEPTH, lambda path, line, col: self.scopes.at(self.by_path[path], line, col)
                                       if path in self.by_path else None)  # mounts' positions: wrap_order
        self._wrapped: dict[str, set[tuple[str, str, int, int]]] = defaultdict(set)  # per file: WRAPS written
        self._modules: dict[str, str | None] = {}  # path -> its module folder
        self._queues: QueueLinker | None = None  # built on the first queue use
        self._documents = {(fc.path, d.name) for fc in ctxs for d in fc.ex.graphql_documents if d.name}
        self._operation_ids = {endpoint_id(o.method, o.path): o.operation_id for o in reversed(options.api.operations) if o.operation_id}

    # -- lookup ------------------------------------------------------------------------------------

    def import_target(self, fc: FileCtx, imp: Import) -> ImportTarget:
        """What an import names (:meth:`indexer.resolve.language.ModuleSystem.import_target`): the
        files of a module and the member it imports (``None``: the module itself, as in ``import
        shop.urls`` or ``from shop import urls`` when ``urls`` is a module), or a class (Java)."""
        return fc.rules.import_target(self.r, fc, imp)

    def locate(self, fc: FileCtx, scope: str | None, expr: str, depth: int = 0) -> tuple[FileCtx, str] | None:
        """The file and qualname a constant or router expression names, or ``None``.

        Tried in order: a name of this file (inside the enclosing classes of ``scope`` first, for
        Java and TypeScript class constants), an imported name (following the exporting module's own
        imports), a class prefix resolved by the resolver (``Paths.OWNERS``), a Java static import."""
        if depth > MAX_DEPTH or not expr:
            return None
        known = self._known
        s = scope
        while s:
            if known(fc.path, f"{s}.{expr}"):
                return fc, f"{s}.{expr}"
            s = s.rpartition(".")[0]
        if known(fc.path, expr):
            return fc, expr
        m = _REQUIRE.match(expr)
        if m:
            return self._module_router(self.import_target(fc, Import("", m.group(1), None)).files)
        head, _, rest = expr.partition(".")
        imps = entries(fc.imports, head)
        if imps:
            target = self.import_target(fc, imps[-1])
            if target.of_class:  # a static import: ``expr`` is a member of that class
                c = target.owner
                if c is not None:
                    q = f"{c.qualname}.{expr}"
                    if known(c.file.path, q):
                        return c.file, q
            else:
                files, member = target.files, target.member
                if member is None:
                    return self.locate_in(files, rest, depth) if rest else self._module_router(files)
                return self.locate_in(files, f"{member}.{rest}" if rest else member, depth)
        if "." in expr:
            prefix, _, last = expr.rpartition(".")
            v = self.r.resolve_expr(fc, scope, prefix)
            if isinstance(v, (ClassV, InstV)):
                return self._class_constant(v.c, last)
            if isinstance(v, ModuleV):
                return self.locate_in(self.r.module_files(fc.lang, v.key), last, depth)
        return None

    def _class_constant(self, c: Def, name: str) -> tuple[FileCtx, str] | None:
        """The class constant ``name`` of class ``c`` or, when ``c`` does not define it, of the first
        class of its MRO that does (``settings.api_prefix`` with ``settings`` an instance of a
        pydantic ``BaseSettings`` subclass whose base declares ``api_prefix: str = "/api"``). An
        attribute that is not a string constant there (``debug: bool = False``) is ``None``."""
        q = f"{c.qualname}.{name}"
        if self._known(c.file.path, q):
            return c.file, q
        for m in self.r.lookup(c, name)[0]:
            if self._known(m.file.path, m.qualname):
                return m.file, m.qualname
        return None

    def locate_in(self, files: Sequence[FileCtx], qualname: str, depth: int) -> tuple[FileCtx, str] | None:
        """``qualname`` as a module-level name of one of ``files`` (following their imports)."""
        for target in files:
            found = self.locate(target, None, qualname, depth + 1)
            if found is not None:
                return found
        return None

    def _known(self, path: str, qualname: str) -> bool:
        return (path, qualname) in self.constants or (path, qualname) in self.routers or (path, qualname) in self._documents

    def _module_router(self, files: Sequence[FileCtx]) -> tuple[FileCtx, str] | None:
        """The router a whole module stands for (``app.use("/x", require("./r"))``): its default
        export when that is a router, else its only router."""
        for fc in files:
            default = default_export([fc])
            if default and (fc.path, default) in self.routers:
                return fc, default
            if (fc.path, "default") in self.routers:  # export default Router().use(...)
                return fc, "default"
            mine = [name for (path, name) in self.routers if path == fc.path]
            if len(mine) == 1:
                return fc, mine[0]
        return None

    # -- templates ---------------------------------------------------------------------------------

    def render(self, fc: FileCtx, scope: str | None, tpl: Template) -> str:
        """The template's text with constants substituted; unknown pieces are ``\\x00``.

        A constant whose value refers back to itself (``A = B + "/a"``, ``B = A + "/b"``) or lies
        deeper than :data:`MAX_CONSTANT_DEPTH` has no known value: the reference to it is a hole."""
        out: list[str] = []
        for kind, text in tpl.parts:
            if kind == "lit":
                out.append(text)
                continue
            value = None
            if kind == "ref":
                try:
                    value = self._value(fc, scope, text, ())
                except _Unknown:
                    value = None
            out.append(_HOLE if value is None else value)
        text = self._placeholders(fc, "".join(out))
        return text if len(text) <= MAX_RENDERED else text[:MAX_RENDERED] + TRUNCATED

    def _placeholders(self, fc: FileCtx, text: str) -> str:
        props = self.options.properties_for(fc.path)
        if "${" in text and props:
            text = resolve_placeholders(text, props)
        return text

    def _value(self, fc: FileCtx, scope: str | None, expr: str, stack: tuple[tuple[str, str], ...]) -> str | None:
        """The rendered value of the constant ``expr`` names (``None``: not a known constant); raises
        :class:`_Unknown` through every constant of ``stack`` when it depends on itself."""
        env = ENV_REF.match(expr)
        if env is not None:  # import.meta.env.X / process.env.X: the package's .env files
            return env_for(self.options.env, fc.path).get(env.group(1))
        found = self.config_constant(fc, expr) if expr.startswith(CONFIG_KEY) else self.locate(fc, scope, expr)
        key = (found[0].path, found[1]) if found is not None else None
        if key is None or key not in self.constants:
            return None
        if key in self._values:
            return self._values[key]
        if key in stack or len(stack) >= MAX_CONSTANT_DEPTH:
            raise _Unknown(key)
        target, q = found  # type: ignore[misc]
        owner = q.rpartition(".")[0] or None
        out: list[str] = []
        for kind, text in self.constants[key].parts:
            if kind == "lit":
                out.append(text)
                continue
            value = self._value(target, owner, text, (*stack, key)) if kind == "ref" else None
            out.append(_HOLE if value is None else value)
        value = self._placeholders(target, "".join(out))
        self._values[key] = value
        return value

    # -- the run -----------------------------------------------------------------------------------

    def run(self) -> LinkResult:
        for fc in self.ctxs:
            for c in fc.ex.constants:
                self.constants[(fc.path, c.qualname)] = c.value
                if c.qualname == DEFAULT_STRATEGY and len(c.value.parts) == 1 and c.value.parts[0][0] == "lit":
                    self.default_strategies[fc.path] = c.value.parts[0][1]  # passport's, for `AuthGuard()`
        same: dict[tuple[str, str], list[tuple[str, str]]] = defaultdict(list)
        self.routers, self.refused = module_routers(self.r, self.ctxs, same)  # (APIRouter subclasses too)
        for cls, routers in same.items():
            for router in routers:
                self.order.stands_for(cls, router)
        for fc in self.ctxs:
            for m in fc.ex.mounts:
                # a prefix naming a local (``prefix=settings.api_prefix`` with ``settings`` a variable of
                # the function mounting the router) and a callee are resolved in the scope of the mount
                scope = self.scopes.at(fc, m.line, m.col) if m.argument is not None or fc.lang == "python" \
                    or any(k == "ref" for k, _ in m.prefix.parts) else None  # (a test's own routers: test_apps)
                parent, child = mount_ends(self.r, fc, m, scope, self.locate, self.scopes.at)
                if child is None or (*parent, m.framework) in self.refused:
                    if m.argument is None:  # a router handed to a library function (`http.ListenAndServe(a, r)`) is no mount
                        self.result.outcomes["unlinked_mount"] += 1
                    continue
                self.mounts[child].append((parent, self.render(fc, scope, m.prefix), m.framework))
                handed = m.argument is not None and m.argument >= 0 and not m.prefix.parts  # the object handed itself
                self.order.mount(parent, child, (fc.path, m.line, m.col, m.order), handed)
        templates = self.client_templates()
        used: set[int] = set()  # requests of client templates some call passes a URL to
        for fc in self.ctxs:
            for use in fc.ex.url_arg_calls:
                used.update(self.wrapped_call(fc, use, templates))
        for fc in self.ctxs:
            for route in fc.ex.routes:
                self.route(fc, route)
            for call in fc.ex.http_calls:
                if id(call) in used:
                    self.result.outcomes["client_template"] += 1
                else:
                    self.http_call(fc, call)
            for use in fc.ex.topics:
                self.topic(fc, use)
            for reg in fc.ex.entries:
                self.entry(fc, reg)
        link_rpcs(self.r, self.ctxs, self.result, self._emit, self.options.service_for)  # gRPC: indexer.frameworks.grpc
        link_graphql_clients(self.r, self.ctxs, self.result, self.locate, self._endpoint)  # graphql_clients
        link_tables(self.r, self.ctxs, self.result, self._emit, self.render, self.import_target,  # the data layer
                    self.options.mappers.statements, self.produce, self.memo)
        link_components(self.r, self.ctxs, self.result.edges, self.result.outcomes, self.options.templates)  # ui_templates
        for fc in self.ctxs:  # after every route: an app-wide wrapper wraps what all files expose
            for w in fc.ex.wrappers:
                self.wrapper(fc, w)
        moved = retarget_literal_clients(self.result.nodes, self.result.edges)  # GET /owners/1 -> /owners/{}
        if moved:
            self.result.outcomes["calls_http_literal"] += moved
        return self.result

    def _router_key(self, fc: FileCtx, expr: str, line: int, col: int) -> tuple[str, str]:
        scope = self.scopes.at(fc, line, col) if fc.lang == "python" else None  # a test's own (test_apps)
        own = owned_by_test(fc, scope, expr, lambda n: self.scopes.at(fc, n, 0))
        found = None if own else self.locate(fc, None, expr)  # else a name of the file, or of the test
        return (found[0].path, found[1]) if found else scoped_key(fc.lang, fc.path, scope, expr) or (fc.path, expr)

    def prefixes(self, key: tuple[str, str]) -> list[str]:
        """Every full prefix of a router: its mount chains' prefixes, then its own prefix.

        A chain that comes back to a router already on it (``a.use("/b", b)``, ``b.use("/a", a)``; a
        Django ``urls.py`` including itself) leads to no application and is dropped; a router whose
        every chain loops so is taken as mounted nowhere (its own prefix). Chains longer than
        :data:`MAX_DEPTH` are cut there."""
        if key not in self._prefixes:
            self._steps = 0
            found = self._chains(key, frozenset())[0]
            self._prefixes[key] = found or [self._own(key)]
        return self._prefixes[key]

    def _own(self, key: tuple[str, str]) -> str:
        fc = self.by_path.get(key[0])
        return self.render(fc, None, self.routers.get(key, ("", Template()))[1]) if fc is not None else ""

    def _chains(self, key: tuple[str, str], seen: frozenset[tuple[str, str]]) -> tuple[list[str], bool]:
        """The full prefixes of ``key`` through mount chains that do not revisit ``seen``, and whether none was cut
        (a loop, the depth, the step budget): only then does the answer not depend on ``seen`` and is it
        remembered."""
        if key in self._complete:
            return self._complete[key], True
        own = self._own(key)
        mounts = self.mounts.get(key)
        if not mounts:
            self._complete[key] = [own]
            return [own], True
        self._steps += 1
        if len(seen) >= MAX_DEPTH or self._steps > MAX_PREFIX_STEPS:
            return [own], False
        out: list[str] = []
        complete = True
        inner = seen | {key}
        for parent, prefix, mount_framework in mounts:
            if parent in inner:
                complete = False
                continue
            found, ok = self._chains(parent, inner)
            complete = complete and ok
            # Flask: a url_prefix given to register_blueprint replaces the blueprint's own.
            prefix = unglue_holes(prefix, glued_to_next=mount_framework == "django")  # Django: prefix + child
            tail = prefix if (mount_framework == "flask" and prefix) else _join(prefix, own)
            out.extend(_join(pp, tail) for pp in found)
        result = list(dict.fromkeys(out))[:MAX_PREFIXES]
        if complete:
            self._complete[key] = result
        return result, complete

    def _emit(self, fc: FileCtx, node_id: str, node: Node) -> None:
        if node_id not in self._endpoint_nodes[fc.path]:
            self._endpoint_nodes[fc.path].add(node_id)
            self.result.nodes[fc.path].append(node)

    def _endpoint(self, fc: FileCtx, method: str, path: str) -> str:
        eid = endpoint_id(method, path)
        name = eid.removeprefix("endpoint:")
        op = {"operation_id": self._operation_ids[eid]} if eid in self._operation_ids else {}
        self._emit(fc, eid, Node(eid, "Endpoint", name, name, "", "", 0, 0, 0, 0,
                                 {"http_method": method.upper(), "path": name.partition(" ")[2], **op}))
        return eid

    def _edge(self, fc: FileCtx, edge_kind: str, src: str, dst: str, line: int, col: int, **props: object) -> None:
        kind = edge_kind
        self.result.edges[fc.path].append(
            Edge(kind, src, dst, fc.repo, fc.path, line, col, None, {k: v for k, v in props.items() if v is not None})
        )

    def _owner_id(self, fc: FileCtx, qualname: str | None, line: int) -> str:
        rd = fc.def_at(qualname, line) if qualname else None
        return rd.id if rd is not None else file_id(fc.repo, fc.path)

    def route(self, fc: FileCtx, route: Route) -> None:
        if route.methods and all(m in GRAPHQL_OPERATIONS for m in route.methods):
            return self.graphql_route(fc, route)
        if route.operation is not None:
            return self._linked.append(_Linked(fc, None, *self.api_route(fc, route)))
        if route.framework == EXCHANGE_ROUTE:  # an @HttpExchange interface: its controllers expose it
            return self._linked.append(_Linked(fc, None, *self.exchange_route(fc, route), framework="spring"))
        handlers: list = []  # (node id, methods[, path below the route's own: a DRF viewset action])
        scope = route.handler.rpartition(".")[0] or None if route.handler else None
        if route.handler is not None:
            rd = fc.def_at(route.handler, route.line)
            if rd is not None:  # an inline handler's name may hold dots (`GET /a.json`): ask its parent
                scope = rd.parent
            handlers.append((rd.id if rd is not None else file_id(fc.repo, fc.path), route.methods))
        elif route.handler_ref is not None:
            handlers = self._resolve_handler(fc, route.handler_ref, route.methods, route.scope, route.framework)
            if not handlers:
                self.result.outcomes["unlinked_handler"] += 1
                return
        else:
            handlers.append((file_id(fc.repo, fc.path), route.methods))
        own = unglue_holes(self.render(fc, scope, route.path), route.framework == "django").replace(_HOLE, "{}")
        props = self.options.properties_for(fc.path)
        router_key = self._router_key(fc, route.router, route.line, route.col) if route.router else None
        if router_key is not None and (*router_key, route.framework) in self.refused:
            return  # a name built by a class that is no router of the framework (indexer.frameworks.router_classes)
        if router_key not in self.routers and borrowed_router(fc, route):
            self.result.outcomes["unconfirmed_router"] += 1  # `@bus.route(...)` on some other `.route`
            return
        if router_key is not None:
            bases = self.prefixes(router_key)
        else:  # Spring / JAX-RS / servlet / Nest: absolute, under the application's context path
            base = _join(_application_base(props, route.framework), self.global_prefix(fc, route.framework, own))
            bases = [_join(base, version) for version in self.uri_versions(fc, route)]
        service = self.options.service_for(fc.path)
        linked = _Linked(fc, router_key, service, framework=route.framework, view=self.drf_view(fc, route),
                         at=(fc.path, route.line, route.col, 0))
        for base in bases:
            for handler, methods, *tail in handlers:  # a DRF viewset's action: its path below the prefix
                full = _join(_join(base, own), tail[0] if tail else "").replace(_HOLE, "{}")
                for method in methods:
                    eid = self._endpoint(fc, method, full)
                    self._edge(fc, "EXPOSES", handler, eid, route.line, route.col, framework=route.framework,
                               service=service, route=declared_route(full))
                    self.result.outcomes["exposes"] += 1
                    linked.endpoints.append((eid, method, full))
        self._linked.append(linked)
        at = self.scopes.at(fc, route.line, route.col) if route.wrappers else None  # where the expressions are written
        for ref in route.wrappers:
            inline = fc.def_at(ref.expr, route.line) if _INLINE_NAME.search(ref.expr) else None
            if ref.annotation and not isinstance(self.r.resolve_expr(fc, at, ref.expr), FuncV):
                continue  # a parameter's type naming no dependency alias (a model class, a library type)
            if inline is not None and inline.is_callable:  # an inline function a detector named
                srcs = [inline.id]
            else:
                srcs = self._wrapper_callables(fc, at, ref.expr, kind=ref.kind)
            guards = [] if srcs else (guard_callbacks(self.r, fc, ref.expr) if ref.kind == "decorator"
                                        else factory_callbacks(self.r, fc, ref.expr, self.default_strategies))
            if not srcs and not guards:
                self.result.outcomes["unlinked_wrapper"] += 1
                continue
            srcs = srcs or guards  # a library guard: the application's callbacks it runs
            sure = {"match": "inferred"} if guards or self._chosen_at_run_time(fc, at, ref.expr) else {}
            self._wraps(fc, srcs, [linked], route.line, route.col, framework=route.framework,
                        kind=GUARD_CALLBACK if guards else ref.kind, scope="route", **sure)
        if route.handler is None and route.handler_ref is not None and fc.lang == "python":
            self._handler_decorators(fc, route, linked)
        self.class_view_wraps(fc, route, linked)  # fastapi-utils' @cbv: indexer.frameworks.class_views

    def _handler_decorators(self, fc: FileCtx, route: Route, linked: _Linked) -> None:
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
            for text in rd.d.decorators:
                for expr in decorator_refs(text, class_level):
                    srcs = self._wrapper_callables(rd.file, rd.parent, expr, kind="decorator")
                    guards = [] if srcs else guard_callbacks(self.r, rd.file, expr)
                    if not srcs and not guards:
                        self.result.outcomes["unlinked_wrapper"] += 1
                        continue
                    self._wraps(fc, srcs or guards, [linked], route.line, route.col, framework=route.framework,
                                kind=GUARD_CALLBACK if guards else "decorator", scope="route",
                                **({"match": "inferred"} if guards else {}))

    def graphql_route(self, fc: FileCtx, route: Route) -> None:
        """A GraphQL resolver's EXPOSES (a schema field's DECLARES) edge to ``<OPERATION> Type.field``."""
        scope = route.handler.rpartition(".")[0] or None if route.handler else None
        if route.handler is not None:
            rd = fc.def_at(route.handler, route.line)
            scope = rd.parent if rd is not None else scope
            handlers = [rd.id if rd is not None else file_id(fc.repo, fc.path)]
        elif route.handler_ref is not None:
            handlers = [h for h, _ in self._resolve_handler(fc, route.handler_ref, route.methods, route.scope)]
        else:
            handlers = [file_id(fc.repo, fc.path)]
        text = self._graphql_text(fc, scope, route.path)
        type_name, _, field_name = (text or "").partition(".")
        if type_name and route.framework != GRAPHQL_SCHEMA:
            type_name = self._schema_type(type_name)
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
            self._linked.append(_Linked(fc, None, service, [(eid, method, text)],  # type: ignore[list-item]
                                        framework=route.framework))

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

    def _graphql_text(self, fc: FileCtx, scope: str | None, tpl: Template) -> str | None:
        """``Type.field`` of a GraphQL route's template: constants the repository defines are
        substituted, others read by :func:`graphql_constant_name`; ``None`` when a piece is unknown."""
        out: list[str] = []
        for kind, text in tpl.parts:
            if kind == "lit":
                out.append(text)
                continue
            if kind != "ref":
                return None
            try:
                value = self._value(fc, scope, text, ())
            except _Unknown:
                return None
            out.append(value if value is not None and _HOLE not in value else graphql_constant_name(text))
        return "".join(out).strip()

    def entry(self, fc: FileCtx, reg: EntryRegistration) -> None:
        """An ENTRY self-edge on what ``reg`` names (counted ``unlinked_entry`` when nothing)."""
        if reg.owner is not None:
            targets = [self._owner_id(fc, reg.owner, reg.line)]
        elif reg.owner_ref is not None:
            targets = self._entry_targets(fc, reg.scope, reg.owner_ref)
        else:
            targets = [file_id(fc.repo, fc.path)]
        if not targets:
            self.result.outcomes["unlinked_entry"] += 1
            return
        for t in targets:
            self.result.edges[fc.path].append(Edge(
                "ENTRY", t, t, fc.repo, fc.path, reg.line, reg.col, None,
                {"kind": reg.kind, "framework": reg.framework, **({"name": reg.name} if reg.name else {})}))
            self.result.outcomes["entry"] += 1

    def _entry_targets(self, fc: FileCtx, scope: str | None, ref: str) -> list[str]:
        """The callable ``ref`` names from ``scope``; a dotted path no name of the file starts
        (Celery's ``"pkg.tasks.cleanup"``) is looked up as module path + member."""
        v = self.r.resolve_expr(fc, scope, ref)
        if isinstance(v, FuncV):
            return [v.f.id]
        head, _, last = ref.rpartition(".")
        if head and last:
            for target in fc.rules.module_by_name(self.r, fc, head):
                m = self.r.resolve_name(target, None, last)
                if isinstance(m, FuncV):
                    return [m.f.id]
        return []

    def _resolve_handler(self, fc: FileCtx, ref: str, methods: list[str], scope: str | None = None,
                         framework: str = "") -> list[tuple[str, list[str]]] | list[tuple[str, list[str], str]]:
        is_view = bool(_AS_VIEW.search(ref))
        expr = _AS_VIEW.sub("", ref)
        v = self.r.resolve_expr(fc, scope, expr)
        if isinstance(v, FuncV):  # a Django function view: @require_POST & co (indexer.frameworks.django_methods)
            return [(v.f.id, (framework == "django" and methods == ["*"] and required_methods(v.f, self.r.use)) or methods)]
        if isinstance(v, ClassV) and framework == DRF_ROUTE:  # indexer.frameworks.viewsets
            return self.viewset_handlers(v.c)
        if isinstance(v, ClassV):
            c = v.c
            verbs = [(m.id, [verb.upper()]) for verb in _HTTP_VERBS for m in self._members(c, verb)]
            verbs += self.generic_view_verbs(c, {m[0] for _, m in verbs}) if fc.lang == "python" else []
            if verbs and (is_view or methods == ["*"]):
                return verbs
            return [(c.id, methods)]
        return []

    def _members(self, c: Def, name: str) -> list[Def]:
        found, _ = self.r.lookup(c, name)
        return [m for m in found if m.is_callable and m.file.repo == self.r.repo]

    # -- wrappers ----------------------------------------------------------------------------------

    def wrapper(self, fc: FileCtx, w: Wrapper) -> None:
        """WRAPS edges of one router- or app-wide registration (see the module docstring)."""
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
        limit = self.render(fc, None, w.path).replace(_HOLE, "{}") if w.path.parts else ""
        if w.router is not None:
            key = self._router_key(fc, w.router, w.line, w.col)
            errors = w.framework in ORDERED_FRAMEWORKS and runs_on_errors(self.r, fc, self.scopes.at(fc, w.line, w.col), w)
            reach = self.order.reach(key, (fc.path, w.line, w.col, w.order), errors) \
                if w.framework in ORDERED_FRAMEWORKS else None  # Express / Koa: what is registered after it
            keys = reach.keys() if reach is not None else self.order.everything(key)
            routes = [rt for rt in self._linked if rt.router in keys and (reach is None or reach.runs_for(rt.router, rt.at))]
            # what goes through the router: its own full paths (a child router also mounted elsewhere
            # is not wrapped there; a Go function handed two routers, only under the one that has it)
            prefixes = [_join(p, limit).replace(_HOLE, "{}") for p in self.prefixes(key)]
            scope = "router"
        else:
            module, ns = self._module_of(fc.path), fc.rules.namespace
            test = owning_test(fc.lang, fc.path, self.scopes.at(fc, w.line, w.col))  # a test's: its apps only
            routes = [rt for rt in self._linked
                      if rt.fc.rules.namespace == ns and self._module_of(rt.fc.path) == module
                      and same_application_kind(w.framework, rt.framework)
                      and (test is None or rt.router is not None and rt.router[0] == fc.path and rt.router[1].startswith(f"{test}#"))]
            props = self.options.properties_for(fc.path)
            base = props.get("server.servlet.context-path") or props.get("spring.webflux.base-path") or ""
            base = _join(base, self.global_prefix(fc, w.framework, limit)) if limit else base  # Nest forRoutes
            prefixes = [_join(base, limit)] if limit else []
            scope = "app"
        self._wraps(fc, srcs, routes, w.line, w.col, prefixes, w.methods, framework=w.framework, kind=w.kind,
                    scope=scope, path=limit or None)

    def _wraps(self, fc: FileCtx, srcs: Sequence[str], routes: Sequence[_Linked], line: int, col: int,
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
        1.7 s; the blast radius of a method the three filters call, 0.18 s)."""
        seen = self._wrapped[fc.path]
        for rt in routes:
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
        function is a factory too: the functions nested in it (``login_required``'s ``wrapped``, a
        Django middleware factory's ``middleware(request)``) are what runs per request, so they count.
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

    def http_call(self, fc: FileCtx, call: HttpCall) -> None:
        if call.operation is not None:
            return self.api_call(fc, call)
        rendered = self.render(fc, call.caller, call.url)
        self.link_url(fc, call.caller, call.line, call.col, call.framework, call.method, rendered)

    def topic(self, fc: FileCtx, use: TopicUse) -> None:
        if use.broker != "kafka" or use.binding is not None:
            self.queue(fc, use)
            return
        name = self.render(fc, use.owner, use.topic)
        if not name or name == _HOLE or name.strip(_HOLE) == "":
            self.result.outcomes["unlinked_topic"] += 1
            return
        name = name.replace(_HOLE, "{}")
        tid = topic_id(name)
        self._emit(fc, tid, Node(tid, "Topic", name, name, "", "", 0, 0, 0, 0, {"broker": "kafka"}))
        kind = "PRODUCES" if use.role == "produces" else "CONSUMES"
        self._edge(fc, kind, self._owner_id(fc, use.owner, use.line), tid, use.line, use.col, framework=use.framework)
        self.result.outcomes[use.role] += 1

    def queue(self, fc: FileCtx, use: TopicUse) -> None:
        """PRODUCES / CONSUMES edges of a use of a broker other than Kafka (or of a Spring Cloud Stream
        binding), to the destinations :class:`~indexer.frameworks.queues.QueueLinker` finds; the
        edge's ``match`` prop says how sure the link is (``exact`` / ``inferred`` / ``name``)."""
        if self._queues is None:
            self._queues = QueueLinker(self.r, self.ctxs, self.render, self.options.properties_for)
        found, why = self._queues.destinations(fc, use)
        if not found:
            if why not in ("not_celery", "not_wrapper"):
                self.result.outcomes[why or "unlinked_topic"] += 1
            return
        kind = "PRODUCES" if use.role == "produces" else "CONSUMES"
        owner = self._owner_id(fc, use.owner, use.line)
        for d in found:
            tid = topic_id(d.name, d.broker)
            self._emit(fc, tid, Node(tid, "Topic", d.name, d.name, "", "", 0, 0, 0, 0, {"broker": d.broker}))
            self._edge(fc, kind, owner, tid, use.line, use.col, framework=use.framework, broker=d.broker, match=d.match)
            self.result.outcomes[use.role if d.broker == "kafka" else f"{use.role}_{d.broker}"] += 1


@dataclass(slots=True)
class _Linked:
    """A route as linked: its file, its router's key (``None``: an absolute route), the service
    exposing it, and its endpoints as ``(endpoint id, method, full path)``."""

    fc: FileCtx
    router: tuple[str, str] | None
    service: str | None
    endpoints: list[tuple[str, str, str]] = field(default_factory=list)
    framework: str = ""
    view: Def | None = None  # a DRF view class or @api_view function (indexer.frameworks.drf_defaults)
    at: tuple[str, int, int, int] = ("", 0, 0, 0)  # where the route is registered (indexer.frameworks.wrap_order)


def _application_base(props: Mapping[str, str], framework: str) -> str:
    """The path an application serves its absolute routes under: ``server.servlet.context-path`` (or
    WebFlux's ``spring.webflux.base-path``), then, for Spring MVC routes (``framework`` ``spring``),
    the DispatcherServlet's ``spring.mvc.servlet.path`` (``/shop`` + ``/api``); ``""``: none."""
    base = props.get("server.servlet.context-path") or props.get("spring.webflux.base-path") or ""
    servlet = props.get("spring.mvc.servlet.path") or ""
    if framework == "spring" and servlet.strip("/"):
        base = _join(base, servlet)
    return base


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


class _Unknown(Exception):
    """A constant whose value depends on itself (or lies too deep): it has no known value."""


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


def link_frameworks(resolver: Lookup, ctxs: Sequence[FileCtx], options: LinkOptions | None = None,
                    produce: Collection[str] | None = None, memo: LinkMemo | None = None) -> LinkResult:
    """Link the framework facts of ``ctxs`` (every file of one repository) through ``resolver``.

    Returns the shared Endpoint / Topic nodes and the EXPOSES / CALLS_HTTP / PRODUCES / CONSUMES /
    WRAPS edges per owning file path, and outcome counters. ``produce``: the paths whose share the
    caller will use (``None``: all); the per-file work of the others may be skipped where no other
    file's share depends on it (the table accesses), and their shares are then incomplete. ``memo``:
    per-file work of earlier links, replayed where it holds (:mod:`indexer.frameworks.link_memo`; the
    result is the same without). Never raises on odd facts: what cannot be linked is counted."""
    return _Linker(resolver, ctxs, options or LinkOptions(), produce, memo).run()

