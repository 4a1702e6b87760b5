"""Go's implicit interfaces compare a method's parameter list, not only its name: the shape of the code
protoc-gen-go-grpc writes for every service (a client interface whose methods take ``opts
...grpc.CallOption``, a server interface without them, an ``Unimplemented...Server`` the server
embeds) and protoc-gen-go's getters (``GetAds()`` on the response message). A call through the client
interface reaches the client implementation only: never the server, its unimplemented base, nor a
message getter of the same name."""

from tests.resolution_harness import check, edges

GENERATED = """
// --- path: go.mod ---
module example.com/shop
// --- path: pb/demo.pb.go ---
package pb

type Ad struct{}

type AdRequest struct{}

type AdResponse struct{ Ads []*Ad }

func (x *AdResponse) GetAds() []*Ad { return x.Ads }
// --- path: pb/demo_grpc.pb.go ---
package pb

import (
    "context"

    "google.golang.org/grpc"
)

type AdServiceClient interface {
    GetAds(ctx context.Context, in *AdRequest, opts ...grpc.CallOption) (*AdResponse, error)
}

type adServiceClient struct{ cc grpc.ClientConnInterface }

func NewAdServiceClient(cc grpc.ClientConnInterface) AdServiceClient { return &adServiceClient{cc} }

func (c *adServiceClient) GetAds(ctx context.Context, in *AdRequest, opts ...grpc.CallOption) (*AdResponse, error) {
    return nil, nil
}

type AdServiceServer interface {
    GetAds(context.Context, *AdRequest) (*AdResponse, error)
}

type UnimplementedAdServiceServer struct{}

func (UnimplementedAdServiceServer) GetAds(context.Context, *AdRequest) (*AdResponse, error) { return nil, nil }
// --- path: server/server.go ---
package server

import (
    "context"

    "example.com/shop/pb"
)

type adServer struct {
    pb.UnimplementedAdServiceServer
}

func (s *adServer) GetAds(ctx context.Context, req *pb.AdRequest) (*pb.AdResponse, error) { return nil, nil }

func Serve(s pb.AdServiceServer, ctx context.Context) { s.GetAds(ctx, nil) }
// --- path: client/client.go ---
package client

import (
    "context"

    "example.com/shop/pb"
)

func Fetch(conn *grpc.ClientConn, ctx context.Context) {
    resp, _ := pb.NewAdServiceClient(conn).GetAds(ctx, &pb.AdRequest{})
    resp.GetAds()
}
"""


def test_a_method_of_another_parameter_count_does_not_satisfy_an_interface():
    result = check(
        GENERATED,
        [
            "client/client.Fetch(2) -> pb/demo_grpc.pb.NewAdServiceClient(1) [exact]",
            # through the client interface: its one implementation, never the server, the unimplemented
            # base (2 parameters, not variadic) nor the response's getter GetAds() (none)
            "client/client.Fetch(2) -> pb/demo_grpc.pb.AdServiceClient.GetAds(3) [inferred]",
            "client/client.Fetch(2) -> pb/demo_grpc.pb.adServiceClient.GetAds(3) [inferred]",
            # the getter, called on the response
            "client/client.Fetch(2) -> pb/demo.pb.AdResponse.GetAds(0) [inferred]",
            # through the server interface: the server and its unimplemented base, never the client
            "server/server.Serve(2) -> pb/demo_grpc.pb.AdServiceServer.GetAds(2) [exact]",
            "server/server.Serve(2) -> pb/demo_grpc.pb.UnimplementedAdServiceServer.GetAds(2) [inferred]",
            "server/server.Serve(2) -> server/server.adServer.GetAds(2) [inferred]",
        ],
    )
    assert sorted(edges(result, "IMPLEMENTS")) == [
        "pb/demo_grpc.pb.UnimplementedAdServiceServer -> pb/demo_grpc.pb.AdServiceServer",
        "pb/demo_grpc.pb.adServiceClient -> pb/demo_grpc.pb.AdServiceClient",
        "server/server.adServer -> pb/demo_grpc.pb.AdServiceServer",
    ]  # never AdResponse -> AdServiceClient, nor a server -> AdServiceClient


def test_variadic_and_fixed_parameters_of_one_count_differ():
    result = check(
        """
// --- path: go.mod ---
module example.com/log
// --- path: log/log.go ---
package log

type Printer interface{ Print(args ...string) }

type Many struct{}

func (Many) Print(args ...string) {}

type One struct{}

func (One) Print(arg string) {}

func Emit(p Printer) { p.Print("a") }
""",
        [
            "log/log.Emit(1) -> log/log.Printer.Print(1) [exact]",
            "log/log.Emit(1) -> log/log.Many.Print(1) [inferred]",
        ],
    )
    assert edges(result, "IMPLEMENTS") == ["log/log.Many -> log/log.Printer"]  # never One
