"""Middleware wrapping a route whose path is unknown wraps its handler (acc63b).

Since session 62 a route whose whole path is unknown values (an unresolved constant: outline's
``router.get(config.id, startOAuthFlow, async (ctx) => ...)`` of an OAuth plugin) exposes no ``GET /{}``
endpoint; its handler is an ``http`` entry point (an ENTRY self-edge). WRAPS edges went to endpoints
only, so the middleware written on such a route or registered on its router reached no handler:
``ripple impact startOAuthFlow`` listed nothing it runs for. Now it WRAPS the handler itself, under
the rules that hold for endpoints (Express registration order, methods), and never when the
registration is limited to a known path (``app.use("/api", mw)``: the unknown path may lie elsewhere).
"""

from analysis.impact import SymbolQuery, blast_radius
from tests.index_harness import index_files
from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
// --- path: src/server.js ---
import express from "express"
import { PATH, OTHER } from "some-lib"
const app = express()
const router = express.Router()
function startFlow(req, res, next) { next() }
function audit(req, res, next) { next() }
function late(req, res, next) { next() }
function apiOnly(req, res, next) { next() }
router.use(audit)
router.get(PATH, startFlow, (req, res) => res.send("x"))
router.post(OTHER, (req, res) => res.send("p"))
router.get("/known", (req, res) => res.send("k"))
router.use(late)
app.use("/api", apiOnly)
app.use(router)
// --- path: src/auth.ts ---
import Router from "koa-router"
import { provider } from "some-lib"
export async function startOAuthFlow(ctx, next) { await next() }
const router = new Router()
router.get(provider.id, startOAuthFlow, async (ctx) => { ctx.body = "ok" })
export default router
"""


def test_middleware_wraps_the_handler_of_a_route_of_unknown_path():
    result = resolve_fixture(FIXTURE)
    assert edges(result, "ENTRY") == [
        "src/auth.GET {provider.id}(1) -> src/auth.GET {provider.id}(1)",
        "src/server.GET {PATH}(2) -> src/server.GET {PATH}(2)",
        "src/server.POST {OTHER}(2) -> src/server.POST {OTHER}(2)",
    ]
    assert edges(result, "WRAPS") == [
        "src/auth.startOAuthFlow(2) -> src/auth.GET {provider.id}(1)",  # route-level, koa-router
        "src/server.audit(3) -> endpoint:GET /known",
        "src/server.audit(3) -> src/server.GET {PATH}(2)",  # router-level, registered before both
        "src/server.audit(3) -> src/server.POST {OTHER}(2)",
        "src/server.startFlow(3) -> src/server.GET {PATH}(2)",  # route-level: its own route only
    ]
    # not: `late` (registered after the routes), `apiOnly` (limited to /api: the unknown paths may lie
    # elsewhere); no endpoint made for the unknown paths
    wraps = edges(result, "WRAPS")
    assert not [w for w in wraps if w.startswith(("src/server.late", "src/server.apiOnly"))]
    assert [e for e in edges(result, "EXPOSES") if "{}" in e] == []


def test_the_blast_radius_of_such_middleware_reaches_the_handler_as_an_entry_point(tmp_path):
    store = index_files(tmp_path / "r", {"package.json": '{"name": "r"}',
                                         **{p: s for p, s in _files().items()}}, "r")
    try:
        report = blast_radius(store, SymbolQuery("startOAuthFlow"))
        assert [(e.node.qualname, e.kinds, e.hops) for e in report.entry_points] == [
            ("startOAuthFlow", ("middleware",), 0), ("GET {provider.id}", ("http",), 0)]
        assert report.endpoints == ()
        assert [(w.node.name, w.kind, w.endpoints) for w in report.wrappers] == [("startOAuthFlow", "middleware", ())]
        assert [(w.node.name, w.endpoints) for w in audit_wrappers(store)] == [("audit", ("endpoint:GET /known",))]
        audit = blast_radius(store, SymbolQuery("audit"))
        assert [(e.node.qualname, e.kinds) for e in audit.entry_points] == [
            ("audit", ("middleware",)), ("GET {PATH}", ("http",)), ("POST {OTHER}", ("http",))]
        assert [(h.http_method, h.path) for h in audit.endpoints] == [("GET", "/known")]
        late = blast_radius(store, SymbolQuery("late"))
        assert late.entry_points == () and late.endpoints == ()
    finally:
        store.close()


def audit_wrappers(store):
    return blast_radius(store, SymbolQuery("audit")).wrappers


def _files() -> dict[str, str]:
    from tests.resolution_harness import split_fixture
    return split_fixture(FIXTURE)
