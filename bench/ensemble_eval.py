"""Ensemble search measured side by side with the bundled model: quality (MRR / R@1 / R@10 with bootstrap
intervals) and speed (chunks/s embedding, query latency) of MiniLM, mpnet and their ensemble.

Usage (mpnet must be built first: ``ripple models build mpnet``, or ``RIPPLE_MODELS_DIR`` naming a
folder holding ``all-mpnet-base-v2-int8/``)::

    nice -n 10 python bench/ensemble_eval.py /tmp/eval22/src/textual-8.2.8 /tmp/eval22/src/commons-lang \\
        /tmp/eval22/src/date-fns --work /tmp/ens22/work --max-chunks 2500 --queries 200 [--json out.json]

Each corpus is indexed through the product with documentation stripped (:mod:`bench.reval.build`, the
held-out set of issue 22: the first doc sentence of each documented function -> that function). mpnet
embeds about 5x slower than MiniLM, so the store is a subset when ``--max-chunks`` is given: the files
keeps every graph node and edge but only the chunks of ``--queries`` held-out answers (chosen by a
fixed seed) and other chunks drawn by the same seed, ``--max-chunks`` in all (distractors are a
random sample of the corpus's chunks). Both models embed the same subset; the store (``--work``) is
reused by a re-run, and vectors of identical texts are copied from earlier ones.

Modes: ``bm25``; ``knn:minilm`` / ``knn:mpnet`` (each model's kNN alone); ``hybrid`` (the shipped
one-model engine: BM25 + MiniLM kNN + exact names); ``hybrid:mpnet`` (BM25 + mpnet kNN + names);
``ensemble`` (BM25 + both kNN lists + names, :class:`analysis.ensemble.EnsembleEngine`). Paired
bootstrap intervals: ensemble minus hybrid, hybrid:mpnet minus hybrid.

Speed: each model embeds the same ``--speed-texts`` (256) chunk texts of the corpus (batch 16, after one warm-up batch):
chunks/s; query latency: p50 / p95 of embedding the query, of its kNN, and of a whole ``search`` call
(hybrid and ensemble), over the corpus's queries.
"""

from __future__ import annotations

import argparse
import dataclasses
import json
import random
import sqlite3
import sys
import time
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from analysis.ensemble import DenseModel, EnsembleEngine  # noqa: E402
from analysis.retrieval import QueryEngine  # noqa: E402
from bench.reval.build import build_corpus, open_eval_store  # noqa: E402
from bench.reval.metrics import BOOTSTRAP, bootstrap, first_rank, paired, per_query  # noqa: E402
from indexer.embedding import embed_pending_model  # noqa: E402
from stores.embedding_format import model_vectors_key  # noqa: E402
from stores.local_models import open_model  # noqa: E402
from stores.model_vectors import MODEL_VECTORS_TABLE  # noqa: E402

MODES = ("bm25", "knn:minilm", "knn:mpnet", "hybrid", "hybrid:mpnet", "ensemble")
SEED = 22


def subset(files: list, queries: list, max_chunks: int | None, n_queries: int) -> tuple[list, list]:
    """The files (every node and edge, only the chosen chunks) and held-out queries of the subset:
    ``n_queries`` queries by a fixed seed, their answers, then other chunks drawn by the same seed
    until ``max_chunks`` (see the module docstring)."""
    rng = random.Random(SEED)
    qs = list(queries)
    rng.shuffle(qs)
    qs = qs[:n_queries]
    if max_chunks is None:
        return files, qs
    targets = {q.target for q in qs}
    others = sorted(c.id for f in files for c in f.chunks if c.id not in targets)
    rng.shuffle(others)
    keep = targets | set(others[:max(max_chunks - len(targets), 0)])
    chosen = [dataclasses.replace(f, chunks=[c for c in f.chunks if c.id in keep]) for f in files]
    ids = {c.id for f in chosen for c in f.chunks}
    return chosen, [q for q in qs if q.target in ids]


def seed_model_vectors(store, stem: str, folder: Path, model: str) -> int:
    """Copy model ``model``'s vectors (content-addressed by text checksum, :mod:`stores.model_vectors`)
    from the other evaluation stores ``folder/stem-*.db`` into ``store``, so a re-run at another
    subset size (or of the whole corpus) embeds only texts no earlier run embedded; returns the rows
    copied. Vectors of texts no chunk of ``store`` holds are pruned by the embedding pass."""
    copied = 0
    for old in sorted(folder.glob(f"{stem}-*.db")):
        if old == store.path:
            continue
        src = sqlite3.connect(f"file:{old}?mode=ro", uri=True)
        try:
            if not src.execute("SELECT 1 FROM sqlite_master WHERE name = 'model_embeddings'").fetchone():
                continue
            rows = src.execute("SELECT checksum, embedding FROM model_embeddings WHERE model = ?", (model,)).fetchall()
        finally:
            src.close()
        dst = sqlite3.connect(store.path)
        try:
            with dst:
                dst.execute(MODEL_VECTORS_TABLE)
                before = dst.total_changes
                dst.executemany("INSERT OR IGNORE INTO model_embeddings (model, checksum, embedding) VALUES (?, ?, ?)",
                                [(model, c, b) for c, b in rows])
                copied += dst.total_changes - before
        finally:
            dst.close()
    return copied


def speed(embedder, texts: Sequence[str]) -> float:
    """Chunks per second embedding ``texts`` (batch 16) after one warm-up batch."""
    embedder.embed(list(texts[:16]))
    t0 = time.perf_counter()
    embedder.embed(list(texts))
    return len(texts) / (time.perf_counter() - t0)


def timed(fn: Callable[[], object]) -> tuple[object, float]:
    t0 = time.perf_counter()
    value = fn()
    return value, (time.perf_counter() - t0) * 1000


def pct(values: Sequence[float]) -> str:
    return f"{np.percentile(values, 50):.0f} / {np.percentile(values, 95):.0f}"


def rank_corpus(store, name: str, queries: list, minilm, mpnet, depth: int) -> tuple[list[dict], list[str]]:
    """Every query's first-answer rank per mode, and the corpus's latency row."""
    texts = [q.text for q in queries]
    qa, ta = zip(*(timed(lambda t=t: minilm.embed([t])[0]) for t in texts))
    qb, tb = zip(*(timed(lambda t=t: mpnet.embed([t])[0]) for t in texts))
    va, vb = dict(zip(texts, qa)), dict(zip(texts, qb))
    hybrid = QueryEngine(store, store, lambda q: va[q])
    key = model_vectors_key(mpnet.model_id)  # what embed_pending_model stores them under
    solo_b = EnsembleEngine(store, store, [DenseModel("mpnet", lambda q: vb[q], key)])
    both = EnsembleEngine(store, store, [DenseModel("minilm", lambda q: va[q]),
                                         DenseModel("mpnet", lambda q: vb[q], key)])
    lat: dict[str, list[float]] = {k: [] for k in ("knn:minilm", "knn:mpnet", "hybrid", "ensemble")}
    records = []
    for q in queries:
        rec: dict = {"corpus": name, "query": q.text, "target": q.target, "ranks": {}}
        answers = {q.target}
        rec["ranks"]["bm25"] = first_rank([h.chunk_id for h in store.bm25(q.text, depth)], answers)
        hits, ms = timed(lambda q=q: store.knn(va[q.text], depth))
        lat["knn:minilm"].append(ms)
        rec["ranks"]["knn:minilm"] = first_rank([h.chunk_id for h in hits], answers)
        hits, ms = timed(lambda q=q: store.model_knn(key, vb[q.text], depth))
        lat["knn:mpnet"].append(ms)
        rec["ranks"]["knn:mpnet"] = first_rank([h.chunk_id for h in hits], answers)
        for mode, engine in (("hybrid", hybrid), ("hybrid:mpnet", solo_b), ("ensemble", both)):
            result, ms = timed(lambda e=engine, q=q: e.search(q.text, limit=depth))
            if mode in lat:
                lat[mode].append(ms)
            rec["ranks"][mode] = first_rank([h.chunk.id for h in result.hits], answers)
        records.append(rec)
    row = [name, pct(ta), pct(tb), pct(lat["knn:minilm"]), pct(lat["knn:mpnet"]),
           pct([a + h for a, h in zip(ta, lat["hybrid"])]),
           pct([a + b + e for a, b, e in zip(ta, tb, lat["ensemble"])])]
    return records, row


def main(argv: Sequence[str] | None = None) -> int:
    """Build, embed, rank and print the tables (markdown)."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="*", type=Path)
    ap.add_argument("--work", type=Path, help="stores are kept (and reused) here")
    ap.add_argument("--report", type=Path, help="print the tables of a saved --json and stop")
    ap.add_argument("--max-chunks", type=int, default=None, help="subset size per corpus (default: whole corpus)")
    ap.add_argument("--queries", type=int, default=200, help="held-out queries per corpus (fixed seed)")
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--speed-texts", type=int, default=256, help="chunk texts each model embeds for the speed table")
    ap.add_argument("--json", type=Path)
    args = ap.parse_args(argv)
    if args.report:
        saved = json.loads(args.report.read_text())
        print_tables(saved["records"], saved["speed"], saved["latency"])
        return 0
    if not args.corpora or args.work is None:
        ap.error("give the corpora and --work (or --report FILE)")
    args.work.mkdir(parents=True, exist_ok=True)
    minilm, mpnet = open_model("minilm"), open_model("mpnet")
    print(f"models: {minilm.model_id}, {mpnet.model_id}; subset {args.max_chunks or 'none'}; "
          f"{args.queries} queries per corpus; metrics over the top {args.depth}")
    records: list[dict] = []
    speed_rows, latency_rows = [], []
    for root in args.corpora:
        name = root.name.rsplit("-", 1)[0] if root.name[-1].isdigit() else root.name
        c = build_corpus(root, name, args.work)
        files, queries = subset(c.files, c.queries, args.max_chunks, args.queries)
        store, embed_minilm = open_eval_store(args.work, f"{name}-ens", files, minilm)
        seeded = seed_model_vectors(store, f"{name}-ens", args.work, model_vectors_key(mpnet.model_id))
        t0 = time.perf_counter()
        report = embed_pending_model(store, mpnet)
        embed_mpnet = time.perf_counter() - t0
        n = store.chunk_count()["chunks"]
        print(f"{name}: {n:,} chunks of {c.n_chunks:,}; {len(queries)} queries; embedding minilm {embed_minilm:.0f}s, "
              f"mpnet {embed_mpnet:.0f}s ({report.embedded:,} texts; {seeded:,} vectors copied "
              "from earlier stores)", flush=True)
        sample = [ch.text for f in files for ch in f.chunks][:args.speed_texts]
        speed_rows.append([name, f"{speed(minilm, sample):.1f}", f"{speed(mpnet, sample):.1f}"])

        recs, row = rank_corpus(store, name, queries, minilm, mpnet, args.depth)
        records += recs
        latency_rows.append(row)
        store.close()
        if args.json:  # after every corpus, so an interrupted run keeps what it measured
            args.json.write_text(json.dumps({"records": records, "speed": speed_rows, "latency": latency_rows}, indent=0))
    print_tables(records, speed_rows, latency_rows)
    return 0


def print_tables(records: list[dict], speed_rows: list[list[str]], latency_rows: list[list[str]]) -> None:
    """The markdown tables of a run (also of a saved ``--json``: ``--report FILE``)."""
    print(f"\nQuality (mean [95% bootstrap interval, {BOOTSTRAP} resamples]):\n")
    print("| corpus | queries | mode | MRR | R@1 | R@10 |\n|---|---|---|---|---|---|")
    corpora = list(dict.fromkeys(r["corpus"] for r in records))
    for corpus in corpora:
        recs = [r for r in records if r["corpus"] == corpus]
        for mode in MODES:
            m = per_query([r["ranks"][mode] for r in recs])
            print(f"| {corpus} | {len(recs)} | {mode} | {bootstrap(m['mrr']).cell()} | {bootstrap(m['r1']).cell()} | "
                  f"{bootstrap(m['r10']).cell()} |")
    print("\nPaired differences of MRR (mean [95% interval]):\n")
    print("| corpus | ensemble - hybrid | hybrid:mpnet - hybrid | knn:mpnet - knn:minilm |\n|---|---|---|---|")
    for corpus in corpora:
        recs = [r for r in records if r["corpus"] == corpus]

        def mrr(mode: str, recs: list = recs) -> np.ndarray:
            return per_query([r["ranks"][mode] for r in recs])["mrr"]

        print(f"| {corpus} | {paired(mrr('ensemble'), mrr('hybrid')).cell(True)} | "
              f"{paired(mrr('hybrid:mpnet'), mrr('hybrid')).cell(True)} | "
              f"{paired(mrr('knn:mpnet'), mrr('knn:minilm')).cell(True)} |")
    print("\nEmbedding speed (chunks/s, the same first chunk texts of the corpus for both models, batch 16):\n")
    print("| corpus | minilm | mpnet |\n|---|---|---|")
    for row in speed_rows:
        print("| " + " | ".join(row) + " |")
    print("\nQuery latency, ms p50 / p95 (query embedding; kNN; whole search incl. query embedding):\n")
    print("| corpus | embed minilm | embed mpnet | kNN minilm | kNN mpnet | hybrid | ensemble |\n|---|---|---|---|---|---|---|")
    for row in latency_rows:
        print("| " + " | ".join(row) + " |")


if __name__ == "__main__":
    sys.exit(main())
