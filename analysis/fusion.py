"""Rank fusion: turn several ranked lists (BM25, kNN, exact names) into one, keeping each list's rank.

Two families, both deterministic (ties break by the best single rank, then by chunk id):

* **Reciprocal Rank Fusion** (:func:`rrf`): ``score(d) = sum over lists L of w_L / (k + rank_L(d))``
  (Cormack, Clarke and Buettcher, SIGIR 2009). Only ranks count; ``k`` sets how much a list's first
  places outweigh its tail (k = 60 flattens them: rank 1 is worth 1/61, rank 10 1/70).
* **Normalised score fusion** (:func:`score_fusion`, CombSUM of Fox and Shaw, TREC-2 1994): each list's
  own scores are rescaled per query, min-max to ``[0, 1]`` (a list whose scores are all equal gives
  each of its hits 1) or z-scores, and summed with per-list weights; a list's absence adds 0.

Which one the product uses, and with what parameters, is chosen by measurement
(docs/search-quality.md, bench/retrieval_eval.py), per kind of query (:func:`query_kind`: one
identifier, or text): :data:`FUSION_BY_KIND`.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field

from stores.contracts import ScoredChunk

__all__ = ["RRF_K", "IDENTIFIER_QUERY", "FusedHit", "Fusion", "rrf", "score_fusion", "fuse", "query_kind",
           "FUSION_BY_KIND", "fusion_for"]

RRF_K = 60
"""The RRF constant k of Cormack et al. (SIGIR 2009)."""


@dataclass(frozen=True, slots=True)
class FusedHit:
    """One fused result: ``score`` is the fused score (its scale depends on the method); ``ranks``
    maps each list's name (``bm25``, ``knn``, ``name``) to the 1-based rank the chunk had there (absent
    when the list did not return it)."""

    chunk_id: str
    score: float
    ranks: Mapping[str, int]


def _order(scores: dict[str, float], ranks: dict[str, dict[str, int]]) -> list[FusedHit]:
    order = sorted(scores, key=lambda c: (-scores[c], min(ranks[c].values()), c))
    return [FusedHit(c, scores[c], ranks[c]) for c in order]


def rrf(lists: Mapping[str, Sequence[ScoredChunk]], k: float = RRF_K,
        weights: Mapping[str, float] | None = None) -> list[FusedHit]:
    """Fuse ranked lists by (weighted) RRF: ``sum w_L / (k + rank_L)``; a list missing from
    ``weights`` weighs 1. Returns every chunk of every list, best first. Raises ``ValueError`` for
    ``k < 0`` or a negative weight."""
    if k < 0:
        raise ValueError(f"RRF k must be >= 0, not {k}")
    w = _checked_weights(weights)
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for name, hits in lists.items():
        weight = w.get(name, 1.0)
        for hit in hits:
            scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + weight / (k + hit.rank)
            ranks.setdefault(hit.chunk_id, {})[name] = hit.rank
    return _order(scores, ranks)


def _checked_weights(weights: Mapping[str, float] | None) -> dict[str, float]:
    """``weights`` as a dict; raises ``ValueError`` for a negative weight."""
    w = dict(weights or {})
    if any(v < 0 for v in w.values()):
        raise ValueError(f"fusion weights must be >= 0: {w}")
    return w


def _normalised(hits: Sequence[ScoredChunk], norm: str) -> list[float]:
    values = [h.score for h in hits]
    if not values:
        return []
    if norm == "minmax":
        lo, hi = min(values), max(values)
        return [1.0 if hi == lo else (v - lo) / (hi - lo) for v in values]
    mean = sum(values) / len(values)
    sd = (sum((v - mean) ** 2 for v in values) / len(values)) ** 0.5
    return [0.0 if sd == 0 else (v - mean) / sd for v in values]


def score_fusion(lists: Mapping[str, Sequence[ScoredChunk]], weights: Mapping[str, float] | None = None,
                 norm: str = "minmax") -> list[FusedHit]:
    """CombSUM of per-query normalised scores: each list's scores rescaled by ``norm`` (``minmax``:
    to [0, 1], all-equal scores to 1; ``zscore``: ``(s - mean) / sd``, all-equal to 0), times the
    list's weight (default 1), summed over the lists holding the chunk. Returns every chunk of every
    list, best first. Raises ``ValueError`` for another ``norm`` or a negative weight."""
    if norm not in ("minmax", "zscore"):
        raise ValueError(f"unknown score normalisation {norm!r} (minmax or zscore)")
    w = _checked_weights(weights)
    scores: dict[str, float] = {}
    ranks: dict[str, dict[str, int]] = {}
    for name, hits in lists.items():
        weight = w.get(name, 1.0)
        for hit, value in zip(hits, _normalised(hits, norm)):
            scores[hit.chunk_id] = scores.get(hit.chunk_id, 0.0) + weight * value
            ranks.setdefault(hit.chunk_id, {})[name] = hit.rank
    return _order(scores, ranks)


@dataclass(frozen=True, slots=True)
class Fusion:
    """A fusion method and its parameters: ``method`` ``rrf`` (uses ``k``) or ``minmax`` /
    ``zscore`` (score fusion); ``weights`` per list name (a missing list weighs 1)."""

    method: str = "rrf"
    k: float = RRF_K
    weights: Mapping[str, float] = field(default_factory=dict)

    def label(self) -> str:
        """A short name: ``RRF k=60``, ``minmax``, with `` w bm25=1 knn=2`` when weighted."""
        base = f"RRF k={self.k:g}" if self.method == "rrf" else self.method
        return base + ("".join(f" {n}={v:g}" for n, v in sorted(self.weights.items())) if self.weights else "")


def fuse(lists: Mapping[str, Sequence[ScoredChunk]], fusion: Fusion) -> list[FusedHit]:
    """Fuse ``lists`` with ``fusion`` (:func:`rrf` or :func:`score_fusion`). Raises ``ValueError``
    for an unknown method."""
    if fusion.method == "rrf":
        return rrf(lists, fusion.k, fusion.weights)
    if fusion.method in ("minmax", "zscore"):
        return score_fusion(lists, fusion.weights, fusion.method)
    raise ValueError(f"unknown fusion method {fusion.method!r} (rrf, minmax or zscore)")


IDENTIFIER_QUERY = re.compile(r"[A-Za-z_$][\w$]*(\.[A-Za-z_$][\w$]*)*")
"""A query that is one identifier, bare or dotted (``url_for``, ``Config.from_envvar``)."""


def query_kind(query: str) -> str:
    """``identifier`` when the stripped query is one identifier (:data:`IDENTIFIER_QUERY`), else ``text``."""
    return "identifier" if IDENTIFIER_QUERY.fullmatch(query.strip()) else "text"


FUSION_BY_KIND: Mapping[str, Fusion] = {"identifier": Fusion("rrf", RRF_K), "text": Fusion("minmax")}
"""The fusion :class:`analysis.retrieval.QueryEngine` uses per :func:`query_kind`, chosen by
measurement on held-out corpora (docs/search-quality.md, "The lexical side: query stop words and
min-max fusion"): text queries sum the lists' min-max normalised scores (with the query's stop words
dropped from BM25, the variant with the largest smallest gain over the three corpora: held-out MRR
+0.06 / +0.04 / +0.05 over RRF k = 60 with the dense list at 1.5; RRF's ranks threw away how far
BM25's first hit stood above the rest); identifier queries keep plain RRF k = 60 (nothing beat it on
every corpus)."""


def fusion_for(query: str, table: Mapping[str, Fusion] | None = None) -> Fusion:
    """The fusion for ``query``: ``table`` (default :data:`FUSION_BY_KIND`) at :func:`query_kind`."""
    return (table or FUSION_BY_KIND)[query_kind(query)]
