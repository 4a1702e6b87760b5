"""Spring MVC / WebFlux annotated controllers written in Kotlin -> :class:`~indexer.model.Route`
(framework ``spring``, as for Java).

The rules are Java's (:mod:`indexer.frameworks.jvm`): a class is a controller when
:func:`~indexer.frameworks.jvm.is_controller` says so; each method carrying ``@RequestMapping`` /
``@GetMapping`` / ... gives one route per class path and method path (``value`` / ``path`` or the
lone argument, ``["/a", "/b"]`` arrays expanded), joined by :func:`~indexer.frameworks.jvm.join_path`
and made absolute; methods from the verb annotation or ``method = [RequestMethod.GET]``, united with
the class-level ``method``; none at all is ``["*"]``. ``handler`` is the function's qualname, at the
mapping annotation's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import HTTP_METHODS, MAPPINGS, VERB_MAPPINGS, is_controller, join_path, rooted
from indexer.languages.kotlin.frameworks.common import KtAnnotation, declarations, definition_of, template
from indexer.model import FileExtraction, Route, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "mapping_methods", "mapping_paths"]

LANGUAGES = ("kotlin",)


def mapping_paths(src: SourceText, ann: KtAnnotation) -> list[Template]:
    """The path templates of a mapping annotation; ``[Template()]`` when none."""
    values = ann.values("value", "path")
    return [template(src, v) for v in values] if values else [Template()]


def mapping_methods(src: SourceText, ann: KtAnnotation) -> list[str]:
    """The HTTP methods a mapping annotation names (``[]`` for ``@RequestMapping`` without ``method``)."""
    verb = VERB_MAPPINGS.get(ann.name)
    if verb is not None:
        return [verb]
    found = (src.text(v).rsplit(".", 1)[-1].strip().upper() for v in ann.values("method") or [])
    return list(dict.fromkeys(m for m in found if m in HTTP_METHODS))


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the routes of the file's Spring controllers to ``out.routes``."""
    classes: dict[int, list[KtAnnotation]] = {}
    for decl, anns in declarations(src, root):
        if decl.type == "class_declaration":
            classes[decl.id] = anns
            continue
        if decl.type != "function_declaration" or not any(a.name in MAPPINGS for a in anns):
            continue
        owner = decl.parent.parent if decl.parent is not None else None
        if owner is None or owner.id not in classes:
            continue
        owner_anns = classes[owner.id]
        d = definition_of(out, src, decl)
        if d is None or not is_controller([a.name for a in owner_anns]):
            continue
        cls_map = next((a for a in owner_anns if a.name == "RequestMapping"), None)
        prefixes = mapping_paths(src, cls_map) if cls_map is not None else [Template()]
        cls_methods = mapping_methods(src, cls_map) if cls_map is not None else []
        for ann in anns:
            if ann.name not in MAPPINGS:
                continue
            methods = list(dict.fromkeys(mapping_methods(src, ann) + cls_methods)) or ["*"]
            line, col = src.line(ann.name_node), src.col(ann.name_node)
            for prefix in prefixes:
                for path in mapping_paths(src, ann):
                    out.routes.append(Route("spring", list(methods), rooted(join_path(prefix, path)), d.qualname,
                                            line, col))
