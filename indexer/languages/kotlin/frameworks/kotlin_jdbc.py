"""Spring JDBC written in Kotlin -> SQL :class:`~indexer.model.TableUse` facts (framework ``jdbc``, role
``sql``), as Java's ``jpa_data`` gives them: the linker parses the SQL once constants are known and
makes READS / WRITES edges.

A call of ``query*``, ``update``, ``batchUpdate``, ``execute`` or ``sql`` (:data:`JDBC_METHODS`) on a
receiver whose declared type (property, constructor property, parameter, local) is a ``JdbcTemplate``,
``NamedParameterJdbcTemplate``, ``JdbcClient``, one of their ``*Operations`` interfaces or Spring R2DBC's
``DatabaseClient`` (the reactive and coroutine services' ``databaseClient.sql("...")``; :data:`JDBC_TYPES`): its first argument is the SQL. The argument is a string (``$name`` / ``${a.b}``
pieces are references the linker fills from constants, anything else a hole), a raw string with its
``.trimIndent()`` / ``.trimMargin()`` / ``.trim()`` (whitespace SQL ignores), or a local ``val`` of
the function holding one (``val sql = <raw string>.trimIndent()``; a ``var`` or a value of any
other kind is no SQL known here). A receiver of any other type gives nothing.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from indexer.languages.kotlin.frameworks.common import declared_type, local_val, string_arg, template
from indexer.model import FileExtraction, TableUse, Template

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["JDBC_METHODS", "JDBC_TYPES", "LANGUAGES", "detect"]

LANGUAGES = ("kotlin",)
JDBC_TYPES = frozenset({"JdbcTemplate", "NamedParameterJdbcTemplate", "JdbcClient", "JdbcOperations",
                        "NamedParameterJdbcOperations", "DatabaseClient"})
"""Spring's JDBC clients, and R2DBC's ``DatabaseClient`` (``databaseClient.sql("SELECT ...")``), by simple name."""
JDBC_METHODS = frozenset({"query", "queryForObject", "queryForList", "queryForMap", "queryForRowSet",
                          "queryForStream", "update", "batchUpdate", "execute", "sql"})
"""Their methods whose first argument is SQL."""
_TRIMS = frozenset({"trimIndent", "trimMargin", "trim"})
_MAX_HOPS = 4


def _callee_name(call: Node) -> Node | None:
    """The name node of ``a.b(...)``'s ``b`` (``None``: the callee is no member access)."""
    nav = call.named_children[0] if call.named_children else None
    if nav is None or nav.type != "navigation_expression":
        return None
    suffix = nav.named_children[-1] if nav.named_children else None
    if suffix is None or suffix.type != "navigation_suffix" or not suffix.named_children:
        return None
    return suffix.named_children[-1]


def _sql(src: SourceText, node: Node | None, hops: int = 0) -> Template | None:
    """The SQL an argument holds (see the module docstring); ``None`` when it is none known here."""
    if node is None or hops > _MAX_HOPS:
        return None
    if node.type in ("string_literal", "multiline_string_literal"):
        return template(src, node)
    if node.type == "parenthesized_expression" and node.named_children:
        return _sql(src, node.named_children[0], hops + 1)
    if node.type == "call_expression":
        name = _callee_name(node)
        args = string_arg(src, node, 0)
        if name is not None and src.text(name) in _TRIMS and args is None:
            return _sql(src, node.named_children[0].named_children[0], hops + 1)
        return None
    if node.type == "simple_identifier":
        return _sql(src, local_val(src, node, src.text(node)), hops + 1)
    return None


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's Spring JDBC statements to ``out.table_uses``."""
    if not any(t.encode() in src.data for t in JDBC_TYPES):
        return
    sites = {(c.line, c.col): c for c in out.calls if c.name in JDBC_METHODS and c.receiver and c.arity >= 1}
    if not sites:
        return
    stack = [root]
    while stack:
        n = stack.pop()
        stack.extend(n.named_children)
        if n.type != "call_expression":
            continue
        name = _callee_name(n)
        site = sites.get((src.line(name), src.col(name))) if name is not None else None
        if site is None:
            continue
        recv = (site.receiver or "").removeprefix("this.")
        declared = declared_type(out, site.caller, recv) if recv.isidentifier() else None
        if declared is None or declared.split("<", 1)[0].strip().rstrip("?").rpartition(".")[2] not in JDBC_TYPES:
            continue
        sql = _sql(src, string_arg(src, n, 0))
        if sql is not None and sql.parts:
            out.table_uses.append(TableUse("jdbc", "sql", site.caller, site.line, site.col, sql=sql))
    out.table_uses.sort(key=lambda u: (u.line, u.col))
