"""BM25 block maxima a write transaction holds back, in flat arrays, and folds into their table once.

A run writes its chunks in batches inside one transaction (:meth:`stores.embedded_tx.EmbeddedTransactions.transaction`).
Folding each batch's block maxima (:mod:`stores.bm25_blocks`) into the table at once reads and
rewrites the row of every term of the batch: a term that most batches hold (``self``, ``return``)
has its row rewritten once per batch (a cold Django 5.2.8 write: about 290,000 row rewrites in 24
batches for 170,041 rows at the end). :class:`PendingMaxima` holds them until the transaction
commits (or a search reads the table on the same connection, or it is full) and then writes each
``(term, part)`` row once: the table is the same, since :func:`stores.bm25_blocks.merge` keeps per
block the largest value whatever order the values come in.

Layout. No object per term or per block value is held: each term once as UTF-8 in one
``bytearray`` (numbered in order of arrival), looked up by its ``hash()`` in a sorted ``int64``
array, and every block value as three parallel arrays (term number, block, value) appended per
batch, sorted only when folded: by the terms' table keys (:meth:`PendingMaxima.key_order`,
:func:`stores.bm25_blocks.term_key`), so the rows go into the table in its key order and each insert
lands after the previous one in its B-tree (a cold Django write's 170,041 rows in the order the terms
came cost SQLite about three times the CPU, docs/benchmarks.md session 62; appended in key order, the
table's pages are full). A term whose hash equals an earlier, different term's (not seen in
practice: 64-bit hashes) is numbered through a dict instead, so numbers are exact. Django's 650,000
block values and 170,041 terms take about 15 MiB this way (dicts of dicts, the first try of session
59: about 30 MiB more at the parent's peak, docs/benchmarks.md).
"""

from __future__ import annotations

import json
import sqlite3
from array import array
from collections.abc import Iterator, Mapping
from dataclasses import dataclass
from itertools import chain
from typing import TYPE_CHECKING

from stores.lazy_import import LazyModule
from stores.bm25_blocks import PART_BITS, PART_SHIFT, TABLE, BlockValues, decode_blocks, fold_maxima, merge, term_key

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)

__all__ = ["PENDING_BYTES", "FoldedRows", "PendingMaxima", "write_folded"]

PENDING_BYTES = 16 << 20
"""About the most bytes a :class:`PendingMaxima` holds before it folds what it holds (:meth:`PendingMaxima.held_bytes`:
9 a block value, the UTF-8 and 20 more a term). A cold Django 5.2.8 write holds 14.1 MiB at its end (650,000
block values, 170,041 terms) and folds once; a larger run folds each time it reaches this."""

_FOLD_TERMS = 4_096
"""Terms whose stored rows one statement reads back while folding (the table's ``json_each`` list)."""
_U32 = 1 << 32
_OFFSET_MASK = (1 << PART_SHIFT) - 1
_PART_MASK = (1 << PART_BITS) - 1


class PendingMaxima:
    """Block maxima recorded and not yet folded into the table (see the module docstring). :meth:`add`
    takes a batch's ``{term: {block: quantised maximum}}``; :meth:`flush` folds what is held into
    the table on a connection and forgets it. ``limit``: :meth:`add` folds at once when it holds
    more than about this many bytes (:meth:`held_bytes`)."""

    __slots__ = ("limit", "size", "_text", "_ends", "_keys", "_hashes", "_hash_ids", "_other", "_ids", "_blocks",
                 "_values")

    def __init__(self, limit: int = PENDING_BYTES) -> None:
        self.limit = limit
        self.size = 0
        """Block values added since the last flush (a block two batches share counts twice)."""
        self._clear()

    def _clear(self) -> None:
        self._text = bytearray()  # every term's UTF-8, by number
        self._ends = array("Q")  # where each term's UTF-8 ends in _text
        self._keys = array("q")  # each term's table key (term_key), made when it is numbered
        self._hashes = np.empty(0, dtype=np.int64)  # sorted hash() of the terms numbered by hash
        self._hash_ids = np.empty(0, dtype=np.int32)  # their numbers, in the same order
        self._other: dict[str, int] = {}  # terms whose hash another term has: numbered here
        self._ids: list[np.ndarray] = []  # per batch added: the term number of each block value
        self._blocks: list[np.ndarray] = []  # its block (uint32)
        self._values: list[np.ndarray] = []  # its quantised maximum (uint8)
        self.size = 0

    @property
    def terms(self) -> int:
        """How many distinct terms are held."""
        return len(self._ends)

    def __bool__(self) -> bool:
        return self.size > 0

    def term(self, number: int) -> str:
        """The term numbered ``number`` (``IndexError`` when there is none)."""
        if number < 0:
            raise IndexError(number)
        start = self._ends[number - 1] if number else 0
        return self._text[start:self._ends[number]].decode("utf-8", "surrogatepass")

    def add(self, conn: sqlite3.Connection, maxima: Mapping[str, Mapping[int, int]]) -> None:
        """Hold ``maxima`` (one batch's ``{term: {block: byte}}``, :func:`stores.bm25_blocks.block_maxima`;
        not kept: copied into the arrays; a term without blocks writes no row); fold everything into
        the table on ``conn`` when more than :attr:`limit` bytes are then held. A block outside ``[0, 2**32)`` (rowids past
        2**38, which the table's uint32 blocks cannot hold) is folded at once, raising as
        :func:`stores.bm25_blocks.fold_maxima` does."""
        if not self.hold(maxima):
            self.flush(conn)
            fold_maxima(conn, maxima)
            return
        if self.full():
            self.flush(conn)

    def add_values(self, conn: sqlite3.Connection, values: BlockValues) -> None:
        """:meth:`add` of block maxima given as :class:`stores.bm25_blocks.BlockValues` (:meth:`hold_values`),
        folding alike: at once when a block is outside ``[0, 2**32)`` (raising as
        :func:`stores.bm25_blocks.fold_maxima` does), everything when more than :attr:`limit` bytes are held."""
        if not self.hold_values(values):
            self.flush(conn)
            fold_maxima(conn, values.as_dict())
            return
        if self.full():
            self.flush(conn)

    def hold(self, maxima: Mapping[str, Mapping[int, int]]) -> bool:
        """Hold ``maxima`` as :meth:`add` does, without a connection and without folding when full
        (:meth:`full` says so; :meth:`folds` folds). ``False``, and nothing held, when a block is outside
        ``[0, 2**32)`` (the caller folds those itself); ``True`` otherwise (also when there is no block)."""
        pers = list(maxima.values())
        counts = np.fromiter(map(len, pers), dtype=np.int64, count=len(pers))
        total = int(counts.sum())
        if not total:
            return True
        blocks = np.fromiter(chain.from_iterable(pers), dtype=np.int64, count=total)
        if int(blocks.min()) < 0 or int(blocks.max()) >= _U32:
            return False
        values = np.fromiter(chain.from_iterable(per.values() for per in pers), dtype=np.uint8, count=total)
        self._ids.append(np.repeat(self._numbers(list(maxima)), counts))
        self._blocks.append(blocks.astype(np.uint32))
        self._values.append(values)
        self.size += total
        return True

    def hold_values(self, values: BlockValues) -> bool:
        """:meth:`hold` of block maxima given as :class:`stores.bm25_blocks.BlockValues` (the same values held,
        with no dict per term to read): ``False``, and nothing held, when a block is outside ``[0, 2**32)``."""
        total = len(values)
        if not total:
            return True
        blocks = values.blocks
        if int(blocks.min()) < 0 or int(blocks.max()) >= _U32:
            return False
        self._ids.append(self._numbers(values.terms)[values.numbers])
        self._blocks.append(blocks.astype(np.uint32))
        self._values.append(values.values.astype(np.uint8))
        self.size += total
        return True

    def full(self) -> bool:
        """Whether more than :attr:`limit` bytes are held (:meth:`held_bytes`)."""
        return self.held_bytes() > self.limit

    def _numbers(self, terms: list[str]) -> np.ndarray:
        """Each of ``terms`` (distinct) as its number, numbering those not held yet (int32)."""
        out = np.empty(len(terms), dtype=np.int32)
        hashes = np.fromiter(map(hash, terms), dtype=np.int64, count=len(terms))
        known, ids = self._hashes, self._hash_ids
        if len(known):
            at = np.minimum(np.searchsorted(known, hashes), len(known) - 1)
            hit = known[at] == hashes
        else:
            at = np.zeros(len(terms), dtype=np.int64)
            hit = np.zeros(len(terms), dtype=bool)
        text, ends = self._text, self._ends
        other = self._other
        for i in np.flatnonzero(hit).tolist():  # the same hash: the same term, unless it is another's
            n = int(ids[at[i]])
            if text[ends[n - 1] if n else 0:ends[n]] == terms[i].encode("utf-8", "surrogatepass"):
                out[i] = n
            else:
                out[i] = other[terms[i]] if terms[i] in other else self._new(terms[i], other)
        fresh = np.flatnonzero(~hit)
        if len(fresh):
            new_hashes, first = np.unique(hashes[fresh], return_index=True)
            if len(first) < len(fresh):  # two new terms of one hash: the later ones numbered by dict
                firsts = set(fresh[first].tolist())
                for i in fresh.tolist():
                    if i not in firsts:
                        out[i] = other[terms[i]] if terms[i] in other else self._new(terms[i], other)
            fresh = fresh[first]
            numbers = np.arange(len(ends), len(ends) + len(fresh), dtype=np.int32)
            for i in fresh.tolist():
                text += terms[i].encode("utf-8", "surrogatepass")
                ends.append(len(text))
            self._keys.extend(map(term_key, (terms[i] for i in fresh.tolist())))
            out[fresh] = numbers
            where = np.searchsorted(known, new_hashes)
            self._hashes = np.insert(known, where, new_hashes)
            self._hash_ids = np.insert(ids, where, numbers)
        return out

    def _new(self, term: str, other: dict[str, int]) -> int:
        number = other[term] = len(self._ends)
        self._text += term.encode("utf-8", "surrogatepass")
        self._ends.append(len(self._text))
        self._keys.append(term_key(term))
        return number

    def flush(self, conn: sqlite3.Connection) -> None:
        """Fold what is held into the table on ``conn`` (inside the write's transaction: each row
        merged with :func:`stores.bm25_blocks.merge` and written once) and forget it: :func:`write_folded`
        of each of :meth:`folds`. Stored rows are read back to merge with only when the table holds a row."""
        if not self.size:
            return
        stored = conn.execute(f"SELECT 1 FROM {TABLE} LIMIT 1").fetchone() is not None
        for rows in self.folds():
            write_folded(conn, rows, stored)

    def folds(self) -> Iterator[FoldedRows]:
        """The table rows of what is held, a slice of the terms at a time (bounded copies), in the
        table's key order (:meth:`key_order`: each insert then lands after the previous one in the
        table's B-tree instead of on any of its pages), not merged with stored rows yet; what is held
        is forgotten once the last is given (consume it whole). Terms of one key
        (:func:`stores.bm25_blocks.term_key`) are in one slice, folded into one row per part. Needs no
        connection: a forked process can fold, and :func:`write_folded` write the rows elsewhere."""
        if not self.size:
            return
        order, keys = self.key_order()
        rank = np.empty(len(order), dtype=np.int32)
        rank[order] = np.arange(len(order), dtype=np.int32)
        for ids in self._ids:  # each term number becomes its rank, in place: no second copy of the held arrays
            np.take(rank, ids, out=ids)
        batches = list(zip(self._ids, self._blocks, self._values))
        self._ids, self._blocks, self._values = [], [], []
        del rank, order
        low = 0
        while low < len(keys):  # a slice of the terms at a time: bounded copies
            high = min(low + _FOLD_TERMS, len(keys))
            while high < len(keys) and keys[high] == keys[high - 1]:
                high += 1  # terms of one key in one slice: their rows are merged there
            picked = [(i[m], b[m], v[m]) for i, b, v in batches for m in ((i >= low) & (i < high),)]
            ranks, blocks, values = (np.concatenate(a) for a in zip(*picked))
            del picked
            yield _encode(keys[ranks], blocks, values)
            low = high
        self._clear()

    def key_order(self) -> tuple[np.ndarray, np.ndarray]:
        """``(order, keys)``: the numbers of the held terms (int32) sorted by their table keys
        (:func:`stores.bm25_blocks.term_key`, made as each term was numbered; ties by number), and those
        keys in that order (int64)."""
        keys = np.frombuffer(self._keys, dtype=np.int64) if len(self._keys) else np.empty(0, dtype=np.int64)
        order = np.argsort(keys, kind="stable").astype(np.int32)
        return order, keys[order]

    def held_bytes(self) -> int:
        """How many bytes the held terms and block values take in their arrays: 9 a block value
        (term number, block, value), each term's UTF-8 and 20 more (its end, hash and number)."""
        return len(self._text) + 20 * len(self._ends) + 9 * self.size


@dataclass(frozen=True, slots=True)
class FoldedRows:
    """Rows of the block-max table folded from held block values (:meth:`PendingMaxima.folds`), not
    written yet: ``rows`` holds each as ``(key, blocks, maxima)``, its table key (ascending, distinct),
    its blocks' offsets encoded (:func:`stores.bm25_blocks.encode_offsets`) and their maxima (one byte
    each), the columns the table stores. Plain tuples of ints and bytes: built where they are folded
    (possibly another process), they pickle and unpickle in C, and :func:`write_folded` hands them to
    SQLite as they are when there is no stored row to merge with."""

    rows: list[tuple[int, bytes, bytes]]

    def __len__(self) -> int:
        return len(self.rows)


def _encode(keys: np.ndarray, blocks: np.ndarray, values: np.ndarray) -> FoldedRows:
    """The rows of the block values ``(keys, blocks, values)`` (parallel arrays, any order, repeats
    allowed: a block's largest value counts; ``keys`` the terms' keys), in key order."""
    sort = np.lexsort((blocks, keys))  # by key, then block
    keys, blocks, values = keys[sort], blocks[sort].astype(np.int64), values[sort]
    del sort
    step = np.empty(len(keys), dtype=bool)
    step[0] = True
    np.not_equal(keys[1:], keys[:-1], out=step[1:])
    step[1:] |= blocks[1:] != blocks[:-1]
    starts = np.flatnonzero(step)
    values = np.maximum.reduceat(values, starts)  # a block's largest value
    keys, blocks = keys[starts], blocks[starts]
    del step, starts
    rows = (keys << PART_BITS) | (blocks >> PART_SHIFT)
    edge = np.empty(len(rows) + 1, dtype=bool)
    edge[0] = edge[-1] = True
    np.not_equal(rows[1:], rows[:-1], out=edge[1:-1])
    at = np.flatnonzero(edge)  # each row's run of block values: at[i] to at[i + 1]
    # Every block value's offset in its part as the difference to the previous one of its row (the
    # first to 0), LEB128 (stores.bm25_blocks.encode_offsets), for all rows at once.
    offsets = blocks & _OFFSET_MASK
    d = np.empty(len(offsets), dtype=np.int64)
    d[0] = offsets[0]
    np.subtract(offsets[1:], offsets[:-1], out=d[1:])
    d[at[:-1]] = offsets[at[:-1]]
    two = d >= 128
    ends = np.cumsum(1 + two)  # where each value's bytes end in the stream
    stream = np.empty(int(ends[-1]), dtype=np.uint8)
    first = ends - 1 - two
    stream[first] = (d & 0x7F) | (two.astype(np.int64) << 7)
    stream[first[two] + 1] = d[two] >> 7
    bounds = np.concatenate(([0], ends))[at].tolist()
    cuts = at.tolist()
    stream_bytes, maxima = stream.tobytes(), values.tobytes()
    del d, two, ends, first, offsets, stream, values
    return FoldedRows(list(zip(rows[at[:-1]].tolist(), map(stream_bytes.__getitem__, map(slice, bounds[:-1], bounds[1:])),
                               map(maxima.__getitem__, map(slice, cuts[:-1], cuts[1:])))))


def write_folded(conn: sqlite3.Connection, rows: FoldedRows, stored: bool | None = None) -> None:
    """Write ``rows`` (:meth:`PendingMaxima.folds`) into the table on ``conn`` in key order, each merged
    with its stored row (:func:`stores.bm25_blocks.merge`) when ``stored`` (the table holds rows;
    ``None``: asked here), inside the write's transaction. Folding block values in several parts
    gives the table folding them at once gives (a block keeps its largest value)."""
    if not len(rows):
        return
    if stored is None:
        stored = conn.execute(f"SELECT 1 FROM {TABLE} LIMIT 1").fetchone() is not None
    new = rows.rows
    if stored:
        old = {k: (b, m) for k, b, m in conn.execute(
            f"SELECT key, blocks, maxima FROM {TABLE} WHERE key IN (SELECT value FROM json_each(?))",
            (json.dumps([r[0] for r in new]),))}
        if old:
            new = [r if r[0] not in old else _merged(r, old[r[0]]) for r in new]
    conn.executemany(f"INSERT OR REPLACE INTO {TABLE} (key, blocks, maxima) VALUES (?, ?, ?)", new)


def _merged(row: tuple[int, bytes, bytes], stored: tuple[bytes, bytes]) -> tuple[int, bytes, bytes]:
    """``row`` (``(key, blocks, maxima)``) merged with the row the table stores under its key
    (:func:`stores.bm25_blocks.merge`)."""
    key, blocks, maxima = row
    part = key & _PART_MASK
    return (key, *merge(stored, dict(zip(decode_blocks(blocks, part).tolist(), maxima)), part))
