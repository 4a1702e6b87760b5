"""Embedding from the command line: ``ripple embed``, the embedding phase of ``ripple index``, and the
detached worker of ``ripple index --embed=background``.

One process at a time embeds an index: each run holds the index's embedding lock
(:func:`stores.factory.embed_lock`, ``<db>.embed.lock``) while it runs, whoever it is (``ripple
embed``, ``ripple index``'s phase, the background worker, a language server's embedding thread).
A run that finds the lock taken embeds nothing and says so: the holder drains the same pending
chunks. Embedding resumes by nature (:func:`indexer.embedding.embed_pending` embeds what has no
vector yet), so a worker killed at any moment costs at most its current batch; ``ripple embed`` or
a language server opened on the folder finishes the job.

``ripple index --embed=background`` returns as soon as the graph and BM25 are committed (they
answer at once) and starts ``ripple embed --db DB`` as a detached process (its own session, no
terminal, output appended to ``<db>.embed.log``), which takes the lock like any other run.
"""

from __future__ import annotations

import os
import resource
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click
import filelock
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn

from indexer.embedding import embed_pending
from indexer.registry import refresh_all_counts
from lsp_server.cli_models import embed_extra_models
from lsp_server.cli_support import RichProgress, cli_stores, emit_json, err, loaded_config, out
from stores.config import load_config
from stores.embedder import MODEL_ENV, EmbedderError
from stores.errors import StoreError
from stores.local_models import parse_model_names
from stores.factory import DB_ENV, embed_lock, open_embedder

__all__ = ["embed", "embed_phase", "start_background_embedding", "BUSY"]

BUSY = "busy"
"""``skipped`` value of a run that found another process embedding the index."""


def embed_phase(store: Any, db_path: Path | None, model: str | None, progress: RichProgress | None,
                models: Sequence[str] = (), models_dir: Path | None = None) -> dict[str, Any]:
    """Run the embedding phase over ``store`` holding the embedding lock of ``db_path`` (``None``:
    a search index without a file, no lock): the index's model, then each additional model of an
    ensemble (``models``, ``[search] models``; :func:`lsp_server.cli_models.embed_extra_models`, their
    summaries under ``models``). Returns what the JSON summaries print: ``skipped`` (with the reason)
    when the model cannot load, the run was interrupted, or another process holds the lock
    (:data:`BUSY`); otherwise the counts, time and peak memory, and ``reembedded: true`` (with a
    warning on stderr) when the stored vectors came from another model or embedding text format and
    were all computed again."""
    lock = embed_lock(db_path) if db_path is not None else None
    if lock is not None:
        try:
            lock.acquire(timeout=0)
        except filelock.Timeout:
            return {"skipped": BUSY}
    extra: dict[str, Any] = {}
    try:
        embedder = open_embedder(model)
        result = embed_pending(store, embedder, progress)
        ann = store.prepare_ann() if hasattr(store, "prepare_ann") else None  # not inside the first query
        if models:
            extra = embed_extra_models(store, models, model, models_dir, progress)
    except EmbedderError as exc:
        err.print(f"[yellow]warning: no embeddings ({escape(str(exc))}); search uses BM25 alone[/yellow]")
        return {"skipped": str(exc)}
    except KeyboardInterrupt:
        return {"skipped": "interrupted"}
    finally:
        if lock is not None:
            lock.release()
    if result.reembedded:
        err.print("[yellow]the stored vectors came from another embedding model or an older embedding text "
                  "(the contextual chunk headers changed what is embedded): they were dropped and every chunk "
                  "embedded again[/yellow]", soft_wrap=True)
    return {"model": embedder.model_id, "embedded": result.embedded, "reused": result.reused,
            "seconds": round(result.seconds, 2), "chunks_per_s": round(result.chunks_per_s, 1),
            "peak_rss_mb": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            **({"reembedded": True} if result.reembedded else {}),
            **({"ann_vectors": ann} if ann is not None else {}),
            **({"models": extra} if extra else {})}


def start_background_embedding(db_path: Path, model: str | None) -> dict[str, Any]:
    """Start ``ripple embed --db DB`` detached (new session, no terminal, not a child of this process;
    output appended to ``<db>.embed.log``) and return ``{"background": pid, "log": path}``;
    ``{"skipped": "busy"}`` without starting anything when a process already holds the embedding
    lock, ``{"skipped": "not started: <why>"}`` when the log is no regular file (a link, a FIFO).
    Raises ``OSError`` when it cannot be started."""
    lock = embed_lock(db_path)
    try:
        lock.acquire(timeout=0)
    except filelock.Timeout:
        return {"skipped": BUSY}
    lock.release()  # the worker takes it; a race with another starter costs that starter nothing
    log_path = db_path.with_name(db_path.name + ".embed.log")
    argv = [sys.executable, "-m", "lsp_server.cli", "embed", "--db", str(db_path), "--json"]
    if model:
        argv += ["--model", model]
    # Started through a launcher that exits at once, so the worker is no child of this process (no
    # zombie, nothing to wait for): the system's init adopts it.
    launched = subprocess.run([sys.executable, "-c", _LAUNCHER, str(log_path), *argv], stdin=subprocess.DEVNULL,
                              capture_output=True, cwd=str(db_path.parent), env={**os.environ, "PYTHONUNBUFFERED": "1"})
    if launched.returncode:  # the log is no regular file of its own (a planted link or FIFO)
        why = launched.stderr.decode("utf-8", "replace").strip().splitlines()
        return {"skipped": f"not started: {why[-1] if why else 'the launcher failed'}"}
    return {"background": int(launched.stdout), "log": str(log_path)}


_LAUNCHER = """
import os, stat, subprocess, sys
# Only a regular file of its own: a planted link is not written through, a FIFO not waited on.
fd = os.open(sys.argv[1], os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK, 0o644)
if not stat.S_ISREG(os.fstat(fd).st_mode):
    sys.exit(f"{sys.argv[1]} is not a regular file: not written")
os.set_blocking(fd, True)
log = os.fdopen(fd, "ab")
worker = subprocess.Popen(sys.argv[2:], stdin=subprocess.DEVNULL, stdout=log, stderr=log, start_new_session=True,
                          close_fds=True)
print(worker.pid)
worker.returncode = 0  # not waited for: it outlives this launcher
"""
"""Starts the worker (argv after the log path) in a session of its own and prints its pid. The log is
opened without following a link (``O_NOFOLLOW``) or waiting on a FIFO (``O_NONBLOCK``), and must be a
regular file: a repository can ship ``.ripple/index.db.embed.log`` as either."""


@click.command()
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--model", envvar=MODEL_ENV, help="A fastembed model already in its cache, instead of the bundled all-MiniLM-L6-v2.")
@click.option("--models", help="Also embed for these models of an ensemble (minilm,mpnet); default: [search] models.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def embed(db: str | None, model: str | None, models: str | None, as_json: bool) -> None:
    """Compute the embeddings still missing (after `ripple index --no-embed`, `--embed=background` or an
    interruption). Method, class and function chunks are embedded first. When another process is
    embedding the same index already, nothing is done (it finishes the job)."""
    columns = (SpinnerColumn(), TextColumn("{task.description:<9}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    try:
        config = loaded_config(load_config())
        names = parse_model_names(models) if models is not None else config.search.models
    except (StoreError, EmbedderError) as exc:
        raise click.ClickException(str(exc)) from exc
    with cli_stores(db) as stores, Progress(*columns, console=err, transient=as_json, disable=as_json) as bar:
        path = getattr(stores.search, "path", None)
        result = embed_phase(stores.search, path if isinstance(path, Path) else None, model, RichProgress(bar),
                             names, config.models_dir)
        counts = stores.search.chunk_count()
        if result.get("skipped") in (None, "interrupted"):
            try:  # each repository's vector count, as `ripple doctor` and `ripple repos list` show it
                refresh_all_counts(stores.graph, stores.search)
            except StoreError as exc:
                err.print(f"[yellow]the registry's counts were not updated: {escape(str(exc))}[/yellow]", soft_wrap=True)
    if as_json:
        emit_json({**result, **counts})
    elif result.get("skipped") == BUSY:
        out.print(f"another process is embedding this index already; {counts['embedded']:,} of {counts['chunks']:,} "
                  "chunks have embeddings")
    elif "skipped" not in result:
        out.print(f"{result['embedded']:,} embedded, {result['reused']:,} reused; "
                  f"{counts['embedded']:,} of {counts['chunks']:,} chunks have embeddings")
    if result.get("skipped") == "interrupted":
        err.print(f"[yellow]interrupted: {counts['embedded']:,} of {counts['chunks']:,} chunks have embeddings (the "
                  "vectors computed so far are kept); run `ripple embed` again to finish[/yellow]", soft_wrap=True)
        sys.exit(130)
