"""How many rows BM25's exact max-score cut must score under tighter per-term bounds (a simulation).

Usage::

    python bench/bm25_bounds.py DIR/latency.db DIR/queries.json [--k 50] [--blocks 64 256 1024 4096]

The store and queries are those of ``bench/search_bench.py --keep DIR``. :mod:`stores.bm25_cut` scores only
the rows whose terms' bounds can sum to ``theta``, a lower bound of the ``k``-th best score; each term's
bound is ``IDF x (k1 + 1)``, the most FTS5's BM25 lets one term add. This script measures, for every
distinct bench query of two or more kept terms, how many rows that rule keeps **at the ideal theta**
(the true ``k``-th best score, from ``EmbeddedStore.bm25``) under each of these bounds of term ``t`` in
row ``r`` (all upper bounds of the term's real contribution, so each cut stays exact):

* ``idf``: ``IDF(t) x (k1 + 1)``, today's bound;
* ``maxf/mindl``: from the term's largest weighted frequency ``F`` and smallest row length ``Dmin`` over
  its rows: ``IDF x F (k1 + 1) / (F + k1 (1 - b + b Dmin / avgdl))`` (stored max-tf / min-dl per term);
* ``term-max``: the term's true largest contribution over all its rows (no stored statistic is tighter);
* ``block-B``: the term's largest contribution over its rows in the same block of ``B`` rowids (block-max);
* ``blocks-of-B``: today's bound, but only in the blocks whose summed block maxima reach theta (what an
  FTS5 query restricted to rowid ranges could do without per-row data);
* ``row``: the row's own contribution (the rows scoring at least theta: the floor of any exact cut).

The per-row contributions are computed from the index itself: the ``fts5vocab`` instance table gives
each term's (row, column) occurrences, weighted 3 / 2 / 1 as ``EmbeddedStore.bm25`` weighs the columns,
and ``chunks_fts_docsize`` each row's length, so ``f`` and ``D`` are FTS5's own (``fts5_aux.c``). The query
terms are those ``EmbeddedStore.bm25`` keeps (its pruning of common terms). Reads only; about two
minutes for the 273 distinct bench queries at 100,000 chunks.
"""

from __future__ import annotations

import argparse
import json
import sqlite3
import statistics
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from stores.analyzer import query_terms  # noqa: E402
from stores.bm25_blocks import sqlite_varints as varints  # noqa: E402
from stores.bm25_cut import B, K1, fts_row_count, term_bound  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from stores.embedded_lexical import BM25_WEIGHTS, EmbeddedLexical  # noqa: E402

COLUMNS = ("name", "fqn", "text")


def ratio(f: np.ndarray, length: np.ndarray, avgdl: float) -> np.ndarray:
    """FTS5's per-term BM25 factor without the IDF, divided by ``k1 + 1``:
    ``f / (f + k1 (1 - b + b D / avgdl))`` for weighted frequencies ``f`` and row lengths ``D`` (0..1)."""
    return f / (f + K1 * (1 - B + B * length / avgdl))


def rows_kept(postings: Mapping[str, tuple[np.ndarray, np.ndarray]], idf: Mapping[str, float], theta: float,
              blocks: Sequence[int], lengths: Mapping[str, tuple[float, float]] | None = None,
              avgdl: float = 1.0) -> dict[str, int]:
    """Rows a max-score cut at ``theta`` keeps under each bound of the module docstring.

    ``postings[t]``: the term's rowids (sorted, distinct, int array) and its contribution ratios in
    those rows (:func:`ratio`); ``idf[t]``: ``IDF(t) x (k1 + 1)``; ``lengths[t]``: ``(F, Dmin)`` of the
    term for the ``maxf/mindl`` bound (left out when ``None``); ``avgdl`` the table's mean row length.
    A row is kept when the sum over the query terms it holds of the term's bound is ``>= theta``.
    Returns ``{bound name: rows kept}``, names as in the module docstring (``block-64``...)."""
    top = max((int(d[-1]) for d, _ in postings.values() if len(d)), default=0) + 1
    present = np.zeros(top, dtype=bool)
    sums = {name: np.zeros(top) for name in ("idf", "maxf/mindl", "term-max", "row")}
    block_sums = {b: np.zeros(top) for b in blocks}
    per_block = {b: np.zeros(top // b + 1) for b in blocks}
    for term, (rowids, ratios) in postings.items():
        if not len(rowids):
            continue
        bound = idf[term]
        present[rowids] = True
        sums["idf"][rowids] += bound
        sums["term-max"][rowids] += bound * ratios.max()
        sums["row"][rowids] += bound * ratios
        if lengths is not None:
            f, dmin = lengths[term]
            sums["maxf/mindl"][rowids] += bound * float(ratio(np.array([f]), np.array([dmin]), avgdl)[0])
        for b in blocks:
            block = rowids // b
            starts = np.flatnonzero(np.r_[True, block[1:] != block[:-1]])
            maxima = np.maximum.reduceat(ratios, starts)
            block_max = np.repeat(maxima, np.diff(np.r_[starts, len(block)]))
            block_sums[b][rowids] += bound * block_max
            per_block[b][block[starts]] += bound * maxima
    out = {name: int(np.count_nonzero(present & (s >= theta))) for name, s in sums.items()
           if name != "maxf/mindl" or lengths is not None}
    rowids = np.arange(top)
    for b in blocks:
        out[f"block-{b}"] = int(np.count_nonzero(present & (block_sums[b] >= theta)))
        out[f"blocks-of-{b}"] = int(np.count_nonzero(present & (sums["idf"] >= theta)
                                                     & (per_block[b][rowids // b] >= theta)))
    return out


def main(argv: Sequence[str] | None = None) -> int:
    """Print, per bound, the rows kept over the bench queries (sum, median, p95, max) and the 15 queries
    keeping the most rows under today's bound."""
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("db", type=Path)
    ap.add_argument("queries", type=Path)
    ap.add_argument("--k", type=int, default=50)
    ap.add_argument("--blocks", type=int, nargs="+", default=[64, 256, 1024, 4096])
    args = ap.parse_args(argv)
    store = EmbeddedStore(args.db)
    conn = sqlite3.connect(f"file:{args.db}?mode=ro", uri=True)
    conn.execute("CREATE VIRTUAL TABLE temp.ripple_vocab USING fts5vocab(main, chunks_fts, 'row')")
    conn.execute("CREATE VIRTUAL TABLE temp.ripple_instances USING fts5vocab(main, chunks_fts, 'instance')")
    sizes = conn.execute("SELECT id, sz FROM chunks_fts_docsize").fetchall()
    length = np.zeros(max(i for i, _ in sizes) + 1)
    for rowid, blob in sizes:
        length[rowid] = sum(varints(blob))
    averages = conn.execute("SELECT block FROM chunks_fts_data WHERE id = 1").fetchone()[0]
    rows = fts_row_count(averages)
    avgdl = sum(varints(averages)[1:]) / rows
    weight = dict(zip(COLUMNS, BM25_WEIGHTS))
    cache: dict[str, tuple[np.ndarray, np.ndarray, float, float]] = {}

    def term_postings(term: str) -> tuple[np.ndarray, np.ndarray, float, float]:
        if term not in cache:
            f: dict[int, float] = {}
            for doc, col in conn.execute("SELECT doc, col FROM temp.ripple_instances WHERE term = ?", (term,)):
                f[doc] = f.get(doc, 0.0) + weight[col]
            rowids = np.array(sorted(f), dtype=np.int64)
            freq = np.array([f[i] for i in rowids.tolist()])
            d = length[rowids]
            cache[term] = (rowids, ratio(freq, d, avgdl), float(freq.max(initial=0)), float(d.min(initial=0)))
        return cache[term]

    results: list[tuple[dict[str, int], str]] = []
    for query in dict.fromkeys(json.loads(args.queries.read_text())):
        # the terms bm25 keeps (its common-term pruning), with their document counts
        terms, docs = EmbeddedLexical._prune_common(conn, None, rows, query_terms(query))  # noqa: SLF001 - the bench looks inside on purpose
        if len(terms) < 2:
            continue  # no cut for one term
        hits = store.bm25(query, args.k)
        if len(hits) < args.k:
            continue
        theta = hits[-1].score * (1 - 1e-9)
        postings = {t: term_postings(t)[:2] for t in terms}
        lengths = {t: term_postings(t)[2:] for t in terms}
        idf = {t: term_bound(docs[t], rows) for t in terms}
        results.append((rows_kept(postings, idf, theta, args.blocks, lengths, avgdl), query))
    names = list(results[0][0]) if results else []
    print(f"{len(results)} queries of 2+ terms with {args.k} hits; rows of {rows:,}; rows kept at the ideal theta:")
    print("| bound | sum | median | p95 | max |\n|---|---:|---:|---:|---:|")
    for name in names:
        xs = sorted(r[name] for r, _ in results)
        print(f"| {name} | {sum(xs):,} | {statistics.median(xs):,.0f} | {xs[int(0.95 * len(xs)) - 1]:,} | {xs[-1]:,} |")
    print("\nthe 15 queries keeping most rows under today's bound:")
    for kept, query in sorted(results, key=lambda r: r[0]["idf"])[-15:]:
        print("  " + " ".join(f"{n}={kept[n]}" for n in names) + f"  {query[:60]!r}")
    store.close()
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
