"""grpcio servicers and stubs -> :class:`~indexer.model.RpcUse` (the linker finds the ``.proto``).

Names count when they come from a generated ``*_pb2_grpc`` module (``from shop.v1 import
order_pb2_grpc``, ``import order_pb2_grpc as g``, ``from shop.v1.order_pb2_grpc import
OrderServiceStub``). Taken:

* servers: a class deriving from ``order_pb2_grpc.OrderServiceServicer`` serves ``OrderService`` (the
  linker matches its methods to the rpcs by name, ``GetOrder``); the first argument of
  ``add_OrderServiceServicer_to_server(Impl(), server)`` serves it too (a class not deriving from the
  servicer);
* clients: a call on a stub (``stub.GetOrder(req)``, ``self.stub.GetOrder(req)``,
  ``stub.GetOrder.future(req)`` / ``.with_call`` / ``.__call__``) whose receiver is bound to
  ``order_pb2_grpc.OrderServiceStub(channel)`` in its scope or a scope around it (``self.stub`` set in
  ``__init__``), or that constructor call itself.

``module`` is the dotted module the generated code is imported from (``shop.v1.order_pb2_grpc``),
which the linker matches to the ``.proto`` file's path (``shop/v1/order.proto``).
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.model import FileExtraction, RpcUse

if TYPE_CHECKING:
    from collections.abc import Callable

    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import Definition

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)
_FRAMEWORK = "grpc-python"
_GRAMMAR = "python"
_ADD = re.compile(r"^add_(\w+)Servicer_to_server$")
_CALL_FORMS = frozenset({"future", "with_call", "__call__"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's grpcio servicers and stub calls to ``out.rpc_uses``."""
    if b"_pb2_grpc" not in src.data:
        return
    modules: dict[str, str] = {}  # local name of a *_pb2_grpc module -> its dotted module
    names: dict[str, str] = {}  # local name imported from a *_pb2_grpc module -> that module
    for i in out.imports:
        full = "." * i.level + i.module
        if i.name is None and i.module.endswith("_pb2_grpc"):
            modules[i.local] = full
        elif i.name is not None and i.name.endswith("_pb2_grpc"):
            modules[i.local] = f"{full}.{i.name}" if i.module else "." * i.level + i.name
        elif i.name is not None and i.module.endswith("_pb2_grpc"):
            names[i.local] = full

    def generated(text: str, suffix: str) -> tuple[str, str] | None:
        """``(service, module)`` of ``mod.<Service><suffix>`` / an imported ``<Service><suffix>``."""
        head, _, last = text.rpartition(".")
        module = modules.get(head) if head else names.get(last)
        if module is None or not last.endswith(suffix) or len(last) == len(suffix):
            return None
        return last[: -len(suffix)], module

    for d, found in _servicer_classes(out, lambda base: generated(base, "Servicer")):
        out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", found[0], None, d.qualname, d.name_line,
                                   d.name_col, module=found[1]))
    for _, caps in run_query(query(_GRAMMAR, "python/queries", "grpc_python"), root):
        fn = src.text(caps["fn"][0])
        head, _, last = fn.rpartition(".")
        m = _ADD.match(last)
        module = (modules.get(head) if head else names.get(last)) if m else None
        if m is None or module is None:
            continue
        call = caps["call"][0]
        out.rpc_uses.append(RpcUse(_FRAMEWORK, "serves", m.group(1), None, None, src.line(call), src.col(call),
                                   owner_ref=src.text(caps["impl"][0]), scope=_scope_at(out, src.line(call)),
                                   module=module))
    stubs: dict[tuple[str | None, str], tuple[str, str]] = {}
    for b in out.bindings:
        if b.how == "constructed":
            found = generated(b.type, "Stub")
            if found is not None:
                stubs[(b.scope, b.name)] = found
    for c in out.calls:
        if c.receiver is None:
            continue
        recv, rpc = c.receiver, c.name
        if rpc in _CALL_FORMS and "." in recv and not recv.endswith(")"):
            recv, _, rpc = recv.rpartition(".")
        found = generated(recv[:-2], "Stub") if recv.endswith("()") else _stub(stubs, c.caller, recv)
        if found is not None:
            out.rpc_uses.append(RpcUse(_FRAMEWORK, "calls", found[0], rpc, c.caller, c.line, c.col, module=found[1]))


def _servicer_classes(out: FileExtraction, generated: Callable[[str], tuple[str, str] | None]
                      ) -> list[tuple[Definition, tuple[str, str]]]:
    """The file's classes serving a generated servicer, each with ``(service, module)``.

    A class deriving from ``pb2_grpc.FooServicer`` serves ``Foo``, and so does a class deriving from
    such a class of the same file, at any depth (``class Base(FooServicer)``, ``class Impl(Base)``):
    the base class often holds the health check while each subclass implements the rpcs. Several
    servicers inherited: the first base that serves wins, in base order.
    """
    classes = [d for d in out.definitions if d.kind == "class"]
    serving: dict[str, tuple[str, str]] = {}
    changed = True
    while changed:  # a fixpoint over the file's classes: bases may be declared after their subclasses
        changed = False
        for d in classes:
            if d.qualname in serving:
                continue
            for base in d.bases:
                found = generated(base) or serving.get(base)
                if found is not None:
                    serving[d.qualname] = found
                    changed = True
                    break
    return [(d, serving[d.qualname]) for d in classes if d.qualname in serving]


def _stub(stubs: dict[tuple[str | None, str], tuple[str, str]], scope: str | None,
          name: str) -> tuple[str, str] | None:
    """The stub ``name`` is bound to in ``scope`` or a scope around it (``self.stub``: the class's)."""
    s = scope
    while True:
        if (s, name) in stubs:
            return stubs[(s, name)]
        if not s:
            return None
        s = s.rpartition(".")[0] or None


def _scope_at(out: FileExtraction, line: int) -> str | None:
    """The qualname of the innermost function or method whose span holds ``line`` (``None``: none)."""
    best = None
    for d in out.definitions:
        if d.kind in ("function", "method", "constructor") and d.start_line <= line <= d.end_line:
            if best is None or d.start_line >= best.start_line:
                best = d
    return best.qualname if best is not None else None
