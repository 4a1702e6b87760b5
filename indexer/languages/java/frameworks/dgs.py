"""Netflix DGS data fetchers -> GraphQL :class:`~indexer.model.Route` (framework ``dgs``).

``@DgsQuery`` / ``@DgsMutation`` / ``@DgsSubscription`` on a method resolve ``Query`` / ``Mutation``
/ ``Subscription`` ``.<field>`` (``field`` else the method's name); ``@DgsData(parentType = ...,
field = ...)`` (and each ``@DgsData`` of a ``@DgsData.List``) resolves ``<parentType>.<field>``.
Names are literals or constants; the constants of DGS's generated ``DgsConstants`` class are not in
the repository (generated at build time), so the linker reads them by the generator's naming rule
(:func:`indexer.frameworks.graphql_names.graphql_constant_name`: ``DgsConstants.QUERY.Shows`` -> ``shows``).
``handler`` is the method's qualname. Position: the annotation's name.

Data loaders: ``env.getDataLoader(ReviewsDataLoader.class)`` (DGS's ``DgsDataFetchingEnvironment``)
hands back the loader whose batch method the library calls later with the keys the fetcher's
``load(key)`` queued, so the fetcher reaches the loader class's ``load``: a
:class:`~indexer.model.CallSite` ``via="library"`` of ``load`` whose receiver is ``new
ReviewsDataLoader()``, at the ``getDataLoader`` name. It binds only when that class (or a base of the
repository) defines ``load`` (``BatchLoader`` / ``MappedBatchLoader`` and their ``WithContext``
forms), ``inferred`` (the library decides when it runs). A loader named by a string or a constant
(``getDataLoader("reviews")``) is a :class:`~indexer.model.NamedLoader` use, and each
``@DgsDataLoader(name = "reviews")`` class one that provides the name: the linker joins them
(:mod:`indexer.frameworks.named_loaders`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.java.frameworks.common import Annotation, JavaFile
from indexer.languages.java.frameworks.spring_graphql import graphql_route
from indexer.model import CallSite, FileExtraction, NamedLoader, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)
FRAMEWORK = "dgs"
_ROOTS = {"DgsQuery": "Query", "DgsMutation": "Mutation", "DgsSubscription": "Subscription"}
_GET_LOADER = frozenset({"getDataLoader"})
BATCH_METHOD = "load"
""":class:`org.dataloader.BatchLoader`'s (and its mapped / with-context forms') one method."""


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append a GraphQL route per DGS data fetcher method of the file."""
    jf = JavaFile.of(root, src, out)
    if jf.calls_any(_GET_LOADER):
        _data_loaders(jf)
    _named_loaders(jf)
    for decl, anns in jf.annotated(*_ROOTS, "DgsData", "List"):
        if decl.type != "method_declaration":
            continue
        handler = jf.qualname(decl)
        if handler is None:
            continue
        method_name = handler.rpartition(".")[2]
        for ann in anns:
            found: list[tuple[Template, Template | None, Annotation]] = []
            if ann.name in _ROOTS:
                found.append((Template.of(_ROOTS[ann.name]), _value(jf, ann, "field"), ann))
            elif ann.name == "DgsData":
                found.append((_value(jf, ann, "parentType") or Template(), _value(jf, ann, "field"), ann))
            elif ann.name == "List":  # @DgsData.List({@DgsData(...), ...})
                inner = [Annotation.parse(src, n) for n in ann.values("value") or [] if n.type == "annotation"]
                found += [(_value(jf, a, "parentType") or Template(), _value(jf, a, "field"), a)
                          for a in inner if a.name == "DgsData"]
            for type_tpl, field_tpl, at in found:
                if not type_tpl.parts:
                    continue
                out.routes.append(graphql_route(FRAMEWORK, type_tpl, field_tpl or Template.of(method_name), handler,
                                                src.line(at.name_node), src.col(at.name_node)))


def _value(jf: JavaFile, ann: Annotation, key: str) -> Template | None:
    values = ann.values(key)
    if not values:
        return None
    tpl = jf.template(values[0])
    return tpl if tpl.parts else None


def _named_loaders(jf: JavaFile) -> None:
    """A :class:`~indexer.model.NamedLoader` ``provides`` per class annotated ``@DgsDataLoader`` (its
    ``name``, else the class's simple name, as DGS registers it) and ``uses`` per ``getDataLoader(name)``
    whose argument is a string or a constant (not a class literal: :func:`_data_loaders`)."""
    for decl, anns in jf.annotated("DgsDataLoader"):
        qualname = jf.qualname(decl) if decl.type == "class_declaration" else None
        ann = next((a for a in anns if a.name == "DgsDataLoader"), None)
        if qualname is None or ann is None:
            continue
        name = _value(jf, ann, "name") or Template.of(qualname.rpartition(".")[2])
        jf.out.named_loaders.append(NamedLoader("provides", name, qualname, jf.src.line(ann.name_node),
                                                jf.src.col(ann.name_node)))
    if not jf.calls_any(_GET_LOADER):
        return
    for n, first in _loader_calls(jf):
        if first.type not in ("string_literal", "identifier", "field_access"):
            continue
        site = jf.call(n.child_by_field_name("name"))
        tpl = jf.template(first)
        if site is None or site.caller is None or not tpl.parts:
            continue
        jf.out.named_loaders.append(NamedLoader("uses", tpl, site.caller, site.line, site.col))


def _loader_calls(jf: JavaFile) -> list[tuple[Node, Node]]:
    """``(call, argument)`` of each ``getDataLoader(x)`` of one argument, in source order."""
    src, out, stack = jf.src, [], [jf.root]
    while stack:
        n = stack.pop()
        stack.extend(reversed(n.named_children))
        name = n.child_by_field_name("name") if n.type == "method_invocation" else None
        if name is None or src.text(name) not in _GET_LOADER:
            continue
        args = n.child_by_field_name("arguments")
        if args is not None and len(args.named_children) == 1:
            out.append((n, args.named_children[0]))
    return out


def _data_loaders(jf: JavaFile) -> None:
    """A ``via="library"`` call of ``load`` per ``getDataLoader(X.class)`` (see the module docstring)."""
    src = jf.src
    stack = [jf.root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        name = n.child_by_field_name("name") if n.type == "method_invocation" else None
        if name is None or src.text(name) not in _GET_LOADER:
            continue
        args = n.child_by_field_name("arguments")
        first = args.named_children[0] if args is not None and len(args.named_children) == 1 else None
        if first is None or first.type != "class_literal" or not first.named_children:
            continue
        site = jf.call(name)
        cls = src.text(first.named_children[0])
        if site is None or site.caller is None or not cls:
            continue
        jf.out.calls.append(CallSite(site.caller, BATCH_METHOD, f"new {cls}()", -1, site.line, site.col, via="library"))
