"""SQL files cut into statements with sqlglot's tokenizer (strings, quoted names and comments as the
SQL dialects write them, so a ``;`` inside a string does not cut), each statement parsed by sqlglot
to tell DDL from the rest:

* a migration (Flyway ``V1__init.sql`` / ``U2__x.sql`` / ``R__views.sql``, or any ``.sql`` file under a
  ``migration``, ``migrations``, ``changelog`` or ``changelogs`` folder) is one piece, named by its
  file (windows of :data:`indexer.content.pieces.SECTION_LINES` lines when longer);
* elsewhere (``schema.sql``) one piece per DDL statement (``CREATE`` / ``ALTER`` / ``DROP`` /
  ``TRUNCATE`` / ``COMMENT``), named by the object it defines (``owners``, ``idx_owners_last_name``),
  the comments above it included; consecutive other statements (``INSERT``s of seed data) are one
  piece named by the file.

A file the tokenizer refuses (not SQL, an unterminated string) is cut into windows of lines.
"""

from __future__ import annotations

import bisect
import logging
import posixpath
import re
from collections.abc import Callable

from indexer.content.pieces import Piece, windows
from indexer.frameworks.sql_dialect import is_migration

__all__ = ["statements", "is_migration"]

# sqlglot warns (on the root handler: the CLI's stderr) for every statement it parses as an opaque
# Command (MySQL's ALTER DATABASE ... CHARACTER SET): such a statement is still chunked, by its words.
logging.getLogger("sqlglot").setLevel(logging.ERROR)

_DDL = ("CREATE", "ALTER", "DROP", "TRUNCATE", "COMMENT", "RENAME")


def statements(path: str, text: str, limit: int | None = None) -> list[Piece]:
    """The pieces of one ``.sql`` file (see the module docstring); with ``limit``, no statement past the
    first ``limit`` pieces is parsed (the caller keeps that many)."""
    lines = text.split("\n")
    if lines and lines[-1] == "":
        lines.pop()
    name = posixpath.basename(path)
    if is_migration(path):
        return windows(name, lines, 1, len(lines))
    try:
        spans = _split(text)
    except Exception:  # noqa: BLE001 - sqlglot's TokenError and friends: not SQL it can read
        return windows(name, lines, 1, len(lines))
    out: list[Piece] = []
    rest: list[tuple[int, int]] = []
    _line = _line_of(text)

    def flush() -> None:
        if rest:
            out.extend(windows(name, lines, _line(rest[0][0]), _line(rest[-1][1])))
            rest.clear()

    for start, end, head in spans:
        if limit is not None and len(out) > limit:
            break
        if head.upper() in _DDL:
            flush()
            s, e = _line(start), _line(end)
            out.append(Piece(_object_name(text[start:end + 1]) or name, s, e, "\n".join(lines[s - 1:e]).strip("\n")))
        else:
            rest.append((start, end))
    flush()
    return out


def _line_of(text: str) -> Callable[[int], int]:
    """``line(offset)``: the 1-based line of a character offset of ``text``, by bisection over the
    newline offsets (counting from the start for each statement was quadratic: 37 s for a 1 MB file
    of 80,000 statements)."""
    newlines = [m.start() for m in re.finditer("\n", text)]
    return lambda offset: bisect.bisect_left(newlines, offset) + 1


def _split(text: str) -> list[tuple[int, int, str]]:
    """``[(start, end, first keyword)]``: character offsets (inclusive) of each statement, a statement's
    start moved back over the comment lines right above it."""
    from sqlglot.tokens import Tokenizer, TokenType

    out = []
    first = None
    last = -1
    prev_end = -1
    for tok in Tokenizer().tokenize(text):
        if first is None:
            first = tok
        last = tok.end
        if tok.token_type == TokenType.SEMICOLON:
            out.append((_with_comments(text, prev_end, first.start), last, first.text))
            prev_end, first = last, None
    if first is not None:
        out.append((_with_comments(text, prev_end, first.start), last, first.text))
    return [s for s in out if s[2] != ";"]


def _with_comments(text: str, prev_end: int, start: int) -> int:
    """``start`` moved back to the first non-blank line after ``prev_end`` (comments above a statement)."""
    between = text[prev_end + 1:start]
    skipped = len(between) - len(between.lstrip())
    return prev_end + 1 + skipped


def _object_name(statement: str) -> str | None:
    """The name of what a DDL statement defines (table, index, view...), by sqlglot's parse."""
    import sqlglot
    from sqlglot import exp

    try:
        tree = sqlglot.parse_one(statement)
    except Exception:  # noqa: BLE001 - a dialect sqlglot does not know: name it by its words
        words = re.findall(r"[\w.\"`]+", statement)
        return words[2].strip('"`') if len(words) > 2 else None
    if tree is None:
        return None
    target = tree.this if isinstance(tree, (exp.Create, exp.Alter, exp.Drop)) else tree.find(exp.Table)
    if isinstance(target, exp.Schema):
        target = target.this
    if isinstance(target, exp.Table):
        return target.name
    if isinstance(target, exp.Expression) and target.name:
        return target.name
    table = tree.find(exp.Table)  # an index without a name (CREATE INDEX ON vets(last_name)): its table
    return table.name if table is not None and table.name else None
