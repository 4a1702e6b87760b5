"""Plain Apache Kafka clients in Kotlin (session 61, svc61): ``KafkaConsumer(...).subscribe(listOf(t))``
consumed where ``poll`` reads it, ``KafkaProducer.send(ProducerRecord(t, ...))`` produced, topics named by
Kotlin constants (``System.getenv("T") ?: "orders"`` is ``orders``); exact facts, exact edges, and what
must not be linked (opentelemetry-demo's fraud-detection was no consumer of ``orders``)."""

from __future__ import annotations

import textwrap

from indexer.languages.kotlin.extractor import EXTRACTOR
from indexer.model import FileExtraction, StringConstant, Template
from tests.resolution_harness import edges, resolve_fixture


def extract(code: str, path: str = "src/Main.kt") -> FileExtraction:
    return EXTRACTOR.extract(path, textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def uses(fx: FileExtraction) -> list[tuple]:
    return [(t.framework, t.role, t.topic.parts, t.owner, t.line, t.col) for t in fx.topics]


FRAUD = """
package frauddetection

import org.apache.kafka.clients.consumer.KafkaConsumer
import java.time.Duration.ofMillis

val topic: String = System.getenv("KAFKA_TOPIC") ?: "orders"
const val groupID = "fraud-detection"
val bootstrap = System.getenv("KAFKA_ADDR")
val retries: Int = 3

fun main() {
    val consumer = KafkaConsumer<String, ByteArray>(props).apply {
        subscribe(listOf(topic))
    }
    consumer.use {
        while (true) {
            consumer.poll(ofMillis(100)).forEach { handle(it) }
        }
    }
}

fun other() {
    val consumer = Mailbox()
    consumer.poll(1)
}
"""


def test_a_consumer_built_with_apply_is_consumed_where_it_is_polled_and_the_env_default_is_the_constant():
    fx = extract(FRAUD)
    assert uses(fx) == [("kafka-clients", "consumes", (("ref", "topic"),), "main", 17, 21)]
    # the local `consumer` of other() is another variable; a bare getenv and an Int are no constants
    assert fx.constants == [StringConstant("topic", Template.of("orders")),
                            StringConstant("groupID", Template.of("fraud-detection"))]


def test_fraud_detection_consumes_the_topic_checkouts_producer_sends_to():
    result = resolve_fixture("// --- path: fraud/main.kt ---\n" + textwrap.dedent(FRAUD).lstrip("\n") + """
// --- path: shop/Checkout.kt ---
package shop

import org.apache.kafka.clients.producer.KafkaProducer
import org.apache.kafka.clients.producer.ProducerRecord

object Topics { const val ORDERS = "orders" }

class Checkout(private val producer: KafkaProducer<String, ByteArray>, private val mailer: Mailer) {
    fun place(id: String) {
        producer.send(ProducerRecord(Topics.ORDERS, id, bytes))
        mailer.send(ProducerRecord("mail", id, bytes))
    }
    fun refund(id: String) {
        val record = ProducerRecord<String, ByteArray>("refunds", id, bytes)
        producer.send(record)
    }
}
""")
    assert edges(result, "CONSUMES") == ["fraud/main.main() -> topic:orders"]
    assert edges(result, "PRODUCES") == ["shop/Checkout.Checkout.place(String) -> topic:orders",
                                         "shop/Checkout.Checkout.refund(String) -> topic:refunds"]


def test_a_consumer_property_subscribed_in_one_function_is_consumed_by_the_functions_polling_it():
    fx = extract("""
        import org.apache.kafka.clients.consumer.Consumer
        import java.util.Collections
        import java.util.regex.Pattern

        class Worker(private val consumer: Consumer<String, String>, private val flow: Flow<String>) {
            fun start() {
                consumer.subscribe(Collections.singletonList(TOPIC))
                consumer.subscribe(Pattern.compile("audit.*"))
                flow.subscribe(listOf("not-kafka"))
            }
            fun loop() { while (true) { this.consumer.poll(Duration.ofSeconds(1)) } }
            companion object { const val TOPIC = "payments" }
        }
    """)
    assert uses(fx) == [("kafka-clients", "consumes", (("ref", "TOPIC"),), "Worker.loop", 11, 46)]
    assert fx.constants == [StringConstant("Worker.TOPIC", Template.of("payments"))]


def test_no_poll_leaves_the_subscribing_function_the_consumer_and_no_import_means_no_kafka():
    fx = extract("""
        import org.apache.kafka.clients.consumer.KafkaConsumer

        fun listen() {
            KafkaConsumer<String, String>(props).subscribe(listOf("a", "b"))
        }
    """)
    assert uses(fx) == [("kafka-clients", "consumes", (("lit", "a"),), "listen", 4, 41),
                        ("kafka-clients", "consumes", (("lit", "b"),), "listen", 4, 41)]
    fx = extract("""
        fun listen(consumer: KafkaConsumer<String, String>, producer: KafkaProducer<String, String>) {
            consumer.subscribe(listOf("a"))
            producer.send(ProducerRecord("b", "v"))
        }
    """)
    assert fx.topics == []


def test_a_named_consumer_configured_in_a_block_is_polled_under_its_own_name():
    fx = extract("""
        import org.apache.kafka.clients.consumer.KafkaConsumer

        class Reader(private val consumer: KafkaConsumer<String, String>) {
            fun start() { consumer.apply { subscribe(listOf("events")) } }
            fun read() = consumer.poll(Duration.ZERO)
            fun other(c: KafkaConsumer<String, String>) = c.poll(Duration.ZERO)
        }
    """)
    assert uses(fx) == [("kafka-clients", "consumes", (("lit", "events"),), "Reader.read", 5, 26)]
