"""Search quality: docstring first line -> the function it documents, with its docstring removed.

Usage::

    pip download --no-deps --no-binary :all: fastapi==0.165.0 -d /tmp/reval
    pip download --no-deps --no-binary :all: requests==2.34.2 -d /tmp/reval
    (cd /tmp/reval && tar xzf fastapi-0.165.0.tar.gz && tar xzf requests-2.34.2.tar.gz)
    python bench/retrieval_eval.py /tmp/reval/fastapi-0.165.0 /tmp/reval/requests-2.34.2 [--work DIR]

How the set is built, through the product itself:

1. Each corpus (an unpacked sdist) is indexed with the real pipeline
   (:func:`indexer.pipeline.index_repository`) into a temporary :class:`stores.embedded.EmbeddedStore`;
   the :class:`~stores.contracts.IndexedFile` records it writes (graph + chunks) are kept.
2. Every docstring is removed from every Python chunk text (functions, methods, classes, nested
   definitions; :mod:`ast` finds them, their lines are cut), so no document carries the words a query
   was taken from. The rewritten records go into a *fresh* EmbeddedStore via ``replace_files``
   (BM25 is built from the stripped texts), then :func:`indexer.embedding.embed_pending` embeds them
   with the bundled model.
3. Queries: the first line of each function/method docstring with >= 4 words. A query whose first line
   is shared by several functions, or whose stripped function text is identical to another chunk's,
   is ambiguous and dropped. The relevant document is that function's chunk; every other chunk of the
   corpus is a distractor. A corpus with fewer than 1,000 distractors gets the chunks of the other
   corpora added as distractors (the script says so).
4. Metrics per corpus, for BM25 alone (``EmbeddedStore.bm25``), dense alone (``EmbeddedStore.knn``)
   and hybrid (``QueryEngine.search``, RRF): R@1, R@10 and MRR (reciprocal rank within the top
   ``--depth`` results, 0 beyond). Ablations: BM25 field weights (name 3 / fqn 2 / text 1 vs all 1,
   by patching ``stores.embedded._BM25_WEIGHTS``) and fusion variants (candidate depth, per-list
   weights), computed by :func:`weighted_rrf` (the product's RRF with a weight per list) on the same lists.

``--work DIR`` keeps the stores (re-runs skip indexing and embedding). Fetched code is never
committed: keep it under /tmp.
"""

from __future__ import annotations

import argparse
import ast
import json
import re
import sys
import tempfile
import textwrap
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

import stores.embedded as embedded_mod  # noqa: E402
from indexer.chunk_context import with_checksum  # noqa: E402
from indexer.embedding import embed_pending  # noqa: E402
from indexer.run import IndexOptions  # noqa: E402
from indexer.pipeline import index_repository  # noqa: E402
from stores.contracts import Chunk, IndexedFile, ScoredChunk  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from stores.embedder import Embedder  # noqa: E402
from analysis.retrieval import RRF_K, QueryEngine  # noqa: E402

MIN_DISTRACTORS = 1_000
MIN_WORDS = 4


# ------------------------------------------------------------------------------------ building


class _RecordingStore(EmbeddedStore):
    """An EmbeddedStore that keeps every IndexedFile the pipeline writes."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.files: list[IndexedFile] = []

    def replace_files(self, files: Sequence[IndexedFile]) -> None:  # noqa: D102
        self.files.extend(files)
        super().replace_files(files)


_DEF_TYPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)


def _docstring_node(node: ast.AST) -> ast.Expr | None:
    body = getattr(node, "body", None)
    if body and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Constant) \
            and isinstance(body[0].value.value, str):
        return body[0]
    return None


@dataclass(frozen=True, slots=True)
class Stripped:
    """A chunk text without its docstrings; ``doc`` is the docstring of the chunk's own definition
    (the outermost one of the text), ``None`` when it has none or it could not be cut cleanly."""

    text: str
    doc: str | None


def strip_docstrings(text: str) -> Stripped:
    """Remove every docstring of every def / class in ``text`` (a chunk: one definition, possibly
    indented, possibly capped). Lines holding only the docstring are cut; a docstring sharing a line
    with other code (``def f(): "doc"``) stays, and then ``doc`` is ``None``. Unparsable text is kept
    as is (``doc`` ``None``)."""
    source = textwrap.dedent(text)
    try:
        tree = ast.parse(source)
    except SyntaxError:
        return Stripped(text, None)
    lines = text.split("\n")
    src_lines = source.split("\n")
    cut: set[int] = set()  # 0-based line numbers
    own_doc: str | None = None
    top = next((n for n in tree.body if isinstance(n, _DEF_TYPES)), None)
    for node in ast.walk(tree):
        if not isinstance(node, _DEF_TYPES):
            continue
        expr = _docstring_node(node)
        if expr is None or expr.end_lineno is None:
            continue
        first, last = expr.lineno - 1, expr.end_lineno - 1
        alone = (src_lines[first][: expr.col_offset].strip() == ""
                 and src_lines[last][expr.end_col_offset:].strip() in ("", ";"))
        if not alone:
            continue
        cut.update(range(first, last + 1))
        if node is top:
            own_doc = ast.get_docstring(node)
    kept = [line for i, line in enumerate(lines) if i not in cut]
    return Stripped("\n".join(kept), own_doc)


def _first_line(doc: str) -> str:
    for line in doc.strip().split("\n"):
        if line.strip():
            return " ".join(line.split())
    return ""


@dataclass(frozen=True, slots=True)
class Query:
    """One query and the id of its single relevant chunk."""

    text: str
    target: str


@dataclass
class Corpus:
    """One corpus: its stripped records and queries."""

    name: str
    files: list[IndexedFile]
    queries: list[Query]
    n_chunks: int
    index_s: float


def build_corpus(root: Path, repo: str, tmp: Path) -> Corpus:
    """Index ``root`` with the real pipeline, strip docstrings from the chunks, pick the queries."""
    t0 = time.perf_counter()
    rec = _RecordingStore(tmp / f"{repo}-raw.db")
    index_repository(root, rec, rec, IndexOptions(repo=repo))
    rec.close()
    index_s = time.perf_counter() - t0
    files: list[IndexedFile] = []
    candidates: list[tuple[str, str, str]] = []  # (first line, chunk id, stripped text)
    for f in rec.files:
        chunks: list[Chunk] = []
        for c in f.chunks:
            if c.language != "python":
                chunks.append(c)
                continue
            s = strip_docstrings(c.text)
            chunks.append(with_checksum(replace(c, text=s.text)))
            if c.kind in ("function", "method") and s.doc and not c.text.endswith("\n…"):
                line = _first_line(s.doc)
                if len(re.findall(r"\S+", line)) >= MIN_WORDS:
                    candidates.append((line, c.id, s.text))
        files.append(IndexedFile(f.file, f.nodes, f.edges, f.unresolved, chunks))
    texts = Counter(c.text for f in files for c in f.chunks)
    lines = Counter(q for q, _, _ in candidates)
    queries = [Query(q, cid) for q, cid, text in candidates if lines[q] == 1 and texts[text] == 1]
    n_chunks = sum(len(f.chunks) for f in files)
    return Corpus(repo, files, queries, n_chunks, index_s)


def open_eval_store(path: Path, files: list[IndexedFile], embedder: Embedder) -> tuple[EmbeddedStore, float]:
    """A fresh store holding ``files`` (graph + stripped chunks), embedded; reused when it exists."""
    fresh = not path.exists()
    store = EmbeddedStore(path)
    t = 0.0
    if fresh:
        store.replace_files(files)
    if store.chunk_count()["embedded"] < store.chunk_count()["chunks"]:
        t0 = time.perf_counter()
        embed_pending(store, embedder)
        t = time.perf_counter() - t0
    return store, t


# ------------------------------------------------------------------------------------ metrics


@dataclass(frozen=True, slots=True)
class Scores:
    """R@1, R@10 and MRR of one method on one query set."""

    r1: float
    r10: float
    mrr: float

    def row(self) -> str:
        """``| r1 | r10 | mrr |`` cells."""
        return f"{self.r1:.3f} | {self.r10:.3f} | {self.mrr:.3f}"


def score(rankings: Sequence[Sequence[str]], targets: Sequence[str]) -> Scores:
    """Metrics of ranked id lists against one relevant id each (rank beyond the list counts 0)."""
    r1 = r10 = rr = 0.0
    for ids, target in zip(rankings, targets):
        try:
            rank = list(ids).index(target) + 1
        except ValueError:
            continue
        r1 += rank == 1
        r10 += rank <= 10
        rr += 1.0 / rank
    n = max(len(targets), 1)
    return Scores(r1 / n, r10 / n, rr / n)


def weighted_rrf(lists: dict[str, Sequence[ScoredChunk]], weights: dict[str, float], k: int = RRF_K) -> list[str]:
    """RRF with a weight per list (``w / (k + rank)``), ties by best rank then id (as the product)."""
    scores: dict[str, float] = {}
    best: dict[str, int] = {}
    for name, hits in lists.items():
        for h in hits:
            scores[h.chunk_id] = scores.get(h.chunk_id, 0.0) + weights.get(name, 1.0) / (k + h.rank)
            best[h.chunk_id] = min(best.get(h.chunk_id, h.rank), h.rank)
    return sorted(scores, key=lambda c: (-scores[c], best[c], c))


def _ids(hits: Sequence[ScoredChunk], depth: int | None = None) -> list[str]:
    return [h.chunk_id for h in (hits if depth is None else hits[:depth])]


def _cut(hits: Sequence[ScoredChunk], depth: int) -> list[ScoredChunk]:
    return list(hits[:depth])


def evaluate(
    store: EmbeddedStore, queries: list[Query], qvec: dict[str, Sequence[float]], depth: int, candidates: int
) -> dict[str, object]:
    """Every metric and ablation for one corpus store."""
    targets = [q.target for q in queries]
    t0 = time.perf_counter()
    bm25 = [store.bm25(q.text, depth) for q in queries]
    bm25_s = time.perf_counter() - t0
    t0 = time.perf_counter()
    knn = [store.knn(qvec[q.text], depth) for q in queries]
    knn_s = time.perf_counter() - t0
    engine = QueryEngine(store, store, lambda q: qvec[q], candidates=candidates)

    def run_hybrid() -> list[list[str]]:
        return [[h.chunk.id for h in engine.search(q.text, limit=depth).hits] for q in queries]

    t0 = time.perf_counter()
    hybrid = run_hybrid()
    hybrid_s = time.perf_counter() - t0
    saved = embedded_mod._BM25_WEIGHTS
    try:
        embedded_mod._BM25_WEIGHTS = (1.0, 1.0, 1.0)
        bm25_flat = [store.bm25(q.text, depth) for q in queries]
        hybrid_flat = run_hybrid()
    finally:
        embedded_mod._BM25_WEIGHTS = saved

    def fused(bd: int, kd: int, wb: float = 1.0, wk: float = 1.0, k: int = RRF_K,
              b_lists: list[list[ScoredChunk]] = bm25) -> Scores:
        return score([weighted_rrf({"bm25": _cut(b, bd), "knn": _cut(v, kd)}, {"bm25": wb, "knn": wk}, k)[:depth]
                      for b, v in zip(b_lists, knn)], targets)

    variants: dict[str, Scores] = {}
    for d in (10, 20, 50, 100, depth):
        if d <= depth:
            variants[f"RRF k=60, depth {d} each"] = fused(d, d)
    for wb, wk in ((1.0, 1.5), (1.0, 2.0), (0.5, 1.0)):
        variants[f"RRF k=60, depth {candidates}, weights bm25 {wb} / knn {wk}"] = fused(candidates, candidates, wb, wk)
    for k in (10, 30, 100):
        variants[f"RRF k={k}, depth {candidates}"] = fused(candidates, candidates, k=k)
    return {
        "bm25": score([_ids(b) for b in bm25], targets),
        "dense": score([_ids(v) for v in knn], targets),
        "hybrid": score(hybrid, targets),
        "bm25_flat": score([_ids(b) for b in bm25_flat], targets),
        "hybrid_flat": score(hybrid_flat, targets),
        "variants": variants,
        "ms_per_query": {"bm25": 1000 * bm25_s / len(queries), "knn": 1000 * knn_s / len(queries),
                         "hybrid": 1000 * hybrid_s / len(queries)},
    }


# ------------------------------------------------------------------------------------ main


def main(argv: Sequence[str] | None = None) -> int:
    """Build the sets, run the evaluation, print markdown tables; exit 1 if hybrid loses anywhere."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+", type=Path, help="unpacked sdists (name-version folders)")
    ap.add_argument("--work", type=Path, help="keep the stores here (default: a temporary folder)")
    ap.add_argument("--depth", type=int, default=100, help="results read per method for the metrics")
    ap.add_argument("--candidates", type=int, default=None,
                    help="QueryEngine candidate depth per list (default: the product's)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)

    tmp_ctx = tempfile.TemporaryDirectory() if args.work is None else None
    work = Path(tmp_ctx.name) if tmp_ctx else args.work
    work.mkdir(parents=True, exist_ok=True)
    candidates = args.candidates or QueryEngine.__init__.__defaults__[-1]  # type: ignore[index]

    embedder = Embedder()
    print(f"model: {embedder.model_id}; RRF k={RRF_K}; QueryEngine candidates={candidates}; "
          f"BM25 weights {embedded_mod._BM25_WEIGHTS}; metrics over the top {args.depth}")
    corpora: list[Corpus] = []
    for root in args.corpora:
        name = root.name.rsplit("-", 1)[0]
        corpora.append(build_corpus(root, name, work))
        c = corpora[-1]
        print(f"{root.name}: {c.n_chunks:,} chunks, {len(c.queries):,} queries (indexed in {c.index_s:.1f}s)")

    results: dict[str, dict[str, object]] = {}
    notes: list[str] = []
    for c in corpora:
        files = list(c.files)
        distractors = c.n_chunks - 1
        if distractors < MIN_DISTRACTORS:
            for other in corpora:
                if other is not c:
                    files.extend(other.files)
                    distractors += other.n_chunks
            notes.append(f"{c.name}: only {c.n_chunks - 1:,} distractors of its own; the chunks of the other "
                         f"corpora are added ({distractors:,} distractors in all)")
        store, embed_s = open_eval_store(work / f"{c.name}-eval.db", files, embedder)
        qvec = {q.text: v for q, v in zip(c.queries, embedder.embed([q.text for q in c.queries]))}
        res = evaluate(store, c.queries, qvec, args.depth, candidates)
        res["queries"] = len(c.queries)
        res["distractors"] = distractors
        res["embed_s"] = embed_s
        results[c.name] = res
        store.close()

    print()
    for n in notes:
        print(f"note: {n}")
    print("\n| corpus | queries | distractors | method | R@1 | R@10 | MRR |\n|---|---|---|---|---|---|---|")
    ok = True
    for c in corpora:
        r = results[c.name]
        for label, key in (("BM25", "bm25"), ("dense (kNN)", "dense"), ("hybrid (RRF)", "hybrid")):
            s = r[key]
            assert isinstance(s, Scores)
            print(f"| {c.name} | {r['queries']:,} | {r['distractors']:,} "
                  f"| {label} | {s.row()} |")
        h, b, d = r["hybrid"], r["bm25"], r["dense"]
        assert isinstance(h, Scores) and isinstance(b, Scores) and isinstance(d, Scores)
        ok &= h.mrr > b.mrr and h.mrr > d.mrr

    print("\nField boosts (BM25 name x3 / fqn x2 / text x1 vs all x1), MRR:\n")
    print("| corpus | BM25 3/2/1 | BM25 1/1/1 | hybrid with 3/2/1 | hybrid with 1/1/1 |\n|---|---|---|---|---|")
    for c in corpora:
        r = results[c.name]
        print(f"| {c.name} | {r['bm25'].mrr:.3f} | {r['bm25_flat'].mrr:.3f} | {r['hybrid'].mrr:.3f} "  # type: ignore[union-attr]
              f"| {r['hybrid_flat'].mrr:.3f} |")  # type: ignore[union-attr]

    print("\nFusion variants (R@1 / R@10 / MRR):\n")
    names = list(results[corpora[0].name]["variants"])  # type: ignore[arg-type]
    print("| variant | " + " | ".join(c.name for c in corpora) + " |\n|---|" + "---|" * len(corpora))
    for v in names:
        cells = [results[c.name]["variants"][v].row().replace(" | ", " / ") for c in corpora]  # type: ignore[index]
        print(f"| {v} | " + " | ".join(cells) + " |")

    print("\nms per query (this run, includes Python overhead):")
    for c in corpora:
        print(f"  {c.name}: " + ", ".join(f"{k} {v:.1f}" for k, v in results[c.name]["ms_per_query"].items()))  # type: ignore[union-attr]
    if args.json:
        def enc(o: object) -> object:
            return o.__dict__ if hasattr(o, "__dict__") else {f: getattr(o, f) for f in o.__slots__}  # type: ignore[attr-defined]
        args.json.write_text(json.dumps(results, default=enc, indent=1))
    print("\nhybrid beats BM25 and dense on MRR on every corpus:", "YES" if ok else "NO")
    if tmp_ctx:
        tmp_ctx.cleanup()
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
