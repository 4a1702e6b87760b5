"""Golden blast-radius reports through Python cross-cutting code (issue 14 item 2): FastAPI
dependencies (route, router and app level, sub-dependencies, ``Annotated`` aliases) and
``@app.middleware``, Flask ``before_request`` hooks on a blueprint and ``before_app_request``, Django
``MIDDLEWARE`` and view decorators (fixtures ``tests/fixtures/wrappers-{fastapi,flask,django}``).
Each test asserts the exact endpoint list (method, path, hops, the wrapper it is reached through),
so the endpoints a wrapper does not run for are absent; the markdown is compared with
``snapshots/<name>.md`` byte for byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the
snapshots (review the diff before committing)."""

from __future__ import annotations

from pathlib import Path


from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import check_snapshot, golden_store

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


fastapi_store = golden_store(FIXTURES / "wrappers-fastapi", "wrappers-fastapi")
flask_store = golden_store(FIXTURES / "wrappers-flask", "wrappers-flask")
django_store = golden_store(FIXTURES / "wrappers-django", "wrappers-django")


_check = check_snapshot


def _endpoints(report) -> list[tuple[str, str, int, str | None]]:
    """``(method, path, hops, name of the wrapper it is reached through or None)`` per endpoint."""
    return [(h.http_method, h.path, h.hops, h.through.node.name if h.through else None) for h in report.endpoints]


# ------------------------------------------------------------------------------------------ FastAPI


def test_fastapi_route_dependency_reaches_that_route_only(fastapi_store) -> None:
    # write_audit <- audit_delete, a dependency of DELETE /orders/{id} alone
    report = blast_radius(fastapi_store, SymbolQuery("write_audit"))
    assert _endpoints(report) == [("DELETE", "/orders/{}", 1, "audit_delete")]
    _check("wrappers_fastapi_route_dependency", render_markdown(report))


def test_fastapi_router_dependency_reaches_that_routers_endpoints_only(fastapi_store) -> None:
    # check_role <- require_admin, APIRouter(dependencies=...) of /items: no /orders, no /health
    report = blast_radius(fastapi_store, SymbolQuery("check_role"))
    assert _endpoints(report) == [("GET", "/items", 1, "require_admin"), ("POST", "/items", 1, "require_admin")]
    _check("wrappers_fastapi_router_dependency", render_markdown(report))


def test_fastapi_sub_dependency_through_an_annotated_alias(fastapi_store) -> None:
    # open_session <- get_db <- Depends(get_db) in get_current_user <- CurrentUser alias, a route
    # dependency of GET /orders/{id} and (through require_admin) a router dependency of /items
    report = blast_radius(fastapi_store, SymbolQuery("open_session"))
    assert _endpoints(report) == [
        ("GET", "/orders/{}", 3, "CurrentUser"),
        ("GET", "/items", 4, "require_admin"),
        ("POST", "/items", 4, "require_admin"),
    ]
    _check("wrappers_fastapi_sub_dependency", render_markdown(report))


def test_fastapi_http_middleware_reaches_every_endpoint(fastapi_store) -> None:
    report = blast_radius(fastapi_store, SymbolQuery("record_timing"))
    assert sorted(_endpoints(report)) == [
        ("DELETE", "/orders/{}", 1, "timing"),
        ("GET", "/health", 1, "timing"),
        ("GET", "/items", 1, "timing"),
        ("GET", "/orders/public", 1, "timing"),
        ("GET", "/orders/{}", 1, "timing"),
        ("POST", "/items", 1, "timing"),
    ]


# ------------------------------------------------------------------------------------------ Flask


def test_flask_blueprint_before_request_reaches_that_blueprint_only(flask_store) -> None:
    # check_session <- require_login, @admin_bp.before_request: no /posts, no /health
    report = blast_radius(flask_store, SymbolQuery("check_session"))
    assert sorted(_endpoints(report)) == [
        ("GET", "/admin/stats", 1, "require_login"),
        ("GET", "/admin/users", 1, "require_login"),
    ]
    _check("wrappers_flask_blueprint_hook", render_markdown(report))


def test_flask_before_app_request_reaches_every_endpoint(flask_store) -> None:
    report = blast_radius(flask_store, SymbolQuery("detect_locale"))
    assert sorted(_endpoints(report)) == [
        ("GET", "/admin/stats", 1, "load_locale"),
        ("GET", "/admin/users", 1, "load_locale"),
        ("GET", "/health", 1, "load_locale"),
        ("GET", "/posts", 1, "load_locale"),
        ("GET", "/posts/{}", 1, "load_locale"),
    ]


def test_flask_view_decorator_wraps_its_view_only(flask_store) -> None:
    # login_required's own body runs once, when it decorates the view (the decorated view calls it):
    # only its nested `wrapped` WRAPS the endpoint, so the endpoint is one hop away, through the view
    report = blast_radius(flask_store, SymbolQuery("login_required"))
    assert _endpoints(report) == [("GET", "/admin/stats", 1, None)]


def test_flask_code_called_from_a_decorators_inner_function(flask_store) -> None:
    # record_view <- login_required.wrapped, the function the decorator returns, that runs per request
    report = blast_radius(flask_store, SymbolQuery("record_view"))
    assert _endpoints(report) == [("GET", "/admin/stats", 1, "wrapped")]
    _check("wrappers_flask_decorator_inner", render_markdown(report))


# ------------------------------------------------------------------------------------------ Django


def test_django_middleware_reaches_every_endpoint(django_store) -> None:
    # log_request <- AuditMiddleware.__call__, listed in settings.MIDDLEWARE as a dotted path; sorted:
    # "*" before "GET"
    report = blast_radius(django_store, SymbolQuery("log_request"))
    assert sorted(_endpoints(report)) == [
        ("*", "/about", 1, "__call__"),
        ("*", "/polls", 1, "__call__"),
        ("*", "/polls/{}", 1, "__call__"),
        ("*", "/polls/{}/results", 1, "__call__"),
        ("GET", "/polls/stats", 1, "__call__"),
    ]
    _check("wrappers_django_middleware", render_markdown(report))


def test_django_function_middleware_factory_reaches_every_endpoint(django_store) -> None:
    # log_timing <- timing_middleware.middleware, the per-request function the factory returns
    report = blast_radius(django_store, SymbolQuery("log_timing"))
    assert sorted(_endpoints(report)) == [
        ("*", "/about", 1, "middleware"),
        ("*", "/polls", 1, "middleware"),
        ("*", "/polls/{}", 1, "middleware"),
        ("*", "/polls/{}/results", 1, "middleware"),
        ("GET", "/polls/stats", 1, "middleware"),
    ]


def test_django_view_decorators_in_the_urlconf_and_on_a_class_based_view(django_store) -> None:
    # @staff_only on a view of urls.py itself, and method_decorator(staff_only) on views.Stats
    report = blast_radius(django_store, SymbolQuery("staff_only"))
    assert sorted(_endpoints(report)) == [("*", "/polls/{}/results", 0, "staff_only"), ("GET", "/polls/stats", 0, "staff_only")]


def test_django_decorator_factory_on_a_view_of_another_file(django_store) -> None:
    # count_hit <- track("detail").decorator.wrapped on views.detail, routed from polls/urls.py only
    report = blast_radius(django_store, SymbolQuery("count_hit"))
    assert _endpoints(report) == [("*", "/polls/{}", 1, "wrapped")]
    _check("wrappers_django_view_decorator", render_markdown(report))
