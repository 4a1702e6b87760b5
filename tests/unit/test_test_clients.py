"""Test clients (FastAPI / Starlette ``TestClient``, Django ``Client``) send their requests to the
application's own endpoints: a test that requests a path is a CALLS_HTTP caller of the endpoint,
and impact lists it among the tests that exercise a change."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from analysis.impact import SymbolQuery, blast_radius
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

FILES = {
    "app/__init__.py": "",
    "app/store.py": "def load(item_id):\n    return {'id': item_id}\n",
    "app/main.py": ("from fastapi import FastAPI\n\nfrom app.store import load\n\napp = FastAPI()\n\n\n"
                    "@app.get('/items/{item_id}')\ndef read_item(item_id: str):\n    return load(item_id)\n\n\n"
                    "@app.post('/items')\ndef create_item():\n    return {}\n"),
    "tests/test_items.py": ("from fastapi.testclient import TestClient\n\nfrom app.main import app\n\n"
                            "client = TestClient(app)\n\n\ndef test_read():\n    assert client.get('/items/foo').status_code == 200\n\n\n"
                            "def test_create():\n    client.post('/items')\n\n\n"
                            "def test_unrelated():\n    options = {}\n    options.get('/items/foo')\n"),
}


def test_a_test_client_request_reaches_the_endpoint_and_impact_lists_the_test(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "src", FILES)
    db = tmp_path / "i.db"
    with EmbeddedStore(db) as store:
        index_repository(root, store, store, IndexOptions(repo="r", jobs=1))
        report = blast_radius(store, SymbolQuery("app.store.load"), tests="apart")
    with sqlite3.connect(db) as conn:
        edges = sorted(conn.execute("select src, dst, line from edges where kind = 'CALLS_HTTP'").fetchall())
    assert edges == [("r:tests/test_items.test_create(0)", "endpoint:POST /items", 13),
                     ("r:tests/test_items.test_read(0)", "endpoint:GET /items/{}", 9)]
    assert [(h.http_method, h.shown_path) for h in report.endpoints] == [("GET", "/items/{item_id}")]
    assert [r.node.id for r in report.tests] == ["r:tests/test_items.test_read(0)"]  # not test_create, not test_unrelated
