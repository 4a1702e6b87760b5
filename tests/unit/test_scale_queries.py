"""Queries over a store of many repositories: a name defined in every repository (the 500-repository
benchmark's generated code, ``get`` / ``__init__`` in real code) and several workspace folders served
from one central index file."""

from __future__ import annotations

from pathlib import Path
from types import SimpleNamespace

from lsp_server.server import RippleServer
from stores.contracts import Edge, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore

REPOS = [f"r{i:02d}" for i in range(40)]


def _repo_file(repo: str) -> IndexedFile:
    """``repo``'s ``m.py``: ``load`` (called by ``main``), ``loader``, ``load_all`` and a Topic ``load``."""
    path = "m.py"
    return IndexedFile(FileRecord(repo, path, "python", "a" * 64, 10), nodes=[
        Node(f"{repo}:{path}", "File", path, path, repo, path, 1, 0, 30, 0),
        Node(f"{repo}:m.load(0)", "Function", "load", "load", repo, path, 1, 0, 2, 0, props={"arity": 0}),
        Node(f"{repo}:m.loader(0)", "Function", "loader", "loader", repo, path, 4, 0, 5, 0),
        Node(f"{repo}:m.load_all(0)", "Function", "load_all", "load_all", repo, path, 7, 0, 8, 0),
        Node(f"{repo}:m.main(0)", "Function", "main", "main", repo, path, 10, 0, 12, 0),
        Node("topic:load", "Topic", "load", "load", "", "", 0, 0, 0, 0),
    ], edges=[Edge("CALLS", f"{repo}:m.main(0)", f"{repo}:m.load(0)", repo, path, 11, 4, "exact"),
              Edge("PRODUCES", f"{repo}:m.main(0)", "topic:load", repo, path, 12, 4)])


def _store(db: Path) -> EmbeddedStore:
    store = EmbeddedStore(db)
    store.replace_files([_repo_file(r) for r in REPOS])
    return store


def test_a_name_in_every_repository_gives_the_first_limit_nodes_in_rank_then_id_order(tmp_path):
    with _store(tmp_path / "i.db") as s:
        got = s.search_symbols("load", 50)
        # exact name first (40 nodes, by id), then the shorter prefix match; the Topic is no code symbol
        assert [n.id for n in got] == [f"{r}:m.load(0)" for r in REPOS] + [f"{r}:m.loader(0)" for r in REPOS[:10]]
        assert got[0].props == {"arity": 0} and got[0].start_line == 1 and got[0].file == "m.py"
        assert [n.id for n in s.search_symbols("load", 3)] == ["r00:m.load(0)", "r01:m.load(0)", "r02:m.load(0)"]
        assert [n.id for n in s.search_symbols("lda", 2)] == ["r00:m.load_all(0)", "r01:m.load_all(0)"]
        assert len(s.search_symbols("load", 500)) == 3 * len(REPOS)
        assert s.search_symbols("load", 0) == [] and s.search_symbols("zzz", 10) == []


class _Counting:
    """A store that counts the reads the server's graph sends it."""

    def __init__(self, inner: EmbeddedStore) -> None:
        self.inner, self.reads = inner, 0

    def __getattr__(self, name: str):
        self.reads += 1
        return getattr(self.inner, name)


def test_folders_sharing_one_index_file_are_read_once(tmp_path):
    db = tmp_path / "central.db"
    _store(db).close()
    one, two, own = (_Counting(EmbeddedStore(p)) for p in (db, db, tmp_path / "own.db"))
    folders = [SimpleNamespace(db=db, store=one, state="ready"), SimpleNamespace(db=db, store=two, state="ready"),
               SimpleNamespace(db=tmp_path / "own.db", store=own, state="ready"),
               SimpleNamespace(db=tmp_path / "bad.db", store=None, state="error", error="broken")]
    graph = RippleServer.graph(SimpleNamespace(session=None, folders=folders))
    assert len(graph.stores) == 2 and own in graph.stores
    incoming = graph.incoming(["r07:m.load(0)"], ["CALLS"])
    assert [(e.src, e.line) for e in incoming["r07:m.load(0)"]] == [("r07:m.main(0)", 11)]
    assert sorted([one.reads + two.reads, own.reads]) == [1, 1]  # the central file once, not once per folder
    for s in (one, two, own):
        s.inner.close()
