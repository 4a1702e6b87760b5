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
as written (``url``) and gains ``literal: true`` (when its path was not the template's own).
Only the endpoints exposed in the linked files are candidates (one repository per link run); a
literal request served by another repository keeps its literal endpoint. A template made of holes only
(``/{}/{}``: every path of its depth matches it) serves only the requests written in a file exposing it
(a test building its own application, ``app.get("/:a/:b", h)`` then ``request(app).get("/x/y")``): from
another file it would be a guess among every application of the repository (Express's own tests build
hundreds, one per test).

A route accepting any method (``endpoint:* /shop/items/{}``: a Django function view without a method
decorator, a Spring ``@RequestMapping`` without ``method``) serves a client's request of any method whose
path it matches, when no endpoint of the request's own method serves that path: ``POST /shop/items/1``
reaches ``* /shop/items/{}``, and ``POST /shop/items`` (no hole) reaches ``* /shop/items``, instead of
leaving an Endpoint node nobody exposes. The moved edge keeps the request's method as its ``method``
prop. A route of explicit methods never takes a request of another method (``POST /shop/get/1`` stays
where it was when only ``GET /shop/get/{}`` is exposed).

A ``HEAD`` request no endpoint of its own method or ``*`` serves reaches the ``GET`` endpoint of the same path (else
the most specific ``GET`` template) whose EXPOSES edge says ``head: true``: a Django class-based view answering
``HEAD`` with its ``get`` (:meth:`indexer.frameworks.route_links.RouteLinks._answers_head`); the edge keeps ``method``
``HEAD``. Any other ``GET`` route takes no ``HEAD`` request (a view defining ``head = None`` or its own
``http_method_names``, a Flask route: Flask's automatic ``HEAD`` is not listed).
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
_ANY = "*"


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
    edges moved. Linear in the edges times the templates of the same method and depth (and of method ``*``
    for a request no template of its own method serves)."""
    exposed = {e.dst for file_edges in edges.values() for e in file_edges if e.kind == "EXPOSES"}
    exposed_in: dict[str, set[str]] = defaultdict(set)  # an all-hole template: the files exposing it
    for path, file_edges in edges.items():
        for e in file_edges:
            if e.kind == "EXPOSES" and e.dst.endswith(_HOLE) and set(e.dst.split(" ", 1)[-1].split("/")) <= {"", _HOLE}:
                exposed_in[e.dst].add(path)
    head_by_get = {e.dst for file_edges in edges.values() for e in file_edges
                   if e.kind == "EXPOSES" and e.props.get("head")}  # GET endpoints answering HEAD (route_links)
    folded = {e.dst for file_edges in edges.values() for e in file_edges
              if e.kind == "EXPOSES" and e.props.get("framework") in CASE_INSENSITIVE_FRAMEWORKS}
    templates: dict[tuple[str, int], list[tuple[list[str], str, bool]]] = defaultdict(list)
    for eid in sorted(exposed):
        split = _split(eid)
        if split is not None and (_HOLE in split[1] or eid in folded):
            fold = eid in folded
            templates[(split[0], len(split[1]))].append(([t.lower() for t in split[1]] if fold else split[1], eid,
                                                         fold))
    if not templates and not head_by_get and not any(eid.startswith(f"endpoint:{_ANY} ") for eid in exposed):
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
            found = _matches(templates.get((method, len(segments)), ()), segments, lowered, path, exposed_in)
            if not found and method != _ANY:  # no route of its own method: one accepting any method, its own path first
                same = f"endpoint:{_ANY} {e.dst.partition(' ')[2]}"
                found = [(0, same)] if same in exposed else _matches(templates.get((_ANY, len(segments)), ()),
                                                                       segments, lowered, path, exposed_in)
            if not found and method == "HEAD" and head_by_get:  # a Django class view answering HEAD with its get
                same = f"endpoint:GET {e.dst.partition(' ')[2]}"
                found = [(0, same)] if same in head_by_get else [
                    m for m in _matches(templates.get(("GET", len(segments)), ()), segments, lowered, path, exposed_in)
                    if m[1] in head_by_get]
            if not found:
                continue
            found.sort()
            if len(found) > 1 and found[0][0] == found[1][0]:
                continue  # equally specific templates: which one serves it is not known
            same_path = e.dst.partition(" ")[2] == found[0][1].partition(" ")[2]  # only the method differed
            props = dict(e.props) if same_path else {**e.props, "literal": True}
            if (found[0][1].startswith(f"endpoint:{_ANY} ") and method != _ANY) or method == "HEAD":
                props["method"] = method  # the request's own method, which the any-method endpoint no longer says
            file_edges[i] = dataclasses.replace(e, dst=found[0][1], props=props)
            moved += 1
            changed = True
        if changed:
            used = {e.dst for e in file_edges} | {e.src for e in file_edges}
            nodes[path] = [n for n in nodes.get(path, ()) if n.label != "Endpoint" or n.id in used]
    return moved


def _matches(candidates: list[tuple[list[str], str, bool]], segments: list[str], lowered: list[str], path: str,
             exposed_in: dict[str, set[str]]) -> list[tuple[int, str]]:
    """``(holes, endpoint id)`` of each candidate template matching ``segments`` (``lowered`` for a
    case-insensitive one) that a request written in ``path`` may reach (an all-hole template: only from
    a file exposing it)."""
    return [(sum(t == _HOLE for t in tsegs), eid) for tsegs, eid, fold in candidates
            if all(t == s or t == _HOLE for t, s in zip(tsegs, lowered if fold else segments))
            and (eid not in exposed_in or path in exposed_in[eid])]
