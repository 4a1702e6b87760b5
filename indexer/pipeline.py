"""The full index pipeline: discover -> extract + chunk (worker processes) -> resolve -> write.

Phases and what each owns:

1. **discover** (:mod:`indexer.discovery`): the files to index and every skipped file by reason.
2. **extract** (worker processes, one file at a time): read the bytes, reject binaries, run the
   language's extractor, cut chunks (:mod:`indexer.chunking`), hash the bytes. A file that cannot be
   read or whose extractor fails is counted with its reason; it never stops the run.
3. **resolve** (:mod:`indexer.resolve`, in this process: it needs every file's symbols).
4. **write**: each file's nodes, edges, unresolved calls and chunks replaced through the store
   contracts, in batches; files indexed before but gone from disk are deleted.

Embeddings are not computed here (the search issue adds them after the graph is committed).
"""

from __future__ import annotations

import hashlib
import logging
import multiprocessing
import os
import resource
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from indexer.chunking import chunk_file
from indexer.discovery import DEFAULT_MAX_FILE_BYTES, SkipFile, SourceFile, discover, read_source, to_utf8
from indexer.languages import extractor_for_path
from indexer.model import FileExtraction
from indexer.resolve import resolve_repository
from indexer.symbols import module_path
from stores.contracts import Chunk, GraphStore, IndexedFile, SearchIndex

__all__ = ["IndexOptions", "IndexReport", "ProgressSink", "index_repository"]

log = logging.getLogger(__name__)

WRITE_BATCH_FILES = 250
"""Files per store write call (one transaction each in the embedded store)."""


class ProgressSink(Protocol):
    """Receives progress: ``start(phase, total)`` (total ``None`` when unknown), ``advance(n)``,
    ``done(phase)``. The CLI renders it with rich; the language server maps it to
    window/workDoneProgress."""

    def start(self, phase: str, total: int | None) -> None:
        """A phase begins; ``total`` units of work, or ``None`` when unknown."""
        ...

    def advance(self, n: int = 1) -> None:
        """``n`` more units of the current phase are done."""
        ...

    def done(self, phase: str) -> None:
        """The phase is over."""
        ...


class _NoProgress:
    def start(self, phase: str, total: int | None) -> None:
        pass

    def advance(self, n: int = 1) -> None:
        pass

    def done(self, phase: str) -> None:
        pass


@dataclass(frozen=True, slots=True)
class IndexOptions:
    """``repo``: repository name (node ids start with it); ``product``: the product it belongs to
    (defaults to ``repo``); ``max_file_bytes``: larger files are skipped; ``jobs``: extraction
    processes (``None``: one per core; 1: in this process)."""

    repo: str
    product: str | None = None
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    jobs: int | None = None


@dataclass(slots=True)
class IndexReport:
    """What a run did. Times are seconds per phase; ``peak_rss_mb`` is the largest resident set of
    this process and of the largest worker, in MiB."""

    repo: str
    root: str
    files_indexed: int = 0
    files_by_language: Counter[str] = field(default_factory=Counter)
    files_with_parse_errors: int = 0
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_examples: dict[str, list[str]] = field(default_factory=dict)
    files_deleted: int = 0
    nodes: Counter[str] = field(default_factory=Counter)
    edges: Counter[str] = field(default_factory=Counter)
    calls: dict[str, int] = field(default_factory=dict)
    chunks: int = 0
    phases: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        """A JSON-serialisable view (for ``--json``)."""
        return {
            "repo": self.repo, "root": self.root, "files_indexed": self.files_indexed,
            "files_by_language": dict(self.files_by_language),
            "files_with_parse_errors": self.files_with_parse_errors,
            "skipped": dict(self.skipped), "skipped_examples": self.skipped_examples,
            "files_deleted": self.files_deleted, "nodes": dict(self.nodes), "edges": dict(self.edges),
            "calls": self.calls, "chunks": self.chunks,
            "phases_s": {k: round(v, 3) for k, v in self.phases.items()},
            "peak_rss_mb": self.peak_rss_mb,
        }


@dataclass(slots=True)
class _Extracted:
    path: str
    extraction: FileExtraction | None = None
    chunks: list[Chunk] = field(default_factory=list)
    text: str = ""
    checksum: str = ""
    size: int = 0
    skip_reason: str | None = None
    detail: str = ""


def _extract_one(args: tuple[SourceFile, str, str, int, bool]) -> _Extracted:
    """Worker: read, extract and chunk one file; every failure becomes a skip reason.
    ``keep_suffix``: another file shares this one's path up to the suffix (ids keep the suffix)."""
    sf, repo, product, max_bytes, keep_suffix = args
    try:
        data = read_source(sf.abs_path, max_bytes)
    except SkipFile as exc:
        return _Extracted(sf.path, skip_reason=exc.reason, detail=str(exc))
    extractor = extractor_for_path(sf.path)
    if extractor is None:  # discovery filtered these; a race with a rename lands here
        return _Extracted(sf.path, skip_reason="no_extractor")
    text, encoding = to_utf8(data)
    if encoding != "utf-8":
        log.info("%s is not UTF-8: read as %s", sf.path, encoding)
    try:
        extraction = extractor.extract(sf.path, text)
        if keep_suffix:
            extraction.id_path = sf.path
        source = text.decode("utf-8", "replace")
        chunks = chunk_file(repo, product, extraction, source)
    except RecursionError:
        return _Extracted(sf.path, skip_reason="too_deep", detail="nesting too deep to extract")
    except Exception as exc:  # an extractor bug must cost one file, not the run
        log.exception("extractor failed on %s", sf.path)
        return _Extracted(sf.path, skip_reason="extract_failed", detail=f"{type(exc).__name__}: {exc}")
    return _Extracted(sf.path, extraction, chunks, source, hashlib.sha256(data).hexdigest(), len(data))


def _extract_all(
    files: Sequence[SourceFile], options: IndexOptions, product: str, progress: ProgressSink
) -> Iterator[_Extracted]:
    jobs = options.jobs or os.cpu_count() or 1
    stems = Counter(module_path(sf.path) for sf in files)
    work = [(sf, options.repo, product, options.max_file_bytes, stems[module_path(sf.path)] > 1) for sf in files]
    if jobs <= 1 or len(work) < 64:
        for item in work:
            yield _extract_one(item)
            progress.advance()
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "spawn"
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method)) as pool:
        for result in pool.map(_extract_one, work, chunksize=8):
            yield result
            progress.advance()


def index_repository(
    root: str | Path,
    graph: GraphStore,
    search: SearchIndex,
    options: IndexOptions,
    progress: ProgressSink | None = None,
) -> IndexReport:
    """Index the source tree at ``root`` as repository ``options.repo`` into ``graph`` and ``search``
    (the same object for the embedded store, whose ``replace_files`` also writes chunks).

    Returns an :class:`IndexReport`. Raises ``NotADirectoryError`` if ``root`` is not a directory and
    :class:`stores.errors.StoreError` if the store fails; bad files never raise.
    """
    progress = progress or _NoProgress()
    product = options.product or options.repo
    report = IndexReport(options.repo, str(Path(root).resolve()))
    t0 = time.perf_counter()

    progress.start("discover", None)
    found = discover(root, options.max_file_bytes)
    report.skipped.update(found.skipped)
    if log.isEnabledFor(logging.INFO):
        for reason, path in found.skipped_log:
            log.info("skipped %s: %s", path, reason)
    report.skipped_examples = dict(found.skipped_examples)
    progress.done("discover")
    t1 = time.perf_counter()
    report.phases["discover"] = t1 - t0

    progress.start("extract", len(found.files))
    extracted: list[_Extracted] = []
    for item in _extract_all(found.files, options, product, progress):
        if item.skip_reason is not None:
            report.skipped[item.skip_reason] += 1
            report.skipped_examples.setdefault(item.skip_reason, [])
            if len(report.skipped_examples[item.skip_reason]) < 5:
                report.skipped_examples[item.skip_reason].append(item.path)
            log.info("skipped %s: %s %s", item.path, item.skip_reason, item.detail)
            continue
        extracted.append(item)
    progress.done("extract")
    t2 = time.perf_counter()
    report.phases["extract"] = t2 - t1

    progress.start("resolve", None)
    resolved = resolve_repository(
        options.repo, [(e.extraction, e.checksum, e.size) for e in extracted if e.extraction is not None]
    )
    report.calls = dict(sorted(resolved.call_outcomes.items()))
    progress.done("resolve")
    t3 = time.perf_counter()
    report.phases["resolve"] = t3 - t2

    indexed: list[IndexedFile] = []
    for item, out in zip(extracted, resolved.files):
        out.chunks = item.chunks
        out.text = item.text
        indexed.append(out)
        assert item.extraction is not None
        report.files_by_language[item.extraction.language] += 1
        if item.extraction.errors:
            report.files_with_parse_errors += 1
        report.nodes.update(n.label for n in out.nodes)
        report.edges.update(e.kind for e in out.edges)
        report.chunks += len(out.chunks)
    report.files_indexed = len(indexed)

    progress.start("write", len(indexed))
    # A file indexed before that is gone, or that can no longer be read or extracted, loses its old
    # graph: answers from a version of the file that no longer exists would be wrong.
    current = {item.path for item in extracted}
    gone = sorted(set(graph.file_checksums(options.repo)) - current)
    if gone:
        graph.delete_files(options.repo, gone)
        report.files_deleted = len(gone)
    for start in range(0, len(indexed), WRITE_BATCH_FILES):
        batch = indexed[start : start + WRITE_BATCH_FILES]
        graph.replace_files(batch)
        if search is not graph:
            search.replace_chunks(batch)
        progress.advance(len(batch))
    progress.done("write")
    t4 = time.perf_counter()
    report.phases["write"] = t4 - t3
    report.phases["total"] = t4 - t0
    report.peak_rss_mb = {
        "main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
        "largest_worker": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
    }
    return report
