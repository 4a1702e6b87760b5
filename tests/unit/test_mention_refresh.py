"""A doc's ``MENTIONS`` follow definitions added, removed or renamed in other files (issue 19 goal 2:
an update equals a full index): through the watcher's updates and one-shot runs over the records,
each step checked against a full index (``Workspace.check``), with the exact edges and which files
were written; an edit inside bodies writes no doc again."""

from __future__ import annotations

import hashlib
import sqlite3
from pathlib import Path

import pytest

import indexer.mention_refresh as mention_refresh
from indexer.mention_refresh import MentionRecords, changed_names, docs_mentioning
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.index_dump import problems
from tests.resolution_harness import write_tree
from tests.unit.test_incremental import Workspace

QUOTE = "def refresh_shipping_quote(x):\n    return x\n"

FILES = {
    "pkg/__init__.py": "",
    "pkg/a.py": QUOTE + "\n\ndef keep_me(a, b):\n    return a\n",
    "pkg/b.py": QUOTE,
    "pkg/c.py": QUOTE,
    "pkg/d.py": QUOTE,
    "README.md": "# Demo\n\nCall `compute_total_price` to price a cart; `OrderLedger` keeps the rows.\n"
                 "See `refresh_shipping_quote` and `pkg.a.keep_me`.\n",
    "docs/other.md": "# Other\n\nNothing here names code: `plain`.\n",
}


def mentions(db: Path) -> list[str]:
    """MENTIONS edges as ``file:line -> target id`` (the ``r:`` prefix dropped), sorted."""
    conn = sqlite3.connect(db)
    try:
        rows = conn.execute("SELECT file, line, dst FROM edges WHERE kind = 'MENTIONS'").fetchall()
    finally:
        conn.close()
    return sorted(f"{f}:{line} -> {d[2:]}" for f, line, d in rows)


@pytest.mark.parametrize("records_first", [False, True])
def test_doc_mentions_follow_definitions_in_other_files(tmp_path: Path, records_first: bool) -> None:
    w = Workspace(tmp_path, FILES, records_first)
    try:
        # four copies of refresh_shipping_quote: too common to link; keep_me is linked by its qualname
        assert mentions(w.db) == ["README.md:4 -> pkg/a.keep_me(2)"]
        # added definitions: linked though README.md did not change
        report = w.edit({"pkg/e.py": "def compute_total_price(cart):\n    return 1\n\n\nclass OrderLedger:\n    pass\n"})
        assert mentions(w.db) == ["README.md:3 -> pkg/e.OrderLedger", "README.md:3 -> pkg/e.compute_total_price(1)",
                                  "README.md:4 -> pkg/a.keep_me(2)"]
        assert report.files_written == 2  # pkg/e.py and README.md, not docs/other.md
        # two copies deleted: the two left are linked; keep_me's node id moved with its parameters
        w.edit({"pkg/c.py": None, "pkg/d.py": None, "pkg/a.py": QUOTE + "\n\ndef keep_me(a):\n    return a\n"})
        assert mentions(w.db) == ["README.md:3 -> pkg/e.OrderLedger", "README.md:3 -> pkg/e.compute_total_price(1)",
                                  "README.md:4 -> pkg/a.keep_me(1)", "README.md:4 -> pkg/a.refresh_shipping_quote(1)",
                                  "README.md:4 -> pkg/b.refresh_shipping_quote(1)"]
        # an edit inside a body: no definition moved, no doc written again
        report = w.edit({"pkg/e.py": "def compute_total_price(cart):\n    return 2\n\n\nclass OrderLedger:\n    pass\n"})
        assert report.files_written == 1
        # the definitions removed: their edges go with them
        w.edit({"pkg/e.py": None})
        assert mentions(w.db) == ["README.md:4 -> pkg/a.keep_me(1)", "README.md:4 -> pkg/a.refresh_shipping_quote(1)",
                                  "README.md:4 -> pkg/b.refresh_shipping_quote(1)"]
    finally:
        w.close()


class _Ctx:
    def __init__(self, lang: str, defs: list[tuple[str, str]] = ()) -> None:  # type: ignore[assignment]
        self.lang = lang
        self.checksum = ""  # FileCtx.checksum: no record of the doc holds it
        self.defs = [type("D", (), {"name": n, "id": i})() for n, i in defs]


class _Change:
    def __init__(self, old: _Ctx | None, new: _Ctx | None) -> None:
        self.old, self.new = old, new


def test_changed_names_are_those_whose_ids_differ() -> None:
    old = _Ctx("python", [("save", "r:m.Repo.save(1)"), ("find", "r:m.Repo.find(1)"), ("gone", "r:m.gone()")])
    new = _Ctx("python", [("save", "r:m.Repo.save(2)"), ("find", "r:m.Repo.find(1)"), ("born", "r:m.born()")])
    assert changed_names([_Change(old, new)]) == {"save", "gone", "born"}
    assert changed_names([_Change(old, old)]) == set()
    assert changed_names([_Change(None, new), _Change(old, None)]) == {"save", "find", "gone", "born"}


def test_docs_mentioning_reads_only_docs_and_whole_identifiers(tmp_path: Path) -> None:
    (tmp_path / "a.md").write_text("Use `OrderLedger` here.\n")
    (tmp_path / "b.md").write_text("OrderLedgerX and MyOrderLedger are other names.\n")
    (tmp_path / "c.py").write_text("OrderLedger = 1\n")
    (tmp_path / "d.md").write_text("OrderLedger\n")
    files = {"a.md": _Ctx("markdown"), "b.md": _Ctx("markdown"), "c.py": _Ctx("python"), "d.md": _Ctx("markdown"),
             "missing.md": _Ctx("markdown")}
    assert docs_mentioning(tmp_path, files, {"OrderLedger"}, {"d.md"}, 1 << 20) == {"a.md"}
    assert docs_mentioning(tmp_path, files, set(), set(), 1 << 20) == set()
    many = {f"name_{i}" for i in range(100)} | {"OrderLedger"}  # many names at once
    assert docs_mentioning(tmp_path, files, many, set(), 1 << 20) == {"a.md", "d.md"}
    (tmp_path / "e.md").write_text("The `Größe` class and `naïve_total`.\n", encoding="utf-8")
    files["e.md"] = _Ctx("markdown")
    assert docs_mentioning(tmp_path, files, {"Größe"}, set(), 1 << 20) == {"e.md"}  # a name not in ASCII
    assert docs_mentioning(tmp_path, files, {"naïve_total", "OrderLedger"}, {"a.md", "d.md"}, 1 << 20) == {"e.md"}
    assert docs_mentioning(tmp_path, files, {"Groesse", "naive_total"}, set(), 1 << 20) == set()
    (tmp_path / "f.md").write_bytes("See `OrderLedger`.\n".encode("utf-16"))  # with its byte-order mark
    (tmp_path / "g.md").write_bytes(b"`OrderLedger`\x00 after a NUL: binary\n")
    files.update({"f.md": _Ctx("markdown"), "g.md": _Ctx("markdown")})
    assert docs_mentioning(tmp_path, files, {"OrderLedger"}, {"a.md", "d.md"}, 1 << 20) == {"f.md"}


class _DocCtx(_Ctx):
    """A context with the checksum of the file's bytes as indexed."""

    def __init__(self, root: Path, path: str, lang: str = "markdown") -> None:
        super().__init__(lang)
        self.checksum = hashlib.sha256((root / path).read_bytes()).hexdigest() if (root / path).exists() else "0" * 64


def test_mention_records_answer_as_docs_mentioning_and_read_a_doc_only_when_its_bytes_are_new(tmp_path: Path) -> None:
    docs = {"a.md": "Use `OrderLedger` here.\n", "b.md": "OrderLedgerX and MyOrderLedger are other names.\n",
            "c.py": "OrderLedger = 1\n", "d.md": "OrderLedger and `keep_me`\n",
            "e.md": "The `Größe` class and `naïve_total`.\n"}
    for rel, text in docs.items():
        (tmp_path / rel).write_text(text, encoding="utf-8")
    (tmp_path / "f.md").write_bytes("See `OrderLedger`.\n".encode("utf-16"))  # with its byte-order mark
    (tmp_path / "g.md").write_bytes(b"`OrderLedger`\x00 after a NUL: binary\n")
    files = {p: _DocCtx(tmp_path, p, "python" if p.endswith(".py") else "markdown")
             for p in [*docs, "f.md", "g.md", "missing.md"]}
    records = MentionRecords()
    asks = [({"OrderLedger"}, {"d.md"}), ({"OrderLedger"}, set()), ({"Order", "Ledger", "MyOrder"}, set()),
            ({"keep_me", "nope"}, set()), ({"Größe"}, set()), ({"naïve_total", "OrderLedger"}, {"a.md", "d.md"}),
            ({"Groesse", "naive_total"}, set()), ({f"name_{i}" for i in range(100)} | {"OrderLedger"}, set())]
    expected = [{"a.md", "f.md"}, {"a.md", "d.md", "f.md"}, set(), {"d.md"}, {"e.md"}, {"e.md", "f.md"}, set(),
                {"a.md", "d.md", "f.md"}]
    reads = []
    for names, skip in asks:
        assert records.docs_mentioning(tmp_path, files, names, skip, 1 << 20) == \
            docs_mentioning(tmp_path, files, names, skip, 1 << 20)
        reads.append(records.reads)
    assert [records.docs_mentioning(tmp_path, files, n, s, 1 << 20) for n, s in asks] == expected
    # the first ask reads the six docs it does not skip (c.py is code, d.md skipped), the second d.md; then
    # only what cannot be recorded (g.md, not text; missing.md, gone) is tried again, and e.md, the one doc
    # with non-ASCII text, when a name not in ASCII is asked
    assert reads == [6, 9, 11, 13, 16, 19, 21, 23]
    assert sorted(records.records) == ["a.md", "b.md", "d.md", "e.md", "f.md"]
    # a doc edited and indexed since: read once, then recorded anew; a doc no longer indexed: forgotten
    (tmp_path / "b.md").write_text("Now `OrderLedger` itself.\n", encoding="utf-8")
    files["b.md"] = _DocCtx(tmp_path, "b.md")
    del files["a.md"]
    before = records.reads
    assert records.docs_mentioning(tmp_path, files, {"OrderLedger"}, set(), 1 << 20) == {"b.md", "d.md", "f.md"}
    assert records.reads == before + 3  # b.md, g.md, missing.md
    assert sorted(records.kept(files)) == ["b.md", "d.md", "e.md", "f.md"]
    # a doc changed on disk but not indexed yet answers as the index holds it (its update writes it)
    (tmp_path / "d.md").write_text("nothing\n", encoding="utf-8")
    assert records.docs_mentioning(tmp_path, files, {"keep_me"}, set(), 1 << 20) == {"d.md"}


@pytest.mark.parametrize("records_first", [False, True])
def test_a_name_change_reads_no_unchanged_doc(tmp_path: Path, monkeypatch, records_first: bool) -> None:
    """The watcher records the docs from the bytes its sync and updates read, a one-shot run writing a new
    index records them too (saved with the resolver's records, taken over by the next runs): an update
    changing a name reads no doc. A doc edited since is read once more only by the one-shot run (which
    records changed files from the cache, not from their bytes), then recorded."""
    read: list[str] = []
    real = mention_refresh.read_source

    def counting(path: str, *args, **kwargs):  # type: ignore[no-untyped-def]
        read.append(Path(path).name)
        return real(path, *args, **kwargs)

    monkeypatch.setattr(mention_refresh, "read_source", counting)
    w = Workspace(tmp_path, FILES, records_first)
    try:
        w.edit({"pkg/e.py": "def compute_total_price(cart):\n    return 1\n"})
        assert read == []
        w.edit({"pkg/e.py": "def compute_total_price(cart):\n    return 1\n\n\nclass OrderLedger:\n    pass\n"})
        assert read == []
        assert mentions(w.db) == ["README.md:3 -> pkg/e.OrderLedger", "README.md:3 -> pkg/e.compute_total_price(1)",
                                  "README.md:4 -> pkg/a.keep_me(2)"]
        w.edit({"docs/other.md": "# Other\n\nNow `OrderLedger` too.\n"})
        assert read == []  # an edit of a doc changes no definition
        w.edit({"pkg/e.py": None})
        assert read == ["other.md"]  # the one-shot run's: the watcher recorded the doc when it indexed it
        read.clear()
        w.edit({"pkg/e.py": "class OrderLedger:\n    pass\n"})
        assert read == []
        assert mentions(w.db) == ["README.md:3 -> pkg/e.OrderLedger", "README.md:4 -> pkg/a.keep_me(2)",
                                  "docs/other.md:3 -> pkg/e.OrderLedger"]
    finally:
        w.close()

REPOS = {
    "A": {"README.md": "# A\n\nPrices come from `compute_total_price` and `OrderLedger`.\n",
          "a.py": "def helper_a():\n    return 1\n"},
    "B": {"NOTES.md": "# B\n\nSee `helper_a`.\n", "b.py": "def compute_total_price(cart):\n    return 1\n"},
}


def _shared_mentions(db: Path) -> list[tuple[str, str, str]]:
    conn = sqlite3.connect(db)
    try:
        return sorted(conn.execute("SELECT repo, file, dst FROM edges WHERE kind = 'MENTIONS'").fetchall())
    finally:
        conn.close()


def test_docs_of_other_repositories_link_in_index_order_and_lose_edges_into_gone_definitions(tmp_path: Path) -> None:
    """The scope of the refresh (module docstring): in a shared index a full index of two repositories
    links the docs of the one indexed second to the first's definitions, not the reverse, so the order
    decides; re-indexing one repository removes the other's doc edges into definitions that went (no
    dangling edge) and does not write the other's docs (an added definition they name stays unlinked
    until they are written again)."""
    for name, files in REPOS.items():
        write_tree(tmp_path / name, files)

    def index(db: Path, *order: str) -> None:
        store = EmbeddedStore(db)
        try:
            for name in order:
                index_repository(tmp_path / name, store, store, IndexOptions(repo=name, jobs=1))
        finally:
            store.close()

    index(tmp_path / "ab.db", "A", "B")
    assert _shared_mentions(tmp_path / "ab.db") == [("B", "NOTES.md", "A:a.helper_a(0)")]
    index(tmp_path / "ba.db", "B", "A")
    assert _shared_mentions(tmp_path / "ba.db") == [("A", "README.md", "B:b.compute_total_price(1)")]
    write_tree(tmp_path / "B", {"b.py": "def compute_total(cart):\n    return 1\n\n\nclass OrderLedger:\n    pass\n"})
    index(tmp_path / "ba.db", "B")
    assert _shared_mentions(tmp_path / "ba.db") == []  # the edge went with its node; OrderLedger not linked
    assert problems(tmp_path / "ba.db") == []
    index(tmp_path / "ba.db", "A")  # A unchanged: its doc is not written again
    assert _shared_mentions(tmp_path / "ba.db") == []
    write_tree(tmp_path / "A", {"README.md": REPOS["A"]["README.md"] + "\nEdited.\n"})
    index(tmp_path / "ba.db", "A")  # written again: linked to what B now defines
    assert _shared_mentions(tmp_path / "ba.db") == [("A", "README.md", "B:b.OrderLedger")]
