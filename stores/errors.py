"""The store error tree. Backends map their driver's exceptions onto it (``raise ... from exc``)::

    StoreError
    ├── StoreUnavailable   the backend cannot be reached or opened (server down, file locked, disk full)
    │   └── StoreReadOnly  the store can be read but not written (read-only mount, no write permission)
    ├── StoreCorrupt       the store exists but cannot be read (a damaged ripplegraph index)
    │   ├── StoreOutdated  a ripplegraph index of an older schema version (rebuilding it is safe)
    │   │   └── StoreIncomplete  one of this version lacking a table (dropped): rebuilt the same way
    │   ├── StoreTooNew    one written by a newer ripplegraph: never rebuilt (that would downgrade it)
    │   └── NotAnIndex     a file ripplegraph did not create: never deleted, never advised to be
    └── QueryFailed        a well-formed request the backend refused or failed to answer

:func:`disk_full_message`, :func:`read_only_message` and :func:`os_error_message` say what happened to
a file in words (``disk full: 1,024 bytes free on /mnt/data``, ``read-only: the file system ... is
mounted read-only``); every front end and backend that reports a failed file write uses them.
"""

from __future__ import annotations

import errno
import os
import shutil
from pathlib import Path

__all__ = ["StoreError", "StoreUnavailable", "StoreReadOnly", "StoreCorrupt", "StoreOutdated", "StoreIncomplete", "StoreTooNew",
           "NotAnIndex",
           "QueryFailed", "disk_full_message", "read_only_message", "os_error_message"]


class StoreError(Exception):
    """Base of every error a store raises; the message says what failed and how to fix it."""


class StoreUnavailable(StoreError):
    """The backend cannot be reached or opened."""


class StoreReadOnly(StoreUnavailable):
    """The store was opened for reading only (a read-only file system, a file or folder this user may
    not write): reads work, a write raises this."""


class StoreCorrupt(StoreError):
    """The store's data cannot be read as a ripplegraph index."""


class StoreOutdated(StoreCorrupt):
    """A ripplegraph index written with another schema version: only a rebuild can use it."""


class StoreTooNew(StoreCorrupt):
    """A ripplegraph index of a newer schema version than this ripplegraph reads: an older and a newer
    ripplegraph sharing one index (an editor's bundled server and a newer CLI) must not rebuild it in
    turn, so nothing deletes it; the message asks for an upgrade or another index file."""


class StoreIncomplete(StoreOutdated):
    """A ripplegraph index of this schema version (its ``meta`` says so) lacking one of its tables or
    views: damaged, and rebuilt by ``ripple index`` as an outdated one is."""


class NotAnIndex(StoreCorrupt):
    """The file is not a ripplegraph index (not SQLite, or SQLite without ripplegraph's marks): it
    belongs to someone else, so no message suggests deleting it."""


class QueryFailed(StoreError):
    """The backend refused or failed a request."""


def _existing(path: Path) -> Path:
    """``path`` or its nearest existing parent (absolute)."""
    path = Path(os.path.abspath(path))
    while not path.exists() and path != path.parent:
        path = path.parent
    return path


def _mount_point(path: Path) -> Path:
    """The mount point of the file system holding ``path`` (the topmost parent on the same device)."""
    path = _existing(path)
    try:
        dev = path.stat().st_dev
        while path != path.parent and path.parent.stat().st_dev == dev:
            path = path.parent
    except OSError:
        pass
    return path


def disk_full_message(path: str | Path) -> str:
    """``disk full: N bytes free on MOUNT (writing PATH); free some space or ...``: the free bytes of
    the file system holding ``path`` (``?`` when even that cannot be read)."""
    where = _existing(Path(path))
    try:
        free = f"{shutil.disk_usage(where).free:,}"
    except OSError:
        free = "?"
    return (f"disk full: {free} bytes free on {_mount_point(where)} (writing {path}); free some space there, or "
            "write the index to another disk (--db / RIPPLE_DB)")


def read_only_message(path: str | Path) -> str:
    """``read-only: <why>``: the file system of ``path`` is mounted read-only, or this user may not
    write ``path``, or the folder SQLite needs for its ``-wal`` / ``-shm`` files beside it."""
    path = Path(path)
    folder = _existing(path.parent)
    try:
        mounted_ro = bool(os.statvfs(folder).f_flag & os.ST_RDONLY)
    except (OSError, AttributeError):
        mounted_ro = False
    if mounted_ro:
        why = f"the file system holding {path} ({_mount_point(folder)}) is mounted read-only"
    elif path.exists() and not os.access(path, os.W_OK):
        why = f"this user may not write {path}"
    elif not os.access(folder, os.W_OK):
        why = (f"this user may not write the folder {folder} (SQLite keeps {path.name}-wal and {path.name}-shm "
               "beside the index)")
    else:
        why = f"{path} cannot be written"
    return f"read-only: {why}"


def os_error_message(exc: OSError, path: str | Path | None = None) -> str:
    """One line for a failed file operation: :func:`disk_full_message` for ``ENOSPC`` / ``EDQUOT``,
    :func:`read_only_message` for ``EROFS`` / ``EACCES`` / ``EPERM``, else ``<strerror>: <file>``.
    ``path`` is the file concerned when the exception does not name one."""
    where = exc.filename if exc.filename is not None else path
    if exc.errno in (errno.ENOSPC, getattr(errno, "EDQUOT", errno.ENOSPC)):
        return disk_full_message(where if where is not None else ".")
    if exc.errno in (errno.EROFS, errno.EACCES, errno.EPERM) and where is not None:
        return read_only_message(where)
    return f"{exc.strerror or exc}: {where}" if where is not None else str(exc.strerror or exc)
