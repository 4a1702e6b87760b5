"""grpc-go servers and clients -> :class:`~indexer.model.RpcUse` (framework ``grpc-go``; the linker
finds the ``.proto`` by service name, :mod:`indexer.frameworks.grpc`).

* servers: ``pb.RegisterFooServer(s, impl)`` serves ``Foo`` through ``impl`` (``owner_ref``, resolved
  from the enclosing function: ``&impl{}`` / ``impl{}`` name the type ``impl``, a name its value); the
  linker matches the type's methods (in any file of its package, promoted ones too) to the rpcs by
  their declared names (``GetProduct``).
* clients: a call ``M(...)`` on ``pb.NewFooClient(conn)`` written in the chain, on a name assigned it
  in the same function (``c := pb.NewFooClient(conn)``), or on a field, parameter or variable declared
  ``pb.FooClient`` calls the rpc ``M`` of ``Foo``. ``pb`` must be an import (generated code lives in
  another package); the generated ``*.pb.go`` / ``*_grpc.pb.go`` files themselves are skipped.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.go.frameworks.common import GoFile, go_file
from indexer.model import FileExtraction, RpcUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("go",)
_FRAMEWORK = "grpc-go"
_REGISTER = re.compile(r"^Register(\w+)Server$")
_NEW_CLIENT = re.compile(r"^New(\w+)Client$")
_CLIENT_TYPE = re.compile(r"^\*?(\w+)\.(\w+)Client$")


def _client_factory(gf: GoFile, node: Node) -> str | None:
    """The service of ``pb.NewFooClient(conn)``, else ``None``."""
    if node.type != "call_expression":
        return None
    sel = gf.selector(node)
    if sel is None or sel[0] not in gf.imports:
        return None
    m = _NEW_CLIENT.match(sel[1])
    return m.group(1) if m else None


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's gRPC server registrations and client calls to ``out``."""
    if out.path.endswith((".pb.go", "_grpc.pb.go")) or b"grpc" not in src.data and b"Client" not in src.data:
        return
    gf = go_file(root, src, out)
    typed: dict[str, str] = {}  # receiver text -> service, for names declared or assigned a client
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type in ("parameter_declaration", "field_declaration", "var_spec"):
            tnode = n.child_by_field_name("type")
            m = _CLIENT_TYPE.match(gf.expr(tnode)) if tnode is not None else None
            if m and m.group(1) in gf.imports and _looks_generated(gf.imports[m.group(1)]):
                for nm in n.children_by_field_name("name"):
                    typed[gf.text(nm)] = m.group(2)
        elif n.type in ("short_var_declaration", "assignment_statement"):
            left, right = n.child_by_field_name("left"), n.child_by_field_name("right")
            if left is not None and right is not None and left.named_children and right.named_children:
                svc = _client_factory(gf, right.named_children[0])
                if svc is not None:
                    typed[gf.expr(left.named_children[0])] = svc
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
                                       owner_ref=gf.expr(impl), scope=gf.owner(call)))
            continue
        fn = call.child_by_field_name("function")
        operand = fn.child_by_field_name("operand") if fn is not None else None
        svc = _client_factory(gf, operand) if operand is not None else None
        if svc is None:
            svc = typed.get(recv)
            if svc is None and "." in recv:  # s.client: a field declared with the client type
                svc = typed.get(recv.rsplit(".", 1)[1])
        if svc is None or not name[:1].isupper():
            continue
        line, col = gf.pos(fn.child_by_field_name("field"))
        out.rpc_uses.append(RpcUse(_FRAMEWORK, "calls", svc, name, gf.owner(call), line, col))


def _looks_generated(path: str) -> bool:
    """Whether an import path plausibly holds generated gRPC code (``.../genproto``, ``.../pb``,
    ``.../proto/...``, ``..._grpc``): a declared ``x.FooClient`` of another package is taken only then."""
    low = path.lower()
    return any(k in low for k in ("pb", "proto", "grpc", "/gen", "api/"))
