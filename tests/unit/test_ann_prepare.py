"""The approximate-search index is built (and saved) by the embedding phase, not inside the first query
after the store crossed ``ann_threshold`` (:meth:`stores.embedded.EmbeddedStore.prepare_ann`, called by
:func:`lsp_server.cli_embed.embed_phase`): at 5 million vectors that build takes CPU-hours."""

from __future__ import annotations

import json
from pathlib import Path

import numpy as np
from click.testing import CliRunner

from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from stores.vector_index import DimIndex
from stores.contracts import Chunk, FileRecord, IndexedFile

DIM = 16


def fill(store: EmbeddedStore, files: int, per_file: int) -> dict[str, np.ndarray]:
    """``files`` files ``m<i>.py`` of ``per_file`` chunks with random unit vectors (seeded by file),
    repository ``a``; returns each file's vectors."""
    out, batch = {}, []
    for f in range(files):
        v = np.random.default_rng(f).standard_normal((per_file, DIM)).astype(np.float32)
        v /= np.linalg.norm(v, axis=1, keepdims=True)
        path = f"m{f}.py"
        chunks = [Chunk(f"a:{path}#{i}", "a", "p", path, "python", "function", f"f{i}", f"{path}.f{i}", None, i + 1,
                        i + 1, f"{path} chunk {i}", f"{f:04x}{i:060x}", tuple(float(x) for x in row))
                  for i, row in enumerate(v)]
        batch.append(IndexedFile(FileRecord("a", path, "python", "0" * 64, 1), chunks=chunks))
        out[path] = v
    store.replace_files(batch)
    return out


def _saved_keys(db: Path, dim: int) -> list[int]:
    with np.load(db.with_name(db.name + ".vectors") / f"dim{dim}.npz") as data:
        return data["keys"].tolist()


def test_prepare_ann_builds_and_saves_past_the_threshold_so_a_new_process_only_loads_it(tmp_path, monkeypatch):
    db = tmp_path / "x.db"
    store = EmbeddedStore(db, ann_threshold=100)
    vectors = fill(store, files=3, per_file=50)  # 150 embedded rows, past 100
    assert store.prepare_ann() == 150
    rowids = [r[0] for r in store._db.execute("SELECT rowid FROM chunk_rows ORDER BY rowid")]  # noqa: SLF001
    assert _saved_keys(db, DIM) == rowids
    assert store.prepare_ann() == 150  # up to date: nothing added
    store.close()

    added: list[int] = []
    original = DimIndex.apply

    def counting(self, keys, fps, vectors_of):  # noqa: ANN001
        changed = original(self, keys, fps, vectors_of)
        added.append(changed)
        return changed

    monkeypatch.setattr(DimIndex, "apply", counting)
    reopened = EmbeddedStore(db, ann_threshold=100)
    hits = reopened.knn(tuple(float(x) for x in vectors["m2.py"][7]), 3)
    assert hits[0].chunk_id == "a:m2.py#7"
    assert added == [0]  # the saved index was loaded whole: no vector added or removed
    reopened.close()


def test_prepare_ann_does_nothing_below_the_threshold(tmp_path):
    db = tmp_path / "small.db"
    store = EmbeddedStore(db, ann_threshold=1000)
    fill(store, files=2, per_file=10)
    assert store.prepare_ann() is None
    store.close()
    assert not db.with_name(db.name + ".vectors").exists()


def test_ripple_embed_leaves_the_ann_index_built_past_the_threshold(tmp_path, monkeypatch):
    src = tmp_path / "src"
    src.mkdir()
    (src / "shipping.py").write_text("def shipping_cost(weight):\n    return weight * 4.5\n\n\n"
                                     "def delivery_days(country):\n    return 2 if country == 'FR' else 7\n")
    db = tmp_path / "index.db"
    runner = CliRunner()
    assert runner.invoke(main, ["index", str(src), "--db", str(db), "--no-embed", "--json"]).exit_code == 0
    done = runner.invoke(main, ["embed", "--db", str(db), "--json"], env={"RIPPLE_ANN_THRESHOLD": "1"})
    assert done.exit_code == 0, done.output
    report = json.loads(done.stdout)
    assert report["ann_vectors"] == report["embedded"] == report["chunks"] >= 2
    assert len(_saved_keys(db, 384)) == report["chunks"]
    again = json.loads(runner.invoke(main, ["embed", "--db", str(db), "--json"]).stdout)
    assert "ann_vectors" not in again  # default threshold (200,000): exact search, nothing built
