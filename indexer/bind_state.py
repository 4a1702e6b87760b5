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

The file is a pickle of plain tuples, strings and dicts (the records one pickle beside its SHA-256:
a record whose bytes changed may still unpickle as tokens, only not those written), written to a temporary file and renamed
(a reader sees the old or the new one, never half); it lives in the user's cache folder like the
extraction cache, never in the workspace.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
from dataclasses import dataclass, field
from pathlib import Path

from indexer.fsguard import open_regular
from indexer.resolve.tracking import Record
from indexer.resolve.values import Token

__all__ = ["BindState", "load_bind_state", "save_bind_state", "discard_bind_state", "FORMAT"]

log = logging.getLogger(__name__)

FORMAT = 6
"""Version of the file's layout: a file of another layout is ignored (2: a file's record may be its
tokens packed, :func:`indexer.resolve.tracking.pack_deps`; 3: the records are one pickle kept with
its SHA-256, so that damage which still unpickles is refused, not trusted; 4: with each file's
share of the framework links, so that a link that changes re-produces only the files whose share did;
5: with the identifiers of the doc files, :class:`indexer.mention_refresh.MentionRecords`; 6: with the
names of the tables and columns each file's share of the links holds, so that an update sees a table
come or go: :attr:`indexer.resolve.repository.RepositoryResolver.link_names`)."""


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
    deps: dict[str, Record] = field(default_factory=dict)
    link_deps: set[Token] = field(default_factory=set)
    link_shares: dict[str, bytes] | None = None
    mentions: dict[str, tuple[str, bytes, bool]] = field(default_factory=dict)
    link_names: dict[str, frozenset[tuple[str, str]]] | None = None


def load_bind_state(path: Path) -> BindState | None:
    """The records saved at ``path``, or ``None`` when there are none or they cannot be read (a
    damaged or foreign file, or no regular file, is logged and ignored, never raised nor waited on;
    so is one lacking the record of a file its checksums name)."""
    if not os.path.lexists(path):
        return None
    try:
        with open_regular(path) as fh:  # a FIFO in its place is refused, not waited on (brk43)
            data = pickle.load(fh)
    except Exception as exc:  # truncated, foreign, unreadable: the run binds the whole tree
        log.info("bind records %s unreadable (%s): ignored", path, exc)
        return None
    if not (isinstance(data, tuple) and len(data) == 3 and data[0] == FORMAT and isinstance(data[2], bytes)):
        return None
    if hashlib.sha256(data[2]).hexdigest() != data[1]:  # changed bytes that still unpickle
        log.info("bind records %s damaged (digest differs): ignored", path)
        return None
    try:
        body = pickle.loads(data[2])
    except Exception as exc:  # written whole, digest and all, by something else: ignored as well
        log.info("bind records %s unreadable (%s): ignored", path, exc)
        return None
    if not (isinstance(body, tuple) and len(body) == 7):
        return None
    key, checksums, deps, link_deps, link_shares, mentions, link_names = body
    if not (isinstance(key, str) and isinstance(checksums, dict) and isinstance(deps, dict)
            and isinstance(link_deps, (set, frozenset)) and all(isinstance(d, (tuple, bytes)) for d in deps.values())
            and (link_shares is None or (isinstance(link_shares, dict)
                                         and all(isinstance(d, bytes) for d in link_shares.values())))
            and isinstance(mentions, dict) and all(_doc_words(m) for m in mentions.values())
            and (link_names is None or (isinstance(link_names, dict) and all(_names(n) for n in link_names.values())))):
        return None
    if not checksums.keys() <= deps.keys():
        # Every file the index held has a record (an empty one when its output read nothing): a file
        # without one would never count as a reader of what a later edit changes.
        log.info("bind records %s lack the record of a file: ignored", path)
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
    """Write ``state`` to ``path`` atomically (temporary file, then rename); whether it was saved. A
    failure is logged: the index is written; only the next run's shortcut is lost."""
    tmp = path.with_name(path.name + ".tmp")
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        body = pickle.dumps((state.key, state.checksums, state.deps, state.link_deps, state.link_shares,
                             state.mentions, state.link_names),
                            protocol=pickle.HIGHEST_PROTOCOL)
        with open(tmp, "wb") as fh:
            pickle.dump((FORMAT, hashlib.sha256(body).hexdigest(), body), fh, protocol=pickle.HIGHEST_PROTOCOL)
        os.replace(tmp, path)
    except OSError as exc:
        log.warning("could not save %s: %s", path, exc)
        tmp.unlink(missing_ok=True)
        return False
    return True


def discard_bind_state(path: Path) -> None:
    """Remove the records at ``path`` (no error when absent)."""
    try:
        path.unlink(missing_ok=True)
    except OSError as exc:
        log.warning("could not remove %s: %s", path, exc)
