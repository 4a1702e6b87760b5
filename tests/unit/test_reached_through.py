"""The endpoints and topics other services reach a handler through (:mod:`analysis.reached_through`),
given by every front end's callers: ``ripple callers`` (hint lines; ``reached_through`` in its JSON), the
agents' ``callers`` (MCP structured content and text), ``POST /v1/callers`` (``reachedThrough``) and the
LSP's incoming calls (the clients and producers as items whose detail ends ``through NAME``). A fixture
written for this test: a Flask handler ``show_owner`` with one direct caller, called over HTTP by
``refresh`` once and by ``audit`` twice; a Celery task ``cleanup`` sent by ``schedule``; ``refresh``
itself serves nothing (the negative)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient
from lsprotocol import types

from analysis.agent_queries import AgentQueries
from analysis.navigation import lookup
from analysis.reached_through import ReachedThrough, reached_text, reached_through
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from lsp_server.api.app import ApiSettings, create_app
from lsp_server.cli import main
from lsp_server.convert import Converter, FileText
from lsp_server.features import call_hierarchy
from stores.config import load_config
from stores.embedded import EmbeddedStore

SHOP = {
    "app/__init__.py": "",
    "app/views.py": ('from flask import Flask, jsonify\n\napp = Flask(__name__)\n\n\n'
                     '@app.route("/owners/<int:owner_id>")\ndef show_owner(owner_id):\n    return jsonify(id=owner_id)\n\n\n'
                     'def first_owner():\n    return show_owner(1)\n'),
    "app/sync.py": ('import requests\n\n\ndef refresh(owner_id):\n'
                    '    return requests.get(f"http://shop/owners/{owner_id}").json()\n\n\n'
                    'def audit(owner_id):\n    first = requests.get(f"http://shop/owners/{owner_id}")\n'
                    '    again = requests.get(f"http://shop/owners/{owner_id}")\n    return first, again\n'),
    "app/tasks.py": ('from celery import Celery\n\ncelery = Celery("shop")\n\n\n@celery.task\ndef cleanup():\n    return 1\n\n\n'
                     'def schedule():\n    cleanup.delay()\n'),
}
OWNERS = ReachedThrough("endpoint:GET /owners/{}", "GET /owners/{}", "endpoint", "clients", 2)


@pytest.fixture(scope="module")
def root(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("reached")
    for rel, text in SHOP.items():
        (base / "shop" / rel).parent.mkdir(parents=True, exist_ok=True)
        (base / "shop" / rel).write_text(text)
    s = EmbeddedStore(base / "index.db")
    index_repository(base / "shop", s, s, IndexOptions(repo="shop", jobs=1))
    s.close()
    return base


@pytest.fixture
def store(root: Path):
    s = EmbeddedStore(root / "index.db")
    yield s
    s.close()


def _node(store, name: str):
    found, _ = lookup(store, name)
    assert len(found) == 1, found
    return found[0]


def test_handlers_name_the_endpoint_or_topic_with_its_callers(store) -> None:
    assert reached_through(store, [_node(store, "app.views.show_owner")]) == [OWNERS]
    (task,) = reached_through(store, [_node(store, "app.tasks.cleanup")])
    assert (task.kind, task.whose, task.callers) == ("topic", "producers", 1)
    assert task.id.startswith("topic:celery:") and task.name == task.id
    # code that serves nothing, and no target at all: nothing
    assert reached_through(store, [_node(store, "app.sync.refresh")]) == []
    assert reached_through(store, []) == []


def test_text_lines() -> None:
    one = OWNERS.as_dict()
    assert reached_text([one]) == [
        "also reached through GET /owners/{} (2 clients): ripple callers 'GET /owners/{}' lists them"]
    single = {**one, "callers": 1, "whose": "producers", "name": "topic:orders"}
    assert reached_text([single] * 5, shown=1, command="callers of") == [
        "also reached through topic:orders (1 producer): callers of 'topic:orders' lists it",
        "and through 4 more endpoints or topics (ripple impact follows them all)"]
    assert reached_text([{**one, "callers": 0}]) == ["also reached through GET /owners/{} (no client indexed)"]


def test_agent_answer_and_rest(store, root: Path) -> None:
    answer = AgentQueries(store, store).callers("app.views.show_owner")
    assert [c["from_name"] for c in answer.result["callers"]] == ["app.views.first_owner"]
    assert answer.result["reached_through"] == [OWNERS.as_dict()]
    assert ("also reached through GET /owners/{} (2 clients): callers of 'GET /owners/{}' lists them"
            in answer.text.splitlines())
    assert [s.name for s in answer.steps] == ["Resolve target", "Callers", "Reached through"]
    plain = AgentQueries(store, store).callers("app.sync.refresh")
    assert plain.result["reached_through"] == [] and "reached through" not in plain.text
    app = create_app(ApiSettings(load_config(root), root / "index.db", roots=[root]))
    with TestClient(app) as http:
        body = http.post("/v1/callers", json={"target": "app.views.show_owner"}).json()
    assert body["reachedThrough"] == [{"id": "endpoint:GET /owners/{}", "name": "GET /owners/{}", "kind": "endpoint",
                                       "whose": "clients", "callers": 2}]


def test_cli_text_and_json(root: Path) -> None:
    db = str(root / "index.db")
    result = CliRunner().invoke(main, ["callers", "app.views.show_owner", "--db", db])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines()[-1] == (
        "also reached through GET /owners/{} (2 clients): ripple callers 'GET /owners/{}' lists them")
    data = json.loads(CliRunner().invoke(main, ["callers", "app.views.show_owner", "--db", db, "--json"]).stdout)
    assert data["reached_through"] == [OWNERS.as_dict()]
    data = json.loads(CliRunner().invoke(main, ["callers", "app.sync.refresh", "--db", db, "--json"]).stdout)
    assert data["reached_through"] == []


class _Server:
    """What the call-hierarchy feature asks of the server: its graph, a converter, an item's node."""

    def __init__(self, store: EmbeddedStore, root: Path) -> None:
        self.store, self.root = store, root

    def graph(self) -> EmbeddedStore:
        return self.store

    def converter(self) -> Converter:
        def texts(repo: str, path: str) -> FileText:
            f = self.root / repo / path
            return FileText(f.as_uri(), f.read_text().splitlines() if f.is_file() else None)
        return Converter(types.PositionEncodingKind.Utf16, texts)

    def node_of(self, item: types.CallHierarchyItem):
        return self.store.get_nodes([item.data["id"]]).get(item.data["id"])


def test_lsp_incoming_calls_add_the_clients_reaching_through_the_endpoint(store, root: Path) -> None:
    ls = _Server(store, root)
    item = ls.converter().call_item(_node(store, "app.views.show_owner"))
    calls = call_hierarchy.incoming(ls, types.CallHierarchyIncomingCallsParams(item))  # type: ignore[arg-type]
    got = [(c.from_.name, c.from_.detail, c.from_.data,
            [(r.start.line, r.start.character, r.end.character) for r in c.from_ranges]) for c in calls]
    assert got == [  # the direct caller, then the clients by first call site (the identifier `get` at each)
        ("first_owner", "shop · app.views.first_owner", {"id": "shop:app/views.first_owner(0)"}, [(11, 11, 21)]),
        ("refresh", "shop · app.sync.refresh · through GET /owners/{}",
         {"id": "shop:app/sync.refresh(1)", "through": "endpoint:GET /owners/{}"}, [(4, 20, 23)]),
        ("audit", "shop · app.sync.audit · through GET /owners/{}",
         {"id": "shop:app/sync.audit(1)", "through": "endpoint:GET /owners/{}"}, [(8, 21, 24), (9, 21, 24)])]
    # a caller reached through the endpoint is an item of its own: its callers are asked for as any other's
    assert call_hierarchy.incoming(ls, types.CallHierarchyIncomingCallsParams(calls[2].from_)) == []  # type: ignore[arg-type]
    # code serving nothing: its direct callers only (none here)
    plain = ls.converter().call_item(_node(store, "app.sync.refresh"))
    assert call_hierarchy.incoming(ls, types.CallHierarchyIncomingCallsParams(plain)) == []  # type: ignore[arg-type]
