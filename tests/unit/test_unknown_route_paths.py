"""A path of unknown values only names no endpoint, on either side (acc62): a client's URL that is nothing
but unknown pieces was already left unlinked (:func:`indexer.frameworks.clients.split_url`); a route whose
whole path is an unresolved constant (Ktor's ``get<T> {}`` of an unannotated class, Spring's
``@GetMapping(Paths.X)`` of a library, Express's ``app.get(PATH, h)`` of an import) exposed ``GET /{}``,
which every one-segment request of its file was linked to, and ``ripple callers "GET /anything"`` answered
with. Now the handler is an ``http`` entry point (an ENTRY self-edge) and no endpoint. Exact edges, and
what must stay: a route of declared parameters only (``/:slug``), a known prefix before an unknown path."""

from indexer.frameworks.clients import unknown_only
from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
// --- path: src/App.kt ---
package app
import io.ktor.server.routing.*
import io.ktor.server.resources.*
import io.ktor.client.*
import io.ktor.client.request.*

fun Route.routes() {
    get<Unknown> { call.respondText("x") }
    get("/known") { call.respondText("y") }
}

suspend fun client(c: HttpClient) {
    c.get("/users")
    c.get("/known")
}
// --- path: src/Ctl.java ---
package app;
import org.springframework.web.bind.annotation.*;
import lib.Paths;
@RestController
public class Ctl {
  @GetMapping(Paths.UNKNOWN)
  public String x() { return "x"; }
}
// --- path: src/server.js ---
import express from "express"
import { PATH } from "some-lib"
const app = express()
const router = express.Router()
app.get(PATH, (req, res) => res.send("x"))
app.get("/:slug", (req, res) => res.send("s"))
router.get(PATH, (req, res) => res.send("r"))
app.use("/api", router)
export function call() { return fetch("/orders") }
export function call2(u) { return fetch(u) }
"""


def test_unknown_only():
    assert unknown_only("\x00") and unknown_only("/{}") and unknown_only("/\x00/{}")
    assert not unknown_only("/") and not unknown_only("") and not unknown_only("/api/{}")
    assert not unknown_only("/{}/items")


def test_a_route_of_unknown_values_only_exposes_no_endpoint():
    result = resolve_fixture(FIXTURE)
    assert edges(result, "EXPOSES") == [
        "src/App.routes.GET /known() -> endpoint:GET /known",
        "src/server.GET /:slug(2) -> endpoint:GET /{}",  # declared parameters: a route of its own
        "src/server.GET {PATH} #2(2) -> endpoint:GET /api/{}",  # under a known prefix (the router's)
    ]
    assert edges(result, "ENTRY") == [
        "src/App.routes.GET {Unknown}() -> src/App.routes.GET {Unknown}()",
        "src/Ctl.Ctl.x() -> src/Ctl.Ctl.x()",
        "src/server.GET {PATH}(2) -> src/server.GET {PATH}(2)",
    ]
    # not: the Ktor client's /users to GET /{} (its file's unknown route); fetch(u) of an unknown URL.
    # The Express file's /orders goes to its own /:slug route, which serves it
    assert edges(result, "CALLS_HTTP") == [
        "src/App.client(HttpClient) -> endpoint:GET /known",
        "src/App.client(HttpClient) -> endpoint:GET /users",
        "src/server.call(0) -> endpoint:GET /{}",
    ]
