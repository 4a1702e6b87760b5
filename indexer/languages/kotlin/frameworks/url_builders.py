"""Functions of a Kotlin application that build a string from their parameters: URL builders.

Fact (:class:`~indexer.model.UrlBuilder`): a function every ``return`` of which (or whose expression body,
``= "..."``) is a string template, a ``+`` concatenation or one of its parameters, at least one naming a parameter
(:func:`indexer.frameworks.url_builder_rule.builder_from`): ``fun ownerUrl(id: Int) = "$base/owners/$id"``. A call
of it in a URL (a ``call:`` piece, :func:`indexer.languages.kotlin.frameworks.common.template`) is folded by the
linker (:mod:`indexer.frameworks.built_urls`). Not builders: a ``vararg`` function, one that returns a call, an
``if`` / ``when`` expression or anything else on some path (or throws), one with more than
:data:`~indexer.frameworks.url_builder_rule.MAX_RETURNS` returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import builder_from, returned_values
from indexer.languages.kotlin.frameworks.common import template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)

_NESTED = frozenset({"function_declaration", "lambda_literal", "anonymous_function", "class_declaration",
                     "object_literal", "object_declaration"})
_BUILT = frozenset({"string_literal", "multiline_string_literal", "additive_expression", "simple_identifier",
                    "parenthesized_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's URL builders to ``out.url_builders``."""
    if b"fun " not in src.data or (b"return" not in src.data and b"=" not in src.data):
        return
    by_name: dict[tuple[int, int], str] | None = None
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "function_declaration":
            continue
        plist = next((c for c in n.named_children if c.type == "function_value_parameters"), None)
        body = next((c for c in n.named_children if c.type == "function_body"), None)
        if plist is None or body is None or not body.named_children:
            continue
        decls = [p for p in plist.named_children if p.type == "parameter"]
        if not decls or any(c.type == "parameter_modifiers" or src.text(c) == "vararg" for c in plist.named_children):
            continue
        first = body.named_children[0]
        if first.type == "statements":
            found = returned_values(first, "jump_expression", _NESTED)
            if found is None:
                continue
            values = found
        else:
            values = [first]
        name = next((c for c in n.named_children if c.type == "simple_identifier"), None)
        if by_name is None:
            by_name = {(d.name_line, d.name_col): d.qualname for d in out.definitions
                       if d.generated is None and d.kind in ("function", "method")}
        qualname = by_name.get((src.line(name), src.col(name))) if name is not None else None
        if qualname is None:
            continue
        params = [src.text(next(c for c in p.named_children if c.type == "simple_identifier")) for p in decls]
        returns = [template(src, v) if v.type in _BUILT else None for v in values]
        built = builder_from(qualname, params, returns)
        if built is not None:
            out.url_builders.append(built)
