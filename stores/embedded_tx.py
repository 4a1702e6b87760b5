"""One transaction around several writes of the embedded store (:meth:`EmbeddedTransactions.transaction`).

The indexer writes a run's files in bounded batches (:class:`indexer.writer.IndexWriter`) so that no
more than a batch of texts, chunks and rows is in memory at once; inside :meth:`transaction` every
write call of the store (``replace_files``, ``replace_chunks``, ``delete_files``) joins one SQLite
transaction, so readers (other connections) and a run killed half-way still see the index as it
was before the run or after it, never a mix. The instance lock is held for the whole transaction:
other threads using the same store object wait instead of reading the rows half-written through the
shared connection.

The block maxima of a chunk write whose rows a forked preparer analysed may be folded by that preparer
(:mod:`stores.chunk_prep`): the transaction then owes them (:attr:`EmbeddedTransactions._owed_maxima`)
until :meth:`EmbeddedTransactions._adopt_maxima` writes the rows the preparer folded; any still owed
when the transaction commits, or whose rows are about to be deleted, are computed here from the
stored rows (:meth:`EmbeddedTransactions.settle_owed`), so the table is the same either way.
"""

from __future__ import annotations

import bisect
import contextlib
import logging
import sqlite3
import threading
from collections.abc import Iterable, Iterator

from stores.analyzer import analyze_joined
from stores.bm25_blocks import REFERENCE_KEY, TABLE, block_maxima, block_values
from stores.bm25_pending import PendingMaxima, write_folded
from stores.chunk_prep import FoldedMaxima
from stores.embedded_lexical import BM25_WEIGHTS
from stores.embedded_schema import chunk_texts, defer_indexes, restore_indexes
from stores.errors import StoreReadOnly, StoreUnavailable
from stores.sqlite_file import map_sqlite_error

__all__ = ["EmbeddedTransactions", "WRITE_CACHE_KIB"]

log = logging.getLogger(__name__)

WRITE_CACHE_KIB = 4 << 10
"""SQLite's page cache (KiB) on the connection while a :meth:`EmbeddedTransactions.transaction` runs
(the connection's own size is put back after): an index run writes every file inside one, and a
full cache is only pages SQLite can read again (from the operating system's file cache, or spill to
the write-ahead log), while its size adds to the run's peak memory. 4 MiB, not 16: the 45-package
monorepo's write peak about 12 MiB lower for the same CPU (docs/benchmarks.md, session 55, mem55a)."""


class EmbeddedTransactions:
    """Mixin of :class:`stores.embedded.EmbeddedStore`: :meth:`transaction`. The store's ``_write``
    runs its body without a transaction of its own while :meth:`in_transaction` is true."""

    _lock: threading.RLock
    _conn: sqlite3.Connection | None
    _generation: int
    _tx_depth: int = 0
    _pending_maxima: PendingMaxima | None = None
    """The BM25 block maxima the open :meth:`transaction`'s chunk writes recorded and have not folded
    into their table yet (:class:`stores.bm25_pending.PendingMaxima`): folded before it commits and
    before a read of the table through this instance (:meth:`flush_block_maxima`); ``None`` outside one."""
    _owed_maxima: dict[int, int] | None = None
    """The open :meth:`transaction`'s chunk writes whose block maxima a forked preparer holds and this
    store owes (first rowid -> row count, :mod:`stores.chunk_prep`); ``None`` outside one."""
    _fold_stored = False
    """Whether the block-max table held rows when the first slice of the fold being adopted came."""
    read_only: str | None
    path: object

    def flush_block_maxima(self) -> None:
        """Fold the block maxima the open :meth:`transaction` holds into their table, those it still owes
        computed here first (:meth:`settle_owed`; nothing outside one)."""
        pending = self._pending_maxima
        if pending is not None and self._conn is not None:
            self.settle_owed(self._conn)
            pending.flush(self._conn)

    def owe_maxima(self, start: int, count: int) -> bool:
        """Record that the chunk write of the ``count`` rows from rowid ``start`` leaves its block maxima
        to a preparer's fold (:meth:`_adopt_maxima`); ``False`` (nothing recorded: compute them now)
        outside a :meth:`transaction`."""
        if self._owed_maxima is None:
            return False
        self._owed_maxima[start] = count
        return True

    def _adopt_maxima(self, fold: FoldedMaxima) -> bool:
        """Write the rows of ``fold`` (a slice of a preparer's fold) into the block-max table, merged with
        those stored, when every chunk write it covers is one this transaction owes exactly as covered;
        with the fold's last slice they are owed no more. ``False`` (nothing written) otherwise: those
        still owed are computed from the stored rows before the commit (:meth:`flush_block_maxima`)."""
        owed = self._owed_maxima
        if owed is None or self._conn is None or any(owed.get(s) != n for s, n in fold.covers):
            log.debug("a fold of block maxima covering %d chunk writes not all owed: not used", len(fold.covers))
            return False
        if fold.part == 0:  # the slices of one fold are disjoint in keys: merge only with what was there before
            self._fold_stored = self._conn.execute(f"SELECT 1 FROM {TABLE} LIMIT 1").fetchone() is not None
        write_folded(self._conn, fold.rows, self._fold_stored)
        if fold.last:
            for s, _ in fold.covers:
                del owed[s]
        return True

    def settle_owed(self, conn: sqlite3.Connection, rowids: Iterable[int] | None = None) -> None:
        """Compute here, from their stored rows (analysed again as they were inserted), the block maxima
        of the chunk writes still owed (all of them, or those holding one of ``rowids``: rows about to
        be deleted) and hold them with the transaction's (:attr:`_pending_maxima`); they are owed no more."""
        owed, pending = self._owed_maxima, self._pending_maxima
        if not owed or pending is None:
            return
        if rowids is None:
            starts = sorted(owed)
        else:
            firsts = sorted(owed)
            starts = sorted({firsts[i] for r in rowids if (i := bisect.bisect_right(firsts, r) - 1) >= 0
                             and r < firsts[i] + owed[firsts[i]]})
            if not starts:
                return
        reference = float(conn.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()[0])
        log.debug("block maxima of %d chunk writes computed from the stored rows", len(starts))
        for start in starts:
            count = owed.pop(start)
            rows = chunk_texts(conn, "c.rowid >= ? AND c.rowid < ?", (start, start + count),
                               "c.rowid, c.name, coalesce(c.fqn, (SELECT id FROM ids WHERE nid = c.nid))")
            analysed = [(rowid, (analyze_joined(name), analyze_joined(fqn), analyze_joined(text)))
                        for rowid, name, fqn, text in sorted(rows)]
            if analysed:
                values = block_values(analysed, BM25_WEIGHTS, reference)
                if values is not None:
                    pending.add_values(conn, values)
                else:
                    pending.add(conn, block_maxima(analysed, BM25_WEIGHTS, reference))

    def in_transaction(self) -> bool:
        """Whether a :meth:`transaction` of this instance is open (in this thread: it holds the lock)."""
        return self._tx_depth > 0

    @contextlib.contextmanager
    def transaction(self) -> Iterator[None]:
        """Run the writes made inside the ``with`` block in one ``BEGIN IMMEDIATE`` transaction,
        committed when the block ends and rolled back when it raises (a nested call joins the outer
        one). Raises :class:`~stores.errors.StoreReadOnly` on an index opened for reading,
        :class:`~stores.errors.StoreUnavailable` when closed or locked by another writer beyond the
        busy timeout."""
        with self._lock:
            if self._tx_depth:
                self._tx_depth += 1
                try:
                    yield
                finally:
                    self._tx_depth -= 1
                return
            if self._conn is None:
                raise StoreUnavailable(f"index {self.path} is closed")
            if self.read_only:
                raise StoreReadOnly(f"index {self.path} was opened for reading only ({self.read_only}); nothing "
                                    "was written")
            conn = self._conn
            try:
                cache = conn.execute("PRAGMA cache_size").fetchone()[0]
                conn.execute(f"PRAGMA cache_size = -{WRITE_CACHE_KIB}")
                conn.execute("BEGIN IMMEDIATE")
            except sqlite3.Error as exc:
                raise map_sqlite_error(exc, self.path) from exc
            self._tx_depth = 1
            self._pending_maxima = PendingMaxima()
            self._owed_maxima = {}
            try:
                # An empty store (a first run) gets its secondary indexes built once, over all its rows,
                # before the commit (stores.embedded_schema.defer_indexes): a rollback keeps them.
                deferred = defer_indexes(conn)
                yield
                self.flush_block_maxima()
                restore_indexes(conn, deferred)
                conn.execute("COMMIT")
            except BaseException as exc:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                if isinstance(exc, sqlite3.Error):
                    raise map_sqlite_error(exc, self.path) from exc
                raise
            finally:
                self._tx_depth = 0
                self._pending_maxima = None  # folded, or rolled back with the rows they were of
                self._owed_maxima = None
                self._generation += 1
                with contextlib.suppress(sqlite3.Error):
                    conn.execute(f"PRAGMA cache_size = {int(cache)}")
