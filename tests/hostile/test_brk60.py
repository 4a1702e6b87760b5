"""Session 60, brk60: a newcomer on open-telemetry/opentelemetry-demo and
spring-petclinic-microservices, and session 59's additions attacked. Each class is one defect found,
with exact expectations and what must not be linked."""

from __future__ import annotations

import hashlib

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import split_fixture


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
            ("CALLS_HTTP", "src/frontend/gateways/Cart.gateway.CartGateway(0)",
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

    public Consumer(IConsumer<string, byte[]> consumer)
    {
        consumer.Subscribe(TopicName);
        consumer.Subscribe(Fallback);
    }
}
"""


class TestEnvironmentDefaultTopics:
    def test_the_go_producer_reaches_the_csharp_consumer(self) -> None:
        edges, outcomes = _link(ENV_DEFAULT_TOPICS)
        assert edges == [
            ("CONSUMES", "src/accounting/Consumer.Consumer.Consumer(1)", "topic:orders", None),
            ("PRODUCES", "src/checkout/main.checkout.sendOthers(0)", "topic:payments", None),
            ("PRODUCES", "src/checkout/main.checkout.sendToPostProcessor(0)", "topic:orders", None),
        ]
        # pick() returns the variable only, constant() reads no environment (a function's return value
        # is no package constant): two topics unknown. Settings.Topic ?? "payments" is no environment
        # read: no topic at all (nothing consumes "payments" above).
        assert outcomes["unlinked_topic"] == 2
