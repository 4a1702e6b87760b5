"""The parameter a Python function returns as it was handed: ``def register(f): REGISTRY.append(f);
return f``. A call of such a function gives the argument bound to that parameter
(:attr:`indexer.model.Definition.returned_param`), so ``register(handler)()`` calls ``handler`` and
``v = check(obj); v.save()`` reads ``obj``'s class.

Kept only when the function returns that one parameter on every ``return`` with a value (no call,
literal, other name or operator is returned), it is no generator, the parameter is not variadic
(``*args`` is a tuple, ``**kw`` a dict) and the body never binds that name again: an assignment,
augmented assignment, ``for`` / comprehension target, walrus, ``with ... as`` / ``except ... as``,
``del``, ``global`` / ``nonlocal``, an import or a ``match`` pattern naming it anywhere in the
function's own body (nested definitions and lambdas are their own scopes, not read). A store into it
(``f.calls = 0``, ``f[k] = v``) keeps the object it names and does not count.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.model import Definition

__all__ = ["returned_parameter"]

_TARGET_FIELDS = {"assignment": "left", "augmented_assignment": "left", "for_statement": "left",
                  "for_in_clause": "left", "named_expression": "name"}
"""Nodes that bind the names of one of their fields, and that field."""
_BINDS = frozenset({"as_pattern_target", "global_statement", "nonlocal_statement", "delete_statement",
                    "import_statement", "import_from_statement", "aliased_import", "case_pattern",
                    "keyword_pattern", "splat_pattern"})
"""Nodes any name under which (through :data:`_PATTERNS` only) is bound by the statement."""
_PATTERNS = frozenset({"pattern_list", "tuple_pattern", "list_pattern", "list_splat_pattern", "tuple", "list",
                       "expression_list", "parenthesized_expression", "dotted_name", "pattern"})
"""Nodes a bound name may be nested in below the node that binds it (``a, (b, c) = ...``)."""
_OWN_SCOPES = frozenset({"function_definition", "class_definition", "lambda"})


def returned_parameter(definition: Definition, names: list[str], body: Node) -> str | None:
    """The name of ``definition``'s parameter every ``return`` of its body returns, given ``names``,
    the names its ``return`` statements hand back uncalled (one per return, conditional branches each;
    the caller has checked that nothing else is returned and that it is no generator), and ``body``,
    its body's node; ``None`` when they are not all one non-variadic parameter or the body binds
    that name again (see the module docstring)."""
    if not names or any(n != names[0] for n in names):
        return None
    name = names[0]
    if not any(p.name == name and p.variadic is None for p in definition.params):
        return None
    return None if _rebound(body, name.encode()) else name


def _rebound(body: Node, name: bytes) -> bool:
    """Whether an identifier ``name`` is bound anywhere in ``body`` outside nested scopes."""
    stack = list(body.children)
    while stack:
        node = stack.pop()
        if node.type == "identifier":
            if node.text == name and _binds(node):
                return True
        elif node.type not in _OWN_SCOPES:
            stack.extend(node.children)
    return False


def _binds(node: Node) -> bool:
    """Whether the identifier ``node`` is a name the enclosing statement binds."""
    while True:
        parent = node.parent
        if parent is None:
            return False
        kind = parent.type
        field = _TARGET_FIELDS.get(kind)
        if field is not None:
            target = parent.child_by_field_name(field)
            return target is not None and target.start_byte == node.start_byte and target.end_byte == node.end_byte
        if kind in _BINDS:
            return True
        if kind not in _PATTERNS:
            return False
        node = parent
