"""The framework linker (indexer/frameworks/link.py) on facts given by hand.

Detectors are tested on their own (tests/unit/test_frameworks_*.py); here each fixture's files are
extracted for their definitions and imports, the framework facts are set explicitly, and the whole
repository is resolved: the tests pin how facts of several files join into Endpoint / Topic nodes and
EXPOSES / CALLS_HTTP / PRODUCES / CONSUMES edges.
"""

from __future__ import annotations

import hashlib

import pytest

from indexer.frameworks.link import LinkOptions, split_url
from indexer.languages import extractor_for_path
from indexer.model import HttpCall, Mount, Route, Router, StringConstant, Template, TopicUse
from indexer.resolve.repository import resolve_repository
from stores.contracts import declared_route
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
         {"framework": "fastapi", "route": "/api/items/{item_id}"}),
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
        ("shop/urls.py", "EXPOSES", "shop/views.OwnerView.get(1)", "endpoint:GET /shop/owners", 7,
         {"framework": "django", "head": True}),  # Django answers HEAD with get
        ("shop/urls.py", "EXPOSES", "shop/views.OwnerView.post(1)", "endpoint:POST /shop/owners", 7,
         {"framework": "django"}),
        ("shop/urls.py", "EXPOSES", "shop/views.owner_detail(2)", "endpoint:* /shop/owners/{}", 6,
         {"framework": "django", "route": "/shop/owners/<int:pk>"}),
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
         "endpoint:GET /owners/{}", 6, {"framework": "spring", "route": "/owners/{ownerId}"}),
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
         {"framework": "express", "route": "/api/users/:id"}),
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


CYCLES = """
# --- path: app/__init__.py ---
# --- path: app/consts.py ---
A = B + "/a"
B = A + "/b"
D = "/d" + D
DEEP = "..."
# --- path: app/client.py ---
import requests
from app.consts import A, D, DEEP

def call_a():
    return requests.get(A)

def call_host_then_a():
    return requests.get("http://svc" + A)

def call_d():
    return requests.post("/x/" + D)

def call_deep():
    return requests.get(DEEP)
"""


def test_constants_that_refer_to_themselves_are_unknown_and_deep_chains_are_followed() -> None:
    """``A = B + "/a"; B = A + "/b"`` and ``D = "/d" + D`` have no value: a URL made of them alone is
    not linked, one with a known piece keeps only that (no ``/b/a/b/a/...`` unrolled eight times, no
    service named ``svc\\x00``); a chain of 100 constants is followed to its end."""
    chain = [StringConstant("C0", Template.of("/api"))]
    chain += [StringConstant(f"C{i}", Template((("ref", f"C{i - 1}"), ("lit", f"/{i}")))) for i in range(1, 101)]
    result = _run(CYCLES, {
        "app/consts.py": {"constants": [
            StringConstant("A", Template((("ref", "B"), ("lit", "/a")))),
            StringConstant("B", Template((("ref", "A"), ("lit", "/b")))),
            StringConstant("D", Template((("lit", "/d"), ("ref", "D")))),
            *chain,
            StringConstant("DEEP", Template((("ref", "C100"),))),
        ]},
        "app/client.py": {"http_calls": [
            HttpCall("requests", "GET", Template((("ref", "A"),)), "call_a", 5, 11),
            HttpCall("requests", "GET", Template((("lit", "http://svc"), ("ref", "A"))), "call_host_then_a", 8, 11),
            HttpCall("requests", "POST", Template((("lit", "/x/"), ("ref", "D"))), "call_d", 11, 11),
            HttpCall("requests", "GET", Template((("ref", "DEEP"),)), "call_deep", 14, 11),
        ]},
    })
    deep = "/api/" + "/".join(str(i) for i in range(1, 101))
    assert _edges(result) == [
        ("app/client.py", "CALLS_HTTP", "app/client.call_d(0)", "endpoint:POST /x/{}", 11,
         {"framework": "requests", "url": "/x/{}"}),
        ("app/client.py", "CALLS_HTTP", "app/client.call_deep(0)", f"endpoint:GET {deep}", 14,
         {"framework": "requests", "url": deep}),
    ]
    assert result.link_outcomes == {"calls_http": 2, "unlinked_url": 2}


MOUNT_CYCLES = """
// --- path: server/app.js ---
const express = require("express");
const app = express();
const a = express.Router();
const b = express.Router();
const c = express.Router();
const d = express.Router();
a.use("/b", b);
b.use("/a", a);
app.use("/v1", a);
c.use("/d", d);
d.use("/c", c);
"""


def test_mount_cycles_keep_only_chains_that_reach_an_application() -> None:
    """``a`` mounts ``b`` and ``b`` mounts ``a``: the chain ``b -> a -> b`` leads to no application
    (no ``/b/a/ping``); a pair mounted only into each other is taken as mounted nowhere."""
    routers = [Router("express", name, Template(), 2) for name in ("app", "a", "b", "c", "d")]
    mounts = [Mount("express", "a", "b", Template.of("/b"), 7, 0), Mount("express", "b", "a", Template.of("/a"), 8, 0),
              Mount("express", "app", "a", Template.of("/v1"), 9, 0), Mount("express", "c", "d", Template.of("/d"), 10, 0),
              Mount("express", "d", "c", Template.of("/c"), 11, 0)]
    routes = [Route("express", ["GET"], Template.of("/ping"), None, 12, 0, router="a"),
              Route("express", ["GET"], Template.of("/pong"), None, 13, 0, router="b"),
              Route("express", ["GET"], Template.of("/x"), None, 14, 0, router="c")]
    result = _run(MOUNT_CYCLES, {"server/app.js": {"routers": routers, "mounts": mounts, "routes": routes}})
    assert [(e[3], e[4]) for e in _edges(result)] == [
        ("endpoint:GET /v1/b/pong", 13), ("endpoint:GET /v1/ping", 12), ("endpoint:GET /x", 14)]


DJANGO_SELF = """
# --- path: shop/__init__.py ---
# --- path: shop/urls.py ---
from django.urls import include, path
from shop import views

urlpatterns = [path("again/", include("shop.urls")), path("items/", views.items)]
# --- path: shop/views.py ---
def items(request):
    return 1
"""


def test_django_urls_including_itself_is_its_own_root() -> None:
    result = _run(DJANGO_SELF, {"shop/urls.py": {
        "routers": [Router("django", "urlpatterns", Template(), 4)],
        "mounts": [Mount("django", "urlpatterns", None, Template.of("again/"), 4, 20, child_module="shop.urls")],
        "routes": [Route("django", ["*"], Template.of("items/"), None, 4, 53, "views.items", "urlpatterns")],
    }})
    assert [(e[2], e[3]) for e in _edges(result)] == [("shop/views.items(1)", "endpoint:* /items")]


def test_a_lattice_of_mounts_is_linked_in_bounded_time() -> None:
    """Ten levels of six routers, each mounted into every router of the level above: 6**9 chains. The
    prefixes are worked out once per router (not once per chain) and capped at MAX_PREFIXES."""
    import time

    from indexer.frameworks.link import MAX_PREFIXES

    levels, width = 10, 6
    routers = [Router("fastapi", "app", Template(), 1)]
    routers += [Router("fastapi", f"r{i}_{j}", Template.of(f"/l{i}n{j}"), 2) for i in range(levels) for j in range(width)]
    mounts = [Mount("fastapi", "app", f"r0_{j}", Template(), 3, 0) for j in range(width)]
    mounts += [Mount("fastapi", f"r{i - 1}_{k}", f"r{i}_{j}", Template(), 4, 0)
               for i in range(1, levels) for j in range(width) for k in range(width)]
    routes = [Route("fastapi", ["GET"], Template.of(f"/leaf{n}"), "leaf", 7, 0, router=f"r{levels - 1}_0")
              for n in range(50)]
    started = time.perf_counter()
    result = _run("# --- path: app.py ---\ndef leaf():\n    return 1\n",
                  {"app.py": {"routers": routers, "mounts": mounts, "routes": routes}})
    assert time.perf_counter() - started < 5  # was 35 s for one route
    assert result.link_outcomes == {"exposes": 50 * MAX_PREFIXES}


def test_split_url_hosts_ports_and_prefix_boundaries() -> None:
    services = {"/api/customer": "customers-service", "http://localhost:8081": "customers-service"}
    # IPv6 literals and user info are part of the authority, not of the path.
    assert split_url("http://user:pw@[::1]:8080/items/5?x=1", services) == ("[::1]", "/items/5?x=1")
    assert split_url("http://[2001:db8::1]/owners/\x00", services) == ("[2001:db8::1]", "/owners/{}")
    # A host (or port) not known in full names no service.
    assert split_url("http://\x00/items/\x00", services) == (None, "/items/{}")
    assert split_url("http://svc\x00", services) == (None, None)
    assert split_url("http://svc:\x00/owners", services) == ("svc", "/owners")
    # A service-map key matches up to a path boundary only.
    assert split_url("/api/customers/1", services) == (None, "/api/customers/1")
    assert split_url("http://localhost:80812/x", services) == ("localhost", "/x")
    assert split_url("/api/customer?x=1", services) == ("customers-service", "?x=1")
    assert split_url("/api/customer\x00", services) == ("customers-service", None)


FEIGN = """
// --- path: src/p/Client.java ---
package p;

public interface Client {
    String owner(int id);
}
"""


def test_an_unresolved_placeholder_base_is_an_unknown_base() -> None:
    """``@FeignClient(url = "${customers.url}")`` with no such key in the configuration: the path
    after it is known, the base (and service) is not; the URL shown keeps the placeholder."""
    result = _run(FEIGN, {"src/p/Client.java": {"http_calls": [
        HttpCall("feign", "GET", Template.of("${customers.url}/owners/{id}"), "Client.owner", 4, 4),
        HttpCall("feign", "GET", Template.of("${api.base:${api.root}}/pets"), "Client.owner", 4, 4),
    ]}})
    assert _edges(result) == [
        ("src/p/Client.java", "CALLS_HTTP", "src/p/Client.Client.owner(int)", "endpoint:GET /owners/{}", 4,
         {"framework": "feign", "url": "${customers.url}/owners/{id}"}),
        ("src/p/Client.java", "CALLS_HTTP", "src/p/Client.Client.owner(int)", "endpoint:GET /pets", 4,
         {"framework": "feign", "url": "${api.base:${api.root}}/pets"}),
    ]


def test_normalise_path_regex_variables() -> None:
    from stores.contracts import normalise_path

    assert normalise_path("/re/{id:[0-9]{3}}/x") == "/re/{}/x"  # Spring: braces inside the regex
    assert normalise_path("/users/:id(\\d+)") == "/users/{}"  # Express: a regex after the name
    assert normalise_path("/users/:id(\\d+)?/x") == "/users/{}/x"
    assert normalise_path("/users/:id(a|(b))") == "/users/{}"
    assert normalise_path("/opt/:id?") == "/opt/{}"
    assert normalise_path("/d/(?P<pk>[0-9]{4})/") == "/d/{}"


def test_module_configuration_leaves_out_nested_modules(tmp_path) -> None:
    """A root module (its own src/main/resources) does not take the name and context path of a
    service module below it; a ``config`` folder beside a module belongs to that module."""
    from indexer.frameworks.spring_config import load_module_properties

    (tmp_path / "src" / "main" / "resources").mkdir(parents=True)
    (tmp_path / "src" / "main" / "resources" / "application.yml").write_text("spring.application.name: root-app\n")
    (tmp_path / "config").mkdir()
    (tmp_path / "config" / "application.properties").write_text("app.topic=root-events\n")
    sub = tmp_path / "sub" / "src" / "main" / "resources"
    sub.mkdir(parents=True)
    (sub / "application.yml").write_text("spring:\n  application:\n    name: sub-app\nserver.servlet.context-path: /sub\n")
    assert load_module_properties(tmp_path) == {
        "": {"spring.application.name": "root-app", "app.topic": "root-events"},
        "sub": {"spring.application.name": "sub-app", "server.servlet.context-path": "/sub"},
    }


def test_placeholders_that_double_at_each_level_are_left_as_written() -> None:
    """``k0: ${k1}${k1}``, ``k1: ${k2}${k2}``, ... (or the same through defaults) would take 2**40
    steps: resolution stops at MAX_RESOLVED characters / MAX_STEPS placeholders, in milliseconds."""
    import time

    from indexer.frameworks.spring_config import resolve_placeholders

    doubling = {f"k{i}": f"${{k{i + 1}}}${{k{i + 1}}}" for i in range(40)} | {"k40": "x"}
    defaults = {f"k{i}": f"${{k{i + 1}:${{k{i + 1}}}}}" for i in range(40)} | {"k40": "x"}
    started = time.perf_counter()
    assert resolve_placeholders("/${k0}", doubling) == "/${k0}"
    assert resolve_placeholders("/${k0}", defaults) == "/${k0}"
    assert resolve_placeholders("/${k30}", doubling) == "/" + "x" * 1024
    assert resolve_placeholders("/${k36}", defaults) == "/x"
    assert time.perf_counter() - started < 2


def test_spring_mvc_servlet_path_comes_after_the_context_path() -> None:
    # spring.mvc.servlet.path maps the DispatcherServlet under /api: Spring MVC routes only; JAX-RS
    # routes of the same application stay under the context path alone.
    modules = {"src/com": {"server.servlet.context-path": "/shop", "spring.mvc.servlet.path": "/api/"}}
    result = _run(JAVA, {
        "src/com/shop/OwnerController.java": {
            "routes": [Route("spring", ["GET"], Template.of("/owners"), "OwnerController.show", 6, 4),
                       Route("jaxrs", ["GET"], Template.of("/legacy"), "OwnerController.show", 6, 4)],
        },
    }, LinkOptions(modules=modules))
    assert [e[3] for e in _edges(result)] == ["endpoint:GET /shop/api/owners", "endpoint:GET /shop/legacy"]
    only_servlet = {"src/com": {"spring.mvc.servlet.path": "/"}}
    result = _run(JAVA, {
        "src/com/shop/OwnerController.java": {
            "routes": [Route("spring", ["GET"], Template.of("/owners"), "OwnerController.show", 6, 4)],
        },
    }, LinkOptions(modules=only_servlet))
    assert [e[3] for e in _edges(result)] == ["endpoint:GET /owners"]


@pytest.mark.parametrize(("declared", "shown"), [
    ("/items/{item_id}", "/items/{item_id}"),
    ("api/v1/cats/:id", "/api/v1/cats/:id"),  # a Nest controller prefix joined without its slash
    ("orders/<int:pk>/", "/orders/<int:pk>"),
    ("^orders/(?P<pk>[0-9]+)/$", "/orders/(?P<pk>[0-9]+)"),  # the ? of a named group is no query
    ("http://shop:8080/a/{id}?q=1#f", "/a/{id}"),
    ("/files/{path:.*/x}", "/files/{path:.*/x}"),  # a slash inside a variable is no segment break
    ("/items", None),  # nothing the Endpoint's path loses
    ("items/", None),
    ("{}/admin/stats", None),  # a prefix nobody could read stays the Endpoint's {}
])
def test_the_declared_route_keeps_the_variable_names_the_endpoint_path_drops(declared: str, shown: str | None) -> None:
    assert declared_route(declared) == shown
