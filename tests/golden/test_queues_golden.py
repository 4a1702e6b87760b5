"""Golden blast-radius reports over queues beyond Kafka (tests/fixtures/queues): a Spring service
publishing to RabbitMQ (an exchange bound to a queue by a ``BindingBuilder`` bean, and the default
exchange) and JMS, with a Kafka listener on a topic named like a RabbitMQ queue; a Celery worker
whose tasks are queued with ``.delay`` / ``.apply_async`` / ``send_task``. Exact topic lists, with
each topic's broker and how sure its link is, and the negative cases: a ``convertAndSend`` on a
``SimpMessagingTemplate``, a ``.delay`` on a function that is no task, the Kafka topic ``orders``
apart from the RabbitMQ queue ``orders``. ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the snapshots."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from analysis.impact_report import render_markdown
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.golden.harness import check_snapshot

FIXTURE = Path(__file__).resolve().parent.parent / "fixtures" / "queues"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"


@pytest.fixture(scope="module")
def indexed(tmp_path_factory: pytest.TempPathFactory):
    s = EmbeddedStore(tmp_path_factory.mktemp("golden") / "queues.db")
    reports = {name: index_repository(FIXTURE / name, s, s, IndexOptions(repo=name, jobs=1))
               for name in ("shop", "worker", "notifier", "billing", "events")}
    yield s, reports
    s.close()


_check = check_snapshot


def _topics(report) -> list[tuple[str, str, str | None, list[str], list[str]]]:
    return [(t.id, t.broker, t.match, [n.qualname for n in t.consumers], [n.qualname for n in t.producers])
            for t in report.topics]


def test_rabbit_exchange_and_key_reach_the_bound_queue_not_the_kafka_topic_of_that_name(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("Fulfilment.ship"))
    assert _topics(report) == [
        ("topic:orders", "kafka", None, ["OrderListeners.onKafkaOrder"], []),
        # shop.events + order.created -> the binding "order.*" -> queue orders: a pattern, so inferred.
        # websocket.convertAndSend("orders", ...) on a SimpMessagingTemplate is no producer.
        ("topic:rabbitmq:orders", "rabbitmq", "inferred", ["OrderListeners.onOrder"], ["OrderService.placeOrder"]),
    ]
    # the endpoint is reached through the pattern-matched queue: the path is as sure as that link
    assert [(h.http_method, h.path, h.hops, h.certainty) for h in report.endpoints] == [("POST", "/orders", 3, "inferred")]
    _check("queues_fulfilment_ship", render_markdown(report))


def test_default_exchange_and_jms_destination_link_exactly(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("Fulfilment.record"))
    assert _topics(report) == [
        ("topic:rabbitmq:audit", "rabbitmq", "exact", ["OrderListeners.onAudit"], ["OrderService.audit"]),
        ("topic:jms:invoices", "jms", "exact", ["OrderListeners.onInvoice"], ["OrderService.audit"]),
    ]
    _check("queues_fulfilment_record", render_markdown(report))


def test_polling_receives_consume_the_queue_their_first_argument_names(indexed) -> None:
    store, _ = indexed
    topics = ["topic:rabbitmq:audit", "topic:jms:invoices"]
    consumed = store.incoming(topics, ["CONSUMES"])
    assert {t: sorted(e.src.rpartition("/")[2] for e in consumed.get(t, [])) for t in topics} == {
        # receiveAndConvert(AUDIT, 5_000, type) and receiveAndConvert("invoices") poll those queues;
        # AuditPoller.pollDefault's receive(5000) / receiveAndConvert(typeRef) name no queue: no edge.
        "topic:rabbitmq:audit": ["AuditPoller.AuditPoller.pollAudit()", "OrderListeners.OrderListeners.onAudit(String)"],
        "topic:jms:invoices": ["AuditPoller.AuditPoller.pollInvoices()",
                               "OrderListeners.OrderListeners.onInvoice(String)"],
    }


def test_celery_callers_of_delay_are_one_hop_above_the_task(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("purge_rows"))
    assert _topics(report) == [
        ("topic:celery:shop.tasks.cleanup", "celery", "exact", ["cleanup"],
         ["nightly", "purge"]),
        # send_task("mail.send") names the task only: matched by name
        ("topic:celery:mail.send", "celery", "name", [], ["nightly"]),
    ]
    # not_a_task.delay() queues nothing: purge reaches purge_rows through cleanup only
    assert [sorted(r.node.qualname for r in level) for level in report.hops] == [
        ["cleanup", "not_a_task"], ["nightly", "purge"]]
    _check("queues_celery_purge_rows", render_markdown(report))


def test_pika_consumer_reached_from_an_amqplib_publisher_through_a_pika_binding(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("deliver"))
    # notify + email.welcome -> queue_bind(emails, notify, "email.*"), bound in the Python consumer;
    # bus.publish(...) of the same shape in a file without amqplib is no producer.
    assert _topics(report) == [
        ("topic:rabbitmq:emails", "rabbitmq", "inferred", ["on_email"], ["sendWelcome"]),
    ]
    _check("queues_pika_deliver", render_markdown(report))


def test_stream_functional_binding_on_the_kafka_binder_meets_a_kafka_template(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("Ledger.charge"))
    # invoices-in-0 -> invoice-events on the Kafka binder: the Kafka topic KafkaTemplate sends to;
    # StreamBridge.send("invoice-events") names no configured binding: the destination by name.
    # unused() is a Consumer bean the function definition leaves out: no binding.
    assert _topics(report) == [
        ("topic:invoice-events", "kafka", "name", ["BillingFunctions.invoices"],
         ["InvoiceService.issue", "InvoiceService.reissue"]),
    ]
    _check("queues_stream_ledger_charge", render_markdown(report))


def test_nats_publish_reaches_exact_and_wildcard_subscriptions(indexed) -> None:
    store, _ = indexed
    report = blast_radius(store, SymbolQuery("record"))
    assert _topics(report) == [
        ("topic:nats:orders.*", "nats", "inferred", ["on_order"], ["create_order"]),
        ("topic:nats:orders.created", "nats", "exact", ["on_created"], ["create_order"]),
    ]
    _check("queues_nats_record", render_markdown(report))


def test_redis_channel_and_sqs_queue_by_url(indexed) -> None:
    store, _ = indexed
    # Bus.publish("alerts") in a file without redis is no producer of the channel
    assert _topics(blast_radius(store, SymbolQuery("alert"))) == [
        ("topic:redis:alerts", "redis", "exact", ["listen"], ["shout"])]
    report = blast_radius(store, SymbolQuery("handle"))
    assert _topics(report) == [("topic:sqs:orders", "sqs", "exact", ["poll"],
                                ["enqueue", "OrderQueue.requeue", "checkout"]),
                               ("topic:sns:billing", "sns", "exact", [], ["enqueue"])]
    _check("queues_sqs_handle", render_markdown(report))


def test_one_sqs_queue_across_boto3_spring_cloud_aws_and_the_js_sdk(indexed) -> None:
    store, _ = indexed
    # the queue URL's last segment (Python, TypeScript) and the Java queue name are one node
    assert _topics(blast_radius(store, SymbolQuery("OrderQueue.audit"))) == [
        ("topic:sqs:orders", "sqs", "exact", ["OrderQueue.onOrder"], ["enqueue", "OrderQueue.requeue", "checkout"]),
        ("topic:sns:billing", "sns", "exact", [], ["enqueue"]),
    ]


def test_index_summary_counts_links_per_broker_and_unlinked_by_reason(indexed) -> None:
    _, reports = indexed
    assert reports["shop"].links == {"consumes": 1, "consumes_jms": 2, "consumes_rabbitmq": 3, "exposes": 1,
                                     "produces_jms": 1, "produces_rabbitmq": 2}
    assert reports["worker"].links == {"consumes_celery": 2, "produces_celery": 3, "unlinked_task": 1}
    assert reports["notifier"].links == {"consumes_rabbitmq": 1, "produces_rabbitmq": 1}
    assert reports["billing"].links == {"consumes": 1, "produces": 3, "unlinked_binding": 1}
    assert reports["events"].links == {"consumes_nats": 2, "consumes_redis": 1, "consumes_sqs": 2, "produces_nats": 2,
                                       "produces_redis": 1, "produces_sns": 1, "produces_sqs": 3}
