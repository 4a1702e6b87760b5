"""Incremental indexing: keep one repository's index equal to what a full index of its files would be,
re-doing only the work a change needs, and never leaving a file half-written.

:class:`RepositoryIndex` keeps the resolver state of every file in memory
(:class:`indexer.resolve.repository.RepositoryResolver`) and writes through the store contracts only.

* :meth:`RepositoryIndex.sync` looks at the whole tree (``ripple index``, a watcher's start, a rescan
  after a directory moved or a ``.gitignore`` changed): every file is hashed; a file whose bytes the
  extraction cache knows is not parsed again; every file is then re-bound and only the files whose
  output differs from the index are written. A one-shot run (``ripple index``) whose resolver
  records from the last run still fit the index (:mod:`indexer.bind_state`) instead re-binds only
  what :meth:`RepositoryIndex.update` would (:meth:`RepositoryIndex._sync_known`).
* :meth:`RepositoryIndex.update` takes the paths a watcher saw change. Edited, added and deleted files
  are re-extracted (or dropped), then re-bound with the files whose bindings they can change:

  - an edit that leaves the file's *interface* alone (:attr:`indexer.resolve.context.FileCtx.interface`:
    its definitions without positions, imports, exports and the bindings other files can reach)
    changes no other file: only it (and the files with framework facts, which the linker always
    reads) is re-bound;
  - otherwise also the files whose last output read one of its names whose definitions, imports,
    exports or reachable bindings changed, a module key it holds or that came or went with it, or
    a short name a callable took or gave up (name-matched calls): the resolver records what every
    file's output read, through every memoised lookup
    (:meth:`indexer.resolve.repository.RepositoryResolver.dependents`). That covers the files with an edge
    into a vanished or changed node and those whose unresolved calls a new definition can bind.
    Plus, from the store, the callers of the methods a changed class now overrides (dynamic
    dispatch can reach the override; which classes derive from which is global, no lookup records
    it).

* :meth:`RepositoryIndex.release_state` gives a watcher's resolver state back between updates (its
  records saved to the state folder); the next update rebuilds it from them first
  (:mod:`indexer.state_budget` decides when, for a process that watches many repositories).

A file whose re-bound output equals what the index holds (a digest kept in its File node's props,
``digest``: :func:`indexer.writer.output_digest`) is not written again.

Both run the same stages, each in its own module: discover (:mod:`indexer.discovery`), read and hash
(here), extract (:class:`indexer.extraction.ExtractStage`), resolve and link
(:class:`indexer.resolve.repository.RepositoryResolver`), chunk and write (:class:`indexer.writer.IndexWriter`).

Crash safety (kill -9 at any moment): a run writes all its files in one store transaction (the
embedded store replaces each file's graph and chunks, and detaches edges into vanished nodes, inside
it), so readers and a run killed at any point see the index as it was before the run or after it:
every file from one version with its own checksum, every edge with both ends. Deleted files go in a
second transaction; a journal (:class:`indexer.writer.Journal`, ``journal-*.json`` in the state
folder, replaced atomically) names the files a run set out to write and those committed, and the
next run re-writes the rest whatever their digest says. Extractions are cached as soon as they are made, so the next run does not parse again
what the killed one parsed, and does not write again what it committed. One writer at a time is the
caller's business (the front ends hold a file lock around runs).
"""

from __future__ import annotations

import contextlib
import dataclasses
import hashlib
import logging
import os
import resource
import threading
import time
from collections import Counter
from collections.abc import Callable, Iterable, Mapping, Sequence
from pathlib import Path

from indexer.bind_state import BindState, discard_bind_state, load_bind_state, save_bind_state
from indexer.discovery import SkipFile, SourceFile, classify_path, discover, read_source, with_mapped_scripts
from indexer.extraction import Extracted, ExtractStage, file_text, suffixed_paths
from indexer.frameworks.link import LinkOptions
from indexer.frameworks.dev_proxy import PROXY_FILES
from indexer.frameworks.env_config import ENV_FILES
from indexer.frameworks.js_modules import is_module_config
from indexer.frameworks.mybatis_xml import is_mapper_path
from indexer.frameworks.nginx_config import is_nginx_config
from indexer.frameworks.services import is_boundary_file
from indexer.frameworks.ui_templates import CODE_SUFFIXES, TEMPLATE_SUFFIX, folder_templates, read_template
from indexer.frameworks.spring_config import CONFIG_SUFFIXES, is_served_config
from indexer.forked_resolve import (Bound, ExtractionLost, Hashed, NeedsStore, ParkedFiles, PipeProgress, bind_in_child,
                                    forks, TextPlaces, handed_texts, relay_progress, taken_over)
from indexer.stamps import read_stamp, save_stamp
from indexer.link_paths import is_manifest_path, is_spec_path
from indexer.heap import GC_THRESHOLD0, fewer_collections, release_memory
from indexer.mention_refresh import MentionRecords, changed_names, synced_names
from indexer.mentions import mentionable, stored_mentionable
from indexer.model import FileExtraction
from indexer.parked import ParkedDataError
from indexer.resolve.context import FileCtx
from indexer.resolve.released import ReleasedFiles
from indexer.resolve.repository import MEMO_BUDGET, FileChange, RepositoryResolver, ResolvedRepository
from indexer.run import IndexOptions, IndexReport, NoProgress, ProgressSink
from indexer.spill import SpilledOutputs, SpillFile, spill_file
from indexer.symbols import file_id
from indexer.writer import IndexWriter, Journal, indexer_version
from stores.contracts import GraphStore, SearchIndex

__all__ = ["RepositoryIndex", "RESCAN_THRESHOLD", "is_config_path", "fewer_collections", "GC_THRESHOLD0"]

log = logging.getLogger(__name__)

RESCAN_THRESHOLD = 256
"""An update of more paths than this (a branch switch) rescans the tree instead (:meth:`sync`)."""
PARSE_ERROR_EXAMPLES = 5
"""How many files with syntax errors a report names (:attr:`IndexReport.parse_error_examples`)."""


def is_config_path(rel: str) -> bool:
    """Whether a change at ``rel`` changes more than one file's facts: ``.gitignore`` (what is
    indexed), a Spring configuration file (``application*`` / ``bootstrap*`` ``.yml`` / ``.yaml`` /
    ``.properties``: placeholders and gateway routes of HTTP links) or a file that draws service
    boundaries (:func:`indexer.frameworks.services.is_boundary_file`: build, Docker and compose files)
    or a ``.env`` file (:data:`indexer.frameworks.env_config.ENV_FILES`: environment variables in client URLs)
    or an Angular proxy file or ``angular.json`` (:mod:`indexer.frameworks.dev_proxy`: which backend a
    relative URL reaches) or a TypeScript configuration (:func:`indexer.frameworks.js_modules.is_module_config`:
    path aliases) or a MyBatis mapper XML file (:func:`indexer.frameworks.mybatis_xml.is_mapper_path`: the SQL
    of mapper interfaces) or a file a config server may serve (:func:`indexer.frameworks.spring_config.is_served_config`)
    or an nginx configuration (:func:`indexer.frameworks.nginx_config.is_nginx_config`: gateway routes)."""
    name = rel.rsplit("/", 1)[-1]
    if (name == ".gitignore" or is_boundary_file(name) or name in ENV_FILES or name in PROXY_FILES
            or name == "angular.json" or is_module_config(name) or is_mapper_path(rel) or is_nginx_config(name)):
        return True
    return name.endswith(CONFIG_SUFFIXES) and (name.startswith(("application", "bootstrap")) or is_served_config(rel))


@dataclasses.dataclass(frozen=True)
class _Released:
    """What :meth:`RepositoryIndex.release_state` keeps of the state it gives back: the link options
    (read from the tree by the last sync, changed by template edits since), and each file's checksum
    and size (what the records and the cached extractions rebuild it from)."""

    link: LinkOptions | None
    checksums: dict[str, str]
    sizes: dict[str, int]


def _link_digests(link: LinkOptions | None) -> tuple[str, str]:
    """``(records' key digest, full digest)`` of the link options: the first leaves the component
    templates out (only the link reads them, so a template edit keeps the records valid), the second
    holds them all (the link stamp)."""
    if link is None:
        return "", ""
    full = hashlib.sha256(repr(link).encode("utf-8", "surrogatepass")).hexdigest()
    keyed = hashlib.sha256(repr(dataclasses.replace(link, templates={})).encode("utf-8", "surrogatepass")).hexdigest()
    return keyed, full


def _chunked(item: Extracted | None, fc: FileCtx) -> bool:
    """Whether the writer takes ``fc``'s chunks as the worker cut them (``item``, this run's
    extraction of the same bytes and node ids: :meth:`IndexWriter._attach`), needing no extraction."""
    return item is not None and item.checksum == fc.checksum and item.id_path == fc.ex.id_path


class RepositoryIndex:
    """One repository's index, kept in line with its files (see the module docstring).

    ``graph`` and ``search`` may be one object (the embedded store). Not thread-safe: one thread
    runs :meth:`sync` and :meth:`update`; other threads and processes read the store meanwhile.
    """

    def __init__(self, root: str | Path, graph: GraphStore, search: SearchIndex, options: IndexOptions) -> None:
        self.root = Path(root).resolve()
        self.graph, self.search, self.options = graph, search, options
        self.repo = options.repo
        self.product = options.product or options.name or options.repo
        state = Path(options.state_dir) if options.state_dir else None
        # What only a file's own binding reads of its extraction waits on disk (indexer.parked), from
        # the moment the extraction arrives (parsed by a worker or read from the cache).
        park = spill_file(options.state_dir)
        self.extraction = ExtractStage(options, self.product, park)
        name = hashlib.sha1(self.repo.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        self.journal = Journal(state / f"journal-{name}.json" if state else None)
        self.written_stamp = state / f"written-{name}.id" if state else None
        """Which index file this user's runs last wrote for the repository (its instance token): a
        stored index another hand wrote (shipped in a clone, replaced under it) has its files'
        digests ignored and is written whole once (:meth:`_written_here`)."""
        self.link_stamp = state / f"link-{name}.sha256" if state else None
        """Digest of the link inputs (:class:`LinkOptions`: Spring configuration, specs, service
        boundaries, ``.env`` and proxy files) the index was last written with: a one-shot run whose
        source files are all unchanged still re-links when they differ."""
        self.bind_path = state / f"bind-{name}.pickle" if state else None
        """What the resolver recorded about the index's content (:mod:`indexer.bind_state`): a one-shot
        run re-binds only what its changes can affect when the index still holds exactly that."""
        # The link options are read by the first sync (every update begins with one): reading them
        # walks the tree (about a third of an unchanged run on Django), once is enough.
        self.resolver = RepositoryResolver(self.repo, None, park=park)
        self.writer = IndexWriter(self.root, self.repo, self.product, options.max_file_bytes, graph, search,
                                  self.journal, options.write_batch_bytes())
        self.synced = False
        self.mention_records = MentionRecords()
        """The identifiers of the doc files (:mod:`indexer.mention_refresh`), kept between updates and
        saved with the resolver's records."""
        self.link_read: LinkOptions | None = None
        """The link options the last sync read, for what the registry entry records (the applications'
        folders, the gateway routes; a one-shot run lets its resolver, and so its link options, go)."""
        self.released: _Released | None = None
        """What :meth:`release_state` kept of a resolver it gave back (``None``: the resolver holds its
        state, or no sync ran yet): the next update rebuilds the state from the records on disk."""
        self.skip_unchanged = False
        """A one-shot run (``ripple index``) stops after hashing when the index already holds exactly
        the tree; a watcher must not (its first sync builds the resolver, from the records of the run
        that wrote the index when they hold, else by binding every file). Such a run also lets the
        resolver's lookup tables go before it writes (nothing resolves after)."""

    def close(self) -> None:
        """Release the extraction cache (the store stays the caller's)."""
        self.extraction.close()

    # ---------------------------------------------------------------------------------- the tree

    def sync(self, progress: ProgressSink | None = None) -> IndexReport:
        """Bring the index in line with the whole tree (what ``ripple index`` runs), with
        :func:`fewer_collections`. Raises ``NotADirectoryError`` when the root is not a directory and
        what the store raises."""
        with fewer_collections():
            return self._sync(progress)

    def _sync(self, progress: ProgressSink | None) -> IndexReport:
        progress = progress or NoProgress()
        self.released = None  # a whole-tree run: the records path below or every file bound
        report = IndexReport(self.repo, str(self.root))
        t0 = time.perf_counter()
        progress.start("discover", None)
        found = discover(self.root, self.options.max_file_bytes, self.options.follow_external_symlinks,
                         self.options.doc_folders)
        report.skipped.update(found.skipped)
        if log.isEnabledFor(logging.INFO):
            for reason, path in found.skipped_log:
                log.info("skipped %s: %s", path, reason)
        report.skipped_examples = {k: list(v) for k, v in found.skipped_examples.items()}
        progress.done("discover")
        t1 = time.perf_counter()
        report.phases["discover"] = t1 - t0

        # The repository's configuration (Spring properties, gateway routes) feeds HTTP linking.
        link = LinkOptions.for_repository(self.root, self.options.http_services)
        self.resolver.set_link(link)
        self.link_read = link  # what the registry entry records: applications(), gateways
        # The resolver's records hold for link inputs but the component templates, which only the
        # link reads: a one-shot run after a template edit links again instead (:meth:`_sync_known`).
        bind_digest, link_digest = _link_digests(link)
        stored = self.graph.file_checksums(self.repo)
        trusted = self._written_here()
        self.writer.trusted = trusted
        if not trusted and stored:
            log.info("%s: the index was not written by this user's runs (or was replaced): every file is written "
                     "again", self.repo)
        keep_suffix = suffixed_paths(sf.path for sf in found.files)
        progress.start("read", len(found.files))
        # (file, size in bytes, checksum): the bytes themselves are not kept (a whole tree's would be
        # the repository's size in memory); the writer reads again the few it needs.
        hashed = Hashed()  # columns: no objects a file held (indexer.source_files)
        # The docs' identifiers recorded from the bytes read here (indexer.mention_refresh), so that no
        # update reads them again: by a watcher, and by a one-shot run writing a new index (its records
        # saved with the resolver's); not by a one-shot run over an index (it may stop after hashing).
        noting = not self.skip_unchanged or not stored
        for sf in found.files:
            progress.advance()
            try:
                data = read_source(sf.abs_path, self.options.max_file_bytes, sf.confine)
            except SkipFile as exc:
                report.skip(sf.path, exc.reason, str(exc))
                continue
            hashed.append((sf, len(data), hashlib.sha256(data).hexdigest()))
            if noting:
                self.mention_records.note(sf.path, sf.language, data)
            del data
        if self.skip_unchanged and not self.synced and trusted and self._link_stamp() == link_digest \
                and self._unchanged(hashed, stored, report):
            progress.done("read")
            report.phases["read"] = time.perf_counter() - t1
            report.phases["total"] = time.perf_counter() - t0
            return report
        # A bounded part of the memo, in a watcher too: its later updates bind a few files each, whose
        # lookups cost less than the whole memo kept for good would (Django: a watching server's
        # resident set 555 -> 322 MiB after the first sync, about 30% more CPU per update;
        # docs/benchmarks.md, session 50).
        self.resolver.memo_budget = MEMO_BUDGET
        self.resolver.keep_link_memo = not self.skip_unchanged  # a one-shot run links once, then drops the resolver
        # A watcher's first sync too: the resolver is built on the extractions the index holds and
        # takes the records over, so a server opening a folder `ripple index` wrote binds only what
        # changed since (not every file: minutes and the memo of every lookup on a large repository).
        if not self.synced and trusted \
                and self._sync_known(hashed, stored, bind_digest, link_digest, report, progress):
            report.phases["total"] = time.perf_counter() - t0
            return report
        del found
        texts: dict[str, str] = {}  # none: the writer reads a changed file's text when it writes it
        # A one-shot run binds on as many cores as it extracts on, memory allowing (forked_binding).
        processes = self.options.extraction_jobs(os.cpu_count() or 1) if self.skip_unchanged else 1
        # A one-shot run extracts and binds in a child that exits before the write (indexer.forked_resolve).
        forked = self._run_forked(hashed, keep_suffix, stored, trusted, processes, bind_digest, report, progress, t1) \
            if self.skip_unchanged and self.extraction.cache is not None and forks(len(hashed)) else None
        if forked is None:
            resolved, refresh, gone, fresh, loaded = self._extract_bind(hashed, keep_suffix, stored, trusted, processes,
                                                                        report, progress, t1)
            files: Mapping[str, FileCtx] = self.resolver.files
        else:
            report, resolved, refresh, gone, fresh, loaded, files, staged = forked
        del hashed
        t4 = time.perf_counter()

        # The write analyses chunks on a second core as the binding did (indexer.write_prep).
        self.writer.processes, self.writer.memory_budget_mib = processes, self.options.memory_budget_mib
        try:
            self.writer.write(resolved, files, gone, fresh, texts, report, progress, refresh)
        finally:
            self.writer.processes = 1
        self._save_written_stamp()
        self._save_link_stamp(link_digest)
        if forked is None:
            self._save_bind_state(bind_digest)
        else:
            self._place_bind_state(staged)
        self._prune_cache()
        del resolved, fresh, texts, loaded
        release_memory()
        self.synced = True
        t5 = time.perf_counter()
        report.phases["write"] = t5 - t4
        report.phases["total"] = t5 - t0
        self._summarise(report, files)
        del files
        if self.skip_unchanged:  # the contexts were released: a later run starts afresh
            self.extraction.park = spill_file(self.options.state_dir)  # the old one held released files' lists
            code, self.resolver = self.resolver.code_gateways, RepositoryResolver(self.repo, None, park=self.extraction.park)
            self.resolver.code_gateways = code  # the gateway routes the link read: the registry entry records them
            self.synced = False
        return report

    def _extract_bind(self, hashed: Hashed, keep_suffix: set[str], stored: dict[str, str],
                      trusted: bool, processes: int, report: IndexReport, progress: ProgressSink, t1: float,
                      spill: SpillFile | None = None, texts_spill: SpillFile | None = None,
                      stored_ids: Callable[[str], set[tuple[str, str]]] | None = None,
                      stored_linked: frozenset[tuple[str, str]] | None = None,
                      ) -> tuple[ResolvedRepository, set[str], list[str], Mapping[str, Extracted],
                                 list[tuple[FileExtraction, str, int]]]:
        """The rest of the read phase (the cached extractions: ``hashed`` is emptied), the extract
        phase and the resolve phase (:meth:`_bind`) of a whole-tree sync, in this process or in the
        child of :meth:`_run_forked` (``spill``, ``texts_spill``: the outputs' and the extracted
        text's spill files, new ones when ``None``; ``stored_ids``, ``stored_linked``: as
        :meth:`_bind`). Sets the read (from ``t1``), extract and resolve phases' seconds in
        ``report``. Returns ``(resolved, refresh, gone, fresh, loaded)``: ``gone`` the index's
        paths the tree lost, ``fresh`` the extracted files' results, ``loaded`` the extractions
        (emptied by a one-shot run's release: the resolver's kept contexts hold what the writer reads)."""
        current: set[str] = set()
        loaded: list[tuple[FileExtraction, str, int]] = []
        to_extract: list[SourceFile] = []
        for sf, size, checksum in hashed:
            known = self.resolver.files.get(sf.path)
            if known is not None and known.checksum == checksum:
                current.add(sf.path)
                continue
            ex = self.extraction.cached(sf.path, checksum)
            if ex is None:
                to_extract.append(sf)
                continue
            current.add(sf.path)
            loaded.append((ex, checksum, size))
        # What the read phase kept per file (its SourceFile with both paths, its size and checksum: about
        # 520 bytes a file) is read no further: let it go before the extractions arrive.
        hashed.clear()
        progress.done("read")
        t2 = time.perf_counter()
        report.phases["read"] = t2 - t1

        progress.start("extract", len(to_extract))
        fresh: Mapping[str, Extracted] = self.extraction.run(to_extract, keep_suffix, report, progress, current, loaded,
                                                             texts_spill)
        if texts_spill is not None:  # the forked child: read by the release and the parent only (TextPlaces)
            fresh = TextPlaces(fresh, texts_spill)
        del to_extract
        progress.done("extract")
        t3 = time.perf_counter()
        report.phases["extract"] = t3 - t2

        progress.start("resolve", None)
        gone = sorted(set(stored) - current)
        resolved, refresh, report.files_changed = self._bind(loaded, fresh, current, stored, trusted, gone, processes,
                                                             spill, stored_ids, stored_linked)
        progress.done("resolve")
        report.phases["resolve"] = time.perf_counter() - t3
        return resolved, refresh, gone, fresh, loaded

    def _bind(self, loaded: list[tuple[FileExtraction, str, int]], fresh: Mapping[str, Extracted], current: set[str],
              stored: dict[str, str], trusted: bool, gone: list[str], processes: int,
              spill: SpillFile | None = None, stored_ids: Callable[[str], set[tuple[str, str]]] | None = None,
              stored_linked: frozenset[tuple[str, str]] | None = None) -> tuple[ResolvedRepository, set[str], int]:
        """The resolve phase of a whole-tree sync (in this process, or in the child of
        :meth:`_bind_forked`): update the resolver with ``loaded``, bind every file of ``current``
        (outputs spilled to ``spill``, a new spill file when ``None``), release the contexts in a
        one-shot run, and find the docs written again (over an index: ``stored``, ``trusted``;
        ``gone``: its paths the tree lost). ``stored_ids`` and ``stored_linked``: what the graph store
        holds, read ahead by a parent (a forked child does not use the store's connection); ``None``:
        read from the store. Returns ``(resolved, refresh, files changed)``."""
        # A one-shot run never asks which files an update affects (dependents): it does not record
        # the names and tokens each file's arrival touched, nor digest every file's names (a watcher's
        # later updates digest the old versions when they compare).
        changes = self.resolver.update(loaded, [p for p in self.resolver.files if p not in current],
                                       track=not self.skip_unchanged)
        if self.skip_unchanged:  # a one-shot run: the contexts hold the extractions, the list is read no further
            loaded.clear()  # (a tuple and a list slot a file: about 72 bytes, held through the resolve before)
        changed = sum(1 for p in current if stored.get(p) != self.resolver.files[p].checksum)
        # Over an index (trusted: else every file is written anyway), the docs naming a definition that
        # came, went or moved are written again although their own outputs did not change (brk55).
        names = self._synced_names(changes, stored, gone, stored_ids) if stored and trusted else set()
        del changes
        linked_before = self.resolver.link_names
        if linked_before is None and stored_linked is not None:
            linked_before = stored_linked
        # Every file is bound again: whatever happened while nobody watched, the outcome is exact.
        # Outputs go to a temporary file as they are made: the writer reads them back a batch at a time.
        resolved = self.resolver.resolve(
            sorted(current), spill=spill if spill is not None else spill_file(self.options.state_dir),
            summarise=self.writer.summary, processes=processes, memory_budget_mib=self.options.memory_budget_mib)
        if self.skip_unchanged:  # a one-shot run: nothing resolves after this
            # The write needs the extractions only to cut chunks the workers did not: let the others go.
            self.resolver.release([p for p, fc in self.resolver.files.items() if _chunked(fresh.get(p), fc)])
            # The contexts, definitions and lookup tables just let go hold each other (cycles): only a
            # full collection frees them, and the write's rows would otherwise come on top of them.
            release_memory()
        refresh: set[str] = set()
        if stored and trusted:  # (after the release: the docs are read with the contexts' memory given back)
            resolved = self._relinked_docs(linked_before, resolved, names, refresh)
        return resolved, refresh, changed

    def _run_forked(self, hashed: Hashed, keep_suffix: set[str], stored: dict[str, str],
                    trusted: bool, processes: int, bind_digest: str, report: IndexReport, progress: ProgressSink,
                    t1: float) -> tuple[IndexReport, ResolvedRepository, set[str], list[str], dict[str, Extracted],
                                        list[tuple[FileExtraction, str, int]], Mapping[str, FileCtx], bool] | None:
        """:meth:`_extract_bind` of a one-shot run in a forked child (:mod:`indexer.forked_resolve`),
        which also stages the resolver's records (:meth:`_place_bind_state` keeps them after the
        write). Returns ``(report, resolved, refresh, gone, fresh, loaded, every file's context,
        records staged)``, the outputs and the extracted text read from the spill files the child
        wrote, ``loaded`` read back from the extraction cache. ``None`` when the child gave no result
        (logged; ``hashed``, emptied meanwhile, as it was: run in process), as when a kept extraction is lost
        (:class:`indexer.forked_resolve.ExtractionLost`). Raises what :meth:`_extract_bind` raised in the child."""
        spill, texts_spill = spill_file(self.options.state_dir), spill_file(self.options.state_dir)
        park = self.extraction.park
        staged_path = self._staged_bind_path()
        # What the child reads of the store is read here: a connection is not used across a fork. The
        # ids of every stored file the tree lost or changed (a file failing to extract is gone too).
        stored_ids: dict[str, set[tuple[str, str]]] = {}
        stored_linked = None
        if stored and trusted:
            now = {sf.path: checksum for sf, _, checksum in hashed}
            stored_ids = {p: self._stored_ids(p) for p, checksum in stored.items() if now.get(p) != checksum}
            del now
            stored_linked = stored_mentionable(self.graph, self.repo)

        def read_ahead(path: str) -> set[tuple[str, str]]:
            if path not in stored_ids:
                raise NeedsStore(f"the stored ids of {path}")
            return stored_ids[path]

        parked = ParkedFiles(hashed, self.options.state_dir)  # emptied: on disk while the child runs
        read_end, write_end = os.pipe()

        def work() -> Bound:
            os.close(read_end)
            mentions = dict(self.mention_records.records), self.mention_records.reads  # what the parent holds
            piped = PipeProgress(write_end)
            resolved, refresh, gone, fresh, loaded = self._extract_bind(
                parked.files(), keep_suffix, stored, trusted, processes, report, piped, t1, spill, texts_spill,
                read_ahead, stored_linked)
            state = self._bind_state(bind_digest) if staged_path is not None else None
            staged = state is not None and staged_path is not None and save_bind_state(staged_path, state)
            assert isinstance(resolved.files, SpilledOutputs) and isinstance(self.resolver.files, ReleasedFiles)
            files = self.resolver.files.hand_over()
            kept = [(p, self.resolver.files[p].checksum, self.resolver.files[p].size) for p in files.kept]
            return Bound(resolved.files.hand_over(), resolved.call_outcomes, resolved.link_outcomes, resolved.dropped,
                         files, refresh, report.files_changed, staged, None if park is None or park.moved else park.size,
                         report, gone, handed_texts(fresh, texts_spill), texts_spill.size, kept,
                         self.mention_records.changed_since(*mentions))

        stop = threading.Event()
        relay = relay_progress(read_end, progress, stop)
        try:
            bound = None if spill.moved or texts_spill.moved else bind_in_child(work, [spill, texts_spill])
        finally:
            os.close(write_end)
            stop.set()
            relay.join()
            os.close(read_end)
        try:
            taken = None if bound is None else taken_over(bound, spill, texts_spill, park, self.writer.summary,
                                                          self.extraction, parked.files, keep_suffix)
        except ExtractionLost as exc:
            log.warning("%s: binding in this process", exc)
            self._place_bind_state(False)  # the staged records go (the run in process saves its own)
            taken = None
        if bound is None or taken is None:
            hashed.assign(parked.files())
            return None
        resolved, fresh, loaded, files = taken
        self.mention_records.take(bound.mentions)
        return bound.report, resolved, bound.refresh, bound.gone, fresh, loaded, files, bound.staged

    # ------------------------------------------------------------------------------- some paths

    def update(self, paths: Iterable[str | Path], progress: ProgressSink | None = None) -> IndexReport:
        """Re-index the files at ``paths`` (absolute, or relative to the root; edited, added, deleted
        or renamed: a rename is its old path and its new one) and re-bind what they affect. The first
        call, a batch of more than :data:`RESCAN_THRESHOLD` paths, a directory and a ``.gitignore``
        run :meth:`sync` instead. Paths outside the root are ignored. After :meth:`release_state`, the
        resolver state is first rebuilt from the records (a whole-tree sync when they no longer hold)."""
        rels = sorted(with_mapped_scripts(r for r in (self._relative(p) for p in paths) if r is not None))
        rescan = len(rels) > RESCAN_THRESHOLD or any(self._needs_rescan(r) for r in rels)
        restored: float | None = None
        if self.released is not None and not rescan:
            if not rels:  # nothing to apply: the state stays given back
                report = IndexReport(self.repo, str(self.root))
                report.files_indexed = len(self.released.checksums)
                return report
            restored = self._restore_state(progress or NoProgress())
        if not self.synced or rescan:
            return self.sync(progress)
        progress = progress or NoProgress()
        report = IndexReport(self.repo, str(self.root))
        if restored is not None:
            report.phases["restore"] = restored
        if not rels:
            self._summarise(report)
            return report
        t0 = time.perf_counter()
        self._refresh_templates(rels)
        loaded: list[tuple[FileExtraction, str, int]] = []
        texts: dict[str, str] = {}
        removed: list[str] = []
        to_extract: list[SourceFile] = []
        present: set[str] = set(self.resolver.files)
        for rel in rels:
            verdict = classify_path(self.root, rel, self.options.max_file_bytes, self.options.follow_external_symlinks,
                                    self.options.doc_folders)
            if not isinstance(verdict, SourceFile):
                if rel in self.resolver.files:
                    removed.append(rel)
                    present.discard(rel)
                continue
            try:
                data = read_source(verdict.abs_path, self.options.max_file_bytes, verdict.confine)
            except SkipFile as exc:
                report.skip(rel, exc.reason, str(exc))
                if rel in self.resolver.files:
                    removed.append(rel)
                    present.discard(rel)
                continue
            present.add(rel)
            checksum = hashlib.sha256(data).hexdigest()
            known = self.resolver.files.get(rel)
            if known is not None and known.checksum == checksum:
                continue
            self.mention_records.note(rel, verdict.language, data)
            ex = self.extraction.cached(rel, checksum)
            if ex is None:
                to_extract.append(verdict)
            else:
                loaded.append((ex, checksum, len(data)))
                texts[rel] = file_text(data)
        keep_suffix = suffixed_paths(present)
        current = set(self.resolver.files) - set(removed)
        fresh = self.extraction.run(to_extract, keep_suffix, report, progress, current, loaded)
        removed += [sf.path for sf in to_extract if sf.path not in current and sf.path in self.resolver.files]
        t1 = time.perf_counter()
        report.phases["extract"] = t1 - t0

        changes = self.resolver.update(loaded, removed)
        report.files_changed = sum(1 for c in changes if c.path in fresh or c.path in texts or c.new is None)
        affected = {c.path for c in changes if c.new is not None}
        if any(c.interface_changed for c in changes):
            affected |= self._dependents(changes)
        pending, done = self.journal.read()
        affected |= (pending - done) & set(self.resolver.files)
        refresh = self._stale_docs(changes, affected)
        linked_before = self.resolver.link_names
        resolved = self.resolver.resolve(sorted(affected | refresh))
        resolved = self._relink_docs(linked_before, resolved, affected, refresh)
        t2 = time.perf_counter()
        report.phases["resolve"] = t2 - t1
        gone = sorted({c.path for c in changes if c.new is None})
        self.writer.write(resolved, self.resolver.files, gone, fresh, texts, report, progress, refresh)
        t3 = time.perf_counter()
        report.phases["write"] = t3 - t2
        report.phases["total"] = t3 - t0
        self._summarise(report)
        return report

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

    # ------------------------------------------------------------------ resolver state given back

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
        keyed, full = _link_digests(link)
        if not self._save_bind_state(keyed):  # not saved (logged): keep the state
            return False
        self._save_link_stamp(full)
        files = self.resolver.files
        self.released = _Released(link, {p: fc.checksum for p, fc in files.items()},
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
        keyed, _ = _link_digests(released.link)
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

    def _unchanged(self, hashed: Hashed, stored: dict[str, str],
                   report: IndexReport) -> bool:
        """Whether the index already holds exactly this tree, as this indexer version writes it (and
        no interrupted run left work): then a one-shot run has nothing to do. Fills ``report``."""
        if {sf.path: cs for sf, _, cs in hashed} != stored or any(self.journal.read()):
            return False
        nodes = self.graph.get_nodes([file_id(self.repo, sf.path) for sf, _, _ in hashed])
        version = indexer_version()
        if len(nodes) != len(hashed) or any(n.props.get("indexer") != version for n in nodes.values()):
            return False
        report.files_indexed = len(hashed)
        report.files_by_language = Counter(sf.language for sf, _, _ in hashed)
        errored = sorted(n.file for n in nodes.values() if n.props.get("parse_errors"))
        report.files_with_parse_errors, report.parse_error_examples = len(errored), errored[:PARSE_ERROR_EXAMPLES]
        return True

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

    def _relative(self, path: str | Path) -> str | None:
        p = Path(path)
        if not p.is_absolute():
            return p.as_posix() if p.parts and ".." not in p.parts else None
        try:
            return p.relative_to(self.root).as_posix()
        except ValueError:
            try:  # the watcher may report the path as given, the root is resolved
                return p.resolve().relative_to(self.root).as_posix()
            except (ValueError, OSError):
                return None

    def _needs_rescan(self, rel: str) -> bool:
        """A ``.gitignore`` changes which files count, a Spring configuration file what URLs say, an
        OpenAPI document (one the last run read, or a YAML / JSON file that now looks like a spec)
        which operations API-first code implements or calls; a directory that came, went or moved
        carries files the watcher may not name one by one."""
        if is_config_path(rel) or is_spec_path(self.root, rel, self.resolver.link) \
                or is_manifest_path(self.root, rel, self.resolver.link):
            return True
        if (self.root / rel).is_dir():
            return True
        prefix = rel + "/"
        return any(p.startswith(prefix) for p in self.paths())

    def applications(self) -> dict[str, str] | None:
        """The folders naming the repository's applications as the last sync read them
        (:meth:`indexer.frameworks.link_options.LinkOptions.applications`); ``None`` before any sync."""
        return self.link_read.applications() if self.link_read is not None else None

    def _refresh_templates(self, rels: Iterable[str]) -> None:
        """Read again the component template files among ``rels`` (:mod:`indexer.frameworks.ui_templates`:
        ``.html`` files beside code, or read by the last sync) into the link options: the next
        resolve links again, and the component files whose template calls changed are produced again
        (no file is bound for it)."""
        link = self.resolver.link
        if link is None:
            return
        # A code file coming or going makes its folder's .html files templates or not: each folder a
        # changed path is in is read again as a full run's walk reads it.
        folders = {os.path.dirname(r) for r in rels
                   if r in link.templates or r.lower().endswith((TEMPLATE_SUFFIX, *CODE_SUFFIXES))}
        if not folders:
            return
        templates = dict(link.templates)
        changed = set(rels)
        for folder in folders:
            now = folder_templates(self.root, folder)
            for rel in [t for t in templates if os.path.dirname(t) == folder and t not in now]:
                del templates[rel]
            for rel in now:
                if rel in changed or rel not in templates:
                    text = read_template(self.root, rel)
                    if text is None:
                        templates.pop(rel, None)
                    else:
                        templates[rel] = text
        if templates != link.templates:
            self.resolver.set_link(dataclasses.replace(link, templates=templates))

    # ---------------------------------------------------------------------------------- shared

    def _dependents(self, changes: Sequence[FileChange]) -> set[str]:
        """Other files whose bindings the interface changes in ``changes`` can alter: those whose
        last output read a changed name, module key or short name (which covers every edge into a
        vanished or changed node, and every unresolved call a new definition may bind), and the
        callers of the methods a changed class now overrides (from the store)."""
        found = self.resolver.dependents(changes)
        targets = self.resolver.dispatch_targets(changes)
        if targets:
            for edges in self.graph.incoming(targets, ["CALLS"]).values():
                found.update(e.file for e in edges if e.repo == self.repo)
        return found

    def _stale_docs(self, changes: Sequence[FileChange], affected: set[str]) -> set[str]:
        """The doc and configuration files outside ``affected`` whose ``MENTIONS`` the definitions
        ``changes`` added, removed or moved can change (:mod:`indexer.mention_refresh`): written again
        so that the index stays equal to a full one. Empty for edits inside bodies."""
        confine = None if self.options.follow_external_symlinks else os.path.realpath(self.root)
        return self.mention_records.docs_mentioning(self.root, self.resolver.files, changed_names(changes), affected,
                                                    self.options.max_file_bytes, confine)

    def _relink_docs(self, before: frozenset[tuple[str, str]] | None, resolved: ResolvedRepository,
                     affected: set[str], refresh: set[str]) -> ResolvedRepository:
        """``resolved`` with the outputs of the doc and configuration files outside ``affected`` and
        ``refresh`` (added to ``refresh``, so that they are written) whose ``MENTIONS`` the tables and
        columns the resolve's link made or dropped can change: the linker's nodes are no definitions of
        any file (:func:`changed_names` does not see them) and are known only once it ran. ``before``:
        the resolver's :attr:`~indexer.resolve.repository.RepositoryResolver.link_names` before the
        resolve (``None``: not known, the store's are read). The ids of those no longer emitted are the
        result's ``dropped`` (no doc written links to them). ``resolved`` itself when the names did not
        change."""
        resolved, names = self._link_changes(before, resolved)
        more = self._docs_naming(names, affected | refresh)
        if not more:
            return resolved
        refresh |= more
        extra = self.resolver.resolve(sorted(more))
        outcomes = Counter(resolved.call_outcomes)
        outcomes.update(extra.call_outcomes)
        return ResolvedRepository([*resolved.files, *extra.files], dict(outcomes), resolved.link_outcomes,
                                  resolved.dropped)

    def _relinked_docs(self, before: frozenset[tuple[str, str]] | None, resolved: ResolvedRepository,
                       names: set[str], refresh: set[str]) -> ResolvedRepository:
        """A whole-tree sync's :meth:`_relink_docs`: ``resolved`` holds every file's output already, so
        the docs naming one of ``names`` (definitions that came, went or moved: :meth:`_synced_names`)
        or a table or column that did are only added to ``refresh``."""
        resolved, more = self._link_changes(before, resolved)
        refresh |= self._docs_naming(names | more, set())
        return resolved

    def _link_changes(self, before: frozenset[tuple[str, str]] | None,
                      resolved: ResolvedRepository) -> tuple[ResolvedRepository, set[str]]:
        """The short names of the tables and columns the last resolve's link made or dropped
        (:attr:`~indexer.resolve.repository.RepositoryResolver.link_names` against ``before``, the
        store's when ``None``), and ``resolved`` with the dropped ids as its ``dropped``."""
        after = self.resolver.link_names
        if after is None or after == before:
            return resolved, set()
        if before is None:
            before = stored_mentionable(self.graph, self.repo)
        gone = frozenset(i for _, i in before - after)
        return (dataclasses.replace(resolved, dropped=gone) if gone else resolved), {n for n, _ in before ^ after}

    def _docs_naming(self, names: set[str], skip: set[str]) -> set[str]:
        """The doc and configuration files but ``skip`` whose text holds one of ``names``."""
        if not names:
            return set()
        confine = None if self.options.follow_external_symlinks else os.path.realpath(self.root)
        return self.mention_records.docs_mentioning(self.root, self.resolver.files, names, skip,
                                                    self.options.max_file_bytes, confine)

    def _synced_names(self, changes: Sequence[FileChange], stored: dict[str, str], gone: Sequence[str],
                      stored_ids: Callable[[str], set[tuple[str, str]]] | None = None) -> set[str]:
        """:func:`indexer.mention_refresh.synced_names` of a whole-tree sync over the index, the index's
        nodes of a path read from the graph store (:meth:`_stored_ids`) unless ``stored_ids`` gives them."""
        seen = {c.path for c in changes}
        return synced_names(changes, stored, [p for p in gone if p not in seen], stored_ids or self._stored_ids)

    def _stored_ids(self, path: str) -> set[tuple[str, str]]:
        """``(short name, id)`` of the nodes of ``path`` the graph store holds that a mention may link to."""
        return set(mentionable(self.graph.nodes_in_file(self.repo, path)))

    def _summarise(self, report: IndexReport, files: Mapping[str, FileCtx] | None = None) -> None:
        """Fill ``report``'s file counts from ``files`` (the resolver's when ``None``) and the peak RSS."""
        files = self.resolver.files if files is None else files
        report.files_indexed = len(files)
        report.files_by_language = Counter(fc.lang for fc in files.values())
        errored = sorted((fc for fc in files.values() if fc.ex.errors), key=lambda fc: fc.path)
        report.files_with_parse_errors = len(errored)
        report.parse_error_examples = [f"{fc.path}: {fc.ex.errors[0]}" for fc in errored[:PARSE_ERROR_EXAMPLES]]
        report.partial = Counter(fc.ex.partial for fc in files.values() if fc.ex.partial)
        report.peak_rss_mb = {
            "main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "largest_worker": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        }
