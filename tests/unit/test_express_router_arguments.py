"""Express routers handed to functions in other files (``require("./routes/users")(app)``,
``registerRoutes(apiRouter)``, ``module.exports = (app) => {...}``) and routers functions return
(``app.use("/x", makeRouter())``): the routes a function registers on its router parameter get the
prefixes of every router a call hands it; middleware of the router handed wraps them
(indexer/languages/ecmascript/frameworks/express.py emits the Router and Mount facts,
indexer/frameworks/mounts.py resolves them); what must not change or be linked."""

from __future__ import annotations

from pathlib import Path

from tests.resolution_harness import edges, extract_fixture, resolve_fixture, split_fixture
from tests.unit.test_incremental import Workspace, dump

APP = """
// --- path: server.js ---
const express = require("express");
const passport = require("passport");
const { requireAuth } = require("./middleware/auth");
const users = require("./routes/users");
const app = express();
const apiRouter = express.Router();
const adminRouter = express.Router();
app.use("/api", apiRouter);
app.use("/admin", adminRouter);
apiRouter.use(requireAuth);
require("./routes/posts")(app, passport);
users(apiRouter);
users(adminRouter);
function mountAuth(r) {
  r.post("/login", login);
}
function login(req, res) {}
mountAuth(apiRouter);
const label = "x";
describe(label);
function describe(s) { s.get("/nothing", login); }
app.use("/v2", makeRouter());
function makeRouter() {
  const r = express.Router();
  r.get("/status", login);
  return r;
}
require("./routes/inner")(app);
// --- path: routes/inner.js ---
const express = require("express");
module.exports = (app) => {
  const router = express.Router();
  router.get("/user", (req, res) => res.end());
  app.use("/inner", router);
};
// --- path: middleware/auth.js ---
function requireAuth(req, res, next) { next(); }
module.exports = { requireAuth };
// --- path: routes/users.js ---
module.exports = (router) => {
  router.get("/users", list);
  router.delete("/users/:id", (req, res) => res.end());
};
function list(req, res) {}
// --- path: routes/posts.js ---
module.exports = function (app, passport) {
  app.get("/posts", show);
};
function show(req, res) {}
// --- path: routes/orphan.js ---
module.exports = function (router) {
  router.get("/orphan", show);
};
function show(req, res) {}
// --- path: src/main.ts ---
import express from "express";
import routes from "./api";
import { registerRoutes } from "./register";
const app = express();
app.use("/ts", routes());
const v1 = express.Router();
registerRoutes(v1);
app.use("/v1", v1);
// --- path: src/api.ts ---
import { Router } from "express";
import user from "./user";
export default () => {
  const app = Router();
  user(app);
  return app;
};
// --- path: src/user.ts ---
import { Router, Request, Response } from "express";
const route = Router();
export default (app: Router) => {
  app.use("/users", route);
  route.get("/me", (req: Request, res: Response) => res.json({}));
};
// --- path: src/register.ts ---
import { Router } from "express";
export function registerRoutes(r: Router) {
  r.get("/items", items);
}
function items(req, res) {}
"""


def test_routes_on_a_router_parameter_take_the_prefixes_of_the_routers_handed_to_the_function() -> None:
    resolved = resolve_fixture(APP)
    assert edges(resolved, "EXPOSES") == [
        # a router made in the function, mounted on the router handed it
        "routes/inner.default.GET /user(2) -> endpoint:GET /inner/user",
        "routes/orphan.show(2) -> endpoint:GET /orphan",  # handed nothing: its own path, as before
        "routes/posts.show(2) -> endpoint:GET /posts",  # `require("./routes/posts")(app, passport)`
        # one function handed two routers: both prefixes
        "routes/users.default.DELETE /users/:id(2) -> endpoint:DELETE /admin/users/{}",
        "routes/users.default.DELETE /users/:id(2) -> endpoint:DELETE /api/users/{}",
        "routes/users.list(2) -> endpoint:GET /admin/users",
        "routes/users.list(2) -> endpoint:GET /api/users",
        "server.login(2) -> endpoint:GET /v2/status",  # `app.use("/v2", makeRouter())`: the router returned
        "server.login(2) -> endpoint:POST /api/login",  # `mountAuth(apiRouter)`: an untyped parameter of this file
        "src/register.items(2) -> endpoint:GET /v1/items",  # a typed parameter, imported by name
        # `app.use("/ts", routes())`, a returned router handed to `user`, which mounts `route` under /users
        "src/user.default.GET /me(2) -> endpoint:GET /ts/users/me",
    ]  # `describe(label)` hands a string: `s.get("/nothing", login)` is no route
    # `apiRouter.use(requireAuth)` runs for the routes of the functions handed `apiRouter`, not for
    # /admin/users (handed `adminRouter`) or /posts; the factory `routes()` mounted is no middleware
    assert edges(resolved, "WRAPS") == [
        "middleware/auth.requireAuth(3) -> endpoint:DELETE /api/users/{}",
        "middleware/auth.requireAuth(3) -> endpoint:GET /api/users",
        "middleware/auth.requireAuth(3) -> endpoint:POST /api/login",
    ]


def test_the_facts_a_router_parameter_gives() -> None:
    facts = {ex.path: ex for ex, _, _ in extract_fixture(APP)}
    server = facts["server.js"]
    assert [(m.parent, m.child, m.argument, m.prefix.literal()) for m in server.mounts] == [
        ("app", "apiRouter", None, "/api"),
        ("app", "adminRouter", None, "/admin"),
        ("app", "makeRouter", -1, "/v2"),  # a function of this file returning a router
        ("app", 'require("./routes/posts")', 0, ""),  # `passport` (a package's value) is no router
        ("apiRouter", "users", 0, ""),
        ("adminRouter", "users", 0, ""),
        ("apiRouter", "mountAuth", 0, ""),
        ("app", 'require("./routes/inner")', 0, ""),
    ]  # `app.use(...)` hands `apiRouter` to a method of the app itself: no mount of that
    assert [r.name for r in server.routers] == ["app", "apiRouter", "adminRouter", "makeRouter#return", "mountAuth#0"]
    assert [(r.router, r.path.literal()) for r in server.routes] == [("mountAuth#0", "/login"),
                                                                     ("makeRouter#return", "/status")]
    users = facts["routes/users.js"]
    assert [(r.router, r.path.literal()) for r in users.routes] == [("default#0", "/users"), ("default#0", "/users/:id")]
    inner = facts["routes/inner.js"]
    assert [(m.parent, m.child, m.prefix.literal()) for m in inner.mounts] == [("default#0", "default#router", "/inner")]
    assert [r.router for r in inner.routes] == ["default#router"]
    api, user = facts["src/api.ts"], facts["src/user.ts"]
    assert [(m.parent, m.child, m.argument) for m in api.mounts] == [("default#return", "user", 0)]
    assert [(m.parent, m.child, m.argument, m.prefix.literal()) for m in user.mounts] == [
        ("default#0", "route", None, "/users")]
    main = facts["src/main.ts"]
    assert [(m.parent, m.child, m.argument, m.prefix.literal()) for m in main.mounts] == [
        ("app", "routes", -1, "/ts"), ("app", "v1", None, "/v1"), ("v1", "registerRoutes", 0, "")]
    # a router made in a function and not returned is `<function>#<name>`; a callback's parameter is no key
    local = extract_fixture("""
// --- path: boot.js ---
const express = require("express");
const setup = require("./setup");
function start() {
  const app = express();
  app.get("/health", (req, res) => res.end());
  setup(app);
  [1].forEach((router) => router.get("/x", h));
}
""")[0][0]
    assert [(r.router, r.path.literal()) for r in local.routes] == [("start#app", "/health"), ("router", "/x")]
    assert [(m.parent, m.child, m.argument) for m in local.mounts] == [("start#app", "setup", 0)]
    assert [r.name for r in local.routers] == ["start#app"]


MIDDLEWARE = """
// --- path: server.js ---
const express = require("express");
const app = express();
require("./config/express")(app);
require("./config/routes")(app);
app.get("/health", health);
function health(req, res) {}
// --- path: config/express.js ---
module.exports = function (app) {
  app.use(function (req, res, next) { next(); });
};
// --- path: config/routes.js ---
module.exports = (app) => {
  app.get("/login", login);
};
function login(req, res) {}
// --- path: other.js ---
const express = require("express");
const other = express();
other.get("/elsewhere", (req, res) => res.end());
"""


def test_middleware_a_function_adds_to_the_app_handed_it_wraps_every_route_of_that_app() -> None:
    # `app` in config/express.js is the application itself: its middleware runs for the routes
    # config/routes.js and server.js register on it, not for another application's
    assert edges(resolve_fixture(MIDDLEWARE), "WRAPS") == [
        "config/express.default.middleware app.use(3) -> endpoint:GET /health",
        "config/express.default.middleware app.use(3) -> endpoint:GET /login",
    ]


def test_an_edit_of_the_caller_or_the_callee_moves_the_routes(tmp_path: Path) -> None:
    files = split_fixture(APP)
    ws = Workspace(tmp_path, files)
    try:
        server = "server.js"
        ws.edit({server: files[server].replace('app.use("/admin", adminRouter)', 'app.use("/staff", adminRouter)')})
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}
        assert {"endpoint:GET /staff/users", "endpoint:GET /api/users"} <= endpoints
        assert "endpoint:GET /admin/users" not in endpoints
        ws.edit({server: files[server].replace("users(apiRouter);\n", "")})  # checked against a full index
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}
        assert "endpoint:GET /api/users" not in endpoints and "endpoint:GET /admin/users" in endpoints
        users = "routes/users.js"  # the callee takes the router second now: the caller's mount no longer fits
        ws.edit({users: files[users].replace("(router) =>", "(x, router) =>")})
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}
        assert "endpoint:GET /users" in endpoints and "endpoint:GET /admin/users" not in endpoints
        user = "src/user.ts"  # the returned router's child moved
        ws.edit({user: files[user].replace('app.use("/users", route)', 'app.use("/people", route)')})
        endpoints = {dst for kind, _src, dst, *_ in dump(ws.db)["edges"] if kind == "EXPOSES"}
        assert "endpoint:GET /ts/people/me" in endpoints and "endpoint:GET /ts/users/me" not in endpoints
    finally:
        ws.close()


FASTIFY = """
// --- path: server.js ---
const fastify = require("fastify")();
fastify.register(require("./routes/users"), { prefix: "/v1" });
const items = require("./routes/items");
fastify.register(items, { prefix: "/v2" });
fastify.get("/health", async () => "ok");
// --- path: routes/users.js ---
module.exports = async function (fastify, opts) {
  fastify.get("/users", async (req, reply) => []);
};
// --- path: routes/items.js ---
module.exports = async (fastify) => {
  fastify.get("/items", async (req, reply) => []);
};
"""


def test_an_anonymous_module_exports_fastify_plugin_gets_the_prefix_it_is_registered_with() -> None:
    # the anonymous function is the module's `default`: the plugin router the registration names
    assert edges(resolve_fixture(FASTIFY), "EXPOSES") == [
        "routes/items.default.GET /items(2) -> endpoint:GET /v2/items",
        "routes/users.default.GET /users(2) -> endpoint:GET /v1/users",
        "server.GET /health(0) -> endpoint:GET /health",
    ]


KOA = """
// --- path: server.js ---
const Koa = require("koa");
const Router = require("@koa/router");
const app = new Koa();
const router = new Router({ prefix: "/api" });
require("./routes/users")(router);
router.use("/admin", require("./routes/admin").routes());
app.use(router.routes()).use(router.allowedMethods());
// --- path: routes/users.js ---
module.exports = (router) => {
  router.get("/users", list);
};
function list(ctx) {}
// --- path: routes/admin.js ---
const Router = require("koa-router");
const admin = new Router();
admin.get("/stats", (ctx) => {});
module.exports = admin;
// --- path: src/index.ts ---
import Router from "koa-router";
import users from "./users";
const router = new Router({ prefix: "/v2" });
router.use(users.routes());
export default router;
// --- path: src/users.ts ---
import Router from "koa-router";
const users = new Router({ prefix: "/users" });
users.get("/", async (ctx) => {});
const notARouter = new Map();
export default users;
"""


def test_koa_routers_their_prefix_option_and_functions_handed_them() -> None:
    facts = {ex.path: ex for ex, _, _ in extract_fixture(KOA)}
    assert [(r.name, r.prefix.literal()) for r in facts["server.js"].routers] == [("router", "/api")]
    assert [(r.name, r.prefix.literal()) for r in facts["src/users.ts"].routers] == [("users", "/users")]
    assert edges(resolve_fixture(KOA), "EXPOSES") == [
        "routes/admin.GET /stats(1) -> endpoint:GET /api/admin/stats",  # `require("./x").routes()` mounted
        "routes/users.list(1) -> endpoint:GET /api/users",  # a function handed the prefixed router
        "src/users.GET /(1) -> endpoint:GET /v2/users",  # prefixes of two `new Router({ prefix })`
    ]
