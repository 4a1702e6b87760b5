"""ASP.NET Core in-process test clients (``aspnet-test``): requests on the ``HttpClient`` a
``WebApplicationFactory<T>.CreateClient()`` or ``TestServer.CreateClient()`` gives go to the application under
test, carry its application when one names the test's folder, and are read in test files that never write the
word ``HttpClient`` (eShopOnContainers' ``server.CreateClient().GetAsync(...)``). Negatives: an
``IHttpClientFactory``'s ``CreateClient()`` and a ``new HttpClient()`` stay ``httpclient``; a non-test file's
``CreateClient()`` gives nothing new."""

from __future__ import annotations

import pytest

from indexer.frameworks.app_prefixes import OWN_APP_CLIENTS
from indexer.languages.csharp.frameworks.dotnet_http_clients import IN_PROCESS
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import EDGE_APP
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree
from tests.unit.test_route_names import _calls, _resolve

_CONTROLLER = """using Microsoft.AspNetCore.Mvc;
namespace {ns}.Controllers;
[ApiController]
[Route("api/items")]
public class ItemsController : ControllerBase
{{
    [HttpGet("{{id}}")]
    public IActionResult Get(int id) => Ok();
    [HttpPost]
    public IActionResult Create() => Ok();
}}
"""

FIXTURE = f"""
# --- path: src/Api/Controllers/ItemsController.cs ---
{_CONTROLLER.format(ns="Api")}
# --- path: tests/Api.FunctionalTests/ItemsTests.cs ---
using Xunit;
public class ItemsTests : IClassFixture<WebApplicationFactory<Program>>
{{
    public ItemsTests(WebApplicationFactory<Program> factory)
    {{
        Client = factory.CreateClient(new WebApplicationFactoryClientOptions {{ AllowAutoRedirect = false }});
    }}
    public HttpClient Client {{ get; }}
    [Fact]
    public async Task Gets()
    {{
        var response = await Client.GetAsync("/api/items/1");
        using var server = new TestServer(null);
        await server.CreateClient().PostAsJsonAsync("api/items", new {{ }});
        var other = new HttpClient();
        await other.GetAsync("/api/items/2");
    }}
}}
# --- path: tests/Api.FunctionalTests/ProgramTest.cs ---
public class ProgramTest
{{
    private static WebApplicationFactory<Program> _application = new();
    public static HttpClient NewClient => _application.CreateClient();
    public async Task Own() {{ await NewClient.GetAsync("/api/items/3"); }}
}}
# --- path: tests/Api.FunctionalTests/Scenarios.cs ---
public class Scenarios
{{
    public async Task Post()
    {{
        using var server = CreateServer();
        var client = server.CreateClient();
        await client.PostAsync("api/items", null);
    }}
}}
# --- path: tests/Api.IntegrationTests/ListTests.cs ---
using System.Net.Http;
public class ListTests
{{
    public async Task List()
    {{
        var client = ProgramTest.NewClient;
        await client.GetAsync("/api/items/6");
        await _repository.GetAsync("/api/items/7");
    }}
}}
# --- path: src/Web/Services/Catalog.cs ---
public class Catalog
{{
    private readonly IHttpClientFactory _httpClientFactory;
    public async Task Fetch()
    {{
        var client = _httpClientFactory.CreateClient();
        await client.GetAsync("/api/items/4");
    }}
}}
# --- path: src/Web/Services/Proxy.cs ---
public class Proxy
{{
    public async Task Fetch(Factory factory)
    {{
        await factory.CreateClient().GetAsync("/api/items/5");
    }}
}}
"""


def test_factory_and_test_server_clients_are_in_process_test_requests() -> None:
    def link(file: str, line: int, caller: str, method: str, path: str, url: str, framework: str,
             literal: bool = True) -> tuple:
        props = {"framework": framework, "url": url, **({"literal": True} if literal else {})}
        return (file, line, caller, "CALLS_HTTP", f"endpoint:{method} {path}", props)

    tests = "tests/Api.FunctionalTests/"
    assert _calls(_resolve(FIXTURE)) == [
        # an IHttpClientFactory's client is an outgoing one
        link("src/Web/Services/Catalog.cs", 7, "src/Web/Services/Catalog.Catalog.Fetch(0)", "GET", "/api/items/{}",
             "/api/items/4", "httpclient"),
        # a property set from factory.CreateClient(options) in the constructor
        link(f"{tests}ItemsTests.cs", 12, "tests/Api.FunctionalTests/ItemsTests.ItemsTests.Gets(0)", "GET",
             "/api/items/{}", "/api/items/1", IN_PROCESS),
        # TestServer.CreateClient() itself as the receiver
        link(f"{tests}ItemsTests.cs", 14, "tests/Api.FunctionalTests/ItemsTests.ItemsTests.Gets(0)", "POST",
             "/api/items", "api/items", IN_PROCESS, literal=False),
        # a `new HttpClient()` of the same test is no test client
        link(f"{tests}ItemsTests.cs", 16, "tests/Api.FunctionalTests/ItemsTests.ItemsTests.Gets(0)", "GET",
             "/api/items/{}", "/api/items/2", "httpclient"),
        # a property returning _application.CreateClient()
        link(f"{tests}ProgramTest.cs", 5, "tests/Api.FunctionalTests/ProgramTest.ProgramTest.Own(0)", "GET",
             "/api/items/{}", "/api/items/3", IN_PROCESS),
        # a local given server.CreateClient(), in a file that never writes HttpClient (read before: nothing)
        link(f"{tests}Scenarios.cs", 7, "tests/Api.FunctionalTests/Scenarios.Scenarios.Post(0)", "POST",
             "/api/items", "api/items", IN_PROCESS, literal=False),
        # a file using System.Net.Http whose client another file made: an HttpClient request (which client is
        # not known here), and the same call on a receiver not named as a client is none
        link("tests/Api.IntegrationTests/ListTests.cs", 7, "tests/Api.IntegrationTests/ListTests.ListTests.List(0)",
             "GET", "/api/items/{}", "/api/items/6", "httpclient"),
    ]  # and src/Web/Services/Proxy.cs (no test file, no HttpClient written) gives no request
    assert IN_PROCESS in OWN_APP_CLIENTS


_TREE = {
    "docker-compose.yml": ("services:\n  catalog-api:\n    build:\n      context: services/catalog\n"
                           "  basket-api:\n    build:\n      context: services/basket\n"),
    "services/catalog/Dockerfile": "FROM scratch\n",
    "services/catalog/Catalog.API/Controllers/ItemsController.cs": _CONTROLLER.format(ns="Catalog"),
    "services/catalog/Catalog.FunctionalTests/ItemsScenarios.cs": (
        "public class ItemsScenarios\n{\n    public async Task Get()\n    {\n"
        "        using var server = CreateServer();\n"
        "        await server.CreateClient().GetAsync(\"api/items/1\");\n    }\n}\n"),
    "services/basket/Dockerfile": "FROM scratch\n",
    "services/basket/Basket.API/Controllers/ItemsController.cs": _CONTROLLER.format(ns="Basket"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("aspnet")
    root = write_tree(tmp / "shop", _TREE)
    s = EmbeddedStore(tmp / "shop.db")
    index_repository(root, s, s, IndexOptions(repo="shop", jobs=1))
    yield s
    s.close()


def test_an_in_process_request_carries_the_application_holding_the_test(store: EmbeddedStore) -> None:
    eid = "endpoint:GET /api/items/{}"
    edges = store.incoming([eid], ["CALLS_HTTP"]).get(eid, [])
    assert [(e.src, e.props.get("framework"), e.props.get("service"), e.props.get(EDGE_APP)) for e in edges] == [
        ("shop:services/catalog/Catalog.FunctionalTests/ItemsScenarios.ItemsScenarios.Get(0)", IN_PROCESS, None,
         "catalog-api"),
    ]
    served = store.incoming([eid], ["EXPOSES"]).get(eid, [])
    assert sorted(e.props.get("service") for e in served) == ["basket-api", "catalog-api"]


INHERITED = """
# --- path: src/Catalog.API/Controllers/CatalogController.cs ---
using Microsoft.AspNetCore.Mvc;
[ApiController]
[Route("api/v1/[controller]")]
public class CatalogController : ControllerBase
{
    [HttpGet("items/{id:int}")]
    public IActionResult ItemById(int id) => Ok();
}
# --- path: tests/Catalog.FunctionalTests/CatalogScenariosBase.cs ---
public class CatalogScenariosBase
{
    public static class Get
    {
        public static string ItemById(int id)
        {
            return $"api/v1/catalog/items/{id}";
        }
    }
}
# --- path: tests/Catalog.FunctionalTests/CatalogScenarios.cs ---
public class CatalogScenarios : CatalogScenariosBase
{
    public async Task Get_item()
    {
        using var server = CreateServer();
        var response = await server.CreateClient().GetAsync(Get.ItemById(1));
    }
}
# --- path: tests/Catalog.FunctionalTests/Unrelated.cs ---
public class Unrelated
{
    public async Task Get_item()
    {
        using var server = CreateServer();
        var response = await server.CreateClient().GetAsync(Get.ItemById(1));
    }
}
"""


def test_a_url_builder_of_a_base_classs_nested_type_folds_in_the_subclass() -> None:
    # eShopOnContainers' functional tests: CatalogScenarios : CatalogScenariosBase calls Get.ItemById(1), a builder
    # of the nested class CatalogScenariosBase.Get in another file; a class that does not derive from it does not
    assert _calls(_resolve(INHERITED)) == [
        ("tests/Catalog.FunctionalTests/CatalogScenarios.cs", 6,
         "tests/Catalog.FunctionalTests/CatalogScenarios.CatalogScenarios.Get_item(0)", "CALLS_HTTP",
         "endpoint:GET /api/v1/catalog/items/{}", {"framework": IN_PROCESS, "url": "api/v1/catalog/items/{}"}),
        ("tests/Catalog.FunctionalTests/Unrelated.cs", 6, "tests/Catalog.FunctionalTests/Unrelated.Unrelated.Get_item(0)",
         "UNLINKED", "unlinked:url", {"call": "GET {}", "framework": IN_PROCESS}),
    ]
