"""Stamp files of the state folder: one short ASCII value each (a digest, an index's identity),
written atomically and read back defensively (:mod:`indexer.incremental`'s written and link stamps)."""

from __future__ import annotations

import logging
from pathlib import Path

from indexer.discovery import SkipFile
from indexer.fsguard import read_regular

__all__ = ["STAMP_BYTES", "read_stamp", "save_stamp"]

log = logging.getLogger(__name__)

STAMP_BYTES = 4096
"""Cap on a stamp file of the state folder read back (a digest or an identity: under 100 bytes)."""


def read_stamp(path: Path) -> str | None:
    """The ASCII text of the stamp at ``path``, stripped; ``None`` when it cannot be read: absent,
    no regular file (a FIFO is refused, not waited on: brk43), larger than :data:`STAMP_BYTES`,
    not ASCII."""
    try:
        return read_regular(path, STAMP_BYTES).decode("ascii").strip()
    except (SkipFile, UnicodeDecodeError):
        return None


def save_stamp(path: Path, value: str) -> bool:
    """Write ``value`` (ASCII) to ``path`` atomically (a temporary file beside it, then a rename);
    whether it was saved (an ``OSError`` is logged as a warning, not raised: the index is written)."""
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_suffix(".tmp")
        tmp.write_text(value, encoding="ascii")
        tmp.replace(path)
        return True
    except OSError as exc:
        log.warning("could not save %s: %s", path, exc)
        return False
