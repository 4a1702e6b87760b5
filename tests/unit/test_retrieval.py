"""Reciprocal Rank Fusion and the QueryEngine over the embedded store (hand-made vectors)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, Node, ScoredChunk
from stores.embedded import EmbeddedStore
from analysis.retrieval import FusedHit, QueryEngine, reciprocal_rank_fusion


def ranked(*ids: str) -> list[ScoredChunk]:
    return [ScoredChunk(c, 1.0 / (i + 1), i + 1) for i, c in enumerate(ids)]


def test_rrf_scores_and_order_with_k_60() -> None:
    fused = reciprocal_rank_fusion({"bm25": ranked("a", "b", "c"), "knn": ranked("c", "a", "d")})
    assert [f.chunk_id for f in fused] == ["a", "c", "b", "d"]
    assert fused[0] == FusedHit("a", pytest.approx(1 / 61 + 1 / 62), {"bm25": 1, "knn": 2})
    assert fused[1].score == pytest.approx(1 / 63 + 1 / 61)
    assert fused[2].ranks == {"bm25": 2}
    assert fused[3].ranks == {"knn": 3}


def test_rrf_ties_break_by_best_rank_then_id() -> None:
    fused = reciprocal_rank_fusion({"bm25": ranked("x", "y"), "knn": ranked("y", "x")})
    assert [f.chunk_id for f in fused] == ["x", "y"]


def unit(i: int) -> tuple[float, ...]:
    v = [0.0] * 384
    v[i] = 1.0
    return tuple(v)


def node(id: str, name: str) -> Node:
    return Node(id, "Function", name, name, "r", "m.py", 1, 0, 2, 0)


def chunk(id: str, name: str, text: str, vec: tuple[float, ...] | None) -> Chunk:
    return Chunk(id, "r", "r", "m.py", "python", "function", name, id, None, 1, 2, text, id, vec)


@pytest.fixture
def store(tmp_path: Path):
    s = EmbeddedStore(tmp_path / "index.db")
    f = IndexedFile(FileRecord("r", "m.py", "python", "0" * 64, 10))
    f.nodes = [node("r:m.validate_order(1)", "validate_order"), node("r:m.save_order(1)", "save_order"),
               node("r:m.ship(1)", "ship")]
    f.edges = [Edge("CALLS", "r:m.save_order(1)", "r:m.validate_order(1)", "r", "m.py", 3, 4, "exact"),
               Edge("CALLS", "r:m.ship(1)", "r:m.validate_order(1)", "r", "m.py", 5, 4, "exact")]
    f.chunks = [
        chunk("r:m.validate_order(1)", "validate_order", "def validate_order(o): check totals before saving", unit(0)),
        chunk("r:m.save_order(1)", "save_order", "def save_order(o): validate_order(o); db.save(o)", unit(1)),
        chunk("r:m.ship(1)", "ship", "def ship(o): send the parcel", None),
        # A chunk whose graph node is missing (a half-finished run): dropped from every answer.
        chunk("r:m.ghost(0)", "ghost_order", "def ghost_order(): order order order", unit(2)),
    ]
    s.replace_files([f])
    yield s
    s.close()


def test_hybrid_search_fuses_lists_attaches_nodes_and_drops_orphans(store: EmbeddedStore) -> None:
    engine = QueryEngine(store, store, embed_query=lambda q: unit(0))
    result = engine.search("order", limit=5)
    assert result.lists == ["bm25", "knn"]
    assert [h.node.id for h in result.hits] == ["r:m.validate_order(1)", "r:m.save_order(1)"]
    assert result.hits[0].ranks == {"bm25": 2, "knn": 1}
    assert result.hits[0].callers == 2
    assert result.dropped == 1
    assert result.notes == ["3 of 4 chunks embedded: the rest are found by BM25 only"]


def test_without_embedder_search_is_bm25_only(store: EmbeddedStore) -> None:
    result = QueryEngine(store, store).search("parcel")
    assert result.lists == ["bm25"]
    assert [h.node.name for h in result.hits] == ["ship"]


def test_similar_excludes_the_chunk_itself(store: EmbeddedStore) -> None:
    result = QueryEngine(store, store).similar("r:m.save_order(1)", limit=2)
    assert [h.node.name for h in result.hits] == ["validate_order"]
    assert result.hits[0].score == pytest.approx(0.0)  # the cosine of orthogonal vectors, not a fused score
    missing = QueryEngine(store, store).similar("r:m.ship(1)")
    assert missing.hits == [] and missing.notes == ["r:m.ship(1) has no embedding yet"]


def test_identifier_query_adds_an_exact_name_list_most_called_first(store: EmbeddedStore) -> None:
    result = QueryEngine(store, store).search("validate_order", limit=3)
    assert result.lists == ["bm25", "name"]
    assert result.hits[0].node.name == "validate_order"
    assert result.hits[0].ranks == {"bm25": 1, "name": 1}
    assert QueryEngine(store, store).search("which order is validated", limit=3).lists == ["bm25"]


def test_exact_name_list_honours_filters(store: EmbeddedStore) -> None:
    from stores.contracts import SearchFilters

    assert QueryEngine(store, store).search("validate_order", 3, SearchFilters(language="java")).lists == ["bm25"]
    assert QueryEngine(store, store).search("validate_order", 3, SearchFilters(language="python")).lists == ["bm25", "name"]


def test_the_engine_fuses_with_the_fusion_of_the_query_kind_and_keeps_every_rank(store: EmbeddedStore) -> None:
    from analysis.fusion import Fusion

    def engine(text: Fusion) -> QueryEngine:
        return QueryEngine(store, store, embed_query=lambda q: unit(0),
                           fusion={"text": text, "identifier": Fusion("rrf", 60, {"bm25": 0.0, "knn": 0.0})})

    by_bm25 = engine(Fusion("rrf", 60, {"knn": 0.0})).search("order o", limit=2)
    assert [h.node.name for h in by_bm25.hits] == ["save_order", "validate_order"]
    by_knn = engine(Fusion("rrf", 60, {"bm25": 0.0})).search("order o", limit=2)
    assert [h.node.name for h in by_knn.hits] == ["validate_order", "save_order"]
    assert by_knn.hits[0].ranks == by_bm25.hits[1].ranks == {"bm25": 2, "knn": 1}
    assert by_knn.hits[1].ranks == {"bm25": 1, "knn": 3}
    # an identifier query takes the identifier entry: only the exact-name list counts there
    named = engine(Fusion("rrf", 60, {"name": 0.0})).search("save_order", limit=1)
    assert named.lists == ["bm25", "knn", "name"] and named.hits[0].node.name == "save_order"


def test_ripple_similar_names_the_target_and_lists_the_nearest_code(store: EmbeddedStore, tmp_path: Path) -> None:
    from click.testing import CliRunner

    from lsp_server.cli import main

    store.close()
    db = str(tmp_path / "index.db")
    runner = CliRunner()
    res = runner.invoke(main, ["similar", "save_order", "--db", db, "--json"])
    assert res.exit_code == 0, res.output
    data = json.loads(res.stdout)
    assert data["target"] == "r:m.save_order(1)"
    assert [(h["fqn"], h["score"]) for h in data["hits"]] == [("r:m.validate_order(1)", 0.0)]
    missing = runner.invoke(main, ["similar", "nosuch", "--db", db])
    assert missing.exit_code == 1 and "no class, method or function matches 'nosuch'" in missing.output
    unembedded = runner.invoke(main, ["similar", "ship", "--db", db])
    assert unembedded.exit_code == 0 and "nothing similar to r:m.ship(1)" in unembedded.stdout
