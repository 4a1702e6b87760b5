"""Approximate nearest neighbours in the embedded store at scale: recall@10 against exact search, query
latency, build time and size, on synthetic 384-d vectors.

    python bench/ann_bench.py --n 1000000 --queries 200 --work /tmp/ann_bench

1. ``N`` unit vectors are generated (seeded): a mixture of 2,000 Gaussian clusters in 384 dimensions
   (noise of norm 0.6 around unit centres; code embeddings cluster by topic; uniform random vectors on the sphere, where every point is
   about as far as every other, would be the worst case and unlike any real corpus), and written as
   chunk rows of a fresh embedded index (``chunks`` rows straight through SQL, no FTS: this bench is
   about vectors).
2. The first ``knn`` builds the ANN index (:mod:`stores.vector_index`: usearch HNSW, int8) and saves
   it beside the index: build time and file size are reported.
3. ``--queries`` query vectors from the same mixture: the store's answer (ANN candidates re-ranked by
   the exact float32 vectors) against exact top-10 by numpy over all ``N`` vectors: recall@10, p50 /
   p95 latency of ``EmbeddedStore.knn`` (a warm process, the index loaded).
4. The quantisation's own loss: the int8 index's top-10 *without* the re-ranking, recall@10 and the
   mean absolute error of its cosine against the float32 one.
5. A reopened store (a new process would do the same): time to load the saved index and answer.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import shutil
import sqlite3
import statistics
import time
from pathlib import Path

import numpy as np

from stores.embedded import EmbeddedStore

DIM = 384


def mixture(n: int, seed: int, centres: np.ndarray, spread: float = 0.6) -> np.ndarray:
    """``n`` unit vectors around random ones of ``centres`` (unit length): Gaussian noise of norm
    about ``spread`` added, then normalised (a point's cosine to its centre is about 0.86)."""
    rng = np.random.default_rng(seed)
    pick = rng.integers(0, len(centres), n)
    v = centres[pick] + rng.standard_normal((n, DIM), dtype=np.float32) * np.float32(spread / np.sqrt(DIM))
    v /= np.linalg.norm(v, axis=1, keepdims=True)
    return v.astype(np.float32)


def pct(values: list[float], p: float) -> float:
    values = sorted(values)
    return values[min(len(values) - 1, int(round(p / 100 * (len(values) - 1))))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", default="/tmp/ann_bench")
    args = ap.parse_args()
    work = Path(args.work)
    shutil.rmtree(work, ignore_errors=True)
    work.mkdir(parents=True)
    db = work / "index.db"
    store = EmbeddedStore(db, ann_threshold=1)
    store.close()
    rng = np.random.default_rng(7)
    centres = rng.standard_normal((2000, DIM)).astype(np.float32)
    centres /= np.linalg.norm(centres, axis=1, keepdims=True)

    t = time.perf_counter()
    matrix = np.empty((args.n, DIM), dtype=np.float32)
    con = sqlite3.connect(db)
    step = 50_000
    for start in range(0, args.n, step):
        part = mixture(min(step, args.n - start), start, centres)
        matrix[start:start + len(part)] = part
        rows = []
        for i, v in enumerate(part, start):
            text = f"chunk {i}"
            rows.append((i + 1, f"r:f{i // 50}.py#{i}", "r", "p", f"f{i // 50}.py", "python", "function", f"f{i}",
                         f"f{i}", None, 1, 2, text, hashlib.sha256(text.encode()).hexdigest(), v.tobytes()))
        con.executemany("INSERT INTO chunks VALUES (?,?,?,?,?,?,?,?,?,?,?,?,?,?,?)", rows)
        con.commit()
    con.close()
    print(f"wrote {args.n:,} vectors in {time.perf_counter() - t:.1f} s")

    queries = mixture(args.queries, 10_000_019, centres)
    truth = []
    for q in queries:
        scores = matrix @ q
        top = np.argpartition(-scores, 10)[:10]
        truth.append({f"r:f{i // 50}.py#{i}" for i in top.tolist()})

    store = EmbeddedStore(db, ann_threshold=1)
    t = time.perf_counter()
    store.knn(queries[0].tolist(), 10)
    build = time.perf_counter() - t
    folder = db.with_name(db.name + ".vectors")
    size = sum(p.stat().st_size for p in folder.iterdir())
    print(f"ANN build (fetch {args.n:,} vectors, int8 HNSW, save): {build:.1f} s, {size / 2**20:.0f} MiB on disk"
          f" (float32 vectors in the index: {args.n * DIM * 4 / 2**20:.0f} MiB)")

    latencies, hits = [], 0
    for q, want in zip(queries, truth):
        t = time.perf_counter()
        got = store.knn(q.tolist(), 10)
        latencies.append((time.perf_counter() - t) * 1000)
        hits += len({h.chunk_id for h in got} & want)
    recall = hits / (10 * len(queries))
    print(f"store knn (int8 HNSW candidates re-ranked exactly): recall@10 {recall:.4f}, "
          f"p50 {statistics.median(latencies):.1f} ms, p95 {pct(latencies, 95):.1f} ms, n={len(queries)}")

    index = store._ann._dims[DIM]  # noqa: SLF001 - the bench looks inside on purpose
    raw_hits, errors = 0, []
    for q, want in zip(queries, truth):
        found = index.index.search(q, 10)
        keys = np.asarray(found.keys, dtype=np.int64)
        raw_hits += len({f"r:f{(k - 1) // 50}.py#{k - 1}" for k in keys.tolist()} & want)
        exact = matrix[keys - 1] @ q
        errors.extend(np.abs((1 - np.asarray(found.distances)) - exact).tolist())
    print(f"int8 index alone (no re-ranking): recall@10 {raw_hits / (10 * len(queries)):.4f}, "
          f"mean |cosine error| {statistics.fmean(errors):.4f}, max {max(errors):.4f}")
    store.close()

    t = time.perf_counter()
    reopened = EmbeddedStore(db, ann_threshold=1)
    reopened.knn(queries[1].tolist(), 10)
    print(f"reopened store, first answer (load the saved index, check it against the rows): "
          f"{time.perf_counter() - t:.1f} s")
    reopened.close()
    print(json.dumps({"n": args.n, "cpu_s": time.process_time(), "recall10": recall, "p50_ms": statistics.median(latencies),
                      "p95_ms": pct(latencies, 95), "build_s": build, "size_mib": size / 2**20}))


if __name__ == "__main__":
    main()
