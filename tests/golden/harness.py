"""What every golden blast-radius test shares: the fixtures folder, indexing one fixture repository
into a fresh embedded store, and comparing a rendered report with its snapshot
(``snapshots/<name>.md``, byte for byte, step times masked). ``RIPPLE_UPDATE_GOLDEN=1`` rewrites the
snapshots instead (review the diff before committing)."""

from __future__ import annotations

import os
import re
import sqlite3
from collections.abc import Mapping
from pathlib import Path

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore

__all__ = ["FIXTURES", "SNAPSHOTS", "check_snapshot", "edge_rows", "edges_of_kinds", "index_files", "index_fixture"]

FIXTURES = Path(__file__).resolve().parent.parent / "fixtures"
SNAPSHOTS = Path(__file__).resolve().parent / "snapshots"
_TIME = re.compile(r"\| \d+\.\d ms \|")


def index_fixture(folder: Path, db: Path, repo: str) -> EmbeddedStore:
    """An embedded store at ``db`` holding the repository checked out at ``folder`` as ``repo``
    (one worker, no embeddings beyond the defaults the pipeline applies). The caller closes it."""
    s = EmbeddedStore(db)
    index_repository(folder, s, s, IndexOptions(repo=repo, jobs=1))
    return s



def index_files(root: Path, files: Mapping[str, str], repo: str) -> EmbeddedStore:
    """Write ``files`` (relative path -> text) under ``root`` and index it as ``repo`` into ``root``'s
    sibling ``i.db`` (:func:`index_fixture`). The caller closes the store."""
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    return index_fixture(root, root.parent / "i.db", repo)


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
