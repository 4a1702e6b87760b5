"""The ``.proto`` extractor: one Protocol Buffers file -> :class:`~indexer.model.FileExtraction`.

Rules (``queries/services.scm``):

* ``package shop.v1;`` is the file's ``package``; ``option java_package = "com.shop.v1";`` is kept
  on each service (where grpc-java generates ``<Service>Grpc``), and so is ``option csharp_namespace``
  (where Grpc.Tools generates the C# classes);
* every ``service`` is an ``interface`` definition named after it, every ``rpc`` a ``method``
  ``Service.Rpc`` under it, and each service an :class:`~indexer.model.RpcService` (its rpcs in order):
  the linker makes ``GRPC package.Service/Rpc`` endpoints of them for the code that serves or calls
  them;
* every top-level ``message`` is a ``class`` definition (search and symbols; fields are not kept);
* an rpc's ``option (google.api.http) = { get: "/v1/beers/{id}" body: "*" additional_bindings { post:
  "..." } }`` (``get`` / ``put`` / ``post`` / ``delete`` / ``patch``, ``custom { kind: "X" path: "..." }``)
  is an HTTP binding of the rpc (:attr:`~indexer.model.RpcService.http`): the code serving the rpc
  serves that route too (grpc-gateway, kratos' generated ``*_http.pb.go``, Envoy's transcoder).

Not followed: nested messages, enums, ``extend``, imports (a service is matched by its own file's
package). Syntax errors are listed in ``errors``; what parsed is still extracted.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.languages.base import SourceText, parse_errors, parser, query, run_query, kept_on_failure
from indexer.model import Definition, FileExtraction, RpcService

__all__ = ["EXTRACTOR", "ProtoExtractor"]

GRAMMAR = "proto"
_HTTP_OPTION = re.compile(r"\boption\s*\(\s*google\.api\.http\s*\)\s*=\s*\{")
_HTTP_RULE = re.compile(r'\b(get|put|post|delete|patch)\s*:\s*"([^"\n]*)"')
_HTTP_CUSTOM = re.compile(r'\bcustom\s*:?\s*\{\s*kind\s*:\s*"(\w+)"\s*[,;]?\s*path\s*:\s*"([^"\n]*)"')
_VARIABLE = re.compile(r"\{([\w.]+)(?:=([^}]*))?\}")


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
            owner.http.extend((name, method, path) for method, path in http_bindings(src.text(node)))
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


def http_bindings(rpc_text: str) -> list[tuple[str, str]]:
    """``(METHOD, path)`` of each HTTP rule in the ``option (google.api.http)`` blocks of an rpc's text,
    in source order (the main rule, then its ``additional_bindings``; ``custom`` rules by their
    ``kind``). A variable ``{name=shelves/*}`` becomes its pattern with each ``*`` / ``**`` written
    ``{name}`` (``shelves/{name}``); ``{id}`` stays. A rule whose path does not start with ``/`` is
    not an HTTP rule (``body: "*"`` is no path) and an unterminated block is read to the rpc's end."""
    out: list[tuple[str, str]] = []
    for opt in _HTTP_OPTION.finditer(rpc_text):
        depth, end = 1, len(rpc_text)
        for i in range(opt.end(), len(rpc_text)):
            ch = rpc_text[i]
            if ch == "{":
                depth += 1
            elif ch == "}":
                depth -= 1
                if depth == 0:
                    end = i
                    break
        block = rpc_text[opt.end():end]
        found = [(m.start(), m.group(1).upper(), m.group(2)) for m in _HTTP_RULE.finditer(block)]
        found += [(m.start(), m.group(1).upper(), m.group(2)) for m in _HTTP_CUSTOM.finditer(block)]
        for _, method, path in sorted(found):
            if path.startswith("/"):
                out.append((method, _VARIABLE.sub(_variable, path)))
    return out


def _variable(m: re.Match[str]) -> str:
    name, pattern = m.group(1), m.group(2)
    if pattern is None:
        return "{" + name + "}"
    return re.sub(r"\*\*?", "{" + name + "}", pattern)


def _definition(src: SourceText, kind: str, name: str, qualname: str, parent: str | None, node: Node,
                name_node: Node) -> Definition:
    return Definition(
        kind=kind, name=name, qualname=qualname, parent=parent,
        start_line=src.line(node), start_col=src.col(node), end_line=node.end_point[0] + 1,
        end_col=src.end_col(node), name_line=src.line(name_node), name_col=src.col(name_node),
        signature=" ".join(src.text(node).split("{", 1)[0].split()).rstrip(";"),
    )  # fmt: skip


EXTRACTOR = ProtoExtractor()
