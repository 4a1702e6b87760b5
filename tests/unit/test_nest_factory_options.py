"""NestJS clients built by ``ClientProxyFactory.create(options as any)`` from options another module writes (session 68,
acc68b; the shape of nasterblue's ``ClientProxyFactory.create(KAFKAMicroserviceOption as any)``): the send takes the
transport those options record (``options.transport``, :attr:`indexer.model.TopicUse.transport_via`), so a Kafka
client's pattern is the Kafka topic and a TCP client's stays a Nest pattern. Exact edges, with what must not link."""

from __future__ import annotations

from tests.resolution_harness import edges, extract_fixture, resolve_fixture

FIXTURE = """
// --- path: shared/options.ts ---
import { Transport } from '@nestjs/microservices';

export const kafkaOptions = {
  transport: Transport.KAFKA,
  options: { client: { brokers: ['localhost:9092'] } },
};

export const tcpOptions = { transport: Transport.TCP, options: { port: 3001 } };

// --- path: gateway/src/orders.controller.ts ---
import { Controller, Get } from '@nestjs/common';
import { ClientProxy, ClientProxyFactory } from '@nestjs/microservices';
import { kafkaOptions, tcpOptions } from '../../shared/options';

@Controller('orders')
export class OrdersController {
  private client: ClientProxy;
  private math: ClientProxy;
  private unknown: ClientProxy;

  constructor(private readonly config: ConfigService) {
    this.client = ClientProxyFactory.create(kafkaOptions as any);
    this.math = ClientProxyFactory.create(tcpOptions as unknown as ClientOptions);
    this.unknown = ClientProxyFactory.create(this.config.get('broker') as any);
  }

  @Get()
  create() {
    this.client.emit('orders.created', { id: 1 });
    this.math.send('sum', [1, 2]);
    return this.unknown.send('audit', {});
  }
}
"""


def test_a_factory_client_of_imported_options_takes_their_transport() -> None:
    [orders] = [ex for ex, _, _ in extract_fixture(FIXTURE) if ex.path.endswith("orders.controller.ts")]
    assert [(t.topic.parts, t.transport, t.transport_via.parts if t.transport_via else None) for t in orders.topics] == [
        ((("lit", "orders.created"),), None, (("ref", "kafkaOptions.transport"),)),
        ((("lit", "sum"),), None, (("ref", "tcpOptions.transport"),)),
        ((("lit", "audit"),), None, None),  # options read from a configuration service: nothing known
    ]
    result = resolve_fixture(FIXTURE)
    assert edges(result, "PRODUCES") == [
        "gateway/src/orders.controller.OrdersController.create(0) -> topic:nest:audit",
        "gateway/src/orders.controller.OrdersController.create(0) -> topic:nest:sum",  # TCP: a Nest pattern
        "gateway/src/orders.controller.OrdersController.create(0) -> topic:orders.created",  # Kafka: the topic
    ]
