"""Salesforce data access in Apex: SOQL queries read an sObject, DML statements write one.

:func:`sobject_accesses` reads, per file:

* inline SOQL (``[SELECT Id, Name FROM Account WHERE ...]``): a read of ``Account`` with the selected
  fields (relationship fields as written, ``Owner.Name``; aggregate and subquery items left out);
  a subquery over a child relationship (``(SELECT Id FROM Contacts)``) names a relationship, not an
  sObject, and is not read as one;
* ``Database.query('SELECT ...')`` / ``Database.queryWithBinds(...)`` / ``Database.countQuery(...)`` /
  ``Database.getQueryLocator(...)`` with a string literal, literals joined with ``+`` around other
  expressions, or a name of a local or field initialised so
  (:mod:`indexer.languages.apex.frameworks.dynamic_soql`; through a name: ``inferred``): the same, the
  text parsed by the Apex grammar's own SOQL rules (not a regular expression);
* DML statements (``insert``, ``update``, ``upsert``, ``delete``, ``undelete``, ``merge``) and their
  ``Database.insert(...)`` ... forms: a write of the sObject of the target: a ``new Account(...)``,
  a ``new List<Account>{...}`` / ``new Account[]{...}``, an inline query, or a name whose declared type in the method (parameter, local, field) is an
  sObject type or a ``List`` / ``Set`` of one (resolution ``inferred``: the declaration decides); a
  target typed ``SObject`` or not typed in the file names no sObject and is dropped.

Ownership: the innermost method, constructor or trigger holding the access (a field initialiser: the
class). Every name is as written (Apex is case-insensitive; consumers compare lowercased names).
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from indexer.languages.apex.frameworks.dynamic_soql import query_variants
from indexer.languages.base import parser
from indexer.model import CALLABLE_KINDS, TYPE_KINDS, FileExtraction, base_type

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["DML_OPERATIONS", "SObjectAccess", "declared_types", "expression_sobject", "soql_objects", "sobject_accesses"]

DML_OPERATIONS = frozenset({"insert", "update", "upsert", "delete", "undelete", "merge"})
"""Apex DML operations (statements and ``Database`` methods): each writes its target's sObject."""
_QUERY_METHODS = frozenset({"query", "querywithbinds", "countquery", "countquerywithbinds", "getquerylocator"})
_COLLECTIONS = frozenset({"list", "set"})
_MAX_SOQL_CHARS = 20_000


@dataclass(slots=True)
class SObjectAccess:
    """One read or write of an sObject: ``role`` ``reads`` | ``writes``; ``operation`` the DML
    operation or ``select``; ``fields`` the selected fields (reads; empty: unknown);
    ``owner`` the qualname of the enclosing method / constructor / trigger / class (``None``: none);
    ``resolution`` ``exact`` when the source names the sObject, ``inferred`` when a declared type led
    to it; ``line`` / ``col`` the query or statement."""

    role: str
    sobject: str
    operation: str
    owner: str | None
    line: int
    col: int
    fields: list[str] = field(default_factory=list)
    resolution: str = "exact"


def soql_objects(src: SourceText, body: Node) -> tuple[str | None, list[str]]:
    """``(sObject, fields)`` of a ``soql_query_body`` node: its FROM object and its plain selected
    fields (``None``: no FROM object)."""
    from_clause = body.child_by_field_name("from_clause")
    select = body.child_by_field_name("select_clause")
    obj = next((c for c in from_clause.named_children if c.type == "storage_identifier"), None) \
        if from_clause is not None else None
    fields = [src.text(c) for c in select.named_children if c.type == "field_identifier"] if select is not None else []
    return (src.text(obj) if obj is not None else None), fields


def _parse_soql(text: str) -> tuple[str | None, list[str]]:
    """A SOQL string parsed as the inline query ``[text]`` by the Apex grammar."""
    from indexer.languages.base import SourceText

    if len(text) > _MAX_SOQL_CHARS or "]" in text:
        return None, []
    wrapped = f"class Q {{ void q() {{ Object o = [{text}]; }} }}".encode("utf-8", "replace")
    src = SourceText(wrapped)
    stack = [parser("apex").parse(wrapped).root_node]
    while stack:
        n = stack.pop()
        if n.type == "soql_query_body":
            return soql_objects(src, n)
        stack.extend(n.named_children)
    return None, []


class _Owners:
    """The innermost callable (else type) definition holding a position, by definition spans."""

    def __init__(self, out: FileExtraction) -> None:
        self.defs = [d for d in out.definitions
                     if d.generated is None and (d.kind in CALLABLE_KINDS or d.kind in TYPE_KINDS)]

    def at(self, line: int, col: int) -> str | None:
        best = None
        for d in self.defs:
            if (d.start_line, d.start_col) <= (line, col) <= (d.end_line, d.end_col):
                if best is None or (d.start_line, d.start_col) >= (best.start_line, best.start_col):
                    best = d
        return best.qualname if best is not None else None


def _declared(types: dict[tuple[str | None, str], str], scope: str | None, name: str) -> str | None:
    """The declared type text of ``name`` in ``scope`` or its enclosing scopes (fields: the class)."""
    s = scope
    while True:
        t = types.get((s, name))
        if t is not None or s is None:
            return t
        s = s.rpartition(".")[0] or None


def _sobject_type(type_text: str | None) -> str | None:
    """The sObject a declared type names: ``Account``, ``List<Account>``, ``Set<Account>``,
    ``Account[]``; ``None`` for ``SObject``, maps, primitives and unknowns."""
    if not type_text:
        return None
    t = type_text.replace(" ", "")
    head = base_type(t) or ""
    if head.lower() in _COLLECTIONS and "<" in t and t.endswith(">"):
        t = t[t.index("<") + 1 : -1]
        head = base_type(t) or ""
    if not head or "<" in t or head.lower() in ("sobject", "object", "string", "id", "map", "list", "set"):
        return None
    return head


_ACCESS_NODES = frozenset({"soql_query_body", "dml_expression", "method_invocation"})


def sobject_accesses(root: Node, src: SourceText, out: FileExtraction) -> list[SObjectAccess]:
    """Every SOQL read and DML write of the file (module docstring), in source order."""
    owners = _Owners(out)
    types = declared_types(out)
    found: list[SObjectAccess] = []

    def target_of(node: Node, owner: str | None) -> tuple[str | None, str]:
        return expression_sobject(src, node, types, owner)

    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(reversed(n.named_children))
        if n.type not in _ACCESS_NODES:
            continue
        line, col = src.line(n), src.col(n)
        if n.type == "soql_query_body" and not _in_select(n):
            obj, fields = soql_objects(src, n)
            if obj:
                found.append(SObjectAccess("reads", obj, "select", owners.at(line, col), line, col, fields))
        elif n.type == "dml_expression":
            op = next((c for c in n.named_children if c.type == "dml_type"), None)
            target = n.child_by_field_name("target")
            if op is None or target is None:
                continue
            owner = owners.at(line, col)
            obj, how = target_of(target, owner)
            if obj:
                found.append(SObjectAccess("writes", obj, src.text(op).lower(), owner, line, col, resolution=how))
        elif n.type == "method_invocation":
            recv, name = n.child_by_field_name("object"), n.child_by_field_name("name")
            args = n.child_by_field_name("arguments")
            # the receiver's length first: a chain x.a().a()... is a receiver of every call in it, and
            # reading each one's text would cost the square of the chain's length
            if recv is None or name is None or args is None or recv.end_byte - recv.start_byte != len("Database") \
                    or src.text(recv).lower() != "database" or not args.named_children:
                continue
            method, first, owner = src.text(name).lower(), args.named_children[0], owners.at(line, col)
            if method in DML_OPERATIONS:
                obj, how = target_of(first, owner)
                if obj:
                    found.append(SObjectAccess("writes", obj, method, owner, line, col, resolution=how))
            elif method in _QUERY_METHODS:
                texts, through_name = query_variants(src, first)
                for i, text in enumerate(texts):
                    obj, fields = _parse_soql(text)
                    if obj:  # a hole written `Id` (the second text) is no selected field
                        found.append(SObjectAccess("reads", obj, "select", owner, line, col, fields if i == 0 else [],
                                                   resolution="inferred" if through_name else "exact"))
                        break
    found.sort(key=lambda a: (a.line, a.col))
    return found


def declared_types(out: FileExtraction) -> dict[tuple[str | None, str], str]:
    """The file's declared types by ``(scope, name)`` (parameters, locals, fields: ``out.bindings``),
    as :func:`expression_sobject` reads them."""
    return {(b.scope, b.name): b.type for b in out.bindings}


def expression_sobject(src: SourceText, node: Node, types: dict[tuple[str | None, str], str],
                       owner: str | None) -> tuple[str | None, str]:
    """``(sObject, resolution)`` of the records an expression holds: ``new Account(...)``,
    ``new List<Account>{...}``, ``new Account[]{...}`` and an inline query name theirs (``exact``); a name or ``this.x`` has the
    sObject of its declared type in ``owner`` or an enclosing scope (``inferred``; ``types`` from
    :func:`declared_types`); ``(None, ...)`` when none is known (``SObject``, a call, an untyped name)."""
    if node.type in ("object_creation_expression", "array_creation_expression"):
        t = node.child_by_field_name("type")
        return (_sobject_type(src.text(t)) if t is not None else None), "exact"
    if node.type == "query_expression":
        body = next((c for c in node.named_children if c.type == "soql_query_body"), None)
        return (soql_objects(src, body)[0] if body is not None else None), "exact"
    if node.type in ("identifier", "field_access"):
        return _sobject_type(_declared(types, owner, src.text(node))), "inferred"
    return None, "exact"


def _in_select(body: Node) -> bool:
    """Whether a SOQL body is a subquery in another query's select list (a child relationship)."""
    cur = body.parent
    while cur is not None and cur.type != "soql_query_body":
        if cur.type == "select_clause":
            return True
        cur = cur.parent
    return False
