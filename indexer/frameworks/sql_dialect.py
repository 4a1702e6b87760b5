"""Which SQL dialect a ``.sql`` file is written in, from what the file itself says, and the forms of
H2 (which sqlglot has no dialect for) rewritten into the standard order.

Evidence, strongest first (:func:`file_dialects`):

* a hint comment in the first lines: ``-- dialect: mysql`` (also ``-- sql-dialect:``, ``-- database:``);
* the path: a folder or a file-name part naming a database, as Spring Boot's
  ``spring.sql.init.platform`` convention (``schema-${platform}.sql``, ``data-h2.sql``) and the
  per-vendor folders of many applications (``db/h2/schema.sql``, ``db/mysql/``, ``db/postgres/``,
  Flyway's ``db/migration/postgresql/``) spell it;
* vendor keywords in the text (:func:`indexer.frameworks.sql_text.guess_dialects`).

A statement the chosen dialects do not parse is retried with every dialect sqlglot has
(:func:`all_dialects`) before it is called broken.

H2 (the embedded database of Spring samples and tests) accepts ``IF EXISTS`` after the names of a
``DROP`` (``DROP TABLE vets IF EXISTS``, H2's grammar: ``DROP TABLE [IF EXISTS] name [,...] [IF
EXISTS] [RESTRICT | CASCADE]``) and renames a column by ``ALTER TABLE t ALTER COLUMN a RENAME TO b``
(HSQLDB too); :func:`h2_standard_form` writes both in the standard form every other dialect reads.
"""

from __future__ import annotations

import functools
import posixpath
import re

__all__ = ["all_dialects", "H2", "file_dialects", "h2_standard_form", "is_migration", "is_history_step"]

H2 = "h2"
"""The pseudo-dialect of H2 / HSQLDB files: parsed as sqlglot's generic dialect after
:func:`h2_standard_form`."""


@functools.cache
def all_dialects() -> tuple[str | None, ...]:
    """Every dialect sqlglot has that reads SQL DDL (PRQL, DAX, Tableau and Solr are query languages of
    their own), in sqlglot's order. (sqlglot is imported on the first call, not with this module:
    :mod:`indexer.frameworks.sql_text`.)"""
    import sqlglot.dialects

    return tuple(d.value for d in sqlglot.dialects.Dialects if d.value and d.value not in ("prql", "dax", "tableau", "solr"))


_NAMES = {
    "h2": H2, "hsqldb": H2, "hsql": H2,
    "mysql": "mysql", "mariadb": "mysql",
    "postgres": "postgres", "postgresql": "postgres", "pg": "postgres", "pgsql": "postgres",
    "oracle": "oracle", "sqlserver": "tsql", "mssql": "tsql", "tsql": "tsql", "sqlite": "sqlite",
    "db2": None, "snowflake": "snowflake", "redshift": "redshift", "bigquery": "bigquery",
    "clickhouse": "clickhouse", "duckdb": "duckdb", "trino": "trino", "presto": "presto",
}
_HINT = re.compile(r"^\s*--\s*(?:sql[-_ ]?)?(?:dialect|database|platform)\s*[:=]\s*([\w-]+)", re.I | re.M)
_WORDS = re.compile(r"[a-z0-9]+")
_H2_DROP = re.compile(r"^(\s*(?:--[^\n]*\n\s*)*DROP\s+(?:TABLE|VIEW|SEQUENCE|INDEX)\s+)(?!IF\b)(?=\S)", re.I)
"""The head of a ``DROP`` whose names do not start with ``IF``; the trailing ``IF EXISTS`` is
:data:`_H2_IF_EXISTS`, searched after it (one pattern ``([^;]*?)\\s+IF\\s+EXISTS`` backtracked over
every blank of a run at every position it tried: 16,000 blanks in one statement took 14 s)."""
_H2_IF_EXISTS = re.compile(r"(?<!\s)\s+IF\s+EXISTS\b|;", re.I)
"""The first ``IF EXISTS`` after the names (its blanks matched from the start of their run only, so a
run is read once) or the ``;`` that ends the statement first."""

_H2_RENAME_COLUMN = re.compile(
    r"^(\s*(?:--[^\n]*\n\s*)*ALTER\s+TABLE\s+[\w.\"`]+\s+)ALTER\s+COLUMN\s+([\w\"`]+)\s+RENAME\s+TO\s+([\w\"`]+)", re.I
)

_FLYWAY = re.compile(r"[VU]\d[\w.]*__.+\.sql|R__.+\.sql", re.IGNORECASE)
_MIGRATION_DIRS = {"migration", "migrations", "changelog", "changelogs"}
_VERSIONED = re.compile(r"[VU]?\d", re.IGNORECASE)


def is_migration(path: str) -> bool:
    """Whether the ``.sql`` file at ``path`` is a migration: a Flyway name (``V1__init.sql``,
    ``U2__x.sql``, ``R__views.sql``) or any file under a ``migration``, ``migrations``, ``changelog``
    or ``changelogs`` folder. Other scripts (``schema.sql``, ``schema-drop-h2.sql``) stand alone."""
    parts = path.lower().split("/")
    return bool(_FLYWAY.fullmatch(posixpath.basename(path))) or bool(_MIGRATION_DIRS.intersection(parts[:-1]))


def is_history_step(path: str) -> bool:
    """Whether the ``.sql`` file at ``path`` is one step of a migration history, whose changes
    (``DROP TABLE``, renames) apply to the tables earlier steps declared: a migration
    (:func:`is_migration`) or a file named by a version (``V1.sql``, ``0002_add_email.sql``,
    ``20240101120000_init.sql``: golang-migrate, dbmate, sqlx and hand-numbered scripts)."""
    return is_migration(path) or bool(_VERSIONED.match(posixpath.basename(path)))


def file_dialects(path: str | None, text: str) -> tuple[str, ...]:
    """The dialects the file at ``path`` names for itself (at most one, or ``()`` when it says
    nothing): a hint comment in the first 2,000 characters first, else the nearest path part (file
    name words, then folders from the innermost out) naming a known database. Values are sqlglot
    dialect names or :data:`H2`. ``path`` may be ``None`` (text only)."""
    m = _HINT.search(text[:2_000])
    if m and m.group(1).lower() in _NAMES and _NAMES[m.group(1).lower()]:
        return (_NAMES[m.group(1).lower()],)
    if not path:
        return ()
    parts = path.replace("\\", "/").lower().split("/")
    stem = posixpath.splitext(parts[-1])[0]
    for part in (stem, *reversed(parts[:-1])):
        for word in _WORDS.findall(part):
            if _NAMES.get(word):
                return (_NAMES[word],)
    return ()


def h2_standard_form(sql: str) -> str | None:
    """``sql`` with H2's trailing ``IF EXISTS`` of a ``DROP`` moved before the names (``DROP TABLE
    vets IF EXISTS`` -> ``DROP TABLE IF EXISTS vets``) and H2 / HSQLDB's column rename in the
    standard form (``ALTER TABLE t ALTER COLUMN a RENAME TO b`` -> ``ALTER TABLE t RENAME COLUMN a TO
    b``), or ``None`` when ``sql`` has no H2-only form."""
    m = _H2_DROP.match(sql)
    tail = _H2_IF_EXISTS.search(sql, m.end()) if m is not None else None
    if m is not None and tail is not None and tail.group(0) != ";" and tail.start() > m.end():
        return f"{m.group(1)}IF EXISTS {sql[m.end():tail.start()]}{sql[tail.end():]}"
    m = _H2_RENAME_COLUMN.match(sql)
    if m is not None:
        return f"{m.group(1)}RENAME COLUMN {m.group(2)} TO {m.group(3)}{sql[m.end():]}"
    return None
