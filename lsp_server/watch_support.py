"""What ``ripple watch`` and ``ripple watch --all`` do after each update: embed, then say what changed.

A watcher (:class:`indexer.watch.Watcher`) rewrites the chunks of the files that changed; their new
texts have no vector yet. :class:`UpdateEmbedding` gives them one with the index's model
(:func:`indexer.embedding.embed_pending`) and then with each other model of ``[search] models``
(:class:`lsp_server.ensemble_support.ExtraModels`): unchanged chunks keep theirs. One instance serves
every watcher thread of a process (``ripple watch PATH...`` one per folder, ``ripple watch --all``
one per repository of the manifest): the models are loaded once, on the first update that wrote a
chunk, and one embedding pass runs at a time (several repositories often share one index file). A
model that cannot load is said once on stderr and embedding stops (search then uses BM25 for the new
chunks); the watch goes on.

:func:`update_printer` is the per-repository callback: embed, then one line per update (``--json``:
one JSON object).
"""

from __future__ import annotations

import json
import signal
import threading
import time
from collections.abc import Callable, Iterable
from typing import Any

import click
from rich.markup import escape

from indexer.embedding import embed_pending
from indexer.run import IndexReport
from lsp_server.cli_support import err, out
from lsp_server.ensemble_support import ExtraModels
from stores.embedder import EmbedderError
from stores.errors import os_error_message
from stores.factory import open_embedder

__all__ = ["UpdateEmbedding", "end_watches", "start_watch", "update_printer", "wait_while_watching"]

WAIT_STEP_S = 0.2
"""How often (seconds) :func:`wait_while_watching` looks at the watch threads."""


def start_watch(watcher: Any, stop: threading.Event, failures: list[str], name: str) -> threading.Thread:
    """Run ``watcher`` (an :class:`indexer.watch.Watcher`) until ``stop`` is set, in a daemon thread
    named ``ripple-watch-<name>``, started. A failure (the first sync's, an ``OSError`` of the state
    folder beside the index: disk full, read-only) ends that watcher only and is appended to
    ``failures`` as ``<root>: <why>``; its index is closed either way. Whether one failure stops the
    other watches is the caller's (``ripple watch PATH...``: yes; ``ripple watch --all``: no)."""
    thread = threading.Thread(target=_watch, args=(watcher, stop, failures), daemon=True, name=f"ripple-watch-{name}")
    thread.start()
    return thread


def _watch(watcher: Any, stop: threading.Event, failures: list[str]) -> None:
    try:
        watcher.run(stop)
    except OSError as exc:  # the state folder beside the index: disk full, read-only
        failures.append(f"{watcher.index.root}: {os_error_message(exc)}")
    except Exception as exc:  # the first sync failed: say why
        failures.append(f"{watcher.index.root}: {exc}")
    finally:
        watcher.index.close()


def end_watches(stop: threading.Event, budget: Any, runs: Iterable[tuple[threading.Thread, Any]]) -> None:
    """Stop the watches of :func:`start_watch`: set ``stop``, stop ``budget`` (the process's
    :class:`indexer.state_budget.StateBudget`, ``None`` when none was made), then join each thread
    (an update under way finishes) and close its stores."""
    stop.set()
    if budget is not None:
        budget.stop()
    for thread, stores in runs:
        thread.join()
        stores.close()


def wait_while_watching(threads: Iterable[threading.Thread], done: Callable[[], bool]) -> None:
    """Return once none of ``threads`` is alive or ``done()`` is true, looking every
    :data:`WAIT_STEP_S` seconds. A Ctrl-C, or a ``SIGTERM`` (``kill``, ``docker stop``, systemd; in the
    main thread, while waiting), raises ``KeyboardInterrupt`` from here with every thread left as it
    was, so that the caller can stop the watches and join them: an update under way finishes and is
    reported. A second ``SIGTERM`` after the wait ends acts as the system's default (the process ends).

    The wait sleeps instead of joining with a timeout: in CPython before 3.13 a ``Thread.join`` that
    a ``KeyboardInterrupt`` interrupts marks the thread stopped although it still runs (the
    bpo-45274 clean-up in ``Thread._wait_for_tstate_lock`` releases the lock the live thread holds),
    so every later ``join()`` returned at once and the process exited in the middle of an update
    (its line never printed; ``tests/unit/test_watch_wait.py``)."""
    threads = list(threads)
    replaced, previous = _sigterm_interrupts()
    try:
        while any(t.is_alive() for t in threads) and not done():
            time.sleep(WAIT_STEP_S)
    finally:
        if replaced:
            signal.signal(signal.SIGTERM, previous if previous is not None else signal.SIG_DFL)


def _sigterm_interrupts() -> tuple[bool, Any]:
    """Make ``SIGTERM`` raise ``KeyboardInterrupt`` in the main thread: ``(True, the handler it
    replaced)``, or ``(False, None)`` when called from another thread (only the main thread may set
    handlers)."""
    if threading.current_thread() is not threading.main_thread():
        return False, None

    def interrupt(signum: int, frame: Any) -> None:
        raise KeyboardInterrupt(f"signal {signum}")

    return True, signal.signal(signal.SIGTERM, interrupt)


class UpdateEmbedding:
    """Embeds the chunks an update left without a vector (see the module docstring). ``model``: the
    index's fastembed model (``None``: the bundled one); ``extra``: the other models of ``[search]
    models``; ``enabled``: ``False`` for ``--no-embed``; ``open_fn`` opens the index's model (tests
    pass a fake)."""

    def __init__(self, model: str | None, extra: ExtraModels | None = None, enabled: bool = True,
                 open_fn: Callable[[str | None], Any] = open_embedder) -> None:
        self.model = model
        self.extra = extra
        self.enabled = enabled
        self._open = open_fn
        self._embedder: Any = None
        self._lock = threading.Lock()

    def __call__(self, search: Any) -> tuple[int, dict[str, int]]:
        """Embed ``search``'s pending chunks with every model, one caller at a time: ``(texts the
        index's model embedded, {other model: texts embedded})``; ``(0, {})`` when disabled or after a
        model failed to load (said once on stderr). Raises what the store raises while writing."""
        with self._lock:
            if not self.enabled:
                return 0, {}
            try:
                self._embedder = self._embedder or self._open(self.model)
                vectors = embed_pending(search, self._embedder).embedded
                others = {n: r.embedded for n, r in (self.extra.embed(search) if self.extra else {}).items()}
            except EmbedderError as exc:
                err.print(f"[yellow]warning: no embeddings ({escape(str(exc))}); search uses BM25 alone[/yellow]")
                self.enabled = False
                return 0, {}
            return vectors, others


def update_printer(name: str, search: Any, embed: bool, model: str | None, as_json: bool,
                   extra: ExtraModels | None = None, echo: Callable[[str], Any] = click.echo,
                   embedding: UpdateEmbedding | None = None) -> Callable[[IndexReport], None]:
    """The watcher's callback for repository ``name`` (its index ``search``): after an update that
    wrote chunks, embed them (``embedding``, shared by the process's watchers; by default one of its
    own from ``embed``, ``model`` and ``extra``), then print a line, or with ``as_json`` one JSON
    object through ``echo`` (``embedded``: texts of the index's model; ``models``: ``{other model:
    texts}`` when there are others; ``restored``: ``true`` when the update first rebuilt the resolver
    state the repository had given back under the memory budget, :mod:`indexer.state_budget`)."""
    embedding = embedding if embedding is not None else UpdateEmbedding(model, extra, embed)

    def on_update(report: IndexReport) -> None:
        vectors, others = embedding(search) if report.chunks else (0, {})
        ms = round(1000 * report.phases.get("total", 0.0))
        restored = "restore" in report.phases  # the state given back under the memory budget, rebuilt first
        if as_json:
            echo(json.dumps({"repo": name, "files_changed": report.files_changed,
                             "files_resolved": report.files_resolved, "files_written": report.files_written,
                             "files_deleted": report.files_deleted, "embedded": vectors,
                             **({"models": others} if others else {}),
                             **({"restored": True} if restored else {}), "ms": ms}))
        else:
            out.print(f"{name}: {report.files_changed} changed, {report.files_resolved} re-bound, "
                      f"{report.files_written} written, {report.files_deleted} removed in {ms} ms"
                      + (f"; {vectors} chunks embedded" if vectors else "")
                      + "".join(f", {n} {k}" for n, k in others.items() if k)
                      + ("; resolver state rebuilt from the records" if restored else ""), markup=False)

    return on_update
