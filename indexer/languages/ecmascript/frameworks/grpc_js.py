"""@grpc/grpc-js servers and clients -> :class:`~indexer.model.RpcUse` (the linker finds the ``.proto``).

Service objects come from ``grpc.loadPackageDefinition(def)`` (``.shop.v1`` after it names the
proto package) or from a generated ``*_grpc_pb`` module. Taken:

* servers: ``server.addService(shop.OrderService.service, { getOrder: handler, ... })``: each property
  of the implementation object (given inline, or a ``const`` of this file holding one) serves the rpc
  it names (``getOrder`` or ``GetOrder``: grpc-js accepts both); a function of a named object is the
  extractor's definition (``impl.getOrder``), an inline function or method of an anonymous object
  becomes a definition of its own, named ``GRPC OrderService/getOrder`` (:func:`indexer.symbols.handler_name`),
  a name is the function it binds (resolved by the linker when not in this file);
  ``server.addService(services.OrderServiceService, impl)`` and ``server.addService(OrderServiceService,
  impl)`` (generated code: grpc-tools, ts-proto; a name imported as is) alike;
* clients: ``new shop.OrderService(address, credentials)`` (``new services.OrderServiceClient(...)``,
  ``new OrderServiceClient(...)`` of generated code imported by name) held in a variable or ``this.x``: a call on it (``client.getOrder(req, cb)``)
  calls the rpc. A ``new a.B(x, y)`` whose root is neither kind of service object counts only when
  its second argument names channel credentials: grpc-js's ``credentials`` (``grpc.credentials.createInsecure()``)
  or its ``ChannelCredentials`` class (``ChannelCredentials.createInsecure()``, as opentelemetry-demo's
  frontend builds its ts-proto clients).

``package`` is the proto package when the code says it (``grpc.loadPackageDefinition(def).shop.v1``
then ``shop.OrderService``, or ``proto.shop.v1.OrderService``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.ecmascript.frameworks.common import FUNCTION_TYPES, js_file, unwrap
from indexer.model import FileExtraction, RpcUse, Template
from indexer.symbols import handler_name
from stores.contracts import GRPC_METHOD

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("javascript", "typescript")
_FRAMEWORK = "grpc-js"
_LOAD = re.compile(r"\b(?:loadPackageDefinition|load)\(.*\)((?:\.\w+)*)$", re.S)
_CREDENTIALS = re.compile(r"credentials|\bChannelCredentials\b")
"""A client constructor's second argument building grpc-js channel credentials: its ``credentials``
namespace (or a variable of that name) or its ``ChannelCredentials`` class."""
_NOT_RPCS = frozenset({"close", "getChannel", "waitForReady", "makeUnaryRequest", "makeClientStreamRequest",
                       "makeServerStreamRequest", "makeBidiStreamRequest", "then", "catch"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's grpc-js services and client calls to ``out.rpc_uses``."""
    if not any(k in src.data for k in (b"addService", b"loadPackageDefinition", b"_grpc_pb", b"credentials",
                                       b"ChannelCredentials")):
        return
    jf = js_file(root, src, out)
    grammar = "tsx" if out.path.lower().endswith(".tsx") else ("javascript" if out.language == "javascript"
                                                               else "typescript")
    packages: dict[str, str] = {}  # variable -> the package its loadPackageDefinition chain names
    objects: dict[str, Node] = {}  # const -> its object literal
    generated = {i.local for i in out.imports if "_grpc_pb" in i.module}
    imported = {i.local for i in out.imports}
    # A function of this file wrapping loadPackageDefinition (``_loadProto(path).hipstershop``) loads too.
    loaders: list[str] = []
    if b"loadPackageDefinition(" in src.data:
        starts = [0, 0] + [i + 1 for i, ch in enumerate(src.data) if ch == 0x0A]  # 1-based line -> offset
        starts.append(len(src.data))
        loaders = [d.name for d in out.definitions if d.kind in ("function", "method")
                   and b"loadPackageDefinition(" in src.data[starts[d.start_line]:starts[min(d.end_line + 1, len(starts) - 1)]]]
    loader = re.compile(r"\b(?:" + "|".join(map(re.escape, loaders)) + r")\(.*\)((?:\.\w+)*)$", re.S) if loaders else None
    adds: list[dict[str, list[Node]]] = []
    news: list[dict[str, list[Node]]] = []
    for _, caps in run_query(query(grammar, "ecmascript/queries", "grpc"), root):
        if "pkg_var" in caps:
            value = unwrap(caps["pkg_value"][0])
            text = jf.flat(value)
            m = _LOAD.search(text) or (loader.search(text) if loader is not None else None)
            if m is not None and text.rstrip().endswith(m.group(0)):
                packages[jf.text(caps["pkg_var"][0])] = m.group(1).lstrip(".")
            elif value is not None and value.type == "object":
                objects[jf.text(caps["pkg_var"][0])] = value
        elif "add_call" in caps:
            adds.append(caps)
        elif "new" in caps:
            news.append(caps)

    def service(chain: str, suffix: str) -> tuple[str, str | None] | None:
        """``(service, package)`` of a service object's expression (``shop.OrderService``)."""
        parts = chain.split(".")
        if len(parts) < 2:  # generated code imported by name: OrderServiceService, new OrderServiceClient(...)
            name = parts[0]
            ok = name in imported and name.endswith(suffix) and len(name) > len(suffix) and suffix
            return (name[: -len(suffix)], None) if ok else None
        root_name, middle, last = parts[0], parts[1:-1], parts[-1]
        if root_name in generated:
            return (last[: -len(suffix)], None) if last.endswith(suffix) and len(last) > len(suffix) else None
        if root_name in packages:
            return last, ".".join(p for p in (packages[root_name], *middle) if p)
        return (last, ".".join(middle) or None) if root_name not in generated else None

    defined = {(d.start_line, d.start_col): d.qualname for d in out.definitions if d.kind in ("function", "method")}
    for caps in adds:
        svc_text = jf.flat(caps["svc"][0])
        found = (service(svc_text.removesuffix(".service"), "") if svc_text.endswith(".service")
                 else service(svc_text, "Service"))
        if found is None:
            continue
        impl = unwrap(caps["impl"][0])
        if impl is not None and impl.type == "identifier":
            impl = objects.get(jf.text(impl))
        pairs = _pairs(jf, impl)
        call = caps["add_call"][0]
        for rpc, value in pairs:
            line, col = jf.pos(value)
            if value.type in FUNCTION_TYPES or value.type == "method_definition":
                # a function of a named object literal is the extractor's definition already (impl.getOrder)
                owner = defined.get(jf.pos(value)) or (defined.get(jf.pos(value.parent)) if value.parent else None)
                owner = owner or jf.inline_function(value, handler_name([GRPC_METHOD], Template.of(f"{found[0]}/{rpc}")))
                out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", found[0], rpc, owner, line, col, package=found[1]))
            elif value.type == "shorthand_property_identifier":  # { getOrder }: the function it names
                local = jf.local_callable(rpc, jf.code_scope(call))
                out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", found[0], rpc, local, line, col,
                                           owner_ref=None if local else rpc, scope=jf.code_scope(call),
                                           package=found[1]))
            else:
                bound = value.child_by_field_name("function") if value.type == "call_expression" else None
                if bound is not None and bound.type == "member_expression" and jf.text(
                        bound.child_by_field_name("property")) == "bind":  # handler.bind(this): the handler
                    value = bound.child_by_field_name("object") or value
                handled = jf.handler(value, call, "")
                if handled is None:
                    continue
                owner, ref = handled
                out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", found[0], rpc, owner, line, col, owner_ref=ref,
                                           scope=jf.code_scope(call), package=found[1]))
    stubs: dict[tuple[str | None, str], tuple[str, str | None]] = {}
    for caps in news:
        ctor = jf.flat(caps["ctor"][0])
        root_name = ctor.split(".", 1)[0]
        args = [a for a in caps["args"][0].named_children if a.type != "comment"]
        if root_name not in packages and root_name not in generated and not (
                len(args) >= 2 and _CREDENTIALS.search(jf.flat(args[1]))):
            continue
        found = service(ctor, "Client")
        node = caps["new"][0]
        parent = node.parent
        while parent is not None and parent.type in ("parenthesized_expression", "await_expression"):
            parent = parent.parent
        if found is None or parent is None:
            continue
        if parent.type == "variable_declarator":
            var = jf.text(parent.child_by_field_name("name"))
        elif parent.type == "assignment_expression":
            var = jf.flat(parent.child_by_field_name("left"))
        else:
            continue
        stubs[(jf.code_scope(node), var)] = found
    for c in out.calls:
        if c.receiver is None or c.name in _NOT_RPCS or c.is_new:
            continue
        s: str | None = c.caller
        while True:
            hit = stubs.get((s, c.receiver))
            if hit is not None or not s:
                break
            s = s.rpartition(".")[0] or None
        if hit is None and c.receiver.startswith("this."):
            hit = next((v for (scope, name), v in stubs.items() if name == c.receiver
                        and c.caller and scope and c.caller.startswith(scope.rpartition(".")[0] + ".")), None)
        if hit is not None:
            out.rpc_uses.append(RpcUse(_FRAMEWORK, "calls", hit[0], c.name, c.caller, c.line, c.col, package=hit[1]))


def _pairs(jf: object, impl: Node | None) -> list[tuple[str, Node]]:
    """``(property name, value node)`` of an implementation object literal, methods included."""
    if impl is None or impl.type != "object":
        return []
    out: list[tuple[str, Node]] = []
    for c in impl.named_children:
        if c.type == "method_definition":
            name = c.child_by_field_name("name")
            if name is not None:
                out.append((name.text.decode("utf-8", "replace"), c))
        elif c.type == "pair":
            key, value = c.child_by_field_name("key"), c.child_by_field_name("value")
            if key is not None and value is not None:
                out.append((key.text.decode("utf-8", "replace").strip("\"'"), unwrap(value) or value))
        elif c.type == "shorthand_property_identifier":
            out.append((c.text.decode("utf-8", "replace"), c))
    return out
