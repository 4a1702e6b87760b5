"""The repository registry of the embedded store (a mixin of :class:`stores.embedded.EmbeddedStore`).

One row per indexed repository (and branch) in the table ``repositories`` of the index file: the
``Repository`` node of the design, with the fields of :class:`stores.contracts.RepositoryRecord`
(``counts`` and ``props`` as JSON). The table is created by the first write that needs it
(``CREATE TABLE IF NOT EXISTS`` inside that write's transaction), so indexes written before it keep
their schema version and need no rebuild; a reader of such an index sees no entry.

:meth:`EmbeddedRegistry.remove_repository` removes a repository in one transaction: its entry,
file records, nodes (with every edge touching them, whoever owns the edge), owned edges, unresolved
calls, chunks with their FTS rows and vectors, the content-addressed cached vectors of texts no
other chunk holds, and shared Endpoint / Topic nodes left without an edge.
"""

from __future__ import annotations

import json
import sqlite3
from typing import TYPE_CHECKING, Any

from stores.contracts import REPOSITORY_COUNTS, RepositoryRecord
from stores.errors import StoreReadOnly, StoreUnavailable
from stores.sqlite_file import map_sqlite_error

if TYPE_CHECKING:  # the mixin's host
    from stores.embedded import EmbeddedStore

__all__ = ["EmbeddedRegistry", "REGISTRY_TABLE"]

REGISTRY_TABLE = """
CREATE TABLE IF NOT EXISTS repositories (
    key TEXT PRIMARY KEY, name TEXT NOT NULL, product TEXT NOT NULL, root TEXT NOT NULL, branch TEXT,
    is_default INTEGER NOT NULL, remote TEXT, vcs_commit TEXT, indexed_at REAL NOT NULL,
    counts TEXT NOT NULL, props TEXT NOT NULL
) WITHOUT ROWID
"""

_COLS = "key, name, product, root, branch, is_default, remote, vcs_commit, indexed_at, counts, props"

COUNT_CACHE_KIB = 2048
"""SQLite's page cache (KiB) while a repository's rows are counted (:func:`_count`): each page of
the tables counted is read once, so the connection's own cache (64 MiB) would only keep them, and
the count runs at the end of every ``ripple index``, after the write: on the 10-package monorepo
(2,330 files) it filled 15.4 MiB of cache and was the run's peak resident set (docs/benchmarks.md,
session 56, mem56a)."""


def _count(conn: sqlite3.Connection, queries: list[str], args: tuple[Any, ...]) -> list[tuple[Any, ...]]:
    """The first row of each query of ``queries`` (each with ``args``), run with a page cache of
    :data:`COUNT_CACHE_KIB` (pages it holds beyond that are let go), the connection's cache size
    back after them."""
    cache = conn.execute("PRAGMA cache_size").fetchone()[0]
    conn.execute(f"PRAGMA cache_size = -{COUNT_CACHE_KIB}")
    try:
        return [tuple(conn.execute(sql, args).fetchone()) for sql in queries]
    finally:
        conn.execute(f"PRAGMA cache_size = {int(cache)}")


_ORDER = "ORDER BY name, is_default DESC, coalesce(branch, ''), key"


def _record(row: tuple[Any, ...]) -> RepositoryRecord:
    counts = json.loads(row[9]) if row[9] else {}
    return RepositoryRecord(key=row[0], name=row[1], product=row[2], root=row[3], branch=row[4],
                            default=bool(row[5]), remote=row[6], commit=row[7], indexed_at=float(row[8]),
                            counts={k: int(counts.get(k, 0)) for k in REPOSITORY_COUNTS},
                            props=json.loads(row[10]) if row[10] else {})


class EmbeddedRegistry:
    """The registry methods of :class:`stores.contracts.GraphStore` and the per-repository ones of
    :class:`stores.contracts.SearchIndex`, over the embedded store's SQLite connection (its lock,
    its write transaction, its error mapping)."""

    def _registry_call(self: EmbeddedStore, work: Any) -> Any:
        """Run ``work(conn)`` under the store's lock, sqlite3 errors mapped as every method does."""
        with self._lock:
            if self._conn is None:
                raise StoreUnavailable(f"index {self.path} is closed")
            try:
                return work(self._conn)
            except sqlite3.Error as exc:
                raise map_sqlite_error(exc, self.path) from exc

    @staticmethod
    def _has_registry(conn: sqlite3.Connection) -> bool:
        return conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'repositories'").fetchone() is not None

    def upsert_repository(self: EmbeddedStore, record: RepositoryRecord) -> None:
        """Create or replace the entry ``record.key`` (one transaction). Raises
        :class:`stores.errors.StoreReadOnly` on an index opened read-only."""
        row = (record.key, record.name, record.product, record.root, record.branch, int(record.default),
               record.remote, record.commit, float(record.indexed_at),
               json.dumps({k: int(record.counts.get(k, 0)) for k in REPOSITORY_COUNTS}),
               json.dumps(record.props, sort_keys=True))

        def body(conn: sqlite3.Connection) -> None:
            conn.execute(REGISTRY_TABLE)
            conn.execute(f"INSERT OR REPLACE INTO repositories ({_COLS}) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", row)

        self._registry_call(lambda conn: self._write(body))

    def repositories(self: EmbeddedStore) -> list[RepositoryRecord]:
        """Every entry, sorted by (name, default first, branch, key); ``[]`` for an index without
        the table."""

        def read(conn: sqlite3.Connection) -> list[RepositoryRecord]:
            if not self._has_registry(conn):
                return []
            return [_record(r) for r in conn.execute(f"SELECT {_COLS} FROM repositories {_ORDER}")]

        return self._registry_call(read)

    def repository_counts(self: EmbeddedStore, key: str) -> dict[str, int]:
        """``{"files", "nodes", "edges"}`` of repository ``key`` (edges its files own), counted with a
        small page cache (:func:`_count`)."""

        def read(conn: sqlite3.Connection) -> dict[str, int]:
            tables = (("files", "file_rows"), ("nodes", "node_rows"), ("edges", "edge_rows"))
            rows = _count(conn, [f"SELECT count(*) FROM {table} WHERE fid IN (SELECT fid FROM paths WHERE repo = ?)"
                                 for _, table in tables], (key,))
            return {what: row[0] for (what, _), row in zip(tables, rows)}

        return self._registry_call(read)

    def repository_chunk_count(self: EmbeddedStore, repo: str) -> dict[str, int]:
        """``{"chunks": n, "embedded": m}`` of repository ``repo``, counted with a small page cache
        (:func:`_count`)."""
        return self._registry_call(lambda conn: dict(zip(("chunks", "embedded"), _count(
            conn, ["SELECT count(*), count(embedding) FROM chunk_rows WHERE fid IN (SELECT fid FROM paths WHERE repo = ?)"],
            (repo,))[0])))

    def remove_repository(self: EmbeddedStore, key: str) -> bool:
        """Remove repository ``key`` whole in one transaction (see the module docstring); ``True``
        when anything of it was there. Raises :class:`stores.errors.StoreReadOnly` on an index
        opened read-only."""
        if self.read_only:
            raise StoreReadOnly(f"index {self.path} was opened for reading only ({self.read_only}); nothing was removed")
        found: list[bool] = []

        def body(conn: sqlite3.Connection) -> None:
            there = conn.execute(
                "SELECT EXISTS (SELECT 1 FROM files WHERE repo = ?) OR EXISTS (SELECT 1 FROM nodes WHERE repo = ?)"
                " OR EXISTS (SELECT 1 FROM chunks WHERE repo = ?)", (key, key, key)).fetchone()[0]
            if self._has_registry(conn):
                entry = conn.execute("DELETE FROM repositories WHERE key = ?", (key,)).rowcount > 0
                there = there or entry
            found.append(bool(there))
            checksums = [r[0] for r in conn.execute(
                "SELECT DISTINCT checksum FROM chunk_rows WHERE fid IN (SELECT fid FROM paths WHERE repo = ?)", (key,))]
            # chunks first: their texts are ranges of the file texts deleted below
            self._delete_files_body(conn, [(key, p) for (p,) in conn.execute("SELECT path FROM paths WHERE repo = ?",
                                                                           (key,)).fetchall()])
            conn.executemany(  # cached vectors of texts only this repository held
                "DELETE FROM embedding_cache WHERE checksum = ? AND NOT EXISTS"
                " (SELECT 1 FROM chunk_rows WHERE chunk_rows.checksum = embedding_cache.checksum)",
                [(c,) for c in checksums])

        self._registry_call(lambda conn: self._write(body))
        self._vectors = None
        return found[0]

    def delete_repository(self: EmbeddedStore, repo: str) -> int:
        """The search side of :meth:`remove_repository`: the embedded store is one file, so the whole
        repository goes (graph and chunks in one transaction); returns how many chunks went."""
        before = self.repository_chunk_count(repo)["chunks"]
        self.remove_repository(repo)
        return before
