"""A Python name assigned one of several values: ``x = a if c else b``, ``h = handler or default``,
``s = cache.get(k) or Store()``. The value is either operand (Python reference, "Boolean operations":
``x or y`` is ``x`` when true, else ``y``; "Conditional expressions": ``x if C else y`` is ``x`` or
``y``), so each operand naming a value binds the name as its plain assignment would (a call
``constructed``, a dotted name ``alias``), all on the assignment's line: the resolver binds a call through
the name to every operand's targets (:mod:`indexer.resolve.either`, shared with JavaScript's
:mod:`indexer.languages.ecmascript.operands`) and, read for one value, takes the first it knows (the
tiers of :meth:`indexer.resolve.interpreter.Resolver.binding_value`). The extractor's own binding of
such an assignment (its call operand) comes first; this module adds the others. ``x and y`` is left
out (its ``x`` is a false value: no object to call), and so are literals and ``None``.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.model import LITERAL_RECEIVER, Binding

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["EITHER_NODES", "MAX_OPERANDS", "either_bindings", "is_either", "operands"]

EITHER_NODES = frozenset({"boolean_operator", "conditional_expression"})
"""Expressions whose value is one of their operands (``or``; ``and`` is read and refused per node)."""
MAX_OPERANDS = 8
"""Operands read from one expression (``a or b or c`` has three); the rest is left out."""


def is_either(value: Node | None) -> bool:
    """Whether ``value`` is an ``or`` / conditional expression (:data:`EITHER_NODES`), also written in
    parentheses (``t = (A() if c else B())``, ``h = (handler or default)``)."""
    while value is not None and value.type == "parenthesized_expression" and value.named_child_count == 1:
        value = value.named_children[0]
    return value is not None and value.type in EITHER_NODES


def operands(value: Node) -> list[Node]:
    """The operands ``value`` may evaluate to, left to right, through parentheses and nested ``or`` /
    conditional expressions (at most :data:`MAX_OPERANDS`); ``[]`` for an ``and`` anywhere on the way
    (what it yields is no one operand), ``[value]`` for any other expression."""
    out: list[Node] = []
    todo = [value]
    while todo and len(out) < MAX_OPERANDS:
        n = todo.pop()
        if n.type == "parenthesized_expression" and n.named_child_count == 1:
            todo.append(n.named_children[0])
        elif n.type == "boolean_operator":
            op = n.child_by_field_name("operator")
            if op is None or op.type != "or":
                return []
            todo.extend(c for c in (n.child_by_field_name("right"), n.child_by_field_name("left")) if c is not None)
        elif n.type == "conditional_expression":
            parts = [c for c in n.named_children if c.type != "comment"]  # body, condition, alternative
            if len(parts) != 3:
                return []
            todo.extend((parts[2], parts[0]))
        else:
            out.append(n)
    return out


def either_bindings(extractor, scope: str | None, name: str, value: Node, method, line: int) -> list[Binding]:
    """The bindings of ``name`` (in ``scope``, at ``line``) to each operand of ``value`` (an ``or`` or
    conditional expression) that the extractor's ``binding_type`` (``extractor``: the Python
    extractor's file run; ``method``: the method scope, for its annotated parameters) reads as a call
    (``constructed``) or a name (``alias``, ``declared`` for an annotated parameter), except the one it
    already wrote for the whole assignment; literals and ``None`` bind nothing. A name that is one of
    its own operands (``handler = handler or default``: a parameter's default) gets nothing more: what
    it held before (a caller's argument) is as likely as the other operand, and no binding says so."""
    written = {(b.type, b.how) for b in extractor.out.bindings[-3:] if b.scope == scope and b.name == name and b.line == line}
    out: list[Binding] = []
    for n in operands(value):
        if n.type in ("none", "true", "false"):
            continue
        found = extractor.binding_type(None, n, method)
        if found == (name, "alias"):
            return []
        if found is None or found[0] == LITERAL_RECEIVER or found in written:
            continue
        written.add(found)
        out.append(Binding(scope, name, found[0], found[1], line))
    return out
