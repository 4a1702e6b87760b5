"""Ranks, MRR / R@k / hit@k and percentile-bootstrap confidence intervals (numpy).

A query's *rank* is the 1-based position of the first relevant id in a ranked list, ``0`` when none
is in the list (the list is read to the evaluation depth, so a rank beyond it counts as a miss).
Every metric is a mean over queries of a per-query value (reciprocal rank, ``rank <= k``), so one
bootstrap scheme serves them all: resample the queries with replacement ``n`` times (seeded), take the
mean of each resample, and report the 2.5th and 97.5th percentiles. A *paired* difference resamples
the same query indices for both methods, so the interval is that of the per-query differences.
"""

from __future__ import annotations

from collections.abc import Collection, Sequence
from dataclasses import dataclass

import numpy as np

__all__ = ["BOOTSTRAP", "SEED", "first_rank", "per_query", "Interval", "bootstrap", "paired", "METRICS"]

BOOTSTRAP = 2000
"""Bootstrap resamples."""

SEED = 22
"""The bootstrap's random seed (every interval is reproducible)."""

METRICS = ("mrr", "r1", "r5", "r10")
"""Per-query metrics :func:`per_query` computes: reciprocal rank, and rank within 1 / 5 / 10."""


def first_rank(ranked: Sequence[str], relevant: Collection[str]) -> int:
    """1-based position of the first id of ``ranked`` in ``relevant``; 0 when none is."""
    for i, cid in enumerate(ranked, 1):
        if cid in relevant:
            return i
    return 0


def per_query(ranks: Sequence[int]) -> dict[str, np.ndarray]:
    """``{metric: per-query values}`` (float arrays, one value per query) for :data:`METRICS`."""
    r = np.asarray(ranks, dtype=np.float64)
    found = r > 0
    rr = np.zeros_like(r)
    rr[found] = 1.0 / r[found]
    return {"mrr": rr, "r1": (found & (r <= 1)).astype(float), "r5": (found & (r <= 5)).astype(float),
            "r10": (found & (r <= 10)).astype(float)}


@dataclass(frozen=True, slots=True)
class Interval:
    """A mean and its 95% percentile-bootstrap interval ``[lo, hi]``."""

    mean: float
    lo: float
    hi: float

    def cell(self, signed: bool = False) -> str:
        """``0.512 [0.471, 0.553]`` (``+0.012 [-0.004, +0.029]`` when ``signed``)."""
        f = "{:+.3f}" if signed else "{:.3f}"
        return f"{f.format(self.mean)} [{f.format(self.lo)}, {f.format(self.hi)}]"

    @property
    def excludes_zero(self) -> bool:
        """The interval lies entirely above or entirely below 0."""
        return self.lo > 0 or self.hi < 0


def _indices(n: int, resamples: int, seed: int) -> np.ndarray:
    return np.random.default_rng(seed).integers(0, n, size=(resamples, n))


def bootstrap(values: Sequence[float] | np.ndarray, resamples: int = BOOTSTRAP, seed: int = SEED) -> Interval:
    """Mean of ``values`` with its 95% percentile-bootstrap interval. Raises ``ValueError`` when
    ``values`` is empty."""
    v = np.asarray(values, dtype=np.float64)
    if v.size == 0:
        raise ValueError("no values to bootstrap")
    means = v[_indices(v.size, resamples, seed)].mean(axis=1)
    lo, hi = np.percentile(means, [2.5, 97.5])
    return Interval(float(v.mean()), float(lo), float(hi))


def paired(after: Sequence[float] | np.ndarray, before: Sequence[float] | np.ndarray,
           resamples: int = BOOTSTRAP, seed: int = SEED) -> Interval:
    """Mean of ``after - before`` (same queries, same order) with its 95% paired-bootstrap interval.
    Raises ``ValueError`` when the lengths differ or are 0."""
    a, b = np.asarray(after, dtype=np.float64), np.asarray(before, dtype=np.float64)
    if a.shape != b.shape:
        raise ValueError(f"paired values differ in length: {a.shape} vs {b.shape}")
    return bootstrap(a - b, resamples, seed)
