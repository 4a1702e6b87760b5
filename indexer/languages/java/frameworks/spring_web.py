"""Spring MVC / WebFlux annotated controllers -> :class:`~indexer.model.Route` (framework ``spring``).

A controller is a class annotated with a stereotype whose name ends in ``Controller``
(``@RestController``, ``@Controller``, ``@RepositoryRestController``) or with a class-level
``@RequestMapping``; interfaces are not controllers (a ``@FeignClient`` interface is a client, see
:mod:`indexer.languages.java.frameworks.java_http_clients`). Each method of a controller carrying
``@RequestMapping`` / ``@GetMapping`` / ``@PostMapping`` / ``@PutMapping`` / ``@DeleteMapping`` /
``@PatchMapping`` gives one route per class path and method path: paths come from ``value``,
``path`` or the lone argument, arrays are expanded, a missing path is empty; the class path and the
method path are joined with one ``/`` and made absolute (:func:`~indexer.languages.java.frameworks.common.join_path`,
:func:`~indexer.languages.java.frameworks.common.rooted`); constants stay ``ref`` pieces for the linker. HTTP methods:
the verb of ``@XMapping``, or ``@RequestMapping(method = ...)`` (one or an array), united with the
class-level ``method``; none at all is ``["*"]``. ``handler`` is the method's qualname, ``router``
``None`` (the path is absolute).

Not seen here: mappings a controller inherits from an interface or superclass (they sit in another
file), functional ``RouterFunctions`` routes (:mod:`~indexer.languages.java.frameworks.spring_functional`),
and context-path prefixes from configuration
(``server.servlet.context-path``, ``spring.webflux.base-path``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import Annotation, JavaFile, http_method, join_path, rooted
from indexer.frameworks import MAPPINGS, VERB_MAPPINGS, is_controller
from indexer.model import FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "MAPPINGS", "VERB_MAPPINGS", "detect", "mapping_methods", "mapping_paths"]

LANGUAGES = ("java",)


def mapping_paths(jf: JavaFile, ann: Annotation) -> list[Template]:
    """The path templates of a mapping annotation (``value`` / ``path``); ``[Template()]`` when none."""
    values = ann.values("value", "path")
    return [jf.template(v) for v in values] if values else [Template()]


def mapping_methods(jf: JavaFile, ann: Annotation) -> list[str]:
    """The HTTP methods a mapping annotation names (``[]`` for ``@RequestMapping`` without ``method``)."""
    verb = VERB_MAPPINGS.get(ann.name)
    if verb is not None:
        return [verb]
    found = (http_method(jf.src, v) for v in ann.values("method") or [])
    return list(dict.fromkeys(m for m in found if m))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes of the file's Spring controllers to ``out.routes``."""
    jf = JavaFile.of(root, src, out)
    for decl, anns in jf.annotated(*MAPPINGS):
        if decl.type != "method_declaration":
            continue
        owner = decl.parent.parent if decl.parent is not None else None
        if owner is None or owner.type != "class_declaration":
            continue
        owner_anns = jf.annotations(owner)
        handler = jf.qualname(decl)
        if handler is None or not is_controller([a.name for a in owner_anns]):
            continue
        cls_map = next((a for a in owner_anns if a.name == "RequestMapping"), None)
        prefixes = mapping_paths(jf, cls_map) if cls_map is not None else [Template()]
        cls_methods = mapping_methods(jf, cls_map) if cls_map is not None else []
        for ann in anns:
            if ann.name not in MAPPINGS:
                continue
            methods = list(dict.fromkeys(mapping_methods(jf, ann) + cls_methods)) or ["*"]
            line, col = src.line(ann.name_node), src.col(ann.name_node)
            for prefix in prefixes:
                for path in mapping_paths(jf, ann):
                    full = rooted(join_path(prefix, path))
                    out.routes.append(Route("spring", list(methods), full, handler, line, col))
