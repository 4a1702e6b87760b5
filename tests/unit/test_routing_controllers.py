"""routing-controllers (the Express / Koa framework of ``@JsonController`` classes): ``@JsonController``
is a controller like ``@Controller``, and the ``routePrefix`` of ``createExpressServer`` /
``useExpressServer`` / ``createKoaServer`` / ``useKoaServer`` options goes before every route of the
service folder, as Nest's ``setGlobalPrefix``. Facts and linked endpoints, exact lists, with negative
cases (a class without a controller decorator, a prefix of another function, options not written
as an object)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.languages import extractor_for_path
from indexer.model import GlobalPrefix, Template
from tests.golden.harness import index_fixture

CONTROLLERS = """\
import { Authorized, Body, Delete, Get, JsonController, Param, Post } from 'routing-controllers';

@Authorized()
@JsonController('/users')
export class UserController {
    constructor(private userService: UserService) { }

    @Get()
    public find() { return this.userService.find(); }

    @Get('/:id')
    public one(@Param('id') id: string) { return this.userService.findOne(id); }

    @Post()
    public create(@Body() body: any) { return this.userService.create(body); }

    @Delete('/:id')
    public delete(@Param('id') id: string) { return this.userService.delete(id); }
}

export class NotAController {
    @Get('/nope')
    public nope() { }
}
"""


def _routes(src: str, path: str = "src/api/UserController.ts") -> list[tuple[list[str], str, str]]:
    ex = extractor_for_path(path)
    assert ex is not None
    return [(r.methods, r.path.literal() or "", r.handler) for r in ex.extract(path, src.encode()).routes]


def _prefixes(src: str) -> list[GlobalPrefix]:
    ex = extractor_for_path("src/server.ts")
    assert ex is not None
    return ex.extract("src/server.ts", src.encode()).global_prefixes


def test_json_controller_routes() -> None:
    assert _routes(CONTROLLERS) == [
        (["GET"], "/users", "UserController.find"),
        (["GET"], "/users/:id", "UserController.one"),
        (["POST"], "/users", "UserController.create"),
        (["DELETE"], "/users/:id", "UserController.delete"),
    ]  # NotAController.nope: no controller decorator, no route


def test_route_prefix_of_the_server_options() -> None:
    src = ("import { createExpressServer, useKoaServer } from 'routing-controllers';\n"
           "const app = createExpressServer({ cors: true, routePrefix: '/api', controllers: [UserController] });\n"
           "useKoaServer(koa, { routePrefix: env.app.routePrefix });\n"
           "createExpressServer({ controllers: [UserController] });\n"  # no prefix
           "createExpressServer(options);\n"  # not an object literal: unknown, nothing
           "createServer({ routePrefix: '/other' });\n")  # not routing-controllers'
    assert _prefixes(src) == [
        GlobalPrefix("nest", Template.of("/api"), 2, 12),
        GlobalPrefix("nest", Template((("ref", "env.app.routePrefix"),)), 3, 0),  # the linker renders the reference
    ]


def _endpoints(tmp_path: Path, server: str) -> list[tuple[str, str]]:
    root = tmp_path / "app"
    (root / "src" / "api").mkdir(parents=True, exist_ok=True)
    (root / "package.json").write_text('{"name": "app"}', encoding="utf-8")
    (root / "src" / "server.ts").write_text(server, encoding="utf-8")
    (root / "src" / "api" / "UserController.ts").write_text(CONTROLLERS, encoding="utf-8")
    store = index_fixture(root, tmp_path / "i.db", "app")
    try:
        with sqlite3.connect(store.path) as db:
            rows = db.execute("SELECT src, dst FROM edges WHERE kind = 'EXPOSES'").fetchall()
    finally:
        store.close()
    return sorted({(dst.removeprefix("endpoint:"), src.rpartition(".")[2].split("(")[0]) for src, dst in rows})


def test_endpoints_under_the_route_prefix(tmp_path: Path) -> None:
    server = ("import { createExpressServer } from 'routing-controllers';\n"
              "createExpressServer({ routePrefix: '/api', controllers: [__dirname + '/api/*.ts'] }).listen(3000);\n")
    assert _endpoints(tmp_path, server) == [
        ("DELETE /api/users/{}", "delete"),
        ("GET /api/users", "find"),
        ("GET /api/users/{}", "one"),
        ("POST /api/users", "create"),
    ]


def test_endpoints_without_a_route_prefix(tmp_path: Path) -> None:
    server = ("import { createExpressServer } from 'routing-controllers';\n"
              "createExpressServer({ controllers: [__dirname + '/api/*.ts'] }).listen(3000);\n")
    assert _endpoints(tmp_path, server) == [
        ("DELETE /users/{}", "delete"),
        ("GET /users", "find"),
        ("GET /users/{}", "one"),
        ("POST /users", "create"),
    ]
