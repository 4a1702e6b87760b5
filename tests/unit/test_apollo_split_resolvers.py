"""Apollo resolver maps assembled from other files (session 67, acc67c): a resolvers file named after a type
exporting its resolvers (``resolvers/Query.js``: ``module.exports = { feed }``, howtographql's layout), an exported
object named after a type (``export const User = {...}``), a map of the file's own objects (``{ Query, Mutation }``)
are resolvers of those types, and their context parameter gets the data-source binding of the server's options, as an
inline map's does. Negatives: a helper file under ``resolvers/`` not named after a type, an object with a value that
is no function, a file named ``Query.js`` outside any resolvers folder."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import split_fixture
from tests.unit.test_apollo_data_sources import _calls

FIXTURE = '''// --- path: src/datasources/link.js ---
class LinkAPI {
  all() { return []; }
  create(a) { return a; }
  byUser(id) { return []; }
  votes(id) { return []; }
}
module.exports = { LinkAPI };
// --- path: src/index.js ---
const { ApolloServer } = require('apollo-server');
const Query = require('./resolvers/Query');
const Mutation = require('./resolvers/Mutation');
const { User } = require('./resolvers/User');
const Link = require('./resolvers/Link').default;
const { LinkAPI } = require('./datasources/link');
const server = new ApolloServer({
  typeDefs: '',
  resolvers: { Query, Mutation, User, Link },
  dataSources: () => ({ linkAPI: new LinkAPI() }),
});
// --- path: src/resolvers/Query.js ---
function feed(parent, args, context) {
  return context.dataSources.linkAPI.all();
}
module.exports = {
  feed,
};
// --- path: src/resolvers/Mutation.js ---
async function post(parent, args, { dataSources }) {
  return dataSources.linkAPI.create(args);
}
module.exports = { post, LIMIT: 10 };
// --- path: src/resolvers/User.js ---
export const User = {
  links: (parent, args, { dataSources: ds }) => ds.linkAPI.byUser(parent.id),
};
export const format = { date: (d) => String(d) };
// --- path: src/resolvers/Link.js ---
const Link = { votes(parent, _, ctx) { return ctx.dataSources.linkAPI.votes(parent.id); } };
const Vote = { link: (parent) => parent.link };
export default { Link, Vote };
// --- path: src/resolvers/Vote.ts ---
export async function user(parent, _, { dataSources }) { return dataSources.linkAPI.byUser(parent.userId); }
export const ORDER = 1;
// --- path: src/resolvers/helpers.js ---
module.exports = { paginate: (items, n) => items.slice(0, n) };
// --- path: src/resolvers/format.ts ---
export function format(d, a, ctx) { return ctx.dataSources.linkAPI.votes(d); }
// --- path: lib/Query.js ---
module.exports = { all: (a, b, c) => c.dataSources.linkAPI.all() };
'''


def _routes() -> list[tuple[str, str, str, str | None]]:
    out = []
    for path, source in split_fixture(FIXTURE).items():
        ex = extractor_for_path(path).extract(path, source.encode())
        out += [(path, r.methods[0], r.path.parts[0][1], r.handler) for r in ex.routes if r.framework == "apollo"]
    return sorted(out)


def test_resolvers_of_other_files_are_routes() -> None:
    assert _routes() == [
        ("src/resolvers/Link.js", "FIELD", "Link.votes", "Link.votes"),
        ("src/resolvers/Link.js", "FIELD", "Vote.link", "Vote.link"),
        ("src/resolvers/Query.js", "QUERY", "Query.feed", "feed"),
        ("src/resolvers/User.js", "FIELD", "User.links", "User.links"),
        ("src/resolvers/Vote.ts", "FIELD", "Vote.user", "user"),  # an ES module's exported function
    ]  # Mutation.js exports a number too: no map; helpers.js, format.ts and lib/Query.js: no type's resolvers


def test_their_context_gets_the_servers_data_sources() -> None:
    calls = [c for c in _calls(FIXTURE) if "LinkAPI." in c[1]]
    assert calls == [
        ("lib/Query.all(3)", "src/datasources/link.LinkAPI.all(0)", 1, "name"),  # no resolver: by name only
        ("src/resolvers/Link.Link.votes(3)", "src/datasources/link.LinkAPI.votes(1)", 1, "inferred"),
        ("src/resolvers/Mutation.post(3)", "src/datasources/link.LinkAPI.create(1)", 2, "name"),  # no map: by name
        ("src/resolvers/Query.feed(3)", "src/datasources/link.LinkAPI.all(0)", 2, "inferred"),
        ("src/resolvers/User.User.links(3)", "src/datasources/link.LinkAPI.byUser(1)", 2, "inferred"),
        ("src/resolvers/Vote.user(3)", "src/datasources/link.LinkAPI.byUser(1)", 1, "inferred"),
        ("src/resolvers/format.format(3)", "src/datasources/link.LinkAPI.votes(1)", 1, "name"),  # no resolver
    ]
