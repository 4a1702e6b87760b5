"""The ripplegraph language server (pygls): session state and the registry of LSP features.

The session (:class:`RippleServer`) owns the workspace folders and their indexes; every feature lives
in its own module under :mod:`lsp_server.features` as short handlers that convert (with
:mod:`lsp_server.convert`), make one :mod:`analysis.navigation` call and convert back. This module only
registers them (:func:`build_server`) and wraps each in :func:`_guarded`, which turns store failures
into an LSP error response with a clear message (plus one ``window/showMessage`` per distinct failure),
so the server never dies of a broken index.

Indexes: the folder ``F`` of a workspace is served from ``F/.ripple/index.db`` (the file ``ripple
index F`` writes). A background thread per folder brings it up to date (built when missing or of
another schema version, else only what changed since), reported with ``window/workDoneProgress``,
while requests answer from what has been written so far; then it watches the folder
(:class:`indexer.watch.Watcher`) and re-indexes saved, added, deleted and renamed files, holding the
index's writer lock around each update, while a second thread embeds new chunks. ``$RIPPLE_DB``,
when set, names the index of every folder (a one-folder workspace indexed elsewhere). A file outside
every workspace folder is never read.

Code lenses follow the index: every half second the server compares each folder's
``version_token`` (which moves when any process commits to the index) with the last one seen and
sends ``workspace/codeLens/refresh`` when it moved (at most once a second); its own watcher's
updates ask at once.
"""

from __future__ import annotations

import asyncio
import functools
import logging
import os
import sys
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

import filelock
from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from indexer.embedding import DEFAULT_BATCH, embed_pending
from indexer.fsguard import SkipFile, inside_root, read_regular
from indexer.incremental import RepositoryIndex
from indexer.run import IndexOptions, IndexReport
from indexer.state_budget import StateBudget
from indexer.watch import Watcher
from lsp_server.ensemble_support import ExtraModels
from lsp_server.convert import Converter, FileText, LineMap, parse_ripple_uri, ripple_uri
from lsp_server.protocol import RippleProtocol, read_frames, strict_converter
from lsp_server.state_support import budget_for, rebuild_progress
from lsp_server.team import StoreSession
from lsp_server.work_progress import WorkDoneProgress
from stores.contracts import GraphStore, Node, SearchIndex
from stores.embedded import EmbeddedStore
from stores.errors import StoreError, StoreReadOnly, StoreUnavailable
from stores.embedder import EmbedderError
from stores.factory import (DB_ENV, embed_lock, claim_repository, default_db_path, index_identity, open_embedder,
                            open_store, repository_name, state_dir, writer_lock)
from analysis.impact import DEFAULT_DEPTH
from analysis.navigation import UnionGraph, symbol_at

__all__ = ["RippleServer", "Folder", "build_server", "serve", "REQUEST_FAILED"]

log = logging.getLogger(__name__)

REQUEST_FAILED = -32803
"""LSP ``RequestFailed``: the answer for a store that is down or an index that cannot be read."""

POLL_SECONDS = 0.5
"""How often the server looks whether another process changed an index."""

INITIALIZE_SECONDS = 10.0
"""Over TCP, how long a connection may take to send an ``initialize`` with the token: one that has
not by then is closed, so an idle or hostile peer cannot keep the session's client out."""

_F = TypeVar("_F", bound=Callable[..., Any])


@dataclass(eq=False)
class Folder:
    """A workspace folder: its ``root``, ``repo`` name, index file ``db``, the reader ``store``
    (``None`` when it cannot be opened), ``state`` (``ready`` / ``indexing`` / ``error``) and the
    last ``error`` message."""

    uri: str
    root: Path
    repo: str
    db: Path
    store: EmbeddedStore | None = None
    state: str = "ready"
    error: str | None = None
    phase: str | None = None
    thread: threading.Thread | None = field(default=None, repr=False)
    watcher: Watcher | None = field(default=None, repr=False)
    stop: threading.Event = field(default_factory=threading.Event, repr=False)
    embed_wanted: threading.Event = field(default_factory=threading.Event, repr=False)
    token: str | None = field(default=None, repr=False)
    refreshed: float = field(default=0.0, repr=False)
    db_id: tuple[int, int] | None = field(default=None, repr=False)
    journal_ids: dict[str, tuple[int, int] | None] = field(default_factory=dict, repr=False)
    embed_thread: threading.Thread | None = field(default=None, repr=False)
    reopening: bool = field(default=False, repr=False)
    freshness: dict[str, Any] | None = None
    """The last freshness answer (:mod:`lsp_server.team`, ``ripple/status``)."""


@dataclass(frozen=True)
class Cursor:
    """A resolved text-document position: ``at`` is (1-based line, 0-based code-point column)."""

    repo: str
    path: str
    at: tuple[int, int]
    conv: Converter
    graph: GraphStore
    symbols: list[Node]


DISK_TEXT_CAP = 64_000_000
"""Largest file (bytes) whose text the server reads from disk."""


class RippleServer(LanguageServer):
    """The session: workspace folders with their indexes, the negotiated position encoding, and the
    helpers every feature handler uses (:meth:`graph`, :meth:`locate`, :meth:`converter`,
    :meth:`node_of`)."""

    hops = DEFAULT_DEPTH
    """Depth of the blast radius that hover and code lens summarise: the report's default, so they show
    its numbers."""

    embed = True
    """Compute embeddings in the background after indexing (``ripple serve --no-embed`` turns it off)."""

    def __init__(self) -> None:
        super().__init__("ripplegraph", "0.1.0", protocol_cls=RippleProtocol, converter_factory=strict_converter)
        self.folders: list[Folder] = []
        self.roots: list[Path] | None = None
        """Folders a workspace folder must lie in (``ripple serve --tcp``); ``None``: any."""
        self._closed = False
        self._reopen_lock = threading.Lock()
        self.progress_supported = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self._reported: set[str] = set()
        self._lines: OrderedDict[Path, tuple[tuple[int, int], list[str] | None]] = OrderedDict()
        self._where: dict[tuple[Path, str], tuple[Path | None, str]] = {}
        self._poller: threading.Thread | None = None
        self.session: StoreSession | None = None
        """The configured stores (:mod:`lsp_server.team`), made when the first folder opens."""
        self.state_budget: StateBudget | None = None
        """The memory budget over the folders' resolver state (:mod:`lsp_server.state_support`)."""

    # -------------------------------------------------------------------------------- lifecycle

    def call_soon(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the server's event loop (from any thread)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn)

    def add_folder(self, uri: str) -> Folder | None:
        """Open (or start building) the index of the workspace folder ``uri``. The folder is indexed
        under the name recorded for it in the index (:func:`stores.factory.repository_name`), never
        under the name of a repository indexed from another folder: such a clash leaves the folder
        in state ``error`` with the reason (and a ``window/showMessage``). With :attr:`roots` set
        (TCP), a folder outside them is refused."""
        path = to_fs_path(uri) if isinstance(uri, str) and uri.startswith("file:") else None
        if not path or not Path(path).is_dir():
            self.report(f"ripple: workspace folder {uri} is not a local directory; skipped")
            return None
        root = Path(path).resolve()
        if self.roots is not None and not any(root == r or root.is_relative_to(r) for r in self.roots):
            allowed = ", ".join(str(r) for r in self.roots)
            self.report(f"ripple: workspace folder {root} is outside the folders this server may serve ({allowed}; "
                        "`ripple serve --root DIR`); skipped")
            return None
        try:
            session = self.session = self.session or StoreSession.for_folder(self, root)
        except StoreError as exc:
            self.report(f"ripple: {exc}")
            return None
        db = Path(os.environ[DB_ENV]) if os.environ.get(DB_ENV) else session.config.db or default_db_path(root)
        folder = Folder(uri, root, root.name, db)
        try:
            if session.needs_file:  # the embedded parts: the graph, the chunks, or both
                if not session.index_workspace and not folder.db.exists():
                    raise StoreUnavailable(f"no index at {folder.db} ([server] index_workspace = false: this server "
                                           "only reads; run `ripple index` or the central indexer)")
                try:
                    folder.store = open_store(folder.db, create=session.index_workspace)
                except StoreReadOnly as exc:  # answered as indexed; never updated (no watcher)
                    folder.store, folder.error = open_store(folder.db), str(exc)
                    self.report(f"ripple: {exc}")
                _remember_identity(folder)
            graph = session.graph or folder.store
            folder.repo = repository_name(graph, folder.db, root)
            if self.writes(folder):  # a read-only index is never written: nothing to claim
                claim_repository(graph, folder.db, folder.repo, root)
        except StoreError as exc:
            if folder.store is not None:
                folder.store.close()
                folder.store = None
            folder.state, folder.error = "error", str(exc)
            if not (session.team and session.retry_later(folder, exc)):  # a server down: open it again later
                self.report(f"ripple: {exc}")
        self.folders.append(folder)
        if self.writes(folder):
            self._start(folder)
        elif folder.state != "error":
            folder.phase = "done"
        self._poll_index_changes()
        session.start_freshness()
        return folder

    def writes(self, folder: Folder) -> bool:
        """Whether this server indexes ``folder`` (``[server] index_workspace`` and a writable index)."""
        session = self.session
        if session is None or not session.index_workspace or folder.state == "error":
            return False
        return folder.store is not None and not folder.store.read_only if session.needs_file else True

    def restart_folder(self, folder: Folder) -> None:
        """Close ``folder`` and open it again (its stores reconnect, its indexing starts over)."""
        if folder in self.folders:
            self.remove_folder(folder.uri)
            self.add_folder(folder.uri)

    def remove_folder(self, uri: str) -> None:
        """Forget the folder ``uri`` and stop watching it (its index file stays on disk; its threads
        end in the background)."""
        for folder in [f for f in self.folders if f.uri.rstrip("/") == uri.rstrip("/")]:
            self.folders.remove(folder)
            folder.stop.set()
            store, folder.store = folder.store, None  # on the event loop, where requests read it
            if store is not None:
                store.close()
            threading.Thread(target=self._close_folder, args=(folder, 30.0), daemon=True,
                             name=f"ripple-close-{folder.repo}").start()

    def _close_folder(self, folder: Folder, timeout: float) -> bool:
        """Stop ``folder``'s threads, wait for them (at most ``timeout`` seconds in all) and close its
        reader; ``True`` when every thread ended."""
        folder.stop.set()
        deadline = time.monotonic() + timeout
        ended = True
        for thread in (folder.thread, folder.embed_thread):
            if thread is not None and thread is not threading.current_thread():
                thread.join(max(0.0, deadline - time.monotonic()))
                ended = ended and not thread.is_alive()
        store, folder.store = folder.store, None
        if store is not None:
            store.close()
        return ended

    def close_session(self, timeout: float = 20.0) -> None:
        """Orderly end (``shutdown`` / ``exit`` / end of input): stop every folder's watcher and
        embedding thread, wait for them (at most ``timeout`` seconds in all; the embedding stops
        within one small batch), close every store. Idempotent."""
        if self._closed:
            return
        self._closed = True
        deadline = time.monotonic() + timeout
        for folder in self.folders:
            folder.stop.set()
        if self.state_budget is not None:
            self.state_budget.stop()
        if self.session is not None:
            self.session.close()
        for folder in list(self.folders):
            if not self._close_folder(folder, max(0.0, deadline - time.monotonic())):
                log.warning("threads of %s did not stop within %.0f s", folder.root, timeout)

    def shutdown(self) -> None:
        """pygls' end of the server (after ``exit`` or the end of input): the session first."""
        self.close_session()
        super().shutdown()

    # ------------------------------------------------------------------------------ transports

    def run_stdio(self) -> int:
        """Serve one session over stdin/stdout until ``exit`` or the end of input; the exit code
        (see :func:`serve`). Frames are read by a daemon thread into an asyncio stream and parsed
        by :func:`lsp_server.protocol.read_frames`."""
        from pygls.io_ import StdoutWriter

        self._stop_event = threading.Event()
        self.protocol.set_writer(StdoutWriter(sys.stdout.buffer))
        stdin = sys.stdin.fileno()  # raw reads: a buffered reader's lock would trouble the interpreter's exit

        async def main() -> None:
            loop = asyncio.get_running_loop()
            reader = asyncio.StreamReader(limit=1 << 16)

            def pump() -> None:
                try:
                    while chunk := os.read(stdin, 1 << 16):
                        loop.call_soon_threadsafe(reader.feed_data, chunk)
                except (OSError, ValueError, RuntimeError):
                    pass
                try:
                    loop.call_soon_threadsafe(reader.feed_eof)
                except RuntimeError:
                    pass  # the loop is gone: the session ended first

            threading.Thread(target=pump, daemon=True, name="ripple-stdin").start()
            await read_frames(reader, self.protocol)  # type: ignore[arg-type]

        return self._run(main())

    def run_tcp(self, host: str, port: int, on_listen: Callable[[str, int], None] | None = None) -> int:
        """Serve one authenticated session over TCP on ``host``:``port`` (``0``: any free port):
        connections are taken one at a time; one whose ``initialize`` lacks the token, or that has
        not initialized within :data:`INITIALIZE_SECONDS`, is closed and the next awaited; once a
        session is initialized other connections are closed at once, and its end ends the server.
        The exit code (see :func:`serve`)."""
        self._stop_event = threading.Event()
        protocol: Any = self.protocol
        busy: list[asyncio.StreamWriter] = []

        async def main() -> None:
            done = asyncio.get_running_loop().create_future()

            async def connection(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
                if busy or done.done():
                    writer.close()
                    return
                busy.append(writer)
                refused: list[bool] = []

                def refuse() -> None:  # nothing more is read from it, and the next client may come
                    refused.append(True)
                    writer.close()
                    if busy and busy[0] is writer:
                        busy.clear()

                def too_late() -> None:
                    if not protocol.initialized and not refused:
                        log.warning("a TCP connection sent no initialize with the token within %.0f s: closed",
                                    INITIALIZE_SECONDS)
                        refuse()

                protocol.set_writer(writer)
                protocol.on_refused = refuse
                deadline = asyncio.get_running_loop().call_later(INITIALIZE_SECONDS, too_late)
                try:
                    await read_frames(reader, protocol, closed=lambda: bool(refused))
                finally:
                    deadline.cancel()
                    writer.close()
                    if busy and busy[0] is writer:
                        busy.clear()
                    if protocol.initialized and not refused and not done.done():
                        done.set_result(None)

            server = await asyncio.start_server(connection, host, port, limit=1 << 16)
            bound = server.sockets[0].getsockname()
            if on_listen is not None:
                on_listen(str(bound[0]), int(bound[1]))
            async with server:
                await done

        return self._run(main())

    def _run(self, main: Any) -> int:
        code = 1
        try:
            asyncio.run(main)
        except SystemExit as exc:  # pygls' exit handler: 0 after shutdown, 1 without
            code = exc.code if isinstance(exc.code, int) else 1
        except BrokenPipeError:
            log.error("the connection to the client is lost: shutting down")
        except KeyboardInterrupt:
            pass
        finally:
            self.shutdown()
        return code

    def check_index(self, folder: Folder) -> bool:
        """Whether ``folder``'s index file is still the one its stores have open; when it was deleted
        or replaced (another device/inode, or gone), start reopening it (rebuilt when gone), tell
        the editor, and return ``False``. Any thread."""
        if self.session is not None and not self.session.needs_file:
            return True  # no index file: the stores are servers
        with self._reopen_lock:  # the poller and a watcher thread may look at once: one reopens
            if folder.db_id is None or folder.reopening or folder not in self.folders or self._closed:
                return folder.db_id is not None and not folder.reopening
            now = index_identity(folder.db)
            if now == folder.db_id:
                return True
            folder.reopening = True
        what = "deleted" if now is None else "replaced"
        verb = "rebuilding" if now is None else "reopening"
        message = f"ripple: the index {folder.db} of {folder.repo} was {what} while the server ran; {verb} it"
        log.warning("%s", message)
        self.call_soon(lambda: self.report(message, types.MessageType.Warning))
        folder.state, folder.phase = "indexing", "reopen"
        threading.Thread(target=self._reopen, args=(folder,), daemon=True, name=f"ripple-reopen-{folder.repo}").start()
        return False

    def _reopen(self, folder: Folder) -> None:
        """Close every connection to the vanished or replaced index file, then open the file now at
        its path (created when gone) and sync it with the folder in a fresh watcher thread."""
        old_stop = folder.stop
        old_stop.set()
        for thread in (folder.thread, folder.embed_thread):
            if thread is not None:
                thread.join(60.0)
        closed = threading.Event()

        def close_reader() -> None:  # on the event loop, where requests read it
            store, folder.store = folder.store, None
            if store is not None:
                store.close()
            closed.set()

        self.call_soon(close_reader)
        if not closed.wait(30.0):
            log.warning("the reader of %s did not close: the index is reopened anyway", folder.db)
        # The WAL and shared-memory files this server had open belong to the old file: a connection
        # to the new one would replay their pages into it. Others' (a live writer of the new file) stay.
        gone = index_identity(folder.db) is None
        for suffix, ours in folder.journal_ids.items():
            journal = Path(f"{folder.db}{suffix}")
            if gone or (ours is not None and index_identity(journal) == ours):
                journal.unlink(missing_ok=True)

        def restart() -> None:
            if folder not in self.folders or self._closed:
                return
            folder.token = None
            try:
                folder.store = open_store(folder.db, create=True)
                _remember_identity(folder)
                claim_repository((self.session.graph if self.session else None) or folder.store, folder.db, folder.repo,
                                 folder.root)
            except StoreError as exc:
                folder.state, folder.error, folder.phase = "error", str(exc), None
                self.report(f"ripple: {exc}")
                return
            finally:
                folder.reopening = False
            self._start(folder)

        self.call_soon(restart)

    def reindex(self, folder: Folder) -> bool:
        """Bring ``folder``'s index in line with the whole tree again (a full sync in its watcher's
        thread; a rebuild when the index file was deleted or replaced); ``False`` when the first run
        is still under way."""
        if not self.check_index(folder):
            return True
        if folder.state == "indexing":
            return False
        if folder.watcher is not None and folder.thread is not None and folder.thread.is_alive():
            # Progress like the first run's, so editors show the reindex running and ending.
            # (folder.state stays "ready": the index keeps answering while it is brought up to date.)
            sink = WorkDoneProgress(self, folder)
            sink.open()

            def done(report: IndexReport | None) -> None:
                sink.close(f"{report.files_indexed} files indexed" if report is not None else "failed")

            folder.watcher.request_sync(sink, done)
            return True
        if not self.writes(folder):
            return False
        self._start(folder)
        return True

    def _start(self, folder: Folder) -> None:
        folder.state, folder.error = "indexing", None
        folder.stop = threading.Event()
        sink = WorkDoneProgress(self, folder)
        folder.thread = threading.Thread(target=self._watch, args=(folder, sink), daemon=True,
                                         name=f"ripple-watch-{folder.repo}")
        folder.thread.start()

    def _watch(self, folder: Folder, sink: WorkDoneProgress) -> None:
        """The folder's thread: sync its index, then keep it current until the folder goes (its
        ``stop`` event is set: closed, removed, or its index file reopened by a new thread)."""
        stop = folder.stop
        sink.open()
        assert self.session is not None
        try:
            writers = self.session.writers(folder)
        except StoreError as exc:
            self._failed(folder, sink, exc)
            return
        # One process: forking extraction workers from a threaded server is not safe. Large
        # repositories are faster indexed beforehand with `ripple index` (parallel, same cache).
        options = IndexOptions(repo=folder.repo, jobs=1, state_dir=str(state_dir(folder.db)),
                               http_services=_http_services(folder.root), doc_folders=_doc_folders(folder.root))
        index = RepositoryIndex(folder.root, writers.graph, writers.search, options)
        lock = writer_lock(folder.db)

        def locked() -> Any:  # before each run: the index file must still be the one open here
            self.check_index(folder)
            return lock

        def updated(report: IndexReport) -> None:
            if not stop.is_set():  # a thread being replaced says nothing more about the folder
                self._updated(folder, sink, report)

        folder.watcher = watcher = Watcher(index, lock=locked, on_update=updated)
        watcher.rebuild_progress = rebuild_progress(lambda: WorkDoneProgress(self, folder))
        budget = self.state_budget = self.state_budget or budget_for(self.session.config)
        budget.add(watcher)  # idle folders give their resolver state back above the budget
        try:
            watcher.run(stop, sink)
        except Exception as exc:  # the first run failed: this folder's index, never the server
            if not stop.is_set():
                self._failed(folder, sink, exc)
        finally:
            budget.remove(watcher)
            index.close()
            writers.close()

    def _failed(self, folder: Folder, sink: WorkDoneProgress, exc: Exception) -> None:
        if self.session is not None and self.session.retry_later(folder, exc):  # a store is down: again later
            sink.close("waiting for the stores")
            return
        log.error("indexing %s failed: %s", folder.root, exc, exc_info=not isinstance(exc, StoreError))
        folder.state, folder.error = "error", f"indexing {folder.root} failed: {exc}"
        sink.close("failed")
        self.call_soon(lambda: self.report(f"ripple: {folder.error}"))

    def _updated(self, folder: Folder, sink: WorkDoneProgress, report: IndexReport) -> None:
        """After the first sync and after each update that wrote something (watcher thread)."""
        if folder.state == "indexing":
            folder.state = "ready"
            message = f"{report.files_indexed} files indexed"
            if self.embed:
                folder.embed_thread = threading.Thread(target=self._embed_loop, args=(folder, sink, message), daemon=True,
                                                       name=f"ripple-embed-{folder.repo}")
                folder.embed_thread.start()
            else:
                sink.close(message)
        else:
            folder.embed_wanted.set()
        self.call_soon(lambda: self._index_changed(folder, now=True))
        if self.session is not None:
            self.session.indexed(folder)  # the commit now indexed, for freshness (after the lenses' refresh)

    def _embed_loop(self, folder: Folder, sink: WorkDoneProgress, message: str) -> None:
        """Give the folder's chunks their vectors after the graph answers (search uses BM25 for the
        rest meanwhile), then the chunks of every update. A model that cannot load costs semantic
        search, never the server."""
        stop = folder.stop
        try:
            embedder = _Stoppable(open_embedder(), stop)
            assert self.session is not None
            extra = ExtraModels(self.session.config.search.models, None, self.session.config.models_dir,
                                wrap=lambda e: _Stoppable(e, stop), on_error=lambda n, m: self.call_soon(
                                    lambda: self.report(f"ripple: no {n} embeddings ({m})", types.MessageType.Warning)))
            writers = self.session.writers(folder)
            writer = writers.search
        except (EmbedderError, StoreError) as exc:
            sink.close(message)
            warning = f"ripple: no embeddings for {folder.repo} ({exc}); search uses BM25 alone"
            self.call_soon(lambda: self.report(warning, types.MessageType.Warning))
            return
        closed = False
        lock = embed_lock(folder.db)

        def turn(progress: WorkDoneProgress | None = None) -> None:
            try:
                lock.acquire(timeout=0)
            except filelock.Timeout:  # another process embeds this index (`ripple index --embed=background`)
                folder.embed_wanted.set()  # what it leaves, this thread takes after it
                time.sleep(1.0)
                return
            try:
                embed_pending(writer, embedder, progress)
                extra.embed(writer)  # each other model of [search] models (lsp_server.ensemble_support)
            finally:
                lock.release()

        try:
            turn(sink)
            sink.close(message)
            closed = True
            while not stop.is_set():
                if folder.embed_wanted.wait(0.5):
                    folder.embed_wanted.clear()
                    try:
                        turn()
                    except StoreUnavailable:  # another process holds the index a while: retry
                        folder.embed_wanted.set()
                        time.sleep(1.0)
        except _Stopped:
            log.info("embedding %s stopped: the folder closes", folder.repo)
        except (EmbedderError, StoreError) as exc:
            log.warning("embedding %s stopped: %s", folder.repo, exc)
        finally:
            if not closed:
                sink.close(message)
            writers.close()

    def _poll_index_changes(self) -> None:
        """Start (once) the thread that looks for index changes made by any process."""
        if self._poller is not None:
            return

        def poll() -> None:
            while not self._closed:
                time.sleep(POLL_SECONDS)
                for folder in list(self.folders):
                    if self.check_index(folder):
                        self.call_soon(lambda f=folder: self._index_changed(f))  # type: ignore[misc]

        self._poller = threading.Thread(target=poll, daemon=True, name="ripple-index-poller")
        self._poller.start()

    def _index_changed(self, folder: Folder, now: bool = False) -> None:
        """On the event loop: refresh code lenses when the folder's index moved since last seen (at
        most once a second unless ``now``: this server's own update)."""
        store = folder.store or (self.session.graph if self.session is not None else None)
        if store is None or folder.state == "error" or folder not in self.folders:
            return
        try:
            token = store.version_token()
        except StoreError:
            return
        if token == folder.token:
            return
        first = folder.token is None
        if not first and not now and time.monotonic() - folder.refreshed < 1.0:
            return  # the next poll sends it
        folder.token = token
        if not first or now:
            folder.refreshed = time.monotonic()
            self.refresh_lenses()

    def refresh_lenses(self) -> None:
        """Ask the client to refresh its code lenses (when it can)."""
        lens_refresh = self.client_capabilities.workspace and self.client_capabilities.workspace.code_lens
        if lens_refresh and lens_refresh.refresh_support:
            self.workspace_code_lens_refresh(None)

    def report(self, message: str, kind: types.MessageType = types.MessageType.Error) -> None:
        """``window/showMessage``, once per distinct message."""
        if message in self._reported:
            return
        self._reported.add(message)
        log.warning("%s", message)
        self.window_show_message(types.ShowMessageParams(kind, message))

    # ---------------------------------------------------------------------------- for features

    def graph(self) -> GraphStore:
        """Every folder's index as one read-only graph (folders whose index failed are left out;
        when none can be read the request fails with their error: raises
        :class:`~stores.errors.StoreError` naming each folder's)."""
        if self.session is not None and self.session.graph is not None:
            return self.session.graph  # the shared graph: every repository the team indexed
        # One store per index file: folders indexed into one file (a central index) would answer every read once each.
        stores = list({f.db: f.store for f in self.folders if f.store is not None and f.state != "error"}.values())
        if not stores:
            errors = "; ".join(f.error for f in self.folders if f.error) or "no workspace folder is indexed"
            raise StoreError(errors)
        return UnionGraph(stores)

    def search_sources(self) -> list[tuple[GraphStore, SearchIndex]]:
        """``(graph, search index)`` pairs a search runs over: the shared index, else each readable
        folder's index file, once per file (folders indexed into one file share it; its own graph, or the
        shared graph beside it)."""
        session = self.session
        if session is not None and session.search is not None:
            return [(self.graph(), session.search)]
        files = list({f.db: f.store for f in self.folders if f.store is not None and f.state != "error"}.values())
        if session is not None and session.graph is not None:
            return [(session.graph, s) for s in files]
        return [(s, s) for s in files]

    def folder_of_path(self, path: Path) -> Folder | None:
        """The innermost workspace folder containing ``path``."""
        inside = [f for f in self.folders if path == f.root or path.is_relative_to(f.root)]
        return max(inside, key=lambda f: len(f.root.parts), default=None)

    def locate(self, uri: str) -> tuple[str, str]:
        """``(repo, path)`` of a document URI (``file:`` inside a workspace folder, or ``ripple:``);
        raises InvalidParams for a file outside every workspace folder."""
        ripple = parse_ripple_uri(uri)
        if ripple is not None:
            return ripple
        fs = to_fs_path(uri) if uri.startswith("file:") else None
        folder = self.folder_of_path(Path(fs).resolve()) if fs else None
        if folder is None:
            raise JsonRpcInvalidParams(f"{uri} is not inside a workspace folder of this server")
        return folder.repo, Path(fs).resolve().relative_to(folder.root).as_posix()  # type: ignore[arg-type]

    def at_cursor(self, uri: str, position: types.Position) -> Cursor | None:
        """What a position request is about: the file, the converter, the graph and the symbols
        (innermost first) at ``position``; ``None`` when the position is not in the file."""
        repo, path = self.locate(uri)
        conv = self.converter()
        at = conv.from_position(repo, path, position)
        if at is None:
            return None
        graph = self.graph()
        return Cursor(repo, path, at, conv, graph, symbol_at(graph, repo, path, *at))

    def converter(self) -> Converter:
        """A :class:`Converter` for one request, in the negotiated position encoding."""
        return Converter(str(self.workspace.position_encoding or types.PositionEncodingKind.Utf16), self._file_text)

    def node_of(self, item: types.CallHierarchyItem) -> Node | None:
        """Re-resolve a call-hierarchy item from the node id in its ``data`` (``None``: no longer
        indexed); an item without ripple's ``data`` raises ``JsonRpcInvalidParams``."""
        node_id = item.data.get("id") if isinstance(item.data, dict) else getattr(item.data, "id", None)
        if not isinstance(node_id, str):
            raise JsonRpcInvalidParams("call hierarchy item without ripple data (prepare it again)")
        return self.graph().get_nodes([node_id]).get(node_id)

    def _file_text(self, repo: str, path: str) -> FileText:
        folder = next((f for f in self.folders if f.repo == repo), None)
        if folder is None:  # a repository not on this disk: the text kept in the index
            stored = self.graph().file_text(repo, path)
            return FileText(ripple_uri(repo, path), stored.splitlines() if stored is not None else None)
        where = self._where.get((folder.root, path))
        if where is None:
            where = self._resolve(folder.root, repo, path)
        abs_path, uri = where
        if abs_path is None:  # the indexer's rule: never read outside
            return FileText(uri, None)
        disk = self.disk_lines(abs_path, folder.root)
        doc = self.workspace.text_documents.get(uri)
        if doc is None or disk is None:
            return FileText(uri, disk)
        buffer = doc.source.splitlines()
        if buffer == disk:
            return FileText(uri, disk)
        return FileText(uri, disk, buffer, LineMap(buffer, disk))

    def _resolve(self, root: Path, repo: str, path: str) -> tuple[Path | None, str]:
        """``(real path, uri)`` of ``path`` in the folder at ``root`` (``(None, ripple: uri)`` when its
        real location is outside ``root``), kept for later requests: resolving costs a system call
        per path component, and a workspace-symbol answer names up to 100 files. A link changed
        later keeps its first real path, which was inside ``root``."""
        if not inside_root(root, root / path):
            where: tuple[Path | None, str] = (None, ripple_uri(repo, path))
        else:
            abs_path = (root / path).resolve()
            where = (abs_path, from_fs_path(str(abs_path)) or ripple_uri(repo, path))
        if len(self._where) >= 50_000:
            self._where.clear()
        self._where[(root, path)] = where
        return where

    def disk_lines(self, path: Path, root: Path | None = None) -> list[str] | None:
        """The lines of ``path`` (cached while its mtime and size hold), ``None`` when unreadable or,
        with ``root``, when the file opened is not inside ``root`` (a link swapped since ``path`` was
        resolved). Callers check ``path`` is inside a workspace folder."""
        try:
            st = path.stat()
        except OSError:
            return None
        key = (st.st_mtime_ns, st.st_size)
        hit = self._lines.get(path)
        if hit is not None and hit[0] == key:
            self._lines.move_to_end(path)
            return hit[1]
        try:  # a FIFO or device is never opened in a way that blocks (indexer.fsguard)
            lines: list[str] | None = read_regular(path, DISK_TEXT_CAP, None if root is None else str(root)).decode(
                "utf-8", "replace").splitlines()
        except SkipFile:
            lines = None
        self._lines[path] = (key, lines)
        if len(self._lines) > 2000:
            self._lines.popitem(last=False)
        return lines


def _remember_identity(folder: Folder) -> None:
    """Record the identity of ``folder``'s index file and of its WAL / shared-memory files as this
    server opened them (see :meth:`RippleServer.check_index`)."""
    folder.db_id = index_identity(folder.db)
    folder.journal_ids = {suffix: index_identity(Path(f"{folder.db}{suffix}")) for suffix in ("-wal", "-shm")}


class _Stopped(Exception):
    """The folder closed while its chunks were being embedded."""


class _Stoppable:
    """An embedder that checks ``stop`` between small batches (so a closing server waits at most
    one batch of the model, about half a second, instead of a whole fetch) and raises
    :class:`_Stopped` once it is set."""

    STEP = 64

    def __init__(self, embedder: Any, stop: threading.Event) -> None:
        self._embedder, self._stop = embedder, stop
        self.model_id = embedder.model_id

    def embed(self, texts: Any, batch_size: int = DEFAULT_BATCH) -> list[Any]:
        """Vectors for ``texts`` in order (see :class:`indexer.embedding.TextEmbedder`)."""
        out: list[Any] = []
        for at in range(0, len(texts), self.STEP):
            if self._stop.is_set():
                raise _Stopped()
            out.extend(self._embedder.embed(texts[at:at + self.STEP], batch_size))
        return out


def _doc_folders(root: Path) -> tuple[str, ...]:
    """The folder's ``[docs] folders`` (:func:`stores.config.doc_folders_of`)."""
    from stores.config import doc_folders_of

    return doc_folders_of(root)


def _http_services(root: Path) -> dict[str, str]:
    """The ``[http.services]`` map of the folder's configuration (none when it cannot be read)."""
    from stores.config import load_config

    try:
        return dict(load_config(root).http_services)
    except StoreError as exc:
        log.warning("configuration of %s unreadable (%s): HTTP links without a service map", root, exc)
        return {}


def _guarded(server: RippleServer, handler: _F) -> _F:
    """``handler`` guarded (pygls passes the session as its ``ls`` argument); a store failure becomes an LSP
    ``RequestFailed`` error with its message (and one ``window/showMessage``); another exception is
    logged and answered with InternalError. Protocol errors (InvalidParams…) pass unchanged."""

    @functools.wraps(handler)
    def wrapper(*args: Any) -> Any:
        try:
            return handler(*args)  # pygls passes the session first: the handler's first parameter is `ls`
        except JsonRpcException:
            raise
        except StoreError as exc:
            server.report(f"ripple: {exc}")
            raise JsonRpcException(f"ripple: {exc}", REQUEST_FAILED) from exc
        except Exception as exc:
            log.exception("%s failed", handler.__qualname__)
            raise JsonRpcInternalError(f"ripple: internal error in {handler.__module__}: {exc}") from exc

    return wrapper  # type: ignore[return-value]


def build_server() -> RippleServer:
    """A server with every feature registered."""
    from lsp_server.features import call_hierarchy, code_lens, custom, hover, lifecycle, references, symbols

    server = RippleServer()
    protocol: Any = server.protocol
    for module in (lifecycle, call_hierarchy, references, hover, code_lens, symbols, custom):
        protocol.message_types.update(getattr(module, "MESSAGE_TYPES", {}))
        for method, options, handler in module.FEATURES:
            server.feature(method, options)(_guarded(server, handler))
        for name, handler in getattr(module, "COMMANDS", ()):
            server.command(name)(_command(_guarded(server, handler)))
    return server


def _command(handler: Callable[..., Any]) -> Callable[..., Any]:
    """A command handler as pygls dispatches ``workspace/executeCommand``: pygls reads the type hints
    of the handler it is given to convert the arguments, and the features' hints name the session
    only for type checkers; this wrapper's own hints are the ones it reads, the arguments go through
    as they came."""

    def run(ls: RippleServer, *args: Any) -> Any:
        return handler(ls, *args)

    run.__name__ = run.__qualname__ = getattr(handler, "__name__", "command")
    return run


def serve(tcp: tuple[str, int] | None = None, embed: bool = True, token: str | None = None,
          roots: list[Path] | None = None, on_listen: Callable[[str, int], None] | None = None) -> int:
    """Run the server over stdio, or over TCP on ``(host, port)`` (one authenticated session: the
    client must present ``token`` in ``initializationOptions.token``; workspace folders must lie in
    ``roots``; ``on_listen(host, port)`` is called once listening). ``embed=False`` leaves chunks
    without embeddings (search is BM25 alone). Returns the exit code: 0 after ``shutdown`` +
    ``exit``, 1 for ``exit`` without ``shutdown`` or the end of input without ``exit``. Raises
    ``ValueError`` for TCP without a ``token``."""
    server = build_server()
    server.embed = embed
    if tcp is None:
        code = server.run_stdio()
    else:
        if not token:
            raise ValueError("a TCP server needs a token")
        server.protocol.token = token  # type: ignore[attr-defined]
        server.roots = [r.resolve() for r in roots] if roots is not None else [Path.cwd().resolve()]
        code = server.run_tcp(*tcp, on_listen=on_listen)
    stuck = [t.name for t in threading.enumerate() if t.name.startswith(("ripple-watch", "ripple-embed")) and t.is_alive()]
    if stuck:  # a thread in native code (the model, a parser) must not meet the interpreter's teardown
        log.warning("ending with %s still running", ", ".join(stuck))
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(code)
    return code
