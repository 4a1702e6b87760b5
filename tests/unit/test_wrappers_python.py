"""Unit tests of the Python detectors' cross-cutting facts (issue 14 item 2): exact ``Route.wrappers``,
``Wrapper`` records and the calls that stand for FastAPI sub-dependencies, for small inline sources
extracted through the Python extractor, with the cases that must yield nothing. Lines are 1-based,
columns 0-based (as in every extraction record)."""

from __future__ import annotations

from indexer.languages.python import EXTRACTOR
from indexer.model import CallSite, FileExtraction, Template, Wrapper, WrapperRef


def extract(source: str, path: str = "app/api/items.py") -> FileExtraction:
    out = EXTRACTOR.extract(path, source.encode("utf-8"))
    assert [e for e in out.errors if "detector" in e or "failure" in e] == []
    return out


def dep(*exprs: str) -> list[WrapperRef]:
    return [WrapperRef("dependency", e) for e in exprs]


def deco(*exprs: str) -> list[WrapperRef]:
    return [WrapperRef("decorator", e) for e in exprs]


def wrappers_of(out: FileExtraction) -> dict[str, list[WrapperRef]]:
    return {r.handler or r.handler_ref or "": r.wrappers for r in out.routes}


def own_calls(out: FileExtraction) -> list[CallSite]:
    """Calls of a caller that is not the module."""
    return [c for c in out.calls if c.caller is not None]


# ------------------------------------------------------------------------------------------ FastAPI

FASTAPI_SRC = '''\
from typing import Annotated

import fastapi
from fastapi import APIRouter, Depends, FastAPI, Security
from fastapi.middleware import Middleware
from sqlmodel import Session

from app.core import deps
from app.models import ItemIn
from .deps import SessionDep

CurrentUser = Annotated[User, Depends(get_current_user)]

router = APIRouter(prefix="/items", dependencies=[Depends(verify_key), fastapi.Depends(deps.token)])
app = FastAPI(dependencies=[Depends(global_dep)], middleware=[Middleware(Timing)])


class Timing:
    async def dispatch(self, request, call_next):
        return await call_next(request)


def get_current_user(db=Depends(get_db), token: Annotated[str, Security(oauth)] = ""):
    return db


def get_admin(user: CurrentUser, s: Session = None):
    return user


@router.get("/{id}", dependencies=[Depends(audit)])
def read_item(
    id: int,
    user: CurrentUser,
    admin: Annotated[User, Depends(get_admin)],
    db=Depends(deps.get_db),
    q: Params = Depends(),
    limit=Depends(RateLimiter(times=2)),
    body: ItemIn = None,
    session: SessionDep = None,
    raw: Session = None,
):
    return id


@app.middleware("http")
async def add_timing(request, call_next):
    return await call_next(request)


@app.exception_handler(ValueError)
async def on_value_error(request, exc):
    return None


app.add_middleware(Timing)
app.add_middleware(CORSMiddleware, allow_origins=["*"])
app.add_exception_handler(KeyError, on_value_error)
app.include_router(router, dependencies=[Depends(get_current_user)])
app.add_api_route("/health", health, dependencies=[Depends(probe)])
'''


def test_fastapi_route_dependencies_in_the_order_they_run():
    out = extract(FASTAPI_SRC)
    assert wrappers_of(out) == {
        # decorator dependencies first, then the parameters in order; ``id`` is no dependency;
        # imported annotations (``ItemIn``, ``SessionDep``, the library ``Session``) are kept for the
        # linker, which knows the package layout, to keep the dependency aliases among them
        "read_item": [*dep("audit", "CurrentUser", "get_admin", "deps.get_db", "Params", "RateLimiter()"),
                      *(WrapperRef("dependency", e, annotation=True) for e in ("ItemIn", "SessionDep", "Session"))],
        "health": dep("probe"),
    }


def test_fastapi_router_app_and_mount_wrappers():
    out = extract(FASTAPI_SRC)
    assert out.wrappers == [
        Wrapper("fastapi", "dependency", None, 14, 50, owner_ref="verify_key", router="router"),
        Wrapper("fastapi", "dependency", None, 14, 79, owner_ref="deps.token", router="router"),
        Wrapper("fastapi", "dependency", None, 15, 28, owner_ref="global_dep", router="app"),
        Wrapper("fastapi", "middleware", "Timing", 15, 62, router="app"),
        Wrapper("fastapi", "middleware", "add_timing", 46, 5, router="app"),
        Wrapper("fastapi", "error_handler", "on_value_error", 51, 5, router="app"),
        Wrapper("fastapi", "middleware", "Timing", 56, 4, router="app"),
        Wrapper("fastapi", "middleware", None, 57, 4, owner_ref="CORSMiddleware", router="app"),
        Wrapper("fastapi", "error_handler", "on_value_error", 58, 4, router="app"),
        # include_router(child, dependencies=...): on the child router as written
        Wrapper("fastapi", "dependency", "get_current_user", 59, 41, router="router"),
    ]
    assert all(w.path == Template() for w in out.wrappers)


def test_fastapi_sub_dependencies_are_calls_and_aliases_callables():
    out = extract(FASTAPI_SRC)
    alias = next(d for d in out.definitions if d.qualname == "CurrentUser")
    assert (alias.kind, alias.parent, alias.start_line, alias.end_line, alias.name_line, alias.name_col) == (
        "function", None, 12, 12, 12, 0,
    )  # fmt: skip
    # the alias owns its Depends(...) call, which was the module's
    assert [c for c in out.calls if c.name == "Depends" and c.line == 12] == [
        CallSite("CurrentUser", "Depends", None, 1, 12, 30)
    ]
    assert [c for c in out.calls if c.arity == -1] == [
        CallSite("CurrentUser", "get_current_user", None, -1, 12, 38),
        CallSite("get_current_user", "get_db", None, -1, 23, 32),
        CallSite("get_current_user", "oauth", None, -1, 23, 72),
        # a parameter annotated with an alias of this file depends on the alias; an imported
        # annotation (Session) in a function that is no route is not followed
        CallSite("get_admin", "CurrentUser", None, -1, 27, 20),
    ]
    # the route handler's dependencies are wrappers, not calls of the handler; what its decorator
    # calls is the handler's (issue 16: a decorator's edges are credited to what it decorates),
    # and so is the call of what `router.get(...)` returns, with the handler
    assert [c for c in out.calls if c.caller == "read_item"] == [
        CallSite("read_item", "get", "router", 1, 31, 8, via="result"),
        CallSite("read_item", "get", "router", 2, 31, 8),
        CallSite("read_item", "Depends", None, 1, 31, 35),
    ]


def test_fastapi_depends_needs_fastapi():
    # a Depends of another library, in a FastAPI file
    out = extract(
        "from fastapi import APIRouter\nfrom injector import Depends\nrouter = APIRouter()\n\n"
        '@router.get("/x", dependencies=[Depends(a)])\ndef x(u=Depends(b)):\n    pass\n\n'
        "def helper(u=Depends(c)):\n    pass\n"
    )
    assert wrappers_of(out) == {"x": []}
    # only the decorator's own calls (credited to x, with the call of what it returns); no call
    # FastAPI would make
    assert (out.wrappers, own_calls(out)) == ([], [CallSite("x", "get", "router", 1, 5, 8, via="result"),
                                                  CallSite("x", "get", "router", 2, 5, 8),
                                                  CallSite("x", "Depends", None, 1, 5, 32)])
    # no FastAPI import: nothing at all
    out = extract(
        "from something import Depends, app\n\n@app.middleware('http')\nasync def m(r, n):\n    pass\n\n"
        "def helper(u=Depends(c)):\n    pass\n"
    )
    assert (out.routes, out.wrappers, own_calls(out)) == ([], [], [CallSite("m", "middleware", "app", 1, 3, 5, via="result"),
                                                                   CallSite("m", "middleware", "app", 1, 3, 5)])


def test_fastapi_depends_in_a_function_that_is_no_route():
    out = extract(
        "from fastapi import Depends\n\n\ndef helper(db=Depends(get_db)):\n    pass\n\n\n"
        "class Cache:\n    def middleware(self, kind):\n        return lambda f: f\n\n\ncache = Cache()\n\n\n"
        '@cache.middleware("http")\ndef not_middleware():\n    pass\n'
    )
    # no route, no wrapper: only the call FastAPI makes when it runs ``helper`` as a dependency
    assert (out.routes, out.wrappers) == ([], [])
    assert own_calls(out) == [
        CallSite("not_middleware", "middleware", "cache", 1, 16, 7, via="result"),  # what it returns, called
        CallSite("not_middleware", "middleware", "cache", 1, 16, 7),  # its decorator's call
        CallSite("helper", "get_db", None, -1, 4, 22),
    ]


# ------------------------------------------------------------------------------------------ Flask

FLASK_SRC = '''\
from flask import Blueprint, Flask

from . import shared_bp

app = Flask(__name__)
bp = Blueprint("admin", __name__, url_prefix="/admin")


@app.before_request
def load_user():
    pass


@bp.before_request
def require_admin():
    pass


@bp.before_app_request
def everywhere():
    pass


@app.errorhandler(404)
def not_found(e):
    pass


@bp.app_errorhandler(500)
def oops(e):
    pass


@app.teardown_appcontext
def close_db(exc):
    pass


@bp.url_value_preprocessor
def pull_lang(endpoint, values):
    pass


def audit(response):
    return response


app.after_request(audit)
app.register_error_handler(403, forbidden)
shared_bp.teardown_request(audit)


class Cache:
    def before_request(self, f):
        return f


cache = Cache()


@cache.before_request
def not_a_hook():
    pass


cache.before_request(audit)


def create_app():
    factory_app = Flask(__name__)

    @factory_app.after_request
    def stamp(response):
        return response

    return factory_app
'''


def test_flask_hooks_and_error_handlers():
    out = extract(FLASK_SRC, "app/hooks.py")
    assert out.wrappers == [
        Wrapper("flask", "hook", "load_user", 9, 5, router="app"),
        Wrapper("flask", "hook", "require_admin", 14, 4, router="bp"),
        Wrapper("flask", "hook", "everywhere", 19, 4, router=None),  # before_app_request: app-wide
        Wrapper("flask", "error_handler", "not_found", 24, 5, router="app"),
        Wrapper("flask", "error_handler", "oops", 29, 4, router=None),
        Wrapper("flask", "hook", "close_db", 34, 5, router="app"),
        Wrapper("flask", "hook", "pull_lang", 39, 4, router="bp"),
        Wrapper("flask", "hook", "audit", 48, 4, router="app"),
        Wrapper("flask", "error_handler", None, 49, 4, owner_ref="forbidden", router="app"),
        Wrapper("flask", "hook", "audit", 50, 10, router="shared_bp"),
        # Cache.before_request is no Flask method: neither the decorator nor the call count
        Wrapper("flask", "hook", "create_app.stamp", 72, 17, router="factory_app"),
    ]


def test_flask_hooks_need_flask():
    out = extract("from cachelib import app\n\n@app.before_request\ndef f():\n    pass\n\napp.after_request(f)\n")
    assert out.wrappers == []


# ------------------------------------------------------------------------------------------ Django

SETTINGS_SRC = '''\
import os

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "shop.middleware.AuditMiddleware",
    CUSTOM,
    "not a path",
    f"{APP}.middleware.X",
]
MIDDLEWARE += ["shop.middleware.timing_middleware"]
MIDDLEWARE.insert(0, "debug_toolbar.middleware.DebugToolbarMiddleware")
MIDDLEWARE_CLASSES = ("legacy.Middleware",)


def test_settings():
    MIDDLEWARE = ["tests.only.Middleware"]
    return MIDDLEWARE
'''


def test_django_middleware_setting():
    out = extract(SETTINGS_SRC, "shop/settings.py")
    assert out.wrappers == [
        Wrapper("django", "middleware", None, 4, 4, owner_ref="django.middleware.security.SecurityMiddleware"),
        Wrapper("django", "middleware", None, 5, 4, owner_ref="shop.middleware.AuditMiddleware"),
        Wrapper("django", "middleware", None, 10, 15, owner_ref="shop.middleware.timing_middleware"),
        Wrapper("django", "middleware", None, 11, 21, owner_ref="debug_toolbar.middleware.DebugToolbarMiddleware"),
        Wrapper("django", "middleware", None, 12, 22, owner_ref="legacy.Middleware"),
    ]


# ------------------------------------------------------------------------------------------ decorators

DECORATED_SRC = '''\
from flask import Flask
from .auth import login_required, roles, auth

app = Flask(__name__)


@login_required
@app.route("/a")
@app.route("/b")
@roles("admin")
@auth.check
@staticmethod
def a():
    pass


@login_required
def ruled():
    pass


@login_required
def unrouted():
    pass


app.add_url_rule("/r", view_func=ruled)
'''


def test_view_decorators_below_the_route_decorator():
    out = extract(DECORATED_SRC)
    assert [(r.path, r.wrappers) for r in out.routes] == [
        # login_required above @app.route wraps the function after Flask registered it: not listed;
        # the second @app.route is a route, not a wrapper; staticmethod wraps nothing
        (Template.of("/a"), deco("roles", "auth.check")),
        (Template.of("/b"), deco("roles", "auth.check")),
        (Template.of("/r"), deco("login_required")),
    ]


DJANGO_VIEWS_SRC = '''\
from django.contrib.auth.decorators import login_required, permission_required
from django.urls import path
from django.utils.decorators import method_decorator
from django.views import View

from . import views


@login_required
@permission_required("shop.view")
def local_view(request):
    pass


@method_decorator([login_required, csrf_exempt], name="dispatch")
@some_class_decorator
class Panel(View):
    @method_decorator(never_cache)
    def dispatch(self, *args, **kwargs):
        return super().dispatch(*args, **kwargs)


class Plain(View):
    def get(self, request):
        pass


urlpatterns = [
    path("local/", local_view),
    path("panel/", Panel.as_view()),
    path("plain/", Plain.as_view()),
    path("other/", views.other),
]
'''


def test_django_view_decorators_in_the_urlconf_file():
    out = extract(DJANGO_VIEWS_SRC, "shop/urls.py")
    assert wrappers_of(out) == {
        "local_view": deco("login_required", "permission_required"),
        "Panel.as_view()": deco("login_required", "csrf_exempt", "never_cache"),
        "Plain.as_view()": [],
        "views.other": [],  # defined in views.py: the linker reads that definition's decorators
    }


def test_odd_shapes_yield_nothing_and_never_raise():
    out = extract(
        "from typing import Annotated\nfrom fastapi import APIRouter, Depends\nfrom flask import Flask\n"
        "router = APIRouter(dependencies=DEPS)\nflask_app = Flask(__name__)\n"
        "Weird = Annotated[int]\nOther = Annotated[int, Depends(lambda: 1)]\n"
        '@router.get("/x", dependencies=[Depends(), Depends(lambda: 2), x])\n'
        "def x(a=Depends(), b: Annotated[int, Depends()] = 1, *args, c: Weird, **kw):\n    pass\n"
        "flask_app.before_request()\nflask_app.before_request(lambda: None)\n"
        "flask_app.register_error_handler(404)\nMIDDLEWARE = None\nMIDDLEWARE.append(f'{x}.y')\n"
    )
    # Annotated[int, Depends()] is FastAPI's Depends(int): kept, the linker finds no definition
    assert wrappers_of(out) == {"x": dep("int")}
    assert out.wrappers == []
    assert [c for c in out.calls if c.arity == -1] == []
    assert [d.qualname for d in out.definitions] == ["x"]


def test_a_view_module_importing_no_flask_has_routes_on_the_repositorys_blueprint():
    src = ("from app.api import bp\nfrom . import auth\nfrom cachelib import app\n\n"
           "@bp.route('/tokens', methods=['POST'])\ndef get_token():\n    pass\n\n"
           "@auth.bp.route('/x')\ndef x():\n    pass\n\n"
           "@app.route('/cache')\ndef cache():\n    pass\n")
    out = extract(src, "app/api/tokens.py")
    assert [(r.methods, r.path.literal_text() if hasattr(r.path, "literal_text") else r.path, r.handler)
            for r in out.routes] == [(["POST"], r.path, "get_token") for r in out.routes[:1]] + [
            (["GET"], out.routes[1].path, "x")]
    assert [r.handler for r in out.routes] == ["get_token", "x"]  # `cachelib`'s app is no blueprint of ours
    # The same in a file of another folder: `app` is then no package of this repository.
    assert extract(src.replace("from . import auth\n", ""), "scripts/tokens.py").routes == []
