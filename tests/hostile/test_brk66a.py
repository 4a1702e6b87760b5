"""Session 66, brk66a: a newcomer on real applications (techschool/simplebank, gothinkster's Spring Boot
realworld app with Netflix DGS, apollographql/fullstack-tutorial, miguelgrinberg/microblog), each answer
checked against the source."""

from __future__ import annotations

import hashlib

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import split_fixture


def _extract(path: str, source: str):
    ex = extractor_for_path(path)
    assert ex is not None
    return ex.extract(path, source.encode())


def _edges(fixture: str, kinds: tuple[str, ...]):
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        extractions.append((_extract(path, source), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions)
    return sorted((e.kind, e.src.removeprefix("t:"), e.dst.removeprefix("t:"), e.line) for f in result.files
                  for e in f.edges if e.kind in kinds)


def _routes(ex):
    return [(r.framework, r.methods, "".join(f"{{{t}}}" if k != "lit" else t for k, t in r.path.parts),
             r.handler_ref, [w.expr for w in r.wrappers]) for r in ex.routes]


# -- Go: routers made by a chained expression (simplebank's `router.Group("/").Use(authMiddleware(...))`) -------

GO_ROUTER = '''package api

import (
    "github.com/gin-gonic/gin"
    "github.com/go-chi/chi/v5"
    "github.com/gofiber/fiber/v2"
)

func (server *Server) setupRouter() {
    router := gin.Default()
    router.Use(logger)
    router.POST("/users", server.createUser)
    authRoutes := router.Group("/").Use(authMiddleware(server.tokenMaker))
    authRoutes.POST("/accounts", server.createAccount)
    authRoutes.GET("/accounts/:id", server.getAccount)
    router.Group("/admin", adminOnly).Use(audit).DELETE("/users/:id", server.deleteUser)
    v2 := router.Group("/v2").Group("/inner")
    v2.GET("/x", server.x)
    other.Group("/no").GET("/nope", server.nope)
    other.Use(mw).GET("/nope2", server.nope)
    accounts.Register(router.Group("/acc").Use(audit))
    r := chi.NewRouter()
    r.With(paginate).Get("/articles", listArticles)
    r.Route("/p", func(sub chi.Router) { sub.With(ctx).Get("/{id}", getP) })
    r.Use(mw).Get("/not-chi-use", h)
    app := fiber.New()
    api := app.Group("/api").Use(limiter)
    api.Get("/tasks", listTasks)
}
'''


def test_go_routers_made_by_chained_group_use_and_with_calls_serve_their_routes():
    """gin's and Fiber's ``Use`` return the router, chi's ``With`` a router with inline middleware: the
    routes registered on them (assigned or inline) are the router's, under its prefix, wrapped by its
    middleware in order. A chain on an unknown receiver, and chi's ``Use`` (no result), serve nothing."""
    ex = _extract("api/server.go", GO_ROUTER)
    assert _routes(ex) == [
        ("gin", ["POST"], "/users", "server.createUser", ["logger"]),
        ("gin", ["POST"], "/accounts", "server.createAccount", ["logger", "authMiddleware"]),
        ("gin", ["GET"], "/accounts/:id", "server.getAccount", ["logger", "authMiddleware"]),
        ("gin", ["DELETE"], "/admin/users/:id", "server.deleteUser", ["logger", "adminOnly", "audit"]),
        ("gin", ["GET"], "/v2/inner/x", "server.x", ["logger"]),
        ("chi", ["GET"], "/articles", "listArticles", []),
        ("chi", ["GET"], "/p/{id}", "getP", []),
        ("fiber", ["GET"], "/api/tasks", "listTasks", ["limiter"]),
    ]
    mounts = [(m.framework, m.parent, m.child, "".join(t for _, t in m.prefix.parts), m.argument) for m in ex.mounts]
    assert mounts == [
        ("gin", "", "accounts.Register@21:4#0", "/acc", None),
        ("gin", "accounts.Register@21:4#0", "accounts.Register", "", 0),
    ]
    assert [(w.router, w.owner_ref) for w in ex.wrappers] == [("accounts.Register@21:4#0", "logger"),
                                                               ("accounts.Register@21:4#0", "audit")]


def test_go_chained_group_use_routes_link_to_their_handlers_and_middleware():
    """End to end: the simplebank shape exposes the accounts routes from the handler methods, and
    ``authMiddleware`` wraps those two routes only (not ``POST /users``, registered before the group)."""
    fixture = "// --- path: api/server.go ---\n" + GO_ROUTER.split("    v2 :=")[0] + "}\n" + '''
// --- path: api/handlers.go ---
package api

type Server struct{}

func (server *Server) createUser() {}
func (server *Server) createAccount() {}
func (server *Server) getAccount() {}
func (server *Server) deleteUser() {}
func authMiddleware(m int) func() { return nil }
func logger() {}
func adminOnly() {}
func audit() {}
'''
    assert _edges(fixture, ("EXPOSES", "WRAPS")) == [
        ("EXPOSES", "api/handlers.Server.createAccount(0)", "endpoint:POST /accounts", 14),
        ("EXPOSES", "api/handlers.Server.createUser(0)", "endpoint:POST /users", 12),
        ("EXPOSES", "api/handlers.Server.deleteUser(0)", "endpoint:DELETE /admin/users/{}", 16),
        ("EXPOSES", "api/handlers.Server.getAccount(0)", "endpoint:GET /accounts/{}", 15),
        ("WRAPS", "api/handlers.adminOnly(0)", "endpoint:DELETE /admin/users/{}", 16),
        ("WRAPS", "api/handlers.audit(0)", "endpoint:DELETE /admin/users/{}", 16),
        ("WRAPS", "api/handlers.authMiddleware(1)", "endpoint:GET /accounts/{}", 15),
        ("WRAPS", "api/handlers.authMiddleware(1)", "endpoint:POST /accounts", 14),
        ("WRAPS", "api/handlers.logger(0)", "endpoint:DELETE /admin/users/{}", 16),
        ("WRAPS", "api/handlers.logger(0)", "endpoint:GET /accounts/{}", 15),
        ("WRAPS", "api/handlers.logger(0)", "endpoint:POST /accounts", 14),
        ("WRAPS", "api/handlers.logger(0)", "endpoint:POST /users", 12),
    ]
