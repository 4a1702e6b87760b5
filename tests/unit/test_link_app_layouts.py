"""Framework links on the shapes real applications take (newcomer findings of round 41), each with
the exact edges expected and what must not be linked:

* FastAPI: an ``Annotated[..., Depends(...)]`` alias imported from another module is a dependency of
  the routes annotated with it, also when the package sits in a subfolder (``backend/app``, as
  fastapi/full-stack-fastapi-template keeps it);
* Django: a URL pattern built with a module-level string constant (``prefix = ""``,
  ``path(f"{prefix}ping/<slug:key>/", ...)``, ``path(prefix, include(...))``, healthchecks' hc/urls.py)
  renders the constant; a prefix that cannot be known is no literal ``{}`` glued to the segment;
* NestJS: ``consumer.apply(M).forRoutes({ path, method: RequestMethod.POST })`` wraps the routes of
  that method only (``RequestMethod.ALL``: any).
"""

from __future__ import annotations

from indexer.frameworks.clients import HOLE
from indexer.frameworks.paths import unglue_holes
from tests.resolution_harness import edges, resolve_fixture

# ------------------------------------------------------------------------------------------ FastAPI

_DEPS = """
from typing import Annotated

from fastapi import Depends


def get_db():
    yield 1


SessionDep = Annotated[int, Depends(get_db)]
"""

_ROUTES = """
from typing import Annotated

from fastapi import APIRouter, Depends
from sqlmodel import Session

from app.deps import SessionDep, get_db
from app.models import Item

router = APIRouter()


@router.get("/imported-alias")
def a(session: SessionDep):
    return 1


@router.get("/inline")
def b(session: Annotated[int, Depends(get_db)]):
    return 1


@router.get("/plain")
def c(raw: Session, item: Item):
    return 1
"""

_MODELS = """
class Item:
    def __init__(self, name):
        self.name = name
"""


def _fastapi(root: str) -> str:
    base = f"{root}/" if root else ""
    return (f"# --- path: {base}app/__init__.py ---\n# --- path: {base}app/deps.py ---\n{_DEPS}"
            f"# --- path: {base}app/models.py ---\n{_MODELS}# --- path: {base}app/routes.py ---\n{_ROUTES}")


def test_an_imported_dependency_alias_is_linked_whatever_folder_holds_the_package() -> None:
    for root in ("", "backend", "services/api/src"):
        base = f"{root}/" if root else ""
        assert edges(resolve_fixture(_fastapi(root)), "WRAPS") == [
            # the alias imported from app.deps, and Depends(get_db) written inline
            f"{base}app/deps.SessionDep(0) -> endpoint:GET /imported-alias",
            f"{base}app/deps.get_db(0) -> endpoint:GET /inline",
        ], root  # never /plain: a library type and a model class annotate no dependency


# ------------------------------------------------------------------------------------------ Django

_DJANGO = """
# --- path: web/__init__.py ---
# --- path: web/views.py ---
def ping(request, key, slug):
    return None


def home(request):
    return None
# --- path: web/api_urls.py ---
from django.urls import path

from web import views

urlpatterns = [path("api/home", views.home)]
# --- path: web/urls.py ---
from django.conf import settings
from django.urls import include, path

from web import views

prefix = ""
if settings.SITE_ROOT:
    prefix = "root/"

urlpatterns = [
    path(f"{prefix}ping/<slug:key>/<slug:slug>", views.ping),
    path(prefix, include("web.api_urls")),
    path(f"{settings.UNKNOWN_ROOT}other/<slug:key>", views.ping),
]
# --- path: cli/__init__.py ---
# --- path: cli/client.py ---
import requests


def send(key, slug):
    return requests.post(f"http://localhost:8000/ping/{key}/{slug}")


def home():
    return requests.get("http://localhost:8000/api/home")


def other(key):
    return requests.get(f"http://localhost:8000/other/{key}")
"""


def test_a_django_prefix_constant_is_rendered_and_clients_reach_its_routes() -> None:
    result = resolve_fixture(_DJANGO)
    assert edges(result, "EXPOSES") == [
        # prefix = "" at module level: /ping/{}/{}, not /{}ping/{}/{}
        "web/views.home(1) -> endpoint:* /api/home",
        # a prefix the code cannot know (a setting) is left out: the known path stays
        "web/views.ping(3) -> endpoint:* /other/{}",
        "web/views.ping(3) -> endpoint:* /ping/{}/{}",
    ]
    assert edges(result, "CALLS_HTTP") == [
        # function views accept any method: the requests reach their "*" endpoints (literal_paths)
        "cli/client.home(0) -> endpoint:* /api/home",
        "cli/client.other(1) -> endpoint:* /other/{}",
        "cli/client.send(2) -> endpoint:* /ping/{}/{}",
    ]


def test_unknown_values_glued_to_the_start_of_a_segment_are_dropped_others_stay() -> None:
    h = HOLE
    assert unglue_holes(f"{h}ping/<slug:key>") == "ping/<slug:key>"
    assert unglue_holes(f"/api/{h}{h}items/{h}") == f"/api/items/{h}"  # the last is a segment of its own
    assert unglue_holes(f"/{h}/items") == f"/{h}/items"  # a path variable's place: any one segment
    assert unglue_holes(f"/v{h}/items") == f"/v{h}/items"  # after literal text: not a prefix
    # a Django prefix is concatenated to its child patterns: its trailing unknown value goes too
    assert (unglue_holes(h), unglue_holes(h, glued_to_next=True)) == (h, "")
    assert unglue_holes(f"api/{h}", glued_to_next=True) == "api/"
    assert unglue_holes(f"api{h}", glued_to_next=True) == f"api{h}"


# ------------------------------------------------------------------------------------------ NestJS

_NEST = """
// --- path: src/auth.middleware.ts ---
import { Injectable, NestMiddleware } from '@nestjs/common';

@Injectable()
export class AuthMiddleware implements NestMiddleware {
  use(req: any, res: any, next: () => void) { next(); }
}
// --- path: src/items.controller.ts ---
import { Controller, Delete, Get, Post } from '@nestjs/common';

@Controller('items')
export class ItemsController {
  @Get()
  list() { return []; }

  @Post()
  create() { return {}; }

  @Get(':id/follow')
  follower() { return {}; }

  @Delete(':id/follow')
  unfollow() { return {}; }
}
// --- path: src/items.module.ts ---
import { MiddlewareConsumer, Module, NestModule, RequestMethod } from '@nestjs/common';
import { ItemsController } from './items.controller';
import { AuthMiddleware } from './auth.middleware';

@Module({ controllers: [ItemsController] })
export class ItemsModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(AuthMiddleware).forRoutes({ path: 'items', method: RequestMethod.POST },
                                             { path: 'items/:id/follow', method: RequestMethod.ALL });
  }
}
"""


def test_nest_for_routes_honours_the_request_method() -> None:
    assert edges(resolve_fixture(_NEST), "WRAPS") == [
        # POST /items only, not GET /items; ALL: both methods of /items/{}/follow
        "src/auth.middleware.AuthMiddleware.use(3) -> endpoint:DELETE /items/{}/follow",
        "src/auth.middleware.AuthMiddleware.use(3) -> endpoint:GET /items/{}/follow",
        "src/auth.middleware.AuthMiddleware.use(3) -> endpoint:POST /items",
    ]
