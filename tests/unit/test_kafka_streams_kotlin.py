"""Kafka Streams topologies in Kotlin (brk67a; the Java detector's rules): a ``StreamsBuilder``'s ``stream`` /
``table`` source topics are consumed by the function building the topology, a stream's ``to`` / ``through``
produce, the stream a typed name, a name bound to a source call (``val s = builder.stream<K, V>("t")``) or a
source call in the chain; and what must not be read (a lambda ``TopicNameExtractor``, ``to`` on another type, an
infix ``to`` pair, a collection's ``stream()``, a file without Kafka Streams)."""

from __future__ import annotations

import textwrap

from indexer.languages.kotlin.extractor import EXTRACTOR
from indexer.model import FileExtraction
from tests.resolution_harness import edges, resolve_fixture


def extract(code: str, path: str = "src/main/kotlin/shop/App.kt") -> FileExtraction:
    return EXTRACTOR.extract(path, textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def uses(fx: FileExtraction) -> list[tuple]:
    return [(t.framework, t.role, t.topic.parts, t.owner, t.line, t.col) for t in fx.topics]


APP = """
package shop

import org.apache.kafka.streams.StreamsBuilder
import org.apache.kafka.streams.kstream.KStream

const val OUT = "out"

class App(private val service: Service, private val converter: Converter) {
    fun topology(builder: StreamsBuilder): KStream<String, Order> {
        val stream = builder.stream<String, Order>("orders")
        stream.mapValues { v -> service.confirm(v) }.to("confirmed")
        val typed: KStream<String, Order> = builder.stream(listOf("a", "b"))
        typed.to(OUT)
        builder.table<String, Order>("tables").toStream().through("copy")
        stream.to { k, v, ctx -> "dyn-$k" }
        return stream
    }

    fun other(orders: List<Order>) {
        orders.stream().map { it }
        converter.to("not-a-topic")
        val pair = "a" to "b"
    }
}
"""


def test_sources_are_consumed_by_the_topology_function_and_sinks_produced() -> None:
    assert uses(extract(APP)) == [
        ("kafka-streams", "consumes", (("lit", "orders"),), "App.topology", 10, 29),
        ("kafka-streams", "produces", (("lit", "confirmed"),), "App.topology", 11, 53),
        ("kafka-streams", "consumes", (("lit", "a"),), "App.topology", 12, 52),
        ("kafka-streams", "consumes", (("lit", "b"),), "App.topology", 12, 52),
        ("kafka-streams", "produces", (("ref", "OUT"),), "App.topology", 13, 14),
        ("kafka-streams", "consumes", (("lit", "tables"),), "App.topology", 14, 16),
        ("kafka-streams", "produces", (("lit", "copy"),), "App.topology", 14, 58),
    ]  # the lambda extractor, a List's stream(), Converter.to, the infix pair: nothing


def test_a_file_without_kafka_streams_declares_nothing() -> None:
    assert uses(extract(APP.replace("import org.apache.kafka.streams.", "import org.example.streams."))) == []


FIXTURE = """
// --- path: order/src/main/kotlin/shop/App.kt ---
package shop

import org.apache.kafka.streams.StreamsBuilder

class App(private val service: OrderService) {
    fun topology(builder: StreamsBuilder) {
        builder.stream<String, Order>("payment-orders").mapValues { v -> service.confirm(v) }.to(OUT)
    }
}
// --- path: order/src/main/kotlin/shop/OrderService.kt ---
package shop

const val OUT = "orders"

class OrderService {
    fun confirm(o: Order): Order = o
}
"""


def test_the_topology_consumes_and_produces_the_rendered_topics() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "CONSUMES") == ["order/src/main/kotlin/shop/App.App.topology(StreamsBuilder) -> topic:payment-orders"]
    assert edges(result, "PRODUCES") == ["order/src/main/kotlin/shop/App.App.topology(StreamsBuilder) -> topic:orders"]
