"""An endpoint as a target, written as a user writes it: ``ripple callers "GET /owners/{ownerId}"``
lists the HTTP clients requesting it (spring-petclinic's integration tests calling
``restTemplate.getForEntity("/owners/1")``), ``ripple impact "GET /owners/{ownerId}"`` its handler
and what reaches it, through the CLI's and the agents' target resolution alike. Before, only the
internal id ``endpoint:GET /owners/{}`` was accepted, ``callers`` of it said "0 call sites" and the
report's target line read ``· · `:0```. Exact nodes and edges in an embedded store; negatives: a
method or path the index does not serve names nothing, and a handler's own CALLS callers are not an
endpoint's callers."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.agent_queries import AgentQueries, TargetError
from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from analysis.navigation import callers, symbol_candidates
from stores.embedded import EmbeddedStore
from tests.unit.test_impact import Repo, endpoint

CONTROLLER = "src/main/java/owner/OwnerController.java"
IT = "src/test/java/owner/PetClinicIntegrationTests.java"


@pytest.fixture
def store(tmp_path: Path):
    app = Repo("petclinic", "java")
    show = app.node(CONTROLLER, "OwnerController.showOwner", "int", 20, 25)
    helper = app.node(CONTROLLER, "OwnerController.refresh", "", 30, 32)
    details = app.node(IT, "PetClinicIntegrationTests.ownerDetails", "", 50, 56)
    ep = endpoint("GET", "/owners/{id}")  # endpoint:GET /owners/{}
    app.shared(CONTROLLER, ep)
    app.edge("EXPOSES", show, ep.id, CONTROLLER, 19, 2, framework="spring", route="/owners/{ownerId}")
    app.edge("CALLS", helper, show, CONTROLLER, 31, 8, "exact")  # a call of the handler: not a request
    app.shared(IT, ep)
    app.edge("CALLS_HTTP", details, ep.id, IT, 55, 44, framework="resttemplate", url="/owners/1")
    s = EmbeddedStore(tmp_path / "e.db")
    s.replace_files(list(app.files.values()))
    yield s, {"show": show, "details": details, "helper": helper, "endpoint": ep.id}
    s.close()


def test_method_and_path_name_the_endpoint_node(store) -> None:
    s, ids = store
    for text in ("GET /owners/{ownerId}", "get /owners/{id}", "GET /owners/:ownerId", "  GET   /owners/{x} "):
        assert [n.id for n in symbol_candidates(s, text)] == ["endpoint:GET /owners/{}"], text
    # what the index does not serve names nothing: another method, another path
    assert symbol_candidates(s, "POST /owners/{ownerId}") == []
    assert symbol_candidates(s, "GET /owners") == []


def test_an_endpoints_callers_are_its_http_clients(store) -> None:
    s, ids = store
    refs = callers(s, symbol_candidates(s, "GET /owners/{ownerId}"))
    assert [(r.kind, r.source.id, r.file, r.line, r.col) for r in refs] == [
        ("CALLS_HTTP", ids["details"], IT, 55, 44)]  # not refresh: it calls the handler, not the endpoint


def test_impact_of_an_endpoint_reaches_its_handler_and_clients(store) -> None:
    s, ids = store
    report = blast_radius(s, SymbolQuery("GET /owners/{ownerId}"))
    assert [(t.node.id, t.role) for t in report.targets] == [(ids["endpoint"], "selected"), (ids["show"], "handler")]
    assert [(h.http_method, h.path, h.hops, h.handler.id, h.route) for h in report.endpoints] == [
        ("GET", "/owners/{}", 0, ids["show"], "/owners/{ownerId}")]
    assert [t.node.id for t in report.tests] == [ids["details"]]
    md = render_markdown(report)
    assert md.startswith("# Blast radius of `GET /owners/{ownerId}`\n")
    targets = md.split("## Targets", 1)[1].split("## Direct callers", 1)[0].strip().splitlines()
    assert targets == [
        "- `GET /owners/{ownerId}` (endpoint, selected)",  # as declared; `/owners/{}` is only the key
        f"- `OwnerController.showOwner` (method, handler) · petclinic · `{CONTROLLER}:20`",
    ]  # no "· · `:0`" for the endpoint, which has no file


def test_agents_resolve_an_endpoint_target_too(store) -> None:
    s, ids = store
    answer = AgentQueries(s, s).callers("GET /owners/{ownerId}")
    assert [(c["from"], c["kind"], c["line"]) for c in answer.result["callers"]] == [(ids["details"], "CALLS_HTTP", 55)]
    with pytest.raises(TargetError, match="no symbol matches 'DELETE /owners/{ownerId}'"):
        AgentQueries(s, s).callers("DELETE /owners/{ownerId}")
    assert answer.text.splitlines()[2] == "Target: `GET /owners/{ownerId}` (id `endpoint:GET /owners/{}`)"  # no "(/, id"
    assert answer.result["targets"][0]["name"] == "GET /owners/{ownerId}"
    steps = answer.text.rstrip().splitlines()
    assert steps[-2].endswith("| 1 call site from 1 caller |")  # not "1 call sites from 1 callers"
    assert steps[-1].endswith("| 0 endpoints or topics served or consumed |")  # an endpoint serves none


def test_the_cli_lists_an_endpoints_clients_without_a_location_of_its_own(store, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from lsp_server.cli import main

    s, ids = store
    db = str(tmp_path / "e.db")
    result = CliRunner().invoke(main, ["callers", "GET /owners/{ownerId}", "--db", db])
    assert result.exit_code == 0, result.output
    assert result.stdout.splitlines() == [
        "GET /owners/{ownerId}  (endpoint endpoint:GET /owners/{})",  # the route as declared; not "(endpoint, :0)"
        "1 call site from 1 caller (1 in test code)",
        f"{IT}:55:45  PetClinicIntegrationTests.ownerDetails  CALLS_HTTP",
    ]
    impact = CliRunner().invoke(main, ["impact", "GET /owners/{ownerId}", "--db", db])
    assert impact.exit_code == 0, impact.output
    assert impact.stdout.startswith("# Blast radius of `GET /owners/{ownerId}`\n")
    assert "repositories" not in impact.stderr  # the endpoint's empty repository is no second one


def test_an_endpoint_is_shown_as_each_framework_declares_it(tmp_path: Path) -> None:
    # Flask <username>, FastAPI {username}, Express :id, Spring {id}: each endpoint's key is the
    # normalised path, what answers show is the route its handler declares; two handlers declaring
    # one endpoint differently are both named; a route without parameters (no `route` on its edge)
    # and an endpoint only called show the node's own name.
    from analysis.endpoints import declared_names

    app = Repo("mix", "python")
    flask = app.node("app/routes.py", "user", "username", 10, 14)
    fast = app.node("api/main.py", "read_user", "username", 5, 8)
    index = app.node("app/routes.py", "index", "", 3, 6)
    web = Repo("web", "javascript")
    express = web.node("src/app.js", "getItem", "req,res", 4, 9)
    eps = {}
    for ep, src, repo, file, line, route in (
            (endpoint("GET", "/user/<username>"), flask, app, "app/routes.py", 9, "/user/<username>"),
            (endpoint("GET", "/users/{username}"), fast, app, "api/main.py", 4, "/users/{username}"),
            (endpoint("GET", "/items/:id"), express, web, "src/app.js", 4, "/items/:id"),
            (endpoint("GET", "/"), index, app, "app/routes.py", 2, None)):
        repo.shared(file, ep)
        props = {"framework": "x", **({"route": route} if route else {})}
        repo.edge("EXPOSES", src, ep.id, file, line, 2, **props)
        eps[ep.id] = ep
    other = web.node("src/other.js", "getUser", "req,res", 2, 3)  # the Flask endpoint declared again, `:name`
    web.shared("src/other.js", eps["endpoint:GET /user/{}"])
    web.edge("EXPOSES", other, "endpoint:GET /user/{}", "src/other.js", 1, 2, framework="express", route="/user/:name")
    called = endpoint("POST", "/hooks/{id}")  # only called: no handler declares it
    app.shared("app/client.py", called)
    hook = app.node("app/client.py", "notify", "", 1, 3)
    app.edge("CALLS_HTTP", hook, called.id, "app/client.py", 2, 4, framework="requests", url="/hooks/7")
    s = EmbeddedStore(tmp_path / "m.db")
    s.replace_files([*app.files.values(), *web.files.values()])
    nodes = s.get_nodes([*eps, called.id, flask])
    assert declared_names(s, list(nodes.values())) == {
        "endpoint:GET /user/{}": "GET /user/<username> (also /user/:name)",
        "endpoint:GET /users/{}": "GET /users/{username}",
        "endpoint:GET /items/{}": "GET /items/:id",
        "endpoint:GET /": "GET /",
        "endpoint:POST /hooks/{}": "POST /hooks/{}",
    }  # the handler `user` (a Function) is no endpoint: left out
    report = blast_radius(s, SymbolQuery("GET /users/{name}"))
    assert render_markdown(report).split("## Targets", 1)[1].split("\n\n")[1].splitlines()[0] == \
        "- `GET /users/{username}` (endpoint, selected)"
    s.close()
