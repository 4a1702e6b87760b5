"""Indexing a tree into a fresh embedded store, as every test that queries a real index does: the
repository at a folder (:func:`index_fixture`), or files written first (:func:`index_files`, with
:func:`tests.resolution_harness.write_tree`). One worker, the pipeline's defaults otherwise; the
caller closes the store it gets."""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path
from typing import Any

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore
from tests.resolution_harness import write_tree

__all__ = ["index_files", "index_fixture"]


def index_fixture(folder: Path, db: Path, repo: str, **options: Any) -> EmbeddedStore:
    """An embedded store at ``db`` holding the repository checked out at ``folder`` as ``repo``, indexed
    by :func:`indexer.pipeline.index_repository` with ``IndexOptions(repo=repo, jobs=1, **options)``
    (``options`` may set ``jobs`` too). The caller closes it."""
    s = EmbeddedStore(db)
    index_repository(folder, s, s, IndexOptions(**{"jobs": 1, **options}, repo=repo))
    return s


def index_files(root: Path, files: Mapping[str, str], repo: str, db: Path | None = None,
                **options: Any) -> EmbeddedStore:
    """Write ``files`` (relative path -> text, UTF-8) under ``root`` and index it as ``repo``
    (:func:`index_fixture`) into ``db``, by default ``root``'s sibling ``i.db``. The caller closes the
    store."""
    write_tree(root, dict(files))
    return index_fixture(root, db if db is not None else root.parent / "i.db", repo, **options)
