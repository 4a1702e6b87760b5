"""Schema 6 of the embedded store: chunk text as a range of the file text, strings as integer keys,
nothing left behind by deletes (stores/embedded_schema.py, stores/embedded_write.py); schema 8's parent
stored as a cut of the chunk's id."""

from __future__ import annotations

import dataclasses
import sqlite3

import pytest

from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node, SearchFilters
from stores.embedded import EmbeddedStore
from stores.embedded_schema import FileText, encode_chunk_text, encode_parent, product_may_be_null
from stores.errors import StoreOutdated

SRC = (
    "import os\n\n"
    "class Cafe:\n"
    "    def brew(self, cups):\n"
    "        return 'ü' * cups + 'espresso espresso espresso'\n"
    "\n"
    "def grind(beans):\n"
    "    return beans.split()\n"
)
BREW = "    def brew(self, cups):\n        return 'ü' * cups + 'espresso espresso espresso'"
CLASS = "class Cafe:\ndef brew(self, cups)"  # header, then member signatures: not the file's text
GRIND = "def grind(beans):\n    return beans.split()"


def _round_trip(src: str, start: int, end: int, text: str) -> tuple:
    f = FileText(src)
    head, boff, blen, tail = encode_chunk_text(f, start, end, text)
    middle = f.data[boff : boff + blen].decode() if boff is not None else ""
    assert (head or "") + middle + tail == text
    return head, boff, blen, tail


def test_text_found_in_the_file_is_a_byte_range():
    assert _round_trip(SRC, 4, 5, BREW) == (None, 23, len(BREW.encode()), "")
    # capped: the range, then the cap's mark as the tail
    assert _round_trip(SRC, 4, 5, BREW[:40] + "\n…") == (None, 23, 40, "\n…")
    # a doc section's heading trail before the file's lines is the head
    assert _round_trip(SRC, 7, 8, "Top > Grind\n" + GRIND) == ("Top > Grind\n", len(SRC[:SRC.index("def grind")].encode()),
                                                                           len(GRIND), "")


def test_heading_trail_that_repeats_the_heading_is_the_head():
    doc = "Intro\n\nCode of Conduct\n===============\n\nBe kind to everyone who contributes here.\n"
    text = "Guide > Code of Conduct\nCode of Conduct\n===============\n\nBe kind to everyone who contributes here."
    assert _round_trip(doc, 3, 6, text) == ("Guide > Code of Conduct\n", 7, len(text) - 24, "")


def test_text_not_in_the_file_is_kept_whole():
    assert _round_trip(SRC, 3, 5, CLASS) == (None, None, None, CLASS)
    assert _round_trip(SRC, 1, 1, "import os") == (None, None, None, "import os")  # shorter than a range is worth
    assert encode_chunk_text(None, 4, 5, BREW) == (None, None, None, BREW)
    assert _round_trip(SRC, 400, 401, BREW) == (None, None, None, BREW)  # past the end of the file
    crlf = SRC.replace("\n", "\r\n")
    assert _round_trip(crlf, 4, 5, BREW)[3] != ""  # lines without their \r: only a first line matches


def _file(src: str | None, chunks: list[tuple[str, int, int, str]], calls: str = "grind") -> IndexedFile:
    nodes = [Node("r:cafe.py", "File", "cafe.py", "cafe.py", "r", "cafe.py", 1, 0, 8, 0),
             Node("r:cafe.Cafe.brew(1)", "Method", "brew", "Cafe.brew", "r", "cafe.py", 4, 4, 5, 0, {"arity": 1})]
    return IndexedFile(
        FileRecord("r", "cafe.py", "python", "c" * 40, len(src or "")), nodes=nodes,
        edges=[Edge("CONTAINS", "r:cafe.py", "r:cafe.Cafe.brew(1)", "r", "cafe.py"),
               Edge("CALLS", "r:cafe.Cafe.brew(1)", f"r:lib.{calls}(1)", "r", "cafe.py", 5, 8, "exact")],
        chunks=[Chunk(cid, "r", "p", "cafe.py", "python", "method", cid.rsplit(".", 1)[-1], cid, None, s, e, t, t[:8])
                for cid, s, e, t in chunks],
        text=src)


def _orphans(db) -> tuple[int, int]:
    conn = sqlite3.connect(db)
    try:
        ids = conn.execute(
            "SELECT count(*) FROM ids WHERE nid NOT IN (SELECT nid FROM node_rows UNION SELECT src FROM edge_rows"
            " UNION SELECT dst FROM edge_rows UNION SELECT nid FROM chunk_rows UNION SELECT caller FROM unresolved_rows)"
        ).fetchone()[0]
        paths = conn.execute(
            "SELECT count(*) FROM paths WHERE fid NOT IN (SELECT fid FROM file_rows UNION SELECT fid FROM node_rows"
            " UNION SELECT fid FROM edge_rows UNION SELECT fid FROM chunk_rows UNION SELECT fid FROM unresolved_rows)"
        ).fetchone()[0]
        return ids, paths
    finally:
        conn.close()


def test_store_reads_chunk_text_through_the_file_and_replaces_it_cleanly(tmp_path):
    db = tmp_path / "i.db"
    brew, cls = ("r:cafe.Cafe.brew(1)", 4, 5, BREW), ("r:cafe.Cafe", 3, 5, CLASS)
    with EmbeddedStore(db) as store:
        store.replace_files([_file(SRC, [brew, cls])])
        got = store.get_chunks(["r:cafe.Cafe.brew(1)", "r:cafe.Cafe"])
        assert got["r:cafe.Cafe.brew(1)"].text == BREW and got["r:cafe.Cafe"].text == CLASS
        rows = store._db.execute("SELECT boff, blen, tail FROM chunk_rows ORDER BY rowid").fetchall()  # noqa: SLF001
        assert rows == [(23, len(BREW.encode()), ""), (None, None, CLASS)]
        # the schema-5 view: the text kept whole, NULL for a range of the (compressed) file text
        assert store._db.execute("SELECT id, text FROM chunks ORDER BY rowid").fetchall() == [  # noqa: SLF001
            ("r:cafe.Cafe.brew(1)", None), ("r:cafe.Cafe", CLASS)]
        assert store.file_text("r", "cafe.py") == SRC
        assert [c.chunk_id for c in store.bm25("espresso", 5)] == ["r:cafe.Cafe.brew(1)"]
        assert store.incoming(["r:lib.grind(1)"], ["CALLS"])["r:lib.grind(1)"][0].src == "r:cafe.Cafe.brew(1)"

        # A new text: the old FTS rows are deleted with the old text (the range pointed into it).
        new_src = SRC.replace("espresso", "ristretto")
        store.replace_files([_file(new_src, [(brew[0], 4, 5, BREW.replace("espresso", "ristretto"))], calls="mill")])
        assert store.bm25("espresso", 5) == []
        assert [c.chunk_id for c in store.bm25("ristretto", 5)] == ["r:cafe.Cafe.brew(1)"]
        assert store.get_chunks(["r:cafe.Cafe"]) == {}
        assert store.incoming(["r:lib.grind(1)"], ["CALLS"]) == {"r:lib.grind(1)": []}
        vocab = dict(store._db.execute("SELECT term, doc FROM temp.ripple_vocab").fetchall())  # noqa: SLF001
        assert "espresso" not in vocab and vocab["ristretto"] == 1
        assert _orphans(db) == (0, 0)
        n_ids = store._db.execute("SELECT count(*) FROM ids").fetchone()[0]  # noqa: SLF001
        assert n_ids == 3  # the file, brew (its chunk's id too) and r:lib.mill; r:lib.grind went

        store.delete_files("r", ["cafe.py"])
        assert store._db.execute("SELECT (SELECT count(*) FROM ids) + (SELECT count(*) FROM paths)"  # noqa: SLF001
                                 " + (SELECT count(*) FROM chunk_rows)").fetchone() == (0,)
        assert dict(store._db.execute("SELECT term, doc FROM temp.ripple_vocab").fetchall()) == {}  # noqa: SLF001


def test_search_only_store_keeps_chunk_text_whole(tmp_path):
    with EmbeddedStore(tmp_path / "s.db") as store:
        store.replace_chunks([_file(SRC, [("r:cafe.Cafe.brew(1)", 4, 5, BREW)])])  # no file record: no text to point to
        assert store._db.execute("SELECT boff, tail FROM chunk_rows").fetchall() == [(None, BREW)]  # noqa: SLF001
        assert store.get_chunks(["r:cafe.Cafe.brew(1)"])["r:cafe.Cafe.brew(1)"].text == BREW


def test_schema_5_index_says_to_rebuild(tmp_path):
    db = tmp_path / "old.db"
    with EmbeddedStore(db):
        pass
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '5' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreOutdated) as info:
        EmbeddedStore(db)
    assert str(info.value) == (f"index {db} has schema version '5', this ripplegraph needs 8; run `ripple index` "
                               "again to rebuild it")


def test_a_parent_sharing_the_ids_start_is_stored_as_a_cut_of_it():
    assert encode_parent("r:pkg/mod.Cafe.brew(1)", "r:pkg/mod.Cafe") == ("", 14)
    assert encode_parent("r:pkg/mod.outer.inner(1)", "r:pkg/mod.outer(2)") == ("(2)", 15)  # a nested function's
    assert encode_parent("r:a.b(1)", "r:a.c") == ("r:a.c", None)  # 4 characters shared: kept whole
    assert encode_parent("r:x/y.z", "q:other.Thing") == ("q:other.Thing", None)
    assert encode_parent("r:x/y.z", None) == (None, None) and encode_parent("r:x/y.z", "") == ("", None)
    assert encode_parent("r:ü/añejo.Cafe.brew", "r:ü/añejo.Cafe") == ("", 14)  # characters, not bytes


_PARENTS = {"r:cafe.Cafe.brew(1)": "r:cafe.Cafe", "r:cafe.Cafe.grind(1)": "r:cafe.Cafe.brew(1)",
            "r:cafe.Cafe": None, "r:cafe.top": "q:elsewhere.Top", "r:cafe.Cafe.añejo(0)": "r:cafe.Cafe.añejo"}


def _parent_file() -> IndexedFile:
    f = _file(SRC, [(cid, 4, 5, BREW) for cid in _PARENTS])
    f.chunks = [dataclasses.replace(c, parent=_PARENTS[c.id]) for c in f.chunks]
    return f


def test_parents_read_back_whole_through_the_store_and_the_view(tmp_path):
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files([_parent_file()])
        assert {cid: c.parent for cid, c in store.get_chunks(list(_PARENTS)).items()} == _PARENTS
        assert dict(store._db.execute("SELECT id, parent FROM chunks").fetchall()) == _PARENTS  # noqa: SLF001
        stored = store._db.execute("SELECT i.id, c.parent, c.pcut FROM chunk_rows c JOIN ids i ON i.nid = c.nid"  # noqa: SLF001
                                   ).fetchall()
        assert sorted(stored) == [("r:cafe.Cafe", None, None), ("r:cafe.Cafe.añejo(0)", "", 17),
                                  ("r:cafe.Cafe.brew(1)", "", 11), ("r:cafe.Cafe.grind(1)", "brew(1)", 12),
                                  ("r:cafe.top", "q:elsewhere.Top", None)]


def test_an_index_without_the_cut_column_is_read_and_written_with_whole_parents(tmp_path, monkeypatch):
    """A schema-7 index (no ``pcut``) read before its migration, written meanwhile by this code (another
    process holds the lock its migration needs), and migrated: every parent reads back whole."""
    from tests.hostile.test_hostile_stores_cli import read_only
    from tests.unit.test_bm25_migration_races import _as_schema_7

    db = tmp_path / "i.db"
    with EmbeddedStore(db) as store:
        store.replace_files([_parent_file()])
    _as_schema_7(db)
    conn = sqlite3.connect(db)  # schema 7's chunk_rows: the parents whole, no pcut column
    conn.execute("UPDATE chunk_rows SET parent = (SELECT parent FROM chunks v WHERE v.rowid = chunk_rows.rowid)")
    conn.execute("DROP VIEW chunks")
    conn.execute("CREATE VIEW chunks AS SELECT c.rowid AS rowid, i.id AS id, c.parent AS parent, c.embedding AS embedding"
                 " FROM chunk_rows c JOIN ids i ON i.nid = c.nid")
    conn.execute("ALTER TABLE chunk_rows DROP COLUMN pcut")
    conn.commit()
    conn.close()
    with read_only(db), EmbeddedStore(db) as store:
        assert {cid: c.parent for cid, c in store.get_chunks(list(_PARENTS)).items()} == _PARENTS
    monkeypatch.setattr("stores.embedded_migrate.migrate", lambda conn, version: False)  # the lock held elsewhere
    with EmbeddedStore(db) as store:
        store.replace_files([_parent_file()])  # written at 7: parents whole
        assert store._db.execute("SELECT count(*) FROM chunk_rows WHERE parent = 'r:cafe.Cafe'").fetchone() == (1,)  # noqa: SLF001
        assert {cid: c.parent for cid, c in store.get_chunks(list(_PARENTS)).items()} == _PARENTS
    monkeypatch.undo()
    with EmbeddedStore(db) as store:  # migrated now: the rows keep their whole parents, new ones are cut
        assert store._db.execute("SELECT value FROM meta WHERE key = 'schema_version'").fetchone() == ("8",)  # noqa: SLF001
        assert {cid: c.parent for cid, c in store.get_chunks(list(_PARENTS)).items()} == _PARENTS
        assert dict(store._db.execute("SELECT id, parent FROM chunks").fetchall()) == _PARENTS  # noqa: SLF001
        store.replace_files([_parent_file()])
        assert store._db.execute("SELECT count(pcut) FROM chunk_rows").fetchone() == (3,)  # noqa: SLF001
        assert {cid: c.parent for cid, c in store.get_chunks(list(_PARENTS)).items()} == _PARENTS


def test_a_product_that_is_the_repository_is_stored_as_null_and_read_back(tmp_path):
    f = _file(SRC, [("r:cafe.Cafe.brew(1)", 4, 5, BREW), ("r:cafe.grind(1)", 7, 8, GRIND)])
    f.chunks = [dataclasses.replace(f.chunks[0], product="r"), f.chunks[1]]  # the repository's name; "p"
    with EmbeddedStore(tmp_path / "i.db") as store:
        store.replace_files([f])
        assert store._db.execute("SELECT product FROM chunk_rows ORDER BY rowid").fetchall() == [(None,), ("p",)]  # noqa: SLF001
        assert {c.id: c.product for c in store.get_chunks(["r:cafe.Cafe.brew(1)", "r:cafe.grind(1)"]).values()} == {
            "r:cafe.Cafe.brew(1)": "r", "r:cafe.grind(1)": "p"}
        assert store._db.execute("SELECT id, product FROM chunks ORDER BY rowid").fetchall() == [  # noqa: SLF001
            ("r:cafe.Cafe.brew(1)", "r"), ("r:cafe.grind(1)", "p")]
        for product, want in (("r", ["r:cafe.Cafe.brew(1)"]), ("p", ["r:cafe.grind(1)"]), ("q", [])):
            hits = store.bm25("espresso grind beans cups", 10, SearchFilters(product=product))
            assert [h.chunk_id for h in hits] == want
    conn = sqlite3.connect(":memory:")
    conn.execute("CREATE TABLE chunk_rows (rowid INTEGER PRIMARY KEY, product TEXT NOT NULL)")  # as created at 6 or 7
    assert not product_may_be_null(conn)
    with EmbeddedStore(tmp_path / "j.db") as store:
        assert product_may_be_null(store._db)  # noqa: SLF001
