"""Search benchmark: embedding throughput (raw model vs the pipeline), query latency at 100k chunks, RSS.

Usage::

    python bench/search_bench.py /tmp/reval/fastapi-0.165.0 /tmp/reval/requests-2.34.2 \
        [--n 1000] [--runs 3] [--chunks 100000] [--queries 300] [--keep DIR]
    python bench/search_bench.py --serve DIR/latency.db DIR/queries.json   # part (b) again on a kept store

The corpora are unpacked sdists (see bench/retrieval_eval.py for the download commands); each is
indexed with the real pipeline into a temporary store and its chunks are the real texts used below.

(a) Throughput. ``--n`` distinct real chunk texts. *Raw*: ``Embedder.embed`` on the texts sorted by
    length, batch 16. *Pipeline*: the same texts as chunks of a fresh EmbeddedStore, embedded by
    :func:`indexer.embedding.embed_pending` (store reads, model, vector writes, cache). Runs alternate
    raw / pipeline with one warm embedder; median of ``--runs``; ratio = pipeline / raw.
(b) Latency. A store of ``--chunks`` chunks: the real chunks (with their graph: nodes, edges, and file
    texts, so chunk texts are stored as ranges of the compressed file text as in a real index) replicated
    as repositories ``<repo>~<i>`` whose function names get a varied suffix (``get_user`` ->
    ``get_user_cached``), so BM25 sees 100k distinct-but-realistic documents. Vectors are random
    normalised 384-d (numpy, seed 0): the model would need about 15 minutes for 100k chunks, and kNN
    cost does not depend on the values. Queries: docstring first lines and identifiers from the
    corpora, each with a random normalised query vector (query embedding time is reported apart).
    ``QueryEngine.search`` (BM25 + kNN + RRF + chunks + nodes + caller counts), BM25-only and
    kNN-only latencies: p50 / p95 over ``--queries`` queries after one warm-up pass.
(c) Peak RSS of this process (``ru_maxrss``) after each part.
"""

from __future__ import annotations

import argparse
import json
import os
import platform
import random
import re
import resource
import shutil
import sqlite3
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import replace
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from indexer.embedding import embed_pending  # noqa: E402
from indexer.run import IndexOptions  # noqa: E402
from indexer.pipeline import index_repository  # noqa: E402
from stores.contracts import Chunk, Edge, FileRecord, IndexedFile, UnresolvedCall  # noqa: E402
from stores.blas_threads import use_one_blas_thread  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from stores.embedder import Embedder  # noqa: E402
from analysis.retrieval import QueryEngine  # noqa: E402

from bench.reval.build import RecordingStore  # noqa: E402  (the same recording store as the quality eval)

SUFFIXES = ["cached", "async", "legacy", "batch", "safe", "raw", "v2", "local", "remote", "strict", "lazy",
            "fast", "inner", "outer", "pending", "draft", "shadow", "mirror", "proxy", "compat"]


def rss_mb() -> float:
    """Peak resident set of this process so far, MiB: ``VmHWM`` (reset by exec, unlike ``ru_maxrss``,
    which a child started by fork + exec inherits from its parent), else ``ru_maxrss``."""
    try:
        for line in Path("/proc/self/status").read_text().splitlines():
            if line.startswith("VmHWM:"):
                return int(line.split()[1]) / 1024
    except OSError:
        pass
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def index_corpora(roots: Sequence[Path], tmp: Path) -> list[IndexedFile]:
    """Every IndexedFile the real pipeline writes for ``roots``."""
    files: list[IndexedFile] = []
    for root in roots:
        rec = RecordingStore(tmp / f"{root.name}.db")
        index_repository(root, rec, rec, IndexOptions(repo=root.name.rsplit("-", 1)[0]))
        rec.close()
        files.extend(rec.files)
    return files


# ------------------------------------------------------------------------------------ (a) throughput


def throughput(files: list[IndexedFile], n: int, runs: int, tmp: Path) -> dict[str, float]:
    """Raw model vs pipeline chunks/s on the same ``n`` distinct texts, median of ``runs``."""
    seen: dict[str, Chunk] = {}
    for f in files:
        for c in f.chunks:
            seen.setdefault(c.checksum, c)
    pool = list(seen.values())
    random.Random(0).shuffle(pool)
    chosen = pool[:n]
    texts = sorted((c.text for c in chosen), key=len)
    by_file: dict[tuple[str, str], list[Chunk]] = {}
    for c in chosen:
        by_file.setdefault((c.repo, c.file), []).append(c)
    records = [IndexedFile(FileRecord(repo, path, "python", "0" * 64, 0), chunks=cs)
               for (repo, path), cs in by_file.items()]
    embedder = Embedder()
    embedder.embed(texts[:32])  # warm-up: session, tokenizer
    raw_s, pipe_s = [], []
    for run in range(runs):
        t0 = time.perf_counter()
        embedder.embed(texts, batch_size=16)
        raw_s.append(time.perf_counter() - t0)
        store = EmbeddedStore(tmp / f"throughput-{run}.db")
        store.replace_chunks(records)
        t0 = time.perf_counter()
        report = embed_pending(store, embedder)
        pipe_s.append(time.perf_counter() - t0)
        assert report.embedded == len(chosen), report
        assert store.chunk_count()["embedded"] == len(chosen)
        store.close()
        print(f"  run {run + 1}: raw {len(texts) / raw_s[-1]:.1f} chunks/s, pipeline {len(texts) / pipe_s[-1]:.1f} chunks/s")
    raw = len(texts) / statistics.median(raw_s)
    pipe = len(texts) / statistics.median(pipe_s)
    chars = [len(t) for t in texts]
    return {"n": len(texts), "median_chars": statistics.median(chars), "raw": raw, "pipeline": pipe,
            "ratio": pipe / raw}


# ------------------------------------------------------------------------------------ (b) latency


def _rename(prefix: str, old_repo: str, new_repo: str) -> str:
    return new_repo + prefix[len(old_repo):] if prefix.startswith(old_repo + ":") else prefix


def replicate(files: list[IndexedFile], target: int, rng: np.random.Generator) -> list[IndexedFile]:
    """``files`` replicated (renamed repos, varied function names, random vectors) to ``target`` chunks."""
    out: list[IndexedFile] = []
    total = 0
    i = 0
    while total < target:
        suffix = SUFFIXES[i % len(SUFFIXES)] + ("" if i < len(SUFFIXES) else str(i // len(SUFFIXES)))
        for f in files:
            if total >= target:
                break
            old = f.file.repo
            new = old if i == 0 else f"{old}~{i}"

            def rid(s: str, old: str = old, new: str = new) -> str:
                return _rename(s, old, new)

            chunks = []
            source = f.text
            for c in f.chunks[: target - total]:
                name, text = c.name, c.text
                if i and c.kind in ("function", "method"):
                    name = f"{c.name}_{suffix}"
                    text = re.sub(rf"\bdef {re.escape(c.name)}\(", f"def {name}(", text, count=1)
                    if source is not None:  # the file text renamed alike: chunk texts stay ranges of it
                        source = re.sub(rf"\bdef {re.escape(c.name)}\(", f"def {name}(", source)
                vec = rng.standard_normal(384).astype(np.float32)
                vec /= np.linalg.norm(vec)  # kept as an array: 100k tuples of floats would cost ~1.5 GB here
                chunks.append(replace(c, id=rid(c.id), repo=new, product=new, name=name, fqn=rid(c.fqn),
                                      parent=rid(c.parent) if c.parent else None, text=text,
                                      checksum=f"{c.checksum}~{i}", embedding=vec))  # type: ignore[arg-type]
            total += len(chunks)
            out.append(IndexedFile(
                replace(f.file, repo=new),
                [replace(n, id=rid(n.id), repo=new) for n in f.nodes],
                [Edge(e.kind, rid(e.src), rid(e.dst), new, e.file, e.line, e.col, e.resolution) for e in f.edges],
                [UnresolvedCall(u.caller and rid(u.caller), u.name, u.arity, u.receiver, new, u.file, u.line, u.col)
                 for u in f.unresolved],
                chunks,
                source,
            ))
        i += 1
    return out


def _pcts(values: list[float]) -> tuple[float, float]:
    values = sorted(values)
    return values[len(values) // 2], values[min(len(values) - 1, int(round(0.95 * (len(values) - 1))))]


def build_latency_store(files: list[IndexedFile], n_chunks: int, n_queries: int, path: Path) -> tuple[float, list[str]]:
    """Write the ``n_chunks`` store at ``path``; return the build time and the queries."""
    rng = np.random.default_rng(0)
    t0 = time.perf_counter()
    big = replicate(files, n_chunks, rng)
    store = EmbeddedStore(path)
    for start in range(0, len(big), 250):
        store.replace_files(big[start:start + 250])
    store.close()
    build_s = time.perf_counter() - t0
    # Half natural language (docstring first lines), half identifiers (function names).
    docs: list[str] = []
    names: list[str] = []
    for f in files:
        for c in f.chunks:
            m = re.search(r'"""\s*([^\n"]+)', c.text)
            if m and len(m.group(1).split()) >= 4:
                docs.append(" ".join(m.group(1).split()))
            if c.kind in ("function", "method"):
                names.append(c.name)
    random.Random(1).shuffle(docs)
    random.Random(2).shuffle(names)
    half = n_queries // 2
    return build_s, docs[:half] + names[: n_queries - half]


def serve(db: Path, queries: list[str]) -> dict[str, object]:
    """Run in a fresh process: open the store as a server would (one BLAS thread, as the front ends
    set it: stores/blas_threads.py), time the queries, report RSS."""
    use_one_blas_thread()
    rng = np.random.default_rng(1)
    store = EmbeddedStore(db)
    qvecs = {q: (v / np.linalg.norm(v)).tolist() for q, v in zip(queries, rng.standard_normal((len(queries), 384)))}
    engine = QueryEngine(store, store, lambda q: qvecs[q])

    def timed(fn) -> tuple[float, float]:  # type: ignore[no-untyped-def]
        for q in queries[:20]:
            fn(q)  # warm-up: vector matrix, page cache
        ms = []
        for q in queries:
            t = time.perf_counter()
            fn(q)
            ms.append(1000 * (time.perf_counter() - t))
        return _pcts(ms)

    counts = store.chunk_count()
    result: dict[str, object] = {"chunks": counts["chunks"], "embedded": counts["embedded"], "queries": len(queries)}
    result["hybrid"] = timed(lambda q: engine.search(q, 10))
    result["bm25"] = timed(lambda q: store.bm25(q, engine.candidates))
    result["knn"] = timed(lambda q: store.knn(qvecs[q], engine.candidates))
    result["rss_search_mb"] = rss_mb()
    embedder = Embedder()
    embedder.embed(["warm up"])
    ms = []
    for q in queries[:100]:
        t = time.perf_counter()
        embedder.embed([q])
        ms.append(1000 * (time.perf_counter() - t))
    result["query_embed"] = _pcts(ms)
    result["rss_with_model_mb"] = rss_mb()
    store.close()
    return result


def machine() -> str:
    """``nproc``, CPU model, RAM, Python version."""
    model = "unknown"
    try:
        for line in Path("/proc/cpuinfo").read_text().splitlines():
            if line.startswith("model name"):
                model = line.split(":", 1)[1].strip()
                break
        mem_kb = int(next(line.split()[1] for line in Path("/proc/meminfo").read_text().splitlines()
                          if line.startswith("MemTotal")))
    except (OSError, StopIteration):
        mem_kb = 0
    return (f"nproc {os.cpu_count()}, {model}, RAM {mem_kb / 1024 / 1024:.1f} GiB, "
            f"Python {platform.python_version()}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the three parts and print the figures."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*", type=Path)
    ap.add_argument("--n", type=int, default=1000, help="texts for the throughput part")
    ap.add_argument("--runs", type=int, default=3)
    ap.add_argument("--chunks", type=int, default=100_000)
    ap.add_argument("--queries", type=int, default=300)
    ap.add_argument("--skip-throughput", action="store_true")
    ap.add_argument("--keep", type=Path, metavar="DIR",
                    help="keep the latency store and its queries as DIR/latency.db and DIR/queries.json, for "
                         "repeated runs of --serve DB QUERIES_JSON (one tree against another on the same store)")
    ap.add_argument("--serve", nargs=2, type=Path, metavar=("DB", "QUERIES_JSON"), help=argparse.SUPPRESS)
    args = ap.parse_args(argv)
    if args.serve:
        print(json.dumps(serve(args.serve[0], json.loads(args.serve[1].read_text()))))
        return 0
    print(f"machine: {machine()}")
    with tempfile.TemporaryDirectory() as tmp_name:
        tmp = Path(tmp_name)
        files = index_corpora(args.corpora, tmp)
        print(f"corpora: {', '.join(p.name for p in args.corpora)}: {sum(len(f.chunks) for f in files):,} chunks; "
              f"peak RSS {rss_mb():.0f} MiB")
        if not args.skip_throughput:
            print(f"\n(a) throughput, {args.n} texts, batch 16, median of {args.runs}:")
            t = throughput(files, args.n, args.runs, tmp)
            print(f"  raw model {t['raw']:.1f} chunks/s, pipeline {t['pipeline']:.1f} chunks/s, "
                  f"ratio {100 * t['ratio']:.1f}% (median text {t['median_chars']:.0f} chars); "
                  f"peak RSS {rss_mb():.0f} MiB")
        print(f"\n(b) latency at {args.chunks:,} chunks:")
        db = tmp / "latency.db"
        build_s, queries = build_latency_store(files, args.chunks, args.queries, db)
        qfile = tmp / "queries.json"
        qfile.write_text(json.dumps(queries))
        if args.keep:
            args.keep.mkdir(parents=True, exist_ok=True)
            with sqlite3.connect(db) as src, sqlite3.connect(args.keep / "latency.db") as dst:
                src.backup(dst)  # the WAL's pages too, whatever the builder left uncheckpointed
            shutil.copyfile(qfile, args.keep / "queries.json")
            print(f"  kept: {args.keep / 'latency.db'} {args.keep / 'queries.json'}")
        out = subprocess.run([sys.executable, __file__, "--serve", str(db), str(qfile)], check=True,
                             capture_output=True, text=True).stdout
        r = json.loads(out)
        print(f"  store: {r['chunks']:,} chunks, {r['embedded']:,} embedded (random vectors), built in {build_s:.0f}s")
        for key in ("hybrid", "bm25", "knn", "query_embed"):
            p50, p95 = r[key]
            print(f"  {key:<12} p50 {p50:6.1f} ms   p95 {p95:6.1f} ms   ({r['queries']} queries)")
        print(f"\n(c) peak RSS: search process at {r['chunks']:,} chunks {r['rss_search_mb']:.0f} MiB "
              f"({r['rss_with_model_mb']:.0f} MiB with the query embedder loaded); "
              f"this bench process (indexing, embedding, store build) {rss_mb():.0f} MiB")
    return 0


if __name__ == "__main__":
    sys.exit(main())
