"""The language server's memory budget over its folders' resolver state (:mod:`indexer.state_budget`).

:func:`budget_for` makes the server's one :class:`~indexer.state_budget.StateBudget` from ``[server]
memory_budget`` and ``release_after``; :func:`rebuild_progress` turns the server's progress reporter into
what :attr:`indexer.watch.Watcher.rebuild_progress` takes, so that a folder rebuilding the state it gave
back shows it (``window/workDoneProgress``: the phase ``restore``, then the update's own).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager
from typing import Any

from indexer.state_budget import StateBudget
from stores.config import Config

__all__ = ["budget_for", "rebuild_progress"]


def budget_for(config: Config) -> StateBudget:
    """The server-wide budget ``config`` sets (``[server] memory_budget`` MiB, 0: none; ``[server]
    release_after`` seconds)."""
    return StateBudget(config.memory_budget, float(config.release_after))


def rebuild_progress(make: Callable[[], Any]) -> Callable[[], AbstractContextManager[Any]]:
    """A factory of context managers around one rebuild-and-update: each makes a progress reporter
    with ``make()`` (an object with ``open()`` and ``close(message)``, the server's
    ``window/workDoneProgress`` sink), opens it, yields it as the update's progress sink and closes it."""

    @contextlib.contextmanager
    def run() -> Iterator[Any]:
        sink = make()
        sink.open()
        try:
            yield sink
        finally:
            sink.close("resolver state rebuilt from the records")

    return run
