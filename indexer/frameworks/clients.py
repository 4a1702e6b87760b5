"""The HTTP-client part of the linker: a client URL to the Endpoint it calls.

:func:`split_url` cuts a rendered URL into the service it addresses and its path;
:class:`ClientLinks` (a mixin of the linker in :mod:`indexer.frameworks.link`) makes the CALLS_HTTP edge
of a request and links the calls of client templates, functions whose request URL names one of their
own parameters (``request(path)`` calling ``fetch(BASE + path)``).
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from typing import TYPE_CHECKING, Any

from indexer.frameworks.app_ports import code_ports, loopback_port
from indexer.frameworks.client_chains import Layer, chain_templates, forwards, given, layer_of, plausible, request_of
from indexer.frameworks.fixture_clients import FixtureClients
from indexer.model import FileExtraction, Template, UrlArgCall
from indexer.resolve.values import FuncV
from stores.gateway import GatewayRoute, route_table

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["AXIOS_VERBS", "HOLE", "PLACEHOLDER", "SCHEME_HOST", "ClientLinks", "code_gateways", "gateway_url", "prefixes_url",
           "split_url", "unknown_only"]

SCHEME_HOST = re.compile(r"^(?:[a-zA-Z][a-zA-Z0-9+.-]*:)?//(?:[^/@?#]*@)?(\[[^\]/?#]*\]|[^/:?#]*)(?::[^/?#]*)?")
# An unresolved Spring placeholder (one level of nesting: ``${a:${b}}``).
PLACEHOLDER = re.compile(r"\$\{(?:[^{}]|\{[^{}]*\})*\}")
HOLE = "\x00"
AXIOS_VERBS = frozenset({"get", "delete", "head", "options", "post", "put", "patch"})
"""Methods of an axios instance taking the URL first (``api.post(url, data)``)."""
"""An unknown piece of a rendered URL or path (a hole of a :class:`~indexer.model.Template`)."""


def unknown_only(path: str) -> bool:
    """Whether the rendered ``path`` (unknown pieces :data:`HOLE` or ``{}``) is nothing but unknown pieces
    and slashes (``\x00``, ``/{}``, ``/\x00/\x00``): such a path names no endpoint, as a client's URL or a
    route's path alike (``GET /{}`` would serve or send to any one-segment path); the root ``/`` or an empty
    path is not unknown."""
    rest = path.replace(HOLE, "{}")
    return "{}" in rest and not rest.strip("/{}")


def split_url(url: str, services: Mapping[str, str]) -> tuple[str | None, str | None]:
    """``(service, path)`` of a client URL whose unknown pieces are written ``\\x00``.

    The longest key of ``services`` that prefixes the URL up to a path boundary (``/api/customer``
    prefixes ``/api/customer/owners``, not ``/api/customers``) is cut off and its value is the service;
    otherwise a scheme and host (``http://customers-service:8080``, ``lb://visits``,
    ``http://[::1]:8080``) are cut off and the host is the service (none when the host is not known
    in full: ``f"http://{host}/x"``). A URL starting with an unknown piece loses everything up to its first
    ``/`` after it (the base is unknown; no service). Remaining unknown pieces become path variables.
    Returns ``(None, None)`` when nothing of a path is left.
    """
    service: str | None = None
    if url and not url.startswith(("/", HOLE)) and not SCHEME_HOST.match(url):
        url = "/" + url  # a relative URL ("api/owners"): relative to the page, i.e. the site root
    best = max((k for k in services if prefixes_url(k, url)), key=len, default=None)
    if best is not None:
        service, url = services[best], url[len(best) :]
    else:
        m = SCHEME_HOST.match(url)
        if m:
            host = m.group(1)
            url = url[m.end() :]
            if HOLE in host:  # "http://" + host + "/owners": the path is known, the service is not
                if not url.split("?", 1)[0].split("#", 1)[0]:
                    return None, None  # "http://svc" + path: nothing of the path is known
            else:
                service = services.get(host, host) or None
        elif url.startswith(HOLE):
            slash = url.find("/")
            if slash < 0:
                return None, None
            url = url[slash:]
    path = url.replace(HOLE, "{}")
    if unknown_only(path):
        return service, None  # nothing but unknowns
    return service, path


_KNOWN_PATH = re.compile(r"/?[A-Za-z0-9_~-]+(?:[/?#]|$)")
"""The known end of a URL of unknown start that a gateway route may take: a whole first segment (not ``:8080/x``
nor ``.example.com/x``, the rest of a host)."""


def gateway_url(routes: Sequence[GatewayRoute], method: str, url: str,
                client: str | None = None) -> tuple[str, str | None] | None:
    """``(service, path)`` of a relative client URL (``/api/customer/owners/\\x00``, ``api/vet/vets``) that
    the first of the gateway ``routes`` whose predicates match it forwards (Spring Cloud Gateway takes
    routes in order), at the path the route's filters make (:meth:`stores.gateway.GatewayRoute.forward`),
    unknown pieces as ``{}`` (``None`` as the path: nothing of it is known). ``None`` when the URL has a
    scheme or host, starts with an unknown piece, no route takes it, or the first route taking it
    names no service (an nginx location serving the path itself). ``client``: the repository-relative
    path of the file making the request; routes whose :attr:`~stores.gateway.GatewayRoute.scope` does
    not hold it are passed over (``None``: none is)."""
    if not routes or not url or url.startswith(HOLE) or SCHEME_HOST.match(url):
        return None
    path = url if url.startswith("/") else "/" + url
    found = route_table(routes).first(method, path, client)
    if found is None:
        return None
    route, forwarded = found
    return (route.service, split_url(forwarded, {})[1]) if route.service else None


def prefixes_url(key: str, url: str) -> bool:
    """Whether the service-map ``key`` is a prefix of ``url`` ending at a path boundary (the end, ``/``,
    ``?``, ``#`` or an unknown piece)."""
    if not key or not url.startswith(key):
        return False
    return len(url) == len(key) or key.endswith("/") or url[len(key)] in ("/", "?", "#", HOLE)


_LOOPBACK = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "[::1]", "::1"})
"""URL hosts naming the machine itself (as :data:`analysis.services.LOOPBACK_HOSTS`)."""


class ClientLinks:
    """CALLS_HTTP linking, mixed into the linker (which provides ``r``, ``ctxs``, ``options``,
    ``result``, ``render``, ``_endpoint``, ``_edge``, ``_owner_id`` and ``unlinked``: a request whose URL
    names no path is an ``UNLINKED`` edge, :mod:`indexer.frameworks.unlinked`)."""

    _gateways: tuple[GatewayRoute, ...] | None = None
    _code_ports: dict[str, str] | None = None

    def code_ports(self) -> dict[str, str]:
        """``{port: application}`` of the ports the repository's servers listen on in code
        (:class:`~indexer.model.ListenPort`, rendered in their files; :func:`~indexer.frameworks.app_ports.code_ports`),
        computed once per link."""
        if self._code_ports is None:
            self._code_ports = code_ports((self.render(c, None, lp.port), self.options.service_for(c.path))  # type: ignore[attr-defined]
                                          for c in self.ctxs for lp in c.ex.listen_ports)  # type: ignore[attr-defined]
        return self._code_ports

    r: Any
    ctxs: Any
    options: Any
    result: Any

    def client_templates(self) -> dict[tuple[str, str], list[Layer]]:
        """Client templates by their function's ``(path, qualname)``: a function or method whose HTTP
        request's URL names one of its own parameters (``request(path)`` calling ``fetch(BASE +
        path)``) or whose method is one (Go's ``send(method)`` calling ``http.NewRequest(method, url,
        nil)``), and the functions calling one with their own parameters in its place, layer by layer
        (:func:`indexer.frameworks.client_chains.chain_templates`). Each call of such a function passing
        a URL (:class:`~indexer.model.UrlArgCall`) is linked with the argument in the parameter's place
        (:meth:`wrapped_call`); the request itself is then not linked (its path is unknown where it is
        written), but it still is when no call passes a URL to it (``fetchOrder(id)`` building
        ``/orders/`` + ``id``: a path variable)."""
        base: dict[tuple[str, str], list[Layer]] = defaultdict(list)
        members: FixtureClients | None = None  # a request on `self.<attr>`: a template only when that is a test client
        for fc in self.ctxs:
            for call in fc.ex.http_calls:
                if call.caller is None or not (call.method_param or any(k == "ref" and t.count(".") <= 1
                                                                        for k, t in call.url.parts)):
                    continue
                if call.fixture is not None and call.fixture.startswith("self."):
                    members = members or FixtureClients(self.r, self.ctxs)
                    if members.member(fc, call.caller, call.fixture) is None:
                        continue  # `self.factory.get(url)` of a RequestFactory: no request
                rd = fc.def_at(call.caller, call.line)
                if rd is None or not rd.is_callable:
                    continue
                names = [p.name for p in rd.d.params]
                fields = tuple((local, i, key) for i, p in enumerate(rd.d.params) for key, local in p.fields)
                fields += option_fields(call.url, names)
                bound = {*names, *(local for local, _, _ in fields)}  # `({ url, method }) => fetch(url, ...)`
                if any(k == "ref" and t in bound for k, t in call.url.parts) or (
                        call.method == "*" and (call.method_param or "").split(".", 1)[0] in bound):
                    base[(fc.path, rd.qualname)].append(layer_of(fc, call, names, self.render, fields))
        if not base:
            return {}
        return chain_templates(self.ctxs, base, self._template_key, self.render)

    def gateways(self) -> tuple[GatewayRoute, ...]:
        """The API gateway routes relative client URLs go through: the configuration's
        (:attr:`~indexer.frameworks.link_options.LinkOptions.gateways`), then those declared in code
        (:attr:`~indexer.model.FileExtraction.gateway_routes`, :func:`code_gateways`), read once."""
        if self._gateways is None:
            self._gateways = (*self.options.gateways, *code_gateways(fc.ex for fc in self.ctxs))
        return self._gateways

    def _template_key(self, fc: FileCtx, use: UrlArgCall) -> tuple[str, str] | None:
        v = self.r.resolve_expr(fc, use.caller, use.callee)
        if not isinstance(v, FuncV) or v.f.file.repo != self.r.repo:
            return None
        return v.f.file.path, v.f.qualname

    def wrapped_call(self, fc: FileCtx, use: UrlArgCall,
                     templates: Mapping[tuple[str, str], list[Layer]]) -> list[int]:
        """CALLS_HTTP edges of a call of a client template (``request("/orders")``): the template's URL
        with the call's arguments in its parameters' places, each piece rendered in its own file (the
        template's ``BASE`` there, the argument's constants here); an argument not given or not a
        string is an unknown piece; the method the template's, or the literal argument in its method
        parameter's place. A call handing only its own parameters on as the URL is a layer, not
        linked (:func:`indexer.frameworks.client_chains.forwards`). The edge's ``via`` names the
        template function. A call ``NAME.get(url)`` (any of :data:`AXIOS_VERBS`) on an axios instance
        another module creates and exports (its ``NAME.defaults.baseURL`` constant is known here) is
        that instance's request, its base put before the URL. Returns the ``id`` of each template
        request used."""
        recv, _, verb = use.callee.rpartition(".")
        instance = _instance_request(use)
        if instance is not None:
            name, method, arg = instance
            base = self.render(fc, use.caller, Template((("ref", f"{name}.defaults.baseURL"),)))
            if base != HOLE:  # an axios instance another module creates (api.get("/orders"), api("/orders"))
                url = self.render(fc, use.caller, arg)
                joined = url if SCHEME_HOST.match(url) or not base else base.rstrip("/") + "/" + url.lstrip("/")
                self.link_url(fc, use.caller, use.line, use.col, "axios", method, joined)
                return []
        if not templates:
            return []
        v = self.r.resolve_expr(fc, use.caller, use.callee)
        if not isinstance(v, FuncV) or v.f.file.repo != self.r.repo:
            return []
        layers = templates.get((v.f.file.path, v.f.qualname), ())
        if not layers:
            return []
        rd = fc.def_at(use.caller, use.line) if use.caller is not None else None
        own = {*use.params, *(p.name for p in rd.d.params)} if rd is not None and rd.is_callable else set(use.params)
        used: list[int] = []
        for layer in layers:
            if own and forwards(use, layer, own) or not given(use, layer):
                continue  # `this.fetch(path, method)`: a layer of the chain, linked where a URL is given
            method, url = request_of(use, layer, fc, self.render)
            if not plausible(url):
                self.unlinked(fc, self._owner_id(fc, use.caller, use.line), use.line, use.col,  # type: ignore[attr-defined]
                              "unlinked_url", f"{method} {url.replace(HOLE, '{}')}", layer.call.framework)
                continue
            used.append(id(layer.call))
            self.link_url(fc, use.caller, use.line, use.col, layer.call.framework, method, url, via=v.f.id)
        return used

    def link_url(self, fc: FileCtx, caller: str | None, line: int, col: int, framework: str, method: str,
                  rendered: str, **extra: str) -> None:
        """The CALLS_HTTP edge of a request from ``caller`` of ``fc`` to the rendered URL ``rendered``
        (a relative one first through the package's interceptor and development proxy:
        :meth:`indexer.frameworks.app_prefixes.AppPrefixLinks.client_url`)."""
        rendered, applied = self.client_url(fc, framework, rendered)
        extra = {**extra, **applied}
        # A placeholder the configuration does not resolve (``@FeignClient(url = "${customers.url}")``
        # read without that key) is an unknown piece of the URL, not a path segment.
        url = PLACEHOLDER.sub(HOLE, rendered) if "${" in rendered else rendered
        if framework in ("axios", "rtk-query") and "//" in url:  # combineURLs / joinUrls: one `/` between base and URL
            m = SCHEME_HOST.match(url)
            head = m.group(0) if m else ""
            url = head + re.sub(r"/{2,}", "/", url[len(head):])
            if framework == "rtk-query":  # the join is this detector's own (rtk_query): shown as RTK sends it
                rendered = url
        # a gateway route takes a relative URL of a client over HTTP (a page the gateway serves, a front
        # end behind it), not a proxied one nor a test's in-process request
        over_http = "proxy" not in applied and not self.in_process(framework)  # type: ignore[attr-defined]
        routed = gateway_url(self.gateways(), method, url, fc.path) if over_http else None
        if routed is None and over_http and url.startswith(HOLE):
            # an unknown start (a base set at run time) then a path a gateway route of the repository takes:
            # `${this.endpointPrefix}services/billing/api/x` through a discovery-locator route
            rest = url.lstrip(HOLE)
            if _KNOWN_PATH.match(rest):
                routed = gateway_url(self.gateways(), method, rest, fc.path)
        service, path = routed if routed is not None else split_url(url, self.options.services)
        if routed is None and service in _LOOPBACK and (port := loopback_port(url)) is not None:
            service = self.code_ports().get(port, service)  # an application's own code listens on the port
        if path is None:
            self.unlinked(fc, self._owner_id(fc, caller, line), line, col, "unlinked_url",  # type: ignore[attr-defined]
                          f"{'GET' if method == '*' else method} {rendered.replace(HOLE, '{}')}", framework)
            return
        method = "GET" if method == "*" else method
        eid = self._endpoint(fc, method, path)
        if service is None:  # a test's in-process request: its own application
            extra = {**self.own_application(fc, framework), **extra}  # type: ignore[attr-defined]
        shown = rendered.replace(HOLE, "{}")
        self._edge(fc, "CALLS_HTTP", self._owner_id(fc, caller, line), eid, line, col,
                   framework=framework, url=shown, service=service, **extra)
        self.result.outcomes["calls_http"] += 1


def option_fields(url: Template, names: list[str]) -> tuple[tuple[str, int, str], ...]:
    """``(local, index, key)`` of each URL piece reading a property of a plain parameter (``options.url`` of
    ``function request(options) { return fetch(options.url, options) }``, the wrapper React front ends write
    around ``fetch``): the property ``key`` of the object literal a call passes at that parameter's ``index``,
    as a destructured parameter's name is (:attr:`~indexer.frameworks.client_chains.Layer.fields`). Only one
    level (``options.url``, not ``options.api.url``) and only parameters, in ``names``' order."""
    out: list[tuple[str, int, str]] = []
    for kind, text in url.parts:
        head, dot, key = text.partition(".")
        if kind == "ref" and dot and "." not in key and key and head in names and (text, names.index(head), key) not in out:
            out.append((text, names.index(head), key))
    return tuple(out)


def _instance_request(use: UrlArgCall) -> tuple[str, str, Template] | None:
    """``(instance name, method, URL)`` of a call that is a request if its receiver is an axios instance
    another module creates: ``NAME.get(url)`` (any of :data:`AXIOS_VERBS`), or the instance called
    itself, as ``axios`` is: ``NAME(url)`` (``GET``), ``NAME({ url, method })`` (the literal method, ``GET``
    when none is written, ``*`` when it is not a literal); ``None`` for any other call."""
    recv, _, verb = use.callee.rpartition(".")
    if recv and verb in AXIOS_VERBS and "." not in recv and use.args and use.args[0] is not None:
        return recv, verb.upper(), use.args[0]
    if recv or not use.args:
        return None
    if use.args[0] is not None:
        return use.callee, "GET", use.args[0]
    config = {k: t for i, k, t in use.fields if i == 0}
    url = config.get("url")
    if url is None:
        return None
    if "method" not in config:
        return use.callee, "GET", url
    lit = config["method"].literal() if config["method"] is not None else None
    return use.callee, lit.strip().upper() if lit and lit.strip().isalpha() else "*", url


def code_gateways(extractions: Iterable[FileExtraction]) -> list[GatewayRoute]:
    """The gateway routes the files ``extractions`` declare in code (Spring Cloud Gateway's Java DSL,
    :class:`~indexer.model.GatewayRouteDecl`) as :class:`~stores.gateway.GatewayRoute` s, by file path
    then position."""
    return [GatewayRoute(d.service, d.paths, d.methods, d.filters)
            for ex in sorted((ex for ex in extractions if ex.gateway_routes), key=lambda ex: ex.path)
            for d in ex.gateway_routes]
