"""On a cold run the write's chunk copy links each batch's doc mentions (:meth:`indexer.write_prep.ChunkPreparer.mentions`,
:func:`indexer.mentions.mention_edges_of` without a store): the writer reads no store for them, and every table
is the same as one process writes. An incremental run (the store holds nodes) links them in the writer, and a
file the copy could not read is linked by the writer."""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

import pytest

import indexer.write_prep as wp
from indexer.forked import can_fork
from indexer.writer import IndexWriter
from stores.embedded import EmbeddedStore
from tests.unit.test_write_prep import _index, _tables, forking  # noqa: F401 (a fixture)

pytestmark = pytest.mark.skipif(not can_fork(), reason="no safe fork on this platform")


def _tree(root: Path, files: int) -> None:
    """``files`` modules, each a class ``WebHandler<i>`` and a function ``make_<i>``, all four of the first ones a
    method ``shared_name`` (too common a name to link), and a README naming some of them."""
    (root / "pkg").mkdir(parents=True, exist_ok=True)
    for i in range(files):
        (root / "pkg" / f"m{i}.py").write_text(
            f'"""Module {i}."""\n\n\nclass WebHandler{i}:\n    def shared_name(self, value):\n        return value + {i}\n\n\n'
            f"def make_{i}(x):\n    return WebHandler{i}().shared_name(x)\n")
    (root / "README.md").write_text("# Pkg\n\nSee `make_3` and `WebHandler7`,\nnot `shared_name` nor `nowhere_defined`.\n"
                                    "\nAlso ``pkg.m5.make_5``.\n")


@pytest.fixture
def lookups(monkeypatch) -> list[int]:
    """How many keys each store lookup of the doc mentions asked for (in this process)."""
    seen: list[int] = []
    real = EmbeddedStore.find_symbol_keys

    def spied(self, keys, labels=None, **kwargs):
        seen.append(len(keys))
        return real(self, keys, labels, **kwargs)

    monkeypatch.setattr(EmbeddedStore, "find_symbol_keys", spied)
    return seen


@pytest.fixture
def linked(monkeypatch) -> list[tuple[int, list[str]]]:
    """The batches (and their covered paths) whose edges the copy linked and the writer took."""
    seen: list[tuple[int, list[str]]] = []
    real = wp.ChunkPreparer.mentions

    def spied(self, k):
        got = real(self, k)
        if got is not None:
            seen.append((k, got.covered))
        return got

    monkeypatch.setattr(wp.ChunkPreparer, "mentions", spied)
    return seen


def _mentions(db: Path) -> list[tuple[str, str, int, int]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        return conn.execute("SELECT src, dst, line, col FROM edges WHERE kind = 'MENTIONS' ORDER BY 1, 2, 3, 4").fetchall()
    finally:
        conn.close()


EXPECTED = [("r:README.md", "r:pkg/m3.make_3(1)", 3, 4), ("r:README.md", "r:pkg/m5.make_5(1)", 6, 5),
            ("r:README.md", "r:pkg/m7.WebHandler7", 3, 17)]


def test_a_cold_write_links_the_doc_mentions_in_the_copy(forking, lookups, linked, tmp_path, monkeypatch):  # noqa: F811
    root = tmp_path / "repo"
    _tree(root, 8)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    assert lookups and linked == []  # one process: the writer looked the mentions up in the store
    assert _mentions(tmp_path / "one.db") == EXPECTED  # not the common shared_name, not an undefined name
    lookups.clear()
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert lookups == []  # the writer read no store for them
    assert [k for k, _ in linked] == list(range(len(forking))) and len(forking) >= 8  # every batch's came from the copy
    assert sorted(p for _, covered in linked for p in covered) == ["README.md", *(f"pkg/m{i}.py" for i in range(8))]
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")


def test_an_incremental_write_links_the_mentions_in_the_writer(forking, lookups, linked, tmp_path, monkeypatch):  # noqa: F811
    dbs = {}
    for jobs in (1, 2):
        root = tmp_path / f"repo{jobs}"
        _tree(root, 8)
        db, state = tmp_path / f"{jobs}.db", tmp_path / f"s{jobs}"
        _index(root, db, state, jobs, monkeypatch)
        (root / "README.md").write_text("# Pkg\n\nNow `make_4` and `WebHandler2`.\n")
        for i in (1, 2, 6):  # enough files for the copy
            (root / "pkg" / f"m{i}.py").write_text((root / "pkg" / f"m{i}.py").read_text() + "\n\ndef extra_fn():\n    pass\n")
        linked.clear()
        lookups.clear()
        _index(root, db, state, jobs, monkeypatch)
        assert linked == [] and lookups  # the store holds nodes: the writer links the mentions
        dbs[jobs] = _tables(db)
        assert _mentions(db) == [("r:README.md", "r:pkg/m2.WebHandler2", 3, 17), ("r:README.md", "r:pkg/m4.make_4(1)", 3, 4)]
    assert dbs[1] == dbs[2]


def test_a_file_the_copy_could_not_read_is_linked_by_the_writer(forking, lookups, linked, tmp_path, monkeypatch):  # noqa: F811
    root = tmp_path / "repo"
    _tree(root, 8)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    writer = os.getpid()
    real = IndexWriter._prepare_input

    def blind(self, path, fc, fresh, texts):  # the copy finds the README changed; the writer does not
        return None if path == "README.md" and os.getpid() != writer else real(self, path, fc, fresh, texts)

    monkeypatch.setattr(IndexWriter, "_prepare_input", blind)
    lookups.clear()
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert [k for k, _ in linked] == list(range(len(forking))) and len(forking) >= 8
    assert "README.md" not in {p for _, covered in linked for p in covered}
    assert len(lookups) >= 1  # the writer linked the README itself
    assert _mentions(tmp_path / "two.db") == EXPECTED
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")


def test_a_copy_that_fails_while_linking_leaves_the_mentions_to_the_writer(forking, lookups, linked, tmp_path,  # noqa: F811
                                                                           monkeypatch):
    root = tmp_path / "repo"
    _tree(root, 8)
    _index(root, tmp_path / "one.db", tmp_path / "s1", 1, monkeypatch)
    real = wp._prepare_all

    def failing(*args, mentions_of=None, **kwargs):
        def broken(docs):
            if any(path == "README.md" for _, path, _, _ in docs):
                raise RuntimeError("the copy fails here")
            return mentions_of(docs)
        return real(*args, mentions_of=broken, **kwargs)

    monkeypatch.setattr(wp, "_prepare_all", failing)
    lookups.clear()
    _index(root, tmp_path / "two.db", tmp_path / "s2", 2, monkeypatch)
    assert "README.md" not in {p for _, covered in linked for p in covered} and len(lookups) >= 1
    assert _mentions(tmp_path / "two.db") == EXPECTED
    assert _tables(tmp_path / "one.db") == _tables(tmp_path / "two.db")
