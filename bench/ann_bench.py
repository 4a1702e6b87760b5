"""Approximate nearest neighbours in the embedded store at scale: recall@10 against exact search, query
latency, build time and size, on synthetic 384-d vectors.

    python bench/ann_bench.py --n 1000000 --queries 200 --work /tmp/ann_bench [--reuse [--keep-index]]
        [--connectivity 16 --expansion-add 64 --dtype i8 --expansion-search 256 --candidates 64]

1. ``N`` unit vectors are generated (seeded): a mixture of 2,000 Gaussian clusters in 384 dimensions
   (noise of norm 0.6 around unit centres; code embeddings cluster by topic; uniform random vectors on the sphere, where every point is
   about as far as every other, would be the worst case and unlike any real corpus), and written as
   chunk rows of a fresh embedded index (``chunks`` rows straight through SQL, no FTS: this bench is
   about vectors). ``--reuse`` keeps ``WORK/index.db`` when it already holds exactly ``N`` embedded
   rows (the vectors are a function of ``N``; writing a million rows takes minutes), and drops only
   the saved ANN index so the build is measured again.
2. The first ``knn`` builds the ANN index (:mod:`stores.vector_index`: usearch HNSW) and saves
   it beside the index: build time and file size are reported.
3. ``--queries`` query vectors from the same mixture: the store's answer (ANN candidates re-ranked by
   the exact float32 vectors) against exact top-10 over all ``N`` vectors (computed by numpy block by
   block, the vectors generated again: this process never holds all of them, so 5M x 384 float32 =
   7.7 GB need not fit in memory): recall@10, p50 / p95 latency of ``EmbeddedStore.knn`` (a warm
   process, the index loaded) and its process CPU time per query (less sensitive to the load).
   The peak RSS of this process (the build included) and the index's own memory are reported.
4. The quantisation's own loss: the (int8) index's top-10 *without* the re-ranking, recall@10 and the
   mean absolute error of its cosine against the float32 one.
5. A reopened store (a new process would do the same): time to load the saved index and answer.
"""

from __future__ import annotations

import argparse
import dataclasses
import hashlib
import json
import logging
import os
import resource
import shutil
import sqlite3
import statistics
import time
from pathlib import Path

import numpy as np

from stores.bm25_blocks import WRITER_KEY
from stores.embedded import EmbeddedStore
from stores.embedded_schema import id_hash
from stores.vector_index import AnnParams, embedded_keys

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


STEP = 50_000
"""Vectors generated (and written) per block; block ``b`` is ``mixture(.., seed=b * STEP, ..)``."""


def block(start: int, n: int, centres: np.ndarray) -> np.ndarray:
    """The vectors of rows ``start .. start + STEP`` (fewer at the end) of an ``n``-vector run."""
    return mixture(min(STEP, n - start), start, centres)


def unit(v: np.ndarray) -> np.ndarray:
    """``v`` with every row scaled to unit length (float32)."""
    return (v / np.linalg.norm(v, axis=1, keepdims=True)).astype(np.float32)


class GaussData:
    """The Gaussian mixture (2,000 clusters, seed 7): ``block(start, n)`` of the ``n`` indexed
    vectors, ``queries(count)`` from the same mixture."""

    name = "gauss"

    def __init__(self) -> None:
        rng = np.random.default_rng(7)
        self.centres = unit(rng.standard_normal((2000, DIM)).astype(np.float32))

    def block(self, start: int, n: int) -> np.ndarray:
        """Rows ``start .. start + STEP`` (fewer at the end), float32 unit vectors."""
        return block(start, n, self.centres)

    def queries(self, count: int) -> np.ndarray:
        """``count`` query vectors (unit, float32)."""
        return mixture(count, 10_000_019, self.centres)


class RealDerivedData:
    """Vectors derived from real MiniLM embeddings (``path``: an ``(m, 384)`` ``.npy``), as
    ``bench/ann_sweep.py --data real`` makes them: :data:`HELD` real vectors (a seeded permutation)
    are held out as the queries, never indexed; every indexed vector is
    ``normalise(a x + (1 - a) y + 0.15 (u - w))`` with ``x`` a random source, ``y`` one of its 10
    nearest sources, ``a`` uniform in [0, 1], ``u``, ``w`` random sources. Block ``start`` is drawn from
    its own seed, so any block can be generated again without the others."""

    name = "real"
    HELD = 300

    def __init__(self, path: Path, seed: int = 11) -> None:
        real = unit(np.load(path).astype(np.float32))
        self.seed = seed
        order = np.random.default_rng(seed).permutation(len(real))
        self.held, self.sources = real[order[:self.HELD]], real[order[self.HELD:]]
        self.near = np.zeros((len(self.sources), 10), dtype=np.int64)
        for start in range(0, len(self.sources), 4096):
            sims = self.sources[start:start + 4096] @ self.sources.T
            rows = np.arange(sims.shape[0])
            sims[rows, start + rows] = -2.0  # not its own neighbour
            self.near[start:start + sims.shape[0]] = np.argpartition(-sims, 10, axis=1)[:, :10]

    def block(self, start: int, n: int) -> np.ndarray:
        """Rows ``start .. start + STEP`` (fewer at the end), float32 unit vectors."""
        m, src = min(STEP, n - start), self.sources
        rng = np.random.default_rng([self.seed, start])
        x = rng.integers(0, len(src), m)
        y = self.near[x, rng.integers(0, 10, m)]
        a = rng.random((m, 1), dtype=np.float32)
        noise = src[rng.integers(0, len(src), m)] - src[rng.integers(0, len(src), m)]
        return unit(a * src[x] + (1 - a) * src[y] + np.float32(0.15) * noise)

    def queries(self, count: int) -> np.ndarray:
        """The first ``count`` held-out real vectors (at most :data:`HELD`)."""
        if count > self.HELD:
            raise SystemExit(f"--data real holds out {self.HELD} queries, not {count}")
        return self.held[:count]


def embedded_rows(db: Path) -> int:
    """Chunk rows of ``db`` (all embedded when this bench wrote them; 0 when it does not exist or is not
    an index)."""
    if not db.is_file():
        return 0
    try:
        con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
        try:
            # the chunk rows (each embedded, as written here) counted by their smallest index, not by
            # reading every vector (10 GB at 5M)
            return int(con.execute("SELECT count(*) FROM chunk_rows").fetchone()[0])
        finally:
            con.close()
    except sqlite3.Error:
        return 0


def chunk_id(i: int) -> str:
    """The chunk id of row number ``i`` (0-based; its rowid is ``i + 1``)."""
    return f"r:f{i // 50}.py#{i}"


class TopK:
    """The running exact top-``k`` (cosine) of each of ``queries`` over the blocks seen so far,
    optionally of the vectors rounded first (``rounding``: float32 -> float32, to measure what a
    compact storage of the vectors would lose)."""

    def __init__(self, queries: np.ndarray, k: int = 10, rounding=None) -> None:  # noqa: ANN001
        self.queries, self.k, self.rounding = queries, k, rounding
        self.best_s = np.full((len(queries), k), -np.inf, dtype=np.float32)
        self.best_i = np.zeros((len(queries), k), dtype=np.int64)

    def add(self, start: int, part: np.ndarray) -> None:
        """Rows ``start ..`` of the data are ``part``."""
        scores = self.queries @ (self.rounding(part) if self.rounding else part).T
        s = np.concatenate([self.best_s, scores], axis=1)
        idx = np.concatenate([self.best_i, np.broadcast_to(np.arange(start, start + scores.shape[1]), scores.shape)],
                             axis=1)
        top = np.argpartition(-s, self.k, axis=1)[:, :self.k]
        self.best_s, self.best_i = np.take_along_axis(s, top, 1), np.take_along_axis(idx, top, 1)


def as_f16(v: np.ndarray) -> np.ndarray:
    """``v`` stored as float16 and read back."""
    return v.astype(np.float16).astype(np.float32)


def as_i8(v: np.ndarray) -> np.ndarray:
    """``v`` (unit rows) stored as int8 (``round(127 x)``) and read back, renormalised (cosine)."""
    return unit(np.clip(np.rint(v * 127), -127, 127).astype(np.float32))


def write_rows(db: Path, n: int, data, queries: np.ndarray, first: int = 0) -> dict[str, np.ndarray]:  # noqa: ANN001
    """An embedded index at ``db`` holding ``n`` chunk rows with ``data``'s vectors (fresh, or from
    row ``first`` on when ``db`` holds the first ``first`` already: those are generated again for the
    exact top-10, not written), written
    straight into the schema-6 tables (``ids``, ``paths``, ``chunk_rows``: a chunk's text kept whole
    in ``tail``, no FTS rows: this bench is about vectors). Returns the exact top-10 row numbers of
    ``queries`` over the float32 vectors (``"f32"``) and over the vectors stored as float16 and int8
    (``"f16"``, ``"i8"``), computed in the same pass. Prints progress with an ETA."""
    if not first:
        EmbeddedStore(db, ann_threshold=1).close()
    t = time.perf_counter()
    con = sqlite3.connect(db)
    con.execute("PRAGMA synchronous = OFF")
    con.execute("PRAGMA cache_size = -1048576")  # 1 GiB: the checksum index (random inserts) stays cached at 5M
    tops = {"f32": TopK(queries), "f16": TopK(queries, rounding=as_f16), "i8": TopK(queries, rounding=as_i8)}
    for start in range(0, n, STEP):
        part = data.block(start, n)
        for top in tops.values():
            top.add(start, part)
        stop = start + len(part)
        if start < first:
            continue
        con.executemany("INSERT INTO ids (nid, h, id) VALUES (?, ?, ?)",
                        ((i + 1, id_hash(chunk_id(i)), chunk_id(i)) for i in range(start, stop)))
        con.executemany("INSERT OR IGNORE INTO paths (fid, repo, path) VALUES (?, 'r', ?)",
                        ((i // 50 + 1, f"f{i // 50}.py") for i in range(start, stop, 50)))
        rows = []
        for i, v in enumerate(part, start):
            text = f"chunk {i}"
            rows.append((i + 1, i + 1, i // 50 + 1, f"f{i}", len(text), text,
                         hashlib.sha256(text.encode()).hexdigest(), v.tobytes()))
        # rows without FTS rows need no BM25 block maxima: the writer's mark keeps them from being stale
        con.execute("INSERT OR REPLACE INTO meta (key, value) VALUES (?, '1')", (WRITER_KEY,))
        con.executemany("INSERT INTO chunk_rows (rowid, nid, fid, product, language, kind, name, fqn, parent,"
                        " start_line, end_line, size, tail, checksum, embedding)"
                        " VALUES (?1, ?2, ?3, 'p', 'python', 'function', ?4, ?4, NULL, 1, 2, ?5, ?6, ?7, ?8)", rows)
        con.execute("DELETE FROM meta WHERE key = ?", (WRITER_KEY,))
        con.commit()
        if (stop // STEP) % 10 == 0 or stop == n:
            spent = time.perf_counter() - t
            print(f"  wrote {stop:,} of {n:,} rows in {spent:.0f} s, ETA {spent / (stop - first) * (n - stop):.0f} s,"
                  f" load {os.getloadavg()[0]:.1f}", flush=True)
    con.close()
    print(f"wrote {n:,} vectors in {time.perf_counter() - t:.1f} s")
    return {name: top.best_i for name, top in tops.items()}


def exact_top10(queries: np.ndarray, n: int, data) -> list[set[str]]:  # noqa: ANN001
    """The chunk ids of the exact top-10 (cosine) of each query over the ``n`` vectors, generated
    again block by block (never all in memory)."""
    top = TopK(queries)
    for start in range(0, n, STEP):
        top.add(start, data.block(start, n))
    return [{chunk_id(i) for i in row.tolist()} for row in top.best_i]


def vectors_of(db: Path, rowids: np.ndarray) -> np.ndarray:
    """The stored float32 vectors of chunk ``rowids`` (one row each, in that order)."""
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        got = dict(con.execute(f"SELECT rowid, embedding FROM chunks WHERE rowid IN ({','.join(map(str, rowids.tolist()))})"))
    finally:
        con.close()
    return np.frombuffer(b"".join(got[int(k)] for k in rowids), dtype=np.float32).reshape(len(rowids), DIM)


def measure(store: EmbeddedStore, queries: np.ndarray, truth: list[set[str]],
            params: AnnParams) -> tuple[float, list[float], list[float]]:
    """``(recall@10, wall ms per query, CPU ms per query)`` of ``store.knn`` over ``queries``
    against ``truth`` (printed, with how many queries found fewer than half of their top-10)."""
    latencies, cpu, hits, poor = [], [], 0, 0
    for q, want in zip(queries, truth):
        t, c = time.perf_counter(), time.process_time()
        got = store.knn(q.tolist(), 10)
        cpu.append((time.process_time() - c) * 1000)
        latencies.append((time.perf_counter() - t) * 1000)
        found = len({h.chunk_id for h in got} & want)
        hits, poor = hits + found, poor + (found < 5)
    recall = hits / (10 * len(queries))
    print(f"store knn ({params.dtype} HNSW, {params.candidates} of {params.expansion_search} candidates re-ranked exactly):"
          f" recall@10 {recall:.4f} ({poor} queries under 0.5), p50 {statistics.median(latencies):.1f} ms,"
          f" p95 {pct(latencies, 95):.1f} ms, CPU {statistics.fmean(cpu):.2f} ms/query (p95 {pct(cpu, 95):.2f}),"
          f" n={len(queries)}, load {os.getloadavg()[0]:.1f}", flush=True)
    return recall, latencies, cpu


def rss_mib() -> float:
    """This process's resident memory now, MiB (``VmRSS``; 0 where /proc is not there)."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            return next(int(line.split()[1]) for line in fh if line.startswith("VmRSS:")) / 1024
    except (OSError, StopIteration):
        return 0.0


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--n", type=int, default=1_000_000)
    ap.add_argument("--queries", type=int, default=200)
    ap.add_argument("--work", default="/tmp/ann_bench")
    ap.add_argument("--data", choices=("gauss", "real"), default="gauss",
                    help="gauss: the 2,000-cluster mixture; real: derived from real vectors (--real)")
    ap.add_argument("--real", default="/tmp/ann_bench/real.npy", help="real 384-d vectors (.npy) for --data real")
    ap.add_argument("--reuse", action="store_true", help="keep WORK/index.db when it holds exactly N embedded rows "
                                                         "(fewer, a multiple of 50,000: the write is resumed)")
    ap.add_argument("--keep-index", action="store_true", help="with --reuse: keep the saved ANN index too")
    ap.add_argument("--compare-scan", action="store_true",
                    help="also time the start-up read from the table (as before the index of the embedded rows)")
    ap.add_argument("--write-only", action="store_true", help="stop once the rows (and the exact top-10) are written")
    defaults = AnnParams()
    for name in ("connectivity", "expansion_add", "expansion_search", "candidates"):
        ap.add_argument(f"--{name.replace('_', '-')}", type=int, default=getattr(defaults, name))
    ap.add_argument("--dtype", default=defaults.dtype)
    ap.add_argument("--also", default="", help="more query-time settings measured on the same index: "
                                               "expansion_search:candidates,...")
    args = ap.parse_args()
    params = AnnParams(args.connectivity, args.expansion_add, args.expansion_search, args.candidates, args.dtype)
    print(f"{params}, load average {os.getloadavg()[0]:.1f}", flush=True)
    work = Path(args.work)
    db = work / "index.db"
    data = RealDerivedData(Path(args.real)) if args.data == "real" else GaussData()
    queries = data.queries(args.queries)
    truth_file = work / f"truth-{data.name}-{args.n}-{args.queries}.npz"
    rows = embedded_rows(db) if args.reuse else 0
    if args.reuse and 0 < rows < args.n and rows % STEP == 0:  # a write stopped between two blocks: resumed
        print(f"resuming the write after row {rows:,}", flush=True)
        np.savez(truth_file, **write_rows(db, args.n, data, queries, first=rows))
    elif rows != args.n:
        shutil.rmtree(work, ignore_errors=True)
        work.mkdir(parents=True)
        tops = write_rows(db, args.n, data, queries)
        np.savez(truth_file, **tops)
    if args.write_only:
        return
    if not (args.reuse and args.keep_index):
        shutil.rmtree(db.with_name(db.name + ".vectors"), ignore_errors=True)

    if truth_file.is_file():
        with np.load(truth_file) as saved:
            tops = {name: saved[name] for name in saved.files}
    else:
        t = time.perf_counter()
        tops = {"f32": np.array([[int(c.rsplit("#", 1)[1]) for c in row] for row in exact_top10(queries, args.n, data)])}
        print(f"exact top-10 of {len(queries)} queries over {args.n:,} vectors (numpy, by blocks): "
              f"{time.perf_counter() - t:.1f} s")
    truth = [{chunk_id(i) for i in row.tolist()} for row in tops["f32"]]
    for name in ("f16", "i8"):
        if name in tops:
            same = sum(len(set(a.tolist()) & set(b.tolist())) for a, b in zip(tops[name], tops["f32"]))
            print(f"exact top-10 over the vectors stored as {name} (no graph): recall@10 {same / (10 * len(queries)):.4f}"
                  " against float32")

    logging.basicConfig(level=logging.INFO, format="%(asctime)s %(name)s %(message)s")
    t = time.perf_counter()
    store = EmbeddedStore(db, ann_threshold=1, ann_params=params)
    print(f"store opened in {time.perf_counter() - t:.1f} s (the first open of an index written before"
          " chunk_rows_vectors creates it)", flush=True)
    rss_before = rss_mib()
    t, cpu0 = time.perf_counter(), time.process_time()
    store.prepare_ann()  # what the embedding phase does once the vectors are written
    build, build_cpu = time.perf_counter() - t, time.process_time() - cpu0
    folder = db.with_name(db.name + ".vectors")
    size = sum(p.stat().st_size for p in folder.iterdir())
    index_mib = store._ann._dims[DIM].index.memory_usage / 2**20  # noqa: SLF001 - the bench looks inside on purpose
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"ANN build (prepare_ann: fetch {args.n:,} vectors, {params.dtype} HNSW, save; or load): {build:.1f} s ({build_cpu:.0f} CPU-s),"
          f" {size / 2**20:.0f} MiB on disk"
          f" (float32 vectors in the index: {args.n * DIM * 4 / 2**20:.0f} MiB); usearch's memory {index_mib:.0f} MiB,"
          f" process RSS {rss_before:.0f} MiB before, {rss_mib():.0f} MiB after, peak {peak:.0f} MiB")

    recall, latencies, cpu = measure(store, queries, truth, params)
    for spec in filter(None, args.also.split(",")):
        search, candidates = (int(x) for x in spec.split(":"))
        other = dataclasses.replace(params, expansion_search=search, candidates=candidates)
        store._ann.params = store._ann._dims[DIM].params = other  # noqa: SLF001 - query-time parameters only
        measure(store, queries, truth, other)
    store._ann.params = store._ann._dims[DIM].params = params  # noqa: SLF001

    index = store._ann._dims[DIM]  # noqa: SLF001 - the bench looks inside on purpose
    raw_hits, errors = 0, []
    for q, want in zip(queries, truth):
        found = index.index.search(q, 10)
        keys = np.asarray(found.keys, dtype=np.int64)
        raw_hits += len({chunk_id(k - 1) for k in keys.tolist()} & want)
        exact = vectors_of(db, keys) @ q
        errors.extend(np.abs((1 - np.asarray(found.distances)) - exact).tolist())
    print(f"{params.dtype} index alone (no re-ranking): recall@10 {raw_hits / (10 * len(queries)):.4f}, "
          f"mean |cosine error| {statistics.fmean(errors):.4f}, max {max(errors):.4f}")
    store.close()

    t = time.perf_counter()
    reopened = EmbeddedStore(db, ann_threshold=1, ann_params=params)
    reopened.knn(queries[1].tolist(), 10)
    print(f"reopened store, first answer (load the saved index, check it against the rows): "
          f"{time.perf_counter() - t:.1f} s")
    reopened.close()
    con = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    t, c = time.perf_counter(), time.process_time()
    embedded_keys(con, DIM)
    print(f"  of which the (rowid, checksum) of every embedded row: {time.perf_counter() - t:.1f} s"
          f" ({time.process_time() - c:.1f} CPU-s)")
    if args.compare_scan:  # what the start-up check read before chunk_rows_vectors: the whole table, twice
        t, c = time.perf_counter(), time.process_time()
        con.execute("SELECT count(*), count(embedding) FROM chunk_rows NOT INDEXED").fetchone()
        cur = con.execute("SELECT rowid, checksum FROM chunks WHERE embedding IS NOT NULL AND length(embedding) = ?",
                          (DIM * 4,))
        while cur.fetchmany(20_000):
            pass
        print(f"  the same read from the table (count and keys, as before the index): {time.perf_counter() - t:.1f} s"
              f" ({time.process_time() - c:.1f} CPU-s)")
    con.close()
    print(json.dumps({"n": args.n, **params.__dict__, "cpu_s": time.process_time(), "recall10": recall,
                      "p50_ms": statistics.median(latencies), "p95_ms": pct(latencies, 95),
                      "cpu_ms_per_query": statistics.fmean(cpu), "build_s": build, "build_cpu_s": build_cpu,
                      "size_mib": size / 2**20,
                      "index_mib": index_mib, "peak_rss_mib": peak, "load_after": os.getloadavg()}))


if __name__ == "__main__":
    main()
