"""Hybrid retrieval: BM25, dense kNN and exact names fused (:mod:`analysis.fusion`), then graph context.

The :class:`QueryEngine` is the one place search happens, whatever the backends: it asks the
:class:`~stores.contracts.SearchIndex` for a BM25 list and (when an embedder is configured and chunks
are embedded) a kNN list, fuses them client-side so every backend ranks identically, then makes one
batched call for the chunks and one for their graph nodes. A hit whose node is missing (a half-finished
run) is dropped. :func:`query_engine` builds one over the configured stores, loading the embedding
model only when the index holds embeddings.

Fusion: :func:`analysis.fusion.fuse` with the method chosen per kind of query
(:data:`analysis.fusion.FUSION_BY_KIND`, by measurement); :func:`reciprocal_rank_fusion` is plain RRF,
``score(d) = sum over lists L containing d of 1 / (k + rank_L(d))`` (Cormack, Clarke and Buettcher,
SIGIR 2009). Every hit keeps the rank it had in each list.
"""

from __future__ import annotations

import functools
import os
from concurrent.futures import ThreadPoolExecutor
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from analysis.fusion import FUSION_BY_KIND, RRF_K, FusedHit, Fusion, fuse, fusion_for, query_kind, rrf
from analysis.name_match import DEFAULT_NAME_MATCH, NameMatch, query_stems
from analysis.ranking import (DEFAULT_PRIORS, VISIBILITY_MODIFIERS, Candidate, Priors, asks_for_tests,
                              named_definitions, rerank, visibility)
from stores.contracts import Chunk, GraphStore, Node, ScoredChunk, SearchFilters, SearchIndex
from stores.embedder import MODEL_ENV, Embedder

__all__ = ["RRF_K", "EMPTY_QUERY", "check_query", "MENTIONING_KINDS", "VISIBILITIES", "FusedHit", "SearchHit", "SearchResult", "chunk_metadata",
           "reciprocal_rank_fusion", "QueryEngine", "query_engine"]

_LEXICAL = ThreadPoolExecutor(max_workers=4, thread_name_prefix="ripple-bm25")
"""Threads that read a search's BM25 list while the caller reads the dense lists (SQLite and numpy
release the GIL: on two cores the kNN product, about 12 ms at 100k chunks, overlaps BM25). The query
embedders stay on the caller's thread; a store serialises its own calls."""


EMPTY_QUERY = "query is empty: give words or an identifier to search for"
"""What every front end answers to a search query with no text (CLI, language server, MCP, REST)."""


def check_query(query: object) -> str:
    """``query`` when it is a string holding some text other than white space; raises
    :class:`ValueError` (:data:`EMPTY_QUERY`) otherwise: an empty query has no terms for BM25 and
    its embedding ranks arbitrary chunks."""
    if not isinstance(query, str) or not query.strip():
        raise ValueError(EMPTY_QUERY)
    return query


def _in_transaction(index: object) -> bool:
    """Whether ``index`` (an embedded store) has a write transaction open: its lock is then held by the
    thread that opened it, which may be this one."""
    check = getattr(index, "in_transaction", None)
    return bool(check()) if callable(check) else False


def reciprocal_rank_fusion(lists: Mapping[str, Sequence[ScoredChunk]], k: int = RRF_K) -> list[FusedHit]:
    """Fuse ranked lists by plain RRF (:func:`analysis.fusion.rrf`). Ties break by the best single
    rank, then by chunk id, so the order is deterministic. Returns every chunk of every list, best first."""
    return rrf(lists, k)


VISIBILITIES = VISIBILITY_MODIFIERS
"""Modifiers that state a definition's visibility (Java, Apex, TypeScript class members, C#, Kotlin)."""


def chunk_metadata(chunk: Chunk, node: Node) -> dict[str, object]:
    """A chunk's metadata, read from the graph node it stands for (the index keeps it once, on the
    node): ``language``; ``kind`` (the chunk's: ``method``, ``class``, ``function``,
    ``file_section``...); ``decorators`` (decorator / annotation texts as written, without ``@``);
    ``modifiers`` (``static``, ``abstract``, ``async``, Apex sharing modes...); ``visibility``: the
    visibility modifier written (:data:`VISIBILITIES`), else by the language's convention
    (:func:`analysis.ranking.visibility`), ``None`` when the language says nothing; ``exported`` (JS/TS); ``documented``: the definition has a docstring, Javadoc, JSDoc or KDoc;
    ``parent``: the enclosing definition's dotted name (``None`` at top level); ``signature``. A file
    section has only ``language``, ``kind`` and ``parent`` ``None``."""
    props = node.props if node.label != "File" else {}
    modifiers = [str(m) for m in props.get("modifiers") or ()]
    qualname = node.qualname or ""
    return {
        "language": chunk.language, "kind": chunk.kind,
        "decorators": [str(d) for d in props.get("decorators") or ()],
        "modifiers": [m for m in modifiers if m not in VISIBILITIES],
        "visibility": visibility(node, chunk.language), "exported": bool(props.get("exported")),
        "documented": bool(props.get("documented")),
        "parent": qualname.rpartition(".")[0] or None if node.label != "File" else None,
        "signature": props.get("signature"),
    }


@dataclass(frozen=True, slots=True)
class SearchHit:
    """A search result with its source and structure: the chunk (real source text), the graph node
    it stands for, its score (:func:`analysis.ranking.rerank`: the fused score times the priors, or
    :data:`analysis.ranking.EXACT_SCORE` plus a definition score for an identifier query's exact
    definitions) and per-list ranks, and the node's direct caller count. A doc or
    config hit (a README section, a configuration key) carries the code and tables it ``mentions``
    (``MENTIONS`` edges of its file on the chunk's lines), so the page about refunds comes with the
    refund code."""

    chunk: Chunk
    node: Node
    score: float
    ranks: Mapping[str, int]
    callers: int
    mentions: tuple[Node, ...] = ()

    @property
    def metadata(self) -> dict[str, object]:
        """What the chunk stands for beyond its text (:func:`chunk_metadata`)."""
        return chunk_metadata(self.chunk, self.node)


@dataclass(frozen=True, slots=True)
class SearchResult:
    """Hits best first, plus what the answer rests on: ``lists`` names the ranked lists fused
    (``["bm25"]`` alone when nothing is embedded yet), ``embedded`` / ``chunks`` how many chunks have
    an embedding, ``dropped`` how many hits lost their graph node, and human-readable ``notes``."""

    hits: list[SearchHit]
    lists: list[str]
    embedded: int
    chunks: int
    dropped: int = 0
    notes: list[str] = field(default_factory=list)


class QueryEngine:
    """Hybrid search over one graph store and one search index.

    ``embed_query`` maps a query string to a normalised 384-d vector (the embedder's); ``None``
    disables the dense side. ``candidates`` is how deep each list is read before fusion; ``fusion``
    maps each kind of query (:func:`analysis.fusion.query_kind`) to its fusion (default
    :data:`analysis.fusion.FUSION_BY_KIND`). ``priors`` (:class:`analysis.ranking.Priors`) weigh the
    fused hits; ``exact_first`` puts an identifier query's exact definitions first; ``name_match``
    (:class:`analysis.name_match.NameMatch`) weighs a text query's agreement with each definition's name
    and signature (all as measured in docs/search-quality.md; switched off only to measure).
    """

    def __init__(
        self,
        graph: GraphStore,
        index: SearchIndex,
        embed_query: Callable[[str], Sequence[float]] | None = None,
        candidates: int = 50,
        fusion: Mapping[str, Fusion] | None = None,
        *,
        priors: Priors = DEFAULT_PRIORS,
        exact_first: bool = True,
        name_match: NameMatch = DEFAULT_NAME_MATCH,
    ) -> None:
        self.graph = graph
        self.index = index
        self.embed_query = embed_query
        self.candidates = candidates
        self.fusion = dict(FUSION_BY_KIND if fusion is None else fusion)
        self.priors = priors
        self.exact_first = exact_first
        self.name_match = name_match

    def search(self, query: str, limit: int = 10, filters: SearchFilters | None = None,
               tests: bool = False) -> SearchResult:
        """The best ``limit`` hits for ``query`` (natural language or identifiers).

        A query that is one identifier (``url_for``, ``Config.from_envvar``) adds a third ranked list,
        ``name``: the definitions of exactly that name (:func:`analysis.ranking.named_definitions`), and
        those come first in that order, so the definition a developer types is not outvoted by the many
        chunks that merely mention it. The other hits are ranked by their fused score times the priors
        (:mod:`analysis.ranking`): test code below implementation unless ``tests`` is true or the query
        asks for tests (then the reverse, with a note saying so), private helpers below public API,
        undocumented definitions below documented ones. Raises :class:`ValueError` for a query with no
        text (:func:`check_query`)."""
        check_query(query)
        counts = self.index.chunk_count()
        lists = self.ranked_lists(query, filters, counts, tests or asks_for_tests(query))
        return self.rank(query, lists, limit, counts, tests)

    def rank(self, query: str, lists: Mapping[str, Sequence[ScoredChunk]], limit: int = 10,
             counts: Mapping[str, int] | None = None, tests: bool = False) -> SearchResult:
        """:meth:`search` on lists already read (:meth:`ranked_lists` of the same ``query`` and
        ``tests``): the fusion for the query's kind, then the exact definitions (the ``name`` list)
        first and the priors (:mod:`analysis.ranking`). ``counts``: the index's ``chunk_count()``,
        read when not given."""
        counts = self.index.chunk_count() if counts is None else counts
        wants_tests = tests or asks_for_tests(query)
        exact = {h.chunk_id: h.score for h in lists.get("name", [])} if self.exact_first else {}
        terms = query_stems(query) if query_kind(query) == "text" else frozenset()
        result = self._assemble(fuse(lists, fusion_for(query, self.fusion)), limit, list(lists), counts, exact,
                                wants_tests, self.priors, terms)
        if wants_tests:
            result.notes.append("tests asked for: test code ranked above implementation"
                                + (" (the name's own definitions first)" if exact else ""))
        return result

    def ranked_lists(self, query: str, filters: SearchFilters | None = None,
                     counts: Mapping[str, int] | None = None, wants_tests: bool | None = None,
                     ) -> dict[str, list[ScoredChunk]]:
        """The ranked lists :meth:`search` fuses for ``query``, each ``candidates`` deep: ``bm25``;
        ``knn`` when an embedder is set and chunks are embedded (``counts``: the index's
        ``chunk_count()``, read when not given); ``name`` when the query is one identifier that names
        definitions (:func:`analysis.ranking.named_definitions`, test code first when ``wants_tests``,
        by default when the query asks for tests; each hit's score is its definition score). BM25 is
        read in a :data:`_LEXICAL` thread while this one reads the dense lists (query embedding, kNN)
        and the exact definitions (the embedded store runs BM25 on a connection of its own,
        :mod:`stores.embedded_lexical`, so they proceed together)."""
        counts = self.index.chunk_count() if counts is None else counts
        wants = asks_for_tests(query) if wants_tests is None else wants_tests
        lists: dict[str, list[ScoredChunk]]
        if _in_transaction(self.index):  # its lock is this thread's: a worker would wait forever
            lists = {"bm25": self.index.bm25(query, self.candidates, filters)}
            lists.update(self._dense_lists(query, filters, counts))
            named = named_definitions(self.graph, self.index, query, filters, wants, self.candidates)
        else:
            lexical = _LEXICAL.submit(self.index.bm25, query, self.candidates, filters)
            try:
                dense = self._dense_lists(query, filters, counts)
                named = named_definitions(self.graph, self.index, query, filters, wants, self.candidates)
            except BaseException:
                lexical.result()  # BM25's own error first, as when the lists were read in turn
                raise
            lists = {"bm25": lexical.result()}
            lists.update(dense)
        if named:
            lists["name"] = [ScoredChunk(n.id, s, i) for i, (n, s) in enumerate(named[: self.candidates], 1)]
        return lists

    def _dense_lists(self, query: str, filters: SearchFilters | None,
                     counts: Mapping[str, int]) -> dict[str, list[ScoredChunk]]:
        """The dense ranked lists: ``knn`` over the index's own vectors (an ensemble,
        :class:`analysis.ensemble.EnsembleEngine`, makes one per model instead)."""
        if self.embed_query is not None and counts["embedded"]:
            return {"knn": self.index.knn(self.embed_query(query), self.candidates, filters)}
        return {}

    def similar(self, chunk_id: str, limit: int = 10, filters: SearchFilters | None = None) -> SearchResult:
        """Chunks nearest to ``chunk_id``'s embedding (the chunk itself excluded), nearest first, each
        hit's ``score`` its cosine similarity to that chunk (-1..1); empty with a note when that chunk
        has no embedding yet."""
        counts = self.index.chunk_count()
        chunk = self.index.get_chunks([chunk_id]).get(chunk_id)
        if chunk is None or chunk.embedding is None:
            return SearchResult([], [], counts["embedded"], counts["chunks"], notes=[f"{chunk_id} has no embedding yet"])
        hits = [h for h in self.index.knn(chunk.embedding, limit + 1, filters) if h.chunk_id != chunk_id]
        ranked = [ScoredChunk(h.chunk_id, h.score, i + 1) for i, h in enumerate(hits)]
        result = self._assemble(reciprocal_rank_fusion({"knn": ranked}), limit, ["knn"], counts, priors=None)
        cosine = {h.chunk_id: h.score for h in hits}
        return replace(result, hits=[replace(h, score=cosine[h.chunk.id]) for h in result.hits])

    def _assemble(self, fused: list[FusedHit], limit: int, lists: list[str], counts: Mapping[str, int],
                  exact: Mapping[str, float] | None = None, wants_tests: bool = False,
                  priors: Priors | None = DEFAULT_PRIORS, terms: frozenset[str] = frozenset()) -> SearchResult:
        """Hits for the head of ``fused``: chunks and nodes fetched in two batched calls, orphans
        dropped, then (unless ``priors`` is ``None``) ranked by :func:`analysis.ranking.rerank` with the
        exact definitions ``exact`` first (``{node id: definition score}``, best first) and the query
        stems ``terms`` for the query-name agreement (:mod:`analysis.name_match`)."""
        head = fused[: max(limit * 3, limit + 20)]  # room for hits dropped or re-ranked below
        if exact:  # the first exact definitions, wherever fusion put them
            by_id = {f.chunk_id: f for f in fused}
            seen = {f.chunk_id for f in head}
            head += [by_id[i] for i in list(exact)[: limit * 2] if i in by_id and i not in seen]
        chunks = self.index.get_chunks([f.chunk_id for f in head])
        nodes = self.graph.get_nodes(sorted({c.fqn for c in chunks.values()}))
        kept = [(f, chunks[f.chunk_id]) for f in head if f.chunk_id in chunks and chunks[f.chunk_id].fqn in nodes]
        if priors is not None:
            order = rerank([Candidate(c, nodes[c.fqn], f.score) for f, c in kept], exact or {}, priors, wants_tests,
                           terms, self.name_match)
            kept = [(FusedHit(kept[r.index][0].chunk_id, r.score, kept[r.index][0].ranks), kept[r.index][1])
                    for r in order]
        kept = kept[:limit]
        callers = self.graph.incoming_counts({c.fqn: [c.fqn] for _, c in kept}, ["CALLS"])
        mentioned = self._mentions([c for _, c in kept])
        hits = [
            SearchHit(c, nodes[c.fqn], f.score, dict(f.ranks), callers[c.fqn],
                      mentioned.get(c.id, ()))
            for f, c in kept
        ]
        notes = []
        if counts["embedded"] < counts["chunks"]:
            notes.append(
                f"{counts['embedded']:,} of {counts['chunks']:,} chunks embedded: the rest are found by BM25 only"
            )
        dropped = sum(1 for f in head if f.chunk_id in chunks and chunks[f.chunk_id].fqn not in nodes)
        return SearchResult(hits, lists, counts["embedded"], counts["chunks"], dropped, notes)


    def _mentions(self, chunks: Sequence[Chunk]) -> dict[str, tuple[Node, ...]]:
        """``{chunk id: mentioned nodes}`` of the doc and config chunks among ``chunks``: their files'
        ``MENTIONS`` edges on each chunk's lines, in line order (two batched calls; none without such
        chunks)."""
        docs = [c for c in chunks if c.kind in MENTIONING_KINDS]
        if not docs:
            return {}
        edges = self.graph.outgoing(sorted({c.fqn for c in docs}), ["MENTIONS"])
        targets = self.graph.get_nodes(sorted({e.dst for es in edges.values() for e in es}))
        out = {}
        for c in docs:
            inside = sorted((e for e in edges.get(c.fqn, []) if c.start_line <= e.line <= c.end_line),
                            key=lambda e: (e.line, e.col, e.dst))
            found = tuple(targets[i] for i in dict.fromkeys(e.dst for e in inside) if i in targets)
            if found:
                out[c.id] = found
        return out


MENTIONING_KINDS = ("doc", "config")
"""Chunk kinds whose hits carry the nodes they mention."""


def query_engine(store: GraphStore, model_name: str | None = None, index: SearchIndex | None = None) -> QueryEngine:
    """A :class:`QueryEngine` over the graph ``store`` and the search ``index`` (default: ``store``
    itself, the embedded store being both). The embedder is loaded only when the index holds
    embeddings (otherwise search is BM25 alone and says so); a model that cannot be loaded raises
    :class:`stores.embedder.EmbedderError`."""
    if index is None:
        assert isinstance(store, SearchIndex), "a graph-only store needs its search index"
        index = store
    embed_query = None
    if index.chunk_count()["embedded"]:
        embedder = _query_embedder(model_name or os.environ.get(MODEL_ENV) or None)
        embed_query = lambda q: embedder.embed([q])[0]  # noqa: E731
    return QueryEngine(store, index, embed_query)


@functools.lru_cache(maxsize=2)
def _query_embedder(model_name: str | None) -> Embedder:
    # Loading a model takes about a second: a long-lived process (the language server) loads it
    # once for its queries. Bulk embedding opens its own instance (Embedder is not thread-safe).
    return Embedder(model_name)
