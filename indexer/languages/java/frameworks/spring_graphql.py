"""Spring for GraphQL annotated controllers -> GraphQL :class:`~indexer.model.Route` (framework ``spring-graphql``).

A method carrying ``@QueryMapping`` / ``@MutationMapping`` / ``@SubscriptionMapping`` resolves the
field ``Query.<name>`` / ``Mutation.<name>`` / ``Subscription.<name>``, the name given by ``name`` or
``value`` or else the method's name. ``@SchemaMapping`` / ``@BatchMapping`` resolve
``<typeName>.<field>``: ``field`` (or ``value``) else the method's name; ``typeName`` from the method,
else from a ``@SchemaMapping(typeName = ...)`` on the class, else (Spring's own rule) the simple name
of the method's first parameter type (``pets(Owner owner)`` -> ``Owner``). Names may be constants
(``ref`` pieces the linker resolves). ``methods``: the operation of the type (:func:`stores.contracts.graphql_operation`);
``handler`` the method's qualname. Methods of interfaces are not resolvers. Position: the annotation's name.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import Annotation, JavaFile
from indexer.model import FileExtraction, Route, Template, base_type
from stores.contracts import graphql_operation

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "graphql_route"]

LANGUAGES = ("java",)
FRAMEWORK = "spring-graphql"
_ROOTS = {"QueryMapping": "Query", "MutationMapping": "Mutation", "SubscriptionMapping": "Subscription"}
_SCHEMA = frozenset({"SchemaMapping", "BatchMapping"})


def graphql_route(framework: str, type_tpl: Template, field_tpl: Template, handler: str, line: int,
                  col: int) -> Route:
    """The Route of resolver ``handler`` for ``type.field`` (each a template): method from a literal
    type name, ``FIELD`` when the type is a constant (the linker re-derives it)."""
    literal = type_tpl.literal()
    op = graphql_operation(literal) if literal is not None else "FIELD"
    return Route(framework, [op], type_tpl + Template.of(".") + field_tpl, handler, line, col)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per resolver method of the file's Spring for GraphQL controllers."""
    jf = JavaFile.of(root, src, out)
    for decl, anns in jf.annotated(*_ROOTS, *_SCHEMA):
        if decl.type != "method_declaration":
            continue
        owner = decl.parent.parent if decl.parent is not None else None
        handler = jf.qualname(decl)
        if owner is None or owner.type != "class_declaration" or handler is None:
            continue
        method_name = handler.rpartition(".")[2]
        for ann in anns:
            if ann.name in _ROOTS:
                type_tpl = Template.of(_ROOTS[ann.name])
                field_tpl = _first(jf, ann, "name", "value")
            elif ann.name in _SCHEMA:
                type_tpl = _first(jf, ann, "typeName") or _class_type(jf, owner) or _source_type(jf, handler)
                field_tpl = _first(jf, ann, "field", "value")
                if type_tpl is None:
                    continue
            else:
                continue
            out.routes.append(graphql_route(FRAMEWORK, type_tpl, field_tpl or Template.of(method_name), handler,
                                            src.line(ann.name_node), src.col(ann.name_node)))


def _first(jf: JavaFile, ann: Annotation, *keys: str) -> Template | None:
    """The template of the first of ``keys`` the annotation gives (a non-empty one), else ``None``."""
    values = ann.values(*keys)
    if not values:
        return None
    tpl = jf.template(values[0])
    return tpl if tpl.parts else None


def _class_type(jf: JavaFile, owner: Node) -> Template | None:
    ann = next((a for a in jf.annotations(owner) if a.name == "SchemaMapping"), None)
    return _first(jf, ann, "typeName") if ann is not None else None


def _source_type(jf: JavaFile, handler: str) -> Template | None:
    """Spring's default type name: the simple name of the first parameter's type."""
    d = next((d for d in jf.out.definitions if d.qualname == handler), None)
    if d is None or not d.params:
        return None
    t = base_type(d.params[0].type)
    return Template.of(t.rsplit(".", 1)[-1]) if t else None
