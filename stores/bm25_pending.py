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
batch, sorted only when folded: by the terms' bytes (:meth:`PendingMaxima.byte_order`, a radix sort
in numpy), so the rows go into the table in its key order and each insert lands beside the previous
one in its B-tree (a cold Django write's 170,041 rows in the order the terms came cost SQLite about
three times the CPU, docs/benchmarks.md session 62). A term whose hash equals an earlier, different term's (not seen in
practice: 64-bit hashes) is numbered through a dict instead, so numbers are exact. Django's 650,000
block values and 170,041 terms take about 15 MiB this way (dicts of dicts, the first try of session
59: about 30 MiB more at the parent's peak, docs/benchmarks.md).
"""

from __future__ import annotations

import json
import sqlite3
from array import array
from collections.abc import Iterator, Mapping
from itertools import chain
from typing import TYPE_CHECKING

from stores.lazy_import import LazyModule
from stores.bm25_blocks import PART_SHIFT, TABLE, fold_maxima, merge

if TYPE_CHECKING:
    import numpy as np
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)

__all__ = ["PENDING_BYTES", "PendingMaxima"]

PENDING_BYTES = 16 << 20
"""About the most bytes a :class:`PendingMaxima` holds before it folds what it holds (:meth:`PendingMaxima.held_bytes`:
9 a block value, the UTF-8 and 20 more a term). A cold Django 5.2.8 write holds 14.1 MiB at its end (650,000
block values, 170,041 terms) and folds once; a larger run folds each time it reaches this."""

_FOLD_TERMS = 4_096
"""Terms whose stored rows one statement reads back while folding (the table's ``json_each`` list)."""
_U32 = 1 << 32
_WORD_TERMS = 16_384
"""Terms whose next 8 bytes :meth:`PendingMaxima.byte_order` reads at a time (its temporaries' size)."""


class PendingMaxima:
    """Block maxima recorded and not yet folded into the table (see the module docstring). :meth:`add`
    takes a batch's ``{term: {block: quantised maximum}}``; :meth:`flush` folds what is held into
    the table on a connection and forgets it. ``limit``: :meth:`add` folds at once when it holds
    more than about this many bytes (:meth:`held_bytes`)."""

    __slots__ = ("limit", "size", "_text", "_ends", "_hashes", "_hash_ids", "_other", "_ids", "_blocks", "_values")

    def __init__(self, limit: int = PENDING_BYTES) -> None:
        self.limit = limit
        self.size = 0
        """Block values added since the last flush (a block two batches share counts twice)."""
        self._clear()

    def _clear(self) -> None:
        self._text = bytearray()  # every term's UTF-8, by number
        self._ends = array("Q")  # where each term's UTF-8 ends in _text
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
        pers = list(maxima.values())
        counts = np.fromiter(map(len, pers), dtype=np.int64, count=len(pers))
        total = int(counts.sum())
        if not total:
            return
        blocks = np.fromiter(chain.from_iterable(pers), dtype=np.int64, count=total)
        if int(blocks.min()) < 0 or int(blocks.max()) >= _U32:
            self.flush(conn)
            fold_maxima(conn, maxima)
            return
        values = np.fromiter(chain.from_iterable(per.values() for per in pers), dtype=np.uint8, count=total)
        self._ids.append(np.repeat(self._numbers(list(maxima)), counts))
        self._blocks.append(blocks.astype(np.uint32))
        self._values.append(values)
        self.size += total
        if self.held_bytes() > self.limit:
            self.flush(conn)

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
            out[fresh] = numbers
            where = np.searchsorted(known, new_hashes)
            self._hashes = np.insert(known, where, new_hashes)
            self._hash_ids = np.insert(ids, where, numbers)
        return out

    def _new(self, term: str, other: dict[str, int]) -> int:
        number = other[term] = len(self._ends)
        self._text += term.encode("utf-8", "surrogatepass")
        self._ends.append(len(self._text))
        return number

    def flush(self, conn: sqlite3.Connection) -> None:
        """Fold what is held into the table on ``conn`` (inside the write's transaction: each
        ``(term, part)`` row merged with :func:`stores.bm25_blocks.merge` and written once) and forget
        it. The rows are written in the table's key order (:meth:`byte_order`), so each insert lands
        beside the previous one in the table's B-tree instead of on any of its pages; stored rows are
        read back to merge with only when the table holds a row."""
        if not self.size:
            return
        order = self.byte_order()
        rank = np.empty(len(order), dtype=np.int32)
        rank[order] = np.arange(len(order), dtype=np.int32)
        for ids in self._ids:  # each term number becomes its rank, in place: no second copy of the held arrays
            np.take(rank, ids, out=ids)
        batches = list(zip(self._ids, self._blocks, self._values))
        self._ids, self._blocks, self._values = [], [], []
        del rank
        stored = conn.execute(f"SELECT 1 FROM {TABLE} LIMIT 1").fetchone() is not None
        for low in range(0, len(order), _FOLD_TERMS):  # a slice of the terms at a time: bounded copies
            high = low + _FOLD_TERMS
            picked = [(i[m], b[m], v[m]) for i, b, v in batches for m in ((i >= low) & (i < high),)]
            ranks, blocks, values = (np.concatenate(a) for a in zip(*picked))
            del picked
            self._fold(conn, ranks, blocks, values, order, stored)
        self._clear()

    def byte_order(self) -> np.ndarray:
        """The numbers of the held terms (int32) sorted by the terms' UTF-8 bytes: the order of the
        table's ``term`` key (SQLite's ``BINARY`` collation compares text with ``memcmp``, the shorter
        first when one is the other's prefix). A radix sort on 8 bytes at a time read as big-endian
        integers (a term past its end padded with zero bytes), in numpy and without a string per term:
        the first 8 bytes order all terms, the next 8 only the runs of terms equal so far, and so on;
        terms still equal when every byte is read differ in length only (trailing zero bytes). Its
        arrays take about 45 bytes a term at once (Django's 170,041 terms: 7.7 MiB traced)."""
        count = len(self._ends)
        offset = np.int64 if len(self._text) >= 1 << 31 else np.int32
        ends = np.frombuffer(self._ends, dtype=np.uint64).astype(offset)
        starts = np.zeros(count, dtype=offset)
        starts[1:] = ends[:-1]
        data = np.frombuffer(self._text, dtype=np.uint8)  # a view: nothing is added to the terms while it lives

        def word(numbers: np.ndarray, depth: int) -> np.ndarray:  # bytes 8*depth.. of each term, big-endian
            key = np.zeros(len(numbers), dtype=np.uint64)
            for low in range(0, len(numbers), _WORD_TERMS):  # a slice at a time: small temporaries
                part = numbers[low:low + _WORD_TERMS]
                at, last, out = starts[part] + 8 * depth, ends[part], key[low:low + _WORD_TERMS]
                for _ in range(8):
                    out <<= np.uint64(8)
                    out |= np.where(at < last, data[np.minimum(at, len(data) - 1)], 0).astype(np.uint64)
                    at += 1
            return key

        order = np.arange(count, dtype=np.int32)
        group = np.zeros(count, dtype=np.int32)  # places holding terms equal so far share a group
        tied = order.copy()  # places whose term may still equal a neighbour's
        depth = 0
        while len(tied):
            numbers = order[tied] if depth else order
            key = word(numbers, depth)
            if depth:  # groups are ascending by place: each stays in its places
                sort = np.lexsort((key, group[tied]))
                groups = group[tied][sort]
                key = key[sort]
            else:  # one group: the first 8 bytes alone, the keys sorted in place
                sort = np.argsort(key, kind="stable")
                groups = group
                key.sort()
            numbers = numbers[sort]
            del sort
            order[tied] = numbers
            new = np.empty(len(tied), dtype=bool)
            new[0] = True
            new[1:] = (groups[1:] != groups[:-1]) | (key[1:] != key[:-1])
            del key
            groups = tied[np.flatnonzero(new)][np.cumsum(new, dtype=np.int32) - 1]  # a group named by its first place
            group[tied] = groups
            same = np.zeros(len(tied), dtype=bool)
            same[1:] = groups[1:] == groups[:-1]
            same[:-1] |= same[1:]
            depth += 1
            left = numbers[same]
            tied = tied[same]
            if len(tied) and 8 * depth >= int((ends[left] - starts[left]).max()):  # all read: they differ in length
                sort = np.lexsort((ends[left] - starts[left], group[tied]))
                order[tied] = left[sort]
                break
        return order

    def _fold(self, conn: sqlite3.Connection, ranks: np.ndarray, blocks: np.ndarray, values: np.ndarray,
              order: np.ndarray, stored: bool) -> None:
        """Write the rows of the block values ``(ranks, blocks, values)`` (parallel arrays, any order,
        repeats allowed: a block's largest value counts; a rank is a term's place in ``order``, the
        term numbers in key order) in key order, each merged with its stored row when ``stored`` (the
        table holds rows)."""
        sort = np.lexsort((blocks, ranks))  # by term, then block
        ids, blocks, values = ranks[sort], blocks[sort], values[sort]
        del sort
        step = np.empty(len(ids), dtype=bool)
        step[0] = True
        np.not_equal(ids[1:], ids[:-1], out=step[1:])
        step[1:] |= blocks[1:] != blocks[:-1]
        starts = np.flatnonzero(step)
        values = np.maximum.reduceat(values, starts)  # a block's largest value
        ids, blocks = ids[starts], blocks[starts]
        del step, starts
        parts = blocks >> PART_SHIFT
        edge = np.empty(len(ids) + 1, dtype=bool)
        edge[0] = edge[-1] = True
        np.not_equal(ids[1:], ids[:-1], out=edge[1:-1])
        edge[1:-1] |= parts[1:] != parts[:-1]
        at = np.flatnonzero(edge)  # each (term, part)'s run of block values: at[i] to at[i + 1]
        runs = list(zip(ids[at[:-1]].tolist(), parts[at[:-1]].tolist(), at[:-1].tolist(), at[1:].tolist()))
        names = {n: self.term(int(order[n])) for n in dict.fromkeys(ids[at[:-1]].tolist())}
        old: dict[tuple[str, int], tuple[bytes, bytes]] = {}
        if stored:
            wanted = {(names[n], p) for n, p, _, _ in runs}
            old = {(t, p): (b, m) for t, p, b, m in conn.execute(
                f"SELECT term, part, blocks, maxima FROM {TABLE} WHERE term IN (SELECT value FROM json_each(?))",
                (json.dumps(list(names.values())),)) if (t, p) in wanted}
        conn.executemany(f"INSERT OR REPLACE INTO {TABLE} (term, part, blocks, maxima) VALUES (?, ?, ?, ?)",
                         _rows(runs, names, old, blocks.astype("<u4").tobytes(), blocks, values))

    def held_bytes(self) -> int:
        """How many bytes the held terms and block values take in their arrays: 9 a block value
        (term number, block, value), each term's UTF-8 and 20 more (its end, hash and number)."""
        return len(self._text) + 20 * len(self._ends) + 9 * self.size


def _rows(chunk: list[tuple[int, int, int, int]], names: Mapping[int, str], old: Mapping[tuple[str, int], tuple[bytes, bytes]],
          le_blocks: bytes, blocks: np.ndarray, values: np.ndarray) -> Iterator[tuple[str, int, bytes, bytes]]:
    """The table rows of ``chunk`` (``(term number, part, first, end)`` runs of the sorted arrays;
    ``le_blocks``: ``blocks`` as uint32 little-endian bytes), each merged with its stored row in ``old``
    when there is one. A new row's blobs are slices of two ``bytes`` (not of the arrays: a slice and
    its ``tobytes()`` per row cost more)."""
    maxima = values.tobytes()
    for n, p, a, b in chunk:
        t = names[n]
        stored = old.get((t, p))
        if stored is None:
            yield t, p, le_blocks[4 * a:4 * b], maxima[a:b]
        else:
            yield (t, p, *merge(stored, dict(zip(blocks[a:b].tolist(), values[a:b].tolist()))))
