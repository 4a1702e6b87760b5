"""Names and attributes Python code reads without calling them (:class:`~indexer.model.ValueRead`).

An attribute read may run a getter (``resp.text`` of a ``@property``), a name or attribute handed
on as a value may be a function used as one (``sorted(xs, key=by_name)``,
``app.add_url_rule("/", view_func=index)``, ``callbacks.append(self.on_done)``); the resolver
decides which, through values only (:mod:`indexer.resolve.reads`). Rules in
``queries/value_reads.scm``; this module keeps the attribute reads that are neither a call's callee
(a :class:`~indexer.model.CallSite` already), nor assigned, augmented or deleted, nor inside an
annotation or a class's base list, and says which are handed on; and the bare names handed on that the file defines as a
function or method or imports.

:class:`ValueReads` is a mixin of the extractor's per-file state (``src``, ``out``, ``root``, its
``receiver_text`` and ``caller_of``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from indexer.languages.base import query, run_query
from indexer.model import CALLABLE_KINDS, LONG_RECEIVER, ValueRead

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["ValueReads"]

_HANDED_PARENTS = frozenset({"argument_list", "list", "tuple", "set", "return_statement"})
"""Nodes whose children are values handed on (an argument, a container's element, a returned value)."""
_HANDED_FIELDS = {"keyword_argument": "value", "default_parameter": "value", "typed_default_parameter": "value",
                  "assignment": "right", "pair": "value"}
"""Nodes one field of which is a value handed on."""
_TARGETS = frozenset({"assignment", "augmented_assignment", "for_statement", "for_in_clause"})
"""Statements whose ``left`` field is written, not read."""
_NOT_READ = frozenset({"delete_statement", "type", "as_pattern_target", "keyword_pattern", "class_pattern"})
"""Where an attribute is not read as a value: ``del x.a``, an annotation, a pattern."""
_NO_FUNCTION = frozenset({"self", "cls"})


class ValueReads:
    """Mixin: :meth:`value_reads` fills ``out.value_reads`` (needs ``src``, ``out``, ``root``,
    ``receiver_text`` and ``caller_of``)."""

    src: Any
    out: Any
    root: Node

    def receiver_text(self, node: Node) -> str:  # noqa: D102 - the extractor's
        raise NotImplementedError

    def caller_of(self, node: Node) -> str | None:  # noqa: D102 - the extractor's
        raise NotImplementedError

    def value_reads(self) -> None:
        """One :class:`ValueRead` per attribute read that is not called, assigned or deleted, and
        per bare name handed on as a value, in source order."""
        src, out = self.src, self.out.value_reads
        start = len(out)
        seen: set[int] = set()
        # A bare name can be a function of the repository only if the file defines a function or
        # method of that name or imports it (a local variable, a parameter, a builtin cannot be):
        # the rest is left out here, before anything is resolved (as ``returned_refs`` are).
        known = {d.name for d in self.out.definitions if d.kind in CALLABLE_KINDS} | {i.local for i in self.out.imports}
        anything = "*" in known  # a star import may bind any name
        for _, caps in run_query(query("python", "python/queries", "value_reads"), self.root):
            if "read" in caps:
                node = caps["read"][0]
                if not _is_read(node) or _in_bases(node):
                    continue
                receiver = self.receiver_text(caps["receiver"][0])
                if receiver == LONG_RECEIVER:
                    continue
                name = caps["name"][0]
                out.append(ValueRead(self.caller_of(node), src.text(name), receiver, src.line(name), src.col(name),
                                     _handed(node)))
            else:
                node = caps["value"][0]
                text = src.text(node)
                if (not anything and text not in known) or text in _NO_FUNCTION or node.start_byte in seen \
                        or _in_bases(node):
                    continue
                seen.add(node.start_byte)
                out.append(ValueRead(self.caller_of(node), text, None, src.line(node), src.col(node), True))
        out[start:] = sorted(out[start:], key=lambda r: (r.line, r.col))


def _is_read(node: Node) -> bool:
    """Whether the attribute ``node`` is read as a value: not a call's callee, not written (an
    assignment's or loop's target, also inside a tuple or list of targets), not deleted, not part
    of an annotation or a pattern."""
    child, parent = node, node.parent
    if parent is None:
        return True
    kind = parent.type
    if kind == "call":
        return parent.child_by_field_name("function") != child
    while kind in ("pattern_list", "tuple_pattern", "list_pattern", "tuple", "list", "list_splat_pattern",
                   "parenthesized_expression"):
        child, parent = parent, parent.parent
        if parent is None:
            return True
        kind = parent.type
    if kind in _TARGETS:
        return parent.child_by_field_name("left") != child
    return kind not in _NOT_READ


def _in_bases(node: Node) -> bool:
    """Whether ``node`` is written in a class's base list (``class A(Base, metaclass=M)``): a base,
    no value read."""
    parent = node.parent
    if parent is not None and parent.type == "keyword_argument":
        parent = parent.parent
    return parent is not None and parent.type == "argument_list" and parent.parent is not None \
        and parent.parent.type == "class_definition"


def _handed(node: Node) -> bool:
    """Whether ``node`` is written where its value is handed on (an argument, a default, the right
    side of an assignment, a container's element, a returned value)."""
    parent = node.parent
    if parent is None:
        return False
    kind = parent.type
    if kind == "expression_list" and parent.parent is not None and parent.parent.type == "return_statement":
        return True
    if kind in _HANDED_PARENTS:
        return True
    field = _HANDED_FIELDS.get(kind)
    return field is not None and parent.child_by_field_name(field) == node
