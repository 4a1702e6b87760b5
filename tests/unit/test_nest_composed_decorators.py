"""Nest decorator composition (brk67a, on awesome-nest-boilerplate): an application's decorator function
returning ``applyDecorators(UseGuards(...), UseInterceptors(...), ...)``, or a ``Use*(...)`` call itself, wraps
the routes it decorates with those guards and interceptors, as ``@UseGuards`` written on the route does. And what
wraps nothing: a composition of no ``Use*``, a decorator value built at module level, a library decorator, a route
without the decorator."""

from __future__ import annotations

from tests.index_dump import dump
from tests.resolution_harness import edges, resolve_fixture, split_fixture
from tests.unit.test_one_shot_incremental import _full, _index, _write

FIXTURE = """
// --- path: src/decorators/http.decorators.ts ---
import { applyDecorators, UseGuards, UseInterceptors } from '@nestjs/common';
import { ApiBearerAuth, ApiOkResponse } from '@nestjs/swagger';
import { RolesGuard } from '../guards/roles.guard';
import { AuditInterceptor, LogInterceptor } from '../interceptors/audit.interceptor';
import { AdminGuard } from '../guards/admin.guard';

export function Auth(roles: string[] = []): MethodDecorator {
  return applyDecorators(UseGuards(RolesGuard), ApiBearerAuth(), UseInterceptors(AuditInterceptor));
}

export const Logged = () => UseInterceptors(LogInterceptor);

export function Documented(): MethodDecorator {
  return applyDecorators(ApiOkResponse({ description: 'ok' }));
}

export const AdminOnly = applyDecorators(UseGuards(AdminGuard));
// --- path: src/guards/roles.guard.ts ---
export class RolesGuard {
  canActivate(context: unknown): boolean { return true; }
}
// --- path: src/guards/admin.guard.ts ---
export class AdminGuard {
  canActivate(context: unknown): boolean { return true; }
}
// --- path: src/interceptors/audit.interceptor.ts ---
export class AuditInterceptor {
  intercept(context: unknown, next: unknown) { return next; }
}
export class LogInterceptor {
  intercept(context: unknown, next: unknown) { return next; }
}
// --- path: src/cats/cats.controller.ts ---
import { Controller, Delete, Get, Post, Put } from '@nestjs/common';
import { ApiTags } from '@nestjs/swagger';
import { AdminOnly, Auth, Documented, Logged } from '../decorators/http.decorators';

@Controller('cats')
@ApiTags('cats')
export class CatsController {
  @Get()
  @Auth(['user'])
  list() { return []; }

  @Get(':id')
  @Logged()
  one() { return null; }

  @Post()
  @Documented()
  create() { return null; }

  @Delete(':id')
  @AdminOnly
  remove() { return null; }

  @Put(':id')
  update() { return null; }
}
"""


def test_a_composed_decorator_wraps_the_routes_it_decorates() -> None:
    result = resolve_fixture(FIXTURE)
    assert edges(result, "WRAPS") == [
        "src/guards/roles.guard.RolesGuard.canActivate(1) -> endpoint:GET /cats",
        "src/interceptors/audit.interceptor.AuditInterceptor.intercept(2) -> endpoint:GET /cats",
        "src/interceptors/audit.interceptor.LogInterceptor.intercept(2) -> endpoint:GET /cats/{}",
    ]  # Documented composes no Use*; AdminOnly is a value built at import; ApiTags is swagger's; update has none


def test_editing_the_composition_relinks_the_routes_in_a_one_shot_run(tmp_path) -> None:
    """The controller does not change; the decorator's file gains a guard and loses an interceptor: the
    incremental run's WRAPS equal a full index's of the edited tree."""

    files = split_fixture(FIXTURE)
    src, db, state = tmp_path / "src", tmp_path / "x.db", tmp_path / "state"
    _write(src, files)
    _index(src, db, state)
    edited = files["src/decorators/http.decorators.ts"].replace(
        "UseGuards(RolesGuard), ApiBearerAuth(), UseInterceptors(AuditInterceptor)",
        "UseGuards(RolesGuard, AdminGuard), ApiBearerAuth()")
    _write(src, {"src/decorators/http.decorators.ts": edited})
    _index(src, db, state)
    full = _full(tmp_path, src)
    wraps = sorted((e[1].split(":", 1)[1], e[2]) for e in full["edges"] if e[0] == "WRAPS")
    assert wraps == [
        ("src/guards/admin.guard.AdminGuard.canActivate(1)", "endpoint:GET /cats"),
        ("src/guards/roles.guard.RolesGuard.canActivate(1)", "endpoint:GET /cats"),
        ("src/interceptors/audit.interceptor.LogInterceptor.intercept(2)",
         "endpoint:GET /cats/{}"),
    ]
    assert dump(db) == full


PASSPORT = """
// --- path: src/auth/jwt.strategy.ts ---
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-jwt';
export class JwtStrategy extends PassportStrategy(Strategy, 'jwt') {
  validate(payload: unknown) { return payload; }
}
// --- path: src/auth/public.strategy.ts ---
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport';
export class PublicStrategy extends PassportStrategy(Strategy, 'public') {
  validate() { return true; }
}
// --- path: src/auth/api-key.strategy.ts ---
import { PassportStrategy } from '@nestjs/passport';
import { Strategy } from 'passport-headerapikey';
export class ApiKeyStrategy extends PassportStrategy(Strategy, 'api-key') {
  validate(key: string) { return key; }
}
// --- path: src/guards/auth.guard.ts ---
import { AuthGuard as NestAuthGuard } from '@nestjs/passport';

export function AuthGuard(options?: { public: boolean }) {
  const strategies = ['jwt'];
  if (options?.public) {
    strategies.push('public');
  }
  return NestAuthGuard(strategies);
}

export function ApiKeyGuard() {
  return NestAuthGuard('api-key');
}

export function Dynamic(name: string) {
  return NestAuthGuard(name);
}
// --- path: src/decorators/http.decorators.ts ---
import { applyDecorators, UseGuards } from '@nestjs/common';
import { AuthGuard } from '../guards/auth.guard';

export function Auth(): MethodDecorator {
  return applyDecorators(UseGuards(AuthGuard({ public: true })));
}
// --- path: src/cats/cats.controller.ts ---
import { Controller, Get, UseGuards } from '@nestjs/common';
import { ApiKeyGuard, AuthGuard, Dynamic } from '../guards/auth.guard';
import { Auth } from '../decorators/http.decorators';

@Controller('cats')
export class CatsController {
  @Get()
  @UseGuards(AuthGuard())
  list() { return []; }

  @Get('key')
  @UseGuards(ApiKeyGuard())
  byKey() { return []; }

  @Get('dynamic')
  @UseGuards(Dynamic('jwt'))
  dynamic() { return []; }

  @Get('composed')
  @Auth()
  composed() { return []; }
}
"""


def test_a_guard_factory_around_passports_runs_its_strategies_callbacks() -> None:
    result = resolve_fixture(PASSPORT)
    callbacks = sorted((short_src, e.dst) for f in result.files for e in f.edges if e.kind == "WRAPS"
                       for short_src in [e.src.split(":", 1)[1]] if e.props.get("kind") == "guard_callback")
    assert callbacks == [
        ("src/auth/api-key.strategy.ApiKeyStrategy.validate(1)", "endpoint:GET /cats/key"),
        ("src/auth/jwt.strategy.JwtStrategy.validate(1)", "endpoint:GET /cats"),
        ("src/auth/jwt.strategy.JwtStrategy.validate(1)", "endpoint:GET /cats/composed"),
    ]  # Dynamic(name): a strategy not known; 'public' is pushed on some calls only: PublicStrategy runs nowhere
