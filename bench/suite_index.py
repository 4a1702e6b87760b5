"""Index one call-graph suite case as ``ripple index --no-embed`` does, for the suite scorers
(``bench/pycg_suite.py``, ``bench/jcg_java.py``, ``bench/jcg_links.py``)."""

from __future__ import annotations

import sqlite3
from pathlib import Path

from indexer.pipeline import index_repository
from indexer.run import IndexOptions
from stores.embedded import EmbeddedStore


def index_read_only(src: Path, db: Path, repo: str) -> sqlite3.Connection:
    """Index the folder ``src`` into a fresh embedded store at ``db`` under repository name ``repo``
    (``indexer.pipeline.index_repository``: one extraction process, no extraction cache, no registry
    entry, no embeddings) and return a read-only SQLite connection to it; the caller closes it.

    Raises whatever the pipeline or SQLite raises (``OSError`` for an unwritable ``db``)."""
    store = EmbeddedStore(db)
    try:
        index_repository(src, store, store, IndexOptions(repo=repo, jobs=1, state_dir=None, record=False))
    finally:
        store.close()
    return sqlite3.connect(f"file:{db}?mode=ro", uri=True)
