"""Cross-cutting code in JavaScript / TypeScript (issue 14, item 2): Express / Koa middleware, Nest
guards / interceptors / pipes / filters / middleware, Fastify hooks, as :class:`Wrapper` and
``Route.wrappers`` facts; exact facts per file, negative cases (a mounted router is no wrapper)."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.model import FileExtraction, Mount, Router, Template, Wrapper, WrapperRef


def extract(path: str, source: str) -> FileExtraction:
    ex = extractor_for_path(path)
    assert ex is not None
    result = ex.extract(path, source.encode("utf-8"))
    assert [e for e in result.errors if "detector" in e or "failure" in e] == []
    return result


def lit(text: str) -> Template:
    return Template.of(text)


EXPRESS = """\
import express, { Router } from "express";
import helmet from "helmet";
import ordersRouter from "./routes/orders";
import { requireAuth } from "./middleware/auth";
import tags from "./tag/tag.controller";
import audit from "./audit";

const app = express();
const router = Router();
function log(req, res, next) { next(); }
function onError(err, req, res, next) { report(err); }
app.use(helmet());
app.use(log);
app.use("/api", requireAuth, ordersRouter);
app.use("/api", (req, res, next) => { check(req); next(); });
app.use(tags);
app.use(audit);
router.get("/x", requireAuth, [validate(schema), log], (req, res) => { doX(); });
router.post("/y", (req, res, next) => { pre(); next(); }, handlers.y);
app.use(router);
app.use((err, req, res, next) => { report(err); });
app.use(onError);
[1, 2].map((x) => g(x));
app.use(errorHandler, userRoutes);
"""


def test_express_use_middleware_mounts_and_error_handlers() -> None:
    r = extract("src/app.ts", EXPRESS)
    assert r.wrappers == [
        Wrapper("express", "middleware", None, 12, 0, "helmet", "app"),
        Wrapper("express", "middleware", "log", 13, 0, None, "app"),
        Wrapper("express", "middleware", None, 14, 0, "requireAuth", "app", lit("/api")),  # ./middleware/*
        Wrapper("express", "middleware", "middleware app.use /api", 15, 0, None, "app", lit("/api")),
        Wrapper("express", "middleware", None, 17, 0, "audit", "app"),  # the file cannot tell: both
        Wrapper("express", "error_handler", "error_handler app.use", 21, 0, None, "app"),  # 4 parameters
        Wrapper("express", "error_handler", "onError", 22, 0, None, "app"),
        Wrapper("express", "middleware", None, 24, 0, "errorHandler", "app"),  # unknown name: both
    ]
    assert r.mounts == [  # routers are mounts, never wrappers
        Mount("express", "app", "ordersRouter", lit("/api"), 14, 0, order=1),  # the second argument
        Mount("express", "app", "tags", Template(), 16, 0),  # imported from a *.controller module
        Mount("express", "app", "audit", Template(), 17, 0),
        Mount("express", "app", "router", Template(), 20, 0),  # Router() of this file
        Mount("express", "app", "errorHandler", Template(), 24, 0),
        Mount("express", "app", "userRoutes", Template(), 24, 0, order=1),  # named like a router: a mount only
    ]


def test_express_route_middleware_and_inline_middleware_nodes() -> None:
    r = extract("src/app.ts", EXPRESS)
    assert [(r_.methods, r_.path.literal(), r_.handler, r_.handler_ref, r_.wrappers) for r_ in r.routes] == [
        (["GET"], "/x", "GET /x", None, [
            WrapperRef("middleware", "requireAuth"), WrapperRef("middleware", "validate"),
            WrapperRef("middleware", "log"),
        ]),
        (["POST"], "/y", None, "handlers.y", [WrapperRef("middleware", "middleware POST /y")]),
    ]
    defs = {d.qualname: (d.kind, d.start_line, d.start_col, len(d.params)) for d in r.definitions}
    assert defs == {
        "log": ("function", 10, 0, 3),
        "onError": ("function", 11, 0, 4),
        "middleware app.use /api": ("function", 15, 16, 3),
        "GET /x": ("function", 18, 55, 2),
        "middleware POST /y": ("function", 19, 18, 3),
        "error_handler app.use": ("function", 21, 8, 4),
    }  # the callback of `[1, 2].map(...)` is no node
    callers = sorted((c.caller or "", c.name) for c in r.calls if c.name in ("check", "doX", "pre", "report", "g"))
    assert callers == [
        ("", "g"),
        ("GET /x", "doX"),
        ("error_handler app.use", "report"),
        ("middleware POST /y", "pre"),
        ("middleware app.use /api", "check"),
        ("onError", "report"),
    ]


def test_koa_app_use_and_router_routes_mount() -> None:
    source = """\
const Koa = require("koa");
const Router = require("@koa/router");
const app = new Koa();
const router = new Router();
app.use(async (ctx, next) => { await timing(ctx); await next(); });
app.use(bodyParser());
app.use(router.routes()).use(router.allowedMethods());
"""
    r = extract("server.js", source)
    assert r.wrappers == [
        Wrapper("koa", "middleware", "middleware app.use", 5, 0, None, "app"),
        Wrapper("koa", "middleware", None, 6, 0, "bodyParser", "app"),
    ]
    assert r.mounts == [Mount("express", "app", "router", Template(), 7, 0)]


NEST = """\
import { Controller, Get, Post, UseGuards, UseInterceptors, UsePipes, MiddlewareConsumer, Module } from "@nestjs/common";
import { APP_GUARD, APP_FILTER } from "@nestjs/core";
import { AuthGuard } from "@nestjs/passport";
import { RolesGuard } from "./roles.guard";

class LoggerMiddleware { use(req, res, next) { next(); } }

@Controller("cats")
@UseGuards(RolesGuard)
export class CatsController {
  @Get(":id")
  @UseGuards(AuthGuard("jwt"), new ThrottleGuard())
  @UseInterceptors(CacheInterceptor)
  findOne() {}

  @Post()
  @UsePipes(ValidationPipe)
  create() {}
}

@Module({ providers: [{ provide: APP_GUARD, useClass: RolesGuard }, { provide: APP_FILTER, useExisting: AllFilter }] })
export class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(LoggerMiddleware, cors()).exclude("cats/x").forRoutes("cats", { path: "dogs/*", method: 0 }, CatsController);
    consumer.apply(Audit).forRoutes("*");
  }
}

async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.useGlobalPipes(new ValidationPipe());
  app.useGlobalGuards(new JwtGuard(reflector), new LoggerMiddleware());
}
"""


def test_nest_use_decorators_on_class_and_method_in_the_order_nest_runs_them() -> None:
    r = extract("src/cats.ts", NEST)
    assert [(x.methods, x.path.literal(), x.handler, x.wrappers) for x in r.routes] == [
        (["GET"], "/cats/:id", "CatsController.findOne", [
            WrapperRef("guard", "RolesGuard"),  # the controller's first
            WrapperRef("guard", 'AuthGuard("jwt")'),  # passport's factory with its names (test_nest_passport.py)
            WrapperRef("guard", "ThrottleGuard"),  # new ThrottleGuard(): the class
            WrapperRef("interceptor", "CacheInterceptor"),
        ]),
        (["POST"], "/cats", "CatsController.create", [WrapperRef("guard", "RolesGuard"), WrapperRef("pipe", "ValidationPipe")]),
    ]


def test_nest_global_wrappers_providers_and_middleware_consumer() -> None:
    r = extract("src/cats.ts", NEST)
    assert r.wrappers == [
        Wrapper("nest", "guard", None, 21, 22, "RolesGuard"),  # { provide: APP_GUARD, useClass }
        Wrapper("nest", "error_handler", None, 21, 68, "AllFilter"),  # useExisting
        Wrapper("nest", "middleware", "LoggerMiddleware", 24, 4, None, None, lit("/cats")),  # a class of this file
        Wrapper("nest", "middleware", None, 24, 4, "cors", None, lit("/cats")),
        # "dogs/*", method 0: RequestMethod.GET by the enum's number
        Wrapper("nest", "middleware", "LoggerMiddleware", 24, 4, None, None, lit("/dogs"), ["GET"]),
        Wrapper("nest", "middleware", None, 24, 4, "cors", None, lit("/dogs"), ["GET"]),  # CatsController: no path known
        Wrapper("nest", "middleware", None, 25, 4, "Audit", None, Template()),  # "*": every route
        Wrapper("nest", "pipe", None, 31, 2, "ValidationPipe"),
        Wrapper("nest", "guard", None, 32, 2, "JwtGuard"),
        Wrapper("nest", "guard", "LoggerMiddleware", 32, 2, None),
    ]


def test_nest_for_routes_methods() -> None:
    r = extract("src/app.module.ts", """\
import { RequestMethod } from "@nestjs/common";
export class AppModule {
  configure(consumer) {
    consumer.apply(Auth).forRoutes({ path: "a", method: RequestMethod.POST }, { path: "b", method: RequestMethod.ALL },
                                   { path: "c", method: verb }, { path: "d", method: 42 }, "e");
  }
}
""")
    # ALL, a method the file cannot know, a number outside the enum and a bare path: any method
    assert [(w.path.literal(), w.methods) for w in r.wrappers] == [
        ("/a", ["POST"]), ("/b", []), ("/c", []), ("/d", []), ("/e", []),
    ]


def test_nest_use_guards_outside_a_controller_is_no_route_wrapper() -> None:
    source = """\
@Injectable()
@UseGuards(AuthGuard)
export class CatsService { find() {} }
"""
    r = extract("src/cats.service.ts", source)
    assert (r.routes, r.wrappers) == ([], [])


FASTIFY = """\
import Fastify, { FastifyInstance } from "fastify";
import cors from "@fastify/cors";
import fp from "fastify-plugin";
import userRoutes from "./users";
import { verify, audit } from "./auth";

const app = Fastify();
app.register(cors);
app.register(userRoutes, { prefix: "/v1" });
app.register(require("./orders"), { prefix: "/orders" });
app.addHook("onRequest", async (request, reply) => { trace(request); });
app.addHook("onReady", async () => { warm(); });
app.register(async (instance) => {
  instance.addHook("preHandler", verify);
  instance.get("/me", { preHandler: [audit], onError: report }, async (request) => me());
}, { prefix: "/v2" });

export async function adminRoutes(f: FastifyInstance, opts: object) {
  f.addHook("onError", logError);
  f.route({ method: "GET", url: "/stats", preValidation: check, handler: async () => stats() });
  f.register(nested, { prefix: "/deep" });
}

export default fp(async (server) => {
  server.addHook("onSend", stamp);
});
"""


def test_fastify_hooks_route_hooks_and_plugin_prefixes() -> None:
    r = extract("src/app.ts", FASTIFY)
    assert [(x.path.literal(), x.handler, x.router, x.wrappers) for x in r.routes] == [
        ("/me", "plugin /v2.GET /me", "plugin /v2", [WrapperRef("hook", "audit"), WrapperRef("error_handler", "report")]),
        ("/stats", "adminRoutes.GET /stats", "adminRoutes", [WrapperRef("hook", "check")]),
    ]
    assert r.routers == [Router("fastify", "adminRoutes", Template(), 18), Router("fastify", "plugin /v2", Template(), 13)]
    assert r.mounts == [  # @fastify/cors is a package's plugin: no mount
        Mount("fastify", "app", "userRoutes", lit("/v1"), 9, 0),
        Mount("fastify", "app", 'require("./orders")', lit("/orders"), 10, 0),
        Mount("fastify", "app", "plugin /v2", lit("/v2"), 13, 0),  # the inline plugin is a node of its own
        Mount("fastify", "adminRoutes", "nested", lit("/deep"), 21, 2),
    ]
    assert r.wrappers == [  # onReady wraps no request
        Wrapper("fastify", "hook", "hook onRequest", 11, 0, None, "app"),
        Wrapper("fastify", "hook", None, 14, 2, "verify", "plugin /v2"),
        Wrapper("fastify", "error_handler", None, 19, 2, "logError", "adminRoutes"),
        Wrapper("fastify", "hook", None, 25, 2, "stamp", None),  # fastify-plugin: the application's scope
    ]
    callers = {c.name: c.caller for c in r.calls if c.name in ("trace", "warm", "me", "stats")}
    assert callers == {"trace": "hook onRequest", "warm": None, "me": "plugin /v2.GET /me", "stats": "adminRoutes.GET /stats"}


FASTIFY_PREFIXES = """
// --- path: src/server.ts ---
import Fastify from "fastify";
import userRoutes from "./users";
import { orderRoutes } from "./orders";
const app = Fastify();
app.register(userRoutes, { prefix: "/v1" });
app.register(orderRoutes);
app.register(async (instance) => {
  instance.get("/ping", async () => "pong");
}, { prefix: "/v2" });
app.get("/health", async () => "ok");
// --- path: src/users.ts ---
import { FastifyInstance } from "fastify";
export default async function userRoutes(fastify: FastifyInstance) {
  fastify.get("/users/:id", async (request) => request.params);
  fastify.register(adminRoutes, { prefix: "/admin" });
}
async function adminRoutes(f: FastifyInstance) {
  f.delete("/users/:id", async () => null);
}
// --- path: src/orders.ts ---
import { FastifyInstance } from "fastify";
export async function orderRoutes(server: FastifyInstance) {
  server.get("/orders", async () => []);
}
"""


def test_fastify_register_prefixes_reach_the_endpoints() -> None:
    from tests.resolution_harness import edges, resolve_fixture

    assert edges(resolve_fixture(FASTIFY_PREFIXES), "EXPOSES") == [
        "src/orders.orderRoutes.GET /orders(0) -> endpoint:GET /orders",
        "src/server.GET /health(0) -> endpoint:GET /health",
        "src/server.plugin /v2.GET /ping(0) -> endpoint:GET /v2/ping",
        "src/users.adminRoutes.DELETE /users/:id(0) -> endpoint:DELETE /v1/admin/users/{}",
        "src/users.userRoutes.GET /users/:id(1) -> endpoint:GET /v1/users/{}",
    ]


HONO = """\
import { Hono } from "hono";
import { logger } from "hono/logger";
import { jwt } from "hono/jwt";
import posts from "./posts";
import { listBooks } from "./books";

const app = new Hono().basePath("/v1");
app.use(logger());
app.use("/admin/*", jwt({ secret: "s" }), async (c, next) => { audit(c); await next(); });
app.get("/books", listBooks);
app.post("/books", validator("json", schema), async (c) => c.json(await createBook(await c.req.json())));
app.on(["PUT", "PATCH"], "/books/:id", (c) => c.json(updateBook(c.req.param("id"))));
app.route("/posts", posts);
export default app;
"""


LISTENERS = """\
const EventEmitter = require("events");
const { Server } = require("socket.io");
const bus = new EventEmitter();
const io = new Server(httpServer);
bus.on("order.created", (order) => { notify(order); });
process.on("SIGTERM", async () => { await shutdown(); });
io.on("connection", (socket) => {
  socket.on("chat", function (msg) { broadcast(msg); });
  join(socket);
});
req.on("data", (chunk) => collect(chunk));
$("#x").on("click", () => clicked());
[1, 2].map((x) => twice(x));
promise.on("done", () => finished());
class Queue extends EventEmitter {
  start() { this.on("job", (job) => run(job)); }
}
"""


def test_hono_routes_base_path_mounts_and_middleware() -> None:
    r = extract("src/app.ts", HONO)
    assert r.routers == [Router("hono", "app", lit("/v1"), 7)]
    assert [(x.framework, x.methods, x.path.literal(), x.handler, x.handler_ref, x.router, x.wrappers) for x in r.routes] == [
        ("hono", ["GET"], "/books", None, "listBooks", "app", []),
        ("hono", ["POST"], "/books", "POST /books", None, "app", [WrapperRef("middleware", "validator")]),
        ("hono", ["PUT", "PATCH"], "/books/:id", "PUT|PATCH /books/:id", None, "app", []),
    ]  # no Express route: Express's name rule is off in a Hono file
    assert r.mounts == [Mount("hono", "app", "posts", lit("/posts"), 13, 0)]
    assert r.wrappers == [
        Wrapper("hono", "middleware", None, 8, 0, "logger", "app"),
        Wrapper("hono", "middleware", None, 9, 0, "jwt", "app", lit("/admin")),  # "/admin/*"
        Wrapper("hono", "middleware", "middleware app.use /admin", 9, 0, None, "app", lit("/admin")),
    ]
    callers = {c.name: c.caller for c in r.calls if c.name in ("audit", "createBook", "updateBook")}
    assert callers == {"audit": "middleware app.use /admin", "createBook": "POST /books", "updateBook": "PUT|PATCH /books/:id"}


def test_hono_prefixes_through_base_path_and_route() -> None:
    from tests.resolution_harness import edges, resolve_fixture

    fixture = """
// --- path: src/app.ts ---
import { Hono } from "hono";
import posts from "./posts";
const app = new Hono().basePath("/v1");
app.route("/posts", posts);
export default app;
// --- path: src/posts.ts ---
import { Hono } from "hono";
const posts = new Hono();
posts.get("/:id", (c) => c.json(find(c.req.param("id"))));
export default posts;
function find(id: string) { return id; }
"""
    result = resolve_fixture(fixture)
    assert edges(result, "EXPOSES") == ["src/posts.GET /:id(1) -> endpoint:GET /v1/posts/{}"]
    assert edges(result, "CALLS") == ["src/posts.GET /:id(1) -> src/posts.find(1) [exact]"]


def test_listeners_on_recognisable_emitters_only() -> None:
    r = extract("src/events.js", LISTENERS)
    defs = [(d.qualname, d.start_line, d.start_col) for d in r.definitions if d.kind == "function"]
    assert defs == [
        ("on order.created", 5, 24),
        ("on SIGTERM", 6, 22),
        ("on connection", 7, 20),
        ("on connection.on chat", 8, 20),  # socket.io: the socket of a connection listener
        ("Queue.start.on job", 16, 27),  # `this` in an EventEmitter subclass
    ]  # req.on("data"), $(...).on("click"), promise.on(...), arr.map(...) stay with their scope
    callers = {c.name: c.caller for c in r.calls if c.name not in ("on", "EventEmitter", "Server", "$", "map")}
    assert callers == {
        "notify": "on order.created", "shutdown": "on SIGTERM", "broadcast": "on connection.on chat",
        "join": "on connection", "collect": None, "clicked": None, "twice": None, "finished": None,
        "run": "Queue.start.on job",
    }


LINKED = """
// --- path: src/app.js ---
const express = require("express");
const { requireAuth } = require("./middleware/auth");
const usersRouter = require("./routes/users");
const { audit } = require("./audit");
const app = express();
app.use(audit);
app.use("/api", requireAuth, usersRouter);
app.get("/health", (req, res) => res.send("ok"));
app.use((err, req, res, next) => { report(err); });
function report(e) {}
function setup(router) {
  router.get("/setup.json", (req, res, next) => { next(); }, (req, res) => res.send("x"));
}
// --- path: src/audit.js ---
function audit(req, res, next) { next(); }
module.exports = { audit };
// --- path: src/middleware/auth.js ---
function requireAuth(req, res, next) { next(); }
module.exports = { requireAuth };
// --- path: src/routes/users.js ---
const { Router } = require("express");
const router = Router();
router.get("/users", (req, res) => res.json([]));
router.post("/users.json", (req, res, next) => next(), (req, res) => res.json({}));
module.exports = router;
"""


def test_express_wrappers_link_to_the_endpoints_they_run_for() -> None:
    from tests.resolution_harness import edges, resolve_fixture

    result = resolve_fixture(LINKED)
    assert edges(result, "WRAPS") == [
        # error middleware on the app: every route of the app and of the routers mounted into it; the
        # `router` parameter of `setup` is no router the file mounts (GET /setup.json is not under app)
        "src/app.error_handler app.use(4) -> endpoint:GET /api/users",
        "src/app.error_handler app.use(4) -> endpoint:GET /health",
        "src/app.error_handler app.use(4) -> endpoint:POST /api/users.json",
        "src/app.setup.middleware GET /setup.json(3) -> endpoint:GET /setup.json",  # a route's inline middleware
        "src/audit.audit(3) -> endpoint:GET /api/users",  # `app.use(audit)`: a name the file cannot tell
        "src/audit.audit(3) -> endpoint:GET /health",  # is no router: both facts, the wrapper links
        "src/audit.audit(3) -> endpoint:POST /api/users.json",
        # `app.use("/api", requireAuth, usersRouter)`: the users router's endpoints, not /health
        "src/middleware/auth.requireAuth(3) -> endpoint:GET /api/users",
        "src/middleware/auth.requireAuth(3) -> endpoint:POST /api/users.json",
        "src/routes/users.middleware POST /users.json(3) -> endpoint:POST /api/users.json",
    ]


LINKED_OTHERS = """
// --- path: nest/src/main.ts ---
import { NestFactory } from "@nestjs/core";
import { AppModule } from "./app.module";
import { TimingInterceptor } from "./timing.interceptor";
async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.useGlobalInterceptors(new TimingInterceptor());
}
// --- path: nest/src/app.module.ts ---
import { Module, MiddlewareConsumer } from "@nestjs/common";
import { APP_GUARD } from "@nestjs/core";
import { ThrottleGuard } from "./throttle.guard";
import { LoggerMiddleware } from "./logger.middleware";
@Module({ providers: [{ provide: APP_GUARD, useClass: ThrottleGuard }] })
export class AppModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(LoggerMiddleware).forRoutes("cats");
  }
}
// --- path: nest/src/cats.controller.ts ---
import { Controller, Get } from "@nestjs/common";
@Controller("cats")
export class CatsController { @Get() findAll() { return []; } }
@Controller("dogs")
export class DogsController { @Get() findAll() { return []; } }
// --- path: nest/src/timing.interceptor.ts ---
export class TimingInterceptor { intercept(context, next) { return next.handle(); } }
// --- path: nest/src/throttle.guard.ts ---
export class ThrottleGuard { canActivate(context) { return true; } }
// --- path: nest/src/logger.middleware.ts ---
export class LoggerMiddleware { use(req, res, next) { next(); } }
"""

LINKED_FASTIFY_HONO = """
// --- path: fastify/server.ts ---
import Fastify from "fastify";
import users from "./users";
const app = Fastify();
app.register(users, { prefix: "/v1" });
app.get("/health", async () => "ok");
// --- path: fastify/users.ts ---
import { FastifyInstance } from "fastify";
export default async function users(fastify: FastifyInstance) {
  fastify.addHook("preHandler", async (request) => { check(request); });
  fastify.get("/users", async () => []);
}
function check(r: unknown) {}
// --- path: hono/app.ts ---
import { Hono } from "hono";
const app = new Hono();
app.use("/admin/*", async (c, next) => { await next(); });
app.get("/admin/stats", (c) => c.json({}));
app.get("/public", (c) => c.text("hi"));
export default app;
"""


def test_fastify_and_hono_wrappers_link_to_their_endpoints() -> None:
    from tests.resolution_harness import edges, resolve_fixture

    assert edges(resolve_fixture(LINKED_FASTIFY_HONO), "WRAPS") == [
        # fastify: a plugin's hook wraps the plugin's routes (under its prefix), not the app's /health
        "fastify/users.users.hook preHandler(1) -> endpoint:GET /v1/users",
        # hono: `app.use("/admin/*", ...)` limits the middleware to /admin, not /public
        "hono/app.middleware app.use /admin(2) -> endpoint:GET /admin/stats",
    ]


def test_nest_global_and_consumer_wrappers_link_to_their_endpoints() -> None:
    from tests.resolution_harness import edges, resolve_fixture

    assert edges(resolve_fixture(LINKED_OTHERS), "WRAPS") == [
        # nest: consumer.apply(...).forRoutes("cats") only /cats; global guard and interceptor: all
        "nest/src/logger.middleware.LoggerMiddleware.use(3) -> endpoint:GET /cats",
        "nest/src/throttle.guard.ThrottleGuard.canActivate(1) -> endpoint:GET /cats",
        "nest/src/throttle.guard.ThrottleGuard.canActivate(1) -> endpoint:GET /dogs",
        "nest/src/timing.interceptor.TimingInterceptor.intercept(2) -> endpoint:GET /cats",
        "nest/src/timing.interceptor.TimingInterceptor.intercept(2) -> endpoint:GET /dogs",
    ]


def test_a_use_with_a_regular_expression_or_empty_path_list_is_skipped_not_the_file() -> None:
    # Hostile review: ``app.use(/^\/re/, mw)`` (an SPA fallback) made the detector raise, and the
    # file lost every route. Such a ``use`` is not modelled; the rest of the file is.
    for framework, head in (("express", 'const express = require("express"); const app = express();'),
                            ("koa", 'const Koa = require("koa"); const app = new Koa();')):
        out = extract("app.js", head + """
function regex(req, res, next) { next(); }
function kept(req, res, next) { next(); }
app.use(/^\\/(?!api).*/, regex);
app.use([], regex);
app.use([[]], regex);
app.use([/a/], regex);
app.use("/api", kept);
app.get("/a", function a(req, res) {});
""")
        assert out.errors == [], framework
        assert [(w.owner, w.path) for w in out.wrappers] == [("kept", lit("/api"))], framework
        if framework == "express":
            assert [(r.methods, r.path, r.handler) for r in out.routes] == [(["GET"], lit("/a"), "GET /a")]
