"""Library guards whose callbacks the application registers (indexer/frameworks/auth_guards.py) on a
small Flask application (tests/fixtures/auth-guards-flask): Flask-HTTPAuth's ``@auth.login_required``
runs the callbacks registered on that same object only, Flask-Login's ``@login_required`` the
LoginManager's loader, an application's own ``login_required`` is its own code; and a blueprint's view
module that imports no flask still has its routes."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_fixture

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "auth-guards-flask"


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    s = index_fixture(FIXTURE, tmp_path_factory.mktemp("guards") / "i.db", "guards")
    yield s
    s.close()


def _endpoints(store, name: str) -> list[tuple[str, str, int, str | None]]:
    report = blast_radius(store, SymbolQuery(name))
    return [(h.http_method, h.path, h.hops, h.through.node.name if h.through else None) for h in report.endpoints]


def test_every_route_is_found_also_in_a_view_module_without_a_flask_import(store):
    with sqlite3.connect(store.path) as db:
        rows = db.execute("SELECT DISTINCT dst FROM edges WHERE kind = 'EXPOSES'").fetchall()
    endpoints = sorted(tuple(row[0].removeprefix("endpoint:").split(" ", 1)) for row in rows)
    assert endpoints == [("DELETE", "/api/tokens"), ("GET", "/"), ("GET", "/about"), ("GET", "/admin"),
                         ("GET", "/admin/report"), ("GET", "/admin/stats"), ("GET", "/api/users/{}"),
                         ("POST", "/api/tokens"), ("POST", "/api/users")]
    # `/quart` is a Quart application's route (its file imports quart, not flask), `orders.created` a
    # `route` method of the repository's own Bus: neither is claimed as Flask's.


def test_http_auth_callbacks_wrap_the_routes_their_own_object_guards(store):
    assert _endpoints(store, "verify_password") == [("POST", "/api/tokens", 0, "verify_password")]
    # admin/views.py imports the API's `token_auth`: its /admin/report is the API object's, not the
    # admin `token_auth`'s (same name, another object); /admin/stats uses that one through an alias.
    token_routes = [("GET", "/admin/report", 0, "verify_token"), ("DELETE", "/api/tokens", 0, "verify_token"),
                    ("GET", "/api/users/{}", 0, "verify_token")]  # by path
    assert _endpoints(store, "verify_token") == token_routes
    assert _endpoints(store, "token_error") == [(m, p, h, "token_error") for m, p, h, _ in token_routes]
    assert _endpoints(store, "admin_verify") == [("GET", "/admin/stats", 0, "admin_verify")]


def test_flask_login_loader_wraps_the_login_required_routes_only(store):
    assert _endpoints(store, "load_user") == [("GET", "/", 0, "load_user")]


def test_an_applications_own_guard_is_its_own_code(store):
    assert _endpoints(store, "admin.login_required") == [("GET", "/admin", 0, "login_required")]


def test_the_last_callback_registered_on_an_object_is_the_one_that_runs(tmp_path):
    # Flask-HTTPAuth keeps one verify_token per object: of three, the last wraps (not three times the routes).
    root = tmp_path / "app"
    root.mkdir()
    (root / "__init__.py").write_text("", encoding="utf-8")
    (root / "auth.py").write_text(
        "from flask_httpauth import HTTPTokenAuth\n\nauth = HTTPTokenAuth()\n\n"
        + "".join(f"@auth.verify_token\ndef check{i}(token):\n    return token\n\n" for i in range(3)), encoding="utf-8")
    (root / "views.py").write_text(
        "from flask import Flask\n\nfrom app.auth import auth\n\napp = Flask(__name__)\n\n"
        "@app.route('/a')\n@auth.login_required\ndef a():\n    pass\n", encoding="utf-8")
    store = index_fixture(tmp_path, tmp_path / "i.db", "one")
    try:
        assert [_endpoints(store, f"check{i}") for i in range(3)] == [[], [], [("GET", "/a", 0, "check2")]]
    finally:
        store.close()
