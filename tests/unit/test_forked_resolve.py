"""A one-shot run extracts and binds in a forked child (:mod:`indexer.forked_resolve`): the index it
writes is row for row the one binding in process writes (cold, from cached extractions, over an
index), the extraction happens in the child only, its progress reaches the parent's sink, the
child's outputs and extracted texts come back through the spill files both share, an exception in
the child is raised again in the parent as itself, and a child that dies leaves the parent
extracting and binding in process."""

from __future__ import annotations

import gc
import logging
import os
import pickle
import shutil
import signal
import subprocess
import sys
import threading
from pathlib import Path

import pytest

import indexer.forked_resolve as forked_resolve
import indexer.spill as spill_module
from indexer.bind_state import load_bind_state
from indexer.discovery import SourceFile
from indexer.extract_cache import ExtractionCache
from indexer.extraction import ExtractStage
from indexer.forked import ForkedCall
from indexer.incremental import RepositoryIndex
from indexer.mention_refresh import MentionRecords
from indexer.pipeline import index_repository
from indexer.languages import extractor_for_path, module_systems
from indexer.resolve.context import FileCtx
from indexer.resolve.released import ReleasedFiles
from indexer.resolve.repository import RepositoryResolver
from indexer.run import IndexOptions, IndexReport
from indexer.spill import SpilledOutputs, SpillFile
from stores.contracts import Edge, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from tests.index_dump import calls, dump
from tests.unit.test_incremental import BASE_CALLS, FILES

DOC = "# Notes\n\nThe `Repo.save` method and `Service` are what `process` reaches.\n"


def _tree(src: Path) -> Path:
    for rel, text in {**FILES, "docs/notes.md": DOC}.items():
        path = src / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_text(text, encoding="utf-8")
    return src


def _index(src: Path, db: Path, state: Path | None, progress: object = None) -> IndexReport:
    store = EmbeddedStore(db)
    try:
        return index_repository(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=state and str(state)),
                                progress=progress)  # type: ignore[arg-type]
    finally:
        store.close()


class _Events:
    """A progress sink recording ``(phase, total, units advanced)`` per phase started, in order, and
    the phases done."""

    def __init__(self) -> None:
        self.started: list[list[object]] = []
        self.finished: list[str] = []

    def start(self, phase: str, total: int | None) -> None:
        self.started.append([phase, total, 0])

    def advance(self, n: int = 1) -> None:
        self.started[-1][2] += n  # type: ignore[operator]

    def done(self, phase: str) -> None:
        self.finished.append(phase)


class _Spy:
    """Counts :func:`forked_resolve.bind_in_child` calls and whether each gave a result."""

    def __init__(self, monkeypatch: pytest.MonkeyPatch) -> None:
        self.results: list[bool] = []
        real = forked_resolve.bind_in_child

        def spy(work, pinned):  # type: ignore[no-untyped-def]
            got = real(work, pinned)
            self.results.append(got is not None)
            return got

        monkeypatch.setattr("indexer.whole_tree.bind_in_child", spy)


@pytest.fixture
def forking(monkeypatch: pytest.MonkeyPatch) -> _Spy:
    """Every one-shot run of a test binds in a child, however few its files."""
    monkeypatch.setattr(forked_resolve, "FORK_MIN_FILES", 0)
    return _Spy(monkeypatch)


def _in_process(tmp: Path, src: Path, monkeypatch: pytest.MonkeyPatch, name: str) -> dict:
    """The index of ``src`` bound in this process (a fresh state folder and store)."""
    with monkeypatch.context() as m:
        m.setattr("indexer.incremental.forks", lambda files: False)
        _index(src, tmp / f"{name}.db", tmp / f"{name}-state")
    return dump(tmp / f"{name}.db")


def test_the_forked_path_is_taken_and_writes_the_in_process_index(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                  forking: _Spy) -> None:
    src = _tree(tmp_path / "src")
    expected = _in_process(tmp_path, src, monkeypatch, "here")
    report = _index(src, tmp_path / "x.db", tmp_path / "state")
    assert forking.results == [True]
    assert dump(tmp_path / "x.db") == expected
    assert calls(tmp_path / "x.db") == BASE_CALLS
    assert (report.files_indexed, report.files_written, report.files_changed) == (len(FILES) + 1, len(FILES) + 1,
                                                                                  len(FILES) + 1)
    assert report.files_by_language == {"python": 5, "java": 2, "javascript": 1, "markdown": 1}
    # The child's records were kept for the next run (and no staged copy left behind): an edit binds one file.
    assert [p.name for p in (tmp_path / "state").glob("bind-*")] == [next((tmp_path / "state").glob("bind-*")).name]
    state = load_bind_state(next((tmp_path / "state").glob("bind-*.pickle")))
    assert state is not None and sorted(state.checksums) == sorted([*FILES, "docs/notes.md"])
    (src / "app/repo.py").write_text(FILES["app/repo.py"].replace("pass", "x = 1 + 1"), encoding="utf-8")
    again = _index(src, tmp_path / "x.db", tmp_path / "state")
    assert (again.files_resolved, again.files_written) == (1, 1)
    assert forking.results == [True]  # an update of a few files binds in process (the records' path)


def test_the_child_extracts_and_its_progress_reaches_the_parents_sink(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch,
                                                                      forking: _Spy) -> None:
    src = _tree(tmp_path / "src")
    here = _Events()
    with monkeypatch.context() as m:
        m.setattr("indexer.incremental.forks", lambda files: False)
        _index(src, tmp_path / "here.db", tmp_path / "here-state", here)
    parent, log_path = os.getpid(), tmp_path / "extracted-in"
    real = ExtractStage.run

    def where(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        with open(log_path, "a", encoding="ascii") as fh:  # (a child's list would not reach this process)
            fh.write(f"{os.getpid()}\n")
        return real(self, *args, **kwargs)

    monkeypatch.setattr(ExtractStage, "run", where)
    forked = _Events()
    report = _index(src, tmp_path / "x.db", tmp_path / "state", forked)
    assert forking.results == [True]
    pids = [int(line) for line in log_path.read_text(encoding="ascii").split()]
    assert len(pids) == 1 and pids[0] != parent  # the parent never extracted
    assert report.files_extracted == len(FILES) + 1
    assert set(report.phases) >= {"discover", "read", "extract", "resolve", "write", "total"}
    # The same phases in the same order, each advanced as far (the child's advances arrive summed).
    assert forked.started == here.started and forked.finished == here.finished
    assert [e[0] for e in forked.started][:4] == ["discover", "read", "extract", "resolve"]
    assert forked.started[2] == ["extract", len(FILES) + 1, len(FILES) + 1]
    assert dump(tmp_path / "x.db") == dump(tmp_path / "here.db")


def test_no_fork_without_an_extraction_cache(tmp_path: Path, forking: _Spy) -> None:
    src = _tree(tmp_path / "src")
    _index(src, tmp_path / "x.db", None)  # the kept extractions could not be read back
    assert forking.results == []
    assert calls(tmp_path / "x.db") == BASE_CALLS


def test_a_child_needing_the_store_leaves_the_parent_binding_in_process() -> None:
    def work():  # type: ignore[no-untyped-def]
        raise forked_resolve.NeedsStore("the stored ids of a.py")

    assert forked_resolve.bind_in_child(work, []) is None


def test_piped_progress_is_relayed_in_order_with_advances_summed() -> None:
    read_end, write_end = os.pipe()
    events, stop = _Events(), threading.Event()
    relay = forked_resolve.relay_progress(read_end, events, stop)
    piped = forked_resolve.PipeProgress(write_end)
    piped.start("extract", 5)
    for _ in range(5):
        piped.advance()
    piped.done("extract")
    piped.start("resolve", None)
    piped.done("resolve")
    os.close(write_end)
    relay.join(5)
    os.close(read_end)
    assert not relay.is_alive()
    assert events.started == [["extract", 5, 5], ["resolve", None, 0]]
    assert events.finished == ["extract", "resolve"]
    piped.advance(3)
    piped.done("write")  # the parent gone: the write fails, nothing is raised


def test_from_cached_extractions_the_kept_files_are_chunked_from_the_parents_extractions(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forking: _Spy) -> None:
    src = _tree(tmp_path / "src")
    expected = _in_process(tmp_path, src, monkeypatch, "here")
    _index(src, tmp_path / "first.db", tmp_path / "state")
    # A new index with the same state folder: every extraction comes from the cache, none is fresh,
    # so the writer cuts every file's chunks from its extraction (the child keeps them unreleased).
    report = _index(src, tmp_path / "second.db", tmp_path / "state")
    assert report.files_extracted == 0 and forking.results == [True, True]
    assert dump(tmp_path / "second.db") == expected
    assert len(expected["chunks"]) > len(FILES)


def test_over_an_index_the_child_reads_no_store_and_docs_are_written_again(tmp_path: Path,
                                                                            monkeypatch: pytest.MonkeyPatch,
                                                                            forking: _Spy) -> None:
    src = _tree(tmp_path / "src")
    _index(src, tmp_path / "x.db", tmp_path / "state")
    # Records gone: the next run binds the whole tree over the index (stored ids read ahead, not in the child).
    for path in (tmp_path / "state").glob("bind-*.pickle"):
        path.unlink()
    (src / "app/repo.py").write_text(FILES["app/repo.py"].replace("save", "store"), encoding="utf-8")
    parent = os.getpid()
    real = EmbeddedStore.nodes_in_file

    def parent_only(self, repo, path):  # type: ignore[no-untyped-def]
        assert os.getpid() == parent, "the child read the store"
        return real(self, repo, path)

    monkeypatch.setattr(EmbeddedStore, "nodes_in_file", parent_only)
    report = _index(src, tmp_path / "x.db", tmp_path / "state")
    assert forking.results == [True, True]
    assert report.files_changed == 1
    shutil.copytree(src, tmp_path / "src2")
    assert dump(tmp_path / "x.db") == _in_process(tmp_path, tmp_path / "src2", monkeypatch, "here")
    assert not [c for c in calls(tmp_path / "x.db") if ".save(" in c]


def test_an_exception_in_the_child_is_raised_in_the_parent_as_itself(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                                     forking: _Spy) -> None:
    src = _tree(tmp_path / "src")
    parent = os.getpid()

    def fails(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        raise ValueError(f"bind failed in {'the parent' if os.getpid() == parent else 'a child'}")

    monkeypatch.setattr(RepositoryResolver, "resolve", fails)
    with pytest.raises(ValueError, match="^bind failed in a child$"):
        _index(src, tmp_path / "x.db", tmp_path / "state")
    assert not list((tmp_path / "state").glob("bind-*"))


def test_a_child_killed_by_a_signal_leaves_the_parent_binding_in_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forking: _Spy, caplog: pytest.LogCaptureFixture) -> None:
    src = _tree(tmp_path / "src")
    expected = _in_process(tmp_path, src, monkeypatch, "here")
    parent = os.getpid()
    real = RepositoryResolver.resolve

    def killed_in_child(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        if os.getpid() != parent:
            os.kill(os.getpid(), signal.SIGKILL)  # as the OOM killer would
        return real(self, *args, **kwargs)

    monkeypatch.setattr(RepositoryResolver, "resolve", killed_in_child)
    with caplog.at_level(logging.WARNING, logger="indexer.forked_resolve"):
        _index(src, tmp_path / "x.db", tmp_path / "state")
    assert forking.results == [False]
    assert any("binding in a forked child failed" in r.message and "-9" in r.message for r in caplog.records)
    assert dump(tmp_path / "x.db") == expected
    assert not list((tmp_path / "state").glob("bind-*-forked*"))


def test_no_fork_where_it_cannot_fork(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forking: _Spy) -> None:
    monkeypatch.setattr(forked_resolve, "can_fork", lambda: False)
    src = _tree(tmp_path / "src")
    _index(src, tmp_path / "x.db", tmp_path / "state")
    assert forking.results == []
    assert calls(tmp_path / "x.db") == BASE_CALLS


def test_forks_only_from_the_file_count_up() -> None:
    assert forked_resolve.FORK_MIN_FILES == 400
    assert forked_resolve.forks(400) is forked_resolve.can_fork()
    assert forked_resolve.forks(399) is False


def _output(path: str) -> IndexedFile:
    return IndexedFile(FileRecord("r", path, "python", "c" + path, 1),
                       [Node(f"r:{path}", "File", path, path, "r", path, 1, 0, 1, 0)],
                       [Edge("CALLS", f"r:{path}", "r:x", "r", path, 1, 0, "exact")])


def test_spilled_outputs_made_in_a_child_are_read_in_the_parent(tmp_path: Path) -> None:
    spill = SpillFile(str(tmp_path))
    spill.put(b"written before the fork")

    def child():  # type: ignore[no-untyped-def]
        spill.pinned = True
        outputs = SpilledOutputs(spill, summarise=lambda out: ((out.file.path, "id"), out.file.path.encode()))
        outputs.append(_output("a.py"))
        outputs.append(_output("kept.py"), keep=True)
        outputs.extend(0, [Node("r:t", "Table", "t", "t", "r", "a.py", 1, 0, 1, 0)], [])
        return outputs.hand_over()

    handed = ForkedCall(child).result()
    assert spill.size == len(b"written before the fork") and not spill.pinned
    got = SpilledOutputs.taken_over(handed, spill)
    assert spill.size == handed.size > 100
    assert got.paths == ["a.py", "kept.py"] and len(got) == 2
    first = got[0]
    assert [n.id for n in first.nodes] == ["r:a.py", "r:t"] and first.edges == _output("a.py").edges
    assert got[1] == _output("kept.py")
    assert got.summary(0) is None and got.extended(0) is not None and got.extended(0)[0][0] == ("a.py", "id")
    assert spill.put(b"after") == (handed.size, 5)  # the parent appends after the child's bytes
    other = SpillFile(str(tmp_path))
    other.put(b"x" * (handed.size + 1))
    with pytest.raises(ValueError):  # a spill file holding more than the child wrote is not the one it wrote
        SpilledOutputs.taken_over(handed, other)


def test_a_pinned_spill_file_refuses_to_move(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    spill = SpillFile(str(tmp_path))
    ref = spill.put(b"kept")

    def full(fh, data):  # type: ignore[no-untyped-def]
        raise OSError(28, "No space left on device")

    spill.pinned = True
    with monkeypatch.context() as m:
        m.setattr("indexer.spill._write_all", full)
        with pytest.raises(OSError, match="No space"):
            spill.put(b"more")
    assert not spill.moved and spill.get(ref) == b"kept" and spill.size == 4
    outputs = SpilledOutputs(spill)
    outputs.append(_output("a.py"))
    assert outputs.hand_over().size == spill.size
    spill.pinned = False  # unpinned, the same refusal moves the bytes (here to memory): not handed over
    real = spill_module._write_all
    refusals = [OSError(28, "No space left on device")]

    def full_once(fh, data):  # type: ignore[no-untyped-def]
        if refusals:
            raise refusals.pop()
        real(fh, data)

    with monkeypatch.context() as m:
        m.setattr("indexer.spill._write_all", full_once)
        m.setattr("indexer.spill.tempfile.TemporaryFile", lambda **kw: (_ for _ in ()).throw(OSError("no temp")))
        spill.put(b"more")
    assert spill.moved and spill.get(ref) == b"kept"
    with pytest.raises(OSError, match="moved"):
        outputs.hand_over()


def test_released_files_handed_over_equal_the_childs(tmp_path: Path) -> None:
    resolver = RepositoryResolver("r", None)
    exs = {}
    for rel in ("app/a.py", "app/b.py", "app/__init__.py"):
        text = FILES.get(rel, "def f():\n    return 1\n")
        exs[rel] = extractor_for_path(rel).extract(rel, text.encode())  # type: ignore[union-attr]
    resolver.update([(ex, f"sum-{p}", 10 + i) for i, (p, ex) in enumerate(exs.items())], track=False)
    before = {p: (fc.lang, fc.module_key, fc.checksum, fc.size, fc.ex.id_path) for p, fc in resolver.files.items()}
    resolver.release(["app/a.py", "app/__init__.py"])
    files = resolver.files
    assert isinstance(files, ReleasedFiles)
    handed = pickle.loads(pickle.dumps(files.hand_over()))
    assert handed.kept == ["app/b.py"]
    parent_ex = {"app/b.py": exs["app/b.py"]}
    got = ReleasedFiles.taken_over(handed, module_systems(), parent_ex)
    assert list(got) == list(files) and len(got) == 3 and "app/b.py" in got and "app/c.py" not in got
    for p in files:
        fc, mine = files[p], got[p]
        assert isinstance(mine, FileCtx) and mine.rules is fc.rules
        assert (mine.lang, mine.module_key, mine.checksum, mine.size, mine.ex.id_path) == before[p]
        assert (mine.ex.errors, mine.ex.partial, mine.ex.package) == (fc.ex.errors, fc.ex.partial, fc.ex.package)
    kept = got["app/b.py"]
    assert kept.ex is not exs["app/b.py"] and kept.ex.definitions == exs["app/b.py"].definitions
    assert got["app/a.py"].ex.definitions == []  # a released file's stub holds no definitions
    with pytest.raises(KeyError):
        ReleasedFiles.taken_over(handed, module_systems(), {})


def test_a_kept_extraction_the_cache_lost_is_extracted_again_in_the_parent(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forking: _Spy) -> None:
    src = _tree(tmp_path / "src")
    expected = _in_process(tmp_path, src, monkeypatch, "here")
    _index(src, tmp_path / "first.db", tmp_path / "state")
    parent, again = os.getpid(), []
    real_get, real_again = ExtractionCache.get, ExtractStage.extracted_again

    def lost_in_parent(self, path, checksum):  # type: ignore[no-untyped-def]
        return None if os.getpid() == parent and path == "app/repo.py" else real_get(self, path, checksum)

    def spy(self, sf, checksum, keep):  # type: ignore[no-untyped-def]
        got = real_again(self, sf, checksum, keep)
        again.append((sf.path, got is not None, got is not None and got.id_path))
        return got

    monkeypatch.setattr(ExtractionCache, "get", lost_in_parent)
    monkeypatch.setattr(ExtractStage, "extracted_again", spy)
    # Every extraction comes from the cache (the child keeps them for chunking); one is gone when the
    # parent reads it back: it is extracted again there, and the run stays forked.
    report = _index(src, tmp_path / "second.db", tmp_path / "state")
    assert forking.results == [True, True] and report.files_extracted == 0
    assert again == [("app/repo.py", True, None)]  # only the lost one, as the cache holds it (no id path)
    assert dump(tmp_path / "second.db") == expected


def test_a_kept_extraction_lost_for_good_leaves_the_parent_binding_in_process(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forking: _Spy, caplog: pytest.LogCaptureFixture) -> None:
    src = _tree(tmp_path / "src")
    expected = _in_process(tmp_path, src, monkeypatch, "here")
    _index(src, tmp_path / "first.db", tmp_path / "state")
    parent, log_path = os.getpid(), tmp_path / "bound-in"
    real_get, real_resolve = ExtractionCache.get, RepositoryResolver.resolve
    lost = ["app/repo.py"]

    def lost_in_parent(self, path, checksum):  # type: ignore[no-untyped-def]
        return None if os.getpid() == parent and path in lost else real_get(self, path, checksum)

    def where(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        with open(log_path, "a", encoding="ascii") as fh:
            fh.write(f"{os.getpid()}\n")
        return real_resolve(self, *args, **kwargs)

    def changed_since_read(self, sf, checksum, keep):  # type: ignore[no-untyped-def]
        lost.clear()  # (the run in process then finds it cached)
        return None  # as when the file changed after it was read

    monkeypatch.setattr(ExtractionCache, "get", lost_in_parent)
    monkeypatch.setattr(ExtractStage, "extracted_again", changed_since_read)
    monkeypatch.setattr(RepositoryResolver, "resolve", where)
    with caplog.at_level(logging.WARNING, logger="indexer.whole_tree"):
        report = _index(src, tmp_path / "second.db", tmp_path / "state")
    assert forking.results == [True, True]  # the child bound...
    pids = [int(line) for line in log_path.read_text(encoding="ascii").split()]
    assert len(pids) == 2 and pids[0] != parent and pids[1] == parent  # ... and then the parent, again
    assert any("app/repo.py" in r.message and "binding in this process" in r.message for r in caplog.records)
    assert dump(tmp_path / "second.db") == expected
    assert report.files_indexed == len(FILES) + 1 and report.files_extracted == 0
    assert not list((tmp_path / "state").glob("bind-*-forked*"))  # the child's staged records went
    assert [load_bind_state(p) is not None for p in (tmp_path / "state").glob("bind-*.pickle")] == [True]


def _records_after_a_run_over_an_index(tmp_path: Path, name: str) -> tuple[dict, int, dict]:
    """Index the tree, lose the resolver's records, rename ``Repo.save``, index again with one
    :class:`RepositoryIndex` (a one-shot run's): its doc records, reads and the index."""
    src = _tree(tmp_path / f"{name}-src")
    state, db = tmp_path / f"{name}-state", tmp_path / f"{name}.db"
    _index(src, db, state)
    for path in state.glob("bind-*.pickle"):
        path.unlink()
    (src / "app/repo.py").write_text(FILES["app/repo.py"].replace("save", "store"), encoding="utf-8")
    store = EmbeddedStore(db)
    try:
        index = RepositoryIndex(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(state)))
        index.skip_unchanged = True
        assert index.mention_records.records == {}
        index.sync()
        index.close()
    finally:
        store.close()
    return index.mention_records.records, index.mention_records.reads, dump(db)


def test_the_doc_records_the_child_made_reach_the_parent(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                        forking: _Spy) -> None:
    with monkeypatch.context() as m:
        m.setattr("indexer.incremental.forks", lambda files: False)
        here, here_reads, here_index = _records_after_a_run_over_an_index(tmp_path, "here")
    records, reads, index = _records_after_a_run_over_an_index(tmp_path, "forked")
    assert forking.results[-1] is True
    # Over an index the read phase records nothing; the binding read the doc to see whether it names
    # the renamed method: the child's record is the parent's now, as in process.
    assert sorted(records) == sorted(here) == ["docs/notes.md"] and reads == here_reads == 1
    assert records["docs/notes.md"] == here["docs/notes.md"] and b"\nsave\n" in records["docs/notes.md"][1]
    assert index == here_index


def test_mention_changes_carry_made_remade_and_dropped_records_only() -> None:
    kept, old = ("c1", b"\nA\n", False), ("c2", b"\nB\n", False)
    records = MentionRecords({"a.md": kept, "b.md": old, "gone.md": ("c3", b"", False)})
    before, reads = dict(records.records), records.reads
    records.records["b.md"] = ("c4", b"\nB\nC\n", False)
    records.records["new.md"] = ("c5", b"\nD\n", True)
    del records.records["gone.md"]
    records.reads += 2
    changes = records.changed_since(before, reads)
    assert changes == ({"b.md": ("c4", b"\nB\nC\n", False), "new.md": ("c5", b"\nD\n", True)}, ["gone.md"], 2)
    parent = MentionRecords(before)
    parent.take(changes)
    assert parent.records == records.records and parent.reads == 2
    assert "a.md" not in changes[0]  # an unchanged record is not handed back


def test_the_read_files_wait_on_disk_while_the_child_runs(tmp_path: Path) -> None:
    hashed = [(SourceFile(f"pkg/m{i}.py", f"/src/pkg/m{i}.py", "python", 10 + i, "/src" if i % 2 else None), 10 + i,
               f"{i:064x}") for i in range(3)]
    expected = list(hashed)
    parked = forked_resolve.ParkedFiles(hashed, str(tmp_path))
    assert hashed == []  # the parent holds none of them meanwhile
    assert parked.spill.directory == str(tmp_path) and parked.spill.size > 0
    assert ForkedCall(parked.files).result() == expected  # the child reads them...
    assert parked.files() == expected and parked.files() is not parked.files()  # ... and the parent, anew each time


def test_the_parent_does_not_import_sqlglot_before_the_fork() -> None:
    # Only the child parses SQL: imported in the parent, its 8 MiB would be held twice once the child writes them.
    code = ("import sys, indexer.pipeline, indexer.incremental, stores.embedded, lsp_server.cli\n"
            "from indexer.frameworks.sql_text import looks_like_sql\n"
            "assert looks_like_sql('select a from t')\n"
            "print('sqlglot' in sys.modules)\n"
            "from indexer.frameworks.sql_text import statement_access\n"
            "print(statement_access('select a from t')[0].name, 'sqlglot' in sys.modules)\n")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                         cwd=Path(__file__).resolve().parents[2]).stdout.split("\n")
    assert out[:2] == ["False", "t True"]


def test_the_parents_objects_stay_frozen_in_the_child_and_thaw_in_the_parent_after(
        caplog: pytest.LogCaptureFixture) -> None:
    assert gc.get_freeze_count() == 0

    def work():  # type: ignore[no-untyped-def]
        # The child's collections skip what it inherited; a NeedsStore carries the count back.
        raise forked_resolve.NeedsStore(str(gc.get_freeze_count()))

    caplog.set_level(logging.INFO, logger="indexer.forked_resolve")
    assert forked_resolve.bind_in_child(work, []) is None
    [record] = [r for r in caplog.records if "needed the store" in r.getMessage()]
    assert int(str(record.args[0])) > 1000  # type: ignore[index]  # the modules' objects at least
    assert gc.get_freeze_count() == 0  # the parent collects them again


def test_an_outer_freeze_is_left_as_it_was() -> None:
    gc.freeze()
    try:
        before = gc.get_freeze_count()
        assert forked_resolve.bind_in_child(lambda: (_ for _ in ()).throw(forked_resolve.NeedsStore("x")), []) is None
        assert gc.get_freeze_count() >= before  # not thawed: the outer holder thaws
    finally:
        gc.unfreeze()


def test_the_child_leaves_its_freed_memory_to_its_exit_and_the_run_in_process_collects_it(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forking: _Spy) -> None:
    # release_memory after the binding, by process: the child's end gives its memory back (no full
    # collection alone on one core while the parent waits), a run in process hands it back before its write
    calls_log = tmp_path / "released.log"
    real = __import__("indexer.whole_tree", fromlist=["release_memory"]).release_memory

    def logged() -> None:
        with open(calls_log, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()}\n")
        real()

    monkeypatch.setattr("indexer.whole_tree.release_memory", logged)
    src = _tree(tmp_path / "src")
    _index(src, tmp_path / "x.db", tmp_path / "state")
    assert forking.results == [True]
    assert not calls_log.exists()  # the forked child bound: it did not collect
    expected = _in_process(tmp_path, src, monkeypatch, "here")
    assert calls_log.read_text(encoding="utf-8").split() == [str(os.getpid())]  # in process: collected once, here
    assert dump(tmp_path / "x.db") == expected


def test_a_large_one_shot_run_reads_its_link_options_in_a_second_process_while_it_reads_the_files(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, forking: _Spy, caplog: pytest.LogCaptureFixture) -> None:
    from indexer.frameworks.link_options import LinkOptions

    src = _tree(tmp_path / "src")
    (src / "application.properties").write_text("spring.application.name=shop\nshop.url=http://billing\n",
                                                encoding="utf-8")
    where = tmp_path / "read-by.log"
    real = LinkOptions.for_repository.__func__  # type: ignore[attr-defined]

    def logged(cls, root, services=None):  # type: ignore[no-untyped-def]
        with open(where, "a", encoding="utf-8") as fh:
            fh.write(f"{os.getpid()}\n")
        if os.environ.get("FAIL_IN_CHILD") and os.getpid() != parent:
            raise RuntimeError("no options here")
        return real(cls, root, services)

    parent = os.getpid()
    monkeypatch.setattr(LinkOptions, "for_repository", classmethod(logged))
    indexes = []
    for run in ("ahead", "failed"):
        if run == "failed":
            monkeypatch.setenv("FAIL_IN_CHILD", "1")
        where.unlink(missing_ok=True)
        store = EmbeddedStore(tmp_path / f"{run}.db")
        try:
            index = RepositoryIndex(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / run)))
            index.skip_unchanged = True  # a one-shot run, as index_repository makes it
            index.sync()
        finally:
            store.close()
        readers = [int(p) for p in where.read_text(encoding="utf-8").split()]
        if run == "ahead":  # read once, by another process than this one
            assert len(readers) == 1 and readers[0] != parent
        else:  # the second process failed: read here after all, and said so
            assert len(readers) == 2 and readers[0] != parent and readers[1] == parent
            assert any("reading the link options in a second process failed" in r.getMessage() for r in caplog.records)
        assert index.link_read == LinkOptions.for_repository(src)
        assert index.link_read.properties["spring.application.name"] == "shop"
        indexes.append(dump(tmp_path / f"{run}.db"))
    assert forking.results == [True, True]
    assert indexes[0] == indexes[1] == _in_process(tmp_path, src, monkeypatch, "here")
