"""The analysis routes of ``ripple api``: search, similar code, symbol, callers, references, impact, the
endpoint list and the repository list, each one call of the shared agent facade (:class:`analysis.agent_queries.AgentQueries`,
which ``ripple mcp`` calls too) whose answer (``Answer.as_dict()``) becomes the route's pydantic model.

The facade raises :class:`analysis.agent_queries.TargetError` for a target that names nothing or
several symbols (a 404 or 409 problem listing ``candidates``), :class:`ValueError` for a bad argument (422)
and :class:`stores.errors.StoreError` when a store fails (503, by :mod:`lsp_server.api.guard`).
"""

from __future__ import annotations

import time
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

from fastapi import FastAPI, Path as PathParam, Query

from analysis.agent_queries import MAX_OFFSET, Answer, TargetError
from lsp_server.api.guard import ApiProblem
from analysis.ensemble import model_ranks
from lsp_server.api.models import (MAX_LIMIT, MAX_MAX_TOKENS, MIN_MAX_TOKENS, CallersRequest, query_count, CallersResponse,
                                   EndpointsResponse, UnlinkedResponse, ImpactRequest, ImpactResponse, ReferencesRequest, ReferencesResponse, SearchRequest,
                                   SearchResponse, SimilarResponse, SymbolResponse, TargetRequest)
from stores.factory import Stores

if TYPE_CHECKING:
    from lsp_server.api.app import Service

__all__ = ["install", "answer", "repository_counts", "target_problem"]


def target_problem(exc: TargetError) -> ApiProblem:
    """A :class:`TargetError` as a problem: 409 ``ambiguous-symbol`` when the target names several
    symbols (the request is fine, the index holds more than one answer), else 404 ``unknown-symbol``;
    its candidates go in the problem's ``candidates`` member."""
    if exc.ambiguous:
        problem = ApiProblem(409, "ambiguous-symbol", str(exc), "Ambiguous symbol")
    else:
        problem = ApiProblem(404, "unknown-symbol", str(exc), "Unknown symbol")
    problem.extra = {"candidates": exc.candidates}
    return problem


def answer(service: Service, call: Callable[[Any], Answer]) -> dict[str, Any]:
    """Run ``call(queries)`` on the facade (one query at a time: the query embedder is not thread-safe)
    and return the answer's result with its ``truncated``, ``steps`` and ``freshness``. Facade errors
    become problems: raises :class:`ApiProblem` 404 ``unknown-symbol`` / 409 ``ambiguous-symbol`` for a
    :class:`~analysis.agent_queries.TargetError` (:func:`target_problem`), 422 ``invalid-request`` for
    another ``ValueError``; store errors pass through."""
    try:
        with service.query_lock:
            queries = service.queries()
            done = queries.annotate(call(queries))
    except TargetError as exc:
        raise target_problem(exc) from exc
    except ValueError as exc:
        raise ApiProblem(422, "invalid-request", str(exc)) from exc
    data = done.as_dict()
    return {**data["result"], "truncated": data["truncated"], "steps": data["steps"], "freshness": data["freshness"]}


def repository_counts(stores: Stores, repo: str) -> dict[str, Any]:
    """``{files_by_language, nodes}`` of ``repo``: files by the language the registry gives their suffix,
    nodes by label (read file by file: the store contracts count the whole store only)."""
    from indexer.languages import extractor_for_path

    paths = sorted(stores.graph.file_checksums(repo))
    languages: Counter[str] = Counter()
    labels: Counter[str] = Counter()
    for p in paths:
        extractor = extractor_for_path(p)
        languages[extractor.language if extractor is not None else "other"] += 1
        labels.update(n.label for n in stores.graph.nodes_in_file(repo, p))
    return {"files_by_language": dict(sorted(languages.items())), "nodes": dict(sorted(labels.items()))}


def install(app: FastAPI, service: Service) -> None:
    """Add the analysis routes to ``app``."""
    not_found = {404: {"description": "The target names no symbol (the problem lists the closest names)."},
                 409: {"description": "The target names several symbols (the problem lists them)."}}

    @app.post("/v1/search", response_model=SearchResponse, tags=["search"])
    def search(body: SearchRequest) -> SearchResponse:
        """Hybrid search (BM25 + semantic kNN + exact names, fused by RRF), each hit with its source and
        graph context (callers, callees, endpoints)."""
        start = time.perf_counter()
        data = answer(service, lambda q: q.search(body.query, repo=body.repo, product=body.product,
                                                  language=body.language, kind=body.kind, limit=body.limit,
                                                  max_tokens=body.max_tokens, tests=body.tests))
        return SearchResponse.model_validate({**data, "hits": _ranked(data["hits"]),
                                              "search_time_ms": _ms(start)})

    @app.get("/v1/search/similar/{chunk_id:path}", response_model=SimilarResponse, tags=["search"],
             responses={404: {"description": "No chunk of that id."}})
    def similar(chunk_id: Annotated[str, PathParam(max_length=4096)],
                limit: Annotated[query_count(1, MAX_LIMIT), Query()] = 10,
                max_tokens: Annotated[query_count(MIN_MAX_TOKENS, MAX_MAX_TOKENS) | None, Query(alias="maxTokens")] = None) -> SimilarResponse:
        """Code like the chunk ``chunk_id`` (a search hit's ``chunkId``): its nearest chunks by
        embedding, the chunk itself excluded, with source and graph context."""
        start = time.perf_counter()
        if not service.stores.search.get_chunks([chunk_id]):
            raise ApiProblem(404, "unknown-chunk", f"no chunk {chunk_id!r}; chunk ids are the `chunkId` of search "
                             "hits", "Unknown chunk")
        data = answer(service, lambda q: q.similar(chunk_id=chunk_id, limit=limit, max_tokens=max_tokens))
        return SimilarResponse.model_validate({**data, "hits": _ranked(data["hits"]), "search_time_ms": _ms(start)})

    @app.post("/v1/symbol", response_model=SymbolResponse, tags=["analysis"], responses=not_found)
    def symbol(body: TargetRequest) -> SymbolResponse:
        """The definition ``target`` names (each overload): signature, location, source, direct callers
        and callees, the endpoints it serves."""
        return SymbolResponse.model_validate(answer(service, lambda q: q.symbol(body.target, body.max_tokens, body.repo)))

    @app.post("/v1/callers", response_model=CallersResponse, tags=["analysis"], responses=not_found)
    def callers(body: CallersRequest) -> CallersResponse:
        """Direct call sites of ``target``, each with the calling symbol and how the call was bound."""
        return CallersResponse.model_validate(
            answer(service, lambda q: q.callers(body.target, body.resolutions, body.max_tokens, body.repo)))

    @app.post("/v1/references", response_model=ReferencesResponse, tags=["analysis"], responses=not_found)
    def references(body: ReferencesRequest) -> ReferencesResponse:
        """Every reference to ``target``: call sites, type uses, injections, subclasses, overrides."""
        return ReferencesResponse.model_validate(
            answer(service, lambda q: q.references(body.target, body.include_declaration, body.max_tokens,
                                               body.repo)))

    @app.get("/v1/endpoints", response_model=EndpointsResponse, tags=["analysis"])
    def endpoints(repo: Annotated[str | None, Query(max_length=200)] = None,
                  match: Annotated[str | None, Query(max_length=500)] = None,
                  limit: Annotated[query_count(1, MAX_LIMIT), Query()] = MAX_LIMIT, unserved: bool = False,
                  max_tokens: Annotated[query_count(MIN_MAX_TOKENS, MAX_MAX_TOKENS) | None, Query(alias="maxTokens")] = None) -> EndpointsResponse:
        """The endpoints the code serves (route map), by path: each with its handlers (PATH:LINE, the
        route as declared, the framework), its clients and wrappers; ``repo``: only those served or
        called by that repository; ``match``: only those whose method and path or declared route
        contain the text; ``unserved``: also those only called."""
        return EndpointsResponse.model_validate(
            answer(service, lambda q: q.endpoints(repo, match, limit, max_tokens, unserved)))

    @app.get("/v1/unlinked", response_model=UnlinkedResponse, tags=["analysis"])
    def unlinked(repo: Annotated[str | None, Query(max_length=200)] = None,
                 product: Annotated[str | None, Query(max_length=200)] = None,
                 reason: Annotated[str | None, Query(max_length=100)] = None,
                 limit: Annotated[query_count(1, MAX_LIMIT), Query()] = MAX_LIMIT,
                 offset: Annotated[query_count(0, MAX_OFFSET), Query()] = 0,
                 max_tokens: Annotated[query_count(MIN_MAX_TOKENS, MAX_MAX_TOKENS) | None, Query(alias="maxTokens")] = None) -> UnlinkedResponse:
        """The client calls not linked to an endpoint or topic, by place: each with the call as far as it
        is known, the reason and the nearest candidates; ``repo`` / ``product`` / ``reason`` narrow it;
        ``offset`` skips that many of the stable order first (the next page: ``offset + limit``)."""
        return UnlinkedResponse.model_validate(
            answer(service, lambda q: q.unlinked(repo, product, reason, limit, max_tokens, offset)))

    @app.post("/v1/impact", response_model=ImpactResponse, tags=["analysis"], responses=not_found)
    def impact(body: ImpactRequest) -> ImpactResponse:
        """The blast radius of changing ``target``: callers hop by hop, the endpoints, topics, entry
        points and services they reach, as markdown and as data."""
        with service.query_lock:
            try:
                queries = service.queries()
                done = queries.annotate(queries.impact(body.target, body.depth, body.tests, body.max_tokens,
                                                       body.repo))
            except TargetError as exc:
                raise target_problem(exc) from exc
            except ValueError as exc:
                raise ApiProblem(422, "invalid-request", str(exc)) from exc
        data = done.as_dict()
        return ImpactResponse.model_validate({"markdown": done.text, "report": data["result"]["report"],
                                              "truncated": data["truncated"], "steps": data["steps"],
                                              "freshness": data["freshness"]})


def _ranked(hits: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """Hits with their fused rank among the ranks (``rrf``, the hit's 1-based place in the answer) and an
    ensemble's per-model ranks under ``models`` (``knn:mpnet`` -> ``models.mpnet``)."""
    return [{**h, "ranks": {**h["ranks"], "rrf": h["rank"], "models": model_ranks(h["ranks"])}} for h in hits]


def _ms(start: float) -> float:
    return round(1000 * (time.perf_counter() - start), 3)
