"""The service map of cross-service impact analysis: which repository serves the HTTP service a URL
names (``customers-service`` -> ``petclinic-customers``); which client URLs name no service
(:func:`names_no_service`) and which of those reach a route several services expose
(:func:`ambiguous_clients`).

Front ends merge, in this order of precedence, the entries given on their command line, the
``$RIPPLE_SERVICES`` variable and the ``[http.services]`` table of the configuration
(:attr:`stores.config.Config.http_services`), and pass the result to
:func:`analysis.impact.blast_radius` as ``services``.
"""

from __future__ import annotations

import os
from collections.abc import Callable, Collection, Mapping, Sequence

from stores.contracts import APPLICATIONS_PROP, EDGE_APP, Edge, GraphStore

__all__ = ["SERVICES_ENV", "LOOPBACK_HOSTS", "service_map", "names_no_service", "public_host",
           "ambiguous_clients", "application_of", "repository_applications", "client_app", "scoped_out",
           "serving_applications", "named_client_reaches", "client_reaches"]

SERVICES_ENV = "RIPPLE_SERVICES"
"""Environment variable holding the service map of impact analysis: ``NAME=REPO`` entries separated
by spaces or commas (the HTTP service an URL names -> the repository that serves it)."""


def service_map(entries: Sequence[str] | None = None) -> dict[str, str]:
    """``{service: repository}`` from ``NAME=REPO`` ``entries`` (each may hold several, separated by
    spaces or commas), else from ``$RIPPLE_SERVICES``. Raises :class:`ValueError` on an entry
    without ``=`` or with an empty side."""
    if entries is None:
        entries = [os.environ.get(SERVICES_ENV, "")]
    out: dict[str, str] = {}
    for entry in entries:
        for item in entry.replace(",", " ").split():
            name, eq, repo = item.partition("=")
            if not eq or not name or not repo:
                raise ValueError(f"expected NAME=REPO in the service map, got {item!r}")
            out[name] = repo
    return out


def repository_applications(graph: GraphStore) -> dict[str, dict[str, str]]:
    """Per repository key, the folders naming its applications (:data:`APPLICATIONS_PROP`); a
    repository whose entry has none (indexed before it was recorded, or not indexed by this
    program) is left out. One store call; entries of another shape are ignored."""
    out: dict[str, dict[str, str]] = {}
    for record in graph.repositories():
        apps = record.props.get(APPLICATIONS_PROP)
        if isinstance(apps, dict):
            out[record.key] = {str(k): str(v) for k, v in apps.items() if isinstance(v, str)}
    return out


def application_of(applications: Mapping[str, str], path: str) -> str | None:
    """The application a file of the repository-relative ``path`` belongs to: the name of the longest
    folder of ``applications`` (``{folder: name}``, ``""`` the root) holding it; ``None`` when no
    folder holds it or that folder names nothing (``""``)."""
    best = max((f for f in applications if not f or path.startswith(f + "/")), key=len, default=None)
    return applications[best] or None if best is not None else None


LOOPBACK_HOSTS = frozenset({"localhost", "127.0.0.1", "0.0.0.0", "::1", "[::1]"})
"""Hosts that name the machine, not a service: a client of ``http://localhost:8000`` is followed to
every service exposing the route (and marked ambiguous when several do), as a relative URL is."""

_ANY_METHOD = "endpoint:* "


_PRIVATE_SUFFIXES = ("local", "internal", "localdomain", "lan", "home", "corp", "intranet", "svc", "test",
                     "example", "invalid", "localhost", "docker")
"""Last labels of host names that name no public service (RFC 6761 / 6762 reserved names, the usual
private zones, Kubernetes ``svc`` and ``cluster.local``)."""


def public_host(service: object) -> bool:
    """Whether an HTTP client's ``service`` is a public DNS name (``api.cognitive.microsofttranslator.com``,
    ``api.github.com``): dotted, its last label letters only and no private zone (:data:`_PRIVATE_SUFFIXES`).
    Such a client addresses an outside service, not the indexed application that happens to have the
    same path, unless the service map or the application names that host. An IP address or a one-label
    host (``users-service``, a compose or Kubernetes name) is no public name."""
    if not isinstance(service, str) or "." not in service:
        return False
    last = service.rstrip(".").rsplit(".", 1)[-1].lower()
    return last.isalpha() and len(last) >= 2 and last not in _PRIVATE_SUFFIXES


def names_no_service(service: object, services: Mapping[str, str]) -> bool:
    """Whether an HTTP client edge's ``props["service"]`` names no service: absent, or a loopback host
    (:data:`LOOPBACK_HOSTS`) the service map ``services`` does not name."""
    return not isinstance(service, str) or (service in LOOPBACK_HOSTS and service not in services)


def ambiguous_clients(graph: GraphStore, clients: Collection[tuple[str, str]],
                      parent: Mapping[str, str] | None = None) -> dict[str, tuple[str, ...]]:
    """Per HTTP client id of ``clients`` (``(client, endpoint id)`` pairs whose URL names no service;
    with ``parent``, only those whose ``parent[client]`` is that endpoint: the one explaining it in a
    walk), the services exposing that endpoint (EXPOSES ``props["service"]``, else the repository; a
    route of any method, ``endpoint:* /p``, counts for every method), sorted, when more than one does.
    gRPC endpoints (``endpoint:GRPC ...``: an rpc's name is its service's) are never ambiguous. One
    store call, none when no client is left."""
    clients = [(src, dst) for src, dst in clients if (parent is None or parent.get(src) == dst)
               and not dst.startswith("endpoint:GRPC ")]
    if not clients:
        return {}

    variants = endpoint_variants
    exposers = graph.incoming(sorted({v for _, dst in clients for v in variants(dst)}), ["EXPOSES"])
    out: dict[str, tuple[str, ...]] = {}
    for src, dst in sorted(clients):
        names = {str(e.props["service"]) if isinstance(e.props.get("service"), str) else e.repo
                 for v in variants(dst) for e in exposers.get(v, [])}
        if len(names) > 1:
            out[src] = tuple(sorted(names))
    return out


def client_app(e: Edge) -> str | None:
    """The application an HTTP client edge runs against because of where it runs
    (:data:`stores.contracts.EDGE_APP`: a test's in-process client, its own application); ``None`` for
    any other edge."""
    app = e.props.get(EDGE_APP) if e.kind == "CALLS_HTTP" else None
    return app if isinstance(app, str) and app else None


def endpoint_variants(eid: str) -> list[str]:
    """An HTTP endpoint id and that of the route of any method at its path (``endpoint:GET /p`` ->
    ``[endpoint:GET /p, endpoint:* /p]``: a handler of ``* /p`` serves every method's request)."""
    path = eid.split(" ", 1)[1] if " " in eid else ""
    return [eid, _ANY_METHOD + path] if eid.startswith("endpoint:") and not eid.startswith(_ANY_METHOD) else [eid]


def serving_applications(graph: GraphStore, endpoints: Collection[str]) -> dict[str, frozenset[str]]:
    """Per endpoint id of ``endpoints``, the applications whose handlers serve it (EXPOSES
    ``props["service"]`` of it and of its any-method route, :func:`endpoint_variants`); an endpoint no
    named application serves maps to an empty set. One store call; none for no endpoint."""
    if not endpoints:
        return {}
    exposers = graph.incoming(sorted({v for eid in endpoints for v in endpoint_variants(eid)}), ["EXPOSES"])
    return {eid: frozenset(str(e.props["service"]) for v in endpoint_variants(eid) for e in exposers.get(v, [])
                           if isinstance(e.props.get("service"), str))
            for eid in endpoints}


def scoped_out(app: str | None, handlers: Collection[str], served_by: Collection[str]) -> bool | None:
    """Whether a client that runs against the application ``app`` (:func:`client_app`) does not reach the
    handlers of the applications ``handlers`` (the services of the EXPOSES edges at hand) of an endpoint
    the applications ``served_by`` serve (:func:`serving_applications`): ``True`` when its application
    serves the endpoint and is none of ``handlers`` (another application's handler of the same route),
    ``False`` when it is one of them (it reaches them, and no other service is in doubt); ``None`` when
    nothing is known (no ``app``, or its application serves no such route: a library module's
    controller): the client is then taken as one naming no service."""
    if app is None or app not in served_by:
        return None
    return app not in handlers


def named_client_reaches(service: str, services: Mapping[str, str], repo_names: Callable[[], Collection[str]],
                         repos: Collection[str], names: Collection[str]) -> bool:
    """Whether a client whose URL names the service ``service`` (no loopback host the map leaves out:
    :func:`names_no_service` is false) reaches handlers of an endpoint that the repositories ``repos``
    and the applications ``names`` (their EXPOSES ``props["service"]``) expose. One the service map
    ``services`` assigns to a repository, or named like an indexed repository (``repo_names()``, asked
    only then: ``http://svc-a/...``), reaches it when that repository is among ``repos`` or the name among
    ``names``; another when ``names`` holds it, or is empty and it is no public DNS name
    (:func:`public_host`: an outside API never stands for an application that declares no name)."""
    repo = services.get(service)
    if repo is None and service in repo_names():
        repo = service  # a host named like an indexed repository addresses that repository
    if repo is not None:
        return repo in repos or service in names
    return service in names if names else not public_host(service)


def client_reaches(e: Edge, repos: Collection[str], names: Collection[str], served: Collection[str],
                   services: Mapping[str, str], repo_names: Callable[[], Collection[str]]) -> bool:
    """Whether the HTTP client edge ``e`` reaches the handlers of its endpoint that the repositories
    ``repos`` and the applications ``names`` hold, of the applications ``served`` serving it
    (:func:`serving_applications`): by :func:`scoped_out` for a test's in-process client whose application
    serves it; else a client naming no service (:func:`names_no_service`) always, one naming a service by
    :func:`named_client_reaches`. The rule of the impact walk (:mod:`analysis.impact`), for the answers
    that count an endpoint's clients per handler (``callers``' hint, ``endpoints``)."""
    out = scoped_out(client_app(e), names, served)
    if out is not None:
        return not out
    service = e.props.get("service")
    return names_no_service(service, services) or named_client_reaches(str(service), services, repo_names, repos, names)
