"""Search over several indexes ranked as one (analysis.multi_search) and BM25's zero-document rule.

Two indexes as the language server holds them (one per workspace folder): ``client`` has one chunk
with both words of "fetch owner"; ``petclinic`` has no "fetch" and "owner" in four chunks of five.
Ranked each on its own, petclinic's best "owner"-only hit scored as high as client's real answer
(both 1.0 after min-max fusion) and won the merged answer; merged list by list on raw BM25, it
cannot."""

from __future__ import annotations

from pathlib import Path

import pytest

from analysis.multi_search import merge_lists, search_indexes
from analysis.navigation import UnionGraph
from analysis.retrieval import QueryEngine
from stores.contracts import Chunk, FileRecord, IndexedFile, Node, ScoredChunk
from stores.embedded import EmbeddedStore


def indexed(repo: str, path: str, texts: dict[str, str]) -> IndexedFile:
    """One file of ``repo`` holding one function per entry of ``texts`` (name -> source)."""
    module = path.rsplit(".", 1)[0]
    f = IndexedFile(FileRecord(repo, path, "python", "0" * 64, 100))
    ids = {name: f"{repo}:{module}.{name}(1)" for name in texts}
    f.nodes = [Node(ids[n], "Function", n, n, repo, path, i, 0, i, 9) for i, n in enumerate(texts, 1)]
    f.chunks = [Chunk(ids[n], repo, repo, path, "python", "function", n, ids[n], None, i, i, t, f"sum-{repo}-{n}")
                for i, (n, t) in enumerate(texts.items(), 1)]
    return f


CLIENT = {"fetch_owner": "def fetch_owner(owner_id):\n    return http.get('/owners/' + owner_id)",
          "render": "def render(report):\n    print(report.title)",
          "close": "def close(session):\n    session.close()",
          "retry": "def retry(call, times):\n    return call()",
          "parse": "def parse(text):\n    return json.loads(text)"}
PETCLINIC = {"owner_name": "def owner_name(owner):\n    return owner.name",
             "show": "def show(owner_id):\n    owner = repo.find(owner_id)",
             "save_owner": "def save_owner(owner):\n    repo.save(owner)",
             "owner_pets": "def owner_pets(owner):\n    return owner.pets",
             "visit": "def visit(pet):\n    return pet.visits"}


@pytest.fixture
def stores(tmp_path: Path):
    client, clinic = EmbeddedStore(tmp_path / "client.db"), EmbeddedStore(tmp_path / "petclinic.db")
    client.replace_files([indexed("client", "client/api.py", CLIENT)])
    clinic.replace_files([indexed("petclinic", "clinic/owners.py", PETCLINIC)])
    yield client, clinic
    client.close()
    clinic.close()


def test_several_indexes_rank_as_one(stores) -> None:
    client, clinic = stores
    graph = UnionGraph([client, clinic])
    engines = [QueryEngine(client, client), QueryEngine(clinic, clinic)]
    result = search_indexes(engines, "fetch owner", 10, graph=graph)
    ids = [h.chunk.id for h in result.hits]
    assert ids[0] == "client:client/api.fetch_owner(1)"
    assert sorted(ids[1:]) == sorted(f"petclinic:clinic/owners.{n}(1)" for n in ("owner_name", "show", "save_owner",
                                                                              "owner_pets"))
    assert result.lists == ["bm25"] and (result.chunks, result.embedded) == (10, 0)
    # why: on the raw BM25 scale petclinic's "owner"-only hits (a word in 4 of its 5 chunks: IDF near 0)
    # are far below client's fetch_owner; min-max fusion of each index alone gives both bests 1.0
    raw = [e.ranked_lists("fetch owner")["bm25"][0].score for e in engines]
    assert raw[1] < raw[0] / 100
    # the order of the engines does not matter
    swapped = search_indexes(engines[::-1], "fetch owner", 10, graph=graph)
    assert [h.chunk.id for h in swapped.hits] == ids


def test_one_index_is_its_own_search(stores) -> None:
    client, _ = stores
    engine = QueryEngine(client, client)
    assert [h.chunk.id for h in search_indexes([engine], "fetch owner", 5).hits] == [
        h.chunk.id for h in engine.search("fetch owner", 5).hits]
    with pytest.raises(ValueError, match="no index"):
        search_indexes([], "fetch owner")


def test_merge_lists_by_raw_score() -> None:
    a = {"bm25": [ScoredChunk("a:x", 3.0, 1), ScoredChunk("a:y", 1.0, 2)], "knn": [ScoredChunk("a:y", 0.9, 1)]}
    b = {"bm25": [ScoredChunk("b:z", 2.0, 1), ScoredChunk("a:y", 1.5, 2)], "name": [ScoredChunk("b:z", 1.0, 1)]}
    merged = merge_lists([a, b], 3)
    assert merged == {"bm25": [ScoredChunk("a:x", 3.0, 1), ScoredChunk("b:z", 2.0, 2), ScoredChunk("a:y", 1.5, 3)],
                      "knn": [ScoredChunk("a:y", 0.9, 1)], "name": [ScoredChunk("b:z", 1.0, 1)]}
    assert merge_lists([a, b], 1)["bm25"] == [ScoredChunk("a:x", 3.0, 1)]


def test_a_word_no_chunk_holds_does_not_hide_the_others(tmp_path: Path) -> None:
    # the hostile review: "zebra" in half the chunks (a common word, dropped as such) and "quick" in
    # none; the query used to keep "quick" alone and find nothing
    texts = {f"f{i}": f"def f{i}():\n    return {'zebra' if i < 3 else 'lion'} + {i}" for i in range(6)}
    store = EmbeddedStore(tmp_path / "z.db")
    try:
        store.replace_files([indexed("r", "m.py", texts)])
        assert sorted(h.chunk_id for h in store.bm25("the quick zebra", 10)) == ["r:m.f0(1)", "r:m.f1(1)", "r:m.f2(1)"]
        assert store.bm25("quick", 10) == []  # a word no chunk holds, alone, still finds nothing
        assert sorted(h.chunk_id for h in store.bm25("quick lion", 10)) == ["r:m.f3(1)", "r:m.f4(1)", "r:m.f5(1)"]
    finally:
        store.close()
