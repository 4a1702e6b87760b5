"""Inline route handlers are nodes of their own (issue 14, item 1).

An arrow / function expression / lambda passed to a route registration becomes a function named
after the route (``indexer.symbols.handler_name``), owning the calls in its body; the route EXPOSES it.
Fixtures are resolved whole (extractors, detectors, resolver, linker); edges are exact, and what one
handler calls must not be reached from another handler's endpoint.
"""

from __future__ import annotations

from pathlib import Path

from indexer.model import Template
from indexer.symbols import handler_name
from tests.resolution_harness import edges, resolve_fixture

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "inline-handlers"

EXPRESS = """
// --- path: src/app.ts ---
import express from "express";
import ordersRouter from "./routes/orders";
import { health } from "./services/status";

const app = express();
app.use("/api", ordersRouter);
app.get("/health", (req, res) => res.json(health()));
// --- path: src/routes/orders.ts ---
import { Router } from "express";
import * as auth from "../middleware/auth";
import { findOrder, deleteOrder, listOrders, createOrder } from "../services/orders";
import { record } from "../services/audit";

const router = Router();

router.get("/orders/:id", auth.required, async (req, res) => {
  const order = await findOrder(req.params.id);
  res.json(order);
});

router.delete("/orders/:id", auth.required, async function (req, res) {
  await deleteOrder(req.params.id);
  record("delete", req.params.id);
  res.sendStatus(204);
});

router
  .route("/orders")
  .get((req, res) => res.json(listOrders()))
  .post(auth.required, asyncHandler(async (req, res) => {
    const made = await createOrder(req.body);
    record("create", made.id);
  }));

export default router;
// --- path: src/services/orders.ts ---
export async function findOrder(id: string) { return { id }; }
export async function deleteOrder(id: string) { return id; }
export function listOrders() { return []; }
export async function createOrder(body: { id: string }) { return body; }
// --- path: src/services/audit.ts ---
export function record(action: string, id: string) {}
// --- path: src/services/status.ts ---
export function health() { return { ok: true }; }
// --- path: src/middleware/auth.ts ---
export function required(req: unknown, res: unknown, next: () => void) { next(); }
"""


def _reach(result, target_suffix: str) -> set[str]:
    """Endpoints reached upward from the nodes whose id ends with ``target_suffix`` (CALLS, EXPOSES)."""
    callers: dict[str, set[str]] = {}
    exposes: dict[str, set[str]] = {}
    for f in result.files:
        for e in f.edges:
            if e.kind == "CALLS":
                callers.setdefault(e.dst, set()).add(e.src)
            elif e.kind == "EXPOSES":
                exposes.setdefault(e.src, set()).add(e.dst)
    todo = [n.id for f in result.files for n in f.nodes if n.id.endswith(target_suffix)]
    assert todo, target_suffix
    seen: set[str] = set()
    while todo:
        node = todo.pop()
        if node not in seen:
            seen.add(node)
            todo.extend(callers.get(node, ()))
    return {ep for node in seen for ep in exposes.get(node, ())}


def test_express_inline_handlers_own_their_calls_and_are_exposed() -> None:
    result = resolve_fixture(EXPRESS)
    assert edges(result, "CALLS") == [
        "src/app.GET /health(2) -> src/services/status.health(0) [exact]",
        "src/routes/orders.DELETE /orders/:id(2) -> src/services/audit.record(2) [exact]",
        "src/routes/orders.DELETE /orders/:id(2) -> src/services/orders.deleteOrder(1) [exact]",
        "src/routes/orders.GET /orders(2) -> src/services/orders.listOrders(0) [exact]",
        "src/routes/orders.GET /orders/:id(2) -> src/services/orders.findOrder(1) [exact]",
        "src/routes/orders.POST /orders(2) -> src/services/audit.record(2) [exact]",
        "src/routes/orders.POST /orders(2) -> src/services/orders.createOrder(1) [exact]",
    ]
    assert edges(result, "EXPOSES") == [
        "src/app.GET /health(2) -> endpoint:GET /health",
        "src/routes/orders.DELETE /orders/:id(2) -> endpoint:DELETE /api/orders/{}",
        "src/routes/orders.GET /orders(2) -> endpoint:GET /api/orders",
        "src/routes/orders.GET /orders/:id(2) -> endpoint:GET /api/orders/{}",
        "src/routes/orders.POST /orders(2) -> endpoint:POST /api/orders",
    ]
    # one handler's service is not reached from its neighbours' endpoints (before: all five)
    assert _reach(result, "orders.deleteOrder(1)") == {"endpoint:DELETE /api/orders/{}"}
    assert _reach(result, "orders.findOrder(1)") == {"endpoint:GET /api/orders/{}"}
    assert _reach(result, "audit.record(2)") == {"endpoint:DELETE /api/orders/{}", "endpoint:POST /api/orders"}
    assert _reach(result, "status.health(0)") == {"endpoint:GET /health"}
    # no call is left to the file node
    files = {f"t:{f.file.path}" for f in result.files}
    assert [e for f in result.files for e in f.edges if e.kind == "CALLS" and e.src in files] == []


def test_handler_definitions_positions_and_nesting() -> None:
    result = resolve_fixture(EXPRESS)
    by_file = {f.file.path: f for f in result.files}
    nodes = {n.id: n for n in by_file["src/routes/orders.ts"].nodes}
    delete = nodes["t:src/routes/orders.DELETE /orders/:id(2)"]
    assert (delete.label, delete.name, delete.start_line, delete.start_col, delete.end_line) == (
        "Function", "DELETE /orders/:id", 13, 44, 17
    )
    assert delete.props["signature"] == "async function (req, res)"
    post = nodes["t:src/routes/orders.POST /orders(2)"]
    assert (post.start_line, post.start_col, post.end_line) == (22, 36, 25)  # inside asyncHandler(...)


def test_handlers_inside_a_function_nested_functions_duplicates_dots_and_arrays() -> None:
    fixture = """
// --- path: routes.js ---
const express = require("express");
const { save, load, log } = require("./store");
function register() {
  const app = express();
  app.get("/a.json", (req, res) => {
    function helper() { return load(); }
    res.json(helper());
  });
  app.post(["/x", "/y"], (req, res) => save(req.body));
  app.get("/a.json", (req, res) => log());
  app.put("/plain", named);
}
module.exports = register;
function named(req, res) { log(); }
// --- path: store.js ---
function save(x) {}
function load() {}
function log() {}
module.exports = { save, load, log };
"""
    result = resolve_fixture(fixture)
    assert edges(result, "EXPOSES") == [
        "routes.named(2) -> endpoint:PUT /plain",
        "routes.register.GET /a.json #2(2) -> endpoint:GET /a.json",
        "routes.register.GET /a.json(2) -> endpoint:GET /a.json",
        "routes.register.POST /x(2) -> endpoint:POST /x",
        "routes.register.POST /x(2) -> endpoint:POST /y",
    ]
    calls = [e for e in edges(result, "CALLS") if e.startswith("routes.")]
    assert calls == [
        "routes.named(2) -> store.log(0) [exact]",
        "routes.register.GET /a.json #2(2) -> store.log(0) [exact]",
        "routes.register.GET /a.json(2) -> routes.register.helper(0) [exact]",
        "routes.register.POST /x(2) -> store.save(1) [exact]",
        "routes.register.helper(0) -> store.load(0) [exact]",  # a named function keeps its calls
    ]
    assert not any(e.startswith(("routes.register(0) ->", "routes.js ->")) for e in edges(result, "CALLS"))


def test_handler_name_scheme() -> None:
    assert handler_name(["DELETE"], Template.of("/orders/:id")) == "DELETE /orders/:id"
    assert handler_name(["*"], Template.of("*")) == "ALL *"
    assert handler_name(["GET", "POST"], Template((("lit", "/items/"), ("ref", "ITEM")))) == "GET|POST /items/{ITEM}"
    assert handler_name(["GET"], Template((("hole", "x"),))) == "GET {}"
    assert handler_name(["GET"], Template()) == "GET /"
    assert handler_name(["GET"], Template.of("/"), {"GET /", "GET / #2"}) == "GET / #3"


def test_navigation_on_an_indexed_handler(tmp_path) -> None:
    """Call hierarchy and references on handler nodes, through the store as the language server asks."""
    from analysis.navigation import incoming_calls, outgoing_calls, symbol_at
    from indexer.pipeline import index_repository
    from indexer.run import IndexOptions
    from stores.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "h.db")
    try:
        index_repository(FIXTURE, store, store, IndexOptions(repo="h", jobs=1))
        path = "src/routes/orders.ts"
        # the cursor on `async` / `req` of `async function (req, res) {` (line 13) prepares the handler
        for col, word in ((44, "async"), (60, "req")):
            assert [n.id for n in symbol_at(store, "h", path, 13, col, word)] == ["h:src/routes/orders.DELETE /orders/:id(2)"]
        # a call inside it still names its callee; the body's other words name nothing
        assert [n.id for n in symbol_at(store, "h", path, 14, 8, "deleteOrder")] == ["h:src/services/orders.deleteOrder(1)"]
        assert symbol_at(store, "h", path, 16, 6, "sendStatus") == []
        assert symbol_at(store, "h", path, 6, 6, "router") == []  # module-level code: no handler
        (handler,) = symbol_at(store, "h", path, 13, 44, "async")
        assert [(g.node.name, [s.line for s in g.sites]) for g in outgoing_calls(store, handler)] == [
            ("deleteOrder", [14]), ("record", [15])
        ]
        (record,) = symbol_at(store, "h", "src/services/audit.ts", 1, 16, "record")
        assert [(g.node.name, [s.line for s in g.sites]) for g in incoming_calls(store, record)] == [
            ("DELETE /orders/:id", [15]), ("POST /orders", [24])
        ]
    finally:
        store.close()


FLASK = """
# --- path: app/__init__.py ---
# --- path: app/views.py ---
from flask import Flask, Blueprint
from app import store

bp = Blueprint("orders", __name__, url_prefix="/orders")
bp.add_url_rule("/<int:id>", "show", view_func=lambda id: store.load(id))
bp.add_url_rule("/<int:id>", "drop", view_func=lambda id: store.drop(id) or store.log(id), methods=["DELETE"])


def register(app: Flask) -> None:
    app.add_url_rule("/health", view_func=lambda: store.ping())
    app.register_blueprint(bp)
    store.log(0)
# --- path: app/store.py ---
def load(i): ...
def drop(i): ...
def log(i): ...
def ping(): ...
"""


def test_flask_lambda_views_are_their_own_nodes() -> None:
    result = resolve_fixture(FLASK)
    assert edges(result, "CALLS") == [
        "app/views.DELETE /<int:id>(1) -> app/store.drop(1) [exact]",
        "app/views.DELETE /<int:id>(1) -> app/store.log(1) [exact]",
        "app/views.GET /<int:id>(1) -> app/store.load(1) [exact]",
        "app/views.register(1) -> app/store.log(1) [exact]",  # outside the lambda: stays with register
        "app/views.register.GET /health(0) -> app/store.ping(0) [exact]",
    ]
    assert edges(result, "EXPOSES") == [  # before: the file / `register` exposed them
        "app/views.DELETE /<int:id>(1) -> endpoint:DELETE /orders/{}",
        "app/views.GET /<int:id>(1) -> endpoint:GET /orders/{}",
        "app/views.register.GET /health(0) -> endpoint:GET /health",
    ]


FASTIFY = """
// --- path: server.js ---
const Fastify = require("fastify");
const { getUser, removeUser, listUsers, ping } = require("./users");
const app = Fastify({ logger: true });

app.get("/users/:id", async (request, reply) => getUser(request.params.id));
app.delete("/users/:id", { schema: {} }, async function (request, reply) {
  await removeUser(request.params.id);
});
app.get("/users", { schema: {}, handler: async (request) => listUsers() });
app.route({ method: ["GET", "HEAD"], url: "/ping", handler: async () => ping() });
app.get("env");
// --- path: plugin.ts ---
import { FastifyInstance } from "fastify";
import { listUsers } from "./users";
export default async function routes(fastify: FastifyInstance) {
  fastify.post("/users/import", async (request, reply) => { listUsers(); });
  cache.get("/users", listUsers);
}
// --- path: users.js ---
async function getUser(id) {}
async function removeUser(id) {}
async function listUsers() {}
function ping() {}
module.exports = { getUser, removeUser, listUsers, ping };
"""


def test_fastify_inline_handlers_shorthand_options_and_route_object() -> None:
    result = resolve_fixture(FASTIFY)
    assert edges(result, "CALLS") == [
        "plugin.routes.POST /users/import(2) -> users.listUsers(0) [exact]",
        "server.DELETE /users/:id(2) -> users.removeUser(1) [exact]",
        "server.GET /users(1) -> users.listUsers(0) [exact]",
        "server.GET /users/:id(2) -> users.getUser(1) [exact]",
        "server.GET|HEAD /ping(0) -> users.ping(0) [exact]",
    ]
    assert edges(result, "EXPOSES") == [
        "plugin.routes.POST /users/import(2) -> endpoint:POST /users/import",
        "server.DELETE /users/:id(2) -> endpoint:DELETE /users/{}",
        "server.GET /users(1) -> endpoint:GET /users",
        "server.GET /users/:id(2) -> endpoint:GET /users/{}",
        "server.GET|HEAD /ping(0) -> endpoint:GET /ping",
        "server.GET|HEAD /ping(0) -> endpoint:HEAD /ping",
    ]


def test_fastify_route_facts_are_fastify_only() -> None:
    """Express's name rule (an `app` with a literal path) leaves a Fastify file to fastify.py."""
    from tests.resolution_harness import split_fixture
    from indexer.languages import extractor_for_path

    files = split_fixture(FASTIFY)
    out = extractor_for_path("server.js").extract("server.js", files["server.js"].encode())
    assert [(r.framework, r.methods, r.path.literal(), r.handler, r.handler_ref, r.line, r.col) for r in out.routes] == [
        ("fastify", ["GET"], "/users/:id", "GET /users/:id", None, 5, 0),
        ("fastify", ["DELETE"], "/users/:id", "DELETE /users/:id", None, 6, 0),
        ("fastify", ["GET"], "/users", "GET /users", None, 9, 0),
        ("fastify", ["GET", "HEAD"], "/ping", "GET|HEAD /ping", None, 10, 0),
    ]
    plugin = extractor_for_path("plugin.ts").extract("plugin.ts", files["plugin.ts"].encode())
    assert [(r.framework, r.handler, r.line) for r in plugin.routes] == [("fastify", "routes.POST /users/import", 4)]


KAFKAJS = """
// --- path: consumer.js ---
const { Kafka } = require("kafkajs");
const { notify, connectMetrics } = require("./work");
const kafka = new Kafka({ brokers: ["k:9092"] });
const consumer = kafka.consumer({ groupId: "g" });

async function start() {
  connectMetrics();
  await consumer.subscribe({ topics: ["orders", "refunds"] });
  await consumer.run({ eachMessage: async ({ message }) => { notify(message.value); } });
}
module.exports = { start };
// --- path: work.js ---
function notify(v) {}
function connectMetrics() {}
module.exports = { notify, connectMetrics };
"""


def test_kafkajs_each_message_handler_owns_its_calls_and_the_subscription() -> None:
    from tests.resolution_harness import split_fixture
    from indexer.languages import extractor_for_path

    source = split_fixture(KAFKAJS)["consumer.js"].encode()
    out = extractor_for_path("consumer.js").extract("consumer.js", source)
    assert [(t.role, t.topic.literal(), t.owner, t.line) for t in out.topics] == [
        ("consumes", "orders", "start.eachMessage orders|refunds", 8),
        ("consumes", "refunds", "start.eachMessage orders|refunds", 8),
    ]
    result = resolve_fixture(KAFKAJS)
    assert edges(result, "CALLS") == [
        "consumer.start(0) -> work.connectMetrics(0) [exact]",
        "consumer.start.eachMessage orders|refunds(1) -> work.notify(1) [exact]",
    ]
    assert edges(result, "CONSUMES") == [
        "consumer.start.eachMessage orders|refunds(1) -> topic:orders",
        "consumer.start.eachMessage orders|refunds(1) -> topic:refunds",
    ]
