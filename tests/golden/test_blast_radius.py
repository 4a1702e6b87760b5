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

import os
import re
from pathlib import Path

import pytest

from indexer.run import IndexOptions
from indexer.pipeline import index_repository
from stores.embedded import EmbeddedStore
from analysis.impact import PositionQuery, SymbolQuery, blast_radius
from analysis.impact_report import render_markdown

SERVICES = Path(__file__).resolve().parent.parent / "fixtures" / "services"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
REPOS = ("owners-service", "visits-service", "frontend", "notifications-service")
_TIME = re.compile(r"\| \d+\.\d ms \|")
JAVA = "src/main/java/org/shop/owners"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = EmbeddedStore(tmp_path_factory.mktemp("golden") / "shop.db")
    for repo in REPOS:
        index_repository(SERVICES / repo, s, s, IndexOptions(repo=repo, product="shop", jobs=1))
    yield s
    s.close()


def _check(name: str, markdown: str) -> None:
    text = _TIME.sub("| – ms |", markdown)
    snapshot = SNAPSHOTS / f"{name}.md"
    if os.environ.get("RIPPLE_UPDATE_GOLDEN"):
        snapshot.write_text(text, encoding="utf-8")
    assert text == snapshot.read_text(encoding="utf-8")


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
