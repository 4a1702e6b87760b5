"""Spring ``@HttpExchange`` interfaces as server contracts: the part of the framework linker
(:mod:`indexer.frameworks.link`) that makes a ``@RestController`` implementing such an interface
EXPOSE the routes its methods declare.

The interface's file holds the facts (:data:`~indexer.model.EXCHANGE_ROUTE` routes, one per exchange
method, ``handler`` the interface method, and the ``httpexchange`` client calls of the same methods,
which other code calls through a proxy built by ``HttpServiceProxyFactory``). A class of the
repository annotated ``@RestController`` / ``@Controller`` whose ``implements`` names the interface
(resolved as the class's file resolves it) exposes each route through its method of the same name
(its own or inherited), under its application's context path (and, for Spring MVC, servlet path).
The interface's file owns the EXPOSES edges (as a Django ``urls.py`` owns its views'), and reads the
implementing classes' files (recorded, so that a class that starts or stops implementing the
interface re-links). A route no controller implements exposes nothing (the interface is only a
client); counted as ``exchange_client_only``.

A mixin: it uses the linker's ``r``, ``ctxs``, ``options``, ``result``, ``render``, ``_endpoint``,
``_edge`` and ``_members``.
"""

from __future__ import annotations

from collections import defaultdict
from typing import TYPE_CHECKING, Any

from indexer.frameworks.clients import HOLE
from indexer.model import Route
from indexer.resolve.values import ClassV, Def
from stores.contracts import declared_route

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx

__all__ = ["ExchangeLinks", "CONTROLLER_ANNOTATIONS"]

CONTROLLER_ANNOTATIONS = frozenset({"RestController", "Controller"})
"""Class annotations (last name part) that make a class implementing an exchange interface a server."""


def _join(a: str, b: str) -> str:
    return "/" + "/".join(p for p in (a.strip("/"), b.strip("/")) if p)


class ExchangeLinks:
    """Mixin of the framework linker for ``@HttpExchange`` server contracts (see the module docstring)."""

    r: Any
    ctxs: Any
    options: Any
    result: Any
    _exchange_impls: dict[tuple[str, str], list[tuple[FileCtx, Def]]] | None = None

    def _implementations(self) -> dict[tuple[str, str], list[tuple[FileCtx, Def]]]:
        """Controller classes by the ``(path, qualname)`` of each interface of the repository they
        implement."""
        if self._exchange_impls is None:
            self._exchange_impls = defaultdict(list)
            for fc in self.ctxs:
                if fc.lang != "java":
                    continue
                for rd in fc.defs:
                    d = rd.d
                    if not rd.is_type or not d.implements or not any(
                            deco.split("(", 1)[0].strip().rpartition(".")[2] in CONTROLLER_ANNOTATIONS
                            for deco in d.decorators):
                        continue
                    self.r.use(("file", fc.path, ""))
                    for text in d.implements:
                        v = self.r.resolve_expr(fc, d.parent, text.split("<", 1)[0].strip())
                        if isinstance(v, ClassV) and v.c.file.repo == self.r.repo:
                            self._exchange_impls[(v.c.file.path, v.c.qualname)].append((fc, rd))
        return self._exchange_impls

    def exchange_route(self, fc: FileCtx, route: Route) -> tuple[str | None, list[tuple[str, str, str]]]:
        """EXPOSES edges (owned by ``fc``, the interface's file) from each implementing controller's
        method to the route's endpoints; returns the first controller's service and the endpoints
        linked as ``(endpoint id, method, full path)`` (for wrappers)."""
        iface, _, name = (route.handler or "").rpartition(".")
        own = self.render(fc, iface or None, route.path).replace(HOLE, "{}")
        service: str | None = None
        linked: list[tuple[str, str, str]] = []
        impls = self._implementations().get((fc.path, iface), [])
        for impl_fc, cls in impls:
            methods = [m for m in self._members(cls, name) if m.parent != iface]  # type: ignore[attr-defined]
            if not methods:
                continue
            props = self.options.properties_for(impl_fc.path)
            base = props.get("server.servlet.context-path") or props.get("spring.webflux.base-path") or ""
            servlet = props.get("spring.mvc.servlet.path") or ""
            full = _join(_join(base, servlet) if servlet.strip("/") else base, own)
            svc = self.options.service_for(impl_fc.path)
            service = service or svc
            for verb in route.methods:
                eid = self._endpoint(fc, verb, full)  # type: ignore[attr-defined]
                self._edge(fc, "EXPOSES", methods[0].id, eid, route.line, route.col,  # type: ignore[attr-defined]
                           framework=route.framework, service=svc, route=declared_route(full))
                self.result.outcomes["exposes"] += 1
                linked.append((eid, verb, full))
        if not linked:
            self.result.outcomes["exchange_client_only"] += 1
        return service, linked
