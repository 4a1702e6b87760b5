"""Kotlin framework detectors (issue 21 item 1): exact Route / TopicUse / HttpCall facts for Spring
controllers and Kafka (the JVM rules Java uses), Ktor routing and client, Retrofit; negative cases."""

from __future__ import annotations

import textwrap

from indexer.languages.kotlin.extractor import EXTRACTOR
from indexer.model import FileExtraction, HttpCall, Template


def extract(code: str) -> FileExtraction:
    return EXTRACTOR.extract("src/App.kt", textwrap.dedent(code).lstrip("\n").encode("utf-8"))


def routes(fx: FileExtraction) -> list[tuple]:
    return [(r.framework, r.methods, r.path, r.handler, r.line, r.col) for r in fx.routes]


def test_spring_controller_routes_with_class_prefix_arrays_and_methods() -> None:
    fx = extract("""
        @RestController
        @RequestMapping("/api/orders")
        class OrderController(private val svc: Svc) {
            @GetMapping("/{id}")
            fun get(@PathVariable id: Long) = svc.find(id)

            @PostMapping
            fun create(@RequestBody o: Dto) = svc.place(o)

            @RequestMapping(value = ["/a", "/b"], method = [RequestMethod.PUT, RequestMethod.PATCH])
            fun both() = Unit

            @DeleteMapping(path = [Paths.ONE])
            fun remove() = Unit
        }

        class NotAController {
            @GetMapping("/x") fun x() = 1
        }
    """)
    assert routes(fx) == [
        ("spring", ["GET"], Template.of("/api/orders/{id}"), "OrderController.get", 4, 5),
        ("spring", ["POST"], Template.of("/api/orders"), "OrderController.create", 7, 5),
        ("spring", ["PUT", "PATCH"], Template.of("/api/orders/a"), "OrderController.both", 10, 5),
        ("spring", ["PUT", "PATCH"], Template.of("/api/orders/b"), "OrderController.both", 10, 5),
        # a constant is appended as it is (Java's rule: its value may start with "/")
        ("spring", ["DELETE"], Template((("lit", "/api/orders"), ("ref", "Paths.ONE"))), "OrderController.remove",
         13, 5),
    ]


def test_kafka_listener_topics_and_template_sends_by_declared_type() -> None:
    fx = extract("""
        @Service
        class Orders(private val kafka: KafkaTemplate<String, String>, private val other: Sender) {
            @KafkaListener(topics = ["orders", "returns"], groupId = "g")
            fun onOrder(msg: String) = Unit

            @KafkaListener(topics = "\\${app.topic}")
            fun onConfigured(msg: String) = Unit

            fun place(id: String) {
                kafka.send("orders.placed", id)
                other.send("not-kafka", id)
                kafkaTemplate.send(TOPIC, id)
            }
        }
    """)
    assert [(t.role, t.topic, t.owner, t.line, t.col) for t in fx.topics] == [
        ("consumes", Template.of("orders"), "Orders.onOrder", 3, 5),
        ("consumes", Template.of("returns"), "Orders.onOrder", 3, 5),
        ("consumes", Template.of("${app.topic}"), "Orders.onConfigured", 6, 5),
        ("produces", Template.of("orders.placed"), "Orders.place", 10, 14),
        ("produces", Template((("ref", "TOPIC"),)), "Orders.place", 12, 22),  # no declared type: by its name
    ]
    assert all(t.framework == "spring-kafka" and t.broker == "kafka" for t in fx.topics)


def test_ktor_nested_routes_get_full_paths_and_handler_functions() -> None:
    fx = extract("""
        fun Application.module(repo: Repo) {
            routing {
                get("/health") { call.respondText("ok") }
                route("/api") {
                    route("/users") {
                        get { call.respond(repo.all()) }
                        post("/{id}") { repo.save(call.receive()) }
                    }
                }
            }
        }

        fun Route.orders(svc: Svc) {
            delete("/orders/{id}") { svc.remove() }
        }

        fun notRouting() { get("/x") { } }
    """)
    assert routes(fx) == [
        ("ktor", ["GET"], Template.of("/health"), "module.GET /health", 3, 8),
        ("ktor", ["GET"], Template.of("/api/users"), "module.GET /api/users", 6, 16),
        ("ktor", ["POST"], Template.of("/api/users/{id}"), "module.POST /api/users/{id}", 7, 16),
        ("ktor", ["DELETE"], Template.of("/orders/{id}"), "orders.DELETE /orders/{id}", 14, 4),
    ]
    owners = {(c.name, c.receiver): c.caller for c in fx.calls}
    assert owners[("all", "repo")] == "module.GET /api/users"
    assert owners[("save", "repo")] == "module.POST /api/users/{id}"
    assert owners[("remove", "svc")] == "orders.DELETE /orders/{id}"
    assert owners[("routing", None)] == "module"  # the registration itself stays with the function
    handler = next(d for d in fx.definitions if d.qualname == "module.GET /health")
    assert (handler.kind, handler.parent, handler.start_line, handler.start_col) == ("function", "module", 3, 23)


def test_retrofit_interface_and_ktor_client_calls() -> None:
    fx = extract("""
        interface UserApi {
            @GET("users/{id}")
            suspend fun user(@Path("id") id: Long): User

            @HTTP(method = "DELETE", path = "users/{id}")
            fun drop(id: Long)

            fun notHttp(): Int

            @RequestLine("POST /api/profiles/{username}/follow")
            fun follow(@Param("username") username: String): Profile
        }

        class Gateway(private val client: HttpClient, private val cache: Map<String, String>) {
            suspend fun load(id: Long) {
                client.get("$BASE/api/orders/$id")
                client.post("/api/orders") { setBody(id) }
                client.request("/api/stock") { method = HttpMethod.Put }
                cache.get("key")
            }
        }
    """)
    assert fx.http_calls == [
        HttpCall("retrofit", "GET", Template.of("users/{id}"), "UserApi.user", 2, 5),
        HttpCall("retrofit", "DELETE", Template.of("users/{id}"), "UserApi.drop", 5, 5),
        HttpCall("feign", "POST", Template.of("/api/profiles/{username}/follow"), "UserApi.follow", 10, 5),
        HttpCall("ktor-client", "GET", Template((("ref", "BASE"), ("lit", "/api/orders/"), ("ref", "id"))),
                 "Gateway.load", 16, 15),
        HttpCall("ktor-client", "POST", Template.of("/api/orders"), "Gateway.load", 17, 15),
        HttpCall("ktor-client", "PUT", Template.of("/api/stock"), "Gateway.load", 18, 15),
    ]  # cache.get: a Map, no client


def test_spring_jdbc_sql_from_strings_raw_strings_and_local_vals() -> None:
    """Kotlin JdbcTemplate code (sunabak0/realworld-kotlin-springboot-jdbc): the SQL of a string, of a
    raw string with its ``.trimIndent()``, of a local ``val`` holding one; never a call on another
    type, a ``var``, nor a value computed otherwise."""
    fx = extract('''
        @Repository
        class ProfileRepositoryImpl(val jdbc: NamedParameterJdbcTemplate, val cache: Cache) {
            fun show(name: String): List<Map<String, Any>> {
                val rows = jdbc.queryForList(
                    """
                        SELECT users.id FROM users WHERE users.username = :username
                    """.trimIndent(),
                    MapSqlParameterSource()
                )
                val sql = "DELETE FROM followings WHERE follower_id = :id"
                jdbc.update(sql, MapSqlParameterSource())
                var changing = "DELETE FROM users"
                jdbc.update(changing, MapSqlParameterSource())
                jdbc.update(build(), MapSqlParameterSource())
                cache.update("DELETE FROM profiles", 1)
                return rows
            }
        }
    ''')
    assert [(u.framework, u.role, u.owner, u.line, u.col, u.sql) for u in fx.table_uses] == [
        ("jdbc", "sql", "ProfileRepositoryImpl.show", 4, 24, Template.of(
            "\n                SELECT users.id FROM users WHERE users.username = :username\n            ")),
        ("jdbc", "sql", "ProfileRepositoryImpl.show", 11, 13,
         Template.of("DELETE FROM followings WHERE follower_id = :id")),
    ]  # not `changing` (a var), build() (unknown), cache.update (a Cache)


def test_spring_jdbc_statements_read_and_write_their_tables() -> None:
    """The linker parses the Kotlin SQL as Java's: an ``INSERT ... SELECT`` writes ``followings`` and
    reads ``users``; the unrelated ``Cache.update`` names no table."""
    from tests.resolution_harness import edges, resolve_fixture

    fixture = '''
// --- path: src/main/kotlin/infra/ProfileRepositoryImpl.kt ---
package infra

class ProfileRepositoryImpl(val jdbc: NamedParameterJdbcTemplate, val cache: Cache) {
    fun follow(id: Int) {
        val sql = """
            INSERT INTO followings (following_id, follower_id) SELECT users.id, :id FROM users
        """.trimIndent()
        jdbc.update(sql, MapSqlParameterSource())
        cache.update("DELETE FROM profiles", 1)
    }
}
'''
    result = resolve_fixture(fixture)
    follow = "src/main/kotlin/infra/ProfileRepositoryImpl.ProfileRepositoryImpl.follow(Int)"
    assert edges(result, "READS") == [f"{follow} -> table:t:.users"]
    assert edges(result, "WRITES") == [f"{follow} -> table:t:.followings"]  # not profiles
