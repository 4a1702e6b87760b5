"""Session 60, brk60: a newcomer on open-telemetry/opentelemetry-demo and
spring-petclinic-microservices, and session 59's additions attacked. Each class is one defect found,
with exact expectations and what must not be linked. Every input is generated here.

- :class:`TestChannelCredentialsClients`: grpc-js clients built with ``ChannelCredentials`` (the frontend's
  ts-proto gateways) linked no rpc.
- :class:`TestEnvironmentDefaultTopics`: the ``orders`` topic named by an environment variable's literal
  default (Go ``var Topic = getTopic()``, C# ``?? "orders"``) linked nothing; a Confluent consumer subscribed
  in its constructor is the method calling ``Consume``.
- :class:`TestNextJsApiRoutes`: Next.js API routes (``pages/api``, ``app/**/route.ts``) were no endpoints.
- :class:`TestGoModReplaceDirectives`, :class:`TestGoModReachAtScale`: go.mod ``replace`` ignored (the first
  module of a path won); the transitive requires searched from every module.
- :class:`TestConfigServerAtScale`: every config client parsed every served file again; an application name
  ``..`` listed folders above the location.
- :class:`TestRequestPathTargetsAttacked`: glued route parameters backtracked for hours; ``* /path`` targets.
- :class:`TestComposeDockerfileFolders`: services built from the root named the root and ``src``.
"""

from __future__ import annotations

import hashlib
from pathlib import Path

import pytest

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import edges as edges_of
from tests.resolution_harness import resolve_fixture, split_fixture


def _link(fixture: str) -> tuple[list[tuple], dict[str, int]]:
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        ex = extractor_for_path(path)
        assert ex is not None
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions)
    edges = sorted((e.kind, e.src.removeprefix("t:"), e.dst, e.props.get("match")) for f in result.files
                   for e in f.edges if e.kind in ("EXPOSES", "CALLS_HTTP", "PRODUCES", "CONSUMES"))
    return edges, dict(result.link_outcomes)


# -- opentelemetry-demo's frontend: ts-proto clients built with ChannelCredentials --------------------

CHANNEL_CREDENTIALS = """
# --- path: pb/demo.proto ---
syntax = "proto3";
package oteldemo;
service CartService { rpc GetCart (R) returns (R); rpc EmptyCart (R) returns (R); }
# --- path: src/cart/CartService.cs ---
namespace cart.services;
public class CartService : Oteldemo.CartService.CartServiceBase
{
    public override async Task<Cart> GetCart(GetCartRequest request, ServerCallContext context) { return null; }
}
# --- path: src/frontend/gateways/Cart.gateway.ts ---
import { ChannelCredentials } from '@grpc/grpc-js';
import { CartServiceClient, Widget } from '../../protos/demo';

const client = new CartServiceClient(CART_ADDR, ChannelCredentials.createInsecure());
const other = new CartServiceClient(CART_ADDR, { retries: 3 });
const widget = new Widget(CART_ADDR, ChannelCredentials.createSsl());

const CartGateway = () => ({
  getCart(userId: string) {
    return new Promise((resolve, reject) => client.getCart({ userId }, (e, r) => (e ? reject(e) : resolve(r))));
  },
  emptyCart(userId: string) {
    other.emptyCart({ userId }, () => {});
    widget.emptyCart({ userId });
  },
});
export default CartGateway();
"""


class TestChannelCredentialsClients:
    def test_the_frontend_client_reaches_the_csharp_server(self) -> None:
        edges, outcomes = _link(CHANNEL_CREDENTIALS)
        assert edges == [
            # the method of the object the factory returns (js60), not the factory
            ("CALLS_HTTP", "src/frontend/gateways/Cart.gateway.CartGateway.return.getCart(1)",
             "endpoint:GRPC oteldemo.CartService/GetCart", "name"),
            ("EXPOSES", "src/cart/CartService.CartService.GetCart(2)",
             "endpoint:GRPC oteldemo.CartService/GetCart", "exact"),
        ]
        # A constructor given no credentials and a class not named like a client call no rpc.
        assert outcomes["calls_grpc"] == 1


# -- opentelemetry-demo's orders topic: named by an environment variable with a literal default ------

ENV_DEFAULT_TOPICS = """
# --- path: src/checkout/go.mod ---
module github.com/example/demo/src/checkout

go 1.22
# --- path: src/checkout/kafka/producer.go ---
package kafka

import (
	"os"

	"github.com/IBM/sarama"
)

var (
	Topic           = getTopic()
	Other           = getEnv("OTHER_TOPIC", "payments")
	Unknown         = pick()
	NoEnv           = constant()
	ProtocolVersion = sarama.V3_0_0_0
)

func getTopic() string {
	if topic := os.Getenv("KAFKA_TOPIC"); topic != "" {
		return topic
	}
	return "orders"
}

func getEnv(key, fallback string) string {
	if v, ok := os.LookupEnv(key); ok {
		return v
	}
	return fallback
}

func pick() string {
	return os.Getenv("PICKED")
}

func constant() string {
	return "audit"
}
# --- path: src/checkout/main.go ---
package main

import (
	"github.com/IBM/sarama"
	"github.com/example/demo/src/checkout/kafka"
)

type checkout struct{}

func (cs *checkout) sendToPostProcessor() {
	msg := sarama.ProducerMessage{Topic: kafka.Topic}
	_ = msg
}

func (cs *checkout) sendOthers() {
	_ = sarama.ProducerMessage{Topic: kafka.Other}
	_ = sarama.ProducerMessage{Topic: kafka.Unknown}
	_ = sarama.ProducerMessage{Topic: kafka.NoEnv}
}
# --- path: src/accounting/Consumer.cs ---
using Confluent.Kafka;

internal class Consumer
{
    private static readonly string TopicName = Environment.GetEnvironmentVariable("KAFKA_TOPIC") ?? "orders";
    private static readonly string Fallback = Settings.Topic ?? "payments";

    private readonly IConsumer<string, byte[]> _consumer;

    public Consumer(IConsumer<string, byte[]> consumer)
    {
        _consumer = consumer;
        _consumer.Subscribe(TopicName);
        consumer.Subscribe(Fallback);
    }

    protected async Task ExecuteAsync(CancellationToken token)
    {
        var result = _consumer.Consume(token);
        ProcessMessage(result.Message);
    }

    private void ProcessMessage(Message<string, byte[]> message) { }
}
"""


class TestEnvironmentDefaultTopics:
    def test_the_go_producer_reaches_the_csharp_consumer(self) -> None:
        edges, outcomes = _link(ENV_DEFAULT_TOPICS)
        assert edges == [
            # subscribed in the constructor, consumed in ExecuteAsync: the consumer is ExecuteAsync
            ("CONSUMES", "src/accounting/Consumer.Consumer.ExecuteAsync(1)", "topic:orders", None),
            ("PRODUCES", "src/checkout/main.checkout.sendOthers(0)", "topic:payments", None),
            ("PRODUCES", "src/checkout/main.checkout.sendToPostProcessor(0)", "topic:orders", None),
        ]
        # pick() returns the variable only, constant() reads no environment (a function's return value
        # is no package constant): two topics unknown. Settings.Topic ?? "payments" is no environment
        # read: no topic at all (nothing consumes "payments" above).
        assert outcomes["unlinked_topic"] == 2


# -- opentelemetry-demo's frontend: Next.js API routes, declared by the file system --------------------

NEXT_ROUTES = """
# --- path: src/frontend/pages/api/cart.ts ---
import type { NextApiHandler } from 'next';
import CartGateway from '../../gateways/Cart.gateway';
import InstrumentationMiddleware from '../../utils/InstrumentationMiddleware';

const handler: NextApiHandler = async ({ method, body, query }, res) => {
  switch (method) {
    case 'GET': {
      return res.status(200).json(await CartGateway.getCart(query.sessionId));
    }
    case 'POST': {
      return res.status(200).json({});
    }
    default: {
      return res.status(405);
    }
  }
};

export default InstrumentationMiddleware(handler);
# --- path: src/frontend/pages/api/products/[productId]/index.ts ---
export default async function handler(req, res) {
  if (req.method === 'GET') {
    res.json({});
  }
}
# --- path: src/frontend/pages/api/files/[...slug].js ---
export default function files(req, res) {
  switch (kind) {
    case 'GET': return res.end();
  }
}
# --- path: src/frontend/pages/api/helpers.ts ---
export function notARoute(req, res) { res.end(); }
# --- path: src/frontend/pages/about.tsx ---
export default function About() { return null; }
# --- path: web/app/(shop)/api/items/[id]/route.ts ---
export async function GET(request: Request) { return Response.json({}); }
const remove = async (request: Request) => new Response(null);
export const DELETE = remove;
export function helper() { return 1; }
# --- path: web/app/page.tsx ---
export default function Page() { return null; }
# --- path: web/node_modules/next/dist/pages/api/x.js ---
export default function x(req, res) {}
"""


class TestNextJsApiRoutes:
    def test_the_routes_the_file_system_declares(self) -> None:
        from indexer.languages.ecmascript.frameworks.nextjs import route_path

        assert route_path("src/pages/api/products/[productId]/index.ts") == ("pages", "/api/products/{productId}")
        assert route_path("pages/api/index.js") == ("pages", "/api")
        assert route_path("pages/api/[[...slug]].ts") == ("pages", "/api/{slug}")
        assert route_path("app/(shop)/@modal/api/items/[id]/route.ts") == ("app", "/api/items/{id}")
        assert route_path("app/route.js") == ("app", "/")
        # A page, a file named like a route outside app/, a dependency's file: no route.
        assert route_path("pages/about.tsx") is None
        assert route_path("src/routes/route.ts") is None
        assert route_path("node_modules/next/pages/api/x.js") is None
        assert route_path("pages/api/cart.css") is None

    def test_handlers_methods_and_wrappers(self) -> None:
        extractions = []
        for path, source in split_fixture(NEXT_ROUTES).items():
            data = source.encode()
            extractions.append((extractor_for_path(path).extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
        got = sorted((r.path.literal(), tuple(r.methods), r.handler, tuple(w.expr for w in r.wrappers), e.path)
                     for e, _, _ in extractions for r in e.routes)
        assert got == [
            ("/api/cart", ("GET", "POST"), "handler", ("InstrumentationMiddleware",), "src/frontend/pages/api/cart.ts"),
            # A switch on another value than the request's method says nothing of the methods.
            ("/api/files/{slug}", ("*",), "files", (), "src/frontend/pages/api/files/[...slug].js"),
            ("/api/items/{id}", ("DELETE",), "remove", (), "web/app/(shop)/api/items/[id]/route.ts"),
            ("/api/items/{id}", ("GET",), "GET", (), "web/app/(shop)/api/items/[id]/route.ts"),
            ("/api/products/{productId}", ("GET",), "handler", (),
             "src/frontend/pages/api/products/[productId]/index.ts"),
        ]

    def test_the_route_reaches_the_grpc_client_behind_it(self) -> None:
        edges, outcomes = _link(NEXT_ROUTES)
        exposes = [(k, s, d) for k, s, d, _ in edges if k == "EXPOSES"]
        assert exposes == [
            ("EXPOSES", "src/frontend/pages/api/cart.handler(2)", "endpoint:GET /api/cart"),
            ("EXPOSES", "src/frontend/pages/api/cart.handler(2)", "endpoint:POST /api/cart"),
            ("EXPOSES", "src/frontend/pages/api/files/[...slug].files(2)", "endpoint:* /api/files/{}"),
            ("EXPOSES", "src/frontend/pages/api/products/[productId]/index.handler(2)",
             "endpoint:GET /api/products/{}"),
            ("EXPOSES", "web/app/(shop)/api/items/[id]/route.GET(1)", "endpoint:GET /api/items/{}"),
            ("EXPOSES", "web/app/(shop)/api/items/[id]/route.remove(1)", "endpoint:DELETE /api/items/{}"),
        ]
        assert outcomes["exposes"] == 6


# -- session 59's go.mod reach attacked: replace directives, two modules of one path, cycles ----------

REPLACED = """
// --- path: common-a/go.mod ---
module example.com/common
// --- path: common-a/h.go ---
package common

type Handler interface { Handle(x int) error }
// --- path: common-b/go.mod ---
module example.com/common
// --- path: common-b/h.go ---
package common

type Handler interface { Handle(x int) error }
// --- path: svc/go.mod ---
module example.com/svc

require example.com/common v0.0.0

replace example.com/common => ../common-b
// --- path: svc/h.go ---
package svc

type h struct{}

func (h) Handle(x int) error { return nil }
// --- path: fork/go.mod ---
module example.com/fork

require (
\texample.com/common v1.2.0
\texample.com/loop v0.0.0
)

replace example.com/common v1.2.0 => github.com/someone/common v1.2.1
// --- path: fork/h.go ---
package fork

type f struct{}

func (f) Handle(x int) error { return nil }
// --- path: plain/go.mod ---
module example.com/plain

require example.com/common v0.0.0
// --- path: plain/h.go ---
package plain

type p struct{}

func (p) Handle(x int) error { return nil }
// --- path: loop/go.mod ---
module example.com/loop

require example.com/fork v0.0.0

replace example.com/fork => ../fork
// --- path: loop/h.go ---
package loop

type Looped interface { Handle(x int) error }
"""


class TestGoModReplaceDirectives:
    def test_a_replaced_module_is_the_one_the_directive_names(self) -> None:
        result = resolve_fixture(REPLACED)
        assert edges_of(result, "IMPLEMENTS") == [
            # fork and loop require each other (a cycle): each satisfies the other's interfaces
            "fork/h.f -> loop/h.Looped",
            # svc's replace names common-b: never common-a, which declares the same path
            "svc/h.h -> common-b/h.Handler",
        ]
        # fork replaces common by a module outside the repository; plain requires a path two in-repository
        # modules declare, with no replace: neither builds against common-a or common-b
        assert edges_of(result, "OVERRIDES") == [
            "fork/h.f.Handle(1) -> loop/h.Looped.Handle(1)",
            "svc/h.h.Handle(1) -> common-b/h.Handler.Handle(1)",
        ]
        assert sorted({e.kind for f in result.files for e in f.edges}) == ["CONTAINS", "IMPLEMENTS", "OVERRIDES"]


class TestGoModReachAtScale:
    def test_cycles_chains_and_a_full_mesh(self) -> None:
        from indexer.languages.go.modules import transitive_reach

        graph = {"a": ["b"], "b": ["c"], "c": ["a", "d"], "d": [], "e": ["e", "d"], "f": ["a"]}
        assert transitive_reach(graph) == {
            "a": frozenset({"b", "c", "d"}),
            "b": frozenset({"a", "c", "d"}),
            "c": frozenset({"a", "b", "d"}),
            "e": frozenset({"d"}),  # a require of itself is no other module
            "f": frozenset({"a", "b", "c", "d"}),
        }
        # 800 go.mod files each requiring every other (640,000 requires): one component, linear in the
        # requires (a search from every module was 800 x 640,000 steps)
        n = [f"m{i}" for i in range(800)]
        mesh = transitive_reach({m: n for m in n})
        assert len(mesh) == 800 and all(len(r) == 799 and m not in r for m, r in mesh.items())
        chain = transitive_reach({f"c{i}": [f"c{i + 1}"] for i in range(1000)})
        assert len(chain) == 1000 and len(chain["c0"]) == 1000 and "c1000" not in chain
        assert chain["c998"] == frozenset({"c999", "c1000"})


# -- session 59's config server attacked: many clients of a large shared file, names leading out -------

def _config_repo(root, clients: int, app_names: list[str] | None = None, search: str = "classpath:/shared"):
    from tests.resolution_harness import write_tree

    files = {
        "config/src/main/resources/application.yml": (
            f"spring:\n  cloud:\n    config:\n      server:\n        native:\n          search-locations: {search}\n"
            "  profiles:\n    active: native\n"),
        "config/src/main/resources/shared/application.yml": "app:\n" + "".join(f"  k{i}: v{i}\n" for i in range(2000)),
        "config/src/main/resources/shared/svc0.yml": "server:\n  servlet:\n    context-path: /zero\n",
        "config/src/main/resources/shared/other.yml": "server:\n  servlet:\n    context-path: /other\n",
    }
    names = app_names or [f"svc{i}" for i in range(clients)]
    for i, name in enumerate(names):
        files[f"svc{i}/src/main/resources/bootstrap.yml"] = (
            f"spring:\n  application:\n    name: {name}\n  cloud:\n    config:\n      uri: http://config:8888\n")
    return write_tree(root, files)


class TestConfigServerAtScale:
    def test_each_served_file_is_parsed_once_for_all_clients(self, tmp_path, monkeypatch) -> None:
        import indexer.frameworks.spring_config as spring_config

        root = _config_repo(tmp_path, 30)
        parsed: list[str] = []
        real = spring_config._documents
        monkeypatch.setattr(spring_config, "_documents",
                            lambda path, r: parsed.append(Path(path).relative_to(root).as_posix()) or real(path, r))
        modules = spring_config.load_module_properties(root)
        # the shared application.yml: once among the config server's own files (it lies in its resources),
        # once as served, whatever the number of clients; svc0.yml once; other.yml (no client's name) never
        assert sorted(n for n in parsed if not n.endswith("bootstrap.yml")) == [
            "config/src/main/resources/application.yml",
            "config/src/main/resources/shared/application.yml",
            "config/src/main/resources/shared/application.yml",
            "config/src/main/resources/shared/svc0.yml",
        ]
        assert modules["svc0"]["server.servlet.context-path"] == "/zero"
        assert "server.servlet.context-path" not in modules["svc1"]
        assert all(modules[f"svc{i}"]["app.k1999"] == "v1999" for i in range(30))

    def test_an_application_name_leading_out_of_the_location_serves_nothing(self, tmp_path, monkeypatch) -> None:
        import os

        import indexer.frameworks.spring_config as spring_config
        from tests.resolution_harness import write_tree

        outside = write_tree(tmp_path / "outside", {"application.yml": "server:\n  port: 1\n"})
        root = _config_repo(tmp_path / "repo", 0, app_names=["..", "../../outside", "shared"],
                            search="classpath:/shared/{application}")
        listed: list[str] = []
        real = os.listdir
        monkeypatch.setattr(spring_config.os, "listdir", lambda p: listed.append(str(p)) or real(p))
        modules = spring_config.load_module_properties(root)
        # "..", "../../outside": never a folder listed above the location (the file outside is not read either)
        assert listed == [str(root / "config/src/main/resources/shared/shared")]
        assert outside.is_dir()
        assert "server.port" not in modules["svc0"] and "server.port" not in modules["svc1"]
        assert "app.k1" not in modules["svc0"]


# -- session 59's request-path targets attacked: backtracking templates, any-method routes, long paths -

HOSTILE_ROUTES = '''
from flask import Flask

app = Flask(__name__)


@app.route("/t/<a><b><c><d><e><f><g><h><i><j><k><l>x")
def glued(a, b, c, d, e, f, g, h, i, j, k, l):
    return "g"


@app.route("/files/<path:name>", methods=["GET"])
def files(name):
    return name
'''


@pytest.fixture(scope="module")
def hostile_routes_db(tmp_path_factory) -> Path:
    from indexer.pipeline import index_repository
    from indexer.run import IndexOptions
    from stores.embedded import EmbeddedStore
    from tests.resolution_harness import write_tree

    tmp = tmp_path_factory.mktemp("routes60")
    root = write_tree(tmp / "app", {"app.py": HOSTILE_ROUTES,
                                    "web/pages/api/any/[key].js": "export default function any(req, res) { res.end(); }\n"})
    db = tmp / "x.db"
    store = EmbeddedStore(db)
    try:
        index_repository(root, store, store, IndexOptions(repo="app", jobs=1))
    finally:
        store.close()
    return db


class TestRequestPathTargetsAttacked:
    def test_glued_parameters_match_in_linear_time(self, hostile_routes_db) -> None:
        import time

        from analysis.navigation import routes_serving
        from stores.embedded import EmbeddedStore

        store = EmbeddedStore(hostile_routes_db)
        try:
            names = sorted(n.name for n in store.labelled(["Endpoint"]))
            assert "GET /t/{}{}{}{}{}{}{}{}{}{}{}{}x" in names
            started = time.monotonic()
            # 12 glued parameters against 60 characters without the final x: a [^/]+ regular expression
            # backtracked for hours; each piece taken at its leftmost place answers at once
            assert routes_serving(store, "GET", "/t/" + "a" * 60) == []
            assert [n.id for n in routes_serving(store, "GET", "/t/" + "a" * 60 + "x")] == [
                "endpoint:GET /t/{}{}{}{}{}{}{}{}{}{}{}{}x"]
            # fewer characters than parameters: no match
            assert routes_serving(store, "GET", "/t/aaax") == []
            assert time.monotonic() - started < 5
        finally:
            store.close()

    def test_long_empty_and_metacharacter_paths(self, hostile_routes_db) -> None:
        from click.testing import CliRunner

        from lsp_server.cli import main

        env = {"RIPPLE_CONFIG": None, "RIPPLE_DB": None, "RIPPLE_GRAPH_BACKEND": None, "RIPPLE_SEARCH_BACKEND": None}

        def callers(target: str):
            return CliRunner().invoke(main, ["callers", target, "--db", str(hostile_routes_db)], env=env)

        # regular-expression characters are text: /files/(.*)+$ is one segment served by files/{}
        result = callers("GET /files/(.*)+$")
        assert result.exit_code == 0
        assert result.stdout.splitlines()[0] == "GET /files/<path:name>  (endpoint endpoint:GET /files/{})"
        # 10,000 segments: no endpoint, a short message (the path cut), no closest endpoint
        long_path = "GET /" + "/".join(["a"] * 10_000)
        result = callers(long_path)
        assert result.exit_code == 1
        assert result.stderr == (f"Error: no endpoint matches {long_path[:200]!r}… (20,004 characters); "
                                 "`ripple endpoints --unserved` lists them all\n")
        result = callers("GET /")
        assert result.exit_code == 1
        assert result.stderr == "Error: no endpoint matches 'GET /'; `ripple endpoints --unserved` lists them all\n"
        # a route of any method, written as `ripple endpoints` prints it ("no symbol matches" before)
        result = callers("* /api/any/{key}")
        assert result.exit_code == 0
        assert result.stdout.splitlines()[0] == "* /api/any/{key}  (endpoint endpoint:* /api/any/{})"
        result = callers("* /api/any/7")
        assert result.exit_code == 0
        assert result.stdout == "* /api/any/{key}  (endpoint endpoint:* /api/any/{})\n0 call sites\n"
        # a GET request is served by the any-method route too, a "*" request by no GET route
        assert callers("GET /api/any/7").stdout == "* /api/any/{key}  (endpoint endpoint:* /api/any/{})\n0 call sites\n"
        result = callers("* /files/x")
        assert result.exit_code == 1
        assert result.stderr == ("Error: no endpoint matches '* /files/x'; closest: GET /files/{}; "
                                 "`ripple endpoints --unserved` lists them all\n")


# -- opentelemetry-demo's compose: every service built from the root, its Dockerfile named by .env -----

COMPOSE = """services:
  cart:
    build:
      context: ./
      dockerfile: ${CART_DOCKERFILE}
  checkout:
    build:
      context: ./
      dockerfile: ${CHECKOUT_DOCKERFILE:-./src/checkout/Dockerfile}
  quote:
    build:
      context: ./
      dockerfile: ${QUOTE_DOCKERFILE}
  escape:
    build:
      context: ./src
      dockerfile: ../../outside/Dockerfile
  frontend:
    build:
      context: ./
      dockerfile: ./src/frontend/Dockerfile
"""


class TestComposeDockerfileFolders:
    def test_each_service_names_its_dockerfile_s_folder(self, tmp_path) -> None:
        from indexer.frameworks.services import service_map
        from tests.resolution_harness import write_tree

        root = write_tree(tmp_path / "repo", {
            "compose.yaml": COMPOSE,
            "compose.tests.yaml": ("services:\n  frontendTests:\n    build:\n      context: ./\n"
                                   "      dockerfile: ./src/frontend/Dockerfile.cypress\n"),
            ".env": "CART_DOCKERFILE=./src/cart/src/Dockerfile\nSECRET=hunter2\n",
            "src/cart/src/Dockerfile": "FROM x\nCOPY . .\n",
            "src/cart/src/Program.cs": "class P {}\n",
            "src/checkout/Dockerfile": "FROM x\nCOPY . .\n",
            "src/quote/Dockerfile": "FROM x\nCOPY . .\n",
            "src/frontend/Dockerfile": "FROM x\nCOPY . .\n",
            "src/frontend/Dockerfile.cypress": "FROM x\nCOPY . .\n",
        })
        units = {f: (u.name, u.how) for f, u in service_map(root).units.items()}
        assert units == {
            # a variable of the .env beside the compose file, a default, the default compose file first
            "src/cart/src": ("cart", "compose"),
            "src/checkout": ("checkout", "compose"),
            "src/frontend": ("frontend", "compose"),
            # QUOTE_DOCKERFILE has no value here, and escape's Dockerfile leads out of the repository:
            # their contexts keep the compose names (the root: the first; src: escape)
            "": ("quote", "compose"),
            "src": ("escape", "compose"),
            "src/quote": ("quote", "folder"),
        }
