"""BM25 analysis and fusion variants on the held-out corpora, without rebuilding any index.

Usage (the stores and the ``--json`` of a bench/retrieval_eval.py run; see docs/search-quality.md,
"The lexical side")::

    python bench/lexical_eval.py /tmp/mrr22/base.json \\
        --store date-fns=/tmp/mrr22/work/date-fns-5ae82ad97c16.db \\
        --config "plain:none:3,2,1:rrf60knn15" --config "plain:stop:3,2,1:minmax" --config "stem:stop:3,2,1:minmax"

The queries (held-out, questions, identifiers) and their answers are the records of that run. Per
corpus every chunk's ``name``, ``fqn`` and ``text`` are read from the store and indexed into an
in-memory FTS5 table per analyzer (``plain``: :func:`stores.analyzer.analyze`; ``stem``: the same,
every ``[a-z]+`` token replaced by its Snowball English stem, ``py_rust_stemmers``). A configuration
``ANALYZER:STOPS:WEIGHTS:FUSION`` ranks each query by BM25 with those column weights (name, fqn, text),
the query's stop words (``none``; ``stop``: :data:`stores.analyzer.STOP_WORDS` as
:func:`stores.analyzer.query_terms` drops them) and the store's common-token pruning, then hybrid by
:meth:`analysis.retrieval.QueryEngine.rank` on that BM25 list and the engine's own kNN and name lists
with the text fusion ``FUSION`` (:data:`FUSIONS`). With ``plain:none:3,2,1:rrf60knn15`` it reproduces
main 8ca9ffe's figures exactly. Prints BM25 and hybrid MRR per corpus, set and configuration.
"""

from __future__ import annotations

import argparse
import json
import re
import sqlite3
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import numpy as np  # noqa: E402
from py_rust_stemmers import SnowballStemmer  # noqa: E402

from analysis.fusion import Fusion  # noqa: E402
from analysis.retrieval import QueryEngine  # noqa: E402
from bench.reval.metrics import first_rank  # noqa: E402
from stores.analyzer import FTS_TOKENCHARS, STOP_WORDS, TOKEN_PATTERN, analyze  # noqa: E402
from stores.contracts import ScoredChunk  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from stores.embedder import Embedder  # noqa: E402

FUSIONS = {"rrf60": Fusion("rrf", 60), "rrf60knn15": Fusion("rrf", 60, {"knn": 1.5}),
           "rrf60bm2515": Fusion("rrf", 60, {"bm25": 1.5}), "rrf20": Fusion("rrf", 20),
           "minmax": Fusion("minmax"), "minmaxknn15": Fusion("minmax", weights={"knn": 1.5}),
           "minmaxbm2515": Fusion("minmax", weights={"bm25": 1.5}), "zscore": Fusion("zscore")}
"""The text-query fusions a configuration may name."""

_STEMMER = SnowballStemmer("english")
_ALPHA = re.compile("[a-z]+")
_TOKEN = re.compile(TOKEN_PATTERN)


def stemmed(text: str) -> list[str]:
    """:func:`stores.analyzer.analyze` with every ``[a-z]+`` token stemmed (Snowball English)."""
    return [(_STEMMER.stem_word(t) or t) if _ALPHA.fullmatch(t) else t for t in analyze(text)]


ANALYZERS: dict[str, Callable[[str], list[str]]] = {"plain": analyze, "stem": stemmed}


def terms(query: str, an: Callable[[str], list[str]], stops: frozenset[str]) -> list[str]:
    """The query's distinct terms by ``an``, less the tokens in ``stops`` written alone (all when none remain)."""
    kept: list[str] = []
    every: list[str] = []
    for token in _TOKEN.findall(query):
        every += an(token)
        if token.lower() not in stops:
            kept += an(token)
    return list(dict.fromkeys(kept or every))


class Table:
    """An in-memory FTS5 table of ``rows`` (id, name, fqn, text) analysed by ``an``, as the store indexes."""

    def __init__(self, rows: Sequence[tuple[str, str, str, str]], an: Callable[[str], list[str]]) -> None:
        self.db = sqlite3.connect(":memory:")
        self.db.execute("CREATE VIRTUAL TABLE f USING fts5(name, fqn, text, tokenize = "
                        f"\"unicode61 remove_diacritics 0 tokenchars '{FTS_TOKENCHARS}'\")")
        self.ids = [r[0] for r in rows]
        self.db.executemany("INSERT INTO f (rowid, name, fqn, text) VALUES (?, ?, ?, ?)",
                            [(i, " ".join(an(n)), " ".join(an(q)), " ".join(an(t))) for i, (_, n, q, t) in enumerate(rows)])
        self.db.execute("CREATE VIRTUAL TABLE v USING fts5vocab(f, 'row')")
        self.df = dict(self.db.execute("SELECT term, doc FROM v"))

    def bm25(self, tokens: list[str], weights: tuple[float, ...], limit: int) -> list[ScoredChunk]:
        """BM25 with the store's pruning (tokens in half the rows; the 40,000-postings budget)."""
        if not tokens:
            return []
        if len(tokens) > 1:
            tokens = [t for t in tokens if self.df.get(t, 0) < 0.5 * len(self.ids)] or tokens
            postings = sum(self.df.get(t, 0) for t in tokens)
            for t in sorted(list(tokens), key=lambda t: -self.df.get(t, 0)):
                if postings <= 40_000 or len(tokens) == 1:
                    break
                tokens.remove(t)
                postings -= self.df.get(t, 0)
        match = " OR ".join('"' + t + '"' for t in tokens)
        rows = self.db.execute(f"SELECT rowid, bm25(f, {', '.join(map(str, weights))}) AS s FROM f WHERE f MATCH ?"
                               " ORDER BY s, rowid LIMIT ?", (match, limit)).fetchall()
        return [ScoredChunk(self.ids[r], -s, i) for i, (r, s) in enumerate(rows, 1)]


def main(argv: Sequence[str] | None = None) -> int:
    """Rank every configuration on every given corpus; print MRR per set."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("records", type=Path, help="the --json of a bench/retrieval_eval.py run (the queries)")
    ap.add_argument("--store", action="append", required=True, help="CORPUS=PATH of an evaluation store")
    ap.add_argument("--config", action="append", required=True, help="ANALYZER:STOPS:WEIGHTS:FUSION")
    args = ap.parse_args(argv)
    records = json.loads(args.records.read_text())["records"]
    configs = []
    for c in args.config:
        an, stops, w, fusion = c.split(":")
        configs.append((c, ANALYZERS[an], STOP_WORDS if stops == "stop" else frozenset(),
                        tuple(float(x) for x in w.split(",")), FUSIONS[fusion]))
    embedder = Embedder()
    for corpus, path in (s.split("=", 1) for s in args.store):
        store = EmbeddedStore(Path(path))
        conn = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        ids = [r[0] for r in conn.execute("SELECT id FROM chunks ORDER BY id")]
        conn.close()
        chunks = store.get_chunks(ids)
        rows = [(i, chunks[i].name or "", chunks[i].fqn or "", chunks[i].text or "") for i in ids]
        mine = [r for r in records if r["corpus"] == corpus]
        texts = list(dict.fromkeys(r["query"] for r in mine))
        vectors = dict(zip(texts, embedder.embed(texts)))
        engine = QueryEngine(store, store, vectors.__getitem__, candidates=50)
        lists = {q: engine.ranked_lists(q) for q in texts}
        tables = {name: Table(rows, an) for name, an in ANALYZERS.items() if any(c[1] is an for c in configs)}
        for label, an, stops, weights, fusion in configs:
            engine.fusion["text"] = fusion
            table = tables[next(n for n, a in ANALYZERS.items() if a is an)]
            by_set: dict[str, list[tuple[int, int]]] = {}
            for r in mine:
                bm25 = table.bm25(terms(r["query"], an, stops), weights, 100)
                hybrid = engine.rank(r["query"], {**lists[r["query"]], "bm25": bm25[:50]}, 100)
                by_set.setdefault(r["set"], []).append((first_rank([h.chunk_id for h in bm25], r["answers"]),
                                                        first_rank([h.chunk.id for h in hybrid.hits], r["answers"])))
            cells = [f"{s} {np.mean([1 / a if a else 0 for a, _ in v]):.3f} / "
                     f"{np.mean([1 / b if b else 0 for _, b in v]):.3f}" for s, v in by_set.items()]
            print(f"{corpus}  {label}  (BM25 / hybrid MRR)  " + "  ".join(cells), flush=True)
        store.close()
    return 0


if __name__ == "__main__":
    sys.exit(main())
