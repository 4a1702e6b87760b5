"""What an index run is given, what it reports and how it shows progress: the vocabulary every stage
of the run (:mod:`indexer.pipeline` lists them) and every front end share.

* :class:`IndexOptions`: the repository's name and product, limits, worker count, state folder,
  service map for HTTP linking.
* :class:`IndexReport`: what a run did (files by outcome, nodes and edges written, call outcomes,
  time per phase, peak memory).
* :class:`ProgressSink`: the protocol a front end implements to show the phases (the CLI with rich,
  the language server as ``window/workDoneProgress``); :class:`NoProgress` shows nothing.
"""

from __future__ import annotations

import logging
from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import Protocol

from indexer.discovery import DEFAULT_MAX_FILE_BYTES

__all__ = ["IndexOptions", "IndexReport", "ProgressSink", "NoProgress", "DEFAULT_MEMORY_BUDGET_MIB", "WORKER_MIB",
           "MAIN_MIB", "WRITE_BATCH_SHARE", "WorkersLost"]

DEFAULT_MEMORY_BUDGET_MIB = 400
"""Peak memory (MiB, resident set of the run's main process) an index run aims at by default
(:attr:`IndexOptions.memory_budget_mib`)."""
WORKER_MIB = 100
"""What one extraction worker process takes at most on real code (Django: 58-103 MiB): the budget
left after :data:`MAIN_MIB` bounds the number of workers."""
MAIN_MIB = 200
"""Budget kept for the main process before workers are counted (:meth:`IndexOptions.extraction_jobs`)."""
WRITE_BATCH_SHARE = 400
"""A write batch holds at most 1/this of the memory budget in source bytes
(:meth:`IndexOptions.write_batch_bytes`): its texts, chunks, rows and the chunk preparer's frame
are in memory together, on top of everything the run keeps for the write."""

log = logging.getLogger(__name__)


class WorkersLost(RuntimeError):
    """Extraction workers ended abruptly (killed: ``kill -9``, the out-of-memory killer; or crashed) more
    than :data:`indexer.extraction.MAX_POOL_RESTARTS` times in one run. Nothing of the run was written; the
    files extracted before are cached, so the next run goes on from there."""


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


class NoProgress:
    """A :class:`ProgressSink` that shows nothing (the default of every run)."""

    def start(self, phase: str, total: int | None) -> None:
        """Nothing to show."""

    def advance(self, n: int = 1) -> None:
        """Nothing to show."""

    def done(self, phase: str) -> None:
        """Nothing to show."""


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
    are skipped as ``symlink_outside``, see :mod:`indexer.fsguard`); ``name`` / ``branch``: the
    repository's registry name and branch when ``repo`` is a branch key (``name@branch``, see
    :mod:`indexer.registry`; ``None``: ``repo`` itself, and the checkout's current branch).
    ``record``: write the repository's registry entry after the run (:mod:`indexer.registry`).
    ``memory_budget_mib``: the memory the run may take, MiB, its main process and its extraction
    workers together (``None``: the main process aims at :data:`DEFAULT_MEMORY_BUDGET_MIB` and the
    workers are one per core): it sizes the write batches (:meth:`write_batch_bytes`) and caps the
    extraction workers (:meth:`extraction_jobs`). What the resolver must hold (every file's symbols)
    is not bounded by it."""

    repo: str
    product: str | None = None
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    jobs: int | None = None
    state_dir: str | None = None
    http_services: Mapping[str, str] = field(default_factory=dict)
    follow_external_symlinks: bool = False
    name: str | None = None
    branch: str | None = None
    record: bool = True
    memory_budget_mib: int | None = None
    doc_folders: tuple[str, ...] = ()
    """``[docs] folders`` (:attr:`stores.config.Config.doc_folders`): repository folders whose
    documentation files are indexed even when gitignored; one missing, or leading out of the repository
    through a link, is skipped and counted (:func:`indexer.discovery.doc_folder_problem`)."""

    def extraction_jobs(self, cores: int) -> int:
        """Extraction worker processes for a machine of ``cores`` cores: ``jobs`` (default one per
        core); with a memory budget at most as many as fit it after :data:`MAIN_MIB`, at
        :data:`WORKER_MIB` each (at least 1)."""
        jobs = self.jobs or cores
        if self.memory_budget_mib is not None:
            jobs = min(jobs, (self.memory_budget_mib - MAIN_MIB) // WORKER_MIB)
        return max(1, jobs)

    def write_batch_bytes(self) -> int:
        """Source bytes per write batch (:class:`indexer.writer.IndexWriter`): 1/:data:`WRITE_BATCH_SHARE`
        of the budget (1 MiB at 400 MiB; a batch's texts, chunks and rows take about 8x its source), at
        least 256 KiB."""
        budget = DEFAULT_MEMORY_BUDGET_MIB if self.memory_budget_mib is None else self.memory_budget_mib
        return max(256 << 10, (budget << 20) // WRITE_BATCH_SHARE)


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
    parse_error_examples: list[str] = field(default_factory=list)
    """The first few files with syntax errors (path order), each as ``path`` or ``path: line:col:
    message`` (the first error) when this run parsed or cached it."""
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

    def skip(self, path: str, reason: str, detail: str) -> None:
        """Count a file skipped for ``reason`` (kept among the first five examples of that reason);
        ``detail`` goes to the log only."""
        self.skipped[reason] += 1
        examples = self.skipped_examples.setdefault(reason, [])
        if len(examples) < 5:
            examples.append(path)
        log.info("skipped %s: %s %s", path, reason, detail)

    def as_dict(self) -> dict[str, object]:
        """A JSON-serialisable view (for ``--json``)."""
        return {
            "repo": self.repo, "root": self.root, "files_indexed": self.files_indexed,
            "files_by_language": dict(self.files_by_language),
            "files_with_parse_errors": self.files_with_parse_errors,
            "parse_error_examples": self.parse_error_examples, "partial": dict(self.partial),
            "skipped": dict(self.skipped), "skipped_examples": self.skipped_examples,
            "files_deleted": self.files_deleted, "files_changed": self.files_changed,
            "files_extracted": self.files_extracted, "files_resolved": self.files_resolved,
            "files_written": self.files_written, "files_resumed": self.files_resumed,
            "nodes": dict(self.nodes), "edges": dict(self.edges),
            "calls": self.calls, "links": self.links, "chunks": self.chunks,
            "phases_s": {k: round(v, 3) for k, v in self.phases.items()},
            "peak_rss_mb": self.peak_rss_mb,
        }
