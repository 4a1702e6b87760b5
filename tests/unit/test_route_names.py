"""Requests whose URL is built from a route name (indexer/frameworks/route_names.py, read by
indexer/languages/python/frameworks/url_names.py): Django ``reverse`` / ``reverse_lazy`` through namespaced and
nested includes, Starlette / FastAPI ``url_path_for`` / ``url_for``, Flask route names; the unknown, ambiguous and
other-repository names stay unlinked, and a redirect is no client call.

Every fixture is extracted by the real detectors and resolved as one repository; the assertions are the exact
CALLS_HTTP and UNLINKED edges.
"""

from __future__ import annotations

import hashlib
import sqlite3

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import split_fixture
from tests.unit.test_incremental import Workspace


def _resolve(fixture: str, repo: str = "t"):
    extractions = []
    for path, source in split_fixture(fixture).items():
        ex = extractor_for_path(path)
        assert ex is not None
        data = source.encode()
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    return resolve_repository(repo, extractions)


def _calls(result, repo: str = "t") -> list[tuple]:
    """``(file, line, caller, kind, target, props)`` of every CALLS_HTTP and UNLINKED edge."""
    return sorted((e.file, e.line, e.src.removeprefix(f"{repo}:"), e.kind, e.dst, dict(e.props))
                  for f in result.files for e in f.edges if e.kind in ("CALLS_HTTP", "UNLINKED"))


DJANGO = """
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path
from shop import views as shop_views

urlpatterns = [
    path("shop/", include("shop.urls")),
    path("backoffice/", include("shop.urls", namespace="office")),
    path("blog/", include(("blog.urls", "blog"))),
    path("extra/", include(([path("ping/", shop_views.ping, name="ping")], "extra"))),
    path("", include("pages.urls")),
    path("", include("wiki.urls")),
]
# --- path: shop/__init__.py ---
# --- path: shop/views.py ---
def index(request):
    return None

def detail(request, pk):
    return None

def ping(request):
    return None
# --- path: shop/urls.py ---
from django.urls import path, include
from shop import views

app_name = "shop"
urlpatterns = [
    path("", views.index, name="index"),
    path("items/<int:pk>/", views.detail, name="detail"),
    path("reviews/", include("reviews.urls", namespace="reviews")),
]
# --- path: reviews/__init__.py ---
# --- path: reviews/urls.py ---
from django.urls import path
from reviews import views

urlpatterns = [path("<int:pk>/", views.show, name="show")]
# --- path: reviews/views.py ---
def show(request, pk):
    return None
# --- path: blog/__init__.py ---
# --- path: blog/urls.py ---
from django.urls import path
from blog import views

urlpatterns = [path("", views.index, name="index")]
# --- path: blog/views.py ---
def index(request):
    return None
# --- path: pages/__init__.py ---
# --- path: pages/urls.py ---
from django.urls import path
from pages import views

urlpatterns = [
    path("about/", views.about, name="about"),
    path("list/", views.listing, name="listing"),
    path("list/<int:page>/", views.listing, name="listing"),
    path("home/", views.home, name="home"),
]
# --- path: pages/views.py ---
from django.shortcuts import redirect
from django.http import HttpResponseRedirect
from django.urls import reverse

def about(request):
    return HttpResponseRedirect(reverse("pages:gone"))

def listing(request, page=1):
    return redirect("shop:index")

def home(request):
    return redirect(reverse("about"))
# --- path: wiki/__init__.py ---
# --- path: wiki/urls.py ---
from django.urls import path
from wiki import views

urlpatterns = [path("wiki/home/", views.home, name="home")]
# --- path: wiki/views.py ---
def home(request):
    return None
# --- path: shop/tests.py ---
from django.test import TestCase
from django.urls import reverse, reverse_lazy


class ShopTests(TestCase):
    def test_index(self):
        self.client.get(reverse("shop:index"))

    def test_detail(self):
        url = reverse("shop:detail", args=(1,))
        self.client.post(url, {"a": 1})

    def test_office(self):
        self.client.get(reverse("office:detail", kwargs={"pk": 2}) + "?q=1")

    def test_nested(self):
        self.client.get(reverse_lazy("shop:reviews:show", args=[3]))

    def test_blog_and_extra(self):
        self.client.get(reverse("blog:index"))
        self.client.get(f"{reverse('extra:ping')}?x=1")

    def test_plain(self):
        self.client.get(reverse("about"))
        self.client.get(reverse("listing"))
        self.client.get(reverse("listing", args=(2,)))

    def test_misses(self):
        self.client.get(reverse("detail"))
        self.client.get(reverse("shop:nothing"))
        self.client.get(reverse("listing", args=some_args))
        self.client.get(reverse("home"))
"""


def _django(line: int, caller: str, method: str, path: str, name: str) -> tuple:
    # every view here is a function view accepting any method: the request reaches its "*" endpoint, its own
    # method kept on the edge (literal_paths)
    return ("shop/tests.py", line, f"shop/tests.ShopTests.{caller}(0)", "CALLS_HTTP", f"endpoint:* {path}",
            {"framework": "django-test", "url": path, "route_name": name, "method": method})


def _miss(line: int, caller: str, reason: str, call: str, candidates: list[str] | None) -> tuple:
    props = {"call": call, "framework": "django-test", **({"candidates": candidates} if candidates else {})}
    return ("shop/tests.py", line, f"shop/tests.ShopTests.{caller}(0)", "UNLINKED", f"unlinked:{reason}", props)


def test_django_reverse_links_through_app_names_namespaces_nested_includes_and_arguments() -> None:
    assert _calls(_resolve(DJANGO)) == [
        _django(7, "test_index", "GET", "/shop", "shop:index"),  # the URLconf's app_name
        _django(11, "test_detail", "POST", "/shop/items/{}", "shop:detail"),  # through a local, args=
        # include(..., namespace="office") replaces the app name; kwargs=; the URL's start
        _django(14, "test_office", "GET", "/backoffice/items/{}", "office:detail"),
        _django(17, "test_nested", "GET", "/shop/reviews/{}", "shop:reviews:show"),  # nested, reverse_lazy
        _django(20, "test_blog_and_extra", "GET", "/blog", "blog:index"),  # an include((module, app_name)) tuple
        _django(21, "test_blog_and_extra", "GET", "/extra/ping", "extra:ping"),  # an inline list's tuple; f-string
        _django(24, "test_plain", "GET", "/about", "about"),  # an include without namespace adds none
        # one name on two paths: the arguments given choose
        _django(25, "test_plain", "GET", "/list", "listing"),
        _django(26, "test_plain", "GET", "/list/{}", "listing"),
        # a namespaced name is not reachable without its namespace (Django's rule)
        _miss(29, "test_misses", "route_name", 'GET reverse("detail")', ["shop:detail", "office:detail"]),
        _miss(30, "test_misses", "route_name", 'GET reverse("shop:nothing")', ["shop:index", "shop:detail"]),
        # arguments not counted: two paths stay possible
        _miss(31, "test_misses", "route_name_ambiguous", 'GET reverse("listing")', ["/list", "/list/{}"]),
        # the same name in two URLconfs included without namespaces: which Django builds depends on the order
        _miss(32, "test_misses", "route_name_ambiguous", 'GET reverse("home")', ["/home", "/wiki/home"]),
    ]


def test_a_redirect_built_from_a_name_is_no_client_call() -> None:
    result = _resolve(DJANGO)
    from_views = [e for f in result.files for e in f.edges
                  if e.file == "pages/views.py" and e.kind in ("CALLS_HTTP", "UNLINKED")]
    assert from_views == []  # redirect(reverse("about")), redirect("shop:index"), HttpResponseRedirect(...)


OTHER_REPOSITORY = """
# --- path: client/__init__.py ---
# --- path: client/tests.py ---
from django.test import TestCase
from django.urls import reverse


class ClientTests(TestCase):
    def test_about(self):
        self.client.get(reverse("about"))
"""


def test_a_name_only_another_repository_gives_stays_unlinked() -> None:
    assert _calls(_resolve(OTHER_REPOSITORY, "other"), "other") == [
        ("client/tests.py", 7, "client/tests.ClientTests.test_about(0)", "UNLINKED", "unlinked:route_name",
         {"call": 'GET reverse("about")', "framework": "django-test"}),
    ]


STARLETTE = """
# --- path: app/__init__.py ---
# --- path: app/main.py ---
from starlette.applications import Starlette
from starlette.routing import Mount, Route


def homepage(request):
    return None


def user(request):
    return None


def settings(request):
    return None


app = Starlette(routes=[
    Route("/", homepage),
    Mount("/users", routes=[
        Route("/{username}", user, name="user_detail"),
        Route("/me/settings", settings),
    ], name="users"),
])
# --- path: app/api.py ---
from fastapi import FastAPI

api = FastAPI()


@api.get("/items/{item_id}", name="item")
def read_item(item_id: int):
    return None


@api.post("/items")
def create_item():
    return None
# --- path: tests/test_app.py ---
from starlette.testclient import TestClient
from app.main import app
from app.api import api


def test_pages():
    client = TestClient(app)
    client.get(app.url_path_for("homepage"))
    client.get(app.url_path_for("users:user_detail", username="ann"))
    client.get(client.app.url_path_for("users:settings"))
    client.get(app.url_path_for("user_detail", username="ann"))


def test_api():
    client = TestClient(api)
    client.get(api.url_path_for("item", item_id=1))
    client.post(api.url_path_for("create_item"))
"""


def test_starlette_and_fastapi_url_path_for_through_named_mounts() -> None:
    def link(line: int, caller: str, method: str, path: str, name: str) -> tuple:
        return ("tests/test_app.py", line, f"tests/test_app.{caller}(0)", "CALLS_HTTP", f"endpoint:{method} {path}",
                {"framework": "testclient", "url": path, "route_name": name})

    assert _calls(_resolve(STARLETTE)) == [
        link(8, "test_pages", "GET", "/", "homepage"),  # the endpoint function's name
        link(9, "test_pages", "GET", "/users/{}", "users:user_detail"),  # Mount(..., name="users")
        link(10, "test_pages", "GET", "/users/me/settings", "users:settings"),
        # inside a named mount the name needs its prefix
        ("tests/test_app.py", 11, "tests/test_app.test_pages(0)", "UNLINKED", "unlinked:route_name",
         {"call": 'GET url_for("user_detail")', "framework": "testclient",
          "candidates": ["users:user_detail"]}),
        link(16, "test_api", "GET", "/items/{}", "item"),  # FastAPI name=
        link(17, "test_api", "POST", "/items", "create_item"),
    ]


FLASK = """
# --- path: shop/__init__.py ---
from flask import Flask
from shop.views import bp
from shop.admin import admin


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp, url_prefix="/shop")
    app.register_blueprint(admin, url_prefix="/admin", name="staff")
    return app
# --- path: shop/views.py ---
from flask import Blueprint, redirect, url_for

bp = Blueprint("catalog", __name__)


@bp.route("/items/<int:item_id>")
def show(item_id):
    return None


@bp.route("/", endpoint="home")
def index():
    return redirect(url_for("catalog.show", item_id=1))
# --- path: shop/admin.py ---
from flask import Blueprint

admin = Blueprint("admin", __name__)


def users():
    return None


admin.add_url_rule("/users", "user_list", users)
# --- path: tests/test_shop.py ---
from flask import url_for
from flask.testing import FlaskClient
from shop import create_app


def test_links(client: FlaskClient):
    client.get(url_for("catalog.show", item_id=2, _external=True))
    client.get(url_for("catalog.home"))
    client.get(url_for("staff.user_list"))
    client.get(url_for("admin.user_list"))


def test_made_client():
    app = create_app()
    with app.test_client() as c, app.test_request_context():
        c.post(url_for("catalog.home"))
    app.test_client().get(url_for("catalog.nothing"))
"""


def test_flask_url_for_blueprint_names_endpoint_and_registration_name() -> None:
    def link(line: int, path: str, name: str, method: str = "GET", caller: str = "test_links(1)") -> tuple:
        return ("tests/test_shop.py", line, f"tests/test_shop.{caller}", "CALLS_HTTP", f"endpoint:{method} {path}",
                {"framework": "flask-test", "url": path, "route_name": name})

    def miss(line: int, caller: str, call: str, candidates: list[str]) -> tuple:
        return ("tests/test_shop.py", line, f"tests/test_shop.{caller}", "UNLINKED", "unlinked:route_name",
                {"call": call, "framework": "flask-test", "candidates": candidates})

    assert _calls(_resolve(FLASK)) == [
        link(7, "/shop/items/{}", "catalog.show"),  # the blueprint's name + the view function's
        link(8, "/shop", "catalog.home"),  # endpoint=
        link(9, "/admin/users", "staff.user_list"),  # register_blueprint(..., name="staff") renames it
        miss(10, "test_links(1)", 'GET url_for("admin.user_list")', ["staff.user_list"]),  # renamed: not by its own
        link(16, "/shop", "catalog.home", "POST", "test_made_client(0)"),  # a client made by app.test_client()
        miss(17, "test_made_client(0)", 'GET url_for("catalog.nothing")', ["catalog.show", "catalog.home"]),
    ]  # and the view's redirect(url_for(...)) is no request


INCREMENTAL = {
    "shop/__init__.py": "",
    "shop/views.py": "def detail(request, pk):\n    return None\n",
    "shop/urls.py": ('from django.urls import path\nfrom shop import views\n\napp_name = "shop"\n'
                     'urlpatterns = [path("items/<int:pk>/", views.detail, name="detail")]\n'),
    "site_urls.py": 'from django.urls import include, path\n\nurlpatterns = [path("s/", include("shop.urls"))]\n',
    "shop/tests.py": ('from django.test import TestCase\nfrom django.urls import reverse\n\n\n'
                      'class T(TestCase):\n    def test_detail(self):\n'
                      '        self.client.get(reverse("shop:detail", args=(1,)))\n'),
}


def _named_links(db) -> list[tuple]:
    """``(file, line, target)`` of the test file's CALLS_HTTP / UNLINKED edges in the index ``db``."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        rows = conn.execute("SELECT file, line, dst FROM edges WHERE kind IN ('CALLS_HTTP', 'UNLINKED') "
                            "AND file = 'shop/tests.py' ORDER BY line").fetchall()
        return [tuple(r) for r in rows]
    finally:
        conn.close()


def test_editing_a_name_or_namespace_in_another_file_relinks_the_request(tmp_path) -> None:
    ws = Workspace(tmp_path, INCREMENTAL)
    try:
        linked = [("shop/tests.py", 7, "endpoint:* /s/items/{}")]  # a function view: any method
        assert _named_links(ws.db) == _named_links(ws.cli_db) == linked
        # the route renamed: the request names no route any more (the watcher's and a one-shot run's index,
        # each checked against a full index by the Workspace)
        ws.edit({"shop/urls.py": INCREMENTAL["shop/urls.py"].replace('name="detail"', 'name="show"')})
        assert _named_links(ws.db) == _named_links(ws.cli_db) == [("shop/tests.py", 7, "unlinked:route_name")]
        # renamed back, but the include now gives the instance namespace "office": "shop" is still the URLconf's
        # application namespace, which Django's reverse resolves to its one deployed instance, "office"
        ws.edit({"shop/urls.py": INCREMENTAL["shop/urls.py"],
                 "site_urls.py": INCREMENTAL["site_urls.py"].replace('include("shop.urls")',
                                                                     'include("shop.urls", namespace="office")')})
        assert _named_links(ws.db) == _named_links(ws.cli_db) == [("shop/tests.py", 7, "endpoint:* /s/items/{}")]
        # the URLconf's app_name renamed: "shop" is no namespace of any kind any more
        ws.edit({"shop/urls.py": INCREMENTAL["shop/urls.py"].replace('app_name = "shop"', 'app_name = "store"')})
        assert _named_links(ws.db) == _named_links(ws.cli_db) == [("shop/tests.py", 7, "unlinked:route_name")]
        ws.edit({"shop/urls.py": INCREMENTAL["shop/urls.py"]})
        ws.edit({"site_urls.py": INCREMENTAL["site_urls.py"].replace('"s/"', '"store/"')})
        assert _named_links(ws.db) == _named_links(ws.cli_db) == [("shop/tests.py", 7, "endpoint:* /store/items/{}")]
    finally:
        ws.close()


DRF = """
# --- path: api/__init__.py ---
# --- path: api/views.py ---
from rest_framework import viewsets
from rest_framework.decorators import action


class ArticleViewSet(viewsets.ModelViewSet):
    @action(detail=True, methods=["post"])
    def publish_now(self, request, pk=None):
        return None
# --- path: api/urls.py ---
from django.urls import include, path
from rest_framework.routers import DefaultRouter
from api import views

app_name = "api"
router = DefaultRouter()
router.register(r"articles", views.ArticleViewSet, basename="article")
router.register(r"notes", views.ArticleViewSet)
urlpatterns = [path("", include(router.urls))]
# --- path: site_urls.py ---
from django.urls import include, path

urlpatterns = [path("v1/", include("api.urls"))]
# --- path: api/tests.py ---
from rest_framework.reverse import reverse
from rest_framework.test import APITestCase


class ArticleTests(APITestCase):
    def test_all(self):
        self.client.get(reverse("api:article-list"))
        self.client.get(reverse("api:article-detail", args=[1]))
        self.client.post(reverse("api:article-publish-now", kwargs={"pk": 1}))
        self.client.get(reverse("api:note-list"))
"""


def test_drf_router_names_from_the_basename_under_the_urlconf_namespace() -> None:
    def link(line: int, method: str, path: str, name: str) -> tuple:
        return ("api/tests.py", line, "api/tests.ArticleTests.test_all(0)", "CALLS_HTTP", f"endpoint:{method} {path}",
                {"framework": "django-test", "url": path, "route_name": name})

    assert _calls(_resolve(DRF)) == [
        link(7, "GET", "/v1/articles", "api:article-list"),
        link(8, "GET", "/v1/articles/{}", "api:article-detail"),
        link(9, "POST", "/v1/articles/{}/publish_now", "api:article-publish-now"),  # an @action: its name, _ as -
        # registered without basename= and its viewset sets no queryset: no name (DRF refuses it)
        ("api/tests.py", 10, "api/tests.ArticleTests.test_all(0)", "UNLINKED", "unlinked:route_name",
         {"call": 'GET reverse("api:note-list")', "framework": "django-test", "candidates": ["api:article-list"]}),
    ]


SET_UP = """
# --- path: notes/__init__.py ---
# --- path: notes/views.py ---
def show(request, pk):
    return None
# --- path: notes/urls.py ---
from django.urls import path
from notes import views

urlpatterns = [path("notes/<int:pk>/", views.show, name="note")]
# --- path: notes/tests.py ---
from django.shortcuts import resolve_url
from django.test import TestCase
from django.urls import reverse, reverse_lazy


NOTE = reverse_lazy("note", args=(3,))


class NoteTests(TestCase):
    def setUp(self):
        self.url = reverse("note", args=(1,))

    def test_set_up_url(self):
        self.client.get(self.url)

    def test_resolve_url(self):
        self.client.get(resolve_url("note", 1))
        self.client.get(resolve_url("/notes/2/"))

    def test_module_constant(self):
        self.client.get(NOTE)

    def test_local_after(self, other):
        self.client.get(other)
        self.client.get(NOTE)
        NOTE = "/elsewhere/"
"""


def test_a_url_set_up_by_the_test_case_and_resolve_url() -> None:
    def link(line: int, caller: str, path: str, props: dict) -> tuple:
        return ("notes/tests.py", line, f"notes/tests.NoteTests.{caller}(0)", "CALLS_HTTP", f"endpoint:* {path}",
                {"framework": "django-test", "method": "GET", **props})  # a function view: any method

    assert _calls(_resolve(SET_UP)) == [
        link(14, "test_set_up_url", "/notes/{}", {"url": "/notes/{}", "route_name": "note"}),  # setUp's self.url
        link(17, "test_resolve_url", "/notes/{}", {"url": "/notes/{}", "route_name": "note"}),
        # resolve_url of a path (a "/" in it) builds no URL from a name: left to the URL rules (a call's value)
        ("notes/tests.py", 18, "notes/tests.NoteTests.test_resolve_url(0)", "UNLINKED", "unlinked:url",
         {"call": "GET {}", "framework": "django-test"}),
        link(21, "test_module_constant", "/notes/{}", {"url": "/notes/{}", "route_name": "note"}),  # a module constant
        # a parameter, and a name the function assigns (after the request): no route name
        ("notes/tests.py", 24, "notes/tests.NoteTests.test_local_after(1)", "UNLINKED", "unlinked:url",
         {"call": "GET {}", "framework": "django-test"}),
        ("notes/tests.py", 25, "notes/tests.NoteTests.test_local_after(1)", "UNLINKED", "unlinked:url",
         {"call": "GET {}", "framework": "django-test"}),
    ]


RELATIVE = """
# --- path: shop/__init__.py ---
from flask import Flask
from shop.views import bp
from shop.admin import admin


def create_app():
    app = Flask(__name__)
    app.register_blueprint(bp, url_prefix="/shop")
    app.register_blueprint(admin, url_prefix="/admin", name="staff")
    app.register_blueprint(admin, url_prefix="/office", name="office")
    return app
# --- path: shop/views.py ---
from flask import Blueprint, current_app, url_for

bp = Blueprint("catalog", __name__)


@bp.route("/items/<int:item_id>")
def show(item_id):
    return None


def smoke():
    current_app.test_client().get(url_for(".show", item_id=3))
    current_app.test_client().get(url_for(".gone"))
# --- path: shop/admin.py ---
from flask import Blueprint, current_app, url_for

admin = Blueprint("admin", __name__)


@admin.route("/users")
def users():
    return None


def smoke():
    current_app.test_client().get(url_for(".users"))
# --- path: shop/home.py ---
from flask import current_app, url_for


def smoke():
    current_app.test_client().get(url_for(".show", item_id=3))
"""


def test_flask_relative_url_for_is_under_the_blueprint_of_its_file() -> None:
    """``url_for(".show")`` in the file of the blueprint ``catalog`` is ``catalog.show``; in the file of a blueprint
    registered twice (``staff``, ``office``) it names two paths (ambiguous); in a file with no blueprint the dot is
    dropped (``show``: no app view of that name)."""
    found = [(path, line, kind, target, props.get("route_name") or props.get("call"))
             for path, line, _, kind, target, props in _calls(_resolve(RELATIVE))]
    assert found == [
        ("shop/admin.py", 12, "UNLINKED", "unlinked:route_name_ambiguous", 'GET url_for(".users")'),
        ("shop/home.py", 5, "UNLINKED", "unlinked:route_name", 'GET url_for(".show")'),
        ("shop/views.py", 12, "CALLS_HTTP", "endpoint:GET /shop/items/{}", "catalog.show"),
        ("shop/views.py", 13, "UNLINKED", "unlinked:route_name", 'GET url_for(".gone")'),
    ]
