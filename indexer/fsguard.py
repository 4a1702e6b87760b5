"""What the indexer (and the language server) may read from disk: the one rule, shared.

A repository is untrusted input. Three rules hold for every file ripplegraph reads:

* **inside the root**: a path whose real location (symbolic links followed) is outside the indexed
  root is not read unless the user asked for it (``ripple index --follow-external-symlinks``):
  :func:`inside_root`. ``ripple/fileContent`` in the language server applies the same test;
* **regular files only**: a FIFO, socket or device with a source suffix (or a ``.gitignore`` linked to
  ``/dev/zero``) is never opened for reading in a way that can block or never end:
  :func:`read_regular` checks with ``stat`` before ``open``, opens with ``O_NONBLOCK`` and checks
  again with ``fstat`` on the open descriptor (closing the race of a file swapped in between);
* **within a size cap**: at most ``cap`` bytes are read; a larger file is refused, not truncated.

Nothing here imports the rest of the package, so every layer of the indexer can use it.
"""

from __future__ import annotations

import logging
import os
import stat
from collections.abc import Callable, Collection
from typing import BinaryIO

__all__ = ["SkipFile", "inside_root", "open_regular", "read_inside", "read_regular", "MAX_CONFIG_BYTES"]

log = logging.getLogger(__name__)

MAX_CONFIG_BYTES = 1_000_000
"""Cap (bytes) on configuration files the indexer reads (``.gitignore``; Spring configuration has its
own, :data:`indexer.frameworks.spring_config.MAX_FILE_BYTES`)."""


class SkipFile(Exception):
    """A file ruled out by its bytes or its kind; ``reason`` is the skip counter key
    (``unreadable``, ``not_regular``, ``too_large``, ``binary``, ``symlink_outside``)."""

    def __init__(self, reason: str, detail: str) -> None:
        super().__init__(f"{reason}: {detail}")
        self.reason = reason


def inside_root(root: str | os.PathLike[str], path: str | os.PathLike[str]) -> bool:
    """Whether ``path``'s real location (every symbolic link followed) is ``root`` or under it.

    ``root`` must already be a real path (``os.path.realpath`` / ``Path.resolve()``); ``path`` may
    be absolute or relative to the working directory. A root of ``/`` contains everything. Never
    raises (a dangling link resolves to where it points)."""
    return _under(os.fspath(root), os.path.realpath(path))


def _under(base: str, real: str) -> bool:
    """Whether the real path ``real`` is the real path ``base`` or under it (no file system access)."""
    if real == base:
        return True
    prefix = base if base.endswith(os.sep) else base + os.sep
    return real.startswith(prefix)


def open_regular(path: str | os.PathLike[str]) -> BinaryIO:
    """The regular file at ``path`` (symbolic links followed) open for reading in binary, with no
    size cap: for the indexer's own state files (``ripple index``'s bind records), which a damaged
    or tampered cache folder may hold as a FIFO or device. Opened with ``O_NONBLOCK`` and checked
    with ``fstat`` on the descriptor, so opening never blocks. Raises :class:`SkipFile` with reason
    ``not_regular`` or ``unreadable`` (any ``OSError``, ``FileNotFoundError`` among them)."""
    fd = _open_nonblocking(path)
    try:
        if not stat.S_ISREG(os.fstat(fd).st_mode):
            raise SkipFile("not_regular", f"{os.fspath(path)!r} is not a regular file")
        return os.fdopen(fd, "rb")
    except BaseException:
        os.close(fd)
        raise


def _open_nonblocking(path: str | os.PathLike[str]) -> int:
    """A read-only descriptor of ``path`` opened without blocking (a FIFO opens at once) and without
    becoming the controlling terminal; raises :class:`SkipFile` ``unreadable`` on any ``OSError``."""
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_NOCTTY", 0) | getattr(os, "O_BINARY", 0)
    try:
        return os.open(path, flags)
    except OSError as exc:
        raise SkipFile("unreadable", str(exc)) from exc


def read_regular(path: str | os.PathLike[str], cap: int, root: str | None = None) -> bytes:
    """The bytes of the regular file at ``path`` (symbolic links followed), at most ``cap`` bytes.

    ``root`` (a real path; ``None``: anywhere): the file opened must lie inside it
    (:func:`inside_root`), checked on the open descriptor (``/proc/self/fd``; elsewhere the path is
    resolved again just after the open), so a link swapped since it was classified is not read where
    it now points.

    Raises :class:`SkipFile` with reason ``not_regular`` (a FIFO, socket, device or directory: never
    opened in a way that blocks), ``symlink_outside`` (the file opened is outside ``root``),
    ``too_large`` (more than ``cap`` bytes, found by ``fstat`` or while reading: a file that grows is
    not read past the cap) or ``unreadable`` (any ``OSError``).
    """
    try:
        st = os.stat(path)
    except OSError as exc:
        raise SkipFile("unreadable", str(exc)) from exc
    if not stat.S_ISREG(st.st_mode):
        raise SkipFile("not_regular", f"{os.fspath(path)!r} is not a regular file")
    fd = _open_nonblocking(path)
    try:
        if root is not None and not _under(os.fspath(root), _opened_path(fd, path)):  # (real already)
            raise SkipFile("symlink_outside", f"{os.fspath(path)!r} leads out of {root}")
        st = os.fstat(fd)
        if not stat.S_ISREG(st.st_mode):  # swapped for a FIFO or device after the first stat
            raise SkipFile("not_regular", f"{os.fspath(path)!r} is not a regular file")
        if st.st_size > cap:
            raise SkipFile("too_large", f"{st.st_size} bytes")
        parts: list[bytes] = []
        got = 0
        while got <= cap:
            block = os.read(fd, min(1 << 20, cap + 1 - got))
            if not block:
                break
            parts.append(block)
            got += len(block)
    except OSError as exc:
        raise SkipFile("unreadable", str(exc)) from exc
    finally:
        os.close(fd)
    if got > cap:
        raise SkipFile("too_large", f"more than {cap} bytes")
    return b"".join(parts)


def _opened_path(fd: int, path: str | os.PathLike[str]) -> str:
    """The real path of the file open on ``fd`` (Linux: its ``/proc/self/fd`` link, which the kernel writes
    resolved; elsewhere ``path`` resolved now). Resolving the link again cost one ``lstat`` per folder of the
    path, each resolving the folders above it: a file 500 folders deep took 12 ms."""
    try:
        where = os.readlink(f"/proc/self/fd/{fd}")
    except OSError:
        return os.path.realpath(path)
    return where if where.startswith(os.sep) else os.path.realpath(path)  # "pipe:[...]", "anon_inode:..."


def read_inside(path: str | os.PathLike[str], cap: int, root: str, quiet: Collection[str] = (),
                on_skip: Callable[[SkipFile], object] | None = None) -> bytes | None:
    """The bytes of a configuration file at ``path`` inside the real path ``root``, at most ``cap`` bytes
    (:func:`read_regular`); ``None`` when it lies outside ``root`` (reason ``symlink_outside``, found
    before anything is opened) or is skipped. The :class:`SkipFile` saying why goes to ``on_skip`` when
    given (a reader that counts, returns or words the reason itself: nothing is logged here); else a
    skip is logged as a warning (``<path> ignored: <reason>: <detail>``) unless its reason is one of
    ``quiet`` (``("unreadable",)``: a file looked for that may well not exist), and a file outside
    ``root`` is not logged (discovery leaves such links out silently). Never raises for the file's own
    faults."""
    if not inside_root(root, path):
        if on_skip is not None:
            on_skip(SkipFile("symlink_outside", f"{os.fspath(path)!r} leads out of {root}"))
        return None
    try:
        return read_regular(path, cap, root)
    except SkipFile as exc:
        if on_skip is not None:
            on_skip(exc)
        elif exc.reason not in quiet:
            log.warning("%s ignored: %s", path, exc)
        return None
