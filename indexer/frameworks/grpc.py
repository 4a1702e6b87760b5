"""Join gRPC servers and stubs (:class:`~indexer.model.RpcUse`) to the ``.proto`` services of the
repository (:class:`~indexer.model.RpcService`): part of the framework linker (:mod:`indexer.frameworks.link`
calls :func:`link_rpcs` in its run).

* The Endpoint of an rpc is ``GRPC package.Service/Rpc`` (:data:`stores.contracts.GRPC_METHOD`, the gRPC
  wire path; ``Service/Rpc`` when the ``.proto`` declares no package). Copies of one ``.proto``
  (same package and service) are one service.
* A use is matched to the services of its name. When the code says where its generated code comes
  from (``RpcUse.package``; ``RpcUse.module``: the Java package of ``FooGrpc`` matched to the
  ``.proto``'s ``java_package`` or ``package``, the C# namespaces a file sees matched to its
  ``csharp_namespace`` (:func:`csharp_default_namespace` when unset), a Python ``*_pb2_grpc`` module matched to the
  ``.proto`` file's path, a Go import path matched to the folder of the generated ``*_grpc.pb.go`` file declaring
  the service: the path is the folder or ends with ``/`` + it) and that narrows the candidates to one, the link's ``match`` prop (its certainty, as on queue links) is ``exact``;
  otherwise a service name declared by one ``.proto`` only is linked with ``match`` ``name``, and one
  declared by several (other packages) is linked to none: counted ``unlinked_grpc_ambiguous``.
* A server class EXPOSES each rpc through its method of the rpc's name under the framework's naming
  rule (grpc-java: lowerCamel, ``GetOrder`` -> ``getOrder``; grpcio: as declared; grpc-js: either),
  its own or inherited from a class of the repository (not from generated code checked in,
  :data:`GENERATED`); a server function (a grpc-js handler) the rpc
  it was registered for. A client call CALLS_HTTP the rpc it names (``props["kind"] = "grpc"``), so
  the impact walk crosses it as it crosses HTTP. A Go call on a receiver the resolver types as a generated
  ``FooClient`` (a field declared in another file) is one too (:meth:`_RpcLinker.typed_go_clients`).
* HTTP rules: the code serving an rpc also EXPOSES the HTTP routes its ``.proto`` binds it to
  (``option (google.api.http)``, :attr:`~indexer.model.RpcService.http`; grpc-gateway, kratos).
* Counted in :attr:`LinkResult.outcomes`: ``exposes_grpc``, ``calls_grpc``, ``exposes_http_rule``; ``unlinked_grpc_no_proto``
  (no ``.proto`` of the repository declares the service), ``unlinked_grpc_ambiguous``,
  ``unlinked_grpc_rpc`` (a call or handler naming no rpc of the service), ``unlinked_grpc_server``
  (a server whose implementation resolves to nothing, or implements none of the rpcs).
"""

from __future__ import annotations

import posixpath
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from indexer.frameworks.unlinked import Miss, nearest
from indexer.model import RpcUse
from indexer.resolve.values import ClassV, Def, FuncV, InstV
from indexer.symbols import file_id, module_path
from stores.contracts import GRPC_METHOD, Edge, Node, endpoint_id

if TYPE_CHECKING:
    from indexer.frameworks.link import LinkResult
    from indexer.resolve.context import FileCtx
    from indexer.resolve.language import Lookup

__all__ = ["GENERATED", "csharp_default_namespace", "link_rpcs", "lower_camel", "rpc_names"]

GENERATED = ("_pb2_grpc.py", "_pb2_grpc.pyi", "Grpc.java", "_grpc_pb.js", "_grpc_pb.ts", "_grpc_pb.d.ts", ".pb.go")
"""Suffixes of generated gRPC code checked in beside the sources: the generated servicer base's
methods (``raise NotImplementedError``; grpc-go's embedded ``UnimplementedFooServer``, returning
``codes.Unimplemented``) implement nothing, so a server class inheriting them does not expose those
rpcs through them."""

_LOWER_CAMEL = frozenset({"grpc-java"})
_EITHER = frozenset({"grpc-js"})


@dataclass(slots=True)
class _Service:
    package: str
    name: str
    rpcs: list[str] = field(default_factory=list)
    java_packages: set[str] = field(default_factory=set)
    paths: set[str] = field(default_factory=set)
    csharp_namespaces: set[str] = field(default_factory=set)
    go_dirs: set[str] = field(default_factory=set)
    http: dict[str, list[tuple[str, str]]] = field(default_factory=dict)  # rpc -> its (METHOD, path) bindings

    @property
    def full(self) -> str:
        return f"{self.package}.{self.name}" if self.package else self.name


def csharp_default_namespace(package: str) -> str:
    """The namespace Grpc.Tools generates a ``.proto``'s C# code in when it sets no
    ``csharp_namespace``: each part of ``package`` PascalCased, underscores dropped
    (``shop.order_v1`` -> ``Shop.OrderV1``; protoc's C# generator)."""
    return ".".join("".join(w[:1].upper() + w[1:] for w in part.split("_")) for part in package.split(".") if part)


def lower_camel(name: str) -> str:
    """grpc-java's method name for an rpc (its generator's ``MixedLower``): the first letter
    lower-cased, underscores dropped and the letter after each upper-cased: ``GetOrder`` ->
    ``getOrder``, ``get_order`` -> ``getOrder``."""
    out = name[:1].lower()
    upper = False
    for ch in name[1:]:
        if ch == "_":
            upper = True
            continue
        out += ch.upper() if upper else ch
        upper = False
    return out


def rpc_names(framework: str, rpc: str) -> tuple[str, ...]:
    """The method names code of ``framework`` gives the rpc ``rpc``: grpc-java lowerCamel, grpc-js the
    declared name or lowerCamel (both are served and callable), grpcio the declared name."""
    if framework in _LOWER_CAMEL:
        return (lower_camel(rpc),)
    if framework in _EITHER:
        return tuple(dict.fromkeys((rpc, lower_camel(rpc))))
    return (rpc,)


class _RpcLinker:
    def __init__(self, r: Lookup, ctxs: Sequence[FileCtx], result: LinkResult,
                 emit: Callable[[FileCtx, str, Node], None], service_for: Callable[[str], str | None],
                 miss: Miss | None) -> None:
        self.r, self.ctxs, self.result, self.emit, self.miss = r, ctxs, result, emit, miss
        self.service_for = service_for
        self.services: dict[str, dict[str, _Service]] = {}  # name -> full name -> service
        for fc in ctxs:
            for s in fc.ex.rpc_services:
                svc = self.services.setdefault(s.name, {}).setdefault(
                    f"{s.package}.{s.name}" if s.package else s.name, _Service(s.package, s.name))
                svc.rpcs.extend(r for r in s.rpcs if r not in svc.rpcs)
                for rpc, method, path in s.http:
                    bindings = svc.http.setdefault(rpc, [])
                    if (method, path) not in bindings:
                        bindings.append((method, path))
                svc.java_packages.add(s.java_package or s.package)
                svc.csharp_namespaces.add(s.csharp_namespace or csharp_default_namespace(s.package))
                svc.paths.add(module_path(fc.path))
                if fc.path.endswith(".go"):  # generated Go code (grpc-go): its package's folder
                    svc.go_dirs.add(posixpath.dirname(fc.path))

    def run(self) -> None:
        served: set[tuple[str, str]] = set()  # (server class, service) linked through the class's declaration
        deferred: list[tuple[FileCtx, RpcUse]] = []
        for fc in self.ctxs:
            for use in fc.ex.rpc_uses:
                if use.role == "serves" and use.owner_ref is not None and use.rpc is None:
                    deferred.append((fc, use))  # add_XServicer_to_server(Impl(), s): after the classes
                    continue
                self.use(fc, use, served)
        for fc, use in deferred:
            self.use(fc, use, served)
        self.typed_go_clients(served)

    def typed_go_clients(self, served: set[tuple[str, str]]) -> None:
        """grpc-go client calls the file alone cannot see: ``r.data.bc.GetBeer(ctx, req)`` where ``bc``
        is a field declared ``catalogv1.CatalogClient`` in another file of the package (kratos' and
        go-clean-template's data layers declare the struct in ``data.go``, call it everywhere else),
        or the result of a function returning the client. Each Go call named as an rpc of a service
        some ``*_grpc.pb.go`` declares, not already a use of the file, whose receiver the resolver
        types as that generated file's ``FooClient`` interface (or its ``fooClient`` struct) calls
        the rpc of ``Foo`` of that folder (``match`` exact: the folder names the service). A
        receiver of unknown type, or of a type of another folder, links nothing."""
        by_dir: dict[str, dict[str, _Service]] = {}
        names: set[str] = set()
        for svcs in self.services.values():
            for svc in svcs.values():
                for d in svc.go_dirs:
                    by_dir.setdefault(d, {})[svc.name] = svc
                    names.update(svc.rpcs)
        if not by_dir:
            return
        for fc in self.ctxs:
            if not fc.path.endswith(".go") or fc.path.endswith(".pb.go"):
                continue
            taken = {(u.line, u.col) for u in fc.ex.rpc_uses if u.role == "calls"}
            for c in fc.ex.calls:
                if (c.receiver is None or c.via is not None or c.is_new or c.name not in names
                        or (c.line, c.col) in taken):
                    continue
                v = self.r.resolve_expr(fc, c.caller, c.receiver)
                if not isinstance(v, InstV) or not v.c.file.path.endswith(".pb.go"):
                    continue
                folder = posixpath.dirname(v.c.file.path)
                stem = v.c.name.removesuffix("Client")
                svcs = by_dir.get(folder, {})
                svc = svcs.get(stem) or svcs.get(stem[:1].upper() + stem[1:])
                if stem == v.c.name or svc is None or c.name not in svc.rpcs:
                    continue
                self.use(fc, RpcUse("grpc-go", "calls", svc.name, c.name, c.caller, c.line, c.col, module=folder),
                         served)

    def service(self, fc: FileCtx, use: RpcUse) -> tuple[_Service, str] | None:
        """The one service ``use`` names, with the certainty of the match; ``None`` (counted; a call
        recorded, :meth:`unlinked`) when none or several."""
        candidates = list(self.services.get(use.service, {}).values())
        if not candidates:
            self.unlinked(fc, use, "unlinked_grpc_no_proto", use.service,
                          [full for name in nearest(use.service, self.services) for full in sorted(self.services[name])])
            return None
        narrowed = candidates
        if use.package:
            narrowed = [s for s in candidates if s.package == use.package or s.package.endswith("." + use.package)]
        elif use.module and use.framework == "grpc-java":
            narrowed = [s for s in candidates if use.module in s.java_packages]
        elif use.module and use.framework == "grpc-go":
            narrowed = [s for s in candidates if any(use.module == d or use.module.endswith("/" + d) for d in s.go_dirs)]
        elif use.module and use.framework == "grpc-dotnet":
            seen = set(use.module.split())
            narrowed = [s for s in candidates if s.csharp_namespaces & seen]
        elif use.module:
            stem = use.module.lstrip(".").removesuffix("_pb2_grpc").replace(".", "/")
            narrowed = [s for s in candidates if any(p == stem or p.endswith("/" + stem) for p in s.paths)]
        if len(narrowed) == 1:
            return narrowed[0], "exact" if (use.package or use.module) else "name"
        if len(candidates) == 1:
            return candidates[0], "name"
        self.unlinked(fc, use, "unlinked_grpc_ambiguous", use.service, sorted(s.full for s in narrowed or candidates))
        return None

    def unlinked(self, fc: FileCtx, use: RpcUse, reason: str, service: str, candidates: Sequence[str] = ()) -> None:
        """Count ``reason``; a stub call (role ``calls``) is also recorded with ``candidates`` through the
        linker's ``miss`` (an ``UNLINKED`` edge, :mod:`indexer.frameworks.unlinked`)."""
        if use.role != "calls" or self.miss is None:
            self.result.outcomes[reason] += 1
            return
        call = f"{GRPC_METHOD} {service}/{use.rpc}" if use.rpc else f"{GRPC_METHOD} {service}"
        self.miss(fc, self._owner(fc, use.owner, use.line), use.line, use.col, reason, call, use.framework, candidates)

    def use(self, fc: FileCtx, use: RpcUse, served: set[tuple[str, str]]) -> None:
        found = self.service(fc, use)
        if found is None:
            return
        svc, certainty = found
        if use.role == "calls":
            rpc = self._rpc(fc, svc, use)
            if rpc is None:
                return
            src = self._owner(fc, use.owner, use.line)
            eid = self._endpoint(fc, svc, rpc)
            self._edge(fc, "CALLS_HTTP", src, eid, use, certainty)
            self.result.outcomes["calls_grpc"] += 1
            return
        if use.rpc is not None:  # a handler function registered for one rpc
            rpc = self._rpc(fc, svc, use)
            if rpc is None:
                return
            if use.owner is not None:
                handlers = [self._owner(fc, use.owner, use.line)]
            else:
                v = self.r.resolve_expr(fc, use.scope, use.owner_ref or "")
                handlers = [v.f.id] if isinstance(v, FuncV) and v.f.file.repo == self.r.repo else []
            if not handlers:
                self.result.outcomes["unlinked_grpc_server"] += 1
                return
            for h in handlers:
                self._edge(fc, "EXPOSES", h, self._endpoint(fc, svc, rpc), use, certainty)
                self.result.outcomes["exposes_grpc"] += 1
                self._http_routes(fc, svc, rpc, h, use, certainty)
            return
        cls = self._class(fc, use)
        if cls is None or (use.owner_ref is not None and (cls.id, svc.full) in served):
            if cls is None:
                self.result.outcomes["unlinked_grpc_server"] += 1
            return
        served.add((cls.id, svc.full))
        linked = 0
        for rpc in svc.rpcs:
            for name in rpc_names(use.framework, rpc):
                found_members, _ = self.r.lookup(cls, name)
                for m in found_members:
                    if m.is_callable and m.file.repo == self.r.repo and not m.file.path.endswith(GENERATED):
                        self._edge(fc, "EXPOSES", m.id, self._endpoint(fc, svc, rpc), use, certainty)
                        self.result.outcomes["exposes_grpc"] += 1
                        self._http_routes(fc, svc, rpc, m.id, use, certainty)
                        linked += 1
        if not linked:
            self.result.outcomes["unlinked_grpc_server"] += 1

    def _class(self, fc: FileCtx, use: RpcUse) -> Def | None:
        if use.owner is not None:
            rd = fc.def_at(use.owner, use.line)
            return rd if rd is not None and rd.is_type else None
        expr = (use.owner_ref or "").strip()
        v = self.r.resolve_expr(fc, use.scope, expr)
        if isinstance(v, (ClassV, InstV)) and v.c.file.repo == self.r.repo:
            return v.c
        return None

    def _rpc(self, fc: FileCtx, svc: _Service, use: RpcUse) -> str | None:
        for rpc in svc.rpcs:
            if use.rpc in rpc_names(use.framework, rpc):
                return rpc
        by_name = {name: rpc for rpc in svc.rpcs for name in rpc_names(use.framework, rpc)}
        near = [f"{svc.full}/{by_name[n]}" for n in nearest(use.rpc or "", by_name)]
        self.unlinked(fc, use, "unlinked_grpc_rpc", svc.full, list(dict.fromkeys(near)))
        return None

    def _owner(self, fc: FileCtx, qualname: str | None, line: int) -> str:
        rd = fc.def_at(qualname, line) if qualname else None
        return rd.id if rd is not None else file_id(fc.repo, fc.path)

    def _http_routes(self, fc: FileCtx, svc: _Service, rpc: str, handler: str, use: RpcUse, certainty: str) -> None:
        """The HTTP routes the ``.proto`` binds ``rpc`` to (``google.api.http``): ``handler``, serving the
        rpc, EXPOSES each (framework ``google.api.http``, ``route`` the path as the rule writes it, ``rpc`` the
        gRPC wire path), counted ``exposes_http_rule``."""
        for method, path in svc.http.get(rpc, ()):
            eid = endpoint_id(method, path)
            name = eid.removeprefix("endpoint:")
            self.emit(fc, eid, Node(eid, "Endpoint", name, name, "", "", 0, 0, 0, 0,
                                    {"http_method": method, "path": name.partition(" ")[2]}))
            props: dict[str, str] = {"framework": "google.api.http", "route": path, "match": certainty,
                                     "rpc": f"{svc.full}/{rpc}"}
            service = self.service_for(fc.path)
            if service:
                props["service"] = service
            self.result.edges[fc.path].append(Edge("EXPOSES", handler, eid, fc.repo, fc.path, use.line, use.col, None, props))
            self.result.outcomes["exposes_http_rule"] += 1

    def _endpoint(self, fc: FileCtx, svc: _Service, rpc: str) -> str:
        eid = endpoint_id(GRPC_METHOD, f"{svc.full}/{rpc}")
        name = eid.removeprefix("endpoint:")
        self.emit(fc, eid, Node(eid, "Endpoint", name, name, "", "", 0, 0, 0, 0,
                                {"http_method": GRPC_METHOD, "path": name.partition(" ")[2]}))
        return eid

    def _edge(self, fc: FileCtx, kind: str, src: str, dst: str, use: RpcUse, certainty: str) -> None:
        props: dict[str, str] = {"framework": use.framework, "kind": "grpc", "match": certainty}
        service = self.service_for(fc.path) if kind == "EXPOSES" else None
        if service:  # the application serving it, as an HTTP route's EXPOSES edge says
            props["service"] = service
        self.result.edges[fc.path].append(Edge(kind, src, dst, fc.repo, fc.path, use.line, use.col, None, props))


def link_rpcs(r: Lookup, ctxs: Sequence[FileCtx], result: LinkResult,
              emit: Callable[[FileCtx, str, Node], None],
              service_for: Callable[[str], str | None] = lambda path: None, miss: Miss | None = None) -> None:
    """Add to ``result`` the EXPOSES / CALLS_HTTP edges (owned by the file of each use) and the
    ``GRPC`` Endpoint nodes (emitted through ``emit(fc, id, node)``, the linker's per-file emitter) of
    every :class:`~indexer.model.RpcUse` of ``ctxs`` (every file of one repository), matched to the
    repository's ``.proto`` services as the module docstring says; an EXPOSES edge carries
    ``props["service"]``, the application ``service_for(path)`` names for the serving file (as
    :meth:`indexer.frameworks.link_options.LinkOptions.service_for`). ``miss``: the linker's recorder of
    unlinked client calls (:meth:`indexer.frameworks.unlinked.UnlinkedLinks.unlinked`; ``None``: only
    counted). Never raises on odd facts."""
    _RpcLinker(r, ctxs, result, emit, service_for, miss).run()
