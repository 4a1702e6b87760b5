"""The ``.proto`` extractor: one Protocol Buffers file -> :class:`~indexer.model.FileExtraction`.

Rules (``queries/services.scm``):

* ``package shop.v1;`` is the file's ``package``; ``option java_package = "com.shop.v1";`` is kept
  on each service (where grpc-java generates ``<Service>Grpc``), and so is ``option csharp_namespace``
  (where Grpc.Tools generates the C# classes);
* every ``service`` is an ``interface`` definition named after it, every ``rpc`` a ``method``
  ``Service.Rpc`` under it, and each service an :class:`~indexer.model.RpcService` (its rpcs in order):
  the linker makes ``GRPC package.Service/Rpc`` endpoints of them for the code that serves or calls
  them;
* every top-level ``message`` is a ``class`` definition (search and symbols; fields are not kept).

Not followed: nested messages, enums, ``extend``, imports (a service is matched by its own file's
package). Syntax errors are listed in ``errors``; what parsed is still extracted.
"""

from __future__ import annotations

from tree_sitter import Node

from indexer.languages.base import SourceText, parse_errors, parser, query, run_query, kept_on_failure
from indexer.model import Definition, FileExtraction, RpcService

__all__ = ["EXTRACTOR", "ProtoExtractor"]

GRAMMAR = "proto"


class ProtoExtractor:
    """The :class:`~indexer.languages.base.Extractor` of ``.proto`` files."""

    language = "proto"
    extensions = (".proto",)

    def extract(self, path: str, source: bytes) -> FileExtraction:
        """Package, services, rpcs and messages of one ``.proto`` file; never raises on bad input
        (syntax errors in ``errors``, an unexpected failure as an ``internal error`` entry)."""
        out = FileExtraction(path=path, language=self.language)
        with kept_on_failure(out):
            src = SourceText(source)
            root = parser(GRAMMAR).parse(source).root_node
            out.errors.extend(parse_errors(root, src))
            _extract(root, src, out)
        return out


def _extract(root: Node, src: SourceText, out: FileExtraction) -> None:
    services: dict[int, RpcService] = {}
    java_package: str | None = None
    csharp_namespace: str | None = None
    for _, caps in run_query(query(GRAMMAR, "proto/queries", "services"), root):
        if "pkg" in caps and out.package is None:
            out.package = "".join(src.text(caps["pkg"][0]).split())
        elif "opt" in caps and src.text(caps["opt"][0]) == "java_package":
            java_package = src.text(caps["opt_value"][0]).strip().strip("\"'") or None
        elif "opt" in caps and src.text(caps["opt"][0]) == "csharp_namespace":
            csharp_namespace = src.text(caps["opt_value"][0]).strip().strip("\"'") or None
        elif "svc" in caps:
            node, name = caps["svc"][0], src.text(caps["svc_name"][0])
            out.definitions.append(_definition(src, "interface", name, name, None, node, caps["svc_name"][0]))
            services[node.id] = RpcService("", name, [], name, src.line(caps["svc_name"][0]))
        elif "rpc" in caps:
            node = caps["rpc"][0]
            svc = node.parent
            owner = services.get(svc.id) if svc is not None else None
            if owner is None:
                continue
            name = src.text(caps["rpc_name"][0])
            owner.rpcs.append(name)
            out.definitions.append(_definition(src, "method", name, f"{owner.name}.{name}", owner.name, node,
                                               caps["rpc_name"][0]))
        elif "msg" in caps:
            name = src.text(caps["msg_name"][0])
            out.definitions.append(_definition(src, "class", name, name, None, caps["msg"][0], caps["msg_name"][0]))
    for svc in services.values():
        svc.package = out.package or ""
        svc.java_package = java_package
        svc.csharp_namespace = csharp_namespace
        out.rpc_services.append(svc)


def _definition(src: SourceText, kind: str, name: str, qualname: str, parent: str | None, node: Node,
                name_node: Node) -> Definition:
    return Definition(
        kind=kind, name=name, qualname=qualname, parent=parent,
        start_line=src.line(node), start_col=src.col(node), end_line=node.end_point[0] + 1,
        end_col=src.end_col(node), name_line=src.line(name_node), name_col=src.col(name_node),
        signature=" ".join(src.text(node).split("{", 1)[0].split()).rstrip(";"),
    )  # fmt: skip


EXTRACTOR = ProtoExtractor()
