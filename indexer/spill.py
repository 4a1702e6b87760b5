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

__all__ = ["HandedOutputs", "SpillFile", "SpillRef", "SpilledOutputs", "Summarise", "spill_file"]

SpillRef = tuple[int, int]
"""Where :meth:`SpillFile.put` wrote a byte string: ``(offset, length)`` in bytes."""

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
        a full cache folder must not stop an index run (unless :attr:`pinned`: then ``OSError``)."""
        with self._lock:
            offset = self._end
            while True:
                try:
                    self._fh.seek(offset)
                    _write_all(self._fh, data)
                    break
                except OSError:
                    if self._where == "memory" or self.pinned:
                        raise
                    self._move()
            self._end += len(data)
            return offset, len(data)

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


def _write_all(fh: IO[bytes], data: bytes) -> None:
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
    where each output is in the file (or the output itself, kept in memory), the paths, the
    summaries and what was added to spilled outputs, and the file's size once the copy was done
    (bytes). Picklable; holds no output read back."""

    items: list[IndexedFile | SpillRef]
    paths: list[str]
    summaries: list[tuple[object, SpillRef | None] | None]
    extra: dict[int, list[bytes]]
    spilled_with: dict[int, tuple[object, SpillRef | None]]
    size: int


class SpilledOutputs(Sequence[IndexedFile]):
    """File outputs (:class:`stores.contracts.IndexedFile`) in order, each kept in memory or pickled
    into a :class:`SpillFile` (:meth:`append`). Reading one that was spilled unpickles a new copy
    each time: a change to it is kept only through :meth:`replace`. ``paths`` lists the files' paths
    without loading them."""

    __slots__ = ("spill", "_items", "paths", "_extra", "summarise", "_summaries", "_spilled_with")

    def __init__(self, spill: SpillFile | None = None, summarise: Summarise | None = None) -> None:
        self.spill = spill if spill is not None else SpillFile()
        self._items: list[IndexedFile | SpillRef] = []
        self.paths: list[str] = []
        self.summarise = summarise
        """Applied to each output as it is spilled: what a reader needs of every output without
        reading it back (the writer's digest, :meth:`summary`), and a record of bytes to keep beside
        it in the spill file (or ``None``). A pure function of the output, so that another process
        may apply it (:meth:`append_summarised`)."""
        self._summaries: list[tuple[object, SpillRef | None] | None] = []
        self._extra: dict[int, list[bytes]] = {}
        """Per index of a spilled output, what :meth:`extend` added to it, pickled (in memory): a
        read appends it, so the output itself is not read back and spilled again."""
        self._spilled_with: dict[int, tuple[object, SpillRef | None]] = {}
        """Per index of a spilled output :meth:`extend` added to, the summary it was spilled with
        (:meth:`extended`)."""

    def hand_over(self) -> HandedOutputs:
        """What another process sharing :attr:`spill` (the parent of this forked copy) needs to read
        these outputs as this one would (:meth:`taken_over`); the lists are this object's own, not
        copies. Raises ``OSError`` when the spill file was moved (:attr:`SpillFile.moved`): the
        outputs are then in a file, or memory, the other process cannot read."""
        if self.spill.moved:
            raise OSError("the spill file was moved out of the file the parent shares")
        return HandedOutputs(self._items, self.paths, self._summaries, self._extra, self._spilled_with,
                             self.spill.size)

    @classmethod
    def taken_over(cls, handed: HandedOutputs, spill: SpillFile, summarise: Summarise | None = None) -> SpilledOutputs:
        """The outputs a forked copy of this process handed over (:meth:`hand_over`), read from
        ``spill``, this process's handle on the file they were spilled to (told the copy's size,
        :meth:`SpillFile.written_to`); ``summarise`` as :attr:`summarise`. Raises ``ValueError`` when
        ``spill`` holds more bytes than the copy says the file had (not the file it wrote)."""
        spill.written_to(handed.size)
        out = cls(spill, summarise)
        out._items, out.paths, out._summaries = handed.items, handed.paths, handed.summaries
        out._extra, out._spilled_with = handed.extra, handed.spilled_with
        return out

    def append(self, out: IndexedFile, keep: bool = False, blob: bytes | None = None) -> None:
        """Add ``out`` at the end: kept as it is when ``keep``, else pickled into the spill file
        (``out`` is then no longer referenced here; ``blob``: its pickle, when the caller has it)."""
        self.replace(len(self._items), out, keep, blob)

    def replace(self, index: int, out: IndexedFile, keep: bool = False, blob: bytes | None = None) -> None:
        """Put ``out`` at ``index`` (``len(self)``: append), kept or spilled as :meth:`append`."""
        item: IndexedFile | SpillRef = out if keep else self.spill.put(
            blob if blob is not None else pickle.dumps(out, protocol=pickle.HIGHEST_PROTOCOL))
        summary = self._placed(*self.summarise(out)) if self.summarise is not None and not keep else None
        self._set(index, item, out.file.path, summary)

    def append_summarised(self, path: str, blob: bytes, value: object, record: bytes | None) -> None:
        """Add at the end the output of the file ``path`` pickled as ``blob``, with what
        :attr:`summarise` gave for it (``value``, ``record``) where it was made (another process):
        the output is not unpickled here."""
        self._set(len(self._items), self.spill.put(blob), path, self._placed(value, record))

    def _placed(self, value: object, record: bytes | None) -> tuple[object, SpillRef | None]:
        return value, self.spill.put(record) if record is not None else None

    def _set(self, index: int, item: IndexedFile | SpillRef, path: str, summary: tuple[object, SpillRef | None] | None) -> None:
        if index == len(self._items):
            self._items.append(item)
            self.paths.append(path)
            self._summaries.append(summary)
        else:
            self._items[index] = item
            self._summaries[index] = summary
            self._extra.pop(index, None)
            self._spilled_with.pop(index, None)

    def summary(self, index: int) -> tuple[object, SpillRef | None] | None:
        """``(value, where its record is)`` of what :attr:`summarise` gave for the output at
        ``index`` when it was spilled (the reference ``None`` without a record); ``None`` without a
        summary, for an output kept in memory, or once :meth:`extend` added to it (then the summary
        no longer describes it: read the output)."""
        return self._summaries[index]

    def extend(self, index: int, nodes: Sequence[Node], edges: Sequence[Edge]) -> None:
        """Append ``nodes`` and ``edges`` to the output at ``index`` (the framework linker's): in
        place when it is kept in memory; else kept beside it, pickled, and appended (a new copy) on
        every read, which then sees what reading back, extending and spilling it again would have
        given. Raises ``IndexError`` for an index not in the sequence."""
        item = self._items[index]
        if isinstance(item, IndexedFile):
            item.nodes.extend(nodes)
            item.edges.extend(edges)
        elif nodes or edges:
            before = self._summaries[index]
            if before is not None:
                self._spilled_with[index] = before
            self._summaries[index] = None
            self._extra.setdefault(index, []).append(
                pickle.dumps((list(nodes), list(edges)), protocol=pickle.HIGHEST_PROTOCOL))

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
        item = self._items[index]
        if isinstance(item, IndexedFile):
            return item
        out: IndexedFile = pickle.loads(self.spill.get(item))
        for blob in self._extra.get(index, ()):
            nodes, edges = pickle.loads(blob)
            out.nodes.extend(nodes)
            out.edges.extend(edges)
        return out

    def __len__(self) -> int:
        return len(self._items)

    @overload
    def __getitem__(self, index: int) -> IndexedFile: ...

    @overload
    def __getitem__(self, index: slice) -> list[IndexedFile]: ...

    def __getitem__(self, index: int | slice) -> IndexedFile | list[IndexedFile]:
        if isinstance(index, slice):
            return [self._load(i) for i in range(len(self._items))[index]]
        if index < 0:
            index += len(self._items)
        if not 0 <= index < len(self._items):
            raise IndexError(f"output {index} of {len(self._items)}")
        return self._load(index)

    def __iter__(self) -> Iterator[IndexedFile]:
        for i in range(len(self._items)):
            yield self._load(i)
