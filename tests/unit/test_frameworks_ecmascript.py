"""The JavaScript / TypeScript framework detectors (express, nest, js_http_clients, kafkajs,
js_constants) on small inline sources, through the extractors: exact facts, positions included."""

from __future__ import annotations

import pytest

from indexer.languages.ecmascript.frameworks.common import join_paths
from indexer.languages import extractor_for_path
from indexer.model import (
    FileExtraction, HttpCall, Mount, Route, Router, StringConstant, Template, TopicUse, Wrapper, WrapperRef,
)


def extract(path: str, source: str) -> FileExtraction:
    ex = extractor_for_path(path)
    assert ex is not None
    result = ex.extract(path, source.encode("utf-8"))
    assert [e for e in result.errors if "detector" in e or "failure" in e] == []
    return result


def lit(*pieces: str) -> Template:
    return Template.of(*pieces)


# -- express -----------------------------------------------------------------------------------------

EXPRESS_JS = """\
const express = require("express");
const helmet = require("helmet");
const app = express();
const router = express.Router();
function list(req, res) { res.send([]); }
router.get("/:id", list);
router.post("/", (req, res) => res.send({}));
router.route("/books")
  .get(controllers.books.list)
  .put(auth, asyncHandler(controllers.books.update));
router.all("*", notFound);
app.get("env");
app.use(helmet());
app.use(helmet);
app.use(express.json());
app.use("/api/users", require("./routes/users"));
app.use(["/api", "/v1"], router);
module.exports = router;
"""

EXPRESS_TS = """\
import express, { Router, Request, Response } from "express";
import usersRouter from "./users";
export const app = express();
const api: Router = Router();
export function register(r: Router): void {
  r.get("/health", (req: Request, res: Response) => { res.json(status()); });
}
api.delete(`/items/${ITEM}`, remove);
app.use(API_PREFIX, usersRouter);
app.use(api);
app.use(authenticate, database, api);
app.use(config.basePath, api);
export default api;
"""


def test_express_javascript_router_routes_chain_and_mounts() -> None:
    r = extract("server/app.js", EXPRESS_JS)
    assert r.routers == [Router("express", "app", Template(), 3), Router("express", "router", Template(), 4)]
    assert r.routes == [
        Route("express", ["GET"], lit("/:id"), "list", 6, 0, router="router"),
        Route("express", ["POST"], lit("/"), "POST /", 7, 0, router="router"),  # the inline handler's node
        Route("express", ["GET"], lit("/books"), None, 9, 3, "controllers.books.list", "router"),
        Route("express", ["PUT"], lit("/books"), None, 10, 3, "controllers.books.update", "router",
              [WrapperRef("middleware", "auth")]),  # the middleware before the handler
        Route("express", ["*"], lit("*"), None, 11, 0, "notFound", "router"),
    ]
    assert r.mounts == [
        Mount("express", "app", 'require("./routes/users")', lit("/api/users"), 16, 0),
        Mount("express", "app", "router", lit("/api"), 17, 0),
        Mount("express", "app", "router", lit("/v1"), 17, 0),
    ]
    assert r.wrappers == [  # package middleware: the factory called, or the name; a router is no wrapper
        Wrapper("express", "middleware", None, 13, 0, "helmet", "app"),
        Wrapper("express", "middleware", None, 14, 0, "helmet", "app"),
        Wrapper("express", "middleware", None, 15, 0, "express.json", "app"),
    ]


def test_express_typescript_typed_router_parameter_inline_handler_and_constant_prefix() -> None:
    r = extract("src/app.ts", EXPRESS_TS)
    assert r.routers == [Router("express", "app", Template(), 3), Router("express", "api", Template(), 4),
                         Router("express", "register#0", Template(), 5)]  # a function's router parameter
    assert r.routes == [
        # an inline callback is a function of its own, under `register`, owning the calls in its body;
        # the router is the parameter of `register` (the prefixes of the routers handed to it, if any)
        Route("express", ["GET"], lit("/health"), "register.GET /health", 6, 2, router="register#0"),
        Route("express", ["DELETE"], Template((("lit", "/items/"), ("ref", "ITEM"))), None, 8, 0, "remove", "api"),
    ]
    assert r.mounts == [
        Mount("express", "app", "usersRouter", Template((("ref", "API_PREFIX"),)), 9, 0),
        Mount("express", "app", "api", Template(), 10, 0),
        Mount("express", "app", "authenticate", Template(), 11, 0),  # a middleware: the linker finds no router
        Mount("express", "app", "database", Template(), 11, 0, order=1),  # each argument's index in the call
        Mount("express", "app", "api", Template(), 11, 0, order=2),
        Mount("express", "app", "api", Template((("ref", "config.basePath"),)), 12, 0),
    ]
    # names the file cannot tell apart are both: the linker keeps the mount or the wrapper that resolves
    assert r.wrappers == [
        Wrapper("express", "middleware", None, 11, 0, "authenticate", "app"),
        Wrapper("express", "middleware", None, 11, 0, "database", "app", order=1),
    ]


def test_express_route_file_receiving_the_app_is_read_by_name_only_with_a_literal_path() -> None:
    source = """\
module.exports = function (app) {
  app.get("/status", status.show);
  app.get(config.key, h);
  cache.get("/x", fallback);
};
"""
    r = extract("routes/index.js", source)
    # the router is the parameter of the module's function (`default`, mounted by the calls handing it one)
    assert r.routes == [Route("express", ["GET"], lit("/status"), None, 2, 2, "status.show", "default#0")]
    assert r.routers == [Router("express", "default#0", Template(), 1)] and r.mounts == []


# -- nest --------------------------------------------------------------------------------------------

NEST_TS = """\
import { Controller, Get, Post, Put, All, Param } from "@nestjs/common";

@Controller("cats")
export class CatsController {
  @Get()
  findAll() {}

  @Get(":id")
  findOne(@Param("id") id: string) {}

  @Post()
  @HttpCode(204)
  create() {}

  @All(["a", "b/"])
  any() {}
}

@Controller({ path: Paths.OWNERS, host: "x" })
class OwnersController {
  @Put("/:ownerId/")
  update() {}
}

class NotAController {
  @Get("x")
  nope() {}
}
"""


def test_nest_controller_prefix_joins_method_paths() -> None:
    r = extract("src/cats.controller.ts", NEST_TS)
    owners = Template((("lit", "/"), ("ref", "Paths.OWNERS"), ("lit", "/:ownerId")))
    assert r.routes == [
        Route("nest", ["GET"], lit("/cats"), "CatsController.findAll", 5, 2),
        Route("nest", ["GET"], lit("/cats/:id"), "CatsController.findOne", 8, 2),
        Route("nest", ["POST"], lit("/cats"), "CatsController.create", 11, 2),
        Route("nest", ["*"], lit("/cats/a"), "CatsController.any", 15, 2),
        Route("nest", ["*"], lit("/cats/b"), "CatsController.any", 15, 2),
        Route("nest", ["PUT"], owners, "OwnersController.update", 21, 2),
    ]


def test_nest_controller_in_javascript_with_decorators_inside_members() -> None:
    source = """\
@Controller("dogs")
export class DogsController {
  @Get(":id") findOne(id) {}
}
"""
    r = extract("src/dogs.controller.js", source)
    assert r.routes == [Route("nest", ["GET"], lit("/dogs/:id"), "DogsController.findOne", 3, 2)]


def test_join_paths() -> None:
    assert join_paths(Template(), Template()) == lit("/")
    assert join_paths(lit("/api/"), lit("/x/")) == lit("/api/x")
    assert join_paths(Template((("ref", "P"),)), lit("x")) == Template((("lit", "/"), ("ref", "P"), ("lit", "/x")))


# -- HTTP clients ------------------------------------------------------------------------------------

CLIENTS_TS = """\
import axios from "axios";
import { Injectable, inject } from "@angular/core";
import { HttpClient } from "@angular/common/http";

const api = axios.create({ baseURL: "http://customers-service/api/" });

@Injectable()
export class OwnerService {
  private ownersUrl = "/api/owners";
  private other = inject(HttpClient);

  constructor(private http: HttpClient, private store: Store) {}

  getOwner(id: number) {
    return this.http.get<Owner>(`${this.ownersUrl}/${id}`);
  }

  save(owner: Owner) {
    this.http.request("PUT", this.ownersUrl + "/" + owner.id, { body: owner });
    this.other.delete(`${environment.api}/owners/${owner.id}?force=${this.f()}`);
    this.store.get("/not/http");
  }
}

export async function load(id: string) {
  await fetch("/api/vets");
  await fetch(`/api/owners/${id}`, { method: "post", body: "{}" });
  await fetch(url, options);
  await api.get(`/owners/${id}`);
  await api.post("http://elsewhere/x", {});
  await axios({ method: "patch", url: "/p", baseURL: BASE });
  await axios.request({ url: "/r" });
}
"""


def test_http_clients_angular_fetch_and_axios_in_typescript() -> None:
    r = extract("src/owner.service.ts", CLIENTS_TS)
    assert r.http_calls == [
        HttpCall("angular", "GET", Template((("ref", "OwnerService.ownersUrl"), ("lit", "/"), ("ref", "id"))),
                 "OwnerService.getOwner", 15, 11),
        HttpCall("angular", "PUT", Template((("ref", "OwnerService.ownersUrl"), ("lit", "/"), ("ref", "owner.id"))),
                 "OwnerService.save", 19, 4),
        HttpCall("angular", "DELETE",
                 Template((("ref", "environment.api"), ("lit", "/owners/"), ("ref", "owner.id"), ("lit", "?force="),
                           ("hole", "this.f()"))),
                 "OwnerService.save", 20, 4),
        HttpCall("fetch", "GET", lit("/api/vets"), "load", 26, 8),
        HttpCall("fetch", "POST", Template((("lit", "/api/owners/"), ("ref", "id"))), "load", 27, 8),
        HttpCall("fetch", "*", Template((("ref", "url"),)), "load", 28, 8, method_param="options.method"),  # fetch(url, options)
        HttpCall("axios", "GET", Template((("lit", "http://customers-service/api/owners/"), ("ref", "id"))), "load", 29, 8),
        HttpCall("axios", "POST", lit("http://elsewhere/x"), "load", 30, 8),
        HttpCall("axios", "PATCH", Template((("ref", "BASE"), ("lit", "/p"))), "load", 31, 8),
        HttpCall("axios", "GET", lit("/r"), "load", 32, 8),
    ]  # fmt: skip
    assert StringConstant("OwnerService.ownersUrl", lit("/api/owners")) in r.constants


def test_http_clients_in_javascript_module_level_and_callbacks() -> None:
    source = """\
const axios = require("axios");
const http = require("http");
axios.defaults.baseURL = "http://shop";
fetch("/top").then((r) => r.json());
function ui() {
  items.forEach((i) => axios.delete("/items/" + i.id));
  window.fetch(new Request("/req", { method: "DELETE" }));
  http.get("http://x/y");
}
"""
    r = extract("web/app.js", source)
    assert r.http_calls == [
        HttpCall("fetch", "GET", lit("/top"), None, 4, 0),
        HttpCall("axios", "DELETE", Template((("lit", "http://shop/items/"), ("ref", "i.id"))), "ui", 6, 23),
        HttpCall("fetch", "DELETE", lit("/req"), "ui", 7, 2),
    ]


def test_request_configurations_of_generated_sdks_are_requests() -> None:
    source = """\
import { client } from "./client.gen";
export class ItemsService {
  public static readItem(options: Options) {
    return (options.client ?? client).get<Item>({ responseType: "json", url: "/api/v1/items/{id}", ...options });
  }
  public static send(options: Options) {
    return client.request({ url: `/api/v1/mail/${options.to}`, method: "POST" });
  }
  public static other(options: Options, url: string) {
    cache.get({ url });  // a name: no request one can tell
    store.put({ url: "items", value: 1 });  // no path
    options.get({ url: "/a" }, 2);  // more than one argument
  }
}
"""
    r = extract("src/client/sdk.gen.ts", source)
    assert r.http_calls == [
        HttpCall("request-config", "GET", lit("/api/v1/items/{id}"), "ItemsService.readItem", 4, 11),
        HttpCall("request-config", "POST", Template((("lit", "/api/v1/mail/"), ("ref", "options.to"))),
                 "ItemsService.send", 7, 11),
    ]


# -- kafkajs -----------------------------------------------------------------------------------------

KAFKA_TS = """\
import { Kafka } from "kafkajs";
const kafka = new Kafka({ clientId: "app", brokers: ["k:9092"] });
const producer = kafka.producer();
export const ORDERS = "orders";

export class Publisher {
  private orderProducer: Producer;
  async publish(order: Order) {
    await producer.send({ topic: ORDERS, messages: [{ value: "x" }] });
    await this.orderProducer.send({ topic: `orders.${order.region}`, messages: [] });
    await producer.sendBatch({ topicMessages: [{ topic: "a", messages: [] }, { topic: "b", messages: [] }] });
    await res.send({ topic: "not-kafka" });
  }
}

export async function listen() {
  const c = kafka.consumer({ groupId: "g" });
  await c.subscribe({ topic: "payments", fromBeginning: true });
  await c.subscribe({ topics: ["x", /^y/, ORDERS] });
}
"""


def test_kafkajs_send_and_subscribe() -> None:
    r = extract("src/kafka.ts", KAFKA_TS)
    assert r.topics == [
        TopicUse("kafkajs", "produces", Template((("ref", "ORDERS"),)), "Publisher.publish", 9, 10),
        TopicUse(
            "kafkajs", "produces", Template((("lit", "orders."), ("ref", "order.region"))), "Publisher.publish", 10, 10
        ),
        TopicUse("kafkajs", "produces", lit("a"), "Publisher.publish", 11, 10),
        TopicUse("kafkajs", "produces", lit("b"), "Publisher.publish", 11, 10),
        TopicUse("kafkajs", "consumes", lit("payments"), "listen", 18, 8),
        TopicUse("kafkajs", "consumes", lit("x"), "listen", 19, 8),
        TopicUse("kafkajs", "consumes", Template((("ref", "ORDERS"),)), "listen", 19, 8),
    ]


def test_kafkajs_in_javascript_with_shorthand_topic() -> None:
    source = """\
const consumer = kafka.consumer({ groupId: "g" });
const topic = "audit";
consumer.subscribe({ topic });
"""
    r = extract("worker.js", source)
    assert r.topics == [TopicUse("kafkajs", "consumes", Template((("ref", "topic"),)), None, 3, 0)]
    assert r.constants == [StringConstant("topic", lit("audit"))]


# -- constants ---------------------------------------------------------------------------------------

CONSTANTS_TS = """\
export const API = "http://api.example.com";
const OWNERS = API + "/owners";
const VETS = `${API}/vets`;
const PLAIN = `/plain`;
export const ROUTES = { USERS: "/users", nested: { deep: `${API}/deep` } } as const;
const FROZEN = Object.freeze({ A: "a" });
const BASE = process.env.API_URL || "http://localhost:3000";
let MUTABLE = "no";
const COUNT = 1 + 2;
const COMPUTED = build("/x");
const WITH_HOLE = `${API}/${id()}`;
export enum Paths { OWNERS = "/owners", N = 1 }
export class Urls {
  static readonly VISITS = "/visits";
  private readonly base = OWNERS + "/";
  changed = "/a";
  reset() { this.changed = "/b"; }
}
function inner() { const LOCAL = "/local"; }
"""


def test_constants_in_typescript() -> None:
    r = extract("src/constants.ts", CONSTANTS_TS)
    assert r.constants == [
        StringConstant("API", lit("http://api.example.com")),
        StringConstant("OWNERS", Template((("ref", "API"), ("lit", "/owners")))),
        StringConstant("VETS", Template((("ref", "API"), ("lit", "/vets")))),
        StringConstant("PLAIN", lit("/plain")),
        StringConstant("ROUTES.USERS", lit("/users")),
        StringConstant("ROUTES.nested.deep", Template((("ref", "API"), ("lit", "/deep")))),
        StringConstant("FROZEN.A", lit("a")),
        StringConstant("BASE", lit("http://localhost:3000")),
        StringConstant("Paths.OWNERS", lit("/owners")),
        StringConstant("Urls.VISITS", lit("/visits")),
        StringConstant("Urls.base", Template((("ref", "OWNERS"), ("lit", "/")))),
    ]


def test_constants_in_javascript_static_fields_and_escapes() -> None:
    source = """\
const A = 'it\\'s/\\u0041';
class K { static X = "/x"; #p = "/private"; }
"""
    r = extract("src/k.js", source)
    assert r.constants == [StringConstant("A", lit("it's/A")), StringConstant("K.X", lit("/x"))]


@pytest.mark.parametrize("path", ["bad.ts", "bad.js", "bad.tsx"])
def test_detectors_never_raise_on_broken_code(path: str) -> None:
    source = """\
@Controller(
app.use("/x", ;
router.get(`/${`, () => {
fetch(
axios.create({ baseURL: });
producer.send({ topic: });
const X = "a" +;
export const O = { a: { b: { c: { d: { e: "deep" } } } } };
"""
    r = extractor_for_path(path).extract(path, source.encode())  # type: ignore[union-attr]
    assert not [e for e in r.errors if "detector" in e or "failure" in e]


def test_http_client_urls_through_local_variables_and_angularjs_http() -> None:
    source = """\
angular.module("visits").controller("VisitsController", ["$http", function ($http) {
    var url = "api/visit/owners/" + ownerId + "/visits";
    $http.get(url);
    self.submit = function () {
        $http.post(url, data);
    };
    function shadowed(url) { $http.delete(url); }
    let changed = "/a";
    changed = "/b";
    $http.put(changed);
    $http({ method: "GET", url: "api/vets" });
}]);
"""
    r = extract("static/visits.controller.js", source)
    visits = Template((("lit", "api/visit/owners/"), ("ref", "ownerId"), ("lit", "/visits")))
    assert r.http_calls == [
        HttpCall("angular", "GET", visits, None, 3, 4),
        HttpCall("angular", "POST", visits, "self.submit", 5, 8),
        HttpCall("angular", "DELETE", Template((("ref", "url"),)), "shadowed", 7, 29),
        HttpCall("angular", "PUT", lit("/b"), None, 10, 4),  # straight-line reassignment replaces "/a"
        HttpCall("angular", "GET", lit("api/vets"), None, 11, 4),
    ]


def test_express_router_chains_built_on_a_factory_call() -> None:
    source = """\
import { Router } from "express";
import tags from "./tag/tag.controller";
import articles from "./article/article.controller";

const api = Router()
  .use(tags)
  .use(articles);

export default Router().use("/api", api);
"""
    r = extract("src/routes.ts", source)
    assert r.routers == [Router("express", "api", Template(), 5), Router("express", "default", Template(), 9)]
    assert r.mounts == [
        Mount("express", "api", "tags", Template(), 6, 3),
        Mount("express", "api", "articles", Template(), 7, 3),
        Mount("express", "default", "api", lit("/api"), 9, 24),
    ]
