"""Ingest jobs of ``ripple api``: one index run of a folder into the configured stores, in the background.

A job runs :func:`indexer.pipeline.index_repository` (the pipeline of ``ripple index``), then, unless
told to skip them, :func:`indexer.embedding.embed_pending`; its progress comes from the pipeline's
:class:`indexer.run.ProgressSink` callbacks. One writer per index: jobs run one at a time in one
worker thread, each holding the index's writer lock (:func:`stores.factory.writer_lock`, the lock
``ripple index``, ``ripple watch`` and the language server hold), so a job waits while another
process writes; a second ingest of a repository that already has a job queued or running is refused
(:class:`JobConflict`, a 409), as is deleting it meanwhile. Finished jobs are kept (the last
:data:`KEEP_FINISHED`) so their state can be read.
"""

from __future__ import annotations

import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Iterator, Sequence
from concurrent.futures import ThreadPoolExecutor
from contextlib import contextmanager
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import filelock

from indexer.discovery import DEFAULT_MAX_FILE_BYTES
from indexer.embedding import embed_pending
from lsp_server.ensemble_support import ExtraModels
from indexer.pipeline import index_repository
from lsp_server.freshness_support import record_run
from indexer.run import IndexOptions
from stores.config import Config, doc_folders_of
from stores.embedder import EmbedderError
from stores.errors import StoreError, os_error_message
from stores.factory import Stores, claim_repository, default_db_path, open_embedder, open_stores, state_dir, writer_lock

__all__ = ["KEEP_FINISHED", "JobConflict", "JobState", "Jobs", "PathRefused", "validate_root"]

log = logging.getLogger(__name__)

KEEP_FINISHED = 200
"""Finished jobs remembered (the oldest are forgotten first)."""


class JobConflict(Exception):
    """The repository has an ingest job queued or running; the message names it."""


class PathRefused(ValueError):
    """An ingest path is refused: ``status`` 403 (outside the folders the server may index) or 404 (no
    folder there); the message says why."""

    def __init__(self, status: int, message: str) -> None:
        super().__init__(message)
        self.status = status


def validate_root(path: str, roots: Sequence[Path]) -> Path:
    """The directory ``path`` names, made absolute and resolved (links followed), when it lies in one of
    the folders ``roots`` (``ripple api --root``). Raises :class:`PathRefused` saying what is refused
    and why: a relative path (relative to whatever the server's folder is), the file system's root or
    a folder outside every allowed root (403: a client could otherwise index, then read through
    search, any file the server's user can read), a path that does not exist or is not a directory
    (404)."""
    given = Path(path).expanduser()
    if "\x00" in path or not given.is_absolute():
        raise PathRefused(403, f"{path!r} is not an absolute path: give the absolute path of the folder on the "
                          "server's machine")
    try:
        root = given.resolve()
    except (OSError, RuntimeError) as exc:
        raise PathRefused(404, f"{path} cannot be resolved: {exc}") from None
    if root == Path(root.anchor):
        raise PathRefused(403, "the file system's root is not a repository: give the folder of one")
    allowed = [r.resolve() for r in roots]
    if not any(root == r or r in root.parents for r in allowed):
        raise PathRefused(403, f"{root} is outside the folders this server may index "
                          f"({', '.join(str(r) for r in allowed)}); start `ripple api` with --root FOLDER to "
                          "allow more")
    if not root.exists():
        raise PathRefused(404, f"{path} does not exist on the server's machine")
    if not root.is_dir():
        raise PathRefused(404, f"{path} is not a directory: give the folder of a repository")
    return root


@dataclass
class JobState:
    """A job's public state (see :class:`lsp_server.api.models.Job`)."""

    id: str
    repo: str
    path: str
    clear_existing: bool
    skip_embeddings: bool
    state: str = "queued"
    phase: str | None = None
    done: int = 0
    total: int | None = None
    created_at: float = field(default_factory=time.time)
    started_at: float | None = None
    finished_at: float | None = None
    error: str | None = None
    report: dict[str, Any] | None = None

    def as_dict(self) -> dict[str, Any]:
        """The job as :class:`lsp_server.api.models.Job` fields."""
        return {"id": self.id, "repo": self.repo, "path": self.path, "state": self.state,
                "progress": {"phase": self.phase, "done": self.done, "total": self.total},
                "created_at": self.created_at, "started_at": self.started_at, "finished_at": self.finished_at,
                "error": self.error, "report": self.report}


class _Progress:
    """The pipeline's :class:`indexer.run.ProgressSink` writing into a job's state."""

    def __init__(self, job: JobState) -> None:
        self.job = job

    def start(self, phase: str, total: int | None) -> None:
        self.job.phase, self.job.total, self.job.done = phase, total, 0

    def advance(self, n: int = 1) -> None:
        self.job.done += n

    def done(self, phase: str) -> None:
        if self.job.total is None:
            self.job.total = self.job.done


class Jobs:
    """The ingest jobs of one server. ``config`` and ``db`` (the embedded index file, ``None`` for team
    backends only) are what the server opened its stores with; ``model`` the embedding model."""

    def __init__(self, config: Config, db: Path | None, model: str | None = None,
                 open_fn: Callable[..., Stores] = open_stores) -> None:
        self.config, self.db, self.model = config, db, model
        self.open_fn = open_fn
        self.jobs: OrderedDict[str, JobState] = OrderedDict()
        self.lock = threading.Lock()
        self.worker = ThreadPoolExecutor(max_workers=1, thread_name_prefix="ripple-ingest")
        self.closed = False

    def busy(self, repo: str) -> JobState | None:
        """The job queued or running on ``repo``, if any."""
        with self.lock:
            return next((j for j in self.jobs.values() if j.repo == repo and j.state in ("queued", "running")), None)

    def get(self, job_id: str) -> JobState | None:
        """The job ``job_id`` (``None``: unknown, or forgotten)."""
        with self.lock:
            return self.jobs.get(job_id)

    def submit(self, repo: str, root: Path, clear_existing: bool, skip_embeddings: bool) -> JobState:
        """Queue an ingest of folder ``root`` as repository ``repo``; raises :class:`JobConflict` when
        ``repo`` already has a job queued or running."""
        with self.lock:
            running = next((j for j in self.jobs.values() if j.repo == repo and j.state in ("queued", "running")), None)
            if running is not None:
                raise JobConflict(f"repository {repo!r} is being ingested (job {running.id}, {running.state}); "
                                  f"wait for it (GET /v1/jobs/{running.id}), then ingest again")
            job = JobState(uuid.uuid4().hex, repo, str(root), clear_existing, skip_embeddings)
            self.jobs[job.id] = job
            finished = [k for k, j in self.jobs.items() if j.state in ("succeeded", "failed")]
            for k in finished[: max(0, len(finished) - KEEP_FINISHED)]:
                del self.jobs[k]
        self.worker.submit(self._run, job, root)
        return job

    @contextmanager
    def writing(self, db: Path, job: JobState | None = None) -> Iterator[None]:
        """Hold ``db``'s writer lock, waiting while another process writes (the job stays ``queued``)."""
        lock = writer_lock(db)
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            if job is not None:
                job.phase = "waiting for another ripple process writing the index"
            lock.acquire()
        try:
            yield
        finally:
            lock.release()

    def _db_for(self, root: Path) -> Path:
        """The index file (and writer lock) of a run over ``root``: the server's embedded index, else the
        folder's default one (team backends: its state folder and lock), as ``ripple index`` does."""
        return self.db if self.db is not None else default_db_path(root)

    def _run(self, job: JobState, root: Path) -> None:
        """Run one job in the worker thread; every failure becomes the job's ``error``."""
        db = self._db_for(root)
        stores: Stores | None = None
        try:
            with self.writing(db, job):
                job.state, job.started_at, job.phase = "running", time.time(), None
                stores = self.open_fn(self.config, db, product=job.repo, create=True)
                claim_repository(stores.graph, db, job.repo, root)
                if job.clear_existing:
                    job.phase = "clear"
                    paths = list(stores.graph.file_checksums(job.repo))
                    stores.graph.delete_files(job.repo, paths)
                    if stores.search is not stores.graph:
                        stores.search.delete_files(job.repo, paths)
                options = IndexOptions(repo=job.repo, max_file_bytes=DEFAULT_MAX_FILE_BYTES, jobs=1,
                                       http_services=self.config.http_services, state_dir=str(state_dir(db)),
                                       doc_folders=doc_folders_of(root))
                report = index_repository(root, stores.graph, stores.search, options, _Progress(job))
                record_run(db, job.repo, root)  # the commit now indexed (analysis.freshness)
                job.report = {**report.as_dict(), "embeddings": self._embed(stores, job)}
            job.state = "succeeded"
        except StoreError as exc:
            job.state, job.error = "failed", str(exc)
        except OSError as exc:
            job.state, job.error = "failed", os_error_message(exc, state_dir(db))
        except Exception as exc:  # never lose the worker: the job says what failed, the log has the trace
            log.exception("ingest job %s of %s failed", job.id, job.repo)
            job.state, job.error = "failed", f"the index run failed ({type(exc).__name__}: {exc}); see the server's log"
        finally:
            job.finished_at = time.time()
            if stores is not None:
                stores.close()

    def _embed(self, stores: Stores, job: JobState) -> dict[str, Any]:
        """Embed the new chunks (unless the job skips them); a model that cannot load costs the vectors only."""
        if job.skip_embeddings:
            return {"skipped": "skipEmbeddings"}
        model = self.model or self.config.embedding_model
        try:
            embedder = open_embedder(model)
            result = embed_pending(stores.search, embedder, _Progress(job))
        except EmbedderError as exc:
            return {"skipped": str(exc)}
        # [search] models (an ensemble): every other model embeds the new chunks too
        others = ExtraModels(self.config.search.models, model, self.config.models_dir).embed_summary(stores.search)
        return {"model": embedder.model_id, "embedded": result.embedded, "reused": result.reused,
                "seconds": round(result.seconds, 2), **({"models": others} if others else {})}

    def close(self) -> None:
        """Wait for the job under way (queued ones are dropped) and stop the worker."""
        self.closed = True
        self.worker.shutdown(wait=True, cancel_futures=True)
