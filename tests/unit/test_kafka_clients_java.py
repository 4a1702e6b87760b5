"""Plain Apache Kafka clients in Java (session 61, svc61; the Kotlin rules): ``subscribe(List.of(t))``
consumed where ``poll`` reads it, ``send(new ProducerRecord<>(t, ...))`` on a ``KafkaProducer``
produced; exact facts and edges, and what must not be linked (a Pattern subscription, another type's
``subscribe`` / ``send``, a file without the Kafka clients)."""

from __future__ import annotations

import textwrap

from indexer.languages.java import EXTRACTOR
from indexer.model import FileExtraction
from tests.resolution_harness import edges, resolve_fixture


def extract(code: str) -> FileExtraction:
    return EXTRACTOR.extract("src/main/java/shop/Worker.java", textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def uses(fx: FileExtraction) -> list[tuple]:
    return [(t.framework, t.role, t.topic.parts, t.owner, t.line, t.col) for t in fx.topics]


WORKER = """
package shop;

import java.time.Duration;
import java.util.Collections;
import java.util.List;
import java.util.regex.Pattern;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerRecord;

public class Worker {
    static final String TOPIC = "payments";
    private final KafkaConsumer<String, String> consumer = new KafkaConsumer<>(props());
    private final KafkaProducer<String, String> producer = new KafkaProducer<>(props());
    private final Bus bus = new Bus();

    void start() {
        consumer.subscribe(Collections.singletonList(TOPIC));
        consumer.subscribe(Pattern.compile("audit.*"));
        bus.subscribe(List.of("not-kafka"));
    }

    void loop() {
        while (true) {
            this.consumer.poll(Duration.ofMillis(100)).forEach(r -> handle(r));
        }
    }

    void reply(String id) {
        producer.send(new ProducerRecord<>("receipts", id, "ok"));
        ProducerRecord<String, String> late = new ProducerRecord<>("late-" + id, id, "x");
        producer.send(late, (m, e) -> {});
        bus.send(new ProducerRecord<>("mail", id, "x"));
    }

    void once() {
        KafkaConsumer<String, String> local = new KafkaConsumer<>(props());
        local.subscribe(List.of("a", "b"));
    }
}
"""


def test_subscriptions_are_consumed_where_they_are_polled_and_records_are_produced():
    fx = extract(WORKER)
    assert uses(fx) == [
        ("kafka-clients", "consumes", (("ref", "TOPIC"),), "Worker.loop", 25, 26),  # not the Pattern, not bus
        ("kafka-clients", "produces", (("lit", "receipts"),), "Worker.reply", 30, 17),
        ("kafka-clients", "produces", (("lit", "late-"), ("hole", "id")), "Worker.reply", 32, 17),  # not bus.send
        ("kafka-clients", "consumes", (("lit", "a"),), "Worker.once", 38, 14),  # a local never polled
        ("kafka-clients", "consumes", (("lit", "b"),), "Worker.once", 38, 14),
    ]


def test_a_file_without_the_kafka_clients_declares_nothing():
    fx = extract(WORKER.replace("import org.apache.kafka.clients.consumer.KafkaConsumer;", "")
                 .replace("import org.apache.kafka.clients.producer.KafkaProducer;", "")
                 .replace("import org.apache.kafka.clients.producer.ProducerRecord;", ""))
    assert [t for t in fx.topics if t.framework == "kafka-clients"] == []


def test_the_consumer_and_the_producer_meet_on_the_constant():
    result = resolve_fixture("// --- path: src/main/java/shop/Worker.java ---\n" + textwrap.dedent(WORKER).lstrip("\n"))
    assert edges(result, "CONSUMES") == ["src/main/java/shop/Worker.Worker.loop() -> topic:payments",
                                         "src/main/java/shop/Worker.Worker.once() -> topic:a",
                                         "src/main/java/shop/Worker.Worker.once() -> topic:b"]
    assert edges(result, "PRODUCES") == ["src/main/java/shop/Worker.Worker.reply(String) -> topic:late-{}",
                                         "src/main/java/shop/Worker.Worker.reply(String) -> topic:receipts"]


def test_an_environment_variables_default_is_the_constants_value():
    fx = extract("""
        package shop;

        import java.util.Optional;

        public class Topics {
            static final String ORDERS = System.getenv().getOrDefault("KAFKA_TOPIC", "orders");
            static final String RETURNS = Optional.ofNullable(System.getenv("RETURNS_TOPIC")).orElse("returns");
            static final String BARE = System.getenv("BARE_TOPIC");
            static final String OTHER = SETTINGS.getOrDefault("k", "not-env");
        }
    """)
    assert [(c.qualname, c.value.parts) for c in fx.constants] == [("Topics.ORDERS", (("lit", "orders"),)),
                                                                    ("Topics.RETURNS", (("lit", "returns"),))]
