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
Everything that cannot be linked is counted in :attr:`LinkResult.outcomes`, never raised; a client call
among them is also an ``UNLINKED`` edge (:mod:`indexer.frameworks.unlinked`), so it can be listed.

This module is the orchestration (the run over every file's facts, router prefixes, constant lookup and
rendering, node and edge emission, entries, topics); route linking is :mod:`indexer.frameworks.route_links`,
wrapper linking :mod:`indexer.frameworks.wrapper_links`, HTTP client linking :mod:`indexer.frameworks.clients`
(mixins of the one linker, with the framework-specific ones beside them).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field

from indexer.frameworks.admin_sites import InheritedHandlers, admin_site_key
from indexer.frameworks.auth_guards import DEFAULT_STRATEGY
from indexer.frameworks.built_urls import BuiltUrlLinks
from indexer.frameworks.app_settings import settings_for
from indexer.frameworks.env_config import ENV_REF, env_for
from indexer.frameworks.graphql_clients import link_graphql_clients
from indexer.frameworks.tables import link_tables
from indexer.frameworks.named_loaders import link_named_loaders
from indexer.frameworks.ui_templates import link_components
from indexer.frameworks.grpc import link_rpcs
from indexer.frameworks.api_first import ApiFirstLinks
from indexer.frameworks.app_prefixes import AppPrefixLinks
from indexer.frameworks.exchange import ExchangeLinks
from indexer.frameworks.fixture_clients import FixtureClients
from indexer.frameworks.client_chains import drop_unserved_alternatives
from indexer.frameworks.clients import HOLE as _HOLE, ClientLinks, split_url
from indexer.frameworks.literal_paths import retarget_literal_clients
from indexer.frameworks.paths import join_paths as _join, path_under, unglue_holes
from indexer.frameworks.queues import QueueLinker
from indexer.frameworks.topic_wrappers import find_wrappers, wrapped_uses
from indexer.frameworks.unlinked import UnlinkedLinks
from indexer.frameworks.route_links import LinkedRoute, RouteLinks
from indexer.frameworks.route_names import RouteNameLinks
from indexer.frameworks.wrapper_links import WRAPPER_METHODS, WrapperLinks, decorator_refs
from indexer.frameworks.link_memo import LinkMemo
from indexer.frameworks.link_options import LinkOptions
from indexer.frameworks.mounts import mount_ends
from indexer.frameworks.router_classes import module_routers
from indexer.frameworks.test_apps import owned_by_test, scoped_key
from indexer.frameworks.wrap_order import RegistrationOrder
from indexer.frameworks.scopes import Scopes
from indexer.frameworks.spring_config import resolve_placeholders
from indexer.frameworks.viewsets import ViewSetLinks
from indexer.frameworks.drf_defaults import DrfDefaultLinks
from indexer.frameworks.class_views import ClassViewLinks
from indexer.frameworks.python_graphql_links import PythonGraphqlLinks
from indexer.frameworks.graphql_names import graphql_constant_name
from indexer.frameworks.web_families import same_application_kind
from indexer.model import EntryRegistration, HttpCall, Import, Template, TopicUse
from indexer.resolve.context import FileCtx, default_export
from indexer.resolve.language import ImportTarget, Lookup
from indexer.resolve.multimap import entries
from indexer.resolve.values import ClassV, Def, FuncV, InstV, ModuleV
from indexer.string_templates import is_call_ref
from indexer.symbols import CONFIG_DEFAULT, CONFIG_KEY, CONFIG_OPTIONS, file_id
from stores.contracts import Edge, Node, endpoint_id, new_edge, new_node, topic_id

__all__ = ["LinkMemo", "LinkOptions", "LinkResult", "WRAPPER_METHODS", "decorator_refs", "link_frameworks", "same_application_kind",
           "split_url", "path_under"]

MAX_DEPTH = 8
"""Imports of imports, and mounts of mounts, are followed at most this deep."""
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

_REQUIRE = re.compile(r"""^require\(\s*["'`]([^"'`]+)["'`]\s*\)$""")


@dataclass(slots=True)
class LinkResult:
    """Per file path, the shared nodes and the edges it owns; ``outcomes`` counts what was linked
    (``exposes``, ``calls_http``, ``produces``, ``consumes``, ``wraps``: WRAPS edges) and what was not
    (``unlinked_handler``, ``unlinked_url``, ``unlinked_topic``, ``unlinked_wrapper``: a registration
    whose code nothing resolves to a function, or to a class with one of :data:`WRAPPER_METHODS`)."""

    nodes: dict[str, list[Node]] = field(default_factory=lambda: defaultdict(list))
    edges: dict[str, list[Edge]] = field(default_factory=lambda: defaultdict(list))
    outcomes: Counter[str] = field(default_factory=Counter)


class _Linker(BuiltUrlLinks, RouteLinks, WrapperLinks, ApiFirstLinks, ClientLinks, AppPrefixLinks, ExchangeLinks, ViewSetLinks,
              DrfDefaultLinks, ClassViewLinks, PythonGraphqlLinks, UnlinkedLinks, RouteNameLinks, InheritedHandlers):
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
        self.mount_names: dict[tuple[tuple[str, str], tuple[str, str], str], str] = {}  # (child, parent, prefix) -> namespace
        self.mount_apps: dict[tuple[tuple[str, str], tuple[str, str], str], str] = {}  # ... -> Django app namespace
        self.result = LinkResult()
        self._endpoint_nodes: dict[str, set[str]] = defaultdict(set)
        self._values: dict[tuple[str, str], str] = {}  # constant -> its rendered value
        self._bindings: dict[tuple[str | None, str], set[str]] | None = None  # options_key: .NET options bindings
        self._token_seps: dict[str | None, str] | None = None  # .NET project -> its route token separator
        self._prefixes: dict[tuple[str, str], list[str]] = {}  # router -> its full prefixes
        self._roots: set[tuple[str, str]] | None = None  # Django ROOT_URLCONF routers (root_urlconfs)
        self._complete: dict[tuple[str, str], list[str]] = {}  # router -> chains found without a cut
        self._steps = 0
        self._linked: list[LinkedRoute] = []  # every route linked, with its endpoints
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
        imports), a top-level name of another file of the same module (a Go package's or Kotlin
        package's files share their names: ``basePath`` declared in ``helpers_test.go``), a class prefix
        resolved by the resolver (``Paths.OWNERS``), a Java static import."""
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
        if "." not in expr and not imps:  # Go / Kotlin: a top-level name of another file of the package
            for other in self.r.module_files(fc.lang, fc.module_key):
                if other is not fc and known(other.path, expr):
                    return other, expr
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
        deeper than :data:`MAX_CONSTANT_DEPTH` has no known value: the reference to it is a hole. Each
        constant's value is cut as the text is (:data:`MAX_RENDERED`), which keeps the text's first
        :data:`MAX_RENDERED` characters as they were: constants that each double the one before grow
        no further than that."""
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

    def options_key(self, fc: FileCtx, expr: str) -> str | None:
        """The configuration key (``config:urls:Orders``) of the read ``config:@T:Name`` of a .NET options class
        (:data:`~indexer.symbols.CONFIG_OPTIONS`): the section bound to ``T`` in ``fc``'s service folder (the
        ``config:@T`` constant) written in ``fc``'s own .NET project (the innermost folder holding a ``*.csproj``:
        ASP.NET binds options in the host that reads them) followed by ``Name``; ``None`` when nothing there binds
        ``T`` to a literal section, or two bindings there name different sections."""
        kind, _, name = expr[len(CONFIG_OPTIONS):].partition(":")
        if self._bindings is None:
            self._bindings = defaultdict(set)
            for bfc in self.ctxs:
                for c in bfc.ex.constants:
                    if c.qualname.startswith(CONFIG_OPTIONS):  # GetSection(Settings.CONFIG_NAME): rendered
                        section = self.render(bfc, None, c.value)
                        self._bindings[(_project(self.options.settings, bfc.path), c.qualname)].add(
                            "\x00" if _HOLE in section else section)
        found = self._bindings.get((_project(self.options.settings, fc.path), CONFIG_OPTIONS + kind), set())
        section = next(iter(found)) if len(found) == 1 and name else _HOLE
        return None if _HOLE in section else CONFIG_KEY + section + name

    def _value(self, fc: FileCtx, scope: str | None, expr: str, stack: tuple[tuple[str, str], ...]) -> str | None:
        """The rendered value of the constant ``expr`` names (``None``: not a known constant); raises
        :class:`_Unknown` through every constant of ``stack`` when it depends on itself."""
        if is_call_ref(expr):  # a call of the application's URL builder (built_urls)
            return self.call_value(fc, scope, expr, stack)
        env = ENV_REF.match(expr)
        if env is not None:  # import.meta.env.X / process.env.X: the package's .env files
            return env_for(self.options.env, fc.path).get(env.group(1))
        if expr.startswith(CONFIG_OPTIONS):  # IOptions<T>'s settings.Value.Name: the section bound to T + Name
            expr = self.options_key(fc, expr)
            if expr is None:
                return None
        default = None
        if expr.startswith(CONFIG_KEY) and CONFIG_DEFAULT in expr:  # GetValue("Kafka:Topic", "orders")
            expr, default = expr.split(CONFIG_DEFAULT, 1)
        found = self.config_constant(fc, expr) if expr.startswith(CONFIG_KEY) else self.locate(fc, scope, expr)
        if found is None and expr.startswith(CONFIG_KEY) and self.options.settings:
            # configuration["EventBus:Queue"]: the appsettings.json of the file's own .NET project
            kept = settings_for(self.options.settings, fc.path).get(expr[len(CONFIG_KEY):].lower())
            if kept is not None:
                return kept
        if found is None and default is not None:
            return default  # no configuration file sets the key: the read's own default
        if found is None:
            setting = self.setting_key(fc, expr)  # Django's settings.X: the settings module's X
            found = self.config_constant(fc, setting) if setting is not None else None
        key = (found[0].path, found[1]) if found is not None else None
        if key is not None and key in stack and scope is not None:
            # A name that is, inside its owner, the constant being computed (`R = { v1: v1 }`: a JS object's
            # property values do not see its keys) names the module-level constant.
            found = self.locate(fc, None, expr)
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
        if len(value) > MAX_RENDERED:  # as render cuts it: 60 lines of `S1 = S0 + S0` are 2**60 characters
            value = value[:MAX_RENDERED] + TRUNCATED
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
                child = admin_site_key(fc, m.child) or child  # Django's admin.site (admin_sites)
                if child is None or (*parent, m.framework) in self.refused:
                    if m.argument is None:  # a router handed to a library function (`http.ListenAndServe(a, r)`) is no mount
                        self.result.outcomes["unlinked_mount"] += 1
                    continue
                prefix = self.render(fc, scope, m.prefix)
                self.mounts[child].append((parent, prefix, m.framework))
                if m.namespace:  # the names it includes (route_names)
                    self.mount_names[(child, parent, prefix)] = m.namespace
                if m.app_namespace:
                    self.mount_apps[(child, parent, prefix)] = m.app_namespace
                handed = m.argument is not None and m.argument >= 0 and not m.prefix.parts  # the object handed itself
                self.order.mount(parent, child, (fc.path, m.line, m.col, m.order), handed)
        templates = self.client_templates()
        used: set[int] = set()  # requests of client templates some call passes a URL to
        for fc in self.ctxs:
            for use in fc.ex.url_arg_calls:
                used.update(self.wrapped_call(fc, use, templates))
        topic_wrappers = find_wrappers(self.ctxs, self.render)  # `publish("orders")` -> `send(topic)`
        for w in wrapped_uses(self.r, self.ctxs, topic_wrappers, self.render):
            self.topic(w.fc, w.use, via=w.via)
        named: list[tuple[FileCtx, HttpCall]] = []  # URLs built from a route's name: once every route is named
        fixtures = FixtureClients(self.r, self.ctxs)  # a test's client from a pytest fixture (fixture_clients)
        for fc in self.ctxs:
            for route in fc.ex.routes:
                self.route(fc, route)
            for call in fc.ex.http_calls:
                if id(call) in used:
                    self.result.outcomes["client_template"] += 1
                    continue
                if call.fixture is not None:
                    sent = fixtures.call(fc, call)
                    if sent is None:
                        self.result.outcomes["fixture_not_client"] += 1
                        continue
                    call = sent
                for sent_call in fixtures.routed(fc, call) if call.url_fixture is not None else (call,):
                    if sent_call.route_name is not None:
                        named.append((fc, sent_call))
                    else:
                        self.http_call(fc, sent_call)
            for use in fc.ex.topics:
                if topic_wrappers.silent(use):  # its callers produce (topic_wrappers)
                    self.result.outcomes["topic_wrapper"] += 1
                    continue
                self.topic(fc, use)
            for reg in fc.ex.entries:
                self.entry(fc, reg)
        for fc, call in named:
            self.route_name_call(fc, call)
        link_rpcs(self.r, self.ctxs, self.result, self._emit, self.options.service_for, self.unlinked)  # gRPC: grpc
        link_graphql_clients(self.r, self.ctxs, self.result, self.locate, self._endpoint, self.unlinked)  # graphql_clients
        link_tables(self.r, self.ctxs, self.result, self._emit, self.render, self.import_target,  # the data layer
                    self.options.mappers.statements, self.produce, self.memo)
        link_components(self.r, self.ctxs, self.result.edges, self.result.outcomes, self.options.templates)  # ui_templates
        link_named_loaders(self.r, self.ctxs, self.result.edges, self.result.outcomes, self.render)  # DGS loaders by name
        for fc in self.ctxs:  # after every route: an app-wide wrapper wraps what all files expose
            for w in fc.ex.wrappers:
                self.wrapper(fc, w)
        moved = retarget_literal_clients(self.result.nodes, self.result.edges)  # GET /owners/1 -> /owners/{}
        if moved:
            self.result.outcomes["calls_http_literal"] += moved
        self.link_known_ends()  # {}/api/orders/{} -> /v1/api/orders/{} (built_urls)
        dropped = drop_unserved_alternatives(self.result.nodes, self.result.edges)  # client_chains
        if dropped:
            self.result.outcomes["calls_http_unserved_alternative"] += dropped
        return self.result

    def _router_key(self, fc: FileCtx, expr: str, line: int, col: int) -> tuple[str, str]:
        admin = admin_site_key(fc, expr)
        if admin is not None:
            return admin
        scope = self.scopes.at(fc, line, col) if fc.lang == "python" else None  # a test's own (test_apps)
        own = owned_by_test(fc, scope, expr, lambda n: self.scopes.at(fc, n, 0))
        found = None if own else self.locate(fc, None, expr)  # else a name of the file, or of the test
        return (found[0].path, found[1]) if found else scoped_key(fc.lang, fc.path, scope, expr) or (fc.path, expr)

    def prefixes(self, key: tuple[str, str]) -> list[str]:
        """Every full prefix of a router: its mount chains' prefixes, then its own prefix.

        A chain that comes back to a router already on it (``a.use("/b", b)``, ``b.use("/a", a)``; a
        Django ``urls.py`` including itself) leads to no application and is dropped; a router whose
        every chain loops so is taken as mounted nowhere (its own prefix). A Django root URLconf (the
        ``ROOT_URLCONF = "proj.urls"`` a settings module of the repository sets, :meth:`root_urlconfs`) is
        served at ``/`` whatever includes it: its own prefix only (an include of it from below only repeats
        paths, ``/shop/again/shop/...``), so two URLconfs including each other keep the root's prefixes.
        Chains longer than :data:`MAX_DEPTH` are cut there."""
        if key not in self._prefixes:
            self._steps = 0
            found = self._chains(key, frozenset())[0]
            self._prefixes[key] = found or [self._own(key)]
        return self._prefixes[key]

    def root_urlconfs(self) -> set[tuple[str, str]]:
        """Router keys ``(file, "urlpatterns")`` of the modules a Python file of the repository names as Django's
        ``ROOT_URLCONF`` in a module-level string constant (a settings module)."""
        if self._roots is None:
            self._roots = set()
            for fc in self.ctxs:
                for c in fc.ex.constants if fc.lang == "python" else ():
                    if c.qualname == "ROOT_URLCONF" and len(c.value.parts) == 1 and c.value.parts[0][0] == "lit":
                        self._roots.update((f.path, "urlpatterns")
                                           for f in fc.rules.module_by_name(self.r, fc, c.value.parts[0][1])[:1])
        return self._roots

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
        if not mounts or key in self.root_urlconfs():
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
        self._emit(fc, eid, new_node(eid, "Endpoint", name, name, "", "", 0, 0, 0, 0,
                                     {"http_method": method.upper(), "path": name.partition(" ")[2], **op}))
        return eid

    def _edge(self, fc: FileCtx, edge_kind: str, src: str, dst: str, line: int, col: int, **props: object) -> None:
        kind = edge_kind
        self.result.edges[fc.path].append(
            new_edge(kind, src, dst, fc.repo, fc.path, line, col, None, {k: v for k, v in props.items() if v is not None})
        )

    def _owner_id(self, fc: FileCtx, qualname: str | None, line: int) -> str:
        rd = fc.def_at(qualname, line) if qualname else None
        return rd.id if rd is not None else file_id(fc.repo, fc.path)

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

    # -- HTTP clients, topics and queues -----------------------------------------------------------

    def http_call(self, fc: FileCtx, call: HttpCall) -> None:
        if call.operation is not None:
            return self.api_call(fc, call)
        rendered = self.render(fc, call.caller, call.url)
        self.link_url(fc, call.caller, call.line, call.col, call.framework, call.method, rendered)

    def topic(self, fc: FileCtx, use: TopicUse, via: str | None = None) -> None:
        """PRODUCES / CONSUMES edges of ``use``; ``via``: the topic wrapper a call site's use goes through
        (:mod:`indexer.frameworks.topic_wrappers`), the edge then ``match`` ``inferred`` with that ``via``."""
        if use.broker != "kafka" or use.binding is not None:
            self.queue(fc, use, via)
            return
        name = self.render(fc, use.owner, use.topic)
        if not name or name == _HOLE or name.strip(_HOLE) == "":
            self.unlinked(fc, self._owner_id(fc, use.owner, use.line), use.line, use.col, "unlinked_topic",
                          f"{use.role} kafka {name.replace(_HOLE, '{}')}".rstrip(), use.framework)
            return
        name = name.replace(_HOLE, "{}")
        tid = topic_id(name)
        self._emit(fc, tid, Node(tid, "Topic", name, name, "", "", 0, 0, 0, 0, {"broker": "kafka"}))
        kind = "PRODUCES" if use.role == "produces" else "CONSUMES"
        extra = {"match": "inferred", "via": via} if via is not None else {}
        self._edge(fc, kind, self._owner_id(fc, use.owner, use.line), tid, use.line, use.col, framework=use.framework,
                   **extra)
        self.result.outcomes[use.role] += 1

    def queue(self, fc: FileCtx, use: TopicUse, via: str | None = None) -> None:
        """PRODUCES / CONSUMES edges of a use of a broker other than Kafka (or of a Spring Cloud Stream
        binding), to the destinations :class:`~indexer.frameworks.queues.QueueLinker` finds; the
        edge's ``match`` prop says how sure the link is (``exact`` / ``inferred`` / ``name``)."""
        if self._queues is None:
            self._queues = QueueLinker(self.r, self.ctxs, self.render, self.options.properties_for)
        found, why = self._queues.destinations(fc, use)
        if not found:
            if why not in ("not_celery", "not_wrapper", "no_consumer"):
                shown = self.render(fc, use.owner, use.topic).replace(_HOLE, "{}") if use.topic.parts else ""
                what = use.target or use.binding or shown
                self.unlinked(fc, self._owner_id(fc, use.owner, use.line), use.line, use.col, why or "unlinked_topic",
                              f"{use.role} {use.broker} {what}".rstrip(), use.framework,
                              self._queues.near(use, what) if what else ())
            return
        kind = "PRODUCES" if use.role == "produces" else "CONSUMES"
        owner = self._owner_id(fc, use.owner, use.line)
        if use.role == "consumes" and use.target is not None:  # a handler named apart (Eventuate's onReply)
            owner = self._queues.handler(fc, use) or owner
        for d in found:
            tid = topic_id(d.name, d.broker)
            self._emit(fc, tid, Node(tid, "Topic", d.name, d.name, "", "", 0, 0, 0, 0, {"broker": d.broker}))
            extra = {"via": via} if via is not None else {}
            self._edge(fc, kind, owner, tid, use.line, use.col, framework=use.framework, broker=d.broker,
                       match="inferred" if via is not None and d.match == "exact" else d.match, **extra)
            self.result.outcomes[use.role if d.broker == "kafka" else f"{use.role}_{d.broker}"] += 1


class _Unknown(Exception):
    """A constant whose value depends on itself (or lies too deep): it has no known value."""


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


def _project(settings: Mapping[str, object], path: str) -> str | None:
    """The innermost .NET project folder of ``settings`` (:func:`~indexer.frameworks.app_settings.load_app_settings`)
    holding the repository-relative ``path``; ``None``: none."""
    return max((p for p in settings if not p or path.startswith(p + "/")), key=len, default=None)
