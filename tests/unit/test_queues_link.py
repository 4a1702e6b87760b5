"""Queue destinations beyond Kafka (:mod:`indexer.frameworks.queues`): topic-exchange routing,
broker-qualified Topic ids, and the RabbitMQ / Spring Cloud Stream rules of the linker."""

from __future__ import annotations

from indexer.frameworks.queues import nats_matches, routing_matches, stream_broker
from stores.contracts import topic_id, topic_parts


def test_topic_exchange_patterns() -> None:
    assert routing_matches("order.*", "order.created")
    assert not routing_matches("order.*", "order")
    assert not routing_matches("order.*", "order.created.eu")
    assert routing_matches("order.#", "order")
    assert routing_matches("order.#", "order.created.eu")
    assert routing_matches("#", "a.b.c")
    assert routing_matches("*.created", "order.created")
    assert not routing_matches("*.created", "order.deleted")
    assert routing_matches("orders", "orders")
    assert not routing_matches("orders", "orders2")
    assert not routing_matches("#.x", "a." * 100 + "b")  # many words: no blow-up


def test_topic_ids_keep_kafka_and_qualify_other_brokers() -> None:
    assert topic_id("orders") == "topic:orders"
    assert topic_id("orders", "kafka") == "topic:orders"
    assert topic_id("orders", "rabbitmq") == "topic:rabbitmq:orders"
    assert topic_id("orders", "rabbitmq") != topic_id("orders", "jms")
    assert topic_parts("topic:rabbitmq:orders") == ("rabbitmq", "orders")
    assert topic_parts("topic:celery:shop.tasks.cleanup") == ("celery", "shop.tasks.cleanup")
    assert topic_parts("topic:orders") == ("kafka", "orders")
    assert topic_parts("topic:billing:orders") == ("kafka", "billing:orders")  # not a broker: a Kafka name


def test_stream_binder_from_configuration() -> None:
    assert stream_broker({"spring.cloud.stream.kafka.binder.brokers": "k:9092"}) == "kafka"
    assert stream_broker({"spring.rabbitmq.host": "mq"}) == "rabbitmq"
    assert stream_broker({"spring.cloud.stream.bindings.x-in-0.destination": "x"}) == "stream"


def test_nats_subject_wildcards() -> None:
    assert nats_matches("orders.*", "orders.new")
    assert not nats_matches("orders.*", "orders")
    assert not nats_matches("orders.*", "orders.new.eu")
    assert nats_matches("orders.>", "orders.new.eu")
    assert not nats_matches("orders.>", "orders")
    assert nats_matches("orders.new", "orders.new")
    assert not nats_matches("orders.new", "orders.old")
