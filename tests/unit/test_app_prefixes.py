"""Prefixes and base URLs set in one place, unit by unit: the development-proxy JSON reader
(:mod:`indexer.frameworks.dev_proxy`), the ECMAScript detector's facts (``base_urls``: Vite /
webpack / ``proxy.conf.js`` tables, Angular interceptors), NestJS ``setGlobalPrefix`` facts, the
exclusion rule, the API-first served path, and the wrapper-call filter that keeps ids out of client
templates, werkzeug DispatcherMiddleware mounts, @HttpExchange routes and Feign API candidates. Exact
values, with negative cases."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from indexer.frameworks.api_first import served_path
from indexer.frameworks.app_prefixes import excluded
from indexer.frameworks.dev_proxy import ProxyRule, load_proxies, proxied_url, rule_matches
from indexer.frameworks.openapi import ApiOperation
from indexer.incremental import is_config_path
from indexer.languages import extractor_for_path
from indexer.model import DevProxy, GlobalPrefix, Template, UrlRewrite


def _extract(path: str, source: str):
    ex = extractor_for_path(path)
    assert ex is not None
    return ex.extract(path, source.encode())


def _write(root: Path, files: dict[str, object]) -> None:
    for rel, content in files.items():
        p = root / rel
        p.parent.mkdir(parents=True, exist_ok=True)
        p.write_text(content if isinstance(content, str) else json.dumps(content), encoding="utf-8")


# ------------------------------------------------------------------------------ JSON files


def test_load_proxies_reads_angular_files_and_cra_proxy(tmp_path: Path) -> None:
    _write(tmp_path, {
        "ng/package.json": {"name": "ng"},
        "ng/angular.json": {"projects": {"ng": {"architect": {"serve": {
            "options": {"proxyConfig": "config/dev-proxy.json"},
            "configurations": {"outside": {"proxyConfig": "../secret.json"}, "js": {"proxyConfig": "proxy.conf.js"}}}}}}},
        "ng/config/dev-proxy.json": {"/api": {"target": "http://localhost:8081", "pathRewrite": {"^/api": ""}}},
        "ng/src/proxy.conf.json": [{"context": ["/auth", "/users"], "target": "http://auth:9000"},
                                   {"context": ["/no-target"]}, "junk"],
        "secret.json": {"/x": {"target": "http://evil"}},
        "cra/package.json": {"name": "cra", "proxy": "http://localhost:4000"},
        "plain/package.json": {"name": "plain"},
        "plain/proxy.conf.json": "{not json",
        "noproxy/package.json": {"name": "noproxy", "proxy": 42},
    })
    assert load_proxies(tmp_path) == {
        "cra": (ProxyRule(("/",), "http://localhost:4000", (), "cra/package.json"),),
        "ng": (
            ProxyRule(("/auth", "/users"), "http://auth:9000", (), "ng/src/proxy.conf.json"),
            ProxyRule(("/api",), "http://localhost:8081", (("^/api", ""),), "ng/config/dev-proxy.json"),
        ),
    }


def test_load_proxies_of_an_empty_or_missing_folder(tmp_path: Path) -> None:
    assert load_proxies(tmp_path) == {}
    assert load_proxies(tmp_path / "missing") == {}


@pytest.mark.parametrize(("context", "path", "expected"), [
    ("/api", "/api/orders", True),
    ("/api", "/apis", True),  # a plain prefix, as Vite and http-proxy-middleware compare
    ("/api", "/orders", False),
    ("/api/**", "/api/orders/1", True),
    ("/api/*", "/api", True),
    ("/api/*", "/other", False),
    ("^/fallback/.*", "/fallback/x", True),
    ("^/fallback/.*", "/x/fallback/x", False),
    ("^(unclosed", "/unclosed", False),
    ("/", "/anything", True),
])
def test_rule_matches(context: str, path: str, expected: bool) -> None:
    assert rule_matches(context, path) is expected


def test_proxied_url_rewrites_the_path_of_the_first_matching_rule() -> None:
    rules = [ProxyRule(("/billing",), "http://billing-api:8080/", (("^\\/billing", "/api"),), "vite.config.ts"),
             ProxyRule(("/",), "http://localhost:4000", (), "package.json")]
    assert proxied_url(rules, "/billing/invoices") == ("http://billing-api:8080/api/invoices", rules[0])
    assert proxied_url(rules, "/orders") == ("http://localhost:4000/orders", rules[1])
    assert proxied_url(rules[:1], "/orders") is None
    strip = [ProxyRule(("/api",), "http://svc", (("^/api", ""),))]
    assert proxied_url(strip, "/api") == ("http://svc", strip[0])
    assert proxied_url(strip, "/api/x") == ("http://svc/x", strip[0])
    bad = [ProxyRule(("/a",), "http://svc", (("(", "x"),))]  # an invalid rewrite is skipped, the rule holds
    assert proxied_url(bad, "/a/b") == ("http://svc/a/b", bad[0])


def test_proxy_files_are_configuration() -> None:
    assert is_config_path("web/proxy.conf.json")
    assert is_config_path("web/angular.json")
    assert not is_config_path("web/src/proxy.ts")  # source: its facts re-link by themselves


# ------------------------------------------------------------------------------ the JS detector


VITE = """import { defineConfig } from "vite";
export default defineConfig({
  server: {
    proxy: {
      "/api": "http://localhost:8080",
      "/auth": { target: "http://auth:9000", rewrite: (path) => path.replace(/^\\/auth/, "") },
      "/ws": { ws: true },
      "/fn": { target: BACKEND, rewrite: (p) => { return p.replace(/^\\/fn/, "/v1"); } },
      "/odd": { target: "http://odd", rewrite: (p) => strip(p) },
    },
  },
  build: { proxy: { "/not-a-server": "http://x" } },
});
"""


def test_vite_server_proxy_rules() -> None:
    out = _extract("web/vite.config.ts", VITE)
    assert out.dev_proxies == [
        DevProxy(["/api"], Template.of("http://localhost:8080"), 5, 6),
        DevProxy(["/auth"], Template.of("http://auth:9000"), 6, 6, ("^\\/auth", "")),
        DevProxy(["/fn"], Template((("ref", "BACKEND"),)), 8, 6, ("^\\/fn", "/v1")),
        DevProxy(["/odd"], Template.of("http://odd"), 9, 6),
    ]


def test_a_proxy_key_outside_a_configuration_file_is_nothing() -> None:
    assert _extract("web/src/settings.ts", VITE).dev_proxies == []


def test_webpack_dev_server_and_angular_proxy_files() -> None:
    webpack = 'module.exports = { devServer: { proxy: [{ context: ["/api", "/auth"], target: "http://localhost:3000", pathRewrite: { "^/api": "" } }] } };\n'
    assert _extract("webpack.config.js", webpack).dev_proxies == [
        DevProxy(["/api", "/auth"], Template.of("http://localhost:3000"), 1, 40, ("^/api", "")),
    ]
    ng = 'const PROXY_CONFIG = { "/api": { target: "http://localhost:8081", secure: false } };\nmodule.exports = PROXY_CONFIG;\n'
    assert _extract("src/proxy.conf.js", ng).dev_proxies == [DevProxy(["/api"], Template.of("http://localhost:8081"), 1, 23)]
    assert _extract("src/routes.js", ng).dev_proxies == []  # not a proxy file


INTERCEPTOR = """import { Injectable } from "@angular/core";
import { HttpInterceptor, HttpRequest, HttpHandler } from "@angular/common/http";
import { environment } from "../environments/environment";
@Injectable()
export class ApiInterceptor implements HttpInterceptor {
  intercept(req: HttpRequest<any>, next: HttpHandler) {
    const copy = req.clone({ setHeaders: { a: "b" } });
    const same = req.clone({ url: req.url });
    return next.handle(req.clone({ url: environment.apiUrl + req.url }));
  }
}
"""


def test_angular_interceptor_rewrite() -> None:
    # clone without url, and a url that is the request's own: nothing.
    assert _extract("app/api.interceptor.ts", INTERCEPTOR).url_rewrites == [
        UrlRewrite("angular", Template((("ref", "environment.apiUrl"), ("ref", "req.url"))), "req.url",
                   "ApiInterceptor.intercept", 9, 23),
    ]


def test_clone_outside_angular_and_intercept_is_nothing() -> None:
    src = 'export function copy(req) { return req.clone({ url: BASE + req.url }); }\n'
    assert _extract("app/copy.ts", src).url_rewrites == []


# ------------------------------------------------------------------------------ NestJS


def test_nest_set_global_prefix_fact() -> None:
    src = ('const app = await NestFactory.create(AppModule);\n'
           'app.setGlobalPrefix("api", { exclude: ["health", { path: "metrics/(.*)", method: RequestMethod.GET }] });\n'
           'app.setGlobalPrefix(computePrefix());\n')
    assert _extract("src/main.ts", src).global_prefixes == [
        GlobalPrefix("nest", Template.of("api"), 2, 0, [Template.of("health"), Template.of("metrics/(.*)")]),
        GlobalPrefix("nest", Template((("hole", "computePrefix()"),)), 3, 0),  # unknown: says so
    ]


@pytest.mark.parametrize(("path", "patterns", "expected"), [
    ("/health", ["health"], True),
    ("/health/deep", ["health"], False),
    ("/metrics/cats", ["metrics/(.*)"], True),
    ("/metrics", ["metrics/*"], True),
    ("/metricsx", ["metrics/*"], False),
    ("/anything", ["*"], True),
    ("/cats", [], False),
])
def test_excluded(path: str, patterns: list[str], expected: bool) -> None:
    assert excluded(path, patterns) is expected


# ------------------------------------------------------------------------------ API-first paths


@pytest.mark.parametrize(("context", "prefix", "op", "expected"), [
    # spring-petclinic-rest: servers url .../petclinic/api, context-path /petclinic/, @RequestMapping("/api")
    ("/petclinic/", "/api", ApiOperation("GET", "/petclinic/api/owners", "listOwners", base="/petclinic/api"),
     "/petclinic/api/owners"),
    ("/petclinic", "", ApiOperation("GET", "/petclinic/api/owners", "listOwners", base="/petclinic/api"),
     "/petclinic/api/owners"),
    ("/shop", "", ApiOperation("GET", "/v1/pets", "listPets", base="/v1"), "/shop/v1/pets"),
    ("", "/v2", ApiOperation("GET", "/v1/pets", "listPets", base="/v1"), "/v2/pets"),
    ("", "", ApiOperation("GET", "/pets", "listPets"), "/pets"),
    ("/pets", "", ApiOperation("GET", "/pets", "listPets"), "/pets/pets"),  # no base: the context stays
])
def test_served_path(context: str, prefix: str, op: ApiOperation, expected: str) -> None:
    assert served_path(context, prefix, op) == expected


def test_java_implementer_prefix_is_the_route_path() -> None:
    src = ('package a;\n@RestController\n@RequestMapping("api")\npublic class C implements OwnersApi {\n'
           '  public void listOwners() {}\n}\n'
           '@RestController\n@RequestMapping("/")\nclass D implements PetsApi { public void listPets() {} }\n')
    out = _extract("C.java", src)
    assert [(r.handler, r.path, r.operation) for r in out.routes if r.framework == "openapi-generator"] == [
        ("C.listOwners", Template.of("/api"), "OwnersApi.listOwners"),
        ("D.listPets", Template(), "PetsApi.listPets"),
    ]


# ------------------------------------------------------------------------------ wrapper calls


def test_an_id_argument_is_no_url_for_a_client_template() -> None:
    src = 'export function t(s) { s.deleteOwner("1"); s.get("orders"); s.get("42/x"); s.get(`${a}/1`); }\n'
    assert [(u.callee, u.args[0]) for u in _extract("a.spec.ts", src).url_arg_calls] == [
        ("s.get", Template.of("orders")),
        ("s.get", Template.of("42/x")),
        ("s.get", Template((("ref", "a"), ("lit", "/1")))),  # not all literal: a base and a path
    ]


def test_a_module_level_axios_instance_is_a_constant() -> None:
    src = ('import axios from "axios";\nexport const api = axios.create({ baseURL: "/api" });\n'
           'export const bare = axios.create();\nfunction f() { const local = axios.create({ baseURL: "/x" }); }\n')
    assert [(c.qualname, c.value) for c in _extract("api.ts", src).constants] == [
        ("api.defaults.baseURL", Template.of("/api")),
        ("bare.defaults.baseURL", Template()),
    ]


# ------------------------------------------------------------------------------ mounts and exchanges


def test_dispatcher_middleware_mounts() -> None:
    src = ('from flask import Flask\nfrom werkzeug.middleware.dispatcher import DispatcherMiddleware\n'
           'from admin import admin, api\nsite = Flask("s")\n'
           'site.wsgi_app = DispatcherMiddleware(site.wsgi_app, {"/admin": admin, "/api": api.wsgi_app, "/x": make(), 1: admin})\n')
    out = _extract("wsgi.py", src)
    assert [(m.framework, m.parent, m.child, m.prefix, m.line) for m in out.mounts] == [
        ("flask", "site", "admin", Template.of("/admin"), 5),
        ("flask", "site", "api", Template.of("/api"), 5),
    ]


def test_exchange_interface_routes_and_calls() -> None:
    src = ('package a;\n@HttpExchange("/api")\npublic interface OrdersApi {\n'
           '  @GetExchange("/orders/{id}") String get(long id);\n'
           '  @HttpExchange(url = "/orders", method = "POST") String create(String b);\n}\n'
           'interface StockApi {\n  @DeleteExchange("/stock/{sku}") void drop(String sku);\n  void plain();\n}\n')
    out = _extract("OrdersApi.java", src)
    assert [(r.framework, r.methods, r.path, r.handler) for r in out.routes] == [
        ("http-exchange", ["GET"], Template.of("/api/orders/{id}"), "OrdersApi.get"),
        ("http-exchange", ["POST"], Template.of("/api/orders"), "OrdersApi.create"),
        ("http-exchange", ["DELETE"], Template.of("/stock/{sku}"), "StockApi.drop"),
    ]
    assert [(h.framework, h.method, h.url, h.caller) for h in out.http_calls] == [
        ("httpexchange", "GET", Template.of("/api/orders/{id}"), "OrdersApi.get"),
        ("httpexchange", "POST", Template.of("/api/orders"), "OrdersApi.create"),
        ("httpexchange", "DELETE", Template.of("/stock/{sku}"), "StockApi.drop"),
    ]


def test_feign_api_client_candidates() -> None:
    src = ('package a;\nimport b.PetsClient;\nimport b.PetsApi;\nclass U {\n  PetsClient c; PetsApi api; Helper h;\n'
           '  void f() { c.listPets(); api.showPetById("1"); h.listPets(); }\n}\n')
    out = _extract("U.java", src)
    assert [(h.framework, h.operation) for h in out.http_calls] == [
        ("openapi-feign", "PetsClient.listPets"),
        ("openapi-client", "PetsApi.showPetById"),
    ]


def test_a_catastrophic_proxy_pattern_is_not_run() -> None:
    # A crafted repository's (a+)+ / (a|aa)* would backtrack for hours on a 40-character path.
    path = "/" + "a" * 40 + "!"
    assert rule_matches("^/(a+)+$", path) is False
    rule = ProxyRule(("/",), "http://svc", (("^/(a|aa)*$", ""),))
    assert proxied_url([rule], path) == ("http://svc" + path, rule)
    assert rule_matches("^/" + "x" * 300, "/" + "x" * 300) is False  # too long a pattern


def test_starlette_routes_and_mounts() -> None:
    src = ('from starlette.applications import Starlette\nfrom starlette.routing import Mount, Route\n'
           'from api import api_app\n\nasync def hello(request):\n    return None\n\n'
           'app = Starlette(routes=[\n    Route("/hello", hello, methods=["GET", "post"]),\n'
           '    Mount("/v1", routes=[Route("/x", hello), Route(path="/y", endpoint=Other)]),\n'
           '    Mount("/api", app=api_app),\n    Mount("/static", app=StaticFiles(directory="s")),\n])\n')
    out = _extract("site.py", src)
    assert [(r.framework, r.name, r.prefix) for r in out.routers] == [("starlette", "app", Template())]
    assert [(r.methods, r.path, r.handler, r.handler_ref, r.router, r.line) for r in out.routes] == [
        (["GET", "POST"], Template.of("/hello"), "hello", None, "app", 9),
        (["GET"], Template.of("/v1/x"), "hello", None, "app", 10),
        (["*"], Template.of("/v1/y"), None, "Other", "app", 10),
    ]
    assert [(m.parent, m.child, m.prefix) for m in out.mounts] == [("app", "api_app", Template.of("/api"))]


def test_starlette_names_without_the_import_are_nothing() -> None:
    src = 'app = Starlette(routes=[Route("/hello", hello)])\n'
    out = _extract("site.py", src)
    assert (out.routers, out.routes) == ([], [])
