"""Unlinked client calls (``ripple unlinked``, the MCP tool ``unlinked``, ``GET /v1/unlinked``): the HTTP
requests, gRPC stub calls and queue uses the linker could not join to an endpoint or topic, each an
``UNLINKED`` edge (:mod:`indexer.frameworks.unlinked`) listed by :mod:`analysis.unlinked`. A fixture
written for this test: repository ``shop`` makes two requests whose URL names no path (an environment
variable; ``"http://" + host``), one that links (``GET /owners``, served by its Flask app), a stub call of
a gRPC service two ``.proto`` packages declare, and a ``.delay`` on a function that is no Celery task
beside one on a task; repository ``admin`` makes one request of unknown URL. Exact lists, reasons and
candidates; what links is not listed; the filters; the CLI, agent and REST fronts; an incremental run
keeps the list exact (a call edited to link leaves it, a file deleted takes its calls along)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from analysis.agent_queries import AgentQueries
from analysis.unlinked import unlinked_calls, unlinked_text
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from lsp_server.api.app import ApiSettings, create_app
from lsp_server.cli import main
from stores.config import load_config
from stores.contracts import RepositoryRecord, unlinked_id
from stores.embedded import EmbeddedStore
from tests.index_harness import index_files
from tests.resolution_harness import write_tree
from tests.unit.test_incremental import Workspace

PROTO = ('syntax = "proto3";\npackage shop.{};\nservice Orders {{ rpc Get (Req) returns (Res); }}\n'
         'message Req {{}}\nmessage Res {{}}\n')
CLIENT = ('import os\n\nimport requests\n\nBASE = os.environ["ORDERS_URL"]\n\n\n'
          'def fetch_orders():\n    return requests.get(BASE)\n\n\n'
          'def ping(host):\n    return requests.post("http://" + host)\n\n\n'
          'def list_owners():\n    return requests.get("http://shop/owners")\n')
SHOP = {
    "client.py": CLIENT,
    "tasks.py": ('from celery import Celery\n\napp = Celery("shop")\n\n\n@app.task\ndef cleanup():\n    return 1\n\n\n'
                 'def clean_up():\n    return 2\n\n\ndef schedule():\n    cleanup.delay()\n    clean_up.delay()\n'),
    "a/orders.proto": PROTO.format("a"),
    "b/orders.proto": PROTO.format("b"),
    "stubs.py": ('import grpc\n\nimport orders_pb2_grpc\n\n\ndef get_order(channel):\n'
                 '    stub = orders_pb2_grpc.OrdersStub(channel)\n    return stub.Get(None)\n'),
    "views.py": 'from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get("/owners")\ndef owners():\n    return "[]"\n',
}
ADMIN = {"audit.py": 'import os\n\nimport requests\n\n\ndef audit():\n    return requests.get(os.environ["AUDIT_URL"])\n'}

# (repo, path, line, col (1-based, at the called name), name, call, reason, kind, framework, candidates)
FETCH = ("shop", "client.py", 9, 21, "client.fetch_orders", "GET {}", "url", "http", "requests", [])
PING = ("shop", "client.py", 13, 21, "client.ping", "POST http://{}", "url", "http", "requests", [])
STUB = ("shop", "stubs.py", 8, 17, "stubs.get_order", "GRPC Orders/Get", "grpc_ambiguous", "grpc", "grpc-python",
        ["shop.a.Orders", "shop.b.Orders"])
TASK = ("shop", "tasks.py", 17, 14, "tasks.schedule", "produces celery clean_up", "task", "queue", "celery",
        ["tasks.cleanup"])
AUDIT = ("admin", "audit.py", 7, 21, "audit.audit", "GET {}", "url", "http", "requests", [])


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("unlinked")
    path = base / "index.db"
    index_files(base / "shop", SHOP, "shop", path).close()
    s = index_files(base / "admin", ADMIN, "admin", path)
    s.upsert_repository(RepositoryRecord("admin", "admin", "backoffice", str(base / "admin")))
    s.close()
    return path


@pytest.fixture
def store(db: Path):
    s = EmbeddedStore(db)
    yield s
    s.close()


def rows(found) -> list[tuple]:
    return [(c.repo, c.path, c.line, c.col, c.name, c.call, c.reason, c.kind, c.framework, list(c.candidates))
            for c in found.calls]


def test_every_unlinked_call_with_its_reason_and_candidates(store) -> None:
    found = unlinked_calls(store)
    assert rows(found) == [AUDIT, FETCH, PING, STUB, TASK]
    assert (found.total, found.left_out, found.by_reason) == (5, 0, {"url": 3, "grpc_ambiguous": 1, "task": 1})
    # what links is not listed: list_owners's GET /owners, the task's own .delay()
    assert not [c for c in found.calls if c.name in ("client.list_owners",) or c.call.endswith(" cleanup")]
    assert [c.caller for c in found.calls][1] == "shop:client.fetch_orders(0)"
    # the reasons' nodes are no symbols: no name lookup or suggestion offers `url` or `task`
    assert [n.id for q in ("url", "task", "grpc_ambiguous") for n in store.search_symbols(q, 20)
            if n.label == "Unlinked"] == []


def test_filters_and_limit(store) -> None:
    assert rows(unlinked_calls(store, repo="admin")) == [AUDIT]
    assert rows(unlinked_calls(store, product="backoffice")) == [AUDIT]
    assert rows(unlinked_calls(store, product="shop")) == [FETCH, PING, STUB, TASK]
    assert rows(unlinked_calls(store, product="nothing")) == []
    assert rows(unlinked_calls(store, reason="unlinked_grpc_ambiguous")) == [STUB]
    assert rows(unlinked_calls(store, reason="grpc_rpc")) == []
    found = unlinked_calls(store, repo="shop", reason="url", limit=1)
    assert (rows(found), found.total, found.left_out, found.by_reason) == ([FETCH], 2, 1, {"url": 2})
    assert rows(unlinked_calls(store, reason="no such reason")) == []
    with pytest.raises(ValueError, match="limit must be 0 or more"):
        unlinked_calls(store, limit=-1)
    assert unlinked_id("unlinked_grpc_rpc") == unlinked_id("grpc_rpc") == "unlinked:grpc_rpc"
    with pytest.raises(ValueError, match="'unlinked_mount' is not one of the reasons"):
        unlinked_id("unlinked_mount")  # a registration, not a client call: only counted


def test_text_and_agent_answer(store) -> None:
    text = unlinked_text(unlinked_calls(store, repo="shop").as_dict())
    assert text == [
        "# Unlinked calls (4)", "", "By reason: url 2, grpc_ambiguous 1, task 1", "",
        "- client.py:9  GET {}  (url; in client.fetch_orders)",
        "- client.py:13  POST http://{}  (url; in client.ping)",
        "- stubs.py:8  GRPC Orders/Get  (grpc_ambiguous; in stubs.get_order; candidates: shop.a.Orders, shop.b.Orders)",
        "- tasks.py:17  produces celery clean_up  (task; in tasks.schedule; candidates: tasks.cleanup)"]
    assert unlinked_text(unlinked_calls(store, reason="grpc_rpc").as_dict()) == [
        "# Unlinked calls (0)", "", "No unlinked calls match."]  # a filter, not an index without any
    answer = AgentQueries(store, store).unlinked(reason="url", limit=2)
    assert [(c["repo"], c["path"], c["line"]) for c in answer.result["calls"]] == [("admin", "audit.py", 7),
                                                                               ("shop", "client.py", 9)]
    assert (answer.result["total"], answer.result["left_out"], answer.truncated) == (3, 1, [])
    assert [s.name for s in answer.steps] == ["Unlinked"] and answer.steps[0].round_trips == 2  # incoming (by id), get_nodes
    assert "- admin:audit.py:7  GET {}  (url; in audit.audit)" in answer.text


def test_cli_and_rest(db: Path) -> None:
    result = CliRunner().invoke(main, ["unlinked", "--db", str(db), "--repo", "shop", "--reason", "task"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "1 unlinked call of repository shop for reason task (task 1)",
        "  tasks.py:17  produces celery clean_up  (task; in tasks.schedule; candidates: tasks.cleanup)"]
    result = CliRunner().invoke(main, ["unlinked", "--db", str(db), "--limit", "1", "--json"])
    data = json.loads(result.stdout)
    assert ([c["path"] for c in data["calls"]], data["total"], data["left_out"]) == (["audit.py"], 5, 4)
    app = create_app(ApiSettings(load_config(db.parent), db, roots=[db.parent]))
    with TestClient(app) as http:
        body = http.get("/v1/unlinked", params={"product": "shop", "reason": "grpc_ambiguous"}).json()
        bad = http.get("/v1/unlinked", params={"limit": 0})
    assert [(c["path"], c["line"], c["call"], c["candidates"]) for c in body["calls"]] == [
        ("stubs.py", 8, "GRPC Orders/Get", ["shop.a.Orders", "shop.b.Orders"])]
    assert (body["total"], body["leftOut"], body["byReason"], body["product"]) == (1, 0, {"grpc_ambiguous": 1}, "shop")
    assert bad.status_code == 422


def test_grpc_calls_of_no_rpc_and_no_proto_name_the_nearest(tmp_path: Path) -> None:
    files = {"orders.proto": PROTO.format("a").replace("rpc Get ", "rpc GetOrder "),
             "stubs.py": ('import orders_pb2_grpc\n\n\ndef get(channel):\n'
                          '    orders_pb2_grpc.OrdersStub(channel).GetOrders(None)\n'
                          '    orders_pb2_grpc.OrderStub(channel).GetOrder(None)\n'
                          '    orders_pb2_grpc.OrdersStub(channel).GetOrder(None)\n')}
    s = EmbeddedStore(tmp_path / "i.db")
    try:
        index_repository(write_tree(tmp_path / "rpc", files), s, s, IndexOptions(repo="rpc", jobs=1))
        assert [(c.line, c.call, c.reason, list(c.candidates)) for c in unlinked_calls(s).calls] == [
            (5, "GRPC shop.a.Orders/GetOrders", "grpc_rpc", ["shop.a.Orders/GetOrder"]),
            (6, "GRPC Order/GetOrder", "grpc_no_proto", ["shop.a.Orders"])]  # line 7 links
    finally:
        s.close()


def test_the_index_report_points_at_the_list(tmp_path: Path) -> None:
    result = CliRunner().invoke(main, ["index", str(write_tree(tmp_path / "admin", ADMIN)), "--db", str(tmp_path / "a.db"),
                                       "--no-embed"], env={"COLUMNS": "200", "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert result.exit_code == 0, result.output
    row = [line for line in result.stdout.splitlines() if "not linked, by reason" in line]
    assert len(row) == 1 and "url 1 (`ripple unlinked` lists the 1 client call)" in row[0]


def _listed(db: Path) -> list[tuple[str, int, str]]:
    s = EmbeddedStore(db)
    try:
        return [(c.path, c.line, c.call) for c in unlinked_calls(s).calls]
    finally:
        s.close()


def test_incremental_runs_keep_the_list_exact(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, SHOP)
    try:
        both = [("client.py", 9, "GET {}"), ("client.py", 13, "POST http://{}"), ("stubs.py", 8, "GRPC Orders/Get"),
                ("tasks.py", 17, "produces celery clean_up")]
        assert _listed(ws.db) == _listed(ws.cli_db) == both
        # fetch_orders now names a URL that links: it leaves the list (the watcher's and a one-shot run's index)
        ws.edit({"client.py": CLIENT.replace("requests.get(BASE)", 'requests.get("http://shop/owners")')})
        assert _listed(ws.db) == _listed(ws.cli_db) == both[1:]
        # the second proto goes: the stub call links to shop.a's service and leaves the list too
        ws.edit({"b/orders.proto": None})
        assert _listed(ws.db) == _listed(ws.cli_db) == [both[1], both[3]]
        # clean_up becomes a task (another file's edit): its .delay() links
        ws.edit({"tasks.py": SHOP["tasks.py"].replace("def clean_up", "@app.task\ndef clean_up")})
        assert _listed(ws.db) == _listed(ws.cli_db) == [both[1]]
        ws.edit({"client.py": None})  # the file goes, its unlinked call with it
        assert _listed(ws.db) == _listed(ws.cli_db) == []
        ws.edit({"client.py": CLIENT})  # and comes back
        assert _listed(ws.db) == _listed(ws.cli_db) == both[:2]
        # a URL made of another file's constant: only that file is edited, the call leaves the list
        ws.edit({"settings.py": 'import os\n\nORDERS = os.environ["ORDERS"]\n',
                 "remote.py": ('import requests\n\nfrom settings import ORDERS\n\n\n'
                               'def orders():\n    return requests.get(ORDERS)\n')})
        assert _listed(ws.db) == _listed(ws.cli_db) == [*both[:2], ("remote.py", 7, "GET {}")]
        ws.edit({"settings.py": 'ORDERS = "http://shop/owners"\n'})
        assert _listed(ws.db) == _listed(ws.cli_db) == both[:2]
    finally:
        ws.close()


def test_a_graphql_use_with_no_document_to_follow(tmp_path: Path) -> None:
    # the graphql-clients fixture (golden tests): `useQuery(doc)` with `doc` a parameter runs no document the
    # linker can follow; its other 20 GraphQL calls link and are not listed
    fixture = Path(__file__).resolve().parent.parent / "fixtures" / "graphql-clients"
    s = EmbeddedStore(tmp_path / "i.db")
    try:
        index_repository(fixture, s, s, IndexOptions(repo="gc", jobs=1))
        assert [(c.path, c.line, c.name, c.call, c.reason, c.kind, c.framework) for c in unlinked_calls(s).calls] == [
            ("web/src/components/Generic.tsx", 5, "useAnything", "GRAPHQL doc", "graphql_document", "graphql",
             "apollo-client")]
    finally:
        s.close()


EXPRESS_APP = {"server.js": ('import express from "express";\nimport cors from "cors";\nconst app = express();\n'
                             'app.use(cors());\napp.use(express.json());\napp.get("/a", (req, res) => res.send("a"));\n'
                             'export function load() { return fetch(process.env.API + "?q=1"); }\n')}


def test_the_index_report_says_registrations_are_counted_not_listed(tmp_path: Path) -> None:
    # a newcomer on proshop-v2 read "not linked, by reason wrapper 6" and `ripple unlinked` answered "0 unlinked
    # calls": the row now says which reasons the list holds and which it does not
    result = CliRunner().invoke(main, ["index", str(write_tree(tmp_path / "web", EXPRESS_APP)), "--db",
                                       str(tmp_path / "w.db"), "--no-embed"],
                                env={"COLUMNS": "400", "XDG_CACHE_HOME": str(tmp_path / "xdg")})
    assert result.exit_code == 0, result.output
    row = [line for line in result.stdout.splitlines() if "not linked, by reason" in line]
    assert len(row) == 1 and "url 1, wrapper 2 (`ripple unlinked` lists the 1 client call; wrapper: registrations " \
        "naming no code of the repository (a library's middleware, a handler not resolved), counted, not listed)" in row[0]
    s = EmbeddedStore(tmp_path / "w.db")
    try:
        assert [(c.line, c.reason) for c in unlinked_calls(s).calls] == [(7, "url")]  # cors(), express.json(): not listed
    finally:
        s.close()
