"""The extract and resolve phases of a whole-tree sync (:meth:`indexer.incremental.RepositoryIndex.sync`),
in this process or, for a large one-shot run, in a forked child (:mod:`indexer.forked_resolve`).

:class:`WholeTreeBind` is a mixin of :class:`indexer.incremental.RepositoryIndex`: it reads the
index's stages (``extraction``, ``resolver``, ``writer``), its store and options, and calls the
index's records (:class:`indexer.state_records.StateRecords`) and rebind scope
(:class:`indexer.rebind_scope.RebindScope`). Every file of the tree is bound again: whatever happened
while nobody watched, the outcome is exact.
"""

from __future__ import annotations

import logging
import os
import threading
import time
from collections.abc import Callable, Mapping
from pathlib import Path

from indexer.bind_state import save_bind_state
from indexer.discovery import SourceFile
from indexer.extraction import Extracted, ExtractStage
from indexer.forked import ForkedCall, ForkFailed
from indexer.frameworks.link import LinkOptions
from indexer.forked_resolve import (Bound, ExtractionLost, Hashed, NeedsStore, ParkedFiles, PipeProgress, TextPlaces,
                                    bind_in_child, handed_texts, relay_progress, taken_over)
from indexer.heap import release_memory
from indexer.mention_refresh import MentionRecords
from indexer.mentions import stored_mentionable
from indexer.model import FileExtraction
from indexer.resolve.context import FileCtx
from indexer.resolve.released import ReleasedFiles
from indexer.resolve.repository import RepositoryResolver, ResolvedRepository
from indexer.run import IndexOptions, IndexReport, ProgressSink
from indexer.spill import SpilledOutputs, SpillFile, spill_file
from indexer.writer import IndexWriter
from stores.contracts import GraphStore

__all__ = ["LINK_OPTIONS_DEADLINE_S", "LinkOptionsAhead", "WholeTreeBind"]

log = logging.getLogger(__name__)


def _chunked(item: Extracted | None, fc: FileCtx) -> bool:
    """Whether the writer takes ``fc``'s chunks as the worker cut them (``item``, this run's
    extraction of the same bytes and node ids: :meth:`IndexWriter._attach`), needing no extraction."""
    return item is not None and item.checksum == fc.checksum and item.id_path == fc.ex.id_path


LINK_OPTIONS_DEADLINE_S = 300.0
"""Seconds :meth:`LinkOptionsAhead.options` waits for its process once asked (Django's options take
0.5 s): a process stopped (``SIGSTOP``) or stuck made the run wait forever; it is then killed and the
options read here."""


class LinkOptionsAhead:
    """:meth:`indexer.frameworks.link.LinkOptions.for_repository` of ``root`` (with ``services``) read
    in a forked process (:class:`indexer.forked.ForkedCall`) while this one reads and hashes the
    files: a one-shot run's read phase used one core only, and these options walk the tree about
    nine times (Django 5.2.8: 0.45-0.5 s of 0.73 s). :meth:`options` gives them, read here after
    all when the fork or the process failed (logged). Make one only where
    :func:`indexer.forked.can_fork` holds and no other thread of this process holds a lock."""

    def __init__(self, root: str | Path, services: Mapping[str, str] | None) -> None:
        self.root, self.services = root, services
        self._call: ForkedCall | None = None
        try:
            self._call = ForkedCall(lambda: LinkOptions.for_repository(root, services))
        except OSError as exc:
            log.debug("link options read in this process: %s", exc)

    def options(self) -> LinkOptions:
        """The options (raises what :meth:`~indexer.frameworks.link.LinkOptions.for_repository` raises
        when read here)."""
        call, self._call = self._call, None
        if call is not None:
            try:
                got = call.result(LINK_OPTIONS_DEADLINE_S)
            except ForkFailed as exc:
                log.warning("reading the link options in a second process failed (%s): read here", exc)
            else:
                if isinstance(got, LinkOptions):
                    return got
        return LinkOptions.for_repository(self.root, self.services)

    def cancel(self) -> None:
        """Stop the process if it still runs (idempotent)."""
        call, self._call = self._call, None
        if call is not None:
            call.cancel()


class WholeTreeBind:
    """The read, extract and resolve phases of a whole-tree sync (see the module docstring); a mixin
    of :class:`indexer.incremental.RepositoryIndex`, whose attributes below it reads."""

    graph: GraphStore
    repo: str
    options: IndexOptions
    extraction: ExtractStage
    resolver: RepositoryResolver
    writer: IndexWriter
    mention_records: MentionRecords
    skip_unchanged: bool

    def _extract_bind(self, hashed: Hashed, keep_suffix: set[str], stored: dict[str, str],
                      trusted: bool, processes: int, report: IndexReport, progress: ProgressSink, t1: float,
                      spill: SpillFile | None = None, texts_spill: SpillFile | None = None,
                      stored_ids: Callable[[str], set[tuple[str, str]]] | None = None,
                      stored_linked: frozenset[tuple[str, str]] | None = None, exits: bool = False,
                      ) -> tuple[ResolvedRepository, set[str], list[str], Mapping[str, Extracted],
                                 list[tuple[FileExtraction, str, int]]]:
        """The rest of the read phase (the cached extractions: ``hashed`` is emptied), the extract
        phase and the resolve phase (:meth:`_bind`) of a whole-tree sync, in this process or in the
        child of :meth:`_run_forked` (``spill``, ``texts_spill``: the outputs' and the extracted
        text's spill files, new ones when ``None``; ``stored_ids``, ``stored_linked``, ``exits``: as
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
                                                             spill, stored_ids, stored_linked, exits)
        progress.done("resolve")
        report.phases["resolve"] = time.perf_counter() - t3
        return resolved, refresh, gone, fresh, loaded

    def _bind(self, loaded: list[tuple[FileExtraction, str, int]], fresh: Mapping[str, Extracted], current: set[str],
              stored: dict[str, str], trusted: bool, gone: list[str], processes: int,
              spill: SpillFile | None = None, stored_ids: Callable[[str], set[tuple[str, str]]] | None = None,
              stored_linked: frozenset[tuple[str, str]] | None = None,
              exits: bool = False) -> tuple[ResolvedRepository, set[str], int]:
        """The resolve phase of a whole-tree sync (in this process, or in the child of
        :meth:`_bind_forked`): update the resolver with ``loaded``, bind every file of ``current``
        (outputs spilled to ``spill``, a new spill file when ``None``), release the contexts in a
        one-shot run, and find the docs written again (over an index: ``stored``, ``trusted``;
        ``gone``: its paths the tree lost). ``stored_ids`` and ``stored_linked``: what the graph store
        holds, read ahead by a parent (a forked child does not use the store's connection); ``None``:
        read from the store. ``exits``: this process ends once it has handed the result over (the
        forked child), so the memory the release frees is not collected and handed back here: the
        process's end gives it all back, and its rest (records, hand-over) is small beside the
        binding's peak with the copy (Django: a full collection of 0.5-0.6 s of CPU, alone on one
        core while the parent waits). Returns ``(resolved, refresh, files changed)``."""
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
            if not exits:
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
                read_ahead, stored_linked, exits=True)
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
