"""Names and attributes Python code reads without calling them (:class:`~indexer.model.ValueRead`).

An attribute read may run a getter (``resp.text`` of a ``@property``), a name or attribute handed
on as a value may be a function used as one (``sorted(xs, key=by_name)``,
``app.add_url_rule("/", view_func=index)``, ``callbacks.append(self.on_done)``); the resolver
decides which, through values only (:mod:`indexer.resolve.reads`). Rules in
``queries/value_reads.scm``; this module keeps the attribute reads that are neither a call's callee
(a :class:`~indexer.model.CallSite` already), nor assigned, augmented or deleted, nor inside an
annotation or a class's base list, and says which are handed on (a read no getter can answer is
left out unless handed on: an imported module's attribute, ``self.x`` of a field or plain method the
enclosing class declares); and the bare names handed on that the file defines as a
function or method or imports.

:class:`ValueReads` is a mixin of the extractor's per-file state (``src``, ``out``, ``root``, its
``receiver_text`` and ``caller_of``).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any
from operator import attrgetter

from indexer.languages.base import language, query, run_query
from indexer.model import CALLABLE_KINDS, LONG_RECEIVER, Definition, ValueRead

if TYPE_CHECKING:
    from tree_sitter import Node

__all__ = ["ValueReads"]

_AT = attrgetter("line", "col")
"""Sort key of records in source order: ``(line, col)``, read in C (no Python call per record)."""

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


_OBJECT, _ATTRIBUTE = (language("python").field_id_for_name(f) for f in ("object", "attribute"))
"""Field ids of the look-ups made per read kept (``child_by_field_id``: no search by name)."""

class ValueReads:
    """Mixin: :meth:`value_reads` fills ``out.value_reads`` (needs ``src``, ``out``, ``root``, ``callees``,
    ``receiver_text`` and ``caller_of``)."""

    src: Any
    out: Any
    root: Node
    callees: set[int]
    """Node ids of the attributes found called (the extractor's ``calls``): no value read, known
    without a look at their parent."""
    self_reads: list[Node]
    """Every ``self.<name>`` attribute node (object the identifier ``self``, attribute an identifier) met
    by :meth:`value_reads`, called or not, in match order: the ``orm_attributes`` detector's reads
    (:func:`~indexer.languages.python.frameworks.common.known_self_reads`), not walked for again."""

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
        defs, imports = self.out.definitions, self.out.imports
        known = {d.name for d in defs if d.kind in CALLABLE_KINDS} | {i.local for i in imports}
        anything = "*" in known  # a star import may bind any name
        # Reads no getter can answer, left out unless handed on (then they may name a function): an
        # attribute of an imported module (`os.sep`), and `self.x` / `cls.x` where the enclosing
        # class itself declares `x` as a field or a plain method.
        modules = {i.local for i in imports if i.name is None} | {
            i.module for i in imports if i.name is None and i.local == i.module.partition(".")[0]}
        plain, classes = _plain_members(defs)
        class_of: dict[str | None, str | None] = {}
        callees = self.callees
        data, selfs = src.data, self.self_reads
        for _, caps in run_query(query("python", "python/queries", "value_reads"), self.root):
            if "read" in caps:
                node = caps["read"][0]
                if data.startswith(b"self", node.start_byte):  # `self.<name>`: kept for orm_attributes
                    obj = node.child_by_field_id(_OBJECT)
                    if obj.end_byte - obj.start_byte == 4 and obj.type == "identifier":
                        selfs.append(node)
                how = 0 if node.id in callees else _read_kind(node)
                if not how:
                    continue
                receiver = self.receiver_text(node.child_by_field_id(_OBJECT))
                if receiver == LONG_RECEIVER:
                    continue
                at = node.child_by_field_id(_ATTRIBUTE)
                name, owner, handed = src.text(at), self.caller_of(node), how == _HANDED
                if not handed and (receiver in modules or (receiver in _NO_FUNCTION and plain and (
                        _enclosing_class(owner, classes, class_of), name) in plain)):
                    continue
                out.append(ValueRead(owner, name, receiver, *src.line_col(at), handed))
            else:
                node = caps["value"][0]
                text = src.text(node)
                if (not anything and text not in known) or text in _NO_FUNCTION or node.start_byte in seen \
                        or _in_bases(node):
                    continue
                seen.add(node.start_byte)
                out.append(ValueRead(self.caller_of(node), text, None, *src.line_col(node), True))
        out[start:] = sorted(out[start:], key=_AT)


def _plain_members(defs: list[Definition]) -> tuple[set[tuple[str, str]], set[str]]:
    """``(class qualname, name)`` of the members a class of the file declares that are no getter
    (fields, methods without a ``property`` modifier, when no getter of that name is declared
    there too), and the qualnames of the file's classes."""
    classes = {d.qualname for d in defs if d.kind == "class"}
    plain: set[tuple[str, str]] = set()
    getters: set[tuple[str, str]] = set()
    for d in defs:
        if d.parent in classes:
            (getters if "property" in d.modifiers else plain).add((d.parent, d.name))
    return plain - getters, classes


def _enclosing_class(owner: str | None, classes: set[str], memo: dict[str | None, str | None]) -> str | None:
    """The innermost class of the file enclosing the code of ``owner`` (a qualname), or ``None``."""
    if owner in memo:
        return memo[owner]
    q = owner
    while q and q not in classes:
        q = q.rpartition(".")[0]
    memo[owner] = q or None
    return q or None


_READ, _HANDED = 1, 2


def _read_kind(node: Node) -> int:
    """How the attribute ``node`` is read: ``0`` not as a value (a call's callee, written: an
    assignment's or loop's target, also inside a tuple or list of targets, deleted, in an
    annotation, a pattern or a class's base list), :data:`_HANDED` handed on (:func:`_handed`),
    else :data:`_READ`. The commonest parents are decided first, from one look at the parent."""
    parent = node.parent
    if parent is None:
        return _READ
    kind = parent.type
    if kind == "attribute":  # the object of another attribute: `self.a` of `self.a.b`
        return _READ
    if kind == "call":
        return 0 if parent.child_by_field_name("function") == node else _READ
    if kind in ("argument_list", "keyword_argument"):
        return 0 if _in_bases(node) else _HANDED if _handed(node) else _READ
    if not _is_read(node):
        return 0
    return _HANDED if _handed(node) else _READ


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
