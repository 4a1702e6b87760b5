"""nginx ``include`` files in incremental runs: a file a configuration includes that is no configuration by
its name (``includes/api.inc``) is a link input. Editing, deleting or adding one (where a glob include
reads) makes the watcher's update read the gateways again, as ``ripple index`` does, so the routes and the
client links they make are those of a full index (:class:`tests.unit.test_incremental.Workspace` checks
the watcher's and a one-shot run's index against a full one after each edit); an unrelated file's edit
reads nothing again. A fixture written for this test: a compose file with an nginx ``web`` and a Flask
``api`` serving ``GET /orders`` and ``GET /v2/orders``; a page fetching ``/api/orders`` through nginx."""

from __future__ import annotations

from pathlib import Path

import watchfiles

from indexer.watch import SourceFilter
from stores.gateway import GatewayRoute
from tests.index_dump import http_links
from tests.unit.test_incremental import Workspace

CONF = ("events {}\nhttp {\n    server {\n        listen 80;\n        include includes/api.inc;\n"
        "        include extra/*.inc;\n    }\n}\n")
API_INC = "location /api/ { proxy_pass http://api:8000/; }\n"
FILES = {
    "docker-compose.yml": "services:\n  web:\n    build: nginx\n  api:\n    build: api\n",
    "nginx/Dockerfile": "FROM nginx:1.27\nCOPY . /etc/nginx/\n",
    "nginx/nginx.conf": CONF,
    "nginx/includes/api.inc": API_INC,
    "nginx/notes.inc": "# not included anywhere\n",
    "api/Dockerfile": "FROM python:3.12\n",
    "api/app.py": ('from flask import Flask\n\napp = Flask(__name__)\n\n\n@app.get("/orders")\ndef orders():\n    return "[]"\n\n\n'
                   '@app.get("/v2/orders")\ndef orders_v2():\n    return "[]"\n'),
    "web/shop.js": 'export function load() {\n  return fetch("/api/orders");\n}\n',
}
API = GatewayRoute("api", ("~(?:^/api/)",), (), (("ReplacePrefix", "/api/", "/"),))
API_V2 = GatewayRoute("api", ("~(?:^/api/)",), (), (("ReplacePrefix", "/api/", "/v2/"),))


def _client_links(db: Path) -> list[tuple[str, str, str | None]]:
    """The page's requests: ``(caller, endpoint id, the service its edge names)``."""
    return http_links(db)


def test_included_files_edited_deleted_and_added_read_the_gateways_again(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, FILES)
    try:
        link = ws.index.resolver.link
        assert link is not None and link.gateways == (API,)
        assert link.gateway_inputs == {"nginx/nginx.conf", "nginx/includes/api.inc", "nginx/Dockerfile"}
        assert link.gateway_patterns == ("nginx/extra/*.inc", "nginx/includes/api.inc")
        assert _client_links(ws.db) == [("load(0)", "endpoint:GET /orders", "api")]
        # the included file is edited: nginx now forwards /api/ to /v2/
        report = ws.edit({"nginx/includes/api.inc": API_INC.replace(":8000/;", ":8000/v2/;")})
        assert ws.index.resolver.link.gateways == (API_V2,)
        assert _client_links(ws.db) == [("load(0)", "endpoint:GET /v2/orders", "api")]
        assert report.files_resolved > 0
        # it goes: no route takes /api/orders, which is then a path of no known service
        ws.edit({"nginx/includes/api.inc": None})
        assert ws.index.resolver.link.gateways == ()
        assert _client_links(ws.db) == [("load(0)", "endpoint:GET /api/orders", None)]
        # a file added where `include extra/*.inc` reads
        ws.edit({"nginx/extra/api.inc": API_INC})
        assert ws.index.resolver.link.gateways == (API,)
        assert _client_links(ws.db) == [("load(0)", "endpoint:GET /orders", "api")]
        assert "nginx/extra/api.inc" in ws.index.resolver.link.gateway_inputs
    finally:
        ws.close()


def test_an_unrelated_file_reads_nothing_again(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, FILES)
    try:
        for rel in ("nginx/notes.inc", "nginx/extra/deeper/x.inc", "docs/api.inc"):
            assert not ws.index.reads(ws.src / rel)
            report = ws.edit({rel: "location /api/ { proxy_pass http://api:8000/v2/; }\n"})
            assert (report.files_changed, report.files_resolved, report.files_written) == (0, 0, 0)
            assert ws.index.resolver.link.gateways == (API,)
        assert _client_links(ws.db) == [("load(0)", "endpoint:GET /orders", "api")]
    finally:
        ws.close()


def test_the_watcher_lets_included_files_through(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, FILES)
    try:
        watched, plain = SourceFilter(ws.index.reads), SourceFilter()
        change = watchfiles.Change.modified
        for rel, seen in (("nginx/includes/api.inc", True), ("nginx/extra/new.inc", True),
                          ("nginx/notes.inc", False), ("nginx/nginx.conf", True), ("web/shop.js", True)):
            assert watched(change, str(ws.src / rel)) is seen, rel
        assert not plain(change, str(ws.src / "nginx/includes/api.inc"))  # no suffix of configuration
    finally:
        ws.close()


def test_an_absolute_include_is_found_below_a_folder_above_nginx_prefix(tmp_path: Path) -> None:
    # Lex-31/pg_express's layout: nginx/sites-available/default includes /etc/nginx/includes/*.inc, which the
    # repository keeps in nginx/includes/ (its nginx/ is /etc/nginx); elsewhere/includes/ is not that folder
    from indexer.frameworks.nginx_config import load_nginx_routes
    from indexer.frameworks.services import service_map
    files = {"nginx/sites-available/default": "server {\n    listen 80;\n    include /etc/nginx/includes/app.inc;\n}\n",
             "nginx/includes/app.inc": "location /api { proxy_pass http://localhost:3000/api; }\n",
             "elsewhere/includes/app.inc": "location /wrong { return 404; }\n"}
    for rel, text in files.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    loaded = load_nginx_routes(str(tmp_path), service_map(tmp_path), {})
    assert list(loaded.routes) == [GatewayRoute("", ("~(?:^/api)",), (), ())]
    assert loaded.inputs == {"nginx/sites-available/default", "nginx/includes/app.inc"}
    assert "nginx/includes/app.inc" in loaded.patterns and "elsewhere/includes/app.inc" not in loaded.patterns
