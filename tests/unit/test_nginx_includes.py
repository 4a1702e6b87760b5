"""nginx configuration beyond ``*.conf`` files read alone (acc63b): files found by location and content
(``sites-available/app``, a template ``default.conf.tmpl``), and ``include`` directives followed inside
the repository (relative to the including file, to nginx's prefix, an absolute path by its trailing
components, globs), never out of it. Exact routes, and what must not be read."""

from __future__ import annotations

import pytest

from indexer.frameworks.nginx_config import is_nginx_config, load_nginx_routes, sniffed
from indexer.frameworks.services import service_map
from indexer.incremental import is_config_path
from stores.gateway import GatewayRoute
from tests.resolution_harness import write_tree

TREE = {
    "docker-compose.yml": ("services:\n  api:\n    build: api\n  app:\n    build: app\n"
                           "  web:\n    build: nginx\n  edge:\n    build: deploy\n"),
    "api/Dockerfile": "FROM python:3.12\n",
    "app/Dockerfile": "FROM node:22\n",
    "nginx/Dockerfile": "FROM nginx:1.27\nCOPY nginx.conf /etc/nginx/nginx.conf\nCOPY conf.d /etc/nginx/conf.d\n",
    "nginx/nginx.conf": ("events {}\nhttp {\n    include /etc/nginx/mime.types;\n"
                         "    include /etc/nginx/conf.d/*.conf;\n}\n"),
    "nginx/conf.d/api.conf": ("server {\n    listen 80;\n    include snippets/api-locations;\n"
                              "    location /health { return 200; }\n}\n"),
    "nginx/conf.d/loop.conf": "include conf.d/loop.conf;\n",
    "nginx/snippets/api-locations": "location /api/ { proxy_pass http://api:8000/; }\n",
    "nginx/snippets/proxy-headers": "proxy_set_header Host $host;\n",
    "nginx/sites-available/app": ("server {\n    location /app/ {\n        include ../snippets/proxy-headers;\n"
                                  "        proxy_pass http://app:3000/;\n    }\n}\n"),
    "nginx/run": "#!/bin/sh\nexec nginx -g 'daemon off;'\n",
    "deploy/Dockerfile": "FROM nginx:1.27\nENV API_HOST=api\nCOPY default.conf.tmpl /etc/nginx/templates/\n",
    "deploy/default.conf.tmpl": "server {\n    location /v2/ { proxy_pass http://${API_HOST}:8000/v2/; }\n}\n",
    "docs/notes": "server {\n    location /docs/ { proxy_pass http://api:8000/; }\n}\n",
}


@pytest.fixture
def tree(tmp_path):
    return write_tree(tmp_path / "shop", TREE)


def test_configurations_by_location_and_their_includes(tree):
    loaded = load_nginx_routes(str(tree), service_map(tree), {})
    assert list(loaded.routes) == [
        GatewayRoute("api", ("~(?:^/v2/)",), (), (("ReplacePrefix", "/v2/", "/v2/"),)),  # the template, filled
        # nginx.conf -> conf.d/*.conf -> snippets/api-locations: one server, its locations in nginx's order
        GatewayRoute("", ("~(?:^/health)",), (), ()),
        GatewayRoute("api", ("~(?:^/api/)",), (), (("ReplacePrefix", "/api/", "/"),)),
        GatewayRoute("app", ("~(?:^/app/)",), (), (("ReplacePrefix", "/app/", "/"),)),  # sites-available/app
    ]
    # not read: docs/notes (no nginx folder), nginx/run and nginx/Dockerfile (no block), nor the host's
    # /etc/nginx/mime.types; conf.d/api.conf and loop.conf only through nginx.conf (once)
    assert loaded.skipped == ()


def test_which_files_may_be_nginx_configuration():
    assert [p for p in ("nginx.conf", "a/site.conf", "nginx.conf.template", "x/default.conf.tmpl", "y/app.conf.tpl",
                        "sites-available/app", "deploy/nginx/default", "conf.d/api.nginx", "nginx/templates/default.template",
                        "nginx/Dockerfile") if is_nginx_config(p)] == [
        "nginx.conf", "a/site.conf", "nginx.conf.template", "x/default.conf.tmpl", "y/app.conf.tpl",
        "sites-available/app", "deploy/nginx/default", "conf.d/api.nginx", "nginx/templates/default.template",
        "nginx/Dockerfile"]  # a candidate by location: its content decides
    assert [p for p in ("docs/notes", "app", "nginx/app.py", "conf.d/readme.md", "src/server.js", "settings.template",
                        "nginx/contrib/README", "vendor/nginx/auto/cc/gcc")
            if is_nginx_config(p)] == []
    assert is_config_path("nginx/sites-available/app") and is_config_path("deploy/default.conf.tmpl")
    assert not is_config_path("docs/notes")
    assert sniffed(b"upstream api {\n server api:80;\n}") and sniffed(b"  location /x { }")
    assert not sniffed(b"FROM nginx\nCOPY . /etc/nginx\n") and not sniffed(b"# server {\n")


def test_an_include_out_of_the_repository_reads_nothing_there(tmp_path):
    outside = tmp_path / "outside"
    write_tree(outside, {"evil.conf": "server { location /stolen/ { proxy_pass http://api:8000/; } }\n"})
    root = write_tree(tmp_path / "r", {
        "docker-compose.yml": "services:\n  api:\n    build: api\n",
        "api/Dockerfile": "FROM python\n",
        "nginx.conf": f"http {{\n    include {outside}/evil.conf;\n    include ../outside/*.conf;\n"
                      "    server { location /ok/ { proxy_pass http://api:8000/; } }\n}\n",
    })
    routes = load_nginx_routes(str(root), service_map(root), {}).routes
    assert routes == (GatewayRoute("api", ("~(?:^/ok/)",), (), (("ReplacePrefix", "/ok/", "/"),)),)


def test_an_include_cycle_and_a_deep_chain_end(tmp_path):
    files = {f"conf.d/c{i}.conf": f"include c{i + 1}.conf;\nlocation /l{i}/ {{ proxy_pass http://api:8000/; }}\n"
             for i in range(12)}
    files["conf.d/c12.conf"] = "include c0.conf;\n"  # relative to the including file's folder
    files["nginx.conf"] = "http {\n  server {\n    include conf.d/c0.conf;\n  }\n}\n"
    files["docker-compose.yml"] = "services:\n  api:\n    build: api\n"
    files["api/Dockerfile"] = "FROM python\n"
    root = write_tree(tmp_path / "r", files)
    routes = load_nginx_routes(str(root), service_map(root), {}).routes
    # nginx.conf's server: c0 .. c7 (eight levels of include, each include before its file's location:
    # equal prefixes keep that order); c8 .. c12 are included by others (never read alone), the cycle
    # back to c0 never expanded
    assert [r.paths[0] for r in routes] == [f"~(?:^/l{i}/)" for i in range(7, -1, -1)]
