"""What the contextual chunk header costs in the embedding model's 256-token window.

Usage::

    python bench/chunk_header_tokens.py /tmp/corpora/django-5.2.8 /tmp/corpora/spring-petclinic \\
        /tmp/corpora/zod-4.6.7 [--work DIR] [--json FILE]

Each corpus is indexed with the real pipeline (:func:`indexer.pipeline.index_repository`, no
embedding) into ``DIR/<name>.db`` (reused when it exists); the chunks the embedding phase would embed
(:meth:`~stores.contracts.SearchIndex.pending_chunks`: one per distinct embedding text) are tokenised
with the bundled model's own tokenizer (``stores/model/all-MiniLM-L6-v2-int8/tokenizer.json``,
truncation off), once as the bare chunk text and once as
:func:`indexer.chunk_context.embedding_text`. The model reads :data:`stores.embedder.MAX_TOKENS`
tokens, ``[CLS]`` and ``[SEP]`` included. Printed per corpus and chunk kind:

* header tokens (median, 95th percentile, max): what the header adds;
* ``cut before``: chunks whose bare text was already truncated;
* ``pushed``: chunks that fitted bare but are truncated with the header (the header pushed their
  tail out);
* ``lost``: source tokens the header pushes out of the window, summed over all chunks, as a share of
  the source tokens the model read without it.
"""

from __future__ import annotations

import argparse
import json
import statistics
import sys
import tempfile
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tokenizers import Tokenizer  # noqa: E402

from indexer.chunk_context import EMBEDDING_TEXT_FORMAT, embedding_text  # noqa: E402
from indexer.pipeline import index_repository  # noqa: E402
from indexer.run import IndexOptions  # noqa: E402
from stores.embedded import EmbeddedStore  # noqa: E402
from stores.embedder import BUNDLED_MODEL_DIR, MAX_TOKENS  # noqa: E402


def _pct(values: list[int], q: float) -> int:
    return sorted(values)[min(len(values) - 1, int(q * len(values)))] if values else 0


def measure(root: Path, work: Path, tok: Tokenizer) -> dict[str, dict[str, float]]:
    """Per chunk kind (and ``all``): counts and token figures of one corpus (see the module docstring)."""
    name = root.name
    db = work / f"{name}.db"
    fresh = not db.exists()
    store = EmbeddedStore(db)
    if fresh:
        index_repository(root, store, store, IndexOptions(repo=name))
    chunks = store.pending_chunks(10**9)
    store.close()
    bare = tok.encode_batch([c.text for c in chunks])
    full = tok.encode_batch([embedding_text(c) for c in chunks])
    room = MAX_TOKENS  # [CLS] and [SEP] are counted in the encodings below
    rows: dict[str, dict[str, list[int]]] = defaultdict(lambda: defaultdict(list))
    for c, b, f in zip(chunks, bare, full):
        nb, nf = len(b.ids), len(f.ids)
        for kind in (c.kind, "all"):
            r = rows[kind]
            r["header"].append(nf - nb)
            r["cut_before"].append(nb > room)
            r["pushed"].append(nb <= room < nf)
            r["read_before"].append(min(nb, room) - 2)
            read_after = max(0, min(nb - 2, room - 2 - (nf - nb)))
            r["lost"].append(min(nb, room) - 2 - read_after)
    out: dict[str, dict[str, float]] = {}
    for kind, r in sorted(rows.items(), key=lambda kv: (kv[0] == "all", kv[0])):
        n = len(r["header"])
        out[kind] = {
            "chunks": n, "header_p50": statistics.median(r["header"]), "header_p95": _pct(r["header"], 0.95),
            "header_max": max(r["header"]), "cut_before": sum(r["cut_before"]) / n, "pushed": sum(r["pushed"]) / n,
            "lost": sum(r["lost"]) / max(1, sum(r["read_before"])),
        }
    return out


def main(argv: list[str] | None = None) -> int:
    """Measure every corpus given and print one markdown table."""
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("corpora", nargs="+", type=Path)
    ap.add_argument("--work", type=Path, help="keep the indexes here (default: a temporary folder)")
    ap.add_argument("--json", type=Path, help="also write the figures here")
    args = ap.parse_args(argv)
    tmp = tempfile.TemporaryDirectory() if args.work is None else None
    work = Path(tmp.name) if tmp else args.work
    work.mkdir(parents=True, exist_ok=True)
    tok = Tokenizer.from_file(str(BUNDLED_MODEL_DIR / "tokenizer.json"))
    tok.no_truncation()
    tok.no_padding()  # tokenizer.json pads batches to their longest text
    results = {root.name: measure(root, work, tok) for root in args.corpora}
    print(f"embedding text format {EMBEDDING_TEXT_FORMAT}; window {MAX_TOKENS} tokens\n")
    print("| corpus | kind | chunks | header tokens p50 / p95 / max | cut before | pushed by header | source tokens lost |")
    print("|---|---|---|---|---|---|---|")
    for name, kinds in results.items():
        for kind, r in kinds.items():
            print(f"| {name} | {kind} | {r['chunks']:,} | {r['header_p50']:.0f} / {r['header_p95']} / {r['header_max']} "
                  f"| {100 * r['cut_before']:.1f}% | {100 * r['pushed']:.1f}% | {100 * r['lost']:.2f}% |")
    if args.json:
        args.json.write_text(json.dumps(results, indent=1))
    if tmp:
        tmp.cleanup()
    return 0


if __name__ == "__main__":
    sys.exit(main())
