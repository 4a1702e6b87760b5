"""The breaker of the language server's team stores (lsp_server/team.py): a store that is down is said
once, fails fast during its backoff, is probed with a doubling backoff and reported back when it answers."""

from __future__ import annotations

import threading
import time

import pytest

from lsp_server.team import MAX_BACKOFF, Breaker, GuardedGraph
from stores.contracts import GraphStore
from stores.errors import StoreUnavailable


class Flaky:
    """A store whose server is down while ``down`` is set; counts the calls that reached it."""

    def __init__(self) -> None:
        self.down = True
        self.calls = 0
        self.closed = False

    def repos(self) -> list[str]:
        self.calls += 1
        if self.down:
            raise StoreUnavailable("graph store bolt://127.0.0.1:1 is unreachable: connection refused")
        return ["billing"]

    def ping(self) -> dict:
        self.calls += 1
        if self.down:
            raise StoreUnavailable("still down")
        return {}

    def close(self) -> None:
        self.closed = True


def test_down_fails_fast_probes_and_comes_back():
    inner = Flaky()
    downs, ups = [], []
    back = threading.Event()
    breaker = Breaker("graph store bolt://127.0.0.1:1", inner.ping, downs.append,
                      lambda m: (ups.append(m), back.set()), first_backoff=0.05)
    graph = GuardedGraph(inner, breaker)
    assert isinstance(graph, GraphStore)
    with pytest.raises(StoreUnavailable, match="connection refused"):
        graph.repos()
    assert downs == ["ripple: the graph store bolt://127.0.0.1:1 is unreachable (graph store bolt://127.0.0.1:1 is "
                     "unreachable: connection refused); answers that need it fail until it is back, the server "
                     "reconnects by itself"]
    calls = inner.calls
    with pytest.raises(StoreUnavailable, match=r"retrying by itself"):
        graph.repos()  # during the backoff: not sent to the server
    assert inner.calls == calls and breaker.down and len(downs) == 1
    time.sleep(0.3)  # the probe keeps failing: the backoff doubles, never past MAX_BACKOFF
    assert 0.05 < breaker.backoff <= MAX_BACKOFF and len(downs) == 1 and ups == []
    inner.down = False
    assert back.wait(5.0), "the probe did not see the store come back"
    assert ups == ["ripple: the graph store bolt://127.0.0.1:1 is reachable again"] and not breaker.down
    assert graph.repos() == ["billing"] and breaker.backoff == 0.05
    graph.close()
    assert inner.closed and breaker.closed.is_set()
