"""Ensemble search everywhere: ``[search] models`` honoured by the agent facade (MCP, REST), the
writers (``ripple index`` / ``ripple embed``, ``ripple watch``, REST ingest), per-model ranks in
every answer, and the errors of a model that is unknown, not built, or asked of Elasticsearch.

The second model is ``mini2`` (:mod:`tests.ensemble_fake`): the bundled MiniLM under another name, so
its kNN list ranks every chunk exactly as MiniLM's does and each hit's ``knn:mini2`` rank is known."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from analysis.agent_queries import AgentQueries
from analysis.ensemble import configured_engine, engine_maker, model_ranks
from indexer.run import IndexReport
from lsp_server.api.app import ApiSettings, create_app
from lsp_server.cli import main, update_printer
from lsp_server.ensemble_support import ExtraModels, extra_model_names
from lsp_server.features.custom import SearchParams
from lsp_server.mcp_server import Backend
from stores.embedding_format import model_vectors_key
from stores.config import ConfigError, load_config
from stores.embedded import EmbeddedStore
from stores.embedder import EmbedderError, ModelNotBuilt
from stores.local_models import LOCAL_MODELS, open_model
from tests import ensemble_fake

SHOP = Path(__file__).resolve().parents[1] / "fixtures" / "agent-shop"


@pytest.fixture
def mini2(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    """``mini2`` registered and installed in this test's model folder; its model id (its vectors are
    stored under ``model_vectors_key`` of it)."""
    monkeypatch.setitem(LOCAL_MODELS, ensemble_fake.NAME, ensemble_fake.entry())  # type: ignore[arg-type]
    ensemble_fake.install(tmp_path / "models")
    monkeypatch.setenv("RIPPLE_MODELS_DIR", str(tmp_path / "models"))
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    monkeypatch.delenv("RIPPLE_SEARCH_MODELS", raising=False)
    return open_model(ensemble_fake.NAME).model_id


@pytest.fixture
def shop(tmp_path: Path, mini2: str, monkeypatch: pytest.MonkeyPatch) -> Path:
    """agent-shop indexed with ``[search] models = minilm, mini2`` (``ripple index`` embeds both)."""
    db = tmp_path / "shop.db"
    monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "minilm,mini2")
    result = CliRunner().invoke(main, ["index", str(SHOP), "--repo", "agent-shop", "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    models = json.loads(result.stdout)["embeddings"]["models"]
    assert list(models) == ["mini2"] and models["mini2"]["model"] == mini2
    return db


def chunk_total(db: Path) -> int:
    store = EmbeddedStore(db)
    try:
        return store.chunk_count()["chunks"]
    finally:
        store.close()


def test_index_embeds_every_chunk_with_each_configured_model(shop: Path, mini2: str) -> None:
    store = EmbeddedStore(shop)
    try:
        counts = store.chunk_count()
        assert counts["embedded"] == counts["chunks"] > 0
        assert store.model_chunk_count(model_vectors_key(mini2)) == counts["chunks"]
    finally:
        store.close()


def test_agent_facade_ranks_with_each_configured_model(shop: Path) -> None:
    store = EmbeddedStore(shop)
    try:
        queries = AgentQueries(store, store, models=("minilm", "mini2"))
        data = queries.search("refuse an order without items", limit=3).as_dict()["result"]
        one = AgentQueries(store, store).search("refuse an order without items", limit=3).as_dict()["result"]
    finally:
        store.close()
    assert data["lists"] == ["bm25", "knn:minilm", "knn:mini2"] and data["notes"] == []
    assert one["lists"] == ["bm25", "knn"]
    for hit in data["hits"]:  # mini2 is MiniLM: the same rank in both lists
        assert hit["ranks"]["knn:minilm"] == hit["ranks"]["knn:mini2"]
        assert set(hit["ranks"]) <= {"bm25", "knn:minilm", "knn:mini2"}
    assert data["hits"][0]["id"] == one["hits"][0]["id"] == "agent-shop:shop/service.validate(1)"
    assert data["hits"][0]["ranks"]["knn:mini2"] == one["hits"][0]["ranks"]["knn"]


def test_mcp_backend_honours_search_models(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "minilm,mini2")
    backend = Backend([shop])
    try:
        answer = backend.call(lambda q: q.search("refuse an order without items", limit=2))
    finally:
        backend.close()
    data = answer.as_dict()["result"]
    assert data["lists"] == ["bm25", "knn:minilm", "knn:mini2"]
    top = data["hits"][0]
    assert top["id"] == "agent-shop:shop/service.validate(1)"
    assert top["ranks"]["knn:minilm"] == top["ranks"]["knn:mini2"]
    assert f"knn:mini2#{top['ranks']['knn:mini2']}" in answer.text


def test_rest_search_reports_per_model_ranks(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "minilm,mini2")
    app = create_app(ApiSettings(load_config(shop.parent), shop, roots=[shop.parent]))
    with TestClient(app) as http:
        body = http.post("/v1/search", json={"query": "refuse an order without items", "limit": 2}).json()
    top = body["hits"][0]
    assert top["id"] == "agent-shop:shop/service.validate(1)"
    ranks = top["ranks"]
    assert ranks["knn"] is None and ranks["rrf"] == 1
    assert ranks["models"] == {"minilm": ranks["models"]["minilm"], "mini2": ranks["models"]["minilm"]}
    assert ranks["models"]["minilm"] >= 1


def test_model_ranks_and_extra_model_names() -> None:
    assert model_ranks({"bm25": 2, "knn:minilm": 1, "knn:mpnet": 4, "name": 1}) == {"minilm": 1, "mpnet": 4}
    assert model_ranks({"bm25": 2, "knn": 1}) == {}
    assert extra_model_names(["minilm", "mpnet"], None) == ["mpnet"]
    assert extra_model_names(["minilm", "mpnet"], "BAAI/bge-small-en-v1.5") == ["minilm", "mpnet"]


def test_watcher_embeds_new_chunks_with_every_model(tmp_path: Path, mini2: str) -> None:
    """``ripple watch``'s update callback: the index's model, then each other model of ``[search] models``."""
    db = tmp_path / "w.db"
    result = CliRunner().invoke(main, ["index", str(SHOP), "--repo", "agent-shop", "--db", str(db), "--no-embed"])
    assert result.exit_code == 0, result.output
    total = chunk_total(db)
    store = EmbeddedStore(db)
    lines: list[str] = []
    try:
        printer = update_printer("agent-shop", store, True, None, True,
                                 ExtraModels(["minilm", "mini2"], None, None), echo=lines.append)
        printer(IndexReport("agent-shop", str(SHOP), files_changed=1, chunks=total))
        assert store.chunk_count()["embedded"] == total and store.model_chunk_count(model_vectors_key(mini2)) == total
        printer(IndexReport("agent-shop", str(SHOP), files_changed=1, chunks=total))  # nothing new: nothing embedded again
    finally:
        store.close()
    first, second = (json.loads(line) for line in lines)
    assert (first["embedded"], first["models"]) == (total, {"mini2": total})
    assert (second["embedded"], second.get("models")) == (0, {"mini2": 0})


def test_a_model_that_cannot_load_costs_its_vectors_only(tmp_path: Path, mini2: str) -> None:
    db = tmp_path / "m.db"
    assert CliRunner().invoke(main, ["index", str(SHOP), "--repo", "s", "--db", str(db), "--no-embed"]).exit_code == 0
    heard: list[tuple[str, str]] = []
    store = EmbeddedStore(db)
    try:
        extra = ExtraModels(["mini2", "mpnet"], None, tmp_path / "models", on_error=lambda n, m: heard.append((n, m)))
        summary = extra.embed_summary(store)
        assert extra.embed_summary(store)["mini2"]["embedded"] == 0  # loaded once, nothing pending
    finally:
        store.close()
    assert summary["mini2"]["embedded"] == chunk_total(db) and summary["mini2"]["model"] == mini2
    assert list(summary["mpnet"]) == ["skipped"]
    assert summary["mpnet"]["skipped"].startswith("embedding model 'mpnet' is not built: run `ripple models build mpnet`")
    assert [n for n, _ in heard] == ["mpnet"]  # told once, not at every embedding pass


def test_a_configured_model_not_built_falls_back_with_a_note(shop: Path, tmp_path: Path) -> None:
    store = EmbeddedStore(shop)
    try:
        make, note = engine_maker(store, store, None, ("minilm", "mpnet"), str(tmp_path / "nowhere"))
        assert make is not None and note is not None
        assert note.startswith("ensemble of minilm, mpnet off (embedding model 'mpnet' is not built: run `ripple "
                               "models build mpnet`")
        assert note.endswith("): ranking with the index's model")
        assert make(store, store).search("validate", 2).lists == ["bm25", "knn", "name"]
        with pytest.raises(ModelNotBuilt, match="ripple models build mpnet"):  # asked for explicitly: an error
            configured_engine(store, store, None, ("minilm", "mpnet"), str(tmp_path / "nowhere"))
        with pytest.raises(EmbedderError, match=r"^unknown embedding model 'bert'; known models: minilm, mpnet, mini2$"):
            configured_engine(store, store, None, ("minilm", "bert"))
    finally:
        store.close()


def test_unknown_model_names_are_clear_errors(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    with pytest.raises(ValueError, match=r"unknown embedding model 'bert'; known models: minilm, mpnet$"):
        SearchParams(query="x", models=["minilm", "bert"])  # ripple/search: InvalidParams
    assert SearchParams(query="x", models=["minilm"]).models == ["minilm"]
    monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "minilm,bert")
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path))
    result = CliRunner().invoke(main, ["search", "x", "--db", str(tmp_path / "none.db")])
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # a message, not a traceback
    assert "search.models: unknown embedding model 'bert'; known models: minilm, mpnet" in result.output


def test_an_ensemble_needs_the_embedded_search_index(tmp_path: Path) -> None:
    env = {"HOME": str(tmp_path), "RIPPLE_SEARCH_MODELS": "minilm,mpnet", "RIPPLE_SEARCH_BACKEND": "elasticsearch",
           "RIPPLE_ES_URL": "http://127.0.0.1:9200"}
    with pytest.raises(ConfigError, match=r"search.models: an ensemble search needs the embedded search index "
                                          r"\(search.backend = \"embedded\"\), not elasticsearch; take search.models "
                                          r"out of the configuration$"):
        load_config(tmp_path, env)
    assert load_config(tmp_path, {**env, "RIPPLE_SEARCH_MODELS": ""}).search.models == ()


def test_cli_search_with_models_and_tests(shop: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ripple search --models`` crashed on every query (the ensemble engine did not take ``tests``)."""
    monkeypatch.delenv("RIPPLE_SEARCH_MODELS")
    for extra in ([], ["--tests"]):
        result = CliRunner().invoke(main, ["search", "refuse an order without items", "--db", str(shop), "--models",
                                           "minilm,mini2", "--limit", "1", "--json", *extra])
        assert result.exit_code == 0, result.output
        data = json.loads(result.stdout)
        assert data["lists"] == ["bm25", "knn:minilm", "knn:mini2"]
        (hit,) = data["hits"]
        assert hit["ranks"]["knn:minilm"] == hit["ranks"]["knn:mini2"]


def test_cli_search_leaves_a_configured_model_not_built_out_with_a_warning(shop: Path, tmp_path: Path,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """``[search] models`` may come from a cloned repository's configuration: a model not built here is
    left out with a warning (``--models`` asking for it is still an error)."""
    monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "minilm,mpnet")
    monkeypatch.setenv("RIPPLE_MODELS_DIR", str(tmp_path / "nowhere"))
    result = CliRunner().invoke(main, ["search", "refuse an order without items", "--db", str(shop), "--limit", "1",
                                       "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["lists"] == ["bm25", "knn"]
    assert "[search] models names mpnet, which is not built here: searching without it" in result.stderr
    asked = CliRunner().invoke(main, ["search", "refuse", "--db", str(shop), "--models", "minilm,mpnet"])
    assert asked.exit_code == 1 and "ripple models build mpnet" in asked.output
