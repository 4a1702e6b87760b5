"""Topics, queues and URL bases named by configuration (session 66, r66e): ASP.NET ``appsettings*.json``
read per .NET project for ``IConfiguration`` reads, ``@nestjs/config`` ``ConfigService`` reads in
TypeScript (a ``registerAs`` namespace, or the package's ``.env``), with what must stay unknown: a key
with no value, a secret, another project's value."""

from __future__ import annotations

import os
from pathlib import Path

from indexer.frameworks.app_settings import load_app_settings, settings_for
from indexer.frameworks.env_config import config_value, load_env_files
from indexer.frameworks.link_options import LinkOptions
from indexer.rescan import is_config_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import REPO, edges, extract_fixture, split_fixture

CSHARP = """
// --- path: Orders/Orders.csproj ---
<Project Sdk="Microsoft.NET.Sdk.Web"></Project>
// --- path: Orders/appsettings.json ---
{
  // ASP.NET's JSON provider allows comments and trailing commas
  "Kafka": { "Topic": "orders-created", "Password": "hunter2", "ReplyTopic": "base-replies", },
  "Services": { "Billing": "http://user:pw@billing:8080/api?x=1" },
  "Queues": ["first", "second"]
}
// --- path: Orders/appsettings.Development.json ---
{ "Kafka": { "ReplyTopic": "orders-replies" } }
// --- path: Orders/Producer.cs ---
using Confluent.Kafka;
namespace Shop.Orders;
public class Producer
{
    private readonly IConfiguration _configuration;
    private readonly IProducer<string, string> _producer;
    private readonly Dictionary<string, string> _names;
    public async Task Send(string m, string key)
    {
        await _producer.ProduceAsync(_configuration["kafka:topic"], m);
        await _producer.ProduceAsync(_configuration.GetSection("Kafka")["ReplyTopic"], m);
        await _producer.ProduceAsync(_configuration.GetValue<string>("Kafka:Missing"), m);
        await _producer.ProduceAsync(_configuration["Kafka:Password"], m);
        await _producer.ProduceAsync(_names["Kafka:Topic"], m);
        await _producer.ProduceAsync(_configuration[key], m);
    }
}
// --- path: Billing/Billing.csproj ---
<Project Sdk="Microsoft.NET.Sdk.Web"></Project>
// --- path: Billing/appsettings.json ---
{ "Kafka": { "Topic": "billing-own" } }
// --- path: Billing/Consumer.cs ---
using Confluent.Kafka;
namespace Shop.Billing;
public class Consumer
{
    private readonly IConfiguration config;
    private readonly IConsumer<string, string> _consumer;
    public void Run()
    {
        _consumer.Subscribe(config.GetSection("Kafka:Topic").Value);
        _consumer.Subscribe(config.GetRequiredSection("Kafka").GetValue<string>("Topic") + "-retry");
        _consumer.Consume();
    }
}
// --- path: Audit/Audit.csproj ---
<Project Sdk="Microsoft.NET.Sdk.Web"></Project>
// --- path: Audit/Consumer.cs ---
using Confluent.Kafka;
namespace Shop.Audit;
public class AuditConsumer
{
    private readonly IConfiguration config;
    private readonly IConsumer<string, string> _consumer;
    public void Run()
    {
        _consumer.Subscribe(config["Kafka:Topic"]);
        _consumer.Consume();
    }
}
// --- path: Audit/Listener.cs ---
using Confluent.Kafka;
namespace Shop.Audit;
public class OrdersListener
{
    private readonly IConsumer<string, string> _consumer;
    public void Run()
    {
        _consumer.Subscribe("orders-created");
        _consumer.Subscribe("orders-replies");
        _consumer.Consume();
    }
}
"""

TYPESCRIPT = """
// --- path: orders/package.json ---
{"name": "orders", "dependencies": {"@nestjs/microservices": "10", "@nestjs/config": "3"}}
// --- path: orders/.env ---
KAFKA_TOPIC=order-created
KAFKA_PASSWORD=hunter2
QUEUE_TOKEN=not a name
// --- path: orders/src/kafka.config.ts ---
import { registerAs } from '@nestjs/config';
export default registerAs('kafka', () => ({ replyTopic: process.env.REPLY_TOPIC || 'order-replies' }));
// --- path: orders/src/orders.service.ts ---
import { Injectable, Inject } from '@nestjs/common';
import { ConfigService } from '@nestjs/config';
import { ClientKafka } from '@nestjs/microservices';
@Injectable()
export class OrdersService {
  constructor(@Inject('KAFKA') private readonly client: ClientKafka, private readonly configService: ConfigService,
              private readonly cache: Map<string, string>) {}
  create(o: any) {
    this.client.emit(this.configService.get('KAFKA_TOPIC'), o);
    this.client.emit(this.configService.get<string>('kafka.replyTopic'), o);
    this.client.emit(this.configService.getOrThrow('KAFKA_PASSWORD'), o);
    this.client.emit(this.configService.get('kafka.missing'), o);
    this.client.emit(this.cache.get('KAFKA_TOPIC'), o);
  }
}
// --- path: billing/package.json ---
{"name": "billing", "dependencies": {"@nestjs/microservices": "10", "@nestjs/config": "3"}}
// --- path: billing/src/billing.controller.ts ---
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
import { ConfigService } from '@nestjs/config';
@Controller()
export class BillingController {
  constructor(private readonly config: ConfigService) {}
  @EventPattern('order-created')
  onCreated(data: any) {}
  @EventPattern('order-replies')
  onReply(data: any) {}
  @EventPattern('hunter2')
  onSecret(data: any) {}
  listen() {
    this.client.emit(this.config.get('KAFKA_TOPIC'), {});
  }
}
"""


def _resolve(tmp_path: Path, fixture: str):
    files = split_fixture(fixture)
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    code = "".join(f"// --- path: {p} ---\n{t}" for p, t in files.items() if p.endswith((".cs", ".ts")))
    return resolve_repository(REPO, extract_fixture(code), LinkOptions.for_repository(tmp_path))


def test_appsettings_are_read_per_project_keeping_urls_and_destination_names_only(tmp_path: Path) -> None:
    _resolve(tmp_path, CSHARP)
    assert load_app_settings(tmp_path) == {
        "Orders": {"kafka:topic": "orders-created", "kafka:replytopic": "orders-replies",
                   "services:billing": "http://billing:8080/api", "queues:0": "first", "queues:1": "second"},
        "Billing": {"kafka:topic": "billing-own"},
        "Audit": {},
    }  # Password: a secret; the Development file wins; credentials and query of the URL dropped
    settings = load_app_settings(tmp_path)
    assert settings_for(settings, "Audit/Consumer.cs") == {}  # no settings file: nothing inherited
    assert settings_for(settings, "Tools/x.cs") == {}


def test_configuration_reads_link_to_their_own_projects_values(tmp_path: Path) -> None:
    result = _resolve(tmp_path, CSHARP)
    assert edges(result, "PRODUCES") == [
        "Orders/Producer.Producer.Send(2) -> topic:orders-created",
        "Orders/Producer.Producer.Send(2) -> topic:orders-replies",
    ]  # Missing, Password (never read), a dictionary's ["Kafka:Topic"] and a key in a variable: unknown
    assert edges(result, "CONSUMES") == [
        "Audit/Listener.OrdersListener.Run(0) -> topic:orders-created",
        "Audit/Listener.OrdersListener.Run(0) -> topic:orders-replies",
        "Billing/Consumer.Consumer.Run(0) -> topic:billing-own",
        "Billing/Consumer.Consumer.Run(0) -> topic:billing-own-retry",
    ]  # Audit's config["Kafka:Topic"] is not Orders' or Billing's value: Audit has no settings file
    # unknown, reported: Kafka:Missing, Kafka:Password (never kept), Audit's Kafka:Topic; not topics at all: a
    # dictionary's ["Kafka:Topic"] and _configuration[key] (no literal key)
    assert result.link_outcomes == {"consumes": 4, "produces": 2, "unlinked_topic": 3}


def test_nest_config_reads_take_the_namespace_or_the_package_env(tmp_path: Path) -> None:
    result = _resolve(tmp_path, TYPESCRIPT)
    assert load_env_files(tmp_path) == {"orders": {"KAFKA_TOPIC": "order-created"}, "billing": {}}
    assert edges(result, "PRODUCES") == [
        "orders/src/orders.service.OrdersService.create(1) -> topic:order-created",
        "orders/src/orders.service.OrdersService.create(1) -> topic:order-replies",
    ]  # the password is never read; kafka.missing has no value; a Map's get is no configuration read
    assert edges(result, "CONSUMES") == [
        "billing/src/billing.controller.BillingController.onCreated(1) -> topic:order-created",
        "billing/src/billing.controller.BillingController.onReply(1) -> topic:order-replies",
        "billing/src/billing.controller.BillingController.onSecret(1) -> topic:nest:hunter2",
    ]
    assert result.link_outcomes == {"consumes": 2, "consumes_nest": 1, "produces": 2, "unlinked_topic": 2}


def test_config_value_keeps_only_urls_and_names_of_destinations() -> None:
    assert config_value("KAFKA_TOPIC", "orders.created-v1") == "orders.created-v1"
    assert config_value("EventBus:SubscriptionClientName", "Ordering") == "Ordering"
    assert config_value("Catalog:Url", "https://catalog:443/api?key=s3cret") == "https://catalog:443/api"
    assert config_value("Kafka:Password", "hunter2") is None
    assert config_value("KafkaTopics:Customer", "customer-topic") == "customer-topic"  # a section naming topics
    assert config_value("KafkaTopics:UserCreated", "user.created") == "user.created"
    assert config_value("KAFKA_TOPIC_SECRET", "s3cret") is None  # the last part names a secret
    assert config_value("Kafka:Topics:Password", "hunter2") is None
    assert config_value("QUEUE", "two words") is None
    assert config_value("Topic:Password", "hunter2") is None  # the last part names no destination
    assert config_value("QUEUE", "x" * 201) is None


def test_hostile_settings_files_cost_only_themselves(tmp_path: Path) -> None:
    (tmp_path / "A").mkdir()
    (tmp_path / "A" / "A.csproj").write_text("<Project/>")
    (tmp_path / "A" / "appsettings.json").write_text('{"Kafka": {"Topic": ')
    (tmp_path / "A" / "appsettings.Development.json").write_text("[" * 100_000 + "]" * 100_000)
    (tmp_path / "B").mkdir()
    (tmp_path / "B" / "B.csproj").write_text("<Project/>")
    outside = tmp_path.parent / f"{tmp_path.name}-outside.json"
    outside.write_text('{"Kafka": {"Topic": "stolen"}}')
    os.symlink(outside, tmp_path / "B" / "appsettings.json")
    (tmp_path / "C").mkdir()
    (tmp_path / "C" / "C.csproj").write_text("<Project/>")
    (tmp_path / "C" / "appsettings.json").write_text('{"Topic": 5, "Queue": null, "Q": {"Topic": "ok"}}')
    assert load_app_settings(tmp_path) == {"A": {}, "B": {}, "C": {"q:topic": "ok"}}


def test_an_edited_settings_file_relinks_the_repository() -> None:
    assert is_config_path("Orders/appsettings.json")
    assert is_config_path("Orders/appsettings.Development.json")
    assert not is_config_path("Orders/appsettings.schema.cs")


def test_a_class_library_sees_the_values_its_host_projects_agree_on(tmp_path: Path) -> None:
    files = {
        "Payment.Ioc/Payment.Ioc.csproj": '<Project><ItemGroup><ProjectReference Include="..\\Payment.Infra\\Payment.Infra.csproj" />'
                                          "</ItemGroup></Project>",
        "Payment.Ioc/appsettings.json": '{"KafkaTopics": {"Reply": "OrderReply", "Own": "pay-own"}}',
        "Payment.Infra/Payment.Infra.csproj": '<Project><ItemGroup><ProjectReference Include="../Shared/Shared.csproj"/>'
                                              "</ItemGroup></Project>",
        "Shared/Shared.csproj": "<Project/>",
        "Order.Ioc/Order.Ioc.csproj": '<Project><ItemGroup><ProjectReference Include="..\\Shared\\Shared.csproj" />'
                                      "</ItemGroup></Project>",
        "Order.Ioc/appsettings.json": '{"KafkaTopics": {"Reply": "OrderReply", "Own": "order-own"}}',
        "Lonely/Lonely.csproj": "<Project/>",
    }
    for path, text in files.items():
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)
    assert load_app_settings(tmp_path) == {
        "Payment.Ioc": {"kafkatopics:reply": "OrderReply", "kafkatopics:own": "pay-own"},
        "Payment.Infra": {"kafkatopics:reply": "OrderReply", "kafkatopics:own": "pay-own"},  # one host
        "Shared": {"kafkatopics:reply": "OrderReply"},  # two hosts: only what both say
        "Order.Ioc": {"kafkatopics:reply": "OrderReply", "kafkatopics:own": "order-own"},
        "Lonely": {},  # referenced by no host
    }


FIELD = """
// --- path: producer/package.json ---
{"name": "producer", "dependencies": {"@nestjs/microservices": "10", "@nestjs/config": "3"}}
// --- path: producer/.env.development ---
KAFKA_TOPIC=stock-updates
// --- path: producer/src/stock.service.ts ---
import { Injectable, Inject } from '@nestjs/common';
import { ClientKafka } from '@nestjs/microservices';
import { ConfigService } from '@nestjs/config';
@Injectable()
export class StockService {
  private readonly topic: string;
  private readonly other: string;
  constructor(@Inject('STOCK') private readonly client: ClientKafka, private readonly configService: ConfigService) {
    this.topic = this.configService.get<string>('KAFKA_TOPIC');
    this.other = this.configService.get<string>('KAFKA_TOPIC');
  }
  tick() {
    this.client.emit(this.topic, {});
    this.client.emit(this.other, {});
  }
  retarget() {
    this.other = 'elsewhere';
  }
}
// --- path: consumer/package.json ---
{"name": "consumer", "dependencies": {"@nestjs/microservices": "10"}}
// --- path: consumer/src/stock.controller.ts ---
import { Controller } from '@nestjs/common';
import { EventPattern } from '@nestjs/microservices';
@Controller()
export class StockController {
  @EventPattern('stock-updates')
  handle(data: any) {}
}
"""


def test_a_field_set_from_config_service_in_the_constructor_names_the_topic(tmp_path: Path) -> None:
    # StockAlertify's producer, with the .env file its compose mounts into the package
    result = _resolve(tmp_path, FIELD)
    assert edges(result, "PRODUCES") == [
        "producer/src/stock.service.StockService.tick(0) -> topic:stock-updates",
    ]  # `other` is written twice: no constant, its emit stays unknown
    assert edges(result, "CONSUMES") == ["consumer/src/stock.controller.StockController.handle(1) -> topic:stock-updates"]
