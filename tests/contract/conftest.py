"""Fixtures of the store contract suite: every backend runs the same tests.

``BACKENDS`` maps a backend name to a factory ``(tmp_path) -> store``; a store implements
:class:`stores.contracts.GraphStore` and/or :class:`stores.contracts.SearchIndex`. The embedded
backend always runs. A server backend plugs in by adding a factory that returns a fresh, empty
store (e.g. a unique database or index name per test) and is skipped unless its environment
variable names a running server:

* ``RIPPLE_TEST_BOLT_URI`` (Bolt URI of ArcadeDB, as ``tools/arcadedb_server.py`` prints it; ``.ci/run``
  starts one; the value ``start`` starts one for this test session) for
  :class:`stores.memgraph.MemgraphGraphStore` in the ``neo4j`` dialect,
* ``RIPPLE_TEST_MEMGRAPH_URI`` (Bolt URI of a Memgraph) for the same class in the ``memgraph`` dialect,
* ``RIPPLE_TEST_ES_URL`` for an Elasticsearch SearchIndex.

Each factory may return an object with a ``close()``; the fixture closes it after the test.
"""

from __future__ import annotations

import atexit
import os
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest

from stores.embedded import EmbeddedStore


@dataclass(frozen=True)
class Backend:
    """A store factory: ``graph`` / ``search`` say which contracts it implements; ``env`` names the
    environment variable that must be set for it to run (``None``: always runs)."""

    name: str
    factory: Callable[[Path], Any]
    graph: bool = True
    search: bool = True
    env: str | None = None


def _embedded(tmp_path: Path) -> EmbeddedStore:
    return EmbeddedStore(tmp_path / "index.db")


_SERVERS: dict[str, Any] = {}


def bolt_uri(env: str) -> str | None:
    """The Bolt URI ``$env`` names; ``start`` starts an ArcadeDB (``tools/arcadedb_server.py``) once
    per session, stopped when the session ends."""
    value = os.environ.get(env)
    if value != "start":
        return value
    if env not in _SERVERS:
        from tools.arcadedb_server import ArcadeDBServer

        server = ArcadeDBServer().start()
        atexit.register(server.stop)
        _SERVERS[env] = server
    return _SERVERS[env].uri


def _bolt(env: str, dialect: str) -> Callable[[Path], Any]:
    """A MemgraphGraphStore on the server ``$env`` names, emptied first (one clean graph per test)."""

    def factory(tmp_path: Path) -> Any:
        from stores.memgraph import MemgraphGraphStore

        store = MemgraphGraphStore(bolt_uri(env) or "", dialect=dialect)
        try:
            store.clear()
        except BaseException:
            store.close()
            raise
        return store

    return factory


def _elasticsearch(tmp_path: Path) -> Any:
    """An ElasticsearchSearchIndex on ``$RIPPLE_TEST_ES_URL`` (``$RIPPLE_TEST_ES_API_KEY`` if the
    cluster wants one) under a fresh index prefix; its indices are deleted when the test closes it."""
    import uuid

    from stores.elasticsearch import ElasticsearchSearchIndex

    class ThrowawayIndex(ElasticsearchSearchIndex):
        def close(self) -> None:
            try:
                self.drop()
            finally:
                super().close()

    return ThrowawayIndex(os.environ["RIPPLE_TEST_ES_URL"], api_key=os.environ.get("RIPPLE_TEST_ES_API_KEY"),
                          index_prefix=f"ripple-test-{uuid.uuid4().hex[:12]}")


def _not_yet(name: str) -> Callable[[Path], Any]:
    def factory(tmp_path: Path) -> Any:
        pytest.skip(f"the {name} backend is not implemented yet")

    return factory


BACKENDS: list[Backend] = [
    Backend("embedded", _embedded),
    Backend("bolt", _bolt("RIPPLE_TEST_BOLT_URI", "neo4j"), search=False, env="RIPPLE_TEST_BOLT_URI"),
    Backend("memgraph", _bolt("RIPPLE_TEST_MEMGRAPH_URI", "memgraph"), search=False, env="RIPPLE_TEST_MEMGRAPH_URI"),
    Backend("elasticsearch", _elasticsearch, graph=False, env="RIPPLE_TEST_ES_URL"),
]


def _params(kind: str) -> list[Any]:
    params = []
    for backend in BACKENDS:
        if not getattr(backend, kind):
            continue
        marks = []
        if backend.env is not None and not os.environ.get(backend.env):
            marks.append(pytest.mark.skip(reason=f"set {backend.env} to run the {backend.name} backend"))
        params.append(pytest.param(backend, id=backend.name, marks=marks))
    return params


def _open(backend: Backend, tmp_path: Path) -> Iterator[Any]:
    store = backend.factory(tmp_path)
    try:
        yield store
    finally:
        close = getattr(store, "close", None)
        if close is not None:
            close()


@pytest.fixture(params=_params("graph"))
def graph_store(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A fresh, empty GraphStore of each backend."""
    yield from _open(request.param, tmp_path)


@pytest.fixture(params=_params("search"))
def search_index(request: pytest.FixtureRequest, tmp_path: Path) -> Iterator[Any]:
    """A fresh, empty SearchIndex of each backend."""
    yield from _open(request.param, tmp_path)
