""".NET options bound from configuration: ``IOptions<T>`` / ``IOptionsSnapshot<T>`` / ``IOptionsMonitor<T>`` reads
(``_settings.Value.PurchaseUrl``, ``_urls.Orders`` after ``_urls = config.Value``) render the appsettings value of
the section ``services.Configure<T>(...)`` / ``AddOptions<T>().Bind(...)`` / ``BindConfiguration(...)`` binds to
``T``, in the reading file's own project. Negatives: an options class nothing binds, a name the appsettings does
not set, a ``Configure<T>(options => ...)`` lambda, another project's binding."""

from __future__ import annotations

import json
import sqlite3

import pytest

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

_CSPROJ = '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n'

_TREE = {
    "Shop/Shop.csproj": _CSPROJ,
    "Shop/appsettings.json": ('{"PurchaseUrl": "http://gateway:5202", "Urls": {"Orders": "http://ordering-api"},'
                              ' "Kafka": {"Topic": "orders-topic"}, "Unbound": {"Url": "http://nowhere"}}\n'),
    "Shop/Startup.cs": """public class Startup
{
    public void ConfigureServices(IServiceCollection services, IConfiguration configuration)
    {
        services.Configure<AppSettings>(configuration);
        var section = configuration.GetRequiredSection(UrlsConfig.CONFIG_NAME);
        services.Configure<UrlsConfig>(section);
        services.AddOptions<KafkaOptions>().BindConfiguration("Kafka");
        services.Configure<LambdaOptions>(options => options.Url = "x");
    }
}
""",
    "Shop/Services/BasketService.cs": """public class BasketService
{
    private readonly IOptions<AppSettings> _settings;
    private readonly HttpClient _client;
    public BasketService(HttpClient client, IOptions<AppSettings> settings)
    {
        _client = client;
        _settings = settings;
    }
    public async Task Get(int id) => await _client.GetAsync($"{_settings.Value.PurchaseUrl}/api/v1/basket/{id}");
}
""",
    "Shop/UrlsConfig.cs": 'public class UrlsConfig\n{\n    public const string CONFIG_NAME = "Urls";\n}\n',
    "Shop/Services/OrderApiClient.cs": """public class OrderApiClient
{
    private readonly UrlsConfig _urls;
    private readonly HttpClient _client;
    public OrderApiClient(HttpClient client, IOptionsSnapshot<UrlsConfig> config, IOptions<LambdaOptions> other,
                          IOptions<UnboundOptions> unbound)
    {
        _client = client;
        _urls = config.Value;
        _other = other;
        _unbound = unbound;
    }
    public async Task Draft() => await _client.PostAsync($"{_urls.Orders}/api/v1/orders/draft", null);
    public async Task Missing() => await _client.GetAsync($"{_urls.Billing}/api/v1/bills");
    public async Task Lambda() => await _client.GetAsync($"{_other.Value.Url}/api/v1/lambda");
    public async Task Unbound() => await _client.GetAsync($"{_unbound.Value.Url}/api/v1/unbound");
}
""",
    "Shop/Services/Publisher.cs": """using Confluent.Kafka;

public class Publisher
{
    private readonly IOptionsMonitor<KafkaOptions> _kafka;
    private readonly IProducer<string, string> _producer;
    public Publisher(IOptionsMonitor<KafkaOptions> kafka, IProducer<string, string> producer)
    {
        _kafka = kafka;
        _producer = producer;
    }
    public void Send() => _producer.Produce(_kafka.CurrentValue.Topic, new Message<string, string>());
}
""",
    # another project reads the same class; its own configuration binds nothing
    "Other/Other.csproj": _CSPROJ,
    "Other/appsettings.json": '{"PurchaseUrl": "http://other:1", "BaseUrls": {"ApiBase": "http://public-api/api/"}}\n',
    # top-level statements: a local named configSection is a section, followed to its value
    "Other/Program.cs": ('var builder = WebApplication.CreateBuilder(args);\n'
                         'var configSection = builder.Configuration.GetRequiredSection("BaseUrls");\n'
                         'builder.Services.Configure<BaseUrls>(configSection);\n'),
    "Other/Health.cs": """public class Health
{
    private readonly BaseUrls _baseUrls;
    public Health(IOptions<BaseUrls> baseUrls) { _baseUrls = baseUrls.Value; }
    public async Task Check() => await new HttpClient().GetAsync(_baseUrls.ApiBase + "catalog-items");
}
""",
    "Other/Client.cs": """public class Client
{
    private readonly IOptions<AppSettings> _settings;
    private readonly HttpClient _client;
    public async Task Get() => await _client.GetAsync($"{_settings.Value.PurchaseUrl}/api/v1/other");
}
""",
}


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("options")
    root = write_tree(tmp / "shop", _TREE)
    s = EmbeddedStore(tmp / "shop.db")
    index_repository(root, s, s, IndexOptions(repo="shop", jobs=1))
    s.close()
    return tmp / "shop.db"


def test_options_reads_render_the_bound_sections_appsettings_value(db) -> None:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT file, line, kind, dst, props FROM edges WHERE kind IN ('CALLS_HTTP', 'UNLINKED',"
                            " 'PRODUCES') ORDER BY file, line").fetchall()
    finally:
        conn.close()
    assert [(f, line, kind, dst, json.loads(p).get("url")) for f, line, kind, dst, p in rows] == [
        # another project: nothing there binds AppSettings, so its own PurchaseUrl is not taken
        ("Other/Client.cs", 5, "CALLS_HTTP", "endpoint:GET /api/v1/other", "{}/api/v1/other"),
        ("Other/Health.cs", 5, "CALLS_HTTP", "endpoint:GET /api/catalog-items", "http://public-api/api/catalog-items"),
        # Configure<AppSettings>(configuration): the root key PurchaseUrl
        ("Shop/Services/BasketService.cs", 10, "CALLS_HTTP", "endpoint:GET /api/v1/basket/{}",
         "http://gateway:5202/api/v1/basket/{}"),
        # _urls = config.Value (IOptionsSnapshot<UrlsConfig>), bound to GetRequiredSection(UrlsConfig.CONFIG_NAME) through a local:
        # Urls:Orders
        ("Shop/Services/OrderApiClient.cs", 13, "CALLS_HTTP", "endpoint:POST /api/v1/orders/draft",
         "http://ordering-api/api/v1/orders/draft"),
        ("Shop/Services/OrderApiClient.cs", 14, "CALLS_HTTP", "endpoint:GET /api/v1/bills", "{}/api/v1/bills"),  # unset
        ("Shop/Services/OrderApiClient.cs", 15, "CALLS_HTTP", "endpoint:GET /api/v1/lambda", "{}/api/v1/lambda"),
        ("Shop/Services/OrderApiClient.cs", 16, "CALLS_HTTP", "endpoint:GET /api/v1/unbound", "{}/api/v1/unbound"),
        # AddOptions<KafkaOptions>().BindConfiguration("Kafka"), read through IOptionsMonitor's CurrentValue
        ("Shop/Services/Publisher.cs", 12, "PRODUCES", "topic:orders-topic", None),
    ]
