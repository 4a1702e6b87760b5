"""BM25 of the embedded store (a mixin of :class:`stores.embedded.EmbeddedStore`), on a connection of its own.

FTS5 scoring is most of a hybrid search's time (tens of milliseconds at 100,000 chunks), and the
store's one connection is serialised by the instance lock: while BM25 ran, the other reads of the
same search (the kNN list's check, the exact-name definitions) waited for it. :meth:`EmbeddedLexical.bm25`
therefore runs on a second, read-only connection to the same file (opened at its first query, with
its own lock and caches), so those reads proceed beside it; SQLite's WAL mode lets two connections
read at once, and the ``sqlite3`` module releases the GIL while a statement runs.

What each query sees: the last committed state of the index when it starts, as the main connection
does outside a transaction, read in one read transaction (all its statements see one snapshot). The
connection is opened by name only while the name still leads to the file the main connection holds
(not to an index re-created or replaced at that path since). Inside a :meth:`~stores.embedded_tx.EmbeddedTransactions.transaction` of this instance
(whose uncommitted rows the second connection cannot see), and when the second connection cannot be
opened, BM25 runs on the main connection under the instance lock, as before.

The ranking itself (analysed query terms, pruning of common terms, the exact max-score cut of
:mod:`stores.bm25_cut`) is the same on either connection: same chunks, same scores.
"""

from __future__ import annotations

import json
import logging
import sqlite3
import threading
from collections.abc import Mapping, Sequence
from typing import TYPE_CHECKING

from stores.lazy_import import LazyModule
from stores.analyzer import query_terms
from stores.bm25_blocks import (BLOCK_SHIFT, best_blocks, block_bounds, fts_averages, passing_blocks, read_bounds,
                                scale)
from stores.bm25_cut import (SAFETY, by_rarity, candidate_expression, fallback_probes, kth_best, phrase,
                             probe_expressions, term_bound)
from stores.contracts import ScoredChunk, SearchFilters
from stores.errors import StoreError, StoreUnavailable
from stores.read_cache import StampedCache
from stores.sqlite_file import file_identity, map_sqlite_error

if TYPE_CHECKING:  # numpy's types; the mixin's host
    import numpy as np
    from stores.embedded import EmbeddedStore
else:
    np = LazyModule("numpy")  # imported when first read: the write phase, a search (stores.lazy_import)


__all__ = ["EmbeddedLexical", "LexicalReader", "BM25_WEIGHTS", "TERM_CACHE_TERMS", "READER_CACHE_KIB"]

BM25_WEIGHTS = (3.0, 2.0, 1.0)
"""``bm25(chunks_fts, name, fqn, text)`` column weights."""
_COMMON_FRACTION = 0.5  # query tokens in at least this fraction of the chunks are pruned (see bm25)
_POSTINGS_BUDGET = 40_000
"""Most postings (chunk matches summed over the query's tokens) one BM25 query may score: over it, the
most common tokens are dropped first. When chosen it cut BM25's p95 at 100k chunks from 63 to 33 ms
(bench/search_bench.py, on that machine and load; hybrid search's p95 there is 65 ms today, docs/benchmarks.md);
no effect on the docs/search-quality.md sets (< 10k chunks)."""
_PROBE_BUDGET = 5_000
"""Most postings of the OR probe that bounds the BM25 cut (:func:`stores.bm25_cut.probe_expressions`);
chosen on bench/search_bench.py's 100k-chunk store (2,000 and 5,000 tried: 5,000 cut 95% of the queries).
When that probe exists it is the only first probe: the AND probes of the rarest terms (run only when it
does not) find a few rows each (at most 10 in the slowest bench queries), while each costs FTS5's IDF
count, a walk of every query term's postings. Without them the 100k-chunk bench's BM25 took 8-12% less
CPU, same answers (docs/benchmarks.md, lat22d)."""
TERM_CACHE_TERMS = 20_000
"""Most FTS terms whose document frequency a connection keeps (BM25's pruning of common tokens)."""
READER_CACHE_KIB = 16 * 1024
"""SQLite page cache of the BM25 connection, KiB (FTS5's posting lists; the main connection keeps its 64 MiB).
At 100,000 chunks (bench/search_bench.py's store, 300 queries twice, side by side): 16 MiB took the
same CPU per search as 32 MiB (88-89 vs 91-92 ms at load ~7) and 17 MiB less peak RSS (482 vs 499;
main, with one connection, 465)."""
_PROBE_BLOCKS = 64
"""Blocks of rowids (:mod:`stores.bm25_blocks`, 64 rowids each) the first probe scores in: those whose
block maxima are highest. On the 100k-chunk bench store (docs/benchmarks.md, bmx22), thread CPU per BM25
query: the OR probe in 64 blocks 12.4-13.1 ms mean, 24.0-25.3 p95; the whole query in 32 blocks 13.6-14.1
and 24.3-25.4 (fewer rows scored, but a second walk of every term's postings); 16 and 128-256 blocks worse."""
_IDS_PARAM = "SELECT value FROM json_each(?)"
log = logging.getLogger(__name__)


class LexicalReader:
    """The BM25 connection of one store: a read-only SQLite connection, the lock that serialises its
    queries, and the caches stamped by its own ``PRAGMA data_version`` (which moves whenever another
    connection, the store's main one included, commits)."""

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        self.lock = threading.Lock()
        self.terms: StampedCache[int] = StampedCache(TERM_CACHE_TERMS, TERM_CACHE_TERMS)
        self._rows: tuple[int, int] | None = None  # (data_version, chunk rows)

    def stamp(self) -> int:
        """This connection's ``PRAGMA data_version``."""
        return self.conn.execute("PRAGMA data_version").fetchone()[0]

    def chunk_rows(self, stamp: int) -> int:
        """``count(*)`` of the chunk rows in the state ``stamp`` (cached until it moves)."""
        if self._rows is None or self._rows[0] != stamp:
            self._rows = (stamp, self.conn.execute("SELECT count(*) FROM chunk_rows").fetchone()[0])
        return self._rows[1]

    def close(self) -> None:
        """Close the connection once the query in progress (if any) has ended."""
        with self.lock:
            self.conn.close()


class EmbeddedLexical:
    """``bm25`` of the embedded store and the connection it runs on (see the module docstring)."""

    _lexical: LexicalReader | None
    _lexical_failed: bool
    _file_id: tuple[int, int] | None

    def bm25(self: EmbeddedStore, query: str, limit: int, filters: SearchFilters | None = None) -> list[ScoredChunk]:
        """Best ``limit`` chunks by BM25 (weights name 3, fqn 2, text 1) for ``query`` analysed with
        :func:`stores.analyzer.query_terms` (its tokens less its stop words), any term matching (OR); best
        first, ties by chunk id.
        Scores are positive. An empty or all-punctuation query, or ``limit <= 0``, returns ``[]``.

        Query tokens found in at least half of the chunks are dropped when a rarer token remains:
        SQLite's BM25 gives them an IDF of 1e-6 anyway, and matching them costs a scan of most of
        the index (a chunk matching *only* such tokens therefore cannot fill the tail of a short
        result list). Likewise, when the kept tokens together match more than ``_POSTINGS_BUDGET``
        chunks, the most common of them are dropped until they fit (the rarest token always stays):
        they weigh least in the score and cost the most to score.

        Only the rows that may reach the top ``limit`` are scored (:mod:`stores.bm25_cut`, an exact
        max-score cut: the same chunks and scores as scoring every match). Runs on the store's BM25
        connection (module docstring), so other reads of the instance proceed meanwhile. Raises
        :class:`~stores.errors.StoreUnavailable` when the store is closed, and the mapped store
        errors of :mod:`stores.sqlite_file`."""
        tokens = query_terms(query)
        if not tokens or limit <= 0:
            return []
        where, params = self._filter_sql(filters, "c")
        with self._lock:
            if self._conn is None:
                raise StoreUnavailable(f"index {self.path} is closed")
            reader = None if self._conn.in_transaction else self._lexical_reader()
            if reader is None:  # this instance's own transaction (or no second connection): in turn
                try:
                    rows = self._bm25_main(tokens, where, params, int(limit))
                except sqlite3.Error as exc:
                    raise map_sqlite_error(exc, self.path) from exc
                return _scored(rows)
        with reader.lock:
            if self._lexical is not reader:  # closed meanwhile
                raise StoreUnavailable(f"index {self.path} is closed")
            try:
                # One read transaction: the stamp, the row count, the term counts and every probe
                # read the same snapshot (a commit landing between two of them could otherwise make
                # the exact cut's bounds describe another state than the rows it scores).
                reader.conn.execute("BEGIN")
                try:
                    reader.conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # starts the snapshot
                    stamp = reader.stamp()
                    rows = self._bm25_on(reader.conn, reader.terms.view(stamp), reader.chunk_rows(stamp), tokens,
                                         where, params, int(limit))
                finally:
                    if reader.conn.in_transaction:
                        reader.conn.execute("ROLLBACK")  # read only: nothing to keep
            except sqlite3.Error as exc:
                raise map_sqlite_error(exc, self.path) from exc
        return _scored(rows)

    def _bm25_main(self: EmbeddedStore, tokens: list[str], where: str, params: list[object],
                   limit: int) -> list[tuple[str, float]]:
        """:meth:`_bm25_on` on the main connection (under the instance lock). Inside this instance's
        transaction it reads that transaction's rows (no other writer can commit meanwhile); outside
        one, in a read transaction of its own, as on the BM25 connection: the counts, the probes and
        the final query read one state (statements in autocommit would each read the latest commit,
        and a commit between the probes and the final query made the cut drop rows that state ranks)."""
        conn = self._db
        if conn.in_transaction:
            self.flush_block_maxima()  # the block maxima its chunk writes hold back (stores.bm25_pending)
            return self._bm25_on(conn, None, self._chunk_count()["chunks"], tokens, where, params, limit)
        conn.execute("BEGIN")
        try:
            conn.execute("SELECT 1 FROM sqlite_master LIMIT 1").fetchall()  # starts the snapshot
            cache = self._term_docs.view((self._generation, conn.execute("PRAGMA data_version").fetchone()[0]))
            return self._bm25_on(conn, cache, self._chunk_count()["chunks"], tokens, where, params, limit)
        finally:
            if conn.in_transaction:
                conn.execute("ROLLBACK")  # read only: nothing to keep

    def _lexical_reader(self: EmbeddedStore) -> LexicalReader | None:
        """The BM25 connection, opened at the first call (under the instance lock); ``None`` when it
        cannot be opened (then BM25 keeps to the main connection; tried once per instance).

        The second connection opens the index by name: when the name no longer leads to the file the
        main connection holds (the index was deleted, or re-created or replaced by another process
        since this instance opened it), it is not opened, so BM25 never ranks another file's chunks
        than the rest of the instance reads."""
        if self._lexical is None and not self._lexical_failed:
            if self._file_id is None or file_identity(self.path) != self._file_id:
                self._lexical_failed = True
                return None
            try:
                conn = self._connect(self._read_target(), self._busy_timeout, uri=True)
                conn.execute(f"PRAGMA cache_size = -{READER_CACHE_KIB}")
            except (StoreError, sqlite3.Error):
                self._lexical_failed = True
                return None
            if file_identity(self.path) != self._file_id:  # replaced while it opened
                conn.close()
                self._lexical_failed = True
                return None
            self._lexical = LexicalReader(conn)
        return self._lexical

    def _close_lexical(self: EmbeddedStore) -> None:
        """Close the BM25 connection (after its query in progress); a later ``bm25`` reopens none."""
        reader, self._lexical = self._lexical, None
        self._lexical_failed = True
        if reader is not None:
            reader.close()

    def _bm25_on(self: EmbeddedStore, db: sqlite3.Connection, cache: StampedCache[int] | None, total: int,
                 tokens: list[str], where: str, params: list[object], limit: int) -> list[tuple[str, float]]:
        """``(chunk id, -score)`` of :meth:`bm25` read on ``db``, whose term document counts ``cache``
        keeps (``None``: not cached) and which holds ``total`` chunk rows."""
        tokens, docs = self._prune_common(db, cache, total, tokens)
        match = " OR ".join(phrase(t) for t in tokens)
        rows = self._bm25_cut(db, match, tokens, docs, where, params, limit)
        if rows is None:
            rows = self._bm25_rows(db, match, None, where, params, limit)
        return rows

    def _bm25_rows(self, db: sqlite3.Connection, match: str, only: str | None, where: str, params: list[object],
                   limit: int, blocks: Sequence[int] | None = None) -> list[tuple[str, float]]:
        """``(chunk id, -score)`` of the best ``limit`` rows of FTS5 query ``match`` (best first, ties
        by chunk id), scoring only the rows FTS5 query ``only`` matches when given and only the rows of
        the blocks of rowids ``blocks`` lists when given (sorted ``rowid >> BLOCK_SHIFT`` values,
        :mod:`stores.bm25_blocks`: a filter, plus their span as a rowid range FTS5 seeks to);
        ``where``/``params`` from :meth:`_filter_sql`."""
        w_name, w_fqn, w_text = BM25_WEIGHTS
        score = f"bm25(chunks_fts, {w_name}, {w_fqn}, {w_text})"
        # Filters on FTS5's rows, tested before a row is scored: `+rowid` is not a rowid lookup (one
        # FTS5 query per value), and `rowid >> shift` no constraint FTS5 could take.
        restrict = " AND +chunks_fts.rowid IN (SELECT rowid FROM chunks_fts WHERE chunks_fts MATCH ?)" if only else ""
        span: list[object] = []
        if blocks is not None:
            restrict += (f" AND chunks_fts.rowid BETWEEN ? AND ? AND (chunks_fts.rowid >> {BLOCK_SHIFT})"
                         f" IN ({_IDS_PARAM})")
            span = [blocks[0] << BLOCK_SHIFT, ((blocks[-1] + 1) << BLOCK_SHIFT) - 1, json.dumps(list(blocks))] \
                if len(blocks) else [1, 0, "[]"]
        if where:
            sql = (
                f"SELECT c.id, {score} AS s FROM chunks_fts JOIN chunks c ON c.rowid = chunks_fts.rowid"
                f" WHERE chunks_fts MATCH ?{restrict}{where} ORDER BY s, c.id LIMIT ?"
            )
        else:  # rank inside FTS5 first, join only the winners
            sql = (
                f"SELECT c.id, f.s FROM (SELECT rowid, {score} AS s FROM chunks_fts WHERE chunks_fts MATCH ?"
                f"{restrict} ORDER BY s, rowid LIMIT ?) AS f JOIN chunks c ON c.rowid = f.rowid ORDER BY f.s, c.id"
            )
        args = [match, *([only] if only else []), *span, *params, limit]
        return db.execute(sql, args).fetchall()

    def _bm25_cut(self, db: sqlite3.Connection, match: str, tokens: list[str], docs: Mapping[str, int], where: str,
                  params: list[object], limit: int) -> list[tuple[str, float]] | None:
        """:meth:`_bm25_rows` of ``match`` scoring only the rows that may reach the top ``limit``
        (:mod:`stores.bm25_cut`: same rows, same scores); ``None`` when no cut applies (a term's
        document count unknown, the probes and fallback probes find fewer than ``limit`` rows, or
        every matching row may reach the top).

        With block maxima (:mod:`stores.bm25_blocks`, schema 8) the first probe is the OR probe (or the
        query) scored in the ``_PROBE_BLOCKS`` blocks whose maxima are highest, where the best rows
        mostly are (its scores are lower bounds of real rows' full scores, so its ``limit``-th best is a
        valid ``theta``); the final query scores only the blocks whose maxima reach ``theta``, and of
        those (for two or more terms) only the rows :func:`~stores.bm25_cut.candidate_expression`
        lets through. A one-term query takes the cut through the blocks alone."""
        if not tokens or any(t not in docs for t in tokens):
            return None
        record = db.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
        try:
            rows, length_total = fts_averages(record[0])
        except (TypeError, ValueError):
            return None
        rare = by_rarity(tokens, docs)
        bounds = {t: term_bound(docs[t], rows) for t in rare}
        held = self._block_maxima(db, bounds, rows, length_total)
        probed: list[tuple[str, float]] = []
        theta = None
        if held is not None and len(held[0]) > _PROBE_BLOCKS:
            # The OR probe (or, without one, the query itself) in the blocks whose maxima are highest.
            best = best_blocks(*held, _PROBE_BLOCKS).tolist()
            head = probe_expressions(rare, docs, _PROBE_BUDGET, ands=0)
            probed = [(cid, -s) for cid, s in self._bm25_rows(db, head[0] if head else match, None, where, params,
                                                              limit, best)]
            theta = kth_best(probed, limit)
        if theta is None and len(rare) >= 2:
            # The OR probe alone when there is one; the ANDs of the rarest terms only when there is none.
            probes = (probe_expressions(rare, docs, _PROBE_BUDGET, ands=0)
                      or probe_expressions(rare, docs, _PROBE_BUDGET))
            probed += [(cid, -s) for expr in probes for cid, s in self._bm25_rows(db, expr, None, where, params, limit)]
            theta = kth_best(probed, limit)
            for expr in fallback_probes(rare) if theta is None else ():
                probed += [(cid, -s) for cid, s in self._bm25_rows(db, expr, None, where, params, limit)]
                theta = kth_best(probed, limit)
                if theta is not None:
                    break
        if theta is None:
            return None
        floor = theta * (1 - SAFETY)
        only = candidate_expression(rare, [bounds[t] for t in rare], floor) if len(rare) >= 2 else None
        blocks: list[int] | None = None
        if held is not None:
            keep = passing_blocks(*held, floor)
            blocks = None if len(keep) == len(held[0]) else keep.tolist()
        if only is None and blocks is None:
            return None
        return self._bm25_rows(db, match, only, where, params, limit, blocks)

    @staticmethod
    def _block_maxima(db: sqlite3.Connection, bounds: Mapping[str, float], rows: int,
                      length_total: int) -> tuple[np.ndarray, np.ndarray] | None:
        """:func:`stores.bm25_blocks.block_bounds` of the query terms (``bounds``: each term's
        ``IDF x (k1 + 1)``): the blocks holding a term and the most a row of each can score; ``None``
        when the index keeps no block maxima or a row of them is damaged (logged: the cut without
        them is exact too). ``rows`` and ``length_total``: FTS5's row count and token total (the mean
        row length now)."""
        if rows <= 0:
            return None
        try:
            stored = read_bounds(db, list(bounds))
        except ValueError as exc:  # a damaged row: the answer without block maxima is the same, only slower
            log.warning("BM25 block maxima not used (%s): searches answer the same", exc)
            return None
        if stored is None:
            return None
        reference, found = stored
        return block_bounds(found, bounds, scale(reference, length_total / rows))

    @staticmethod
    def _prune_common(db: sqlite3.Connection, cache: StampedCache[int] | None, total: int,
                      tokens: list[str]) -> tuple[list[str], dict[str, int]]:
        """``tokens`` without those no chunk holds and those present in >= half of the ``total`` chunks,
        unless none would remain (then the present ones, or ``tokens`` when none is present); then, while
        their postings exceed ``_POSTINGS_BUDGET``, without the most common (one always stays). With the
        document count of each token (``{}`` when fewer than two chunks), read on ``db`` and
        kept in ``cache``."""
        if total < 2:
            return tokens, {}
        # fts5vocab counts a term's documents by walking its postings (tens of thousands for a common
        # word at 100k chunks): cached per term until the index changes.
        df = {t: d for t in tokens if cache is not None and (d := cache.get(t)) is not None}
        missing = [t for t in tokens if t not in df]
        if missing:
            found = dict(db.execute(
                f"SELECT term, doc FROM temp.ripple_vocab WHERE term IN ({_IDS_PARAM})", (json.dumps(missing),)
            ).fetchall())
            for t in missing:
                df[t] = found.get(t, 0)
                if cache is not None:
                    cache.put(t, df[t])
        # A term no chunk holds matches nothing: it must not be what keeps the query from its words.
        present = [t for t in tokens if df.get(t, 0) > 0]
        if not present:
            return tokens, df
        common = {term for term, docs in df.items() if docs >= _COMMON_FRACTION * total}
        kept = [t for t in present if t not in common] or present
        # Bounded work: FTS5 scores every chunk matching any token, so the postings of the kept
        # tokens are the cost. Over budget, drop the most common tokens (the lowest IDF) first.
        postings = sum(df.get(t, 0) for t in kept)
        if postings > _POSTINGS_BUDGET:
            for t in sorted(kept, key=lambda t: -df.get(t, 0)):
                if postings <= _POSTINGS_BUDGET or len(kept) == 1:
                    break
                kept.remove(t)
                postings -= df.get(t, 0)
        return kept, df


def _scored(rows: list[tuple[str, float]]) -> list[ScoredChunk]:
    return [ScoredChunk(chunk_id=cid, score=-s, rank=i) for i, (cid, s) in enumerate(rows, 1)]
