"""Spring Cloud Gateway routes declared in Java (acc62, java/frameworks/spring_gateway.py): the
``RouteLocatorBuilder`` DSL read into the same model as the YAML routes (:class:`stores.gateway.GatewayRoute`),
applied by the linker to relative client URLs, recorded in the registry entry and followed by ``callers``.
Exact facts and edges, and what must not be read or linked."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from analysis.navigation import gateway_endpoints
from indexer.languages import extractor_for_path
from indexer.model import GatewayRouteDecl
from stores.embedded import EmbeddedStore
from stores.gateway import GatewayRoute, routes_from_json
from tests.index_harness import index_files

GATEWAY = """package shop.gateway;

import org.springframework.cloud.gateway.route.RouteLocator;
import org.springframework.cloud.gateway.route.builder.RouteLocatorBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.http.HttpMethod;

class Routes {
    static final String BASE = "/x";

    @Bean
    RouteLocator routes(RouteLocatorBuilder builder) {
        return builder.routes()
            .route("customers", r -> r.path("/api/customer/**")
                .filters(f -> f.stripPrefix(2).addRequestHeader("X-Gw", "1"))
                .uri("lb://customers-service"))
            .route(r -> r.path("/api/visit/**", "/api/visits/**").and().method(HttpMethod.GET)
                .filters(f -> f.rewritePath("/api/visit/(?<segment>.*)", "/${segment}"))
                .uri("lb://visits-service"))
            .route("vets", r -> r.path("/vets/**").and().method("GET", "POST")
                .filters(f -> f.prefixPath("/v1")).uri("http://vets-service:8083"))
            .route("local", r -> r.path("/local/**").uri("forward:/local"))
            .route("unknown", r -> r.path("/u/**").filters(f -> f.stripPrefix(n)).uri("lb://u-service"))
            .route("const", r -> r.path("/c/**").filters(f -> f.prefixPath(BASE)).uri("lb://c-service"))
            .build();
    }

    void other(java.util.List<String> xs) { xs.stream().map(r -> r.trim()).forEach(this::route); }
    void route(String s) { }
}
"""

CONTROLLER = """package {pkg};

import org.springframework.web.bind.annotation.*;

@RestController
class {name} {{
{methods}
}}
"""

TREE = {
    "gateway/src/main/resources/application.yml": "spring:\n  application:\n    name: api-gateway\n",
    "gateway/src/main/java/shop/gateway/Routes.java": GATEWAY,
    "gateway/src/main/resources/static/app.js": (
        "export function owner(id) { return fetch(`/api/customer/owners/${id}`); }\n"
        "export function visits(id) { return fetch(`/api/visit/owners/${id}/visits`); }\n"
        "export function addVisit(id) { return fetch(`/api/visit/owners/${id}/visits`, { method: 'POST' }); }\n"
        "export function vets() { return fetch('/vets/all'); }\n"),
    "customers/src/main/resources/application.yml": "spring:\n  application:\n    name: customers-service\n",
    "customers/src/main/java/shop/customers/OwnerResource.java": CONTROLLER.format(pkg="shop.customers", name="OwnerResource", methods=(
        '    @GetMapping("/owners/{ownerId}") Object findOwner(@PathVariable int ownerId) { return null; }')),
    "visits/src/main/resources/application.yml": "spring:\n  application:\n    name: visits-service\n",
    "visits/src/main/java/shop/visits/VisitResource.java": CONTROLLER.format(pkg="shop.visits", name="VisitResource", methods=(
        '    @GetMapping("/owners/{ownerId}/visits") Object visits(@PathVariable int ownerId) { return null; }\n'
        '    @PostMapping("/owners/{ownerId}/visits") Object add(@PathVariable int ownerId) { return null; }')),
    "vets/src/main/resources/application.yml": "spring:\n  application:\n    name: vets-service\n",
    "vets/src/main/java/shop/vets/VetResource.java": CONTROLLER.format(pkg="shop.vets", name="VetResource", methods=(
        '    @GetMapping("/v1/vets/all") Object all() { return null; }')),
}

CUSTOMERS = GatewayRoute("customers-service", ("/api/customer/**",), (), (("StripPrefix", "2"),))
VISITS = GatewayRoute("visits-service", ("/api/visit/**", "/api/visits/**"), ("GET",),
                      (("RewritePath", "/api/visit/(?<segment>.*)", "/${segment}"),))
VETS = GatewayRoute("vets-service", ("/vets/**",), ("GET", "POST"), (("PrefixPath", "/v1"),))


def test_the_java_dsl_routes_exactly():
    # not read: `forward:` (no host), a filter argument that is no literal (n, BASE: what the route
    # forwards is not known), a `route(...)` that is no gateway DSL (this::route, a stream lambda)
    ex = extractor_for_path("Routes.java").extract("Routes.java", GATEWAY.encode())
    assert ex.gateway_routes == [
        GatewayRouteDecl("customers-service", ("/api/customer/**",), (), (("StripPrefix", "2"),), 14, 13),
        GatewayRouteDecl("visits-service", ("/api/visit/**", "/api/visits/**"), ("GET",),
                         (("RewritePath", "/api/visit/(?<segment>.*)", "/${segment}"),), 17, 13),
        GatewayRouteDecl("vets-service", ("/vets/**",), ("GET", "POST"), (("PrefixPath", "/v1"),), 20, 13),
    ]


@pytest.fixture(scope="module")
def shop_db(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("gateway_java")
    index_files(tmp / "shop", TREE, "shop", tmp / "x.db").close()
    return tmp / "x.db"


def test_clients_through_the_java_routes_and_the_registry_entry(shop_db):
    con = sqlite3.connect(shop_db)
    try:
        props = json.loads(con.execute("select props from repositories").fetchone()[0])
        rows = con.execute("select src, dst, props from edges where kind = 'CALLS_HTTP' order by src").fetchall()
    finally:
        con.close()
    assert routes_from_json(props["gateway_routes"]) == [CUSTOMERS, VISITS, VETS]
    assert [(s.split(":", 1)[1], d, json.loads(p).get("service")) for s, d, p in rows] == [
        # the POST is not the visits route's (GET only): it stays the gateway's own unserved path
        ("gateway/src/main/resources/static/app.addVisit(1)", "endpoint:POST /api/visit/owners/{}/visits", None),
        ("gateway/src/main/resources/static/app.owner(1)", "endpoint:GET /owners/{}", "customers-service"),
        ("gateway/src/main/resources/static/app.vets(0)", "endpoint:GET /v1/vets/all", "vets-service"),
        ("gateway/src/main/resources/static/app.visits(1)", "endpoint:GET /owners/{}/visits", "visits-service"),
    ]
    store = EmbeddedStore(shop_db)
    try:
        assert [n.id for n in gateway_endpoints(store, "GET", "/api/customer/owners/3")] == ["endpoint:GET /owners/{}"]
        assert gateway_endpoints(store, "GET", "/local/x") is None  # the forward: route is not read
    finally:
        store.close()
