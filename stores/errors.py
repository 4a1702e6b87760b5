"""The store error tree. Backends map their driver's exceptions onto it (``raise ... from exc``)::

    StoreError
    ├── StoreUnavailable   the backend cannot be reached or opened (server down, file locked)
    ├── StoreCorrupt       the store exists but cannot be read (damaged file, not an index)
    │   └── StoreOutdated  a ripplegraph index of another schema version (rebuilding it is safe)
    └── QueryFailed        a well-formed request the backend refused or failed to answer
"""

from __future__ import annotations

__all__ = ["StoreError", "StoreUnavailable", "StoreCorrupt", "StoreOutdated", "QueryFailed"]


class StoreError(Exception):
    """Base of every error a store raises; the message says what failed and how to fix it."""


class StoreUnavailable(StoreError):
    """The backend cannot be reached or opened."""


class StoreCorrupt(StoreError):
    """The store's data cannot be read as a ripplegraph index."""


class StoreOutdated(StoreCorrupt):
    """A ripplegraph index written with another schema version: only a rebuild can use it."""


class QueryFailed(StoreError):
    """The backend refused or failed a request."""
