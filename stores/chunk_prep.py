"""What a chunk write computes from the chunks alone, computed ahead (possibly in another process):
each chunk's analysed FTS5 column values (:func:`stores.analyzer.analyze_joined` of its name, fqn and
text) and the batch's BM25 block maxima (:func:`stores.bm25_blocks.block_maxima`).

A chunk write of the embedded store numbers the chunks it inserts from the next free rowid, and the
block maxima depend on those rowids and on the reference mean row length (the index's, or, at its
first write, the batch's own): :class:`ChunkBasis` says what they are when the preparation starts.
The writer (:mod:`indexer.write_prep`) prepares each batch in a forked copy with the rowids it
predicts (each batch starting after the last one's rows) and hands the result to the store
(:meth:`stores.contracts.SearchIndex.offer_prepared`: a call that reads it when the write needs it), which uses it only when the chunks, the first
rowid and the reference length are exactly those it would have used (:meth:`PreparedChunks.matches`):
otherwise it computes them itself, with the same functions, so the index is the same either way.

A preparer in another process may also keep the block maxima it computes (:attr:`PreparedChunks.held`)
and fold them into table rows itself (:class:`FoldedMaxima`): the store then owes the batches whose
maxima it did not compute, says so to the preparer (:meth:`PreparedChunks.settle`, so that only the
batches the store used are folded), writes the folded rows when they come
(:meth:`stores.contracts.SearchIndex.adopt_maxima`) and computes from its stored rows those of any
batch still owed when the transaction commits (the preparer died, stopped, or folded something else).
Backend-neutral: pure functions of their arguments.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from stores.analyzer import analyze_joined
from stores.bm25_blocks import BlockValues, block_maxima, block_values, first_reference
from stores.bm25_pending import FoldedRows
from stores.contracts import Chunk
from stores.embedded_schema import FileText, compress_text, encode_chunk_text

__all__ = ["ChunkBasis", "FoldedMaxima", "PreparedChunks", "prepare_chunks", "analysed_rows", "chunk_keys"]


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

    keys: list[tuple[str, str, str, str, int, int]]
    start: int
    analysed: list[tuple[int, tuple[str, str, str]]]
    reference: float
    maxima: dict[str, dict[int, int]]
    texts: dict[tuple[str, str], bytes] = field(default_factory=dict)
    """``(repo, path) -> stored blob`` of the batch's file texts (:func:`stores.embedded_schema.compress_text`)."""
    encoded: list[tuple[str | None, int | None, int | None, str]] = field(default_factory=list)
    """Each chunk's text as stored against its file's (:func:`stores.embedded_schema.encode_chunk_text`),
    in row order: valid for a chunk whose file's stored blob is the one in :attr:`texts`."""
    held: bool = False
    """Whether the preparer kept :attr:`maxima` (then empty here) to fold them itself: a store that uses
    these rows owes their block maxima until the preparer's :class:`FoldedMaxima` cover them."""
    hook: Callable[[bool], None] | None = field(default=None, compare=False, repr=False)
    """What :meth:`settle` calls, set by the process that received these (not sent with them)."""
    values: BlockValues | None = field(default=None, compare=False, repr=False)
    """The block maxima as flat arrays instead of :attr:`maxima` (then empty), when the preparer asked for
    them (:func:`prepare_chunks` ``as_values``) to hold them itself; :meth:`take_values` hands them over."""

    def take_values(self) -> BlockValues | dict[str, dict[int, int]]:
        """The block maxima (:attr:`values` when set, else :attr:`maxima`), leaving :attr:`values` unset:
        what the preparer keeps when it holds them (:attr:`held`)."""
        values, self.values = self.values, None
        return values if values is not None else self.maxima

    def maxima_dict(self) -> None:
        """Make :attr:`maxima` hold the block maxima as a dict again when they were computed as
        :attr:`values` (before these are sent to a store that computes from :attr:`maxima`)."""
        if self.values is not None:
            self.maxima, self.values = self.values.as_dict(), None

    def settle(self, used: bool) -> None:
        """Tell the preparer, once (later calls do nothing), whether the store used these rows with
        their held block maxima (``True``: the preparer folds them; ``False``: it drops them)."""
        hook, self.hook = self.hook, None
        if hook is not None:
            hook(used)

    def matches(self, chunks: Sequence[Chunk], start: int) -> bool:
        """Whether these were computed for exactly ``chunks`` (same ids, checksums, names, fqns and
        lines, in order) numbered from ``start``."""
        return start == self.start and self.keys == chunk_keys(chunks)



@dataclass(frozen=True, slots=True)
class FoldedMaxima:
    """A slice of the table rows a preparer folded from the block maxima it held (:attr:`PreparedChunks.held`):
    ``covers`` the ``(first rowid, row count)`` of every chunk write whose maxima the fold holds (each
    one the store owes), ``part`` the slice's number in its fold (0 first; the slices of one fold are
    disjoint in keys), ``last`` whether it is the fold's last, ``rows`` the rows themselves."""

    covers: tuple[tuple[int, int], ...]
    part: int
    last: bool
    rows: FoldedRows


def chunk_keys(chunks: Sequence[Chunk]) -> list[tuple[str, str, str, str, int, int]]:
    """``(id, checksum, name, fqn, start line, end line)`` of each chunk: what its analysed values and
    stored form are a function of (``checksum`` is the digest of its text)."""
    return [(c.id, c.checksum, c.name, c.fqn, c.start_line, c.end_line) for c in chunks]


def analysed_rows(chunks: Sequence[Chunk], start: int) -> list[tuple[int, tuple[str, str, str]]]:
    """``(rowid, (name, fqn, text analysed))`` of each chunk, rowids from ``start``: the values a
    chunk's ``chunks_fts`` row is inserted with."""
    return [(start + i, (analyze_joined(c.name), analyze_joined(c.fqn), analyze_joined(c.text)))
            for i, c in enumerate(chunks)]


def prepare_chunks(chunks: Sequence[Chunk], start: int, reference: float | None, weights: Sequence[float],
                   texts: Sequence[tuple[str, str, str, str]] = (), as_values: bool = False) -> PreparedChunks:
    """The analysis and block maxima of ``chunks`` inserted from rowid ``start`` into an index whose
    reference mean row length is ``reference`` (``None``: the one this batch sets,
    :func:`stores.bm25_blocks.first_reference`); with ``texts`` (``(repo, path, checksum, text)`` of
    the files the chunks are cut from) also the files' stored blobs and the chunks' stored form
    against them (a chunk's is used where its file's stored blob is the one prepared). ``as_values``: the
    block maxima as :attr:`PreparedChunks.values` (flat arrays, :func:`stores.bm25_blocks.block_values`)
    when the weights allow, for a preparer that holds them itself (cheaper to compute and to hold)."""
    rows = analysed_rows(chunks, start)
    ref = reference if reference is not None else first_reference(rows)
    values = block_values(rows, weights, ref) if rows and as_values else None
    prep = PreparedChunks(chunk_keys(chunks), start, rows, ref,
                          block_maxima(rows, weights, ref) if rows and values is None else {})
    prep.values = values
    by_file: dict[tuple[str, str], FileText] = {}
    for repo, path, _checksum, text in texts:
        blob = compress_text(text)
        assert blob is not None
        prep.texts[(repo, path)] = blob
        by_file[(repo, path)] = FileText(text)
    if texts:
        prep.encoded = [encode_chunk_text(by_file.get((c.repo, c.file)), c.start_line, c.end_line, c.text)
                        for c in chunks]
    return prep
