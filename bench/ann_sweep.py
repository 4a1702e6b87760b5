"""Choosing the ANN index's parameters: recall@10 against exact search and query cost of usearch HNSW
graphs built with several settings, on synthetic or real-derived 384-d vectors, in memory.

    python bench/ann_sweep.py --data real --n 200000 --queries 300 \\
        --builds 16:64:i8,32:128:i8,32:128:f16 --ef 64,128,256,512 --work /tmp/ann_sweep

This bench holds every vector in one float32 matrix (1.5 GB at 1M) and talks to usearch directly, so
it measures the index alone; ``bench/ann_bench.py`` measures the product path (chunk rows in the
embedded store, the exact re-ranking read from them) with the settings chosen here.

Data (``--data``):

- ``gauss``: the mixture of ``bench/ann_bench.py`` (2,000 Gaussian clusters, noise of norm 0.6;
  queries from the same mixture). Every point of a cluster is within cosine ~0.74 of every other:
  a query's top-10 is picked among ~N/2000 near-ties, a hard case for a graph search (and for
  int8: its cosine error, ~0.003, is about the gap between consecutive near-ties). ``--clusters``
  sets how many: N / clusters is what makes it hard, so 100k vectors in 200 clusters are a cheap
  proxy of 1M in 2,000.
- ``real``: derived from real MiniLM (384-d) embeddings of code chunks (``--real``: a ``.npy``
  matrix, e.g. the vectors of the three embedded stores of ``bench/retrieval_eval.py``'s corpora).
  ``--queries`` of them are held out as the queries (real vectors, never in the index); the rest are
  the *sources*. Each of the ``N`` indexed vectors is ``normalise(a * x + (1 - a) * y + 0.15 * (u -
  w))``: ``x`` a random source, ``y`` one of its 10 nearest sources, ``a`` uniform in [0, 1]
  (points on the segments between real neighbours, as SMOTE does), ``u``, ``w`` two random
  sources (noise shaped like the real data's own spread, not isotropic). So the index keeps the
  real data's neighbourhoods and its anisotropy at any ``N``.

Per build (``M:expansion_add:dtype``, ``M`` = usearch's ``connectivity``): build wall time and
process CPU time (all threads; ``--threads``, 0 = every core), usearch's memory. Per
``expansion_search`` value: recall@10 of the index's own top-10 (quantised distances), and of its
first ``R`` candidates re-ranked by the exact float32 cosine (``R`` in ``--rerank``; what the
product does), and the query cost of one search of ``count = 64`` candidates at that expansion, one
query at a time: wall p50 / p95 and process CPU time per query (less sensitive to the machine's
load than wall time). Prints one JSON line per (build, expansion) and a table.
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import sys
import time
from pathlib import Path

import numpy as np

sys.path.insert(0, str(Path(__file__).resolve().parent))
from ann_bench import DIM, STEP, block, mixture, pct  # noqa: E402 - a sibling bench script

CANDIDATES = 64
"""Candidates per query in the timed search (the product re-ranks at least this many)."""


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` with every row scaled to unit length (float32)."""
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


def gauss_data(n: int, queries: int, clusters: int = 2000) -> tuple[np.ndarray, np.ndarray]:
    """``(base, queries)`` of the Gaussian mixture of ``bench/ann_bench.py`` (same seeds: with 2,000
    ``clusters``, the same vectors and queries as that bench at the same ``n``)."""
    rng = np.random.default_rng(7)
    centres = unit(rng.standard_normal((clusters, DIM)).astype(np.float32))
    base = np.concatenate([block(start, n, centres) for start in range(0, n, STEP)])
    return base, mixture(queries, 10_000_019, centres)


def real_data(path: Path, n: int, queries: int, seed: int = 11) -> tuple[np.ndarray, np.ndarray]:
    """``(base, queries)`` derived from the real vectors in ``path`` (see the module docstring)."""
    real = unit(np.load(path).astype(np.float32))
    rng = np.random.default_rng(seed)
    order = rng.permutation(len(real))
    held, sources = real[order[:queries]], real[order[queries:]]
    near = np.zeros((len(sources), 10), dtype=np.int64)
    for start in range(0, len(sources), 4096):
        sims = sources[start:start + 4096] @ sources.T
        rows = np.arange(sims.shape[0])
        sims[rows, start + rows] = -2.0  # not its own neighbour
        near[start:start + sims.shape[0]] = np.argpartition(-sims, 10, axis=1)[:, :10]
    base = np.empty((n, DIM), dtype=np.float32)
    for start in range(0, n, STEP):
        m = min(STEP, n - start)
        x = rng.integers(0, len(sources), m)
        y = near[x, rng.integers(0, 10, m)]
        a = rng.random((m, 1), dtype=np.float32)
        noise = sources[rng.integers(0, len(sources), m)] - sources[rng.integers(0, len(sources), m)]
        base[start:start + m] = unit(a * sources[x] + (1 - a) * sources[y] + np.float32(0.15) * noise)
    return base, held


def exact_top(base: np.ndarray, queries: np.ndarray, k: int = 10) -> np.ndarray:
    """Row numbers of the exact top-``k`` (cosine) of each query, ``(len(queries), k)``."""
    best_s = np.full((len(queries), k), -np.inf, dtype=np.float32)
    best_i = np.zeros((len(queries), k), dtype=np.int64)
    for start in range(0, len(base), 100_000):
        scores = queries @ base[start:start + 100_000].T
        s = np.concatenate([best_s, scores], axis=1)
        idx = np.concatenate([best_i, np.broadcast_to(np.arange(start, start + scores.shape[1]), scores.shape)], axis=1)
        top = np.argpartition(-s, k, axis=1)[:, :k]
        best_s, best_i = np.take_along_axis(s, top, 1), np.take_along_axis(idx, top, 1)
    return best_i


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--data", choices=("gauss", "real"), default="real")
    ap.add_argument("--clusters", type=int, default=2000,
                    help="clusters of --data gauss (N / clusters points each: 200 clusters at 100k are as "
                         "crowded as 2,000 at 1M)")
    ap.add_argument("--real", default="/tmp/ann_sweep/real.npy", help="real vectors (.npy, N x 384) for --data real")
    ap.add_argument("--n", type=int, default=200_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--builds", default="16:64:i8,32:128:i8", help="comma-separated M:expansion_add:dtype")
    ap.add_argument("--ef", default="64,128,256,512", help="expansion_search values")
    ap.add_argument("--rerank", default="64,128", help="candidates re-ranked exactly (first R of the search)")
    ap.add_argument("--threads", type=int, default=0, help="build threads (0: every core)")
    ap.add_argument("--save", default="", help="folder to save each built index in (for reuse)")
    args = ap.parse_args()
    from usearch.index import Index

    t = time.perf_counter()
    base, queries = gauss_data(args.n, args.queries, args.clusters) if args.data == "gauss" else \
        real_data(Path(args.real), args.n, args.queries)
    truth = exact_top(base, queries)
    print(f"data {args.data} n={args.n:,} (clusters {args.clusters} if gauss), {len(queries)} queries, exact top-10: {time.perf_counter() - t:.1f} s",
          flush=True)
    truth_sets = [set(row.tolist()) for row in truth]
    efs = [int(x) for x in args.ef.split(",")]
    reranks = [int(x) for x in args.rerank.split(",")]
    keys = np.arange(len(base), dtype=np.uint64)
    rows = []
    for spec in args.builds.split(","):
        m, ef_add, dtype = spec.split(":")
        index = Index(ndim=DIM, metric="cos", dtype=dtype, connectivity=int(m), expansion_add=int(ef_add))
        load0, wall0, cpu0 = os.getloadavg()[0], time.perf_counter(), time.process_time()
        index.add(keys, base, threads=args.threads)
        build_s, build_cpu = time.perf_counter() - wall0, time.process_time() - cpu0
        mem = index.memory_usage / 2**20
        print(f"build M={m} expansion_add={ef_add} {dtype}: {build_s:.1f} s wall, {build_cpu:.1f} CPU-s, "
              f"{mem:.0f} MiB (load {load0:.1f} -> {os.getloadavg()[0]:.1f})", flush=True)
        if args.save:
            Path(args.save).mkdir(parents=True, exist_ok=True)
            index.save(str(Path(args.save) / f"{args.data}-{args.n}-{m}-{ef_add}-{dtype}.usearch"))
        for ef in efs:
            index.expansion_search = ef
            raw = 0
            re_hits = dict.fromkeys(reranks, 0)
            for q, want in zip(queries, truth_sets):
                found = np.asarray(index.search(q, max(ef, max(reranks))).keys, dtype=np.int64)
                raw += len(set(found[:10].tolist()) & want)
                for r in reranks:
                    cand = found[:r]
                    best = cand[np.argsort(-(base[cand] @ q), kind="stable")[:10]]
                    re_hits[r] += len(set(best.tolist()) & want)
            wall, cpu = [], []
            for q in queries:
                w, c = time.perf_counter(), time.process_time()
                index.search(q, CANDIDATES)
                cpu.append((time.process_time() - c) * 1000)
                wall.append((time.perf_counter() - w) * 1000)
            row = {"data": args.data, "n": args.n, "M": int(m), "ef_add": int(ef_add), "dtype": dtype,
                   "build_s": round(build_s, 1), "build_cpu_s": round(build_cpu, 1), "mem_mib": round(mem),
                   "ef": ef, "recall_raw": raw / (10 * len(queries)),
                   **{f"recall_rerank{r}": re_hits[r] / (10 * len(queries)) for r in reranks},
                   "p50_ms": round(statistics.median(wall), 2), "p95_ms": round(pct(wall, 95), 2),
                   "cpu_ms_per_query": round(statistics.fmean(cpu), 3), "load": round(os.getloadavg()[0], 1)}
            rows.append(row)
            print(json.dumps(row), flush=True)
        del index
    print("\n| M | expansion_add | dtype | build s (CPU-s) | MiB | expansion_search | recall@10 raw | "
          + " | ".join(f"re-ranked {r}" for r in reranks) + " | p50 / p95 ms | CPU ms/query |")
    for r in rows:
        print(f"| {r['M']} | {r['ef_add']} | {r['dtype']} | {r['build_s']} ({r['build_cpu_s']}) | {r['mem_mib']} | {r['ef']} | "
              f"{r['recall_raw']:.3f} | " + " | ".join(f"{r[f'recall_rerank{x}']:.3f}" for x in reranks)
              + f" | {r['p50_ms']} / {r['p95_ms']} | {r['cpu_ms_per_query']} |")


if __name__ == "__main__":
    main()
