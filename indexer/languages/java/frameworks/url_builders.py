"""Methods of a Java application that build a string from their parameters: URL builders.

Fact (:class:`~indexer.model.UrlBuilder`): a method every ``return`` of which is a ``+`` concatenation, a string,
``String.format`` with a literal format, or one of its parameters, at least one naming a parameter
(:func:`indexer.frameworks.url_builder_rule.builder_from`): ``String ownerUrl(String base, int id) { return
String.format("%s/owners/%d", base, id); }``. A call of it in a URL (a ``call:`` piece,
:meth:`indexer.languages.java.frameworks.common.JavaFile.template`) is folded by the linker
(:mod:`indexer.frameworks.built_urls`). Not builders: a varargs method, one returning another call
(``UriComponentsBuilder...toUriString()``), a conditional or anything else on some path, one with more than
:data:`~indexer.frameworks.url_builder_rule.MAX_RETURNS` returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import builder_from, returned_values
from indexer.languages.java.frameworks.common import JavaFile

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("java",)

_NESTED = frozenset({"method_declaration", "constructor_declaration", "lambda_expression", "class_body",
                     "class_declaration"})
_BUILT = frozenset({"binary_expression", "string_literal", "identifier", "parenthesized_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's URL builders to ``out.url_builders``."""
    if b"return" not in src.data or b"String" not in src.data:
        return
    jf: JavaFile | None = None
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "method_declaration":
            continue
        rtype = n.child_by_field_name("type")
        plist = n.child_by_field_name("parameters")
        body = n.child_by_field_name("body")
        if rtype is None or src.text(rtype) not in ("String", "java.lang.String") or plist is None or body is None:
            continue
        formal = [p for p in plist.named_children if p.type in ("formal_parameter", "spread_parameter")]
        if not formal or any(p.type != "formal_parameter" for p in formal):
            continue  # none, or varargs (joined in a loop)
        values = returned_values(body, "return_statement", _NESTED)
        if not values:
            continue
        jf = jf or JavaFile.of(root, src, out)
        qualname = jf.qualname(n)
        if qualname is None:
            continue
        params = [src.text(p.child_by_field_name("name")) for p in formal]
        names = frozenset(params)
        returns = [jf.template(v, names) if v.type in _BUILT or _is_format(src, v) else None for v in values]
        built = builder_from(qualname, params, returns)
        if built is not None:
            out.url_builders.append(built)


def _is_format(src: SourceText, node: Node) -> bool:
    if node.type != "method_invocation" or src.text(node.child_by_field_name("name")) != "format":
        return False
    obj = node.child_by_field_name("object")
    return obj is not None and src.text(obj) in ("String", "java.lang.String")
