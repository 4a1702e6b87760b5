"""Calls the Java compiler writes into the code without the source naming them.

Each is a call of a method on a value the code states, bound by the resolver through that value's
type only (``CallSite.via == "dunder"``: never by name, dropped when the type is no class of the
repository, a JDK type or a primitive):

- a try-with-resources statement closes each resource (JLS 14.20.3): ``try (Res r = open())``
  -> ``r.close()``, ``try (this.res)`` -> ``this.res.close()``;
- an enhanced ``for`` over an ``Iterable`` (JLS 14.14.2) runs ``iterator()`` on the value iterated,
  then ``hasNext()`` and ``next()`` on what it returns (an array, a JDK collection: nothing binds);
- string concatenation (JLS 15.18.1) converts each operand that is no ``String`` by string
  conversion (JLS 5.1.11), ``toString()`` of a reference: ``"id " + owner`` -> ``owner.toString()``.
  A ``+`` is a concatenation when one of its operands is a ``String`` as written: a string literal,
  a text block, a concatenation itself, ``x.toString()``, ``String.valueOf(..)`` / ``String.format(..)``
  / ``String.join(..)``. Only operands written as a value with a type (a name, a field, a call, a
  ``new``, a cast, ``this``) are converted; ``1 + 2 + "a"`` converts the sum, a primitive: nothing.
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from indexer.languages.base import query, run_query

__all__ = ["ImplicitCall", "implicit_calls"]

GRAMMAR = "java"

ImplicitCall = tuple[Node, str, str]
"""``(node the call is placed at, method name, receiver text)``: a call of no arguments."""

_VALUES = frozenset({"identifier", "field_access", "method_invocation", "object_creation_expression",
                     "this", "array_access"})
_STRING_CALLS = frozenset({"valueOf", "format", "join", "copyValueOf"})


def _unwrapped(node: Node) -> Node:
    """``node`` without the parentheses around it, except those of a cast (``((Owner) o)``)."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1 and \
            node.named_children[0].type != "cast_expression":
        node = node.named_children[0]
    return node


def _is_string(node: Node, text: Callable[[Node], str], memo: dict[int, bool]) -> bool:
    """Whether ``node`` is a ``String`` as written (see the module docstring). A chain of ``+`` is
    walked down its left operands without recursion (a generated concatenation of thousands of terms
    nests as deep), each ``+`` answered once (``memo``, by node id: every ``+`` of a chain asks)."""
    spine: list[Node] = []
    cur = _unwrapped(node)
    found = False
    while True:
        if cur.id in memo:
            found = memo[cur.id]
            break
        if cur.type != "binary_expression":
            found = _is_string_leaf(cur, text)
            break
        op = cur.child_by_field_name("operator")
        right = cur.child_by_field_name("right")
        left = cur.child_by_field_name("left")
        if op is None or op.type != "+" or left is None:
            found = False
            break
        spine.append(cur)
        if right is not None and right.type != "binary_expression" and _is_string_leaf(_unwrapped(right), text):
            found = True
            break
        cur = _unwrapped(left)
    # a `+` is a String when its left operand or a right operand above it on the spine is; a right
    # operand that is itself a `(a + b)` is weighed on its own (rare: one level of recursion per
    # parenthesised group, not per term)
    for n in reversed(spine):
        if not found:
            right = n.child_by_field_name("right")
            found = right is not None and right.type == "binary_expression" and _is_string(right, text, memo)
        memo[n.id] = found
    return found


def _is_string_leaf(node: Node, text: Callable[[Node], str]) -> bool:
    """Whether ``node``, no ``+``, is a ``String`` as written: a literal, a text block, ``x.toString()``,
    ``String.valueOf(..)`` and its kin."""
    t = node.type
    if t in ("string_literal", "text_block"):
        return True
    if t == "method_invocation":
        name = node.child_by_field_name("name")
        args = node.child_by_field_name("arguments")
        obj = node.child_by_field_name("object")
        called = text(name) if name is not None else ""
        if called == "toString" and args is not None and args.named_child_count == 0:
            return True
        return called in _STRING_CALLS and obj is not None and text(obj) == "String"
    return False


def _converted(node: Node) -> Node | None:
    """The operand itself when string conversion calls a method on it: a value with a type."""
    node = _unwrapped(node)
    if node.type in _VALUES:
        return node
    if node.type == "parenthesized_expression":  # `((Owner) o)`: a cast
        return node
    return None


def implicit_calls(root: Node, text: Callable[[Node], str], receiver: Callable[[Node], str]) -> list[ImplicitCall]:
    """The calls the compiler makes under ``root`` (a Java tree), in the order the query finds them.
    ``text`` gives a node's source text, ``receiver`` its receiver text (the extractor's); a
    receiver ``receiver`` cannot spell (an empty text) makes no call. Shapes in the module docstring."""
    out: list[ImplicitCall] = []
    memo: dict[int, bool] = {}

    def add(at: Node, name: str, recv: str) -> None:
        if recv:
            out.append((at, name, recv))

    for _, m in run_query(query(GRAMMAR, "java/queries", "implicit"), root):
        if "resource" in m:
            node = m["resource"][0]
            add(node, "close", receiver(node))
        elif "iterable" in m:
            node = _unwrapped(m["iterable"][0])
            if node.type not in _VALUES and node.type != "parenthesized_expression":
                continue
            recv = receiver(node)
            add(node, "iterator", recv)
            if recv:
                add(node, "hasNext", f"{recv}.iterator()")
                add(node, "next", f"{recv}.iterator()")
        else:
            node = m["concat"][0]
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is None or right is None:
                continue
            left_str, right_str = _is_string(left, text, memo), _is_string(right, text, memo)
            if not (left_str or right_str):
                continue
            for side, is_str in ((left, left_str), (right, right_str)):
                operand = None if is_str else _converted(side)
                if operand is not None:
                    add(operand, "toString", receiver(operand))
    return out
