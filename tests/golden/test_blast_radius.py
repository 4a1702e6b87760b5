"""Golden blast-radius reports on the multi-service fixture workspace (tests/fixtures/services).

Four repositories are indexed into one embedded store with the real pipeline (detectors, linker,
resolver): ``owners-service`` (Spring, Java: controller -> service -> repository interface with two
implementations, a KafkaTemplate producer), ``visits-service`` (FastAPI with an included router, an
httpx client of owners-service, a kafka-python consumer), ``frontend`` (TypeScript, fetch) and
``notifications-service`` (Express + kafkajs consumer). Each report's markdown is compared with
``snapshots/<name>.md`` byte for byte, step times masked. ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the
snapshots (review the diff before committing).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from indexer.run import IndexOptions
from indexer.pipeline import index_repository
from stores.embedded import EmbeddedStore
from analysis.impact import PositionQuery, SymbolQuery, blast_radius
from analysis.impact_report import diagram_links, mermaid_diagram, render_markdown
from tests.golden.harness import check_snapshot

SERVICES = Path(__file__).resolve().parent.parent / "fixtures" / "services"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
REPOS = ("owners-service", "visits-service", "frontend", "notifications-service")
JAVA = "src/main/java/org/shop/owners"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = EmbeddedStore(tmp_path_factory.mktemp("golden") / "shop.db")
    for repo in REPOS:
        index_repository(SERVICES / repo, s, s, IndexOptions(repo=repo, product="shop", jobs=1))
    yield s
    s.close()


_check = check_snapshot


def _endpoints(report) -> list[tuple[str, str, str, int]]:
    return [(h.http_method, h.path, h.repo, h.hops) for h in report.endpoints]


def test_repository_implementation_reaches_endpoints_in_three_services(store) -> None:
    report = blast_radius(store, SymbolQuery("JdbcOwnerRepository.findById"))
    assert _endpoints(report) == [
        ("GET", "/api/owners/{}", "owners-service", 2),
        ("GET", "/api/visits/{}", "visits-service", 4),
    ]
    assert [s.repo for s in report.services] == ["owners-service", "frontend", "visits-service"]
    _check("jdbc_find_by_id", render_markdown(report))


def test_service_method_reaches_its_endpoint_and_the_topic_it_feeds(store) -> None:
    report = blast_radius(store, SymbolQuery("OwnerService.rename"))
    assert _endpoints(report) == [("PUT", "/api/owners/{}", "owners-service", 1)]
    _check("owner_service_rename", render_markdown(report))


def test_python_store_function_crosses_kafka_into_the_java_producer(store) -> None:
    report = blast_radius(store, PositionQuery("visits-service", "visits/store.py", 9))
    assert _endpoints(report) == [("PUT", "/api/owners/{}", "owners-service", 4)]
    assert [t.name for t in report.topics] == ["owner-events"]
    _check("forget_owner_name", render_markdown(report))


def test_javascript_consumer_crosses_kafka(store) -> None:
    report = blast_radius(store, SymbolQuery("notifyOwner"))
    assert [t.name for t in report.topics] == ["owner-events"]
    _check("notify_owner", render_markdown(report))


def test_python_http_client_reaches_the_fastapi_endpoint_and_the_front_end(store) -> None:
    report = blast_radius(store, SymbolQuery("owner_name"))
    assert _endpoints(report) == [("GET", "/api/visits/{}", "visits-service", 1)]
    _check("owner_name", render_markdown(report))


def test_interface_target_is_used_through_its_methods(store) -> None:
    report = blast_radius(store, SymbolQuery("OwnerRepository"))
    assert [(t.node.name, t.role) for t in report.targets] == [
        ("OwnerRepository", "selected"), ("findById", "member"), ("save", "member")]
    assert _endpoints(report) == [
        ("GET", "/api/owners/{}", "owners-service", 2),
        ("PUT", "/api/owners/{}", "owners-service", 2),
        ("GET", "/api/visits/{}", "visits-service", 4),
    ]
    _check("owner_repository_interface", render_markdown(report))


def test_diagram_links_name_the_code_of_every_drawn_node(store) -> None:
    report = blast_radius(store, PositionQuery("visits-service", "visits/store.py", 9))
    links = [(node_id, label, n.repo, n.file, n.start_line) for node_id, label, n in diagram_links(report)]
    assert links == [
        ("t0", "forget_owner_name", "visits-service", "visits/store.py", 9),
        ("c0", "consume_owner_events", "visits-service", "visits/events.py", 7),
        ("c1", "OwnerEventPublisher.ownerChanged", "owners-service", f"{JAVA}/OwnerEventPublisher.java", 14),
        ("c2", "OwnerService.rename", "owners-service", f"{JAVA}/OwnerService.java", 19),
        # a Java method starts at its first annotation (@PutMapping)
        ("c3", "OwnerController.renameOwner", "owners-service", f"{JAVA}/OwnerController.java", 24),
        # an endpoint opens its handler, a topic its first consumer
        ("e0", "PUT /api/owners/{ownerId}", "owners-service", f"{JAVA}/OwnerController.java", 24),
        ("k0", "topic owner-events", "visits-service", "visits/events.py", 7),
    ]
    # every drawn node is a link, and no link names a node the diagram does not draw
    drawn = set(re.findall(r"^  +([tcek]\d+)[\[({]", mermaid_diagram(report), re.M))
    assert drawn == {node_id for node_id, *_ in links}
    # grouped past max_nodes: only the first target is code; the hop and count nodes are not links
    grouped = diagram_links(report, max_nodes=3)
    assert [(node_id, label) for node_id, label, _ in grouped] == [("t0", "forget_owner_name")]
    assert "h1[" in mermaid_diagram(report, max_nodes=3)
    assert diagram_links(blast_radius(store, SymbolQuery("NoSuch.thing"))) == []


def _direct(report) -> list[tuple[str, str, int, str]]:
    return [(c.node.qualname, s.file, s.line, s.target) for c in report.callers for s in c.sites]


def test_an_endpoint_or_topic_target_is_called_by_its_clients_or_producers(store) -> None:
    endpoint = blast_radius(store, SymbolQuery("GET /api/owners/{}"))
    assert _direct(endpoint) == [("loadOwner", "src/api.ts", 8, "endpoint:GET /api/owners/{}"),
                                 ("owner_name", "visits/owners_client.py", 7, "endpoint:GET /api/owners/{}")]
    # the endpoint itself, and the visits endpoint whose handler calls it through owner_name
    assert _endpoints(endpoint) == [("GET", "/api/owners/{}", "owners-service", 0),
                                    ("GET", "/api/visits/{}", "visits-service", 2)]
    assert render_markdown(endpoint).splitlines()[2] == (
        "**2 direct callers · 2 endpoints** · 3 services · 5 nodes reached within 5 hops")
    topic = blast_radius(store, SymbolQuery("topic:owner-events"))
    assert _direct(topic) == [("OwnerEventPublisher.ownerChanged", f"{JAVA}/OwnerEventPublisher.java", 15,
                               "topic:owner-events")]
    # the handler asked by its name: nothing calls it in code; its endpoint's clients are one hop up, not direct
    handler = blast_radius(store, SymbolQuery("OwnerController.showOwner"))
    assert _direct(handler) == []
    assert sorted(r.node.qualname for r in handler.hops[0]) == ["loadOwner", "owner_name"]
