"""Apollo Server data sources: a resolver's ``dataSources.<key>.m()`` calls the method of the class the
server's options construct for ``<key>`` (Apollo Server 2 / 3 ``dataSources`` option, Apollo Server 4
``context`` function), in another file than the resolver map; keys the server does not construct, a
``dataSources`` that is no resolver's context, and same-named methods of other classes stay unlinked."""

from __future__ import annotations

import hashlib

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import split_fixture


def _calls(fixture: str) -> list[tuple[str, str, int, str]]:
    """(caller, callee, line, resolution) of every CALLS edge, sorted."""
    extractions = []
    for path, source in split_fixture(fixture).items():
        ex = extractor_for_path(path)
        assert ex is not None
        data = source.encode()
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions)
    return sorted((e.src.removeprefix("t:"), e.dst.removeprefix("t:"), e.line, e.resolution)
                  for f in result.files for e in f.edges if e.kind == "CALLS")


def _not_by_name(calls: list[tuple[str, str, int, str]], callee_suffix: str) -> list[tuple[str, int]]:
    return [(src, line) for src, dst, line, how in calls if dst.endswith(callee_suffix) and how != "name"]


APOLLO3 = '''// --- path: server/src/datasources/launch.js ---
class LaunchAPI {
  async getAllLaunches() { return []; }
  async getLaunchById({ launchId }) { return launchId; }
}
module.exports = LaunchAPI;
// --- path: server/src/datasources/user.js ---
class UserAPI {
  constructor({ store }) { this.store = store; }
  async findOrCreateUser() { return null; }
  async getAllLaunches() { return []; }
}
module.exports = UserAPI;
// --- path: server/src/datasources/other.js ---
class OtherAPI {
  async getAllLaunches() { return []; }
}
module.exports = OtherAPI;
// --- path: server/src/index.js ---
const { ApolloServer } = require('apollo-server');
const resolvers = require('./resolvers');
const LaunchAPI = require('./datasources/launch');
const UserAPI = require('./datasources/user');
const store = {};
const dataSources = () => ({
  launchAPI: new LaunchAPI(),
  userAPI: new UserAPI({ store }),
});
const server = new ApolloServer({ typeDefs: '', resolvers, dataSources });
// --- path: server/src/resolvers.js ---
async function user(_, __, { dataSources }) {
  return dataSources.userAPI.findOrCreateUser();
}
const byId = (_, { id }, ctx) => ctx.dataSources.launchAPI.getLaunchById({ launchId: id });
module.exports = {
  Query: {
    launches: async (_, __, { dataSources }) => dataSources.launchAPI.getAllLaunches(),
    launch: (_, { id }, context) => context.dataSources.launchAPI.getLaunchById({ launchId: id }),
    me: async (_, __, { dataSources: ds }) => ds.userAPI.findOrCreateUser(),
    missing: async (_, __, { dataSources }) => dataSources.missingAPI.getAllLaunches(),
    two: (parent, args) => parent.dataSources.launchAPI.getLaunchById({}),
    user,
    byId: byId,
  },
};
// --- path: server/src/helpers.js ---
function notAResolver(dataSources) {
  return dataSources.launchAPI.getAllLaunches();
}
module.exports = { notAResolver };
'''


def test_apollo3_data_sources_bind_to_constructed_classes():
    calls = _calls(APOLLO3)
    bound = [(src, dst, line) for src, dst, line, how in calls if "datasources/" in dst and how != "name"]
    assert bound == [
        ("server/src/index.dataSources(0)", "server/src/datasources/launch.LaunchAPI", 7),
        ("server/src/index.dataSources(0)", "server/src/datasources/user.UserAPI.constructor(1)", 8),
        ("server/src/resolvers.Query.launch(3)", "server/src/datasources/launch.LaunchAPI.getLaunchById(1)", 8),
        ("server/src/resolvers.Query.launches(3)", "server/src/datasources/launch.LaunchAPI.getAllLaunches(0)", 7),
        ("server/src/resolvers.Query.me(3)", "server/src/datasources/user.UserAPI.findOrCreateUser(0)", 9),
        ("server/src/resolvers.byId(3)", "server/src/datasources/launch.LaunchAPI.getLaunchById(1)", 4),
        ("server/src/resolvers.user(3)", "server/src/datasources/user.UserAPI.findOrCreateUser(0)", 2),
    ]


def test_unknown_key_other_class_and_non_context_stay_unbound():
    calls = _calls(APOLLO3)
    # a key the server does not construct: no binding to any class's getAllLaunches
    assert [c for c in calls if c[0] == "server/src/resolvers.Query.missing(3)" and c[3] != "name"] == []
    # the same-named method of UserAPI / OtherAPI is never reached through launchAPI
    assert _not_by_name(calls, "OtherAPI.getAllLaunches") == []
    assert _not_by_name(calls, "UserAPI.getAllLaunches") == []
    # a parameter named dataSources outside a resolver, and a resolver's first argument, are no context
    assert [c for c in calls if c[0] in ("server/src/helpers.notAResolver(1)", "server/src/resolvers.Query.two(2)")
            and c[3] != "name"] == []


APOLLO4 = '''// --- path: a/src/launches.ts ---
export class LaunchAPI {
  constructor(opts: { cache: unknown }) {}
  getAllLaunches() { return []; }
}
// --- path: a/src/server.ts ---
import { ApolloServer } from '@apollo/server';
import { startStandaloneServer } from '@apollo/server/standalone';
import { LaunchAPI } from './launches';
import { resolvers } from './resolvers';
const server = new ApolloServer({ typeDefs: '', resolvers });
async function main() {
  const { url } = await startStandaloneServer(server, {
    context: async () => {
      const { cache } = server;
      return { dataSources: { launchAPI: new LaunchAPI({ cache }) } };
    },
  });
}
// --- path: a/src/resolvers.ts ---
export const resolvers = {
  Query: {
    launches: (_parent, _args, contextValue) => contextValue.dataSources.launchAPI.getAllLaunches(),
  },
};
// --- path: b/src/launches.ts ---
export class RocketAPI {
  getAllLaunches() { return []; }
}
// --- path: b/src/server.ts ---
import { ApolloServer } from '@apollo/server';
import { RocketAPI } from './launches';
import { resolvers } from './resolvers';
const dataSources = () => ({ launchAPI: new RocketAPI() });
export const server = new ApolloServer({ typeDefs: '', resolvers, dataSources });
// --- path: b/src/resolvers.ts ---
export const resolvers = {
  Query: {
    launches: (_, __, { dataSources }) => dataSources.launchAPI.getAllLaunches(),
    fromArgs: (_, { dataSources }) => dataSources.launchAPI.getAllLaunches(),
  },
  Launch: {
    __resolveReference: (ref, { dataSources }) => dataSources.launchAPI.getAllLaunches(),
  },
};
'''


def test_apollo4_context_and_nearest_server():
    calls = _calls(APOLLO4)
    bound = [(src, dst, line, how) for src, dst, line, how in calls if dst.endswith(".getAllLaunches(0)") and how != "name"]
    assert bound == [
        ("a/src/resolvers.Query.launches(3)", "a/src/launches.LaunchAPI.getAllLaunches(0)", 3, "inferred"),
        ("b/src/resolvers.Launch.__resolveReference(2)", "b/src/launches.RocketAPI.getAllLaunches(0)", 7, "inferred"),
        ("b/src/resolvers.Query.launches(3)", "b/src/launches.RocketAPI.getAllLaunches(0)", 3, "inferred"),
    ]
    # a field resolver's second argument is its arguments, not the context (`fromArgs`): not bound


TYPED = '''// --- path: src/launch.ts ---
export class LaunchAPI {
  getAllLaunches() { return []; }
}
// --- path: src/context.ts ---
import { LaunchAPI } from './launch';
export interface DataSources { launchAPI: LaunchAPI }
export interface Ctx { dataSources: DataSources }
// --- path: src/server.ts ---
import { ApolloServer } from '@apollo/server';
import { LaunchAPI } from './launch';
export class Other { getAllLaunches() { return []; } }
const server = new ApolloServer({ typeDefs: '', resolvers: {}, dataSources: () => ({ launchAPI: new LaunchAPI() }) });
// --- path: src/resolvers.ts ---
import { Ctx } from './context';
export const resolvers = {
  Query: {
    named: (_: unknown, __: unknown, ctx: Ctx) => ctx.dataSources.launchAPI.getAllLaunches(),
    destructured: (_: unknown, __: unknown, { dataSources }: Ctx) => dataSources.launchAPI.getAllLaunches(),
  },
};
'''


def test_typed_context_keeps_its_type_and_typed_pattern_binds_once():
    calls = _calls(TYPED)
    bound = [(src, dst, how) for src, dst, _, how in calls if src.startswith("src/resolvers.")]
    assert bound == [
        ("src/resolvers.Query.destructured(3)", "src/launch.LaunchAPI.getAllLaunches(0)", "inferred"),
        ("src/resolvers.Query.named(3)", "src/launch.LaunchAPI.getAllLaunches(0)", "exact"),
    ]
    # the server constructs another class: the declared type of `ctx` still decides, once
    other = _calls(TYPED.replace("launchAPI: new LaunchAPI()", "launchAPI: new Other()"))
    assert [(src, dst, how) for src, dst, _, how in other if src.startswith("src/resolvers.")] == [
        ("src/resolvers.Query.destructured(3)", "src/server.Other.getAllLaunches(0)", "inferred"),
        ("src/resolvers.Query.named(3)", "src/launch.LaunchAPI.getAllLaunches(0)", "exact"),
    ]


def test_extraction_records_objects_and_injected_parameters():
    files = split_fixture(APOLLO3)
    ex = extractor_for_path("server/src/index.js").extract("server/src/index.js", files["server/src/index.js"].encode())
    ds = sorted((b.name, b.type, b.how) for b in ex.bindings if b.scope == "ApolloServer$dataSources")
    assert ds == [("launchAPI", "LaunchAPI", "constructed"), ("userAPI", "UserAPI", "constructed")]
    rx = extractor_for_path("server/src/resolvers.js").extract("server/src/resolvers.js",
                                                                files["server/src/resolvers.js"].encode())
    injected = sorted((b.scope, b.name, b.type) for b in rx.bindings if b.how == "injected")
    assert injected == [
        ("Query.launch", "context", "ApolloServer$context"),
        ("Query.launches", "dataSources", "ApolloServer$dataSources"),
        ("Query.me", "ds", "ApolloServer$dataSources"),
        ("Query.missing", "dataSources", "ApolloServer$dataSources"),
        ("byId", "ctx", "ApolloServer$context"),
        ("user", "dataSources", "ApolloServer$dataSources"),
    ]


def test_server_file_edited_alone_relinks_the_resolvers(tmp_path) -> None:
    """The resolvers read the server file's data-source object: an edit of server/src/index.js alone
    (``launchAPI`` now an ``OtherAPI``, then the key dropped) re-binds resolvers.js as a full index does
    (Workspace compares the watcher's and a one-shot index with a full index after each edit)."""
    import sqlite3

    from tests.unit.test_incremental import Workspace

    def calls(db):
        con = sqlite3.connect(db)
        try:
            return sorted(d for (d,) in con.execute(
                "SELECT dst FROM edges WHERE kind = 'CALLS' AND src LIKE 'r:server/src/resolvers.Query.launches%' "
                "AND resolution != 'name'"))
        finally:
            con.close()

    files = split_fixture(APOLLO3)
    index = files["server/src/index.js"]
    ws = Workspace(tmp_path, files)
    try:
        assert calls(ws.db) == ["r:server/src/datasources/launch.LaunchAPI.getAllLaunches(0)"]
        other = index.replace("const UserAPI = require('./datasources/user');",
                              "const UserAPI = require('./datasources/user');\nconst OtherAPI = require('./datasources/other');")
        ws.edit({"server/src/index.js": other.replace("launchAPI: new LaunchAPI(),", "launchAPI: new OtherAPI(),")})
        assert calls(ws.db) == ["r:server/src/datasources/other.OtherAPI.getAllLaunches(0)"]
        ws.edit({"server/src/index.js": index.replace("  launchAPI: new LaunchAPI(),\n", "")})
        assert calls(ws.db) == []
    finally:
        ws.close()
