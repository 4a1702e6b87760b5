"""A write transaction on an empty embedded store builds its secondary indexes once before the commit
(:func:`stores.embedded_schema.defer_indexes`): absent while it writes, back with the stored SQL after,
the same rows and index entries as a write that kept them, kept through a rollback and a killed
process, never dropped on a store that holds rows."""

from __future__ import annotations

import os
import signal
import sqlite3
import subprocess
import sys
import textwrap

import pytest

from stores import embedded_tx
from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from stores.embedded_schema import DEFERRED_INDEXES, schema_statements

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))


def _file(path: str, callee: str) -> IndexedFile:
    fid, mid = f"r:{path}", f"r:{path[:-3]}.run(0)"
    text = f"def run():\n    {callee}()\n"
    return IndexedFile(
        FileRecord("r", path, "python", "c" * 40, len(text)),
        nodes=[Node(fid, "File", path, path, "r", path, 1, 0, 2, 0),
               Node(mid, "Function", "run", "run", "r", path, 1, 0, 2, 0, {"arity": 0})],
        edges=[Edge("CONTAINS", fid, mid, "r", path), Edge("CALLS", mid, f"r:lib.{callee}(0)", "r", path, 2, 4, "exact")],
        chunks=[Chunk(mid, "r", "p", path, "python", "function", "run", mid, None, 1, 2, text, f"k{path}")],
        text=text)


FILES = [_file("a.py", "grind"), _file("b.py", "brew"), _file("c.py", "grind")]


def _indexes(conn: sqlite3.Connection) -> dict[str, str]:
    return dict(conn.execute("SELECT name, sql FROM sqlite_master WHERE type = 'index' AND sql IS NOT NULL"))


def _schema_indexes() -> dict[str, str]:
    conn = sqlite3.connect(":memory:")
    for statement in schema_statements():
        conn.execute(statement)
    return _indexes(conn)


def _content(db) -> dict[str, list[tuple]]:
    """Every graph and chunk table's rows, and each deferred index's entries in its own order."""
    conn = sqlite3.connect(db)
    try:
        out = {t: sorted(conn.execute(f"SELECT * FROM {t}").fetchall(), key=repr)
               for t in ("ids", "paths", "terms", "file_rows", "node_rows", "edge_rows", "unresolved_rows", "chunk_rows")}
        for name, sql in _indexes(conn).items():
            if name in DEFERRED_INDEXES:
                table, cols = sql.split(" ON ", 1)[1].split(" ", 1)
                out[name] = conn.execute(f"SELECT {cols.strip('()')}, rowid FROM {table} INDEXED BY {name}").fetchall()
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        return out
    finally:
        conn.close()


def test_an_empty_store_writes_without_them_and_builds_them_before_the_commit(tmp_path, monkeypatch):
    wanted = _schema_indexes()
    assert set(DEFERRED_INDEXES) <= wanted.keys()
    with EmbeddedStore(tmp_path / "i.db") as store:
        conn = store._db  # noqa: SLF001
        assert _indexes(conn) == wanted
        with store.transaction():
            store.replace_files(FILES[:2])
            during = _indexes(conn)
            store.replace_files(FILES[2:])
        assert sorted(wanted.keys() - during.keys()) == sorted(DEFERRED_INDEXES)
        assert {"ids_hash", "edge_rows_dst", "edge_rows_src", "chunk_rows_vectors"} <= during.keys()
        assert _indexes(conn) == wanted  # the same SQL text as the schema's
        plan = " ".join(r[3] for r in conn.execute("EXPLAIN QUERY PLAN SELECT nid FROM node_rows WHERE name = 'run'"))
        assert "node_rows_name" in plan
        assert [c.chunk_id for c in store.bm25("grind", 5)] == ["r:a.run(0)", "r:c.run(0)"]
        assert sorted(e.src for e in store.incoming(["r:lib.grind(0)"], ["CALLS"])["r:lib.grind(0)"]) == [
            "r:a.run(0)", "r:c.run(0)"]
    # The same rows and index entries as the same writes with the indexes kept throughout.
    monkeypatch.setattr(embedded_tx, "defer_indexes", lambda conn: [])
    with EmbeddedStore(tmp_path / "j.db") as other:
        with other.transaction():
            other.replace_files(FILES[:2])
            assert _indexes(other._db) == wanted  # noqa: SLF001
            other.replace_files(FILES[2:])
    assert _content(tmp_path / "i.db") == _content(tmp_path / "j.db")


def test_a_store_holding_rows_keeps_them_while_it_writes(tmp_path):
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files(FILES[:1])
        conn = store._db  # noqa: SLF001
        with store.transaction():
            store.replace_files(FILES[1:])
            assert _indexes(conn) == _schema_indexes()


def test_a_rollback_on_an_empty_store_leaves_them(tmp_path):
    with EmbeddedStore(tmp_path / "i.db") as store:
        conn = store._db  # noqa: SLF001
        with pytest.raises(RuntimeError, match="stop"), store.transaction():
            store.replace_files(FILES)
            assert DEFERRED_INDEXES[0] not in _indexes(conn)
            raise RuntimeError("stop")
        assert _indexes(conn) == _schema_indexes()
        assert conn.execute("SELECT count(*) FROM node_rows").fetchone() == (0,)
        store.replace_files(FILES)  # and the store is usable
        assert conn.execute("SELECT count(*) FROM node_rows").fetchone() == (6,)


def test_a_writer_killed_mid_transaction_leaves_the_store_as_it_was(tmp_path):
    db = tmp_path / "i.db"
    EmbeddedStore(db).close()
    script = textwrap.dedent(f"""
        import os, signal, sys
        sys.path.insert(0, {ROOT!r})
        from tests.unit.test_deferred_indexes import FILES
        from stores.embedded import EmbeddedStore
        store = EmbeddedStore({str(db)!r})
        with store.transaction():
            store.replace_files(FILES)
            os.kill(os.getpid(), signal.SIGKILL)
    """)
    proc = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, timeout=120)
    assert proc.returncode == -signal.SIGKILL, proc.stderr.decode()
    with EmbeddedStore(db) as store:
        conn = store._db  # noqa: SLF001
        assert _indexes(conn) == _schema_indexes()
        assert conn.execute("SELECT count(*) FROM node_rows").fetchone() == (0,)
        assert conn.execute("PRAGMA integrity_check").fetchone() == ("ok",)
