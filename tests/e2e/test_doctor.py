"""``ripple doctor``: exact report lines for a healthy embedded workspace, a store that is down (a
closed port), a broken configuration and an outdated index; ``--json``; the exit code."""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from lsp_server.cli import main
from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node
from stores.embedded import SCHEMA_VERSION, EmbeddedStore

MODEL = "ok    model   bundled all-MiniLM-L6-v2-int8: 6 files, checksums ok"
INDEX_FIX = ("              fix: run `ripple index PATH` in the workspace (or name the index file with RIPPLE_DB / "
             "[embedded] db)")


def closed_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


@pytest.fixture
def workspace(tmp_path: Path) -> Path:
    """A workspace whose embedded index holds one file, two nodes, one edge and one chunk."""
    ws = tmp_path / "ws"
    (ws / "src").mkdir(parents=True)
    fid, mid = "r:src/a.py", "r:src/a.handle(1)"
    with EmbeddedStore(ws / ".ripple" / "index.db") as store:
        store.replace_files([IndexedFile(
            FileRecord("r", "src/a.py", "python", "a" * 64, 10),
            nodes=[Node(fid, "File", "src/a.py", "src/a.py", "r", "src/a.py", 1, 0, 3, 0),
                   Node(mid, "Function", "handle", "handle", "r", "src/a.py", 1, 0, 2, 0)],
            edges=[Edge("CONTAINS", fid, mid, "r", "src/a.py")],
            chunks=[Chunk(mid, "r", "p", "src/a.py", "python", "function", "handle", mid, None, 1, 2,
                          "def handle(request): ...", "b" * 64)],
        )])
        store.set_embeddings({mid: [1.0] + [0.0] * 383})
    return ws


def run(path: Path, tmp_path: Path, *args: str, **env: str | None):
    base: dict[str, str | None] = {"HOME": str(tmp_path / "home"), "XDG_CONFIG_HOME": None, "RIPPLE_CONFIG": None,
                                   "RIPPLE_DB": None, "RIPPLE_EMBEDDING_MODEL": None, "RIPPLE_GRAPH_BACKEND": None,
                                   "RIPPLE_SEARCH_BACKEND": None, "RIPPLE_ES_URL": None, "RIPPLE_MEMGRAPH_URI": None}
    return CliRunner().invoke(main, ["doctor", str(path), *args], env={**base, **env})


def test_healthy_embedded_workspace(workspace, tmp_path):
    result = run(workspace / "src", tmp_path)
    db = workspace / ".ripple" / "index.db"
    assert result.stdout.splitlines() == [
        "ok    config  no configuration file: graph embedded, search embedded",
        f"ok    graph   embedded {db}: schema {SCHEMA_VERSION}, 1 file, 2 nodes, 1 edge",
        f"ok    search  embedded {db}, 1 chunk, 1 embedded",
        MODEL,
        "all checks passed",
    ]
    assert result.exit_code == 0


def test_elasticsearch_down_on_a_closed_port(workspace, tmp_path):
    port = closed_port()
    result = run(workspace, tmp_path, RIPPLE_SEARCH_BACKEND="elasticsearch", RIPPLE_ES_URL=f"http://127.0.0.1:{port}")
    db = workspace / ".ripple" / "index.db"
    assert result.stdout.splitlines() == [
        "ok    config  no configuration file; environment RIPPLE_ES_URL, RIPPLE_SEARCH_BACKEND: graph embedded, "
        "search elasticsearch",
        f"ok    graph   embedded {db}: schema {SCHEMA_VERSION}, 1 file, 2 nodes, 1 edge",
        f"FAIL  search  elasticsearch: Elasticsearch at http://127.0.0.1:{port} is unreachable (connection refused); "
        "start it (docker compose -f docker/compose.yml up -d elasticsearch) or point RIPPLE_ES_URL / [search] url "
        "at a running node",
        MODEL,
        "1 problem found",
    ]
    assert result.exit_code == 1
    assert result.stderr == ""

    as_json = run(workspace, tmp_path, "--json", RIPPLE_SEARCH_BACKEND="elasticsearch",
                  RIPPLE_ES_URL=f"http://127.0.0.1:{port}")
    assert as_json.exit_code == 1
    report = json.loads(as_json.stdout)
    assert report["ok"] is False
    assert [(c["name"], c["status"]) for c in report["checks"]] == [
        ("config", "ok"), ("graph", "ok"), ("search", "fail"), ("model", "ok")]
    assert report["checks"][2]["detail"].startswith(f"elasticsearch: Elasticsearch at http://127.0.0.1:{port} is "
                                                    "unreachable (connection refused)")


def test_memgraph_down_on_a_closed_port(workspace, tmp_path):
    port = closed_port()
    result = run(workspace, tmp_path, RIPPLE_GRAPH_BACKEND="memgraph", RIPPLE_MEMGRAPH_URI=f"bolt://127.0.0.1:{port}")
    lines = result.stdout.splitlines()
    assert lines[1].startswith(f"FAIL  graph   memgraph: graph store bolt://127.0.0.1:{port} is unreachable")
    assert lines[2:] == [f"ok    search  embedded {workspace / '.ripple' / 'index.db'}, 1 chunk, 1 embedded", MODEL,
                         "1 problem found"]
    assert result.exit_code == 1


def test_no_index_and_a_chunk_without_embedding(tmp_path, workspace):
    empty = tmp_path / "empty"
    empty.mkdir()
    result = run(empty, tmp_path)
    assert result.stdout.splitlines() == [
        "ok    config  no configuration file: graph embedded, search embedded",
        "FAIL  graph   embedded: no index file (.ripple/index.db) in this folder or its parents",
        INDEX_FIX,
        MODEL,
        "1 problem found",
    ]
    assert result.exit_code == 1

    with EmbeddedStore(workspace / ".ripple" / "index.db") as store:
        store.set_embedding_model("model-a")
        store.set_embedding_model("model-b")  # another model: every vector is dropped
    result = run(workspace, tmp_path)
    assert result.stdout.splitlines()[2:5] == [
        f"ok    search  embedded {workspace / '.ripple' / 'index.db'}, 1 chunk, 0 embedded",
        "warn  search  1 chunk has no embedding yet: search finds them by BM25 alone",
        "              fix: run `ripple embed`",
    ]
    assert result.exit_code == 0  # a warning is not a problem


def test_outdated_index(workspace, tmp_path):
    db = workspace / ".ripple" / "index.db"
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.close()
    result = run(workspace, tmp_path)
    assert result.stdout.splitlines()[1:3] == [
        f"FAIL  graph   embedded {db}: index {db} has schema version '1', this ripplegraph needs {SCHEMA_VERSION}; "
        "run `ripple index` again to rebuild it",
        "              fix: run `ripple index PATH` again: it rebuilds the index",
    ]
    assert result.exit_code == 1


def test_broken_configuration_file(workspace, tmp_path):
    config = workspace / ".ripple" / "config.toml"
    config.write_text('[search]\nbackend = "elastic"\n', encoding="utf-8")
    result = run(workspace, tmp_path)
    assert result.stdout.splitlines() == [
        f"FAIL  config  {config}: search.backend must be one of embedded, elasticsearch, not 'elastic'",
        "              fix: fix the file or environment variable named above",
        "1 problem found",
    ]
    assert result.exit_code == 1
