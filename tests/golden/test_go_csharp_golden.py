"""Golden blast-radius report across Go and C# (tests/fixtures/go-csharp-shop, issue 21): a Go
inventory service (gin routes under a group, handlers on a struct whose ``store.Store`` field is an
interface satisfied implicitly by ``memStore`` and, through embedding, ``cachedStore``) called over
HTTP by a C# orders service (an ``[ApiController]`` with ``[Route("api/[controller]")]``, an
injected ``IOrderService``, an ``HttpClient`` typed client whose URLs build on a ``const``). A change
to the Go store method reaches the Go endpoints through the interface (``inferred``), then the C#
client methods calling them, the C# service and the C# endpoints; ``Audit.Level``, named like the
interface method on a type that does not satisfy it, is no target's caller and reaches nothing.
``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshot (review the diff)."""

from __future__ import annotations

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import FIXTURES, caller_names, check_snapshot, endpoint_rows, index_fixture


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURES / "go-csharp-shop", tmp_path_factory.mktemp("golden") / "gocs.db", "go-csharp-shop")
    yield s
    s.close()


def test_go_store_change_reaches_the_csharp_service_over_http(store) -> None:
    report = blast_radius(store, SymbolQuery("memStore.Level"))
    assert endpoint_rows(report) == [
        ("GET", "/api/stock/{}", 1, "exact", "handler.getStock"),
        ("POST", "/api/stock/{}/reserve", 2, "inferred", "handler.reserve"),
        ("GET", "/api/orders/{}/available", 4, "inferred", "OrdersController.Available"),
        ("POST", "/api/orders", 5, "inferred", "OrdersController.Create"),
    ]
    assert caller_names(report) == {
        1: ["handler.getStock", "memStore.Reserve"],
        2: ["InventoryClient.Level", "handler.reserve"],
        3: ["InventoryClient.Reserve", "OrderService.Available"],
        4: ["OrderService.Place", "OrdersController.Available"],
        5: ["OrdersController.Create"],
    }
    check_snapshot("go_csharp_mem_store_level", render_markdown(report))


def test_a_type_not_satisfying_the_interface_reaches_nothing(store) -> None:
    report = blast_radius(store, SymbolQuery("Audit.Level"))
    assert endpoint_rows(report) == []
    assert caller_names(report) == {}


def test_csharp_service_change_reaches_only_the_csharp_endpoint(store) -> None:
    report = blast_radius(store, SymbolQuery("OrderService.Place"))
    # the target includes the interface method it implements, which the controller calls exactly
    assert endpoint_rows(report) == [("POST", "/api/orders", 1, "exact", "OrdersController.Create")]
