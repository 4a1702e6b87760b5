"""Indexing a tree into a fresh embedded store, as every test that queries a real index does: the
repository at a folder (:func:`index_fixture`), or files written first (:func:`index_files`, with
:func:`tests.resolution_harness.write_tree`). One worker, the pipeline's defaults otherwise; the
caller closes the store it gets."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from indexer.pipeline import index_repository
from indexer.run import IndexOptions, IndexReport
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

__all__ = ["index_files", "index_fixture", "index_with_report"]


def index_with_report(folder: Path, db: Path, repo: str, **options: Any) -> tuple[EmbeddedStore, IndexReport]:
    """An embedded store at ``db`` holding the repository checked out at ``folder`` as ``repo``, indexed
    by :func:`indexer.pipeline.index_repository` with ``IndexOptions(repo=repo, jobs=1, **options)``
    (``options`` may set ``jobs`` too), and the run's report. The caller closes the store; a run that
    raises closes it first."""
    s = EmbeddedStore(db)
    try:
        report = index_repository(folder, s, s, IndexOptions(**{"jobs": 1, **options}, repo=repo))
    except BaseException:
        s.close()
        raise
    return s, report


def index_fixture(folder: Path, db: Path, repo: str, **options: Any) -> EmbeddedStore:
    """:func:`index_with_report`'s store alone. The caller closes it."""
    return index_with_report(folder, db, repo, **options)[0]


def index_files(root: Path, files: Mapping[str, str], repo: str, db: Path | None = None,
                **options: Any) -> EmbeddedStore:
    """Write ``files`` (relative path -> text, UTF-8) under ``root`` and index it as ``repo``
    (:func:`index_fixture`) into ``db``, by default ``root``'s sibling ``i.db``. The caller closes the
    store."""
    write_tree(root, dict(files))
    return index_fixture(root, db if db is not None else root.parent / "i.db", repo, **options)
