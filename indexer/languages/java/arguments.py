"""The arguments of a Java call that may hand the callee an object it runs (``new Thread(task)``,
``executor.submit(this.job)``, ``pool.execute(new Task())``): :attr:`indexer.model.CallSite.handed`,
read by the resolver's hand-off rules (:mod:`indexer.resolve.callbacks`,
``JavaModuleSystem.handoff_calls``); and the type each argument is written with, which picks among
overloads of one arity (:attr:`indexer.model.CallSite.arg_types`, :mod:`indexer.resolve.overloads`)."""

from __future__ import annotations

import json
import re
import sys
from collections.abc import Callable
from typing import TYPE_CHECKING

from indexer.model import LONG_RECEIVER, NamedArgument, drop_generics

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["argument_types", "handed_arguments"]

_WS = re.compile(r"\s+")
_NAME = re.compile(r"(?:this\.)?[A-Za-z_$][\w$]*")


def handed_arguments(src: SourceText, args: Node | None) -> tuple[NamedArgument, ...]:
    """The arguments written as a name, ``this.field``, ``new T(...)`` (as ``new T()``, the form
    receivers take; an anonymous class is none) or a class literal (``T.class``), keyed by position. Reads the list's children (one
    level, no walk)."""
    if args is None or args.type != "argument_list":
        return ()
    out: list[NamedArgument] = []
    position = -1
    for child in args.named_children:
        if child.type in ("line_comment", "block_comment"):
            continue
        position += 1
        if child.type in ("identifier", "field_access"):
            text = _WS.sub("", src.text(child))
            if not _NAME.fullmatch(text):
                continue
        elif child.type == "object_creation_expression" and not any(c.type == "class_body" for c in child.children):
            t = child.child_by_field_name("type")
            if t is None:
                continue
            text = f"new {drop_generics(_WS.sub('', src.text(t)))}()"
        elif child.type == "class_literal":  # `User.class`: a class a generic method's `Class<T>` binds
            text = _WS.sub("", src.text(child))
        else:
            continue
        out.append(NamedArgument(str(position), text, src.line(child), src.col(child)))
    return tuple(out)


_LITERALS = {"string_literal": "String", "text_block": "String", "true": "boolean", "false": "boolean",
             "character_literal": "char", "null_literal": "null", "class_literal": "Class",
             "instanceof_expression": "boolean"}
_INTEGERS = frozenset({"decimal_integer_literal", "hex_integer_literal", "octal_integer_literal",
                       "binary_integer_literal"})
_FLOATS = frozenset({"decimal_floating_point_literal", "hex_floating_point_literal"})
_BOOLEAN_OPERATORS = frozenset({"==", "!=", "<", ">", "<=", ">=", "&&", "||"})
_SHIFTS = frozenset({"<<", ">>", ">>>"})


def argument_types(src: SourceText, args: Node | None, receiver: Callable[[Node], str]) -> tuple[str, ...]:
    """What each argument's type is as written, by position (:attr:`indexer.model.CallSite.arg_types`,
    read by :mod:`indexer.resolve.overloads`); empty when no argument's type is known. Each is a type
    text, a form the resolver evaluates, or ``""`` (unknown):

    - a literal's type (``"a"`` -> ``String``, ``1`` -> ``int``, ``1L`` -> ``long``, ``1.0`` ->
      ``double``, ``1f`` -> ``float``, ``'c'`` -> ``char``, ``true`` -> ``boolean``, ``null``,
      ``X.class`` -> ``Class``), ``new X<..>(..)`` and ``(X) e`` -> ``X``, ``new X[n][]`` /
      ``new X[]{..}`` -> ``X[][]`` / ``X[]``, a comparison, ``!e`` or ``instanceof`` -> ``boolean``;
    - ``=name``: a name or ``this.name``, whose declared type the resolver looks up;
    - ``@expr``: ``this``, a call or a field read, as a receiver text (``receiver``: ``a.b().c``),
      whose type the resolver reads off the declared return or field type;
    - ``&["expr", [forms]]``: a call written as the argument itself (``max(max(a, b), c)``,
      ``foo(Util.bar(x))``), as ``@expr`` with its own arguments' forms (JSON; an argument that is
      a call is such a list itself, a conditional's form is ``""``), so the resolver can
      choose among the called overloads by them and take the chosen one's return type (JLS 15.12.2
      decides an inner call's type before the outer call's);
    - ``[`` + an operand: an element of an array (``a[i]``);
    - ``+a|b``, ``%a|b``: a ``+`` (a string concatenation when an operand is a ``String``), another
      arithmetic or bitwise operation (binary numeric promotion, JLS 5.6), over the operands' forms
      (an operation or conditional as an operand is ``""``); ``?a^b``: a conditional ``c ? a : b``
      (JLS 15.25) over its branches' forms (operations too; a conditional as a branch is ``""``);
    - ``->N``: a lambda of ``N`` parameters; ``::``: a method reference (JLS 15.27, 15.13: each fits
      a functional interface only)."""
    if args is None or args.type != "argument_list":
        return ()
    out = [_form(src, child, receiver, 2) for child in args.named_children
           if child.type not in ("line_comment", "block_comment")]
    return tuple(sys.intern(a) for a in out) if any(out) else ()


_NESTED_CALLS = 4  # calls within calls whose arguments are written out (`&`); deeper ones are `@`


def _form(src: SourceText, node: Node, receiver: Callable[[Node], str], depth: int) -> str:
    """One argument's form (:func:`argument_types`); ``depth``: 2 an argument (any form), 1 a
    conditional's branch (no conditional), 0 an operand (no operator either)."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    t = node.type
    if t in _LITERALS:
        return _LITERALS[t]
    if t in _INTEGERS:
        return "long" if src.text(node)[-1:] in ("l", "L") else "int"
    if t in _FLOATS:
        return "float" if src.text(node)[-1:] in ("f", "F") else "double"
    if t in ("object_creation_expression", "cast_expression"):
        tn = node.child_by_field_name("type")
        return drop_generics(_WS.sub("", src.text(tn))) if tn is not None else ""
    if t == "array_creation_expression":
        tn = node.child_by_field_name("type")
        if tn is None:
            return ""
        dims = sum(1 if d.type == "dimensions_expr" else src.text(d).count("[")
                   for d in node.children_by_field_name("dimensions"))
        return drop_generics(_WS.sub("", src.text(tn))) + "[]" * dims if dims else ""
    if t == "identifier" or (t == "field_access" and _NAME.fullmatch(name := _WS.sub("", src.text(node)))):
        name = _WS.sub("", src.text(node))
        return f"={name}" if _NAME.fullmatch(name) else ""
    if t in ("this", "method_invocation", "field_access"):
        text = "this" if t == "this" else receiver(node)
        if not text or text == LONG_RECEIVER or text.startswith("super"):
            return ""
        call = _call(src, node, receiver, text) if t == "method_invocation" and depth == 2 else None
        return "&" + json.dumps(call, separators=(",", ":")) if call else f"@{text}"
    if t == "array_access":
        array = node.child_by_field_name("array")
        inner = _form(src, array, receiver, 0) if array is not None else ""
        return f"[{inner}" if inner[:1] in ("=", "@") else ""
    if t == "lambda_expression":
        params = node.child_by_field_name("parameters")
        if params is None:
            return ""
        n = 1 if params.type == "identifier" else sum(1 for c in params.named_children if c.type in (
            "identifier", "formal_parameter", "spread_parameter"))
        return f"->{n}"
    if t == "method_reference":
        return "::"
    if not depth:
        return ""
    if t == "unary_expression":
        op, operand = node.child_by_field_name("operator"), node.child_by_field_name("operand")
        if op is not None and src.text(op) == "!":
            return "boolean"
        return f"%{_form(src, operand, receiver, 0)}" if operand is not None and op is not None and \
            src.text(op) in ("-", "+", "~") else ""
    if t == "ternary_expression":
        a, b = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
        if a is None or b is None or depth < 2:
            return ""
        return f"?{_form(src, a, receiver, 1)}^{_form(src, b, receiver, 1)}"
    if t == "binary_expression":
        op = node.child_by_field_name("operator")
        o = src.text(op) if op is not None else ""
        if o in _BOOLEAN_OPERATORS:
            return "boolean"
        kind = "+" if o == "+" else "%"
        operands = _operands(src, node, o) if o not in _SHIFTS else [node.child_by_field_name("left")]
        if any(x is None for x in operands):
            return ""
        return kind + "|".join(_form(src, x, receiver, 0) for x in operands)  # type: ignore[arg-type]
    return ""


def _call(src: SourceText, node: Node, receiver: Callable[[Node], str], text: str, nest: int = 0) -> list | None:
    """The ``&`` form of a call as an argument (:func:`argument_types`) before it is written as
    JSON: ``[receiver text, [each argument's form]]``, where an argument that is a call itself is
    such a list too, down to ``_NESTED_CALLS`` calls (deeper ones are ``@`` forms: no recursion on
    generated nestings). Written even when no argument's type is known: their count alone may pick
    the one overload of that arity (``this.findAll()`` beside ``findAll(Pageable)``)."""
    inner = node.child_by_field_name("arguments")
    if inner is None:
        return None
    forms: list = []
    for c in inner.named_children:
        if c.type in ("line_comment", "block_comment"):
            continue
        while c.type == "parenthesized_expression" and c.named_child_count == 1:
            c = c.named_children[0]
        nested = None
        if c.type == "method_invocation" and nest + 1 < _NESTED_CALLS:
            called = receiver(c)
            if called and called != LONG_RECEIVER and not called.startswith("super"):
                nested = _call(src, c, receiver, called, nest + 1)
        forms.append(nested or _form(src, c, receiver, 1))
    return [text, forms]


def _operands(src: SourceText, node: Node, op: str) -> list[Node | None]:
    """The operands of a chain of one binary operator (``a + b + c``: left-nested), left to right,
    walked iteratively."""
    out: list[Node | None] = []
    while node.type == "binary_expression":
        o = node.child_by_field_name("operator")
        if o is None or src.text(o) != op:
            break
        out.append(node.child_by_field_name("right"))
        left = node.child_by_field_name("left")
        if left is None:
            return [None]
        node = left
        while node.type == "parenthesized_expression" and node.named_child_count == 1 and \
                node.named_children[0].type != "binary_expression":
            node = node.named_children[0]
    out.append(node)
    return out[::-1]
