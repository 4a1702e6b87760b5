"""Flask-RESTful / Flask-RESTX resources (indexer/languages/python/frameworks/flask_restful.py): the
facts one file gives, and the endpoints the linker makes of them across files (a resource class
defined in one module, registered in another; an ``Api`` bound to a blueprint later by ``init_app``;
Flask-RESTX namespaces with their default and replaced paths)."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.model import Mount, Route, Router, Template
from tests.resolution_harness import resolve_fixture

RESTFUL = """\
from flask import Blueprint, Flask
from flask_restful import Api, Resource

from .items import ItemList

v1 = Blueprint("v1", __name__)
api = Api()
api.init_app(v1)
api.add_resource(ItemList, "/items", "/items/all")
api.add_resource(Item, "/items/<int:id>", endpoint="item")

class Item(Resource):
    def get(self, id):
        return {}

    def delete(self, id):
        return {}

app = Flask(__name__)
app.register_blueprint(v1, url_prefix="/v1")
"""


def _extract(path: str, source: str):
    ex = extractor_for_path(path)
    assert ex is not None
    return ex.extract(path, source.encode())


def test_add_resource_gives_one_route_per_path_and_init_app_mounts_the_api() -> None:
    out = _extract("svc/api.py", RESTFUL)
    assert [r for r in out.routes if r.handler_ref in ("ItemList", "Item")] == [
        Route("flask", ["*"], Template.of("/items"), None, 9, 4, "ItemList", "api"),
        Route("flask", ["*"], Template.of("/items/all"), None, 9, 4, "ItemList", "api"),
        Route("flask", ["*"], Template.of("/items/<int:id>"), None, 10, 4, "Item", "api"),
    ]
    assert Router("flask", "api", Template(), 7) in out.routers
    assert Mount("flask", "v1", "api", Template(), 8, 4) in out.mounts


def test_a_file_importing_no_restful_package_gives_nothing() -> None:
    # the same calls on an object of another library: no route (add_resource of some other API)
    out = _extract("svc/other.py", "from other import Api\napi = Api()\napi.add_resource(X, '/x')\n")
    assert out.routes == [] and out.mounts == []


def _endpoints(fixture: str) -> list[tuple[str, str]]:
    result = resolve_fixture(fixture)
    return sorted((e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges if e.kind == "EXPOSES")


def test_resources_in_other_modules_expose_each_verb_under_the_blueprint_prefix() -> None:
    fixture = "# --- path: svc/api.py ---\n" + RESTFUL + """
# --- path: svc/items.py ---
from flask_restful import Resource

class ItemList(Resource):
    def get(self):
        return []

    def post(self):
        return {}

    def helper(self):
        return None
"""
    assert _endpoints(fixture) == [
        ("svc/api.Item.delete(1)", "endpoint:DELETE /v1/items/{}"),
        ("svc/api.Item.get(1)", "endpoint:GET /v1/items/{}"),
        ("svc/items.ItemList.get(0)", "endpoint:GET /v1/items"),
        ("svc/items.ItemList.get(0)", "endpoint:GET /v1/items/all"),
        ("svc/items.ItemList.post(0)", "endpoint:POST /v1/items"),
        ("svc/items.ItemList.post(0)", "endpoint:POST /v1/items/all"),
    ]  # helper is no verb: no endpoint


def test_restx_namespaces_default_and_replaced_paths() -> None:
    fixture = """
# --- path: app.py ---
from flask import Flask
from flask_restx import Api, Namespace, Resource

app = Flask(__name__)
api = Api(app, prefix="/api")
cats = api.namespace("cats")
dogs = Namespace("dogs", path="/canines")
api.add_namespace(dogs)
birds = Namespace("birds")
api.add_namespace(birds, path="/flying")

@cats.route("/<id>")
class Cat(Resource):
    def get(self, id):
        return {}

@dogs.route("/", "/all")
class Dogs(Resource):
    def post(self):
        return {}

@birds.route("/")
class Birds(Resource):
    def put(self):
        return {}
"""
    assert _endpoints(fixture) == [
        ("app.Birds.put(0)", "endpoint:PUT /api/flying"),
        ("app.Cat.get(1)", "endpoint:GET /api/cats/{}"),
        ("app.Dogs.post(0)", "endpoint:POST /api/canines"),
        ("app.Dogs.post(0)", "endpoint:POST /api/canines/all"),
    ]
