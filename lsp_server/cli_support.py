"""What every ``ripple`` command shares: the consoles (control characters escaped), the rich progress
renderer of the pipeline's phases, and the opening of the configured stores with store errors turned
into one-line click errors. Command modules (``lsp_server.cli`` and the ``cli_*`` modules beside it)
import these instead of each keeping a copy."""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.logging import RichHandler
from rich.markup import escape
from rich.progress import Progress
from rich.segment import Segment

from analysis.branches import branch_view
from analysis.targets import EMPTY_INDEX
from stores.errors import StoreError
from stores.factory import DB_ENV, Stores, find_db, open_stores

__all__ = ["BRANCH_HELP", "Whole", "RichProgress", "SafeConsole", "SafeGroup", "branch_option", "cli_store", "cli_stores", "emit_json", "err", "log_handler", "SafeLogFormatter",
           "loaded_config", "out", "terminal_text", "warn_stale"]

_DECIMAL = re.compile(r"-?[0-9]+")


class Whole(click.IntRange):
    """``click.IntRange`` for integers written in decimal digits only (``5``, ``-1`` for its range message):
    Python's ``int`` also takes `` 5``, ``+5``, ``1_000`` and other scripts' digits (``٥``), which the MCP
    and REST fronts refuse (:mod:`lsp_server.api.models`, ``query_count``)."""

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        """The integer ``value`` stands for, within the range; fails (click's usage error, exit 2) for a
        text that is not decimal digits, as ``IntRange`` does for one outside the range."""
        if isinstance(value, str) and not _DECIMAL.fullmatch(value):
            self.fail(f"{value[:40]!r} is not an integer in decimal digits.", param, ctx)
        return super().convert(value, param, ctx)


_CONTROL = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069]")


def terminal_text(text: str) -> str:
    """``text`` with every control character but line feed and tab (C0, DEL, C1) written as ``\\xNN``,
    and the bidirectional marks and overrides (U+061C, U+200E/F, U+202A-202E, U+2066-2069) as
    ``\\uNNNN``: names, paths and endpoint paths come from the indexed repository, and an ESC sequence in
    one must not reach the terminal (set its title, clear it, write its clipboard), nor an override
    show ``gpj.py`` reversed as another name."""
    return _CONTROL.sub(lambda m: f"\\x{ord(m.group(0)):02x}" if ord(m.group(0)) < 0x100 else f"\\u{ord(m.group(0)):04x}",
                        text)


class SafeGroup(click.Group):
    """The ``ripple`` command group: an error of any subcommand (``click.ClickException``, usage and
    parameter errors included) has its message passed through :func:`terminal_text` before click
    prints it, since messages quote manifests, paths and names a repository chose."""

    def invoke(self, ctx: click.Context) -> Any:
        """Run the subcommand; re-raise its click error with the message made safe for a terminal."""
        try:
            return super().invoke(ctx)
        except click.ClickException as exc:
            exc.message = terminal_text(exc.message)
            raise


class SafeConsole(Console):
    """A rich console whose text cannot carry control sequences: strings are escaped before rich parses
    them (:func:`terminal_text`; rich itself drops only a few control characters), and the text of
    every segment rendered from other objects (log records, tables) likewise. Rich's own styling and
    cursor moves are control segments and pass unchanged."""

    def render_str(self, text: str, **kwargs: Any) -> Any:  # noqa: D102 - rich's API
        return super().render_str(terminal_text(text), **kwargs)

    def render(self, renderable: Any, options: Any = None) -> Iterator[Segment]:  # noqa: D102 - rich's API
        for segment in super().render(renderable, options):
            if segment.control or not _CONTROL.search(segment.text):
                yield segment
            else:
                yield Segment(terminal_text(segment.text), segment.style, segment.control)


err = SafeConsole(stderr=True, emoji=False)
out = SafeConsole(highlight=False, soft_wrap=True, emoji=False)


class SafeLogFormatter(logging.Formatter):
    """``LEVEL    message``, the message passed through :func:`terminal_text`: the log line of
    :func:`log_handler` when stderr is not a terminal."""

    def format(self, record: logging.LogRecord) -> str:  # noqa: D102 - logging's API
        return terminal_text(super().format(record))


def log_handler() -> logging.Handler:
    """The CLI's log handler. On a terminal, rich's, sharing the progress bars' console (:data:`err`) so
    that a log line does not tear a bar. Otherwise (stderr a pipe or a file: CI, an editor's output
    channel, ``2> log``) one plain ``LEVEL    message`` line per record, never wrapped: rich lays a record
    out as a table as wide as the console, 80 columns off a terminal, and so splits a long path over
    lines, which a reader's ``grep`` for the path then misses."""
    if err.is_terminal:
        return RichHandler(console=err, show_time=False, show_path=False)
    handler = logging.StreamHandler()  # sys.stderr as it is when a record is written
    handler.setFormatter(SafeLogFormatter("%(levelname)-8s %(message)s"))
    return handler


class RichProgress:
    """Renders pipeline phases as rich progress bars on stderr; ``phase`` is the one under way (what
    an interruption stopped)."""

    def __init__(self, progress: Progress) -> None:
        self.progress = progress
        self.task: Any = None
        self.phase: str | None = None

    def start(self, phase: str, total: int | None) -> None:
        """A bar for ``phase`` with ``total`` steps (``None``: a spinner of unknown length)."""
        self.phase = phase
        self.task = self.progress.add_task(phase, total=total)

    def advance(self, n: int = 1) -> None:
        """``n`` more steps of the current phase done."""
        self.progress.advance(self.task, n)

    def done(self, phase: str) -> None:
        """The current phase is finished: its bar is shown full at the count it reached."""
        task = self.progress.tasks[-1]
        self.progress.update(self.task, total=task.completed or 1, completed=task.completed or 1)


BRANCH_HELP = "Read this branch of each repository indexed on it (default: each repository's default branch)."


def branch_option(command: Any) -> Any:
    """The ``--branch`` option of the query commands (passed on as ``branch``)."""
    return click.option("--branch", help=BRANCH_HELP)(command)


@contextmanager
def cli_store(db: str | None, branch: str | None = None, freshness: bool = False) -> Iterator[Any]:
    """The graph a query reads: the embedded index (``--db``, ``$RIPPLE_DB``, or found here or in a
    parent folder) or the configured graph store, as one branch of every repository
    (:func:`analysis.branches.branch_view`). ``freshness``: as :func:`cli_stores`."""
    with cli_stores(db, branch=branch, view=True, freshness=freshness) as stores:
        yield stores.graph


def warn_stale(graph: Any, path: Path | None) -> list[str]:
    """Print on stderr one ``warning: index of REPO is N commits behind HEAD ...`` line per repository
    of index ``path`` whose recorded source (:mod:`lsp_server.freshness_support`) is behind its
    checkout; returns the lines' messages."""
    from analysis.freshness import freshness_notes
    from lsp_server.freshness_support import check_all, recorded_states

    try:
        held = graph.repos()
    except StoreError:
        return []
    notes = freshness_notes(check_all(graph, recorded_states(path, held, graph)))
    for note in notes:
        err.print(f"[yellow]warning: {escape(note)}; `ripple index` of that folder brings it up to date[/yellow]",
                  soft_wrap=True)
    return notes


def warn_empty(graph: Any, path: Path | None) -> str | None:
    """Print on stderr a warning when ``graph`` (the index at ``path``; ``None``: a graph server) holds
    no repository, so a query's "no symbol matches" or "0 endpoints" is not read as an answer about the
    code: nothing was indexed there, or the ``ripple index`` that made it was stopped before its
    transaction committed (a killed run leaves the file empty, not half written). Returns the message."""
    try:
        if graph.repos():
            return None
    except StoreError:
        return None
    where = f"index {path}" if path is not None else "the graph store"
    message = f"{where} holds no repository: {EMPTY_INDEX}; run `ripple index PATH`"
    err.print(f"[yellow]warning: {escape(message)}[/yellow]", soft_wrap=True)
    return message


@contextmanager
def cli_stores(db: str | None, branch: str | None = None, view: bool = False,
               freshness: bool = False) -> Iterator[Stores]:
    """The configured graph store and search index (:func:`stores.factory.open_stores`): the embedded
    index by default; Memgraph and / or Elasticsearch when the configuration selects them. With
    ``view``, the graph is read as ``branch`` (default: each repository's default branch) of every
    repository (:func:`analysis.branches.branch_view`). ``freshness``: first warn on stderr about
    every repository whose index is behind its checkout (:func:`warn_stale`). Every store error
    becomes a one-line ClickException."""
    from stores.config import load_config

    try:
        config = loaded_config(load_config())
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    needs_file = "embedded" in (config.graph.backend, config.search.backend)
    path = Path(db) if db else (config.db or find_db(Path.cwd()))
    if needs_file and path is None:
        raise click.ClickException(
            f"no index found in this directory or its parents; run `ripple index PATH` first or pass --db (or set {DB_ENV})"
        )
    if needs_file and path is not None and not path.exists():
        raise click.ClickException(f"no index at {path}; run `ripple index PATH` first")
    try:
        stores = open_stores(config, path if needs_file else None)
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    if view:
        warn_empty(stores.graph, path if needs_file else None)
    if freshness:
        warn_stale(stores.graph, path)
    try:
        yield Stores(branch_view(stores.graph, branch), stores.search) if view else stores
    except StoreError as exc:
        raise click.ClickException(str(exc)) from exc
    finally:
        stores.close()


_warned: set[str] = set()


def loaded_config(config: Any) -> Any:
    """``config`` after printing its warnings on stderr (an untrusted workspace file's ignored keys, a
    credential not sent, a secret others can read), each once per process."""
    for warning in config.warnings:
        if warning not in _warned:
            _warned.add(warning)
            err.print(f"[yellow]warning: {escape(warning)}[/yellow]", soft_wrap=True)
    return config


def emit_json(data: object) -> None:
    """Print ``data`` on stdout as one indented JSON document (the ``--json`` output of every command)."""
    click.echo(json.dumps(data, indent=2, sort_keys=False))
