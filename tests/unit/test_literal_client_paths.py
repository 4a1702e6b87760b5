"""A client's literal URL reaches the template endpoint that serves it (GET /owners/1 -> /owners/{}),
only when one exposed template is the most specific match."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

APP = """
# --- path: app/views.py ---
from flask import Flask

app = Flask(__name__)


@app.get("/owners/<int:owner_id>")
def show_owner(owner_id):
    return {}


@app.get("/owners/new")
def new_owner_form():
    return {}


@app.post("/items/<a>/edit")
def post_a(a):
    return {}


@app.post("/items/new/<b>")
def post_b(b):
    return {}


# --- path: tests/test_owners.py ---
import requests


def test_owner_page():
    requests.get("http://localhost/owners/1")


def test_new_form():
    requests.get("http://localhost/owners/new")


def test_delete_owner():
    requests.delete("http://localhost/owners/1")


def test_item():
    requests.post("http://localhost/items/new/edit")


def test_deep():
    requests.get("http://localhost/owners/1/pets")
"""


def test_literal_paths_reach_the_most_specific_template() -> None:
    result = resolve_fixture(APP)
    assert edges(result, "CALLS_HTTP") == sorted([
        # /owners/1 is served by /owners/{} (the literal endpoint is not exposed)
        "tests/test_owners.test_owner_page(0) -> endpoint:GET /owners/{}",
        # /owners/new: exposed as written, kept (more specific than /owners/{})
        "tests/test_owners.test_new_form(0) -> endpoint:GET /owners/new",
        # no DELETE route: the literal endpoint stays
        "tests/test_owners.test_delete_owner(0) -> endpoint:DELETE /owners/1",
        # two equally specific POST templates: which one serves it is not known, kept literal
        "tests/test_owners.test_item(0) -> endpoint:POST /items/new/edit",
        # another depth: no template of three segments
        "tests/test_owners.test_deep(0) -> endpoint:GET /owners/1/pets",
    ])
    moved = [e for f in result.files for e in f.edges if e.kind == "CALLS_HTTP" and e.props.get("literal")]
    assert [(e.dst, e.props["url"]) for e in moved] == [("endpoint:GET /owners/{}", "http://localhost/owners/1")]
    endpoint_nodes = {n.id for f in result.files for n in f.nodes if n.label == "Endpoint"}
    assert "endpoint:GET /owners/1" not in endpoint_nodes and "endpoint:DELETE /owners/1" in endpoint_nodes


ASPNET = """
# --- path: Catalog/CatalogApi.cs ---
public static class CatalogApi
{
    public static void Map(IEndpointRouteBuilder app)
    {
        var api = app.MapGroup("api/catalog").HasApiVersion(1, 0);
        api.MapGet("/catalogbrands", GetBrands);
        api.MapGet("/items/{id:int}", GetItem);
    }
    public static Task GetBrands() => null;
    public static Task GetItem(int id) => null;
}

# --- path: Flask/app.py ---
from flask import Flask

app = Flask(__name__)


@app.get("/reports/daily")
def daily():
    return {}

# --- path: Web/CatalogService.cs ---
public class CatalogService(HttpClient httpClient)
{
    public Task Brands() => httpClient.GetFromJsonAsync<Brand[]>("api/catalog/catalogBrands");
    public Task Item(int id) => httpClient.GetFromJsonAsync<Item>($"/API/Catalog/Items/{id}");
    public Task Daily() => httpClient.GetAsync("/reports/Daily");
}
"""


def test_aspnet_endpoints_match_client_paths_case_insensitively() -> None:
    result = resolve_fixture(ASPNET)
    assert edges(result, "CALLS_HTTP") == sorted([
        "Web/CatalogService.CatalogService.Brands(0) -> endpoint:GET /api/catalog/catalogbrands",
        "Web/CatalogService.CatalogService.Item(1) -> endpoint:GET /api/catalog/items/{}",
        # Flask matches case-sensitively: /reports/Daily is not its /reports/daily
        "Web/CatalogService.CatalogService.Daily(0) -> endpoint:GET /reports/Daily",
    ])


ALL_HOLES = """
// --- path: test/params.test.js ---
const express = require('express');
const request = require('supertest');
it('reads a user', function () {
  const app = express();
  app.get('/:user', function show(req, res) { res.end(); });
  return request(app).get('/tobi');
});
// --- path: test/static.test.js ---
const express = require('express');
const request = require('supertest');
it('serves a file', function () {
  const app = express();
  app.use(express.static('fixtures'));
  return request(app).get('/todo.txt');
});
it('reads a pet', function () {
  const app = express();
  app.get('/pets/:id', function pet(req, res) { res.end(); });
  return request(app).get('/pets/1');
});
"""


def test_a_template_of_holes_only_serves_the_requests_of_its_own_file() -> None:
    assert edges(resolve_fixture(ALL_HOLES), "CALLS_HTTP") == [
        "test/params.test.it reads a user(0) -> endpoint:GET /{}",  # written beside `app.get("/:user")`
        "test/static.test.it reads a pet(0) -> endpoint:GET /pets/{}",  # a literal segment: as before
        "test/static.test.it serves a file(0) -> endpoint:GET /todo.txt",  # not another file's /{}
    ]


ANY_METHOD = """
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("shop/", include("shop.urls")), path("", include("pages.urls"))]
# --- path: shop/__init__.py ---
# --- path: shop/views.py ---
from django.views.decorators.http import require_GET


def detail(request, pk):
    return None


def listing(request):
    return None


@require_GET
def only_get(request, pk):
    return None


def both(request, pk):
    return None
# --- path: shop/urls.py ---
from django.urls import path

from shop import views

urlpatterns = [
    path("items/<int:pk>/", views.detail, name="detail"),
    path("items/", views.listing, name="listing"),
    path("get/<int:pk>/", views.only_get, name="only_get"),
    path("both/<int:pk>/", views.both, name="both"),
]
# --- path: pages/__init__.py ---
# --- path: pages/views.py ---
def page(request, slug):
    return None
# --- path: pages/urls.py ---
from django.urls import path

from pages import views

urlpatterns = [path("<slug:slug>/", views.page)]
# --- path: api/__init__.py ---
# --- path: api/app.py ---
from flask import Flask

app = Flask(__name__)


@app.post("/shop/both/<pk>")
def post_both(pk):
    return {}
# --- path: shop/tests.py ---
from django.test import TestCase


class T(TestCase):
    def test_post(self):
        self.client.post("/shop/items/1/")

    def test_get(self):
        self.client.get("/shop/items/1/")

    def test_list(self):
        self.client.post("/shop/items/")

    def test_only_get(self):
        self.client.post("/shop/get/1/")

    def test_only_get_ok(self):
        self.client.get("/shop/get/1/")

    def test_nothing(self):
        self.client.post("/shop/nowhere/1/")

    def test_both(self):
        self.client.post("/shop/both/1/")
        self.client.delete("/shop/both/2/")

    def test_page(self):
        self.client.post("/about/")
"""


def test_a_route_of_any_method_serves_requests_no_route_of_their_method_serves() -> None:
    """A Django function view without a method decorator is exposed as ``* /path``: a literal request of any
    method reaches it (its own method kept on the edge) when no route of that method serves the path, and no
    Endpoint node is made for the literal."""
    result = resolve_fixture(ANY_METHOD)
    calls = sorted((e.line, e.dst, e.props.get("method"), bool(e.props.get("literal")))
                   for f in result.files for e in f.edges if e.kind == "CALLS_HTTP")
    assert calls == [
        (6, "endpoint:* /shop/items/{}", "POST", True),  # POST /shop/items/1 -> the function view's template
        (9, "endpoint:* /shop/items/{}", "GET", True),
        (12, "endpoint:* /shop/items", "POST", False),  # the path as served, only the method differs
        # require_GET: a route of explicit methods takes no POST; the literal endpoint stays as it was
        (15, "endpoint:POST /shop/get/1", None, False),
        (18, "endpoint:GET /shop/get/{}", None, True),
        (21, "endpoint:POST /shop/nowhere/1", None, False),  # no route: unchanged
        # a route of the request's own method (Flask's POST) is preferred to the one of any method
        (24, "endpoint:POST /shop/both/{}", None, True),
        (25, "endpoint:* /shop/both/{}", "DELETE", True),
        # a template of holes only (* /{}) serves only requests of its own file
        (28, "endpoint:POST /about", None, False),
    ]
    exposed = {e.dst for f in result.files for e in f.edges if e.kind == "EXPOSES"}
    endpoint_nodes = {n.id for f in result.files for n in f.nodes if n.label == "Endpoint"}
    assert endpoint_nodes - exposed == {"endpoint:POST /shop/get/1", "endpoint:POST /shop/nowhere/1",
                                        "endpoint:POST /about"}
