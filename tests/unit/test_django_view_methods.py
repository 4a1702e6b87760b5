"""What Django serves from a class-based view and a view instance (indexer/frameworks/route_links.py): ``HEAD``
answered by ``get`` (``View.setup``'s ``self.head = self.get``), and a routed instance (a syndication ``Feed``)
served by its ``__call__`` for any method.

Every fixture is extracted by the real detectors and resolved as one repository; the assertions are the exact
EXPOSES, CALLS_HTTP and UNLINKED edges.
"""

from __future__ import annotations

from tests.unit.test_route_names import _calls, _resolve


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



FEED = """
# --- path: news/__init__.py ---
# --- path: news/feeds.py ---
from django.contrib.syndication.views import Feed


class Latest(Feed):
    title = "x"

    def items(self):
        return []


class Own:
    def __call__(self, request):
        return None


class Plain:
    pass
# --- path: news/urls.py ---
from django.urls import path
from news import feeds

urlpatterns = [
    path("feed/", feeds.Latest(), name="feed"),
    path("own/", feeds.Own()),
    path("plain/", feeds.Plain()),
]
# --- path: site/__init__.py ---
# --- path: site/urls.py ---
from django.urls import include, path

urlpatterns = [path("", include("news.urls"))]
# --- path: tests/__init__.py ---
# --- path: tests/test_feed.py ---
from django.test import TestCase


class FeedTests(TestCase):
    def test_feed(self):
        self.client.get("/feed/")
        self.client.get("/own/")
        self.client.get("/plain/")
"""


def test_instance_views_are_served_by_their_call():
    result = _resolve(FEED)
    exposes = sorted((e.src.removeprefix("t:"), e.dst, dict(e.props)) for f in result.files for e in f.edges
                     if e.kind == "EXPOSES")
    assert exposes == [
        ("news/feeds.Latest", "endpoint:* /feed", {"framework": "django"}),  # the library Feed's __call__
        ("news/feeds.Own.__call__(1)", "endpoint:* /own", {"framework": "django"}),
    ]  # not: an instance of a class with no __call__ and no other base
    t = "tests/test_feed.FeedTests.test_feed(0)"
    assert _calls(result) == [
        ("tests/test_feed.py", 6, t, "CALLS_HTTP", "endpoint:* /feed",
         {"framework": "django-test", "url": "/feed/", "method": "GET"}),
        ("tests/test_feed.py", 7, t, "CALLS_HTTP", "endpoint:* /own",
         {"framework": "django-test", "url": "/own/", "method": "GET"}),
        ("tests/test_feed.py", 8, t, "CALLS_HTTP", "endpoint:GET /plain", {"framework": "django-test", "url": "/plain/"}),
    ]


def test_a_head_request_built_from_a_route_name_reaches_the_get_route():
    fixture = HEAD_VIEWS.replace('path("list/", views.Listing.as_view()),',
                                 'path("list/", views.Listing.as_view(), name="list"),') \
        .replace("from django.test import TestCase", "from django.test import TestCase\nfrom django.urls import reverse") \
        .replace('self.client.head("/list/")', 'self.client.head(reverse("list"))')
    assert [c for c in _calls(_resolve(fixture)) if c[1] == 8] == [
        ("tests/test_head.py", 8, "tests/test_head.HeadTests.test_head(0)", "CALLS_HTTP", "endpoint:GET /list",
         {"framework": "django-test", "url": "/list", "route_name": "list", "method": "HEAD"})]
