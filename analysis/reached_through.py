"""The endpoints and topics other services reach code through: a handler's callers are its clients.

A gRPC servicer method, an HTTP handler, a message handler has no call site in its own repository
(the framework calls it), so its direct callers are often none; what calls it is every client of the
endpoint it serves (``EXPOSES``) and every producer of the topic it consumes (``CONSUMES``).
:func:`reached_through` names those endpoints and topics with how many distinct clients or producers
each has, for every front end's ``callers`` (``ripple callers``' hint lines, the MCP tool's and
``POST /v1/callers``' ``reached_through`` field, the agents' text) and :func:`incoming_through` gives
those clients as call groups for the LSP's incoming calls. The front ends only render.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from analysis.navigation import CallGroup, incoming_calls_each
from analysis.services import client_app, client_reaches, serving_applications
from analysis.targets import quoted_target
from stores.contracts import Edge, GraphStore, Node

__all__ = ["REACHING_KINDS", "SHOWN_ENTRIES", "ReachedThrough", "incoming_through", "reached_text", "reached_through", "reaching_sources"]

REACHING_KINDS = ("CALLS_HTTP", "PRODUCES")
"""The edges that reach an endpoint (HTTP, GraphQL and gRPC clients) or a topic (producers)."""
SHOWN_ENTRIES = 3
"""Endpoints or topics a text answer names (the data holds all); the impact report follows them all."""


@dataclass(frozen=True, slots=True)
class ReachedThrough:
    """An endpoint or topic the code serves or consumes: its node ``id``, the ``name`` a ``callers``
    query takes for it (``GRPC hipstershop.CurrencyService/Convert``, ``GET /owners/{}``,
    ``topic:nest:user_get_by_id``), ``kind`` (``endpoint`` | ``topic``), ``whose`` callers reach it
    through it (``clients`` | ``producers``) and ``callers``, how many distinct ones there are;
    ``others``: how many other clients of the endpoint reach another application's handler of it, not
    this code (:func:`reaching_sources`)."""

    id: str
    name: str
    kind: str
    whose: str
    callers: int
    others: int = 0

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{id, name, kind, whose, callers}``, and ``others`` when there are any."""
        out: dict[str, Any] = {"id": self.id, "name": self.name, "kind": self.kind, "whose": self.whose,
                               "callers": self.callers}
        return {**out, "others": self.others} if self.others else out


def reached_through(graph: GraphStore, targets: Sequence[Node], services: Mapping[str, str] | None = None) -> list[ReachedThrough]:
    """The endpoints and topics the code ``targets`` serve or consume
    (:func:`analysis.navigation.entries_served`), sorted by id, each with its count of distinct clients
    or producers that reach the targets through it (:func:`reaching_sources`). Two store calls, three
    when a client runs against an application it names (a test's in-process request), one more when a
    client names a service the map ``services`` does not; none when no target is code. Store errors
    propagate."""
    return _entries(_sources(graph, targets, services))


def _entries(sources: Mapping[str, tuple[set[str], set[str]]]) -> list[ReachedThrough]:
    """The :class:`ReachedThrough` of each endpoint or topic of ``sources`` (id -> the callers reaching
    the code through it, and every caller of it), by id."""
    out = []
    for i in sorted(sources):
        topic = i.startswith("topic:")
        reach, every = sources[i]
        out.append(ReachedThrough(i, i.removeprefix("endpoint:"), "topic" if topic else "endpoint",
                                  "producers" if topic else "clients", len(reach), len(every - reach)))
    return out


def reaching_sources(graph: GraphStore, targets: Sequence[Node], services: Mapping[str, str] | None = None) -> dict[str, set[str]]:
    """Per endpoint or topic the code ``targets`` serve (EXPOSES) or consume (CONSUMES), the ids of the
    clients or producers that reach them through it: every producer; of an endpoint's clients, those the
    impact walk follows to the targets' handlers (:mod:`analysis.impact`): a test's in-process client of
    an endpoint its own application serves only when a target is that application's handler
    (:func:`analysis.services.scoped_out`), one naming a service only when the targets' applications
    (EXPOSES ``props["service"]``) or repositories are that service's
    (:func:`analysis.services.named_client_reaches`, with the service map ``services``), one naming none
    always. So a handler of one of two applications serving ``GET /health`` is not reached by the other's
    clients. Store calls as :func:`reached_through`."""
    return {i: reach for i, (reach, _) in _sources(graph, targets, services).items()}


def _sources(graph: GraphStore, targets: Sequence[Node], services: Mapping[str, str] | None) -> dict[str, tuple[set[str], set[str]]]:
    """Per endpoint or topic the code ``targets`` serve or consume, the callers reaching them through it
    (:func:`reaching_sources`) and all its callers."""
    code = [t.id for t in targets if t.label not in ("Endpoint", "Topic")]
    if not code:
        return {}
    served = [e for es in graph.outgoing(code, ["EXPOSES", "CONSUMES"]).values() for e in es
              if e.kind in ("EXPOSES", "CONSUMES")]
    if not served:
        return {}
    names: dict[str, set[str]] = {}
    repos: dict[str, set[str]] = {}
    for e in served:
        repos.setdefault(e.dst, set()).add(e.repo)
        names.setdefault(e.dst, set())
        if e.kind == "EXPOSES" and isinstance(e.props.get("service"), str):
            names[e.dst].add(str(e.props["service"]))
    incoming = graph.incoming(sorted(names), REACHING_KINDS)
    # the targets' own applications serve their endpoints: asked only for a request naming another one
    apps = serving_applications(graph, [i for i in names if any(client_app(e) not in (None, *names[i])
                                                                 for e in incoming.get(i, ()))])
    services = services or {}
    known: list[frozenset[str]] = []

    def repo_names() -> frozenset[str]:
        if not known:
            known.append(frozenset(graph.repos()))
        return known[0]

    def reaches(e: Edge) -> bool:
        return e.kind != "CALLS_HTTP" or client_reaches(e, repos[e.dst], names[e.dst], names[e.dst] | apps.get(e.dst, set()),
                                                        services, repo_names)

    return {i: ({e.src for e in incoming.get(i, []) if reaches(e)}, {e.src for e in incoming.get(i, [])}) for i in names}


def reached_text(entries: Sequence[dict[str, Any]], shown: int = SHOWN_ENTRIES, command: str = "ripple callers") -> list[str]:
    """One line per entry (:meth:`ReachedThrough.as_dict`), at most ``shown``, then how many more:
    ``also reached through NAME (3 clients): ripple callers 'NAME' lists them``, ``... (no client
    indexed)`` when it has none, ``(1 client; 2 more reach another application's handler): ... lists all 3``
    when other clients of the endpoint request another application (``command``: how the
    reader asks for an endpoint's callers; an agent's ``callers of``)."""
    lines = []
    for e in entries[:shown]:
        n, whose, others = e["callers"], e["whose"], e.get("others", 0)
        noun = whose if n != 1 else whose[:-1]
        besides = f"; {others} more {'reach' if others != 1 else 'reaches'} another application's handler" if others else ""
        if n == 0:  # an external client, or one in a repository not indexed
            lines.append(f"also reached through {e['name']} (no {whose[:-1]} indexed{besides})")
            continue
        listed = ("them" if n != 1 else "it") if not others else f"all {n + others}"
        lines.append(f"also reached through {e['name']} ({n} {noun}{besides}): {command} {quoted_target(e['name'])} "
                     f"lists {listed}")
    if len(entries) > shown:
        lines.append(f"and through {len(entries) - shown} more endpoints or topics (ripple impact follows them all)")
    return lines


def incoming_through(graph: GraphStore, node: Node) -> list[tuple[ReachedThrough, CallGroup]]:
    """The callers reaching ``node`` through the endpoints and topics it serves or consume: for each
    (:func:`reached_through`, in its order) the clients or producers that reach it
    (:func:`reaching_sources`) as call groups (:func:`analysis.navigation.incoming_calls_each` of the
    endpoints and topics, in one pass: one per calling node, with its call sites). Store errors
    propagate."""
    sources = _sources(graph, [node], None)
    entries = _entries(sources)
    if not entries:
        return []
    found = graph.get_nodes([e.id for e in entries])
    groups = incoming_calls_each(graph, [found[e.id] for e in entries if e.id in found])
    return [(e, g) for e in entries if e.id in found for g in groups[e.id] if g.node.id in sources[e.id][0]]
