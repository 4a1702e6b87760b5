"""The application a .NET test project beside the API tests (session 68, acc68c): a test project
outside every service unit (``Catalog.FunctionalTests`` next to ``Catalog.API``) gives its in-process
requests (``WebApplicationFactory<T>.CreateClient()``) the one named application its ``*.csproj``
references (:meth:`indexer.frameworks.link_options.LinkOptions.tested_application`), or of several the one
declaring the factory's entry type ``T`` (:mod:`indexer.frameworks.dotnet_test_apps`), so that when two
applications serve one route the test reaches its own application's handler only
(:func:`analysis.services.client_reaches`). Negatives: a test project referencing two applications whose
factory's ``Program`` both declare, and a test file in no .NET project, carry no application and reach every handler, as before."""

from __future__ import annotations

import pytest

from analysis.impact import SymbolQuery, blast_radius
from indexer.frameworks.link_options import LinkOptions
from indexer.pipeline import index_repository
from indexer.rescan import is_config_path
from indexer.run import IndexOptions
from stores.contracts import EDGE_APP
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

_CONTROLLER = """using Microsoft.AspNetCore.Mvc;
namespace {ns}.Controllers;
[ApiController]
[Route("api/items")]
public class ItemsController : ControllerBase
{{
    [HttpGet("{{id}}")]
    public IActionResult Get(int id) => Ok();
}}
"""

_TEST = """using Xunit;
namespace {ns};
public class ItemsTests(WebApplicationFactory<Program> factory) : IClassFixture<WebApplicationFactory<Program>>
{{
    private readonly HttpClient _client = factory.CreateClient();

    [Fact]
    public async Task GetsItem() => await _client.GetAsync("api/items/1");
}}
"""


def _csproj(*refs: str) -> str:
    items = "".join(f'    <ProjectReference Include="{r}" />\n' for r in refs)
    return f'<Project Sdk="Microsoft.NET.Sdk">\n  <ItemGroup>\n{items}  </ItemGroup>\n</Project>\n'


_TREE = {
    "docker-compose.yml": ("services:\n  catalog-api:\n    build:\n      context: src/Catalog.API\n"
                           "  basket-api:\n    build:\n      context: src/Basket.API\n"),
    "src/Catalog.API/Dockerfile": "FROM scratch\n",
    "src/Catalog.API/Catalog.API.csproj": _csproj(r"..\Shared\Shared.csproj"),
    "src/Catalog.API/Controllers/ItemsController.cs": _CONTROLLER.format(ns="Catalog"),
    "src/Basket.API/Dockerfile": "FROM scratch\n",
    "src/Basket.API/Basket.API.csproj": _csproj(),
    "src/Basket.API/Controllers/ItemsController.cs": _CONTROLLER.format(ns="Basket"),
    "src/Shared/Shared.csproj": _csproj(),
    # one application referenced (and a library): the test's application
    "tests/Catalog.FunctionalTests/Catalog.FunctionalTests.csproj": _csproj(
        r"..\..\src\Catalog.API\Catalog.API.csproj", r"..\..\src\Shared\Shared.csproj"),
    "tests/Catalog.FunctionalTests/ItemsTests.cs": _TEST.format(ns="Catalog.FunctionalTests"),
    # two applications referenced: which one the factory starts is not known
    "tests/Application.FunctionalTests/Application.FunctionalTests.csproj": _csproj(
        r"..\..\src\Catalog.API\Catalog.API.csproj", r"..\..\src\Basket.API\Basket.API.csproj"),
    "tests/Application.FunctionalTests/ItemsTests.cs": _TEST.format(ns="Application.FunctionalTests"),
    # two applications referenced, the factory's entry type declared by one of them (through the test project's
    # own factory subclass, and written as the argument)
    "src/Basket.API/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "src/Catalog.API/Program.cs": "var app = WebApplication.CreateBuilder(args).Build();\napp.Run();\n",
    "src/Basket.API/IBasketService.cs": "namespace Basket;\npublic interface IBasketService { }\n",
    "src/Catalog.API/CatalogOptions.cs": "namespace Catalog;\npublic class CatalogOptions { }\n",
    "tests/Shop.FunctionalTests/Shop.FunctionalTests.csproj": _csproj(
        r"..\..\src\Catalog.API\Catalog.API.csproj", r"..\..\src\Basket.API\Basket.API.csproj"),
    "tests/Shop.FunctionalTests/TestApplication.cs": (
        "public class TestApplication : WebApplicationFactory<IBasketService>\n{\n}\n"),
    "tests/Shop.FunctionalTests/Basket/ItemsTests.cs": """using Xunit;
namespace Shop.FunctionalTests.Basket;
public class ItemsTests : IClassFixture<TestApplication>
{
    public ItemsTests(TestApplication factory) { Client = factory.CreateClient(); }
    public HttpClient Client { get; }
    [Fact] public async Task GetsItem() => await Client.GetAsync("api/items/1");
}
""",
    "tests/Shop.FunctionalTests/Catalog/ItemsTests.cs": """using Xunit;
namespace Shop.FunctionalTests.Catalog;
public class ItemsTests(CustomWebApplicationFactory<Catalog.CatalogOptions> factory)
    : IClassFixture<CustomWebApplicationFactory<Catalog.CatalogOptions>>
{
    private readonly HttpClient _client = factory.CreateClient();
    [Fact] public async Task GetsItem() => await _client.GetAsync("api/items/1");
}
""",
    # no .NET project around the test
    "tests/Loose/ItemsTests.cs": _TEST.format(ns="Loose"),
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("aspnet_projects")
    root = write_tree(tmp / "shop", _TREE)
    s = EmbeddedStore(tmp / "shop.db")
    index_repository(root, s, s, IndexOptions(repo="shop", jobs=1))
    yield s
    s.close()


def test_tested_application_is_the_one_named_application_the_test_project_references(tmp_path) -> None:
    options = LinkOptions.for_repository(write_tree(tmp_path / "shop", _TREE))
    assert options.project_refs["tests/Catalog.FunctionalTests"] == frozenset({"src/Catalog.API", "src/Shared"})
    assert {p: options.tested_application(f"{p}/ItemsTests.cs") for p in (
        "tests/Catalog.FunctionalTests", "tests/Application.FunctionalTests", "tests/Loose", "src/Shared")} == {
        "tests/Catalog.FunctionalTests": "catalog-api",
        "tests/Application.FunctionalTests": None,  # two applications
        "tests/Loose": None,  # in no .NET project
        "src/Shared": None,  # references nothing
    }
    # an edited reference changes which application other files' tests carry: the update relinks the tree
    assert is_config_path("tests/Catalog.FunctionalTests/Catalog.FunctionalTests.csproj")
    assert not is_config_path("tests/Catalog.FunctionalTests/ItemsTests.cs")


def test_in_process_requests_carry_the_referenced_application(store: EmbeddedStore) -> None:
    eid = "endpoint:GET /api/items/{}"
    edges = store.incoming([eid], ["CALLS_HTTP"]).get(eid, [])
    assert sorted(("/".join(e.src.split(":", 1)[1].split("/")[1:-1]), e.props.get("framework"), e.props.get(EDGE_APP))
                  for e in edges) == [
        ("Application.FunctionalTests", "aspnet-test", None),  # WebApplicationFactory<Program>: both have one
        ("Catalog.FunctionalTests", "aspnet-test", "catalog-api"),
        ("Loose", "aspnet-test", None),
        ("Shop.FunctionalTests/Basket", "aspnet-test", "basket-api"),  # TestApplication's IBasketService
        ("Shop.FunctionalTests/Catalog", "aspnet-test", "catalog-api"),  # the argument, a Catalog.API type
    ]


def test_a_test_reaches_only_its_own_applications_handler(store: EmbeddedStore) -> None:
    def tests_of(target: str) -> list[str]:
        report = blast_radius(store, SymbolQuery(target))
        return sorted("/".join(t.node.id.split(":", 1)[1].split("/")[1:-1]) for t in report.tests)

    assert tests_of("shop:src/Catalog.API/Controllers/ItemsController.ItemsController.Get(1)") == [
        "Application.FunctionalTests", "Catalog.FunctionalTests", "Loose", "Shop.FunctionalTests/Catalog"]
    assert tests_of("shop:src/Basket.API/Controllers/ItemsController.ItemsController.Get(1)") == [
        "Application.FunctionalTests", "Loose", "Shop.FunctionalTests/Basket"]  # not the Catalog ones


_WEB = '<Project Sdk="Microsoft.NET.Sdk.Web">\n  <PropertyGroup><TargetFramework>net9.0</TargetFramework></PropertyGroup>\n</Project>\n'

_UNCONTAINED = {  # no Dockerfile, no compose: the Web SDK projects are the applications (CleanArchitecture's layout)
    "src/Clean.Web/Clean.Web.csproj": _WEB,
    "src/Clean.Web/Controllers/ItemsController.cs": _CONTROLLER.format(ns="Clean"),
    "src/Clean.Core/Clean.Core.csproj": _csproj(),  # a class library: no application
    "sample/Sample.Web/Sample.Web.csproj": '<Project>\n  <Sdk Name="Microsoft.NET.Sdk.Web" />\n</Project>\n',
    "sample/Sample.Web/Controllers/ItemsController.cs": _CONTROLLER.format(ns="Sample"),
    "tests/Clean.FunctionalTests/Clean.FunctionalTests.csproj": _csproj(
        r"..\..\src\Clean.Web\Clean.Web.csproj", r"..\..\src\Clean.Core\Clean.Core.csproj"),
    "tests/Clean.FunctionalTests/ItemsTests.cs": _TEST.format(ns="Clean.FunctionalTests"),
    "sample/Sample.FunctionalTests/Sample.FunctionalTests.csproj": _csproj(r"..\Sample.Web\Sample.Web.csproj"),
    "sample/Sample.FunctionalTests/ItemsTests.cs": _TEST.format(ns="Sample.FunctionalTests"),
}


def test_web_sdk_projects_are_applications_and_scope_their_tests(tmp_path) -> None:
    root = write_tree(tmp_path / "clean", _UNCONTAINED)
    assert LinkOptions.for_repository(root).units == {"sample/Sample.Web": "Sample.Web", "src/Clean.Web": "Clean.Web"}
    s = EmbeddedStore(tmp_path / "clean.db")
    try:
        index_repository(root, s, s, IndexOptions(repo="clean", jobs=1))
        eid = "endpoint:GET /api/items/{}"
        assert sorted(e.props.get(EDGE_APP) for e in s.incoming([eid], ["CALLS_HTTP"]).get(eid, [])) == [
            "Clean.Web", "Sample.Web"]

        def tests_of(target: str) -> list[str]:
            return sorted(t.node.id.split(":", 1)[1].split("/")[1] for t in blast_radius(s, SymbolQuery(target)).tests)

        assert tests_of("clean:src/Clean.Web/Controllers/ItemsController.ItemsController.Get(1)") == ["Clean.FunctionalTests"]
        assert tests_of("clean:sample/Sample.Web/Controllers/ItemsController.ItemsController.Get(1)") == [
            "Sample.FunctionalTests"]
    finally:
        s.close()
