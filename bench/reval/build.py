"""Evaluation corpora built through the product: pipeline -> doc-free copy -> EmbeddedStore -> embeddings.

1. A corpus (an unpacked source tree) is indexed with the real pipeline
   (:func:`indexer.pipeline.index_repository`) into a scratch :class:`stores.embedded.EmbeddedStore`
   whose ``replace_files`` also keeps every :class:`~stores.contracts.IndexedFile` it is given.
2. Every chunk loses its documentation (:mod:`bench.reval.strip`: Python docstrings; Java, TypeScript
   and JavaScript ``/** */`` comments, wherever they sit: a method's, or the next member's comment in a
   class header, or a top-level function's in a file section). The file texts are not kept.
3. The rewritten records go into a fresh store (``replace_files``: BM25 is built from the stripped
   texts), embedded by :func:`indexer.embedding.embed_pending`. The store's file name carries a digest
   of the records, so a changed chunker or extractor gets a new store, never a stale one; vectors of a
   previous store in the same folder are reused for identical texts.
4. Held-out queries: for each function / method chunk (not capped) with documentation, the first
   sentence of it (:func:`bench.reval.strip.first_sentence`) when it has >= :data:`MIN_WORDS` words.
   Nodes lose their ``documented`` property too (kept aside in :attr:`Corpus.documented`).
   A sentence shared by several functions, or a function whose stripped text equals another chunk's,
   is ambiguous and dropped. The one relevant document is that chunk; every other chunk is a
   distractor.
"""

from __future__ import annotations

import dataclasses

import hashlib
import re
import sqlite3
import time
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from bench.reval.strip import (
    C_LIKE,
    doc_comment_before,
    doc_comment_spans,
    doc_comment_text,
    first_sentence,
    strip_doc_comments,
    strip_docstrings,
)
from indexer.chunk_context import embedding_record, with_checksum
from indexer.embedding import embed_pending
from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.contracts import Chunk, IndexedFile
from stores.embedded import EmbeddedStore
from stores.embedder import Embedder

__all__ = ["MIN_WORDS", "RecordingStore", "Query", "Corpus", "build_corpus", "records_digest", "open_eval_store"]

MIN_WORDS = 4
"""Shortest doc sentence used as a query, in words."""


class RecordingStore(EmbeddedStore):
    """An EmbeddedStore that keeps every IndexedFile the pipeline writes."""

    def __init__(self, path: Path) -> None:
        super().__init__(path)
        self.files: list[IndexedFile] = []

    def replace_files(self, files: Sequence[IndexedFile]) -> None:  # noqa: D102
        # copies: the writer lets a written record's text and chunks go (it rebinds them to empty)
        self.files.extend(dataclasses.replace(f) for f in files)
        super().replace_files(files)


@dataclass(frozen=True, slots=True)
class Query:
    """One held-out query: the doc sentence and the id of its single relevant chunk."""

    text: str
    target: str


@dataclass
class Corpus:
    """One corpus: its doc-free records, held-out queries, chunk count and indexing time (s)."""

    name: str
    files: list[IndexedFile]
    queries: list[Query]
    n_chunks: int
    index_s: float
    languages: Counter[str]
    documented: frozenset[str] = frozenset()
    """Ids of the nodes whose ``documented`` property was removed with their docs (see :func:`build_corpus`)."""


def _line_starts(source: str) -> list[int]:
    starts = [0]
    for m in re.finditer("\n", source):
        starts.append(m.end())
    return starts


def _strip_file(f: IndexedFile) -> tuple[list[Chunk], list[tuple[str, str, str]]]:
    """The file's chunks without docs, and ``(doc sentence, chunk id, stripped text)`` candidates."""
    chunks: list[Chunk] = []
    candidates: list[tuple[str, str, str]] = []
    source = f.text or ""
    spans = doc_comment_spans(source) if f.file.language in C_LIKE else []
    starts = _line_starts(source)
    for c in f.chunks:
        if c.language == "python":
            s = strip_docstrings(c.text)
            doc = s.doc
        elif c.language in C_LIKE:
            s = strip_doc_comments(c.text)
            doc = s.doc
            if doc is None and c.kind in ("function", "method") and c.start_line - 1 < len(starts):
                line_at = starts[c.start_line - 1]
                line = source[line_at: source.find("\n", line_at) if "\n" in source[line_at:] else len(source)]
                doc = doc_comment_before(source, spans, line_at + len(line) - len(line.lstrip()))
            doc = doc_comment_text(doc) if doc else None
        else:
            chunks.append(c)
            continue
        chunks.append(with_checksum(replace(c, text=s.text)))  # the product's checksum: of what is embedded
        if c.kind in ("function", "method") and doc and not c.text.endswith("\n…"):
            sentence = first_sentence(doc)
            if len(re.findall(r"\S+", sentence)) >= MIN_WORDS:
                candidates.append((sentence, c.id, s.text))
    return chunks, candidates


def build_corpus(root: Path, name: str, tmp: Path) -> Corpus:
    """Index ``root`` with the real pipeline as repository ``name`` (scratch store under ``tmp``),
    strip docs from the chunks, pick the held-out queries."""
    t0 = time.perf_counter()
    raw = tmp / f"{name}-raw.db"
    for p in tmp.glob(f"{name}-raw.db*"):
        p.unlink()
    rec = RecordingStore(raw)
    index_repository(root, rec, rec, IndexOptions(repo=name))
    rec.close()
    for p in tmp.glob(f"{name}-raw.db*"):
        p.unlink()
    index_s = time.perf_counter() - t0
    files: list[IndexedFile] = []
    candidates: list[tuple[str, str, str]] = []
    languages: Counter[str] = Counter()
    documented: set[str] = set()
    for f in rec.files:
        chunks, cands = _strip_file(f)
        candidates.extend(cands)
        languages.update(c.language for c in chunks)
        # The docs are gone, so is the graph's knowledge of them: a held-out answer is documented by
        # construction, and search ranks documented definitions first (analysis.ranking).
        documented.update(n.id for n in f.nodes if n.props.get("documented"))
        nodes = [replace(n, props={k: v for k, v in n.props.items() if k != "documented"}) for n in f.nodes]
        files.append(IndexedFile(f.file, nodes, f.edges, f.unresolved, chunks))
    texts = Counter(c.text for f in files for c in f.chunks)
    sentences = Counter(q for q, _, _ in candidates)
    queries = [Query(q, cid) for q, cid, text in candidates if sentences[q] == 1 and texts[text] == 1]
    n_chunks = sum(len(f.chunks) for f in files)
    return Corpus(name, files, queries, n_chunks, index_s, languages, frozenset(documented))


def records_digest(files: Sequence[IndexedFile]) -> str:
    """A short digest of the chunk ids and texts and of the graph's node and edge counts of ``files``."""
    h = hashlib.sha1()
    for f in sorted(files, key=lambda f: (f.file.repo, f.file.path)):
        h.update(f"{f.file.repo}\0{f.file.path}\0{len(f.nodes)}\0{len(f.edges)}\n".encode())
        for c in f.chunks:
            h.update(f"{c.id}\0{c.checksum}\n".encode("utf-8", "surrogatepass"))
    return h.hexdigest()[:12]


def _seed_cache(store: EmbeddedStore, stem: str, folder: Path, model_id: str) -> int:
    """Copy vectors of identical texts from older evaluation stores ``stem-*.db`` in ``folder`` that
    were embedded by ``model_id``; returns how many vectors were copied."""
    pending = {c.checksum: c.id for c in store.pending_chunks(10**9)}
    vectors: dict[str, object] = {}
    for old in sorted(folder.glob(f"{stem}-*.db")):
        if old == store.path or not pending:
            continue
        conn = sqlite3.connect(f"file:{old}?mode=ro", uri=True)
        try:
            meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
            if meta.get("embedding_model") != embedding_record(model_id):  # same model and embedding text
                continue
            for checksum, blob in conn.execute("SELECT checksum, embedding FROM embedding_cache"):
                if checksum in pending and pending[checksum] not in vectors:
                    vectors[pending.pop(checksum)] = blob
        except sqlite3.Error:
            continue
        finally:
            conn.close()
    if vectors:
        import numpy as np

        store.set_embeddings({cid: np.frombuffer(blob, dtype=np.float32).tolist()  # type: ignore[arg-type]
                              for cid, blob in vectors.items()})
    return len(vectors)


def open_eval_store(folder: Path, stem: str, files: list[IndexedFile], embedder: Embedder) -> tuple[EmbeddedStore, float]:
    """The evaluation store ``folder/stem-<digest>.db`` holding ``files`` (graph + stripped chunks),
    embedded by ``embedder``; built (and embedded) when missing, reused otherwise. Returns the store
    and the seconds spent embedding (0 when reused)."""
    path = folder / f"{stem}-{records_digest(files)}.db"
    fresh = not path.exists()
    store = EmbeddedStore(path)
    t = 0.0
    if fresh:
        store.replace_files(files)
        store.set_embedding_model(embedding_record(embedder.model_id))
        _seed_cache(store, stem, folder, embedder.model_id)
    if store.chunk_count()["embedded"] < store.chunk_count()["chunks"]:
        t0 = time.perf_counter()
        embed_pending(store, embedder)
        t = time.perf_counter() - t0
    return store, t
