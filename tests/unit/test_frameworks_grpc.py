"""gRPC (issue 15 item 5): the ``.proto`` extractor, the grpc-java / grpcio / grpc-js detectors
(exact :class:`~indexer.model.RpcUse` facts, look-alikes left out) and the linker joining them to the
``.proto`` services (:mod:`indexer.frameworks.grpc`): endpoint ids, certainty, and every unlinked
reason counted."""

from __future__ import annotations

import hashlib

from indexer.frameworks.grpc import lower_camel, rpc_names
from indexer.languages import extractor_for_path
from indexer.model import RpcService
from indexer.resolve.repository import resolve_repository
from stores.contracts import endpoint_id, normalise_grpc_path
from tests.resolution_harness import split_fixture


def _extract(path: str, source: str):
    ex = extractor_for_path(path)
    assert ex is not None
    return ex.extract(path, source.encode())


def _uses(path: str, source: str) -> list[tuple]:
    return [(u.role, u.service, u.rpc, u.owner, u.owner_ref, u.package, u.module, u.line)
            for u in _extract(path, source).rpc_uses]


def _link(fixture: str):
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        ex = extractor_for_path(path)
        assert ex is not None
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions)
    edges = sorted((e.kind, e.src.removeprefix("t:"), e.dst, e.props.get("match")) for f in result.files
                   for e in f.edges if e.kind in ("EXPOSES", "CALLS_HTTP"))
    grpc = {k: v for k, v in result.link_outcomes.items() if "grpc" in k}
    return edges, grpc


# -- ids ---------------------------------------------------------------------------------------------

def test_grpc_endpoint_id_is_the_wire_path_not_a_url_path() -> None:
    assert endpoint_id("GRPC", "shop.v1.OrderService/GetOrder") == "endpoint:GRPC shop.v1.OrderService/GetOrder"
    assert endpoint_id("grpc", " /Greeter/SayHello") == "endpoint:GRPC Greeter/SayHello"  # no package
    assert normalise_grpc_path("/a.B/C") == "a.B/C"
    # An HTTP endpoint of the same text is normalised as a URL path: another node.
    assert endpoint_id("GET", "shop.v1.OrderService/GetOrder") == "endpoint:GET /shop.v1.OrderService/GetOrder"


def test_rpc_method_names_per_framework() -> None:
    assert lower_camel("GetOrder") == "getOrder"
    assert lower_camel("get_order_v2") == "getOrderV2"
    assert rpc_names("grpc-java", "GetOrder") == ("getOrder",)
    assert rpc_names("grpc-python", "GetOrder") == ("GetOrder",)
    assert rpc_names("grpc-js", "GetOrder") == ("GetOrder", "getOrder")
    assert rpc_names("grpc-js", "getOrder") == ("getOrder",)


# -- .proto ------------------------------------------------------------------------------------------

PROTO = """syntax = "proto3";
package shop.v1;
option java_package = "com.shop.v1";
service OrderService {
  rpc GetOrder (GetOrderRequest) returns (Order);
  rpc Watch (stream GetOrderRequest) returns (stream Order) {}
}
message Order { string id = 1; message Line { int32 n = 1; } }
service Empty {}
"""


def test_proto_services_rpcs_and_messages() -> None:
    out = _extract("proto/shop/v1/order.proto", PROTO)
    assert out.errors == []
    assert out.package == "shop.v1"
    assert [(d.kind, d.qualname, d.parent, d.start_line, d.name_col, d.signature) for d in out.definitions] == [
        ("interface", "OrderService", None, 4, 8, "service OrderService"),
        ("method", "OrderService.GetOrder", "OrderService", 5, 6, "rpc GetOrder (GetOrderRequest) returns (Order)"),
        ("method", "OrderService.Watch", "OrderService", 6, 6,
         "rpc Watch (stream GetOrderRequest) returns (stream Order)"),
        ("class", "Order", None, 8, 8, "message Order"),
        ("interface", "Empty", None, 9, 8, "service Empty"),
    ]
    assert out.rpc_services == [
        RpcService("shop.v1", "OrderService", ["GetOrder", "Watch"], "OrderService", 4, "com.shop.v1"),
        RpcService("shop.v1", "Empty", [], "Empty", 9, "com.shop.v1"),
    ]


def test_proto_with_syntax_errors_keeps_what_parsed() -> None:
    out = _extract("a.proto", "package p;\nservice S {\n  rpc A (X) returns (Y);\n  rpc ??? \n}\n")
    assert out.errors
    assert [s.rpcs for s in out.rpc_services] in ([["A"]], [])
    assert _extract("empty.proto", "").rpc_services == []


# -- detectors ---------------------------------------------------------------------------------------

JAVA = """package com.shop.client;
import com.shop.v1.OrderServiceGrpc;
import com.shop.v1.OrderServiceGrpc.OrderServiceStub;
import com.other.BillingServiceGrpc;
class Client {
  private OrderServiceGrpc.OrderServiceBlockingStub blocking;
  private OrderServiceStub async;
  private Object plain;
  void a() { blocking.getOrder(r); blocking.getChannel(); plain.getOrder(r); }
  void b(Channel ch) {
    var f = OrderServiceGrpc.newFutureStub(ch);
    f.withDeadlineAfter(1, SECONDS).watch(r);
    BillingServiceGrpc.newBlockingStub(ch).charge(r);
    async.getOrder(r, observer);
  }
}
class Impl extends OrderServiceGrpc.OrderServiceImplBase {
  public void getOrder(Req r, StreamObserver<Order> o) {}
}
class NotImpl extends Base { public void getOrder(Req r) {} }
class Mismatch extends OrderServiceGrpc.BillingServiceImplBase {}
class Main {
  static void main() {
    Object svc = new OrderServiceGrpc.OrderServiceImplBase() {
      @Override public void watch(Req r, StreamObserver<Order> o) { helper(); }
    };
    Object other = new Runnable() { public void run() {} };
  }
}
class Holder {
  Object svc = new OrderServiceGrpc.OrderServiceImplBase() { public void getOrder(Req r, StreamObserver<Order> o) {} };
}
"""


def test_java_servers_and_stubs() -> None:
    assert _uses("src/Client.java", JAVA) == [
        ("serves", "OrderService", None, "Impl", None, None, "com.shop.v1", 17),
        ("serves", "OrderService", "watch", "Main.main", None, None, "com.shop.v1", 25),
        ("serves", "OrderService", "getOrder", "Holder", None, None, "com.shop.v1", 31),  # a field initialiser's class
        ("calls", "OrderService", "getOrder", "Client.a", None, None, "com.shop.v1", 9),
        ("calls", "OrderService", "watch", "Client.b", None, None, "com.shop.v1", 12),
        ("calls", "BillingService", "charge", "Client.b", None, None, "com.other", 13),
        ("calls", "OrderService", "getOrder", "Client.b", None, None, "com.shop.v1", 14),
    ]


PYTHON = """import grpc
from shop.v1 import order_pb2_grpc
from shop.v1.order_pb2_grpc import OrderServiceStub
from other import FooStub, BarServicer

class Impl(order_pb2_grpc.OrderServiceServicer):
    def GetOrder(self, request, context):
        return None

class Plain(BarServicer):
    def GetOrder(self, request, context):
        return None

class Client:
    def __init__(self, channel):
        self.stub = OrderServiceStub(channel)
        self.foo = FooStub(channel)

    def get(self):
        self.foo.GetOrder(1)
        self.stub.Watch.future(1)
        return self.stub.GetOrder(1)

def serve(server):
    order_pb2_grpc.add_OrderServiceServicer_to_server(Plain(), server)
    order_pb2_grpc.OrderServiceStub(channel).GetOrder(2)
"""


def test_python_servicers_registrations_and_stubs() -> None:
    assert _uses("app/client.py", PYTHON) == [
        ("serves", "OrderService", None, "Impl", None, None, "shop.v1.order_pb2_grpc", 6),
        ("serves", "OrderService", None, None, "Plain()", None, "shop.v1.order_pb2_grpc", 25),
        ("calls", "OrderService", "Watch", "Client.get", None, None, "shop.v1.order_pb2_grpc", 21),
        ("calls", "OrderService", "GetOrder", "Client.get", None, None, "shop.v1.order_pb2_grpc", 22),
        ("calls", "OrderService", "GetOrder", "serve", None, None, "shop.v1.order_pb2_grpc", 26),
    ]


INHERITED = """from shop.v1 import order_pb2_grpc

class Real(Base):
    def GetOrder(self, request, context):
        return None

class Base(order_pb2_grpc.OrderServiceServicer):
    def Check(self, request, context):
        return None

class Dummy(Base):
    pass

class Unrelated(Helper):
    pass

class Helper:
    pass
"""


def test_python_servicer_subclasses_of_a_servicer_in_the_same_file_serve_too() -> None:
    # microservices-demo's email_server.py: BaseEmailService(EmailServiceServicer) holds the health
    # check, EmailService(BaseEmailService) the rpcs; the subclass may come before its base.
    assert _uses("app/server.py", INHERITED) == [
        ("serves", "OrderService", None, "Real", None, None, "shop.v1.order_pb2_grpc", 3),
        ("serves", "OrderService", None, "Base", None, None, "shop.v1.order_pb2_grpc", 7),
        ("serves", "OrderService", None, "Dummy", None, None, "shop.v1.order_pb2_grpc", 11),
    ]


JS = """const grpc = require('@grpc/grpc-js');
const loader = require('@grpc/proto-loader');
const shop = grpc.loadPackageDefinition(loader.loadSync('o.proto')).shop.v1;
const root = grpc.loadPackageDefinition(loader.loadSync('o.proto'));
const client = new shop.OrderService('h:1', grpc.credentials.createInsecure());
const other = new root.shop.v1.OrderService('h:1', creds);
const notAClient = new lib.Thing('a', 'b');
function main() {
  client.getOrder({}, () => {});
  client.close();
  other.Watch({});
  notAClient.getOrder({});
}
function getOrder(call, cb) { cb(null, {}); }
const impl = { getOrder, Watch: (call) => { call.end(); } };
new grpc.Server().addService(shop.OrderService.service, impl);
"""


def test_node_services_and_clients() -> None:
    out = _extract("src/server.js", JS)
    assert [(u.role, u.service, u.rpc, u.owner, u.owner_ref, u.package, u.line) for u in out.rpc_uses] == [
        ("serves", "OrderService", "getOrder", "getOrder", None, "shop.v1", 15),
        ("serves", "OrderService", "Watch", "impl.Watch", None, "shop.v1", 15),
        ("calls", "OrderService", "getOrder", "main", None, "shop.v1", 9),
        ("calls", "OrderService", "Watch", "main", None, "shop.v1", 11),
    ]
    # A function of a named object literal is the extractor's own definition (impl.Watch), made once.
    assert [d.qualname for d in out.definitions if "Watch" in d.qualname] == ["impl.Watch"]
    assert [c.caller for c in out.calls if c.name == "end"] == ["impl.Watch"]
    # One of an anonymous object passed to addService becomes a handler definition of its own.
    anon = _extract("s.js", "const grpc = require('@grpc/grpc-js');\n"
                            "const shop = grpc.loadPackageDefinition(d).shop;\n"
                            "server.addService(shop.Orders.service, { Watch(call) { call.end(); } });\n")
    assert [(u.rpc, u.owner) for u in anon.rpc_uses] == [("Watch", "GRPC Orders/Watch")]
    assert [(d.kind, d.qualname, d.start_line) for d in anon.definitions] == [("function", "GRPC Orders/Watch", 3)]
    assert [c.caller for c in anon.calls if c.name == "end"] == ["GRPC Orders/Watch"]


TS_PROTO = """import { credentials, Server } from '@grpc/grpc-js';
import { OrderServiceClient, OrderServiceService } from './gen/order';
import { Widget } from './widget';

const client = new OrderServiceClient('h:1', credentials.createInsecure());
const widget = new Widget('a', credentials.createInsecure());

export function show(id: string) {
  client.getOrder({ id }, () => {});
  widget.getOrder({ id });
}

new Server().addService(OrderServiceService, { getOrder: (call, cb) => cb(null, {}) });
"""


def test_node_generated_code_imported_by_name() -> None:
    out = _extract("src/app.ts", TS_PROTO)
    # Widget is no generated client (no Client suffix): its getOrder is no rpc call.
    assert [(u.role, u.service, u.rpc, u.owner, u.package) for u in out.rpc_uses] == [
        ("serves", "OrderService", "getOrder", "GRPC OrderService/getOrder", None),
        ("calls", "OrderService", "getOrder", "show", None),
    ]


# -- linking -----------------------------------------------------------------------------------------

LINKED = """
# --- path: proto/shop/v1/order.proto ---
syntax = "proto3";
package shop.v1;
option java_package = "com.shop.v1";
service OrderService { rpc GetOrder (R) returns (R); rpc Watch (R) returns (stream R); }
# --- path: proto/a/inventory.proto ---
package a;
service InventoryService { rpc Reserve (R) returns (R); }
# --- path: proto/b/inventory.proto ---
package b;
service InventoryService { rpc Reserve (R) returns (R); }
# --- path: proto/copy/order.proto ---
package shop.v1;
service OrderService { rpc GetOrder (R) returns (R); }
# --- path: app/server.py ---
from shop.v1 import order_pb2_grpc
import inventory_pb2_grpc
from a import inventory_pb2_grpc as a_inventory
import payments_pb2_grpc

class Orders(order_pb2_grpc.OrderServiceServicer):
    def GetOrder(self, request, context):
        return None

class Nothing(order_pb2_grpc.OrderServiceServicer):
    def Other(self, request, context):
        return None

class Inventory(inventory_pb2_grpc.InventoryServiceServicer):
    def Reserve(self, request, context):
        return None

class InventoryA(a_inventory.InventoryServiceServicer):
    def Reserve(self, request, context):
        return None

class Pay(payments_pb2_grpc.PaymentServiceServicer):
    def Charge(self, request, context):
        return None

def serve(server):
    order_pb2_grpc.add_OrderServiceServicer_to_server(Orders(), server)

def call(channel):
    stub = order_pb2_grpc.OrderServiceStub(channel)
    stub.GetOrder(1)
    stub.Cancel(1)
"""


def test_linker_certainty_and_unlinked_reasons() -> None:
    edges, outcomes = _link(LINKED)
    assert edges == [
        ("CALLS_HTTP", "app/server.call(1)", "endpoint:GRPC shop.v1.OrderService/GetOrder", "exact"),
        ("EXPOSES", "app/server.InventoryA.Reserve(2)", "endpoint:GRPC a.InventoryService/Reserve", "exact"),
        ("EXPOSES", "app/server.Orders.GetOrder(2)", "endpoint:GRPC shop.v1.OrderService/GetOrder", "exact"),
    ]
    # Nothing implements no rpc; Inventory's module (inventory_pb2_grpc) matches both inventory.proto
    # files: ambiguous; PaymentService is in no .proto; Cancel is no rpc of OrderService; the copy of
    # order.proto (same package and service) is the same service, and the registration of Orders
    # repeats its class's links without a second edge.
    assert outcomes == {"calls_grpc": 1, "exposes_grpc": 2, "unlinked_grpc_server": 1,
                        "unlinked_grpc_ambiguous": 1, "unlinked_grpc_no_proto": 1, "unlinked_grpc_rpc": 1}



def test_a_server_exposes_its_rpcs_as_the_service_of_its_folder(tmp_path) -> None:
    # Newcomer review: every gRPC endpoint had service null, so clients of a service served by
    # several applications were never told apart nor marked ambiguous.
    import json
    import sqlite3

    from tests.index_harness import index_files

    files = {
        "protos/shop.proto": 'syntax = "proto3";\npackage shop;\nservice Billing { rpc Charge (A) returns (B); }\n'
                             "message A {}\nmessage B {}\n",
        "billing/Dockerfile": "FROM python\n",
        "billing/server.py": "from shop import shop_pb2_grpc\n\nclass Billing(shop_pb2_grpc.BillingServicer):\n"
                             "    def Charge(self, request, context):\n        return None\n",
    }
    index_files(tmp_path, files, "t", db=tmp_path / "x.db").close()
    with sqlite3.connect(tmp_path / "x.db") as conn:
        rows = [(src.split(":", 1)[1], dst, json.loads(props).get("service")) for src, dst, props in conn.execute(
            "SELECT src, dst, props FROM edges WHERE kind = 'EXPOSES'")]
    assert rows == [("billing/server.Billing.Charge(2)", "endpoint:GRPC shop.Billing/Charge", "billing")]


CSHARP = """
// --- path: Basket.API/Proto/basket.proto ---
syntax = "proto3";
option csharp_namespace = "eShop.Basket.API.Grpc";
package BasketApi;
service Basket {
    rpc GetBasket(GetBasketRequest) returns (CustomerBasketResponse) {}
}
// --- path: Other/Proto/basket.proto ---
syntax = "proto3";
package other.basket_v2;
service Basket {
    rpc GetBasket(GetBasketRequest) returns (CustomerBasketResponse) {}
}
// --- path: Ordering/Proto/ordering.proto ---
syntax = "proto3";
package ordering;
service Ordering {
    rpc Ship(ShipRequest) returns (ShipReply) {}
}
// --- path: Basket.API/Grpc/BasketService.cs ---
namespace eShop.Basket.API.Grpc;

public class BasketService : Basket.BasketBase
{
    public override Task<CustomerBasketResponse> GetBasket(GetBasketRequest r, ServerCallContext c) => null;
}
// --- path: Other/BasketV2Service.cs ---
using Grpc.Core;
using Other.BasketV2;

namespace Other.Impl;

public class BasketV2Service : Basket.BasketBase
{
    public override Task<CustomerBasketResponse> GetBasket(GetBasketRequest r, ServerCallContext c) => null;
}
// --- path: WebApp/BasketClient.cs ---
using GrpcBasketClient = eShop.Basket.API.Grpc.Basket.BasketClient;

namespace eShop.WebApp;

public class BasketState(GrpcBasketClient client, Ordering.OrderingClient ordering, Somewhere.Basket.BasketClient lost)
{
    public Task Load() => client.GetBasketAsync(new());
    public Task Ship() => ordering.ShipAsync(new());
    public Task Lost() => lost.GetBasketAsync(new());
}
"""


def test_csharp_uses_match_the_proto_by_its_csharp_namespace() -> None:
    edges, outcomes = _link(CSHARP)
    assert edges == [
        ("CALLS_HTTP", "WebApp/BasketClient.BasketState.Load(0)", "endpoint:GRPC BasketApi.Basket/GetBasket", "exact"),
        ("CALLS_HTTP", "WebApp/BasketClient.BasketState.Ship(0)", "endpoint:GRPC ordering.Ordering/Ship", "name"),
        ("EXPOSES", "Basket.API/Grpc/BasketService.BasketService.GetBasket(2)",
         "endpoint:GRPC BasketApi.Basket/GetBasket", "exact"),
        ("EXPOSES", "Other/BasketV2Service.BasketV2Service.GetBasket(2)",
         "endpoint:GRPC other.basket_v2.Basket/GetBasket", "exact"),
    ]
    # Ship: one Ordering service, whose default namespace (Ordering) the client's namespaces do not
    # hold: linked by name; Lost: `Somewhere` is neither Basket's namespace: two services, ambiguous
    assert outcomes == {"calls_grpc": 2, "exposes_grpc": 2, "unlinked_grpc_ambiguous": 1}


GO_GENERATED = """// Code generated by protoc-gen-go-grpc. DO NOT EDIT.
package %s

import grpc "google.golang.org/grpc"

var %s_ServiceDesc = grpc.ServiceDesc{
\tServiceName: "%s",
\tHandlerType: (*InventoryServiceServer)(nil),
\tMethods: []grpc.MethodDesc{
\t\t{
\t\t\tMethodName: "Reserve",
\t\t\tHandler:    _InventoryService_Reserve_Handler,
\t\t},
\t},
\tStreams: []grpc.StreamDesc{
\t\t{
\t\t\tStreamName:    "Watch",
\t\t\tHandler:       _InventoryService_Watch_Handler,
\t\t\tServerStreams: true,
\t\t},
\t},
\tMetadata: "inventory.proto",
}

type UnimplementedInventoryServiceServer struct{}

func (UnimplementedInventoryServiceServer) Reserve(context.Context, *R) (*R, error) { return nil, nil }
func (UnimplementedInventoryServiceServer) Watch(*R, grpc.ServerStream) error { return nil }
"""


def test_go_generated_service_descs_declare_their_services() -> None:
    ex = _extract("gen/a/inventory_grpc.pb.go", GO_GENERATED % ("a", "InventoryService", "shop.a.InventoryService"))
    assert [(s.package, s.name, s.rpcs, s.line) for s in ex.rpc_services] == [
        ("shop.a", "InventoryService", ["Reserve", "Watch"], 7)]
    assert ex.rpc_uses == []
    # a message file of protoc-gen-go (no ServiceDesc) declares nothing; nor does hand-written code
    assert _extract("gen/a/inventory.pb.go", "package a\n\ntype R struct{}\n").rpc_services == []
    assert _extract("svc/desc.go", GO_GENERATED % ("svc", "X", "x.X")).rpc_services == []


GO_LINKED = """
// --- path: go.mod ---
module example.com/shop
// --- path: proto/a/inventory.proto ---
syntax = "proto3";
package shop.a;
service InventoryService { rpc Reserve (R) returns (R); rpc Watch (R) returns (stream R); }
// --- path: proto/b/inventory.proto ---
syntax = "proto3";
package shop.b;
service InventoryService { rpc Reserve (R) returns (R); rpc Watch (R) returns (stream R); }
// --- path: gen/a/inventory_grpc.pb.go ---
""" + GO_GENERATED % ("a", "InventoryService", "shop.a.InventoryService") + """
// --- path: gen/b/inventory_grpc.pb.go ---
""" + GO_GENERATED % ("b", "InventoryService", "shop.b.InventoryService") + """
// --- path: gen/billing/billing_grpc.pb.go ---
""" + (GO_GENERATED % ("billing", "Billing", "pay.Billing")).replace('"Reserve"', '"Charge"') + """
// --- path: server/server.go ---
package server

import (
    "context"

    "google.golang.org/grpc"
    pb "example.com/shop/gen/b"
)

type inventory struct{ pb.UnimplementedInventoryServiceServer }

func (s *inventory) Reserve(ctx context.Context, r *pb.R) (*pb.R, error) { return nil, nil }

func Serve(s *grpc.Server) { pb.RegisterInventoryServiceServer(s, &inventory{}) }
// --- path: client/client.go ---
package client

import (
    "context"

    billing "example.com/shop/gen/billing"
    inv "example.com/shop/gen/a"
    other "example.com/elsewhere/inventory"
)

func Reserve(ctx context.Context, conn *grpc.ClientConn) {
    inv.NewInventoryServiceClient(conn).Reserve(ctx, nil)
    billing.NewBillingClient(conn).Charge(ctx, nil)
    other.NewInventoryServiceClient(conn).Reserve(ctx, nil)
}
"""


def test_go_uses_match_the_service_of_the_generated_package_they_import() -> None:
    # Newcomer review (microservices-demo): every grpc-go link was made by service name only, so a
    # service name two .proto packages declare linked no Go client or server at all.
    edges, outcomes = _link(GO_LINKED)
    assert edges == [
        ("CALLS_HTTP", "client/client.Reserve(2)", "endpoint:GRPC pay.Billing/Charge", "exact"),
        ("CALLS_HTTP", "client/client.Reserve(2)", "endpoint:GRPC shop.a.InventoryService/Reserve", "exact"),
        ("EXPOSES", "server/server.inventory.Reserve(2)", "endpoint:GRPC shop.b.InventoryService/Reserve", "exact"),
    ]
    # the server embeds the generated UnimplementedInventoryServiceServer: its Watch (returning
    # codes.Unimplemented) exposes nothing.
    # pay.Billing is declared by generated code only (no .proto checked in); `other` is a package of
    # another module holding neither InventoryService: ambiguous, never linked to shop.a nor shop.b
    assert outcomes == {"calls_grpc": 2, "exposes_grpc": 1, "unlinked_grpc_ambiguous": 1}
