"""Column accesses through an ORM instance's attributes (Django, SQLAlchemy, Flask-SQLAlchemy, SQLModel).

``user.email = form.email.data`` writes column ``email`` of the table ``user``'s class maps; in a
model's own method ``self.password_hash = ...`` writes it and ``return check(self.password_hash, p)``
reads it. Without these, ``table:user.password_hash`` lists no code at all when the only accesses are
attribute reads and writes (the usual ORM style). Recorded (rules in
``indexer/languages/python/queries/orm_attributes.scm`` and, for the reads, ``orm_attribute_reads.scm``: the
extractor's walk of the attribute reads hands them over, :func:`~indexer.languages.python.frameworks.common.self_attribute_reads`), as :class:`~indexer.model.TableUse` of framework
``orm_attribute`` with ``entity`` the object's name, resolved by the linker in the enclosing function:

* a write: the target of an assignment or augmented assignment ``X.a``, ``X`` a plain name (``self``
  too), anywhere in a function or method;
* a read: ``self.a`` in a method of a class this file maps to a table (its :class:`~indexer.model.TableDef`
  ``entity``), not written there; reads through other names are not recorded (every attribute read of
  every local would be).

One use per (function, object, role), its columns the attribute names in first-seen order, placed at the
first. The linker keeps only the names that are columns of the table the object's class maps to (a
method call ``self.save()``, a relationship ``user.posts`` or a plain attribute name nothing maps),
and drops the use when the object is no mapped instance.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.base import query, run_query
from indexer.languages.python.frameworks.common import scope_of, self_attribute_reads
from indexer.model import ORM_ATTRIBUTE, FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect"]

LANGUAGES = ("python",)


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append this file's attribute column accesses to ``out.table_uses`` (module docstring)."""
    models = {td.entity for td in out.tables if td.entity and td.kind in ("table", "abstract", "proxy", "candidate")}
    uses: dict[tuple[str, str, str], tuple[TableUse, set[str]]] = {}
    written: set[tuple[int, int]] = set()
    reads: list[tuple[Node, Node]] = []
    for _, caps in run_query(query("python", "python/queries", "orm_attributes"), root):
        target = caps["target"][0]
        written.add((target.start_byte, target.end_byte))
        _add(uses, src, "writes", caps["object"][0], caps["attr"][0], scope_of(caps["write"][0], src))
    if models:  # `self.<name>` reads, only in a file declaring a mapped class (the extractor met them: no walk)
        reads = self_attribute_reads(root, src)
    for node, attr in reads:
        if (node.start_byte, node.end_byte) in written:
            continue
        scope = scope_of(node, src)
        if scope is None or scope.rpartition(".")[0] not in models:
            continue  # `self` of a method of a mapped class only
        _add(uses, src, "reads", node.child_by_field_name("object"), attr, scope)
    out.table_uses.extend(use for use, _ in uses.values())


def _add(uses: dict[tuple[str, str, str], tuple[TableUse, set[str]]], src: SourceText, role: str, obj: Node,
         attr: Node, scope: str | None) -> None:
    """Add column ``attr`` of object ``obj`` to the use of (``scope``, object, ``role``); the set beside
    each use keeps this linear in the number of accesses (a generated ``setupUi`` writes 36,000)."""
    if scope is None:
        return  # module level: no function to credit
    name, column = src.text(obj), src.text(attr)
    key = (scope, name, role)
    entry = uses.get(key)
    if entry is None:
        uses[key] = (TableUse(ORM_ATTRIBUTE, role, scope, *src.line_col(attr), entity=name, columns=[column],
                              resolution="inferred"), {column})
    elif column not in entry[1]:
        entry[1].add(column)
        entry[0].columns.append(column)
