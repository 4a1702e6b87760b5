"""A wrapper's path limit is written on its WRAPS edges as the full prefix its endpoints are under, as the
endpoints show it (Nest ``forRoutes('articles')`` under ``app.setGlobalPrefix('api')`` is ``/api/articles``;
Express ``router.use('/admin', mw)`` of a router mounted at ``/v1`` is ``/v1/admin``); a wrapper without a
limit has none. A route literal longer than ``MAX_RENDERED`` is cut and marked, never a hole (``/{}``)."""

from __future__ import annotations

from indexer.frameworks.link import MAX_RENDERED, TRUNCATED
from tests.resolution_harness import resolve_fixture, short

NEST = """
// --- path: src/main.ts ---
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
bootstrap();
// --- path: src/auth.middleware.ts ---
import { Injectable, NestMiddleware } from '@nestjs/common';
@Injectable()
export class AuthMiddleware implements NestMiddleware {
  use(req: any, res: any, next: any) { next(); }
}
// --- path: src/articles.controller.ts ---
import { Controller, Get, Post } from '@nestjs/common';
@Controller('articles')
export class ArticlesController {
  @Get()
  findAll() { return []; }
  @Post()
  create() { return {}; }
}
// --- path: src/tags.controller.ts ---
import { Controller, Get } from '@nestjs/common';
@Controller('tags')
export class TagsController {
  @Get()
  findAll() { return []; }
}
// --- path: src/app.module.ts ---
import { MiddlewareConsumer, Module, NestModule } from '@nestjs/common';
import { ArticlesController } from './articles.controller';
import { TagsController } from './tags.controller';
import { AuthMiddleware } from './auth.middleware';
@Module({ controllers: [ArticlesController, TagsController] })
export class AppModule implements NestModule {
  configure(consumer: MiddlewareConsumer) {
    consumer.apply(AuthMiddleware).forRoutes('articles');
  }
}
"""

EXPRESS = """
// --- path: app.js ---
const express = require('express')
const app = express()
const router = express.Router()
function audit(req, res, next) { next() }
function admin(req, res, next) { next() }
function list(req, res) {}
function stats(req, res) {}
app.use(audit)
router.use('/admin', admin)
router.get('/admin/stats', stats)
router.get('/items', list)
app.use('/v1', router)
"""


def _wraps(src: str) -> list[tuple[str, str, str | None]]:
    result = resolve_fixture(src)
    return sorted((short(e.src), short(e.dst), e.props.get("path")) for f in result.files for e in f.edges
                  if e.kind == "WRAPS")


def test_a_nest_for_routes_limit_carries_the_global_prefix() -> None:
    assert _wraps(NEST) == [
        ("src/auth.middleware.AuthMiddleware.use(3)", "endpoint:GET /api/articles", "/api/articles"),
        ("src/auth.middleware.AuthMiddleware.use(3)", "endpoint:POST /api/articles", "/api/articles"),
    ]  # negative: GET /api/tags is not wrapped; the limit is not `articles` as written


def test_an_express_router_limit_carries_the_mount_and_no_limit_has_none() -> None:
    assert _wraps(EXPRESS) == [
        ("app.admin(3)", "endpoint:GET /v1/admin/stats", "/v1/admin"),  # not `/admin` as written
        ("app.audit(3)", "endpoint:GET /v1/admin/stats", None),  # app-wide, no limit: no path
        ("app.audit(3)", "endpoint:GET /v1/items", None),
    ]  # negative: admin does not wrap GET /v1/items


def test_a_long_route_literal_is_cut_never_a_hole() -> None:
    long = "/long/" + "a" * 100_000
    src = f"""
// --- path: app.js ---
const express = require('express')
const app = express()
function h(req, res) {{}}
app.get('{long}', h)
"""
    result = resolve_fixture(src)
    exposed = [short(e.dst) for f in result.files for e in f.edges if e.kind == "EXPOSES"]
    assert exposed == ["endpoint:GET " + long[:MAX_RENDERED] + TRUNCATED]  # not `endpoint:GET /{}`
