"""The write's chunk analysis on a second core (:mod:`indexer.write_prep`, :mod:`stores.chunk_prep`): a
forked copy analyses each write batch's chunks and computes their BM25 block maxima ahead; the store
uses a preparation only when it is for exactly the chunks and rowids it writes, so every table of the
index (FTS5's own, the block maxima, the graph) is the same with or without the copy, cold or
incremental, and when the copy fails."""

from __future__ import annotations

import contextlib
import gc
import json
import logging
import sqlite3
import zlib
from pathlib import Path

import psutil
import pytest

import indexer.resolve.forked_binding as fb
import indexer.write_prep as wp
from indexer.forked import can_fork
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.bm25_blocks import row_key
from stores.chunk_prep import ChunkBasis, PreparedChunks, chunk_keys, prepare_chunks
from stores.contracts import Chunk, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from stores.embedded_schema import compress_text

pytestmark = pytest.mark.skipif(not can_fork(), reason="no safe fork on this platform")


def _tables(db: Path) -> dict[str, list[tuple]]:
    """Every table's rows by rowid (or key), the run's stamps left out: the File nodes' ``digest`` /
    ``indexer`` props, the index's ``instance`` and the registry's times."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    out = {}
    try:
        names = [r[0] for r in conn.execute("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%'")]
        for name in sorted(names):
            if name == "repositories":
                continue
            try:
                cur = conn.execute(f"SELECT rowid, * FROM '{name}' ORDER BY rowid")
            except sqlite3.OperationalError:  # WITHOUT ROWID
                cur = conn.execute(f"SELECT * FROM '{name}' ORDER BY 1, 2")
            rows = cur.fetchall()
            if name == "node_rows":
                at = [d[0] for d in cur.description].index("props")
                rows = [r[:at] + (_props(r[at]),) + r[at + 1:] for r in rows]
            if name == "meta":
                rows = [r for r in rows if "instance" not in r]
            out[name] = rows
    finally:
        conn.close()
    return out


def _props(text: str | None) -> str | None:
    if not text:
        return text
    props = {k: v for k, v in json.loads(text).items() if k not in ("digest", "indexer")}
    return json.dumps(props, sort_keys=True)


def _tree(root: Path, files: int) -> None:
    for i in range(files):
        (root / "pkg").mkdir(parents=True, exist_ok=True)
        (root / "pkg" / f"m{i}.py").write_text(
            f'"""Module {i}: parseURLPath helpers."""\n\n\nclass Handler{i}:\n    def run_{i}(self, value):\n'
            f"        return value + {i}\n\n\ndef make_{i}(x):\n    return Handler{i}().run_{i}(x)\n")
    (root / "README.md").write_text("# Pkg\n\nSee `make_3` and `Handler7`.\n")


@pytest.fixture
def forking(monkeypatch) -> list[int]:
    """The copy forks from the first file on, whatever the memory; write batches of about one file;
    returns the batches each run's copy prepared that the store was offered."""
    monkeypatch.setattr(fb, "FORK_MIN_FILES", 1)
    monkeypatch.setattr(fb, "_rss_mib", lambda: 1.0)
    monkeypatch.setattr(fb, "held_mib", lambda copy, parent: 1.0)
    monkeypatch.setattr(wp, "held_mib", lambda copy, parent: 1.0)
    monkeypatch.setattr(IndexOptions, "write_batch_bytes", lambda self: 300)
    used: list[int] = []
    take = wp.ChunkPreparer.take

    def spied(self, k):
        prep = take(self, k)
        if prep is not None:
            used.append(k)
        return prep

    monkeypatch.setattr(wp.ChunkPreparer, "take", spied)
    return used


def _index(root: Path, db: Path, state: Path, jobs: int, monkeypatch) -> None:
    monkeypatch.setattr(IndexOptions, "extraction_jobs", lambda self, cores, j=jobs: j)
    store = EmbeddedStore(str(db))
    try:
        index_repository(root, store, store, IndexOptions(repo="r", state_dir=str(state)))
    finally:
        store.close()


def test_cold_runs_write_every_table_the_same_with_and_without_the_copy(forking, tmp_path, monkeypatch):
    root = tmp_path / "repo"
    _tree(root, 12)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    assert forking == []  # one process: no copy
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert forking == list(range(12))  # every batch (a module each, the README with one) prepared and used
    one, two = _tables(tmp_path / "one.db"), _tables(tmp_path / "two.db")
    assert one == two
    assert len(one["bm25_maxima"]) > 0 and len(one["chunks_fts_docsize"]) == len(one["chunk_rows"])


def test_an_incremental_run_whose_rowids_move_writes_what_one_process_writes(forking, tmp_path, monkeypatch):
    dbs = {}
    for jobs in (1, 2):
        root = tmp_path / f"repo{jobs}"
        _tree(root, 8)
        db, state = tmp_path / f"{jobs}.db", tmp_path / f"s{jobs}"
        _index(root, db, state, jobs, monkeypatch)
        # The last file's chunks hold the highest rowids: deleting them first moves the next rowid.
        (root / "pkg" / "m7.py").write_text("def only():\n    return 1\n")
        (root / "pkg" / "m1.py").write_text("def renamed():\n    return 2\n")
        forking.clear()
        _index(root, db, state, jobs, monkeypatch)
        dbs[jobs] = _tables(db)
    assert dbs[1] == dbs[2]
    names = {r[7] for r in dbs[2]["chunk_rows"]}
    assert {"only", "renamed"} <= names and "make_7" not in names and "make_1" not in names


def test_a_copy_over_the_memory_budget_stops_and_the_writer_prepares_the_rest(forking, tmp_path, monkeypatch):
    root = tmp_path / "repo"
    _tree(root, 12)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    measures = iter([100.0, 150.0, 200.0])  # then 400 MiB: 200 + 50 of growth passes no budget of 400 until then

    monkeypatch.setattr(wp, "held_mib", lambda copy, parent: next(measures, 400.0))
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    # Before batch 2 it holds 200 MiB and grew 50 over the last batch: 250 is under 400, so it
    # prepares batches 0-2; before batch 3, 400 + 200 of growth passes the budget: it stops.
    assert forking == [0, 1, 2]
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")


def test_a_copy_that_fails_leaves_the_analysis_to_the_writer(forking, tmp_path, monkeypatch, caplog):
    root = tmp_path / "repo"
    _tree(root, 6)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)

    def broken(*args, **kwargs):
        raise RuntimeError("boom")

    monkeypatch.setattr(wp, "prepare_chunks", broken)  # raises in the copy, at its first batch
    with caplog.at_level(logging.WARNING, logger="indexer.write_prep"):
        _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert forking == []
    assert [r.getMessage() for r in caplog.records] == [
        "the write's second process stopped (the forked call raised RuntimeError: boom): this one analyses the rest"]
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")


def _file(path: str, chunks: list[Chunk]) -> IndexedFile:
    text = "\n".join(c.text for c in chunks)
    node = Node(id=f"r:{path}", label="File", name=path, qualname=path, repo="r", file=path, start_line=1,
                start_col=0, end_line=3, end_col=0)
    return IndexedFile(FileRecord("r", path, "python", "c" * 64, len(text)), [node], chunks=chunks, text=text)


def _chunk(i: int, text: str) -> Chunk:
    return Chunk(id=f"r:a.py#c{i}", repo="r", product="p", file="a.py", language="python", kind="function",
                 name=f"parseURL{i}", fqn=f"a.parseURL{i}", parent=None, start_line=i + 1, end_line=i + 1,
                 text=text, checksum=f"{i:064d}")


@pytest.mark.parametrize("offset, used", [(0, True), (1, False)])
def test_the_store_uses_a_preparation_only_for_exactly_its_rows(tmp_path, offset, used):
    chunks = [_chunk(0, "def parseURL0(): pass"), _chunk(1, "def parseURL1(x): return x")]
    plain = tmp_path / "plain.db"
    with EmbeddedStore(str(plain)) as store:
        store.replace_files([_file("a.py", chunks)])
    offered = tmp_path / "offered.db"
    with EmbeddedStore(str(offered)) as store:
        basis = store.chunk_basis()
        assert basis.start == 1 and basis.reference is None and basis.weights == (3.0, 2.0, 1.0)
        prep = prepare_chunks(chunks, basis.start + offset, None, basis.weights)
        assert prep == prepare_chunks(chunks, basis.start + offset, None, basis.weights)
        prep.maxima = {"marker": {0: 7}}  # not what the store would compute: shows whether it was used
        store.offer_prepared(lambda: prep)
        store.replace_files([_file("a.py", chunks)])
    blocks = _tables(offered)["bm25_maxima"]
    assert ((row_key("marker", 0), row_key("marker", 0), b"\0", b"\7") in blocks) is used  # (rowid, key, ...)
    if not used:
        assert _tables(plain) == _tables(offered)


@pytest.mark.parametrize("prepared_text, used", [("same", True), ("other", False)])
def test_a_chunk_takes_its_prepared_stored_form_only_against_the_same_stored_file_text(tmp_path, prepared_text, used):
    chunks = [_chunk(0, "def parseURL0(): pass  # long enough to be stored as a range of the file")]
    file = _file("a.py", chunks)
    plain = tmp_path / "plain.db"
    with EmbeddedStore(str(plain)) as store:
        store.replace_files([file])
    offered = tmp_path / "offered.db"
    with EmbeddedStore(str(offered)) as store:
        prep = prepare_chunks(chunks, 1, None, (3.0, 2.0, 1.0), [("r", "a.py", "c" * 64, file.text)])
        assert prep.encoded == [(None, 0, 72, "")]  # the whole chunk is the file's first line
        assert prep.texts == {("r", "a.py"): compress_text(file.text)}
        if prepared_text == "other":
            prep.texts[("r", "a.py")] = compress_text("other")
        prep.encoded = [("marker", None, None, "")]  # not what the store would compute
        store.offer_prepared(lambda: prep)
        store.replace_files([file])
    assert (_tables(offered)["chunk_rows"][0][13] == "marker") is used
    if not used:
        assert _tables(plain) == _tables(offered)


@pytest.mark.parametrize("prepared_text, used", [("same", True), ("other", False), (None, False)])
def test_a_file_row_takes_the_prepared_blob_only_when_it_holds_the_same_text(tmp_path, prepared_text, used):
    file = _file("a.py", [_chunk(0, "def parseURL0(): pass")])
    raw = file.text.encode("utf-8")
    with EmbeddedStore(str(tmp_path / "offered.db")) as store:
        prep = prepare_chunks(file.chunks, 1, None, (3.0, 2.0, 1.0), [("r", "a.py", "c" * 64, file.text)])
        if prepared_text is None:
            prep.texts.clear()  # no blob prepared for the file
        else:  # stored uncompressed (level 0): other bytes than the store's, so its use shows
            prep.texts[("r", "a.py")] = zlib.compress(raw if prepared_text == "same" else b"other", 0)
        store.offer_prepared(lambda: prep)
        store.replace_files([file])
    conn = sqlite3.connect(str(tmp_path / "offered.db"))
    (blob,), = conn.execute("SELECT ztext FROM file_rows").fetchall()
    conn.close()
    assert blob == (zlib.compress(raw, 0) if used else compress_text(file.text))
    assert zlib.decompress(blob) == raw


def test_a_preparation_matches_only_the_same_chunks_in_the_same_order_from_the_same_rowid():
    a, b = _chunk(0, "x = 1"), _chunk(1, "y = 2")
    prep = prepare_chunks([a, b], 5, 10.0, (3.0, 2.0, 1.0))
    assert prep.keys == chunk_keys([a, b]) and [r[0] for r in prep.analysed] == [5, 6]
    assert prep.matches([a, b], 5)
    assert not prep.matches([a, b], 6)
    assert not prep.matches([b, a], 5)
    assert not prep.matches([a], 5)
    changed = Chunk(**{**{f: getattr(b, f) for f in Chunk.__dataclass_fields__}, "checksum": "f" * 64})
    assert not prep.matches([a, changed], 5)
    assert isinstance(prep, PreparedChunks) and prep.reference == 10.0


def test_the_writer_freezes_its_objects_while_the_copy_runs_and_not_after(monkeypatch):
    """The writer's collections leave alone what it shares with the copy (a full collection writes
    every container's header: each page so written would be held twice) until the copy is closed;
    a copy that could not be made leaves nothing frozen."""
    before = gc.get_freeze_count()
    assert before == 0
    basis = ChunkBasis(start=1, reference=None, weights=(3.0, 2.0, 1.0))
    chunk = _chunk(0, "def parseURL0():\n    return 1\n")
    # a budget no test process reaches: the copy would stop at once in a suite grown past the default
    prep = wp.ChunkPreparer([["a.py"]], lambda path: ("r", "c" * 64, chunk.text, [chunk]), basis, budget_mib=1 << 20)
    try:
        assert gc.get_freeze_count() > 0
        assert prep.take(0) is not None
    finally:
        prep.close()
    assert gc.get_freeze_count() == 0
    prep.close()  # idempotent: nothing is unfrozen twice
    assert gc.get_freeze_count() == 0

    def no_fork(fn):
        raise OSError("no process")

    monkeypatch.setattr(wp, "ForkedCall", no_fork)
    with pytest.raises(OSError, match="no process"):
        wp.ChunkPreparer([["a.py"]], lambda path: None, basis)
    assert gc.get_freeze_count() == 0


def _alive(pid: int) -> bool:
    """Whether the process ``pid`` exists at all, a defunct (unreaped) one included."""
    try:
        psutil.Process(pid).status()
    except psutil.NoSuchProcess:
        return False
    return True


def test_the_copy_is_reaped_with_the_last_batch_not_left_defunct_until_close():
    """The copy exits once it has sent the last batch's frame; taking that frame reaps it (and
    unfreezes), where before it stayed defunct until close(), after the write's COMMIT."""
    basis = ChunkBasis(start=1, reference=None, weights=(3.0, 2.0, 1.0))
    chunks = {p: _chunk(i, f"def parseURL{i}():\n    return {i}\n") for i, p in enumerate(["a.py", "b.py"])}
    prep = wp.ChunkPreparer([["a.py"], ["b.py"]], lambda path: ("r", "c" * 64, chunks[path].text, [chunks[path]]),
                            basis, budget_mib=1 << 20)
    try:
        pid = prep._call.pid
        assert pid is not None and _alive(pid)
        first = prep.take(0)
        assert first is not None and first.keys == chunk_keys([chunks["a.py"]])
        assert _alive(pid) and gc.get_freeze_count() > 0  # one batch to go: the copy is still wanted
        last = prep.take(1)
        assert last is not None and last.keys == chunk_keys([chunks["b.py"]])
        assert not _alive(pid)  # reaped: no defunct process left
        assert gc.get_freeze_count() == 0 and prep.used == 2
        assert prep.take(2) is None  # nothing after the last
    finally:
        prep.close()


def test_a_cold_write_commits_with_its_copy_already_reaped(forking, tmp_path, monkeypatch):
    """When the write's transaction commits (SQLite's COMMIT, then the WAL checkpoint: the longest
    step at the end of a write) no process of the copy is left, defunct or not."""
    root = tmp_path / "repo"
    _tree(root, 6)
    pids: list[int] = []
    init = wp.ChunkPreparer.__init__

    def spied_init(self, *args, **kwargs):
        init(self, *args, **kwargs)
        pids.append(self._call.pid)

    monkeypatch.setattr(wp.ChunkPreparer, "__init__", spied_init)
    at_commit: list[bool] = []
    transaction = EmbeddedStore.transaction

    @contextlib.contextmanager
    def spied_transaction(self):
        outer = self._tx_depth == 0
        with transaction(self):
            yield
            if outer and pids:
                at_commit.append(_alive(pids[-1]))

    monkeypatch.setattr(EmbeddedStore, "transaction", spied_transaction)
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert len(pids) == 1 and forking == list(range(6))
    assert at_commit == [False]
