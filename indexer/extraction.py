"""The extract stage of an index run: parse files into their extraction IR and cut their chunks, in
worker processes when there are many, through the on-disk extraction cache.

:class:`ExtractStage` is what the orchestrator (:class:`indexer.incremental.RepositoryIndex`) holds
for one repository: :meth:`~ExtractStage.cached` answers from the cache for bytes seen before;
:meth:`~ExtractStage.run` parses the rest with :func:`extract_files`. A worker
(:func:`extract_file`) reads the bytes, rejects binaries, runs the language's extractor, caches the
extraction, cuts chunks (:mod:`indexer.chunking`) and hashes the bytes; a file that cannot be read or
whose extractor fails comes back as an :class:`Extracted` with its skip reason, never as an
exception.
"""

from __future__ import annotations

import gc
import hashlib
import logging
import multiprocessing
import os
import pickle
import sys
from collections import Counter
from collections.abc import Collection, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass, field
from pathlib import Path

from indexer.chunking import chunk_file
from indexer.compact import EMPTY
from indexer.discovery import SkipFile, SourceFile, read_source, to_utf8
from indexer.extract_cache import ExtractionCache
from indexer.forked import die_with_parent
from indexer.languages import extractor_for_path
from indexer.languages.base import extraction_budget
from indexer.model import FileExtraction
from indexer.parked import pack_for_parking, park_extraction
from indexer.run import IndexOptions, IndexReport, ProgressSink, WorkersLost
from indexer.spill import SpillFile, spill_file
from indexer.symbols import defines_suffix, module_path
from stores.contracts import Chunk

__all__ = ["Extracted", "ExtractStage", "extract_file", "extract_file_packed", "extract_files", "close_process_cache", "suffixed_paths",
           "file_text", "time_budget", "worker_init", "MAX_POOL_RESTARTS", "WORKER_GC_THRESHOLD0"]

MAX_POOL_RESTARTS = 2
"""New pools of extraction workers started for the files left when a worker ended abruptly."""


log = logging.getLogger(__name__)


@dataclass(slots=True)
class Extracted:
    """One file's extraction result; ``chunks`` were cut with ``id_path`` as the extraction's.
    ``skip_reason`` (with a ``detail`` for the log) is set, and ``extraction`` ``None``, when the
    file could not be read or extracted.

    A worker process sends it *packed* (:meth:`pack`): the extraction as the pickle it already made
    for the extraction cache (``blob``, so an extraction is pickled once, not once for the cache and
    again for the trip between processes) and the text with the chunks as one pickle (``payload``,
    a third of their size as objects, unpacked only when the file is written: :meth:`text_chunks`)."""

    path: str
    extraction: FileExtraction | None = None
    chunks: list[Chunk] = field(default_factory=list)
    text: str = ""
    checksum: str = ""
    size: int = 0
    skip_reason: str | None = None
    detail: str = ""
    id_path: str | None = None
    blob: bytes | None = None
    """The extraction pickled without its ``id_path`` (what the extraction cache stores), or ``None``."""
    payload: bytes | None = None
    """``(text, chunks)`` pickled (a packed result), or ``None`` (they are in ``text`` / ``chunks``)."""
    spilled: tuple[SpillFile, int, int] | None = None
    """Where :meth:`spill` parked ``payload`` (then ``None``): a spill file and the offset and length
    in it (flat: one tuple per file the run holds until the write, not two)."""

    def pack(self) -> Extracted:
        """This result as a worker sends it: the extraction replaced by its pickle (made now unless
        the cache's is at hand), text and chunks by one pickle. Returns ``self``."""
        if self.extraction is not None:
            if self.blob is None:
                self.blob = _pickle_extraction(self.extraction)
            self.extraction = None
        return self.pack_text()

    def pack_text(self) -> Extracted:
        """Replace the text and chunks by one pickle of them (``payload``; nothing when packed
        already). Returns ``self``."""
        if self.payload is None:
            self.payload = pickle.dumps((self.text, self.chunks), protocol=pickle.HIGHEST_PROTOCOL)
            self.text, self.chunks = "", EMPTY  # the shared empty list, not a new one per file
        return self

    def spill(self, spill: SpillFile) -> Extracted:
        """Park the packed text and chunks in ``spill`` (:mod:`indexer.spill`) until
        :meth:`text_chunks` reads them (packing them first if needed). Returns ``self``."""
        self.pack_text()
        if self.payload is not None:
            self.spilled = (spill, *spill.put(self.payload))
            self.payload = None
        return self

    def unpack_extraction(self) -> FileExtraction | None:
        """The extraction (unpickled from ``blob`` the first time, with this result's ``id_path``;
        the blob is then dropped)."""
        if self.extraction is None and self.blob is not None:
            self.extraction = pickle.loads(self.blob)
            self.extraction.id_path = self.id_path
            self.blob = None
        return self.extraction

    def text_chunks(self) -> tuple[str, list[Chunk]]:
        """``(text, chunks)``, unpacked from ``payload`` when packed (not kept: the caller writes
        them and lets them go)."""
        if self.spilled is not None:
            spill, offset, length = self.spilled
            text, chunks = pickle.loads(spill.get((offset, length)))
            return text, chunks
        if self.payload is not None:
            text, chunks = pickle.loads(self.payload)
            return text, chunks
        return self.text, self.chunks

    def release(self) -> None:
        """Drop the text and chunks (written): only the bookkeeping fields stay."""
        self.text, self.chunks, self.payload, self.spilled = "", EMPTY, None, None


def _pickle_extraction(extraction: FileExtraction) -> bytes:
    """``extraction`` pickled without its ``id_path`` (which depends on other files)."""
    id_path, extraction.id_path = extraction.id_path, None
    try:
        return pickle.dumps(extraction, protocol=pickle.HIGHEST_PROTOCOL)
    finally:
        extraction.id_path = id_path


def file_text(data: bytes) -> str:
    """A file's text as the extractors and chunks see it (UTF-8, else cp1252 / latin-1)."""
    return to_utf8(data)[0].decode("utf-8", "replace")


def suffixed_paths(paths: Iterable[str]) -> set[str]:
    """The ``paths`` that share their module path with another (``a.py`` and ``a.ts``): their node
    ids keep the file suffix. (The resolver keeps it in two more cases that depend on the files'
    contents, :meth:`indexer.resolve.repository.RepositoryResolver.update`; the writer cuts such a
    file's chunks again.)"""
    paths = list(paths)
    stems = Counter(module_path(p) for p in paths)
    return {p for p in paths if stems[module_path(p)] > 1}


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


def extract_file(args: tuple[SourceFile, str, str, int, bool, str | None]) -> Extracted:
    """Worker: read, extract and chunk one file; every failure becomes a skip reason.
    ``args``: the file, repository, product, size limit in bytes, ``keep_suffix`` (another file
    shares this one's path up to the suffix: ids keep the suffix) and ``cache_dir`` (the extraction
    cache to fill; ``None``: none). One tuple, so that a process pool can map over it."""
    sf, repo, product, max_bytes, keep_suffix, cache_dir = args
    try:
        data = read_source(sf.abs_path, max_bytes, sf.confine)
    except SkipFile as exc:
        return Extracted(sf.path, skip_reason=exc.reason, detail=str(exc))
    extractor = extractor_for_path(sf.path)
    if extractor is None:  # discovery filtered these; a race with a rename lands here
        return Extracted(sf.path, skip_reason="no_extractor")
    text, encoding = to_utf8(data)
    if encoding != "utf-8":
        log.info("%s is not UTF-8: read as %s", sf.path, encoding)
    checksum = hashlib.sha256(data).hexdigest()
    try:
        with extraction_budget(time_budget(len(text))) as budget:
            extraction = extractor.extract(sf.path, text)
        if budget.partial:
            extraction.partial = budget.partial
        if extraction.partial:  # the budget's cut, or the extractor's own (Python blocks nested too deep)
            log.warning("%s indexed in part: %s", sf.path, extraction.partial)
        if keep_suffix or defines_suffix(sf.path, (d.qualname for d in extraction.definitions)):
            extraction.id_path = sf.path
        source = text.decode("utf-8", "replace")
        chunks = chunk_file(repo, product, extraction, source)
        # what only the file's own binding reads, packed (indexer.packed): the resolving process parks the pickles as they are
        pack_for_parking(extraction)
        blob = None
        if cache_dir is not None:
            blob = _pickle_extraction(extraction)
            _process_cache(cache_dir).put_blob(sf.path, checksum, blob)
    except RecursionError:
        return Extracted(sf.path, skip_reason="too_deep", detail="nesting too deep to extract")
    except Exception as exc:  # an extractor bug must cost one file, not the run
        log.exception("extractor failed on %s", sf.path)
        return Extracted(sf.path, skip_reason="extract_failed", detail=f"{type(exc).__name__}: {exc}")
    return Extracted(sf.path, extraction, chunks, source, checksum, len(data), id_path=extraction.id_path, blob=blob)


def extract_file_packed(args: tuple[SourceFile, str, str, int, bool, str | None]) -> Extracted:
    """:func:`extract_file` as a worker process runs it: the result packed (:meth:`Extracted.pack`)."""
    return extract_file(args).pack()


BUDGET_BASE_S = 10.0
"""Time budget of every file's extraction (CPU seconds of the extracting thread), plus :data:`BUDGET_PER_MB_S` per MB of source."""
BUDGET_PER_MB_S = 60.0
"""Time budget per MB of source (CPU seconds); real files need well under a second per MB."""


def time_budget(size: int) -> float:
    """CPU seconds one file of ``size`` bytes may spend in its extractor's queries."""
    return BUDGET_BASE_S + BUDGET_PER_MB_S * size / 1_000_000


WORKER_GC_THRESHOLD0 = 100_000
"""The cyclic GC's first threshold in an extraction worker (:func:`worker_init`). A worker's allocations
are each file's nodes, matches and records, freed by reference counting once the file is sent: at
10,000 (:data:`indexer.heap.GC_THRESHOLD0`, inherited) extracting Django 5.2.8 in one process ran 292
collections, 0.48 s of CPU; at 100,000, 0.11 s, the same peak RSS (92 MiB; docs/benchmarks.md,
session 66, cpu66a)."""


def worker_init(parent_pid: int) -> None:
    """Initializer of every extraction worker: the worker dies with the process that started it,
    even after a ``kill -9`` of that process (:func:`indexer.forked.die_with_parent`). The objects
    it inherits from a fork are frozen (``gc.freeze``: no collection of the worker walks them, nor
    writes to their pages, which stay shared with the parent), and its collections are fewer
    (:data:`WORKER_GC_THRESHOLD0`, never lowered)."""
    die_with_parent(parent_pid)
    gc.freeze()
    threshold0, *older = gc.get_threshold()
    gc.set_threshold(max(threshold0, WORKER_GC_THRESHOLD0), *older)


def extract_files(
    files: Sequence[SourceFile], options: IndexOptions, product: str, progress: ProgressSink,
    keep_suffix: Collection[str] | None = None,
) -> Iterator[Extracted]:
    """Extract ``files`` in their order (in ``options.jobs`` worker processes when there are 64 or
    more; in this process otherwise or with ``jobs=1``, and for the files left when the workers
    cannot start: ``os.fork`` raising ``OSError``), advancing ``progress`` once per file.
    ``keep_suffix``: paths whose ids keep their suffix (default: :func:`suffixed_paths` of
    ``files``)."""
    jobs = options.extraction_jobs(os.cpu_count() or 1)
    if keep_suffix is None:
        keep_suffix = suffixed_paths(sf.path for sf in files)
    work = [(sf, options.repo, product, options.max_file_bytes, sf.path in keep_suffix, options.state_dir and
             str(Path(options.state_dir) / "extract")) for sf in files]
    if jobs <= 1 or len(work) < 64:
        for item in work:
            yield extract_file(item)
            progress.advance()
        return
    method = "fork" if "fork" in multiprocessing.get_all_start_methods() and sys.platform != "darwin" else "spawn"
    done = 0
    for restart in range(MAX_POOL_RESTARTS + 1):
        try:
            with ProcessPoolExecutor(jobs, mp_context=multiprocessing.get_context(method),
                                     initializer=worker_init, initargs=(os.getpid(),)) as pool:
                for result in pool.map(extract_file_packed, work[done:], chunksize=8):
                    yield result
                    done += 1
                    progress.advance()
            return
        except BrokenProcessPool:
            # A worker ended abruptly (kill -9, the out-of-memory killer, a crash): the files not yet
            # returned go to new workers, never to this process (a file that crashes a parser would
            # take the run with it), a bounded number of times.
            if restart == MAX_POOL_RESTARTS:
                raise WorkersLost(
                    f"extraction workers ended abruptly {restart + 1} times ({done} of {len(work)} files extracted): "
                    "killed, out of memory, or a crash while parsing; nothing of this run was written; the files "
                    "extracted are cached: run `ripple index` again to go on") from None
            log.warning("an extraction worker ended abruptly after %d of %d files; new workers extract the rest",
                        done, len(work))
        except OSError as exc:  # no worker could start (fork: EAGAIN at a process limit, ENOMEM)
            log.warning("extraction workers unavailable (%s); extracting in this process", exc)
            break
    for item in work[done:]:
        yield extract_file(item)
        progress.advance()


class ExtractStage:
    """The extract stage of one repository's runs: the extraction cache (``options.state_dir``'s
    ``extract`` folder; none without a state folder) and the workers. :meth:`close` releases the
    cache handles of this process. ``park``: where each extraction this stage hands out (parsed or
    from the cache) parks at once the lists only its own file's binding reads
    (:func:`indexer.parked.park_extraction`), so that the extract phase never holds every file's
    call sites, type uses, injections and table accesses; ``None``: they stay in memory."""

    def __init__(self, options: IndexOptions, product: str, park: SpillFile | None = None) -> None:
        self.options, self.product = options, product
        self.park = park
        self.cache_dir = str(Path(options.state_dir) / "extract") if options.state_dir else None
        self.cache = ExtractionCache(self.cache_dir) if self.cache_dir else None

    def cached(self, path: str, checksum: str) -> FileExtraction | None:
        """The cached extraction of the file at ``path`` with these bytes (``checksum``), if any
        (parked in :attr:`park` when set). Raises ``OSError`` when parking cannot write."""
        ex = self.cache.get(path, checksum) if self.cache is not None else None
        if ex is not None and self.park is not None:
            park_extraction(ex, self.park)
        return ex

    def extracted_again(self, sf: SourceFile, checksum: str, keep_suffix: bool) -> FileExtraction | None:
        """``sf`` extracted again in this process (:func:`extract_file`, which caches it anew), as
        :meth:`cached` would have given it (without its ``id_path``; parked in :attr:`park` when set):
        for an extraction the cache should hold but does not (a best-effort write that failed, an entry
        culled). ``keep_suffix``: as :func:`extract_file`'s. ``None`` when the file no longer extracts,
        or its bytes are no longer those of ``checksum`` (SHA-256, hex). Raises ``OSError`` when
        parking cannot write."""
        item = extract_file((sf, self.options.repo, self.product, self.options.max_file_bytes, keep_suffix,
                             self.cache_dir))
        if item.skip_reason is not None or item.extraction is None or item.checksum != checksum:
            return None
        ex = item.extraction
        ex.id_path = None  # as the cache stores it (it depends on other files)
        if self.park is not None:
            park_extraction(ex, self.park)
        return ex

    def run(
        self, files: Sequence[SourceFile], keep_suffix: set[str], report: IndexReport, progress: ProgressSink,
        current: set[str], loaded: list[tuple[FileExtraction, str, int]], spill: SpillFile | None = None,
    ) -> dict[str, Extracted]:
        """Parse ``files``: each good one joins ``current`` (paths indexed after the run) and
        ``loaded`` (``(extraction, checksum, size)`` for the resolver) and is returned by path; each
        bad one leaves ``current`` and is counted in ``report`` as skipped. The text and chunks of the
        good ones wait for the write in a spill file (:meth:`Extracted.spill`; ``spill``, or a new
        :func:`indexer.spill.spill_file` per call, deleted when the last result reading it is gone), not in memory; with
        :attr:`park` set, each extraction's own-binding lists are parked as it arrives."""
        fresh: dict[str, Extracted] = {}
        for item in extract_files(files, self.options, self.product, progress, keep_suffix):
            extraction = item.unpack_extraction()
            if item.skip_reason is not None or extraction is None:
                report.skip(item.path, item.skip_reason or "extract_failed", item.detail)
                current.discard(item.path)
                continue
            if extraction.path == item.path:  # one string for both, not two equal ones per file
                item.path = extraction.path
            if spill is None:
                spill = spill_file(self.options.state_dir)
            item.spill(spill)  # text and chunks wait for the write on disk, as one pickle
            if self.park is not None:  # its call sites (...) too, before the next file arrives
                park_extraction(extraction, self.park)
            item.extraction = None  # the resolver holds it (loaded); the writer reads it there
            current.add(item.path)
            loaded.append((extraction, item.checksum, item.size))
            fresh[item.path] = item
        report.files_extracted += len(fresh)
        return fresh

    def prune(self, keep: set[tuple[str, str]]) -> int:
        """Drop the cached extractions not in ``keep`` (``(path, checksum)`` pairs the index holds)
        and those of other extractor versions (:meth:`ExtractionCache.prune`); how many went."""
        return self.cache.prune(keep) if self.cache is not None else 0

    def close(self) -> None:
        """Release the extraction cache (this process's handles)."""
        if self.cache is not None:
            self.cache.close()
        if self.cache_dir is not None:
            close_process_cache(self.cache_dir)
