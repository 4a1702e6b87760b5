"""Session 60, brk60: a newcomer on open-telemetry/opentelemetry-demo and
spring-petclinic-microservices, and session 59's additions attacked. Each class is one defect found,
with exact expectations and what must not be linked."""

from __future__ import annotations

import hashlib

from indexer.languages import extractor_for_path
from indexer.resolve.repository import resolve_repository
from tests.resolution_harness import split_fixture


def _link(fixture: str) -> tuple[list[tuple], dict[str, int]]:
    extractions = []
    for path, source in split_fixture(fixture).items():
        data = source.encode()
        ex = extractor_for_path(path)
        assert ex is not None
        extractions.append((ex.extract(path, data), hashlib.sha256(data).hexdigest(), len(data)))
    result = resolve_repository("t", extractions)
    edges = sorted((e.kind, e.src.removeprefix("t:"), e.dst, e.props.get("match")) for f in result.files
                   for e in f.edges if e.kind in ("EXPOSES", "CALLS_HTTP", "PRODUCES", "CONSUMES"))
    return edges, dict(result.link_outcomes)


# -- opentelemetry-demo's frontend: ts-proto clients built with ChannelCredentials --------------------

CHANNEL_CREDENTIALS = """
# --- path: pb/demo.proto ---
syntax = "proto3";
package oteldemo;
service CartService { rpc GetCart (R) returns (R); rpc EmptyCart (R) returns (R); }
# --- path: src/cart/CartService.cs ---
namespace cart.services;
public class CartService : Oteldemo.CartService.CartServiceBase
{
    public override async Task<Cart> GetCart(GetCartRequest request, ServerCallContext context) { return null; }
}
# --- path: src/frontend/gateways/Cart.gateway.ts ---
import { ChannelCredentials } from '@grpc/grpc-js';
import { CartServiceClient, Widget } from '../../protos/demo';

const client = new CartServiceClient(CART_ADDR, ChannelCredentials.createInsecure());
const other = new CartServiceClient(CART_ADDR, { retries: 3 });
const widget = new Widget(CART_ADDR, ChannelCredentials.createSsl());

const CartGateway = () => ({
  getCart(userId: string) {
    return new Promise((resolve, reject) => client.getCart({ userId }, (e, r) => (e ? reject(e) : resolve(r))));
  },
  emptyCart(userId: string) {
    other.emptyCart({ userId }, () => {});
    widget.emptyCart({ userId });
  },
});
export default CartGateway();
"""


class TestChannelCredentialsClients:
    def test_the_frontend_client_reaches_the_csharp_server(self) -> None:
        edges, outcomes = _link(CHANNEL_CREDENTIALS)
        assert edges == [
            ("CALLS_HTTP", "src/frontend/gateways/Cart.gateway.CartGateway(0)",
             "endpoint:GRPC oteldemo.CartService/GetCart", "name"),
            ("EXPOSES", "src/cart/CartService.CartService.GetCart(2)",
             "endpoint:GRPC oteldemo.CartService/GetCart", "exact"),
        ]
        # A constructor given no credentials and a class not named like a client call no rpc.
        assert outcomes["calls_grpc"] == 1
