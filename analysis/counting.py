"""A :class:`~stores.contracts.GraphStore` (and a :class:`~stores.contracts.SearchIndex`) that counts the
contract calls made through it: what
:mod:`analysis.impact` reports as each step's store calls, and what ``bench/impact_bench.py`` counts
per report (one contract call = one round trip to each store behind it)."""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Any

from stores.contracts import (Chunk, RepositoryRecord, Edge, GraphStore, IndexedFile, Node, ScoredChunk, SearchFilters, SearchIndex,
                              UnresolvedCall)

__all__ = ["CountingGraph", "CountingIndex"]


class CountingGraph(GraphStore):
    """A :class:`GraphStore` that forwards every call to ``inner`` and counts them in ``calls``
    (one contract call = one round trip to each store behind ``inner``)."""

    def __init__(self, inner: GraphStore) -> None:
        self.inner = inner
        self.calls = 0

    def _count(self) -> GraphStore:
        self.calls += 1
        return self.inner

    def replace_files(self, files: Sequence[IndexedFile]) -> None:
        """Forwarded."""
        self._count().replace_files(files)

    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Forwarded."""
        self._count().delete_files(repo, paths)

    def file_text(self, repo: str, path: str) -> str | None:
        """Forwarded."""
        return self._count().file_text(repo, path)

    def file_checksums(self, repo: str) -> dict[str, str]:
        """Forwarded."""
        return self._count().file_checksums(repo)

    def repos(self) -> list[str]:
        """Forwarded."""
        return self._count().repos()

    def repositories(self) -> list[RepositoryRecord]:
        """Forwarded."""
        return self._count().repositories()

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        """Forwarded."""
        return self._count().get_nodes(ids)

    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        """Forwarded."""
        return self._count().find_symbols(names, labels)

    def nodes_in_file(self, repo: str, path: str) -> list[Node]:
        """Forwarded."""
        return self._count().nodes_in_file(repo, path)

    def incoming(self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
                 ) -> dict[str, list[Edge]]:
        """Forwarded."""
        return self._count().incoming(ids, kinds, resolutions)

    def outgoing(self, ids: Sequence[str], kinds: Sequence[str], resolutions: Sequence[str] | None = None
                 ) -> dict[str, list[Edge]]:
        """Forwarded."""
        return self._count().outgoing(ids, kinds, resolutions)

    def incoming_summary(self, ids: Sequence[str], kinds: Sequence[str], prop: str | None = None
                         ) -> dict[str, set[tuple[str, str, str]]]:
        """Forwarded."""
        return self._count().incoming_summary(ids, kinds, prop)

    def labelled(self, labels: Sequence[str], limit: int | None = None) -> list[Node]:
        """Forwarded."""
        return self._count().labelled(labels, limit)

    def search_symbols(self, query: str, limit: int) -> list[Node]:
        """Forwarded."""
        return self._count().search_symbols(query, limit)

    def unresolved_calls(self, names: Sequence[str]) -> dict[str, list[UnresolvedCall]]:
        """Forwarded."""
        return self._count().unresolved_calls(names)

    def stats(self) -> dict[str, Any]:
        """Forwarded."""
        return self._count().stats()


class CountingIndex(SearchIndex):
    """A :class:`SearchIndex` that forwards every call to ``inner`` and counts them in ``calls``
    (what :mod:`analysis.agent_queries` reports as a step's store calls, beside the graph's)."""

    def __init__(self, inner: SearchIndex) -> None:
        self.inner = inner
        self.calls = 0

    def _count(self) -> SearchIndex:
        self.calls += 1
        return self.inner

    def replace_chunks(self, files: Sequence[IndexedFile]) -> None:
        """Forwarded."""
        self._count().replace_chunks(files)

    def delete_files(self, repo: str, paths: Iterable[str]) -> None:
        """Forwarded."""
        self._count().delete_files(repo, paths)

    def bm25(self, query: str, limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Forwarded."""
        return self._count().bm25(query, limit, filters)

    def knn(self, vector: Sequence[float], limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Forwarded."""
        return self._count().knn(vector, limit, filters)

    def get_chunks(self, ids: Sequence[str]) -> dict[str, Chunk]:
        """Forwarded."""
        return self._count().get_chunks(ids)

    def set_embeddings(self, vectors: dict[str, Sequence[float]]) -> None:
        """Forwarded."""
        self._count().set_embeddings(vectors)

    def pending_chunks(self, limit: int) -> list[Chunk]:
        """Forwarded."""
        return self._count().pending_chunks(limit)

    def set_embedding_model(self, model: str) -> bool:
        """Forwarded."""
        return self._count().set_embedding_model(model)

    def chunk_count(self, repo: str | None = None) -> dict[str, int]:
        """Forwarded."""
        return self._count().chunk_count(repo)

    def model_chunk_count(self, model: str) -> int:
        """Forwarded (an ensemble's coverage)."""
        return self._count().model_chunk_count(model)

    def model_knn(self, model: str, vector: Sequence[float], limit: int,
                  filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Forwarded (an ensemble's per-model kNN list)."""
        return self._count().model_knn(model, vector, limit, filters)
