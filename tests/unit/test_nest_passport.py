"""Passport guards of NestJS (indexer/frameworks/auth_guards.py ``factory_callbacks``): a route guarded
by ``AuthGuard("jwt")`` (on the method or its controller, or through a guard class extending it, also
application-wide through ``APP_GUARD``) is wrapped by the ``validate`` of the strategy registered under
that name (``PassportStrategy(Strategy, "jwt")``, or the strategy package's default name), so the
blast radius of ``validate`` lists the guarded endpoints. Exact endpoint lists, with negative cases."""

from __future__ import annotations


import pytest

from analysis.impact import SymbolQuery, blast_radius
from tests.golden.harness import index_fixture

FILES = {
    "api/src/auth/jwt.strategy.ts": """\
import { PassportStrategy } from '@nestjs/passport';
import { ExtractJwt, Strategy } from 'passport-jwt';
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  constructor() { super({ jwtFromRequest: ExtractJwt.fromAuthHeaderAsBearerToken() }); }
  public validate(payload) { return payload; }
}
""",
    "api/src/auth/refresh.strategy.ts": """\
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
export class JwtRefreshStrategy extends PassportStrategy(Strategy, 'jwt-refresh') {
  public validate(payload) { return payload; }
}
""",
    "api/src/auth/local.strategy.ts": """\
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-local';
export class LocalStrategy extends PassportStrategy(Strategy) {
  async validate(username, password) { return username; }
}
""",
    "api/src/auth/roles.guard.ts": """\
export class RolesGuard { canActivate(context) { return true; } }
""",
    "api/src/auth/jwt-auth.guard.ts": """\
import { AuthGuard } from '@nestjs/passport';
export class JwtAuthGuard extends AuthGuard('jwt') {}
""",
    "api/src/auth/auth.controller.ts": """\
import { Controller, Get, Post, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { RolesGuard } from './roles.guard';
import { JwtAuthGuard } from './jwt-auth.guard';

@Controller('auth')
export class AuthController {
  @UseGuards(AuthGuard('local'))
  @Post('login')
  login() {}

  @UseGuards(AuthGuard('jwt'), RolesGuard)
  @Get('me')
  me() {}

  @UseGuards(AuthGuard('jwt-refresh'))
  @Post('refresh')
  refresh() {}

  @UseGuards(JwtAuthGuard)
  @Get('profile')
  profile() {}

  @UseGuards(AuthGuard(['local', 'jwt']))
  @Post('either')
  either() {}

  @Get('open')
  open() {}
}

@UseGuards(AuthGuard('jwt'))
@Controller('users')
export class UsersController {
  @Get()
  list() {}
}
""",
    # a second service whose every route is guarded by APP_GUARD; its own strategy of the same name
    "admin/src/admin.strategy.ts": """\
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
export class AdminJwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  validate(payload) { return payload; }
}
""",
    "admin/src/admin.module.ts": """\
import { APP_GUARD } from '@nestjs/core';
import { AdminGuard } from './admin.guard';
@Module({ providers: [{ provide: APP_GUARD, useClass: AdminGuard }] })
export class AdminModule {}
""",
    "admin/src/admin.guard.ts": """\
import { AuthGuard } from '@nestjs/passport';
export class AdminGuard extends AuthGuard('jwt') {}
""",
    "admin/src/admin.controller.ts": """\
import { Controller, Get } from '@nestjs/common';
@Controller('admin')
export class AdminController {
  @Get('stats')
  stats() {}
}
""",
    "api/package.json": "{}",
    "admin/package.json": "{}",
    "api/Dockerfile": "FROM node:20\nCOPY . .\n",
    "admin/Dockerfile": "FROM node:20\nCOPY . .\n",
}


@pytest.fixture(scope="module")
def store(tmp_path_factory):
    root = tmp_path_factory.mktemp("passport") / "app"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    s = index_fixture(root, root.parent / "i.db", "app")
    yield s
    s.close()


def _endpoints(store, name: str) -> list[tuple[str, str]]:
    return sorted((h.http_method, h.path) for h in blast_radius(store, SymbolQuery(name)).endpoints)


def test_jwt_strategy_wraps_the_routes_its_name_guards(store):
    # method, controller class, guard class extending AuthGuard('jwt'), and one name of an array;
    # not /auth/refresh (jwt-refresh), /auth/login (local), /auth/open, nor the admin service's routes
    assert _endpoints(store, "JwtStrategy.validate") == [
        ("GET", "/auth/me"), ("GET", "/auth/profile"), ("GET", "/users"), ("POST", "/auth/either"),
    ]


def test_other_names_and_default_names(store):
    assert _endpoints(store, "JwtRefreshStrategy.validate") == [("POST", "/auth/refresh")]
    # passport-local's default name is `local`
    assert _endpoints(store, "LocalStrategy.validate") == [("POST", "/auth/either"), ("POST", "/auth/login")]
    assert _endpoints(store, "RolesGuard.canActivate") == [("GET", "/auth/me")]


def test_app_guard_runs_the_nearest_strategy_of_its_name(store):
    assert _endpoints(store, "AdminJwtStrategy.validate") == [("GET", "/admin/stats")]
