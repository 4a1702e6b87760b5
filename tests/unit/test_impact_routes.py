"""Two routes normalising to one endpoint (newcomer finding of round 41 on healthchecks:
``checks/<uuid:code>/flips/`` -> ``flips_by_uuid`` and ``checks/<sha1:unique_key>/flips/`` ->
``flips_by_unique_key``, both ``* /api/checks/{}/flips``): the graph keeps one Endpoint node with
an EXPOSES edge per handler, each with its declared route, and an impact analysis reaching both
handlers lists both URLs, each with its own handler (before: one row, the other handler lost).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import diagram_links, mermaid_diagram
from stores.embedded import EmbeddedStore
from tests.index_harness import index_files

_TREE = {
    "api/__init__.py": "",
    "api/views.py": """from django.http import HttpResponse


def flips(request, check):
    return HttpResponse(str(check))


def lookup(code):
    return code


def flips_by_uuid(request, code):
    return flips(request, lookup(code))


def flips_by_unique_key(request, unique_key):
    return flips(request, unique_key)
""",
    "api/urls.py": """from django.urls import path

from api import views

urlpatterns = [
    path("checks/<uuid:code>/flips/", views.flips_by_uuid),
    path("checks/<slug:unique_key>/flips/", views.flips_by_unique_key),
]
""",
    "urls.py": """from django.urls import include, path

urlpatterns = [
    path("api/", include("api.urls")),
]
""",
}
EP = "endpoint:* /api/checks/{}/flips"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("routes")
    s = index_files(tmp / "hcmini", _TREE, "hcmini", db=tmp / "r.db")
    yield s
    s.close()


def test_one_endpoint_node_with_a_handler_per_route(store: EmbeddedStore) -> None:
    exposes = sorted((e.src.rsplit(".", 1)[1], e.props["route"]) for e in store.incoming([EP], ["EXPOSES"])[EP])
    assert exposes == [("flips_by_unique_key(2)", "/api/checks/<slug:unique_key>/flips"),
                       ("flips_by_uuid(2)", "/api/checks/<uuid:code>/flips")]


def test_both_routes_are_listed_each_with_its_handler(store: EmbeddedStore) -> None:
    report = blast_radius(store, SymbolQuery("api.views.flips"))
    assert [(h.id, h.route, h.handler.name, h.hops) for h in report.endpoints] == [
        (EP, "/api/checks/<slug:unique_key>/flips", "flips_by_unique_key", 1),
        (EP, "/api/checks/<uuid:code>/flips", "flips_by_uuid", 1)]
    assert [s.endpoints for s in report.services] == [2]
    # One diagram node per route, each below its own handler.
    diagram = mermaid_diagram(report)
    assert '  e0{{"* /api/checks/#lt;slug:unique_key#gt;/flips"}}' in diagram
    assert '  e1{{"* /api/checks/#lt;uuid:code#gt;/flips"}}' in diagram
    assert [line.strip() for line in diagram.splitlines() if "--> e" in line] == ["c1 --> e0", "c0 --> e1"]
    assert [(i, label, n.name) for i, label, n in diagram_links(report) if i.startswith("e")] == [
        ("e0", "* /api/checks/<slug:unique_key>/flips", "flips_by_unique_key"),
        ("e1", "* /api/checks/<uuid:code>/flips", "flips_by_uuid")]


def test_a_change_behind_one_handler_lists_only_its_route(store: EmbeddedStore) -> None:
    report = blast_radius(store, SymbolQuery("api.views.lookup"))
    assert [(h.route, h.handler.name, h.hops) for h in report.endpoints] == [
        ("/api/checks/<uuid:code>/flips", "flips_by_uuid", 1)]


def test_the_nearer_route_is_kept_first_and_a_farther_one_still_listed(tmp_path: Path) -> None:
    tree = dict(_TREE)
    tree["api/views.py"] = _TREE["api/views.py"].replace(
        "return flips(request, unique_key)", "return relay(request, unique_key)") + """

def relay(request, unique_key):
    return flips(request, unique_key)
"""
    s = index_files(tmp_path / "hcmini", tree, "hcmini", db=tmp_path / "r.db")
    try:
        report = blast_radius(s, SymbolQuery("api.views.flips"))
        assert [(h.route, h.handler.name, h.hops) for h in report.endpoints] == [
            ("/api/checks/<uuid:code>/flips", "flips_by_uuid", 1),
            ("/api/checks/<slug:unique_key>/flips", "flips_by_unique_key", 2)]
    finally:
        s.close()
