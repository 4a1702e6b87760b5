"""Repository registry contract: every backend keeps the same ``Repository`` entries and removes a
repository whole (graph, chunks, vectors), leaving every other repository as it was."""

from __future__ import annotations

from dataclasses import replace

from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, RepositoryRecord

from tests.contract.test_graph_store import (BILLING, FIND, PAY, PAY_FN, SHOP, api, client, file_node, load, node)
from tests.contract.test_graph_store import EP, TOPIC, SHOW, FETCH  # shared-node fixtures

SHOP_DEV = "shop@dev"


def record(key: str, name: str, branch: str | None = "main", default: bool = True, **kw) -> RepositoryRecord:
    return RepositoryRecord(key=key, name=name, product=kw.pop("product", name), root=f"/src/{name}", branch=branch,
                            default=default, remote=kw.pop("remote", None), commit=kw.pop("commit", None),
                            indexed_at=kw.pop("indexed_at", 1_700_000_000.5),
                            counts=kw.pop("counts", {"files": 1, "nodes": 2, "edges": 3, "chunks": 4, "vectors": 5}),
                            props=kw.pop("props", {}))


def dev_copy() -> IndexedFile:
    """``shop@dev``: the same file path as shop's owners.py, on another branch (other ids)."""
    path = "src/owners.py"
    find = "shop@dev:src/owners.OwnerRepository.find(1)"
    return IndexedFile(
        FileRecord(SHOP_DEV, path, "python", "9" * 64, 10),
        nodes=[file_node(SHOP_DEV, path, "python"), node(find, "Method", SHOP_DEV, path, 4)],
        edges=[Edge("CALLS", find, FIND, SHOP_DEV, path, 5, 1, "name")],  # into the default branch
        chunks=[Chunk("c-dev", SHOP_DEV, "shop", path, "python", "method", "find", find, None, 4, 9,
                      "def find(self, id): ...", "k" * 64)],
    )


def test_registry_round_trip_and_order(graph_store):
    assert graph_store.repositories() == []
    a = record(SHOP, "shop", remote="git@example.org:shop.git", commit="0" * 40,
               props={"behind": 0, "digest": "x"})
    b = record(SHOP_DEV, "shop", branch="dev", default=False)
    c = record(BILLING, "billing", branch=None)
    for r in (b, c, a):
        graph_store.upsert_repository(r)
    got = graph_store.repositories()
    assert [r.key for r in got] == [BILLING, SHOP, SHOP_DEV]
    assert got[1] == a
    assert got[1].counts == {"files": 1, "nodes": 2, "edges": 3, "chunks": 4, "vectors": 5}
    assert got[1].props == {"behind": 0, "digest": "x"}
    assert (got[0].branch, got[0].remote, got[0].commit) == (None, None, None)
    assert (got[2].branch, got[2].default) == ("dev", False)
    # Upsert replaces the entry whole.
    graph_store.upsert_repository(replace(a, commit="1" * 40, indexed_at=1_800_000_000.0, counts={"files": 7}))
    again = {r.key: r for r in graph_store.repositories()}[SHOP]
    assert (again.commit, again.indexed_at) == ("1" * 40, 1_800_000_000.0)
    assert again.counts == {"files": 7, "nodes": 0, "edges": 0, "chunks": 0, "vectors": 0}
    assert len(graph_store.repositories()) == 3


def test_repository_counts(graph_store):
    load(graph_store)
    assert graph_store.repository_counts(SHOP) == {"files": 4, "nodes": 11, "edges": 12}
    assert graph_store.repository_counts(BILLING) == {"files": 1, "nodes": 2, "edges": 1}
    assert graph_store.repository_counts("nobody") == {"files": 0, "nodes": 0, "edges": 0}


def test_remove_repository_takes_everything_of_it_and_nothing_else(graph_store):
    load(graph_store)
    callers_before = graph_store.incoming([FIND], ["CALLS"])[FIND]
    graph_store.replace_files([dev_copy()])
    assert len(graph_store.incoming([FIND], ["CALLS"])[FIND]) == len(callers_before) + 1
    for r in (record(SHOP, "shop"), record(SHOP_DEV, "shop", branch="dev", default=False), record(BILLING, "billing")):
        graph_store.upsert_repository(r)
    shop_before = graph_store.file_checksums(SHOP)
    assert graph_store.remove_repository(SHOP_DEV) is True
    assert [r.key for r in graph_store.repositories()] == [BILLING, SHOP]
    assert graph_store.repos() == [BILLING, SHOP]
    assert graph_store.file_checksums(SHOP_DEV) == {}
    assert graph_store.get_nodes(["shop@dev:src/owners.OwnerRepository.find(1)"]) == {}
    # The dev branch's call into shop went with it; shop's own callers stayed.
    assert graph_store.incoming([FIND], ["CALLS"])[FIND] == callers_before
    assert PAY_FN in [e.src for e in callers_before]
    assert graph_store.file_checksums(SHOP) == shop_before
    # Removing shop takes the edge billing owned into shop's nodes (DETACH), and nothing of billing.
    assert graph_store.remove_repository(SHOP) is True
    assert graph_store.repos() == [BILLING]
    assert graph_store.outgoing([PAY_FN], ["CALLS"]) == {PAY_FN: []}
    assert graph_store.file_checksums(BILLING) == {PAY: "f" * 64}
    assert graph_store.repository_counts(SHOP) == {"files": 0, "nodes": 0, "edges": 0}
    assert graph_store.stats()["nodes"] == {"File": 1, "Function": 1}
    # Nothing left of it: a second removal says so.
    assert graph_store.remove_repository(SHOP) is False
    assert graph_store.remove_repository("never-indexed") is False


def test_remove_repository_collects_shared_nodes_it_alone_touched(graph_store):
    graph_store.replace_files([api(), client()])
    graph_store.remove_repository(BILLING)
    # The endpoint is still exposed by shop; the topic too: both stay.
    assert set(graph_store.get_nodes([EP, TOPIC])) == {EP, TOPIC}
    assert graph_store.outgoing([FETCH], ["CALLS_HTTP"]) == {FETCH: []}
    graph_store.remove_repository(SHOP)
    assert graph_store.get_nodes([EP, TOPIC, SHOW]) == {}
    assert graph_store.stats()["nodes"] == {}


def test_remove_repository_is_exact_on_the_name(graph_store):
    """``shop`` never takes ``shop@dev`` nor ``shopfront``: no prefix or pattern."""
    graph_store.replace_files([dev_copy()])
    graph_store.upsert_repository(record(SHOP_DEV, "shop", branch="dev", default=False))
    graph_store.upsert_repository(record("shopfront", "shopfront"))
    assert graph_store.remove_repository(SHOP) is False
    assert [r.key for r in graph_store.repositories()] == [SHOP_DEV, "shopfront"]
    assert graph_store.repos() == [SHOP_DEV]


def test_search_side_removal_is_exact(search_index):
    search_index.replace_chunks([dev_copy()])
    other = IndexedFile(FileRecord("shop", "src/owners.py", "python", "8" * 64, 10), chunks=[
        Chunk("c-main", "shop", "shop", "src/owners.py", "python", "method", "find",
              "shop:src/owners.OwnerRepository.find(1)", None, 4, 9, "def find(self, id): ...", "k" * 64)])
    search_index.replace_chunks([other])
    search_index.set_embeddings({"c-dev": [1.0] + [0.0] * 383, "c-main": [0.0, 1.0] + [0.0] * 382})
    assert search_index.repository_chunk_count(SHOP_DEV) == {"chunks": 1, "embedded": 1}
    assert search_index.repository_chunk_count(SHOP) == {"chunks": 1, "embedded": 1}
    assert search_index.delete_repository(SHOP_DEV) == 1
    assert search_index.repository_chunk_count(SHOP_DEV) == {"chunks": 0, "embedded": 0}
    assert set(search_index.get_chunks(["c-dev", "c-main"])) == {"c-main"}
    assert search_index.delete_repository(SHOP_DEV) == 0
