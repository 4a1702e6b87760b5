"""JAX-RS / Jakarta REST resources -> :class:`~indexer.model.Route` (framework ``jaxrs``).

A root resource is a class or interface annotated ``@Path``. Each of its methods annotated with an
HTTP method designator (``@GET``, ``@POST``, ``@PUT``, ``@DELETE``, ``@PATCH``, ``@HEAD``,
``@OPTIONS``) gives one route: the class ``@Path`` joined with the method's own ``@Path`` (when it has
one) by one ``/`` and made absolute. ``handler`` is the method's qualname, ``router`` ``None``.

Providers are app-wide :class:`~indexer.model.Wrapper` s (at ``Provider``): a ``@Provider`` class
implementing ``ContainerRequestFilter`` or ``ContainerResponseFilter`` (kind ``filter``, owner the
class: its ``filter`` methods), ``ExceptionMapper`` (kind ``error_handler``, owner its
``toResponse``), ``ReaderInterceptor`` / ``WriterInterceptor`` (kind ``interceptor``, owner its
``aroundReadFrom`` / ``aroundWriteTo``).

Not seen here: name-bound filters (``@NameBinding``: they run for the resources carrying the same
annotation; taken as app-wide), sub-resource locators (a method with ``@Path`` and no HTTP method returns another
resource: its routes would need the returned class), the ``@ApplicationPath`` prefix of the
``Application`` subclass (another file), custom ``@HttpMethod`` designators, and MicroProfile REST
client interfaces (``@RegisterRestClient``: clients, skipped).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import Annotation, JavaFile, join_path, rooted
from indexer.model import FileExtraction, Route, Template, Wrapper, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "VERBS", "detect"]

LANGUAGES = ("java",)
VERBS = frozenset({"GET", "POST", "PUT", "DELETE", "PATCH", "HEAD", "OPTIONS"})
_RESOURCE_TYPES = frozenset({"class_declaration", "interface_declaration"})
_FILTERS = frozenset({"ContainerRequestFilter", "ContainerResponseFilter"})
_PROVIDER_METHODS = {  # provider interface -> (kind, the method the runtime calls)
    "ExceptionMapper": ("error_handler", "toResponse"),
    "ReaderInterceptor": ("interceptor", "aroundReadFrom"),
    "WriterInterceptor": ("interceptor", "aroundWriteTo"),
}


def _path(jf: JavaFile, anns: list[Annotation]) -> Template | None:
    ann = next((a for a in anns if a.name == "Path"), None)
    if ann is None:
        return None
    values = ann.values("value")
    return jf.template(values[0]) if values else Template()


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes of the file's JAX-RS resource methods to ``out.routes`` and its provider
    filters to ``out.wrappers``."""
    jf = JavaFile.of(root, src, out)
    for decl, anns in jf.annotated("Provider"):
        d = jf.definition(decl)
        if decl.type != "class_declaration" or d is None:
            continue
        ann = next(a for a in anns if a.name == "Provider")
        line, col = src.line(ann.name_node), src.col(ann.name_node)
        implemented = [(base_type(t) or "").rsplit(".", 1)[-1] for t in d.implements]
        if any(t in _FILTERS for t in implemented):
            out.wrappers.append(Wrapper("jaxrs", "filter", d.qualname, line, col))
        for t in implemented:
            kind, method = _PROVIDER_METHODS.get(t, ("", ""))
            if kind and any(o.qualname == f"{d.qualname}.{method}" for o in out.definitions):
                out.wrappers.append(Wrapper("jaxrs", kind, f"{d.qualname}.{method}", line, col))
    for decl, anns in jf.annotated(*VERBS):
        if decl.type != "method_declaration":
            continue
        owner = decl.parent.parent if decl.parent is not None else None
        if owner is None or owner.type not in _RESOURCE_TYPES:
            continue
        owner_anns = jf.annotations(owner)
        base = _path(jf, owner_anns)
        handler = jf.qualname(decl)
        if base is None or handler is None or any(a.name == "RegisterRestClient" for a in owner_anns):
            continue
        full = rooted(join_path(base, _path(jf, anns) or Template()))
        for ann in anns:
            if ann.name in VERBS:
                line, col = src.line(ann.name_node), src.col(ann.name_node)
                out.routes.append(Route("jaxrs", [ann.name], full, handler, line, col))
