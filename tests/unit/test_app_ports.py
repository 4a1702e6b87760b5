"""The ports applications declare they listen on (session 68, acc68b; :mod:`indexer.frameworks.app_ports`):
a client of ``//localhost:8100`` reaches the application of the repository listening on 8100 and not another
one serving the same route, as a compose-published port already did; a client naming a port no application
declares reaches every handler, as before. Measured on go-kratos/beer-shop (docs/accuracy.md, session 68).
"""

from __future__ import annotations

import json

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from indexer.frameworks.app_ports import app_folder, port_of, ports_of_file
from indexer.frameworks.link_options import LinkOptions
from indexer.frameworks.services import service_map
from indexer.frameworks.spring_config import load_module_properties
from indexer.languages import extractor_for_path
from indexer.pipeline import index_repository
from indexer.rescan import is_config_path
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import dump
from tests.resolution_harness import write_tree


def _gin(pkg: str, handler: str) -> str:
    return f"""package {pkg}

import "github.com/gin-gonic/gin"

func {handler}(c *gin.Context) {{
}}

func Routes() {{
    r := gin.Default()
    r.POST("/v1/login", {handler})
    r.Run()
}}
"""


def _kratos_config(addr: str) -> str:
    return f"server:\n  http:\n    addr: {addr}\n    timeout: 1s\n  grpc:\n    addr: 0.0.0.0:9100\n"


_CLIENTS = """import axios from "axios";

export function adminLogin() {
  return axios.post("//localhost:8100/v1/login", {});
}

export function shopLogin() {
  return fetch("http://127.0.0.1:8000/v1/login", { method: "POST" });
}

export function nobodysPort() {
  return fetch("http://localhost:8101/v1/login", { method: "POST" });
}

export function relative() {
  return fetch("/v1/login", { method: "POST" });
}
"""

_TREE = {
    "go.mod": "module example.com/shop\n\ngo 1.22\n",
    "app/admin/configs/config.yaml": _kratos_config("0.0.0.0:8100"),
    "app/admin/internal/server/http.go": _gin("server", "AdminLogin"),
    "app/front/configs/config.yaml": _kratos_config(":8000"),
    "app/front/internal/server/http.go": _gin("server", "FrontLogin"),
    # a random port ("0") declares nothing: the folder stays no application
    "app/worker/configs/config.yaml": _kratos_config("0.0.0.0:0"),
    "web/package.json": json.dumps({"name": "web", "scripts": {"start": "vite"}, "dependencies": {"axios": "1"}}),
    "web/src/api.js": _CLIENTS,
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("ports")
    root = write_tree(tmp / "shop", _TREE)
    s = EmbeddedStore(tmp / "shop.db")
    index_repository(root, s, s, IndexOptions(repo="shop", jobs=1))
    yield s
    s.close()


def test_declared_ports_name_the_application_a_loopback_client_requests(store: EmbeddedStore) -> None:
    eid = "endpoint:POST /v1/login"
    clients = {e.src.split(":", 1)[1]: e.props.get("service") for e in store.incoming([eid], ["CALLS_HTTP"])[eid]}
    assert clients == {"web/src/api.adminLogin(0)": "admin", "web/src/api.shopLogin(0)": "front",
                       "web/src/api.nobodysPort(0)": "localhost", "web/src/api.relative(0)": None}
    served = {e.src.split(":", 1)[1]: e.props.get("service") for e in store.incoming([eid], ["EXPOSES"])[eid]}
    assert served == {"app/admin/internal/server/http.AdminLogin(1)": "admin",
                      "app/front/internal/server/http.FrontLogin(1)": "front"}


def _callers(report) -> list[str]:
    return sorted(r.node.name for hop in report.hops for r in hop)


def test_a_client_of_one_port_does_not_reach_the_other_application(store: EmbeddedStore) -> None:
    admin = blast_radius(store, SymbolQuery("AdminLogin"))
    # not shopLogin (port 8000 is front's); nobodysPort's 8101 and the relative URL name no application
    assert _callers(admin) == ["adminLogin", "nobodysPort", "relative"]
    assert "1 HTTP client call to another service's endpoint of the same path not followed" in render_markdown(admin)
    front = blast_radius(store, SymbolQuery("FrontLogin"))
    assert _callers(front) == ["nobodysPort", "relative", "shopLogin"]  # not adminLogin (8100)


def test_port_declarations_of_each_stack(tmp_path) -> None:
    tree = {
        # Spring: server.port of a module (a placeholder's default), named by spring.application.name
        "orders/pom.xml": "<project><artifactId>orders</artifactId></project>\n",
        "orders/src/main/resources/application.yml":
            "spring:\n  application:\n    name: orders-service\nserver:\n  port: ${ORDERS_PORT:8081}\n",
        # ASP.NET: launchSettings profiles (and ASPNETCORE_URLS), Kestrel endpoints, Urls
        "Billing.Api/Billing.Api.csproj": "<Project Sdk=\"Microsoft.NET.Sdk.Web\"></Project>\n",
        "Billing.Api/Properties/launchSettings.json": """{
  // comments are allowed
  "profiles": {
    "http": {"commandName": "Project", "applicationUrl": "https://localhost:7001;http://localhost:5001"},
    "docker": {"commandName": "Project", "environmentVariables": {"ASPNETCORE_URLS": "http://+:5002"}},
  }
}""",
        "Stock.Api/Stock.Api.csproj": "<Project Sdk=\"Microsoft.NET.Sdk.Web\"></Project>\n",
        "Stock.Api/appsettings.json": '{"Kestrel": {"Endpoints": {"Http": {"Url": "http://0.0.0.0:5003"}}}, '
                                      '"urls": "http://*:5004"}',
        # two applications declaring one port: neither is named by it
        "a/configs/config.yaml": _kratos_config(":9000"),
        "b/configs/config.yaml": _kratos_config(":9000"),
        # compose publishes 5003 for another service: compose wins over Stock.Api's declaration
        "pay/Dockerfile": "FROM scratch\nCOPY . /app\n",
        "docker-compose.yml": "services:\n  payments:\n    build: ./pay\n    ports: ['5003:80']\n",
        # files in other places declare nothing
        "docs/config.yaml": _kratos_config(":7777"),
    }
    root = write_tree(tmp_path / "r", tree)
    found = service_map(root, load_module_properties(root))
    assert dict(found.listening) == {"8081": ("orders",), "7001": ("Billing.Api",), "5001": ("Billing.Api",),
                                     "5002": ("Billing.Api",), "5003": ("Stock.Api",), "5004": ("Stock.Api",),
                                     "9000": ("a", "b")}
    assert found.units["Billing.Api"].kinds == ("dotnet", "port")  # a Web SDK project is a unit; it declares ports
    assert "docs" not in found.units
    services = LinkOptions.for_repository(root).services
    loopback = {k: v for k, v in services.items() if "//" in k}
    expect = {"8081": "orders-service", "7001": "Billing.Api", "5001": "Billing.Api", "5002": "Billing.Api",
              "5003": "payments", "5004": "Stock.Api"}
    assert loopback == {f"{scheme}{host}:{port}": name for port, name in expect.items()
                        for scheme in ("http://", "https://", "//") for host in ("localhost", "127.0.0.1")}


def test_port_values_and_files() -> None:
    assert [port_of(v) for v in ("[::]:8080", "https://+:5001", "http://localhost:5000/", "${P}", "abc:80x")] == \
        [8080, 5001, 5000, None, None]
    assert app_folder("x/Properties/launchSettings.json") == "x" and app_folder("x/launchSettings.json") is None
    assert app_folder("svc/configs/nested/config.yaml") is None
    texts = {"c/configs/bad.yaml": "server: [unclosed", "c/configs/list.yaml": "- 1\n- 2\n",
             "P/Properties/launchSettings.json": "{not json", "d/appsettings.json": '{"Urls": 5}'}
    assert [ports_of_file(f, texts.get) for f in texts] == [[], [], [], []]
    # nested past the parser's recursion limit, or longer than any real settings file: nothing, quickly
    launch = '{"profiles": {"p": {"applicationUrl": "http://localhost:5000"}}, "pad": "%s"}'
    assert ports_of_file("P/Properties/launchSettings.json", lambda _: launch % "") == [5000]
    assert ports_of_file("P/Properties/launchSettings.json", lambda _: launch % ("x" * 70_000)) == []
    assert ports_of_file("P/Properties/launchSettings.json", lambda _: "[" * 60_000) == []
    # a change to a declaring file re-reads the tree's options; a source file beside it does not
    assert is_config_path("app/admin/configs/config.yaml") and is_config_path("Api/Properties/launchSettings.json")
    assert not is_config_path("app/admin/internal/server/http.yaml.go")


def _package(name: str) -> str:
    return json.dumps({"name": name, "scripts": {"start": "node index.js"}, "dependencies": {"express": "4"}})


_EXPRESS = """const express = require("express");
const app = express();
app.get("/api/items", (req, res) => res.json([]));
{listen}
"""

_CODE_TREE = {
    "users/package.json": _package("users"),
    "users/index.js": _EXPRESS.format(listen="const PORT = process.env.PORT || 3001;\napp.listen(PORT, () => {});"),
    "orders/package.json": _package("orders"),
    "orders/index.ts": _EXPRESS.format(listen="await app.listen(parseInt(process.env.PORT ?? '3002', 10));"),
    # two applications starting a server on 3003 in code: the port names neither
    "a/package.json": _package("a"),
    "a/index.js": _EXPRESS.format(listen="app.listen({ port: 3003 });"),
    "b/package.json": _package("b"),
    "b/index.js": _EXPRESS.format(listen="app.listen(3003);"),
    "stock/requirements.txt": "flask\n",
    "stock/app.py": """import os
from flask import Flask

app = Flask(__name__)
PORT = int(os.environ.get("PORT", 5001))


@app.get("/api/items")
def items():
    return []


if __name__ == "__main__":
    app.run(host="0.0.0.0", port=PORT)
""",
    "web/package.json": json.dumps({"name": "web", "scripts": {"start": "vite"}}),
    "web/api.js": """export const users = () => fetch("http://localhost:3001/api/items");
export const orders = () => fetch("//127.0.0.1:3002/api/items");
export const either = () => fetch("http://localhost:3003/api/items");
export const stock = () => fetch("http://localhost:5001/api/items");
export const remote = () => fetch("http://users:3001/api/items");
""",
}


def test_ports_servers_listen_on_in_code(tmp_path) -> None:
    root = write_tree(tmp_path / "code", _CODE_TREE)
    s = EmbeddedStore(tmp_path / "code.db")
    try:
        index_repository(root, s, s, IndexOptions(repo="code", jobs=1))
        eid = "endpoint:GET /api/items"
        clients = {e.src.split(":", 1)[1]: e.props.get("service") for e in s.incoming([eid], ["CALLS_HTTP"])[eid]}
        assert clients == {"web/api.users(0)": "users", "web/api.orders(0)": "orders",
                           "web/api.either(0)": "localhost",  # a and b both listen on 3003 in code
                           "web/api.stock(0)": "stock", "web/api.remote(0)": "users"}
        served = sorted(e.props.get("service") for e in s.incoming([eid], ["EXPOSES"])[eid])
        assert served == ["a", "b", "orders", "stock", "users"]
        stock = blast_radius(s, SymbolQuery("items"))
        assert _callers(stock) == ["either", "stock"]  # not users / orders / remote (other applications' ports)
    finally:
        s.close()


def _ports(path: str, source: str) -> list[tuple[str, int]]:
    ex = extractor_for_path(path).extract(path, source.encode())
    return [(lp.port.parts[0][1], lp.line) for lp in ex.listen_ports]


def test_listen_port_values() -> None:
    js = """const PORT = 4000;
app.listen(PORT);
app.listen(config.port);
function start(port) { server.listen(port); }
fastify.listen({ port: Number(process.env.PORT) || 4001, host: "0.0.0.0" });
emitter.listen(handler);
const http = require("http"); http.createServer(app).listen(`4002`);
"""
    assert _ports("src/server.js", js) == [("4000", 2), ("4001", 5), ("4002", 7)]
    py = """import os, uvicorn
from aiohttp import web

PORT = 1
PORT = 2
app.run(port=PORT)
app.run(port=settings.PORT)
uvicorn.run("main:app", host="0.0.0.0", port=int(os.getenv("API_PORT", "8000")), reload=True)
web.run_app(app, port=os.environ.get("PORT") or 8080)
client.run(port=9)
"""
    # PORT assigned twice: unknown; client.run(port=9) is read too (a `run` with a port is a server's start)
    assert _ports("svc/main.py", py) == [("8000", 8), ("8080", 9), ("9", 10)]


def test_a_changed_port_relinks_the_clients_as_a_full_index(tmp_path) -> None:
    """One-shot runs with a state folder: a server's port edited in code, and a declaring configuration
    file edited, each give the edges (and their services) of a full index of the same tree."""
    src = write_tree(tmp_path / "src", {**_CODE_TREE, **{k: v for k, v in _TREE.items() if k.startswith("app/")}})
    eid = "endpoint:GET /api/items"

    def index(db: str, state: str) -> tuple[dict, dict[str, object]]:
        s = EmbeddedStore(tmp_path / db)
        try:
            index_repository(src, s, s, IndexOptions(repo="r", jobs=1, state_dir=str(tmp_path / state)))
            services = {e.src: e.props.get("service") for e in s.incoming([eid], ["CALLS_HTTP", "EXPOSES"])[eid]}
        finally:
            s.close()
        return dump(tmp_path / db), services

    _, before = index("x.db", "state")
    assert before["r:web/api.users(0)"] == "users"
    (src / "users/index.js").write_text(_EXPRESS.format(listen="app.listen(5001);"), encoding="utf-8")
    code_edit = index("x.db", "state")  # a source file's edit: re-bound by itself
    assert code_edit == index("full.db", "full-state")
    assert code_edit[1]["r:web/api.users(0)"] == "localhost"  # nobody listens on 3001 now
    assert code_edit[1]["r:web/api.stock(0)"] == "localhost"  # 5001: users' code and stock's both
    (src / "app/front/configs/config.yaml").write_text(_kratos_config(":3001"), encoding="utf-8")
    config_edit = index("x.db", "state")
    assert config_edit == index("full2.db", "full-state2")
    assert config_edit[1]["r:web/api.users(0)"] == "front"  # 3001 is front's now


def test_a_project_inside_a_named_unit_is_that_unit(tmp_path) -> None:
    """A declaring folder inside a named unit (a compose service building the folder around it) names that unit; it
    is not split off (its endpoints keep the compose name, which clients of ``http://web/...`` name)."""
    root = write_tree(tmp_path / "r", {
        "Dockerfile": "FROM scratch\nCOPY . /app\n",
        "compose.yaml": "services:\n  web:\n    build: .\n",
        # (no Web SDK project file here: one is a unit of its own, named by its folder, as a Maven module is)
        "src/Api/Properties/launchSettings.json": '{"profiles": {"p": {"applicationUrl": "http://localhost:5005"}}}',
        "tools/admin/configs/config.yaml": _kratos_config(":8200"),
        "tools/admin/package.json": json.dumps({"name": "@shop/admin-api"}),  # no app: only its name
    })
    found = service_map(root, {})
    assert dict(found.listening) == {"5005": ("",), "8200": ("",)}
    assert sorted(found.units) == [""] and found.units[""].name == "web" and found.units[""].kinds == (
        "compose", "docker", "port")
    services = LinkOptions.for_repository(root).services
    assert services["//localhost:5005"] == services["http://127.0.0.1:8200"] == "web"
    # with no named unit around it, the folder is one, named by its package
    (root / "compose.yaml").unlink()
    (root / "Dockerfile").unlink()
    found = service_map(root, {})
    assert dict(found.listening) == {"5005": ("src/Api",), "8200": ("tools/admin",)}
    assert (found.units["tools/admin"].name, found.units["tools/admin"].how, found.units["tools/admin"].aliases) == (
        "admin-api", "package", ("admin",))
