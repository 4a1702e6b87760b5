"""Freed heap pages handed back between the write's batches (:mod:`indexer.heap`,
:class:`indexer.writer.IndexWriter`)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

import indexer.heap as heap
import indexer.writer as writer
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import dump


def _tree(root: Path) -> Path:
    """Three code files and a doc naming a symbol of the last one (each its own batch at one byte)."""
    (root / "pkg").mkdir(parents=True)
    (root / "a_notes.md").write_text("# Notes\n\nSee `OrderService`.\n", encoding="utf-8")
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "alpha.py").write_text(
        "from pkg.zeta import compute_total\n\n\ndef run():\n    return compute_total(2)\n", encoding="utf-8")
    (root / "pkg" / "zeta.py").write_text(
        "class OrderService:\n    def total(self):\n        return compute_total(1)\n\n\n"
        "def compute_total(x):\n    return x * 2\n", encoding="utf-8")
    return root


class TestTrimHeap:
    @pytest.mark.skipif(not sys.platform.startswith("linux"), reason="glibc's malloc_trim")
    def test_calls_glibc_malloc_trim_on_linux(self):
        blocks = [bytearray(200_000) for _ in range(50)]  # 10 MB freed: whole free pages to give back
        del blocks
        assert heap.trim_heap() in (True, False)
        assert heap._malloc_trim() is not None

    def test_without_malloc_trim_does_nothing(self, monkeypatch):
        monkeypatch.setattr(heap, "_malloc_trim", lambda: None)
        assert heap.trim_heap() is False

    def test_reports_what_malloc_trim_says(self, monkeypatch):
        calls: list[int] = []
        monkeypatch.setattr(heap, "_malloc_trim", lambda: (lambda pad: (calls.append(pad), 1)[1]))
        assert heap.trim_heap() is True and calls == [0]
        monkeypatch.setattr(heap, "_malloc_trim", lambda: (lambda pad: 0))
        assert heap.trim_heap() is False


class TestWriteTrimsPerBatch:
    def test_once_after_each_written_batch_and_the_index_unchanged(self, tmp_path, monkeypatch):
        src = _tree(tmp_path / "src")
        dbs = {}
        for name, trimmed in (("trimmed", True), ("untrimmed", False)):
            monkeypatch.setattr(IndexOptions, "write_batch_bytes", lambda self: 1)  # one file a batch
            events: list[object] = []
            monkeypatch.setattr(writer, "trim_heap", (lambda e=events: (e.append("trim"), True)[1]) if trimmed
                                else (lambda: False))
            db = tmp_path / f"{name}.db"
            store = EmbeddedStore(db)
            original = store.replace_files
            monkeypatch.setattr(store, "replace_files",
                                lambda files, e=events, o=original: (e.append([f.file.path for f in files]), o(files))[1])
            opts = IndexOptions(repo="r", state_dir=str(tmp_path / f"state-{name}"))
            index_repository(src, store, store, opts)
            first = list(events)
            events.clear()
            index_repository(src, store, store, opts)  # nothing changed: nothing written, nothing trimmed
            store.close()
            dbs[name] = dump(db)
            if trimmed:
                assert first == [["a_notes.md"], "trim", ["pkg/__init__.py"], "trim", ["pkg/alpha.py"], "trim",
                                 ["pkg/zeta.py"], "trim"]
                assert events == []
        assert dbs["trimmed"] == dbs["untrimmed"]
        mentions = sorted((e[1], e[2]) for e in dbs["trimmed"]["edges"] if e[0] == "MENTIONS")
        assert mentions == [("r:a_notes.md", "r:pkg/zeta.OrderService")]
