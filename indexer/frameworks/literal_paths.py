"""Client requests to a literal path that a template of the repository serves.

A client writes a concrete URL (``GET /owners/1`` in an integration test, ``/api/items/latest``);
the server declares a template (``/owners/{ownerId}``, normalised ``/owners/{}``). Endpoint nodes are
shared by id, so the request's own ``endpoint:GET /owners/1`` would never meet the handler's
``endpoint:GET /owners/{}``. After linking, :func:`retarget_literal_clients` points each such
``CALLS_HTTP`` edge at the endpoint the repository EXPOSES whose template matches the literal path
segment by segment (``{}`` matching any one segment), the most specific one (fewest ``{}``) when
several match; a tie between equally specific templates leaves the request where it was (which one
serves it is not known). An endpoint of a framework that matches paths case-insensitively
(:data:`CASE_INSENSITIVE_FRAMEWORKS`: ASP.NET Core) is compared lower-cased, so a client's
``GET /api/Orders`` reaches its ``GET /api/orders`` (with or without holes). The edge keeps the URL
as written (``url``) and gains ``literal: true``.
Only the endpoints exposed in the linked files are candidates (one repository per link run); a
literal request served by another repository keeps its literal endpoint. A template made of holes only
(``/{}/{}``: every path of its depth matches it) serves only the requests written in a file exposing it
(a test building its own application, ``app.get("/:a/:b", h)`` then ``request(app).get("/x/y")``): from
another file it would be a guess among every application of the repository (Express's own tests build
hundreds, one per test).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from typing import TYPE_CHECKING

from stores.contracts import GRAPHQL_OPERATIONS, GRPC_METHOD

if TYPE_CHECKING:
    from stores.contracts import Edge, Node

__all__ = ["CASE_INSENSITIVE_FRAMEWORKS", "retarget_literal_clients"]

CASE_INSENSITIVE_FRAMEWORKS = frozenset({"aspnet"})
"""Route frameworks matching paths case-insensitively (ASP.NET Core routing): a client's
``/api/catalog/catalogBrands`` reaches their ``/api/catalog/catalogbrands``."""

_HOLE = "{}"


def _split(eid: str) -> tuple[str, list[str]] | None:
    """``(method, path segments)`` of an HTTP Endpoint id; ``None`` for GraphQL and gRPC ones."""
    method, _, path = eid.removeprefix("endpoint:").partition(" ")
    if method in GRAPHQL_OPERATIONS or method == GRPC_METHOD or not path.startswith("/"):
        return None
    return method, path.split("/")


def retarget_literal_clients(nodes: dict[str, list[Node]], edges: dict[str, list[Edge]]) -> int:
    """Retarget, in place, the ``CALLS_HTTP`` edges of ``edges`` (per file path) whose literal
    endpoint nobody exposes to the exposed template endpoint that serves it (module docstring), and
    drop from ``nodes`` the Endpoint nodes no edge of their file points to any more. Returns how many
    edges moved. Linear in the edges times the templates of the same method and depth."""
    exposed = {e.dst for file_edges in edges.values() for e in file_edges if e.kind == "EXPOSES"}
    exposed_in: dict[str, set[str]] = defaultdict(set)  # an all-hole template: the files exposing it
    for path, file_edges in edges.items():
        for e in file_edges:
            if e.kind == "EXPOSES" and e.dst.endswith(_HOLE) and set(e.dst.split(" ", 1)[-1].split("/")) <= {"", _HOLE}:
                exposed_in[e.dst].add(path)
    folded = {e.dst for file_edges in edges.values() for e in file_edges
              if e.kind == "EXPOSES" and e.props.get("framework") in CASE_INSENSITIVE_FRAMEWORKS}
    templates: dict[tuple[str, int], list[tuple[list[str], str, bool]]] = defaultdict(list)
    for eid in sorted(exposed):
        split = _split(eid)
        if split is not None and (_HOLE in split[1] or eid in folded):
            fold = eid in folded
            templates[(split[0], len(split[1]))].append(([t.lower() for t in split[1]] if fold else split[1], eid,
                                                         fold))
    if not templates:
        return 0
    moved = 0
    for path, file_edges in edges.items():
        changed = False
        for i, e in enumerate(file_edges):
            if e.kind != "CALLS_HTTP" or e.dst in exposed:
                continue
            split = _split(e.dst)
            if split is None:
                continue
            method, segments = split
            lowered = [s.lower() for s in segments]
            found = [(sum(t == _HOLE for t in tsegs), eid)
                     for tsegs, eid, fold in templates.get((method, len(segments)), ())
                     if all(t == s or t == _HOLE for t, s in zip(tsegs, lowered if fold else segments))
                     and (eid not in exposed_in or path in exposed_in[eid])]
            if not found:
                continue
            found.sort()
            if len(found) > 1 and found[0][0] == found[1][0]:
                continue  # equally specific templates: which one serves it is not known
            file_edges[i] = dataclasses.replace(e, dst=found[0][1], props={**e.props, "literal": True})
            moved += 1
            changed = True
        if changed:
            used = {e.dst for e in file_edges} | {e.src for e in file_edges}
            nodes[path] = [n for n in nodes.get(path, ()) if n.label != "Endpoint" or n.id in used]
    return moved
