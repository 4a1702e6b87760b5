"""NestJS URI versioning and the global prefix, facts and linked endpoints: ``enableVersioning({ type:
VersioningType.URI })`` puts ``/v<version>`` after the global prefix, the version of a route being its
``@Version`` else its controller's ``version`` else the application's ``defaultVersion``;
``VERSION_NEUTRAL`` and routes without a version have no segment; header versioning changes no path.
Exact endpoint lists, with negative cases."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from indexer.languages import extractor_for_path
from indexer.model import Template, UriVersioning
from tests.golden.harness import index_fixture

CONTROLLERS = """\
import { Controller, Get, Post, Version, VERSION_NEUTRAL } from '@nestjs/common';

@Controller({ path: 'auth', version: '1' })
export class AuthController {
  @Post('email/login')
  login() {}

  @Version('2')
  @Get('me')
  me() {}

  @Version(['3', VERSION_NEUTRAL])
  @Get('both')
  both() {}
}

@Controller('cats')
export class CatsController {
  @Get()
  list() {}
}

@Controller({ path: 'health', version: VERSION_NEUTRAL })
export class HealthController {
  @Get()
  check() {}
}
"""


def _main(options: str, prefix: str = "'api'") -> str:
    return ("import { NestFactory } from '@nestjs/core';\nimport { VersioningType } from '@nestjs/common';\n"
            "async function bootstrap() {\n  const app = await NestFactory.create(AppModule);\n"
            f"  app.setGlobalPrefix({prefix});\n  app.enableVersioning({options});\n}}\n")


def _endpoints(tmp_path: Path, main: str) -> list[tuple[str, str]]:
    root = tmp_path / "app"
    (root / "src").mkdir(parents=True, exist_ok=True)
    (root / "src" / "main.ts").write_text(main, encoding="utf-8")
    (root / "src" / "controllers.ts").write_text(CONTROLLERS, encoding="utf-8")
    store = index_fixture(root, tmp_path / "i.db", "app")
    try:
        with sqlite3.connect(store.path) as db:
            rows = db.execute("SELECT src, dst FROM edges WHERE kind = 'EXPOSES'").fetchall()
    finally:
        store.close()
    return sorted({(dst.removeprefix("endpoint:"), src.rpartition(".")[2].split("(")[0]) for src, dst in rows})


def test_versioning_facts() -> None:
    ex = extractor_for_path("src/main.ts")
    assert ex is not None
    src = ("app.enableVersioning({ type: VersioningType.URI });\n"
           "app.enableVersioning({ type: VersioningType.URI, prefix: 'version-', defaultVersion: ['1', '2'] });\n"
           "app.enableVersioning({ type: VersioningType.URI, prefix: false, defaultVersion: VERSION_NEUTRAL });\n"
           "app.enableVersioning({ type: VersioningType.HEADER, header: 'X-Version' });\n"
           "app.enableVersioning({ type: VersioningType.URI, prefix: computed() });\n"
           "app.enableVersioning(options);\n")
    assert ex.extract("src/main.ts", src.encode()).uri_versionings == [
        UriVersioning("nest", "v", 1, 0),
        UriVersioning("nest", "version-", 2, 0, [Template.of("1"), Template.of("2")]),
        UriVersioning("nest", "", 3, 0, [Template()]),
    ]


def test_route_versions_method_over_controller() -> None:
    ex = extractor_for_path("src/controllers.ts")
    assert ex is not None
    routes = ex.extract("src/controllers.ts", CONTROLLERS.encode()).routes
    assert [(r.handler, r.versions) for r in routes] == [
        ("AuthController.login", [Template.of("1")]),
        ("AuthController.me", [Template.of("2")]),
        ("AuthController.both", [Template.of("3"), Template()]),
        ("CatsController.list", []),
        ("HealthController.check", [Template()]),
    ]


def test_uri_versioning_puts_the_version_after_the_global_prefix(tmp_path: Path) -> None:
    assert _endpoints(tmp_path, _main("{ type: VersioningType.URI }")) == [
        ("GET /api/auth/both", "both"),  # VERSION_NEUTRAL: no segment
        ("GET /api/cats", "list"),  # no version, no default: no segment
        ("GET /api/health", "check"),
        ("GET /api/v2/auth/me", "me"),  # the method's @Version, not the controller's 1
        ("GET /api/v3/auth/both", "both"),
        ("POST /api/v1/auth/email/login", "login"),
    ]


def test_default_version_and_prefix_option(tmp_path: Path) -> None:
    assert _endpoints(tmp_path, _main("{ type: VersioningType.URI, prefix: 'ver', defaultVersion: '7' }")) == [
        ("GET /api/auth/both", "both"),
        ("GET /api/health", "check"),  # neutral controller: the default does not apply
        ("GET /api/ver2/auth/me", "me"),
        ("GET /api/ver3/auth/both", "both"),
        ("GET /api/ver7/cats", "list"),  # no version of its own: the default
        ("POST /api/ver1/auth/email/login", "login"),
    ]


def test_header_versioning_leaves_paths_alone(tmp_path: Path) -> None:
    assert _endpoints(tmp_path, _main("{ type: VersioningType.HEADER, header: 'X-API-Version' }")) == [
        ("GET /api/auth/both", "both"),
        ("GET /api/auth/me", "me"),
        ("GET /api/cats", "list"),
        ("GET /api/health", "check"),
        ("POST /api/auth/email/login", "login"),
    ]


CONFIG = """\
import { registerAs } from '@nestjs/config';
export default registerAs<AppConfig>('app', () => {
  validateConfig(process.env, Validator);
  return {
    apiPrefix: process.env.API_PREFIX || 'api',
    port: parseInt(process.env.PORT, 10),
    nested: { prefix: 'inner' },
  };
});
export const other = registerAs('db', () => ({ url: `postgres://${process.env.HOST}` }));
"""


def test_config_values_facts() -> None:
    ex = extractor_for_path("src/config/app.config.ts")
    assert ex is not None
    constants = ex.extract("src/config/app.config.ts", CONFIG.encode()).constants
    assert [(c.qualname, c.value) for c in constants if c.qualname.startswith("config:")] == [
        ("config:app.apiPrefix", Template.of("api")),
        ("config:app.nested.prefix", Template.of("inner")),
        # `port` is computed, `db.url` has no literal value but the environment's: not constants
        ("config:db.url", Template((("lit", "postgres://"), ("ref", "process.env.HOST")))),
    ]


@pytest.mark.parametrize(("prefix", "files", "expected"), [
    ("configService.getOrThrow('app.apiPrefix', { infer: true })", {"src/config/app.config.ts": CONFIG}, "/api"),
    ("config.get('app.nested.prefix')", {"src/config/app.config.ts": CONFIG}, "/inner"),
    ("API_PREFIX", {"src/constants.ts": "export const API_PREFIX = 'rest';\n"}, "/rest"),
    ("configService.get('API_PREFIX')", {".env": "API_PREFIX=/envapi\n", "package.json": "{}"}, "/envapi"),
    # unknown: a `{}` segment saying so (the convention for a constant of unknown value), never a wrong one
    ("configService.get('app.missing')", {"src/config/app.config.ts": CONFIG}, "/{}"),
    ("computePrefix()", {}, "/{}"),
    ("configService.get(key)", {}, "/{}"),
])
def test_global_prefix_from_configuration(tmp_path: Path, prefix: str, files: dict[str, str], expected: str) -> None:
    root = tmp_path / "app"
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    imports = "import { API_PREFIX } from './constants';\n" if "API_PREFIX" in files.get("src/constants.ts", "") else ""
    main = imports + _main("{ type: VersioningType.URI }", prefix).replace(
        f"setGlobalPrefix({prefix})", f"setGlobalPrefix({prefix}, {{ exclude: ['/health'] }})")
    got = _endpoints(tmp_path, main)
    assert [e for e, _ in got] == sorted([f"GET {expected}/auth/both", f"GET {expected}/cats", "GET /health",
                                   f"GET {expected}/v2/auth/me", f"GET {expected}/v3/auth/both",
                                          f"POST {expected}/v1/auth/email/login"])
