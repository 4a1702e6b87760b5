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

Tables and columns are no file's definitions: the framework linker emits them, so the caller compares
the names of what the link emitted before and after it resolves
(:attr:`indexer.resolve.repository.RepositoryResolver.link_names`) and writes the docs naming a
changed one after the resolve. A whole-tree sync over an index (more than ``RESCAN_THRESHOLD`` paths,
a one-shot run whose records no longer hold) writes only the outputs whose digest changed; there
:func:`synced_names` compares the changed files' definitions with the index's nodes of their paths.

:class:`MentionRecords` answers the same question from a record of each doc's identifiers kept between
updates (and saved with the resolver's records for the next one-shot run), reading a doc only when the
index holds bytes of it the record was not made from.

Scope: the docs of the repository being updated. Docs of other repositories in a shared index that
mention one of its names are linked when they are next written (edited, or their repository indexed
whole), not refreshed here: a full index of the repositories, the reference an update must equal,
itself depends on their order (indexing ``A`` then ``B`` links ``B``'s docs to ``A``'s definitions and
not ``A``'s to ``B``'s; ``B`` then ``A`` the reverse), so there is no one answer to refresh them to; an
edge into a definition that went is removed with its node, in every repository. Making
cross-repository mentions independent of the order would mean writing another repository's doc edges
on every run (its files, its journal), a change of the shared index's ownership, not of this refresh
(docs/accuracy.md, session 54).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Collection, Iterable, Mapping
from pathlib import Path
from typing import TYPE_CHECKING

from indexer.content import content_kind
from indexer.discovery import SkipFile, read_source, to_utf8

if TYPE_CHECKING:
    from indexer.resolve.context import FileCtx
    from indexer.resolve.repository import FileChange

__all__ = ["changed_names", "synced_names", "docs_mentioning", "DocWords", "MentionChanges", "MentionRecords"]

_WORD_BYTES = b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$"
_SPACES = bytes(c if c in _WORD_BYTES else 32 for c in range(256))
"""A byte table keeping identifier characters and making every other byte (non-ASCII ones included) a
space: a text translated through it splits into its ASCII identifiers."""

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


def synced_names(changes: Iterable[FileChange], stored: Mapping[str, str], gone: Iterable[str],
                 stored_ids: Callable[[str], set[tuple[str, str]]]) -> set[str]:
    """:func:`changed_names` for a whole-tree sync over an index (``stored``: ``{path: checksum}`` it
    holds; ``gone``: its paths the tree no longer has): a change whose old context is not known (a
    fresh resolver, a one-shot run) compares the new definitions with the index's nodes of that path
    (``stored_ids(path)``: ``(short name, id)`` of its nodes a mention may link to); a file whose
    bytes the index holds is left out there, and a gone file counts its stored nodes."""
    names: set[str] = set()
    for c in changes:
        if c.old is not None or c.path not in stored:
            names |= changed_names([c])
        elif c.new is None or c.new.checksum != stored[c.path]:
            names.update(name for name, _ in stored_ids(c.path) ^ _ids(c.new))
    for path in gone:
        names.update(name for name, _ in stored_ids(path))
    return names


DocWords = tuple[str, bytes, bool]
"""What :class:`MentionRecords` keeps of a doc: ``(checksum, words, non_ascii)``, the SHA-256 (hex) of the
bytes it was read from, its ASCII identifiers (:data:`_SPACES`) each once, sorted, each between two
newlines (``b"\\nA\\nB\\n"``: a name is held when ``b"\\n" + name + b"\\n"`` is a substring), and whether
its text holds any non-ASCII character."""


MentionChanges = tuple[dict[str, DocWords], list[str], int]
"""What a copy of :class:`MentionRecords` changed (:meth:`MentionRecords.changed_since`): the records
it made or remade by path, the paths whose records it dropped (sorted), and how many docs it read."""


def _searched(raw: bytes) -> bytes:
    """A doc's bytes as searched: a UTF-16 text with a byte-order mark converted as the writer reads it."""
    return to_utf8(raw)[0] if raw.startswith((b"\xff\xfe", b"\xfe\xff")) else raw


def _read_doc(root: Path, path: str, max_bytes: int, confine: str | None) -> tuple[bytes, bytes] | None:
    """``(raw bytes, bytes as searched)`` of the doc at ``root / path``, or ``None`` when it cannot be
    read now (as :func:`docs_mentioning` reads it: ``confine`` the real root, ``None`` when links out
    are followed)."""
    try:
        raw = read_source(str(root / path), max_bytes, confine)
    except (SkipFile, OSError):
        return None
    return raw, _searched(raw)


def _words(raw: bytes, data: bytes) -> DocWords:
    words = set(data.translate(_SPACES).split())
    return (hashlib.sha256(raw).hexdigest(), b"\n" + b"\n".join(sorted(words)) + b"\n" if words else b"",
            not data.isascii())


class MentionRecords:
    """Per doc and configuration file, the identifiers its text holds (:data:`DocWords`), kept between
    the updates of one repository's index (:class:`indexer.incremental.RepositoryIndex`, and saved with
    the resolver's records for the next one-shot run: :class:`indexer.bind_state.BindState`) so that
    :meth:`docs_mentioning` answers from memory, not by reading every doc from disk (Django's 646 docs:
    1.6 MiB of records against 6.1 MB of text).

    A doc's record holds while the index holds the bytes it was read from: its checksum is the
    context's (``FileCtx.checksum``); a doc whose checksum differs (edited and indexed since) or without
    a record is read once and recorded. The answer is :func:`docs_mentioning`'s for the docs as the index
    holds them (a doc edited on disk but not indexed yet is written by the update that indexes it). A
    name not in ASCII is searched in the text itself, read again, only in docs holding non-ASCII text."""

    __slots__ = ("records", "reads")

    def __init__(self, saved: Mapping[str, DocWords] | None = None) -> None:
        self.records: dict[str, DocWords] = dict(saved or {})
        """``{path: DocWords}``."""
        self.reads = 0
        """How many docs were read from disk (each read counts once)."""

    def docs_mentioning(self, root: Path, files: Mapping[str, FileCtx], names: Collection[str],
                        skip: Collection[str], max_bytes: int, confine: str | None = None) -> set[str]:
        """The paths of the documentation and configuration files among ``files`` (repository-relative
        path -> context; those whose language :func:`indexer.content.content_kind` calls ``doc`` or
        ``config``), but those in ``skip``, whose text under ``root`` holds one of ``names`` as a whole
        identifier (a name not in ASCII: as a substring of the text as the writer decodes it). A doc is
        read only when it has no record for the bytes the index holds, or when a non-ASCII name is
        asked and its text has non-ASCII characters; one that cannot be read now (gone, over
        ``max_bytes``, not a regular file, a link leading out of ``confine``, the real root the
        extraction confines files to: ``None`` when links out are followed) is left out: the update
        that sees it change handles it. Records of docs ``files`` no longer holds are dropped; nothing
        is read when ``names`` is empty."""
        if not names:
            return set()
        for gone in [p for p in self.records if p not in files]:
            del self.records[gone]
        wanted = [b"\n" + n.encode() + b"\n" for n in names if n.isascii()]
        other = [n for n in names if not n.isascii()]
        found: set[str] = set()
        for path, fc in files.items():
            if path in skip or content_kind(fc.lang) not in ("doc", "config"):
                continue
            rec = self.records.get(path)
            text: bytes | None = None
            if rec is None or rec[0] != fc.checksum:
                read = _read_doc(root, path, max_bytes, confine)
                self.reads += 1
                if read is None:
                    continue
                rec = _words(*read)
                text = read[1]
                if rec[0] == fc.checksum:  # the bytes the index holds: kept for the next updates
                    self.records[path] = rec
            if any(w in rec[1] for w in wanted):
                found.add(path)
            elif other and rec[2]:
                if text is None:
                    read = _read_doc(root, path, max_bytes, confine)
                    self.reads += 1
                    text = read[1] if read is not None else b""
                # as the writer decodes it: a legacy-encoded (cp1252) doc's bytes are not UTF-8 (brk54)
                if any(n in to_utf8(text)[0].decode("utf-8", "replace") for n in other):
                    found.add(path)
        return found

    def note(self, path: str, lang: str, raw: bytes) -> None:
        """Record the doc at ``path`` from ``raw``, the bytes a run just read to index it (nothing for a
        file :func:`indexer.content.content_kind` does not call ``doc`` or ``config``, nor when its record
        is already of these bytes): the next update that asks need not read it again."""
        if content_kind(lang) not in ("doc", "config"):
            return
        rec = self.records.get(path)
        if rec is None or rec[0] != hashlib.sha256(raw).hexdigest():
            self.records[path] = _words(raw, _searched(raw))

    def changed_since(self, before: Mapping[str, DocWords], reads: int) -> MentionChanges:
        """What these records changed since they were ``before`` (a shallow copy of :attr:`records`
        taken then; a record is new when it is not the very object ``before`` holds) and :attr:`reads`
        was ``reads``: for a forked copy handing its changes to the process it was forked from
        (:meth:`take`)."""
        return ({p: rec for p, rec in self.records.items() if before.get(p) is not rec},
                sorted(before.keys() - self.records.keys()), self.reads - reads)

    def take(self, changes: MentionChanges) -> None:
        """Apply what a forked copy of these records changed (:meth:`changed_since`): its records
        replace or join these, the paths it dropped go, its reads are counted."""
        made, dropped, reads = changes
        for path in dropped:
            self.records.pop(path, None)
        self.records.update(made)
        self.reads += reads

    def merged(self, saved: Mapping[str, DocWords]) -> MentionRecords:
        """These records over ``saved`` (a path recorded in both keeps this one's record: the bytes read
        last)."""
        return MentionRecords({**saved, **self.records})

    def kept(self, files: Mapping[str, FileCtx]) -> dict[str, DocWords]:
        """The records that still hold for ``files`` (same path and checksum), to save."""
        return {p: rec for p, rec in self.records.items() if (fc := files.get(p)) is not None and fc.checksum == rec[0]}


def docs_mentioning(root: Path, files: Mapping[str, FileCtx], names: Collection[str], skip: Collection[str],
                    max_bytes: int, confine: str | None = None) -> set[str]:
    """:meth:`MentionRecords.docs_mentioning` without records kept: every candidate doc read once (the
    stateless form, for a caller holding no records)."""
    return MentionRecords().docs_mentioning(root, files, names, skip, max_bytes, confine)
