"""Test helpers for the embedded store's exact BM25 cut (:mod:`stores.bm25_cut`): the answer with the
cut switched off, and a spy on the restricted scoring queries a cut runs."""

from __future__ import annotations

import pytest

from stores.contracts import ScoredChunk, SearchFilters
from stores.embedded import EmbeddedStore


def plain_bm25(store: EmbeddedStore, monkeypatch: pytest.MonkeyPatch, query: str, limit: int,
               filters: SearchFilters | None = None) -> list[ScoredChunk]:
    """``store.bm25(query, limit, filters)`` scoring every match (no cut), for comparison with the cut."""
    with monkeypatch.context() as m:
        m.setattr(EmbeddedStore, "_bm25_cut", lambda self, *a: None)
        return store.bm25(query, limit, filters)


def record_cuts(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """Spy on the store's scoring queries: the returned list fills with each restricting FTS5
    expression (the rows a cut let through), in order."""
    restricted: list[str] = []
    rows = EmbeddedStore._bm25_rows

    def spy(self, db, match, only, *rest):  # type: ignore[no-untyped-def]
        if only is not None:
            restricted.append(only)
        return rows(self, db, match, only, *rest)

    monkeypatch.setattr(EmbeddedStore, "_bm25_rows", spy)
    return restricted
