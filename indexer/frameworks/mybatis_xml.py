"""MyBatis mapper XML files, read for the linker: each ``<mapper namespace="a.b.UserMapper">`` maps
the methods of that Java interface to SQL statements (``<select|insert|update|delete id="m">``).

Like OpenAPI specs (:mod:`indexer.frameworks.openapi`) these are XML files a language folder does
not claim (every repository is full of XML): :func:`load_mappers` walks the repository once per
run (bounded: :data:`MAX_FILE_BYTES` per file, :data:`MAX_FILES` files, hidden and dependency folders
skipped, no symbolic link out of the root) and keeps only files whose bytes hold ``<mapper``. A
statement's SQL is its text with MyBatis' dynamic elements opened: ``<include refid>`` replaced by
the ``<sql id>`` fragment of the same mapper, ``<where>`` / ``<set>`` / ``<trim>`` adding their
keyword and dropping the leading ``AND`` / ``OR`` or trailing comma, ``<if>`` / ``<foreach>`` /
``<choose>`` (its first ``<when>``) kept as their text; a statement that does not parse with every
``<if>`` in (exclusive conditions: two ``order by``) is read with none. ``<include refid="ns.id">``
reaches the fragments of other mappers. The linker
(:mod:`indexer.frameworks.tables`) parses it with sqlglot for the tables read and written.

A file that is not well-formed XML is skipped (counted). Python's expat refuses entity expansion
bombs; no external DTD is fetched.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from collections.abc import Iterator, Mapping
from dataclasses import dataclass, field
from pathlib import Path

from indexer.fsguard import SkipFile, inside_root, read_inside

__all__ = ["MAX_FILE_BYTES", "MAX_FILES", "MyBatisMappers", "load_mappers", "mapper_statements", "is_mapper_path"]

MAX_FILE_BYTES = 2_000_000
"""A mapper file larger than this is skipped."""
MAX_FILES = 20_000
"""At most this many XML files are looked at per repository."""
_SKIP_DIRS = frozenset({"node_modules", "target", "build", "dist", "out", "venv", ".venv", "__pycache__", "vendor"})
_STATEMENTS = ("select", "insert", "update", "delete")
_LEADING = re.compile(r"^\s*(?:and|or)\b", re.I)
_TRAILING = re.compile(r",\s*$")


@dataclass(frozen=True, slots=True)
class MyBatisMappers:
    """``statements``: namespace (the mapper interface's fully qualified name) -> statement id ->
    its SQL variants (every ``<if>`` in, then none: :func:`mapper_statements`); ``files``: the mapper files read (repository-relative); ``skipped``: files not read,
    by reason (``too_large``, ``malformed``)."""

    statements: Mapping[str, Mapping[str, tuple[str, ...]]] = field(default_factory=dict)
    files: frozenset[str] = frozenset()
    skipped: tuple[tuple[str, int], ...] = ()


def is_mapper_path(rel: str) -> bool:
    """Whether a changed path may be a MyBatis mapper, so a watcher re-reads the mappers (a whole-tree
    sync): an ``.xml`` file whose path names ``mapper``, ``mybatis`` or ``dao`` (``resources/mapper/
    UserMapper.xml``). A mapper elsewhere is read by the next whole-tree run."""
    low = rel.lower().replace("\\", "/")
    return low.endswith(".xml") and any(w in low for w in ("mapper", "mybatis", "dao"))


def _xml_files(root: Path) -> Iterator[Path]:
    real_root = os.path.realpath(root)
    seen = 0
    for folder, dirs, files in os.walk(root):
        dirs[:] = sorted(d for d in dirs if d not in _SKIP_DIRS and not d.startswith("."))
        for name in sorted(files):
            if name.lower().endswith(".xml"):
                seen += 1
                if seen > MAX_FILES:
                    return
                path = Path(folder) / name
                if inside_root(real_root, path):
                    yield path


def _text(el: ET.Element, fragments: Mapping[str, ET.Element], depth: int = 0, ifs: bool = True) -> str:
    """The SQL an element stands for (the module docstring's rules); ``ifs=False`` leaves every
    ``<if>`` out (the statement when no condition holds)."""
    if depth > 16:
        return ""
    parts = [el.text or ""]
    for child in el:
        tag = child.tag if isinstance(child.tag, str) else ""
        if tag == "include":
            frag = fragments.get(child.get("refid", ""))
            parts.append(_text(frag, fragments, depth + 1, ifs) if frag is not None else "")
        elif tag in ("where", "set", "trim"):
            inner = _text(child, fragments, depth + 1, ifs).strip()
            inner = _LEADING.sub("", inner) if tag != "set" else inner
            inner = _TRAILING.sub("", inner)
            prefix = {"where": "WHERE", "set": "SET"}.get(tag, child.get("prefix", ""))
            if tag == "trim":
                for word in (child.get("prefixOverrides") or "").split("|"):
                    if word.strip() and inner.upper().startswith(word.strip().upper()):
                        inner = inner[len(word.strip()):]
                for word in (child.get("suffixOverrides") or "").split("|"):
                    if word.strip() and inner.endswith(word.strip()):
                        inner = inner[: -len(word.strip())]
            if inner.strip():
                parts.append(f" {prefix} {inner} {child.get('suffix', '') if tag == 'trim' else ''} ")
        elif tag == "foreach":
            parts.append(f" {child.get('open', '')}{_text(child, fragments, depth + 1, ifs)}{child.get('close', '')} ")
        elif tag == "choose":
            when = next((c for c in child if c.tag == "when"), None) or next((c for c in child if c.tag == "otherwise"), None)
            parts.append(_text(when, fragments, depth + 1, ifs) if when is not None else "")
        elif tag in ("when", "otherwise") or (tag == "if" and ifs):
            parts.append(" " + _text(child, fragments, depth + 1, ifs) + " ")
        parts.append(child.tail or "")
    return "".join(parts)


_COMMA_FROM = re.compile(r",\s+(from|where)\b", re.I)


def _sql(el: ET.Element, fragments: Mapping[str, ET.Element], ifs: bool) -> str:
    text = " ".join(_text(el, fragments, 0, ifs).split())
    return _COMMA_FROM.sub(r" \1", text)  # a column list closed by a conditional element


def _parse(data: bytes) -> ET.Element | None:
    """The ``<mapper>`` root of a file's bytes, ``None`` when it is no mapper. Raises
    :class:`xml.etree.ElementTree.ParseError` on malformed XML."""
    if b"<mapper" not in data:
        return None
    root = ET.fromstring(data)
    return root if root.tag == "mapper" and root.get("namespace") else None


def mapper_statements(data: bytes, shared: Mapping[str, ET.Element] | None = None) -> tuple[str, dict[str, tuple[str, ...]]] | None:
    """``(namespace, {statement id: SQL variants})`` of one mapper file's bytes, ``None`` when it is
    no MyBatis mapper: each statement with every ``<if>`` in, then with none (the first that parses
    is the one to read). ``shared``: ``<sql>`` fragments of other mappers by ``namespace.id``.
    Raises :class:`xml.etree.ElementTree.ParseError` on malformed XML."""
    root = _parse(data)
    return _statements(root, shared or {}) if root is not None else None


def _statements(root: ET.Element, shared: Mapping[str, ET.Element]) -> tuple[str, dict[str, tuple[str, ...]]]:
    fragments = {**shared, **{el.get("id", ""): el for el in root if el.tag == "sql"}}
    out: dict[str, tuple[str, ...]] = {}
    for el in root:
        if el.tag in _STATEMENTS and el.get("id"):
            variants = (_sql(el, fragments, True), _sql(el, fragments, False))
            out[el.get("id", "")] = tuple(dict.fromkeys(variants))
    return root.get("namespace", ""), out


def load_mappers(root: str | Path) -> MyBatisMappers:
    """Every MyBatis mapper statement under ``root`` (see the module docstring). Never raises on a
    bad file: it is skipped and counted."""
    root = Path(root)
    real_root = os.path.realpath(root)
    roots: list[ET.Element] = []
    files: set[str] = set()
    skipped: dict[str, int] = {}

    def count(skip: SkipFile) -> None:
        skipped[skip.reason] = skipped.get(skip.reason, 0) + 1

    for path in _xml_files(root):
        data = read_inside(path, MAX_FILE_BYTES, real_root, on_skip=count)
        if data is None:
            continue
        try:
            found = _parse(data)
        except (ET.ParseError, ValueError, RecursionError):
            skipped["malformed"] = skipped.get("malformed", 0) + 1
            continue
        if found is not None:
            roots.append(found)
            files.add(path.relative_to(root).as_posix())
    shared = {f"{r.get('namespace')}.{el.get('id')}": el for r in roots for el in r if el.tag == "sql"}
    statements: dict[str, dict[str, tuple[str, ...]]] = {}
    for r in roots:
        namespace, stmts = _statements(r, shared)
        statements.setdefault(namespace, {}).update(stmts)
    return MyBatisMappers(statements, frozenset(files), tuple(sorted(skipped.items())))
