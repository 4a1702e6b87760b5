"""grpc-go servers and clients -> :class:`~indexer.model.RpcUse` (framework ``grpc-go``; the linker
finds the ``.proto`` by service name, :mod:`indexer.frameworks.grpc`).

* servers: ``pb.RegisterFooServer(s, impl)`` serves ``Foo`` through ``impl`` (``owner_ref``, resolved
  from the enclosing function: ``&impl{}`` / ``impl{}`` name the type ``impl``, a name its value); the
  linker matches the type's methods (in any file of its package, promoted ones too) to the rpcs by
  their declared names (``GetProduct``).
* clients: a call ``M(...)`` on ``pb.NewFooClient(conn)`` written in the chain, on a name assigned it
  in the same function (``c := pb.NewFooClient(conn)``; a ``c`` of another function is another
  variable), on a parameter or local variable of the function declared ``pb.FooClient``, or on a
  struct field or package-level variable declared so calls the rpc ``M`` of ``Foo``. ``pb`` must be an import (generated code lives in
  another package); its import path is the use's ``module``.
* generated code: a ``*_grpc.pb.go`` file (protoc-gen-go-grpc, or protoc-gen-go's older
  ``plugins=grpc``) declares each service it serves and calls in a top-level ``grpc.ServiceDesc``
  (``ServiceName: "pkg.Foo"``, one ``MethodName`` / ``StreamName`` per rpc): read as an
  :class:`~indexer.model.RpcService` of that file, so a client or server importing the package
  (``module``) is linked to that service exactly (:mod:`indexer.frameworks.grpc`) even when no
  ``.proto`` is checked in, or several declare a service of that name. Generated files are
  otherwise skipped.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.go.frameworks.common import GoFile, go_file
from indexer.model import FileExtraction, RpcService, RpcUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("go",)
_FRAMEWORK = "grpc-go"
_REGISTER = re.compile(r"^Register(\w+?)(?<!HTTP)Server$")
"""``pb.RegisterFooServer``; not kratos' ``RegisterFooHTTPServer`` (protoc-gen-go-http: the HTTP routes of the
``.proto``'s ``google.api.http`` rules, which the linker reads from the ``.proto`` itself), no service ``FooHTTP``."""
_NEW_CLIENT = re.compile(r"^New(\w+)Client$")
_CLIENT_TYPE = re.compile(r"^\*?(\w+)\.(\w+)Client$")
_SERVICE_NAME = re.compile(rb'\bServiceName:\s*"([\w.]+)"')
_RPC_NAME = re.compile(rb'\b(?:MethodName|StreamName):\s*"(\w+)"')


def _client_factory(gf: GoFile, node: Node) -> tuple[str, str] | None:
    """The service of ``pb.NewFooClient(conn)`` and the import path of ``pb``, else ``None``."""
    if node.type != "call_expression":
        return None
    sel = gf.selector(node)
    if sel is None or sel[0] not in gf.imports:
        return None
    m = _NEW_CLIENT.match(sel[1])
    return (m.group(1), gf.imports[sel[0]]) if m else None


def _service_descs(root: Node, src: SourceText, out: FileExtraction) -> None:
    """The services of a generated file: each top-level ``var X = grpc.ServiceDesc{...}`` gives its
    ``ServiceName`` (``pkg.sub.Foo``: package ``pkg.sub``, service ``Foo``; no dot: no package) and
    its rpcs, the ``MethodName`` (unary) and ``StreamName`` (streaming) values in source order."""
    for decl in root.named_children:
        if decl.type != "var_declaration":
            continue
        # each spec on its own: `var ( a = grpc.ServiceDesc{...}; b = grpc.ServiceDesc{...} )` declares two
        # services (read as one, the first named with the rpcs of both; brk53)
        specs = [c for c in decl.named_children if c.type == "var_spec"]
        specs += [c for group in decl.named_children if group.type == "var_spec_list"
                  for c in group.named_children if c.type == "var_spec"]
        for spec in specs:
            text = src.data[spec.start_byte:spec.end_byte]
            if b"grpc.ServiceDesc{" not in text:
                continue
            found = _SERVICE_NAME.search(text)
            if found is None:
                continue
            package, _, name = found.group(1).decode().rpartition(".")
            rpcs = list(dict.fromkeys(m.group(1).decode() for m in _RPC_NAME.finditer(text)))
            line = src.line(spec) + text.count(b"\n", 0, found.start())
            out.rpc_services.append(RpcService(package, name, rpcs, name, line))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's gRPC server registrations and client calls to ``out``; of a generated
    ``*_grpc.pb.go`` file, the services its ``grpc.ServiceDesc`` values declare."""
    if out.path.endswith("_grpc.pb.go") or out.path.endswith(".pb.go") and b"grpc.ServiceDesc{" in src.data:
        _service_descs(root, src, out)
        return
    if out.path.endswith(".pb.go") or b"grpc" not in src.data and b"Client" not in src.data:
        return
    gf = go_file(root, src, out)
    # (function qualname or None for fields and package variables, receiver text) -> (service, import path)
    typed: dict[tuple[str | None, str], tuple[str, str]] = {}
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type in ("parameter_declaration", "field_declaration", "var_spec"):
            tnode = n.child_by_field_name("type")
            m = _CLIENT_TYPE.match(gf.expr(tnode)) if tnode is not None else None
            if m and m.group(1) in gf.imports and _looks_generated(gf.imports[m.group(1)]):
                scope = None if n.type == "field_declaration" else gf.owner(n)
                for nm in n.children_by_field_name("name"):
                    typed[(scope, gf.text(nm))] = (m.group(2), gf.imports[m.group(1)])
        elif n.type in ("short_var_declaration", "assignment_statement"):
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None and left.named_children and right.named_children:
                found = _client_factory(gf, right.named_children[0])
                if found is not None:
                    typed[(gf.owner(n), gf.expr(left.named_children[0]))] = found
    for call in gf.calls:
        sel = gf.selector(call)
        if sel is None:
            continue
        recv, name = sel
        args = gf.args(call)
        m = _REGISTER.match(name)
        if m and recv in gf.imports and len(args) == 2:
            impl = args[1]
            if impl.type == "unary_expression" and impl.child_by_field_name("operand") is not None:
                impl = impl.child_by_field_name("operand")
            if impl.type == "composite_literal" and impl.child_by_field_name("type") is not None:
                impl = impl.child_by_field_name("type")
            line, col = gf.pos(call)
            out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", m.group(1), None, None, line, col,
                                       owner_ref=gf.expr(impl), scope=gf.owner(call), module=gf.imports[recv]))
            continue
        fn = call.child_by_field_name("function")
        operand = fn.child_by_field_name("operand") if fn is not None else None
        found = _client_factory(gf, operand) if operand is not None else None
        if found is None and typed:
            found = typed.get((gf.owner(call), recv)) or typed.get((None, recv))
            if found is None and "." in recv:  # s.client: a field declared with the client type
                found = typed.get((None, recv.rsplit(".", 1)[1]))
        if found is None or not name[:1].isupper():
            continue
        line, col = gf.pos(fn.child_by_field_name("field"))
        out.rpc_uses.append(RpcUse(_FRAMEWORK, "calls", found[0], name, gf.owner(call), line, col, module=found[1]))


def _looks_generated(path: str) -> bool:
    """Whether an import path plausibly holds generated gRPC code (``.../genproto``, ``.../pb``,
    ``.../proto/...``, ``..._grpc``): a declared ``x.FooClient`` of another package is taken only then."""
    low = path.lower()
    return any(k in low for k in ("pb", "proto", "grpc", "/gen", "api/"))
