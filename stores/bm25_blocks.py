"""Block-max bounds for the BM25 cut (:mod:`stores.bm25_cut`): per term, per block of rowids, an upper
bound of what the term adds to a row's FTS5 ``bm25()`` score, kept at write time.

Why. The cut bounds a term's contribution in any row by ``IDF x (k1 + 1)``; at 100,000 chunks the
slowest queries still score 2,000-15,000 rows under that bound, while the rows that reach the top
50 are about 50 (docs/benchmarks.md, "BM25's bound at the tail"). A term's real contribution in a
row is ``IDF x (k1 + 1) x x`` with ``x = f / (f + k1 (1 - b + b D / A))`` (``f`` the row's
column-weighted frequency of the term, ``D`` the row's length in tokens over all columns, ``A`` the
table's mean row length; ``fts5_aux.c``). This module stores, for each term and each block of
:data:`BLOCK_ROWS` consecutive rowids, the largest ``x`` of the term over the block's rows (Ding and
Suel's block-max indexes, SIGIR 2011), so a query can skip every block whose summed block maxima
cannot reach ``theta``.

Storage (schema 8): table ``bm25_maxima (key INTEGER PRIMARY KEY, blocks, maxima)``, one row per term
and part (``part`` = ``block >> PART_SHIFT``: 1,024 blocks, 65,536 rowids, so a write rewrites at most
that much of a common term's row, whatever the index's size). The row's ``key`` is
``term_key(term) << PART_BITS | part`` (:func:`row_key`): :func:`term_key` a 41-bit BLAKE2b digest of
the term's UTF-8, so a term's rows are one range of keys and the table holds no term text (schema 7
keyed each row by the term itself: 5.5 of Django's 12.7 MB). ``blocks``: the sorted blocks of the part
holding the term as their offsets in the part (``block & 1023``), each the difference to the previous
one (the first to 0) as a LEB128 varint (7 bits a byte, low bits first, the high bit set on every byte
but the last: 1 or 2 bytes, as offsets are below 1,024; :func:`encode_offsets`); ``maxima`` one byte per
block, ``ceil(x x 255)`` (a quantised upper bound; :func:`quantise`). Two terms of one key (not met in
practice: 2**41 keys) share its rows, holding the union of their blocks and the larger value per block:
still an upper bound of each term's, so the cut stays exact (it may score a few more rows). Rows are
written in key order by a cold run (:mod:`stores.bm25_pending`), so the table's pages are full: Django's
table takes 4.3 MB (12.7 MB at schema 7; docs/benchmarks.md, session 63). The reference mean
length ``A`` the values were computed with is ``meta`` key :data:`REFERENCE_KEY`, set by the first
write (the first batch's mean row length) or by the migration (the table's mean at that moment).

Why the stored values stay upper bounds as the index changes:

* an insert raises a block's value to the new row's if larger (:func:`merge`), and a rowid reused
  by a new row is such an insert;
* a delete changes no other row's ``f`` or ``D``: the stored maximum over rows that include the
  deleted one is still at least the maximum over those left;
* a chunk row inserted by a writer that records no maxima (a process of the schema-6 code that opened
  the index before another migrated it) marks them stale (:data:`GUARD`): none are read until a
  writable open rebuilds them;
* the table's mean length moves (``A'`` now, ``A`` stored). ``L' = 1 - b + b D / A'``. When
  ``A' < A``, ``L' >= L`` so ``x' = f / (f + k1 L') <= x``: the stored value is still a bound.
  When ``A' > A``, with ``s = A / A' < 1``: ``L' >= s L`` (since ``1 - b >= s (1 - b)``), so
  ``x' <= f / (f + k1 s L) <= x / s`` (multiply out: ``s f + s k1 L <= f + s k1 L``); and ``x' < 1``.
  :func:`scale` gives that factor (``1`` when ``A' <= A``); the bound used is ``min(1, v / s)``.

The IDF is the query's (from the term's current document count, as FTS5 computes it), not stored.
Pure functions plus the table's reads and writes on a given connection; the caller owns the
transaction.
"""

from __future__ import annotations

import hashlib
import itertools
import json
import math
import sqlite3
from collections import Counter
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from stores.lazy_import import LazyModule
from stores.bm25_cut import B, K1

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)

__all__ = ["BLOCK_SHIFT", "FTS5_MAX_TOKEN_BYTES", "STALE_KEY", "WRITER_KEY", "GUARD", "GUARD_NAME", "BLOCK_ROWS", "PART_SHIFT",
           "PART_BITS", "TABLE", "LEGACY_TABLE", "LEGACY_GUARD", "REFERENCE_KEY", "CREATE_TABLE", "row_ratios", "quantise",
           "block_maxima", "block_values", "BlockValues", "merge", "first_reference", "record_rows", "rows_maxima", "rows_reference", "fold_maxima", "read_bounds", "scale",
           "sqlite_varints", "fts_averages", "block_bounds", "passing_blocks", "best_blocks", "has_table", "term_key",
           "row_key", "encode_offsets", "decode_blocks", "term_rows"]

BLOCK_SHIFT = 6
"""Blocks are ``rowid >> BLOCK_SHIFT``: 64 rowids (bench/bm25_bounds.py: 64 kept the fewest rows)."""
BLOCK_ROWS = 1 << BLOCK_SHIFT
PART_SHIFT = 10
"""A table row holds the blocks ``b`` of one term with the same ``b >> PART_SHIFT`` (at most 1,024)."""
PART_BITS = 22
"""Bits of a row key holding the part: blocks are below 2**32 (rowids below 2**38), so parts below 2**22."""
_KEY_BITS = 41
"""Bits of :func:`term_key`: a row key ``term_key << PART_BITS | part`` is below 2**63 (SQLite's rowids)."""
TABLE = "bm25_maxima"
LEGACY_TABLE = "bm25_blocks"
"""Schema 7's table of the block maxima (keyed by the term's text, blocks as uint32): the migration to 8
drops it (:mod:`stores.embedded_migrate`)."""
LEGACY_GUARD = "bm25_blocks_guard"
"""Schema 7's guard trigger (its writers' mark is another key): the migration to 8 drops it."""
REFERENCE_KEY = "bm25_blocks_avgdl"
"""``meta`` key of the reference mean row length the stored values were computed with (a float as text)."""
CREATE_TABLE = f"CREATE TABLE {TABLE} (key INTEGER PRIMARY KEY, blocks BLOB NOT NULL, maxima BLOB NOT NULL)"
FTS5_MAX_TOKEN_BYTES = 32_768
"""FTS5 keeps the first this many bytes of a token (``FTS5_MAX_TOKEN_SIZE``, fts5Int.h), in the index and in a
query: longer tokens sharing them are one FTS5 term, while this table keys each whole token."""
STALE_KEY = "bm25_blocks_stale"
"""``meta`` key set (by :data:`GUARD`) when chunk rows were written without their block maxima: reads use
none until a writable open rebuilds them (:func:`stores.embedded_migrate.ensure_current`)."""
WRITER_KEY = "bm25_maxima_writer"
"""``meta`` key this code's chunk writes hold while they insert chunk rows (set and deleted in the write's
transaction, never committed): :data:`GUARD` tells them from writes of a process that records no maxima
(schema 7's writers set ``bm25_blocks_writer``: a process of that code still running after the migration to
8 marks the maxima stale)."""
GUARD_NAME = "bm25_maxima_guard"
GUARD = (f"CREATE TRIGGER IF NOT EXISTS {GUARD_NAME} BEFORE INSERT ON chunk_rows"
         f" WHEN NOT EXISTS (SELECT 1 FROM meta WHERE key = '{WRITER_KEY}')"
         f" BEGIN INSERT OR REPLACE INTO meta (key, value) VALUES ('{STALE_KEY}', '1'); END")
"""A chunk row inserted without :data:`WRITER_KEY` (by the schema-6 code of a process that opened the
index before another migrated it, of the schema-7 code, or by raw SQL) marks the block maxima stale."""
_QUANTA = 255
_ROW_PART = BLOCK_SHIFT + PART_SHIFT  # a rowid's part: rowid >> _ROW_PART
_PART_MASK = (1 << PART_BITS) - 1
_OFFSET_MASK = (1 << PART_SHIFT) - 1
_ROUNDING = 1e-9  # relative margin added before rounding up, so float rounding never lowers a bound
_JSON = "SELECT value FROM json_each(?)"


def row_ratios(columns: Sequence[str], weights: Sequence[float], avgdl: float) -> dict[str, float]:
    """Per FTS token of one row, ``x = f / (f + k1 (1 - b + b D / avgdl))``: ``columns`` the row's
    analysed column values (space-separated tokens, as inserted into ``chunks_fts``: FTS5's
    ``unicode61`` tokenizer with the analyzer's token characters splits them at the spaces only),
    ``weights`` the ``bm25()`` column weights, ``f`` the weighted count of the token over the columns,
    ``D`` the row's token count over all columns. ``avgdl > 0``. Values in ``(0, 1)``."""
    freq: Counter[str] | None = None
    length = 0
    for value, weight in sorted(zip(columns, weights), key=lambda cw: -len(cw[0] or "")):  # longest first
        if value:
            tokens = value.split()
            length += len(tokens)
            counts = Counter(tokens)  # counted in C
            if freq is None:
                freq = counts if weight == 1 else Counter({t: n * weight for t, n in counts.items()})
            else:
                for t, n in counts.items():
                    freq[t] += n * weight
    if freq is None:
        return {}
    norm = K1 * (1 - B + B * length / avgdl)
    return {t: f / (f + norm) for t, f in freq.items()}


def quantise(x: float) -> int:
    """``x`` in ``[0, 1]`` as the smallest byte ``q`` with ``q / 255 >= x`` (with a relative margin
    of 1e-9 for rounding), capped at 255."""
    return min(_QUANTA, math.ceil(x * _QUANTA * (1 + _ROUNDING)))


def block_maxima(rows: Iterable[tuple[int, Sequence[str]]], weights: Sequence[float],
                 avgdl: float) -> dict[str, dict[int, int]]:
    """``{term: {block: quantised max x}}`` over ``rows`` (``(rowid, analysed column values)``), see
    :func:`row_ratios` and :func:`quantise`. Whole weights (``bm25()``'s are 3, 2, 1) take
    :func:`_whole_weight_maxima`, the same values counted in C; others a :func:`row_ratios` per row."""
    repeats = _repeats(weights)
    if repeats is not None:
        return _whole_weight_maxima(rows, repeats, avgdl)
    out: dict[str, dict[int, int]] = {}
    up = _QUANTA * (1 + _ROUNDING)
    ceil = math.ceil
    for rowid, columns in rows:
        block = rowid >> BLOCK_SHIFT
        for term, x in row_ratios(columns, weights, avgdl).items():
            q = min(_QUANTA, ceil(x * up))  # quantise(x), inline: this loop runs per token of every write
            per = out.get(term)
            if per is None:
                out[term] = {block: q}
            elif q > per.get(block, 0):
                per[block] = q
    return out


def _repeats(weights: Sequence[float]) -> tuple[int, ...] | None:
    """``weights`` as whole repeat counts (1 to 64), or ``None`` when one is not."""
    out = []
    for w in weights:
        if not 1 <= w <= 64 or w != int(w):
            return None
        out.append(int(w))
    return tuple(out)


def _whole_weight_maxima(rows: Iterable[tuple[int, Sequence[str]]], repeats: Sequence[int],
                         avgdl: float) -> dict[str, dict[int, int]]:
    """:func:`block_maxima` for whole weights, equal to it value for value: :func:`block_values` as a dict."""
    return _whole_values(rows, repeats, avgdl).as_dict()


@dataclass(frozen=True, slots=True, eq=False)  # arrays: no elementwise ==
class BlockValues:
    """The block maxima of :func:`block_maxima` as flat arrays, one entry per term and block: ``terms`` the
    distinct terms (no term without an entry), ``numbers`` each entry's term as its index in ``terms``
    (``int64``), ``blocks`` its block (``int64``), ``values`` its quantised maximum (``uint8``); sorted by
    number, then block. What :meth:`stores.bm25_pending.PendingMaxima.hold_values` takes without a dict
    per term."""

    terms: list[str]
    numbers: np.ndarray
    blocks: np.ndarray
    values: np.ndarray

    def __len__(self) -> int:
        return len(self.values)

    def as_dict(self) -> dict[str, dict[int, int]]:
        """``{term: {block: byte}}``, :func:`block_maxima`'s form."""
        out: dict[str, dict[int, int]] = {}
        terms = self.terms
        for n, block, q in zip(self.numbers.tolist(), self.blocks.tolist(), self.values.tolist()):
            per = out.get(terms[n])
            if per is None:
                out[terms[n]] = {block: q}
            else:
                per[block] = q
        return out


def block_values(rows: Iterable[tuple[int, Sequence[str]]], weights: Sequence[float],
                 avgdl: float) -> BlockValues | None:
    """:func:`block_maxima` of ``rows`` as :class:`BlockValues` (the same values), or ``None`` when a
    weight is not a whole number from 1 to 64 (then only :func:`block_maxima` computes them)."""
    repeats = _repeats(weights)
    return None if repeats is None else _whole_values(rows, repeats, avgdl)


def _whole_values(rows: Iterable[tuple[int, Sequence[str]]], repeats: Sequence[int], avgdl: float) -> BlockValues:
    """:func:`block_values` for whole weights. Per row, one ``Counter`` over its columns' tokens, each
    column's repeated its weight's times (whole numbers: the sums are exact in floats), gives each distinct
    term's weighted frequency ``f``; the rows' ``(term, f)`` pairs are appended to flat lists (in C), each
    term numbered once through a dict, and ``q = min(255, ceil(f / (f + norm) x 255 (1 + 1e-9)))`` is
    computed for all pairs at once in ``float64`` (the same IEEE operations as :func:`quantise`, so the same
    bytes). One sort of ``(number, block, q)`` packed in an ``int64`` then leaves each term and block's
    largest ``q`` last in its run."""
    up = _QUANTA * (1 + _ROUNDING)
    terms: list[str] = []  # each row's distinct terms, row after row
    freqs: list[int] = []  # their weighted frequencies
    norms: list[float] = []  # per row with tokens: k1 (1 - b + b D / avgdl)
    sizes: list[int] = []  # per row with tokens: its distinct terms
    row_blocks: list[int] = []
    for rowid, columns in rows:
        tokens: list[str] = []
        length = 0
        for value, n in zip(columns, repeats):
            if value:
                split = value.split()
                length += len(split)
                tokens += split * n if n != 1 else split
        if not tokens:
            continue
        counts = Counter(tokens)  # counted in C
        terms += counts
        freqs += counts.values()
        norms.append(K1 * (1 - B + B * length / avgdl))
        sizes.append(len(counts))
        row_blocks.append(rowid >> BLOCK_SHIFT)
    if not terms:
        empty = np.empty(0, dtype=np.int64)
        return BlockValues([], empty, empty, np.empty(0, dtype=np.uint8))
    vocab: dict[str, int] = {}
    # Each term's first pair's position: increasing in first arrival, so a rank among the vocabulary's values.
    first = np.fromiter(map(vocab.setdefault, terms, itertools.count()), dtype=np.int64, count=len(terms))
    f = np.array(freqs, dtype=np.float64)
    count = np.array(sizes, dtype=np.int64)
    q = np.minimum(_QUANTA, np.ceil(f / (f + np.repeat(np.array(norms, dtype=np.float64), count)) * up)).astype(np.int64)
    distinct, rank = np.unique(np.array(row_blocks, dtype=np.int64), return_inverse=True)
    rank = np.repeat(rank.astype(np.int64), count)
    span = len(distinct)
    del f, count
    if len(terms) * span < 1 << 54:  # packed: (first position, block rank, q) in one int64
        packed = (first * span + rank) << 8 | q
        packed.sort()
        run = packed >> 8
        last = np.empty(len(packed), dtype=bool)
        last[-1] = True
        np.not_equal(run[1:], run[:-1], out=last[:-1])
        packed = packed[last]
        run = packed >> 8
        first, rank, q = run // span, run % span, packed & 0xFF
    else:  # too many for one int64 (not met: a batch's rows are a few thousand)
        order = np.lexsort((q, rank, first))
        first, rank, q = first[order], rank[order], q[order]
        last = np.empty(len(q), dtype=bool)
        last[-1] = True
        last[:-1] = (first[1:] != first[:-1]) | (rank[1:] != rank[:-1])
        first, rank, q = first[last], rank[last], q[last]
    starts = np.fromiter(vocab.values(), dtype=np.int64, count=len(vocab))  # ascending
    return BlockValues(list(vocab), np.searchsorted(starts, first), distinct[rank], q.astype(np.uint8))


def term_key(term: str) -> int:
    """The 41-bit key of ``term`` (its UTF-8, lone surrogates kept): the first 6 bytes of its BLAKE2b
    digest, big-endian, less the 7 low bits. Stable across processes (unlike ``hash()``)."""
    digest = hashlib.blake2b(term.encode("utf-8", "surrogatepass"), digest_size=6).digest()
    return int.from_bytes(digest, "big") >> (48 - _KEY_BITS)


def row_key(term: str, part: int) -> int:
    """The table key of ``term``'s row of part ``part`` (``0 <= part < 2**22``): ``term_key << 22 | part``."""
    return (term_key(term) << PART_BITS) | part


def encode_offsets(offsets: np.ndarray) -> bytes:
    """The ``blocks`` blob of one row: ``offsets`` (sorted, distinct, each below 1,024: blocks less their
    part's first) as LEB128 varints of their differences (the first's to 0), 1 or 2 bytes each."""
    d = np.diff(np.asarray(offsets, dtype=np.int64), prepend=0)
    two = d >= 128
    at = np.arange(len(d)) + np.cumsum(two) - two  # where each value's first byte goes
    out = np.empty(len(d) + int(two.sum()), dtype=np.uint8)
    out[at] = (d & 0x7F) | (two.astype(np.int64) << 7)
    out[at[two] + 1] = d[two] >> 7
    return out.tobytes()


def decode_blocks(blob: bytes, part: int) -> np.ndarray:
    """The blocks (``int64``, ascending) of a row of part ``part`` whose ``blocks`` blob is ``blob``
    (:func:`encode_offsets`). Raises ``ValueError`` for a blob that is not such varints (truncated, or
    a value of more than 2 bytes)."""
    data = np.frombuffer(blob, dtype=np.uint8)
    if not len(data):
        return np.empty(0, dtype=np.int64)
    more = data >= 0x80
    first = np.ones(len(data), dtype=bool)
    first[1:] = ~more[:-1]
    if more[-1] or (more[1:] & more[:-1]).any():
        raise ValueError("damaged BM25 block list (a varint truncated or longer than 2 bytes)")
    at = np.flatnonzero(first)
    d = (data[at] & 0x7F).astype(np.int64)
    two = more[at]
    d[two] += data[at[two] + 1].astype(np.int64) << 7
    return np.cumsum(d) + (part << PART_SHIFT)


def merge(old: tuple[bytes, bytes] | None, new: Mapping[int, int], part: int) -> tuple[bytes, bytes]:
    """The stored ``(blocks, maxima)`` blobs of one row of part ``part`` (``old``, or ``None``) with
    ``new`` (``{block: byte}``, blocks of that part) folded in: the union of the blocks, the larger
    value where both have one."""
    if old is not None:
        merged = dict(zip(decode_blocks(old[0], part).tolist(), old[1]))
        for block, q in new.items():
            if q > merged.get(block, 0):
                merged[block] = q
        new = merged
    blocks = sorted(new)
    return encode_offsets(np.array(blocks, dtype=np.int64) & _OFFSET_MASK), bytes(map(new.__getitem__, blocks))


def has_table(conn: sqlite3.Connection) -> bool:
    """Whether the index on ``conn`` has the block-max table (schema 8; a schema-6 or 7 index read without
    migration has not)."""
    return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", (TABLE,)).fetchone() is not None


def first_reference(rows: Sequence[tuple[int, Sequence[str]]]) -> float:
    """The reference mean row length a first write of ``rows`` (``(rowid, analysed columns)``, not
    empty) sets: their mean token count over all columns, at least 1."""
    total = sum(len(v.split()) for _, cols in rows for v in cols if v)
    return max(1.0, total / len(rows))


def record_rows(conn: sqlite3.Connection, rows: Sequence[tuple[int, Sequence[str]]],
                weights: Sequence[float], prepared: tuple[float, dict[str, dict[int, int]]] | None = None) -> None:
    """Fold ``rows`` (``(rowid, analysed name, fqn, text)`` as inserted into ``chunks_fts``) into
    the block-max table on ``conn``: :func:`fold_maxima` of :func:`rows_maxima`. Call inside the
    write's transaction."""
    maxima = rows_maxima(conn, rows, weights, prepared)
    if maxima is not None:
        low, high = min(r[0] for r in rows) >> _ROW_PART, max(r[0] for r in rows) >> _ROW_PART
        fold_maxima(conn, maxima, low if low == high else None)


def rows_maxima(conn: sqlite3.Connection, rows: Sequence[tuple[int, Sequence[str]]],
                weights: Sequence[float], prepared: tuple[float, dict[str, dict[int, int]]] | None = None,
                as_values: bool = False) -> dict[str, dict[int, int]] | BlockValues | None:
    """The block maxima of ``rows`` (``(rowid, analysed name, fqn, text)`` as inserted into
    ``chunks_fts``) that the block-max table on ``conn`` takes (``{term: {block: byte}}``, at the
    reference mean length it has); sets that reference (``meta``) at the first write, to the mean
    token count of these rows. ``None`` when there are no rows or the index has no such table (a
    schema-6 index another process was migrating when this connection opened,
    :mod:`stores.embedded_migrate`: its reads use no block maxima, and a migration counts every row
    there is when it runs). Call inside the write's transaction. ``prepared``: ``(reference,
    maxima)``, :func:`block_maxima` of these ``rows`` computed ahead with that reference length;
    returned when it is the one the index has (or sets), else computed here: with ``as_values`` as
    :class:`BlockValues` when the weights allow (:func:`block_values`, the same values)."""
    avgdl = rows_reference(conn, rows)
    if avgdl is None:
        return None
    if prepared is not None and prepared[0] == avgdl:
        return prepared[1]
    values = block_values(rows, weights, avgdl) if as_values else None
    return values if values is not None else block_maxima(rows, weights, avgdl)


def rows_reference(conn: sqlite3.Connection, rows: Sequence[tuple[int, Sequence[str]]]) -> float | None:
    """The reference mean row length the block maxima of ``rows`` are computed with (:func:`rows_maxima`):
    the index's, set (``meta``) at its first write to :func:`first_reference` of these rows. ``None``
    when there are no rows or the index has no block-max table. Call inside the write's transaction."""
    if not rows or not has_table(conn):
        return None
    ref = conn.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()
    if ref is None:
        avgdl = first_reference(rows)
        conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (REFERENCE_KEY, repr(avgdl)))
        return avgdl
    return float(ref[0])


def fold_maxima(conn: sqlite3.Connection, maxima: Mapping[str, Mapping[int, int]], part: int | None = None) -> None:
    """Merge ``maxima`` (``{term: {block: byte}}``) into the table's rows on ``conn`` (:func:`merge`:
    the union of the blocks, the larger value where both have one; terms of one key merged alike): each
    row is read and written again, in key order. ``part``: the one part (``block >> PART_SHIFT``) every
    block is in, when the caller knows it. Raises ``ValueError`` for a block outside ``[0, 2**32)``."""
    if part is not None and not 0 <= part <= _PART_MASK:
        raise ValueError(f"part {part} outside [0, 2**22): rowids past 2**38")
    rows: dict[int, dict[int, int]] = {}
    for term, per in maxima.items():
        base = term_key(term) << PART_BITS
        if part is not None:  # every row in one part (a batch of a store under 65,536 chunks): no regrouping
            have = rows.get(base | part)
            if have is None:
                rows[base | part] = dict(per)
                continue
            per = {b: max(q, have.get(b, 0)) for b, q in per.items()}
            have.update(per)
            continue
        for block, q in per.items():
            if not 0 <= block < 1 << 32:
                raise ValueError(f"block {block} outside [0, 2**32): rowids past 2**38")
            have = rows.setdefault(base | (block >> PART_SHIFT), {})
            if q > have.get(block, 0):
                have[block] = q
    keys = sorted(rows)
    old: dict[int, tuple[bytes, bytes]] = {}
    for i in range(0, len(keys), 20_000):
        old.update((k, (b, m)) for k, b, m in conn.execute(
            f"SELECT key, blocks, maxima FROM {TABLE} WHERE key IN ({_JSON})", (json.dumps(keys[i:i + 20_000]),)))
    conn.executemany(f"INSERT OR REPLACE INTO {TABLE} (key, blocks, maxima) VALUES (?, ?, ?)",
                     [(k, *merge(old.get(k), rows[k], k & _PART_MASK)) for k in keys])


def read_bounds(conn: sqlite3.Connection, terms: Sequence[str]) -> tuple[float, dict[str, tuple[np.ndarray, np.ndarray]]] | None:
    """``(reference mean length, {term: (blocks int64, maxima uint8)})`` for ``terms`` on ``conn``
    (a term without a row is absent: it is in no row); ``None`` when the index has no block-max
    table or no reference (nothing written since it was made), when they are stale
    (:data:`STALE_KEY`), and when a term is :data:`FTS5_MAX_TOKEN_BYTES` long or longer: FTS5 matches
    its first that many bytes, so it also matches rows of other tokens that the rows of this table,
    keyed by the whole token, do not cover. Raises ``ValueError`` for a damaged row (:func:`decode_blocks`, or
    not as many maxima as blocks)."""
    if any(len(t.encode("utf-8", "surrogatepass")) >= FTS5_MAX_TOKEN_BYTES for t in terms):
        return None
    try:
        keys = dict(conn.execute("SELECT key, value FROM meta WHERE key IN (?, ?)", (REFERENCE_KEY, STALE_KEY)))
    except sqlite3.OperationalError:
        return None
    ref = keys.get(REFERENCE_KEY)
    if ref is None or STALE_KEY in keys or not has_table(conn):
        return None
    found: dict[str, tuple[np.ndarray, np.ndarray]] = {}
    for t in dict.fromkeys(terms):
        base = term_key(t) << PART_BITS
        rows = conn.execute(f"SELECT key, blocks, maxima FROM {TABLE} WHERE key BETWEEN ? AND ? ORDER BY key",
                            (base, base | _PART_MASK)).fetchall()
        if rows:
            found[t] = (np.concatenate([decode_blocks(b, k & _PART_MASK) for k, b, _ in rows]),
                        np.frombuffer(b"".join(m for _, _, m in rows), dtype=np.uint8))
            if len(found[t][0]) != len(found[t][1]):
                raise ValueError(f"damaged BM25 block maxima of {t!r} (as many blocks as maxima expected)")
    return float(ref), found


def term_rows(conn: sqlite3.Connection, terms: Iterable[str]) -> list[tuple[str, int, list[int], list[int]]]:
    """The table's rows of ``terms`` on ``conn`` as ``(term, part, blocks, maxima)`` (blocks absolute),
    by term and part: the table read back through its keys (tests, tools). A row two terms share (one
    key) is listed under each."""
    out = []
    for t in sorted(set(terms)):
        base = term_key(t) << PART_BITS
        for k, b, m in conn.execute(f"SELECT key, blocks, maxima FROM {TABLE} WHERE key BETWEEN ? AND ? ORDER BY key",
                                    (base, base | _PART_MASK)):
            out.append((t, k & _PART_MASK, decode_blocks(b, k & _PART_MASK).tolist(), list(m)))
    return out


def sqlite_varints(blob: bytes) -> list[int]:
    """The SQLite varints of ``blob`` in order (1 to 9 bytes each, big-endian, 7 bits a byte and all
    8 of a ninth: the format of FTS5's ``%_docsize`` and averages records, sqlite.org/fileformat2.html).
    Raises ``ValueError`` when the last one is truncated."""
    values: list[int] = []
    i = 0
    while i < len(blob):
        value = 0
        for j in range(9):
            if i >= len(blob):
                raise ValueError("truncated SQLite varint")
            byte = blob[i]
            i += 1
            if j == 8:
                value = (value << 8) | byte
                break
            value = (value << 7) | (byte & 0x7F)
            if not byte & 0x80:
                break
        values.append(value)
    return values


def fts_averages(record: bytes) -> tuple[int, int]:
    """``(rows, tokens)`` of FTS5's averages record (``%_data`` row 1: SQLite varints, the row count
    then each column's token total; ``tokens`` their sum). Raises ``ValueError`` when truncated or empty."""
    values = sqlite_varints(record)
    if not values:
        raise ValueError("empty FTS5 averages record")
    return values[0], sum(values[1:])


def scale(reference: float, avgdl: float) -> float:
    """``s = reference / avgdl`` when the mean row length grew past the reference, else 1: stored
    values divided by ``s`` (and capped at 1) are bounds at ``avgdl`` (module docstring)."""
    return reference / avgdl if avgdl > reference else 1.0


def block_bounds(bounds: Mapping[str, tuple[np.ndarray, np.ndarray]], term_bounds: Mapping[str, float],
                 s: float) -> tuple[np.ndarray, np.ndarray]:
    """``(blocks, maxima)``: the blocks holding any of the terms (sorted ``int64``) and, for each, the
    most a row of it can score: per term ``term_bounds[t]`` (its ``IDF x (k1 + 1)``) times
    ``min(1, stored / 255 / s)``, summed over the terms the block holds. Terms missing from
    ``bounds`` hold no block. ``s`` from :func:`scale`."""
    top = max((int(b[-1]) for b, _ in bounds.values() if len(b)), default=-1) + 1
    sums = np.zeros(top)
    held = np.zeros(top, dtype=bool)
    for term, (blocks, maxima) in bounds.items():
        if len(blocks):
            sums[blocks] += term_bounds[term] * np.minimum(1.0, maxima / (_QUANTA * s))
            held[blocks] = True
    ids = np.flatnonzero(held)
    return ids, sums[ids]


def passing_blocks(blocks: np.ndarray, maxima: np.ndarray, theta: float) -> np.ndarray:
    """The ``blocks`` whose ``maxima`` (from :func:`block_bounds`) reach ``theta``: every row of the
    others scores below ``theta``."""
    return blocks[maxima >= theta]


def best_blocks(blocks: np.ndarray, maxima: np.ndarray, count: int) -> np.ndarray:
    """The ``count`` blocks of highest ``maxima`` (ties: the lower block), sorted by block: where a
    probe of the full query finds its ``theta`` (Ding and Suel's block-max order)."""
    order = np.lexsort((blocks, -maxima))[:count]
    return np.sort(blocks[order])
