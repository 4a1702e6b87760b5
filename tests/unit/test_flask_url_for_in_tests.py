"""Flask ``url_for`` in pytest tests (session 67's brk67b found ``client.get(url_for("b.x"))`` unlinked): a test
with the ``client`` fixture of a conftest, ``flask.url_for`` through ``import flask``, a URL built inside ``with
app.test_request_context():`` and requested after it, and ``from flask import url_for as u`` all link by route name.
The negative is brk67b's input: a ``url_for`` the test never imports is no Flask name (Python would raise
``NameError``), so the request stays ``unlinked:url``."""

from __future__ import annotations

from tests.unit.test_route_names import _calls, _resolve

FIXTURE = '''
# --- path: shop/__init__.py ---
from flask import Flask
from shop.views import bp
def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp, url_prefix="/shop")
    return app
# --- path: shop/views.py ---
from flask import Blueprint
bp = Blueprint("catalog", __name__)
@bp.route("/items/<int:item_id>")
def show(item_id):
    return None
@bp.route("/new", methods=["POST"])
def create():
    return None
# --- path: tests/conftest.py ---
import pytest
from shop import create_app
@pytest.fixture
def app():
    return create_app()
@pytest.fixture
def client(app):
    return app.test_client()
# --- path: tests/test_a.py ---
import flask
from flask import url_for as u
def test_attr(client):
    client.get(flask.url_for("catalog.show", item_id=1))
def test_ctx(app, client):
    with app.test_request_context():
        url = u("catalog.create")
    client.post(url)
def test_inside(app, client):
    with app.test_request_context():
        client.post(u("catalog.create"))
def test_not_imported(client):
    client.get(url_for("catalog.show", item_id=3))
'''


def test_url_for_in_pytest_tests_links_by_route_name() -> None:
    def link(line: int, caller: str, method: str, path: str, name: str) -> tuple:
        return ("tests/test_a.py", line, f"tests/test_a.{caller}", "CALLS_HTTP", f"endpoint:{method} {path}",
                {"framework": "flask-test", "url": path, "route_name": name})

    assert _calls(_resolve(FIXTURE)) == [
        link(4, "test_attr(1)", "GET", "/shop/items/{}", "catalog.show"),
        link(8, "test_ctx(2)", "POST", "/shop/new", "catalog.create"),
        link(11, "test_inside(2)", "POST", "/shop/new", "catalog.create"),
        ("tests/test_a.py", 13, "tests/test_a.test_not_imported(1)", "UNLINKED", "unlinked:url",
         {"call": "GET {}", "framework": "flask-test"}),
    ]
