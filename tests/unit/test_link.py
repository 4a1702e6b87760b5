"""The framework linker (indexer/frameworks/link.py) on facts given by hand.

Detectors are tested on their own (tests/unit/test_frameworks_*.py); here each fixture's files are
extracted for their definitions and imports, the framework facts are set explicitly, and the whole
repository is resolved: the tests pin how facts of several files join into Endpoint / Topic nodes and
EXPOSES / CALLS_HTTP / PRODUCES / CONSUMES edges.
"""

from __future__ import annotations

import hashlib

from indexer.frameworks.link import LinkOptions, split_url
from indexer.languages import extractor_for_path
from indexer.model import HttpCall, Mount, Route, Router, StringConstant, Template, TopicUse
from indexer.resolve import resolve_repository
from tests.resolution_harness import split_fixture


def _run(fixture: str, facts: dict[str, dict[str, list]], options: LinkOptions | None = None):
    extractions = []
    for path, source in split_fixture(fixture).items():
        ex = extractor_for_path(path)
        assert ex is not None
        data = source.encode()
        out = ex.extract(path, data)
        for attr in ("routes", "routers", "mounts", "http_calls", "topics", "constants"):
            setattr(out, attr, [])
        for attr, values in facts.get(path, {}).items():
            setattr(out, attr, values)
        extractions.append((out, hashlib.sha256(data).hexdigest(), len(data)))
    return resolve_repository("t", extractions, options)


def _edges(result) -> list[tuple]:
    out = []
    for f in result.files:
        for e in f.edges:
            if e.kind in ("EXPOSES", "CALLS_HTTP", "PRODUCES", "CONSUMES"):
                out.append((e.file, e.kind, e.src.removeprefix("t:"), e.dst, e.line, dict(e.props)))
    return sorted(out)


def _shared(result) -> dict[str, list[str]]:
    return {f.file.path: sorted(n.id for n in f.nodes if n.repo == "") for f in result.files if any(n.repo == "" for n in f.nodes)}


FASTAPI = """
# --- path: app/__init__.py ---
# --- path: app/routers/__init__.py ---
# --- path: app/main.py ---
from fastapi import FastAPI
from app.routers import items

app = FastAPI()
app.include_router(items.router, prefix="/api")
# --- path: app/routers/items.py ---
from fastapi import APIRouter

router = APIRouter(prefix="/items")

def read_item(item_id):
    return item_id
# --- path: app/config.py ---
BASE = "http://shop"
# --- path: app/client.py ---
import requests
from app.config import BASE

def fetch_item(i):
    return requests.get(BASE + "/api/items/" + str(i))
"""


def test_router_prefix_mount_and_constant_url_link_to_one_endpoint() -> None:
    result = _run(FASTAPI, {
        "app/main.py": {"mounts": [Mount("fastapi", "app", "items.router", Template.of("/api"), 6, 0)]},
        "app/routers/items.py": {
            "routers": [Router("fastapi", "router", Template.of("/items"), 3)],
            "routes": [Route("fastapi", ["GET"], Template.of("/{item_id}"), "read_item", 5, 0, router="router")],
        },
        "app/config.py": {"constants": [StringConstant("BASE", Template.of("http://shop"))]},
        "app/client.py": {"http_calls": [HttpCall(
            "requests", "GET", Template((("ref", "BASE"), ("lit", "/api/items/"), ("hole", "str(i)"))),
            "fetch_item", 5, 11)]},
    })
    assert _edges(result) == [
        ("app/client.py", "CALLS_HTTP", "app/client.fetch_item(1)", "endpoint:GET /api/items/{}", 5,
         {"framework": "requests", "url": "http://shop/api/items/{}", "service": "shop"}),
        ("app/routers/items.py", "EXPOSES", "app/routers/items.read_item(1)", "endpoint:GET /api/items/{}", 5,
         {"framework": "fastapi"}),
    ]
    assert _shared(result) == {
        "app/client.py": ["endpoint:GET /api/items/{}"],
        "app/routers/items.py": ["endpoint:GET /api/items/{}"],
    }
    assert result.link_outcomes == {"calls_http": 1, "exposes": 1}


DJANGO = """
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("shop/", include("shop.urls"))]
# --- path: shop/__init__.py ---
# --- path: shop/urls.py ---
from django.urls import path
from shop import views
from shop.views import OwnerView

urlpatterns = [
    path("owners/<int:pk>/", views.owner_detail),
    path("owners/", OwnerView.as_view()),
]
# --- path: shop/views.py ---
class View:
    pass

def owner_detail(request, pk):
    return pk

class OwnerView(View):
    def get(self, request):
        return 1

    def post(self, request):
        return 2
"""


def test_django_include_by_module_and_class_based_view() -> None:
    result = _run(DJANGO, {
        "site/urls.py": {
            "routers": [Router("django", "urlpatterns", Template(), 3)],
            "mounts": [Mount("django", "urlpatterns", None, Template.of("shop/"), 3, 20, child_module="shop.urls")],
        },
        "shop/urls.py": {
            "routers": [Router("django", "urlpatterns", Template(), 5)],
            "routes": [
                Route("django", ["*"], Template.of("owners/<int:pk>/"), None, 6, 4, "views.owner_detail", "urlpatterns"),
                Route("django", ["*"], Template.of("owners/"), None, 7, 4, "OwnerView.as_view()", "urlpatterns"),
            ],
        },
    })
    assert _edges(result) == [
        ("shop/urls.py", "EXPOSES", "shop/views.OwnerView.get(1)", "endpoint:GET /shop/owners", 7, {"framework": "django"}),
        ("shop/urls.py", "EXPOSES", "shop/views.OwnerView.post(1)", "endpoint:POST /shop/owners", 7,
         {"framework": "django"}),
        ("shop/urls.py", "EXPOSES", "shop/views.owner_detail(2)", "endpoint:* /shop/owners/{}", 6,
         {"framework": "django"}),
    ]


JAVA = """
// --- path: src/com/shop/Paths.java ---
package com.shop;

public class Paths {
    public static final String OWNERS = "/owners";
    public static final String TOPIC = "${app.topic}";
}
// --- path: src/com/shop/OwnerController.java ---
package com.shop;

import static com.shop.Paths.TOPIC;

public class OwnerController {
    public String show(int id) { return ""; }
    public void publish() { }
    public void onEvent(String e) { }
}
"""


def test_java_constants_static_import_and_placeholder_topic() -> None:
    result = _run(JAVA, {
        "src/com/shop/Paths.java": {"constants": [
            StringConstant("Paths.OWNERS", Template.of("/owners")),
            StringConstant("Paths.TOPIC", Template.of("${app.topic}")),
        ]},
        "src/com/shop/OwnerController.java": {
            "routes": [Route("spring", ["GET"], Template((("ref", "Paths.OWNERS"), ("lit", "/{ownerId}"))),
                             "OwnerController.show", 6, 4)],
            "topics": [
                TopicUse("spring-kafka", "produces", Template((("ref", "TOPIC"),)), "OwnerController.publish", 7, 4),
                TopicUse("spring-kafka", "consumes", Template.of("${app.topic}"), "OwnerController.onEvent", 8, 4),
            ],
        },
    }, LinkOptions(properties={"app.topic": "owner-events"}))
    assert _edges(result) == [
        ("src/com/shop/OwnerController.java", "CONSUMES", "src/com/shop/OwnerController.OwnerController.onEvent(String)",
         "topic:owner-events", 8, {"framework": "spring-kafka"}),
        ("src/com/shop/OwnerController.java", "EXPOSES", "src/com/shop/OwnerController.OwnerController.show(int)",
         "endpoint:GET /owners/{}", 6, {"framework": "spring"}),
        ("src/com/shop/OwnerController.java", "PRODUCES", "src/com/shop/OwnerController.OwnerController.publish()",
         "topic:owner-events", 7, {"framework": "spring-kafka"}),
    ]
    assert _shared(result) == {"src/com/shop/OwnerController.java": ["endpoint:GET /owners/{}", "topic:owner-events"]}


EXPRESS = """
// --- path: server/app.js ---
const express = require("express");
const app = express();
app.use("/api/users", require("./routes/users"));
// --- path: server/routes/users.js ---
const express = require("express");
const router = express.Router();
function list(req, res) { res.send([]); }
router.get("/:id", list);
router.post("/", (req, res) => res.send({}));
module.exports = router;
"""


def test_express_mount_through_require_and_inline_handler_exposed_by_the_file() -> None:
    result = _run(EXPRESS, {
        "server/app.js": {"mounts": [Mount("express", "app", 'require("./routes/users")', Template.of("/api/users"), 3, 0)]},
        "server/routes/users.js": {
            "routers": [Router("express", "router", Template(), 2)],
            "routes": [
                Route("express", ["GET"], Template.of("/:id"), "list", 4, 0, router="router"),
                Route("express", ["POST"], Template.of("/"), None, 5, 0, router="router"),
            ],
        },
    })
    assert _edges(result) == [
        ("server/routes/users.js", "EXPOSES", "server/routes/users.js", "endpoint:POST /api/users", 5, {"framework": "express"}),
        ("server/routes/users.js", "EXPOSES", "server/routes/users.list(2)", "endpoint:GET /api/users/{}", 4,
         {"framework": "express"}),
    ]


def test_split_url_service_map_host_and_unknown_base() -> None:
    services = {"/api/customer": "customers-service", "http://localhost:8082": "visits-service"}
    assert split_url("http://customers-service/owners/\x00", services) == ("customers-service", "/owners/{}")
    assert split_url("lb://vets-service:8080/vets", services) == ("vets-service", "/vets")
    assert split_url("/api/customer/owners", services) == ("customers-service", "/owners")
    assert split_url("http://localhost:8082/pets/visits", services) == ("visits-service", "/pets/visits")
    assert split_url("\x00/owners/\x00/pets", services) == (None, "/owners/{}/pets")
    assert split_url("\x00", services) == (None, None)
    assert split_url("api/owners", services) == (None, "/api/owners")
    assert split_url("api/customer/owners/\x00", services) == ("customers-service", "/owners/{}")


def test_module_configuration_gives_context_path_and_service_name() -> None:
    modules = {
        "": {"app.topic": "root-events"},
        "src/com": {"server.servlet.context-path": "/shop", "spring.application.name": "owners-service",
                    "app.topic": "owner-events"},
    }
    result = _run(JAVA, {
        "src/com/shop/OwnerController.java": {
            "routes": [Route("spring", ["GET"], Template.of("/owners"), "OwnerController.show", 6, 4)],
            "topics": [TopicUse("spring-kafka", "consumes", Template.of("${app.topic}"), "OwnerController.onEvent", 8, 4)],
        },
    }, LinkOptions(modules=modules))
    assert _edges(result) == [
        ("src/com/shop/OwnerController.java", "CONSUMES", "src/com/shop/OwnerController.OwnerController.onEvent(String)",
         "topic:owner-events", 8, {"framework": "spring-kafka"}),
        ("src/com/shop/OwnerController.java", "EXPOSES", "src/com/shop/OwnerController.OwnerController.show(int)",
         "endpoint:GET /shop/owners", 6, {"framework": "spring", "service": "owners-service"}),
    ]
    assert LinkOptions(modules=modules).properties_for("srcx/A.java") == {"app.topic": "root-events"}


def test_load_module_properties_one_map_per_service_module(tmp_path) -> None:
    from indexer.frameworks.spring_config import load_module_properties

    for svc, port in (("customers-service", 8081), ("visits-service", 8082)):
        res = tmp_path / svc / "src" / "main" / "resources"
        res.mkdir(parents=True)
        (res / "application.yml").write_text(f"spring:\n  application:\n    name: {svc}\nserver:\n  port: {port}\n")
    (tmp_path / "docker").mkdir()
    (tmp_path / "docker" / "application.properties").write_text("a.b=c\n")
    assert load_module_properties(tmp_path) == {
        "customers-service": {"spring.application.name": "customers-service", "server.port": "8081"},
        "docker": {"a.b": "c"},
        "visits-service": {"spring.application.name": "visits-service", "server.port": "8082"},
    }


def test_gateway_routes_become_a_service_map() -> None:
    from indexer.frameworks.spring_config import gateway_routes

    props = {
        "spring.cloud.gateway.server.webflux.routes[0].id": "vets-service",
        "spring.cloud.gateway.server.webflux.routes[0].uri": "lb://vets-service",
        "spring.cloud.gateway.server.webflux.routes[0].predicates[0]": "Path=/api/vet/**",
        "spring.cloud.gateway.server.webflux.routes[0].filters[0]": "StripPrefix=2",
        "spring.cloud.gateway.routes[1].uri": "http://customers:8081",
        "spring.cloud.gateway.routes[1].predicates[0].name": "Path",
        "spring.cloud.gateway.routes[1].predicates[0].args.pattern": "/api/customer/**",
        "spring.cloud.gateway.routes[1].filters[0]": "StripPrefix=2",
        "spring.cloud.gateway.routes[2].uri": "lb://genai",
        "spring.cloud.gateway.routes[2].predicates[0]": "Path=/api/genai/**",
        "spring.cloud.gateway.routes[2].filters[0]": "RewritePath=/api/genai/(?<s>.*), /${s}",
    }
    assert gateway_routes(props) == {"/api/vet": "vets-service", "/api/customer": "customers"}
