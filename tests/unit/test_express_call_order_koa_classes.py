"""Express / Koa registration order within one call (``app.use(a, router, b)``: each argument runs
before the ones after it), error handlers returned by factories (``app.use(errorHandler())``), and Koa
applications written as classes (``this.app = new Koa()``, ``class Server extends Koa``): exact WRAPS and
EXPOSES, and what must not be linked."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import edges, resolve_fixture

EXPRESS = """
// --- path: app.js ---
const express = require("express");
const usersRouter = require("./routes/users");
const { jsonErrors } = require("./middleware/errors");
const app = express();
function logger(req, res, next) { next(); }
function notFound(req, res, next) { res.status(404).end(); }
function errorHandler() {
  return (err, req, res, next) => { report(err); res.status(500).end(); };
}
const plainFactory = () => (req, res, next) => next();
function report(e) {}
app.use(logger, usersRouter, notFound);
app.get("/late", function late(req, res) { res.end(); });
app.use(errorHandler());
app.use(plainFactory());
app.use(jsonErrors());
app.get("/last", function last(req, res) { res.end(); });
// --- path: routes/users.js ---
const express = require("express");
const router = express.Router();
router.get("/users", function list(req, res) { res.json([]); });
module.exports = router;
// --- path: middleware/errors.js ---
const jsonErrors = () => function (error, req, res, next) { res.json({}); };
module.exports = { jsonErrors };
"""


def test_arguments_of_one_use_call_run_in_order_and_factories_of_error_handlers_run_on_errors() -> None:
    assert edges(resolve_fixture(EXPRESS), "WRAPS") == [
        "app.errorHandler(0) -> endpoint:GET /late",  # the factory and the handler it returns:
        "app.errorHandler(0) -> endpoint:GET /users",  # the errors of what is registered before it
        "app.errorHandler.error_handler(4) -> endpoint:GET /late",
        "app.errorHandler.error_handler(4) -> endpoint:GET /users",
        "app.logger(3) -> endpoint:GET /last",  # before the router in its call: the router's routes too
        "app.logger(3) -> endpoint:GET /late",
        "app.logger(3) -> endpoint:GET /users",
        "app.notFound(3) -> endpoint:GET /last",  # after the router in its call: not the router's routes
        "app.notFound(3) -> endpoint:GET /late",
        "app.plainFactory(0) -> endpoint:GET /last",  # no error handler: what is registered after it
        "middleware/errors.jsonErrors(0) -> endpoint:GET /late",  # imported: the same rule
        "middleware/errors.jsonErrors(0) -> endpoint:GET /users",
        "middleware/errors.jsonErrors.error_handler(4) -> endpoint:GET /late",
        "middleware/errors.jsonErrors.error_handler(4) -> endpoint:GET /users",
    ]  # not: notFound -> /users, errorHandler -> /last, plainFactory -> /late


def test_the_returned_error_handler_is_a_function_of_the_factory() -> None:
    ex = extractor_for_path("e.js").extract("e.js", b"""\
function errorHandler() {
  return (err, req, res, next) => { log(err); };
}
const viaArrow = () => (error, req, res, next) => {};
const notOne = () => (a, req, res, next) => {};
const three = () => (err, req, res) => {};
""")
    assert [(d.qualname, d.returned_refs) for d in ex.definitions] == [
        ("errorHandler", ["error_handler"]), ("viaArrow", ["error_handler"]), ("notOne", []), ("three", []),
        ("errorHandler.error_handler", []), ("viaArrow.error_handler", []),
    ]
    assert [(c.name, c.caller) for c in ex.calls] == [("log", "errorHandler.error_handler")]


KOA = """
// --- path: server.js ---
const Koa = require("koa");
const Router = require("koa-router");
const { authenticate } = require("./middleware/auth");
function list(ctx) { ctx.body = []; }
function notFound(ctx) { ctx.status = 404; }
class App {
  constructor() {
    this.app = new Koa();
    this.router = new Router({ prefix: "/api" });
    this.router.get("/items", list);
    this.app.use(authenticate);
    this.app.use(this.router.routes());
    this.app.use(notFound);
  }
}
module.exports = App;
// --- path: server2.js ---
const Koa = require("koa");
const Router = require("koa-router");
const { authenticate } = require("./middleware/auth");
function show(ctx) { ctx.body = {}; }
class Server extends Koa {
  constructor() {
    super();
    const router = new Router();
    router.get("/things/:id", show);
    this.use(authenticate);
    this.use(router.routes());
  }
}
class NotKoa {
  constructor() { this.use(authenticate); }
  use(f) {}
}
module.exports = Server;
// --- path: middleware/auth.js ---
async function authenticate(ctx, next) { await next(); }
module.exports = { authenticate };
"""


def test_koa_applications_written_as_classes() -> None:
    result = resolve_fixture(KOA)
    assert edges(result, "EXPOSES") == [
        "server.list(1) -> endpoint:GET /api/items",  # `this.router`'s own prefix
        "server2.show(1) -> endpoint:GET /things/{}",
    ]
    assert edges(result, "WRAPS") == [
        "middleware/auth.authenticate(2) -> endpoint:GET /api/items",  # this.app.use, before the routes
        "middleware/auth.authenticate(2) -> endpoint:GET /things/{}",  # this.use in a class extending Koa
    ]  # not: notFound (after the routes), NotKoa's `this.use` (no Koa application)
