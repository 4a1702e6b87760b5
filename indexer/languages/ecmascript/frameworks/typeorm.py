"""TypeORM entities -> :class:`~indexer.model.TableDef` (framework ``typeorm``).

Read from the extractor's definitions (decorator texts), no tree walk:

* a class decorated ``@Entity("name")`` / ``@Entity({ name: "name", schema: "s" })`` declares that
  table; ``@Entity()`` the class name by TypeORM's ``DefaultNamingStrategy`` (snake case:
  ``BlogPost`` -> ``blog_post``);
* its fields decorated ``@Column`` (and ``@PrimaryColumn``, ``@PrimaryGeneratedColumn``,
  ``@CreateDateColumn``, ``@UpdateDateColumn``, ``@DeleteDateColumn``, ``@VersionColumn``) are
  columns named by ``{ name: "x" }``, else the property name as written (TypeORM keeps camel case);
  a ``@ManyToOne`` / ``@OneToOne`` owning side is the join column ``@JoinColumn({ name: "x" })``, else
  ``<property>Id``; ``@OneToMany`` / ``@ManyToMany`` are no columns. A column's type is the
  decorator's first string argument (``@Column("text")``), else the field's declared type.

Repository calls (``repo.find()``, ``save``) are read by :mod:`.js_data`.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from indexer.model import FileExtraction, TableDef

if TYPE_CHECKING:
    from tree_sitter import Node

    from indexer.languages.base import SourceText

__all__ = ["LANGUAGES", "detect", "COLUMN_DECORATORS"]

LANGUAGES = ("typescript", "javascript")
COLUMN_DECORATORS = frozenset({
    "Column", "PrimaryColumn", "PrimaryGeneratedColumn", "CreateDateColumn", "UpdateDateColumn",
    "DeleteDateColumn", "VersionColumn", "ObjectIdColumn",
})
_FIRST_STRING = re.compile(r"""^\s*["'`]([^"'`]+)["'`]""")
_OPTION = re.compile(r"""\b(name|schema)\s*:\s*["'`]([^"'`]+)["'`]""")


def _parts(decorator: str) -> tuple[str, str]:
    head, _, args = decorator.partition("(")
    return head.strip().rsplit(".", 1)[-1], args.rsplit(")", 1)[0]


def _option(args: str, key: str) -> str | None:
    return next((m.group(2) for m in _OPTION.finditer(args) if m.group(1) == key), None)


def _snake(name: str) -> str:
    return re.sub(r"(?<=[a-z0-9])(?=[A-Z])", "_", name).lower()


def detect(root: Node, src: SourceText, out: FileExtraction) -> None:
    """Append the file's TypeORM entities to ``out.tables``."""
    entities = []
    for d in out.definitions:
        if d.kind != "class":
            continue
        for deco in d.decorators:
            head, args = _parts(deco)
            if head == "Entity":
                first = _FIRST_STRING.match(args)
                name = first.group(1) if first else _option(args, "name") or _snake(d.name)
                entities.append((d, name, _option(args, "schema")))
                break
    for d, name, schema in entities:
        cols: list[tuple[str, str | None]] = []
        for f in out.definitions:
            if f.kind != "field" or f.parent != d.qualname:
                continue
            decos = dict(_parts(x) for x in f.decorators)
            kind = next((h for h in decos if h in COLUMN_DECORATORS), None)
            if kind is not None:
                first = _FIRST_STRING.match(decos[kind])
                ctype = first.group(1) if first and kind != "PrimaryGeneratedColumn" else f.field_type
                cols.append((_option(decos[kind], "name") or f.name, ctype))
            elif "ManyToOne" in decos or ("OneToOne" in decos and "JoinColumn" in decos):
                cols.append((_option(decos.get("JoinColumn", ""), "name") or f"{f.name}Id", None))
        out.tables.append(TableDef("typeorm", name, schema, cols, d.name_line, d.name_col, entity=d.qualname))
