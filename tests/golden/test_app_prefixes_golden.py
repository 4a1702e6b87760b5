"""Golden reports of prefixes and base URLs set in one place (issue 15 item 2): NestJS
``setGlobalPrefix``, Angular interceptors, development-server proxies (Angular proxy JSON named by
``angular.json``, Vite ``server.proxy`` with a rewrite, Create React App's ``"proxy"``), axios instances
imported from another module (fixtures ``tests/fixtures/base-urls-nest``, ``base-urls-proxy``). Each
test asserts exact Endpoint ids and EXPOSES / CALLS_HTTP edges with their service and URL, with
negatives (a Nest app without a prefix, excluded routes, a request no proxy rule matches, a front end
without a proxy, a ``fetch`` the Angular interceptor does not see, an absolute URL); blast-radius
markdown is compared with ``snapshots/<name>.md`` byte for byte, step times masked
(``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import FIXTURES, check_snapshot, endpoint_ids, golden_store_and_db, http_edges, index_fixture


def _http_edges(db: Path, repo: str) -> list[tuple[str, str, str, str | None, str | None, str | None]]:
    """``(kind, source without the repo, endpoint, service, url, proxy)`` of every EXPOSES / CALLS_HTTP edge."""
    return http_edges(db, f"{repo}:", ("service", "url", "proxy"))


# ------------------------------------------------------------------------------ NestJS global prefix


nest = golden_store_and_db(FIXTURES / "base-urls-nest", "base-urls-nest")


def test_nest_global_prefix_applies_to_its_own_app_only(nest) -> None:
    # cats/ sets the prefix PREFIX = "api/v1" (a constant), excluding "health" and "metrics/(.*)";
    # dogs/ (another service folder) sets none: its routes stay unprefixed.
    _, db = nest
    assert endpoint_ids(db) == [
        "endpoint:GET /api/v1/cats/{}",
        "endpoint:GET /dogs",
        "endpoint:GET /health",
        "endpoint:GET /metrics/cats",
    ]
    assert _http_edges(db, "base-urls-nest") == [
        ("EXPOSES", "cats/src/cats.controller.CatsController.findOne(1)", "endpoint:GET /api/v1/cats/{}", "cats", None, None),
        ("EXPOSES", "cats/src/cats.controller.OpsController.health(0)", "endpoint:GET /health", "cats", None, None),
        ("EXPOSES", "cats/src/cats.controller.OpsController.metrics(0)", "endpoint:GET /metrics/cats", "cats", None, None),
        ("EXPOSES", "dogs/src/dogs.controller.DogsController.findAll(0)", "endpoint:GET /dogs", "dogs", None, None),
    ]


def test_nest_middleware_for_routes_is_under_the_global_prefix(nest) -> None:
    # consumer.apply(AuditMiddleware).forRoutes("cats"): Nest matches it under the global prefix.
    s, _ = nest
    report = blast_radius(s, SymbolQuery("AuditMiddleware.use"))
    assert [(h.http_method, h.path, h.through.node.id if h.through else None) for h in report.endpoints] == [
        ("GET", "/api/v1/cats/{}", "base-urls-nest:cats/src/audit.middleware.AuditMiddleware.use(3)"),
    ]


def test_nest_global_prefix_blast_radius(nest) -> None:
    s, _ = nest
    report = blast_radius(s, SymbolQuery("findCat"))
    assert sorted((h.http_method, h.path, h.hops) for h in report.endpoints) == [
        ("GET", "/api/v1/cats/{}", 1),
        ("GET", "/health", 1),
        ("GET", "/metrics/cats", 1),
    ]
    check_snapshot("app_prefixes_nest_find_cat", render_markdown(report))


# ------------------------------------------------------------------------------ proxies, interceptors


proxy = golden_store_and_db(FIXTURES / "base-urls-proxy", "base-urls-proxy")


def test_proxies_and_interceptors_name_the_backend(proxy) -> None:
    # web-ng: interceptor environment.apiUrl ("/api") + req.url, then src/proxy.local.json (named by
    # angular.json) /api -> localhost:8081, compose-published by orders-api; an https URL is left alone.
    # web-admin: a functional interceptor `${apiUrl}/${req.url}` with an absolute apiUrl (billing's port);
    # its fetch() is no HttpClient request: untouched; ReportsService calls this.api.get("invoices") on
    # an injected ApiService whose get(path) is a client template: interceptor applied too. web-vite: /billing -> http://billing-api:8080
    # rewritten ^/billing -> /api, reached through an axios instance imported from ./api (named and
    # default import); /static is under no rule. web-cra: package.json "proxy" (billing's port).
    # web-plain: no proxy: its relative URL names no service.
    _, db = proxy
    assert endpoint_ids(db) == [
        "endpoint:GET /api/health",
        "endpoint:GET /api/invoices",
        "endpoint:GET /api/orders",
        "endpoint:GET /invoices",
        "endpoint:GET /static/logo.svg",
    ]
    assert _http_edges(db, "base-urls-proxy") == [
        ("CALLS_HTTP", "web-admin/src/app/invoices.service.InvoicesService.invoices(0)", "endpoint:GET /api/invoices",
         "billing-api", "http://localhost:8082/api/invoices", None),
        ("CALLS_HTTP", "web-admin/src/app/invoices.service.InvoicesService.viaFetch(0)", "endpoint:GET /invoices",
         None, "/invoices", None),
        ("CALLS_HTTP", "web-admin/src/app/reports.service.ReportsService.invoiceReport(0)", "endpoint:GET /api/invoices",
         "billing-api", "http://localhost:8082/api/invoices", None),
        ("CALLS_HTTP", "web-cra/src/invoices.craInvoices(0)", "endpoint:GET /api/invoices", "billing-api",
         "http://localhost:8082/api/invoices", "web-cra/package.json"),
        ("CALLS_HTTP", "web-ng/src/app/orders.service.OrdersService.external(0)", "endpoint:GET /api/health",
         "status.example.com", "https://status.example.com/api/health", None),
        ("CALLS_HTTP", "web-ng/src/app/orders.service.OrdersService.health(0)", "endpoint:GET /api/health",
         "orders-api", "http://localhost:8081/api/health", "web-ng/src/proxy.local.json"),
        ("CALLS_HTTP", "web-ng/src/app/orders.service.OrdersService.orders(0)", "endpoint:GET /api/orders",
         "orders-api", "http://localhost:8081/api/orders", "web-ng/src/proxy.local.json"),
        ("CALLS_HTTP", "web-plain/src/status.plainHealth(0)", "endpoint:GET /api/health", None, "/api/health", None),
        ("CALLS_HTTP", "web-vite/src/invoices.billingUp(0)", "endpoint:GET /api/health", "billing-api",
         "http://billing-api:8080/api/health", "web-vite/vite.config.ts"),
        ("CALLS_HTTP", "web-vite/src/invoices.loadInvoices(0)", "endpoint:GET /api/invoices", "billing-api",
         "http://billing-api:8080/api/invoices", "web-vite/vite.config.ts"),
        ("CALLS_HTTP", "web-vite/src/invoices.unproxied(0)", "endpoint:GET /static/logo.svg", None,
         "/static/logo.svg", None),
        ("EXPOSES", "billing/index.GET /api/health(2)", "endpoint:GET /api/health", "billing-api", None, None),
        ("EXPOSES", "billing/index.GET /api/invoices(2)", "endpoint:GET /api/invoices", "billing-api", None, None),
        ("EXPOSES", "orders/index.GET /api/health(2)", "endpoint:GET /api/health", "orders-api", None, None),
        ("EXPOSES", "orders/index.GET /api/orders(2)", "endpoint:GET /api/orders", "orders-api", None, None),
    ]


def test_a_proxied_url_reaches_only_its_backend(proxy) -> None:
    # orders' /api/health: the Angular client proxied to orders-api and the unproxied web-plain client
    # (ambiguous: both services serve the route); web-vite's billingUp goes to billing-api: not followed.
    s, _ = proxy
    report = blast_radius(s, SymbolQuery("ordersStatus"))
    reached = sorted((r.node.qualname, r.ambiguous) for hop in report.hops for r in hop)
    assert reached == [
        ("GET /api/health", ()),
        ("OrdersService.health", ()),
        ("plainHealth", ("billing-api", "orders-api")),
    ]
    check_snapshot("app_prefixes_proxy_orders_status", render_markdown(report))


def test_the_other_backend_gets_its_own_clients(proxy) -> None:
    s, _ = proxy
    report = blast_radius(s, SymbolQuery("billingStatus"))
    reached = sorted((r.node.qualname, r.ambiguous) for hop in report.hops for r in hop)
    assert reached == [
        ("GET /api/health", ()),
        ("billingUp", ()),
        ("plainHealth", ("billing-api", "orders-api")),
    ]


# ------------------------------------------------------------------------------ apps mounted by a parent app


def test_apps_mounted_under_a_prefix(tmp_path_factory: pytest.TempPathFactory) -> None:
    # Express app.use("/shop", sub) of an imported express() app; werkzeug DispatcherMiddleware(
    # site.wsgi_app, {"/admin": admin}) of an imported Flask app (a call value and a non-string key:
    # nothing); a Starlette app whose routes list (a module-level name) holds Routes (a function: GET;
    # an HTTPEndpoint class: its get; methods=["post"]), Mount(routes=[...]) nested twice and
    # Mount("/api", app=api_app) of the imported FastAPI app, which itself mounts subapp under /v1
    # (StaticFiles is no app: nothing): subapp's route is reached only through both mounts.
    # WebSocketRoute is no HTTP route.
    db = tmp_path_factory.mktemp("golden") / "mounted-apps.db"
    s = index_fixture(FIXTURES / "mounted-apps", db, "mounted-apps")
    s.close()
    assert endpoint_ids(db) == [
        "endpoint:GET /", "endpoint:GET /admin/deep/x", "endpoint:GET /admin/stats", "endpoint:GET /admin/users",
        "endpoint:GET /api/v1/items", "endpoint:GET /hello", "endpoint:GET /items", "endpoint:GET /shop/orders",
        "endpoint:POST /upload",
    ]
    assert _http_edges(db, "mounted-apps") == [
        ("EXPOSES", "node/sub.GET /orders(2)", "endpoint:GET /shop/orders", "node-shop", None, None),
        ("EXPOSES", "py/admin.users(0)", "endpoint:GET /admin/users", "py", None, None),
        ("EXPOSES", "py/star.Items.get(1)", "endpoint:GET /items", "py", None, None),
        ("EXPOSES", "py/star.hello(1)", "endpoint:GET /admin/deep/x", "py", None, None),
        ("EXPOSES", "py/star.hello(1)", "endpoint:GET /admin/stats", "py", None, None),
        ("EXPOSES", "py/star.hello(1)", "endpoint:GET /hello", "py", None, None),
        ("EXPOSES", "py/star.hello(1)", "endpoint:POST /upload", "py", None, None),
        ("EXPOSES", "py/sub.items(0)", "endpoint:GET /api/v1/items", "py", None, None),
        ("EXPOSES", "py/wsgi.home(0)", "endpoint:GET /", "py", None, None),
    ]
