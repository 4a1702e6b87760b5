"""The central indexer: ``ripple index --all MANIFEST`` and ``ripple watch --all MANIFEST``.

:func:`index_all` indexes every repository of a manifest (:mod:`indexer.manifest`) into the
configured stores, several at a time:

* each repository runs in a process of its own (``spawn``), so one that fails, raises or is killed
  (out of memory) costs that repository only; the others go on, and the summary says what happened;
* at most ``jobs`` run at once, and a repository starts only while the estimated memory of the runs
  under way plus its own (:func:`indexer.manifest.estimate_mib`) fits ``memory_budget`` MiB (one
  runs alone whatever its estimate, so a big repository is never starved); the largest go first;
* every run writes through the store contracts as ``ripple index`` does; runs sharing one embedded
  index file wait for each other's write transactions (SQLite's lock, waited for up to an hour),
  and the whole ``--all`` run holds the index's writer lock, so no other ripple writer interleaves;
* names are checked first against the stores' registry: a name indexed from another folder is that
  repository's failure (``RepositoryClash``), never a merge;
* embeddings run once at the end, in this process (one model load), then each repository's
  registry counts are refreshed;
* progress: one rich bar per repository showing its phase, and the whole; at the end a summary
  table (``--json``: one document) and exit status 1 when any repository failed.

:func:`watch_all` indexes the same way, then follows every repository's folder in this process
(one watcher thread each, as ``ripple watch PATH...``) until Ctrl-C.
"""

from __future__ import annotations

import json
import multiprocessing
import os
import resource
import threading
import time
import traceback
from dataclasses import asdict, dataclass, field
from multiprocessing.connection import Connection, wait
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from indexer.discovery import DEFAULT_MAX_FILE_BYTES
from indexer.embedding import embed_pending
from indexer.manifest import ManifestEntry, ManifestError, estimate_mib, load_manifest
from indexer.registry import branch_identity, refresh_counts
from indexer.run import IndexOptions
from lsp_server.cli_models import embed_extra_models
from lsp_server.cli_support import RichProgress, emit_json, err, loaded_config, out
from stores.embedder import EmbedderError
from stores.errors import StoreError, os_error_message
from stores.factory import (claim_repository, default_db_path, open_embedder, open_stores, state_dir,
                            writer_lock)

__all__ = ["index_all", "watch_all", "default_jobs", "default_memory_budget", "RepoJob", "RepoOutcome",
           "run_jobs", "WRITE_WAIT_SECONDS"]

WRITE_WAIT_SECONDS = 3600.0
"""How long one run's write transaction waits for another run's on the same index file."""


def default_jobs() -> int:
    """Repositories indexed at once by default: the cores, at most 4."""
    return max(1, min(4, os.cpu_count() or 1))


def default_memory_budget() -> int:
    """The default memory budget, MiB: half the memory available now (``MemAvailable``), at least
    512; 2048 where that cannot be read."""
    try:
        with open("/proc/meminfo", encoding="ascii") as fh:
            for line in fh:
                if line.startswith("MemAvailable:"):
                    return max(512, int(line.split()[1]) // 1024 // 2)
    except (OSError, ValueError, IndexError):
        pass
    return 2048


@dataclass(frozen=True, slots=True)
class RepoJob:
    """One repository's run, as sent to its process (picklable)."""

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
    ``seconds`` wall time; ``peak_mib`` the peak RSS of its process (its extraction workers apart)."""

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


def _run_job(job: RepoJob, conn: Connection) -> None:
    """The body of one repository's process: index it, send ``("done", RepoOutcome)``."""
    from indexer.pipeline import index_repository
    from stores.config import doc_folders_of, load_config

    outcome = RepoOutcome(job.key, job.name, job.root, estimate_mib=job.estimate_mib)
    t0 = time.perf_counter()
    try:
        config = load_config()
        db = Path(job.db)
        stores = open_stores(config, db, product=job.product, create=True, busy_timeout=WRITE_WAIT_SECONDS)
        try:
            options = IndexOptions(repo=job.key, product=job.product, name=job.name, branch=job.branch,
                                   max_file_bytes=job.max_file_bytes, jobs=job.extract_jobs,
                                   http_services=config.http_services, state_dir=str(state_dir(db)),
                                   memory_budget_mib=job.estimate_mib, doc_folders=doc_folders_of(Path(job.root)))  # what the scheduler admitted it for
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
    outcome.peak_mib = round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1)
    conn.send(("done", outcome))
    conn.close()


def run_jobs(jobs: list[RepoJob], parallel: int, budget_mib: int, on_event: Any = None) -> list[RepoOutcome]:
    """Run ``jobs`` in processes of their own, at most ``parallel`` at once and within ``budget_mib``
    (see the module docstring); ``on_event(key, what)`` hears ``start`` / a phase name / ``done`` /
    ``failed``. Returns the outcomes in the order of ``jobs``. Ctrl-C stops every run (their
    transactions roll back) and raises KeyboardInterrupt."""
    ctx = multiprocessing.get_context("spawn")
    pending = sorted(jobs, key=lambda j: -j.estimate_mib)
    running: dict[Connection, tuple[RepoJob, Any]] = {}
    outcomes: dict[str, RepoOutcome] = {}
    notify = on_event or (lambda key, what: None)
    try:
        while pending or running:
            used = sum(job.estimate_mib for job, _ in running.values())
            for job in list(pending):
                if len(running) >= parallel:
                    break
                if running and used + job.estimate_mib > budget_mib:
                    continue
                reader, writer = ctx.Pipe(duplex=False)
                proc = ctx.Process(target=_run_job, args=(job, writer), name=f"ripple-index-{job.key}")
                proc.start()
                writer.close()
                running[reader] = (job, proc)
                pending.remove(job)
                used += job.estimate_mib
                notify(job.key, "start")
            for conn in wait(list(running), timeout=0.5):
                job, proc = running[conn]
                try:
                    kind, value = conn.recv()
                except (EOFError, OSError):
                    proc.join()
                    code = proc.exitcode
                    why = " (killed: out of memory?)" if code == -9 else ""
                    outcomes[job.key] = RepoOutcome(job.key, job.name, job.root, error=f"its process ended with code "
                                                    f"{code}{why} before reporting", estimate_mib=job.estimate_mib)
                    notify(job.key, "failed")
                    del running[conn]
                    continue
                if kind == "phase":
                    notify(job.key, value)
                    continue
                outcomes[job.key] = value
                proc.join()
                del running[conn]
                notify(job.key, "done" if value.status == "ok" else "failed")
    except KeyboardInterrupt:
        for _, proc in running.values():
            proc.terminate()
        for _, proc in running.values():
            proc.join()
        raise
    return [outcomes[j.key] for j in jobs if j.key in outcomes]


def _plan(entries: list[ManifestEntry], db: Path, max_file_size: int, extract_jobs: int
          ) -> tuple[list[RepoJob], list[RepoOutcome]]:
    """Keys and claims checked against the stores, once, before any run: the jobs to run and the
    repositories refused (a name clash)."""
    from stores.config import load_config

    config = loaded_config(load_config())
    jobs, refused = [], []
    for entry in entries:
        try:
            stores = open_stores(config, db, product=entry.product, create=True)
        except StoreError as exc:
            raise click.ClickException(str(exc)) from exc
        try:
            key, name, branch = branch_identity(stores.graph.repositories(), entry.name, entry.branch, entry.path)
            claim_repository(stores.graph, db, key, entry.path)
        except StoreError as exc:
            refused.append(RepoOutcome(entry.name, entry.name, str(entry.path), error=str(exc)))
            continue
        finally:
            stores.close()
        jobs.append(RepoJob(str(entry.path), key, name, branch, entry.product, str(db), max_file_size, extract_jobs,
                            estimate_mib(entry.path)))
    return jobs, refused


def _embed_all(db: Path, model: str | None, keys: list[str], progress: Progress | None) -> dict[str, Any]:
    """Embed every pending chunk once, then refresh the registry counts of ``keys``."""
    from stores.config import load_config

    config = load_config()
    stores = open_stores(config, db, create=True, busy_timeout=WRITE_WAIT_SECONDS)
    try:
        result: dict[str, Any]
        try:
            embedder = open_embedder(model or config.embedding_model)
            done = embed_pending(stores.search, embedder, RichProgress(progress) if progress is not None else None)
            result = {"model": embedder.model_id, "embedded": done.embedded, "reused": done.reused,
                      "seconds": round(done.seconds, 2)}
            if config.search.models:  # an ensemble: each other model of [search] models too
                result["models"] = embed_extra_models(stores.search, config.search.models, model or config.embedding_model,
                                                      config.models_dir, None)
        except EmbedderError as exc:
            err.print(f"[yellow]warning: no embeddings ({escape(str(exc))}); search uses BM25 alone[/yellow]")
            result = {"skipped": str(exc)}
        for key in keys:
            refresh_counts(stores.graph, stores.search, key)
        return result
    finally:
        stores.close()


def _summary(outcomes: list[RepoOutcome], seconds: float, embedded: dict[str, Any]) -> None:
    table = Table(title=f"ripple index --all: {sum(o.status == 'ok' for o in outcomes)} of {len(outcomes)} "
                        f"repositories indexed in {seconds:.1f}s", title_justify="left")
    for col in ("repository", "status", "files", "parsed", "nodes", "edges", "chunks", "time s", "peak MiB (est.)"):
        table.add_column(col, justify="left" if col in ("repository", "status") else "right")
    for o in outcomes:
        status = "ok" if o.status == "ok" else f"[red]failed[/red]: {escape(o.error or '?')}"
        table.add_row(escape(o.key), status, f"{o.files:,}", f"{o.parsed:,}", f"{o.nodes:,}", f"{o.edges:,}",
                      f"{o.chunks:,}", f"{o.seconds:.1f}", f"{o.peak_mib:,.0f} ({o.estimate_mib:,})")
    out.print(table)
    if "skipped" in embedded:
        out.print(f"embeddings: skipped ({escape(str(embedded['skipped']))})")
    else:
        out.print(f"embeddings: {embedded['embedded']:,} embedded, {embedded['reused']:,} reused, "
                  f"{embedded['seconds']:.1f}s")


def index_all(manifest: Path, db: str | None, jobs: int | None, memory_budget: int | None, embed: bool,
              model: str | None, max_file_size: int = DEFAULT_MAX_FILE_BYTES, as_json: bool = False) -> list[RepoOutcome]:
    """``ripple index --all MANIFEST`` (see the module docstring). ``db``: the embedded index file
    (default: ``.ripple/index.db`` beside the manifest; with team stores only the state folder is
    keyed by it). Returns the outcomes; exits 1 (``SystemExit``) when any repository failed, unless
    the caller is :func:`watch_all`."""
    try:
        entries = load_manifest(manifest)
    except ManifestError as exc:
        raise click.ClickException(str(exc)) from exc
    db_path = Path(db) if db else default_db_path(manifest.resolve().parent)
    parallel = jobs or default_jobs()
    budget = memory_budget or default_memory_budget()
    extract_jobs = max(1, (os.cpu_count() or 1) // parallel)
    t0 = time.perf_counter()
    lock = writer_lock(db_path)
    try:
        lock.acquire(timeout=0.5)
    except Exception:
        err.print(f"[dim]waiting for another ripple process writing {escape(str(db_path))}…[/dim]")
        lock.acquire()
    try:
        planned, refused = _plan(entries, db_path, max_file_size, extract_jobs)
        columns = (SpinnerColumn(), TextColumn("{task.description:<40}"), BarColumn(), MofNCompleteColumn(),
                   TimeElapsedColumn())
        with Progress(*columns, console=err, transient=as_json, disable=as_json and not err.is_terminal) as bar:
            overall = bar.add_task("repositories", total=len(entries))
            bar.advance(overall, len(refused))
            tasks: dict[str, Any] = {}

            def on_event(key: str, what: str) -> None:
                if what == "start":
                    tasks[key] = bar.add_task(f"{key}: start", total=None)
                elif what in ("done", "failed"):
                    bar.update(tasks[key], description=f"{key}: {what}", total=1, completed=1)
                    bar.advance(overall)
                else:
                    bar.update(tasks[key], description=f"{key}: {what}")

            outcomes = refused + run_jobs(planned, parallel, budget, on_event)
            ok = [o.key for o in outcomes if o.status == "ok"]
            embedded = _embed_all(db_path, model, ok, bar) if embed and ok else {"skipped": "--no-embed" if not embed else
                                                                                  "nothing indexed"}
    except KeyboardInterrupt:
        err.print("[yellow]interrupted: repositories finished so far are indexed; the others are as they were[/yellow]")
        raise SystemExit(130) from None
    finally:
        lock.release()
    seconds = time.perf_counter() - t0
    order = {e.name: i for i, e in enumerate(entries)}
    outcomes.sort(key=lambda o: order.get(o.name, len(order)))
    if as_json:
        emit_json({"db": str(db_path), "seconds": round(seconds, 2), "jobs": parallel, "memory_budget_mib": budget,
                   "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
                   "repositories": [asdict(o) for o in outcomes], "embeddings": embedded})
    else:
        _summary(outcomes, seconds, embedded)
    return outcomes


def watch_all(manifest: Path, db: str | None, jobs: int | None, memory_budget: int | None, embed: bool,
              model: str | None, max_file_size: int, as_json: bool) -> None:
    """``ripple watch --all MANIFEST``: :func:`index_all`, then follow every repository indexed until
    Ctrl-C (one watcher thread each in this process; each keeps its repository's resolver state in
    memory, so the memory budget bounds the indexing, not the watching)."""
    from indexer.incremental import RepositoryIndex
    from indexer.watch import Watcher
    from stores.config import doc_folders_of, load_config

    outcomes = index_all(manifest, db, jobs, memory_budget, embed, model, max_file_size, as_json)
    db_path = Path(db) if db else default_db_path(manifest.resolve().parent)
    config = loaded_config(load_config())
    stop = threading.Event()
    failures: list[str] = []
    runs: list[tuple[threading.Thread, Any]] = []
    entries = {e.name: e for e in load_manifest(manifest)}
    try:
        for o in outcomes:
            if o.status != "ok":
                continue
            entry = entries[o.name]
            stores = open_stores(config, db_path, product=entry.product, create=True, busy_timeout=WRITE_WAIT_SECONDS)
            options = IndexOptions(repo=o.key, product=entry.product, name=entry.name, max_file_bytes=max_file_size,
                                   jobs=1, http_services=config.http_services, state_dir=str(state_dir(db_path)),
                                   doc_folders=doc_folders_of(Path(entry.path)))
            watcher = Watcher(RepositoryIndex(entry.path, stores.graph, stores.search, options),
                              lock=lambda: writer_lock(db_path), on_update=_printer(o.key, as_json))
            thread = threading.Thread(target=_watch, args=(watcher, stop, failures), daemon=True,
                                      name=f"ripple-watch-{o.key}")
            runs.append((thread, stores))
            thread.start()
        if not as_json:
            err.print(f"[dim]watching {len(runs)} repositories (Ctrl-C stops)[/dim]")
        while runs and any(t.is_alive() for t, _ in runs):
            for t, _ in runs:
                t.join(0.2)
    except KeyboardInterrupt:
        pass
    except StoreError as exc:
        failures.append(str(exc))
    finally:
        stop.set()
        for t, stores in runs:
            t.join()
            stores.close()
    if failures:
        raise click.ClickException("; ".join(failures))


def _watch(watcher: Any, stop: threading.Event, failures: list[str]) -> None:
    try:
        watcher.run(stop)
    except Exception as exc:  # one repository's watcher failing stops that one only
        failures.append(f"{watcher.index.root}: {exc}")
    finally:
        watcher.index.close()


def _printer(key: str, as_json: bool) -> Any:
    def on_update(report: Any) -> None:
        ms = round(1000 * report.phases.get("total", 0.0))
        if as_json:
            click.echo(json.dumps({"repo": key, "files_changed": report.files_changed,
                                   "files_written": report.files_written, "ms": ms}))
        else:
            out.print(f"{key}: {report.files_changed} changed, {report.files_written} written in {ms} ms", markup=False)

    return on_update
