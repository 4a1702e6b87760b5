"""Assignments to a function's own names: ``let u = c ? a : b; ... u = new D(); u.m()``, ``let h; if (x)
h = f; else h = g; h()``.

An assignment expression ``name = value`` whose ``name`` is declared by the function it is written in (a
``let`` / ``var`` / ``const`` declarator or a parameter of that function, not of a function around it)
binds ``name`` as the declaration ``let name = value`` would (``queries/bindings.scm``): the resolver
already reads a name bound on several lines of one scope in statement order, the binding written last
before a use deciding (:meth:`indexer.resolve.interpreter.Resolver.resolve_expr_at`), so straight-line
reassignment replaces the earlier value. An assignment to a name the function does not declare (a
module's ``let``, a closure's variable) binds nothing: the function assigning it is not the one whose
calls read it in order, and another function's calls keep their own bindings.

Branches: after an ``if`` / ``else if`` / ``else`` chain assigning the name, it holds one of the values
the branches leave, which one the analysis cannot tell (the join of a data-flow analysis over the
branches, as for ``c ? a : b``): each branch's last bindings, the value written before the chain for a
branch assigning nothing and for a chain without a final ``else``, nothing for a branch ending in
``return`` / ``throw`` / ``break`` / ``continue``. Those bindings are written again on the chain's last
line (inner chains first, so an outer chain sees an inner one's join), so that the name has one group
of bindings there and a call after the chain reads their union (:mod:`indexer.resolve.either`); a call
inside a branch still reads its own branch's.

``switch`` and loops join the same way, on their last line. A ``switch`` leaves, for each case, the last
bindings of the run starting there (falling through cases without ``break`` to the one ending in
``break`` or the last case; none for a run ending in ``return`` / ``throw`` / ``continue``), and the value
before it when there is no ``default`` (ECMA-262 14.12.4). A loop (``for``, ``for ... in`` / ``of``,
``while``) leaves the value before it (the body may run no time), the last bindings of its body, and the
last bindings before each of its own unlabelled ``break`` / ``continue``; a ``do ... while`` body runs at
least once, so the value before counts only when the body assigns nothing. The same values are written
on the loop's first line too (the back edge: a later iteration starts from what the body left), so a
call at the top of the body reads them: ``let h = a; for (...) { h.run(); h = b; }`` runs ``a.run`` and
``b.run`` (a data-flow analysis reads a loop body again with the values flowing back, Aho et al.,
"Compilers", 9.2: one more pass suffices for this join of values, which only grows).
"""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.model import Binding

__all__ = ["FUNCTION_TYPES", "BranchJoin", "function_of", "own_target"]

FUNCTION_TYPES = frozenset({"function_declaration", "function_expression", "function", "arrow_function",
                            "method_definition", "generator_function_declaration", "generator_function",
                            "class_static_block"})
"""Node types with their own local names (ECMA-262 10.2 "ECMAScript Function Objects")."""
_PATTERN_NAMES = frozenset({"identifier", "shorthand_property_identifier_pattern"})


def function_of(node: Node) -> Node | None:
    """The innermost function around ``node`` (:data:`FUNCTION_TYPES`), or the program."""
    n = node.parent
    while n is not None and n.type not in FUNCTION_TYPES and n.type != "program":
        n = n.parent
    return n


def _pattern_names(node: Node | None, out: set[str]) -> None:
    """Add the names a declarator's or parameter's pattern binds (``a``, ``{ a, b: c }``, ``[a, ...r]``,
    ``a = 1``, ``a: T``) to ``out``; default values and type annotations are not read."""
    todo = [node] if node is not None else []
    while todo:
        n = todo.pop()
        if n.type in _PATTERN_NAMES:
            out.add(n.text.decode("utf-8", "replace") if n.text is not None else "")
        elif n.type in ("assignment_pattern", "object_assignment_pattern"):
            left = n.child_by_field_name("left")
            if left is not None:
                todo.append(left)
        elif n.type in ("required_parameter", "optional_parameter"):
            pattern = n.child_by_field_name("pattern")
            if pattern is not None:
                todo.append(pattern)
        elif n.type == "pair_pattern":
            value = n.child_by_field_name("value")
            if value is not None:
                todo.append(value)
        elif n.type in ("object_pattern", "array_pattern", "rest_pattern", "formal_parameters"):
            todo.extend(n.named_children)


def _local_names(fn: Node) -> set[str]:
    """The names ``fn`` (a function or the program) declares itself: its parameters and the declarators
    in its body outside nested functions and classes."""
    names: set[str] = set()
    _pattern_names(fn.child_by_field_name("parameters") or fn.child_by_field_name("parameter"), names)
    todo = [c for c in fn.named_children if c.type not in ("formal_parameters", "identifier")] \
        if fn.type != "program" else list(fn.named_children)
    while todo:
        n = todo.pop()
        if n.type in FUNCTION_TYPES or n.type in ("class_declaration", "class", "abstract_class_declaration"):
            continue
        if n.type == "variable_declarator":
            _pattern_names(n.child_by_field_name("name"), names)
            value = n.child_by_field_name("value")
            if value is not None:
                todo.append(value)
            continue
        todo.extend(n.named_children)
    return names


def own_target(name: str, target: str) -> bool:
    """Whether a bound ``target`` text reads ``name`` itself (``node = node.parent``, ``x = x || d``,
    ``it = it.next()``): such a binding says nothing new of the name and is left out."""
    return target == name or target.startswith((name + ".", name + "(", name + "["))


def _branches(top: Node) -> tuple[list[Node], bool]:
    """The branches of the ``if`` chain starting at ``top`` (each ``consequence``, the final ``else``'s
    statement) and whether it ends with an ``else``."""
    out: list[Node] = []
    n: Node | None = top
    while n is not None:
        cons = n.child_by_field_name("consequence")
        if cons is not None:
            out.append(cons)
        alt = n.child_by_field_name("alternative")
        body = next((c for c in alt.named_children if c.type != "comment"), None) if alt is not None else None
        if body is None:
            return out, False
        if body.type != "if_statement":
            out.append(body)
            return out, True
        n = body
    return out, False


_EXITS = frozenset({"return_statement", "throw_statement", "break_statement", "continue_statement"})
"""Statements after which a branch's values never reach the code after its ``if``."""


def _exits(branch: Node) -> bool:
    """Whether ``branch`` (a statement or a block) ends by leaving: ``return``, ``throw``, ``break``,
    ``continue`` as its last statement."""
    if branch.type == "statement_block":
        last = next((c for c in reversed(branch.named_children) if c.type != "comment"), None)
        return last is not None and last.type in _EXITS
    return branch.type in _EXITS


LOOP_TYPES = frozenset({"for_statement", "for_in_statement", "while_statement", "do_statement"})
"""Loops (``for``, ``for ... in`` / ``of``, ``while``, ``do ... while``): after one, a name holds the value
written before it or one its body leaves."""


class _Enclosing:
    """For a node, the innermost function around it (:func:`function_of`) and the statements after which
    a name assigned in it may hold one of several values (:func:`_is_top`: the first ``if`` of every ``if``
    chain, every ``switch`` and every loop) around it within that function, innermost first, remembered
    per ancestor: each ancestor's parent is asked once per file. ``Node.parent`` walks down from the root (tree-sitter's
    ``ts_node_parent``), so walking up from every assignment of an ``else if`` chain 500 long asked
    each of ~1,500 ancestors' parents once per branch: 64 s for a 37 KB file."""

    def __init__(self) -> None:
        # node id -> (its function, the tops above it as a cons list (top, rest) or None, whether the
        # node is itself a top)
        self._memo: dict[int, tuple[Node | None, tuple | None, bool]] = {}

    @staticmethod
    def _below(n: Node, info: tuple[Node | None, tuple | None, bool]) -> tuple[Node | None, tuple | None]:
        """The function and chain tops of a child of ``n``, given ``n``'s ``info``."""
        if n.type in FUNCTION_TYPES or n.type == "program":
            return n, None
        fn, tops, top = info
        return fn, ((n, tops) if top else tops)

    def _info(self, node: Node) -> tuple[Node | None, tuple | None, bool]:
        stack: list[tuple[Node, bool]] = []  # nodes whose parent was asked here, from ``node`` up
        n, above = node, (None, None)
        while (hit := self._memo.get(n.id)) is None:
            p = n.parent
            stack.append((n, _is_top(n, p)))
            if p is None or p.type in FUNCTION_TYPES or p.type == "program":
                above = (p, None)
                break
            n = p
        else:
            if not stack:
                return hit
            above = self._below(n, hit)
        for m, top in reversed(stack):
            info = self._memo[m.id] = (*above, top)
            above = self._below(m, info)
        return self._memo[node.id]

    def function(self, node: Node) -> Node | None:
        """:func:`function_of` ``node``."""
        return self._info(node)[0]

    def join_tops(self, node: Node) -> list[Node]:
        """The statements around ``node`` within its function after which a name assigned at ``node`` may
        hold one of several values (:func:`_is_top`), innermost first."""
        out: list[Node] = []
        tops = self._info(node)[1]
        while tops is not None:
            out.append(tops[0])
            tops = tops[1]
        return out


def _is_top(n: Node, parent: Node | None) -> bool:
    """Whether ``n`` (whose parent is ``parent``) is a statement a name assigned inside it is joined
    after: the first ``if`` of an ``if`` chain (not an ``else if``), a ``switch`` or a loop."""
    if n.type == "if_statement":
        return not (parent is not None and parent.type == "else_clause")
    return n.type == "switch_statement" or n.type in LOOP_TYPES


def _last_statement(case: Node) -> Node | None:
    """The last statement of a ``switch`` case (``case v: ...`` / ``default: ...``), or ``None``."""
    body = [c for c in case.children_by_field_name("body") if c.type != "comment"]
    return body[-1] if body else None


def _case_spans(switch: Node) -> tuple[list[tuple[Node, Node | None]], bool]:
    """The paths through a ``switch``'s cases: for each case, it and the case its run ends in (falling
    through cases without ``break``; the last case ends the run), or ``None`` when the run leaves by
    ``return`` / ``throw`` / ``continue``; and whether the ``switch`` has a ``default`` (ECMA-262 14.12.4:
    without one, no case may run and the value before stays)."""
    body = switch.child_by_field_name("body")
    cases = [c for c in body.named_children if c.type in ("switch_case", "switch_default")] if body is not None else []
    out: list[tuple[Node, Node | None]] = []
    for i, case in enumerate(cases):
        end: Node | None = cases[-1]
        for later in cases[i:]:
            last = _last_statement(later)
            if last is not None and last.type in _EXITS:
                end = later if last.type == "break_statement" else None
                break
        out.append((case, end))
    return out, any(c.type == "switch_default" for c in cases)


def _loop_leaves(loop: Node) -> list[Node]:
    """The unlabelled ``break`` and ``continue`` statements of ``loop``'s body that leave or restart this
    loop (not one of a nested loop, nor a ``break`` of a nested ``switch``, nor in a nested function)."""
    body = loop.child_by_field_name("body")
    out: list[Node] = []
    todo = [body] if body is not None else []
    while todo:
        n = todo.pop()
        if n.type in ("break_statement", "continue_statement"):
            if n.child_by_field_name("label") is None:
                out.append(n)
            continue
        for c in n.named_children:
            if c.type in FUNCTION_TYPES or c.type in LOOP_TYPES or c.type in ("class_declaration", "class"):
                continue
            if c.type == "switch_statement":  # its `continue`s are this loop's, its `break`s its own
                todo.extend(d for d in _switch_continues(c))
                continue
            todo.append(c)
    return out


def _switch_continues(switch: Node) -> list[Node]:
    """The ``continue`` statements inside ``switch`` (not in a nested loop or function)."""
    out: list[Node] = []
    todo = list(switch.named_children)
    while todo:
        n = todo.pop()
        if n.type == "continue_statement":
            out.append(n)
        elif n.type not in FUNCTION_TYPES and n.type not in LOOP_TYPES:
            todo.extend(n.named_children)
    return out


def _lines(node: Node) -> tuple[int, int]:
    return node.start_point[0] + 1, node.end_point[0] + 1


def _last_group(bindings: list[Binding], lo: int, hi: int) -> list[Binding]:
    """The bindings of ``bindings`` written on the last line within ``lo`` .. ``hi`` holding any."""
    inside = [b for b in bindings if lo <= b.line <= hi]
    if not inside:
        return []
    last = max(b.line for b in inside)
    return [b for b in inside if b.line == last]


def _values(top: Node, mine: list[Binding], before: list[Binding]) -> list[Binding]:
    """The bindings ``mine`` (one name's, in one scope) may leave after the statement ``top`` (an ``if``
    chain, a ``switch`` or a loop; see the module docstring), ``before`` being the last ones before it."""
    if top.type == "switch_statement":
        spans, closed = _case_spans(top)
        values = [] if closed else list(before)
        for case, end in spans:
            if end is not None:
                values.extend(_last_group(mine, _lines(case)[0], _lines(end)[1]) or before)
        return values
    if top.type in LOOP_TYPES:
        body = top.child_by_field_name("body")
        start = _lines(top)[0]
        inside = _last_group(mine, *_lines(body)) if body is not None else []
        values = [] if top.type == "do_statement" and inside else list(before)  # a `do` body runs once
        values.extend(inside)
        for leave in _loop_leaves(top):  # `if (ok) { h = f; break; }`: the value written before it
            values.extend(_last_group(mine, start, _lines(leave)[0]))
        return values
    branches, closed = _branches(top)
    values = [] if closed else list(before)
    for branch in branches:
        if not _exits(branch):
            values.extend(_last_group(mine, *_lines(branch)) or before)
    return values


class BranchJoin:
    """Joins the values a name may hold after each ``if`` chain, ``switch`` and loop assigning it (see the
    module docstring): on the statement's last line, the values each path through it leaves."""

    def __init__(self) -> None:
        self._chains: dict[tuple[int, str | None, str], Node] = {}
        self._enclosing = _Enclosing()
        self._declared: dict[int, set[str]] = {}  # function node id -> the names it declares

    def declared_here(self, name: Node) -> bool:
        """Whether the identifier ``name`` (the left side of an assignment) is declared by the function
        the assignment is written in (see the module docstring)."""
        fn = self._enclosing.function(name)
        if fn is None:
            return False
        names = self._declared.get(fn.id)
        if names is None:
            names = self._declared[fn.id] = _local_names(fn)
        return (name.text or b"").decode("utf-8", "replace") in names

    def add(self, assign: Node, made: list[Binding]) -> None:
        """Record the ``if`` chains, ``switch`` statements and loops around the assignment expression
        ``assign``, whose bindings are ``made``."""
        if made:
            for top in self._enclosing.join_tops(assign):
                self._chains.setdefault((top.id, made[0].scope, made[0].name), top)

    def joined(self, bindings: list[Binding]) -> list[Binding]:
        """The bindings to write on each recorded statement's last line, given the file's ``bindings``;
        inner statements first, each join seen by the statements around it; none repeating a value
        already written on that line."""
        by_name: dict[tuple[str | None, str], list[Binding]] = defaultdict(list)
        for b in bindings:
            by_name[(b.scope, b.name)].append(b)
        out: list[Binding] = []
        for (_, scope, name), top in sorted(self._chains.items(), key=lambda kv: kv[1].end_byte - kv[1].start_byte):
            mine = by_name[(scope, name)]
            start, end = _lines(top)
            before = _last_group([b for b in mine if b.line < start], 0, start)
            values = _values(top, mine, before)
            _write_at(values, end, mine, out)
            if top.type in LOOP_TYPES and start < end and any(start < b.line < end for b in mine):
                # the loop's head: a later iteration starts from what the body left (the back edge)
                _write_at(values, start, mine, out)
        return out


def _write_at(values: list[Binding], line: int, mine: list[Binding], out: list[Binding]) -> None:
    """Each of ``values`` again at ``line`` (a join's end, a loop's head), unless ``mine`` (the name's
    bindings so far) already holds that ``(how, type)`` there; added to both ``mine`` and ``out``."""
    have = {(b.how, b.type) for b in mine if b.line == line}
    for b in values:
        if (b.how, b.type) not in have:
            have.add((b.how, b.type))
            j = replace(b, line=line)
            out.append(j)
            mine.append(j)
