"""nginx as an API gateway (session 62, nginx62): ``location`` blocks of nginx configuration files read
into :mod:`stores.gateway`'s model (:mod:`indexer.frameworks.nginx_config`) and applied by the linker
to a front end's relative URLs. Exact links, and what must not be linked: a path no location
forwards, an expression location that does not match, a host outside the repository, an unknown
template variable, a ``rewrite ... last``."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest

from analysis.navigation import gateway_endpoints
from indexer.frameworks.clients import HOLE, gateway_url
from indexer.frameworks.nginx_config import dockerfile_env, load_nginx_routes
from indexer.frameworks.services import compose_environment, service_map
from stores.embedded import EmbeddedStore
from stores.gateway import GatewayRoute, routes_from_json, routes_to_json
from tests.index_dump import http_links
from tests.index_harness import index_fixture
from tests.resolution_harness import write_tree

CONF = """\
upstream catalogue_up {
    server ${CATALOGUE_HOST}:8080;
}
server {
    listen 8080;
    location / { root /usr/share/nginx/html; }
    location /api/cart/ { proxy_pass http://${CART_HOST}:8080/; }
    location /api/catalogue/ { proxy_pass http://catalogue_up/v1/; }
    location = /api/ping { proxy_pass http://cart:8080/health; }
    location ~ ^/api/legacy/(\\w+)$ { proxy_pass http://cart:8080/old/$1; }
    location ~* \\.PHP$ { proxy_pass http://cart:8080; }
    location /api/raw/ { proxy_pass http://cart:8080; }
    location /api/re/ {
        rewrite ^/api/re/(.*)$ /items/$1 break;
        proxy_pass http://catalogue_up;
    }
    location /api/github/ { proxy_pass https://api.github.com/; }
    location /api/unknown/ { proxy_pass http://${PAYMENT_HOST}:8080/; }
    location /api/old/ { rewrite ^/api/old/(.*)$ /api/cart/$1 last; }
}
"""

EXPRESS = "const express = require('express');\nconst app = express();\n{routes}\napp.listen(8080);\n"
PACKAGE = '{"name": "%s", "dependencies": {"express": "4"}}'

TREE = {
    "docker-compose.yml": (
        "services:\n"
        "  cart:\n    build: cart\n"
        "  catalogue:\n    build: catalogue\n"
        "  web:\n    build: web\n    environment:\n      - CATALOGUE_HOST=catalogue\n    ports:\n      - \"8080:8080\"\n"),
    "web/Dockerfile": "FROM nginx:1.25\nENV CART_HOST=cart \\\n    OTHER=x\nCOPY default.conf.template /etc/nginx/templates/\n"
                      "COPY static /usr/share/nginx/html\n",
    "web/default.conf.template": CONF,
    "web/static/app.js": (
        "function addToCart(id) { return fetch('/api/cart/add/' + id); }\n"
        "function products() { return fetch('/api/catalogue/products'); }\n"
        "function ping() { return fetch('/api/ping'); }\n"
        "function pingDeeper() { return fetch('/api/ping/x'); }\n"
        "function legacy() { return fetch('/api/legacy/abc'); }\n"
        "function legacyDeeper() { return fetch('/api/legacy/a/b'); }\n"
        "function raw() { return fetch('/api/raw/x'); }\n"
        "function rewritten(id) { return fetch('/api/re/' + id); }\n"
        "function github() { return fetch('/api/github/repos'); }\n"
        "function unknownHost() { return fetch('/api/unknown/x'); }\n"
        "function restarted() { return fetch('/api/old/x'); }\n"),
    "cart/package.json": PACKAGE % "cart",
    "cart/Dockerfile": "FROM node:20\nCOPY . /app\n",
    "cart/server.js": EXPRESS.format(routes="\n".join([
        "app.get('/add/:id', (req, res) => res.send('ok'));",
        "app.get('/health', (req, res) => res.send('ok'));",
        "app.get('/old/:name', (req, res) => res.send('ok'));",
        "app.get('/api/raw/:x', (req, res) => res.send('ok'));",
        "app.get('/repos', (req, res) => res.send('ok'));",
        "app.get('/x', (req, res) => res.send('ok'));"])),
    "catalogue/package.json": PACKAGE % "catalogue",
    "catalogue/Dockerfile": "FROM node:20\nCOPY . /app\n",
    "catalogue/server.js": EXPRESS.format(routes="\n".join([
        "app.get('/v1/products', (req, res) => res.send('ok'));",
        "app.get('/items/:id', (req, res) => res.send('ok'));"])),
}


@pytest.fixture(scope="module")
def shop(tmp_path_factory) -> Path:
    return write_tree(tmp_path_factory.mktemp("nginx") / "shop", TREE)


@pytest.fixture(scope="module")
def shop_db(shop, tmp_path_factory) -> Path:
    db = tmp_path_factory.mktemp("nginxdb") / "x.db"
    index_fixture(shop, db, "shop").close()
    return db


def test_the_locations_become_routes_in_nginx_order(shop):
    # exact, then expressions as written, then prefixes longest first (equal lengths: as written)
    found = service_map(shop)
    loaded = load_nginx_routes(str(shop), found, {})
    assert loaded.skipped == ()
    assert list(loaded.routes) == [
        GatewayRoute("cart", ("~(?:^/api/ping$)",), (), (("ReplacePrefix", "/api/ping", "/health"),)),
        GatewayRoute("cart", ("~(?:^/api/legacy/(\\w+)$)",), (), (("Rewrite", "^/api/legacy/(\\w+)$", "/old/$1"),)),
        GatewayRoute("cart", ("~*(?:\\.PHP$)",), (), ()),
        GatewayRoute("catalogue", ("~(?:^/api/catalogue/)",), (), (("ReplacePrefix", "/api/catalogue/", "/v1/"),)),
        GatewayRoute("", ("~(?:^/api/unknown/)",), (), ()),  # ${PAYMENT_HOST}: no value anywhere
        GatewayRoute("", ("~(?:^/api/github/)",), (), ()),  # not a service of the repository
        GatewayRoute("cart", ("~(?:^/api/cart/)",), (), (("ReplacePrefix", "/api/cart/", "/"),)),
        GatewayRoute("cart", ("~(?:^/api/raw/)",), (), ()),
        GatewayRoute("", ("~(?:^/api/old/)",), (), ()),  # rewrite ... last: another location is searched
        GatewayRoute("catalogue", ("~(?:^/api/re/)",), (), (("Rewrite", "^/api/re/(.*)$", "/items/$1"),)),
        GatewayRoute("", ("~(?:^/)",), (), ()),
    ]


def test_each_location_forwards_as_nginx_does(shop):
    routes = load_nginx_routes(str(shop), service_map(shop), {}).routes
    assert gateway_url(routes, "GET", "/api/cart/add/" + HOLE) == ("cart", "/add/{}")
    assert gateway_url(routes, "POST", "/api/catalogue/products") == ("catalogue", "/v1/products")
    assert gateway_url(routes, "GET", "/api/ping") == ("cart", "/health")
    assert gateway_url(routes, "GET", "/api/legacy/abc") == ("cart", "/old/abc")
    assert gateway_url(routes, "GET", "/api/raw/x?y=1") == ("cart", "/api/raw/x?y=1")  # no URI part: passed as is
    assert gateway_url(routes, "GET", "/shop/index.php") == ("cart", "/shop/index.php")  # ~*: any case
    assert gateway_url(routes, "GET", "/api/re/" + HOLE) == ("catalogue", "/items/{}")
    # what is not forwarded to a service: the exact location takes no deeper path, the expression
    # does not match, an external host, an unknown variable, a rewrite that searches again, static files
    for url in ("/api/ping/x", "/api/legacy/a/b", "/api/github/repos", "/api/unknown/x", "/api/old/x", "/index.html",
                "/api/cartx/1"):
        assert gateway_url(routes, "GET", url) is None, url


def test_the_linker_links_the_front_end_to_the_services_handlers(shop_db):
    rows = http_links(shop_db)
    # a literal path is linked to the handler whose template it fills (/old/abc: GET /old/{})
    assert rows == [
        ("addToCart(1)", "endpoint:GET /add/{}", "cart"),
        ("github(0)", "endpoint:GET /api/github/repos", None),
        ("legacy(0)", "endpoint:GET /old/{}", "cart"),
        ("legacyDeeper(0)", "endpoint:GET /api/legacy/a/b", None),
        ("ping(0)", "endpoint:GET /health", "cart"),
        ("pingDeeper(0)", "endpoint:GET /api/ping/x", None),
        ("products(0)", "endpoint:GET /v1/products", "catalogue"),
        ("raw(0)", "endpoint:GET /api/raw/{}", "cart"),
        ("restarted(0)", "endpoint:GET /api/old/x", None),
        ("rewritten(1)", "endpoint:GET /items/{}", "catalogue"),
        ("unknownHost(0)", "endpoint:GET /api/unknown/x", None),
    ]


def test_a_request_path_reaches_the_handler_through_nginx_and_nothing_else(shop_db):
    store = EmbeddedStore(shop_db)
    try:
        assert [n.id for n in gateway_endpoints(store, "GET", "/api/cart/add/7")] == ["endpoint:GET /add/{}"]
        assert [n.id for n in gateway_endpoints(store, "GET", "/api/catalogue/products")] == ["endpoint:GET /v1/products"]
        assert gateway_endpoints(store, "GET", "/api/github/repos") is None  # not cart's GET /repos
        assert gateway_endpoints(store, "GET", "/api/unknown/x") is None  # not cart's GET /x
    finally:
        store.close()


def test_files_nginx_cannot_be_read_from_are_skipped_with_a_reason(tmp_path):
    root = write_tree(tmp_path / "r", {
        "a/nginx.conf": "server { location /a/ { proxy_pass http://svc/; }\n",  # unbalanced
        "b/site.conf": "server { location /b/ { proxy_pass http://svc/; } }\x00",
        "c/big.conf": "# " + "x" * 600_000 + "\n",
    })
    os.mkfifo(root / "fifo.conf")
    (tmp_path / "outside.conf").write_text("server { location /o/ { proxy_pass http://svc/; } }")
    os.symlink(tmp_path / "outside.conf", root / "link.conf")
    loaded = load_nginx_routes(str(root), service_map(root), {"svc": "svc"})
    assert loaded.routes == ()
    assert sorted(loaded.skipped) == [("a/nginx.conf", "unparsed"), ("b/site.conf", "binary"),
                                      ("c/big.conf", "too_large"), ("fifo.conf", "not_regular"),
                                      ("link.conf", "symlink_outside")]


def test_the_environment_of_a_template_comes_from_the_dockerfile_and_compose():
    assert dockerfile_env("FROM a AS build\nENV X=1\nFROM nginx\nENV A=1 B=\"two words\"\nENV C 3\nENV D=$PATH\n") == {
        "A": "1", "B": "two words", "C": "3"}
    assert compose_environment({"A": "${HOST:-cart}", "B": 2, "C": None, "D": "${NOPE}"}, {}) == {"A": "cart", "B": "2"}
    assert compose_environment(["A=${X}", "B"], {"X": "y"}) == {"A": "y"}
    assert compose_environment("A=1", {}) == {}


def test_precedence_nesting_and_locations_nginx_would_not_forward(tmp_path):
    root = write_tree(tmp_path / "r", {
        "deploy/nginx.conf": """\
events {}
http {
    upstream outside { server api.example.com:443; }
    server {
        location ~ \\.(png|jpg)$ { root /srv; }
        location ^~ /static/ { proxy_pass http://svc:8080/assets/; }
        location /static/big/ { proxy_pass http://svc:8080/big/; }
        location /api/ {
            proxy_pass http://svc:8080/;
            location /api/admin/ { proxy_pass http://admin:9000; }
        }
        location ~ ^/v(\\d)/ { proxy_pass http://svc:8080/static-uri/; }
        location /ext/ { proxy_pass http://outside/; }
        location /local/ { proxy_pass http://localhost:8080/; }
        location @fallback { proxy_pass http://svc:8080; }
    }
}
"""})
    routes = load_nginx_routes(str(root), service_map(root), {"svc": "svc", "admin": "admin-api"}).routes
    assert gateway_url(routes, "GET", "/static/logo.png") == ("svc", "/assets/logo.png")  # ^~ before the expression
    assert gateway_url(routes, "GET", "/api/logo.png") is None  # the expression before the prefix: a static file
    # a longer ordinary prefix than the ^~ one: nginx chooses it, then tries the expressions first
    assert gateway_url(routes, "GET", "/static/big/logo.png") is None
    assert gateway_url(routes, "GET", "/static/big/x") == ("svc", "/big/x")
    assert gateway_url(routes, "GET", "/api/orders/" + HOLE) == ("svc", "/orders/{}")
    assert gateway_url(routes, "GET", "/api/admin/users") == ("admin-api", "/api/admin/users")  # nested, longer
    assert gateway_url(routes, "GET", "/v1/x") is None  # a URI part in an expression location: nginx refuses it
    assert gateway_url(routes, "GET", "/ext/x") is None  # the upstream's server is outside the repository
    assert gateway_url(routes, "GET", "/local/x") is None  # localhost names no service
    assert gateway_url(routes, "GET", "/fallback/x") is None  # a named location is not a path
    assert [r.paths[0] for r in routes] == ["~(?:^/static/(?!big/))", "~(?:\\.(png|jpg)$)", "~(?:^/v(\\d)/)",
                                            "~(?:^/static/big/)", "~(?:^/api/admin/)", "~(?:^/local/)", "~(?:^/api/)",
                                            "~(?:^/ext/)"]


def test_an_applications_nginx_serves_only_that_applications_clients(tmp_path):
    root = write_tree(tmp_path / "r", {
        "shop/compose.yaml": "services:\n  api:\n    build: api\n  proxy:\n    build: proxy\n",
        "shop/proxy/nginx.conf": "server { location /api/ { proxy_pass http://api:8080/; } }\n",
        "shop/api/Dockerfile": "FROM python:3.12\nCOPY . /app\n",
        "shop/proxy/Dockerfile": "FROM nginx\nCOPY nginx.conf /etc/nginx/conf.d/default.conf\n",
        "blog/compose.yaml": "services:\n  web:\n    build: web\n",
        "blog/web/Dockerfile": "FROM node:20\nCOPY . /app\n",
    })
    routes = load_nginx_routes(str(root), service_map(root), {}).routes
    assert routes == (GatewayRoute("api", ("~(?:^/api/)",), (), (("ReplacePrefix", "/api/", "/"),), "shop"),)
    assert gateway_url(routes, "GET", "/api/posts", "shop/web/app.js") == ("api", "/posts")
    assert gateway_url(routes, "GET", "/api/posts", "blog/web/app.js") is None  # another application's client
    assert gateway_url(routes, "GET", "/api/posts", "shopping/app.js") is None  # not below shop/
    assert gateway_url(routes, "GET", "/api/posts") == ("api", "/posts")  # no client file: a request path asked
    assert routes_from_json(json.loads(json.dumps(routes_to_json(routes)))) == list(routes)
    assert "scope" not in routes_to_json([GatewayRoute("s", ("/a/**",))])[0]  # Spring routes' JSON as before


def test_a_file_compose_mounts_for_envsubst_is_filled_from_that_services_environment(tmp_path):
    root = write_tree(tmp_path / "r", {
        "compose.yaml": (
            "services:\n"
            "  web:\n    image: nginx\n    volumes:\n      - ./nginx/nginx.conf:/tmp/nginx.conf:ro\n"
            "    environment:\n      - API_ADDR=api:9091\n"
            "    command: /bin/sh -c \"envsubst < /tmp/nginx.conf > /etc/nginx/conf.d/default.conf && nginx\"\n"
            "  tpl:\n    image: nginx\n    volumes:\n      - type: bind\n        source: ./tpl/site.conf\n"
            "        target: /etc/nginx/templates/site.conf.template\n    environment:\n      API: api\n"
            "  plain:\n    image: nginx\n    volumes:\n      - ./plain/site.conf:/etc/nginx/conf.d/site.conf\n"
            "    environment:\n      API: api\n"
            "  api:\n    build: api\n"),
        "api/Dockerfile": "FROM python:3.12\nCOPY . /app\n",
        "nginx/nginx.conf": "server { location /a/ { proxy_pass http://$API_ADDR/; set $x $uri; } }\n",
        "tpl/site.conf": "server { location /b/ { proxy_pass http://${API}:80; } }\n",
        "plain/site.conf": "server { location /c/ { proxy_pass http://${API}:80/; } }\n",
    })
    found = service_map(root)
    assert found.filled == {"nginx/nginx.conf": {"API_ADDR": "api:9091"}, "tpl/site.conf": {"API": "api"}}
    routes = load_nginx_routes(str(root), found, {}).routes
    assert gateway_url(routes, "GET", "/a/x") == ("api", "/x")
    assert gateway_url(routes, "GET", "/b/x") == ("api", "/b/x")
    assert gateway_url(routes, "GET", "/c/x") is None  # mounted as is: nothing fills ${API}
