"""ASP.NET Core Razor Pages: a page model's ``On<Verb>[Handler][Async]`` methods are routes at the path of its
``.cshtml.cs`` file below ``Pages`` (an area's name first; an ``Index`` page answers its folder too), and what
is no page handler (another class of the file, a private or static method, a file outside ``Pages``)."""

from __future__ import annotations

from indexer.languages.csharp.frameworks.razor_pages import page_paths
from tests.resolution_harness import edges, resolve_fixture
from tests.unit.test_frameworks_csharp import extract, routes

BASKET = '''using Microsoft.AspNetCore.Mvc;
using Microsoft.AspNetCore.Mvc.RazorPages;

namespace Shop.Web.Pages.Basket;

public class IndexModel : PageModel
{
    public async Task OnGet() { }
    public async Task<IActionResult> OnPost(CatalogItemViewModel productDetails) => RedirectToPage();
    public async Task OnPostUpdate(IEnumerable<BasketItemViewModel> items) { }
    public Task OnDeleteAsync(int id) => Task.CompletedTask;
    private void OnPostHidden() { }
    public static void OnGetStatic() { }
    public void OnPageHandlerExecuting(PageHandlerExecutingContext context) { }
    public void Other() { }
}

public class BasketItemViewModel
{
    public void OnGet() { }
}
'''


def test_page_handlers_of_an_index_page_answer_the_folder_and_the_page() -> None:
    assert routes(extract(BASKET, "src/Web/Pages/Basket/Index.cshtml.cs")) == [
        ("aspnet", ["GET"], "/basket", "IndexModel.OnGet", None),
        ("aspnet", ["GET"], "/basket/index", "IndexModel.OnGet", None),
        ("aspnet", ["POST"], "/basket", "IndexModel.OnPost", None),
        ("aspnet", ["POST"], "/basket/index", "IndexModel.OnPost", None),
        ("aspnet", ["POST"], "/basket", "IndexModel.OnPostUpdate", None),
        ("aspnet", ["POST"], "/basket/index", "IndexModel.OnPostUpdate", None),
        ("aspnet", ["DELETE"], "/basket", "IndexModel.OnDeleteAsync", None),
        ("aspnet", ["DELETE"], "/basket/index", "IndexModel.OnDeleteAsync", None),
    ]  # private / static handlers, PageModel's own filter methods, other methods and other classes: none


def test_the_same_page_model_outside_a_pages_folder_or_a_cshtml_file_is_no_page() -> None:
    assert routes(extract(BASKET, "src/Web/Views/Basket/Index.cshtml.cs")) == []
    assert routes(extract(BASKET, "src/Web/Pages/Basket/Index.cs")) == []


AREA = '''namespace Shop.Web.Areas.Identity.Pages.Account;

public class LoginModel : ShopPageBase<LoginModel>
{
    public async Task OnGetAsync(string? returnUrl = null) { }
    public async Task<IActionResult> OnPostAsync(string? returnUrl = null) => Page();

    public class InputModel
    {
        public Task OnPostAsync() => null;
    }
}

public abstract class LoginModelBase : PageModel
{
    public void OnGet() { }
}
'''


def test_an_area_page_whose_model_follows_the_naming_convention() -> None:
    assert routes(extract(AREA, "src/Web/Areas/Identity/Pages/Account/Login.cshtml.cs")) == [
        ("aspnet", ["GET"], "/identity/account/login", "LoginModel.OnGetAsync", None),
        ("aspnet", ["POST"], "/identity/account/login", "LoginModel.OnPostAsync", None),
    ]  # the nested InputModel has no base; the abstract LoginModelBase is no page


def test_page_paths() -> None:
    assert page_paths("src/Web/Pages/Index.cshtml.cs") == ["/", "/index"]
    assert page_paths("Pages/Basket/Checkout.cshtml.cs") == ["/basket/checkout"]
    assert page_paths("Pages/Admin/Index.cshtml.cs") == ["/admin", "/admin/index"]
    assert page_paths("Areas/Identity/Pages/Account/Login.cshtml.cs") == ["/identity/account/login"]
    assert page_paths("Areas/Identity/Pages/Index.cshtml.cs") == ["/identity", "/identity/index"]
    assert page_paths("App/Pages/Shared/Pages/Item.cshtml.cs") == ["/item"]  # the last Pages folder is the root
    assert page_paths("Pages/Item.cs") == []
    assert page_paths("Views/Home/Index.cshtml.cs") == []
    assert page_paths("Pages/.cshtml.cs") == []


LINKED = """
// --- path: src/Web/Pages/Basket/Checkout.cshtml.cs ---
using Microsoft.AspNetCore.Mvc.RazorPages;
namespace Shop.Web.Pages.Basket;

public class CheckoutModel : PageModel
{
    public void OnGet() { }
    public Task OnPost(int id) => Task.CompletedTask;
}
// --- path: src/Web/Views/Basket/Checkout.cshtml.cs ---
namespace Shop.Web.Views.Basket;

public class CheckoutModel : PageModel
{
    public Task OnPost(int id) => Task.CompletedTask;
}
// --- path: tests/FunctionalTests/CheckoutTest.cs ---
namespace Shop.FunctionalTests;

public class CheckoutTest
{
    private readonly HttpClient Client;

    public async Task Pays()
    {
        await Client.PostAsync("/Basket/Checkout", null);
        await Client.PostAsync("/basket/success", null);
    }
}
"""


def test_a_request_reaches_the_page_handler_case_insensitively() -> None:
    result = resolve_fixture(LINKED)
    assert edges(result, "EXPOSES") == [
        "src/Web/Pages/Basket/Checkout.cshtml.CheckoutModel.OnGet(0) -> endpoint:GET /basket/checkout",
        "src/Web/Pages/Basket/Checkout.cshtml.CheckoutModel.OnPost(1) -> endpoint:POST /basket/checkout",
    ]  # the model below Views/ is no page
    assert [e for e in edges(result, "CALLS_HTTP") if "CheckoutTest" in e] == [
        "tests/FunctionalTests/CheckoutTest.CheckoutTest.Pays(0) -> endpoint:POST /basket/checkout",
        "tests/FunctionalTests/CheckoutTest.CheckoutTest.Pays(0) -> endpoint:POST /basket/success",
    ]  # /basket/success is served by no page here: an endpoint only called
