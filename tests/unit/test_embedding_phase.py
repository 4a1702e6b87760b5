"""The embedding phase: every distinct text embedded once, twins and re-indexed files reuse vectors."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from indexer.embedding import embed_pending
from indexer.run import IndexOptions
from indexer.pipeline import index_repository
from stores.embedded import EmbeddedStore


class CountingEmbedder:
    """A stand-in model: a deterministic unit vector per text, and a log of every text it saw."""

    model_id = "counting-test-model"

    def __init__(self) -> None:
        self.seen: list[str] = []
        self.batches: list[int] = []

    def embed(self, texts: Sequence[str], batch_size: int = 16) -> list[list[float]]:
        self.seen.extend(texts)
        self.batches.append(len(texts))
        out = []
        for t in texts:
            v = [0.0] * 384
            v[hash(t) % 384] = 1.0
            out.append(v)
        return out


def test_each_text_is_embedded_once_even_across_reindexing(tmp_path: Path) -> None:
    root = tmp_path / "src"
    root.mkdir()
    body = "def {name}():\n    return compute_the_total(1, 2)\n"
    (root / "a.py").write_text(body.format(name="same"), encoding="utf-8")
    (root / "b.py").write_text(body.format(name="same") + "\n\ndef other():\n    pass\n", encoding="utf-8")
    store = EmbeddedStore(tmp_path / "index.db")
    index_repository(root, store, store, IndexOptions(repo="r", jobs=1))
    embedder = CountingEmbedder()
    report = embed_pending(store, embedder)
    assert sorted(embedder.seen) == sorted({
        "def same():\n    return compute_the_total(1, 2)", "def other():\n    pass",
    })
    assert (report.embedded, report.reused) == (2, 1)  # b.py's same() reused a.py's vector
    assert store.chunk_count() == {"chunks": 3, "embedded": 3}

    (root / "b.py").write_text(body.format(name="same") + "\n\ndef third():\n    pass\n", encoding="utf-8")
    index_repository(root, store, store, IndexOptions(repo="r", jobs=1))
    embedder.seen.clear()
    report = embed_pending(store, embedder)
    assert embedder.seen == ["def third():\n    pass"]
    assert (report.embedded, report.reused) == (1, 0)
    store.close()
