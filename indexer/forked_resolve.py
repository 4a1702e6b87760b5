"""A one-shot run (``ripple index``) extracts and binds in a forked child, so that its write starts
from a small heap, not from the extraction's and the binding's high-water mark.

Why: the resolve phase builds every file's context, the lookup tables and the memo, then releases
them before the write; but the freed small objects leave pymalloc arenas pinned by a few live
blocks, and glibc keeps its heap: the 400 MB synthetic monorepo wrote from a resident set of 461
MiB of which most was free-but-held memory (docs/benchmarks.md, session 56). A child process gives
all of it back when it exits. Forking *after* the extraction (session 57, fork57) made the child
copy every page of the parent's extraction state its reference counts touched, so that state
existed twice during the resolve (mono45: tree peak 265 -> 304 MiB); the fork is therefore made
before the extraction, once the tree is read and hashed (what the parent then holds: a few hundred
bytes a file), and the extraction state only ever exists in the child.

How: :meth:`indexer.incremental.RepositoryIndex.sync` forks (:func:`bind_in_child`, through
:class:`indexer.forked.ForkedCall`: the child dies with its parent and takes Ctrl-C as the parent
does) once the read phase is done. The child loads the cached extractions, extracts the rest (with
its worker pool), updates the resolver, binds every file, releases the contexts and stages the
resolver's records (:mod:`indexer.bind_state`); its outputs, and the text and chunks of the files
it extracted, go to spill files made before the fork, which both processes share
(:attr:`indexer.spill.SpillFile.pinned`: a refused write fails the child rather than move the bytes
where the parent cannot read them). It hands back only what the write reads (:class:`Bound`, pickled
into a spill file of its own as the pickler makes it, read by the parent once the child has exited:
the pipe carries where): where each output is in that file with its summary, each file's columns
(:class:`indexer.resolve.released.HandedFiles`), where each extracted file's text and chunks are,
the call and link counters, the docs to write again, the paths gone and the run's report. The
parent reads back from the extraction cache (which the child filled) the few extractions the
writer still cuts chunks from (:func:`reread_extractions`; one the cache lost is extracted again).
The child's progress events reach the
parent's sink through a second pipe (:class:`PipeProgress`, :func:`relay_progress`).

An exception the child raised is raised again in the parent (same type and message: what the user
saw when the run was in process); a child that gave no result (killed, out of memory, a fork the
system refused, :class:`NeedsStore`, a spill file's write the disk refused:
:class:`indexer.spill.PinnedWriteRefused`, or a kept extraction lost: :class:`ExtractionLost`) is logged
and the parent extracts and binds in process
instead, from the hashed files it still holds (:func:`bind_in_child` returns ``None``). POSIX only,
and not where :func:`indexer.forked.can_fork` says no (macOS, Windows): those run in process.
"""

from __future__ import annotations

import dataclasses
import gc
import logging
import os
import pickle
import select
import threading
import time
from array import array
from bisect import bisect_left
from collections.abc import Callable, Collection, Iterator, Mapping, Sequence
from typing import Any

from indexer.discovery import SourceFile
from indexer.source_files import HashedFiles
from indexer.extraction import Extracted, ExtractStage
from indexer.forked import ForkedCall, ForkFailed, can_fork
from indexer.heap import release_memory
from indexer.languages import module_systems
from indexer.mention_refresh import MentionChanges
from indexer.model import FileExtraction
from indexer.resolve.released import HandedFiles, ReleasedFiles
from indexer.resolve.repository import ResolvedRepository
from indexer.run import IndexReport, ProgressSink
from indexer.spill import HandedOutputs, PinnedWriteRefused, SpilledOutputs, SpillFile, Summarise, spill_file

__all__ = ["Bound", "FORK_MIN_FILES", "ExtractionLost", "Hashed", "NeedsStore", "ParkedFiles", "PipeProgress", "TextPlaces",
           "bind_in_child", "forks",
           "handed_texts", "relay_progress", "reread_extractions", "taken_over"]

log = logging.getLogger(__name__)

FORK_MIN_FILES = 400
"""The fewest files a one-shot run binds in a child: below, its write's memory is small whatever
the binding left (the forked binding's bar, :data:`indexer.resolve.forked_binding.FORK_MIN_FILES`)."""


@dataclasses.dataclass(frozen=True)
class Bound:
    """What the child that bound a one-shot run hands its parent (all picklable)."""

    outputs: HandedOutputs
    """The outputs, in the spill file both share (:meth:`indexer.spill.SpilledOutputs.taken_over`)."""
    call_outcomes: dict[str, int]
    link_outcomes: dict[str, int]
    dropped: frozenset[str]
    """As :class:`indexer.resolve.repository.ResolvedRepository` has them."""
    files: HandedFiles
    """Every file's columns once released (:meth:`indexer.resolve.released.ReleasedFiles.taken_over`)."""
    refresh: set[str]
    """Docs written again whatever their digest (:mod:`indexer.mention_refresh`)."""
    files_changed: int
    """:attr:`indexer.run.IndexReport.files_changed`."""
    staged: bool
    """Whether the resolver's records were saved to the staged path the parent gave."""
    park_size: int | None
    """Bytes in the extraction's park file when the child was done (``None``: the child moved its
    park elsewhere, the parent's file is not the one it wrote)."""
    report: IndexReport
    """The run's report as the child left it (skips, counts, the read, extract and resolve phases' seconds)."""
    gone: list[str]
    """The index's paths the tree no longer has (sorted)."""
    fresh: list[tuple[str, str, int, str | None, int, int]]
    """Each file the child extracted: ``(path, checksum, size in bytes, id_path, offset, length)``,
    its text and chunks at ``offset`` in the text spill file the parent gave."""
    texts_size: int
    """Bytes in that text spill file when the child was done."""
    kept: list[tuple[str, str, int]]
    """``(path, checksum, size)`` of the files whose extraction the writer still cuts chunks from
    (:func:`reread_extractions`)."""
    mentions: MentionChanges
    """What the child's doc records (:class:`indexer.mention_refresh.MentionRecords`: the docs it read
    to find those naming a changed definition) gained and lost since the fork
    (:meth:`~indexer.mention_refresh.MentionRecords.take` in the parent)."""


class NeedsStore(Exception):
    """Raised in the child when it needs what only the graph store can tell (the parent read ahead
    what it could): the parent then runs in process (:func:`bind_in_child` returns ``None``)."""


class ExtractionLost(RuntimeError):
    """An extraction the child made or loaded is neither in the extraction cache nor to be made again
    from the same bytes (:func:`reread_extractions`): the parent then binds in process."""


Hashed = HashedFiles
"""The read phase's files: ``(file, size in bytes, checksum)`` each, kept as columns (:mod:`indexer.source_files`)."""


class ParkedFiles:
    """The read phase's files (``hashed``, which is emptied) pickled into a spill file (in
    ``state_dir``: :func:`indexer.spill.spill_file`) while the child binds, the memory they held
    given back (:func:`indexer.heap.release_memory`): kept in the parent for the run in process (the
    fall-back), they would be its own pages the whole time (about 520 bytes a file, 21 MB at the
    400 MB monorepo's 41,940 files: the child lets its copies go, which writes them), beside the
    child's. :meth:`files` reads them back (in the child, and in the parent when it needs them).
    Raises ``OSError`` when the spill file cannot be made."""

    def __init__(self, hashed: Hashed, state_dir: str | None) -> None:
        self.spill = spill_file(state_dir)
        self.ref = self.spill.put(pickle.dumps(hashed, protocol=pickle.HIGHEST_PROTOCOL))
        hashed.clear()
        release_memory()

    def files(self) -> Hashed:
        """The files, as they were given."""
        files: Hashed = pickle.loads(self.spill.get(self.ref))
        return files


def reread_extractions(listed: Sequence[tuple[str, str, int]], stage: ExtractStage,
                       hashed: Callable[[], Sequence[tuple[SourceFile, int, str]]],
                       keep_suffix: Collection[str]) -> list[tuple[FileExtraction, str, int]]:
    """``(extraction, checksum, size)`` of each ``(path, checksum, size)`` of ``listed``, read back
    from ``stage``'s extraction cache (:meth:`indexer.extraction.ExtractStage.cached`): every
    extraction of the run is cached as it is made (by the child's workers). One the cache does not
    hold (a write that failed, an entry culled meanwhile) is extracted again in this process
    (:meth:`~indexer.extraction.ExtractStage.extracted_again`, from its file in what ``hashed()``
    gives, the read phase's ``(file, size, checksum)``; ``keep_suffix``: the paths whose ids keep
    their suffix).
    Raises :class:`ExtractionLost` when that fails too (the file is gone, changed since it was read,
    or no longer extracts)."""
    out = []
    missing: dict[str, SourceFile] | None = None
    for path, checksum, size in listed:
        ex = stage.cached(path, checksum)
        if ex is None:
            if missing is None:
                missing = {sf.path: sf for sf, _, _ in hashed()}
            sf = missing.get(path)
            ex = None if sf is None else stage.extracted_again(sf, checksum, path in keep_suffix)
            if ex is None:
                raise ExtractionLost(f"the extraction of {path} is not in the extraction cache after the run bound "
                                     "and could not be made again from the same bytes")
            log.info("the extraction of %s was not in the extraction cache: extracted again", path)
        out.append((ex, checksum, size))
    return out


class TextPlaces(Mapping[str, Extracted]):
    """In the child, from its extraction to its end: the extracted files ``fresh`` (each one's text
    and chunks in ``texts``: :meth:`indexer.extraction.Extracted.spill`) as columns, not one
    :class:`~indexer.extraction.Extracted` (its spill place a tuple of two ints, in a dict) a file.
    Nothing but :attr:`Bound.fresh` and the release's test of which extractions the write still
    reads (in :mod:`indexer.incremental`, through :meth:`get`) reads them after the extraction,
    and the resolve comes between: about 250 bytes a file held there (the 45-package generated
    monorepo: 2.55 MiB) become about 60. A read mapping, in ``fresh``'s order; ``[path]`` gives a new
    :class:`~indexer.extraction.Extracted` equal to the one it replaces (``KeyError`` when none).
    Raises ``ValueError`` when a result's text is not in ``texts``."""

    def __init__(self, fresh: Mapping[str, Extracted], texts: SpillFile) -> None:
        self.texts = texts
        self.paths: list[str] = []
        self.checksums: list[str] = []
        self.id_paths: list[str | None] = []
        self.sizes, self.offsets, self.lengths = array("q"), array("q"), array("q")
        for item in fresh.values():
            if item.spilled is None or item.spilled[0] is not texts:
                raise ValueError(f"the text of {item.path} is not in the texts' spill file")
            self.paths.append(item.path)
            self.checksums.append(item.checksum)
            self.id_paths.append(item.id_path)
            self.sizes.append(item.size)
            self.offsets.append(item.spilled[1])
            self.lengths.append(item.spilled[2])
        paths = self.paths
        self._by_path = array("q", sorted(range(len(paths)), key=paths.__getitem__))
        """The rows in the order of their paths (looked up by bisection: no dict a file)."""

    def _row(self, path: str) -> int:
        paths, by_path = self.paths, self._by_path
        k = bisect_left(by_path, path, key=paths.__getitem__)
        if k < len(by_path) and paths[by_path[k]] == path:
            return by_path[k]
        raise KeyError(path)

    def __getitem__(self, path: str) -> Extracted:
        i = self._row(path)
        return Extracted(self.paths[i], checksum=self.checksums[i], size=self.sizes[i], id_path=self.id_paths[i],
                         spilled=(self.texts, self.offsets[i], self.lengths[i]))

    def __iter__(self) -> Iterator[str]:
        return iter(self.paths)

    def __len__(self) -> int:
        return len(self.paths)


def handed_texts(fresh: Mapping[str, Extracted], texts: SpillFile) -> list[tuple[str, str, int, str | None, int, int]]:
    """In the child: :attr:`Bound.fresh` of the extracted files ``fresh``, whose text and chunks are
    all in ``texts`` (:meth:`indexer.extraction.Extracted.spill`); read from the columns when
    ``fresh`` is :class:`TextPlaces` (which checked the spill file when built), not through a new
    :class:`~indexer.extraction.Extracted` a file."""
    if isinstance(fresh, TextPlaces) and fresh.texts is texts:
        return list(zip(fresh.paths, fresh.checksums, fresh.sizes, fresh.id_paths, fresh.offsets, fresh.lengths,
                        strict=True))
    handed = []
    for item in fresh.values():
        assert item.spilled is not None and item.spilled[0] is texts
        handed.append((item.path, item.checksum, item.size, item.id_path, item.spilled[1], item.spilled[2]))
    return handed


def taken_over(bound: Bound, spill: SpillFile, texts: SpillFile, park: SpillFile | None, summarise: Summarise,
               stage: ExtractStage, hashed: Callable[[], Hashed], keep_suffix: Collection[str],
               ) -> tuple[ResolvedRepository, dict[str, Extracted], list[tuple[FileExtraction, str, int]], ReleasedFiles]:
    """In the parent: what the child that bound handed over (``bound``), read from the spill files
    both share (``spill``: the outputs, summarised by ``summarise``; ``texts``: the extracted text and
    chunks; ``park``: the extraction's park file, which the child appended to), and the kept
    extractions read back (:func:`reread_extractions`, with ``stage``, ``hashed``, ``keep_suffix``).
    Returns ``(resolved, fresh, loaded, files)`` as the binding in process has them (``files``: every
    file's context, released). Raises :class:`ExtractionLost`
    (before taking over anything but the park file's end)."""
    if park is not None and bound.park_size is not None:  # what the child appended (the parent reads none of it)
        park.written_to(bound.park_size)
    loaded = reread_extractions(bound.kept, stage, hashed, keep_suffix)
    outputs = SpilledOutputs.taken_over(bound.outputs, spill, summarise)
    texts.written_to(bound.texts_size)
    fresh = {path: Extracted(path, checksum=checksum, size=size, id_path=id_path, spilled=(texts, offset, length))
             for path, checksum, size, id_path, offset, length in bound.fresh}
    files = ReleasedFiles.taken_over(bound.files, module_systems(), {ex.path: ex for ex, _, _ in loaded})
    return ResolvedRepository(outputs, bound.call_outcomes, bound.link_outcomes, bound.dropped), fresh, loaded, files


_FLUSH_S = 0.1
"""How often at most :class:`PipeProgress` sends the advances it counted (seconds)."""


class PipeProgress:
    """A :class:`indexer.run.ProgressSink` in the child sending each event to the parent through the
    pipe ``fd`` (:func:`relay_progress`): a 4-byte little-endian length and a pickled tuple per
    event (well under the size a pipe writes atomically), advances summed over :data:`_FLUSH_S`.
    A write that fails (the parent gone) is dropped: progress is never worth failing the run."""

    def __init__(self, fd: int) -> None:
        self.fd = fd
        self.pending = 0
        self.sent = time.monotonic()

    def start(self, phase: str, total: int | None) -> None:
        """Send what is pending, then the phase's start."""
        self._flush()
        self._send(("start", phase, total))

    def advance(self, n: int = 1) -> None:
        """Count ``n``; send the sum when :data:`_FLUSH_S` passed since the last send."""
        self.pending += n
        if time.monotonic() - self.sent >= _FLUSH_S:
            self._flush()

    def done(self, phase: str) -> None:
        """Send what is pending, then the phase's end."""
        self._flush()
        self._send(("done", phase))

    def _flush(self) -> None:
        if self.pending:
            self._send(("advance", self.pending))
            self.pending = 0
        self.sent = time.monotonic()

    def _send(self, event: tuple[Any, ...]) -> None:
        data = pickle.dumps(event, protocol=pickle.HIGHEST_PROTOCOL)
        try:
            os.write(self.fd, len(data).to_bytes(4, "little") + data)
        except OSError:
            pass


def relay_progress(fd: int, progress: ProgressSink, stop: threading.Event) -> threading.Thread:
    """Start a daemon thread passing the events :class:`PipeProgress` writes to ``fd`` on to
    ``progress`` until the pipe ends or, once ``stop`` is set, nothing more is waiting (a worker
    process of the child may hold the pipe's write end open). The caller joins it and closes ``fd``."""

    def run() -> None:
        buf = b""
        while True:
            ready, _, _ = select.select([fd], [], [], 0.0 if stop.is_set() else 0.2)
            if not ready:
                if stop.is_set():
                    return
                continue
            block = os.read(fd, 1 << 16)
            if not block:
                return
            buf += block
            while len(buf) >= 4 and len(buf) >= 4 + int.from_bytes(buf[:4], "little"):
                end = 4 + int.from_bytes(buf[:4], "little")
                event, buf = pickle.loads(buf[4:end]), buf[end:]
                if event[0] == "start":
                    progress.start(event[1], event[2])
                elif event[0] == "advance":
                    progress.advance(event[1])
                else:
                    progress.done(event[1])

    thread = threading.Thread(target=run, name="ripple-child-progress", daemon=True)
    thread.start()
    return thread


def forks(files: int) -> bool:
    """Whether a one-shot run of ``files`` files extracts and binds in a child: at least :data:`FORK_MIN_FILES`
    and :func:`indexer.forked.can_fork`."""
    return files >= FORK_MIN_FILES and can_fork()


def _outcome(work: Callable[[], Any], pinned: Sequence[SpillFile]) -> tuple[bool, Any]:
    """Run in the child: ``(True, work())``, or ``(False, exception)`` when ``work`` raised an
    ``Exception`` that pickles (one that does not leaves the child without a result: the parent
    binds in process, where it is raised as it always was). ``pinned``' spill files refuse to move."""
    for spill in pinned:
        spill.pinned = True
    try:
        return True, work()
    except Exception as exc:
        try:
            pickle.loads(pickle.dumps(exc, protocol=pickle.HIGHEST_PROTOCOL))
        except Exception:  # noqa: BLE001 - not picklable: reported as text, the parent falls back
            raise exc from None
        return False, exc


def _handed(work: Callable[[], Any], pinned: Sequence[SpillFile], result: SpillFile) -> tuple[bool, Any]:
    """Run in the child: :func:`_outcome`; a value is pickled into ``result`` as it is made
    (:meth:`indexer.spill.SpillFile.put_pickled`), and where it went is returned instead:
    ``(True, (offset, length))``."""
    ok, value = _outcome(work, pinned)
    if not ok:
        return ok, value
    result.pinned = True
    return True, result.put_pickled(value)


def bind_in_child(work: Callable[[], Bound], pinned: Sequence[SpillFile]) -> Bound | None:
    """``work()`` run in a forked child (:class:`indexer.forked.ForkedCall`), its :class:`Bound`
    read back; ``pinned``: the spill files the child appends to and the parent reads after it
    (:attr:`indexer.spill.SpillFile.pinned` in the child). The child pickles the :class:`Bound`
    into a spill file of its own (in the folder of ``pinned[0]``, else the system's temporary
    folder) as the pickler makes it, and the parent reads it once the child has exited: neither
    holds the pickled bytes while the child holds the state it bound from (through the pipe, the
    child held them whole at its very end, and the parent gathered them as the child wrote: the
    400 MB generated monorepo's tree peak was set there, docs/benchmarks.md, session 61).
    Raises again the exception ``work``
    raised (unpickled: same type, same arguments), and ``KeyboardInterrupt`` on Ctrl-C (the child is
    killed). ``None``, with a warning logged, when no child could be made or it gave no result
    (killed by a signal, out of memory, an exception that does not pickle, a spill file write the disk
    refused (:class:`indexer.spill.PinnedWriteRefused`), a result that cannot be
    written or read back): the caller binds in process. The parent's objects are frozen
    (``gc.freeze``) from just before the fork until the child is done, in both processes."""
    try:
        result = SpillFile(pinned[0].directory if pinned else None)
    except OSError as exc:
        log.warning("could not make a file for the forked child's result (%s): binding in this process", exc)
        return None
    try:
        return _bound_in_child(work, pinned, result)
    finally:
        result.close()


def _bound_in_child(work: Callable[[], Bound], pinned: Sequence[SpillFile], result: SpillFile) -> Bound | None:
    """:func:`bind_in_child` with the spill file ``result`` for the child's :class:`Bound`."""
    # Until the child is done, the collections of both processes leave alone what they share (as the
    # binding's copy does, indexer.resolve.forked_binding): a full collection writes the header of
    # every container it walks, and each page so written is then held twice (the child's resolve
    # runs full collections as its heap grows). Left frozen when the caller had frozen already.
    frozen = gc.get_freeze_count() == 0
    gc.freeze()
    try:
        try:
            call = ForkedCall(lambda: _handed(work, pinned, result))
        except OSError as exc:
            log.warning("could not fork to bind (%s): binding in this process", exc)
            return None
        log.debug("binding in a forked child (pid %s)", call.pid)
        try:
            ok, value = call.result()
        except ForkFailed as exc:
            log.warning("binding in a forked child failed (%s): binding in this process", exc)
            return None
    finally:
        if frozen:
            gc.unfreeze()
    if not ok:
        if isinstance(value, NeedsStore):
            log.info("the forked child needed the store (%s): binding in this process", value)
            return None
        if isinstance(value, PinnedWriteRefused):  # in process, the spill files may move (to memory at worst)
            log.warning("the forked child could not write its spill files (%s): binding in this process", value)
            return None
        raise value
    try:
        result.written_to(value[0] + value[1])
        bound: Bound = pickle.loads(result.get(value))
    except (OSError, ValueError, EOFError, pickle.UnpicklingError) as exc:
        log.warning("the forked child's result could not be read back (%s): binding in this process", exc)
        return None
    return bound
