"""A process-wide memory budget over the resolver state of several watched repositories.

A watcher (:class:`indexer.watch.Watcher`) keeps its repository's resolver state (every file's
context, the memo, the lookup tables) between updates: Django's is most of a 174 MiB server. A
process that watches many folders (the language server with several workspace folders, ``ripple watch
PATH...``) would hold the sum for good, although queries never read it (they read the store). A
:class:`StateBudget` keeps the process's resident set under a budget: whenever it is above, the
watcher whose repository changed least recently (and not for :attr:`StateBudget.idle_s` seconds)
is asked to give its state back (:meth:`indexer.incremental.RepositoryIndex.release_state`, run in
the watcher's own thread between two updates); that repository's next change rebuilds the state from
the records on disk before it is applied, so its index is the one it would have been. One watcher is
asked per check (every :attr:`StateBudget.every_s` seconds): the resident set is measured again after
each release before another goes.

The policy is least-recently-changed first (the LRU rule of caches: a folder being edited is the one
most likely to change again); the budget counts the whole process (``psutil``'s resident set), so the
store's page cache and the server's own objects count too, and a budget below what the process needs
without any resolver state only makes every idle folder give its state back.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import Callable
from typing import Protocol

__all__ = ["StateBudget", "Releasable", "DEFAULT_STATE_BUDGET_MIB", "IDLE_S", "EVERY_S", "process_rss_mib"]

log = logging.getLogger(__name__)

DEFAULT_STATE_BUDGET_MIB = 320
"""Resident set (MiB) above which idle repositories give their resolver state back (``[server]
memory_budget``): under the 400 MiB the process may take at its peak, with room for the state one
change rebuilds (Django's: about 60 MiB over a server without it; docs/benchmarks.md, session 51)."""
IDLE_S = 60.0
"""A repository that changed less than this many seconds ago keeps its state (``[server] release_after``)."""
EVERY_S = 5.0
"""Seconds between two checks of the resident set."""


class Releasable(Protocol):
    """What the budget needs of a watcher (:class:`indexer.watch.Watcher`)."""

    changed_at: float
    """``time.monotonic()`` of the repository's last sync or update that applied changes."""

    def holds_state(self) -> bool:
        """Whether it holds resolver state that it could give back."""
        ...

    def request_release(self) -> None:
        """Ask it to give its state back between two updates (in its own thread)."""
        ...


def process_rss_mib() -> float | None:
    """This process's resident set in MiB (``psutil``); ``None`` when it cannot be read."""
    try:
        import psutil

        return float(psutil.Process().memory_info().rss) / (1 << 20)
    except Exception:  # no psutil, or a platform it cannot read
        return None


class StateBudget:
    """Keeps the resident set under ``budget_mib`` by asking idle watchers to give their resolver
    state back, least recently changed first (see the module docstring). ``budget_mib`` 0: never.
    ``idle_s``: how long a repository must have been unchanged; ``every_s``: seconds between checks
    of the thread :meth:`start` runs; ``rss_mib`` and ``clock`` are replaced in tests. Thread-safe."""

    def __init__(self, budget_mib: int = DEFAULT_STATE_BUDGET_MIB, idle_s: float = IDLE_S, every_s: float = EVERY_S,
                 rss_mib: Callable[[], float | None] = process_rss_mib,
                 clock: Callable[[], float] = time.monotonic) -> None:
        self.budget_mib, self.idle_s, self.every_s = budget_mib, idle_s, every_s
        self._rss, self._clock = rss_mib, clock
        self._watchers: list[Releasable] = []
        self._lock = threading.Lock()
        self._stop = threading.Event()
        self._thread: threading.Thread | None = None

    def add(self, watcher: Releasable) -> None:
        """Count ``watcher`` in (and start the checking thread, once, when a budget is set)."""
        with self._lock:
            self._watchers.append(watcher)
        if self.budget_mib > 0:
            self.start()

    def remove(self, watcher: Releasable) -> None:
        """Count ``watcher`` out (its folder closed); no error when it is not counted."""
        with self._lock:
            if watcher in self._watchers:
                self._watchers.remove(watcher)

    def check(self) -> Releasable | None:
        """One decision: when the resident set is above the budget, ask the watcher that holds state
        and changed least recently, at least :attr:`idle_s` ago, to give it back; that watcher, or
        ``None`` (under the budget, no budget, nothing idle holds state, resident set unknown)."""
        if self.budget_mib <= 0:
            return None
        rss = self._rss()
        if rss is None or rss <= self.budget_mib:
            return None
        now = self._clock()
        with self._lock:
            idle = [w for w in self._watchers if now - w.changed_at >= self.idle_s and w.holds_state()]
        if not idle:
            return None
        chosen = min(idle, key=lambda w: w.changed_at)
        log.info("resident set %.0f MiB over the budget of %d MiB: the least recently changed repository "
                 "(%.0f s ago) gives its resolver state back", rss, self.budget_mib, now - chosen.changed_at)
        chosen.request_release()
        return chosen

    def start(self) -> None:
        """Run :meth:`check` every :attr:`every_s` seconds in a daemon thread until :meth:`stop` (once)."""
        with self._lock:
            if self._thread is not None:
                return
            self._thread = threading.Thread(target=self._run, daemon=True, name="ripple-state-budget")
        self._thread.start()

    def stop(self) -> None:
        """End the checking thread (it exits at its next wake-up)."""
        self._stop.set()

    def _run(self) -> None:
        while not self._stop.wait(self.every_s):
            try:
                self.check()
            except Exception:  # the budget never takes the process down
                log.exception("memory budget check failed")
