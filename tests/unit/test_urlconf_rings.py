"""Two Django URLconfs including each other (indexer/frameworks/link.py, ``prefixes``): the repository's
``ROOT_URLCONF`` (a settings module's string constant) is served at ``/``, so the URLconf it includes keeps its
prefix; without a known root the ring's routers keep their own paths, as before (tests/hostile/test_brk66b.py)."""

from __future__ import annotations

from tests.unit.test_route_names import _resolve
RING = """
# --- path: proj/__init__.py ---
# --- path: proj/settings.py ---
ROOT_URLCONF = "proj.urls"
# --- path: proj/urls.py ---
from django.urls import include, path
from proj import views

urlpatterns = [path("", views.home), path("shop/", include("app.urls"))]
# --- path: proj/views.py ---
def home(request):
    return None
# --- path: app/__init__.py ---
# --- path: app/views.py ---
def v(request):
    return None
# --- path: app/urls.py ---
from django.urls import include, path
from app import views

urlpatterns = [path("again/", include("proj.urls")), path("x/", views.v)]
"""


def _exposed(fixture: str) -> list[tuple[str, str]]:
    result = _resolve(fixture)
    return sorted((e.src.removeprefix("t:"), e.dst) for f in result.files for e in f.edges if e.kind == "EXPOSES")


def test_the_root_urlconf_of_a_ring_is_served_at_the_root():
    assert _exposed(RING) == [("app/views.v(1)", "endpoint:* /shop/x"), ("proj/views.home(1)", "endpoint:* /")]
    # not: /shop/again/... (an include of the root from below repeats paths), /again (the root under its child)
    assert _exposed(RING.replace('ROOT_URLCONF = "proj.urls"', 'ROOT_URLCONF = make("proj.urls")')) == [
        ("app/views.v(1)", "endpoint:* /x"), ("proj/views.home(1)", "endpoint:* /")]  # no root known: as before
