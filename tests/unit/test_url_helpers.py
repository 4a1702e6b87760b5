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



LITERAL_HELPERS = SHOP + """
# --- path: tests/__init__.py ---
# --- path: tests/test_literal.py ---
from django.test import TestCase


def item_path(pk):
    return f"/shop/items/{pk}/"


class ItemTests(TestCase):
    def _url(self, expired=False):
        signed = "x" if expired else "y"
        return f"/shop/items/{signed}/edit/"

    def _either(self, flag):
        if flag:
            return "/shop/"
        return "/shop/items/1/"

    def _relative(self):
        return "shop/"

    def test_pages(self):
        self.client.post(self._url())
        self.client.get(item_path(3) + "?next=/")
        self.client.get(self._either(True))
        self.client.get(self._relative())
"""


def test_helpers_returning_a_literal_url():
    t = "tests/test_literal.ItemTests.test_pages(0)"
    assert _calls(_resolve(LITERAL_HELPERS)) == [
        ("tests/test_literal.py", 22, t, "CALLS_HTTP", "endpoint:POST /shop/items/{}/edit",
         {"framework": "django-test", "url": "/shop/items/{}/edit/"}),
        ("tests/test_literal.py", 23, t, "CALLS_HTTP", "endpoint:* /shop/items/{}",
         {"framework": "django-test", "url": "/shop/items/{}/?next=/", "method": "GET"}),
        # not: two different returns, a relative path
        ("tests/test_literal.py", 24, t, "UNLINKED", "unlinked:url", {"call": "GET {}", "framework": "django-test"}),
        ("tests/test_literal.py", 25, t, "UNLINKED", "unlinked:url", {"call": "GET {}", "framework": "django-test"}),
    ]


def test_a_rewrite_over_too_many_values_is_not_applied():
    from indexer.frameworks.fixture_clients import MAX_VALUES

    many = ", ".join(f'"c{i}"' for i in range(MAX_VALUES + 1))
    calls = _calls(_resolve(HEADLESS.replace('params=["app", "browser"]', f"params=[{many}]")))
    assert [c[3:5] for c in calls if c[1] == 2] == [("UNLINKED", "unlinked:url")]  # one unknown URL, no 33 requests
