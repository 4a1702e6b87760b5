"""What the resolver recorded about the index's current content, kept between one-shot runs.

A watcher (:meth:`indexer.incremental.RepositoryIndex.update`) re-binds only the files an edit can
affect because its resolver remembers what every file's output read (tokens, see
:mod:`indexer.resolve.tracking`). A one-shot ``ripple index`` starts in a fresh process; without
those records it would have to bind every file again. :class:`BindState` is the record written at
the end of a whole-tree run (next to the journal, in the index's state folder): the checksum of
every file the index then held, what each file's output read, what the framework linker read, and
a key (indexer version, product, link inputs) under which they hold. The next one-shot run (and a
watcher's first sync: a server opening the folder) takes them over only when the index still holds exactly those checksums under the same key; anything
else (another process wrote the index since, a newer indexer, a changed configuration, a damaged
file) makes it bind the whole tree as before, so the records can cost time, never exactness.

The file is :data:`MAGIC`, the :data:`FORMAT` byte and the SHA-256 of the rest, then pickles of
plain tuples, strings, bytes and dicts: the key, checksums and the other tables with the number of
records, then the records a batch of :data:`BATCH` at a time (a record whose bytes changed may
still unpickle as tokens, only not those written: the digest refuses it). It is written to a
temporary file and renamed (a reader sees the old or the new one, never half) as it is made: the
records are read back from where the run parked them (:meth:`RepositoryResolver.recorded
<indexer.resolve.repository.RepositoryResolver.recorded>`) and written one batch at a time, so that
saving holds neither every record nor the whole file in memory (one pickle of it all and its body
were two copies of every record: the 400 MB generated monorepo's binding child grew by about 76 MiB
just before it exited; docs/benchmarks.md, session 60). It lives in the user's cache folder like
the extraction cache, never in the workspace.
"""

from __future__ import annotations

import hashlib
import io
import logging
import os
import pickle
from collections.abc import Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from indexer.fsguard import open_regular
from indexer.parked import ParkedDataError
from indexer.resolve.tracking import Record
from indexer.resolve.values import Token

__all__ = ["BindState", "load_bind_state", "save_bind_state", "discard_bind_state", "BATCH", "FORMAT", "MAGIC"]

log = logging.getLogger(__name__)

FORMAT = 7
"""Version of the file's layout: a file of another layout is ignored (2: a file's record may be its
tokens packed, :func:`indexer.resolve.tracking.pack_deps`; 3: the records are one pickle kept with
its SHA-256, so that damage which still unpickles is refused, not trusted; 4: with each file's
share of the framework links, so that a link that changes re-produces only the files whose share did;
5: with the identifiers of the doc files, :class:`indexer.mention_refresh.MentionRecords`; 6: with the
names of the tables and columns each file's share of the links holds, so that an update sees a table
come or go: :attr:`indexer.resolve.repository.RepositoryResolver.link_names`; 7: not one pickle beside
its digest but :data:`MAGIC`, the format, the digest and the pickles it covers, the records in
batches, so that it is written as it is made)."""

MAGIC = b"ripple-bind-state\0"
"""What the file starts with (then the :data:`FORMAT` byte and the 32-byte SHA-256 of the rest): a
file without it (an earlier layout, something else) is ignored."""

BATCH = 1000
"""Records written per pickle: each batch's pickle is made and written alone (its memo holds that
batch only)."""


@dataclass(slots=True)
class BindState:
    """The resolver's records for one index state.

    ``key``: what they hold under (indexer version, product, link-input digest: the caller builds
    it); ``checksums``: ``{path: hex SHA-256}`` of every file the index held when they were taken;
    ``deps``: ``{path: record of the tokens its output read}`` (the tokens, or them packed:
    :func:`indexer.resolve.tracking.record_tokens` reads either); ``link_deps``: the tokens the last
    framework link read; ``link_shares``: ``{path: 16-byte digest}`` of what that link gave each file
    (``None``: not known); ``mentions``: ``{path: (checksum, words, non_ascii)}``, the identifiers of
    the doc and configuration files recorded so far (:data:`indexer.mention_refresh.DocWords`);
    ``link_names``: ``{path: frozenset of (short name, id)}``, the nodes a mention may link to of each
    file's share of the links (``None``: not known)."""

    key: str
    checksums: dict[str, str]
    deps: Mapping[str, Record] = field(default_factory=dict)
    """A dict once loaded; when saved, any mapping (the resolver's reads each record back from its
    park when asked: :meth:`indexer.resolve.repository.RepositoryResolver.recorded`)."""
    link_deps: set[Token] = field(default_factory=set)
    link_shares: dict[str, bytes] | None = None
    mentions: dict[str, tuple[str, bytes, bool]] = field(default_factory=dict)
    link_names: dict[str, frozenset[tuple[str, str]]] | None = None


def load_bind_state(path: Path) -> BindState | None:
    """The records saved at ``path``, or ``None`` when there are none or they cannot be read (a
    damaged or foreign file, one of an earlier layout, or no regular file, is logged and ignored,
    never raised nor waited on; so is one lacking the record of a file its checksums name)."""
    if not os.path.lexists(path):
        return None
    try:
        with open_regular(path) as fh:  # a FIFO in its place is refused, not waited on (brk43)
            raw = fh.read()
    except Exception as exc:  # unreadable: the run binds the whole tree
        log.info("bind records %s unreadable (%s): ignored", path, exc)
        return None
    start = len(MAGIC) + 1 + _DIGEST
    if len(raw) < start or not raw.startswith(MAGIC) or raw[len(MAGIC)] != FORMAT:
        log.info("bind records %s of another layout: ignored", path)
        return None
    body = memoryview(raw)[start:]
    if hashlib.sha256(body).digest() != raw[start - _DIGEST:start]:  # changed bytes that still unpickle
        log.info("bind records %s damaged (digest differs): ignored", path)
        return None
    try:
        state = _read_body(io.BytesIO(raw), start)
    except Exception as exc:  # written whole, digest and all, by something else: ignored as well
        log.info("bind records %s unreadable (%s): ignored", path, exc)
        return None
    if state is None:
        return None
    if not state.checksums.keys() <= state.deps.keys():
        # Every file the index held has a record (an empty one when its output read nothing): a file
        # without one would never count as a reader of what a later edit changes.
        log.info("bind records %s lack the record of a file: ignored", path)
        return None
    return state


def _read_body(fh: BinaryIO, start: int) -> BindState | None:
    """The state whose pickles :func:`save_bind_state` wrote from ``start`` of ``fh`` on, or ``None``
    when they are not of its shapes (or more follow). Raises what unpickling raises."""
    fh.seek(start)
    head = pickle.load(fh)  # an unpickler each: one memo per pickle, as each was written
    if not (isinstance(head, tuple) and len(head) == 7 and isinstance(head[2], int)):
        return None
    key, checksums, count, link_deps, link_shares, mentions, link_names = head
    if not (isinstance(key, str) and isinstance(checksums, dict)
            and isinstance(link_deps, (set, frozenset))
            and (link_shares is None or (isinstance(link_shares, dict)
                                         and all(isinstance(d, bytes) for d in link_shares.values())))
            and isinstance(mentions, dict) and all(_doc_words(m) for m in mentions.values())
            and (link_names is None or (isinstance(link_names, dict) and all(_names(n) for n in link_names.values())))):
        return None
    paths = {p: p for p in checksums}  # each path one string, as one pickle of it all gave
    deps: dict[str, Record] = {}
    while len(deps) < count:
        batch = pickle.load(fh)
        if not (isinstance(batch, dict) and batch and all(isinstance(d, (tuple, bytes)) for d in batch.values())):
            return None
        for p, d in batch.items():
            deps[paths.get(p, p)] = d
    if len(deps) != count or fh.read(1):
        return None
    return BindState(key, checksums, deps, set(link_deps), link_shares, mentions, link_names)


def _names(n: object) -> bool:
    """Whether ``n`` has the shape of a file's link names: a frozenset of ``(name, id)`` strings."""
    return isinstance(n, frozenset) and all(
        isinstance(p, tuple) and len(p) == 2 and isinstance(p[0], str) and isinstance(p[1], str) for p in n)


def _doc_words(m: object) -> bool:
    """Whether ``m`` has the shape of a doc's record of identifiers."""
    return (isinstance(m, tuple) and len(m) == 3 and isinstance(m[0], str) and isinstance(m[1], bytes)
            and isinstance(m[2], bool))


def save_bind_state(path: Path, state: BindState) -> bool:
    """Write ``state`` to ``path`` atomically (temporary file, then rename) as it is made: the
    records a batch of :data:`BATCH` at a time, each read from ``state.deps`` when its batch is
    written (see the module docstring); whether it was saved. A failure is logged: the index is
    written; only the next run's shortcut is lost. A record that cannot be read back
    (:class:`indexer.parked.ParkedDataError`) also removes the records saved at ``path`` before:
    they no longer describe the index."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        with open(tmp, "wb") as fh:
            fh.write(MAGIC + bytes([FORMAT]) + bytes(_DIGEST))  # the digest is written last
            out = _Hashing(fh)
            deps = state.deps
            pickle.dump((state.key, state.checksums, len(deps), state.link_deps, state.link_shares,
                         state.mentions, state.link_names), out, protocol=pickle.HIGHEST_PROTOCOL)
            batch: dict[str, Record] = {}
            for p in deps:
                batch[p] = deps[p]
                if len(batch) == BATCH:
                    pickle.dump(batch, out, protocol=pickle.HIGHEST_PROTOCOL)
                    batch = {}
            if batch:
                pickle.dump(batch, out, protocol=pickle.HIGHEST_PROTOCOL)
            fh.seek(len(MAGIC) + 1)
            fh.write(out.digest())
        os.replace(tmp, path)
    except ParkedDataError as exc:
        log.warning("%s: the next run binds every file", exc)
        tmp.unlink(missing_ok=True)
        discard_bind_state(path)
        return False
    except OSError as exc:
        log.warning("could not save %s: %s", path, exc)
        tmp.unlink(missing_ok=True)
        return False
    return True


_DIGEST = 32
"""Bytes of the SHA-256 after :data:`MAGIC` and the format byte."""


class _Hashing:
    """A binary file's ``write`` that also hashes what it writes (SHA-256)."""

    __slots__ = ("_fh", "_hash")

    def __init__(self, fh: BinaryIO) -> None:
        self._fh = fh
        self._hash = hashlib.sha256()

    def write(self, data: bytes) -> int:
        """Write ``data`` (bytes-like) and hash it; the count written."""
        self._hash.update(data)
        return self._fh.write(data)

    def digest(self) -> bytes:
        """The SHA-256 of everything written so far (32 bytes)."""
        return self._hash.digest()


def discard_bind_state(path: Path) -> None:
    """Remove the records at ``path`` (no error when absent)."""
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("could not remove %s: %s", path, exc)
