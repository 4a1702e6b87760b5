"""Golden reports of URLs assembled elsewhere (issue 15 item 2): base URLs and route prefixes read
from configuration (fixtures ``tests/fixtures/base-urls-*``). Each test asserts exact Endpoint ids and
CALLS_HTTP / EXPOSES edges, with negatives (a settings attribute that is no string constant, an
attribute nothing declares, an environment variable no ``.env`` file of the package sets) that stay
unknown pieces; blast-radius markdown is compared with ``snapshots/<name>.md`` byte for byte, step times
masked; ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots (review the diff before committing)."""

from __future__ import annotations

from pathlib import Path


from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import FIXTURES, check_snapshot, endpoint_ids, golden_store_and_db, http_edges

_check = check_snapshot


def _http_edges(db: Path, repo: str) -> list[tuple[str, str, str, str | None, str | None]]:
    """``(kind, source without the repo, endpoint, service, url)`` of every EXPOSES / CALLS_HTTP edge."""
    return http_edges(db, f"{repo}:", ("service", "url"))


# ------------------------------------------------------------------------------ Python settings


python_settings = golden_store_and_db(FIXTURES / "base-urls-python", "base-urls-python")


def test_python_settings_prefix_and_base_url(python_settings) -> None:
    # include_router(prefix=settings.api_prefix), settings a local typed by get_app_settings() ->
    # AppSettings, api_prefix declared by its base class BaseAppSettings: "/api";
    # prefix=settings.version (an int) stays unknown; settings.inventory_url on the module-level
    # instance names the service; settings.no_such_url (declared nowhere) keeps only the known path.
    _, db = python_settings
    assert endpoint_ids(db) == [
        "endpoint:GET /api/orders",
        "endpoint:GET /api/orders/{}",
        "endpoint:GET /items",
        "endpoint:GET /{}/admin/stats",
        "endpoint:POST /v1/reservations",
    ]
    assert _http_edges(db, "base-urls-python") == [
        ("CALLS_HTTP", "app/inventory.missing(1)", "endpoint:GET /items", None, "{}/items"),
        ("CALLS_HTTP", "app/inventory.reserve(1)", "endpoint:POST /v1/reservations", "inventory-svc",
         "http://inventory-svc:8000/v1/reservations"),
        ("EXPOSES", "app/routes/admin.stats(0)", "endpoint:GET /{}/admin/stats", None, None),
        ("EXPOSES", "app/routes/orders.get_order(1)", "endpoint:GET /api/orders/{}", None, None),
        ("EXPOSES", "app/routes/orders.list_orders(0)", "endpoint:GET /api/orders", None, None),
    ]


def test_python_settings_prefix_blast_radius(python_settings) -> None:
    s, _ = python_settings
    report = blast_radius(s, SymbolQuery("load_orders"))
    assert sorted((h.http_method, h.path, h.hops) for h in report.endpoints) == [
        ("GET", "/api/orders", 1),
        ("GET", "/api/orders/{}", 1),
        ("GET", "/{}/admin/stats", 1),
    ]
    _check("base_urls_python_settings_prefix", render_markdown(report))


# ------------------------------------------------------------------------------ .env files


js_env = golden_store_and_db(FIXTURES / "base-urls-js", "base-urls-js")


def test_env_variables_from_the_package_env_files(js_env) -> None:
    # web/: VITE_API_URL from .env.development (before .env.example's), through a template literal and
    # through a constant; REACT_APP_API only .env.example sets; VITE_MISSING set nowhere and VITE_EMPTY
    # set empty stay unknown bases. admin/ has a package.json and no .env: the root's .env is not its.
    _, db = js_env
    assert endpoint_ids(db) == [
        "endpoint:GET /admin/users",
        "endpoint:GET /api/orders",
        "endpoint:GET /api/orders/{}",
        "endpoint:GET /legacy/orders",
    ]
    # an unknown base's known end "/orders" ends one exposed endpoint, GET /api/orders (not /api/orders/{}):
    # linked by its known end (acc65b, indexer/frameworks/known_ends.py); "{}/admin/users" ends none: as it was
    assert _http_edges(db, "base-urls-js") == [
        ("CALLS_HTTP", "admin/src/client.listUsers(0)", "endpoint:GET /admin/users", None, "{}/admin/users"),
        ("CALLS_HTTP", "web/src/api.fetchEmpty(0)", "endpoint:GET /api/orders", None, "{}/orders"),
        ("CALLS_HTTP", "web/src/api.fetchLegacy(0)", "endpoint:GET /legacy/orders", None, "/legacy/orders"),
        ("CALLS_HTTP", "web/src/api.fetchMissing(0)", "endpoint:GET /api/orders", None, "{}/orders"),
        ("CALLS_HTTP", "web/src/api.fetchOrder(1)", "endpoint:GET /api/orders/{}", "localhost",
         "http://localhost:8080/api/orders/{}"),
        ("CALLS_HTTP", "web/src/api.fetchOrders(0)", "endpoint:GET /api/orders", "localhost",
         "http://localhost:8080/api/orders"),
        ("EXPOSES", "server/index.GET /api/orders(2)", "endpoint:GET /api/orders", None, None),
        ("EXPOSES", "server/index.GET /api/orders/:id(2)", "endpoint:GET /api/orders/{}", None, None),
    ]


def test_env_base_url_blast_radius_crosses_to_the_front_end(js_env) -> None:
    s, _ = js_env
    report = blast_radius(s, SymbolQuery("loadOrders"))
    assert sorted((h.http_method, h.path, h.hops) for h in report.endpoints) == [
        ("GET", "/api/orders", 1),
        ("GET", "/api/orders/{}", 1),
    ]
    _check("base_urls_env_load_orders", render_markdown(report))


# ------------------------------------------------------------------------------ thin wrappers


js_wrappers = golden_store_and_db(FIXTURES / "base-urls-wrappers", "base-urls-wrappers")


def test_client_template_callers_become_http_calls(js_wrappers) -> None:
    # request(path) -> fetch(BASE + path) and Api.get(path) -> fetch(`${BASE}/${path}`) are client
    # templates: their own requests link nothing (no "/api{}" endpoint); request(ORDERS) and
    # api.get(`orders/${id}`) call GET /api/orders and GET /api/orders/{} via them; request(p) (a
    # variable) and format("/orders") (no HTTP request inside) call nothing.
    _, db = js_wrappers
    assert endpoint_ids(db) == ["endpoint:GET /api/orders", "endpoint:GET /api/orders/{}"]
    assert _http_edges(db, "base-urls-wrappers") == [
        ("CALLS_HTTP", "web/src/orders.getOrder(1)", "endpoint:GET /api/orders/{}", None, "/api/orders/{}"),
        ("CALLS_HTTP", "web/src/orders.listOrders(0)", "endpoint:GET /api/orders", None, "/api/orders"),
        ("EXPOSES", "server/index.GET /api/orders(2)", "endpoint:GET /api/orders", None, None),
        ("EXPOSES", "server/index.GET /api/orders/:id(2)", "endpoint:GET /api/orders/{}", None, None),
    ]


def test_client_template_blast_radius_reaches_the_wrapper_callers(js_wrappers) -> None:
    s, _ = js_wrappers
    report = blast_radius(s, SymbolQuery("loadOrders"))
    assert sorted((h.http_method, h.path, h.hops) for h in report.endpoints) == [
        ("GET", "/api/orders", 1),
        ("GET", "/api/orders/{}", 1),
    ]
    _check("base_urls_wrappers_load_orders", render_markdown(report))
