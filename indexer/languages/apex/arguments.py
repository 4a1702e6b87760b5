"""The types of an Apex call's arguments as written (:attr:`indexer.model.CallSite.arg_types`), from
which the resolver chooses among a method's overloads of one arity (:mod:`indexer.resolve.overloads`,
with :mod:`indexer.languages.apex.conversions`): Apex, like Java, overloads methods by parameter types
(``CanTheUser.create(SObject)``, ``create(List<SObject>)``, ``create(String)``), and the compiler picks
the one the arguments' static types fit.

Each argument's form is one the resolver reads (the same forms as Java's):

- a literal's type: ``'a'`` -> ``String``, ``1`` -> ``Integer``, ``1L`` -> ``Long``, ``1.5`` ->
  ``Decimal`` (an Apex literal with a point is a Decimal), ``true`` -> ``Boolean``, ``null``;
- ``new X(...)`` and ``(X) e`` -> ``X`` (generics dropped: ``new List<Account>()`` -> ``List``);
  ``new X[]{...}`` -> ``X[]``, ``new List<X>{...}`` -> ``List``;
- ``=name``: a name or ``this.name``, whose declared type the resolver looks up;
- ``@expr``: ``this``, a call or a field read, as a receiver text (``a.b().c()``), whose type the
  resolver reads off the declared return or field type;
- ``[=name``: an element of a list written ``name[i]`` (Apex lists index like arrays);
- ``""``: unknown (an operation, a ``super`` call, anything else): it fits every parameter.
"""

from __future__ import annotations

import re
import sys
from collections.abc import Callable

from tree_sitter import Node

from indexer.languages.base import SourceText
from indexer.model import LONG_RECEIVER, drop_generics

__all__ = ["argument_types"]

_LITERALS = {"string_literal": "String", "boolean": "Boolean", "null_literal": "null",
             "decimal_floating_point_literal": "Decimal"}
_NAME = re.compile(r"(this\.)?[A-Za-z_]\w*")
_WS = re.compile(r"\s+")
_COMMENTS = frozenset({"line_comment", "block_comment"})


def argument_types(src: SourceText, args: Node | None, receiver: Callable[[Node], str]) -> tuple[str, ...]:
    """Each argument's form by position (module docstring); ``()`` when none is known. ``receiver``
    gives a call's or field read's receiver text (the extractor's, memoised)."""
    if args is None or args.type != "argument_list":
        return ()
    out = [_form(src, child, receiver) for child in args.named_children if child.type not in _COMMENTS]
    return tuple(sys.intern(a) for a in out) if any(out) else ()


def _form(src: SourceText, node: Node, receiver: Callable[[Node], str]) -> str:
    """One argument's form (:func:`argument_types`)."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    t = node.type
    if t in _LITERALS:
        return _LITERALS[t]
    if t == "int":
        return "Long" if src.text(node)[-1:] in ("l", "L") else "Integer"
    if t in ("object_creation_expression", "cast_expression"):
        tn = node.child_by_field_name("type")
        return drop_generics(_WS.sub("", src.text(tn))) if tn is not None else ""
    if t == "array_creation_expression":
        tn = node.child_by_field_name("type")
        if tn is None:
            return ""
        dims = sum(src.text(d).count("[") for d in node.children_by_field_name("dimensions"))
        return drop_generics(_WS.sub("", src.text(tn))) + "[]" * dims
    if t in ("identifier", "field_access"):
        name = _WS.sub("", src.text(node))
        if _NAME.fullmatch(name):
            return f"={name}"
    if t in ("this", "method_invocation", "field_access"):
        text = "this" if t == "this" else receiver(node)
        if not text or text == LONG_RECEIVER or text.lower().startswith("super"):
            return ""
        return f"@{text}"
    if t == "array_access":
        array = node.child_by_field_name("array")
        name = _WS.sub("", src.text(array)) if array is not None else ""
        return f"[={name}" if _NAME.fullmatch(name) else ""
    return ""
