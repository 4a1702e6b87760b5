"""Index size and read latency of embedded indexes, side by side (issue 19 goal 4).

Usage::

    python bench/index_size.py DB [DB ...] [--code DIR ...] [--targets 200] [--queries 100]

For each ``DB`` (an embedded index, e.g. ``ripple index /tmp/corpora/django-5.2.8 --db X --no-embed``):

(a) bytes: the file size, SQLite's ``dbstat`` per table and index (``pgsize``), the embedding bytes
    (vectors in chunk rows and in the embedding cache) apart, and the ratio to the indexed source
    bytes (the sum of the file records' sizes);
(b) latency, in a child process running the code of ``--code DIR`` (one per DB, in order; default:
    this checkout), so two versions of the store read their own index: ``callers`` (``incoming``
    CALLS of one node), ``impact`` (:func:`analysis.impact.blast_radius`, depth 5) for ``--targets``
    callables that have callers (seed 0), and ``get_chunks`` + ``bm25`` (the search engine's store
    reads) for ``--queries`` chunk names used as queries. Targets are chosen by the first DB and
    reused for the others; DBs read by the same code are measured in turn, target by target, the
    code trees one after the other (so compare figures of one run, and repeat it on a loaded machine).
"""

from __future__ import annotations

import argparse
import json
import random
import sqlite3
import subprocess
import sys
from pathlib import Path

_CHILD = r"""
import json, statistics, sys, time
code, dbs, targets, queries = json.loads(sys.argv[1])
sys.meta_path[:] = [f for f in sys.meta_path if "editable" not in type(f).__module__.lower()]
sys.path.insert(0, code)
from analysis.impact import SymbolQuery, blast_radius
from stores.embedded import EmbeddedStore
stores = [EmbeddedStore(db) for db in dbs]
times = {k: [[] for _ in dbs] for k in ("callers", "impact", "get_chunks", "bm25")}
for s in stores:  # warm-up
    s.incoming(targets[:10], ["CALLS"]); s.bm25(queries[0], 20)
for t in targets:
    for i, s in enumerate(stores):
        t0 = time.perf_counter(); s.incoming([t], ["CALLS"]); t1 = time.perf_counter()
        blast_radius(s, SymbolQuery(t)); t2 = time.perf_counter()
        times["callers"][i].append((t1 - t0) * 1000); times["impact"][i].append((t2 - t1) * 1000)
for q in queries:
    for i, s in enumerate(stores):
        t0 = time.perf_counter(); hits = s.bm25(q, 20); t1 = time.perf_counter()
        s.get_chunks([h.chunk_id for h in hits]); t2 = time.perf_counter()
        times["bm25"][i].append((t1 - t0) * 1000); times["get_chunks"][i].append((t2 - t1) * 1000)
def pct(v, q):
    v = sorted(v); return round(v[min(len(v) - 1, round(q * (len(v) - 1)))], 2)
print(json.dumps({k: [{"p50": pct(v, 0.5), "p95": pct(v, 0.95), "n": len(v)} for v in per] for k, per in times.items()}))
"""


def sizes(db: Path) -> dict:
    """Bytes of ``db`` by table / index (dbstat), embeddings apart, and the source bytes."""
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        by = dict(conn.execute("SELECT name, sum(pgsize) FROM dbstat GROUP BY name ORDER BY 2 DESC").fetchall())
        source, files = conn.execute("SELECT sum(size), count(*) FROM files").fetchone()
        vectors = conn.execute("SELECT coalesce(sum(length(embedding)), 0) FROM chunks").fetchone()[0]
        cached = conn.execute("SELECT coalesce(sum(length(embedding)), 0) FROM embedding_cache").fetchone()[0]
    finally:
        conn.close()
    total = db.stat().st_size
    return {"file_bytes": total, "source_bytes": source, "files": files, "ratio": round(total / source, 2),
            "embedding_bytes": vectors + cached, "ratio_without_embeddings": round((total - vectors - cached) / source, 2),
            "tables": {k: round(v / 1e6, 2) for k, v in by.items()}}


def sample(db: Path, n: int, q: int) -> tuple[list[str], list[str]]:
    conn = sqlite3.connect(f"file:{db}?mode=ro", uri=True)
    try:
        ids = sorted(r[0] for r in conn.execute(
            "SELECT id FROM nodes WHERE label IN ('Method', 'Function', 'Constructor')"
            " AND id IN (SELECT dst FROM edges WHERE kind = 'CALLS')"))
        names = sorted({r[0] for r in conn.execute("SELECT name FROM chunks WHERE kind IN ('method', 'function')")})
    finally:
        conn.close()
    rng = random.Random(0)
    return rng.sample(ids, min(n, len(ids))), [nm.replace("_", " ") for nm in rng.sample(names, min(q, len(names)))]


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("dbs", type=Path, nargs="+")
    ap.add_argument("--code", action="append", default=[], help="source tree whose store reads the DB of the same rank")
    ap.add_argument("--targets", type=int, default=200)
    ap.add_argument("--queries", type=int, default=100)
    ap.add_argument("--no-latency", action="store_true")
    args = ap.parse_args()
    out = {str(db): sizes(db) for db in args.dbs}
    if not args.no_latency:
        targets, queries = sample(args.dbs[0], args.targets, args.queries)
        here = str(Path(__file__).resolve().parent.parent)
        codes = args.code + [here] * (len(args.dbs) - len(args.code))
        # one child per code tree (a module can be imported once per process)
        for code in dict.fromkeys(codes):
            dbs = [str(db) for db, c in zip(args.dbs, codes) if c == code]
            res = subprocess.run([sys.executable, "-c", _CHILD, json.dumps([code, dbs, targets, queries])],
                                 check=True, capture_output=True, text=True)
            lat = json.loads(res.stdout)
            for i, db in enumerate(dbs):
                out[db]["latency_ms"] = {k: v[i] for k, v in lat.items()}
    print(json.dumps(out, indent=1))


if __name__ == "__main__":
    main()
