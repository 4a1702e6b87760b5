"""``@WebServlet`` servlets -> :class:`~indexer.model.Route`, ``@WebFilter`` filters ->
:class:`~indexer.model.Wrapper` (framework ``servlet``).

A class annotated ``@WebServlet`` maps its URL patterns (``urlPatterns``, ``value`` or the lone
argument; arrays expanded) to each ``doGet`` / ``doPost`` / ``doPut`` / ``doDelete`` / ``doPatch`` /
``doHead`` / ``doOptions`` method it defines: one route per pattern and method, the HTTP method taken
from the name, the handler that method, the position its name. A servlet defining none of them but
overriding ``service`` gets ``["*"]`` routes handled by ``service``. Patterns are kept as written
(``/owners/*``, ``*.do``).

A class annotated ``@WebFilter`` is an app-wide filter (kind ``filter``, owner the class, at the
annotation's name), limited to each of its URL patterns (``urlPatterns``, ``value`` or the lone
argument: ``/api/*``; one wrapper per pattern); without patterns (``servletNames`` only) it is taken
for every path.

Not seen here: servlets and filters mapped in ``web.xml`` or registered in code (``ServletRegistrationBean``),
and ``do*`` methods a servlet inherits from a superclass in another file.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import JavaFile
from indexer.model import FileExtraction, Route, Template, Wrapper

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["HANDLERS", "LANGUAGES", "detect"]

LANGUAGES = ("java",)
HANDLERS = {
    "doGet": "GET",
    "doPost": "POST",
    "doPut": "PUT",
    "doDelete": "DELETE",
    "doPatch": "PATCH",
    "doHead": "HEAD",
    "doOptions": "OPTIONS",
}


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes of the file's ``@WebServlet`` classes to ``out.routes`` and its
    ``@WebFilter`` classes to ``out.wrappers``."""
    jf = JavaFile.of(root, src, out)
    for decl, anns in jf.annotated("WebFilter"):
        owner = jf.qualname(decl)
        if decl.type != "class_declaration" or owner is None:
            continue
        ann = next(a for a in anns if a.name == "WebFilter")
        line, col = src.line(ann.name_node), src.col(ann.name_node)
        for pattern in [jf.template(v) for v in ann.values("urlPatterns", "value") or []] or [Template()]:
            out.wrappers.append(Wrapper("servlet", "filter", owner, line, col, path=pattern))
    for decl, anns in jf.annotated("WebServlet"):
        if decl.type != "class_declaration":
            continue
        ann = next(a for a in anns if a.name == "WebServlet")
        patterns = [jf.template(v) for v in ann.values("urlPatterns", "value") or []]
        handlers: list[tuple[str, list[str], Node]] = []
        service: tuple[str, list[str], Node] | None = None
        for method in jf.methods(decl):
            name_node = method.child_by_field_name("name")
            qualname = jf.qualname(method)
            name = src.text(name_node)
            if qualname is None or name_node is None:
                continue
            if name in HANDLERS:
                handlers.append((qualname, [HANDLERS[name]], name_node))
            elif name == "service" and service is None:
                service = (qualname, ["*"], name_node)
        if not handlers and service is not None:
            handlers.append(service)
        for qualname, methods, name_node in handlers:
            for pattern in patterns:
                out.routes.append(
                    Route("servlet", list(methods), pattern, qualname, src.line(name_node), src.col(name_node))
                )
