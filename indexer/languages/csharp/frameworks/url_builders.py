"""Methods and local functions of a C# application that build a string from their parameters: URL builders.

Fact (:class:`~indexer.model.UrlBuilder`): a method or local function every ``return`` of which (or whose expression
body, ``=> $"..."``) is an interpolated string, a ``+`` concatenation, a string or one of its parameters, at least
one naming a parameter (:func:`indexer.frameworks.url_builder_rule.builder_from`): eShop's
``GetAllCatalogItemsUri(string baseUri, int pageIndex, ...) => $"{baseUri}items?...pageIndex={pageIndex}"``. A call
of it in a URL (a ``call:`` piece, :meth:`indexer.languages.csharp.frameworks.common.CsFile.template`) is folded
by the linker (:mod:`indexer.frameworks.built_urls`). Not builders: a method with a ``params`` array (a loop joins
it: eShop's ``UriHelper.CombineUri(params string[])``), one returning a call, a conditional or anything else on some
path, one with more than :data:`~indexer.frameworks.url_builder_rule.MAX_RETURNS` returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import builder_from, returned_values
from indexer.languages.csharp.frameworks.common import cs_file

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("csharp",)

_FUNCTIONS = frozenset({"method_declaration", "local_function_statement"})
_NESTED = frozenset({"method_declaration", "local_function_statement", "lambda_expression", "anonymous_method_expression",
                     "class_declaration", "struct_declaration", "record_declaration"})
_BUILT = frozenset({"interpolated_string_expression", "binary_expression", "string_literal", "verbatim_string_literal",
                    "raw_string_literal", "identifier", "parenthesized_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's URL builders to ``out.url_builders``."""
    if b"return" not in src.data and b"=>" not in src.data:
        return
    cf = None
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type not in _FUNCTIONS:
            continue
        plist = n.child_by_field_name("parameters")
        if plist is None or not plist.named_children or b"tring" not in src.data[n.start_byte:n.end_byte]:
            continue
        if any(p.type == "parameter" and any(c.type == "params" or src.text(c) == "params" for c in p.children)
               or p.type != "parameter" for p in plist.named_children):
            continue  # a `params string[]` array (joined in a loop), `__arglist`
        body = n.child_by_field_name("body") or next((c for c in n.named_children if c.type == "arrow_expression_clause"), None)
        if body is None:
            continue
        if body.type == "arrow_expression_clause":
            values = [c for c in body.named_children if "comment" not in c.type][:1]
        else:
            found = returned_values(body, "return_statement", _NESTED)
            if found is None:
                continue
            values = found
        name = n.child_by_field_name("name")
        if name is None or not values:
            continue
        cf = cf or cs_file(root, src, out)
        qualname = cf.owner(name)
        params = [src.text(p.child_by_field_name("name")) for p in plist.named_children if p.child_by_field_name("name")]
        if qualname is None or len(params) != len(plist.named_children):
            continue
        names = frozenset(params)
        returns = [cf.template(v, names) if v.type in _BUILT else None for v in values]
        built = builder_from(qualname, params, returns)
        if built is not None:
            out.url_builders.append(built)
