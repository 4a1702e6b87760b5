"""ASP.NET Core route token transformers (session 68, acc68c; :mod:`indexer.frameworks.route_tokens`): a project
registering ``RouteTokenTransformerConvention(new SlugifyParameterTransformer())``, whose transformer is the
documented slugify body, serves ``[controller]/[action]`` routes kebab-cased (``/manage/my-account``), and a
test's request to that path reaches the action. Negatives: a literal route segment, a conventionally routed
action, a project registering nothing and a project whose transformer does something else keep the lower-case
tokens."""

from __future__ import annotations

import pytest

from indexer.frameworks.route_tokens import slug, transform_tokens
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

_SLUGIFY = """using System.Text.RegularExpressions;
using Microsoft.AspNetCore.Routing;
namespace Shop.Web;
public class SlugifyParameterTransformer : IOutboundParameterTransformer
{
    public string? TransformOutbound(object? value)
    {
        if (value == null) { return null; }
        return Regex.Replace(value.ToString(), "([a-z])([A-Z])", "$1-$2").ToLower();
    }
}
"""

_PROGRAM = """var builder = WebApplication.CreateBuilder(args);
builder.Services.AddMvc(options =>
{{
    options.Conventions.Add(new RouteTokenTransformerConvention(new {transformer}()));
}});
var app = builder.Build();
app.MapDefaultControllerRoute();
app.Run();
"""

_CONTROLLERS = """using Microsoft.AspNetCore.Mvc;
namespace {ns}.Controllers;
[Route("[controller]/[action]")]
public class ManageAccountController : Controller
{{
    [HttpGet]
    public IActionResult MyAccount() => View();
    [HttpPost]
    public IActionResult ChangePassword() => View();
}}

[ApiController]
[Route("api/catalogitems")]
public class CatalogItemsController : ControllerBase
{{
    [HttpGet("{{id}}")]
    public IActionResult GetById(int id) => Ok();
}}

public class OrderHistoryController : Controller
{{
    public IActionResult MyOrders() => View();
}}
"""

_TREE = {
    "src/Web/Web.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
    "src/Web/Program.cs": _PROGRAM.format(transformer="SlugifyParameterTransformer"),
    "src/Web/SlugifyParameterTransformer.cs": _SLUGIFY,
    "src/Web/Controllers/Controllers.cs": _CONTROLLERS.format(ns="Web"),
    "src/Admin/Admin.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
    "src/Admin/Controllers/Controllers.cs": _CONTROLLERS.format(ns="Admin"),
    "src/Other/Other.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
    "src/Other/Program.cs": _PROGRAM.format(transformer="UpperTransformer"),
    "src/Other/UpperTransformer.cs": ("public class UpperTransformer : IOutboundParameterTransformer\n{\n"
                                      "    public string? TransformOutbound(object? value) => value?.ToString()?.ToUpper();\n}\n"),
    "src/Other/Controllers/Controllers.cs": _CONTROLLERS.format(ns="Other"),
    "tests/Web.FunctionalTests/ManageTests.cs": """using Xunit;
public class ManageTests(WebApplicationFactory<Program> factory)
{
    private readonly HttpClient _client = factory.CreateClient();
    [Fact] public async Task ShowsAccount() => await _client.GetAsync("/manage-account/my-account");
}
""",
}


def test_slug_and_transform_tokens() -> None:
    assert slug("MyAccount", "-") == "my-account"
    assert slug("ManageAccount", "_") == "manage_account"
    assert slug("Orders", "-") == "orders"
    assert transform_tokens("/manageaccount/myaccount/{id}", "-", {"manageaccount": "ManageAccount",
                                                                  "myaccount": "MyAccount"}) == \
        "/manage-account/my-account/{id}"
    assert transform_tokens("/api/myaccount", "-", {}) == "/api/myaccount"


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("tokens")
    root = write_tree(tmp / "shop", _TREE)
    s = EmbeddedStore(tmp / "shop.db")
    index_repository(root, s, s, IndexOptions(repo="shop", jobs=1))
    yield s
    s.close()


def _served(store: EmbeddedStore, eid: str) -> list[str]:
    return sorted(e.src.split(":", 1)[1].split("/")[1] + " " + e.src.rsplit(".", 1)[-1]
                  for e in store.incoming([eid], ["EXPOSES"]).get(eid, []))


def test_a_slugifying_transformer_kebab_cases_the_tokens_of_its_projects_routes(store: EmbeddedStore) -> None:
    assert {eid: _served(store, f"endpoint:{eid}") for eid in (
        "GET /manage-account/my-account", "POST /manage-account/change-password",
        "GET /manageaccount/myaccount", "POST /manageaccount/changepassword",
        "GET /api/catalogitems/{}", "GET /api/catalog-items/{}",
        "* /orderhistory/myorders", "* /order-history/my-orders")} == {
        "GET /manage-account/my-account": ["Web MyAccount(0)"],
        "POST /manage-account/change-password": ["Web ChangePassword(0)"],
        "GET /manageaccount/myaccount": ["Admin MyAccount(0)", "Other MyAccount(0)"],  # no slugify there
        "POST /manageaccount/changepassword": ["Admin ChangePassword(0)", "Other ChangePassword(0)"],
        "GET /api/catalogitems/{}": ["Admin GetById(1)", "Other GetById(1)", "Web GetById(1)"],  # a literal
        "GET /api/catalog-items/{}": [],
        "* /orderhistory/myorders": ["Admin MyOrders(0)", "Other MyOrders(0)", "Web MyOrders(0)"],  # conventional
        "* /order-history/my-orders": [],
    }
    eid = "endpoint:GET /manage-account/my-account"
    assert [e.src.rsplit(".", 1)[-1] for e in store.incoming([eid], ["CALLS_HTTP"]).get(eid, [])] == ["ShowsAccount(0)"]
