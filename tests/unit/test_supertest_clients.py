"""supertest requests in tests as HTTP client calls (CALLS_HTTP from the test file to the endpoint):
``request(app.getHttpServer()).get("/cats")`` of a NestJS e2e test (the application the test creates
has no global prefix: the endpoint is found under the service's ``setGlobalPrefix``), and
``request(app).post("/v1/users")`` of an Express test (the path as written), and a request kept in a
variable (``const api = supertest(app)``, ``agent = request.agent(app)`` in a ``beforeAll``). Negative
cases: a ``request`` that is not supertest's, a test that sets the prefix itself, a path the prefix
excludes, a name the file also binds to something else."""

from __future__ import annotations

import json
import sqlite3

import pytest

from indexer.languages import extractor_for_path
from tests.golden.harness import index_fixture

FILES = {
    "nest/src/main.ts": """\
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api', { exclude: ['health'] });
  await app.listen(3000);
}
bootstrap();
""",
    "nest/src/cats.controller.ts": """\
import { Controller, Get, Post, Param } from '@nestjs/common';
@Controller('cats')
export class CatsController {
  @Get()
  findAll() { return []; }
  @Get(':id')
  findOne(@Param('id') id: string) { return id; }
  @Post()
  create() { return {}; }
}
""",
    "nest/src/health.controller.ts": """\
import { Controller, Get } from '@nestjs/common';
@Controller('health')
export class HealthController {
  @Get()
  check() { return 'ok'; }
}
""",
    "nest/test/cats.e2e-spec.ts": """\
import * as request from 'supertest';
import { Test } from '@nestjs/testing';
import { AppModule } from '../src/app.module';
describe('cats', () => {
  let app;
  beforeAll(async () => {
    const ref = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = ref.createNestApplication();
    await app.init();
  });
  it('lists', () => request(app.getHttpServer()).get('/cats').expect(200));
  it('reads', () => request(app.getHttpServer()).get('/cats/1').expect(200));
  it('creates', () => request(app.getHttpServer()).post('/api/cats').send({}).expect(201));
  it('health', () => request(app.getHttpServer()).get('/health').expect(200));
  it('agent', () => {
    const agent = request(app.getHttpServer());
    return agent.get('/cats/2');
  });
  it('server', () => {
    const httpServer = app.getHttpServer();
    return request(httpServer).post('/cats');
  });
});
""",
    "nest/test/prefixed.e2e-spec.ts": """\
import request from 'supertest';
describe('prefixed', () => {
  let app;
  beforeAll(async () => {
    app.setGlobalPrefix('api');
  });
  it('lists', () => request(app.getHttpServer()).get('/cats'));
});
""",
    "web/app.js": """\
const express = require('express');
const app = express();
app.post('/v1/users', function createUser(req, res) { res.json({}); });
module.exports = app;
""",
    "web/tests/users.test.js": """\
const request = require('supertest');
const app = require('../app');
test('create', async () => {
  await request(app).post('/v1/users').send({ name: 'a' }).expect(201);
});
""",
    "web/tests/other.test.js": """\
const request = require('./helpers/request');
const app = require('../app');
test('create', async () => {
  await request(app).post('/v1/users');
});
""",
}


@pytest.fixture(scope="module")
def calls(tmp_path_factory):
    root = tmp_path_factory.mktemp("st") / "app"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    store = index_fixture(root, root.parent / "i.db", "app")
    try:
        with sqlite3.connect(store.path) as db:
            exposed = {d for (d,) in db.execute("SELECT dst FROM edges WHERE kind = 'EXPOSES'")}
            rows = db.execute("SELECT src, dst, line, props FROM edges WHERE kind = 'CALLS_HTTP'").fetchall()
    finally:
        store.close()
    return exposed, sorted(
        (src.split(":", 1)[1], line, dst.removeprefix("endpoint:"), json.loads(props).get("prefix"))
        for src, dst, line, props in rows
    )


def test_supertest_requests_reach_the_endpoints(calls) -> None:
    exposed, rows = calls
    assert rows == [  # each request's caller is the test it is written in (test_callbacks)
        ("nest/test/cats.e2e-spec.describe cats.it agent(0)", 17, "GET /api/cats/{}", "/api"),  # kept in a variable
        ("nest/test/cats.e2e-spec.describe cats.it creates(0)", 13, "POST /api/cats", None),  # already prefixed
        ("nest/test/cats.e2e-spec.describe cats.it health(0)", 14, "GET /health", None),  # excluded from the prefix
        ("nest/test/cats.e2e-spec.describe cats.it lists(0)", 11, "GET /api/cats", "/api"),  # the test's app: no prefix
        ("nest/test/cats.e2e-spec.describe cats.it reads(0)", 12, "GET /api/cats/{}", "/api"),  # a literal id
        ("nest/test/cats.e2e-spec.describe cats.it server(0)", 21, "POST /api/cats", "/api"),  # request(httpServer)
        ("nest/test/prefixed.e2e-spec.describe prefixed.it lists(0)", 7, "GET /cats", None),  # the test sets the prefix
        ("web/tests/users.test.test create(0)", 4, "POST /v1/users", None),  # Express: request(app), as written
    ]  # not: other.test.js (`request` is no supertest)
    assert {"endpoint:GET /api/cats", "endpoint:GET /api/cats/{}", "endpoint:POST /api/cats",
            "endpoint:GET /health", "endpoint:POST /v1/users"} <= exposed


def test_supertest_facts() -> None:
    ex = extractor_for_path("t.ts")
    assert ex is not None
    out = ex.extract("t.ts", b"import st from 'supertest';\nst.agent(server).get('/a');\nst(app).delete(`/b/${id}`);\n"
                             b"st(app).send('/c');\nother(app).get('/d');\n")
    assert [(c.framework, c.method, c.url.parts, c.line) for c in out.http_calls] == [
        ("supertest", "GET", (("lit", "/a"),), 2),
        ("supertest", "DELETE", (("lit", "/b/"), ("ref", "id")), 3),
    ]


def test_a_supertest_request_kept_in_a_variable() -> None:
    ex = extractor_for_path("t.test.ts")
    assert ex is not None
    out = ex.extract("t.test.ts", b"""import supertest from 'supertest';
import { app } from '../src/app';
const api = supertest(app);
let agent;
let server;
let mixed = supertest(app);
beforeAll(() => {
  agent = supertest.agent(app);
  server = supertest(nest.getHttpServer());
  mixed = makeClient();
});
test('a', async () => {
  await api.get('/api/notes').expect(200);
  await agent.post('/login').send({});
  await server.delete(`/cats/${id}`);
  await mixed.get('/mixed');
  await other.get('/other');
  const local = api;
  await local.get('/alias');
});
""")
    assert [(c.framework, c.method, c.url.parts, c.line) for c in out.http_calls] == [
        ("supertest", "GET", (("lit", "/api/notes"),), 13),
        ("supertest", "POST", (("lit", "/login"),), 14),
        ("supertest-nest", "DELETE", (("lit", "/cats/"), ("ref", "id")), 15),
    ]  # not: `mixed` (also bound to another value), `other` (bound to nothing), `local` (an alias: not followed)
