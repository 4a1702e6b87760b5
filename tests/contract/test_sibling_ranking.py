"""Same-name siblings on every SearchIndex backend (issue 22 item 2): BM25 tells them apart by the class,
module and signature their ``fqn`` field carries (their texts are identical here), and the QueryEngine's
exact-definitions step ranks them alike over any backend (the ranking happens in the engine)."""

from __future__ import annotations

import hashlib
from pathlib import Path

from analysis.retrieval import QueryEngine
from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node
from stores.embedded import EmbeddedStore

PY_TEXT = "def save(self, item):\n    self.session.add(item)"
JAVA_TEXT = "public void add(Object x) { entries.add(x); }"


def _pair(repo: str, path: str, qualname: str, sig: str, language: str, text: str) -> tuple[Node, Chunk]:
    module = path.rsplit(".", 1)[0]
    nid = f"{repo}:{module}.{qualname}{sig}"
    name = qualname.rsplit(".", 1)[-1]
    node = Node(nid, "Method", name, qualname, repo, path, 1, 0, 2, 0, {"language": language})
    chunk = Chunk(nid, repo, repo, path, language, "method", name, nid, None, 1, 2, text,
                  hashlib.sha1(text.encode()).hexdigest())
    return node, chunk


ORDER_SAVE = _pair("shop", "src/orders.py", "OrderRepository.save", "(1)", "python", PY_TEXT)
OWNER_SAVE = _pair("shop", "src/owners.py", "OwnerRepository.save", "(1)", "python", PY_TEXT)
ADD_VISIT = _pair("vets", "src/Calendar.java", "Calendar.add", "(Visit)", "java", JAVA_TEXT)
ADD_OWNER = _pair("vets", "src/Calendar.java", "Calendar.add", "(Owner)", "java", JAVA_TEXT)
FILLER = [_pair("billing", "src/invoices.py", f"Invoice.total_{i}", "(1)", "python",
                f"def total_{i}(self):\n    return sum(line.amount for line in self.lines)") for i in range(20)]
ALL = [ORDER_SAVE, OWNER_SAVE, ADD_VISIT, ADD_OWNER, *FILLER]


def _files(with_chunks: bool, edges: dict[str, list[Edge]] | None = None) -> list[IndexedFile]:
    out: dict[tuple[str, str], IndexedFile] = {}
    for node, chunk in ALL:
        f = out.setdefault((node.repo, node.file), IndexedFile(FileRecord(node.repo, node.file, chunk.language,
                                                                          "1" * 64, 100)))
        f.nodes.append(node)
        if with_chunks:
            f.chunks.append(chunk)
        f.edges.extend((edges or {}).get(node.id, []))
    return list(out.values())


def test_bm25_tells_same_text_siblings_apart_by_class_module_and_signature(search_index):
    search_index.replace_chunks(_files(with_chunks=True))
    for query, first in (("OwnerRepository save", OWNER_SAVE), ("order repository save", ORDER_SAVE),
                         ("orders save", ORDER_SAVE), ("add Owner", ADD_OWNER), ("add visit", ADD_VISIT)):
        hits = search_index.bm25(query, 5)
        assert hits[0].chunk_id == first[1].id, query
        sibling = {OWNER_SAVE: ORDER_SAVE, ORDER_SAVE: OWNER_SAVE, ADD_OWNER: ADD_VISIT, ADD_VISIT: ADD_OWNER}[first]
        assert hits[0].score > next(h.score for h in hits if h.chunk_id == sibling[1].id), query


def test_the_engine_ranks_exact_siblings_alike_on_every_backend(search_index, tmp_path: Path):
    search_index.replace_chunks(_files(with_chunks=True))
    graph = EmbeddedStore(tmp_path / "graph.db")
    try:
        caller = FILLER[0][0]
        calls = {OWNER_SAVE[0].id: [Edge("CALLS", caller.id, OWNER_SAVE[0].id, "billing", caller.file, 1, 1, "exact")]}
        graph.replace_files(_files(with_chunks=False, edges={caller.id: calls[OWNER_SAVE[0].id]}))
        result = QueryEngine(graph, search_index).search("save", limit=3)
        assert [h.node.id for h in result.hits][:2] == [OWNER_SAVE[0].id, ORDER_SAVE[0].id]  # called first
        assert [h.ranks.get("name") for h in result.hits][:2] == [1, 2]
        assert [h.node.id for h in QueryEngine(graph, search_index).search("OrderRepository.save").hits][:1] == [
            ORDER_SAVE[0].id]
    finally:
        graph.close()
