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

This module holds the orchestrator's runs (:meth:`RepositoryIndex.sync`, :meth:`RepositoryIndex.update`);
the rest of :class:`RepositoryIndex` is in its mixins, one concept each: the extract and resolve phases
of a whole-tree sync, in process or forked (:class:`indexer.whole_tree.WholeTreeBind`), the state
folder's records and stamps and the runs that start from them (:class:`indexer.state_records.StateRecords`),
which other files a change binds or writes again (:class:`indexer.rebind_scope.RebindScope`); which
changes make an update a whole-tree sync is :mod:`indexer.rescan`.

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

import dataclasses
import hashlib
import logging
import os
import resource
import time
from collections import Counter
from collections.abc import Iterable, Mapping
from pathlib import Path

from indexer.discovery import Discovery, SkipFile, SourceFile, classify_path, discover, read_source, with_mapped_scripts
from indexer.extraction import ExtractStage, file_text, suffixed_paths
from indexer.frameworks.link import LinkOptions
from indexer.frameworks.ui_templates import CODE_SUFFIXES, TEMPLATE_SUFFIX, folder_templates, read_template
from indexer.forked_resolve import Hashed, forks
from indexer.link_paths import is_gateway_input, is_manifest_path, is_spec_path
from indexer.heap import GC_THRESHOLD0, fewer_collections, release_memory
from indexer.mention_refresh import MentionRecords
from indexer.model import FileExtraction
from indexer.rebind_scope import RebindScope
from indexer.rescan import RESCAN_THRESHOLD, is_config_path
from indexer.resolve.context import FileCtx
from indexer.resolve.repository import MEMO_BUDGET, RepositoryResolver
from indexer.run import IndexOptions, IndexReport, NoProgress, ProgressSink
from indexer.spill import spill_file
from indexer.state_records import ReleasedState, StateRecords, link_digests
from indexer.symbols import file_id
from indexer.whole_tree import LinkOptionsAhead, WholeTreeBind
from indexer.writer import IndexWriter, Journal, indexer_version
from stores.contracts import GraphStore, SearchIndex

__all__ = ["RepositoryIndex", "RESCAN_THRESHOLD", "is_config_path", "fewer_collections", "GC_THRESHOLD0"]

log = logging.getLogger(__name__)

PARSE_ERROR_EXAMPLES = 5
"""How many files with syntax errors a report names (:attr:`IndexReport.parse_error_examples`)."""


class RepositoryIndex(WholeTreeBind, StateRecords, RebindScope):
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
        self.released: ReleasedState | None = None
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

    def _read_files(self, found: Discovery, report: IndexReport, progress: ProgressSink
                    ) -> tuple[Hashed, dict[str, str], bool, set[str]]:
        """The read phase of :meth:`_sync` over the discovered files ``found``: each file read and
        hashed (skips go to ``report``). Returns ``(hashed, stored, trusted, keep_suffix)``: the
        ``(file, size, checksum)`` columns, the index's checksums by path, whether the index's stored
        digests are this user's (:meth:`_written_here`), the paths whose ids keep their suffix."""
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
        return hashed, stored, trusted, keep_suffix

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

        # The repository's configuration (Spring properties, gateway routes) feeds HTTP linking: a large
        # one-shot run reads it in a second process while this one reads the files (on one core else).
        ahead = LinkOptionsAhead(self.root, self.options.http_services) \
            if self.skip_unchanged and forks(len(found.files)) else None
        try:
            hashed, stored, trusted, keep_suffix = self._read_files(found, report, progress)
            link = ahead.options() if ahead is not None else LinkOptions.for_repository(self.root,
                                                                                       self.options.http_services)
        finally:
            if ahead is not None:
                ahead.cancel()
        self.resolver.set_link(link)
        self.link_read = link  # what the registry entry records: applications(), gateways
        # The resolver's records hold for link inputs but the component templates, which only the
        # link reads: a one-shot run after a template edit links again instead (:meth:`_sync_known`).
        bind_digest, link_digest = link_digests(link)
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
        which operations API-first code implements or calls, a file an nginx configuration includes
        (or would: :func:`indexer.link_paths.is_gateway_input`) where relative URLs go; a directory that
        came, went or moved carries files the watcher may not name one by one."""
        if is_config_path(rel) or is_spec_path(self.root, rel, self.resolver.link) \
                or is_manifest_path(self.root, rel, self.resolver.link) or is_gateway_input(rel, self.resolver.link):
            return True
        if (self.root / rel).is_dir():
            return True
        prefix = rel + "/"
        return any(p.startswith(prefix) for p in self.paths())

    def reads(self, path: str | Path) -> bool:
        """Whether the file at ``path`` (absolute, or relative to the root) is a link input the last sync
        read that no file suffix tells (:func:`indexer.link_paths.is_gateway_input`: a file an nginx
        configuration includes): a watcher lets its changes through."""
        rel = self._relative(path)
        return rel is not None and is_gateway_input(rel, self.resolver.link)

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
