"""API-first links: the part of the framework linker (:mod:`indexer.frameworks.link`) that joins
``Route.operation`` / ``HttpCall.operation`` facts to the operations of the repository's OpenAPI
specs (:mod:`indexer.frameworks.openapi`, ``LinkOptions.api``).

* A method implementing a generated API (``"PetsApi.listPets"``) EXPOSES each operation its name
  matches (:func:`~indexer.frameworks.openapi.match_operations`: ``exact`` when the class names the
  operation's tag, ``name`` otherwise), under the application's context path (:func:`served_path`).
* A connexion ``add_api`` (``operation="*"``) makes the function each dotted operationId names EXPOSE
  its operation; the registering file owns the edges (as a Django ``urls.py`` does).
* A generated client's call CALLS_HTTP each operation its name matches.

Edge props: ``framework``, ``operation_id``, ``spec``, ``match`` (and ``service`` / ``url``).
Unlinked, counted in ``LinkResult.outcomes``: ``unlinked_operation`` (no operationId matches),
``unlinked_operation_no_spec`` (the repository has no spec), ``unlinked_handler`` (a dotted
operationId naming no function of the repository).

:class:`ApiFirstLinks` is a mixin of the linker: it uses the linker's lookup, endpoint and edge
helpers (``r``, ``options``, ``result``, ``render``, ``_endpoint``, ``_edge``, ``_owner_id``,
``_members``)."""

from __future__ import annotations

import re
from typing import TYPE_CHECKING, Any

from indexer.frameworks.clients import HOLE, split_url
from indexer.frameworks.openapi import ApiOperation, match_operations
from indexer.frameworks.unlinked import nearest
from indexer.model import HttpCall, Import, Route, Template
from indexer.resolve.values import ClassV, FuncV
from indexer.symbols import file_id
from stores.contracts import declared_route

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["ApiFirstLinks", "GENERATED_API_NAME", "served_path"]

GENERATED_API_NAME = re.compile(r"^[A-Z]\w*Api$")
"""The simple name of an openapi-generator API interface (``PetsApi``)."""
_FEIGN_ARG = re.compile(r'\b(name|value|serviceId|url)\s*=\s*"([^"]*)"')
_LONE_STRING = re.compile(r'^[\w.]*FeignClient\(\s*"([^"]*)"\s*\)$')


def _join(a: str, b: str) -> str:
    return "/" + "/".join(p for p in (a.strip("/"), b.strip("/")) if p)


def served_path(context: str, prefix: str, op: ApiOperation) -> str:
    """The path a server implementing ``op`` serves it at: the application's ``context`` path, then
    the implementing class's own ``prefix`` (``@RequestMapping("/api")``) in place of the spec's base
    path when it has one, else the spec's path (base included). A spec whose base path already starts
    with the context path (``servers: [url: http://host/petclinic/api]`` documents the public URL,
    ``server.servlet.context-path=/petclinic`` included) is not put under it twice.

    >>> served_path("/petclinic/", "/api", ApiOperation("GET", "/petclinic/api/owners", "listOwners", base="/petclinic/api"))
    '/petclinic/api/owners'
    >>> served_path("/petclinic", "", ApiOperation("GET", "/petclinic/api/owners", "listOwners", base="/petclinic/api"))
    '/petclinic/api/owners'
    >>> served_path("/shop", "", ApiOperation("GET", "/v1/pets", "listPets", base="/v1"))
    '/shop/v1/pets'
    """
    if prefix.strip("/"):
        return _join(_join(context, prefix), op.path[len(op.base):] if op.base else op.path)
    ctx = _join(context, "")
    if ctx != "/" and (op.path == ctx or op.path.startswith(ctx + "/")) and op.base.startswith(ctx):
        return op.path
    return _join(context, op.path)


class ApiFirstLinks:
    """Mixin of the framework linker for API-first facts (see the module docstring)."""

    r: Any
    options: Any
    result: Any

    def _operations(self, operation: str, count: bool = True) -> tuple[list[ApiOperation], str]:
        """The spec operations an API-first fact names and the match (``exact`` / ``name``), counting
        what matches nothing unless not to ``count`` (a client call: recorded by the caller)."""
        if not self.options.api.operations:
            if count:
                self.result.outcomes["unlinked_operation_no_spec"] += 1
            return [], ""
        ops, match = match_operations(self.options.api, operation)
        if not ops and count:
            self.result.outcomes["unlinked_operation"] += 1
        return ops, match

    def api_route(self, fc: FileCtx, route: Route) -> tuple[str | None, list[tuple[str, str, str]]]:
        """EXPOSES edges of an API-first route; returns the service and the endpoints linked as
        ``(endpoint id, method, full path)`` (for wrappers)."""
        props = self.options.properties_for(fc.path)
        service = props.get("spring.application.name") or None
        pairs: list[tuple[str, ApiOperation, str]] = []  # (handler id, operation, match)
        if route.operation == "*":
            spec = self.render(fc, None, route.path)  # type: ignore[attr-defined]
            ops = [o for o in self.options.api.operations if o.handler and (not spec or o.spec == spec)]
            if not ops:
                self.result.outcomes["unlinked_operation_no_spec"] += 1
            for op in ops:
                found = self._dotted_function(fc, op.handler or "")
                if found is None:
                    self.result.outcomes["unlinked_handler"] += 1
                else:
                    pairs.append((found, op, "exact"))
            base = ""
        else:
            rd = fc.def_at(route.handler, route.line)
            ops, match = self._operations(route.operation or "")
            pairs = [(rd.id if rd is not None else file_id(fc.repo, fc.path), op, match) for op in ops]
            base = props.get("server.servlet.context-path") or props.get("spring.webflux.base-path") or ""
        own = self.render(fc, None, route.path).replace(HOLE, "{}") if route.operation != "*" else ""  # type: ignore[attr-defined]
        linked: list[tuple[str, str, str]] = []
        for handler, op, match in pairs:
            full = served_path(base, own, op)
            eid = self._endpoint(fc, op.method, full)  # type: ignore[attr-defined]
            self._edge(fc, "EXPOSES", handler, eid, route.line, route.col, framework=route.framework,  # type: ignore[attr-defined]
                       service=service, operation_id=op.operation_id, spec=op.spec, match=match, route=declared_route(full))
            self.result.outcomes["exposes"] += 1
            linked.append((eid, op.method, full))
        return service, linked

    def _feign_api(self, fc: FileCtx, scope: str | None, type_name: str) -> tuple[str, str | None] | None:
        """The generated API (``PetsApi``) the type ``type_name`` (seen from ``scope`` in ``fc``)
        extends when it is a ``@FeignClient`` interface of this repository, with the service its
        annotation names (``url`` when it renders to a known host, else ``name`` / ``value``, as
        the Feign detector reads them: ``None`` when neither); else ``None``."""
        v = self.r.resolve_expr(fc, scope, type_name)
        if not isinstance(v, ClassV) or v.c.file.repo != self.r.repo:
            return None
        d = v.c.d
        feign = next((deco for deco in d.decorators if deco.split("(", 1)[0].strip().rpartition(".")[2] == "FeignClient"),
                     None)
        if feign is None:
            return None
        for base in (*d.bases, *d.implements):
            simple = base.split("<", 1)[0].strip().rpartition(".")[2]
            if GENERATED_API_NAME.match(simple):
                return simple, self._feign_service(v.c.file, feign)
        return None

    def _feign_service(self, fc: FileCtx, annotation: str) -> str | None:
        """The service a ``FeignClient(...)`` annotation's text addresses: its ``url`` rendered with
        the configuration (a known host), else its ``name`` / ``value`` / ``serviceId`` (or lone string)."""
        args = dict(_FEIGN_ARG.findall(annotation))
        lone = _LONE_STRING.match(annotation)
        url = args.get("url")
        if url:
            service, _ = split_url(self.render(fc, None, Template.of(url)) + "/", self.options.services)  # type: ignore[attr-defined]
            if service:
                return service
        name = args.get("name") or args.get("value") or args.get("serviceId") or (lone.group(1) if lone else None)
        return self.options.services.get(name, name) if name else None

    def _dotted_function(self, fc: FileCtx, dotted: str) -> str | None:
        """The id of the function (or ``Class.method``) of this repository an absolute dotted path
        names (connexion's operationId), or ``None``."""
        module, _, name = dotted.rpartition(".")
        if not module:
            return None
        v = self.r.resolve_import(fc, Import(name, module, name))
        if isinstance(v, FuncV) and v.f.file.repo == self.r.repo:
            return v.f.id
        owner, _, cls = module.rpartition(".")
        c = self.r.resolve_import(fc, Import(cls, owner, cls)) if owner else None
        if isinstance(c, ClassV):
            members = self._members(c.c, name)  # type: ignore[attr-defined]
            return members[0].id if members else None
        return None

    def api_call(self, fc: FileCtx, call: HttpCall) -> None:
        """CALLS_HTTP edges of a generated client's call: to each operation its name matches. A
        ``openapi-feign`` candidate (``"PetsClient.listPets"``) counts only when ``PetsClient``
        resolves to a ``@FeignClient`` interface of the repository extending a generated ``XxxApi``:
        it is then ``"XxxApi.listPets"``; otherwise it is no HTTP call at all (not counted)."""
        operation = call.operation or ""
        service = None
        if call.framework == "openapi-feign":
            found = self._feign_api(fc, call.caller, operation.rpartition(".")[0])
            if found is None:
                return
            api, service = found
            operation = f"{api}.{operation.rpartition('.')[2]}"
        ops, match = self._operations(operation, count=False)
        caller = self._owner_id(fc, call.caller, call.line)  # type: ignore[attr-defined]
        if not ops:
            spec = self.options.api.operations
            reason = "unlinked_operation" if spec else "unlinked_operation_no_spec"
            near = nearest(operation, (o.operation_id for o in spec if o.operation_id)) if spec else []
            self.unlinked(fc, caller, call.line, call.col, reason, f"operation {operation}",  # type: ignore[attr-defined]
                          call.framework, near)
        for op in ops:
            eid = self._endpoint(fc, op.method, op.path)  # type: ignore[attr-defined]
            self._edge(fc, "CALLS_HTTP", caller, eid, call.line, call.col, framework=call.framework,  # type: ignore[attr-defined]
                       url=op.path, operation_id=op.operation_id, spec=op.spec, match=match, service=service)
            self.result.outcomes["calls_http"] += 1
