"""Kafka Streams topologies in Java (brk67a, on piomin/sample-spring-kafka-microservices): a ``StreamsBuilder``'s
``stream`` / ``table`` / ``globalTable`` source topics are consumed by the method building the topology, and a
stream's ``to`` / ``through`` produce; so a processor handed to the topology (``service::confirm``) is reached
through its topics. Exact facts and edges, and what must not be read (a ``Pattern`` source, a
``TopicNameExtractor``, ``to`` on another type, a list's ``stream()``, a file without Kafka Streams)."""

from __future__ import annotations

import textwrap

from indexer.languages.java import EXTRACTOR
from indexer.model import FileExtraction
from tests.resolution_harness import edges, resolve_fixture


def extract(code: str) -> FileExtraction:
    return EXTRACTOR.extract("src/main/java/shop/OrderApp.java", textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def uses(fx: FileExtraction) -> list[tuple]:
    return [(t.framework, t.role, t.topic.parts, t.owner, t.line, t.col) for t in fx.topics]


APP = """
package shop;

import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;
import org.apache.kafka.streams.kstream.KTable;

public class OrderApp {
    static final String ORDERS = "orders";
    private OrderManageService service;
    private Converter converter;

    public KStream<Long, Order> stream(StreamsBuilder builder) {
        KStream<Long, Order> stream = builder.stream("payment-orders");
        stream.join(builder.stream("stock-orders"), service::confirm)
              .peek((k, o) -> log(o))
              .to(ORDERS);
        builder.stream(Pattern.compile("audit-.*")).to((k, v, ctx) -> "out-" + k);
        return stream;
    }

    public KTable<Long, Order> table(StreamsBuilder builder) {
        KTable<Long, Order> t = builder.table(ORDERS);
        t.toStream().through("orders-copy");
        builder.stream(List.of("a", "b")).mapValues(v -> v).to("merged");
        return t;
    }

    void other(List<Order> orders) {
        orders.stream().map(o -> o).forEach(o -> log(o));
        converter.to("orders-not-a-topic");
    }

    void log(Object o) { }
}
"""


def test_sources_are_consumed_by_the_topology_method_and_sinks_produced() -> None:
    assert uses(extract(APP)) == [
        ("kafka-streams", "consumes", (("lit", "payment-orders"),), "OrderApp.stream", 15, 46),
        ("kafka-streams", "consumes", (("lit", "stock-orders"),), "OrderApp.stream", 16, 28),
        ("kafka-streams", "produces", (("ref", "ORDERS"),), "OrderApp.stream", 18, 15),
        ("kafka-streams", "consumes", (("ref", "ORDERS"),), "OrderApp.table", 24, 40),
        ("kafka-streams", "produces", (("lit", "orders-copy"),), "OrderApp.table", 25, 21),
        ("kafka-streams", "consumes", (("lit", "a"),), "OrderApp.table", 26, 16),
        ("kafka-streams", "consumes", (("lit", "b"),), "OrderApp.table", 26, 16),
        ("kafka-streams", "produces", (("lit", "merged"),), "OrderApp.table", 26, 60),
    ]  # Pattern source, TopicNameExtractor lambda, a list's stream(), Converter.to: nothing


def test_a_file_without_kafka_streams_declares_nothing() -> None:
    assert uses(extract(APP.replace("import org.apache.kafka.streams.", "import org.example.streams."))) == []


FIXTURE = """
// --- path: payment/src/main/java/pay/OrderManageService.java ---
package pay;

import org.springframework.kafka.core.KafkaTemplate;

public class OrderManageService {
    private KafkaTemplate<Long, Order> template;

    public void reserve(Order order) {
        template.send("payment-orders", order.getId(), order);
    }
}
// --- path: order/src/main/java/shop/OrderManageService.java ---
package shop;

public class OrderManageService {
    public Order confirm(Order a, Order b) { return a; }
}
// --- path: order/src/main/java/shop/OrderApp.java ---
package shop;

import org.apache.kafka.streams.StreamsBuilder;
import org.apache.kafka.streams.kstream.KStream;

public class OrderApp {
    private OrderManageService service;

    public KStream<Long, Order> stream(StreamsBuilder builder) {
        KStream<Long, Order> stream = builder.stream("payment-orders");
        stream.join(builder.stream("stock-orders"), service::confirm).to("orders");
        return stream;
    }
}
"""


def test_the_processor_is_reached_through_the_topic_its_topology_reads() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "CONSUMES") == [
        "order/src/main/java/shop/OrderApp.OrderApp.stream(StreamsBuilder) -> topic:payment-orders",
        "order/src/main/java/shop/OrderApp.OrderApp.stream(StreamsBuilder) -> topic:stock-orders",
    ]
    assert edges(result, "PRODUCES") == [
        "order/src/main/java/shop/OrderApp.OrderApp.stream(StreamsBuilder) -> topic:orders",
        "payment/src/main/java/pay/OrderManageService.OrderManageService.reserve(Order) -> topic:payment-orders",
    ]
    assert "order/src/main/java/shop/OrderApp.OrderApp.stream(StreamsBuilder) -> " \
           "order/src/main/java/shop/OrderManageService.OrderManageService.confirm(Order,Order)" in [e.removesuffix(" [exact]") for e in edges(result)]
