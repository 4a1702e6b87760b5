"""Which applications an impact analysis names (newcomer finding of round 41 on
spring-petclinic-microservices: a change reached through callers in another service's code named only
the services exposing the reached endpoints).

The folders naming applications are recorded in the repository's registry entry at index time
(``props["applications"]``: :meth:`indexer.frameworks.link_options.LinkOptions.applications`); every
code node the walk reaches names its application by the longest such folder holding its file
(:func:`analysis.services.application_of`).
"""

from __future__ import annotations

from pathlib import Path

from analysis.impact import SymbolQuery, blast_radius, services_phrase
from analysis.impact_report import render_markdown
from analysis.services import application_of, repository_applications
from indexer.frameworks.link_options import LinkOptions
from indexer.pipeline import index_repository
from indexer.registry import record_repository
from indexer.run import IndexOptions
from stores.contracts import APPLICATIONS_PROP
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

# ------------------------------------------------------------------------------- the folder map


def test_applications_name_every_unit_and_module_folder_and_stop_a_name_where_a_folder_names_none() -> None:
    options = LinkOptions(
        units={"": "", "billing": "billing-api", "billing/tools": "", "docs": "", "web": ""},
        modules={"orders": {"spring.application.name": "orders-service"}, "web/admin": {}})
    assert options.applications() == {
        "billing": "billing-api",
        "billing/tools": "",  # under a named folder: kept, it stops billing-api
        "orders": "orders-service",  # a Spring module's name when no unit names it
    }  # "", "docs", "web", "web/admin": naming nothing under nothing named, left out


def test_the_root_named_by_spring_when_there_are_no_modules() -> None:
    assert LinkOptions(properties={"spring.application.name": "shop"}).applications() == {"": "shop"}
    assert LinkOptions().applications() == {}


def test_application_of_is_the_longest_folder_holding_the_path() -> None:
    apps = {"": "shop", "billing": "billing-api", "billing/tools": ""}
    assert application_of(apps, "billing/src/Pay.java") == "billing-api"
    assert application_of(apps, "billing/tools/gen.py") is None  # the nearest folder names nothing
    assert application_of(apps, "billing-old/Pay.java") == "shop"  # a sibling sharing a prefix is not held
    assert application_of(apps, "README.md") == "shop"
    assert application_of({"billing": "billing-api"}, "orders/Order.java") is None
    assert application_of({}, "a.py") is None


def test_the_registry_entry_records_the_applications_and_keeps_them_when_not_given(tmp_path: Path) -> None:
    store = EmbeddedStore(tmp_path / "r.db")
    try:
        (tmp_path / "src").mkdir()
        options = IndexOptions(repo="shop", product="p")
        rec = record_repository(store, store, tmp_path / "src", options, applications={"billing": "billing-api"})
        assert rec.props == {APPLICATIONS_PROP: {"billing": "billing-api"}}
        record_repository(store, store, tmp_path / "src", options)  # a run that read no link options
        assert repository_applications(store) == {"shop": {"billing": "billing-api"}}
        record_repository(store, store, tmp_path / "src", options, applications={})
        assert repository_applications(store) == {} and store.repositories()[0].props == {}
    finally:
        store.close()


# ------------------------------------------------------------------------ impact on a monorepo

_POM = "<project><artifactId>{name}</artifactId></project>\n"
_YML = "spring:\n  application:\n    name: {name}\n"
_TREE = {
    "pom.xml": "<project><modules><module>vets</module><module>ai</module><module>tools</module></modules></project>\n",
    "vets/pom.xml": _POM.format(name="vets"),
    "vets/src/main/resources/application.yml": _YML.format(name="vets-service"),
    "vets/src/main/java/vets/VetResource.java": """package vets;

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class VetResource {
    @GetMapping("/vets")
    public String list() {
        return names();
    }

    String names() {
        return "";
    }
}
""",
    "ai/pom.xml": _POM.format(name="ai"),
    "ai/src/main/resources/application.yml": _YML.format(name="ai-service"),
    "ai/src/main/java/ai/Loader.java": """package ai;

import org.springframework.context.event.EventListener;
import org.springframework.web.reactive.function.client.WebClient;

public class Loader {
    private final WebClient webClient = WebClient.create();

    @EventListener
    public void load(Object event) {
        webClient.get().uri("http://vets-service/vets").retrieve().bodyToMono(String.class).block();
    }
}
""",
    "tools/pom.xml": _POM.format(name="tools"),
    "tools/src/main/java/tools/Report.java": """package tools;

import vets.VetResource;

public class Report {
    public String run(VetResource r) {
        return r.list();
    }
}
""",
}


def test_a_caller_in_another_service_names_its_application(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "mono", _TREE)
    store = EmbeddedStore(tmp_path / "mono.db")
    try:
        index_repository(root, store, store, IndexOptions(repo="mono", jobs=1))
        assert repository_applications(store) == {"mono": {
            "ai": "ai-service", "tools": "tools", "vets": "vets-service"}}  # a unit without Spring: its folder
        report = blast_radius(store, SymbolQuery("VetResource.names"))
        reached = sorted((r.node.name, r.hops) for hop in report.hops for r in hop)
        assert reached == [("list", 1), ("load", 2), ("run", 2)]
        assert [(e.http_method, e.path, e.service) for e in report.endpoints] == [("GET", "/vets", "vets-service")]
        # Before: ("vets-service",) only, the application exposing GET /vets.
        assert [(s.repo, s.nodes, s.endpoints, s.applications) for s in report.services] == [
            ("mono", 4, 1, ("ai-service", "tools", "vets-service"))]
        assert services_phrase(report.services) == "3 services in 1 repository"
        assert "| mono (ai-service, tools, vets-service) | 4 | 1 | 0 |" in render_markdown(report)

        # Negative: one hop up reaches only the vets service's own code.
        near = blast_radius(store, SymbolQuery("VetResource.names"), depth=1)
        assert [(s.repo, s.applications) for s in near.services] == [("mono", ("vets-service",))]
        assert services_phrase(near.services) == "1 service"
    finally:
        store.close()


def test_an_index_without_recorded_applications_names_only_the_exposing_ones(tmp_path: Path) -> None:
    root = write_tree(tmp_path / "mono", _TREE)
    store = EmbeddedStore(tmp_path / "mono.db")
    try:
        index_repository(root, store, store, IndexOptions(repo="mono", jobs=1, record=False))
        assert repository_applications(store) == {}
        report = blast_radius(store, SymbolQuery("VetResource.names"))
        assert [(s.repo, s.applications) for s in report.services] == [("mono", ("vets-service",))]
    finally:
        store.close()
