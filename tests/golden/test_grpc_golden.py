"""Golden blast-radius reports across gRPC (tests/fixtures/grpc-shop, issue 15 item 5): a ``.proto``
per service (``shop.v1.OrderService``, ``billing.v1.BillingService``, and two ``InventoryService`` of
different packages), a Java server (``OrderServiceImplBase``), a Python servicer, a Node
``addService`` with a named and an inline handler, and clients in the three languages. A change
under a server method reaches the ``GRPC package.Service/Rpc`` endpoint it exposes and the stubs
calling that rpc, in any language; a method named like an rpc on a class that is no servicer exposes
nothing; a stub of another service with a method of the same name is not a caller. The markdown is
compared with ``snapshots/<name>.md`` byte for byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1``
rewrites the snapshots (review the diff before committing)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown, report_json
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.golden.harness import caller_names, check_snapshot, endpoint_rows, golden_indexed

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "grpc-shop"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


indexed = golden_indexed(FIXTURE, "grpc-shop")


@pytest.fixture(scope="module")
def store(indexed):
    return indexed[0]


_check = check_snapshot


def test_index_summary_counts_grpc_links_and_the_ambiguous_stub(indexed) -> None:
    _, report = indexed
    grpc = {k: v for k, v in report.links.items() if "grpc" in k}
    # 7 server methods (Java 2, Python 2, Node 3) and 7 stub calls (Java 3, Python 3, Node 1); the
    # Node InventoryService client names a service two packages declare: linked to none, counted.
    assert grpc == {"exposes_grpc": 7, "calls_grpc": 7, "unlinked_grpc_ambiguous": 1}


def test_java_servicer_method_reaches_its_rpc_and_the_java_stub(store) -> None:
    report = blast_radius(store, SymbolQuery("OrderStore.find"))
    assert endpoint_rows(report) == [("GRPC", "shop.v1.OrderService/GetOrder", 1, "exact", "OrderServiceImpl.getOrder")]
    # OrderReport.getOrder is named like the rpc but its class is no servicer: a caller, no endpoint.
    assert caller_names(report) == {1: ["OrderReport.getOrder", "OrderServiceImpl.getOrder"], 2: ["CheckoutClient.show"]}
    assert [(p.node.qualname, p.kinds) for p in report.entry_points] == [("OrderServiceImpl.getOrder", ("grpc",))]
    data = report_json(report)
    assert [(e["http_method"], e["path"], e["certainty"]) for e in data["endpoints"]] == [
        ("GRPC", "shop.v1.OrderService/GetOrder", "exact")]
    _check("grpc_java_store_find", render_markdown(report))


def test_python_servicer_reaches_both_rpcs_and_the_clients_in_two_languages(store) -> None:
    report = blast_radius(store, SymbolQuery("lookup"))
    assert endpoint_rows(report) == [
        ("GRPC", "shop.v1.OrderService/GetOrder", 1, "exact", "OrderServicer.GetOrder"),
        ("GRPC", "shop.v1.OrderService/ListOrders", 2, "exact", "OrderServicer.ListOrders"),
    ]
    assert caller_names(report) == {1: ["OrderServicer.GetOrder", "Reports.GetOrder", "history"],
                                2: ["CheckoutClient.show", "OrderServicer.ListOrders"],
                                3: ["OrderGateway.recent"]}
    _check("grpc_python_lookup", render_markdown(report))


def test_node_inline_handler_is_reached_by_stubs_of_that_service_only(store) -> None:
    report = blast_radius(store, SymbolQuery("cancelInStore"))
    assert endpoint_rows(report) == [
        ("GRPC", "shop.v1.OrderService/CancelOrder", 1, "exact", "GRPC OrderService/CancelOrder")]
    # BillingService.CancelOrder has the same name: CheckoutClient.refund and Python refund() call that
    # one, not OrderService's.
    assert caller_names(report) == {1: ["GRPC OrderService/CancelOrder"], 2: ["CheckoutClient.cancel", "cancelFromNode"]}
    _check("grpc_node_cancel_in_store", render_markdown(report))


def test_service_matched_by_name_only_says_so(store) -> None:
    report = blast_radius(store, SymbolQuery("recordCharge"))
    assert endpoint_rows(report) == [("GRPC", "billing.v1.BillingService/Charge", 1, "name", "chargeCard")]
    assert caller_names(report) == {1: ["chargeCard"], 2: ["charge"]}
    assert [(r.node.qualname, r.certainty) for r in report.hops[1]] == [("charge", "name")]
    _check("grpc_name_certainty_record_charge", render_markdown(report))


def test_ambiguous_stub_calls_nothing(store) -> None:
    report = blast_radius(store, SymbolQuery("reserve"))
    assert report.endpoints == ()
    assert report.hops == ()


def test_stub_in_another_repository_reaches_the_server_through_its_own_copy_of_the_proto(tmp_path: Path) -> None:
    for repo, code in (("orders-java", "java"), ("shop-python", "python")):  # each service ships the .proto
        shutil.copytree(FIXTURE / "proto", tmp_path / repo / "proto")
        shutil.copytree(FIXTURE / code, tmp_path / repo / code)
    s = EmbeddedStore(tmp_path / "two.db")
    try:
        for repo in ("orders-java", "shop-python"):
            index_repository(tmp_path / repo, s, s, IndexOptions(repo=repo, jobs=1))
        report = blast_radius(s, SymbolQuery("lookup"))
        assert [(h.path, h.repo, h.hops) for h in report.endpoints] == [
            ("shop.v1.OrderService/GetOrder", "shop-python", 1), ("shop.v1.OrderService/ListOrders", "shop-python", 2)]
        assert [(r.node.qualname, r.node.repo) for r in report.hops[1]] == [
            ("CheckoutClient.show", "orders-java"), ("OrderServicer.ListOrders", "shop-python")]
        assert sorted(sv.repo for sv in report.services) == ["orders-java", "shop-python"]
    finally:
        s.close()
