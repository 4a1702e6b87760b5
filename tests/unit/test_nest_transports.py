"""NestJS microservice transports: a pattern on a Kafka transport is the Kafka topic of that name (joining
Spring's ``@KafkaListener`` / ``KafkaTemplate``), on NATS the subject; an RMQ server consumes its queue,
an RMQ client produces it (besides the pattern, which stays ``nest``); a TCP transport stays ``nest`` and
never joins Kafka. The shapes are those of JonatasMSantos/nestjs-kafka-starter (``connectMicroservice``
with ``Transport.KAFKA``, a typed ``ClientKafka``), renatoalencar/nest-microservice-ecommerce-example
(``createMicroservice`` with ``Transport.RMQ`` and a queue, ``ClientsModule.register``) and Nest's
docs (``registerAsync`` with a ``useFactory``, ``ClientProxyFactory.create``, ``@Client``)."""

from __future__ import annotations

from pathlib import Path

from tests.index_dump import dump
from tests.resolution_harness import edges, extract_fixture, resolve_fixture, split_fixture
from tests.unit.test_incremental import Workspace

FIXTURE = """
// --- path: orders/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { MicroserviceOptions, Transport } from '@nestjs/microservices';
import { OrdersModule } from './orders.module';

async function bootstrap() {
  const app = await NestFactory.create(OrdersModule);
  app.connectMicroservice<MicroserviceOptions>({
    transport: Transport.KAFKA,
    options: { client: { brokers: ['kafka:29092'] }, consumer: { groupId: 'orders-consumer' } },
  });
  await app.startAllMicroservices();
}
bootstrap();
// --- path: orders/src/orders.module.ts ---
import { Module } from '@nestjs/common';
import { ClientsModule, Transport } from '@nestjs/microservices';
import { ORDERS_CLIENT } from './tokens';

@Module({
  imports: [ClientsModule.registerAsync([
    { name: ORDERS_CLIENT, useFactory: (config: ConfigService) => ({ transport: Transport.KAFKA, options: {} }) },
    { name: 'MAILER', useFactory: () => { return { transport: Transport.RMQ, options: { queue: 'mail_queue' } }; } },
  ])],
})
export class OrdersModule {}
// --- path: orders/src/tokens.ts ---
export const ORDERS_CLIENT = 'ORDERS_SERVICE';
// --- path: orders/src/orders.service.ts ---
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';
import { ORDERS_CLIENT } from './tokens';

@Injectable()
export class OrdersService {
  constructor(
    @Inject(ORDERS_CLIENT) private readonly client: ClientProxy,
    @Inject('MAILER') private readonly mailer: ClientProxy,
  ) {}

  create(order: object) {
    this.client.emit('orders', order);
    return this.mailer.send('send_mail', order);
  }
}
// --- path: orders/src/orders.controller.ts ---
import { Controller } from '@nestjs/common';
import { EventPattern, MessagePattern, Transport } from '@nestjs/microservices';

@Controller()
export class OrdersController {
  @EventPattern('payments')
  complete(message: object) { return message; }

  @MessagePattern('audit', Transport.NATS)
  audit(message: object) { return message; }
}
// --- path: mailer/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { Transport } from '@nestjs/microservices';
import { MailerModule } from './mailer.module';

async function bootstrap() {
  const app = await NestFactory.createMicroservice<MicroserviceOptions>(MailerModule, {
    transport: Transport.RMQ,
    options: { urls: ['amqp://localhost:5672'], queue: 'mail_queue' },
  });
  await app.listen();
}
bootstrap();
// --- path: mailer/src/mailer.controller.ts ---
import { Controller } from '@nestjs/common';
import { MessagePattern } from '@nestjs/microservices';

@Controller()
export class MailerController {
  @MessagePattern('send_mail')
  send(mail: object) { return mail; }
}
// --- path: gateway/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { Transport } from '@nestjs/microservices';

const options = { options: { host: '0.0.0.0', port: 3001 } };

async function bootstrap() {
  const app = await NestFactory.createMicroservice(GatewayModule, options);
  await app.listen();
}
// --- path: gateway/src/gateway.controller.ts ---
import { Controller } from '@nestjs/common';
import { Client, ClientProxy, MessagePattern, Transport } from '@nestjs/microservices';

@Controller()
export class GatewayController {
  @Client({ transport: Transport.TCP, options: { port: 3002 } })
  tcp: ClientProxy;

  @MessagePattern('orders')
  orders(data: object) { return this.tcp.send('payments', data); }
}
// --- path: audit/src/audit.client.ts ---
import { ClientProxy, ClientProxyFactory, Transport } from '@nestjs/microservices';

export class AuditClient {
  private readonly client: ClientProxy;

  constructor() {
    this.client = ClientProxyFactory.create({ transport: Transport.NATS, options: { servers: ['nats://n:4222'] } });
  }

  record(entry: object) { return this.client.emit('audit', entry); }
}
// --- path: billing/src/main/java/billing/Billing.java ---
package billing;

import org.springframework.kafka.annotation.KafkaListener;
import org.springframework.kafka.core.KafkaTemplate;
import org.springframework.amqp.rabbit.annotation.RabbitListener;

public class Billing {
    private final KafkaTemplate<String, String> kafka;

    @KafkaListener(topics = "orders")
    public void onOrder(String order) {
        kafka.send("payments", order);
    }

    @RabbitListener(queues = "mail_queue")
    public void archive(String mail) {}
}
"""

ORDERS = "orders/src/orders"
BILLING = "billing/src/main/java/billing/Billing.Billing"


def test_the_detector_reads_transports_and_what_each_use_knows() -> None:
    found = extract_fixture(FIXTURE)
    transports = sorted((ex.path, t.role, t.transport, t.name.parts, t.queue.parts) for ex, _, _ in found
                        for t in ex.transports)
    assert transports == [
        ("gateway/src/main.ts", "server", "tcp", (), ()),  # no `transport`: Nest's default
        ("mailer/src/main.ts", "server", "rmq", (), (("lit", "mail_queue"),)),
        ("orders/src/main.ts", "server", "kafka", (), ()),
        ("orders/src/orders.module.ts", "client", "kafka", (("ref", "ORDERS_CLIENT"),), ()),
        ("orders/src/orders.module.ts", "client", "rmq", (("lit", "MAILER"),), (("lit", "mail_queue"),)),
    ]
    uses = sorted((ex.path, t.role, t.topic.parts, t.broker, t.transport, t.client.parts if t.client else None)
                  for ex, _, _ in found for t in ex.topics if t.framework == "nestjs-microservices")
    assert uses == [
        ("audit/src/audit.client.ts", "produces", (("lit", "audit"),), "nest", "nats", None),
        ("gateway/src/gateway.controller.ts", "consumes", (("lit", "orders"),), "nest", None, None),
        ("gateway/src/gateway.controller.ts", "produces", (("lit", "payments"),), "nest", "tcp", None),
        ("mailer/src/mailer.controller.ts", "consumes", (("lit", "send_mail"),), "nest", None, None),
        ("mailer/src/main.ts", "consumes", (("lit", "mail_queue"),), "rabbitmq", None, None),  # the queue's consumer
        ("orders/src/orders.controller.ts", "consumes", (("lit", "audit"),), "nest", "nats", None),
        ("orders/src/orders.controller.ts", "consumes", (("lit", "payments"),), "nest", None, None),
        ("orders/src/orders.service.ts", "produces", (("lit", "orders"),), "nest", None, (("ref", "ORDERS_CLIENT"),)),
        ("orders/src/orders.service.ts", "produces", (("lit", "send_mail"),), "nest", None, (("lit", "MAILER"),)),
    ]


def test_each_pattern_joins_the_broker_of_its_transport() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "PRODUCES") == [
        "audit/src/audit.client.AuditClient.record(1) -> topic:nats:audit",
        f"{BILLING}.onOrder(String) -> topic:payments",
        "gateway/src/gateway.controller.GatewayController.orders(1) -> topic:nest:payments",  # TCP: not Kafka's
        f"{ORDERS}.service.OrdersService.create(1) -> topic:nest:send_mail",
        f"{ORDERS}.service.OrdersService.create(1) -> topic:orders",  # the registration's Kafka, through the token
        f"{ORDERS}.service.OrdersService.create(1) -> topic:rabbitmq:mail_queue",  # RMQ: the client's queue
    ]
    assert edges(result, "CONSUMES") == [
        f"{BILLING}.archive(String) -> topic:rabbitmq:mail_queue",
        f"{BILLING}.onOrder(String) -> topic:orders",
        "gateway/src/gateway.controller.GatewayController.orders(1) -> topic:nest:orders",  # TCP server
        "mailer/src/mailer.controller.MailerController.send(1) -> topic:nest:send_mail",
        "mailer/src/main.bootstrap(0) -> topic:rabbitmq:mail_queue",
        f"{ORDERS}.controller.OrdersController.audit(1) -> topic:nats:audit",
        f"{ORDERS}.controller.OrdersController.complete(1) -> topic:payments",  # orders/src/main.ts: Kafka
    ]


UNDETERMINED = """
// --- path: libs/events/src/handlers.ts ---
import { EventPattern } from '@nestjs/microservices';

export class Handlers {
  @EventPattern('shipped')
  shipped(data: object) { return data; }

  @EventPattern('mixed')
  mixed(data: object) { return data; }
}
// --- path: apps/a/src/a.service.ts ---
import { ClientKafka, ClientTCP } from '@nestjs/microservices';

export class A {
  constructor(private readonly kafka: ClientKafka, private readonly tcp: ClientTCP) {}

  go() {
    this.kafka.emit('shipped', {});
    this.kafka.emit('mixed', {});
    this.tcp.emit('mixed', {});
  }
}
"""


def test_a_use_of_unknown_transport_joins_the_one_its_pattern_agrees_on_else_stays_nest() -> None:
    result = resolve_fixture(UNDETERMINED)
    assert edges(result, "CONSUMES") == [
        "libs/events/src/handlers.Handlers.mixed(1) -> topic:nest:mixed",  # Kafka and TCP sends: nothing agreed
        "libs/events/src/handlers.Handlers.shipped(1) -> topic:shipped",
    ]
    matches = sorted((e.dst, e.props.get("match")) for f in result.files for e in f.edges if e.kind == "CONSUMES")
    assert matches == [("topic:nest:mixed", "exact"), ("topic:shipped", "inferred")]


def test_an_edited_bootstrap_moves_its_handlers_to_the_new_transport(tmp_path: Path) -> None:
    """The transport lives in ``main.ts``, the handler in another file: editing only ``main.ts`` moves the
    handler's topic (the watcher's and the one-shot run's index equal a full index at each step)."""
    files = split_fixture(FIXTURE)
    ws = Workspace(tmp_path, files)
    try:
        def consumed(db: Path) -> list[tuple[str, str]]:
            return sorted((src, dst) for kind, src, dst, *_ in dump(db)["edges"] if kind == "CONSUMES" and "complete" in src)

        complete = "r:orders/src/orders.controller.OrdersController.complete(1)"
        assert consumed(ws.db) == [(complete, "topic:payments")]
        main = files["orders/src/main.ts"]
        ws.edit({"orders/src/main.ts": main.replace("transport: Transport.KAFKA,", "")})  # Nest's default: TCP
        assert consumed(ws.db) == [(complete, "topic:nest:payments")]
    finally:
        ws.close()


IMPORTED = """
// --- path: libs/config/src/transports.ts ---
import { KafkaOptions, Transport } from '@nestjs/microservices';

export const kafkaConfig: KafkaOptions = {
  transport: Transport.KAFKA,
  options: { client: { brokers: ['kafka:9092'] }, consumer: { groupId: 'inventory' } },
};
export const tcpConfig = { transport: Transport.TCP, options: { port: 3001 } };
// --- path: inventory/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { kafkaConfig } from '../../libs/config/src/transports';

async function bootstrap() {
  const app = await NestFactory.createMicroservice(InventoryModule, kafkaConfig);
  await app.listen();
}
// --- path: inventory/src/stock.controller.ts ---
import { EventPattern } from '@nestjs/microservices';

export class StockController {
  @EventPattern('stock')
  reserve(data: object) { return data; }
}
// --- path: shipping/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { tcpConfig } from '../../libs/config/src/transports';

async function bootstrap() {
  const app = await NestFactory.createMicroservice(ShippingModule, tcpConfig);
  await app.listen();
}
// --- path: shipping/src/ship.controller.ts ---
import { EventPattern } from '@nestjs/microservices';

export class ShipController {
  @EventPattern('ship')
  ship(data: object) { return data; }
}
"""


def test_options_imported_from_a_configuration_module_give_their_transport() -> None:
    config = next(ex for ex, _, _ in extract_fixture(IMPORTED) if ex.path == "libs/config/src/transports.ts")
    assert sorted((c.qualname, c.value.parts) for c in config.constants if c.qualname.endswith(".transport")) == [
        ("kafkaConfig.transport", (("lit", "kafka"),)), ("tcpConfig.transport", (("lit", "tcp"),))]
    result = resolve_fixture(IMPORTED)
    assert edges(result, "CONSUMES") == [
        "inventory/src/stock.controller.StockController.reserve(1) -> topic:stock",  # kafkaConfig: Kafka
        "shipping/src/ship.controller.ShipController.ship(1) -> topic:nest:ship",  # tcpConfig: TCP
    ]
    matches = sorted((e.dst, e.props.get("match")) for f in result.files for e in f.edges if e.kind == "CONSUMES")
    assert matches == [("topic:nest:ship", "exact"), ("topic:stock", "exact")]


BUILT = """
// --- path: libs/config/src/kafka.config.ts ---
import { ConfigService } from '@nestjs/config';
import { ClientProvider, ClientsModuleOptionsFactory, KafkaOptions, Transport } from '@nestjs/microservices';

export const getKafkaConfig = (config: ConfigService, groupId: string): KafkaOptions => ({
  transport: Transport.KAFKA,
  options: { client: { brokers: [config.get('KAFKA_BROKER')] }, consumer: { groupId } },
});

export function getNatsOptions() {
  const url = process.env.NATS_URL;
  return { transport: Transport.NATS, options: { servers: [url] } };
}

export class KafkaConfigService implements ClientsModuleOptionsFactory {
  constructor(private readonly config: ConfigService) {}

  createClientOptions(): ClientProvider {
    const brokers = [this.config.get('KAFKA_BROKER')];
    return { transport: Transport.KAFKA, options: { client: { brokers } } };
  }
}

export class StockKafka {
  constructor(private readonly config: ConfigService) {}

  getKafkaConfig(): KafkaOptions {
    return { transport: Transport.KAFKA, options: { client: { brokers: [this.config.get('KAFKA_BROKER')] } } };
  }
}

export class Unfolded implements ClientsModuleOptionsFactory {
  createClientOptions(): ClientProvider {
    return this.config.get('client');
  }
}
// --- path: orders/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { getKafkaConfig } from '../../libs/config/src/kafka.config';

async function bootstrap() {
  const app = await NestFactory.create(OrdersModule);
  app.connectMicroservice(getKafkaConfig(app.get(ConfigService), 'orders'));
  await app.startAllMicroservices();
}
// --- path: orders/src/orders.controller.ts ---
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';

@Controller()
export class OrdersController {
  @EventPattern('order_created')
  created(data: object) { return data; }
}
// --- path: audit/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { getNatsOptions } from '../../libs/config/src/kafka.config';

async function bootstrap() {
  const app = await NestFactory.createMicroservice(AuditModule, getNatsOptions());
  await app.listen();
}
// --- path: audit/src/audit.controller.ts ---
import { MessagePattern } from '@nestjs/microservices';

export class AuditController {
  @MessagePattern('audit.write')
  write(data: object) { return data; }
}
// --- path: stock/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';
import { StockKafka } from '../../libs/config/src/kafka.config';

async function bootstrap() {
  const kafka = new StockKafka(new ConfigService());
  const app = await NestFactory.create(StockModule);
  app.connectMicroservice(kafka.getKafkaConfig());
  await app.startAllMicroservices();
}
// --- path: stock/src/stock.controller.ts ---
import { EventPattern } from '@nestjs/microservices';

export class StockController {
  @EventPattern('stock-updates')
  update(data: object) { return data; }
}
// --- path: legacy/src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { ConfigService } from '@nestjs/config';

async function bootstrap() {
  const app = await NestFactory.create(LegacyModule);
  const config = app.get(ConfigService);
  app.connectMicroservice(config.get('microservice'));
  await app.startAllMicroservices();
}
// --- path: legacy/src/legacy.controller.ts ---
import { EventPattern } from '@nestjs/microservices';

export class LegacyController {
  @EventPattern('legacy_ping')
  ping(data: object) { return data; }
}
// --- path: gateway/src/app.module.ts ---
import { Module } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ClientsModule } from '@nestjs/microservices';
import { KafkaConfigService, StockKafka, Unfolded, getNatsOptions } from '../../libs/config/src/kafka.config';

@Module({
  imports: [
    ClientsModule.registerAsync([
      { name: 'ORDERS', useClass: KafkaConfigService },
      { name: 'AUDIT', useFactory: () => getNatsOptions() },
      { name: 'LEGACY', useClass: Unfolded },
      { name: 'STOCK', inject: [StockKafka], useFactory: (kafka: StockKafka) => kafka.getKafkaConfig() },
      { name: 'OTHER', inject: [ConfigService], useFactory: (config: ConfigService) => config.get('other') },
    ]),
  ],
})
export class AppModule {}
// --- path: gateway/src/gateway.service.ts ---
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';

@Injectable()
export class GatewayService {
  constructor(
    @Inject('ORDERS') private readonly orders: ClientProxy,
    @Inject('AUDIT') private readonly audit: ClientProxy,
    @Inject('LEGACY') private readonly legacy: ClientProxy,
    @Inject('OTHER') private readonly other: ClientProxy,
    @Inject('STOCK') private readonly stock: ClientProxy,
  ) {}

  create(order: object) {
    this.orders.emit('order_created', order);
    this.audit.send('audit.write', order);
    this.legacy.emit('legacy_ping', order);
    this.other.emit('other_ping', order);
    this.stock.emit('stock-updates', order);
  }
}
"""


def test_options_built_by_a_function_or_a_class_give_their_transport() -> None:
    # getKafkaConfig(...) (an arrow function), getNatsOptions() (a function), registerAsync's useClass
    # (a ClientsModuleOptionsFactory) and a useFactory returning getNatsOptions(): each records its transport.
    # Negatives: options from config.get(...) (a bootstrap and a useFactory) and a factory class whose
    # createClientOptions returns no literal stay `nest`.
    config = next(ex for ex, _, _ in extract_fixture(BUILT) if ex.path == "libs/config/src/kafka.config.ts")
    assert sorted((c.qualname, c.value.parts) for c in config.constants if c.qualname.endswith(".transport")) == [
        ("KafkaConfigService.createClientOptions.transport", (("lit", "kafka"),)),
        ("KafkaConfigService.transport", (("lit", "kafka"),)),
        ("StockKafka.getKafkaConfig.transport", (("lit", "kafka"),)),
        ("getKafkaConfig.transport", (("lit", "kafka"),)), ("getNatsOptions.transport", (("lit", "nats"),))]
    module = next(ex for ex, _, _ in extract_fixture(BUILT) if ex.path == "gateway/src/app.module.ts")
    assert [(t.name.parts, t.transport, t.via.parts) for t in module.transports] == [
        ((("lit", "ORDERS"),), "", (("ref", "KafkaConfigService.transport"),)),
        ((("lit", "AUDIT"),), "", (("ref", "getNatsOptions.transport"),)),
        ((("lit", "LEGACY"),), "", (("ref", "Unfolded.transport"),)),
        ((("lit", "STOCK"),), "", (("ref", "StockKafka.getKafkaConfig.transport"),)),  # the parameter's class
        ((("lit", "OTHER"),), "", (("ref", "ConfigService.get.transport"),))]  # records nothing: nest
    result = resolve_fixture(BUILT)
    assert edges(result, "CONSUMES") == [
        "audit/src/audit.controller.AuditController.write(1) -> topic:nats:audit.write",
        "legacy/src/legacy.controller.LegacyController.ping(1) -> topic:nest:legacy_ping",
        "orders/src/orders.controller.OrdersController.created(1) -> topic:order_created",
        "stock/src/stock.controller.StockController.update(1) -> topic:stock-updates",  # new StockKafka(...)
    ]
    assert edges(result, "PRODUCES") == [
        "gateway/src/gateway.service.GatewayService.create(1) -> topic:nats:audit.write",
        "gateway/src/gateway.service.GatewayService.create(1) -> topic:nest:legacy_ping",
        "gateway/src/gateway.service.GatewayService.create(1) -> topic:nest:other_ping",
        "gateway/src/gateway.service.GatewayService.create(1) -> topic:order_created",
        "gateway/src/gateway.service.GatewayService.create(1) -> topic:stock-updates",
    ]
    matches = sorted({(e.kind, e.dst, e.props.get("match")) for f in result.files for e in f.edges
                      if e.kind in ("CONSUMES", "PRODUCES")})
    assert matches == [("CONSUMES", "topic:nats:audit.write", "exact"), ("CONSUMES", "topic:nest:legacy_ping", "exact"),
                       ("CONSUMES", "topic:order_created", "exact"), ("CONSUMES", "topic:stock-updates", "exact"),
                       ("PRODUCES", "topic:nats:audit.write", "exact"),
                       ("PRODUCES", "topic:nest:legacy_ping", "exact"), ("PRODUCES", "topic:nest:other_ping", "exact"),
                       ("PRODUCES", "topic:order_created", "exact"), ("PRODUCES", "topic:stock-updates", "exact")]


HELD = """
// --- path: pay/src/app.module.ts ---
import { Module } from '@nestjs/common';
import { ClientProviderOptions, ClientsModule, Transport } from '@nestjs/microservices';
import { imported } from './clients';

const clients: ClientProviderOptions[] = [{ name: 'PAY', transport: Transport.NATS }];

@Module({ imports: [ClientsModule.register(clients), ClientsModule.register(imported)] })
export class AppModule {}
// --- path: pay/src/pay.service.ts ---
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';

@Injectable()
export class PayService {
  constructor(@Inject('PAY') private readonly pay: ClientProxy, @Inject('OTHER') private readonly other: ClientProxy) {}

  charge(o: object) {
    this.pay.emit('charged', o);
    this.other.emit('refunded', o);
  }
}
"""


def test_registered_clients_held_by_a_constant_of_the_file() -> None:
    # `ClientsModule.register(clients)` with `const clients = [...]` in the file: NATS. The array imported from
    # another module is not read: OTHER's emit stays `nest`.
    module = next(ex for ex, _, _ in extract_fixture(HELD) if ex.path == "pay/src/app.module.ts")
    assert [(t.role, t.transport, t.name.parts) for t in module.transports] == [("client", "nats", (("lit", "PAY"),))]
    assert edges(resolve_fixture(HELD), "PRODUCES") == [
        "pay/src/pay.service.PayService.charge(1) -> topic:nats:charged",
        "pay/src/pay.service.PayService.charge(1) -> topic:nest:refunded",
    ]


def test_an_edited_options_provider_moves_the_uses_of_every_file_naming_it(tmp_path: Path) -> None:
    """Only the configuration module changes: the handler served through `getKafkaConfig(...)` and the sends
    through `useClass: KafkaConfigService` move to NATS (the watcher's and the one-shot run's index equal a full
    index at each step)."""
    files = split_fixture(BUILT)
    ws = Workspace(tmp_path, files)
    try:
        def topics(db: Path) -> list[tuple[str, str]]:
            return sorted((kind, dst) for kind, src, dst, *_ in dump(db)["edges"]
                          if kind in ("CONSUMES", "PRODUCES") and "order_created" in dst)

        assert topics(ws.db) == [("CONSUMES", "topic:order_created"), ("PRODUCES", "topic:order_created")]
        config = files["libs/config/src/kafka.config.ts"]
        ws.edit({"libs/config/src/kafka.config.ts": config.replace("transport: Transport.KAFKA,\n  options: { client: { brokers: [config",
                                                                    "transport: Transport.NATS,\n  options: { client: { brokers: [config").replace(
            "return { transport: Transport.KAFKA, options: { client: { brokers } } };",
            "return { transport: Transport.NATS, options: { client: { brokers } } };")})
        assert topics(ws.db) == [("CONSUMES", "topic:nats:order_created"), ("PRODUCES", "topic:nats:order_created")]
    finally:
        ws.close()
