"""The language server on the configured stores: what ``ripple serve`` reads and writes when the
configuration names a team backend (a Bolt graph, Elasticsearch) or is read-only, and how it lives
with a store that goes down.

:class:`StoreSession` is built from the configuration of the first workspace folder
(:func:`stores.config.load_config`: environment, ``$RIPPLE_CONFIG``, the workspace's trusted
``.ripple/config.toml``, the user's file):

* **graph**: ``memgraph`` (any Bolt server) -> one :class:`GuardedGraph` over the shared graph serves
  every request of every folder (call hierarchy, references, hover, code lens, symbols, blast radius);
  ``embedded`` -> each folder's ``.ripple/index.db`` as before.
* **search**: ``elasticsearch`` -> one :class:`GuardedSearch` for search and similar; ``embedded`` ->
  each folder's index file (with a Bolt graph it holds the chunks only, never a graph).
* ``[server] index_workspace`` (default ``true``): the server indexes and watches each open folder into
  those stores, as its own repository (the name its index records, as ``ripple index`` names it);
  ``false``: read-only, a central indexer owns the index; nothing is written.

A store that is down (:class:`stores.errors.StoreUnavailable`) trips its :class:`Breaker`: the editor gets
one ``window/showMessage`` naming the store and the reason, requests that need that store fail fast
with that message (an LSP error, never a dead server) while the others keep answering (search from
Elasticsearch while the graph is down, and the other way round), and a probe thread pings it with
exponential backoff (1 s doubling to :data:`MAX_BACKOFF`); when it answers again the editor is told and
code lenses refresh. An indexing run that fails because a store is down starts again after the same
backoff.

Freshness (:mod:`analysis.freshness`): every :data:`FRESHNESS_SECONDS` and after each index update the
session compares each folder's index with its checkout (the indexed commit recorded by
:func:`lsp_server.freshness_support.record_run`) and, when that changes, sends the notification
``ripple/status`` ``{folders: [{uri, repo, state, behind, ahead, changed, indexed_commit, head_commit,
branch, message}]}`` (the VS Code extension shows it in its status bar item) and, for a stale index, one
``window/showMessage`` (Warning) with the message: "index of billing is 12 commits behind HEAD (3
changed files not indexed)".
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from lsprotocol import types

from analysis.freshness import Freshness, IndexedState, check_freshness
from lsp_server.freshness_support import record_run, recorded_states
from stores.config import Config, load_config
from stores.contracts import GraphStore, SearchIndex
from stores.errors import StoreError, StoreUnavailable
from stores.factory import Stores, open_graph_store, open_search_index, open_stores

if TYPE_CHECKING:
    from lsp_server.server import Folder, RippleServer

__all__ = ["StoreSession", "Breaker", "GuardedGraph", "GuardedSearch", "STATUS", "MAX_BACKOFF",
           "FRESHNESS_SECONDS"]

log = logging.getLogger(__name__)

STATUS = "ripple/status"
"""Notification (server -> client) carrying each folder's freshness."""

MAX_BACKOFF = 30.0
"""Longest wait (seconds) between two attempts to reach a store that is down."""

FRESHNESS_SECONDS = 10.0
"""How often the session compares each folder's index with its checkout."""


class Breaker:
    """The health of one store: ``call(fn)`` runs ``fn``; a :class:`StoreUnavailable` marks the store down
    (``on_down(message)`` once per outage) and, until the backoff has passed, later calls fail at once
    with the same error instead of waiting for a timeout each. ``probe`` (the store's ``ping``) is tried
    by a daemon thread at each backoff; its success, or any call's, marks the store up (``on_up(message)``).
    Thread-safe."""

    def __init__(self, what: str, probe: Callable[[], Any] | None, on_down: Callable[[str], None],
                 on_up: Callable[[str], None], first_backoff: float = 1.0) -> None:
        self.what = what
        self._probe = probe
        self._on_down, self._on_up = on_down, on_up
        self._first = first_backoff
        self._lock = threading.Lock()
        self.error: StoreUnavailable | None = None
        self.backoff = first_backoff
        self.retry_at = 0.0
        self._prober: threading.Thread | None = None
        self.closed = threading.Event()

    @property
    def down(self) -> bool:
        """Whether the last attempt to reach the store failed."""
        return self.error is not None

    def call(self, fn: Callable[[], Any]) -> Any:
        """``fn()``; raises :class:`StoreUnavailable` at once while the store is down and its backoff runs."""
        with self._lock:
            error = self.error if self.error is not None and time.monotonic() < self.retry_at else None
        if error is not None:
            raise StoreUnavailable(f"{error} (retrying by itself)")
        try:
            result = fn()
        except StoreUnavailable as exc:
            self._failed(exc)
            raise
        self._succeeded()
        return result

    def _failed(self, exc: StoreUnavailable) -> None:
        with self._lock:
            first = self.error is None
            if not first:
                self.backoff = min(MAX_BACKOFF, self.backoff * 2)
            self.error, self.retry_at = exc, time.monotonic() + self.backoff
            start = self._probe is not None and (self._prober is None or not self._prober.is_alive())
            if start:
                self._prober = threading.Thread(target=self._probe_loop, daemon=True, name=f"ripple-probe-{self.what}")
        if first:
            self._on_down(f"ripple: the {self.what} is unreachable ({exc}); answers that need it fail until it is "
                          "back, the server reconnects by itself")
        if start and self._prober is not None:
            self._prober.start()

    def _succeeded(self) -> None:
        with self._lock:
            was_down = self.error is not None
            self.error, self.backoff, self.retry_at = None, self._first, 0.0
        if was_down:
            self._on_up(f"ripple: the {self.what} is reachable again")

    def _probe_loop(self) -> None:
        while not self.closed.is_set():
            with self._lock:
                if self.error is None:
                    return
                wait = max(0.0, self.retry_at - time.monotonic())
            if self.closed.wait(wait):
                return
            try:
                assert self._probe is not None
                self._probe()
            except StoreUnavailable as exc:
                self._failed(exc)
                continue
            except Exception as exc:  # a probe that fails otherwise: the store answers, so it is up
                log.debug("probe of %s: %s", self.what, exc)
            self._succeeded()
            return


def _forwarders(contract: type) -> dict[str, Any]:
    """A method per public method of ``contract`` (close excepted) that calls the inner store's through
    the breaker."""
    def make(name: str) -> Callable[..., Any]:
        def forward(self: Any, *args: Any, **kwargs: Any) -> Any:
            return self.breaker.call(lambda: getattr(self.inner, name)(*args, **kwargs))
        forward.__name__ = forward.__qualname__ = name
        forward.__doc__ = f"``{name}`` of the inner store, through the breaker."
        return forward

    return {name: make(name) for name, value in vars(contract).items()
            if callable(value) and not name.startswith("_") and name != "close"}


class _Guarded:
    def __init__(self, inner: Any, breaker: Breaker) -> None:
        self.inner, self.breaker = inner, breaker

    def close(self) -> None:
        """Stop probing and close the inner store."""
        self.breaker.closed.set()
        self.inner.close()

    def __getattr__(self, name: str) -> Any:  # anything beyond the contract (round_trips, uri)
        return getattr(self.inner, name)


GuardedGraph = type("GuardedGraph", (_Guarded, GraphStore), {
    **_forwarders(GraphStore), "__doc__": "A :class:`GraphStore` whose every call goes through a :class:`Breaker`."})
GuardedSearch = type("GuardedSearch", (_Guarded, SearchIndex), {
    **_forwarders(SearchIndex), "__doc__": "A :class:`SearchIndex` whose every call goes through a :class:`Breaker`."})


class StoreSession:
    """The stores of one language-server session (see the module docstring). ``server`` is the session
    it reports to; ``config`` the configuration it follows."""

    def __init__(self, server: RippleServer, config: Config) -> None:
        self.server = server
        self.config = config
        self.index_workspace = config.index_workspace
        self.shared_graph = config.graph.backend != "embedded"
        self.shared_search = config.search.backend != "embedded"
        self._graph: GraphStore | None = None
        self._search: SearchIndex | None = None
        self._fresh: dict[str, dict[str, Any]] = {}
        self._thread: threading.Thread | None = None
        self._stop = threading.Event()
        self._check = threading.Event()
        self._retries: dict[str, int] = {}

    @classmethod
    def for_folder(cls, server: RippleServer, root: Path) -> StoreSession:
        """The session of the configuration seen from ``root`` (warnings go to the editor). Raises
        :class:`stores.config.ConfigError`."""
        config = load_config(root)
        for warning in config.warnings:
            server.report(f"ripple: {warning}", types.MessageType.Warning)
        return cls(server, config)

    @property
    def team(self) -> bool:
        """Whether a store is shared (a Bolt graph or Elasticsearch)."""
        return self.shared_graph or self.shared_search

    @property
    def needs_file(self) -> bool:
        """Whether each folder has an embedded index file (the graph, the chunks, or both)."""
        return not (self.shared_graph and self.shared_search)

    def _report(self, kind: types.MessageType) -> Callable[[str], None]:
        def send(message: str) -> None:
            log.warning("%s", message)
            self.server.call_soon(lambda: self.server.window_show_message(types.ShowMessageParams(kind, message)))
            if kind == types.MessageType.Info:
                self.server.call_soon(self.server.refresh_lenses)
        return send

    @property
    def graph(self) -> GraphStore | None:
        """The shared graph (``None``: each folder's embedded file). Opening it sends nothing to the
        server; raises :class:`stores.config.ConfigError` for a configuration it refuses."""
        if self.shared_graph and self._graph is None:
            inner = open_graph_store(self.config)
            breaker = Breaker(f"graph store {getattr(inner, 'uri', '')}".strip(), getattr(inner, "ping", None),
                              self._report(types.MessageType.Error), self._report(types.MessageType.Info))
            self._graph = GuardedGraph(inner, breaker)  # type: ignore[abstract]
        return self._graph

    @property
    def search(self) -> SearchIndex | None:
        """The shared search index (``None``: each folder's embedded file)."""
        if self.shared_search and self._search is None:
            inner = open_search_index(self.config)
            breaker = Breaker(f"search index {self.config.search.url}", getattr(inner, "ping", None),
                              self._report(types.MessageType.Error), self._report(types.MessageType.Info))
            self._search = GuardedSearch(inner, breaker)  # type: ignore[abstract]
        return self._search

    def writers(self, folder: Folder) -> Stores:
        """Stores an indexing thread writes ``folder`` to (its own connections): the configured ones."""
        return open_stores(self.config, folder.db, product=folder.repo, create=True)

    def retry_later(self, folder: Folder, exc: BaseException) -> bool:
        """After ``folder``'s indexing failed with ``exc``: when a store was down, start it again after a
        backoff and return ``True`` (the folder keeps answering from what the stores hold)."""
        if not isinstance(exc, StoreUnavailable) or self._stop.is_set():
            return False
        tries = self._retries.get(folder.uri, 0)
        self._retries[folder.uri] = tries + 1
        delay = min(MAX_BACKOFF, 2.0 ** min(tries, 5))
        if not tries:  # once per outage: the breaker said what is down
            self._report(types.MessageType.Warning)(f"ripple: indexing {folder.repo} waits for the stores; it starts "
                                                    "again by itself once they answer")
        log.info("opening %s again in %.0f s: %s", folder.repo, delay, exc)

        def again() -> None:
            if not folder.stop.wait(delay) and folder in self.server.folders and not self._stop.is_set():
                self.server.call_soon(lambda: self.server.restart_folder(folder))
        threading.Thread(target=again, daemon=True, name=f"ripple-retry-{folder.repo}").start()
        return True

    # ------------------------------------------------------------------------------ freshness

    def indexed(self, folder: Folder) -> None:
        """After an index run over ``folder`` wrote its source: record the commit now indexed, and check
        freshness soon."""
        self._retries.pop(folder.uri, None)
        record_run(folder.db, folder.repo, folder.root)
        self._check.set()

    def freshness_of(self, folder: Folder) -> Freshness:
        """``folder``'s index against its checkout (unknown when the index records no state of it)."""
        try:
            graph = self.server.graph()
        except StoreError as exc:
            return Freshness(folder.repo, "unknown", message=f"freshness of {folder.repo} unknown: {exc}")
        state = recorded_states(folder.db, [folder.repo], graph).get(folder.repo) or IndexedState(folder.repo)
        return check_freshness(graph, state, folder.root)

    def start_freshness(self) -> None:
        """Start (once) the thread that checks every folder's freshness and reports changes."""
        if self._thread is None:
            self._thread = threading.Thread(target=self._freshness_loop, daemon=True, name="ripple-freshness")
            self._thread.start()
        self._check.set()

    def _freshness_loop(self) -> None:
        while not self._stop.is_set():
            self._check.wait(FRESHNESS_SECONDS)
            self._check.clear()
            if self._stop.is_set():
                return
            for folder in list(self.server.folders):
                if folder.state != "ready":
                    continue
                try:
                    answer = self.freshness_of(folder)
                except Exception:  # never the thread: the next round tries again
                    log.exception("freshness of %s", folder.repo)
                    continue
                self._publish(folder, answer)

    def _publish(self, folder: Folder, answer: Freshness) -> None:
        entry = {"uri": folder.uri, **answer.as_dict()}
        if self._fresh.get(folder.uri) == entry:
            return
        self._fresh[folder.uri] = entry
        folder.freshness = entry
        payload = {"folders": [f.freshness for f in self.server.folders if f.freshness is not None]}

        def send() -> None:
            self.server.protocol.notify(STATUS, payload)
            if answer.stale and answer.message:
                self.server.window_show_message(types.ShowMessageParams(types.MessageType.Warning,
                                                                        f"ripple: {answer.message}"))
        self.server.call_soon(send)

    def close(self) -> None:
        """Stop the freshness thread and the probes; close the shared stores."""
        self._stop.set()
        self._check.set()
        for store in (self._graph, self._search):
            if store is not None:
                try:
                    store.close()
                except StoreError:
                    pass
