"""Extractors of schema files: ``.sql`` scripts and ``.prisma`` schemas -> :class:`~indexer.model.TableDef`.

* ``.sql``: every ``CREATE TABLE`` (columns and their types) and ``ALTER TABLE ... ADD COLUMN`` read
  by :func:`indexer.frameworks.sql_text.declared_tables` (sqlglot, the dialect the file's path or a
  ``-- dialect:`` comment names, else guessed, then every dialect); statements no dialect parses, and scripts over the size bounds, are skipped and listed in
  ``errors`` with their reason (``unparsed``, ``too_large``, ``too_many``), never raised.
* ``.prisma``: every ``model`` block is a table named by ``@@map("x")`` or else the model's name; its
  scalar fields are columns (``@map("col")`` renames one); relation fields (typed by another model
  of the file, or lists) are not columns; ``@@schema("s")`` sets the schema. The model's name is the
  entity (``prisma.user.findMany()`` names model ``User`` by its accessor). Prisma's schema
  language is not SQL: it is read by a small tokenizer of its block / line structure.

No definitions: a table is not a code symbol (the linker makes its node).
"""

from __future__ import annotations

import re

from indexer.frameworks import declared_tables
from indexer.model import FileExtraction, TableDef

__all__ = ["SQL_EXTRACTOR", "PRISMA_EXTRACTOR", "SqlExtractor", "PrismaExtractor"]


class SqlExtractor:
    """The :class:`~indexer.languages.base.Extractor` of ``.sql`` files."""

    language = "sql"
    extensions = (".sql",)

    def extract(self, path: str, source: bytes | str) -> FileExtraction:
        """The tables one SQL script declares; never raises on bad input (what was skipped is in
        ``errors`` as ``"line:0: sql: ..."``)."""
        out = FileExtraction(path=path, language=self.language)
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
        try:
            found = declared_tables(text, path)
        except Exception as exc:  # pragma: no cover - defensive: one bad file must not stop a run
            out.errors.append(f"1:0: internal error: {type(exc).__name__}: {exc}")
            return out
        for t in found.tables:
            out.tables.append(TableDef("sql", t.name, t.schema, list(t.columns), t.line, 0, alter=t.alter,
                                       kind=t.change or "table", renamed=t.renamed))
        for reason, n in sorted(found.skipped.items()):
            if reason == "unparsed" and found.unparsed:
                line, why = found.unparsed[0]
                out.errors.append(f"{line}:0: sql: {n} statement(s) skipped: unparsed (line {line}: {why})")
            else:
                out.errors.append(f"1:0: sql: {n} statement(s) skipped: {reason}")
        return out


_BLOCK = re.compile(r"^[ \t]*(model|view)[ \t]+(\w+)[ \t]*\{", re.M)
_ATTR_STR = re.compile(r'@@?(map|schema)\(\s*(?:name\s*:\s*)?"([^"]*)"')


class PrismaExtractor:
    """The :class:`~indexer.languages.base.Extractor` of ``.prisma`` schema files."""

    language = "prisma"
    extensions = (".prisma",)

    def extract(self, path: str, source: bytes | str) -> FileExtraction:
        """The tables (models) of one Prisma schema; never raises."""
        out = FileExtraction(path=path, language=self.language)
        text = source.decode("utf-8", "replace") if isinstance(source, bytes) else source
        blocks: list[tuple[str, int, list[tuple[int, str]]]] = []
        for m in _BLOCK.finditer(text):
            end = text.find("}", m.end())
            if end < 0:
                out.errors.append(f"{text.count(chr(10), 0, m.start()) + 1}:0: prisma: unclosed model {m.group(2)}")
                continue
            first = text.count("\n", 0, m.start()) + 1
            body = text[m.end():end].split("\n")
            blocks.append((m.group(2), first, [(first + i, ln.split("//", 1)[0].strip()) for i, ln in enumerate(body)]))
        models = {name for name, _, _ in blocks}
        for name, line, body in blocks:
            table, schema = name, None
            cols: list[tuple[str, str | None]] = []
            for _, ln in body:
                if not ln:
                    continue
                if ln.startswith("@@"):
                    a = _ATTR_STR.match(ln)
                    if a and a.group(1) == "map":
                        table = a.group(2)
                    elif a and a.group(1) == "schema":
                        schema = a.group(2)
                    continue
                parts = ln.split()
                if len(parts) < 2 or not re.match(r"^\w+$", parts[0]):
                    continue
                ftype = parts[1]
                base = ftype.rstrip("?")
                if base.endswith("[]") or base in models or "@relation" in ln:
                    continue
                col = parts[0]
                mapped = re.search(r'@map\(\s*(?:name\s*:\s*)?"([^"]*)"', ln)
                if mapped:
                    col = mapped.group(1)
                cols.append((col, base))
            out.tables.append(TableDef("prisma", table, schema, cols, line, 0, entity=name))
        return out


SQL_EXTRACTOR = SqlExtractor()
PRISMA_EXTRACTOR = PrismaExtractor()
