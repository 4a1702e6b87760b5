"""Which unchanged documentation files an incremental update must write again for their ``MENTIONS``.

A doc or configuration file's ``MENTIONS`` edges (:mod:`indexer.mentions`) are computed when it is
written, by looking its mentioned names up among every node of the index. An edit elsewhere can change
that answer without touching the doc: a definition of a mentioned name added (a name linked for the
first time), removed or renamed (an edge to a node that is gone), its parameters changed (its node id
moves), or the copies of a name going from four (too common: no edge, :data:`indexer.mentions.MAX_TARGETS`)
to two. A full index would link the doc as the code now stands, so an update that left it alone would
not be equal to a full index (issue 19 goal 2).

:func:`changed_names` gives the short names whose definitions an update added, removed or moved (their
node ids differ); :func:`docs_mentioning` the doc and configuration files among the others whose text
holds one of those names as a whole identifier. The caller re-binds and writes those files again
(:meth:`indexer.incremental.RepositoryIndex.update`), which computes their mentions anew. An edit inside
bodies changes no definition's id: no doc is read. A name the doc holds but not as a mention (outside a
code span) makes the doc written again with the same edges: a wasted write, never a wrong one.

Scope: the docs of the repository being updated. Docs of other repositories in a shared index that
mention one of its names are linked when they are next indexed (as before: their links across
repositories already depend on the order in which repositories were indexed).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.content import content_kind
from indexer.discovery import SkipFile, read_source, to_utf8

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.repository import FileChange

__all__ = ["changed_names", "docs_mentioning", "SUBSTRING_NAMES"]

_WORD_BYTES = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"
_SPACES = bytes(c if c in _WORD_BYTES else 32 for c in range(256))
"""A byte table keeping identifier characters and making every other byte (non-ASCII ones included) a
space: a text translated through it splits into its ASCII identifiers."""

SUBSTRING_NAMES = 32
"""Up to this many changed names, a doc is first searched for each name as a substring (Django's 646
doc and configuration files, 6.1 MB, in about 30 ms a name); with more (a file added or removed whole),
each doc is split into its identifiers once instead (about 0.6 s for the same files on a loaded 2-core
machine; a regular expression of the names took 1.7 s for 40 names, 10 s for 400)."""


def _ids(fc: FileCtx | None) -> set[tuple[str, str]]:
    """``(short name, node id)`` of every definition ``fc`` holds (none for ``None``)."""
    if fc is None:
        return set()
    return {(rd.name, rd.id) for rd in fc.defs}


def changed_names(changes: Iterable[FileChange]) -> set[str]:
    """The short names of the definitions ``changes`` (one update's, from
    :meth:`indexer.resolve.repository.RepositoryResolver.update`) added or removed, counting a definition
    whose node id moved (renamed, moved to another class, another parameter count, its file's module key
    moved) as both. Empty for edits inside bodies."""
    names: set[str] = set()
    for c in changes:
        old, new = _ids(c.old), _ids(c.new)
        names.update(name for name, _ in old ^ new)
    return names


def docs_mentioning(root: Path, files: Mapping[str, FileCtx], names: Collection[str], skip: Collection[str],
                    max_bytes: int, confine: str | None = None) -> set[str]:
    """The paths of the documentation and configuration files among ``files`` (repository-relative
    path -> context; those whose language :func:`indexer.content.content_kind` calls ``doc`` or
    ``config``), but those in ``skip``, whose text under ``root`` holds one of ``names`` as a whole
    identifier. A file that cannot be read now (gone, over ``max_bytes``, not a regular file, a link
    leading out of ``confine``, the real root the extraction confines files to: ``None`` when links
    out are followed) is left out: the update that sees it change handles it. Reads each candidate once; nothing when ``names``
    is empty."""
    if not names:
        return set()
    wanted = {n.encode() for n in names if n.isascii()}
    other = [n for n in names if not n.isascii()]  # found as substrings: a doc holding one is written again
    found: set[str] = set()
    for path, fc in files.items():
        if path in skip or content_kind(fc.lang) not in ("doc", "config"):
            continue
        try:
            data = read_source(str(root / path), max_bytes, confine)
        except (SkipFile, OSError):
            continue
        if data.startswith((b"\xff\xfe", b"\xfe\xff")):  # UTF-16 with a byte-order mark: as the writer reads it
            data = to_utf8(data)[0]
        # A name outside ASCII is looked for in the text as the writer decodes it: a legacy-encoded
        # (cp1252 / latin-1) doc's bytes are not UTF-8, and decoding them as UTF-8 lost the name (brk54).
        if other and any(n in to_utf8(data)[0].decode("utf-8", "replace") for n in other):
            found.add(path)
        elif len(wanted) <= SUBSTRING_NAMES and not any(n in data for n in wanted):
            continue
        elif not wanted.isdisjoint(data.translate(_SPACES).split()):
            found.add(path)
    return found
