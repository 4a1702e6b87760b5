"""grpc-java servers and stubs -> :class:`~indexer.model.RpcUse` (the linker finds the ``.proto``).

The generated ``<Service>Grpc`` class is not in the repository (it is built from the ``.proto``); its
name says the service. Taken:

* servers: a class extending ``OrderServiceGrpc.OrderServiceImplBase`` (or ``OrderServiceImplBase``
  imported from ``...OrderServiceGrpc``), or implementing ``OrderServiceGrpc.AsyncService``, serves
  ``OrderService``: the linker matches its methods to the rpcs (``getOrder`` <- ``GetOrder``, the
  generator's lowerCamel rule); an anonymous one (``new OrderServiceGrpc.OrderServiceImplBase() {
  ... }``) serves each rpc it declares a method for through the method holding it, which owns its
  calls (anonymous classes are no definitions);
* clients: a call on a stub (``blocking.getOrder(req)``) whose receiver is a field, local or parameter
  declared ``OrderServiceGrpc.OrderServiceBlockingStub`` / ``OrderServiceStub`` /
  ``OrderServiceFutureStub`` (or imported by its simple name), a local assigned
  ``OrderServiceGrpc.newBlockingStub(channel)`` / ``newStub`` / ``newFutureStub``, or that factory call
  itself (``OrderServiceGrpc.newBlockingStub(ch).getOrder(req)``); ``withDeadlineAfter(...)`` and the
  other ``with*`` calls between are skipped. Other stub methods (``getChannel``) are not rpcs.

``module`` is the Java package ``OrderServiceGrpc`` is imported from (the file's own package when it is
not imported), which the linker matches to the ``.proto``'s ``java_package`` (or ``package``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.java.frameworks.common import GRAMMAR
from indexer.model import FileExtraction, RpcUse, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
_FRAMEWORK = "grpc-java"
_SERVER = re.compile(r"^(?:((?:\w+\.)*)(\w+)Grpc\.)?(\w+)(?:ImplBase|\.AsyncService)$")
_STUB = re.compile(r"^(?:((?:\w+\.)*)(\w+)Grpc\.)?(\w+?)(BlockingV2Stub|BlockingStub|FutureStub|Stub)$")
_FACTORY = re.compile(r"^((?:\w+\.)*)(\w+)Grpc\.new(?:BlockingV2|Blocking|Future)?Stub\(\)$")
_WITH = re.compile(r"(?:\.with\w*\(\))+$")
_NOT_RPCS = frozenset({"getChannel", "getCallOptions", "build"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's grpc-java servers and stub calls to ``out.rpc_uses``."""
    if b"Grpc" not in src.data:
        return
    grpc_classes = {i.local: i.module for i in out.imports if i.name and i.local.endswith("Grpc")}
    nested = {i.local: i.module.rpartition(".")[0] for i in out.imports
              if i.name and i.module.endswith("Grpc")}  # import com.x.FooGrpc.FooBlockingStub

    def service_of(type_text: str, pattern: re.Pattern[str]) -> tuple[str, str | None] | None:
        m = pattern.match(type_text)
        if m is None:
            return None
        qualifier, grpc, name = m.group(1), m.group(2), m.group(3)
        if grpc is not None:
            if grpc != name:
                return None
            return name, qualifier[:-1] if qualifier else grpc_classes.get(grpc + "Grpc", out.package)
        head = type_text.split(".", 1)[0]
        if head in nested and nested[head] is not None and type_text == head:
            return name, nested[head]
        return None

    for d in out.definitions:
        if d.kind != "class":
            continue
        for base in (*d.bases, *d.implements):
            found = service_of(base_type(base) or "", _SERVER)
            if found is not None:
                out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", found[0], None, d.qualname, d.name_line,
                                           d.name_col, module=found[1]))
    stubs: dict[tuple[str | None, str], tuple[str, str | None]] = {}
    for b in out.bindings:
        found = service_of(base_type(b.type) or "", _STUB)
        if found is not None:
            stubs[(b.scope, b.name)] = found
    for _, caps in run_query(query(GRAMMAR, "java/queries", "grpc_java"), root):
        if "anon" in caps:  # its methods are no definitions: the code around it owns their calls and serves
            found = service_of(base_type(src.text(caps["anon_type"][0]).replace(" ", "")) or "", _SERVER)
            method = caps["anon_method"][0]
            if found is not None:
                out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", found[0], src.text(method),
                                           _scope_at(out, src.line(method)), src.line(method), src.col(method),
                                           module=found[1]))
            continue
        factory = src.text(caps["factory"][0])
        grpc = src.text(caps["grpc"][0])
        m = _FACTORY.match(f"{grpc}.{factory}()".replace(" ", ""))
        if m is None:
            continue
        var = src.text(caps["var"][0]).replace(" ", "")
        stubs[(_scope_at(out, src.line(caps["var"][0])), var)] = _factory_service(m, grpc_classes, out.package)
    for c in out.calls:
        if c.receiver is None or c.name.startswith("with") or c.name in _NOT_RPCS:
            continue
        recv = _WITH.sub("", c.receiver)
        m = _FACTORY.match(recv)
        found = _factory_service(m, grpc_classes, out.package) if m else _stub(stubs, c.caller, recv)
        if found is not None:
            out.rpc_uses.append(RpcUse(_FRAMEWORK, "calls", found[0], c.name, c.caller, c.line, c.col,
                                       module=found[1]))


def _factory_service(m: re.Match[str], grpc_classes: dict[str, str], package: str | None) -> tuple[str, str | None]:
    """``(service, Java package)`` of a matched ``[pkg.]FooGrpc.newStub()``."""
    qualifier, name = m.group(1), m.group(2)
    return name, qualifier[:-1] if qualifier else grpc_classes.get(name + "Grpc", package)


def _stub(stubs: dict[tuple[str | None, str], tuple[str, str | None]], scope: str | None,
          name: str) -> tuple[str, str | None] | None:
    """The stub ``name`` is bound to in ``scope`` or a scope around it (a local, then a field)."""
    names = (name, name.removeprefix("this.")) if name.startswith("this.") else (name,)
    s = scope
    while True:
        for n in names:
            if (s, n) in stubs:
                return stubs[(s, n)]
        if not s:
            return None
        s = s.rpartition(".")[0] or None


def _scope_at(out: FileExtraction, line: int) -> str | None:
    """The qualname of the innermost method, constructor or type whose span holds ``line`` (a field
    initialiser's code belongs to its class; ``None``: none)."""
    best = None
    for d in out.definitions:
        if d.kind in ("method", "constructor", "class", "interface", "enum") and d.start_line <= line <= d.end_line:
            if best is None or d.start_line >= best.start_line:
                best = d
    return best.qualname if best is not None else None
