"""GraphQL clients reach the resolvers of the nested fields they select (session 67, acc67c): the selection
tree and SDL types the document reader keeps, and the links the linker makes from them (exact callers,
aliases, fragments at any level, inline fragments, ``.graphql`` schema files, incremental edits), with
the negatives: a field whose type the schema does not say links nothing below it, a field no resolver
answers links nothing, a field two schemas type differently is unknown."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from indexer.frameworks.graphql_documents import MAX_TREE_LEVELS, parse_document
from tests.unit.test_incremental import Workspace, dump

SCHEMA_JS = """const { gql } = require('apollo-server');
const typeDefs = gql`
  type Query { me: User  launch(id: ID!): Launch  launches: LaunchConnection!  node(id: ID!): Node }
  type Mutation { login(email: String): User }
  interface Node { id: ID! }
  type LaunchConnection { cursor: String  launches: [Launch]! }
  type User implements Node { id: ID!  email: String  trips: [Launch]! }
  type Launch { id: ID!  site: String  mission: Mission  isBooked: Boolean! }
  type Mission { name: String  missionPatch(size: String): String }
`;
module.exports = typeDefs;
"""

RESOLVERS_JS = """module.exports = {
  Query: {
    me: (_, __, ctx) => ctx.user,
    launch: (_, { id }) => ({ id }),
    launches: () => ({ launches: [] }),
    node: () => null,
    orphan: () => null,
  },
  Mutation: { login: () => null },
  User: { trips: () => [] },
  Launch: { isBooked: () => true },
  Mission: { missionPatch: () => '' },
  Ghost: { secret: () => 1 },
};
"""

CLIENT_JS = """import { gql, useQuery, useMutation } from '@apollo/client';

export const LAUNCH_TILE = gql`
  fragment LaunchTile on Launch { id isBooked mission { name missionPatch(size: "SMALL") } }
`;

export function Profile() {
  return useQuery(gql`query Me { me { email myTrips: trips { ...LaunchTile } } }`);
}

export function Launches() {
  return useQuery(gql`query List { launches { cursor launches { id site } } }`);
}

export function Node() {
  return useQuery(gql`query N { node(id: 1) { id ... on User { trips { id } } } }`);
}

export function Ghosts() {
  return useQuery(gql`query G { orphan { secret } }`);
}

export function Login() {
  return useMutation(gql`mutation L { login(email: "a") { trips { mission { missionPatch } } } }`);
}
"""


def _links(db: Path) -> list[tuple[str, str, str]]:
    """``(source, endpoint, selection)`` of every GraphQL client edge (the props the dump leaves out)."""
    assert dump(db)["edges"]  # the index is readable
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT src, dst, props FROM edges WHERE kind = 'CALLS_HTTP'").fetchall()
    finally:
        conn.close()
    return sorted((src.split(":", 1)[1], dst.removeprefix("endpoint:"), json.loads(props or "{}").get("selection", ""))
                  for src, dst, props in rows if dst.startswith("endpoint:"))


def test_selection_tree_and_sdl_types_are_read() -> None:
    doc = parse_document("""
type User { id: ID! posts(first: Int): [Post!]! }
extend type Query { me: User }
interface Node { id: ID! }
query Q { a: user(id: 1) { posts { ...F comments { id } ... on X { y } ... @include(if: $x) { z } } }
          local @client { q } __typename }
fragment F on Post { title author { name } }
""")
    assert doc.types == [("User", "id", "ID"), ("User", "posts", "Post"), ("Query", "me", "User"), ("Node", "id", "ID")]
    (op,) = doc.operations
    assert op.fields == ["user"]
    assert op.tree == [(0, "user"), (1, "posts"), (2, "...F"), (2, "comments"), (3, "id"), (2, "on X"), (3, "y"),
                       (2, "z")]
    assert doc.fragments[0].tree == [(0, "title"), (0, "author"), (1, "name")]


def test_selection_tree_is_bounded() -> None:
    deep = "query D { " + "a { " * 40 + "b" + " }" * 40 + " }"
    (op,) = parse_document(deep).operations
    assert max(level for level, _ in op.tree) == MAX_TREE_LEVELS
    assert len(op.tree) == MAX_TREE_LEVELS + 1


def test_nested_fields_reach_their_resolvers(tmp_path: Path) -> None:
    ws = Workspace(tmp_path, {"server/schema.js": SCHEMA_JS, "server/resolvers.js": RESOLVERS_JS,
                              "web/app.js": CLIENT_JS})
    try:
        links = _links(ws.db)
        nested = [x for x in links if x[1].startswith("FIELD ")]
        assert nested == [
            ("web/app.Login(0)", "FIELD Mission.missionPatch", "login.trips.mission.missionPatch"),
            ("web/app.Login(0)", "FIELD User.trips", "login.trips"),
            ("web/app.Node(0)", "FIELD User.trips", "node.trips"),
            ("web/app.Profile(0)", "FIELD Launch.isBooked", "me.trips.isBooked"),
            ("web/app.Profile(0)", "FIELD Mission.missionPatch", "me.trips.mission.missionPatch"),
            ("web/app.Profile(0)", "FIELD User.trips", "me.trips"),
        ]
        # root fields as before; `orphan` is no field of the schema (its type is unknown): nothing below it links,
        # plain properties (email, cursor, site, name, id) link nothing, and neither do Launches' nested fields
        assert [x for x in links if not x[1].startswith("FIELD ")] == [
            ("web/app.Ghosts(0)", "QUERY Query.orphan", ""),
            ("web/app.Launches(0)", "QUERY Query.launches", ""),
            ("web/app.Login(0)", "MUTATION Mutation.login", ""),
            ("web/app.Node(0)", "QUERY Query.node", ""),
            ("web/app.Profile(0)", "QUERY Query.me", ""),
        ]
        assert not any(dst == "FIELD Ghost.secret" for _, dst, _ in links)
        # the schema file edited alone: `me` is no longer a field of the schema, so `me.trips` (User.trips) no longer
        # links; the fragment spread below it names its own type (on Launch), so its fields still do (the watcher's
        # index equals a full index of the edited files: Workspace.edit checks it)
        ws.edit({"server/schema.js": SCHEMA_JS.replace("me: User  ", "")})
        now = [x for x in _links(ws.db) if x[0] == "web/app.Profile(0)" and x[1].startswith("FIELD ")]
        assert now == [("web/app.Profile(0)", "FIELD Launch.isBooked", "me.trips.isBooked"),
                       ("web/app.Profile(0)", "FIELD Mission.missionPatch", "me.trips.mission.missionPatch")]
    finally:
        ws.close()


def test_graphql_schema_file_types_and_conflicting_types(tmp_path: Path) -> None:
    files = {
        "api/schema.graphqls": "type Query { post(id: ID!): Post }\ntype Post { id: ID! comments: [Comment] }\n"
                               "type Comment { id: ID! author: User }\ntype User { name: String }\n",
        "api/resolvers.js": "module.exports = { Query: { post: () => null }, Post: { comments: () => [] },\n"
                            "  Comment: { author: () => null } };\n",
        "web/q.graphql": "query P { post(id: 1) { comments { author { name } } } }\n",
    }
    ws = Workspace(tmp_path, files)
    try:
        assert [x for x in _links(ws.db) if x[1].startswith("FIELD ")] == [
            ("web/q.P(0)", "FIELD Comment.author", "post.comments.author"),
            ("web/q.P(0)", "FIELD Post.comments", "post.comments"),
        ]
        # a second schema that types Post.comments differently: the field's type is unknown, so nothing below it
        ws.edit({"other/schema.graphqls": "type Post { comments: [Remark] }\ntype Remark { id: ID! }\n"})
        assert [x for x in _links(ws.db) if x[1].startswith("FIELD ")] == [
            ("web/q.P(0)", "FIELD Post.comments", "post.comments"),
        ]
    finally:
        ws.close()
