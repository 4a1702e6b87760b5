"""Golden blast-radius reports on a Spring Boot application secured by a JWT filter
(tests/fixtures/spring-jwt): code called only from cross-cutting code (a filter bean also added to the
security chain, an MVC interceptor limited to a path, a global and a controller-local exception
handler) reaches the endpoints that code runs for (issue 14: before, "0 endpoints"). The markdown is
compared with ``snapshots/<name>.md`` byte for byte, step times masked; ``RIPPLE_UPDATE_GOLDEN=1``
rewrites the snapshots (review the diff before committing)."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import diagram_links, render_markdown, report_json
from tests.golden.harness import check_snapshot, index_fixture

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "spring-jwt"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
AUTH = [("POST", "/api/v1/auth/authenticate"), ("POST", "/api/v1/auth/register")]
PRODUCTS = [("GET", "/api/v1/products"), ("POST", "/api/v1/products"), ("DELETE", "/api/v1/products/{}"),
            ("GET", "/api/v1/products/{}")]


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    s = index_fixture(FIXTURE, tmp_path_factory.mktemp("golden") / "jwt.db", "spring-jwt")
    yield s
    s.close()


_check = check_snapshot


def _endpoints(report) -> list[tuple[str, str, int, str | None, str | None]]:
    return [(h.http_method, h.path, h.hops, h.through.node.qualname if h.through else None,
             h.through.kind if h.through else None) for h in report.endpoints]


def test_method_called_only_from_a_filter_reaches_every_endpoint_of_the_application(store) -> None:
    report = blast_radius(store, SymbolQuery("JwtService.isTokenValid"))
    via = ("JwtAuthFilter.doFilterInternal", "filter")
    assert sorted(_endpoints(report)) == sorted((m, p, 1, *via) for m, p in AUTH + PRODUCTS)
    [w] = report.wrappers
    assert (w.node.qualname, w.kind, w.scopes, w.paths, w.hops, len(w.endpoints), w.application) == (
        "JwtAuthFilter.doFilterInternal", "filter", ("app",), (), 1, 6, "spring-jwt")
    assert [(p.node.qualname, p.kinds) for p in report.entry_points] == [("JwtAuthFilter.doFilterInternal", ("filter",))]
    # The report says "all 6 endpoints"; JSON still lists each with its handler and the wrapper.
    markdown = render_markdown(report)
    assert "| – | all 6 endpoints of spring-jwt | spring-jwt | 1 | exact | through the filter " in markdown
    data = report_json(report)
    assert sorted((e["http_method"], e["path"], e["handler"]["qualname"], e["through"]["qualname"], e["through"]["scope"])
                  for e in data["endpoints"]) == sorted([
        ("GET", "/api/v1/products", "ProductController.list", "JwtAuthFilter.doFilterInternal", "app"),
        ("GET", "/api/v1/products/{}", "ProductController.show", "JwtAuthFilter.doFilterInternal", "app"),
        ("POST", "/api/v1/products", "ProductController.create", "JwtAuthFilter.doFilterInternal", "app"),
        ("DELETE", "/api/v1/products/{}", "ProductController.delete", "JwtAuthFilter.doFilterInternal", "app"),
        ("POST", "/api/v1/auth/register", "AuthController.register", "JwtAuthFilter.doFilterInternal", "app"),
        ("POST", "/api/v1/auth/authenticate", "AuthController.authenticate", "JwtAuthFilter.doFilterInternal", "app"),
    ])
    assert data["wrappers"][0]["summary"] == "all 6 endpoints of spring-jwt, through the filter JwtAuthFilter.doFilterInternal"
    _check("filter_is_token_valid", markdown)
    # The diagram's one node for the six endpoints opens the filter (a method starts at its @Override).
    security = "src/main/java/com/example/shop/security"
    assert [(node_id, label, n.file, n.start_line) for node_id, label, n in diagram_links(report)] == [
        ("t0", "JwtService.isTokenValid", f"{security}/JwtService.java", 12),
        ("c0", "JwtAuthFilter.doFilterInternal", f"{security}/JwtAuthFilter.java", 20),
        ("w0", "all 6 endpoints of spring-jwt", f"{security}/JwtAuthFilter.java", 20)]
    assert '  w0{{"all 6 endpoints of spring-jwt"}}' in data["mermaid"].splitlines()


def test_interceptor_limited_to_a_path_reaches_those_endpoints_only(store) -> None:
    report = blast_radius(store, SymbolQuery("Metrics.record"))
    assert _endpoints(report) == [(m, p, 1, "RequestTimingInterceptor.afterCompletion", "interceptor") for m, p in PRODUCTS]
    assert not {(h.http_method, h.path) for h in report.endpoints} & set(AUTH)  # /api/v1/auth/* is not intercepted
    [w] = report.wrappers
    assert (w.scopes, w.paths, len(w.endpoints)) == (("app",), ("/api/v1/products/**",), 4)
    _check("interceptor_metrics_record", render_markdown(report))


def test_controller_exception_handler_wraps_that_controllers_routes_listed_one_by_one(store) -> None:
    report = blast_radius(store, SymbolQuery("ErrorReporter.notFound"))
    assert _endpoints(report) == [(m, p, 1, "ProductController.handleNotFound", "error_handler") for m, p in PRODUCTS]
    assert [w.scopes for w in report.wrappers] == [("route",)]
    _check("controller_error_handler", render_markdown(report))


def test_a_handler_reached_at_the_same_hop_explains_the_endpoint_not_the_filter(store) -> None:
    # generateToken: called by both auth handlers (hop 1); no wrapper involved.
    report = blast_radius(store, SymbolQuery("JwtService.generateToken"))
    assert _endpoints(report) == [("POST", p, 1, None, None) for _, p in AUTH]
    assert report.wrappers == ()
    # parseClaims: the filter at hop 2 through both public methods; no handler calls them.
    report = blast_radius(store, SymbolQuery("JwtService.parseClaims"))
    assert {(h.hops, h.through.node.qualname) for h in report.endpoints} == {(2, "JwtAuthFilter.doFilterInternal")}
    assert len(report.endpoints) == 6


def test_global_exception_handler_reaches_every_endpoint(store) -> None:
    report = blast_radius(store, SymbolQuery("ErrorReporter.report"))
    via = ("GlobalExceptionHandler.handleIllegalState", "error_handler")
    assert sorted(_endpoints(report)) == sorted((m, p, 1, *via) for m, p in AUTH + PRODUCTS)
    assert [(w.scopes, len(w.endpoints)) for w in report.wrappers] == [(("app",), 6)]
    _check("advice_error_reporter", render_markdown(report))
