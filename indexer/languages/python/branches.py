"""A Python name bound in the branches of an ``if`` / ``try`` statement: after the statement it holds
the value of whichever branch ran (``if c: x = A() else: x = B()``, ``try: s = Fast() except E: s = Slow()``),
so a call through it may reach any of them (``x.run()``: ``A.run`` and ``B.run``). Python reference,
"The if statement" (exactly one suite runs, or none without ``else``) and "The try statement" (the
``try`` suite, then ``else``; or, once it raised, part of it then one ``except`` suite). This is the
join of a data-flow analysis at the statement's end (Aho, Lam, Sethi, Ullman, "Compilers", 2nd ed.,
9.2.4, reaching definitions: the definitions reaching the end of a conditional are the union of those
reaching each branch's end).

What the module writes: for each name of the statement's scope bound in one of its branches, one
binding per distinct value reaching the statement's end, all on the statement's last line, the last
branch's first: the resolver reads a group of bindings on one line as a union
(:mod:`indexer.resolve.either`, shared with ``x = a or B()``), and a single value read takes the first,
as before (the last branch's). A path reaching the end is a branch whose suite does not end in
``return`` / ``raise`` / ``continue`` / ``break``; one binding nothing keeps the name's value from
before the statement (the last binding written above it, if any). Plain names, and instance attributes
``self.x`` (bound in the class's scope; a statement of a method joins that method's bindings of it, and
the resolver takes each method's last: :mod:`indexer.resolve.either`), and only when every
binding reaching the end is ``constructed`` or ``alias`` (a declared type decides alone, as in the
union); nothing is written when the union is what the nearest binding already says. Statements are
read innermost first, so a nested statement's join is its branch's last binding, and statements in a
row in order, so the second's "no suite ran" path holds the first's join. ``if not isinstance(x, A):``
without ``else``: where no suite ran, ``x`` is an ``A`` (the test was false), written as an instance of
``A`` in place of the value from before (Django's ``if not isinstance(field, OrderBy): field =
field.asc()``, ``sql/compiler.py``).
"""

from __future__ import annotations

from bisect import bisect_left, bisect_right
from collections import defaultdict
from collections.abc import Callable

from tree_sitter import Node

from indexer.languages.base import query, run_query
from indexer.languages.python.narrowing import isinstance_test
from indexer.model import Binding

__all__ = ["JOINED_HOWS", "MAX_JOINED", "branch_joins"]

JOINED_HOWS = frozenset({"constructed", "alias"})
"""The bindings a join is written for (those :mod:`indexer.resolve.either` reads as a union)."""
MAX_JOINED = 8
"""Values written for one name at one statement (as many as the union reads)."""
_EXITS = frozenset({"return_statement", "raise_statement", "continue_statement", "break_statement"})
_SELF = "self."
"""An instance attribute's binding name prefix (``self.x``, bound in the class's scope)."""
_Path = list[tuple[int, int]]  # the line ranges of one path through the statement, in order


def _last_line(node: Node) -> int:
    """1-based line of the last character of ``node``."""
    row, col = node.end_point
    return row + 1 if col > 0 or row == node.start_point[0] else row


def _falls_through(block: Node | None) -> bool:
    """Whether the suite ``block`` may end without leaving the statement's code (its last statement is
    no ``return`` / ``raise`` / ``continue`` / ``break``)."""
    if block is None:
        return True
    last = [c for c in block.named_children if c.type != "comment"]
    return not last or last[-1].type not in _EXITS


def _paths(stmt: Node) -> tuple[list[_Path | None], int] | None:
    """The paths through ``stmt`` (an ``if`` or ``try`` statement) as line ranges, ``None`` for one
    that leaves (ends in ``return`` ...), an empty one for "no suite ran", and the line their join is
    written on; ``None`` when the statement has no two paths."""
    paths: list[_Path | None] = []
    if stmt.type == "if_statement":
        blocks = [stmt.child_by_field_name("consequence")]
        has_else = False
        for clause in stmt.children_by_field_name("alternative"):
            if clause.type == "elif_clause":
                blocks.append(clause.child_by_field_name("consequence"))
            elif clause.type == "else_clause":
                blocks.append(clause.child_by_field_name("body"))
                has_else = True
        for b in blocks:
            if b is not None:
                paths.append([(b.start_point[0] + 1, _last_line(b))] if _falls_through(b) else None)
        if not has_else:
            paths.append([])
        return (paths, _last_line(stmt)) if len(paths) >= 2 else None
    body = stmt.child_by_field_name("body")
    excepts = [c for c in stmt.named_children if c.type in ("except_clause", "except_group_clause")]
    if body is None or not excepts:
        return None
    orelse = next((c for c in stmt.named_children if c.type == "else_clause"), None)
    else_body = orelse.child_by_field_name("body") if orelse is not None else None
    normal: _Path = [(body.start_point[0] + 1, _last_line(body))]
    if else_body is not None:
        normal.append((else_body.start_point[0] + 1, _last_line(else_body)))
    paths.append(normal if _falls_through(else_body if else_body is not None else body) else None)
    for e in excepts:
        block = next((c for c in e.named_children if c.type == "block"), None)
        if block is not None:
            paths.append([(block.start_point[0] + 1, _last_line(block))] if _falls_through(block) else None)
    end = max(_last_line(c) for c in (*excepts, *([orelse] if orelse is not None else [])))
    return paths, end


def _group_before(lines: list[int], bindings: list[Binding], lo: int, hi: int) -> list[Binding]:
    """The bindings on the last line in ``[lo, hi]`` of ``bindings`` (sorted by line, ``lines`` theirs)."""
    i = bisect_right(lines, hi)
    if i == 0 or lines[i - 1] < lo:
        return []
    last = lines[i - 1]
    return bindings[bisect_left(lines, last):i]


def branch_joins(root: Node, bindings: list[Binding], scope_at: Callable[[int], str | None]) -> list[Binding]:
    """The join bindings of every ``if`` / ``try`` statement under ``root`` (module docstring), given
    the file's ``bindings`` so far and ``scope_at`` (a byte offset -> the qualname of the scope whose
    body holds it, ``None`` for the module, as the bindings' ``scope``). Returns the new bindings; the
    list given is not changed."""
    stmts = [caps.get("branch.if", caps.get("branch.try"))[0]
             for _, caps in run_query(query("python", "python/queries", "branches"), root)]
    if not stmts or not bindings:
        return []
    by_name: dict[tuple[str | None, str], list[Binding]] = defaultdict(list)
    for b in bindings:
        if "." not in b.name or (b.name.startswith(_SELF) and "." not in b.name[len(_SELF):]):
            by_name[(b.scope, b.name)].append(b)
    for group in by_name.values():
        group.sort(key=lambda b: b.line)
    lines_of = {key: [b.line for b in group] for key, group in by_name.items()}
    # Per scope, every binding's line and name, sorted by line: a statement reads the names bound
    # within its lines only (reading every name of the scope per statement was quadratic: 4,000
    # module-level names each joined by its own `if` took 67 s).
    pairs: dict[str | None, list[tuple[int, str]]] = defaultdict(list)
    for (scope, name), lines in lines_of.items():
        pairs[scope].extend((line, name) for line in lines)
    at_lines = {scope: ([line for line, _ in sorted(ps)], [name for _, name in sorted(ps)]) for scope, ps in pairs.items()}
    out: list[Binding] = []
    for stmt in sorted(stmts, key=lambda n: (n.end_byte, -n.start_byte)):  # innermost first, then in order
        found = _paths(stmt)
        if found is None:
            continue
        paths, end = found
        start = stmt.start_point[0] + 1
        scope = scope_at(stmt.start_byte)
        owner = scope.rpartition(".")[0] if scope else None  # a method's class: where `self.x` is bound
        fn = _function(stmt) if owner else None
        names = _bound_within(at_lines, scope, start, end)
        if fn is not None:
            names += [(o, n) for o, n in _bound_within(at_lines, owner, start, end) if n.startswith(_SELF)]
        guard = _negated_guard(stmt) if names else None
        for bound_in, name in names:
            master, m_lines = by_name[(bound_in, name)], lines_of[(bound_in, name)]
            if bound_in == scope:
                group, lines = master, m_lines
            else:  # `self.x` of the method's class: this method's bindings of it
                lo, hi = bisect_right(m_lines, fn.start_point[0]), bisect_right(m_lines, fn.end_point[0] + 1)
                group, lines = master[lo:hi], m_lines[lo:hi]
            joined = _join(group, lines, paths, start, guard[1] if guard is not None and guard[0] == name else None)
            if joined is None:
                continue
            nearest = {(b.type, b.how) for b in _group_before(lines, group, 0, end)}
            if {(t, h) for t, h in joined} == nearest:
                continue
            there = {(b.type, b.how) for b in group if b.line == end}
            new = [Binding(bound_in, name, t, h, end) for t, h in joined[:MAX_JOINED] if (t, h) not in there]
            for b in new:
                i = bisect_right(m_lines, b.line)
                m_lines.insert(i, b.line)
                master.insert(i, b)
                s_lines, s_names = at_lines[bound_in]
                j = bisect_right(s_lines, b.line)
                s_lines.insert(j, b.line)
                s_names.insert(j, name)
            out.extend(new)
    return out


def _bound_within(at_lines: dict[str | None, tuple[list[int], list[str]]], scope: str | None,
                  start: int, end: int) -> list[tuple[str | None, str]]:
    """``(scope, name)`` of each name bound in ``scope`` on a line in ``[start, end]``, by name;
    ``at_lines``: per scope, its bindings' lines (sorted) and names."""
    found = at_lines.get(scope)
    if found is None:
        return []
    lines, names = found
    return [(scope, n) for n in sorted(set(names[bisect_left(lines, start):bisect_right(lines, end)]))]


def _function(node: Node) -> Node | None:
    """The function definition whose body holds ``node`` (the innermost), or ``None``."""
    n = node.parent
    while n is not None and n.type != "function_definition":
        n = n.parent
    return n


def _negated_guard(stmt: Node) -> tuple[str, tuple[str, ...]] | None:
    """``(name, class texts)`` when ``stmt`` is ``if not isinstance(name, Class):`` (no ``else``; a
    tuple of classes, ``type(name) is not Class``): where no suite ran, the test was false, so ``name``
    is one of the classes."""
    test = stmt.child_by_field_name("condition") if stmt.type == "if_statement" else None
    if test is None or any(c.type == "else_clause" for c in stmt.children_by_field_name("alternative")):
        return None
    found = isinstance_test(test, lambda n: n.text.decode("utf-8", "replace"))
    return (found[0], found[1]) if found is not None and found[2] else None


def _join(group: list[Binding], lines: list[int], paths: list[_Path | None], start: int,
          narrowed: tuple[str, ...] | None = None) -> list[tuple[str, str]] | None:
    """The distinct ``(type, how)`` values reaching the statement's end, last path first; ``None`` when
    one is not ``constructed`` / ``alias`` or none is known. ``narrowed``: the class the name is where
    no suite ran (``if not isinstance(x, A): x = A(x)``; several for a tuple), written as an instance
    of each (``constructed``) in place of the value from before."""
    before = _group_before(lines, group, 0, start - 1)
    values: list[tuple[str, str]] = []
    for path in reversed(paths):
        if path is None:
            continue
        if not path and narrowed is not None:
            values.extend((c, "constructed") for c in narrowed if (c, "constructed") not in values)
            continue
        reached: list[Binding] = []
        for lo, hi in reversed(path):
            reached = _group_before(lines, group, lo, hi)
            if reached:
                break
        for b in reached or before:
            if b.how not in JOINED_HOWS:
                return None
            if (b.type, b.how) not in values:
                values.append((b.type, b.how))
    return values or None
