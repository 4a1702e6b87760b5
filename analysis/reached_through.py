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

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from analysis.navigation import CallGroup, entries_served, incoming_calls_each
from analysis.targets import quoted_target
from stores.contracts import GraphStore, Node

__all__ = ["REACHING_KINDS", "SHOWN_ENTRIES", "ReachedThrough", "incoming_through", "reached_text", "reached_through"]

REACHING_KINDS = ("CALLS_HTTP", "PRODUCES")
"""The edges that reach an endpoint (HTTP, GraphQL and gRPC clients) or a topic (producers)."""
SHOWN_ENTRIES = 3
"""Endpoints or topics a text answer names (the data holds all); the impact report follows them all."""


@dataclass(frozen=True, slots=True)
class ReachedThrough:
    """An endpoint or topic the code serves or consumes: its node ``id``, the ``name`` a ``callers``
    query takes for it (``GRPC hipstershop.CurrencyService/Convert``, ``GET /owners/{}``,
    ``topic:nest:user_get_by_id``), ``kind`` (``endpoint`` | ``topic``), ``whose`` callers reach it
    through it (``clients`` | ``producers``) and ``callers``, how many distinct ones there are."""

    id: str
    name: str
    kind: str
    whose: str
    callers: int

    def as_dict(self) -> dict[str, Any]:
        """JSON-ready: ``{id, name, kind, whose, callers}``."""
        return {"id": self.id, "name": self.name, "kind": self.kind, "whose": self.whose, "callers": self.callers}


def reached_through(graph: GraphStore, targets: Sequence[Node]) -> list[ReachedThrough]:
    """The endpoints and topics the code ``targets`` serve or consume
    (:func:`analysis.navigation.entries_served`), sorted by id, each with its count of distinct clients
    or producers (:meth:`~stores.contracts.GraphStore.incoming_counts`). Two store calls; none when no
    target is code. Store errors propagate."""
    ids = entries_served(graph, targets)
    if not ids:
        return []
    counts = graph.incoming_counts({i: [i] for i in ids}, REACHING_KINDS)
    out = []
    for i in ids:
        topic = i.startswith("topic:")
        out.append(ReachedThrough(i, i.removeprefix("endpoint:"), "topic" if topic else "endpoint",
                                  "producers" if topic else "clients", counts.get(i, 0)))
    return out


def reached_text(entries: Sequence[dict[str, Any]], shown: int = SHOWN_ENTRIES, command: str = "ripple callers") -> list[str]:
    """One line per entry (:meth:`ReachedThrough.as_dict`), at most ``shown``, then how many more:
    ``also reached through NAME (3 clients): ripple callers 'NAME' lists them``, ``... (no client
    indexed)`` when it has none (``command``: how the
    reader asks for an endpoint's callers; an agent's ``callers of``)."""
    lines = []
    for e in entries[:shown]:
        n, whose = e["callers"], e["whose"]
        noun = whose if n != 1 else whose[:-1]
        if n == 0:  # an external client, or one in a repository not indexed
            lines.append(f"also reached through {e['name']} (no {whose[:-1]} indexed)")
            continue
        lines.append(f"also reached through {e['name']} ({n} {noun}): {command} {quoted_target(e['name'])} "
                     f"lists {'them' if n != 1 else 'it'}")
    if len(entries) > shown:
        lines.append(f"and through {len(entries) - shown} more endpoints or topics (ripple impact follows them all)")
    return lines


def incoming_through(graph: GraphStore, node: Node) -> list[tuple[ReachedThrough, CallGroup]]:
    """The callers reaching ``node`` through the endpoints and topics it serves or consumes: for each
    (:func:`reached_through`, in its order) the clients or producers as call groups
    (:func:`analysis.navigation.incoming_calls_each` of the endpoints and topics, in one pass: one per
    calling node, with its call sites). Store errors propagate."""
    entries = reached_through(graph, [node])
    if not entries:
        return []
    found = graph.get_nodes([e.id for e in entries])
    groups = incoming_calls_each(graph, [found[e.id] for e in entries if e.id in found])
    return [(e, g) for e in entries if e.id in found for g in groups[e.id]]
