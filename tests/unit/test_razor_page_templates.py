"""Razor Pages route templates (session 68, acc68c): the ``@page "template"`` directive of a page's
``.cshtml`` moves its page model's routes (:mod:`indexer.frameworks.razor_directives`): ``{handler?}`` serves a
named handler at ``/<page>/<handler>``, ``{id:int}`` appends a parameter, ``/x`` replaces the path. Negatives:
``@page`` alone, a file whose first directive is not ``@page``, and a ``.cshtml`` outside ``Pages`` change
nothing; a request to the conventional path of a named handler under ``{handler?}`` is not that handler's."""

from __future__ import annotations

import pytest

from indexer.frameworks.razor_directives import is_page_file, page_directive, page_route
from indexer.pipeline import index_repository
from indexer.rescan import is_config_path
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree


def test_page_directive() -> None:
    assert page_directive('\ufeff@page "{handler?}"\n@model IndexModel\n') == "{handler?}"
    assert page_directive("@page\n@model CheckoutModel\n") == ""
    assert page_directive('@* the basket *@\n@page "{id:int}"\r\n') == "{id:int}"
    assert page_directive('@model IndexModel\n@page "{id}"\n') is None  # @page must come first
    assert page_directive("<h1>partial</h1>\n") is None
    assert page_directive('@pageX "{id}"\n') is None
    assert is_page_file("src/Web/Pages/Basket/Index.cshtml")
    assert not is_page_file("src/Web/Views/Basket/Index.cshtml")
    assert not is_page_file("src/Web/Pages/Basket/Index.cshtml.cs")


def test_page_route() -> None:
    pages = {"Pages/Basket/Index.cshtml": "{handler?}", "Pages/Order/Detail.cshtml": "{orderId:int}",
             "Pages/Cart.cshtml": "~/checkout/{step?}", "Pages/Req.cshtml": "{handler}"}
    model = "Pages/Basket/Index.cshtml.cs"
    assert page_route(pages, model, "/basket", "IndexModel.OnPostUpdate") == "/basket/update"
    assert page_route(pages, model, "/basket/index", "IndexModel.OnPostUpdateAsync") == "/basket/index/update"
    assert page_route(pages, model, "/basket", "IndexModel.OnPost") == "/basket"
    assert page_route(pages, model, "/basket", "IndexModel.OnGetAsync") == "/basket"
    assert page_route(pages, "Pages/Order/Detail.cshtml.cs", "/order/detail", "DetailModel.OnGet") == \
        "/order/detail/{orderId}"
    assert page_route(pages, "Pages/Cart.cshtml.cs", "/cart", "CartModel.OnGet") == "/checkout/{step}"
    assert page_route(pages, "Pages/Req.cshtml.cs", "/req", "ReqModel.OnPost") == "/req/{handler}"
    assert page_route(pages, "Pages/Other.cshtml.cs", "/other", "OtherModel.OnPostSave") == "/other"
    assert page_route(pages, "Pages/Basket/Index.cs", "/basket", "IndexModel.OnPostUpdate") == "/basket"


_MODEL = """using Microsoft.AspNetCore.Mvc.RazorPages;
namespace Shop.Web.Pages.{ns};
public class {name}Model : PageModel
{{
{methods}
}}
"""

_TREE = {
    "src/Web/Web.csproj": '<Project Sdk="Microsoft.NET.Sdk.Web"></Project>\n',
    "src/Web/Pages/Basket/Index.cshtml": '\ufeff@page "{handler?}"\n@model IndexModel\n',
    "src/Web/Pages/Basket/Index.cshtml.cs": _MODEL.format(ns="Basket", name="Index", methods=(
        "    public void OnGet() { }\n    public void OnPost() { }\n    public Task OnPostUpdate() => null;\n")),
    "src/Web/Pages/Basket/Checkout.cshtml": "@page\n@model CheckoutModel\n",
    "src/Web/Pages/Basket/Checkout.cshtml.cs": _MODEL.format(ns="Basket", name="Checkout",
                                                            methods="    public void OnPost() { }\n"),
    "src/Web/Pages/Order/Detail.cshtml": '@page "{orderId:int}"\n@model DetailModel\n',
    "src/Web/Pages/Order/Detail.cshtml.cs": _MODEL.format(ns="Order", name="Detail",
                                                         methods="    public void OnGet(int orderId) { }\n"),
    "src/Web/Pages/Shared/_Layout.cshtml": '<html>@RenderBody()</html>\n@page "{nope}"\n',
    "src/Web/Views/Home/Index.cshtml": '@page "{nope}"\n',
    "tests/Web.FunctionalTests/BasketTests.cs": """using Xunit;
public class BasketTests(WebApplicationFactory<Program> factory)
{
    private readonly HttpClient _client = factory.CreateClient();
    [Fact] public async Task Updates() => await _client.PostAsync("/Basket/Update", null);
    [Fact] public async Task ShowsOrder() => await _client.GetAsync("/order/detail/5");
    [Fact] public async Task Checks() => await _client.PostAsync("/basket/checkout", null);
}
""",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory):
    tmp = tmp_path_factory.mktemp("razor")
    root = write_tree(tmp / "shop", _TREE)
    s = EmbeddedStore(tmp / "shop.db")
    index_repository(root, s, s, IndexOptions(repo="shop", jobs=1))
    yield s
    s.close()




def test_page_templates_move_the_routes_and_requests_reach_the_handler(store: EmbeddedStore) -> None:
    pages = "src/Web/Pages"
    exposed = {}
    for eid in ("endpoint:GET /basket", "endpoint:POST /basket", "endpoint:POST /basket/update",
                "endpoint:POST /basket/index/update", "endpoint:GET /order/detail/{}", "endpoint:GET /order/detail",
                "endpoint:POST /basket/checkout", "endpoint:GET /order/detail/{}/{}"):
        exposed[eid] = sorted(e.src.split(":", 1)[1] for e in store.incoming([eid], ["EXPOSES"]).get(eid, []))
    assert exposed == {
        "endpoint:GET /basket": [f"{pages}/Basket/Index.cshtml.IndexModel.OnGet(0)"],
        "endpoint:POST /basket": [f"{pages}/Basket/Index.cshtml.IndexModel.OnPost(0)"],  # not OnPostUpdate any more
        "endpoint:POST /basket/update": [f"{pages}/Basket/Index.cshtml.IndexModel.OnPostUpdate(0)"],
        "endpoint:POST /basket/index/update": [f"{pages}/Basket/Index.cshtml.IndexModel.OnPostUpdate(0)"],
        "endpoint:GET /order/detail/{}": [f"{pages}/Order/Detail.cshtml.DetailModel.OnGet(1)"],
        "endpoint:GET /order/detail": [],  # {orderId:int} is required
        "endpoint:POST /basket/checkout": [f"{pages}/Basket/Checkout.cshtml.CheckoutModel.OnPost(0)"],  # @page alone
        "endpoint:GET /order/detail/{}/{}": [],
    }
    callers = {}
    for eid in ("endpoint:POST /basket/update", "endpoint:GET /order/detail/{}", "endpoint:POST /basket/checkout"):
        callers[eid] = sorted(e.src.rsplit(".", 1)[-1] for e in store.incoming([eid], ["CALLS_HTTP"]).get(eid, []))
    assert callers == {"endpoint:POST /basket/update": ["Updates(0)"], "endpoint:GET /order/detail/{}": ["ShowsOrder(0)"],
                       "endpoint:POST /basket/checkout": ["Checks(0)"]}
    # the page file is configuration of the link: an edit relinks the tree
    assert is_config_path(f"{pages}/Basket/Index.cshtml") and not is_config_path("src/Web/Views/Home/Index.cshtml")


def test_a_hostile_page_is_read_in_linear_time() -> None:
    # a run of Razor comments can be split many ways if a comment may span "*@": each ends at its first "*@"
    assert page_directive("@*a*@" * 200_000) is None
    assert page_directive("@*" + "a" * 1_000_000) is None
    assert page_directive("@* a *@ b *@\n@page \"{id}\"\n") is None  # " b *@" is no comment


def test_a_one_shot_run_after_a_page_template_edit_equals_a_full_index(tmp_path) -> None:
    # a one-shot run reads the pages again with the link options; the watcher relinks on is_config_path (above)
    def run(src, db, state) -> list[str]:
        s = EmbeddedStore(db)
        try:
            index_repository(src, s, s, IndexOptions(repo="shop", jobs=1, state_dir=str(state) if state else None))
            eid = "endpoint:POST /basket/update"
            return sorted(e.src for e in s.incoming([eid], ["EXPOSES"]).get(eid, []))
        finally:
            s.close()

    src = write_tree(tmp_path / "shop", _TREE)
    assert run(src, tmp_path / "x.db", tmp_path / "state") == [
        "shop:src/Web/Pages/Basket/Index.cshtml.IndexModel.OnPostUpdate(0)"]
    (src / "src/Web/Pages/Basket/Index.cshtml").write_text('@page "{id:int}"\n@model IndexModel\n', encoding="utf-8")
    assert run(src, tmp_path / "x.db", tmp_path / "state") == [] == run(src, tmp_path / "full.db", None)
