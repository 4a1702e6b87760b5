"""Which store to open: the one place that maps configuration to a backend.

Today the embedded SQLite store is the only backend; the team backends (Memgraph, Elasticsearch)
plug in here, selected by configuration, without the front ends changing.
"""

from __future__ import annotations

import functools
import logging
import os
from pathlib import Path

from stores.embedded import EmbeddedStore
from stores.embedder import Embedder
from stores.errors import StoreOutdated, StoreUnavailable
from stores.retrieval import QueryEngine

__all__ = ["DB_ENV", "MODEL_ENV", "INDEX_DIR", "default_db_path", "find_db", "open_store", "open_embedder", "query_engine"]

DB_ENV = "RIPPLE_DB"
"""Environment variable naming the index file (overrides discovery)."""

log = logging.getLogger(__name__)

MODEL_ENV = "RIPPLE_EMBEDDING_MODEL"
"""Environment variable naming a fastembed model to use instead of the bundled one."""

INDEX_DIR = ".ripple"


def default_db_path(root: Path) -> Path:
    """``<root>/.ripple/index.db``: where ``ripple index ROOT`` writes by default."""
    return root / INDEX_DIR / "index.db"


def find_db(start: Path) -> Path | None:
    """The index named by ``$RIPPLE_DB``, else the nearest ``.ripple/index.db`` in ``start`` or a
    parent folder (as git finds ``.git``), else ``None``."""
    env = os.environ.get(DB_ENV)
    if env:
        return Path(env)
    for folder in (start, *start.parents):
        candidate = default_db_path(folder)
        if candidate.is_file():
            return candidate
    return None


def open_store(path: Path, create: bool = False) -> EmbeddedStore:
    """Open the embedded store at ``path`` (created, with its folder, when ``create``).

    With ``create``, an index of another schema version is an outdated cache: it is deleted and
    built anew (a file that is not a ripplegraph index is never deleted). Raises
    :class:`stores.errors.StoreUnavailable` / :class:`stores.errors.StoreCorrupt`."""
    if create:
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            raise StoreUnavailable(f"cannot create the folder of index {path}: {exc}") from exc
        if path.parent.name == INDEX_DIR:
            ignore = path.parent / ".gitignore"
            if not ignore.exists():
                try:
                    ignore.write_text("# written by ripplegraph: the index is not source\n*\n", encoding="utf-8")
                except OSError:
                    pass  # a read-only folder: the store's own open reports the real problem
    try:
        return EmbeddedStore(path)
    except StoreOutdated:
        if not create:
            raise
        log.warning("%s was written by another ripplegraph version: rebuilding it", path)
        for suffix in ("", "-wal", "-shm"):
            Path(f"{path}{suffix}").unlink(missing_ok=True)
        return EmbeddedStore(path)


def open_embedder(model_name: str | None = None) -> Embedder:
    """The configured embedder: ``model_name``, else ``$RIPPLE_EMBEDDING_MODEL``, else the bundled
    int8 all-MiniLM-L6-v2. Raises :class:`stores.embedder.EmbedderError`."""
    return Embedder(model_name or os.environ.get(MODEL_ENV) or None)


def query_engine(store: EmbeddedStore, model_name: str | None = None) -> QueryEngine:
    """A :class:`QueryEngine` over ``store``. The embedder is loaded only when the index holds
    embeddings (otherwise search is BM25 alone and says so); a model that cannot be loaded raises
    :class:`stores.embedder.EmbedderError`."""
    embed_query = None
    if store.chunk_count()["embedded"]:
        embedder = _query_embedder(model_name or os.environ.get(MODEL_ENV) or None)
        embed_query = lambda q: embedder.embed([q])[0]  # noqa: E731
    return QueryEngine(store, store, embed_query)


@functools.lru_cache(maxsize=2)
def _query_embedder(model_name: str | None) -> Embedder:
    # Loading a model takes about a second: a long-lived process (the language server) loads it
    # once for its queries. Bulk embedding opens its own instance (Embedder is not thread-safe).
    return Embedder(model_name)
