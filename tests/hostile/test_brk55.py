"""brk55's hostile inputs against session 54's work and the defects it left: what broke is tested here
with exact values and what must not be linked (inputs, sizes and times: docs/benchmarks.md, "brk55")."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest

from indexer.discovery import discover
from indexer.languages import extractor_for_path
from indexer.mentions import stored_mentionable
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import check
from tests.unit.test_incremental import Workspace


def _mentions(db: Path) -> list[str]:
    """MENTIONS edges as ``file:line -> target id``, sorted."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT file, line, dst FROM edges WHERE kind = 'MENTIONS'").fetchall()
    finally:
        conn.close()
    return sorted(f"{f}:{line} -> {d}" for f, line, d in rows)


README = "# Billing\n\nRows go to `invoice_lines`; the log is `audit_trail`.\n\nThe sum is `invoice_lines.amount`.\n"
SVC = "def log(cur):\n    return 1\n"
SVC_SQL = "def log(cur):\n    cur.execute('SELECT id FROM audit_trail')\n"


@pytest.mark.parametrize("records_first", [False, True])
def test_a_doc_naming_a_table_follows_the_tables_an_update_makes_and_removes(tmp_path: Path,
                                                                               records_first: bool) -> None:
    """A table is a node the linker emits (a SQL script's ``CREATE TABLE``, raw SQL inside a body), not a
    definition: an update making or removing one re-links the docs naming it as a full index links them
    (session 54 left the doc unlinked). A word no table has links nothing."""
    w = Workspace(tmp_path, {"README.md": README, "pkg/__init__.py": "", "pkg/svc.py": SVC}, records_first)
    try:
        assert _mentions(w.db) == []
        w.edit({"db/V1__init.sql": "CREATE TABLE invoice_lines (id INT PRIMARY KEY, amount INT);\n"})
        assert _mentions(w.db) == ["README.md:3 -> table:r:.invoice_lines",
                                   "README.md:5 -> column:r:.invoice_lines.amount"]
        assert stored_mentionable(w.store, "r") == {
            ("invoice_lines", "table:r:.invoice_lines"), ("id", "column:r:.invoice_lines.id"),
            ("amount", "column:r:.invoice_lines.amount")}
        assert stored_mentionable(w.store, "other") == frozenset()
        w.edit({"pkg/svc.py": SVC_SQL})
        assert _mentions(w.db) == ["README.md:3 -> table:r:.audit_trail", "README.md:3 -> table:r:.invoice_lines",
                                   "README.md:5 -> column:r:.invoice_lines.amount"]
        # the column goes, the table stays
        w.edit({"db/V1__init.sql": "CREATE TABLE invoice_lines (id INT PRIMARY KEY, total INT);\n"})
        assert _mentions(w.db) == ["README.md:3 -> table:r:.audit_trail", "README.md:3 -> table:r:.invoice_lines"]
        # renamed: the doc names no table of the new name, the old one is gone from the store
        w.edit({"db/V1__init.sql": "CREATE TABLE invoice_rows (id INT PRIMARY KEY);\n"})
        assert _mentions(w.db) == ["README.md:3 -> table:r:.audit_trail"]
        w.edit({"pkg/svc.py": SVC, "db/V1__init.sql": None})
        assert _mentions(w.db) == []
        assert stored_mentionable(w.store, "r") == frozenset()
    finally:
        w.close()


def _star_chain(n: int) -> str:
    """``m0`` .. ``m{n-1}``, each ``export * from`` the next and from ``m{(7 i + 3) % n}`` (a cycle
    too), each declaring ``f{i}``; ``use.ts`` asks ``m0`` for the first, a middle and the last name."""
    parts = [f'// --- path: re/m{i}.ts ---\nexport * from "./m{(i + 1) % n}"\nexport * from "./m{(7 * i + 3) % n}"\n'
             f"export function f{i}() {{ return {i} }}\n" for i in range(n)]
    parts.append('// --- path: re/use.ts ---\nimport { f0, f2, f150, fnope } from "./m0"\n'
                 "export function w() { f0(); f2(); f150(); fnope() }\n")
    return "".join(parts)


def test_a_chain_of_star_re_exports_deeper_than_the_memo_is_cut_not_crashed() -> None:
    """300 barrels each ``export *`` the next: asking ``m0`` for ``f150`` nests the member lookups
    past ``MAX_MEMO_DEPTH``, where the memo yields ``None`` (a cut); the star targets and export names
    read ``None`` as a tuple and crashed the run (TypeError). The names resolve (``f150`` through the
    shortcuts), and no name is linked to a module that does not declare it (``fnope``)."""
    check(_star_chain(300), [
        "re/use.w(0) -> re/m0.f0(0) [exact]",
        "re/use.w(0) -> re/m150.f150(0) [exact]",
        "re/use.w(0) -> re/m2.f2(0) [exact]",
    ])


def test_a_constant_in_thousands_of_parentheses_costs_no_detector() -> None:
    """``X = ((((...("/api")...))))`` 5,000 deep: reading whether it is a string literal recursed once
    per parenthesis and the constants detector failed on the file (``RecursionError``, reported as a
    syntax error, every constant of the file lost). Now the file's other constants are kept; the deep
    one is beyond the template's depth (a hole: no constant)."""
    src = 'BASE = "/api"\nDEEP = ' + "(" * 5000 + '"/x"' + ")" * 5000 + '\nSHALLOW = (("/y"))\n'
    ex = extractor_for_path("m.py").extract("m.py", src.encode())
    assert [e for e in ex.errors if "detector" in e] == []
    assert [(c.qualname, c.value.parts) for c in ex.constants] == [("BASE", (("lit", "/api"),)),
                                                                ("SHALLOW", (("lit", "/y"),))]


PRISMA = """model User {
  id       Int       @id @default(autoincrement())
  email    String    @unique
  articles Article[] @relation("UserArticles")
}

model Article {
  id       Int    @id @default(autoincrement())
  title    String
  author   User   @relation("UserArticles", fields: [authorId], references: [id])
  authorId Int
  pa       Int
  paid     Int
}
"""
SERVICE = """import { PrismaClient } from '@prisma/client';
const prisma = new PrismaClient();

export const createArticle = async (title: string, id: number) =>
  prisma.article.create({ data: { title, author: { connect: { id } } } });

export const markPaid = async (pa: number) => prisma.article.update({ where: { id: 1 }, data: { pa } });
"""


def test_a_prisma_relation_field_writes_its_foreign_key_column(tmp_path: Path) -> None:
    """``data: { author: { connect: ... } }`` writes ``Article``'s ``authorId`` (the relation's
    ``fields``, Prisma's camel-case foreign key), not a column ``author`` the table does not have
    (session 55's newcomer run of the RealWorld Express app listed ``author``). A name the table
    declares is kept as it is (``pa``, not ``paid``)."""
    (tmp_path / "prisma").mkdir()
    (tmp_path / "prisma" / "schema.prisma").write_text(PRISMA)
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "article.ts").write_text(SERVICE)
    store = EmbeddedStore(tmp_path / "x.db")
    try:
        index_repository(tmp_path, store, store, IndexOptions(repo="r", jobs=1))
        rows = store._db.execute(  # noqa: SLF001 - the stored rows as they are
            "SELECT src, dst, props FROM edges WHERE kind = 'WRITES' ORDER BY src").fetchall()
    finally:
        store.close()
    assert [(s, d, json.loads(p)["columns"]) for s, d, p in rows] == [
        ("r:src/article.createArticle(2)", "table:r:.article", ["authorid", "title"]),
        ("r:src/article.markPaid(1)", "table:r:.article", ["pa"]),
    ]


@pytest.mark.parametrize("records_first", [False, True])
def test_a_whole_tree_sync_over_an_index_writes_the_docs_an_edit_elsewhere_relinks(tmp_path: Path,
                                                                                   records_first: bool) -> None:
    """An update of more than RESCAN_THRESHOLD paths (a branch switch), or a one-shot run the records no
    longer hold for, binds the whole tree but writes only the outputs whose digest changed: a doc
    whose own output did not change kept its old ``MENTIONS`` (brk55: a definition and a table it
    names added, a fourth copy of a common name deleted: all three left unlinked). Now the docs naming
    a definition, table or column that came, went or moved are written too, as a full index links them."""
    files = {"README.md": "# X\n\nSee `pkg.a.brand_new_thing`, `fresh_table` and `common_name_x`.\n",
             "pkg/__init__.py": "", "pkg/a.py": "def old():\n    pass\n"}
    files.update({f"pkg/c{i}.py": "def common_name_x():\n    pass\n" for i in range(4)})
    files.update({f"pkg/m{i}.py": f"def f{i}():\n    return {i}\n" for i in range(260)})
    w = Workspace(tmp_path, files, records_first)
    try:
        assert _mentions(w.db) == []  # four copies: too common
        edit: dict[str, str | None] = {f"pkg/m{i}.py": f"def f{i}():\n    return {i + 1}\n" for i in range(260)}
        edit.update({"pkg/a.py": "def brand_new_thing():\n    pass\n", "db/V1__t.sql": "CREATE TABLE fresh_table (id INT);\n",
                     "pkg/c3.py": None})
        w.edit(edit)
        assert _mentions(w.db) == ["README.md:3 -> r:pkg/a.brand_new_thing(0)", "README.md:3 -> r:pkg/c0.common_name_x(0)",
                                   "README.md:3 -> r:pkg/c1.common_name_x(0)", "README.md:3 -> r:pkg/c2.common_name_x(0)",
                                   "README.md:3 -> table:r:.fresh_table"]
    finally:
        w.close()


def test_links_leading_to_each_other_are_a_symlink_loop(tmp_path: Path) -> None:
    """``a.py -> b.py -> a.py`` and ``l1 -> l2 -> l1``: the walk counted them ``unreadable`` (the
    operating system's ``ELOOP``), which tells the user nothing; they are ``symlink_loop`` as a link
    back to a walked folder is. A dangling link stays ``unreadable``; the real file is indexed."""
    for name, target in (("a.py", "b.py"), ("b.py", "a.py"), ("l1", "l2"), ("l2", "l1"), ("gone.py", "nowhere.py")):
        (tmp_path / name).symlink_to(target)
    (tmp_path / "ok.py").write_text("x = 1\n")
    found = discover(str(tmp_path), 1 << 20, False, ())
    assert [f.path for f in found.files] == ["ok.py"]
    assert sorted(found.skipped_log) == [("symlink_loop", "a.py"), ("symlink_loop", "b.py"), ("symlink_loop", "l1"),
                                         ("symlink_loop", "l2"), ("unreadable", "gone.py")]
