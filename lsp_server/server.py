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
import threading
import time
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TypeVar

from lsprotocol import types
from pygls.exceptions import JsonRpcException, JsonRpcInternalError, JsonRpcInvalidParams
from pygls.lsp.server import LanguageServer
from pygls.uris import from_fs_path, to_fs_path

from indexer.embedding import embed_pending
from indexer.fsguard import SkipFile, inside_root, read_regular
from indexer.incremental import RepositoryIndex
from indexer.run import IndexOptions, IndexReport
from indexer.watch import Watcher
from lsp_server.convert import Converter, FileText, LineMap, parse_ripple_uri, ripple_uri
from stores.contracts import GraphStore, Node
from stores.embedded import EmbeddedStore
from stores.errors import StoreError, StoreReadOnly, StoreUnavailable
from stores.embedder import EmbedderError
from stores.factory import DB_ENV, default_db_path, open_embedder, open_store, state_dir, writer_lock
from analysis.navigation import UnionGraph, symbol_at

__all__ = ["RippleServer", "Folder", "build_server", "serve", "REQUEST_FAILED"]

log = logging.getLogger(__name__)

REQUEST_FAILED = -32803
"""LSP ``RequestFailed``: the answer for a store that is down or an index that cannot be read."""

POLL_SECONDS = 0.5
"""How often the server looks whether another process changed an index."""

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


@dataclass(frozen=True)
class Cursor:
    """A resolved text-document position: ``at`` is (1-based line, 0-based code-point column)."""

    repo: str
    path: str
    at: tuple[int, int]
    conv: Converter
    graph: GraphStore
    symbols: list[Node]


class _WorkDoneProgress:
    """The indexer's :class:`indexer.run.ProgressSink` as ``window/workDoneProgress``; called
    from the indexing thread, it hands every message to the server's event loop."""

    def __init__(self, server: RippleServer, folder: Folder) -> None:
        self.server, self.folder = server, folder
        self.token = f"ripple-index-{folder.repo}-{id(self)}"
        self.total: int | None = None
        self.count = 0
        self.last = -1
        self.begun = False
        self.ended: str | None = None

    def open(self) -> None:
        """Create the token; ``begin`` follows the client's answer (reports before it are dropped)."""
        def begun(*_: Any) -> None:
            self.begun = True
            self.server.work_done_progress.begin(self.token, types.WorkDoneProgressBegin(
                title=f"ripple: indexing {self.folder.repo}", cancellable=False, percentage=0))
            if self.ended is not None:
                self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=self.ended))

        def send() -> None:
            if self.server.progress_supported:
                self.server.work_done_progress.create(self.token, begun)
        self.begun, self.ended = False, None
        self.server.call_soon(send)

    def start(self, phase: str, total: int | None) -> None:
        """A pipeline phase begins."""
        self.folder.phase, self.total, self.count, self.last = phase, total, 0, -1
        self._report(f"{phase}…")

    def advance(self, n: int = 1) -> None:
        """Progress within the phase (reported at most once per percent)."""
        self.count += n
        if self.total:
            pct = min(100, 100 * self.count // self.total)
            if pct != self.last:
                self.last = pct
                self._report(f"{self.folder.phase} {self.count}/{self.total}", pct)

    def done(self, phase: str) -> None:
        """A pipeline phase is over."""

    def close(self, message: str) -> None:
        """Send ``end`` (after ``begin``, whenever the client answers); the folder's phase becomes
        ``done`` on the event loop, after the message, so ``ripple/indexStatus`` never runs ahead."""
        def send() -> None:
            if self.begun:
                self.server.work_done_progress.end(self.token, types.WorkDoneProgressEnd(message=message))
            else:
                self.ended = message
            self.folder.phase = "done"
        self.server.call_soon(send)

    def _report(self, message: str, pct: int | None = None) -> None:
        def send() -> None:
            if self.begun and self.ended is None:
                self.server.work_done_progress.report(
                    self.token, types.WorkDoneProgressReport(message=message, percentage=pct))
        self.server.call_soon(send)


DISK_TEXT_CAP = 64_000_000
"""Largest file (bytes) whose text the server reads from disk."""


class RippleServer(LanguageServer):
    """The session: workspace folders with their indexes, the negotiated position encoding, and the
    helpers every feature handler uses (:meth:`graph`, :meth:`locate`, :meth:`converter`,
    :meth:`node_of`)."""

    hops = 5
    """Depth of the blast radius that hover and code lens summarise (the design's default)."""

    embed = True
    """Compute embeddings in the background after indexing (``ripple serve --no-embed`` turns it off)."""

    def __init__(self) -> None:
        super().__init__("ripplegraph", "0.1.0")
        self.folders: list[Folder] = []
        self.progress_supported = False
        self.loop: asyncio.AbstractEventLoop | None = None
        self._reported: set[str] = set()
        self._lines: OrderedDict[Path, tuple[tuple[int, int], list[str] | None]] = OrderedDict()
        self._poller: threading.Thread | None = None

    # -------------------------------------------------------------------------------- lifecycle

    def call_soon(self, fn: Callable[[], None]) -> None:
        """Run ``fn`` on the server's event loop (from any thread)."""
        if self.loop is not None and not self.loop.is_closed():
            self.loop.call_soon_threadsafe(fn)

    def add_folder(self, uri: str) -> Folder | None:
        """Open (or start building) the index of the workspace folder ``uri``."""
        path = to_fs_path(uri)
        if not path or not Path(path).is_dir():
            self.report(f"ripple: workspace folder {uri} is not a local directory; skipped")
            return None
        root = Path(path).resolve()
        db = Path(os.environ[DB_ENV]) if os.environ.get(DB_ENV) else default_db_path(root)
        folder = Folder(uri, root, root.name, db)
        try:
            try:
                folder.store = open_store(folder.db, create=True)
            except StoreReadOnly as exc:  # answered as indexed; never updated (no watcher)
                folder.store, folder.error = open_store(folder.db), str(exc)
                self.report(f"ripple: {exc}")
            repos = folder.store.repos()
            if len(repos) == 1:
                folder.repo = repos[0]
        except StoreError as exc:
            folder.state, folder.error = "error", str(exc)
            self.report(f"ripple: {exc}")
        self.folders.append(folder)
        if folder.store is not None and not folder.store.read_only:
            self._start(folder)
        self._poll_index_changes()
        return folder

    def remove_folder(self, uri: str) -> None:
        """Forget the folder ``uri`` and stop watching it (its index file stays on disk)."""
        for folder in [f for f in self.folders if f.uri.rstrip("/") == uri.rstrip("/")]:
            self.folders.remove(folder)
            folder.stop.set()
            if folder.store is not None:
                folder.store.close()

    def reindex(self, folder: Folder) -> bool:
        """Bring ``folder``'s index in line with the whole tree again (a full sync in its watcher's
        thread); ``False`` when the first run is still under way."""
        if folder.state == "indexing":
            return False
        if folder.watcher is not None and folder.thread is not None and folder.thread.is_alive():
            # Progress like the first run's, so editors show the reindex running and ending.
            # (folder.state stays "ready": the index keeps answering while it is brought up to date.)
            sink = _WorkDoneProgress(self, folder)
            sink.open()

            def done(report: IndexReport | None) -> None:
                sink.close(f"{report.files_indexed} files indexed" if report is not None else "failed")

            folder.watcher.request_sync(sink, done)
            return True
        if folder.store is None or folder.store.read_only:
            return False
        self._start(folder)
        return True

    def _start(self, folder: Folder) -> None:
        folder.state, folder.error = "indexing", None
        folder.stop = threading.Event()
        sink = _WorkDoneProgress(self, folder)
        folder.thread = threading.Thread(target=self._watch, args=(folder, sink), daemon=True,
                                         name=f"ripple-watch-{folder.repo}")
        folder.thread.start()

    def _watch(self, folder: Folder, sink: _WorkDoneProgress) -> None:
        """The folder's thread: sync its index, then keep it current until the folder goes."""
        sink.open()
        try:
            writer = open_store(folder.db, create=True)
        except StoreError as exc:
            self._failed(folder, sink, exc)
            return
        # One process: forking extraction workers from a threaded server is not safe. Large
        # repositories are faster indexed beforehand with `ripple index` (parallel, same cache).
        options = IndexOptions(repo=folder.repo, jobs=1, state_dir=str(state_dir(folder.db)),
                               http_services=_http_services(folder.root))
        index = RepositoryIndex(folder.root, writer, writer, options)
        lock = writer_lock(folder.db)
        folder.watcher = Watcher(index, lock=lambda: lock, on_update=lambda r: self._updated(folder, sink, r))
        try:
            folder.watcher.run(folder.stop, sink)
        except Exception as exc:  # the first run failed: this folder's index, never the server
            self._failed(folder, sink, exc)
        finally:
            index.close()
            writer.close()

    def _failed(self, folder: Folder, sink: _WorkDoneProgress, exc: Exception) -> None:
        log.error("indexing %s failed: %s", folder.root, exc, exc_info=not isinstance(exc, StoreError))
        folder.state, folder.error = "error", f"indexing {folder.root} failed: {exc}"
        sink.close("failed")
        self.call_soon(lambda: self.report(f"ripple: {folder.error}"))

    def _updated(self, folder: Folder, sink: _WorkDoneProgress, report: IndexReport) -> None:
        """After the first sync and after each update that wrote something (watcher thread)."""
        if folder.state == "indexing":
            folder.state = "ready"
            message = f"{report.files_indexed} files indexed"
            if self.embed:
                threading.Thread(target=self._embed_loop, args=(folder, sink, message), daemon=True,
                                 name=f"ripple-embed-{folder.repo}").start()
            else:
                sink.close(message)
        else:
            folder.embed_wanted.set()
        self.call_soon(lambda: self._index_changed(folder, now=True))

    def _embed_loop(self, folder: Folder, sink: _WorkDoneProgress, message: str) -> None:
        """Give the folder's chunks their vectors after the graph answers (search uses BM25 for the
        rest meanwhile), then the chunks of every update. A model that cannot load costs semantic
        search, never the server."""
        try:
            embedder = open_embedder()
            writer = open_store(folder.db)
        except (EmbedderError, StoreError) as exc:
            sink.close(message)
            warning = f"ripple: no embeddings for {folder.repo} ({exc}); search uses BM25 alone"
            self.call_soon(lambda: self.report(warning, types.MessageType.Warning))
            return
        closed = False
        try:
            embed_pending(writer, embedder, sink)
            sink.close(message)
            closed = True
            while not folder.stop.is_set():
                if folder.embed_wanted.wait(0.5):
                    folder.embed_wanted.clear()
                    try:
                        embed_pending(writer, embedder)
                    except StoreUnavailable:  # another process holds the index a while: retry
                        folder.embed_wanted.set()
                        time.sleep(1.0)
        except (EmbedderError, StoreError) as exc:
            log.warning("embedding %s stopped: %s", folder.repo, exc)
        finally:
            if not closed:
                sink.close(message)
            writer.close()

    def _poll_index_changes(self) -> None:
        """Start (once) the thread that looks for index changes made by any process."""
        if self._poller is not None:
            return

        def poll() -> None:
            while True:
                time.sleep(POLL_SECONDS)
                for folder in list(self.folders):
                    self.call_soon(lambda f=folder: self._index_changed(f))  # type: ignore[misc]

        self._poller = threading.Thread(target=poll, daemon=True, name="ripple-index-poller")
        self._poller.start()

    def _index_changed(self, folder: Folder, now: bool = False) -> None:
        """On the event loop: refresh code lenses when the folder's index moved since last seen (at
        most once a second unless ``now``: this server's own update)."""
        if folder.store is None or folder.state == "error" or folder not in self.folders:
            return
        try:
            token = folder.store.version_token()
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
            self._refresh_lenses()

    def _refresh_lenses(self) -> None:
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
        when none can be read the request fails with their error)."""
        stores = [f.store for f in self.folders if f.store is not None and f.state != "error"]
        if not stores:
            errors = "; ".join(f.error for f in self.folders if f.error) or "no workspace folder is indexed"
            raise StoreError(errors)
        return UnionGraph(stores)

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
        """Re-resolve a call-hierarchy item from the node id in its ``data``."""
        node_id = item.data.get("id") if isinstance(item.data, dict) else getattr(item.data, "id", None)
        if not isinstance(node_id, str):
            raise JsonRpcInvalidParams("call hierarchy item without ripple data (prepare it again)")
        return self.graph().get_nodes([node_id]).get(node_id)

    def _file_text(self, repo: str, path: str) -> FileText:
        folder = next((f for f in self.folders if f.repo == repo), None)
        if folder is None:  # a repository not on this disk: the text kept in the index
            stored = self.graph().file_text(repo, path)
            return FileText(ripple_uri(repo, path), stored.splitlines() if stored is not None else None)
        if not inside_root(folder.root, folder.root / path):  # the indexer's rule: never read outside
            return FileText(ripple_uri(repo, path), None)
        abs_path = (folder.root / path).resolve()
        uri = from_fs_path(str(abs_path)) or ripple_uri(repo, path)
        disk = self.disk_lines(abs_path)
        doc = self.workspace.text_documents.get(uri)
        if doc is None or disk is None:
            return FileText(uri, disk)
        buffer = doc.source.splitlines()
        if buffer == disk:
            return FileText(uri, disk)
        return FileText(uri, disk, buffer, LineMap(buffer, disk))

    def disk_lines(self, path: Path) -> list[str] | None:
        """The lines of ``path`` (cached while its mtime and size hold), ``None`` when unreadable.
        Callers check ``path`` is inside a workspace folder."""
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
            lines: list[str] | None = read_regular(path, DISK_TEXT_CAP).decode("utf-8", "replace").splitlines()
        except SkipFile:
            lines = None
        self._lines[path] = (key, lines)
        if len(self._lines) > 2000:
            self._lines.popitem(last=False)
        return lines


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
    for module in (lifecycle, call_hierarchy, references, hover, code_lens, symbols, custom):
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


def serve(tcp: tuple[str, int] | None = None, embed: bool = True) -> None:
    """Run the server over stdio, or over TCP on ``(host, port)``; ``embed=False`` leaves chunks
    without embeddings (search is BM25 alone)."""
    server = build_server()
    server.embed = embed
    if tcp is None:
        server.start_io()
    else:
        server.start_tcp(*tcp)
