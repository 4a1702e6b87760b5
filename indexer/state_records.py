"""What a run keeps in the state folder for the next one, and the runs that start from it: the
resolver's records (:mod:`indexer.bind_state`: saved after a run that left no file to write, staged by
a binding child; a first sync that rebinds only what changed since they were saved; a watcher's
state given back between updates and rebuilt from them), the written stamp (which index file this
user's runs last wrote: whether the stored digests can be trusted) and the link stamp (the link
inputs the index was written with), and the extraction cache pruned to what the index references.

:class:`StateRecords` is a mixin of :class:`indexer.incremental.RepositoryIndex`: it reads the
index's attributes below and calls its rebind scope (:class:`indexer.rebind_scope.RebindScope`) and
``_summarise``.
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import time
from collections.abc import Mapping
from pathlib import Path

from indexer.bind_state import BindState, discard_bind_state, load_bind_state, save_bind_state
from indexer.discovery import SourceFile
from indexer.forked_resolve import Hashed
from indexer.extraction import ExtractStage, suffixed_paths
from indexer.frameworks.link import LinkOptions
from indexer.heap import release_memory
from indexer.mention_refresh import MentionRecords
from indexer.model import FileExtraction
from indexer.parked import ParkedDataError
from indexer.rescan import RESCAN_THRESHOLD
from indexer.resolve.repository import MEMO_BUDGET, RepositoryResolver
from indexer.run import IndexOptions, IndexReport, ProgressSink
from indexer.spill import spill_file
from indexer.stamps import read_stamp, save_stamp
from indexer.symbols import file_id
from indexer.writer import IndexWriter, Journal, indexer_version
from stores.contracts import GraphStore

__all__ = ["ReleasedState", "StateRecords", "link_digests"]

log = logging.getLogger(__name__)


@dataclasses.dataclass(frozen=True)
class ReleasedState:
    """What :meth:`RepositoryIndex.release_state` keeps of the state it gives back: the link options
    (read from the tree by the last sync, changed by template edits since), and each file's checksum
    and size (what the records and the cached extractions rebuild it from)."""

    link: LinkOptions | None
    checksums: dict[str, str]
    sizes: dict[str, int]


def link_digests(link: LinkOptions | None) -> tuple[str, str]:
    """``(records' key digest, full digest)`` of the link options: the first leaves the component
    templates out (only the link reads them, so a template edit keeps the records valid), the second
    holds them all (the link stamp)."""
    if link is None:
        return "", ""
    full = hashlib.sha256(_stable_repr(link).encode("utf-8", "surrogatepass")).hexdigest()
    keyed = hashlib.sha256(_stable_repr(dataclasses.replace(link, templates={})).encode("utf-8", "surrogatepass")).hexdigest()
    return keyed, full


def _stable_repr(value: object) -> str:
    """``repr`` of ``value`` that is the same in every process: a set's members sorted by their own text (a
    ``frozenset`` of paths repr'd as it iterates follows the string hashes, which ``PYTHONHASHSEED`` randomises per
    process, so two runs over the same repository disagreed and the second re-bound every file); dataclasses field
    by field, mappings and sequences in their order."""
    if dataclasses.is_dataclass(value) and not isinstance(value, type):
        inner = ", ".join(f"{f.name}={_stable_repr(getattr(value, f.name))}" for f in dataclasses.fields(value))
        return f"{type(value).__qualname__}({inner})"
    if isinstance(value, (set, frozenset)):
        return "{" + ", ".join(sorted(_stable_repr(v) for v in value)) + "}"
    if isinstance(value, Mapping):
        return "{" + ", ".join(f"{_stable_repr(k)}: {_stable_repr(v)}" for k, v in value.items()) + "}"
    if isinstance(value, (list, tuple)):
        return "(" + ", ".join(_stable_repr(v) for v in value) + ")"
    return repr(value)


class StateRecords:
    """The state folder's records and stamps, and the runs that start from them (see the module
    docstring); a mixin of :class:`indexer.incremental.RepositoryIndex`, whose attributes below it reads."""

    graph: GraphStore
    repo: str
    product: str
    options: IndexOptions
    extraction: ExtractStage
    resolver: RepositoryResolver
    writer: IndexWriter
    journal: Journal
    mention_records: MentionRecords
    bind_path: Path | None
    written_stamp: Path | None
    link_stamp: Path | None
    synced: bool
    released: ReleasedState | None

    def _sync_known(self, hashed: Hashed, stored: dict[str, str], link_digest: str,
                    full_digest: str, report: IndexReport, progress: ProgressSink) -> bool:
        """A first sync (a one-shot run's, or a watcher's before its updates) over an index whose
        resolver records (:mod:`indexer.bind_state`) still hold: rebuild the resolver on the extractions of what the index holds (from the cache), take the
        records over, then do what :meth:`update` does for the files whose bytes differ (and those
        gone). ``False`` (nothing done) when the records do not fit this index exactly, an extraction
        is not cached or more than :data:`RESCAN_THRESHOLD` files changed: the caller binds the
        whole tree. ``link_digest``: the link inputs but the templates (the records' key);
        ``full_digest``: all of them. Fills ``report``; its phases ``read``, ``extract``, ``resolve`` and ``write``."""
        t0 = time.perf_counter()
        if self.bind_path is None or self.resolver.files:
            return False
        state = load_bind_state(self.bind_path)
        if state is None or state.key != self._bind_key(link_digest) or state.checksums != stored \
                or any(self.journal.read()):
            return False
        by_path = {sf.path: (sf, size, checksum) for sf, size, checksum in hashed}
        changed = [p for p, (_, _, checksum) in by_path.items() if stored.get(p) != checksum]
        gone = [p for p in stored if p not in by_path]
        if len(changed) + len(gone) > RESCAN_THRESHOLD:
            return False
        nodes = self.graph.get_nodes([file_id(self.repo, p) for p in stored])
        version = indexer_version()
        if len(nodes) != len(stored) or any(n.props.get("indexer") != version for n in nodes.values()):
            return False  # another indexer wrote some file since
        if not self._rebuild(stored, {p: size for p, (_, size, _) in by_path.items()}, state):
            return False  # an extraction culled from the cache: the whole tree is bound
        if full_digest != self._link_stamp():  # a template changed since (not in the records' key): links may differ
            self.resolver.relink()
        del state
        loaded: list[tuple[FileExtraction, str, int]] = []
        texts: dict[str, str] = {}
        to_extract: list[SourceFile] = []
        for path in changed:
            sf, size, checksum = by_path[path]
            ex = self.extraction.cached(path, checksum)
            if ex is None:
                to_extract.append(sf)
            else:
                loaded.append((ex, checksum, size))
        progress.done("read")
        t1 = time.perf_counter()
        report.phases["read"] = t1 - t0
        progress.start("extract", len(to_extract))
        current = set(self.resolver.files) - set(gone)
        fresh = self.extraction.run(to_extract, suffixed_paths(by_path), report, progress, current, loaded)
        removed = gone + [sf.path for sf in to_extract if sf.path not in current and sf.path in self.resolver.files]
        progress.done("extract")
        t2 = time.perf_counter()
        report.phases["extract"] = t2 - t1
        progress.start("resolve", None)
        changes = self.resolver.update(loaded, removed)
        report.files_changed = sum(1 for p, fc in self.resolver.files.items() if stored.get(p) != fc.checksum)
        affected = {c.path for c in changes if c.new is not None}
        if any(c.interface_changed for c in changes):
            affected |= self._dependents(changes)
        refresh = self._stale_docs(changes, affected)
        linked_before = self.resolver.link_names
        resolved = self.resolver.resolve(sorted(affected | refresh))
        resolved = self._relink_docs(linked_before, resolved, affected, refresh)
        progress.done("resolve")
        t3 = time.perf_counter()
        report.phases["resolve"] = t3 - t2
        self.writer.write(resolved, self.resolver.files, sorted({c.path for c in changes if c.new is None}), fresh,
                          texts, report, progress, refresh)
        self._save_bind_state(link_digest)
        self._save_link_stamp(full_digest)
        self._prune_cache()
        self.synced = True
        report.phases["write"] = time.perf_counter() - t3
        self._summarise(report)
        return True

    def _rebuild(self, checksums: dict[str, str], sizes: dict[str, int], state: BindState) -> bool:
        """Build the (empty) resolver on the cached extractions of ``checksums`` (``{path:
        checksum}``, what the index holds; ``sizes``: the files' sizes, 0 when unknown) and take
        ``state``'s records over. ``False``, the resolver untouched, when an extraction is not cached."""
        base: list[tuple[FileExtraction, str, int]] = []
        for path, checksum in checksums.items():
            ex = self.extraction.cached(path, checksum)
            if ex is None:
                return False
            base.append((ex, checksum, sizes.get(path, 0)))
        self.resolver.update(base, track=False)
        self.resolver.restore(state.deps, state.link_deps, state.link_shares, state.link_names)
        self.mention_records = self.mention_records.merged(state.mentions)
        return True

    @property
    def holds_state(self) -> bool:
        """Whether the resolver holds a synced tree's state (what :meth:`release_state` gives back)."""
        return self.synced and self.released is None and bool(self.resolver.files)

    def paths(self) -> set[str]:
        """The repository's indexed files (relative paths) as the last run left them, whether the
        resolver holds its state or gave it back."""
        return set(self.released.checksums) if self.released is not None else set(self.resolver.files)

    def release_state(self) -> bool:
        """Give back the resolver's state between updates (every file's context, the memo, the
        lookup tables: most of a watcher's resident set), keeping what rebuilds it exactly: the
        resolver's records are saved to the state folder (:mod:`indexer.bind_state`, as a whole-tree
        run saves them) and the next :meth:`update` rebuilds the resolver from them and the cached
        extractions before it applies its changes (:meth:`_restore_state`), so its index is the one
        it would have been without the release. ``False``, nothing given back, when no synced state is
        held, there is no state folder, a run left files to write (the journal) or the records could
        not be saved. Call it from the thread that runs the updates, between two of them."""
        if not self.holds_state or self.bind_path is None or any(self.journal.read()):
            return False
        link = self.resolver.link
        keyed, full = link_digests(link)
        if not self._save_bind_state(keyed):  # not saved (logged): keep the state
            return False
        self._save_link_stamp(full)
        files = self.resolver.files
        self.released = ReleasedState(link, {p: fc.checksum for p, fc in files.items()},
                                  {p: fc.size for p, fc in files.items()})
        self.extraction.park = spill_file(self.options.state_dir)  # the old one holds the released files' lists
        code, self.resolver = self.resolver.code_gateways, RepositoryResolver(self.repo, link, park=self.extraction.park)
        self.resolver.code_gateways = code  # the gateway routes the link read (the registry entry's)
        self.mention_records = MentionRecords()  # saved with the records, read back with them
        self.synced = False
        release_memory()
        log.info("%s: resolver state of %d files released (rebuilt from the records at the next change)",
                 self.repo, len(self.released.checksums))
        return True

    def _restore_state(self, progress: ProgressSink) -> float | None:
        """Rebuild the resolver :meth:`release_state` gave back, from the records it saved and the
        cached extractions of the files the index holds; the seconds it took. ``None`` (the caller
        syncs the whole tree, which takes the records when they hold) when the index or the records
        changed since (another process wrote them), the journal names files to write or an
        extraction left the cache."""
        released, self.released = self.released, None
        if released is None or self.bind_path is None:
            return None
        t0 = time.perf_counter()
        progress.start("restore", None)
        state = load_bind_state(self.bind_path)
        keyed, _ = link_digests(released.link)
        ok = (state is not None and state.key == self._bind_key(keyed) and state.checksums == released.checksums
              and not any(self.journal.read()) and self._written_here()
              and self.graph.file_checksums(self.repo) == released.checksums)
        self.resolver.memo_budget = MEMO_BUDGET
        ok = ok and state is not None and self._rebuild(released.checksums, released.sizes, state)
        del state
        self.synced = ok
        progress.done("restore")
        took = time.perf_counter() - t0
        log.info("%s: resolver state of %d files %s in %.2f s", self.repo, len(released.checksums),
                 "rebuilt from the records" if ok else "not rebuilt (the records changed): whole-tree sync", took)
        return took if ok else None

    def _prune_cache(self) -> None:
        """After a whole-tree run: keep only the cached extractions some repository of the index
        still references (this indexer's version; the cache folder is shared by the index's
        repositories), so the cache follows the index instead of growing to its size limit."""
        keep = {(path, checksum) for repo in self.graph.repos() for path, checksum in self.graph.file_checksums(repo).items()}
        removed = self.extraction.prune(keep)
        if removed:
            log.info("extraction cache: %d entries no index references removed", removed)

    def _bind_key(self, link_digest: str) -> str:
        """What the resolver's records hold under: this indexer, the product, the link inputs."""
        return f"{indexer_version()}\0{self.product}\0{link_digest}"

    def _save_bind_state(self, link_digest: str) -> bool:
        """Keep the resolver's records for the next one-shot run, when the index now holds exactly
        what the resolver produced (no file left to write); otherwise drop stale ones. Whether saved."""
        if self.bind_path is None:
            return False
        state = None if any(self.journal.read()) else self._bind_state(link_digest)
        if state is None:
            discard_bind_state(self.bind_path)
            return False
        return save_bind_state(self.bind_path, state)

    def _bind_state(self, link_digest: str) -> BindState | None:
        """The resolver's records as :mod:`indexer.bind_state` saves them (each parked one read back as
        the save reaches it); ``None`` (logged) when they cannot be had."""
        try:
            deps, link_deps, link_shares, link_names = self.resolver.recorded()
        except ParkedDataError as exc:  # the index is written; only the next run's shortcut is lost
            log.warning("%s: the next run binds every file", exc)
            return None
        checksums = {p: fc.checksum for p, fc in self.resolver.files.items()}
        return BindState(self._bind_key(link_digest), checksums, deps, link_deps, link_shares,
                         self.mention_records.kept(self.resolver.files), link_names)

    def _staged_bind_path(self) -> Path | None:
        """Where a binding child (:meth:`_bind_forked`) saves the resolver's records for the parent to
        keep once its write is done (:meth:`_place_bind_state`)."""
        return None if self.bind_path is None else self.bind_path.with_name(self.bind_path.stem + "-forked.pickle")

    def _place_bind_state(self, staged: bool) -> None:
        """:meth:`_save_bind_state` of a run that bound in a child: its staged records (``staged``:
        whether it saved them) become the next run's when no file is left to write, else go."""
        path = self._staged_bind_path()
        if self.bind_path is None or path is None:
            return
        try:
            if staged and not any(self.journal.read()):
                path.replace(self.bind_path)
                return
        except OSError as exc:
            log.warning("could not keep the resolver's records: %s", exc)
        discard_bind_state(self.bind_path)
        with contextlib.suppress(OSError):
            path.unlink()

    def _index_identity(self) -> str | None:
        """The store's ``instance_token()`` (the embedded store's: a random value its index file
        holds), ``None`` for a store without one (a Bolt server, which no repository ships)."""
        token = getattr(self.graph, "instance_token", None)
        return token() if callable(token) else None

    def _written_here(self) -> bool:
        """Whether the stored files' digests can be trusted: this user's runs (their state folder)
        last wrote this very index file. ``True`` without a state folder or an index file (nothing
        stored to doubt); ``False`` for an index that came from elsewhere (a clone shipping
        ``.ripple/index.db``, a file replaced since), whose graph may not be what its digests say."""
        identity = self._index_identity()
        if self.written_stamp is None or identity is None:
            return True
        return read_stamp(self.written_stamp) == identity

    def _save_written_stamp(self) -> None:
        identity = self._index_identity()
        if self.written_stamp is not None and identity is not None and save_stamp(self.written_stamp, identity):
            self.writer.trusted = True  # else the next run writes every file again

    def _link_stamp(self) -> str | None:
        """The link-input digest saved by the last whole-tree write (``None``: none, or no state folder)."""
        return read_stamp(self.link_stamp) if self.link_stamp else None

    def _save_link_stamp(self, digest: str) -> None:
        if self.link_stamp is not None:
            save_stamp(self.link_stamp, digest)  # if not saved, only the next run's shortcut is lost
