"""GraphQL requests of an e2e test (``request(app.getHttpServer()).post("/graphql").send({ query })``):
the document sent runs the resolver operations of the server (CALLS_HTTP, kind ``graphql``, from the
test file), the HTTP request reaches ``POST /graphql`` without the REST global prefix (NestJS serves
GraphQL outside it); negative cases: a body posted to another path, a ``send`` of a response, a
request whose body is no document."""

from __future__ import annotations

import json

import pytest

from indexer.languages import extractor_for_path
from tests.golden.harness import edge_rows

FILES = {
    "src/main.ts": """\
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module';
async function bootstrap() {
  const app = await NestFactory.create(AppModule);
  app.setGlobalPrefix('api');
  await app.listen(3000);
}
bootstrap();
""",
    "src/cats.resolver.ts": """\
import { Resolver, Query, Mutation, Args } from '@nestjs/graphql';
@Resolver()
export class CatsResolver {
  @Query(() => [String])
  cats() { return []; }
  @Mutation(() => String)
  createCat(@Args('name') name: string) { return name; }
}
""",
    "test/cats.e2e-spec.ts": """\
import * as request from 'supertest';
import { gql } from 'graphql-tag';
const CREATE = gql`mutation { createCat(name: "x") }`;
describe('cats', () => {
  let app;
  it('lists', () => request(app.getHttpServer()).post('/graphql').send({ query: '{ cats }' }).expect(200));
  it('creates', () => request(app.getHttpServer()).post('/graphql').set('a', 'b').send({ query: CREATE }));
  it('other', () => request(app.getHttpServer()).post('/upload').send({ query: '{ cats }' }));
  it('bad', () => request(app.getHttpServer()).post('/graphql').send({ name: 'x' }));
});
""",
    "src/echo.controller.ts": """\
import { Controller, Post, Res } from '@nestjs/common';
@Controller('echo')
export class EchoController {
  @Post()
  echo(@Res() res) { res.send({ query: '{ cats }' }); }
}
""",
}


@pytest.fixture(scope="module")
def edges(tmp_path_factory):
    root = tmp_path_factory.mktemp("sg") / "app"
    rows = edge_rows(root, FILES, "CALLS_HTTP")
    return sorted((src.split(":", 1)[1], line, dst.removeprefix("endpoint:"), json.loads(props).get("kind"))
                  for src, dst, line, props in rows)


def test_graphql_documents_posted_by_an_e2e_test_reach_the_resolvers(edges) -> None:
    assert sorted(edges, key=lambda e: (e[1], e[2])) == [  # the caller: the test the request is in (test_callbacks)
        ("test/cats.e2e-spec.describe cats.it lists(0)", 6, "POST /graphql", None),  # no REST prefix
        ("test/cats.e2e-spec.describe cats.it lists(0)", 6, "QUERY Query.cats", "graphql"),
        ("test/cats.e2e-spec.describe cats.it creates(0)", 7, "MUTATION Mutation.createCat", "graphql"),  # a gql constant
        ("test/cats.e2e-spec.describe cats.it creates(0)", 7, "POST /graphql", None),
        ("test/cats.e2e-spec.describe cats.it other(0)", 8, "POST /api/upload", None),  # not GraphQL: a path like any
        ("test/cats.e2e-spec.describe cats.it bad(0)", 9, "POST /graphql", None),  # no document in the body
    ]  # not: the controller's `res.send({ query })` (a response), `/upload`'s body


def test_a_send_counts_only_after_a_post_to_a_graphql_path() -> None:
    ex = extractor_for_path("t.ts")
    assert ex is not None
    out = ex.extract("t.ts", b"""import request from 'supertest';
const GQL = '/graphql';
request(app).post('/api/graphql').send({ query: '{ a }' });
request(app).post(GQL).send({ query: '{ e }' });
request(app).post('/graphqlx').send({ query: '{ b }' });
request(app).get('/graphql').send({ query: '{ c }' });
res.send({ query: '{ d }' });
""")
    # (`request(app)` itself is a generic runner whose `app` the linker keeps only if it names a document)
    assert [(u.line, out.graphql_documents[u.document].operations[0].fields)
            for u in out.graphql_uses if u.document is not None] == [(3, ["a"]), (4, ["e"])]
    assert [d.operations[0].fields for d in out.graphql_documents] == [["a"], ["e"]]
