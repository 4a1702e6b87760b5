"""Name-aware ranking and priors, each measured on its own (issue 22 items 2 and 3).

Usage (the corpora and stores of bench/retrieval_eval.py; see docs/search-quality.md)::

    python bench/ranking_eval.py /tmp/eval22/src/textual-8.2.8 /tmp/eval22/src/commons-lang \\
        /tmp/eval22/src/date-fns --work /tmp/rank22/work [--depth 100]

Each corpus is built as :mod:`bench.retrieval_eval` builds it (:func:`bench.reval.build.build_corpus`:
the real pipeline, docs stripped from every chunk, the bundled model's embeddings) and ranked for the
same three sets (held-out doc sentences, developer questions, identifier queries). Per query the
engine's ranked lists are read once (:meth:`analysis.retrieval.QueryEngine.ranked_lists`), fused by the
product's fusion, and the head's chunks and nodes fetched once; every configuration then ranks that
head with :func:`analysis.ranking.rerank`, exactly as ``QueryEngine.search`` does:

* ``main``: the ranking before this change: the ``name`` list ordered by CALLS fan-in over the first 50
  same-name symbols by id, no exact-definitions step, no priors;
* ``names``: the new ``name`` list (:func:`analysis.ranking.named_definitions`), still fused only;
* ``exact``: ``names`` + exact definitions first;
* ``exact+tests`` / ``exact+private`` / ``exact+undoc``: one prior at a time (several factors);
* ``all``: the shipped defaults (:data:`analysis.ranking.DEFAULT_PRIORS`).

Documentation: the held-out answers are documented by construction, so the held-out set is ranked
without the ``documented`` property (the build removes it with the docs); the question and identifier
sets are ranked with it restored (:attr:`bench.reval.build.Corpus.documented`), as a real index has it.

Prints MRR / hit@1 / hit@5 per set and configuration with paired bootstrap differences against ``main``;
the held-out set also split by its answer's place: ``heldout:test`` (test code), ``heldout:impl``, and
the latter into ``heldout:impl+public`` / ``heldout:impl+private`` (:func:`analysis.ranking.is_private`).
"""

from __future__ import annotations

import argparse
import random
import sys
import time
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from analysis.fusion import fuse, fusion_for  # noqa: E402
from analysis.ranking import (DEFAULT_PRIORS, NO_PRIORS, Candidate, Priors, asks_for_tests,  # noqa: E402
                              is_identifier, is_private, rerank)
from analysis.testcode import is_test_path  # noqa: E402
from analysis.retrieval import QueryEngine  # noqa: E402
from bench.retrieval_eval import DATA, corpus_name  # noqa: E402
from bench.reval.build import build_corpus, open_eval_store  # noqa: E402
from bench.reval.metrics import first_rank, paired, per_query  # noqa: E402
from bench.reval.sets import SetQuery, load_set  # noqa: E402
from stores.contracts import Node, ScoredChunk  # noqa: E402
from stores.embedder import Embedder  # noqa: E402

CONFIGS: dict[str, tuple[str, bool, Priors]] = {
    "main": ("main", False, NO_PRIORS),
    "names": ("new", False, NO_PRIORS),
    "exact": ("new", True, NO_PRIORS),
    **{f"exact+tests {f}": ("new", True, Priors(tests=f, private=1.0, undocumented=1.0)) for f in (0.3, 0.5, 0.7)},
    **{f"exact+private {f}": ("new", True, Priors(tests=1.0, private=f, undocumented=1.0)) for f in (0.6, 0.8, 0.9)},
    **{f"exact+undoc {f}": ("new", True, Priors(tests=1.0, private=1.0, undocumented=f)) for f in (0.8, 0.9, 0.95)},
    "all": ("new", True, DEFAULT_PRIORS),
}
"""Configuration name -> (name list: ``main`` or ``new``, exact definitions first, priors)."""


class _Documented:
    """A graph store view whose nodes in ``ids`` carry ``documented`` (restores what the build hid)."""

    def __init__(self, graph: Any, ids: frozenset[str]) -> None:
        self._graph, self._ids = graph, ids

    def __getattr__(self, name: str) -> Any:
        return getattr(self._graph, name)

    def _mark(self, n: Node) -> Node:
        return replace(n, props={**n.props, "documented": True}) if n.id in self._ids else n

    def get_nodes(self, ids: Sequence[str]) -> dict[str, Node]:
        return {i: self._mark(n) for i, n in self._graph.get_nodes(ids).items()}

    def find_symbols(self, names: Sequence[str], labels: Sequence[str] | None = None) -> dict[str, list[Node]]:
        return {k: [self._mark(n) for n in v] for k, v in self._graph.find_symbols(names, labels).items()}


def _main_name_list(engine: QueryEngine, query: str) -> list[ScoredChunk]:
    """The ``name`` list as main built it (QueryEngine._exact_names before this change)."""
    query = query.strip()
    if not is_identifier(query):
        return []
    name = query.rsplit(".", 1)[-1]
    nodes = [n for n in engine.graph.find_symbols([name]).get(name, []) if n.label != "File"]
    if "." in query:
        nodes = [n for n in nodes if n.qualname.endswith(query) or f"{n.file}:{n.qualname}".endswith(query)]
    if not nodes:
        return []
    fan_in = engine.graph.incoming([n.id for n in nodes[: engine.candidates]], ["CALLS"])
    ranked = sorted(nodes[: engine.candidates], key=lambda n: (-len(fan_in.get(n.id, [])), n.id))
    return [ScoredChunk(n.id, float(len(fan_in.get(n.id, []))), i) for i, n in enumerate(ranked, 1)]


def rank_query(engine: QueryEngine, q: SetQuery, depth: int) -> dict[str, int]:
    """The rank of ``q``'s first answer under every configuration of :data:`CONFIGS` (0: not in the top
    ``depth``)."""
    wants_tests = asks_for_tests(q.text)
    new = engine.ranked_lists(q.text, wants_tests=wants_tests)
    old = {k: v for k, v in new.items() if k != "name"}
    if main_named := _main_name_list(engine, q.text):
        old["name"] = main_named
    fusion = fusion_for(q.text, engine.fusion)
    fused = {"new": fuse(new, fusion), "main": fuse(old, fusion)}
    exact = {h.chunk_id: h.score for h in new.get("name", [])}
    n_head = max(depth * 3, depth + 20)
    ids = list(dict.fromkeys([f.chunk_id for fl in fused.values() for f in fl[:n_head]] + list(exact)[: depth * 2]))
    chunks = engine.index.get_chunks(ids)
    nodes = engine.graph.get_nodes(sorted({c.fqn for c in chunks.values()}))
    out: dict[str, int] = {}
    for label, (which, exact_first, priors) in CONFIGS.items():
        head = fused[which][:n_head]
        if exact_first:
            seen = {f.chunk_id for f in head}
            by_id = {f.chunk_id: f for f in fused[which]}
            head = head + [by_id[i] for i in list(exact)[: depth * 2] if i in by_id and i not in seen]
        cands = [Candidate(chunks[f.chunk_id], nodes[chunks[f.chunk_id].fqn], f.score) for f in head
                 if f.chunk_id in chunks and chunks[f.chunk_id].fqn in nodes]
        order = rerank(cands, exact if exact_first else {}, priors, wants_tests)
        out[label] = first_rank([cands[r.index].chunk.id for r in order][:depth], q.answers)
    return out


def report(rows: Mapping[tuple[str, str], list[dict[str, int]]]) -> None:
    """Markdown: per corpus and set, each configuration's MRR / hit@1 / hit@5 and MRR minus ``main``."""
    print("\n| corpus | set | queries | configuration | MRR | hit@1 | hit@5 | MRR minus main [95% paired] |")
    print("|---|---|---|---|---|---|---|---|")
    for (corpus, s), recs in rows.items():
        base = per_query([r["main"] for r in recs])
        for label in CONFIGS:
            m = per_query([r[label] for r in recs])
            diff = paired(m["mrr"], base["mrr"]).cell(True) if label != "main" else ""
            print(f"| {corpus} | {s} | {len(recs)} | {label} | {m['mrr'].mean():.3f} | {m['r1'].mean():.3f} | "
                  f"{m['r5'].mean():.3f} | {diff} |")


def main(argv: Sequence[str] | None = None) -> int:
    """Build each corpus, rank every set under every configuration, print the table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+", type=Path)
    ap.add_argument("--work", type=Path, required=True, help="evaluation stores (as bench/retrieval_eval.py --work)")
    ap.add_argument("--depth", type=int, default=100)
    ap.add_argument("--sets", default="heldout,questions,identifiers")
    ap.add_argument("--sample", type=int, default=0, help="rank this many held-out queries per corpus (seeded; 0: all)")
    args = ap.parse_args(argv)
    sets = set(args.sets.split(","))
    extra = load_set(DATA / "search_questions.json", "questions") + load_set(DATA / "search_identifiers.json",
                                                                             "identifiers")
    embedder = Embedder()
    rows: dict[tuple[str, str], list[dict[str, int]]] = {}
    for root in args.corpora:
        name = corpus_name(root)
        t0 = time.perf_counter()
        c = build_corpus(root, name, args.work)
        store, _ = open_eval_store(args.work, name, c.files, embedder)
        mine = [q for q in extra if q.corpus == name and
                (("questions" in sets and q.kind == "questions") or ("identifiers" in sets and q.kind != "questions"))]
        held = [SetQuery(name, q.text, frozenset([q.target]), "heldout") for q in c.queries] if "heldout" in sets else []
        if 0 < args.sample < len(held):
            held = random.Random(22).sample(held, args.sample)
        texts = list(dict.fromkeys(q.text for q in held + mine))
        qvec = dict(zip(texts, embedder.embed(texts)))
        blind = QueryEngine(store, store, qvec.__getitem__)
        sighted = QueryEngine(_Documented(store, c.documented), store, qvec.__getitem__)  # type: ignore[arg-type]
        targets = store.get_chunks(sorted({a for q in held for a in q.answers}))
        nodes = store.get_nodes(sorted({c.fqn for c in targets.values()}))
        for q in held:
            rec = rank_query(blind, q, args.depth)
            rows.setdefault((name, "heldout"), []).append(rec)
            target = targets[next(iter(q.answers))]
            rows.setdefault((name, "heldout:" + ("test" if is_test_path(target.file) else "impl")), []).append(rec)
            if not is_test_path(target.file):
                private = target.fqn in nodes and is_private(nodes[target.fqn], target.language)
                rows.setdefault((name, "heldout:impl+" + ("private" if private else "public")), []).append(rec)
        for q in mine:
            s = "questions" if q.kind == "questions" else "identifiers"
            rec = rank_query(sighted, q, args.depth)
            rows.setdefault((name, s), []).append(rec)
            if s == "identifiers":
                rows.setdefault((name, f"identifiers:{q.kind}"), []).append(rec)
        store.close()
        print(f"{name}: {len(held)} held-out, {len(mine)} set queries, {len(c.documented):,} documented nodes "
              f"({time.perf_counter() - t0:.0f}s)", flush=True)
    report(rows)
    return 0


if __name__ == "__main__":
    sys.exit(main())
