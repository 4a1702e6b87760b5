"""The central indexer's worker pool: the processes ``ripple index --all`` runs repositories in.

:func:`run_jobs` runs a manifest's repositories (:class:`RepoJob`) at most ``parallel`` at once, each
in a worker process, within a memory budget:

* a worker is a ``spawn`` process that indexes one repository at a time and then takes the next one
  (the interpreter, the package's imports, the grammars and the store's schema are loaded once per
  worker, not once per repository: on a loaded 2-core machine that start-up was about half of a
  small repository's run);
* one that fails, raises or is killed (out of memory) costs the repository it was running only: its
  worker is gone, the others go on, and a new worker is started for the next repository;
* at most ``parallel`` repositories run at once, and a repository starts only while the estimated
  memory of the runs under way plus its own (:func:`indexer.manifest.estimate_mib`) fits
  ``budget_mib`` (one runs alone whatever its estimate); the largest go first;
* no worker waits idle: one left without a repository that fits is stopped at once, and one whose
  resident memory after a run exceeds :data:`RECYCLE_MIB` is replaced, so a large repository's
  leftovers never stay with the run's small ones;
* each repository's peak memory is its own: the worker resets its peak resident set (Linux's
  ``/proc/self/clear_refs``) before each repository and reads it (``VmHWM``) after.

A worker writes through the store contracts as ``ripple index`` does; workers sharing one embedded
index file wait for each other's write transactions (SQLite's lock, up to :data:`WRITE_WAIT_SECONDS`).
"""

from __future__ import annotations

import itertools
import multiprocessing
import os
import resource
import time
import traceback
from dataclasses import dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

from indexer.manifest import BASE_MIB
from indexer.run import IndexOptions
from stores.errors import StoreError, os_error_message
from stores.factory import open_stores, state_dir

__all__ = ["RepoJob", "RepoOutcome", "run_jobs", "WRITE_WAIT_SECONDS", "RECYCLE_MIB", "peak_rss_mib", "reset_peak_rss"]

WRITE_WAIT_SECONDS = 3600.0
"""How long one run's write transaction waits for another run's on the same index file."""
RECYCLE_MIB = 2 * BASE_MIB
"""A worker whose resident memory after a repository exceeds this (MiB) is replaced by a new one."""


@dataclass(frozen=True, slots=True)
class RepoJob:
    """One repository's run, as sent to its worker (picklable)."""

    root: str
    key: str
    name: str
    branch: str | None
    product: str
    db: str
    max_file_bytes: int
    extract_jobs: int
    estimate_mib: int


@dataclass(slots=True)
class RepoOutcome:
    """What one repository's run did: ``status`` ``ok`` | ``failed``; counts from the run's report;
    ``seconds`` wall time; ``peak_mib`` the peak RSS of its worker during this repository's run (its
    extraction workers apart); ``worker`` the process id of the worker that ran it (0: none reported)."""

    key: str
    name: str
    root: str
    status: str = "failed"
    error: str | None = None
    files: int = 0
    parsed: int = 0
    written: int = 0
    nodes: int = 0
    edges: int = 0
    chunks: int = 0
    seconds: float = 0.0
    peak_mib: float = 0.0
    estimate_mib: int = 0
    phases: dict[str, float] = field(default_factory=dict)
    worker: int = 0


def _status_kib(field_name: str) -> int | None:
    """A ``kB`` field of ``/proc/self/status`` (``VmHWM``, ``VmRSS``), ``None`` where there is none."""
    try:
        with open("/proc/self/status", encoding="ascii") as fh:
            for line in fh:
                if line.startswith(field_name + ":"):
                    return int(line.split()[1])
    except (OSError, ValueError, IndexError):
        pass
    return None


def reset_peak_rss() -> bool:
    """Reset this process's peak resident set (Linux >= 4.0: ``5`` into ``/proc/self/clear_refs``),
    so :func:`peak_rss_mib` measures from now on; ``False`` where that cannot be done."""
    try:
        with open("/proc/self/clear_refs", "w", encoding="ascii") as fh:
            fh.write("5")
        return True
    except OSError:
        return False


def peak_rss_mib() -> float:
    """This process's peak resident set, MiB, since the last :func:`reset_peak_rss` (``VmHWM``; the
    process's lifetime peak, ``ru_maxrss``, where ``/proc`` has none)."""
    kib = _status_kib("VmHWM")
    if kib is None:
        kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return round(kib / 1024, 1)


class _PipeProgress:
    """A :class:`indexer.run.ProgressSink` that sends phase starts to the parent."""

    def __init__(self, conn: Connection) -> None:
        self.conn = conn

    def start(self, phase: str, total: int | None) -> None:
        self.conn.send(("phase", phase))

    def advance(self, n: int = 1) -> None:
        pass

    def done(self, phase: str) -> None:
        pass


def _index_one(job: RepoJob, conn: Connection) -> RepoOutcome:
    """Index one repository in this worker; never raises (a failure is the outcome's ``error``)."""
    from indexer.pipeline import index_repository
    from stores.config import doc_folders_of, load_config

    outcome = RepoOutcome(job.key, job.name, job.root, estimate_mib=job.estimate_mib, worker=os.getpid())
    t0 = time.perf_counter()
    reset_peak_rss()
    try:
        config = load_config()
        db = Path(job.db)
        stores = open_stores(config, db, product=job.product, create=True, busy_timeout=WRITE_WAIT_SECONDS)
        try:
            options = IndexOptions(repo=job.key, product=job.product, name=job.name, branch=job.branch,
                                   max_file_bytes=job.max_file_bytes, jobs=job.extract_jobs,
                                   http_services=config.http_services, state_dir=str(state_dir(db)),
                                   memory_budget_mib=job.estimate_mib,  # what the scheduler admitted it for
                                   doc_folders=doc_folders_of(Path(job.root)))
            report = index_repository(job.root, stores.graph, stores.search, options, _PipeProgress(conn))
        finally:
            stores.close()
        outcome.status = "ok"
        outcome.files, outcome.parsed, outcome.written = report.files_indexed, report.files_extracted, report.files_written
        outcome.nodes, outcome.edges, outcome.chunks = sum(report.nodes.values()), sum(report.edges.values()), report.chunks
        outcome.phases = dict(report.phases)
    except StoreError as exc:
        outcome.error = str(exc)
    except OSError as exc:
        outcome.error = os_error_message(exc)
    except Exception as exc:  # a bug costs this repository, never the others
        outcome.error = f"{type(exc).__name__}: {exc} ({traceback.format_exc(limit=3).splitlines()[-2].strip()})"
    outcome.seconds = round(time.perf_counter() - t0, 3)
    outcome.peak_mib = peak_rss_mib()
    return outcome


def _worker(conn: Connection) -> None:
    """The body of one worker process: index each :class:`RepoJob` the parent sends, answering
    ``("phase", name)`` messages then ``("done", RepoOutcome, rss_mib)``, until ``None`` or the
    parent's end closes."""
    while True:
        try:
            job = conn.recv()
        except (EOFError, OSError):
            return
        if job is None:
            return
        outcome = _index_one(job, conn)
        rss = _status_kib("VmRSS")
        conn.send(("done", outcome, rss / 1024 if rss is not None else 0.0))


@dataclass(slots=True)
class _Slot:
    """One worker process, its end of the pipe and the job it runs (``None``: idle)."""

    proc: Any
    conn: Connection
    job: RepoJob | None = None

    def stop(self) -> None:
        """Ask the worker to end (it finishes nothing: it is idle), then wait for it."""
        try:
            self.conn.send(None)
        except (OSError, ValueError):
            pass
        self.proc.join()
        self.conn.close()


def run_jobs(jobs: list[RepoJob], parallel: int, budget_mib: int, on_event: Any = None,
             recycle_mib: float = RECYCLE_MIB) -> list[RepoOutcome]:
    """Run ``jobs`` in worker processes, at most ``parallel`` at once and within ``budget_mib`` (see
    the module docstring); ``on_event(key, what)`` hears ``start`` / a phase name / ``done`` /
    ``failed``; a worker whose resident memory after a repository exceeds ``recycle_mib`` MiB is
    replaced (0: a new worker for every repository). Returns the outcomes in the order of ``jobs``. Ctrl-C stops every run (their
    transactions roll back) and raises KeyboardInterrupt."""
    ctx = multiprocessing.get_context("spawn")
    pending = sorted(jobs, key=lambda j: -j.estimate_mib)
    slots: list[_Slot] = []
    outcomes: dict[str, RepoOutcome] = {}
    notify = on_event or (lambda key, what: None)
    numbers = itertools.count(1)

    def spawn() -> _Slot:
        parent, child = ctx.Pipe(duplex=True)
        proc = ctx.Process(target=_worker, args=(child,), name=f"ripple-index-worker-{next(numbers)}")
        proc.start()
        child.close()
        slot = _Slot(proc, parent)
        slots.append(slot)
        return slot

    def retire(slot: _Slot) -> None:
        slots.remove(slot)
        slot.stop()

    try:
        while pending or any(s.job is not None for s in slots):
            busy = [s for s in slots if s.job is not None]
            used = sum(s.job.estimate_mib for s in busy if s.job is not None)
            for job in list(pending):
                if len(busy) >= parallel:
                    break
                if busy and used + job.estimate_mib > budget_mib:
                    continue
                slot = next((s for s in slots if s.job is None), None) or spawn()
                slot.conn.send(job)
                slot.job = job
                busy.append(slot)
                pending.remove(job)
                used += job.estimate_mib
                notify(job.key, "start")
            for slot in [s for s in slots if s.job is None]:  # nothing fits it now: no idle process holds memory
                retire(slot)
            by_conn = {s.conn: s for s in slots}
            for conn in wait(list(by_conn), timeout=0.5):
                slot = by_conn[conn]
                job = slot.job
                assert job is not None
                try:
                    message = conn.recv()
                except (EOFError, OSError):
                    slot.proc.join()
                    code = slot.proc.exitcode
                    why = " (killed: out of memory?)" if code == -9 else ""
                    outcomes[job.key] = RepoOutcome(job.key, job.name, job.root, error=f"its process ended with code "
                                                    f"{code}{why} before reporting", estimate_mib=job.estimate_mib)
                    slots.remove(slot)
                    slot.conn.close()
                    notify(job.key, "failed")
                    continue
                if message[0] == "phase":
                    notify(job.key, message[1])
                    continue
                _, outcome, rss_mib = message
                outcomes[job.key] = outcome
                slot.job = None
                if rss_mib > recycle_mib:
                    retire(slot)
                notify(job.key, "done" if outcome.status == "ok" else "failed")
    except KeyboardInterrupt:
        for slot in slots:
            slot.proc.terminate()
        for slot in slots:
            slot.proc.join()
        raise
    finally:
        for slot in list(slots):
            if slot.proc.is_alive() and slot.job is None:
                retire(slot)
    return [outcomes[j.key] for j in jobs if j.key in outcomes]
