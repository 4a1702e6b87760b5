"""End to end: ``ripple serve`` with ``[search] models = minilm, mini2`` (an ensemble; ``mini2`` is the
bundled MiniLM under a second name, :mod:`tests.ensemble_fake`, registered by the server's launcher).
The server's embedding thread gives every chunk a vector of both models, also the chunks of a file
saved while it runs (the watcher); ``ripple/search`` answers with each hit's rank in both kNN lists; a
request naming an unknown model is InvalidParams, one naming a model that is not built an error
that names the build command; the server answers on."""

from __future__ import annotations

import asyncio
import os
import shutil
import sys
import time
from pathlib import Path

import pytest
import pytest_asyncio
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInvalidParams
from pytest_lsp import ClientServerConfig, LanguageClient

from stores.embedding_format import model_vectors_key
from stores.embedded import EmbeddedStore
from stores.local_models import LOCAL_MODELS, open_model
from tests import ensemble_fake

ROOT = Path(__file__).resolve().parents[2]
SHOP = ROOT / "tests" / "fixtures" / "agent-shop"

pytestmark = pytest.mark.asyncio(loop_scope="module")


@pytest_asyncio.fixture(scope="module", loop_scope="module")
async def client(tmp_path_factory):
    base = tmp_path_factory.mktemp("ens")
    models = base / "models"
    ensemble_fake.install(models)
    env = {k: v for k, v in os.environ.items() if not k.startswith("RIPPLE_")}
    env.update(RIPPLE_MODELS_DIR=str(models), RIPPLE_SEARCH_MODELS="minilm,mini2", XDG_CONFIG_HOME=str(base / "cfg"),
               PYTHONPATH=os.pathsep.join(filter(None, [str(ROOT), env.get("PYTHONPATH")])))
    server = [sys.executable, "-c", ensemble_fake.LAUNCH, "serve"]
    lsp_client = await ClientServerConfig(server_command=server, server_env=env).start(devtools=None)
    root = base / "shop"
    shutil.copytree(SHOP, root)
    lsp_client.root = root  # type: ignore[attr-defined]
    lsp_client.models = models  # type: ignore[attr-defined]
    caps = types.ClientCapabilities(window=types.WindowClientCapabilities(work_done_progress=True))
    await lsp_client.initialize_session(types.InitializeParams(
        capabilities=caps, workspace_folders=[types.WorkspaceFolder(root.as_uri(), "shop")]))
    for _ in range(1200):
        status = await lsp_client.protocol.send_request_async("ripple/indexStatus", {})
        if all(f.state == "error" or f.phase == "done" for f in status.folders):
            break
        await asyncio.sleep(0.05)
    else:
        raise AssertionError(f"indexing did not finish: {status}")
    yield lsp_client
    await lsp_client.shutdown_session()
    await lsp_client.stop()


def mini2_id(models: Path, monkeypatch: pytest.MonkeyPatch) -> str:
    monkeypatch.setitem(LOCAL_MODELS, ensemble_fake.NAME, ensemble_fake.entry())  # type: ignore[arg-type]
    return open_model(ensemble_fake.NAME, models).model_id


def counts(db: Path, model: str) -> tuple[int, int, int]:
    """``(chunks, chunks with the index's vector, chunks with a vector of model)``."""
    store = EmbeddedStore(db)
    try:
        c = store.chunk_count()
        return c["chunks"], c["embedded"], store.model_chunk_count(model_vectors_key(model))
    finally:
        store.close()


async def test_search_ranks_with_both_models(client: LanguageClient):
    result = await client.protocol.send_request_async("ripple/search", {"query": "refuse an order without items",
                                                                        "limit": 3})
    assert result.notes == []
    assert result.hits[0].id == "shop:shop/service.validate(1)"
    for hit in result.hits:  # mini2 is MiniLM: the same rank in both kNN lists (pygls's client renames "knn:x")
        assert hit.models.minilm == hit.models.mini2 >= 1
        assert not hasattr(hit.ranks, "knn")  # no one-model list beside the per-model ones


async def test_unknown_or_unbuilt_models_are_errors_and_the_server_answers_on(client: LanguageClient):
    with pytest.raises(JsonRpcInvalidParams, match="unknown embedding model 'bert'"):
        await client.protocol.send_request_async("ripple/search", {"query": "order", "models": ["minilm", "bert"]})
    with pytest.raises(JsonRpcException, match=r"embedding model 'mpnet' is not built: run `ripple models build mpnet`"):
        await client.protocol.send_request_async("ripple/search", {"query": "order", "models": ["minilm", "mpnet"]})
    one = await client.protocol.send_request_async("ripple/search", {"query": "refuse an order without items",
                                                                     "limit": 1, "models": ["minilm"]})
    assert one.hits[0].id == "shop:shop/service.validate(1)"
    assert one.hits[0].models._asdict() == {"minilm": one.hits[0].models.minilm}


async def test_the_watcher_embeds_a_saved_file_with_both_models(client: LanguageClient,
                                                                monkeypatch: pytest.MonkeyPatch):
    root: Path = client.root  # type: ignore[attr-defined]
    db = root / ".ripple" / "index.db"
    model = mini2_id(client.models, monkeypatch)  # type: ignore[attr-defined]
    chunks, own, extra = counts(db, model)
    assert chunks == own == extra > 0
    (root / "shop" / "billing.py").write_text(
        "def invoice_total(lines):\n    \"\"\"Sum the invoice lines.\"\"\"\n    return sum(lines)\n", encoding="utf-8")
    deadline = time.monotonic() + 60
    while True:
        now = counts(db, model)
        if now[0] > chunks and now[0] == now[1] == now[2]:
            break
        assert time.monotonic() < deadline, f"the saved file's chunks did not get both vectors: {now}"
        await asyncio.sleep(0.1)
