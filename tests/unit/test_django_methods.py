"""A Django function view's HTTP methods from the decorators of ``django.views.decorators.http``
(newcomer finding of round 41: every function view of healthchecks showed method ``*``), and only
from those: any other decorator, a project's own function of the same name or a list that is not
literal leaves ``*`` (indexer/frameworks/django_methods.py)."""

from __future__ import annotations

from tests.resolution_harness import edges, resolve_fixture

_VIEWS = """
# --- path: shop/__init__.py ---
# --- path: shop/checks.py ---
def require_POST(f):
    return f
# --- path: shop/views.py ---
from django.contrib.auth.decorators import login_required
from django.views.decorators import http
from django.views.decorators.http import require_GET, require_POST, require_safe
from django.views.decorators.http import require_http_methods as allow
import django.views.decorators.http

from shop import checks

METHODS = ["GET"]


@require_POST
def create(request):
    return None


@require_GET
def listing(request):
    return None


@require_safe
def status(request):
    return None


@allow(["get", "PUT"])
def edit(request):
    return None


@http.require_POST
def dotted(request):
    return None


@django.views.decorators.http.require_http_methods(("DELETE",))
def full_name(request):
    return None


@login_required
@require_safe
@require_GET
def stacked(request):
    return None


def plain(request):
    return None


@login_required
def guarded(request):
    return None


@checks.require_POST
def lookalike(request):
    return None


@allow(METHODS)
def named_list(request):
    return None


@require_POST
@require_GET
def nothing_in_common(request):
    return None
# --- path: shop/urls.py ---
from django.urls import path

from shop import views


def local(request):
    return None


urlpatterns = [
    path("create/", views.create),
    path("list/", views.listing),
    path("status/", views.status),
    path("edit/", views.edit),
    path("dotted/", views.dotted),
    path("full/", views.full_name),
    path("stacked/", views.stacked),
    path("plain/", views.plain),
    path("guarded/", views.guarded),
    path("lookalike/", views.lookalike),
    path("named-list/", views.named_list),
    path("conflict/", views.nothing_in_common),
    path("local/", local),
]
"""


def test_methods_come_from_the_django_http_decorators_only() -> None:
    assert edges(resolve_fixture(_VIEWS), "EXPOSES") == [
        "shop/urls.local(1) -> endpoint:* /local",  # no decorator
        "shop/views.create(1) -> endpoint:POST /create",
        "shop/views.dotted(1) -> endpoint:POST /dotted",  # @http.require_POST
        "shop/views.edit(1) -> endpoint:GET /edit",  # @require_http_methods(["get", "PUT"]) as `allow`
        "shop/views.edit(1) -> endpoint:PUT /edit",
        "shop/views.full_name(1) -> endpoint:DELETE /full",  # the full dotted name, a tuple
        "shop/views.guarded(1) -> endpoint:* /guarded",  # @login_required says nothing of methods
        "shop/views.listing(1) -> endpoint:GET /list",
        "shop/views.lookalike(1) -> endpoint:* /lookalike",  # the project's own require_POST
        "shop/views.named_list(1) -> endpoint:* /named-list",  # a list that is not literal
        "shop/views.nothing_in_common(1) -> endpoint:* /conflict",  # POST and GET leave none in common
        "shop/views.plain(1) -> endpoint:* /plain",
        "shop/views.stacked(1) -> endpoint:GET /stacked",  # @require_safe and @require_GET intersect
        "shop/views.status(1) -> endpoint:GET /status",  # @require_safe: GET and HEAD
        "shop/views.status(1) -> endpoint:HEAD /status",
    ]


def test_a_class_based_view_and_a_flask_route_are_left_as_they_were() -> None:
    fixture = """
# --- path: app/__init__.py ---
# --- path: app/views.py ---
from django.views import View
from django.views.decorators.http import require_POST


class Items(View):
    @require_POST
    def get(self, request):
        return None
# --- path: app/urls.py ---
from django.urls import path

from app.views import Items

urlpatterns = [path("items/", Items.as_view())]
# --- path: app/flaskapp.py ---
from flask import Flask
from django.views.decorators.http import require_POST

app = Flask(__name__)


@app.route("/f")
@require_POST
def f():
    return None
"""
    assert edges(resolve_fixture(fixture), "EXPOSES") == [
        "app/flaskapp.f(0) -> endpoint:GET /f",  # Flask's own default method, not Django's decorator
        "app/views.Items.get(1) -> endpoint:GET /items",  # the class's method names the method
    ]


def test_a_decorator_edit_in_the_views_file_rebinds_the_route(tmp_path) -> None:
    import sqlite3

    from tests.unit.test_incremental import Workspace

    views = "from django.views.decorators.http import require_POST\n\n\ndef create(request):\n    return None\n"
    urls = "from django.urls import path\n\nfrom shop import views\n\nurlpatterns = [path(\"create/\", views.create)]\n"
    ws = Workspace(tmp_path, {"shop/__init__.py": "", "shop/views.py": views, "shop/urls.py": urls})

    def exposed() -> list[str]:
        with sqlite3.connect(ws.db) as conn:
            return sorted(r[0] for r in conn.execute("SELECT dst FROM edges WHERE kind = 'EXPOSES'"))

    try:
        assert exposed() == ["endpoint:* /create"]
        ws.edit({"shop/views.py": views.replace("def create", "@require_POST\ndef create")})  # urls.py unchanged
        assert exposed() == ["endpoint:POST /create"]
        ws.edit({"shop/views.py": views})
        assert exposed() == ["endpoint:* /create"]
    finally:
        ws.close()
