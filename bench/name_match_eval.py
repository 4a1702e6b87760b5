"""Query-name agreement weights (analysis.name_match) on the held-out corpora, without rebuilding any index.

Usage (the stores and the ``--json`` of a bench/retrieval_eval.py run; see docs/search-quality.md,
"Query-name agreement")::

    python bench/name_match_eval.py /tmp/mrr22c/base-tc.json \\
        --store commons-lang=/tmp/mrr22c/work/commons-lang-b8c526d6e41b.db \\
        --store textual=/tmp/mrr22c/work/textual-14ee65f36465.db \\
        --weights 0,0,0 --weights 0.5,0,0 --weights 0.5,0.3,0.2

The queries (held-out, questions, identifiers) and their answers are the records of that run. Per query
the engine's lists are read once (:meth:`analysis.retrieval.QueryEngine.ranked_lists`, 50 candidates,
the query embedded by the bundled model); each ``--weights NAME,QUERY,SIGNATURE``
(:class:`analysis.name_match.NameMatch`) then ranks them through :meth:`QueryEngine.rank` (the product's
fusion, exact definitions and priors). The first weights are the reference: every other line gets its
MRR minus the reference's with a 95% paired bootstrap interval, per corpus and set. ``--exclude`` (an
earlier run's ``--json``) leaves out the queries it holds: the queries the weights were not chosen on.
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analysis.name_match import NameMatch  # noqa: E402
from analysis.retrieval import QueryEngine  # noqa: E402
from bench.reval.metrics import first_rank, paired, per_query  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from stores.embedder import Embedder  # noqa: E402


def parse_weights(text: str) -> NameMatch:
    """``"0.5,0.3,0.2"`` -> ``NameMatch(0.5, 0.3, 0.2)``; raises ``ValueError`` for another shape."""
    parts = [float(p) for p in text.split(",")]
    if len(parts) != 3:
        raise ValueError(f"--weights takes NAME,QUERY,SIGNATURE, not {text!r}")
    return NameMatch(*parts)


def main(argv: Sequence[str] | None = None) -> int:
    """Rank every record of the run under every weight setting; print a markdown table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("run", type=Path, help="a bench/retrieval_eval.py --json")
    ap.add_argument("--store", action="append", required=True, help="CORPUS=PATH of its evaluation store")
    ap.add_argument("--weights", action="append", required=True, help="NAME,QUERY,SIGNATURE (first: reference)")
    ap.add_argument("--exclude", type=Path, help="a run whose queries are left out")
    ap.add_argument("--depth", type=int, default=100)
    args = ap.parse_args(argv)
    settings = [(w, parse_weights(w)) for w in args.weights]
    records = json.loads(args.run.read_text())["records"]
    if args.exclude:
        seen = {(r["corpus"], r["set"], r["query"]) for r in json.loads(args.exclude.read_text())["records"]}
        records = [r for r in records if (r["corpus"], r["set"], r["query"]) not in seen]
    embedder = Embedder()
    ranks: dict[tuple[str, str], dict[str, list[int]]] = {}
    for spec in args.store:
        corpus, _, path = spec.partition("=")
        mine = [r for r in records if r["corpus"] == corpus]
        store = EmbeddedStore(Path(path))
        texts = list(dict.fromkeys(r["query"] for r in mine))
        vectors = dict(zip(texts, embedder.embed(texts)))
        engines = [(label, QueryEngine(store, store, vectors.__getitem__, candidates=50, name_match=w))
                   for label, w in settings]
        for r in mine:
            lists = engines[0][1].ranked_lists(r["query"])
            row = ranks.setdefault((corpus, r["set"]), {label: [] for label, _ in settings})
            for label, engine in engines:
                hits = engine.rank(r["query"], lists, args.depth).hits
                row[label].append(first_rank([h.chunk.id for h in hits], r["answers"]))
        store.close()
    print("| corpus | set | queries | weights name,query,signature | MRR | hit@1 | MRR minus reference [95% paired] |")
    print("|---|---|---|---|---|---|---|")
    for (corpus, s), row in ranks.items():
        ref = per_query(row[settings[0][0]])
        for label, _ in settings:
            m = per_query(row[label])
            diff = "reference" if label == settings[0][0] else paired(m["mrr"], ref["mrr"]).cell(True)
            print(f"| {corpus} | {s} | {len(row[label])} | {label} | {m['mrr'].mean():.3f} | {m['r1'].mean():.3f} | {diff} |")
    return 0


if __name__ == "__main__":
    sys.exit(main())
