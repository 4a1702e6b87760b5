"""koa-router prefixes (``require("koa-router")()``, ``router.prefix("/x")``) and routers mounted by a
loop over a list literal (``for (const r of routers) app.use(r.routes())``, ``[a, b].forEach((r) =>
app.use("/api", r))``), Koa and Express: the exact endpoints each handler exposes, with negative cases
(a ``for ... in`` loop, a list that is no literal)."""

from __future__ import annotations


import pytest

from indexer.languages import extractor_for_path
from indexer.model import Template
from tests.golden.harness import edge_rows

FILES = {
    "koa/routes/users.js": """\
const router = require('koa-router')();
router.prefix('/users');
router.get('/:id', async (ctx) => { ctx.body = {}; });
module.exports = router;
""",
    "koa/routes/posts.js": """\
const Router = require('@koa/router');
const router = new Router();
router.prefix('/posts');
router.post('/', async (ctx) => { ctx.body = {}; });
module.exports = router;
""",
    "koa/app.js": """\
const Koa = require('koa');
const users = require('./routes/users');
const posts = require('./routes/posts');
const Router = require('koa-router');
const app = new Koa();
const api = new Router({ prefix: '/api' });
const routers = [users, posts];
for (const r of routers) {
  api.use(r.routes());
}
app.use(api.routes());
""",
    "web/routes/a.js": """\
const router = require('express').Router();
router.get('/a', function listA(req, res) { res.json([]); });
module.exports = router;
""",
    "web/routes/b.js": """\
const express = require('express');\nconst router = express.Router();
router.get('/b', function listB(req, res) { res.json([]); });
module.exports = router;
""",
    "web/routes/c.js": """\
const express = require('express');\nconst router = express.Router();
router.get('/c', function listC(req, res) { res.json([]); });
module.exports = router;
""",
    "web/routes/d.js": """\
const express = require('express');\nconst router = express.Router();
router.get('/d', function listD(req, res) { res.json([]); });
module.exports = router;
""",
    "web/app.js": """\
const express = require('express');
const a = require('./routes/a');
const b = require('./routes/b');
const c = require('./routes/c');
const d = require('./routes/d');
const app = express();
[a, b].forEach((r) => app.use('/api', r));
const table = { c };
for (const k in table) app.use('/in', k);
load().forEach(function (r) { app.use('/dyn', r); });
""",
}


@pytest.fixture(scope="module")
def endpoints(tmp_path_factory):
    root = tmp_path_factory.mktemp("koa") / "app"
    rows = [(src, dst) for src, dst, _, _ in edge_rows(root, FILES, "EXPOSES")]
    return sorted((dst.removeprefix("endpoint:"), src.split(":", 1)[1].split("(")[0]) for src, dst in rows)


def test_koa_router_prefix_facts() -> None:
    ex = extractor_for_path("r.js")
    assert ex is not None
    out = ex.extract("r.js", FILES["koa/routes/users.js"].encode())
    assert [(r.name, r.prefix) for r in out.routers] == [("router", Template.of("/users"))]
    out = ex.extract("r.js", b"const Router = require('koa-router');\nconst r = new Router({ prefix: '/a' });\n"
                             b"r.prefix('/b');\nother.prefix('/c');\n")
    assert [(r.name, r.prefix) for r in out.routers] == [("r", Template.of("/b"))]  # the last written


def test_prefixed_and_looped_routers(endpoints) -> None:
    assert endpoints == [
        ("GET /api/a", "web/routes/a.GET /a"),  # [a, b].forEach(r => app.use('/api', r))
        ("GET /api/b", "web/routes/b.GET /b"),
        ("GET /api/users/{}", "koa/routes/users.GET /:id"),  # for (const r of routers) api.use(r.routes())
        ("GET /c", "web/routes/c.GET /c"),  # for ... in: keys, not the routers; not mounted at /in
        ("GET /d", "web/routes/d.GET /d"),  # load().forEach: no list literal, not mounted at /dyn
        ("POST /api/posts", "koa/routes/posts.POST /"),
    ]
