"""Routers mounted by a loop over a list of object literals (a route table): ``routes.forEach((r) =>
router.use(r.path, r.route))``, ``for (const { prefix, router } of mounts) api.use(prefix,
router.routes())``: each element's router gets the element's prefix, and no other element's. Negative
cases: an element without the property, an element that is no object literal, a list that is no
literal, a ``for ... in`` loop."""

from __future__ import annotations


import pytest

from tests.golden.harness import edge_rows


def _router(name: str, path: str) -> str:
    return f"""\
const express = require('express');
const router = express.Router();
router.get('{path}', function {name}(req, res) {{ res.json([]); }});
module.exports = router;
"""


FILES = {
    **{f"web/routes/{n}.route.js": _router(n, p) for n, p in (
        ("login", "/login"), ("listUsers", "/"), ("docs", "/"), ("orphan", "/o"), ("keyed", "/k"),
        ("dynamic", "/dyn"), ("shorthand", "/s"), ("plain", "/p"))},
    "web/routes/index.js": """\
const express = require('express');
const authRoute = require('./login.route');
const userRoute = require('./listUsers.route');
const docsRoute = require('./docs.route');
const orphanRoute = require('./orphan.route');
const keyedRoute = require('./keyed.route');
const dynamicRoute = require('./dynamic.route');
const route = require('./shorthand.route');
const plainRoute = require('./plain.route');

const router = express.Router();

const defaultRoutes = [
  { path: '/auth', route: authRoute },
  { path: '/users', route: userRoute },
  { route: orphanRoute },
  plainRoute,
  { path: '/short', route },
];
const devRoutes = [{ 'path': '/docs', route: docsRoute }];

defaultRoutes.forEach((r) => {
  router.use(r.path, r.route);
});
for (const { path, route: mounted } of devRoutes) router.use(path, mounted);
const table = { '/keyed': keyedRoute };
for (const k in table) router.use(k, table[k]);
loadRoutes().forEach((r) => router.use(r.path, r.route));
router.use('/dyn', dynamicRoute);

module.exports = router;
""",
    "web/app.js": """\
const express = require('express');
const routes = require('./routes');
const app = express();
app.use('/v1', routes);
""",
    "koa/users.js": """\
const Router = require('@koa/router');
const router = new Router();
router.get('/:id', async function showUser(ctx) { ctx.body = {}; });
module.exports = router;
""",
    "koa/posts.js": """\
const Router = require('@koa/router');
const router = new Router();
router.post('/', async function createPost(ctx) { ctx.body = {}; });
module.exports = router;
""",
    "koa/app.js": """\
const Koa = require('koa');
const Router = require('@koa/router');
const users = require('./users');
const posts = require('./posts');
const app = new Koa();
const api = new Router();
const mounts = [{ prefix: '/users', router: users }, { prefix: '/posts', router: posts }];
for (const { prefix, router } of mounts) {
  api.use(prefix, router.routes());
}
app.use(api.routes());
""",
}


@pytest.fixture(scope="module")
def endpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("tables") / "app"
    rows = [(src, dst) for src, dst, _, _ in edge_rows(root, FILES, "EXPOSES")]
    return sorted((dst.removeprefix("endpoint:"), src.split(":", 1)[1].split("(")[0]) for src, dst in rows)


def test_each_element_mounts_its_router_at_its_prefix(endpoints) -> None:
    assert endpoints == [
        ("GET /k", "web/routes/keyed.route.GET /k"),  # for ... in: keys, not mounted at /v1/keyed
        ("GET /o", "web/routes/orphan.route.GET /o"),  # an element without `path`: left out
        ("GET /p", "web/routes/plain.route.GET /p"),  # an element that is no object literal: left out
        ("GET /users/{}", "koa/users.GET /:id"),  # for (const { prefix, router } of mounts) ... router.routes()
        ("GET /v1/auth/login", "web/routes/login.route.GET /login"),  # { path: '/auth', route: authRoute }
        ("GET /v1/docs", "web/routes/docs.route.GET /"),  # for (const { path, route: mounted } of devRoutes)
        ("GET /v1/dyn/dyn", "web/routes/dynamic.route.GET /dyn"),  # loadRoutes(): no literal; only '/dyn'
        ("GET /v1/short/s", "web/routes/shorthand.route.GET /s"),  # { path: '/short', route } (shorthand)
        ("GET /v1/users", "web/routes/listUsers.route.GET /"),  # only its own prefix: no /v1/auth/ (no cross product)
        ("POST /posts", "koa/posts.POST /"),
    ]
