"""Session 62, brk62: a newcomer on instana/robot-shop and microservices-patterns/ftgo-application, and
session 61's additions attacked. Each class is one defect found, with exact expectations and what must
not be linked. Every input is generated here.

- :class:`TestRequestPackage`: robot-shop's cart (``const request = require('request')``) asks the
  catalogue for a product with ``request('http://' + catalogueHost + ':8080/product/' + sku, cb)``; the
  npm ``request`` package (and request-promise) was no HTTP client: ``GET /product/:sku`` had no client.
- :class:`TestGatewayCounts`: a Spring Cloud Gateway route with ``StripPrefix=²`` (``str.isdigit`` says
  yes, ``int`` raises) or a number of 5,000 digits (past ``int``'s 4,300-digit limit), or a route index
  that long in a ``.properties`` file, raised ``ValueError`` out of the link options: ``ripple index``
  ended with a traceback and wrote nothing.
- :class:`TestDoublingConstants`: constants that each join the one before twice (``S1 = S0 + S0`` ...
  ``S59``, 60 lines) are 2**60 characters: the link's constant values (Java, a Kafka topic) grew until
  ``MemoryError`` ended the index, and C#'s extraction, which inlines a file's constants, took 3 GB on
  the 30th (the file was dropped as ``extract_failed``; without a memory limit the machine's memory).
- :class:`TestApexOrgScale`: every sObject name a trigger or DML statement writes (``Obj0__c``) was
  looked up as an Apex class in every file of the org (one namespace): 1,000 triggers on 1,000 custom
  objects read 1,000,000 file names, 31 of the resolve's 49 s in process.
- :class:`TestApacheHttpClient`: robot-shop's shipping service posts to the cart with Apache HttpClient
  (``new HttpPost(baseUrl + id)``, then ``httpClient.execute``); no Apache HttpClient request was read.
- :class:`TestGatewayAtScale`: every client URL was tried against every gateway route in order
  (``fnmatch`` per segment): 10,000 routes and 200 client URLs took 92 s at load 66 in the link step.
- :class:`TestEndpointTargetDiagram`: ``ripple impact "GET /product/:sku"``'s diagram drew the endpoint
  target inside a subgraph titled ``""`` (an endpoint belongs to no repository) and defined its node twice.
- :class:`TestGoRabbitMq`: robot-shop's dispatch service (Go, ``github.com/streadway/amqp``) consumes
  the ``orders`` queue payment (Python, pika) publishes to; no Go RabbitMQ client was read, so the
  topic had a producer and no consumer and the blast radius of dispatch's code stopped at ``main``.
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.frameworks.spring_config import gateway_route_list, gateway_routes
from indexer.languages import extractor_for_path
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from stores.gateway import GatewayRoute, count
from tests.resolution_harness import edges, resolve_fixture, write_tree

# -- robot-shop's payment -> dispatch: pika publishes, streadway/amqp consumes --------------------------

ROBOT_SHOP = """
# --- path: payment/rabbitmq.py ---
import pika

class Publisher:
    EXCHANGE = 'robot-shop'
    ROUTING_KEY = 'orders'

    def __init__(self):
        self._conn = pika.BlockingConnection(pika.ConnectionParameters(host='rabbitmq'))
        self._channel = self._conn.channel()

    def publish(self, msg):
        self._channel.basic_publish(exchange=self.EXCHANGE, routing_key=self.ROUTING_KEY, body=msg)

    def audit(self, msg):
        self._channel.basic_publish(exchange=self.EXCHANGE, routing_key='audit', body=msg)
# --- path: dispatch/main.go ---
package main

import (
	"github.com/streadway/amqp"
)

var rabbitChan *amqp.Channel

func connect() {
	queue, err := rabbitChan.QueueDeclare("orders", true, false, false, false, nil)
	if err != nil {
		return
	}
	rabbitChan.QueueBind(queue.Name, "orders", "robot-shop", false, nil)
}

func handle(body []byte) {}

func main() {
	connect()
	msgs, _ := rabbitChan.Consume("orders", "", true, false, false, false, nil)
	for d := range msgs {
		handle(d.Body)
	}
}
# --- path: notify/notify.go ---
package notify

import amqp "github.com/rabbitmq/amqp091-go"

func Send(ctx context.Context, ch *amqp.Channel, body []byte) error {
	q, _ := ch.QueueDeclare("notifications", false, false, false, false, nil)
	return ch.PublishWithContext(ctx, "", q.Name, false, false, amqp.Publishing{Body: body})
}

func Listen(ctx context.Context, ch *amqp.Channel) {
	ch.ConsumeWithContext(ctx, "notifications", "", true, false, false, false, nil)
}
# --- path: other/other.go ---
package other

type Fake struct{}

func (Fake) Consume(a, b string, c, d, e, f bool, g any) {}

func Use(x Fake) {
	x.Consume("orders", "", true, false, false, false, nil)
}
"""


def _topics(path: str, source: str) -> list[tuple]:
    ex = extractor_for_path(path)
    assert ex is not None
    out = ex.extract(path, source.encode())
    return ([(t.framework, t.role, t.topic.parts, t.exchange.parts if t.exchange else None, t.owner)
             for t in out.topics],
            [(b.queue.parts, b.exchange.parts, b.key.parts, b.owner) for b in out.queue_bindings])


class TestGoRabbitMq:
    def test_streadway_consume_publish_and_binding_are_read(self):
        topics, bindings = _topics("dispatch/main.go", ROBOT_SHOP.split("# --- path: dispatch/main.go ---\n")[1]
                                   .split("# --- path:")[0])
        assert topics == [("amqp", "consumes", (("lit", "orders"),), None, "main")]
        # queue.Name is the queue QueueDeclare("orders") declared
        assert bindings == [((("lit", "orders"),), (("lit", "robot-shop"),), (("lit", "orders"),), "connect")]

    def test_amqp091_context_variants_and_the_default_exchange(self):
        src = ROBOT_SHOP.split("# --- path: notify/notify.go ---\n")[1].split("# --- path:")[0]
        topics, bindings = _topics("notify/notify.go", src)
        assert topics == [
            ("amqp", "produces", (("lit", "notifications"),), (), "Send"),
            ("amqp", "consumes", (("lit", "notifications"),), None, "Listen"),
        ]
        assert bindings == []

    def test_without_the_import_nothing_is_a_queue(self):
        src = ROBOT_SHOP.split("# --- path: other/other.go ---\n")[1]
        assert _topics("other/other.go", src) == ([], [])

    def test_wrong_arity_and_a_queue_given_twice_are_not_read(self):
        src = """package m

import "github.com/streadway/amqp"

func F(ch *amqp.Channel) {
	ch.Consume("a", "", true)
	ch.Publish("x", "k", false, amqp.Publishing{})
	q, _ := ch.QueueDeclare("one", true, false, false, false, nil)
	q, _ = ch.QueueDeclare("two", true, false, false, false, nil)
	ch.Consume(q.Name, "", true, false, false, false, nil)
}
"""
        # 3 arguments is no Consume, 4 no Publish; q has two values, so q.Name is neither 'one' nor 'two'
        assert _topics("m/m.go", src) == ([], [])

    def test_the_python_publish_reaches_the_go_consumer_through_the_binding(self):
        result = resolve_fixture(ROBOT_SHOP)
        # audit's key 'audit' matches no binding of the exchange robot-shop: no queue, no topic
        assert edges(result, "PRODUCES") == [
            "notify/notify.Send(3) -> topic:rabbitmq:notifications",
            "payment/rabbitmq.Publisher.publish(1) -> topic:rabbitmq:orders",
        ]
        # other.Fake.Consume (no amqp import) consumes nothing
        assert edges(result, "CONSUMES") == [
            "dispatch/main.main(0) -> topic:rabbitmq:orders",
            "notify/notify.Listen(2) -> topic:rabbitmq:notifications",
        ]


# -- robot-shop's cart -> catalogue: the npm `request` package ---------------------------------------------

REQUEST = """
# --- path: catalogue/server.js ---
const express = require('express');
const app = express();
app.get('/product/:sku', (req, res) => { res.json({}); });
app.delete('/product/:sku', (req, res) => { res.send('ok'); });
app.post('/products', (req, res) => { res.send('ok'); });
app.put('/rate/:sku', (req, res) => { res.send('ok'); });
app.listen(8080);
# --- path: cart/server.js ---
const request = require('request');
const rp = require('request-promise');
var catalogueHost = process.env.CATALOGUE_HOST || 'catalogue';

function getProduct(sku) {
    return new Promise((resolve, reject) => {
        request('http://' + catalogueHost + ':8080/product/' + sku, (err, res, body) => resolve(body));
    });
}

function removeProduct(sku) {
    request.del('http://' + catalogueHost + ':8080/product/' + sku, () => {});
}

function addProduct(p) {
    return rp({ uri: '/products', baseUrl: 'http://' + catalogueHost + ':8080', method: 'POST', json: p });
}

function rate(sku) {
    return rp('http://catalogue:8080/rate/' + sku, { method: 'put' });
}
# --- path: web/helpers.js ---
function request(url, cb) { return cb(url); }
request('/product/1', () => {});
# --- path: test/app.test.js ---
const request = require('supertest');
const app = require('../catalogue/server');
request(app).get('/product/1');
"""


def _http_calls(path: str, fixture: str) -> list[tuple]:
    from tests.resolution_harness import split_fixture
    src = split_fixture(fixture)[path]
    ex = extractor_for_path(path)
    assert ex is not None
    out = ex.extract(path, src.encode())
    return [(h.framework, h.method, h.url.parts, h.caller) for h in out.http_calls]


class TestRequestPackage:
    def test_request_calls_are_http_clients(self):
        assert _http_calls("cart/server.js", REQUEST) == [
            ("request", "GET", (("lit", "http://"), ("ref", "catalogueHost"), ("lit", ":8080/product/"),
                                ("ref", "sku")), "getProduct"),
            ("request", "DELETE", (("lit", "http://"), ("ref", "catalogueHost"), ("lit", ":8080/product/"),
                                   ("ref", "sku")), "removeProduct"),
            ("request", "POST", (("lit", "http://"), ("ref", "catalogueHost"), ("lit", ":8080/products")),
             "addProduct"),
            ("request", "PUT", (("lit", "http://catalogue:8080/rate/"), ("ref", "sku")), "rate"),
        ]

    def test_a_function_named_request_and_supertest_are_not_the_package(self):
        assert _http_calls("web/helpers.js", REQUEST) == []
        assert [c[:3] for c in _http_calls("test/app.test.js", REQUEST)] == [
            ("supertest", "GET", (("lit", "/product/1"),))]

    def test_the_cart_is_a_client_of_the_catalogue(self):
        result = resolve_fixture(REQUEST)
        assert [e for e in edges(result, "CALLS_HTTP") if e.startswith("cart/")] == [
            "cart/server.addProduct(1) -> endpoint:POST /products",
            "cart/server.getProduct(1) -> endpoint:GET /product/{}",
            "cart/server.rate(1) -> endpoint:PUT /rate/{}",
            "cart/server.removeProduct(1) -> endpoint:DELETE /product/{}",
        ]


# -- session 61's gateway routes attacked: counts that are no numbers -------------------------------------

_HUGE = "9" * 5000


def _route(strip: str) -> dict[str, str]:
    return {"spring.cloud.gateway.routes[0].uri": "lb://customers-service",
            "spring.cloud.gateway.routes[0].predicates[0]": "Path=/api/customer/**",
            "spring.cloud.gateway.routes[0].filters[0]": f"StripPrefix={strip}",
            "spring.cloud.gateway.routes[1].uri": "lb://vets-service",
            "spring.cloud.gateway.routes[1].predicates[0]": "Path=/api/vet/**",
            "spring.cloud.gateway.routes[1].filters[0]": "StripPrefix=2"}


class TestGatewayCounts:
    def test_count_takes_ascii_digits_only_and_no_more_than_nine(self):
        assert [count(t) for t in ("0", " 2 ", "123456789")] == [0, 2, 123456789]
        assert [count(t) for t in ("²", "٣", "-1", "1e3", "", "1234567890", _HUGE)] == [None] * 7

    def test_a_strip_that_is_no_count_forwards_nothing_and_the_next_route_still_does(self):
        for strip in ("²", _HUGE, "-1"):
            assert gateway_routes(_route(strip)) == {"/api/vet": "vets-service"}
            routes = gateway_route_list(_route(strip))
            assert [r.service for r in routes] == ["customers-service", "vets-service"]
            assert routes[0].forward("GET", "/api/customer/owners") is None
            assert routes[1].forward("GET", "/api/vet/vets") == "/vets"
        assert GatewayRoute("s", ("/a/**",), (), (("StripPrefix", "1"),)).forward("GET", "/a/b") == "/b"

    def test_a_route_or_item_index_past_nine_digits_is_no_route(self):
        props = {f"spring.cloud.gateway.routes[{_HUGE}].uri": "lb://x",
                 f"spring.cloud.gateway.routes[{_HUGE}].predicates[0]": "Path=/x/**",
                 "spring.cloud.gateway.routes[0].uri": "lb://y",
                 f"spring.cloud.gateway.routes[0].predicates[{_HUGE}]": "Path=/z/**",
                 "spring.cloud.gateway.routes[0].predicates[1].name": "Path",
                 f"spring.cloud.gateway.routes[0].predicates[1].args.patterns[{_HUGE}]": "/y/**"}
        assert gateway_routes(props) == {}
        assert gateway_route_list(props) == [GatewayRoute("y", ("/y/**",))]

    def test_the_index_completes_and_links_through_the_other_route(self, tmp_path: Path):
        yml = ("spring:\n  application:\n    name: api-gateway\n  cloud:\n    gateway:\n      routes:\n"
               "        - id: customers\n          uri: lb://customers-service\n          predicates:\n"
               "            - Path=/api/customer/**\n          filters:\n            - StripPrefix=\u00b2\n"
               "        - id: vets\n          uri: lb://vets-service\n          predicates:\n"
               "            - Path=/api/vet/**\n          filters:\n            - StripPrefix=2\n")
        root = write_tree(tmp_path / "shop", {
            "gateway/src/main/resources/application.yml": yml,
            "gateway/src/main/resources/static/app.js": (
                "export function owners() { return fetch('/api/customer/owners'); }\n"
                "export function vets() { return fetch('/api/vet/vets'); }\n"),
        })
        store = EmbeddedStore(tmp_path / "x.db")
        try:
            index_repository(root, store, store, IndexOptions(repo="shop", jobs=1))
        finally:
            store.close()
        con = sqlite3.connect(tmp_path / "x.db")
        try:
            rows = con.execute("SELECT dst, json_extract(props, '$.service') FROM edges"
                               " WHERE kind = 'CALLS_HTTP' ORDER BY dst").fetchall()
        finally:
            con.close()
        assert rows == [("endpoint:GET /api/customer/owners", None),  # no route forwards it: called only
                        ("endpoint:GET /vets", "vets-service")]


# -- session 61's topics from constants attacked: constants that double ----------------------------------


def _doubling(line: str, n: int = 60) -> str:
    return "\n".join(line.format(i=i, j=i - 1) for i in range(1, n))


class TestDoublingConstants:
    def test_the_link_cuts_each_constant_value_as_it_cuts_the_text(self):
        from indexer.frameworks.link import MAX_RENDERED, TRUNCATED
        fixture = (
            "# --- path: src/main/java/k/Q.java ---\n"
            "package k;\nimport org.apache.kafka.clients.producer.KafkaProducer;\n"
            "import org.apache.kafka.clients.producer.ProducerRecord;\npublic class Q {\n"
            '    static final String S0 = "ab";\n'
            + _doubling("    static final String S{i} = S{j} + S{j};") + "\n"
            '    static final String SHORT = S3 + "-x";\n'
            "    void send(KafkaProducer<String, String> p) {\n"
            '        p.send(new ProducerRecord<>(S59, "k", "v"));\n'
            '        p.send(new ProducerRecord<>(SHORT, "k", "v"));\n    }\n}\n')
        result = resolve_fixture(fixture)
        assert edges(result, "PRODUCES") == [
            "src/main/java/k/Q.Q.send(KafkaProducer) -> topic:abababababababab-x",
            f"src/main/java/k/Q.Q.send(KafkaProducer) -> topic:{'ab' * (MAX_RENDERED // 2)}{TRUNCATED}",
        ]

    def test_csharp_inlined_constants_are_cut_where_they_are_joined(self):
        from indexer.string_templates import MAX_JOINED, Template
        src = ("using System.Net.Http;\npublic class A {\n    const string S0 = \"ab\";\n"
               + _doubling("    const string S{i} = S{j} + S{j};") + "\n"
               "    const string Api = \"/api/\" + S2;\n"
               "    public void F(HttpClient c) { c.GetAsync(S59); c.GetAsync(Api); }\n}\n")
        ex = extractor_for_path("A.cs").extract("A.cs", src.encode())
        values = {c.qualname: c.value.parts for c in ex.constants}
        assert values["A.S2"] == (("lit", "ab" * 4),)
        assert values["A.S15"] == (("lit", "ab" * 2 ** 15),)  # 65,536 characters: not cut
        assert values["A.S16"] == values["A.S59"] == (("lit", "ab" * (MAX_JOINED // 2) + "\u2026"),)
        assert [h.url.parts for h in ex.http_calls] == [(("lit", "ab" * (MAX_JOINED // 2) + "\u2026"),),
                                                        (("lit", "/api/abababab"),)]
        # a concatenation under the limit is untouched, references and holes kept
        t = Template((("lit", "/a/"), ("ref", "X"))) + Template((("hole", "id"), ("lit", "/b")))
        assert t.parts == (("lit", "/a/"), ("ref", "X"), ("hole", "id"), ("lit", "/b"))


# -- session 61's Apex record events attacked: triggers on 1,000 objects -----------------------------------


class TestApexOrgScale:
    def test_an_sobject_api_name_is_no_apex_type_name(self):
        from indexer.languages.apex.modules import type_name_possible
        assert [type_name_possible(n) for n in ("AccountService", "Account", "My_Handler", "X1")] == [True] * 4
        assert [type_name_possible(n) for n in ("Property__c", "Order_Event__e", "Rate__mdt", "Trailing_",
                                                "_lead", "1st", "Bad-Name", "")] == [False] * 8

    def test_triggers_and_dml_link_and_no_sobject_name_reads_the_org(self):
        n = 60
        files = {f"force-app/main/default/triggers/T{i}.trigger":
                 f"trigger T{i} on Obj{i}__c (after insert) {{\n    Handler.handle(Trigger.new);\n}}\n" for i in range(n)}
        dml = "\n".join(f"        insert new Obj{i}__c(Name = 'x');" for i in range(n))
        files["force-app/main/default/classes/Handler.cls"] = (
            "public class Handler {\n    public static void handle(List<SObject> xs) {\n" + dml + "\n"
            "        Obj_Helper.run();\n    }\n}\n")
        files["force-app/main/default/classes/Obj_Helper.cls"] = "public class Obj_Helper {\n    public static void run() {}\n}\n"
        fixture = "".join(f"# --- path: {p} ---\n{src}" for p, src in files.items())
        result = resolve_fixture(fixture)
        calls = edges(result)
        assert "force-app/main/default/classes/Handler.Handler.handle(1) -> " \
               "force-app/main/default/classes/Obj_Helper.Obj_Helper.run(0) [exact]" in calls
        assert sum(c.endswith("Handler.Handler.handle(1) [exact]") for c in calls) == n
        produces, consumes = edges(result, "PRODUCES"), edges(result, "CONSUMES")
        assert len(produces) == len(consumes) == n
        assert "force-app/main/default/triggers/T7.T7(0) -> topic:salesforce:obj7__c.insert" in consumes
        assert "force-app/main/default/classes/Handler.Handler.handle(1) -> topic:salesforce:obj7__c.insert" in produces

    def test_an_sobject_name_is_answered_without_reading_a_file(self):
        from indexer.languages.apex.modules import MODULE_SYSTEM, ORG_KEY

        class Reads:
            def __init__(self) -> None:
                self.asked: list[str] = []

            def module_files(self, lang: str, key: str) -> list:
                self.asked.append(key)
                return []

            def use(self, key: tuple) -> None:
                raise AssertionError(key)

        r = Reads()
        assert MODULE_SYSTEM.module_member(r, ORG_KEY, "Obj7__c") is None
        assert MODULE_SYSTEM.module_member(r, ORG_KEY, "Order_Event__e") is None
        assert r.asked == []
        assert MODULE_SYSTEM.module_member(r, ORG_KEY, "Handler") is None  # a type name: the org's files read
        assert r.asked == [ORG_KEY]


# -- robot-shop's shipping -> cart: Apache HttpClient requests -----------------------------------------------

APACHE = """
# --- path: catalogue/src/main/java/shop/catalogue/ProductController.java ---
package shop.catalogue;

import org.springframework.web.bind.annotation.*;

@RestController
class ProductController {
    @GetMapping("/product/{sku}") Object product(@PathVariable String sku) { return null; }
    @PostMapping("/shipping/{id}") Object ship(@PathVariable String id) { return null; }
    @DeleteMapping("/cart/{id}") Object drop(@PathVariable String id) { return null; }
}
# --- path: cart/src/main/java/shop/cart/Clients.java ---
package shop.cart;

import java.net.URI;
import org.apache.http.client.methods.HttpGet;
import org.apache.http.client.methods.HttpPost;
import org.apache.http.client.methods.RequestBuilder;
import org.apache.hc.client5.http.fluent.Request;

class Clients {
    static final String BASE = "http://catalogue:8080";
    private final String baseUrl;
    Clients(String baseUrl) { this.baseUrl = baseUrl; }

    Object product(String sku) { return new HttpGet(BASE + "/product/" + sku); }
    Object ship(String id) { return new HttpPost(URI.create("http://catalogue:8080/shipping/" + id)); }
    Object drop(String id) { return RequestBuilder.delete(BASE + "/cart/" + id).build(); }
    Object fluent(String sku) throws Exception { return Request.get(BASE + "/product/" + sku).execute(); }
    Object unknown(String url) { return new HttpGet(url); }
}
# --- path: cart/src/main/java/shop/cart/Own.java ---
package shop.cart;

class HttpGet { HttpGet(String u) {} }

class Own {
    Object mine() { return new HttpGet("http://catalogue:8080/product/1"); }
}
"""


class TestApacheHttpClient:
    def test_request_classes_and_builders_are_http_calls(self):
        assert _http_calls("cart/src/main/java/shop/cart/Clients.java", APACHE) == [
            ("apache-httpclient", "GET", (("ref", "BASE"), ("lit", "/product/"), ("hole", "sku")), "Clients.product"),
            ("apache-httpclient", "POST", (("lit", "http://catalogue:8080/shipping/"), ("hole", "id")), "Clients.ship"),
            ("apache-httpclient", "DELETE", (("ref", "BASE"), ("lit", "/cart/"), ("hole", "id")), "Clients.drop"),
            ("apache-httpclient", "GET", (("ref", "BASE"), ("lit", "/product/"), ("hole", "sku")), "Clients.fluent"),
        ]  # `new HttpGet(url)` of a parameter: no literal, no constant, no call

    def test_a_class_of_the_application_named_so_is_no_client(self):
        assert _http_calls("cart/src/main/java/shop/cart/Own.java", APACHE) == []

    def test_star_imports_count(self):
        src = ("package x;\nimport org.apache.hc.client5.http.classic.methods.*;\n"
               "class C { Object f() { return new HttpPatch(\"/items/1\"); } }\n")
        ex = extractor_for_path("x/C.java").extract("x/C.java", src.encode())
        assert [(h.method, h.url.parts) for h in ex.http_calls] == [("PATCH", (("lit", "/items/1"),))]

    def test_the_cart_is_a_client_of_the_catalogue(self):
        assert edges(resolve_fixture(APACHE), "CALLS_HTTP") == [
            "cart/src/main/java/shop/cart/Clients.Clients.drop(String) -> endpoint:DELETE /cart/{}",
            "cart/src/main/java/shop/cart/Clients.Clients.fluent(String) -> endpoint:GET /product/{}",
            "cart/src/main/java/shop/cart/Clients.Clients.product(String) -> endpoint:GET /product/{}",
            "cart/src/main/java/shop/cart/Clients.Clients.ship(String) -> endpoint:POST /shipping/{}",
        ]


# -- session 61's gateway routes attacked: 10,000 routes ------------------------------------------------------


class TestGatewayAtScale:
    def test_candidates_are_the_routes_whose_literal_prefix_the_path_starts_with_in_order(self):
        from stores.gateway import RouteTable
        routes = [GatewayRoute("wild", ("/{tenant}/orders/**",)),
                  GatewayRoute("api", ("/api/**",)),
                  GatewayRoute("cust", ("/api/customer/**",), (), (("StripPrefix", "2"),)),
                  GatewayRoute("glob", ("/api/cust*/**",)),
                  GatewayRoute("none", ()),
                  GatewayRoute("root", ("/**",))]
        table = RouteTable(routes)
        assert [r.service for r in table.candidates("/api/customer/owners")] == ["wild", "api", "cust", "glob", "root"]
        assert [r.service for r in table.candidates("/API/customer")] == ["wild", "root"]  # case kept
        assert [r.service for r in table.candidates("/api/\x00/x")] == ["wild", "api", "glob", "root"]  # no literal after a hole
        # the first that forwards wins, as Spring Cloud Gateway takes them
        assert table.first("GET", "/api/customer/owners") == (routes[1], "/api/customer/owners")
        assert table.first("GET", "/t1/orders/3") == (routes[0], "/t1/orders/3")
        assert RouteTable(routes[2:3]).first("GET", "/api/customer/owners") == (routes[2], "/owners")
        assert RouteTable(routes[2:3]).first("GET", "/api/vets") is None

    def test_ten_thousand_routes_cost_the_candidates_only(self):
        import time

        from indexer.frameworks.clients import gateway_url
        routes = tuple(GatewayRoute(f"svc{i}", (f"/api/s{i}/**",), (), (("StripPrefix", "2"),)) for i in range(10_000))
        start = time.process_time()
        found = [gateway_url(routes, "GET", f"/api/s{j * 50}/x/\x00") for j in range(200)]
        missed = [gateway_url(routes, "GET", f"/api/none{j}/x") for j in range(200)]
        assert time.process_time() - start < 20  # 92 s (load 66) when every route was tried per URL
        assert found == [(f"svc{j * 50}", "/x/{}") for j in range(200)]
        assert missed == [None] * 200


# -- the newcomer's impact of an endpoint: its diagram ---------------------------------------------------------


class TestEndpointTargetDiagram:
    def test_an_endpoint_target_is_drawn_once_outside_the_services(self, tmp_path: Path):
        from analysis.impact import SymbolQuery, blast_radius
        from analysis.impact_report import mermaid_diagram
        from tests.resolution_harness import split_fixture
        root = write_tree(tmp_path / "shop", split_fixture(REQUEST))
        store = EmbeddedStore(tmp_path / "x.db")
        try:
            index_repository(root, store, store, IndexOptions(repo="shop", jobs=1))
            diagram = mermaid_diagram(blast_radius(store, SymbolQuery("GET /product/:sku")))
        finally:
            store.close()
        lines = diagram.splitlines()
        assert '  subgraph s0["shop"]' in lines
        assert not any('subgraph' in line and '[""]' in line for line in lines)
        assert [line for line in lines if line.lstrip().startswith("t0") and "-->" not in line] == \
            ['  t0{{"GET /product/:sku"}}']  # the handler is t1, in its service
        assert '  t0 --> c0' in lines and '  t1 --> t0' in lines
