"""Express / Koa middleware runs only for what is registered after it on the same stack; error
handlers (four parameters) only for what is registered before them (indexer/frameworks/wrap_order.py,
called from indexer/frameworks/link.py's ``wrapper``): exact WRAPS, and what must not be linked."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

APP = """
// --- path: server.js ---
const express = require("express");
const { errorHandler } = require("./middlewares/error");
const { requireAuth } = require("./middlewares/auth");
const app = express();
const apiRouter = express.Router();
app.get("/health", health);
app.use(logger);
app.get("/a", a);
app.use("/api", apiRouter);
apiRouter.get("/x", a);
apiRouter.use(requireAuth);
apiRouter.get("/y", a);
require("./config/late")(app);
app.use(errorHandler);
app.use((req, res, next) => res.status(404).end());
app.get("/after", a);
function logger(req, res, next) { next(); }
function health(req, res) {}
function a(req, res) {}
// --- path: middlewares/error.js ---
const errorHandler = (err, req, res, next) => { res.status(500).end(); };
module.exports = { errorHandler };
// --- path: middlewares/auth.js ---
function requireAuth(req, res, next) { next(); }
module.exports = { requireAuth };
// --- path: config/late.js ---
module.exports = (app) => {
  app.get("/late", show);
  app.use(tail);
};
function show(req, res) {}
function tail(req, res, next) { next(); }
"""


def test_middleware_wraps_what_is_registered_after_it_and_error_handlers_what_is_registered_before() -> None:
    assert edges(resolve_fixture(APP), "WRAPS") == [
        # `tail`, added by the function after its route and before the app's later routes
        "config/late.tail(3) -> endpoint:GET /after",
        # the router's own middleware: the router's routes after it
        "middlewares/auth.requireAuth(3) -> endpoint:GET /api/y",
        # the imported four-parameter error handler: every route registered before it
        "middlewares/error.errorHandler(4) -> endpoint:GET /a",
        "middlewares/error.errorHandler(4) -> endpoint:GET /api/x",
        "middlewares/error.errorHandler(4) -> endpoint:GET /api/y",
        "middlewares/error.errorHandler(4) -> endpoint:GET /health",
        "middlewares/error.errorHandler(4) -> endpoint:GET /late",
        # `logger`: every route after it, the router mounted after it whole (its routes are
        # registered later in the file, but the router sits after `logger` on the app's stack)
        "server.logger(3) -> endpoint:GET /a",
        "server.logger(3) -> endpoint:GET /after",
        "server.logger(3) -> endpoint:GET /api/x",
        "server.logger(3) -> endpoint:GET /api/y",
        "server.logger(3) -> endpoint:GET /late",
        # the 404 middleware: only the route registered after it
        "server.middleware app.use(3) -> endpoint:GET /after",
    ]  # not: logger -> /health, requireAuth -> /api/x, errorHandler -> /after, tail -> /late or /health


KOA = """
// --- path: app.js ---
const Koa = require("koa");
const Router = require("@koa/router");
const app = new Koa();
const router = new Router();
app.use(timing);
router.get("/open", open);
router.use(checkToken);
router.get("/closed", closed);
app.use(router.routes());
app.use(late);
async function timing(ctx, next) { await next(); }
async function checkToken(ctx, next) { await next(); }
async function late(ctx, next) { await next(); }
async function open(ctx) {}
async function closed(ctx) {}
"""


def test_koa_middleware_keeps_its_registration_order_too() -> None:
    assert edges(resolve_fixture(KOA), "WRAPS") == [
        "app.checkToken(2) -> endpoint:GET /closed",
        "app.timing(2) -> endpoint:GET /closed",
        "app.timing(2) -> endpoint:GET /open",
    ]  # not: checkToken -> /open (registered before it), late -> anything (after the router)


SCOPES = """
// --- path: start.js ---
const express = require("express");
function start() {
  const app = express();
  app.get("/early", h);
  app.use(mw);
  app.get("/late", h);
}
function h(req, res) {}
function mw(req, res, next) { next(); }
// --- path: server.ts ---
import express from "express";
class App {
  constructor() {
    this.app = express();
    this.initializeMiddlewares();
    this.initializeRoutes();
  }
  initializeRoutes() {
    this.app.get("/users", list);
  }
  initializeMiddlewares() {
    this.app.use(audit);
  }
}
function list(req, res) {}
function audit(req, res, next) { next(); }
"""


def test_order_is_read_within_one_function_body_only() -> None:
    assert edges(resolve_fixture(SCOPES), "WRAPS") == [
        "server.audit(3) -> endpoint:GET /users",  # another method: called in an order the file does not say
        "start.mw(3) -> endpoint:GET /late",
    ]  # not: mw -> /early (registered before it in the same body)


def test_an_imported_error_handler_wraps_as_an_error_handler() -> None:
    # proshop-v2's `app.use(errorHandler)` of `./middleware/errorMiddleware.js`'s four-parameter arrow: it runs
    # for the errors of the routes before it, so the endpoint list shows it "on error", not "through" (as a
    # same-file one already was); the other registrations stay middleware
    result = resolve_fixture(APP)
    kinds = sorted({(e.src.split(":", 1)[1].split("(")[0], str(e.props.get("kind"))) for f in result.files for e in f.edges
                    if e.kind == "WRAPS"})
    assert kinds == [
        ("config/late.tail", "middleware"),
        ("middlewares/auth.requireAuth", "middleware"),
        ("middlewares/error.errorHandler", "error_handler"),
        ("server.logger", "middleware"),
        ("server.middleware app.use", "middleware"),
    ]
