"""Spring Cloud Gateway's discovery locator (session 66, acc66b): ``discovery.locator.enabled: true`` exposes
every registered service under ``/<service-id>/**`` (or the locator's own SpEL ``predicates`` / ``filters``,
JHipster's ``'/services/'+serviceId.toLowerCase()+'/**'`` + ``StripPrefix=2``), read by
:func:`indexer.frameworks.spring_config.discovery_routes`; a client URL of unknown start whose known end such a
route takes reaches the service's endpoint. Exact routes and links, and what must not be linked."""

from __future__ import annotations

from pathlib import Path

import pytest

from indexer.frameworks.spring_config import discovery_routes, spel_concat
from stores.gateway import GatewayRoute
from tests.index_dump import http_links
from tests.index_harness import index_files


def test_spel_concatenation_of_literals_and_the_service_id():
    assert spel_concat("'/services/'+serviceId.toLowerCase()+'/**'", "Billing-API") == "/services/billing-api/**"
    assert spel_concat("'/' + serviceId + '/?(?<remaining>.*)'", "billing") == "/billing/?(?<remaining>.*)"
    assert spel_concat("'/${remaining}'", "x") == "/${remaining}"
    assert spel_concat("2", "x") == "2"
    assert spel_concat("'it''s/'+serviceId.toUpperCase()", "a") == "it's/A"
    # what is not a concatenation of those is not evaluated
    for expr in ("serviceId.substring(1)", "'a'+", "+'a'", "'a' 'b'", "metadata['x']", "'unclosed", ""):
        assert spel_concat(expr, "s") is None, expr


def test_default_routes_lower_case_and_eureka_ids():
    services = {"billing-api": "billing-api", "Orders": "orders-svc"}
    on = {"spring.cloud.gateway.discovery.locator.enabled": "true"}
    rewrite = ("RewritePath",)
    assert discovery_routes(on, services) == [
        GatewayRoute("Orders", ("/orders-svc/**",), (), ((*rewrite, "/orders-svc/?(?<remaining>.*)", "/${remaining}"),)),
        GatewayRoute("billing-api", ("/billing-api/**",), (), ((*rewrite, "/billing-api/?(?<remaining>.*)", "/${remaining}"),)),
    ]
    assert discovery_routes(on, services)[1].forward("GET", "/billing-api/invoices/3") == "/invoices/3"
    # a Eureka client: the id as written and as Eureka registers it (upper case)
    eureka = {**on, "eureka.client.service-url.defaultZone": "http://r:8761/eureka/"}
    assert [r.paths for r in discovery_routes(eureka, {"billing": "billing"})] == [("/billing/**",), ("/BILLING/**",)]
    lower = {**eureka, "spring.cloud.gateway.discovery.locator.lower-case-service-id": "true"}
    assert [r.paths for r in discovery_routes(lower, {"Billing": "Billing"})] == [("/billing/**",)]
    # off, not set, or no service: no route
    assert discovery_routes({"spring.cloud.gateway.discovery.locator.enabled": "false"}, services) == []
    assert discovery_routes({}, services) == []
    assert discovery_routes(on, {}) == []


def test_configured_predicates_and_filters_are_spel():
    props = {"spring.cloud.gateway.server.webflux.discovery.locator.enabled": "true",
             "spring.cloud.gateway.server.webflux.discovery.locator.lower-case-service-id": "true",
             "spring.cloud.gateway.server.webflux.discovery.locator.predicates[0].name": "Path",
             "spring.cloud.gateway.server.webflux.discovery.locator.predicates[0].args.pattern":
                 "'/services/'+serviceId.toLowerCase()+'/**'",
             "spring.cloud.gateway.server.webflux.discovery.locator.filters[0]": "StripPrefix=2",
             "spring.cloud.gateway.server.webflux.default-filters[0]": "JWTRelay"}
    routes = discovery_routes(props, {"shopMicro": "shopmicro"})
    assert routes == [GatewayRoute("shopMicro", ("/services/shopmicro/**",), (), (("StripPrefix", "2"),))]
    assert routes[0].forward("PUT", "/services/shopmicro/api/items/{}") == "/api/items/{}"
    assert routes[0].forward("GET", "/services/other/api/items") is None
    # a predicate the evaluator cannot read leaves the route out rather than guessing its path
    odd = {**props, "spring.cloud.gateway.server.webflux.discovery.locator.predicates[0].args.pattern":
           "'/'+serviceId.substring(3)+'/**'"}
    assert discovery_routes(odd, {"shopMicro": "shopmicro"}) == []


GATEWAY_YML = """spring:
  application:
    name: shopGateway
  cloud:
    gateway:
      server:
        webflux:
          discovery:
            locator:
              enabled: true
              lower-case-service-id: true
              predicates:
                - name: Path
                  args:
                    pattern: "'/services/'+serviceId.toLowerCase()+'/**'"
              filters:
                - StripPrefix=2
"""

TREE = {
    "gateway/src/main/resources/application.yml": GATEWAY_YML,
    "gateway/src/main/webapp/app/items.service.ts": (
        "export class ItemsService {\n"
        "  private prefix = '';\n"
        "  setPrefix(p: string) { this.prefix = p; }\n"
        "  list() { return fetch(`${this.prefix}services/shopmicro/api/items`); }\n"
        "  one(id: number) { return fetch(`${this.prefix}services/shopmicro/api/items/${id}`); }\n"
        "  gone() { return fetch(`${this.prefix}services/unknownsvc/api/items`); }\n"
        "  port() { return fetch(`${this.prefix}:8080/api/items`); }\n"
        "}\n"),
    "micro/src/main/resources/application.yml": "spring:\n  application:\n    name: shopMicro\n",
    "micro/src/main/java/shop/ItemResource.java": (
        "package shop;\n\nimport org.springframework.web.bind.annotation.*;\n\n"
        "@RestController\n@RequestMapping(\"/api/items\")\nclass ItemResource {\n"
        "    @GetMapping(\"\") Object all() { return null; }\n"
        "    @GetMapping(\"/{id}\") Object one(@PathVariable long id) { return null; }\n}\n"),
}


@pytest.fixture(scope="module")
def shop_db(tmp_path_factory) -> Path:
    tmp = tmp_path_factory.mktemp("discovery")
    index_files(tmp / "shop", TREE, "shop", tmp / "x.db").close()
    return tmp / "x.db"


def test_a_client_of_unknown_start_reaches_the_service_through_the_locator_route(shop_db):
    assert http_links(shop_db) == [
        ("gone(0)", "endpoint:GET /services/unknownsvc/api/items", None),  # no service of that id: no route
        ("list(0)", "endpoint:GET /api/items", "shopMicro"),
        ("one(1)", "endpoint:GET /api/items/{}", "shopMicro"),
        ("port(0)", "endpoint:GET /api/items", None),  # the rest of a host: not routed (known end only)
    ]
