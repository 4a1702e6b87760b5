"""``ripple doctor``: exact report lines for a healthy embedded workspace, a store that is down (a
closed port), a broken configuration and an outdated index; ``--json``; the exit code."""

from __future__ import annotations

import json
import socket
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from indexer.chunk_context import EMBEDDING_TEXT_FORMAT
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


def test_an_index_file_as_path_is_checked_as_db(workspace, tmp_path):
    db = workspace / ".ripple" / "index.db"
    copy = tmp_path / "rw.db"
    copy.write_bytes(db.read_bytes())
    result = run(copy, tmp_path)
    assert result.stdout.splitlines() == [
        "ok    config  no configuration file: graph embedded, search embedded",
        f"ok    graph   embedded {copy}: schema {SCHEMA_VERSION}, 1 file, 2 nodes, 1 edge",
        f"ok    search  embedded {copy}, 1 chunk, 1 embedded",
        MODEL,
        "all checks passed",
    ]
    assert result.exit_code == 0
    # the file and another --db: which one is meant is unknown
    clash = run(copy, tmp_path, "--db", str(db))
    assert clash.exit_code == 2
    assert f"{copy} is a file and --db names another" in clash.stderr


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
    config.write_text('[graph]\ndialect = "cypher"\n', encoding="utf-8")
    untrusted = run(workspace, tmp_path)  # the repository's own file: left out with a warning, nothing stops
    assert f"{config}: graph.dialect must be one of memgraph, neo4j, auto, not 'cypher' (left out)" in untrusted.stdout
    user = tmp_path / "home" / ".config" / "ripple" / "config.toml"
    user.parent.mkdir(parents=True)
    user.write_text(f'[trust]\nworkspaces = ["{workspace.resolve()}"]\n', encoding="utf-8")
    result = run(workspace, tmp_path)  # trusted: the user vouches for the file, so it is checked strictly
    assert result.stdout.splitlines() == [
        f"FAIL  config  {config}: graph.dialect must be one of memgraph, neo4j, auto, not 'cypher'",
        "              fix: fix the file or environment variable named above",
        "1 problem found",
    ]
    assert result.exit_code == 1


# ---------------------------------------------------------------------------- hostile setups (issue 7)


def test_an_empty_or_random_index_file(tmp_path):
    ws = tmp_path / "ws"
    (ws / ".ripple").mkdir(parents=True)
    db = ws / ".ripple" / "index.db"
    db.write_bytes(b"")
    result = run(ws, tmp_path)
    assert result.stdout.splitlines()[1:3] == [
        f"FAIL  graph   embedded {db}: the file is empty (0 bytes), not an index", INDEX_FIX]
    assert result.exit_code == 1
    assert db.read_bytes() == b""  # the check did not write an index into it
    db.write_bytes(bytes(range(256)) * 64)
    result = run(ws, tmp_path)
    assert result.stdout.splitlines()[1:3] == [
        f"FAIL  graph   embedded {db}: {db} is not a ripple index (file is not a database); ripple did not create it "
        "and leaves it alone: pass another --db (or RIPPLE_DB)",
        "              fix: name another index file (RIPPLE_DB / [embedded] db), or move that file away if it is not "
        "where it belongs"]
    assert (result.exit_code, result.stderr) == (1, "")


def test_a_store_that_cannot_be_opened_advises_deleting_only_ripples_own_file(workspace, tmp_path, monkeypatch):
    # (Read-only indexes open for reading: tests/hostile/test_hostile_stores_cli.py makes one for real.)
    import stores.doctor as doctor
    from stores.errors import StoreUnavailable

    db = workspace / ".ripple" / "index.db"

    def refuse(path):
        raise StoreUnavailable(f"index {path} is busy (database is locked): another ripple process is writing it; "
                               "retry when it is done")

    monkeypatch.setattr(doctor, "EmbeddedStore", refuse)
    result = run(workspace, tmp_path)
    assert result.stdout.splitlines()[2] == (
        f"              fix: stop other ripple processes writing this index and retry; if it persists, delete {db} "
        "and run `ripple index PATH`")
    other = tmp_path / "other" / ".ripple" / "index.db"  # not ripple's file: never advise deleting it
    other.parent.mkdir(parents=True)
    other.write_bytes(b"SQLite format 3\x00" + bytes(84))
    result = run(other.parent.parent, tmp_path)
    assert result.stdout.splitlines()[2] == "              fix: stop other ripple processes writing this index and retry"


def test_a_routing_uri_on_a_closed_port_logs_nothing(workspace, tmp_path):
    port = closed_port()
    result = run(workspace, tmp_path, RIPPLE_GRAPH_BACKEND="memgraph", RIPPLE_MEMGRAPH_URI=f"neo4j://127.0.0.1:{port}")
    assert result.stdout.splitlines()[1].startswith(f"FAIL  graph   memgraph: graph store neo4j://127.0.0.1:{port} is "
                                                    "unreachable")
    assert result.exit_code == 1
    assert result.stderr == ""  # the driver's "Unable to retrieve routing information" is not repeated


def test_a_plain_http_server_is_not_elasticsearch(workspace, tmp_path):
    import functools
    import http.server
    import threading

    empty = tmp_path / "www"
    empty.mkdir()
    class Quiet(http.server.SimpleHTTPRequestHandler):
        def log_message(self, *args):
            pass

    server = http.server.ThreadingHTTPServer(("127.0.0.1", 0), functools.partial(Quiet, directory=str(empty)))
    threading.Thread(target=server.serve_forever, daemon=True).start()
    url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        result = run(workspace, tmp_path, RIPPLE_SEARCH_BACKEND="elasticsearch", RIPPLE_ES_URL=url)
    finally:
        server.shutdown()
        server.server_close()
    assert result.stdout.splitlines()[2] == (
        f"FAIL  search  elasticsearch: {url} answered, but it is not Elasticsearch (The client noticed that the server "
        "is not Elasticsearch and we do not support this unknown product); point RIPPLE_ES_URL / [search] url at an "
        "Elasticsearch node")
    assert (result.exit_code, result.stderr) == (1, "")


def test_elasticsearch_vectors_of_another_model(workspace, tmp_path, monkeypatch):
    from stores.elasticsearch import ElasticsearchSearchIndex
    from stores.embedder import BUNDLED_MODEL, bundled_model_digest

    status = {"indices": ["ripple-chunks.code.p"], "outdated": [], "chunks": 3, "embedded": 3,
              "embedding_model": "fastembed:BAAI/bge-small-en-v1.5"}
    monkeypatch.setattr(ElasticsearchSearchIndex, "ping",
                        lambda self: {"url": self.url, "version": "9.3.0", "cluster": "team"})
    monkeypatch.setattr(ElasticsearchSearchIndex, "index_status", lambda self: status)
    result = run(workspace, tmp_path, RIPPLE_SEARCH_BACKEND="elasticsearch", RIPPLE_ES_URL="http://es.test:9200")
    assert result.stdout.splitlines()[2:6] == [
        "ok    search  elasticsearch http://es.test:9200 (9.3.0, cluster team): 1 chunk indices, 3 chunks, 3 embedded",
        "FAIL  search  the stored embeddings come from fastembed:BAAI/bge-small-en-v1.5, but this configuration embeds "
        f"queries with {BUNDLED_MODEL}@{bundled_model_digest()}: semantic search compares vectors of two models",
        "              fix: run `ripple index PATH` with this configuration (it re-embeds every chunk), or configure "
        "the model the index was built with ([embedding] model / RIPPLE_EMBEDDING_MODEL)",
        MODEL,
    ]
    assert result.exit_code == 1
    status["embedding_model"] = f"{BUNDLED_MODEL}@{bundled_model_digest()} text={EMBEDDING_TEXT_FORMAT}"  # as recorded
    result = run(workspace, tmp_path, RIPPLE_SEARCH_BACKEND="elasticsearch", RIPPLE_ES_URL="http://es.test:9200")
    assert (result.stdout.splitlines()[-1], result.exit_code) == ("all checks passed", 0)


@pytest.mark.parametrize(("sums", "files", "problem"), [
    ("{a}  a.json\n{b}  b.txt\n", {"a.json": b"{}", "b.txt": b"tampered"}, "b.txt does not match its SHA256SUMS entry "
                                                                            "(damaged file)"),
    ("{a}  a.json\n{b}  b.txt\n", {"a.json": b"{}"}, "b.txt is missing from {dir}"),
    ("{a}a.json\n", {"a.json": b"{}"}, "{dir}/SHA256SUMS is damaged (line '{a}a.json' is not '<sha256>  <file name>')"),
    ("{a}  ../../etc/passwd\n", {}, "{dir}/SHA256SUMS is damaged (line '{a}  ../../etc/passwd' is not '<sha256>  "
                                    "<file name>')"),
    ("\n", {}, "{dir}/SHA256SUMS is damaged (it lists no file)"),
    (b"\xff\xfe\x00binary", {}, "{dir}/SHA256SUMS is damaged (not text)"),
])
def test_a_tampered_model_folder(workspace, tmp_path, monkeypatch, sums, files, problem):
    import hashlib

    import stores.doctor as doctor

    folder = tmp_path / "model"  # a stand-in for the installed folder, never modified
    folder.mkdir()
    digests = {"a": hashlib.sha256(b"{}").hexdigest(), "b": hashlib.sha256(b"original").hexdigest()}
    if isinstance(sums, str):
        (folder / "SHA256SUMS").write_text(sums.format(**digests), encoding="utf-8")
    else:
        (folder / "SHA256SUMS").write_bytes(sums)
    for name, data in files.items():
        (folder / name).write_bytes(data)
    monkeypatch.setattr(doctor, "BUNDLED_MODEL_DIR", folder)
    result = run(workspace, tmp_path)
    assert result.stdout.splitlines()[-3:] == [
        "FAIL  model   bundled model: " + " ".join(problem.format(dir=folder, **digests).split()),  # one line
        "              fix: reinstall ripplegraph (pip install --force-reinstall ripplegraph), or rebuild the model "
        "with tools/build_embedding_model.py",
        "1 problem found"]
    assert (result.exit_code, result.stderr) == (1, "")


def test_a_bad_product_uri_names_the_product_entry(workspace, tmp_path):
    config = tmp_path / "team.toml"
    config.write_text('[graph]\nbackend = "memgraph"\n[graph.products]\nshop = "http://mg:7687"\n', encoding="utf-8")
    result = run(workspace, tmp_path, RIPPLE_CONFIG=str(config), RIPPLE_MEMGRAPH_URI="mg:7687")
    assert result.stdout.splitlines()[1:5] == [
        "FAIL  graph   memgraph: not a Bolt URI: 'mg:7687'; expected bolt://host:7687 (schemes: bolt, bolt+s, bolt+ssc, "
        "neo4j, neo4j+s, neo4j+ssc)",
        "              fix: fix $RIPPLE_MEMGRAPH_URI",
        "FAIL  graph   memgraph (product shop): not a Bolt URI: 'http://mg:7687'; expected bolt://host:7687 (schemes: "
        "bolt, bolt+s, bolt+ssc, neo4j, neo4j+s, neo4j+ssc)",
        f"              fix: fix [graph.products] shop in {config}",
    ]
    assert result.exit_code == 1


def test_ripple_db_naming_a_folder(workspace, tmp_path):
    folder = workspace / ".ripple"
    result = run(workspace, tmp_path, RIPPLE_DB=str(folder))
    assert result.stdout.splitlines()[1:3] == [
        f"FAIL  graph   embedded: {folder} is a folder, not an index file",
        f"              fix: name the index file itself in RIPPLE_DB / [embedded] db (such as {folder / 'index.db'})"]
    assert result.exit_code == 1


def test_a_model_missing_from_the_cache_is_reported_once(workspace, tmp_path, capfd):
    result = run(workspace, tmp_path, RIPPLE_EMBEDDING_MODEL="BAAI/bge-small-en-v1.5",
                 FASTEMBED_CACHE_PATH=str(tmp_path / "empty-cache"))
    assert result.stdout.splitlines()[-2:] == [
        "FAIL  model   cannot load fastembed model 'BAAI/bge-small-en-v1.5' offline: Could not load model "
        "BAAI/bge-small-en-v1.5 from any source.. Models are never downloaded at run time: put it in fastembed's cache "
        "first (FASTEMBED_CACHE_PATH, or the configured cache_dir), or remove the setting to use the bundled "
        "all-MiniLM-L6-v2",
        "1 problem found"]
    assert result.exit_code == 1
    # fastembed's own loguru lines ("ERROR ... Could not find model in cache_dir") go to the real stderr.
    assert "Could not find" not in capfd.readouterr().err


def test_db_option_checks_that_index_file(workspace, tmp_path):
    db = workspace / ".ripple" / "index.db"
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = run(elsewhere, tmp_path, "--db", str(db))  # no index in or above `elsewhere`: --db names it
    assert result.stdout.splitlines()[1:3] == [
        f"ok    graph   embedded {db}: schema {SCHEMA_VERSION}, 1 file, 2 nodes, 1 edge",
        f"ok    search  embedded {db}, 1 chunk, 1 embedded"]
    assert result.exit_code == 0
    with EmbeddedStore(db) as store:
        store.set_embedding_model("model-a")
        store.set_embedding_model("model-b")  # another model: every vector dropped; the fix names the index given
    result = run(elsewhere, tmp_path, "--db", str(db))
    assert result.stdout.splitlines()[2:5] == [
        f"ok    search  embedded {db}, 1 chunk, 0 embedded",
        "warn  search  1 chunk has no embedding yet: search finds them by BM25 alone",
        f"              fix: run `ripple embed --db {db}`"]
    missing = tmp_path / "nope.db"
    result = run(workspace, tmp_path, "--db", str(missing))  # wins over the workspace's own index
    assert result.stdout.splitlines()[1:3] == [f"FAIL  graph   embedded: no index at {missing}", INDEX_FIX]
    assert result.exit_code == 1 and not missing.exists()
    result = run(elsewhere, tmp_path, RIPPLE_DB=str(db))  # the same convention as the other commands
    assert result.stdout.splitlines()[1] == f"ok    graph   embedded {db}: schema {SCHEMA_VERSION}, 1 file, 2 nodes, 1 edge"


def test_nodes_no_repository_holds_are_counted_apart(tmp_path):
    """Endpoints, tables and topics belong to no repository's files: `ripple repos list` counts each
    repository's own nodes, so the doctor says how many of its total are shared."""
    db = tmp_path / "i.db"
    fid, mid, ep = "r:src/a.py", "r:src/a.handle(1)", "endpoint:GET /a"
    with EmbeddedStore(db) as store:
        store.replace_files([IndexedFile(
            FileRecord("r", "src/a.py", "python", "a" * 64, 10),
            nodes=[Node(fid, "File", "src/a.py", "src/a.py", "r", "src/a.py", 1, 0, 3, 0),
                   Node(mid, "Function", "handle", "handle", "r", "src/a.py", 1, 0, 2, 0),
                   Node(ep, "Endpoint", "GET /a", "GET /a", "", "", 0, 0, 0, 0)],
            edges=[Edge("CONTAINS", fid, mid, "r", "src/a.py"), Edge("EXPOSES", mid, ep, "r", "src/a.py")],
        )])
        assert store.repository_counts("r")["nodes"] == 2
    result = run(tmp_path, tmp_path, "--db", str(db))
    assert f"ok    graph   embedded {db}: schema {SCHEMA_VERSION}, 1 file, 3 nodes (1 shared by the repositories: " \
           "endpoints, tables, topics), 2 edges" in result.stdout.splitlines()
