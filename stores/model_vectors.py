"""Vectors of additional embedding models in the embedded store (a mixin of :class:`stores.embedded.EmbeddedStore`).

The index's own embedding model (the bundled MiniLM, or ``[embedding] model``) keeps its vectors on
the chunk rows (``chunks.embedding``) as before. Every other model an ensemble search names (``ripple
search --models minilm,mpnet``) keeps its vectors in one table of its own, created by the first write
that needs it (no schema-version bump: an index without it simply has no such vectors)::

    model_embeddings (model TEXT, checksum TEXT, embedding BLOB, PRIMARY KEY (model, checksum))

keyed by the model's id and the embedding text format (:func:`stores.embedding_format.model_vectors_key`:
``ripplegraph/all-mpnet-base-v2-int8@<digest of model.onnx> text=ctx1``, so neither a rebuilt model nor
a new chunk-header format ever mixes with the old vectors) and the chunk text's checksum: content-addressed like
``embedding_cache``, a text is embedded once per model whatever chunks hold it, a chunk replaced by
a re-index finds its vector again when its text is unchanged, and a chunk whose text changed has
none (its old text's row is simply not joined). Rows of texts no chunk holds any more are removed by
:meth:`EmbeddedModelVectors.prune_model_vectors` (run by every embedding pass of the model).

Search is exact (a float32 matrix per model in memory, rebuilt after any write: ``version_token``);
approximate search (:mod:`stores.vector_index`) covers the index's own model only.
"""

from __future__ import annotations

import sqlite3
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from stores.lazy_import import LazyModule
from stores.contracts import CODE_UNIT_KINDS, Chunk, ScoredChunk, SearchFilters
from stores.embedded_schema import NIDS_OF, id_keys

if TYPE_CHECKING:  # numpy's types; the mixin's host
    import numpy as np
    from stores.embedded import EmbeddedStore
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)


__all__ = ["EmbeddedModelVectors", "MODEL_VECTORS_TABLE"]

MODEL_VECTORS_TABLE = """
CREATE TABLE IF NOT EXISTS model_embeddings (
    model TEXT NOT NULL, checksum TEXT NOT NULL, embedding BLOB NOT NULL, PRIMARY KEY (model, checksum)
) WITHOUT ROWID
"""

_FILTERS = ("product", "repo", "language", "kind")


def _unit(vector: Sequence[float]) -> np.ndarray:
    v = np.asarray(vector, dtype=np.float32).ravel()
    norm = float(np.linalg.norm(v))
    return v / np.float32(norm) if norm > 0.0 else v


class EmbeddedModelVectors:
    """The per-model vector methods of :class:`stores.contracts.SearchIndex` over the embedded
    store's SQLite connection (its lock, its write transaction, its error mapping)."""

    _model_matrices: dict[str, tuple[str | None, Any]]

    def _mv_call(self: EmbeddedStore, work: Any) -> Any:
        """``work(conn)`` under the store's lock, errors mapped (the registry mixin's runner)."""
        return self._registry_call(work)

    @staticmethod
    def _has_model_table(conn: sqlite3.Connection) -> bool:
        return conn.execute(
            "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'model_embeddings'").fetchone() is not None

    def set_model_embeddings(self: EmbeddedStore, model: str, vectors: dict[str, Sequence[float]]) -> None:
        """Store model ``model``'s vectors (normalised float32) by chunk id, under each chunk's text
        checksum, in one transaction; unknown ids are ignored. Raises
        :class:`stores.errors.StoreReadOnly` on an index opened read-only."""
        if not vectors:
            return
        ids = list(vectors)

        def body(conn: sqlite3.Connection) -> None:
            conn.execute(MODEL_VECTORS_TABLE)
            sums = dict(conn.execute("SELECT i.id, c.checksum FROM chunk_rows c JOIN ids i ON i.nid = c.nid"
                                     f" WHERE c.nid IN ({NIDS_OF})", (id_keys(ids),)))
            conn.executemany(
                "INSERT OR REPLACE INTO model_embeddings (model, checksum, embedding) VALUES (?, ?, ?)",
                [(model, sums[i], _unit(vectors[i]).tobytes()) for i in ids if i in sums])

        self._mv_call(lambda conn: self._write(body))

    def pending_model_chunks(self: EmbeddedStore, model: str, limit: int) -> list[Chunk]:
        """Up to ``limit`` chunks with no vector of ``model``, one per distinct text, code units first
        and fewest lines first (texts of similar size batch together, as :meth:`pending_chunks` does)."""
        code = ", ".join(f"'{k}'" for k in CODE_UNIT_KINDS)

        def read(conn: sqlite3.Connection) -> list[str]:
            missing = "" if not self._has_model_table(conn) else (
                " WHERE NOT EXISTS (SELECT 1 FROM model_embeddings e WHERE e.model = ? AND e.checksum = c.checksum)")
            params: tuple[Any, ...] = (model, limit) if missing else (limit,)
            return [r[0] for r in conn.execute(
                f"SELECT min(c.id), c.checksum, min(CASE WHEN c.kind IN ({code}) THEN 0 ELSE 1 END) AS grp,"
                f" min(c.end_line - c.start_line) AS size FROM chunks c{missing} GROUP BY c.checksum"
                " ORDER BY grp, size, c.checksum"
                " LIMIT ?", params)]

        ids = self._mv_call(read)
        chunks = self.get_chunks(ids)
        return [chunks[i] for i in ids if i in chunks]

    def model_chunk_count(self: EmbeddedStore, model: str) -> int:
        """How many chunks have a vector of ``model``."""

        def read(conn: sqlite3.Connection) -> int:
            if not self._has_model_table(conn):
                return 0
            return conn.execute("SELECT count(*) FROM chunks c JOIN model_embeddings e"
                                " ON e.model = ? AND e.checksum = c.checksum", (model,)).fetchone()[0]

        return self._mv_call(read)

    def prune_model_vectors(self: EmbeddedStore, model: str, keep_prefix: str | None = None) -> int:
        """Remove ``model``'s rows whose text no chunk holds any more and, with ``keep_prefix``, the
        rows of every other model id starting with ``keep_prefix`` (an older build of the same
        model); returns how many rows went."""
        gone: list[int] = []

        def body(conn: sqlite3.Connection) -> None:
            if not self._has_model_table(conn):
                gone.append(0)
                return
            n = conn.execute("DELETE FROM model_embeddings WHERE model = ? AND NOT EXISTS"
                             " (SELECT 1 FROM chunks c WHERE c.checksum = model_embeddings.checksum)", (model,)).rowcount
            if keep_prefix:
                n += conn.execute("DELETE FROM model_embeddings WHERE substr(model, 1, ?) = ? AND model != ?",
                                  (len(keep_prefix), keep_prefix, model)).rowcount
            gone.append(n)

        if self.read_only:
            return 0
        self._mv_call(lambda conn: self._write(body))
        return gone[0]

    def model_knn(self: EmbeddedStore, model: str, vector: Sequence[float], limit: int,
                  filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Nearest ``limit`` chunks to ``vector`` among those with a vector of ``model``, by cosine
        (exact), best first, ties by chunk id; ``[]`` when none has one or ``vector``'s size differs."""
        cache = getattr(self, "_model_matrices", None)
        if cache is None:
            cache = self._model_matrices = {}
        token = self.version_token()
        held = cache.get(model)
        if held is None or held[0] != token:

            def read(conn: sqlite3.Connection) -> list[tuple[Any, ...]]:
                if not self._has_model_table(conn):
                    return []
                return conn.execute(
                    "SELECT c.id, c.product, c.repo, c.language, c.kind, e.embedding FROM chunks c"
                    " JOIN model_embeddings e ON e.model = ? AND e.checksum = c.checksum ORDER BY c.id",
                    (model,)).fetchall()

            rows = self._mv_call(read)
            matrix = np.vstack([np.frombuffer(r[5], dtype=np.float32) for r in rows]) if rows else None
            columns = {f: np.array([r[i + 1] for r in rows], dtype=object) for i, f in enumerate(_FILTERS)}
            held = (token, (matrix, [r[0] for r in rows], columns))
            cache[model] = held
        matrix, ids, columns = held[1]
        q = _unit(vector)
        if matrix is None or limit < 1 or matrix.shape[1] != q.shape[0]:
            return []
        scores = matrix @ q
        if filters is not None:
            mask = np.ones(len(ids), dtype=bool)
            for f in _FILTERS:
                want = getattr(filters, f)
                if want is not None:
                    mask &= columns[f] == want
            scores = np.where(mask, scores, -np.inf)
        k = min(limit, len(ids))
        top = np.argpartition(-scores, k - 1)[:k] if k < len(ids) else np.arange(len(ids))
        best = sorted((i for i in top if np.isfinite(scores[i])), key=lambda i: (-float(scores[i]), ids[i]))
        return [ScoredChunk(ids[i], float(scores[i]), rank) for rank, i in enumerate(best, 1)]
