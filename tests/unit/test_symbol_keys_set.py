"""The embedded store's ``find_symbol_keys`` asks for every key in one query
(:mod:`stores.embedded_symbols`): the same answer as the contract's default, key by key, with each
key's other-repository nodes cut to the limit by id, the skipped files left out, and a key JSON
cannot carry (a NUL) still answered."""

from __future__ import annotations

from stores.contracts import FileRecord, GraphStore, IndexedFile, Node, SymbolKey
from stores.embedded import EmbeddedStore

LABELS = ["Class", "Function", "Method", "Table"]


def _file(repo: str, path: str, *nodes: tuple[str, str, str]) -> IndexedFile:
    """A file of ``repo`` holding ``(label, name, qualname)`` nodes, each of module ``<repo>.mod``."""
    rows = [Node(f"{repo}:{path}", "File", path, path, repo, path, 1, 0, 1, 0, {})]
    rows += [Node(f"{repo}:{path}:{qual}", label, name, qual, repo, path, 2 + i, 0, 3 + i, 0, {"module": f"{repo}.mod"})
             for i, (label, name, qual) in enumerate(nodes)]
    return IndexedFile(FileRecord(repo, path, "python", "0" * 64, 10), nodes=rows)


class _Default:
    """The contract's default over the embedded store's full nodes."""

    def __init__(self, store: EmbeddedStore) -> None:
        self.store = store

    def find_symbols(self, names, labels=None):  # type: ignore[no-untyped-def]
        return self.store.find_symbols(names, labels)


def _key(repo: str, path: str, label: str, name: str, qual: str) -> SymbolKey:
    return SymbolKey(f"{repo}:{path}:{qual}", label, name, qual, repo, path, f"{repo}.mod")


def _store(tmp_path) -> EmbeddedStore:  # type: ignore[no-untyped-def]
    store = EmbeddedStore(tmp_path / "index.db")
    store.replace_files([_file(f"r{i}", "a.py", ("Class", "Gadget", "Gadget"), ("Method", "run", "Gadget.run"))
                         for i in range(5)]
                        + [_file("app", "a.py", ("Class", "Gadget", "Gadget"), ("Function", "run", "run")),
                           _file("app", "b.py", ("Class", "Gadget", "Gadget"), ("Function", "orders", "orders"))])
    return store


def test_one_query_for_every_key_cut_by_repository_then_skipped(tmp_path):
    store = _store(tmp_path)
    statements: list[str] = []
    store._db.set_trace_callback(statements.append)
    try:
        keys = [("Gadget", ""), ("run", "Gadget.run"), ("run", "Other.run"), ("orders", ""), ("Missing", "")]
        got = store.find_symbol_keys(keys, LABELS, limit=2, skip_repo="app", skip_files=["a.py"])
        assert len(statements) == 2  # whether anything lies outside the skipped files, then every key
    finally:
        store._db.set_trace_callback(None)
    # Two of the other repositories' Gadgets by id (r0, r1); app's b.py kept, app's a.py skipped, all
    # sorted by id and cut to 2: the skipped file's node does not take a place.
    assert got == {
        ("Gadget", ""): [_key("app", "b.py", "Class", "Gadget", "Gadget"), _key("r0", "a.py", "Class", "Gadget", "Gadget")],
        ("run", "Gadget.run"): [_key("r0", "a.py", "Method", "run", "Gadget.run"), _key("r1", "a.py", "Method", "run", "Gadget.run")],
        ("run", "Other.run"): [],  # the tail agrees with no qualname
        ("orders", ""): [_key("app", "b.py", "Function", "orders", "orders")],
        ("Missing", ""): [],
    }
    store.close()


def test_the_same_as_the_contract_default_for_every_limit_label_and_skip(tmp_path):
    store = _store(tmp_path)
    keys = [("Gadget", ""), ("Gadget", "Gadget"), ("run", ""), ("run", "Gadget.run"), ("run", "x.run"), ("orders", "")]
    for labels in (LABELS, ["Table"], ["Method"], None):
        for limit in (None, 1, 2, 4, 10):
            for skip in ({}, {"skip_repo": "app", "skip_files": ["a.py"]}, {"skip_repo": "r3", "skip_files": ["a.py"]},
                         {"skip_repo": "app", "skip_files": []}):
                got = store.find_symbol_keys(keys, labels, limit=limit, **skip)
                assert got == GraphStore.find_symbol_keys(_Default(store), keys, labels, limit=limit, **skip)  # type: ignore[arg-type]
    # a label none of the nodes named so carries finds nothing
    assert store.find_symbol_keys([("orders", "")], ["Class"]) == {("orders", ""): []}
    store.close()


def test_a_key_holding_a_nul_is_answered_on_its_own(tmp_path):
    store = EmbeddedStore(tmp_path / "index.db")
    store.replace_files([_file("lib", "a.py", ("Function", "a\0b", "a\0b"), ("Function", "a", "a"))])
    keys = [("a\0b", ""), ("a", ""), ("a\0", "")]
    got = store.find_symbol_keys(keys, LABELS, limit=4, skip_repo="app")
    assert got == {("a\0b", ""): [_key("lib", "a.py", "Function", "a\0b", "a\0b")],
                   ("a", ""): [_key("lib", "a.py", "Function", "a", "a")],
                   ("a\0", ""): []}
    store.close()
