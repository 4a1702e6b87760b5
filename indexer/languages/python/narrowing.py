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

import bisect
from collections.abc import Callable

from tree_sitter import Node

from indexer.model import NARROWED, Binding

__all__ = ["isinstance_narrowings", "isinstance_test"]

_EXITS = frozenset({"return_statement", "raise_statement", "continue_statement", "break_statement"})
_BINDERS = frozenset({"assignment", "augmented_assignment", "for_statement", "named_expression", "with_item"})

Text = Callable[[Node], str]


def isinstance_test(test: Node, text: Text) -> tuple[str, str, bool] | None:
    """``(name, class text, negated)`` of an ``isinstance(name, Class)`` test, ``not`` of one, or
    the first operand of an ``and`` (not negated); ``None`` for anything else. Read in a loop down the
    left operands: ``isinstance(x, A) and y1 and ... and y2000`` nests 2,000 deep (brk52)."""
    negated = seen_and = False
    while True:
        while test.type == "parenthesized_expression" and test.named_child_count == 1:
            test = test.named_children[0]
        if test.type == "not_operator":
            arg = test.child_by_field_name("argument")
            if arg is None or negated or seen_and:  # `not not ...`, `(not ...) and y`: no narrowing
                return None
            negated, test = True, arg
        elif test.type == "boolean_operator":
            op, left = test.child_by_field_name("operator"), test.child_by_field_name("left")
            if op is None or op.type != "and" or left is None:
                return None
            seen_and, test = True, left
        else:
            break
    if test.type != "call":
        return None
    fn, args = test.child_by_field_name("function"), test.child_by_field_name("arguments")
    if fn is None or text(fn) != "isinstance" or args is None:
        return None
    parts = [a for a in args.named_children if a.type != "comment"]
    if len(parts) != 2 or parts[0].type != "identifier" or parts[1].type not in ("identifier", "attribute"):
        return None
    return text(parts[0]), text(parts[1]), negated


def _bound_names(node: Node, text: Text) -> set[str]:
    """The names ``node``'s binders bind (an assignment's left side, a loop's, a walrus's, a ``with
    ... as``'s), the words of the target's text as :func:`_rebinds` reads them."""
    target = node.child_by_field_name("left") or node.child_by_field_name("name") or node.child_by_field_name("alias")
    return set(text(target).replace("(", " ").replace(",", " ").split()) if target is not None else set()


def _rebinds(nodes: list[Node], name: str, text: Text) -> bool:
    """Whether ``nodes`` (statements) bind ``name`` anywhere inside (an assignment, a loop, a walrus)."""
    stack = list(nodes)
    while stack:
        n = stack.pop()
        if n.type in _BINDERS and name in _bound_names(n, text):
            return True
        stack.extend(n.named_children)
    return False


class _Block:
    """A block's statements read once for every negated guard in it: their start bytes (the statements
    after a guard by bisection) and, for each name bound anywhere inside them, the index of the last
    statement binding it. One walk per block; a guard asked :func:`_rebinds` of every statement after it,
    quadratic in a function of N ``if not isinstance(...): return`` guards (2,000: 51 s; brk52)."""

    def __init__(self, block: Node, text: Text) -> None:
        self.children = block.named_children
        self.starts = [c.start_byte for c in self.children]
        self.last: dict[str, int] = {}
        for i, child in enumerate(self.children):
            stack = [child]
            while stack:
                n = stack.pop()
                if n.type in _BINDERS:
                    for word in _bound_names(n, text):
                        self.last[word] = i
                stack.extend(n.named_children)

    def after(self, end_byte: int) -> int:
        """The index of the first statement starting past ``end_byte`` (``len(children)``: none)."""
        return bisect.bisect_right(self.starts, end_byte)

    def rebound_from(self, i: int, name: str) -> bool:
        """Whether a statement at index ``i`` or later binds ``name``."""
        return self.last.get(name, -1) >= i


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
    blocks: dict[tuple[int, int, str], _Block] = {}
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
        if block is None:
            continue
        key = (block.start_byte, block.end_byte, block.type)
        if key not in blocks:
            blocks[key] = _Block(block, text)
        found_block = blocks[key]
        first = found_block.after(n.end_byte)
        if first < len(found_block.children) and not found_block.rebound_from(first, name):
            out.append(Binding(scope_at(n.start_byte), name, cls, NARROWED, _line(found_block.children[first]),
                               _line(found_block.children[-1], True)))
    return out
