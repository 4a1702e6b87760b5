"""Go routers handed to functions in other files (``addUserRoutes(v1)``): the routes a function
registers on its router parameter get the prefixes of every router a call hands it, across files and
packages, through receivers and chains of such functions (indexer/languages/go/frameworks/go_web.py
emits the Router and Mount facts, indexer/frameworks/mounts.py resolves them); what must not change
or be linked."""

from __future__ import annotations

from pathlib import Path

from tests.resolution_harness import extract_fixture, resolve_fixture, split_fixture
from tests.unit.test_incremental import Workspace, dump

APP = """
// --- path: go.mod ---
module example.com/app

go 1.21
// --- path: routes/main.go ---
package routes

import (
    "net/http"

    "github.com/gin-gonic/gin"
)

var router = gin.Default()

func Run() {
    getRoutes()
    _ = http.ListenAndServe(":5000", router)
}

func getRoutes() {
    v1 := router.Group("/v1")
    addUserRoutes(v1)
    v1.Use(logger)
    addPingRoutes(v1)
    v2 := router.Group("/v2", requireAuth)
    addPingRoutes(v2)
    addPingRoutes(router.Group("/beta"))
    label := "v1"
    describe(label)
}

func describe(s string) {}

func logger(c *gin.Context) {}

func requireAuth(c *gin.Context) {}
// --- path: routes/users.go ---
package routes

import "github.com/gin-gonic/gin"

func addUserRoutes(rg *gin.RouterGroup) {
    users := rg.Group("/users")
    users.GET("/", listUsers)
    users.GET("/comments", func(c *gin.Context) { c.JSON(200, "comments") })
}

func listUsers(c *gin.Context) {}
// --- path: routes/ping.go ---
package routes

import "github.com/gin-gonic/gin"

func addPingRoutes(rg *gin.RouterGroup) {
    rg.GET("/ping", ping)
}

func ping(c *gin.Context) {}
// --- path: admin/server.go ---
package admin

import (
    "github.com/gin-gonic/gin"

    "example.com/app/admin/api"
)

type Server struct {
    engine *gin.Engine
}

func (s *Server) Mount() {
    g := s.engine.Group("/admin")
    s.routes(g)
}

func (s *Server) routes(r *gin.RouterGroup) {
    r.GET("/status", status)
    inner := r.Group("/api")
    api.Register(inner)
}

func status(c *gin.Context) {}
// --- path: admin/api/api.go ---
package api

import "github.com/gin-gonic/gin"

func Register(g *gin.RouterGroup) {
    g.POST("/jobs", createJob)
}

func Orphan(g *gin.RouterGroup) {
    g.GET("/orphan", createJob)
}

func createJob(c *gin.Context) {}
"""


def _exposes(resolved) -> list[tuple[str, str]]:
    return sorted((e.dst, e.src.removeprefix("t:")) for f in resolved.files for e in f.edges if e.kind == "EXPOSES")


def test_routes_on_a_router_parameter_take_the_prefixes_of_the_routers_handed_to_the_function() -> None:
    resolved = resolve_fixture(APP)
    assert _exposes(resolved) == [
        # a method's router parameter (the group of a struct field's engine) handed on through a
        # group of its own to a function of another package
        ("endpoint:GET /admin/status", "admin/server.status(1)"),
        ("endpoint:GET /beta/ping", "routes/ping.ping(1)"),  # a group made in the argument
        ("endpoint:GET /orphan", "admin/api/api.createJob(1)"),  # handed no router: its own path only
        ("endpoint:GET /v1/ping", "routes/ping.ping(1)"),  # one function handed two routers: both prefixes
        ("endpoint:GET /v1/users", "routes/users.listUsers(1)"),
        ("endpoint:GET /v1/users/comments", "routes/users.addUserRoutes.GET /users/comments(1)"),
        ("endpoint:GET /v2/ping", "routes/ping.ping(1)"),
        ("endpoint:POST /admin/api/jobs", "admin/api/api.createJob(1)"),
    ]
    # gin middleware a handed router runs wraps the function's routes under that router's prefix
    # only: `logger` was added to v1 after addUserRoutes(v1), before addPingRoutes(v1)
    assert sorted((e.src.removeprefix("t:"), e.dst) for f in resolved.files for e in f.edges if e.kind == "WRAPS") == [
        ("routes/main.logger(1)", "endpoint:GET /v1/ping"),
        ("routes/main.requireAuth(1)", "endpoint:GET /v2/ping"),
    ]
    # a router handed to a standard-library function (`http.ListenAndServe(":5000", router)`) is no
    # mount; nor is a string handed to a function of the file (`describe(label)`)
    assert resolved.link_outcomes == {"exposes": 8, "wraps": 2}


def test_the_facts_a_router_parameter_gives() -> None:
    facts = {ex.path: ex for ex, _, _ in extract_fixture(APP)}
    users, main = facts["routes/users.go"], facts["routes/main.go"]
    assert [(r.router, r.path.literal()) for r in users.routes] == [("addUserRoutes#0", "/users/"),
                                                                    ("addUserRoutes#0", "/users/comments")]
    assert [(r.name, r.framework) for r in users.routers] == [("addUserRoutes#0", "gin")]
    assert [(m.parent, m.child, m.argument, m.prefix.literal()) for m in main.mounts] == [
        ("", "addUserRoutes", 0, "/v1"),  # a router handed to a standard-library function mounts nothing
        # a router running middleware: a router of the call alone, the function's parameter under it
        ("", "addPingRoutes@20:4#0", None, "/v1"),
        ("addPingRoutes@20:4#0", "addPingRoutes", 0, ""),
        ("", "addPingRoutes@22:4#0", None, "/v2"),
        ("addPingRoutes@22:4#0", "addPingRoutes", 0, ""),
        ("", "addPingRoutes", 0, "/beta"),
    ]
    assert [(w.owner_ref, w.router, w.kind) for w in main.wrappers] == [
        ("logger", "addPingRoutes@20:4#0", "middleware"), ("requireAuth", "addPingRoutes@22:4#0", "middleware")]
    server = facts["admin/server.go"]
    assert [(m.parent, m.child, m.argument, m.prefix.literal()) for m in server.mounts] == [
        ("", "s.routes", 0, "/admin"),
        ("Server.routes#0", "api.Register", 0, "/api"),
    ]
    # a router made in the function itself stays absolute: no router key, no Router fact
    local = extract_fixture("""
// --- path: main.go ---
package main

import "github.com/gin-gonic/gin"

func main() {
    r := gin.New()
    r.GET("/health", health)
}
""")[0][0]
    assert [(r.router, r.path.literal()) for r in local.routes] == [(None, "/health")]
    assert local.routers == [] and local.mounts == []
    # a test's own engine mounts the routes under prefixes that are not the application's
    test = extract_fixture("""
// --- path: routes/users_test.go ---
package routes

import "github.com/gin-gonic/gin"

func TestUsers(t *testing.T) {
    r := gin.New()
    addUserRoutes(r.Group("/users"))
}
""")[0][0]
    assert test.mounts == []


def test_an_edit_of_the_caller_moves_the_routes_of_the_callee(tmp_path: Path) -> None:
    files = split_fixture(APP)
    ws = Workspace(tmp_path, files)
    try:
        main = "routes/main.go"
        ws.edit({main: files[main].replace('router.Group("/v2", requireAuth)', 'router.Group("/v3", requireAuth)')})  # checked against a full index
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}
        assert {"endpoint:GET /v3/ping", "endpoint:GET /v1/ping"} <= endpoints
        assert "endpoint:GET /v2/ping" not in endpoints
        wraps = {(src.rsplit(".", 1)[-1], dst) for kind, src, dst, *_ in dump(ws.db)["edges"] if kind == "WRAPS"}
        assert ("requireAuth(1)", "endpoint:GET /v3/ping") in wraps
        ws.edit({main: files[main].replace(', requireAuth)', ')')})  # the middleware goes: its WRAPS too
        wraps = {(src.rsplit(".", 1)[-1], dst) for kind, src, dst, *_ in dump(ws.db)["edges"] if kind == "WRAPS"}
        assert wraps == {("logger(1)", "endpoint:GET /v1/ping")}
        ws.edit({main: files[main].replace("    addUserRoutes(v1)\n", "")})
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}
        assert "endpoint:GET /users/comments" in endpoints and "endpoint:GET /v1/users/comments" not in endpoints
        users = "routes/users.go"  # the callee's parameter renamed and moved: the caller's mount follows
        ws.edit({users: files[users].replace("func addUserRoutes(rg *gin.RouterGroup)", "func addUserRoutes(x int, g *gin.RouterGroup)")
                 .replace("rg.Group", "g.Group")})
    finally:
        ws.close()


CHI = """
// --- path: go.mod ---
module example.com/svc

go 1.21
// --- path: main.go ---
package main

import (
    "github.com/go-chi/chi/v5"

    "example.com/svc/users"
)

func main() {
    r := chi.NewRouter()
    r.Route("/api", func(api chi.Router) {
        api.Mount("/users", users.Routes())
    })
    r.Mount("/admin", adminRouter())
    r.Mount("/debug", chi.NewRouter())
    r.Mount("/todos", todos{}.Routes())
}

type todos struct{}

func (t todos) Routes() chi.Router {
    r := chi.NewRouter()
    r.Get("/", t.List)
    return r
}

func (t todos) List() {}

func adminRouter() chi.Router {
    a := chi.NewRouter()
    a.Get("/stats", stats)
    return a
}

func stats() {}
// --- path: users/routes.go ---
package users

import "github.com/go-chi/chi/v5"

func Routes() chi.Router {
    r := chi.NewRouter()
    r.Get("/", list)
    r.Post("/{id}", update)
    return r
}

func Unmounted() chi.Router {
    r := chi.NewRouter()
    r.Get("/alone", list)
    return r
}

func list() {}

func update() {}
"""


def test_a_router_a_function_returns_takes_the_prefixes_it_is_mounted_under() -> None:
    resolved = resolve_fixture(CHI)
    assert _exposes(resolved) == [
        ("endpoint:GET /admin/stats", "main.stats(0)"),  # mounted from the same file
        ("endpoint:GET /alone", "users/routes.list(0)"),  # a returned router mounted nowhere: its own paths
        ("endpoint:GET /api/users", "users/routes.list(0)"),  # mounted inside a Route("/api", ...) of another package
        ("endpoint:GET /todos", "main.todos.List(0)"),  # a method called on a composite literal
        ("endpoint:POST /api/users/{}", "users/routes.update(0)"),
    ]
    facts = {ex.path: ex for ex, _, _ in extract_fixture(CHI)}
    assert [(m.parent, m.child, m.argument, m.prefix.literal()) for m in facts["main.go"].mounts] == [
        ("", "users.Routes", -1, "/api/users"), ("", "adminRouter", -1, "/admin"), ("", "todos.Routes", -1, "/todos"),
    ]  # `chi.NewRouter()` mounted in place is a library call: no mount
    assert [(r.router, r.path.literal()) for r in facts["users/routes.go"].routes] == [
        ("Routes#return", "/"), ("Routes#return", "/{id}"), ("Unmounted#return", "/alone")]


# a module named without a dot: `site/api` is no standard-library package
STRIP = """
// --- path: go.mod ---
module site

go 1.22
// --- path: main.go ---
package main

import (
    "net/http"

    "github.com/go-chi/chi/v5"

    "site/api"
)

var admin = http.NewServeMux()

func main() {
    mux := http.NewServeMux()
    v1 := http.NewServeMux()
    v1.HandleFunc("GET /users", listUsers)
    mux.Handle("/v1/", http.StripPrefix("/v1", v1))
    mux.Handle("/v2/", http.StripPrefix("/v2", api.Routes()))
    v3 := api.Routes()
    mux.Handle("/v3/", http.StripPrefix("/v3", v3))
    h := api.Handler()
    mux.Handle("/h/", http.StripPrefix("/h", h))
    mux.Handle("/static/", http.StripPrefix("/static/", http.FileServer(http.Dir("web"))))
    http.Handle("/admin/", http.StripPrefix("/admin", admin))
    plain := http.NewServeMux()
    plain.HandleFunc("/plain", listUsers)
    mux.Handle("/plain", plain)
    r := chi.NewRouter()
    inner := http.NewServeMux()
    inner.HandleFunc("/ping", ping)
    r.Handle("/chi/*", http.StripPrefix("/chi", inner))
}

func init() {
    admin.HandleFunc("/stats", stats)
}

func listUsers(w http.ResponseWriter, r *http.Request) {}

func ping(w http.ResponseWriter, r *http.Request) {}

func stats(w http.ResponseWriter, r *http.Request) {}
// --- path: api/api.go ---
package api

import "net/http"

func Routes() *http.ServeMux {
    m := http.NewServeMux()
    m.HandleFunc("POST /orders", create)
    m.Handle("/admin/", http.StripPrefix("/admin", adminMux()))
    return m
}

func adminMux() *http.ServeMux {
    a := http.NewServeMux()
    a.HandleFunc("DELETE /orders/{id}", create)
    return a
}

func Handler() http.Handler {
    return http.HandlerFunc(create)
}

func create(w http.ResponseWriter, r *http.Request) {}
"""


def test_a_mux_handled_behind_strip_prefix_serves_its_routes_under_the_stripped_prefix() -> None:
    resolved = resolve_fixture(STRIP)
    assert _exposes(resolved) == [
        ("endpoint:* /admin/stats", "main.stats(2)"),  # a package-level mux on the default mux, routes added in init()
        ("endpoint:* /chi/ping", "main.ping(2)"),  # behind a chi router with no prefix of its own
        ("endpoint:* /plain", "main.listUsers(2)"),  # handled without StripPrefix: its patterns are whole paths
        ("endpoint:DELETE /v2/admin/orders/{}", "api/api.create(2)"),  # a returned mux mounting another
        ("endpoint:DELETE /v3/admin/orders/{}", "api/api.create(2)"),
        ("endpoint:GET /v1/users", "main.listUsers(2)"),
        ("endpoint:POST /v2/orders", "api/api.create(2)"),  # a mux another package's function returns
        ("endpoint:POST /v3/orders", "api/api.create(2)"),  # the same, assigned to a name first
    ]
    main = {ex.path: ex for ex, _, _ in extract_fixture(STRIP)}["main.go"]
    # the file server behind /static/ is no router: no mount, no route
    # (a function returning a handler that is no router, `api.Handler()`, is a mount the linker leaves
    # unlinked: nothing is exposed under /h)
    assert [(m.parent, m.child, m.argument, m.prefix.literal()) for m in main.mounts] == [
        ("", "api.Routes", -1, "/v2"), ("", "api.Routes", -1, "/v3"), ("", "api.Handler", -1, "/h")]


def test_an_edit_of_the_stripped_prefix_or_of_the_returned_mux_moves_the_routes(tmp_path: Path) -> None:
    files = split_fixture(STRIP)
    ws = Workspace(tmp_path, files)
    try:
        main, api = "main.go", "api/api.go"
        ws.edit({main: files[main].replace('http.StripPrefix("/v2", api.Routes())', 'http.StripPrefix("/v9", api.Routes())')})
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}  # checked against a full index
        assert {"endpoint:POST /v9/orders", "endpoint:DELETE /v9/admin/orders/{}"} <= endpoints
        assert not any("/v2/" in e for e in endpoints)
        ws.edit({api: files[api].replace('"POST /orders"', '"PUT /orders"')})
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}
        assert {"endpoint:PUT /v9/orders", "endpoint:PUT /v3/orders"} <= endpoints
        assert not any(e.startswith("endpoint:POST") for e in endpoints)
    finally:
        ws.close()


NESTED_STRIP = """
// --- path: go.mod ---
module site

go 1.22
// --- path: main.go ---
package main

import "net/http"

func main() {
    mux := http.NewServeMux()
    v1 := http.NewServeMux()
    v1.HandleFunc("GET /users", listUsers)
    mux.Handle("/api/v1/", http.StripPrefix("/api", http.StripPrefix("/v1", v1)))
    v2 := http.NewServeMux()
    v2.HandleFunc("GET /orders", listOrders)
    mux.Handle("/x/", http.StripPrefix("/x", http.StripPrefix("/y", http.StripPrefix("/z", v2))))
    plain := http.NewServeMux()
    plain.HandleFunc("GET /ping", ping)
    mux.Handle("/f/", http.StripPrefix("/f", http.TimeoutHandler(plain, 1, "")))
}

func listUsers(w http.ResponseWriter, r *http.Request) {}

func listOrders(w http.ResponseWriter, r *http.Request) {}

func ping(w http.ResponseWriter, r *http.Request) {}
"""


def test_strip_prefix_inside_strip_prefix_strips_both_prefixes() -> None:
    # brk46: the outer StripPrefix strips first, then the inner one: v1 sees /users of /api/v1/users
    # (the inner StripPrefix was read as no router: v1's routes were exposed at /users)
    assert _exposes(resolve_fixture(NESTED_STRIP)) == [
        ("endpoint:GET /api/v1/users", "main.listUsers(2)"),
        # a router behind another wrapper than StripPrefix keeps its own patterns (not under /f)
        ("endpoint:GET /ping", "main.ping(2)"),
        ("endpoint:GET /x/y/z/orders", "main.listOrders(2)"),
    ]


SELF_NAMED = """
// --- path: go.mod ---
module x

go 1.21
// --- path: main.go ---
package main

import "github.com/gin-gonic/gin"

func h(c *gin.Context) {}

func self(rg *gin.RouterGroup) {
    rg.GET("/x", h)
}

func other(rg *gin.RouterGroup) {
    rg.GET("/y", h)
}

func main() {
    r := gin.Default()
    self(r.Group("/a"))
    other(r.Group("/b"))
}
// --- path: srv.go ---
package main

import "github.com/gin-gonic/gin"

type Server struct{ r *gin.Engine }

func (self *Server) routes() {
    self.mount(self.r.Group("/s"))
}

func (self *Server) mount(rg *gin.RouterGroup) {
    rg.GET("/z", h)
}
"""


def test_a_function_named_self_is_handed_its_router() -> None:
    # brk46 (brk45's finding 8): `self(r.Group("/a"))` was read as the instance `self` outside any
    # class, so the function's route lost its prefix (/x); a receiver named self is still the instance
    assert _exposes(resolve_fixture(SELF_NAMED)) == [
        ("endpoint:GET /a/x", "main.h(1)"), ("endpoint:GET /b/y", "main.h(1)"), ("endpoint:GET /s/z", "main.h(1)")]
