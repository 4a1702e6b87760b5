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
from indexer.model import CallSite

__all__ = ["MIN_LITERAL", "WILD", "getattr_calls", "name_pattern"]

WILD = "*"
"""The wildcard of a pattern: any text (an identifier's characters)."""
MIN_LITERAL = 2
"""Fewest literal characters a pattern keeps (``"_" + name`` is every private name: nothing bound)."""
_PERCENT = re.compile(r"%(?:\([^)]*\))?[-#0 +]*(?:\d+|\*)?(?:\.\d+)?[sdrifxXoeEgGc]")
_BRACES = re.compile(r"\{[^{}]*\}")
_PATTERN = re.compile(r"\w*(?:\*\w*)*")


def _template(node: Node, text) -> str:
    """``node`` as text with ``*`` for each part not known before run time."""
    kind = node.type
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return _template(node.named_children[0], text)
    if kind == "concatenated_string":
        return "".join(_template(c, text) for c in node.named_children)
    if kind == "string":
        start = node.children[0] if node.children else None
        if start is None or "b" in text(start).lower():
            return WILD
        parts = []
        for c in node.children:
            if c.type == "string_content":
                parts.append(text(c))
            elif c.type == "interpolation":
                parts.append(WILD)
        return "".join(parts)
    if kind == "binary_operator":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is not None and left is not None and right is not None:
            if op.type == "+":
                return _template(left, text) + _template(right, text)
            if op.type == "%" and left.type == "string":
                return _PERCENT.sub(WILD, _template(left, text).replace("%%", "%"))
    if kind == "call":
        fn = node.child_by_field_name("function")
        if fn is not None and fn.type == "attribute" and text(fn.child_by_field_name("attribute")) == "format":
            obj = fn.child_by_field_name("object")
            if obj is not None and obj.type == "string":
                return _BRACES.sub(WILD, _template(obj, text))
    return WILD


def name_pattern(node: Node, text) -> str | None:
    """The pattern (``render_*``) of the name expression ``node`` (``text``: a node -> its source
    text); ``None`` when it is no identifier pattern or keeps fewer than :data:`MIN_LITERAL` literal
    characters."""
    t = re.sub(r"\*+", WILD, _template(node, text))
    if not _PATTERN.fullmatch(t) or len(t.replace(WILD, "")) < MIN_LITERAL or t[:1].isdigit():
        return None
    return t


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
            arity = extractor.arity(args) if args is not None else -1
        elif parent.type == "assignment" and (left := parent.child_by_field_name("left")) is not None \
                and left.type == "identifier" and (right := parent.child_by_field_name("right")) is not None \
                and right.id == ga.id:
            arity = -1
        else:
            continue
        pattern = name_pattern(caps["ga.name"][0], src.text)
        obj = caps["ga.obj"][0]
        if pattern is None or obj.type not in ("identifier", "attribute", "call"):
            continue
        caller = scopes.qualname(scopes.at(ga.start_byte))
        out.append(CallSite(caller, pattern, extractor.receiver_text(obj), arity, src.line(ga), src.col(ga),
                            via="pattern"))
    return out
