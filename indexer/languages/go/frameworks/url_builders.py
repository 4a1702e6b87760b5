"""Functions and methods of a Go application that build a string from their parameters: URL builders.

Fact (:class:`~indexer.model.UrlBuilder`): a function or method returning one ``string`` every ``return`` of which
is a string, a ``+`` concatenation, ``fmt.Sprintf`` with a literal format, or one of its parameters, at least one
naming a parameter (:func:`indexer.frameworks.url_builder_rule.builder_from`): ``func ownerURL(base string, id int)
string { return fmt.Sprintf("%s/owners/%d", base, id) }``. A call of it in a URL (a ``call:`` piece,
:meth:`indexer.languages.go.frameworks.common.GoFile.template`) is folded by the linker
(:mod:`indexer.frameworks.built_urls`). Not builders: a variadic function, one returning two values
(``url.JoinPath``'s ``(string, error)``), a call other than ``fmt.Sprintf`` on some path, one with more than
:data:`~indexer.frameworks.url_builder_rule.MAX_RETURNS` returns.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.frameworks import builder_from, returned_values
from indexer.languages.go.frameworks.common import GoFile, go_file

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText
    from indexer.model import FileExtraction

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("go",)

_NESTED = frozenset({"func_literal"})
_BUILT = frozenset({"interpreted_string_literal", "raw_string_literal", "binary_expression", "identifier",
                    "parenthesized_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's URL builders to ``out.url_builders``."""
    if b"return" not in src.data or b"string" not in src.data:
        return
    gf: GoFile | None = None
    for n in root.named_children:
        if n.type not in ("function_declaration", "method_declaration"):
            continue
        result, plist, body = (n.child_by_field_name(f) for f in ("result", "parameters", "body"))
        if result is None or src.text(result) != "string" or plist is None or body is None:
            continue
        decls = [p for p in plist.named_children if p.type in ("parameter_declaration", "variadic_parameter_declaration")]
        if not decls or any(p.type != "parameter_declaration" for p in decls):
            continue
        params = [src.text(x) for p in decls for x in p.children_by_field_name("name")]
        values = returned_values(body, "return_statement", _NESTED)
        if not params or not values:
            continue
        values = [v.named_children[0] if v.type == "expression_list" and len(v.named_children) == 1 else v
                  for v in values]
        gf = gf or go_file(root, src, out)
        name = n.child_by_field_name("name")
        qualname = gf.owner(name) if name is not None else None
        if qualname is None:
            continue
        names = frozenset(params)
        returns = [gf.template(v, names) if v.type in _BUILT or _is_sprintf(gf, v) else None for v in values]
        built = builder_from(qualname, params, returns)
        if built is not None:
            out.url_builders.append(built)


def _is_sprintf(gf: GoFile, node: Node) -> bool:
    return node.type == "call_expression" and gf.selector(node) == ("fmt", "Sprintf")
