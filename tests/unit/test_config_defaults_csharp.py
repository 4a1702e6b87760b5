""".NET configuration reads with a default (session 67, acc67c): ``GetValue<string>("K", "d")`` and
``configuration["K"] ?? "d"`` name the project's setting when its appsettings file sets the key, else the default.
Negatives: a default that is no literal names nothing, a read without a default whose key is missing stays unlinked."""

from __future__ import annotations

from pathlib import Path

from tests.resolution_harness import edges
from tests.unit.test_config_named_topics import _resolve

CSHARP = """
// --- path: Orders/Orders.csproj ---
<Project Sdk="Microsoft.NET.Sdk.Web"></Project>
// --- path: Orders/appsettings.json ---
{ "Kafka": { "Topic": "orders-created" } }
// --- path: Orders/Producer.cs ---
using Confluent.Kafka;
namespace Shop.Orders;
public class Producer
{
    private readonly IConfiguration _configuration;
    private readonly IProducer<string, string> _producer;
    private readonly string _fallback = "x";
    public async Task Send(string m)
    {
        await _producer.ProduceAsync(_configuration.GetValue<string>("Kafka:Topic", "orders-default"), m);
        await _producer.ProduceAsync(_configuration.GetValue<string>("Kafka:Audit", "orders-audit"), m);
        await _producer.ProduceAsync(_configuration["Kafka:Replies"] ?? "orders-replies", m);
        await _producer.ProduceAsync(_configuration["Kafka:Other"] ?? _fallback, m);
        await _producer.ProduceAsync(_configuration.GetValue<string>("Kafka:Missing"), m);
    }
}
"""


def test_configuration_defaults_apply_when_no_file_sets_the_key(tmp_path: Path) -> None:
    result = _resolve(tmp_path, CSHARP)
    assert edges(result, "PRODUCES") == [
        "Orders/Producer.Producer.Send(1) -> topic:orders-audit",
        "Orders/Producer.Producer.Send(1) -> topic:orders-created",  # the file's value wins over the default
        "Orders/Producer.Producer.Send(1) -> topic:orders-replies",
    ]  # `?? _fallback` (no literal) and Kafka:Missing (no default): unknown
    assert result.link_outcomes == {"produces": 3, "unlinked_topic": 1}
