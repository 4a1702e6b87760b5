"""A whole-tree run raises the cyclic GC's first threshold while it runs (:func:`indexer.incremental.fewer_collections`)
and puts the previous thresholds back after it, also when it fails; the index is the same."""

from __future__ import annotations

import contextlib
import gc
from pathlib import Path

import pytest

from indexer.incremental import GC_THRESHOLD0, fewer_collections
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import dump


@pytest.fixture
def default_thresholds():
    old = gc.get_threshold()
    gc.set_threshold(700, 10, 10)
    yield
    gc.set_threshold(*old)


FIXTURE = """
# --- path: pkg/a.py ---
from pkg.b import f


def g():
    return f(1)
# --- path: pkg/b.py ---
def f(x):
    return x
"""


def _tree(root: Path) -> Path:
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "a.py").write_text("from pkg.b import f\n\n\ndef g():\n    return f(1)\n", encoding="utf-8")
    (root / "pkg" / "b.py").write_text("def f(x):\n    return x\n", encoding="utf-8")
    return root


def test_the_threshold_is_raised_during_the_block_only(default_thresholds) -> None:
    assert GC_THRESHOLD0 == 10_000
    with fewer_collections():
        assert gc.get_threshold() == (10_000, 10, 10)
        with fewer_collections(500):  # never lowered
            assert gc.get_threshold() == (10_000, 10, 10)
        assert gc.get_threshold() == (10_000, 10, 10)
    assert gc.get_threshold() == (700, 10, 10)
    with pytest.raises(RuntimeError), fewer_collections():
        raise RuntimeError("boom")
    assert gc.get_threshold() == (700, 10, 10)
    gc.set_threshold(50_000, 5, 7)
    with fewer_collections():
        assert gc.get_threshold() == (50_000, 5, 7)  # a higher one is kept
    assert gc.get_threshold() == (50_000, 5, 7)


def test_a_run_resolves_and_writes_under_the_raised_threshold(default_thresholds, tmp_path, monkeypatch) -> None:
    from indexer.writer import IndexWriter

    seen: list[tuple[int, int, int]] = []
    write = IndexWriter.write
    monkeypatch.setattr(IndexWriter, "write", lambda self, *a, **k: (seen.append(gc.get_threshold()), write(self, *a, **k))[1])
    root = _tree(tmp_path / "repo")
    dumps = []
    for name in ("raised", "default"):
        if name == "default":  # the same run without the mechanism
            monkeypatch.setattr("indexer.incremental.fewer_collections", contextlib.nullcontext)
        store = EmbeddedStore(str(tmp_path / f"{name}.db"))
        report = index_repository(root, store, store, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / name)))
        store.close()
        assert report.files_written == 2
        assert gc.get_threshold() == (700, 10, 10)
        dumps.append(dump(tmp_path / f"{name}.db"))
    assert seen == [(10_000, 10, 10), (700, 10, 10)]
    assert dumps[0] == dumps[1]


def test_a_spilled_resolve_binds_and_links_under_the_bind_threshold(default_thresholds, monkeypatch) -> None:
    """A whole-tree resolve (spilled outputs) binds each file with the first threshold at
    BIND_GC_THRESHOLD0 and puts the previous one back after; a resolve that keeps its outputs (an
    update's) leaves it alone; the edges are the same either way."""
    from indexer.heap import BIND_GC_THRESHOLD0
    from indexer.resolve.interpreter import Resolver
    from indexer.resolve.repository import RepositoryResolver
    from indexer.spill import SpillFile
    from tests.resolution_harness import extract_fixture

    assert BIND_GC_THRESHOLD0 == 100_000
    seen: list[tuple[int, int, int]] = []
    file_output = Resolver.file_output
    monkeypatch.setattr(Resolver, "file_output",
                        lambda self, fc, outcomes: (seen.append(gc.get_threshold()), file_output(self, fc, outcomes))[1])
    fixture = FIXTURE

    def edges(resolved) -> list[tuple[str, str, str]]:
        return sorted((e.kind, e.src, e.dst) for out in resolved.files for e in out.edges if e.kind == "CALLS")

    spilled = RepositoryResolver("t")
    spilled.update(extract_fixture(fixture))
    spill = SpillFile()
    try:
        spilled_calls = edges(spilled.resolve(["pkg/a.py", "pkg/b.py"], spill=spill))
    finally:
        spill.close()
    assert seen == [(BIND_GC_THRESHOLD0, 10, 10)] * 2
    assert gc.get_threshold() == (700, 10, 10)
    seen.clear()
    kept = RepositoryResolver("t")
    kept.update(extract_fixture(fixture))
    kept_calls = edges(kept.resolve(["pkg/a.py", "pkg/b.py"]))
    assert seen == [(700, 10, 10)] * 2  # not raised
    assert gc.get_threshold() == (700, 10, 10)
    assert spilled_calls == kept_calls
    assert [(t, src.rsplit(":", 1)[-1], dst.rsplit(":", 1)[-1]) for t, src, dst in kept_calls] == [("CALLS", "pkg/a.g(0)", "pkg/b.f(1)")]
