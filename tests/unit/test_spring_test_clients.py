"""Spring test clients as HTTP client calls (CALLS_HTTP from the test method to the endpoint it
requests): MockMvc request builders (statically imported or qualified, ``request(HttpMethod.X, url)``,
``multipart``), WebTestClient, ``MockMvcTester`` and ``TestRestTemplate`` (``client.get().uri(url)``), RestAssured and its
MockMvc module (``given()...when().get(url)``, a request spec kept in a local, ``RestAssured.get``).
In-process clients (MockMvc, WebTestClient, RestAssuredMockMvc) get the application's context path
before their relative paths; plain RestAssured keeps its path as written. Negative cases: a
``Map.get`` / ``list.get``, an unqualified ``get(...)`` the file does not import from a request
builder class, a ``given(...)`` of Mockito's BDD API, a WebClient-shaped call on another receiver."""

from __future__ import annotations

import json
import sqlite3

import pytest

from indexer.languages import extractor_for_path
from tests.golden.harness import index_fixture

CONTROLLER = """\
package shop.web;

import org.springframework.web.bind.annotation.*;

@RestController
@RequestMapping("/owners")
public class OwnerController {
    @GetMapping("/{ownerId}")
    public String show(@PathVariable int ownerId) { return "o"; }

    @PostMapping("/{ownerId}/edit")
    public String edit(@PathVariable int ownerId) { return "e"; }

    @GetMapping
    public String list() { return "l"; }

    @PutMapping("/{ownerId}/pets/{petId}")
    public String pet(@PathVariable int ownerId, @PathVariable int petId) { return "p"; }

    @DeleteMapping("/{ownerId}")
    public void remove(@PathVariable int ownerId) { }
}
"""

MOCKMVC_TEST = """\
package shop.web;

import java.util.HashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.springframework.http.HttpMethod;
import org.springframework.test.web.servlet.MockMvc;
import org.springframework.test.web.servlet.request.MockMvcRequestBuilders;

import static org.mockito.BDDMockito.given;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.post;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

class OwnerControllerTests {
    private static final int TEST_OWNER_ID = 1;
    private static final String OWNERS = "/owners";
    private MockMvc mockMvc;
    private Map<String, String> cache = new HashMap<>();

    @Test
    void showOwner() throws Exception {
        given(this.cache.get("x")).willReturn("y");
        mockMvc.perform(get("/owners/{ownerId}", TEST_OWNER_ID)).andExpect(status().isOk());
    }

    @Test
    void editOwner() throws Exception {
        mockMvc.perform(post("/owners/{ownerId}/edit", TEST_OWNER_ID).param("a", "b"));
    }

    @Test
    void listOwners() throws Exception {
        mockMvc.perform(MockMvcRequestBuilders.get(OWNERS + "?page=1"));
    }

    @Test
    void literalId() throws Exception {
        int id = 7;
        mockMvc.perform(MockMvcRequestBuilders.request(HttpMethod.DELETE, "/owners/" + id));
        mockMvc.perform(MockMvcRequestBuilders.put("/owners/1/pets/2"));
    }

    @Test
    void notRequests() throws Exception {
        String v = cache.get("/owners");
        put("/owners/3");
    }

    private void put(String path) { }
}
"""

OTHER_CLIENTS_TEST = """\
package shop.web;

import io.restassured.specification.RequestSpecification;
import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.test.web.servlet.assertj.MockMvcTester;

import static io.restassured.RestAssured.given;
import static io.restassured.module.mockmvc.RestAssuredMockMvc.when;

class OwnerApiTests {
    private WebTestClient webTestClient;
    private MockMvcTester mvc;
    private java.util.List<String> names;

    void reactive() {
        webTestClient.get().uri("/owners/{id}", 5).exchange().expectStatus().isOk();
    }

    void tester() {
        mvc.post().uri("/owners/9/edit").exchange();
    }

    void restAssured() {
        given().header("a", "b").when().get("/api/owners").then().statusCode(200);
        RequestSpecification spec = given().contentType("application/json");
        spec.delete("/api/owners/4");
    }

    void restAssuredMockMvc() {
        when().get("/owners/{id}", 3).then().statusCode(200);
    }

    void shortcut() {
        io.restassured.RestAssured.get("/owners/{id}", 8);
    }

    void notRequests() {
        names.get(0);
    }

    void template() {
        org.springframework.boot.test.web.client.TestRestTemplate rest = null;
        rest.getForEntity("/owners/{id}", String.class, 6);
    }
}
"""


def _rows(root):
    store = index_fixture(root, root.parent / "i.db", "shop")
    try:
        with sqlite3.connect(store.path) as db:
            exposed = {d for (d,) in db.execute("SELECT dst FROM edges WHERE kind = 'EXPOSES'")}
            rows = db.execute("SELECT src, dst, line, props FROM edges WHERE kind = 'CALLS_HTTP'").fetchall()
    finally:
        store.close()
    return exposed, sorted(
        (src.split(":", 1)[1].rsplit(".", 1)[-1], line, dst.removeprefix("endpoint:"),
         json.loads(props)["framework"], json.loads(props).get("prefix"))
        for src, dst, line, props in rows
    )


def _write(root, files):
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")


@pytest.fixture(scope="module")
def with_context_path(tmp_path_factory):
    root = tmp_path_factory.mktemp("sp") / "shop"
    _write(root, {
        "src/main/resources/application.properties": "server.servlet.context-path=/shop/\n",
        "src/main/java/shop/web/OwnerController.java": CONTROLLER,
        "src/test/java/shop/web/OwnerControllerTests.java": MOCKMVC_TEST,
        "src/test/java/shop/web/OwnerApiTests.java": OTHER_CLIENTS_TEST,
    })
    return _rows(root)


def test_test_clients_reach_the_endpoints_under_the_context_path(with_context_path) -> None:
    exposed, rows = with_context_path
    assert rows == [
        ("editOwner()", 29, "POST /shop/owners/{}/edit", "mockmvc", "/shop"),
        ("listOwners()", 34, "GET /shop/owners", "mockmvc", "/shop"),  # a constant + a query string
        ("literalId()", 40, "DELETE /shop/owners/{}", "mockmvc", "/shop"),  # request(HttpMethod.X, "/owners/" + id)
        ("literalId()", 41, "PUT /shop/owners/{}/pets/{}", "mockmvc", "/shop"),  # literal ids to the template
        ("reactive()", 16, "GET /shop/owners/{}", "webtestclient", "/shop"),
        ("restAssured()", 24, "GET /api/owners", "restassured", None),  # plain RestAssured: as written
        ("restAssured()", 26, "DELETE /api/owners/4", "restassured", None),  # a spec kept in a local; no /api/owners/{}
        ("restAssuredMockMvc()", 30, "GET /shop/owners/{}", "restassured-mockmvc", "/shop"),
        ("shortcut()", 34, "GET /owners/{}", "restassured", None),  # RestAssured.get: as written, no context path
        ("showOwner()", 24, "GET /shop/owners/{}", "mockmvc", "/shop"),  # not: Mockito's given, Map.get
        ("template()", 43, "GET /shop/owners/{}", "testresttemplate", "/shop"),  # relative: in the app
        ("tester()", 20, "POST /shop/owners/{}/edit", "mockmvc", "/shop"),  # MockMvcTester
    ]  # not: notRequests() (cache.get, the test's own put(...), names.get)
    assert {"endpoint:GET /shop/owners/{}", "endpoint:POST /shop/owners/{}/edit", "endpoint:GET /shop/owners",
            "endpoint:PUT /shop/owners/{}/pets/{}", "endpoint:DELETE /shop/owners/{}"} <= exposed
    assert "endpoint:GET /api/owners" not in exposed


def test_without_a_context_path_the_path_is_as_written(tmp_path) -> None:
    root = tmp_path / "shop"
    _write(root, {
        "src/main/java/shop/web/OwnerController.java": CONTROLLER,
        "src/test/java/shop/web/OwnerControllerTests.java": MOCKMVC_TEST,
    })
    _, rows = _rows(root)
    assert [(caller, line, dst, prefix) for caller, line, dst, _, prefix in rows] == [
        ("editOwner()", 29, "POST /owners/{}/edit", None),
        ("listOwners()", 34, "GET /owners", None),
        ("literalId()", 40, "DELETE /owners/{}", None),
        ("literalId()", 41, "PUT /owners/{}/pets/{}", None),
        ("showOwner()", 24, "GET /owners/{}", None),
    ]


def test_test_client_facts() -> None:
    ex = extractor_for_path("T.java")
    assert ex is not None
    out = ex.extract("T.java", OTHER_CLIENTS_TEST.encode())
    mine = {"webtestclient", "mockmvc", "restassured", "restassured-mockmvc", "testresttemplate"}
    assert [(c.framework, c.method, c.url.parts, c.caller.rsplit(".", 1)[-1], c.line)
            for c in out.http_calls if c.framework in mine] == [
        ("webtestclient", "GET", (("lit", "/owners/{id}"),), "reactive", 16),
        ("mockmvc", "POST", (("lit", "/owners/9/edit"),), "tester", 20),
        ("testresttemplate", "GET", (("lit", "/owners/{id}"),), "template", 43),  # java_http_clients runs first
        ("restassured", "GET", (("lit", "/api/owners"),), "restAssured", 24),
        ("restassured", "DELETE", (("lit", "/api/owners/4"),), "restAssured", 26),
        ("restassured-mockmvc", "GET", (("lit", "/owners/{id}"),), "restAssuredMockMvc", 30),
        ("restassured", "GET", (("lit", "/owners/{id}"),), "shortcut", 34),
    ]  # not: names.get(0) (a List)


def test_a_get_that_is_not_a_request_builder_links_nothing() -> None:
    ex = extractor_for_path("T.java")
    assert ex is not None
    code = b"""import java.util.Map;
import static org.mockito.BDDMockito.given;
class T {
    Map<String, String> m;
    void a() { m.get("/owners"); get("/owners/1"); given(m.get("/x")).willReturn("y"); }
    String get(String k) { return k; }
}
"""
    assert ex.extract("T.java", code).http_calls == []


SERVLET_PATH_TEST = """\
package shop.web;

import org.springframework.test.web.reactive.server.WebTestClient;
import org.springframework.boot.test.web.client.TestRestTemplate;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static io.restassured.module.mockmvc.RestAssuredMockMvc.when;

class ServletPathTests {
    private org.springframework.test.web.servlet.MockMvc mockMvc;
    private WebTestClient webTestClient;
    private TestRestTemplate rest;

    void mock() throws Exception {
        mockMvc.perform(get("/owners/{id}", 1));
        mockMvc.perform(get("/api/owners/{id}", 2).servletPath("/api"));
        when().get("/owners/{id}", 3);
    }

    void overHttp() {
        webTestClient.get().uri("/api/owners/{id}", 4).exchange();
        rest.getForEntity("/api/owners/{id}", String.class, 5);
        rest.getForEntity("/owners/{id}", String.class, 6);
    }
}
"""


def test_mockmvc_requests_are_inside_the_dispatcher_servlets_path(tmp_path) -> None:
    # spring.mvc.servlet.path: every Spring MVC endpoint is under /shop/api; MockMvc (servlet path
    # empty) writes the path past it, a client over HTTP writes it itself
    root = tmp_path / "shop"
    _write(root, {
        "src/main/resources/application.properties":
            "server.servlet.context-path=/shop\nspring.mvc.servlet.path=/api/\n",
        "src/main/java/shop/web/OwnerController.java": CONTROLLER,
        "src/test/java/shop/web/ServletPathTests.java": SERVLET_PATH_TEST,
    })
    exposed, rows = _rows(root)
    assert "endpoint:GET /shop/api/owners/{}" in exposed
    assert rows == [
        ("mock()", 15, "GET /shop/api/owners/{}", "mockmvc", "/shop/api"),
        ("mock()", 16, "GET /shop/api/owners/{}", "mockmvc", "/shop"),  # .servletPath("/api"): written
        ("mock()", 17, "GET /shop/api/owners/{}", "restassured-mockmvc", "/shop/api"),
        ("overHttp()", 21, "GET /shop/api/owners/{}", "webtestclient", "/shop"),
        ("overHttp()", 22, "GET /shop/api/owners/{}", "testresttemplate", "/shop"),
        # over HTTP without the servlet path: no Spring MVC endpoint is there
        ("overHttp()", 23, "GET /shop/owners/{}", "testresttemplate", "/shop"),
    ]
    assert "endpoint:GET /shop/owners/{}" not in exposed and "endpoint:GET /shop/api/api/owners/{}" not in exposed
