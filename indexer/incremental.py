"""Incremental indexing: keep one repository's index equal to what a full index of its files would be,
re-doing only the work a change needs, and never leaving a file half-written.

:class:`RepositoryIndex` keeps the resolver state of every file in memory
(:class:`indexer.resolve.RepositoryResolver`) and writes through the store contracts only.

* :meth:`RepositoryIndex.sync` looks at the whole tree (``ripple index``, a watcher's start, a rescan
  after a directory moved or a ``.gitignore`` changed): every file is hashed; a file whose bytes the
  extraction cache knows is not parsed again; every file is then re-bound and only the files whose
  output differs from the index are written.
* :meth:`RepositoryIndex.update` takes the paths a watcher saw change. Edited, added and deleted files
  are re-extracted (or dropped), then re-bound with the files whose bindings they can change:

  - an edit that leaves the file's *interface* alone (:attr:`indexer.resolve.FileCtx.interface`:
    its definitions without positions, imports, exports and the bindings other files can reach)
    changes no other file: only it (and the files with framework facts, which the linker always
    reads) is re-bound;
  - otherwise also the files whose last output read one of its names whose definitions, imports,
    exports or reachable bindings changed, a module key it holds or that came or went with it, or
    a short name a callable took or gave up (name-matched calls): the resolver records what every
    file's output read, through every memoised lookup
    (:meth:`indexer.resolve.RepositoryResolver.dependents`). That covers the files with an edge
    into a vanished or changed node and those whose unresolved calls a new definition can bind.
    Plus, from the store, the callers of the methods a changed class now overrides (dynamic
    dispatch can reach the override; which classes derive from which is global, no lookup records
    it).

A file whose re-bound output equals what the index holds (a digest kept in its File node's props,
``digest``) is not written again.

Crash safety (kill -9 at any moment): a run writes all its files in one store transaction (the
embedded store replaces each file's graph and chunks, and detaches edges into vanished nodes, inside
it), so readers and a run killed at any point see the index as it was before the run or after it:
every file from one version with its own checksum, every edge with both ends. Deleted files go in a
second transaction; a journal (``journal-*.json`` in the state folder, replaced atomically) names the
files a run set out to write and those committed, and the next run re-writes the rest whatever their
digest says. Extractions are cached as soon as they are made, so the next run does not parse again
what the killed one parsed, and does not write again what it committed. One writer at a time is the
caller's business (the front ends hold a file lock around runs).
"""

from __future__ import annotations

import ctypes
import dataclasses
import functools
import gc
import hashlib
import json
import logging
import os
import resource
import time
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path

from indexer.chunking import chunk_file
from indexer.discovery import SkipFile, SourceFile, classify_path, discover, read_source, to_utf8
from indexer.extract_cache import ExtractionCache, extractor_version
from indexer.frameworks.link import LinkOptions
from indexer.frameworks.spring_config import CONFIG_SUFFIXES
from indexer.model import FileExtraction
from indexer.pipeline import (
    IndexOptions,
    IndexReport,
    ProgressSink,
    _Extracted,
    _extract_all,
    _NoProgress,
    close_process_cache,
)
from indexer.resolve import FileChange, RepositoryResolver, ResolvedRepository
from indexer.symbols import file_id, module_path
from stores.contracts import FileRecord, GraphStore, IndexedFile, SearchIndex

__all__ = ["RepositoryIndex", "Journal", "RESCAN_THRESHOLD", "output_digest", "is_config_path", "indexer_version"]

log = logging.getLogger(__name__)

RESCAN_THRESHOLD = 256
"""An update of more paths than this (a branch switch) rescans the tree instead (:meth:`sync`)."""


class Journal:
    """The write journal of one repository's runs: the files a run set out to write (or delete) and
    those already committed. ``None`` as path: no journal (nothing is remembered across runs)."""

    def __init__(self, path: Path | None) -> None:
        self.path = path

    def read(self) -> tuple[set[str], set[str]]:
        """``(paths, done)`` of an unfinished run, ``(set(), set())`` when none."""
        if self.path is None:
            return set(), set()
        try:
            data = json.loads(self.path.read_text(encoding="utf-8"))
            return set(data["paths"]), set(data["done"])
        except FileNotFoundError:
            return set(), set()
        except (OSError, ValueError, KeyError, TypeError) as exc:
            log.warning("write journal %s unreadable (%s): ignored", self.path, exc)
            return set(), set()

    def write(self, paths: Iterable[str], done: Iterable[str]) -> None:
        """Replace the journal atomically (a reader sees the old or the new one, never half)."""
        if self.path is None:
            return
        self.path.parent.mkdir(parents=True, exist_ok=True)
        tmp = self.path.with_name(self.path.name + ".tmp")
        tmp.write_text(json.dumps({"paths": sorted(paths), "done": sorted(done)}), encoding="utf-8")
        os.replace(tmp, self.path)

    def clear(self) -> None:
        """The run finished: forget it."""
        if self.path is not None:
            self.path.unlink(missing_ok=True)


def output_digest(out: IndexedFile, product: str) -> str:
    """Digest of what the index holds for one file: its record, nodes, edges and unresolved calls
    (order-insensitive), the product and the indexer version (which, with the file's checksum, fix
    its chunks). The bookkeeping props of the File node (``digest``, ``indexer``,
    ``parse_errors``) are left out."""
    nodes = list(out.nodes)
    if nodes and not _BOOKKEEPING.isdisjoint(nodes[0].props):
        props = {k: v for k, v in nodes[0].props.items() if k not in _BOOKKEEPING}
        nodes[0] = dataclasses.replace(nodes[0], props=props)
    h = hashlib.sha256()
    h.update(repr((indexer_version(), product, out.file)).encode("utf-8", "surrogatepass"))
    for part in (nodes, out.edges, out.unresolved):
        h.update(b"\1")
        for text in sorted(map(repr, part)):
            h.update(text.encode("utf-8", "surrogatepass"))
            h.update(b"\0")
    return h.hexdigest()


_BOOKKEEPING = frozenset({"digest", "indexer", "parse_errors"})
"""File node props the incremental engine adds: what was written, by which version, how it parsed."""
_VERSIONED = ("resolve.py", "incremental.py", "frameworks/link.py", "frameworks/spring_config.py")


@functools.cache
def indexer_version() -> str:
    """A digest of the extractor version and the source of the code that binds and writes: stored
    outputs of another version are bound and compared again, never trusted as they are."""
    h = hashlib.sha256(extractor_version().encode())
    here = Path(__file__).resolve().parent
    for rel in _VERSIONED:
        h.update((here / rel).read_bytes())
    return h.hexdigest()[:16]


def is_config_path(rel: str) -> bool:
    """Whether a change at ``rel`` changes more than one file's facts: ``.gitignore`` (what is
    indexed) or a Spring configuration file (``application*`` / ``bootstrap*`` ``.yml`` / ``.yaml`` /
    ``.properties``: placeholders and gateway routes of HTTP links)."""
    name = rel.rsplit("/", 1)[-1]
    if name == ".gitignore":
        return True
    return name.startswith(("application", "bootstrap")) and name.endswith(CONFIG_SUFFIXES)


def _release_memory() -> None:
    """Hand the memory a whole-tree run freed back to the system (glibc keeps freed arenas): a
    long-lived watcher would otherwise keep its peak for good."""
    gc.collect()
    try:
        ctypes.CDLL("libc.so.6").malloc_trim(0)
    except (OSError, AttributeError):  # not glibc
        pass


def _text(data: bytes) -> str:
    """A file's text as the extractors and chunks see it."""
    return to_utf8(data)[0].decode("utf-8", "replace")


class RepositoryIndex:
    """One repository's index, kept in line with its files (see the module docstring).

    ``graph`` and ``search`` may be one object (the embedded store). Not thread-safe: one thread
    runs :meth:`sync` and :meth:`update`; other threads and processes read the store meanwhile.
    """

    def __init__(self, root: str | Path, graph: GraphStore, search: SearchIndex, options: IndexOptions) -> None:
        self.root = Path(root).resolve()
        self.graph, self.search, self.options = graph, search, options
        self.repo = options.repo
        self.product = options.product or options.repo
        state = Path(options.state_dir) if options.state_dir else None
        self._cache_dir = str(state / "extract") if state else None
        self.cache = ExtractionCache(self._cache_dir) if self._cache_dir else None
        name = hashlib.sha1(self.repo.encode("utf-8", "surrogatepass")).hexdigest()[:12]
        self.journal = Journal(state / f"journal-{name}.json" if state else None)
        self.resolver = RepositoryResolver(self.repo, LinkOptions.for_repository(self.root, options.http_services))
        self.synced = False
        self.skip_unchanged = False
        """A one-shot run (``ripple index``) stops after hashing when the index already holds exactly
        the tree; a watcher must not (its first sync records what every file's bindings read)."""

    def close(self) -> None:
        """Release the extraction cache (the store stays the caller's)."""
        if self.cache is not None:
            self.cache.close()
        if self._cache_dir is not None:
            close_process_cache(self._cache_dir)

    # ---------------------------------------------------------------------------------- the tree

    def sync(self, progress: ProgressSink | None = None) -> IndexReport:
        """Bring the index in line with the whole tree (what ``ripple index`` runs). Raises
        ``NotADirectoryError`` when the root is not a directory and what the store raises."""
        progress = progress or _NoProgress()
        report = IndexReport(self.repo, str(self.root))
        t0 = time.perf_counter()
        progress.start("discover", None)
        found = discover(self.root, self.options.max_file_bytes, self.options.follow_external_symlinks)
        report.skipped.update(found.skipped)
        if log.isEnabledFor(logging.INFO):
            for reason, path in found.skipped_log:
                log.info("skipped %s: %s", path, reason)
        report.skipped_examples = {k: list(v) for k, v in found.skipped_examples.items()}
        progress.done("discover")
        t1 = time.perf_counter()
        report.phases["discover"] = t1 - t0

        # The repository's configuration (Spring properties, gateway routes) feeds HTTP linking.
        self.resolver.set_link(LinkOptions.for_repository(self.root, self.options.http_services))
        stored = self.graph.file_checksums(self.repo)
        stems = Counter(module_path(sf.path) for sf in found.files)
        keep_suffix = {sf.path for sf in found.files if stems[module_path(sf.path)] > 1}
        progress.start("read", len(found.files))
        hashed: list[tuple[SourceFile, bytes, str]] = []
        for sf in found.files:
            progress.advance()
            try:
                data = read_source(sf.abs_path, self.options.max_file_bytes)
            except SkipFile as exc:
                self._skip(report, sf.path, exc.reason, str(exc))
                continue
            hashed.append((sf, data, hashlib.sha256(data).hexdigest()))
        if self.skip_unchanged and not self.synced and self._unchanged(hashed, stored, report):
            progress.done("read")
            report.phases["read"] = time.perf_counter() - t1
            report.phases["total"] = time.perf_counter() - t0
            return report
        current: set[str] = set()
        loaded: list[tuple[FileExtraction, str, int]] = []
        texts: dict[str, str] = {}
        to_extract: list[SourceFile] = []
        for sf, data, checksum in hashed:
            known = self.resolver.files.get(sf.path)
            if known is not None and known.checksum == checksum:
                current.add(sf.path)
                continue
            ex = self.cache.get(sf.path, checksum) if self.cache is not None else None
            if ex is None:
                to_extract.append(sf)
                continue
            current.add(sf.path)
            loaded.append((ex, checksum, len(data)))
            if stored.get(sf.path) != checksum:
                texts[sf.path] = _text(data)
        progress.done("read")
        t2 = time.perf_counter()
        report.phases["read"] = t2 - t1

        progress.start("extract", len(to_extract))
        fresh = self._extract(to_extract, keep_suffix, report, progress, current, loaded)
        progress.done("extract")
        t3 = time.perf_counter()
        report.phases["extract"] = t3 - t2

        progress.start("resolve", None)
        self.resolver.update(loaded, [p for p in self.resolver.files if p not in current])
        report.files_changed = sum(1 for p in current if stored.get(p) != self.resolver.files[p].checksum)
        # Every file is bound again: whatever happened while nobody watched, the outcome is exact.
        resolved = self.resolver.resolve(sorted(current))
        progress.done("resolve")
        t4 = time.perf_counter()
        report.phases["resolve"] = t4 - t3

        gone = sorted(set(stored) - current)
        self._write(resolved, gone, fresh, texts, report, progress)
        del resolved, fresh, texts, loaded, hashed
        _release_memory()
        self.synced = True
        t5 = time.perf_counter()
        report.phases["write"] = t5 - t4
        report.phases["total"] = t5 - t0
        self._summarise(report)
        return report

    # ------------------------------------------------------------------------------- some paths

    def update(self, paths: Iterable[str | Path], progress: ProgressSink | None = None) -> IndexReport:
        """Re-index the files at ``paths`` (absolute, or relative to the root; edited, added, deleted
        or renamed: a rename is its old path and its new one) and re-bind what they affect. The first
        call, a batch of more than :data:`RESCAN_THRESHOLD` paths, a directory and a ``.gitignore``
        run :meth:`sync` instead. Paths outside the root are ignored."""
        rels = sorted({r for r in (self._relative(p) for p in paths) if r is not None})
        if not self.synced or len(rels) > RESCAN_THRESHOLD or any(self._needs_rescan(r) for r in rels):
            return self.sync(progress)
        progress = progress or _NoProgress()
        report = IndexReport(self.repo, str(self.root))
        if not rels:
            self._summarise(report)
            return report
        t0 = time.perf_counter()
        loaded: list[tuple[FileExtraction, str, int]] = []
        texts: dict[str, str] = {}
        removed: list[str] = []
        to_extract: list[SourceFile] = []
        present: set[str] = set(self.resolver.files)
        for rel in rels:
            verdict = classify_path(self.root, rel, self.options.max_file_bytes, self.options.follow_external_symlinks)
            if not isinstance(verdict, SourceFile):
                if rel in self.resolver.files:
                    removed.append(rel)
                    present.discard(rel)
                continue
            try:
                data = read_source(verdict.abs_path, self.options.max_file_bytes)
            except SkipFile as exc:
                self._skip(report, rel, exc.reason, str(exc))
                if rel in self.resolver.files:
                    removed.append(rel)
                    present.discard(rel)
                continue
            present.add(rel)
            checksum = hashlib.sha256(data).hexdigest()
            known = self.resolver.files.get(rel)
            if known is not None and known.checksum == checksum:
                continue
            ex = self.cache.get(rel, checksum) if self.cache is not None else None
            if ex is None:
                to_extract.append(verdict)
            else:
                loaded.append((ex, checksum, len(data)))
                texts[rel] = _text(data)
        stems = Counter(module_path(p) for p in present)
        keep_suffix = {p for p in present if stems[module_path(p)] > 1}
        current = set(self.resolver.files) - set(removed)
        fresh = self._extract(to_extract, keep_suffix, report, progress, current, loaded)
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
        resolved = self.resolver.resolve(sorted(affected))
        t2 = time.perf_counter()
        report.phases["resolve"] = t2 - t1
        gone = sorted({c.path for c in changes if c.new is None})
        self._write(resolved, gone, fresh, texts, report, progress)
        t3 = time.perf_counter()
        report.phases["write"] = t3 - t2
        report.phases["total"] = t3 - t0
        self._summarise(report)
        return report

    def _unchanged(self, hashed: list[tuple[SourceFile, bytes, str]], stored: dict[str, str],
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
        report.files_with_parse_errors = sum(1 for n in nodes.values() if n.props.get("parse_errors"))
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
        """A ``.gitignore`` changes which files count, a Spring configuration file what URLs say; a
        directory that came, went or moved carries files the watcher may not name one by one."""
        if is_config_path(rel):
            return True
        if (self.root / rel).is_dir():
            return True
        prefix = rel + "/"
        return any(p.startswith(prefix) for p in self.resolver.files)

    # ---------------------------------------------------------------------------------- shared

    def _skip(self, report: IndexReport, path: str, reason: str, detail: str) -> None:
        report.skipped[reason] += 1
        examples = report.skipped_examples.setdefault(reason, [])
        if len(examples) < 5:
            examples.append(path)
        log.info("skipped %s: %s %s", path, reason, detail)

    def _extract(
        self, files: Sequence[SourceFile], keep_suffix: set[str], report: IndexReport, progress: ProgressSink,
        current: set[str], loaded: list[tuple[FileExtraction, str, int]],
    ) -> dict[str, _Extracted]:
        """Parse ``files`` (worker processes when many); good ones join ``current`` and ``loaded``."""
        fresh: dict[str, _Extracted] = {}
        for item in _extract_all(files, self.options, self.product, progress, keep_suffix):
            if item.skip_reason is not None or item.extraction is None:
                self._skip(report, item.path, item.skip_reason or "extract_failed", item.detail)
                current.discard(item.path)
                continue
            current.add(item.path)
            loaded.append((item.extraction, item.checksum, item.size))
            fresh[item.path] = item
        report.files_extracted += len(fresh)
        return fresh

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

    def _write(
        self, resolved: ResolvedRepository, gone: Sequence[str], fresh: dict[str, _Extracted],
        texts: dict[str, str], report: IndexReport, progress: ProgressSink,
    ) -> None:
        """Write the outputs that differ from the index (and those an interrupted run left), delete
        ``gone``; journal first, clear last."""
        pending, done = self.journal.read()
        forced = pending - done
        report.calls = dict(sorted(resolved.call_outcomes.items()))
        report.links = dict(resolved.link_outcomes)
        report.files_resolved = len(resolved.files)
        stored = self.graph.get_nodes([file_id(self.repo, out.file.path) for out in resolved.files])
        todo: list[IndexedFile] = []
        version = indexer_version()
        for out in resolved.files:
            digest = output_digest(out, self.product)
            props = out.nodes[0].props
            props["digest"], props["indexer"] = digest, version
            errors = len(self.resolver.files[out.file.path].ex.errors)
            if errors:
                props["parse_errors"] = errors
            old = stored.get(out.nodes[0].id)
            if out.file.path in forced or old is None or old.props.get("digest") != digest:
                todo.append(out)
        report.files_resumed = sum(1 for out in todo if out.file.path in forced)
        if not todo and not gone:
            if pending:
                self.journal.clear()
            return
        paths = {out.file.path for out in todo} | set(gone)
        self.journal.write(paths, ())
        progress.start("write", len(todo) + len(gone))
        ready, changed_meanwhile = [], []
        for out in todo:
            (ready if self._attach(out, fresh, texts) else changed_meanwhile).append(out)
        if ready:
            # One transaction for the whole run: every edge's ends are written together, so a reader
            # (or a run killed here) sees the index before the run or after it, never a mix.
            self.graph.replace_files(ready)
            if self.search is not self.graph:
                self.search.replace_chunks(ready)
            shared: set[str] = set()  # Endpoint / Topic nodes: one node however many files point to it
            for out in ready:
                report.nodes.update(n.label for n in out.nodes if n.repo or n.id not in shared)
                shared.update(n.id for n in out.nodes if not n.repo)
                report.edges.update(e.kind for e in out.edges)
                report.chunks += len(out.chunks)
            report.files_written = len(ready)
            progress.advance(len(ready))
        if gone:
            if ready:
                self.journal.write(paths, {out.file.path for out in ready})
            self.graph.delete_files(self.repo, gone)
            if self.search is not self.graph:
                self.search.replace_chunks([IndexedFile(FileRecord(self.repo, p, "", "", 0)) for p in gone])
            report.files_deleted = len(gone)
            progress.advance(len(gone))
        progress.done("write")
        if changed_meanwhile:
            # Edited between read and write: the journal keeps them so the next run writes them.
            self.journal.write([out.file.path for out in changed_meanwhile], ())
            log.info("%d files changed while being indexed; the next run takes them", len(changed_meanwhile))
        else:
            self.journal.clear()

    def _attach(self, out: IndexedFile, fresh: dict[str, _Extracted], texts: dict[str, str]) -> bool:
        """Give ``out`` its chunks and text; ``False`` when the file's bytes changed since it was read."""
        path = out.file.path
        fc = self.resolver.files[path]
        item = fresh.get(path)
        if item is not None and item.checksum == fc.checksum:
            out.text = item.text
            same_ids = item.id_path == fc.ex.id_path
            out.chunks = item.chunks if same_ids else chunk_file(self.repo, self.product, fc.ex, item.text)
            return True
        text = texts.get(path)
        if text is None:
            try:
                data = read_source(str(self.root / path), self.options.max_file_bytes)
            except SkipFile:
                return False
            if hashlib.sha256(data).hexdigest() != fc.checksum:
                return False
            text = _text(data)
        out.text = text
        out.chunks = chunk_file(self.repo, self.product, fc.ex, text)
        return True

    def _summarise(self, report: IndexReport) -> None:
        report.files_indexed = len(self.resolver.files)
        report.files_by_language = Counter(fc.lang for fc in self.resolver.files.values())
        report.files_with_parse_errors = sum(1 for fc in self.resolver.files.values() if fc.ex.errors)
        report.partial = Counter(fc.ex.partial for fc in self.resolver.files.values() if fc.ex.partial)
        report.peak_rss_mb = {
            "main": round(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024, 1),
            "largest_worker": round(resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss / 1024, 1),
        }
