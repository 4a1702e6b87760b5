"""A name assigned one of several values: ``const s = cached ?? new Service()``, ``opts.repo ||
makeRepo()``, ``c ? new A() : b``. The value is either operand (ECMA-262 13.13 "Binary Logical
Operators" and 13.14 "Conditional Operator": ``a ?? b`` and ``a || b`` evaluate to ``a`` or ``b``,
``c ? a : b`` to ``a`` or ``b``), so each operand that names a value is a
:class:`~indexer.model.Binding` of the name as the plain assignment of it would be (``constructed``
for ``new X()``, ``f()`` and ``await f()``; ``alias`` for a name or member). The bindings share the
line; the resolver reads them as one name bound several ways on one line, the first tier holding a
value deciding (:meth:`indexer.resolve.interpreter.Resolver.binding_value`: a constructed value
before an alias). ``a && b`` is left out: when ``a`` is an object it is ``b``, but a falsy ``a``
(often a boolean guard) is no value to bind.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.model import Binding

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["either_bindings", "operands"]

EITHER_OPERATORS = frozenset({"??", "||"})
"""Binary operators whose value is one of their operands."""
MAX_OPERANDS = 8
"""Operands read from one expression (``a ?? b ?? c`` has three); the rest is left out."""


def operands(value: Node) -> list[Node]:
    """The operands ``value`` may evaluate to, left to right, through parentheses and nested
    ``??`` / ``||`` / conditional expressions (at most :data:`MAX_OPERANDS`); ``[value]`` for any
    other expression."""
    out: list[Node] = []
    todo = [value]
    while todo and len(out) < MAX_OPERANDS:
        n = todo.pop()
        if n.type == "parenthesized_expression" and n.named_child_count == 1:
            todo.append(n.named_children[0])
            continue
        if n.type == "binary_expression":
            op = n.child_by_field_name("operator")
            if op is not None and op.type in EITHER_OPERATORS:
                todo.extend(c for c in (n.child_by_field_name("right"), n.child_by_field_name("left")) if c is not None)
                continue
        if n.type == "ternary_expression":
            todo.extend(c for c in (n.child_by_field_name("alternative"), n.child_by_field_name("consequence"))
                        if c is not None)
            continue
        out.append(n)
    return out


def either_bindings(scope: str | None, name: str, value: Node, line: int,
                    receiver: Callable[[Node], str]) -> list[Binding]:
    """The bindings of ``name`` (in ``scope``, at ``line``) to each operand of ``value`` (a ``??`` /
    ``||`` or conditional expression) that names a value: ``new X()`` and a call of a (member) name,
    awaited or not, ``constructed`` to the callee's receiver text (``receiver``: the extractor's
    normalisation); a (member) name, ``alias``. Other operands (literals, objects, ``require``) bind
    nothing."""
    out: list[Binding] = []
    for n in operands(value):
        if n.type == "await_expression" and n.named_child_count == 1:
            n = n.named_children[0]
        if n.type == "new_expression":
            ctor = n.child_by_field_name("constructor")
            if ctor is not None:
                out.append(Binding(scope, name, receiver(ctor), "constructed", line))
        elif n.type == "call_expression":
            fn = n.child_by_field_name("function")
            if fn is not None and fn.type in ("identifier", "member_expression") and fn.text != b"require":
                out.append(Binding(scope, name, receiver(fn), "constructed", line))
        elif n.type in ("identifier", "member_expression"):
            target = receiver(n)
            if "(" not in target and "[" not in target and target not in ("undefined", "null"):
                out.append(Binding(scope, name, target, "alias", line))
    return out
