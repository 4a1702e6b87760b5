"""The ``ripple`` command line.

Each command opens the configured store, makes one call of the indexer or analysis API, and renders
the answer as text (rich) or, with ``--json``, as one JSON document on stdout. Locations print as
``path:line:col`` with 1-based line and column (the convention compilers and editors parse).
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
import filelock
from rich.markup import escape
from rich.progress import BarColumn, MofNCompleteColumn, Progress, SpinnerColumn, TextColumn, TimeElapsedColumn
from rich.table import Table

from analysis.tables import TableTargetError, is_table_target
from analysis.impact import (DEFAULT_DEPTH, TESTS_MODES, NodesQuery, PositionQuery, SymbolQuery, blast_radius)
from analysis.targets import position_miss, quoted_target, target_query
from analysis.impact_report import DEFAULT_PER_HOP, render_markdown, report_json
from analysis.navigation import dotted_name, lookup
from analysis.retrieval import QueryEngine, check_query
from lsp_server.cli_models import models as models_group
from lsp_server.cli_models import search_engine, warn_model
from lsp_server.cli_similar import similar
from lsp_server.cli_endpoints import endpoints, unlinked
from lsp_server.cli_navigation import also_named, callers_cmd, no_match, note_repos, references_cmd
from analysis.services import SERVICES_ENV, service_map
from indexer.discovery import DEFAULT_MAX_FILE_BYTES
from indexer.languages import language_names
from indexer.parked import ParkedDataError
from indexer.run import IndexOptions, IndexReport, WorkersLost
from indexer.registry import branch_identity, refresh_counts
from lsp_server.cli_embed import BUSY, embed, embed_phase, start_background_embedding
from lsp_server.cli_repos import registry_checks, repos
from lsp_server.ensemble_support import ExtraModels
from stores.blas_threads import use_one_blas_thread
from lsp_server.cli_support import (RichProgress, Whole, SafeGroup, branch_option, cli_stores, emit_json, err, loaded_config, log_handler, out,
                                    terminal_text)
from lsp_server.freshness_support import record_run
from lsp_server.watch_support import end_watches, start_watch, update_printer, wait_while_watching
from stores.contracts import UNLINKED_REASONS, Node, SearchFilters
from stores.embedder import MODEL_ENV, EmbedderError
from stores.errors import StoreError, os_error_message
from stores.factory import (DB_ENV, claim_repository, default_db_path, find_db, open_stores,
                            prune_state_dirs, repository_name, state_dir, writer_lock)

__all__ = ["main"]

@click.group(cls=SafeGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.option("-v", "--verbose", count=True, help="Log more (-v: skipped files, -vv: debug).")
@click.version_option(package_name="ripplegraph")
@click.pass_context
def main(ctx: click.Context, verbose: int) -> None:
    """ripplegraph: what breaks if I change this? A code graph and search index of your repositories."""
    level = logging.WARNING - 10 * verbose
    logging.basicConfig(level=max(level, logging.DEBUG), format="%(message)s", handlers=[log_handler()])
    # Exact kNN beside BM25 (stores/blas_threads.py). Not for `ripple index`, which multiplies no matrices: limiting
    # the BLAS threads loads numpy, which its parent process would then hold while the forked resolve child runs
    # (8.5 MiB; numpy loads on first use, stores.lazy_import).
    if ctx.invoked_subcommand != "index":
        use_one_blas_thread()


@main.command()
@click.argument("path", required=False, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--all", "manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Index every repository of this TOML manifest ([[repository]] path, name, product, branch), "
                   "several at a time (see --jobs, --memory-budget).")
@click.option("--branch", help="Index PATH as this branch of the repository (default: the checkout's current one).")
@click.option("--memory-budget", type=Whole(64, 1 << 22), metavar="MIB",
              help="Memory the run may take (main process and extraction workers; sizes write batches, caps "
                   "workers). With --all: start a repository only while the runs' estimated memory fits (default: "
                   "half the available memory).")
@click.option("--repo", help="Repository name used in node ids (default: the folder's name).")
@click.option("--product", help="Product the repository belongs to (default: the repository name).")
@click.option("--db", envvar=DB_ENV, help="Index file (default: PATH/.ripple/index.db).")
@click.option("--max-file-size", type=Whole(1, 1 << 30), default=DEFAULT_MAX_FILE_BYTES, show_default=True,
              help="Skip files larger than this many bytes (1 to 1 GiB).")
@click.option("--jobs", "-j", type=Whole(1, 64), default=None,
              help="Extraction processes, 1 to 64 (default: one per core); with --all: repositories at once "
                   "(default: the cores, at most 4).")
@click.option("--embed", "embed_mode", type=click.Choice(["foreground", "background"]), is_flag=False,
              flag_value="foreground", default="foreground", show_default=True,
              help="After the graph is written, compute embeddings for semantic search here, or (--embed=background) "
                   "in a detached process once the graph and BM25 answer (resume either with `ripple embed`).")
@click.option("--no-embed", is_flag=True, help="Compute no embeddings (`ripple embed` does it later).")
@click.option("--model", envvar=MODEL_ENV, help="A fastembed model already in its cache, instead of the bundled all-MiniLM-L6-v2.")
@click.option("--follow-external-symlinks", is_flag=True,
              help="Index what symbolic links out of PATH point to (default: skipped as symlink_outside).")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def index(path: Path | None, manifest: Path | None, branch: str | None, memory_budget: int | None, repo: str | None,
          product: str | None, db: str | None, max_file_size: int, jobs: int | None,
          embed_mode: str, no_embed: bool, model: str | None, follow_external_symlinks: bool, as_json: bool) -> None:
    """Index the source tree at PATH (Java, Kotlin, Python, TypeScript, JavaScript, Vue, Go, C#, Apex;
    GraphQL, .proto and OpenAPI files) into the configured stores (the embedded store by default; see
    `ripple doctor` and .ripple/config.toml), or with --all every
    repository of a manifest (the central indexer).

    The graph and BM25 index are committed first and answer at once; embeddings follow."""
    from stores.config import load_config

    if manifest is not None:
        if path is not None or repo or product or branch or follow_external_symlinks:
            raise click.UsageError("--all reads PATH, --repo, --product and --branch from the manifest: give none of them")
        from lsp_server.cli_central import index_all

        outcomes = index_all(manifest, db, jobs, memory_budget, not no_embed, model, max_file_size, as_json)
        sys.exit(1 if any(o.status != "ok" for o in outcomes) else 0)
    if path is None:
        raise click.UsageError("give PATH, or --all MANIFEST")
    root = path.resolve()
    repo_name = repo or root.name
    for what, text in (("the path", str(root)), ("the repository name", repo_name), ("the product name", product or "")):
        try:  # the index stores paths and names as UTF-8 text
            text.encode("utf-8")
        except UnicodeEncodeError:
            raise click.ClickException(f"{what} {text.encode('utf-8', 'surrogateescape')!r} is not valid UTF-8: ripple "
                                       "stores paths and names as UTF-8; rename it") from None
    for gone in prune_state_dirs():  # caches of indexes deleted a week ago or more
        logging.getLogger(__name__).info("removed %s: its index is gone", gone)
    try:
        config = loaded_config(load_config(root))
        db_path = Path(db) if db else (config.db or default_db_path(root))
        stores = open_stores(config, db_path, product=product or repo_name, create=True)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    except OSError as exc:
        raise click.ClickException(os_error_message(exc, db_path)) from exc
    try:
        # The name this folder was indexed under before (`--repo` once, remembered), as the server does.
        repo_name = repo or repository_name(stores.graph, db_path, root)
        key, repo_name, branch = branch_identity(stores.graph.repositories(), repo_name, branch, root)
        claim_repository(stores.graph, db_path, key, root)  # never take over another folder's repository
    except StoreError as exc:
        stores.close()
        raise click.ClickException(str(exc)) from exc
    store = stores.search  # the embedded store is both; embeddings go to the search index
    model = model or config.embedding_model
    options = IndexOptions(repo=key, name=repo_name, branch=branch, product=product, max_file_bytes=max_file_size, jobs=jobs,
                           http_services=config.http_services, state_dir=str(state_dir(db_path)),
                           follow_external_symlinks=follow_external_symlinks, doc_folders=config.doc_folders,
                           memory_budget_mib=memory_budget)
    columns = (SpinnerColumn(), TextColumn("{task.description:<9}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    progress: RichProgress | None = None
    try:
        with Progress(*columns, console=err, transient=as_json, disable=not err.is_terminal and as_json) as bar:
            progress = RichProgress(bar)
            with _writing(db_path):  # one writer per index; embedding below runs beside others
                from indexer.pipeline import index_repository  # here: the query commands start without it
                report = index_repository(root, stores.graph, store, options, progress)
                record_run(db_path, repo_name, root)  # the commit now indexed (analysis.freshness)
            embed_db = db_path if "embedded" == config.search.backend else None
            if no_embed:
                embedded: dict[str, Any] = {"skipped": "--no-embed"}
            elif embed_mode == "background" and embed_db is not None:
                embedded = start_background_embedding(embed_db, model)
            else:
                embedded = embed_phase(store, embed_db, model, progress, config.search.models, config.models_dir)
            if "embedded" in embedded:
                refresh_counts(stores.graph, store, key)  # the registry's vector count
    except KeyboardInterrupt:
        phase = progress.phase if progress is not None else None
        if phase in (None, "discover", "read", "extract", "resolve"):
            kept = (f"nothing of this run was written: {db_path} is as it was before it (files parsed so far are "
                    "cached)")
        else:
            kept = (f"{db_path} holds the index as it was before this run or as this run committed it, never a mix "
                    "(each write is one transaction)")
        err.print(f"[yellow]interrupted during {escape(phase or 'start-up')}: {escape(kept)}; run `ripple index` "
                  "again to finish[/yellow]", soft_wrap=True)
        sys.exit(130)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    except WorkersLost as exc:
        raise click.ClickException(str(exc)) from exc
    except ParkedDataError as exc:  # the run's temporary file in the state folder changed under it
        raise click.ClickException(
            f"{exc}: a temporary file of this run in {state_dir(db_path)} was changed or removed while it ran; "
            f"{db_path} holds the index as it was before this run or as this run committed it; run `ripple index` "
            "again") from exc
    except OSError as exc:  # the state folder (journal, cache, lock) beside the index
        raise click.ClickException(os_error_message(exc, state_dir(db_path))) from exc
    finally:
        stores.close()
    interrupted = embedded.get("skipped") == "interrupted"
    if as_json:
        emit_json({**report.as_dict(), "embeddings": embedded, "db": str(db_path)})
    else:
        _print_report(report, db_path, embedded)
    if interrupted:
        err.print("[yellow]interrupted while embedding: the graph and BM25 index are complete and answer; the "
                  "vectors computed so far are kept; run `ripple embed` to finish[/yellow]", soft_wrap=True)
        sys.exit(130)


@contextmanager
def _writing(db_path: Path) -> Iterator[None]:
    """Hold the index's writer lock (waiting, with a note, while another ripple process writes)."""
    lock = writer_lock(db_path)
    try:
        lock.acquire(timeout=0.5)
    except filelock.Timeout:
        err.print(f"[dim]waiting for another ripple process writing {escape(str(db_path))}…[/dim]")
        lock.acquire()
    try:
        yield
    finally:
        lock.release()


def _print_report(r: IndexReport, db_path: Path, embedded: dict[str, Any]) -> None:
    table = Table(title=escape(f"ripple index {r.root} -> {db_path}"), show_header=False, title_justify="left")
    table.add_column(style="bold")
    table.add_column(overflow="fold")  # a long path folds onto the next line instead of ending in "…"
    langs = ", ".join(f"{k} {v:,}" for k, v in sorted(r.files_by_language.items()))
    table.add_row("files indexed", f"{r.files_indexed:,} ({langs})" if langs else "0")
    if r.files_with_parse_errors:
        more = r.files_with_parse_errors - len(r.parse_error_examples)
        table.add_row("with syntax errors", escape(f"{r.files_with_parse_errors:,} (extracted as far as they parse): "
                                                   + "; ".join(r.parse_error_examples) + (f"; {more:,} more" if more > 0 else "")))
    if r.partial:
        table.add_row("indexed in part", ", ".join(f"{k} {v:,}" for k, v in sorted(r.partial.items())))
    table.add_row("skipped", ", ".join(f"{k} {v:,}" for k, v in sorted(r.skipped.items())) or "none")
    if r.files_deleted:
        table.add_row("removed (gone from disk)", f"{r.files_deleted:,}")
    table.add_row("this run", f"{r.files_changed:,} changed, {r.files_extracted:,} parsed, {r.files_resolved:,} bound, "
                              f"{r.files_written:,} written" if r.files_written or r.files_deleted or r.files_changed
                  else "up to date: the index already holds this tree")
    if r.files_written:
        table.add_row("written: nodes", ", ".join(f"{k} {v:,}" for k, v in sorted(r.nodes.items())))
        table.add_row("written: edges", ", ".join(f"{k} {v:,}" for k, v in sorted(r.edges.items())))
    if r.calls:
        table.add_row("call sites by outcome", ", ".join(f"{k} {v:,}" for k, v in r.calls.items()))
    linked = {k: v for k, v in r.links.items() if not k.startswith("unlinked_")}
    unlinked = {k.removeprefix("unlinked_"): v for k, v in r.links.items() if k.startswith("unlinked_")}
    if linked:
        table.add_row("HTTP, queue and gRPC links", ", ".join(f"{k} {v:,}" for k, v in linked.items()))
    if unlinked:
        listed = sum(v for k, v in unlinked.items() if k in UNLINKED_REASONS)  # client calls: kept, listable
        others = [k for k in unlinked if k not in UNLINKED_REASONS]  # registrations: counted only
        notes = ([f"`ripple unlinked` lists the {listed:,} client call{'s' if listed != 1 else ''}"] if listed else []) + (
            [f"{', '.join(others)}: registrations naming no code of the repository (a library's middleware, a handler "
             "not resolved), counted, not listed"] if others else [])
        table.add_row("not linked, by reason", ", ".join(f"{k} {v:,}" for k, v in unlinked.items())
                      + (f" ({'; '.join(notes)})" if notes else ""))
    if r.files_written:
        table.add_row("chunks written", f"{r.chunks:,}")
    if "background" in embedded:
        table.add_row("embeddings", escape(f"computing in the background (process {embedded['background']}, log "
                                           f"{embedded['log']}); search uses BM25 until then; `ripple embed` resumes"))
    elif embedded.get("skipped") == BUSY:
        table.add_row("embeddings", "another process is embedding this index (it takes the new chunks too)")
    elif "skipped" in embedded:
        table.add_row("embeddings", escape(f"skipped ({embedded['skipped']})"))
    else:
        table.add_row("embeddings", f"{embedded['embedded']:,} embedded, {embedded['reused']:,} reused, "
                                    f"{embedded['chunks_per_s']:.0f} chunks/s, {embedded['seconds']:.1f}s, "
                                    f"peak {embedded['peak_rss_mb']:,.0f} MiB")
    table.add_row("time", ", ".join(f"{k} {v:.1f}s" for k, v in r.phases.items()))
    table.add_row("peak memory", ", ".join(f"{k} {v:,.0f} MiB" for k, v in r.peak_rss_mb.items() if v))
    out.print(table)
    if r.files_indexed == 0:
        err.print(f"[yellow]warning: no source file of a supported language found under {escape(str(r.root))} "
                  f"(supported: {', '.join(language_names())})[/yellow]")


@main.command(name="impact")
@click.argument("target")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--depth", type=Whole(1, 20), default=DEFAULT_DEPTH, show_default=True,
              help="Hops walked upward from the targets (1 to 20).")
@click.option("--service", "services", multiple=True, metavar="NAME=REPO",
              help=f"An HTTP service name and the repository serving it (repeatable; added to ${SERVICES_ENV} "
                   "and the [http.services] table of the configuration).")
@click.option("--tests", "tests", type=click.Choice(TESTS_MODES), default="apart", show_default=True,
              help="Test code (tests/, test_*.py, *.test.ts, src/test/java/, *Test.java, ...): in its own section "
                   "(apart), counted as callers (include), not walked (exclude), or alone (only).")
@click.option("--per-hop", type=Whole(1, 10000), default=DEFAULT_PER_HOP, show_default=True,
              help="Callers named per hop; the rest of each hop is counted.")
@click.option("--repo", help="Only TARGET's definitions in this repository (a name defined in several).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def impact_cmd(target: str, db: str | None, depth: int, services: tuple[str, ...], tests: str, per_hop: int,
               repo: str | None, as_json: bool, branch: str | None) -> None:
    """Blast radius of TARGET (Class.method, module.function, a node id, or PATH:LINE[:COL]): its
    callers, the endpoints and topics they reach across services, and the services affected."""
    from stores.config import load_config

    try:
        service_repos = {**load_config().http_services, **service_map(list(services) if services else None)}
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="--service") from exc
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    with cli_stores(db, branch, view=True, freshness=True) as stores:
        store = stores.graph
        try:
            query = target_query(store, target, repo)
        except ValueError as exc:
            raise click.ClickException(str(exc)) from exc
        others: list[Node] = []  # what a bare name also matched: said, as `callers` and the agent tools say it
        if isinstance(query, SymbolQuery) and not is_table_target(query.text):
            chosen, others = lookup(store, query.text, repo)  # with --repo, the repository's definitions only
            if repo is not None and not chosen:
                raise click.ClickException(no_match(store, target, repo))
            if chosen:
                query = NodesQuery(tuple(chosen))
        # BM25 and exact names only: a name nothing matches is searched without loading a model.
        try:
            report = blast_radius(store, query, depth=depth, services=service_repos,
                                  engine=QueryEngine(store, stores.search), tests=tests)
        except TableTargetError as exc:  # table:NAME naming no table of the index
            raise click.ClickException(str(exc)) from exc
        if report.targets or is_table_target(target):
            miss = None
        elif isinstance(query, PositionQuery):  # the file is indexed, the position names nothing
            miss = position_miss(store, query)
        else:
            miss = no_match(store, target, repo)
    if as_json:
        emit_json({**report_json(report, per_hop), "also_named": [n.id for n in others]})
        if not report.targets:
            sys.exit(1)
        return
    if not report.targets:
        if is_table_target(target):
            raise click.ClickException(f"nothing in the index reads or writes {target.strip()}")
        raise click.ClickException(terminal_text(miss or f"no symbol matches {quoted_target(target)}"))
    note_repos(target, sorted({t.node.repo for t in report.targets}))
    if others:
        err.print(f"[dim]{also_named(target, others)}[/dim]", soft_wrap=True)
    out.print(render_markdown(report, per_hop=per_hop), markup=False, end="")


def _known_language(value: str | None) -> str | None:
    """``value`` if it names a registered language (checked only when given: the registry imports every
    language package), else a usage error listing them."""
    if value is not None and value not in language_names():
        raise click.BadParameter(f"{value!r} is not one of {', '.join(language_names())}", param_hint="'--language'")
    return value


@main.command()
@click.argument("query")
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--repo", help="Only this repository.")
@click.option("--product", help="Only this product.")
@click.option("--language", callback=lambda ctx, param, value: _known_language(value), metavar="LANGUAGE",
              help="Only this language (a registered one: java, javascript, python, typescript, ...).")
@click.option("--kind", type=click.Choice(["method", "function", "class", "file_section", "sql", "config", "doc"]),
              help="Only this chunk kind: code (method, function, class, file_section), sql statements, config keys, "
                   "doc sections.")
@click.option("--limit", type=Whole(1, 200), default=10, show_default=True)
@click.option("--model", envvar=MODEL_ENV, help="The fastembed model the index was embedded with, if not the bundled one.")
@click.option("--tests", is_flag=True, help="Look for test code: its scores are halved when it is not asked for, the "
                                            "implementation's when it is (QUERY naming tests asks too).")
@click.option("--models", help="Rank with each of these embedding models plus BM25 (an ensemble: minilm,mpnet); "
                                "default: [search] models, else the index's one model.")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
@branch_option
def search(query: str, db: str | None, repo: str | None, product: str | None, language: str | None,
           kind: str | None, limit: int, model: str | None, tests: bool, models: str | None, as_json: bool,
           branch: str | None) -> None:
    """Hybrid search (BM25 + semantic kNN, fused by RRF) for QUERY: words or identifiers. An identifier's
    definitions come first; test code, private helpers and undocumented code rank lower."""
    try:
        check_query(query)
    except ValueError as exc:
        raise click.BadParameter(str(exc), param_hint="'QUERY'") from exc
    filters = SearchFilters(product=product, repo=repo, language=language, kind=kind)
    with cli_stores(db, branch, view=True, freshness=True) as stores:
        try:
            result = search_engine(stores.graph, stores.search, model, models).search(query, limit, filters, tests=tests)
        except EmbedderError as exc:
            raise click.ClickException(str(exc)) from exc
    if as_json:
        emit_json({
            "query": query, "lists": result.lists, "embedded": result.embedded, "chunks": result.chunks,
            "notes": result.notes,
            "hits": [{"repo": h.chunk.repo, "path": h.chunk.file, "line": h.chunk.start_line,
                      "end_line": h.chunk.end_line, "kind": h.chunk.kind, "fqn": h.node.id,
                      "name": dotted_name(h.node), "score": h.score,
                      "ranks": dict(h.ranks), "callers": h.callers, "metadata": h.metadata, "section": h.chunk.name,
                      "mentions": [dotted_name(n) for n in h.mentions]} for h in result.hits],
        })
        return
    for note in result.notes:
        err.print(f"[dim]{escape(note)}[/dim]")
    if not result.hits:
        out.print("no results")
    multi_repo = len({h.chunk.repo for h in result.hits}) > 1
    for h in result.hits:
        where = f"{h.chunk.repo}/{h.chunk.file}" if multi_repo else h.chunk.file
        ranks = " ".join(f"{name}#{h.ranks[name]}" if name in h.ranks else f"{name}:-" for name in result.lists)
        name = dotted_name(h.node)
        if h.node.label == "File":  # the path leads the line: say which section, key or statement
            name = "(top-level code)" if h.chunk.kind == "file_section" else h.chunk.name
        mentioned = ("  mentions " + ", ".join(dotted_name(n) for n in h.mentions)) if h.mentions else ""
        out.print(f"{where}:{h.chunk.start_line}  {h.chunk.kind:<12} {name}  "
                  f"{h.score:.4f}  {ranks}  callers {h.callers}{mentioned}", markup=False)
        if h.chunk.kind in ("sql", "config", "doc"):  # the statement, key = value or heading itself
            first = next((line.strip() for line in h.chunk.text.splitlines() if line.strip()), "")
            out.print(f"    {first[:117] + '...' if len(first) > 120 else first}", markup=False)


@main.command()
@click.option("--db", envvar=DB_ENV, help="Index file (default: .ripple/index.db here or in a parent folder).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def stats(db: str | None, as_json: bool) -> None:
    """Counts of files, nodes, edges (CALLS edges by resolution) and chunks in the index."""
    with cli_stores(db) as stores:
        data = {**stores.graph.stats(), **stores.search.chunk_count(), "repos": stores.graph.repos()}
    if as_json:
        emit_json(data)
        return
    table = Table(show_header=False)
    table.add_column(style="bold")
    table.add_column(overflow="fold")
    for key, value in data.items():
        if isinstance(value, dict):  # by language, label or resolution: none at all is 0, not a blank
            value = ", ".join(f"{k} {v:,}" for k, v in sorted(value.items())) or "0"
        elif isinstance(value, list):
            value = ", ".join(map(str, value)) or "none"
        elif isinstance(value, int) and not isinstance(value, bool):
            value = f"{value:,}"
        table.add_row(_STATS_LABELS.get(key, key), escape(str(value)))
    out.print(table)
    if data.get("calls_by_resolution"):
        out.print(_EDGES_NOT_SITES, markup=False)


_STATS_LABELS = {"calls_by_resolution": "CALLS edges by resolution", "unresolved_calls": "call sites unresolved"}
"""`ripple stats`'s row labels where the JSON key alone would not say what is counted."""
_EDGES_NOT_SITES = ("CALLS edges are not call sites: a call bound to several targets is one edge each, and getters "
                    "run, callbacks a library calls and decorators add edges of their own; `ripple index` counts "
                    "call sites by outcome (one per call).")


@main.command()
@click.argument("path", required=False, type=click.Path(exists=True, path_type=Path))
@click.option("--db", envvar=DB_ENV, type=click.Path(path_type=Path),
              help="Index file to check (default: .ripple/index.db in PATH or a parent folder).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def doctor(path: Path | None, db: Path | None, as_json: bool) -> None:
    """Check the configuration and every configured store (index, Memgraph, Elasticsearch, model) as
    seen from PATH (default: here; an index file is checked as --db, from its folder); say what is
    wrong and how to fix it. Exit 1 on a problem."""
    from stores.doctor import render, run_checks

    if path is not None and not path.is_dir():  # `ripple doctor rw.db`: that index file
        if db is not None and db.expanduser().resolve() != path.resolve():
            raise click.UsageError(f"{path} is a file and --db names another: give a folder as PATH, or one index file")
        path, db = path.resolve().parent, path

    checks = run_checks(path or Path.cwd(), db=db.expanduser() if db else None)
    checks += registry_checks(path or Path.cwd(), db.expanduser() if db else None)  # each repository's state
    ok = all(c.status != "fail" for c in checks)
    if as_json:
        emit_json({"ok": ok, "checks": [c.as_dict() for c in checks]})
    else:
        for line in render(checks):
            click.echo(terminal_text(line))  # details quote files and servers: no control sequence passes
    if not ok:
        sys.exit(1)


@main.command()
@click.argument("path", type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--remove", is_flag=True, help="Stop trusting PATH.")
def trust(path: Path, remove: bool) -> None:
    """Trust the workspace PATH (and the folders below it): its .ripple/config.toml may then choose the
    graph and search servers, their credentials and the index file. Untrusted workspace files keep only
    settings that send nothing anywhere. Recorded in [trust] workspaces of your own configuration file."""
    from stores.config import ConfigError, trust_workspace

    folder = path.resolve()
    try:
        written = trust_workspace(folder, remove=remove)
    except ConfigError as exc:
        raise click.ClickException(str(exc)) from exc
    if remove:
        click.echo(f"no longer trusted: {folder} (in {written})")
    else:
        click.echo(f"trusted: {folder} (in {written}); its .ripple/config.toml may now choose servers, credentials "
                   "and the index file")


@main.command()
@click.argument("paths", nargs=-1, type=click.Path(exists=True, file_okay=False, path_type=Path))
@click.option("--all", "manifest", type=click.Path(exists=True, dir_okay=False, path_type=Path),
              help="Index every repository of this TOML manifest (as `ripple index --all`), then follow them all.")
@click.option("--jobs", "-j", type=Whole(1, 64), default=None, help="With --all: repositories indexed at once.")
@click.option("--memory-budget", type=Whole(64, 1 << 22), metavar="MIB", help="With --all: as `ripple index --all`.")
@click.option("--repo", help="Repository name used in node ids (default: the folder's name; one PATH only).")
@click.option("--product", help="Product the repositories belong to (default: each repository's name).")
@click.option("--db", envvar=DB_ENV, help="Index file of every PATH (default: PATH/.ripple/index.db each).")
@click.option("--max-file-size", type=Whole(1, 1 << 30), default=DEFAULT_MAX_FILE_BYTES, show_default=True,
              help="Skip files larger than this many bytes (1 to 1 GiB).")
@click.option("--embed/--no-embed", default=True, show_default=True,
              help="Embed new and changed chunks after each update (unchanged chunks keep their vectors).")
@click.option("--model", envvar=MODEL_ENV, help="A fastembed model already in its cache, instead of the bundled all-MiniLM-L6-v2.")
@click.option("--follow-external-symlinks", is_flag=True,
              help="Index what symbolic links out of PATH point to (default: skipped as symlink_outside).")
@click.option("--json", "as_json", is_flag=True, help="Print one JSON object per update.")
def watch(paths: tuple[Path, ...], manifest: Path | None, jobs: int | None, memory_budget: int | None, repo: str | None,
          product: str | None, db: str | None, max_file_size: int,
          embed: bool, model: str | None, follow_external_symlinks: bool, as_json: bool) -> None:
    """Index each PATH (or, with --all, every repository of a manifest), then keep its index current
    as files are saved, added, deleted or renamed, until Ctrl-C or SIGTERM (an update under way
    finishes first). Bursts (a branch switch) are batched; each update re-binds only what the change
    affects. Other ripple processes may read the index meanwhile; writers take turns. As in the language server, a repository unchanged for
    `[server] release_after` seconds gives its resolver state back while the process is above `[server]
    memory_budget` MiB, and rebuilds it at its next change."""
    import threading

    if manifest is not None:
        if paths or repo or product:
            raise click.UsageError("--all reads the paths, names and products from the manifest: give none of them")
        from lsp_server.cli_central import watch_all

        watch_all(manifest, db, jobs, memory_budget, embed, model, max_file_size, as_json)
        return
    if not paths:
        raise click.UsageError("give PATH..., or --all MANIFEST")

    from indexer.incremental import RepositoryIndex
    from indexer.watch import Watcher
    from lsp_server.state_support import budget_for
    from stores.config import load_config

    if repo and len(paths) > 1:
        raise click.BadParameter("names one repository: give one PATH", param_hint="--repo")
    stop = threading.Event()
    runs: list[tuple[threading.Thread, Any]] = []
    failures: list[str] = []
    budget = None  # idle repositories give their resolver state back above `[server] memory_budget`
    try:
        for path in dict.fromkeys(p.resolve() for p in paths):
            name = repo or path.name
            config = loaded_config(load_config(path))
            db_path = Path(db) if db else (config.db or default_db_path(path))
            stores = open_stores(config, db_path, product=product or name, create=True)
            try:
                name = repo or repository_name(stores.graph, db_path, path)
                claim_repository(stores.graph, db_path, name, path)
            except StoreError:
                stores.close()
                raise
            options = IndexOptions(repo=name, product=product, max_file_bytes=max_file_size,
                                   jobs=None if len(paths) == 1 else 1, http_services=config.http_services,
                                   state_dir=str(state_dir(db_path)),
                                   follow_external_symlinks=follow_external_symlinks, doc_folders=config.doc_folders,
                                   memory_budget_mib=memory_budget)
            printer = update_printer(name, stores.search, embed, model or config.embedding_model, as_json,
                                      ExtraModels(config.search.models, model or config.embedding_model, config.models_dir,
                                                  on_error=warn_model))
            watcher = Watcher(RepositoryIndex(path, stores.graph, stores.search, options),
                              lock=lambda db_path=db_path: writer_lock(db_path),
                              on_update=lambda r, p=printer, d=db_path, n=name, root=path: (record_run(d, n, root), p(r)))
            budget = budget or budget_for(config)  # the first PATH's configuration sets it
            budget.add(watcher)
            runs.append((start_watch(watcher, stop, failures, name), stores))
        if not as_json:
            err.print(f"[dim]watching {escape(', '.join(str(p) for p in paths))} (Ctrl-C stops)[/dim]")
        wait_while_watching((t for t, _ in runs), lambda: bool(failures))
    except KeyboardInterrupt:
        pass
    except StoreError as exc:
        failures.append(str(exc))
    finally:
        end_watches(stop, budget, runs)
    if failures:
        raise click.ClickException("; ".join(failures))


API_KEY_ENV = "RIPPLE_API_KEY"
"""Environment variable holding the API key of ``ripple api`` (also ``[api] key`` in the configuration file)."""


@main.command(name="api")
@click.option("--host", default="127.0.0.1", show_default=True,
              help="Address to listen on. Any address but a loopback one needs an API key "
                   f"(${API_KEY_ENV} or [api] key in the configuration file).")
@click.option("--port", type=Whole(0, 65535), default=8765, show_default=True,
              help="Port to listen on (0: any free port, printed on stderr).")
@click.option("--db", envvar=DB_ENV, type=click.Path(dir_okay=False, path_type=Path),
              help="Index file (default: [embedded] db, else .ripple/index.db here or in a parent folder, else "
                   "created here).")
@click.option("--model", envvar=MODEL_ENV, help="The fastembed model queries are embedded with, if not the bundled one.")
@click.option("--max-body", type=Whole(1024, 64 << 20), default=1 << 20, show_default=True,
              help="Largest request body read, in bytes.")
@click.option("--root", "roots", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="Ingest may index folders in this one only (repeatable; default: the current folder).")
def api_cmd(host: str, port: int, db: Path | None, model: str | None, max_body: int, roots: tuple[Path, ...]) -> None:
    """Serve the REST API (OpenAPI at /openapi.json) over the configured stores: search, similar
    code, symbols, callers, references, impact, repositories and ingest jobs."""
    import socket

    import uvicorn

    from lsp_server.api.app import ApiSettings, create_app
    from stores.config import load_config

    try:
        config = loaded_config(load_config())
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    key = _api_key(host, config, "--host")
    path: Path | None = db or config.db or find_db(Path.cwd())
    if "embedded" in (config.graph.backend, config.search.backend) and path is None:
        path = default_db_path(Path.cwd())
    try:
        family = socket.AF_INET6 if ":" in host else socket.AF_INET
        sock = socket.socket(family, socket.SOCK_STREAM)
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        sock.bind((host.strip("[]"), port))
    except OSError as exc:
        raise click.ClickException(f"cannot listen on {host}:{port}: {exc.strerror or exc}") from exc
    try:
        app = create_app(ApiSettings(config=config, db=path, model=model, api_key=key, max_body=max_body,
                                     roots=[r.resolve() for r in roots] or [Path.cwd()]))
    except StoreError as exc:
        sock.close()
        raise click.ClickException(str(exc)) from exc
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    where = f"index {path}" if path is not None else f"{config.graph.backend} + {config.search.backend}"
    click.echo(f"ripple api: listening on http://{shown}:{bound} ({where}); "
               f"{'clients send the API key' if key else 'no API key (loopback only)'}", err=True)
    server = uvicorn.Server(uvicorn.Config(app, log_level="warning", access_log=False, lifespan="on"))
    server.run(sockets=[sock])


def _api_key(host: str, config: Any = None, hint: str = "--http") -> str | None:
    """The API key of ``ripple api`` / ``ripple mcp --http`` (``$RIPPLE_API_KEY`` or ``[api] key`` of
    ``config``, loaded when not given), checked against the bind address
    (:func:`lsp_server.api.guard.check_bind`: a non-loopback ``host`` needs one; a usage error naming
    ``hint`` otherwise)."""
    from lsp_server.api.guard import BindRefused, check_bind
    from stores.config import load_config

    if config is None:
        try:
            config = loaded_config(load_config())
        except StoreError as exc:
            raise click.ClickException(str(exc)) from exc
    key = config.api_key.strip() if config.api_key else None
    try:
        check_bind(host, key)
    except BindRefused as exc:
        raise click.BadParameter(str(exc), param_hint=hint) from exc
    return key


def _host_port(value: str, allow_remote: bool, hint: str) -> tuple[str, int]:
    """``HOST:PORT`` (``[::1]:PORT`` too) checked: a port from 0 to 65535, and a loopback host unless
    ``allow_remote``; a usage error naming ``hint`` otherwise."""
    import ipaddress

    host, _, port = value.rpartition(":")
    host = host.strip("[]")
    if not host or not port.isdigit() or int(port) > 65535:
        raise click.BadParameter("expected HOST:PORT", param_hint=hint)
    try:
        loopback = host == "localhost" or ipaddress.ip_address(host).is_loopback
    except ValueError:
        loopback = False
    if not loopback and not allow_remote:
        raise click.BadParameter(f"{host} is not a loopback address: anyone who reaches it could connect "
                                 "(use 127.0.0.1, or pass --allow-remote to mean it)", param_hint=hint)
    return host, int(port)


TOKEN_ENV = "RIPPLE_SERVE_TOKEN"
"""Environment variable holding the token of ``ripple serve --tcp`` (instead of a generated one)."""


@main.command()
@click.option("--tcp", metavar="HOST:PORT", help="Listen on TCP instead of stdio, on a loopback address "
              "(e.g. 127.0.0.1:2087; port 0: any free port). Clients must send the token (see --token-file).")
@click.option("--token-file", type=click.Path(dir_okay=False, path_type=Path),
              help=f"With --tcp: the file (mode 600: no one else may read it) holding the token clients must send "
                   f"in initializationOptions.token "
                   f"(default: ${TOKEN_ENV}, else a new one printed on stderr).")
@click.option("--root", "roots", multiple=True, type=click.Path(exists=True, file_okay=False, path_type=Path),
              help="With --tcp: workspace folders must lie in this folder (repeatable; default: the current one).")
@click.option("--allow-remote", is_flag=True, help="With --tcp: allow a HOST that is not a loopback address.")
@click.option("--embed/--no-embed", default=True, show_default=True,
              help="Compute embeddings in the background after indexing a workspace folder.")
def serve(tcp: str | None, token_file: Path | None, roots: tuple[Path, ...], allow_remote: bool, embed: bool) -> None:
    """Run the language server (stdio by default) for the editor's workspace folders."""
    import secrets
    import stat

    from lsp_server.server import serve as run

    if tcp is None:
        if token_file or roots or allow_remote:
            raise click.BadParameter("only with --tcp", param_hint="--token-file / --root / --allow-remote")
        sys.exit(run(None, embed=embed))
    host, port = _host_port(tcp, allow_remote, "--tcp")
    if token_file is not None:
        try:
            mode = stat.S_IMODE(token_file.stat().st_mode)
            token = token_file.read_text(encoding="utf-8").strip()
        except (OSError, UnicodeDecodeError) as exc:
            raise click.BadParameter(f"cannot read {token_file}: {exc}", param_hint="--token-file") from exc
        if mode & 0o077:  # as ssh refuses a private key others can read: they could connect as the editor
            raise click.BadParameter(f"{token_file} can be read or written by other users (mode {mode:o}): "
                                     f"`chmod 600 {token_file}`", param_hint="--token-file")
        source = str(token_file)
    else:
        token = os.environ.get(TOKEN_ENV, "").strip()
        source = f"${TOKEN_ENV}"
    if token_file is not None or os.environ.get(TOKEN_ENV):
        if len(token) < 16:
            raise click.BadParameter(f"the token in {source} must have at least 16 characters",
                                     param_hint="--token-file")
        shown = f"the token in {source}"
    else:
        token = secrets.token_urlsafe(32)
        shown = f"token {token}"

    def listening(bound_host: str, bound_port: int) -> None:
        click.echo(f"ripple serve: listening on {bound_host}:{bound_port}; clients send {shown} in "
                   "initializationOptions.token", err=True)

    sys.exit(run((host, port), embed=embed, token=token, roots=list(roots) or None, on_listen=listening))


@main.command(name="mcp")
@click.option("--db", "dbs", multiple=True, type=click.Path(dir_okay=False, path_type=Path),
              help=f"Index file to serve (repeatable: several are served as one; default: ${DB_ENV}, the configured "
                   "one, or .ripple/index.db here or in a parent folder).")
@click.option("--http", "http", metavar="HOST:PORT",
              help="Serve streamable HTTP at http://HOST:PORT/mcp instead of stdio (a loopback address, e.g. "
                   "127.0.0.1:8765; port 0: any free port).")
@click.option("--allow-remote", is_flag=True, help="With --http: allow a HOST that is not a loopback address; needs "
              "an API key ($RIPPLE_API_KEY or [api] key, as ripple api), which clients send as Authorization: Bearer KEY.")
@click.option("--model", envvar=MODEL_ENV, help="The fastembed model the index was embedded with, if not the bundled one.")
def mcp_cmd(dbs: tuple[Path, ...], http: str | None, allow_remote: bool, model: str | None) -> None:
    """Run the MCP server (Model Context Protocol) for coding agents: tools search, symbol, callers,
    callees, references, impact, similar, repositories over the configured stores. Stdio by default."""
    from lsp_server.mcp_server import Backend, run_http, run_stdio

    if http is None and allow_remote:
        raise click.BadParameter("only with --http", param_hint="--allow-remote")
    backend = Backend([p.expanduser() for p in dbs], model=model)
    if http is None:
        run_stdio(backend)
        return
    host, port = _host_port(http, allow_remote, "--http")
    key = _api_key(host)

    def listening(bound_host: str, bound_port: int) -> None:
        shown = f"[{bound_host}]" if ":" in bound_host else bound_host
        click.echo(f"ripple mcp: listening on http://{shown}:{bound_port}/mcp; "
                   f"{'clients send the API key' if key else 'no API key (loopback only)'}", err=True)

    try:
        run_http(backend, host, port, on_listen=listening, api_key=key)
    except KeyboardInterrupt:
        pass


main.add_command(repos)
main.add_command(embed)
main.add_command(models_group)
main.add_command(similar)
main.add_command(endpoints)
main.add_command(unlinked)
main.add_command(callers_cmd)
main.add_command(references_cmd)

if __name__ == "__main__":  # pragma: no cover
    main(prog_name=os.path.basename(sys.argv[0]))
