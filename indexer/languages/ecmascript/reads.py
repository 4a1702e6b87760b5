"""Member reads JavaScript / TypeScript code makes without calling them
(:class:`~indexer.model.ValueRead`): ``r.text`` runs the ``get text()`` accessor of ``r``'s class,
which the resolver decides through values only (:mod:`indexer.resolve.reads`). Rules in
``queries/value_reads.scm``; this module keeps the reads that are neither a call's callee, nor a
``new``'s constructor, nor assigned, updated or deleted. ``this`` inside an anonymous ``function``
callback is not the class's: such reads are left out. None is recorded as handed on (functions
used as values are Python's only, so far)."""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING, Any

from indexer.model import LONG_RECEIVER, ValueRead

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["member_reads"]

_WRITES = frozenset({"assignment_expression", "augmented_assignment_expression"})
_CALLEES = {"call_expression": "function", "new_expression": "constructor"}


def member_reads(fr: Any, matches: list[dict[str, list[Node]]], own_this: Callable[[Node], bool]) -> None:
    """Append to ``fr.out.value_reads`` (``fr``: the extractor's file run, with ``src``,
    ``receiver`` and ``code_scope``) one :class:`ValueRead` per member read of ``matches``, in
    source order; ``own_this(node)`` says whether ``this`` at ``node`` is the enclosing class's."""
    src, out = fr.src, fr.out.value_reads
    for caps in matches:
        node = caps["read"][0]
        if not _is_read(node):
            continue
        receiver = fr.receiver(caps["receiver"][0])
        if receiver == LONG_RECEIVER or ((receiver == "this" or receiver.startswith("this.")) and not own_this(node)):
            continue
        name = caps["name"][0]
        out.append(ValueRead(fr.code_scope(node), src.text(name), receiver, src.line(name), src.col(name)))
    out.sort(key=lambda r: (r.line, r.col))


def _is_read(node: Node) -> bool:
    """Whether the member expression ``node`` is read as a value."""
    parent = node.parent
    if parent is None:
        return True
    kind = parent.type
    field = _CALLEES.get(kind)
    if field is not None:
        return parent.child_by_field_name(field) != node
    if kind in _WRITES:
        return parent.child_by_field_name("left") != node
    if kind == "update_expression":
        return False
    return not (kind == "unary_expression" and parent.child_by_field_name("operator") is not None
                and parent.child_by_field_name("operator").type == "delete")
