"""Python's type tests as :data:`~indexer.model.NARROWED` bindings: inside ``if isinstance(x, A):``
(also an operand of an ``and``), and after ``if not isinstance(x, A):`` whose suite leaves (``return`` /
``raise`` / ``continue`` / ``break``) to the end of the enclosing block, ``x`` is an ``A`` (or a
subclass). This is the narrowing type checkers do (PEP 484's ``isinstance`` narrowing; mypy and pyright
"type narrowing"), the same binding Java's ``instanceof`` gives
(:mod:`indexer.languages.java.narrowing`): the resolver reads a call through ``x`` there as on an ``A``,
and a union ``x`` holds (:mod:`indexer.resolve.either`) as its values that may be an ``A``.

The tests read: ``isinstance(x, A)`` with a class a name or dotted name (an imported one resolves as any
type text of the scope), ``isinstance(x, (A, B))`` (a tuple: ``x`` is an ``A`` or a ``B``, one binding
each on the same lines, read as a union), ``type(x) is A`` / ``type(x) == A`` (and ``is not`` / ``!=``
negated: mypy narrows these the same way). ``x`` is a plain name or an attribute of ``self``
(``isinstance(self.x, A)``: pyright and mypy narrow member access expressions until they are assigned).
Nothing is written when the guarded lines bind the name again (``x = B()`` inside ends the narrowing).
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


def isinstance_test(test: Node, text: Text) -> tuple[str, tuple[str, ...], bool] | None:
    """``(name, class texts, negated)`` of a type test (module docstring), ``not`` of one, or an
    operand of an ``and`` (the first that is one, not negated); ``None`` for anything else. ``name``
    is ``x`` or ``self.x``; the class texts are one, or a tuple's several. ``not`` and the operands of
    an ``and`` are read in loops, not by recursion: ``isinstance(x, A) and y1 and ... and y2000``
    nests 2,000 deep (brk52)."""
    negated = False
    while True:
        while test.type == "parenthesized_expression" and test.named_child_count == 1:
            test = test.named_children[0]
        if test.type != "not_operator":
            break
        arg = test.child_by_field_name("argument")
        if arg is None or negated:  # `not not ...`: read as nothing, as a reader would not write it
            return None
        negated, test = True, arg
    if test.type == "boolean_operator":
        inner = _and_operand(test, text)
    elif test.type == "comparison_operator":
        inner = _type_is(test, text)
    else:
        inner = _isinstance_call(test, text)
    return (inner[0], inner[1], inner[2] != negated) if inner is not None else None


def _and_operand(test: Node, text: Text) -> tuple[str, tuple[str, ...], bool] | None:
    """The first operand of the ``and`` chain ``test`` (left to right, nested ``and`` flattened with a
    stack) that is a type test not negated; ``None`` when ``test`` is not an ``and`` or none is."""
    op = test.child_by_field_name("operator")
    if op is None or op.type != "and":
        return None
    stack = [test]
    while stack:
        node = stack.pop()
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        if node.type == "boolean_operator":
            op = node.child_by_field_name("operator")
            if op is not None and op.type == "and":
                stack.extend(side for side in (node.child_by_field_name("right"), node.child_by_field_name("left"))
                             if side is not None)
            continue  # an `or` among the operands narrows nothing
        inner = isinstance_test(node, text)
        if inner is not None and not inner[2]:
            return inner
    return None


def _isinstance_call(test: Node, text: Text) -> tuple[str, tuple[str, ...], bool] | None:
    """``isinstance(x, A)`` / ``isinstance(x, (A, B))`` as ``(x, classes, False)``; else ``None``."""
    if test.type != "call":
        return None
    fn, args = test.child_by_field_name("function"), test.child_by_field_name("arguments")
    if fn is None or text(fn) != "isinstance" or args is None:
        return None
    parts = [a for a in args.named_children if a.type != "comment"]
    if len(parts) != 2 or not _subject(parts[0], text):
        return None
    classes = _classes(parts[1], text)
    return (text(parts[0]), classes, False) if classes else None


def _bound_names(node: Node, text: Text) -> set[str]:
    """The names ``node``'s binders bind (an assignment's left side, a loop's, a walrus's, a ``with
    ... as``'s), the words of the target's text as :func:`_rebinds` reads them."""
    target = node.child_by_field_name("left") or node.child_by_field_name("name") or node.child_by_field_name("alias")
    return set(text(target).replace("(", " ").replace(",", " ").split()) if target is not None else set()


def _subject(node: Node, text: Text) -> bool:
    """Whether ``node`` is what a test narrows: a plain name or ``self.<name>``."""
    if node.type == "identifier":
        return True
    obj = node.child_by_field_name("object") if node.type == "attribute" else None
    return obj is not None and obj.type == "identifier" and text(obj) == "self" \
        and (node.child_by_field_name("attribute") or obj).type == "identifier"


def _classes(node: Node, text: Text) -> tuple[str, ...]:
    """The class texts of an ``isinstance`` second argument: a name or dotted name, or a tuple of them
    (each once); empty when any part is something else."""
    while node.type == "parenthesized_expression" and node.named_child_count == 1:
        node = node.named_children[0]
    if node.type in ("identifier", "attribute"):
        return (text(node),)
    if node.type != "tuple":
        return ()
    parts = [c for c in node.named_children if c.type != "comment"]
    if not parts or any(c.type not in ("identifier", "attribute") for c in parts):
        return ()
    return tuple(dict.fromkeys(text(c) for c in parts))


def _type_is(test: Node, text: Text) -> tuple[str, tuple[str, ...], bool] | None:
    """``type(x) is A`` / ``type(x) == A`` (negated: ``is not`` / ``!=``), one comparison only."""
    operands = [c for c in test.named_children if c.type != "comment"]
    ops = [c.type for c in test.children if not c.is_named]
    if len(operands) != 2 or ops not in (["is"], ["=="], ["is", "not"], ["is not"], ["!="]):
        return None
    call, cls = operands
    if call.type != "call":
        call, cls = cls, call
    fn, args = call.child_by_field_name("function"), call.child_by_field_name("arguments")
    if call.type != "call" or fn is None or text(fn) != "type" or args is None:
        return None
    parts = [a for a in args.named_children if a.type != "comment"]
    if len(parts) != 1 or not _subject(parts[0], text) or cls.type not in ("identifier", "attribute"):
        return None
    return text(parts[0]), (text(cls),), ops not in (["is"], ["=="])


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
        name, classes, negated = found
        if not negated:
            if not _rebinds(body.named_children, name, text):
                out.extend(Binding(scope_at(n.start_byte), name, c, NARROWED, _line(body), _line(body, True))
                           for c in classes)
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
            out.extend(Binding(scope_at(n.start_byte), name, c, NARROWED, _line(found_block.children[first]),
                               _line(found_block.children[-1], True)) for c in classes)
    return out
