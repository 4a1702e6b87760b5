"""The parts of a file's extraction only its own output reads, parked on disk while the resolver runs.

The resolver holds every file's :class:`~indexer.model.FileExtraction` for a whole run, yet some of
its lists are read only when that file itself is bound (never when another file is): the call sites
(its output, its parameters' calls, the table linker), the type uses and injections (its output),
the table accesses (the table linker); and the bindings, most of them function locals only the
file's own binding reads (:mod:`indexer.resolve.bindings` keeps the others in memory). :class:`ParkedList` keeps such a list as a pickle in a
:class:`indexer.spill.SpillFile` (``(offset, length)`` plus the item count) and unpickles it on each
iteration, so those lists cost the resolver a few dozen bytes per file instead of their objects or
their pickles (Django 5.2.8: the call sites' pickles alone are 13.4 MiB). :func:`park_extraction`
parks a file's lists (:data:`PARKED_FIELDS`) in place, and its definitions: other files do read
those, but what their lookups and call binding read (names, kind, first line, parameter counts) the
resolver's :class:`~indexer.resolve.values.Def` objects hold; the rest (positions, signature,
decorators, bases, types) is read back per file through :class:`UnpackedLists`, which keeps the
lists read last (the 45-package synthetic monorepo: the extract phase ends at 112 MiB instead of
188, docs/benchmarks.md).

A parked list that cannot be read back (the spill file closed, shortened or overwritten) raises
:class:`ParkedDataError`: a run stops with that message instead of binding a file without its calls.
"""

from __future__ import annotations

import contextlib
import pickle
import threading
from collections import OrderedDict
from collections.abc import Iterator, Sequence
from typing import TYPE_CHECKING, Any, overload

from indexer.compact import compact_extraction, elide_docstrings
from indexer.packed import PackedList, pack_calls, pack_lists
from indexer.resolve.import_table import ImportList, import_table
from indexer.spill import SpillFile, SpillRef

if TYPE_CHECKING:
    from indexer.model import FileExtraction

__all__ = ["PARKED_FIELDS", "UNPACKED_LISTS", "ParkedDataError", "ParkedList", "UnpackedLists", "pack_for_parking",
           "park_extraction"]

PARKED_FIELDS = ("calls", "type_uses", "value_reads", "injections", "table_uses", "bindings", "arg_candidates")
""":class:`~indexer.model.FileExtraction` lists that only the file's own binding reads (its output,
:attr:`indexer.resolve.context.FileCtx.param_calls`, the table linker), which
:func:`park_extraction` parks; and its bindings, of which the resolver keeps in memory only those
other files can read (:class:`indexer.resolve.bindings.ScopedBindings`); and its candidate wrapper calls, which
only the resolver's gate reads (:class:`indexer.frameworks.arg_call_rule.CandidateGate`: when the file comes, and
again only when the repository's wrapper names change), held unparked 13.7 MiB of the resolving child's peak on
Django (16,587 candidates)."""


class ParkedDataError(RuntimeError):
    """A parked list could not be read back as it was written (spill file closed, truncated or
    overwritten): the file's binding cannot go on without it."""


_SIZE_LIMIT = 1 << 32
"""Pickles shorter than this (4 GiB: every real one) have their reference held as one int."""


class ParkedList(Sequence[Any]):
    """An immutable sequence stored as one pickle of a list in a :class:`SpillFile`, unpickled on
    each iteration or index. Equal to any sequence of the same items in the same order; pickles (and
    copies deeply) as a plain list. Reading raises :class:`ParkedDataError` when the bytes at its
    reference are not the list it parked."""

    __slots__ = ("spill", "_at", "_len")

    def __init__(self, spill: SpillFile, ref: SpillRef, length: int) -> None:
        # the reference's two numbers as one int (offset << 32 | size), not the tuple put() returned
        # nor two ints: the resolver holds four to six parked lists per file for a whole run, and
        # each int above 256 is an object of its own (32 bytes in pymalloc), the tuple 56 bytes more
        offset, size = ref
        self.spill, self._len = spill, length
        self._at: int | SpillRef = offset << 32 | size if 0 <= size < _SIZE_LIMIT and offset >= 0 else ref

    @property
    def offset(self) -> int:
        """Where the list's pickle starts in :attr:`spill`, in bytes."""
        at = self._at
        return at >> 32 if type(at) is int else at[0]  # type: ignore[index]

    @property
    def size(self) -> int:
        """The length of the list's pickle in :attr:`spill`, in bytes."""
        at = self._at
        return at & (_SIZE_LIMIT - 1) if type(at) is int else at[1]  # type: ignore[index,operator]

    @property
    def ref(self) -> SpillRef:
        """Where the list's pickle is in :attr:`spill`: ``(offset, length)`` in bytes."""
        at = self._at
        return (at >> 32, at & (_SIZE_LIMIT - 1)) if type(at) is int else at  # type: ignore[return-value,operator]

    @classmethod
    def park(cls, spill: SpillFile, items: Sequence[Any]) -> ParkedList:
        """``items`` written to ``spill`` (a :class:`~indexer.packed.PackedList`, as a worker sends a
        file's call sites and its other :data:`PARKED_FIELDS`, keeps its pickle as it is); raises
        ``OSError`` when nothing can be written."""
        blob = items.blob if isinstance(items, PackedList) else pickle.dumps(list(items), protocol=pickle.HIGHEST_PROTOCOL)
        return cls(spill, spill.put(blob), len(items))

    def unpack(self) -> list[Any]:
        """The items as a new list. Raises :class:`ParkedDataError` when they cannot be read back."""
        try:
            items = pickle.loads(self.spill.get(self.ref))
        except Exception as exc:  # out of range, closed, or bytes that are no pickle of ours
            raise ParkedDataError(f"parked extraction data at {self.ref} unreadable: {exc}") from exc
        if not isinstance(items, list) or len(items) != self._len:
            raise ParkedDataError(f"parked extraction data at {self.ref} is not the list of {self._len} items written")
        return items

    def __iter__(self) -> Iterator[Any]:
        return iter(self.unpack())

    def __len__(self) -> int:
        return self._len

    def __bool__(self) -> bool:
        return self._len > 0

    @overload
    def __getitem__(self, index: int) -> Any: ...

    @overload
    def __getitem__(self, index: slice) -> list[Any]: ...

    def __getitem__(self, index: int | slice) -> Any:
        return self.unpack()[index]

    def __eq__(self, other: object) -> bool:
        if isinstance(other, Sequence) and not isinstance(other, (str, bytes)):
            return len(other) == self._len and self.unpack() == list(other)
        return NotImplemented

    __hash__ = None  # type: ignore[assignment]  # equal to lists, which do not hash

    def __repr__(self) -> str:
        return repr(self.unpack())

    def __reduce__(self) -> tuple[type, tuple[list[Any]]]:
        return (list, (self.unpack(),))


def pack_for_parking(ex: FileExtraction) -> FileExtraction:
    """``ex`` as an extraction worker sends it (and the extraction cache keeps it): its call sites
    packed (:class:`~indexer.packed.PackedCalls`), each other non-empty list of :data:`PARKED_FIELDS`
    packed (:func:`~indexer.packed.pack_lists`), and its definitions, their docstrings elided
    (:func:`indexer.compact.elide_docstrings`, as :func:`park_extraction` would), packed too: the
    process that resolves parks those pickles as they are instead of unpickling the records and
    pickling them again (Django 5.2.8: receiving and parking 1,755 files' extractions 0.51 -> 0.10 s
    of CPU, docs/benchmarks.md, session 63, cpu63). Call it once the file is chunked (chunking reads
    the definitions whole). In place; returns ``ex``."""
    ex.calls = pack_calls(ex.calls)  # type: ignore[assignment]
    pack_lists(ex, PARKED_FIELDS)
    if ex.definitions and type(ex.definitions) is list:
        elide_docstrings(ex.definitions)
        ex.definitions = PackedList(ex.definitions)  # type: ignore[assignment]
    return ex


def park_extraction(ex: FileExtraction, spill: SpillFile) -> FileExtraction:
    """Park ``ex``'s non-empty :data:`PARKED_FIELDS` lists in ``spill`` (in place; those parked
    already stay; a packed list's pickle is written as it is: :func:`pack_for_parking`), and its
    definitions, their docstrings elided
    (:func:`indexer.compact.elide_docstrings`): the resolver keeps what its lookups read of them in
    its own :class:`~indexer.resolve.values.Def` objects and reads the rest back on demand
    (:meth:`indexer.resolve.context.FileCtx.definition`), so they are not compacted. Then point its
    empty list fields at one shared empty list and intern its imports' and exports' texts
    (:func:`indexer.compact.compact_extraction`: the extraction is complete once it is parked).
    Its imports are parked too, in the order of the resolver's table
    (:class:`~indexer.resolve.import_table.ImportList`: star imports first, then by local name, one
    name's in source order), which :func:`indexer.resolve.parked_imports.park_imports` takes as they
    are. Returns ``ex``. Raises ``OSError`` when the spill file cannot be written."""
    for name in PARKED_FIELDS:
        items = getattr(ex, name)
        if items and not isinstance(items, ParkedList):
            setattr(ex, name, ParkedList.park(spill, items))
    if ex.definitions and not isinstance(ex.definitions, ParkedList):
        if not isinstance(ex.definitions, PackedList):  # packed by pack_for_parking: elided already
            elide_docstrings(ex.definitions)
        ex.definitions = ParkedList.park(spill, ex.definitions)
    if ex.imports and not isinstance(ex.imports, ParkedList):
        # in the order the resolver's table keeps them (ImportList: star imports first, then by local
        # name), which is how indexer.resolve.parked_imports reads a parked list back: the extract
        # phase no longer holds an Import object per import until the resolver's context parks them
        # (the 10-package generated monorepo: 31,907 of them, 2.2 MiB, when the extract phase ends)
        ex.imports = ParkedList.park(spill, list(ImportList(import_table(ex.imports))))
    return compact_extraction(ex)


UNPACKED_LISTS = 64
"""How many parked lists an :class:`UnpackedLists` keeps read back at once by default."""


class UnpackedLists:
    """Parked lists read back, the ``size`` read last kept (least recently used dropped first): what
    is read item by item many times, such as a file's parked definitions
    (:meth:`indexer.resolve.context.FileCtx.definition`), is unpickled once while it is in use
    rather than on every read. Thread-safe. One per resolver: it holds the lists it keeps (and so
    their spill file) for as long as the resolver's files hold it, no longer."""

    __slots__ = ("size", "_lists", "_lock", "_last", "_held")

    def __init__(self, size: int = UNPACKED_LISTS) -> None:
        self.size = size
        self._lists: OrderedDict[int, tuple[ParkedList, list[Any]]] = OrderedDict()
        self._lock = threading.Lock()
        self._last: tuple[ParkedList, list[Any]] | None = None
        """The list read last and what it read back: most reads are of the file being bound, the
        same list as the read before, which is the most recently used already (nothing to move)."""
        self._held: dict[int, tuple[ParkedList, list[Any]]] = {}
        """The lists :meth:`holding` keeps read back while its block runs, per ``id``."""

    def get(self, items: ParkedList) -> list[Any]:
        """``items`` read back (a list shared with every other caller: do not change it). Raises
        :class:`ParkedDataError` as :meth:`ParkedList.unpack`."""
        last = self._last  # one read of one attribute: another thread may replace it, not change it
        if last is not None and last[0] is items:
            return last[1]
        key = id(items)
        with self._lock:
            hit = self._lists.get(key)
            if hit is not None and hit[0] is items:
                self._lists.move_to_end(key)
                self._last = hit
                return hit[1]
        out = items.unpack()  # outside the lock: another thread may read the same list meanwhile
        with self._lock:
            entry = self._lists[key] = (items, out)  # held with its list: the id is not reused meanwhile
            self._lists.move_to_end(key)
            while len(self._lists) > self.size:
                self._lists.popitem(last=False)
            self._last = entry if self.size > 0 else None  # size 0: keeps nothing, not even the last
        return out

    @contextlib.contextmanager
    def holding(self, items: ParkedList) -> Iterator[list[Any]]:
        """``items`` read back once and kept while the ``with`` block runs (:meth:`held` answers it
        there, to every thread), dropped when it ends: a list several readers go through while one
        piece of work runs, and never after, such as a file's call sites while the file is bound
        (:meth:`indexer.resolve.context.FileCtx.call_sites`: its output, its parameters' calls, its
        held arguments; each read unpickled them again, Django 5.2.8: 2-3 times a bound file,
        docs/benchmarks.md, session 67, r67a). Not kept in the least-recently-used lists. A block
        nested in one holding the same list yields that list and leaves it held. Yields the list (shared:
        do not change it); raises :class:`ParkedDataError` as :meth:`ParkedList.unpack`."""
        key = id(items)
        entry = self._held.get(key)
        if entry is not None and entry[0] is items:  # held by an enclosing block, which drops it
            yield entry[1]
            return
        out = items.unpack()
        with self._lock:
            self._held[key] = (items, out)  # held with its list: the id is not reused meanwhile
        try:
            yield out
        finally:
            with self._lock:
                self._held.pop(key, None)

    def held(self, items: ParkedList) -> list[Any] | None:
        """``items`` as a :meth:`holding` block running now read it back (shared: do not change
        it), or ``None`` when none holds it."""
        entry = self._held.get(id(items))
        return entry[1] if entry is not None and entry[0] is items else None

    def __len__(self) -> int:
        with self._lock:
            return len(self._lists)

    def clear(self) -> None:
        """Forget every list read back (a later :meth:`get` unpickles again): for a resolver that
        reads no more definitions in bulk (:meth:`indexer.resolve.repository.RepositoryResolver.release`),
        whose kept lists would otherwise live, with their definitions, as long as its files do."""
        with self._lock:
            self._lists.clear()
            self._last = None
