"""The blast radius through cross-cutting code (WRAPS edges): a wrapper reaches the endpoints it runs for
at its own hop, the walk goes on to those endpoints' HTTP clients in another repository, a handler
reached at the same hop explains its endpoint instead of the wrapper, and the report folds an
application-wide wrapper's endpoints into one line ("all N endpoints of X, through the filter Y")
while JSON lists them. Exact nodes and edges in an embedded store."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import mermaid_diagram, render_markdown, report_json
from stores.contracts import Edge
from stores.embedded import EmbeddedStore
from tests.unit.test_impact import Repo, endpoint

TOKENS = "src/main/java/api/TokenService.java"
FILTER = "src/main/java/api/JwtFilter.java"
ADMIN_FILTER = "src/main/java/api/AdminFilter.java"
ORDERS = "src/main/java/api/OrderController.java"
ADMIN = "src/main/java/api/AdminController.java"
CLIENT = "web/client.py"


def _wraps(repo: Repo, src: str, dst: str, file: str, line: int, **props: str) -> None:
    repo.file(file).edges.append(Edge("WRAPS", src, dst, repo.repo, file, line, 1, None, props))


@pytest.fixture
def store(tmp_path: Path):
    api = Repo("api", "java")
    ids = {
        "verify": api.node(TOKENS, "TokenService.verify", "String", 3, 5),
        "filter": api.node(FILTER, "JwtFilter.doFilterInternal", "HttpServletRequest", 8, 14),
        "admin_filter": api.node(ADMIN_FILTER, "AdminFilter.doFilter", "ServletRequest", 5, 9),
        "list": api.node(ORDERS, "OrderController.list", "", 10, 12),
        "get": api.node(ORDERS, "OrderController.get", "long", 14, 17),
        "stats": api.node(ADMIN, "AdminController.stats", "", 6, 8),
    }
    api.edge("CALLS", ids["filter"], ids["verify"], FILTER, 10, 8, "exact")
    api.edge("CALLS", ids["admin_filter"], ids["filter"], ADMIN_FILTER, 6, 8, "exact")
    api.edge("CALLS", ids["get"], ids["verify"], ORDERS, 15, 8, "exact")  # a handler calling it too
    eps = {"list": endpoint("GET", "/orders"), "get": endpoint("GET", "/orders/{id}"), "stats": endpoint("GET", "/admin/stats")}
    for name, ep in eps.items():
        path = ADMIN if name == "stats" else ORDERS
        api.shared(path, ep)
        api.edge("EXPOSES", ids[name], ep.id, path, 5, 4, framework="spring")
        api.shared(FILTER, ep)
        _wraps(api, ids["filter"], ep.id, FILTER, 6, framework="spring", kind="filter", scope="app")
    api.shared(ADMIN_FILTER, eps["stats"])
    _wraps(api, ids["admin_filter"], eps["stats"].id, ADMIN_FILTER, 3, framework="servlet", kind="filter", scope="app",
           path="/admin/*")
    web = Repo("web", "python")
    ids["fetch"] = web.node(CLIENT, "fetch_orders", "0", 3, 5, "Function")
    ids["page"] = web.node(CLIENT, "page", "0", 7, 9, "Function")
    web.shared(CLIENT, eps["list"])
    web.edge("CALLS_HTTP", ids["fetch"], eps["list"].id, CLIENT, 4, 11, framework="requests", url="/orders")
    web.edge("CALLS", ids["page"], ids["fetch"], CLIENT, 8, 4, "exact")
    s = EmbeddedStore(tmp_path / "w.db")
    s.replace_files([*api.files.values(), *web.files.values()])
    yield s, ids
    s.close()


def test_a_filter_reaches_what_it_wraps_and_the_walk_goes_on_to_their_clients(store) -> None:
    s, ids = store
    report = blast_radius(s, SymbolQuery("TokenService.verify"))
    assert [(h.http_method, h.path, h.hops, h.handler.qualname, h.through.node.qualname if h.through else None)
            for h in report.endpoints] == [
        ("GET", "/admin/stats", 1, "AdminController.stats", "JwtFilter.doFilterInternal"),
        ("GET", "/orders", 1, "OrderController.list", "JwtFilter.doFilterInternal"),
        ("GET", "/orders/{}", 1, "OrderController.get", None),  # its handler calls verify: no wrapper needed
    ]
    # The client of GET /orders in another repository, and its caller, one and two hops further.
    assert [[(r.node.qualname, r.parent) for r in hop] for hop in report.hops] == [
        [("JwtFilter.doFilterInternal", ids["verify"]), ("OrderController.get", ids["verify"])],
        [("AdminFilter.doFilter", ids["filter"]), ("fetch_orders", "endpoint:GET /orders")],
        [("page", ids["fetch"])],
    ]
    assert [(w.node.qualname, w.kind, w.scopes, w.paths, w.hops, w.endpoints, w.application) for w in report.wrappers] == [
        ("JwtFilter.doFilterInternal", "filter", ("app",), (), 1,
         ("endpoint:GET /admin/stats", "endpoint:GET /orders", "endpoint:GET /orders/{}"), "api"),
        ("AdminFilter.doFilter", "filter", ("app",), ("/admin/*",), 2, ("endpoint:GET /admin/stats",), "api"),
    ]
    assert [(p.node.qualname, p.kinds, p.hops) for p in report.entry_points if p.node.repo == "api"] == [
        ("JwtFilter.doFilterInternal", ("filter",), 1), ("OrderController.get", ("http",), 1),
        ("AdminFilter.doFilter", ("filter",), 2)]


def test_the_report_folds_an_application_wide_filters_endpoints_into_one_line(store) -> None:
    s, _ = store
    report = blast_radius(s, SymbolQuery("TokenService.verify"))
    md = render_markdown(report)
    table = md.split("## Reachable endpoints", 1)[1].split("## Topics", 1)[0].strip().splitlines()
    assert table == [
        "| Method | Path | Repository | Hops | Certainty | Example path |",
        "|---|---|---|---|---|---|",
        "| – | all 3 endpoints of api | api | 1 | exact | through the filter `JwtFilter.doFilterInternal`: "
        "`JwtFilter.doFilterInternal` → `TokenService.verify` |",
        "| GET | `/orders/{}` | api | 1 | exact | `GET /orders/{}` → `OrderController.get` → `TokenService.verify` |",
    ]  # AdminFilter wraps one endpoint (and reaches it at hop 2): no line of its own
    # Past the row limit, the folded lines are cut too (a repository with 200 middleware classes
    # printed 200 "all N endpoints" rows).
    cut = render_markdown(report, limit=0).split("## Reachable endpoints", 1)[1].split("## Topics", 1)[0]
    assert "| – | … and 1 more wrappers reaching whole applications | | | | |" in cut
    assert "all 3 endpoints" not in cut
    data = report_json(report)
    assert [(e["path"], e["through"] and e["through"]["qualname"]) for e in data["endpoints"]] == [
        ("/admin/stats", "JwtFilter.doFilterInternal"), ("/orders", "JwtFilter.doFilterInternal"), ("/orders/{}", None)]
    assert [(w["qualname"], w["summary"]) for w in data["wrappers"]] == [
        ("JwtFilter.doFilterInternal", "all 3 endpoints of api, through the filter JwtFilter.doFilterInternal"),
        ("AdminFilter.doFilter", None)]
    diagram = mermaid_diagram(report)
    assert '  w0{{"all 3 endpoints of api"}}' in diagram
    assert "c0 --> w0" in diagram  # the filter (first caller of hop 1) to its endpoints
    assert "endpoint" not in diagram.replace("endpoints of api", "")  # folded: no endpoint of its own but /orders/{}
    assert 'e0{{"GET /orders/{}"}}' in diagram
    grouped = mermaid_diagram(report, max_nodes=3)
    assert '  e1{{"3 endpoints"}}' in grouped


def test_a_path_limited_wrapper_is_summarised_under_its_path(store) -> None:
    s, _ = store
    report = blast_radius(s, SymbolQuery("JwtFilter.doFilterInternal"))
    # The target itself wraps 3 endpoints (hop 0); AdminFilter, its caller, 1 endpoint under /admin/*.
    assert [(w.node.qualname, w.hops, len(w.endpoints)) for w in report.wrappers] == [
        ("JwtFilter.doFilterInternal", 0, 3), ("AdminFilter.doFilter", 1, 1)]
    assert [(h.path, h.hops, h.through.node.qualname) for h in report.endpoints if h.through] == [
        ("/admin/stats", 0, "JwtFilter.doFilterInternal"), ("/orders", 0, "JwtFilter.doFilterInternal"),
        ("/orders/{}", 0, "JwtFilter.doFilterInternal")]


def test_a_wrapper_link_marked_inferred_makes_its_endpoints_inferred(tmp_path: Path) -> None:
    # A factory returning one of several functions: the WRAPS edge says ``match: inferred``, and the
    # endpoint reached through it is only as sure as that (an exact one stays exact).
    api = Repo("api", "python")
    lookup = api.node("app/auth.py", "lookup", "0", 1, 2, "Function")
    lenient = api.node("app/auth.py", "_lenient", "0", 4, 5, "Function")
    plain = api.node("app/auth.py", "plain_dep", "0", 7, 8, "Function")
    me, health = api.node("app/routes.py", "me", "0", 3, 4, "Function"), api.node("app/routes.py", "health", "0", 6, 7, "Function")
    api.edge("CALLS", lenient, lookup, "app/auth.py", 5, 4, "exact")
    api.edge("CALLS", plain, lookup, "app/auth.py", 8, 4, "exact")
    for handler, ep, dep, sure in ((me, endpoint("GET", "/me"), lenient, {"match": "inferred"}),
                                   (health, endpoint("GET", "/health"), plain, {})):
        api.shared("app/routes.py", ep)
        api.edge("EXPOSES", handler, ep.id, "app/routes.py", 2, 0, framework="fastapi")
        _wraps(api, dep, ep.id, "app/routes.py", 2, framework="fastapi", kind="dependency", scope="route", **sure)
    s = EmbeddedStore(tmp_path / "w.db")
    s.replace_files(list(api.files.values()))
    try:
        report = blast_radius(s, SymbolQuery("lookup"))
        assert [(h.http_method, h.path, h.hops, h.certainty) for h in report.endpoints] == [
            ("GET", "/health", 1, "exact"),
            ("GET", "/me", 1, "inferred"),
        ]
    finally:
        s.close()


def test_an_endpoint_a_hook_reaches_reads_as_its_route_declares_it(tmp_path: Path) -> None:
    """A hook (``@ModelAttribute``) reaches ``/owners/{}/edit`` through WRAPS: the report names it with
    the route its handler's EXPOSES edge declares (``/owners/{ownerId}/edit``), as it does the endpoint
    a handler reaches; an endpoint whose handler declares no route keeps its normalised path."""
    app = Repo("app", "java")
    ctl = "src/main/java/app/OwnerController.java"
    find = app.node("src/main/java/app/OwnerRepository.java", "OwnerRepository.findById", "Integer", 3, 3)
    hook = app.node(ctl, "OwnerController.findOwner", "Integer", 5, 8)
    edit = app.node(ctl, "OwnerController.initUpdateForm", "", 10, 12)
    show = app.node(ctl, "OwnerController.showOwner", "int", 14, 17)
    plain = app.node(ctl, "OwnerController.plain", "", 19, 20)
    app.edge("CALLS", hook, find, ctl, 6, 8, "exact")
    app.edge("CALLS", show, find, ctl, 15, 8, "exact")
    eps = {"edit": endpoint("GET", "/owners/{ownerId}/edit"), "show": endpoint("GET", "/owners/{ownerId}"),
           "plain": endpoint("GET", "/p/{x}")}
    for name, handler, route in (("edit", edit, "/owners/{ownerId}/edit"), ("show", show, "/owners/{ownerId}"),
                                 ("plain", plain, None)):
        app.shared(ctl, eps[name])
        props = {"route": route} if route else {}
        app.edge("EXPOSES", handler, eps[name].id, ctl, 10, 4, framework="spring", **props)
    for name in ("edit", "plain"):
        _wraps(app, hook, eps[name].id, ctl, 5, framework="spring", kind="hook", scope="router")
    s = EmbeddedStore(tmp_path / "h.db")
    s.replace_files(list(app.files.values()))
    report = blast_radius(s, SymbolQuery("OwnerRepository.findById"))
    assert [(h.path, h.route, h.through.node.qualname if h.through else None) for h in report.endpoints] == [
        ("/owners/{}", "/owners/{ownerId}", None),
        ("/owners/{}/edit", "/owners/{ownerId}/edit", "OwnerController.findOwner"),
        ("/p/{}", None, "OwnerController.findOwner"),
    ]
    s.close()


def test_a_path_limited_wrappers_line_says_matching_not_all(tmp_path: Path) -> None:
    # Nest's ``consumer.apply(AuthMiddleware).forRoutes({path: 'user', method: GET}, {path: 'user',
    # method: PUT})`` (nestjs-realworld-example-app): the middleware wraps GET and PUT /api/user but
    # not POST /api/users nor GET /api/tags. "all 2 endpoints of nest under /user" read as if every
    # endpoint under /user (or all of them) ran it; the line counts what it wraps, matching its paths.
    nest = Repo("nest", "typescript")
    mw = nest.node("src/user/auth.middleware.ts", "AuthMiddleware.use", "3", 13, 30)
    find = nest.node("src/user/user.service.ts", "UserService.findById", "1", 87, 96)
    nest.edge("CALLS", mw, find, "src/user/auth.middleware.ts", 18, 43, "exact")
    handlers = {("GET", "/api/user"): "UserController.findMe", ("PUT", "/api/user"): "UserController.update",
                ("POST", "/api/users"): "UserController.create", ("GET", "/api/tags"): "TagController.findAll"}
    for i, ((verb, path), qual) in enumerate(handlers.items()):
        ep = endpoint(verb, path)
        handler = nest.node("src/user/user.controller.ts", qual, "1", 20 + 5 * i, 23 + 5 * i)
        nest.shared("src/user/user.controller.ts", ep)
        nest.edge("EXPOSES", handler, ep.id, "src/user/user.controller.ts", 20 + 5 * i, 3, framework="nest")
        if path == "/api/user":
            nest.shared("src/user/user.module.ts", ep)
            _wraps(nest, mw, ep.id, "src/user/user.module.ts", 19, framework="nest", kind="middleware", scope="app",
                   path="/user")
    s = EmbeddedStore(tmp_path / "n.db")
    s.replace_files(list(nest.files.values()))
    try:
        report = blast_radius(s, SymbolQuery("UserService.findById"))
    finally:
        s.close()
    assert [(h.http_method, h.path) for h in report.endpoints] == [("GET", "/api/user"), ("PUT", "/api/user")]
    md = render_markdown(report)
    table = md.split("## Reachable endpoints", 1)[1].split("## Topics", 1)[0].strip().splitlines()
    assert table[2:] == [
        "| – | 2 endpoints of nest matching `/user` | nest | 1 | exact | through the middleware "
        "`AuthMiddleware.use`: `AuthMiddleware.use` → `UserService.findById` |"]
    assert "all 2 endpoints" not in md and "under `/user`" not in md
    assert [w["summary"] for w in report_json(report)["wrappers"]] == [
        "2 endpoints of nest matching /user, through the middleware AuthMiddleware.use"]
    assert '  w0{{"2 endpoints of nest matching /user"}}' in mermaid_diagram(report)
