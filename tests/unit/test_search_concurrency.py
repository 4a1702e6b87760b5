"""A search reads BM25 in a worker thread beside its dense lists (``analysis.retrieval``), and the
embedded store's kNN product runs outside its lock on the vectors last read, checked to be current
after: a write of the instance or a commit of another connection is never missed."""

from __future__ import annotations

import threading
from pathlib import Path

import numpy as np
import pytest

from analysis.retrieval import QueryEngine
from stores.contracts import Chunk, FileRecord, IndexedFile, Node, ScoredChunk
from stores.embedded import EmbeddedStore


def _file(key: str, vector: list[float]) -> IndexedFile:
    node = Node(f"r:{key}.py:{key}()", "Function", key, key, "r", f"{key}.py", 1, 0, 2, 0, {"language": "python"})
    chunk = Chunk(node.id, "r", "r", f"{key}.py", "python", "function", key, node.id, None, 1, 2, f"def {key}(): pass",
                  key * 64, tuple(vector))
    return IndexedFile(FileRecord("r", f"{key}.py", "python", key * 64, 1), [node], [], [], [chunk])


def _unit(*xs: float) -> list[float]:
    v = np.zeros(384, dtype=np.float64)
    v[: len(xs)] = xs
    return (v / np.linalg.norm(v)).tolist()


@pytest.fixture
def path(tmp_path: Path) -> Path:
    s = EmbeddedStore(tmp_path / "index.db")
    s.replace_files([_file("a", _unit(1, 0)), _file("b", _unit(0, 1)), _file("c", _unit(1, 1))])
    s.close()
    return tmp_path / "index.db"


def test_knn_sees_a_write_of_the_instance_made_after_the_vectors_were_read(path: Path) -> None:
    s = EmbeddedStore(path)
    try:
        assert [h.chunk_id for h in s.knn(_unit(1, 0), 2)] == ["r:a.py:a()", "r:c.py:c()"]
        s.replace_files([_file("a", _unit(0, 1))])  # a now points where b does
        assert [h.chunk_id for h in s.knn(_unit(1, 0), 2)] == ["r:c.py:c()", "r:a.py:a()"]
        s.replace_files([_file("d", _unit(1, 0))])
        top = s.knn(_unit(1, 0), 1)[0]
        assert (top.chunk_id, round(top.score, 6)) == ("r:d.py:d()", 1.0)
    finally:
        s.close()


def test_knn_sees_a_commit_of_another_connection(path: Path) -> None:
    reader, writer = EmbeddedStore(path), EmbeddedStore(path)
    try:
        assert reader.knn(_unit(1, 0), 1)[0].chunk_id == "r:a.py:a()"
        writer.replace_files([_file("e", _unit(1, 0.001))])
        writer.replace_files([_file("a", _unit(-1, 0))])
        assert [h.chunk_id for h in reader.knn(_unit(1, 0), 2)] == ["r:e.py:e()", "r:c.py:c()"]
    finally:
        reader.close()
        writer.close()


def test_knn_after_close_raises(path: Path) -> None:
    from stores.errors import StoreUnavailable

    s = EmbeddedStore(path)
    s.knn(_unit(1, 0), 1)
    s.close()
    with pytest.raises(StoreUnavailable):
        s.knn(_unit(1, 0), 1)


class _Rendezvous(EmbeddedStore):
    """BM25 waits (up to 10 s) for kNN to start: only a search that reads both at once finishes fast."""

    def __init__(self, *a, **k) -> None:  # type: ignore[no-untyped-def]
        super().__init__(*a, **k)
        self.knn_started = threading.Event()
        self.threads: dict[str, str] = {}

    def bm25(self, query, limit, filters=None):  # type: ignore[no-untyped-def]
        self.threads["bm25"] = threading.current_thread().name
        self.waited = self.knn_started.wait(10)
        return super().bm25(query, limit, filters)

    def knn(self, vector, limit, filters=None):  # type: ignore[no-untyped-def]
        self.threads["knn"] = threading.current_thread().name
        self.knn_started.set()
        return super().knn(vector, limit, filters)


def test_search_reads_the_dense_list_beside_bm25(path: Path) -> None:
    s = _Rendezvous(path)
    try:
        engine = QueryEngine(s, s, lambda q: _unit(1, 0))
        lists = engine.ranked_lists("def a")
        assert s.waited, "kNN did not start while BM25 waited: the lists were read one after the other"
        assert s.threads["knn"] == threading.current_thread().name  # the embedder's thread, as before
        assert s.threads["bm25"].startswith("ripple-bm25")
        assert list(lists) == ["bm25", "knn"]
        assert [h.chunk_id for h in lists["knn"]] == ["r:a.py:a()", "r:c.py:c()", "r:b.py:b()"]
        plain = QueryEngine(EmbeddedStore(path), None, None)  # type: ignore[arg-type]
        assert lists["bm25"] == EmbeddedStore.bm25(s, "def a", 50) == plain.graph.bm25("def a", 50)
        plain.graph.close()
    finally:
        s.close()


def test_inside_a_transaction_the_lists_are_read_in_turn(path: Path) -> None:
    """The transaction holds the store's lock in this thread: a BM25 worker would wait for it forever."""
    s = _Rendezvous(path)
    try:
        got: dict[str, object] = {}

        def search() -> None:
            with s.transaction():
                s.knn_started.set()
                got["lists"] = QueryEngine(s, s, lambda q: _unit(1, 0)).ranked_lists("def a")

        runner = threading.Thread(target=search, name="tx-search", daemon=True)
        runner.start()
        runner.join(20)
        assert not runner.is_alive(), "the search inside a transaction hangs"
        lists = got["lists"]
        assert s.threads == {"bm25": "tx-search", "knn": "tx-search"}
        assert [h.chunk_id for h in lists["knn"]] == ["r:a.py:a()", "r:c.py:c()", "r:b.py:b()"]
    finally:
        s.close()


def test_an_error_of_the_dense_side_reaches_the_caller(path: Path) -> None:
    s = EmbeddedStore(path)
    try:
        def broken(query: str) -> list[float]:
            raise RuntimeError("model gone")

        with pytest.raises(RuntimeError, match="model gone"):
            QueryEngine(s, s, broken).search("def a")
        assert isinstance(QueryEngine(s, s, lambda q: _unit(0, 1)).search("def a").hits[0].node, Node)
        assert all(isinstance(h, ScoredChunk) for h in s.knn(_unit(0, 1), 3))
    finally:
        s.close()


def test_bm25_runs_on_a_connection_of_its_own_beside_the_instance_lock(path: Path) -> None:
    """While a BM25 query is inside SQLite (held here by a spy), the instance's other reads proceed:
    before, BM25 held the store's lock and the exact definitions / kNN check waited for it."""
    s = EmbeddedStore(path)
    inside, release = threading.Event(), threading.Event()
    rows = EmbeddedStore._bm25_rows
    connections: list[object] = []

    def held(self, db, *rest):  # type: ignore[no-untyped-def]
        connections.append(db)
        inside.set()
        release.wait(10)
        return rows(self, db, *rest)

    try:
        s._bm25_rows = held.__get__(s)  # type: ignore[method-assign]
        got: dict[str, object] = {}
        worker = threading.Thread(target=lambda: got.setdefault("hits", s.bm25("def a", 5)), daemon=True)
        worker.start()
        assert inside.wait(10)
        reader = threading.Thread(target=lambda: got.setdefault("nodes", s.get_nodes(["r:a.py:a()"])), daemon=True)
        reader.start()
        reader.join(5)
        assert not reader.is_alive(), "get_nodes waited for BM25: the instance lock was held"
        assert list(got["nodes"]) == ["r:a.py:a()"]  # type: ignore[call-overload]
        release.set()
        worker.join(10)
        assert [h.chunk_id for h in got["hits"]] == ["r:a.py:a()", "r:b.py:b()", "r:c.py:c()"]  # type: ignore[attr-defined]
        assert connections and all(c is not s._conn for c in connections)
    finally:
        release.set()
        s.close()


def test_bm25_sees_the_instances_commits_and_inside_a_transaction_its_uncommitted_rows(path: Path) -> None:
    s = EmbeddedStore(path)
    try:
        assert s.bm25("zz", 5) == []
        s.replace_files([_file("zz", _unit(1, 0))])  # committed by the main connection
        assert [h.chunk_id for h in s.bm25("zz", 5)] == ["r:zz.py:zz()"]
        with s.transaction():
            s.replace_files([_file("yy", _unit(0, 1))])
            # the BM25 connection cannot see this yet: the main connection answers
            assert [h.chunk_id for h in s.bm25("yy", 5)] == ["r:yy.py:yy()"]
            other = EmbeddedStore(path)
            assert other.bm25("yy", 5) == []  # not committed
            other.close()
        assert [h.chunk_id for h in s.bm25("yy", 5)] == ["r:yy.py:yy()"]
    finally:
        s.close()


def test_bm25_after_close_raises_and_reopens_nothing(path: Path) -> None:
    from stores.errors import StoreUnavailable

    s = EmbeddedStore(path)
    assert [h.chunk_id for h in s.bm25("def a", 5)] == ["r:a.py:a()", "r:b.py:b()", "r:c.py:c()"]
    assert s._lexical is not None
    s.close()
    assert s._lexical is None
    with pytest.raises(StoreUnavailable, match="closed"):
        s.bm25("def a", 5)
