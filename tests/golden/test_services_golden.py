"""Golden blast-radius reports on one repository holding several services in folders
(tests/fixtures/monorepo, issue 15 item 3): a Spring service (``billing/``), a FastAPI one
(``orders/``), two Express ones (``notify/``, ``admin/``), two Django projects (``accounts/``,
``reports/``), each with a Dockerfile, a docker-compose.yml naming them (``billing-api``,
``orders-api``, ``notify``, ``admin``, ``accounts``, ``reports``, ``web``), and a React front end
(``web/``) calling them by compose host names, by a folder name (``http://billing/...``) and by
relative URLs.

Each endpoint is named by its service, a client whose host names a service reaches only that
service's endpoints (every service exposes ``/health``), a relative URL reaches every service exposing
the route and is marked ambiguous, an Express ``app.use`` of ``notify`` does not wrap ``admin``'s
routes, and the Django ``MIDDLEWARE`` of ``accounts`` does not wrap ``reports``' (before: it did, and
every endpoint of the repository was named ``billing``, the one Spring module's name). The markdown is compared with ``snapshots/<name>.md`` byte for byte, step times masked;
``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots (review the diff before committing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown, report_json
from tests.golden.harness import check_snapshot, index_fixture

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "monorepo"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURE, tmp_path_factory.mktemp("golden") / "monorepo.db", "monorepo")
    yield s
    s.close()


_check = check_snapshot


def _endpoints(report) -> list[tuple[str, str, str, str | None, int, str | None]]:
    return [(h.http_method, h.path, h.repo, h.service, h.hops, h.through.node.name if h.through else None)
            for h in report.endpoints]


def _callers(report) -> list[tuple[str, int, tuple[str, ...]]]:
    return [(r.node.qualname, r.hops, r.ambiguous) for hop in report.hops for r in hop]


def test_every_endpoint_names_its_service(store) -> None:
    ids = ["endpoint:* /accounts/profile", "endpoint:* /reports/monthly", "endpoint:GET /admin/stats", "endpoint:GET /api/invoices/{}", "endpoint:GET /api/orders/{}",
           "endpoint:GET /health", "endpoint:POST /api/notify"]
    got = sorted((e.dst, e.props.get("service"), e.props.get("framework"))
                 for es in store.incoming(ids, ["EXPOSES"]).values() for e in es)
    assert got == [
        ("endpoint:* /accounts/profile", "accounts", "django"),
        ("endpoint:* /reports/monthly", "reports", "django"),
        ("endpoint:GET /admin/stats", "admin", "express"),
        ("endpoint:GET /api/invoices/{}", "billing-api", "spring"),
        ("endpoint:GET /api/orders/{}", "orders-api", "fastapi"),
        ("endpoint:GET /health", "billing-api", "spring"),
        ("endpoint:GET /health", "notify", "express"),
        ("endpoint:GET /health", "orders-api", "fastapi"),
        ("endpoint:POST /api/notify", "notify", "express"),
    ]
    calls = sorted((e.props.get("url"), e.props.get("service"))
                   for es in store.incoming(ids, ["CALLS_HTTP"]).values() for e in es)
    assert sorted(set(calls)) == [
        ("/api/notify", None),
        ("/health", None),
        ("http://billing-api:8080/api/invoices/{}", "billing-api"),
        ("http://billing-api:8080/health", "billing-api"),
        ("http://billing/api/invoices/{}", "billing-api"),
        ("http://localhost:5173/api/orders/{}", "localhost"),
        ("http://localhost:8080/health", "billing-api"),
        ("http://orders-api/api/orders/{}", "orders-api"),
        ("http://orders-api/health", "orders-api"),
    ]


def test_host_named_client_reaches_only_its_service_health(store) -> None:
    # orders' /health: ordersUp (http://orders-api/health) and anyUp (relative, ambiguous); billingUp
    # (http://billing-api:8080/health, the same endpoint node) is not followed
    report = blast_radius(store, SymbolQuery("store.healthy"))
    assert _endpoints(report) == [("GET", "/health", "monorepo", "orders-api", 1, None)]
    assert _callers(report) == [
        ("health", 1, ()),
        ("ordersUp", 2, ()),
        ("anyUp", 2, ("billing-api", "notify", "orders-api")),
    ]
    # and not localBillingUp (http://localhost:8080: the port compose publishes billing-api on)
    assert report.truncated == ("2 HTTP client calls to another service's endpoint of the same path not followed "
                                "(service map; host billing-api)",)  # monorepo names its services: no mapping
    assert report_json(report)["hops"][1]["callers"][1]["ambiguous"] == ["billing-api", "notify", "orders-api"]
    _check("services_orders_health", render_markdown(report))


def test_spring_service_health_reached_by_its_compose_name_only(store) -> None:
    report = blast_radius(store, SymbolQuery("InvoiceService.ping"))
    assert _endpoints(report) == [("GET", "/health", "monorepo", "billing-api", 1, None)]
    assert _callers(report) == [
        ("BillingController.health", 1, ()),
        ("billingUp", 2, ()),
        ("anyUp", 2, ("billing-api", "notify", "orders-api")),
        ("localBillingUp", 2, ()),
    ]


def test_folder_name_host_addresses_the_compose_service(store) -> None:
    # http://billing/... (the folder's name, also spring.application.name) is billing-api's
    report = blast_radius(store, SymbolQuery("InvoiceService.find"))
    assert _endpoints(report) == [("GET", "/api/invoices/{}", "monorepo", "billing-api", 1, None)]
    assert _callers(report) == [
        ("BillingController.invoice", 1, ()),
        ("loadInvoice", 2, ()),
        ("loadInvoiceByFolderName", 2, ()),
    ]
    assert report.truncated == ()
    _check("services_billing_invoice", render_markdown(report))


def test_app_wide_middleware_stops_at_its_service_folder(store) -> None:
    # notify's app.use(audit) wraps notify's two routes, not admin's GET /admin/stats (same framework)
    report = blast_radius(store, SymbolQuery("audit.record"))
    assert sorted(_endpoints(report)) == [
        ("GET", "/health", "monorepo", "notify", 1, "audit"),
        ("POST", "/api/notify", "monorepo", "notify", 1, "audit"),
    ]
    assert [w.application for w in report.wrappers] == ["notify"]
    assert _callers(report) == [
        ("audit", 1, ()),
        ("anyUp", 2, ("billing-api", "notify", "orders-api")),
        ("notifyUser", 2, ()),
    ]
    _check("services_notify_middleware", render_markdown(report))


def test_django_middleware_stops_at_its_project_folder(store) -> None:
    # accounts' MIDDLEWARE SessionAudit wraps accounts' route, not the reports project's
    report = blast_radius(store, SymbolQuery("note_session"))
    assert _endpoints(report) == [("*", "/accounts/profile", "monorepo", "accounts", 1, "__call__")]
    assert [(w.node.qualname, w.scopes, w.application) for w in report.wrappers] == [
        ("SessionAudit.__call__", ("app",), "accounts")]
    _check("services_django_middleware", render_markdown(report))


def test_localhost_url_on_an_unpublished_port_is_followed_like_a_relative_one(store) -> None:
    # http://localhost:5173 names no service the repository publishes: the client is followed
    report = blast_radius(store, SymbolQuery("find_order"))
    assert _endpoints(report) == [("GET", "/api/orders/{}", "monorepo", "orders-api", 1, None)]
    assert _callers(report) == [("get_order", 1, ()), ("loadOrder", 2, ()), ("devOrder", 2, ())]
