"""Byte strings an index run parks on disk instead of in memory until it needs them again.

An index run makes some things long before it uses them: the extract stage cuts every file's text
and chunks (Django 5.2.8: 58.6 MB pickled) which wait for the write stage, after every file is
resolved; the resolver makes every file's output (its nodes and edges: Django 5.2.8, about 66 MiB
as objects) long before the writer compares and writes it. :class:`SpillFile` keeps them in an anonymous temporary file (unlinked at once on POSIX,
so nothing is left behind even by ``kill -9``), read back by ``(offset, length)``. The operating
system's page cache may keep the bytes in memory, but that memory is not the process's: it is
given back under pressure, and the process's resident set does not grow with the repository.
:class:`SpilledOutputs` is the sequence of file outputs the resolver hands the writer that way.
"""

from __future__ import annotations

import array
import dataclasses
import errno
import io
import os
import pickle
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from typing import IO, overload

from stores.contracts import Edge, IndexedFile, Node

__all__ = ["HandedOutputs", "PinnedWriteRefused", "SpillFile", "SpillRef", "SpilledOutputs", "Summarise", "packed_ref", "spill_file",
           "unpacked_ref"]

SpillRef = tuple[int, int]
"""Where :meth:`SpillFile.put` wrote a byte string: ``(offset, length)`` in bytes."""

_LENGTH_BITS = 40


def packed_ref(ref: SpillRef) -> int:
    """``ref`` as one integer (``offset << 40 | length``): a 32-byte int where the tuple and its two
    integers are about 120 bytes, for what keeps a reference per file of a whole-tree run.
    :func:`unpacked_ref` reads it back. Raises ``ValueError`` for a negative offset or a length of
    1 TiB or more."""
    offset, length = ref
    if offset < 0 or not 0 <= length < 1 << _LENGTH_BITS:
        raise ValueError(f"spill reference {ref} cannot be packed")
    return offset << _LENGTH_BITS | length


def unpacked_ref(packed: int) -> SpillRef:
    """The :data:`SpillRef` :func:`packed_ref` packed into ``packed``."""
    return packed >> _LENGTH_BITS, packed & ((1 << _LENGTH_BITS) - 1)


class PinnedWriteRefused(OSError):
    """A write the disk refused (full, quota) to a :attr:`SpillFile.pinned` file, which may not move:
    the forked copy of the process writing it gives up, and the process that forked it does the work
    itself, where the file may move (:func:`indexer.forked_resolve.bind_in_child`). Same ``errno`` and
    text as the refused write's ``OSError``."""


def _refused(exc: OSError) -> PinnedWriteRefused:
    return PinnedWriteRefused(exc.errno, exc.strerror or str(exc))


Summarise = Callable[[IndexedFile], tuple[object, bytes | None]]
"""What :class:`SpilledOutputs` keeps of each output it spills (:attr:`SpilledOutputs.summarise`):
``output -> (value kept in memory, record of bytes put in the spill file or None)``."""


def spill_file(state_dir: str | None) -> SpillFile:
    """A new spill file in the run's state folder (``state_dir``, created if missing: it is on disk,
    in the user's cache folder, where the system's temporary folder may be in memory, ``tmpfs``), or
    in the system's temporary folder without one or when the state folder cannot be made."""
    if state_dir is not None:
        try:
            os.makedirs(state_dir, exist_ok=True)
            return SpillFile(state_dir)
        except OSError:
            pass
    return SpillFile()


class SpillFile:
    """An append-only anonymous temporary file of byte strings (``directory``: where to create it,
    default the system's temporary folder). Thread-safe; closed when garbage-collected or by
    :meth:`close`. Raises ``OSError`` when the file cannot be created or written."""

    def __init__(self, directory: str | None = None) -> None:
        # Unbuffered: a buffered handle keeps the bytes a full disk refused in its buffer and tries
        # to write them again at every later seek, flush or close, so nothing could be moved.
        self._fh: IO[bytes] = tempfile.TemporaryFile(dir=directory, buffering=0)
        self.directory = directory
        """The folder it was made in (``None``: the system's temporary folder)."""
        self._where = "state" if directory is not None else "temp"
        self._end = 0
        self._lock = threading.Lock()
        self.pinned = False
        """Whether a write the disk refuses raises ``OSError`` instead of moving the bytes elsewhere
        (:meth:`put`): set in a forked copy of this process appending to the file its parent reads
        (:mod:`indexer.forked_resolve`), where a move would take them to a file, or into memory, the
        parent cannot see."""

    def put(self, data: bytes) -> SpillRef:
        """Append ``data``; returns where it went (for :meth:`get`). A write the disk refuses (full,
        quota) moves what was written to the system's temporary folder, then to memory, and goes on:
        a full cache folder must not stop an index run (unless :attr:`pinned`: then
        :class:`PinnedWriteRefused`)."""
        def write() -> int:
            _write_all(self._fh, data)
            return len(data)

        return self._append(write)

    def put_pickled(self, value: object) -> SpillRef:
        """Append ``value`` pickled (highest protocol) as the pickler makes it: its output goes to the
        file a frame (about 64 KiB) at a time, never held whole; returns where it went
        (``pickle.loads`` of :meth:`get` gives it back). Raises what pickling raises. A write the disk
        refuses moves the file as :meth:`put` does and pickles again (unless :attr:`pinned`:
        :class:`PinnedWriteRefused`)."""
        def write() -> int:
            appender = _Appender(self._fh)
            pickle.Pickler(appender, protocol=pickle.HIGHEST_PROTOCOL).dump(value)
            return appender.written

        return self._append(write)

    def _append(self, write: Callable[[], int]) -> SpillRef:
        """Run ``write`` (it writes at the file's current position, into :attr:`_fh` as it is at the
        call, and returns the bytes written) at the end of the file; a write the disk refuses moves the
        file (:meth:`_move`) and runs ``write`` again from the same offset, unless :attr:`pinned`
        (:class:`PinnedWriteRefused`) or already in memory (the ``OSError`` raised)."""
        with self._lock:
            offset = self._end
            while True:
                try:
                    self._fh.seek(offset)
                    written = write()
                    break
                except OSError as exc:
                    if self.pinned:
                        raise _refused(exc) from exc
                    if self._where == "memory":
                        raise
                    self._move()
            self._end += written
            return offset, written

    def _move(self) -> None:
        """Copy the bytes written so far to the next place (the temporary folder, then memory)."""
        old = self._fh
        while True:
            if self._where == "state":
                self._where = "temp"
                try:
                    new: IO[bytes] = tempfile.TemporaryFile(buffering=0)
                except OSError:
                    continue
            else:
                self._where, new = "memory", io.BytesIO()
            try:
                done = 0
                while done < self._end:  # at offsets: the file position may be a forked copy's too
                    block = os.pread(old.fileno(), min(self._end - done, 1 << 20), done)
                    if not block:
                        raise OSError("spill file shorter than written")
                    new.seek(done)
                    _write_all(new, block)
                    done += len(block)
                break
            except OSError:
                new.close()
                if self._where == "memory":
                    raise
        self._fh = new
        old.close()

    def get(self, ref: SpillRef) -> bytes:
        """The bytes :meth:`put` wrote at ``ref``. Raises ``ValueError`` for a reference outside
        what was written (or after :meth:`close`). Reads at the offset (``pread``) without moving the
        file position, so a forked copy of this process (:mod:`indexer.forked`) may read the same
        file while this one writes it."""
        offset, length = ref
        with self._lock:
            if offset < 0 or length < 0 or offset + length > self._end:
                raise ValueError(f"spill reference {ref} outside the {self._end} bytes written")
            self._fh.flush()
            if isinstance(self._fh, io.BytesIO):
                self._fh.seek(offset)
                data = self._fh.read(length)
            else:  # at an offset, not through the file position, which a forked process shares
                data = os.pread(self._fh.fileno(), length, offset)
        if len(data) != length:
            raise ValueError(f"spill reference {ref}: only {len(data)} bytes read")
        return data

    def written_to(self, size: int) -> None:
        """Another process sharing this file (a forked copy of this one, :mod:`indexer.forked`)
        appended to it up to ``size`` bytes: :meth:`get` then reads what it wrote. Raises
        ``ValueError`` for a size below what this process wrote."""
        with self._lock:
            if size < self._end:
                raise ValueError(f"spill file size {size} below the {self._end} bytes written here")
            self._end = size

    @property
    def moved(self) -> bool:
        """Whether a refused write (:meth:`put`) moved it out of :attr:`directory` (to the system's
        temporary folder or to memory)."""
        return self._where != ("state" if self.directory is not None else "temp")

    @property
    def size(self) -> int:
        """Bytes written so far."""
        return self._end

    def close(self) -> None:
        """Delete the file (idempotent); :meth:`get` then raises ``ValueError``."""
        with self._lock:
            self._fh.close()
            self._end = 0

    def __del__(self) -> None:  # the last reference gone: delete the file without a ResourceWarning
        fh = getattr(self, "_fh", None)
        if fh is not None:
            fh.close()


class _Appender:
    """The file :meth:`SpillFile.put_pickled`'s pickler writes to: each write goes to ``fh`` at once."""

    def __init__(self, fh: IO[bytes]) -> None:
        self.fh = fh
        self.written = 0
        """Bytes written so far."""

    def write(self, data: bytes | memoryview) -> int:
        _write_all(self.fh, data)
        size = memoryview(data).nbytes
        self.written += size
        return size


def _write_all(fh: IO[bytes], data: bytes | memoryview) -> None:
    """Write all of ``data`` to the unbuffered ``fh`` at its position: a raw write may take only part
    of it (the disk filling up); ``OSError`` when it takes nothing more."""
    view = memoryview(data)
    while view:
        n = fh.write(view)
        if not n:
            raise OSError(errno.ENOSPC, "the spill file took no more bytes")
        view = view[n:]


@dataclasses.dataclass(frozen=True)
class HandedOutputs:
    """A :class:`SpilledOutputs` made in a forked copy of this process, as it hands it to the parent
    that shares its spill file (:meth:`SpilledOutputs.hand_over`, :meth:`SpilledOutputs.taken_over`):
    its columns (where each output and its summary's record are in the file, the outputs kept in
    memory, the paths, the summaries' values), what was added to spilled outputs, and the file's
    size once the copy was done (bytes). Picklable; holds no output read back."""

    where: array.array
    kept: dict[int, IndexedFile]
    paths: list[str]
    values: list[object]
    extra: dict[int, list[bytes]]
    spilled_with: dict[int, tuple[object, SpillRef | None]]
    size: int


_KEPT = -1
"""In :attr:`SpilledOutputs._where`, an output's offset when it is kept in memory."""
_NO_RECORD = -1
_NO_SUMMARY = -2
"""In :attr:`SpilledOutputs._where`, a summary's record offset when it has no record, and when the
output has no summary."""


class SpilledOutputs(Sequence[IndexedFile]):
    """File outputs (:class:`stores.contracts.IndexedFile`) in order, each kept in memory or pickled
    into a :class:`SpillFile` (:meth:`append`). Reading one that was spilled unpickles a new copy
    each time: a change to it is kept only through :meth:`replace`. ``paths`` lists the files' paths
    without loading them.

    What it holds per output is columns, not objects: four 8-byte integers (where the output is in
    the spill file, where its summary's record is) and the summary's value, so that a whole-tree run
    holds about 40 bytes a file beside the value (a reference tuple, a summary tuple and a list slot
    each were about 330 bytes a file: docs/benchmarks.md, session 61)."""

    __slots__ = ("spill", "_where", "_kept", "paths", "_values", "_extra", "summarise", "_spilled_with")

    def __init__(self, spill: SpillFile | None = None, summarise: Summarise | None = None) -> None:
        self.spill = spill if spill is not None else SpillFile()
        self._where = array.array("q")
        """Four integers per output: its offset and length in the spill file (offset :data:`_KEPT`:
        kept in memory, in :attr:`_kept`), then its summary's record's (offset :data:`_NO_RECORD`:
        a summary without a record; :data:`_NO_SUMMARY`: no summary)."""
        self._kept: dict[int, IndexedFile] = {}
        self.paths: list[str] = []
        self.summarise = summarise
        """Applied to each output as it is spilled: what a reader needs of every output without
        reading it back (the writer's digest, :meth:`summary`), and a record of bytes to keep beside
        it in the spill file (or ``None``). A pure function of the output, so that another process
        may apply it (:meth:`append_summarised`)."""
        self._values: list[object] = []
        """Per output, its summary's value (``None`` without a summary)."""
        self._extra: dict[int, list[bytes]] = {}
        """Per index of a spilled output, what :meth:`extend` added to it, pickled (in memory): a
        read appends it, so the output itself is not read back and spilled again."""
        self._spilled_with: dict[int, tuple[object, SpillRef | None]] = {}
        """Per index of a spilled output :meth:`extend` added to, the summary it was spilled with
        (:meth:`extended`)."""

    def hand_over(self) -> HandedOutputs:
        """What another process sharing :attr:`spill` (the parent of this forked copy) needs to read
        these outputs as this one would (:meth:`taken_over`); the columns are this object's own, not
        copies. Raises ``OSError`` when the spill file was moved (:attr:`SpillFile.moved`): the
        outputs are then in a file, or memory, the other process cannot read."""
        if self.spill.moved:
            raise OSError("the spill file was moved out of the file the parent shares")
        return HandedOutputs(self._where, self._kept, self.paths, self._values, self._extra, self._spilled_with,
                             self.spill.size)

    @classmethod
    def taken_over(cls, handed: HandedOutputs, spill: SpillFile, summarise: Summarise | None = None) -> SpilledOutputs:
        """The outputs a forked copy of this process handed over (:meth:`hand_over`), read from
        ``spill``, this process's handle on the file they were spilled to (told the copy's size,
        :meth:`SpillFile.written_to`); ``summarise`` as :attr:`summarise`. Raises ``ValueError`` when
        ``spill`` holds more bytes than the copy says the file had (not the file it wrote)."""
        spill.written_to(handed.size)
        out = cls(spill, summarise)
        out._where, out._kept, out.paths, out._values = handed.where, handed.kept, handed.paths, handed.values
        out._extra, out._spilled_with = handed.extra, handed.spilled_with
        return out

    def append(self, out: IndexedFile, keep: bool = False, blob: bytes | None = None) -> None:
        """Add ``out`` at the end: kept as it is when ``keep``, else pickled into the spill file
        (``out`` is then no longer referenced here; ``blob``: its pickle, when the caller has it)."""
        self.replace(len(self.paths), out, keep, blob)

    def replace(self, index: int, out: IndexedFile, keep: bool = False, blob: bytes | None = None) -> None:
        """Put ``out`` at ``index`` (``len(self)``: append), kept or spilled as :meth:`append`."""
        if keep:
            self._set(index, None, out.file.path, None, out)
            return
        ref = self.spill.put(blob if blob is not None else pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL))
        summary = self._placed(*self.summarise(out)) if self.summarise is not None else None
        self._set(index, ref, out.file.path, summary)

    def append_summarised(self, path: str, blob: bytes, value: object, record: bytes | None) -> None:
        """Add at the end the output of the file ``path`` pickled as ``blob``, with what
        :attr:`summarise` gave for it (``value``, ``record``) where it was made (another process):
        the output is not unpickled here."""
        self._set(len(self.paths), self.spill.put(blob), path, self._placed(value, record))

    def _placed(self, value: object, record: bytes | None) -> tuple[object, SpillRef | None]:
        return value, self.spill.put(record) if record is not None else None

    def _set(self, index: int, ref: SpillRef | None, path: str, summary: tuple[object, SpillRef | None] | None,
             kept: IndexedFile | None = None) -> None:
        """Fill the columns of the output at ``index`` (``len(self)``: a new one): spilled at ``ref``,
        or ``kept`` in memory (``ref`` ``None``)."""
        if summary is None:
            value, row = None, (_NO_SUMMARY, 0)
        else:
            value, record = summary
            row = record if record is not None else (_NO_RECORD, 0)
        where = (*(ref if ref is not None else (_KEPT, 0)), *row)
        if index == len(self.paths):
            self._where.extend(where)
            self.paths.append(path)
            self._values.append(value)
        else:
            self._where[4 * index:4 * index + 4] = array.array("q", where)
            self._values[index] = value
            self._extra.pop(index, None)
            self._spilled_with.pop(index, None)
        if kept is not None:
            self._kept[index] = kept
        else:
            self._kept.pop(index, None)

    def summary(self, index: int) -> tuple[object, SpillRef | None] | None:
        """``(value, where its record is)`` of what :attr:`summarise` gave for the output at
        ``index`` when it was spilled (the reference ``None`` without a record); ``None`` without a
        summary, for an output kept in memory, or once :meth:`extend` added to it (then the summary
        no longer describes it: read the output)."""
        index = self._row(index)
        offset = self._where[4 * index + 2]
        if offset == _NO_SUMMARY:
            return None
        return self._values[index], None if offset == _NO_RECORD else (offset, self._where[4 * index + 3])

    def extend(self, index: int, nodes: Sequence[Node], edges: Sequence[Edge]) -> None:
        """Append ``nodes`` and ``edges`` to the output at ``index`` (the framework linker's): in
        place when it is kept in memory; else kept beside it, pickled, and appended (a new copy) on
        every read, which then sees what reading back, extending and spilling it again would have
        given. Raises ``IndexError`` for an index not in the sequence."""
        index = self._row(index)
        kept = self._kept.get(index)
        if kept is not None:
            kept.nodes.extend(nodes)
            kept.edges.extend(edges)
        elif nodes or edges:
            before = self.summary(index)
            if before is not None:
                self._spilled_with[index] = before
                self._where[4 * index + 2], self._where[4 * index + 3] = _NO_SUMMARY, 0
                self._values[index] = None
            self._extra.setdefault(index, []).append(
                pickle.dumps((list(nodes), list(edges)), protocol=pickle.HIGHEST_PROTOCOL))

    def _row(self, index: int) -> int:
        """``index`` counted from the end when negative (as a list's); ``IndexError`` outside."""
        n = len(self.paths)
        if index < 0:
            index += n
        if not 0 <= index < n:
            raise IndexError(f"output {index} of {n}")
        return index

    def extended(self, index: int) -> tuple[tuple[object, SpillRef | None], list[Node]] | None:
        """For a spilled output that :meth:`extend` added to after :attr:`summarise` summarised it:
        that summary (as :meth:`summary` gave it before) and the nodes added since, in order (what a
        read appends after the output's own nodes); ``None`` for any other output. The additions are
        read from memory: the output is not."""
        before = self._spilled_with.get(index)
        if before is None:
            return None
        added: list[Node] = []
        for blob in self._extra.get(index, ()):
            added.extend(pickle.loads(blob)[0])
        return before, added

    def _load(self, index: int) -> IndexedFile:
        kept = self._kept.get(index)
        if kept is not None:
            return kept
        out: IndexedFile = pickle.loads(self.spill.get((self._where[4 * index], self._where[4 * index + 1])))
        for blob in self._extra.get(index, ()):
            nodes, edges = pickle.loads(blob)
            out.nodes.extend(nodes)
            out.edges.extend(edges)
        return out

    def __len__(self) -> int:
        return len(self.paths)

    @overload
    def __getitem__(self, index: int) -> IndexedFile: ...

    @overload
    def __getitem__(self, index: slice) -> list[IndexedFile]: ...

    def __getitem__(self, index: int | slice) -> IndexedFile | list[IndexedFile]:
        if isinstance(index, slice):
            return [self._load(i) for i in range(len(self.paths))[index]]
        return self._load(self._row(index))

    def __iter__(self) -> Iterator[IndexedFile]:
        for i in range(len(self.paths)):
            yield self._load(i)
