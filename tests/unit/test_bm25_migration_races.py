"""The schema 6 -> 8 migration (:mod:`stores.embedded_migrate`) beside other processes: an index another
process is migrating (its write lock held past the busy timeout: 5-60 s at 100,000 chunks) still opens
and answers as before, takes writes once the lock is free, and is migrated by a later open; a process
killed mid-migration leaves the index at 6, answering the same, and the next open migrates it."""

from __future__ import annotations

import json
import os
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import stores.embedded_migrate as embedded_migrate
from stores.embedded_schema import SCHEMA_VERSION
from stores.analyzer import analyze_joined
from stores.bm25_blocks import GUARD_NAME, TABLE, read_bounds
from stores.embedded import EmbeddedStore
from stores.embedded_schema import chunk_texts
from tests.bm25_spies import plain_bm25
from tests.unit.test_bm25_exact import as_schema_6, chunked_file

_QUERIES = ("alpha beta", "gamma value", "delta", "getUser data item", "parse_url alpha")


def _corpus(n: int, salt: int = 0) -> list:
    words = ["alpha", "beta", "gamma", "delta", "value", "data", "item", "self", "getUser", "parse_url"]
    return [chunked_file(i, [" ".join(words[(i * 7 + j * 5 + k * 3 + salt) % len(words)] for k in range(2 + (i + j) % 11))
                     for j in range(1 + i % 3)]) for i in range(n)]


def _answers(store: EmbeddedStore) -> dict[str, list[tuple[str, float]]]:
    return {q: [(h.chunk_id, h.score) for h in store.bm25(q, 10)] for q in _QUERIES}


def _version(db: Path) -> str:
    conn = sqlite3.connect(db)
    try:
        return conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone()[0]
    finally:
        conn.close()


def _schema_6(tmp_path: Path, n: int = 300) -> tuple[Path, dict]:
    db = tmp_path / "i.db"
    with EmbeddedStore(db) as store:
        store.replace_files(_corpus(n))
        store.delete_files("r", [f"k{i:04d}.py" for i in range(1, n, 9)])
        answers = _answers(store)
    as_schema_6(db)
    return db, answers


def test_an_index_another_process_is_migrating_opens_and_answers(tmp_path, monkeypatch) -> None:
    """Another connection holds the write lock of a schema-6 index (as a migration does, for its whole
    run) past this open's busy timeout: the open used to fail ("index is busy"), for a search too. It
    opens, reads the index as schema 6 (same answers), and its write waits for the lock like any
    write; then the other side's migration lands and this instance's writes keep its block maxima."""
    db, answers = _schema_6(tmp_path)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        store = EmbeddedStore(db, busy_timeout=0.2)
    finally:
        other.execute("ROLLBACK")
    try:
        assert store.read_only is None and _version(db) == "6"
        assert _answers(store) == answers
        # the other side migrates now (after this instance opened), then this instance writes
        assert embedded_migrate.migrate(other, "6") is True
        assert _version(db) == str(SCHEMA_VERSION)
        assert other.execute("SELECT name FROM sqlite_master WHERE type = 'trigger' AND tbl_name = 'chunk_rows'"
                             ).fetchall() == [(GUARD_NAME,)]  # the migration adds the guard
        store.replace_files(_corpus(40, salt=5))
        for q in _QUERIES:
            for limit in (1, 10, 500):
                got = [(h.chunk_id, h.score) for h in store.bm25(q, limit)]
                assert got == [(h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, q, limit)]
        # 600 chunk rows migrated, then this instance's 79 (rowids 601-679: blocks 9 and 10) recorded
        assert store._db.execute("SELECT max(rowid) FROM chunk_rows").fetchone()[0] == 679
        _, found = read_bounds(store._db, ["alpha"])
        assert found["alpha"][0].tolist() == list(range(11))
    finally:
        store.close()
        other.close()


def test_a_write_to_an_index_left_at_6_keeps_it_exact_and_a_later_open_migrates(tmp_path, monkeypatch) -> None:
    """The migrating process went away without migrating (killed: rolled back). This instance, opened
    at 6 while it ran, writes without block maxima (the index has no table for them); the next
    writable open migrates with those rows, and answers stay those of scoring every match."""
    db, answers = _schema_6(tmp_path)
    other = sqlite3.connect(db, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        store = EmbeddedStore(db, busy_timeout=0.2)
    finally:
        other.execute("ROLLBACK")
        other.close()
    with store:
        store.replace_files(_corpus(40, salt=5))
        store.delete_files("r", ["k0002.py"])
        assert _version(db) == "6"
        assert store._db.execute("SELECT count(*) FROM sqlite_master WHERE name = ?", (TABLE,)).fetchone()[0] == 0
        after = _answers(store)
        assert after != answers  # the writes changed the answers
        for q in _QUERIES:
            assert after[q] == [(h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, q, 10)]
    with EmbeddedStore(db) as store:
        assert _version(db) == str(SCHEMA_VERSION)
        assert _answers(store) == after
        for q in _QUERIES:
            for limit in (1, 3, 500):
                got = [(h.chunk_id, h.score) for h in store.bm25(q, limit)]
                assert got == [(h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, q, limit)]


_CHILD = """
import sys
sys.path[:0] = [{root!r}]
import stores.embedded_migrate as m
from stores.embedded import EmbeddedStore
real = m.record_rows
batches = 0
def record_rows(conn, rows, weights):
    global batches
    if batches == 0:
        conn.execute("PRAGMA cache_size = 4")  # spill the migration's pages to the WAL before its commit
    real(conn, rows, weights)
    batches += 1
    if batches == 3:
        print("migrating", flush=True)
        sys.stdin.readline()  # killed here
m.record_rows = record_rows
m.BATCH_ROWS = 100
EmbeddedStore({db!r})
print("not killed", flush=True)
"""


def test_a_process_killed_mid_migration_leaves_the_index_at_6_answering_the_same(tmp_path, monkeypatch) -> None:
    """kill -9 after three of the migration's batches, its pages spilled to the WAL uncommitted: the
    index is still at 6 with no block-max table, answers as before, and the next open migrates it."""
    db, answers = _schema_6(tmp_path, n=600)
    root = str(Path(__file__).resolve().parents[2])
    with subprocess.Popen([sys.executable, "-c", _CHILD.format(root=root, db=str(db))], stdin=subprocess.PIPE,
                          stdout=subprocess.PIPE, text=True) as child:
        try:
            assert child.stdout.readline().strip() == "migrating"
            assert Path(f"{db}-wal").stat().st_size > 0  # uncommitted frames on disk
        finally:
            os.kill(child.pid, signal.SIGKILL)
    assert child.returncode == -signal.SIGKILL
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        assert conn.execute("PRAGMA integrity_check").fetchall() == [("ok",)]
        assert conn.execute("SELECT count(*) FROM sqlite_master WHERE name = ?", (TABLE,)).fetchone()[0] == 0
    finally:
        conn.close()
    assert _version(db) == "6"
    with EmbeddedStore(db) as store:
        assert _version(db) == str(SCHEMA_VERSION)
        assert json.dumps(_answers(store)) == json.dumps(answers)
        assert read_bounds(store._db, ["alpha"]) is not None


def test_a_disk_full_mid_migration_leaves_the_index_at_6_open_and_answering(tmp_path, monkeypatch) -> None:
    """The disk fills while the migration writes the block maxima (the file capped at its size then:
    SQLite's own "database or disk is full"). The index stays at 6 and this open still answers as before
    (it failed with "disk full" before, though reading needs no space); the next open migrates."""
    db, answers = _schema_6(tmp_path)
    conn = sqlite3.connect(db)
    conn.execute("VACUUM")  # no free pages left by the dropped table: the migration must grow the file
    conn.close()
    real = embedded_migrate.record_rows

    def fill_the_disk(conn, rows, weights):  # type: ignore[no-untyped-def]
        pages = conn.execute("PRAGMA page_count").fetchone()[0]
        conn.execute(f"PRAGMA max_page_count = {pages}")
        real(conn, rows, weights)

    monkeypatch.setattr(embedded_migrate, "record_rows", fill_the_disk)
    with EmbeddedStore(db) as store:
        assert store.read_only is None and _version(db) == "6"
        assert _answers(store) == answers
    monkeypatch.setattr(embedded_migrate, "record_rows", real)
    with EmbeddedStore(db) as store:
        assert _version(db) == str(SCHEMA_VERSION)
        assert _answers(store) == answers


def _old_writer_corpus() -> list:
    """'alpha beta' in every 5th chunk: short ones in rowids 1-255, long ones in 256-299 (block 4's
    maxima the lowest)."""
    filler = " ".join(["value"] * 40)
    return [chunked_file(i, [("alpha beta " if i % 5 == 0 else "gamma ") + (filler if i < 256 else filler * 5)])
            for i in range(1, 300)]


def test_chunks_written_by_a_process_without_block_maxima_are_not_skipped(tmp_path, monkeypatch) -> None:
    """A process of the schema-6 code opened the index before another migrated it (a watcher or server
    left running across the upgrade) and keeps writing: its chunks get no block maxima. Reproduced with
    the real schema-6 code (main before bmx22; docs/benchmarks.md): an edit adding 11 short 'alpha alpha
    beta' chunks (rowids 299-309, block 4, whose maxima were the lowest) lost all five best hits. Here
    the old writer is this code without its maxima and without the writer's mark: the index's trigger
    marks the maxima stale, reads stop using them (exact), and the next writable open rebuilds them."""
    import stores.embedded_lexical as embedded_lexical
    import stores.embedded_write as embedded_write
    from stores.bm25_blocks import REFERENCE_KEY, STALE_KEY, block_maxima, fts_averages
    from stores.embedded_lexical import BM25_WEIGHTS
    monkeypatch.setattr(embedded_lexical, "_PROBE_BLOCKS", 1)
    db = tmp_path / "i.db"
    with EmbeddedStore(db) as store:
        store.replace_files(_old_writer_corpus())
    # the 11 new chunks tie; FTS5's top 5 are the lowest rowids (299-303), then ordered by id
    want_ids = sorted(chunked_file(i, ["alpha alpha beta"]).chunks[0].id for i in range(299, 304))
    with EmbeddedStore(db) as store:
        with monkeypatch.context() as m:  # the old writer
            m.setattr(embedded_write, "record_rows", lambda conn, rows, weights, prepared=None: None)
            m.setattr(embedded_write, "WRITER_KEY", "not_the_mark")
            store.replace_files([chunked_file(i, ["alpha alpha beta"]) for i in range(299, 310)])
        assert store._db.execute("SELECT value FROM meta WHERE key = ?", (STALE_KEY,)).fetchone() == ("1",)
        assert read_bounds(store._db, ["alpha", "beta"]) is None
        want = plain_bm25(store, monkeypatch, "alpha beta", 5)
        assert [h.chunk_id for h in want] == want_ids
        assert [(h.chunk_id, h.score) for h in store.bm25("alpha beta", 5)] == [(h.chunk_id, h.score) for h in want]
        store.replace_files([chunked_file(400, ["alpha delta"])])  # this code's writes leave it stale
        assert store._db.execute("SELECT value FROM meta WHERE key = ?", (STALE_KEY,)).fetchone() == ("1",)
    with EmbeddedStore(db) as store:  # rebuilt at the writable open
        conn = store._db
        assert conn.execute("SELECT value FROM meta WHERE key = ?", (STALE_KEY,)).fetchone() is None
        rows, tokens = fts_averages(conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()[0])
        reference = float(conn.execute("SELECT value FROM meta WHERE key = ?", (REFERENCE_KEY,)).fetchone()[0])
        assert reference == tokens / rows
        columns = [(rowid, (analyze_joined(name), analyze_joined(fqn), analyze_joined(text))) for rowid, name, fqn, text
                   in chunk_texts(conn, "1", (), "c.rowid, c.name, coalesce(c.fqn, (SELECT id FROM ids WHERE nid = c.nid))")]
        expected = block_maxima(columns, BM25_WEIGHTS, reference)
        _, found = read_bounds(conn, ["alpha", "beta"])
        for term in ("alpha", "beta"):
            assert dict(zip(found[term][0].tolist(), found[term][1].tolist())) == expected[term]
        assert found["alpha"][0].tolist() == [0, 1, 2, 3, 4]  # block 4: the old writer's rows 299-309 and 310
        got = [(h.chunk_id, h.score) for h in store.bm25("alpha beta", 5)]
        assert got == [(h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, "alpha beta", 5)]
        assert [c for c, _ in got] == want_ids


def _as_schema_7(db: Path) -> None:
    """Turn a schema-8 index into a schema-7 one: schema 7's table (``bm25_blocks``, keyed by the term's
    text, blocks as uint32; here with values that bound nothing: 1 in block 0 for each term) and its guard
    in place of ``bm25_maxima``."""
    as_schema_6(db)
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE bm25_blocks (term TEXT NOT NULL, part INTEGER NOT NULL, blocks BLOB NOT NULL,"
                 " maxima BLOB NOT NULL, PRIMARY KEY (term, part)) WITHOUT ROWID")
    conn.executemany("INSERT INTO bm25_blocks VALUES (?, 0, ?, ?)",
                     [(t, (0).to_bytes(4, "little"), b"\x01") for t in ("alpha", "beta", "gamma", "delta", "value")])
    conn.execute("CREATE TRIGGER bm25_blocks_guard BEFORE INSERT ON chunk_rows WHEN NOT EXISTS (SELECT 1 FROM meta"
                 " WHERE key = 'bm25_blocks_writer') BEGIN INSERT OR REPLACE INTO meta (key, value)"
                 " VALUES ('bm25_blocks_stale', '1'); END")
    conn.execute("INSERT INTO meta (key, value) VALUES ('bm25_blocks_avgdl', '3.0')")
    conn.execute("UPDATE meta SET value = '7' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def test_a_schema_7_index_is_read_without_its_table_and_migrated_to_8(tmp_path, monkeypatch) -> None:
    """Schema 7's block maxima (another layout) are never read by this code: read-only, the index answers
    without block maxima; at a writable open its table and guard are dropped and ``bm25_maxima`` is filled."""
    from tests.hostile.test_hostile_stores_cli import read_only

    db = tmp_path / "i.db"
    with EmbeddedStore(db) as store:
        store.replace_files(_corpus(300))
        answers = _answers(store)
    _as_schema_7(db)
    with read_only(db), EmbeddedStore(db) as store:
        assert store.read_only and _version(db) == "7"
        assert read_bounds(store._db, ["alpha"]) is None  # no bm25_maxima: the legacy table is not read
        assert _answers(store) == answers
    with EmbeddedStore(db) as store:
        conn = store._db
        assert _version(db) == "8"
        assert conn.execute("SELECT name FROM sqlite_master WHERE name LIKE 'bm25%' ORDER BY name").fetchall() == [
            (TABLE,), (GUARD_NAME,)]
        _, found = read_bounds(conn, ["alpha"])
        holding = sorted({rowid >> 6 for rowid, text in chunk_texts(conn, "1", ()) if "alpha" in text.split()})
        assert found["alpha"][0].tolist() == holding and len(holding) == 10  # refilled: 600 chunks' blocks
        assert _answers(store) == answers
        for q in _QUERIES:
            got = [(h.chunk_id, h.score) for h in store.bm25(q, 20)]
            assert got == [(h.chunk_id, h.score) for h in plain_bm25(store, monkeypatch, q, 20)]
