"""The endpoint list (route map): which endpoints an application has, who serves each and how many
clients call it. One analysis behind every front end (``ripple endpoints``, the MCP tool
``endpoints``, the REST route ``/endpoints``, :meth:`analysis.agent_queries.AgentQueries.endpoints`).

An endpoint is a shared ``Endpoint`` node (repository ``""``) the framework linker writes
(:mod:`indexer.frameworks.link`, :mod:`indexer.frameworks.grpc`): an HTTP route (``GET /owners/{}``),
a GraphQL operation (``QUERY Query.owner``) or a gRPC method (``GRPC shop.v1.Orders/Get``). Its
*handlers* are the sources of its incoming ``EXPOSES`` edges (the method serving it, with the route
as it was declared and the framework), its *clients* the sources of its incoming ``CALLS_HTTP`` edges,
its *wrappers* the sources of its incoming ``WRAPS`` edges (filters, middleware, guards). An endpoint no
indexed code serves (only called: an external API) is listed only when asked for (``unserved``).

Store calls: four (five) at most, whatever the number of endpoints (:meth:`stores.contracts.GraphStore.labelled`,
one :meth:`~stores.contracts.GraphStore.incoming_summary` for every endpoint: who touches it, from which
repository, with which declared route, what the filters and counts need; one
:meth:`~stores.contracts.GraphStore.incoming` for the endpoints *shown* only, one
:meth:`~stores.contracts.GraphStore.get_nodes` for their handlers and wrappers; and one
:meth:`~stores.contracts.GraphStore.repos` when an endpoint several named applications serve has a client
naming a service: its clients are counted per handler, :class:`Handler`). ``limit`` bounds the
edges read: 100,000 endpoints listed 200 at a time read 200 endpoints' edges, not 100,000's.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Sequence
from dataclasses import dataclass, field
from typing import Any

from analysis.navigation import dotted_name, location_text
from analysis.services import client_reaches
from stores.contracts import GRAPHQL_OPERATIONS, GRPC_METHOD, Edge, GraphStore, Node

__all__ = ["one_line", "Handler", "EndpointEntry", "EndpointList", "endpoint_list", "endpoint_kind", "endpoint_line", "endpoints_text",
           "declared_names",
           "spans_several", "ENDPOINT_EDGES", "SHOWN_HANDLERS", "SHOWN_WRAPPERS"]

ENDPOINT_EDGES = ("EXPOSES", "CALLS_HTTP", "WRAPS")
"""The incoming edge kinds an endpoint's entry is made of."""

SHOWN_HANDLERS = 3
"""Handlers one line of text names (the JSON holds all): one endpoint node stands for a method and
path in every application of the index, and a repository of examples or tests declares ``GET /`` in
dozens of them (Flask's own: 67)."""
SHOWN_WRAPPERS = 5
"""Wrappers one line of text names (the JSON holds all)."""
ERROR_HANDLER = "error_handler"
"""The ``kind`` of a ``WRAPS`` edge from code that runs for an endpoint only when handling it fails."""
_BREAKS = re.compile("[\x00-\x1f\x7f-\x9f\u2028\u2029]")
"""Characters that would end or bend one endpoint's line (C0, DEL, C1, the Unicode line and
paragraph separators): a route is a string the repository wrote (Flask's ``@app.route("/a\\nX")``)."""


def one_line(text: str) -> str:
    """``text`` with each of :data:`_BREAKS` written as ``\\xNN`` / ``\\uNNNN``, so that a route holding a
    line feed cannot start a line of its own in a list (a forged entry or heading in an agent's answer)."""
    return _BREAKS.sub(lambda m: f"\\x{ord(m.group(0)):02x}" if ord(m.group(0)) < 0x100
                       else f"\\u{ord(m.group(0)):04x}", text)


@dataclass(frozen=True, slots=True)
class Handler:
    """A method serving an endpoint: its node ``id``, display ``name`` (:func:`dotted_name`),
    ``repo`` / ``path`` / ``line`` (1-based; where the definition starts), the ``route`` as the code
    declares it (``/owners/{ownerId}``; the endpoint's path when the declaration adds nothing), the
    ``framework`` that linked it (``spring``, ``fastapi``, ``express``, ...; ``""`` unknown); ``service``,
    the application serving it (EXPOSES ``props["service"]``, ``""`` unnamed), and ``clients``, the
    distinct clients of the endpoint that reach this handler (:func:`analysis.services.client_reaches`),
    counted only when the endpoint has clients and its handlers belong to several named applications (else ``None``: every
    client reaches every handler)."""

    id: str
    name: str
    repo: str
    path: str
    line: int
    route: str
    framework: str
    service: str = ""
    clients: int | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{id, name, repo, path, line, route, framework}``, with ``service`` and ``clients``
        when the clients are counted per handler."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "repo": self.repo, "path": self.path,
                               "line": self.line, "route": self.route, "framework": self.framework}
        return out if self.clients is None else {**out, "service": self.service, "clients": self.clients}


@dataclass(frozen=True, slots=True)
class EndpointEntry:
    """One endpoint: its node ``id``, ``kind`` (``http``, ``graphql``, ``grpc``), ``method`` (the HTTP
    method, ``*`` any; the GraphQL operation type; ``GRPC``), ``path`` (normalised, as the node holds
    it), its ``handlers`` (repository, path, line order), ``clients`` (distinct calling methods) and
    ``client_calls`` (call sites), the display names of its ``wrappers`` (what every request to it
    runs through: filters, middleware, guards, hooks) and of its ``on_error`` handlers (wrappers of
    kind :data:`ERROR_HANDLER`, which run only when handling it fails: Flask ``errorhandler``, Spring
    ``@ExceptionHandler``, Express error middleware, FastAPI ``exception_handler``, Django
    ``process_exception``)."""

    id: str
    kind: str
    method: str
    path: str
    handlers: tuple[Handler, ...]
    clients: int
    client_calls: int
    wrappers: tuple[str, ...] = ()
    on_error: tuple[str, ...] = ()

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{id, kind, method, path, handlers: [...], clients, client_calls, wrappers, on_error}``."""
        return {"id": self.id, "kind": self.kind, "method": self.method, "path": self.path,
                "handlers": [h.as_dict() for h in self.handlers], "clients": self.clients,
                "client_calls": self.client_calls, "wrappers": list(self.wrappers), "on_error": list(self.on_error)}


@dataclass(frozen=True, slots=True)
class EndpointList:
    """The answer: the ``endpoints`` shown (path, method, id order), ``total`` matching the filters,
    ``left_out`` of them beyond the limit (``total - len(endpoints)``), and ``unserved``: endpoints
    matching the filters that no indexed code serves (called only), in ``total`` and the list only
    when ``unserved_listed`` (asked for); ``repo`` the repository it is restricted to."""

    endpoints: list[EndpointEntry] = field(default_factory=list)
    total: int = 0
    left_out: int = 0
    unserved: int = 0
    unserved_listed: bool = False
    repo: str | None = None

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{endpoints: [...], total, left_out, unserved, unserved_listed, repo}``."""
        return {"endpoints": [e.as_dict() for e in self.endpoints], "total": self.total,
                "left_out": self.left_out, "unserved": self.unserved, "unserved_listed": self.unserved_listed,
                "repo": self.repo}


def endpoint_kind(method: str) -> str:
    """``grpc`` for :data:`~stores.contracts.GRPC_METHOD`, ``graphql`` for a GraphQL operation type
    (:data:`~stores.contracts.GRAPHQL_OPERATIONS`), else ``http``."""
    if method == GRPC_METHOD:
        return "grpc"
    return "graphql" if method in GRAPHQL_OPERATIONS else "http"


def endpoint_list(graph: GraphStore, repo: str | None = None, match: str | None = None,
                  limit: int | None = None, unserved: bool = False) -> EndpointList:
    """The endpoints of the index (of every repository, or of ``repo``: an endpoint is kept when one
    of its handlers or clients is in it), those whose method and path (``GET /owners/{}``)
    or one of whose declared routes contains ``match`` (case-insensitive) when given, sorted by
    (path, method, id), at most ``limit`` (``None``: all). ``unserved``: also the endpoints that are
    only called. Raises ``ValueError`` for a ``limit`` below 0; store errors propagate."""
    if limit is not None and limit < 0:
        raise ValueError(f"limit must be 0 or more, not {limit!r}")
    nodes = graph.labelled(["Endpoint"])
    if not nodes:
        return EndpointList(unserved_listed=unserved, repo=repo)
    needle = (match or "").strip().lower()
    who = graph.incoming_summary([n.id for n in nodes], ENDPOINT_EDGES, "route" if needle else None)
    kept: list[tuple[Node, bool]] = []  # (endpoint, served)
    for n in nodes:
        ins = who.get(n.id, set())
        if not ins:  # no visible edge: only repositories a view hides (another branch) touch it
            continue
        if repo is not None and not any(r == repo for k, r, _ in ins if k != "WRAPS"):
            continue
        if needle and needle not in n.name.lower() and not any(
                needle in route.lower() for k, _, route in ins if k == "EXPOSES"):
            continue
        kept.append((n, any(k == "EXPOSES" for k, _, _ in ins)))
    chosen = [n for n, served in kept if unserved or served]
    chosen.sort(key=lambda n: (_path(n), _method(n), n.id))
    shown = chosen if limit is None else chosen[:limit]
    edges = graph.incoming([n.id for n in shown], ENDPOINT_EDGES) if shown else {}
    srcs = sorted({e.src for ins in edges.values() for e in ins if e.kind != "CALLS_HTTP"})
    found = graph.get_nodes(srcs) if srcs else {}
    known: list[frozenset[str]] = []

    def repo_names() -> frozenset[str]:  # asked only when a client of a split endpoint names a service
        if not known:
            known.append(frozenset(graph.repos()))
        return known[0]
    entries = [_entry(n, edges.get(n.id, []), found, repo_names) for n in shown]
    served_count = sum(1 for _, served in kept if served)
    return EndpointList(entries, len(chosen), len(chosen) - len(shown), len(kept) - served_count, unserved, repo)


def declared_names(graph: GraphStore, nodes: Sequence[Node]) -> dict[str, str]:
    """``{endpoint id: what answers show for it}`` for the ``Endpoint`` nodes among ``nodes``: its
    method and the route as the handlers' code declares it (``GET /user/<username>``, Flask;
    ``GET /items/{item_id}``, FastAPI; ``GET /users/:id``, Express), read from the ``route`` of its
    incoming ``EXPOSES`` edges in (repository, path, line) order. The node's own name
    (``GET /user/{}``, placeholders unified so that clients match servers) stays its key and is shown
    when no handler declares a route of its own (no parameter, or only called); routes of several
    handlers that differ are all named: ``GET /c/<uuid:code> (also /c/<sha1:key>)``. Other nodes are
    left out. One store call (none without endpoints)."""
    eps = [n for n in nodes if n.label == "Endpoint"]
    if not eps:
        return {}
    ins = graph.incoming([n.id for n in eps], ["EXPOSES"])
    out = {}
    for n in eps:
        routes: list[str] = []
        for e in sorted(ins.get(n.id, ()), key=lambda e: (e.repo, e.file, e.line, e.col, e.src)):
            route = e.props.get("route")
            if isinstance(route, str) and route and route not in routes:
                routes.append(route)
        if not routes:
            out[n.id] = n.name
            continue
        also = f" (also {', '.join(routes[1:])})" if len(routes) > 1 else ""
        out[n.id] = one_line(f"{_method(n)} {routes[0]}{also}")
    return out


def _method(n: Node) -> str:
    return str(n.props.get("http_method") or n.name.partition(" ")[0])


def _path(n: Node) -> str:
    return str(n.props.get("path") or n.name.partition(" ")[2])


def _entry(n: Node, ins: Sequence[Edge], found: dict[str, Node], repo_names: Callable[[], Collection[str]]) -> EndpointEntry:
    method, path = _method(n), _path(n)
    handlers: dict[str, Handler] = {}
    calls = [e for e in ins if e.kind == "CALLS_HTTP"]
    apps = {str(e.props["service"]) for e in ins if e.kind == "EXPOSES" and isinstance(e.props.get("service"), str)}
    for e in ins:
        if e.kind != "EXPOSES" or e.src in handlers:
            continue
        h = found.get(e.src)
        route = str(e.props.get("route") or path)
        framework = str(e.props.get("framework") or "")
        service = str(e.props.get("service") or "")
        names = {service} if service else set()
        clients = len({c.src for c in calls if client_reaches(c, {e.repo}, names, apps, {}, repo_names)}) \
            if len(apps) > 1 and calls else None
        if h is None:  # the serving node is not in the index (a half-written run): the edge's place
            handlers[e.src] = Handler(e.src, e.src, e.repo, e.file, e.line, route, framework, service, clients)
        else:
            handlers[e.src] = Handler(h.id, dotted_name(h), h.repo, h.file, h.start_line, route, framework, service, clients)
    wraps = [e for e in ins if e.kind == "WRAPS"]
    on_error = {e.src for e in wraps if e.props.get("kind") == ERROR_HANDLER}
    # code registered both ways (a Django middleware's process_request and process_exception are two
    # callables, each one kind) would be listed twice: the per-request reading wins
    on_error -= {e.src for e in wraps if e.props.get("kind") != ERROR_HANDLER}

    def names(srcs: set[str]) -> tuple[str, ...]:
        return tuple(sorted({dotted_name(found[s]) if s in found else s for s in srcs}))
    return EndpointEntry(n.id, endpoint_kind(method), method, path,
                         tuple(sorted(handlers.values(), key=lambda h: (h.repo, h.path, h.line, h.id))),
                         len({e.src for e in calls}), len(calls), names({e.src for e in wraps} - on_error), names(on_error))


def endpoint_line(entry: dict[str, Any], several: bool = False) -> str:
    """One endpoint (:meth:`EndpointEntry.as_dict`) as every front end prints it: ``GET
    /owners/{ownerId} -> app.views.show_owner (app/views.py:6, flask) · 2 clients (3 calls)``: the
    route as its first handler declares it, each handler with its place (``repo/path:line`` when the
    list spans ``several`` repositories; ``an inline handler`` for a function written in the route
    call, Express's ``app.get("/x", (req, res) => ...)``, whose node is named by the route), the
    clients, the wrappers every request runs through (the last two parts of each name:
    ``OwnerController.findOwner``), then the error handlers (``on error X``, which run only when the
    request fails; an entry without ``on_error``, from an older answer, has none); ``no
    handler indexed`` for an endpoint that is only called. Control characters and line breaks in the
    route, names and paths are escaped (``\\x0a``): one endpoint is one line."""
    routes = [h["route"] for h in entry["handlers"]]
    head = f"{entry['method']} {routes[0] if routes else entry['path']}"
    served = "; ".join(("an inline handler" if _inline(h, entry["method"]) else h["name"])
                       + f" ({location_text(h['repo'], h['path'], h['line'], None, several)}"
                       + (f", {h['framework']}" if h["framework"] else "") + _reached(h) + ")"
                       for h in entry["handlers"][:SHOWN_HANDLERS]) + _more(entry["handlers"], SHOWN_HANDLERS, "handler")
    text = f"{head} -> {served}" if served else f"{head} (no handler indexed: called only)"
    if entry["clients"]:
        text += (f" · {entry['clients']} client{'s' if entry['clients'] != 1 else ''}"
                 f" ({entry['client_calls']} call{'s' if entry['client_calls'] != 1 else ''})")
    if entry["wrappers"]:  # the last two parts of each name (Class.method, module.function): the JSON has all
        text += _wrapper_part("through", entry["wrappers"], "wrapper")
    on_error = entry.get("on_error") or []
    if on_error:
        text += _wrapper_part("on error", on_error, "error handler")
    return one_line(text)


def _reached(handler: dict[str, Any]) -> str:
    """``, employee-service: 2 clients`` for a handler (:meth:`Handler.as_dict`) whose clients are counted
    apart (an endpoint several applications serve); ``""`` otherwise."""
    n = handler.get("clients")
    if n is None:
        return ""
    return f", {handler.get('service') or 'unnamed application'}: {n} client{'s' if n != 1 else ''}"


def _inline(handler: dict[str, Any], method: str) -> bool:
    """Whether ``handler`` (:meth:`Handler.as_dict`) is a function written in the route call, whose node
    is named by its method and the route as its router declares it: ``GET /articles`` for
    ``router.get("/articles", (req, res) => ...)`` serving ``/api/articles`` under a mounted prefix."""
    verb, _, path = handler["name"].partition(" ")
    return verb == method and path.startswith("/") and handler["route"].endswith(path)


def _wrapper_part(label: str, names: Sequence[str], noun: str) -> str:
    """`` · <label> A.b, C.d and N more <noun>s``: the first :data:`SHOWN_WRAPPERS` of ``names`` by the
    last two parts of each (Class.method, module.function; the JSON has them whole)."""
    return f" · {label} " + ", ".join(".".join(w.split(".")[-2:]) for w in names[:SHOWN_WRAPPERS]) \
        + _more(names, SHOWN_WRAPPERS, noun)


def _more(items: Sequence[Any], shown: int, noun: str) -> str:
    """`` and N more <noun>s`` for the items of a line beyond the ``shown`` first ones ("" when none)."""
    left = len(items) - shown
    return f" and {left} more {noun}{'s' if left != 1 else ''}" if left > 0 else ""


def spans_several(data: dict[str, Any]) -> bool:
    """Whether the handlers of an endpoint list (:meth:`EndpointList.as_dict`) lie in several
    repositories, or in another than the one it is restricted to: then places carry their repository."""
    repos = {h["repo"] for e in data["endpoints"] for h in e["handlers"]}
    return len(repos | ({data["repo"]} if data.get("repo") and repos else set())) > 1


def endpoints_text(data: dict[str, Any]) -> list[str]:
    """The markdown of an endpoint list (:meth:`EndpointList.as_dict`, perhaps fewer endpoints than
    it counts): a heading with the counts, one :func:`endpoint_line` per endpoint."""
    shown = data["endpoints"]
    several = spans_several(data)
    lines = [f"# Endpoints ({len(shown)} of {data['total']})" if len(shown) < data["total"]
             else f"# Endpoints ({data['total']})", ""]
    if not shown:
        lines.append("No endpoints match." if data["total"] or data["unserved"] else "No endpoints are indexed.")
    lines += [f"- {endpoint_line(e, several)}" for e in shown]
    if data["left_out"]:
        lines += ["", f"{data['left_out']} more beyond the limit: raise it, or narrow with repo / match."]
    if data["unserved"] and not data["unserved_listed"]:
        lines += ["", f"{data['unserved']} more endpoint{'s are' if data['unserved'] != 1 else ' is'} only called "
                      "(no handler indexed: an external API, or a route not detected); ask with unserved to list "
                      f"{'them' if data['unserved'] != 1 else 'it'}."]
    return lines
