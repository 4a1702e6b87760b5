"""gRPC in C# (framework ``grpc-dotnet``) -> :class:`~indexer.model.RpcUse`.

* servers (Grpc.AspNetCore): a class deriving from the generated ``Foo.FooBase`` (written
  ``Ns.Foo.FooBase`` or ``FooBase`` in a file that mentions ``Grpc`` / ``ServerCallContext``) serves
  ``Foo``: the linker matches its methods (``override Task<R> GetCart(...)``) to the rpcs by their
  declared names. ``endpoints.MapGrpcService<T>()`` needs no fact of its own: the class says it.
* clients (Grpc.Net.Client): a call ``c.M(...)`` / ``c.MAsync(...)`` on a name declared or assigned
  ``Foo.FooClient`` (``new Foo.FooClient(channel)``; fields, parameters, primary-constructor
  parameters, locals; or a ``using`` alias of it, ``using BasketClient = Ns.Basket.BasketClient;``)
  calls the rpc ``M`` of ``Foo`` (the ``Async`` suffix dropped).
* ``RpcUse.module`` holds the namespaces where ``Foo`` may be generated (written before it, else the
  file's own, enclosing and ``using`` ones), which the linker matches to the ``.proto``'s
  ``csharp_namespace`` (its ``package`` PascalCased when unset) for an ``exact`` link.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.csharp.frameworks.common import cs_file
from indexer.model import FileExtraction, RpcUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)
_FRAMEWORK = "grpc-dotnet"
_QUALIFIED_BASE = re.compile(r"(?:^|\.)(\w+)\.\1Base$")
_BARE_BASE = re.compile(r"^(\w+)Base$")
_CLIENT = re.compile(r"(?:^|\.)(\w+)\.\1Client$")


def _namespaces(out: FileExtraction, written: str) -> str:
    """Where the generated ``Foo`` class may lie, space-separated (:attr:`RpcUse.module`): the
    namespace written before it (``Ns.Foo.FooBase``: ``Ns``, also under the file's namespace), else the
    file's namespace, its enclosing ones and its ``using`` namespaces."""
    own = out.package or ""
    enclosing = [".".join(own.split(".")[:i]) for i in range(len(own.split(".")), 0, -1)] if own else []
    if written:
        return " ".join(dict.fromkeys([written, *(f"{e}.{written}" for e in enclosing)]))
    usings = [i.module for i in out.imports if i.local == "*"]
    return " ".join(dict.fromkeys([*enclosing, *usings]))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's gRPC service implementations and client calls to ``out``."""
    data = src.data
    if b"Base" not in data and b"Client" not in data:
        return
    grpc_file = b"Grpc" in data or b"ServerCallContext" in data
    for d in out.definitions:
        if d.kind != "class":
            continue
        for b in d.bases:
            m = _QUALIFIED_BASE.search(b) or (_BARE_BASE.match(b) if grpc_file and b != "ControllerBase" else None)
            if m:
                written = b[:m.start()] if m.re is _QUALIFIED_BASE else ""
                out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", m.group(1), None, d.qualname, d.name_line, d.name_col,
                                           module=_namespaces(out, written)))
                break
    if b"Client" not in data:
        return
    cf = cs_file(root, src, out)
    aliases = {i.local: f"{i.module}.{i.name}" for i in out.imports if i.local != "*" and i.name}
    typed: dict[str, tuple[str, str]] = {}  # name -> (service, namespace written before it)
    for b in out.bindings:
        full = aliases.get(b.type, b.type)
        m = _CLIENT.search(full)
        if m:
            typed[b.name] = (m.group(1), full[:m.start()])
    for d in out.definitions:
        full = aliases.get(d.field_type or "", d.field_type or "")
        m = _CLIENT.search(full)
        if d.kind == "field" and m:
            typed[d.name] = typed[f"this.{d.name}"] = (m.group(1), full[:m.start()])
    for call in cf.calls:
        sel = cf.member(call)
        if sel is None:
            continue
        recv, name = sel
        svc = typed.get(recv)
        fn = call.child_by_field_name("function")
        inner = fn.child_by_field_name("expression") if fn is not None else None
        if svc is None and inner is not None and inner.type == "object_creation_expression":
            text = cf.expr(inner.child_by_field_name("type"))
            m = _CLIENT.search(text)
            svc = (m.group(1), text[:m.start()]) if m else None
        if svc is None:
            continue
        rpc = name.removesuffix("Async") if name.endswith("Async") and len(name) > 5 else name
        line, col = cf.pos(fn.child_by_field_name("name"))
        out.rpc_uses.append(RpcUse(_FRAMEWORK, "calls", svc[0], rpc, cf.owner(call), line, col,
                                   module=_namespaces(out, svc[1])))
