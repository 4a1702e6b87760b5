"""Search over several indexes at once, ranked as one: each list merged by its raw score, then fused once.

The language server keeps one index per workspace folder, the agent facade may be given several:
one search then runs over all of them. Ranking each index on its own and merging the answers by their
fused scores compares what is not comparable: min-max fusion (text queries) gives *every* index's
own best BM25 hit 1.0 (RRF gives every index's first rank the same 1/61), so a folder that holds only
one of the query's words ("owner" of "fetch owner", in a Java folder without any "fetch") puts its
weak best hit level with another folder's real answer (``fetch_owner``) and above everything else.

Here every index only *reads* its ranked lists (:meth:`analysis.retrieval.QueryEngine.ranked_lists`:
``bm25``, the kNN list(s), ``name``); each list is merged across the indexes by its raw score, which
is comparable across them (kNN: cosine with the same model's vectors; ``name``: the same definition
score; BM25: Okapi BM25 of the same query terms, whose scale is that of the query's own IDFs, so a
chunk matching only a word that is common in its index scores low there instead of 1.0), re-ranked
1..n and cut to the engine's depth (``candidates``). Then the lists are fused once
(:func:`analysis.fusion.fuse` with the query kind's fusion) and ranked with the priors over the
union, as one index would be (:meth:`analysis.retrieval.QueryEngine.rank`). Chunk ids hold their
repository, so the indexes' ids never collide; an id seen in two indexes (one file read twice)
keeps its best score. With one index this is exactly that index's :meth:`QueryEngine.search`.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Mapping, Sequence

from analysis.ensemble import EnsembleEngine
from analysis.ranking import asks_for_tests
from analysis.retrieval import QueryEngine, SearchResult
from stores.contracts import Chunk, GraphStore, ScoredChunk, SearchFilters, SearchIndex

__all__ = ["merge_lists", "search_indexes"]


def merge_lists(per_index: Sequence[Mapping[str, Sequence[ScoredChunk]]], depth: int) -> dict[str, list[ScoredChunk]]:
    """The ranked lists of several indexes as one set of lists: for each list name, every index's hits
    by raw score (best first, ties by chunk id; a chunk id met twice keeps its best score), ranked
    1..n, the first ``depth``. Names keep their first-seen order."""
    merged: dict[str, dict[str, float]] = {}
    for lists in per_index:
        for name, hits in lists.items():
            best = merged.setdefault(name, {})
            for h in hits:
                if h.chunk_id not in best or h.score > best[h.chunk_id]:
                    best[h.chunk_id] = h.score
    out: dict[str, list[ScoredChunk]] = {}
    for name, scores in merged.items():
        order = sorted(scores.items(), key=lambda kv: (-kv[1], kv[0]))[:depth]
        out[name] = [ScoredChunk(cid, score, rank) for rank, (cid, score) in enumerate(order, 1)]
    return out


class _Chunks:
    """The read side :meth:`QueryEngine.rank` needs of a search index, over several: each chunk is
    fetched from the index whose list named it."""

    def __init__(self, indexes: Sequence[SearchIndex], origin: Mapping[str, int], counts: Mapping[str, int]) -> None:
        self._indexes, self._origin, self._counts = indexes, origin, dict(counts)

    def chunk_count(self) -> dict[str, int]:
        return dict(self._counts)

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        by_index: dict[int, list[str]] = {}
        for cid in ids:
            if cid in self._origin:
                by_index.setdefault(self._origin[cid], []).append(cid)
        found: dict[str, Chunk] = {}
        for i, wanted in by_index.items():
            found.update(self._indexes[i].get_chunks(wanted))
        return found


def search_indexes(engines: Sequence[QueryEngine], query: str, limit: int = 10, filters: SearchFilters | None = None,
                   tests: bool = False, graph: GraphStore | None = None) -> SearchResult:
    """:meth:`QueryEngine.search` over every engine's index as one (see the module docstring): the
    lists of each, merged by raw score, fused once, the priors applied over the union. ``graph``:
    one graph holding every index's nodes (default: the first engine's; the language server passes
    its union of the folders' graphs). The first engine's fusion, depth, priors and name match rank the whole;
    counts and notes are summed. Raises ``ValueError`` without an engine, and what the stores raise."""
    if not engines:
        raise ValueError("no index to search")
    if len(engines) == 1 and graph is None:
        return engines[0].search(query, limit, filters, tests)
    wants = tests or asks_for_tests(query)
    counts = [e.index.chunk_count() for e in engines]
    per_index = [e.ranked_lists(query, filters, c, wants) for e, c in zip(engines, counts)]
    origin: dict[str, int] = {}
    for i, lists in enumerate(per_index):
        for hits in lists.values():
            for h in hits:
                origin.setdefault(h.chunk_id, i)
    first = engines[0]
    total = {k: sum(c.get(k, 0) for c in counts) for k in ("chunks", "embedded")}
    ranker = QueryEngine(graph if graph is not None else first.graph,
                         _Chunks([e.index for e in engines], origin, total),  # type: ignore[arg-type]
                         None, first.candidates, first.fusion, priors=first.priors, exact_first=first.exact_first,
                         name_match=first.name_match)
    result = ranker.rank(query, merge_lists(per_index, first.candidates), limit, total, tests)
    notes = [n for e, c in zip(engines, counts) if isinstance(e, EnsembleEngine) for n in e.coverage_notes(c["chunks"])]
    return dataclasses.replace(result, notes=list(dict.fromkeys([*result.notes, *notes])))
