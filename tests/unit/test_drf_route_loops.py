"""DRF routers registered in a module-level loop over a literal list (indexer/languages/python/frameworks/drf_routers.py
``_looped``): ``for route in routes: router.register(route["regex"], route["viewset"], basename=route["basename"])``
over a list display, a name assigned one, or a ``+`` of those, and ``for prefix, viewset, name in [...]`` over tuples.
The assertions are the exact routes recorded and the exact CALLS_HTTP edges; negatives: a loop over a list not in the
file, an entry whose prefix is no string, a loop inside a function, a list too long.
"""

from __future__ import annotations

from indexer.languages import extractor_for_path
from indexer.languages.python.frameworks.drf_routers import MAX_ENTRIES
from tests.unit.test_route_names import _calls, _resolve

URLS = '''from django.urls import include, path
from rest_framework.routers import DefaultRouter
from api import views
from api.more import extra_routes

app_name = "api"
router = DefaultRouter()
common = [
    {"regex": r"notes", "viewset": views.NoteViewSet, "basename": "note"},
    {"regex": views.PREFIX, "viewset": views.TagViewSet, "basename": "bad"},
]
users = [{"regex": "users", "viewset": views.UserViewSet, "basename": "user"}]
routes = common + users
for route in routes:
    router.register(route["regex"], route["viewset"], basename=route["basename"])
for prefix, viewset, name in (("tags", views.TagViewSet, "tag"), ("short", views.UserViewSet)):
    router.register(prefix, viewset, name)
for route in extra_routes:
    router.register(route["regex"], route["viewset"])


def later():
    for route in users:
        router.register(route["regex"], route["viewset"])


urlpatterns = [path("api/", include(router.urls))]
'''

FIXTURE = """
# --- path: api/__init__.py ---
# --- path: api/views.py ---
from rest_framework import viewsets

PREFIX = "p"


class NoteViewSet(viewsets.ModelViewSet):
    pass


class TagViewSet(viewsets.ModelViewSet):
    pass


class UserViewSet(viewsets.ModelViewSet):
    pass
# --- path: api/more.py ---
from api import views

extra_routes = [{"regex": "extra", "viewset": views.NoteViewSet}]
# --- path: api/urls.py ---
""" + URLS + """
# --- path: api/tests.py ---
from django.urls import reverse
from rest_framework.test import APITestCase


class T(APITestCase):
    def test_all(self):
        self.client.get(reverse("api:user-list"))
        self.client.delete(reverse("api:tag-detail", args=[1]))
        self.client.get("/api/notes/")
        self.client.get("/api/extra/")
"""


def _routes(source: str) -> list[tuple]:
    ex = extractor_for_path("api/urls.py").extract("api/urls.py", source.encode())
    return [(r.line, r.path.parts, r.handler_ref, r.router, r.name) for r in ex.routes]


def test_loop_routes_recorded():
    assert _routes(URLS) == [
        (15, (("lit", "notes"),), "views.NoteViewSet", "router.urls", "note"),
        (15, (("lit", "users"),), "views.UserViewSet", "router.urls", "user"),
        (17, (("lit", "tags"),), "views.TagViewSet", "router.urls", "tag"),
    ]  # not: a prefix that is no string, a tuple of another width, an imported list, a loop in a function


def test_loop_over_a_long_list_registers_nothing():
    rows = ", ".join(f'{{"regex": "r{i}", "viewset": views.NoteViewSet}}' for i in range(MAX_ENTRIES + 1))
    source = URLS.replace('users = [{"regex"', f'users = [{rows}, {{"regex"')
    assert [r[1] for r in _routes(source)] == [(("lit", "tags"),)]


def test_loop_routes_link():
    result = _resolve(FIXTURE)
    calls = [(c[1], c[3], c[4], c[5].get("route_name")) for c in _calls(result) if c[0] == "api/tests.py"]
    assert calls == [
        (7, "CALLS_HTTP", "endpoint:GET /api/users", "api:user-list"),
        (8, "CALLS_HTTP", "endpoint:DELETE /api/tags/{}", "api:tag-detail"),
        (9, "CALLS_HTTP", "endpoint:GET /api/notes", None),
        (10, "CALLS_HTTP", "endpoint:GET /api/extra", None),  # a literal URL: an endpoint nothing serves
    ]
    served = sorted({(e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges if e.kind == "EXPOSES"})
    assert served == sorted(
        (f"api/views.{view}", f"endpoint:{method} /api/{prefix}{tail}")
        for view, prefix in (("NoteViewSet", "notes"), ("UserViewSet", "users"), ("TagViewSet", "tags"))
        for method, tail in (("GET", ""), ("POST", ""), ("GET", "/{}"), ("PUT", "/{}"), ("PATCH", "/{}"),
                             ("DELETE", "/{}")))  # not: /api/extra (its list is in another file), /api/p, /api/short
