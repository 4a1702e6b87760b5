"""Requests a test makes through a client its base class's ``setUp`` binds (``self.auth_client = APIClient()`` in a
base test case of another file, used by subclasses: indexer/languages/python/frameworks/python_http_clients.py records
both halves, indexer/frameworks/fixture_clients.py joins them through the subclass's MRO).

Every file is extracted by the real detectors and resolved as one repository; the assertions are the exact CALLS_HTTP
and UNLINKED edges and the exact records.
"""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.model import ClientFixture
from tests.unit.test_route_names import _calls, _resolve

DJANGO = """
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import path
from shop import views

urlpatterns = [
    path("api/users/", views.users, name="user-list"),
]
# --- path: shop/__init__.py ---
# --- path: shop/views.py ---
def users(request):
    return None
# --- path: common/__init__.py ---
# --- path: common/utils/__init__.py ---
# --- path: common/utils/tests.py ---
from django.test import RequestFactory, TestCase
from rest_framework.test import APIClient


class TestCaseUtils(TestCase):
    factory = RequestFactory()

    def setUp(self):
        self.auth_client = APIClient()
        self.helper = dict()
        self.mixed = APIClient()
        self.mixed = object()

    def fetch(self, url):
        return self.auth_client.get(url)

    def built(self, url):
        return self.factory.get(url)


class Unrelated:
    def setUp(self):
        self.api = APIClient()
# --- path: shop/tests.py ---
from django.urls import reverse
from rest_framework.test import APITestCase

from common.utils.tests import TestCaseUtils


class UserTest(TestCaseUtils, APITestCase):
    def test_list(self):
        self.auth_client.get(reverse("user-list"))
        self.helper.get("/api/users/")
        self.mixed.get("/api/users/")

    def test_post(self):
        self.auth_client.post("/api/users/")

    def test_helpers(self):
        self.fetch("/api/users/")
        self.built("/api/users/")


class DeeperTest(UserTest):
    def test_deep(self):
        self.auth_client.delete("/api/users/")


class OtherTest(APITestCase):
    def test_other(self):
        self.api.get("/api/users/")
        self.auth_client.get("/api/users/")
"""


def test_base_class_client_records():
    """The base's ``setUp`` records exactly its test-client attribute; an attribute also bound to something else
    and one bound to a dict are not clients; a class that is no test case still records (its subclasses decide)."""
    src = DJANGO.split("# --- path: common/utils/tests.py ---\n")[1].split("# --- path:")[0]
    ex = extractor_for_path("common/utils/tests.py").extract("common/utils/tests.py", src.encode())
    assert ex.client_fixtures == [ClientFixture("TestCaseUtils.self.auth_client", "django-test"),
                                  ClientFixture("Unrelated.self.api", "django-test")]
    assert [(c.framework, c.method, c.caller, c.line, c.fixture) for c in ex.http_calls] == [
        ("django-test", "GET", "TestCaseUtils.fetch", 15, None),  # bound in this class's own setUp
        ("pytest-fixture", "GET", "TestCaseUtils.built", 18, "self.factory"),  # the linker decides: no client
    ]


def test_requests_through_a_base_class_client():
    assert _calls(_resolve(DJANGO)) == [
        ("shop/tests.py", 9, "shop/tests.UserTest.test_list(0)", "CALLS_HTTP", "endpoint:* /api/users",
         {"framework": "django-test", "url": "/api/users", "route_name": "user-list", "method": "GET"}),
        ("shop/tests.py", 14, "shop/tests.UserTest.test_post(0)", "CALLS_HTTP", "endpoint:* /api/users",
         {"framework": "django-test", "url": "/api/users/", "method": "POST"}),
        ("shop/tests.py", 17, "shop/tests.UserTest.test_helpers(0)", "CALLS_HTTP", "endpoint:* /api/users",
         {"framework": "django-test", "url": "/api/users/", "via": "t:common/utils/tests.TestCaseUtils.fetch(1)",
          "method": "GET"}),
        ("shop/tests.py", 23, "shop/tests.DeeperTest.test_deep(0)", "CALLS_HTTP", "endpoint:* /api/users",
         {"framework": "django-test", "url": "/api/users/", "method": "DELETE"}),
    ]  # not: a dict attribute, an attribute also bound to a non-client, a RequestFactory's `get` through the
    #    `built` helper, the client of a class that is no base (OtherTest's `self.api` of Unrelated, its
    #    `self.auth_client` of TestCaseUtils, which it does not derive from)


def test_same_file_base_class_client():
    """Base and subclasses in one file link the same way (the negatives too)."""
    fixture = DJANGO.replace("# --- path: shop/tests.py ---\n", "").replace(
        "from common.utils.tests import TestCaseUtils\n", "")
    calls = _calls(_resolve(fixture))
    assert [(c[0], c[1], c[2], c[4], c[5]["method"]) for c in calls] == [
        ("common/utils/tests.py", 31, "common/utils/tests.UserTest.test_list(0)", "endpoint:* /api/users", "GET"),
        ("common/utils/tests.py", 36, "common/utils/tests.UserTest.test_post(0)", "endpoint:* /api/users", "POST"),
        ("common/utils/tests.py", 39, "common/utils/tests.UserTest.test_helpers(0)", "endpoint:* /api/users", "GET"),
        ("common/utils/tests.py", 45, "common/utils/tests.DeeperTest.test_deep(0)", "endpoint:* /api/users", "DELETE"),
    ]
