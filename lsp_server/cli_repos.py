"""``ripple repos``: the repository registry of the configured stores (list, show, remove).

Each subcommand opens the configured stores (:func:`lsp_server.cli_support.cli_stores`), reads or
changes the registry through the store contracts (``GraphStore.repositories`` /
``remove_repository``, ``SearchIndex.delete_repository``) and renders the answer (``--json``: one
JSON document). A repository is named by its name (its default branch, or ``--branch B``) or by its
key (``name@branch``).
"""

from __future__ import annotations

import os
import time
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import click
from rich.markup import escape
from rich.table import Table

from analysis.freshness import IndexedState, check_freshness
from indexer.vcs import git_output
from lsp_server.cli_support import cli_stores, emit_json, err, out
from stores.contracts import REPOSITORY_COUNTS, GraphStore, RepositoryRecord
from stores.doctor import OK, WARN, Check
from stores.errors import StoreError
from stores.sqlite_file import is_ripple_index
from stores.factory import DB_ENV, find_db, open_stores, writer_lock

__all__ = ["repos", "record_json", "find_entry", "iso_time", "behind", "registry_checks"]

_DB_HELP = "Index file (default: .ripple/index.db here or in a parent folder)."


def iso_time(seconds: float) -> str | None:
    """``seconds`` since the epoch as ISO 8601 UTC to the second (``None`` for 0: never)."""
    if not seconds:
        return None
    return datetime.fromtimestamp(seconds, tz=UTC).isoformat(timespec="seconds").replace("+00:00", "Z")


def record_json(r: RepositoryRecord) -> dict[str, Any]:
    """A registry entry as the JSON every front end prints (``indexedAt`` ISO 8601 UTC)."""
    return {"key": r.key, "name": r.name, "branch": r.branch, "default": r.default, "product": r.product,
            "root": r.root, "remote": r.remote, "commit": r.commit, "indexed_at": iso_time(r.indexed_at),
            "counts": {k: r.counts.get(k, 0) for k in REPOSITORY_COUNTS}, "props": r.props}


def find_entry(entries: Sequence[RepositoryRecord], name: str, branch: str | None) -> RepositoryRecord | None:
    """The entry ``name`` (and ``branch``) names: with no branch, the entry whose key is ``name``,
    else the default entry of that name; with a branch, the entry of that name and branch."""
    if branch is None:
        exact = next((r for r in entries if r.key == name), None)
        if exact is not None:
            return exact
        return next((r for r in entries if r.name == name and r.default), None)
    return next((r for r in entries if r.name == name and r.branch == branch), None)


def _unknown(entries: Sequence[RepositoryRecord], held: Sequence[str], name: str, branch: str | None) -> str:
    """The error for a name that names no entry: what is registered (and held without an entry)."""
    known = sorted({r.key for r in entries} | set(held))
    shown = ", ".join(known[:20]) + (f" and {len(known) - 20} more" if len(known) > 20 else "")
    what = f"{name!r} on branch {branch!r}" if branch is not None else repr(name)
    return f"no repository {what} in the registry (repositories: {shown or 'none'}); see `ripple repos list`"


@click.group(name="repos")
def repos() -> None:
    """The repositories of the configured stores: list them, show one, remove one."""


@repos.command(name="list")
@click.option("--db", envvar=DB_ENV, help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def list_cmd(db: str | None, as_json: bool) -> None:
    """Every indexed repository and branch: counts, commit, when it was indexed."""
    with cli_stores(db) as stores:
        entries = stores.graph.repositories()
        unregistered = sorted(set(stores.graph.repos()) - {r.key for r in entries})
    if as_json:
        emit_json({"repositories": [record_json(r) for r in entries], "unregistered": unregistered})
        return
    header = ("repository", "branch", *REPOSITORY_COUNTS, "commit", "indexed at", "root")
    rows = [(r.key, (r.branch or "-") + ("*" if r.default else ""), *(f"{r.counts.get(k, 0):,}" for k in REPOSITORY_COUNTS),
             (r.commit or "-")[:10], iso_time(r.indexed_at) or "-", r.root) for r in entries]
    widths = [max(len(str(row[i])) for row in (header, *rows)) for i in range(len(header) - 1)]
    numeric = range(2, 2 + len(REPOSITORY_COUNTS))
    out.print(f"{len(entries)} repositor{'y' if len(entries) == 1 else 'ies'}", markup=False)
    for row in (header, *rows):
        cells = [str(v).rjust(w) if i in numeric else str(v).ljust(w) for i, (v, w) in enumerate(zip(row, widths))]
        out.print("  ".join([*cells, str(row[-1])]), markup=False)
    out.print("[dim]* the default branch: what queries read when they name no --branch[/dim]")
    if unregistered:
        err.print(f"[yellow]held without a registry entry (indexed by an older ripple; `ripple index` them again): "
                  f"{escape(', '.join(unregistered))}[/yellow]", soft_wrap=True)


@repos.command(name="show")
@click.argument("name")
@click.option("--branch", help="The entry of this branch (default: NAME's default branch, or NAME as a key).")
@click.option("--db", envvar=DB_ENV, help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def show_cmd(name: str, branch: str | None, db: str | None, as_json: bool) -> None:
    """One repository's entry, and the other branches of the same name."""
    with cli_stores(db) as stores:
        entries = stores.graph.repositories()
        entry = find_entry(entries, name, branch)
        if entry is None:
            raise click.ClickException(_unknown(entries, stores.graph.repos(), name, branch))
    others = [r.key for r in entries if r.name == entry.name and r.key != entry.key]
    if as_json:
        emit_json({**record_json(entry), "other_branches": others})
        return
    table = Table(show_header=False, title=escape(f"repository {entry.key}"), title_justify="left")
    table.add_column(style="bold")
    table.add_column()
    rows = [("name", entry.name), ("branch", (entry.branch or "-") + (" (default)" if entry.default else "")),
            ("product", entry.product), ("root", entry.root), ("remote", entry.remote or "-"),
            ("commit", entry.commit or "-"), ("indexed at", iso_time(entry.indexed_at) or "-"),
            ("counts", ", ".join(f"{k} {entry.counts.get(k, 0):,}" for k in REPOSITORY_COUNTS)),
            ("other branches", ", ".join(others) or "none")]
    rows += [(f"props.{k}", str(v)) for k, v in sorted(entry.props.items())]
    for k, v in rows:
        table.add_row(k, escape(v))
    out.print(table)


@repos.command(name="remove")
@click.argument("name")
@click.option("--branch", help="Remove the entry of this branch (default: NAME's default branch, or NAME as a key).")
@click.option("--db", envvar=DB_ENV, help=_DB_HELP)
@click.option("--json", "as_json", is_flag=True, help="Print one JSON document.")
def remove_cmd(name: str, branch: str | None, db: str | None, as_json: bool) -> None:
    """Remove a repository whole: its nodes, edges, files, chunks and embeddings (one unit of work
    per store) and its registry entry. Other repositories keep everything, their edges into the
    removed one's code excepted."""
    path = Path(db) if db else find_db(Path.cwd())
    lock = writer_lock(path) if path is not None and path.exists() else None
    if lock is not None:
        lock.acquire()
    try:
        with cli_stores(db) as stores:
            graph: GraphStore = stores.graph
            entries = graph.repositories()
            entry = find_entry(entries, name, branch)
            key = entry.key if entry is not None else (name if branch is None and name in graph.repos() else None)
            if key is None:
                raise click.ClickException(_unknown(entries, graph.repos(), name, branch))
            t0 = time.perf_counter()
            counts = graph.repository_counts(key)
            chunks = stores.search.delete_repository(key) if stores.search is not graph else 0
            if stores.search is graph:
                chunks = stores.search.repository_chunk_count(key)["chunks"]
            graph.remove_repository(key)
            seconds = time.perf_counter() - t0
    finally:
        if lock is not None:
            lock.release()
    result = {"removed": key, **counts, "chunks": chunks, "seconds": round(seconds, 3)}
    if as_json:
        emit_json(result)
        return
    out.print(f"removed {escape(key)}: {counts['files']:,} files, {counts['nodes']:,} nodes, {counts['edges']:,} edges, "
              f"{chunks:,} chunks ({seconds:.2f}s)")


def behind(root: str, commit: str | None, branch: str | None = None) -> int | None:
    """Commits the checkout at ``root`` has on ``branch`` (its local branch; HEAD when ``None``) after
    ``commit`` (``git rev-list --count``), ``None`` when that cannot be told cheaply (no commit
    recorded, folder gone, not a checkout, no such branch, git slow)."""
    if not commit or not os.path.isdir(root):
        return None
    tip = f"refs/heads/{branch}" if branch else "HEAD"
    count = git_output(Path(root), "rev-list", "--count", f"{commit}..{tip}")
    return int(count) if count is not None and count.isdigit() else None


def registry_checks(start: Path, db: Path | None) -> list[Check]:
    """``ripple doctor``'s line per registered repository: when it was indexed, at which commit, and
    whether its checkout's HEAD has moved on since (``warn``: the index is behind; the fix re-indexes
    it). ``[]`` when the stores cannot be opened (their own checks say why) or hold no registry."""
    from stores.config import load_config

    try:
        config = load_config(start)
        path = db or config.db or find_db(start)
        if "embedded" in (config.graph.backend, config.search.backend) and (
                path is None or not path.is_file() or not is_ripple_index(path)):
            return []  # nothing to list, and an empty or foreign file must not be made an index
        stores = open_stores(config, path)
    except StoreError:
        return []
    try:
        entries = stores.graph.repositories()
        return [_registry_check(stores.graph, r) for r in entries]
    except StoreError:
        return []
    finally:
        stores.close()


def _registry_check(graph: GraphStore, r: RepositoryRecord) -> Check:
    """One repository's doctor line: ``warn`` when its checkout's branch has commits the index lacks,
    or when it is at the indexed commit but files changed on disk since (edited, added, deleted and
    not indexed: :func:`analysis.freshness.check_freshness`); else ``ok``."""
    where = f"{r.key} ({r.branch or 'no branch'}{', default' if r.default else ''})"
    detail = (f"{where}: indexed {iso_time(r.indexed_at) or 'never'} at {(r.commit or 'no commit')[:12]}, "
              f"{r.counts.get('files', 0):,} files, {r.counts.get('chunks', 0):,} chunks "
              f"({r.counts.get('vectors', 0):,} embedded), from {r.root}")
    flag = f" --branch {r.branch}" if r.branch and not r.default else ""
    fix = f"ripple index {r.root}{flag} (or let `ripple watch --all` follow it)"
    n = behind(r.root, r.commit, r.branch)
    if n:
        return Check("repo", WARN, f"{detail}; {n} commit{'s' if n != 1 else ''} behind {r.branch or 'HEAD'}", fix)
    if not os.path.isdir(r.root):
        return Check("repo", OK, f"{detail}; the folder is not on this machine")
    state = check_freshness(graph, IndexedState(r.key, r.root, r.commit or None, r.branch or None,
                                                r.indexed_at or None))
    if state.state == "changed":  # only said when the checkout is at the indexed commit (or has no git)
        return Check("repo", WARN, f"{detail}; {state.changed} changed file{'s' if state.changed != 1 else ''} "
                                   "on disk not indexed", fix)
    return Check("repo", OK, detail + (f"; up to date with {r.branch or 'HEAD'}" if n == 0 else ""))
