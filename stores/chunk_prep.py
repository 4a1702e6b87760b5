"""What a chunk write computes from the chunks alone, computed ahead (possibly in another process):
each chunk's analysed FTS5 column values (:func:`stores.analyzer.analyze_joined` of its name, fqn and
text) and the batch's BM25 block maxima (:func:`stores.bm25_blocks.block_maxima`).

A chunk write of the embedded store numbers the chunks it inserts from the next free rowid, and the
block maxima depend on those rowids and on the reference mean row length (the index's, or, at its
first write, the batch's own): :class:`ChunkBasis` says what they are when the preparation starts.
The writer (:mod:`indexer.write_prep`) prepares each batch in a forked copy with the rowids it
predicts (each batch starting after the last one's rows) and hands the result to the store
(:meth:`stores.contracts.SearchIndex.offer_prepared`), which uses it only when the chunks, the first
rowid and the reference length are exactly those it would have used (:meth:`PreparedChunks.matches`):
otherwise it computes them itself, with the same functions, so the index is the same either way.
Backend-neutral: pure functions of their arguments.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from stores.analyzer import analyze_joined
from stores.bm25_blocks import block_maxima, first_reference
from stores.contracts import Chunk

__all__ = ["ChunkBasis", "PreparedChunks", "prepare_chunks", "analysed_rows", "chunk_keys"]


@dataclass(frozen=True, slots=True)
class ChunkBasis:
    """Where a store's next chunk write starts: ``start`` its first rowid, ``reference`` the stored
    reference mean row length of the block maxima (``None``: the write sets it, or records none),
    ``weights`` the BM25 column weights (name, fqn, text)."""

    start: int
    reference: float | None
    weights: tuple[float, ...]


@dataclass(slots=True)
class PreparedChunks:
    """One batch's chunk analysis: ``keys`` (:func:`chunk_keys`) of the chunks in row order, ``start``
    the rowid of the first, ``analysed`` the rows as :func:`analysed_rows` gives them, ``reference``
    the mean row length the block maxima were computed with and ``maxima`` those
    (``{term: {block: byte}}``)."""

    keys: list[tuple[str, str, str, str]]
    start: int
    analysed: list[tuple[int, tuple[str, str, str]]]
    reference: float
    maxima: dict[str, dict[int, int]]

    def matches(self, chunks: Sequence[Chunk], start: int) -> bool:
        """Whether these were computed for exactly ``chunks`` (same ids, checksums, names and fqns,
        in order) numbered from ``start``."""
        return start == self.start and self.keys == chunk_keys(chunks)


def chunk_keys(chunks: Sequence[Chunk]) -> list[tuple[str, str, str, str]]:
    """``(id, checksum, name, fqn)`` of each chunk: what its analysed values are a function of
    (``checksum`` is the digest of its text)."""
    return [(c.id, c.checksum, c.name, c.fqn) for c in chunks]


def analysed_rows(chunks: Sequence[Chunk], start: int) -> list[tuple[int, tuple[str, str, str]]]:
    """``(rowid, (name, fqn, text analysed))`` of each chunk, rowids from ``start``: the values a
    chunk's ``chunks_fts`` row is inserted with."""
    return [(start + i, (analyze_joined(c.name), analyze_joined(c.fqn), analyze_joined(c.text)))
            for i, c in enumerate(chunks)]


def prepare_chunks(chunks: Sequence[Chunk], start: int, reference: float | None,
                   weights: Sequence[float]) -> PreparedChunks:
    """The analysis and block maxima of ``chunks`` inserted from rowid ``start`` into an index whose
    reference mean row length is ``reference`` (``None``: the one this batch sets,
    :func:`stores.bm25_blocks.first_reference`)."""
    rows = analysed_rows(chunks, start)
    ref = reference if reference is not None else first_reference(rows)
    return PreparedChunks(chunk_keys(chunks), start, rows, ref, block_maxima(rows, weights, ref) if rows else {})
