"""Golden blast-radius reports through JavaScript / TypeScript cross-cutting code
(tests/fixtures/wrappers-js): an Express application whose API router runs a token check and an
inline audit middleware (``router.use``) and a Nest application with a method guard and a
controller guard; an Express application whose per-route middleware is a value built by a library
call handed a function of the repository (``auth.required = jwt({ getToken })``). Code called only
from that middleware or guard reaches the endpoints it runs for, and not those of another router or
controller (issue 14: before, "0 endpoints"). The markdown is
compared with ``snapshots/<name>.md`` byte for byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1``
rewrites the snapshots (review the diff before committing)."""

from __future__ import annotations

from pathlib import Path


from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from tests.golden.harness import check_snapshot, golden_store

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures" / "wrappers-js"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


express = golden_store(FIXTURES / "express", "express-app")
express_values = golden_store(FIXTURES / "express-values", "express-values-app")
nest = golden_store(FIXTURES / "nest", "nest-app")


_check = check_snapshot


def _endpoints(report) -> list[tuple[str, str, int, str | None, str | None]]:
    return [(h.http_method, h.path, h.hops, h.through.node.qualname if h.through else None,
             h.through.kind if h.through else None) for h in report.endpoints]


def test_token_check_called_from_router_use_middleware_reaches_that_routers_endpoints(express) -> None:
    report = blast_radius(express, SymbolQuery("verifyToken"))
    assert _endpoints(report) == [
        ("GET", "/api/orders", 1, "requireUser", "middleware"),
        ("DELETE", "/api/orders/{}", 1, "requireUser", "middleware"),
    ]  # not GET /admin/stats (another router) nor GET /health (the application's own route)
    _check("express_router_use_verify_token", render_markdown(report))


def test_service_called_from_inline_router_use_middleware(express) -> None:
    report = blast_radius(express, SymbolQuery("audit"))
    assert _endpoints(report) == [
        ("GET", "/api/orders", 1, "middleware router.use", "middleware"),
        ("DELETE", "/api/orders/{}", 1, "middleware router.use", "middleware"),
    ]
    _check("express_inline_middleware_audit", render_markdown(report))


def test_service_of_one_inline_handler_is_not_widened_by_middleware(express) -> None:
    report = blast_radius(express, SymbolQuery("deleteOrder"))
    assert _endpoints(report) == [("DELETE", "/api/orders/{}", 1, None, None)]


def test_method_called_only_from_a_nest_method_guard(nest) -> None:
    report = blast_radius(nest, SymbolQuery("checkJwt"))
    assert _endpoints(report) == [("GET", "/cats", 1, "JwtGuard.canActivate", "guard")]  # not POST /cats, /dogs, /birds
    _check("nest_method_guard_check_jwt", render_markdown(report))


def test_method_called_only_from_a_nest_controller_guard(nest) -> None:
    report = blast_radius(nest, SymbolQuery("hasRole"))
    assert sorted(_endpoints(report)) == [
        ("GET", "/dogs", 1, "RolesGuard.canActivate", "guard"),
        ("GET", "/dogs/{}", 1, "RolesGuard.canActivate", "guard"),
    ]  # not GET /birds: another controller of the same file
    _check("nest_controller_guard_has_role", render_markdown(report))


def test_function_handed_to_a_middleware_factory_reaches_the_routes_of_that_middleware(express_values) -> None:
    """``auth = { required: jwt({ getToken: getTokenFromHeaders }), optional: jwt({...}) }``: each
    property is a definition calling ``getTokenFromHeaders`` (the library runs it per request), so
    the routes with ``auth.required`` / ``auth.optional`` are reached; POST /api/users/login and GET /
    (no middleware) are not (before: 0 callers, 0 endpoints)."""
    report = blast_radius(express_values, SymbolQuery("getTokenFromHeaders"))
    assert sorted(c.node.qualname for c in report.callers) == ["auth.optional", "auth.required"]
    assert _endpoints(report) == [
        ("GET", "/api/articles", 1, "auth.optional", "middleware"),
        ("DELETE", "/api/articles/{}", 1, "auth.required", "middleware"),
        ("GET", "/api/user", 1, "auth.required", "middleware"),
    ]
    _check("express_value_middleware_get_token", render_markdown(report))
