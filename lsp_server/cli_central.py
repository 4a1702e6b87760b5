"""The central indexer: ``ripple index --all MANIFEST`` and ``ripple watch --all MANIFEST``.

:func:`index_all` indexes every repository of a manifest (:mod:`indexer.manifest`) into the
configured stores, several at a time:

* repositories run in worker processes (:mod:`lsp_server.central_pool`: ``spawn``, one repository at
  a time each, reused for the next one), so one that fails, raises or is killed (out of memory)
  costs that repository only; the others go on, and the summary says what happened;
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

import os
import resource
import threading
import time
from dataclasses import asdict
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
from lsp_server.central_pool import WRITE_WAIT_SECONDS, RepoJob, RepoOutcome, run_jobs
from lsp_server.cli_models import embed_extra_models, warn_model
from lsp_server.cli_support import RichProgress, emit_json, err, loaded_config, out
from lsp_server.ensemble_support import ExtraModels
from lsp_server.watch_support import UpdateEmbedding, end_watches, start_watch, update_printer, wait_while_watching
from stores.embedder import EmbedderError
from stores.errors import StoreError
from stores.factory import (claim_repository, default_db_path, open_embedder, open_stores, state_dir,
                            writer_lock)

__all__ = ["index_all", "watch_all", "default_jobs", "default_memory_budget", "RepoJob", "RepoOutcome",
           "run_jobs", "WRITE_WAIT_SECONDS"]


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


def _plan(entries: list[ManifestEntry], db: Path, max_file_size: int, extract_jobs: int
          ) -> tuple[list[RepoJob], list[RepoOutcome]]:
    """Keys and claims checked against the stores, once, before any run: the jobs to run and the
    repositories refused (a name clash)."""
    from stores.config import load_config

    config = loaded_config(load_config())
    jobs, refused = [], []
    opened: dict[str, Any] = {}  # product -> its stores, opened once for all its repositories
    try:
        for entry in entries:
            stores = opened.get(entry.product)
            if stores is None:
                try:
                    stores = opened[entry.product] = open_stores(config, db, product=entry.product, create=True)
                except StoreError as exc:
                    raise click.ClickException(str(exc)) from exc
            try:
                key, name, branch = branch_identity(stores.graph.repositories(), entry.name, entry.branch, entry.path)
                claim_repository(stores.graph, db, key, entry.path)
            except StoreError as exc:
                refused.append(RepoOutcome(entry.name, entry.name, str(entry.path), error=str(exc)))
                continue
            jobs.append(RepoJob(str(entry.path), key, name, branch, entry.product, str(db), max_file_size,
                                extract_jobs, estimate_mib(entry.path)))
    finally:
        for stores in opened.values():
            stores.close()
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
              model: str | None, max_file_size: int, as_json: bool, stop: threading.Event | None = None) -> None:
    """``ripple watch --all MANIFEST``: :func:`index_all`, then follow every repository indexed until
    Ctrl-C (or until ``stop`` is set; one watcher thread each in this process). ``memory_budget``
    bounds the indexing; the watching keeps the process under ``[server] memory_budget`` as the
    language server does (:mod:`indexer.state_budget`: a repository unchanged for ``release_after``
    seconds gives its resolver state back, least recently changed first, and rebuilds it at its next
    change). After each update the new and changed chunks are embedded with the index's model and
    each other model of ``[search] models``, as ``ripple watch PATH`` does (one
    :class:`lsp_server.watch_support.UpdateEmbedding` for all repositories: models loaded once, one
    pass at a time); ``embed`` false (``--no-embed``) embeds nothing."""
    from indexer.incremental import RepositoryIndex
    from indexer.watch import Watcher
    from lsp_server.state_support import budget_for
    from stores.config import doc_folders_of, load_config

    outcomes = index_all(manifest, db, jobs, memory_budget, embed, model, max_file_size, as_json)
    db_path = Path(db) if db else default_db_path(manifest.resolve().parent)
    config = loaded_config(load_config())
    index_model = model or config.embedding_model
    embedding = UpdateEmbedding(index_model, ExtraModels(config.search.models, index_model, config.models_dir,
                                                         on_error=warn_model), embed)
    stop = stop or threading.Event()
    failures: list[str] = []
    runs: list[tuple[threading.Thread, Any]] = []
    entries = {e.name: e for e in load_manifest(manifest)}
    budget = budget_for(config)
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
                              lock=lambda: writer_lock(db_path),
                              on_update=update_printer(o.key, stores.search, embed, index_model, as_json,
                                                       embedding=embedding))
            budget.add(watcher)
            runs.append((start_watch(watcher, stop, failures, o.key), stores))  # a failure stops that one only
        if not as_json:
            err.print(f"[dim]watching {len(runs)} repositories (Ctrl-C stops)[/dim]")
        wait_while_watching((t for t, _ in runs), stop.is_set)
    except KeyboardInterrupt:
        pass
    except StoreError as exc:
        failures.append(str(exc))
    finally:
        end_watches(stop, budget, runs)
    if failures:
        raise click.ClickException("; ".join(failures))

