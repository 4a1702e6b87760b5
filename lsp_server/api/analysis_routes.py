"""The analysis routes of ``ripple api``: ``POST /v1/symbol``, ``/v1/callers``, ``/v1/references``,
``/v1/impact``, and the per-repository counts and graph context the other routes show.

LOCAL ADAPTER (until the shared analysis facade lands on branch ``mcp``; see
/work/wt/FACADE-REQUESTS.md): these call :mod:`analysis.navigation` and :mod:`analysis.impact` the
way ``ripple callers|references|impact`` do; they move to the facade's calls when it is merged.
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from fastapi import FastAPI

from analysis.impact import NodesQuery, PositionQuery, SymbolQuery, blast_radius, query_nodes, target_query
from analysis.impact_report import render_markdown, report_json
from analysis.navigation import Reference, callers, dotted_name, lookup, references
from lsp_server.api.guard import ApiProblem
from lsp_server.api.models import (CallersRequest, ImpactRequest, ImpactResponse, Location, ReferencesRequest,
                                   ReferencesResponse, Step, SymbolDetail, SymbolInfo, SymbolResponse, TargetRequest)
from stores.contracts import GraphStore, Node
from stores.factory import Stores

if TYPE_CHECKING:
    from lsp_server.api.app import Service

__all__ = ["install", "graph_context", "repository_counts", "MAX_NAMES"]

MAX_NAMES = 10
"""Caller and callee names listed per search hit (the counts are exact)."""


def repository_counts(stores: Stores, repo: str, with_counts: bool) -> dict[str, Any]:
    """``{files, filesByLanguage}`` of ``repo`` and, ``with_counts``, its ``nodes`` by label.
    LOCAL ADAPTER: nodes are read file by file (the contracts count the whole store only)."""
    from indexer.languages import extractor_for_path

    paths = sorted(stores.graph.file_checksums(repo))
    languages: Counter[str] = Counter()
    for p in paths:
        extractor = extractor_for_path(p)
        languages[extractor.language if extractor is not None else "other"] += 1
    out: dict[str, Any] = {"files": len(paths), "files_by_language": dict(sorted(languages.items()))}
    if with_counts:
        labels: Counter[str] = Counter()
        for p in paths:
            labels.update(n.label for n in stores.graph.nodes_in_file(repo, p))
        out["nodes"] = dict(sorted(labels.items()))
    return out


def graph_context(graph: GraphStore, ids: Sequence[str]) -> dict[str, dict[str, Any]]:
    """Per node id: direct callers and callees (distinct nodes, counted, the first :data:`MAX_NAMES`
    named) and the endpoints it exposes; three batched store calls whatever the number of ids."""
    incoming = graph.incoming(list(ids), ["CALLS"])
    outgoing = graph.outgoing(list(ids), ["CALLS", "EXPOSES"])
    wanted = {e.src for es in incoming.values() for e in es} | {e.dst for es in outgoing.values() for e in es}
    nodes = graph.get_nodes(sorted(wanted))

    def names(node_ids: list[str]) -> list[str]:
        return [dotted_name(nodes[i]) if i in nodes else i for i in node_ids[:MAX_NAMES]]

    out = {}
    for i in ids:
        src = list(dict.fromkeys(e.src for e in incoming.get(i, [])))
        calls = list(dict.fromkeys(e.dst for e in outgoing.get(i, []) if e.kind == "CALLS"))
        endpoints = [nodes[e.dst].name if e.dst in nodes else e.dst for e in outgoing.get(i, []) if e.kind == "EXPOSES"]
        out[i] = {"callers": len(src), "callees": len(calls), "caller_names": names(src),
                  "callee_names": names(calls), "endpoints": endpoints}
    return out


def _targets(graph: GraphStore, body: TargetRequest) -> list[Node]:
    """The definitions ``body.target`` names; 422 for a malformed ``PATH:LINE``, 404 for nothing."""
    try:
        query = target_query(graph, body.target)
    except ValueError as exc:
        raise ApiProblem(422, "bad-target", str(exc), "Invalid target") from exc
    if isinstance(query, PositionQuery):
        found = query_nodes(graph, query)
    else:
        found, _ = lookup(graph, body.target, body.repo)
    if not found:
        where = f" in repository {body.repo!r}" if body.repo else ""
        raise ApiProblem(404, "unknown-symbol", f"no symbol matches {body.target!r}{where}; try a qualified name such "
                         "as Class.method or package.module.function, a node id, or PATH:LINE", "Unknown symbol")
    return found


def _info(n: Node) -> SymbolInfo:
    return SymbolInfo(id=n.id, name=dotted_name(n), label=n.label, repo=n.repo, path=n.file, start_line=n.start_line,
                      end_line=n.end_line, signature=n.props.get("signature") if n.props else None)


def _location(r: Reference) -> Location:
    return Location(target=r.target, kind=r.kind, repo=r.repo, path=r.file, line=r.line, column=r.col + 1,
                    **{"from": r.source.id}, from_name=dotted_name(r.source), resolution=r.resolution)


class _Steps:
    """The steps of one answer and their times."""

    def __init__(self) -> None:
        self.steps: list[Step] = []
        self.last = time.perf_counter()

    def lap(self, name: str, detail: str | None = None) -> None:
        now = time.perf_counter()
        self.steps.append(Step(name=name, ms=round(1000 * (now - self.last), 3), detail=detail))
        self.last = now


def install(app: FastAPI, service: Service) -> None:
    """Add the analysis routes to ``app``."""
    not_found = {404: {"description": "No symbol matches the target."}}

    @app.post("/v1/symbol", response_model=SymbolResponse, tags=["analysis"], responses=not_found)
    def symbol(body: TargetRequest) -> SymbolResponse:
        """The definitions ``target`` names: location, signature, source, direct callers and callees."""
        steps = _Steps()
        graph = service.stores.graph
        found = _targets(graph, body)
        steps.lap("resolve target", f"{len(found)} definitions")
        context = graph_context(graph, [n.id for n in found])
        chunks = service.stores.search.get_chunks([n.id for n in found])
        steps.lap("callers, callees, source")
        return SymbolResponse(symbols=[SymbolDetail(**_info(n).model_dump(), **context[n.id],
                                                    source=chunks[n.id].text if n.id in chunks else None)
                                       for n in found], steps=steps.steps)

    @app.post("/v1/callers", response_model=ReferencesResponse, tags=["analysis"], responses=not_found)
    def callers_route(body: CallersRequest) -> ReferencesResponse:
        """Direct callers of ``target``: every call site, with how it was bound."""
        steps = _Steps()
        found = _targets(service.stores.graph, body)
        steps.lap("resolve target", f"{len(found)} definitions")
        refs = callers(service.stores.graph, found, body.resolutions)
        steps.lap("callers", f"{len(refs)} call sites")
        return ReferencesResponse(targets=[_info(n) for n in found], references=[_location(r) for r in refs],
                                  steps=steps.steps)

    @app.post("/v1/references", response_model=ReferencesResponse, tags=["analysis"], responses=not_found)
    def references_route(body: ReferencesRequest) -> ReferencesResponse:
        """Every reference to ``target``: call sites, type uses, injections, subclasses, overrides."""
        steps = _Steps()
        found = _targets(service.stores.graph, body)
        steps.lap("resolve target", f"{len(found)} definitions")
        refs = references(service.stores.graph, found, body.include_declaration)
        steps.lap("references", f"{len(refs)} references")
        return ReferencesResponse(targets=[_info(n) for n in found], references=[_location(r) for r in refs],
                                  steps=steps.steps)

    @app.post("/v1/impact", response_model=ImpactResponse, tags=["analysis"], responses=not_found)
    def impact(body: ImpactRequest) -> ImpactResponse:
        """The blast radius of ``target``: callers, endpoints and topics reached across services."""
        steps = _Steps()
        graph = service.stores.graph
        found = _targets(graph, body)
        query: SymbolQuery | NodesQuery = NodesQuery(tuple(found))
        steps.lap("resolve target", f"{len(found)} definitions")
        report = blast_radius(graph, query, depth=body.depth, services=dict(service.settings.config.http_services),
                              tests=body.tests)
        steps.lap("blast radius")
        return ImpactResponse(markdown=render_markdown(report), report=report_json(report), steps=steps.steps)
