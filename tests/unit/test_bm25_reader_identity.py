"""The embedded store's BM25 connection (``stores.embedded_lexical``) is opened by name at the first
query: it must reach the file the main connection holds, never an index re-created or replaced at the
same path since the instance opened it (a re-index into the same path while a server holds the old one)."""

from __future__ import annotations

import os
from pathlib import Path

from stores.contracts import Chunk, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore


def _file(key: str) -> IndexedFile:
    node = Node(f"r:{key}.py:{key}()", "Function", key, key, "r", f"{key}.py", 1, 0, 2, 0, {"language": "python"})
    chunk = Chunk(node.id, "r", "r", f"{key}.py", "python", "function", key, node.id, None, 1, 2, f"def {key}(): pass",
                  key * 64, None)
    return IndexedFile(FileRecord("r", f"{key}.py", "python", key * 64, 1), [node], [], [], [chunk])


def _index(path: Path, *keys: str) -> None:
    s = EmbeddedStore(path)
    s.replace_files([_file(k) for k in keys])
    s.close()


def test_bm25_ranks_the_file_the_instance_holds_after_the_path_is_replaced(tmp_path: Path) -> None:
    held, other = tmp_path / "index.db", tmp_path / "new.db"
    _index(held, "alpha", "beta")
    _index(other, "gamma")
    s = EmbeddedStore(held)
    try:
        os.replace(other, held)  # another process re-indexed into the same path
        assert [h.chunk_id for h in s.bm25("alpha", 5)] == ["r:alpha.py:alpha()"]
        assert s.bm25("gamma", 5) == []  # the new file's chunk: not this instance's index
        assert s.get_chunks(["r:alpha.py:alpha()"]).keys() == {"r:alpha.py:alpha()"}
        assert s._lexical is None  # no second connection to the new file
    finally:
        s.close()
    fresh = EmbeddedStore(held)  # a new instance reads the new file, on its own BM25 connection
    try:
        assert [h.chunk_id for h in fresh.bm25("gamma", 5)] == ["r:gamma.py:gamma()"]
        assert fresh.bm25("alpha", 5) == []
        assert fresh._lexical is not None
    finally:
        fresh.close()


def test_bm25_of_a_deleted_index_keeps_to_the_open_file(tmp_path: Path) -> None:
    held = tmp_path / "index.db"
    _index(held, "alpha", "beta")
    s = EmbeddedStore(held)
    try:
        for suffix in ("", "-wal", "-shm"):
            Path(f"{held}{suffix}").unlink(missing_ok=True)
        assert [h.chunk_id for h in s.bm25("beta", 5)] == ["r:beta.py:beta()"]
        assert not held.exists()  # the read-only connection created nothing
        assert s._lexical is None
    finally:
        s.close()


def test_one_bm25_query_reads_one_snapshot_on_its_connection(tmp_path: Path) -> None:
    """A commit landing between the BM25 connection's statements of one query (here: as its chunk
    count starts) is not seen half-way: the count the query used belongs to the stamp it read; the
    next query sees the commit."""
    path = tmp_path / "index.db"
    _index(path, "alpha", "beta", "gamma")
    s, other = EmbeddedStore(path), EmbeddedStore(path)
    try:
        assert [h.chunk_id for h in s.bm25("alpha beta", 5)] == ["r:alpha.py:alpha()", "r:beta.py:beta()"]
        reader = s._lexical
        assert reader is not None
        fired: list[str] = []

        def commit_meanwhile(sql: str) -> None:
            if "count(*) FROM chunk_rows" in sql and not fired:
                fired.append(sql)
                other.replace_files([_file("delta")])

        other.replace_files([_file("epsilon")])  # moves the stamp: the count is read again
        reader.conn.set_trace_callback(commit_meanwhile)
        assert [h.chunk_id for h in s.bm25("alpha delta", 5)] == ["r:alpha.py:alpha()"]
        reader.conn.set_trace_callback(None)
        assert fired and reader._rows is not None
        assert reader._rows[1] == 4  # alpha, beta, gamma, epsilon: the state of its stamp, not delta's
        assert [h.chunk_id for h in s.bm25("alpha delta", 5)] == ["r:alpha.py:alpha()", "r:delta.py:delta()"]
        assert reader._rows[1] == 5
    finally:
        other.close()
        s.close()
