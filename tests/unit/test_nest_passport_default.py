"""``AuthGuard()`` of ``@nestjs/passport`` without a strategy name runs the default strategy: the one
``PassportModule.register({ defaultStrategy })`` (or ``registerAsync``'s factory) names; with no
default registered, the repository's only strategy; with several and no default, none (which one
runs is not known). Exact endpoint lists of ``validate``'s blast radius, with negative cases."""

from __future__ import annotations

import pytest

from analysis.impact import SymbolQuery, blast_radius
from indexer.languages import extractor_for_path
from indexer.model import Template
from indexer.symbols import DEFAULT_STRATEGY
from tests.golden.harness import index_fixture

JWT = """\
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
export class JwtStrategy extends PassportStrategy(Strategy) {
  validate(payload) { return payload; }
}
"""
LOCAL = """\
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-local';
export class LocalStrategy extends PassportStrategy(Strategy) {
  validate(username, password) { return username; }
}
"""
CONTROLLER = """\
import { Controller, Get, Post, UseGuards } from '@nestjs/common';
import { AuthGuard } from '@nestjs/passport';
import { MeGuard } from './me.guard';

@Controller('users')
export class UsersController {
  @UseGuards(AuthGuard())
  @Get()
  list() {}

  @UseGuards(MeGuard)
  @Get('me')
  me() {}

  @UseGuards(AuthGuard('local'))
  @Post('login')
  login() {}

  @Get('open')
  open() {}
}
"""
GUARD = """\
import { AuthGuard } from '@nestjs/passport';
export class MeGuard extends AuthGuard() {}
"""
MODULE = """\
import { Module } from '@nestjs/common';
import { PassportModule } from '@nestjs/passport';
@Module({
  imports: [PassportModule.registerAsync({ useFactory: () => ({ defaultStrategy: 'jwt', session: false }) })],
})
export class AuthModule {}
"""

REPOS = {
    "with_default": {"src/jwt.strategy.ts": JWT, "src/local.strategy.ts": LOCAL, "src/users.controller.ts": CONTROLLER,
                     "src/me.guard.ts": GUARD, "src/auth.module.ts": MODULE},
    "single": {"src/jwt.strategy.ts": JWT, "src/users.controller.ts": CONTROLLER, "src/me.guard.ts": GUARD},
    "several": {"src/jwt.strategy.ts": JWT, "src/local.strategy.ts": LOCAL, "src/users.controller.ts": CONTROLLER,
                "src/me.guard.ts": GUARD},
}


@pytest.fixture(scope="module", params=sorted(REPOS))
def repo(request, tmp_path_factory):
    root = tmp_path_factory.mktemp(request.param) / request.param
    for rel, text in REPOS[request.param].items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    s = index_fixture(root, root.parent / "i.db", request.param)
    yield request.param, s
    s.close()


def _endpoints(store, name: str) -> list[tuple[str, str]]:
    return sorted((h.http_method, h.path) for h in blast_radius(store, SymbolQuery(name)).endpoints)


def test_authguard_without_a_name(repo) -> None:
    name, store = repo
    jwt, local = _endpoints(store, "JwtStrategy.validate"), None
    if name != "single":
        local = _endpoints(store, "LocalStrategy.validate")
    if name == "with_default":  # defaultStrategy 'jwt': AuthGuard() on the route and as MeGuard's base
        assert jwt == [("GET", "/users"), ("GET", "/users/me")]
        assert local == [("POST", "/users/login")]  # only its named route, not the AuthGuard() ones
    elif name == "single":  # no default, one strategy: it
        assert jwt == [("GET", "/users"), ("GET", "/users/me")]
    else:  # no default, two strategies: neither runs for AuthGuard()
        assert jwt == []
        assert local == [("POST", "/users/login")]


def test_default_strategy_fact() -> None:
    ex = extractor_for_path("m.ts")
    assert ex is not None
    src = b"import { PassportModule } from '@nestjs/passport';\nPassportModule.register({ defaultStrategy: ['jwt', 'x'] });\n"
    out = ex.extract("m.ts", src)
    assert [(c.qualname, c.value) for c in out.constants if c.qualname == DEFAULT_STRATEGY] == [
        (DEFAULT_STRATEGY, Template.of("jwt"))]
    out = ex.extract("m.ts", b"const o = { defaultStrategy: 'jwt' };\n")  # no @nestjs/passport import: nothing
    assert [c for c in out.constants if c.qualname == DEFAULT_STRATEGY] == []
