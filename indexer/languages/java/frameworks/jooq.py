"""jOOQ queries -> :class:`~indexer.model.TableUse` (framework ``jooq``, owner: the enclosing method).

In a file importing ``org.jooq`` (or a generated ``...Tables`` class), a DSL call whose first argument
is a generated table constant names a table: ``ctx.select(...).from(USERS)``, ``selectFrom(USERS)``,
joins (``join`` / ``leftJoin`` / ...), ``fetch(USERS, ...)`` / ``fetchOne`` / ``fetchCount`` /
``fetchExists`` / ``newRecord`` read; ``insertInto(USERS, ...)``, ``update(USERS)``,
``deleteFrom(USERS)`` / ``delete(USERS)``, ``mergeInto(USERS)`` write. A name other libraries share
(``from``, ``delete``, ``update``, ``fetch``, ``join``...) counts only with evidence of jOOQ
(:meth:`_Detector._jooq_evidence`): ``redis.delete(CACHE_KEY)`` is no table. The constant is written
``USERS``, ``Tables.USERS``, ``Users.USERS`` or ``USERS.as("u")``: an upper-case name, the table
named by jOOQ's default generator strategy in reverse (``BANK_ACCOUNT`` -> ``bank_account``; the
generated code need not be in the repository: it is usually built, not committed), so the use is
``inferred``. Columns: ``USERS.EMAIL`` field references in the statement's chain (``email``): for a
write, those inside ``set`` / ``values`` / ``columns`` / the ``insertInto`` list; the others (a
``where``) are read. Anything else (``update("sql")`` of a ``JdbcTemplate``, a lower-case variable)
is no jOOQ table.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "JOOQ_ROLES"]

LANGUAGES = ("java",)
JOOQ_ROLES = {
    **dict.fromkeys(("from", "selectFrom", "join", "leftJoin", "rightJoin", "innerJoin", "fullJoin", "crossJoin",
                     "leftOuterJoin", "rightOuterJoin", "fullOuterJoin", "naturalJoin", "fetch", "fetchOne",
                     "fetchSingle", "fetchOptional", "fetchAny", "fetchCount", "fetchExists", "newRecord"), "reads"),
    **dict.fromkeys(("insertInto", "update", "deleteFrom", "delete", "mergeInto"), "writes"),
}
"""jOOQ DSL methods naming a table in their first argument, and whether they read or write it."""
_UNAMBIGUOUS = frozenset({"selectFrom", "insertInto", "deleteFrom", "mergeInto", "fetchCount", "fetchExists",
                          "newRecord", "leftJoin", "rightJoin", "innerJoin", "fullJoin", "crossJoin", "leftOuterJoin",
                          "rightOuterJoin", "fullOuterJoin", "naturalJoin"})
"""DSL methods no common library shares: their table argument is enough."""
_DSL_CHAIN = frozenset({"select", "selectDistinct", "selectCount", "selectOne", "selectZero", "with", "using",
                        *_UNAMBIGUOUS})
"""Calls that make a chain a jOOQ statement (``ctx.select(...).from(T)``)."""
_TABLE = re.compile(r"^(?:\w+\.)*([A-Z][A-Z0-9_]*)(?:\.as\(.*\))?$", re.S)
_WRITE_PARTS = frozenset({"set", "values", "columns", "insertInto", "valuesOfRows", "valuesOfRecords"})


def _compact(src: SourceText, node: Node | None) -> str:
    return re.sub(r"\s+", "", src.text(node)) if node is not None else ""


def _table_name(src: SourceText, arg: Node) -> tuple[str, str] | None:
    """``(constant, table name)`` of a table argument, ``None`` when it is not a table constant."""
    m = _TABLE.match(_compact(src, arg))
    if m is None or not re.search(r"[A-Z]", m.group(1)) or len(m.group(1)) < 2:
        return None
    return m.group(1), m.group(1).lower()


class _Detector:
    def __init__(self, root: Node, src: SourceText, out: FileExtraction) -> None:
        self.root, self.src, self.out = root, src, out
        self._seen: set[tuple[int, str]] = set()

    def run(self) -> None:
        for c in self.out.calls:
            if c.name not in JOOQ_ROLES or c.is_new:
                continue
            node = self._call_node(c.line, c.col)
            if node is None:
                continue
            args = node.child_by_field_name("arguments")
            first = next((a for a in (args.named_children if args is not None else [])
                          if a.type not in ("line_comment", "block_comment")), None)
            found = _table_name(self.src, first) if first is not None else None
            if found is None:
                continue
            const, table = found
            if c.name not in _UNAMBIGUOUS and not self._jooq_evidence(node, const):
                continue  # redis.delete(CACHE_KEY), Instant.from(NOW): not jOOQ
            top = self._outermost(node)
            role = JOOQ_ROLES[c.name]
            if (top.id, table) in self._seen and role == "reads":
                continue
            self._seen.add((top.id, table))
            write_cols, read_cols = self._columns(top, const, role)
            if role == "writes":
                self.out.table_uses.append(TableUse("jooq", "writes", c.caller, c.line, c.col, table=table,
                                                    columns=write_cols, resolution="inferred"))
                if read_cols:
                    self.out.table_uses.append(TableUse("jooq", "reads", c.caller, c.line, c.col, table=table,
                                                        columns=read_cols, resolution="inferred"))
            else:
                self.out.table_uses.append(TableUse("jooq", "reads", c.caller, c.line, c.col, table=table,
                                                    columns=read_cols + write_cols, resolution="inferred"))

    def _call_node(self, line: int, col: int) -> Node | None:
        """The ``method_invocation`` whose name starts at (line, col)."""
        n = self.root.named_descendant_for_point_range((line - 1, col), (line - 1, col))
        for _ in range(3):
            if n is None:
                return None
            if n.type == "method_invocation":
                name = n.child_by_field_name("name")
                return n if name is not None and name.start_point[0] + 1 == line else None
            n = n.parent
        return None

    def _jooq_evidence(self, node: Node, const: str) -> bool:
        """Whether a call with a name other libraries share (``from``, ``delete``, ``update``,
        ``fetch``, ``join``...) is jOOQ's: its chain holds a DSL call (``select``, ``using``...), its
        innermost receiver is declared a ``DSLContext`` (or is ``DSL``), or the constant comes from a
        generated tables class (a static import of ``...Tables`` / ``...tables``, ``Tables.X``)."""
        obj = node.child_by_field_name("object")
        for _ in range(128):
            if obj is None or obj.type != "method_invocation":
                break
            if self.src.text(obj.child_by_field_name("name")) in _DSL_CHAIN:
                return True
            obj = obj.child_by_field_name("object")
        if obj is not None and obj.type in ("identifier", "field_access"):
            name = self.src.text(obj).rsplit(".", 1)[-1]
            if name == "DSL" or re.search(rf"\bDSLContext\s+{re.escape(name)}\b", self.src.text(self.root)):
                return True
        args = node.child_by_field_name("arguments")
        written = self.src.text(args) if args is not None else ""
        if re.search(rf"\bTables\.{re.escape(const)}\b", written):
            return True
        return any((i.name == const or i.local == "*") and (i.module.endswith(".Tables") or ".tables" in i.module)
                   for i in self.out.imports)

    @staticmethod
    def _outermost(node: Node) -> Node:
        top = node
        for _ in range(128):
            p = top.parent
            if p is not None and p.type == "method_invocation" and p.child_by_field_name("object") == top:
                top = p
                continue
            break
        return top

    def _columns(self, top: Node, const: str, role: str) -> tuple[list[str], list[str]]:
        """Columns ``(written, read)`` the chain under ``top`` names as ``CONST.COLUMN``."""
        pattern = re.compile(rf"(?<![\w.]){re.escape(const)}\.([A-Z][A-Z0-9_]*)\b")
        written: list[str] = []
        read: list[str] = []
        n: Node | None = top
        for _ in range(128):
            if n is None or n.type != "method_invocation":
                break
            name = self.src.text(n.child_by_field_name("name"))
            args = self.src.text(n.child_by_field_name("arguments"))
            into = written if role == "writes" and name in _WRITE_PARTS else read
            for col in pattern.findall(args):
                if col.lower() not in into:
                    into.append(col.lower())
            n = n.child_by_field_name("object")
        return written, [c for c in read if c not in written or role != "writes"]


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's jOOQ table accesses to ``out.table_uses``."""
    if any(i.module.startswith("org.jooq") or i.module.endswith(".Tables") or ".tables" in i.module
           for i in out.imports):
        _Detector(root, src, out).run()
