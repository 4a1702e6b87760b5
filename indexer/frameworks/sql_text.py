"""SQL read with sqlglot, shared by every language's detectors, the ``.sql`` extractor and the linker.

Two questions: which tables a script *declares* (:func:`declared_tables`: ``CREATE TABLE``, ``ALTER
TABLE ... ADD COLUMN``, and the changes a later migration makes: ``DROP TABLE``, ``ALTER TABLE ...
RENAME TO``, ``RENAME COLUMN``, ``DROP COLUMN``) and which tables one statement *reads or writes* (:func:`statement_access`).
Both parse with sqlglot (a maintained parser, not regular expressions). The dialect is guessed from
the text (:func:`guess_dialects`: ``AUTO_INCREMENT`` / backticks -> MySQL, ``SERIAL`` / ``::`` ->
Postgres, ``IDENTITY(`` / ``[x]`` -> T-SQL, ``AUTOINCREMENT`` -> SQLite), then the other dialects
are tried in turn; a statement none of them parses is skipped and counted, never raised.

Bounds: a script over :data:`MAX_SCRIPT_CHARS` or a statement over :data:`MAX_STATEMENT_CHARS` is
not parsed (``too_large``), and at most :data:`MAX_STATEMENTS` statements of a script are read.
Placeholders that are not SQL (MyBatis ``#{x}`` / ``${x}``, Spring ``:name``, JDBC ``?``, Python
``%s`` / ``%(x)s``) are made parseable first (:func:`normalise_placeholders`).

Identity of a table name (:func:`stores.contracts.table_key`, re-exported here): the schema and the name lowercased, quotes dropped;
the default schemas ``public``, ``dbo`` and ``main`` fold into "no schema", so ``public.users``,
``"Users"`` and ``users`` are the same table.
"""

from __future__ import annotations

import functools
import logging
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from indexer.frameworks.sql_dialect import H2, all_dialects, file_dialects, h2_standard_form
from stores.contracts import DEFAULT_SCHEMAS, table_key

# sqlglot (12 MiB of objects once imported) is imported by the functions that parse, when they first
# run: a one-shot run's parent, which extracts nothing, does not hold it beside the child that
# extracts (indexer.forked_resolve), where the child's writes would make every page of it twice held.
if TYPE_CHECKING:
    from sqlglot import exp

__all__ = [
    "MAX_SCRIPT_CHARS",
    "MAX_STATEMENT_CHARS",
    "PARSED_CHARS",
    "PARSED_TEXTS",
    "MAX_STATEMENTS",
    "WIDE_RETRIES",
    "DEFAULT_SCHEMAS",
    "Declared",
    "Access",
    "ScriptTables",
    "guess_dialects",
    "normalise_placeholders",
    "declared_tables",
    "statement_access",
    "looks_like_sql",
    "table_key",
]

log = logging.getLogger(__name__)
logging.getLogger("sqlglot").setLevel(logging.ERROR)  # "unsupported syntax, falling back": counted, not logged per string

MAX_SCRIPT_CHARS = 2_000_000
"""A SQL file longer than this (a data dump) is not parsed: skipped with reason ``too_large``."""
MAX_STATEMENT_CHARS = 100_000
"""One statement longer than this is not parsed (an ``INSERT`` of ten thousand rows)."""
MAX_STATEMENTS = 5_000
"""At most this many statements of one script are read."""
WIDE_RETRIES = 20
"""A script's table statements are retried with every sqlglot dialect until this many failed in all
of them; later ones try only the file's named and guessed dialects (a 600-statement Oracle script
sqlglot cannot read took 71 s with every dialect for each)."""

_DIALECTS = ("postgres", "mysql", "tsql", "sqlite", "oracle", None)
_LEADING = re.compile(r"^\s*(?:--[^\n]*\n\s*|/\*.*?\*/\s*)*(\w+)", re.S)
# CREATE [OR REPLACE] [GLOBAL] [TEMPORARY | UNLOGGED | CACHED ...] TABLE, ALTER TABLE, DROP TABLE: the
# statements that declare or change a table (CREATE USER / DATABASE / INDEX declare none)
_TABLE_HEAD = re.compile(r"\s+(?:\w+\s+){0,4}?TABLE\b", re.I)
_COMMENTS = re.compile(r"\s*(?:--[^\n]*(?:\n|$)\s*|/\*.*?\*/\s*)*", re.S)
_SQL_START = re.compile(
    r"^\s*(?:\(\s*)?(select|insert|update|delete|merge|replace|upsert|with|create|alter|drop|truncate)\b", re.I
)
_SQL_SHAPE = {
    "select": re.compile(r"\bfrom\b", re.I), "insert": re.compile(r"\binto\b", re.I),
    "update": re.compile(r"\bset\b", re.I), "delete": re.compile(r"\bfrom\b|^\s*delete\s+\w", re.I),
    "merge": re.compile(r"\binto\b", re.I), "replace": re.compile(r"\binto\b", re.I),
    "upsert": re.compile(r"\binto\b", re.I), "with": re.compile(r"\bselect|insert|update|delete\b", re.I),
    "create": re.compile(r"\btable\b", re.I), "alter": re.compile(r"\btable\b", re.I),
    "drop": re.compile(r"\btable\b", re.I), "truncate": re.compile(r"\w", re.I),
}
_MYBATIS = re.compile(r"[#$]\{[^{}]*\}")
_SPEL = re.compile(r"[?:]#\{[^{}]*\}")  # Spring Data JPQL ``?#{authentication.name}``
_JOIN_FETCH = re.compile(r"\bjoin\s+fetch\b", re.I)  # JPQL ``left join fetch a.b``: a join
# JPQL / HQL constructor expression ``select new com.x.Dto(v.a, count(v.id)) from ...``: its arguments are the
# selected expressions (read as a function's, so each column still counts)
_SELECT_NEW = re.compile(r"\b(select\s+(?:distinct\s+)?)new\s+[A-Za-z_$][\w$]*(?:\s*\.\s*[A-Za-z_$][\w$]*)*\s*\(", re.I)
_NAMED = re.compile(r"(?<![:\w]):[A-Za-z_]\w*")
_PYFORMAT = re.compile(r"%\(\w+\)s|%s")
_DOLLAR_N = re.compile(r"\$\d+")


@dataclass(frozen=True, slots=True)
class Declared:
    """A table a script declares: ``name`` / ``schema`` as spelled (unquoted), ``columns`` ``(name,
    type)`` in order, ``line`` the 1-based line of the statement in the script, ``alter`` for an
    ``ALTER TABLE ... ADD``. ``change``: ``None`` for a declaration (``CREATE`` / ``ADD``), else
    ``drop`` (``DROP TABLE``), ``rename`` (``renamed`` = ``(old, new)`` table names),
    ``rename_column`` (``renamed`` = ``(old, new)`` column names) or ``drop_column`` (``columns``
    the dropped ones, types ``None``)."""

    name: str
    schema: str | None
    columns: tuple[tuple[str, str | None], ...]
    line: int
    alter: bool = False
    change: str | None = None
    renamed: tuple[str, str] | None = None


@dataclass(frozen=True, slots=True)
class Access:
    """One table a statement reads or writes: ``role`` ``reads`` | ``writes``, the table's ``name`` /
    ``schema``, and the ``columns`` the statement names for that table (sorted; empty: unknown)."""

    role: str
    name: str
    schema: str | None
    columns: tuple[str, ...] = ()


@dataclass(slots=True)
class ScriptTables:
    """What :func:`declared_tables` found: the tables, and the statements it skipped by reason
    (``unparsed``, ``too_large``, ``too_many``)."""

    tables: list[Declared] = field(default_factory=list)
    skipped: dict[str, int] = field(default_factory=dict)
    unparsed: list[tuple[int, str]] = field(default_factory=list)
    """``(line, reason)`` of each statement no dialect parsed (the reason: sqlglot's message for the
    file's first dialect)."""


def guess_dialects(text: str) -> tuple[str | None, ...]:
    """The sqlglot dialects to try for ``text``, the most likely first (then every other one, and
    sqlglot's generic dialect, ``None``, last)."""
    upper = text[:20_000].upper()
    first: str | None = None
    if "AUTO_INCREMENT" in upper or "`" in text[:20_000] or "ENGINE=" in upper.replace(" ", ""):
        first = "mysql"
    elif "SERIAL" in upper or "::" in text[:20_000] or "BIGSERIAL" in upper or "JSONB" in upper:
        first = "postgres"
    elif "IDENTITY(" in upper.replace(" ", "") or "NVARCHAR" in upper or re.search(r"\[\w+\]", text[:20_000]):
        first = "tsql"
    elif "AUTOINCREMENT" in upper:
        first = "sqlite"
    elif "VARCHAR2" in upper or "NUMBER(" in upper:
        first = "oracle"
    rest = tuple(d for d in _DIALECTS if d != first)
    return (first, *rest) if first else rest


def normalise_placeholders(sql: str) -> str:
    """``sql`` with parameter markers sqlglot may not read replaced by ``?``: MyBatis ``#{x}`` and
    ``${x}``, Spring / JPA ``:name`` and SpEL ``?#{x}``, Python ``%s`` and ``%(name)s``, Postgres
    ``$1``; and JPQL's ``join fetch`` read as a ``join``, its constructor expression ``select new
    com.x.Dto(a, b)`` as a function of the same arguments (``select coalesce(a, b)``)."""
    sql = _SPEL.sub("?", sql)
    sql = _JOIN_FETCH.sub("join", sql)
    sql = _SELECT_NEW.sub(r"\1coalesce(", sql)
    sql = _MYBATIS.sub("?", sql)
    sql = _PYFORMAT.sub("?", sql)
    sql = _DOLLAR_N.sub("?", sql)
    return _NAMED.sub("?", sql)


def looks_like_sql(text: str) -> bool:
    """Whether ``text`` starts like a SQL statement *and* has that statement's shape (``select``
    needs a ``from``, ``insert`` an ``into``, ``update`` a ``set``): ``"select a file"`` does not.
    Comments before the statement are skipped (sqlc's ``-- name: GetUser :one`` header)."""
    skipped = _COMMENTS.match(text).end()  # always matches (possibly empty)
    if skipped:
        text = text[skipped:]
    m = _SQL_START.match(text)
    if m is None:
        return False
    return bool(_SQL_SHAPE[m.group(1).lower()].search(text, m.end()))


def _parse(sql: str, dialects: tuple[str | None, ...]) -> list[exp.Expression] | None:
    import sqlglot
    from sqlglot import exp
    from sqlglot.errors import SqlglotError

    for d in dialects:
        try:
            found = [e for e in sqlglot.parse(sql, read=d) if e is not None]
        except (SqlglotError, RecursionError, ValueError, KeyError, TypeError, AttributeError):
            continue
        if found and not any(isinstance(e, exp.Command) for e in found):
            return found
    return None


def _split(text: str) -> list[tuple[str, int]]:
    """Statements of a script with their 1-based start lines: split at ``;`` outside quotes and
    comments by sqlglot's tokenizer (one pass, no parse); a script the tokenizer refuses is split at
    ``;`` line ends."""
    import sqlglot
    from sqlglot.errors import SqlglotError

    try:
        tokens = sqlglot.tokenize(text)
    except (SqlglotError, RecursionError, ValueError):
        out, start, line = [], 0, 1
        for m in re.finditer(r";[ \t]*(?:\n|$)", text):
            out.append((text[start:m.start()], line))
            line += text.count("\n", start, m.end())
            start = m.end()
        out.append((text[start:], line))
        return [(s, n) for s, n in out if s.strip()]
    out: list[tuple[str, int]] = []
    start = 0
    line = 1
    for tok in tokens:
        if tok.token_type == sqlglot.TokenType.SEMICOLON:
            end = tok.end
            out.append((text[start:end], line + _leading_newlines(text, start, end)))
            line += text.count("\n", start, end + 1)
            start = end + 1
    if text[start:].strip():
        out.append((text[start:], line + _leading_newlines(text, start, len(text))))
    return [(s, n) for s, n in out if s.strip()]


def _leading_newlines(text: str, start: int, end: int) -> int:
    i = start
    n = 0
    while i < end and text[i] in " \t\r\n":
        n += text[i] == "\n"
        i += 1
    return n


def _type_text(kind: exp.Expression | None) -> str | None:
    from sqlglot.errors import SqlglotError

    if kind is None:
        return None
    try:
        return kind.sql().lower()
    except (SqlglotError, ValueError):  # pragma: no cover - defensive
        return None


def declared_tables(text: str, path: str | None = None) -> ScriptTables:
    """Tables declared by a SQL script (a migration, a ``schema.sql``): every ``CREATE TABLE`` with
    its columns, every ``ALTER TABLE ... ADD [COLUMN]`` as an ``alter`` entry, and the schema
    changes ``DROP TABLE``, ``ALTER TABLE ... RENAME TO`` / ``RENAME COLUMN`` / ``DROP COLUMN`` as
    entries with a ``change`` (:class:`Declared`). Other statements (``INSERT``, ``CREATE INDEX``)
    declare nothing, and statements on other objects (``CREATE USER``, ``ALTER DATABASE``,
    ``CREATE INDEX``) are not parsed. The dialects tried: the one the file names (``path``, a hint
    comment: :func:`indexer.frameworks.sql_dialect.file_dialects`), those its keywords suggest, then
    every dialect sqlglot has (for the first :data:`WIDE_RETRIES` statements that fail). Never
    raises: a table statement no dialect parses is counted in ``skipped`` and listed in
    ``unparsed`` with its line and reason."""
    out = ScriptTables()
    if len(text) > MAX_SCRIPT_CHARS:
        out.skipped["too_large"] = 1
        return out
    named = file_dialects(path, text)
    guessed = guess_dialects(text)
    short = tuple(dict.fromkeys((*(d for d in named if d != H2), *guessed)))
    wide = tuple(dict.fromkeys((*short, *all_dialects())))
    statements = _split(text)
    if len(statements) > MAX_STATEMENTS:
        out.skipped["too_many"] = len(statements) - MAX_STATEMENTS
        statements = statements[:MAX_STATEMENTS]
    for sql, line in statements:
        m = _LEADING.match(sql)
        word = m.group(1).lower() if m else ""
        if word not in ("create", "alter", "drop") or not _TABLE_HEAD.match(sql, m.end(1)):
            continue
        line += sql.count("\n", len(sql) - len(sql.lstrip()), m.start(1)) if m else 0  # not its leading comments' line'
        if len(sql) > MAX_STATEMENT_CHARS:
            out.skipped["too_large"] = out.skipped.get("too_large", 0) + 1
            continue
        dialects = wide if out.skipped.get("unparsed", 0) < WIDE_RETRIES else short
        h2 = h2_standard_form(sql)
        parsed = _parse(h2, (None, *dialects)) if h2 is not None and H2 in named else None
        parsed = parsed or _parse(sql, dialects) or (_parse(h2, (None, *dialects)) if h2 is not None else None)
        if parsed is None:
            out.skipped["unparsed"] = out.skipped.get("unparsed", 0) + 1
            out.unparsed.append((line, _reason(sql, dialects[0])))
            continue
        for e in parsed:
            out.tables.extend(_declared(e, line))
    return out


def _reason(sql: str, dialect: str | None) -> str:
    """Why ``sql`` does not parse in ``dialect``: sqlglot's first error (its message's first line,
    at most 120 characters), or "read only as an opaque command" when sqlglot's parse of it is a
    ``Command``."""
    import sqlglot
    from sqlglot.errors import SqlglotError

    try:
        sqlglot.parse(sql, read=dialect)
    except (SqlglotError, RecursionError, ValueError, KeyError, TypeError, AttributeError) as exc:
        errors = getattr(exc, "errors", None)
        text = str(errors[0].get("description") or exc) if errors else str(exc)
        text = re.sub(r"<Token token_type: \S+, text: (.*?), line: .*?>", r"'\1'", text)
        return " ".join(text.split())[:120]
    return "read only as an opaque command (syntax sqlglot does not support)"


def _declared(e: exp.Expression, line: int) -> list[Declared]:
    from sqlglot import exp

    if isinstance(e, exp.Create) and (e.args.get("kind") or "").upper() == "TABLE":
        target = e.this
        table = target.this if isinstance(target, exp.Schema) else target
        if not isinstance(table, exp.Table) or not table.name:
            return []
        cols: list[tuple[str, str | None]] = []
        if isinstance(target, exp.Schema):
            for c in target.expressions:
                if isinstance(c, exp.ColumnDef) and c.name:
                    cols.append((c.name, _type_text(c.args.get("kind"))))
        return [Declared(table.name, table.db or None, tuple(cols), line)]
    if isinstance(e, exp.Drop) and (e.args.get("kind") or "").upper() == "TABLE":
        return [Declared(t.name, t.db or None, (), line, change="drop")
                for t in e.args.get("tables") or [] if isinstance(t, exp.Table) and t.name]
    if isinstance(e, exp.Alter) and (e.args.get("kind") or "").upper() == "TABLE":
        table = e.this
        if not isinstance(table, exp.Table) or not table.name:
            return []
        out: list[Declared] = []
        name, schema = table.name, table.db or None
        actions = e.args.get("actions") or []
        cols = [(c.name, _type_text(c.args.get("kind"))) for c in actions if isinstance(c, exp.ColumnDef) and c.name]
        if cols:
            out.append(Declared(name, schema, tuple(cols), line, alter=True))
        for a in actions:
            if isinstance(a, exp.Drop) and (a.args.get("kind") or "").upper() == "COLUMN":
                dropped = tuple((c.name, None) for c in a.args.get("tables") or [] if isinstance(c, exp.Column) and c.name)
                if dropped:
                    out.append(Declared(name, schema, dropped, line, alter=True, change="drop_column"))
            elif isinstance(a, exp.RenameColumn) and a.this is not None and a.args.get("to") is not None:
                old, new = a.this.name, a.args["to"].name
                if old and new:
                    out.append(Declared(name, schema, (), line, alter=True, change="rename_column", renamed=(old, new)))
            elif isinstance(a, exp.AlterRename) and isinstance(a.this, exp.Table) and a.this.name:
                out.append(Declared(name, schema, (), line, alter=True, change="rename", renamed=(name, a.this.name)))
        return out
    return []


def statement_access(sql: str, dialect: str | None = None) -> list[Access] | None:
    """The tables one SQL statement (or a few, ``;``-separated) reads and writes, ``None`` when it
    is not SQL sqlglot can parse (then nothing is claimed: a string that merely starts with
    ``select`` is no table access). ``INSERT`` / ``UPDATE`` / ``DELETE`` / ``MERGE`` / ``TRUNCATE``
    write their target (columns: the insert list, the ``SET`` targets); tables in ``FROM``, joins and
    sub-queries are read (columns: those qualified by the table or its alias, and unqualified ones
    when only one table is read). CTE names are not tables. Order: writes first, then reads, each by
    name. The answers for the last :data:`PARSED_TEXTS` texts of at most :data:`PARSED_CHARS`
    characters are kept (a link that runs again meets the same statements: sqlglot's parse was a
    fifth of a Django link that ran again)."""
    found = _kept_access(sql, dialect) if len(sql) <= PARSED_CHARS else _statement_access(sql, dialect)
    return None if found is None else list(found)


PARSED_TEXTS = 1_024
PARSED_CHARS = 2_000
"""At most :data:`PARSED_TEXTS` statements of at most this many characters have their answers kept by
:func:`statement_access`: a few MiB at worst."""


def _statement_access(sql: str, dialect: str | None) -> tuple[Access, ...] | None:
    if len(sql) > MAX_STATEMENT_CHARS or not looks_like_sql(sql):
        return None
    text = normalise_placeholders(sql)
    dialects = (dialect, *(d for d in guess_dialects(text) if d != dialect)) if dialect else guess_dialects(text)
    parsed = _parse(text, dialects)
    if parsed is None:
        return None
    found: dict[tuple[str, str, str | None], set[str]] = {}
    for e in parsed:
        _access(e, found)
    return tuple(Access(role, name, schema, tuple(sorted(cols)))
                 for (role, name, schema), cols in sorted(found.items(), key=lambda kv: (kv[0][0] != "writes", kv[0][1].lower())))


_kept_access = functools.lru_cache(maxsize=PARSED_TEXTS)(_statement_access)


def _dropped_name(t: exp.Table) -> bool:
    """Whether ``t`` is the name a ``DROP`` of something other than a table or view drops: sqlglot
    parses ``ALTER TABLE documents DROP CONSTRAINT "x_fkey"`` and ``DROP INDEX x_idx`` with the
    constraint's or index's name as a ``Table``, which is no table the statement touches."""
    from sqlglot import exp

    p = t.parent
    return isinstance(p, exp.Drop) and str(p.args.get("kind") or "").upper() not in ("TABLE", "VIEW", "")


def _access(e: exp.Expression, found: dict[tuple[str, str, str | None], set[str]]) -> None:
    from sqlglot import exp

    ctes = {c.alias_or_name.lower() for c in e.find_all(exp.CTE)}
    written: exp.Table | None = None
    write_cols: set[str] = set()
    if isinstance(e, (exp.Insert, exp.Update, exp.Delete, exp.Merge, exp.TruncateTable)):
        target = e.this
        if isinstance(e, exp.TruncateTable) and e.expressions:
            target = e.expressions[0]
        if isinstance(target, exp.Schema):
            write_cols = {c.name for c in target.expressions if isinstance(c, (exp.Identifier, exp.Column)) and c.name}
            target = target.this
        if isinstance(target, exp.Table) and target.name:
            written = target
            if isinstance(e, exp.Update):
                for s in e.expressions:
                    if isinstance(s, exp.EQ) and isinstance(s.this, exp.Column):
                        write_cols.add(s.this.name)
            found.setdefault(("writes", target.name, target.db or None), set()).update(write_cols)
    aliases: dict[str, tuple[str, str | None]] = {}
    reads: list[exp.Table] = []
    for t in e.find_all(exp.Table):
        if t is written or not t.name or t.name.lower() in ctes or _dropped_name(t):
            continue
        reads.append(t)
        aliases[(t.alias or t.name).lower()] = (t.name, t.db or None)
    if written is not None:
        aliases.setdefault((written.alias or written.name).lower(), (written.name, written.db or None))
    for t in reads:
        found.setdefault(("reads", t.name, t.db or None), set())
    read_names = {(t.name, t.db or None) for t in reads}
    explicit = {t.alias.lower() for t in reads if t.alias}
    set_targets = {id(s.this) for s in (e.expressions if isinstance(e, exp.Update) else [])
                   if isinstance(s, exp.EQ)}
    for c in e.find_all(exp.Column):
        if not c.name or c.name == "*" or id(c) in set_targets:
            continue
        if not c.table and c.name.lower() in aliases and (c.name.lower() not in {n.lower() for n, _ in read_names}
                                                          or c.name.lower() in explicit):
            continue  # ``SELECT o FROM Owner o``, ``select bankAccount from BankAccount bankAccount``: the alias
        if c.table:
            owner = aliases.get(c.table.lower())
            if owner is not None and owner in read_names:
                found[("reads", owner[0], owner[1])].add(c.name)
        elif len(read_names) == 1 and written is None:
            (name, schema), = read_names
            found[("reads", name, schema)].add(c.name)
        elif written is not None and not read_names and not isinstance(e, exp.Insert):
            # WHERE columns of a single-table UPDATE / DELETE: the row is read to be written
            found.setdefault(("reads", written.name, written.db or None), set()).add(c.name)
