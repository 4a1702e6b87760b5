"""What only the embedded backend promises: the file, its errors, graph + chunks in one transaction."""

from __future__ import annotations

import sqlite3
import threading

import pytest

from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node, SearchFilters
from stores.embedded import SCHEMA_VERSION, EmbeddedStore, is_ripple_index
from stores.errors import NotAnIndex, StoreCorrupt, StoreOutdated, StoreTooNew, StoreUnavailable
from stores.factory import open_store


def indexed(path: str, *, chunk_text: str = "def handle(request): return render(request)") -> IndexedFile:
    fid, mid = f"r:{path}", f"r:{path.removesuffix('.py')}.handle(1)"
    return IndexedFile(
        FileRecord("r", path, "python", "a" * 64, 10),
        nodes=[
            Node(fid, "File", path, path, "r", path, 1, 0, 3, 0, {"language": "python"}),
            Node(mid, "Function", "handle", "handle", "r", path, 1, 0, 2, 0, {"arity": 1}),
        ],
        edges=[Edge("CONTAINS", fid, mid, "r", path)],
        chunks=[Chunk(f"chunk:{mid}", "r", "p", path, "python", "function", "handle", mid, None, 1, 2,
                      chunk_text, "b" * 64)],
    )


def test_default_path_and_folder_creation(tmp_path):
    path = EmbeddedStore.default_path(tmp_path / "ws")
    assert path == tmp_path / "ws" / ".ripple" / "index.db"
    assert not path.parent.exists()
    with EmbeddedStore(path) as store:
        assert store.repos() == []
    assert path.is_file()


def test_wal_and_reopen_keeps_data(tmp_path):
    path = tmp_path / "index.db"
    store = EmbeddedStore(path)
    store.replace_files([indexed("a.py")])
    store.close()
    store.close()  # idempotent
    with pytest.raises(StoreUnavailable):
        store.repos()
    with EmbeddedStore(path) as again:
        assert again.file_checksums("r") == {"a.py": "a" * 64}
        assert again.chunk_count() == {"chunks": 1, "embedded": 0}
        assert again._db.execute("PRAGMA journal_mode").fetchone()[0] == "wal"


def test_garbage_file_is_not_an_index_and_never_to_be_deleted(tmp_path):
    path = tmp_path / "index.db"
    data = b"this is not a database, just some bytes " * 100
    path.write_bytes(data)
    with pytest.raises(NotAnIndex) as info:
        EmbeddedStore(path)
    assert str(info.value) == (f"{path} is not a ripple index (file is not a database); ripple did not create it and "
                               "leaves it alone: pass another --db (or RIPPLE_DB)")
    assert path.read_bytes() == data


def test_foreign_sqlite_file_is_not_an_index(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE people (name TEXT)")
    conn.commit()
    conn.close()
    with pytest.raises(NotAnIndex, match="a SQLite database without ripplegraph's tables") as info:
        EmbeddedStore(path)
    assert "delete" not in str(info.value)
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE meta (key TEXT PRIMARY KEY, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('application', 'someone-else')")
    conn.commit()
    conn.close()
    with pytest.raises(NotAnIndex, match="a SQLite database of another application"):
        EmbeddedStore(path)


def test_a_damaged_ripple_index_is_corrupt_and_may_be_deleted(tmp_path):
    path = tmp_path / "index.db"
    EmbeddedStore(path).close()
    assert is_ripple_index(path) and not is_ripple_index(tmp_path / "missing.db")
    head = path.read_bytes()[:100]
    path.write_bytes(head + b"\xff" * 8092)  # the header says ripplegraph; the pages are gone
    with pytest.raises(StoreCorrupt) as info:
        EmbeddedStore(path)
    assert not isinstance(info.value, NotAnIndex)
    assert str(info.value).endswith("delete it and re-index")


def test_other_schema_version_is_corrupt(tmp_path):
    path = tmp_path / "index.db"
    EmbeddedStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION - 3),))
    conn.commit()
    conn.close()
    with pytest.raises(StoreOutdated, match="run `ripple index` again"):
        EmbeddedStore(path)
    # Opening to read keeps refusing; opening to (re)build replaces the outdated index.
    with pytest.raises(StoreOutdated):
        open_store(path)
    open_store(path, create=True).close()
    EmbeddedStore(path).close()


def test_a_newer_schema_version_is_refused_not_rebuilt(tmp_path):
    path = tmp_path / "index.db"
    EmbeddedStore(path).close()
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(SCHEMA_VERSION + 1),))
    conn.commit()
    conn.close()
    for opening in (lambda: EmbeddedStore(path), lambda: open_store(path), lambda: open_store(path, create=True)):
        with pytest.raises(StoreTooNew, match="written by a newer ripplegraph") as info:
            opening()
        assert not isinstance(info.value, StoreOutdated)  # nothing rebuilds it
    conn = sqlite3.connect(path)
    assert conn.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == (str(SCHEMA_VERSION + 1),)
    conn.close()


def test_a_file_that_is_not_an_index_is_never_replaced(tmp_path):
    path = tmp_path / "other.db"
    conn = sqlite3.connect(path)
    conn.execute("CREATE TABLE precious (x)")
    conn.commit()
    conn.close()
    with pytest.raises(StoreCorrupt):
        open_store(path, create=True)
    assert sqlite3.connect(path).execute("SELECT name FROM sqlite_master").fetchall() == [("precious",)]


def test_uncreatable_folder_is_unavailable(tmp_path):
    blocker = tmp_path / "a-file"
    blocker.write_text("x")
    with pytest.raises(StoreUnavailable) as info:
        EmbeddedStore(blocker / "sub" / "index.db")
    assert isinstance(info.value.__cause__, OSError)


def test_path_that_is_a_folder_is_unavailable(tmp_path):
    with pytest.raises(StoreUnavailable) as info:
        EmbeddedStore(tmp_path)
    assert str(info.value) == (f"{tmp_path} is a folder, not an index file; pass the index file (such as "
                               f"{tmp_path / 'index.db'})")


def test_locked_by_another_writer_is_unavailable(tmp_path):
    path = tmp_path / "index.db"
    store = EmbeddedStore(path, busy_timeout=0.1)
    other = sqlite3.connect(path, isolation_level=None)
    other.execute("BEGIN IMMEDIATE")
    try:
        with pytest.raises(StoreUnavailable) as info:
            store.replace_files([indexed("a.py")])
        assert str(info.value) == (f"index {path} is busy (database is locked): another ripple process is writing "
                                   "it; retry when it is done")
        assert isinstance(info.value.__cause__, sqlite3.OperationalError)
        assert store.repos() == []  # readers still read under WAL
    finally:
        other.execute("ROLLBACK")
        other.close()
    store.replace_files([indexed("a.py")])
    assert store.repos() == ["r"]
    store.close()


def test_graph_and_chunks_replaced_together(tmp_path):
    with EmbeddedStore(tmp_path / "index.db") as store:
        store.replace_files([indexed("a.py"), indexed("b.py", chunk_text="class Owner: pass")])
        assert store.chunk_count() == {"chunks": 2, "embedded": 0}
        assert [h.chunk_id for h in store.bm25("render request", 5)] == ["chunk:r:a.handle(1)"]
        store.replace_files([indexed("a.py", chunk_text="def handle(x): return x")])
        assert store.bm25("render", 5) == []
        assert store.chunk_count() == {"chunks": 2, "embedded": 0}
        store.delete_files("r", ["a.py"])
        assert store.get_chunks(["chunk:r:a.handle(1)"]) == {}
        assert store.chunk_count() == {"chunks": 1, "embedded": 0}
        assert store.stats()["nodes"] == {"File": 1, "Function": 1}


def test_replace_chunks_leaves_graph_alone(tmp_path):
    with EmbeddedStore(tmp_path / "index.db") as store:
        store.replace_files([indexed("a.py")])
        store.replace_chunks([IndexedFile(FileRecord("r", "a.py", "python", "c" * 64, 1))])
        assert store.chunk_count() == {"chunks": 0, "embedded": 0}
        assert store.file_checksums("r") == {"a.py": "a" * 64}
        assert len(store.nodes_in_file("r", "a.py")) == 2


def test_failed_write_rolls_back(tmp_path):
    with EmbeddedStore(tmp_path / "index.db") as store:
        store.replace_files([indexed("a.py")])
        bad = indexed("a.py")
        bad.nodes.append(Node("r:a.x", "Field", "x", "x", "r", "a.py", 1, 0, 1, 1, {"bad": {1, 2}}))
        with pytest.raises(TypeError):
            store.replace_files([indexed("b.py"), bad])
        assert store.file_checksums("r") == {"a.py": "a" * 64}
        assert store.stats()["nodes"] == {"File": 1, "Function": 1}
        assert store.chunk_count()["chunks"] == 1


def test_analysed_originals_stay_single_fts_tokens(tmp_path):
    with EmbeddedStore(tmp_path / "index.db") as store:
        store.replace_files([indexed("a.py", chunk_text="from django.db.models import Q; my_var = $scope")])
        store.replace_files([indexed("b.py", chunk_text="django db models")])
        hits = store.bm25("django.db.models", 5)
        assert [h.chunk_id for h in hits] == ["chunk:r:a.handle(1)", "chunk:r:b.handle(1)"]
        assert [h.chunk_id for h in store.bm25("my_var", 5)] == ["chunk:r:a.handle(1)"]


def test_embeddings_are_normalised_and_scored_by_cosine(tmp_path):
    with EmbeddedStore(tmp_path / "index.db") as store:
        store.replace_files([indexed("a.py"), indexed("b.py")])
        store.set_embeddings({"chunk:r:a.handle(1)": [3.0, 4.0, 0.0], "chunk:r:b.handle(1)": [0.0, 0.0, 2.0]})
        emb = store.get_chunks(["chunk:r:a.handle(1)"])["chunk:r:a.handle(1)"].embedding
        assert emb == pytest.approx((0.6, 0.8, 0.0))
        hits = store.knn([1.0, 0.0, 0.0], 5)
        assert [(h.chunk_id, h.rank) for h in hits] == [("chunk:r:a.handle(1)", 1), ("chunk:r:b.handle(1)", 2)]
        assert [h.score for h in hits] == pytest.approx([0.6, 0.0])
        assert store.knn([1.0, 0.0], 5) == []  # no vectors of that dimension
        assert store.knn([1.0, 0.0, 0.0], 0) == []
        assert store.knn([1.0, 0.0, 0.0], 5, SearchFilters(product="p", repo="r"))[0].score == pytest.approx(0.6)


def test_second_connection_sees_writes(tmp_path):
    path = tmp_path / "index.db"
    with EmbeddedStore(path) as writer, EmbeddedStore(path) as reader:
        writer.replace_files([indexed("a.py")])
        writer.set_embeddings({"chunk:r:a.handle(1)": [1.0, 0.0]})
        assert [h.chunk_id for h in reader.knn([1.0, 0.0], 1)] == ["chunk:r:a.handle(1)"]
        writer.set_embeddings({"chunk:r:a.handle(1)": [0.0, 1.0]})
        assert reader.knn([1.0, 0.0], 1)[0].score == pytest.approx(0.0)
        writer.delete_files("r", ["a.py"])
        assert reader.knn([1.0, 0.0], 1) == []
        assert reader.repos() == []


def test_one_instance_shared_by_threads(tmp_path):
    with EmbeddedStore(tmp_path / "index.db") as store:
        errors: list[BaseException] = []

        def work(i: int) -> None:
            try:
                store.replace_files([indexed(f"f{i}.py")])
                store.incoming([f"r:f{i}.handle(1)"], ["CONTAINS"])
            except BaseException as exc:  # pragma: no cover - reported below
                errors.append(exc)

        threads = [threading.Thread(target=work, args=(i,)) for i in range(8)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        assert errors == []
        assert len(store.file_checksums("r")) == 8


def test_bm25_drops_tokens_found_in_half_the_chunks_when_a_rarer_one_remains(tmp_path):
    with EmbeddedStore(tmp_path / "index.db") as store:
        store.replace_files([indexed(f"f{i}.py", chunk_text=f"common word{i}") for i in range(4)])
        store.replace_files([indexed("rare.py", chunk_text="common rare")])
        assert [h.chunk_id for h in store.bm25("common rare", 10)] == ["chunk:r:rare.handle(1)"]
        assert len(store.bm25("common", 10)) == 5
        # "rare" is also in that chunk's fqn (r:rare.handle(1)), which weighs 2.
        assert [h.chunk_id for h in store.bm25("rare word0", 10)] == [
            "chunk:r:rare.handle(1)", "chunk:r:f0.handle(1)",
        ]


def test_chunk_counts_follow_another_connections_commit(tmp_path):
    path = tmp_path / "index.db"
    reader, writer = EmbeddedStore(path), EmbeddedStore(path)
    assert reader.chunk_count() == {"chunks": 0, "embedded": 0}  # now cached in the reader
    writer.replace_files([indexed("a.py")])
    assert reader.chunk_count() == {"chunks": 1, "embedded": 0}
    writer.set_embeddings({"chunk:r:a.handle(1)": [1.0] + [0.0] * 383})
    assert reader.chunk_count() == {"chunks": 1, "embedded": 1}
    reader.close()
    writer.close()


def test_bm25_drops_the_most_common_token_over_the_postings_budget(tmp_path, monkeypatch):
    store = EmbeddedStore(tmp_path / "index.db")
    files = [indexed(f"m{i}.py", chunk_text=f"def handle(request): return cache_lookup(request, {i})") for i in range(4)]
    files += [indexed(f"other{i}.py", chunk_text=f"def unrelated_{i}(): pass") for i in range(6)]
    files += [indexed("rare.py", chunk_text="def handle(request): return zeppelin_launch(request)")]
    store.replace_files(files)
    both = sorted(h.chunk_id for h in store.bm25("cache_lookup zeppelin_launch", 20))
    assert both == ["chunk:r:m0.handle(1)", "chunk:r:m1.handle(1)", "chunk:r:m2.handle(1)",
                    "chunk:r:m3.handle(1)", "chunk:r:rare.handle(1)"]
    monkeypatch.setattr("stores.embedded_lexical._POSTINGS_BUDGET", 3)
    assert [h.chunk_id for h in store.bm25("cache_lookup zeppelin_launch", 20)] == ["chunk:r:rare.handle(1)"]
    store.close()


def test_version_token_sees_another_process_commit(tmp_path):
    path = tmp_path / "index.db"
    with EmbeddedStore(path) as reader, EmbeddedStore(path) as writer:
        seen = reader.version_token()
        assert reader.version_token() == seen
        writer.replace_files([indexed("a.py")])
        moved = reader.version_token()
        assert moved != seen
        reader.get_nodes(["r:a.py"])
        assert reader.version_token() == moved
        # another process: a plain sqlite3 connection committing through the same file
        conn = sqlite3.connect(path)
        conn.execute("UPDATE files SET size = 11")
        conn.commit()
        conn.close()
        assert reader.version_token() not in (seen, moved)
