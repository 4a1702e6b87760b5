"""``getattr(self, "render_" + name)()``: a method looked up by a name built at run time from literal
parts and a value. Python's ``getattr(o, n)`` is ``o.<n>`` (Python reference, built-in functions), so
the call may run any method of ``o`` whose name has those literal parts, in that order: the pattern
``render_*`` (``*`` any text). Real code: Django's ``Media.render`` (``getattr(self, "render_" + name)()``,
``forms/widgets.py``), ``ast.NodeVisitor``-style visitors (``getattr(self, "visit_" + cls)``), docutils'
``"visit_" + node.tagname``, click's ``f"on_{kind}"`` handlers.

The name may be written as ``"a_" + x`` / ``x + "_b"`` (any ``+`` of string literals and other
expressions), an f-string ``f"on_{kind}"``, ``"on_%s" % kind`` or ``"on_{}".format(kind)``; a literal
name alone (``getattr(self, "save")()``) is that name. One call site (:class:`~indexer.model.CallSite`,
``via="pattern"``, ``name`` the pattern, ``receiver`` the object's text) is written where the lookup's
result is called, ``getattr(...)(x)``, or kept in a local (``h = getattr(self, "on_" + k, None)``,
arity unknown: the local is called later, as a visitor does); the resolver
(:mod:`indexer.resolve.name_patterns`) binds it to the methods matching it, ``inferred``. A name with no
literal part (``getattr(self, name)``) binds nothing, nor does a pattern whose literal parts are one
character (``"_" + name``: every private name).
"""

from __future__ import annotations

import re

from tree_sitter import Node

from indexer.languages.base import query, run_query
from indexer.languages.python.name_values import part_values
from indexer.model import CallSite

__all__ = ["MIN_LITERAL", "WILD", "getattr_calls", "keyword_spread", "name_pattern"]

WILD = "*"
"""The wildcard of a pattern: any text (an identifier's characters)."""
MIN_LITERAL = 2
"""Fewest literal characters a pattern keeps (``"_" + name`` is every private name: nothing bound)."""
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[sdrifxXoeEgGc]")
_BRACES = re.compile(r"\{[^{}]*\}")
_PATTERN = re.compile(r"\w*(?:\*\w*)*")


def _template(node: Node, text, parts: list[Node] | None = None) -> str:
    """``node`` as text with ``*`` for each part not known before run time (each such part's
    expression appended to ``parts``, when given)."""
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _template(node.named_children[0], text, parts)
    if kind == "concatenated_string":
        return "".join(_template(c, text, parts) for c in node.named_children)
    if kind == "string":
        start = node.children[0] if node.children else None
        if start is None or "b" in text(start).lower():
            if parts is not None:
                parts.append(node)
            return WILD
        dynamic, parts = parts, []
        for c in node.children:
            if c.type == "string_content":
                parts.append(text(c))
            elif c.type == "interpolation":
                parts.append(WILD)
                if dynamic is not None and c.named_children:
                    dynamic.append(c.child_by_field_name("expression") or c.named_children[0])
        return "".join(parts)
    if kind == "binary_operator":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is not None and left is not None and right is not None:
            if op.type == "+":
                return _template(left, text, parts) + _template(right, text, parts)
            if op.type == "%" and left.type == "string":
                if parts is not None:
                    parts.append(right)
                return _PERCENT.sub(WILD, _template(left, text).replace("%%", "%"))
    if kind == "call":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "attribute" and text(fn.child_by_field_name("attribute")) == "format":
            obj = fn.child_by_field_name("object")
            if obj is not None and obj.type == "string":
                args = node.child_by_field_name("arguments")
                if parts is not None and args is not None:
                    parts.extend(a for a in args.named_children if a.type != "comment")
                return _BRACES.sub(WILD, _template(obj, text))
    if parts is not None:
        parts.append(node)
    return WILD


def name_pattern(node: Node, text, at: Node | None = None, root: Node | None = None) -> str | None:
    """The pattern (``render_*``) of the name expression ``node`` (``text``: a node -> its source
    text); ``None`` when it is no identifier pattern or keeps fewer than :data:`MIN_LITERAL` literal
    characters. Given the lookup ``at`` and the module ``root``, a single variable part whose values
    the enclosing code states (:func:`~indexer.languages.python.name_values.part_values`) is written
    as their alternatives, ``add_<get|post>``, or a reference the resolver reads,
    ``add_<=hdrs.METH_ALL:lower>``; none of them an identifier: ``None``."""
    parts: list[Node] = []
    t = re.sub(r"\*+", WILD, _template(node, text, parts))
    if not _PATTERN.fullmatch(t) or len(t.replace(WILD, "")) < MIN_LITERAL or t[:1].isdigit():
        return None
    if at is None or root is None or t.count(WILD) != 1 or len(parts) != 1:
        return t
    values = part_values(parts[0], at, text, root)
    if values is None:
        return t
    if isinstance(values, list):
        if not values:
            return None
        values = "|".join(values)
    return t.replace(WILD, "<" + values + ">")


def keyword_spread(positional: int) -> int:
    """The arity written for a call of ``positional`` arguments and a ``**kwargs`` spread (no
    ``*args``, no keyword argument): ``-2 - positional``, below the ``-1`` of "unknown"; the
    resolver (:mod:`indexer.resolve.name_patterns`) reads it back."""
    return -2 - positional


def _arity(extractor, args: Node) -> int:
    """``extractor.arity(args)``, or :func:`keyword_spread` when only a ``**`` spread makes it unknown."""
    arity = extractor.arity(args)
    if arity >= 0 or args.type != "argument_list":
        return arity
    kinds = [c.type for c in args.named_children if c.type != "comment"]
    if "list_splat" in kinds or "keyword_argument" in kinds:
        return -1
    return keyword_spread(sum(k != "dictionary_splat" for k in kinds))


def _later_call_arity(extractor, assignment: Node, name: str) -> int:
    """The arity (:func:`_arity`) of the one call of the local ``name`` written after ``assignment``
    in its function (``reg = getattr(...)`` ... ``reg(path, handler)``); ``-1`` when there is none or
    several disagree."""
    body = assignment.parent
    while body is not None and body.type not in ("function_definition", "module"):
        body = body.parent
    if body is None:
        return -1
    found: set[int] = set()
    stack = [body]
    while stack:
        n = stack.pop()
        if n.type == "call" and n.start_byte > assignment.end_byte:
            fn, args = n.child_by_field_name("function"), n.child_by_field_name("arguments")
            if fn is not None and fn.type == "identifier" and extractor.src.text(fn) == name and args is not None:
                found.add(_arity(extractor, args))
        stack.extend(c for c in n.named_children if c.type not in ("function_definition", "class_definition", "lambda")
                     or n is body)
    return found.pop() if len(found) == 1 else -1


def getattr_calls(extractor) -> list[CallSite]:
    """The ``via="pattern"`` call sites of the file the Python extractor ``extractor`` reads (its
    ``root``, ``src``, ``scopes``, ``receiver_text`` and ``arity``): module docstring."""
    src, scopes = extractor.src, extractor.scopes
    out: list[CallSite] = []
    for _, caps in run_query(query("python", "python/queries", "getattr_calls"), extractor.root):
        ga = caps["ga"][0]
        parent = ga.parent
        if parent is None:
            continue
        if parent.type == "call" and (fn := parent.child_by_field_name("function")) is not None and fn.id == ga.id:
            args = parent.child_by_field_name("arguments")
            arity = _arity(extractor, args) if args is not None else -1
        elif parent.type == "assignment" and (left := parent.child_by_field_name("left")) is not None \
                and left.type == "identifier" and (right := parent.child_by_field_name("right")) is not None \
                and right.id == ga.id:
            arity = _later_call_arity(extractor, parent, src.text(left))
        else:
            continue
        pattern = name_pattern(caps["ga.name"][0], src.text, ga, extractor.root)
        obj = caps["ga.obj"][0]
        if pattern is None or obj.type not in ("identifier", "attribute", "call"):
            continue
        caller = scopes.qualname_at(ga.start_byte)
        out.append(CallSite(caller, pattern, extractor.receiver_text(obj), arity, src.line(ga), src.col(ga),
                            via="pattern"))
    return out
