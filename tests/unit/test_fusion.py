"""Rank fusion (analysis/fusion.py): RRF with k and weights, normalised score fusion, per-kind choice."""

from __future__ import annotations

import pytest

from analysis.fusion import FUSION_BY_KIND, FusedHit, Fusion, fuse, fusion_for, query_kind, rrf, score_fusion
from stores.contracts import ScoredChunk


def scored(*pairs: tuple[str, float]) -> list[ScoredChunk]:
    return [ScoredChunk(c, s, i) for i, (c, s) in enumerate(pairs, 1)]


BM25 = scored(("a", 10.0), ("b", 9.0), ("c", 1.0))
KNN = scored(("c", 0.9), ("d", 0.8), ("a", 0.1))
LISTS = {"bm25": BM25, "knn": KNN}


def ids(hits: list[FusedHit]) -> list[str]:
    return [h.chunk_id for h in hits]


def test_rrf_k60_ties_break_by_best_rank_then_id() -> None:
    fused = rrf(LISTS, 60)
    assert ids(fused) == ["a", "c", "b", "d"]  # a and c tie (1/61 + 1/63), both best rank 1: by id
    assert fused[0] == FusedHit("a", pytest.approx(1 / 61 + 1 / 63), {"bm25": 1, "knn": 3})
    assert fused[2].ranks == {"bm25": 2} and fused[3].ranks == {"knn": 2}


def test_rrf_small_k_and_weights_change_the_order() -> None:
    fused = rrf(LISTS, 10, {"knn": 2.0})
    assert ids(fused) == ["c", "a", "d", "b"]
    assert [h.score for h in fused] == pytest.approx([1 / 13 + 2 / 11, 1 / 11 + 2 / 13, 2 / 12, 1 / 12])
    assert ids(rrf(LISTS, 10, {"knn": 0.0})) == ["a", "b", "c", "d"]  # weight 0: only the tie-break sees knn


def test_minmax_score_fusion() -> None:
    fused = score_fusion(LISTS)
    assert ids(fused) == ["a", "c", "b", "d"]
    assert [h.score for h in fused] == pytest.approx([1.0, 1.0, 8 / 9, 0.7 / 0.8])
    assert ids(score_fusion(LISTS, {"bm25": 0.5})) == ["c", "d", "a", "b"]
    one = score_fusion({"name": scored(("x", 3.0), ("y", 3.0))})  # all-equal scores normalise to 1
    assert [(h.chunk_id, h.score) for h in one] == [("x", 1.0), ("y", 1.0)]


def test_zscore_score_fusion() -> None:
    fused = score_fusion(LISTS, norm="zscore")
    assert ids(fused) == ["b", "d", "c", "a"]
    assert fused[0].score == pytest.approx((9 - 20 / 3) / ((((10 - 20 / 3) ** 2 + (9 - 20 / 3) ** 2
                                                             + (1 - 20 / 3) ** 2) / 3) ** 0.5))


def test_bad_parameters_raise() -> None:
    with pytest.raises(ValueError, match="k must be"):
        rrf(LISTS, -1)
    with pytest.raises(ValueError, match="weights"):
        rrf(LISTS, 60, {"bm25": -1.0})
    with pytest.raises(ValueError, match="normalisation"):
        score_fusion(LISTS, norm="max")
    with pytest.raises(ValueError, match="unknown fusion method"):
        fuse(LISTS, Fusion("borda"))
    assert fuse({}, Fusion()) == []


def test_query_kind_and_the_table() -> None:
    assert [query_kind(q) for q in ("url_for", " Config.from_envvar ", "$el", "where is x done", "a-b", "")] == \
        ["identifier", "identifier", "identifier", "text", "text", "text"]
    table = {"identifier": Fusion("minmax"), "text": Fusion("rrf", 10)}
    assert fusion_for("Foo.bar", table).method == "minmax"
    assert fusion_for("how does foo work", table) == Fusion("rrf", 10)
    assert set(FUSION_BY_KIND) == {"identifier", "text"}
    assert Fusion("rrf", 10, {"knn": 1.5}).label() == "RRF k=10 knn=1.5"


def test_the_measured_choice() -> None:
    assert FUSION_BY_KIND["text"] == Fusion("minmax")
    assert FUSION_BY_KIND["identifier"] == Fusion("rrf", 60)
    # text: BM25's first hit stands far above the rest and is the dense list's close second; ranks alone
    # (the former RRF k=60, knn 1.5) put the dense list's first, a BM25 also-ran, ahead of it.
    lists = {"bm25": scored(("a", 10.0), ("x", 2.0), ("y", 1.9), ("z", 1.8)),
             "knn": scored(("x", 0.80), ("a", 0.78), ("w", 0.5))}
    fused = fuse(lists, fusion_for("where is it"))
    assert ids(fused) == ["a", "x", "y", "w", "z"]
    assert [round(h.score, 4) for h in fused] == [1.9333, 1.0244, 0.0122, 0.0, 0.0]
    assert ids(fuse(lists, Fusion("rrf", 60, {"knn": 1.5})))[:2] == ["x", "a"]  # the negative case
    fused = fuse({"bm25": scored(("b", 5.0)), "knn": scored(("k", 0.5))}, fusion_for("where_is_it"))
    assert ids(fused) == ["b", "k"]  # identifier: equal weights, the tie goes to the smaller id
