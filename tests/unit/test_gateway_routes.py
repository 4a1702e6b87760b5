"""Spring Cloud Gateway routes in request-path targets and client links (session 61, svc61):
``Path`` / ``Method`` predicates and the ``StripPrefix`` / ``RewritePath`` / ``PrefixPath`` / ``SetPath``
filters (:mod:`stores.gateway`), read from ``application.yml`` (:func:`gateway_route_list`), recorded in
the registry entry and applied by ``ripple callers "GET /api/customer/owners/3"``
(:func:`analysis.navigation.gateway_endpoints`) and by the linker to relative client URLs. Exact
answers, and what must not be reached (another service's route, a path no route takes)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from click.testing import CliRunner

from analysis.navigation import gateway_endpoints
from indexer.frameworks.clients import gateway_url
from indexer.frameworks.spring_config import gateway_route_list
from lsp_server.cli import main
from stores.embedded import EmbeddedStore
from stores.gateway import GatewayRoute, routes_from_json, routes_to_json
from tests.index_dump import http_links
from tests.index_harness import index_files

STRIP = GatewayRoute("customers-service", ("/api/customer/**",), (), (("StripPrefix", "2"),))
REWRITE = GatewayRoute("visits-service", ("/api/visit/**",), (), (("RewritePath", "/api/visit/?(?<segment>.*)", "/$\\{segment}"),))
PREFIX = GatewayRoute("vets-service", ("/vets/**", "/specialties"), ("GET",), (("PrefixPath", "/v1"),))
SET = GatewayRoute("genai-service", ("/chat/{room}",), (), (("SetPath", "/rooms/{room}/messages"),))


def test_each_filter_makes_the_path_the_service_receives():
    assert STRIP.forward("GET", "/api/customer/owners/3") == "/owners/3"
    assert STRIP.forward("PUT", "/api/customer/owners/{}") == "/owners/{}"
    assert REWRITE.forward("GET", "/api/visit/pets/visits") == "/pets/visits"
    assert PREFIX.forward("GET", "/vets/7") == "/v1/vets/7"
    assert PREFIX.forward("GET", "/specialties") == "/v1/specialties"
    assert SET.forward("POST", "/chat/lobby") == "/rooms/lobby/messages"
    chained = GatewayRoute("s", ("/a/**",), (), (("StripPrefix", "1"), ("PrefixPath", "/api"), ("RewritePath", "/api/(.*)", "/x/$1")))
    assert chained.forward("GET", "/a/b/c") == "/x/b/c"


def test_what_no_route_forwards():
    assert STRIP.forward("GET", "/api/customers/owners/3") is None  # another literal segment
    assert STRIP.forward("GET", "/api") is None
    assert PREFIX.forward("POST", "/vets/7") is None  # Method=GET
    assert PREFIX.forward("GET", "/specialties/1") is None  # a pattern without ** takes no deeper path
    assert SET.forward("POST", "/chat/{}/x") is None
    assert GatewayRoute("s", ("/a/**",), (), (("RewritePath", "/a/(?<x", "/"),)).forward("GET", "/a/b") is None  # no regex
    assert GatewayRoute("s", ("/a/**",), (), (("StripPrefix", "two"),)).forward("GET", "/a/b") is None
    assert GatewayRoute("s", (), (), ()).forward("GET", "/a") is None


def test_routes_round_trip_through_json_and_skip_what_is_malformed():
    routes = [STRIP, REWRITE, PREFIX, SET]
    assert routes_from_json(json.loads(json.dumps(routes_to_json(routes)))) == routes
    assert routes_from_json([{"paths": ["/x"]}, "junk", {"service": "a", "paths": ["/a/**"]}]) == [GatewayRoute("a", ("/a/**",))]
    assert routes_from_json(None) == []


def test_routes_are_read_from_the_shortcut_and_the_expanded_configuration():
    props = {
        "spring.cloud.gateway.server.webflux.routes[0].id": "customers",
        "spring.cloud.gateway.server.webflux.routes[0].uri": "lb://customers-service",
        "spring.cloud.gateway.server.webflux.routes[0].predicates[0]": "Path=/api/customer/**",
        "spring.cloud.gateway.server.webflux.routes[0].filters[0]": "StripPrefix=2",
        "spring.cloud.gateway.server.webflux.routes[0].filters[1]": "CircuitBreaker=name=cb,fallbackUri=/fallback",
        "spring.cloud.gateway.routes[1].uri": "http://visits-service:8082",
        "spring.cloud.gateway.routes[1].predicates[0].name": "Path",
        "spring.cloud.gateway.routes[1].predicates[0].args.patterns": "/api/visit/**",
        "spring.cloud.gateway.routes[1].predicates[1]": "Method=GET,POST",
        "spring.cloud.gateway.routes[1].filters[0].name": "RewritePath",
        "spring.cloud.gateway.routes[1].filters[0].args.regexp": "/api/visit/(?<segment>.*)",
        "spring.cloud.gateway.routes[1].filters[0].args.replacement": "/$\\{segment}",
        "spring.cloud.gateway.routes[2].uri": "forward:/local",  # no service
        "spring.cloud.gateway.routes[2].predicates[0]": "Path=/local/**",
        "spring.cloud.gateway.routes[3].uri": "lb://vets-service",
        "spring.cloud.gateway.routes[3].predicates[0]": "Path=/vets/**, /specialties",
        "spring.cloud.gateway.routes[3].filters[0]": "PrefixPath=/v1",
    }
    assert gateway_route_list(props) == [
        GatewayRoute("customers-service", ("/api/customer/**",), (), (("StripPrefix", "2"),)),
        GatewayRoute("visits-service", ("/api/visit/**",), ("GET", "POST"),
                     (("RewritePath", "/api/visit/(?<segment>.*)", "/$\\{segment}"),)),
        GatewayRoute("vets-service", ("/vets/**", "/specialties"), (), (("PrefixPath", "/v1"),)),
    ]


def test_default_filters_apply_to_every_route_in_the_gateways_order():
    # acc62: `spring.cloud.gateway.default-filters` (shortcut and expanded) join each route's own filters,
    # ordered by position, a default before a route's filter of the same position; non-path filters
    # (AddResponseHeader) are not kept. Not: a route of another application's configuration (no defaults
    # there), a `default-filters` key outside spring.cloud.gateway
    props = {
        "spring.cloud.gateway.default-filters[0]": "StripPrefix=1",
        "spring.cloud.gateway.default-filters[1]": "AddResponseHeader=X-Gw, 1",
        "spring.cloud.gateway.default-filters[2].name": "PrefixPath",
        "spring.cloud.gateway.default-filters[2].args.prefix": "/v2",
        "spring.cloud.gateway.routes[0].uri": "lb://customers-service",
        "spring.cloud.gateway.routes[0].predicates[0]": "Path=/api/customer/**",
        "spring.cloud.gateway.routes[0].filters[0]": "StripPrefix=1",
        "spring.cloud.gateway.routes[1].uri": "lb://visits-service",
        "spring.cloud.gateway.routes[1].predicates[0]": "Path=/visit/**",
        "other.default-filters[0]": "StripPrefix=5",
    }
    customers, visits = gateway_route_list(props)
    assert customers.filters == (("StripPrefix", "1"), ("StripPrefix", "1"), ("PrefixPath", "/v2"))
    assert visits.filters == (("StripPrefix", "1"), ("PrefixPath", "/v2"))
    assert customers.forward("GET", "/api/customer/owners/3") == "/v2/owners/3"
    assert visits.forward("GET", "/visit/owners/3") == "/v2/owners/3"
    plain = {k: v for k, v in props.items() if "default-filters" not in k}
    assert [r.filters for r in gateway_route_list(plain)] == [(("StripPrefix", "1"),), ()]


def test_a_relative_client_url_goes_where_the_first_matching_route_forwards_it():
    routes = [STRIP, REWRITE, PREFIX]
    assert gateway_url(routes, "GET", "api/customer/owners/\x00") == ("customers-service", "/owners/{}")
    assert gateway_url(routes, "POST", "/api/visit/owners/\x00/pets/\x00/visits") == ("visits-service", "/owners/{}/pets/{}/visits")
    assert gateway_url(routes, "GET", "/vets") == ("vets-service", "/v1/vets")
    # a URL with a host, one starting with an unknown piece, one no route takes: not the gateway's
    assert gateway_url(routes, "GET", "http://customers-service/api/customer/x") is None
    assert gateway_url(routes, "GET", "\x00/api/customer/x") is None
    assert gateway_url(routes, "POST", "/vets") is None
    assert gateway_url([], "GET", "/api/customer/x") is None


GATEWAY_YML = """spring:
  application:
    name: api-gateway
  cloud:
    gateway:
      server:
        webflux:
          routes:
            - id: customers
              uri: lb://customers-service
              predicates:
                - Path=/api/customer/**
              filters:
                - StripPrefix=2
            - id: visits
              uri: lb://visits-service
              predicates:
                - Path=/api/visit/**
              filters:
                - RewritePath=/api/visit/(?<segment>.*), /$\\{segment}
            - id: vets
              uri: lb://vets-service
              predicates:
                - Path=/vets/**
              filters:
                - PrefixPath=/v1
"""

CONTROLLER = """package {pkg};

import org.springframework.web.bind.annotation.*;

@RestController
class {name} {{
{methods}
}}
"""

TREE = {
    "gateway/src/main/resources/application.yml": GATEWAY_YML,
    "gateway/src/main/resources/static/app.js": (
        "export function owner(id) { return fetch(`/api/customer/owners/${id}`); }\n"
        "export function visits(id) { return fetch(`/api/visit/owners/${id}/visits`); }\n"
        "export function vets() { return fetch('/vets/all'); }\n"),
    "customers/src/main/resources/application.yml": "spring:\n  application:\n    name: customers-service\n",
    "customers/src/main/java/shop/customers/OwnerResource.java": CONTROLLER.format(pkg="shop.customers", name="OwnerResource", methods=(
        '    @GetMapping("/owners/{ownerId}") Object findOwner(@PathVariable int ownerId) { return null; }\n'
        '    @GetMapping("/owners") Object findAll() { return null; }')),
    "visits/src/main/resources/application.yml": "spring:\n  application:\n    name: visits-service\n",
    "visits/src/main/java/shop/visits/VisitResource.java": CONTROLLER.format(pkg="shop.visits", name="VisitResource", methods=(
        '    @GetMapping("/owners/{ownerId}/visits") Object visits(@PathVariable int ownerId) { return null; }\n'
        '    @GetMapping("/pets") Object pets() { return null; }')),
    "vets/src/main/resources/application.yml": "spring:\n  application:\n    name: vets-service\n",
    # an in-process test request is inside its application: no gateway route takes it
    "vets/src/test/java/shop/vets/VetResourceTest.java": (
        "package shop.vets;\n\nimport org.springframework.test.web.servlet.MockMvc;\n"
        "import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;\n\n"
        "class VetResourceTest {\n    private MockMvc mockMvc;\n\n"
        "    void lists() throws Exception { mockMvc.perform(get(\"/vets/all\")); }\n}\n"),
    "vets/src/main/java/shop/vets/VetResource.java": CONTROLLER.format(pkg="shop.vets", name="VetResource", methods=(
        '    @GetMapping("/v1/vets/all") Object all() { return null; }')),
}
CLEAN_ENV = {"RIPPLE_CONFIG": None, "RIPPLE_DB": None, "RIPPLE_GRAPH_BACKEND": None, "RIPPLE_SEARCH_BACKEND": None}


@pytest.fixture(scope="module")
def shop_db(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("gateway")
    index_files(tmp / "shop", TREE, "shop", tmp / "x.db").close()
    return tmp / "x.db"


def reached(db: Path, method: str, path: str) -> list[str] | None:
    store = EmbeddedStore(db)
    try:
        found = gateway_endpoints(store, method, path)
        return None if found is None else [n.id for n in found]
    finally:
        store.close()


def test_the_registry_entry_records_the_gateway_routes(shop_db):
    con = sqlite3.connect(shop_db)
    try:
        props = json.loads(con.execute("select props from repositories").fetchone()[0])
    finally:
        con.close()
    assert routes_from_json(props["gateway_routes"]) == [
        STRIP, GatewayRoute("visits-service", ("/api/visit/**",), (), (("RewritePath", "/api/visit/(?<segment>.*)", "/$\\{segment}"),)),
        GatewayRoute("vets-service", ("/vets/**",), (), (("PrefixPath", "/v1"),))]


def test_a_request_path_reaches_the_endpoint_of_the_routes_service_and_nothing_else(shop_db):
    assert reached(shop_db, "GET", "/api/customer/owners/3") == ["endpoint:GET /owners/{}"]
    assert reached(shop_db, "GET", "/api/visit/owners/3/visits") == ["endpoint:GET /owners/{}/visits"]
    assert reached(shop_db, "GET", "/vets/all") == ["endpoint:GET /v1/vets/all"]
    # visits-service serves no /owners/{}: customers-service's route is not reached through its route
    assert reached(shop_db, "GET", "/api/visit/owners/3") == []
    assert reached(shop_db, "GET", "/api/customer/pets") == []  # /pets is visits-service's
    assert reached(shop_db, "GET", "/owners/3") is None  # no route takes it
    assert reached(shop_db, "GRPC", "a.B/C") is None


def test_the_cli_answers_callers_through_the_gateway(shop_db):
    result = CliRunner().invoke(main, ["callers", "GET /api/customer/owners/3", "--db", str(shop_db)], env=CLEAN_ENV,
                                catch_exceptions=False)
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0] == "GET /owners/{ownerId}  (endpoint endpoint:GET /owners/{})"
    assert lines[2] == "gateway/src/main/resources/static/app.js:1:36  owner  CALLS_HTTP"  # the fetch call
    assert len(lines) == 3


def test_client_urls_are_linked_through_the_rewriting_routes(shop_db):
    rows = http_links(shop_db)
    assert rows == [("lists()", "endpoint:GET /vets/all", None),  # MockMvc: not /v1/vets/all through the gateway
                    ("owner(1)", "endpoint:GET /owners/{}", "customers-service"),
                    ("vets(0)", "endpoint:GET /v1/vets/all", "vets-service"),
                    ("visits(1)", "endpoint:GET /owners/{}/visits", "visits-service")]


def test_a_path_the_gateway_sends_where_nothing_serves_it_says_so(shop_db):
    result = CliRunner().invoke(main, ["callers", "GET /api/visit/owners/3", "--db", str(shop_db)], env=CLEAN_ENV)
    assert result.exit_code == 1
    assert result.stderr.strip() == ("Error: no endpoint matches 'GET /api/visit/owners/3': the gateway sends it to "
                                     "visits-service as GET /owners/3, which serves no such endpoint")
    # a path no route takes keeps the closest endpoints
    result = CliRunner().invoke(main, ["callers", "GET /owners/3/pets", "--db", str(shop_db)], env=CLEAN_ENV)
    assert result.exit_code == 1
    assert "the gateway" not in result.stderr


def test_a_backtracking_rewrite_pattern_forwards_nothing_and_is_not_tried_again():
    """A RewritePath a hostile repository wrote (nested quantifiers) on a long path stops at the time limit."""
    import time

    evil = "(x+x+)+y"
    route = GatewayRoute("s", ("/a/**",), (), (("RewritePath", evil, "/z"),))
    path = "/a/" + "x" * 5000
    started = time.monotonic()
    assert route.forward("GET", path) is None
    assert time.monotonic() - started < 5
    # remembered: not applied again, even to a path it would rewrite at once ("/a/xxy" -> "/a/z" before)
    assert route.forward("GET", "/a/xxy") is None
    fresh = GatewayRoute("s", ("/a/**",), (), (("RewritePath", "(x+x+)+yy", "z"),))
    assert fresh.forward("GET", "/a/xxyy") == "/a/z"
    # another route's pattern is unaffected
    assert GatewayRoute("s", ("/a/**",), (), (("RewritePath", "/a/(?<rest>.*)", "/$\\{rest}"),)).forward(
        "GET", "/a/b/c") == "/b/c"
