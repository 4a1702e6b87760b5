"""Where a Java type test guards code: the names it narrows, to which type, over which lines.

``queries/narrowing.scm`` finds the tests (``o instanceof Circle``, ``o instanceof Circle c``,
``o.getClass() == Circle.class``, ``Circle.class.isInstance(o)``,
``Circle.class.isAssignableFrom(o.getClass())``) and the type patterns of a switch's labels
(``case Circle c ->``). This module finds the code each guards, following the rules of JLS 6.3.1
(the scope of a pattern variable) for the names tested as well:

- a test that is the condition of an ``if`` / ``while`` or of a ``?:``, or a conjunct of one (through
  ``&&`` and parentheses, never ``!`` or ``||``), guards the ``then`` branch, the loop's body or the
  ``?`` value;
- a test on the left of ``&&`` also guards the right operand (``o instanceof Circle && o.round()``);
- a switch label's type pattern guards its rule's body (``case Circle c -> c.roll();``) or its group
  of statements (``case Circle c: ... break;``), for the pattern variable and for the name switched
  on.

A query cannot follow a chain of ``&&`` of any depth up to its statement, so the walk upward is
written here. What is not narrowed: the code after ``if (!(o instanceof Circle)) return;`` (the
test's false branch ending the block), assignments inside the guarded code (a Java assignment is
no binding), a ``this.field`` tested.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Callable
from dataclasses import dataclass

from tree_sitter import Node

from indexer.languages.base import query, run_query

__all__ = ["Narrowing", "allocations", "narrowings"]

GRAMMAR = "java"


@dataclass(frozen=True, slots=True)
class Narrowing:
    """A name seen as ``type_node``'s type over the code ``region`` (a node: a statement, an
    expression, a switch rule's body or statement group), on its 1-based lines ``line`` to
    ``end``."""

    name: str
    type_node: Node
    region: Node
    line: int
    end: int


def narrowings(root: Node, text: Callable[[Node], str], source: bytes) -> list[Narrowing]:
    """Every narrowing under ``root`` (a Java tree of ``source``), in the order the query finds them;
    ``text`` gives a node's source text. A test whose code guards nothing (a test stored in a
    variable, a negated one) narrows nothing. Lines, not columns, bound a narrowing
    (:func:`_lines`)."""
    out: list[Narrowing] = []
    for _, m in run_query(query(GRAMMAR, "java/queries", "narrowing"), root):
        tnode = m["type"][0]
        names = [text(n) for n in m.get("pattern", ())]
        if "case" in m:
            label = m["case"][0]
            region = label.parent
            if region is None or region.type not in ("switch_rule", "switch_block_statement_group"):
                continue
            selector = _selector(region)
            if selector is not None:
                names.append(selector)
            block = region.parent
            regions = [(region, region, block.start_byte + 1 if block is not None else 0)]
        else:
            names.append(text(m["name"][0]))
            regions = [(r, owner, 0) for r, owner in _guarded(m["test"][0])]
        if text(tnode) == "final":  # `case final Circle c`: the grammar reads `final` as the type
            continue
        for r, owner, floor in regions:
            lines = _lines(r, source)
            if lines is None:
                continue
            before = _before(r, owner, floor, source)
            for name in names:
                line = lines[0] + 1 if before and _mentions(before, name) else lines[0]
                if line <= lines[1]:
                    out.append(Narrowing(name, tnode, r, line, lines[1]))
    return out


def allocations(root: Node, text: Callable[[Node], str]) -> list[Narrowing]:
    """The locals under ``root`` initialised with a new instance of a named class and never assigned
    again in the block declaring them (``Runnable r = new Task();``, ``Base b = new Sub();``): each
    holds an instance of exactly that class from its declaration's line to the block's end, whatever
    type it is declared with (JLS 15.9.4: ``new`` makes an object of the class named; JLS 6.3: a
    local's scope is the rest of its block). What is not one: a ``var`` local or one declared with
    the class built (its binding says so already), an anonymous class (``new Base() { ... }``, a
    class of its own), a local assigned anywhere in its block (``r = other;``, also in a branch:
    lines do not tell which value a later line sees), a field."""
    out: list[Narrowing] = []
    assigned: dict[str, list[int]] = {}
    found: list[tuple[Node, Node, Node]] = []
    for _, m in run_query(query(GRAMMAR, "java/queries", "allocation"), root):
        if "assigned" in m:
            node = m["assigned"][0]
            assigned.setdefault(text(node), []).append(node.start_byte)
        else:
            found.append((m["local"][0], m["name"][0], m["new"][0]))
    for starts in assigned.values():
        starts.sort()
    for local, name_node, new in found:
        ltype = local.child_by_field_name("type")
        tnode = new.child_by_field_name("type")
        block = local.parent
        if ltype is None or tnode is None or block is None or any(c.type == "class_body" for c in new.named_children):
            continue
        declared, built = _simple(text(ltype)), _simple(text(tnode))
        if declared in ("var", built):  # `var`, `Owner o = new Owner()`: the binding says it already
            continue
        name = text(name_node)
        starts = assigned.get(name, ())
        i = bisect.bisect_left(starts, block.start_byte)
        if i < len(starts) and starts[i] < block.end_byte:
            continue
        out.append(Narrowing(name, tnode, block, local.start_point[0] + 1, block.end_point[0] + 1))
    return out


def _simple(type_text: str) -> str:
    """A type text's simple name without type arguments (``java.util.List<X>`` -> ``List``)."""
    return type_text.split("<", 1)[0].strip().rpartition(".")[2]


def _before(region: Node, owner: Node, floor: int, source: bytes) -> bytes:
    """The code on ``region``'s first line before ``owner`` (the statement or expression whose test
    guards it, a switch rule) when ``owner`` starts on that line, from ``floor`` on (a switch's
    block): code there is not guarded (``o.a(); if (o instanceof A) {``, brk44), so a name it
    mentions is not narrowed on that line."""
    first = source.rfind(b"\n", 0, region.start_byte) + 1
    if owner.start_byte < first:
        return b""
    return source[max(first, floor):owner.start_byte]


def _mentions(code: bytes, name: str) -> bool:
    """Whether ``code`` spells the identifier ``name``."""
    return re.search(rb"(?<![\w$])" + re.escape(name.encode("utf-8")) + rb"(?![\w$])", code) is not None


_TRIVIAL = frozenset(b" \t\r(){};,")


def _lines(region: Node, source: bytes) -> tuple[int, int] | None:
    """The 1-based lines ``region`` narrows: its own, less its last one when code the test does not
    guard follows it there (``} else if (x.isConstraint()) {``, where ``x`` is no longer
    narrowed); ``None`` when that leaves none (``if (o instanceof A) o.a(); else o.b();`` on one
    line is not narrowed at all). Closing brackets and a comment are no code."""
    line, end = region.start_point[0] + 1, region.end_point[0] + 1
    stop = source.find(b"\n", region.end_byte)
    rest = source[region.end_byte:stop if stop >= 0 else len(source)].split(b"//", 1)[0]
    if any(c not in _TRIVIAL for c in rest):
        end -= 1
    return (line, end) if end >= line else None


def _guarded(test: Node) -> list[tuple[Node, Node]]:
    """The code ``test`` (a boolean expression) guards: the right operands of the ``&&`` it is the
    left side of, and the branch, body or value of the ``if`` / ``while`` / ``?:`` whose condition
    it is a conjunct of; each with the ``&&`` / statement / expression holding test and code."""
    out: list[tuple[Node, Node]] = []
    node = test
    while (parent := node.parent) is not None:
        kind = parent.type
        if kind == "parenthesized_expression":
            node = parent
            continue
        if kind == "binary_expression" and _operator(parent) == "&&":
            right = parent.child_by_field_name("right")
            if right is not None and node != right:
                out.append((right, parent))
            node = parent
            continue
        if kind == "if_statement" and parent.child_by_field_name("condition") == node:
            branch = parent.child_by_field_name("consequence")
        elif kind == "while_statement" and parent.child_by_field_name("condition") == node:
            branch = parent.child_by_field_name("body")
        elif kind == "ternary_expression" and parent.child_by_field_name("condition") == node:
            branch = parent.child_by_field_name("consequence")
        else:
            branch = None
        if branch is not None:
            out.append((branch, parent))
        break
    return out


def _operator(binary: Node) -> str | None:
    op = binary.child_by_field_name("operator")
    return op.type if op is not None else None


def _selector(group: Node) -> str | None:
    """The name a switch rule or statement group's switch is on (``switch (shape)``), or ``None``
    when it switches on another expression."""
    block = group.parent
    switch = block.parent if block is not None else None
    if switch is None or switch.type not in ("switch_expression", "switch_statement"):
        return None
    cond = switch.child_by_field_name("condition")
    while cond is not None and cond.type == "parenthesized_expression":
        cond = cond.named_children[0] if cond.named_children else None
    if cond is None or cond.type != "identifier":
        return None
    return cond.text.decode("utf-8") if cond.text is not None else None  # an identifier: ASCII or UTF-8 alike
