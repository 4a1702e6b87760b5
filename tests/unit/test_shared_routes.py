"""Several applications of one repository serving the same route (session 67, acc67a): the Endpoint node
stays shared by method and path, and each request reaches the handlers it can reach.

A client naming a service (``http://alpha-service/x``) reaches that application's handler only (the
impact walk's rule, already); a test's in-process client (MockMvc) records the application holding the
test (CALLS_HTTP ``props["app"]``) and reaches that application's handler only; a client naming no
service (a relative ``fetch("/x")``) reaches every handler, as before. ``impact``, ``callers``' hint
(:func:`analysis.reached_through.reached_through`) and ``endpoints`` (per-handler client counts) agree.
Measured on piomin/sample-spring-microservices-new and -kubernetes (docs/accuracy.md, session 67, acc67a).
"""

from __future__ import annotations


import pytest

from analysis.endpoints import endpoint_list, endpoint_line
from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from analysis.reached_through import incoming_through, reached_text, reached_through
from analysis.services import client_app, scoped_out
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import EDGE_APP, Edge
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

_POM = "<project><artifactId>{name}</artifactId></project>\n"
_YML = "spring:\n  application:\n    name: {name}\n"


def _controller(pkg: str, cls: str, path: str) -> str:
    return f"""package {pkg};

import org.springframework.web.bind.annotation.GetMapping;
import org.springframework.web.bind.annotation.RestController;

@RestController
public class {cls} {{
    @GetMapping("{path}")
    public String x() {{
        return "";
    }}
}}
"""


def _caller(pkg: str, cls: str, url: str) -> str:
    return f"""package {pkg};

import org.springframework.web.reactive.function.client.WebClient;

public class {cls} {{
    private final WebClient webClient = WebClient.create();

    public String fetch() {{
        return webClient.get().uri("{url}").retrieve().bodyToMono(String.class).block();
    }}
}}
"""


def _mockmvc_test(pkg: str, cls: str, *paths: str) -> str:
    calls = "\n".join(f"""
    @Test
    void get{i}() throws Exception {{
        mockMvc.perform(get("{p}")).andExpect(status().isOk());
    }}""" for i, p in enumerate(paths))
    return f"""package {pkg};

import org.junit.jupiter.api.Test;
import org.springframework.test.web.servlet.MockMvc;

import static org.springframework.test.web.servlet.request.MockMvcRequestBuilders.get;
import static org.springframework.test.web.servlet.result.MockMvcResultMatchers.status;

class {cls} {{
    private MockMvc mockMvc;
{calls}
}}
"""


_TREE = {
    "pom.xml": "<project><modules><module>alpha</module><module>beta</module><module>gamma</module>"
               "<module>lib</module></modules></project>\n",
    "alpha/pom.xml": _POM.format(name="alpha"),
    "alpha/src/main/resources/application.yml": _YML.format(name="alpha-service"),
    "alpha/src/main/java/alpha/AlphaController.java": _controller("alpha", "AlphaController", "/x"),
    "alpha/src/test/java/alpha/AlphaTests.java": _mockmvc_test("alpha", "AlphaTests", "/x", "/lib"),
    "beta/pom.xml": _POM.format(name="beta"),
    "beta/src/main/resources/application.yml": _YML.format(name="beta-service"),
    "beta/src/main/java/beta/BetaController.java": _controller("beta", "BetaController", "/x"),
    "beta/src/test/java/beta/BetaTests.java": _mockmvc_test("beta", "BetaTests", "/x"),
    "gamma/pom.xml": _POM.format(name="gamma"),
    "gamma/src/main/resources/application.yml": _YML.format(name="gamma-service"),
    "gamma/src/main/java/gamma/CallsAlpha.java": _caller("gamma", "CallsAlpha", "http://alpha-service/x"),
    "gamma/src/main/java/gamma/CallsBeta.java": _caller("gamma", "CallsBeta", "http://beta-service/x"),
    # a library module's controller, served by whichever application includes it
    "lib/pom.xml": _POM.format(name="lib"),
    "lib/src/main/java/lib/LibController.java": _controller("lib", "LibController", "/lib"),
    # a page's relative request: it names no service
    "web/app.js": "export function load() {\n  return fetch('/x');\n}\n",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("shared")
    root = write_tree(tmp / "mono", _TREE)
    s = EmbeddedStore(tmp / "mono.db")
    index_repository(root, s, s, IndexOptions(repo="mono", jobs=1))
    yield s
    s.close()


def _clients(s: EmbeddedStore, eid: str) -> dict[str, dict]:
    return {e.src.split(":", 1)[1]: e.props for e in s.incoming([eid], ["CALLS_HTTP"]).get(eid, [])}


def test_in_process_test_clients_record_their_own_application(store: EmbeddedStore) -> None:
    clients = _clients(store, "endpoint:GET /x")
    assert {k: (p.get("service"), p.get(EDGE_APP)) for k, p in clients.items()} == {
        "alpha/src/test/java/alpha/AlphaTests.AlphaTests.get0()": (None, "alpha-service"),
        "beta/src/test/java/beta/BetaTests.BetaTests.get0()": (None, "beta-service"),
        "gamma/src/main/java/gamma/CallsAlpha.CallsAlpha.fetch()": ("alpha-service", None),
        "gamma/src/main/java/gamma/CallsBeta.CallsBeta.fetch()": ("beta-service", None),
        "web/app.load(0)": (None, None),  # a page's relative URL: no application known, as before
    }
    served = {e.src.split(":", 1)[1]: e.props.get("service")
              for e in store.incoming(["endpoint:GET /x"], ["EXPOSES"])["endpoint:GET /x"]}
    assert served == {"alpha/src/main/java/alpha/AlphaController.AlphaController.x()": "alpha-service",
                      "beta/src/main/java/beta/BetaController.BetaController.x()": "beta-service"}


def _reached(report) -> tuple[list[str], list[str]]:
    """(production code reached, test code reached): ``file:name`` of each, sorted."""
    return (sorted(f"{r.node.file}:{r.node.name}" for hop in report.hops for r in hop),
            sorted(f"{r.node.file}:{r.node.name}" for r in report.tests))


def test_impact_of_each_handler_follows_only_the_requests_reaching_it(store: EmbeddedStore) -> None:
    alpha = blast_radius(store, SymbolQuery("AlphaController.x"))
    assert _reached(alpha) == (
        ["gamma/src/main/java/gamma/CallsAlpha.java:fetch", "web/app.js:load"],  # not CallsBeta (names beta-service)
        ["alpha/src/test/java/alpha/AlphaTests.java:get0"])  # not BetaTests (in process: beta-service's handler)
    text = render_markdown(alpha)
    assert "1 in-process test request of the same route not followed: it reaches its own application's handler " \
           "(beta-service)" in text
    assert "1 HTTP client call to another service's endpoint of the same path not followed" in text  # CallsBeta, as before
    assert "BetaTests" not in text and "ambiguous: its URL names no service" not in text.split("## Tests")[1]

    beta = blast_radius(store, SymbolQuery("BetaController.x"))
    assert _reached(beta) == (
        ["gamma/src/main/java/gamma/CallsBeta.java:fetch", "web/app.js:load"],
        ["beta/src/test/java/beta/BetaTests.java:get0"])
    assert "(alpha-service)" in render_markdown(beta)


def test_an_endpoint_target_takes_both_handlers_and_every_client(store: EmbeddedStore) -> None:
    report = blast_radius(store, SymbolQuery("GET /x"))
    assert _reached(report) == (
        ["gamma/src/main/java/gamma/CallsAlpha.java:fetch", "gamma/src/main/java/gamma/CallsBeta.java:fetch",
         "web/app.js:load"],
        ["alpha/src/test/java/alpha/AlphaTests.java:get0", "beta/src/test/java/beta/BetaTests.java:get0"])
    assert "in-process test request" not in render_markdown(report)


def test_a_test_of_a_route_its_application_does_not_serve_reaches_it_as_before(store: EmbeddedStore) -> None:
    # AlphaTests requests GET /lib in process: alpha-service serves no /lib of its own (the library's
    # controller is what alpha includes), so the request is followed to the library's handler
    assert _clients(store, "endpoint:GET /lib") == {
        "alpha/src/test/java/alpha/AlphaTests.AlphaTests.get1()": {"framework": "mockmvc", "url": "/lib",
                                                                  EDGE_APP: "alpha-service"}}
    report = blast_radius(store, SymbolQuery("LibController.x"))
    assert _reached(report) == ([], ["alpha/src/test/java/alpha/AlphaTests.java:get1"])


def test_callers_hint_counts_the_clients_reaching_the_handler(store: EmbeddedStore) -> None:
    alpha = store.get_nodes(["mono:alpha/src/main/java/alpha/AlphaController.AlphaController.x()"])
    [node] = alpha.values()
    [entry] = reached_through(store, [node])
    assert (entry.name, entry.callers, entry.others) == ("GET /x", 3, 2)
    assert entry.as_dict() == {"id": "endpoint:GET /x", "name": "GET /x", "kind": "endpoint", "whose": "clients",
                               "callers": 3, "others": 2}
    assert reached_text([entry.as_dict()]) == [
        "also reached through GET /x (3 clients; 2 more reach another application's handler): "
        "ripple callers 'GET /x' lists all 5"]
    groups = sorted(g.node.file for _, g in incoming_through(store, node))
    assert groups == ["alpha/src/test/java/alpha/AlphaTests.java", "gamma/src/main/java/gamma/CallsAlpha.java",
                      "web/app.js"]
    # a handler alone on its route: every client, no "others" key (the answer is as before)
    [lib] = store.get_nodes(["mono:lib/src/main/java/lib/LibController.LibController.x()"]).values()
    assert [e.as_dict() for e in reached_through(store, [lib])] == [
        {"id": "endpoint:GET /lib", "name": "GET /lib", "kind": "endpoint", "whose": "clients", "callers": 1}]


def test_endpoints_count_the_clients_of_each_application(store: EmbeddedStore) -> None:
    listed = endpoint_list(store, match="/x")
    [entry] = listed.endpoints
    assert [(h.name, h.service, h.clients) for h in entry.handlers] == [
        ("alpha.AlphaController.x", "alpha-service", 3), ("beta.BetaController.x", "beta-service", 3)]
    assert (entry.clients, entry.client_calls) == (5, 5)
    line = endpoint_line(entry.as_dict())
    assert line == ("GET /x -> alpha.AlphaController.x (alpha/src/main/java/alpha/AlphaController.java:8, spring, "
                    "alpha-service: 3 clients); beta.BetaController.x (beta/src/main/java/beta/BetaController.java:8, "
                    "spring, beta-service: 3 clients) · 5 clients (5 calls)")
    # one application serving the route: no per-handler count, the JSON as before
    [lib] = endpoint_list(store, match="/lib").endpoints
    assert [h.as_dict().keys() for h in lib.handlers] == [
        {"id", "name", "repo", "path", "line", "route", "framework"}]


def _edge(**props: object) -> Edge:
    return Edge("CALLS_HTTP", "r:a.f", "endpoint:GET /x", "r", "a.py", 1, 0, None, dict(props))


def test_scoped_out_rule() -> None:
    assert client_app(_edge(app="alpha")) == "alpha"
    assert client_app(_edge(service="alpha")) is None
    assert client_app(Edge("CALLS", "r:a.f", "r:a.g", "r", "a.py", 1, 0, None, {"app": "alpha"})) is None
    served = {"alpha", "beta"}
    assert scoped_out("alpha", {"beta"}, served) is True  # another application's handler
    assert scoped_out("alpha", {"alpha"}, served) is False  # its own
    assert scoped_out("alpha", {"alpha", "beta"}, served) is False  # an endpoint target: both handlers
    assert scoped_out("gamma", {"beta"}, served) is None  # its application serves no such route: as before
    assert scoped_out(None, {"beta"}, served) is None  # no application known: as before


def test_renaming_an_application_relinks_its_tests_like_a_full_index(tmp_path) -> None:
    from tests.unit.test_incremental import Workspace

    ws = Workspace(tmp_path, _TREE)
    try:
        def apps() -> dict[str, str | None]:
            return {k: p.get(EDGE_APP) for k, p in _clients(ws.store, "endpoint:GET /x").items() if "/test/" in k}
        assert apps() == {"alpha/src/test/java/alpha/AlphaTests.AlphaTests.get0()": "alpha-service",
                          "beta/src/test/java/beta/BetaTests.BetaTests.get0()": "beta-service"}
        ws.edit({"alpha/src/main/resources/application.yml": _YML.format(name="first-service")})  # checks a full index
        assert apps() == {"alpha/src/test/java/alpha/AlphaTests.AlphaTests.get0()": "first-service",
                          "beta/src/test/java/beta/BetaTests.BetaTests.get0()": "beta-service"}
    finally:
        ws.close()
