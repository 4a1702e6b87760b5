"""A NUL inside a name read from a string (a test title written ``"first \\0 is removed"``, as TypeORM's
issue-7521 test is): the index is written whole, not cut short by a KeyError in the store."""

from __future__ import annotations

from pathlib import Path

from tests.golden.harness import edge_rows

_TEST = ('function helper() { return 1; }\n'
         'describe("first \\0 is removed, \\\\ escaped", () => {\n'
         '  it("works \\0 here", () => { helper(); });\n'
         '});\n')


def test_a_test_title_holding_a_nul_names_its_node_without_it(tmp_path: Path) -> None:
    rows = edge_rows(tmp_path / "repo", {"a.test.js": _TEST}, "CALLS")
    assert [(src, dst, line) for src, dst, line, _ in rows] == [
        ("app:a.test.describe first is removed, escaped.it works here(0)", "app:a.test.helper(0)", 3)]
    assert not any("\x00" in src or "\x00" in dst for src, dst, _, _ in rows)


def test_the_store_writes_and_reads_an_id_holding_a_nul(tmp_path: Path) -> None:
    from stores.contracts import Edge, FileRecord, IndexedFile, Node
    from stores.embedded import EmbeddedStore

    store = EmbeddedStore(tmp_path / "g.db")
    try:
        odd, plain = "r:m.odd\x00name(0)", "r:m.plain(0)"
        nodes = [Node(odd, "Function", "odd\x00name", "m.odd\x00name", "r", "m.js", 1, 0, 1, 5),
                 Node(plain, "Function", "plain", "m.plain", "r", "m.js", 2, 0, 2, 5)]
        edge = Edge("CALLS", odd, plain, "r", "m.js", 1, 2, "exact")
        store.replace_files([IndexedFile(FileRecord("r", "m.js", "javascript", "a" * 64, 10), nodes, [edge])])
        assert [n.id for n in store.nodes_in_file("r", "m.js")] == [odd, plain]
        assert [e.src for e in store.incoming([plain], ["CALLS"])[plain]] == [odd]
    finally:
        store.close()
