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
                         ("GET", "/api/users/{}"), ("POST", "/api/tokens"), ("POST", "/api/users")]
    # `/quart` is a Quart application's route (its file imports quart, not flask): not claimed as Flask's.


def test_http_auth_callbacks_wrap_the_routes_their_own_object_guards(store):
    assert _endpoints(store, "verify_password") == [("POST", "/api/tokens", 0, "verify_password")]
    token_routes = [("DELETE", "/api/tokens", 0, "verify_token"), ("GET", "/api/users/{}", 0, "verify_token")]
    assert _endpoints(store, "verify_token") == token_routes
    assert _endpoints(store, "token_error") == [(m, p, h, "token_error") for m, p, h, _ in token_routes]


def test_flask_login_loader_wraps_the_login_required_routes_only(store):
    assert _endpoints(store, "load_user") == [("GET", "/", 0, "load_user")]


def test_an_applications_own_guard_is_its_own_code(store):
    assert _endpoints(store, "admin.login_required") == [("GET", "/admin", 0, "login_required")]
