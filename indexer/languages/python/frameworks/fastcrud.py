"""FastCRUD objects -> :class:`~indexer.model.TableUse` facts (session 67, r67e).

`FastCRUD <https://github.com/igorbenav/fastcrud>`_ wraps one SQLAlchemy model: ``crud_users = FastCRUD(User)``
and then ``await crud_users.get(db=db, username=name)`` reads table ``user``, ``crud_users.create(db=db,
object=...)`` writes it. The model is given once, where the object is built, usually in its own module, and the
calls are in other files; so the two halves are two facts the table linker
(:mod:`indexer.frameworks.tables`) joins:

* **the object** (file importing ``fastcrud``): a module-level ``x = FastCRUD(M)``, ``x = FastCRUD[M, ...](M)``,
  or ``x = Alias(M)`` where ``Alias = FastCRUD[...]`` or ``class Alias(FastCRUD[...])`` is of the same file
  (``model=M`` as a keyword too) -> a ``repository`` use, framework ``fastcrud``, ``receiver`` the variable
  ``x``, ``entity`` the model's text ``M``, owner ``None`` (module level).
* **a call** (any Python file): ``r.m(...)`` with ``m`` one of :data:`READS` / :data:`WRITES` whose session is
  passed as ``db=`` or as a first positional argument named like a session (``db``, ``session``,
  ``async_session``, ``self.db``) -> a ``reads`` / ``writes`` use, framework ``fastcrud``, ``receiver`` ``r``
  (a name or dotted name). The linker keeps it only when ``r`` is such an object, of this file or
  imported (``from app.crud.crud_users import crud_users``); any other receiver links nothing and is not
  counted as unlinked. A read's columns are its filter keywords (``username=`` of
  ``get(db=db, username=u)``, ``id`` of ``id__gt=``), the names of FastCRUD's own parameters
  (:data:`_OWN_PARAMETERS`) left out.

The method lists are FastCRUD 0.15's public ``FastCRUD`` methods: ``delete`` is a soft delete (an update of
``is_deleted``) and ``db_delete`` a real one, both writes; ``upsert`` / ``upsert_multi`` write.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.languages.python.frameworks.common import Args, CallLocator, compact
from indexer.model import FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "READS", "WRITES", "detect"]

LANGUAGES = ("python",)
FRAMEWORK = "fastcrud"

READS = frozenset({"get", "get_multi", "get_joined", "get_multi_joined", "get_multi_by_cursor", "exists", "count",
                   "select"})
"""FastCRUD methods that only read the model's table."""
WRITES = frozenset({"create", "update", "delete", "db_delete", "upsert", "upsert_multi"})
"""FastCRUD methods that write the model's table."""

_OWN_PARAMETERS = frozenset({
    "db", "object", "instance", "instances", "schema_to_select", "return_as_model", "one_or_none", "offset", "limit",
    "sort_columns", "sort_orders", "allow_multiple", "return_columns", "return_total_count", "commit", "join_model",
    "join_prefix", "join_on", "join_schema_to_select", "join_type", "alias", "join_filters", "joins_config",
    "nest_joins", "relationship_type", "nested_schema_to_select", "cursor", "sort_column", "sort_order",
    "counts_config", "filters", "update_override", "insert_override", "stmt", "distinct_on",
})
"""Keyword parameters of FastCRUD's methods that are no column filter."""

_SESSION = re.compile(r"(?:\w+\.)*(?:\w*_)?(?:db|session)", re.IGNORECASE)
"""A positional first argument that is a database session: ``db``, ``session``, ``async_session``, ``self.db``."""
_DOTTED = re.compile(r"[A-Za-z_]\w*(?:\.[A-Za-z_]\w*)*")


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the FastCRUD objects built at module level and the FastCRUD method calls of one parsed Python file
    to ``out.table_uses`` (module docstring)."""
    if b"fastcrud" in src.data and any(i.module.split(".")[0] == "fastcrud" for i in out.imports):
        _objects(root, src, out)
    if not (b"db" in src.data or b"session" in src.data):
        return
    locate: CallLocator | None = None
    for c in out.calls:
        read = c.name in READS
        if not read and c.name not in WRITES or not c.receiver or c.via is not None \
                or not _DOTTED.fullmatch(c.receiver) or c.receiver.split(".")[0] in ("self", "cls"):
            continue
        locate = locate or CallLocator(root, src)
        call = locate.call_at(c.line, c.col)
        args = Args.of(src, call.child_by_field_name("arguments")) if call is not None else Args()
        first = args.positional[0] if args.positional else None
        if "db" not in args.keywords and (first is None or not _SESSION.fullmatch(compact(src, first))):
            continue
        # the same call read as an ORM's `x.update(...)` / `x.delete(...)` of an entity `x` (orm_tables) is this one
        out.table_uses[:] = [u for u in out.table_uses if (u.line, u.col) != (c.line, c.col) or u.entity != c.receiver]
        columns = sorted({k.split("__", 1)[0] for k in args.keywords if k not in _OWN_PARAMETERS}) if read else []
        out.table_uses.append(TableUse(FRAMEWORK, "reads" if read else "writes", c.caller, c.line, c.col,
                                       columns=columns, resolution="inferred", receiver=c.receiver))


def _objects(root: Node, src: SourceText, out: FileExtraction) -> None:
    """The ``repository`` uses of the module-level FastCRUD objects of a file importing ``fastcrud``."""
    names = {i.local or i.name for i in out.imports if i.module.split(".")[0] == "fastcrud" and i.name == "FastCRUD"}
    names.add("fastcrud.FastCRUD")
    statements = [c.named_children[0] if c.type == "expression_statement" and c.named_children else c
                  for c in root.named_children]
    for node in root.named_children:  # `class CRUDUser(FastCRUD[User, ...])`
        if node.type == "class_definition":
            bases = node.child_by_field_name("superclasses")
            if bases is not None and any(_crud_type(src, b, names) for b in bases.named_children):
                names.add(src.text(node.child_by_field_name("name")))
    for stmt in statements:  # `CRUDUser = FastCRUD[User, ...]`
        left, right = stmt.child_by_field_name("left"), stmt.child_by_field_name("right")
        if stmt.type == "assignment" and left is not None and left.type == "identifier" and right is not None \
                and right.type == "subscript" and _crud_type(src, right, names):
            names.add(src.text(left))
    for stmt in statements:  # `crud_users = CRUDUser(User)`
        left, right = stmt.child_by_field_name("left"), stmt.child_by_field_name("right")
        if stmt.type != "assignment" or left is None or left.type != "identifier" or right is None \
                or right.type != "call" or not _crud_type(src, right.child_by_field_name("function"), names):
            continue
        model = Args.of(src, right.child_by_field_name("arguments")).get(0, "model")
        if model is not None and model.type in ("identifier", "attribute"):
            out.table_uses.append(TableUse(FRAMEWORK, "repository", None, src.line(stmt), src.col(stmt),
                                           entity=compact(src, model), resolution="inferred",
                                           receiver=src.text(left)))


def _crud_type(src: SourceText, node: Node | None, names: set[str]) -> bool:
    """Whether ``node`` is ``FastCRUD``, ``FastCRUD[...]`` or one of ``names`` (aliases and subclasses)."""
    if node is not None and node.type == "subscript":
        node = node.child_by_field_name("value")
    return node is not None and node.type in ("identifier", "attribute") and compact(src, node) in names
