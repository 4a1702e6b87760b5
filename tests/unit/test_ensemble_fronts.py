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
from lsp_server.cli import main
from lsp_server.watch_support import update_printer
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


def test_rest_lists_every_model_the_index_answers_with(shop: Path, mini2: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``GET /v1/search/models``: the bundled model, each local model (built or not) and how many chunks
    have a vector of each, and which are configured (it used to list the bundled model only)."""
    from stores.local_models import local_model_id

    assert local_model_id("mini2") == mini2 and local_model_id("mpnet") is None  # read without loading it
    total = chunk_total(shop)
    monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "minilm,mini2")
    app = create_app(ApiSettings(load_config(shop.parent), shop, roots=[shop.parent]))
    with TestClient(app) as http:
        body = http.get("/v1/search/models").json()
    assert body == {
        "models": [
            {"name": "ripplegraph/all-MiniLM-L6-v2-int8", "searchName": "minilm", "dimensions": 384, "bundled": True,
             "active": True, "built": True, "configured": True, "vectors": total},
            {"name": "ripplegraph/all-mpnet-base-v2-int8", "searchName": "mpnet", "dimensions": 768, "bundled": False,
             "active": False, "built": False, "configured": False, "vectors": 0},
            {"name": "ripplegraph/mini2-int8", "searchName": "mini2", "dimensions": 384, "bundled": False,
             "active": False, "built": True, "configured": True, "vectors": total}],
        "configured": ["minilm", "mini2"], "chunks": total, "embedded": total}
    # not configured any more: still listed with its vectors (a request's `models` may name it)
    monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "")
    monkeypatch.delenv("RIPPLE_SEARCH_MODELS")
    app = create_app(ApiSettings(load_config(shop.parent), shop, roots=[shop.parent]))
    with TestClient(app) as http:
        body = http.get("/v1/search/models").json()
    assert [(m["searchName"], m["configured"], m["vectors"]) for m in body["models"]] == [
        ("minilm", False, total), ("mpnet", False, 0), ("mini2", False, total)]
    assert body["configured"] == []


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


def test_watch_all_embeds_updates_with_every_model(tmp_path: Path, mini2: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """``ripple watch --all``: a file saved after the first index gets vectors of the index's model and
    of each other model of ``[search] models``, as ``ripple watch PATH`` gives it (it used to get none)."""
    import shutil
    import threading
    import time

    from indexer.discovery import DEFAULT_MAX_FILE_BYTES
    from lsp_server import cli_central
    from lsp_server.cli_central import watch_all

    repo = tmp_path / "src" / "agent-shop"
    shutil.copytree(SHOP, repo)
    manifest = tmp_path / "repos.toml"
    manifest.write_text('[[repository]]\npath = "src/agent-shop"\n', encoding="utf-8")
    db = tmp_path / "team.db"
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    index_all = cli_central.index_all

    def index_then_configure(*args, **kwargs):  # the spawned index workers do not know the fake mini2:
        outcomes = index_all(*args, **kwargs)  # configure it once they are done, before the watch starts
        monkeypatch.setenv("RIPPLE_SEARCH_MODELS", "minilm,mini2")
        return outcomes

    monkeypatch.setattr(cli_central, "index_all", index_then_configure)
    stop, failed = threading.Event(), []

    def run() -> None:
        try:
            watch_all(manifest, str(db), 1, None, True, None, DEFAULT_MAX_FILE_BYTES, True, stop)
        except BaseException as exc:  # noqa: BLE001 - reported below
            failed.append(exc)

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    key = model_vectors_key(mini2)

    def counts() -> tuple[int, int, int, bool]:
        store = EmbeddedStore(db)
        try:
            c = store.chunk_count()
            return c["chunks"], c["embedded"], store.model_chunk_count(key), "shop/refunds.py" in \
                store.file_checksums("agent-shop")
        finally:
            store.close()

    def wait(ok, what: str) -> tuple[int, int, int, bool]:
        deadline = time.monotonic() + 120
        while True:
            now = counts() if db.exists() else (0, 0, 0, False)
            if ok(now):
                return now
            assert not failed and time.monotonic() < deadline, f"{what}: {now} {failed}"
            time.sleep(0.2)

    try:
        first = wait(lambda c: c[0] > 0 and c[0] == c[1], "the first index embedded")
        time.sleep(2.0)  # the watcher arms after its first sync
        (repo / "shop" / "refunds.py").write_text("def refund_order(order_id):\n    return order_id\n\n\n"
                                                  "def refund_total(orders):\n    return len(orders)\n",
                                                  encoding="utf-8")
        wait(lambda c: c[3], "the saved file reached the index")
        # the update's pass embeds the new chunks, and every chunk with mini2 (configured since)
        after = wait(lambda c: c[0] == c[1] == c[2], "the new chunks embedded with both models")
        assert after[0] == first[0] + 2  # the new file's two functions
    finally:
        stop.set()
        thread.join(60)
    assert not thread.is_alive() and not failed


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
    for query in ("", " \n "):  # ripple/search: InvalidParams, not the kNN list of an empty embedding
        with pytest.raises(ValueError, match=r"^query is empty: give words or an identifier to search for$"):
            SearchParams(query=query)
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
