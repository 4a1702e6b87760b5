"""A topic passed into a helper's parameter (session 67, r67c): ``publish("orders", m)`` where ``publish(topic, m)``
calls ``kafkaTemplate.send(topic, m)`` produces to ``orders`` at the call site (``match`` ``inferred``, ``via`` the
wrapper), in Java, C#, Python and TypeScript; what must not link: a parameter assigned again before the use, a
variable or a parameter handed on (a wrapper of a wrapper, one level only); the wrapper's own use stays reported
unlinked unless every call of it is served."""

from __future__ import annotations

import pytest

from indexer.frameworks.arg_call_rule import keeps
from indexer.model import Template
from indexer.parked import ParkedList
from indexer.resolve.repository import RepositoryResolver
from indexer.spill import SpillFile
from tests.resolution_harness import REPO, edges, extract_fixture, resolve_fixture

JAVA = """
// --- path: src/main/java/shop/Publisher.java ---
package shop;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
@Component
public class Publisher {
    private final KafkaTemplate<String, Object> kafkaTemplate;
    public Publisher(KafkaTemplate<String, Object> kafkaTemplate) { this.kafkaTemplate = kafkaTemplate; }
    public void publish(String topic, Object msg) { kafkaTemplate.send(topic, msg); }
    public void publishTwice(String topic, Object msg) { topic = topic + ".v2"; kafkaTemplate.send(topic, msg); }
    public void audit(String topic, Object msg) { kafkaTemplate.send(topic, msg); }
}
// --- path: src/main/java/shop/Topics.java ---
package shop;
public final class Topics { public static final String PAID = "order-paid"; }
// --- path: src/main/java/shop/OrderService.java ---
package shop;
public class OrderService {
    private final Publisher publisher;
    public OrderService(Publisher publisher) { this.publisher = publisher; }
    public void create(Object o) { publisher.publish("order-created", o); }
    public void pay(Object o) { this.publisher.publish(Topics.PAID, o); }
    public void twice(Object o) { publisher.publishTwice("twice", o); }
    public void audited(Object o) { publisher.audit("audit-log", o); }
    public void dynamic(Object o) { String name = o.toString(); publisher.audit(name, o); }
}
"""


def _props(result, kind: str) -> dict[str, dict]:
    return {f"{e.src.removeprefix(REPO + ':')} -> {e.dst}": dict(e.props)
            for f in result.files for e in f.edges if e.kind == kind}


def test_java_call_sites_produce_the_literal_and_the_constant() -> None:
    r = resolve_fixture(JAVA)
    assert edges(r, "PRODUCES") == [
        "src/main/java/shop/OrderService.OrderService.audited(Object) -> topic:audit-log",
        "src/main/java/shop/OrderService.OrderService.create(Object) -> topic:order-created",
        "src/main/java/shop/OrderService.OrderService.pay(Object) -> topic:order-paid",
    ]
    props = _props(r, "PRODUCES")["src/main/java/shop/OrderService.OrderService.create(Object) -> topic:order-created"]
    assert props["match"] == "inferred" and props["via"] == "Publisher.publish"
    # served by every call: publish is no longer unlinked; publishTwice (reassigned) and audit (one caller passes
    # a variable) still are; "twice" links nowhere
    assert edges(r, "UNLINKED") == [
        "src/main/java/shop/Publisher.Publisher.audit(String,Object) -> unlinked:topic",
        "src/main/java/shop/Publisher.Publisher.publishTwice(String,Object) -> unlinked:topic",
    ]


CSHARP = """
// --- path: Orders/Bus.cs ---
using Confluent.Kafka;
namespace Shop.Orders;
public class Bus
{
    private readonly IProducer<string, string> _producer;
    public Task ProduceAsync(string topic, string m) => _producer.ProduceAsync(topic, new Message<string, string> { Value = m });
    public void Send(string topic, string m) { topic = topic + ".v2"; _producer.Produce(topic, new Message<string, string> { Value = m }); }
}
// --- path: Orders/Orders.cs ---
namespace Shop.Orders;
public static class Topics { public const string Paid = "order-paid"; }
public class Orders
{
    private readonly Bus _bus;
    public Orders(Bus bus) { _bus = bus; }
    public async Task Create(string m) { await _bus.ProduceAsync("order-created", m); }
    public async Task Pay(string m) { await _bus.ProduceAsync(Topics.Paid, m); }
    public void Twice(string m) { _bus.Send("twice", m); }
}
"""


def test_csharp_produce_async_wrapper() -> None:
    r = resolve_fixture(CSHARP)
    kafka = [e for e in edges(r, "PRODUCES") if "topic:order" in e or "twice" in e]
    assert kafka == [
        "Orders/Orders.Orders.Create(1) -> topic:order-created",
        "Orders/Orders.Orders.Pay(1) -> topic:order-paid",
    ]
    assert edges(r, "UNLINKED") == ["Orders/Bus.Bus.Send(2) -> unlinked:topic"]


def test_csharp_a_variable_caller_keeps_the_wrapper_reported() -> None:
    extra = CSHARP.replace("    public void Twice(string m)",
                           "    public async Task Other(string name, string m) { await _bus.ProduceAsync(name, m); }\n"
                           "    public void Twice(string m)")
    r = resolve_fixture(extra)
    assert "Orders/Bus.Bus.ProduceAsync(2) -> unlinked:topic" in edges(r, "UNLINKED")
    assert not any("Other" in e for e in edges(r, "PRODUCES"))


PYTHON = """
# --- path: shop/bus.py ---
from kafka import KafkaProducer
producer = KafkaProducer(bootstrap_servers="k:9092")
ORDERS_PAID = "order-paid"
def publish(topic, body):
    producer.send(topic, body)
def publish_v2(topic, body):
    topic += ".v2"
    producer.send(topic, body)
class Bus:
    def __init__(self):
        self.producer = KafkaProducer()
    def emit(self, topic, body):
        self.producer.send(topic, body)
# --- path: shop/orders.py ---
from shop.bus import publish, publish_v2, Bus, ORDERS_PAID
bus = Bus()
def create(o):
    publish("order-created", o)
def pay(o):
    publish(ORDERS_PAID, o)
def twice(o):
    publish_v2("twice", o)
def ship(o):
    bus.emit("order-shipped", o)
def notify(t, o):
    bus.emit(t, o)
def late(o):
    notify("order-late", o)
"""


def test_python_functions_and_methods() -> None:
    r = resolve_fixture(PYTHON)
    assert edges(r, "PRODUCES") == [
        "shop/orders.create(1) -> topic:order-created",
        "shop/orders.pay(1) -> topic:order-paid",
        "shop/orders.ship(1) -> topic:order-shipped",
    ]
    # emit is also called by notify with its own parameter (a wrapper of a wrapper: not followed, so
    # "order-late" links nowhere and emit stays reported); publish_v2 reassigns its parameter
    assert edges(r, "UNLINKED") == ["shop/bus.Bus.emit(2) -> unlinked:topic", "shop/bus.publish_v2(2) -> unlinked:topic"]
    assert r.link_outcomes.get("topic_wrapper") == 1  # publish's own use, served by both its calls


TYPESCRIPT = """
// --- path: src/bus.ts ---
import { Kafka } from 'kafkajs';
const kafka = new Kafka({ brokers: ['k:9092'] });
export class Bus {
  private producer = kafka.producer();
  async emit(topic: string, p: any) { await this.producer.send({ topic, messages: [{ value: JSON.stringify(p) }] }); }
}
export const ORDERS = 'orders-created';
// --- path: src/orders.ts ---
import { Bus, ORDERS } from './bus';
export class Orders {
  constructor(private bus: Bus) {}
  async create(o: any) { await this.bus.emit('order-created', o); }
  async cancel(o: any) { await this.bus.emit(ORDERS, o); }
}
"""


def test_typescript_kafkajs_wrapper() -> None:
    r = resolve_fixture(TYPESCRIPT)
    assert edges(r, "PRODUCES") == [
        "src/orders.Orders.cancel(1) -> topic:orders-created",
        "src/orders.Orders.create(1) -> topic:order-created",
    ]
    assert edges(r, "UNLINKED") == []


def test_candidate_rule() -> None:
    assert keeps([Template.of("orders-created")])
    assert keeps([None, Template((("ref", "Topics.ORDERS"),))])
    assert keeps([Template((("ref", "Topics.OrderCreated"),))])
    assert not keeps([Template.of("Saved order {}")])  # a message
    assert not keeps([Template.of("1")])  # an id
    assert not keeps([Template((("ref", "name"),))])  # a variable or parameter
    assert not keeps([Template((("hole", "o.toString()"),))])


JAVA_INTERFACE = """
// --- path: src/main/java/shop/KafkaService.java ---
package shop;
public interface KafkaService { void sendMessage(String topic, String message); }
// --- path: src/main/java/shop/KafkaServiceImpl.java ---
package shop;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.stereotype.Component;
@Component
public class KafkaServiceImpl implements KafkaService {
    private KafkaTemplate<String, String> kafkaTemplate;
    @Override
    public void sendMessage(String topic, String message) { kafkaTemplate.send(topic, message); }
}
// --- path: src/main/java/shop/CartService.java ---
package shop;
public class CartService {
    private final KafkaService kafkaService;
    public CartService(KafkaService kafkaService) { this.kafkaService = kafkaService; }
    public void checkout(String id) { kafkaService.sendMessage("cart-checked-out", id); }
}
"""


def test_java_call_through_the_interface_reaches_the_implementation() -> None:
    r = resolve_fixture(JAVA_INTERFACE)
    assert edges(r, "PRODUCES") == ["src/main/java/shop/CartService.CartService.checkout(String) -> topic:cart-checked-out"]
    props = _props(r, "PRODUCES")["src/main/java/shop/CartService.CartService.checkout(String) -> topic:cart-checked-out"]
    assert props["via"] == "KafkaServiceImpl.sendMessage" and props["match"] == "inferred"
    assert edges(r, "UNLINKED") == []


PYTHON_HTTP = """
# --- path: api/app.py ---
from flask import Flask
app = Flask(__name__)
@app.get("/orders")
def orders():
    return []
@app.get("/users")
def users():
    return []
# --- path: client/api.py ---
import requests
BASE = "http://api"
def get(path):
    return requests.get(BASE + path)
def load():
    return get("/orders")
def load_some(which):
    return get(which)
def settings(d):
    return d.get("/users")
"""


def test_python_http_wrapper_call_sites_request_the_literal_path() -> None:
    """The same candidate calls feed the client templates (:mod:`indexer.frameworks.client_chains`) in Python: the
    call passing a literal requests it; a variable passes nothing known and a dict's ``get`` is no candidate."""
    r = resolve_fixture(PYTHON_HTTP)
    assert edges(r, "CALLS_HTTP") == ["client/api.load(0) -> endpoint:GET /orders"]


KOTLIN = """
// --- path: src/main/kotlin/shop/Publisher.kt ---
package shop
import org.springframework.kafka.core.KafkaTemplate
import org.springframework.stereotype.Component
@Component
class Publisher(private val kafkaTemplate: KafkaTemplate<String, Any>) {
    fun publish(topic: String, msg: Any) {
        kafkaTemplate.send(topic, msg)
    }
}
// --- path: src/main/kotlin/shop/Topics.kt ---
package shop
object Topics { const val PAID = "order-paid" }
// --- path: src/main/kotlin/shop/OrderService.kt ---
package shop
class OrderService(private val publisher: Publisher) {
    fun create(o: Any) { publisher.publish("order-created", o) }
    fun pay(o: Any) { publisher.publish(Topics.PAID, o) }
}
"""


def test_kotlin_wrapper() -> None:
    r = resolve_fixture(KOTLIN)
    assert edges(r, "PRODUCES") == [
        "src/main/kotlin/shop/OrderService.OrderService.create(Any) -> topic:order-created",
        "src/main/kotlin/shop/OrderService.OrderService.pay(Any) -> topic:order-paid",
    ]
    assert edges(r, "UNLINKED") == []
    # a caller handing on a variable keeps the wrapper reported and links nothing for itself
    r = resolve_fixture(KOTLIN.replace("    fun pay(o: Any)", "    fun any(t: String, o: Any) { publisher.publish(t, o) }\n"
                                                               "    fun pay(o: Any)"))
    assert edges(r, "UNLINKED") == ["src/main/kotlin/shop/Publisher.Publisher.publish(String,Any) -> unlinked:topic"]
    assert len(edges(r, "PRODUCES")) == 2


GATED = """
# --- path: shop/bus.py ---
from kafka import KafkaProducer
producer = KafkaProducer(bootstrap_servers="k:9092")
def publish(topic, body):
    return None
# --- path: shop/orders.py ---
from shop.bus import publish
def create(o):
    publish("order-created", o)
    print("order-created")
# --- path: shop/report.py ---
def render(name):
    return name
def page():
    return render("summary")
"""

WRAPPING_BUS = """
# --- path: shop/bus.py ---
from kafka import KafkaProducer
producer = KafkaProducer(bootstrap_servers="k:9092")
def publish(topic, body):
    producer.send(topic, body)
"""


@pytest.mark.parametrize("parked", [False, True])
def test_candidate_calls_are_framework_facts_only_where_a_wrapper_may_be_called(parked: bool) -> None:
    """Session 68 (acc68a): the detectors record candidate calls apart (``arg_candidates``) and the resolver keeps as
    ``url_arg_calls`` (a framework fact: the file is read by every link, and re-bound when its share changes) only
    those calling a name some function of the repository that may be a wrapper has. A wrapper appearing in one file
    gates the other files again: the caller, not edited, produces; the wrapper going takes the link away."""
    resolver = RepositoryResolver(REPO)
    if parked:  # as the one-shot run's resolver does: the candidates wait on disk, read back by the gate only
        resolver.park = SpillFile()
    files = extract_fixture(GATED)
    resolver.update(files)
    every = [ex.path for ex, _, _ in files]
    plain = resolver.resolve(every)
    held = {p: resolver.files[p].ex for p in every}
    assert isinstance(held["shop/orders.py"].arg_candidates, ParkedList) is parked
    assert [(c.callee, c.caller) for c in held["shop/orders.py"].arg_candidates] == [("publish", "create")]
    assert [(c.callee, c.caller) for c in held["shop/report.py"].arg_candidates] == [("render", "page")]
    assert [p for p in every if held[p].url_arg_calls] == []  # no wrapper anywhere: nothing kept
    assert edges(plain, "PRODUCES") == []

    resolver.update(extract_fixture(WRAPPING_BUS))  # publish now sends its parameter
    wrapped = resolver.resolve(["shop/bus.py"])
    assert edges(wrapped, "PRODUCES") == ["shop/orders.create(1) -> topic:order-created"]
    assert sorted(f.file.path for f in wrapped.files) == ["shop/bus.py", "shop/orders.py"]  # the caller re-linked
    assert [(c.callee, c.args[0].parts) for c in resolver.files["shop/orders.py"].ex.url_arg_calls] == [
        ("publish", (("lit", "order-created"),))]
    assert resolver.files["shop/report.py"].ex.url_arg_calls == []  # render is no wrapper's name

    resolver.update([f for f in extract_fixture(GATED) if f[0].path == "shop/bus.py"])  # the wrapper goes
    back = resolver.resolve(["shop/bus.py"])
    assert edges(back, "PRODUCES") == []
    assert "shop/orders.py" in [f.file.path for f in back.files]  # produced again, without its PRODUCES edge
    assert resolver.files["shop/orders.py"].ex.url_arg_calls == []
