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
