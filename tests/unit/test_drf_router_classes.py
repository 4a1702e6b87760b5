"""DRF routers built by an application's own subclass of ``DefaultRouter`` / ``SimpleRouter``
(indexer/languages/python/frameworks/drf_routers.py, indexer/frameworks/router_classes.py).

The shape of NetBox's API: ``netbox/api/routers.py`` declares ``class NetBoxRouter(DefaultRouter)`` and
every app's ``api/urls.py`` builds ``router = NetBoxRouter()``, registers its viewsets on it and sets
``urlpatterns = router.urls``; the project's ``urls.py`` includes each by module name. Every
registration on such a router is an endpoint under its mount, through any depth of repository
subclasses. A name built by a class that does not derive from a DRF router is no router however it
registers things. Exact endpoints, and what must not be linked."""

from __future__ import annotations

import sqlite3

import pytest

from tests.golden.harness import index_files

FILES = {
    "shop/__init__.py": "",
    "shop/routers.py": '''\
from rest_framework.routers import DefaultRouter


class ShopRouter(DefaultRouter):
    def get_api_root_view(self, api_urls=None):
        return super().get_api_root_view(api_urls)


class StrictRouter(ShopRouter):
    pass


class Registry:
    def register(self, prefix, thing):
        return prefix, thing
''',
    "shop/views.py": '''\
from rest_framework.viewsets import ModelViewSet, ReadOnlyModelViewSet


class SiteViewSet(ModelViewSet):
    pass


class TagViewSet(ReadOnlyModelViewSet):
    pass


class PluginViewSet(ReadOnlyModelViewSet):
    pass
''',
    "shop/api_urls.py": '''\
from shop import views
from shop.routers import ShopRouter

router = ShopRouter()
router.register('sites', views.SiteViewSet)

urlpatterns = router.urls
''',
    "shop/tag_urls.py": '''\
from django.urls import include, path

from shop.routers import Registry, StrictRouter
from shop.views import PluginViewSet, TagViewSet

router = StrictRouter()
router.register('tags', TagViewSet)

hooks = Registry()
hooks.register('plugins', PluginViewSet)

urlpatterns = [
    path('v2/', include(router.urls)),
]
''',
    "shop/urls.py": '''\
from django.urls import include, path

urlpatterns = [
    path('api/', include('shop.api_urls')),
    path('more/', include('shop.tag_urls')),
]
''',
}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    store = index_files(tmp_path_factory.mktemp("drf-router-classes") / "src", FILES, "shop")
    yield store
    store.close()


def _exposes(store) -> list[tuple[str, str]]:
    with sqlite3.connect(store.path) as con:
        rows = con.execute("SELECT s.qualname, e.dst FROM edges e JOIN nodes s ON s.id = e.src"
                           " WHERE e.kind = 'EXPOSES'").fetchall()
    return sorted(rows)


def test_viewsets_registered_on_a_router_subclass_are_endpoints_under_their_mounts(db):
    assert _exposes(db) == sorted([
        # ShopRouter(DefaultRouter): ModelViewSet's six actions, mounted by `urlpatterns = router.urls`
        ("SiteViewSet", "endpoint:GET /api/sites"),
        ("SiteViewSet", "endpoint:POST /api/sites"),
        ("SiteViewSet", "endpoint:GET /api/sites/{}"),
        ("SiteViewSet", "endpoint:PUT /api/sites/{}"),
        ("SiteViewSet", "endpoint:PATCH /api/sites/{}"),
        ("SiteViewSet", "endpoint:DELETE /api/sites/{}"),
        # StrictRouter(ShopRouter): a subclass of a subclass, mounted by include(router.urls)
        ("TagViewSet", "endpoint:GET /more/v2/tags"),
        ("TagViewSet", "endpoint:GET /more/v2/tags/{}"),
    ])


def test_a_name_built_by_a_class_that_is_no_router_registers_no_endpoint(db):
    assert not [row for row in _exposes(db) if row[0] == "PluginViewSet" or "plugins" in row[1]]


def test_a_register_call_inside_a_function_on_a_router_subclass_is_no_route(tmp_path):
    files = dict(FILES)
    files["shop/api_urls.py"] = FILES["shop/api_urls.py"].replace(
        "router.register('sites', views.SiteViewSet)\n",
        "\n\ndef later():\n    router.register('sites', views.SiteViewSet)\n")
    store = index_files(tmp_path / "src", files, "shop")
    try:
        assert [row for row in _exposes(store) if "sites" in row[1]] == []
    finally:
        store.close()
