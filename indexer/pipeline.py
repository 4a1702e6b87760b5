"""The index pipeline: discover -> read -> extract + chunk (worker processes) -> resolve -> write.

Phases and what each owns:

1. **discover** (:mod:`indexer.discovery`): the files to index and every skipped file by reason.
2. **read**: hash each file's bytes; a file whose extraction is cached for these bytes
   (:mod:`indexer.extract_cache`) is not parsed again.
3. **extract** (worker processes, one file at a time): read the bytes, reject binaries, run the
   language's extractor, cut chunks (:mod:`indexer.chunking`), hash the bytes, cache the extraction.
   A file that cannot be read or whose extractor fails is counted with its reason; it never stops
   the run.
4. **resolve** (:mod:`indexer.resolve`, in this process: it needs every file's symbols).
5. **write**: the files whose output differs from what the index holds (a digest per file) are
   replaced through the store contracts in one transaction; files indexed before but gone are deleted.

Every run is incremental (:mod:`indexer.incremental` holds the engine; this module its options,
report and extraction workers): a second run over an unchanged tree parses and writes nothing, and a
run killed at any point resumes where it stopped. Embeddings are not computed here
(:mod:`indexer.embedding` runs after the graph is committed).
"""

from __future__ import annotations

import ctypes
import hashlib
import logging
import multiprocessing
import os
import signal
import sys
import threading
import time
from collections import Counter
from collections.abc import Mapping, Collection, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from indexer.chunking import chunk_file
from indexer.discovery import DEFAULT_MAX_FILE_BYTES, SkipFile, SourceFile, read_source, to_utf8
from indexer.extract_cache import ExtractionCache
from indexer.languages import extractor_for_path
from indexer.languages.base import extraction_budget
from indexer.model import FileExtraction
from indexer.symbols import module_path
from stores.contracts import Chunk, GraphStore, SearchIndex

__all__ = ["IndexOptions", "IndexReport", "ProgressSink", "index_repository"]

log = logging.getLogger(__name__)


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
    processes (``None``: one per core; 1: in this process); ``state_dir``: a folder for the
    extraction cache and the write journal (``stores.factory.state_dir`` of the index; ``None``:
    no cache, every run parses every file, and a run killed mid-write cannot tell which files it
    left to re-bind); ``http_services``: URL prefix, host or service name -> service (repository)
    name, for matching HTTP clients to endpoints (added to the Spring Cloud Gateway routes the
    repository declares: :meth:`indexer.frameworks.link.LinkOptions.for_repository`);
    ``follow_external_symlinks``: index what symbolic links out of the root point to (default: they
    are skipped as ``symlink_outside``, see :mod:`indexer.fsguard`)."""

    repo: str
    product: str | None = None
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    jobs: int | None = None
    state_dir: str | None = None
    http_services: Mapping[str, str] = field(default_factory=dict)
    follow_external_symlinks: bool = False


@dataclass(slots=True)
class IndexReport:
    """What a run did. ``files_indexed`` / ``files_by_language`` / ``files_with_parse_errors``
    describe every file of the repository after the run; ``files_changed`` counts files whose bytes
    differ from the index (added or edited), ``files_extracted`` those parsed (the others came from
    the extraction cache or from memory), ``files_resolved`` those bound again, ``files_written`` those
    whose output differed and was replaced (``nodes`` / ``edges`` / ``chunks`` count what was
    written), ``files_resumed`` those an interrupted run had left to write. Times are seconds per
    phase; ``peak_rss_mb`` is the largest resident set of this process and of the largest worker, in
    MiB."""

    repo: str
    root: str
    files_indexed: int = 0
    files_by_language: Counter[str] = field(default_factory=Counter)
    files_with_parse_errors: int = 0
    partial: Counter[str] = field(default_factory=Counter)
    """Files indexed only in part, by reason (``too_deep``, ``syntax_errors``, ``time_budget``:
    :attr:`indexer.model.FileExtraction.partial`)."""
    skipped: Counter[str] = field(default_factory=Counter)
    skipped_examples: dict[str, list[str]] = field(default_factory=dict)
    files_deleted: int = 0
    files_changed: int = 0
    files_extracted: int = 0
    files_resolved: int = 0
    files_written: int = 0
    files_resumed: int = 0
    nodes: Counter[str] = field(default_factory=Counter)
    edges: Counter[str] = field(default_factory=Counter)
    calls: dict[str, int] = field(default_factory=dict)
    links: dict[str, int] = field(default_factory=dict)
    """Framework linking outcomes of the files bound this run (``exposes``, ``calls_http``,
    ``produces``, ``consumes``, ``unlinked_*``: :class:`indexer.frameworks.link.LinkResult`)."""
    chunks: int = 0
    phases: dict[str, float] = field(default_factory=dict)
    peak_rss_mb: dict[str, float] = field(default_factory=dict)

    def as_dict(self) -> dict[str, object]:
        """A JSON-serialisable view (for ``--json``)."""
        return {
            "repo": self.repo, "root": self.root, "files_indexed": self.files_indexed,
            "files_by_language": dict(self.files_by_language),
            "files_with_parse_errors": self.files_with_parse_errors, "partial": dict(self.partial),
            "skipped": dict(self.skipped), "skipped_examples": self.skipped_examples,
            "files_deleted": self.files_deleted, "files_changed": self.files_changed,
            "files_extracted": self.files_extracted, "files_resolved": self.files_resolved,
            "files_written": self.files_written, "files_resumed": self.files_resumed,
            "nodes": dict(self.nodes), "edges": dict(self.edges),
            "calls": self.calls, "links": self.links, "chunks": self.chunks,
            "phases_s": {k: round(v, 3) for k, v in self.phases.items()},
            "peak_rss_mb": self.peak_rss_mb,
        }


@dataclass(slots=True)
class _Extracted:
    """One file's extraction result; ``chunks`` were cut with ``id_path`` as the extraction's."""

    path: str
    extraction: FileExtraction | None = None
    chunks: list[Chunk] = field(default_factory=list)
    text: str = ""
    checksum: str = ""
    size: int = 0
    skip_reason: str | None = None
    detail: str = ""
    id_path: str | None = None


_CACHES: dict[tuple[int, str], ExtractionCache] = {}


def _process_cache(directory: str) -> ExtractionCache:
    """This process's handle on the extraction cache in ``directory`` (workers open their own)."""
    key = (os.getpid(), directory)
    cache = _CACHES.get(key)
    if cache is None:
        cache = _CACHES[key] = ExtractionCache(directory)
    return cache


def close_process_cache(directory: str) -> None:
    """Close this process's handle on the extraction cache in ``directory``, if open."""
    cache = _CACHES.pop((os.getpid(), directory), None)
    if cache is not None:
        cache.close()


def _extract_one(args: tuple[SourceFile, str, str, int, bool, str | None]) -> _Extracted:
    """Worker: read, extract and chunk one file; every failure becomes a skip reason.
    ``keep_suffix``: another file shares this one's path up to the suffix (ids keep the suffix);
    ``cache_dir``: the extraction cache to fill (``None``: none)."""
    sf, repo, product, max_bytes, keep_suffix, cache_dir = args
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
    checksum = hashlib.sha256(data).hexdigest()
    try:
        with extraction_budget(time_budget(len(text))) as budget:
            extraction = extractor.extract(sf.path, text)
        if budget.partial:
            extraction.partial = budget.partial
            log.warning("%s indexed in part: %s", sf.path, budget.partial)
        if cache_dir is not None:
            _process_cache(cache_dir).put(sf.path, checksum, extraction)
        if keep_suffix:
            extraction.id_path = sf.path
        source = text.decode("utf-8", "replace")
        chunks = chunk_file(repo, product, extraction, source)
    except RecursionError:
        return _Extracted(sf.path, skip_reason="too_deep", detail="nesting too deep to extract")
    except Exception as exc:  # an extractor bug must cost one file, not the run
        log.exception("extractor failed on %s", sf.path)
        return _Extracted(sf.path, skip_reason="extract_failed", detail=f"{type(exc).__name__}: {exc}")
    return _Extracted(sf.path, extraction, chunks, source, checksum, len(data), id_path=extraction.id_path)


BUDGET_BASE_S = 10.0
"""Time budget of every file's extraction (seconds), plus :data:`BUDGET_PER_MB_S` per MB of source."""
BUDGET_PER_MB_S = 60.0
"""Time budget per MB of source (seconds); real files need a few seconds per MB on a loaded machine."""


def time_budget(size: int) -> float:
    """Seconds one file of ``size`` bytes may spend in its extractor's queries."""
    return BUDGET_BASE_S + BUDGET_PER_MB_S * size / 1_000_000


PARENT_POLL_S = 1.0
"""How often a worker's watchdog looks whether its parent still lives (where no death signal exists)."""


def worker_init(parent_pid: int) -> None:
    """Initializer of every extraction worker: the worker dies with the process that started it,
    even after a ``kill -9`` of that process (which runs no clean-up). On Linux the kernel sends it
    SIGKILL when its parent dies (``prctl(PR_SET_PDEATHSIG)``); everywhere a daemon thread checks
    every :data:`PARENT_POLL_S` seconds that the parent is still its parent and exits otherwise."""
    if sys.platform.startswith("linux"):
        try:
            libc = ctypes.CDLL(None, use_errno=True)
            libc.prctl(1, signal.SIGKILL, 0, 0, 0)  # PR_SET_PDEATHSIG = 1
        except (OSError, AttributeError):  # no prctl: the watchdog below still runs
            pass
    if os.getppid() != parent_pid:  # the parent died before the signal was armed
        os._exit(1)

    def watchdog() -> None:
        while True:
            time.sleep(PARENT_POLL_S)
            if os.getppid() != parent_pid:
                os._exit(1)

    threading.Thread(target=watchdog, name="ripple-parent-watchdog", daemon=True).start()


def _extract_all(
    files: Sequence[SourceFile], options: IndexOptions, product: str, progress: ProgressSink,
    keep_suffix: Collection[str] | None = None,
) -> Iterator[_Extracted]:
    """Extract ``files`` (in worker processes when there are many); ``keep_suffix``: paths whose ids
    keep their suffix (default: computed among ``files``)."""
    jobs = options.jobs or os.cpu_count() or 1
    if keep_suffix is None:
        stems = Counter(module_path(sf.path) for sf in files)
        keep_suffix = {sf.path for sf in files if stems[module_path(sf.path)] > 1}
    work = [(sf, options.repo, product, options.max_file_bytes, sf.path in keep_suffix, options.state_dir and
             str(Path(options.state_dir) / "extract")) for sf in files]
    if jobs <= 1 or len(work) < 64:
        for item in work:
            yield _extract_one(item)
            progress.advance()
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "spawn"
    with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method),
                             initializer=worker_init, initargs=(os.getpid(),)) as pool:
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
    """Bring the index of the source tree at ``root`` (repository ``options.repo``) in ``graph`` and
    ``search`` (the same object for the embedded store, whose ``replace_files`` also writes chunks) in
    line with the tree: files added, edited or gone since the last run are indexed or removed, and
    the files whose bindings they change are re-bound (:class:`indexer.incremental.RepositoryIndex`).

    Returns an :class:`IndexReport`. Raises ``NotADirectoryError`` if ``root`` is not a directory and
    :class:`stores.errors.StoreError` if the store fails; bad files never raise.
    """
    from indexer.incremental import RepositoryIndex  # the engine builds on this module's workers

    index = RepositoryIndex(root, graph, search, options)
    index.skip_unchanged = True
    try:
        return index.sync(progress)
    finally:
        index.close()
