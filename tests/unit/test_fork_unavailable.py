"""brk46 (brk45's finding 9): ``os.fork`` failing (EAGAIN at a process limit) while extraction runs in
worker processes: the extraction falls back to this process and the index equals one made without
workers, instead of ``ripple index`` stopping with an error that blamed the state folder."""

from __future__ import annotations

import errno
import os
from pathlib import Path

import pytest

from indexer.forked import can_fork
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import dump, problems

pytestmark = pytest.mark.skipif(not can_fork(), reason="no fork on this platform")


def _tree(root: Path, files: int) -> None:
    (root / "pkg").mkdir(parents=True)
    for i in range(files):
        (root / "pkg" / f"m{i}.py").write_text(
            f"from pkg.m{(i + 1) % files} import make_{(i + 1) % files}\n\n\nclass Handler{i}:\n"
            f"    def run_{i}(self, value):\n        return make_{(i + 1) % files}(value)\n\n\n"
            f"def make_{i}(x):\n    return Handler{i}().run_{i}(x)\n")


def _index(root: Path, db: Path, state: Path, jobs: int, monkeypatch) -> None:
    monkeypatch.setattr(IndexOptions, "extraction_jobs", lambda self, cores, j=jobs: j)
    store = EmbeddedStore(str(db))
    try:
        index_repository(root, store, store, IndexOptions(repo="r", state_dir=str(state)))
    finally:
        store.close()


def test_extraction_workers_that_cannot_fork_leave_the_work_to_this_process(tmp_path, monkeypatch) -> None:
    _tree(tmp_path / "repo", 70)  # 64 files or more: extraction in worker processes
    _index(tmp_path / "repo", tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    forks = []

    def no_fork():
        forks.append(1)
        raise BlockingIOError(errno.EAGAIN, "Resource temporarily unavailable")

    monkeypatch.setattr(os, "fork", no_fork)
    _index(tmp_path / "repo", tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert forks  # a worker was asked for
    assert problems(tmp_path / "two.db") == []
    got, want = dump(tmp_path / "two.db"), dump(tmp_path / "one.db")
    assert len(got["files"]) == 70
    assert got == want
