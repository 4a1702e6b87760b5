"""Spring functional routes (:mod:`indexer.languages.java.frameworks.spring_functional`): the exact
routes of both forms with their prefixes and handlers, lambdas made inline handlers owning their
calls, what is no route, and the EXPOSES edges the linker makes of them across files."""

from __future__ import annotations

import hashlib
import textwrap

from indexer.languages import extractor_for_path
from indexer.languages.java import EXTRACTOR
from indexer.model import Template
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import split_fixture

ROUTES = """
package shop;

@Configuration
public class Routes {
    private final AuditService audit;

    @Bean
    public RouterFunction<ServerResponse> owners(OwnerHandler handler) {
        return RouterFunctions.route(GET("/owners").and(accept(JSON)), handler::list)
            .andRoute(POST("/owners"), req -> handler.create(req))
            .andRoute(DELETE(Paths.OWNER), this::remove);
    }

    @Bean
    public RouterFunction<ServerResponse> api(VetHandler vets) {
        return route()
            .path("/api", b -> b
                .GET("/vets/{id}", accept(JSON), vets::show)
                .nest(path("/admin"), a -> a.POST("/vets", request -> {
                    audit.record(request);
                    return vets.create(request);
                })))
            .GET("/health", req -> ServerResponse.ok().build())
            .build();
    }

    Mono<ServerResponse> remove(ServerRequest r) { return null; }

    void notRoutes(Map m, Client client) {
        m.get("x");
        client.GET("/x");
        route(GET("/y"), handlerVariable).toString();
    }
}
"""


def test_functional_routes_both_forms_prefixes_and_handlers() -> None:
    fx = EXTRACTOR.extract("src/shop/Routes.java", textwrap.dedent(ROUTES).lstrip().encode())
    assert fx.errors == []
    assert [(r.methods, r.path, r.handler, r.handler_ref, r.line) for r in fx.routes] == [
        (["GET"], Template.of("/owners"), None, "OwnerHandler.list", 9),  # a parameter's declared type
        (["POST"], Template.of("/owners"), "Routes.owners.POST /owners", None, 10),
        (["DELETE"], Template((("ref", "Paths.OWNER"),)), "Routes.remove", None, 11),
        (["GET"], Template.of("/api/vets/{id}"), None, "VetHandler.show", 18),
        (["POST"], Template.of("/api/admin/vets"), "Routes.api.POST /vets", None, 19),
        (["GET"], Template.of("/health"), "Routes.api.GET /health", None, 23),
    ]  # not client.GET("/x"), not a handler held in a variable
    inline = [(d.qualname, d.parent, d.start_line, d.end_line) for d in fx.definitions if d.kind == "function"]
    assert inline == [("Routes.owners.POST /owners", "Routes.owners", 10, 10),
                      ("Routes.api.POST /vets", "Routes.api", 19, 22),
                      ("Routes.api.GET /health", "Routes.api", 23, 23)]
    # The lambda owns the calls in its body; the route chain's own calls stay with the method.
    assert sorted((c.caller, c.name) for c in fx.calls if c.name in ("record", "create", "andRoute")) == [
        ("Routes.api.POST /vets", "create"), ("Routes.api.POST /vets", "record"),
        ("Routes.owners", "andRoute"), ("Routes.owners", "andRoute"), ("Routes.owners.POST /owners", "create")]


APP = """
# --- path: src/shop/Routes.java ---
package shop;

public class Routes {
    public RouterFunction<ServerResponse> owners(OwnerHandler handler, OwnerService service) {
        return route().GET("/owners", handler::list)
            .DELETE("/owners/{id}", req -> service.remove(req))
            .build();
    }
}
# --- path: src/shop/OwnerHandler.java ---
package shop;

public class OwnerHandler {
    public Mono<ServerResponse> list(ServerRequest req) { return null; }
}
# --- path: src/shop/OwnerService.java ---
package shop;

public class OwnerService {
    public void remove(ServerRequest req) {}
}
"""


def test_functional_routes_link_to_their_handlers_and_lambdas() -> None:
    extractions = []
    for path, source in split_fixture(APP).items():
        data = source.encode()
        ex = extractor_for_path(path)
        assert ex is not None
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions)
    edges = sorted((e.kind, e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges
                   if e.kind == "EXPOSES" or (e.kind == "CALLS" and "remove" in e.dst))
    assert edges == [
        ("CALLS", "src/shop/Routes.Routes.owners.DELETE /owners/{id}(ServerRequest)", "t:src/shop/OwnerService.OwnerService.remove(ServerRequest)"),
        ("EXPOSES", "src/shop/OwnerHandler.OwnerHandler.list(ServerRequest)", "endpoint:GET /owners"),
        ("EXPOSES", "src/shop/Routes.Routes.owners.DELETE /owners/{id}(ServerRequest)", "endpoint:DELETE /owners/{}"),
    ]
    assert result.link_outcomes == {"exposes": 2}
