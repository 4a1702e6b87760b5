"""The extraction IR's HTTP and cross-cutting records: what framework detectors report per file about
routes (:class:`Route`), the routers and mounts that prefix them (:class:`Router`, :class:`Mount`,
:class:`GlobalPrefix`, :class:`UriVersioning`), the code wrapping them (:class:`Wrapper`: filters,
middleware, guards, decorators), and HTTP clients (:class:`HttpCall`, :class:`UrlArgCall`,
:class:`UrlRewrite`, :class:`DevProxy`).

Found by the detectors of :mod:`indexer.frameworks`; :mod:`indexer.frameworks.link` joins them across
files (router prefixes, constants, configuration placeholders) into Endpoint nodes and EXPOSES /
CALLS_HTTP / WRAPS edges. :mod:`indexer.model` re-exports every name.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from indexer.model_pickling import pickle_records
from indexer.string_templates import Template

__all__ = [
    "WRAPPER_KINDS", "COMPOSED_BY", "WrapperRef", "Wrapper", "GRAPHQL_SCHEMA", "Route", "EXCHANGE_ROUTE", "DRF_ROUTE", "DJANGO_ADMIN_SITE",
    "DRF_AUTHENTICATION", "DRF_PERMISSION", "Router", "Mount", "HttpCall", "UrlArgCall", "UrlBuilder", "GlobalPrefix", "ListenPort",
    "UriVersioning", "UrlRewrite", "DevProxy", "GatewayRouteDecl", "ClientFixture", "UrlFixture",
]


WRAPPER_KINDS = frozenset({
    "filter", "middleware", "interceptor", "guard", "pipe", "hook", "dependency", "error_handler", "decorator",
})
"""What cross-cutting code does for the endpoints it wraps: ``filter`` (servlet / Spring / JAX-RS filters),
``middleware`` (Express / Koa / Hono / FastAPI / Django middleware), ``interceptor`` (Spring ``HandlerInterceptor``,
Nest interceptors), ``guard`` (Nest guards), ``pipe`` (Nest pipes), ``hook`` (Flask ``before_request`` /
``after_request`` / ``teardown_*``, Fastify hooks, Spring ``@ModelAttribute`` in a controller advice), ``dependency``
(FastAPI ``Depends``), ``error_handler`` (``@ExceptionHandler``, Flask ``errorhandler``, Express error middleware),
``decorator`` (a Python view decorator such as ``login_required``)."""


COMPOSED_BY = "@composed:"
"""The :attr:`Wrapper.router` prefix of a wrapper an application's own decorator composes rather than
registers (Nest's ``function Auth() { return applyDecorators(UseGuards(RolesGuard)) }``: a ``guard`` Wrapper
of ``RolesGuard`` with router ``@composed:Auth``). It wraps no router: the routes decorated ``@Auth()`` carry a
``decorator`` :class:`WrapperRef` naming ``Auth``, which the linker expands into the wrappers so marked."""


@dataclass(frozen=True, slots=True)
class WrapperRef:
    """Cross-cutting code applied to one route: ``kind`` (:data:`WRAPPER_KINDS`) and ``expr``, the expression
    naming the function or class that runs, resolved like a call's callee in the route's scope (Express
    ``auth.required``, Nest ``AuthGuard`` of ``@UseGuards(AuthGuard)``, FastAPI ``get_user`` of
    ``Depends(get_user)``, Python ``login_required`` of ``@login_required``), or the qualname in the route's
    file of an inline function a detector made a definition of its own (``middleware GET /x``,
    :mod:`indexer.symbols`). A class means the methods the framework calls on it (``doFilter``, ...)."""

    kind: str
    expr: str
    annotation: bool = False  # an imported parameter type (``s: SessionDep``): a wrapper only if it names a callable


@dataclass(slots=True)
class Wrapper:
    """Cross-cutting code registered for many routes at once: an application- or router-wide filter,
    middleware, interceptor, guard, hook, dependency or error handler.

    ``framework`` as for :class:`Route`; ``kind`` among :data:`WRAPPER_KINDS`. What runs is ``owner``,
    the qualname in this file of the function, method or class (a ``@Component class JwtFilter extends
    OncePerRequestFilter`` detected in its own file: ``JwtFilter``), or else ``owner_ref``, an
    expression naming it resolved like a callee (``app.use(auth)``: ``auth``;
    ``http.addFilterBefore(jwtFilter, ...)``: ``jwtFilter``; Django ``MIDDLEWARE``'s
    ``"shop.middleware.Audit"``: the dotted path). ``router`` is the expression of the router object it
    is registered on (``app``, ``router``, ``bp``): it wraps the routes of that router and of every
    router mounted into it; ``None`` means every route of the application (the repository, or the
    module folder of a multi-service repository, that holds the file). ``path`` limits it to routes
    whose full path starts with that prefix (``app.use("/api", auth)``; a servlet filter's
    ``urlPatterns = "/api/*"`` as ``/api``); empty: no limit. ``methods`` likewise limits it to endpoints of
    those HTTP methods or of any (Nest ``forRoutes({ path, method })``). A router- or app-wide registration
    whose owner is a class wraps through that class's framework methods (see :class:`WrapperRef`). ``order``:
    its argument's index in the registering call (``app.use(a, router, b)``: 0, 1, 2; Express runs them so)."""

    framework: str
    kind: str
    owner: str | None
    line: int
    col: int
    owner_ref: str | None = None
    router: str | None = None
    path: Template = field(default_factory=Template)
    methods: list[str] = field(default_factory=list)
    order: int = 0


GRAPHQL_SCHEMA = "graphql-schema"
"""The ``framework`` of the routes a GraphQL schema file (``.graphql`` / ``.graphqls``) declares: one per field of
``type Query`` / ``Mutation`` / ``Subscription`` (``extend type`` too), ``handler`` the schema field's qualname
(``Query.owner``). The linker makes them the same Endpoint nodes resolvers expose, with a DECLARES edge from the
schema field instead of EXPOSES (a declared operation without a resolver is still a node)."""


@dataclass(slots=True)
class Route:
    """An HTTP endpoint or a GraphQL operation this file exposes.

    ``framework``: ``spring``, ``jaxrs``, ``servlet``, ``fastapi``, ``flask``, ``django``, ``express``,
    ``nest``. ``methods``: upper-case HTTP methods, ``["*"]`` when any method is accepted.
    ``path``: the route's path *including* prefixes declared in the same class (Spring / JAX-RS /
    Nest class-level mappings), but *not* prefixes of a router mounted elsewhere. ``handler``: the
    qualname, in this file, of the function or method that handles it; ``handler_ref``: otherwise an
    expression naming it (Django ``views.owner_list``, ``OwnerView.as_view()``), resolved like a call's
    callee. ``router``: expression of the router object the route hangs on (``router``, ``bp``,
    ``app``), ``None`` when the path is absolute (Spring, JAX-RS, Nest). Django routes use
    ``router="urlpatterns"``: the module's pattern list is its router.

    GraphQL resolvers are routes too: ``methods`` one of ``QUERY`` / ``MUTATION`` / ``SUBSCRIPTION`` /
    ``FIELD`` (:data:`stores.contracts.GRAPHQL_OPERATIONS`; the linker re-derives it from the rendered
    type name, so a detector that cannot know the type writes ``FIELD``), ``path`` the template of
    ``Type.field`` (``Template.of("Query.owner")``; Netflix DGS constants stay ``ref`` pieces),
    ``router`` ``None``; ``framework`` ``spring-graphql``, ``dgs``, ``graphql-java``, ``apollo``,
    ``nest-graphql``, ``strawberry``, ``graphene``, ``ariadne`` or :data:`GRAPHQL_SCHEMA`."""

    framework: str
    methods: list[str]
    path: Template
    handler: str | None
    line: int
    col: int
    handler_ref: str | None = None
    router: str | None = None
    wrappers: list[WrapperRef] = field(default_factory=list)
    """Cross-cutting code applied to this route alone, in the order it runs: an Express / Fastify route's middleware
    arguments, Nest ``@UseGuards`` / ``@UseInterceptors`` / ``@UsePipes`` on the method or its controller class,
    FastAPI ``Depends`` in the signature or ``dependencies=[...]``, Python view decorators, Spring ``@ModelAttribute``
    / ``@ExceptionHandler`` methods of the same controller."""
    scope: str | None = None
    """The qualname ``handler_ref`` is resolved from (``None``: module level); set where the
    reference names a field or local (graphql-java's ``fetchers.bookById()`` inside a method)."""
    operation: str | None = None
    """API-first routes, whose method and path come from the repository's OpenAPI specs
    (:mod:`indexer.frameworks.openapi`) and not from this file: ``"PetsApi.listPets"``, the generated interface or
    delegate a method of ``handler`` implements and the method's name (an operationId candidate), with ``methods`` and
    ``path`` empty; or ``"*"`` for a connexion ``add_api`` registration, ``path`` naming the spec file: every
    operation of that spec is handled by the Python function its dotted operationId names."""
    versions: list[Template] = field(default_factory=list)
    """NestJS: ``@Version("2")`` of the method, else its controller's ``{ version: ["1", "2"] }``, one path each under
    :class:`UriVersioning`; ``Template()`` is ``VERSION_NEUTRAL``, ``[]`` none written (``defaultVersion``)."""
    library_bases: tuple[str, ...] = ()
    """Python: the route holds only when the class of its handler has, among the bases written in its repository
    lineage (its MRO), one naming one of these library classes, qualified by the imports of the file writing it
    (``graphene.types.objecttype.ObjectType``): a detector seeing resolver methods on a class whose library base is
    inherited from another file (``class Order(ModelObjectType)``); ``()``: no condition."""
    name: str | None = None
    """The route's name where the framework gives it one, what code builds its URL from
    (:mod:`indexer.frameworks.route_names`): Django ``path(..., name="detail")``, a Flask view's endpoint (the
    ``endpoint=`` given, else the view function's name), a Starlette / FastAPI route's ``name=`` (else the
    endpoint function's name; a ``Mount(routes=[...], name="users")`` written around it prefixes ``users:``);
    the namespaces of the mounts above its router are the linker's. ``None``: none."""
    inherited: bool = False
    """``handler_ref`` ``X.m`` names a method ``X`` may inherit from a library (Django admin routes: a ``ModelAdmin``
    or ``AdminSite`` method, :mod:`indexer.languages.python.frameworks.django_admin`): when it resolves to nothing,
    ``X``'s class handles the route (as a class-based view's library verbs), else the route's file (``X`` a library
    object itself: Django's default ``ModelAdmin``, ``admin.site``). Such a route is served only when its router is
    mounted somewhere (a site no URLconf mounts serves nothing)."""


EXCHANGE_ROUTE = "http-exchange"
"""The framework of a :class:`Route` a Spring ``@HttpExchange`` interface method declares (``handler``
the interface method): the controllers implementing the interface expose it (the linker finds them)."""
DJANGO_ADMIN_SITE = "django.contrib.admin.site.urls"
"""The router expression of Django's default admin site (``admin.site``, what ``django.contrib.admin.site`` names):
the admin registrations of every file and the URLconfs mounting ``admin.site.urls`` write it so, and the linker keys
it once per repository (:mod:`indexer.languages.python.frameworks.django_admin`)."""
DRF_ROUTE = "drf"
"""The framework of a DRF router and a viewset registration's :class:`Route` (the linker expands it)."""

DRF_AUTHENTICATION = "drf-authentication"
"""The framework of a :class:`Wrapper` from DRF's ``REST_FRAMEWORK["DEFAULT_AUTHENTICATION_CLASSES"]``
setting (``owner_ref`` a class's dotted path): its ``authenticate`` runs for every DRF view of the
application that sets no ``authentication_classes`` of its own (:mod:`indexer.frameworks.drf_defaults`)."""

DRF_PERMISSION = "drf-permission"
"""As :data:`DRF_AUTHENTICATION`, for ``DEFAULT_PERMISSION_CLASSES`` (``has_permission``;
``permission_classes`` overrides it)."""


@dataclass(slots=True)
class Router:
    """A router object defined at module level: ``name`` is the variable (``router``, ``bp``,
    ``urlpatterns``; Go: a function's router parameter, :class:`Mount` ``argument``), ``prefix`` its
    own prefix (FastAPI ``APIRouter(prefix=...)``, Flask ``Blueprint(url_prefix=...)``; or empty)."""

    framework: str
    name: str
    prefix: Template
    line: int
    namespace: str | None = None
    """The namespace the names of its routes are under when it is mounted without one of its own
    (:attr:`Mount.namespace`) or mounted nowhere: a Django URLconf's ``app_name``, a Flask blueprint's name."""
    app_namespace: str | None = None
    """Django: the application namespace of its names when it is not :attr:`namespace` (an ``AdminSite(name="x")``'s
    routes are also reached as ``admin:...``, the application namespace of every admin site); ``None``: the same."""


@dataclass(slots=True)
class Mount:
    """A router mounted under a prefix: FastAPI ``app.include_router(items.router, prefix="/api")``,
    Flask ``app.register_blueprint(bp, url_prefix="/x")``, Express ``app.use("/api", router)``, Django
    ``path("api/", include("shop.urls"))``. ``parent``: expression of the router mounted into (``app``; Django ``"urlpatterns"``).
    ``child``: expression of the mounted router (``items.router``), or ``None`` with
    ``child_module`` the dotted module named by a string (Django ``include("shop.urls")``: that
    module's ``urlpatterns``). ``prefix`` is added before the child's own prefix. ``argument``: a
    router handed to a function (Go ``addUserRoutes(v1)``, Express ``users(app)``): ``child`` the callee, the router its
    parameter at this position (``<callee>#<argument>``; -1: what it returns, ``#return``); ``parent`` a key here.
    ``order``: the child's argument index in the registering call, as :attr:`Wrapper.order`."""

    framework: str
    parent: str
    child: str | None
    prefix: Template
    line: int
    col: int
    child_module: str | None = None
    argument: int | None = None
    order: int = 0
    namespace: str | None = None
    """The namespace this mount puts the child's route names under, replacing the child's own
    (:attr:`Router.namespace`): Django ``include(..., namespace="x")`` or the app name of an
    ``include(("shop.urls", "shop"))`` tuple, Flask ``register_blueprint(bp, name="x")``."""
    app_namespace: str | None = None
    """Django: the application namespace of the names it includes when it differs from :attr:`namespace` (the app
    name of an ``include(("shop.urls", "shop"), namespace="office")`` tuple; ``admin`` for ``admin.site.urls``
    mounted under another namespace); ``None``: the included router's own (:attr:`Router.app_namespace`, else its
    ``app_name``)."""


@dataclass(slots=True)
class HttpCall:
    """An outgoing HTTP request: ``framework`` is the client (``resttemplate``, ``webclient``, ``feign``, ``requests``,
    ``httpx``, ``fetch``, ``axios``, ``angular``); ``method`` upper-case or ``"*"`` when unknown; ``url`` the URL as
    built (scheme and host included when written, e.g. a Feign client's ``http://customers-service`` + its mapping);
    ``caller`` the qualname of the enclosing function or method (a Feign interface method for Feign)."""

    framework: str
    method: str
    url: Template
    caller: str | None
    line: int
    col: int
    operation: str | None = None
    """A generated client's call (``framework`` ``openapi-client``), whose method and URL come from the repository's
    OpenAPI specs: ``"PetsApi.listPets"`` (the client class or service, or the openapi-python-client tag package, then
    the called name, an operationId candidate); ``method`` ``"*"`` and ``url`` empty."""
    method_param: str | None = None
    route_name: tuple[str, str, int, str] | None = None
    """A URL built from a route's name (:mod:`indexer.frameworks.route_names`): ``(family, name, arguments, URLconf)``,
    ``family`` the naming rule (``django``: ``reverse("shop:detail", args=(1,))``; ``flask``: ``url_for("bp.view")``;
    ``starlette``: ``request.url_for("name")``), ``arguments`` how many path values the call gives (``-1``: not
    known), ``URLconf`` the dotted module a Django test makes ``ROOT_URLCONF`` around the call (``""``: none).
    ``url`` still holds the expression as built, for display."""
    fixture: str | None = None
    """The parameter of ``caller`` (a pytest test or fixture) whose ``get`` / ``post`` / ... this is, when the
    receiver is that untyped parameter (``def test_home(client): client.get("/")``): the linker keeps the call only
    when the fixture pytest hands that parameter is a test client (:mod:`indexer.frameworks.fixture_clients`), with
    that client's ``framework``; ``framework`` is ``pytest-fixture`` until then. Or ``self.<attr>`` of a test case's
    method (``self.auth_client.get(url)``): kept when a class of the test's MRO binds it to a test client in its
    ``setUp``."""
    defaults: tuple[tuple[str, str], ...] = ()
    """``(name, text)`` of the parameters of ``caller`` whose default is a string literal (``get(resource, slug = "")``):
    a client template's call leaving one out sends that text there (:mod:`indexer.frameworks.client_chains`)."""
    """The name whose value is the method when ``method`` is ``"*"`` because a name gives it (``fetch(url, { method })``,
    ``fetch(url, { method: m })``, axios ``request({ url, method })``): when it is a parameter of ``caller``, each call of
    that function passing a literal there fixes the method (:mod:`indexer.frameworks.client_chains`)."""
    url_fixture: str | None = None
    """The parameter of ``caller`` (a pytest test or fixture) whose value is called to build the URL from a route name
    (``def test_login(client, headless_reverse): client.get(headless_reverse("headless:account:login"))``): the
    fixture pytest hands it decides (a :class:`UrlFixture`, :mod:`indexer.frameworks.fixture_clients`); until then
    :attr:`route_name` holds family ``""`` and the name as written, and a fixture that is no URL builder leaves the URL
    as built, with no route name."""


@dataclass(slots=True)
class GatewayRouteDecl:
    """An API gateway route declared in code (Spring Cloud Gateway's Java DSL:
    ``builder.routes().route("id", r -> r.path("/api/customer/**").filters(f -> f.stripPrefix(2))
    .uri("lb://customers-service"))``), read as the routes of the YAML configuration are
    (:class:`stores.gateway.GatewayRoute`): ``service`` the ``uri``'s host, ``paths`` its ``path(...)``
    patterns, ``methods`` its ``method(...)`` (upper case; empty: any), ``filters`` its path-changing
    filters in order, each ``(name, *args)`` in the configuration's names (``("StripPrefix", "2")``);
    ``line`` / ``col`` the ``route`` call. The linker applies them with the configuration's routes, after
    them, in file order."""

    service: str
    paths: tuple[str, ...]
    methods: tuple[str, ...]
    filters: tuple[tuple[str, ...], ...]
    line: int
    col: int


@dataclass(slots=True)
class UrlArgCall:
    """A call passing a URL-like string to a function or method that may wrap an HTTP client (``request("/orders")``,
    ``api.get("orders")``, ``this.api.get(`orders/${id}`)``): ``callee`` the callee as written (receiver text, ``.``,
    name: ``this.api.get``), ``args`` the arguments in order as templates, ``None`` for one that is no string, name or
    concatenation; ``caller`` as for :class:`HttpCall`. The linker makes it a call of the HTTP request in the callee's
    body when that request's URL names the callee's parameters (a *client template*: :mod:`indexer.frameworks.link`)."""

    callee: str
    args: tuple[Template | None, ...]
    caller: str | None
    line: int
    col: int
    params: tuple[str, ...] = ()
    methods: tuple[tuple[int, Template], ...] = ()
    """``(index, value)`` of each object-literal argument with a ``method`` property (``send(url, { method, body })``):
    the method a request reading ``init.method`` of that parameter sends (:attr:`HttpCall.method_param`)."""
    """The names among ``args`` that are parameters of the function around the call (``path`` in ``post(path) {
    return this.send(path, "POST") }``): a call handing them on is a layer of a client (:mod:`indexer.frameworks.client_chains`)."""
    fields: tuple[tuple[int, str, Template | None], ...] = ()
    """``(index, key, value)`` of every property of each object-literal argument (``request({ url: `${base}/cart`,
    method: "POST", body })``: its value as a template, ``None`` when it is no string, name or concatenation), which
    a template whose parameter is destructured (``({ url, method }) => fetch(url, { method })``,
    :attr:`Param.fields`) reads in that parameter's place."""


@dataclass(slots=True)
class UrlBuilder:
    """A function or method of the application that builds a string from its parameters and returns it:
    ``getEndpointFor(api, microservice?) { if (microservice) return `${this.prefix}services/${microservice}/${api}`;
    return `${this.prefix}${api}`; }``. ``qualname`` is the function's (``ApplicationConfigService.getEndpointFor``),
    ``params`` its parameter names in order, ``returns`` the template of each ``return`` in source order, a
    parameter named as a ``ref`` of its name. A call of it in a URL (a :func:`~indexer.string_templates.call_ref`
    piece) is its one return whose parameters the call all passes, those parameters replaced by the arguments
    (:mod:`indexer.frameworks.built_urls`)."""

    qualname: str
    params: tuple[str, ...]
    returns: tuple[Template, ...]


@dataclass(slots=True)
class GlobalPrefix:
    """A prefix an application puts before every route of its own (NestJS ``app.setGlobalPrefix("api", { exclude:
    [...] })``): the linker puts ``prefix`` before each absolute route of ``framework`` in the service folder holding
    this file, except routes whose path ``exclude`` names (the path as the controller writes it; a trailing ``*`` /
    ``(.*)`` matches everything below)."""

    framework: str
    prefix: Template
    line: int
    col: int
    exclude: list[Template] = field(default_factory=list)


@dataclass(slots=True)
class ListenPort:
    """The port an application's own code starts its server on (Express / Koa / Nest ``app.listen(PORT)``,
    ``fastify.listen({ port })``, uvicorn's ``uvicorn.run(app, port=8000)``, Flask's ``app.run(port=5000)``):
    ``port`` as written (``process.env.PORT || 3000`` is its fallback, a constant a reference). The linker
    names the application of this file as the one a loopback client of that port reaches
    (:mod:`indexer.frameworks.app_ports`)."""

    port: Template
    line: int
    col: int


@dataclass(slots=True)
class UriVersioning:
    """NestJS ``app.enableVersioning({ type: VersioningType.URI, prefix: "v", defaultVersion: "1" })`` (other types change
    no path): ``prefix`` + version after the global prefix of each absolute route of ``framework`` in the service
    folder holding this file, the route's :attr:`Route.versions` else ``default`` (``Template()``: neutral)."""

    framework: str
    prefix: str
    line: int
    col: int
    default: list[Template] = field(default_factory=list)


@dataclass(slots=True)
class UrlRewrite:
    """Code that rewrites the URL of every request a client sends (an Angular ``HttpInterceptor``:
    ``req.clone({ url: environment.apiUrl + req.url })``): ``url`` is the new URL, in which the ``ref``
    piece ``original`` (``req.url``) stands for the request's own URL. The linker applies it to the
    relative URLs of ``framework``'s requests (``angular``) in the package folder holding this file.
    ``owner``: the qualname of the enclosing function or method."""

    framework: str
    url: Template
    original: str
    owner: str | None
    line: int
    col: int


@dataclass(slots=True)
class DevProxy:
    """A development-server proxy rule read from a JavaScript / TypeScript configuration file (Vite ``server.proxy``,
    webpack ``devServer.proxy``, an Angular ``proxy.conf.js``): requests whose path matches one of ``context`` (a path
    prefix, a glob such as ``/api/**``, or a regular expression starting with ``^``) go to ``target``
    (``http://localhost:8080``), the path first rewritten by ``rewrite`` (``(pattern, replacement)``, a regular
    expression as JavaScript writes it: ``("^/api", "")``) when given. The linker applies it to the relative request
    URLs of the package folder holding this file."""

    context: list[str]
    target: Template
    line: int
    col: int
    rewrite: tuple[str, str] | None = None


@dataclass(slots=True)
class ClientFixture:
    """A pytest fixture that returns or yields an HTTP test client (``@pytest.fixture def client(app): return
    app.test_client()``, ``TestClient(app)``, ``APIClient()``, ``with app.test_client() as c: yield c``), read in its
    own file: ``qualname`` the fixture function's; ``framework`` the client's (``testclient``, ``django-test``,
    ``flask-test``, ``httpx``; ``""`` when every value it hands out is one of its parameters); ``params`` the
    parameters it hands out as they were handed in (``def auth_client(client): client.login(); return client``), each
    the fixture pytest gives that parameter (:mod:`indexer.frameworks.fixture_clients`). A fixture handing out
    anything else too is not recorded. Also a test client a class's ``setUp`` binds to ``self.<attr>``: ``qualname``
    ``<class>.self.<attr>`` (a request on ``self.<attr>`` in a subclass, in any file, is sent with it)."""

    qualname: str
    framework: str
    params: tuple[str, ...] = ()


@dataclass(slots=True)
class UrlFixture:
    """A pytest fixture whose value builds URLs from route names, read in its own file, in one of two shapes:

    * a builder: the fixture returns a function of its body whose first parameter is the route name, returned
      through ``reverse`` / ``url_for`` / ``url_path_for`` (``family`` that builder's, as
      :attr:`HttpCall.route_name`'s); ``rewrite`` ``(old, before, param, after)`` when the function first re-binds
      the name as ``name = name.replace(old, f"{before}{param}{after}")`` with ``param`` one of the fixture's own
      parameters (another fixture), else ``()``;
    * a value list: ``@pytest.fixture(params=["app", "browser"])`` returning ``request.param`` (``family`` ``""``,
      ``values`` the literal params in order): what a builder's ``param`` may be, one test run per value.

    ``qualname`` the fixture function's (:mod:`indexer.frameworks.fixture_clients` joins them)."""

    qualname: str
    family: str
    rewrite: tuple[str, ...] = ()
    values: tuple[str, ...] = ()


pickle_records(globals(), __name__)

