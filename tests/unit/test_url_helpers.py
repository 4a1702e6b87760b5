"""URLs built by a helper that returns a route-name URL (indexer/languages/python/frameworks/url_names.py,
``returned_route``) and by a pytest fixture returning a URL-building function (``UrlFixture``, joined in
indexer/frameworks/fixture_clients.py): the route name flows through one level of return.

Every fixture is extracted by the real detectors and resolved as one repository; the assertions are the exact
CALLS_HTTP and UNLINKED edges.
"""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.model import UrlFixture
from tests.unit.test_route_names import _calls, _resolve

SHOP = """
# --- path: shop/__init__.py ---
# --- path: shop/views.py ---
from django.views import View


def index(request):
    return None


def detail(request, pk):
    return None


class Edit(View):
    def post(self, request, pk):
        return None
# --- path: shop/urls.py ---
from django.urls import path
from shop import views

app_name = "shop"
urlpatterns = [
    path("", views.index, name="index"),
    path("items/<int:pk>/", views.detail, name="detail"),
    path("items/<int:pk>/edit/", views.Edit.as_view(), name="edit"),
]
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("shop/", include("shop.urls"))]
"""

HELPERS = SHOP + """
# --- path: tests/__init__.py ---
# --- path: tests/test_helpers.py ---
from django.test import TestCase
from django.urls import reverse


def item_url(pk, name="shop:detail"):
    return reverse(name, args=(pk,))


def renamed_url(name):
    name = name.upper()
    return reverse(name)


def either_url(flag):
    if flag:
        return reverse("shop:index")
    return reverse("shop:detail", args=(1,))


class Base(TestCase):
    def get_url(self):
        return reverse("shop:index")


class ItemTests(Base):
    def edit_url(self, which):
        url = reverse(which, kwargs={"pk": 1})
        return url

    def test_pages(self):
        self.client.get(self.get_url())
        self.client.post(self.edit_url("shop:edit"))
        self.client.get(item_url(1))
        self.client.get(item_url(2, name="shop:edit"))

    def test_unknown(self):
        self.client.get(renamed_url("shop:index"))
        self.client.get(item_url(1, self.name))
        self.client.get(either_url(True))
        self.client.get(self.missing())
"""


def test_helpers_returning_a_route_name_url():
    t = "tests/test_helpers.ItemTests."
    unknown = {"call": "GET {}", "framework": "django-test"}
    assert _calls(_resolve(HELPERS)) == [
        ("tests/test_helpers.py", 31, t + "test_pages(0)", "CALLS_HTTP", "endpoint:* /shop",
         {"framework": "django-test", "url": "/shop", "route_name": "shop:index", "method": "GET"}),
        ("tests/test_helpers.py", 32, t + "test_pages(0)", "CALLS_HTTP", "endpoint:POST /shop/items/{}/edit",
         {"framework": "django-test", "url": "/shop/items/{}/edit", "route_name": "shop:edit"}),
        ("tests/test_helpers.py", 33, t + "test_pages(0)", "CALLS_HTTP", "endpoint:* /shop/items/{}",
         {"framework": "django-test", "url": "/shop/items/{}", "route_name": "shop:detail", "method": "GET"}),
        # the name passed by keyword; GET to a view defining only post stays its own endpoint, as before
        ("tests/test_helpers.py", 34, t + "test_pages(0)", "CALLS_HTTP", "endpoint:GET /shop/items/{}/edit",
         {"framework": "django-test", "url": "/shop/items/{}/edit", "route_name": "shop:edit"}),
        # not: a parameter re-bound before the return, a name from an unknown value, two different returns,
        # a helper the file does not define
        ("tests/test_helpers.py", 37, t + "test_unknown(0)", "UNLINKED", "unlinked:url", unknown),
        ("tests/test_helpers.py", 38, t + "test_unknown(0)", "UNLINKED", "unlinked:url", unknown),
        ("tests/test_helpers.py", 39, t + "test_unknown(0)", "UNLINKED", "unlinked:url", unknown),
        ("tests/test_helpers.py", 40, t + "test_unknown(0)", "UNLINKED", "unlinked:url", unknown),
    ]


HEADLESS = """
# --- path: api/__init__.py ---
# --- path: api/views.py ---
def login(request):
    return None


def session(request):
    return None
# --- path: api/urls.py ---
from django.urls import include, path
from api import views


def build(client):
    return [path("auth/login", views.login, name="login"), path("auth/session", views.session, name="session")]


app_name = "headless"
urlpatterns = [
    path("browser/", include(([path("auth/login", views.login, name="login"),
                               path("auth/session", views.session, name="session")], "headless"),
                              namespace="browser")),
    path("app/", include(([path("auth/login", views.login, name="login"),
                           path("auth/session", views.session, name="session")], "headless"), namespace="app")),
]
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("_allauth/", include("api.urls"))]
# --- path: tests/__init__.py ---
# --- path: tests/conftest.py ---
import pytest
from django.urls import reverse


@pytest.fixture(params=["app", "browser"])
def headless_client(request):
    return request.param


@pytest.fixture
def headless_reverse(headless_client):
    def rev(viewname, **kwargs):
        viewname = viewname.replace("headless:", f"headless:{headless_client}:")
        return reverse(viewname, **kwargs)

    return rev


@pytest.fixture
def plain_reverse():
    def rev(viewname, **kwargs):
        return reverse(viewname, **kwargs)

    return rev


@pytest.fixture
def unknown_reverse(headless_client):
    def rev(viewname):
        viewname = viewname.replace("headless:", f"headless:{headless_client.kind}:")
        return reverse(viewname)

    return rev


@pytest.fixture
def not_a_builder():
    def rev(viewname):
        return viewname

    return rev
# --- path: tests/test_login.py ---
def test_login(client, headless_reverse, plain_reverse):
    client.post(headless_reverse("headless:login"), data={})
    client.get(plain_reverse("headless:app:session"))


def test_not_followed(client, unknown_reverse, not_a_builder, missing_reverse):
    client.post(unknown_reverse("headless:login"))
    client.post(not_a_builder("headless:login"))
    client.post(missing_reverse("headless:login"))
"""


def test_fixture_returning_a_url_building_function():
    conftest = [s for s in HEADLESS.split("# --- path: ") if s.startswith("tests/conftest.py")][0]
    source = conftest.split("\n", 1)[1].encode()
    ex = extractor_for_path("tests/conftest.py").extract("tests/conftest.py", source)  # type: ignore[union-attr]
    assert ex.url_fixtures == [UrlFixture("headless_client", "", values=("app", "browser")),
                               UrlFixture("headless_reverse", "django", ("headless:", "headless:", "headless_client", ":")),
                               UrlFixture("plain_reverse", "django")]  # not: an attribute in the f-string, no builder
    t = "tests/test_login."
    unknown = {"call": "POST {}", "framework": "django-test"}
    assert _calls(_resolve(HEADLESS)) == [
        ("tests/test_login.py", 2, t + "test_login(3)", "CALLS_HTTP", "endpoint:* /_allauth/app/auth/login",
         {"framework": "django-test", "url": "/_allauth/app/auth/login", "route_name": "headless:app:login",
          "method": "POST"}),
        ("tests/test_login.py", 2, t + "test_login(3)", "CALLS_HTTP", "endpoint:* /_allauth/browser/auth/login",
         {"framework": "django-test", "url": "/_allauth/browser/auth/login", "route_name": "headless:browser:login",
          "method": "POST"}),
        ("tests/test_login.py", 3, t + "test_login(3)", "CALLS_HTTP", "endpoint:* /_allauth/app/auth/session",
         {"framework": "django-test", "url": "/_allauth/app/auth/session", "route_name": "headless:app:session",
          "method": "GET"}),
        ("tests/test_login.py", 7, t + "test_not_followed(4)", "UNLINKED", "unlinked:url", unknown),
        ("tests/test_login.py", 8, t + "test_not_followed(4)", "UNLINKED", "unlinked:url", unknown),
        ("tests/test_login.py", 9, t + "test_not_followed(4)", "UNLINKED", "unlinked:url", unknown),
    ]


HEAD_VIEWS = """
# --- path: pages/__init__.py ---
# --- path: pages/views.py ---
from django.views import View
from django.views.generic import TemplateView


class Page(View):
    def get(self, request, pk):
        return None


class Listing(Page):
    pass


class NoHead(View):
    head = None

    def get(self, request):
        return None


class Restricted(View):
    http_method_names = ["get"]

    def get(self, request):
        return None


class OwnHead(View):
    def get(self, request):
        return None

    def head(self, request):
        return None


class PostOnly(View):
    def post(self, request):
        return None
# --- path: pages/urls.py ---
from django.urls import path
from pages import views

urlpatterns = [
    path("page/<int:pk>/", views.Page.as_view()),
    path("list/", views.Listing.as_view()),
    path("nohead/", views.NoHead.as_view()),
    path("restricted/", views.Restricted.as_view()),
    path("own/", views.OwnHead.as_view()),
    path("post/", views.PostOnly.as_view()),
]
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("", include("pages.urls"))]
# --- path: tests/__init__.py ---
# --- path: tests/test_head.py ---
from django.test import TestCase


class HeadTests(TestCase):
    def test_head(self):
        self.client.head("/page/1/")
        self.client.head("/list/")
        self.client.head("/nohead/")
        self.client.head("/restricted/")
        self.client.head("/own/")
        self.client.head("/post/")
"""


def test_class_views_answer_head_with_get():
    result = _resolve(HEAD_VIEWS)
    exposes = sorted((e.src.removeprefix("t:"), e.dst, e.props.get("head")) for f in result.files for e in f.edges
                     if e.kind == "EXPOSES")
    assert exposes == [
        ("pages/views.NoHead.get(1)", "endpoint:GET /nohead", None),
        ("pages/views.OwnHead.get(1)", "endpoint:GET /own", None),
        ("pages/views.OwnHead.head(1)", "endpoint:HEAD /own", None),
        ("pages/views.Page.get(2)", "endpoint:GET /list", True),  # Listing inherits Page.get
        ("pages/views.Page.get(2)", "endpoint:GET /page/{}", True),
        ("pages/views.PostOnly.post(1)", "endpoint:POST /post", None),
        ("pages/views.Restricted.get(1)", "endpoint:GET /restricted", None),
    ]  # no HEAD endpoint is made: the GET one says it answers HEAD too
    t = "tests/test_head.HeadTests.test_head(0)"
    assert _calls(result) == [
        ("tests/test_head.py", 6, t, "CALLS_HTTP", "endpoint:GET /page/{}",
         {"framework": "django-test", "url": "/page/1/", "literal": True, "method": "HEAD"}),
        ("tests/test_head.py", 7, t, "CALLS_HTTP", "endpoint:GET /list", {"framework": "django-test", "url": "/list/",
                                                                       "method": "HEAD"}),
        # not: head = None, a view listing its own http_method_names, a view with no get
        ("tests/test_head.py", 8, t, "CALLS_HTTP", "endpoint:HEAD /nohead", {"framework": "django-test",
                                                                          "url": "/nohead/"}),
        ("tests/test_head.py", 9, t, "CALLS_HTTP", "endpoint:HEAD /restricted", {"framework": "django-test",
                                                                               "url": "/restricted/"}),
        ("tests/test_head.py", 10, t, "CALLS_HTTP", "endpoint:HEAD /own", {"framework": "django-test", "url": "/own/"}),
        ("tests/test_head.py", 11, t, "CALLS_HTTP", "endpoint:HEAD /post", {"framework": "django-test", "url": "/post/"}),
    ]
