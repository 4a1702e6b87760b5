"""What the variable part of a ``getattr`` name pattern can be, where the code says it
(:mod:`indexer.languages.python.getattr_calls`): ``getattr(router, "add_" + method.lower())`` under
``if method in ("GET", "POST"):`` names only ``add_get`` / ``add_post``, never the class's other
``add_*`` methods (aiohttp's ``RouteDef.register``: ``add_route`` / ``add_static`` / ``add_view`` are not
reached through it).

The variable part's values are known from the code enclosing the lookup, inside its function:

- a ``for`` loop binding it over a literal tuple / list / set of strings (``for kind in ("css", "js"):``),
  or over a name bound to one in the file (a module constant, a class attribute read as ``self.X`` /
  ``cls.X`` / ``Class.X``), or over ``http.HTTPMethod`` (the standard library's enumeration of the
  methods of RFC 9110 section 9 and PATCH, RFC 5789);
- an ``if`` / ``elif`` whose test (or one operand of its ``and``) is ``part in <such a collection>``,
  ``part == "lit"`` or an ``or`` of such equalities, when the lookup is in that clause's suite;
- ``.lower()`` / ``.upper()`` / ``.casefold()`` applied to the part maps those values.

A collection named by a dotted name this file does not bind (``hdrs.METH_ALL``, a constant of another
module) is left to the resolver as a reference (:data:`REF`): the resolver reads that module's
:data:`~indexer.model.STRINGS` bindings (:func:`string_constants`). Nothing of the above, and the part
reads an attribute (``"as_" + connection.vendor``): the strings the repository's classes set that
attribute to in their bodies (:data:`ATTR`; Django's backends' ``vendor = "sqlite"`` ...), a
field-based reading (one value set per attribute name, as Feldthaus et al., "Efficient construction
of approximate call graphs for JavaScript IDE services", ICSE 2013, take properties), which the
resolver applies only when one of the methods the pattern matches is named by such a value. Values that are no identifier characters
(``"*"``) name no method and are dropped.
"""

from __future__ import annotations

import re
from collections.abc import Callable

from tree_sitter import Node

from indexer.model import STRINGS, Binding

__all__ = ["ATTR", "HTTP_METHODS", "REF", "apply_cases", "part_values", "string_constants"]

REF = "="
"""First character of a reference alternative: ``<=hdrs.METH_ALL:lower>``."""
ATTR = "."
"""First character of an attribute alternative: ``<.vendor>``, the strings the repository's classes
set the attribute read to (``vendor = "mysql"``, field-based: every class's ``vendor`` is one field)."""
HTTP_METHODS = ("CONNECT", "DELETE", "GET", "HEAD", "OPTIONS", "PATCH", "POST", "PUT", "TRACE")
"""``http.HTTPMethod``'s members (RFC 9110 section 9, RFC 5789 for PATCH)."""
_KNOWN = {"http.HTTPMethod": HTTP_METHODS, "HTTPMethod": HTTP_METHODS}
_CASES = {"lower": str.lower, "upper": str.upper, "casefold": str.casefold}
_COLLECTIONS = frozenset({"tuple", "list", "set"})
_WORD = re.compile(r"\w+")

Text = Callable[[Node], str]


def _string(node: Node, text: Text) -> str | None:
    """The value of a plain string literal (no interpolation, no bytes), else ``None``."""
    if node.type != "string" or not node.children or "b" in text(node.children[0]).lower():
        return None
    if any(c.type == "interpolation" for c in node.children):
        return None
    return "".join(text(c) for c in node.children if c.type == "string_content")


def _assignment(st: Node) -> Node | None:
    """The assignment the statement ``st`` is (bare, or wrapped in an expression statement), or ``None``."""
    if st.type == "expression_statement" and st.named_child_count == 1:
        st = st.named_children[0]
    return st if st.type == "assignment" else None


def _assigned(scope: Node, name: str) -> Node | None:
    """The right side of the last ``name = ...`` (annotated or not) written directly in ``scope``'s
    body (a module or a class's block), or ``None``."""
    found = None
    for st in scope.named_children:
        a = _assignment(st)
        if a is not None:
            left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
            if left is not None and right is not None and left.type == "identifier" and left.text.decode() == name:
                found = right
    return found


def _strings(node: Node, text: Text, root: Node, cls: Node | None, depth: int = 0) -> list[str] | str | None:
    """The strings ``node`` holds (a literal, a collection of literals or of names bound to literals
    in the file, ``frozenset((...))``); the text of a dotted name the file does not bind (a
    reference for the resolver); ``None`` when unknown."""
    if depth > 3:
        return None
    s = _string(node, text)
    if s is not None:
        return [s]
    kind = node.type
    if kind in _COLLECTIONS:
        out: list[str] = []
        for c in node.named_children:
            if c.type == "comment":
                continue
            v = _strings(c, text, root, cls, depth + 1)
            if not isinstance(v, list):
                return None
            out.extend(v)
        return out
    if kind == "call":
        fn, args = node.child_by_field_name("function"), node.child_by_field_name("arguments")
        if fn is not None and args is not None and text(fn) in ("frozenset", "set", "tuple", "list") \
                and args.named_child_count == 1:
            v = _strings(args.named_children[0], text, root, cls, depth + 1)
            return v if isinstance(v, list) else None
        return None
    t = text(node)
    if t in _KNOWN:
        return list(_KNOWN[t])
    if kind == "identifier":
        right = _assigned(root, t)
        if right is None:  # imported (`from hdrs import METH_ALL`): the resolver reads it
            return t if depth == 0 else None
        return _strings(right, text, root, cls, depth + 1)
    if kind == "attribute":
        obj, attr = node.child_by_field_name("object"), node.child_by_field_name("attribute")
        if obj is None or attr is None:
            return None
        if cls is not None and obj.type == "identifier" and text(obj) in ("self", "cls", text(cls.child_by_field_name("name"))):
            body = cls.child_by_field_name("body")
            right = _assigned(body, text(attr)) if body is not None else None
            return _strings(right, text, root, cls, depth + 1) if right is not None else None
        if obj.type in ("identifier", "attribute") and depth == 0:
            return t
    return None


def _unwrap(part: Node, text: Text) -> tuple[Node, list[str]]:
    """``part`` without trailing ``.lower()`` / ``.upper()`` / ``.casefold()`` calls, and those calls
    innermost first."""
    cases: list[str] = []
    while part.type == "call":
        fn, args = part.child_by_field_name("function"), part.child_by_field_name("arguments")
        if fn is None or fn.type != "attribute" or args is None or args.named_child_count:
            break
        name = text(fn.child_by_field_name("attribute"))
        if name not in _CASES:
            break
        cases.insert(0, name)
        part = fn.child_by_field_name("object")
    return part, cases


def _guard(test: Node, key: str, text: Text, root: Node, cls: Node | None) -> list[str] | str | None:
    """What ``test`` (an ``if`` condition) says ``key``'s value is when true: ``key in C``,
    ``key == "a"``, an ``or`` of equalities, one operand of an ``and``. The ``and`` / ``or`` tree is
    read with a stack, left operand first (``k == "a" or ... or k == "z"`` 2,000 long nests 2,000 deep
    on the left: recursion overflowed and lost the file; brk52)."""
    todo: list[Node | str] = [test]
    values: list[list[str] | str | None] = []
    while todo:
        item = todo.pop()
        if isinstance(item, str):  # both operands read: combine them
            b, a = values.pop(), values.pop()
            if item == "and":
                values.append(a if a is not None else b)
            elif isinstance(a, list) and isinstance(b, list):
                a.extend(b)  # the lists are this reading's own
                values.append(a)
            else:
                values.append(None)
            continue
        node = item
        while node.type == "parenthesized_expression" and node.named_child_count == 1:
            node = node.named_children[0]
        if node.type == "boolean_operator":
            op = node.child_by_field_name("operator")
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if op is None or left is None or right is None or op.type not in ("and", "or"):
                values.append(None)
            else:
                todo.extend((op.type, right, left))
            continue
        values.append(_compared(node, key, text, root, cls))
    return values[0] if values else None


def _compared(test: Node, key: str, text: Text, root: Node, cls: Node | None) -> list[str] | str | None:
    """What one comparison says ``key`` is: ``key in C`` (:func:`_strings` of ``C``), ``key == "a"``."""
    if test.type == "comparison_operator" and test.named_child_count == 2:
        ops = [c.type for c in test.children if not c.is_named]
        left, right = test.named_children
        if ops == ["in"] and text(left) == key:
            return _strings(right, text, root, cls)
        if ops == ["=="]:
            other = right if text(left) == key else left if text(right) == key else None
            s = _string(other, text) if other is not None else None
            return [s] if s is not None else None
    return None


def part_values(part: Node, at: Node, text: Text, root: Node) -> list[str] | str | None:
    """The values the variable ``part`` of a name built at ``at`` (the ``getattr`` call) may take
    (module docstring), each through the case calls written on it; a reference ``=<dotted>[:case...]``
    when a guard names a collection of another module; ``None`` when the code does not say."""
    inner, cases = _unwrap(part, text)
    key = text(inner)
    cls = None
    found: list[str] | str | None = None
    child, node = at, at.parent
    while node is not None and found is None:
        kind = node.type
        if kind == "function_definition":
            c = node.parent
            while c is not None and c.type not in ("class_definition", "function_definition"):
                c = c.parent
            cls = c if c is not None and c.type == "class_definition" else None
            break
        node, child = node.parent, node
    node, child = at.parent, at
    while node is not None and found is None:
        kind = node.type
        if kind in ("function_definition", "class_definition", "lambda"):
            break
        if kind in ("for_statement",) and child == node.child_by_field_name("body"):
            left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
            if left is not None and right is not None and text(left) == key:
                found = _strings(right, text, root, cls)
                if found is None:
                    return None
        elif kind in ("if_statement", "elif_clause") and child == node.child_by_field_name("consequence"):
            test = node.child_by_field_name("condition")
            found = _guard(test, key, text, root, cls) if test is not None else None
        node, child = node.parent, node
    if found is None:  # `"as_" + connection.vendor`: the strings classes set `vendor` to, if any
        attr = inner.child_by_field_name("attribute") if inner.type == "attribute" else None
        return ATTR + text(attr) + "".join(":" + c for c in cases) if attr is not None else None
    if isinstance(found, str):
        return REF + found + "".join(":" + c for c in cases)
    return apply_cases(found, cases)


def apply_cases(values: list[str], cases: list[str]) -> list[str]:
    """``values`` through the case calls ``cases`` (``lower`` ...), innermost first, without those
    that are no identifier characters, each once, in order (a set of those kept: a ``for`` over a
    100,000-string tuple was quadratic, brk52)."""
    out: dict[str, None] = {}
    for v in values:
        for c in cases:
            v = _CASES[c](v) if c in _CASES else v
        if v not in out and _WORD.fullmatch(v):
            out[v] = None
    return list(out)


def string_constants(root: Node, text: Text) -> list[Binding]:
    """:data:`~indexer.model.STRINGS` bindings of the module-level names bound to a collection of
    strings in ``root`` (``METH_ALL = {METH_GET, ...}`` with ``METH_GET = "GET"``): module scope
    (``None``, which other files read), ``type`` the strings joined by ``|``, each on its line."""
    out: list[Binding] = []
    for st in root.named_children:
        a = _assignment(st)
        if a is None:
            continue
        left, right = a.child_by_field_name("left"), a.child_by_field_name("right")
        if left is None or right is None or left.type != "identifier" or right.type not in (*_COLLECTIONS, "call"):
            continue
        v = _strings(right, text, root, None, 1)
        if isinstance(v, list) and v and all("|" not in s for s in v):
            out.append(Binding(None, text(left), "|".join(v), STRINGS, a.start_point[0] + 1))
    return out
