"""Golden reports of interface-declared HTTP contracts (issue 15 item 1, fixture
``tests/fixtures/api-first-exchange``): a Spring ``@HttpExchange`` interface is the server contract of
the ``@RestController`` implementing it (EXPOSES from the controller's methods) and the client of code
calling it through a proxy (CALLS_HTTP from the interface methods); a ``@FeignClient`` interface
extending a generated ``PetsApi`` (openapi-generator's ``spring-cloud`` library) calls the spec's
operations, addressed to the service its annotation names (``url`` is an unresolved placeholder here,
so ``name``). Negatives: a class implementing the interface without being a controller, an exchange
interface nobody implements (client only), a ``LocalClient`` class whose method is named like an
operation, an operation the spec does not declare."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import FIXTURES, check_snapshot, index_fixture

REPO = "api-first-exchange"
J = "src/main/java/shop"


@pytest.fixture(scope="module")
def exchange(tmp_path_factory: pytest.TempPathFactory):
    db = tmp_path_factory.mktemp("golden") / "exchange.db"
    s = index_fixture(FIXTURES / REPO, db, REPO)
    yield s, db
    s.close()


def _http_edges(db: Path) -> list[tuple[str, str, str, str | None, str | None, str | None]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("select kind, src, dst, props from edges where kind in ('EXPOSES', 'CALLS_HTTP')").fetchall()
    out = []
    for kind, src, dst, props in rows:
        p = json.loads(props or "{}")
        out.append((kind, src.removeprefix(f"{REPO}:{J}/"), dst, p.get("framework"), p.get("operation_id"),
                    p.get("service")))
    return sorted(out)


def test_exchange_interfaces_and_feign_api_clients(exchange) -> None:
    _, db = exchange
    assert _http_edges(db) == [
        ("CALLS_HTTP", "api/OrdersApi.OrdersApi.createOrder(String)", "endpoint:POST /api/orders", "httpexchange", None, None),
        ("CALLS_HTTP", "api/OrdersApi.OrdersApi.getOrder(long)", "endpoint:GET /api/orders/{}", "httpexchange", None, None),
        ("CALLS_HTTP", "api/StockApi.StockApi.stock(String)", "endpoint:GET /stock/{}", "httpexchange", None, None),
        ("CALLS_HTTP", "client/Adoption.Adoption.available()", "endpoint:GET /v1/pets", "openapi-feign", "listPets",
         "pets-service"),
        ("CALLS_HTTP", "client/Adoption.Adoption.one(String)", "endpoint:GET /v1/pets/{}", "openapi-feign",
         "showPetById", "pets-service"),
        ("EXPOSES", "web/OrdersController.OrdersController.createOrder(String)", "endpoint:POST /api/orders",
         "http-exchange", None, None),
        ("EXPOSES", "web/OrdersController.OrdersController.getOrder(long)", "endpoint:GET /api/orders/{}",
         "http-exchange", None, None),
    ]


def test_exchange_blast_radius_reaches_the_proxy_callers(exchange) -> None:
    s, _ = exchange
    report = blast_radius(s, SymbolQuery("OrderStore.find"))
    assert [(h.http_method, h.path, h.hops) for h in report.endpoints] == [("GET", "/api/orders/{}", 1)]
    reached = sorted(r.node.qualname for hop in report.hops for r in hop)
    assert reached == ["Checkout.show", "OrdersApi.getOrder", "OrdersController.getOrder"]
    check_snapshot("exchange_order_store_find", render_markdown(report))
