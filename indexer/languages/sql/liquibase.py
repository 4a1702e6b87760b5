"""Liquibase change logs (XML, YAML, JSON) -> :class:`~indexer.model.TableDef` (framework ``liquibase``).

A change log is claimed by its path (:func:`is_changelog_path`: an ``.xml`` / ``.yaml`` / ``.yml`` /
``.json`` file under a ``liquibase``, ``changelog(s)`` or ``changesets`` folder, or whose name holds
``changelog``: ``db/changelog/db.changelog-master.yaml``, JHipster's
``config/liquibase/changelog/*.xml``); a claimed file whose root is not ``databaseChangeLog`` gives
nothing. Liquibase *SQL* change logs (``--liquibase formatted sql``) are ``.sql`` files: the SQL
extractor reads them (their ``--changeset`` / ``--rollback`` lines are comments).

The changes read, in document order, each at the line of its element / key:

* ``createTable`` (``tableName``, ``schemaName``, ``column`` ``name`` / ``type``) declares a table;
* ``addColumn`` declares columns of a table (an ``alter`` entry);
* ``dropTable``, ``renameTable`` (``oldTableName`` -> ``newTableName``), ``renameColumn``
  (``oldColumnName`` -> ``newColumnName``) and ``dropColumn`` (``columnName`` or nested ``column``
  elements) are schema changes (``kind`` ``drop``, ``rename``, ``rename_column``, ``drop_column``)
  the linker replays in migration order (:mod:`indexer.frameworks.schema_history`);
* ``sql`` changes are parsed like a ``.sql`` script (:func:`indexer.frameworks.declared_tables`).

``include`` / ``includeAll`` name other change logs: each is indexed as a file of its own when the
path rule claims it (the usual layout keeps them in the master's folder or below, and ``.sql`` files
are always read); an include the rule does not claim is reported in ``errors`` (not read as a change
log), so nothing is lost silently. A file that
does not parse (malformed XML or YAML) gives an error line, never a crash. XML is read with Python's
expat (no external entity or DTD is fetched, entity expansion bombs are refused).
"""

from __future__ import annotations

import bisect
import json
import posixpath
import re
import xml.etree.ElementTree as ET
from typing import Any

from indexer.frameworks import declared_tables
from indexer.model import FileExtraction, TableDef

__all__ = ["LIQUIBASE_EXTRACTOR", "LiquibaseExtractor", "is_changelog_path"]

_SUFFIXES = (".xml", ".yaml", ".yml", ".json")
_FOLDERS = frozenset({"liquibase", "changelog", "changelogs", "changesets"})
_CHANGES = frozenset({"createTable", "addColumn", "dropTable", "renameTable", "renameColumn", "dropColumn", "sql"})
_MAX_BYTES = 5_000_000


def is_changelog_path(path: str) -> bool:
    """Whether the repository-relative ``path`` may be a Liquibase change log (the module docstring's
    rule: by suffix and folder or file name, not by content)."""
    low = path.lower().replace("\\", "/")
    if not low.endswith(_SUFFIXES):
        return False
    parts = low.split("/")
    return "changelog" in parts[-1] or bool(_FOLDERS.intersection(parts[:-1]))


def _local(tag: object) -> str:
    return tag.rsplit("}", 1)[-1] if isinstance(tag, str) else ""


class _Lines:
    """1-based lines of change elements / keys, found in document order (the parsers used keep no
    positions). Each name's occurrences are found in one pass over the text and looked up by
    bisection, lines by bisection over the newline offsets: linear in the file, whatever its shape
    (a scan from the cursor per lookup was quadratic on long blank runs and minified JSON)."""

    def __init__(self, text: str, yaml: bool) -> None:
        blank = re.compile(r"#[^\n]*" if yaml else r"<!--.*?-->", re.S)  # comments: same lines, no names
        self.text = blank.sub(lambda m: re.sub(r"[^\n]", " ", m.group()), text) if yaml or "<!--" in text else text
        self.yaml, self.pos = yaml, 0
        self.json = yaml and self.text.lstrip().startswith(("{", "["))
        self.newlines = [m.start() for m in re.finditer("\n", self.text)]
        self.found: dict[str, list[tuple[int, int]]] = {}

    def line_of(self, offset: int) -> int:
        """The 1-based line of character ``offset``."""
        return bisect.bisect_left(self.newlines, offset) + 1

    def find(self, name: str) -> int:
        """The line of the next ``name`` element / key after the previous one found (the cursor's line
        when there is none)."""
        spans = self.found.get(name)
        if spans is None:
            key = re.escape(name)
            if self.json:
                pattern = rf"[\"']{key}[\"']\s*:"
            elif self.yaml:
                pattern = rf"(?m)(?:^[ \t-]*|[{{,\[][ \t]*)[\"']?{key}[\"']?[ \t]*:"  # block or flow style
            else:
                pattern = rf"<(?:[\w.-]+:)?{key}\b"
            spans = self.found[name] = [(m.start(), m.end()) for m in re.finditer(pattern, self.text)]
        i = bisect.bisect_left(spans, (self.pos, -1))
        if i == len(spans):
            return self.line_of(self.pos)
        start, self.pos = spans[i]
        return self.line_of(start)


class LiquibaseExtractor:
    """The :class:`~indexer.languages.base.Extractor` of Liquibase change logs (claimed by path)."""

    language = "liquibase"
    extensions: tuple[str, ...] = ()

    def extract(self, path: str, source: bytes | str) -> FileExtraction:
        """The tables and schema changes of one change log; never raises (what does not parse is an
        ``errors`` line ``"1:0: liquibase: ..."``)."""
        out = FileExtraction(path=path, language=self.language)
        data = source.encode("utf-8", "replace") if isinstance(source, str) else source
        if len(data) > _MAX_BYTES:
            out.errors.append(f"1:0: liquibase: file over {_MAX_BYTES} bytes: not read")
            return out
        text = data.decode("utf-8", "replace")
        try:
            if path.lower().endswith(".xml"):
                self._xml(path, data, text, out)
            else:
                self._yaml(path, text, out)
        except (ET.ParseError, ValueError, RecursionError, TypeError) as exc:
            out.errors.append(f"1:0: liquibase: not read: {type(exc).__name__}: {str(exc)[:200]}")
        except Exception as exc:  # noqa: BLE001 - the YAML library's errors, or an odd shape: one file must not stop a run
            out.errors.append(f"1:0: liquibase: not read: {type(exc).__name__}: {str(exc)[:200]}")
        return out

    # -- XML ---------------------------------------------------------------------------------------

    def _xml(self, path: str, data: bytes, text: str, out: FileExtraction) -> None:
        if b"databaseChangeLog" not in data:
            return
        root = ET.fromstring(data)
        if _local(root.tag) != "databaseChangeLog":
            return
        lines = _Lines(text, yaml=False)
        for el in root.iter():
            tag = _local(el.tag)
            if tag in ("include", "includeAll"):
                self._include(path, el.get("file") or el.get("path"), el.get("relativeToChangelogFile"),
                              lines.find(tag), out, folder=tag == "includeAll")
            elif tag in _CHANGES:
                line = lines.find(tag)
                cols = [(c.get("name") or "", c.get("type")) for c in el if _local(c.tag) == "column"]
                if tag == "sql":
                    self._sql("".join(el.itertext()), line, out)
                else:
                    self._change(tag, dict(el.attrib), [c for c in cols if c[0]], line, out)

    # -- YAML / JSON -------------------------------------------------------------------------------

    def _yaml(self, path: str, text: str, out: FileExtraction) -> None:
        if "databaseChangeLog" not in text:
            return
        if path.lower().endswith(".json"):
            doc = json.loads(text)
        else:
            import yaml

            doc = yaml.safe_load(text)
        if not isinstance(doc, dict) or not isinstance(doc.get("databaseChangeLog"), list):
            return
        lines = _Lines(text, yaml=True)
        for item in doc["databaseChangeLog"]:
            if not isinstance(item, dict):
                continue
            for key, body in item.items():
                if key in ("include", "includeAll") and isinstance(body, dict):
                    self._include(path, body.get("file") or body.get("path"), body.get("relativeToChangelogFile"),
                                  lines.find(key), out, folder=key == "includeAll")
                elif key == "changeSet" and isinstance(body, dict):
                    lines.find(key)
                    for change in body.get("changes") or []:
                        for name, spec in change.items() if isinstance(change, dict) else []:
                            if name in _CHANGES:
                                self._yaml_change(name, spec, lines.find(name), out)

    def _yaml_change(self, name: str, spec: Any, line: int, out: FileExtraction) -> None:
        if name == "sql":
            sql = spec.get("sql") if isinstance(spec, dict) else spec
            if isinstance(sql, str):
                self._sql(sql, line, out)
            return
        if not isinstance(spec, dict):
            return
        cols: list[tuple[str, str | None]] = []
        for c in spec.get("columns") or []:
            col = c.get("column") if isinstance(c, dict) else None
            if isinstance(col, dict) and col.get("name"):
                cols.append((str(col["name"]), str(col["type"]) if col.get("type") is not None else None))
        attrs = {k: str(v) for k, v in spec.items() if isinstance(v, (str, int))}
        self._change(name, attrs, cols, line, out)

    # -- shared ------------------------------------------------------------------------------------

    def _change(self, tag: str, a: dict[str, str], cols: list[tuple[str, str | None]], line: int,
                out: FileExtraction) -> None:
        schema = a.get("schemaName") or None
        table = a.get("tableName") or ""
        if tag == "createTable" and table:
            out.tables.append(TableDef("liquibase", table, schema, cols, line, 0))
        elif tag == "addColumn" and table and cols:
            out.tables.append(TableDef("liquibase", table, schema, cols, line, 0, alter=True))
        elif tag == "dropTable" and table:
            out.tables.append(TableDef("liquibase", table, schema, [], line, 0, kind="drop"))
        elif tag == "renameTable" and a.get("oldTableName") and a.get("newTableName"):
            out.tables.append(TableDef("liquibase", a["oldTableName"], schema, [], line, 0, alter=True, kind="rename",
                                       renamed=(a["oldTableName"], a["newTableName"])))
        elif tag == "renameColumn" and table and a.get("oldColumnName") and a.get("newColumnName"):
            out.tables.append(TableDef("liquibase", table, schema, [], line, 0, alter=True, kind="rename_column",
                                       renamed=(a["oldColumnName"], a["newColumnName"])))
        elif tag == "dropColumn" and table:
            names = [a["columnName"]] if a.get("columnName") else [c for c, _ in cols]
            if names:
                out.tables.append(TableDef("liquibase", table, schema, [(c, None) for c in names], line, 0,
                                           alter=True, kind="drop_column"))

    def _sql(self, sql: str, line: int, out: FileExtraction) -> None:
        found = declared_tables(sql)
        for t in found.tables:
            out.tables.append(TableDef("liquibase", t.name, t.schema, list(t.columns), line + t.line - 1, 0,
                                       alter=t.alter, kind=t.change or "table", renamed=t.renamed))

    def _include(self, path: str, target: str | None, relative: str | None, line: int, out: FileExtraction,
                 folder: bool = False) -> None:
        """An ``include`` (``folder``: ``includeAll``): its files are read as change logs of their own
        when the path rule claims them; one it does not claim is reported in ``errors``."""
        if not target:
            return
        here = posixpath.dirname(path)
        resolved = posixpath.normpath(posixpath.join(here, target)) if str(relative).lower() == "true" else target
        probe = posixpath.join(resolved, "x.xml") if folder else resolved
        if not probe.lower().endswith(".sql") and not is_changelog_path(probe):
            out.errors.append(f"{line}:0: liquibase: include {resolved}: not under a change-log folder, not read as one")


LIQUIBASE_EXTRACTOR = LiquibaseExtractor()
