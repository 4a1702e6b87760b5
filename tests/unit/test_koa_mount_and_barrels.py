"""koa-mount (``app.use(mount("/api", api))``) mounts an exported module-level Koa application under
its prefix, and a router imported through a barrel module (``index.ts`` holding ``export { default }
from "./stars"``) is the module's own router: exact EXPOSES and WRAPS, and what must not be linked
(a wrapper registered after the mount, a name the barrel does not re-export)."""

from __future__ import annotations

from indexer.languages import extractor_for_path
from tests.resolution_harness import edges, resolve_fixture

APP = """
// --- path: server/services/web.ts ---
import Koa from "koa";
import mount from "koa-mount";
import api from "../routes/api";
import pages from "../routes/pages";
import { attachCSRFToken } from "../middlewares/csrf";
export default function init(app: Koa = new Koa()) {
  app.use(mount("/api", api));
  app.use(attachCSRFToken());
  app.use(mount(pages));
  return app;
}
// --- path: server/middlewares/csrf.ts ---
export function attachCSRFToken() {
  return async function attachCSRFTokenMiddleware(ctx, next) { await next(); };
}
// --- path: server/routes/api/index.ts ---
import Koa from "koa";
import Router from "koa-router";
import apiResponse from "./middlewares/apiResponse";
import stars from "./stars";
import users from "./users";
const api = new Koa<AppState, AppContext>();
const router = new Router();
api.use(apiResponse());
router.use("/", stars.routes());
router.use("/", users.routes());
api.use(router.routes());
export default api;
// --- path: server/routes/api/middlewares/apiResponse.ts ---
export default function apiResponse() {
  return async function apiResponseMiddleware(ctx, next) { await next(); };
}
// --- path: server/routes/api/stars/index.ts ---
export { default } from "./stars";
// --- path: server/routes/api/stars/stars.ts ---
import Router from "koa-router";
const router = new Router();
router.post("stars.create", async (ctx) => { ctx.body = {}; });
export default router;
// --- path: server/routes/api/users/index.ts ---
export * from "./users";
// --- path: server/routes/api/users/users.ts ---
import Router from "koa-router";
const router = new Router();
router.post("users.list", async (ctx) => { ctx.body = []; });
export default router;
// --- path: server/routes/pages.ts ---
import Router from "koa-router";
const router = new Router();
router.get("/home", async (ctx) => { ctx.body = "home"; });
export default router;
"""


def test_koa_mount_prefixes_an_exported_koa_app_and_barrels_reach_their_router() -> None:
    r = resolve_fixture(APP)
    assert edges(r, "EXPOSES") == [
        "server/routes/api/stars/stars.POST stars.create(1) -> endpoint:POST /api/stars.create",
        "server/routes/api/users/users.POST users.list(1) -> endpoint:POST /users.list",
        "server/routes/pages.GET /home(1) -> endpoint:GET /home",
    ]  # users: `export *` never re-exports a default (ECMA-262), so that mount links nothing: its own path
    assert edges(r, "WRAPS") == [
        "server/middlewares/csrf.attachCSRFToken(0) -> endpoint:GET /home",  # registered before `mount(pages)`
        "server/middlewares/csrf.attachCSRFToken.attachCSRFTokenMiddleware(2) -> endpoint:GET /home",
        "server/routes/api/middlewares/apiResponse.apiResponse(0) -> endpoint:POST /api/stars.create",
        "server/routes/api/middlewares/apiResponse.apiResponse.apiResponseMiddleware(2) -> endpoint:POST /api/stars.create",
    ]  # not: attachCSRFToken -> /api/stars.create (registered after the mount: Koa runs in order)


def test_only_an_exported_module_level_koa_app_is_a_router() -> None:
    src = b'import Koa from "koa";\nconst api = new Koa();\nconst inner = new Koa();\nexport default api;\n'
    ex = extractor_for_path("a.ts").extract("a.ts", src)
    assert [r.name for r in ex.routers] == ["api"]  # not `inner`: nothing can mount it from elsewhere


WRAPPED = """
// --- path: server/commands/documentMover.ts ---
import { traceFunction } from "../logging/tracing";
async function documentMover(ctx, props) { return props; }
export default traceFunction({ spanName: "documentMover" })(documentMover);
// --- path: server/commands/index.ts ---
export { default as documentMover } from "./documentMover";
// --- path: server/logging/tracing.ts ---
export function traceFunction(options) { return (f) => f; }
// --- path: server/store.ts ---
import reducer from "./reducer";
export default makeStore(reducer);
// --- path: server/reducer.ts ---
export default function reducer(state) { return state; }
// --- path: server/tasks/DetachTask.ts ---
import documentMover from "../commands/documentMover";
import { documentMover as moved } from "../commands";
import store from "../store";
export async function perform(ctx) {
  await documentMover(ctx, {});
  await moved(ctx, {});
  store(ctx);
}
"""


def test_a_default_export_wrapping_a_function_of_the_file_is_that_function() -> None:
    r = resolve_fixture(WRAPPED)
    calls = [e for e in edges(r, "CALLS") if e.startswith("server/tasks/")]
    assert calls == [
        "server/tasks/DetachTask.perform(1) -> server/commands/documentMover.documentMover(2) [exact]",
    ]
    lines = sorted(e.line for f in r.files for e in f.edges if e.kind == "CALLS" and e.dst.endswith("documentMover(2)"))
    assert lines == [5, 6]  # both imports (direct, and through the barrel); not `store(ctx)` -> reducer: `makeStore(reducer)`
    # wraps an imported name, no function of its file
