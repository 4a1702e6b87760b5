"""Doc-mention edges from a bounded lookup (issue 19: indexing click into a 500-repository store read
249,426 full nodes for 456 mentioned names). :func:`indexer.mentions.add_mention_edges` reads only
names (:meth:`stores.contracts.GraphStore.find_symbol_keys`): for a qualified mention only the nodes
whose qualname agrees with it, for an unqualified one at most ``MAX_TARGETS + 1`` nodes of other
repositories; a spilled run's doc mentions read small key records, not the outputs again."""

from __future__ import annotations

from typing import Any

import pytest

from indexer.mentions import MAX_TARGETS, MENTION_LABELS, add_mention_edges
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from indexer.spill import SpilledOutputs
from stores.contracts import Chunk, FileRecord, GraphStore, IndexedFile, Node, SymbolKey
from stores.embedded import EmbeddedStore


def _file(repo: str, path: str, module: str, *quals: tuple[str, str]) -> IndexedFile:
    """A Python file of ``repo`` whose nodes are ``(label, qualname)``, all of module ``module``."""
    stem = path.rsplit(".", 1)[0]
    nodes = [Node(f"{repo}:{path}", "File", path, path, repo, path, 1, 0, 1, 0, {"module": module})]
    for i, (label, qual) in enumerate(quals):
        suffix = "(1)" if label in ("Method", "Function", "Constructor") else ""
        nodes.append(Node(f"{repo}:{stem}.{qual}{suffix}", label, qual.rsplit(".", 1)[-1], qual, repo, path, 2 + i, 0,
                          3 + i, 0, {"module": module, "signature": "x" * 200}))
    return IndexedFile(FileRecord(repo, path, "python", "0" * 64, 10), nodes=nodes)


def _doc(repo: str, path: str, text: str) -> IndexedFile:
    chunk = Chunk("c", repo, "p", path, "markdown", "doc", "Guide", f"{repo}:{path}", None, 1, 9, text, "x")
    node = Node(f"{repo}:{path}", "File", path, path, repo, path, 1, 0, 1, 0, {})
    return IndexedFile(FileRecord(repo, path, "markdown", "1" * 64, len(text)), nodes=[node], chunks=[chunk])


class _Spy(EmbeddedStore):
    """An embedded store that counts the nodes its name lookups return and refuses full-node reads."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.read: list[int] = []

    def find_symbol_keys(self, keys, labels=None, **kwargs):  # type: ignore[no-untyped-def]
        got = super().find_symbol_keys(keys, labels, **kwargs)
        self.read.append(sum(len(v) for v in got.values()))
        return got

    def find_symbols(self, names, labels=None):  # type: ignore[no-untyped-def]
        raise AssertionError("the mention lookup read full nodes")


def _crowd(store: EmbeddedStore, repos: int) -> None:
    """``repos`` repositories, each with a ``Context.invoke`` of its own module, an ``OrderService``,
    a ``Gadget<i>.__init__`` and a ``compute_total``: names shared across all of them."""
    store.replace_files([
        _file(f"r{i:02d}", "src/core.py", f"pkg{i}.core", ("Class", "Context"), ("Method", "Context.invoke"),
              ("Class", "OrderService"), ("Constructor", f"Gadget{i}.__init__"), ("Function", "compute_total"))
        for i in range(repos)])


@pytest.fixture
def spy(tmp_path):
    store = _Spy(tmp_path / "index.db")
    _crowd(store, 40)
    store.replace_files([_file("click", "src/click/core.py", "click.core", ("Class", "Context"),
                               ("Method", "Context.invoke"), ("Class", "Widget"), ("Constructor", "Widget.__init__"),
                               ("Function", "make_widget"))])
    yield store
    store.close()


def test_a_qualified_mention_links_its_definition_among_many_of_the_same_name(spy):
    doc = _doc("docs", "guide.md", "Call `click.core.Context.invoke` or `click.Context.invoke`;\n"
                                   "`click.core.Widget.__init__` checks, `pkg7.core.Context`.")
    assert add_mention_edges([doc], spy) == 4
    assert [(e.dst, e.line, e.col) for e in doc.edges] == [
        ("click:src/click/core.Context.invoke(1)", 1, 5),
        ("click:src/click/core.Context.invoke(1)", 1, 36),  # click.Context: re-exported by the package
        ("click:src/click/core.Widget.__init__(1)", 2, 0),
        ("r07:src/core.Context", 2, 37),
    ]
    assert {e.kind for e in doc.edges} == {"MENTIONS"} and {e.src for e in doc.edges} == {"docs:guide.md"}
    # Read, names only: the 41 Context.invoke for each of the two tails (their qualname agrees with
    # both; the module is told apart here), the 41 Context, and of the 81 __init__ only click's
    # Widget.__init__: never the 40 Gadget<i>.__init__. find_symbols would return 41 + 81 + 41 full nodes.
    assert spy.read == [41 + 41 + 1 + 41]


def test_an_unqualified_name_of_too_many_nodes_links_nothing_and_reads_a_few(spy):
    doc = _doc("docs", "guide.md", "See `OrderService`, `compute_total` and `make_widget`.")
    assert add_mention_edges([doc], spy) == 1
    assert [e.dst for e in doc.edges] == ["click:src/click/core.make_widget(1)"]  # OrderService: 40 classes, none
    # OrderService and compute_total: cut at MAX_TARGETS + 1 each, of 40; make_widget: 1
    assert spy.read == [2 * (MAX_TARGETS + 1) + 1]


def test_at_most_max_targets_link_and_replaced_files_do_not_count(tmp_path):
    store = _Spy(tmp_path / "index.db")
    _crowd(store, MAX_TARGETS - 1)  # two OrderService classes elsewhere
    store.replace_files([_file("docs", "src/old.py", "old", ("Class", "OrderService"))])
    doc = _doc("docs", "guide.md", "An `OrderService`.")
    # this run rewrites docs' src/old.py without its OrderService and adds one in src/new.py: 2 + 1
    written = [doc, _file("docs", "src/old.py", "old"), _file("docs", "src/new.py", "new", ("Class", "OrderService"))]
    assert add_mention_edges([doc], store, written) == MAX_TARGETS
    assert [e.dst for e in doc.edges] == ["docs:src/new.OrderService", "r00:src/core.OrderService",
                                          "r01:src/core.OrderService"]
    # one more elsewhere: four candidates, no edge
    store.replace_files([_file("zz", "src/core.py", "zz.core", ("Class", "OrderService"))])
    doc = _doc("docs", "guide.md", "An `OrderService`.")
    assert add_mention_edges([doc], store, [doc, *written[1:]]) == 0 and doc.edges == []
    store.close()


def test_the_embedded_lookup_answers_as_the_contract_default(spy):
    keys = [("invoke", "Context.invoke"), ("invoke", "click.core.Context.invoke"), ("OrderService", ""),
            ("__init__", "Widget.__init__"), ("__init__", "Gadget3.__init__"), ("Context", "pkg1.core.Context"),
            ("nothing", "")]
    labels = sorted(MENTION_LABELS)
    for kwargs in ({}, {"limit": 4}, {"limit": 2, "skip_repo": "r00", "skip_files": ["src/core.py"]},
                   {"skip_repo": "click", "skip_files": ["src/click/core.py"]}):
        got = spy.find_symbol_keys(keys, labels, **kwargs)
        assert got == GraphStore.find_symbol_keys(_Default(spy), keys, labels, **kwargs)  # type: ignore[arg-type]
    got = spy.find_symbol_keys(keys, labels)
    assert len(got[("invoke", "Context.invoke")]) == 41 and len(got[("OrderService", "")]) == 40
    assert got[("__init__", "Gadget3.__init__")] == [SymbolKey(
        "r03:src/core.Gadget3.__init__(1)", "Constructor", "__init__", "Gadget3.__init__", "r03", "src/core.py",
        "pkg3.core")]
    assert got[("nothing", "")] == []


class _Default:
    """What the contract's default :meth:`~stores.contracts.GraphStore.find_symbol_keys` needs: the
    full nodes of :meth:`find_symbols`, here the embedded store's (past the spy's refusal)."""

    def __init__(self, store: EmbeddedStore) -> None:
        self.store = store

    def find_symbols(self, names, labels=None):  # type: ignore[no-untyped-def]
        return EmbeddedStore.find_symbols(self.store, names, labels)


def test_a_spilled_run_reads_each_output_once_whatever_its_docs_mention(tmp_path, monkeypatch):
    root = tmp_path / "src"
    (root / "pkg").mkdir(parents=True)
    (root / "pkg" / "__init__.py").write_text("", encoding="utf-8")
    (root / "pkg" / "zeta.py").write_text("class OrderService:\n    pass\n\n\ndef compute_total(x):\n    return x\n",
                                          encoding="utf-8")
    for i in range(3):  # three docs, each written in its own batch, each naming zeta's nodes
        (root / f"a{i}.md").write_text(f"# N{i}\n\nSee `OrderService` and `pkg.zeta.compute_total`.\n", encoding="utf-8")
    loads: list[str] = []
    original = SpilledOutputs._load

    def load(self, item):  # type: ignore[no-untyped-def]
        out = original(self, item)
        loads.append(out.file.path)
        return out

    monkeypatch.setattr(SpilledOutputs, "_load", load)
    monkeypatch.setattr(IndexOptions, "write_batch_bytes", lambda self: 1)
    store = EmbeddedStore(tmp_path / "index.db")
    index_repository(root, store, store, IndexOptions(repo="r", state_dir=str(tmp_path / "state")))
    edges = store._db.execute(  # noqa: SLF001 - the test reads what was written
        "SELECT file, dst FROM edges WHERE kind = 'MENTIONS' ORDER BY file, dst").fetchall()
    store.close()
    assert edges == [(f"a{i}.md", dst) for i in range(3) for dst in ("r:pkg/zeta.OrderService",
                                                                       "r:pkg/zeta.compute_total(1)")]
    # once, to write (the comparison with the index takes the summary made when it was spilled):
    # zeta.py is not read again for the three docs, which read its spilled mention keys
    assert sorted(loads) == ["a0.md", "a1.md", "a2.md", "pkg/__init__.py", "pkg/zeta.py"]


def test_a_store_holding_only_the_skipped_files_answers_in_one_query(tmp_path):
    """A repository's first index into a store of its own: every node the per-key queries could find
    is in a file the write replaces, so one query answers (empty) for every key; a node of those
    labels anywhere else (another repository, a file of the same one not replaced, a shared node)
    makes the keys queried, all in one more query, as the contract's default answers."""
    store = EmbeddedStore(tmp_path / "index.db")
    store.replace_files([_file("app", "src/core.py", "app.core", ("Class", "OrderService"), ("Function", "compute_total")),
                         _file("app", "src/util.py", "app.util", ("Function", "compute_total"))])
    statements: list[str] = []
    conn = store._db
    conn.set_trace_callback(statements.append)
    keys = [("OrderService", ""), ("compute_total", ""), ("compute_total", "app.util.compute_total")]
    labels = sorted(MENTION_LABELS)
    skip = {"skip_repo": "app", "skip_files": ["src/core.py", "src/util.py"]}
    try:
        assert store.find_symbol_keys(keys, labels, limit=MAX_TARGETS + 1, **skip) == {k: [] for k in keys}
        assert len(statements) == 1
        statements.clear()
        # src/util.py not replaced: its compute_total is found, every key in one more query
        got = store.find_symbol_keys(keys, labels, limit=MAX_TARGETS + 1, skip_repo="app", skip_files=["src/core.py"])
        assert len(statements) == 2
        assert got == {("OrderService", ""): [],
                       ("compute_total", ""): [SymbolKey("app:src/util.compute_total(1)", "Function", "compute_total",
                                                         "compute_total", "app", "src/util.py", "app.util")],
                       ("compute_total", "app.util.compute_total"): [SymbolKey(
                           "app:src/util.compute_total(1)", "Function", "compute_total", "compute_total", "app",
                           "src/util.py", "app.util")]}
        # labels none of the stored nodes carry: nothing outside the skipped files either
        statements.clear()
        assert store.find_symbol_keys(keys, ["Table"], **skip) == {k: [] for k in keys} and len(statements) == 1
        # no skip_repo: nothing is skipped, every stored node counts
        statements.clear()
        got = store.find_symbol_keys(keys, labels, skip_files=["src/core.py", "src/util.py"])
        assert [len(got[k]) for k in keys] == [1, 2, 2] and len(statements) == 2  # (the tail agrees with both)
        # another repository's node of the name: queried, found, and the same as the contract's default
        store.replace_files([_file("lib", "src/core.py", "lib.core", ("Class", "OrderService"))])
        for kwargs in (skip, {"limit": 1, **skip}, {}):
            got = store.find_symbol_keys(keys, labels, **kwargs)
            assert got == GraphStore.find_symbol_keys(_Default(store), keys, labels, **kwargs)  # type: ignore[arg-type]
        assert [k.id for k in store.find_symbol_keys(keys, labels, **skip)[("OrderService", "")]] == [
            "lib:src/core.OrderService"]
    finally:
        conn.set_trace_callback(None)
        store.close()
