"""Schema 8 of the embedded store: ids found by a hash of their text, qualified names kept as ranges
of the ids, the common node properties in typed columns (stores/embedded_schema.py)."""

from __future__ import annotations

import json
import sqlite3

import pytest

from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore
from stores.embedded_schema import SCHEMA_VERSION, encode_qualname, id_hash, join_props, split_props
from stores.errors import StoreOutdated

# Two ids of one CRC-32 (found by counting up): the hash index holds both under one key.
TWIN_A, TWIN_B = "r:m.f29685295", "r:m.f32060020"

PROPS = {"arity": 2, "documented": True, "language": "python", "max_arity": None, "min_arity": 1,
         "module": "pkg.cafe", "name_col": 8, "name_line": 4, "signature": 'def brew(self, kind="flat")'}
"""A method's properties: ``max_arity`` null (varargs) and a signature holding a quote stay in the JSON."""


def _indexed() -> IndexedFile:
    nodes = [Node("r:pkg/cafe.py", "File", "cafe.py", "pkg/cafe.py", "r", "pkg/cafe.py", 1, 0, 9, 0,
                  {"language": "python", "module": "pkg.cafe"}),
             Node("r:pkg/cafe.Cafe.brew(2)", "Method", "brew", "Cafe.brew", "r", "pkg/cafe.py", 4, 4, 5, 0, PROPS),
             Node(TWIN_A, "Function", "fa", "fa", "r", "pkg/cafe.py", 6, 0, 6, 9, {"arity": 0, "language": "python"}),
             Node(TWIN_B, "Function", "fb", "elsewhere.fb", "r", "pkg/cafe.py", 7, 0, 7, 9, {"name_line": 7})]
    edges = [Edge("CONTAINS", "r:pkg/cafe.py", i, "r", "pkg/cafe.py") for i in ("r:pkg/cafe.Cafe.brew(2)", TWIN_A, TWIN_B)]
    edges += [Edge("CALLS", "r:pkg/cafe.Cafe.brew(2)", TWIN_A, "r", "pkg/cafe.py", 5, 8, "exact"),
              Edge("CALLS", TWIN_B, "r:pkg/cafe.Cafe.brew(2)", "r", "pkg/cafe.py", 7, 4, "inferred")]
    chunks = [Chunk(i, "r", "p", "pkg/cafe.py", "python", "function", i[-3:], i, None, 6, 7, f"def {i[-3:]}(): pass", i[-8:])
              for i in (TWIN_A, TWIN_B)]
    return IndexedFile(FileRecord("r", "pkg/cafe.py", "python", "c" * 40, 90), nodes=nodes, edges=edges, chunks=chunks,
                       text="x\n" * 9)


def test_the_twin_ids_share_a_hash():
    assert id_hash(TWIN_A) == id_hash(TWIN_B) == -819752232
    assert id_hash("r:pkg/cafe.py") != id_hash(TWIN_A)


def test_ids_of_one_hash_are_told_apart_by_their_text(tmp_path):
    with EmbeddedStore(tmp_path / "s.db") as store:
        store.replace_files([_indexed()])
        db = store._db  # noqa: SLF001
        assert db.execute("SELECT count(*) FROM ids WHERE h = ?", (id_hash(TWIN_A),)).fetchone() == (2,)
        # the text is stored once: no unique index on it, one index on the hash
        assert db.execute("SELECT name FROM sqlite_master WHERE tbl_name = 'ids' AND type = 'index'").fetchall() == [
            ("ids_hash",)]
        nodes = store.get_nodes([TWIN_A, TWIN_B, "r:m.f0"])
        assert {k: (n.name, n.qualname) for k, n in nodes.items()} == {TWIN_A: ("fa", "fa"), TWIN_B: ("fb", "elsewhere.fb")}
        assert [(e.src, e.dst, e.resolution) for e in store.incoming([TWIN_A], ["CALLS"])[TWIN_A]] == [
            ("r:pkg/cafe.Cafe.brew(2)", TWIN_A, "exact")]
        assert store.incoming([TWIN_B], ["CALLS"]) == {TWIN_B: []}  # its twin's caller is not its own
        assert [e.dst for e in store.outgoing([TWIN_B], ["CALLS"])[TWIN_B]] == ["r:pkg/cafe.Cafe.brew(2)"]
        assert store.outgoing([TWIN_A], ["CALLS"]) == {TWIN_A: []}
        assert store.incoming_counts({"a": [TWIN_A], "b": [TWIN_B]}, ["CALLS", "CONTAINS"]) == {"a": 2, "b": 1}
        assert store.incoming_summary([TWIN_A, TWIN_B], ["CALLS"]) == {TWIN_A: {("CALLS", "r", "")}, TWIN_B: set()}
        assert sorted(store.get_chunks([TWIN_B])) == [TWIN_B]
        assert store.get_chunks([TWIN_B])[TWIN_B].text == "def 020(): pass"
        store.set_embeddings({TWIN_B: [1.0, 0.0]})
        assert db.execute("SELECT i.id FROM chunk_rows c JOIN ids i ON i.nid = c.nid WHERE c.embedding IS NOT NULL"
                          ).fetchall() == [(TWIN_B,)]
        # deleting one twin's file rows leaves nothing of either
        store.delete_files("r", ["pkg/cafe.py"])
        assert db.execute("SELECT count(*) FROM ids").fetchone() == (0,)


def test_an_id_found_again_keeps_its_key_and_new_ids_take_the_next_ones(tmp_path):
    with EmbeddedStore(tmp_path / "s.db") as store:
        store.replace_files([_indexed()])
        db = store._db  # noqa: SLF001
        before = dict(db.execute("SELECT id, nid FROM ids").fetchall())
        f = _indexed()
        f.edges.append(Edge("CALLS", TWIN_A, "r:lib.new(0)", "r", "pkg/cafe.py", 6, 2, "external"))
        store.replace_files([f])
        after = dict(db.execute("SELECT id, nid FROM ids").fetchall())
        assert {k: after[k] for k in before} == before
        assert after["r:lib.new(0)"] == max(before.values()) + 1
        assert db.execute("SELECT count(*), count(DISTINCT id) FROM ids").fetchone() == (len(after), len(after))


def test_qualified_names_are_ranges_of_the_ids():
    assert encode_qualname("r:pkg/cafe.Cafe.brew(2)", "Cafe.brew") == (12 << 16) | 9
    assert encode_qualname("r:pkg/cafe.py", "pkg/cafe.py") == (3 << 16) | 11
    assert encode_qualname("r:m.f1", "elsewhere.fb") == "elsewhere.fb"  # not in the id: the text
    assert encode_qualname("r:a\0b", "b") == "b"
    assert encode_qualname("r:a", "") == ""


def test_promoted_properties_round_trip_in_key_order():
    rest, promoted = split_props(PROPS)
    assert rest == {"documented": True, "max_arity": None, "signature": 'def brew(self, kind="flat")'}
    assert promoted == ["python", "pkg.cafe", 4, 8, 2, 1, None, None]
    back = join_props(json.dumps(rest, sort_keys=True), promoted)
    assert list(back.items()) == list(PROPS.items())
    assert split_props({"arity": True, "module": "a\nb", "name_line": 1 << 70}) == (
        {"arity": True, "module": "a\nb", "name_line": 1 << 70}, [None] * 8)
    assert join_props(None, [None] * 8) == {}


def test_a_string_json_escapes_or_utf8_cannot_hold_stays_in_the_json():
    kept = ["a\\b", 'say "hi"', "tab\there", "nul\0", "\x1f", "lone \ud800 half", "\udfff"]
    for value in kept:
        assert split_props({"module": value, "signature": value}) == ({"module": value, "signature": value}, [None] * 8)
    promoted = ["plain", "", "caf\u00e9 \u2603 \U0001f600", "\x7f del", "\ud7ff\ue000", "a'b/c<d>"]
    for value in promoted:
        assert split_props({"module": value}) == ({}, [None, value, None, None, None, None, None, None])


def test_stored_rows_and_views_give_the_written_values(tmp_path):
    with EmbeddedStore(tmp_path / "s.db") as store:
        store.replace_files([_indexed()])
        db = store._db  # noqa: SLF001
        brew = "r:pkg/cafe.Cafe.brew(2)"
        row = db.execute("SELECT typeof(n.qualname), n.props, n.module, n.arity, n.max_arity, n.signature"
                         " FROM node_rows n JOIN ids i ON i.nid = n.nid WHERE i.id = ?", (brew,)).fetchone()
        assert row == ("integer", '{"documented":true,"max_arity":null,"signature":"def brew(self, kind=\\"flat\\")"}',
                       "pkg.cafe", 2, None, None)
        assert db.execute("SELECT typeof(n.qualname), n.qualname FROM node_rows n JOIN ids i ON i.nid = n.nid"
                          " WHERE i.id = ?", (TWIN_B,)).fetchone() == ("text", "elsewhere.fb")
        got = store.get_nodes([brew, "r:pkg/cafe.py", TWIN_A, TWIN_B])
        assert list(got[brew].props.items()) == list(PROPS.items())
        assert got[brew].qualname == "Cafe.brew"
        assert got["r:pkg/cafe.py"].props == {"language": "python", "module": "pkg.cafe"}
        assert got[TWIN_B].props == {"name_line": 7}
        assert store.nodes_in_file("r", "pkg/cafe.py") == [got["r:pkg/cafe.py"], got[brew], got[TWIN_A], got[TWIN_B]]
        assert store.find_symbols(["brew"]) == {"brew": [got[brew]]}
        assert store.labelled(["Method"]) == [got[brew]]
        keys = store.find_symbol_keys([("brew", "Cafe.brew"), ("fb", "fb"), ("fb", "other.fb")])
        assert [(k.id, k.qualname, k.module) for k in keys[("brew", "Cafe.brew")]] == [(brew, "Cafe.brew", "pkg.cafe")]
        assert [(k.id, k.qualname, k.module) for k in keys[("fb", "fb")]] == [(TWIN_B, "elsewhere.fb", "")]
        assert keys[("fb", "other.fb")] == []
        # the schema-5 view: same qualified names, the same properties (promoted keys first)
        view = {i: (q, json.loads(p) if p else None) for i, q, p in db.execute("SELECT id, qualname, props FROM nodes")}
        assert view == {i: (n.qualname, n.props or None) for i, n in got.items()}


def _old_layout(db) -> None:
    """The ids table of schema 6 and 7 (a unique text, no hash)."""
    conn = sqlite3.connect(db)
    conn.executescript("DROP VIEW nodes; DROP VIEW edges; DROP VIEW unresolved; DROP VIEW chunks; DROP INDEX ids_hash;"
                       " ALTER TABLE ids DROP COLUMN h;")
    conn.close()


@pytest.mark.parametrize("version", ["6", "7"])
def test_an_index_of_the_old_graph_layout_says_to_rebuild(tmp_path, version):
    db = tmp_path / "old.db"
    with EmbeddedStore(db):
        pass
    _old_layout(db)
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = ? WHERE key = 'schema_version'", (version,))
    conn.commit()
    conn.close()
    with pytest.raises(StoreOutdated) as info:
        EmbeddedStore(db)
    assert str(info.value) == (f"index {db} has schema version '{version}', this ripplegraph needs {SCHEMA_VERSION};"
                               " run `ripple index` again to rebuild it")
