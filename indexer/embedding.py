"""The embedding phase: give every chunk that lacks one a 384-d vector, after the graph and BM25 are
committed.

It drains :meth:`stores.contracts.SearchIndex.pending_chunks` (one chunk per distinct text, shortest
first, so each model batch holds texts of similar length and little padding) and writes vectors back
with ``set_embeddings``, which also fills the content-addressed cache: a text is embedded once, ever.
The model reads :func:`indexer.chunk_context.embedding_text` (a short contextual header: path and
qualified name, then the chunk's source), never the bare chunk text; the index records the model with
that text's format (:func:`~indexer.chunk_context.embedding_record`), so vectors of an older format
are all dropped and computed again (:attr:`EmbedReport.reembedded`), never mixed with new ones.
Interrupting it loses at most one fetch; the next run resumes where it stopped. It may run while an
incremental update replaces chunks: a vector whose chunk's text changed during the model call is
dropped (the new text stays pending). Until a chunk is
embedded, search finds it through BM25 alone (:class:`analysis.retrieval.QueryEngine` says so).
"""

from __future__ import annotations

import logging
import time
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Protocol

from indexer.chunk_context import embedding_record, embedding_text
from stores.contracts import SearchIndex
from stores.embedding_format import model_vectors_key, model_vectors_prefix

log = logging.getLogger(__name__)

__all__ = ["TextEmbedder", "EmbedReport", "embed_pending", "embed_pending_model", "DEFAULT_BATCH", "FETCH"]

DEFAULT_BATCH = 8
"""Texts per model call, as :data:`stores.embedder.DEFAULT_BATCH` (the embedder's own default; this
layer talks to any :class:`TextEmbedder`). Small length-sorted batches are the fastest here and keep
memory flat (fastembed's default of 256 costs about 4 GB on these machines and is slower; 16 peaks
75 MiB above 8 for the same time)."""

FETCH = 1024
"""Chunks read from the index per round (each round ends with one ``set_embeddings`` write)."""


class TextEmbedder(Protocol):
    """What the phase needs of an embedder: ``model_id`` names the model (stored with the vectors)
    and ``embed`` returns one normalised vector per text, shape ``(len(texts), dim)``."""

    model_id: str

    def embed(self, texts: Sequence[str], batch_size: int = DEFAULT_BATCH) -> Sequence[Sequence[float]]:
        """Vectors for ``texts``, in order."""
        ...


class _Progress(Protocol):
    def start(self, phase: str, total: int | None) -> None: ...

    def advance(self, n: int = 1) -> None: ...

    def done(self, phase: str) -> None: ...


@dataclass(frozen=True, slots=True)
class EmbedReport:
    """``embedded``: texts sent to the model this run; ``reused``: chunks that got a vector from the
    cache or from a twin text; ``seconds``: wall time of the phase; ``chunks_per_s``: model
    throughput (``embedded / seconds``); ``reembedded``: the index held vectors of another model or
    another embedding text format, which were all dropped first (every chunk was pending again)."""

    embedded: int
    reused: int
    seconds: float
    reembedded: bool = False

    @property
    def chunks_per_s(self) -> float:
        """Texts embedded per second of the phase (0 when nothing was embedded)."""
        return self.embedded / self.seconds if self.seconds > 0 and self.embedded else 0.0


def embed_pending(
    index: SearchIndex, embedder: TextEmbedder, progress: _Progress | None = None, batch_size: int = DEFAULT_BATCH
) -> EmbedReport:
    """Embed every chunk of ``index`` that has no vector yet, from its
    :func:`~indexer.chunk_context.embedding_text`. Records ``embedding_record(embedder.model_id)``
    first: vectors of another model or embedding text format are dropped (``set_embedding_model``),
    logged, and flagged in the report. Raises what the embedder or the store raises; vectors already
    written stay."""
    t0 = time.perf_counter()
    record = embedding_record(embedder.model_id)
    reembedded = index.set_embedding_model(record)
    if reembedded:
        log.warning("the index's vectors came from another embedding model or text format; all dropped, every "
                    "chunk is embedded again with %s", record)
    before = index.chunk_count()
    initial = before["embedded"]
    missing = before["chunks"] - initial
    if progress is not None:
        progress.start("embed", missing)
    embedded = 0
    while True:
        batch = index.pending_chunks(FETCH)
        if not batch:
            break
        vectors = embedder.embed([embedding_text(c) for c in batch], batch_size)
        # A chunk an update replaced meanwhile (a watcher runs beside this phase) must not get, nor
        # put in the content-addressed cache, the vector of its old text.
        now = index.get_chunks([c.id for c in batch])
        index.set_embeddings({c.id: v for c, v in zip(batch, vectors)
                              if c.id in now and now[c.id].checksum == c.checksum})
        embedded += len(batch)
        if progress is not None:
            after = index.chunk_count()
            progress.advance(after["embedded"] - before["embedded"])
            before = after
    if progress is not None:
        progress.done("embed")
    filled = index.chunk_count()["embedded"] - initial
    return EmbedReport(embedded, filled - embedded, time.perf_counter() - t0, reembedded)


def embed_pending_model(
    index: SearchIndex, embedder: TextEmbedder, progress: _Progress | None = None, batch_size: int = DEFAULT_BATCH
) -> EmbedReport:
    """Embed, with an additional model of an ensemble (``embedder``; its vectors are kept apart under
    :func:`stores.embedding_format.model_vectors_key` of ``embedder.model_id``, the model id and the
    embedding text format, see :meth:`stores.contracts.SearchIndex.set_model_embeddings`), every
    chunk text that has no vector of it yet. First drops that model's vectors of texts no chunk holds
    and those of its other builds or text formats (:func:`~stores.embedding_format.model_vectors_prefix`).
    ``reused`` counts chunks that got a vector through a twin text. Raises what the embedder or the
    store raises; vectors already written stay."""
    t0 = time.perf_counter()
    model = model_vectors_key(embedder.model_id)
    index.prune_model_vectors(model, keep_prefix=model_vectors_prefix(embedder.model_id))
    initial = index.model_chunk_count(model)
    if progress is not None:
        progress.start("embed", index.chunk_count()["chunks"] - initial)
    embedded, seen, before = 0, set(), initial
    while True:
        batch = index.pending_model_chunks(model, FETCH)
        if not batch or all(c.checksum in seen for c in batch):  # nothing left, or nothing could be written
            break
        seen.update(c.checksum for c in batch)
        vectors = embedder.embed([embedding_text(c) for c in batch], batch_size)  # what the model reads
        now = index.get_chunks([c.id for c in batch])  # as embed_pending: never the vector of an old text
        index.set_model_embeddings(model, {c.id: v for c, v in zip(batch, vectors)
                                           if c.id in now and now[c.id].checksum == c.checksum})
        embedded += len(batch)
        if progress is not None:
            after = index.model_chunk_count(model)
            progress.advance(after - before)
            before = after
    if progress is not None:
        progress.done("embed")
    filled = index.model_chunk_count(model) - initial
    return EmbedReport(embedded, max(filled - embedded, 0), time.perf_counter() - t0)
