"""What every golden blast-radius test shares: the fixtures folder, indexing one fixture repository
into a fresh embedded store, and comparing a rendered report with its snapshot
(``snapshots/<name>.md``, byte for byte, step times masked). ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the
snapshots instead (review the diff before committing)."""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Callable, Iterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from indexer.run import IndexReport
from stores.embedded import EmbeddedStore
from tests.index_harness import index_files, index_fixture, index_with_report  # re-exported

__all__ = ["FIXTURES", "SNAPSHOTS", "caller_names", "check_snapshot", "edge_rows", "edges_of_kinds", "endpoint_ids",
           "endpoint_rows", "golden_indexed", "golden_store", "golden_store_and_db", "http_edges", "index_files",
           "index_fixture", "index_with_report"]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
_TIME = re.compile(r"\| \d+\.\d ms \|")


def edge_rows(root: Path, files: Mapping[str, str], kind: str, repo: str = "app") -> list[tuple[str, str, int, str]]:
    """Write and index ``files`` (:func:`index_files`) and return the ``(src, dst, line, props)`` rows
    of its edges of ``kind``, in the store's order (ids as stored; ``props`` the JSON text)."""
    store = index_files(root, files, repo)
    try:
        with sqlite3.connect(store.path) as db:
            return db.execute("SELECT src, dst, line, props FROM edges WHERE kind = ?", (kind,)).fetchall()
    finally:
        store.close()

def edges_of_kinds(root: Path, files: Mapping[str, str], kinds: tuple[str, ...],
                   repo: str = "app") -> list[tuple[str, str, str, int, str]]:
    """Write and index ``files`` (:func:`index_files`) and return the ``(kind, src, dst, line, props)``
    rows of its edges of any of ``kinds``, in the store's order (ids as stored; ``props`` the JSON text)."""
    store = index_files(root, files, repo)
    try:
        with sqlite3.connect(store.path) as db:
            marks = ", ".join("?" * len(kinds))
            return db.execute(f"SELECT kind, src, dst, line, props FROM edges WHERE kind IN ({marks})", kinds).fetchall()
    finally:
        store.close()


def check_snapshot(name: str, markdown: str) -> None:
    """Assert ``markdown`` (step times masked) equals ``snapshots/<name>.md``; with
    ``RIPPLE_UPDATE_GOLDEN`` set, write it there first."""
    text = _TIME.sub("| – ms |", markdown)
    snapshot = SNAPSHOTS / f"{name}.md"
    if os.environ.get("RIPPLE_UPDATE_GOLDEN"):
        snapshot.write_text(text, encoding="utf-8")
    assert text == snapshot.read_text(encoding="utf-8")


def golden_store_and_db(folder: Path, repo: str) -> Callable[..., Iterator[tuple[EmbeddedStore, Path]]]:
    """A module-scoped pytest fixture yielding ``(store, db)``: the fixture repository at ``folder``
    indexed as ``repo`` (:func:`index_fixture`) into ``<folder name>.db`` of a fresh temporary folder;
    the store is closed after the module's tests."""

    @pytest.fixture(scope="module")
    def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmbeddedStore, Path]]:
        db = tmp_path_factory.mktemp("golden") / f"{folder.name}.db"
        s = index_fixture(folder, db, repo)
        yield s, db
        s.close()

    return indexed


def golden_indexed(folder: Path, repo: str) -> Callable[..., Iterator[tuple[EmbeddedStore, IndexReport]]]:
    """Like :func:`golden_store_and_db`, a fixture yielding the store and the run's report."""

    @pytest.fixture(scope="module")
    def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[EmbeddedStore, IndexReport]]:
        s, report = index_with_report(folder, tmp_path_factory.mktemp("golden") / f"{folder.name}.db", repo)
        yield s, report
        s.close()

    return indexed


def golden_store(folder: Path, repo: str) -> Callable[..., Iterator[EmbeddedStore]]:
    """Like :func:`golden_store_and_db`, a fixture yielding the store alone."""

    @pytest.fixture(scope="module")
    def indexed(tmp_path_factory: pytest.TempPathFactory) -> Iterator[EmbeddedStore]:
        s = index_fixture(folder, tmp_path_factory.mktemp("golden") / f"{folder.name}.db", repo)
        yield s
        s.close()

    return indexed


def endpoint_ids(db: Path) -> list[str]:
    """The ids of the index's Endpoint nodes, sorted."""
    with sqlite3.connect(db) as conn:
        return [r[0] for r in conn.execute("select id from nodes where label = 'Endpoint' order by id")]


def http_edges(db: Path, prefix: str, props: tuple[str, ...]) -> list[tuple[Any, ...]]:
    """``(kind, source without prefix, endpoint, *the props named)`` of every EXPOSES / CALLS_HTTP edge,
    sorted (a prop the edge lacks is ``None``)."""
    with sqlite3.connect(db) as conn:
        rows = conn.execute("select kind, src, dst, props from edges where kind in ('EXPOSES', 'CALLS_HTTP')").fetchall()
    out = []
    for kind, src, dst, text in rows:
        p = json.loads(text or "{}")
        out.append((kind, src.removeprefix(prefix), dst, *(p.get(k) for k in props)))
    return sorted(out)


def endpoint_rows(report: Any) -> list[tuple[str, str, int, str, str]]:
    """A blast radius's endpoints as ``(method, path, hops, certainty, handler qualname)``, in its order."""
    return [(h.http_method, h.path, h.hops, h.certainty, h.handler.qualname) for h in report.endpoints]


def caller_names(report: Any) -> dict[int, list[str]]:
    """A blast radius's callers by hop (1-based): each hop's qualnames, sorted."""
    return {i + 1: sorted(r.node.qualname for r in level) for i, level in enumerate(report.hops)}
