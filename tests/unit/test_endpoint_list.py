"""The endpoint list (``ripple endpoints``, the MCP tool ``endpoints``, ``GET /v1/endpoints``): which
endpoints an application has. A fixture written for this test: repository ``shop`` serves a Flask
app (three routes, a ``before_request`` hook) and an Express app (two inline handlers), and calls its own ``GET /owners/<id>``
once; repository ``admin`` calls that route twice from one function and an external status API once.
Exact entries (method, path, handler, file, line, route, framework, client counts), the repository
filter (an endpoint of ``shop`` is ``admin``'s only through its clients; ``/health`` is not), the
match filter, the limit's left-out count, endpoints only called (listed on request only), the
union / branch views, and the CLI and REST fronts on the same index."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner
from fastapi.testclient import TestClient

from analysis.agent_queries import AgentQueries
from analysis.branches import BranchView
from analysis.endpoints import endpoint_kind, endpoint_line, endpoint_list, endpoints_text
from analysis.navigation import UnionGraph
from lsp_server.api.app import ApiSettings, create_app
from lsp_server.cli import main
from stores.config import load_config
from stores.embedded import EmbeddedStore
from tests.index_harness import index_files

SHOP = {
    "app/__init__.py": "",
    "app/views.py": ('from flask import Flask, jsonify\n\napp = Flask(__name__)\n\n\n'
                     '@app.route("/owners/<int:owner_id>")\ndef show_owner(owner_id):\n    return jsonify(id=owner_id)\n\n\n'
                     '@app.route("/owners", methods=["POST"])\ndef create_owner():\n    return jsonify(ok=True)\n\n\n'
                     '@app.get("/health")\ndef health():\n    return "ok"\n\n\n'
                     '@app.before_request\ndef load_user():\n    return None\n'),
    "app/sync.py": ('import requests\n\n\ndef refresh(owner_id):\n'
                    '    return requests.get(f"http://shop/owners/{owner_id}").json()\n'),
    "web/server.js": ('const express = require("express");\nconst app = express();\n\n'
                      'app.get("/api/pets/:petId", function showPet(req, res) {\n  res.json({ id: req.params.petId });\n});\n\n'
                      'app.delete("/api/pets/:petId", (req, res) => {\n  res.sendStatus(204);\n});\n\napp.listen(3000);\n'),
}
ADMIN = {
    "audit.py": ('import requests\n\n\ndef audit_owner(owner_id):\n'
                 '    first = requests.get(f"http://shop/owners/{owner_id}")\n'
                 '    again = requests.get(f"http://shop/owners/{owner_id}")\n    return first, again\n\n\n'
                 'def ping():\n    return requests.get("https://status.example.com/v1/ping")\n'),
}

# (method, path, [(handler name, file, line, declared route, framework)], clients, client calls)
PETS_DELETE = ("DELETE", "/api/pets/{}", [("DELETE /api/pets/:petId", "web/server.js", 8, "/api/pets/:petId", "express")], 0, 0)
PETS_GET = ("GET", "/api/pets/{}", [("GET /api/pets/:petId", "web/server.js", 4, "/api/pets/:petId", "express")], 0, 0)
HEALTH = ("GET", "/health", [("app.views.health", "app/views.py", 16, "/health", "flask")], 0, 0)
CREATE = ("POST", "/owners", [("app.views.create_owner", "app/views.py", 11, "/owners", "flask")], 0, 0)
SHOW = ("GET", "/owners/{}", [("app.views.show_owner", "app/views.py", 6, "/owners/<int:owner_id>", "flask")], 2, 3)
PING = ("GET", "/v1/ping", [], 1, 1)


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    base = tmp_path_factory.mktemp("endpoints")
    path = base / "index.db"
    for name, files in (("shop", SHOP), ("admin", ADMIN)):
        index_files(base / name, files, name, path).close()
    return path


@pytest.fixture
def store(db: Path):
    s = EmbeddedStore(db)
    yield s
    s.close()


def rows(found) -> list[tuple]:
    return [(e.method, e.path, [(h.name, h.path, h.line, h.route, h.framework) for h in e.handlers],
             e.clients, e.client_calls) for e in found.endpoints]


def test_every_served_endpoint_by_path_with_handlers_and_clients(store) -> None:
    found = endpoint_list(store)
    assert rows(found) == [PETS_DELETE, PETS_GET, HEALTH, CREATE, SHOW]
    assert (found.total, found.left_out, found.unserved) == (5, 0, 1)  # GET /v1/ping: only called
    assert [h.repo for e in found.endpoints for h in e.handlers] == ["shop"] * 5
    assert [e.id for e in found.endpoints][-1] == "endpoint:GET /owners/{}"
    assert {e.kind for e in found.endpoints} == {"http"}
    # Flask's before_request hook runs for the Flask app's routes, not for the Express app's
    assert [e.wrappers for e in found.endpoints] == [(), (), *[("app.views.load_user",)] * 3]


def test_endpoints_only_called_are_listed_on_request(store) -> None:
    found = endpoint_list(store, unserved=True)
    assert rows(found) == [PETS_DELETE, PETS_GET, HEALTH, CREATE, SHOW, PING]
    assert (found.total, found.unserved) == (6, 1)


def test_a_repository_keeps_the_endpoints_its_handlers_or_clients_touch(store) -> None:
    assert rows(endpoint_list(store, repo="admin")) == [SHOW]  # served by shop, called by admin
    assert rows(endpoint_list(store, repo="admin", unserved=True)) == [SHOW, PING]
    assert rows(endpoint_list(store, repo="shop")) == [PETS_DELETE, PETS_GET, HEALTH, CREATE, SHOW]
    assert endpoint_list(store, repo="shop").unserved == 0  # admin's ping is not shop's
    assert rows(endpoint_list(store, repo="nope")) == []


def test_match_filters_by_method_path_or_declared_route(store) -> None:
    assert rows(endpoint_list(store, match="PETS")) == [PETS_DELETE, PETS_GET]
    assert rows(endpoint_list(store, match="post /")) == [CREATE]
    assert rows(endpoint_list(store, match=":petid")) == [PETS_DELETE, PETS_GET]  # the route as declared
    assert rows(endpoint_list(store, match="<int:owner_id>")) == [SHOW]
    assert rows(endpoint_list(store, match="/ping")) == []  # only called, not asked for
    assert rows(endpoint_list(store, match="/orders")) == []


def test_the_limit_says_how_many_were_left_out(store) -> None:
    found = endpoint_list(store, limit=2)
    assert rows(found) == [PETS_DELETE, PETS_GET]
    assert (found.total, found.left_out) == (5, 3)
    assert endpoint_list(store, limit=0).as_dict()["endpoints"] == []
    with pytest.raises(ValueError, match="limit must be 0 or more"):
        endpoint_list(store, limit=-1)


def test_text_names_routes_places_and_clients(store) -> None:
    lines = endpoints_text(endpoint_list(store, limit=4).as_dict())
    assert lines == [
        "# Endpoints (4 of 5)", "",
        "- DELETE /api/pets/:petId -> an inline handler (web/server.js:8, express)",
        "- GET /api/pets/:petId -> an inline handler (web/server.js:4, express)",
        "- GET /health -> app.views.health (app/views.py:16, flask) · through views.load_user",
        "- POST /owners -> app.views.create_owner (app/views.py:11, flask) · through views.load_user",
        "", "1 more beyond the limit: raise it, or narrow with repo / match.",
        "", "1 more endpoint is only called (no handler indexed: an external API, or a route not detected); "
            "ask with unserved to list it."]
    admin = endpoints_text(endpoint_list(store, repo="admin", unserved=True).as_dict())
    assert admin[2:] == [  # the handler lies in another repository than the one asked for: named
        "- GET /owners/<int:owner_id> -> app.views.show_owner (shop/app/views.py:6, flask) · 2 clients (3 calls)"
        " · through views.load_user",
        "- GET /v1/ping (no handler indexed: called only) · 1 client (1 call)"]


def test_an_empty_index_lists_nothing(tmp_path: Path) -> None:
    s = EmbeddedStore(tmp_path / "empty.db")
    assert endpoint_list(s).as_dict() == {"endpoints": [], "total": 0, "left_out": 0, "unserved": 0,
                                          "unserved_listed": False, "repo": None}
    assert endpoints_text(endpoint_list(s).as_dict())[2] == "No endpoints are indexed."
    s.close()


def test_kinds() -> None:
    assert [endpoint_kind(m) for m in ("GET", "*", "QUERY", "FIELD", "GRPC")] == ["http", "http", "graphql", "graphql",
                                                                                   "grpc"]


def test_views_answer_the_same(store, tmp_path: Path) -> None:
    other = EmbeddedStore(tmp_path / "other.db")
    union = UnionGraph([store, other])  # an empty second index adds nothing, takes nothing
    assert rows(endpoint_list(union)) == rows(endpoint_list(store))
    assert [n.id for n in union.labelled(["Endpoint"], 2)] == ["endpoint:DELETE /api/pets/{}", "endpoint:GET /api/pets/{}"]
    other.close()
    hidden = BranchView(store, ["admin"])  # admin hidden: its clients go, shop's one call stays
    assert rows(endpoint_list(hidden)) == [PETS_DELETE, PETS_GET, HEALTH, CREATE,
                                           (*SHOW[:3], 1, 1)]
    assert endpoint_list(hidden).unserved == 0


def test_agent_answer_fits_the_budget_and_says_what_it_cut(store) -> None:
    answer = AgentQueries(store, store).endpoints(match="owners")
    assert [e["id"] for e in answer.result["endpoints"]] == ["endpoint:POST /owners", "endpoint:GET /owners/{}"]
    assert answer.result["total"] == 2 and answer.truncated == []
    assert [s.name for s in answer.steps] == ["Endpoints"] and answer.steps[0].round_trips == 4  # labelled, summary, incoming (shown), get_nodes
    with pytest.raises(ValueError, match="limit must be an integer from 1 to 100"):
        AgentQueries(store, store).endpoints(limit=0)


def test_cli(db: Path) -> None:
    result = CliRunner().invoke(main, ["endpoints", "--db", str(db), "--match", "owners"])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "2 endpoints matching 'owners'",
        "  POST /owners -> app.views.create_owner (app/views.py:11, flask) · through views.load_user",
        "  GET /owners/<int:owner_id> -> app.views.show_owner (app/views.py:6, flask) · 2 clients (3 calls) · through "
        "views.load_user"]
    result = CliRunner().invoke(main, ["endpoints", "--db", str(db), "--limit", "1", "--json"])
    data = json.loads(result.stdout)
    assert ([e["id"] for e in data["endpoints"]], data["total"], data["left_out"], data["unserved"]) == (
        ["endpoint:DELETE /api/pets/{}"], 5, 4, 1)
    result = CliRunner().invoke(main, ["endpoints", "--db", str(db), "--repo", "admin"])
    assert result.stdout.splitlines()[0] == "1 endpoint of repository admin"
    assert result.stdout.splitlines()[-1] == "1 more only called (no handler indexed); --unserved lists them"


def test_rest(db: Path, monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CONFIG_HOME", str(tmp_path / "no-config"))
    app = create_app(ApiSettings(load_config(db.parent), db, roots=[db.parent]))
    with TestClient(app) as http:
        body = http.get("/v1/endpoints", params={"repo": "admin", "unserved": "true"}).json()
        bad = http.get("/v1/endpoints", params={"limit": 0})
    assert [(e["method"], e["path"], [h["name"] for h in e["handlers"]], e["clients"], e["clientCalls"])
            for e in body["endpoints"]] == [("GET", "/owners/{}", ["app.views.show_owner"], 2, 3), ("GET", "/v1/ping", [], 1, 1)]
    assert body["endpoints"][0]["handlers"][0] == {
        "id": "shop:app/views.show_owner(1)", "name": "app.views.show_owner", "repo": "shop", "path": "app/views.py",
        "line": 6, "route": "/owners/<int:owner_id>", "framework": "flask"}
    assert (body["total"], body["leftOut"], body["unserved"], body["unservedListed"], body["repo"]) == (
        2, 0, 1, True, "admin")
    assert bad.status_code == 422


def test_a_line_names_the_first_handlers_and_wrappers_and_counts_the_rest():
    handlers = [{"name": f"app{i}.index", "route": "/", "repo": "r", "path": f"app{i}.py", "line": 3, "framework": "flask"}
                for i in range(5)]
    entry = {"method": "GET", "path": "/", "handlers": handlers, "clients": 0, "client_calls": 0,
             "wrappers": [f"m.hook{i}" for i in range(7)]}
    assert endpoint_line(entry) == (
        "GET / -> app0.index (app0.py:3, flask); app1.index (app1.py:3, flask); app2.index (app2.py:3, flask)"
        " and 2 more handlers · through m.hook0, m.hook1, m.hook2, m.hook3, m.hook4 and 2 more wrappers")
    entry = {**entry, "handlers": handlers[:3], "wrappers": entry["wrappers"][:6]}
    assert endpoint_line(entry) == (
        "GET / -> app0.index (app0.py:3, flask); app1.index (app1.py:3, flask); app2.index (app2.py:3, flask)"
        " · through m.hook0, m.hook1, m.hook2, m.hook3, m.hook4 and 1 more wrapper")


def test_an_inline_handler_under_a_mounted_prefix_is_said_so():
    # Express `router.get("/articles", (req, res) => ...)` mounted at /api: the node is named by the router's
    # route, the endpoint by the full one (realworld's article.controller.ts printed "GET /articles (...)")
    handler = {"name": "GET /articles", "route": "/api/articles", "repo": "r", "path": "src/a.ts", "line": 30,
               "framework": "express"}
    entry = {"method": "GET", "path": "/api/articles", "handlers": [handler], "clients": 0, "client_calls": 0,
             "wrappers": []}
    assert endpoint_line(entry) == "GET /api/articles -> an inline handler (src/a.ts:30, express)"
    # a named handler, another method's inline node, or a route that does not end with the node's: the name
    for name in ("articles.list", "POST /articles", "GET /users"):
        assert endpoint_line({**entry, "handlers": [{**handler, "name": name}]}) == \
            f"GET /api/articles -> {name} (src/a.ts:30, express)"
