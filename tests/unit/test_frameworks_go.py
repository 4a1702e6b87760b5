"""Go framework detectors: exact Route / HttpCall / TopicUse / RpcUse facts per family
(``indexer/languages/go/frameworks``), with what must not be taken."""

from indexer.languages.go.extractor import EXTRACTOR
from indexer.model import Template


def extract(source: str, path: str = "svc/main.go"):
    return EXTRACTOR.extract(path, source.encode())


def routes(ex):
    return [(r.framework, r.methods, "".join(f"{{{t}}}" if k != "lit" else t for k, t in r.path.parts),
             r.handler, r.handler_ref, [w.expr for w in r.wrappers]) for r in ex.routes]


def test_net_http_and_gorilla_routes_with_prefixes_methods_and_inline_handlers():
    ex = extract('''package main

import (
    "net/http"
    "github.com/gorilla/mux"
)

const apiBase = "/api"

var baseUrl = ""

func main() {
    r := mux.NewRouter()
    r.HandleFunc(baseUrl+"/product/{id:[0-9]+}", svc.productHandler).Methods(http.MethodGet, "HEAD")
    s := r.PathPrefix(apiBase).Subrouter()
    s.HandleFunc("/items", listItems)
    http.HandleFunc("POST /items/{id}", func(w http.ResponseWriter, r *http.Request) { save() })
    m := http.NewServeMux()
    m.Handle("/health", http.HandlerFunc(health))
    other.HandleFunc("/not-a-router", h)
}
''')
    assert routes(ex) == [
        ("gorilla", ["GET", "HEAD"], "/product/{id}", None, "svc.productHandler", []),
        ("gorilla", ["*"], "/api/items", None, "listItems", []),
        ("net/http", ["POST"], "/items/{id}", "main.POST /items/{id}", None, []),
        ("net/http", ["*"], "/health", None, "health", []),
    ]
    inline = next(d for d in ex.definitions if d.name == "POST /items/{id}")
    assert (inline.kind, inline.parent, inline.start_line) == ("function", "main", 17)
    assert [(c.caller, c.name) for c in ex.calls if c.name == "save"] == [("main.POST /items/{id}", "save")]
    assert [(c.qualname, c.value) for c in ex.constants] == [("apiBase", Template.of("/api")),
                                                             ("baseUrl", Template())]


def test_gin_echo_chi_routes_groups_and_middleware():
    ex = extract('''package api

import (
    "github.com/gin-gonic/gin"
    "github.com/labstack/echo/v4"
    "github.com/go-chi/chi/v5"
)

func Gin() {
    g := gin.Default()
    v1 := g.Group("/v1")
    v1.GET("/users/:id", auth, getUser)
    g.Handle("DELETE", "/x", del)
}

func Echo(e *echo.Echo) {
    api := e.Group("/api")
    api.POST("/orders", create, mw)
    e.Match([]string{"GET", "PUT"}, "/m", both)
}

func Chi() {
    r := chi.NewRouter()
    r.Route("/books", func(r chi.Router) {
        r.Get("/{id}", getBook)
        r.Method("PATCH", "/{id}", patchBook)
    })
    admin := chi.NewRouter()
    admin.Post("/reset", reset)
    r.Mount("/admin", admin)
}
''')
    assert routes(ex) == [
        ("gin", ["GET"], "/v1/users/:id", None, "getUser", ["auth"]),
        ("gin", ["DELETE"], "/x", None, "del", []),
        ("echo", ["POST"], "/api/orders", None, "create", ["mw"]),
        ("echo", ["GET", "PUT"], "/m", None, "both", []),
        ("chi", ["GET"], "/books/{id}", None, "getBook", []),
        ("chi", ["PATCH"], "/books/{id}", None, "patchBook", []),
        ("chi", ["POST"], "/admin/reset", None, "reset", []),
    ]
    assert [r.scope for r in ex.routes] == ["Gin", "Gin", "Echo", "Echo", "Chi", "Chi", "Chi"]


def test_http_clients_net_http_and_resty():
    ex = extract('''package c

import (
    "fmt"
    "net/http"
    "github.com/go-resty/resty/v2"
)

const users = "http://users:8080"

func Fetch(id string, url string) {
    http.Get(users + "/users/" + id)
    http.NewRequest(http.MethodPost, fmt.Sprintf("http://orders/orders/%s/items", id), nil)
    http.Get(url)
    client := resty.New()
    client.R().SetBody(x).Put("http://inventory/stock")
}
''')
    assert [(h.framework, h.method, h.url.parts, h.caller, h.line) for h in ex.http_calls] == [
        ("net/http", "GET", (("lit", "http://users:8080/users/"), ("ref", "id")), "Fetch", 12),
        ("net/http", "POST", (("lit", "http://orders/orders/"), ("ref", "id"), ("lit", "/items")), "Fetch", 13),
        ("net/http", "GET", (("ref", "url"),), "Fetch", 14),
        ("resty", "PUT", (("lit", "http://inventory/stock"),), "Fetch", 16),
    ]  # the parameters id and url: ref pieces (a client template whose callers give them; acc59)


def test_kafka_producers_and_consumers():
    sarama = extract('''package k

import "github.com/IBM/sarama"

const Orders = "orders"

func Send(p sarama.SyncProducer) {
    p.SendMessage(&sarama.ProducerMessage{Topic: Orders, Value: nil})
}

func Read(c sarama.Consumer, g sarama.ConsumerGroup) {
    c.ConsumePartition("payments", 0, 0)
    g.Consume(ctx, []string{"a", config.Topic}, h)
}
''')
    assert [(t.framework, t.role, t.topic.parts, t.owner) for t in sarama.topics] == [
        ("sarama", "produces", (("lit", "orders"),), "Send"),
        ("sarama", "consumes", (("lit", "payments"),), "Read"),
        ("sarama", "consumes", (("lit", "a"),), "Read"),
    ]  # config.Topic: a field of a value, not a constant: left out
    kgo = extract('''package k

import kafka "github.com/segmentio/kafka-go"

func W() *kafka.Writer { return &kafka.Writer{Addr: kafka.TCP("b"), Topic: "events"} }

func R() *kafka.Reader { return kafka.NewReader(kafka.ReaderConfig{Brokers: b, Topic: "events", GroupID: "g"}) }
''')
    assert [(t.framework, t.role, t.topic.parts, t.owner) for t in kgo.topics] == [
        ("kafka-go", "produces", (("lit", "events"),), "W"),
        ("kafka-go", "consumes", (("lit", "events"),), "R"),
    ]
    conf = extract('''package k

import "github.com/confluentinc/confluent-kafka-go/v2/kafka"

var topic = "audit"

func P(p *kafka.Producer) {
    p.Produce(&kafka.Message{TopicPartition: kafka.TopicPartition{Topic: &topic}}, nil)
}

func C(c *kafka.Consumer) { c.SubscribeTopics([]string{"audit", "x"}, nil) }
''')
    assert [(t.framework, t.role, t.topic.parts, t.owner) for t in conf.topics] == [
        ("confluent-kafka", "produces", (("lit", "audit"),), "P"),
        ("confluent-kafka", "consumes", (("lit", "audit"),), "C"),
        ("confluent-kafka", "consumes", (("lit", "x"),), "C"),
    ]
    none = extract('package k\n\nfunc F(p P) { p.Subscribe("t", nil) }\n')
    assert none.topics == []  # no Kafka client imported


def test_grpc_go_servers_and_clients():
    ex = extract('''package main

import (
    "google.golang.org/grpc"
    pb "example.com/shop/genproto"
)

type server struct{ cat pb.CatalogServiceClient }

func main() {
    s := grpc.NewServer()
    pb.RegisterCatalogServiceServer(s, &catalog{})
    svc := &cart{}
    pb.RegisterCartServiceServer(s, svc)
}

func (s *server) fetch() {
    s.cat.ListProducts(ctx, nil)
    c := pb.NewCartServiceClient(conn)
    c.GetCart(ctx, nil)
    pb.NewShippingServiceClient(conn).
        GetQuote(ctx, nil)
    other.GetCart(ctx, nil)
}
''')
    assert [(u.role, u.service, u.rpc, u.owner, u.owner_ref, u.scope, u.line) for u in ex.rpc_uses] == [
        ("serves", "CatalogService", None, None, "catalog", "main", 12),
        ("serves", "CartService", None, None, "svc", "main", 14),
        ("calls", "CatalogService", "ListProducts", "server.fetch", None, None, 18),
        ("calls", "CartService", "GetCart", "server.fetch", None, None, 20),
        ("calls", "ShippingService", "GetQuote", "server.fetch", None, None, 22),
    ]
    assert extract("package pb\n\nfunc RegisterXServer() {}\n", "gen/x_grpc.pb.go").rpc_uses == []


def test_gin_group_prefixes_join_with_one_slash_as_gin_does():
    # gin's joinPaths is path.Join(prefix, relative) keeping the relative path's trailing slash
    ex = extract('''package main

import "github.com/gin-gonic/gin"

func main() {
    router := gin.Default()
    apiV1 := router.Group("/v1")
    apiV1.GET("users", listUsers)
    authV1 := apiV1.Group("/", auth())
    authV1.POST("users/add", addUser)
    root := router.Group("/")
    root.GET("/stream", stream)
    pings := router.Group("/ping/")
    pings.GET("/", ping)
    pings.GET("", pingBare)
    router.GET("/direct", direct)
}
''')
    assert [(r.methods, r.path.literal(), r.handler_ref) for r in ex.routes] == [
        (["GET"], "/v1/users", "listUsers"),
        (["POST"], "/v1/users/add", "addUser"),
        (["GET"], "/stream", "stream"),
        (["GET"], "/ping/", "ping"),
        (["GET"], "/ping/", "pingBare"),
        (["GET"], "/direct", "direct"),
    ]
    assert not any(r.path.literal() in ("/v1users", "//stream", "/ping//") for r in ex.routes)


def test_echo_group_prefixes_concatenate_as_echo_does():
    ex = extract('''package main

import "github.com/labstack/echo/v4"

func main() {
    e := echo.New()
    g := e.Group("/api")
    g.GET("/items", list)
    g.GET("", root)
}
''')
    assert [(r.path.literal(), r.handler_ref) for r in ex.routes] == [("/api/items", "list"), ("/api", "root")]


def test_gin_router_and_group_middleware_wrap_the_routes_registered_after_them():
    ex = extract('''package main

import "github.com/gin-gonic/gin"

func main() {
    router := gin.New()
    router.GET("/early", early)
    router.Use(gin.Logger(), recovery)
    router.GET("/ping", ping)
    v1 := router.Group("/v1", AuthMiddleWare())
    v1.POST("users/add", rateLimit, addUser)
    v1.Use(audit)
    v1.DELETE("users/:id", delUser)
    open := router.Group("/open")
    open.GET("/info", info)
}
''')
    assert routes(ex) == [
        ("gin", ["GET"], "/early", None, "early", []),
        ("gin", ["GET"], "/ping", None, "ping", ["gin.Logger", "recovery"]),
        ("gin", ["POST"], "/v1/users/add", None, "addUser", ["gin.Logger", "recovery", "AuthMiddleWare", "rateLimit"]),
        ("gin", ["DELETE"], "/v1/users/:id", None, "delUser", ["gin.Logger", "recovery", "AuthMiddleWare", "audit"]),
        ("gin", ["GET"], "/open/info", None, "info", ["gin.Logger", "recovery"]),
    ]  # /early: registered before Use; /open: neither AuthMiddleWare nor audit (v1's own)


def test_grpc_go_client_variables_are_local_to_their_function():
    # grpc-go's own tests: `c := testgrpc.NewTestServiceClient(cc)` in one test made every `c.X()` of
    # the file (credentials, other clients) a call of TestService.
    ex = extract('''package main

import (
    channelzgrpc "google.golang.org/grpc/channelz/grpc_channelz_v1"
    testgrpc "google.golang.org/grpc/interop/grpc_testing"
)

var shared testgrpc.TestServiceClient

func a(cc *grpc.ClientConn) {
    c := testgrpc.NewTestServiceClient(cc)
    c.EmptyCall(ctx, nil)
}

func b(cc *grpc.ClientConn) {
    c := channelzgrpc.NewChannelzClient(cc)
    c.GetTopChannels(ctx, nil)
}

func creds() {
    c := NewServerCreds()
    c.OverrideServerName("x")
    shared.UnaryCall(ctx, nil)
}

func typed(c testgrpc.TestServiceClient) { c.FullDuplexCall(ctx) }
''')
    assert [(u.service, u.rpc, u.owner, u.module, u.line) for u in ex.rpc_uses] == [
        ("TestService", "EmptyCall", "a", "google.golang.org/grpc/interop/grpc_testing", 12),
        ("Channelz", "GetTopChannels", "b", "google.golang.org/grpc/channelz/grpc_channelz_v1", 17),
        ("TestService", "UnaryCall", "creds", "google.golang.org/grpc/interop/grpc_testing", 23),
        ("TestService", "FullDuplexCall", "typed", "google.golang.org/grpc/interop/grpc_testing", 26),
    ]  # never c.OverrideServerName of creds (another c)
