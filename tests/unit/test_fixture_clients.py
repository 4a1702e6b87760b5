"""Requests made with a test client pytest hands a test as a fixture (indexer/frameworks/fixture_clients.py, read
by indexer/languages/python/frameworks/pytest_clients.py): the fixture of the parameter's name the test sees
(class, module, nearest conftest.py), handed on through other fixtures, pytest-django's plugin clients; a fixture
that is no client, a conftest.py of another folder, a parametrized argument and a parameter with a default send
nothing and are never unlinked.

Every fixture is extracted by the real detectors and resolved as one repository; the assertions are the exact
CALLS_HTTP and UNLINKED edges.
"""

from __future__ import annotations

import sqlite3

from indexer.languages import extractor_for_path
from indexer.languages.python.frameworks import pytest_clients
from indexer.model import ClientFixture
from tests.resolution_harness import split_fixture
from tests.unit.test_incremental import Workspace
from tests.unit.test_route_names import _calls, _resolve

FASTAPI = """
# --- path: app/__init__.py ---
# --- path: app/main.py ---
from fastapi import FastAPI

app = FastAPI()


@app.get("/items/{item_id}")
def read_item(item_id: int):
    return {"id": item_id}


@app.post("/login")
def login():
    return {}


@app.get("/health")
def health():
    return {}
# --- path: tests/conftest.py ---
import pytest
from fastapi.testclient import TestClient

from app.main import app


@pytest.fixture
def client():
    with TestClient(app) as c:
        yield c


@pytest.fixture
def cache():
    return {}


@pytest.fixture
def auth_client(client):
    client.post("/login")
    return client


@pytest.fixture(name="api")
def api_fixture():
    return TestClient(app)
# --- path: tests/test_items.py ---
import pytest


def test_read(client):
    client.get("/items/3")


def test_auth(auth_client):
    auth_client.get("/health")


def test_named(api):
    api.delete("/health")


def test_cache(cache):
    cache.get("/items/3")


@pytest.mark.parametrize("client", [None])
def test_param(client):
    client.get("/health")


def test_default(client=None):
    client.get("/health")


class TestOwn:
    @pytest.fixture
    def client(self):
        return {}

    def test_shadowed(self, client):
        client.get("/health")
# --- path: tests/sub/conftest.py ---
import pytest


@pytest.fixture
def client():
    return object()
# --- path: tests/sub/test_sub.py ---
def test_overridden(client):
    client.get("/health")
# --- path: other/test_other.py ---
def test_other(client, auth_client):
    client.get("/health")
    auth_client.get("/health")
"""


def test_fastapi_fixture_clients():
    assert _calls(_resolve(FASTAPI)) == [
        ("tests/conftest.py", 20, "tests/conftest.auth_client(1)", "CALLS_HTTP", "endpoint:POST /login",
         {"framework": "testclient", "url": "/login"}),
        ("tests/test_items.py", 5, "tests/test_items.test_read(1)", "CALLS_HTTP", "endpoint:GET /items/{}",
         {"framework": "testclient", "literal": True, "url": "/items/3"}),
        ("tests/test_items.py", 9, "tests/test_items.test_auth(1)", "CALLS_HTTP", "endpoint:GET /health",
         {"framework": "testclient", "url": "/health"}),
        ("tests/test_items.py", 13, "tests/test_items.test_named(1)", "CALLS_HTTP", "endpoint:DELETE /health",
         {"framework": "testclient", "url": "/health"}),
    ]  # not: a dict fixture, a parametrized or defaulted argument, a class's own fixture, a nearer conftest's
    #    non-client, another folder (other/ sees no tests/conftest.py)


def test_fixture_records():
    """What the detector reads in a conftest.py: clients, parameters handed on, and nothing for other fixtures."""
    files = split_fixture(FASTAPI)
    ex = extractor_for_path("tests/conftest.py").extract("tests/conftest.py", files["tests/conftest.py"].encode())
    assert ex.client_fixtures == [ClientFixture("client", "testclient"), ClientFixture("auth_client", "", ("client",)),
                                  ClientFixture("api_fixture", "testclient")]
    assert [(c.framework, c.fixture, c.caller) for c in ex.http_calls] == [
        (pytest_clients.FRAMEWORK, "client", "auth_client")]
    plain = extractor_for_path("app/test_x.py").extract("app/helpers.py", files["tests/conftest.py"].encode())
    assert plain.client_fixtures == [] and plain.http_calls == []  # not a file pytest reads


FLASK = """
# --- path: flaskr/__init__.py ---
from flask import Flask


def create_app():
    app = Flask(__name__)
    from flaskr import blog
    app.register_blueprint(blog.bp)
    return app
# --- path: flaskr/blog.py ---
from flask import Blueprint

bp = Blueprint("blog", __name__, url_prefix="/blog")


@bp.route("/<int:id>/update", methods=("GET", "POST"))
def update(id):
    return ""


@bp.route("/create", methods=("GET", "POST"))
def create():
    return ""
# --- path: tests/conftest.py ---
import pytest

from flaskr import create_app


@pytest.fixture
def app():
    app = create_app()
    yield app


@pytest.fixture
def client(app):
    return app.test_client()


@pytest.fixture
def runner(app):
    return app.test_cli_runner()
# --- path: tests/test_blog.py ---
import pytest
from flask import url_for


def test_update(client):
    assert client.get("/blog/1/update").status_code == 200
    client.post("/blog/1/update", data={"title": "updated"})


def test_create(client, app):
    url = "/blog/create"
    client.post(url)
    with app.test_request_context():
        client.get(url_for("blog.create"))


def test_cli(runner):
    runner.get("/blog/create")


@pytest.mark.parametrize("path", ("/blog/create", "/blog/1/update"))
def test_required(client, path):
    client.post(path)


@pytest.mark.parametrize("path, code", [("/blog/create", 200), ("/blog/create", 302)])
def test_pairs(client, path, code):
    client.get(path)


@pytest.mark.parametrize("path", ["/blog/create", PATHS])
def test_not_literal(client, path):
    client.get(path)
"""


def test_flask_fixture_clients():
    assert _calls(_resolve(FLASK)) == [
        ("tests/test_blog.py", 6, "tests/test_blog.test_update(1)", "CALLS_HTTP", "endpoint:GET /blog/{}/update",
         {"framework": "flask-test", "literal": True, "url": "/blog/1/update"}),
        ("tests/test_blog.py", 7, "tests/test_blog.test_update(1)", "CALLS_HTTP", "endpoint:POST /blog/{}/update",
         {"framework": "flask-test", "literal": True, "url": "/blog/1/update"}),
        ("tests/test_blog.py", 12, "tests/test_blog.test_create(2)", "CALLS_HTTP", "endpoint:POST /blog/create",
         {"framework": "flask-test", "url": "/blog/create"}),
        ("tests/test_blog.py", 14, "tests/test_blog.test_create(2)", "CALLS_HTTP", "endpoint:GET /blog/create",
         {"framework": "flask-test", "route_name": "blog.create", "url": "/blog/create"}),
        ("tests/test_blog.py", 23, "tests/test_blog.test_required(2)", "CALLS_HTTP", "endpoint:POST /blog/create",
         {"framework": "flask-test", "url": "/blog/create"}),
        ("tests/test_blog.py", 23, "tests/test_blog.test_required(2)", "CALLS_HTTP", "endpoint:POST /blog/{}/update",
         {"framework": "flask-test", "literal": True, "url": "/blog/1/update"}),
        ("tests/test_blog.py", 28, "tests/test_blog.test_pairs(3)", "CALLS_HTTP", "endpoint:GET /blog/create",
         {"framework": "flask-test", "url": "/blog/create"}),
        ("tests/test_blog.py", 33, "tests/test_blog.test_not_literal(2)", "UNLINKED", "unlinked:url",
         {"call": "GET {}", "framework": "flask-test"}),
    ]  # not: the CLI runner fixture; a parametrized value that is not a string literal


DJANGO = """
# --- path: shop/__init__.py ---
# --- path: shop/views.py ---
def index(request):
    return None

def detail(request, pk):
    return None
# --- path: shop/urls.py ---
from django.urls import path
from shop import views

app_name = "shop"
urlpatterns = [
    path("", views.index, name="index"),
    path("items/<int:pk>/", views.detail, name="detail"),
]
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("shop/", include("shop.urls"))]
# --- path: tests/conftest.py ---
import pytest
from django.test import Client
from rest_framework.test import APIClient


class AppClient(Client):
    session_token = None


@pytest.fixture
def app_client():
    client = AppClient()
    return client


@pytest.fixture
def api_client():
    return APIClient()


@pytest.fixture
def mixed(request):
    if request.param:
        return APIClient()
    return request
# --- path: tests/test_shop.py ---
from django.urls import reverse


def test_index(client, admin_client):
    client.get(reverse("shop:index"))
    admin_client.post("/shop/")


def test_detail(app_client, api_client, mixed):
    app_client.get(reverse("shop:detail", args=[1]))
    api_client.get("/shop/")
    mixed.get("/shop/")
"""


def test_django_fixture_clients():
    assert _calls(_resolve(DJANGO)) == [
        ("tests/test_shop.py", 5, "tests/test_shop.test_index(2)", "CALLS_HTTP", "endpoint:* /shop",
         {"framework": "django-test", "route_name": "shop:index", "url": "/shop", "method": "GET"}),
        ("tests/test_shop.py", 6, "tests/test_shop.test_index(2)", "CALLS_HTTP", "endpoint:* /shop",
         {"framework": "django-test", "url": "/shop/", "method": "POST"}),
        ("tests/test_shop.py", 10, "tests/test_shop.test_detail(3)", "CALLS_HTTP", "endpoint:* /shop/items/{}",
         {"framework": "django-test", "route_name": "shop:detail", "url": "/shop/items/{}", "method": "GET"}),
        ("tests/test_shop.py", 11, "tests/test_shop.test_detail(3)", "CALLS_HTTP", "endpoint:* /shop",
         {"framework": "django-test", "url": "/shop/", "method": "GET"}),
    ]  # not: a fixture returning a client or something else


def test_plugin_clients_need_django():
    """Without a file importing django, pytest-django's ``client`` is not assumed."""
    fixture = FASTAPI.replace("def client():\n    with TestClient(app) as c:\n        yield c",
                              "def unused():\n    return None")
    assert [c for c in _calls(_resolve(fixture)) if "client" in c[2] or "read" in c[2]] == []


BOUND_VIEWS = """
# --- path: accounts/__init__.py ---
# --- path: accounts/views.py ---
from django.contrib.auth.views import LogoutView
from django.views.generic import View


class LoginView(View):
    def get(self, request):
        return None

    def post(self, request):
        return None


def make_view():
    return None


login = LoginView.as_view()
logout = LogoutView.as_view()
other = make_view()
# --- path: accounts/urls.py ---
from django.urls import path
from accounts import views

signup = views.LoginView.as_view(template_name="signup.html")

urlpatterns = [
    path("login/", views.login, name="account_login"),
    path("logout/", views.logout, name="account_logout"),
    path("other/", views.other, name="account_other"),
    path("signup/", signup, name="account_signup"),
]
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("accounts/", include("accounts.urls"))]
# --- path: tests/test_login.py ---
from django.urls import reverse


def test_login(client):
    client.post(reverse("account_login"))
    client.get(reverse("account_signup"))
    client.get(reverse("account_logout"))
    client.get(reverse("account_other"))
"""


def test_bound_class_views():
    """``login = LoginView.as_view()`` routed as ``views.login`` exposes the class's methods and names its route;
    a view of a library (``LogoutView``) or a name bound to another call exposes nothing and names no route."""
    result = _resolve(BOUND_VIEWS)
    exposes = sorted((e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges if e.kind == "EXPOSES")
    assert exposes == [
        ("accounts/views.LoginView.get(1)", "endpoint:GET /accounts/login"),
        ("accounts/views.LoginView.get(1)", "endpoint:GET /accounts/signup"),
        ("accounts/views.LoginView.post(1)", "endpoint:POST /accounts/login"),
        ("accounts/views.LoginView.post(1)", "endpoint:POST /accounts/signup"),
    ]
    assert [c[3:5] for c in _calls(result)] == [
        ("CALLS_HTTP", "endpoint:POST /accounts/login"),
        ("CALLS_HTTP", "endpoint:GET /accounts/signup"),
        ("UNLINKED", "unlinked:route_name"),
        ("UNLINKED", "unlinked:route_name"),
    ]


FORMATTED = DJANGO.split("# --- path: tests/conftest.py ---")[0] + """# --- path: tests/tests.py ---
from django.test import TestCase
from django.urls import reverse


class T(TestCase):
    def test_formats(self):
        login_url = "%s?next=%s" % (reverse("shop:index"), "/x/")
        self.client.post(login_url)
        self.client.get("{}?q=1".format(reverse("shop:detail", args=[1])))
        self.client.get("%(url)s?a=%(b)s" % {"b": 1, "url": reverse("shop:index")})
        self.client.get("%s?id=1" % reverse("shop:index")[:-1])
        self.client.get("/a/%s" % reverse("shop:index"))
        self.client.get("/b/{}".format(reverse("shop:index")))
"""


def test_formatted_route_names():
    """A ``%``-format or ``str.format`` starting with a placeholder starts with its first value (the edge's ``url`` is
    the route's path); a sliced URL (``[:-1]``: a test of a missing slash) or a format with a leading literal is no
    route's URL (the literal is kept as it is: ``/a/{}``)."""
    assert _calls(_resolve(FORMATTED)) == [
        ("tests/tests.py", 8, "tests/tests.T.test_formats(0)", "CALLS_HTTP", "endpoint:* /shop",
         {"framework": "django-test", "route_name": "shop:index", "url": "/shop", "method": "POST"}),
        ("tests/tests.py", 9, "tests/tests.T.test_formats(0)", "CALLS_HTTP", "endpoint:* /shop/items/{}",
         {"framework": "django-test", "route_name": "shop:detail", "url": "/shop/items/{}", "method": "GET"}),
        ("tests/tests.py", 10, "tests/tests.T.test_formats(0)", "CALLS_HTTP", "endpoint:* /shop",
         {"framework": "django-test", "route_name": "shop:index", "url": "/shop", "method": "GET"}),
        ("tests/tests.py", 11, "tests/tests.T.test_formats(0)", "UNLINKED", "unlinked:url",
         {"call": "GET {}?id=1", "framework": "django-test"}),
        ("tests/tests.py", 12, "tests/tests.T.test_formats(0)", "CALLS_HTTP", "endpoint:GET /a/{}",
         {"framework": "django-test", "url": "/a/{}"}),
        ("tests/tests.py", 13, "tests/tests.T.test_formats(0)", "CALLS_HTTP", "endpoint:GET /b/{}",
         {"framework": "django-test", "url": "/b/{}"}),
    ]


USER_ADMINS = """from django.contrib import admin
from django.contrib.auth.admin import GroupAdmin, UserAdmin
from django.contrib.auth.models import Group, User
from django.urls import path

from shop.models import Customer, Staff

site = admin.AdminSite(name="other")
site.register(User, UserAdmin)


class CustomerAdmin(UserAdmin):
    pass


class StaffAdmin(UserAdmin):
    def get_urls(self):
        return [path("x/", self.x_view, name="staff_x")] + super().get_urls()


admin.site.register(Customer, CustomerAdmin)
admin.site.register(Staff, StaffAdmin)
admin.site.register(Group, GroupAdmin)
"""


def test_user_admin_password_route():
    """django.contrib.auth's ``UserAdmin`` (registered as imported, or a class of the file deriving from it) adds its
    ``<id>/password/`` route; a class overriding ``get_urls`` has its own entries instead, ``GroupAdmin`` none."""
    ex = extractor_for_path("shop/admin.py").extract("shop/admin.py", USER_ADMINS.encode())
    extra = sorted((r.router, r.path.parts[0][1], r.handler_ref, r.name) for r in ex.routes
                   if r.path.parts and r.path.parts[0][1].endswith(("/password/", "/x/")))
    assert extra == [
        ("django.contrib.admin.site.urls", "shop/customer/<id>/password/", "CustomerAdmin.user_change_password",
         "auth_user_password_change"),
        ("django.contrib.admin.site.urls", "shop/staff/x/", "StaffAdmin.x_view", "staff_x"),
        ("site.urls", "auth/user/<id>/password/", "UserAdmin.user_change_password", "auth_user_password_change"),
    ]


MOUNTED = """
# --- path: app/__init__.py ---
# --- path: app/main.py ---
from fastapi import FastAPI

app = FastAPI()
v1 = FastAPI()
plain = FastAPI()


@v1.get("/items/{item_id}", name="items")
def items(item_id: int):
    return {}


@plain.get("/ping", name="ping")
def ping():
    return {}


app.mount("/v1", v1, name="v1")
app.mount("/plain", plain)
# --- path: tests/test_main.py ---
from fastapi.testclient import TestClient

from app.main import app

client = TestClient(app)


def test_mounted():
    client.get(app.url_path_for("v1:items", item_id=1))
    client.get(app.url_path_for("ping"))
    client.get(app.url_path_for("items", item_id=1))
    client.get(app.url_path_for("v2:items", item_id=1))
"""


def test_fastapi_mount_names():
    """``app.mount("/v1", v1, name="v1")`` puts the sub-application's names under ``v1:``; an unnamed mount adds
    nothing; the name without its mount's namespace, or under another, names no route."""
    assert [c[1:5] for c in _calls(_resolve(MOUNTED))] == [
        (9, "tests/test_main.test_mounted(0)", "CALLS_HTTP", "endpoint:GET /v1/items/{}"),
        (10, "tests/test_main.test_mounted(0)", "CALLS_HTTP", "endpoint:GET /plain/ping"),
        (11, "tests/test_main.test_mounted(0)", "UNLINKED", "unlinked:route_name"),
        (12, "tests/test_main.test_mounted(0)", "UNLINKED", "unlinked:route_name"),
    ]


INCREMENTAL = {
    "app/__init__.py": "",
    "app/main.py": ('from fastapi import FastAPI\n\napp = FastAPI()\n\n\n@app.get("/health")\n'
                    'def health():\n    return {}\n'),
    "tests/__init__.py": "",
    "tests/conftest.py": ('import pytest\nfrom fastapi.testclient import TestClient\n\nfrom app.main import app\n\n\n'
                          '@pytest.fixture\ndef client():\n    return TestClient(app)\n'),
    "tests/test_health.py": 'def test_health(client):\n    client.get("/health")\n',
}


def _test_links(db) -> list[tuple]:
    """``(file, line, target)`` of the test file's CALLS_HTTP / UNLINKED edges in the index ``db``."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT file, line, dst FROM edges WHERE kind IN ('CALLS_HTTP', 'UNLINKED') "
                            "AND file = 'tests/test_health.py' ORDER BY line").fetchall()
        return [tuple(r) for r in rows]
    finally:
        conn.close()


def test_editing_a_conftest_fixture_relinks_the_test(tmp_path) -> None:
    """The fixture lives in conftest.py, the request in the test file: editing the fixture alone (no longer a client,
    a client again, overridden by the test module's own) changes the test's link, in the watcher's index and a
    one-shot run's alike (each checked against a full index by the Workspace)."""
    ws = Workspace(tmp_path, INCREMENTAL)
    try:
        linked = [("tests/test_health.py", 2, "endpoint:GET /health")]
        assert _test_links(ws.db) == _test_links(ws.cli_db) == linked
        ws.edit({"tests/conftest.py": INCREMENTAL["tests/conftest.py"].replace("TestClient(app)", "{}")})
        assert _test_links(ws.db) == _test_links(ws.cli_db) == []
        ws.edit({"tests/conftest.py": INCREMENTAL["tests/conftest.py"]})
        assert _test_links(ws.db) == _test_links(ws.cli_db) == linked
        ws.edit({"tests/test_health.py": ("import pytest\n\n\n@pytest.fixture\ndef client():\n    return object()\n\n\n"
                                          + INCREMENTAL["tests/test_health.py"])})
        assert _test_links(ws.db) == _test_links(ws.cli_db) == []
    finally:
        ws.close()
