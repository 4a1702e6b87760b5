"""Session 66, brk66a: a newcomer on real applications (techschool/simplebank, gothinkster's Spring Boot
realworld app with Netflix DGS, apollographql/fullstack-tutorial, miguelgrinberg/microblog), each answer
checked against the source."""

from __future__ import annotations

import hashlib

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import extract_fixture, split_fixture


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
        ("chi", ["GET"], "/articles", "listArticles", ["paginate"]),
        ("chi", ["GET"], "/p/{id}", "getP", ["ctx"]),
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


# -- Go: raw SQL (simplebank's sqlc queries: no table was read or written by any Go code) --------------------------

GO_SQL = '''// --- path: db/migration/000001_init.up.sql ---
CREATE TABLE accounts (id bigserial PRIMARY KEY, owner varchar NOT NULL, balance bigint NOT NULL);
CREATE TABLE entries (id bigserial PRIMARY KEY, account_id bigint NOT NULL, amount bigint NOT NULL);
CREATE TABLE cache_entries (k varchar PRIMARY KEY);
// --- path: db/sqlc/account.sql.go ---
// Code generated by sqlc. DO NOT EDIT.
package db

import "context"

const addAccountBalance = `-- name: AddAccountBalance :one
UPDATE accounts
SET balance = balance + $1
WHERE id = $2
RETURNING id, owner, balance
`

func (q *Queries) AddAccountBalance(ctx context.Context, arg AddAccountBalanceParams) (Account, error) {
    row := q.db.QueryRow(ctx, addAccountBalance, arg.Amount, arg.ID)
    return row, nil
}

func (q *Queries) ListEntries(ctx context.Context, id int64) error {
    _, err := q.db.QueryContext(ctx, "SELECT id, amount FROM entries WHERE account_id = " + "$1", id)
    return err
}

func (q *Queries) Named(ctx context.Context) error {
    return q.db.GetContext(ctx, &dest, listOwnersSQL)
}

func (q *Queries) NotSQL(ctx context.Context) error {
    q.cache.Get("cache_entries")
    q.db.Exec(ctx, "select a file")
    q.db.Query(ctx, someVariable)
    return nil
}
// --- path: db/sqlc/queries.go ---
package db

const listOwnersSQL = "SELECT owner FROM accounts"
'''


def test_go_raw_sql_of_database_sql_pgx_sqlx_and_sqlc_reads_and_writes_tables():
    """sqlc's ``q.db.QueryRow(ctx, addAccountBalance, ...)`` (a same-file constant whose text starts with
    sqlc's ``-- name:`` comment), a ``QueryContext`` literal joined by ``+``, sqlx's ``GetContext`` of another
    file's constant named like SQL: READS / WRITES with the columns. A ``Get`` of a string that is no SQL, a
    literal that is not a statement, and a variable not named like SQL claim nothing."""
    edges = _edges(GO_SQL, ("READS", "WRITES"))
    assert [(k, s, d, line) for k, s, d, line in edges] == [
        ("READS", "db/sqlc/account.sql.Queries.AddAccountBalance(2)", "table:t:.accounts", 14),
        ("READS", "db/sqlc/account.sql.Queries.ListEntries(2)", "table:t:.entries", 19),
        ("READS", "db/sqlc/account.sql.Queries.Named(1)", "table:t:.accounts", 24),
        ("WRITES", "db/sqlc/account.sql.Queries.AddAccountBalance(2)", "table:t:.accounts", 14),
    ]
    result = resolve_repository("t", extract_fixture(GO_SQL))
    columns = sorted((e.kind, e.src.removeprefix("t:"), tuple(e.props["columns"])) for f in result.files
                     for e in f.edges if e.kind in ("READS", "WRITES"))
    assert columns == [
        ("READS", "db/sqlc/account.sql.Queries.AddAccountBalance(2)", ("balance", "id", "owner")),
        ("READS", "db/sqlc/account.sql.Queries.ListEntries(2)", ("account_id", "amount", "id")),
        ("READS", "db/sqlc/account.sql.Queries.Named(1)", ("owner",)),
        ("WRITES", "db/sqlc/account.sql.Queries.AddAccountBalance(2)", ("balance",)),
    ]
    uses = _extract("db/sqlc/account.sql.go", GO_SQL.split("// --- path: db/sqlc/account.sql.go ---\n")[1]
                    .split("// --- path:")[0]).table_uses
    assert [(u.framework, u.role, u.owner, u.line) for u in uses] == [
        ("sql", "sql", "Queries.AddAccountBalance", 14),
        ("sql", "sql", "Queries.ListEntries", 19),
        ("sql", "sql", "Queries.Named", 24),
    ]


def test_looks_like_sql_skips_leading_comments_only_before_a_statement():
    from indexer.frameworks import looks_like_sql

    assert looks_like_sql("-- name: GetAccount :one\nSELECT id FROM accounts WHERE id = $1")
    assert looks_like_sql("/* report */ -- x\n  UPDATE t SET a = 1")
    assert not looks_like_sql("-- name: GetAccount :one")
    assert not looks_like_sql("-- a comment\nselect a file")
    assert not looks_like_sql("/* unterminated SELECT a FROM t")


# -- Go: methods of an embedded interface (sqlc's `type Store interface { Querier; ... }`) ------------------------

GO_EMBEDDED = '''// --- path: db/querier.go ---
package db

type Querier interface {
    GetAccount(id int64) (Account, error)
}
// --- path: db/store.go ---
package db

type Store interface {
    Querier
    TransferTx(id int64) error
}

type Queries struct{}

func (q *Queries) GetAccount(id int64) (Account, error) { return Account{}, nil }

type SQLStore struct {
    *Queries
}

func (s *SQLStore) TransferTx(id int64) error { return nil }
// --- path: api/server.go ---
package api

import db "example.com/bank/db"

type Server struct {
    store db.Store
}

func (server *Server) getAccount(id int64) {
    server.store.GetAccount(id)
    server.store.TransferTx(id)
    server.store.Missing(id)
}
// --- path: go.mod ---
module example.com/bank

go 1.22
'''


def test_go_call_of_a_method_an_interface_embeds_reaches_the_embedded_declaration_and_implementations():
    """``server.store.GetAccount`` on a ``db.Store`` that embeds ``Querier``: the call binds
    ``Querier.GetAccount`` and its implementation ``Queries.GetAccount`` (promoted into ``SQLStore``), as
    ``TransferTx`` binds ``Store``'s own; a method neither interface declares binds nothing."""
    result = resolve_repository("t", extract_fixture(GO_EMBEDDED))
    calls = sorted((e.src.removeprefix("t:"), e.dst.removeprefix("t:"), e.line) for f in result.files
                   for e in f.edges if e.kind == "CALLS")
    assert calls == [
        ("api/server.Server.getAccount(1)", "db/querier.Querier.GetAccount(1)", 10),
        ("api/server.Server.getAccount(1)", "db/store.Queries.GetAccount(1)", 10),
        ("api/server.Server.getAccount(1)", "db/store.SQLStore.TransferTx(1)", 11),
        ("api/server.Server.getAccount(1)", "db/store.Store.TransferTx(1)", 11),
    ]


# -- Java: GraphQL errors go to graphql-java's handlers, not to Spring MVC's advice (realworld's DGS app) --------

JAVA_GRAPHQL_ERRORS = '''// --- path: src/main/java/app/api/UserApi.java ---
package app.api;

@RestController
public class UserApi {
    @GetMapping("/user")
    public String currentUser() { return "me"; }
}
// --- path: src/main/java/app/api/CustomizeExceptionHandler.java ---
package app.api;

@RestControllerAdvice
public class CustomizeExceptionHandler {
    @ExceptionHandler(InvalidRequestException.class)
    public Object handleInvalidRequest(Exception e) { return null; }

    @GraphQlExceptionHandler
    public Object handleGraphQl(Exception e) { return null; }
}
// --- path: src/main/java/app/api/JwtTokenFilter.java ---
package app.api;

@Component
public class JwtTokenFilter extends OncePerRequestFilter {
    protected void doFilterInternal(HttpServletRequest request, HttpServletResponse response, FilterChain chain) {}
}
// --- path: src/main/java/app/graphql/MeDatafetcher.java ---
package app.graphql;

@DgsComponent
public class MeDatafetcher {
    @DgsQuery(field = "me")
    public String getMe() { return "me"; }
}
// --- path: src/main/java/app/graphql/GraphQLCustomizeExceptionHandler.java ---
package app.graphql;

import com.netflix.graphql.types.errors.TypedGraphQLError;
import graphql.execution.DataFetcherExceptionHandler;

@Component
public class GraphQLCustomizeExceptionHandler implements DataFetcherExceptionHandler {
    @Override
    public CompletableFuture<DataFetcherExceptionHandlerResult> handleException(DataFetcherExceptionHandlerParameters p) {
        return null;
    }

    public void helper() {}
}
// --- path: src/main/java/app/graphql/Resolver.java ---
package app.graphql;

@Component
public class Resolver extends DataFetcherExceptionResolverAdapter {
    @Override
    protected GraphQLError resolveToSingleError(Throwable ex, DataFetchingEnvironment env) { return null; }
}
'''


def test_java_graphql_endpoints_are_handled_by_graphql_error_handlers_and_not_by_mvc_advice():
    """A ``@RestControllerAdvice``'s ``@ExceptionHandler`` handles the MVC route only; the DGS query is
    handled by the ``DataFetcherExceptionHandler`` bean's ``handleException`` (not its ``helper``), the
    ``DataFetcherExceptionResolverAdapter``'s ``resolveToSingleError`` and the advice's
    ``@GraphQlExceptionHandler``; the servlet filter runs for both."""
    edges = _edges(JAVA_GRAPHQL_ERRORS, ("WRAPS",))
    assert [(s.rsplit("/", 1)[-1], d) for _, s, d, _ in edges] == [
        ("CustomizeExceptionHandler.CustomizeExceptionHandler.handleGraphQl(Exception)", "endpoint:QUERY Query.me"),
        ("CustomizeExceptionHandler.CustomizeExceptionHandler.handleInvalidRequest(Exception)", "endpoint:GET /user"),
        ("JwtTokenFilter.JwtTokenFilter.doFilterInternal(HttpServletRequest,HttpServletResponse,FilterChain)",
         "endpoint:GET /user"),
        ("JwtTokenFilter.JwtTokenFilter.doFilterInternal(HttpServletRequest,HttpServletResponse,FilterChain)",
         "endpoint:QUERY Query.me"),
        ("GraphQLCustomizeExceptionHandler.GraphQLCustomizeExceptionHandler.handleException("
         "DataFetcherExceptionHandlerParameters)", "endpoint:QUERY Query.me"),
        ("Resolver.Resolver.resolveToSingleError(Throwable,DataFetchingEnvironment)", "endpoint:QUERY Query.me"),
    ]


# -- Python: SQLAlchemy 2 one-to-many relationships queried through the attribute (microblog) ----------------------

SQLA_RELATIONSHIPS = '''# --- path: app/models.py ---
from typing import Optional
import sqlalchemy as sa
import sqlalchemy.orm as so
from app import db

followers = sa.Table(
    'followers', db.metadata,
    sa.Column('follower_id', sa.Integer, sa.ForeignKey('user.id'), primary_key=True),
    sa.Column('followed_id', sa.Integer, sa.ForeignKey('user.id'), primary_key=True))


class User(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    posts: so.WriteOnlyMapped['Post'] = so.relationship(back_populates='author')
    notifications: so.WriteOnlyMapped['Notification'] = so.relationship(back_populates='user')
    tasks: so.Mapped[list["Task"]] = so.relationship(back_populates='user')
    following: so.WriteOnlyMapped['User'] = so.relationship(secondary=followers, back_populates='followers')
    nickname: so.Mapped[Optional[str]] = so.mapped_column(sa.String(64))

    def posts_count(self):
        return db.session.scalar(sa.select(sa.func.count()).select_from(self.posts.select().subquery()))

    def add_notification(self, name):
        db.session.execute(self.notifications.delete().where(Notification.name == name))

    def follow(self, user):
        self.following.add(user)

    def unknown(self):
        self.nickname.select()
        self.cache.delete("key")


class Post(db.Model):
    __tablename__ = 'post'
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    author: so.Mapped[User] = so.relationship(back_populates='posts')


class Notification(db.Model):
    id: so.Mapped[int] = so.mapped_column(primary_key=True)
    name: so.Mapped[str] = so.mapped_column(sa.String(128))


class Task(db.Model):
    id: so.Mapped[str] = so.mapped_column(sa.String(36), primary_key=True)
# --- path: app/routes.py ---
import sqlalchemy as sa
from app.models import User


def user(username):
    user = User()
    return user.posts.select()


def my_tasks(current_user: User):
    return current_user.tasks.select()
'''


def test_sqlalchemy_one_to_many_relationship_statements_read_and_write_the_related_table():
    """``user.posts.select()`` (a ``WriteOnlyMapped['Post']``) reads ``post``, ``current_user.tasks.select()``
    (``Mapped[list["Task"]]``) reads ``task``, ``self.notifications.delete()`` writes ``notification`` (no
    longer a Django model write), ``self.following.add(u)`` still writes the join table; a column's
    ``select()`` and a non-relationship's ``delete(key)`` link nothing."""
    result = resolve_repository("t", extract_fixture(SQLA_RELATIONSHIPS))
    edges = sorted((e.kind, e.src.removeprefix("t:"), e.dst, e.line, e.props["framework"]) for f in result.files
                   for e in f.edges if e.kind in ("READS", "WRITES"))
    assert edges == [
        ("READS", "app/models.User.posts_count(0)", "table:t:.post", 21, "sqlalchemy-m2m"),
        ("READS", "app/models.User.unknown(0)", "table:t:.user", 30, "orm_attribute"),  # the column nickname
        ("READS", "app/routes.my_tasks(1)", "table:t:.task", 11, "sqlalchemy-m2m"),
        ("READS", "app/routes.user(1)", "table:t:.post", 7, "sqlalchemy-m2m"),
        ("WRITES", "app/models.User.add_notification(1)", "table:t:.notification", 24, "sqlalchemy-m2m"),
        ("WRITES", "app/models.User.follow(1)", "table:t:.followers", 27, "sqlalchemy-m2m"),
    ]


# -- Go: chi middleware (go-chi's own _examples/rest: `r.Use(ArticleCtx)` in a Route, `r.With(paginate)`) ----------

CHI_REST = '''package main

import "github.com/go-chi/chi/v5"

func main() {
    r := chi.NewRouter()
    r.Use(middleware.Logger)
    r.Get("/ping", ping)
    r.Route("/articles", func(r chi.Router) {
        r.With(paginate).Get("/", ListArticles)
        r.Route("/{articleID}", func(r chi.Router) {
            r.Use(ArticleCtx)
            r.Get("/", GetArticle)
        })
        r.Get("/search", SearchArticles)
    })
    r.Group(func(r chi.Router) {
        r.Use(AdminOnly)
        r.Get("/admin", Admin)
    })
    r.Get("/after", After)
}
'''


def test_chi_use_and_with_middleware_wrap_the_routes_of_their_router_and_its_route_functions():
    """chi's ``Use`` wraps the routes of its router and of the ``Route`` / ``Group`` functions' routers made
    from it; ``With`` only the route registered on it; a sub-router's ``Use`` stays in it (``/articles/search``,
    ``/after`` do not run ``ArticleCtx`` / ``AdminOnly``)."""
    assert _routes(_extract("main.go", CHI_REST)) == [
        ("chi", ["GET"], "/ping", "ping", ["middleware.Logger"]),
        ("chi", ["GET"], "/articles/", "ListArticles", ["middleware.Logger", "paginate"]),
        ("chi", ["GET"], "/articles/{articleID}/", "GetArticle", ["middleware.Logger", "ArticleCtx"]),
        ("chi", ["GET"], "/articles/search", "SearchArticles", ["middleware.Logger"]),
        ("chi", ["GET"], "/admin", "Admin", ["middleware.Logger", "AdminOnly"]),
        ("chi", ["GET"], "/after", "After", ["middleware.Logger"]),
    ]


def _table_edges(db) -> list[tuple[str, str, str]]:
    import sqlite3

    con = sqlite3.connect(db)
    try:
        return sorted(con.execute("SELECT kind, src, dst FROM edges WHERE kind IN ('READS', 'WRITES') "
                                  "AND props LIKE '%sqlalchemy-m2m%'").fetchall())
    finally:
        con.close()


def test_relationship_retyped_in_the_models_file_relinks_the_routes_table_reads(tmp_path) -> None:
    """The link reads models.py's field type while linking routes.py: an edit of models.py alone re-links
    routes.py's ``user.posts.select()`` (Workspace compares the watcher's and a one-shot index with a full
    index after each edit)."""
    from tests.unit.test_incremental import Workspace

    files = split_fixture(SQLA_RELATIONSHIPS)
    ws = Workspace(tmp_path, files)
    try:
        assert ("READS", "r:app/routes.user(1)", "table:r:.post") in _table_edges(ws.db)
        ws.edit({"app/models.py": files["app/models.py"].replace("so.WriteOnlyMapped['Post']",
                                                                 "so.WriteOnlyMapped['Task']")})
        reads = [e for e in _table_edges(ws.db) if e[1] == "r:app/routes.user(1)"]
        assert reads == [("READS", "r:app/routes.user(1)", "table:r:.task")]
    finally:
        ws.close()


def test_go_interface_embedding_edited_in_another_file_relinks_the_calls(tmp_path) -> None:
    """Dropping ``Querier`` from ``Store`` (db/store.go) unbinds api/server.go's ``server.store.GetAccount``,
    restoring it binds it again, each time as a full index does."""
    import sqlite3

    from tests.unit.test_incremental import Workspace

    def calls(db):
        con = sqlite3.connect(db)
        try:
            return sorted(d for (d,) in con.execute("SELECT dst FROM edges WHERE kind = 'CALLS' AND src LIKE "
                                                     "'r:api/server.Server.getAccount%'"))
        finally:
            con.close()

    files = split_fixture(GO_EMBEDDED)
    ws = Workspace(tmp_path, files)
    try:
        assert calls(ws.db) == ["r:db/querier.Querier.GetAccount(1)", "r:db/store.Queries.GetAccount(1)",
                                "r:db/store.SQLStore.TransferTx(1)", "r:db/store.Store.TransferTx(1)"]
        ws.edit({"db/store.go": files["db/store.go"].replace("    Querier\n", "")})
        assert calls(ws.db) == ["r:db/store.SQLStore.TransferTx(1)", "r:db/store.Store.TransferTx(1)"]
        ws.edit({"db/store.go": files["db/store.go"]})
        assert len(calls(ws.db)) == 4
    finally:
        ws.close()
