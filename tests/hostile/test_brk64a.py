"""Session 64, brk64a: a newcomer on HackSoftware/Django-Styleguide-Example (DRF + Celery),
evrone/go-clean-template (Go: Fiber, gRPC, AMQP / NATS RPC), the JHipster gateway and microservice samples,
and apollographql/supergraph-demo-fed2 (Apollo Federation 2). Each class is one defect found, with exact
expectations and what must not change. Every input is written here.

- :class:`TestFederationSchemaHeader`: every Federation 2 subgraph schema starts with
  ``extend schema @link(url: "...", import: [...])`` (valid GraphQL: a schema extension of directives
  only), which the tree-sitter grammar cannot parse; its error recovery swallowed what followed:
  supergraph-demo-fed2's ``products.graphql`` lost ``type Query`` (``allProducts``, ``product``) and its
  interfaces, and ``Product`` was placed at line 1.
- :class:`TestFunctionLocalImports`: the styleguide's Celery task ``emails/tasks.email_send`` runs
  ``from styleguide_example.emails.services import email_send`` in its body (against an import cycle)
  and calls ``email_send(email)``: the call was bound to the task itself (the file's top-level
  definition won over the function's own import), so ``ripple callers services.email_send`` listed
  nothing and its blast radius stopped there.
- :class:`TestFiberRoutes`: go-clean-template serves its REST API with Fiber
  (``app.Group("/v1")`` handed to ``v1.NewRoutes(apiV1Group fiber.Router, ...)``, then
  ``protected := apiV1Group.Group("", middleware.Auth(jwtManager))``, ``taskGroup.Post("/", r.createTask)``);
  Fiber was no router: ``ripple endpoints`` listed its 11 gRPC methods and none of its 12 REST routes.
- :class:`TestGoConstantChains`: its integration tests request ``basePathV1 + "/tasks/"`` with
  ``basePathV1 = httpURL + "/v1"``, ``httpURL = "http://" + host + ":8080"`` (a constant of constants) in
  ``helpers_test.go`` and the requests in ``task_test.go``: a Go constant was read only when its value was a
  literal, and a constant of another file of the package never, so every URL was ``{}/tasks/`` and linked
  to ``POST /tasks``, served by nothing, instead of ``POST /v1/tasks``. A URL put in a local first
  (``url := basePathV1 + "/translation/do-translate"``, then ``doAuthenticatedRequest(ctx, http.MethodPost,
  url, ...)``) reached the application's wrapper as nothing: ``POST /v1/translation/do-translate`` had no client.
- :class:`TestCeleryTaskHandlers`: the styleguide's task is ``@shared_task(bind=True, on_failure=_email_send_failure)``;
  the worker runs the handler for the task, but it was only a value (a ``REFERENCES`` edge), so the blast radius of
  ``services.email_failed``, which the handler calls, stopped at the handler.
"""

from __future__ import annotations

from indexer.languages.graphql.extractor import EXTRACTOR, blank_schema_directives
import sqlite3
from pathlib import Path

from indexer.languages.go.extractor import EXTRACTOR as GO
from tests.index_harness import index_fixture
from tests.resolution_harness import edges, resolve_fixture, write_tree

FEDERATED = b'''extend schema
    @link(url: "https://specs.apollo.dev/federation/v2.1",
       import: ["@key", "@shareable", { name: "@anotherDirective", as: "@hello" }])
    @composeDirective(name: "@hello")  # a comment (with a parenthesis

directive @hello on FIELD_DEFINITION

type Query {
  allProducts: [ProductItf]
  product(id: ID!): ProductItf
}

interface ProductItf {
  id: ID!
}

type Product implements ProductItf @key(fields: "id") {
  id: ID!
  name: String @hello
}
'''


class TestFederationSchemaHeader:
    def test_types_after_the_header_are_extracted_at_their_lines(self) -> None:
        out = EXTRACTOR.extract("products.graphql", FEDERATED)
        assert out.errors == []
        assert [(d.kind, d.qualname, d.start_line) for d in out.definitions] == [
            ("class", "Query", 8), ("field", "Query.allProducts", 9), ("field", "Query.product", 10),
            ("interface", "ProductItf", 13), ("field", "ProductItf.id", 14),
            ("class", "Product", 17), ("field", "Product.id", 18), ("field", "Product.name", 19),
        ]
        assert [(r.methods, r.handler, r.line) for r in out.routes] == [
            (["QUERY"], "Query.allProducts", 9), (["QUERY"], "Query.product", 10),
        ]

    def test_blanking_keeps_every_byte_position(self) -> None:
        blanked = blank_schema_directives(FEDERATED)
        assert len(blanked) == len(FEDERATED)
        head, rest = blanked.split(b"directive @hello", 1)
        assert head.strip() == b"# a comment (with a parenthesis" and head.count(b"\n") == 5
        assert rest == FEDERATED.split(b"directive @hello", 1)[1]

    def test_forms_the_grammar_parses_or_that_are_no_header_are_left_alone(self) -> None:
        for src in (
            b'extend schema @link(url: "x") { query: Q }\ntype Q { a: Int }\n',  # operation types follow
            b'"""extend schema @link(url: "x")"""\ntype Query { a: Int }\n',  # inside a description
            b'# extend schema @link(url: "x")\ntype Query { a: Int }\n',  # inside a comment
            b'type Query { extended: Int }\nschema { query: Query }\n',
            b'extend schema @link(url: "never closed"\ntype Query { a: Int }\n',  # left to the parser
        ):
            assert blank_schema_directives(src) == src

    def test_an_unclosed_header_is_still_reported(self) -> None:
        out = EXTRACTOR.extract("bad.graphql", b'extend schema @link(url: "x"\ntype Query { a: Int }\n')
        assert out.errors != []

    def test_huge_headers_stay_linear(self) -> None:
        src = b"extend schema " + b'@a(x: "(") ' * 100_000 + b"\ntype Query { a: Int }\n"
        out = EXTRACTOR.extract("big.graphql", src)
        assert [d.qualname for d in out.definitions] == ["Query", "Query.a"]


LOCAL_IMPORTS = """
# --- path: app/services.py ---
def email_send(email):
    return email

def helper():
    pass
# --- path: app/tasks.py ---
def email_send(email_id):
    from app.services import email_send
    email_send(email_id)

def other(x):
    from app.services import email_send as es, helper
    es(x)
    helper()

def helper():
    pass

def outer():
    from app.services import email_send
    def inner():
        email_send(1)
    return inner

def nested_only():
    def deeper():
        from app.services import helper
        helper()
    helper()

def later():
    email_send(2)
    helper()

class Job:
    from app.services import helper

    def run(self):
        helper()
"""


class TestFunctionLocalImports:
    def test_a_function_local_import_hides_the_top_level_namesake(self) -> None:
        assert edges(resolve_fixture(LOCAL_IMPORTS)) == [
            "app/tasks.Job.run(0) -> app/tasks.helper(0) [exact]",  # a class body's names are not a method's
            "app/tasks.email_send(1) -> app/services.email_send(1) [exact]",
            "app/tasks.later(0) -> app/tasks.email_send(1) [exact]",  # no import of its own: the top level
            "app/tasks.later(0) -> app/tasks.helper(0) [exact]",
            "app/tasks.nested_only(0) -> app/tasks.helper(0) [exact]",  # deeper's import is deeper's only
            "app/tasks.nested_only.deeper(0) -> app/services.helper(0) [exact]",
            "app/tasks.other(1) -> app/services.email_send(1) [exact]",
            "app/tasks.other(1) -> app/services.helper(0) [exact]",
            "app/tasks.outer.inner(0) -> app/services.email_send(1) [exact]",  # the enclosing function's import
        ]


def _routes(source: str) -> list[tuple[str, list[str], str, str | None, str | None, list[str]]]:
    ex = GO.extract("svc/main.go", source.encode())
    return [(r.framework, r.methods, "".join(f"{{{t}}}" if k != "lit" else t for k, t in r.path.parts),
             r.handler, r.handler_ref, [w.expr for w in r.wrappers]) for r in ex.routes]


FIBER_APP = {
    "go.mod": "module example.com/shop\n\ngo 1.22\n",
    "internal/restapi/router.go": """package restapi

import (
	"github.com/gofiber/fiber/v2"
	"example.com/shop/internal/restapi/middleware"
	v1 "example.com/shop/internal/restapi/v1"
)

func NewRouter(app *fiber.App) {
	app.Use(middleware.Logger())
	app.Get("/healthz", func(ctx *fiber.Ctx) error { return ctx.SendStatus(200) })
	apiV1Group := app.Group("/v1")
	{
		v1.NewRoutes(apiV1Group)
	}
}
""",
    "internal/restapi/middleware/mw.go": """package middleware

import "github.com/gofiber/fiber/v2"

func Logger() fiber.Handler { return func(c *fiber.Ctx) error { return c.Next() } }

func Auth() fiber.Handler { return func(c *fiber.Ctx) error { return c.Next() } }
""",
    "internal/restapi/v1/router.go": """package v1

import (
	"github.com/gofiber/fiber/v2"
	"example.com/shop/internal/restapi/middleware"
)

type V1 struct{}

func NewRoutes(apiV1Group fiber.Router) {
	r := &V1{}
	authGroup := apiV1Group.Group("/auth")
	{
		authGroup.Post("/login", r.login)
	}
	protected := apiV1Group.Group("", middleware.Auth())
	taskGroup := protected.Group("/tasks")
	{
		taskGroup.Post("/", r.createTask)
		taskGroup.Get("/:id", r.getTask)
	}
}

func (r *V1) login(c *fiber.Ctx) error      { return nil }
func (r *V1) createTask(c *fiber.Ctx) error { return nil }
func (r *V1) getTask(c *fiber.Ctx) error    { return nil }
""",
}


class TestFiberRoutes:
    def test_verbs_groups_routes_and_middleware_in_one_file(self) -> None:
        assert _routes("""package main

import "github.com/gofiber/fiber/v2"

func main() {
	app := fiber.New()
	app.Get("/early", early)
	app.Use(logger, "/skipped-path-string")
	api := app.Group("/api/", auth)
	api.Post("users", rateLimit, addUser)
	api.Add("PUT", "/users/:id", putUser)
	api.All("/any/", anything)
	api.Route("/admin", func(r fiber.Router) {
		r.Delete("/users/:id", delUser)
	})
	app.Get("/", root)
	other.Get("/not-a-router", nope)
}
""") == [
            ("fiber", ["GET"], "/early", None, "early", []),
            ("fiber", ["POST"], "/api/users", None, "addUser", ["logger", "auth", "rateLimit"]),
            ("fiber", ["PUT"], "/api/users/:id", None, "putUser", ["logger", "auth"]),
            ("fiber", ["*"], "/api/any", None, "anything", ["logger", "auth"]),
            ("fiber", ["DELETE"], "/api/admin/users/:id", None, "delUser", ["logger", "auth"]),  # Route: a group of api
            ("fiber", ["GET"], "/", None, "root", ["logger"]),
        ]

    def test_a_router_of_another_package_of_the_same_name_is_none(self) -> None:
        assert _routes("""package main

import "example.com/fiber"

func main() {
	app := fiber.New()
	app.Get("/x", h)
}
""") == []

    def test_a_router_handed_to_another_package_serves_under_its_groups(self, tmp_path: Path) -> None:
        root = write_tree(tmp_path / "shop", FIBER_APP)
        index_fixture(root, tmp_path / "x.db", "shop").close()
        con = sqlite3.connect(tmp_path / "x.db")
        try:
            exposes = con.execute("SELECT dst, src FROM edges WHERE kind = 'EXPOSES' ORDER BY dst").fetchall()
            wraps = con.execute("SELECT src, dst FROM edges WHERE kind = 'WRAPS' ORDER BY dst, src").fetchall()
        finally:
            con.close()
        assert exposes == [
            ("endpoint:GET /healthz", "shop:internal/restapi/router.NewRouter.GET /healthz(1)"),
            ("endpoint:GET /v1/tasks/{}", "shop:internal/restapi/v1/router.V1.getTask(1)"),
            ("endpoint:POST /v1/auth/login", "shop:internal/restapi/v1/router.V1.login(1)"),
            ("endpoint:POST /v1/tasks", "shop:internal/restapi/v1/router.V1.createTask(1)"),
        ]
        mw = "shop:internal/restapi/middleware/mw."
        assert wraps == [
            (f"{mw}Logger(0)", "endpoint:GET /healthz"),
            (f"{mw}Auth(0)", "endpoint:GET /v1/tasks/{}"),
            (f"{mw}Logger(0)", "endpoint:GET /v1/tasks/{}"),
            (f"{mw}Logger(0)", "endpoint:POST /v1/auth/login"),  # /auth is not under the protected group
            (f"{mw}Auth(0)", "endpoint:POST /v1/tasks"),
            (f"{mw}Logger(0)", "endpoint:POST /v1/tasks"),
        ]


GO_CONSTANTS = {
    "go.mod": "module example.com/it\n\ngo 1.22\n",
    "it/helpers_test.go": """package integration_test

import (
	"context"
	"io"
	"net/http"
)

const (
	host       = "app"
	httpURL    = "http://" + host + ":8080"
	basePathV1 = httpURL + "/v1"
	attempts   = 20
	late       = (earlier + "/late")
	earlier    = basePathV1
)

func doRequest(ctx context.Context, method, url string, body io.Reader) {
	http.NewRequestWithContext(ctx, method, url, body)
}

func register(ctx context.Context) {
	doRequest(ctx, http.MethodPost, basePathV1+"/auth/register", nil)
}
""",
    "it/task_test.go": """package integration_test

import (
	"context"
	"net/http"
)

func createTask(ctx context.Context, id string) {
	doRequest(ctx, http.MethodPost, basePathV1+"/tasks/", nil)
	http.Get(late + "/x")
	doRequest(ctx, http.MethodGet, elsewhere+"/none", nil)
}
""",
    "other/consts.go": """package other

const elsewhere = "http://other:1/o"
""",
}


class TestGoConstantChains:
    def test_a_constant_of_constants_is_a_template_of_refs(self) -> None:
        ex = GO.extract("it/helpers_test.go", GO_CONSTANTS["it/helpers_test.go"].encode())
        assert [(c.qualname, c.value.parts) for c in ex.constants] == [
            ("host", (("lit", "app"),)),
            ("httpURL", (("lit", "http://"), ("ref", "host"), ("lit", ":8080"))),
            ("basePathV1", (("ref", "httpURL"), ("lit", "/v1"))),
            ("late", (("ref", "earlier"), ("lit", "/late"))),
            ("earlier", (("ref", "basePathV1"),)),
        ]  # attempts = 20 is no string

    def test_requests_in_another_file_of_the_package_get_the_whole_url(self, tmp_path: Path) -> None:
        root = write_tree(tmp_path / "it", GO_CONSTANTS)
        index_fixture(root, tmp_path / "x.db", "it").close()
        con = sqlite3.connect(tmp_path / "x.db")
        try:
            rows = con.execute("SELECT file, line, dst, json_extract(props, '$.url') FROM edges"
                               " WHERE kind = 'CALLS_HTTP' ORDER BY file, line").fetchall()
        finally:
            con.close()
        assert rows == [
            ("it/helpers_test.go", 23, "endpoint:POST /v1/auth/register", "http://app:8080/v1/auth/register"),
            ("it/task_test.go", 9, "endpoint:POST /v1/tasks", "http://app:8080/v1/tasks/"),
            ("it/task_test.go", 10, "endpoint:GET /v1/late/x", "http://app:8080/v1/late/x"),
            # another package's constant is no name of this one: unknown, as before
            ("it/task_test.go", 11, "endpoint:GET /none", "{}/none"),
        ]

    def test_constants_doubling_each_other_stay_bounded(self) -> None:
        lines = ["package main", "", 'import "net/http"', "", "const (", '\tS0 = "http://a/"']
        lines += [f"\tS{i} = S{i - 1} + S{i - 1}" for i in range(1, 3000)]
        lines += [")", "", 'func f() { http.Get(S2999 + "/x") }']
        ex = GO.extract("main.go", "\n".join(lines).encode())
        assert len(ex.constants) == 3000
        # each constant holds its own text (two refs), never the 2**2999 characters it stands for
        assert max(sum(len(t) for _, t in c.value.parts) for c in ex.constants) == len("S2998S2998")
        assert [c.url.parts for c in ex.http_calls] == [(("ref", "S2998"), ("ref", "S2998"), ("lit", "/x"))]


    def test_a_local_given_one_url_reaches_the_wrapper_as_that_url(self) -> None:
        ex = GO.extract("it/translation_test.go", b"""package integration_test

import (
	"context"
	"net/http"
)

func translate(ctx context.Context, tests []string) {
	for range tests {
		func() {
			url := basePathV1 + "/translation/do-translate"
			doRequest(ctx, http.MethodPost, url, nil)
		}()
	}
	again := basePathV1 + "/a"
	again = basePathV1 + "/b"
	doRequest(ctx, http.MethodGet, again, nil)
	doRequest(ctx, http.MethodGet, basePathV1+"/direct", nil)
}
""")
        assert [(u.callee, [a.parts if a is not None else None for a in u.args]) for u in ex.url_arg_calls] == [
            ("doRequest", [(("ref", "ctx"),), (("lit", "POST"),), (("ref", "basePathV1"), ("lit", "/translation/do-translate")), None]),
            ("doRequest", [(("ref", "ctx"),), (("lit", "GET"),), None, None]),  # given two values: unknown, as before
            ("doRequest", [(("ref", "ctx"),), (("lit", "GET"),), (("ref", "basePathV1"), ("lit", "/direct")), None]),
        ]


CELERY_HANDLERS = """
# --- path: app/services.py ---
def email_failed(e):
    pass
# --- path: app/tasks.py ---
from celery import shared_task, Celery
from app.services import email_failed

app = Celery("x")

def _failure(self, exc, task_id, args, kwargs, einfo):
    email_failed(args[0])

def _ok(self, retval, task_id, args, kwargs):
    pass

def unused(x):
    pass

@shared_task(bind=True, on_failure=_failure)
def email_send(self, email_id):
    pass

@app.task(on_success=_ok, name=unused)
def other(x):
    pass
# --- path: app/plain.py ---
from app.tasks import _ok

class Scheduler:
    def task(self, **kw):
        return lambda f: f

s = Scheduler()

@s.task(on_success=_ok)
def not_celery():
    pass
"""


class TestCeleryTaskHandlers:
    def test_a_task_calls_the_handlers_its_decorator_names(self) -> None:
        assert edges(resolve_fixture(CELERY_HANDLERS)) == [
            "app/plain.not_celery(0) -> app/plain.Scheduler.task(1) [inferred]",  # the decorator call, not _ok
            "app/plain.py -> app/plain.Scheduler [exact]",
            "app/tasks._failure(6) -> app/services.email_failed(1) [exact]",
            "app/tasks.email_send(2) -> app/tasks._failure(6) [inferred]",
            "app/tasks.other(1) -> app/tasks._ok(5) [inferred]",
        ]  # name=unused is no handler; a file importing no celery hands nothing to its own `task`
