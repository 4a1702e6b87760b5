"""Golden blast-radius reports across languages (issue 21, "Show"): a Kotlin Spring + Ktor service
with one Java repository class (a mixed module), called over HTTP by a Vue front end
(tests/fixtures/kotlin-vue-shop). A change in the Java repository reaches the Kotlin service and
controller, the ``GET /api/orders/{id}`` endpoint, the TypeScript client calling it, the Vue
component's methods and, through the template's ``@click="reload"``, the component itself; a Ktor
route's handler block reaches the ``<script setup>`` function that fetches it and the component
whose template calls that function. The markdown is compared with ``snapshots/<name>.md`` byte for
byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots (review the diff before
committing)."""

from __future__ import annotations

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import FIXTURES, caller_names, check_snapshot, endpoint_rows, golden_indexed

FIXTURE = FIXTURES / "kotlin-vue-shop"


indexed = golden_indexed(FIXTURE, "kotlin-vue-shop")


@pytest.fixture(scope="module")
def store(indexed):
    return indexed[0]


def test_index_links_every_vue_client_to_its_kotlin_endpoint(indexed) -> None:
    _, report = indexed
    assert report.files_by_language == {"java": 1, "kotlin": 4, "typescript": 1, "vue": 3}
    assert {k: v for k, v in report.links.items() if v} == {"calls_http": 3, "exposes": 3, "produces": 1}


def test_java_repository_reaches_the_vue_component_through_kotlin_and_http(store) -> None:
    report = blast_radius(store, SymbolQuery("OrderRepository.load"), depth=6)
    assert endpoint_rows(report) == [("GET", "/api/orders/{}", 2, "exact", "OrderController.get")]
    assert caller_names(report) == {1: ["OrderService.find"], 2: ["OrderController.get"], 3: ["getOrder"],
                                4: ["OrderView.fetchOrder"], 5: ["OrderView.mounted", "OrderView.reload"],
                                6: ["OrderView"]}
    check_snapshot("kotlin_vue_repository_load", render_markdown(report))


def test_ktor_route_reaches_the_script_setup_function_and_its_template(store) -> None:
    report = blast_radius(store, SymbolQuery("StockService.level"))
    assert endpoint_rows(report) == [("GET", "/api/stock/{}", 1, "exact", "stockModule.GET /api/stock/{sku}")]
    assert caller_names(report) == {1: ["stockModule.GET /api/stock/{sku}"], 2: ["checkStock"], 3: ["NewOrder"]}
    check_snapshot("kotlin_vue_ktor_stock_level", render_markdown(report))


def test_service_method_reaches_the_post_client_and_its_kafka_topic(store) -> None:
    report = blast_radius(store, SymbolQuery("OrderService.place"))
    assert endpoint_rows(report) == [("POST", "/api/orders", 1, "exact", "OrderController.create")]
    assert caller_names(report) == {1: ["OrderController.create"], 2: ["createOrder"], 3: ["submit"], 4: ["NewOrder"]}
    assert [(t.name, [p.qualname for p in t.producers], t.consumers) for t in report.topics] == [
        ("orders.placed", ["OrderService.place"], ())]
    check_snapshot("kotlin_vue_service_place", render_markdown(report))


def test_an_extension_of_another_type_is_not_a_caller(store) -> None:
    # Invoice.label and Order.label share a name; only Order's is called: by OrderService.describe,
    # through the OrderKt facade by the Java repository, and by OrderService.place on a local bound to
    # a call's result (`val order = repo.save(...)`: what save returns, an Order; session 47).
    report = blast_radius(store, SymbolQuery("com.shop.model.label"))
    assert sorted(t.node.id.rsplit(".", 1)[-1] for t in report.targets) == ["label(Invoice)", "label(Order)"]
    assert caller_names(report)[1] == ["OrderRepository.save", "OrderService.describe", "OrderService.place"]
