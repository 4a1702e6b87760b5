"""What a SQLite file and a SQLite error mean for the embedded store (:mod:`stores.embedded`): whether a
file is a ripplegraph index (:data:`APPLICATION_ID` in its header), and each ``sqlite3`` error as the
store error that says what happened (busy, disk full, read-only, a damaged index, or a file ripple did
not create, which no message ever suggests deleting).
"""

from __future__ import annotations

import os
import sqlite3
from pathlib import Path

from stores.errors import (
    NotAnIndex,
    QueryFailed,
    StoreCorrupt,
    StoreError,
    StoreReadOnly,
    StoreUnavailable,
    disk_full_message,
    read_only_message,
)

__all__ = ["APPLICATION_ID", "is_ripple_index", "not_an_index", "map_sqlite_error", "file_identity"]

APPLICATION_ID = 0x52504C47
"""``PRAGMA application_id`` of every index this store creates ("RPLG"): the SQLite header says the
file is ripplegraph's even when its tables cannot be read."""
_SQLITE_MAGIC = b"SQLite format 3\x00"


# SQLite primary result codes (extended codes keep them in their low byte).
_BUSY, _LOCKED, _READONLY, _IOERR, _CORRUPT, _FULL, _CANTOPEN, _NOTADB = 5, 6, 8, 10, 11, 13, 14, 26


def is_ripple_index(path: str | Path) -> bool:
    """Whether the SQLite header of ``path`` carries :data:`APPLICATION_ID` (indexes created since it
    was introduced; older ones are recognised by their ``meta`` table once open). Never raises."""
    try:
        with open(path, "rb") as fh:
            head = fh.read(72)
    except OSError:
        return False
    return len(head) == 72 and head.startswith(_SQLITE_MAGIC) and int.from_bytes(head[68:72], "big") == APPLICATION_ID


def file_identity(path: str | Path) -> tuple[int, int] | None:
    """``(device, inode)`` of ``path`` (symbolic links followed), ``None`` when it cannot be stat'ed: two
    connections opened by the same name reach the same file only when it is unchanged between them (an
    index re-created or replaced by ``os.replace`` gets a new inode). Never raises."""
    try:
        st = os.stat(path)
    except OSError:
        return None
    return st.st_dev, st.st_ino


def not_an_index(path: Path, why: str) -> NotAnIndex:
    """The :class:`~stores.errors.NotAnIndex` for ``path`` (``why``: what the file is instead)."""
    return NotAnIndex(f"{path} is not a ripple index ({why}); ripple did not create it and leaves it alone: pass "
                      "another --db (or RIPPLE_DB)")


def map_sqlite_error(exc: sqlite3.Error, path: Path, ours: bool = True) -> StoreError:
    """Translate a sqlite3 exception into the store error tree, saying what happened: busy, disk full,
    read-only, damaged (``ours``: the file is known to be a ripplegraph index, so re-indexing is the
    advice) or not an index at all."""
    code = getattr(exc, "sqlite_errorcode", None)
    primary = code & 0xFF if isinstance(code, int) else None
    msg = str(exc).lower()
    if primary in (_BUSY, _LOCKED):
        return StoreUnavailable(f"index {path} is busy ({exc}): another ripple process is writing it; retry when it "
                                "is done")
    if primary == _FULL:
        return StoreUnavailable(f"index {path}: {disk_full_message(path)}")
    if primary == _READONLY:
        return StoreReadOnly(f"index {path}: {read_only_message(path)}")
    if primary == _CANTOPEN:
        if path.is_dir():
            return StoreUnavailable(f"{path} is a folder, not an index file; pass the index file (such as "
                                    f"{path / 'index.db'})")
        why = read_only_message(path)
        if why != f"read-only: {path} cannot be written":
            return StoreReadOnly(f"index {path}: {why}")
        return StoreUnavailable(f"cannot open index {path} ({exc})")
    if primary == _IOERR:
        full = disk_full_message(path)
        if full.startswith("disk full: 0 bytes free"):
            return StoreUnavailable(f"index {path}: {full}")
        return StoreUnavailable(f"index {path}: I/O error ({exc}); check the disk holding it")
    if primary in (_NOTADB, _CORRUPT) or any(s in msg for s in ("not a database", "malformed", "no such table",
                                                               "no such column")):
        if ours or is_ripple_index(path):
            return StoreCorrupt(f"index {path} is damaged ({exc}); delete it and re-index")
        return not_an_index(path, str(exc))
    return QueryFailed(f"index {path}: {exc}")
