"""Watch a repository's files and keep its index current (``ripple watch``, the language server).

:class:`Watcher` runs :meth:`indexer.incremental.RepositoryIndex.sync` once, then hands every batch
of file-system changes to :meth:`~indexer.incremental.RepositoryIndex.update`. Changes come from
``watchfiles`` (inotify / FSEvents / ReadDirectoryChangesW through the Rust ``notify`` crate), which
debounces them: a batch is yielded once no new change arrived for ``step_ms`` (50 ms), or after
``debounce_ms`` (1.6 s) of continuous changes; a git checkout of thousands of files thus arrives in a
few large batches, and a batch of more than :data:`indexer.incremental.RESCAN_THRESHOLD` paths
rescans the tree instead of classifying each path. Changes that arrive while an update runs are
queued by ``watchfiles`` and come as the next batch.

Only paths that can matter pass the filter: source files the extractors read, ``.gitignore`` and
Spring configuration files, possible OpenAPI specs and component templates (``.html``), and directories (a moved folder is one event); never anything under
``.ripple/`` or a pruned folder (``node_modules/``, ``.git/``...).

Each run (the first sync, each update) holds ``lock`` (the index's writer lock, see
:func:`stores.factory.writer_lock`) so that another process writing the same index waits its turn.
A failing update is logged and the watcher goes on: the next batch or a :meth:`request_sync` repairs
what it could not write.

The repository's registry entry (:func:`indexer.registry.record_repository`: root, branch, commit,
when it was indexed, counts) is written after the first sync and every full re-sync, after updates
at most every :data:`RECORD_EVERY_S` seconds (it asks git and counts the repository's rows; an update
left unrecorded is recorded once that time has passed, at the next quiet moment), and when the watch
stops, unless the index options say ``record = False``; a failure to write it is logged.
"""

from __future__ import annotations

import contextlib
import logging
import os
import threading
import time
from collections.abc import Callable
from contextlib import AbstractContextManager
from pathlib import Path

import watchfiles

from indexer.discovery import OWN_DIR, PRUNED_DIRS, discover
from indexer.frameworks.openapi import SPEC_SUFFIXES
from indexer.frameworks.ui_templates import TEMPLATE_SUFFIX
from indexer.incremental import RepositoryIndex, is_config_path
from indexer.languages import extractor_for_path
from indexer.registry import record_repository, repository_gateways
from indexer.run import IndexReport, ProgressSink

__all__ = ["Watcher", "SourceFilter", "STEP_MS", "DEBOUNCE_MS", "RECORD_EVERY_S"]

log = logging.getLogger(__name__)

STEP_MS = 50
"""A batch is handed over once no change arrived for this long."""
DEBOUNCE_MS = 1600
"""Longest time changes are gathered into one batch while they keep coming."""
POLL_DELAY_MS = 500
"""Polling period when native notifications fail (a tree holding a name that is not UTF-8)."""
FALLBACK_WITHIN_S = 2.0
"""A native watch that fails this soon after it starts is replaced by polling."""
RESTART_DELAY_S = 1.0
"""Pause before a failed watch is started again."""
_WAKE_MS = 200
"""How often the loop wakes without changes to look at its stop and sync requests."""
RECORD_EVERY_S = 30.0
"""Shortest time between two registry entries written after updates (each costs git calls and counts)."""


class SourceFilter(watchfiles.BaseFilter):
    """Lets through what can change the index: source files, ``.gitignore``, configuration files and
    directories, and the files ``reads`` says the index read (``reads(path)``: a file an nginx
    configuration includes, :meth:`indexer.incremental.RepositoryIndex.reads`); never the index folder
    or pruned folders."""

    def __init__(self, reads: Callable[[str], bool] | None = None) -> None:
        super().__init__()
        self.reads = reads

    def __call__(self, change: watchfiles.Change, path: str) -> bool:
        """Whether ``path`` (absolute) may matter."""
        parts = Path(path).parts
        if any(p == OWN_DIR or p in PRUNED_DIRS or p.endswith(".egg-info") for p in parts[:-1]):
            return False
        name = parts[-1] if parts else ""
        if name == OWN_DIR or name in PRUNED_DIRS:
            return False
        if extractor_for_path(path) is not None or is_config_path(name) or name.lower().endswith(SPEC_SUFFIXES) \
                or name.lower().endswith(TEMPLATE_SUFFIX):
            return True  # a YAML / JSON file may be an OpenAPI spec, an .html one a component's template: the index decides
        if self.reads is not None and self.reads(path):
            return True  # `include proxy.inc`: no suffix says it is configuration, the last sync read it
        return "." not in name or Path(path).is_dir()  # a folder (gone ones have no suffix mostly)


class Watcher:
    """Keeps ``index`` current while :meth:`run` runs (in the calling thread).

    ``lock``: a context manager factory held around every run (``None``: none); ``on_update``: called
    with each run's :class:`IndexReport` (in the watcher's thread, outside the lock) after something
    was written or deleted, and after the first sync whatever it did; ``progress``: receives the
    first sync's phases."""

    def __init__(
        self,
        index: RepositoryIndex,
        *,
        lock: Callable[[], AbstractContextManager[object]] | None = None,
        on_update: Callable[[IndexReport], None] | None = None,
        step_ms: int = STEP_MS,
        debounce_ms: int = DEBOUNCE_MS,
    ) -> None:
        self.index = index
        self.lock = lock or contextlib.nullcontext
        self.on_update = on_update
        self.step_ms, self.debounce_ms = step_ms, debounce_ms
        self.ready = threading.Event()
        """Set once the first sync is written and the watch is on."""
        self._resync = threading.Event()
        self._resync_progress: ProgressSink | None = None
        self._resync_done: Callable[[IndexReport | None], None] | None = None
        self._recorded_at: float | None = None  # time.monotonic() of the last registry entry written
        self._unrecorded = False  # an update wrote something since then
        self.changed_at = time.monotonic()
        """``time.monotonic()`` of the last sync or update that applied changes (:mod:`indexer.state_budget`)."""
        self._release = threading.Event()
        self.rebuild_progress: Callable[[], AbstractContextManager[ProgressSink]] | None = None
        """Makes the progress sink of an update that first rebuilds released resolver state (the
        language server: a ``window/workDoneProgress``); ``None``: no progress."""

    def holds_state(self) -> bool:
        """Whether the index holds resolver state it could give back (:mod:`indexer.state_budget`)."""
        return self.index.holds_state

    def request_release(self) -> None:
        """Ask for :meth:`RepositoryIndex.release_state` at the next wake-up with no change to apply
        (the watcher's thread runs it, under the lock); a change applied first cancels the request."""
        self._release.set()

    def request_sync(self, progress: ProgressSink | None = None,
                     done: Callable[[IndexReport | None], None] | None = None) -> None:
        """Ask for a full :meth:`RepositoryIndex.sync` at the next wake-up (``ripple.reindex``);
        ``progress`` receives its phases and ``done`` is called after it with its report (``None``
        when it failed). A request made while one waits replaces it (its ``done`` gets ``None``)."""
        previous = self._resync_done
        self._resync_progress, self._resync_done = progress, done
        self._resync.set()
        if previous is not None and previous is not done:
            previous(None)

    def run(self, stop: threading.Event, progress: ProgressSink | None = None) -> None:
        """Sync, then apply changes until ``stop`` is set. Raises what the first sync raises (a root
        that is not a directory, a store that is down); later failures are logged.

        A watch that fails (``watchfiles`` cannot represent a path whose name is not UTF-8: it stops
        with an error at the first event under it, or at once for inotify) is started again, after
        a warning naming the cause; what changed meanwhile is caught up from the files' modification
        times. Native notifications that fail at once are replaced by polling
        (:data:`POLL_DELAY_MS`), which only fails when such a path itself changes."""
        started = time.time()
        with self.lock():
            report = self.index.sync(progress)
            self._record()
        self.changed_at = time.monotonic()
        self._notify(report, always=True)
        polling = False
        catch_up: float | None = started
        while not stop.is_set():
            armed = time.monotonic()
            try:
                self._watch(stop, polling, catch_up)
                if self._unrecorded:
                    with self.lock():
                        self._record()
                return
            except RuntimeError as exc:  # watchfiles' internal error (its class is private) derives from it
                failed = time.time()
                self.ready.set()  # the watch is (being) re-armed: callers waiting on it go on
                if not polling and time.monotonic() - armed < FALLBACK_WITHIN_S:
                    polling = True
                    log.warning("watching %s: %s; polling every %d ms instead", self.index.root, exc, POLL_DELAY_MS)
                else:
                    log.warning("watching %s: %s; watching again", self.index.root, exc)
                    stop.wait(RESTART_DELAY_S)  # never a hot loop when the same path keeps changing
                catch_up = failed

    def _watch(self, stop: threading.Event, polling: bool, catch_up: float | None) -> None:
        """One watch session until ``stop``; on its first batch, paths changed since ``catch_up``
        (seconds since the epoch) are added. Raises what ``watchfiles`` raises."""
        watch = watchfiles.watch(
            self.index.root, watch_filter=SourceFilter(self.index.reads), debounce=self.debounce_ms, step=self.step_ms,
            stop_event=stop, rust_timeout=_WAKE_MS, yield_on_timeout=True, raise_interrupt=False,
            force_polling=polling or None, poll_delay_ms=POLL_DELAY_MS,
        )
        for changes in watch:
            if stop.is_set():
                break
            paths = sorted({path for _, path in changes})
            if paths:  # (-vv: what each batch names, and below what each update did)
                log.debug("watching %s: changed %s", self.index.root, paths)
            if catch_up is not None:
                # The watch is armed from its first batch on: catch what changed before.
                paths = sorted(set(paths) | self._changed_since(catch_up))
                log.debug("watching %s: armed; with what changed since %.3f: %s", self.index.root, catch_up, paths)
                catch_up = None
                self.ready.set()
            if self._resync.is_set():
                self._resync.clear()
                progress, done = self._resync_progress, self._resync_done
                self._resync_progress = self._resync_done = None
                report = self._apply(lambda: self.index.sync(progress), record=True)  # noqa: B023 - called at once
                self.changed_at = time.monotonic()
                if done is not None:
                    done(report)
            elif paths:
                self._update(paths)
            elif self._release.is_set():
                self._release.clear()
                try:
                    with self.lock():
                        if self.index.holds_state:  # the page cache first: the release then trims the heap
                            self._shrink_stores()
                            self.index.release_state()
                except Exception:  # the state is kept (or rebuilt by the next change): the watch goes on
                    log.warning("releasing the resolver state of %s failed", self.index.root, exc_info=True)
            elif self._unrecorded and self._record_due():  # a quiet moment after throttled updates
                try:
                    with self.lock():
                        self._record()
                except Exception:  # the lock's own check failed (the index was replaced): the next run says so
                    log.warning("writing the registry entry of %s failed", self.index.root, exc_info=True)

    def _changed_since(self, since: float) -> set[str]:
        """Paths edited since ``since`` (seconds since the epoch, with a second of slack for coarse
        file-system clocks), added or removed relative to the index's files."""
        found = discover(self.index.root, self.index.options.max_file_bytes,
                         self.index.options.follow_external_symlinks, self.index.options.doc_folders)
        on_disk = {sf.path: sf.abs_path for sf in found.files}
        out = {str(self.index.root / p) for p in self.index.paths() ^ set(on_disk)}
        for abs_path in on_disk.values():
            try:
                if os.stat(abs_path).st_mtime >= since - 1.0:
                    out.add(abs_path)
            except OSError:
                out.add(abs_path)
        return out

    def _shrink_stores(self) -> None:
        """With a release: the stores' caches of what this watcher wrote go too (a store with a
        ``release_memory()``, the embedded one's SQLite page cache, up to 64 MiB each), before the
        release hands the freed heap back to the system."""
        for store in {id(s): s for s in (self.index.graph, self.index.search)}.values():
            shrink = getattr(store, "release_memory", None)
            if callable(shrink):
                shrink()

    def _update(self, paths: list[str]) -> None:
        """Apply ``paths``; when the index gave its state back, with :attr:`rebuild_progress`'s sink."""
        self._release.clear()
        self.changed_at = time.monotonic()
        if self.index.released is None or self.rebuild_progress is None:
            self._apply(lambda: self.index.update(paths))
            return
        with self.rebuild_progress() as sink:
            self._apply(lambda: self.index.update(paths, sink))
        self.changed_at = time.monotonic()

    def _apply(self, work: Callable[[], IndexReport], record: bool = False) -> IndexReport | None:
        try:
            with self.lock():
                report = work()
                if report.files_written or report.files_deleted:
                    self._unrecorded = True
                if record or (self._unrecorded and self._record_due()):
                    self._record()
        except Exception:  # the watcher outlives one failed update; the next batch retries
            log.exception("updating the index of %s failed", self.index.root)
            return None
        log.debug("watching %s: %d changed, %d written, %d deleted", self.index.root, report.files_changed,
                  report.files_written, report.files_deleted)
        self._notify(report)
        return report

    def _record_due(self) -> bool:
        """Whether :data:`RECORD_EVERY_S` has passed since the last registry entry written."""
        return self._recorded_at is None or time.monotonic() - self._recorded_at >= RECORD_EVERY_S

    def _record(self) -> None:
        """Write the repository's registry entry (under the lock); a store failure is logged only."""
        if not self.index.options.record:
            return
        try:
            link, code = self.index.link_read, self.index.resolver.code_gateways
            record_repository(self.index.graph, self.index.search, self.index.root, self.index.options,
                              applications=self.index.applications(), gateways=repository_gateways(link and link.gateways, code))
        except Exception:  # the index itself is written; the entry follows with the next one
            log.warning("writing the registry entry of %s failed", self.index.root, exc_info=True)
            return
        self._recorded_at, self._unrecorded = time.monotonic(), False

    def _notify(self, report: IndexReport, always: bool = False) -> None:
        if self.on_update is not None and (always or report.files_written or report.files_deleted):
            try:
                self.on_update(report)
            except Exception:
                log.exception("update callback failed")
