"""One transaction around several writes of the embedded store (:meth:`EmbeddedTransactions.transaction`).

The indexer writes a run's files in bounded batches (:class:`indexer.writer.IndexWriter`) so that no
more than a batch of texts, chunks and rows is in memory at once; inside :meth:`transaction` every
write call of the store (``replace_files``, ``replace_chunks``, ``delete_files``) joins one SQLite
transaction, so readers (other connections) and a run killed half-way still see the index as it
was before the run or after it, never a mix. The instance lock is held for the whole transaction:
other threads using the same store object wait instead of reading the rows half-written through the
shared connection.
"""

from __future__ import annotations

import contextlib
import sqlite3
import threading
from collections.abc import Iterator

from stores.bm25_pending import PendingMaxima
from stores.errors import StoreReadOnly, StoreUnavailable
from stores.sqlite_file import map_sqlite_error

__all__ = ["EmbeddedTransactions", "WRITE_CACHE_KIB"]

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
    read_only: str | None
    path: object

    def flush_block_maxima(self) -> None:
        """Fold the block maxima the open :meth:`transaction` holds into their table (nothing outside one)."""
        pending = self._pending_maxima
        if pending is not None and self._conn is not None:
            pending.flush(self._conn)

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
            try:
                yield
                self.flush_block_maxima()
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
                self._generation += 1
                with contextlib.suppress(sqlite3.Error):
                    conn.execute(f"PRAGMA cache_size = {int(cache)}")
