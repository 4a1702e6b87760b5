"""Prefixes and base URLs an application sets in one place for every route or request: the part of
the framework linker (:mod:`indexer.frameworks.link`) that applies them.

* Server side: a :class:`~indexer.model.GlobalPrefix` (NestJS ``app.setGlobalPrefix("api")``) goes
  before every absolute route of its framework exposed by a file of the same service folder
  (:attr:`~indexer.frameworks.link_options.LinkOptions.units`, as application-wide wrappers are
  bounded) and the same language family, except the paths its ``exclude`` names
  (:meth:`AppPrefixLinks.global_prefix`). Under a :class:`~indexer.model.UriVersioning` of the same
  service folder, the version segment follows it (``/api/v1/cats``: :meth:`AppPrefixLinks.uri_versions`).
* Client side, in this order, for a request of a file whose URL is relative (no scheme and host,
  no unknown start) (:meth:`AppPrefixLinks.client_url`):

  1. an Angular interceptor's :class:`~indexer.model.UrlRewrite` of the same package folder (the
     innermost folder holding a ``package.json``) rewrites an ``angular`` request's URL: the
     interceptor's template with the request's URL in place of ``req.url``, each piece rendered in
     its own file (``environment.apiUrl`` in the interceptor's);
  2. a development-server proxy of the same package folder (:mod:`indexer.frameworks.dev_proxy`:
     JSON files and :class:`~indexer.model.DevProxy` facts, JSON rules first) whose context matches
     the path forwards it to its target, path rewritten: the URL becomes absolute, and its host and
     port name the service (a compose-published port, a service name) as any URL's do.

  A supertest request to a NestJS application the test creates (client framework ``supertest-nest``)
  gets the service folder's global prefix instead (:meth:`AppPrefixLinks._tested_nest_app`), and a
  request of a Spring test client running the application in process (:data:`APP_RELATIVE_CLIENTS`:
  MockMvc, WebTestClient) gets the application's context path (:meth:`AppPrefixLinks._tested_spring_app`).
  The CALLS_HTTP edge records what applied: ``rewrite`` (the interceptor's id) and ``proxy`` (the
  file holding the rule). A package without a proxy keeps its relative URLs (reaching every service
  exposing the route, marked ambiguous by the analysis).

A mixin: it uses the linker's ``ctxs``, ``options``, ``render`` and ``_module_of``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from indexer.frameworks.clients import HOLE, SCHEME_HOST
from indexer.frameworks.dev_proxy import ProxyRule, proxied_url
from indexer.frameworks.dotnet_test_apps import FactoryApplications
from indexer.model import GlobalPrefix, Route, Template, UriVersioning, UrlRewrite
from indexer.symbols import CONFIG_KEY
from stores.contracts import EDGE_APP

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["APP_RELATIVE_CLIENTS", "OWN_APP_CLIENTS", "MOCK_MVC_CLIENTS", "NEST_FRAMEWORK", "TESTED_NEST_APP", "AppPrefixLinks", "excluded"]

NEST_FRAMEWORK = "nest"
"""The framework of NestJS routes and global prefixes."""
TESTED_NEST_APP = "supertest-nest"
"""The client framework of supertest requests to a NestJS application a test creates
(``request(app.getHttpServer())``, :mod:`indexer.languages.ecmascript.frameworks.js_http_clients`)."""

APP_RELATIVE_CLIENTS = frozenset({"mockmvc", "restassured-mockmvc", "testresttemplate", "webtestclient", "resttestclient"})
"""Client frameworks of Spring tests whose relative paths are inside the application: MockMvc (its
request URI has no context path unless the test sets one), RestAssured's MockMvc / WebTestClient
modules, WebTestClient and Spring Framework 7's RestTestClient (bound to the application in process, or
Spring Boot's auto-configured one, whose base URL ends with the context path) and Spring Boot's ``TestRestTemplate`` (its
``LocalHostUriTemplateHandler`` roots a relative URL at ``http://localhost:<port>`` + the context path) (:mod:`indexer.languages.java.frameworks.spring_test_clients`)."""
MOCK_MVC_CLIENTS = frozenset({"mockmvc", "restassured-mockmvc"})
"""Of :data:`APP_RELATIVE_CLIENTS`, those that call the DispatcherServlet in process with an empty
servlet path, so their paths are inside ``spring.mvc.servlet.path`` too."""

OWN_APP_CLIENTS = APP_RELATIVE_CLIENTS | {TESTED_NEST_APP, "supertest", "flask-test", "django-test", "testclient",
                                          "aspnet-test"}
"""Test clients whose relative URL requests, in process, an application of the test's own code (the Spring
ones above, supertest's ``request(app)``, Flask's ``test_client()``, Django's and Starlette's / FastAPI's
test clients, ASP.NET Core's ``WebApplicationFactory`` / ``TestServer`` clients): such a request carries the test file's application (:data:`stores.contracts.EDGE_APP`), so
that of a route several applications serve it reaches its own application's handler only."""

_WILDCARDS = ("(.*)", "/*", "*")


def excluded(path: str, patterns: list[str]) -> bool:
    """Whether a route path (``/health``, ``cats/{}``) is one of the ``exclude`` paths of a global
    prefix: equal up to leading and trailing ``/``, or under a pattern ending in ``*`` / ``(.*)``.

    >>> excluded("/health", ["health"]), excluded("/cats/{}", ["cats/(.*)"]), excluded("/cats", ["dogs"])
    (True, True, False)
    """
    p = path.strip("/")
    for pattern in patterns:
        q = pattern.strip("/")
        for tail in _WILDCARDS:
            if q.endswith(tail):
                head = q[: -len(tail)].rstrip("/")
                if not head or p == head or p.startswith(head + "/"):
                    return True
                break
        else:
            if p == q:
                return True
    return False


class AppPrefixLinks:
    """Mixin of the framework linker applying global prefixes, interceptors and proxies (see the
    module docstring)."""

    ctxs: Any
    options: Any
    _prefix_facts: dict[tuple[str | None, str], list[tuple[FileCtx, GlobalPrefix]]] | None = None
    _config_facts: dict[tuple[str | None, str, str], list[FileCtx]] | None = None
    _versioning_facts: dict[tuple[str | None, str], list[tuple[FileCtx, UriVersioning]]] | None = None
    _client_facts: tuple[dict[str, list[tuple[FileCtx, UrlRewrite]]], dict[str, list[ProxyRule]]] | None = None
    _factory_applications: FactoryApplications | None = None

    def global_prefix(self, fc: FileCtx, framework: str, path: str) -> str:
        """The global prefix (rendered) of a route of ``framework`` in ``fc`` whose own path is
        ``path``; ``""`` when none applies. The first registration of the service folder (by file
        path) wins."""
        if self._prefix_facts is None:
            self._prefix_facts = defaultdict(list)
            for c in self.ctxs:
                for g in c.ex.global_prefixes:
                    self._prefix_facts[(self._module_of(c.path), c.rules.namespace)].append((c, g))
        found = self._prefix_facts.get((self._module_of(fc.path), fc.rules.namespace))
        for gfc, g in found or ():
            if g.framework != framework:
                continue
            excludes = [self.render(gfc, None, t).replace(HOLE, "{}") for t in g.exclude]
            if excluded(path, excludes):
                return ""
            return self.render(gfc, None, g.prefix).replace(HOLE, "{}")
        return ""

    def config_constant(self, fc: FileCtx, expr: str) -> tuple[FileCtx, str] | None:
        """Where the configuration key ``expr`` (``config:app.apiPrefix``,
        :data:`~indexer.symbols.CONFIG_KEY`) a file of ``fc``'s service folder reads is given a value:
        the first file (by path) of that folder and namespace registering it; ``None`` when none does."""
        if self._config_facts is None:
            self._config_facts = defaultdict(list)
            for c in self.ctxs:
                for k in c.ex.constants:
                    if k.qualname.startswith(CONFIG_KEY):
                        self._config_facts[(self._module_of(c.path), c.rules.namespace, k.qualname)].append(c)
        found = self._config_facts.get((self._module_of(fc.path), fc.rules.namespace, expr))
        return (min(found, key=lambda c: c.path), expr) if found else None

    def uri_versions(self, fc: FileCtx, route: Route) -> list[str]:
        """The version segments (``/v1``) a route of ``fc`` is served under, one per version, in the
        order written: ``[""]`` (no segment) when no URI versioning of its framework is enabled in its
        service folder (the first by file path wins), or when the route has no version (its own, else
        the application's default) or is ``VERSION_NEUTRAL``. A version the linker cannot render
        (a constant of unknown value) is a ``{}`` segment, as unknown prefixes are."""
        if self._versioning_facts is None:
            self._versioning_facts = defaultdict(list)
            for c in self.ctxs:
                for v in c.ex.uri_versionings:
                    self._versioning_facts[(self._module_of(c.path), c.rules.namespace)].append((c, v))
        found = self._versioning_facts.get((self._module_of(fc.path), fc.rules.namespace))
        for vfc, v in found or ():
            if v.framework != route.framework:
                continue
            given = [(fc, t) for t in route.versions] or [(vfc, t) for t in v.default]
            out: list[str] = []
            for tfc, t in given:
                text = self.render(tfc, None, t).replace(HOLE, "{}").strip("/") if t.parts else ""
                segment = "/" + v.prefix + text if text else ""
                if segment not in out:
                    out.append(segment)
            return out or [""]
        return [""]

    def _tested_nest_app(self, fc: FileCtx, rendered: str) -> tuple[str, dict[str, str]]:
        """A supertest request to a NestJS application a test creates (``request(app.getHttpServer())
        .get("/cats")``): that application is built from the modules (``Test.createTestingModule``), not
        by ``main.ts``, so the global prefix is not set unless the test sets it; the endpoints carry it.
        The request reaches the endpoint at the service folder's global prefix (:meth:`global_prefix`)
        followed by its path, unless the test's own file sets a global prefix or the path already
        starts with the prefix (at a segment boundary), or is ``/graphql``: ``GraphQLModule`` serves
        there without the global prefix unless told to (``useGlobalPrefix``, default false; a custom
        ``path`` is not read); the edge says ``prefix``. URI version segments are not put back."""
        path = rendered if rendered.startswith("/") else "/" + rendered
        if fc.ex.global_prefixes or path.split("?", 1)[0].rstrip("/") == "/graphql":
            return rendered, {}
        prefix = self.global_prefix(fc, NEST_FRAMEWORK, path.split("?", 1)[0])
        prefix = "/" + prefix.strip("/") if prefix.strip("/") else ""
        if not prefix or path == prefix or path.startswith(prefix + "/"):
            return rendered, {}
        return prefix + path, {"prefix": prefix}

    def _tested_spring_app(self, fc: FileCtx, rendered: str, framework: str) -> tuple[str, dict[str, str]]:
        """A request of a Spring test client running the application in process (``mockMvc.perform(
        get("/owners"))``): its path is the path inside the application, while the endpoints carry the
        application's context path (``server.servlet.context-path``, else ``spring.webflux.base-path``,
        from the configuration the test's file sees) and Spring MVC's ones the DispatcherServlet's
        path (``spring.mvc.servlet.path``). The request reaches the context path followed by its path,
        unless the path already starts with it at a segment boundary (a test setting
        ``.contextPath(...)`` writes it); the edge says ``prefix``. The servlet path is put before
        the path of a MockMvc request (:data:`MOCK_MVC_CLIENTS`: MockMvc's servlet path is empty and
        the handler mapping reads the path past the servlet path, so ``/owners`` is the endpoint at
        ``<servlet path>/owners``) unless it already starts with it (``.servletPath("/api")``); a
        client over HTTP (``TestRestTemplate``, WebTestClient) writes the servlet path itself."""
        props = self.options.properties_for(fc.path)
        context = _segment(props.get("server.servlet.context-path") or props.get("spring.webflux.base-path") or "")
        servlet = _segment(props.get("spring.mvc.servlet.path") or "") if framework in MOCK_MVC_CLIENTS else ""
        path = rendered if rendered.startswith("/") else "/" + rendered
        prefix = ""
        if servlet and not _under(path, servlet) and not (context and _under(path, context)):
            prefix = servlet
        if context and not _under(prefix + path, context):
            prefix = context + prefix
        return (prefix + path, {"prefix": prefix}) if prefix else (rendered, {})

    def _package_of(self, path: str) -> str:
        """The innermost package folder (``package.json``) holding ``path``; ``""``: the root."""
        folders = (*self.options.env, *self.options.proxies)
        return max((d for d in folders if d and path.startswith(d + "/")), key=len, default="")

    def _clients(self) -> tuple[dict[str, list[tuple[FileCtx, UrlRewrite]]], dict[str, list[ProxyRule]]]:
        """Interceptor rewrites and proxy rules per package folder (JSON rules first, then those of
        the configuration files, by file path)."""
        if self._client_facts is None:
            rewrites: dict[str, list[tuple[FileCtx, UrlRewrite]]] = defaultdict(list)
            rules: dict[str, list[ProxyRule]] = defaultdict(list)
            for folder, found in self.options.proxies.items():
                rules[folder].extend(found)
            for c in self.ctxs:
                if c.ex.url_rewrites:
                    rewrites[self._package_of(c.path)].extend((c, w) for w in c.ex.url_rewrites)
                for d in c.ex.dev_proxies:
                    target = self.render(c, None, d.target)
                    if HOLE in target or not SCHEME_HOST.match(target):
                        continue
                    rules[self._package_of(c.path)].append(
                        ProxyRule(tuple(d.context), target, (d.rewrite,) if d.rewrite else (), c.path))
            self._client_facts = (rewrites, rules)
        return self._client_facts

    @staticmethod
    def in_process(framework: str) -> bool:
        """Whether a client of ``framework`` calls its own application in process (a Spring test's
        MockMvc / WebTestClient / TestRestTemplate, supertest on a Nest app): its relative paths never
        go through an API gateway."""
        return framework in APP_RELATIVE_CLIENTS or framework == TESTED_NEST_APP

    def own_application(self, fc: FileCtx, framework: str) -> dict[str, str]:
        """The edge props of a request of ``fc`` made with ``framework`` whose URL names no service: the
        application holding ``fc`` (:data:`stores.contracts.EDGE_APP`) for a test client requesting
        its own application in process (:data:`OWN_APP_CLIENTS`) when that application is named
        (:meth:`~indexer.frameworks.link_options.LinkOptions.service_for`), else the one application the
        test's .NET project references (:meth:`~indexer.frameworks.link_options.LinkOptions.tested_application`:
        a test project beside the API it tests), else the one its ``WebApplicationFactory<T>`` starts
        (:class:`~indexer.frameworks.dotnet_test_apps.FactoryApplications`); else none."""
        if framework not in OWN_APP_CLIENTS:
            return {}
        app = self.options.service_for(fc.path) or self.options.tested_application(fc.path)
        if not app and framework == "aspnet-test":  # several referenced: the factory's entry type's
            if self._factory_applications is None:
                self._factory_applications = FactoryApplications(self.ctxs, self.options)
            app = self._factory_applications.of(fc)
        return {EDGE_APP: app} if app else {}

    def client_url(self, fc: FileCtx, framework: str, rendered: str) -> tuple[str, dict[str, str]]:
        """The URL a request of ``fc`` made with ``rendered`` reaches once the package's interceptor
        and development proxy applied, and the edge props saying which did."""
        if not rendered or rendered.startswith(HOLE) or SCHEME_HOST.match(rendered):
            return rendered, {}
        if framework == TESTED_NEST_APP:
            return self._tested_nest_app(fc, rendered)
        if framework in APP_RELATIVE_CLIENTS:
            return self._tested_spring_app(fc, rendered, framework)
        rewrites, rules = self._clients()
        if not rewrites and not rules:
            return rendered, {}
        package = self._package_of(fc.path)
        extra: dict[str, str] = {}
        if framework == "angular":
            for wfc, w in rewrites.get(package, ()):
                out: list[str] = []
                for kind, text in w.url.parts:
                    out.append(rendered if kind == "ref" and text == w.original
                               else self.render(wfc, w.owner, Template(((kind, text),))))
                rendered = "".join(out)
                rd = wfc.def_at(w.owner, w.line) if w.owner else None
                extra["rewrite"] = rd.id if rd is not None else wfc.path
                break
            if rendered.startswith(HOLE) or SCHEME_HOST.match(rendered):
                return rendered, extra
        found = proxied_url(rules.get(package, ()), rendered if rendered.startswith("/") else "/" + rendered)
        if found is not None:
            rendered, rule = found
            extra["proxy"] = rule.source
        return rendered, extra


def _segment(text: str) -> str:
    """A configured path prefix as ``/a/b`` (``/shop/`` -> ``/shop``); ``""`` for none, the root, or
    one not known before run time (a hole, a ``${placeholder}``)."""
    text = text.strip().strip("/")
    return "" if not text or HOLE in text or "${" in text else "/" + text


def _under(path: str, prefix: str) -> bool:
    """Whether ``path`` is ``prefix`` or below it at a segment boundary (a query string counts)."""
    return path == prefix or path.startswith((prefix + "/", prefix + "?"))
