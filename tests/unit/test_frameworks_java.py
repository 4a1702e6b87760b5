"""Unit tests for the Java framework detectors (:mod:`indexer.languages.java.frameworks.spring_web`, ``jaxrs``,
``servlet``, ``java_http_clients``, ``spring_kafka``, ``java_constants``) and the Spring
configuration reader (:mod:`indexer.frameworks.spring_config`): exact facts on small sources."""

from __future__ import annotations

import time

import textwrap
from pathlib import Path

import pytest

from indexer.languages.java.frameworks import detectors_for
from indexer.languages.java.frameworks.common import join_path, rooted
from indexer.frameworks.spring_config import load_properties, resolve_placeholders
from indexer.languages.java import EXTRACTOR
from indexer.model import FileExtraction, HttpCall, Route, StringConstant, Template, TopicUse


def extract(code: str) -> FileExtraction:
    """Extract a dedented inline source; no detector may have failed."""
    fx = EXTRACTOR.extract("src/Example.java", textwrap.dedent(code).lstrip("\n").encode("utf-8"))
    assert [e for e in fx.errors if "detector" in e or "internal" in e] == []
    return fx


def T(*parts: tuple[str, str] | str) -> Template:
    """Template from pieces: a plain string is a literal."""
    return Template(tuple(("lit", p) if isinstance(p, str) else p for p in parts))


def ref(text: str) -> tuple[str, str]:
    return ("ref", text)


def hole(text: str) -> tuple[str, str]:
    return ("hole", text)


def test_java_detectors_registered_in_order() -> None:
    names = [m.__name__.rsplit(".", 1)[1] for m in detectors_for("java")]
    assert names == ["spring_web", "spring_functional", "spring_gateway", "jaxrs", "servlet", "spring_wrappers", "java_http_clients", "apache_http_clients",
                     "spring_test_clients", "spring_kafka", "kafka_clients", "kafka_streams", "spring_rabbit", "spring_jms", "paho_java", "spring_cloud_stream", "spring_sqs", "eventuate",
                     "grpc_java", "spring_graphql", "dgs", "graphql_java", "graphql_clients_java", "spring_boot_runners",
                     "jvm_entries", "openapi_generated", "java_constants", "jpa_data", "jooq", "url_builders", "arg_calls"]


# --- Spring MVC / WebFlux -------------------------------------------------------------------------

SPRING = """
@RestController
@RequestMapping({"/api", Paths.V2})
class OwnerController {
    static final String BASE = "/owners";

    @GetMapping(BASE + "/{ownerId}")
    Owner show(@PathVariable int ownerId) { return null; }

    @PostMapping(path = {"new", "/create"})
    void create() {}

    @RequestMapping(value = "/x", method = {RequestMethod.GET, RequestMethod.POST})
    void x() {}

    @RequestMapping
    void any() {}

    @DeleteMapping
    void drop() {}

    @org.springframework.web.bind.annotation.PatchMapping(value = "/p")
    void patch() {}
}

@Controller
class Plain {
    @RequestMapping(path = "/legacy", method = PUT)
    String legacy() { return "view"; }
}

@RequestMapping(value = "/v1", method = RequestMethod.GET)
class NoStereotype {
    @PostMapping("items") void post() {}
}

class NotAController {
    @GetMapping("/ignored") void f() {}
}

interface Api {
    @GetMapping("/interface") void g();
}
"""


def test_spring_routes_exact() -> None:
    fx = extract(SPRING)
    api, v2 = "/api", ref("Paths.V2")
    C = "OwnerController"
    assert fx.routes == [
        Route("spring", ["GET"], T(api, ref("BASE"), "/{ownerId}"), f"{C}.show", 6, 5),
        Route("spring", ["GET"], T(v2, ref("BASE"), "/{ownerId}"), f"{C}.show", 6, 5),
        Route("spring", ["POST"], T("/api/new"), f"{C}.create", 9, 5),
        Route("spring", ["POST"], T("/api/create"), f"{C}.create", 9, 5),
        Route("spring", ["POST"], T(v2, "/new"), f"{C}.create", 9, 5),
        Route("spring", ["POST"], T(v2, "/create"), f"{C}.create", 9, 5),
        Route("spring", ["GET", "POST"], T("/api/x"), f"{C}.x", 12, 5),
        Route("spring", ["GET", "POST"], T(v2, "/x"), f"{C}.x", 12, 5),
        Route("spring", ["*"], T(api), f"{C}.any", 15, 5),
        Route("spring", ["*"], T(v2), f"{C}.any", 15, 5),
        Route("spring", ["DELETE"], T(api), f"{C}.drop", 18, 5),
        Route("spring", ["DELETE"], T(v2), f"{C}.drop", 18, 5),
        Route("spring", ["PATCH"], T("/api/p"), f"{C}.patch", 21, 5),  # at the qualified name
        Route("spring", ["PATCH"], T(v2, "/p"), f"{C}.patch", 21, 5),
        Route("spring", ["PUT"], T("/legacy"), "Plain.legacy", 27, 5),
        # class-level @RequestMapping(method = GET) is united with the method's own
        Route("spring", ["POST", "GET"], T("/v1/items"), "NoStereotype.post", 33, 5),
    ]


def test_spring_relative_method_path_without_class_prefix_is_rooted() -> None:
    fx = extract(
        """
        @RestController
        class Visits {
            @GetMapping("owners/*/pets/{petId}/visits") void read() {}
            @GetMapping void root() {}
            @GetMapping(Paths.OWNERS) void constant() {}
        }
        """
    )
    assert fx.routes == [
        Route("spring", ["GET"], T("/owners/*/pets/{petId}/visits"), "Visits.read", 3, 5),
        Route("spring", ["GET"], T("/"), "Visits.root", 4, 5),
        Route("spring", ["GET"], T(ref("Paths.OWNERS")), "Visits.constant", 5, 5),
    ]


def test_path_helpers() -> None:
    assert join_path(T("/owners"), T("{id}")) == T("/owners/{id}")
    assert join_path(T("/api/"), T("/x")) == T("/api/x")
    assert join_path(T("/api/"), T("x")) == T("/api/x")
    assert join_path(T(ref("BASE")), T("x")) == T(ref("BASE"), "/x")
    assert join_path(T(ref("BASE")), T("?q=1")) == T(ref("BASE"), "?q=1")
    assert join_path(T("/a"), T(ref("B"))) == T("/a", ref("B"))
    assert join_path(T(), T("x")) == T("x")
    assert join_path(T("http://h"), T()) == T("http://h")
    assert rooted(T()) == T("/")
    assert rooted(T("x")) == T("/x")
    assert rooted(T(ref("P"), "/x")) == T(ref("P"), "/x")


# --- JAX-RS and servlets --------------------------------------------------------------------------


def test_jaxrs_routes() -> None:
    fx = extract(
        """
        @Path("/owners")
        public class OwnerResource {
            @GET
            public List<Owner> all() { return null; }

            @GET @Path("{id}")
            public Owner one(@PathParam("id") int id) { return null; }

            @POST @Path(value = "/" + Paths.NEW)
            public void create() {}

            @Path("{id}/pets")
            public PetResource pets() { return null; }
        }

        public class Unrooted {
            @GET public String x() { return ""; }
        }

        @Path("/client") @RegisterRestClient
        interface Remote { @GET String get(); }
        """
    )
    assert fx.routes == [
        Route("jaxrs", ["GET"], T("/owners"), "OwnerResource.all", 3, 5),
        Route("jaxrs", ["GET"], T("/owners/{id}"), "OwnerResource.one", 6, 5),
        Route("jaxrs", ["POST"], T("/owners/", ref("Paths.NEW")), "OwnerResource.create", 9, 5),
    ]


def test_servlet_routes() -> None:
    fx = extract(
        """
        @WebServlet(name = "owners", urlPatterns = {"/owners", "/owners/*"})
        public class OwnerServlet extends HttpServlet {
            protected void doGet(HttpServletRequest req, HttpServletResponse resp) {}
            protected void doPost(HttpServletRequest req, HttpServletResponse resp) {}
            private void helper() {}
        }

        @WebServlet("/raw")
        public class RawServlet extends HttpServlet {
            public void service(ServletRequest req, ServletResponse resp) {}
        }
        """
    )
    assert fx.routes == [
        Route("servlet", ["GET"], T("/owners"), "OwnerServlet.doGet", 3, 19),
        Route("servlet", ["GET"], T("/owners/*"), "OwnerServlet.doGet", 3, 19),
        Route("servlet", ["POST"], T("/owners"), "OwnerServlet.doPost", 4, 19),
        Route("servlet", ["POST"], T("/owners/*"), "OwnerServlet.doPost", 4, 19),
        Route("servlet", ["*"], T("/raw"), "RawServlet.service", 10, 16),
    ]


# --- HTTP clients ---------------------------------------------------------------------------------

CLIENTS = """
@Service
class CustomersClient {
    private static final String CUSTOMERS = "http://customers-service";
    private final RestTemplate restTemplate;
    private final Map<String, String> cache;
    private final WebClient webClient;
    private final WebClient.Builder builder;
    private String hostname = "http://visits-service/";

    CustomersClient(RestTemplate restTemplate, WebClient.Builder builder) {
        this.restTemplate = restTemplate;
        this.builder = builder;
        this.webClient = builder.baseUrl("http://vets-service").build();
    }

    Owner owner(int ownerId) {
        String base = CUSTOMERS + "/owners/";
        cache.put("k", "v");
        restTemplate.put(CUSTOMERS + "/owners/{id}", owner, ownerId);
        restTemplate.exchange(URI.create("http://x/y"), HttpMethod.DELETE, null, Void.class);
        restTemplate.exchange(CUSTOMERS + "/pets", method, null, Void.class);
        otherRestTemplate.delete(Paths.OWNER + ownerId);
        return restTemplate.getForObject(base + ownerId, Owner.class);
    }

    void request(String url) {
        RequestEntity<Void> req = RequestEntity.post(url).build();
        restTemplate.exchange(req, String.class);
        restTemplate.exchange(RequestEntity.method(HttpMethod.PUT, "/z").build(), String.class);
    }

    Mono<Vet> vets() {
        webClient.get().uri("/vets/{id}", 1).retrieve();
        webClient.method(HttpMethod.PATCH).uri(b -> b.path("/a").path("/b").queryParam("q", 1).build());
        builder.build().post().uri(hostname + "pets/visits?petId={petId}", 1);
        WebClient.create().delete().uri("http://x/z");
        return WebClient.builder().baseUrl("http://inline").build().put().uri("/in").retrieve();
    }

    void restClient(RestClient restClient) {
        restClient.get().uri("http://genai/chat").retrieve();
    }
}
"""


def test_rest_template_webclient_restclient_calls() -> None:
    fx = extract(CLIENTS)
    q = "CustomersClient"
    assert fx.http_calls == [
        HttpCall("resttemplate", "PUT", T(ref("CUSTOMERS"), "/owners/{id}"), f"{q}.owner", 19, 21),
        HttpCall("resttemplate", "DELETE", T("http://x/y"), f"{q}.owner", 20, 21),
        HttpCall("resttemplate", "*", T(ref("CUSTOMERS"), "/pets"), f"{q}.owner", 21, 21),
        # no declared type: the receiver's name decides
        HttpCall("resttemplate", "DELETE", T(ref("Paths.OWNER"), hole("ownerId")), f"{q}.owner", 22, 26),
        # the local `base` is inlined; the parameter is a hole
        HttpCall("resttemplate", "GET", T(ref("CUSTOMERS"), "/owners/", hole("ownerId")), f"{q}.owner", 23, 28),
        HttpCall("resttemplate", "POST", T(hole("url")), f"{q}.request", 28, 21),
        HttpCall("resttemplate", "PUT", T("/z"), f"{q}.request", 29, 21),
        # webClient was built with baseUrl(...) in the constructor
        HttpCall("webclient", "GET", T("http://vets-service/vets/{id}"), f"{q}.vets", 33, 18),
        HttpCall("webclient", "PATCH", T("http://vets-service/a/b"), f"{q}.vets", 34, 18),
        HttpCall("webclient", "POST", T(ref("hostname"), "pets/visits?petId={petId}"), f"{q}.vets", 35, 24),
        HttpCall("webclient", "DELETE", T("http://x/z"), f"{q}.vets", 36, 27),
        HttpCall("webclient", "PUT", T("http://inline/in"), f"{q}.vets", 37, 68),
        HttpCall("restclient", "GET", T("http://genai/chat"), f"{q}.restClient", 41, 19),
    ]


def test_feign_and_http_exchange_interfaces() -> None:
    fx = extract(
        """
        @FeignClient(name = "customers-service", path = "/api")
        public interface CustomersClient {
            @GetMapping("/owners/{ownerId}")
            OwnerDetails getOwner(@PathVariable("ownerId") int ownerId);

            @RequestMapping(value = "/owners", method = RequestMethod.POST)
            void create(OwnerRequest request);

            @RequestMapping("/pets")
            List<Pet> pets();

            @RequestLine("DELETE /owners/{id}")
            void delete(@Param("id") int id);

            default void helper() {}
        }

        @FeignClient(value = Services.VISITS, url = "${visits.url}")
        interface VisitsClient {
            @PutMapping(path = Paths.VISITS)
            void put();
        }

        @FeignClient("vets")
        interface VetsClient {
            @GetMapping
            List<Vet> all();
        }

        @HttpExchange("http://genai-service/api")
        interface GenAi {
            @PostExchange("/chat") String chat(String q);
            @HttpExchange(url = "/raw", method = "PATCH") void raw();
        }
        """
    )
    assert fx.http_calls == [
        HttpCall("feign", "GET", T("http://customers-service/api/owners/{ownerId}"), "CustomersClient.getOwner", 3, 5),
        HttpCall("feign", "POST", T("http://customers-service/api/owners"), "CustomersClient.create", 6, 5),
        HttpCall("feign", "GET", T("http://customers-service/api/pets"), "CustomersClient.pets", 9, 5),
        HttpCall("feign", "DELETE", T("http://customers-service/api/owners/{id}"), "CustomersClient.delete", 12, 5),
        HttpCall("feign", "PUT", T("${visits.url}", ref("Paths.VISITS")), "VisitsClient.put", 20, 5),
        HttpCall("feign", "GET", T("http://vets"), "VetsClient.all", 26, 5),
        HttpCall("httpexchange", "POST", T("http://genai-service/api/chat"), "GenAi.chat", 32, 5),
        HttpCall("httpexchange", "PATCH", T("http://genai-service/api/raw"), "GenAi.raw", 33, 5),
    ]


def test_feign_name_constant_when_no_url() -> None:
    fx = extract(
        """
        @FeignClient(name = Services.CUSTOMERS)
        interface C { @GetMapping("/owners") List<Owner> all(); }
        """
    )
    assert fx.http_calls == [
        HttpCall("feign", "GET", T("http://", ref("Services.CUSTOMERS"), "/owners"), "C.all", 2, 15)
    ]


# --- Kafka ----------------------------------------------------------------------------------------

KAFKA = """
@Component
class Orders {
    static final String ORDERS = "orders";
    private final KafkaTemplate<String, Order> kafkaTemplate;
    private final Mailer mailer;

    @KafkaListener(topics = {"payments", "${kafka.topics.refunds}"}, groupId = "g")
    @SendTo(Topics.CONFIRMED)
    void onPayment(Payment p) {}

    @KafkaListener(topics = ORDERS)
    void onOrder(Order o) {
        kafkaTemplate.send(ORDERS + ".dlq", o.id(), o);
        ProducerRecord<String, Order> rec = new ProducerRecord<>("audit", o);
        kafkaTemplate.send(rec);
        this.kafkaTemplate.send(new ProducerRecord<>(Topics.ARCHIVE, o));
        kafkaTemplate.send(MessageBuilder.withPayload(o).setHeader(KafkaHeaders.TOPIC, "messages").build());
        mailer.send("orders", o);
        kafkaTemplate.sendDefault(o);
    }

    @KafkaListener(topicPartitions = @TopicPartition(topic = "partitioned", partitions = "0"))
    void partitioned(String s) {}

    @KafkaListener(topics = "#{'${topics.list}'.split(',')}")
    void spel(String s) {}

    @SendTo("not-kafka")
    @MessageMapping("/chat")
    String stomp(String s) { return s; }
}

@KafkaListener(topics = "multi")
class Multi {
    @KafkaHandler void a(String s) {}
    @KafkaHandler void a(Integer i) {}
    void notAHandler() {}
}
"""


def test_kafka_topics() -> None:
    fx = extract(KAFKA)
    K = "spring-kafka"
    assert fx.topics == [
        TopicUse(K, "consumes", T("payments"), "Orders.onPayment", 7, 5),
        TopicUse(K, "consumes", T("${kafka.topics.refunds}"), "Orders.onPayment", 7, 5),
        TopicUse(K, "produces", T(ref("Topics.CONFIRMED")), "Orders.onPayment", 8, 5),
        TopicUse(K, "consumes", T(ref("ORDERS")), "Orders.onOrder", 11, 5),
        TopicUse(K, "produces", T(ref("ORDERS"), ".dlq"), "Orders.onOrder", 13, 22),
        TopicUse(K, "produces", T("audit"), "Orders.onOrder", 15, 22),
        TopicUse(K, "produces", T(ref("Topics.ARCHIVE")), "Orders.onOrder", 16, 27),
        TopicUse(K, "produces", T("messages"), "Orders.onOrder", 17, 22),
        TopicUse(K, "consumes", T("partitioned"), "Orders.partitioned", 22, 5),
        TopicUse(K, "consumes", T(hole("#{'${topics.list}'.split(',')}")), "Orders.spel", 25, 5),
        # class-level listener: each @KafkaHandler overload, at its own annotation
        TopicUse(K, "consumes", T("multi"), "Multi.a", 35, 5),
        TopicUse(K, "consumes", T("multi"), "Multi.a", 36, 5),
    ]


# --- constants ------------------------------------------------------------------------------------


def test_string_constants() -> None:
    fx = extract(
        """
        public final class Paths {
            public static final String API = "/api";
            public static final String OWNERS = API + "/owners", PETS = OWNERS + "/{ownerId}/pets";
            static final String EMPTY = "";
            static final String ENV = System.getenv("X");
            static final int PORT = 8080;
            static final String TEXT = \"\"\"
                multi
                line\"\"\";
            private String hostname = "http://visits-service/";
            @Value("${customers.url:http://localhost:8081}")
            private String customersUrl = "ignored";
            @Value("${visits.url}") String visitsUrl;
            String unset;

            static class Inner {
                static final String DEEP = Other.BASE + "/deep\\u0021";
            }

            Runnable r = new Runnable() { final String ANON = "x"; public void run() {} };
        }

        interface Topics {
            String ORDERS = "orders";
            java.lang.String REFUNDS = "refunds";
        }
        """
    )
    assert fx.constants == [
        StringConstant("Paths.API", T("/api")),
        StringConstant("Paths.OWNERS", T(ref("API"), "/owners")),
        StringConstant("Paths.PETS", T(ref("OWNERS"), "/{ownerId}/pets")),
        StringConstant("Paths.EMPTY", T()),
        StringConstant("Paths.TEXT", T("multi\nline")),
        StringConstant("Paths.hostname", T("http://visits-service/")),
        StringConstant("Paths.customersUrl", T("${customers.url:http://localhost:8081}")),
        StringConstant("Paths.visitsUrl", T("${visits.url}")),
        StringConstant("Paths.Inner.DEEP", T(ref("Other.BASE"), "/deep!")),
        StringConstant("Topics.ORDERS", T("orders")),
        StringConstant("Topics.REFUNDS", T("refunds")),
    ]


def test_constructor_injected_value_fields() -> None:
    fx = extract(
        """
        @Component
        class VisitsClient {
            private final String visitsUrl;
            private final String other;
            private final int port;
            private final String fixed = "kept";

            VisitsClient(@Value("${visits.url:http://visits-service}") String url,
                         @Value("${server.port}") int port, String other, @Value("${x}") String fixed) {
                this.visitsUrl = url;
                this.other = other;
                this.port = port;
                this.fixed = fixed;
            }

            Visits get() { return restTemplate.getForObject(visitsUrl + "/pets/visits", Visits.class); }
        }
        """
    )
    assert fx.constants == [
        StringConstant("VisitsClient.fixed", T("kept")),
        StringConstant("VisitsClient.visitsUrl", T("${visits.url:http://visits-service}")),
    ]
    assert fx.http_calls == [
        HttpCall("resttemplate", "GET", T(ref("visitsUrl"), "/pets/visits"), "VisitsClient.get", 16, 39)
    ]


# --- robustness -----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "code",
    [
        "@RestController class A { @GetMapping( void f() {} }",
        "@FeignClient interface B { @GetMapping void g(); }",
        "class C { void f() { restTemplate.getForObject(); webClient.get().uri(); kafkaTemplate.send(); } }",
        "@KafkaListener class D { @KafkaHandler void h() {} }",
        "@WebServlet class E { void doGet() {} } @Path class F { @GET void g() {} }",
        'class G { static final String X = "unterminated; }',
        "@RequestMapping(method = {}) class H { @RequestMapping(path = {}) void i() {} }",
    ],
)
def test_odd_code_never_fails(code: str) -> None:
    extract(code)


def test_odd_code_facts() -> None:
    fx = extract("@RequestMapping(method = {}) class H { @RequestMapping(path = {}) void i() {} }")
    # empty arrays are Spring's defaults: no path (the root), any method
    assert fx.routes == [Route("spring", ["*"], T("/"), "H.i", 1, 40)]
    fx = extract("@FeignClient interface B { @GetMapping void g(); }")
    assert fx.http_calls == [HttpCall("feign", "GET", T(), "B.g", 1, 28)]


# --- Spring configuration -------------------------------------------------------------------------


def write(root: Path, rel: str, text: str) -> None:
    p = root / rel
    p.parent.mkdir(parents=True, exist_ok=True)
    p.write_text(textwrap.dedent(text).lstrip("\n"), encoding="utf-8")


def test_an_alias_bomb_of_empty_lists_in_application_yml_is_bounded(tmp_path: Path) -> None:
    # Hostile review D2: empty lists write no key, so MAX_KEYS never stopped the walk of 10**10 nodes.
    lines = ["l0: &l0 [[], [], [], [], [], [], [], [], [], []]"]
    lines += [f"l{i}: &l{i} [{', '.join(['*l' + str(i - 1)] * 10)}]" for i in range(1, 10)]
    lines += ["server:", "  port: 8081"]
    write(tmp_path, "svc/src/main/resources/application.yml", "\n".join(lines) + "\n")
    t0 = time.perf_counter()
    props = load_properties(tmp_path)
    assert time.perf_counter() - t0 < 10  # a loose budget: seconds, not hours
    # the document's node budget is spent on the bomb before the keys after it: those are lost, the
    # rest of the repository's configuration is not
    assert props.get("server.port") is None


def test_load_properties(tmp_path: Path) -> None:
    write(
        tmp_path,
        "svc/src/main/resources/application.yml",
        """
        server:
          port: 8081
        kafka:
          topics:
            orders: orders-v1
            list: [a, b]
          enabled: yes
          since: 2024-01-01
          empty:
        spring:
          application:
            name: customers
        ---
        spring:
          config:
            activate:
              on-profile: docker
        server:
          port: 9999
        kafka:
          only-in-docker: d
        """,
    )
    write(
        tmp_path,
        "svc/src/main/resources/application.properties",
        """
        # properties win over yml in the same folder
        server.port=8082
        customers.url = http://customers-service\\
            /api
        unicode=caf\\u00e9
        #---
        spring.config.activate.on-profile=dev
        server.port=7000
        """,
    )
    write(tmp_path, "svc/src/main/resources/application-prod.yml", "server:\n  port: 1\nprod:\n  only: p\n")
    write(tmp_path, "svc/src/main/resources/bootstrap.yml", "spring:\n  application:\n    name: boot\nboot: b\n")
    write(tmp_path, "svc/src/test/resources/application.yml", "server:\n  port: 0\ntest:\n  only: t\n")
    write(tmp_path, "svc/target/classes/application.yml", "server:\n  port: 5\nbuilt: x\n")
    write(tmp_path, "node_modules/x/application.yml", "nm: x\n")
    write(tmp_path, "broken/application.yml", "a: [unclosed\n")
    write(tmp_path, "svc/src/main/resources/other.yml", "other: x\n")
    assert load_properties(tmp_path) == {
        "server.port": "8082",
        "kafka.topics.orders": "orders-v1",
        "kafka.topics.list[0]": "a",
        "kafka.topics.list[1]": "b",
        "kafka.enabled": "true",
        "kafka.since": "2024-01-01",
        "kafka.empty": "",
        "spring.application.name": "customers",
        "customers.url": "http://customers-service/api",
        "unicode": "café",
        "boot": "b",
        "kafka.only-in-docker": "d",
        "spring.config.activate.on-profile": "dev",
        "prod.only": "p",
        "test.only": "t",
    }


def test_load_properties_empty_repo(tmp_path: Path) -> None:
    assert load_properties(tmp_path) == {}


PROPS = {
    "host": "customers-service",
    "url": "http://${host}:${port:8080}",
    "port.name": "port",
    "kafka.topic": "orders",
    "a": "${b}",
    "b": "${a}",
    "self": "x${self}",
    "env": "prod",
    "prod.url": "http://prod",
}


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("${kafka.topic}", "orders"),
        ("${url}/owners", "http://customers-service:8080/owners"),
        ("${missing}", "${missing}"),
        ("${missing:fallback}", "fallback"),
        ("${missing:}", ""),
        ("${missing:http://h:1/x}", "http://h:1/x"),
        ("${missing:${host}}", "customers-service"),
        ("${missing:${other:deep}}", "deep"),
        ("${${env}.url}/x", "http://prod/x"),
        ("${a}", "${a}"),
        ("${self}", "x${self}"),
        ("no placeholder", "no placeholder"),
        ("${unclosed", "${unclosed"),
        ("${kafka.topic}-${kafka.topic}", "orders-orders"),
        ("$kafka.topic", "$kafka.topic"),
    ],
)
def test_resolve_placeholders(text: str, expected: str) -> None:
    assert resolve_placeholders(text, PROPS) == expected
