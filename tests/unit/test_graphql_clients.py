"""GraphQL clients (issue 15 item 4): the document reader (:mod:`indexer.frameworks.graphql_documents`),
the detectors of each language (exact facts on inline sources), ``.graphql`` operations files, and the
links following edits incrementally."""

from __future__ import annotations

from pathlib import Path

from indexer.frameworks.graphql_documents import LOOKS_LIKE_GRAPHQL, parse_document
from indexer.languages import extractor_for_path
from indexer.model import GraphqlFragment, GraphqlOperation, GraphqlUse
from tests.unit.test_incremental import Workspace, dump


def _ops(text: str) -> list[tuple[str, str | None, list[str], list[str]]]:
    return [(o.operation, o.name, o.fields, o.spreads) for o in parse_document(text).operations]


def _extract(path: str, text: str):
    return extractor_for_path(path).extract(path, text.encode())


def _facts(path: str, text: str):
    ex = _extract(path, text)
    docs = [(d.name, d.owner, d.run, d.includes, [(o.operation, o.name, o.fields, o.spreads) for o in d.operations])
            for d in ex.graphql_documents]
    uses = [(u.framework, u.owner, u.document, u.ref, u.path, u.operation, u.root_field, u.strict)
            for u in ex.graphql_uses]
    return docs, uses


# -- the document reader ---------------------------------------------------------------------------


def test_root_fields_aliases_typename_inline_fragments_and_spreads() -> None:
    text = """
    query Q($id: ID!) { x: orders(id: $id) { id ...F } __typename ...Root ... on Query { me } }
    mutation { createOrder(a: 1) { id lines { id } } }
    { a b: a }
    subscription S { s }
    fragment Root on Query { viewer { id } ...More }
    type Query { notAnOperation: Int }
    """
    assert _ops(text) == [
        ("QUERY", "Q", ["orders", "me"], ["Root"]),
        ("MUTATION", None, ["createOrder"], []),
        ("QUERY", None, ["a"], []),
        ("SUBSCRIPTION", "S", ["s"], []),
    ]
    doc = parse_document(text)
    assert doc.fragments == [GraphqlFragment("Root", "Query", ["viewer"], ["More"])]
    assert doc.errors == 0


def test_positions_are_in_the_host_file() -> None:
    doc = parse_document("\n  query A { a }\nquery B { b }", line=10, col=7)
    assert [(o.name, o.line, o.col) for o in doc.operations] == [("A", 11, 2), ("B", 12, 0)]
    assert parse_document("query A { a }", line=3, col=7).operations[0].col == 7


def test_a_schema_alone_has_no_operation_and_bad_text_keeps_what_parsed() -> None:
    assert _ops("type Query { a: Int }\nschema { query: Query }") == []
    broken = parse_document("query { a(x: 1 { b }")
    assert broken.errors > 0
    assert [(o.operation, o.fields) for o in broken.operations] == [("QUERY", ["a"])]
    assert parse_document("x" * 1_000_001).errors == 1


def test_plain_strings_that_read_as_graphql() -> None:
    assert [bool(LOOKS_LIKE_GRAPHQL.search(t)) for t in (
        "query X { a }", "  { a }", "# c\nmutation M { a }", "https://x/graphql", "{}", "queryx", "SELECT 1")] == [
        True, True, True, False, False, False, False]


# -- JavaScript / TypeScript ------------------------------------------------------------------------


def test_js_templates_calls_constants_locals_and_runners() -> None:
    src = """
import { gql, useQuery, useMutation } from '@apollo/client';
import { FIELDS } from './fields';
import Doc, { Named } from './docs.graphql';

export const LIST = gql`query List { orders { ...F } } ${FIELDS}`;
const ROOT = graphql(`query Root { me { id } ...V }`, [VIEW]);

export function Orders(props) {
  useQuery(LIST);
  const local = gql`{ me { id } }`;
  useQuery(local);
  useMutation(gql`mutation { createOrder(item: "a") { id } }`);
  client.query({ query: ROOT, variables: {} });
  useQuery(Doc);
  useQuery(Named);
  useQuery(props.doc);
  return gql`query Unrun { orders { id } }`;
}
"""
    docs, uses = _facts("src/orders.tsx", src)
    assert docs == [
        ("LIST", None, False, ["FIELDS"], [("QUERY", "List", ["orders"], [])]),
        ("ROOT", None, False, ["VIEW"], [("QUERY", "Root", ["me"], ["V"])]),
        (None, "Orders", True, [], [("QUERY", None, ["me"], [])]),
        (None, "Orders", True, [], [("MUTATION", None, ["createOrder"], [])]),
        (None, "Orders", False, [], [("QUERY", "Unrun", ["orders"], [])]),
    ]
    fw = "apollo-client"
    assert uses == [
        (fw, "Orders", None, "LIST", None, None, None, True),
        (fw, "Orders", 2, None, None, None, None, True),
        (fw, "Orders", 3, None, None, None, None, True),
        (fw, "Orders", None, "ROOT", None, None, None, True),
        (fw, "Orders", None, None, "src/docs.graphql", None, None, True),
        (fw, "Orders", None, None, "src/docs.graphql", "Named", None, True),
        (fw, "Orders", None, "props.doc", None, None, None, True),
    ]


def test_js_request_with_url_plain_string_and_generic_query_methods() -> None:
    src = """
import { request } from 'graphql-request';
const API = 'http://x/graphql';
const Q = `query { a }`;
export function load() {
  return request(API, `query Load { orders { id } }`);
}
export function other() {
  return request(API, Q);
}
"""
    docs, uses = _facts("src/api.ts", src)
    assert docs == [(None, "load", True, [], [("QUERY", "Load", ["orders"], [])])]
    assert uses == [
        ("graphql-request", "load", 0, None, None, None, None, True),
        ("graphql-request", "other", None, "API", None, None, None, False),  # the URL: tried, never counted
        ("graphql-request", "other", None, "Q", None, None, None, True),
    ]
    # a file importing no GraphQL client (the server's `graphql` package is none): `db.query(sql)` may
    # be anything, so it links only if `sql` turns out to be a document, and is never counted
    docs, uses = _facts("src/db.js", "import { GraphQLError } from 'graphql';\n"
                                     "export function rows(db, sql) { return db.query(sql); }\n")
    assert (docs, uses) == ([], [("graphql-js", "rows", None, "sql", None, None, None, False)])
    assert _facts("src/plain.js", "export function rows(db, sql) { return db.query(sql); }\n") == ([], [])


# -- Python, Java, .graphql -------------------------------------------------------------------------


def test_python_gql_documents_and_execute_calls() -> None:
    src = '''from gql import Client, gql
from .queries import ORDERS

LIST = gql("""
query List { orders { id } }
""")


def run(client, session, doc):
    client.execute(LIST)
    client.execute(ORDERS)
    q = gql("mutation { createOrder(item: \\"a\\") { id } }")
    client.execute(q)
    session.execute(document=gql("{ me { name } }"))
    client.execute(doc)
'''
    docs, uses = _facts("app/client.py", src)
    assert docs == [
        ("LIST", None, False, [], [("QUERY", "List", ["orders"], [])]),
        (None, "run", True, [], [("MUTATION", None, ["createOrder"], [])]),
        (None, "run", True, [], [("QUERY", None, ["me"], [])]),
    ]
    assert uses == [
        ("gql", "run", None, "LIST", None, None, None, True),
        ("gql", "run", None, "ORDERS", None, None, None, True),
        ("gql", "run", 1, None, None, None, None, True),
        ("gql", "run", 2, None, None, None, None, True),
        ("gql", "run", None, "doc", None, None, None, True),
    ]
    assert _facts("app/db.py", "def f(cursor):\n    cursor.execute(SQL)\n") == ([], [])  # no gql import


def test_java_spring_and_dgs_clients() -> None:
    src = '''package shop;

import org.springframework.graphql.client.HttpGraphQlClient;
import com.netflix.graphql.dgs.client.codegen.GraphQLQueryRequest;

public class Client {
    static final String ORDERS = """
        query Orders { orders { id } }
        """;
    static final String NAME = "orders";

    Object a(HttpGraphQlClient c) { return c.document(ORDERS).retrieve("orders"); }
    Object b(HttpGraphQlClient c) { return c.documentName("orderLines").execute(); }
    Object d(HttpGraphQlClient c) {
        String m = "mutation { cancelOrder(id: 1) }";
        return c.document(m).execute();
    }
    Object e() { return new GraphQLQueryRequest(new AddReviewGraphQLQuery.Builder().build()); }
    Object f() { return ShowsGraphQLQuery.newRequest().build(); }
}
'''
    docs, uses = _facts("src/main/java/shop/Client.java", src)
    assert docs == [
        ("Client.ORDERS", None, False, [], [("QUERY", "Orders", ["orders"], [])]),
        (None, "Client.d", True, [], [("MUTATION", None, ["cancelOrder"], [])]),
    ]
    spring, dgs = "spring-graphql-client", "dgs-client"
    assert sorted(uses, key=lambda u: (u[1], u[2] or 0)) == [
        (spring, "Client.a", None, "ORDERS", None, None, None, True),
        (spring, "Client.b", None, None, "graphql-documents/orderLines", None, None, True),
        (spring, "Client.d", 1, None, None, None, None, True),
        (dgs, "Client.e", None, None, None, None, "addReview", True),
        (dgs, "Client.f", None, None, None, None, "shows", True),
    ]


def test_graphql_operations_file_beside_a_schema() -> None:
    ex = _extract("src/shop.graphql", """type Query { orders: [Int] }
query GetOrders { orders }
{ orders }
fragment F on Query { orders }
""")
    assert [(d.kind, d.qualname, d.start_line) for d in ex.definitions] == [
        ("class", "Query", 1), ("field", "Query.orders", 1), ("function", "GetOrders", 2), ("function", "query", 3)]
    assert [r.path.parts for r in ex.routes] == [(("lit", "Query.orders"),)]  # the schema's, as before
    [doc] = ex.graphql_documents
    assert doc.operations == [GraphqlOperation("QUERY", "GetOrders", ["orders"], [], 2, 0),
                              GraphqlOperation("QUERY", None, ["orders"], [], 3, 0)]
    assert [f.name for f in doc.fragments] == ["F"]
    assert ex.graphql_uses == []
    assert _extract("src/schema.graphqls", "type Query { a: Int }\n").graphql_documents == []
    assert isinstance(GraphqlUse("x", None, 1, 0), GraphqlUse)


# -- incremental ------------------------------------------------------------------------------------


def _graphql_links(db: Path) -> list[tuple[str, str]]:
    return sorted((src.split(":", 1)[1], dst) for kind, src, dst, *_ in dump(db)["edges"]
                  if kind == "CALLS_HTTP" and dst.startswith("endpoint:"))


def test_links_follow_documents_edited_in_another_file(tmp_path: Path) -> None:
    files = {
        "web/queries.ts": "import { gql } from '@apollo/client';\nexport const Q = gql`query Q { orders { id } }`;\n",
        "web/page.ts": "import { useQuery } from '@apollo/client';\nimport { Q } from './queries';\n"
                       "export function Page() {\n  return useQuery(Q);\n}\n",
        "web/ops.graphql": "mutation Place { createOrder { id } }\n",
    }
    ws = Workspace(tmp_path, files)
    try:
        assert _graphql_links(ws.db) == [
            ("web/ops.Place(0)", "endpoint:MUTATION Mutation.createOrder"),
            ("web/page.Page(0)", "endpoint:QUERY Query.orders"),
        ]
        # the document changes in its own file: the component's link follows (checked against a full index)
        ws.edit({"web/queries.ts": files["web/queries.ts"].replace("orders { id }", "me { id }")})
        assert ("web/page.Page(0)", "endpoint:QUERY Query.me") in _graphql_links(ws.db)
        assert ("web/page.Page(0)", "endpoint:QUERY Query.orders") not in _graphql_links(ws.db)
        ws.edit({"web/ops.graphql": None, "web/queries.ts": files["web/queries.ts"]})
        assert _graphql_links(ws.db) == [("web/page.Page(0)", "endpoint:QUERY Query.orders")]
    finally:
        ws.close()


def test_apollo_local_only_fields_are_not_sent_to_the_server() -> None:
    assert _ops("query { isLoggedIn @client me @include(if: true) { id } ... @client { cartItems } }") == [
        ("QUERY", None, ["me"], [])]


def test_js_test_runners_take_their_document_from_the_object_only() -> None:
    src = """
const { gql } = require('apollo-server');
const GET = gql`query Get { launches { id } }`;
it('runs', async () => {
  await server.executeOperation({ query: GET });
  await toPromise(execute(link, { query: GET }));
  execute(link);
});
"""
    docs, uses = _facts("src/__tests__/run.js", src)
    assert [d[0] for d in docs] == ["GET"]
    assert uses == [("graphql-js", "it runs", None, "GET", None, None, None, True)] * 2  # the test's (test_callbacks)
