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

Branches: when every branch of an ``if`` / ``else if`` / ``else`` chain assigns the name at its top level,
after the chain the name holds one of those values, which one the analysis cannot tell (the join of a
data-flow analysis over the branches, as for ``c ? a : b``). Each branch's bindings are then written again
on the chain's last line, so that the name has one group of bindings there and a call after the chain
reads their union (:mod:`indexer.resolve.either`); a call inside a branch still reads its own branch's.
A chain without a final ``else`` may leave the earlier value, so it makes no group (the branch's binding,
written last, decides as in straight-line code).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.model import Binding

__all__ = ["FUNCTION_TYPES", "BranchJoin", "declared_here", "function_of", "own_target"]

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


def declared_here(name: Node, cache: dict[int, set[str]]) -> bool:
    """Whether the identifier ``name`` (the left side of an assignment) is declared by the function the
    assignment is written in (see the module docstring); ``cache`` maps a function node's id to its
    names, filled as functions are read."""
    fn = function_of(name)
    if fn is None:
        return False
    names = cache.get(fn.id)
    if names is None:
        names = cache[fn.id] = _local_names(fn)
    return (name.text or b"").decode("utf-8", "replace") in names


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


def _branch_of(assign: Node) -> tuple[Node, Node] | None:
    """``(branch, top)`` when ``assign`` is a statement at the top level of a branch of an ``if`` chain
    (``top`` its first ``if``), else ``None``."""
    stmt = assign.parent
    if stmt is None or stmt.type != "expression_statement" or stmt.parent is None:
        return None
    branch = stmt.parent if stmt.parent.type == "statement_block" else stmt
    holder = branch.parent
    if holder is None:
        return None
    if holder.type == "else_clause":
        holder = holder.parent
    elif holder.type != "if_statement" or holder.child_by_field_name("consequence") != branch:
        return None
    top = holder
    while top is not None and top.parent is not None and top.parent.type == "else_clause" \
            and top.parent.parent is not None and top.parent.parent.type == "if_statement":
        top = top.parent.parent
    return (branch, top) if top is not None and top.type == "if_statement" else None


class BranchJoin:
    """Collects the bindings of assignments in ``if`` branches and gives, for each chain whose every
    branch assigns the name, those bindings again on the chain's last line (see the module docstring)."""

    def __init__(self) -> None:
        self._seen: dict[tuple[int, str | None, str], tuple[Node, set[int], list[Binding]]] = {}

    def add(self, assign: Node, made: list[Binding]) -> None:
        """Record ``made``, the bindings of the assignment expression ``assign``."""
        if not made:
            return
        where = _branch_of(assign)
        if where is None:
            return
        branch, top = where
        key = (top.id, made[0].scope, made[0].name)
        entry = self._seen.setdefault(key, (top, set(), []))
        entry[1].add(branch.id)
        entry[2].extend(made)

    def joined(self, line_of: Callable[[Node], int]) -> list[Binding]:
        """The bindings written again on each fully assigned chain's last line (``line_of(node)``: the
        1-based line a node ends on), without repeating one already written there."""
        out: list[Binding] = []
        for top, covered, made in self._seen.values():
            branches, closed = _branches(top)
            if not closed or any(b.id not in covered for b in branches):
                continue
            line = line_of(top)
            have: dict[tuple[str, str], int] = defaultdict(int)
            for b in made:
                if b.line == line:
                    have[(b.how, b.type)] += 1
            for b in made:
                if have[(b.how, b.type)] == 0:
                    have[(b.how, b.type)] += 1
                    out.append(replace(b, line=line))
        return out
