"""Ktor (acc62): ``webSocket("/x") { }`` / ``sse("/x") { }`` routes (served on a GET: the upgrade, the event
stream) and the Resources plugin's type-safe client (``client.get(Users.Id(id = 3))``) requesting the
resource class's path, linked to the routes. Exact edges and what must not be read: a client call inside a
route is no route, an upper-case constant stays a URL, a lower-case builder call is no resource, a lambda
handed to a verb is no resource."""

from tests.resolution_harness import edges, resolve_fixture

FIXTURE = """
// --- path: src/main/kotlin/app/Resources.kt ---
package app

import io.ktor.resources.*

@Resource("/users")
class Users {
    @Resource("{id}")
    class Id(val parent: Users = Users(), val id: Long)
}

@Resource("/health")
object Health
// --- path: src/main/kotlin/app/Server.kt ---
package app

import io.ktor.server.routing.*
import io.ktor.server.resources.*
import io.ktor.server.websocket.*
import io.ktor.server.sse.*

fun Route.api() {
    webSocket("/chat") { send("hi") }
    sse("/events") { send("e") }
    route("/live") {
        webSocketRaw("/raw") { }
    }
    get<Users.Id> { call.respondText("u") }
    get<Users> { call.respondText("all") }
    get<Health> { call.respondText("ok") }
}
// --- path: src/main/kotlin/app/Client.kt ---
package app

import io.ktor.client.*
import io.ktor.client.request.*
import io.ktor.client.plugins.resources.get
import io.ktor.client.plugins.websocket.*

const val URL = "/users"

suspend fun use(client: HttpClient) {
    client.get(Users.Id(id = 3))
    client.get(Users())
    client.get(Health)
    client.get(URL)
    client.get(build())
    client.webSocket("/chat") { }
}

suspend fun configured(base: HttpClient) {
    val client = base.config { }
    client.sse("/events") { }
    val other = Other()
    other.get("/live/raw")
}

class Other { fun get(path: String) = path }

fun build(): String = "/nothing"
"""


def test_sessions_are_routes_and_typed_requests_reach_them():
    result = resolve_fixture(FIXTURE)
    assert edges(result, "EXPOSES") == [
        "src/main/kotlin/app/Server.api.GET /chat() -> endpoint:GET /chat",
        "src/main/kotlin/app/Server.api.GET /events() -> endpoint:GET /events",
        "src/main/kotlin/app/Server.api.GET /live/raw() -> endpoint:GET /live/raw",
        "src/main/kotlin/app/Server.api.GET {Health}() -> endpoint:GET /health",
        "src/main/kotlin/app/Server.api.GET {Users.Id}() -> endpoint:GET /users/{}",
        "src/main/kotlin/app/Server.api.GET {Users}() -> endpoint:GET /users",
    ]
    # client.get(build()) requests nothing known: no edge; nor does `other.get(...)` of a declared class
    # that is no client. A client made by a call (`base.config { }`) is read by its name, as an undeclared one
    assert edges(result, "CALLS_HTTP") == [
        "src/main/kotlin/app/Client.configured(HttpClient) -> endpoint:GET /events",
        "src/main/kotlin/app/Client.use(HttpClient) -> endpoint:GET /chat",
        "src/main/kotlin/app/Client.use(HttpClient) -> endpoint:GET /health",
        "src/main/kotlin/app/Client.use(HttpClient) -> endpoint:GET /users",
        "src/main/kotlin/app/Client.use(HttpClient) -> endpoint:GET /users/{}",
    ]
