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
    # What is embedded is the chunk's contextual header (path, qualified name) + its text: equal
    # functions in two files are two texts; the same file in another repository is a twin.
    body = "def {name}():\n    return compute_the_total(1, 2)\n"
    root, other = tmp_path / "src", tmp_path / "copy"
    root.mkdir()
    other.mkdir()
    (root / "a.py").write_text(body.format(name="same"), encoding="utf-8")
    (root / "b.py").write_text(body.format(name="same") + "\n\ndef other():\n    pass\n", encoding="utf-8")
    (other / "a.py").write_text(body.format(name="same"), encoding="utf-8")
    store = EmbeddedStore(tmp_path / "index.db")
    index_repository(root, store, store, IndexOptions(repo="r", jobs=1))
    index_repository(other, store, store, IndexOptions(repo="s", jobs=1))
    embedder = CountingEmbedder()
    report = embed_pending(store, embedder)
    assert sorted(embedder.seen) == [
        "a.py\ndef same():\n    return compute_the_total(1, 2)", "b.py\ndef other():\n    pass",
        "b.py\ndef same():\n    return compute_the_total(1, 2)",
    ]
    assert (report.embedded, report.reused, report.reembedded) == (3, 1, False)  # s's a.py reused r's vector
    assert store.chunk_count() == {"chunks": 4, "embedded": 4}

    (root / "b.py").write_text(body.format(name="same") + "\n\ndef third():\n    pass\n", encoding="utf-8")
    index_repository(root, store, store, IndexOptions(repo="r", jobs=1))
    embedder.seen.clear()
    report = embed_pending(store, embedder)
    assert embedder.seen == ["b.py\ndef third():\n    pass"]
    assert (report.embedded, report.reused) == (1, 0)
    store.close()


def test_the_pipeline_and_the_embedder_share_one_batch_size() -> None:
    """The embedding phase's batch (indexer.embedding) is the embedder's own default: 8 texts a model
    call (16 peaked 75 MiB higher on Flask for the same time)."""
    import indexer.embedding
    import stores.embedder

    assert indexer.embedding.DEFAULT_BATCH == stores.embedder.DEFAULT_BATCH == 8
