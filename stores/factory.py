"""Which store to open: the one place that maps configuration to a backend.

Today the embedded SQLite store is the only backend; the team backends (Memgraph, Elasticsearch)
plug in here, selected by configuration, without the front ends changing.
"""

from __future__ import annotations

import os
from pathlib import Path

from stores.embedded import EmbeddedStore
from stores.errors import StoreUnavailable

__all__ = ["DB_ENV", "INDEX_DIR", "default_db_path", "find_db", "open_store"]

DB_ENV = "RIPPLE_DB"
"""Environment variable naming the index file (overrides discovery)."""

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

    Raises :class:`stores.errors.StoreUnavailable` / :class:`stores.errors.StoreCorrupt`."""
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
    return EmbeddedStore(path)
