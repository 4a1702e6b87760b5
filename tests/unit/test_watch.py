"""The watcher over a real file system (watchfiles): saves, renames and deletes reach the index; a burst
of hundreds of files arrives in a few batches and ends equal to a full index; the filter lets through
only what can matter; the writer lock is held around every run."""

from __future__ import annotations

import threading
import time
from contextlib import contextmanager
from pathlib import Path

import watchfiles

from indexer.incremental import RepositoryIndex
from indexer.run import IndexOptions, IndexReport
from indexer.pipeline import index_repository
from indexer.watch import SourceFilter, Watcher
from stores.embedded import EmbeddedStore
from tests.index_dump import calls, dump, problems


def wait_for(check, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if check():
            return
        time.sleep(0.02)
    raise AssertionError("condition not reached in time")


def full_dump(src: Path, tmp: Path) -> dict:
    db = tmp / f"full-{time.monotonic_ns()}.db"
    store = EmbeddedStore(db)
    try:
        index_repository(src, store, store, IndexOptions(repo="r", jobs=1))
    finally:
        store.close()
    return dump(db)


class Running:
    def __init__(self, tmp: Path) -> None:
        self.src, self.db = tmp / "src", tmp / "index.db"
        self.store = EmbeddedStore(self.db)
        self.reports: list[IndexReport] = []
        self.locked = 0
        self.index = RepositoryIndex(self.src, self.store, self.store,
                                     IndexOptions(repo="r", jobs=1, state_dir=str(tmp / "state")))
        self.watcher = Watcher(self.index, lock=self.lock, on_update=self.reports.append)
        self.stop = threading.Event()
        self.thread = threading.Thread(target=self.watcher.run, args=(self.stop,), daemon=True)

    @contextmanager
    def lock(self):
        self.locked += 1
        yield

    def __enter__(self) -> Running:
        self.thread.start()
        wait_for(self.watcher.ready.is_set)
        return self

    def __exit__(self, *exc: object) -> None:
        self.stop.set()
        self.thread.join(10)
        assert not self.thread.is_alive()
        self.index.close()
        self.store.close()


def test_saves_renames_and_deletes_reach_the_index(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "app").mkdir(parents=True)
    (src / "app" / "__init__.py").write_text("", encoding="utf-8")
    (src / "app" / "a.py").write_text("def f():\n    pass\n", encoding="utf-8")
    with Running(tmp_path) as run:
        assert run.reports[0].files_written == 2 and run.locked >= 1
        (src / "app" / "b.py").write_text("from app.a import f\n\n\ndef g():\n    f()\n", encoding="utf-8")
        wait_for(lambda: calls(run.db) == ["app/b.g(0) -> app/a.f(0) [exact]"])
        (src / "app" / "a.py").rename(src / "app" / "c.py")
        wait_for(lambda: "app/c.py" in run.store.file_checksums("r") and "app/a.py" not in run.store.file_checksums("r"))
        assert calls(run.db) == []  # b imports app.a, which is gone
        (src / "app" / "b.py").unlink()
        wait_for(lambda: sorted(run.store.file_checksums("r")) == ["app/__init__.py", "app/c.py"])
        assert problems(run.db) == []
        assert dump(run.db) == full_dump(src, tmp_path)
        assert run.locked >= len(run.reports) == 4  # sync + three updates that wrote, each under the lock


def test_a_burst_of_files_comes_in_few_batches_and_ends_exact(tmp_path: Path) -> None:
    src = tmp_path / "src"
    (src / "pkg").mkdir(parents=True)
    (src / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    with Running(tmp_path) as run:
        for i in range(400):  # a branch switch: hundreds of files within a few milliseconds
            (src / "pkg" / f"m{i}.py").write_text(
                f"from pkg.m{(i + 1) % 400} import f{(i + 1) % 400}\n\n\ndef f{i}():\n    f{(i + 1) % 400}()\n",
                encoding="utf-8")
        wait_for(lambda: len(run.store.file_checksums("r")) == 401, timeout=60)
        wait_for(lambda: len(calls(run.db)) == 400, timeout=60)
        assert len(run.reports) <= 4  # the first sync plus a few debounced batches
        assert dump(run.db) == full_dump(src, tmp_path)


def test_filter_lets_through_what_can_matter(tmp_path: Path) -> None:
    f = SourceFilter()
    added = watchfiles.Change.added
    (tmp_path / "folder").mkdir()
    decisions = {
        "a.py": True, "src/App.java": True, "web/x.tsx": True, ".gitignore": True,
        "config/application.yml": True, "api/openapi.json": True, "spec.YAML": True, "src/app/x.component.html": True, "notes.txt": False, "image.png": False,
        ".ripple/index.db": False, ".ripple/index.db-wal": False, "node_modules/x/index.js": False,
        ".git/HEAD": False, "node_modules/x/a.html": False, "pkg/__pycache__/a.cpython-311.pyc": False, "folder": True, "gone-folder": True,
    }
    assert {p: f(added, str(tmp_path / p)) for p in decisions} == decisions


def test_the_registry_entry_is_written_after_the_first_sync_throttled_after_updates_and_at_stop(
        tmp_path: Path, monkeypatch) -> None:
    import indexer.watch as watch_module

    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("def f():\n    pass\n", encoding="utf-8")

    def entry(run: Running):
        found = [r for r in run.store.repositories() if r.key == "r"]
        return found[0] if found else None

    with Running(tmp_path) as run:
        first = entry(run)
        assert first is not None and first.root == str(src.resolve()) and first.counts["files"] == 1
        (src / "b.py").write_text("def g():\n    pass\n", encoding="utf-8")
        wait_for(lambda: "b.py" in run.store.file_checksums("r"))
        assert entry(run).indexed_at == first.indexed_at  # within RECORD_EVERY_S of the last entry: not yet
        monkeypatch.setattr(watch_module, "RECORD_EVERY_S", 0.0)
        (src / "c.py").write_text("def h():\n    pass\n", encoding="utf-8")
        wait_for(lambda: entry(run).counts["files"] == 3)
        second = entry(run)
        assert second.indexed_at > first.indexed_at
        monkeypatch.setattr(watch_module, "RECORD_EVERY_S", 3600.0)
        (src / "c.py").unlink()
        wait_for(lambda: "c.py" not in run.store.file_checksums("r"))
        assert entry(run).counts["files"] == 3  # throttled again
        monkeypatch.setattr(watch_module, "RECORD_EVERY_S", 0.5)
        wait_for(lambda: entry(run).counts["files"] == 2)  # recorded at a quiet moment once the time has passed
        monkeypatch.setattr(watch_module, "RECORD_EVERY_S", 3600.0)
        (src / "d.py").write_text("def k():\n    pass\n", encoding="utf-8")
        wait_for(lambda: "d.py" in run.store.file_checksums("r"))
        assert entry(run).counts["files"] == 2
        run.stop.set()
        run.thread.join(10)
        assert entry(run).counts["files"] == 3  # the watch stopped with an update unrecorded: written then


def test_no_registry_entry_when_the_options_say_so(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.py").write_text("def f():\n    pass\n", encoding="utf-8")
    run = Running(tmp_path)
    run.index.options = IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / "state"), record=False)
    with run:
        assert run.store.repositories() == []
