"""FastAPI class-based views (indexer/frameworks/class_views.py): fastapi-utils' ``@cbv(router)`` and the
copies applications keep of it (mealie's ``@controller(router)``).

The shape of mealie's ``mealie/routes/_base/base_controllers.py``: base classes in one file declare
dependencies as annotated class attributes (``user: User = Depends(get_current_user)``), a subclass
replaces one (``BaseAdminController.user``), and views in other files derive from them, decorated with a
call handed their router. Each dependency of the lineage, one per attribute name, wraps every route of
the view; an attribute without annotation, a private one, a ``ClassVar`` and the methods of a class no
decorator hands the router are not dependencies. ``self.user`` is what the annotation says."""

from __future__ import annotations

import sqlite3

import pytest

from analysis.impact import SymbolQuery, blast_radius
from indexer.frameworks.class_views import view_decorated
from tests.golden.harness import index_files

FILES = {
    "app/__init__.py": "",
    "app/deps.py": '''\
class User:
    def can(self, what):
        return True


def get_session():
    return None


def get_current_user() -> User:
    return User()


def get_admin_user() -> User:
    return User()


def get_flag():
    return 1


def get_private():
    return 2


def get_counter():
    return 3


def get_unannotated():
    return 4


def get_audit():
    return 5


class Pager:
    def __init__(self, page: int = 1):
        self.page = page
''',
    "app/cbv.py": '''\
def controller(router, *urls):
    def decorator(cls):
        return cls
    return decorator
''',
    "app/base.py": '''\
from typing import ClassVar

from fastapi import Depends

from app.deps import User, get_admin_user, get_counter, get_current_user, get_private, get_session, get_unannotated


class BaseController:
    session: object = Depends(get_session)
    _hidden: object = Depends(get_private)
    counter: ClassVar[int] = Depends(get_counter)
    loose = Depends(get_unannotated)

    def __init__(self):
        self.ready = True


class BaseUserController(BaseController):
    user: User = Depends(get_current_user)


class BaseAdminController(BaseUserController):
    user: User = Depends(get_admin_user)
''',
    "app/items.py": '''\
from typing import Annotated

from fastapi import APIRouter, Depends

from app.base import BaseAdminController, BaseUserController
from app.cbv import controller
from app.deps import Pager, get_audit, get_flag

router = APIRouter(prefix="/items")
admin_router = APIRouter(prefix="/admin")
plain_router = APIRouter(prefix="/plain")


@controller(router)
class ItemController(BaseUserController):
    flag: int = Depends(get_flag)
    pager: Pager = Depends()
    audit: Annotated[int, Depends(get_audit)]

    @router.get("")
    def get_all(self):
        return self.user.can("read")

    @router.post("")
    def create(self):
        return 1


@controller(admin_router)
class AdminController(BaseAdminController):
    @admin_router.delete("/{uid}")
    def delete(self, uid: int):
        return uid


class NotAView(BaseUserController):
    @plain_router.get("/x")
    def x(self):
        return 1
''',
}


@pytest.fixture(scope="module")
def db(tmp_path_factory):
    store = index_files(tmp_path_factory.mktemp("class-views") / "src", FILES, "shop")
    yield store
    store.close()


def _edges(store, kind: str) -> list[tuple[str, str]]:
    with sqlite3.connect(store.path) as con:
        rows = con.execute("SELECT s.qualname, e.dst FROM edges e JOIN nodes s ON s.id = e.src WHERE e.kind = ?",
                           (kind,)).fetchall()
    return sorted(set(rows))


def test_the_routes_of_class_based_views_are_endpoints(db):
    assert _edges(db, "EXPOSES") == sorted([
        ("ItemController.get_all", "endpoint:GET /items"),
        ("ItemController.create", "endpoint:POST /items"),
        ("AdminController.delete", "endpoint:DELETE /admin/{}"),
        ("NotAView.x", "endpoint:GET /plain/x"),
    ])


def test_the_class_attribute_dependencies_of_the_lineage_wrap_each_route_of_the_view(db):
    items = ["endpoint:GET /items", "endpoint:POST /items"]
    admin = ["endpoint:DELETE /admin/{}"]
    assert _edges(db, "WRAPS") == sorted(
        [("get_session", e) for e in items + admin]  # BaseController's, inherited
        + [("BaseController.__init__", e) for e in items + admin]  # the view's __init__, inherited
        + [("get_current_user", e) for e in items]
        + [("get_flag", e) for e in items]  # the view's own
        + [("get_audit", e) for e in items]  # an Annotated[T, Depends(f)] attribute
        + [("Pager.__init__", e) for e in items]  # Depends() on the annotated class
        + [("get_admin_user", e) for e in admin]  # BaseAdminController.user replaces BaseUserController.user
    )


def test_what_must_not_wrap(db):
    wraps = _edges(db, "WRAPS")
    sources = {src for src, _ in wraps}
    # a private attribute, a ClassVar, an attribute without annotation: no dependency of the view
    assert not sources & {"get_private", "get_counter", "get_unannotated"}
    # the replaced base attribute does not run for the admin view
    assert ("get_current_user", "endpoint:DELETE /admin/{}") not in wraps
    # a class with routes that no decorator hands its router is no view
    assert not [e for e in wraps if e[1] == "endpoint:GET /plain/x"]


def test_self_attribute_of_a_dependency_is_what_its_annotation_says(db):
    with sqlite3.connect(db.path) as con:
        rows = con.execute("SELECT s.qualname, d.qualname FROM edges e JOIN nodes s ON s.id = e.src"
                           " JOIN nodes d ON d.id = e.dst WHERE e.kind = 'CALLS'"
                           " AND s.qualname = 'ItemController.get_all'").fetchall()
    assert rows == [("ItemController.get_all", "User.can")]


def test_blast_radius_of_a_base_class_dependency_reaches_the_views_routes(db):
    def endpoints(name: str) -> list[str]:
        return sorted(f"{h.http_method} {h.path}" for h in blast_radius(db, SymbolQuery(name)).endpoints)

    assert endpoints("get_current_user") == ["GET /items", "POST /items"]
    assert endpoints("get_admin_user") == ["DELETE /admin/{}"]


def test_view_decorated():
    assert view_decorated(["controller(router)"], "router")
    assert view_decorated(["cbv(router=items.router)"], "items.router")
    assert not view_decorated(["controller(other)"], "router")
    assert not view_decorated(["dataclass", "register(x, router)"], "router")


def test_editing_a_base_class_dependency_rewraps_the_views_in_other_files(tmp_path) -> None:
    import sqlite3 as _sqlite3

    from tests.index_dump import problems
    from tests.unit.test_incremental import Workspace

    files = {p: t for p, t in FILES.items() if p != "app/items.py"}
    files["app/items.py"] = FILES["app/items.py"].split("@controller(admin_router)")[0]
    ws = Workspace(tmp_path, files)

    def wraps() -> list[tuple[str, str]]:
        with _sqlite3.connect(ws.db) as con:
            rows = con.execute("SELECT src, dst FROM edges WHERE kind = 'WRAPS' AND src LIKE '%get_%user%'").fetchall()
        return sorted({(s.split(".")[-1].split("(")[0], d) for s, d in rows})

    try:
        assert wraps() == [("get_current_user", "endpoint:GET /items"), ("get_current_user", "endpoint:POST /items")]
        ws.edit({"app/base.py": FILES["app/base.py"].replace("user: User = Depends(get_current_user)",
                                                             "user: User = Depends(get_admin_user)", 1)})
        assert wraps() == [("get_admin_user", "endpoint:GET /items"), ("get_admin_user", "endpoint:POST /items")]
        assert problems(ws.db) == []
    finally:
        ws.close()
