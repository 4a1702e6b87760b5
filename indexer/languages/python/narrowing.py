"""Python's ``isinstance`` guards as :data:`~indexer.model.NARROWED` bindings: inside ``if
isinstance(x, A):`` (also the first operand of an ``and``), and after ``if not isinstance(x, A):``
whose suite leaves (``return`` / ``raise`` / ``continue`` / ``break``) to the end of the enclosing
block, ``x`` is an ``A`` (or a subclass). This is the narrowing type checkers do (PEP 484's
``isinstance`` narrowing; mypy and pyright "type narrowing"), the same binding Java's ``instanceof``
gives (:mod:`indexer.languages.java.narrowing`): the resolver reads a call through ``x`` there as on an
``A``, and a union ``x`` holds (:mod:`indexer.resolve.either`) as its values that may be an ``A``.

Only a plain name tested against one class (a name or dotted name: not a tuple, not ``type(x) is A``),
and only when the guarded lines do not bind the name again (``x = B()`` inside ends the narrowing:
nothing is written).
"""

from __future__ import annotations

from collections.abc import Callable

from tree_sitter import Node

from indexer.model import NARROWED, Binding

__all__ = ["isinstance_narrowings", "isinstance_test"]

_EXITS = frozenset({"return_statement", "raise_statement", "continue_statement", "break_statement"})
_BINDERS = frozenset({"assignment", "augmented_assignment", "for_statement", "named_expression", "with_item"})

Text = Callable[[Node], str]


def isinstance_test(test: Node, text: Text) -> tuple[str, str, bool] | None:
    """``(name, class text, negated)`` of an ``isinstance(name, Class)`` test, ``not`` of one, or
    the first operand of an ``and`` (not negated); ``None`` for anything else."""
    while test.type == "parenthesized_expression" and test.named_child_count == 1:
        test = test.named_children[0]
    if test.type == "not_operator":
        arg = test.child_by_field_name("argument")
        inner = isinstance_test(arg, text) if arg is not None else None
        return (inner[0], inner[1], True) if inner is not None and not inner[2] else None
    if test.type == "boolean_operator":
        op, left = test.child_by_field_name("operator"), test.child_by_field_name("left")
        if op is None or op.type != "and" or left is None:
            return None
        inner = isinstance_test(left, text)
        return inner if inner is not None and not inner[2] else None
    if test.type != "call":
        return None
    fn, args = test.child_by_field_name("function"), test.child_by_field_name("arguments")
    if fn is None or text(fn) != "isinstance" or args is None:
        return None
    parts = [a for a in args.named_children if a.type != "comment"]
    if len(parts) != 2 or parts[0].type != "identifier" or parts[1].type not in ("identifier", "attribute"):
        return None
    return text(parts[0]), text(parts[1]), False


def _rebinds(nodes: list[Node], name: str, text: Text) -> bool:
    """Whether ``nodes`` (statements) bind ``name`` anywhere inside (an assignment, a loop, a walrus)."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n.type in _BINDERS:
            target = n.child_by_field_name("left") or n.child_by_field_name("name") or n.child_by_field_name("alias")
            if target is not None and name in text(target).replace("(", " ").replace(",", " ").split():
                return True
        stack.extend(n.named_children)
    return False


def _line(node: Node, last: bool = False) -> int:
    """1-based first (or ``last``) line of ``node``."""
    if not last:
        return node.start_point[0] + 1
    row, col = node.end_point
    return row + 1 if col > 0 or row == node.start_point[0] else row


def isinstance_narrowings(root: Node, text: Text, scope_at: Callable[[int], str | None]) -> list[Binding]:
    """The :data:`~indexer.model.NARROWED` bindings of the ``isinstance`` guards under ``root``
    (module docstring): scope from ``scope_at`` (a byte offset -> qualname), ``type`` the class text,
    ``line`` / ``end`` the guarded lines."""
    out: list[Binding] = []
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "if_statement":
            continue
        test, body = n.child_by_field_name("condition"), n.child_by_field_name("consequence")
        found = isinstance_test(test, text) if test is not None and body is not None else None
        if found is None:
            continue
        name, cls, negated = found
        if not negated:
            if not _rebinds(body.named_children, name, text):
                out.append(Binding(scope_at(n.start_byte), name, cls, NARROWED, _line(body), _line(body, True)))
            continue
        stmts = [c for c in body.named_children if c.type != "comment"]
        if not stmts or stmts[-1].type not in _EXITS or n.child_by_field_name("alternative") is not None:
            continue
        block = n.parent
        after = [c for c in block.named_children if c.start_byte > n.end_byte] if block is not None else []
        if after and not _rebinds(after, name, text):
            out.append(Binding(scope_at(n.start_byte), name, cls, NARROWED, _line(after[0]), _line(after[-1], True)))
    return out
