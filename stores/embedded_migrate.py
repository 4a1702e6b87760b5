"""Schema migrations of the embedded store that need no re-index: 6 and 7 -> 8 (the BM25 block maxima).

Schema 8 has one table more than 6, ``bm25_maxima`` (:mod:`stores.bm25_blocks`; schema 7 kept the same
values in ``bm25_blocks``, keyed by the term's text, which the migration drops), computed from what the FTS
index already holds: each chunk row's analysed name, FQN and text, rebuilt from the chunk row exactly
as the write path inserted them into ``chunks_fts`` (the values its ``'delete'`` command also uses).
:func:`migrate` runs at a writable open of a schema-6 index, in one ``BEGIN IMMEDIATE`` transaction
(another writer waits; a failure leaves the index at 6 or 7, read as before). A schema-6 or 7 index
opened read-only is not migrated: BM25 then runs without block maxima (this code reads no
``bm25_blocks``), with the same answers. Nor is one
whose write lock another process holds past the busy timeout (most likely migrating it: 5-60 s at
100,000 chunks), nor one the migration could not write (disk full, I/O error): that open proceeds
at 6 or 7 instead of failing, its writes add no block maxima while the index has no table
for them (:func:`stores.bm25_blocks.record_rows`), and the other process's migration, or the next
writable open's, counts every row there is then.
"""

from __future__ import annotations

import contextlib
import logging
import re
import sqlite3
from collections.abc import Iterator

from stores.analyzer import analyze_joined
from stores.bm25_blocks import (CREATE_TABLE, GUARD, GUARD_NAME, LEGACY_GUARD, LEGACY_TABLE, REFERENCE_KEY, STALE_KEY, TABLE,
                                fts_averages, record_rows)
from stores.embedded_lexical import BM25_WEIGHTS
from stores.embedded_schema import SCHEMA_VERSION, add_parent_cut, chunk_texts, missing_indexes

log = logging.getLogger(__name__)

__all__ = ["migrate", "ensure_current", "BATCH_ROWS"]

BATCH_ROWS = 5_000
"""Chunk rows analysed per step of the migration to 8 (bounds its memory)."""
_LATER = frozenset({sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED, sqlite3.SQLITE_FULL, sqlite3.SQLITE_IOERR})
"""Primary SQLite codes of a migration that failed for want of the lock or of space (or an I/O error): the
index stays at 6 or 7 (rolled back) and the open proceeds, reading it as it is. (A file SQLite cannot write
fails the open as read-only, which then opens it ``mode=ro``, as before.)"""


def migrate(conn: sqlite3.Connection, version: str) -> bool:
    """Bring the index on ``conn`` (outside a transaction) from schema ``version`` to
    :data:`~stores.embedded_schema.SCHEMA_VERSION` when a migration exists (``"6"``, ``"7"``): drop
    schema 7's ``bm25_blocks`` and its guard, add ``chunk_rows.pcut``
    (:func:`~stores.embedded_schema.add_parent_cut`: the rows keep their parents whole), create
    ``bm25_maxima`` and fill it from every chunk row, with the FTS table's mean row length as the reference. Returns whether it migrated now: ``False``
    when another connection did first, or held the write lock past the busy timeout, or the disk filled
    or an I/O error occurred (the index stays at its version for now, see the module docstring; logged). Raises other ``sqlite3.Error`` (the
    transaction rolled back: a damaged index) and ``ValueError`` for a version without a migration."""
    if version not in ("6", "7"):
        raise ValueError(f"no migration from schema {version!r}")
    try:
        return _migrate(conn, version)
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in _LATER:
            raise
        log.warning("the index stays at schema %s for now (%s): searches answer the same, a later open adds the"
                    " BM25 block maxima", version, exc)
        return False


def ensure_current(conn: sqlite3.Connection, version: str) -> None:
    """At a writable open of an index at schema ``version`` (outside a transaction): :func:`migrate`
    from 6 or 7; then, at 8, the guard trigger (:data:`stores.bm25_blocks.GUARD`) when missing, and the
    block maxima rebuilt from every chunk row when they are stale (a writer without them wrote chunk
    rows), and the indexes of the schema it lacks (:func:`~stores.embedded_schema.missing_indexes`). Busy,
    full and I/O errors leave that for a later open (logged; reads then use no maxima, or scan)."""
    if version != str(SCHEMA_VERSION):
        if not migrate(conn, version):
            return
    try:
        if conn.execute("SELECT 1 FROM sqlite_master WHERE type = 'trigger' AND name = ?", (GUARD_NAME,)).fetchone() \
                is None:
            conn.execute(GUARD)
        if conn.execute("SELECT 1 FROM meta WHERE key = ?", (STALE_KEY,)).fetchone() is not None:
            _rebuild(conn)
        lost = missing_indexes(conn)  # dropped by hand or by a write that committed with them deferred
        if lost:
            log.warning("creating %d missing index(es) of the schema: %s", len(lost),
                        ", ".join(re.match(r"CREATE (?:UNIQUE )?INDEX (\w+)", s).group(1) for s in lost))  # type: ignore[union-attr]
            with _immediate(conn):
                for statement in missing_indexes(conn):  # again under the lock: another writer may have made them
                    conn.execute(statement)
    except sqlite3.Error as exc:
        if getattr(exc, "sqlite_errorcode", 0) & 0xFF not in _LATER:
            raise
        log.warning("the BM25 block maxima are left as they are for now (%s): searches answer the same", exc)


@contextlib.contextmanager
def _immediate(conn: sqlite3.Connection) -> Iterator[None]:
    """One ``BEGIN IMMEDIATE`` transaction on ``conn`` around the block: committed at its end, rolled
    back on any error (raised again)."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _rebuild(conn: sqlite3.Connection) -> None:
    with _immediate(conn):
        if conn.execute("SELECT 1 FROM meta WHERE key = ?", (STALE_KEY,)).fetchone() is not None:
            log.info("rebuilding the BM25 block maxima (chunks were written without them)")
            conn.execute(f"DELETE FROM {TABLE}")
            conn.execute("DELETE FROM meta WHERE key IN (?, ?)", (REFERENCE_KEY, STALE_KEY))
            _fill(conn)


def _migrate(conn: sqlite3.Connection, version: str) -> bool:
    with _immediate(conn):
        now = conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()
        if now is None or now[0] != version:  # another process migrated meanwhile (nothing written here)
            return False
        log.info("adding the BM25 block maxima to the index (schema %s -> %d, once)", version, SCHEMA_VERSION)
        conn.execute(f"DROP TRIGGER IF EXISTS {LEGACY_GUARD}")
        conn.execute(f"DROP TABLE IF EXISTS {LEGACY_TABLE}")
        conn.execute("DELETE FROM meta WHERE key IN (?, ?)", (REFERENCE_KEY, STALE_KEY))
        add_parent_cut(conn)
        conn.execute(CREATE_TABLE)
        conn.execute(GUARD)
        _fill(conn)
        conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION),))
    return True


def _fill(conn: sqlite3.Connection) -> None:
    """The block maxima of every chunk row, at the FTS table's mean row length now (inside the caller's
    transaction, the table empty)."""
    record = conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()
    if record is not None and record[0]:
        rows, tokens = fts_averages(record[0])
        if rows > 0 and tokens > 0:
            conn.execute("INSERT INTO meta (key, value) VALUES (?, ?)", (REFERENCE_KEY, repr(tokens / rows)))
    last = 0
    while True:
        batch = chunk_texts(conn, "c.rowid > ? ORDER BY c.rowid LIMIT ?", (last, BATCH_ROWS),
                            "c.rowid, c.name, coalesce(c.fqn, (SELECT id FROM ids WHERE nid = c.nid))")
        if not batch:
            break
        record_rows(conn, [(rowid, (analyze_joined(name), analyze_joined(fqn), analyze_joined(text)))
                           for rowid, name, fqn, text in batch], BM25_WEIGHTS)
        last = batch[-1][0]
