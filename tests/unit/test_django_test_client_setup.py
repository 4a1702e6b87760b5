"""Django test clients (indexer/languages/python/frameworks/python_http_clients.py): ``self.client`` of
a ``...TestCase`` class (its own base or a base of an ancestor in the file) is the test client, and a
URL held in ``self.<attr>`` is the value ``setUp`` (``setUpTestData``, ...) assigns it in the test's
class or its nearest ancestor of the file. Exact calls and edges, with negative cases."""

from __future__ import annotations

import sqlite3

from indexer.languages import extractor_for_path
from indexer.model import HttpCall, Template
from tests.golden.harness import index_fixture

TESTS = """\
from hc.test import BaseTestCase


class PingTestCase(BaseTestCase):
    def setUp(self) -> None:
        super().setUp()
        self.url = "/ping/old/"
        self.url = f"/ping/{self.check.code}/"

    def test_it_works(self) -> None:
        r = self.client.get(self.url)

    def test_other(self) -> None:
        self.client.post(self.missing)


class SlugTestCase(PingTestCase):
    def test_inherited(self) -> None:
        self.client.head(self.url)


class OwnTestCase(PingTestCase):
    @classmethod
    def setUpTestData(cls) -> None:
        cls.url = "/ping/own/"

    def test_own(self) -> None:
        self.client.get(self.url)


class Helper:
    def setUp(self) -> None:
        self.url = "/ping/never/"

    def go(self) -> None:
        self.client.get(self.url)
"""


def test_setup_urls_of_test_case_clients() -> None:
    ex = extractor_for_path("app/tests.py")
    assert ex is not None
    calls = ex.extract("app/tests.py", TESTS.encode()).http_calls
    assert calls == [
        HttpCall("django-test", "GET", Template((("lit", "/ping/"), ("ref", "self.check.code"), ("lit", "/"))),
                 "PingTestCase.test_it_works", 11, 24),  # the last assignment of setUp
        HttpCall("django-test", "POST", Template((("ref", "self.missing"),)), "PingTestCase.test_other", 14, 20),
        HttpCall("django-test", "HEAD", Template((("lit", "/ping/"), ("ref", "self.check.code"), ("lit", "/"))),
                 "SlugTestCase.test_inherited", 19, 20),  # the parent's setUp
        HttpCall("django-test", "GET", Template.of("/ping/own/"), "OwnTestCase.test_own", 28, 20),
    ]  # Helper is no test case: its self.client is no test client


def test_setup_url_reaches_the_view(tmp_path) -> None:
    root = tmp_path / "site"
    (root / "app").mkdir(parents=True)
    (root / "app" / "__init__.py").write_text("", encoding="utf-8")
    (root / "app" / "views.py").write_text("def ping(request, code):\n    return None\n\n\ndef own(request):\n"
                                           "    return None\n", encoding="utf-8")
    (root / "app" / "urls.py").write_text(
        "from django.urls import path\n\nfrom app import views\n\nurlpatterns = [\n"
        "    path('ping/<uuid:code>/', views.ping),\n    path('ping/own/', views.own),\n]\n", encoding="utf-8")
    (root / "app" / "tests.py").write_text(TESTS, encoding="utf-8")
    store = index_fixture(root, tmp_path / "i.db", "site")
    try:
        with sqlite3.connect(store.path) as db:
            rows = db.execute("SELECT src, dst FROM edges WHERE kind = 'CALLS_HTTP' ORDER BY src").fetchall()
    finally:
        store.close()
    assert [(src.split(":", 1)[1].split("(")[0], dst) for src, dst in rows] == [
        # function views accept any method: every request reaches the view's "*" endpoint
        ("app/tests.OwnTestCase.test_own", "endpoint:* /ping/own"),
        ("app/tests.PingTestCase.test_it_works", "endpoint:* /ping/{}"),
        ("app/tests.SlugTestCase.test_inherited", "endpoint:* /ping/{}"),
    ]
