"""Raw SQL run by Go code: ``database/sql``, pgx, sqlx, sqlc's generated queries, GORM's ``Raw`` / ``Exec``.

A call ``X.M(args...)`` whose method ``M`` runs a statement (:data:`SQL_METHODS`: ``database/sql``'s
``Query`` / ``QueryRow`` / ``Exec`` / ``Prepare`` and their ``...Context`` forms, which pgx's ``Conn``
and ``Pool`` share with the context first, sqlx's ``Get`` / ``Select`` / ``Queryx`` / ``NamedExec``...,
GORM's ``Raw``) is a :class:`~indexer.model.TableUse` of role ``sql`` when one of its first
:data:`MAX_SQL_ARGUMENT` + 1 arguments is the statement: a string whose text reads as SQL
(:func:`~indexer.frameworks.looks_like_sql`: literals, ``+``, ``fmt.Sprintf`` with each verb a hole,
constants of the file inlined, so sqlc's ``q.db.QueryRow(ctx, createAccount, ...)`` with ``const
createAccount = `-- name: CreateAccount :one INSERT INTO accounts ...``` is one), or a name of another
file's constant named like SQL (``listUsersSQL``, ``QUERY_USERS``: a ``ref`` piece the linker resolves).
The linker parses the statement with sqlglot for the tables it reads and writes (columns too), so a
string that is not SQL, or a call of another ``Get`` (``cache.Get("users")``), claims nothing. The
owner is the enclosing function or method (``Queries.CreateAccount``), which callers reach as any
other method. At most :data:`MAX_PER_FILE` uses per file.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.frameworks import looks_like_sql
from indexer.languages.go.frameworks.common import go_file
from indexer.model import FileExtraction, TableUse

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "MAX_PER_FILE", "MAX_SQL_ARGUMENT", "SQL_METHODS", "detect"]

LANGUAGES = ("go",)

SQL_METHODS = frozenset({
    "Query", "QueryContext", "QueryRow", "QueryRowContext", "Exec", "ExecContext", "Prepare", "PrepareContext",
    "Get", "GetContext", "Select", "SelectContext", "Queryx", "QueryxContext", "QueryRowx", "QueryRowxContext",
    "NamedExec", "NamedExecContext", "NamedQuery", "NamedQueryContext", "MustExec", "MustExecContext",
    "Preparex", "PreparexContext", "Raw",
})
"""Methods of the SQL libraries that take a statement: ``database/sql`` (``DB``, ``Tx``, ``Conn``), pgx
(``Conn``, ``Pool``, ``Tx``), sqlx and GORM."""
MAX_SQL_ARGUMENT = 2
"""The statement is among the first three arguments (after a context and a destination: sqlx's
``GetContext(ctx, &dest, query, args...)``)."""
MAX_PER_FILE = 5_000
_SQL_NAME = re.compile(r"(?-i:^[A-Z][A-Z0-9_]*$)|sql|query|stmt", re.I)
"""A constant of another file is a statement when named like one."""
_STRINGS = frozenset({"interpreted_string_literal", "raw_string_literal", "binary_expression", "call_expression",
                      "identifier", "selector_expression", "parenthesized_expression"})


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's raw SQL uses to ``out.table_uses``."""
    if not any(m.encode() in src.data for m in ("Query", "Exec", "Get", "Select", "Prepare", "Raw")):
        return
    gf = go_file(root, src, out)
    found = 0
    for call in gf.calls:
        fn = call.child_by_field_name("function")
        if fn is None or fn.type != "selector_expression" or gf.text(fn.child_by_field_name("field")) not in SQL_METHODS:
            continue
        for arg in gf.args(call)[:MAX_SQL_ARGUMENT + 1]:
            if arg.type not in _STRINGS:
                continue
            tpl = gf.template(arg)
            if tpl is None or not tpl.parts:
                continue
            if any(k == "lit" for k, _ in tpl.parts):
                if not looks_like_sql("".join(t if k == "lit" else "?" for k, t in tpl.parts)):
                    continue
            elif not (len(tpl.parts) == 1 and tpl.parts[0][0] == "ref"
                      and _SQL_NAME.search(tpl.parts[0][1].rsplit(".", 1)[-1])):
                continue
            line, col = gf.pos(call)
            out.table_uses.append(TableUse("sql", "sql", gf.owner(call), line, col, sql=tpl))
            found += 1
            break
        if found >= MAX_PER_FILE:
            return
