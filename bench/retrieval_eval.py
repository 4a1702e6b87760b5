"""Search quality on held-out corpora: doc sentence -> function, developer questions, identifier queries.

Usage (corpora and stores under /tmp; see docs/search-quality.md for the exact fetch commands)::

    python bench/retrieval_eval.py /tmp/eval22/src/textual-8.2.8 /tmp/eval22/src/commons-lang \\
        /tmp/eval22/src/date-fns --work /tmp/eval22/work --json /tmp/eval22/after.json \\
        [--before /tmp/eval22/before.json] [--variants] [--sets heldout,questions,identifiers] [--sample N]

Each corpus (a source tree; its name is the folder's without a ``-1.2.3`` version) is indexed through
the product (:mod:`bench.reval.build`: real pipeline, documentation stripped from every chunk, a fresh
:class:`~stores.embedded.EmbeddedStore`, the bundled model's embeddings). Three query sets:

* ``heldout``: the first sentence of each documented function's doc (Python docstring, Javadoc,
  JSDoc) -> that function, every other chunk a distractor (:mod:`bench.reval.build`);
* ``questions``: hand-written developer questions with verified answers
  (``bench/data/search_questions.json``);
* ``identifiers``: names typed as a developer would (``bench/data/search_identifiers.json``).

Modes: ``bm25`` (``EmbeddedStore.bm25``), ``knn`` (``EmbeddedStore.knn``, the query embedded by the
same model) and ``hybrid`` (what ``QueryEngine.search`` returns: the engine's lists fused by the
product's fusion for the query's kind, then ranked by :mod:`analysis.ranking`; each list is read once per query, and ``--checks`` queries per
corpus are also run through ``QueryEngine.search`` to prove the recomputation identical); with
``--variants``, fusion variants (:mod:`analysis.fusion`) on the very lists the engine fused.
``--sample`` caps the held-out queries per corpus (seeded; default 1000) to keep a run in minutes.
Metrics: MRR (reciprocal rank within the top ``--depth``), R@1 / R@5 / R@10 (= hit@k), each with a
95% percentile-bootstrap interval (:mod:`bench.reval.metrics`); paired intervals for "hybrid minus the
better single list" and, given ``--before`` (an earlier run's ``--json``), "after minus before" on the
queries both runs share.

Exit status 1 when hybrid is not above the better single list on held-out MRR with an interval
excluding 0 on every corpus (the bar of issue 22). ``--work DIR`` keeps the stores: a re-run with
unchanged chunks skips embedding. Fetched code is never committed.
"""

from __future__ import annotations

import argparse
import inspect
import json
import random
import re
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402

from analysis.fusion import Fusion, fuse, query_kind  # noqa: E402
from analysis.retrieval import QueryEngine  # noqa: E402
from bench.reval.build import build_corpus, open_eval_store  # noqa: E402
from bench.reval.metrics import BOOTSTRAP, SEED, bootstrap, first_rank, paired, per_query  # noqa: E402
from bench.reval.sets import SetQuery, check_answers, load_set  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from stores.embedder import Embedder  # noqa: E402

DATA = ROOT / "bench" / "data"
SETS = ("heldout", "questions", "identifiers")
MODES = ("bm25", "knn", "hybrid")

VARIANTS: tuple[Fusion, ...] = (
    Fusion("rrf", 60), Fusion("rrf", 30), Fusion("rrf", 20), Fusion("rrf", 10), Fusion("rrf", 5),
    Fusion("rrf", 60, {"knn": 1.5}), Fusion("rrf", 60, {"bm25": 1.5}), Fusion("rrf", 60, {"name": 3.0}),
    Fusion("rrf", 10, {"name": 3.0}), Fusion("rrf", 10, {"knn": 1.5}),
    Fusion("minmax"), Fusion("minmax", weights={"knn": 1.5}), Fusion("minmax", weights={"bm25": 1.5}),
    Fusion("minmax", weights={"name": 0.5}), Fusion("zscore"),
)
"""Fusion variants recomputed offline with ``--variants`` (the first is the product's RRF k=60)."""


@dataclass
class Record:
    """One query's outcome: its set, kind, text, answers and the rank of the first answer per mode
    (0: not in the top ``depth``)."""

    corpus: str
    set: str
    kind: str
    query: str
    answers: list[str]
    ranks: dict[str, int] = field(default_factory=dict)

    def key(self) -> str:
        """Identity across runs: corpus, set, query text."""
        return f"{self.corpus}\0{self.set}\0{self.query}"


def corpus_name(root: Path) -> str:
    """A corpus's name: its folder's without a trailing ``-<version>`` (``textual-8.2.8`` -> ``textual``)."""
    return re.sub(r"-\d[\w.]*$", "", root.resolve().name)


def run_corpus(store: EmbeddedStore, name: str, queries: list[SetQuery], embedder: Embedder, depth: int,
               candidates: int, variants: Sequence[Fusion], checks: int) -> tuple[list[Record], int, int]:
    """Rank every query of one corpus in every mode (and variant); one :class:`Record` each.

    Each list is read once per query, ``depth`` deep (``QueryEngine.ranked_lists``): BM25 and kNN
    alone are those lists; hybrid is ``QueryEngine.rank`` of their first ``candidates`` and of the
    engine's own ``name`` list (the product's fusion for the query's kind, then the exact definitions
    and priors of :mod:`analysis.ranking`), as ``QueryEngine.search`` computes it. On ``checks`` queries (a seeded sample)
    ``QueryEngine.search`` itself is run too; returns the records and ``(checked, differing)``."""
    texts = list(dict.fromkeys(q.text for q in queries))
    qvec = dict(zip(texts, embedder.embed(texts)))
    embed = qvec.__getitem__
    engine = QueryEngine(store, store, embed, candidates=candidates)
    deep = QueryEngine(store, store, embed, candidates=depth)
    sample = set(random.Random(SEED).sample(range(len(queries)), min(checks, len(queries))))
    out: list[Record] = []
    differing = 0
    for i, q in enumerate(queries):
        rec = Record(name, q.kind if q.kind in SETS else _set_of(q), q.kind, q.text, sorted(q.answers))
        full = deep.ranked_lists(q.text)
        rec.ranks["bm25"] = first_rank([h.chunk_id for h in full["bm25"]], q.answers)
        rec.ranks["knn"] = first_rank([h.chunk_id for h in full.get("knn", [])], q.answers)
        if query_kind(q.text) == "identifier":
            lists = engine.ranked_lists(q.text)
        else:  # BM25 is read again at the fusion depth: its ties at the cut are broken by row, not by id
            lists = {k: v[:candidates] for k, v in full.items()}
            lists["bm25"] = store.bm25(q.text, candidates)
        hybrid = [h.chunk.id for h in engine.rank(q.text, lists, depth).hits]
        rec.ranks["hybrid"] = first_rank(hybrid, q.answers)
        if i in sample:
            differing += hybrid != [h.chunk.id for h in engine.search(q.text, limit=depth).hits]
        for v in variants:
            rec.ranks[v.label()] = first_rank([f.chunk_id for f in fuse(lists, v)[:depth]], q.answers)
        out.append(rec)
    return out, len(sample), differing


def _set_of(q: SetQuery) -> str:
    return "identifiers" if q.kind in ("unique", "qualified", "ambiguous") else "questions"


# ------------------------------------------------------------------------------------ reporting


def _values(recs: Sequence[Record], mode: str, metric: str) -> np.ndarray:
    return per_query([r.ranks[mode] for r in recs])[metric]


def _table(title: str, rows: list[list[str]], header: list[str]) -> None:
    print(f"\n{title}\n")
    print("| " + " | ".join(header) + " |\n|" + "---|" * len(header))
    for r in rows:
        print("| " + " | ".join(r) + " |")


def _groups(records: Sequence[Record], by_kind: bool) -> dict[tuple[str, str], list[Record]]:
    g: dict[tuple[str, str], list[Record]] = {}
    for r in records:
        g.setdefault((r.corpus, r.set), []).append(r)
        if by_kind and r.set == "identifiers":
            g.setdefault((r.corpus, f"identifiers:{r.kind}"), []).append(r)
    return g


def _metrics_for(set_name: str) -> tuple[str, ...]:
    return ("mrr", "r1", "r10") if set_name == "heldout" else ("r1", "r5", "mrr")


_LABEL = {"mrr": "MRR", "r1": "R@1", "r5": "hit@5", "r10": "R@10"}


def report(records: list[Record], before: list[Record] | None, variants: Sequence[Fusion]) -> bool:
    """Print every table; return whether hybrid beats the better single list on held-out MRR with an
    interval excluding 0 on every corpus."""
    groups = _groups(records, by_kind=True)
    rows = []
    for (corpus, s), recs in groups.items():
        for mode in MODES:
            cells = [_values(recs, mode, m) for m in _metrics_for(s)]
            labels = [_LABEL[m] if s == "heldout" else _LABEL[m].replace("R@1", "hit@1") for m in _metrics_for(s)]
            rows.append([corpus, s, str(len(recs)), mode, "; ".join(f"{lab} {bootstrap(v).cell()}"
                                                                  for lab, v in zip(labels, cells))])
    _table(f"Per corpus, set and mode (mean [95% bootstrap interval, {BOOTSTRAP} resamples]):", rows,
           ["corpus", "set", "queries", "mode", "metrics"])

    ok = True
    rows = []
    for (corpus, s), recs in groups.items():
        best = max(("bm25", "knn"), key=lambda m: _values(recs, m, "mrr").mean())
        d = paired(_values(recs, "hybrid", "mrr"), _values(recs, best, "mrr"))
        d1 = paired(_values(recs, "hybrid", "r1"), _values(recs, best, "r1"))
        rows.append([corpus, s, best, d.cell(True), d1.cell(True), "yes" if d.lo > 0 else "no"])
        if s == "heldout":
            ok &= d.lo > 0
    _table("Hybrid minus the better single list (paired, per query):", rows,
           ["corpus", "set", "better single", "MRR diff", "R@1 / hit@1 diff", "interval above 0"])

    if before is not None:
        prev = {r.key(): r for r in before}
        rows = []
        for (corpus, s), recs in groups.items():
            both = [(r, prev[r.key()]) for r in recs if r.key() in prev]
            if not both:
                continue
            for mode in MODES:
                if not all(mode in b.ranks for _, b in both):
                    continue
                a = per_query([r.ranks[mode] for r, _ in both])
                b = per_query([p.ranks[mode] for _, p in both])
                rows.append([corpus, s, str(len(both)), mode, f"{b['mrr'].mean():.3f}", f"{a['mrr'].mean():.3f}",
                             paired(a["mrr"], b["mrr"]).cell(True), paired(a["r1"], b["r1"]).cell(True)])
        _table("After minus before (paired, queries both runs hold):", rows,
               ["corpus", "set", "queries", "mode", "MRR before", "MRR after", "MRR diff", "R@1 diff"])

    if variants:
        base = variants[0].label()
        for kinds, title in ((("heldout", "questions"), "natural language"), (("identifiers",), "identifier")):
            rows = []
            for v in variants:
                cells = []
                for (_corpus, s), recs in _groups(records, by_kind=False).items():
                    if s not in kinds:
                        continue
                    a, b = _values(recs, v.label(), "mrr"), _values(recs, base, "mrr")
                    cells.append(f"{a.mean():.3f} ({paired(a, b).cell(True)})")
                rows.append([v.label(), *cells])
            heads = [f"{c} {s}" for (c, s) in _groups(records, by_kind=False) if s in kinds]
            _table(f"Fusion variants, {title} queries: MRR (paired diff vs {base}):", rows, ["fusion", *heads])
    return ok


def _enc(records: list[Record]) -> list[dict[str, object]]:
    return [r.__dict__ for r in records]


def main(argv: Sequence[str] | None = None) -> int:
    """Build the corpora, rank every set, print markdown tables; exit 1 when the bar is missed."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+", type=Path, help="unpacked source trees")
    ap.add_argument("--work", type=Path, help="keep the stores here (default: a temporary folder)")
    ap.add_argument("--depth", type=int, default=100, help="results read per mode for the metrics")
    ap.add_argument("--candidates", type=int, default=None,
                    help="QueryEngine candidate depth per list (default: the product's)")
    ap.add_argument("--sets", default=",".join(SETS), help="which sets to run (comma-separated)")
    ap.add_argument("--questions", type=Path, default=DATA / "search_questions.json")
    ap.add_argument("--identifiers", type=Path, default=DATA / "search_identifiers.json")
    ap.add_argument("--variants", action="store_true", help="also score the fusion variants")
    ap.add_argument("--checks", type=int, default=30,
                    help="queries per corpus also run through QueryEngine.search to check the recomputed hybrid")
    ap.add_argument("--sample", type=int, default=1000,
                    help="at most this many held-out queries per corpus (a seeded sample; 0: all; default 1000)")
    ap.add_argument("--json", type=Path, help="write every query's ranks here (input of --before)")
    ap.add_argument("--before", type=Path, help="an earlier run's --json: report after minus before")
    args = ap.parse_args(argv)
    sets = [s.strip() for s in args.sets.split(",") if s.strip()]
    if unknown := set(sets) - set(SETS):
        ap.error(f"unknown sets {sorted(unknown)} (choose from {', '.join(SETS)})")

    tmp_ctx = tempfile.TemporaryDirectory() if args.work is None else None
    work = Path(tmp_ctx.name) if tmp_ctx else args.work
    work.mkdir(parents=True, exist_ok=True)
    candidates = args.candidates or inspect.signature(QueryEngine).parameters["candidates"].default
    extra: list[SetQuery] = []
    if "questions" in sets:
        extra += load_set(args.questions, "questions")
    if "identifiers" in sets:
        extra += load_set(args.identifiers, "identifiers")
    variants = VARIANTS if args.variants else ()

    embedder = Embedder()
    print(f"model: {embedder.model_id}; QueryEngine candidates={candidates}; metrics over the top {args.depth}; "
          f"sets {', '.join(sets)}")
    records: list[Record] = []
    problems: list[str] = []
    warnings: list[str] = []
    for root in args.corpora:
        name = corpus_name(root)
        t0 = time.perf_counter()
        c = build_corpus(root, name, work)
        store, embed_s = open_eval_store(work, name, c.files, embedder)
        ids = {ch.id for f in c.files for ch in f.chunks}
        mine = [q for q in extra if q.corpus == name]
        problems += [f"{name}: {m}" for m in check_answers(mine, ids)]
        held = c.queries
        if args.sample and len(held) > args.sample:
            held = random.Random(SEED).sample(sorted(held, key=lambda q: q.target), args.sample)
        queries = ([SetQuery(name, q.text, frozenset([q.target]), "heldout") for q in held]
                   if "heldout" in sets else []) + mine
        t1 = time.perf_counter()
        recs, checked, differing = run_corpus(store, name, queries, embedder, args.depth, candidates, variants,
                                              args.checks)
        records += recs
        if differing:
            warnings.append(f"{name}: the hybrid ranking recomputed from the lists differs from QueryEngine.search "
                            f"on {differing} of {checked} checked queries")
        store.close()
        langs = ", ".join(f"{k} {v:,}" for k, v in c.languages.most_common(3))
        print(f"{root.name}: {c.n_chunks:,} chunks ({langs}); {len(c.queries):,} held-out queries, "
              f"{len(mine)} set queries; index {c.index_s:.0f}s, embed {embed_s:.0f}s, "
              f"rank {time.perf_counter() - t1:.0f}s (total {time.perf_counter() - t0:.0f}s)", flush=True)
    known = {corpus_name(r) for r in args.corpora}
    skipped = sorted({q.corpus for q in extra} - known)
    if skipped:
        print(f"note: set queries of corpora not given are skipped: {', '.join(skipped)}")
    if problems:
        print("answers the stores do not hold (fix the set or the extractor):", *problems, sep="\n  ")
        return 2

    for w in warnings:
        print(f"WARNING: {w}")
    before = None
    if args.before:
        before = [Record(**r) for r in json.loads(args.before.read_text())["records"]]
    ok = report(records, before, variants)
    if args.json:
        args.json.write_text(json.dumps({"model": embedder.model_id, "candidates": candidates, "depth": args.depth,
                                         "records": _enc(records)}, indent=0))
    print("\nhybrid above the better single list on held-out MRR (interval excludes 0) on every corpus:",
          "YES" if ok else "NO")
    if tmp_ctx:
        tmp_ctx.cleanup()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
