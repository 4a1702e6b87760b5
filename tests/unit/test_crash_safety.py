"""kill -9 at random points of a real index run, then the checks: no orphan chunk, dangling edge or
duplicate; every file's record, nodes and chunks from one version (the old or the new) with its own
checksum; the next run resumes without parsing again what the killed run cached nor re-writing the files
it finished, and ends equal to a full index.

A generated repository at version 1 is indexed; the tree is switched to version 2 (most files edited,
functions renamed across files, some files deleted, some added) and ``index_repository`` runs in a
forked child killed with SIGKILL after a random delay within one run's duration. Every round restarts
from the version-1 index. ``RIPPLE_KILL_POINTS`` sets the number of rounds (default 20).
"""

from __future__ import annotations

import json
import multiprocessing
import os
import random
import shutil
import signal
import sqlite3
import time
from pathlib import Path

import pytest

from indexer.extract_cache import ExtractionCache
from indexer.incremental import RepositoryIndex
from indexer.writer import Journal
from indexer.run import IndexOptions
from indexer.pipeline import index_repository
from stores.embedded import EmbeddedStore
from tests.index_dump import checksum, dump, problems

N = 40


def version(i: int, v: int) -> str | None:
    """``pkg/m{i}.py`` at version ``v`` (``None``: absent at that version)."""
    if v == 1 and i >= N - 3 or v == 2 and i < 3:
        return None  # three files only in v2, three only in v1
    j = (i + 1) % N
    callee = f"f{j}" if v == 1 or j % 2 == 0 else f"g{j}"
    own = f"f{i}" if v == 1 or i % 2 == 0 else f"g{i}"
    extra = "" if v == 1 else f"\n\ndef extra{i}(x):\n    return {own}() + x\n"
    return (f"from pkg.m{j} import {callee}\n\n\nclass C{i}:\n    def run(self):\n        return {callee}()\n\n\n"
            f"def {own}():\n    return C{i}().run()\n{extra}")


def write_tree(src: Path, v: int) -> dict[str, str]:
    """The tree at version ``v``; returns ``{path: checksum}``."""
    shutil.rmtree(src, ignore_errors=True)
    (src / "pkg").mkdir(parents=True)
    files = {"pkg/__init__.py": ""}
    for i in range(N):
        text = version(i, v)
        if text is not None:
            files[f"pkg/m{i}.py"] = text
    for rel, text in files.items():
        (src / rel).write_text(text, encoding="utf-8")
    return {rel: checksum(text.encode()) for rel, text in files.items()}


def per_file(db: Path) -> dict[str, tuple]:
    """``{path: (checksum, node ids with positions, chunk ids with checksums)}``: what belongs to one
    file alone (edges depend on other files, checked by ``problems`` and the final comparison)."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        out = {}
        for path, cs in conn.execute("SELECT path, checksum FROM files"):
            nodes = sorted(conn.execute(
                "SELECT id, label, start_line, end_line FROM nodes WHERE file = ?", (path,)).fetchall())
            chunks = sorted(conn.execute("SELECT id, checksum FROM chunks WHERE file = ?", (path,)).fetchall())
            props = [json.loads(p) for (p,) in conn.execute(
                "SELECT props FROM nodes WHERE file = ? AND label = 'File'", (path,))]
            out[path] = (cs, nodes, chunks, [p.get("checksum") for p in props])
        return out
    finally:
        conn.close()


def full(src: Path, db: Path) -> Path:
    store = EmbeddedStore(db)
    try:
        index_repository(src, store, store, IndexOptions(repo="r", jobs=1))
    finally:
        store.close()
    return db


def child(src: str, db: str, state: str) -> None:
    store = EmbeddedStore(db)
    index_repository(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=state))
    store.close()
    os._exit(0)


@pytest.mark.skipif("fork" not in multiprocessing.get_all_start_methods(), reason="needs fork")
def test_kill_at_random_points_leaves_files_whole_and_resumes(tmp_path: Path) -> None:
    rounds = int(os.environ.get("RIPPLE_KILL_POINTS", "20"))
    src, work = tmp_path / "src", tmp_path / "work"
    v1 = write_tree(src, 1)
    expected_v1 = per_file(full(src, tmp_path / "v1.db"))
    # The version-1 index (with its extraction cache), restored before every round.
    snap = tmp_path / "snap"
    snap.mkdir()
    store = EmbeddedStore(snap / "index.db")
    index_repository(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(snap / "state")))
    store.close()
    v2 = write_tree(src, 2)
    full_tree = full(src, tmp_path / "v2.db")
    expected_v2 = per_file(full_tree)
    final = dump(full_tree)
    changed = sorted(p for p, cs in v2.items() if v1.get(p) != cs)

    ctx = multiprocessing.get_context("fork")

    def run_child(kill_after: float | None) -> float:
        shutil.rmtree(work, ignore_errors=True)
        shutil.copytree(snap, work)
        t0 = time.perf_counter()
        proc = ctx.Process(target=child, args=(str(src), str(work / "index.db"), str(work / "state")))
        proc.start()
        if kill_after is not None:
            time.sleep(kill_after)
            if proc.pid is not None:
                try:
                    os.kill(proc.pid, signal.SIGKILL)
                except ProcessLookupError:
                    pass
        proc.join(60)
        return time.perf_counter() - t0

    duration = run_child(None)  # one whole run, to spread the kill points over
    rng = random.Random(6)
    finished_rounds = 0
    for _ in range(rounds):
        run_child(rng.uniform(0.0, duration))
        db = work / "index.db"
        assert problems(db) == [], problems(db)
        state = per_file(db)
        for path, (cs, nodes, chunks, file_cs) in state.items():
            assert file_cs == [cs], path
            whole = [exp[path] for exp in (expected_v1, expected_v2) if path in exp and exp[path][0] == cs]
            assert (cs, nodes, chunks, file_cs) in whole, f"{path} is not one whole version"
        # Resume: what the killed run parsed comes from the cache, what it finished is not written again.
        cache = ExtractionCache(work / "state" / "extract")
        cached = sum(1 for p in changed if cache.get(p, v2[p]) is not None)
        cache.close()
        pending, done = Journal(next((work / "state").glob("journal-*.json"), None)).read()
        stale = {p for p in v2 if state.get(p, ("",))[0] != v2[p]}
        store = EmbeddedStore(db)
        index = RepositoryIndex(src, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(work / "state")))
        try:
            resumed = index.sync()
        finally:
            index.close()
            store.close()
        assert resumed.files_extracted == len(changed) - cached
        assert resumed.files_written == len(stale | ((pending - done) & set(v2)))
        assert problems(db) == [] and dump(db) == final
        finished_rounds += 1
    assert finished_rounds == rounds
