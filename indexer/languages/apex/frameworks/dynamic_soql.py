"""The text of a dynamic SOQL query as the code builds it (``Database.query(...)``, ``queryWithBinds``,
``countQuery``, ``getQueryLocator``), for :mod:`indexer.languages.apex.frameworks.data`:

* a string literal: its text;
* literals joined with ``+`` around other expressions (``'SELECT Id FROM Product__c ' + whereClause``):
  the literals, each other operand a hole;
* a name: the value the enclosing method, constructor or trigger gives its local of that name before
  the call, its initialiser and assignments replayed in source order (``=`` replaces, ``+=`` appends;
  branches are not told apart: the last assignment written wins), else the initialiser of the enclosing
  class's field of that name (``private String query = 'SELECT ...'``). Found through a name, the
  query is ``inferred``.

:func:`query_variants` gives the texts to parse: holes left empty, then (when the first names no
sObject, a hole in the select list: ``'SELECT ' + fields + ' FROM Account'``) holes written ``Id``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["query_variants"]

_MAX_PARTS = 64
_MAX_NAME_HOPS = 3
"""Names followed through names (``q = base;``) at most: bounds the work on a chain of locals."""
_CALLABLES = frozenset({"method_declaration", "constructor_declaration", "trigger_declaration"})
_TYPES = frozenset({"class_declaration", "interface_declaration", "enum_declaration"})


def _literal(src: SourceText, node: Node) -> str | None:
    if node.type != "string_literal":
        return None
    text = src.text(node)
    return text[1:-1].replace("\\'", "'") if len(text) >= 2 else None


def _writes(src: SourceText, name: Node) -> list[tuple[str, Node]]:
    """What sets the local (before ``name``, in its callable) or else the field ``name`` reads, in source
    order: ``("=", value)`` for its initialiser or an assignment, ``("+=", value)`` for an append. Empty
    when neither is declared with a value or assigned."""
    text, at = src.text(name).lower(), name.start_byte
    cur: Node | None = name.parent
    while cur is not None and cur.type not in _CALLABLES and cur.type not in _TYPES:
        cur = cur.parent
    if cur is not None and cur.type in _CALLABLES:
        params = cur.child_by_field_name("parameters")
        for p in params.named_children if params is not None else ():
            pname = p.child_by_field_name("name")
            if pname is not None and src.text(pname).lower() == text:
                return []  # a parameter: its value is the caller's (and it hides a field of its name)
        found: list[tuple[int, str, Node]] = []
        declared = False
        stack = [cur]
        while stack:
            n = stack.pop()
            if n.start_byte >= at:
                continue
            if n.type == "local_variable_declaration":
                for decl in n.children_by_field_name("declarator"):
                    dname, value = decl.child_by_field_name("name"), decl.child_by_field_name("value")
                    if dname is not None and src.text(dname).lower() == text:
                        declared = True
                        if value is not None:
                            found.append((value.start_byte, "=", value))
            elif n.type == "assignment_expression":
                left, op, right = (n.child_by_field_name(f) for f in ("left", "operator", "right"))
                if left is not None and op is not None and right is not None and left.type == "identifier" \
                        and src.text(left).lower() == text and src.text(op) in ("=", "+="):
                    found.append((right.start_byte, src.text(op), right))
            stack.extend(n.named_children)
        if declared or found:
            return [(op, value) for _, op, value in sorted(found, key=lambda f: f[0])]
        while cur is not None and cur.type not in _TYPES:
            cur = cur.parent
    if cur is None:
        return []
    body = cur.child_by_field_name("body")
    for member in body.named_children if body is not None else ():
        if member.type == "field_declaration":
            for decl in member.children_by_field_name("declarator"):
                dname, value = decl.child_by_field_name("name"), decl.child_by_field_name("value")
                if dname is not None and value is not None and src.text(dname).lower() == text:
                    return [("=", value)]
    return []


def _parts(src: SourceText, node: Node, hops: int = 0) -> tuple[list[str | None], bool]:
    """The pieces of a string expression (``None``: a hole) and whether it was found through a name."""
    parts: list[str | None] = []
    through_name = False
    stack = [node]
    while stack and len(parts) <= _MAX_PARTS:
        n = stack.pop()
        while n.type == "parenthesized_expression" and n.named_child_count == 1:
            n = n.named_children[0]
        op = n.child_by_field_name("operator") if n.type == "binary_expression" else None
        if op is not None and src.text(op) == "+":
            stack.append(n.child_by_field_name("right"))
            stack.append(n.child_by_field_name("left"))
            continue
        writes = _writes(src, n) if n.type == "identifier" and hops < _MAX_NAME_HOPS else []
        if writes:
            through_name = True
            value: list[str | None] = []
            for how, expr in writes:  # replayed in source order: `=` replaces, `+=` appends
                more, _ = _parts(src, expr, hops + 1)
                value = more if how == "=" else value + more
            parts.extend(value)
            continue
        parts.append(_literal(src, n))
    return parts, through_name


def query_variants(src: SourceText, node: Node) -> tuple[list[str], bool]:
    """The query texts to parse for the expression ``node`` (module docstring), most faithful first,
    and whether a name led to them (``inferred``); ``[]`` when no piece is a literal."""
    parts, through_name = _parts(src, node)
    if not any(p for p in parts):
        return [], through_name
    texts = ["".join(p or "" for p in parts)]
    if any(p is None for p in parts):
        texts.append("".join(p if p is not None else " Id " for p in parts))
    return texts, through_name
