"""Routers built by an application's own subclass of FastAPI's ``APIRouter``
(indexer/languages/python/frameworks/fastapi.py, indexer/frameworks/router_classes.py).

The shape of mealie's ``mealie/routes/_base/routers.py``: ``class UserAPIRouter(APIRouter)`` adds
``dependencies=[Depends(get_current_user)]`` in its ``__init__``, other files build their routers with
it (some of them importing nothing from ``fastapi``) and mount them with ``include_router``. Every
route of such a router is an endpoint under the prefixes of its mounts, and the class's dependencies
wrap exactly those routes. A name built by a class that does not derive from ``APIRouter`` is no
router, however it is used. Exact endpoints and WRAPS edges, and what must not be linked."""

from __future__ import annotations

import json
import sqlite3

import pytest

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_files, index_fixture

FILES = {
    "app/__init__.py": "",
    "app/deps.py": '''\
def get_user():
    return 1


def get_admin(user=None):
    return user


def get_db():
    return None
''',
    "app/routing.py": '''\
from fastapi import APIRouter, Depends

from app.deps import get_admin, get_user


class UserRouter(APIRouter):
    def __init__(self, prefix: str = "", **kwargs):
        super().__init__(prefix=prefix, dependencies=[Depends(get_user)], **kwargs)


class AdminRouter(APIRouter):
    def __init__(self, prefix: str = "", **kwargs):
        super().__init__(prefix=prefix, dependencies=[Depends(get_admin)], **kwargs)


class StrictAdminRouter(AdminRouter):
    pass


class Registry:
    def __init__(self, prefix: str = ""):
        self.prefix = prefix

    def get(self, path):
        return lambda f: f

    def include_router(self, other):
        return other
''',
    "app/api/__init__.py": '''\
from fastapi import APIRouter

from app.api import admin, items, public

router = APIRouter(prefix="/api")
router.include_router(items.router)
router.include_router(admin.router)
router.include_router(public.router)
''',
    "app/api/items.py": '''\
from fastapi import Depends

from app.deps import get_db
from app.routing import UserRouter

router = UserRouter(prefix="/items")


@router.get("/{item_id}")
def read_item(item_id: int, db=Depends(get_db)):
    return item_id


@router.post("")
def create_item():
    return 1
''',
    "app/api/admin/__init__.py": '''\
from app.api.admin import users
from app.routing import AdminRouter

router = AdminRouter(prefix="/admin")
router.include_router(users.router)
''',
    "app/api/admin/users.py": '''\
from fastapi import APIRouter

router = APIRouter(prefix="/users")


@router.delete("/{uid}")
def delete_user(uid: int):
    return uid
''',
    "app/api/public.py": '''\
from app.routing import Registry, StrictAdminRouter

router = StrictAdminRouter(prefix="/public")
hooks = Registry(prefix="/hooks")


@router.get("/ping")
def ping():
    return "pong"


@hooks.get("/fired")
def fired():
    return 1
''',
}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    store = index_files(tmp_path_factory.mktemp("router-classes") / "src", FILES, "shop")
    yield store
    store.close()


def _edges(store, kind: str) -> list[tuple[str, str]]:
    with sqlite3.connect(store.path) as con:
        rows = con.execute("SELECT s.qualname, e.dst FROM edges e JOIN nodes s ON s.id = e.src WHERE e.kind = ?",
                           (kind,)).fetchall()
    return sorted(rows)


def test_routes_of_a_router_built_by_an_apirouter_subclass_are_endpoints_under_their_mounts(db):
    assert _edges(db, "EXPOSES") == sorted([
        ("delete_user", "endpoint:DELETE /api/admin/users/{}"),  # mounted into an AdminRouter router
        ("ping", "endpoint:GET /api/public/ping"),  # built by a subclass of a subclass
        ("read_item", "endpoint:GET /api/items/{}"),
        ("create_item", "endpoint:POST /api/items"),
    ])


def test_a_name_built_by_a_class_that_is_no_router_exposes_nothing(db):
    exposed = {src for src, _ in _edges(db, "EXPOSES")}
    assert "fired" not in exposed
    assert not [dst for _, dst in _edges(db, "EXPOSES") + _edges(db, "WRAPS") if "hooks" in dst]


def test_the_dependencies_a_router_class_adds_wrap_the_routes_of_its_routers_only(db):
    assert _edges(db, "WRAPS") == sorted([
        ("get_user", "endpoint:GET /api/items/{}"),
        ("get_user", "endpoint:POST /api/items"),
        ("get_admin", "endpoint:DELETE /api/admin/users/{}"),  # a router mounted into an AdminRouter's
        ("get_admin", "endpoint:GET /api/public/ping"),  # inherited from AdminRouter.__init__
        ("get_db", "endpoint:GET /api/items/{}"),  # the route's own dependency
    ])


def test_blast_radius_of_a_router_class_dependency(db):
    def endpoints(name: str) -> list[str]:
        return sorted(f"{h.http_method} {h.path}" for h in blast_radius(db, SymbolQuery(name)).endpoints)

    assert endpoints("get_user") == ["GET /api/items/{}", "POST /api/items"]
    assert endpoints("get_admin") == ["DELETE /api/admin/users/{}", "GET /api/public/ping"]


def test_a_flask_blueprint_used_with_get_stays_one_flask_route(tmp_path):
    # `@bp.get(...)` in a file importing no fastapi makes `bp` a FastAPI candidate too: refused in the
    # linker (Blueprint is no APIRouter), so the Flask route is linked once, by Flask, and nothing counted
    root = tmp_path / "src"
    (root / "web").mkdir(parents=True)
    (root / "web" / "__init__.py").write_text("", encoding="utf-8")
    (root / "web" / "views.py").write_text(
        "from flask import Blueprint\n\nbp = Blueprint('bp', __name__, url_prefix='/b')\n\n\n"
        "@bp.get('/things')\ndef things():\n    return []\n", encoding="utf-8")
    store = index_fixture(root, tmp_path / "i.db", "web")
    try:
        with sqlite3.connect(store.path) as con:
            rows = con.execute("SELECT s.qualname, e.dst, e.props FROM edges e JOIN nodes s ON s.id = e.src"
                               " WHERE e.kind = 'EXPOSES'").fetchall()
        assert [(q, d) for q, d, _ in rows] == [("things", "endpoint:GET /b/things")]
        assert json.loads(rows[0][2])["framework"] == "flask"
    finally:
        store.close()
