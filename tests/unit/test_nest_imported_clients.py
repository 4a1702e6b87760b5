"""Nest clients registered from an array another module exports (session 66, acc66b):
``ClientsModule.register(kafkaClients)`` / ``register([...kafkaClients])`` with ``export const kafkaClients = [...]``
in a shared configuration file. The entries are read where the array is declared, so a send through the injected
token joins its broker's topic; an exported array naming no ``Transport`` member, or a token no entry names, does
not."""

from __future__ import annotations

from tests.resolution_harness import edges, extract_fixture, resolve_fixture

SHARED = """
// --- path: shop/src/config/clients.ts ---
import { ClientProviderOptions, Transport } from '@nestjs/microservices';

export const kafkaClients: ClientProviderOptions[] = [
  { name: 'ORDERS', transport: Transport.KAFKA, options: { client: { brokers: ['kafka:9092'] } } },
  { name: 'AUDIT', transport: Transport.NATS },
];
export const menu = [{ name: 'PAY', label: 'Pay' }];
// --- path: shop/src/app.module.ts ---
import { Module } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { kafkaClients } from './config/clients';

@Module({ imports: [ClientsModule.register([...kafkaClients])] })
export class AppModule {}
// --- path: shop/src/orders/orders.service.ts ---
import { Inject, Injectable } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';

@Injectable()
export class OrdersService {
  constructor(@Inject('ORDERS') private readonly orders: ClientProxy, @Inject('AUDIT') private readonly audit: ClientProxy,
              @Inject('PAY') private readonly pay: ClientProxy) {}

  place(o: object) {
    this.orders.emit('order_created', o);
    this.audit.emit('audit.write', o);
    this.pay.emit('charged', o);
  }
}
"""


def test_clients_of_an_exported_array_are_read_where_it_is_declared() -> None:
    config = next(ex for ex, _, _ in extract_fixture(SHARED) if ex.path == "shop/src/config/clients.ts")
    assert [(t.role, t.transport, t.name.parts) for t in config.transports] == [
        ("client", "kafka", (("lit", "ORDERS"),)), ("client", "nats", (("lit", "AUDIT"),))]  # not `menu`
    module = next(ex for ex, _, _ in extract_fixture(SHARED) if ex.path == "shop/src/app.module.ts")
    assert module.transports == []  # the spread array: its entries are the other file's
    assert edges(resolve_fixture(SHARED), "PRODUCES") == [
        "shop/src/orders/orders.service.OrdersService.place(1) -> topic:nats:audit.write",
        "shop/src/orders/orders.service.OrdersService.place(1) -> topic:nest:charged",  # PAY: no client entry
        "shop/src/orders/orders.service.OrdersService.place(1) -> topic:order_created",
    ]


ENTRIES = """
// --- path: svc/shared/options.ts ---
import { Transport } from '@nestjs/microservices';

export const RedisClientOptions = { name: 'REDIS_SERVICE', transport: Transport.REDIS, options: { url: 'redis://r:6379' } };
export const PlainOptions = { name: 'PLAIN_SERVICE', options: { port: 3001 } };
// --- path: svc/src/redis.module.ts ---
import { Module } from '@nestjs/common';
import { ClientsModule } from '@nestjs/microservices';
import { PlainOptions, RedisClientOptions } from '../shared/options';

const options: any = [RedisClientOptions, PlainOptions, UnknownOptions];

@Module({ imports: [ClientsModule.register(options)] })
export class RedisModule {}
// --- path: svc/src/redis.controller.ts ---
import { Controller, Inject } from '@nestjs/common';
import { ClientProxy } from '@nestjs/microservices';

@Controller()
export class RedisController {
  constructor(@Inject('REDIS_SERVICE') private readonly redis: ClientProxy,
              @Inject('PLAIN_SERVICE') private readonly plain: ClientProxy) {}

  ping() {
    this.redis.emit('ping', {});
    this.plain.emit('pong', {});
  }
}
"""


def test_imported_options_named_in_a_registration_give_their_transport() -> None:
    module = next(ex for ex, _, _ in extract_fixture(ENTRIES) if ex.path == "svc/src/redis.module.ts")
    assert [(t.role, t.transport, t.name.parts, t.via.parts) for t in module.transports] == [
        ("client", "", (("ref", "RedisClientOptions.name"),), (("ref", "RedisClientOptions.transport"),)),
        ("client", "", (("ref", "PlainOptions.name"),), (("ref", "PlainOptions.transport"),)),
        ("client", "", (("ref", "UnknownOptions.name"),), (("ref", "UnknownOptions.transport"),)),
    ]
    # REDIS_SERVICE: redis; PLAIN_SERVICE names no transport constant (TCP is not assumed from afar): stays nest
    assert edges(resolve_fixture(ENTRIES), "PRODUCES") == [
        "svc/src/redis.controller.RedisController.ping(0) -> topic:nest:pong",
        "svc/src/redis.controller.RedisController.ping(0) -> topic:redis:ping",
    ]
